/*
** test_space_friction.c: the spatial friction elements nsmc writes for
** models/tippe_top.nsm (the tippe top of Leine 2003 with mu = 0.3 and
** drilling friction at both spheres), read from the generated table
** against the model's parameters (docs/theory.md section 19, nsm/model.h's
** nsm_space_friction): the elements' names, gaps and body; setup's sf_*
** numbers (each sphere's centre and radius, the floor's normal, mu, e_F and
** the effective drilling radius 3 pi R / 16); setup's refusal of mu < 0; a
** setup called with the sf_* arrays absent (NULL, a runtime that predates
** them) writing none; the top run by rk4, adaptive and taylor to its
** stem's first contact against tests/reference/tippe_top.py; the top
** without drilling (R = 0) by rk4 and taylor through its slide and the
** onset of rolling with Jellett's integral constant;
** tests/rigid/rolling_sphere.nsm by rk4, adaptive and taylor against
** rolling_sphere.py's closed form, with the stick record of its friction
** element (kind stick, named 'grip', at t_r, the slip before it at zero)
** and its columns grip.force (mu m g sliding, 0 rolling) and grip.slip
** (|gamma0|/2 at t_r/2, 0 rolling); tests/rigid/rolling_incline.nsm's
** friction force; and tests/rigid/drill_spin.nsm by rk4 and taylor.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nsm/model.h"
#include "nsm/nsm.h"

#include "../unit/check.h"
#include "space_ref.h"

extern const nsm_model nsm_model_tippe_top;
extern const nsm_model nsm_model_rolling_sphere;
extern const nsm_model nsm_model_rolling_incline;
extern const nsm_model nsm_model_drill_spin;

/* A slot of 256 zeroed doubles (more than any array of the top needs). */
static double *slot(void)
{
    return calloc(256, sizeof(double));
}

/* nsm_numeric with every array the top's setup writes, the sf_* ones only
** when with_sf. */
static void numeric_alloc(nsm_numeric *num, int with_sf)
{
    memset(num, 0, sizeof *num);
    double **d[] = { &num->mass, &num->fconst, &num->d, &num->e, &num->kc, &num->cc, &num->sk,
                     &num->sc, &num->srest, &num->ut, &num->fn, &num->mus, &num->muk,
                     &num->gfac, &num->radius, &num->et, &num->pexp, &num->kimp, &num->eimp,
                     &num->K.val, &num->C.val, &num->W.val, &num->Wt.val };
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++)
        *d[i] = slot();
    int **ix[] = { &num->K.row, &num->K.col, &num->C.row, &num->C.col, &num->W.row, &num->W.col,
                   &num->Wt.row, &num->Wt.col };
    for (size_t i = 0; i < sizeof ix / sizeof ix[0]; i++)
        *ix[i] = calloc(256, sizeof(int));
    if (!with_sf)
        return;
    double **sf[] = { &num->sf_centre, &num->sf_radius, &num->sf_normal, &num->sf_mu, &num->sf_et,
                      &num->sf_drill };
    for (size_t i = 0; i < sizeof sf / sizeof sf[0]; i++)
        *sf[i] = slot();
}

/* Frees what numeric_alloc allocated. */
static void numeric_free(nsm_numeric *num)
{
    double *d[] = { num->mass, num->fconst, num->d, num->e, num->kc, num->cc, num->sk, num->sc,
                    num->srest, num->ut, num->fn, num->mus, num->muk, num->gfac, num->radius,
                    num->et, num->pexp, num->kimp, num->eimp, num->K.val, num->C.val, num->W.val,
                    num->Wt.val, num->sf_centre, num->sf_radius, num->sf_normal, num->sf_mu,
                    num->sf_et, num->sf_drill };
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++)
        free(d[i]);
    int *ix[] = { num->K.row, num->K.col, num->C.row, num->C.col, num->W.row, num->W.col,
                  num->Wt.row, num->Wt.col };
    for (size_t i = 0; i < sizeof ix / sizeof ix[0]; i++)
        free(ix[i]);
}

/* The index of parameter `name` in the table, -1 when absent. */
static int param_index(const nsm_model *m, const char *name)
{
    for (int k = 0; k < m->n_params; k++)
        if (strcmp(m->params[k].name, name) == 0)
            return k;
    return -1;
}

/* The first impacts of the top's two gaps (ball 0, stem 1), and the
** rotation's e3_z at the stem's. */
typedef struct { double t[2], e3z; int n[2]; } TopLog;

/* Event handler: the first impact of each gap; e3_z = R33 of the
** (homogeneous) quaternion when the stem lands. */
static int top_event(void *ud, const nsm_sim *sim, const nsm_event *ev)
{
    TopLog *L = ud;
    if (ev->kind != NSM_EV_IMPACT || ev->contact < 0 || ev->contact > 1 || L->n[ev->contact]++)
        return 0;
    L->t[ev->contact] = ev->t;
    if (ev->contact == 1) {
        const double *y = nsm_sim_state(sim);   /* q = (x, y, z, p1, p2, p3, p0) */
        double p1 = y[3], p2 = y[4], p3 = y[5], p0 = y[6];
        L->e3z = (p0 * p0 - p1 * p1 - p2 * p2 + p3 * p3) / (p0 * p0 + p1 * p1 + p2 * p2 + p3 * p3);
    }
    return 0;
}

/* The issue's tippe top from nsmc's table, run to its stem's first
** contact: the landing and the stem's touchdown against the independent
** series integration tests/reference/tippe_top.py (mpmath, 124 and 96
** bits: landing 5.047346488959237992e-5 s, stem 1.371043834339366705293 s,
** both printed by the script), the top's axis there at cos(theta) =
** (r2 - r1)/(a2 - a1) = -10/13 (both spheres touch: geometry alone), the
** energy balance (friction work and the impacts' losses booked), and the
** run going on past it with both spheres held (the whole 8 s:
** test_tippe_invert.c). */
static void tippe_run(const nsm_model *m, int method, const char *mname, double tol)
{
    static const double t_land = 5.047346488959237992301767e-5, t_stem = 1.371043834339366705293;
    nsm_sim *s = nsm_sim_create(m);
    char what[200];
    snprintf(what, sizeof what, "%s tippe top created and reset", mname);
    TopLog L;
    memset(&L, 0, sizeof L);
    if (s) {
        nsm_sim_set_method(s, method);
        nsm_sim_set_event_handler(s, top_event, &L);
    }
    check_true(what, s && nsm_sim_reset(s) == 0);
    if (!s)
        return;
    double kin0, pot0, diss0, inj0;
    nsm_sim_energy(s, &kin0, &pot0, &diss0, &inj0);
    int rc = nsm_sim_run_until(s, 1.372);
    const char *msg = nsm_sim_message(s);
    snprintf(what, sizeof what, "%s tippe top lands once on its ball, then its stem touches", mname);
    check_true(what, L.n[0] == 1 && L.n[1] == 1);
    snprintf(what, sizeof what, "%s landing at the reference's instant", mname);
    /* the gap starts at 12.5 nm, computed from lengths of 15 mm: its
     * rounding, 2 eps (z0 + a1 + r1) / |v_N|, is 2.7e-14 s of the instant */
    check_close(what, L.t[0], t_land, 3e-14);
    snprintf(what, sizeof what, "%s stem's first contact at the reference's instant", mname);
    check_close(what, L.t[1], t_stem, tol);
    snprintf(what, sizeof what, "%s the axis at the stem's contact: cos(theta) = -10/13", mname);
    check_close(what, L.e3z, -10.0 / 13, tol);
    double kin, pot, diss, inj, err = nsm_sim_energy(s, &kin, &pot, &diss, &inj);
    snprintf(what, sizeof what, "%s energy balance to the stem's contact", mname);
    check_close(what, err, 0, 1e-10 * (kin0 + fabs(pot0)));
    snprintf(what, sizeof what, "%s runs on with both contacts held (one force problem)", mname);
    check_true(what, rc == 0);
    double e[2] = { -1, -1 };
    snprintf(what, sizeof what, "%s the two friction elements' dissipation reads", mname);
    check_true(what, nsm_sim_space_friction_dissipated(s, 0, &e[0]) == 0 &&
                     nsm_sim_space_friction_dissipated(s, 1, &e[1]) == 0 &&
                     nsm_sim_space_friction_dissipated(s, 2, &e[1]) != 0);
    /* nothing else dissipates: the lines add up to the audit's dissipation
     * (the integrated state's, the impacts' losses apart), to the rounding
     * of its sum over the steps, and nothing is left to "other" */
    nsm_audit au;
    snprintf(what, sizeof what, "%s the elements' dissipation adds up to the total", mname);
    check_true(what, nsm_sim_audit(s, &au) == 0);
    check_close(what, e[0] + e[1], au.dissipated, 1e-13 * au.dissipated);
    snprintf(what, sizeof what, "%s no dissipation left to other", mname);
    check_close(what, au.dissipated_other, 0, 1e-13 * au.dissipated);
    snprintf(what, sizeof what, "%s each element's dissipation >= 0", mname);
    check_true(what, e[0] >= 0 && e[1] >= 0);
    printf("%s tippe top: friction dissipated %.17g J (ball) + %.17g J (stem) = %.17g J, "
           "audit %.17g J (off %.2g), other %.2g J\n", mname, e[0], e[1], e[0] + e[1],
           au.dissipated, e[0] + e[1] - au.dissipated, au.dissipated_other);
    printf("%s tippe top: lands at %.17g s (reference %.17g), stem at %.17g s (reference "
           "%.17g, off %.2g s), cos(theta) %.15g (off %.2g), balance %.2g J of %.4g J, %ld "
           "steps; %s\n", mname, L.t[0], t_land, L.t[1], t_stem, fabs(L.t[1] - t_stem), L.e3z,
           fabs(L.e3z + 10.0 / 13), err, kin0 + fabs(pot0), nsm_sim_steps(s), msg);
    nsm_sim_free(s);
}

/* Jellett's integral L . (a1 e3 - r1 e_z) of the top in state y (q = (x,
** y, z, p1, p2, p3, p0), u = (v, w_body)), with I1 = I2 and I3, a1, r1. */
static double jellett(const double *y, double I1, double I3, double a1, double r1)
{
    double p1 = y[3], p2 = y[4], p3 = y[5], p0 = y[6];
    double n2 = p0 * p0 + p1 * p1 + p2 * p2 + p3 * p3;
    double Lb[3] = { I1 * y[10], I1 * y[11], I3 * y[12] };
    /* L . e3 = I3 w3 (body frame); L_z = (R Lb)_z, R's last row */
    double Rz[3] = { 2 * (p1 * p3 - p0 * p2) / n2, 2 * (p2 * p3 + p0 * p1) / n2,
                     (p0 * p0 - p1 * p1 - p2 * p2 + p3 * p3) / n2 };
    double Lz = Rz[0] * Lb[0] + Rz[1] * Lb[1] + Rz[2] * Lb[2];
    return a1 * Lb[2] - r1 * Lz;
}

/* The top without drilling friction (R = 0) by `method`: it lands and
** slides on its spherical body, where Jellett's integral L . (a1 e3 - r1
** e_z) is conserved whatever the friction does (the contact force acts at
** the contact point, r1 below the sphere's centre a1 e3: its torque about
** the centre of mass, (a1 e3 - r1 e_z) x F, has no component along that
** vector), as through the landing's impulse and the projection onto
** rolling.  The slip collapses near 0.036 s (tests/reference/tippe_top.py:
** 6.4e-3 m/s at 0.035 s, its direction turning with the spin) and the top
** rolls: checked at 60 instants to 0.06 s, Jellett's integral to 1e-12
** relative throughout, the contact stuck (rolling) at the end, and the
** energy balance. */
static void jellett_run(const nsm_model *m, int method, const char *mname)
{
    const double I1 = 8e-7, I3 = 7e-7, a1 = 0.003, r1 = 0.015, T = 0.06;
    nsm_sim *s = nsm_sim_create(m);
    char what[200];
    snprintf(what, sizeof what, "%s top without drilling starts", mname);
    check_true(what, s && nsm_sim_set_param(s, "R", 0) == 0 &&
                     nsm_sim_set_method(s, method) == 0 && nsm_sim_reset(s) == 0);
    if (!s)
        return;
    double kin0, pot0, diss0, inj0, dJ = 0;
    nsm_sim_energy(s, &kin0, &pot0, &diss0, &inj0);
    double J0 = jellett(nsm_sim_state(s), I1, I3, a1, r1);
    for (int k = 1; k <= 60; k++) {
        int rc = nsm_sim_run_until(s, T * k / 60);
        snprintf(what, sizeof what, "%s top without drilling runs to %g s", mname, T * k / 60);
        check_true(what, rc == 0);
        if (rc) {
            printf("%s\n", nsm_sim_message(s));
            break;
        }
        dJ = fmax(dJ, fabs(jellett(nsm_sim_state(s), I1, I3, a1, r1) - J0) / fabs(J0));
    }
    snprintf(what, sizeof what, "%s top without drilling rolls on its ball at %g s", mname, T);
    check_true(what, nsm_sim_mode_has(s, 0) == 1 && nsm_sim_mode_has(s, 1) == 0 &&
                     nsm_sim_mode_has(s, 2) == 1);
    snprintf(what, sizeof what, "%s Jellett's integral constant to 1e-12 relative", mname);
    check_close(what, dJ, 0, 1e-12);
    double kin, pot, diss, inj, err = nsm_sim_energy(s, &kin, &pot, &diss, &inj);
    snprintf(what, sizeof what, "%s top without drilling: energy balance", mname);
    check_close(what, err, 0, 1e-10 * (kin0 + fabs(pot0)));
    printf("%s top without drilling to %g s: Jellett's integral within %.2g relative, dissipated "
           "%.6g J, balance %.2g J, %ld steps\n", mname, T, dJ, fabs(diss), err, nsm_sim_steps(s));
    nsm_sim_free(s);
}

/* The spatial friction records of a run: how many, and the first's instant,
** slip before and after, energy and contact name. */
typedef struct { int n; nsm_event ev; const char *name; } SfLog;

/* Event handler: keeps the records of spatial friction elements (contact
** n_gaps + n_frictions + k). */
static int sf_event(void *ud, const nsm_sim *sim, const nsm_event *ev)
{
    SfLog *L = ud;
    const nsm_model *m = &nsm_model_rolling_sphere;
    (void)sim;
    if (ev->kind == NSM_EV_TIME || ev->contact < m->n_gaps + m->n_frictions)
        return 0;
    if (!L->n++) {
        L->ev = *ev;
        L->name = nsm_event_contact_name(m, ev);
    }
    return 0;
}

/* Output column `name` of the rolling sphere's table at the state of s. */
static double rolling_column(const nsm_sim *s, const char *name)
{
    return model_column(&nsm_model_rolling_sphere, s, name);
}

/* tests/rigid/rolling_incline.nsm: a solid sphere (k = 2/5) sent down the
** incline alpha = 0.3 at v0 = 1 m/s without spin, mu = 0.2.  Along the
** slope the slip is the velocity: sliding, v' = g (sin a - mu cos a) and the
** slip falls at g (mu cos a (1 + 1/k) - sin a) to zero at t_r; the force is
** mu m g cos a.  Rolling, v' = g sin a / (1 + k) and the stick force is
** k/(1 + k) m g sin a = (2/7) m g sin a, inside the cone.  Checked at t_r/2
** (force, slip, speed) and at 1 s (force, slip 0, speed v(t_r) + 5/7 g sin a
** (1 s - t_r)), against these closed forms. */
static void incline_run(int method, const char *mname)
{
    const double m = 1, g = 9.81, mu = 0.2, a = 0.3, k = 0.4, v0 = 1, T = 1;
    const double dec = g * (mu * cos(a) * (1 + 1 / k) - sin(a)), tr = v0 / dec;
    const double vr = v0 + g * (sin(a) - mu * cos(a)) * tr;
    const nsm_model *tab = &nsm_model_rolling_incline;
    nsm_sim *s = nsm_sim_create(tab);
    char what[200];
    if (s) {
        nsm_sim_set_method(s, method);
        if (method == NSM_METHOD_ADAPTIVE)
            nsm_sim_set_tolerances(s, 1e-13, 1e-15);
        else
            nsm_sim_set_dt(s, 1e-4);
    }
    snprintf(what, sizeof what, "%s rolling incline runs to t_r/2", mname);
    check_true(what, s && nsm_sim_reset(s) == 0 && nsm_sim_run_until(s, tr / 2) == 0);
    if (!s)
        return;
    const double *y = nsm_sim_state(s);
    double sp = hypot(y[7], y[9]), fs = model_column(tab, s, "grip.force");
    snprintf(what, sizeof what, "%s rolling incline: grip.force = mu m g cos a sliding", mname);
    check_close(what, fs, mu * m * g * cos(a), 1e-12 * m * g);
    snprintf(what, sizeof what, "%s rolling incline: grip.slip = v0/2 at t_r/2", mname);
    check_close(what, model_column(tab, s, "grip.slip"), v0 / 2, 1e-12 * v0);
    snprintf(what, sizeof what, "%s rolling incline: speed at t_r/2", mname);
    check_close(what, sp, v0 + g * (sin(a) - mu * cos(a)) * tr / 2, 1e-12 * v0);
    snprintf(what, sizeof what, "%s rolling incline runs to %g s", mname, T);
    check_true(what, nsm_sim_run_until(s, T) == 0);
    y = nsm_sim_state(s);
    sp = hypot(y[7], y[9]);
    double fr = model_column(tab, s, "grip.force"), vT = vr + g * sin(a) / (1 + k) * (T - tr);
    snprintf(what, sizeof what, "%s rolling incline: grip.force = 2/7 m g sin a rolling", mname);
    check_close(what, fr, k / (1 + k) * m * g * sin(a), 1e-12 * m * g);
    snprintf(what, sizeof what, "%s rolling incline: grip.slip = 0 rolling", mname);
    check_close(what, model_column(tab, s, "grip.slip"), 0, 1e-12 * v0);
    snprintf(what, sizeof what, "%s rolling incline: speed at T", mname);
    check_close(what, sp, vT, 1e-12 * vT);
    snprintf(what, sizeof what, "%s rolling incline: ball.force = m g cos a", mname);
    check_close(what, model_column(tab, s, "ball.force"), m * g * cos(a), 1e-12 * m * g);
    printf("%s rolling incline: t_r %.17g s; grip.force %.17g N sliding (closed form %.17g), "
           "%.17g N rolling (closed form %.17g); speed at T %.17g m/s (closed form %.17g)\n",
           mname, tr, fs, mu * m * g * cos(a), fr, k / (1 + k) * m * g * sin(a), sp, vT);
    nsm_sim_free(s);
}

/* tests/rigid/rolling_sphere.nsm, nsmc's table of rolling_sphere.py's first
** case (m = 1 kg, r = 0.1 m, k = 2/5, mu = 0.2, g = 9.81, v0 = (1, -1),
** w0 = (-10, -5, 7)): the slip gamma0 = (1.5, -2), |gamma0| = 5/2, falls
** linearly to zero at t_r = k |gamma0| / (mu g (1 + k)); the friction
** impulse J = -k/(1 + k) m gamma0 = (-3/7, 4/7) gives v = (4/7, -3/7) and the
** world-frame w = w0 + I^-1 (-r e_z) x J = (30/7, 40/7, 7); the centre at T
** is v0 t_r + J t_r / 2 + v (T - t_r) (the onset's instant enters it), the
** energy dissipated mu m g |gamma0| t_r / 2, and the sphere rolls on. */
static void rolling_run(int method, const char *mname)
{
    const double m = 1, r = 0.1, g = 9.81, mu = 0.2, k = 0.4, T = 0.6, gam = 2.5;
    const double tr = k * gam / (mu * g * (1 + k));
    const double J[2] = { -3.0 / 7, 4.0 / 7 }, v[2] = { 4.0 / 7, -3.0 / 7 };
    const double v0[2] = { 1, -1 }, w[3] = { 30.0 / 7, 40.0 / 7, 7 };
    nsm_sim *s = nsm_sim_create(&nsm_model_rolling_sphere);
    char what[200];
    SfLog L;
    memset(&L, 0, sizeof L);
    if (s) {
        nsm_sim_set_event_handler(s, sf_event, &L);
        nsm_sim_set_method(s, method);
        if (method == NSM_METHOD_ADAPTIVE)
            nsm_sim_set_tolerances(s, 1e-13, 1e-15);
        else
            nsm_sim_set_dt(s, 1e-4);
    }
    snprintf(what, sizeof what, "%s rolling sphere runs to %g s", mname, T);
    check_true(what, s && nsm_sim_reset(s) == 0 && nsm_sim_run_until(s, tr / 2) == 0);
    if (!s)
        return;
    /* sliding at t_r/2: the force mu m g, the slip |gamma0| / 2 (linear fall) */
    double f_slide = rolling_column(s, "grip.force"), slip_half = rolling_column(s, "grip.slip");
    snprintf(what, sizeof what, "%s rolling sphere: grip.force = mu m g while it slides", mname);
    check_close(what, f_slide, mu * m * g, 1e-12 * mu * m * g);
    snprintf(what, sizeof what, "%s rolling sphere: grip.slip = |gamma0|/2 at t_r/2", mname);
    check_close(what, slip_half, gam / 2, 1e-12 * gam);
    check_true(what, nsm_sim_run_until(s, T) == 0);
    const double *y = nsm_sim_state(s);   /* q = (x, y, z, p1, p2, p3, p0), u = (v, w_body) */
    double x[2], wb[3] = { y[10], y[11], y[12] }, R[3][3], ww[3];
    for (int i = 0; i < 2; i++)
        x[i] = v0[i] * tr + J[i] / m * tr / 2 + v[i] * (T - tr);
    double p0 = y[6], p1 = y[3], p2 = y[4], p3 = y[5];
    double n2 = p0 * p0 + p1 * p1 + p2 * p2 + p3 * p3;
    R[0][0] = (p0 * p0 + p1 * p1 - p2 * p2 - p3 * p3) / n2;
    R[0][1] = 2 * (p1 * p2 - p0 * p3) / n2;
    R[0][2] = 2 * (p1 * p3 + p0 * p2) / n2;
    R[1][0] = 2 * (p1 * p2 + p0 * p3) / n2;
    R[1][1] = (p0 * p0 - p1 * p1 + p2 * p2 - p3 * p3) / n2;
    R[1][2] = 2 * (p2 * p3 - p0 * p1) / n2;
    R[2][0] = 2 * (p1 * p3 - p0 * p2) / n2;
    R[2][1] = 2 * (p2 * p3 + p0 * p1) / n2;
    R[2][2] = (p0 * p0 - p1 * p1 - p2 * p2 + p3 * p3) / n2;
    for (int i = 0; i < 3; i++)
        ww[i] = R[i][0] * wb[0] + R[i][1] * wb[1] + R[i][2] * wb[2];
    for (int i = 0; i < 2; i++) {
        snprintf(what, sizeof what, "%s rolling sphere: v[%d] after the onset", mname, i);
        check_close(what, y[7 + i], v[i], 1e-12);
        snprintf(what, sizeof what, "%s rolling sphere: centre [%d] at T (the onset's instant)",
                 mname, i);
        check_close(what, y[i], x[i], 1e-12);
    }
    for (int i = 0; i < 3; i++) {
        snprintf(what, sizeof what, "%s rolling sphere: world w[%d] after the onset", mname, i);
        check_close(what, ww[i], w[i], 1e-12 * 10);
    }
    snprintf(what, sizeof what, "%s rolling sphere: the centre stays at r", mname);
    check_close(what, y[2], r, 1e-14);
    double kin, pot, diss, inj, err = nsm_sim_energy(s, &kin, &pot, &diss, &inj);
    double dref = mu * m * g * gam * tr / 2;
    snprintf(what, sizeof what, "%s rolling sphere: dissipated mu m g |gamma0| t_r / 2", mname);
    check_close(what, fabs(diss), dref, 1e-12 * dref);
    double eg = -1;
    snprintf(what, sizeof what, "%s rolling sphere: grip's dissipation mu m g |gamma0| t_r / 2",
             mname);
    check_true(what, nsm_sim_space_friction_dissipated(s, 0, &eg) == 0);
    check_close(what, eg, dref, 1e-12 * dref);
    printf("%s rolling sphere: grip dissipated %.17g J (closed form %.17g J, off %.2g relative)\n",
           mname, eg, dref, fabs(eg - dref) / dref);
    snprintf(what, sizeof what, "%s rolling sphere: energy balance", mname);
    check_close(what, err, 0, 1e-12 * (kin + fabs(pot) + dref));
    snprintf(what, sizeof what, "%s rolling sphere: grip.force = 0 while it rolls (level floor)",
             mname);
    check_close(what, rolling_column(s, "grip.force"), 0, 1e-12 * mu * m * g);
    snprintf(what, sizeof what, "%s rolling sphere: grip.slip = 0 while it rolls", mname);
    check_close(what, rolling_column(s, "grip.slip"), 0, 1e-12 * gam);
    printf("%s rolling sphere: grip.force %.17g N sliding (mu m g %.17g), %.3g N rolling; "
           "grip.slip %.17g m/s at t_r/2, %.3g m/s rolling\n", mname, f_slide, mu * m * g,
           rolling_column(s, "grip.force"), slip_half, rolling_column(s, "grip.slip"));
    snprintf(what, sizeof what, "%s rolling sphere: it sticks (rolls) at T", mname);
    check_true(what, nsm_sim_mode_has(s, 0) == 1 && nsm_sim_mode_has(s, 1) == 1);
    snprintf(what, sizeof what, "%s rolling sphere: one stick record, of 'grip'", mname);
    check_true(what, L.n == 1 && L.ev.kind == NSM_EV_STICK && L.name && strcmp(L.name, "grip") == 0);
    snprintf(what, sizeof what, "%s rolling sphere: the stick record at t_r", mname);
    check_close(what, L.ev.t, tr, 1e-9 * tr);
    snprintf(what, sizeof what, "%s rolling sphere: the record's slip before (at zero), after 0",
             mname);
    check_true(what, L.ev.vrel_before >= 0 && L.ev.vrel_before < 1e-9 && L.ev.vrel_after == 0);
    snprintf(what, sizeof what, "%s rolling sphere: the record's loss (the slip left's)", mname);
    check_close(what, L.ev.energy_lost, 0, 1e-15);
    printf("%s rolling sphere: stick record of '%s' at %.17g s (t_r %.17g), |gamma| %.3g m/s "
           "before, %.3g J lost\n", mname, L.name ? L.name : "?", L.ev.t, tr, L.ev.vrel_before,
           L.ev.energy_lost);
    printf("%s rolling sphere: t_r %.17g, v (%.17g, %.17g), centre (%.17g, %.17g) (closed form "
           "(%.17g, %.17g)), dissipated %.17g J (closed form %.17g), %ld steps\n", mname, tr, y[7],
           y[8], y[0], y[1], x[0], x[1], fabs(diss), dref, nsm_sim_steps(s));
    nsm_sim_free(s);
}

/* tests/rigid/drill_spin.nsm: a sphere (m = 1 kg, I = 0.004 kg m^2) on the
** floor spinning about the normal at w0 = 20 rad/s with drilling friction
** (mu = 0.2, Rd = 0.05 m) and no slip: I w3' = -mu m g Rd, so
** w3 = w0 - mu m g Rd t / I until t_s = I w0 / (mu m g Rd), then it sticks
** on its normal, two slip and drilling rows; dissipated I w0^2 / 2. */
static void drill_run(int method, const char *mname)
{
    const double m = 1, I = 0.004, g = 9.81, mu = 0.2, Rd = 0.05, w0 = 20;
    const double ts = I * w0 / (mu * m * g * Rd);
    nsm_sim *s = nsm_sim_create(&nsm_model_drill_spin);
    char what[200];
    snprintf(what, sizeof what, "%s drilling spin runs to 0.6 t_s", mname);
    check_true(what, s && nsm_sim_set_method(s, method) == 0 && nsm_sim_reset(s) == 0 &&
                     nsm_sim_run_until(s, 0.6 * ts) == 0);
    if (!s)
        return;
    double w06 = nsm_sim_state(s)[12];
    snprintf(what, sizeof what, "%s drilling spin: w3 at 0.6 t_s = 0.4 w0", mname);
    check_close(what, w06, 0.4 * w0, 1e-12 * w0);
    snprintf(what, sizeof what, "%s drilling spin runs past t_s", mname);
    check_true(what, nsm_sim_run_until(s, 1.4 * ts) == 0);
    const double *y = nsm_sim_state(s);
    snprintf(what, sizeof what, "%s drilling spin: stopped and stuck after t_s", mname);
    check_true(what, fabs(y[12]) <= 1e-12 * w0 && nsm_sim_mode_has(s, 1) == 1);
    for (int i = 0; i < 2; i++) {
        snprintf(what, sizeof what, "%s drilling spin: no slip, v[%d] = 0, w[%d] = 0", mname, i, i);
        check_true(what, fabs(y[7 + i]) <= 1e-14 && fabs(y[10 + i]) <= 1e-13);
    }
    double kin, pot, dis, inj, err = nsm_sim_energy(s, &kin, &pot, &dis, &inj);
    snprintf(what, sizeof what, "%s drilling spin: dissipated I w0^2 / 2", mname);
    check_close(what, fabs(dis), 0.5 * I * w0 * w0, 1e-12 * I * w0 * w0);
    printf("%s drilling spin: t_s %.15g s, w3(0.6 t_s) %.17g (closed form %.17g), w3 after %.2g, "
           "dissipated %.17g J (closed form %.17g), balance %.2g J, %ld steps\n", mname, ts, w06,
           0.4 * w0, y[12], fabs(dis), 0.5 * I * w0 * w0, err, nsm_sim_steps(s));
    nsm_sim_free(s);
}

int main(void)
{
    const nsm_model *m = &nsm_model_tippe_top;
    /* the parameters of the issue, in SI, written here */
    const double a1 = 0.003, a2 = 0.016, r1 = 0.015, r2 = 0.005, mu = 0.3, R = 0.0005;
    const double centre_z[2] = { a1, a2 }, radius[2] = { r1, r2 };
    static const char *const names[2] = { "ball_friction", "stem_friction" };
    static const char *const gaps[2] = { "ball", "stem" };
    check_true("two spatial friction elements", m->n_space_frictions == 2 && m->space_frictions);
    check_true("two sphere gaps, curved", m->n_gaps == 2 && m->gap_curved && m->gap_curved[0] &&
                                          m->gap_curved[1]);
    for (int k = 0; k < 2 && k < m->n_space_frictions; k++) {
        const nsm_space_friction *sf = &m->space_frictions[k];
        char what[120];
        snprintf(what, sizeof what, "element %d is named %s", k, names[k]);
        check_true(what, strcmp(sf->name, names[k]) == 0);
        snprintf(what, sizeof what, "element %d is at gap %s", k, gaps[k]);
        check_true(what, sf->gap >= 0 && sf->gap < m->n_gaps && strcmp(m->gaps[sf->gap].name, gaps[k]) == 0);
        snprintf(what, sizeof what, "element %d is on the top (rigid body 0)", k);
        check_true(what, sf->body == 0 && m->n_rigid == 1);
    }
    double *p = calloc((size_t)m->n_params + 1, sizeof(double)), *c = slot();
    for (int k = 0; k < m->n_params; k++)
        p[k] = m->params[k].value;
    nsm_numeric num;
    numeric_alloc(&num, 1);
    int rc = m->setup(p, c, &num);
    check_true("setup accepts the defaults", rc == 0);
    double drill = 3 * 3.14159265358979323846 * R / 16;
    for (int k = 0; k < 2; k++) {
        char what[120];
        for (int i = 0; i < 3; i++) {
            snprintf(what, sizeof what, "%s: sphere centre[%d]", names[k], i);
            check_close(what, num.sf_centre[3 * k + i], i == 2 ? centre_z[k] : 0, 1e-18);
            snprintf(what, sizeof what, "%s: floor normal[%d]", names[k], i);
            check_close(what, num.sf_normal[3 * k + i], i == 2 ? 1 : 0, 1e-16);
        }
        snprintf(what, sizeof what, "%s: sphere radius", names[k]);
        check_close(what, num.sf_radius[k], radius[k], 1e-18);
        snprintf(what, sizeof what, "%s: mu", names[k]);
        check_close(what, num.sf_mu[k], mu, 1e-16);
        snprintf(what, sizeof what, "%s: e_F", names[k]);
        check_close(what, num.sf_et[k], 0, 0);
        snprintf(what, sizeof what, "%s: drilling radius 3 pi R / 16", names[k]);
        check_close(what, num.sf_drill[k], drill, 1e-19);
    }
    numeric_free(&num);
    /* mu < 0 is refused by setup, naming mu */
    int imu = param_index(m, "mu");
    check_true("the table has parameter mu", imu >= 0);
    if (imu >= 0) {
        numeric_alloc(&num, 1);
        p[imu] = -0.1;
        check_true("setup refuses mu < 0 naming mu", m->setup(p, c, &num) == 1 + imu);
        p[imu] = mu;
        numeric_free(&num);
    }
    /* a runtime that predates the sf_* arrays leaves them NULL: setup writes none */
    numeric_alloc(&num, 0);
    check_true("setup without the sf_* arrays", m->setup(p, c, &num) == 0);
    numeric_free(&num);
    free(p);
    free(c);
    tippe_run(m, NSM_METHOD_RK4, "rk4", 1e-11);
    tippe_run(m, NSM_METHOD_ADAPTIVE, "adaptive", 1e-11);
    tippe_run(m, NSM_METHOD_TAYLOR, "taylor", 1e-12);
    jellett_run(m, NSM_METHOD_RK4, "rk4");
    jellett_run(m, NSM_METHOD_TAYLOR, "taylor");
    rolling_run(NSM_METHOD_RK4, "rk4");
    rolling_run(NSM_METHOD_ADAPTIVE, "adaptive");
    incline_run(NSM_METHOD_RK4, "rk4");
    incline_run(NSM_METHOD_ADAPTIVE, "adaptive");
    rolling_run(NSM_METHOD_TAYLOR, "taylor");
    drill_run(NSM_METHOD_RK4, "rk4");
    drill_run(NSM_METHOD_TAYLOR, "taylor");
    return check_report();
}
