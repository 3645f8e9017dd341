/*
** law_penalty.c: the penalty law (a compliant contact: docs/theory.md).
**
** A closed penalty gap is a force element: the force k p^a + c p' of its
** penetration p = -gap (pen_force) acts while it is engaged, stores the
** energy of its spring (pen_energy) and dissipates c p'^2 in its damper.
** It is released when its gap opens again (release gap) or when its force
** would pull (release force).  What is the law's own: its parameters'
** check, the engagement and release, its force, the force's rate and
** Taylor series (the power rule of p^a), its stored energy and its
** damping; the runtime's paths ask them through the table (law.h).
*/
#include <math.h>
#include <stdio.h>

#include "law.h"

/* p^a for penalty gap j, continued oddly below 0 (a penetration that has
** just ended): exactly p for the linear law. */
static double pen_pow(const nsm_sim *s, int j, double p)
{
    double a = s->num.pexp[j];
    return a == 1 ? p : copysign(pow(fabs(p), a), p);
}

/* Force of penalty gap j at penetration p and its rate pd:
** k p^a + c p'. */
static double pen_force(const nsm_sim *s, int j, double p, double pd)
{
    return s->num.kc[j] * pen_pow(s, j, p) + s->num.cc[j] * pd;
}

/* Rate of that force: k a |p|^(a-1) p' + c p''. */
static double pen_force_rate(const nsm_sim *s, int j, double p, double pd, double pdd)
{
    double a = s->num.pexp[j];
    double ka = a == 1 ? s->num.kc[j] : s->num.kc[j] * a * pow(fabs(p), a - 1);
    return ka * pd + s->num.cc[j] * pdd;
}

/* Energy stored in penalty gap j at penetration p >= 0: k p^(a+1)/(a+1). */
static double pen_energy(const nsm_sim *s, int j, double p)
{
    double a = s->num.pexp[j];
    return a == 1 ? 0.5 * s->num.kc[j] * p * p : s->num.kc[j] * pow(fabs(p), a + 1) / (a + 1);
}

/* The rate of the force's rounding level per unit of the gap's at
** penetration p: the force's rate k a |p|^(a-1) at a unit approach, at
** least 1e-300 for a nonlinear law (penalty_event_tol). */
static double pen_tol_slope(const nsm_sim *s, int j, double p)
{
    return fmax(pen_force_rate(s, j, p, 1, 0), s->num.pexp[j] == 1 ? 0 : 1e-300);
}

/* Gap j's stiffness and damping must be finite and >= 0.  A linear law's
** slope of the event tolerance is then cached (law_tol_k): it depends on
** the parameters alone, and the tolerance is asked at every detection; a
** gap released by gap says its tolerance is the gap's in every mode
** (law_tol_gap: penalty_event_tol's first answer, without the call). */
static int penalty_setup(nsm_sim *s, int j)
{
    double k = s->num.kc[j], c = s->num.cc[j];
    if (k >= 0 && c >= 0 && isfinite(k) && isfinite(c)) {
        s->law_tol_k[j] = s->num.pexp[j] == 1 ? pen_tol_slope(s, j, 0) : 0;
        s->law_tol_gap[j] = s->m->gaps[j].release == NSM_RELEASE_GAP;
        return 0;
    }
    rt_text_printf(s->msg, sizeof s->msg, "gap '%s': its stiffness k = %.12g and damping c = %.12g "
                    "must be finite and >= 0", s->m->gaps[j].name, k, c);
    return 1;
}

/* Gap j engages or releases: the mode flips j, the mechanical energy the
** flip changes (the spring's, where the gap is not at zero) is booked as
** the transition's loss, the event is logged, and settle decides the
** constraint gaps again. */
int rt_law_penalty_transition(nsm_sim *s, int j, unsigned *forget)
{
    unsigned ref[s->mode_words];
    const double *v = rt_vel(s, s->y);
    int closed = rt_mode_has(s->mode, j), rc;
    rt_mode_copy(s, ref, s->mode);
    double Eb = rt_mech_energy(s, s->mode, s->y);
    rt_state_mode_flip(s, j);
    double lost = Eb - rt_mech_energy(s, s->mode, s->y);
    rt_transition_loss_add(s, lost);
    rc = rt_log_event(s, closed ? NSM_EV_CONTACT_EXIT : NSM_EV_CONTACT_ENTER, j, rt_wdot(s, j, v),
                      rt_wdot(s, j, v), 0, lost, 1);
    if (rc)
        return rc;
    rt_mode_del(ref, j);
    return rt_settle(s, ref, NULL, forget);
}

/* Gap j's event function.  Open: the gap, or, released by force, the
** force -(k p^a + c p') of the approach when it is below the gap (a fast
** approach engages at the force's zero, before contact).  Engaged: the
** force (released by force) or the penetration -gap (released by gap). */
static void penalty_event(const nsm_sim *s, int j, int closed, const rt_gap_kin *k, double *ev,
                          double *evd)
{
    double gap = k->gap, wv = k->rate, wa = k->acc;
    int by_gap = s->m->gaps[j].release == NSM_RELEASE_GAP;
    if (!closed) {
        double fs = -pen_force(s, j, -gap, -wv);
        if (by_gap || gap >= fs) {
            *ev = gap;
            *evd = wv;
        } else {
            *ev = fs;
            *evd = -pen_force_rate(s, j, -gap, -wv, -wa);
        }
    } else if (!by_gap) {
        *ev = pen_force(s, j, -gap, -wv);
        *evd = pen_force_rate(s, j, -gap, -wv, -wa);
    } else {
        *ev = -gap;
        *evd = -wv;
    }
}

/* Gap j's event function for the exact and taylor methods, as penalty_event:
** open, the gap, and released by force the larger of it and the approach's
** force form k gap + c gap'; engaged, the force k p + c p' (released by
** force) or the penetration p = -gap. */
static void penalty_form(const nsm_sim *s, int j, int closed, rt_gap_form *f)
{
    double k = s->num.kc[j], c = s->num.cc[j];
    int byforce = s->m->gaps[j].release == NSM_RELEASE_FORCE;
    *f = (rt_gap_form){ .sx = 1 };
    if (closed && byforce)
        f->sx = -k, f->sv = -c;
    else if (closed)
        f->sx = -1;
    else if (byforce)
        f->second = 1, f->sx2 = k, f->sv2 = c;
}

/* The rounding level of gap j's event function at y (gt: the gap's): the
** gap's for a release by gap; else the force's, k p^a + c p' formed from
** terms of their own size (plus the gap's times the force's slope, cached
** for a linear law by penalty_setup), or the gap's where the open gap's event is the
** gap (a gap clearly open: any tiny level, max(gap, ...) >= gap). */
static double penalty_event_tol(const nsm_sim *s, int j, int closed, const double *y, double gt)
{
    if (s->m->gaps[j].release == NSM_RELEASE_GAP)
        return gt;
    double c = s->num.cc[j], gap = rt_gap(s, j, y);
    double wv = rt_wrow(s, j, rt_vel(s, y)), fs = -pen_force(s, j, -gap, -wv);
    double slope = s->num.pexp[j] == 1 ? s->law_tol_k[j] : pen_tol_slope(s, j, -gap);
    double ft = 1e-10 * (fabs(fs - c * wv) + fabs(c * wv)) + slope * gt;
    if (closed)
        return ft;
    if (gap > gt)
        return 1e-300;  /* max(gap, ...) >= gap: clearly positive, whatever the other form */
    return gap >= fs ? gt : ft;
}

/* At t = 0 gap j starts engaged when penetrated or touching and closing
** (release by gap), or touching with a pushing force (release by force). */
static int penalty_initial(nsm_sim *s, int j, double gap, double wv, double tol)
{
    double f = pen_force(s, j, -gap, -wv);
    int on = s->m->gaps[j].release == NSM_RELEASE_GAP ? (gap < -tol || (gap <= tol && wv < 0))
                                                      : (gap <= tol && f > 0);
    if (on)
        rt_state_mode_add(s, j);
    return NSM_OK;
}

/* The energy stored in the engaged gap j at y: its spring's, at the
** penetration -gap. */
static double penalty_stored(const nsm_sim *s, int j, const double *y)
{
    rt_nl_at(s, y);
    return pen_energy(s, j, -rt_gap(s, j, y));
}

/* The engaged gap j's damper coefficient c. */
static double penalty_damping(const nsm_sim *s, int j)
{
    return s->num.cc[j];
}

/* Whether gap j's force is the linear k p + c p' (a = 1). */
static int penalty_linear(const nsm_sim *s, int j)
{
    return s->num.pexp[j] == 1;
}

/* Order k of the engaged gap j's force k p^a + c p' over a step, from the
** orders 0..k of p and pd, with w the series of p^a (its order k set
** here: p's for a = 1, else the power rule). */
static double penalty_series(const nsm_sim *s, int j, int k, const double *p, const double *pd,
                             double *w)
{
    double a = s->num.pexp[j];
    if (a == 1)
        w[k] = p[k];
    else if (k == 0)
        w[0] = pow(p[0], a);
    else
        w[k] = rt_ser_pow_k(p, w, a, k);
    return s->num.kc[j] * w[k] + s->num.cc[j] * pd[k];
}

/* The force near p = 0: k p^a. */
static double penalty_onset(const nsm_sim *s, int j, double *a)
{
    *a = s->num.pexp[j];
    return s->num.kc[j];
}

/* The stiffness k of the linear law k p + c p'. */
static double penalty_stiffness(const nsm_sim *s, int j)
{
    return s->num.kc[j];
}

/* The integral of k p^a + c p' over a step of length h from (p[0], pd[0])
** to (p[1], pd[1]): the damper's c (p1 - p0) exactly, and the spring's on
** the cubic Hermite interpolant of p (exact for a = 1), else by the
** trapezoid. */
static double penalty_impulse(const nsm_sim *s, int j, double h, const double p[2],
                              const double pd[2])
{
    double damper = s->num.cc[j] * (p[1] - p[0]);
    if (s->num.pexp[j] == 1)
        return s->num.kc[j] * (h / 2 * (p[0] + p[1]) + h * h / 12 * (pd[0] - pd[1])) + damper;
    return h / 2 * (pen_force(s, j, p[0], 0) + pen_force(s, j, p[1], 0)) + damper;
}

/* Whether the engaged gap j's event function is its penetration: released
** when the gap opens (release gap), not when its force reaches 0. */
static int penalty_closed_gap_event(const nsm_sim *s, int j)
{
    return s->m->gaps[j].release == NSM_RELEASE_GAP;
}

const rt_law rt_law_penalty = {
    .name = "penalty",
    .constraint = 0,
    .event = penalty_event,
    .event_tol = penalty_event_tol,
    .form = penalty_form,
    .initial = penalty_initial,
    .setup = penalty_setup,
    .transition = rt_law_penalty_transition,
    .stored = penalty_stored,
    .damping = penalty_damping,
    .force = pen_force,
    .force_rate = pen_force_rate,
    .stiffness = penalty_stiffness,
    .linear = penalty_linear,
    .series = penalty_series,
    .onset = penalty_onset,
    .impulse = penalty_impulse,
    .closed_gap_event = penalty_closed_gap_event,
};
