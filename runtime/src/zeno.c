/*
** zeno.c: the Zeno and cascade handling, above the transitions.
**
** Follows every impact (rt_zeno_track, before its sequence of collisions:
** the flights of one contact shrinking by e, the intervals of several
** contacts shrinking by a steady ratio) and, once the impact is applied
** (rt_zeno_resolve), jumps over a one-contact cascade to its accumulation
** point or collapses a cascade over several contacts.  Owns the zeno
** sub-struct and decides the event-rate guard's exemption (stats.c) for
** the impacts of a recognized cascade.  Calls the transitions
** (transition.c) and the stepping below; the run loop calls it.
*/
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "law.h"
#include "linalg.h"
#include "rt.h"


/* Allocate the Zeno detection's per-gap arrays; nonzero on failure. */
int rt_zeno_alloc(nsm_sim *s)
{
    int g = s->n_gaps ? s->n_gaps : 1;
    s->zeno.last = calloc((size_t)g, sizeof(double));
    s->zeno.tau = calloc((size_t)g, sizeof(double));
    s->zeno.geo = calloc((size_t)g, sizeof(int));
    s->zeno.count = calloc((size_t)g, sizeof(int));
    return !s->zeno.last || !s->zeno.tau || !s->zeno.geo || !s->zeno.count;
}

/* Free them. */
void rt_zeno_free(nsm_sim *s)
{
    free(s->zeno.last);
    free(s->zeno.tau);
    free(s->zeno.geo);
    free(s->zeno.count);
}

/* Forget every impact history (a reset). */
void rt_zeno_reset(nsm_sim *s)
{
    for (int j = 0; j < s->n_gaps; j++) {
        s->zeno.last[j] = -1;
        s->zeno.tau[j] = 0;
        s->zeno.geo[j] = s->zeno.count[j] = 0;
    }
    s->zeno.c_last = -1;
    memset(s->zeno.c_hist, 0, sizeof s->zeno.c_hist);
    memset(s->zeno.c_rho, 0, sizeof s->zeno.c_rho);
    memset(s->zeno.c_steady, 0, sizeof s->zeno.c_steady);
    s->zeno.c_geo = 0;
    rt_mode_none(s, s->zeno.c_mask);
    s->zeno.f_u = 0;
    s->zeno.f_run = 0;
    s->zeno.f_count = s->zeno.f_retry = 0;
    rt_mode_none(s, s->zeno.f_mask);
    s->zeno.rk_gap = -1;
}

/* Forget the impact history of gap j (Zeno detection). */
static void zeno_forget(nsm_sim *s, int j)
{
    s->zeno.last[j] = -1;
    s->zeno.tau[j] = 0;
    s->zeno.geo[j] = s->zeno.count[j] = 0;
}

/* Forget the impact histories of the gaps in the mask (those a transition
** reports as stuck or separated). */
void rt_zeno_forget(nsm_sim *s, const unsigned *gaps)
{
    for (int j = 0; j < s->n_gaps; j++)
        if (rt_mode_has(gaps, j))
            zeno_forget(s, j);
}

/* rt_settle (transition.c), with the impact histories of the gaps that
** stick or separate forgotten: the settle every caller above the
** transitions uses (zeno.c itself and the run loop). */
int rt_zeno_settle(nsm_sim *s, const unsigned *ref, const unsigned *forced_open)
{
    unsigned forget[s->mode_words];
    rt_mode_none(s, forget);
    int rc = rt_settle(s, ref, forced_open, forget);
    rt_zeno_forget(s, forget);
    return rc;
}

/* Time from the last impact of a Zeno cascade to its accumulation point.
** Under a constant force the flight times shrink by exactly e, and the rest
** of the cascade lasts e tau/(1 - e).  Otherwise (springs, dampers) the
** ratio of successive flights drifts with the flight time itself,
**     tau_{k+1} = e tau_k (1 + beta tau_k + O(tau_k^2)),
** and the geometric sum is off by about beta tau^2 e/(1 - e)^2 (1e-8 s on
** the two-mass grazing case at tau = 1e-5 s); with beta known the
** recurrence is summed to its end, leaving an error of order tau^3 (3e-11 s
** there at tau = 3e-5 s). */
static double zeno_remaining(double e, double beta, double tau)
{
    double sum = 0, t = tau;
    if (!isfinite(beta) || !(e * (1 + beta * tau) < 1 - 1e-3) || fabs(beta * tau) > 0.05)
        return e * tau / (1 - e);
    for (int k = 0; k < 100000 && t > 1e-18 * sum; k++) {
        t *= e * (1 + beta * t);
        sum += t;
    }
    return sum;
}

/* One free flight of gap j from (t, Y) (gap ~0, opening at w.v > 0) to its
** next touchdown, by Newton on the gap from the constant-acceleration
** guess tg; the flight time in *tau, the state there in Y1.  1 if it fails. */
static int zeno_flight(nsm_sim *s, int j, double t, const double *Y, double tg, double *tau,
                       double *Y1)
{
    double ev[s->n_events + 1], evd[s->n_events + 1], x = tg, prev = HUGE_VAL;
    for (int it = 0; it < 50; it++) {
        if (rt_advance(s, t, Y, x, Y1) || rt_events(s, s->mode, t + x, Y1, ev, evd) || !(evd[j] < 0))
            return 1;
        double dx = ev[j] / evd[j];
        if (fabs(dx) <= 1e-15 * x || (fabs(dx) < 1e-6 * x && fabs(dx) >= 0.5 * prev)) {
            /* converged, or down to the rounding of the gap */
            *tau = x;
            return 0;
        }
        prev = fabs(dx);
        x -= dx;
        if (!(x > 0.5 * tg && x < 2 * tg))
            return 1;
    }
    return 1;
}

/* Gap j's Delassus entry w M^-1 w^T at the configuration of Y, into *D:
** the mass operator (massmat.c) evaluated and factored there first when
** the mass is M(q), so that the entry and the impulse applied after it
** (rt_mass_add_row) are both the impact configuration's.  Nonzero when
** M(q) is not positive definite there. */
static int zeno_delassus(nsm_sim *s, int j, const double *Y, double *D)
{
    if (rt_mass_dense(s) && rt_mass_at(s, Y))
        return 1;
    rt_delassus(s, &j, 1, D);
    return 0;
}

/* Drift of the flight ratio of gap j's cascade measured at the current state
** (just after an impact, gap j open): a pair of trial flights launched from
** here at the relative velocity that makes the first last about tl, the
** second after an impact of restitution e; returns q = tau2/(e tau1) - 1 and
** the first flight in *tau1; NAN on failure. */
static double zeno_pair(nsm_sim *s, int j, double tl, double *tau1)
{
    int N = s->n_state;
    double Y[N], Y1[N], Y2[N], a[N], tau2, e = rt_law_restitution(s, j, 0), Djj;
    memcpy(Y, s->y, sizeof Y);
    if (zeno_delassus(s, j, Y, &Djj) || rt_deriv(s, s->mode, s->t, Y, a))
        return NAN;
    double acc = rt_wacc(s, j, a + s->n_pos), du = -acc * tl / 2 - rt_wdot(s, j, Y + s->n_pos);
    if (!(acc < 0) || !(Djj > 0))
        return NAN;
    if (rt_mass_dense(s))           /* M(q) */
        rt_mass_add_row(s, &s->sp.W, j, du / Djj, Y + s->n_pos);
    else                            /* the diagonal's products, as they always were */
        for (int q = s->sp.W.p[j]; q < s->sp.W.p[j + 1]; q++)
            Y[s->n_pos + s->sp.W.i[q]] += s->mass_inv[s->sp.W.i[q]] * s->sp.W.x[q] * du / Djj;
    if (zeno_flight(s, j, s->t, Y, tl, tau1, Y1) || zeno_delassus(s, j, Y1, &Djj))
        return NAN;
    double dv = -(1 + e) * rt_wdot(s, j, Y1 + s->n_pos) / Djj;
    rt_mass_add_row(s, &s->sp.W, j, dv, Y1 + s->n_pos);
    if (zeno_flight(s, j, s->t + *tau1, Y1, e * *tau1, &tau2, Y2))
        return NAN;
    return tau2 / (e * *tau1) - 1;
}

/* beta of zeno_remaining for the cascade of gap j, from a pair of trial
** flights as long as the last flight tau: q = beta tau1.  The flights of the
** cascade itself cannot give it: their times carry the gap's rounding
** divided by relative velocities down to 1e-7 m/s, while the trial flights
** are located on the exact gap function of the method's own steps.  NAN on
** failure (zeno_remaining then takes the geometric sum). */
static double zeno_beta(nsm_sim *s, int j, double tau)
{
    double t1, q = zeno_pair(s, j, tau, &t1);
    return isfinite(q) ? q / t1 : NAN;
}

/* Whether a time switch of the forces changes between t0 and t1: its
** function changes sign or reaches 0 there, its derivative changes sign
** (a pulse that may come and go inside), or its condition at t1 is not the
** one in force.  A Zeno jump over it would leave the switch as it was: the
** run loop looks for switches forward from each step's start, so the force
** switched on inside the jumped tail was never applied (a disc bouncing to
** rest on a rough floor, pushed from an instant inside its accumulation,
** stayed where it was).  So is a switch function that its ends do not
** follow (rt_switch_followed): exact jumped a ball's tail of 0.04 s over a
** push switched by sin(3000 t) > 0.5, 2e-3 m/s of its speed lost (exit 0).
** Such a cascade is not jumped. */
static int zeno_switch_within(const nsm_sim *s, double t0, double t1)
{
    if (!s->m->switch_fn)
        return 0;
    for (int k = 0; k < s->n_switches; k++) {
        double f0, f1, d0, d1;
        if (!rt_switch_followed(s, k, t0, t1))
            return 1;       /* it may turn many times inside (sin(w*t) > 0.5) */
        s->m->switch_fn(k, t0, s->params, s->consts, &f0, &d0);
        s->m->switch_fn(k, t1, s->params, s->consts, &f1, &d1);
        if ((f0 > 0) != (f1 > 0) || f1 == 0 || (d0 > 0) != (d1 > 0))
            return 1;
        if (s->m->switch_state &&
            (s->m->switch_state(k, t1, s->params, s->consts) != 0) != (s->sw[k] != 0))
            return 1;
    }
    return 0;
}

/* Whether an event off gap j's cascade falls within the next rest seconds:
** an event function changes sign between now and the tail's end along the
** current mode, either a friction element's off gap j (a slip's, or a
** stuck force's margin to its cone; rt_events numbers them after the gaps)
** or a gap whose law does not impact (a compliant contact closing or
** opening; impacting ones are the companions' of jump_companions).  The
** jump flies every body to t* in one mode, so a block sliding to rest
** elsewhere inside the tail was flown past its stop and its friction then
** drove it back (exact, a block stopping 1e-4 s before a ball's Zeno point
** went 2e-8 m back, exit 0), and a mass reaching a penalty stop there went
** through it (refused as a contact passed through without an event).
** Such a cascade is not jumped: its impacts are resolved one by one and
** the event is located as any other.  A rocking cascade's second contact
** i2 (and its element) is the cascade's own too (-1 for none).  Returns
** the first such event's index plus 1; 0 when there is none or the flight
** cannot be formed (the jump then goes on as it did). */
static int zeno_events_within(nsm_sim *s, int j, int i2, double rest)
{
    int g = s->n_gaps, ne = s->n_events;
    double Y1[s->n_state], e0[ne + 1], d0[ne + 1], e1[ne + 1], d1[ne + 1];
    int bad = rt_advance(s, s->t, s->y, rest, Y1) || rt_events(s, s->mode, s->t, s->y, e0, d0) ||
              rt_events(s, s->mode, s->t + rest, Y1, e1, d1);
    rt_nl_at(s, s->y);      /* the curved rows' tangent back at the state */
    if (bad)
        return 0;
    for (int i = 0; i < ne; i++) {
        int own = i >= g ? rt_fric_normal_gap(s, (i - g) / 2) : i;
        if (own == j || (i2 >= 0 && own == i2) || (i < g && rt_law_impacts(s, i)))
            continue;
        if ((e0[i] > 0) != (e1[i] > 0))
            return i + 1;
    }
    return 0;
}

/* The name of event ev (rt_events' numbering): a gap's, or its friction
** element's. */
static const char *zeno_event_name(const nsm_sim *s, int ev)
{
    return ev < s->n_gaps ? s->m->gaps[ev].name : s->m->frictions[(ev - s->n_gaps) / 2].name;
}

/* The time from now to event e (rt_events' numbering) of another element
** inside the rocking's tail of rest seconds, by bisection on the sign of
** its function along the flight rt_advance gives (zeno_events_within
** found it changing sign over the tail); rest when it cannot be formed. */
static double zeno_event_time(nsm_sim *s, int e, double rest)
{
    int ne = s->n_events;
    double Y1[s->n_state], e0[ne + 1], d0[ne + 1], e1[ne + 1], d1[ne + 1], lo = 0, hi = rest;
    if (rt_events(s, s->mode, s->t, s->y, e0, d0))
        return rest;
    for (int it = 0; it < 60 && hi - lo > 1e-15 * rest; it++) {
        double mid = 0.5 * (lo + hi);
        if (rt_advance(s, s->t, s->y, mid, Y1) || rt_events(s, s->mode, s->t + mid, Y1, e1, d1))
            break;
        if ((e1[e] > 0) == (e0[e] > 0))
            lo = mid;
        else
            hi = mid;
    }
    rt_nl_at(s, s->y);
    return hi;
}

/* Whether the rocking's impacts (speeds falling by P a pair of impacts)
** can be resolved one by one up to event e inside its tail of rest
** seconds, the tail summed after it: the impacts before the event keep
** below the event-rate cap (the last window's worth of them, two guarded
** records each, spans (t* - t_e)(P^(-W/4) - 1) s, asked to be twice the
** cap's window W/max_rate), so the event is met with the rocking's
** speeds far above the rounding.  A block sliding to rest 1e-5 to 0.1 s
** before the rocking's t* then stops at its own closed-form instant and
** the rocking's tail is summed after it (taylor, rk4, adaptive); at
** 1e-6 s the impacts came faster than the cap (refused as before). */
static int rock_resolvable(nsm_sim *s, int e, double rest, double P)
{
    int W = s->rate.window;
    if (!(P > 0 && P < 1) || W <= 0 || !(s->set.max_rate > 0))
        return 0;
    double left = rest - zeno_event_time(s, e, rest);
    return left * (pow(P, -0.25 * W) - 1) >= 2 * W / s->set.max_rate;
}

/* A rocking cascade between gaps j and i whose summed tail (rest seconds
** from now) holds event ev - 1 of another element: rock_jump flies every
** body to t* in one mode, so a block sliding to rest elsewhere inside the
** tail was flown past its stop (x off by 1.8e-5 m, exit 0); where the
** rocking's impacts up to that event would come faster than the
** event-rate cap (rock_resolvable) they are not resolved one by one
** either (its pivots' forces are decided on rounding that near their
** accumulation): the run stops, naming both, the element and the
** instants. */
static int rock_event_refuse(nsm_sim *s, int j, int i, int ev, double rest)
{
    int e = ev - 1;
    return rt_fail(s, NSM_EMODEL, e, "a rocking cascade between gaps '%s' and '%s' whose "
                   "impacts accumulate at t = %.17g s while %s '%s' changes state inside its "
                   "tail (from t = %.17g s): summing the tail would fly that element past its "
                   "event, and the rocking's impacts so near their accumulation are not "
                   "resolved one by one; not supported", s->m->gaps[j].name, s->m->gaps[i].name,
                   s->t + rest, e < s->n_gaps ? "contact" : "friction element",
                   zeno_event_name(s, e), s->t);
}

/* Whether gap i, open, impacting and frictionless, lands within the next
** span seconds (its gap's constant-acceleration flight from the state, a
** gap inside its rounding band counting as at 0); if so, *rest is the time
** from now to its own accumulation point: the landing, then the geometric
** sum of the flights after it (the first launched at e times the landing
** speed, each shorter by e), or HUGE_VAL when it has none (a restitution
** of 1, no pull back to the contact). */
static int companion_lands(nsm_sim *s, int i, const double *Yd, double span, double *rest)
{
    const double *v = s->y + s->n_pos;
    double g = rt_gap(s, i, s->y), u = rt_wdot(s, i, v), a = rt_wacc(s, i, Yd + s->n_pos);
    double e = rt_law_restitution(s, i, u);
    if (g < 0 && fabs(g) <= rt_gap_tol(s, i, s->y))
        g = 0;
    /* the first root of g + u t + a t^2/2 = 0 from g >= 0, and the speed there */
    double disc = u * u - 2 * a * g, tl = HUGE_VAL;
    if (disc >= 0 && a < 0)
        tl = (-u - sqrt(disc)) / a;
    else if (disc >= 0 && a > 0 && u < 0)
        tl = (-u - sqrt(disc)) / a;
    else if (a == 0 && u < 0)
        tl = -g / u;
    *rest = HUGE_VAL;
    if (!(tl >= 0 && tl <= span))
        return 0;
    if (a < 0 && e >= 0 && e < 1)
        *rest = tl + 2 * e * sqrt(disc) / -a / (1 - e);
    return 1;
}

/* The contacts whose Zeno points fall within a jump of gap j lasting
** remaining (the two balls of equal drops): every other open,
** frictionless impact contact that lands before the jump ends is a
** companion, into comp with its accumulation time in tz, when it is
** touching now in a recognized cascade of its own that ends by then
** (within 1e-6 of the jump; tz is at most the jump's end): the jump would
** fly it through its last flights otherwise.  1 when some contact lands
** within the jump and is no such companion (the jump then waits: the
** impacts are resolved one by one). */
static int jump_companions(nsm_sim *s, int j, double remaining, unsigned *comp, double *tz)
{
    double Yd[s->n_state];
    rt_mode_none(s, comp);
    if (s->n_gaps < 2)
        return 0;
    if (rt_deriv(s, s->mode, s->t, s->y, Yd))
        return 1;
    for (int i = 0; i < s->n_gaps; i++) {
        double rest;
        if (i == j || rt_mode_has(s->mode, i) || !rt_law_impacts(s, i) ||
            !companion_lands(s, i, Yd, remaining, &rest))
            continue;
        for (int k = 0; k < s->n_fric; k++)
            if (rt_fric_normal_gap(s, k) == i)
                return 1;
        if (s->zeno.geo[i] < 3 || !(rest <= remaining * (1 + 1e-6)))
            return 1;
        rt_mode_add(comp, i);
        tz[i] = s->t + fmin(rest, remaining);
    }
    return 0;
}

/* The jump's flight from s->t to t_to in the mode it holds (the tail's
** friction checked on the way when j slips: element k, sign sg). */
static int jump_fly(nsm_sim *s, double t_to, int j, int k, int sg)
{
    double Y1[s->n_state];
    int rc;
    while (s->t < t_to) {
        double h = t_to - s->t;
        if ((rc = rt_step(s, s->t, s->y, &h, Y1)))
            return rc;
        double t1 = s->t + h >= t_to ? t_to : s->t + h;
        rt_stats_step(s, t1, Y1);
        rt_state_set(s, t1, Y1);
        if (k >= 0 && (rc = rt_fric_tail_check(s, j, k, sg)))
            return rc;
    }
    return NSM_OK;
}

/* The jump's flight to t*, with the zeno record of each companion at its
** own accumulation time on the way (the earliest first; the joint
** projection's loss is on j's record): its velocities before the
** projection in vbi. */
static int jump_fly_companions(nsm_sim *s, double tstar, int j, int k, int sg,
                               const unsigned *comp, const double *tz, const double *vbi)
{
    unsigned left[s->mode_words];
    int rc;
    memcpy(left, comp, sizeof left);
    for (;;) {
        int next = -1;
        for (int i = 0; i < s->n_gaps; i++)
            if (rt_mode_has(left, i) && (next < 0 || tz[i] < tz[next]))
                next = i;
        if ((rc = jump_fly(s, next < 0 ? tstar : tz[next], j, k, sg)) || next < 0)
            return rc;
        long ci = s->zeno.count[next] > 0 ? s->zeno.count[next] : 1;
        rt_mode_del(left, next);
        zeno_forget(s, next);
        if ((rc = rt_log_event(s, NSM_EV_ZENO, next, vbi[next], rt_wdot(s, next, s->y + s->n_pos),
                               0, 0, ci)))
            return rc;
    }
}

/* A companion i held by the jump's contact forces where its velocity was
** removed, mid-flight up to its last flights' height (1.2e-13 m above its
** floor after a drop of 1 + 1e-7 m): its positions moved onto gap i = 0 along
** M^-1 W_i^T, the least kinetic metric's move, so that it rests on its
** contact within the gap's rounding.  An affine gap of bodies whose
** positions are their coordinates only (not a curved gap, a moving surface
** or bodies in space); the potential energy it changes is the caller's to
** book. */
static void companion_rest(nsm_sim *s, int i)
{
    double g = rt_gap(s, i, s->y), D;
    if (!(g > 0) || s->n_pos != s->n_vel || rt_nl_gap_curved(s, i) || s->moving ||
        zeno_delassus(s, i, s->y, &D) || !(D > 0))
        return;
    rt_mass_add_row(s, &s->sp.W, i, -g / D, s->y);
}

/* Jump over a Zeno cascade of gap j whose last impact was just applied: the
** impacts accumulate at t* = t + remaining (rt_zeno_tail, or zeno_remaining
** where that does not apply; see impact() for when it jumps); remove the
** relative velocity of j and of its companions (jump_companions: the
** contacts whose Zeno points fall within the jump) by one plastic
** projection, move to t* in the mode the force LCP chooses there, log a
** zeno event for each (a companion's at its own accumulation point), and
** settle. */
static int zeno_jump(nsm_sim *s, int j, const unsigned *ref, double remaining, const unsigned *comp,
                     const double *tz)
{
    int rc, k = -1, sg = 0;
    if (s->n_fric && (rc = rt_fric_zeno_check(s, j, &k)))
        return rc;
    if (k >= 0)
        sg = rt_fric_slip(s, k, s->y + s->n_pos) > 0 ? 1 : -1;
    double tstar = s->t + remaining;
    long count = s->zeno.count[j];
    double *v = s->y + s->n_pos, vb = rt_wdot(s, j, v), lam[s->n_gaps + 1];
    double Eb = rt_mech_energy(s, s->mode, s->y);
    unsigned cand[s->mode_words], one[s->mode_words];
    double vbi[s->n_gaps + 1];
    rt_mode_none(s, cand);
    memcpy(one, comp, sizeof one);
    if (k < 0)
        rt_mode_add(one, j);
    for (int i = 0; i < s->n_gaps; i++) {
        vbi[i] = rt_wdot(s, i, v);
        if (rt_law_impacts(s, i) && (i == j || rt_mode_has(s->mode, i) || rt_mode_has(comp, i)))
            rt_mode_add(cand, i);
    }
    rt_surface_book(s);             /* a moving surface: the impacts so far */
    if (k >= 0 && rt_fric_tail_project(s, j, k))  /* slipping: with its Coulomb share */
        return s->failed;
    if (rt_project(s, one, v))
        return rt_fail(s, NSM_ENUMERIC, j, "plastic projection failed");
    double ws = rt_surface_book(s); /* ... and its work through the projection */
    if (rt_force_lcp(s, s->mode, s->t, s->y, cand, lam))
        return rt_fail(s, NSM_ENUMERIC, j, "no solution of the contact force problem");
    for (int i = 0; i < s->n_gaps; i++)
        if ((i == j || rt_mode_has(comp, i)) && lam[i] > rt_force_tol_gap(s, s->mode, s->y, i)) {
            rt_state_mode_add(s, i);
            if (i != j)
                companion_rest(s, i);
        }
    double lost = Eb - rt_mech_energy(s, s->mode, s->y);
    rt_transition_loss_add(s, lost);
    lost += ws;                     /* the energy dissipated, as impacts log it */
    if ((rc = jump_fly_companions(s, tstar, j, k, sg, comp, tz, vbi)))
        return rc;
    rt_surface_mark(s);             /* the flight to t* is the integrals' */
    if (k >= 0)
        rt_fric_resolved(s, j);     /* the tail's friction is summed */
    zeno_forget(s, j);
    if ((rc = rt_log_event(s, NSM_EV_ZENO, j, vb, rt_wdot(s, j, v), 0, lost, count)))
        return rc;
    return rt_zeno_settle(s, ref, NULL);
}

/* The limit of a sequence of impacts that gap j is part of: the contacts
** it reaches among those shut, touching or in extra have no relative
** approach left: one impulse problem without restitution over them
** (P >= 0 _|_ w.v+ >= 0), logged as one zeno record summing count impacts;
** then the force LCP decides which stay shut. */
static int collapse(nsm_sim *s, int j, const unsigned *ref, const unsigned *extra, int count, double lost0)
{
    int idx[s->n_gaps + 1], rc;
    for (int a = 0, k; a < s->n_gaps && s->n_fric; a++) {
        if ((a != j && !(extra && rt_mode_has(extra, a))))
            continue;
        if ((rc = rt_fric_zeno_check(s, a, &k)))
            return rc;
        if (k >= 0)
            return rt_fail(s, NSM_EMODEL, a, "a collapse of several contacts with friction '%s' "
                           "slipping on gap '%s': summing its frictional impulses is not "
                           "supported (--no-zeno resolves the impacts one by one)",
                           s->m->frictions[k].name, s->m->gaps[a].name);
    }
    double *y = s->y, *v = s->y + s->n_pos, vb[s->n_gaps + 1];
    unsigned set[s->mode_words];
    int r = rt_impact_set(s, j, extra, vb, idx, set);
    double *D = malloc(sizeof(double) * ((size_t)r * r + 2 * (size_t)r));
    if (!D)
        return rt_fail(s, NSM_ENOMEM, j, "out of memory forming the impact problem");
    double *q = D + (size_t)r * r, *P = q + r, Pr[r];
    rt_delassus(s, idx, r, D);
    for (int a = 0; a < r; a++)
        q[a] = vb[idx[a]];
    int bad = nsm_lcp_solve(r, D, q, P, NULL) != NSM_LA_OK;
    memcpy(Pr, P, sizeof Pr);
    free(D);
    if (bad)
        return rt_fail(s, NSM_ENUMERIC, j, "no solution of the impact problem");
    double Eb = rt_mech_energy(s, s->mode, y), Pj = 0;
    const RtCsr *W = &s->sp.W;
    for (int a = 0; a < r; a++) {
        rt_mass_add_row(s, W, idx[a], Pr[a], v);
        if (idx[a] == j)
            Pj = Pr[a];
    }
    for (int a = 0; a < r; a++)
        rt_state_mode_del(s, idx[a]);
    double lost = Eb - rt_mech_energy(s, s->mode, y);
    rt_transition_loss_add(s, lost);
    lost += lost0;
    memset(s->zeno.c_steady, 0, sizeof s->zeno.c_steady);
    s->zeno.c_geo = 0;
    rt_mode_none(s, s->zeno.c_mask);
    rc = rt_log_event(s, NSM_EV_ZENO, j, vb[j], rt_wdot(s, j, v), Pj, lost, count);
    return rc ? rc : rt_zeno_settle(s, ref, NULL);
}

/*
** A collapse over time found from the velocities.  Once the closing speeds
** of a run of impacts over two or more contacts contract (each below 0.95 of
** the one before, three in a row), the sequence of collisions is followed
** from the state just after the last impact on the mode's own linear
** dynamics, in long double, without resolving it on the run's double state
** (collapse_follow): each flight's gaps are G_i + sum_k c_k s^k, c_k = w_i .
** (A^k Z)_x / k!, carried from one landing to the next (no positions are
** subtracted: a model shifted by 1000 m follows the same gaps), the first
** gap to reach 0 takes Newton's impulse on its own contact.  If the
** flights shrink below 1e-18 of the elapsed time (an accumulation point)
** the limit is the last state followed: the run moves there, every contact
** of the last collisions takes the impulse without restitution (collapse),
** and one zeno record counts the collisions.  If the sequence ends (no
** gap closes within the Taylor reach or the run), nothing is declared and
** the collisions are resolved one by one, the follow tried again only
** after as many impacts again.  Restricted to what the follow models
** exactly: a small linear model (the mode's dense A) with a diagonal mass
** (Newton's impulse below takes mass_inv's products), no friction, no
** dampers, no forcing but constant forces (their generator's one state),
** no moving surfaces, no time switches, the mode with no contact closed,
** every impact gap with restitution in (0, 1) (elastic collisions lose no
** energy and cannot accumulate).
*/
#define FOLLOW_FLIGHTS 20000
#define FOLLOW_TERMS 24

/* Whether the model and the mode are ones collapse_follow models exactly. */
static int follow_applies(nsm_sim *s)
{
    if (s->n_fric || s->m->nl || rt_mass_dense(s) || s->moving || s->n_switches || s->m->n_forces > 0 || s->m->n_gen > 1 ||
        s->sp.C.p[s->n_vel] > 0 ||
        !rt_mode_empty(s, s->mode))
        return 0;
    for (int i = 0; i < s->n_gaps; i++) {
        double e = rt_law_impacts(s, i) ? rt_law_restitution(s, i, 0) : 0.5;
        if (!(e > 0 && e < 1))
            return 0;
    }
    return 1;
}

/* The first positive root of the polynomial c of degree K in (0, 1.5 H]
** (c[0] = G >= 0 the gap; G == 0: the gap has just opened, c_1 > 0, and
** the root of the polynomial divided by s is sought), located on the unit
** interval and polished by Newton in long double; 0 if there is none. */
static long double follow_root(const long double *c, int K, double H)
{
    long double a[FOLLOW_TERMS + 1], hk = 1;
    int shift = !(c[0] > 0);
    for (int k = 0; k <= K; k++, hk *= H) {
        if (shift && k == 0)
            continue;
        a[k - shift] = c[k] * hk;
    }
    double x;
    if (!(a[0] > 0) || !rt_poly_first_zero(a, K - shift, 0, 0, 0, &x))
        return 0;
    long double r = (long double)x * H;
    for (int it = 0; it < 60; it++) {
        long double dp, p = rt_poly_eval(c, K, r, &dp);
        if (!(dp != 0))
            break;
        long double dx = p / dp;
        r -= dx;
        if (fabsl(dx) <= 1e-19L * fabsl(r))
            break;
    }
    return r > 0 && r <= 1.5L * H ? r : 0;
}

/* Follow the collisions from (s->t, s->y), just after an impact of gap j,
** on the mode's linear dynamics (see above).  1 with the accumulation
** point in *tstar, the state there in Zend (na) and the contacts of the
** last collisions in mask; *count the collisions followed.  0 if the
** sequence ends or cannot be followed. */
static int collapse_follow(nsm_sim *s, int j, double *tstar, long double *Zend, unsigned *mask,
                           long *count)
{
    int n = s->n_vel, na = s->n_aug, g = s->n_gaps, ok = 0;
    const RtModeInfo *mi = rt_mode_info(s);
    if (!mi || !mi->A)
        return 0;
    double normA = nsm_la_norm1(na, mi->A), reach = normA > 0 ? 0.5 / normA : HUGE_VAL;
    double Hmax = fmin(reach, s->t_stop - s->t), D[g + 1];
    long double *P = malloc((FOLLOW_TERMS + 1) * (size_t)na * sizeof(long double));
    long double *C = malloc((FOLLOW_TERMS + 1) * (size_t)(g + 1) * sizeof(long double));
    long double Z[na], G[g + 1], total = 0, last = s->zeno.c_hist[0];
    int recent[2 * RT_CLUSTER_LAGS];
    if (!P || !C || !(Hmax > 0))
        goto done;
    if (!(last > 0))
        last = 1e-3L * Hmax;
    for (int i = 0; i < g; i++) {
        rt_delassus(s, &i, 1, &D[i]);
        double gi = rt_gap(s, i, s->y);
        G[i] = i == j || fabs(gi) <= rt_gap_tol(s, i, s->y) ? 0 : gi;
        if (G[i] < 0)
            goto done;
    }
    rt_exact_state(s, s->t, s->y, Z);
    for (int f = 0; f < FOLLOW_FLIGHTS; f++) {
        /* the next landing: the first gap to reach 0, within H growing to Hmax */
        long double sf = 0;
        int next = -1;
        for (double H = fmin(4 * (double)last, Hmax);; H = fmin(8 * H, Hmax)) {
            int K = rt_taylor_flight_terms(normA * H, FOLLOW_TERMS);
            memcpy(P, Z, sizeof(long double) * na);
            rt_taylor_terms(mi, na, K, 1, P);
            for (int i = 0; i < g; i++) {
                long double *c = C + (size_t)i * (FOLLOW_TERMS + 1);
                const RtCsr *W = &s->sp.W;
                c[0] = G[i];
                for (int k = 1; k <= K; k++) {
                    c[k] = 0;
                    for (int q = W->p[i]; q < W->p[i + 1]; q++)
                        c[k] += W->x[q] * P[(size_t)k * na + W->i[q]];
                }
                if (!(G[i] > 0) && !(c[1] > 0)) {
                    if (c[1] < 0 && rt_law_impacts(s, i)) {  /* touching and closing: now */
                        if (next < 0 || sf > 0 || c[1] < C[(size_t)next * (FOLLOW_TERMS + 1) + 1]) {
                            next = i;
                            sf = 0;
                        }
                        continue;
                    }
                    goto done;  /* at rest on a contact: not a collapse followed here */
                }
                long double r = follow_root(c, K, H);
                if (r > 0 && (next < 0 || r < sf) && !(next >= 0 && sf == 0)) {
                    next = i;
                    sf = r;
                }
            }
            if (next >= 0 || H >= Hmax)
                break;
        }
        if (next < 0 || !rt_law_impacts(s, next))
            goto done;          /* the sequence ends (or a penalty contact engages) */
        int K = rt_taylor_flight_terms(normA * (double)sf, FOLLOW_TERMS);
        long double Z1[na];
        rt_taylor_sum(P, na, K, sf, Z1);
        for (int i = 0; i < g; i++) {
            G[i] = i == next ? 0 : rt_poly_eval(C + (size_t)i * (FOLLOW_TERMS + 1), K, sf, NULL);
            if (G[i] < 0)
                G[i] = 0;
        }
        /* Newton's law on the landing contact alone */
        const RtCsr *W = &s->sp.W;
        long double u = 0;
        for (int q = W->p[next]; q < W->p[next + 1]; q++)
            u += W->x[q] * Z1[n + W->i[q]];
        if (!(u < 0) || !(D[next] > 0))
            goto done;
        long double imp = -(1 + (long double)rt_law_restitution(s, next, (double)u)) * u / D[next];
        for (int q = W->p[next]; q < W->p[next + 1]; q++)
            Z1[n + W->i[q]] += s->mass_inv[W->i[q]] * W->x[q] * imp;
        memcpy(Z, Z1, sizeof Z);
        recent[f % (2 * RT_CLUSTER_LAGS)] = next;
        total += sf;
        if (sf > 0)
            last = sf;
        if (f >= 2 * RT_CLUSTER_LAGS && sf > 0 && sf <= 1e-18L * (fabsl((long double)s->t) + total)) {
            rt_mode_none(s, mask);
            for (int k = 0; k < 2 * RT_CLUSTER_LAGS; k++)
                rt_mode_add(mask, recent[k]);
            *tstar = (double)((long double)s->t + total);
            memcpy(Zend, Z, sizeof Z);
            *count = f + 1;
            ok = rt_mode_count(s, mask) > 1 && *tstar <= s->t_stop;
            goto done;
        }
        if ((double)total > Hmax)
            goto done;
    }
done:
    free(P);
    free(C);
    return ok;
}

/* Track the closing speeds of the impacts for collapse_follow: the run of
** impacts whose closing speed is below 0.95 of the one before, and its
** contacts. */
static void follow_track(nsm_sim *s, int j, double u)
{
    if (s->zeno.f_run > 0 || s->zeno.f_u > 0) {
        if (u < 0.95 * s->zeno.f_u) {
            s->zeno.f_run++;
        } else {
            s->zeno.f_run = 0;
            rt_mode_none(s, s->zeno.f_mask);
        }
    }
    rt_mode_add(s->zeno.f_mask, j);
    s->zeno.f_u = u;
    s->zeno.f_count++;
}

/* After the impact of gap j: if a run of contracting closing speeds over
** several contacts is under way, follow the sequence; when it accumulates,
** move to its limit and collapse there.  1 in *done when it did. */
static int follow_resolve(nsm_sim *s, int j, const unsigned *ref, int *done)
{
    *done = 0;
    if (!s->set.zeno_on || s->zeno.f_run < 3 || rt_mode_count(s, s->zeno.f_mask) < 2 ||
        s->zeno.f_count < s->zeno.f_retry || !follow_applies(s))
        return NSM_OK;
    int N = s->n_state, n = s->n_vel;
    double tstar;
    long count;
    long double Zend[s->n_aug];
    unsigned mask[s->mode_words];
    if (!collapse_follow(s, j, &tstar, Zend, mask, &count)) {
        s->zeno.f_retry = 2 * s->zeno.f_count;
        return NSM_OK;
    }
    double Y[N], Eb = rt_mech_energy(s, s->mode, s->y);
    memcpy(Y, s->y, sizeof Y);
    for (int i = 0; i < 2 * n; i++)
        Y[i] = (double)Zend[i];
    double lost = Eb - rt_mech_energy(s, s->mode, Y);
    rt_transition_loss_add(s, lost);
    rt_stats_step(s, tstar, Y);
    rt_state_set(s, tstar, Y);
    s->zeno.f_run = 0;
    s->zeno.f_u = 0;
    rt_mode_none(s, s->zeno.f_mask);
    *done = 1;
    return collapse(s, j, ref, mask, (int)(count < INT_MAX ? count : INT_MAX), lost);
}

/* The time scale a cascade's flights are compared with: the step of the
** mode (1 ms when the method has no bound of its own there). */
static double zeno_scale(const nsm_sim *s)
{
    return isfinite(s->h_step) && s->h_step > 0 ? s->h_step : 1e-3;
}

/* Whether the cascade's contacts (c_mask) hold another that shares a body
** with gap j: a cascade over independent contacts (two balls on their own
** floors bouncing in step) is one cascade per contact, for the one-contact
** jump, and a collapse of j's impulse problem would leave the others as
** they were. */
static int cluster_coupled(const nsm_sim *s, int j)
{
    for (int i = 0; i < s->n_gaps; i++)
        if (i != j && rt_mode_has(s->zeno.c_mask, i) && rt_gaps_coupled(s, i, j))
            return 1;
    return 0;
}

/* A cascade over several contacts: a light body between two others, or
** between a body and the floor, or a stack whose contacts hit in turn, the
** impacts cycling through the contacts with intervals that shrink by a
** steady ratio (each contact on its own is no geometric cascade, so the
** one-contact Zeno jump does not see it).  The intervals are compared 2, 3
** and 4 apart (RT_CLUSTER_LAGS), the length of the cycle: six ratios in a
** row within 5 % of one another and below 0.95 at one of those lags, with
** intervals below 1e-3 dt, and the rest of the cascade, a few cycles of the
** last intervals, is not resolved: its contacts are collapsed at once
** (collapse) and logged as one zeno record.  True when j's impact ends
** such a cascade. */
static int cluster_track(nsm_sim *s, int j)
{
    double tau = s->t - s->zeno.c_last;
    if (!(tau > 0))
        return 0;               /* same instant: impact_sequence's business */
    int best = 0;
    for (int lag = 2; lag <= RT_CLUSTER_LAGS; lag++) {
        double prev = s->zeno.c_hist[lag - 1], ratio = s->zeno.c_last >= 0 && prev > 0 ? tau / prev : 0;
        if (ratio > 0 && ratio < 0.95 && fabs(ratio - s->zeno.c_rho[lag]) < 0.05 * s->zeno.c_rho[lag])
            s->zeno.c_steady[lag]++;
        else
            s->zeno.c_steady[lag] = 0;
        s->zeno.c_rho[lag] = ratio;
        if (s->zeno.c_steady[lag] > best)
            best = s->zeno.c_steady[lag];
    }
    if (best == 0)
        rt_mode_none(s, s->zeno.c_mask);
    rt_mode_add(s->zeno.c_mask, j);
    s->zeno.c_geo = best;
    memmove(s->zeno.c_hist + 1, s->zeno.c_hist, sizeof(double) * (RT_CLUSTER_LAGS - 1));
    s->zeno.c_hist[0] = s->zeno.c_last >= 0 ? tau : 0;
    s->zeno.c_last = s->t;
    return s->set.zeno_on && cluster_coupled(s, j) && best >= 6 && tau < 1e-3 * zeno_scale(s);
}

/* The Zeno detection of the impact im (its gap j open and closing, before
** its sequence of collisions): counts the flights of a single contact that
** shrink by e (a cascade after three in a row), follows the intervals over
** several contacts (cluster_track), and says whether the impact's records
** are exempt from the event-rate guard: the impacts of a recognized
** geometric cascade, of one contact or of several, are bounded (the jump
** comes after finitely many). */
void rt_zeno_track(nsm_sim *s, RtImpact *im)
{
    int j = im->j, single = im->single;
    double e = rt_law_restitution(s, j, im->vb[j]);
    int cascade = 0;
    if (single && e > 0 && e < 1 && s->set.zeno_on) {
        if (s->zeno.last[j] >= 0) {
            double tau = s->t - s->zeno.last[j];
            if (s->zeno.tau[j] > 0 && fabs(tau / (s->zeno.tau[j] * e) - 1) < 0.05) {
                s->zeno.geo[j]++;
            } else {
                s->zeno.geo[j] = 0;
                s->zeno.count[j] = 1;
            }
            s->zeno.tau[j] = tau;
        }
        s->zeno.last[j] = s->t;
        s->zeno.count[j]++;
        cascade = s->zeno.geo[j] >= 3;
    }
    /* impacts of a recognized geometric cascade, of one contact or of
     * several, are bounded (the jump comes after finitely many): the
     * event-rate guard leaves them alone */
    int ends_cluster = cluster_track(s, j);
    follow_track(s, j, -im->vb[j]);
    im->cascade = cascade;
    im->ends_cluster = ends_cluster;
    im->exempt = cascade || (s->set.zeno_on && rt_mode_count(s, s->zeno.c_mask) > 1 && s->zeno.c_geo >= 3);
}

/*
** The rocking cascade (Housner's block at the end of its rocking): impacts
** alternating between two contacts i and j, each with one friction element
** that sticks, the body pivoting about the stuck contact in between.  Each
** impact multiplies the opening speed by a ratio rho that does not depend
** on the speed (the impulse law is homogeneous in the velocities and the
** configuration at every impact is the same), and a flight launched at
** opening speed v under a smooth force lasts
**     tau(v) = a v + c v^3 + O(v^5)
** (the time to climb to the top and back of a conservative one-degree
** motion whose potential rises linearly from the contact: no even terms,
** theory.md section 11).  a and c are measured on trial flights of the
** opening gap launched from the state just after the impact with its
** velocities scaled up (rock_flight_law), where the gap's rounding does
** not blur the landing; the tail's time is then summed in closed form
** (rock_tail) and the body lands at rest on both contacts (rock_jump).
*/

/* The single friction element whose normal is gap j; -1 if none or several. */
static int rock_element(const nsm_sim *s, int j)
{
    int found = -1;
    for (int k = 0; k < s->n_fric; k++)
        if (rt_fric_normal_gap(s, k) == j) {
            if (found >= 0)
                return -1;
            found = k;
        }
    return found;
}

/* A trial flight of gap i from the current state with the velocities scaled
** so that i opens at speed v: its time in *tau (the guess tg), 1 on failure. */
static int rock_trial(nsm_sim *s, int i, double v, double tg, double *tau)
{
    int n = s->n_vel, N = s->n_state;
    double Y[N], Y1[N], u = rt_wdot(s, i, s->y + n);
    memcpy(Y, s->y, sizeof Y);
    for (int q = 0; q < n; q++)
        Y[n + q] *= v / u;
    return zeno_flight(s, i, s->t, Y, tg, tau, Y1);
}

/* The flight law tau(v) = a v + c v^3 of gap i, which the impact just
** applied opens (speed u > 0, the body pivoting on the held contact): three
** trial flights launched at v1, v1/2 and v1/4, v1 the speed whose flight
** under the current deceleration of the gap lasts about tl; a and c from the
** first two (Richardson: a = (8 tau2 - tau1) / (3 v1)), the third checks the
** law to 1e-7 of its time (a law the three flights do not follow is not
** summed).  0 on success. */
static int rock_flight_law(nsm_sim *s, int i, double tl, double *a, double *c)
{
    int n = s->n_vel;
    double Yd[s->n_state], tau[3];
    if (rt_deriv(s, s->mode, s->t, s->y, Yd))
        return 1;
    double acc = rt_wacc(s, i, Yd + n), v1 = -acc * tl / 2;
    if (!(acc < 0) || !(rt_wdot(s, i, s->y + n) > 0))
        return 1;
    for (int q = 0; q < 3; q++)
        if (rock_trial(s, i, ldexp(v1, -q), ldexp(tl, -q), &tau[q]))
            return 1;
    *a = (8 * tau[1] - tau[0]) / (3 * v1);
    *c = (tau[0] - *a * v1) / (v1 * v1 * v1);
    double v3 = v1 / 4, pred = *a * v3 + *c * v3 * v3 * v3;
    return !(fabs(pred - tau[2]) <= 1e-7 * tau[2]) || !(*a > 0);
}

/* The rest of a rocking cascade after the impact on j that opened i at
** speed v (ratio rho_j = v / |closing speed|), the impact before it on i
** with ratio rho_i and the flight laws (a_i, c_i) of i and (a_j, c_j) of j:
** the flights alternate i, j, i, ... launched at v, rho_i v, P v, ... with
** P = rho_i rho_j, so
**   rest = (a_i + a_j rho_i) v / (1 - P) + (c_i + c_j rho_i^3) v^3 / (1 - P^3),
** good to O(v^5) relative. */
static double rock_tail(double v, double rho_i, double rho_j, double ai, double ci, double aj,
                        double cj)
{
    double P = rho_i * rho_j;
    return (ai + aj * rho_i) * v / (1 - P) +
           (ci + cj * rho_i * rho_i * rho_i) * v * v * v / (1 - P * P * P);
}

/* Whether the body at rest at y (velocities zeroed) on the contacts and
** elements of mode pushes on every held contact (lam >= 0) with its
** stuck elements' forces inside the cone |lamf_k| <= mu_s lam.  The
** limit of the tail's pivot modes, and the rest the cascade lands in. */
static int rock_cone(nsm_sim *s, const unsigned *mode, const double *Yrest)
{
    double lam[s->n_gaps + 1], lamf[s->n_fric + 1];
    if (rt_multipliers(s, mode, s->t, Yrest, lam, lamf))
        return 0;
    double tol = rt_force_tol(s, mode, Yrest);
    for (int k = 0; k < s->n_fric; k++) {
        int j = rt_fric_normal_gap(s, k);
        if (j < 0 || !rt_mode_has(mode, j) || !rt_fric_stuck(s, mode, k))
            continue;
        if (!(lam[j] > -tol) || !(fabs(lamf[k]) <= s->num.mus[k] * lam[j] + tol))
            return 0;
    }
    return 1;
}

/* The mode pivoting on gap a with its element ka stuck, gap b open and its
** element kb idle, made from mode (pivoting on b or a). */
static void rock_mode(const nsm_sim *s, const unsigned *mode, int a, int ka, int b, int kb,
                      unsigned *out)
{
    rt_mode_copy(s, out, mode);
    rt_mode_del(out, b);
    rt_mode_del(out, s->n_gaps + 2 * kb);
    rt_mode_del(out, s->n_gaps + 2 * kb + 1);
    rt_mode_add(out, a);
    rt_mode_add(out, s->n_gaps + 2 * ka);
    rt_mode_del(out, s->n_gaps + 2 * ka + 1);
}

/* The coordinates of the rocking body, into own (1 or 0 each): those with
** a coefficient in the rows of its two gaps j, i and of their elements kj,
** ki at the state, and every coordinate of a planar body that has one (a
** curved row's coefficients vanish at some angles: B.x's in the corners'
** gaps, where the rows' patterns hold every coordinate). */
static void rock_coords(const nsm_sim *s, int j, int i, int kj, int ki, unsigned char *own)
{
    const RtCsr *W = &s->sp.W, *T = &s->sp.Wt;
    int rows[4] = { j, i, kj, ki };
    memset(own, 0, (size_t)s->n_vel);
    for (int r = 0; r < 4; r++) {
        const RtCsr *A = r < 2 ? W : T;
        for (int k = A->p[rows[r]]; k < A->p[rows[r] + 1]; k++)
            if (A->x[k] != 0)   /* a curved row keeps its pattern's zeros */
                own[A->i[k]] = 1;
    }
    for (int b = 0; b < s->m->n_planar; b++) {  /* a planar body whole */
        const nsm_planar_info *p = &s->m->planar[b];
        if (own[p->ix] || own[p->iy] || own[p->iphi])
            own[p->ix] = own[p->iy] = own[p->iphi] = 1;
    }
}

/* The state at the rocking cascade's accumulation point t + rest, into Y,
** for the coordinates off the rocking body (own 0): flown there in the
** current mode by the method's steps, as a Zeno jump flies the bodies off
** its cascade.  The rocking body's part is the caller's.  A block sliding
** beside the rocking one was left where it was at the last impact and
** stopped there (4.3 ms of its slide lost, 1.8e-5 m, exit 0); an event of
** its on the way is refused before (zeno_events_within). */
static int rock_fly_others(nsm_sim *s, double rest, const unsigned char *own, double *Y)
{
    int n = s->n_vel, N = s->n_state, others = 0, rc;
    double t = s->t, tstar = s->t + rest, Y1[N];
    memcpy(Y, s->y, sizeof(double) * N);
    for (int q = 0; q < n; q++)
        others |= !own[q];
    while (others && t < tstar) {
        double h = tstar - t;
        if (s->set.dt > 0 && h > s->set.dt)
            h = s->set.dt;
        if ((rc = rt_step(s, t, Y, &h, Y1)))
            return rc;
        t = t + h >= tstar ? tstar : t + h;
        memcpy(Y, Y1, sizeof Y1);
    }
    return NSM_OK;
}

/* Land the rocking cascade ended by the impact on j (i opening) at its
** accumulation point t + rest: the velocities go to 0 (the limit of the
** flights, whose amplitudes shrink like their speeds squared: the
** configuration is the impact's), checked first: at rest on either pivot
** and on both contacts the contact forces push and the stuck elements'
** forces are inside their cones (the tail's flights tend to the pivots'
** rests, its impulses were inside the cone at the impacts resolved, each
** later one the same multiple of its speed).  The kinetic energy left is
** logged as the jump's loss; one zeno record counts the cascade's impacts;
** then the contacts and elements settle at rest. */
static int rock_jump(nsm_sim *s, int j, int i, int kj, int ki, const unsigned *ref, double rest,
                     long count)
{
    int n = s->n_vel, N = s->n_state, rc;
    double Y[N], vb = rt_wdot(s, i, s->y + n);
    unsigned char own[n + 1];
    rock_coords(s, j, i, kj, ki, own);
    if ((rc = rock_fly_others(s, rest, own, Y)))
        return rc;
    for (int q = 0; q < n; q++)
        if (own[q]) {
            Y[q] = s->y[q];
            Y[n + q] = 0;
        }
    unsigned pj[s->mode_words], pi[s->mode_words];
    rock_mode(s, s->mode, j, kj, i, ki, pj);
    rock_mode(s, s->mode, i, ki, j, kj, pi);
    if (!rock_cone(s, pj, Y) || !rock_cone(s, pi, Y))
        return rt_fail(s, NSM_EMODEL, j, "a rocking cascade between gaps '%s' and '%s' whose "
                       "contacts would pull or whose friction would slip at rest: its tail is "
                       "not summed (--no-zeno resolves the impacts one by one)",
                       s->m->gaps[j].name, s->m->gaps[i].name);
    /* the rocking body's kinetic energy is the jump's loss; the others'
     * flight is the statistics' step's (their friction's work) */
    double Yb[N];
    memcpy(Yb, s->y, sizeof Yb);
    for (int q = 0; q < n; q++)
        if (own[q])
            Yb[n + q] = 0;
    double lost = rt_mech_energy(s, s->mode, s->y) - rt_mech_energy(s, s->mode, Yb);
    rt_transition_loss_add(s, lost);
    double tstar = s->t + rest;
    rt_stats_step(s, tstar, Y);
    rt_state_set(s, tstar, Y);
    rt_state_mode_add(s, i);
    s->zeno.rk_gap = -1;
    memset(s->zeno.c_steady, 0, sizeof s->zeno.c_steady);
    s->zeno.c_geo = 0;
    rt_mode_none(s, s->zeno.c_mask);
    zeno_forget(s, i);
    zeno_forget(s, j);
    rc = rt_log_event(s, NSM_EV_ZENO, j, -vb, 0, 0, lost, count);
    if (rc || (rc = rt_zeno_settle(s, ref, NULL)))
        return rc;
    if (!rt_mode_has(s->mode, i) || !rt_mode_has(s->mode, j))
        return rt_fail(s, NSM_EMODEL, j, "a rocking cascade between gaps '%s' and '%s' that "
                       "does not come to rest on both", s->m->gaps[j].name, s->m->gaps[i].name);
    /* at rest on both contacts with both elements stuck, the stuck rows
     * are dependent (one body, one tangent): the constrained solves merge
     * them and split the friction force by the elements' capacities
     * (dynamics.c rt_cons_split), and the run goes on at rest */
    return NSM_OK;
}

/* After the impact im on gap j, in a recognized cascade over exactly two
** contacts each with one friction element and no restitution (c_geo >= 3):
** a rocking cascade
** if the impact left j held with its element stuck and the other contact i
** opening.  Settles the impact (rt_impact_end: im->done), measures the
** flight law of i and the impact's speed ratio, and once the cascade over
** the two is steady (ends_cluster) and the impact before (on i) was
** measured too, jumps to the accumulation point (rock_jump).  *handled 0
** when the impact is no rocking cascade (the other handlers go on); a
** rocking pattern whose tail cannot be summed (an element slipping, a
** flight law not followed) stops the run with the reason when it would be
** jumped. */
static int rock_resolve(nsm_sim *s, RtImpact *im, int *handled)
{
    int j = im->j, i = -1, rc;
    *handled = 0;
    if (!s->n_fric || !s->set.zeno_on || s->zeno.c_geo < 3 || rt_mode_count(s, s->zeno.c_mask) != 2 ||
        !rt_mode_has(s->zeno.c_mask, j))
        return NSM_OK;
    for (int a = 0; a < s->n_gaps; a++)
        if (a != j && rt_mode_has(s->zeno.c_mask, a))
            i = a;
    int kj = rock_element(s, j), ki = i >= 0 ? rock_element(s, i) : -1;
    if (kj < 0 || ki < 0 || !rt_law_impacts(s, i) || !(im->vb[j] < 0) ||
        rt_law_restitution(s, j, im->vb[j]) != 0 || rt_law_restitution(s, i, im->vb[i]) != 0)
        return NSM_OK;          /* a landing contact that bounces rocks on nothing */
    unsigned forget[s->mode_words];
    rt_mode_none(s, forget);
    *handled = 1;
    im->done = 1;
    rc = rt_impact_end(s, im, forget);
    rt_zeno_forget(s, forget);
    if (rc || (rc = rt_fric_update(s)))    /* the old pivot's element goes idle */
        return rc;
    double u = rt_wdot(s, i, rt_vel(s, s->y)), rho = u / -im->vb[j], a, c;
    int pivots = rt_mode_has(s->mode, j) && !rt_mode_has(s->mode, i) &&
                 rt_fric_stuck(s, s->mode, kj) && u > 0;
    int law = pivots && !rock_flight_law(s, i, zeno_scale(s), &a, &c);
    /* jump once both flight laws are known and the speed is small enough
     * that the law's next term, (c v^2 / a)^2 relative, is below 1e-12: the
     * impacts resolved until then are located to rounding over their
     * closing speed, which grows as the speeds shrink */
    int known = law && s->zeno.rk_gap == i;
    if (known && fabs(c) * u * u <= 1e-6 * a && fabs(s->zeno.rk_c) * u * u <= 1e-6 * s->zeno.rk_a) {
        double rest = rock_tail(u, s->zeno.rk_rho, rho, a, c, s->zeno.rk_a, s->zeno.rk_c);
        int ev = 0;
        if (s->t + rest <= s->t_stop && !zeno_switch_within(s, s->t, s->t + rest) &&
            (ev = zeno_events_within(s, j, i, rest)) &&
            !rock_resolvable(s, ev - 1, rest, s->zeno.rk_rho * rho))
            return rock_event_refuse(s, j, i, ev, rest);
        if (!ev && s->t + rest <= s->t_stop && !zeno_switch_within(s, s->t, s->t + rest))
            return rock_jump(s, j, i, kj, ki, im->ref, rest, s->zeno.c_geo + 2);
    } else if (im->ends_cluster && !known) {
        return rt_fail(s, NSM_EMODEL, j, "a cascade of impacts alternating between gaps "
                       "'%s' and '%s' that is no rocking about a stuck contact (an element "
                       "slipping, or flights that do not follow a smooth law of their "
                       "speed): summing its tail is not supported (--no-zeno resolves the "
                       "impacts one by one)", s->m->gaps[j].name, s->m->gaps[i].name);
    }
    s->zeno.rk_gap = law ? j : -1;
    s->zeno.rk_rho = rho;
    s->zeno.rk_a = law ? a : 0;
    s->zeno.rk_c = law ? c : 0;
    return NSM_OK;
}

/* After the impact im is applied: collapse a cascade over several contacts
** that it ends, or jump over a one-contact cascade to its accumulation
** point; either ends the transition (im->done, settled here).  Otherwise
** the transition goes on (rt_impact_end).  A contact with spatial friction
** is never jumped or collapsed (their projections are frictionless): its
** impacts are resolved one by one. */
int rt_zeno_resolve(nsm_sim *s, RtImpact *im)
{
    int j = im->j, cascade = im->cascade, single = im->single, held = im->held;
    const unsigned *ref = im->ref;
    if (rt_spimp_element(s, j) >= 0)
        return NSM_OK;
    double e = rt_law_restitution(s, j, im->vb[j]);
    int followed, rc = follow_resolve(s, j, ref, &followed);
    if (rc || followed) {
        im->done = followed;
        return rc;
    }
    int rocking;
    if ((rc = rock_resolve(s, im, &rocking)) || rocking)
        return rc;
    if (im->ends_cluster) {
        im->done = 1;
        return collapse(s, j, ref, s->zeno.c_mask, s->zeno.c_geo + 2, 0);
    }
    /* jump once the rebounds stay inside the gap's rounding band (the
     * trajectory then differs from the stuck one by less than the band) and
     * the flight ratio is within 2e-4 of e (|beta tau| < 2e-4: the
     * beta-corrected sum is good to about 1e-9 s on the two-mass grazing
     * case, while every further impact resolved adds the noise of a landing
     * at a smaller relative velocity), or when the flights fall below 1e-3
     * of the step; never past the end of this run (the next run jumps).
     * Outside a recognized cascade, a rebound inside the band ends as
     * plastic (rt_impact_end).  The tail's flights take j's impulse alone,
     * so a cascade against a body held by another contact is not jumped:
     * its rebounds end plastic in the band. */
    int unresolved = rt_rebound_unresolved(s, j);
    if (!(cascade && single && !held && (unresolved || s->zeno.tau[j] < 1e-3 * zeno_scale(s))))
        return NSM_OK;
    double rest = rt_zeno_tail(s, j, e, s->zeno.tau[j]);
    if (!isfinite(rest)) {
        double beta = zeno_beta(s, j, s->zeno.tau[j]);
        rest = zeno_remaining(e, beta, s->zeno.tau[j]);
        if (!(fabs(beta * s->zeno.tau[j]) < 2e-4 || s->zeno.tau[j] < 1e-3 * zeno_scale(s)))
            return NSM_OK;
    }
    unsigned comp[s->mode_words];
    double tz[s->n_gaps + 1];
    if (s->t + rest <= s->t_stop && !zeno_switch_within(s, s->t, s->t + rest) &&
        rt_fric_zeno_summable(s, j) && !zeno_events_within(s, j, -1, rest) &&
        !jump_companions(s, j, rest, comp, tz))
        return im->done = 1, zeno_jump(s, j, ref, rest, comp, tz);
    return NSM_OK;
}
