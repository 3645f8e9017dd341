/*
** toy_law.c: a contact law written outside the runtime, to show that the
** law interface (runtime/src/law.h) is enough to add one.
**
** The toy law is an impact law whose impulse rule is its own: Newton's
** restitution TOY_E, whatever the model's parameters say (num.e stays the
** model's, so a path that read it instead of asking the law would apply
** the model's e), and which counts the events at its gaps and its own
** transitions.  Its closed gap is a constraint (the runtime's
** complementarity holds it, every impulse problem asks its restitution);
** its event function, tolerance, initial check and separation are the
** impact law's (rt_law_impact_*, law.h).
*/
#include "toy_law.h"

#include "law.h"

long toy_events, toy_transitions;

/* The toy law's counts start at every reset. */
static int toy_setup(nsm_sim *s, int j)
{
    (void)s, (void)j;
    toy_events = toy_transitions = 0;
    return 0;
}

/* The toy law's impulse rule: restitution TOY_E at every gap of it (the
** model's e is not its concern). */
static double toy_restitution(const nsm_sim *s, int j)
{
    (void)s, (void)j;
    return TOY_E;
}

/* The held gap j separates, counted, then as at an impact gap: out of the
** mode, its impact history forgotten, the event logged, settle over the
** others with j held open (law_impact.c). */
static int toy_transition(nsm_sim *s, int j, unsigned *forget)
{
    toy_transitions++;
    return rt_law_impact_transition(s, j, forget);
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
    .event = rt_law_impact_event,         /* the gap open, its force held */
    .event_tol = rt_law_impact_event_tol,
    .form = rt_law_impact_form,           /* the same for exact and taylor */
    .restitution = toy_restitution,       /* its own impulse rule */
    .initial = rt_law_impact_initial,     /* a penetrated start refused */
    .setup = toy_setup,
    .transition = toy_transition,
    .on_event = toy_on_event,
};

/* Register the toy law under TOY_LAW (the program's one registration). */
int toy_law_register(void)
{
    return rt_law_register(TOY_LAW, &toy_law);
}
