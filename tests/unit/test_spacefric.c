/*
** test_spacefric.c: spatial Coulomb friction of a sphere of a rigid body
** on a plane, in flight (docs/theory.md section 19), run by rk4 and
** adaptive against closed forms and invariants.
**
** The model table is written here by hand, independently of nsmc, on the
** layout of rigid_table.h: one rigid body, gravity along -z, two curved
** impact gaps, spheres of radius r1 and r2 centred at the body points
** (0, 0, a1) and (0, 0, a2) against the plane n . x = 0, n = (-sin alpha,
** 0, cos alpha), and one spatial friction element (mu, drilling radius Rd)
** on the first.  The references are worked out here from the physics:
**   - a sphere sliding on the level plane (tests/reference/rolling_sphere.py's
**     cases: solid and hollow, several slip directions): the slip keeps its
**     direction and falls linearly, rolling starts at
**     t_r = k |gamma0| / (mu g (1 + k)) with v = v0 - k/(1 + k) gamma0 and
**     w from the friction impulse -mu m g t_r gamma0/|gamma0|, w_z kept; the
**     energy dissipated mu m g |gamma0| t_r / 2; the angular momentum about
**     the contact point I w + m (r e_z) x v kept; the state halfway through
**     the slide linear in t;
**   - drilling: a sphere spinning about the normal with drilling friction
**     and no slip: I w' = -mu m g Rd, so w = w0 - mu m g Rd t / I until
**     t_s = I w0 / (mu m g Rd), then it sticks; dissipated I w0^2 / 2;
**   - the tippe top (Leine and Glocker's parameters, tests/reference/
**     tippe_top.py) started on its spherical body at z = r1 - a1 cos(theta0)
**     without normal velocity, spinning at 180 rad/s: without drilling
**     Jellett's integral L . (a1 e3 - r1 e_z) is constant over the sliding
**     phase and the energy balance closes; with drilling the balance closes
**     and theta and the friction work at 0.1 s agree with tippe_top.py
**     --contact-start 0.1 (its Taylor series at 96 bits from this state);
**   - a slip starting from zero: a sphere at rest on an incline too steep
**     to roll slides down it (v, w and the slip linear in t);
**   - stick -> slip: a sphere at rest pushed by a force growing in time
**     rolls until the friction rolling needs reaches mu m g at t* =
**     mu m g (1 + k) / (k c), then slides, its slip c (t - t*)^2 / (2 m);
**   - two held contacts of one body, one force problem: a bar on two
**     spheres sliding along its axis, the normal forces by the lever rule
**     shifted by the friction's moment, the deceleration mu g.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nsm/model.h"
#include "nsm/nsm.h"

#include "check.h"
#include "rigid_table.h"

static const double PI = 3.14159265358979323846;

enum { NB = RB_NB, NQ = RB_NQ, P1 = RB_P1, P0 = RB_P0, U = RB_U, W1 = RB_W1, NY = NQ + NB };
/* The parameters' indices (the inertias at 1..3, as rigid_table.h reads them). */
enum { PM, PI1, PI2, PI3, PG, PA1, PR1, PA2, PR2, PALPHA, PMU, PDRILL, PPUSH, NPAR };

static const nsm_param_info params[] = {
    { "m", "kg", 1 }, { "I1", "kg*m^2", 0.004 }, { "I2", "kg*m^2", 0.004 },
    { "I3", "kg*m^2", 0.004 }, { "g", "m/s^2", 9.81 }, { "a1", "m", 0 }, { "r1", "m", 0.1 },
    { "a2", "m", 0 }, { "r2", "m", 0.05 }, { "alpha", "rad", 0 }, { "mu", "", 0.2 },
    { "Rd", "m", 0 }, { "push", "N/s", 0 },
};
static const char *const body_names[] = { "B.x", "B.y", "B.z", "B.w1", "B.w2", "B.w3" };
static const int rigid_rot_slot[] = { 3 };
static const nsm_gap_info gaps[] = { { "ball", NSM_LAW_IMPACT, 0 }, { "stem", NSM_LAW_IMPACT, 0 } };
static const unsigned char gap_curved[] = { 1, 1 };
static const int gap_ncols[] = { 6, 6 };
static const int cols6[] = { 0, 1, 2, 3, 4, 5 };
static const int *const gap_cols[] = { cols6, cols6 };
static const nsm_space_friction sfric[] = { { "grip", 0, 0 }, { "grip2", 1, 0 } };

/* Masses diag(m, m, m, I1, I2, I3), the weight -m g on z, the gaps'
** pattern (their values come from nl_gap), the friction element's numbers;
** c = the plane's unit normal n. */
static int setup(const double *p, double *c, nsm_numeric *num)
{
    rigid_masses(p, num);
    for (int k = 0; k < 12; k++) {
        num->W.row[k] = k / 6;
        num->W.col[k] = k % 6;
        num->W.val[k] = 0;
    }
    for (int j = 0; j < 2; j++) {
        num->d[j] = 0;
        num->e[j] = 0;
    }
    c[0] = -sin(p[PALPHA]);
    c[1] = 0;
    c[2] = cos(p[PALPHA]);
    for (int i = 0; i < 3; i++) {
        num->sf_centre[i] = i == 2 ? p[PA1] : 0;
        num->sf_normal[i] = c[i];
    }
    num->sf_radius[0] = p[PR1];
    num->sf_mu[0] = p[PMU];
    num->sf_et[0] = 0;
    num->sf_drill[0] = p[PDRILL];
    return 0;
}

/* The setup of the table with an element on each sphere (the same mu and
** drilling radius). */
static int setup2(const double *p, double *c, nsm_numeric *num)
{
    setup(p, c, num);
    for (int i = 0; i < 3; i++) {
        num->sf_centre[3 + i] = i == 2 ? p[PA2] : 0;
        num->sf_normal[3 + i] = c[i];
    }
    num->sf_radius[1] = p[PR2];
    num->sf_mu[1] = p[PMU];
    num->sf_et[1] = 0;
    num->sf_drill[1] = p[PDRILL];
    return 0;
}

/* A force growing linearly in time along x on the centre: push t. */
static void push_force(double t, const int *sw, const double *p, const double *c, double *f)
{
    (void)sw, (void)c;
    f[0] += p[PPUSH] * t;
}

/* Both spheres' gaps. */
static void nl_gap(const double *y, const double *p, const double *c, double *g, double *curv,
                   double *wval)
{
    double R[3][3];
    rigid_rotation(y, R);
    rigid_sphere_gap(y, R, c, p[PA1], p[PR1], &g[0], &curv[0], wval);
    rigid_sphere_gap(y, R, c, p[PA2], p[PR2], &g[1], &curv[1], wval + 6);
}

static nsm_model model = {
    .abi = NSM_ABI_VERSION, .name = "sphere_friction", .title = "",
    .n_bodies = NB, .n_params = NPAR, .n_gaps = 2, .n_consts = 3, .body_names = body_names,
    .params = params, .gaps = gaps,
    .t_end = 1, .dt = 1e-4, .method = NSM_METHOD_RK4,
    .setup = setup, .nnz_W = 12,
    .nl = NSM_NL_FORCE | NSM_NL_GAP, .nl_force = rigid_nl_force, .gap_curved = gap_curved,
    .gap_ncols = gap_ncols, .gap_cols = gap_cols, .n_wcurved = 12, .nl_gap = nl_gap,
    .nq = NQ, .nu = NB, .n_rigid = 1, .rigid_rot = rigid_rot_slot, .kin = rigid_kin,
    .n_space_frictions = 1, .space_frictions = sfric, .force = push_force,
};

/* The same table with a spatial friction element on each sphere. */
static nsm_model model2;

/* The mode bit of the friction element (sticking). */
enum { STICK_BIT = 2 };

/* A simulation with the parameters pv, the method (rk4 step dt, adaptive
** tolerances 1e-13) and the start y0; NULL (the reason printed) when the
** reset fails. */
static nsm_sim *start_on(const nsm_model *md, const double *pv, int method, double dt,
                         const double *y0)
{
    nsm_sim *s = nsm_sim_create(md);
    if (!s)
        return NULL;
    for (int k = 0; k < NPAR; k++)
        nsm_sim_set_param(s, params[k].name, pv[k]);
    nsm_sim_set_method(s, method);
    if (method == NSM_METHOD_RK4)
        nsm_sim_set_dt(s, dt);
    else
        nsm_sim_set_tolerances(s, 1e-13, 1e-15);
    nsm_sim_set_every(s, 0);
    nsm_sim_set_initial_state(s, y0);
    if (nsm_sim_reset(s)) {
        printf("reset failed: %s\n", nsm_sim_message(s));
        nsm_sim_free(s);
        return NULL;
    }
    return s;
}

/* start_on the table with one element. */
static nsm_sim *start(const double *pv, int method, double dt, const double *y0)
{
    return start_on(&model, pv, method, dt, y0);
}

/* Runs s to t; a failure is a failed check with the message printed. */
static int run_to(nsm_sim *s, double t, const char *what)
{
    int rc = nsm_sim_run_until(s, t);
    check_true(what, rc == 0);
    if (rc)
        printf("  %s\n", nsm_sim_message(s));
    return rc;
}

/* The world-frame angular velocity R w of state y. */
static void omega_world(const double *y, double *w)
{
    double R[3][3];
    rigid_rotation(y, R);
    for (int i = 0; i < 3; i++)
        w[i] = rigid_dot(R[i], y + W1);
}

/* One of rolling_sphere.py's cases. */
typedef struct Roll {
    const char *name;
    double m, r, k, g, mu, v0[2], w0[3];
} Roll;

/* The angular momentum about the contact point, I w + m (r e_z) x v
** (world frame), of a centred sphere at state y. */
static void moment_contact(const Roll *c, const double *y, double *L)
{
    double w[3], I = c->k * c->m * c->r * c->r;
    omega_world(y, w);
    L[0] = I * w[0] - c->m * c->r * y[U + 1];
    L[1] = I * w[1] + c->m * c->r * y[U];
    L[2] = I * w[2];
}

/* A sphere sliding on the level plane until it rolls, against the closed
** form: halfway through the slide, and after the onset. */
static void rolling(const Roll *c, int method, const char *mname)
{
    double I = c->k * c->m * c->r * c->r;
    double pv[NPAR] = { c->m, I, I, I, c->g, 0, c->r, 0, c->r / 2, 0, c->mu, 0 }, y0[NY];
    memset(y0, 0, sizeof y0);
    y0[2] = c->r;
    y0[P0] = 1;
    y0[U] = c->v0[0];
    y0[U + 1] = c->v0[1];
    for (int i = 0; i < 3; i++)
        y0[W1 + i] = c->w0[i];
    /* the closed form: slip, onset, state after it */
    double gam[2] = { c->v0[0] - c->r * c->w0[1], c->v0[1] + c->r * c->w0[0] };
    double gn = hypot(gam[0], gam[1]), tr = c->k * gn / (c->mu * c->g * (1 + c->k));
    double J[2] = { -c->mu * c->m * c->g * tr * gam[0] / gn, -c->mu * c->m * c->g * tr * gam[1] / gn };
    double v1[2] = { c->v0[0] + J[0] / c->m, c->v0[1] + J[1] / c->m };
    double w1[3] = { c->w0[0] + c->r * J[1] / I, c->w0[1] - c->r * J[0] / I, c->w0[2] };
    double diss = c->mu * c->m * c->g * gn * tr / 2, L0[3], L1[3], w[3], vs = hypot(v1[0], v1[1]);
    nsm_sim *s = start(pv, method, 2.5e-5, y0);
    char what[240];
    snprintf(what, sizeof what, "%s %s: starts", mname, c->name);
    check_true(what, s != NULL);
    if (!s)
        return;
    moment_contact(c, y0, L0);
    snprintf(what, sizeof what, "%s %s: runs to t_r / 2", mname, c->name);
    if (run_to(s, tr / 2, what))
        goto out;
    const double *y = nsm_sim_state(s);
    omega_world(y, w);
    double wscale = fabs(c->w0[0]) + fabs(c->w0[1]) + fabs(c->w0[2]) + fabs(w1[0]) + fabs(w1[1]);
    for (int i = 0; i < 2; i++) {
        snprintf(what, sizeof what, "%s %s: v[%d] at t_r / 2 (linear in t)", mname, c->name, i);
        check_close(what, y[U + i], (c->v0[i] + v1[i]) / 2, 1e-12 * (vs + gn));
        snprintf(what, sizeof what, "%s %s: w[%d] at t_r / 2 (linear in t)", mname, c->name, i);
        check_close(what, w[i], (c->w0[i] + w1[i]) / 2, 1e-12 * wscale);
    }
    double kin, pot, dis, inj, err = nsm_sim_energy(s, &kin, &pot, &dis, &inj);
    snprintf(what, sizeof what, "%s %s: energy dissipated by t_r / 2, 3/8 mu m g |gamma0| t_r",
             mname, c->name);
    check_close(what, dis, 0.75 * diss, 1e-12 * diss);
    snprintf(what, sizeof what, "%s %s: slides at t_r / 2", mname, c->name);
    check_true(what, nsm_sim_mode_has(s, 0) && !nsm_sim_mode_has(s, STICK_BIT));
    snprintf(what, sizeof what, "%s %s: runs past the onset", mname, c->name);
    if (run_to(s, 1.5 * tr, what))
        goto out;
    y = nsm_sim_state(s);
    omega_world(y, w);
    snprintf(what, sizeof what, "%s %s: rolls (sticks) after t_r", mname, c->name);
    check_true(what, nsm_sim_mode_has(s, 0) && nsm_sim_mode_has(s, STICK_BIT));
    double dv = 0, dw = 0, dL = 0;
    for (int i = 0; i < 2; i++) {
        snprintf(what, sizeof what, "%s %s: v[%d] after the onset", mname, c->name, i);
        check_close(what, y[U + i], v1[i], 1e-12 * (vs + gn));
        dv = fmax(dv, fabs(y[U + i] - v1[i]) / (vs + gn));
    }
    for (int i = 0; i < 3; i++) {
        snprintf(what, sizeof what, "%s %s: w[%d] after the onset", mname, c->name, i);
        check_close(what, w[i], w1[i], 1e-12 * wscale);
        dw = fmax(dw, fabs(w[i] - w1[i]) / wscale);
    }
    moment_contact(c, y, L1);
    double Ls = fabs(L0[0]) + fabs(L0[1]) + fabs(L0[2]);
    for (int i = 0; i < 3; i++) {
        snprintf(what, sizeof what, "%s %s: L about the contact point [%d] kept", mname, c->name, i);
        check_close(what, L1[i], L0[i], 1e-12 * Ls);
        dL = fmax(dL, fabs(L1[i] - L0[i]) / Ls);
    }
    err = nsm_sim_energy(s, &kin, &pot, &dis, &inj);
    snprintf(what, sizeof what, "%s %s: energy dissipated mu m g |gamma0| t_r / 2", mname, c->name);
    check_close(what, dis, diss, 1e-12 * diss);
    snprintf(what, sizeof what, "%s %s: energy balance", mname, c->name);
    check_close(what, err, 0, 1e-12 * (kin + dis));
    printf("%s %s: t_r = %.15g s; after it v within %.2g, w within %.2g, L_P within %.2g "
           "(relative), dissipated %.15g J (closed form %.15g), balance %.2g J\n", mname,
           c->name, tr, dv, dw, dL, dis, diss, err);
out:
    nsm_sim_free(s);
}

/* A sphere spinning about the normal with drilling friction and no slip:
** the spin falls linearly to zero at t_s and stays there. */
static void drilling(int method, const char *mname)
{
    double m = 2, r = 0.1, I = 0.4 * m * r * r, g = 9.81, mu = 0.25, Rd = 3 * PI * 0.01 / 16;
    double w0 = 20, pv[NPAR] = { m, I, I, I, g, 0, r, 0, r / 2, 0, mu, Rd }, y0[NY];
    memset(y0, 0, sizeof y0);
    y0[2] = r;
    y0[P0] = 1;
    y0[W1 + 2] = w0;
    double ts = I * w0 / (mu * m * g * Rd);
    nsm_sim *s = start(pv, method, 1e-3, y0);
    char what[200];
    check_true("drilling sphere starts", s != NULL);
    if (!s)
        return;
    snprintf(what, sizeof what, "%s drilling: runs to 0.3 t_s", mname);
    if (run_to(s, 0.3 * ts, what))
        goto out;
    const double *y = nsm_sim_state(s);
    snprintf(what, sizeof what, "%s drilling: spin at 0.3 t_s (w0 - mu m g Rd t / I)", mname);
    check_close(what, y[W1 + 2], 0.7 * w0, 1e-12 * w0);
    double w03 = y[W1 + 2];
    snprintf(what, sizeof what, "%s drilling: runs past t_s", mname);
    if (run_to(s, 1.5 * ts, what))
        goto out;
    y = nsm_sim_state(s);
    snprintf(what, sizeof what, "%s drilling: the spin stopped", mname);
    check_close(what, y[W1 + 2], 0, 1e-12 * w0);
    snprintf(what, sizeof what, "%s drilling: sticks after t_s", mname);
    check_true(what, nsm_sim_mode_has(s, STICK_BIT));
    for (int i = 0; i < 2; i++) {
        snprintf(what, sizeof what, "%s drilling: no slip, v[%d] = 0", mname, i);
        check_close(what, y[U + i], 0, 1e-14);
    }
    double kin, pot, dis, inj, err = nsm_sim_energy(s, &kin, &pot, &dis, &inj);
    snprintf(what, sizeof what, "%s drilling: energy dissipated I w0^2 / 2", mname);
    check_close(what, dis, 0.5 * I * w0 * w0, 1e-12 * I * w0 * w0);
    printf("%s drilling: t_s = %.15g s, w(0.3 t_s) = %.15g (closed form %.15g), w after t_s "
           "%.2g, dissipated %.15g J (closed form %.15g), balance %.2g\n", mname, ts, w03,
           0.7 * w0, y[W1 + 2], dis, 0.5 * I * w0 * w0, err);
out:
    nsm_sim_free(s);
}

/* Jellett's integral L . (a1 e3 - r1 e_z) and theta of the top at y. */
static double jellett(const double *pv, const double *y, double *theta)
{
    double R[3][3], Lb[3] = { pv[PI1] * y[W1], pv[PI2] * y[W1 + 1], pv[PI3] * y[W1 + 2] }, L[3];
    rigid_rotation(y, R);
    for (int i = 0; i < 3; i++)
        L[i] = rigid_dot(R[i], Lb);
    double e3[3] = { R[0][2], R[1][2], R[2][2] };
    *theta = acos(fmax(-1, fmin(1, e3[2])));
    return pv[PA1] * rigid_dot(L, e3) - pv[PR1] * L[2];
}

/* The tippe top's sliding phase on its spherical body. */
static void tippe_top(int method, const char *mname, int drill)
{
    double th0 = 0.1, a1 = 3e-3, r1 = 15e-3;
    double pv[NPAR] = { 6e-3, 8e-7, 8e-7, 7e-7, 9.81, a1, r1, 16e-3, 5e-3, 0, 0.3,
                        drill ? 3 * PI * 5e-4 / 16 : 0 }, y0[NY], th, thn;
    memset(y0, 0, sizeof y0);
    y0[2] = r1 - a1 * cos(th0);
    y0[P0] = cos(th0 / 2);
    y0[P1] = sin(th0 / 2);
    y0[W1 + 2] = 180;
    double T = drill ? 0.1 : 0.03;
    nsm_sim *s = start(pv, method, 2e-6, y0);
    char what[200];
    snprintf(what, sizeof what, "%s tippe top (drilling %s) starts", mname, drill ? "on" : "off");
    check_true(what, s != NULL);
    if (!s)
        return;
    double J0 = jellett(pv, y0, &th), dJ = 0;
    for (int k = 1; k <= 10; k++) {
        snprintf(what, sizeof what, "%s tippe top runs", mname);
        if (run_to(s, T * k / 10, what))
            goto out;
        double J = jellett(pv, nsm_sim_state(s), &thn);
        dJ = fmax(dJ, fabs(J - J0) / fabs(J0));
    }
    snprintf(what, sizeof what, "%s tippe top (drilling %s) slides on its spherical body", mname,
             drill ? "on" : "off");
    check_true(what, nsm_sim_mode_has(s, 0) && !nsm_sim_mode_has(s, 1) &&
                     !nsm_sim_mode_has(s, STICK_BIT));
    double kin, pot, dis, inj, err = nsm_sim_energy(s, &kin, &pot, &dis, &inj);
    double E = fabs(kin) + fabs(pot) + fabs(dis);
    snprintf(what, sizeof what, "%s tippe top (drilling %s): energy balance", mname,
             drill ? "on" : "off");
    check_close(what, err, 0, 1e-11 * E);
    if (!drill) {
        snprintf(what, sizeof what, "%s tippe top: Jellett's integral constant", mname);
        check_close(what, dJ, 0, 1e-12);
    } else {
        /* tests/reference/tippe_top.py --contact-start 0.1 (Taylor series at
         * 96 bits, started in this state): theta first falls (the top does
         * not yet rise) */
        double th_ref = 0.025190126060767949766, w_ref = 1.6001588016558462319e-4;
        snprintf(what, sizeof what, "%s tippe top with drilling: theta at 0.1 s (reference)", mname);
        check_close(what, thn, th_ref, 1e-11 * th_ref);
        snprintf(what, sizeof what, "%s tippe top with drilling: friction work to 0.1 s (reference)",
                 mname);
        check_close(what, dis, w_ref, 1e-11 * w_ref);
        printf("%s tippe top with drilling at 0.1 s: theta %.15g (reference %.15g), friction work "
               "%.15g J (reference %.15g)\n", mname, thn, th_ref, dis, w_ref);
    }
    printf("%s tippe top, drilling %s, to %g s: Jellett's integral within %.2g relative, theta "
           "%.9g, dissipated %.6g J, balance %.2g J (of %.4g J)\n", mname, drill ? "on" : "off",
           T, dJ, thn, dis, err, E);
out:
    nsm_sim_free(s);
}

/* A sphere at rest on an incline steeper than rolling allows (mu below
** k/(1 + k) tan alpha): the force that would hold it leaves the cone, so
** its slip starts from zero, down the slope (opposite that force), and the
** centre slides with v = g (sin alpha - mu cos alpha) t down the slope
** while the spin grows by I w' = mu m g cos alpha r; the slip
** gamma = v - r w (down the slope) grows as g (sin alpha - mu cos alpha
** (1 + 1/k)) t. */
static void slip_from_rest(int method, const char *mname)
{
    double al = 0.5, r = 0.1, k = 0.4, I = k * r * r, g = 9.81, mu = 0.05, T = 0.1;
    double pv[NPAR] = { 1, I, I, I, g, 0, r, 0, r / 2, al, mu, 0 }, y0[NY], w[3];
    char what[200];
    memset(y0, 0, sizeof y0);
    y0[0] = -sin(al) * r;
    y0[2] = cos(al) * r;
    y0[P0] = 1;
    nsm_sim *s = start(pv, method, 1e-3, y0);
    snprintf(what, sizeof what, "%s slip from rest: starts", mname);
    check_true(what, s != NULL);
    if (!s)
        return;
    snprintf(what, sizeof what, "%s slip from rest: runs (the slip starts from zero)", mname);
    if (run_to(s, T, what))
        goto out;
    const double *y = nsm_sim_state(s);
    double d[3] = { -cos(al), 0, -sin(al) }, acc = g * (sin(al) - mu * cos(al));
    double wy = mu * g * cos(al) * r / I * T, gam = g * (sin(al) - mu * cos(al) * (1 + 1 / k)) * T;
    omega_world(y, w);
    double err = 0;
    for (int i = 0; i < 3; i++) {
        snprintf(what, sizeof what, "%s slip from rest: v[%d] = g (sin a - mu cos a) t d", mname, i);
        check_close(what, y[U + i], acc * T * d[i], 1e-12 * acc * T);
        err = fmax(err, fabs(y[U + i] - acc * T * d[i]) / (acc * T));
    }
    /* the spin turns the contact point up the slope: about -y */
    snprintf(what, sizeof what, "%s slip from rest: w_y = -mu m g cos a r t / I", mname);
    check_close(what, w[1], -wy, 1e-12 * wy);
    double slip = rigid_dot(y + U, d) + r * w[1];
    snprintf(what, sizeof what, "%s slip from rest: slip down the slope", mname);
    check_close(what, slip, gam, 1e-12 * fabs(gam));
    snprintf(what, sizeof what, "%s slip from rest: slides (no stick)", mname);
    check_true(what, nsm_sim_mode_has(s, 0) && !nsm_sim_mode_has(s, STICK_BIT));
    double kin, pot, dis, inj, bal = nsm_sim_energy(s, &kin, &pot, &dis, &inj);
    snprintf(what, sizeof what, "%s slip from rest: dissipated mu m g cos a |gamma| dt", mname);
    check_close(what, dis, mu * g * cos(al) * gam * T / 2, 1e-12 * dis);
    printf("%s slip from rest: v within %.2g relative, slip %.15g m/s (closed form %.15g), "
           "dissipated %.15g J, balance %.2g J\n", mname, err, slip, gam, dis, bal);
out:
    nsm_sim_free(s);
}

/* Stick -> slip: a solid sphere at rest on the level floor pushed at its
** centre by c t along x rolls (sticks) while the friction rolling needs,
** c t k / (1 + k), stays below mu m g, until t* = mu m g (1 + k) / (k c);
** from t* it slides, v' = c t / m - mu g, r w' = mu g / k, so that its slip
** gamma = v - r w_y grows as c (t - t*)^2 / (2 m) from zero (the onset is
** continuous).  The slip at t* + D depends on t* to first order (an error
** dt in t* moves it by c D dt / m): it measures the onset's instant, which
** the run also brackets by the mode at t* -/+ 2e-12 s. */
static void stick_to_slip(int method, const char *mname)
{
    double r = 0.1, k = 0.4, m = 1, I = k * m * r * r, g = 9.81, mu = 0.2, c = 10, D = 0.3;
    double pv[NPAR] = { m, I, I, I, g, 0, r, 0, r / 2, 0, mu, 0, c }, y0[NY], w[3];
    double ts = mu * m * g * (1 + k) / (k * c);
    char what[200];
    memset(y0, 0, sizeof y0);
    y0[2] = r;
    y0[P0] = 1;
    nsm_sim *s = start(pv, method, 1e-3, y0);
    snprintf(what, sizeof what, "%s stick -> slip: starts", mname);
    check_true(what, s != NULL);
    if (!s)
        return;
    snprintf(what, sizeof what, "%s stick -> slip: runs to t* - 2e-12 s", mname);
    if (run_to(s, ts - 2e-12, what))
        goto out;
    snprintf(what, sizeof what, "%s stick -> slip: sticks (rolls) before t*", mname);
    check_true(what, nsm_sim_mode_has(s, STICK_BIT));
    snprintf(what, sizeof what, "%s stick -> slip: runs to t* + 2e-12 s", mname);
    if (run_to(s, ts + 2e-12, what))
        goto out;
    snprintf(what, sizeof what, "%s stick -> slip: slides after t*", mname);
    check_true(what, nsm_sim_mode_has(s, 0) && !nsm_sim_mode_has(s, STICK_BIT));
    snprintf(what, sizeof what, "%s stick -> slip: runs to t* + D", mname);
    if (run_to(s, ts + D, what))
        goto out;
    const double *y = nsm_sim_state(s);
    omega_world(y, w);
    double t = ts + D, v = c * ts * ts / (2 * m * (1 + k)) + c * (t * t - ts * ts) / (2 * m) - mu * g * D;
    double gam = c * D * D / (2 * m), slip = y[U] - r * w[1];
    snprintf(what, sizeof what, "%s stick -> slip: v at t* + D", mname);
    check_close(what, y[U], v, 1e-12 * v);
    snprintf(what, sizeof what, "%s stick -> slip: slip c D^2 / (2 m) at t* + D (the onset's instant)",
             mname);
    check_close(what, slip, gam, 1e-11 * gam);
    snprintf(what, sizeof what, "%s stick -> slip: no sideways motion", mname);
    check_close(what, fabs(y[U + 1]) + fabs(w[0]) + fabs(w[2]), 0, 1e-15);
    double kin, pot, dis, inj, bal = nsm_sim_energy(s, &kin, &pot, &dis, &inj);
    snprintf(what, sizeof what, "%s stick -> slip: energy balance", mname);
    check_close(what, bal, 0, 1e-12 * (kin + dis + inj));
    printf("%s stick -> slip: t* = %.15g s; at t* + %g s v %.15g (closed form %.15g), slip "
           "%.15g (closed form %.15g: the onset within %.2g s), balance %.2g J\n", mname, ts, D,
           y[U], v, slip, gam, fabs(slip - gam) * m / (c * D), bal);
out:
    nsm_sim_free(s);
}

/* A bar on two spheres (radius r at the body points (0, 0, d1) and (0, 0,
** -d2), the body turned by pi/2 about x so that they sit at y = -d1 and
** y = d2 on the floor), sliding along y at v0 with friction at both: both
** contacts held, one force problem.  Vertical balance and the moments about
** the centre of mass (no pitch: both gaps held) with the friction forces
** -mu lambda_i at depth r give lambda_1 + lambda_2 = m g and
** -d1 lambda_1 + d2 lambda_2 = r mu m g, so lambda_1 = m g (d2 - r mu) /
** (d1 + d2), lambda_2 = m g (d1 + r mu) / (d1 + d2) (mu = 0: the lever
** rule); the bar decelerates at mu g. */
static void two_contacts(int method, const char *mname, double mu)
{
    double m = 1, I = 0.01, g = 9.81, r = 0.05, d1 = 0.3, d2 = 0.2, v0 = 1, T = 0.25;
    double pv[NPAR] = { m, I, I, I, g, d1, r, -d2, r, 0, mu, 0 }, y0[NY], lam[2];
    char what[200];
    memset(y0, 0, sizeof y0);
    y0[2] = r;
    y0[P1] = sin(PI / 4);
    y0[P0] = cos(PI / 4);
    y0[U + 1] = v0;
    nsm_sim *s = start_on(&model2, pv, method, 1e-3, y0);
    snprintf(what, sizeof what, "%s two contacts, mu = %g: starts", mname, mu);
    check_true(what, s != NULL);
    if (!s)
        return;
    snprintf(what, sizeof what, "%s two contacts, mu = %g: runs", mname, mu);
    if (run_to(s, T, what))
        goto out;
    const double *y = nsm_sim_state(s);
    double l1 = m * g * (d2 - r * mu) / (d1 + d2), l2 = m * g * (d1 + r * mu) / (d1 + d2);
    nsm_sim_forces(s, lam);
    snprintf(what, sizeof what, "%s two contacts, mu = %g: both held, sliding", mname, mu);
    check_true(what, nsm_sim_mode_has(s, 0) && nsm_sim_mode_has(s, 1) &&
               !nsm_sim_mode_has(s, 2) && !nsm_sim_mode_has(s, 3));
    snprintf(what, sizeof what, "%s two contacts, mu = %g: lambda_1 = m g (d2 - r mu)/(d1 + d2)",
             mname, mu);
    check_close(what, lam[0], l1, 1e-12 * m * g);
    snprintf(what, sizeof what, "%s two contacts, mu = %g: lambda_2 = m g (d1 + r mu)/(d1 + d2)",
             mname, mu);
    check_close(what, lam[1], l2, 1e-12 * m * g);
    snprintf(what, sizeof what, "%s two contacts, mu = %g: v_y = v0 - mu g t", mname, mu);
    check_close(what, y[U + 1], v0 - mu * g * T, 1e-12 * v0);
    snprintf(what, sizeof what, "%s two contacts, mu = %g: no pitch, no lift", mname, mu);
    check_close(what, fabs(y[W1]) + fabs(y[W1 + 1]) + fabs(y[W1 + 2]) + fabs(y[U + 2]), 0, 1e-13);
    double kin, pot, dis, inj, bal = nsm_sim_energy(s, &kin, &pot, &dis, &inj);
    snprintf(what, sizeof what, "%s two contacts, mu = %g: energy balance", mname, mu);
    check_close(what, bal, 0, 1e-12 * (kin + dis + 1e-300));
    printf("%s two contacts, mu = %g: lambda (%.15g, %.15g) N (closed form (%.15g, %.15g)), "
           "v_y %.15g (closed form %.15g), balance %.2g J\n", mname, mu, lam[0], lam[1], l1, l2,
           y[U + 1], v0 - mu * g * T, bal);
out:
    nsm_sim_free(s);
}

/* The bar of two_contacts slides to rest: both slips reach zero at
** t_s = v0 / (mu g) and the bar stays at rest (its tangential forces are
** statically indeterminate between the two contacts: whichever split the
** run takes must hold it still, each force inside its cone); its kinetic
** energy m v0^2 / 2 dissipated. */
static void two_to_rest(int method, const char *mname)
{
    double m = 1, I = 0.01, g = 9.81, r = 0.05, d1 = 0.3, d2 = 0.2, v0 = 1, mu = 0.2;
    double pv[NPAR] = { m, I, I, I, g, d1, r, -d2, r, 0, mu, 0 }, y0[NY], lam[2];
    char what[200];
    memset(y0, 0, sizeof y0);
    y0[2] = r;
    y0[P1] = sin(PI / 4);
    y0[P0] = cos(PI / 4);
    y0[U + 1] = v0;
    nsm_sim *s = start_on(&model2, pv, method, 1e-3, y0);
    snprintf(what, sizeof what, "%s bar to rest: starts", mname);
    check_true(what, s != NULL);
    if (!s)
        return;
    snprintf(what, sizeof what, "%s bar to rest: runs past v0 / (mu g)", mname);
    if (run_to(s, 1.5 * v0 / (mu * g), what))
        goto out;
    const double *y = nsm_sim_state(s);
    double sp = 0;
    for (int i = 0; i < 6; i++)
        sp = fmax(sp, fabs(y[U + i]) * (i < 3 ? 1 : r));
    nsm_sim_forces(s, lam);
    snprintf(what, sizeof what, "%s bar to rest: at rest (v, r w)", mname);
    check_close(what, sp, 0, 1e-11 * v0);
    snprintf(what, sizeof what, "%s bar to rest: the lever rule's normal forces", mname);
    check_close(what, fabs(lam[0] - m * g * d2 / (d1 + d2)) + fabs(lam[1] - m * g * d1 / (d1 + d2)),
                0, 1e-9 * m * g);
    double kin, pot, dis, inj, bal = nsm_sim_energy(s, &kin, &pot, &dis, &inj);
    snprintf(what, sizeof what, "%s bar to rest: dissipated m v0^2 / 2", mname);
    check_close(what, dis, 0.5 * m * v0 * v0, 1e-11);
    printf("%s bar to rest: speed %.2g m/s, lambda (%.15g, %.15g) N, dissipated %.15g J, "
           "balance %.2g J, stuck (%d, %d)\n", mname, sp, lam[0], lam[1], dis, bal,
           nsm_sim_mode_has(s, 2), nsm_sim_mode_has(s, 3));
out:
    nsm_sim_free(s);
}

int main(void)
{
    static const Roll cases[] = {
        { "solid, Pythagorean slip", 1, 0.1, 0.4, 9.81, 0.2, { 1, -1 }, { -10, -5, 7 } },
        { "solid, oblique slip", 0.3, 0.05, 0.4, 9.81, 0.3, { 2, 1.0 / 3 }, { -40, 15, 12 } },
        { "hollow, backspin and side spin", 0.5, 0.125, 2.0 / 3, 9.81, 0.25, { -1.5, 1.25 },
          { 7, 9, -30 } },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rolling(&cases[i], NSM_METHOD_RK4, "rk4");
        rolling(&cases[i], NSM_METHOD_ADAPTIVE, "adaptive");
    }
    drilling(NSM_METHOD_RK4, "rk4");
    drilling(NSM_METHOD_ADAPTIVE, "adaptive");
    tippe_top(NSM_METHOD_RK4, "rk4", 0);
    tippe_top(NSM_METHOD_ADAPTIVE, "adaptive", 0);
    tippe_top(NSM_METHOD_RK4, "rk4", 1);
    tippe_top(NSM_METHOD_ADAPTIVE, "adaptive", 1);
    model2 = model;
    model2.n_space_frictions = 2;
    model2.setup = setup2;
    for (int k = 0; k < 2; k++) {
        static const char *const mn[] = { "rk4", "adaptive" };
        int me = k ? NSM_METHOD_ADAPTIVE : NSM_METHOD_RK4;
        slip_from_rest(me, mn[k]);
        stick_to_slip(me, mn[k]);
        two_contacts(me, mn[k], 0);
        two_contacts(me, mn[k], 0.2);
        two_to_rest(me, mn[k]);
    }
    return check_report();
}
