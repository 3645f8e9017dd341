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
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    int b = s->g + 2 * k;
    rt_mode_del(mode, b);
    rt_mode_del(mode, b + 1);
    if (sg == 0)
        rt_mode_add(mode, b);
    else if (sg < 0)
        rt_mode_add(mode, b + 1);
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
    int n = s->n, nf = s->nf, rc;
    unsigned ref[s->mw], mode[s->mw];
    rt_mode_copy(s, ref, s->mode);
    rt_mode_copy(s, mode, s->mode);
    const double *v = s->y + n;
    double lamf[nf + 1], lam[s->g + 1];
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
    for (int round = 0; round <= nf; round++) {
        if ((rc = rt_multipliers(s, mode, s->t, s->y, lam, lamf)))
            return rt_fail(s, rc, -1, "the stuck friction elements are redundant");
        int worst = -1;
        double over = 1;
        for (int k = 0; k < nf; k++) {
            if (!rt_fric_stuck(s, mode, k))
                continue;
            double cap = s->num.mus[k] * rt_fric_normal(s, mode, k, s->y, v, lam, 1);
            double tol = rt_force_tol(s, mode, s->y) + 1e-12 * cap;
            double r = fabs(lamf[k]) / (cap + tol) + (cap <= 0);
            if (fabs(lamf[k]) > cap + tol && r > over) {
                over = r;
                worst = k;
            }
        }
        if (worst < 0)
            break;
        fric_set(s, mode, worst, lamf[worst] > 0 ? -1 : 1);
    }
    rt_mode_copy(s, s->mode, mode);
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
        if ((rc = rt_log_event(s, kind, s->g + k, u, u, 0, 0, 1)))
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
    int k = (j - s->g) / 2, second = (j - s->g) % 2;
    if (!rt_fric_stuck(s, s->mode, k))
        return fric_settle(s, -1, 0, NULL);
    return fric_settle(s, k, second ? 1 : -1, NULL);
}

/* Decide the friction states after any other transition (an impact changes
** the slip velocities). */
int rt_fric_update(nsm_sim *s)
{
    return s->nf ? fric_settle(s, -1, 0, NULL) : NSM_OK;
}

/* The friction states at the start of a run: an element slipping keeps its
** sign without an event; one at rest relative to its surface is logged as
** stick, or as slip when sticking would need more than mu_s N. */
int rt_fric_initial(nsm_sim *s)
{
    unsigned fresh[s->mw];          /* the elements at rest: bit k */
    rt_mode_none(s, fresh);
    for (int k = 0; k < s->nf; k++) {
        double u = rt_fric_slip(s, k, s->y + s->n);
        fric_set(s, s->mode, k, u < 0 ? -1 : 1);
        if (fabs(u) <= rt_fric_slip_tol(s, k, s->y + s->n))
            rt_mode_add(fresh, k);
    }
    return s->nf ? fric_settle(s, -1, 0, fresh) : NSM_OK;
}

/* The friction element whose normal force is impact gap j's contact force:
** its index, -1 when there is none, -2 when there are several. */
static int gap_element(const nsm_sim *s, int j)
{
    int found = -1;
    for (int k = 0; k < s->nf; k++)
        if (rt_fric_normal_gap(s, k) == j)
            found = found < 0 ? k : -2;
    return found;
}

/* a . M^-1 b over the bodies. */
static long double mdot(const nsm_sim *s, const double *a, const double *b)
{
    long double r = 0;
    for (int i = 0; i < s->n; i++)
        r += (long double)a[i] * s->minv[i] * b[i];
    return r;
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
    int n = s->n;
    double wnd[n], wtd[n];
    const double *wn = rt_dense_wrow(s, j, wnd), *wt = rt_dense_wtrow(s, k, wtd);
    long double un = 0, ut = -(long double)s->num.ut[k];
    for (int i = 0; i < n; i++) {
        un += wn[i] * v[i];
        ut += wt[i] * v[i];
    }
    long double Gnn = mdot(s, wn, wn), Gnt = mdot(s, wn, wt), Gtt = mdot(s, wt, wt);
    long double e = s->num.e[j], et = s->num.et[k], ms = s->num.mus[k], mk = s->num.muk[k];
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
int rt_fric_impulse(nsm_sim *s, int j, int r, int exempt, int *handled)
{
    int n = s->n, na = s->na, k = s->nf ? gap_element(s, j) : -1, stuck, rc;
    *handled = 0;
    if (k == -1 || r != 1)
        return NSM_OK;
    if (k < 0)
        return rt_fail(s, NSM_EMODEL, j, "an impact on gap '%s', the normal of several friction "
                       "elements: impacts with friction take one element per gap",
                       s->m->gaps[j].name);
    double *v = s->y + n;
    double wnd[n], wtd[n];
    const double *wn = rt_dense_wrow(s, j, wnd), *wt = rt_dense_wtrow(s, k, wtd);
    long double Z[na > 0 ? na : 1], PN, PT;
    int exact = s->set.method == NSM_METHOD_EXACT;
    if (exact) {
        rt_exact_state(s, s->t, s->y, Z);
    } else {
        for (int i = 0; i < 2 * n; i++)
            Z[i] = s->y[i];
    }
    double un0 = rt_dot(n, wn, v), ut0 = rt_fric_slip(s, k, v);
    if (impulse_law(s, j, k, Z + n, &PN, &PT, &stuck))
        return s->failed;
    double Eb = rt_mech_energy(s, s->mode, s->y);
    for (int i = 0; i < n; i++)
        Z[n + i] += s->minv[i] * (wn[i] * PN + wt[i] * PT);
    if (exact)
        rt_exact_land(s, s->t, Z, s->y);
    else
        for (int i = 0; i < n; i++)
            v[i] = (double)Z[n + i];
    double lost = Eb - rt_mech_energy(s, s->mode, s->y);
    s->Ejump += lost;
    double un1 = rt_dot(n, wn, v), ut1 = rt_fric_slip(s, k, v);
    if (exempt)
        rc = rt_log_exempt(s, NSM_EV_IMPACT, j, un0, un1, (double)PN, lost, 1);
    else
        rc = rt_log_event(s, NSM_EV_IMPACT, j, un0, un1, (double)PN, lost, 1);
    if (rc)
        return rc;
    /* the element's state after the impulse: stuck when its slip is gone */
    int was = rt_fric_stuck(s, s->mode, k);
    int sg = fabs(ut1) <= rt_fric_slip_tol(s, k, v) ? 0 : ut1 > 0 ? 1 : -1;
    fric_set(s, s->mode, k, sg);
    if (!was && sg == 0)
        rt_fricstat_change(s, k, NSM_EV_STICK);
    else if (was && sg != 0)
        rt_fricstat_change(s, k, NSM_EV_SLIP);
    /* no record for an impulse that left the element alone (a rolling
     * disc bouncing: its slip unchanged to rounding, still stuck) */
    rc = NSM_OK;
    if (fabs(ut1 - ut0) > rt_fric_slip_tol(s, k, v) || was != (sg == 0)) {
        rc = rt_log_exempt(s, stuck ? NSM_EV_STICK : NSM_EV_SLIP, s->g + k, ut0, ut1,
                           (double)PT + 0.0, 0, 1);
    }
    rt_fric_resolved(s, j);
    s->fr->idle[k] = 0;             /* engaged at the impact, its state recorded */
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
    int n = s->n;
    const double *v = s->y + n;
    if (s->fr->done_j == j && s->fr->done_t == s->t)
        return NSM_OK;
    unsigned reach[s->mw];
    rt_mode_none(s, reach);
    rt_mode_add(reach, j);
    for (int grown = 1; grown;) {
        grown = 0;
        for (int a = 0; a < s->g; a++) {
            if (rt_mode_has(reach, a) || s->m->gaps[a].law != NSM_LAW_IMPACT ||
                fabs(rt_gap(s, a, s->y)) > rt_gap_tol(s, a, s->y))
                continue;
            for (int b = 0; b < s->g; b++)
                if (rt_mode_has(reach, b) && gaps_coupled(s, a, b)) {
                    rt_mode_add(reach, a);
                    grown = 1;
                    break;
                }
        }
    }
    for (int k = 0; k < s->nf; k++) {
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
** Otherwise the run stops (a stuck element with tangential impulses or
** forces in the flights: the tail's impulses are not summed). */
int rt_fric_zeno_check(nsm_sim *s, int j, int *slipping)
{
    int n = s->n;
    const double *v = s->y + n;
    double lam[s->g + 1], lamf[s->nf + 1];
    *slipping = -1;
    for (int k = 0; k < s->nf; k++) {
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
            ok = fabs(lamf[k]) <= rt_force_tol(s, s->mode, s->y);
        if (!ok)
            return rt_fail(s, NSM_EMODEL, j, "a Zeno cascade of gap '%s' with friction '%s' "
                           "stuck but taking tangential impulses or forces in its flights (or "
                           "slipping with other elements on the gap): summing its tail's "
                           "frictional impulses is not supported (--no-zeno resolves the "
                           "impacts one by one)", s->m->gaps[j].name, s->m->frictions[k].name);
    }
    return NSM_OK;
}

/* The Zeno jump's first part for gap j whose element k slips with sign s
** (rt_fric_zeno_check): the relative normal velocity u_n of the last
** rebound is removed by a normal impulse P_N with its Coulomb share
** P_T = -s mu_k P_N, P_N (G_nn - s mu_k G_nt) = -u_n.  The jump's second
** part, the flight to the accumulation point t* with j held and k
** slipping, adds the held contact's force and its friction -s mu_k lambda;
** the two sum to the tail's normal and tangential impulses up to O(tau^2)
** in the tail's length tau (theory.md, Zeno cascades with slip). */
void rt_fric_tail_project(nsm_sim *s, int j, int k)
{
    int n = s->n;
    double *v = s->y + n, wnd[n], wtd[n];
    const double *wn = rt_dense_wrow(s, j, wnd), *wt = rt_dense_wtrow(s, k, wtd);
    double sg = rt_fric_slip(s, k, v) > 0 ? 1 : -1, mk = s->num.muk[k];
    double Gnn = (double)mdot(s, wn, wn), Gnt = (double)mdot(s, wn, wt);
    double PN = -rt_dot(n, wn, v) / (Gnn - sg * mk * Gnt), PT = -sg * mk * PN;
    for (int i = 0; i < n; i++)
        v[i] += s->minv[i] * (wn[i] * PN + wt[i] * PT);
}

/* During the Zeno jump's flight to t* (rt_fric_tail_project): element k,
** which slipped with sign sg at the jump, must still slip that way; a slip
** that stops or turns inside the tail would make the summed impulses wrong,
** so the run stops instead. */
int rt_fric_tail_check(nsm_sim *s, int j, int k, int sg)
{
    const double *v = s->y + s->n;
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
    if (!s->fr || !(s->fr->idle = calloc((size_t)s->nf + 1, 1)))
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
        memset(s->fr->idle, 0, (size_t)s->nf + 1);
    }
}

/* Check the friction tables the setup filled: 0, or a message in s->msg
** and NSM_EMODEL. */
int rt_fric_validate(nsm_sim *s)
{
    for (int k = 0; k < s->nf; k++) {
        double ms = s->num.mus[k], mk = s->num.muk[k], fn = s->num.fn[k];
        int j = rt_fric_normal_gap(s, k);
        if (j >= s->g || (j >= 0 && s->m->gaps[j].law == NSM_LAW_PENALTY &&
                          s->m->gaps[j].release == NSM_RELEASE_GAP)) {
            snprintf(s->msg, sizeof s->msg, "friction '%s': its normal force must be a gap's "
                     "contact force that never pulls (an impact gap, or a penalty gap released "
                     "by force)", s->m->frictions[k].name);
            s->failed = NSM_EMODEL;
            return NSM_EMODEL;
        }
        if (j >= 0)
            fn = 1;
        if (!(s->num.et[k] >= 0 && s->num.et[k] <= 1)) {
            snprintf(s->msg, sizeof s->msg, "friction '%s': its tangential restitution et must "
                     "lie in [0, 1] (it is %.12g)", s->m->frictions[k].name, s->num.et[k]);
            s->failed = NSM_EMODEL;
            return NSM_EMODEL;
        }
        if (!(mk >= 0) || !(ms >= mk) || !(fn > 0) || !isfinite(ms) || !isfinite(fn) ||
            !isfinite(s->num.ut[k])) {
            snprintf(s->msg, sizeof s->msg, "friction '%s': needs mu_s >= mu_k >= 0 and a "
                     "normal force > 0 (mu_s %.12g, mu_k %.12g, normal %.12g N)",
                     s->m->frictions[k].name, ms, mk, fn);
            s->failed = NSM_EMODEL;
            return NSM_EMODEL;
        }
    }
    return NSM_OK;
}

