/*
** run.c: the run loop.
**
** Steps inside the current mode, watches every event function (and the time
** switches), lands on the earliest event and applies its transition
** (transition.c), then hands what the transition did to the Zeno and
** cascade handling (zeno.c).
*/
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "law.h"
#include "linalg.h"
#include "rt.h"



/* Impact of open impact gap j: the transition's first part (its impulse
** problem, or a landing at rest settled at once), the Zeno detection, the
** sequence of collisions, the Zeno jump or collapse, and, when neither
** ended it, the plastic rebounds and settle; in that order, each layer
** handing its result to the next.  The gaps that stuck or separated have
** their impact histories forgotten. */
static int impact(nsm_sim *s, int j)
{
    unsigned forget[s->mode_words], ref[s->mode_words], set[s->mode_words];
    int idx[s->n_gaps + 1];
    double vb[s->n_gaps + 1];
    RtImpact im = { .ref = ref, .set = set, .idx = idx, .vb = vb };
    rt_mode_none(s, forget);
    int rc = rt_impact_begin(s, j, &im, forget);
    if (!rc && !im.done) {
        rt_zeno_track(s, &im);
        if (!(rc = rt_impact_apply(s, &im)) && !(rc = rt_zeno_resolve(s, &im)) && !im.done)
            rc = rt_impact_end(s, &im, forget);
    }
    rt_zeno_forget(s, forget);
    return rc;
}

/* Apply the transition of event function j, just landed on: a gap's, or a
** friction element's (friction.c), after which the gaps settle under the
** new friction forces; after a gap's, the friction elements are decided
** again (an impact changes the slip velocities). */
static void warn(nsm_sim *s, const char *text);
static int transition_gap(nsm_sim *s, int j);
static int transition_fric(nsm_sim *s, int j);
static int transition(nsm_sim *s, int j)
{
    rt_nl_at(s, s->y);              /* a curved gap's W at the impact configuration */
    if (rt_mass_at(s, s->y))        /* and M(q) there */
        return s->failed;
    rt_surface_begin(s);            /* a moving surface's work through the impulses */
    int rc = transition_fric(s, j);
    rt_surface_end(s);
    return rc || !s->n_space_fric ? rc : rt_sf_update(s);
}

/* The transition of event function j (see transition). */
static int transition_fric(nsm_sim *s, int j)
{
    int rc;
    if (j >= s->n_gaps) {
        rc = rt_law_column(s, j)->transition(s, j, NULL);
        return rc ? rc : rt_zeno_settle(s, s->mode, NULL);
    }
    int imp = s->n_fric && rt_law_impacts(s, j) && !rt_mode_has(s->mode, j);
    double v0[imp ? s->n_vel : 1];
    if (imp)
        memcpy(v0, rt_vel(s, s->y), sizeof v0);
    rc = transition_gap(s, j);
    if (!rc && imp)
        rc = rt_fric_impact(s, j, v0);
    return rc ? rc : rt_fric_update(s);
}

/* Say once per simulator that gap j's band (rt_gap_tol: 1e-10 of the
** absolute coordinates the gap is measured from) exceeds RT_BAND_WARN m at
** a transition: its contacts are then found, held and judged at rest only
** to that length (a floor at 1e9 m lets a ball land 0.2 m deep and rest
** there), which no check of the run can see, so the user is told. */
static void band_warn(nsm_sim *s, int j)
{
    double band = rt_gap_tol(s, j, s->y);
    if (s->band_warned || !(band > RT_BAND_WARN))
        return;
    s->band_warned = 1;
    const char *name = s->m->gaps[j].name;
    char text[strlen(name) + 400];
    rt_text_printf(text, sizeof text,
                    "t = %.9g s, contact '%s': the terms of its gap add up to about %.3g m, "
                    "so its contacts are located and held only to %.3g m (1e-10 of them): a landing "
                    "may be that late or that deep; move the model's origin near its contacts",
                    s->t, name, (band - 1e-14) / 1e-10, band);
    warn(s, text);
}

/* The transition of gap j: the impact of an open impact gap (impact), or
** the others (rt_transition_gap), after which the gaps that stuck or
** separated have their impact histories forgotten. */
static int transition_gap(nsm_sim *s, int j)
{
    band_warn(s, j);
    unsigned forget[s->mode_words];
    rt_mode_none(s, forget);
    if (rt_law_impacts(s, j) && !rt_mode_has(s->mode, j))
        return impact(s, j);
    int rc = rt_transition_gap(s, j, forget);
    rt_zeno_forget(s, forget);
    return rc;
}

/* Initial mode at t = 0: penalty gaps penetrated (or touching and closing)
** are engaged, touching impact gaps at rest are closed if the force LCP says
** so (rt_initial_contacts), touching impact gaps closing get their impact
** now. */
int rt_initial_mode(nsm_sim *s)
{
    int n = s->n_vel, rc;
    const double *y = s->y, *v = rt_vel(s, s->y);
    unsigned forget[s->mode_words];
    rt_mode_none(s, forget);
    rt_surface_begin(s);            /* a moving surface's work through the impulses */
    rc = rt_initial_contacts(s, forget);
    rt_surface_end(s);
    rt_zeno_forget(s, forget);
    if (rc)
        return rc;
    /* until none is left (each impact resolves the whole sequence of
     * collisions it starts, see impact_sequence) */
    for (int again = 1, rounds = 0; again && rounds < 1000; rounds++) {
        again = 0;
        for (int j = 0; j < s->n_gaps; j++) {
            if (!rt_law_impacts(s, j) || rt_mode_has(s->mode, j))
                continue;
            if (fabs(rt_gap(s, j, y)) <= rt_gap_tol(s, j, y) && rt_wdot(s, j, v) < -rt_vel_tol(s, j, v)) {
                double v0[n];
                memcpy(v0, v, sizeof v0);
                rt_surface_begin(s);
                rc = impact(s, j);
                rt_surface_end(s);
                if (rc || (s->n_fric && (rc = rt_fric_impact(s, j, v0))))
                    return rc;
                again = 1;
            }
        }
    }
    rt_surface_begin(s);
    rc = rt_fric_initial(s);
    rt_surface_end(s);
    return rc || !s->n_space_fric ? rc : rt_sf_update(s);
}

/* After a transition at the run's end: the other impact gaps touching and
** closing at that instant have their impacts too, as the next step would
** give them (rt_initial_mode's test).  Two balls landing together at
** t_end had one impact logged and the other ball left falling at the
** floor in the last sample. */
static int end_ties(nsm_sim *s)
{
    for (int rounds = 0; rounds < s->n_gaps; rounds++) {
        const double *y = s->y, *v = rt_vel(s, s->y);
        int j = 0;
        while (j < s->n_gaps && !(rt_law_impacts(s, j) && !rt_mode_has(s->mode, j) &&
                                  fabs(rt_gap(s, j, y)) <= rt_gap_tol(s, j, y) &&
                                  rt_wdot(s, j, v) < -rt_vel_tol(s, j, v)))
            j++;
        if (j == s->n_gaps)
            return NSM_OK;
        int rc = s->sec ? rt_section_step(s, s->t, s->y, j) : NSM_OK;
        if (rc || (rc = transition(s, j)))
            return rc;
        rt_state_transition_mark(s, j);
    }
    return NSM_OK;
}

/* Switch k has the same sign at both ends of [a, *b] (value fa and slope
** da at a, slope db at *b) but turns back inside: whether it crosses 0 on
** the way (a pulse shorter than the step).  The turning point is bisected
** on the slope; at the first midpoint past 0, *b and *fb become that point,
** so that [a, *b] brackets the first crossing.  A function turning
** more than once is cut at its turns first (switch_first). */
static int switch_pulse(nsm_sim *s, int k, double a, double fa, double da, double db, double *b,
                        double *fb)
{
    double sg = fa > 0 ? 1 : -1, lo = a, hi = *b, f, d;
    if (!(sg * da < 0 && sg * db > 0))
        return 0;
    for (int it = 0; it < 100 && hi - lo > 1e-15 * (1 + fabs(hi)); it++) {
        double m = 0.5 * (lo + hi);
        s->m->switch_fn(k, m, s->params, s->consts, &f, &d);
        if (f == 0 || (f > 0) != (fa > 0)) {
            *b = m;
            *fb = f;
            return 1;
        }
        if (sg * d < 0)
            lo = m;
        else
            hi = m;
    }
    return 0;
}

/* The turning points of the cubic through values fa, fb and slopes da, db
** at the ends of [a, a + L] (rt_switch_followed's), strictly inside it,
** into c in increasing order: their number (0 to 2). */
static int switch_turns(double a, double L, double fa, double da, double fb, double db, double *c)
{
    double r = (fa - fb) / L, A = 6 * r + 3 * da + 3 * db, B = -6 * r - 4 * da - 2 * db, C = da;
    double u[2];
    int n = 0;
    if (fabs(A) <= 1e-14 * (fabs(B) + fabs(C))) {
        if (B != 0)
            u[n++] = -C / B;
    } else {
        double disc = B * B - 4 * A * C;
        if (disc >= 0) {
            double q = -0.5 * (B + (B >= 0 ? sqrt(disc) : -sqrt(disc)));
            u[n++] = q / A;
            if (q != 0)
                u[n++] = C / q;
        }
    }
    int m = 0;
    for (int i = 0; i < n; i++)
        if (u[i] > 0 && u[i] < 1)
            c[m++] = a + u[i] * L;
    if (m == 2 && c[1] < c[0]) {
        double t = c[0];
        c[0] = c[1];
        c[1] = t;
    }
    return m;
}

/* Switch k over [*a, *b] (values *fa, *fb, slopes da, db, *fb not 0):
** whether it crosses 0 there, and if so [*a, *b] narrowed to bracket its
** first crossing (a sign change from *a to *b, or *fb = 0 at *b).  The
** step is cut at the turning points of the cubic through its ends
** (rt_switch_followed holds it within 1e-2 of that cubic), each piece
** then monotone or turning once (switch_pulse), taken in order.  With
** only the ends looked at, a function turning twice in a step (t +
** 0.0264 sin(38.7 t) near 0.892: up, down, up) had its first two crossings
** missed, or the last of three taken first (exit 0). */
static int switch_first(nsm_sim *s, int k, double *a, double *fa, double da, double *b,
                        double *fb, double db)
{
    double p[4], c[2];
    int n = switch_turns(*a, *b - *a, *fa, da, *fb, db, c);
    p[0] = *a;
    for (int i = 0; i < n; i++)
        p[1 + i] = c[i];
    p[n + 1] = *b;
    double lo = *a, flo = *fa, dlo = da;
    for (int i = 1; i <= n + 1; i++) {
        double hi = p[i], fhi = *fb, dhi = db;
        if (i <= n)
            s->m->switch_fn(k, hi, s->params, s->consts, &fhi, &dhi);
        if (fhi == 0 || (fhi > 0) != (flo > 0) ||
            switch_pulse(s, k, lo, flo, dlo, dhi, &hi, &fhi)) {
            *a = lo, *fa = flo, *b = hi, *fb = fhi;
            return 1;
        }
        lo = hi, flo = fhi, dlo = dhi;
    }
    return 0;
}

/* Switch k's function, for rt_bracket (which orients it). */
typedef struct {
    nsm_sim *s;
    int k;
} SwitchFn;

/* Switch function at time x (rt_bracket's callback). */
static int switch_value(void *ud, double x, double *f, double *fd)
{
    SwitchFn *c = ud;
    c->s->m->switch_fn(c->k, x, c->s->params, c->s->consts, f, fd);
    return 0;
}

/* Switch k crosses 0 inside [a, b] (values fa and fb of opposite signs):
** the crossing to the last bit, by the shared bracket (locate.c), in *ts:
** the first double past it.  1 if the bracket fails. */
static int switch_land(nsm_sim *s, int k, double a, double fa, double b, double fb, double *ts)
{
    SwitchFn c = { s, k };
    RtBracket br = { .lo = a, .hi = b, .flo = fa, .fhi = fb, .tight = 1,
                     .orient = 1 };
    double x = br.flo - br.fhi != 0 ? b - br.fhi * (b - a) / (br.fhi - br.flo) : 0.5 * (a + b);
    int at;
    return rt_bracket(&br, switch_value, &c, x, ts, &at) != NSM_OK;
}

/* A step of size h that failed: a failure a lower layer recorded with its
** cause is kept; otherwise the method, the step and the status are named
** (for NSM_ENUMERIC, that the mode's equations had no solution at one of
** the step's stages: "integration step failed" named nothing). */
RT_COLD static int step_failed(nsm_sim *s, int rc, double h)
{
    if (rc == NSM_ENUMERIC && s->failed)
        return rc;
    if (rc == NSM_ENUMERIC)
        return rt_fail(s, rc, -1, "%s's step of %.6g s could not be taken: the mode's equations "
                       "have no solution at one of its stages (a mass matrix, or the system "
                       "of the held contacts and stuck elements, singular there)",
                       nsm_method_name(s->set.method), h);
    return rt_fail(s, rc, -1, "%s's step of %.6g s could not be taken (%s)",
                   nsm_method_name(s->set.method), h, nsm_status_name(rc));
}

/* Switch k over a step [t0, t1] that its ends follow, longer than the
** sample interval: read on a grid of at most that interval, the end of the
** part of the step that holds no more than the one turn the ends show.  A
** grid part its own ends do not follow, or a second change of sign on the
** grid, ends the step at the start of that part (or at its end, for the
** first part): a bump flat at the step's ends and golden sections
** (`exp(-((t - c)/s)^2) > 0.5`, 17 ms in a free mass's step of 1 s under
** exact) was never applied, exit 0.  A step with nothing of that is kept
** whole (its landings unchanged). */
static double switch_scan(nsm_sim *s, int k, double t0, double t1)
{
    double L = t1 - t0, n = ceil(L / s->set.every), f0, d0, f, d, a = t0, fa;
    if (!(s->set.every > 0) || !(n > 1) || n > 1e7)
        return t1;
    s->m->switch_fn(k, t0, s->params, s->consts, &f0, &d0);
    fa = f0;
    int changes = 0;
    for (double i = 1; i <= n; i++) {
        double b = i < n ? t0 + L * (i / n) : t1;
        s->m->switch_fn(k, b, s->params, s->consts, &f, &d);
        changes += (f > 0) != (fa > 0);
        if (changes > 1 || !rt_switch_followed(s, k, a, b))
            return a > t0 ? a : b;
        a = b;
        fa = f;
    }
    return t1;
}

/* Whether switch k has one strict sign at t0, t1 and the follow test's
** inner points: over a step where it is rounding at every length, it
** shows no turn there. */
static int switch_one_sign(const nsm_sim *s, int k, double t0, double t1)
{
    static const double at[] = { 0, 1, 0.3819660112501051, 0.6180339887498949,
                                 0.1111111111111111 };
    int pos = 0, neg = 0;
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
        double f, d;
        s->m->switch_fn(k, t0 + at[i] * (t1 - t0), s->params, s->consts, &f, &d);
        pos += f > 0;
        neg += f < 0;
    }
    return pos == 5 || neg == 5;
}

/* Switch k followed by its ends at no length of the step from t0 down to
** switch_reach's floor (least), and with no one sign on it: its values are its
** rounding, and so is its sign.  (t + 1 s)^2 - t^2 - 2 s t >= 1 s^2, an
** identity, made every method's steps shrink to 1e-27 s near t = 0 until
** the step cap of 1e8 steps, a quarter of an hour later; the run stops
** now, naming the switch and why.  A zero flatter than a cubic's is
** refused here too: (t - T)^5 >= 0, which no cubic follows over a step
** across T, had steps approach T geometrically down to this floor, and
** the message named rounding alone ((t - T)^7 >= 0 and, by rk4 and
** adaptive, (t - T)^4 > 0 likewise). */
RT_COLD static int switch_noise(nsm_sim *s, int k, double t0, double least)
{
    double f, d;
    s->m->switch_fn(k, t0, s->params, s->consts, &f, &d);
    return rt_fail(s, NSM_ENUMERIC, -1, "time switch sw%d (nsmc --emit=equations lists the "
                   "model's comparisons of t) follows no curve over steps down to %.3g s at t = "
                   "%.17g s (its function is %.3g there): its values are rounding, and so is its "
                   "sign (a comparison that holds or fails identically, as (t + 1 s)^2 - t^2 - "
                   "2 s t >= 1 s^2?), or it meets 0 flatter than a cubic (as (t - T)^5 >= 0, "
                   "which steps approach without reaching its zero); write the condition without "
                   "the terms that cancel, or as the crossing it means (t >= T)", k, least, t0, f);
}

/* The end of a step from t0 towards t1 over which every time switch is
** followed by its ends (rt_switch_followed, state.c), halving the step until it is: a
** condition oscillating within one step, as `sin(w*t) > 0.5` within the
** exact method's steps of a free mass (a whole run's length), turned many
** times there and next_switch, which sees one turn, missed every switch
** (the push never applied, exit 0).  A step longer than the sample
** interval is then read on a grid of that interval (switch_scan), so a
** pulse longer than it is found by every method.  The halving stops at
** 1e-9 of the mode's step or the sample interval, the shorter (of the
** step asked for when the mode's step is unbounded; at the time's
** resolution, 64 ulps of t, at the least), or
** after 80 halvings: a switch followed at no length down to there is
** rounding at every length the step can have, and the step is taken
** whole when the switch keeps one sign on it, else refused
** (switch_noise).  With terms that cancel to their rounding, (t + 1 s)^2
** - t^2 - 2 s t - 1 s^2 + 1e-3 s (t - T) >= 0 (its real zero at T), a
** sample one ulp after t = 1.001 s was halved to a step of 0 for ever
** (rk4), and adaptive's steps, cut wherever the values' rounding
** outweighed their slope (below 1e-10 s), never grew past 1e-13 s: both
** hung there (a floor at the time's resolution alone left adaptive's
** steps wandering below 1e-10 s). */
RT_APART static int switch_reach(nsm_sim *s, double t0, double *t1)
{
    if (!s->m->switch_fn)
        return NSM_OK;
    double span = s->set.every > 0 ? fmin(s->h_step, s->set.every) : s->h_step;
    for (int k = 0; k < s->n_switches; k++) {
        if (rt_switch_affine(s, k))
            continue;
        double L0 = *t1 - t0;
        double scale = isfinite(span) && span > 0 ? span : L0;
        double shortest = fmax(1e-9 * scale, 64 * DBL_EPSILON * fmax(fabs(t0), fabs(*t1)));
        int it = 0, followed;
        while (!(followed = rt_switch_followed(s, k, t0, *t1)) && it < 80 &&
               0.5 * (*t1 - t0) >= shortest) {
            *t1 = t0 + 0.5 * (*t1 - t0);
            it++;
        }
        if (!followed) {
            double least = *t1 - t0;
            *t1 = t0 + L0;      /* followed at no length: its values are rounding */
            if (!switch_one_sign(s, k, t0, *t1))
                return switch_noise(s, k, t0, least);
        }
        *t1 = switch_scan(s, k, t0, *t1);
    }
    return NSM_OK;
}

/* Switch k is 0 at *a (an event, or its own crossing, landed there; value
** fb and slope db at b): *a moves to the first point past it where the
** function leaves 0 (doubling offsets from the time's rounding; b when it
** stays 0 up to b), with its value and slope.  1 when the condition there
** already differs from the switch's state: it fires at the step's start.
** The condition was read at b: a crossing back inside the step (t +
** 8.9e-5 sin(18717 t) dipping 7e-11 below its level for 1.5e-7 s) made
** the switch fire twice at the first crossing and miss the second. */
static int switch_off_zero(nsm_sim *s, int k, double *a, double *fa, double *da, double b,
                           double fb, double db)
{
    double x = b, fx = fb, dx = db;
    for (double del = 1e-15 * (1 + fabs(*a)); *a + del < b; del *= 2) {
        s->m->switch_fn(k, *a + del, s->params, s->consts, &fx, &dx);
        if (fx != 0) {
            x = *a + del;
            break;
        }
        x = b, fx = fb, dx = db;
    }
    *a = x, *fa = fx, *da = dx;
    return fx != 0 && s->m->switch_state &&
           (s->m->switch_state(k, x, s->params, s->consts) != 0) != (s->sw[k] != 0);
}

/* Whether switch k, turned at t0 where its function is 0, has its
** condition just after other than the one now in force: its function
** touched 0 there without crossing (`(t - c)^2 > 0` at t = c).  It turns
** back at once; else a landing on the tangent zero at a step's end (rk4's
** grid on c = 0.5 s) turned the push off for the rest of the run, exit 0.
** The condition is read past t0 (at t0 itself after a Zeno point, a step
** of 1e-18 s, `t > T` landed on T was still off) at two points, at a (a
** fixed part of the step) and where the function first leaves 0
** (switch_off_zero), and both must differ: near a crossing whose slope is
** small either can fall within the function's rounding (t + 8.9e-5
** sin(18717 t) > 0.8595 by adaptive, read at a, and t + 0.0264 sin(38.7
** t) > 0.8921 by exact, read where it leaves 0, each turned back a true
** crossing). */
static int switch_turned_back(nsm_sim *s, int k, double t0, double a, double t1)
{
    double f, d, fb, db, x = t0;
    if (!s->m->switch_state)
        return 0;
    s->m->switch_fn(k, t0, s->params, s->consts, &f, &d);
    a = fmax(a, nextafter(t0, INFINITY));
    if (f != 0 || (s->m->switch_state(k, a, s->params, s->consts) != 0) == (s->sw[k] != 0))
        return 0;
    s->m->switch_fn(k, t1, s->params, s->consts, &fb, &db);
    return switch_off_zero(s, k, &x, &f, &d, t1, fb, db);
}

/* Earliest time-switch crossing in (t0, t1], or at t0 itself when an event
** landed exactly on the switch: index, or -1; time in *ts.
** Switch functions depend on time only, so the root is found by bracketing
** (Illinois) to the last bit, and the step is cut to land on it. */
RT_APART static int next_switch(nsm_sim *s, double t0, double t1, double *ts)
{
    int best = -1;
    *ts = t1;
    if (!s->m->switch_fn)
        return -1;
    for (int k = 0; k < s->n_switches; k++) {
        double a = t0, b = t1, fa, fb, da, db;
        if (fabs(t0 - s->sw_last[k]) <= 1e-12 * (1 + fabs(t0))) {
            /* it switched at t0: its next crossing is sought from just
             * after, where the function has left 0 */
            a = t0 + 1e-9 * (t1 - t0);
            if (!(a < t1))
                continue;
            if (switch_turned_back(s, k, t0, a, t1)) {
                *ts = t0;
                best = k;
                continue;
            }
        }
        s->m->switch_fn(k, a, s->params, s->consts, &fa, &da);
        s->m->switch_fn(k, b, s->params, s->consts, &fb, &db);
        if (fa == 0) {
            /* zero at t0 itself (an event landed on the switch): it fires
             * now if its condition already differs just after t0 */
            int now = switch_off_zero(s, k, &a, &fa, &da, b, fb, db);
            if (now) {
                *ts = t0;
                best = k;
            }
            if (now || fa == 0 || a >= b)
                continue;
        }
        if (fb != 0 && !switch_first(s, k, &a, &fa, da, &b, &fb, db))
            continue;
        if (fb != 0 && switch_land(s, k, a, fa, b, fb, &b))
            continue;
        if (b < *ts || best < 0) {
            if (b <= *ts) {
                *ts = b;
                best = k;
            }
        }
    }
    return best;
}

/* t + h with the rounding carried in *lo (Knuth's two-sum): a million
** steps of 1e-3 s summed naively end up to 1e-8 s off. */
static double time_add(double t, double h, double *lo)
{
    double y = h + *lo, sum = t + y, bp = sum - t;
    *lo = (t - (sum - bp)) + (y - bp);
    return sum;
}

/* Whether a step of h from t (its carry lo, time_add) reaches target, or,
** when target is the run's end t_end, ends within a few roundings of it:
** such a step lands on target.  A step that ended one ulp short of t_end
** left a step of one ulp for the next, a row of its own under --every 0 (a
** Lyapunov interval's end, fl(t + T), is not always the compensated sum of
** the steps that reach it: 0.63 and 0.6300000000000001 s).  A sample's
** time is left as it was: the sample is taken on it either way. */
static int step_reaches(double t, double h, double lo, double target, double t_end)
{
    if (t + h >= target)
        return 1;
    double end = time_add(t, h, &lo);
    return target == t_end && target - end <= 4 * DBL_EPSILON * fabs(target);
}

/* Whether a slipping element's slip is at 0 on a time switch's instant
** within the rounding of the speeds at the step's start Y0 (the relative
** part of its tolerance there): its event function ended the step at 0
** without a crossing.  A slow slip below the velocity floor but far above
** that rounding is not at 0 (it is judged by the floor, rt_fric_check). */
static int switch_slip_zero(nsm_sim *s, const double *Y0)
{
    for (int k = 0; k < s->n_fric; k++) {
        if (rt_fric_stuck(s, s->mode, k) || rt_fric_idle(s, s->mode, k))
            continue;
        double rel = rt_fric_slip_tol(s, k, rt_vel(s, Y0)) - RT_VEL_FLOOR;
        if (fabs(rt_fric_slip(s, k, rt_vel(s, s->y))) <= rel)
            return 1;
    }
    return 0;
}

/* Whether some friction element is stuck (its gap closed): a switched
** force may take its hold past mu_s N by less than the cone's event
** tolerance (1e-10 of mu_s N), which the event functions never see cross:
** a block at rest pushed from t = 0.5 s at (1 + 1e-10) mu_s N stayed stuck,
** exit 0.  The switch then decides it again (fric_settle's cone). */
static int switch_any_stuck(const nsm_sim *s)
{
    for (int k = 0; k < s->n_fric; k++)
        if (rt_fric_stuck(s, s->mode, k) && !rt_fric_idle(s, s->mode, k))
            return 1;
    return 0;
}

/* Time switch k, landed on at the end of the step from Y0: flip it, log it
** and settle the contacts under the new forcing, and the friction elements
** when one is stuck (switch_any_stuck) or a slip reached 0 on the switch's
** instant (switch_slip_zero; it
** sticks when its force stays within mu_s N): the new forcing may turn the
** slip back up from 0, so a block coming to rest as a push below its hold
** began kept sliding under the push (exact and adaptive). */
RT_COLD static int toggle_switch(nsm_sim *s, int k, const double *Y0)
{
    rt_state_switch_set(s, k, !s->sw[k], s->t);
    int rc = rt_log_event(s, NSM_EV_TIME, k, 0, 0, 0, 0, 1);
    if (rc || (rc = rt_zeno_settle(s, s->mode, NULL)))
        return rc;
    return s->n_fric && (switch_slip_zero(s, Y0) || switch_any_stuck(s)) ? rt_fric_update(s)
                                                                           : NSM_OK;
}

/* Emit a sample to the sample handler. */
RT_HOT static int sample(nsm_sim *s)
{
    s->t_sampled = s->t;
    s->nev_sampled = s->nevents;
    if (s->set.on_sample && s->set.on_sample(s->set.sa_ud, s, s->t))
        return rt_fail(s, NSM_ESTOPPED, -1, "stopped by the sample handler");
    return NSM_OK;
}

/* Hand the state at the run's end to the sample handler when the last
** sample was not taken there (nsm/nsm.h): a sampling period that does not
** divide t_end left the end out (every 0.3 s over 1 s ended the trajectory
** at 0.9 s), where the final state is what most readers read.  The grid's
** samples are those the run took; this one is its last row, at t_end.
** A grid sample taken within a few roundings of the end, with no event
** between, is that row already: a Lyapunov run (`--every 0.1
** --lyapunov-interval 0.1`), whose steps restart at each interval, took its
** tenth sample at 0.9999999999999999 s and the end added a second row at
** 1 s.  An impact in that last ulp keeps the row after it. */
int nsm_sim_sample_end(nsm_sim *s)
{
    if (s->failed)
        return s->failed;
    if (!s->set.on_sample || !(s->set.every > 0) || !s->sample_k || !(s->t > s->t_sampled))
        return NSM_OK;
    if (s->t - s->t_sampled <= 4 * DBL_EPSILON * fabs(s->t) && s->nevents == s->nev_sampled)
        return NSM_OK;
    return sample(s);
}

/* The exact method does not cut its steps at the sample times: a landing
** off the grid of steps would restart the grid there (see step.c), and the
** rounding of each restart adds up over the samples.  Instead the samples
** inside the step (t0, t1) are states of the step's Taylor expansion
** (events.c), shown to the sample handler and then put back; one within
** 1e-9 every of t1 is taken at the step's end, as a landing would. */
RT_APART static int side_samples(nsm_sim *s, double t0, double t1)
{
    int N = s->n_state, rc = NSM_OK;
    double Y0[N], Yk[N], tk;
    if (!s->set.on_sample && s->sample_k * s->set.every > t0) {
        /* nobody looks: no state to compute, and the count moves to just
         * short of the step's last sample at once (the loop ends it) */
        double k = floor((t1 - 1e-9 * s->set.every) / s->set.every) - 1;
        if (k > (double)s->sample_k)
            s->sample_k = (long)k;
    }
    memcpy(Y0, s->y, sizeof Y0);
    while ((tk = s->sample_k * s->set.every) < t1 - 1e-9 * s->set.every && tk > t0) {
        if (!s->set.on_sample) {
            s->sample_k++;
            continue;
        }
        if (s->set.method == NSM_METHOD_TAYLOR)
            rc = rt_advance(s, t0, Y0, tk - t0, Yk);    /* the step's expansion */
        else
            rt_detect_sample(s, tk - t0, Y0, Yk);
        if (rc)
            return rc;
        rt_state_set(s, tk, Yk);
        s->sample_k++;
        rc = sample(s);
        rt_state_set(s, t0, Y0);
        if (rc)
            return rc;
    }
    return NSM_OK;
}

/* Say text through the warning handler. */
static void warn(nsm_sim *s, const char *text)
{
    if (s->set.on_warn)
        s->set.on_warn(s->set.warn_ud, s, text);
}

/* The depth p where k p^(a+1)/(a+1) = E + F p (E >= 0, F > 0): Newton's
** steps from above, from the larger of the depths 2 E and 2 F p reach (the
** root's upper bound: one of E, F p is the larger there), on a convex
** function, so that each iterate stays an upper bound. */
static double reach_depth(double k, double a, double E, double F)
{
    double p = fmax(pow(2 * (a + 1) * E / k, 1 / (a + 1)), pow(2 * (a + 1) * F / k, 1 / a));
    for (int i = 0; i < 6 && p > 0; i++) {
        double g = k * pow(p, a + 1) / (a + 1) - F * p - E, gd = k * pow(p, a) - F;
        if (!(g > 0 && gd > 0))
            break;
        p -= g / gd;
    }
    return p;
}

/* The fastest rate of engaged force element j (a penalty contact k p^a +
** c p') over the rest of its contact: its stiffness k a p^(a-1) taken at
** the deepest penetration its motion can reach, so that a soft contact
** entered at p = 0, whose stiffness starts at 0, is judged by the
** stiffness it will meet; plus its damper's rate c D (D = w M^-1 w^T, the
** contact's inverse mass).  The deepest penetration: where k p^(a+1)/(a+1)
** equals the energy E = k p0^(a+1)/(a+1) + p'^2/(2 D) of its relative
** motion plus the work F p of the other forces along its row (F = A/D, A
** their acceleration bound there, rt_gap_accel_scale; reach_depth).
** Without the work a ball released at rest touching a Hertz floor (E = 0)
** was stepped 1 ms through its 1.5 ms bounce under gravity. */
static double engaged_rate(const nsm_sim *s, int j)
{
    const rt_law *law = rt_law_of(s, j);
    double a = 1, k = law->onset ? law->onset(s, j, &a) : law->stiffness ? law->stiffness(s, j) : 0;
    double D = rt_delassus_entry(s, j, j), c = rt_law_closed_damping(s, j);
    double p = fmax(-rt_gap(s, j, s->y), 0), pd = rt_wdot(s, j, rt_vel(s, s->y));
    if (!(k > 0 && D > 0))
        return D > 0 ? c * D : 0;
    double E = k * pow(p, a + 1) / (a + 1) + 0.5 * pd * pd / D, F = rt_gap_accel_scale(s, j) / D;
    double pmax = pow((a + 1) * E / k, 1 / (a + 1));
    if (F > 0 && isfinite(F))
        pmax = reach_depth(k, a, E, F);
    double K = law->force_rate(s, j, fmax(pmax, p), 1, 0);
    return sqrt(fmax(K, 0) * D) + c * D;
}

/* rk4's own step on a nonlinear model (no dt): 1 ms, and RT_RK4_OWN over
** the fastest engaged contact's rate (engaged_rate), as a linear mode's
** own step is over its spectrum: a Hertz contact of 3.9 ms at 1e-6 m/s
** was crossed in four steps of 1 ms, its parting speed 1.25 % low. */
static double nl_rk4_own(const nsm_sim *s)
{
    double rho = 0;
    if (s->m->nl & (NSM_NL_GAP | NSM_NL_SLIP))
        rt_nl_at(s, s->y);
    for (int j = 0; j < s->n_gaps; j++)
        if (rt_law_engaged(s, s->mode, j))
            rho = fmax(rho, engaged_rate(s, j));
    return rho > 0 ? fmin(RT_NL_RK4_STEP, RT_RK4_OWN / rho) : RT_NL_RK4_STEP;
}

/* The step of a nonlinear model, whose modes have no fixed spectrum: rk4,
** the user's dt (without one, its own: nl_rk4_own); adaptive, its error
** control up to the user's dt; taylor, the expansion's reach (the user's
** dt is the output period's business, not the step's). */
RT_APART static double step_size_nl(nsm_sim *s)
{
    double dt = s->set.dt;
    switch (s->set.method) {
    case NSM_METHOD_RK4:
        return s->h_step = dt > 0 ? dt : nl_rk4_own(s);
    case NSM_METHOD_ADAPTIVE:
        s->h_step = dt > 0 ? dt : INFINITY;
        return s->h_adapt > 0 && s->h_adapt < s->h_step ? s->h_adapt : s->h_step;
    default:
        return s->h_step = INFINITY;
    }
}

/* The step of the current mode (mode info mi): exact, its reach 2/nu
** (mode.c), at most the user's dt; rk4, the user's dt while it resolves
** the mode's fastest motion (rho dt < RT_RK4_REACH), else, and without a
** dt, its own step RT_RK4_OWN/rho (at most 1 ms); adaptive, its trial step
** up to the user's dt and up to RT_DP5_OWN/rho.  rk4 and adaptive never
** step past 0.9 times the mode's stability bound either: *cut says the
** step was cut to it.  No side effect, so a run's check can ask it too. */
RT_HOT static double mode_step(const nsm_sim *s, const RtModeInfo *mi, int *cut)
{
    double own = mi->rho > 0 ? RT_RK4_OWN / mi->rho : INFINITY;
    double h, bound = s->set.method == NSM_METHOD_RK4 ? mi->h_rk4
                    : s->set.method == NSM_METHOD_ADAPTIVE ? mi->h_dp5 : INFINITY;
    if (s->set.method == NSM_METHOD_EXACT) {
        h = isfinite(mi->h_exact) ? mi->h_exact : 1.0;
        if (s->set.dt > 0 && s->set.dt < h)
            h = s->set.dt;
    } else if (s->set.method == NSM_METHOD_RK4) {
        h = s->set.dt > 0 ? s->set.dt : fmin(RT_RK4_LONGEST, own);
        if (s->set.dt > 0 && mi->rho * s->set.dt >= RT_RK4_REACH)
            bound = fmin(bound, own / 0.9);
    } else {
        /* the error control weighs positions by their size, not by a
         * contact's penetration: a stiff contact's motion is followed at
         * RT_DP5_OWN/rho at most, whatever the control would allow */
        h = s->set.dt > 0 ? s->set.dt : INFINITY;
        if (mi->rho > 0 && h > RT_DP5_OWN / mi->rho && RT_DP5_OWN / mi->rho < 0.9 * bound)
            h = RT_DP5_OWN / mi->rho;
    }
    *cut = h > 0.9 * bound;
    return *cut ? 0.9 * bound : h;
}

/* A user's dt cut to h in the mode mi (its stability bound): said once
** per mode (step_size). */
RT_COLD static void cut_warn(nsm_sim *s, RtModeInfo *mi, double h)
{
    if (s->set.dt > 0) {
        char text[600], mode[200];
        rt_mode_text(s, s->mode, mode, sizeof mode);
        rt_text_printf(text, sizeof text,
                        "t = %.9g s, mode %s: fastest eigenvalue %.6g %s %.6gi 1/s (|lambda| up to "
                        "%.6g 1/s); %s is stable for steps up to %.6g s; the step %.6g s is cut to "
                        "%.6g s in this mode",
                        s->t, mode, mi->lam_re, mi->lam_im < 0 ? "-" : "+", fabs(mi->lam_im),
                        mi->rho, nsm_method_name(s->set.method),
                        s->set.method == NSM_METHOD_RK4 ? mi->h_rk4 : mi->h_dp5, s->set.dt, h);
        warn(s, text);
    }
    mi->warned = 1;
}

/* The step of the current mode (mode_step); a user's dt cut in a mode is
** said once per mode.  Leaves the mode's step in h_step; returns the step
** to try, or -1 when the mode could not be formed. */
static double step_size(nsm_sim *s)
{
    if (s->m->nl)
        return step_size_nl(s);
    RtModeInfo *mi = (RtModeInfo *)rt_mode_info(s);
    if (!mi)
        return -1;
    int cut;
    double h = mode_step(s, mi, &cut);
    if (cut && !mi->warned)
        cut_warn(s, mi, h);
    s->h_step = h;
    if (s->set.method == NSM_METHOD_ADAPTIVE)
        return s->h_adapt > 0 && s->h_adapt < h ? s->h_adapt : h;
    return h;
}

/* The initial mode's own step (no user dt: the mode bounds it) that
** cannot carry t to t_end: refused before the first step as an option
** error naming the end time (forced_impact_oscillator --t-end 1e300, whose
** model gives no dt, failed at its first step with exit 3 where a model
** with a dt is refused with exit 1), as check_user_dt refuses a dt. */
static int check_mode_reach(nsm_sim *s, double t_end)
{
    if (s->set.dt > 0)
        return NSM_OK;
    double h;
    if (s->m->nl) {
        /* rk4's fixed step (step_size_nl) is known before the run; adaptive's
         * error control and taylor's reach come from the motion itself, so
         * those meet such a t_end at their first step (docs/status.md) */
        if (s->set.method != NSM_METHOD_RK4)
            return NSM_OK;
        h = RT_NL_RK4_STEP;
    } else {
        const RtModeInfo *mi = rt_mode_info(s);
        if (!mi)
            return NSM_OK;      /* the run says why */
        int cut;
        h = mode_step(s, mi, &cut);
    }
    if (!(h > 0 && h < rt_t_resolution(s, t_end)))
        return NSM_OK;
    if (rt_time_beyond_as(s, h, t_end, nsm_method_name(s->set.method), NSM_EINVAL))
        return s->failed;
    return NSM_OK;
}

/* The user's dt below the time resolution (rt_t_resolution): refused before
** the first step, naming the cause: the end time when the step would move
** t at t = 1 s (--t-end 1e300 with the model's dt of 0.1 ms was told to
** "give a larger --dt"), else the step. */
static int check_user_dt(nsm_sim *s, double t_end)
{
    double res = rt_t_resolution(s, t_end);
    if (!(s->set.dt > 0 && s->set.dt < res))
        return NSM_OK;
    if (rt_time_beyond_as(s, s->set.dt, t_end, nsm_method_name(s->set.method), NSM_EINVAL))
        return s->failed;
    return rt_fail(s, NSM_EINVAL, -1,
                   "the step dt = %.6g s is below the time resolution of t up to t_end = %.9g s "
                   "(%d ulps, %.3g s): the run could not advance; give a larger --dt (or none: "
                   "each mode then bounds its own steps)", s->set.dt, t_end, RT_T_RES, res);
}

/* rk4 without a dt steps at most RT_RK4_LONGEST in every mode: a step cap
** that cannot reach t_end so is refused up front, as a user's dt is
** (nsm_run_check), where the run spun through the whole cap (1e8 steps, a
** minute) and then failed (--dt 0 --t-end 1.6e7). */
static int check_rk4_cap(nsm_sim *s, double t_end)
{
    double need = (t_end - s->t) / RT_RK4_LONGEST;
    if (s->set.method != NSM_METHOD_RK4 || s->set.dt > 0 || s->set.max_steps <= 0 ||
        !(need > (double)s->set.max_steps))
        return NSM_OK;
    return rt_fail(s, NSM_EINVAL, -1, "rk4 without a dt takes steps of at most %g s: at least "
                   "%.3g steps to reach t = %g s, more than the step cap of %ld; give a --dt, "
                   "another method or a larger --max-steps", RT_RK4_LONGEST, need, t_end,
                   s->set.max_steps);
}

/* Whether a friction element slips at the start: a model at
** rest whose forces start a slip moves from there on speeds its forces
** give, its turning points decided on them (a block at rest pulled by a
** spring of 1e-13 N slid through its turning point at 7e-14 m/s where it
** had to stick, exit 0). */
static int fric_slips(const nsm_sim *s)
{
    for (int k = 0; k < s->n_fric; k++)
        if (!rt_fric_stuck(s, s->mode, k) && !rt_fric_idle(s, s->mode, k))
            return 1;
    return 0;
}

/* A model with contacts or friction that moves (a contact's relative
** velocity or a surface's or belt's speed not 0, or a slip its forces
** start: fric_slips) with speeds, and the
** speeds its forces can give over the run (forces times duration over
** masses), all within RT_VEL_FLOORS of the velocity floors' absolute part
** RT_VEL_FLOOR: its stick, rest and impact decisions would be taken on
** speeds the floor alone calls zero (a mass on a belt at 4e-13 m/s stuck
** at t = 0 and never moved; one drifting onto a wall at 1e-15 m/s passed
** through it), so the run stops at its start (a numerical failure, not an
** option's), naming the floor and the speed.  Only a run's first start (a
** run continued from a state come to rest is not judged on that state),
** its speeds those the reset saw before a touching contact's impact (a
** ball squeezed between two walls at 1 m/s is left at rest by it).  A
** model at rest runs, whatever its forces: a ball lifted off its floor
** within 1e-13 s is decided by its contact force, not by a speed.  Each
** moving contact and friction element faces the floor on its own too
** (rt_speed_slowest), unless an impact at the start changed the speeds
** (a block's corner landing leaves both at rounding, 1e-17 m/s). */
static int check_speed_floor(nsm_sim *s, double t_end)
{
    if (s->sample_k || !(s->n_gaps || s->n_fric))
        return NSM_OK;
    double moving = fmax(s->speed0, rt_speed_scale(s, s->t));
    double v = fmax(moving, rt_speed_scale(s, t_end));
    if ((moving > 0 || fric_slips(s)) && v < RT_VEL_FLOORS * RT_VEL_FLOOR)
        return rt_fail(s, NSM_ENUMERIC, -1,
                       "the model's speeds are at most %.3g m/s (surface speeds, contact "
                       "velocities, forces times the run's duration over masses), within %g "
                       "times the velocity floor of %g m/s below which a slip or a closing speed "
                       "counts as zero (stick, rest, no impact): its contacts would be decided on "
                       "rounding; scale the units (lengths in um or nm, times in ms) so that its "
                       "speeds exceed %g m/s", v, RT_VEL_FLOORS, RT_VEL_FLOOR,
                       RT_VEL_FLOORS * RT_VEL_FLOOR);
    int w;
    if (rt_speed_scale(s, s->t) != s->speed0)
        return NSM_OK;  /* an impact at the start: its contacts' speeds are its rounding */
    v = rt_speed_slowest(s, t_end, &w);
    if (!(v < RT_VEL_FLOORS * RT_VEL_FLOOR))
        return NSM_OK;
    return rt_fail(s, NSM_ENUMERIC, -1,
                   "%s '%s' moves with speeds of at most %.3g m/s (its own speed, its surface's, "
                   "the forces on its bodies times the run's duration over their masses), within "
                   "%g times the velocity floor of %g m/s below which a slip or a closing speed "
                   "counts as zero (stick, rest, no impact), however fast the rest of the model: "
                   "it would be decided on rounding; scale the units (lengths in um or nm, times "
                   "in ms) so that its speeds exceed %g m/s",
                   w < s->n_gaps ? "contact" : "friction element",
                   w < s->n_gaps ? s->m->gaps[w].name : s->m->frictions[w - s->n_gaps].name, v,
                   RT_VEL_FLOORS, RT_VEL_FLOOR, RT_VEL_FLOORS * RT_VEL_FLOOR);
}

/* exact on a model without contacts or friction keeps its one mode, whose
** step (mode_step: 2/nu, at most the user's dt) bounds every step of the
** run: a step cap that cannot reach t_end is refused up front as rk4's is
** (check_rk4_cap), where a free mass over 2e9 s stepped 2 s at a time for
** minutes towards the cap. */
static int check_exact_cap(nsm_sim *s, double t_end)
{
    if (s->set.method != NSM_METHOD_EXACT || s->n_gaps || s->n_fric || s->set.max_steps <= 0)
        return NSM_OK;
    const RtModeInfo *mi = rt_mode_info(s);
    if (!mi)
        return NSM_OK;      /* the run says why */
    int cut;
    double h = mode_step(s, mi, &cut), need = (t_end - s->t) / h;
    if (!(need > (double)s->set.max_steps) || !rt_t_resolved(s, h, t_end))
        return NSM_OK;      /* a step below the time's resolution: check_step names it */
    return rt_fail(s, NSM_EINVAL, -1, "exact takes steps of at most %.6g s in this model (2/nu, "
                   "nu = %.6g 1/s, or the --dt): at least %.3g steps to reach t = %g s, more than "
                   "the step cap of %ld; give a larger --max-steps or a shorter --t-end", h,
                   mi->nu, need, t_end, s->set.max_steps);
}

static int step_unresolved(nsm_sim *s, double h, double t_end);

/* The step h the method needs in the current mode (h_step: rk4's and
** exact's step, adaptive's largest), below the time resolution: the run
** stops at once, naming the mode (rt_fail) and the cause (the mode's
** fastest motion, omega*dt at the resolution), instead of spinning through
** steps that barely move t.  Adaptive's error control has its own floor
** (step.c): its trial steps also shrink for a landing, legitimately. */
static int check_step(nsm_sim *s, double h, double t_end)
{
    if (!(h > 0) || rt_t_resolved(s, h, t_end))
        return NSM_OK;
    return step_unresolved(s, h, t_end);
}

/* check_step's refusal of the step h, below the time resolution up to
** t_end: a singularity ahead, the end time, or the mode's stiffness named. */
RT_COLD static int step_unresolved(nsm_sim *s, double h, double t_end)
{
    double res = rt_t_resolution(s, t_end);
    char why[400];
    const RtModeInfo *mi = s->m->nl ? NULL : rt_mode_info(s);
    const char *meth = nsm_method_name(s->set.method);
    if (rt_cause_ahead(s, h) || rt_time_beyond(s, h, t_end, meth))
        return s->failed;
    double w = !mi ? 0 : s->set.method == NSM_METHOD_EXACT ? mi->nu : mi->rho;
    if (w > 0)
        rt_text_printf(why, sizeof why,
                        "the mode is too stiff: its fastest motion, %s = %.6g 1/s, needs steps of "
                        "%.3g s with %s (omega*dt at the resolution %.3g s is %.3g); check the "
                        "stiffnesses and masses (a value off by orders of magnitude?)",
                        s->set.method == NSM_METHOD_EXACT ? "nu" : "|lambda|", w, h, meth, res, w * res);
    else
        rt_text_printf(why, sizeof why, "%s needs steps of %.3g s, below the resolution %.3g s (a "
                        "motion too fast for the time axis); check the stiffnesses and masses", meth, h,
                        res);
    return rt_fail(s, NSM_ENUMERIC, -1,
                   "steps below the time resolution of t up to t_end = %.9g s: %s", t_end, why);
}

/* The energy integrals (the forces' work, the dampers' dissipation) not
** finite after a step h from the state in s while the positions and
** velocities are: forces near 1e308 N, whose work over a step leaves the
** range of double.  Names the forces' size, the fastest velocity and the
** work, not the integral's symptom. */
static int energy_overflow(nsm_sim *s, double h)
{
    const double *v = rt_vel(s, s->y);
    int iv = 0;
    for (int i = 1; i < s->n_vel; i++)
        if (fabs(v[i]) > fabs(v[iv]))
            iv = i;
    double f = s->m->nl ? NAN : rt_force_scale(s, s->t, s->y), vm = s->n_vel ? fabs(v[iv]) : 0;
    char what[160], size[80] = "";
    if (isfinite(f) && f >= 1e100)     /* the forces' own size (not a forcing's growth) */
        rt_text_printf(size, sizeof size, "the forces sum to %.3g N at the step's start, ", f);
    return rt_fail(s, NSM_ENUMERIC, -1, "the energy integrals (the forces' work and the dampers' "
                   "dissipation) are not finite after a step of %.3g s: %sthe %s is %.3g, and "
                   "their work over the step is beyond the range of double (about 1.8e308 J): "
                   "forces or energies near 1e308 cannot be summed; scale the model's values "
                   "(a force, a mass or an amplitude off by orders of magnitude?)", h, size,
                   s->n_vel ? rt_state_label(s, s->n_pos + iv, what, sizeof what) : "velocity", vm);
}

/* taylor's step of h from the finite state in s gave state slot i not
** finite: its series' coefficients, powers of the model's rates and sizes
** (sqrt(g/l) = 3e50 1/s at l = 1e-100 m, energies of 1e301 J at m = 1e300
** kg), overflow where the motion itself is in range; rk4 and adaptive,
** which form no such powers, run these models.  Names the cause and them,
** not the symptom ("state is not finite", "energies near 1e308"). */
static int taylor_overflow(nsm_sim *s, double h, int i)
{
    char what[160] = "the forces' work or the dampers' dissipation";
    if (i < s->n_pos + s->n_vel)
        rt_state_label(s, i, what, sizeof what);
    return rt_fail(s, NSM_ENUMERIC, -1, "taylor's series over a step of %.3g s from a finite "
                   "state are not finite (%s): their coefficients, powers of the model's rates "
                   "and sizes, overflow at this scale; --method rk4 with a --dt of the motion's "
                   "time scale, or --method adaptive where its steps stay above 1e-15 (1 + |t|) "
                   "s, integrate it without them; or scale the model's values", h, what);
}

static int balance_fail(nsm_sim *s, double t0, const double *y0, double h, double rel,
                        double tol);

/* A balance error beyond the tolerance (relative to the largest energy met;
** the balance is kept at every step where the run keeps its energy
** integrals) stops the run: the motion is no longer the model's.  The
** advice names a finer method only when there is one to move to. */
RT_HOT static int check_balance(nsm_sim *s, double t0, const double *y0, double h)
{
    if (!s->energy)
        return NSM_OK;
    double tol = s->set.etol >= 0 ? s->set.etol
               : s->set.method == NSM_METHOD_EXACT || s->set.method == NSM_METHOD_TAYLOR ? 1e-6
               : s->set.method == NSM_METHOD_ADAPTIVE ? 1e-2 : 5e-2;
    if (tol == 0)
        return NSM_OK;
    double rel = rt_stats_relative_error(s, tol);
    if (!(rel > tol))
        return NSM_OK;
    return balance_fail(s, t0, y0, h, rel, tol);
}

/* check_balance's stop: the balance of the step h from (t0, y0) is off by
** rel of the largest energy, beyond tol; the cause named where it is
** seen, else the advice for the method. */
RT_COLD static int balance_fail(nsm_sim *s, double t0, const double *y0, double h, double rel,
                                double tol)
{
    if (rt_cause_step(s, t0, y0, h))    /* a singularity of the model on the step */
        return s->failed;
    if (s->set.method == NSM_METHOD_EXACT || s->set.method == NSM_METHOD_TAYLOR)
        return rt_fail(s, NSM_ENUMERIC, -1,
                       "the energy balance is off by %.3g of the largest energy (tolerance %.3g): "
                       "the motion is not the model's; the %s method has no step to refine here: "
                       "cross-check with --method adaptive and report the model",
                       rel, tol, s->set.method == NSM_METHOD_EXACT ? "exact" : "taylor");
    if (rt_mass_dense(s) || s->n_pos != s->n_vel)   /* M(q), bodies in space: no exact */
        return rt_fail(s, NSM_ENUMERIC, -1,
                       "the energy balance is off by %.3g of the largest energy (tolerance %.3g): "
                       "the motion is not the model's; give a smaller --dt (rk4) or --rtol "
                       "(adaptive), or use --method taylor", rel, tol);
    /* a nonlinear model under rk4: adaptive, whose error control follows
     * a soft contact's onset (taylor's expansions of p^a break down at its
     * zero: a ball released at rest touching a Hertz floor is refused
     * there, so "use taylor" was advice that did not work) */
    return rt_fail(s, NSM_ENUMERIC, -1,
                   "the energy balance is off by %.3g of the largest energy (tolerance %.3g): the "
                   "motion is not the model's; give a smaller --dt or use --method %s",
                   rel, tol, !s->m->nl ? "exact"
                             : s->set.method == NSM_METHOD_RK4 ? "adaptive" : "taylor");
}

/* Whether this run keeps the energy integrals (dissipated energy and
** external work, y[2n] and y[2n+1]).  rk4 and adaptive integrate them as
** states at little cost and their balance guards the step size.  The exact
** method's propagation conserves the balance by construction (every
** transition's loss is booked in transition_loss from the velocities), and its
** integrals are a third of its cost: it keeps them only when the audit is
** on or a sample handler receives an output column that needs them. */
static int keeps_energy(const nsm_sim *s)
{
    if (s->set.method != NSM_METHOD_EXACT || s->set.audit)
        return 1;
    if (!s->set.on_sample)
        return 0;
    for (int k = 0; k < s->m->n_outputs; k++) {
        int kind = s->m->outputs[k].kind;
        if (kind == NSM_OUT_DISSIPATED || kind == NSM_OUT_INJECTED || kind == NSM_OUT_ERROR)
            return 1;
    }
    return 0;
}

/* What a run to t_end refuses before its first step: the method against
** the model (exact on a nonlinear model, exact's and taylor's own checks),
** a user's step and the section's periods against the time resolution.
** Apart from the run so that a program can refuse its options before it
** opens any output (nsm_sim_check_run). */
/* Whether gap j's row of W reaches a rigid body's angular velocities. */
static int gap_turns_body(const nsm_sim *s, int j)
{
    const RtCsr *W = &s->sp.W;
    for (int k = W->p[j]; k < W->p[j + 1]; k++)
        for (int b = 0; b < s->m->n_rigid; b++)
            if (W->i[k] >= s->m->rigid_rot[b] && W->i[k] < s->m->rigid_rot[b] + 3)
                return 1;
    return 0;
}

/* The contacts of a model with bodies in space that the runtime handles:
** impact gaps (Newton's law, frictionless) that are curved (g, W u and the
** curvature term from nl_gap, docs/theory.md section 19) or affine on
** translations only (w . x is no gap for a quaternion's slots), with
** spatial friction at their impacts (impact_space.c).  Planar friction
** elements, the other contact laws and moving surfaces are refused by name. */
static int rigid_contacts_check(nsm_sim *s)
{
    if (s->n_fric)
        return rt_fail(s, NSM_EMODEL, s->n_gaps, "friction element '%s' on a body in space: a "
                       "body in space takes spatial friction elements at its sphere gaps "
                       "(nsm_space_friction), not scalar slips", s->m->frictions[0].name);
    if (s->moving)
        return rt_fail(s, NSM_EMODEL, -1, "moving surfaces are not built yet for models with "
                       "bodies in space");
    for (int j = 0; j < s->n_gaps; j++) {
        if (rt_law_of(s, j) != &rt_law_impact)
            return rt_fail(s, NSM_EMODEL, j, "gap '%s' of a model with bodies in space has "
                           "the %s law: only impact contacts of bodies in space are built",
                           s->m->gaps[j].name, rt_law_of(s, j)->name);
        if (!rt_nl_gap_curved(s, j) && gap_turns_body(s, j))
            return rt_fail(s, NSM_EMODEL, j, "gap '%s' is affine in a rigid body's "
                           "rotation slots: a body in space's contact must be a curved gap "
                           "(its row of W over the velocities from nl_gap)",
                           s->m->gaps[j].name);
    }
    return rt_sf_check(s);
}

/* What a model with bodies in space (nq > n positions, rigid.c) cannot be
** run with yet: the exact method, whose propagators assume q' = u, the
** contacts rigid_contacts_check refuses and Poincare sections.  NSM_OK for
** every other model. */
static int rigid_check(nsm_sim *s)
{
    int rc;
    if (s->n_pos == s->n_vel)
        return NSM_OK;
    if (s->set.method == NSM_METHOD_EXACT)
        return rt_fail(s, NSM_EMETHOD, -1, "method exact does not take bodies in space (a "
                       "quaternion's q' = B(q) u is not in its propagators): use --method "
                       "taylor, rk4 or adaptive");
    if ((rc = rigid_contacts_check(s)))
        return rc;
    if (s->sec)
        return rt_fail(s, NSM_EMETHOD, -1, "Poincare sections do not take bodies in space yet "
                       "(their state has more positions than velocities)");
    return NSM_OK;
}

int rt_run_check(nsm_sim *s, double t_end)
{
    int rc;
    if ((rc = rigid_check(s)))
        return rc;
    if (s->set.method == NSM_METHOD_EXACT && rt_mass_dense(s))
        return rt_fail(s, NSM_EMETHOD, -1, "method exact does not take a model written by its "
                       "energies (its mass matrix depends on the configuration): use --method "
                       "adaptive, taylor or rk4");
    if (s->set.method == NSM_METHOD_EXACT && s->m->nl)
        return rt_fail(s, NSM_EMETHOD, -1, "method exact applies to linear models; this model is "
                       "nonlinear: use --method taylor (or rk4, adaptive)");
    if (s->set.method == NSM_METHOD_EXACT && (rc = rt_exact_check(s, t_end)))
        return rc;
    if (s->set.method == NSM_METHOD_TAYLOR && (rc = rt_nlt_check(s)))
        return rc;
    if (t_end > s->t && ((rc = check_user_dt(s, t_end)) || (rc = check_mode_reach(s, t_end)) ||
                         (s->sec && (rc = rt_section_check_run(s, t_end))) ||
                         (rc = check_rk4_cap(s, t_end)) || (rc = check_exact_cap(s, t_end))))
        return rc;
    return NSM_OK;
}

/* The run stopped before a step: on request (stop: rt_stop_asked said
** so), or at the step cap. */
RT_COLD static int run_halt(nsm_sim *s, int stop)
{
    if (stop)
        return rt_fail(s, NSM_ESTOPPED, -1, "stopped on request");
    return rt_fail(s, NSM_ESTEPS, -1, "step cap of %ld step%s reached", s->set.max_steps,
                   s->set.max_steps == 1 ? "" : "s");
}

/* The step h from (s->t, s->y) gave entry i of its end state not finite:
** a singularity of the model on the step, the taylor method's overflow,
** the state named, or the energy integrals' overflow. */
RT_COLD static int step_not_finite(nsm_sim *s, double h, int i)
{
    char what[160];
    return rt_cause_step(s, s->t, s->y, h) ? s->failed
           : s->set.method == NSM_METHOD_TAYLOR ? taylor_overflow(s, h, i)
           : i < s->n_pos + s->n_vel
               ? rt_fail(s, NSM_ENUMERIC, -1, "state is not finite (%s)",
                         rt_state_label(s, i, what, sizeof what))
               : energy_overflow(s, h);
}

/* Gap j of a nonlinear model has no finite value at a step's end. */
RT_COLD static int gap_undefined(nsm_sim *s, int j)
{
    return rt_fail(s, NSM_ENUMERIC, j, "gap '%s' has no finite value at this state: "
                   "its expression is undefined or infinite there, so its contact "
                   "could never close", s->m->gaps[j].name);
}

/* What run_event needs of rt_run's step: its size, the sample or end
** time it aimed at, a time switch's instant, the run's end, the step's
** start, whether it landed on the target, the switch it was cut to (-1
** none), and whether the samples are taken inside the steps (side). */
typedef struct {
    double h, target, ts, t_end, t0;
    const double *Y0;
    int land, ksw, side;
} RunStep;

/* The step r ended on event j at offset tau, state Ys: the time of the
** event (on the target or the switch when it is there, else the
** compensated sum, *tlo its carry), the samples and section records up
** to it, the audit, the balance, the transition, and the switch when it
** falls there.  Out of rt_run's line: most steps end on no event. */
RT_APART static int run_event(nsm_sim *s, const RunStep *r, int j, double tau, const double *Ys,
                              double *tlo)
{
    int rc, land = r->land, ksw = r->ksw;
    double h = r->h, target = r->target, ts = r->ts, t_end = r->t_end, t0 = r->t0;
    const double *Y0 = r->Y0;
    int at_switch = ksw >= 0 && tau == h;     /* the event falls on the switch */
    double lo = *tlo, t1 = land && tau == h ? target : at_switch ? ts : time_add(s->t, tau, &lo);
    *tlo = (land && tau == h) || at_switch ? 0 : lo;
    if (t1 < s->t) {
        t1 = s->t;              /* time never runs back (an event at tau = 0) */
        *tlo = 0;
    }
    if (r->side && (rc = side_samples(s, s->t, t1)))
        return rc;
    if (s->sec && (rc = rt_section_step(s, t1, Ys, j)))
        return rc;
    rt_stats_step(s, t1, Ys);
    rt_state_set_time(s, t1);
    if ((rc = check_balance(s, t0, Y0, h)))
        return rc;
    rt_state_set(s, t1, Ys);
    if ((rc = transition(s, j)))
        return rc;
    rt_state_transition_mark(s, j);
    if (s->t == t_end && (rc = end_ties(s)))
        return rc;
    if (s->t != t1 && s->sec && (rc = rt_section_jump(s, t1, Ys)))
        return rc;
    if (s->t != t1) {
        *tlo = 0;           /* a Zeno jump moved the time: the sample */
        while (s->set.every > 0 && s->sample_k * s->set.every < s->t)
            s->sample_k++;  /* instants it passed have no state (time never runs back) */
    } else if (at_switch && (rc = toggle_switch(s, ksw, Y0)))
        return rc;
    return NSM_OK;
}

/* Advance to time t_end: steps, events, transitions, samples at multiples of
** every (and after every step when every is 0). */
RT_HOT int rt_run(nsm_sim *s, double t_end)
{
    int rc, N = s->n_state;
    if (s->failed)
        return s->failed;
    if (!(t_end >= s->t) || !isfinite(t_end))
        return NSM_EINVAL;
    if ((rc = rt_run_check(s, t_end)) || (rc = check_speed_floor(s, t_end)))
        return rc;
    s->energy = keeps_energy(s);
    if (!s->energy)
        s->energy_lost = 1;
    s->t_stop = t_end;
    if (s->sample_k == 0) {
        s->sample_k = 1;
        if ((rc = sample(s)))
            return rc;
    }
    double Y1[N], Ys[N], tlo = 0;
    int side = (s->set.method == NSM_METHOD_EXACT || s->set.method == NSM_METHOD_TAYLOR) &&
               s->set.every > 0;
    while (s->t < t_end) {
        int stop = rt_stop_asked(s);
        if (stop || s->steps >= s->set.max_steps)
            return run_halt(s, stop);
        double h = step_size(s), target = t_end, ts;
        if (h < 0)
            return s->failed;
        if ((rc = check_step(s, s->h_step, t_end)))
            return rc;
        int land = 0;
        if (s->set.every > 0 && !side) {
            double tk = s->sample_k * s->set.every;
            if (tk < target - 1e-9 * s->set.every)
                target = tk;
        }
        if (s->sec && (rc = rt_section_target(s, &target)))
            return rc;
        if (step_reaches(s->t, h, tlo, target, t_end)) {
            h = target - s->t;
            land = 1;
        }
        double tr = s->t + h;
        if ((rc = switch_reach(s, s->t, &tr)))
            return rc;
        if (tr < s->t + h) {
            h = tr - s->t;
            land = 0;
        }
        int ksw = next_switch(s, s->t, s->t + h, &ts);
        if (ksw >= 0 && ts < s->t + h) {
            h = ts - s->t;
            land = 0;
        }
        if (h <= 0) {
            if (ksw < 0)
                h = 0;
        }
        if (s->n_space_fric && h > 0) {          /* a slip's landing on zero (spacestick.c) */
            double hc = h;
            if ((rc = rt_sf_land(s, &hc)))
                return rc;
            if (hc < h)
                h = hc, land = 0, ksw = -1;
        }
        double hreq = h;
        if (h > 0 && (rc = rt_step(s, s->t, s->y, &h, Y1)))
            return step_failed(s, rc, hreq);
        if (h != hreq)
            land = 0, ksw = -1;
        if (h <= 0)
            memcpy(Y1, s->y, sizeof Y1);
        if (s->n_space_fric && h > 0) {          /* a stick force reaching its cone (spacestick.c) */
            double hs = h;
            if ((rc = rt_sf_step_check(s, &hs, Y1)))
                return rc;
            if (hs < h)
                h = hs, land = 0, ksw = -1;
        }
        s->steps++;
        for (int i = 0; i < N; i++)
            if (!isfinite(Y1[i]))
                return step_not_finite(s, h, i);
        int j = rt_nl_gap_undefined(s, Y1);
        if (j >= 0)
            return gap_undefined(s, j);
        double tau = 0, t0 = s->t, Y0[N];
        memcpy(Y0, s->y, sizeof Y0);    /* the step's start, for a failure's cause */
        if ((rc = rt_detect(s, s->t, s->y, h, Y1, land && target == t_end, &j, &tau, Ys)))
            return rc;
        if (j < 0 && s->set.method == NSM_METHOD_EXACT && h > 0)
            rt_detect_sample(s, h, s->y, Y1);   /* the step's energies by its expansion */
        if (j >= 0) {
            RunStep r = { h, target, ts, t_end, t0, Y0, land, ksw, side };
            if ((rc = run_event(s, &r, j, tau, Ys, &tlo)))
                return rc;
        } else {
            double lo = tlo, t1 = land ? target : (ksw >= 0 ? ts : time_add(s->t, h, &lo));
            tlo = land || ksw >= 0 ? 0 : lo;
            if (side && (rc = side_samples(s, s->t, t1)))
                return rc;
            if (s->sec && (rc = rt_section_step(s, t1, Y1, -1)))
                return rc;
            rt_stats_step(s, t1, Y1);
            rt_state_set(s, t1, Y1);
            if ((rc = check_balance(s, t0, Y0, h)))
                return rc;
            if (ksw >= 0 && s->t == ts && (rc = toggle_switch(s, ksw, Y0)))
                return rc;
        }
        if (s->set.every == 0) {
            if ((rc = sample(s)))
                return rc;
        } else if (s->sample_k * s->set.every <= s->t + (j < 0 && (land || side) ? 1e-9 * s->set.every : 0)) {
            s->sample_k++;
            if ((rc = sample(s)))
                return rc;
        }
    }
    return s->sec ? rt_section_end(s) : NSM_OK;
}
