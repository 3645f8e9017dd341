/*
** test_rigid_models.c: bodies in space as nsmc writes them (docs/theory.md
** section 19), run by rk4, adaptive and taylor against closed forms
** written here, independently of the compiler and the runtime (taylor held
** to 1e-14 where the others are held to 1e-11):
**   - models/free_top.nsm, a torque-free symmetric top: w1 + i w2 turns at
**     Omega = (I3 - I1) w3 / I1, w3 constant, the symmetry axis e3 turns
**     about the fixed angular momentum L at |L| / I1 (Rodrigues); the
**     output columns B.theta, B.p0 .. B.p3 and B.point(0, 0, 1).x/y/z
**     against the same closed form;
**   - models/thrown_body.nsm, an asymmetric body thrown under tilted
**     gravity with a steady push: the centre's parabola, the rotational
**     kinetic energy and the angular momentum (world frame) conserved to
**     1e-12 relative, the audit's potential -m g.r and its balance,
**     B.theta against gravity's vertical;
**   - tests/rigid/spun_body.nsm, a tilted body spun up by a body-frame
**     torque: w3 = w30 + tau t / I3, p = p_tilt (x) p_z(phi(t)), the work
**     of the torque in the audit.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nsm/model.h"
#include "nsm/nsm.h"
#include "../unit/check.h"

extern const nsm_model nsm_model_free_top, nsm_model_thrown_body, nsm_model_spun_body,
    nsm_model_quat_scaled;

/* The state of one rigid body as the table lays it out: q = (x, y, z, p1,
** p2, p3, p0), u = (vx, vy, vz, w1, w2, w3). */
enum { NQ = 7, P1 = 3, P0 = 6, U = NQ, W1 = NQ + 3 };

/* Whether the method under test is taylor, whose series (degree 20, every
** state's, the quaternion's by Cauchy products) are held to the rounding
** of the closed forms, where rk4's and adaptive's steps leave more. */
static int taylor_run;

/* The tolerance of a check: `loose` for rk4 and adaptive, `tight` for
** taylor. */
static double tol(double loose, double tight)
{
    return taylor_run ? tight : loose;
}

/* The quaternion (p0, p1, p2, p3) of state y. */
static void quat(const double *y, double *q)
{
    q[0] = y[P0];
    for (int k = 0; k < 3; k++)
        q[k + 1] = y[P1 + k];
}

/* R(q) b for a unit quaternion q (scalar first). */
static void rotate_q(const double *q, const double *b, double *out)
{
    double w = q[0], x = q[1], y = q[2], z = q[3];
    double R[3][3] = {
        { 1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y) },
        { 2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x) },
        { 2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y) },
    };
    for (int i = 0; i < 3; i++)
        out[i] = R[i][0] * b[0] + R[i][1] * b[1] + R[i][2] * b[2];
}

/* The Hamilton product a (x) b. */
static void qmul(const double *a, const double *b, double *out)
{
    out[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
    out[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
    out[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
    out[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
}

static double dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* Rodrigues: a rotated by angle th about the unit axis k. */
static void rodrigues(const double *a, const double *k, double th, double *out)
{
    double kxa[3] = { k[1] * a[2] - k[2] * a[1], k[2] * a[0] - k[0] * a[2], k[0] * a[1] - k[1] * a[0] };
    double ka = dot3(k, a), c = cos(th), s = sin(th);
    for (int i = 0; i < 3; i++)
        out[i] = a[i] * c + kxa[i] * s + k[i] * ka * (1 - c);
}

/* A simulation of table m by the method, fine steps or tight tolerances. */
static nsm_sim *start(const nsm_model *m, int method)
{
    nsm_sim *s = nsm_sim_create(m);
    if (!s)
        return NULL;
    nsm_sim_set_method(s, method);
    taylor_run = method == NSM_METHOD_TAYLOR;
    if (method == NSM_METHOD_RK4)
        nsm_sim_set_dt(s, 1e-4);
    else if (method == NSM_METHOD_ADAPTIVE)
        nsm_sim_set_tolerances(s, 1e-13, 1e-15);
    if (nsm_sim_reset(s)) {
        printf("reset failed: %s\n", nsm_sim_message(s));
        nsm_sim_free(s);
        return NULL;
    }
    return s;
}

/* Index of output column `name` of table m, -1 when absent. */
static int column(const nsm_model *m, const char *name)
{
    for (int k = 0; k < m->n_outputs; k++)
        if (strcmp(m->outputs[k].name, name) == 0)
            return k;
    return -1;
}

/* The torque-free symmetric top against its closed form every 0.5 s. */
static void free_top(int method, const char *mname)
{
    const nsm_model *m = &nsm_model_free_top;
    double I1 = 0.3, I3 = 0.5, w0[3] = { 0.4, -0.25, 3 }, a = 0.3;
    double q0[4] = { cos(a / 2), sin(a / 2), 0, 0 }, ez[3] = { 0, 0, 1 }, e30[3], L0b[3], L0[3], Lh[3];
    nsm_sim *s = start(m, method);
    check_true("free_top starts", s != NULL);
    if (!s)
        return;
    const double *y = nsm_sim_state(s);
    for (int k = 0; k < 4; k++)
        check_close("free_top's initial quaternion (tilt 0.3 about x)", k ? y[P1 + k - 1] : y[P0], q0[k],
                    2.3e-16);
    rotate_q(q0, ez, e30);
    L0b[0] = I1 * w0[0], L0b[1] = I1 * w0[1], L0b[2] = I3 * w0[2];
    rotate_q(q0, L0b, L0);
    double Ln = sqrt(dot3(L0, L0)), Om = (I3 - I1) * w0[2] / I1;
    for (int i = 0; i < 3; i++)
        Lh[i] = L0[i] / Ln;
    int ct = column(m, "B.theta"), cx = column(m, "tip_x"), cp0 = column(m, "B.p0");
    check_true("free_top has its columns", ct >= 0 && cx >= 0 && cp0 >= 0);
    char what[160];
    double dw = 0, de3 = 0;
    for (int k = 1; k <= 20 && ct >= 0 && cx >= 0 && cp0 >= 0; k++) {
        double t = 0.5 * k;
        int rc = nsm_sim_run_until(s, t);
        check_true("free_top runs", rc == 0);
        if (rc) {
            printf("  %s\n", nsm_sim_message(s));
            break;
        }
        double c = cos(Om * t), sn = sin(Om * t), want1 = w0[0] * c - w0[1] * sn,
               want2 = w0[0] * sn + w0[1] * c, e3[3], q[4];
        snprintf(what, sizeof what, "%s free_top w1, w2, w3 at t = %g", mname, t);
        check_close(what, y[W1], want1, tol(1e-11, 2e-14));
        check_close(what, y[W1 + 1], want2, tol(1e-11, 2e-14));
        check_close(what, y[W1 + 2], w0[2], tol(1e-13, 1e-14));
        dw = fmax(dw, fmax(fabs(y[W1] - want1), fabs(y[W1 + 1] - want2)));
        rodrigues(e30, Lh, Ln / I1 * t, e3);
        quat(y, q);
        double e3s[3];
        rotate_q(q, ez, e3s);
        for (int i = 0; i < 3; i++) {
            snprintf(what, sizeof what, "%s free_top e3[%d] precessing about L at |L|/I1, t = %g",
                     mname, i, t);
            check_close(what, e3s[i], e3[i], tol(1e-10, 2e-14));
            snprintf(what, sizeof what, "%s free_top column tip_%c = B.point(0, 0, 1 m), t = %g",
                     mname, "xyz"[i], t);
            check_close(what, nsm_sim_output(s, cx + i), e3[i], tol(1e-10, 2e-14));
            de3 = fmax(de3, fabs(e3s[i] - e3[i]));
        }
        snprintf(what, sizeof what, "%s free_top column B.theta = acos(e3.z), t = %g", mname, t);
        check_close(what, nsm_sim_output(s, ct), acos(e3[2]), tol(1e-9, 1e-13));
        for (int i = 0; i < 4; i++) {
            snprintf(what, sizeof what, "%s free_top column B.p%d, t = %g", mname, i, t);
            check_close(what, nsm_sim_output(s, cp0 + i), q[i], 1e-15);
        }
    }
    printf("%s free_top, 10 s: w1, w2 within %.2g rad/s, e3 within %.2g\n", mname, dw, de3);
    nsm_sim_free(s);
}

/* The thrown asymmetric body: parabola, rotational invariants, audit. */
static void thrown_body(int method, const char *mname)
{
    const nsm_model *m = &nsm_model_thrown_body;
    double mass = 1.5, F = 0.6, g[3] = { 1.2, 0, -9.7 }, I[3] = { 0.02, 0.035, 0.05 };
    double r0[3] = { 0.5, 0, 10 }, v0[3] = { 1, 0, 3 }, a[3] = { g[0], F / mass, g[2] };
    nsm_sim *s = start(m, method);
    check_true("thrown_body starts", s != NULL);
    if (!s)
        return;
    const double *y = nsm_sim_state(s);
    double q[4], Lb[3], L0[3], L[3];
    quat(y, q);
    Lb[0] = I[0] * y[W1], Lb[1] = I[1] * y[W1 + 1], Lb[2] = I[2] * y[W1 + 2];
    rotate_q(q, Lb, L0);
    double T0 = 0.5 * dot3(Lb, y + W1), L0n = sqrt(dot3(L0, L0));
    int ct = column(m, "B.theta"), cpot = column(m, "energy.potential");
    check_true("thrown_body has its columns", ct >= 0 && cpot >= 0);
    char what[160];
    double dr = 0, dT = 0, dL = 0, worst = 0;
    for (int k = 1; k <= 8 && ct >= 0 && cpot >= 0; k++) {
        double t = 0.25 * k;
        int rc = nsm_sim_run_until(s, t);
        check_true("thrown_body runs", rc == 0);
        if (rc) {
            printf("  %s\n", nsm_sim_message(s));
            break;
        }
        /* rk4 and Dormand-Prince are exact on a parabola: what is left is
         * the rounding of 2e4 steps, 2e4 |v| eps = 7e-11 */
        for (int i = 0; i < 3; i++) {
            snprintf(what, sizeof what, "%s thrown_body r[%d] on the parabola, t = %g", mname, i, t);
            check_close(what, y[i], r0[i] + v0[i] * t + 0.5 * a[i] * t * t, tol(7e-11, 5e-14));
            snprintf(what, sizeof what, "%s thrown_body v[%d] on the parabola, t = %g", mname, i, t);
            check_close(what, y[U + i], v0[i] + a[i] * t, tol(7e-11, 5e-14));
            dr = fmax(dr, fabs(y[i] - (r0[i] + v0[i] * t + 0.5 * a[i] * t * t)));
        }
        quat(y, q);
        Lb[0] = I[0] * y[W1], Lb[1] = I[1] * y[W1 + 1], Lb[2] = I[2] * y[W1 + 2];
        rotate_q(q, Lb, L);
        double T = 0.5 * dot3(Lb, y + W1);
        snprintf(what, sizeof what, "%s thrown_body rotational energy / T0, t = %g", mname, t);
        check_close(what, T / T0, 1, tol(1e-12, 1e-14));
        dT = fmax(dT, fabs(T / T0 - 1));
        snprintf(what, sizeof what, "%s thrown_body |L| / |L0| and L (world), t = %g", mname, t);
        check_close(what, sqrt(dot3(L, L)) / L0n, 1, tol(1e-12, 1e-14));
        for (int i = 0; i < 3; i++) {
            check_close(what, L[i], L0[i], tol(1e-12, 1e-14) * L0n);
            dL = fmax(dL, fabs(L[i] - L0[i]) / L0n);
        }
        double kin, pot, diss, inj, err = nsm_sim_energy(s, &kin, &pot, &diss, &inj);
        double Tt = 0.5 * mass * dot3(y + U, y + U) + T, V = -mass * dot3(g, y);
        snprintf(what, sizeof what, "%s thrown_body audit's kinetic energy, t = %g", mname, t);
        check_close(what, kin, Tt, tol(1e-12, 1e-14) * Tt);
        snprintf(what, sizeof what, "%s thrown_body audit's potential -m g.r, t = %g", mname, t);
        check_close(what, nsm_sim_output(s, cpot), V, tol(1e-12, 1e-14) * (Tt + fabs(V)));
        snprintf(what, sizeof what, "%s thrown_body audit's balance, t = %g", mname, t);
        check_close(what, err, 0, tol(1e-11, 1e-14) * (Tt + fabs(V)));
        worst = fmax(worst, fabs(err) / (Tt + fabs(V)));
        double up[3] = { -g[0], -g[1], -g[2] }, ez[3] = { 0, 0, 1 }, e3[3];
        double gn = sqrt(dot3(up, up));
        rotate_q(q, ez, e3);
        snprintf(what, sizeof what, "%s thrown_body column B.theta from gravity's vertical, t = %g", mname, t);
        check_close(what, nsm_sim_output(s, ct), acos(dot3(up, e3) / gn), tol(1e-12, 1e-13));
    }
    printf("%s thrown_body, 2 s: centre within %.2g m, T_rot %.2g, L %.2g (relative), "
           "balance %.2g\n", mname, dr, dT, dL, worst);
    nsm_sim_free(s);
}

/* The body spun up by a body-frame torque about its tilted 3-axis. */
static void spun_body(int method, const char *mname)
{
    const nsm_model *m = &nsm_model_spun_body;
    double tau = 0.08, I3 = 0.4, w30 = 1, a = 0.4;
    double qt[4] = { cos(a / 2), sin(a / 2), 0, 0 };
    nsm_sim *s = start(m, method);
    check_true("spun_body starts", s != NULL);
    if (!s)
        return;
    const double *y = nsm_sim_state(s);
    char what[160];
    double dq = 0;
    for (int k = 1; k <= 6; k++) {
        double t = 0.5 * k;
        int rc = nsm_sim_run_until(s, t);
        check_true("spun_body runs", rc == 0);
        if (rc) {
            printf("  %s\n", nsm_sim_message(s));
            break;
        }
        double w3 = w30 + tau * t / I3, phi = w30 * t + tau * t * t / (2 * I3);
        double qz[4] = { cos(phi / 2), 0, 0, sin(phi / 2) }, want[4], q[4];
        qmul(qt, qz, want);
        quat(y, q);
        snprintf(what, sizeof what, "%s spun_body w3 = w30 + tau t / I3, t = %g", mname, t);
        /* the same increment rounded the same way at each of up to 3e4
         * steps: 3e4 * eps * |w3| = 1.1e-11 */
        check_close(what, y[W1 + 2], w3, tol(1.2e-11, 1e-13));
        check_close(what, y[W1] * y[W1] + y[W1 + 1] * y[W1 + 1], 0, 1e-24);
        for (int i = 0; i < 4; i++) {
            snprintf(what, sizeof what, "%s spun_body p%d = p_tilt (x) p_z(phi), t = %g", mname, i, t);
            check_close(what, q[i], want[i], tol(1e-11, 1e-14));
            dq = fmax(dq, fabs(q[i] - want[i]));
        }
        double kin, pot, diss, inj, err = nsm_sim_energy(s, &kin, &pot, &diss, &inj);
        double W = 0.5 * I3 * (w3 * w3 - w30 * w30);
        snprintf(what, sizeof what, "%s spun_body the torque's work in the audit, t = %g", mname, t);
        check_close(what, inj, W, tol(1e-11, 1e-14) * (1 + W));
        check_close(what, err, 0, tol(1e-11, 1e-14) * (1 + W));
    }
    printf("%s spun_body, 3 s: quaternion within %.2g\n", mname, dq);
    nsm_sim_free(s);
}

/* The initial quaternion (0.9, 0.3, -0.2, 0.1) scaled by 1 / sqrt(0.95) in
** the generated initial() itself (the runtime would scale it too). */
static void quat_scaled(void)
{
    const nsm_model *m = &nsm_model_quat_scaled;
    double p[1] = { 0 }, c[64] = { 0 }, y[NQ + 6 + 2];
    check_true("quat_scaled's table is one body with constants only",
               m->n_params == 0 && m->n_consts <= 64 && m->nq == NQ);
    m->initial(p, c, y);
    const double want[4] = { 0.9, 0.3, -0.2, 0.1 };
    double q[4];
    quat(y, q);
    for (int k = 0; k < 4; k++)
        check_close("quat_scaled: initial() gives p / |p|", q[k], want[k] / sqrt(0.95), 4.5e-16);
}

int main(void)
{
    quat_scaled();
    const int methods[] = { NSM_METHOD_RK4, NSM_METHOD_ADAPTIVE, NSM_METHOD_TAYLOR };
    const char *names[] = { "rk4", "adaptive", "taylor" };
    for (int k = 0; k < 3; k++) {
        free_top(methods[k], names[k]);
        thrown_body(methods[k], names[k]);
        spun_body(methods[k], names[k]);
    }
    return check_report();
}
