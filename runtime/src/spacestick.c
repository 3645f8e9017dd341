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
**     the slip's zero starts the slip again from zero (below).
**   - stick -> slip: after each step the stuck contacts' margins to their
**     cones, mu lambda_N - |lambda_F|, are checked; a negative one cuts
**     the step to the instant it reaches zero (regula falsi over steps of
**     the run's method), and before the next step the contact slides, its
**     slip starting from zero opposite the force that held it (slip_start:
**     the friction force continuous), until |gamma_F| leaves the working
**     tolerance.
**   - lift-off: the gap's own event (lambda_N reaching 0); its element's
**     stick bit is cleared when the gap opens (rt_sf_update).
**   - impacts on such a contact are Glocker's frictional impacts
**     (impact_space.c, called from the impulse problem); after them this
**     file takes the held contact over (rt_sf_update).
*/
#include <float.h>
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

/* A stuck contact whose margin to its cone, mu lambda_N - |lambda_F|, is
** below this fraction of mu lambda_N is at the cone (located there). */
#define SF_CONE_TOL 1e-12

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
    for (int k = 0; k < s->n_space_fric; k++) {
        const nsm_space_friction *e = &m->space_frictions[k];
        int j = e->gap, b = e->body, rc;
        if (b < 0 || b >= m->n_rigid || j < 0 || j >= s->n_gaps)
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

static int release_slipped(nsm_sim *s);

/* After a transition (and at the start): an element whose gap is open
** slides (its stick bit and its start from zero cleared), as does a stuck
** one that the transition left slipping (release_slipped); a body whose
** held spatial friction contacts share it with a held contact that has no
** element is refused (the body's force problem is its elements' alone,
** spacefric.c), as are more contacts than that problem takes. */
int rt_sf_update(nsm_sim *s)
{
    for (int k = 0; k < s->n_space_fric; k++) {
        const nsm_space_friction *e = &s->m->space_frictions[k];
        if (!rt_law_held(s, s->mode, e->gap)) {
            if (rt_sf_stuck(s, s->mode, k))
                rt_state_mode_del(s, rt_sf_bit(s, k));
            rt_sf_start(s, k, 0, NULL, 0);
            continue;
        }
        int held = 0;
        for (int j = 0; j < s->n_gaps; j++) {
            if (!rt_law_held(s, s->mode, j) || !rt_gap_on_body(s, j, e->body))
                continue;
            held++;
            if (rt_sf_of_gap(s, j) < 0)
                return rt_fail(s, NSM_EMODEL, j, "t = %.17g s: gaps '%s' and '%s' are both "
                               "closed on the body of spatial friction element '%s', and '%s' "
                               "carries no spatial friction element: a body's held contacts "
                               "with and without spatial friction together are not built yet",
                               s->t, s->m->gaps[e->gap].name, s->m->gaps[j].name, e->name,
                               s->m->gaps[j].name);
        }
        if (held > SF_BODY_MAXC)
            return rt_fail(s, NSM_EMODEL, e->gap, "t = %.17g s: %d contacts are held on the body "
                           "of spatial friction element '%s': one body's force problem takes at "
                           "most %d", s->t, held, e->name, SF_BODY_MAXC);
    }
    return release_slipped(s);
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

/* Whether taylor's series can follow element k's slip gn, falling at rate
** r > 0, to where it would stick: they hold 1/|gamma| = 1/(gn - r tau)
** (ghat = gamma Q^(-1/2), sfseries.c), whose order-K coefficient
** 1/(gn (gn/r)^K) overflows, with 1e20 for its products with the model's
** other sizes, once the time to the zero gn/r is about 1e-14 s, whatever
** the speeds: a sphere sliding at 1e-6 m/s onto a stick under gravity
** stopped 2e-16 s short of it, "series ... not finite", where its slip
** tolerance (1e-10 of the body's speed) was 1e-16 m/s.  The slip then
** counts as at its zero (rt_sf_land) when what is left of it, gn, is
** within 1e-6 of the body's velocity scale (the stick's projection keeps
** the contact point's angular momentum: a sphere rolls on at 5/7 of its
** speed whenever it sticks); 1 when it is, -1 when gn is larger: the run
** stops naming the cause.  0 for other methods and a slip taylor still
** expands. */
static int taylor_fall_end(nsm_sim *s, int k, double gn, double r)
{
    if (s->set.method != NSM_METHOD_TAYLOR || !(r > 0) || !(gn > 0))
        return 0;
    if (!(log(gn) + RT_NLT_K * log(gn / r) < log(1e20 / DBL_MAX)))
        return 0;
    return gn <= 1e-6 * (slip_tol(s, k) - 1e-300) / 1e-10 ? 1 : -1;
}

/* Remove the slip of element k from the current velocities in the metric
** of M (the normal and slip rows set to zero: the plastic projection) and
** book the kinetic energy removed. */
static int stick_project(nsm_sim *s, int k)
{
    int N = s->n_state, cols[6];
    double G[4][6], D[16], mu[4], y[N];
    memcpy(y, s->y, sizeof y);
    double *u = y + s->n_pos, E0 = rt_mech_energy(s, s->mode, s->y);
    int m = rt_sf_rows(s, k, G, cols);
    for (int r = 0; r < m; r++) {
        mu[r] = 0;
        for (int i = 0; i < 6; i++)
            mu[r] -= G[r][i] * u[cols[i]];
        for (int q = 0; q < m; q++) {
            D[r * m + q] = 0;
            for (int i = 0; i < 6; i++)
                D[r * m + q] += G[r][i] * s->mass_inv[cols[i]] * G[q][i];
        }
    }
    if (nsm_la_solve(m, D, mu, 1) != NSM_LA_OK)
        return rt_fail(s, NSM_ENUMERIC, s->m->space_frictions[k].gap, "spatial friction "
                       "element '%s': its contact's rows are dependent at t = %.17g s",
                       s->m->space_frictions[k].name, s->t);
    for (int i = 0; i < 6; i++)
        for (int r = 0; r < m; r++)
            u[cols[i]] += s->mass_inv[cols[i]] * G[r][i] * mu[r];
    rt_state_set(s, s->t, y);
    rt_transition_loss_add(s, E0 - rt_mech_energy(s, s->mode, s->y));
    return NSM_OK;
}

/* Logs a transition of element k: NSM_EV_STICK when its slip reaches zero,
** NSM_EV_SLIP when it starts again; the record's contact is n_gaps +
** n_frictions + k (nsm/nsm.h), before and after its |gamma_F|, lost the
** kinetic energy the transition removed. */
static int sf_log(nsm_sim *s, int k, int kind, double before, double after, double lost)
{
    return rt_log_event(s, kind, s->n_gaps + s->n_fric + k, before, after, 0, lost, 1);
}

/* The stuck elements whose contact the transition left slipping beyond
** 1e3 times the working tolerance slide from here (their stick bit
** cleared, a slip record): an impact on another contact of the body (a
** ball rolling on a rough floor into a frictionless wall, which sends it
** back with its spin) changes the slip of a stuck contact, and its element
** stayed stuck with no friction force while the ball slid at 1.5 m/s for
** ever (exit 0), where friction brings it to rolling at v (2 - 5 e)/7. */
static int release_slipped(nsm_sim *s)
{
    double Yd[s->n_state];
    int have = 0;
    for (int k = 0; k < s->n_space_fric; k++) {
        int j = s->m->space_frictions[k].gap, rc;
        if (!rt_law_held(s, s->mode, j) || !rt_sf_stuck(s, s->mode, k))
            continue;
        if (!have && rt_deriv(s, s->mode, s->t, s->y, Yd))
            return NSM_OK;      /* the next step's evaluation reports it */
        have = 1;
        double gn = rt_sf_slip(s, k, NULL);
        if (!(gn > 1e3 * slip_tol(s, k)))
            continue;
        rt_state_mode_del(s, rt_sf_bit(s, k));
        rt_sf_start(s, k, 0, NULL, 0);
        have = 0;               /* the mode changed */
        if ((rc = sf_log(s, k, NSM_EV_SLIP, 0, gn, 0)))
            return rc;
    }
    return NSM_OK;
}

/* Element k's slip has reached the working tolerance: the stick force
** (the held rows' Delassus solve with the bit set) is checked against the
** cone, and inside it the contact sticks.  Outside (*stuck 0) the slip
** starts again from zero (slip_start), lf (3 values) the force. */
static int try_stick(nsm_sim *s, int k, int *stuck, double *lf)
{
    const nsm_space_friction *e = &s->m->space_frictions[k];
    unsigned trial[s->mode_words];
    double lam[s->n_gaps + 1];
    rt_mode_copy(s, trial, s->mode);
    rt_mode_add(trial, rt_sf_bit(s, k));
    if (rt_lambda(s, trial, s->t, s->y, lam))
        return rt_fail(s, NSM_ENUMERIC, e->gap, "spatial friction element '%s': the stick "
                       "force could not be solved at t = %.17g s (its rows dependent on those "
                       "of another sticking contact of the body: several sticking contacts "
                       "of one body whose rows leave a motion free are not built yet)",
                       e->name, s->t);
    rt_sf_stick_force(s, k, lf);
    double lfn = sqrt(lf[0] * lf[0] + lf[1] * lf[1] + lf[2] * lf[2]);
    *stuck = lam[e->gap] >= 0 && lfn <= s->num.sf_mu[k] * lam[e->gap];
    if (!*stuck)
        return NSM_OK;
    double g0 = rt_sf_slip(s, k, NULL);
    rt_state_mode_add(s, rt_sf_bit(s, k));
    double E0 = rt_mech_energy(s, s->mode, s->y);
    int rc = stick_project(s, k);
    return rc ? rc : sf_log(s, k, NSM_EV_STICK, g0, 0, E0 - rt_mech_energy(s, s->mode, s->y));
}

/* The margin of element k's stuck contact to its cone at the state last
** solved (rt_lambda with the stick bit): mu lambda_N - |lambda_F|; lf
** gets lambda_F. */
static double cone_margin(const nsm_sim *s, int k, const double *lam, double *lf)
{
    rt_sf_stick_force(s, k, lf);
    double lfn = sqrt(lf[0] * lf[0] + lf[1] * lf[1] + lf[2] * lf[2]);
    return s->num.sf_mu[k] * lam[s->m->space_frictions[k].gap] - lfn;
}

/* Element k's slip starts from zero at the current state: its friction at
** the cone in the direction of the force that held it, lf, the slip
** opposite to it, d0 = -lf/|lf| (docs/theory.md section 19), until
** |gamma_F| leaves the working tolerance. */
static int slip_start(nsm_sim *s, int k, const double *lf)
{
    double lfn = sqrt(lf[0] * lf[0] + lf[1] * lf[1] + lf[2] * lf[2]), d0[3];
    if (!(lfn > 0))
        return rt_fail(s, NSM_EMODEL, s->m->space_frictions[k].gap, "spatial friction element "
                       "'%s': at t = %.17g s its slip starts from zero with no friction force "
                       "to take its direction from", s->m->space_frictions[k].name, s->t);
    for (int i = 0; i < 3; i++)
        d0[i] = -lf[i] / lfn;
    if (rt_sf_stuck(s, s->mode, k))
        rt_state_mode_del(s, rt_sf_bit(s, k));
    rt_sf_start(s, k, 1, d0, slip_tol(s, k));
    return NSM_OK;
}

/* The smallest margin, relative to its cap, of the stuck contacts to their
** cones at (t, Y): (mu lambda_N - |lambda_F|) / (mu lambda_N); *k gets the
** contact (-1: none stuck).  1 on a failed solve (the run stopped). */
static int cone_worst(nsm_sim *s, double t, const double *Y, double *phi, int *kw)
{
    double lam[s->n_gaps + 1], lf[3];
    int solved = 0;
    *phi = INFINITY;
    *kw = -1;
    for (int k = 0; k < s->n_space_fric; k++) {
        const nsm_space_friction *e = &s->m->space_frictions[k];
        if (!rt_law_held(s, s->mode, e->gap) || !rt_sf_stuck(s, s->mode, k))
            continue;
        if (!solved && rt_lambda(s, s->mode, t, Y, lam))
            return rt_fail(s, NSM_ENUMERIC, e->gap, "spatial friction element '%s': the stick "
                           "force could not be solved at t = %.17g s", e->name, t), 1;
        solved = 1;
        double cap = s->num.sf_mu[k] * lam[e->gap], m = cone_margin(s, k, lam, lf) / fabs(cap);
        if (m < *phi) {
            *phi = m;
            *kw = k;
        }
    }
    return 0;
}

/* Stick -> slip at the current state: each stuck contact whose stick force
** has reached the cone (rt_sf_step_check landed the step there) slides
** from here, in the direction slip_start gives.  *changed is set when a
** contact leaves stick. */
static int unstick(nsm_sim *s, int *changed)
{
    double lam[s->n_gaps + 1], lf[3], worst = INFINITY;
    int solved = 0, edge = rt_sf_edge(s, 0), kw = -1;
    if (edge && cone_worst(s, s->t, s->y, &worst, &kw))
        return s->failed;
    for (int k = 0; k < s->n_space_fric; k++) {
        int j = s->m->space_frictions[k].gap, rc;
        if (!rt_law_held(s, s->mode, j) || !rt_sf_stuck(s, s->mode, k))
            continue;
        if (!solved && rt_lambda(s, s->mode, s->t, s->y, lam))
            return rt_fail(s, NSM_ENUMERIC, j, "spatial friction element '%s': the stick force "
                           "could not be solved at t = %.17g s", s->m->space_frictions[k].name,
                           s->t);
        solved = 1;
        double cap = s->num.sf_mu[k] * lam[j];
        if (cone_margin(s, k, lam, lf) > SF_CONE_TOL * cap && (k != kw || !(worst <= 1e-6)))
            continue;
        if ((rc = slip_start(s, k, lf)))
            return rc;
        *changed = 1;
        solved = 0;
    }
    return NSM_OK;
}

/* Before a step of size *h from the current state: stuck contacts at their
** cone start to slip (unstick); each held sliding contact whose slip falls
** cuts the step to just short of the instant of its linear fall, and one
** whose slip is below the working tolerance sticks when its stick force is
** in the cone (try_stick), or else starts to slip again from zero in the
** direction of that force (slip_start).  A slip started from zero is left
** alone until it leaves the tolerance.  *h is left or reduced. */
int rt_sf_land(nsm_sim *s, double *h)
{
    if (!s->sf)
        return NSM_OK;
    double Yd[s->n_state], cut = *h, worst = 0;
    int have = 0, kworst = -1, changed = 0, rc;
    if ((rc = unstick(s, &changed)))
        return rc;
    for (int k = 0; k < s->n_space_fric; k++) {
        int j = s->m->space_frictions[k].gap, stuck = 0;
        if (!rt_law_held(s, s->mode, j) || rt_sf_stuck(s, s->mode, k))
            continue;
        if (!have && rt_deriv(s, s->mode, s->t, s->y, Yd))
            return rt_fail(s, NSM_ENUMERIC, j, "spatial friction element '%s': the sliding "
                           "contact's normal force could not be solved at t = %.17g s",
                           s->m->space_frictions[k].name, s->t);
        have = 1;
        double gn = rt_sf_slip(s, k, NULL), rate = rt_sf_slip_rate(s, k, Yd + s->n_pos);
        if (rt_sf_starting(s, k)) {
            if (gn <= slip_tol(s, k))
                continue;       /* the slip from zero grows: no landing, no stick yet */
            rt_sf_start(s, k, 0, NULL, 0);
        }
        int fall = rate < 0 ? taylor_fall_end(s, k, gn, -rate) : 0;
        if (fall < 0)
            return rt_fail(s, NSM_ENUMERIC, j, "spatial friction element '%s': at t = %.17g s "
                           "its slip of %.3g m/s falls to zero in %.3g s, shorter than taylor's "
                           "series of the slip's direction can reach at this scale (their "
                           "coefficients, powers of 1/|slip|, overflow), and the slip left is "
                           "more than 1e-6 of its body's speed: --method rk4 or adaptive, or "
                           "scale the model's values (lengths in um or nm)",
                           s->m->space_frictions[k].name, s->t, gn, gn / -rate);
        if (gn <= slip_tol(s, k) || fall > 0) {
            double lf[3];
            if ((rc = try_stick(s, k, &stuck, lf)))
                return rc;
            if (!stuck && (rc = slip_start(s, k, lf)))
                return rc;
            have = 0;           /* the state or the mode changed */
            continue;
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

/* After a step of *h to Y1, before it is taken: when a stuck contact's
** stick force has left its cone at Y1, the step is cut to the instant the
** force reaches the cone, located by the Illinois variant of regula falsi
** on the margin over steps from the current state (each a step of the
** run's method), to the time resolution; Y1 and *h become that step's.
** The contact starts to slip there before the next step (unstick). */
int rt_sf_step_check(nsm_sim *s, double *h, double *Y1)
{
    if (!s->sf)
        return NSM_OK;
    double phi1, phi0, lo = 0, hi = *h, flo, fhi;
    int k, k0;
    if (cone_worst(s, s->t + *h, Y1, &phi1, &k))
        return s->failed;
    if (k < 0 || phi1 >= -SF_CONE_TOL)
        return NSM_OK;
    if (cone_worst(s, s->t, s->y, &phi0, &k0))
        return s->failed;
    flo = phi0;
    fhi = phi1;
    double res = rt_t_resolution(s, s->t_stop), Y[s->n_state];
    int side = 0;
    for (int it = 0; it < 200 && hi - lo > res; it++) {
        double hm = lo + (hi - lo) * flo / (flo - fhi), hs;
        if (!(hm > lo + 0.01 * (hi - lo)) || !(hm < hi - 0.01 * (hi - lo)))
            hm = 0.5 * (lo + hi);
        hs = hm;
        if (rt_step(s, s->t, s->y, &hs, Y))
            return rt_fail(s, NSM_ENUMERIC, s->m->space_frictions[k].gap, "spatial friction "
                           "element '%s': the step to its stick force's cone failed at t = "
                           "%.17g s", s->m->space_frictions[k].name, s->t);
        double f;
        if (cone_worst(s, s->t + hs, Y, &f, &k0))
            return s->failed;
        if (f >= 0) {
            lo = hs, flo = f;
            if (side == 1)
                fhi *= 0.5;
            side = 1;
        } else {
            hi = hs, fhi = f;
            if (side == -1)
                flo *= 0.5;
            side = -1;
        }
        if (fabs(f) <= 1e-15)
            break;
    }
    double hs = lo;             /* inside the cone, at its edge */
    rt_sf_edge(s, 1);
    if (!(hs > 0)) {
        *h = 0;                 /* at the edge already: unstick before stepping */
        memcpy(Y1, s->y, sizeof(double) * (size_t)s->n_state);
        return NSM_OK;
    }
    int rc = rt_step(s, s->t, s->y, &hs, Y1);
    if (rc)
        return s->failed ? s->failed
             : rt_fail(s, rc, -1, "the step of %.6g s to a stuck contact's cone could not be "
                       "taken (%s)", hs, nsm_status_name(rc));
    *h = hs;
    return NSM_OK;
}
