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

/* Per-element accumulators of the audit. */
struct RtFric {
    double *diss, *work;      /* nf each: friction dissipation, work of the surface */
    double *since, *time;     /* nf each: start of the current stick phase, total stuck time */
    long *sticks, *slips, *reversals;
    int done_j;               /* gap and time of the last impact rt_fric_impulse resolved */
    double done_t;
};

/* True when element k is stuck in mode. */
int rt_fric_stuck(const nsm_sim *s, const unsigned *mode, int k)
{
    return rt_mode_has(mode, s->g + 2 * k);
}

/* Slip sign of element k in mode: +1 or -1 (meaningless while stuck). */
int rt_fric_sign(const nsm_sim *s, const unsigned *mode, int k)
{
    return rt_mode_has(mode, s->g + 2 * k + 1) ? -1 : 1;
}

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

/* Slip velocity of element k at velocities v. */
double rt_fric_slip(const nsm_sim *s, int k, const double *v)
{
    return rt_wtrow(s, k, v) - s->num.ut[k];
}

/* Velocity below which element k counts as at zero slip. */
static double slip_tol(const nsm_sim *s, int k, const double *v)
{
    const RtCsr *W = &s->sp.Wt;
    double sc = fabs(s->num.ut[k]);
    for (int q = W->p[k]; q < W->p[k + 1]; q++)
        sc += fabs(W->x[q] * v[W->i[q]]);
    return 1e-9 * sc + 1e-12;
}

/* Gap whose contact force is element k's normal force, or -1. */
static int normal_gap(const nsm_sim *s, int k)
{
    return s->m->frictions[k].normal_gap;
}

/* Normal force of element k at (x, v) in mode: its constant, or the contact
** force of its gap (lam: the closed impact gaps' forces, for an impact
** gap; a penalty gap's k p + c p'; 0 while the gap is open).  With cflag 0
** the constants (fn, the gap's offset) are left out: the linear part. */
static double fric_normal(const nsm_sim *s, const unsigned *mode, int k, const double *x,
                          const double *v, const double *lam, int cflag)
{
    int j = normal_gap(s, k);
    if (j < 0)
        return cflag ? s->num.fn[k] : 0;
    if (!rt_mode_has(mode, j))
        return 0;
    if (s->m->gaps[j].law == NSM_LAW_IMPACT)
        return lam ? lam[j] : 0;
    return -s->num.kc[j] * (rt_wrow(s, j, x) + (cflag ? s->num.d[j] : 0)) -
           s->num.cc[j] * rt_wrow(s, j, v);
}

/* Add the slip forces of mode at (x, v) to F: constants (only with cflag,
** like the other affine terms of rt_force_parts), or linear in the state
** when the normal is a penalty gap's force.  Those whose normal is an
** impact gap's force are in that gap's force direction (rt_fric_gap_dir). */
void rt_fric_forces(const nsm_sim *s, const unsigned *mode, const double *x, const double *v,
                    int cflag, double *F)
{
    for (int k = 0; k < s->nf; k++) {
        int j = normal_gap(s, k);
        if (rt_fric_stuck(s, mode, k) || (j >= 0 && s->m->gaps[j].law == NSM_LAW_IMPACT))
            continue;
        double f = -rt_fric_sign(s, mode, k) * s->num.muk[k] *
                   fric_normal(s, mode, k, x, v, NULL, cflag);
        rt_csr_axpy(&s->sp.Wt, k, f, F);
    }
}

/* Add to dir (n values, initially w_j) the slip forces per unit contact
** force of closed impact gap j: the elements slipping on j's force. */
void rt_fric_gap_dir(const nsm_sim *s, const unsigned *mode, int j, double *dir)
{
    for (int k = 0; k < s->nf; k++) {
        if (normal_gap(s, k) != j || rt_fric_stuck(s, mode, k))
            continue;
        double f = -rt_fric_sign(s, mode, k) * s->num.muk[k];
        rt_csr_axpy(&s->sp.Wt, k, f, dir);
    }
}

/* Event functions g + 2k, g + 2k + 1 of every element and their rates, from
** the state (x, v), accelerations a, the closed impact gaps' forces lam and
** their rates dlam, and the stuck elements' multipliers lamf and their
** rates dlamf.  A slipping element's second function is the constant 1. */
void rt_fric_events(const nsm_sim *s, const unsigned *mode, const double *x, const double *v,
                    const double *a, const double *lam, const double *dlam, const double *lamf,
                    const double *dlamf, double *ev, double *evd)
{
    for (int k = 0; k < s->nf; k++) {
        if (rt_fric_stuck(s, mode, k)) {
            double ms = s->num.mus[k];
            double N = fric_normal(s, mode, k, x, v, lam, 1);
            double Nd = fric_normal(s, mode, k, v, a, dlam, 0);
            ev[2 * k] = ms * N - lamf[k];
            evd[2 * k] = ms * Nd - dlamf[k];
            ev[2 * k + 1] = ms * N + lamf[k];
            evd[2 * k + 1] = ms * Nd + dlamf[k];
        } else {
            int sg = rt_fric_sign(s, mode, k);
            ev[2 * k] = sg * rt_fric_slip(s, k, v);
            evd[2 * k] = sg * rt_wtrow(s, k, a);
            ev[2 * k + 1] = 1;
            evd[2 * k + 1] = 0;
        }
    }
}

/* Friction's dissipated power and the power of the moving surfaces in mode
** at velocities v (lamf: the stuck elements' multipliers). */
void rt_fric_power(const nsm_sim *s, const unsigned *mode, const double *x, const double *v,
                   const double *lam, const double *lamf, double *pd, double *pw)
{
    *pd = *pw = 0;
    for (int k = 0; k < s->nf; k++) {
        if (rt_fric_stuck(s, mode, k)) {
            *pw += lamf[k] * s->num.ut[k];
            continue;
        }
        double f = s->num.muk[k] * fric_normal(s, mode, k, x, v, lam, 1);
        int sg = rt_fric_sign(s, mode, k);
        *pd += sg * f * rt_fric_slip(s, k, v);
        *pw -= sg * f * s->num.ut[k];
    }
}

/* Element k's normal force as a row over Z = (x, v, z, 1) in mode: its
** constant, a penalty gap's k p + c p', or a held impact gap's force (the
** row lg of that gap, from the constrained accelerations). */
static void normal_row(const nsm_sim *s, const unsigned *mode, int k, const double *lg, double *row)
{
    int n = s->n, na = s->na, j = normal_gap(s, k);
    memset(row, 0, sizeof(double) * (size_t)na);
    if (j < 0) {
        row[na - 1] = s->num.fn[k];
    } else if (!rt_mode_has(mode, j)) {
        return;
    } else if (s->m->gaps[j].law == NSM_LAW_IMPACT) {
        memcpy(row, lg + (size_t)j * na, sizeof(double) * (size_t)na);
    } else {
        const RtCsr *W = &s->sp.W;
        for (int q = W->p[j]; q < W->p[j + 1]; q++) {
            row[W->i[q]] = -s->num.kc[j] * W->x[q];
            row[n + W->i[q]] = -s->num.cc[j] * W->x[q];
        }
        row[na - 1] = -s->num.kc[j] * s->num.d[j];
    }
}

/* The rows of the friction elements' event functions and the friction
** terms of the quadratic forms of mode on Z = (x, v, z, 1): L holds the
** stuck elements' multipliers as rows over Z (nf*na), lg the closed impact
** gaps' forces (g rows), ev the event rows (2 nf of them), Qd and Qw the
** forms of rt_fric_power. */
void rt_fric_forms(const nsm_sim *s, const unsigned *mode, const double *L, const double *lg, double *ev,
                   double *Qd, double *Qw)
{
    int n = s->n, na = s->na, one = na - 1;
    double nr[na], ur[na];
    for (int k = 0; k < s->nf; k++) {
        double *ea = ev + (size_t)(2 * k) * na, *eb = ea + na;
        double wd[n];
        const double *w = rt_dense_wtrow(s, k, wd), *l = L + (size_t)k * na;
        double ms = s->num.mus[k], c = s->num.ut[k];
        memset(ea, 0, sizeof(double) * 2 * (size_t)na);
        normal_row(s, mode, k, lg, nr);
        if (rt_fric_stuck(s, mode, k)) {
            for (int q = 0; q < na; q++) {
                ea[q] = ms * nr[q] - l[q];
                eb[q] = ms * nr[q] + l[q];
                Qw[(size_t)one * na + q] += 0.5 * c * l[q];
                Qw[(size_t)q * na + one] += 0.5 * c * l[q];
            }
            continue;
        }
        /* dissipation s mu_k N u and surface work -s mu_k N c, N = nr . Z,
         * u = ur . Z: symmetric quadratic forms */
        int sg = rt_fric_sign(s, mode, k);
        double f = sg * s->num.muk[k];
        memset(ur, 0, sizeof ur);
        for (int i = 0; i < n; i++)
            ur[n + i] = w[i];
        ur[one] = -c;
        for (int q = 0; q < na; q++)
            ea[q] = sg * ur[q];
        eb[one] = 1;
        for (int p = 0; p < na; p++) {
            if (nr[p] == 0 && ur[p] == 0)
                continue;
            for (int q = 0; q < na; q++)
                Qd[(size_t)p * na + q] += 0.5 * f * (nr[p] * ur[q] + ur[p] * nr[q]);
            Qw[(size_t)one * na + p] -= 0.5 * f * c * nr[p];
            Qw[(size_t)p * na + one] -= 0.5 * f * c * nr[p];
        }
    }
}

/* Rounding level of friction event function j (g <= j < ge) at y. */
double rt_fric_event_tol(const nsm_sim *s, int j, const double *y)
{
    int k = (j - s->g) / 2;
    if (!rt_fric_stuck(s, s->mode, k))
        return (j - s->g) % 2 ? 1e-10 : slip_tol(s, k, y + s->n);
    return rt_force_tol(s, s->mode, y) + 1e-10 * s->num.mus[k] * s->num.fn[k];
}

/* After a step without an event: a slipping element found slipping the
** other way by far more than its rounding means a missed reversal. */
int rt_fric_check(nsm_sim *s, double t1, const double *Y1)
{
    for (int k = 0; k < s->nf; k++) {
        if (rt_fric_stuck(s, s->mode, k))
            continue;
        double u = rt_fric_slip(s, k, Y1 + s->n);
        if (rt_fric_sign(s, s->mode, k) * u < -100 * slip_tol(s, k, Y1 + s->n)) {
            s->t = t1;
            return rt_fail(s, NSM_ENUMERIC, s->g + 2 * k,
                           "the slip velocity changed sign without an event (%.6g m/s): the "
                           "step is too long for this friction element", u);
        }
    }
    return NSM_OK;
}

/* The multipliers of the stuck elements of mode at (t, y), and the
** closed impact gaps' forces (lam, may be NULL). */
static int fric_multipliers(nsm_sim *s, const unsigned *mode, double t, const double *y, double *lam,
                            double *lamf)
{
    int n = s->n;
    double f[n], F[n], a[n];
    for (int i = 0; i < n; i++)
        f[i] = 0;
    if (s->m->force)
        s->m->force(t, s->sw, s->p, s->c, f);
    rt_force_parts(s, mode, y, y + n, f, 1, F);
    return rt_accel_full(s, mode, F, a, lam, lamf);
}

/* Decide the friction state of every element at the current state: an
** element slipping by more than its rounding keeps slipping with the sign
** of its slip; those at zero slip stick if the multipliers allow it (all
** first, then the one furthest beyond mu_s N released against its force,
** until every stuck one is within its cone).  Element forced (>= 0) slips
** with sign fsign whatever its slip (its force has just reached the cone).
** Logs stick, slip and reversal against the mode before. */
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
        if (k == forced)
            fric_set(s, mode, k, fsign);
        else if (fabs(u) > slip_tol(s, k, v))
            fric_set(s, mode, k, u > 0 ? 1 : -1);
        else
            fric_set(s, mode, k, 0);
    }
    for (int round = 0; round <= nf; round++) {
        if ((rc = fric_multipliers(s, mode, s->t, s->y, lam, lamf)))
            return rt_fail(s, rc, -1, "the stuck friction elements are redundant");
        int worst = -1;
        double over = 1;
        for (int k = 0; k < nf; k++) {
            if (!rt_fric_stuck(s, mode, k))
                continue;
            double cap = s->num.mus[k] * fric_normal(s, mode, k, s->y, v, lam, 1);
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
        int kind = -1;
        if (fresh && rt_mode_has(fresh, k))
            kind = now ? NSM_EV_STICK : NSM_EV_SLIP;
        else if (!was && now)
            kind = NSM_EV_STICK;
        else if (was && !now)
            kind = NSM_EV_SLIP;
        else if (!now && rt_fric_sign(s, ref, k) != rt_fric_sign(s, mode, k))
            kind = NSM_EV_REVERSAL;
        if (kind < 0)
            continue;
        struct RtFric *fr = s->fr;
        if (kind == NSM_EV_STICK) {
            fr->sticks[k]++;
            fr->since[k] = s->t;
        } else if (kind == NSM_EV_SLIP) {
            fr->slips[k]++;
            fr->time[k] += s->t - fr->since[k];
        } else {
            fr->reversals[k]++;
        }
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
        if (fabs(u) <= slip_tol(s, k, s->y + s->n))
            rt_mode_add(fresh, k);
    }
    return s->nf ? fric_settle(s, -1, 0, fresh) : NSM_OK;
}

/* The audit of one step from (s->t, s->y) to (t1, Y1) in s->mode: a
** slipping element with a constant normal force dissipates
** mu_k N s (w . dx - c h) exactly (its force is constant over the step),
** and the surface does -s mu_k N c h; with a gap's force as its normal, the
** trapezoid on the step's ends.  A stuck element's surface work is c times
** the integral of its multiplier, by the trapezoid.  Returns the totals,
** which the rest of the audit leaves out of the dampers' and bodies'
** shares. */
void rt_fric_step(nsm_sim *s, double t1, const double *Y1, double *dD, double *dW)
{
    int n = s->n;
    double h = t1 - s->t, l0[s->nf + 1], l1[s->nf + 1], g0[s->g + 1], g1[s->g + 1];
    int need = 0;
    *dD = *dW = 0;
    for (int k = 0; k < s->nf; k++)
        need |= rt_fric_stuck(s, s->mode, k) ? s->num.ut[k] != 0 : normal_gap(s, k) >= 0;
    if (need && (fric_multipliers(s, s->mode, s->t, s->y, g0, l0) ||
                 fric_multipliers(s, s->mode, t1, Y1, g1, l1)))
        return;
    for (int k = 0; k < s->nf; k++) {
        double c = s->num.ut[k], d = 0, w_ = 0;
        if (rt_fric_stuck(s, s->mode, k)) {
            w_ = c * 0.5 * (l0[k] + l1[k]) * h;
        } else if (normal_gap(s, k) < 0) {
            double f = s->num.muk[k] * s->num.fn[k], dx = 0;
            int sg = rt_fric_sign(s, s->mode, k);
            for (int q = s->sp.Wt.p[k]; q < s->sp.Wt.p[k + 1]; q++)
                dx += s->sp.Wt.x[q] * (Y1[s->sp.Wt.i[q]] - s->y[s->sp.Wt.i[q]]);
            d = sg * f * (dx - c * h);
            w_ = -sg * f * c * h;
        } else {
            int sg = rt_fric_sign(s, s->mode, k);
            double N0 = fric_normal(s, s->mode, k, s->y, s->y + n, g0, 1);
            double N1 = fric_normal(s, s->mode, k, Y1, Y1 + n, g1, 1);
            double mk = sg * s->num.muk[k];
            d = 0.5 * h * mk * (N0 * rt_fric_slip(s, k, s->y + n) + N1 * rt_fric_slip(s, k, Y1 + n));
            w_ = -0.5 * h * mk * c * (N0 + N1);
        }
        s->fr->diss[k] += d;
        s->fr->work[k] += w_;
        *dD += d;
        *dW += w_;
    }
}

/* The friction element whose normal force is impact gap j's contact force:
** its index, -1 when there is none, -2 when there are several. */
static int gap_element(const nsm_sim *s, int j)
{
    int found = -1;
    for (int k = 0; k < s->nf; k++)
        if (normal_gap(s, k) == j)
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
    int exact = s->method == NSM_METHOD_EXACT;
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
    s->rate.exempt = exempt;
    rc = rt_log_event(s, NSM_EV_IMPACT, j, un0, un1, (double)PN, lost, 1);
    s->rate.exempt = 0;
    if (rc)
        return rc;
    /* the element's state after the impulse: stuck when its slip is gone */
    int was = rt_fric_stuck(s, s->mode, k);
    int sg = fabs(ut1) <= slip_tol(s, k, v) ? 0 : ut1 > 0 ? 1 : -1;
    fric_set(s, s->mode, k, sg);
    struct RtFric *fr = s->fr;
    if (!was && sg == 0) {
        fr->sticks[k]++;
        fr->since[k] = s->t;
    } else if (was && sg != 0) {
        fr->slips[k]++;
        fr->time[k] += s->t - fr->since[k];
    }
    /* no record for an impulse that left the element alone (a rolling
     * disc bouncing: its slip unchanged to rounding, still stuck) */
    rc = NSM_OK;
    if (fabs(ut1 - ut0) > slip_tol(s, k, v) || was != (sg == 0)) {
        s->rate.exempt = 1;
        rc = rt_log_event(s, stuck ? NSM_EV_STICK : NSM_EV_SLIP, s->g + k, ut0, ut1,
                          (double)PT + 0.0, 0, 1);
        s->rate.exempt = 0;
    }
    fr->done_j = j;
    fr->done_t = s->t;
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
        int G = normal_gap(s, k);
        if (G < 0 || !rt_mode_has(reach, G))
            continue;
        double u0 = rt_fric_slip(s, k, v0), u1 = rt_fric_slip(s, k, v);
        if (fabs(u0) > slip_tol(s, k, v0) || fabs(u1) > slip_tol(s, k, v))
            return rt_fail(s, NSM_EMODEL, j, "an impact on gap '%s' reaching other contacts at "
                           "the same instant while friction '%s' (on gap '%s') slips (slip velocity "
                           "%.6g m/s before, %.6g m/s after): frictional impacts are supported for "
                           "one contact at a time", s->m->gaps[j].name, s->m->frictions[k].name,
                           s->m->gaps[G].name, u0, u1);
    }
    return NSM_OK;
}

/* Whether the rest of a Zeno cascade of impact gap j may be jumped with
** friction on j: every element whose normal force is j's contact force is
** stuck (no slip), impulses on j leave its slip alone (w_n M^-1 w_t = 0, a
** disc on a flat wall) and the motion in flight keeps it at zero (its
** multiplier, with no normal force, is zero: no tangential force to
** hold).  Then every impact of the tail has no tangential impulse and the
** frictionless jump is exact.  Otherwise the run stops (the tail's
** tangential impulses are not summed). */
int rt_fric_zeno_check(nsm_sim *s, int j)
{
    int n = s->n;
    const double *v = s->y + n;
    double lam[s->g + 1], lamf[s->nf + 1];
    for (int k = 0; k < s->nf; k++) {
        if (normal_gap(s, k) != j)
            continue;
        double wnd[n], wtd[n];
        const double *wn = rt_dense_wrow(s, j, wnd), *wt = rt_dense_wtrow(s, k, wtd);
        double Gnt = (double)mdot(s, wn, wt), Gnn = (double)mdot(s, wn, wn),
               Gtt = (double)mdot(s, wt, wt);
        int ok = rt_fric_stuck(s, s->mode, k) && fabs(rt_fric_slip(s, k, v)) <= slip_tol(s, k, v) &&
                 fabs(Gnt) <= 1e-12 * sqrt(Gnn * Gtt);
        if (ok && fric_multipliers(s, s->mode, s->t, s->y, lam, lamf) == 0)
            ok = fabs(lamf[k]) <= rt_force_tol(s, s->mode, s->y);
        if (!ok)
            return rt_fail(s, NSM_EMODEL, j, "a Zeno cascade of gap '%s' with friction '%s' "
                           "slipping, or with tangential impulses or forces in its flights: "
                           "summing its tail's frictional impulses is not supported (--no-zeno "
                           "resolves the impacts one by one)",
                           s->m->gaps[j].name, s->m->frictions[k].name);
    }
    return NSM_OK;
}

/* Allocate the accumulators (nf may be 0). */
int rt_fric_alloc(nsm_sim *s)
{
    size_t nf = (size_t)(s->nf ? s->nf : 1);
    struct RtFric *fr = calloc(1, sizeof *fr);
    if (!fr)
        return NSM_ENOMEM;
    s->fr = fr;
    fr->diss = calloc(4 * nf, sizeof(double));
    fr->sticks = calloc(3 * nf, sizeof(long));
    if (!fr->diss || !fr->sticks)
        return NSM_ENOMEM;
    fr->done_j = -1;
    fr->work = fr->diss + nf;
    fr->since = fr->work + nf;
    fr->time = fr->since + nf;
    fr->slips = fr->sticks + nf;
    fr->reversals = fr->slips + nf;
    return NSM_OK;
}

/* Free the accumulators. */
void rt_fric_free(nsm_sim *s)
{
    if (!s->fr)
        return;
    free(s->fr->diss);
    free(s->fr->sticks);
    free(s->fr);
    s->fr = NULL;
}

/* Zero the accumulators (reset to t = 0). */
void rt_fric_reset(nsm_sim *s)
{
    size_t nf = (size_t)(s->nf ? s->nf : 1);
    if (!s->fr)
        return;
    memset(s->fr->diss, 0, 4 * nf * sizeof(double));
    memset(s->fr->sticks, 0, 3 * nf * sizeof(long));
    s->fr->done_j = -1;
}

/* Check the friction tables the setup filled: 0, or a message in s->msg
** and NSM_EMODEL. */
int rt_fric_validate(nsm_sim *s)
{
    for (int k = 0; k < s->nf; k++) {
        double ms = s->num.mus[k], mk = s->num.muk[k], fn = s->num.fn[k];
        int j = normal_gap(s, k);
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

/* Statistics of friction element k over the run so far. */
int nsm_sim_friction_stats(const nsm_sim *s, int k, nsm_friction_stats *out)
{
    if (!s || !out || !s->fr || k < 0 || k >= s->nf)
        return NSM_EINVAL;
    const struct RtFric *fr = s->fr;
    int stuck = rt_fric_stuck(s, s->mode, k);
    out->dissipated = fr->diss[k];
    out->surface_work = fr->work[k];
    out->sticks = fr->sticks[k];
    out->slips = fr->slips[k];
    out->reversals = fr->reversals[k];
    out->stick_time = fr->time[k] + (stuck ? s->t - fr->since[k] : 0);
    out->state = stuck ? 0 : rt_fric_sign(s, s->mode, k);
    return NSM_OK;
}
