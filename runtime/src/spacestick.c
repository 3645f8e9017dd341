/*
** spacestick.c: the transitions of spatial Coulomb friction (docs/theory.md
** section 19): what the run loop asks of the elements of spacefric.c
** around its steps.
**
**   - slip -> stick: |gamma_F| is not analytic at zero, so its zero is not
**     an event function.  Before each step, a held sliding contact whose
**     |gamma_F| falls (rate r < 0) has the step cut to |gamma_F| / (-r),
**     the instant of its linear fall; repeated, this is Newton's method on
**     |gamma_F|(t), and once |gamma_F| is below the working tolerance the
**     stick force is checked against the cone and the contact sticks: the
**     slip left (of the size of the tolerance) is removed by the plastic
**     projection in the metric of M, its kinetic energy booked as the
**     transition's loss.  A slip whose direction keeps turning so that the
**     cuts never reach the tolerance stops the run with the time and
**     |gamma_F| (never a silent stick); a stick force outside the cone at
**     the slip's zero (the slip would turn through it, or start from rest)
**     stops the run too.
**   - stick -> slip: after each step the stuck contacts' forces are
**     checked against the cone; leaving it stops the run (that transition
**     is not built yet), the step not taken.
**   - lift-off: the gap's own event (lambda_N reaching 0); its element's
**     stick bit is cleared when the gap opens (rt_sf_update).
**   - impacts on such a contact are Glocker's frictional impacts
**     (impact_space.c, called from the impulse problem); after them this
**     file takes the held contact over (rt_sf_update).
*/
#include <math.h>
#include <string.h>

#include "law.h"
#include "linalg.h"
#include "rt.h"

/* A cut step ends this fraction of the way short of the slip's predicted
** zero, so that no stage of the step evaluates the friction's direction
** where |gamma| vanishes (a kink there); the slip left falls by this factor
** per cut. */
#define SF_SHORT 0.1

/* Consecutive cut steps after which a slip that does not reach zero stops
** the run (Newton's method on |gamma| converges in a few when the
** direction settles). */
#define SF_MAX_CUTS 200

/* Whether gap j's row of W reaches a velocity slot of rigid body b. */
static int gap_on_body(const nsm_sim *s, int j, int b)
{
    const RtCsr *W = &s->sp.W;
    int rot = s->m->rigid_rot[b];
    for (int q = W->p[j]; q < W->p[j + 1]; q++)
        if (W->i[q] >= rot - 3 && W->i[q] < rot + 3)
            return 1;
    return 0;
}

/* Element k's numbers that its setup filled: refused by name when they
** are not a friction cone on a plane. */
static int check_numbers(nsm_sim *s, int k)
{
    const nsm_numeric *num = &s->num;
    const nsm_space_friction *e = &s->m->space_frictions[k];
    const double *n = &num->sf_normal[3 * k];
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (!(fabs(len - 1) <= 1e-12))
        return rt_fail(s, NSM_EMODEL, e->gap, "spatial friction element '%s': the plane's "
                       "normal has length %.17g, not 1", e->name, len);
    if (!(num->sf_mu[k] >= 0) || !isfinite(num->sf_mu[k]))
        return rt_fail(s, NSM_EMODEL, e->gap, "spatial friction element '%s': the friction "
                       "coefficient mu = %g is not >= 0", e->name, num->sf_mu[k]);
    if (!(num->sf_drill[k] >= 0) || !isfinite(num->sf_drill[k]))
        return rt_fail(s, NSM_EMODEL, e->gap, "spatial friction element '%s': the drilling "
                       "radius %g is not >= 0", e->name, num->sf_drill[k]);
    if (!(num->sf_radius[k] >= 0) || !isfinite(num->sf_radius[k]))
        return rt_fail(s, NSM_EMODEL, e->gap, "spatial friction element '%s': the sphere's "
                       "radius %g is not >= 0", e->name, num->sf_radius[k]);
    return NSM_OK;
}

/* What the spatial friction elements need of the model: each on a curved
** impact gap of its rigid body, one per gap, the gap's row over that
** body's velocities only, sensible numbers.  Refused by name otherwise. */
int rt_sf_check(nsm_sim *s)
{
    const nsm_model *m = s->m;
    for (int k = 0; k < s->nsf; k++) {
        const nsm_space_friction *e = &m->space_frictions[k];
        int j = e->gap, b = e->body, rc;
        if (b < 0 || b >= m->n_rigid || j < 0 || j >= s->g)
            return rt_fail(s, NSM_EMODEL, -1, "spatial friction element '%s': gap %d or rigid "
                           "body %d out of range", e->name, j, b);
        if (!rt_nl_gap_curved(s, j) || rt_law_of(s, j) != &rt_law_impact)
            return rt_fail(s, NSM_EMODEL, j, "spatial friction element '%s': its gap '%s' must "
                           "be a curved impact gap", e->name, m->gaps[j].name);
        if (rt_sf_of_gap(s, j) != k)
            return rt_fail(s, NSM_EMODEL, j, "spatial friction element '%s': gap '%s' carries "
                           "another element already", e->name, m->gaps[j].name);
        const RtCsr *W = &s->sp.W;
        int rot = m->rigid_rot[b];
        for (int q = W->p[j]; q < W->p[j + 1]; q++)
            if (W->i[q] < rot - 3 || W->i[q] >= rot + 3)
                return rt_fail(s, NSM_EMODEL, j, "spatial friction element '%s': its gap '%s' "
                               "reaches velocities of another body (contacts between bodies "
                               "with spatial friction are not built yet)", e->name,
                               m->gaps[j].name);
        if ((rc = check_numbers(s, k)))
            return rc;
    }
    return NSM_OK;
}

/* After a transition (and at the start): an element whose gap is open
** slides (its stick bit cleared); a body with a held spatial friction
** contact and another held contact is refused (its solve is the one
** contact's). */
int rt_sf_update(nsm_sim *s)
{
    for (int k = 0; k < s->nsf; k++) {
        const nsm_space_friction *e = &s->m->space_frictions[k];
        if (!rt_law_held(s, s->mode, e->gap)) {
            if (rt_sf_stuck(s, s->mode, k))
                rt_state_mode_del(s, rt_sf_bit(s, k));
            continue;
        }
        for (int j = 0; j < s->g; j++)
            if (j != e->gap && rt_law_held(s, s->mode, j) && gap_on_body(s, j, e->body))
                return rt_fail(s, NSM_EMODEL, j, "t = %.17g s: gaps '%s' and '%s' are both "
                               "closed on the body of spatial friction element '%s': several "
                               "contacts of one body with spatial friction are not built yet",
                               s->t, s->m->gaps[e->gap].name, s->m->gaps[j].name, e->name);
    }
    return NSM_OK;
}

/* The working tolerance of element k's slip at the current state: 1e-10 of
** the body's velocity scale |v| + |w| (|c| + rho), the largest met so far
** (a spin stopping by drilling friction takes its own scale to zero). */
static double slip_tol(nsm_sim *s, int k)
{
    const nsm_space_friction *e = &s->m->space_frictions[k];
    const double *u = rt_vel(s, s->y), *c = &s->num.sf_centre[3 * k];
    int rot = s->m->rigid_rot[e->body];
    double v = 0, w = 0;
    for (int i = 0; i < 3; i++) {
        v += u[rot - 3 + i] * u[rot - 3 + i];
        w += u[rot + i] * u[rot + i];
    }
    double arm = sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]) + s->num.sf_radius[k];
    return 1e-10 * rt_sf_scale(s, k, sqrt(v) + sqrt(w) * arm) + 1e-300;
}

/* Remove the slip of element k from the current velocities in the metric
** of M (the normal and slip rows set to zero: the plastic projection) and
** book the kinetic energy removed. */
static int stick_project(nsm_sim *s, int k)
{
    int N = s->N, cols[6];
    double G[4][6], D[16], mu[4], y[N];
    memcpy(y, s->y, sizeof y);
    double *u = y + s->nq, E0 = rt_mech_energy(s, s->mode, s->y);
    int m = rt_sf_rows(s, k, G, cols);
    for (int r = 0; r < m; r++) {
        mu[r] = 0;
        for (int i = 0; i < 6; i++)
            mu[r] -= G[r][i] * u[cols[i]];
        for (int q = 0; q < m; q++) {
            D[r * m + q] = 0;
            for (int i = 0; i < 6; i++)
                D[r * m + q] += G[r][i] * s->minv[cols[i]] * G[q][i];
        }
    }
    if (nsm_la_solve(m, D, mu, 1) != NSM_LA_OK)
        return rt_fail(s, NSM_ENUMERIC, s->m->space_frictions[k].gap, "spatial friction "
                       "element '%s': its contact's rows are dependent at t = %.17g s",
                       s->m->space_frictions[k].name, s->t);
    for (int i = 0; i < 6; i++)
        for (int r = 0; r < m; r++)
            u[cols[i]] += s->minv[cols[i]] * G[r][i] * mu[r];
    rt_state_set(s, s->t, y);
    rt_transition_loss_add(s, E0 - rt_mech_energy(s, s->mode, s->y));
    return NSM_OK;
}

/* Element k's slip has reached the working tolerance: the stick force
** (the held rows' Delassus solve with the bit set) is checked against the
** cone, and inside it the contact sticks.  Outside (*stuck 0) the slip
** would start again in a new direction, which the caller refuses. */
static int try_stick(nsm_sim *s, int k, int *stuck)
{
    const nsm_space_friction *e = &s->m->space_frictions[k];
    unsigned trial[s->mw];
    double lam[s->g + 1], lf[3];
    rt_mode_copy(s, trial, s->mode);
    rt_mode_add(trial, rt_sf_bit(s, k));
    if (rt_lambda(s, trial, s->t, s->y, lam))
        return rt_fail(s, NSM_ENUMERIC, e->gap, "spatial friction element '%s': the stick "
                       "force could not be solved at t = %.17g s", e->name, s->t);
    rt_sf_stick_force(s, k, lf);
    double lfn = sqrt(lf[0] * lf[0] + lf[1] * lf[1] + lf[2] * lf[2]);
    *stuck = lam[e->gap] >= 0 && lfn <= s->num.sf_mu[k] * lam[e->gap];
    if (!*stuck)
        return NSM_OK;
    rt_state_mode_add(s, rt_sf_bit(s, k));
    return stick_project(s, k);
}

/* Before a step of size *h from the current state: each held sliding
** contact whose slip falls cuts the step to just short of the instant of
** its linear fall, and one whose slip is below the working tolerance sticks when its
** stick force is in the cone (try_stick).  *h is left or reduced. */
int rt_sf_land(nsm_sim *s, double *h)
{
    if (!s->sf)
        return NSM_OK;
    double Yd[s->N], cut = *h, worst = 0;
    int have = 0, kworst = -1;
    for (int k = 0; k < s->nsf; k++) {
        int j = s->m->space_frictions[k].gap, stuck = 0, rc;
        if (!rt_law_held(s, s->mode, j) || rt_sf_stuck(s, s->mode, k))
            continue;
        if (!have && rt_deriv(s, s->mode, s->t, s->y, Yd))
            return rt_fail(s, NSM_ENUMERIC, j, "spatial friction element '%s': the sliding "
                           "contact's normal force could not be solved at t = %.17g s",
                           s->m->space_frictions[k].name, s->t);
        have = 1;
        double gn = rt_sf_slip(s, k, NULL), rate = rt_sf_slip_rate(s, k, Yd + s->nq);
        if (gn <= slip_tol(s, k)) {
            if ((rc = try_stick(s, k, &stuck)))
                return rc;
            if (stuck) {
                have = 0;       /* the state changed */
                continue;
            }
            return rt_fail(s, NSM_EMODEL, j, "spatial friction element '%s': at t = %.17g s "
                           "the slip |gamma_F| = %.3g m/s is at zero and the force that would "
                           "hold it leaves the friction cone: a slip starting from zero (or "
                           "turning through it) in space is not built yet",
                           s->m->space_frictions[k].name, s->t, gn);
        }
        if (rate < 0 && gn / -rate * (1 - SF_SHORT) < cut) {
            cut = gn / -rate * (1 - SF_SHORT);
            worst = gn;
            kworst = k;
        }
    }
    if (!(cut < *h)) {
        rt_sf_cuts(s, 0);
        return NSM_OK;
    }
    int cuts = rt_sf_cuts(s, 1);
    if (cuts > SF_MAX_CUTS || !(cut > rt_t_resolution(s, s->t_stop)))
        return rt_fail(s, NSM_ENUMERIC, s->m->space_frictions[kworst].gap, "spatial friction "
                       "element '%s': at t = %.17g s the slip |gamma_F| = %.6g m/s keeps "
                       "falling without reaching zero (its direction turns; %d steps cut to "
                       "its linear fall, the last %.3g s): no stick is entered",
                       s->m->space_frictions[kworst].name, s->t, worst, cuts, cut);
    *h = cut;
    return NSM_OK;
}

/* After a step to (t1, Y1), before it is taken: a stuck contact whose
** stick force has left the cone there stops the run (the transition from
** stick to slip is not built yet). */
int rt_sf_step_check(nsm_sim *s, double t1, const double *Y1)
{
    if (!s->sf)
        return NSM_OK;
    for (int k = 0; k < s->nsf; k++) {
        const nsm_space_friction *e = &s->m->space_frictions[k];
        if (!rt_law_held(s, s->mode, e->gap) || !rt_sf_stuck(s, s->mode, k))
            continue;
        double lam[s->g + 1], lf[3];
        if (rt_lambda(s, s->mode, t1, Y1, lam))
            return rt_fail(s, NSM_ENUMERIC, e->gap, "spatial friction element '%s': the stick "
                           "force could not be solved at t = %.17g s", e->name, t1);
        rt_sf_stick_force(s, k, lf);
        double lfn = sqrt(lf[0] * lf[0] + lf[1] * lf[1] + lf[2] * lf[2]);
        double cap = s->num.sf_mu[k] * lam[e->gap];
        if (lfn > cap * (1 + 1e-9) + 1e-300)
            return rt_fail(s, NSM_EMODEL, e->gap, "spatial friction element '%s' sticks at "
                           "t = %.17g s but its stick force leaves the cone before t = %.17g s "
                           "(|lambda_F| = %.6g N > mu lambda_N = %.6g N): the transition from "
                           "stick to slip in space is not built yet", e->name, s->t, t1, lfn,
                           cap);
    }
    return NSM_OK;
}
