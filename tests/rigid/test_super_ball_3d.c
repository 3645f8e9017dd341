/*
** test_super_ball_3d.c: models/super_ball_3d.nsm, Garwin's super ball in
** space between a floor and a table's underside, as nsmc writes it, run by
** rk4 and adaptive against closed forms written here, independently of the
** runtime and of nsmc (docs/theory.md section 19, "Frictional impacts in
** space"):
**   - the model's throw (gravity, spin about (12, -40, 25) rad/s, an axis in
**     no coordinate plane): the five bounces' instants (the roots of
**     z(t) = r and z(t) = H - r), the plane each is on, and the velocity
**     and world angular velocity after each.  A homogeneous ball's normal
**     and tangential rows are M^-1-orthogonal and its tangential block
**     isotropic, so Glocker's law has a closed form: P_N = -(1 + e_N) m
**     gamma_N-, sticking P_T = -(1 + e_T) gamma_T- / (1/m + r^2/I), v+ = v- +
**     (P_T + n P_N)/m, w+ = w- + s x P_T / I (s = -r n the contact point from
**     the centre, gamma_T- the contact point's slip); sliding (|P_T| > mu
**     P_N) does not occur with mu = 100 and is refused here by a check;
**     every impact keeps the kinetic energy (e_N = e_T = 1); the state at
**     the run's end (a parabola from the last bounce) and the output columns
**     of the contact points there (F.x .. T.z on each plane, F.vz, and the
**     slips FF.slip, FT.slip of the spatial friction elements); the energy
**     balance;
**   - Garwin's sequence without gravity (g = 0, z0 = 1/4 m, no spin) thrown
**     along (4/5, 3/5) in the floor's plane: the instants 3/40, 9/40, 3/8 s
**     and after the third bounce (v, r w) = (v, 0) -> (-333/343 v, 130/343
**     v), Garwin's rationals (tests/reference/super_ball.py), the spin about
**     -(e_z x d) for the throw's direction d.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nsm/model.h"
#include "nsm/nsm.h"

#include "../unit/check.h"
#include "space_ref.h"

extern const nsm_model nsm_model_super_ball_3d;

/* The state's layout: q = (x, y, z, p1, p2, p3, p0), u = (v, w in the body frame). */
enum { QP1 = 3, QP0 = 6, UV = 7, UW = 10, NY = 13, MAXIMP = 8 };

/* The model's numbers as the closed form takes them. */
typedef struct Ball {
    double m, r, I, H, g, eN, eT, mu;
    double x[3], v[3], w[3];   /* centre, velocity, world angular velocity */
} Ball;

/* The impacts of a run: instant, gap, energy lost, the state just after. */
typedef struct Log {
    int n;
    double t[MAXIMP], lost[MAXIMP];
    int gap[MAXIMP];
    double y[MAXIMP][NY];
} Log;

/* Event handler: keeps each impact and the state after it. */
static int on_event(void *ud, const nsm_sim *s, const nsm_event *ev)
{
    Log *L = ud;
    if (ev->kind != NSM_EV_IMPACT)
        return 0;
    if (L->n < MAXIMP) {
        L->t[L->n] = ev->t;
        L->gap[L->n] = ev->contact;
        L->lost[L->n] = ev->energy_lost;
        memcpy(L->y[L->n], nsm_sim_state(s), sizeof L->y[0]);
    }
    L->n++;
    return 0;
}

/* The world angular velocity R(p) w_body of the state y (R written from
** the quaternion here, homogeneous). */
static void world_w(const double *y, double *w)
{
    double p1 = y[QP1], p2 = y[QP1 + 1], p3 = y[QP1 + 2], p0 = y[QP0];
    double n2 = p0 * p0 + p1 * p1 + p2 * p2 + p3 * p3;
    double R[3][3] = {
        { p0 * p0 + p1 * p1 - p2 * p2 - p3 * p3, 2 * (p1 * p2 - p0 * p3), 2 * (p1 * p3 + p0 * p2) },
        { 2 * (p1 * p2 + p0 * p3), p0 * p0 - p1 * p1 + p2 * p2 - p3 * p3, 2 * (p2 * p3 - p0 * p1) },
        { 2 * (p1 * p3 - p0 * p2), 2 * (p2 * p3 + p0 * p1), p0 * p0 - p1 * p1 - p2 * p2 + p3 * p3 },
    };
    for (int i = 0; i < 3; i++)
        w[i] = (R[i][0] * y[UW] + R[i][1] * y[UW + 1] + R[i][2] * y[UW + 2]) / n2;
}

/* The ball's flight to its next bounce under gravity g along -z: the time
** to it (the first root of z(t) = H - r going up, else of z(t) = r) and
** the plane (0 floor, 1 table); the ball moved there. */
static double ball_flight(Ball *b, int *plane)
{
    double z = b->x[2], vz = b->v[2], g = b->g, t;
    if (g == 0) {
        *plane = vz > 0;
        t = *plane ? (b->H - b->r - z) / vz : (b->r - z) / vz;
    } else {
        double disc = vz * vz - 2 * g * (b->H - b->r - z);
        *plane = vz > 0 && disc >= 0;
        t = *plane ? (vz - sqrt(disc)) / g : (vz + sqrt(vz * vz + 2 * g * (z - b->r))) / g;
    }
    for (int i = 0; i < 3; i++)
        b->x[i] += b->v[i] * t;
    b->x[2] -= g * t * t / 2;
    b->v[2] -= g * t;
    return t;
}

/* Glocker's law in closed form at plane `plane` (normal +z or -z); returns
** whether the impact sticks (the closed form below holds only then). */
static int ball_bounce(Ball *b, int plane)
{
    double n[3] = { 0, 0, plane ? -1 : 1 }, s[3], ws[3], gt[3], PT[3], sP[3];
    for (int i = 0; i < 3; i++)
        s[i] = -b->r * n[i];
    cross(b->w, s, ws);
    double gn = dot3(n, b->v);
    for (int i = 0; i < 3; i++)
        gt[i] = b->v[i] + ws[i] - gn * n[i];
    double PN = -(1 + b->eN) * b->m * gn;
    for (int i = 0; i < 3; i++)
        PT[i] = -(1 + b->eT) * gt[i] / (1 / b->m + b->r * b->r / b->I);
    cross(s, PT, sP);
    for (int i = 0; i < 3; i++) {
        b->v[i] += (PT[i] + n[i] * PN) / b->m;
        b->w[i] += sP[i] / b->I;
    }
    return sqrt(dot3(PT, PT)) <= b->mu * PN;
}

/* A simulation of the model with the parameters named in set (NULL-ended
** name, value pairs), the method, and the event log L. */
static nsm_sim *start(int method, const char *const *names, const double *vals, Log *L)
{
    nsm_sim *s = nsm_sim_create(&nsm_model_super_ball_3d);
    if (!s)
        return NULL;
    for (int k = 0; names[k]; k++)
        nsm_sim_set_param(s, names[k], vals[k]);
    nsm_sim_set_method(s, method);
    if (method == NSM_METHOD_ADAPTIVE)
        nsm_sim_set_tolerances(s, 1e-13, 1e-15);
    memset(L, 0, sizeof *L);
    nsm_sim_set_event_handler(s, on_event, L);
    if (nsm_sim_reset(s)) {
        printf("reset failed: %s\n", nsm_sim_message(s));
        nsm_sim_free(s);
        return NULL;
    }
    return s;
}

/* Kinetic energy of the ball b. */
static double ball_kinetic(const Ball *b)
{
    return (b->m * dot3(b->v, b->v) + b->I * dot3(b->w, b->w)) / 2;
}

/* Output column `name` of the model's table at the state of s. */
static double column(const nsm_sim *s, const char *name)
{
    return model_column(&nsm_model_super_ball_3d, s, name);
}

/* The contact points' columns in flight at centre xe, velocity ve and world
** spin b->w: the ball's points nearest each plane, F.x, F.y, F.z = xe - r n
** for the floor and T.x, T.y, T.z = xe + r n for the table (n = e_z); F.vz =
** ve_z (the point's normal velocity);
** FF.slip and FT.slip the slips |v + w x (-r n)| in each plane. */
static void columns_check(const nsm_sim *s, const char *mname, const Ball *b, const double *xe,
                          const double *ve, double tol)
{
    static const char *const pts[2][3] = { { "F.x", "F.y", "F.z" }, { "T.x", "T.y", "T.z" } };
    static const char *const slips[2] = { "FF.slip", "FT.slip" };
    char what[200];
    for (int j = 0; j < 2; j++) {
        double n[3] = { 0, 0, j ? -1 : 1 }, arm[3], wa[3], gt[3];
        for (int i = 0; i < 3; i++) {
            double want = xe[i] - b->r * n[i];
            snprintf(what, sizeof what, "%s at T: contact point %s", mname, pts[j][i]);
            check_close(what, column(s, pts[j][i]), want, tol * (fabs(xe[i]) + b->H));
            arm[i] = -b->r * n[i];
        }
        cross(b->w, arm, wa);
        for (int i = 0; i < 3; i++)
            gt[i] = ve[i] + wa[i] - dot3(ve, n) * n[i];
        double slip = sqrt(dot3(gt, gt)), vs = sqrt(dot3(ve, ve)) + b->r * sqrt(dot3(b->w, b->w));
        snprintf(what, sizeof what, "%s at T: %s = |v + w x (-r n)| in the plane", mname, slips[j]);
        check_close(what, column(s, slips[j]), slip, tol * vs);
        printf("%s at T: %s = %.17g m/s (closed form %.17g)\n", mname, slips[j],
               column(s, slips[j]), slip);
    }
    snprintf(what, sizeof what, "%s at T: F.vz, the contact point's normal velocity", mname);
    check_close(what, column(s, "F.vz"), ve[2], tol * fabs(ve[2]));
}

/* The model's throw: five bounces against the closed form, to tol relative
** (of |v| + r |w| for velocities, of the instant for instants); the state at
** the model's t_end; the energy kept. */
static void throw_run(int method, const char *mname, double tol)
{
    Ball b = { 0.05, 0.025, 0.4 * 0.05 * 0.025 * 0.025, 0.5, 9.81, 1, 1, 100,
               { -0.1, 0.02, 0.3 }, { 2, 0.4, -3 }, { 12, -40, 25 } };
    const double T = 0.75, E0 = ball_kinetic(&b) + b.m * b.g * b.x[2];
    const double vs = sqrt(dot3(b.v, b.v)) + b.r * sqrt(dot3(b.w, b.w));
    static const char *const none[] = { NULL };
    Log L;
    char what[200];
    nsm_sim *s = start(method, none, NULL, &L);
    snprintf(what, sizeof what, "%s super ball in space starts", mname);
    check_true(what, s != NULL);
    if (!s)
        return;
    int rc = nsm_sim_run_until(s, T);
    snprintf(what, sizeof what, "%s super ball in space runs to %g s", mname, T);
    check_true(what, rc == 0);
    if (rc)
        printf("  %s\n", nsm_sim_message(s));
    snprintf(what, sizeof what, "%s super ball in space: five bounces", mname);
    check_true(what, L.n == 5);
    double t = 0, worst = 0, worst_t = 0;
    for (int k = 0; k < 5; k++) {
        int plane;
        t += ball_flight(&b, &plane);
        int stuck = ball_bounce(&b, plane);
        snprintf(what, sizeof what, "%s bounce %d sticks in the closed form", mname, k + 1);
        check_true(what, stuck);
        if (k >= L.n)
            continue;
        double w[3];
        world_w(L.y[k], w);
        snprintf(what, sizeof what, "%s bounce %d at the root of the parabola", mname, k + 1);
        check_close(what, L.t[k], t, tol * t);
        snprintf(what, sizeof what, "%s bounce %d on the %s", mname, k + 1,
                 plane ? "table" : "floor");
        check_true(what, L.gap[k] == plane);
        snprintf(what, sizeof what, "%s bounce %d keeps the kinetic energy", mname, k + 1);
        check_close(what, L.lost[k], 0, 1e-13 * E0);
        worst_t = fmax(worst_t, fabs(L.t[k] - t) / t);
        for (int i = 0; i < 3; i++) {
            snprintf(what, sizeof what, "%s bounce %d: v[%d] after", mname, k + 1, i);
            check_close(what, L.y[k][UV + i], b.v[i], tol * vs);
            snprintf(what, sizeof what, "%s bounce %d: r w[%d] after (world)", mname, k + 1, i);
            check_close(what, b.r * w[i], b.r * b.w[i], tol * vs);
            worst = fmax(worst, fabs(L.y[k][UV + i] - b.v[i]) / vs);
            worst = fmax(worst, b.r * fabs(w[i] - b.w[i]) / vs);
        }
    }
    /* the flight from the fifth bounce to T */
    const double *y = nsm_sim_state(s), dt = T - t;
    double xe[3], ve[3], we[3];
    world_w(y, we);
    for (int i = 0; i < 3; i++) {
        xe[i] = b.x[i] + b.v[i] * dt - (i == 2 ? b.g * dt * dt / 2 : 0);
        ve[i] = b.v[i] - (i == 2 ? b.g * dt : 0);
        snprintf(what, sizeof what, "%s at T: centre[%d]", mname, i);
        check_close(what, y[i], xe[i], tol * (fabs(xe[i]) + b.H));
        snprintf(what, sizeof what, "%s at T: v[%d]", mname, i);
        check_close(what, y[UV + i], ve[i], tol * vs);
        snprintf(what, sizeof what, "%s at T: r w[%d] (world)", mname, i);
        check_close(what, b.r * we[i], b.r * b.w[i], tol * vs);
    }
    columns_check(s, mname, &b, xe, ve, tol);
    double kin, pot, diss, inj, err = nsm_sim_energy(s, &kin, &pot, &diss, &inj);
    snprintf(what, sizeof what, "%s super ball in space: energy balance", mname);
    check_close(what, err, 0, 1e-12 * E0);
    snprintf(what, sizeof what, "%s super ball in space: kinetic energy at T", mname);
    check_close(what, kin, b.m * dot3(ve, ve) / 2 + b.I * dot3(b.w, b.w) / 2, 1e-12 * E0);
    printf("%s super ball in space: %d bounces, worst instant %.2g relative, worst velocity "
           "%.2g relative, balance %.2g J of %.4g J\n", mname, L.n, worst_t, worst, err, E0);
    nsm_sim_free(s);
}

/* Garwin's sequence without gravity, thrown along d = (4/5, 3/5, 0) at
** 2 m/s and down at 3 m/s from z0 = 1/4 m, no spin: the instants 3/40,
** 9/40, 3/8 s (script's rationals), after the third bounce the horizontal
** velocity -333/343 v d and r w = -130/343 v (e_z x d), v_z = 3 m/s. */
static void garwin_run(int method, const char *mname)
{
    static const char *const names[] = { "g", "x0", "y0", "z0", "vx0", "vy0", "vz0", "w10",
                                         "w20", "w30", NULL };
    const double vals[] = { 0, 0.3, -0.2, 0.25, 1.6, 1.2, -3, 0, 0, 0 };
    const double d[3] = { 0.8, 0.6, 0 }, ezd[3] = { -0.6, 0.8, 0 }, v = 2, r = 0.025;
    const double tk[3] = { 3.0 / 40, 9.0 / 40, 3.0 / 8 };
    Log L;
    char what[200];
    nsm_sim *s = start(method, names, vals, &L);
    snprintf(what, sizeof what, "%s Garwin in space starts", mname);
    check_true(what, s != NULL);
    if (!s)
        return;
    int rc = nsm_sim_run_until(s, 0.45);
    snprintf(what, sizeof what, "%s Garwin in space: three bounces by 0.45 s", mname);
    check_true(what, rc == 0 && L.n == 3);
    for (int k = 0; k < 3 && k < L.n; k++) {
        snprintf(what, sizeof what, "%s Garwin bounce %d at the script's instant", mname, k + 1);
        check_close(what, L.t[k], tk[k], 1e-12 * tk[k]);
        snprintf(what, sizeof what, "%s Garwin bounce %d on the %s", mname, k + 1,
                 k == 1 ? "table" : "floor");
        check_true(what, L.gap[k] == (k == 1));
    }
    if (L.n >= 3) {
        double w[3];
        const double *y = L.y[2];
        world_w(y, w);
        for (int i = 0; i < 3; i++) {
            snprintf(what, sizeof what, "%s Garwin: v[%d] -> -333/343 v d", mname, i);
            check_close(what, y[UV + i], i == 2 ? 3 : -333.0 / 343 * v * d[i], 1e-12 * v);
            snprintf(what, sizeof what, "%s Garwin: r w[%d] -> -130/343 v (e_z x d)", mname, i);
            check_close(what, r * w[i], -130.0 / 343 * v * ezd[i], 1e-12 * v);
        }
        printf("%s Garwin in space: v . d / v = %.17g (-333/343 = %.17g), r |w| / v = %.17g "
               "(130/343 = %.17g)\n", mname, dot3(y + UV, d) / v, -333.0 / 343,
               r * sqrt(dot3(w, w)) / v, 130.0 / 343);
    }
    nsm_sim_free(s);
}

int main(void)
{
    throw_run(NSM_METHOD_RK4, "rk4", 1e-12);
    throw_run(NSM_METHOD_ADAPTIVE, "adaptive", 1e-12);
    garwin_run(NSM_METHOD_RK4, "rk4");
    garwin_run(NSM_METHOD_ADAPTIVE, "adaptive");
    return check_report();
}
