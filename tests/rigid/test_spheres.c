/*
** test_spheres.c: sphere gaps of rigid bodies against planes as nsmc writes
** them (docs/theory.md section 19, docs/validation.md "Bodies in space"),
** run by rk4 and adaptive against references worked out here by hand, not
** read from the tables:
**   - models/ball_in_space.nsm: a spinning ball bouncing on a tilted
**     frictionless plane: its motion normal to the plane is a ball bouncing
**     under g cos(alpha), impact k at a closed-form time with Newton's
**     velocities and impulse, the Zeno accumulation at t1 + 2 e u1 /
**     (g cos(alpha) (1 - e)), then held (contact force m g cos(alpha)) and
**     sliding down the plane; the spin untouched; the energy balance;
**   - tests/rigid/sphere_drop.nsm: an eccentric sphere dropped tilted: its
**     first impact at the root of z0 - g t^2/2 + (R0 c)_z - rho (R0 by
**     Rodrigues' formula) and the velocities after it by Newton's law with
**     W = (e_z, c x n_b): P = -(1 + e) gdot / (1/m + sum (c x n_b)_i^2 / I_i);
**   - tests/rigid/tippe_frictionless.nsm: the tippe top (Leine's
**     parameters) spinning on its sphere on a frictionless floor: energy,
**     horizontal momentum, L_z and Jellett's integral L . (a1 e3 - r1 k)
**     constant, the sphere's centre at r1 above the floor while held (the
**     curvature term n_b . (w x (w x c)) keeps it there);
**   - tests/rigid/tippe_fall.nsm: the top thrown over onto its stem: the
**     stem's first contact is an impact while the sphere's contact is
**     held (two spheres of one body touching at once), energy conserved
**     before it, the horizontal momentum throughout; the impact is one
**     problem over both contacts (the sphere's held, e = 0 on both, free to
**     separate): the stem's impulse, the sphere's separation speed and the
**     velocities after it from the 2x2 Delassus problem solved by hand
**     (tippe_fall_impact), and the run goes on past it to t_end with its
**     energy balance closing.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nsm/model.h"
#include "nsm/nsm.h"

#include "../unit/check.h"
#include "space_ref.h"

extern const nsm_model nsm_model_ball_in_space, nsm_model_sphere_drop, nsm_model_tippe_frictionless,
    nsm_model_tippe_fall;

/* The state's layout of one rigid body: q = (x, y, z, p1, p2, p3, p0), u = (v, w). */
enum { NQ = 7, P1 = 3, P0 = 6, U = NQ, W1 = NQ + 3, NY = NQ + 6 };

/* The events of a run: impacts (with the mode of gap 0 and the state just
** after each of the first few) and zeno records. */
typedef struct Log {
    int n, nzeno;
    nsm_event ev[256], zeno;
    int held0[256];    /* gap 0 closed when the event was reported */
    double y1[NY];
    int have_y1;
    int stop_on;       /* stop the run at this contact's first impact; -1: never */
    int nsep;          /* separations, and the first of them */
    nsm_event sep;
} Log;

/* Event handler: keeps the impacts and the last zeno record. */
static int on_event(void *ud, const nsm_sim *s, const nsm_event *ev)
{
    Log *L = ud;
    if (ev->kind == NSM_EV_ZENO) {
        L->zeno = *ev;
        L->nzeno++;
    }
    if (ev->kind == NSM_EV_SEPARATION && L->nsep++ == 0)
        L->sep = *ev;
    if (ev->kind != NSM_EV_IMPACT)
        return 0;
    if (!L->have_y1) {
        memcpy(L->y1, nsm_sim_state(s), sizeof L->y1);
        L->have_y1 = 1;
    }
    if (L->n < (int)(sizeof L->ev / sizeof L->ev[0])) {
        L->ev[L->n] = *ev;
        L->held0[L->n] = nsm_sim_mode_has(s, 0);
    }
    L->n++;
    return ev->contact == L->stop_on;
}

/* A simulation of tab by `method` (rk4 at its dt, adaptive at tight
** tolerances), logging into L; NULL (reason printed) when reset fails. */
static nsm_sim *start(const nsm_model *tab, int method, Log *L)
{
    nsm_sim *s = nsm_sim_create(tab);
    if (!s)
        return NULL;
    nsm_sim_set_method(s, method);
    if (method == NSM_METHOD_ADAPTIVE)
        nsm_sim_set_tolerances(s, 1e-13, 1e-15);
    memset(L, 0, sizeof *L);
    L->stop_on = -1;
    nsm_sim_set_event_handler(s, on_event, L);
    if (nsm_sim_reset(s)) {
        printf("reset failed: %s\n", nsm_sim_message(s));
        nsm_sim_free(s);
        return NULL;
    }
    return s;
}

/* The rotation of the unit quaternion in y (scalar part at P0). */
static void quat_rot(const double *y, double R[3][3])
{
    double w = y[P0], x = y[P1], v = y[P1 + 1], z = y[P1 + 2];
    double M[3][3] = {
        { w * w + x * x - v * v - z * z, 2 * (x * v - w * z), 2 * (x * z + w * v) },
        { 2 * (x * v + w * z), w * w - x * x + v * v - z * z, 2 * (v * z - w * x) },
        { 2 * (x * z - w * v), 2 * (v * z + w * x), w * w - x * x - v * v + z * z },
    };
    memcpy(R, M, sizeof M);
}

/* The run's energy balance against the largest energy E. */
static void check_balance(nsm_sim *s, const char *what, double E, double rel)
{
    double kin, pot, diss, inj, err = nsm_sim_energy(s, &kin, &pot, &diss, &inj);
    check_close(what, err, 0, rel * E);
    printf("%s: %.2g J (of %.4g J)\n", what, err, E);
}

/* models/ball_in_space.nsm: bounces, Zeno accumulation, held slide. */
static void ball_bouncing(int method, const char *mname)
{
    const double m = 2, g = 9.81, rho = 0.1, al = 0.3, h = 0.25, e = 0.5, I = 0.008;
    const double w0[3] = { 3, -2, 7 }, n[3] = { -sin(al), 0, cos(al) }, tt[3] = { cos(al), 0, sin(al) };
    Log L;
    nsm_sim *s = start(&nsm_model_ball_in_space, method, &L);
    check_true("ball_in_space starts", s != NULL);
    if (!s)
        return;
    /* normal to the plane: a ball dropped from h under gn, impact k at tk */
    double gn = g * cos(al), u1 = sqrt(2 * gn * h), t1 = u1 / gn;
    double tinf = t1 + 2 * e * u1 / (gn * (1 - e)), T = 1.5;
    int rc = nsm_sim_run_until(s, T);
    check_true("ball_in_space runs", rc == 0);
    if (rc)
        printf("  %s\n", nsm_sim_message(s));
    char what[200];
    double tk = t1, uk = u1, dt = 0;
    for (int k = 0; k < 6 && k < L.n; k++) {
        snprintf(what, sizeof what, "%s ball impact %d time", mname, k + 1);
        check_close(what, L.ev[k].t, tk, 1e-12 * (1 + tk));
        snprintf(what, sizeof what, "%s ball impact %d normal velocity before", mname, k + 1);
        check_close(what, L.ev[k].vrel_before, -uk, 1e-11 * u1);
        snprintf(what, sizeof what, "%s ball impact %d normal velocity after (Newton)", mname, k + 1);
        check_close(what, L.ev[k].vrel_after, e * uk, 1e-11 * u1);
        snprintf(what, sizeof what, "%s ball impact %d impulse (1 + e) m u", mname, k + 1);
        check_close(what, L.ev[k].impulse, (1 + e) * m * uk, 1e-11 * m * u1);
        dt = fmax(dt, fabs(L.ev[k].t - tk));
        tk += 2 * e * uk / gn;
        uk *= e;
    }
    check_true("ball bounces at least 6 times", L.n >= 6);
    check_true("ball's cascade ends in one zeno record", L.nzeno == 1);
    snprintf(what, sizeof what, "%s ball's Zeno accumulation time", mname);
    check_close(what, L.zeno.t, tinf, 1e-10);
    const double *y = nsm_sim_state(s);
    double lam[1] = { 0 }, v[3] = { y[U], y[U + 1], y[U + 2] }, r[3] = { y[0], y[1], y[2] };
    nsm_sim_forces(s, lam);
    check_true("ball held on the plane after its Zeno cascade", nsm_sim_mode_has(s, 0) == 1);
    snprintf(what, sizeof what, "%s held ball's contact force m g cos(alpha)", mname);
    check_close(what, lam[0], m * gn, 1e-10 * m * g);
    snprintf(what, sizeof what, "%s held ball's centre at rho from the plane", mname);
    check_close(what, dot3(r, n), rho, 1e-12);
    /* along the slope only gravity acts: from rest, -g sin(alpha) */
    snprintf(what, sizeof what, "%s ball's velocity down the slope at T", mname);
    check_close(what, dot3(v, tt), -g * sin(al) * T, 1e-11);
    snprintf(what, sizeof what, "%s ball's position along the slope at T", mname);
    check_close(what, dot3(r, tt), -0.5 * g * sin(al) * T * T, 1e-11);
    for (int i = 0; i < 3; i++) {
        snprintf(what, sizeof what, "%s ball's w[%d] unchanged by frictionless impacts", mname, i);
        check_close(what, y[W1 + i], w0[i], 1e-12);
    }
    double E = m * g * (rho + h) * cos(al) + 0.5 * I * dot3(w0, w0);
    snprintf(what, sizeof what, "%s ball_in_space's energy balance", mname);
    check_balance(s, what, E, 1e-10);
    printf("%s ball_in_space: %d impacts, first 6 within %.2g s, Zeno at %.15g (closed form "
           "%.15g), then held\n", mname, L.n, dt, L.zeno.t, tinf);
    nsm_sim_free(s);
}

/* tests/rigid/sphere_drop.nsm: the eccentric sphere's first impact. */
static void sphere_drop(int method, const char *mname)
{
    const double m = 1.5, a = 0.04, rho = 0.1, e = 0.6, g = 9.81, z0 = 0.6, vx = 0.2, vy = -0.1;
    const double I[3] = { 0.02, 0.03, 0.025 }, th = 0.5, ax[3] = { cos(0.7), sin(0.7), 0 };
    Log L;
    nsm_sim *s = start(&nsm_model_sphere_drop, method, &L);
    check_true("sphere_drop starts", s != NULL);
    if (!s)
        return;
    double c[3] = { 0, 0, a };
    DropRef ref = drop_ref(m, I, c, rho, th, ax, z0, g, e);
    double t1 = ref.t1, gd = ref.gd, P = ref.P, *k = ref.k;
    int rc = nsm_sim_run_until(s, t1 + 0.1);
    check_true("sphere_drop runs", rc == 0);
    if (rc)
        printf("  %s\n", nsm_sim_message(s));
    char what[200];
    check_true("sphere_drop impacts", L.n >= 1 && L.have_y1);
    if (L.n < 1 || !L.have_y1) {
        nsm_sim_free(s);
        return;
    }
    snprintf(what, sizeof what, "%s eccentric sphere's first impact time", mname);
    check_close(what, L.ev[0].t, t1, 1e-12);
    snprintf(what, sizeof what, "%s eccentric sphere's impulse", mname);
    check_close(what, L.ev[0].impulse, P, 1e-11 * P);
    snprintf(what, sizeof what, "%s eccentric sphere's gap rate after (-e before)", mname);
    check_close(what, L.ev[0].vrel_after, -e * gd, 1e-11);
    double want_v[3] = { vx, vy, gd + P / m }, dw = 0;
    for (int i = 0; i < 3; i++) {
        snprintf(what, sizeof what, "%s eccentric sphere's v[%d] after", mname, i);
        check_close(what, L.y1[U + i], want_v[i], 1e-11);
        snprintf(what, sizeof what, "%s eccentric sphere's w[%d] after = (c x n_b) P / I", mname, i);
        check_close(what, L.y1[W1 + i], k[i] * P / I[i], 1e-11);
        dw = fmax(dw, fabs(L.y1[W1 + i] - k[i] * P / I[i]));
    }
    /* the output column foot.rate, n . (v + R (w x c)), just after the impact */
    const nsm_model *tab = &nsm_model_sphere_drop;
    int col = -1;
    for (int i = 0; i < tab->n_outputs; i++)
        if (strcmp(tab->outputs[i].name, "foot.rate") == 0)
            col = i;
    check_true("sphere_drop has the column foot.rate", col >= 0 && tab->output_value);
    if (col >= 0 && tab->output_value) {
        double pv[16], cv[64] = { 0 };
        for (int i = 0; i < tab->n_params && i < 16; i++)
            pv[i] = tab->params[i].value;
        snprintf(what, sizeof what, "%s eccentric sphere's column foot.rate after = -e gdot", mname);
        check_close(what, tab->output_value(col, L.ev[0].t, L.y1, pv, cv), -e * gd, 1e-11);
    }
    printf("%s sphere_drop: impact at %.15g s (closed form %.15g), w+ within %.2g rad/s, "
           "impulse within %.2g N s\n", mname, L.ev[0].t, t1, dw, fabs(L.ev[0].impulse - P));
    nsm_sim_free(s);
}

/* The top's invariants at y: energy, momentum, L (world, about the centre
** of mass), Jellett's L . (a1 e3 - r1 k), the sphere's centre height. */
typedef struct TopInv {
    double E, px, py, Lz, jellett, zc;
} TopInv;

static TopInv top_inv(const double *y)
{
    const double m = 0.006, I[3] = { 8e-7, 8e-7, 7e-7 }, a1 = 0.003, r1 = 0.015, g = 9.81;
    double R[3][3], L[3], Iw[3];
    quat_rot(y, R);
    for (int i = 0; i < 3; i++)
        Iw[i] = I[i] * y[W1 + i];
    for (int i = 0; i < 3; i++)
        L[i] = R[i][0] * Iw[0] + R[i][1] * Iw[1] + R[i][2] * Iw[2];
    const double *v = y + U, *w = y + W1;
    TopInv t;
    t.E = 0.5 * m * dot3(v, v) + 0.5 * (Iw[0] * w[0] + Iw[1] * w[1] + Iw[2] * w[2]) + m * g * y[2];
    t.px = m * v[0];
    t.py = m * v[1];
    t.Lz = L[2];
    double d[3] = { a1 * R[0][2], a1 * R[1][2], a1 * R[2][2] - r1 };
    t.jellett = dot3(L, d);
    t.zc = y[2] + a1 * R[2][2];
    return t;
}

/* The top's contact-point columns at y against the geometry written here:
** each sphere's point nearest the floor, r + a R e3 - rho e_z (a, rho = a1,
** r1 for the ball, a2, r2 for the stem), and the ball's material velocity
** there, v + (R w) x (a1 R e3 - r1 e_z); returns the largest difference
** (positions over r1, velocities over r1 |w|). */
static double top_points(const nsm_sim *s, const double *y)
{
    static const char *const bp[] = { "ball.x", "ball.y", "ball.z" }, *const sp[] = { "stem.x",
        "stem.y", "stem.z" }, *const bv[] = { "ball.vx", "ball.vy", "ball.vz" };
    const nsm_model *tab = &nsm_model_tippe_frictionless;
    const double a1 = 0.003, r1 = 0.015, a2 = 0.016, r2 = 0.005;
    double R[3][3], wv[3], arm[3], wa[3], worst = 0;
    quat_rot(y, R);
    for (int i = 0; i < 3; i++) {
        wv[i] = R[i][0] * y[W1] + R[i][1] * y[W1 + 1] + R[i][2] * y[W1 + 2];
        arm[i] = a1 * R[i][2] - (i == 2 ? r1 : 0);
    }
    cross(wv, arm, wa);
    double ws = r1 * sqrt(dot3(wv, wv));
    for (int i = 0; i < 3; i++) {
        worst = fmax(worst, fabs(model_column(tab, s, bp[i]) - (y[i] + arm[i])) / r1);
        worst = fmax(worst, fabs(model_column(tab, s, sp[i]) - (y[i] + a2 * R[i][2] - (i == 2 ? r2 : 0))) / r1);
        worst = fmax(worst, fabs(model_column(tab, s, bv[i]) - (y[U + i] + wa[i])) / ws);
    }
    return worst;
}

/* tests/rigid/tippe_frictionless.nsm: the invariants of the spinning top
** held on its sphere, and its contact points' columns. */
static void tippe_frictionless(int method, const char *mname)
{
    Log L;
    nsm_sim *s = start(&nsm_model_tippe_frictionless, method, &L);
    check_true("tippe_frictionless starts", s != NULL);
    if (!s)
        return;
    /* the sphere's centre starts 10 nm up (z0 + a1 cos(theta0) - r1 with the
     * defaults of the file): it lands at once, plastically, then is held */
    int rc = nsm_sim_run_until(s, 0.01);
    check_true("tippe_frictionless lands", rc == 0 && nsm_sim_mode_has(s, 0) == 1);
    TopInv i0 = top_inv(nsm_sim_state(s));
    double dE = 0, dp = 0, dLz = 0, dJ = 0, dz = 0, dpt = 0, dvz = 0;
    char what[200];
    for (int k = 1; k <= 10 && rc == 0; k++) {
        rc = nsm_sim_run_until(s, 0.01 + 0.05 * k);
        const double *y = nsm_sim_state(s);
        TopInv ik = top_inv(y);
        snprintf(what, sizeof what, "%s top held on its sphere at t = %g", mname, 0.01 + 0.05 * k);
        check_true(what, nsm_sim_mode_has(s, 0) == 1 && nsm_sim_mode_has(s, 1) == 0);
        dE = fmax(dE, fabs(ik.E - i0.E) / fabs(i0.E));
        dp = fmax(dp, fmax(fabs(ik.px - i0.px), fabs(ik.py - i0.py)) / fabs(i0.px));
        dLz = fmax(dLz, fabs(ik.Lz - i0.Lz) / fabs(i0.Lz));
        dJ = fmax(dJ, fabs(ik.jellett - i0.jellett) / fabs(i0.jellett));
        dz = fmax(dz, fabs(ik.zc - 0.015));
        dpt = fmax(dpt, top_points(s, y));
        dvz = fmax(dvz, fabs(model_column(&nsm_model_tippe_frictionless, s, "ball.vz")));
    }
    check_true("tippe_frictionless runs", rc == 0);
    if (rc)
        printf("  %s\n", nsm_sim_message(s));
    double tol = method == NSM_METHOD_RK4 ? 1e-9 : 1e-11;
    snprintf(what, sizeof what, "%s top's energy (relative)", mname);
    check_close(what, dE, 0, tol);
    snprintf(what, sizeof what, "%s top's horizontal momentum (relative)", mname);
    check_close(what, dp, 0, tol);
    snprintf(what, sizeof what, "%s top's L_z (relative)", mname);
    check_close(what, dLz, 0, tol);
    snprintf(what, sizeof what, "%s top's Jellett integral (relative)", mname);
    check_close(what, dJ, 0, tol);
    snprintf(what, sizeof what, "%s top's sphere centre at r1 while held", mname);
    check_close(what, dz, 0, 1e-12);
    snprintf(what, sizeof what, "%s top's contact points and the ball's point velocity", mname);
    check_close(what, dpt, 0, 1e-13);
    snprintf(what, sizeof what, "%s top's ball contact point: no normal velocity while held", mname);
    check_close(what, dvz, 0, tol);
    printf("%s tippe_frictionless: contact point columns within %.2g, ball.vz within %.2g m/s of "
           "0\n", mname, dpt, dvz);
    printf("%s tippe_frictionless, 0.5 s held: energy %.2g, momentum %.2g, L_z %.2g, Jellett %.2g "
           "(relative), sphere centre within %.2g m of r1\n", mname, dE, dp, dLz, dJ, dz);
    nsm_sim_free(s);
}

/* The rate of theta(t) of the top turning about a horizontal axis with its
** sphere held on a frictionless floor, from its energy E: the centre of mass
** stays above the same point, at height r1 - a1 cos(theta), so that
** E = (I1 + m a1^2 sin^2 theta) theta'^2 / 2 + m g (r1 - a1 cos theta). */
static double fall_rate(double th, double E)
{
    const double m = 0.006, I1 = 8e-7, a1 = 0.003, r1 = 0.015, g = 9.81;
    double sn = sin(th);
    return sqrt(2 * (E - m * g * (r1 - a1 * cos(th))) / (I1 + m * a1 * a1 * sn * sn));
}

/* The time from theta0 to theta1 along the fall, the integral of
** dtheta / theta' by 8-point Gauss-Legendre on `panels` panels (nodes and
** weights of A&S table 25.4). */
static double fall_time(double th0, double th1, double E, int panels)
{
    static const double x[4] = { 0.1834346424956498, 0.5255324099163290, 0.7966664774136267,
                                 0.9602898564975363 };
    static const double w[4] = { 0.3626837833783620, 0.3137066458778873, 0.2223810344533745,
                                 0.1012285362903763 };
    double h = (th1 - th0) / panels, t = 0;
    for (int k = 0; k < panels; k++) {
        double mid = th0 + (k + 0.5) * h;
        for (int i = 0; i < 4; i++)
            t += w[i] * 0.5 * h * (1 / fall_rate(mid - 0.5 * h * x[i], E) + 1 / fall_rate(mid + 0.5 * h * x[i], E));
    }
    return t;
}

/* The stem's impact of tests/rigid/tippe_fall.nsm by hand.  The top turns
** about the horizontal 1-axis: velocities (vz, theta') with the mass
** diag(m, I1) (vy stays 0), a sphere's centre at height z + a cos(theta),
** so its gap's row is W_i = (1, -a_i sin(theta)) and the Delassus matrix
** D_ij = 1/m + a_i a_j sin^2(theta) / I1.  Just before, at theta* (cos =
** -(r1 - r2)/(a2 - a1)) with theta' from the energy E, the sphere's gap
** rate is 0 (held: vz = a1 sin(theta) theta') and the stem's u2 = (a1 - a2)
** sin(theta) theta' < 0.  Newton's law with e = 0 on both:
** P >= 0 _|_ u+ = u- + D P >= 0.  P1 = 0 gives P2 = -u2 / D22 > 0 and
** u1+ = D12 P2 > 0 (D12 > 0): a solution, the only one (D is positive
** definite, a P-matrix).  The sphere leaves; vz+ = vz + P2/m,
** theta'+ = theta' - a2 sin(theta) P2 / I1.  Into out: P2, u1+, vz+,
** theta'+, u2. */
static void tippe_fall_impact(double E, double *out)
{
    const double m = 0.006, I1 = 8e-7, a1 = 0.003, a2 = 0.016, r1 = 0.015, r2 = 0.005, g = 9.81;
    double c = -(r1 - r2) / (a2 - a1), sn = sqrt(1 - c * c);
    double rate = sqrt(2 * (E - m * g * (r1 - a1 * c)) / (I1 + m * a1 * a1 * sn * sn));
    double u2 = (a1 - a2) * sn * rate, D12 = 1 / m + a1 * a2 * sn * sn / I1,
           D22 = 1 / m + a2 * a2 * sn * sn / I1, P2 = -u2 / D22;
    out[0] = P2;
    out[1] = D12 * P2;
    out[2] = a1 * sn * rate + P2 / m;
    out[3] = rate - a2 * sn * P2 / I1;
    out[4] = u2;
}

/* tests/rigid/tippe_fall.nsm: the stem's first contact, an impact while the
** sphere's contact is held, at the time of the one-degree-of-freedom fall
** (fall_time) to theta* = acos(-(r1 - r2) / (a2 - a1)), where the stem's
** sphere reaches the floor; the impact's impulse and velocities after it
** (tippe_fall_impact), the sphere's separation at the same instant, and
** the run on to t_end with its energy balance. */
static void tippe_fall(int method, const char *mname)
{
    const double m = 0.006, I1 = 8e-7, a1 = 0.003, a2 = 0.016, r1 = 0.015, r2 = 0.005, g = 9.81;
    const double th0 = 1.2, rate0 = 40;
    Log L;
    nsm_sim *s = start(&nsm_model_tippe_fall, method, &L);
    check_true("tippe_fall starts", s != NULL);
    if (!s)
        return;
    TopInv i0 = top_inv(nsm_sim_state(s));
    int rc = nsm_sim_run_until(s, 0.2);
    char what[200];
    snprintf(what, sizeof what, "%s tippe_fall runs past the stem's impact to t_end", mname);
    check_true(what, rc == NSM_OK);
    if (rc != NSM_OK)
        printf("  %s\n", nsm_sim_message(s));
    double E = 0.5 * (I1 + m * a1 * a1 * sin(th0) * sin(th0)) * rate0 * rate0 + m * g * (r1 - a1 * cos(th0));
    double ths = acos(-(r1 - r2) / (a2 - a1));
    double ts = fall_time(th0, ths, E, 400), ts2 = fall_time(th0, ths, E, 800);
    snprintf(what, sizeof what, "%s the fall's quadrature converged", mname);
    check_close(what, ts, ts2, 1e-14);
    snprintf(what, sizeof what, "%s energy of the top against the fall's E", mname);
    check_close(what, i0.E, E, 1e-15 * E);
    check_true("the stem's first contact is the run's first impact", L.n >= 1 && L.ev[0].contact == 1);
    if (L.n >= 1 && L.ev[0].contact == 1) {
        double ref[5];
        tippe_fall_impact(E, ref);
        snprintf(what, sizeof what, "%s sphere held at the stem's first impact", mname);
        check_true(what, L.held0[0] == 1);
        snprintf(what, sizeof what, "%s stem's first contact time (1-dof fall)", mname);
        check_close(what, L.ev[0].t, ts, 1e-12);
        snprintf(what, sizeof what, "%s stem's closing speed", mname);
        check_close(what, L.ev[0].vrel_before, ref[4], 1e-12);
        snprintf(what, sizeof what, "%s stem's impulse (2x2 Delassus problem)", mname);
        check_close(what, L.ev[0].impulse, ref[0], 1e-12 * ref[0]);
        snprintf(what, sizeof what, "%s stem at rest after its impact (e = 0)", mname);
        check_close(what, L.ev[0].vrel_after, 0, 1e-12);
        snprintf(what, sizeof what, "%s vz after the stem's impact", mname);
        check_close(what, L.y1[U + 2], ref[2], 1e-12);
        snprintf(what, sizeof what, "%s theta' after the stem's impact", mname);
        check_close(what, L.y1[W1], ref[3], 1e-12 * ref[3]);
        snprintf(what, sizeof what, "%s the sphere separates at the stem's impact", mname);
        check_true(what, L.nsep >= 1 && L.sep.contact == 0 && L.sep.t == L.ev[0].t);
        snprintf(what, sizeof what, "%s the sphere's separation speed", mname);
        check_close(what, L.nsep >= 1 ? L.sep.vrel_after : 0, ref[1], 1e-12);
        printf("%s tippe_fall: the stem touches at %.15g s (the fall's quadrature %.15g); "
               "against the Delassus problem: impulse %.2g N s, the sphere's separation speed "
               "%.2g m/s, vz %.2g m/s, theta' %.2g rad/s\n", mname, L.ev[0].t, ts,
               L.ev[0].impulse - ref[0], (L.nsep ? L.sep.vrel_after : 0) - ref[1],
               L.y1[U + 2] - ref[2], L.y1[W1] - ref[3]);
    }
    snprintf(what, sizeof what, "%s tippe_fall: impacts in the run", mname);
    check_true(what, L.n >= 1 && L.n <= 8);
    TopInv i1 = top_inv(nsm_sim_state(s));
    snprintf(what, sizeof what, "%s tippe_fall's horizontal momentum (zero)", mname);
    check_close(what, fabs(i1.px) + fabs(i1.py), 0, 1e-15);
    check_balance(s, "tippe_fall energy balance", i0.E, 1e-10);
    nsm_sim_free(s);
}

int main(void)
{
    static const int methods[] = { NSM_METHOD_RK4, NSM_METHOD_ADAPTIVE, NSM_METHOD_TAYLOR };
    static const char *const names[] = { "rk4", "adaptive", "taylor" };
    for (int k = 0; k < 3; k++) {
        ball_bouncing(methods[k], names[k]);
        sphere_drop(methods[k], names[k]);
        tippe_frictionless(methods[k], names[k]);
        tippe_fall(methods[k], names[k]);
    }
    return check_report();
}
