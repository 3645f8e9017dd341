/*
** events.c: finding the earliest event inside a step.
**
** Given a step (t0, Y0) -> (t0 + h, Y1) of the current mode, every event
** function of the mode (model.h's table: gaps, contact forces, release
** conditions) is examined for a sign change inside the step, and the
** earliest one is landed on:
**
**   exact     the mode's motion over the step is its Taylor expansion
**             (taylor.c); each event function is a polynomial with a
**             bounded tail, whose first zero is isolated with a proof, so
**             that no crossing is missed however many there are in the
**             step; the landing state is the expansion's, in long double;
**   rk4,      the event functions at both ends with their derivatives give
**   adaptive  a cubic Hermite interpolant; a crossing, a dip below zero and
**             back, or a small bounce are found on it and located on the
**             method's own steps by the recast (step.c).  Their steps are
**             bounded by the mode's spectrum (run.c), which keeps the
**             interpolant faithful.
**
** A step after which an open contact is found clearly through its event
** function without an event stops the run: nothing is ever passed through
** silently.
*/
#include <float.h>
#include <math.h>
#include <string.h>

#include "law.h"
#include "rt.h"

/* Rounding level of event function j at y: a friction element's, or gap
** j's law's (law.h: the gap's for a gap or a penetration, the forces' for
** a contact force; the gap's directly where the law's setup said it is
** that in every mode, law_tol_gap). */
static inline double event_tol(const nsm_sim *s, int j, const double *y)
{
    if (j >= s->n_gaps)
        return rt_fric_event_tol(s, j, y);
    if (s->law_tol_gap[j])
        return rt_gap_tol(s, j, y);
    return rt_law_of(s, j)->event_tol(s, j, rt_mode_has(s->mode, j), y, rt_gap_tol(s, j, y));
}

/* event_tol with the coordinates' force scales of the held contacts
** computed once (*ready: already in sb) for all of them: they are O(n + g),
** and a large mode holds many (modeop.c). */
static double event_tol_once(const nsm_sim *s, int j, const double *y, double *sb, int *ready)
{
    if (j < s->n_gaps && rt_law_held(s, s->mode, j)) {
        if (!*ready)
            rt_force_scales(s, s->mode, y, sb);
        *ready = 1;
        return rt_gap_force_tol(s, j, sb);
    }
    return event_tol(s, j, y);
}

/* The open gaps' event functions at (t, y) (the others 0), for
** check_through after a large mode's step (modeop.c): the generic path
** would solve the held contacts' forces over dense rows. */
static void open_events(const nsm_sim *s, double t, const double *y, double *ev)
{
    for (int j = 0; j < s->n_events; j++) {
        ev[j] = 0;
        if (j >= s->n_gaps || rt_mode_has(s->mode, j))
            continue;
        rt_gap_form f;
        rt_law_of(s, j)->form(s, j, 0, &f);
        double gap = rt_gap_at(s, j, t, y);
        ev[j] = rt_law_form_at(&f, gap, f.sv || f.second ? rt_gap_rate(s, j, t, rt_vel(s, y)) : 0);
    }
}

/* Contact j found through at the end of the step (t1, its gap and event
** function ev): the run stops there, naming it (check_through). */
RT_COLD static int through_fail(nsm_sim *s, int j, double t1, double gap, double ev)
{
    rt_state_set_time(s, t1);
    return rt_fail(s, NSM_ENUMERIC, j,
                   "the contact is passed through without an event (gap %.6g m, "
                   "event function %.6g): the step is too long for this contact's "
                   "dynamics", gap, ev);
}

/* After a step without an event: an open contact found clearly through
** (its event function below zero by far more than its rounding), or a
** held contact penetrated, means a crossing was missed; stop rather than
** go on through the floor.  ev: the event functions at (t1, Y1), or NULL to
** evaluate them here. */
RT_HOT static int check_through(nsm_sim *s, double t1, const double *Y1, const double *ev)
{
    int g = s->n_gaps;
    if (s->n_fric && rt_fric_check(s, t1, Y1))
        return s->failed;
    if (g == 0)
        return NSM_OK;
    double evb[s->n_events], evd[s->n_events];
    if (!ev) {
        if (rt_nlt_events(s, t1, Y1, evb, evd))
            return NSM_OK;              /* the next step's evaluation reports it */
        ev = evb;
    }
    for (int j = 0; j < g; j++) {
        int closed = rt_mode_has(s->mode, j), impact = rt_law_impacts(s, j);
        double gt = rt_gap_tol(s, j, Y1), gap = rt_gap_at(s, j, t1, Y1);
        if ((!closed && ev[j] < -100 * event_tol(s, j, Y1)) || (impact && gap < -1e4 * gt))
            return through_fail(s, j, t1, gap, ev[j]);
    }
    return NSM_OK;
}

/* True when event function j is a slipping friction element's slip. */
RT_HOT static int fric_slip_slot(const nsm_sim *s, int j)
{
    return j >= s->n_gaps && (j - s->n_gaps) % 2 == 0 && !rt_fric_stuck(s, s->mode, (j - s->n_gaps) / 2);
}

static int fric_touch_search(nsm_sim *s, int j, double t0, const double *Y0, double h,
                             double e0, double d0, double e1, double d1, double nz,
                             double *tau, double *Ys);

/* A slipping friction element whose slip velocity comes down to 0 and turns
** back without crossing (it touches the surface's velocity, as a mass
** released from rest on a belt does when its speed peaks at the belt's) has
** an event there too: sticking may hold.  rk4 and adaptive: the minimum of
** the slip inside the step, from the Hermite interpolant, then by the
** secant on its rate along the method's own steps; 1 and (*tau, Ys) when it
** is within nz of 0. */
static int fric_touch_generic(nsm_sim *s, int j, double t0, const double *Y0, double h,
                              double e0, double d0, double e1, double d1, double nz,
                              double *tau, double *Ys)
{
    if (!(e0 > nz && d0 < 0 && d1 > 0 && e1 > 0))
        return 0;
    return fric_touch_search(s, j, t0, Y0, h, e0, d0, e1, d1, nz, tau, Ys);
}

/* fric_touch_generic's search, once the slip falls then rises inside the
** step (rare: out of the step's line). */
RT_COLD static int fric_touch_search(nsm_sim *s, int j, double t0, const double *Y0, double h,
                                     double e0, double d0, double e1, double d1, double nz,
                                     double *tau, double *Ys)
{
    int g = s->n_events;
    double smin, eg[g], dg[g];
    double th = rt_hermite_min(e0, d0, e1, d1, h, &smin);
    if (!(smin <= 2 * nz) || th <= 0)
        return 0;
    double lo = 0, hi = h, dlo = d0, dhi = d1, x = th * h;
    for (int it = 0; it < 100; it++) {
        if (rt_advance(s, t0, Y0, x, Ys) || rt_nlt_events(s, t0 + x, Ys, eg, dg))
            return 0;
        if (dg[j] == 0)
            break;
        if (dg[j] < 0)
            lo = x, dlo = dg[j];
        else
            hi = x, dhi = dg[j];
        double xn = lo - dlo * (hi - lo) / (dhi - dlo);
        if (!(xn > lo && xn < hi))
            xn = 0.5 * (lo + hi);
        if (fabs(xn - x) <= 1e-16 * (fabs(t0) + h) || hi - lo <= 4e-16 * (fabs(t0) + hi)) {
            x = xn;
            break;
        }
        x = xn;
    }
    if (rt_advance(s, t0, Y0, x, Ys) || rt_nlt_events(s, t0 + x, Ys, eg, dg) || eg[j] > nz)
        return 0;
    *tau = x;
    return 1;
}

/* A slipping friction element whose slip falls from beyond its band at the
** step's start (e0 > nz0, falling) to within it, above 0, at the step's
** end: the step lands on its touch or crossing of 0 there.  Neither test
** above saw it: a crossing needs the slip at or below 0 and a touch its
** minimum inside the step, and the next step starts inside the band.  A
** mass released from rest on a belt (belt_friction.nsm, v_b = 3 m/s) whose
** speed peaks at the belt's at pi/2, where rk4's steps of pi/1000 s end,
** never stuck and swung as a free oscillator, exit 0. */
static int fric_slip_ends_in_band(const nsm_sim *s, int j, double e0, double d0, double nz0,
                                  double e1, double nz1)
{
    return fric_slip_slot(s, j) && e0 > nz0 && d0 < 0 && e1 > 0 && e1 <= nz1;
}

/* An open impact contact inside its band at the step's start and closing
** beyond its velocity tolerance: a dip below 0 that comes back within the
** step is an impact (dip_below looks for it).  A step had ended on the
** impact, inside the band, above 0 (no crossing yet); the next one went
** 1e-6 rad into the wall and back out within itself, its ends both above
** 0: pendulum_wall.nsm released at 1 rad against a wall at -0.999999 rad
** (its turning point 1e-6 rad past it), rk4 sampling every 1/1000 of the
** impact's instant, reached the wall at 0.004 rad/s and came back with no
** impact, exit 0. */
static int open_closing_in_band(nsm_sim *s, int j, double e0, double d0, double nz0,
                                const double *Y0)
{
    return j < s->n_gaps && !rt_mode_has(s->mode, j) && rt_law_impacts(s, j) &&
           fabs(e0) <= nz0 && d0 < -rt_vel_tol(s, j, rt_vel(s, Y0));
}

/* Whether event function j is a held impact contact's force (its release
** condition), whose touches of 0 within rounding are no release. */
static int held_force(const nsm_sim *s, int j)
{
    return j < s->n_gaps && rt_law_held(s, s->mode, j);
}

/* What the rounding of the time t0 adds to an open contact's band at a
** step's start: a landing is located to the double nearest its instant, and
** there the gap is off by its rate times that double's spacing.  Late in a
** long run this passes the gap's own band: a ball bouncing elastically on
** a floor (1 cm, 0.44 m/s) for 57 s started a step at its rebound with its
** gap at -1.02e-14 m, below its band of 1e-14 m, and the step, longer than
** the whole flight, was taken as no crossing and refused as the contact
** passed through (adaptive; 180 s for a drop of 1 mm).  0 for the held
** contacts and the friction elements. */
static double open_time_band(const nsm_sim *s, int j, double t0, double d0)
{
    if (j >= s->n_gaps || rt_mode_has(s->mode, j))
        return 0;
    return 2 * fabs(d0) * DBL_EPSILON * fabs(t0);
}

/* A dip of event function j (e0, d0 at the step's start, e1, d1 at its
** end, both rising at the end) below 0 inside the step from (t0, Y0) of
** size h: from above, or after leaving 0 (a small rebound that falls back
** before the step ends).  Where the Hermite interpolant dips below 0, *hj
** becomes the dip's offset and *cross whether the function is below 0
** there (below its rounding for a held contact's force).  Nonzero: a
** failure of the step or the events there. */
RT_COLD static int dip_below(nsm_sim *s, int j, double t0, const double *Y0, double h, double e0,
                             double d0, double e1, double d1, double *hj, int *cross)
{
    int g = s->n_events, rc;
    double smin, th = rt_hermite_min(e0, d0, e1, d1, h, &smin), em, dm, Yg[s->n_state];
    if (smin < 0 && th > 0) {
        double eg[g], dg[g];
        *hj = th * h;
        if ((rc = rt_advance(s, t0, Y0, *hj, Yg)))
            return rc;
        if ((rc = rt_nlt_events(s, t0 + *hj, Yg, eg, dg)))
            return rc;
        em = eg[j];
        dm = dg[j];
        (void)dm;
        *cross = em <= (held_force(s, j) ? -event_tol(s, j, Yg) : 0);
    }
    return NSM_OK;
}

/* Event function j crossed inside the step from (t0, Y0) of size h, by
** hj (e0, d0 at the start, e1, d1 at the end, nz0 its band at the start):
** its instant *tj and state Yj, located by rt_locate from the start, or
** from the maximum of a small bounce leaving 0.  Nonzero after rt_fail. */
RT_COLD static int crossing_locate(nsm_sim *s, int j, double t0, const double *Y0, double h,
                                   double hj, double e0, double d0, double e1, double d1,
                                   double nz0, double *tj, double *Yj)
{
    int g = s->n_events, rc;
    double ta = 0, sa = e0, sda = d0, Yg[s->n_state];
    const double *Ya = Y0;
    if (fabs(e0) <= nz0 && d0 > 0) {
        /* leaving 0 upwards and back to 0 or below inside the step (a
         * small bounce): the root sought is after the maximum */
        double smax, th = rt_hermite_min(-e0, -d0, -e1, -d1, h, &smax);
        if (th > 0) {
            double eg[g], dg[g];
            if ((rc = rt_advance(s, t0, Y0, th * h, Yg)) ||
                (rc = rt_nlt_events(s, t0 + th * h, Yg, eg, dg)))
                return rt_fail(s, rc, j, "event location failed");
            if (eg[j] > fmax(e0, 0)) {
                ta = th * h;
                sa = eg[j];
                sda = dg[j];
                Ya = Yg;
            }
        }
    }
    if ((rc = rt_locate(s, j, t0 + ta, Ya, hj - ta, sa, sda, tj, Yj)))
        return rt_fail(s, rc, j, "event location failed");
    *tj += ta;
    return NSM_OK;
}

/* Look for events of the gaps inside the step (t0, Y0) -> (t0 + h, Y1):
** s falling from > 0 to <= 0, from ~0 to clearly negative, or a grazing
** dip the Hermite interpolant reveals; on the final step of a run, also s
** reaching 0 (within rounding) at the end.  On an event, *jev is the earliest
** one, *tau its offset and Ys the state there; else *jev = -1. */
static int detect_generic(nsm_sim *s, double t0, const double *Y0, double h, const double *Y1, int final,
                  int *jev, double *tau, double *Ys)
{
    int g = s->n_events, rc;
    *jev = -1;
    if (g == 0)
        return NSM_OK;
    double e0[g], d0[g], e1[g], d1[g], Yj[s->n_state], best = HUGE_VAL;
    if ((rc = rt_nlt_events(s, t0, Y0, e0, d0)) || (rc = rt_nlt_events(s, t0 + h, Y1, e1, d1)))
        return rt_fail(s, rc, -1, "event functions could not be evaluated");
    for (int j = 0; j < g; j++) {
        double nz0 = event_tol(s, j, Y0) + open_time_band(s, j, t0, d0[j]), nz1 = event_tol(s, j, Y1);
        double hj = h, tj;
        if (j >= s->n_gaps && e0[j] < -nz0) {
            /* a friction element found beyond its cone or slipping the
             * wrong way at the step's start: its transition is now */
            if (0 < best) {
                best = 0;
                *jev = j;
                memcpy(Ys, Y0, sizeof Yj);
            }
            continue;
        }
        if (t0 == s->last_transition_t && j != s->last_transition_j && j < s->n_gaps && rt_law_impacts(s, j) &&
            !rt_mode_has(s->mode, j) && e0[j] <= nz0 && d0[j] < -rt_vel_tol(s, j, rt_vel(s, Y0))) {
            /* right after another contact's transition, an open impact
             * contact touching and closing (that contact's impulse has
             * driven it shut; or found below 0, which it must not go
             * further): its impact is now, before it can dip below 0 and
             * come back within the step.  (Not in general: the last
             * flights of a cascade stay inside the rounding band.) */
            best = 0;
            *jev = j;
            memcpy(Ys, Y0, sizeof Yj);
            break;
        }
        if (fric_slip_slot(s, j) &&
            fric_touch_generic(s, j, t0, Y0, h, e0[j], d0[j], e1[j], d1[j], fmax(nz0, nz1), &tj, Yj)) {
            if (tj < best) {
                best = tj;
                *jev = j;
                memcpy(Ys, Yj, sizeof Yj);
            }
            continue;
        }
        if (fric_slip_ends_in_band(s, j, e0[j], d0[j], nz0, e1[j], nz1)) {
            if (h < best) {
                best = h;
                *jev = j;
                memcpy(Ys, Y1, sizeof Yj);
            }
            continue;
        }
        /* a held contact's force that comes within its rounding of 0 touches
         * 0 (a double zero, as at the top of a swing): it releases only
         * once clearly below, so a step ending or bottoming out on the
         * touch is no crossing; a release at a multiple zero is found in
         * the next step, from its start */
        double below = held_force(s, j) ? -nz1 : 0;
        int cross = (e0[j] > nz0 && e1[j] <= below) || (fabs(e0[j]) <= nz0 && e1[j] < -nz1);
        if (!cross && j < s->n_gaps && !rt_mode_has(s->mode, j) && e0[j] > 0 && e1[j] <= 0 &&
            d0[j] < -rt_vel_tol(s, j, rt_vel(s, Y0)))
            cross = 1;      /* a landing from inside the band, above 0 and closing */
        if (!cross && fabs(e0[j]) <= nz0 && d0[j] > 0 && e1[j] <= below && d1[j] < 0)
            cross = 1;      /* a bounce from ~0 back to ~0 within the step */
        if (!cross && e1[j] > 0 && d1[j] > 0 &&
            ((e0[j] > nz0 && d0[j] < 0) || (fabs(e0[j]) <= nz0 && d0[j] > 0) ||
             open_closing_in_band(s, j, e0[j], d0[j], nz0, Y0)) &&
            (rc = dip_below(s, j, t0, Y0, h, e0[j], d0[j], e1[j], d1[j], &hj, &cross)))
            return rc;
        if (!cross && final && e0[j] > nz0 && fabs(e1[j]) <= nz1 && d1[j] < 0) {
            /* the run ends on the event: land on the end of the step */
            if (h < best) {
                best = h;
                *jev = j;
                memcpy(Ys, Y1, sizeof Yj);
            }
            continue;
        }
        if (!cross)
            continue;
        if ((rc = crossing_locate(s, j, t0, Y0, h, hj, e0[j], d0[j], e1[j], d1[j], nz0, &tj, Yj)))
            return rc;
        if (tj < best) {
            best = tj;
            *jev = j;
            memcpy(Ys, Yj, sizeof Yj);
        }
    }
    *tau = best;
    return *jev < 0 ? check_through(s, t0 + h, Y1, e1) : NSM_OK;
}


/* ---- exact: first zeros along the step's Taylor expansion ------------- */

/* The first x >= lo in [0, 1] where the polynomial a is <= 0 (x = lo when
** it is there already); 1 and *x if there is one. */
static int first_below(const long double *a, int K, double lo, double r0, double r1, double *x)
{
    if (rt_poly_eval(a, K, lo, NULL) <= 0) {
        *x = lo;
        return 1;
    }
    return rt_poly_first_zero(a, K, lo, r0, r1, x);
}

/* The sign change of the polynomial a just before hi, where it is below
** zero, starting from 0, where it is positive: Newton's method from hi kept
** inside the bracket [lo, hi] with p(lo) > 0 >= p(hi) (bisection where it
** leaves it, a step of one double where it stalls), to two adjacent
** doubles; the point returned has p <= 0. */
static double zero_before(const long double *a, int K, double hi)
{
    double lo = 0, x = hi;
    for (int it = 0; it < 200; it++) {
        long double d, p = rt_poly_eval(a, K, x, &d);
        if (p > 0)
            lo = x;
        else
            hi = x;
        double m = 0.5 * (lo + hi);
        if (m <= lo || m >= hi)
            break;
        double xn = d != 0 ? (double)(x - p / d) : m;
        if (xn == x)
            xn = nextafter(x, p > 0 ? hi : lo);
        x = xn > lo && xn < hi ? xn : m;
    }
    return hi;
}

/* Whether the polynomial a is <= 0 at x to within its tail bound r0 and
** the rounding of x itself (a zero of another form, rounded to double). */
static int below_at(const long double *a, int K, double x, double r0)
{
    long double d, p = rt_poly_eval(a, K, x, &d);
    return p <= 2 * r0 + 4 * fabsl(d) * DBL_EPSILON * fabs(x);
}

/* The first x >= lo where max(a, b) <= 0: alternately the first point
** where one is <= 0 and then the other, until both are. */
static int first_both_below(const long double *a, const double *ra, const long double *b,
                            const double *rb, int K, double lo, double *x)
{
    for (int it = 0; it < 64; it++) {
        double xa, xb;
        if (!first_below(a, K, lo, ra[0], ra[1], &xa) || !first_below(b, K, lo, rb[0], rb[1], &xb))
            return 0;
        double xm = fmax(xa, xb);
        if (below_at(a, K, xm, ra[0]) && below_at(b, K, xm, rb[0])) {
            *x = xm;
            return 1;
        }
        if (!(xm > lo))
            return 0;
        lo = xm;
    }
    return 0;
}

/* The polynomial of event function j of mode mi along the step's
** expansion and its tail bounds (second: the re-entry form of an open
** penalty gap released by force): from the dense form, or a large mode's
** operator (modeop.c). */
static void event_form(nsm_sim *s, const RtModeInfo *mi, int j, int second, long double *a,
                       double *r)
{
    if (mi->op)
        rt_modeop_form(s, j, second, a, &r[0], &r[1]);
    else if (!second)
        rt_taylor_event(s, j, a, &r[0], &r[1]);   /* from the step's propagator when it has one */
    else
        rt_taylor_form(s, mi->ev2 + (size_t)j * s->n_aug, a, &r[0], &r[1]);
}

/* The event of an open penalty gap released by force: its event function
** is max(gap, k gap + c gap') (nsm/model.h), zero when both forms are;
** each form has its own rounding level (a length, a force).  a and ra are
** the gap's polynomial and tail bounds. */
static int exact_event_max(nsm_sim *s, const RtModeInfo *mi, int j, long double *a,
                           const double *ra, double *x)
{
    int K = s->tay.K;
    long double b[K + 1];
    double rb[2], lo = 0;
    event_form(s, mi, j, 1, b, rb);
    double ta = rt_gap_tol(s, j, s->y), tb = rt_law_stiffness(s, j) * ta + rt_force_tol(s, s->mode, s->y);
    if (a[0] < -ta && b[0] < -tb)
        return 0;                       /* inside, released: not a state it can start from */
    if (!(a[0] > ta || b[0] > tb)) {
        if (a[1] > 0 || b[1] > 0) {     /* at 0 and leaving upwards: beyond the peak */
            long double *up = a[1] > 0 ? a : b;
            if (!rt_poly_first_peak(up, K, 0, up == a ? ra[1] : rb[1], &lo))
                return 0;
        } else {                        /* at 0 going down: once both are clearly below */
            long double a2[K + 1], b2[K + 1];
            double xn;
            memcpy(a2, a, sizeof a2);
            memcpy(b2, b, sizeof b2);
            a2[0] += ta;
            b2[0] += tb;
            if (!first_both_below(a2, ra, b2, rb, K, 0, &xn))
                return 0;
            if (!first_both_below(a, ra, b, rb, K, 0, x))
                *x = 0;
            return 1;
        }
    }
    return first_both_below(a, ra, b, rb, K, lo, x);
}

/* The polynomial a of degree K at x = 1: rt_poly_eval's Horner rule at 1,
** whose products by 1 are exact (the plain sum from the top coefficient
** down, the same additions in the same order, so the same bits), four
** terms a pass: closing_zero asks it of every open gap at nearly every
** step, where the loop's counting cost as much as the sums. */
static inline long double poly_at_one(const long double *a, int K)
{
    long double p = a[K];
    int k = K - 1;
    for (; k >= 3; k -= 4)
        p = p + a[k] + a[k - 1] + a[k - 2] + a[k - 3];
    for (; k >= 0; k--)
        p = p + a[k];
    return p;
}

/* An open gap j's first zero along the expansion a (x in [0, 1] over the
** step) crossed at a closing speed beyond the velocity's rounding: a
** landing, even when the step ends inside the gap's rounding band (below
** 0 but above -nz).  The band, 1e-10 of the gap's terms, is 2e-4 m for a
** floor at 1e6 m: a landing left to the next step's start was taken there,
** up to 2e-4 m below the floor, and every flight after it was off.  1 and
** *x if there is one.  A step ending on the zero within a few roundings
** (below 1e-5 of the band: a wall meeting a body at a step's end) leaves
** it to the next step's start, as before, so the step's end is sampled
** before the impact.  Here the search and the speed, once the step's end
** is inside the band (closing_zero, below, tests that first). */
static int closing_zero_in_band(const nsm_sim *s, int j, const long double *a, int K,
                                double r0, double r1, double *x)
{
    long double d;
    if (!first_below(a, K, 0, r0, r1, x))
        return 0;
    rt_poly_eval(a, K, *x, &d);
    return -(double)d > s->tay.h * rt_vel_tol(s, j, s->y + s->n_pos);
}

/* closing_zero: the band test inline in exact_event (nearly every open gap
** at nearly every step fails it), the search and the speed in the call. */
static inline int closing_zero(const nsm_sim *s, int j, const long double *a, int K, double nz,
                               double r0, double r1, double *x)
{
    return j < s->n_gaps && poly_at_one(a, K) < -1e-5 * nz &&
           closing_zero_in_band(s, j, a, K, r0, r1, x);
}

/* For a held contact's force a at 0 with a zero slope (a[1] == 0): whether it rises
** (its first nonzero coefficient a[m], m >= 2, is positive: a held
** contact's force -P (1 - cos t) from t = 0 grows like t^2, no release),
** and then its first peak in (0, 1] into *xc (1 if there is one): the first
** zero of p'(x)/x^(m-1), which starts at m a[m] > 0 (p' itself starts at 0,
** where the peak search would stop); *xc = 1 when it rises over the step. */
static int flat_rise(const long double *a, int K, double r1, double *xc)
{
    int m = 2;
    for (int k = 0; k <= K; k++)
        if (!isfinite((double)a[k]))
            return 0;
    while (m <= K && a[m] == 0)
        m++;
    if (m > K || !(a[m] > 0))
        return 0;
    long double e[K - m + 1];
    for (int k = 0; k <= K - m; k++)
        e[k] = (k + m) * a[k + m];
    if (!rt_poly_first_zero(e, K - m, 0, r1, r1 * (K + 2), xc))
        *xc = 1;
    return 1;
}

/* A slipping element's slip, clearly above 0 at the step's start, that
** ends the step below 0 but inside its rounding band (above -nz, nz taken
** from the start's speeds): it went through 0, a stick or reversal to
** judge at that zero, 1 and *x.  Left to the next step's start, the slip
** there was already against its direction beyond the end's much smaller
** band and was taken as a reversal: a block coming to rest 1e-12 s before
** a step's end cut at a time switch slid backwards under a push below its
** hold (exact). */
static int slip_ends_below(const long double *a, int K, double r0, double r1, double *x)
{
    double xn;
    if (!(poly_at_one(a, K) < -r0))
        return 0;
    if (!first_below(a, K, 0, r0, r1, &xn))
        xn = 1;
    *x = zero_before(a, K, xn);
    return 1;
}

/* The event of function j along the expansion: the first x in [0, 1]
** where it falls through zero (the same cases as detect_generic: from
** above; from ~0 after rising, beyond its peak; from ~0 downwards, once
** it is clearly below); 1 and *x if there is one, -1 when an open impact
** contact starts clearly through (a missed impact: the caller fails). */
RT_HOT static int exact_event(nsm_sim *s, const RtModeInfo *mi, int j, double nz, int final, double *x)
{
    int K = s->tay.K;
    long double a[K + 1];
    double ra[2];
    event_form(s, mi, j, 0, a, ra);
    if (mi->has2[j])
        return exact_event_max(s, mi, j, a, ra, x);
    double s0 = (double)a[0], r0 = ra[0], r1 = ra[1], xflat = 1;
    int fric = j >= s->n_gaps;
    int impact = fric || rt_law_impacts(s, j), closed = fric || rt_mode_has(s->mode, j);
    if (s0 < -nz) {
        if (impact && !closed)
            return -1;
        if (impact) {                   /* a held contact pulling: it separates now */
            *x = 0;
            return 1;
        }
        return 0;
    }
    if (s0 > nz) {
        /* through 0 for real: to below -nz (a touch of 0 within rounding,
         * as a held contact's force at the top of a swing, is no event),
         * and the zero is the sign change just before that */
        long double c[K + 1];
        double xn;
        memcpy(c, a, sizeof c);
        c[0] += nz;
        if (first_below(c, K, 0, r0, r1, &xn)) {
            *x = zero_before(a, K, xn);
            return 1;
        }
        if (!closed && closing_zero(s, j, a, K, nz, r0, r1, x))
            return 1;                   /* a landing whose step ends inside the band */
        if (fric_slip_slot(s, j) && slip_ends_below(a, K, r0, r1, x))
            return 1;                   /* a slip through 0 whose step ends inside the band */
    } else if (a[1] > 0 || (closed && !fric && a[1] == 0 && flat_rise(a, K, r1, &xflat))) {
        double xc = xflat;              /* leaving 0 upwards: a zero after its peak */
        if ((a[1] == 0 || rt_poly_first_peak(a, K, 0, r1, &xc)) && xc < 1 &&
            rt_poly_eval(a, K, xc, NULL) > 0 && first_below(a, K, xc, r0, r1, x))
            return 1;
    } else if (s0 > 0 && !closed && closing_zero(s, j, a, K, nz, r0, r1, x)) {
        return 1;                       /* a landing from inside the band */
    } else {
        long double c[K + 1];           /* at ~0 going down: once it is clearly below */
        memcpy(c, a, sizeof c);
        c[0] += nz;
        double xn;
        if (first_below(c, K, 0, r0, r1, &xn)) {
            if (s0 <= 0 || !first_below(a, K, 0, r0, r1, x))
                *x = 0;
            if (*x == 0 && rt_state_marked_now(s, j)) {
                /* its transition here left it open (touching, with no force
                 * yet): land where it is just below 0, by 1e-8 of its
                 * rounding level, so that the landing is at rest.  The
                 * depth is kept above the expansion's own rounding (4 r0):
                 * a gap leaving 0 at a multiple zero (the sprung table,
                 * whose contact force starts at 0 with zero slope) is
                 * within r0 of 0 at x = 0 itself, and landing there again
                 * looped at t = 0 forever */
                double depth = fmax(1e-8 * nz, 4 * r0);
                c[0] = a[0] + depth;
                if (!(depth < nz) || !first_below(c, K, 0, r0, r1, x) || *x == 0)
                    *x = xn;
            }
            return 1;
        }
    }
    if (final && s0 > nz) {
        long double d, p1 = rt_poly_eval(a, K, 1, &d);
        if (fabsl(p1) <= nz && d < 0) {  /* the run ends on the event */
            *x = 1;
            return 1;
        }
    }
    return 0;
}

/* The exact method's counterpart of fric_touch_generic: the first minimum
** of the slip of slipping element j along the expansion, when it is within
** nz of 0 (and the slip starts clearly above it); 1 and *x if there is one. */
static int fric_touch_exact(nsm_sim *s, int j, double nz, double *x)
{
    int K = s->tay.K;
    long double a[K + 1], b[K + 1];
    double ra[2], lo = 0;
    rt_taylor_event(s, j, a, &ra[0], &ra[1]);
    if (!(a[0] > nz))
        return 0;
    for (int k = 0; k <= K; k++)
        b[k] = -a[k];
    if (a[1] >= 0 && !rt_poly_first_peak(a, K, 0, ra[1], &lo))
        return 0;                       /* rising over the whole step */
    if (!rt_poly_first_peak(b, K, lo, ra[1], x))
        return 0;                       /* falling over the rest of the step */
    return rt_poly_eval(a, K, *x, NULL) <= nz + ra[0];
}

/* Whether event function j of a large mode (modeop.c) stays above nz over
** the whole step by a bound of O(K): p(x) >= a_0 - sum_(k>=1) |a_k| - r0 on
** [0, 1].  exact_event then finds nothing (it looks for p <= -nz, or for
** p(1) within nz on the final step), so the search is skipped: most gaps
** of a large model are far from closing in any one step. */
static int op_clear(nsm_sim *s, const RtModeInfo *mi, int j, double nz)
{
    int K = s->tay.K;
    long double a[K + 1], lo;
    double r[2];
    if (mi->has2[j])
        return 0;
    event_form(s, mi, j, 0, a, r);
    lo = a[0] - r[0];
    for (int k = 1; k <= K; k++)
        lo -= fabsl(a[k]);
    return lo > nz;
}

/* The state Ys where the exact method's step [t0, t0 + h] from Y0 lands on
** its earliest event, best after t0: the expansion's, energies by its
** quadrature (an event: out of the step's line). */
RT_COLD static void exact_landing(nsm_sim *s, double t0, const double *Y0, double h, double best,
                                  double *Ys)
{
    int na = s->n_aug, n = s->n_vel;
    double x = best / h, Ed, Ew;
    long double Z[na];
    rt_taylor_state(s, x, Z);
    rt_exact_land(s, t0 + best, Z, Ys);
    rt_taylor_energy(s, x, &Ed, &Ew);
    Ys[2 * n] = Y0[2 * n] + Ed;
    Ys[2 * n + 1] = Y0[2 * n + 1] + Ew;
}

/* Open impact contact j found below its band nz at the start of exact's
** step: -1, a missed impact (the run stops), unless it is within the depth
** that rk4's and adaptive's check_through accept as rounding (100 bands)
** and not closing beyond its velocity tolerance: then 1, its landing now
** (*x = 0) while it still closes, bringing it to rest, else 0, at rest.
** The band is relative to the positions (rt_gap_tol): a pair left
** touching within rounding by an impact near x = 0.1 m, drifting shut at
** 1e-12 m/s, was 3.9e-14 m below a band of 2.4e-14 m as the train
** crossed x = 0, and exact's run stopped on "an impact was missed" where
** rk4's and adaptive's went on. */
static int exact_below(nsm_sim *s, int j, double t0, const double *Y0, const double *v0, double nz,
                       double *x)
{
    double rate = rt_gap_rate(s, j, t0, v0);
    if (rt_gap_at(s, j, t0, Y0) < -100 * nz || rate < -rt_vel_tol(s, j, v0))
        return -1;
    *x = 0;
    return rate < 0;
}

/* The exact method's detection over the step [t0, t0 + h] from Y0: the
** expansion, each event function's first zero, the earliest landed on (its
** state from the expansion, energies by its quadrature).  The expansion
** stays in s->tay for the samples inside the step. */
RT_APART static int detect_exact(nsm_sim *s, double t0, const double *Y0, double h, int final,
                                 int *jev, double *tau, double *Ys)
{
    int na = s->n_aug, n = s->n_vel, rc;
    const RtModeInfo *mi = rt_mode_info(s);
    if (!mi)
        return s->failed;
    long double Z0[na];
    rt_exact_state(s, t0, Y0, Z0);
    if (!rt_taylor_is(s, mi, t0, Z0, h) && (rc = rt_taylor_build(s, mi, t0, Z0, h)))
        return rt_fail(s, rc, -1, "the step's expansion could not be formed");
    double best = HUGE_VAL, sb[s->n_vel + 1];
    int ready = 0;
    *jev = -1;
    for (int j = 0; j < s->n_events; j++) {
        double nz = mi->op ? event_tol_once(s, j, Y0, sb, &ready) : event_tol(s, j, Y0), x;
        const double *v0 = Y0 + n;
        if (t0 == s->last_transition_t && j != s->last_transition_j && j < s->n_gaps && rt_law_impacts(s, j) &&
            !rt_mode_has(s->mode, j) && rt_gap_at(s, j, t0, Y0) <= nz &&
            rt_gap_rate(s, j, t0, v0) < -rt_vel_tol(s, j, v0)) {
            /* another contact's impulse has driven it shut: its impact is now */
            best = 0;
            *jev = j;
            break;
        }
        if (mi->op && op_clear(s, mi, j, nz))
            continue;
        int r = exact_event(s, mi, j, nz, final, &x);
        if (r < 0)
            r = exact_below(s, j, t0, Y0, v0, nz, &x);
        if (r < 0)
            return rt_fail(s, NSM_ENUMERIC, j,
                           "the contact is penetrated (gap %.6g m) at the start of a step: an "
                           "impact was missed", rt_gap_at(s, j, t0, Y0));
        if (r > 0 && x * h < best) {
            best = x * h;
            *jev = j;
        }
        if (fric_slip_slot(s, j) && fric_touch_exact(s, j, nz, &x) && x * h < best) {
            best = x * h;
            *jev = j;
        }
    }
    if (*jev < 0)
        return NSM_OK;
    exact_landing(s, t0, Y0, h, best, Ys);
    *tau = best;
    return NSM_OK;
}

/* The state at t0 + tau inside the step the last detect_exact expanded
** (a sample): the expansion's, energies by its quadrature from Y0's.  At
** the step's end (tau = h) only the energies are set: the positions and
** velocities are the grid's (step.c).  The quadrature integrates v^T C v
** and f . v on the long double expansion: the Van Loan form on the
** augmented state, a difference of large terms for a stiff contact held at
** an offset, loses the energy of a resting body to rounding. */
RT_HOT void rt_detect_sample(nsm_sim *s, double tau, const double *Y0, double *Yk)
{
    int na = s->n_aug, n = s->n_vel;
    long double Z[na];
    double x = tau / s->tay.h, Ed, Ew;
    if (tau != s->tay.h) {
        rt_taylor_state(s, x, Z);
        for (int i = 0; i < 2 * n; i++)
            Yk[i] = (double)Z[i];
    }
    rt_taylor_energy(s, x, &Ed, &Ew);
    Yk[2 * n] = Y0[2 * n] + Ed;
    Yk[2 * n + 1] = Y0[2 * n + 1] + Ew;
}

/* The earliest event inside the step (t0, Y0) -> (t0 + h, Y1) of the
** current method: *jev its gap (-1: none), *tau its offset, Ys the state
** there; on the final step of a run an event function reaching 0 at its
** end counts.  Without an event, the step's end is checked for a contact
** passed through. */
RT_HOT int rt_detect(nsm_sim *s, double t0, const double *Y0, double h, const double *Y1, int final,
              int *jev, double *tau, double *Ys)
{
    int rc;
    *jev = -1;
    *tau = h;
    if (s->set.method != NSM_METHOD_EXACT)
        return s->n_events ? detect_generic(s, t0, Y0, h, Y1, final, jev, tau, Ys) : NSM_OK;
    rc = detect_exact(s, t0, Y0, h, final, jev, tau, Ys);   /* also the samples' expansion */
    if (rc || *jev >= 0)
        return rc;
    if (s->tay.valid && s->tay.mi->op) {
        double ev[s->n_events];
        open_events(s, t0 + h, Y1, ev);
        return check_through(s, t0 + h, Y1, ev);
    }
    return check_through(s, t0 + h, Y1, NULL);
}

/* Rounding level of friction event function j (g <= j < ge) at y: a stuck
** element's on the forces of its own part of the model (rt_force_tol_of). */
double rt_fric_event_tol(const nsm_sim *s, int j, const double *y)
{
    int k = (j - s->n_gaps) / 2;
    if (!rt_fric_stuck(s, s->mode, k))
        return (j - s->n_gaps) % 2 ? 1e-10 : rt_fric_slip_tol(s, k, rt_vel(s, y));
    return rt_force_tol_of(s, s->mode, y, s->n_gaps + k) + 1e-10 * s->num.mus[k] * s->num.fn[k];
}

/* The largest speed of the model's coordinates at y, max |v_i|: a slip
** defined through a factor of the configuration (slip = M.v*M.x/1 m) has
** a row that vanishes where the slip crosses 0, so the contacts' and
** slips' own speeds there say nothing of how fast the bodies move (taylor,
** whose step started there, judged a mass at 0.95 m/s a model of 1e-16 m/s
** and stopped it). */
static double body_speed(const nsm_sim *s, const double *y)
{
    const double *v = rt_vel(s, y);
    double sc = 0;
    for (int i = 0; i < s->n_vel; i++)
        sc = fmax(sc, fabs(v[i]));
    return sc;
}

/* Friction element k found at a step's end (t1) slipping against its
** direction at u, beyond its tolerance's relative part but within the floor
** RT_VEL_FLOOR, so that its stick or reversal was not located: a decision
** the floor alone took.  In a model whose speeds stay below RT_VEL_FLOORS
** floors over the run's whole span (rt_speed_scale_of: surface and contact
** speeds, every coordinate's applied forces times the span over its mass,
** over the part of the model joined to the element by contacts, friction
** elements, springs and dampers, since a stuck element or a held contact
** passes on forces applied elsewhere; a fast body joined to none of them is
** none of its business: beside an oscillator at 1 m/s the same slip slid
** backwards, exit 0) that is a decision on rounding (a mass at rest
** pushed by 1e-13 N from t = 1 s to 2 s against a kinetic force of 3e-14 N
** never stuck and slid backwards, exit 0; where rows vary with the
** configuration the bodies' own speeds count too, body_speed): the run
** stops there, naming the
** element, as check_speed_floor (run.c) stops a model that moves so slowly
** at its start.  A slip started mid-run that meets no such decision (a
** push growing at 1e14 N/s over 1e-13 s) runs.  Judged on speeds, not
** energies, whose offset is arbitrary.  NSM_OK otherwise. */
static int floor_slip(nsm_sim *s, int k, double u, double t1, const double *Y1)
{
    double vf = RT_VEL_FLOORS * RT_VEL_FLOOR;
    double v = rt_speed_scale_of(s, s->n_gaps + k, s->t + (fmax(s->t_stop, t1) - s->t_reset));
    if (s->m->nl || s->mass)    /* rows that vary with the configuration may vanish */
        v = fmax(v, fmax(body_speed(s, s->y), body_speed(s, Y1)));
    if (!(v < vf))
        return NSM_OK;
    rt_state_set_time(s, t1);
    return rt_fail(s, NSM_ENUMERIC, s->n_gaps + k,
                   "t = %.17g s: friction element '%s' slips against its direction at %.3g m/s, "
                   "a stick or reversal that only the velocity floor of %g m/s hid, in a part of "
                   "the model whose speeds are at most %.3g m/s (surface speeds, contact "
                   "velocities, forces times the run's span over masses, over the bodies joined to "
                   "it by contacts, friction and springs; the bodies' own speeds where rows vary "
                   "with the configuration), within %g times that floor: it would be "
                   "decided on rounding; scale the units (lengths in um or nm, times in ms) so "
                   "that its speeds exceed %g m/s", t1, s->m->frictions[k].name, u, RT_VEL_FLOOR,
                   v, RT_VEL_FLOORS, vf);
}

/* After a step without an event: a slipping element found slipping the
** other way by far more than its rounding means a missed reversal. */
int rt_fric_check(nsm_sim *s, double t1, const double *Y1)
{
    for (int k = 0; k < s->n_fric; k++) {
        if (rt_fric_stuck(s, s->mode, k) || rt_fric_idle(s, s->mode, k))
            continue;
        double u = rt_fric_slip(s, k, rt_vel(s, Y1));
        if (rt_fric_sign(s, s->mode, k) * u < -100 * rt_fric_slip_tol(s, k, rt_vel(s, Y1))) {
            rt_state_set_time(s, t1);
            return rt_fail(s, NSM_ENUMERIC, s->n_gaps + 2 * k,
                           "the slip velocity changed sign without an event (%.6g m/s): the "
                           "step is too long for this friction element", u);
        }
        /* against its direction beyond the tolerance's relative part: a
         * stick or reversal only the floor hid (floor_slip) */
        double rel = rt_fric_slip_tol(s, k, rt_vel(s, Y1)) - RT_VEL_FLOOR;
        if (rt_fric_sign(s, s->mode, k) * u < -rel) {
            int rc = floor_slip(s, k, u, t1, Y1);
            if (rc)
                return rc;
        }
    }
    return NSM_OK;
}
