/*
** toy_law.c: a contact law written outside the runtime, to show that the
** law interface (runtime/src/law.h) is enough to add one.
**
** The toy law is an impact law whose impulse rule is its own and not
** Newton's: a restitution that falls with the approach speed,
** e(v) = TOY_E / (1 + |v| / toy_v0) (a soft contact loses more at a harder
** hit; toy_v0 = INFINITY gives Newton's constant TOY_E), whatever the
** model's parameters say (num.e stays the model's, so a path that read it
** instead of asking the law would apply the model's e, and a path that
** asked the law without the approach speed would apply TOY_E), and which
** counts the events at its gaps and its own transitions.  Its closed gap
** is a constraint (the runtime's complementarity holds it, every impulse
** problem asks its restitution at its approach speed); its event function,
** tolerance, initial check and separation are the impact law's
** (rt_law_impact_*, law.h).
*/
#include "toy_law.h"

#include <math.h>

#include "law.h"

long toy_events, toy_transitions;
double toy_v0 = INFINITY;

/* The toy law's counts start at every reset. */
static int toy_setup(nsm_sim *s, int j)
{
    (void)s, (void)j;
    toy_events = toy_transitions = 0;
    return 0;
}

/* The toy law's impulse rule at an approach at vb: the restitution
** TOY_E / (1 + |vb| / toy_v0) at every gap of it (the model's e is not its
** concern). */
static double toy_restitution(const nsm_sim *s, int j, double vb)
{
    (void)s, (void)j;
    return TOY_E / (1 + fabs(vb) / toy_v0);
}

/* Its derivative with respect to vb (the saltation matrices'). */
static double toy_restitution_slope(const nsm_sim *s, int j, double vb)
{
    (void)s, (void)j;
    double d = 1 + fabs(vb) / toy_v0;
    return (vb < 0 ? 1 : -1) * TOY_E / (toy_v0 * d * d);
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
    .restitution_slope = toy_restitution_slope,
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
