/*
** friction.c: Coulomb friction elements with stick and slip.
**
** Element k acts on the slip velocity u_k = w_k . v - c_k (w_k = Wt[k], a
** row over the bodies; c_k the surface's velocity), with a normal force
** N_k > 0 and coefficients mu_s >= mu_k >= 0 (the switch model of Leine, van
** Campen, de Kraker and van den Steen, Nonlinear Dynamics 16 (1998)):
**
**   slip, sign s = +-1:  generalized force -s mu_k N w_k (a constant);
**   stick:               the bilateral constraint w_k . a = 0, whose
**                        multiplier lambda_k (the force along w_k) must stay
**                        within [-mu_s N, mu_s N].
**
** The element's state lives in two bits of the mode above the gaps' (see
** nsm/model.h), so that each combination is a linear mode of its own, and
** its two event functions follow the gaps' (index g + 2k and g + 2k + 1):
**
**   slip s:  s u_k  (the slip velocity reaching 0: Henon's recast on the
**            velocity), and a constant mu_s N (no event);
**   stick:   mu_s N - lambda_k and mu_s N + lambda_k (the force reaching the
**            cone: Dedow & Murphy's force recast).
**
** At every transition fric_settle decides which elements at zero slip
** stick: all of them first, then, while one needs more than mu_s N, the one
** furthest beyond its cone slips against its force.  Energy: a slipping
** element dissipates mu_k N |u_k| and the surface does the work -s mu_k N c_k;
** a stuck one dissipates nothing and the surface does lambda_k c_k.
*/
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "law.h"
#include "linalg.h"
#include "rt.h"

/* Friction's state between transitions. */
struct RtFric {
    int done_j;               /* the gap and time of the impact rt_fric_impulse resolved */
    double done_t;            /* last (an impact is resolved once); done_j -1: none */
    unsigned char *idle;      /* nf: element k was idle at the last settle (rt_fric_idle) */
};
/* Set element k of mode to stuck (sign 0) or slipping with sign sg. */
static void fric_set(const nsm_sim *s, unsigned *mode, int k, int sg)
{
    int b = s->n_gaps + 2 * k;
    rt_mode_del(mode, b);
    rt_mode_del(mode, b + 1);
    if (sg == 0)
        rt_mode_add(mode, b);
    else if (sg < 0)
        rt_mode_add(mode, b + 1);
}

/* Set element k of the current mode to stuck (sg 0) or slipping with sign
** sg, through the state's owner. */
static void fric_set_current(nsm_sim *s, int k, int sg)
{
    unsigned mode[s->mode_words];
    rt_mode_copy(s, mode, s->mode);
    fric_set(s, mode, k, sg);
    rt_state_mode_set(s, mode);
}

/* Element k of mode set slipping with sign sg: the stuck elements whose
** slip rows repeat k's (rt_fric_row_ratio: one body on two corners, one
** tangent) slip with it, with the sign of their row's factor, since their
** slip velocities are k's; stuck, they would split one force that has
** reached the group's cone (dynamics.c rt_cons_split). */
static void fric_slip_group(const nsm_sim *s, unsigned *mode, int k, int sg)
{
    fric_set(s, mode, k, sg);
    for (int q = 0; q < s->n_fric; q++) {
        double f = rt_fric_stuck(s, mode, q) && !rt_fric_idle(s, mode, q) ?
                   rt_fric_row_ratio(s, k, q) : 0;
        if (f != 0)
            fric_set(s, mode, q, f > 0 ? sg : -sg);
    }
}

/* The stuck elements of mode that can hold no force (mu_s = 0, so mu_k =
** 0 as well: a frictionless contact's element) set slipping, with the
** sign of their slip; their forces are 0 either way, but stuck their rows
** joined the constraints (a frictionless block resting on both corners:
** two contacts and two nearly equal slip rows on three coordinates, "the
** stuck friction elements are redundant").  Whether any was released. */
static int fric_release_free(const nsm_sim *s, unsigned *mode)
{
    int any = 0;
    for (int k = 0; k < s->n_fric; k++) {
        if (!rt_fric_stuck(s, mode, k) || s->num.mus[k] > 0)
            continue;
        fric_set(s, mode, k, rt_fric_slip(s, k, rt_vel(s, s->y)) < 0 ? -1 : 1);
        any = 1;
    }
    return any;
}

/* A held contact must push once the friction states are decided (lam the
** multipliers of mode, ref the mode before): when an element's stick or slip
** changed (or was decided at the start, fresh) and a held contact's force is below its rounding, the contacts
** would have to lift as the friction changes, a joint decision not made
** here, so the run stops naming the contact and its force.  A block pushed
** sideways with mu above its half-width over its half-height slid flat on
** both corners, the rear one pulling (-2.45 N), exit 0. */
static int fric_pull_check(nsm_sim *s, const unsigned *ref, const unsigned *mode,
                           const unsigned *fresh, const double *lam)
{
    int changed = 0;
    for (int k = 0; k < s->n_fric && !changed; k++)
        changed = rt_fric_stuck(s, ref, k) != rt_fric_stuck(s, mode, k) ||
                  (fresh && rt_mode_has(fresh, k));
    if (!changed)
        return NSM_OK;
    for (int j = 0; j < s->n_gaps; j++) {
        if (!rt_law_held(s, mode, j) || lam[j] >= -rt_force_tol_gap(s, mode, s->y, j))
            continue;
        return rt_fail(s, NSM_ENUMERIC, j,
                       "contact '%s' would pull (force %.6g N) once the friction elements stick "
                       "or slip as their forces require: the contact must lift as the friction "
                       "changes state, a joint decision of contacts and friction not made yet (a "
                       "body tipping while it starts to slide)", s->m->gaps[j].name, lam[j]);
    }
    return NSM_OK;
}

/* How far beyond its cone cap = mu_s N element k's force may be and still
** hold in mode.  Coulomb's law holds the stick while |F| <= mu_s N.  An
** element stuck in ref (the mode before) stays so up to the rounding of
** the computed quantities only, 1e-15 of the forces' scale (rt_force_tol's
** 1e-10 of it, times 1e-5) and 8 ulps of the cap: a push of mu_s N holds
** under every method, one of (1 + 1e-12) mu_s N slides (it was 1e-10 of
** the forces' scale, and a block pushed at (1 + 1e-10) mu_s N stayed
** stuck, exit 0); so does one at the run's start, whose state is the one
** given.  One coming to rest from a slip is judged on a state
** carrying the method's error, so its force within 1e-10 of the scale
** holds (a Coulomb oscillator's turning point on mu_s N, by rk4 6e-14
** short of it, sticks).  The forces' scale is that of the element's own
** part of the model (rt_force_tol_of), not a fast body's beside it. */
static double fric_cone_tol(const nsm_sim *s, const unsigned *ref, const unsigned *mode, int k,
                            double cap)
{
    double tol = rt_force_tol_of(s, mode, s->y, s->n_gaps + k);
    if (rt_fric_stuck(s, ref, k) || s->t == s->t_reset)
        return 1e-5 * tol + 8 * DBL_EPSILON * cap;
    return tol + 1e-12 * cap;
}

/* Release the stuck elements of mode whose slip's row vanishes at the
** state while the bodies move (a slip M.v*M.x/1 m at x = 0, at -2 m/s):
** no force can hold such a slip, whose own rate there is its curvature
** term v^T (dw/dx) v; each slips on with that term's sign (the slip
** crosses 0, a reversal).  Its row, all but 0, made the stuck rows
** singular ("the stuck friction elements are redundant", taylor, exit 3;
** rk4 and adaptive, landing further from x = 0, slipped on).  1 when
** some element was released. */
static int fric_release_vanishing(nsm_sim *s, unsigned *mode)
{
    const RtCsr *W = &s->sp.Wt;
    const double *v = s->y + s->n_pos;
    double vmax = 0;
    int released = 0;
    for (int q = 0; q < s->n_vel; q++)
        vmax = fmax(vmax, fabs(v[q]));
    rt_nl_at(s, s->y);
    for (int k = 0; k < s->n_fric; k++) {
        double row = 0, curv = rt_nl_slip_curv(s, k);
        if (!rt_fric_stuck(s, mode, k) || !rt_nl_slip_curved(s, k) || curv == 0)
            continue;
        for (int q = W->p[k]; q < W->p[k + 1]; q++)
            row += fabs(W->x[q]);
        if (row * vmax > RT_VEL_FLOOR)
            continue;
        fric_set(s, mode, k, curv > 0 ? 1 : -1);
        released = 1;
    }
    return released;
}

/* Decide the friction state of every element at the current state: an
** element slipping by more than its rounding keeps slipping with the sign
** of its slip; those at zero slip stick if the multipliers allow it (all
** first, then the one furthest beyond mu_s N released against its force,
** until every stuck one is within its cone).  Element forced (>= 0) slips
** with sign fsign whatever its slip (its force has just reached the cone).
** Logs stick, slip and reversal against the mode before; an idle element
** (its normal gap open, rt_fric_idle) slips with the sign of its slip and is
** not logged, and one whose gap has just closed is logged as it engages. */
static int fric_settle(nsm_sim *s, int forced, int fsign, const unsigned *fresh)
{
    int n = s->n_vel, nf = s->n_fric, rc;
    unsigned ref[s->mode_words], mode[s->mode_words];
    rt_mode_copy(s, ref, s->mode);
    rt_mode_copy(s, mode, s->mode);
    const double *v = s->y + n;
    double lamf[nf + 1], lam[s->n_gaps + 1];
    for (int k = 0; k < nf; k++) {
        double u = rt_fric_slip(s, k, v);
        if (rt_fric_idle(s, mode, k))
            fric_set(s, mode, k, u < 0 ? -1 : 1);
        else if (k == forced)
            fric_set(s, mode, k, fsign);
        else if (fabs(u) > rt_fric_slip_tol(s, k, v))
            fric_set(s, mode, k, u > 0 ? 1 : -1);
        else
            fric_set(s, mode, k, 0);
    }
    if (forced >= 0)
        fric_slip_group(s, mode, forced, fsign);
    for (int round = 0; round <= nf; round++) {
        if ((rc = rt_multipliers(s, mode, s->t, s->y, lam, lamf))) {
            if (fric_release_free(s, mode) || fric_release_vanishing(s, mode))
                continue;
            return rt_fail(s, rc, -1, "the stuck friction elements are redundant");
        }
        int worst = -1;
        double over = 1;
        for (int k = 0; k < nf; k++) {
            if (!rt_fric_stuck(s, mode, k))
                continue;
            double cap = s->num.mus[k] * rt_fric_normal(s, mode, k, s->y, v, lam, 1);
            double tol = fric_cone_tol(s, ref, mode, k, cap);
            double r = fabs(lamf[k]) / (cap + tol) + (cap <= 0);
            if (fabs(lamf[k]) > cap + tol && r > over) {
                over = r;
                worst = k;
            }
        }
        if (worst < 0) {
            if ((rc = fric_pull_check(s, ref, mode, fresh, lam)))
                return rc;
            break;
        }
        fric_slip_group(s, mode, worst, lamf[worst] > 0 ? -1 : 1);
    }
    rt_state_mode_set(s, mode);
    for (int k = 0; k < nf; k++) {
        int was = rt_fric_stuck(s, ref, k), now = rt_fric_stuck(s, mode, k);
        int kind = -1, count = 1;
        if (rt_fric_idle(s, mode, k)) {     /* no record while its gap is open */
            if (!s->fr->idle[k] && was)     /* its gap opened: the stick phase ends */
                rt_fricstat_change(s, k, NSM_EV_SEPARATION);
            s->fr->idle[k] = 1;
            continue;
        }
        if (s->fr->idle[k]) {               /* its gap just closed: its state now */
            kind = now ? NSM_EV_STICK : NSM_EV_SLIP;
            count = now;                    /* no stick phase ended */
        } else if (fresh && rt_mode_has(fresh, k)) {
            kind = now ? NSM_EV_STICK : NSM_EV_SLIP;
        } else if (!was && now) {
            kind = NSM_EV_STICK;
        } else if (was && !now) {
            kind = NSM_EV_SLIP;
        } else if (!now && rt_fric_sign(s, ref, k) != rt_fric_sign(s, mode, k)) {
            kind = NSM_EV_REVERSAL;
        }
        s->fr->idle[k] = 0;
        if (kind < 0)
            continue;
        if (count)
            rt_fricstat_change(s, k, kind);
        double u = rt_fric_slip(s, k, v);
        if ((rc = rt_log_event(s, kind, s->n_gaps + k, u, u, 0, 0, 1)))
            return rc;
    }
    return NSM_OK;
}

/* The transition of friction event function j (g <= j < ge), just landed
** on: a slipping element's slip reached 0 (stick, or reversal when sticking
** needs more than mu_s N), or a stuck element's force reached +mu_s N
** (slip backwards) or -mu_s N (slip forwards). */
int rt_fric_transition(nsm_sim *s, int j)
{
    int k = (j - s->n_gaps) / 2, second = (j - s->n_gaps) % 2;
    if (!rt_fric_stuck(s, s->mode, k))
        return fric_settle(s, -1, 0, NULL);
    return fric_settle(s, k, second ? 1 : -1, NULL);
}

/* Decide the friction states after any other transition (an impact changes
** the slip velocities). */
int rt_fric_update(nsm_sim *s)
{
    return s->n_fric ? fric_settle(s, -1, 0, NULL) : NSM_OK;
}

/* The friction states at the start of a run: an element slipping keeps its
** sign without an event; one at rest relative to its surface is logged as
** stick, or as slip when sticking would need more than mu_s N. */
int rt_fric_initial(nsm_sim *s)
{
    unsigned fresh[s->mode_words];          /* the elements at rest: bit k */
    rt_mode_none(s, fresh);
    for (int k = 0; k < s->n_fric; k++) {
        double u = rt_fric_slip(s, k, rt_vel(s, s->y));
        fric_set_current(s, k, u < 0 ? -1 : 1);
        if (fabs(u) <= rt_fric_slip_tol(s, k, rt_vel(s, s->y)))
            rt_mode_add(fresh, k);
    }
    return s->n_fric ? fric_settle(s, -1, 0, fresh) : NSM_OK;
}

/* The friction element whose normal force is impact gap j's contact force:
** its index, -1 when there is none, -2 when there are several. */
static int gap_element(const nsm_sim *s, int j)
{
    int found = -1;
    for (int k = 0; k < s->n_fric; k++)
        if (rt_fric_normal_gap(s, k) == j)
            found = found < 0 ? k : -2;
    return found;
}

/* a . M^-1 b over the bodies, at the current configuration: the mass
** operator's (massmat.c), M(q) factored at s->y for a model written by its
** energies (the rows a and b are taken there too). */
static long double mdot(const nsm_sim *s, const double *a, const double *b)
{
    if (rt_mass_dense(s))
        rt_mass_at(s, s->y);        /* a failure leaves NAN, refused by the callers */
    return rt_mass_dot(s, a, b);
}

/* The velocity jump of the generalized impulse b (n values over the
** coordinates) when the mass is M(q): v += M(q)^-1 b at the current
** configuration, into the long double velocities v.  1 (with s->msg) when
** M(q) is not positive definite there.  A diagonal mass keeps its own
** products at the call sites, so that its results stay bit-identical. */
static int jump_dense(nsm_sim *s, const double *b, long double *v)
{
    int n = s->n_vel;
    double z[n + 1];
    if (rt_mass_at(s, s->y) || rt_mass_solve(s, b, z))
        return 1;
    for (int i = 0; i < n; i++)
        v[i] += z[i];
    return 0;
}

/* The state the impulses act on, into Z (na values): the exact method's
** long double state when one stands behind s->y, else s->y extended. */
static void fric_state(nsm_sim *s, long double *Z)
{
    if (s->set.method == NSM_METHOD_EXACT) {
        rt_exact_state(s, s->t, s->y, Z);
        return;
    }
    for (int i = 0; i < 2 * s->n_vel; i++)
        Z[i] = s->y[i];
}

/* Apply a frictional impact's generalized impulse b (n values over the
** coordinates: the sum of its rows times their impulses) to the state Z of
** fric_state: v+ = v- + M^-1 b by the mass operator (M(q) at the impact
** configuration, or the diagonal's products), then the run's state lands
** there and the energy the jump removes is booked as the transition's loss
** (also into *lost unless NULL).  The one place the frictional impacts
** change the state, one contact or several.  1 (s->failed set) when M(q)
** is not positive definite there. */
static int fric_jump(nsm_sim *s, long double *Z, const long double *b, double *lost)
{
    int n = s->n_vel;
    double Eb = rt_mech_energy(s, s->mode, s->y), Y[s->n_state];
    if (rt_mass_dense(s)) {         /* M(q) at the impact configuration */
        double bd[n];
        for (int i = 0; i < n; i++)
            bd[i] = (double)b[i];
        if (jump_dense(s, bd, Z + n))
            return 1;
    } else {
        for (int i = 0; i < n; i++)
            Z[n + i] += s->mass_inv[i] * b[i];
    }
    memcpy(Y, s->y, sizeof Y);
    if (s->set.method == NSM_METHOD_EXACT)
        rt_exact_land(s, s->t, Z, Y);
    else
        for (int i = 0; i < n; i++)
            Y[n + i] = (double)Z[n + i];
    rt_state_set(s, s->t, Y);
    double loss = Eb - rt_mech_energy(s, s->mode, s->y);
    rt_transition_loss_add(s, loss);
    if (lost)
        *lost = loss;
    return 0;
}

/* Apply the frictional impulses P of the m rows (n values each over the
** coordinates: a contact's normal, an element's tangent) to the state Z of
** fric_state: their generalized impulse, the sum of the rows times their
** impulses, jumps the velocities by fric_jump.  The one place a frictional
** impact of one contact or several forms and applies its impulse. */
static int fric_apply(nsm_sim *s, long double *Z, int m, const double *const *rows,
                      const long double *P, double *lost)
{
    int n = s->n_vel;
    long double b[n];
    for (int q = 0; q < n; q++) {
        b[q] = 0;
        for (int i = 0; i < m; i++)
            b[q] += (long double)rows[i][q] * P[i];
    }
    return fric_jump(s, Z, b, lost);
}

/* The frictional impact law of one contact (Glocker and Pfeiffer's impact
** law with Coulomb friction on the impulses; theory.md section 11): gap j
** closing at un = w_n . v < 0, its element k slipping at ut = w_t . v - c,
** the Delassus matrix G = [Gnn Gnt; Gnt Gtt] of (w_n, w_t).  On the line
** where Newton's law holds, un+ = -e un-, the normal impulse is
** PN(PT) = c0 - r PT (c0 = -(1 + e) un / Gnn, r = Gnt / Gnn) and the
** tangential velocity to be zeroed, xi = ut+ + et ut, is a + b PT with
** b = Gtt - Gnt^2 / Gnn > 0: sticking needs PT* = -a / b within the cone
** |PT| <= mu_s PN(PT), the interval [-mu c0 / (1 - mu r), mu c0 / (1 + mu r)];
** outside it the impulse slides on the cone's edge with mu_k, on the side
** of PT* (xi then keeps the sign that impulse opposes: the solution is
** unique when mu |r| < 1).  Returns 0 and (PN, PT, stuck), or 1 with a
** message when mu |r| >= 1 or b <= 0 (no unique solution). */
static int impulse_law(nsm_sim *s, int j, int k, const long double *v, long double *PN,
                       long double *PT, int *stuck)
{
    int n = s->n_vel;
    double wnd[n], wtd[n];
    const double *wn = rt_dense_wrow(s, j, wnd), *wt = rt_dense_wtrow(s, k, wtd);
    long double un = 0, ut = -(long double)s->num.ut[k];
    for (int i = 0; i < n; i++) {
        un += wn[i] * v[i];
        ut += wt[i] * v[i];
    }
    long double Gnn = mdot(s, wn, wn), Gnt = mdot(s, wn, wt), Gtt = mdot(s, wt, wt);
    long double e = rt_law_restitution(s, j, (double)un), et = s->num.et[k], ms = s->num.mus[k], mk = s->num.muk[k];
    long double c0 = -(1 + e) * un / Gnn, r = Gnt / Gnn, b = Gtt - Gnt * r;
    if (!(Gnn > 0) || !(b > 1e-12L * Gtt)) {
        rt_fail(s, NSM_EMODEL, j, "friction '%s': its slip velocity moves along gap '%s''s normal "
                "(the Delassus matrix of the contact is singular): no frictional impact law",
                s->m->frictions[k].name, s->m->gaps[j].name);
        return 1;
    }
    if (!(ms * fabsl(r) < 1)) {
        rt_fail(s, NSM_EMODEL, j, "friction '%s': mu_s %.6g times the coupling %.6g of its slip "
                "with gap '%s' is at least 1: the frictional impact has no unique solution "
                "(Painleve's paradox at impacts)", s->m->frictions[k].name, (double)ms, (double)r,
                s->m->gaps[j].name);
        return 1;
    }
    long double a = (1 + et) * ut + Gnt * c0, pt = -a / b;
    long double lo = -ms * c0 / (1 - ms * r), hi = ms * c0 / (1 + ms * r);
    long double slack = 1e-13L * (fabsl(lo) + fabsl(hi));
    *stuck = pt >= lo - slack && pt <= hi + slack;
    if (!*stuck)
        pt = pt < lo ? -mk * c0 / (1 - mk * r) : mk * c0 / (1 + mk * r);
    *PT = pt;
    *PN = c0 - r * pt;
    return 0;
}

/* The impact of gap j at this instant was resolved with its friction
** (rt_fric_impulse, or a Zeno jump over a slipping tail): rt_fric_impact
** has nothing left to check. */
void rt_fric_resolved(nsm_sim *s, int j)
{
    s->fr->done_j = j;
    s->fr->done_t = s->t;
}

/* Element k after an impulse P_T at an impact (its slip u0 before, u1
** after): stuck when the slip is gone, else slipping with its sign; the
** statistics follow the change, and a stick (stuck set) or slip record with
** the impulse is logged unless the impulse left the element alone (a rolling
** disc bouncing: its slip unchanged to rounding, still stuck). */
static int element_after_impulse(nsm_sim *s, int k, double u0, double u1, double PT, int stuck)
{
    const double *v = rt_vel(s, s->y);
    int was = rt_fric_stuck(s, s->mode, k);
    int sg = fabs(u1) <= rt_fric_slip_tol(s, k, v) ? 0 : u1 > 0 ? 1 : -1;
    fric_set_current(s, k, sg);
    if (!was && sg == 0)
        rt_fricstat_change(s, k, NSM_EV_STICK);
    else if (was && sg != 0)
        rt_fricstat_change(s, k, NSM_EV_SLIP);
    s->fr->idle[k] = 0;             /* engaged at the impact, its state recorded */
    if (fabs(u1 - u0) <= rt_fric_slip_tol(s, k, v) && was == (sg == 0))
        return NSM_OK;
    return rt_log_exempt(s, stuck ? NSM_EV_STICK : NSM_EV_SLIP, s->n_gaps + k, u0, u1, PT + 0.0, 0, 1);
}

/* Largest number of unknowns (contacts plus elements engaged) that the
** frictional impact of several contacts solves by its case analysis. */
#define FRIC_MULTI_MAX 10

/* The frictional impact problem of several contacts (fric_multi): the
** unknowns P = (P_N of the r contacts, P_T of the nk elements engaged on
** them), the Delassus matrix D = R M^-1 R^T of their rows R = (w_n; w_t),
** the velocities before (w_n . v, and the slips) and Newton's targets. */
typedef struct {
    int r, nk, m;             /* contacts, elements engaged, m = r + nk */
    const int *idx;           /* the contacts' gaps */
    int el[FRIC_MULTI_MAX];   /* the elements engaged */
    int on[FRIC_MULTI_MAX];   /* element's contact: its position in idx */
    double D[FRIC_MULTI_MAX * FRIC_MULTI_MAX];
    double u[FRIC_MULTI_MAX]; /* w_n . v (contacts), slip w_t . v - c (elements) */
    double tgt[FRIC_MULTI_MAX]; /* -e min(w_n . v, 0): Newton's w_n . v+ at least that */
    double *R;                /* the m rows, dense over the n coordinates (the caller's) */
} FricMulti;

/* The power of two that scales the Delassus rows of a frictional impact's
** cases (multi_solve) to the order of 1, the scale of its impulse rows: 1
** for ordinary masses (within 2^+-30 of 1 kg, solved as they are: the same
** pivots, the same rounding), exact (a power of two) for the others, whose
** motion does not depend on the mass's scale. */
static double multi_scale(const FricMulti *F)
{
    double amax = 0;
    for (int i = 0; i < F->m * F->m; i++)
        amax = fmax(amax, fabs(F->D[i]));
    int e;
    frexp(amax, &e);
    return amax > 0 && isfinite(amax) && (e > 30 || e < -30) ? ldexp(1.0, -e) : 1.0;
}

/* One case of the frictional impact law (fric_multi): act[a] says whether
** contact a pushes (w_n . v+ = its target) or not (P_N = 0); st[k] whether
** element k sticks (0: its slip brought to -e_T times its value) or slides
** with sign +-1 (P_T = -sign mu_k P_N of its contact; an element whose
** contact does not push has P_T = 0).  The linear system of the case,
** solved into P; 1 when it is singular.  The rows of the Delassus matrix
** (velocity per impulse, 1e301 for a mass of 1e-300 kg) are brought to the
** scale of the impulse rows (multi_scale) so that the solver's pivot
** tolerance, relative to the largest entry, does not take the impulse
** rows for zero. */
static int multi_solve(const nsm_sim *s, const FricMulti *F, const int *act, const int *st,
                       double *P)
{
    int m = F->m, r = F->r;
    double A[FRIC_MULTI_MAX * FRIC_MULTI_MAX], sc = multi_scale(F);
    for (int i = 0; i < m; i++) {
        double *row = A + i * m;
        memset(row, 0, sizeof(double) * (size_t)m);
        P[i] = 0;
        int k = i - r;
        if (i < r ? !act[i] : !act[F->on[k]]) {
            row[i] = 1;                       /* no impulse */
        } else if (i < r || st[k] == 0) {
            for (int q = 0; q < m; q++)
                row[q] = sc * F->D[i * m + q];
            P[i] = sc * (i < r ? F->tgt[i] - F->u[i] : -(1 + s->num.et[F->el[k]]) * F->u[i]);
        } else {
            row[i] = 1;                       /* P_T = -sign mu_k P_N */
            row[F->on[k]] = st[k] * s->num.muk[F->el[k]];
        }
    }
    return nsm_la_solve(m, A, P, 1) != NSM_LA_OK;
}

/* Whether the case's impulses P obey the law: contacts pushing with
** P_N >= 0, the others not approaching faster than their target allows;
** stuck elements within mu_s P_N, sliding ones with the slip left on the
** side their impulse opposes (tolerances: 1e-10 of the problem's scales). */
static int multi_valid(const nsm_sim *s, const FricMulti *F, const int *act, const int *st,
                       const double *P, double vs, double ps)
{
    int m = F->m, r = F->r;
    for (int i = 0; i < m; i++) {
        double dv = 0;
        for (int q = 0; q < m; q++)
            dv += F->D[i * m + q] * P[q];
        if (i < r) {
            if (act[i] ? P[i] < -1e-10 * ps : F->u[i] + dv < F->tgt[i] - 1e-10 * vs)
                return 0;
            continue;
        }
        int k = i - r, a = F->on[k];
        if (!act[a])
            continue;
        if (st[k] == 0) {
            if (fabs(P[i]) > s->num.mus[F->el[k]] * P[a] + 1e-10 * ps)
                return 0;
        } else if (st[k] * (F->u[i] + dv + s->num.et[F->el[k]] * F->u[i]) < -1e-10 * vs) {
            return 0;
        }
    }
    return 1;
}

/* The frictional impact of the r contacts idx (an impact reaching other
** contacts at one instant with an element engaged on them slipping): the
** simultaneous law over all of them (theory.md section 11, several
** contacts): Newton's w_n . v+ >= -e min(w_n . v-, 0) _|_ P_N >= 0 at each
** contact, Coulomb's law on each element's impulse as for one contact.
** Solved exactly by its cases: every choice of pushing contacts and of
** stuck or sliding elements is a linear system; the cases whose impulses
** obey the law are kept, and they must agree (else the law has no unique
** solution there, and the run stops with the reason).  The impulses in P
** (r + nk), the problem in F. */
static int multi_law(nsm_sim *s, int j, FricMulti *F, double *P)
{
    int m = F->m, r = F->r, nk = F->nk, found = 0;
    double vs = 0, ps = 0, Q[FRIC_MULTI_MAX], best[FRIC_MULTI_MAX];
    for (int i = 0; i < m; i++)
        vs = fmax(vs, fabs(F->u[i]));
    for (int a = 0; a < r; a++)
        ps = fmax(ps, fabs(F->u[a]) / F->D[a * m + a]);
    long ncase = 1L << r;
    for (int k = 0; k < nk; k++)
        ncase *= 3;
    for (long c = 0; c < ncase; c++) {
        int act[FRIC_MULTI_MAX], st[FRIC_MULTI_MAX];
        long q = c;
        for (int a = 0; a < r; a++, q >>= 1)
            act[a] = (int)(q & 1);
        for (int k = 0; k < nk; k++, q /= 3)
            st[k] = q % 3 == 0 ? 0 : q % 3 == 1 ? 1 : -1;    /* stick, slide +, slide - */
        if (multi_solve(s, F, act, st, Q) || !multi_valid(s, F, act, st, Q, vs, ps))
            continue;
        if (found) {
            double diff = 0;
            for (int i = 0; i < m; i++) {
                double dv = 0;
                for (int b = 0; b < m; b++)
                    dv += F->D[i * m + b] * (Q[b] - best[b]);
                diff = fmax(diff, fabs(dv));
            }
            if (diff > 1e-9 * vs)
                return rt_fail(s, NSM_EMODEL, j, "the frictional impact of gap '%s' with %d other "
                               "contacts at one instant has no unique solution (several "
                               "combinations of sticking and sliding obey Coulomb's law)",
                               s->m->gaps[j].name, r - 1);
            continue;
        }
        memcpy(best, Q, sizeof(double) * (size_t)m);
        found = 1;
    }
    if (!found)
        return rt_fail(s, NSM_EMODEL, j, "the frictional impact of gap '%s' with %d other "
                       "contacts at one instant has no solution", s->m->gaps[j].name, r - 1);
    memcpy(P, best, sizeof(double) * (size_t)m);
    return NSM_OK;
}

/* Set up the frictional impact problem of the r contacts idx: the elements
** engaged on them (their normal force a contact of idx), their rows into R
** (FRIC_MULTI_MAX rows of n, kept in F) and the Delassus matrix of all of
** them.  1 when it has more unknowns than FRIC_MULTI_MAX. */
static int multi_setup(const nsm_sim *s, const int *idx, int r, const double *v, double *R,
                       FricMulti *F)
{
    int n = s->n_vel;
    F->R = R;
    F->r = r;
    F->idx = idx;
    F->nk = 0;
    if (r > FRIC_MULTI_MAX)
        return 1;
    for (int k = 0; k < s->n_fric; k++)
        for (int a = 0; a < r; a++)
            if (rt_fric_normal_gap(s, k) == idx[a]) {
                if (r + F->nk >= FRIC_MULTI_MAX)
                    return 1;
                F->el[F->nk] = k;
                F->on[F->nk++] = a;
            }
    int m = F->m = r + F->nk;
    for (int i = 0; i < m; i++) {
        double *row = R + (size_t)i * n;
        const double *w = i < r ? rt_dense_wrow(s, idx[i], row) : rt_dense_wtrow(s, F->el[i - r], row);
        if (w != row)
            memcpy(row, w, sizeof(double) * (size_t)n);
        F->u[i] = i < r ? rt_dot(n, row, v) : rt_fric_slip(s, F->el[i - r], v);
        F->tgt[i] = i < r ? -rt_law_restitution(s, idx[i], fmin(F->u[i], 0)) * fmin(F->u[i], 0) : 0;
    }
    for (int i = 0; i < m; i++)
        for (int q = 0; q < m; q++)
            F->D[i * m + q] = (double)mdot(s, R + (size_t)i * n, R + (size_t)q * n);
    return 0;
}

/* The coordinates that gap a's rows act on, its normal's and those of the
** friction elements whose normal force is its contact force: marked in
** mark (n entries, set to 1). */
static void rows_mark(const nsm_sim *s, int a, unsigned char *mark)
{
    int n = s->n_vel;
    double wd[n];
    const double *w = rt_dense_wrow(s, a, wd);
    for (int i = 0; i < n; i++)
        mark[i] |= w[i] != 0;
    for (int k = 0; k < s->n_fric; k++) {
        if (rt_fric_normal_gap(s, k) != a)
            continue;
        w = rt_dense_wtrow(s, k, wd);
        for (int i = 0; i < n; i++)
            mark[i] |= w[i] != 0;
    }
}

/* The contacts of a frictional impact: the r contacts idx of the impulse
** problem without friction, and every impact gap shut or touching whose
** rows (normal and friction) act on a coordinate theirs act on (friction
** couples contacts whose normals do not: a disc in a corner, the floor's
** friction along the wall's normal), into out; returns their number. */
static int multi_set(const nsm_sim *s, const int *idx, int r, int *out)
{
    int n = s->n_vel;
    unsigned in[s->mode_words];
    unsigned char reach[n], mine[n];
    rt_mode_none(s, in);
    memset(reach, 0, sizeof reach);
    memcpy(out, idx, sizeof(int) * (size_t)r);
    for (int a = 0; a < r; a++) {
        rt_mode_add(in, idx[a]);
        rows_mark(s, idx[a], reach);
    }
    for (int grown = 1; grown;) {
        grown = 0;
        for (int i = 0; i < s->n_gaps; i++) {
            if (rt_mode_has(in, i) || !rt_law_impacts(s, i) ||
                (!rt_mode_has(s->mode, i) && fabs(rt_gap(s, i, s->y)) > rt_gap_tol(s, i, s->y)))
                continue;
            memset(mine, 0, sizeof mine);
            rows_mark(s, i, mine);
            int shared = 0;
            for (int q = 0; q < n && !shared; q++)
                shared = mine[q] && reach[q];
            if (!shared)
                continue;
            for (int q = 0; q < n; q++)
                reach[q] |= mine[q];
            rt_mode_add(in, i);
            out[r++] = i;
            grown = 1;
        }
    }
    return r;
}

/* Whether the normal impulses of the r contacts idx move element k's slip:
** w_t M^-1 w_n != 0 for one of them (beyond rounding of the rows' own
** Delassus terms).  A rocking block's corner: its slip turns with the
** block, which the other corner's impulse spins. */
static int multi_coupled(const nsm_sim *s, int k, const int *idx, int r)
{
    int n = s->n_vel;
    double wtd[n], wnd[n];
    const double *wt = rt_dense_wtrow(s, k, wtd);
    long double tt = mdot(s, wt, wt);
    for (int a = 0; a < r; a++) {
        const double *wn = rt_dense_wrow(s, idx[a], wnd);
        long double c = mdot(s, wt, wn), nn = mdot(s, wn, wn);
        if (fabsl(c) > 1e-12L * sqrtl(tt * nn))
            return 1;
    }
    return 0;
}

/* Whether the impact of the r contacts idx needs the frictional law of
** several contacts: r > 1 and an element engaged on them slips before it,
** or sits at zero slip where their normal impulses would move it (solved
** without friction, the impact would leave it slipping: a rocking block's
** corner landing while the other is stuck).  Otherwise friction has
** nothing to do at the impact and the law without it applies. */
static int multi_needed(const nsm_sim *s, const int *idx, int r)
{
    const double *v = rt_vel(s, s->y);
    if (r < 2)
        return 0;
    for (int k = 0; k < s->n_fric; k++)
        for (int a = 0; a < r; a++)
            if (rt_fric_normal_gap(s, k) == idx[a] &&
                (fabs(rt_fric_slip(s, k, v)) > rt_fric_slip_tol(s, k, v) ||
                 multi_coupled(s, k, idx, r)))
                return 1;
    return 0;
}

/* The law treats every contact of the impact as unilateral: a contact
** held shut before it that took no impulse and now leaves (a rocking
** block's old corner, lifted by the new one's impulse) is released from
** the mode, so that the settle after the impact logs its separation
** instead of holding it shut by its acceleration alone. */
static void multi_release(nsm_sim *s, const FricMulti *F, const double *P, double pmax)
{
    const double *v = rt_vel(s, s->y);
    for (int a = 0; a < F->r; a++) {
        int j = F->idx[a];
        if (rt_mode_has(s->mode, j) && !(P[a] > 1e-12 * pmax) &&
            rt_gap_rate(s, j, s->t, v) > rt_vel_tol(s, j, v))
            rt_state_mode_del(s, j);
    }
}

/* Record the frictional impact of several contacts just applied: an impact
** record per contact that took an impulse, in the order of the gaps (j's
** always, the others exempt from the event-rate guard; the loss, normal and
** tangential, -P . (R v- + R v+)/2 of its rows), and for each element
** engaged a stick or slip record with its impulse when its slip or state
** changed; the elements' states follow. */
static int multi_log(nsm_sim *s, int j, const FricMulti *F, const double *P, const double *v0,
                     int exempt)
{
    int n = s->n_vel, r = F->r, m = F->m, rc;
    const double *v = s->y + n;
    double lost[FRIC_MULTI_MAX] = {0}, after[FRIC_MULTI_MAX];
    for (int i = 0; i < m; i++) {
        const double *w = F->R + (size_t)i * n;
        after[i] = i < r ? rt_dot(n, w, v) : rt_fric_slip(s, F->el[i - r], v);
        lost[i < r ? i : F->on[i - r]] -= P[i] * (rt_dot(n, w, v0) + rt_dot(n, w, v)) / 2;
    }
    int order[FRIC_MULTI_MAX];                  /* the contacts by gap index */
    for (int a = 0; a < r; a++) {
        int b = a;
        for (; b > 0 && F->idx[order[b - 1]] > F->idx[a]; b--)
            order[b] = order[b - 1];
        order[b] = a;
    }
    double pmax = 0;
    for (int a = 0; a < r; a++)
        pmax = fmax(pmax, P[a]);
    for (int o = 0; o < r; o++) {
        int a = order[o];
        if (F->idx[a] != j && !(P[a] > 1e-12 * pmax))
            continue;           /* no impulse there (a rounding's worth is none) */
        if (F->idx[a] == j && !exempt)
            rc = rt_log_event(s, NSM_EV_IMPACT, j, F->u[a], after[a], P[a], lost[a], 1);
        else
            rc = rt_log_exempt(s, NSM_EV_IMPACT, F->idx[a], F->u[a], after[a], P[a], lost[a], 1);
        if (rc)
            return rc;
    }
    for (int q = 0; q < F->nk; q++) {
        int k = F->el[q], a = F->on[q];
        double u1 = after[r + q];
        if (!(P[a] > 1e-12 * pmax) && after[a] > rt_vel_tol(s, F->idx[a], v))
            continue;           /* its contact took nothing and leaves: decided once it has */
        int stuck = fabs(u1) <= rt_fric_slip_tol(s, k, v);
        if ((rc = element_after_impulse(s, k, F->u[r + q], u1, P[r + q], stuck)))
            return rc;
    }
    multi_release(s, F, P, pmax);
    return NSM_OK;
}

/* The impact of gap j reaching the r contacts idx (j among them) with an
** element engaged on them slipping: the frictional law of several contacts
** (multi_law), applied at once (to the long double state of the exact
** method when one stands behind the state) and recorded (multi_log); R is
** room for the problem's rows. */
static int impulse_multi_apply(nsm_sim *s, int j, const int *idx, int r, int exempt, double *R)
{
    int n = s->n_vel, na = s->n_aug, rc;
    FricMulti F;
    double P[FRIC_MULTI_MAX], v0[n];
    memcpy(v0, s->y + n, sizeof v0);
    if (multi_setup(s, idx, r, v0, R, &F))
        return rt_fail(s, NSM_EMODEL, j, "the frictional impact of gap '%s' reaches more than "
                       "%d contacts and friction elements at one instant: not supported",
                       s->m->gaps[j].name, FRIC_MULTI_MAX);
    if ((rc = multi_law(s, j, &F, P)))
        return rc;
    long double Z[na > 0 ? na : 1], PL[FRIC_MULTI_MAX];
    const double *rows[FRIC_MULTI_MAX];
    for (int i = 0; i < F.m; i++) {
        rows[i] = R + (size_t)i * n;
        PL[i] = P[i];
    }
    fric_state(s, Z);
    if (fric_apply(s, Z, F.m, rows, PL, NULL))
        return s->failed;
    if ((rc = multi_log(s, j, &F, P, v0, exempt)))
        return rc;
    rt_fric_resolved(s, j);
    return NSM_OK;
}

/* impulse_multi_apply with room for the rows on the heap (FRIC_MULTI_MAX
** rows over the model's coordinates). */
static int fric_impulse_multi(nsm_sim *s, int j, const int *idx, int r, int exempt)
{
    double *R = malloc(sizeof(double) * FRIC_MULTI_MAX * (size_t)s->n_vel);
    if (!R)
        return rt_fail(s, NSM_ENOMEM, j, "out of memory forming the impact problem");
    int rc = impulse_multi_apply(s, j, idx, r, exempt, R);
    free(R);
    return rc;
}

/* Impact of gap j (closing, found alone in its impulse problem: r is the
** number of contacts the impact reaches) when a friction element has j's
** contact force as its normal force: the impulses (PN, PT) of impulse_law
** applied at once (in the long double state of the exact method when one
** stands behind the state), logged as an impact of j (its impulse PN, the
** energy lost in both directions) and a record of the element: stick when
** the impulse brought the slip to -et times its value within mu_s PN,
** slip when it saturated (impulse PT; no record when the slip and the
** element's state are unchanged); the element's state follows, to be
** decided again by rt_fric_update once the gaps are settled.  *handled is
** 0 when the law does not apply (no such element, or several contacts:
** rt_fric_impact then checks that friction had nothing to do). */
int rt_fric_impulse(nsm_sim *s, int j, const int *idx, int r, int exempt, int *handled)
{
    int n = s->n_vel, na = s->n_aug, k = s->n_fric ? gap_element(s, j) : -1, stuck, rc;
    *handled = 0;
    if (s->n_fric) {
        int all[s->n_gaps], ra = multi_set(s, idx, r, all);
        if (multi_needed(s, all, ra)) {
            *handled = 1;
            return fric_impulse_multi(s, j, all, ra, exempt);
        }
    }
    if (k == -1 || r != 1)
        return NSM_OK;
    if (k < 0)
        return rt_fail(s, NSM_EMODEL, j, "an impact on gap '%s', the normal of several friction "
                       "elements: impacts with friction take one element per gap",
                       s->m->gaps[j].name);
    double *v = s->y + n;
    double wnd[n], wtd[n];
    const double *wn = rt_dense_wrow(s, j, wnd), *wt = rt_dense_wtrow(s, k, wtd);
    long double Z[na > 0 ? na : 1], P[2];
    double un0 = rt_dot(n, wn, v), ut0 = rt_fric_slip(s, k, v), lost = 0;
    fric_state(s, Z);
    if (impulse_law(s, j, k, Z + n, &P[0], &P[1], &stuck))
        return s->failed;
    if (fric_apply(s, Z, 2, (const double *const[]){wn, wt}, P, &lost))
        return s->failed;
    double un1 = rt_dot(n, wn, v), ut1 = rt_fric_slip(s, k, v);
    if (exempt)
        rc = rt_log_exempt(s, NSM_EV_IMPACT, j, un0, un1, (double)P[0], lost, 1);
    else
        rc = rt_log_event(s, NSM_EV_IMPACT, j, un0, un1, (double)P[0], lost, 1);
    if (rc)
        return rc;
    rc = element_after_impulse(s, k, ut0, ut1, (double)P[1], stuck);
    rt_fric_resolved(s, j);
    *handled = 1;
    return rc;
}

/* Whether impact gaps a and b act on a common body. */
static int gaps_coupled(const nsm_sim *s, int a, int b)
{
    return rt_gaps_coupled(s, a, b);
}

/* An impact of gap j just resolved (v0: the velocities before it).  When
** rt_fric_impulse applied the frictional law, nothing to check.  Otherwise
** (j met other contacts at that instant and the impulses were solved
** without friction) every element whose normal gap may have taken an
** impulse (a touching impact gap that j reaches through shared bodies: a
** contact held shut passes the impulse on without a change of velocity)
** must have had nothing to do: no slip before and after; else the run
** stops rather than go on without the tangential impulse. */
int rt_fric_impact(nsm_sim *s, int j, const double *v0)
{
    int n = s->n_vel;
    const double *v = s->y + n;
    if (s->fr->done_j == j && s->fr->done_t == s->t)
        return NSM_OK;
    unsigned reach[s->mode_words];
    rt_mode_none(s, reach);
    rt_mode_add(reach, j);
    for (int grown = 1; grown;) {
        grown = 0;
        for (int a = 0; a < s->n_gaps; a++) {
            if (rt_mode_has(reach, a) || !rt_law_impacts(s, a) ||
                fabs(rt_gap(s, a, s->y)) > rt_gap_tol(s, a, s->y))
                continue;
            for (int b = 0; b < s->n_gaps; b++)
                if (rt_mode_has(reach, b) && gaps_coupled(s, a, b)) {
                    rt_mode_add(reach, a);
                    grown = 1;
                    break;
                }
        }
    }
    for (int k = 0; k < s->n_fric; k++) {
        int G = rt_fric_normal_gap(s, k);
        if (G < 0 || !rt_mode_has(reach, G))
            continue;
        double u0 = rt_fric_slip(s, k, v0), u1 = rt_fric_slip(s, k, v);
        if (fabs(u0) > rt_fric_slip_tol(s, k, v0) || fabs(u1) > rt_fric_slip_tol(s, k, v))
            return rt_fail(s, NSM_EMODEL, j, "an impact on gap '%s' reaching other contacts at "
                           "the same instant while friction '%s' (on gap '%s') slips (slip velocity "
                           "%.6g m/s before, %.6g m/s after): frictional impacts are supported for "
                           "one contact at a time", s->m->gaps[j].name, s->m->frictions[k].name,
                           s->m->gaps[G].name, u0, u1);
    }
    return NSM_OK;
}

/* Whether the rest of a Zeno cascade of impact gap j may be jumped with
** friction on j, and how.  An element whose normal force is j's contact
** force either
**   - is stuck, impulses on j leave its slip alone (w_n M^-1 w_t = 0, a
**     disc on a flat wall) and the motion in flight keeps it at zero (its
**     multiplier, with no normal force, is zero): every impact of the tail
**     has no tangential impulse and the frictionless jump is exact; or
**   - slips (the only element on j): every impact of the tail then takes
**     the tangential impulse -s mu_k P_N of its normal impulse P_N (s the
**     slip's sign), as long as the slip keeps its sign, so the tail's
**     tangential impulse is -s mu_k times its normal one.  *slipping is set
**     to that element (rt_fric_tail_project and rt_fric_tail_check then
**     carry the jump), -1 otherwise.
** Otherwise (a stuck element with tangential impulses or forces in the
** flights: the tail's impulses are not summed) that element is returned,
** -1 when there is none; rt_fric_zeno_check stops the run on it.  The
** stuck force counts as zero up to the rounding of its own part's forces
** (rt_force_tol_of): the whole model's let a push of 1 N on a disc pass as
** none beside an oscillator of 1e10 N, and its tail was jumped. */
static int fric_zeno_unsummed(nsm_sim *s, int j, int *slipping)
{
    int n = s->n_vel;
    const double *v = s->y + n;
    double lam[s->n_gaps + 1], lamf[s->n_fric + 1];
    *slipping = -1;
    for (int k = 0; k < s->n_fric; k++) {
        if (rt_fric_normal_gap(s, k) != j)
            continue;
        double wnd[n], wtd[n];
        const double *wn = rt_dense_wrow(s, j, wnd), *wt = rt_dense_wtrow(s, k, wtd);
        double Gnt = (double)mdot(s, wn, wt), Gnn = (double)mdot(s, wn, wn),
               Gtt = (double)mdot(s, wt, wt), u = rt_fric_slip(s, k, v);
        int slips = !rt_fric_stuck(s, s->mode, k) && fabs(u) > rt_fric_slip_tol(s, k, v);
        if (slips && gap_element(s, j) == k &&
            Gnn - (u > 0 ? 1 : -1) * s->num.muk[k] * Gnt > 1e-12 * Gnn) {
            *slipping = k;
            continue;
        }
        int ok = rt_fric_stuck(s, s->mode, k) && fabs(u) <= rt_fric_slip_tol(s, k, v) &&
                 fabs(Gnt) <= 1e-12 * sqrt(Gnn * Gtt);
        if (ok && rt_multipliers(s, s->mode, s->t, s->y, lam, lamf) == 0)
            ok = fabs(lamf[k]) <= rt_force_tol_of(s, s->mode, s->y, s->n_gaps + k);
        if (!ok)
            return k;
    }
    return -1;
}


/* fric_zeno_unsummed, the run stopped naming the element that keeps gap
** j's tail from being summed; *slipping the slipping element or -1. */
int rt_fric_zeno_check(nsm_sim *s, int j, int *slipping)
{
    int k = fric_zeno_unsummed(s, j, slipping);
    if (k < 0)
        return NSM_OK;
    return rt_fail(s, NSM_EMODEL, j, "a Zeno cascade of gap '%s' with friction '%s' "
                   "stuck but taking tangential impulses or forces in its flights (or "
                   "slipping with other elements on the gap): summing its tail's "
                   "frictional impulses is not supported (--no-zeno resolves the "
                   "impacts one by one)", s->m->gaps[j].name, s->m->frictions[k].name);
}

/* Whether the tail of gap j's cascade can be summed with its friction
** elements (rt_fric_zeno_check would pass).  A cascade that cannot, a
** disc pushed along a rough floor from an instant inside its accumulation
** (its stuck element taking the push in the flights), is not jumped: its
** impacts are resolved one by one until its rebounds end plastic in the
** gap's band, as --no-zeno resolves them (the push was refused before;
** resolved, the disc rolls at 2 F/(3 m) from the push's instant). */
int rt_fric_zeno_summable(nsm_sim *s, int j)
{
    int slipping;
    return !s->n_fric || fric_zeno_unsummed(s, j, &slipping) < 0;
}

/* The Zeno jump's first part for gap j whose element k slips with sign s
** (rt_fric_zeno_check): the relative normal velocity u_n of the last
** rebound is removed by a normal impulse P_N with its Coulomb share
** P_T = -s mu_k P_N, P_N (G_nn - s mu_k G_nt) = -u_n.  The jump's second
** part, the flight to the accumulation point t* with j held and k
** slipping, adds the held contact's force and its friction -s mu_k lambda;
** the two sum to the tail's normal and tangential impulses up to O(tau^2)
** in the tail's length tau (theory.md, Zeno cascades with slip).  Nonzero
** (s->failed set, with the reason) when M(q) is not positive definite at
** the jump's configuration. */
int rt_fric_tail_project(nsm_sim *s, int j, int k)
{
    int n = s->n_vel;
    double *v = s->y + n, wnd[n], wtd[n];
    const double *wn = rt_dense_wrow(s, j, wnd), *wt = rt_dense_wtrow(s, k, wtd);
    double sg = rt_fric_slip(s, k, v) > 0 ? 1 : -1, mk = s->num.muk[k];
    double Gnn = (double)mdot(s, wn, wn), Gnt = (double)mdot(s, wn, wt);
    double PN = -rt_dot(n, wn, v) / (Gnn - sg * mk * Gnt), PT = -sg * mk * PN;
    if (rt_mass_dense(s)) {         /* M(q): through its factor at the jump */
        double b[n];
        long double z[n];
        for (int i = 0; i < n; i++) {
            b[i] = wn[i] * PN + wt[i] * PT;
            z[i] = v[i];
        }
        if (jump_dense(s, b, z))
            return 1;
        for (int i = 0; i < n; i++)
            v[i] = (double)z[i];
        return 0;
    }
    for (int i = 0; i < n; i++)
        v[i] += s->mass_inv[i] * (wn[i] * PN + wt[i] * PT);
    return 0;
}

/* During the Zeno jump's flight to t* (rt_fric_tail_project): element k,
** which slipped with sign sg at the jump, must still slip that way; a slip
** that stops or turns inside the tail would make the summed impulses wrong,
** so the run stops instead. */
int rt_fric_tail_check(nsm_sim *s, int j, int k, int sg)
{
    const double *v = rt_vel(s, s->y);
    double u = rt_fric_slip(s, k, v);
    if (sg * u > rt_fric_slip_tol(s, k, v))
        return NSM_OK;
    return rt_fail(s, NSM_EMODEL, j, "a Zeno cascade of gap '%s' whose friction '%s' stops "
                   "slipping before the accumulation point: summing its tail's frictional "
                   "impulses is not supported there (--no-zeno resolves the impacts one by one)",
                   s->m->gaps[j].name, s->m->frictions[k].name);
}

/* Allocate friction's state (the audit's is fricstat.c's). */
int rt_fric_alloc(nsm_sim *s)
{
    s->fr = calloc(1, sizeof *s->fr);
    if (!s->fr || !(s->fr->idle = calloc((size_t)s->n_fric + 1, 1)))
        return NSM_ENOMEM;
    s->fr->done_j = -1;
    return rt_fricstat_alloc(s);
}

/* Free friction's state. */
void rt_fric_free(nsm_sim *s)
{
    rt_fricstat_free(s);
    if (s->fr)
        free(s->fr->idle);
    free(s->fr);
    s->fr = NULL;
}

/* Back to t = 0. */
void rt_fric_reset(nsm_sim *s)
{
    rt_fricstat_reset(s);
    if (s->fr) {
        s->fr->done_j = -1;
        memset(s->fr->idle, 0, (size_t)s->n_fric + 1);
    }
}

/* Check the friction tables the setup filled: 0, or a message in s->msg
** and NSM_EMODEL. */
int rt_fric_validate(nsm_sim *s)
{
    for (int k = 0; k < s->n_fric; k++) {
        double ms = s->num.mus[k], mk = s->num.muk[k], fn = s->num.fn[k];
        int j = rt_fric_normal_gap(s, k);
        if (j >= s->n_gaps || (j >= 0 && !rt_law_impacts(s, j) &&
                          s->m->gaps[j].release == NSM_RELEASE_GAP)) {
            rt_text_printf(s->msg, sizeof s->msg, "friction '%s': its normal force must be a gap's "
                            "contact force that never pulls (an impact gap, or a penalty gap released "
                            "by force)", s->m->frictions[k].name);
            s->failed = NSM_EMODEL;
            return NSM_EMODEL;
        }
        if (j >= 0)
            fn = 1;
        if (!(s->num.et[k] >= 0 && s->num.et[k] <= 1)) {
            rt_text_printf(s->msg, sizeof s->msg, "friction '%s': its tangential restitution et must "
                            "lie in [0, 1] (it is %.12g)", s->m->frictions[k].name, s->num.et[k]);
            s->failed = NSM_EMODEL;
            return NSM_EMODEL;
        }
        if (!(mk >= 0) || !(ms >= mk) || !(fn > 0) || !isfinite(ms) || !isfinite(fn) ||
            !isfinite(s->num.ut[k])) {
            rt_text_printf(s->msg, sizeof s->msg, "friction '%s': needs mu_s >= mu_k >= 0 and a "
                            "normal force > 0 (mu_s %.12g, mu_k %.12g, normal %.12g N)",
                            s->m->frictions[k].name, ms, mk, fn);
            s->failed = NSM_EMODEL;
            return NSM_EMODEL;
        }
    }
    return NSM_OK;
}

