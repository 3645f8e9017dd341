/*
** fricstat.c: the friction elements' share of the energy audit and their
** statistics.
**
** Per element: the energy its slipping dissipated, the work its surface did
** on the bodies, how often it stuck, slipped and reversed, and the time it
** spent stuck.  stats.c calls rt_fricstat_step over every step, before the
** step's transition; friction.c reports each change of an element's state
** through rt_fricstat_change.  The spatial friction elements (spacefric.c)
** get their dissipation here too, from the power spacefric.c gives per
** element, so that the audit's shares are kept in one place.  The `fs`
** sub-struct of the simulation is owned here.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

struct RtFricStat {
    double *diss, *work;      /* nf each: friction dissipation, work of the surface */
    double *since, *time;     /* nf each: start of the current stick phase, total stuck time */
    double *last;             /* nf: each element's dissipation estimate over the last step */
    long *sticks, *slips, *reversals;
    double *sdiss;            /* nsf: each spatial element's dissipation */
    double *slast;            /* nsf: its estimate over the last step */
    int partial;              /* some step ran without the audit: the energies are unknown */
};

/* Allocate the accumulators (nf may be 0). */
int rt_fricstat_alloc(nsm_sim *s)
{
    size_t nf = (size_t)(s->n_fric ? s->n_fric : 1);
    struct RtFricStat *fs = calloc(1, sizeof *fs);
    if (!fs)
        return NSM_ENOMEM;
    s->fs = fs;
    fs->diss = calloc(5 * nf, sizeof(double));
    fs->sticks = calloc(3 * nf, sizeof(long));
    fs->sdiss = calloc(2 * (size_t)(s->n_space_fric ? s->n_space_fric : 1), sizeof(double));
    if (!fs->diss || !fs->sticks || !fs->sdiss)
        return NSM_ENOMEM;
    fs->slast = fs->sdiss + (s->n_space_fric ? s->n_space_fric : 1);
    fs->work = fs->diss + nf;
    fs->since = fs->work + nf;
    fs->time = fs->since + nf;
    fs->last = fs->time + nf;
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
    free(s->fs->sdiss);
    free(s->fs);
    s->fs = NULL;
}

/* Zero the accumulators (reset to t = 0). */
void rt_fricstat_reset(nsm_sim *s)
{
    size_t nf = (size_t)(s->n_fric ? s->n_fric : 1);
    if (!s->fs)
        return;
    memset(s->fs->diss, 0, 5 * nf * sizeof(double));
    memset(s->fs->sticks, 0, 3 * nf * sizeof(long));
    memset(s->fs->sdiss, 0, 2 * (size_t)(s->n_space_fric ? s->n_space_fric : 1) * sizeof(double));
    s->fs->partial = 0;
}

/* A step ran without the audit (stats.c): the elements' dissipation and
** surface work miss it, so they read NAN until the next reset rather than
** a sum that leaves the step out. */
void rt_fricstat_partial(nsm_sim *s)
{
    if (s->fs)
        s->fs->partial = 1;
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

/* Element k's slip velocity at the state y: a curved slip's row is taken
** at y's configuration first (rt_nl_at), so that each end of a step gets
** its own row. */
static double slip_at(const nsm_sim *s, int k, const double *y)
{
    rt_nl_at(s, y);
    return rt_fric_slip(s, k, rt_vel(s, y));
}

/* The planar elements' audit of one step from (s->t, s->y) to (t1, Y1)
** in s->mode (rt_fricstat_step): a slipping element with a constant
** normal force and a constant row dissipates mu_k N s (w . dx - c h)
** exactly (its force is constant over the step), and the surface does
** -s mu_k N c h; with a gap's force as its normal or a curved slip (row
** w(x)), the trapezoid on the step's ends, an estimate that
** rt_fricstat_rest corrects to the integrated dissipation when nothing
** else dissipates.  A stuck element's surface work is c times the
** integral of its multiplier, by the trapezoid. */
static void planar_step(nsm_sim *s, double t1, const double *Y1, double *dD, double *dW)
{
    int n = s->n_vel;
    double h = t1 - s->t, l0[s->n_fric + 1], l1[s->n_fric + 1], g0[s->n_gaps + 1], g1[s->n_gaps + 1];
    int need = 0;
    *dD = *dW = 0;
    memset(s->fs->last, 0, sizeof(double) * (size_t)s->n_fric);
    for (int k = 0; k < s->n_fric; k++)
        need |= rt_fric_stuck(s, s->mode, k) ? s->num.ut[k] != 0 : rt_fric_normal_gap(s, k) >= 0;
    if (need && (rt_multipliers(s, s->mode, s->t, s->y, g0, l0) ||
                 rt_multipliers(s, s->mode, t1, Y1, g1, l1)))
        return;
    for (int k = 0; k < s->n_fric; k++) {
        double c = s->num.ut[k], d = 0, w_ = 0;
        int gap = rt_fric_normal_gap(s, k) >= 0;
        if (rt_fric_stuck(s, s->mode, k)) {
            if (c != 0)         /* the multipliers are computed only then (need) */
                w_ = c * 0.5 * (l0[k] + l1[k]) * h;
        } else if (!gap && !rt_nl_slip_curved(s, k)) {
            double f = s->num.muk[k] * s->num.fn[k], dx = 0;
            int sg = rt_fric_sign(s, s->mode, k);
            for (int q = s->sp.Wt.p[k]; q < s->sp.Wt.p[k + 1]; q++)
                dx += s->sp.Wt.x[q] * (Y1[s->sp.Wt.i[q]] - s->y[s->sp.Wt.i[q]]);
            d = sg * f * (dx - c * h);
            w_ = -sg * f * c * h;
        } else {
            int sg = rt_fric_sign(s, s->mode, k);
            double N0 = gap ? rt_fric_normal(s, s->mode, k, s->y, s->y + n, g0, 1) : s->num.fn[k];
            double N1 = gap ? rt_fric_normal(s, s->mode, k, Y1, Y1 + n, g1, 1) : s->num.fn[k];
            double mk = sg * s->num.muk[k];
            d = 0.5 * h * mk * (N0 * slip_at(s, k, s->y) + N1 * slip_at(s, k, Y1));
            w_ = -0.5 * h * mk * c * (N0 + N1);
        }
        s->fs->last[k] = d;
        s->fs->diss[k] += d;
        s->fs->work[k] += w_;
        *dD += d;
        *dW += w_;
    }
}

/* The spatial elements' audit of one step from (s->t, s->y) to (t1, Y1)
** in s->mode: each element's power mu lambda_N |gamma_F| (spacefric.c)
** at the step's ends, by the trapezoid, an estimate that
** rt_fricstat_rest corrects to the integrated dissipation when nothing
** else dissipates.  The kinematics are left evaluated at Y1, the step's
** end.  No solve when no element slides in the mode (a body in flight, a
** rolling one).  Returns the elements' total. */
static double space_step(nsm_sim *s, double t1, const double *Y1)
{
    double h = t1 - s->t, g0[s->n_gaps + 1], g1[s->n_gaps + 1], p0[s->n_space_fric], tot = 0;
    int any = 0;
    memset(s->fs->slast, 0, sizeof(double) * (size_t)s->n_space_fric);
    for (int k = 0; k < s->n_space_fric && !any; k++)
        any = rt_sf_sliding(s, s->mode, k);
    if (!any)
        return 0;
    if (rt_multipliers(s, s->mode, s->t, s->y, g0, NULL))
        return 0;
    for (int k = 0; k < s->n_space_fric; k++)
        p0[k] = rt_sf_power_of(s, s->mode, k, g0);
    if (rt_multipliers(s, s->mode, t1, Y1, g1, NULL))
        return 0;
    for (int k = 0; k < s->n_space_fric; k++) {
        double d = 0.5 * h * (p0[k] + rt_sf_power_of(s, s->mode, k, g1));
        s->fs->slast[k] = d;
        s->fs->sdiss[k] += d;
        tot += d;
    }
    return tot;
}

/* The friction elements' audit of one step from (s->t, s->y) to (t1, Y1)
** in s->mode: the planar elements' (planar_step) and the spatial ones'
** (space_step).  Returns the totals, dissipation dD and the surfaces'
** work dW, which the rest of the audit leaves out of the dampers' and
** bodies' shares. */
void rt_fricstat_step(nsm_sim *s, double t1, const double *Y1, double *dD, double *dW)
{
    *dD = *dW = 0;
    if (s->n_fric)
        planar_step(s, t1, Y1, dD, dW);
    if (s->n_space_fric)
        *dD += space_step(s, t1, Y1);
}

/* The rest dD of a step's integrated dissipation beyond the elements'
** estimates (rt_fricstat_step), when nothing else in the step's mode
** dissipates: the integrated state's increment is then friction's alone,
** so the rest goes to the slipping elements in proportion to their
** estimates, and the summary's lines add up to the integrated
** dissipation (the trapezoid alone misses it by O(h^3) per step, much
** over the taylor method's long steps).  1 when taken, 0 when no element
** slipped over the step. */
int rt_fricstat_rest(nsm_sim *s, double dD)
{
    double mag = 0;
    for (int k = 0; k < s->n_fric; k++)
        mag += fabs(s->fs->last[k]);
    for (int k = 0; k < s->n_space_fric; k++)
        mag += fabs(s->fs->slast[k]);
    if (!(mag > 0))
        return 0;
    for (int k = 0; k < s->n_fric; k++)
        s->fs->diss[k] += dD * fabs(s->fs->last[k]) / mag;
    for (int k = 0; k < s->n_space_fric; k++)
        s->fs->sdiss[k] += dD * fabs(s->fs->slast[k]) / mag;
    return 1;
}

/* Statistics of friction element k over the run so far. */
int nsm_sim_friction_stats(const nsm_sim *s, int k, nsm_friction_stats *out)
{
    if (!s || !out || !s->fs || k < 0 || k >= s->n_fric)
        return NSM_EINVAL;
    const struct RtFricStat *fr = s->fs;
    int stuck = rt_fric_stuck(s, s->mode, k);
    out->dissipated = fr->partial ? NAN : fr->diss[k];
    out->surface_work = fr->partial ? NAN : fr->work[k];
    out->sticks = fr->sticks[k];
    out->slips = fr->slips[k];
    out->reversals = fr->reversals[k];
    out->stick_time = fr->time[k] + (stuck ? s->t - fr->since[k] : 0);
    out->state = stuck ? 0 : rt_fric_sign(s, s->mode, k);
    return NSM_OK;
}

/* The energy spatial friction element k (model->space_frictions[k]) has
** dissipated over the run so far, into *out: its sliding's share of the
** audit's dissipation, the elements' shares adding up to it when nothing
** else dissipates (docs/energy.md). */
int nsm_sim_space_friction_dissipated(const nsm_sim *s, int k, double *out)
{
    if (!s || !out || !s->fs || k < 0 || k >= s->n_space_fric)
        return NSM_EINVAL;
    *out = s->fs->partial ? NAN : s->fs->sdiss[k];
    return NSM_OK;
}
