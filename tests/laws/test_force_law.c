/*
** test_force_law.c: a program that adds a force law of its own (the
** exponential law, force_law.c) with one registration line, and checks
** that the runtime's force-element paths ask it (runtime/src/law.h: force,
** force_rate, stiffness, series, stored) by rk4, adaptive and taylor; and
** the penalty law released by gap under the taylor method, whose closed
** gap's event series must be the penetration (closed_gap_event).
**
** 1. A mass m meets a wall of the exponential law f(p) = k d (exp(p/d) - 1)
**    at speed v0, no other force: it engages at t_in = d0 / v0 (d0 the
**    distance to the wall), leaves after the contact's duration T at -v0
**    (the law is conservative) and flies back.  T and the deepest
**    penetration P from tests/laws/force_law_ref.py (mpmath: V(P) =
**    m v0^2 / 2 and T = 2 integral_0^P dp / sqrt(v0^2 - 2 V(p)/m)); the
**    audit's balance (kinetic + the law's stored energy) closes, and the
**    contact statistics' impulse (a Gauss quadrature of the law's force,
**    stats.c) is 2 m v0.  A path that applied the penalty law's k p (num.kc = k here)
**    instead would leave T = pi sqrt(m/k) = 31 ms, not 10.5 ms.
** 2. The same table not declared nonlinear (nsm_model.nl = 0) is refused
**    with its reason: the exact method would apply only the force's linear
**    part k p.
** 3. A mass on a floor of the penalty law k p + c p' released by gap,
**    under gravity, in a table declared nonlinear (a state force that is
**    0) so that taylor runs it by its nonlinear method: it starts pressed
**    in by p0 and rising at u, with c u > k p0 (its force already pulls),
**    so that it leaves the floor at t_r (the damped oscillator's closed
**    form x(t) = x_eq + exp(-a t) (A cos wd t + B sin wd t) = 0), flies
**    and lands at t_r + 2 v_r / g.  The flight is shorter than the taylor
**    method's step in the contact mode: the release is found only if the
**    engaged gap's event series is its penetration, which dips below 0
**    within the step (nltaylor.c's cut_at_dips); the force's series starts
**    below 0 and would not be searched.
** With the argument `unregistered` the exponential law is left out and
** the model must be refused with a clear reason.  FORCE_TRACE=1 prints
** the events.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "force_law.h"
#include "law_check.h"
#include "nsm/nsm.h"

/* ---- 1. a mass against a wall of the exponential law ----------------------- */

enum { M, V0, D0 };

static const double ref_P = 0.0040074689755683338287;   /* force_law_ref.py */
static const double ref_T = 0.010471151974384893711;

static const char *const wall_bodies[] = { "B" };
static const nsm_param_info wall_params[] = {
    { "m", "kg", 1.0 }, { "v0", "m/s", 1.0 }, { "d0", "m", 0.01 },
};
static const nsm_gap_info wall_gaps[] = { { "wall", FORCE_LAW, NSM_RELEASE_GAP } };
static const nsm_output_info wall_outputs[] = { { "B.x", "m", NSM_OUT_X, 0 } };

/* The mass, the wall's gap d0 - x; num.kc says the law's k, which the law
** does not read (its own parameters are force_law.h's). */
static int wall_setup(const double *p, double *c, nsm_numeric *num)
{
    (void)c;
    num->mass[0] = p[M];
    num->fconst[0] = 0;
    num->W.row[0] = 0, num->W.col[0] = 0, num->W.val[0] = -1;
    num->d[0] = p[D0];
    num->e[0] = 0;
    num->kc[0] = FORCE_K;
    num->cc[0] = 0;
    num->gravity = 0;
    return 0;
}

/* At x = 0 moving at v0 towards the wall. */
static void wall_initial(const double *p, const double *c, double *y)
{
    (void)c;
    y[0] = 0;
    y[1] = p[V0];
}

/* No force of the state: the nonlinearity is the law's. */
static void no_force(double t, const double *y, const int *sw, const double *p, const double *c,
                     double *F)
{
    (void)t, (void)y, (void)sw, (void)p, (void)c, (void)F;
}

/* Its series: every order 0. */
static void no_series(int k, int K, double t0, const double *X, const int *sw, const double *p,
                      const double *c, double *w, double *F, double *G, double *CV, double *WV)
{
    (void)t0, (void)X, (void)sw, (void)p, (void)c, (void)w, (void)G, (void)CV, (void)WV;
    F[k] = 0;
    (void)K;
}

static const nsm_model wall_model = {
    .abi = NSM_ABI_VERSION, .name = "exp_wall", .title = "a mass against a wall of the exponential law",
    .n_bodies = 1, .n_params = 3, .n_gaps = 1, .body_names = wall_bodies, .params = wall_params,
    .gaps = wall_gaps, .n_outputs = 1, .outputs = wall_outputs, .t_end = 0.03, .dt = 1e-6,
    .every = 1e-3, .method = NSM_METHOD_TAYLOR, .setup = wall_setup, .initial = wall_initial,
    .nnz_W = 1, .nl = NSM_NL_PENALTY, .nl_force = no_force, .nl_series = no_series,
};

/* Events seen at gap 0: engagements and releases, their times and the
** relative velocity at the release. */
typedef struct Seen {
    int enters, exits;
    double t_in, t_out, v_out, t_in2;
} Seen;

/* The event handler: keeps the first engagement and release and the second
** engagement. */
static int on_event(void *ud, const nsm_sim *s, const nsm_event *ev)
{
    Seen *seen = ud;
    (void)s;
    if (getenv("FORCE_TRACE"))
        printf("event t=%.15g kind=%d contact=%d vb=%.12g va=%.12g\n", ev->t, ev->kind,
               ev->contact, ev->vrel_before, ev->vrel_after);
    if (ev->contact != 0)
        return 0;
    if (ev->kind == NSM_EV_CONTACT_ENTER && seen->enters++ == 0)
        seen->t_in = ev->t;
    else if (ev->kind == NSM_EV_CONTACT_ENTER && seen->enters == 2)
        seen->t_in2 = ev->t;
    if (ev->kind == NSM_EV_CONTACT_EXIT && seen->exits++ == 0)
        seen->t_out = ev->t, seen->v_out = ev->vrel_before;
    return 0;
}

/* Create a simulation of m with method and step dt (0: the model's), or
** count a failure. */
static nsm_sim *make(const nsm_model *m, int method, double dt)
{
    nsm_sim *s = law_sim(m, method, m->title);
    if (s && dt > 0)
        nsm_sim_set_dt(s, dt);
    return s;
}

/* 1: the wall of the exponential law by method. */
static void run_wall(int method, double tol)
{
    double m = 1, v0 = 1, d0 = 0.01, t_end = 0.03;
    nsm_sim *s = make(&wall_model, method, method == NSM_METHOD_RK4 ? 1e-6 : 0);
    Seen seen = { 0 };
    if (!s)
        return;
    nsm_sim_set_event_handler(s, on_event, &seen);
    if (law_run_to(s, t_end)) {
        nsm_sim_free(s);
        return;
    }
    double t_in = d0 / v0, t_out = t_in + ref_T;
    const double *y = nsm_sim_state(s);
    check("one engagement", seen.enters, 1, 0);
    check("one release", seen.exits, 1, 0);
    check("engagement at d0 / v0", seen.t_in, t_in, 1e-14);
    check("contact duration T (mpmath)", seen.t_out - seen.t_in, ref_T, tol * ref_T);
    check("the gap opens at v0 (conservative)", seen.v_out, v0, tol * v0);
    check("v at t_end", y[1], -v0, tol * v0);
    check("x at t_end, flying back from the wall", y[0], d0 - v0 * (t_end - t_out),
          tol * d0 + 1e-12);
    nsm_audit a;
    nsm_contact_stats cs;
    nsm_sim_audit(s, &a);
    nsm_sim_contact_stats(s, 0, &cs);
    check("energy balance (kinetic + the law's stored energy)", a.error_max, 0,
          tol * 0.5 * m * v0 * v0);
    check("contact time in the statistics", cs.contact_time, ref_T, tol * ref_T);
    /* the law has no impulse hook: the statistics' Gauss quadrature on the
     * cubic Hermite interpolant of p, O(h^4), 1e-6 over taylor's long steps */
    check("impulse of the law's force over the contact, 2 m v0", cs.impulse, 2 * m * v0,
          method == NSM_METHOD_TAYLOR ? 1e-5 * 2 * m * v0 : 1e-12 * 2 * m * v0);
    nsm_sim_free(s);
}

/* The deepest penetration: by taylor, sampled densely around T/2 after
** engagement (the state interpolated at the samples). */
static void run_wall_depth(void)
{
    nsm_sim *s = make(&wall_model, NSM_METHOD_TAYLOR, 0);
    if (!s)
        return;
    double t_mid = 0.01 + ref_T / 2, xmax = 0;
    if (law_run_to(s, t_mid - 1e-4)) {
        nsm_sim_free(s);
        return;
    }
    for (int i = 0; i <= 200; i++) {
        if (law_run_to(s, t_mid - 1e-4 + i * 1e-6))
            break;
        xmax = fmax(xmax, nsm_sim_state(s)[0]);
    }
    check("deepest penetration P (mpmath)", xmax - 0.01, ref_P, 1e-9 * ref_P);
    nsm_sim_free(s);
}

/* 2: the table that does not declare the law's nonlinearity is refused. */
static void run_linear_refused(void)
{
    nsm_model lin = wall_model;
    lin.nl = 0, lin.nl_force = NULL, lin.nl_series = NULL, lin.method = NSM_METHOD_EXACT;
    nsm_sim *s = nsm_sim_create(&lin);
    int rc = s ? nsm_sim_run_until(s, 0.001) : NSM_EMODEL;
    const char *why = s ? nsm_sim_message(s) : "";
    int ok = rc == NSM_EMODEL && strstr(why, "nonlinear force");
    printf("%s a nonlinear force law in a linear table refused: %s\n", ok ? "ok  " : "FAIL", why);
    failures += !ok;
    nsm_sim_free(s);
}

/* ---- 3. the penalty law released by gap, taylor's event series -------------- */

enum { PM, PK, PC, PG, PP0, PU };

static const nsm_param_info floor_params[] = {
    { "m", "kg", 1.0 }, { "k", "N/m", 100.0 }, { "c", "N*s/m", 0.2 }, { "g", "m/s^2", 9.81 },
    { "p0", "m", 5e-6 }, { "u", "m/s", 0.01 },
};
static const nsm_gap_info floor_gaps[] = { { "floor", NSM_LAW_PENALTY, NSM_RELEASE_GAP } };

/* The mass, its weight, the floor's gap x, its penalty law k p + c p'. */
static int floor_setup(const double *p, double *c, nsm_numeric *num)
{
    (void)c;
    num->mass[0] = p[PM];
    num->fconst[0] = -p[PM] * p[PG];
    num->W.row[0] = 0, num->W.col[0] = 0, num->W.val[0] = 1;
    num->d[0] = 0;
    num->e[0] = 0;
    num->kc[0] = p[PK];
    num->cc[0] = p[PC];
    num->gravity = p[PG];
    return 0;
}

/* Pressed in by p0, rising at u. */
static void floor_initial(const double *p, const double *c, double *y)
{
    (void)c;
    y[0] = -p[PP0];
    y[1] = p[PU];
}

static const nsm_model floor_model = {
    .abi = NSM_ABI_VERSION, .name = "pen_floor", .title = "a mass leaving a damped penalty floor",
    .n_bodies = 1, .n_params = 6, .n_gaps = 1, .body_names = wall_bodies, .params = floor_params,
    .gaps = floor_gaps, .n_outputs = 1, .outputs = wall_outputs, .t_end = 0.05, .dt = 0,
    .every = 0.01, .method = NSM_METHOD_TAYLOR, .setup = floor_setup, .initial = floor_initial,
    .nnz_W = 1, .nl = NSM_NL_FORCE, .nl_force = no_force, .nl_series = no_series,
};

/* x(t) and x'(t) of the engaged mass: m x'' = -m g - k x - c x' from
** (-p0, u), the damped oscillator's closed form about x_eq = -m g / k. */
static void floor_closed(double t, double *x, double *v)
{
    double m = 1, k = 100, c = 0.2, g = 9.81, p0 = 5e-6, u = 0.01;
    double a = c / (2 * m), wd = sqrt(k / m - a * a), xe = -m * g / k;
    double A = -p0 - xe, B = (u + a * A) / wd, ea = exp(-a * t);
    double cs = cos(wd * t), sn = sin(wd * t);
    *x = xe + ea * (A * cs + B * sn);
    *v = ea * (-a * (A * cs + B * sn) + wd * (-A * sn + B * cs));
}

/* 3: released by gap, by method: the release at t_r (Newton on the closed
** form from the time it rises past 0 at its initial speed) and the landing
** after a flight of 2 v_r / g. */
static void run_floor(int method, double tol)
{
    double g = 9.81, t = 0, x, v;     /* x concave and rising: Newton from 0 stays below t_r */
    for (int i = 0; i < 60; i++) {
        floor_closed(t, &x, &v);
        t -= x / v;
    }
    floor_closed(t, &x, &v);
    double t_r = t, v_r = v, t_l = t_r + 2 * v_r / g;
    nsm_sim *s = make(&floor_model, method, method == NSM_METHOD_RK4 ? 1e-5 : 0);
    Seen seen = { 0 };
    if (!s)
        return;
    nsm_sim_set_event_handler(s, on_event, &seen);
    if (law_run_to(s, 0.05)) {
        nsm_sim_free(s);
        return;
    }
    check("released once, by gap", seen.exits, 1, 0);
    check("release time (closed form)", seen.t_out, t_r, tol);
    check("speed at the release", seen.v_out, v_r, tol * 10);
    check("engaged again on landing", seen.enters, 1, 0);
    check("landing time t_r + 2 v_r / g", seen.t_in, t_l, tol * 10);
    nsm_sim_free(s);
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "unregistered"))
        return law_unregistered(&wall_model);
    if (force_law_register() != NSM_OK) {   /* the program's one registration line */
        printf("FAIL the exponential law could not be registered\n");
        return 1;
    }
    run_wall(NSM_METHOD_TAYLOR, 1e-10);
    run_wall(NSM_METHOD_RK4, 1e-9);
    run_wall(NSM_METHOD_ADAPTIVE, 1e-7);
    run_wall_depth();
    run_linear_refused();
    run_floor(NSM_METHOD_TAYLOR, 1e-10);
    run_floor(NSM_METHOD_RK4, 1e-9);
    printf("%s\n", failures ? "FAILED" : "all passed");
    return failures ? 1 : 0;
}
