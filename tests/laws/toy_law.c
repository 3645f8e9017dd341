/*
** toy_law.c: a contact law written outside the runtime, to show that the
** law interface (runtime/src/law.h) is enough to add one.
**
** The toy law is an impact law whose restitution is its own, fixed at
** TOY_E whatever the model's parameters say, and which counts the events at
** its gaps and its own transitions.  Its closed gap is a constraint (the
** runtime's complementarity holds it, the impulse LCP takes num.e[j]); at
** a held gap's separation it logs the event and lets settle decide the
** other touching gaps, as law_impact.c does.
*/
#include "toy_law.h"

#include "law.h"

long toy_events, toy_transitions;

/* The toy law fixes the gap's restitution to TOY_E (the model's e is not
** its concern) and starts its counts. */
static int toy_setup(nsm_sim *s, int j)
{
    s->num.e[j] = TOY_E;
    toy_events = toy_transitions = 0;
    return 0;
}

/* The held gap j separates: out of the mode, its impact history
** forgotten, the event logged, settle over the others with j held open. */
static int toy_transition(nsm_sim *s, int j, unsigned *forget)
{
    unsigned bit[s->mw];
    const double *v = s->y + s->n;
    int rc;
    toy_transitions++;
    rt_mode_none(s, bit);
    rt_mode_add(bit, j);
    rt_state_mode_del(s, j);
    rt_mode_add(forget, j);
    if ((rc = rt_log_event(s, NSM_EV_SEPARATION, j, rt_wdot(s, j, v), rt_wdot(s, j, v), 0, 0, 1)))
        return rc;
    return rt_settle(s, s->mode, bit, forget);
}

/* The toy gap's event function: open, the gap (its impact at 0); held, its
** force (its separation at 0). */
static void toy_event(const nsm_sim *s, int j, int closed, const rt_gap_kin *k, double *ev,
                      double *evd)
{
    (void)s, (void)j;
    *ev = closed ? k->force : k->gap;
    *evd = closed ? k->force_rate : k->rate;
}

/* Its rounding level: the gap's open, the held contacts' force rounding
** held. */
static double toy_event_tol(const nsm_sim *s, int j, int closed, const double *y, double gt)
{
    (void)j;
    return closed ? rt_force_tol(s, s->mode, y) : gt;
}

/* At t = 0: a penetrated toy gap is refused, a touching one left to
** settle. */
static int toy_initial(nsm_sim *s, int j, double gap, double rate, double tol)
{
    (void)rate;
    if (gap < -tol)
        return rt_fail(s, NSM_EMODEL, j, "initial state penetrates the gap (gap = %.6g)", gap);
    return NSM_OK;
}

/* Every event logged at a toy gap is counted. */
static void toy_on_event(nsm_sim *s, const nsm_event *ev)
{
    (void)s, (void)ev;
    toy_events++;
}

static const rt_law toy_law = {
    .name = "toy",
    .constraint = 1,
    .event = toy_event,
    .event_tol = toy_event_tol,
    .initial = toy_initial,
    .setup = toy_setup,
    .transition = toy_transition,
    .on_event = toy_on_event,
};

/* Register the toy law under TOY_LAW (the program's one registration). */
int toy_law_register(void)
{
    return rt_law_register(TOY_LAW, &toy_law);
}
