/*
** test_space_impact.c: frictional impacts of a body in space (Glocker's
** law at a sphere-plane contact, docs/theory.md section 19), run by rk4 and
** adaptive against closed forms and tests/reference/tippe_top.py.
**
** The model table is written here by hand, independently of nsmc, on the
** layout of test_rigid_contact.c (q = (x, y, z, p1, p2, p3, p0), u = (v, w),
** w in the body frame): one rigid body, gravity along -z, two curved impact
** gaps of the sphere of radius rho centred at the body point c = (0, 0, a),
** the floor z = 0 (normal +z) and a table's underside z = H (normal -z),
** each with a spatial friction element (nsm_space_friction: mu, e_F, the
** drilling radius) and Newton's e_N.  The references:
**   - the super ball (Garwin; tests/reference/super_ball.py): a ball (a = 0,
**     I = 2/5 m rho^2) between floor and table.  Its normal and friction
**     rows are M^-1-orthogonal and its friction block isotropic, so the law
**     has the closed form, worked out here in vector form: P_N = (1 + e_N) m
**     |gamma_N-|, sticking P_T = -(1 + e_F) gamma_T- / (1/m + rho^2/th),
**     sliding P_T = -mu P_N gamma_T-/|gamma_T-| (the direction is the
**     pre-impact slip's), v+ = v- + P_T/m + n P_N/m, w+ = w- + s x P_T/th
**     (s the contact point from the centre).  Garwin's floor-table-floor
**     sequence without gravity sends (vx, r w) = (v, 0) to (-333/343 v,
**     130/343 v), exact rationals from the script; with gravity the impact
**     times are roots of quadratics; e = 1 sticking impacts keep the energy;
**   - a sliding impact (small mu) in a 3-D direction, same closed form;
**   - the tippe top's landing (issue 24's parameters, drilling on, e_N =
**     e_F = 0): t = sqrt(2 g_N0 / g) and the post-impact state and the
**     kinetic energy lost against tippe_top.py --landing (its own fixed
**     point in mpmath, 25 digits); the run then stops, the contact being
**     held (friction in flight is not built here);
**   - an eccentric sphere whose coupled rows make e_N = 1, e_F = 0 create
**     energy (gamma_F- = H_FF^-1 H_FN |gamma_N-|, H = G^-1 worked out here):
**     the run stops with Glocker's consistency named;
**   - two contacts at one instant: a dumbbell (dumbbell = 1: the second gap
**     is a second sphere at (0, 0, -a) on the floor) landing flat, against
**     the closed form its mirror symmetry gives; a ball squeezed
**     elastically between floor and table, which has no answer (refused);
**   - a frictional ball bouncing to rest: no Zeno jump, the held contact
**     refused;
**   - the kernel of the law (rt_spimp_law) on 4000 random contacts: every
**     answer satisfies the law's conditions, checked here.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nsm/model.h"
#include "nsm/nsm.h"

#include "check.h"
#include "rigid_table.h"

/* The state's layout: q = (x, y, z, p1, p2, p3, p0), u = (vx, vy, vz, w1, w2, w3). */
enum { NB = 6, NQ = 7, P1 = 3, P0 = 6, U = NQ, W1 = NQ + 3, NY = NQ + NB };
/* The parameters' indices. */
enum { PM, PI1, PI2, PI3, PG, PA, PRHO, PH, PEN, PEF, PMU, PRD, PDB, NPAR };

static const nsm_param_info params[] = {
    { "m", "kg", 0.05 }, { "I1", "kg*m^2", 1.25e-5 }, { "I2", "kg*m^2", 1.25e-5 },
    { "I3", "kg*m^2", 1.25e-5 }, { "g", "m/s^2", 0 }, { "a", "m", 0 }, { "rho", "m", 0.025 },
    { "H", "m", 0.5 }, { "eN", "", 1 }, { "eF", "", 1 }, { "mu", "", 100 }, { "Rd", "m", 0 },
    { "dumbbell", "", 0 },
};
static const char *const body_names[] = { "B.x", "B.y", "B.z", "B.w1", "B.w2", "B.w3" };
static const int rigid_rot[] = { 3 };
static const nsm_gap_info gaps[] = { { "floor", NSM_LAW_IMPACT, 0 }, { "table", NSM_LAW_IMPACT, 0 } };
static const nsm_space_friction sfr[] = { { "floor_friction", 0, 0 }, { "table_friction", 1, 0 } };
static const unsigned char gap_curved[] = { 1, 1 };
static const int gap_ncols[] = { 6, 6 };
static const int cols_all[] = { 0, 1, 2, 3, 4, 5 };
static const int *const gap_cols[] = { cols_all, cols_all };

/* The planes' unit normals: the floor's, the table's (n . x = d, d in c[j]). */
static const double nrm[2][3] = { { 0, 0, 1 }, { 0, 0, -1 } };

/* With dumbbell = 1 the second gap is instead a second sphere of the
** body, centred at (0, 0, -a), against the floor: the normal of gap j and
** the sign of its sphere's centre along e3. */
static const double *gap_normal(const double *p, int j) { return p[PDB] != 0 ? nrm[0] : nrm[j]; }
static double gap_side(const double *p, int j) { return p[PDB] != 0 && j == 1 ? -1 : 1; }

/* Masses diag(m, m, m, I1, I2, I3), the weight -m g on z, the gaps'
** pattern, Newton's e_N, and the friction elements' numbers. */
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
    for (int j = 0; j < 2; j++) {
        for (int k = 0; k < 6; k++) {
            num->W.row[6 * j + k] = j;
            num->W.col[6 * j + k] = k;
            num->W.val[6 * j + k] = 0;
        }
        num->d[j] = 0;
        num->e[j] = p[PEN];
        num->kc[j] = 1e6;
        for (int i = 0; i < 3; i++) {
            num->sf_centre[3 * j + i] = i == 2 ? gap_side(p, j) * p[PA] : 0;
            num->sf_normal[3 * j + i] = gap_normal(p, j)[i];
        }
        num->sf_radius[j] = p[PRHO];
        num->sf_mu[j] = p[PMU];
        num->sf_et[j] = p[PEF];
        num->sf_drill[j] = p[PRD];
    }
    c[0] = 0;             /* the floor's offset */
    c[1] = p[PDB] != 0 ? 0 : -p[PH];  /* the table's: -z = -H */
    return 0;
}

static double dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* The two gaps, their curvature terms and rows over the velocities
** (nsm/model.h): g = n . (r + R c) - d - rho, W = (n, c x n_b), curv = n_b
** . (w x (w x c)). */
static void nl_gap(const double *y, const double *p, const double *c, double *g, double *curv,
                   double *wval)
{
    double R[3][3];
    rigid_rotation(y, R);
    for (int j = 0; j < 2; j++) {
        const double *n = gap_normal(p, j);
        double nb[3], k[3], ctr = 0, cb[3] = { 0, 0, gap_side(p, j) * p[PA] }, wc[3], wwc[3];
        rigid_cross(y + W1, cb, wc);
        rigid_cross(y + W1, wc, wwc);
        for (int i = 0; i < 3; i++) {
            nb[i] = R[0][i] * n[0] + R[1][i] * n[1] + R[2][i] * n[2];
            ctr += n[i] * (y[i] + R[i][0] * cb[0] + R[i][1] * cb[1] + R[i][2] * cb[2]);
        }
        g[j] = ctr - c[j] - p[PRHO];
        rigid_cross(cb, nb, k);
        for (int i = 0; i < 3; i++) {
            wval[6 * j + i] = n[i];
            wval[6 * j + 3 + i] = k[i];
        }
        curv[j] = dot3(nb, wwc);
    }
}

static nsm_model model = {
    .abi = NSM_ABI_VERSION, .name = "ball_in_space", .title = "",
    .n_bodies = NB, .n_params = NPAR, .n_gaps = 2, .n_consts = 2, .body_names = body_names,
    .params = params, .gaps = gaps,
    .t_end = 1, .dt = 1e-4, .method = NSM_METHOD_RK4,
    .setup = setup, .nnz_W = 12,
    .nl = NSM_NL_FORCE | NSM_NL_GAP, .nl_force = rigid_nl_force, .gap_curved = gap_curved,
    .gap_ncols = gap_ncols, .gap_cols = gap_cols, .n_wcurved = 12, .nl_gap = nl_gap,
    .nq = NQ, .nu = NB, .n_rigid = 1, .rigid_rot = rigid_rot, .kin = rigid_kin,
    .n_space_frictions = 2, .space_frictions = sfr,
};

#define MAXIMP 16

/* The impacts of a run and the state just after each. */
typedef struct Log {
    int n, nzeno;
    nsm_event ev[MAXIMP];
    double y[MAXIMP][NY];
} Log;

/* Event handler: keeps the impacts and the state after each. */
static int on_event(void *ud, const nsm_sim *s, const nsm_event *ev)
{
    Log *L = ud;
    L->nzeno += ev->kind == NSM_EV_ZENO;
    if (ev->kind != NSM_EV_IMPACT)
        return 0;
    if (L->n < MAXIMP) {
        L->ev[L->n] = *ev;
        memcpy(L->y[L->n], nsm_sim_state(s), sizeof L->y[0]);
    }
    L->n++;
    return 0;
}

/* A simulation with the parameters pv, the method and the start y0; NULL
** (with the reason printed) when the reset fails. */
static nsm_sim *start(const double *pv, int method, const double *y0, Log *L, double dt)
{
    nsm_sim *s = nsm_sim_create(&model);
    if (!s)
        return NULL;
    for (int k = 0; k < NPAR; k++)
        nsm_sim_set_param(s, params[k].name, pv[k]);
    nsm_sim_set_method(s, method);
    if (method == NSM_METHOD_RK4)
        nsm_sim_set_dt(s, dt);
    else
        nsm_sim_set_tolerances(s, 1e-13, 1e-15);
    nsm_sim_set_initial_state(s, y0);
    memset(L, 0, sizeof *L);
    nsm_sim_set_event_handler(s, on_event, L);
    if (nsm_sim_reset(s)) {
        printf("reset failed: %s\n", nsm_sim_message(s));
        nsm_sim_free(s);
        return NULL;
    }
    return s;
}

/* A ball's state in the reference: centre, velocity, angular velocity in
** the world frame (a ball's is constant in flight). */
typedef struct Ball {
    double r[3], v[3], w[3];
} Ball;

/* The ball's closed-form impact on plane j (0 floor, 1 table): Glocker's
** law with the rows uncoupled (see the header); *stuck says which branch. */
static void ball_impact(const double *pv, int j, Ball *b, int *stuck)
{
    double m = pv[PM], rho = pv[PRHO], th = pv[PI1], mu = pv[PMU];
    const double *n = nrm[j];
    double s[3], ws[3], gt[3], PT[3];
    for (int i = 0; i < 3; i++)
        s[i] = -rho * n[i];
    rigid_cross(b->w, s, ws);
    double gn = dot3(n, b->v);
    for (int i = 0; i < 3; i++)
        gt[i] = b->v[i] + ws[i] - gn * n[i];       /* the contact point's slip */
    double PN = -(1 + pv[PEN]) * m * gn, lt = sqrt(dot3(gt, gt));
    for (int i = 0; i < 3; i++)
        PT[i] = -(1 + pv[PEF]) * gt[i] / (1 / m + rho * rho / th);
    *stuck = sqrt(dot3(PT, PT)) <= mu * PN;
    for (int i = 0; !*stuck && i < 3; i++)
        PT[i] = -mu * PN * gt[i] / lt;
    double sP[3];
    rigid_cross(s, PT, sP);
    for (int i = 0; i < 3; i++) {
        b->v[i] += (PT[i] + n[i] * PN) / m;
        b->w[i] += sP[i] / th;
    }
}

/* The next impact of the ball in flight under gravity g along -z: its time
** from now (roots of the quadratics z(t) = rho, z(t) = H - rho, the first
** that comes) and the plane; the ball moved there. */
static double ball_flight(const double *pv, Ball *b, int *j)
{
    double g = pv[PG], rho = pv[PRHO], H = pv[PH], z = b->r[2], vz = b->v[2], t;
    if (g == 0) {
        *j = vz < 0 ? 0 : 1;
        t = vz < 0 ? (rho - z) / vz : (H - rho - z) / vz;
    } else {
        double dt = vz * vz - 2 * g * (H - rho - z);
        *j = vz > 0 && dt >= 0 ? 1 : 0;
        t = *j ? (vz - sqrt(dt)) / g : (vz + sqrt(vz * vz + 2 * g * (z - rho))) / g;
    }
    for (int i = 0; i < 3; i++)
        b->r[i] += b->v[i] * t;
    b->r[2] -= g * t * t / 2;
    b->v[2] -= g * t;
    return t;
}

/* The state y with the ball's centre and velocity, world w turned into the
** body frame of y's quaternion. */
static void ball_to_state(const Ball *b, double *y)
{
    double R[3][3];
    rigid_rotation(y, R);
    for (int i = 0; i < 3; i++) {
        y[i] = b->r[i];
        y[U + i] = b->v[i];
        y[W1 + i] = R[0][i] * b->w[0] + R[1][i] * b->w[1] + R[2][i] * b->w[2];
    }
}

/* The world angular velocity of the state y, R w. */
static void state_w(const double *y, double *w)
{
    double R[3][3];
    rigid_rotation(y, R);
    for (int i = 0; i < 3; i++)
        w[i] = R[i][0] * y[W1] + R[i][1] * y[W1 + 1] + R[i][2] * y[W1 + 2];
}

/* Kinetic energy of the state y (translational and rotational). */
static double kinetic(const double *pv, const double *y)
{
    double T = 0;
    for (int i = 0; i < 3; i++)
        T += pv[PM] * y[U + i] * y[U + i] + pv[PI1 + i] * y[W1 + i] * y[W1 + i];
    return T / 2;
}

/* A ball from (r0, v0, w0) through nimp impacts: every impact time and
** post-impact velocity against the closed form to tol relative; the
** impacts' energy loss against the closed form's; returns the largest
** velocity error (relative).  The ball's final reference into *bend. */
static double ball_run(const char *name, const double *pv, int method, const Ball *b0, int nimp,
                       double tol, Ball *bend, Log *L)
{
    double y0[NY];
    memset(y0, 0, sizeof y0);
    y0[P0] = 1;
    ball_to_state(b0, y0);
    Ball b = *b0;
    double t = 0, tk[MAXIMP], worst = 0, vs = sqrt(dot3(b.v, b.v)) + pv[PRHO] * sqrt(dot3(b.w, b.w));
    Ball ref[MAXIMP];
    int where[MAXIMP], stuck[MAXIMP];
    for (int k = 0; k < nimp; k++) {
        t += ball_flight(pv, &b, &where[k]);
        tk[k] = t;
        ball_impact(pv, where[k], &b, &stuck[k]);
        ref[k] = b;
    }
    *bend = b;
    /* the run ends halfway to the next impact */
    Ball nb = b;
    int jn;
    double T = t + ball_flight(pv, &nb, &jn) / 2;
    nsm_sim *s = start(pv, method, y0, L, 1e-4);
    check_true("ball starts", s != NULL);
    if (!s)
        return 1;
    int rc = nsm_sim_run_until(s, T);
    char what[200];
    snprintf(what, sizeof what, "%s runs", name);
    check_true(what, rc == 0);
    if (rc)
        printf("  %s\n", nsm_sim_message(s));
    snprintf(what, sizeof what, "%s: %d impacts", name, nimp);
    check_true(what, L->n == nimp);
    for (int k = 0; k < nimp && k < L->n; k++) {
        double w[3];
        state_w(L->y[k], w);
        snprintf(what, sizeof what, "%s impact %d time", name, k + 1);
        check_close(what, L->ev[k].t, tk[k], tol * tk[k]);
        snprintf(what, sizeof what, "%s impact %d gap", name, k + 1);
        check_true(what, L->ev[k].contact == where[k]);
        for (int i = 0; i < 3; i++) {
            snprintf(what, sizeof what, "%s impact %d v[%d] after", name, k + 1, i);
            check_close(what, L->y[k][U + i], ref[k].v[i], tol * vs);
            snprintf(what, sizeof what, "%s impact %d w[%d] after (world)", name, k + 1, i);
            check_close(what, pv[PRHO] * w[i], pv[PRHO] * ref[k].w[i], tol * vs);
            worst = fmax(worst, fabs(L->y[k][U + i] - ref[k].v[i]) / vs);
            worst = fmax(worst, pv[PRHO] * fabs(w[i] - ref[k].w[i]) / vs);
        }
        printf("%s impact %d (%s, %s) at t = %.17g (closed form %.17g), energy lost %.3g J\n",
               name, k + 1, where[k] ? "table" : "floor", stuck[k] ? "stick" : "slide",
               L->ev[k].t, tk[k], L->ev[k].energy_lost);
    }
    double kin, pot, diss, inj, err = nsm_sim_energy(s, &kin, &pot, &diss, &inj);
    double E = kinetic(pv, y0) + pv[PM] * pv[PG] * y0[2];
    snprintf(what, sizeof what, "%s energy balance", name);
    check_close(what, err, 0, 1e-10 * E);
    nsm_sim_free(s);
    return worst;
}

/* Garwin's sequence without gravity, e_N = e_F = 1, rough: the script's
** scenario "garwin" in the plane x-z (its y is our z; its angle
** counter-clockwise in its (x, y) plane is about our -y). */
static void garwin(int method, const char *mname)
{
    double pv[NPAR] = { 0.05, 1.25e-5, 1.25e-5, 1.25e-5, 0, 0, 0.025, 0.5, 1, 1, 100, 0 };
    Ball b0 = { { -0.1, 0, 0.25 }, { 2, 0, -3 }, { 0, 0, 0 } }, bend;
    Log L;
    char name[100];
    snprintf(name, sizeof name, "%s Garwin", mname);
    double worst = ball_run(name, pv, method, &b0, 3, 1e-12, &bend, &L);
    /* the script's exact rationals: t = 3/40, 9/40, 3/8; (vx, vz, w_y) after */
    const double t[3] = { 3.0 / 40, 9.0 / 40, 3.0 / 8 };
    const double after[3][3] = { { 6.0 / 7, 3, 800.0 / 7 }, { -62.0 / 49, -3, -4800.0 / 49 },
                                 { -666.0 / 343, 3, -10400.0 / 343 } };
    char what[200];
    for (int k = 0; k < 3 && k < L.n; k++) {
        double w[3];
        state_w(L.y[k], w);
        snprintf(what, sizeof what, "%s impact %d at the script's time", name, k + 1);
        check_close(what, L.ev[k].t, t[k], 1e-12 * t[k]);
        snprintf(what, sizeof what, "%s impact %d vx = the script's rational", name, k + 1);
        check_close(what, L.y[k][U], after[k][0], 1e-12 * 3);
        snprintf(what, sizeof what, "%s impact %d vz = the script's rational", name, k + 1);
        check_close(what, L.y[k][U + 2], after[k][1], 1e-12 * 3);
        snprintf(what, sizeof what, "%s impact %d w_y = the script's rational", name, k + 1);
        check_close(what, 0.025 * w[1], 0.025 * after[k][2], 1e-12 * 3);
        snprintf(what, sizeof what, "%s impact %d keeps the energy", name, k + 1);
        check_close(what, L.ev[k].energy_lost, 0, 1e-14 * kinetic(pv, L.y[k]));
    }
    if (L.n >= 3) {
        double w[3];
        state_w(L.y[2], w);
        /* Garwin: (vx, r w) = (v, 0) -> (-333/343 v, 130/343 v), r w = -rho w_y */
        snprintf(what, sizeof what, "%s: vx -> -333/343 v", name);
        check_close(what, L.y[2][U] / 2, -333.0 / 343, 1e-12);
        snprintf(what, sizeof what, "%s: r w -> 130/343 v", name);
        check_close(what, -0.025 * w[1] / 2, 130.0 / 343, 1e-12);
        printf("%s: (vx, r w)/v = (%.17g, %.17g), Garwin's (%.17g, %.17g); worst velocity "
               "error %.2g relative\n", name, L.y[2][U] / 2, -0.025 * w[1] / 2, -333.0 / 343,
               130.0 / 343, worst);
    }
}

/* A super ball in 3-D with gravity, spin about every axis, sticking e = 1
** impacts on the floor and the table's underside: impact times at roots of
** quadratics, each impact's velocities, the energy kept by every impact. */
static void superball_gravity(int method, const char *mname)
{
    double pv[NPAR] = { 0.05, 1.25e-5, 1.25e-5, 1.25e-5, 9.81, 0, 0.025, 0.5, 1, 1, 100, 0 };
    Ball b0 = { { -0.1, 0.02, 0.3 }, { 2, 0.4, -3 }, { 12, -40, 25 } }, bend;
    Log L;
    char name[100];
    snprintf(name, sizeof name, "%s super ball with gravity", mname);
    double worst = ball_run(name, pv, method, &b0, 5, 1e-12, &bend, &L);
    char what[200];
    for (int k = 0; k < L.n && k < 5; k++) {
        snprintf(what, sizeof what, "%s impact %d keeps the kinetic energy", name, k + 1);
        check_close(what, L.ev[k].energy_lost, 0, 1e-14 * kinetic(pv, L.y[k]));
    }
    printf("%s: worst velocity error %.2g relative\n", name, worst);
}

/* Sliding impacts (small mu): e_N = 0.7, e_F = 0.5, mu = 0.05, a ball
** falling with a slip in a 3-D direction and a spin about the normal
** (which friction without drilling leaves alone). */
static void ball_sliding(int method, const char *mname)
{
    double pv[NPAR] = { 0.05, 1.25e-5, 1.25e-5, 1.25e-5, 9.81, 0, 0.025, 0.5, 0.7, 0.5, 0.05, 0 };
    Ball b0 = { { 0, 0, 0.2 }, { 1.5, -0.8, -1 }, { 30, 20, 50 } }, bend;
    Log L;
    char name[100];
    snprintf(name, sizeof name, "%s sliding ball", mname);
    double worst = ball_run(name, pv, method, &b0, 3, 1e-12, &bend, &L);
    char what[200];
    for (int k = 0; k < L.n && k < 3; k++) {
        double w[3];
        state_w(L.y[k], w);
        snprintf(what, sizeof what, "%s impact %d: the spin about the normal unchanged", name,
                 k + 1);
        check_close(what, w[2], b0.w[2], 1e-12 * b0.w[2]);
    }
    printf("%s: worst velocity error %.2g relative\n", name, worst);
}

/* tests/reference/tippe_top.py --landing (mpmath, 50 digits): the landing
** instant, the state just before the impact (z, v_z, the quaternion; w =
** (0, 0, 180)), the normal impulse and the state and energy after. */
static const double tt_land = 0.00005047346488959237992301767;
static const double tt_z = 0.01201498750416592270171331;
static const double tt_vn = -0.0004951446905669012470448033, tt_PN = 0.000002968871994555596975781314;
static const double tt_p[4] = { 0.9987399556459114635602195, 0.04997865360343124623486288,
                                -0.0002270351852595941354475823, 0.004536919154634070658091055 };
static const double tt_v[3] = { -0.0001456742449200037790797014, 7.217151959372628309475808e-9,
                                -0.0000003326914743017510812509902 };
static const double tt_w[3] = { -0.0009924653492444003123901646, 0.01303206929284304193616879,
                                179.9980584769961173242762 };
static const double tt_lost = 0.0000002452340927378404882403125;

/* The tippe top's parameters: issue 24's, drilling on, e_N = e_F = 0 (the
** table far above). */
static const double tt_pv[NPAR] = { 6e-3, 8e-7, 8e-7, 7e-7, 9.81, 3e-3, 15e-3, 1, 0, 0, 0.3,
                                    3 * 3.14159265358979323846 * 5e-4 / 16 };

/* The tippe top's impact (the state after it in L, the run's end in rc and
** msg) against the reference: P_N, e_N = 0, the energy lost, v, w and the
** quaternion, each to tol relative (of |v_x|, |w_2| for the small
** components, and of each quantity otherwise). */
static void tippe_check(const char *mname, const char *what0, const Log *L, int rc, const char *msg,
                        double tol)
{
    char what[200];
    snprintf(what, sizeof what, "%s %s slides on after its landing (its contact held)", mname,
             what0);
    check_true(what, rc == 0);
    printf("%s %s: %s\n", mname, what0, rc ? msg : "runs on");
    snprintf(what, sizeof what, "%s %s lands once", mname, what0);
    check_true(what, L->n == 1);
    if (L->n < 1)
        return;
    const double *y = L->y[0];
    snprintf(what, sizeof what, "%s %s: normal velocity after (e_N = 0)", mname, what0);
    check_close(what, L->ev[0].vrel_after, 0, tol * fabs(tt_vn));
    snprintf(what, sizeof what, "%s %s: normal impulse", mname, what0);
    check_close(what, L->ev[0].impulse, tt_PN, tol * tt_PN);
    snprintf(what, sizeof what, "%s %s: kinetic energy lost", mname, what0);
    check_close(what, L->ev[0].energy_lost, tt_lost, tol * tt_lost);
    double dv = 0, dw = 0, vsc = fabs(tt_v[0]), wsc = fabs(tt_w[1]);
    for (int i = 0; i < 3; i++) {
        snprintf(what, sizeof what, "%s %s: v[%d] after", mname, what0, i);
        check_close(what, y[U + i], tt_v[i], tol * vsc);
        snprintf(what, sizeof what, "%s %s: w[%d] after", mname, what0, i);
        check_close(what, y[W1 + i], tt_w[i], tol * (i == 2 ? tt_w[2] : wsc));
        dv = fmax(dv, fabs(y[U + i] - tt_v[i]) / vsc);
        dw = fmax(dw, fabs(y[W1 + i] - tt_w[i]) / (i == 2 ? tt_w[2] : wsc));
    }
    double pq[4] = { y[P0], y[P1], y[P1 + 1], y[P1 + 2] };
    for (int i = 0; i < 4; i++) {
        snprintf(what, sizeof what, "%s %s: p[%d] at the landing", mname, what0, i);
        check_close(what, pq[i], tt_p[i], 1e-12);
    }
    printf("%s %s: P_N %.2g, energy lost %.17g J (reference %.17g, %.2g), v %.2g, w %.2g "
           "(relative)\n", mname, what0, fabs(L->ev[0].impulse - tt_PN) / tt_PN,
           L->ev[0].energy_lost, tt_lost, fabs(L->ev[0].energy_lost - tt_lost) / tt_lost, dv, dw);
}

/* The tippe top's landing from the collection's start: z0 = 12.015 mm
** (12.5 nm in the air), theta0 = 0.1 about x, spin 180 rad/s about e3.  The
** landing instant is known to the rounding of the gap, lengths of 15 mm
** for a fall of 12.5 nm at |v_N| = 5e-4 m/s: 2 eps (z0 + a1 + r1) / |v_N|
** = 2.7e-14 s (5e-10 relative); the runs land within 1e-15 s (2e-11), and
** the post-impact state, whose normal velocity is g t, is checked to 1e-10
** (tippe_impact checks the law itself to 1e-12). */
static void tippe_landing(int method, const char *mname)
{
    double y0[NY], th0 = 0.1;
    memset(y0, 0, sizeof y0);
    y0[2] = 12.015e-3;
    y0[P0] = cos(th0 / 2);
    y0[P1] = sin(th0 / 2);
    y0[W1 + 2] = 180;
    Log L;
    nsm_sim *s = start(tt_pv, method, y0, &L, 1e-5);
    check_true("tippe top starts", s != NULL);
    if (!s)
        return;
    int rc = nsm_sim_run_until(s, 1e-3);
    char what[200];
    double dt = 2 * 2.220446049250313e-16 * (y0[2] + tt_pv[PA] + tt_pv[PRHO]) / fabs(tt_vn);
    if (L.n >= 1) {
        snprintf(what, sizeof what, "%s tippe top's landing time sqrt(2 g_N0 / g)", mname);
        check_close(what, L.ev[0].t, tt_land, dt);
        snprintf(what, sizeof what, "%s tippe top's normal velocity before", mname);
        check_close(what, L.ev[0].vrel_before, tt_vn, tt_pv[PG] * dt);
        printf("%s tippe top lands at %.17g s (reference %.17g, bound %.2g s)\n", mname,
               L.ev[0].t, tt_land, dt);
    }
    tippe_check(mname, "tippe top from the flight", &L, rc, nsm_sim_message(s), 1e-10);
    nsm_sim_free(s);
}

/* The tippe top's impact alone: started at the reference's state just
** before it (touching, closing), so that the law is checked to 1e-12. */
static void tippe_impact(int method, const char *mname)
{
    double y0[NY];
    memset(y0, 0, sizeof y0);
    y0[2] = tt_z;
    y0[U + 2] = tt_vn;
    y0[P0] = tt_p[0];
    for (int i = 0; i < 3; i++)
        y0[P1 + i] = tt_p[1 + i];
    y0[W1 + 2] = 180;
    /* the impact is the initial mode's, at the reset, which then stops */
    Log L;
    memset(&L, 0, sizeof L);
    nsm_sim *s = nsm_sim_create(&model);
    check_true("tippe top at the impact created", s != NULL);
    if (!s)
        return;
    for (int k = 0; k < NPAR; k++)
        nsm_sim_set_param(s, params[k].name, tt_pv[k]);
    nsm_sim_set_method(s, method);
    nsm_sim_set_initial_state(s, y0);
    nsm_sim_set_event_handler(s, on_event, &L);
    int rc = nsm_sim_reset(s);
    tippe_check(mname, "tippe top's impact", &L, rc, nsm_sim_message(s), 1e-12);
    nsm_sim_free(s);
}

/* A dumbbell, two spheres of one body at (0, 0, +-a), turned 90 degrees
** about x so that both touch the floor at once, dropped with a slip along
** x and no spin: one impact of two contacts.  By the mirror symmetry y ->
** -y the contacts take equal normal and x impulses and none along y, and
** the body moves as a ball of mass m, inertia I3 (the world y axis is -e3)
** and radius rho under the total impulses: P_N = (1 + e_N) m u, sticking
** P_x = -(1 + e_F) v_x / (1/m + rho^2/I3), sliding -mu P_N sign(v_x);
** v+ = v- + (P_x, 0, P_N)/m, world w_y = -rho P_x / I3. */
static void dumbbell(int method, const char *mname, double mu, const char *what0)
{
    double pv[NPAR] = { 1.5, 0.02, 0.03, 0.025, 0, 0.04, 0.1, 0, 0.5, 0.3, mu, 0, 1 };
    double m = pv[PM], rho = pv[PRHO], I3 = pv[PI3], u = 0.8, vx = 0.6, h = 0.01, y0[NY];
    memset(y0, 0, sizeof y0);
    y0[P0] = cos(3.14159265358979323846 / 4);
    y0[P1] = sin(3.14159265358979323846 / 4);
    y0[2] = rho + h;
    y0[U] = vx;
    y0[U + 2] = -u;
    double PN = (1 + pv[PEN]) * m * u, PX = -(1 + pv[PEF]) * vx / (1 / m + rho * rho / I3);
    int stuck = fabs(PX) <= mu * PN;
    if (!stuck)
        PX = -mu * PN * (vx > 0 ? 1 : -1);
    double want_v[3] = { vx + PX / m, 0, -u + PN / m }, want_w[3] = { 0, -rho * PX / I3, 0 };
    Log L;
    nsm_sim *s = start(pv, method, y0, &L, 1e-4);
    check_true("dumbbell starts", s != NULL);
    if (!s)
        return;
    int rc = nsm_sim_run_until(s, 0.05);
    char what[200];
    snprintf(what, sizeof what, "%s %s runs", mname, what0);
    check_true(what, rc == 0);
    if (rc)
        printf("  %s\n", nsm_sim_message(s));
    snprintf(what, sizeof what, "%s %s: one impact, both contacts recorded", mname, what0);
    check_true(what, L.n == 2 && L.ev[0].t == L.ev[1].t && L.ev[0].contact != L.ev[1].contact);
    double dv = 0;
    for (int k = 0; k < 2 && k < L.n; k++) {
        snprintf(what, sizeof what, "%s %s: contact %d's normal impulse P_N/2", mname, what0, k);
        check_close(what, L.ev[k].impulse, PN / 2, 1e-12 * PN);
        snprintf(what, sizeof what, "%s %s: contact %d's impact time h/u", mname, what0, k);
        check_close(what, L.ev[k].t, h / u, 1e-12 * h / u);
    }
    if (L.n >= 2) {
        double w[3];
        state_w(L.y[1], w);
        for (int i = 0; i < 3; i++) {
            snprintf(what, sizeof what, "%s %s: v[%d] after", mname, what0, i);
            check_close(what, L.y[1][U + i], want_v[i], 1e-12 * (u + vx));
            snprintf(what, sizeof what, "%s %s: w[%d] after (world)", mname, what0, i);
            check_close(what, rho * w[i], rho * want_w[i], 1e-12 * (u + vx));
            dv = fmax(dv, fmax(fabs(L.y[1][U + i] - want_v[i]), rho * fabs(w[i] - want_w[i])));
        }
        double lost = L.ev[0].energy_lost + L.ev[1].energy_lost;
        double T0 = 0.5 * m * (u * u + vx * vx), T1 = kinetic(pv, L.y[1]);
        snprintf(what, sizeof what, "%s %s: energy lost = T- - T+", mname, what0);
        check_close(what, lost, T0 - T1, 1e-12 * T0);
        printf("%s %s (%s): P_N %.17g of %.17g, velocities within %.2g m/s, lost %.6g J\n",
               mname, what0, stuck ? "stick" : "slide", L.ev[0].impulse + L.ev[1].impulse, PN,
               dv, lost);
    }
    nsm_sim_free(s);
}

/* A ball squeezed between the floor and the table's underside (H = 2 rho)
** and driven into the floor with e_N = 1: Glocker's law at both contacts
** has no answer (the floor's rebound would need the table to give way),
** so the iteration over the contacts does not settle and the reset stops
** with a message. */
static void squeezed_refused(void)
{
    double pv[NPAR] = { 0.05, 1.25e-5, 1.25e-5, 1.25e-5, 0, 0, 0.025, 0.05, 1, 1, 100, 0, 0 };
    double y0[NY];
    memset(y0, 0, sizeof y0);
    y0[P0] = 1;
    y0[2] = 0.025;
    y0[U] = 0.3;
    y0[U + 2] = -1;
    Log L;
    memset(&L, 0, sizeof L);
    nsm_sim *s = nsm_sim_create(&model);
    check_true("squeezed ball created", s != NULL);
    if (!s)
        return;
    for (int k = 0; k < NPAR; k++)
        nsm_sim_set_param(s, params[k].name, pv[k]);
    nsm_sim_set_initial_state(s, y0);
    nsm_sim_set_event_handler(s, on_event, &L);
    int rc = nsm_sim_reset(s);
    const char *msg = nsm_sim_message(s);
    check_true("a squeezed elastic ball stops: the iteration over the contacts does not settle",
               rc != 0 && strstr(msg, "did not converge") && strstr(msg, "2 contacts"));
    check_true("no impact record before the refusal", L.n == 0);
    printf("squeezed ball: %s\n", msg);
    nsm_sim_free(s);
}

/* A frictional ball bouncing to rest (e_N = 0.5, gravity, a slip): no
** Zeno jump (its projection would be frictionless), every impact resolved
** by Glocker's law until a rebound stays inside the gap's rounding band;
** the contact then held, it slides until its slip vanishes and rolls
** (spacefric.c, spacestick.c), the balance closing over all of it. */
static void bouncing_to_rest(void)
{
    double pv[NPAR] = { 0.05, 1.25e-5, 1.25e-5, 1.25e-5, 9.81, 0, 0.025, 5, 0.5, 0.2, 0.3, 0, 0 };
    Ball b0 = { { 0, 0, 0.1 }, { 0.3, 0.1, 0 }, { 0, 0, 5 } };
    double y0[NY];
    memset(y0, 0, sizeof y0);
    y0[P0] = 1;
    ball_to_state(&b0, y0);
    Log L;
    nsm_sim *s = start(pv, NSM_METHOD_RK4, y0, &L, 1e-4);
    check_true("bouncing frictional ball starts", s != NULL);
    if (!s)
        return;
    int rc = nsm_sim_run_until(s, 2);
    const char *msg = nsm_sim_message(s);
    check_true("a frictional ball bouncing to rest then runs on its held contact", rc == 0);
    check_true("its floor contact is held at the end", nsm_sim_mode_has(s, 0) == 1);
    /* gaps 0, 1, no scalar friction: the floor element's stick bit is 2 */
    check_true("it rolls at the end (the floor element sticks)", nsm_sim_mode_has(s, 2) == 1);
    double kin, pot, diss, inj, err = nsm_sim_energy(s, &kin, &pot, &diss, &inj);
    double E = kinetic(pv, y0) + pv[PM] * pv[PG] * y0[2];
    check_close("its energy balance over the bounces, the slide and the roll", err, 0, 1e-10 * E);
    check_true("no Zeno jump over a frictional contact", L.nzeno == 0);
    check_true("its impacts resolved one by one", L.n > 20);
    printf("frictional ball bouncing to rest: %d impacts, %d zeno records: %s\n", L.n, L.nzeno,
           msg);
    nsm_sim_free(s);
}

/* Inverse of the 3 x 3 matrix A by cofactors. */
static void inv3(double A[3][3], double B[3][3])
{
    double det = A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) -
                 A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
                 A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            int a = (j + 1) % 3, b = (j + 2) % 3, c = (i + 1) % 3, d = (i + 2) % 3;
            B[i][j] = (A[a][c] * A[b][d] - A[a][d] * A[b][c]) / det;
        }
}

/* An eccentric sphere (a != 0) tilted so that its normal and friction rows
** are coupled through M^-1: sticking with e_N = 1, e_F = 0 at the slip
** gamma_F- = H_FF^-1 H_FN |gamma_N-| (H = G^-1, G = R M^-1 R^T over the
** rows n, e_x, e_y with w = 0) changes the kinetic energy by
** H_FN^T H_FF^-1 H_FN |gamma_N-|^2 / 2 > 0: the run stops. */
static void energy_refused(void)
{
    double pv[NPAR] = { 1.5, 0.02, 0.03, 0.025, 0, 0.04, 0.1, 5, 1, 0, 1e3, 0 };
    double th = 0.6, y0[NY], R[3][3], I[3] = { 0.02, 0.03, 0.025 };
    memset(y0, 0, sizeof y0);
    y0[P0] = cos(th / 2);
    y0[P1] = sin(th / 2);
    rigid_rotation(y0, R);
    double c[3] = { 0, 0, pv[PA] }, t[3][3] = { { 0, 0, 1 }, { 1, 0, 0 }, { 0, 1, 0 } };
    double nb[3] = { R[2][0], R[2][1], R[2][2] }, sp[3], rows[3][6];
    for (int i = 0; i < 3; i++)
        sp[i] = c[i] - pv[PRHO] * nb[i];
    for (int a = 0; a < 3; a++) {
        double tb[3] = { R[0][0] * t[a][0] + R[1][0] * t[a][1] + R[2][0] * t[a][2],
                         R[0][1] * t[a][0] + R[1][1] * t[a][1] + R[2][1] * t[a][2],
                         R[0][2] * t[a][0] + R[1][2] * t[a][1] + R[2][2] * t[a][2] };
        rigid_cross(a == 0 ? c : sp, tb, rows[a] + 3);
        for (int i = 0; i < 3; i++)
            rows[a][i] = t[a][i];
    }
    double G[3][3], H[3][3];
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            G[a][b] = dot3(rows[a], rows[b]) / pv[PM];
            for (int i = 0; i < 3; i++)
                G[a][b] += rows[a][3 + i] * rows[b][3 + i] / I[i];
        }
    inv3(G, H);
    double det = H[1][1] * H[2][2] - H[1][2] * H[2][1], gn = -0.5;
    double gf[2] = { (H[2][2] * H[1][0] - H[1][2] * H[2][0]) / det * -gn,
                     (H[1][1] * H[2][0] - H[2][1] * H[1][0]) / det * -gn };
    double gain = (H[1][0] * gf[0] + H[2][0] * gf[1]) * -gn / 2;
    check_true("the eccentric case creates energy by the closed form", gain > 0);
    /* the sphere's lowest point touches the floor, the body a little above */
    y0[2] = pv[PRHO] - (R[2][2] * pv[PA]) + 1e-3;
    y0[U] = gf[0];
    y0[U + 1] = gf[1];
    y0[U + 2] = gn;
    Log L;
    nsm_sim *s = start(pv, NSM_METHOD_RK4, y0, &L, 1e-5);
    check_true("eccentric sphere starts", s != NULL);
    if (!s)
        return;
    int rc = nsm_sim_run_until(s, 0.01);
    const char *msg = nsm_sim_message(s);
    check_true("an energy-creating e_F stops the run with Glocker's consistency named",
               rc != 0 && strstr(msg, "energetically consistent") != NULL);
    check_true("no impact record before the refusal", L.n == 0);
    printf("energy-creating impact (closed form: +%.6g J): %s\n", gain, msg);
    nsm_sim_free(s);
}

/* The runtime's kernel of Glocker's law for one contact (impact_space.c),
** called directly by the law's own check below. */
int rt_spimp_law(int m, const double *G, const double *q, double mu, double *P, int *stuck);

/* A deterministic pseudo-random number in [-1, 1). */
static double rnd(unsigned long *st)
{
    *st = *st * 6364136223846793005UL + 1442695040888963407UL;
    return (double)(*st >> 11) / 4503599627370496.0 - 1;
}

/* Glocker's law on random contacts: a Delassus matrix G = A A^T + 0.05 I
** (anisotropic, normal and friction rows coupled), a closing normal
** velocity, any slip, e_N, e_F in [0, 1], mu in (0, 1.5); every answer the
** kernel gives must satisfy the law's conditions, checked here from
** gamma+ = gamma- + G P: sticking, xi = 0 and |P_F| <= mu P_N; sliding,
** xi_N = 0, |P_F| = mu P_N, P_F against xi_F (parallel, opposite), and the
** sticking candidate outside the cone.  Answers refused (a clear failure
** of the run) must be few: 10 of these 4000 strongly coupled contacts,
** where Newton's method finds the direction from none of its starts. */
static void law_conditions(void)
{
    unsigned long st = 12345;
    int refused = 0, slid = 0, stuck_n = 0, bad = 0, cases = 4000;
    double worst = 0;
    for (int c = 0; c < cases; c++) {
        int m = c % 2 ? 4 : 3, stuck;
        double A[16], G[16], gm[4], P[4], gp[4], E[4];
        for (int i = 0; i < m * m; i++)
            A[i] = rnd(&st);
        for (int i = 0; i < m; i++)
            for (int j = 0; j < m; j++) {
                G[i * m + j] = i == j ? 0.05 : 0;
                for (int k = 0; k < m; k++)
                    G[i * m + j] += A[i * m + k] * A[j * m + k];
            }
        gm[0] = -0.1 - fabs(rnd(&st));
        for (int i = 1; i < m; i++)
            gm[i] = 2 * rnd(&st);
        double eN = (rnd(&st) + 1) / 2, eF = (rnd(&st) + 1) / 2, mu = 0.75 * (rnd(&st) + 1) + 1e-3;
        E[0] = eN;
        for (int i = 1; i < m; i++)
            E[i] = eF;
        double q[4];
        for (int i = 0; i < m; i++)
            q[i] = (1 + E[i]) * gm[i];
        if (rt_spimp_law(m, G, q, mu, P, &stuck)) {
            refused++;
            continue;
        }
        double pf = 0, xn = 0, xi[3], res = 0, scale = fabs(gm[0]);
        for (int i = 0; i < m; i++) {
            gp[i] = gm[i];
            for (int j = 0; j < m; j++)
                gp[i] += G[i * m + j] * P[j];
            scale = fmax(scale, fabs(gm[i]));
        }
        for (int i = 1; i < m; i++) {
            pf += P[i] * P[i];
            xi[i - 1] = gp[i] + E[i] * gm[i];
            xn += xi[i - 1] * xi[i - 1];
        }
        pf = sqrt(pf);
        xn = sqrt(xn);
        res = fabs(gp[0] + eN * gm[0]) / scale;
        if (stuck) {
            stuck_n++;
            res = fmax(res, xn / scale);
            bad += !(pf <= mu * P[0] * (1 + 1e-12)) || !(P[0] >= 0);
        } else {
            slid++;
            res = fmax(res, fabs(pf - mu * P[0]) / fmax(pf, 1e-300));
            for (int i = 1; i < m; i++)
                res = fmax(res, fabs(P[i] / pf + xi[i - 1] / xn));
            bad += !(P[0] > 0);
        }
        worst = fmax(worst, res);
    }
    check_true("Glocker's law: every answer within the cone / sliding against xi", bad == 0);
    check_close("Glocker's law: the conditions' residual", worst, 0, 1e-12);
    check_true("Glocker's law: both branches met", stuck_n > 100 && slid > 100);
    check_true("Glocker's law: few contacts refused", refused < cases / 200);
    printf("Glocker's law on %d random contacts: %d stick, %d slide, %d refused, worst residual "
           "%.2g\n", cases, stuck_n, slid, refused, worst);
}

int main(void)
{
    garwin(NSM_METHOD_RK4, "rk4");
    garwin(NSM_METHOD_ADAPTIVE, "adaptive");
    superball_gravity(NSM_METHOD_RK4, "rk4");
    superball_gravity(NSM_METHOD_ADAPTIVE, "adaptive");
    ball_sliding(NSM_METHOD_RK4, "rk4");
    ball_sliding(NSM_METHOD_ADAPTIVE, "adaptive");
    tippe_landing(NSM_METHOD_RK4, "rk4");
    tippe_landing(NSM_METHOD_ADAPTIVE, "adaptive");
    tippe_impact(NSM_METHOD_RK4, "rk4");
    tippe_impact(NSM_METHOD_ADAPTIVE, "adaptive");
    dumbbell(NSM_METHOD_RK4, "rk4", 1, "dumbbell sticking");
    dumbbell(NSM_METHOD_ADAPTIVE, "adaptive", 1, "dumbbell sticking");
    dumbbell(NSM_METHOD_RK4, "rk4", 0.1, "dumbbell sliding");
    dumbbell(NSM_METHOD_ADAPTIVE, "adaptive", 0.1, "dumbbell sliding");
    energy_refused();
    squeezed_refused();
    bouncing_to_rest();
    law_conditions();
    return check_report();
}
