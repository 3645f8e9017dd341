/*
** test_rigid_contact.c: impacts and held contacts of a body in space, a
** sphere of a rigid body against a plane (docs/theory.md section 19), run
** by rk4, adaptive and taylor against closed forms (taylor's series of the
** gap, its row and curvature term written here by hand too, nl_series:
** its impacts held to 1e-14 s where the others' are held to 1e-12 s).
**
** The model table is written here by hand, independently of nsmc, on the
** layout of test_rigid.c (q = (x, y, z, p1, p2, p3, p0), u = (v, w), w in
** the body frame): one rigid body, gravity along -z, and one curved impact
** gap, the sphere of radius rho centred at the body point c = (0, 0, a)
** against the plane n . x = 0, n = (-sin alpha, 0, cos alpha).  Its nl_gap
** gives what nsm/model.h's contract asks of a body in space's curved gap:
**   g    = n . (r + R c) - rho,
**   W    = (n, c x n_b), n_b = R^T n   (the row of gdot = W u, velocities),
**   curv = n . R (w x (w x c))        (gddot = W udot + curv).
** The references are computed here from the physics, not from the table:
**   - a ball (a = 0) spinning and bouncing on the tilted plane: its motion
**     normal to the plane is a ball bouncing under g cos(alpha), impact k
**     at a closed-form time with closed-form velocities, w unchanged by
**     the frictionless impacts, the Zeno accumulation at
**     t1 + 2 e |u1| / (g cos(alpha) (1 - e)), then the ball held on the
**     plane (contact force m g cos(alpha)) sliding down it;
**   - a ball resting on the plane from the start (held contact):
**     lambda = m g cos(alpha), the slide's parabola, w constant;
**   - an eccentric sphere (a != 0) dropped tilted without spin: first
**     impact at the root of z0 - g t^2/2 + (R0 c)_z - rho (explicit, R0 by
**     Rodrigues' formula, not the table's quaternion), and the velocities
**     after it by Newton's law with W_N = (e_z, c x n_b) worked out here:
**     P = -(1 + e) gdot- / (1/m + sum_i (c x n_b)_i^2 / I_i),
**     v+ = v- + e_z P / m, w+ = I^-1 (c x n_b) P, the energy lost
**     (1 - e^2) gdot-^2 / (2 D);
**   - the energy balance closing to 1e-10 of the largest energy;
**   - what is not built is refused with a message: friction on such a
**     contact, another contact law, an affine gap over a body's rotation.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nsm/model.h"
#include "nsm/nsm.h"

#include "check.h"
#include "../rigid/space_ref.h"
#include "rigid_table.h"

/* The state's layout: q = (x, y, z, p1, p2, p3, p0), u = (vx, vy, vz, w1, w2, w3). */
enum { NB = 6, NQ = 7, P1 = 3, P0 = 6, U = NQ, W1 = NQ + 3, NY = NQ + NB };
/* The parameters' indices. */
enum { PM, PI1, PI2, PI3, PG, PA, PRHO, PALPHA, PE, NPAR };

static const nsm_param_info params[] = {
    { "m", "kg", 2 }, { "I1", "kg*m^2", 0.008 }, { "I2", "kg*m^2", 0.008 },
    { "I3", "kg*m^2", 0.008 }, { "g", "m/s^2", 9.81 }, { "a", "m", 0 }, { "rho", "m", 0.1 },
    { "alpha", "rad", 0.3 }, { "e", "", 0.5 },
};
static const char *const body_names[] = { "B.x", "B.y", "B.z", "B.w1", "B.w2", "B.w3" };
static const int rigid_rot[] = { 3 };
static const nsm_gap_info gaps[] = { { "floor", NSM_LAW_IMPACT, 0 } };
static const unsigned char gap_curved[] = { 1 };
static const int gap_ncols[] = { 6 };
static const int cols_floor[] = { 0, 1, 2, 3, 4, 5 };
static const int *const gap_cols[] = { cols_floor };

/* Masses diag(m, m, m, I1, I2, I3), the weight -m g on z, the gap's
** pattern (its values come from nl_gap), its restitution; c = the plane's
** unit normal n. */
static int setup(const double *p, double *c, nsm_numeric *num)
{
    for (int i = 0; i < 3; i++) {
        num->mass[i] = p[PM];
        num->mass[3 + i] = p[PI1 + i];
        num->gfac[i] = num->gfac[3 + i] = 0;
        num->fconst[i] = num->fconst[3 + i] = 0;
    }
    num->gravity = p[PG];
    num->gfac[2] = 1;
    num->fconst[2] = -p[PM] * p[PG];
    for (int k = 0; k < 6; k++) {
        num->W.row[k] = 0;
        num->W.col[k] = k;
        num->W.val[k] = 0;
    }
    num->d[0] = 0;
    num->e[0] = p[PE];
    num->kc[0] = 1e6;           /* read only by the penalty variant of the refusals */
    c[0] = -sin(p[PALPHA]);
    c[1] = 0;
    c[2] = cos(p[PALPHA]);
    return 0;
}

/* The sphere (0, 0, a), radius rho, against the plane n . x = 0: the gap,
** its curvature term and its row of W over the velocities (nsm/model.h). */
static void nl_gap(const double *y, const double *p, const double *c, double *g, double *curv,
                   double *wval)
{
    double R[3][3], cb[3] = { 0, 0, p[PA] }, nb[3], wc[3], wwc[3], k[3];
    rigid_rotation(y, R);
    for (int i = 0; i < 3; i++)
        nb[i] = R[0][i] * c[0] + R[1][i] * c[1] + R[2][i] * c[2];
    double ctr = 0;
    for (int i = 0; i < 3; i++)
        ctr += c[i] * (y[i] + R[i][0] * cb[0] + R[i][1] * cb[1] + R[i][2] * cb[2]);
    g[0] = ctr - p[PRHO];
    cross(cb, nb, k);
    for (int i = 0; i < 3; i++) {
        wval[i] = c[i];
        wval[3 + i] = k[i];
    }
    cross(y + W1, cb, wc);
    cross(y + W1, wc, wwc);
    curv[0] = dot3(nb, wwc);
}

/* ---- the same functions as Taylor series (method taylor), by hand ---- */

/* Order k of the product of two series a, b: sum_{l=0..k} a_l b_{k-l}. */
static double ser_mul(const double *a, const double *b, int k)
{
    double r = 0;
    for (int l = 0; l <= k; l++)
        r += a[l] * b[k - l];
    return r;
}

/* Work rows of nl_series (K + 1 coefficients each): the quadratic forms
** M_ij(p) of the rotation, |p|^2, its reciprocal, R_ij = M_ij / |p|^2,
** n_b = R^T n, and w x (w x c). */
enum { WM = 0, WN2 = 9, WS = 10, WR = 11, WNB = 20, WWC = 23, WWWC = 26, NWORK = 29 };

/* Order k of the gyroscopic torques, of the sphere's gap, its row of W and
** its curvature term (nl_force's and nl_gap's formulas, expanded with the
** state's orders 0..k: Cauchy products, and 1/|p|^2 by the division
** recurrence s_k = (delta_k0 - sum_{l>=1} N_l s_{k-l}) / N_0). */
static void nl_series(int k, int K, double t0, const double *X, const int *sw, const double *p,
                      const double *c, double *w, double *F, double *G, double *CV, double *WV)
{
    (void)t0, (void)sw;
    int K1 = K + 1;
    const double *q[4] = { X + P0 * K1, X + P1 * K1, X + (P1 + 1) * K1, X + (P1 + 2) * K1 };
    const double *om[3] = { X + W1 * K1, X + (W1 + 1) * K1, X + (W1 + 2) * K1 };
    double *row[NWORK];
    for (int r = 0; r < NWORK; r++)
        row[r] = w + r * K1;
    /* M(p), the rotation's numerator: quat_rot's entries */
    double q00 = ser_mul(q[0], q[0], k), q11 = ser_mul(q[1], q[1], k), q22 = ser_mul(q[2], q[2], k),
           q33 = ser_mul(q[3], q[3], k), q01 = ser_mul(q[0], q[1], k), q02 = ser_mul(q[0], q[2], k),
           q03 = ser_mul(q[0], q[3], k), q12 = ser_mul(q[1], q[2], k), q13 = ser_mul(q[1], q[3], k),
           q23 = ser_mul(q[2], q[3], k);
    double Mk[9] = { q00 + q11 - q22 - q33, 2 * (q12 - q03), 2 * (q13 + q02),
                     2 * (q12 + q03), q00 - q11 + q22 - q33, 2 * (q23 - q01),
                     2 * (q13 - q02), 2 * (q23 + q01), q00 - q11 - q22 + q33 };
    for (int i = 0; i < 9; i++)
        row[WM + i][k] = Mk[i];
    row[WN2][k] = q00 + q11 + q22 + q33;
    double sk = k ? 0 : 1;
    for (int l = 1; l <= k; l++)
        sk -= row[WN2][l] * row[WS][k - l];
    row[WS][k] = sk / row[WN2][0];
    for (int i = 0; i < 9; i++)
        row[WR + i][k] = ser_mul(row[WM + i], row[WS], k);
    for (int j = 0; j < 3; j++)
        row[WNB + j][k] = c[0] * row[WR + j][k] + c[1] * row[WR + 3 + j][k] + c[2] * row[WR + 6 + j][k];
    /* w x c, c = (0, 0, a), then w x (w x c) */
    row[WWC][k] = p[PA] * om[1][k];
    row[WWC + 1][k] = -p[PA] * om[0][k];
    row[WWC + 2][k] = 0;
    for (int i = 0; i < 3; i++) {
        int a = (i + 1) % 3, b = (i + 2) % 3;
        row[WWWC + i][k] = ser_mul(om[a], row[WWC + b], k) - ser_mul(om[b], row[WWC + a], k);
    }
    F[3 * K1 + k] = (p[PI2] - p[PI3]) * ser_mul(om[1], om[2], k);
    F[4 * K1 + k] = (p[PI3] - p[PI1]) * ser_mul(om[2], om[0], k);
    F[5 * K1 + k] = (p[PI1] - p[PI2]) * ser_mul(om[0], om[1], k);
    double gk = k ? 0 : -p[PRHO];
    for (int i = 0; i < 3; i++)
        gk += c[i] * (X[i * K1 + k] + p[PA] * row[WR + 3 * i + 2][k]);
    G[k] = gk;
    for (int i = 0; i < 3; i++)
        WV[i * K1 + k] = k ? 0 : c[i];
    /* c x n_b with c = (0, 0, a) */
    WV[3 * K1 + k] = -p[PA] * row[WNB + 1][k];
    WV[4 * K1 + k] = p[PA] * row[WNB][k];
    WV[5 * K1 + k] = 0;
    CV[k] = 0;
    for (int i = 0; i < 3; i++)
        CV[k] += ser_mul(row[WNB + i], row[WWWC + i], k);
}

static nsm_model model = {
    .abi = NSM_ABI_VERSION, .name = "sphere_plane", .title = "",
    .n_bodies = NB, .n_params = NPAR, .n_gaps = 1, .n_consts = 3, .body_names = body_names,
    .params = params, .gaps = gaps,
    .t_end = 1, .dt = 1e-4, .method = NSM_METHOD_RK4,
    .setup = setup, .nnz_W = 6,
    .nl = NSM_NL_FORCE | NSM_NL_GAP, .nl_force = rigid_nl_force, .gap_curved = gap_curved,
    .gap_ncols = gap_ncols, .gap_cols = gap_cols, .n_wcurved = 6, .nl_gap = nl_gap,
    .nl_nwork = NWORK, .nl_series = nl_series,
    .nq = NQ, .nu = NB, .n_rigid = 1, .rigid_rot = rigid_rot, .kin = rigid_kin,
};

/* Whether the method under test is taylor: its impacts are located on the
** series above and held to 1e-14 s, where rk4's and adaptive's are held
** to 1e-12 s. */
static int taylor_run;

/* The tolerance of a check: `loose` for rk4 and adaptive, `tight` for
** taylor. */
static double tol(double loose, double tight)
{
    return taylor_run ? tight : loose;
}

/* The events of a run: impacts and zeno records, and the state just after
** the first impact. */
typedef struct Log {
    int n, nzeno;
    nsm_event ev[256], zeno;
    double y1[NY];
    int have_y1;
} Log;

/* Event handler: keeps the impacts and the last zeno record. */
static int on_event(void *ud, const nsm_sim *s, const nsm_event *ev)
{
    Log *L = ud;
    if (ev->kind == NSM_EV_ZENO) {
        L->zeno = *ev;
        L->nzeno++;
    }
    if (ev->kind != NSM_EV_IMPACT)
        return 0;
    if (!L->have_y1) {
        memcpy(L->y1, nsm_sim_state(s), sizeof L->y1);
        L->have_y1 = 1;
    }
    if (L->n < (int)(sizeof L->ev / sizeof L->ev[0]))
        L->ev[L->n] = *ev;
    L->n++;
    return 0;
}

/* A simulation of tab with the parameters pv (NPAR values), the method and
** the start y0; NULL (with the reason printed) when the reset fails. */
static nsm_sim *start(const nsm_model *tab, const double *pv, int method, const double *y0, Log *L)
{
    nsm_sim *s = nsm_sim_create(tab);
    if (!s)
        return NULL;
    for (int k = 0; k < NPAR; k++)
        nsm_sim_set_param(s, params[k].name, pv[k]);
    nsm_sim_set_method(s, method);
    taylor_run = method == NSM_METHOD_TAYLOR;
    if (method == NSM_METHOD_RK4)
        nsm_sim_set_dt(s, 1e-4);
    else if (method == NSM_METHOD_ADAPTIVE)
        nsm_sim_set_tolerances(s, 1e-13, 1e-15);
    nsm_sim_set_every(s, 0.25);
    nsm_sim_set_initial_state(s, y0);
    if (L) {
        memset(L, 0, sizeof *L);
        nsm_sim_set_event_handler(s, on_event, L);
    }
    if (nsm_sim_reset(s)) {
        printf("reset failed: %s\n", nsm_sim_message(s));
        nsm_sim_free(s);
        return NULL;
    }
    return s;
}

/* The unit quaternion of a rotation by th about the unit axis k, into y. */
static void set_quat(double th, const double *k, double *y)
{
    y[P0] = cos(th / 2);
    for (int i = 0; i < 3; i++)
        y[P1 + i] = sin(th / 2) * k[i];
}

/* The run's energy balance E0 + W - D - (T + V) against the largest energy. */
static void check_balance(nsm_sim *s, const char *what, double E)
{
    double kin, pot, diss, inj, err = nsm_sim_energy(s, &kin, &pot, &diss, &inj);
    check_close(what, err, 0, tol(1e-10, 1e-13) * E);
    printf("%s: %.2g J (of %.4g J)\n", what, err, E);
}

/* A ball spinning and bouncing on the tilted plane, through its Zeno
** accumulation to the held slide. */
static void ball_bouncing(int method, const char *mname)
{
    double pv[NPAR] = { 2, 0.008, 0.008, 0.008, 9.81, 0, 0.1, 0.3, 0.5 };
    double m = pv[PM], g = pv[PG], rho = pv[PRHO], al = pv[PALPHA], e = pv[PE];
    double n[3] = { -sin(al), 0, cos(al) }, tt[3] = { cos(al), 0, sin(al) };
    double h0 = 0.5, un0 = 1.0, ut0 = 0.7, uy0 = 0.4, w0[3] = { 3, -2, 5 }, ax[3] = { 1, 0, 0 };
    double y0[NY];
    memset(y0, 0, sizeof y0);
    for (int i = 0; i < 3; i++) {
        y0[i] = (rho + h0) * n[i];
        y0[U + i] = un0 * n[i] + ut0 * tt[i];
        y0[W1 + i] = w0[i];
    }
    y0[U + 1] = uy0;
    set_quat(0.4, ax, y0);
    Log L;
    nsm_sim *s = start(&model, pv, method, y0, &L);
    check_true("bouncing ball starts", s != NULL);
    if (!s)
        return;
    /* the motion normal to the plane: a ball bouncing under gn */
    double gn = g * cos(al), u1 = sqrt(un0 * un0 + 2 * gn * h0), t1 = (un0 + u1) / gn;
    double tinf = t1 + 2 * e * u1 / (gn * (1 - e)), T = tinf + 0.5;
    int rc = nsm_sim_run_until(s, T);
    check_true("bouncing ball runs", rc == 0);
    if (rc)
        printf("  %s\n", nsm_sim_message(s));
    char what[200];
    double tk = t1, uk = u1, dt = 0, du = 0;
    for (int k = 0; k < 6 && k < L.n; k++) {
        snprintf(what, sizeof what, "%s ball impact %d time", mname, k + 1);
        check_close(what, L.ev[k].t, tk, tol(1e-12, 1e-14) * (1 + tk));
        snprintf(what, sizeof what, "%s ball impact %d normal velocity before", mname, k + 1);
        check_close(what, L.ev[k].vrel_before, -uk, tol(1e-11, 1e-14) * u1);
        snprintf(what, sizeof what, "%s ball impact %d normal velocity after (Newton)", mname, k + 1);
        check_close(what, L.ev[k].vrel_after, e * uk, tol(1e-11, 1e-14) * u1);
        snprintf(what, sizeof what, "%s ball impact %d impulse (1 + e) m u", mname, k + 1);
        check_close(what, L.ev[k].impulse, (1 + e) * m * uk, 1e-11 * m * u1);
        snprintf(what, sizeof what, "%s ball impact %d energy lost", mname, k + 1);
        check_close(what, L.ev[k].energy_lost, 0.5 * m * (1 - e * e) * uk * uk,
                    1e-11 * m * u1 * u1);
        dt = fmax(dt, fabs(L.ev[k].t - tk));
        du = fmax(du, fabs(L.ev[k].vrel_before + uk));
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
    snprintf(what, sizeof what, "%s held ball's normal velocity", mname);
    check_close(what, dot3(v, n), 0, 1e-12);
    snprintf(what, sizeof what, "%s held ball's centre at rho from the plane", mname);
    check_close(what, dot3(r, n), rho, 1e-12);
    /* in the plane nothing but gravity acts (frictionless) */
    snprintf(what, sizeof what, "%s ball's velocity up the slope at T", mname);
    check_close(what, dot3(v, tt), ut0 - g * sin(al) * T, 1e-11);
    snprintf(what, sizeof what, "%s ball's position up the slope at T", mname);
    check_close(what, dot3(r, tt), ut0 * T - 0.5 * g * sin(al) * T * T, 1e-11);
    snprintf(what, sizeof what, "%s ball's velocity across the slope", mname);
    check_close(what, v[1], uy0, 1e-12);
    for (int i = 0; i < 3; i++) {
        snprintf(what, sizeof what, "%s ball's w[%d] unchanged by frictionless impacts", mname, i);
        check_close(what, y[W1 + i], w0[i], 1e-12);
    }
    double E = 0.5 * m * (un0 * un0 + ut0 * ut0 + uy0 * uy0) + m * g * y0[2] +
               0.5 * pv[PI1] * dot3(w0, w0);
    snprintf(what, sizeof what, "%s bouncing ball's energy balance", mname);
    check_balance(s, what, E);
    printf("%s bouncing ball: %d impacts, first 6 within %.2g s and %.2g m/s, Zeno at %.15g "
           "(closed form %.15g), then held\n", mname, L.n, dt, du, L.zeno.t, tinf);
    nsm_sim_free(s);
}

/* A spinning ball resting on the tilted plane from the start, sliding. */
static void ball_resting(int method, const char *mname)
{
    double pv[NPAR] = { 3, 0.012, 0.012, 0.012, 9.81, 0, 0.1, 0.4, 0.5 };
    double m = pv[PM], g = pv[PG], rho = pv[PRHO], al = pv[PALPHA];
    double n[3] = { -sin(al), 0, cos(al) }, tt[3] = { cos(al), 0, sin(al) };
    double ut0 = 0.5, uy0 = 0.3, w0[3] = { 1, 2, -3 }, ax[3] = { 0, 0.6, 0.8 }, y0[NY];
    memset(y0, 0, sizeof y0);
    for (int i = 0; i < 3; i++) {
        y0[i] = rho * n[i];
        y0[U + i] = ut0 * tt[i];
        y0[W1 + i] = w0[i];
    }
    y0[U + 1] = uy0;
    set_quat(1.1, ax, y0);
    Log L;
    nsm_sim *s = start(&model, pv, method, y0, &L);
    check_true("resting ball starts", s != NULL);
    if (!s)
        return;
    char what[200];
    double dl = 0;
    for (int k = 1; k <= 6; k++) {
        double t = 0.25 * k;
        int rc = nsm_sim_run_until(s, t);
        check_true("resting ball runs", rc == 0);
        if (rc) {
            printf("  %s\n", nsm_sim_message(s));
            break;
        }
        const double *y = nsm_sim_state(s);
        double lam[1] = { 0 }, v[3] = { y[U], y[U + 1], y[U + 2] }, r[3] = { y[0], y[1], y[2] };
        nsm_sim_forces(s, lam);
        snprintf(what, sizeof what, "%s resting ball held at t = %g", mname, t);
        check_true(what, nsm_sim_mode_has(s, 0) == 1);
        snprintf(what, sizeof what, "%s resting ball's contact force m g cos(alpha), t = %g",
                 mname, t);
        check_close(what, lam[0], m * g * cos(al), tol(1e-12, 1e-14) * m * g);
        dl = fmax(dl, fabs(lam[0] - m * g * cos(al)));
        snprintf(what, sizeof what, "%s resting ball's position up the slope, t = %g", mname, t);
        check_close(what, dot3(r, tt), ut0 * t - 0.5 * g * sin(al) * t * t, 1e-12);
        snprintf(what, sizeof what, "%s resting ball's centre at rho, t = %g", mname, t);
        check_close(what, dot3(r, n), rho, 1e-12);
        snprintf(what, sizeof what, "%s resting ball's velocity across, t = %g", mname, t);
        check_close(what, v[1], uy0, 1e-13);
        for (int i = 0; i < 3; i++) {
            snprintf(what, sizeof what, "%s resting ball's w[%d], t = %g", mname, i, t);
            check_close(what, y[W1 + i], w0[i], 1e-12);
        }
    }
    check_true("resting ball has no impact", L.n == 0);
    double E = 0.5 * m * (ut0 * ut0 + uy0 * uy0) + m * g * fabs(y0[2]) + 0.5 * pv[PI1] * dot3(w0, w0);
    snprintf(what, sizeof what, "%s resting ball's energy balance", mname);
    check_balance(s, what, E);
    printf("%s resting ball, 1.5 s: held, contact force within %.2g N of m g cos(alpha)\n", mname,
           dl);
    nsm_sim_free(s);
}

/* An eccentric sphere dropped tilted without spin on the horizontal plane:
** its first impact against Newton's law with W_N worked out by hand. */
static void eccentric_drop(int method, const char *mname)
{
    double pv[NPAR] = { 1.5, 0.02, 0.03, 0.025, 9.81, 0.04, 0.1, 0, 0.6 };
    double m = pv[PM], g = pv[PG], a = pv[PA], rho = pv[PRHO], e = pv[PE];
    double I[3] = { pv[PI1], pv[PI2], pv[PI3] };
    double th = 0.5, be = 0.7, ax[3] = { cos(be), sin(be), 0 }, z0 = 0.6, vx = 0.2, vy = -0.1;
    double y0[NY];
    memset(y0, 0, sizeof y0);
    y0[2] = z0;
    y0[U] = vx;
    y0[U + 1] = vy;
    set_quat(th, ax, y0);
    Log L;
    nsm_sim *s = start(&model, pv, method, y0, &L);
    check_true("eccentric sphere starts", s != NULL);
    if (!s)
        return;
    /* the reference: without spin the body keeps R0; the sphere's lowest
     * point falls freely until z0 - g t^2/2 + (R0 c)_z - rho = 0 */
    double c[3] = { 0, 0, a };
    DropRef ref = drop_ref(m, I, c, rho, th, ax, z0, g, e);
    double t1 = ref.t1, gd = ref.gd, D = ref.D, P = ref.P, *k = ref.k;
    int rc = nsm_sim_run_until(s, t1 + 0.25);
    check_true("eccentric sphere runs", rc == 0);
    if (rc)
        printf("  %s\n", nsm_sim_message(s));
    char what[200];
    check_true("eccentric sphere impacts", L.n >= 1 && L.have_y1);
    if (L.n >= 1 && L.have_y1) {
        const double *y1 = L.y1;
        snprintf(what, sizeof what, "%s eccentric sphere's first impact time", mname);
        check_close(what, L.ev[0].t, t1, tol(1e-12, 1e-14));
        snprintf(what, sizeof what, "%s eccentric sphere's gap rate before", mname);
        check_close(what, L.ev[0].vrel_before, gd, tol(1e-11, 1e-14));
        snprintf(what, sizeof what, "%s eccentric sphere's gap rate after (-e before)", mname);
        check_close(what, L.ev[0].vrel_after, -e * gd, 1e-11);
        snprintf(what, sizeof what, "%s eccentric sphere's impulse", mname);
        check_close(what, L.ev[0].impulse, P, 1e-11 * P);
        snprintf(what, sizeof what, "%s eccentric sphere's energy lost", mname);
        check_close(what, L.ev[0].energy_lost, 0.5 * (1 - e * e) * gd * gd / D, 1e-11 * m * gd * gd);
        double want_v[3] = { vx, vy, gd + P / m };
        for (int i = 0; i < 3; i++) {
            snprintf(what, sizeof what, "%s eccentric sphere's v[%d] after", mname, i);
            check_close(what, y1[U + i], want_v[i], tol(1e-11, 1e-14));
            snprintf(what, sizeof what, "%s eccentric sphere's w[%d] after = (c x n_b) P / I",
                     mname, i);
            check_close(what, y1[W1 + i], k[i] * P / I[i], tol(1e-11, 1e-14));
        }
        double dw = 0, dv = 0;
        for (int i = 0; i < 3; i++) {
            dw = fmax(dw, fabs(y1[W1 + i] - k[i] * P / I[i]));
            dv = fmax(dv, fabs(y1[U + i] - want_v[i]));
        }
        printf("%s eccentric sphere: impact at %.15g s (closed form %.15g), w+ = (%.12g, %.12g, "
               "%.12g) rad/s within %.2g, v+ within %.2g, impulse within %.2g\n", mname,
               L.ev[0].t, t1, y1[W1], y1[W1 + 1], y1[W1 + 2], dw, dv, fabs(L.ev[0].impulse - P));
    }
    const double *y = nsm_sim_state(s);
    double pn = sqrt(y[P0] * y[P0] + y[P1] * y[P1] + y[P1 + 1] * y[P1 + 1] + y[P1 + 2] * y[P1 + 2]);
    snprintf(what, sizeof what, "%s eccentric sphere |p| = 1", mname);
    check_close(what, pn, 1, 4e-16);
    double E = 0.5 * m * (vx * vx + vy * vy) + m * g * z0;
    snprintf(what, sizeof what, "%s eccentric sphere's energy balance", mname);
    check_balance(s, what, E);
    nsm_sim_free(s);
}

/* The sphere's gap of the spinning drop below: z0 - g t^2/2 + a cos(w1 t) - rho. */
static double spin_gap(double t, double z0, double g, double a, double w1, double rho)
{
    return z0 - 0.5 * g * t * t + a * cos(w1 * t) - rho;
}

/* An eccentric sphere dropped spinning about the body's 1-axis, a
** principal axis, so that w stays (w1, 0, 0) and R = Rx(w1 t) in flight:
** its centre (0, 0, a) is at height a cos(w1 t) above the centre of mass,
** and the first impact is the first root of z0 - g t^2/2 + a cos(w1 t) -
** rho, found here by a scan and bisection to the last bit.  At the
** impact n_b = R^T e_z = (0, sin th, cos th), W_N = (e_z, (-a sin th, 0,
** 0)), so P = -(1 + e) gdot- / (1/m + a^2 sin^2 th / I1), vz+ = vz- + P/m,
** w1+ = w1 - a sin th P / I1.  The gap's series above orders 0 and 1 carry
** the rotation here (with a = 0 or without spin they are the centre's). */
static void spinning_drop(int method, const char *mname)
{
    double pv[NPAR] = { 1.5, 0.02, 0.03, 0.025, 9.81, 0.04, 0.1, 0, 0.6 };
    double m = pv[PM], g = pv[PG], a = pv[PA], rho = pv[PRHO], e = pv[PE], I1 = pv[PI1];
    double z0 = 0.6, w1 = 7, y0[NY], ax[3] = { 1, 0, 0 };
    memset(y0, 0, sizeof y0);
    y0[2] = z0;
    y0[W1] = w1;
    set_quat(0, ax, y0);
    double lo = 0, hi = 0;
    while (spin_gap(hi, z0, g, a, w1, rho) > 0)
        lo = hi, hi += 1e-3;
    for (int it = 0; it < 200 && nextafter(lo, hi) < hi; it++) {
        double mid = 0.5 * (lo + hi);
        if (spin_gap(mid, z0, g, a, w1, rho) > 0)
            lo = mid;
        else
            hi = mid;
    }
    double t1 = lo, th = w1 * t1, sn = sin(th);
    double gd = -g * t1 - a * sn * w1, D = 1 / m + a * a * sn * sn / I1, P = -(1 + e) * gd / D;
    Log L;
    nsm_sim *s = start(&model, pv, method, y0, &L);
    check_true("spinning drop starts", s != NULL);
    if (!s)
        return;
    int rc = nsm_sim_run_until(s, t1 + 0.05);
    check_true("spinning drop runs", rc == 0);
    if (rc)
        printf("  %s\n", nsm_sim_message(s));
    char what[200];
    check_true("spinning drop impacts", L.n >= 1 && L.have_y1);
    if (L.n >= 1 && L.have_y1) {
        snprintf(what, sizeof what, "%s spinning drop's first impact time", mname);
        check_close(what, L.ev[0].t, t1, tol(1e-12, 1e-14));
        snprintf(what, sizeof what, "%s spinning drop's gap rate before", mname);
        check_close(what, L.ev[0].vrel_before, gd, tol(1e-11, 1e-13));
        snprintf(what, sizeof what, "%s spinning drop's vz after", mname);
        check_close(what, L.y1[U + 2], -g * t1 + P / m, tol(1e-11, 1e-13));
        snprintf(what, sizeof what, "%s spinning drop's w1 after", mname);
        check_close(what, L.y1[W1], w1 - a * sn * P / I1, tol(1e-10, 1e-12));
        printf("%s spinning drop: impact at %.17g s (closed form %.17g, %.2g s off)\n", mname,
               L.ev[0].t, t1, L.ev[0].t - t1);
    }
    double E = m * g * z0 + 0.5 * I1 * w1 * w1;
    snprintf(what, sizeof what, "%s spinning drop's energy balance", mname);
    check_balance(s, what, E);
    nsm_sim_free(s);
}

/* An eccentric symmetric sphere spinning tilted on the horizontal plane,
** held from the start: the contact force at the start from gddot = 0 with
** the curvature term, lambda = (g + k . I^-1 (w x I w) - n_b . (w x (w x
** c))) / D, k = c x n_b; then, frictionless, the horizontal velocity and
** the vertical angular momentum (R I w)_z constant and the energy balance
** closing while it slides and precesses. */
static void eccentric_held(int method, const char *mname)
{
    double pv[NPAR] = { 1.5, 0.02, 0.02, 0.025, 9.81, 0.04, 0.1, 0, 0.6 };
    double m = pv[PM], g = pv[PG], a = pv[PA], rho = pv[PRHO];
    double I[3] = { pv[PI1], pv[PI2], pv[PI3] }, w0[3] = { 0.5, 0.2, 4 };
    double th = 0.3, ax[3] = { 1, 0, 0 }, vx = 0.1, vy = -0.05, y0[NY];
    double R[3][3], c[3] = { 0, 0, a }, nb[3], k[3], Iw[3], wIw[3], wc[3], wwc[3];
    rodrigues(th, ax, R);
    for (int i = 0; i < 3; i++) {
        nb[i] = R[2][i];
        Iw[i] = I[i] * w0[i];
    }
    cross(c, nb, k);
    cross(w0, Iw, wIw);
    cross(w0, c, wc);
    cross(w0, wc, wwc);
    double D = 1 / m + k[0] * k[0] / I[0] + k[1] * k[1] / I[1] + k[2] * k[2] / I[2];
    double gyro = k[0] * wIw[0] / I[0] + k[1] * wIw[1] / I[1] + k[2] * wIw[2] / I[2];
    double lam0 = (g + gyro - dot3(nb, wwc)) / D;
    double Lz0 = R[2][0] * Iw[0] + R[2][1] * Iw[1] + R[2][2] * Iw[2];
    memset(y0, 0, sizeof y0);
    y0[2] = rho - (R[2][0] * c[0] + R[2][1] * c[1] + R[2][2] * c[2]);
    y0[U] = vx;
    y0[U + 1] = vy;
    y0[U + 2] = -dot3(k, w0);           /* touching with gdot = 0 */
    for (int i = 0; i < 3; i++)
        y0[W1 + i] = w0[i];
    set_quat(th, ax, y0);
    Log L;
    nsm_sim *s = start(&model, pv, method, y0, &L);
    check_true("eccentric held sphere starts", s != NULL);
    if (!s)
        return;
    char what[200];
    double lam[1] = { 0 };
    nsm_sim_forces(s, lam);
    snprintf(what, sizeof what, "%s eccentric held sphere's contact force at the start", mname);
    check_close(what, lam[0], lam0, 1e-12 * m * g);
    check_true("eccentric held sphere starts held", nsm_sim_mode_has(s, 0) == 1);
    int rc = nsm_sim_run_until(s, 1);
    check_true("eccentric held sphere runs", rc == 0);
    if (rc)
        printf("  %s\n", nsm_sim_message(s));
    const double *y = nsm_sim_state(s);
    double Rt[3][3], Lz = 0;
    rigid_rotation(y, Rt);
    for (int i = 0; i < 3; i++)
        Lz += Rt[2][i] * I[i] * y[W1 + i];
    snprintf(what, sizeof what, "%s eccentric held sphere's vx", mname);
    check_close(what, y[U], vx, 1e-12);
    snprintf(what, sizeof what, "%s eccentric held sphere's vy", mname);
    check_close(what, y[U + 1], vy, 1e-12);
    snprintf(what, sizeof what, "%s eccentric held sphere's vertical angular momentum", mname);
    check_close(what, Lz, Lz0, tol(1e-11, 1e-14) * fabs(Lz0));
    check_true("eccentric held sphere stays held without impacts",
               nsm_sim_mode_has(s, 0) == 1 && L.n == 0);
    double E = 0.5 * m * (vx * vx + vy * vy + y0[U + 2] * y0[U + 2]) + m * g * y0[2] +
               0.5 * dot3(w0, Iw);
    snprintf(what, sizeof what, "%s eccentric held sphere's energy balance", mname);
    check_balance(s, what, E);
    printf("%s eccentric held sphere: contact force %.15g N at the start (closed form %.15g), "
           "L_z drift %.2g\n", mname, lam[0], lam0, Lz - Lz0);
    nsm_sim_free(s);
}

/* A variant of the table is refused at the run with a message naming what
** is not built. */
static void refused(const nsm_model *tab, int method, const char *what, const char *needle)
{
    double pv[NPAR] = { 2, 0.008, 0.008, 0.008, 9.81, 0, 0.1, 0.3, 0.5 }, y0[NY];
    memset(y0, 0, sizeof y0);
    y0[2] = 1;
    y0[P0] = 1;
    nsm_sim *s = start(tab, pv, method, y0, NULL);
    int rc = s ? nsm_sim_run_until(s, 0.1) : -1;
    const char *msg = s ? nsm_sim_message(s) : "";
    check_true(what, rc != 0 && rc != -1 && strstr(msg, needle) != NULL);
    printf("refused (rc %d): %s\n", rc, msg);
    nsm_sim_free(s);
}

/* Affine gap: the plane z = 0 written on the body's w1 slot too. */
static int setup_affine(const double *p, double *c, nsm_numeric *num)
{
    setup(p, c, num);
    num->W.val[2] = 1;
    num->W.val[3] = 1;
    return 0;
}

/* What is not built refuses with a message naming it. */
static void refusals(void)
{
    static const nsm_friction_info fr[] = { { "slip", 0 } };
    static const nsm_gap_info pen[] = { { "floor", NSM_LAW_PENALTY, NSM_RELEASE_GAP } };
    nsm_model t = model;
    t.n_frictions = 1;
    t.frictions = fr;
    refused(&t, NSM_METHOD_RK4, "a scalar friction element on a body in space is refused",
            "takes spatial friction elements");
    t = model;
    t.gaps = pen;
    refused(&t, NSM_METHOD_ADAPTIVE, "a penalty contact of a body in space is refused",
            "penalty law");
    t = model;
    t.nl = NSM_NL_FORCE;
    t.gap_curved = NULL, t.gap_ncols = NULL, t.gap_cols = NULL, t.n_wcurved = 0, t.nl_gap = NULL;
    t.setup = setup_affine;
    refused(&t, NSM_METHOD_RK4, "an affine gap over a body's rotation slots is refused",
            "curved gap");
    refused(&model, NSM_METHOD_EXACT, "method exact refuses a body in space's contact",
            "bodies in space");
}

int main(void)
{
    const int methods[] = { NSM_METHOD_RK4, NSM_METHOD_ADAPTIVE, NSM_METHOD_TAYLOR };
    const char *names[] = { "rk4", "adaptive", "taylor" };
    for (int k = 0; k < 3; k++) {
        ball_bouncing(methods[k], names[k]);
        ball_resting(methods[k], names[k]);
        eccentric_drop(methods[k], names[k]);
        eccentric_held(methods[k], names[k]);
        spinning_drop(methods[k], names[k]);
    }
    refusals();
    return check_report();
}
