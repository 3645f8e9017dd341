/*
** fricstat.c: the friction elements' share of the energy audit and their
** statistics.
**
** Per element: the energy its slipping dissipated, the work its surface did
** on the bodies, how often it stuck, slipped and reversed, and the time it
** spent stuck.  stats.c calls rt_fricstat_step over every step, before the
** step's transition; friction.c reports each change of an element's state
** through rt_fricstat_change.  The `fs` sub-struct of the simulation is
** owned here.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

struct RtFricStat {
    double *diss, *work;      /* nf each: friction dissipation, work of the surface */
    double *since, *time;     /* nf each: start of the current stick phase, total stuck time */
    long *sticks, *slips, *reversals;
};

/* Allocate the accumulators (nf may be 0). */
int rt_fricstat_alloc(nsm_sim *s)
{
    size_t nf = (size_t)(s->nf ? s->nf : 1);
    struct RtFricStat *fs = calloc(1, sizeof *fs);
    if (!fs)
        return NSM_ENOMEM;
    s->fs = fs;
    fs->diss = calloc(4 * nf, sizeof(double));
    fs->sticks = calloc(3 * nf, sizeof(long));
    if (!fs->diss || !fs->sticks)
        return NSM_ENOMEM;
    fs->work = fs->diss + nf;
    fs->since = fs->work + nf;
    fs->time = fs->since + nf;
    fs->slips = fs->sticks + nf;
    fs->reversals = fs->slips + nf;
    return NSM_OK;
}

/* Free the accumulators. */
void rt_fricstat_free(nsm_sim *s)
{
    if (!s->fs)
        return;
    free(s->fs->diss);
    free(s->fs->sticks);
    free(s->fs);
    s->fs = NULL;
}

/* Zero the accumulators (reset to t = 0). */
void rt_fricstat_reset(nsm_sim *s)
{
    size_t nf = (size_t)(s->nf ? s->nf : 1);
    if (!s->fs)
        return;
    memset(s->fs->diss, 0, 4 * nf * sizeof(double));
    memset(s->fs->sticks, 0, 3 * nf * sizeof(long));
}

/* Count element k's change of state at the current time: kind is
** NSM_EV_STICK, NSM_EV_SLIP (from stuck), NSM_EV_REVERSAL, or
** NSM_EV_SEPARATION when its normal gap opened while it stuck (the stick
** phase ends; nothing is counted). */
void rt_fricstat_change(nsm_sim *s, int k, int kind)
{
    struct RtFricStat *fs = s->fs;
    if (kind == NSM_EV_STICK) {
        fs->sticks[k]++;
        fs->since[k] = s->t;
    } else if (kind == NSM_EV_SLIP || kind == NSM_EV_SEPARATION) {
        fs->slips[k] += kind == NSM_EV_SLIP;
        fs->time[k] += s->t - fs->since[k];
    } else {
        fs->reversals[k]++;
    }
}

/* The audit of one step from (s->t, s->y) to (t1, Y1) in s->mode: a
** slipping element with a constant normal force dissipates
** mu_k N s (w . dx - c h) exactly (its force is constant over the step),
** and the surface does -s mu_k N c h; with a gap's force as its normal, the
** trapezoid on the step's ends.  A stuck element's surface work is c times
** the integral of its multiplier, by the trapezoid.  Returns the totals,
** which the rest of the audit leaves out of the dampers' and bodies'
** shares. */
void rt_fricstat_step(nsm_sim *s, double t1, const double *Y1, double *dD, double *dW)
{
    int n = s->n;
    double h = t1 - s->t, l0[s->nf + 1], l1[s->nf + 1], g0[s->g + 1], g1[s->g + 1];
    int need = 0;
    *dD = *dW = 0;
    for (int k = 0; k < s->nf; k++)
        need |= rt_fric_stuck(s, s->mode, k) ? s->num.ut[k] != 0 : rt_fric_normal_gap(s, k) >= 0;
    if (need && (rt_multipliers(s, s->mode, s->t, s->y, g0, l0) ||
                 rt_multipliers(s, s->mode, t1, Y1, g1, l1)))
        return;
    for (int k = 0; k < s->nf; k++) {
        const double *w = s->num.Wt + (size_t)k * n;
        double c = s->num.ut[k], d = 0, w_ = 0;
        if (rt_fric_stuck(s, s->mode, k)) {
            w_ = c * 0.5 * (l0[k] + l1[k]) * h;
        } else if (rt_fric_normal_gap(s, k) < 0) {
            double f = s->num.muk[k] * s->num.fn[k], dx = 0;
            int sg = rt_fric_sign(s, s->mode, k);
            for (int i = 0; i < n; i++)
                dx += w[i] * (Y1[i] - s->y[i]);
            d = sg * f * (dx - c * h);
            w_ = -sg * f * c * h;
        } else {
            int sg = rt_fric_sign(s, s->mode, k);
            double N0 = rt_fric_normal(s, s->mode, k, s->y, s->y + n, g0, 1);
            double N1 = rt_fric_normal(s, s->mode, k, Y1, Y1 + n, g1, 1);
            double mk = sg * s->num.muk[k];
            d = 0.5 * h * mk * (N0 * rt_fric_slip(s, k, s->y + n) + N1 * rt_fric_slip(s, k, Y1 + n));
            w_ = -0.5 * h * mk * c * (N0 + N1);
        }
        s->fs->diss[k] += d;
        s->fs->work[k] += w_;
        *dD += d;
        *dW += w_;
    }
}

/* Statistics of friction element k over the run so far. */
int nsm_sim_friction_stats(const nsm_sim *s, int k, nsm_friction_stats *out)
{
    if (!s || !out || !s->fs || k < 0 || k >= s->nf)
        return NSM_EINVAL;
    const struct RtFricStat *fr = s->fs;
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
