/*
 * rt_tests.c: numeric tests of libnsmrt against closed forms, on the
 * hand-written models of tests/runtime/models.  Usage: rt_tests NAME; exit 0
 * when the test passes.  References are computed here, independently of the
 * runtime: free flights, damped oscillators and their roots by bisection.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nsm/nsm.h"

extern const nsm_model ball_model, two_mass_model, two_mass_generic_model, penalty_model,
    forced_model, stack_model;

#define MAXEV 4096

typedef struct Log {
    int n;
    nsm_event ev[MAXEV];
} Log;

static int failures;

/* Check |got - want| <= tol * max(1, |want|) (tol relative, absolute near 0). */
static void check(const char *what, double got, double want, double tol)
{
    double err = fabs(got - want), sc = fmax(1.0, fabs(want));
    int ok = err <= tol * sc;
    printf("%s %-40s got %.17g want %.17g err %.3g\n", ok ? "ok  " : "FAIL", what, got, want, err / sc);
    if (!ok)
        failures++;
}

static void check_true(const char *what, int cond)
{
    printf("%s %s\n", cond ? "ok  " : "FAIL", what);
    if (!cond)
        failures++;
}

static int on_event(void *ud, const nsm_sim *sim, const nsm_event *ev)
{
    Log *l = ud;
    (void)sim;
    if (l->n < MAXEV)
        l->ev[l->n++] = *ev;
    return 0;
}

/* Create a simulation with the given method and step, logging events. */
static nsm_sim *make(const nsm_model *m, int method, double dt, Log *log)
{
    nsm_sim *s = nsm_sim_create(m);
    if (!s) {
        printf("FAIL cannot create simulation\n");
        exit(1);
    }
    nsm_sim_set_method(s, method);
    nsm_sim_set_dt(s, dt);
    log->n = 0;
    nsm_sim_set_event_handler(s, on_event, log);
    return s;
}

/* Run, failing the test with the message on error. */
static void run(nsm_sim *s, double t)
{
    int rc = nsm_sim_reset(s);
    if (!rc)
        rc = nsm_sim_run_until(s, t);
    if (rc) {
        printf("FAIL run returned %d: %s\n", rc, nsm_sim_message(s));
        failures++;
    }
}

/* i-th event of a kind, NULL if missing. */
static const nsm_event *nth(const Log *l, int kind, int i)
{
    for (int k = 0; k < l->n; k++)
        if (l->ev[k].kind == kind && i-- == 0)
            return &l->ev[k];
    return NULL;
}

static int count(const Log *l, int kind)
{
    int c = 0;
    for (int k = 0; k < l->n; k++)
        c += l->ev[k].kind == kind;
    return c;
}

static double ev_t(const Log *l, int kind, int i)
{
    const nsm_event *e = nth(l, kind, i);
    return e ? e->t : NAN;
}

static int method_of(const char *name)
{
    const char *us = strrchr(name, '_');
    return nsm_method_parse(us ? us + 1 : "rk4");
}

/* ---- ball ------------------------------------------------------------- */

/* Impact times of the ball from h under g: t1 = sqrt(2h/g), flights 2 e^k t1. */
static void test_ball(int method, double tol)
{
    Log l;
    nsm_sim *s = make(&ball_model, method, 1e-3, &l);
    nsm_sim_set_zeno(s, 0);
    run(s, 1.5);
    double g = 9.81, h = 1, e = 0.5, t1 = sqrt(2 * h / g), t = t1, fl = 2 * e * t1;
    for (int k = 0; k < 4; k++) {
        char what[64];
        snprintf(what, sizeof what, "impact %d time", k + 1);
        check(what, ev_t(&l, NSM_EV_IMPACT, k), t, tol);
        t += fl;
        fl *= e;
    }
    const nsm_event *e1 = nth(&l, NSM_EV_IMPACT, 0);
    if (e1) {
        check("impact 1 vrel before", e1->vrel_before, -g * t1, tol);
        check("impact 1 vrel after", e1->vrel_after, e * g * t1, tol);
        check("impact 1 impulse", e1->impulse, (1 + e) * g * t1, tol);
        check("impact 1 energy lost", e1->energy_lost, 0.5 * (1 - e * e) * g * g * t1 * t1, tol);
    }
    check("energy balance", nsm_sim_energy(s, NULL, NULL, NULL, NULL), 0, 1e3 * tol);
    nsm_sim_free(s);
}

/* Zeno: the ball comes to rest at t* = t1 (1 + e)/(1 - e), one zeno event,
** then sticks with contact force m g. */
static void test_zeno(int method, double tol)
{
    Log l;
    nsm_sim *s = make(&ball_model, method, 1e-3, &l);
    run(s, 3.0);
    double g = 9.81, e = 0.5, t1 = sqrt(2 / g), ts = t1 * (1 + e) / (1 - e);
    check_true("exactly one zeno event", count(&l, NSM_EV_ZENO) == 1);
    check("accumulation time", ev_t(&l, NSM_EV_ZENO, 0), ts, tol);
    const nsm_event *z = nth(&l, NSM_EV_ZENO, 0);
    check_true("zeno count covers the cascade", z && z->count >= 4);
    check_true("stick after zeno", count(&l, NSM_EV_STICK) == 1 && ev_t(&l, NSM_EV_STICK, 0) == ev_t(&l, NSM_EV_ZENO, 0));
    check_true("few impacts before the jump", count(&l, NSM_EV_IMPACT) < 40);
    check("rest position", nsm_sim_state(s)[0], 0, 1e-9);
    check("rest velocity", nsm_sim_state(s)[1], 0, 1e-12);
    check("contact force m g", nsm_sim_output(s, 2), g, 1e-12);
    check_true("mode stuck at the end", nsm_sim_mode(s) == 1u);
    check("energy balance", nsm_sim_energy(s, NULL, NULL, NULL, NULL), 0, 1e-9);
    nsm_sim_free(s);
    /* a run that ends inside the cascade stops at its end time; the next one
     * jumps to the same accumulation point */
    s = make(&ball_model, method, 1e-3, &l);
    nsm_sim_reset(s);
    check_true("run ending inside the cascade", nsm_sim_run_until(s, ts - 1e-6) == NSM_OK);
    check("stops at its end time", nsm_sim_time(s), ts - 1e-6, 0);
    check_true("no zeno yet", count(&l, NSM_EV_ZENO) == 0);
    check_true("next run", nsm_sim_run_until(s, 2) == NSM_OK);
    check("same accumulation time", ev_t(&l, NSM_EV_ZENO, 0), ts, tol);
    nsm_sim_free(s);
}

static int count_samples(void *ud, const nsm_sim *sim, double t)
{
    (void)sim;
    double *last = ud;
    *last = t;
    return 0;
}

/* An impact exactly at the end time (h = 1, g = 8: t = 1/2 = t_end) is
** reported, and the last sample is at t_end. */
static void test_tend(int method)
{
    Log l;
    double last = -1;
    nsm_sim *s = make(&ball_model, method, 1e-3, &l);
    nsm_sim_set_param(s, "g", 8);
    nsm_sim_set_every(s, 0.01);
    nsm_sim_set_sample_handler(s, count_samples, &last);
    run(s, 0.5);
    check_true("one impact", count(&l, NSM_EV_IMPACT) == 1);
    check("impact at t_end", ev_t(&l, NSM_EV_IMPACT, 0), 0.5, 1e-15);
    check("last sample at t_end", last, 0.5, 0);
    check("final time", nsm_sim_time(s), 0.5, 0);
    check("velocity after the impact", nsm_sim_state(s)[1], 0.5 * 4, 1e-12);
    nsm_sim_free(s);
}

/* Running to 8 s then to 20 s gives the run to 20 s in one call (the split
** falls on a sample time, where both runs land anyway); a changed step
** applies from the next step without a restart. */
static void test_resume(void)
{
    Log la, lb;
    nsm_sim *a = make(&two_mass_model, NSM_METHOD_RK4, 1e-3, &la);
    nsm_sim *b = make(&two_mass_model, NSM_METHOD_RK4, 1e-3, &lb);
    run(a, 20);
    nsm_sim_reset(b);
    check_true("first part runs", nsm_sim_run_until(b, 8) == NSM_OK && nsm_sim_time(b) == 8);
    check_true("second part runs", nsm_sim_run_until(b, 20) == NSM_OK);
    check_true("same events", la.n == lb.n);
    for (int i = 0; i < 4; i++)
        check("same final state", nsm_sim_state(b)[i], nsm_sim_state(a)[i], 1e-14);
    long steps = nsm_sim_steps(b);
    nsm_sim_set_dt(b, 1e-2);
    check_true("continues after a new step", nsm_sim_run_until(b, 21) == NSM_OK && nsm_sim_time(b) == 21);
    check_true("with the new step", nsm_sim_steps(b) - steps <= 101);
    nsm_sim_free(a);
    nsm_sim_free(b);
}

/* ---- two masses ------------------------------------------------------ */

static const double m1 = 5, m2 = 5, c1 = 1, c2 = 1, k1 = 2, k2 = 1;

/* Damped oscillator m x'' + c x' + k x = 0 (underdamped) from (x0, v0): x(t), v(t). */
static void damped(double m, double c, double k, double x0, double v0, double t, double *x,
                   double *v)
{
    double a = c / (2 * m), wd = sqrt(k / m - a * a), ex = exp(-a * t);
    double B = (v0 + a * x0) / wd, co = cos(wd * t), si = sin(wd * t);
    *x = ex * (x0 * co + B * si);
    *v = ex * (-a * (x0 * co + B * si) + wd * (-x0 * si + B * co));
}

/* Stuck motion of case A and its contact force F = m2 u'' + c2 u' + k2 u. */
static double stuck_force(double t, double *u, double *ud)
{
    double x, v;
    damped(m1 + m2, c1 + c2, k1 + k2, -1, 0, t, &x, &v);
    double a = -((c1 + c2) * v + (k1 + k2) * x) / (m1 + m2);
    if (u)
        *u = x, *ud = v;
    return m2 * a + c2 * v + k2 * x;
}

/* Root of f on [a, b] (sign change) by bisection to the last bit. */
static double bisect(double (*f)(double, const void *), const void *ctx, double a, double b)
{
    double fa = f(a, ctx);
    for (int i = 0; i < 200; i++) {
        double mid = 0.5 * (a + b);
        if (mid <= a || mid >= b)
            break;
        double fm = f(mid, ctx);
        if ((fm > 0) == (fa > 0))
            a = mid, fa = fm;
        else
            b = mid;
    }
    return 0.5 * (a + b);
}

static double f_stuck(double t, const void *ctx)
{
    (void)ctx;
    return stuck_force(t, NULL, NULL);
}

typedef struct Free2 {
    double t0, x1, v1, x2, v2;
} Free2;

/* Gap u2 - u1 of the free motion from a state at t0. */
static double f_gap(double t, const void *ctx)
{
    const Free2 *f = ctx;
    double a, b, va, vb;
    damped(m1, c1, k1, f->x1, f->v1, t - f->t0, &a, &va);
    damped(m2, c2, k2, f->x2, f->v2, t - f->t0, &b, &vb);
    return b - a;
}

/* First root of the gap after t0 (scan, then bisect). */
static double first_gap_root(const Free2 *f, double tmax)
{
    double dt = 1e-3, t = f->t0 + dt;
    while (t < tmax && f_gap(t, f) > 0)
        t += dt;
    return bisect(f_gap, f, t - dt, t);
}

/* Case A: stuck from t = 0 (initial stick by the force LCP), separation when
** the stuck force reaches 0, free flight, impact with e = 0.9. */
static void test_case_a(const nsm_model *m, int method, double tol)
{
    Log l;
    nsm_sim *s = make(m, method, 1e-3, &l);
    run(s, 13.0);
    double tsep = bisect(f_stuck, NULL, 2.5, 4.0), u, ud;
    stuck_force(tsep, &u, &ud);
    Free2 fr = { tsep, u, ud, u, ud };
    double timp = first_gap_root(&fr, 20);
    check_true("initial stick at t = 0", l.n > 0 && l.ev[0].kind == NSM_EV_STICK && l.ev[0].t == 0);
    check("separation time", ev_t(&l, NSM_EV_SEPARATION, 0), tsep, tol);
    check("impact time", ev_t(&l, NSM_EV_IMPACT, 0), timp, tol);
    const nsm_event *ei = nth(&l, NSM_EV_IMPACT, 0);
    if (ei) {
        double x1, v1, x2, v2;
        damped(m1, c1, k1, u, ud, timp - tsep, &x1, &v1);
        damped(m2, c2, k2, u, ud, timp - tsep, &x2, &v2);
        check("impact vrel before", ei->vrel_before, v2 - v1, 1e3 * tol);
        check("restitution", ei->vrel_after, -0.9 * ei->vrel_before, 1e-13);
    }
    check("energy balance", nsm_sim_energy(s, NULL, NULL, NULL, NULL), 0, method == NSM_METHOD_EXACT ? 1e-12 : 1e-8);
    nsm_sim_free(s);
}

/* The derived per-mode functions and the generic path give the same run. */
static void test_agree(int method)
{
    Log la, lb;
    nsm_sim *a = make(&two_mass_model, method, 1e-3, &la);
    nsm_sim *b = make(&two_mass_generic_model, method, 1e-3, &lb);
    run(a, 20);
    run(b, 20);
    check_true("same number of events", la.n == lb.n && la.n >= 3);
    for (int k = 0; k < la.n && k < lb.n; k++) {
        char what[64];
        snprintf(what, sizeof what, "event %d (%s) time", k, nsm_event_kind_name(la.ev[k].kind));
        check(what, la.ev[k].t, lb.ev[k].t, 1e-12);
        check_true("same kind", la.ev[k].kind == lb.ev[k].kind);
    }
    for (int i = 0; i < 4; i++)
        check("final state", nsm_sim_state(a)[i], nsm_sim_state(b)[i], 1e-11);
    nsm_sim_free(a);
    nsm_sim_free(b);
}

/* Plastic impact (e = 0) from rest at (u1, u2) with stiffnesses ka, kb: the
** bodies stick only if the stuck-mode force at the impact is compressive:
** lambda = (m2 F1 - m1 F2)/(m1 + m2) with the common velocity of the plastic
** impact; everything from the closed-form free motion. */
typedef struct Plastic {
    double ka, kb, u1, u2;
} Plastic;

static double f_gap_k(double t, const void *ctx)
{
    const Plastic *p = ctx;
    double a, b, va, vb;
    damped(m1, c1, p->ka, p->u1, 0, t, &a, &va);
    damped(m2, c2, p->kb, p->u2, 0, t, &b, &vb);
    return b - a;
}

static void plastic_case(double ka, double kb, double u1, double u2, int method, int *stuck_seen,
                         int *free_seen)
{
    Log l;
    Plastic pc = { ka, kb, u1, u2 };
    nsm_sim *s = make(&two_mass_generic_model, method, 1e-3, &l);
    nsm_sim_set_param(s, "k1", ka);
    nsm_sim_set_param(s, "k2", kb);
    nsm_sim_set_param(s, "e", 0);
    nsm_sim_set_param(s, "u1", u1);
    nsm_sim_set_param(s, "u2", u2);
    run(s, 8);
    double t = 1e-3;
    while (t < 8 && f_gap_k(t, &pc) > 0)
        t += 1e-3;
    double timp = bisect(f_gap_k, &pc, t - 1e-3, t), p1, q1, p2, q2;
    damped(m1, c1, ka, u1, 0, timp, &p1, &q1);
    damped(m2, c2, kb, u2, 0, timp, &p2, &q2);
    double V = (m1 * q1 + m2 * q2) / (m1 + m2), u = 0.5 * (p1 + p2);
    double F1 = -ka * u - c1 * V, F2 = -kb * u - c2 * V;
    double lam = (m2 * F1 - m1 * F2) / (m1 + m2);
    char what[96];
    snprintf(what, sizeof what, "plastic impact (k1=%g k2=%g u1=%g u2=%g)", ka, kb, u1, u2);
    check(what, ev_t(&l, NSM_EV_IMPACT, 0), timp, 1e-9);
    const nsm_event *st = nth(&l, NSM_EV_STICK, 0);
    printf("     stuck force at the impact %.6g N\n", lam);
    if (lam > 0) {
        *stuck_seen = 1;
        check_true("compressive force: stick at the impact", st && st->t == ev_t(&l, NSM_EV_IMPACT, 0));
    } else {
        *free_seen = 1;
        check_true("tensile force: no stick at the impact", !st || st->t != ev_t(&l, NSM_EV_IMPACT, 0));
    }
    nsm_sim_free(s);
}

static void test_plastic(int method)
{
    int st = 0, fr = 0;
    plastic_case(2, 1, -1, 2, method, &st, &fr);
    plastic_case(1, 2, -1, 2, method, &st, &fr);
    plastic_case(2, 1, 1, 3, method, &st, &fr);
    plastic_case(1, 2, 1, 3, method, &st, &fr);
    check_true("both outcomes exercised", st && fr);
}

/* A ball (m2) dropped from h onto a block (m1) resting on rigid ground: the
** block starts stuck (force m1 g); at t = sqrt(2h/g) the impulse LCP over the
** top gap (restitution e) and the closed floor (restitution 0) gives the ball
** -e v-, the block stays, and the floor transmits the same impulse. */
static void test_stack(int method, double tol)
{
    Log l;
    nsm_sim *s = make(&stack_model, method, 1e-3, &l);
    run(s, 0.5);
    double g = 9.81, h = 0.8, e = 0.6, m2 = 0.5, t = sqrt(2 * h / g), v = g * t;
    check_true("floor stuck at t = 0", l.n > 0 && l.ev[0].kind == NSM_EV_STICK && l.ev[0].contact == 0);
    const nsm_event *top = NULL, *fl = NULL;
    for (int k = 0; k < l.n; k++)
        if (l.ev[k].kind == NSM_EV_IMPACT) {
            if (l.ev[k].contact == 1 && !top)
                top = &l.ev[k];
            if (l.ev[k].contact == 0 && !fl)
                fl = &l.ev[k];
        }
    check_true("impacts on both gaps", top && fl);
    if (top && fl) {
        check("top impact time", top->t, t, tol);
        check("simultaneous floor impulse", fl->t, top->t, 0);
        check("top vrel after", top->vrel_after, e * v, tol);
        check("top impulse", top->impulse, m2 * (1 + e) * v, tol);
        check("floor impulse", fl->impulse, m2 * (1 + e) * v, tol);
        check("floor vrel after", fl->vrel_after, 0, tol);
    }
    check_true("floor still closed at the end", nsm_sim_mode_has(s, 0));
    check("block at rest", nsm_sim_state(s)[2], 0, 1e-14);
    nsm_sim_free(s);
}

/* ---- penalty --------------------------------------------------------- */

/* Mass on a spring (k) from x = 0 with v0 towards a penalty wall at d0:
** entry at asin(d0 w / v0)/w, contact lasts 2 phi/w2 with w2^2 =
** (k + kc)/m and phi = atan2(v_in/w2, d0 - x_e), x_e = kc d0/(k + kc). */
static void test_penalty(int method, double tol, double dt, double d0)
{
    Log l;
    nsm_sim *s = make(&penalty_model, method, dt, &l);
    nsm_sim_set_param(s, "d0", d0);
    run(s, 2);
    double m = 1, k = 4, kc = 400, v0 = 1, w = sqrt(k / m), w2 = sqrt((k + kc) / m);
    double tin = asin(d0 * w / v0) / w, vin = v0 * cos(w * tin), xe = kc * d0 / (k + kc);
    double phi = atan2(vin / w2, d0 - xe), tc = 2 * phi / w2;
    check("contact entry", ev_t(&l, NSM_EV_CONTACT_ENTER, 0), tin, tol);
    check("contact exit", ev_t(&l, NSM_EV_CONTACT_EXIT, 0), tin + tc, tol);
    const nsm_event *ex = nth(&l, NSM_EV_CONTACT_EXIT, 0);
    if (ex)
        check("exit relative velocity w.v", ex->vrel_before, vin, 1e3 * tol);
    check("energy balance", nsm_sim_energy(s, NULL, NULL, NULL, NULL), 0, method == NSM_METHOD_EXACT ? 1e-12 : 1e-7);
    nsm_sim_free(s);
}

typedef struct PenCtx {
    double xe, d0, y0, vin, kc, cc, k, m;
    int release;
} PenCtx;

/* In contact: y = x - x_e is a damped oscillator; the release function is
** the force kc p + cc p' (release = force) or the penetration p (gap). */
static double f_release(double tau, const void *ctx)
{
    const PenCtx *c = ctx;
    double y, yd;
    damped(c->m, c->cc, c->k + c->kc, c->y0, c->vin, tau, &y, &yd);
    double p = y + c->xe - c->d0;
    return c->release == NSM_RELEASE_FORCE ? c->kc * p + c->cc * yd : p;
}

/* Damped penalty wall (cc = 2): the contact ends when the force reaches 0
** (physical) or when the penetration does (code_aster's convention); both
** against the closed form, and the energy balance closes. */
static void test_penalty_damped(int method, int release, double tol)
{
    static const nsm_gap_info gap_release[2] = {
        { "wall", NSM_LAW_PENALTY, NSM_RELEASE_FORCE }, { "wall", NSM_LAW_PENALTY, NSM_RELEASE_GAP },
    };
    nsm_model m = penalty_model;
    m.gaps = &gap_release[release];
    Log l;
    nsm_sim *s = make(&m, method, method == NSM_METHOD_EXACT ? 1e-2 : 1e-4, &l);
    nsm_sim_set_param(s, "cc", 2);
    run(s, 1);
    double mm = 1, k = 4, kc = 400, cc = 2, d0 = 0.1, v0 = 1, w = sqrt(k / mm);
    double tin = asin(d0 * w / v0) / w, vin = v0 * cos(w * tin), xe = kc * d0 / (k + kc);
    PenCtx c = { xe, d0, d0 - xe, vin, kc, cc, k, mm, release };
    double tau = 1e-3;
    while (f_release(tau, &c) > 0)
        tau += 1e-3;
    double tout = tin + bisect(f_release, &c, tau - 1e-3, tau);
    check("entry", ev_t(&l, NSM_EV_CONTACT_ENTER, 0), tin, tol);
    check(release == NSM_RELEASE_FORCE ? "exit on force" : "exit on gap",
          ev_t(&l, NSM_EV_CONTACT_EXIT, 0), tout, tol);
    check("energy balance", nsm_sim_energy(s, NULL, NULL, NULL, NULL), 0,
          method == NSM_METHOD_EXACT ? 1e-13 : 1e-9);
    nsm_sim_free(s);
}

/* Grazing: the amplitude v0/w exceeds d0 by 1e-7 m, the dip below the wall
** lasts ~6e-4 s, far less than the step 0.01 s; the entry must be found. */
static void test_grazing(int method)
{
    double d0 = 0.5 - 1e-7;
    Log l;
    nsm_sim *s = make(&penalty_model, method, 0.01, &l);
    nsm_sim_set_param(s, "d0", d0);
    run(s, 1.2);
    double w = 2, tin = asin(d0 * w / 1.0) / w;
    check_true("grazing contact found", count(&l, NSM_EV_CONTACT_ENTER) >= 1);
    check("grazing entry time", ev_t(&l, NSM_EV_CONTACT_ENTER, 0), tin, 1e-6);
    nsm_sim_free(s);
}

/* ---- time switch ----------------------------------------------------- */

/* Step force F0 for t <= T on a damped oscillator: x(t_end) in closed form. */
static void test_switch(int method, double tol)
{
    Log l;
    nsm_sim *s = make(&forced_model, method, 1e-3, &l);
    run(s, 1.5);
    double m = 2, k = 50, c = 0.4, F0 = 3, T = 0.75, xs = F0 / k, x, v, x1, v1;
    damped(m, c, k, -xs, 0, T, &x, &v);
    damped(m, c, k, x + xs, v, 1.5 - T, &x1, &v1);
    check_true("one time event", count(&l, NSM_EV_TIME) == 1);
    check("switch time", ev_t(&l, NSM_EV_TIME, 0), T, 1e-15);
    check("x(1.5)", nsm_sim_state(s)[0], x1, tol);
    check("v(1.5)", nsm_sim_state(s)[1], v1, tol);
    check("energy balance", nsm_sim_energy(s, NULL, NULL, NULL, NULL), 0, method == NSM_METHOD_EXACT ? 1e-13 : 1e-8);
    nsm_sim_free(s);
}

/* Adaptive error control: with a large largest step, the error at t_end
** follows the tolerance (and the step count grows as it tightens). */
static void test_adaptive_tol(void)
{
    double err[2];
    long steps[2];
    const double rtol[2] = { 1e-6, 1e-10 };
    double m = 2, k = 50, c = 0.4, F0 = 3, T = 0.75, xs = F0 / k, x, v, x1, v1;
    damped(m, c, k, -xs, 0, T, &x, &v);
    damped(m, c, k, x + xs, v, 1.5 - T, &x1, &v1);
    for (int i = 0; i < 2; i++) {
        Log l;
        nsm_sim *s = make(&forced_model, NSM_METHOD_ADAPTIVE, 0.1, &l);
        nsm_sim_set_tolerances(s, rtol[i], rtol[i] * 1e-3);
        nsm_sim_set_every(s, 0);
        run(s, 1.5);
        err[i] = fabs(nsm_sim_state(s)[0] - x1) / fabs(x1);
        steps[i] = nsm_sim_steps(s);
        printf("     rtol %g: relative error %.3g in %ld steps\n", rtol[i], err[i], steps[i]);
        nsm_sim_free(s);
    }
    check_true("loose tolerance met within a factor 100", err[0] < 100 * rtol[0]);
    check_true("tight tolerance met within a factor 100", err[1] < 100 * rtol[1]);
    check_true("tighter tolerance, smaller error", err[1] < 1e-2 * err[0]);
    check_true("tighter tolerance, more steps", steps[1] > steps[0]);
}

/* The potential is the physical one: a spring of rest length L = 0.1 m
** stretched from x = 0 stores 1/2 k L^2 at t = 0, and the balance closes. */
static void test_potential(int method)
{
    Log l;
    double kin, pot;
    nsm_sim *s = make(&forced_model, method, 1e-3, &l);
    nsm_sim_set_param(s, "L", 0.1);
    nsm_sim_reset(s);
    nsm_sim_energy(s, &kin, &pot, NULL, NULL);
    check("spring potential at t = 0", pot, 0.5 * 50 * 0.01, 1e-15);
    run(s, 1.5);
    check("energy balance with a rest length", nsm_sim_energy(s, &kin, &pot, NULL, NULL), 0,
          method == NSM_METHOD_EXACT ? 1e-12 : 1e-9);
    double x = nsm_sim_state(s)[0];
    check("spring potential at t_end", pot, 0.5 * 50 * (x - 0.1) * (x - 0.1), 1e-12);
    nsm_sim_free(s);
}

/* The exact method is refused when the forcing has no generator. */
static void test_exact_refused(void)
{
    nsm_model m = forced_model;
    m.n_gen = 0;
    m.generator = NULL;
    m.generator_state = NULL;
    Log l;
    nsm_sim *s = make(&m, NSM_METHOD_EXACT, 1e-3, &l);
    int rc = nsm_sim_run_until(s, 1);
    check_true("exact refused with NSM_EMETHOD", rc == NSM_EMETHOD);
    check_true("message names the method", strstr(nsm_sim_message(s), "exact") != NULL);
    nsm_sim_free(s);
}

static void nan_force(double t, const int *sw, const double *p, const double *c, double *f)
{
    (void)sw, (void)p, (void)c;
    f[0] = t > 0.5 ? NAN : 1;
}

/* Guards: a force turning into NaN stops the run with NSM_ENUMERIC and a
** message; the state stays at the last finite step. */
static void test_nan(void)
{
    nsm_model m = forced_model;
    m.force = nan_force;
    Log l;
    nsm_sim *s = make(&m, NSM_METHOD_RK4, 1e-3, &l);
    int rc = nsm_sim_run_until(s, 1);
    check_true("non-finite state returns NSM_ENUMERIC", rc == NSM_ENUMERIC);
    check_true("message says so", strstr(nsm_sim_message(s), "not finite") != NULL);
    check_true("stopped near t = 0.5", fabs(nsm_sim_time(s) - 0.5) < 2e-3);
    check_true("state kept finite", isfinite(nsm_sim_state(s)[0]) && isfinite(nsm_sim_state(s)[1]));
    nsm_sim_free(s);
}

/* Guards: the step cap stops a run with a message naming time and mode. */
static void test_guards(void)
{
    Log l;
    nsm_sim *s = make(&ball_model, NSM_METHOD_RK4, 1e-3, &l);
    nsm_sim_set_max_steps(s, 100);
    int rc = nsm_sim_run_until(s, 1);
    check_true("step cap returns NSM_ESTEPS", rc == NSM_ESTEPS);
    check_true("message names time and mode", strstr(nsm_sim_message(s), "t = ") && strstr(nsm_sim_message(s), "mode free"));
    check_true("run stays stopped", nsm_sim_run_until(s, 2) == NSM_ESTEPS);
    nsm_sim_free(s);
    s = make(&ball_model, NSM_METHOD_RK4, 1e-3, &l);
    nsm_sim_set_zeno(s, 0);
    nsm_sim_set_param(s, "e", 0.9);
    nsm_sim_set_max_event_rate(s, 100);
    rc = nsm_sim_run_until(s, 30);
    check_true("event rate cap returns NSM_EEVENTS", rc == NSM_EEVENTS);
    check_true("message names the contact", strstr(nsm_sim_message(s), "floor") != NULL);
    nsm_sim_free(s);
    s = make(&ball_model, NSM_METHOD_RK4, 1e-3, &l);
    check_true("unknown parameter rejected", nsm_sim_set_param(s, "nope", 1) == NSM_EINVAL);
    nsm_sim_set_param(s, "m", -1);
    check_true("invalid parameter value rejected", nsm_sim_reset(s) == NSM_EMODEL && strstr(nsm_sim_message(s), "'m'"));
    nsm_sim_free(s);
    /* a table of the previous ABI (6: modes() alone, where ABI 7 adds deriv()
     * and events()) is refused with the reason, never read with the new layout */
    nsm_model old = ball_model;
    old.abi = NSM_ABI_VERSION - 1;
    const char *why = NULL;
    check_true("a table of the previous ABI is refused", nsm_sim_create(&old) == NULL &&
               nsm_model_check(&old, &why) == NSM_EMODEL && why && strstr(why, "another version"));
    /* ABI 7: a table with modes() but without its deriv() or events() would
     * leave the runtime's two most frequent questions without an answer */
    nsm_model half = two_mass_model;
    half.events = NULL;
    why = NULL;
    check_true("modes() without events() is refused", nsm_sim_create(&half) == NULL &&
               nsm_model_check(&half, &why) == NSM_EMODEL && why && strstr(why, "events()"));
    half = two_mass_model;
    half.deriv = NULL;
    check_true("modes() without deriv() is refused", nsm_model_check(&half, NULL) == NSM_EMODEL);
    check_true("the whole table is taken", nsm_model_check(&two_mass_model, NULL) == NSM_OK);
}

/* ---- sparse tables ---------------------------------------------------- */

/* penalty_model's setup with K listed as two halves of its one element
** (entries of one element add up, nsm/model.h), or, with `bad_entry`, the
** second half in a column outside the 1 x 1 table. */
static int bad_entry;
static int setup_split(const double *p, double *c, nsm_numeric *num)
{
    int rc = penalty_model.setup(p, c, num);
    double k = num->K.val[0];
    num->K.val[0] = num->K.val[1] = 0.5 * k;
    num->K.row[1] = 0;
    num->K.col[1] = bad_entry;
    return rc;
}

/* The runtime sums the entries of an element: the split table gives the
** same run, to the last bit, as the original; an entry outside its table
** is refused with a message, not read out of bounds. */
static void test_entries(void)
{
    nsm_model m = penalty_model;
    m.setup = setup_split;
    m.nnz_K = 2;
    Log l0, l1;
    nsm_sim *a = make(&penalty_model, NSM_METHOD_RK4, 1e-3, &l0);
    nsm_sim *b = make(&m, NSM_METHOD_RK4, 1e-3, &l1);
    run(a, 2);
    run(b, 2);
    check_true("same events", l0.n == l1.n && l0.n > 0);
    for (int i = 0; i < l0.n && i < l1.n; i++)
        check_true("same event time", l0.ev[i].t == l1.ev[i].t);
    check_true("same final state", nsm_sim_state(a)[0] == nsm_sim_state(b)[0] &&
                                       nsm_sim_state(a)[1] == nsm_sim_state(b)[1]);
    nsm_sim_free(b);
    bad_entry = 1;
    b = nsm_sim_create(&m);
    int rc = b ? nsm_sim_reset(b) : -1;
    const char *msg = b ? nsm_sim_message(b) : "";
    printf("     %s\n", msg);
    check_true("an entry outside K is refused", rc == NSM_EMODEL && strstr(msg, "outside") != NULL);
    nsm_sim_free(a);
    nsm_sim_free(b);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: rt_tests NAME\n");
        return 2;
    }
    const char *t = argv[1];
    int meth = method_of(t);
    double tol = meth == NSM_METHOD_EXACT ? 1e-13 : meth == NSM_METHOD_ADAPTIVE ? 1e-8 : 1e-9;
    if (!strncmp(t, "ball_", 5))
        test_ball(meth, tol);
    else if (!strcmp(t, "zeno_exact"))
        test_zeno(NSM_METHOD_EXACT, 1e-12);
    else if (!strcmp(t, "zeno_rk4"))
        test_zeno(NSM_METHOD_RK4, 1e-10);
    else if (!strcmp(t, "zeno_adaptive"))
        test_zeno(NSM_METHOD_ADAPTIVE, 1e-8);
    else if (!strncmp(t, "case_a_derived_", 15))
        test_case_a(&two_mass_model, meth, meth == NSM_METHOD_EXACT ? 1e-12 : tol);
    else if (!strncmp(t, "case_a_generic_", 15))
        test_case_a(&two_mass_generic_model, meth, meth == NSM_METHOD_EXACT ? 1e-12 : tol);
    else if (!strncmp(t, "agree_", 6))
        test_agree(meth);
    else if (!strncmp(t, "plastic_", 8))
        test_plastic(meth);
    else if (!strncmp(t, "penalty_", 8))
        test_penalty(meth, meth == NSM_METHOD_EXACT ? 1e-12 : 1e-8, meth == NSM_METHOD_EXACT ? 1e-2 : 1e-4, 0.1);
    else if (!strncmp(t, "pendamp_force_", 14))
        test_penalty_damped(meth, NSM_RELEASE_FORCE, meth == NSM_METHOD_EXACT ? 1e-12 : 1e-8);
    else if (!strncmp(t, "pendamp_gap_", 12))
        test_penalty_damped(meth, NSM_RELEASE_GAP, meth == NSM_METHOD_EXACT ? 1e-12 : 1e-8);
    else if (!strncmp(t, "grazing_", 8))
        test_grazing(meth);
    else if (!strncmp(t, "switch_", 7))
        test_switch(meth, meth == NSM_METHOD_EXACT ? 1e-12 : 1e-8);
    else if (!strncmp(t, "potential_", 10))
        test_potential(meth);
    else if (!strcmp(t, "adaptive_tol"))
        test_adaptive_tol();
    else if (!strcmp(t, "nan"))
        test_nan();
    else if (!strcmp(t, "resume"))
        test_resume();
    else if (!strncmp(t, "tend_", 5))
        test_tend(meth);
    else if (!strncmp(t, "stack_", 6))
        test_stack(meth, tol);
    else if (!strcmp(t, "exact_refused"))
        test_exact_refused();
    else if (!strcmp(t, "guards"))
        test_guards();
    else if (!strcmp(t, "entries"))
        test_entries();
    else {
        fprintf(stderr, "unknown test %s\n", t);
        return 2;
    }
    return failures ? 1 : 0;
}
