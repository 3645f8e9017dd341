/*
** test_rigid.c: the runtime's state layout for bodies in space, Y = (q[nq],
** u[nu], E_d, E_w) with nq = nu + 1 per body (docs/theory.md section 19),
** run by rk4 and adaptive against closed forms.
**
** The model table is written here by hand, independently of nsmc: one rigid
** body with a unit quaternion (p1, p2, p3 in the position slots of w1, w2,
** w3, p0 after the velocities' positions), the Newton-Euler equations
** I w' = -w x I w as its state-dependent force and q' = B(q) u as its
** kinematic map, gravity along -z as a constant force.  Checked:
**   - a torque-free symmetric body (I1 = I2): w1 + i w2 turns at
**     Omega = (I3 - I1) w3 / I1, w3 is constant, and the symmetry axis
**     e3 = R(p) (0, 0, 1) turns about the fixed angular momentum L at
**     |L| / I1 (Rodrigues' rotation of e3(0), closed form);
**   - a torque-free asymmetric body: the kinetic energy and |L| (world
**     frame) conserved to 1e-12 relative, and the energy audit closes;
**   - free fall of a spinning body: z = z0 + vz0 t - g t^2 / 2;
**   - |p| = 1 after the run (the runtime's projection);
**   - what is not built refuses with a message: methods exact and taylor,
**     the monodromy matrix, periodic orbits, Lyapunov spectra and
**     continuation (their state is 2n values), a table whose nq does not
**     fit its rigid bodies.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nsm/model.h"
#include "nsm/nsm.h"

#include "check.h"
#include "rigid_table.h"

/* The state's layout: q = (x, y, z, p1, p2, p3, p0), u = (vx, vy, vz, w1, w2, w3). */
enum { NB = 6, NQ = 7, P1 = 3, P0 = 6, U = NQ, W1 = NQ + 3 };

/* Parameters: mass, principal inertias, gravity. */
static const nsm_param_info params[] = {
    { "m", "kg", 2 }, { "I1", "kg*m^2", 0.3 }, { "I2", "kg*m^2", 0.3 }, { "I3", "kg*m^2", 0.5 },
    { "g", "m/s^2", 0 },
};
static const char *const body_names[] = { "B.x", "B.y", "B.z", "B.w1", "B.w2", "B.w3" };
static const int rigid_rot[] = { 3 };

/* Masses diag(m, m, m, I1, I2, I3); the weight -m g on z as a constant force. */
static int setup(const double *p, double *c, nsm_numeric *num)
{
    (void)c;
    rigid_masses(p, num);
    return 0;
}

static nsm_model model = {
    .abi = NSM_ABI_VERSION, .name = "free_body", .title = "",
    .n_bodies = NB, .n_params = 5, .body_names = body_names, .params = params,
    .t_end = 1, .dt = 1e-3, .method = NSM_METHOD_RK4,
    .setup = setup, .nl = NSM_NL_FORCE, .nl_force = rigid_nl_force,
    .nq = NQ, .nu = NB, .n_rigid = 1, .rigid_rot = rigid_rot, .kin = rigid_kin,
};

/* World-frame vector R(p) b of the body-frame vector b at state y. */
static void to_world(const double *y, const double *b, double *out)
{
    double R[3][3];
    rigid_rotation(y, R);
    for (int i = 0; i < 3; i++)
        out[i] = rigid_dot(R[i], b);
}

/* The angular momentum in the world frame, R (I w), at state y. */
static void momentum(const double *y, const double *I, double *L)
{
    double Lb[3] = { I[0] * y[W1], I[1] * y[W1 + 1], I[2] * y[W1 + 2] };
    to_world(y, Lb, L);
}

static double norm3(const double *a) { return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }

/* Rodrigues: a rotated by angle th about the unit axis k. */
static void rotate(const double *a, const double *k, double th, double *out)
{
    double kxa[3] = { k[1] * a[2] - k[2] * a[1], k[2] * a[0] - k[0] * a[2], k[0] * a[1] - k[1] * a[0] };
    double ka = k[0] * a[0] + k[1] * a[1] + k[2] * a[2], c = cos(th), s = sin(th);
    for (int i = 0; i < 3; i++)
        out[i] = a[i] * c + kxa[i] * s + k[i] * ka * (1 - c);
}

/* A simulation of the table with the parameters I (3), g, the method and
** the start y0 (q then u); NULL when the runtime refuses it. */
static nsm_sim *start(const double *I, double g, int method, const double *y0)
{
    nsm_sim *s = nsm_sim_create(&model);
    if (!s)
        return NULL;
    nsm_sim_set_param(s, "I1", I[0]);
    nsm_sim_set_param(s, "I2", I[1]);
    nsm_sim_set_param(s, "I3", I[2]);
    nsm_sim_set_param(s, "g", g);
    nsm_sim_set_method(s, method);
    if (method == NSM_METHOD_RK4)
        nsm_sim_set_dt(s, 1e-4);
    else
        nsm_sim_set_tolerances(s, 1e-13, 1e-15);
    nsm_sim_set_every(s, 0.25);
    nsm_sim_set_initial_state(s, y0);
    if (nsm_sim_reset(s)) {
        printf("reset failed: %s\n", nsm_sim_message(s));
        nsm_sim_free(s);
        return NULL;
    }
    return s;
}

/* A start tilted by angle a about x: p = (cos a/2, sin a/2, 0, 0). */
static void tilted(double a, const double *w, double *y0)
{
    memset(y0, 0, sizeof(double) * (NQ + NB));
    y0[P0] = cos(a / 2);
    y0[P1] = sin(a / 2);
    for (int i = 0; i < 3; i++)
        y0[W1 + i] = w[i];
}

/* The torque-free symmetric top against its closed form every 0.5 s. */
static void symmetric(int method, const char *mname)
{
    double I[3] = { 0.3, 0.3, 0.5 }, w0[3] = { 0.4, -0.25, 3 }, y0[NQ + NB];
    tilted(0.3, w0, y0);
    nsm_sim *s = start(I, 0, method, y0);
    check_true("symmetric top starts", s != NULL);
    if (!s)
        return;
    double Om = (I[2] - I[0]) * w0[2] / I[0], L0[3], Lh[3], e30[3], ez[3] = { 0, 0, 1 };
    momentum(y0, I, L0);
    double Ln = norm3(L0);
    for (int i = 0; i < 3; i++)
        Lh[i] = L0[i] / Ln;
    to_world(y0, ez, e30);
    char what[160];
    double dw = 0, de3 = 0;
    for (int k = 1; k <= 20; k++) {
        double t = 0.5 * k;
        int rc = nsm_sim_run_until(s, t);
        check_true("symmetric top runs", rc == 0);
        if (rc) {
            printf("  %s\n", nsm_sim_message(s));
            break;
        }
        const double *y = nsm_sim_state(s);
        double c = cos(Om * t), sn = sin(Om * t);
        snprintf(what, sizeof what, "%s symmetric w1 at t = %g", mname, t);
        check_close(what, y[W1], w0[0] * c - w0[1] * sn, 1e-11);
        snprintf(what, sizeof what, "%s symmetric w2 at t = %g", mname, t);
        check_close(what, y[W1 + 1], w0[0] * sn + w0[1] * c, 1e-11);
        dw = fmax(dw, fmax(fabs(y[W1] - (w0[0] * c - w0[1] * sn)),
                           fabs(y[W1 + 1] - (w0[0] * sn + w0[1] * c))));
        snprintf(what, sizeof what, "%s symmetric w3 at t = %g", mname, t);
        check_close(what, y[W1 + 2], w0[2], 1e-13);
        double e3[3], want[3];
        to_world(y, ez, e3);
        rotate(e30, Lh, Ln / I[0] * t, want);
        for (int i = 0; i < 3; i++) {
            snprintf(what, sizeof what, "%s symmetric e3[%d] precessing about L at |L|/I1, t = %g",
                     mname, i, t);
            check_close(what, e3[i], want[i], 1e-10);
            de3 = fmax(de3, fabs(e3[i] - want[i]));
        }
        double pn = sqrt(y[P0] * y[P0] + y[P1] * y[P1] + y[P1 + 1] * y[P1 + 1] + y[P1 + 2] * y[P1 + 2]);
        snprintf(what, sizeof what, "%s |p| = 1 at t = %g", mname, t);
        check_close(what, pn, 1, 4e-16);
    }
    printf("%s symmetric top, 10 s: w1, w2 within %.2g rad/s, e3 within %.2g\n", mname, dw, de3);
    nsm_sim_free(s);
}

/* The torque-free asymmetric body: energy and |L| conserved, the audit closes. */
static void asymmetric(int method, const char *mname)
{
    double I[3] = { 0.2, 0.35, 0.5 }, w0[3] = { 1.5, 0.1, 2.5 }, y0[NQ + NB];
    tilted(0.7, w0, y0);
    nsm_sim *s = start(I, 0, method, y0);
    check_true("asymmetric body starts", s != NULL);
    if (!s)
        return;
    double T0 = 0.5 * (I[0] * w0[0] * w0[0] + I[1] * w0[1] * w0[1] + I[2] * w0[2] * w0[2]);
    double L0[3];
    momentum(y0, I, L0);
    char what[160];
    int rc = nsm_sim_run_until(s, 10);
    check_true("asymmetric body runs", rc == 0);
    if (rc)
        printf("  %s\n", nsm_sim_message(s));
    const double *y = nsm_sim_state(s);
    double L[3], kin, pot, diss, inj;
    momentum(y, I, L);
    double err = nsm_sim_energy(s, &kin, &pot, &diss, &inj);
    double T = 0.5 * (I[0] * y[W1] * y[W1] + I[1] * y[W1 + 1] * y[W1 + 1] + I[2] * y[W1 + 2] * y[W1 + 2]);
    snprintf(what, sizeof what, "%s asymmetric kinetic energy / T0 at t = 10", mname);
    check_close(what, T / T0, 1, 1e-12);
    snprintf(what, sizeof what, "%s asymmetric |L| / |L0| at t = 10", mname);
    check_close(what, norm3(L) / norm3(L0), 1, 1e-12);
    for (int i = 0; i < 3; i++) {
        snprintf(what, sizeof what, "%s asymmetric L[%d] (world) at t = 10", mname, i);
        check_close(what, L[i], L0[i], 1e-12 * norm3(L0));
    }
    snprintf(what, sizeof what, "%s asymmetric audit's kinetic energy", mname);
    check_close(what, kin, T, 1e-14 * T0);
    snprintf(what, sizeof what, "%s asymmetric audit's balance error", mname);
    check_close(what, err, 0, 1e-12 * T0);
    printf("%s asymmetric body, 10 s: T/T0 - 1 = %.2g, |L|/|L0| - 1 = %.2g, balance %.2g "
           "(of T0)\n", mname, T / T0 - 1, norm3(L) / norm3(L0) - 1, err / T0);
    nsm_sim_free(s);
}

/* Free fall of a spinning body: the centre of mass's parabola. */
static void free_fall(int method, const char *mname)
{
    double I[3] = { 0.2, 0.35, 0.5 }, w0[3] = { 0.3, 2, -1 }, y0[NQ + NB], g = 9.81;
    tilted(0.2, w0, y0);
    y0[0] = 0.5, y0[2] = 10, y0[U] = 1, y0[U + 2] = 3;
    nsm_sim *s = start(I, g, method, y0);
    check_true("free fall starts", s != NULL);
    if (!s)
        return;
    char what[160];
    int rc = nsm_sim_run_until(s, 2);
    check_true("free fall runs", rc == 0);
    const double *y = nsm_sim_state(s);
    /* rk4 and Dormand-Prince are exact on a parabola: what is left is the
     * rounding of 2e4 steps (rk4's dt = 1e-4 s), 2e4 |v| eps = 7e-11 */
    snprintf(what, sizeof what, "%s free fall x(2)", mname);
    check_close(what, y[0], 0.5 + 1 * 2, 2e-11);
    snprintf(what, sizeof what, "%s free fall z(2)", mname);
    check_close(what, y[2], 10 + 3 * 2 - 0.5 * g * 4, 7e-11);
    snprintf(what, sizeof what, "%s free fall vz(2)", mname);
    check_close(what, y[U + 2], 3 - g * 2, 7e-11);
    double kin, pot, diss, inj, err = nsm_sim_energy(s, &kin, &pot, &diss, &inj);
    snprintf(what, sizeof what, "%s free fall audit's balance error", mname);
    check_close(what, err, 0, 1e-11 * (kin + fabs(pot)));
    printf("%s free fall, 2 s: z %.2g m, vz %.2g m/s off, balance %.2g J\n", mname,
           y[2] - (10 + 3 * 2 - 0.5 * g * 4), y[U + 2] - (3 - g * 2), err);
    nsm_sim_free(s);
}

/* What is not built refuses with a message naming it. */
static void refusals(void)
{
    double I[3] = { 0.3, 0.3, 0.5 }, w0[3] = { 0.4, 0, 3 }, y0[NQ + NB];
    tilted(0.3, w0, y0);
    nsm_sim *se = start(I, 0, NSM_METHOD_EXACT, y0);
    int rce = se ? nsm_sim_run_until(se, 0.1) : -1;
    check_true("exact refuses bodies in space",
               rce == NSM_EMETHOD && strstr(nsm_sim_message(se), "bodies in space"));
    nsm_sim_free(se);
    /* this table has no nl_series: taylor names what is missing */
    nsm_sim *st = start(I, 0, NSM_METHOD_TAYLOR, y0);
    int rct = st ? nsm_sim_run_until(st, 0.1) : -1;
    check_true("taylor refuses a table of bodies in space without series",
               rct == NSM_EMODEL && strstr(nsm_sim_message(st), "no series"));
    nsm_sim_free(st);
    nsm_sim *s = start(I, 0, NSM_METHOD_RK4, y0);
    double Phi[12 * 12], yv[NQ + NB], lam[12], mr[12], mi[12];
    memcpy(yv, y0, sizeof yv);
    check_true("monodromy refuses bodies in space",
               s && nsm_sim_monodromy(s, 1, Phi, NULL) == NSM_EMETHOD &&
               strstr(nsm_sim_message(s), "bodies in space"));
    check_true("periodic orbit refuses bodies in space",
               s && nsm_sim_periodic_orbit(s, 1, yv, mr, mi) == NSM_EMETHOD);
    check_true("lyapunov refuses bodies in space",
               s && nsm_sim_lyapunov(s, 1, 0.1, lam) == NSM_EMETHOD);
    nsm_cont_options o;
    memset(&o, 0, sizeof o);
    o.param = "I3", o.period = "1", o.periods = 1, o.from = 0.5, o.to = 0.6;
    o.ds = o.ds_min = o.ds_max = 0.01, o.tol = 1e-8, o.max_points = 3;
    check_true("continuation refuses bodies in space",
               s && nsm_sim_continue(s, &o, yv, NULL, NULL) == NSM_EMETHOD);
    nsm_sim_free(s);
    nsm_model bad = model;
    bad.nq = NB;                /* positions without the quaternions' p0 */
    const char *why = NULL;
    check_true("a table whose nq does not fit its rigid bodies is refused",
               nsm_model_check(&bad, &why) == NSM_EMODEL && why && strstr(why, "nq"));
}

int main(void)
{
    symmetric(NSM_METHOD_RK4, "rk4");
    symmetric(NSM_METHOD_ADAPTIVE, "adaptive");
    asymmetric(NSM_METHOD_RK4, "rk4");
    asymmetric(NSM_METHOD_ADAPTIVE, "adaptive");
    free_fall(NSM_METHOD_RK4, "rk4");
    free_fall(NSM_METHOD_ADAPTIVE, "adaptive");
    refusals();
    return check_report();
}
