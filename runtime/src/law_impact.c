/*
** law_impact.c: the impact law (Newton's restitution; docs/theory.md).
**
** A closed impact gap is a unilateral constraint: the runtime's
** complementarity (settle, transition.c) holds it shut while its force
** lambda >= 0, and a closing gap is reached by an impact, the impulse LCP
** with restitution num.e[j] (Moreau 1988; Pfeiffer and Glocker 1996).
** What is the law's own: its restitution (the impulse rule every impulse
** problem asks through rt_law_restitution, law.h; the only reader of
** num.e) and its check, and the separation of a held gap when its force
** crosses zero.  Its restitution's range, [0, 1], is checked for every
** constraint law by rt_law_setup (laws.c).  Its event function, event
** tolerance, initial check and separation are exported (rt_law_impact_*,
** law.h) for the laws that share them (a constraint law with another
** restitution, tests/laws/toy_law.c).
*/
#include <math.h>
#include <stdio.h>

#include "law.h"

/* Gap j's event function: open, the gap (its impact at 0); held, its
** force lambda (its separation at 0). */
void rt_law_impact_event(const nsm_sim *s, int j, int closed, const rt_gap_kin *k, double *ev,
                         double *evd)
{
    (void)s, (void)j;
    *ev = closed ? k->force : k->gap;
    *evd = closed ? k->force_rate : k->rate;
}

/* The rounding level of gap j's event function at y: the gap's when open,
** the held contacts' force rounding when held. */
RT_HOT double rt_law_impact_event_tol(const nsm_sim *s, int j, int closed, const double *y, double gt)
{
    return closed ? rt_force_tol_gap(s, s->mode, y, j) : gt;
}

/* Gap j's event function for the exact and taylor methods: open, the gap;
** held, the constraint's force (the mode's rows; the gap's form stays set). */
void rt_law_impact_form(const nsm_sim *s, int j, int closed, rt_gap_form *f)
{
    (void)s, (void)j;
    *f = (rt_gap_form){ .force = closed, .sx = 1 };
}

/* Newton's restitution of gap j: the model's coefficient e (num.e[j]),
** whatever the approach speed vb. */
double rt_law_impact_restitution(const nsm_sim *s, int j, double vb)
{
    (void)vb;
    return s->num.e[j];
}

/* At t = 0: a penetrated gap is a state the law cannot start from; a
** touching one is left to settle (held or not by complementarity). */
int rt_law_impact_initial(nsm_sim *s, int j, double gap, double rate, double tol)
{
    (void)rate;
    if (gap < -tol)
        return rt_fail(s, NSM_EMODEL, j, "initial state penetrates the gap (gap = %.6g)", gap);
    return NSM_OK;
}

/* The held gap j's force crossed zero: it separates (logged, its impact
** history forgotten), and settle decides which other touching gaps stay
** held with j forced open. */
int rt_law_impact_transition(nsm_sim *s, int j, unsigned *forget)
{
    unsigned bit[s->mode_words];
    const double *v = s->y + s->n_pos;
    int rc;
    rt_mode_none(s, bit);
    rt_mode_add(bit, j);
    rt_state_mode_del(s, j);
    rt_mode_add(forget, j);
    if ((rc = rt_log_event(s, NSM_EV_SEPARATION, j, rt_wdot(s, j, v), rt_wdot(s, j, v), 0, 0, 1)))
        return rc;
    return rt_settle(s, s->mode, bit, forget);
}

const rt_law rt_law_impact = {
    .name = "impact",
    .constraint = 1,
    .event = rt_law_impact_event,
    .event_tol = rt_law_impact_event_tol,
    .form = rt_law_impact_form,
    .restitution = rt_law_impact_restitution,
    .initial = rt_law_impact_initial,
    .transition = rt_law_impact_transition,
};
