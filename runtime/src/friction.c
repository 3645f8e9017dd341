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
};

/* True when element k is stuck in mode. */
int rt_fric_stuck(const nsm_sim *s, unsigned mode, int k)
{
    return (int)(mode >> (s->g + 2 * k) & 1u);
}

/* Slip sign of element k in mode: +1 or -1 (meaningless while stuck). */
int rt_fric_sign(const nsm_sim *s, unsigned mode, int k)
{
    return (mode >> (s->g + 2 * k + 1) & 1u) ? -1 : 1;
}

/* Mode with element k set to stuck (sign 0) or slipping with sign sg. */
static unsigned fric_set(const nsm_sim *s, unsigned mode, int k, int sg)
{
    unsigned b = 1u << (s->g + 2 * k), b2 = 1u << (s->g + 2 * k + 1);
    mode &= ~(b | b2);
    if (sg == 0)
        return mode | b;
    return sg < 0 ? mode | b2 : mode;
}

/* Slip velocity of element k at velocities v. */
double rt_fric_slip(const nsm_sim *s, int k, const double *v)
{
    return rt_dot(s->n, s->num.Wt + (size_t)k * s->n, v) - s->num.ut[k];
}

/* Velocity below which element k counts as at zero slip. */
static double slip_tol(const nsm_sim *s, int k, const double *v)
{
    const double *w = s->num.Wt + (size_t)k * s->n;
    double sc = fabs(s->num.ut[k]);
    for (int i = 0; i < s->n; i++)
        sc += fabs(w[i] * v[i]);
    return 1e-9 * sc + 1e-12;
}

/* Add the slip forces of mode to F (constants: only with cflag, like the
** other affine terms of rt_force_parts). */
void rt_fric_forces(const nsm_sim *s, unsigned mode, int cflag, double *F)
{
    if (!cflag)
        return;
    for (int k = 0; k < s->nf; k++) {
        if (rt_fric_stuck(s, mode, k))
            continue;
        double f = -rt_fric_sign(s, mode, k) * s->num.muk[k] * s->num.fn[k];
        const double *w = s->num.Wt + (size_t)k * s->n;
        for (int i = 0; i < s->n; i++)
            F[i] += w[i] * f;
    }
}

/* Event functions g + 2k, g + 2k + 1 of every element and their rates, from
** the velocities v, accelerations a, and the stuck elements' multipliers
** lamf and their rates dlamf. */
void rt_fric_events(const nsm_sim *s, unsigned mode, const double *v, const double *a,
                    const double *lamf, const double *dlamf, double *ev, double *evd)
{
    for (int k = 0; k < s->nf; k++) {
        double cap = s->num.mus[k] * s->num.fn[k];
        if (rt_fric_stuck(s, mode, k)) {
            ev[2 * k] = cap - lamf[k];
            evd[2 * k] = -dlamf[k];
            ev[2 * k + 1] = cap + lamf[k];
            evd[2 * k + 1] = dlamf[k];
        } else {
            int sg = rt_fric_sign(s, mode, k);
            ev[2 * k] = sg * rt_fric_slip(s, k, v);
            evd[2 * k] = sg * rt_dot(s->n, s->num.Wt + (size_t)k * s->n, a);
            ev[2 * k + 1] = cap;
            evd[2 * k + 1] = 0;
        }
    }
}

/* Friction's dissipated power and the power of the moving surfaces in mode
** at velocities v (lamf: the stuck elements' multipliers). */
void rt_fric_power(const nsm_sim *s, unsigned mode, const double *v, const double *lamf,
                   double *pd, double *pw)
{
    *pd = *pw = 0;
    for (int k = 0; k < s->nf; k++) {
        if (rt_fric_stuck(s, mode, k)) {
            *pw += lamf[k] * s->num.ut[k];
            continue;
        }
        double f = s->num.muk[k] * s->num.fn[k];
        int sg = rt_fric_sign(s, mode, k);
        *pd += sg * f * rt_fric_slip(s, k, v);
        *pw -= sg * f * s->num.ut[k];
    }
}

/* The rows of the friction elements' event functions and the friction
** terms of the quadratic forms of mode on Z = (x, v, z, 1): L holds the
** stuck elements' multipliers as rows over Z (nf*na), ev the event rows
** (2 nf of them), Qd and Qw the forms of rt_fric_power. */
void rt_fric_forms(const nsm_sim *s, unsigned mode, const double *L, double *ev, double *Qd,
                   double *Qw)
{
    int n = s->n, na = s->na, one = na - 1;
    for (int k = 0; k < s->nf; k++) {
        double *ea = ev + (size_t)(2 * k) * na, *eb = ea + na;
        const double *w = s->num.Wt + (size_t)k * n, *l = L + (size_t)k * na;
        double cap = s->num.mus[k] * s->num.fn[k], c = s->num.ut[k];
        memset(ea, 0, sizeof(double) * 2 * (size_t)na);
        if (rt_fric_stuck(s, mode, k)) {
            for (int q = 0; q < na; q++) {
                ea[q] = -l[q];
                eb[q] = l[q];
                Qw[(size_t)one * na + q] += 0.5 * c * l[q];
                Qw[(size_t)q * na + one] += 0.5 * c * l[q];
            }
            ea[one] += cap;
            eb[one] += cap;
            continue;
        }
        int sg = rt_fric_sign(s, mode, k);
        double f = s->num.muk[k] * s->num.fn[k];
        for (int i = 0; i < n; i++) {
            ea[n + i] = sg * w[i];
            Qd[(size_t)(n + i) * na + one] += 0.5 * sg * f * w[i];
            Qd[(size_t)one * na + n + i] += 0.5 * sg * f * w[i];
        }
        ea[one] = -sg * c;
        eb[one] = cap;
        Qd[(size_t)one * na + one] -= sg * f * c;
        Qw[(size_t)one * na + one] -= sg * f * c;
    }
}

/* Rounding level of friction event function j (g <= j < ge) at y. */
double rt_fric_event_tol(const nsm_sim *s, int j, const double *y)
{
    int k = (j - s->g) / 2;
    if (!rt_fric_stuck(s, s->mode, k))
        return slip_tol(s, k, y + s->n);
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

/* The multipliers of the stuck elements of mode at the current state. */
static int fric_multipliers(nsm_sim *s, unsigned mode, double *lamf)
{
    int n = s->n;
    double f[n], F[n], a[n];
    for (int i = 0; i < n; i++)
        f[i] = 0;
    if (s->m->force)
        s->m->force(s->t, s->sw, s->p, s->c, f);
    rt_force_parts(s, mode, s->y, s->y + n, f, 1, F);
    return rt_accel_full(s, mode, F, a, NULL, lamf);
}

/* Decide the friction state of every element at the current state: an
** element slipping by more than its rounding keeps slipping with the sign
** of its slip; those at zero slip stick if the multipliers allow it (all
** first, then the one furthest beyond mu_s N released against its force,
** until every stuck one is within its cone).  Element forced (>= 0) slips
** with sign fsign whatever its slip (its force has just reached the cone).
** Logs stick, slip and reversal against the mode before. */
static int fric_settle(nsm_sim *s, int forced, int fsign, unsigned fresh)
{
    int n = s->n, nf = s->nf, rc;
    unsigned ref = s->mode, mode = s->mode;
    const double *v = s->y + n;
    double lamf[RT_MAXG];
    for (int k = 0; k < nf; k++) {
        double u = rt_fric_slip(s, k, v);
        if (k == forced)
            mode = fric_set(s, mode, k, fsign);
        else if (fabs(u) > slip_tol(s, k, v))
            mode = fric_set(s, mode, k, u > 0 ? 1 : -1);
        else
            mode = fric_set(s, mode, k, 0);
    }
    for (int round = 0; round <= nf; round++) {
        if ((rc = fric_multipliers(s, mode, lamf)))
            return rt_fail(s, rc, -1, "the stuck friction elements are redundant");
        int worst = -1;
        double over = 1;
        for (int k = 0; k < nf; k++) {
            if (!rt_fric_stuck(s, mode, k))
                continue;
            double cap = s->num.mus[k] * s->num.fn[k];
            double tol = rt_force_tol(s, mode, s->y) + 1e-12 * cap;
            double r = fabs(lamf[k]) / (cap + tol);
            if (fabs(lamf[k]) > cap + tol && r > over) {
                over = r;
                worst = k;
            }
        }
        if (worst < 0)
            break;
        mode = fric_set(s, mode, worst, lamf[worst] > 0 ? -1 : 1);
    }
    s->mode = mode;
    for (int k = 0; k < nf; k++) {
        int was = rt_fric_stuck(s, ref, k), now = rt_fric_stuck(s, mode, k);
        int kind = -1;
        if (fresh >> k & 1u)
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
        return fric_settle(s, -1, 0, 0);
    return fric_settle(s, k, second ? 1 : -1, 0);
}

/* Decide the friction states after any other transition (an impact changes
** the slip velocities). */
int rt_fric_update(nsm_sim *s)
{
    return s->nf ? fric_settle(s, -1, 0, 0) : NSM_OK;
}

/* The friction states at the start of a run: an element slipping keeps its
** sign without an event; one at rest relative to its surface is logged as
** stick, or as slip when sticking would need more than mu_s N. */
int rt_fric_initial(nsm_sim *s)
{
    unsigned fresh = 0;
    for (int k = 0; k < s->nf; k++) {
        double u = rt_fric_slip(s, k, s->y + s->n);
        s->mode = fric_set(s, s->mode, k, u < 0 ? -1 : 1);
        if (fabs(u) <= slip_tol(s, k, s->y + s->n))
            fresh |= 1u << k;
    }
    return s->nf ? fric_settle(s, -1, 0, fresh) : NSM_OK;
}

/* The audit of one step from (s->t, s->y) to (t1, Y1) in s->mode: each
** slipping element dissipates mu_k N s (w . dx - c h) exactly (its force is
** constant over the step), the surface does -s mu_k N c h; a stuck element's
** surface work c times the integral of its multiplier, by the trapezoid on
** the step's ends (exact for the multiplier's linear part).  Returns the
** totals, which the rest of the audit leaves out of the dampers' and
** bodies' shares. */
void rt_fric_step(nsm_sim *s, double t1, const double *Y1, double *dD, double *dW)
{
    int n = s->n;
    double h = t1 - s->t, l0[RT_MAXG], l1[RT_MAXG];
    int have = 0;
    *dD = *dW = 0;
    for (int k = 0; k < s->nf; k++) {
        const double *w = s->num.Wt + (size_t)k * n;
        double c = s->num.ut[k], d = 0, w_ = 0;
        if (rt_fric_stuck(s, s->mode, k)) {
            if (c == 0)
                continue;
            if (!have) {
                double f[n], F[n], a[n], Y[s->N];
                memcpy(Y, Y1, sizeof Y);
                if (fric_multipliers(s, s->mode, l0))
                    return;
                for (int i = 0; i < n; i++)
                    f[i] = 0;
                if (s->m->force)
                    s->m->force(t1, s->sw, s->p, s->c, f);
                rt_force_parts(s, s->mode, Y, Y + n, f, 1, F);
                if (rt_accel_full(s, s->mode, F, a, NULL, l1))
                    return;
                have = 1;
            }
            w_ = c * 0.5 * (l0[k] + l1[k]) * h;
        } else {
            double f = s->num.muk[k] * s->num.fn[k], dx = 0;
            int sg = rt_fric_sign(s, s->mode, k);
            for (int i = 0; i < n; i++)
                dx += w[i] * (Y1[i] - s->y[i]);
            d = sg * f * (dx - c * h);
            w_ = -sg * f * c * h;
        }
        s->fr->diss[k] += d;
        s->fr->work[k] += w_;
        *dD += d;
        *dW += w_;
    }
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
}

/* Check the friction tables the setup filled: 0, or a message in s->msg
** and NSM_EMODEL. */
int rt_fric_validate(nsm_sim *s)
{
    for (int k = 0; k < s->nf; k++) {
        double ms = s->num.mus[k], mk = s->num.muk[k], fn = s->num.fn[k];
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
