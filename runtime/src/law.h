/*
** law.h: the table of contact laws (laws.c) and the interface each law
** provides (docs/runtime.md, "How to add a contact law").
**
** A gap's law (nsm_gap_info.law) indexes the table; the friction
** elements' event columns have the friction law (law_friction.c).  A law says which of
** the runtime's two contact mechanics carries its closed gap, and gives
** what is its own:
**   constraint  1: the closed gap is a unilateral constraint, held shut by
**               the force LCP (settle), reached by an impact whose
**               restitution is the law's (restitution below); 0: the closed
**               gap is a force element k p^a + c p' of its penetration
**               p = -gap (the penalty law)
**   event       the gap's event function and its rate at a state (rk4's
**               and adaptive's event source; the exact and taylor methods'
**               is form): its zero is where the law's transition or
**               impact happens
**   event_tol   the rounding level of that event function at y (gap_tol:
**               the gap's, rt_gap_tol): below it a value is no crossing
**   form        the same event function for the exact and taylor methods:
**               the held constraint's force, or a linear form of the gap and
**               its rate (and a second one whose maximum is taken); its
**               zeros must be event's (mode.c, modeop.c)
**   restitution the law's impulse rule at an impact of a constraint gap
**               approached at the normal relative velocity vb < 0 (at
**               the state the impact happens in): the coefficient r with
**               which the normal relative velocity after the impact is
**               -r vb.  Any rule of the approach speed and state is one
**               (a target velocity v+ is r = -v+ / vb); Newton's is a
**               constant (the impact law's num.e[j]).  vb = 0 asks the
**               limit of a vanishing approach (a Zeno cascade's tail, the
**               model's check).  Every impulse problem asks it
**               (transition.c's sequential, simultaneous and energetic
**               laws, friction.c's frictional impacts of one or several
**               contacts, zeno.c's detection and tails and step.c's
**               through them, the studies' saltation matrices).  Required
**               when constraint is set
**   restitution_slope  dr/dvb at vb, for the saltation matrices (the
**               derivative of the velocity after the impact with respect
**               to the one before is -(r + vb dr/dvb)); NULL: r does not
**               depend on vb
**   initial     at t = 0, the gap at (gap, rate): engages it (a force
**               element) through rt_state_mode_add, or refuses a state it
**               cannot start from (rt_fail's status); constraint gaps
**               touching are decided by settle after it
**   setup       after the model filled its numeric parameters: checks the
**               gap's (and may fix the values the law sets itself);
**               non-zero with s->msg written refuses the model
**   transition  what happens at the gap's event other than an impact (the
**               separation of a held gap, a force element's engagement or
**               release): changes the mode through the state's setters,
**               logs the event, ends with rt_settle (transition.c)
**   stored      the energy stored in the closed gap at y (NULL: none)
**   damping     the viscous coefficient c of the closed gap: it
**               dissipates c (w.v)^2 (NULL: none); a function of the
**               parameters alone, read once at each setup (rt_law_setup)
**   on_event    told of every event logged at the gap, after the
**               runtime's statistics took it (the law's own; NULL: none)
**   force       a force element's force at the penetration p = -gap and
**               its rate p' (the penalty law's k p^a + c p'), elastic in p
**               plus the damper c p' (c: damping): its term in the
**               equations of motion, the normal force of the friction
**               elements on the gap, the audit's force residual.  Required
**               when constraint is 0
**   force_rate  that force's time derivative from p, p' and p'' (the
**               penalty law's k a p^(a-1) p' + c p''), for the events'
**               rates of nonlinear models.  Required when constraint is 0
**   stiffness   the stiffness k of that force's linear part k p + c p'
**               (c: damping): the force in the exact method's linear rows
**               and the friction normal's (NULL: 0)
**   linear      nonzero when the force is exactly k p + c p' (the penalty
**               law with a = 1), which linear models and the exact method
**               need; NULL: a nonlinear force, which only a model declared
**               nonlinear (nsm_model.nl) may have
**   series      order k of the force's Taylor series over a step, from the
**               orders 0..k of p and p' and the law's own series w (K + 1
**               values per gap, orders 0..k-1 as it left them: the penalty
**               law's p^a): the taylor method of nonlinear models (NULL:
**               that method refuses the law)
**   onset       the force's elastic part near p = 0 as c0 p^a: returns c0
**               and sets a.  a other than 1 (a series that branches at
**               p = 0) lets the taylor method leave the force out while p
**               is within rounding of 0 (NULL: a = 1)
**   impulse     the integral of the force over a step of length h, from
**               (p, p') at its start to its end, for the contact
**               statistics (NULL: stats.c's 4-point Gauss quadrature of
**               the elastic force on the cubic Hermite interpolant of p,
**               plus the damper's c (p1 - p0))
**   closed_gap_event  nonzero when the closed gap's event function is its
**               penetration -gap (a penalty gap released when the gap
**               opens), not its force (NULL: its force)
** Lower layers read the table (rt_law_of and the predicates below, no
** calls); the laws' functions, called through it, sit in the transitions'
** layer (tests/layers.py).
*/
#ifndef NSM_LAW_H
#define NSM_LAW_H

#include <math.h>

#include "rt.h"

#define RT_LAWS 8             /* law identifiers 0 .. RT_LAWS - 1 */

/* A gap's kinematics at one state, for its law's event function: the gap,
** its rate and acceleration (w.x + d + h, w.v + h', w.a + h''), and when
** held as a constraint its force lambda and lambda's rate. */
typedef struct rt_gap_kin {
    double gap, rate, acc, force, force_rate;
} rt_gap_kin;

/* A gap's event function as the exact and taylor methods build it, from
** the gap's linear forms over a step: the held constraint's force (force
** set: the mode's rows of lambda, mode.c), or sx gap + sv gap', and, when
** second is set, the larger of that and sx2 gap + sv2 gap'. */
typedef struct rt_gap_form {
    int force;
    double sx, sv;
    int second;
    double sx2, sv2;
} rt_gap_form;

struct rt_law {
    const char *name;
    int constraint;
    void (*event)(const nsm_sim *s, int j, int closed, const rt_gap_kin *k, double *ev,
                  double *evd);
    double (*event_tol)(const nsm_sim *s, int j, int closed, const double *y, double gap_tol);
    void (*form)(const nsm_sim *s, int j, int closed, rt_gap_form *f);
    double (*restitution)(const nsm_sim *s, int j, double vb);
    double (*restitution_slope)(const nsm_sim *s, int j, double vb);
    int (*initial)(nsm_sim *s, int j, double gap, double rate, double gap_tol);
    int (*setup)(nsm_sim *s, int j);
    int (*transition)(nsm_sim *s, int j, unsigned *forget);
    double (*stored)(const nsm_sim *s, int j, const double *y);
    double (*damping)(const nsm_sim *s, int j);
    void (*on_event)(nsm_sim *s, const nsm_event *ev);
    double (*force)(const nsm_sim *s, int j, double p, double pd);
    double (*force_rate)(const nsm_sim *s, int j, double p, double pd, double pdd);
    double (*stiffness)(const nsm_sim *s, int j);
    int (*linear)(const nsm_sim *s, int j);
    double (*series)(const nsm_sim *s, int j, int k, const double *p, const double *pd,
                     double *w);
    double (*onset)(const nsm_sim *s, int j, double *a);
    double (*impulse)(const nsm_sim *s, int j, double h, const double p[2], const double pd[2]);
    int (*closed_gap_event)(const nsm_sim *s, int j);
};
typedef struct rt_law rt_law;

extern const rt_law rt_law_impact, rt_law_penalty, rt_law_friction;

/* The impact law's members (law_impact.c), for laws whose closed gap is a
** constraint like impact's: the gap open and its force held as the event
** function, their rounding levels, the refusal of a penetrated start, and
** the held gap's separation. */
void rt_law_impact_event(const nsm_sim *s, int j, int closed, const rt_gap_kin *k, double *ev,
                         double *evd);
double rt_law_impact_event_tol(const nsm_sim *s, int j, int closed, const double *y, double gt);
void rt_law_impact_form(const nsm_sim *s, int j, int closed, rt_gap_form *f);
double rt_law_impact_restitution(const nsm_sim *s, int j, double vb);
int rt_law_impact_initial(nsm_sim *s, int j, double gap, double rate, double tol);
int rt_law_impact_transition(nsm_sim *s, int j, unsigned *forget);

/* The penalty law's engagement or release of a force element (law_penalty.c),
** for force laws that change their mode as it does. */
int rt_law_penalty_transition(nsm_sim *s, int j, unsigned *forget);
extern const rt_law *rt_law_table[RT_LAWS];

int rt_law_register(int id, const rt_law *law);
int rt_law_known(int id);
int rt_law_bind(nsm_sim *s);
void rt_law_free(nsm_sim *s);
int rt_law_setup(nsm_sim *s);

/* The law of gap j (bound when the simulation was created). */
static inline const rt_law *rt_law_of(const nsm_sim *s, int j)
{
    return s->law[j];
}

/* The law of event column j: gap j's, or friction's for the friction
** elements' columns g .. ge - 1. */
static inline const rt_law *rt_law_column(const nsm_sim *s, int j)
{
    return j < s->n_gaps ? rt_law_of(s, j) : &rt_law_friction;
}

/* Whether gap j's law is the constraint mechanics (law.h, constraint):
** closing, the gap is reached by an impact (an impulse problem with its
** law's restitution); closed, it is held by the force LCP, its force the
** multiplier lambda, and never penetrates.  Else its closed gap is a force
** element (engaged, released).  The one question of the two mechanics. */
static inline int rt_law_impacts(const nsm_sim *s, int j)
{
    return rt_law_of(s, j)->constraint;
}

/* The value of a law's event form f (rt_gap_form, not a held force's) at
** a gap and its rate: sx gap + sv gap', or the larger of that and
** sx2 gap + sv2 gap' when f->second (the rate read only where a term has
** it). */
static inline double rt_law_form_at(const rt_gap_form *f, double gap, double rate)
{
    double v = f->sv ? f->sx * gap + f->sv * rate : f->sx * gap;
    return f->second ? fmax(v, f->sx2 * gap + f->sv2 * rate) : v;
}

/* The restitution of constraint gap j at an impact approached at the
** normal relative velocity vb (< 0; 0: the limit of a vanishing approach),
** its law's impulse rule (law.h, restitution): the normal relative velocity
** after the impact is minus this times vb.  The one place the impulse
** problems of every path learn a contact's rule. */
static inline double rt_law_restitution(const nsm_sim *s, int j, double vb)
{
    return rt_law_of(s, j)->restitution(s, j, vb);
}

/* The derivative of that restitution with respect to vb (0 for a law
** without restitution_slope: a constant coefficient), for the saltation
** matrices of the studies. */
static inline double rt_law_restitution_slope(const nsm_sim *s, int j, double vb)
{
    const rt_law *law = rt_law_of(s, j);
    return law->restitution_slope ? law->restitution_slope(s, j, vb) : 0;
}

/* Whether gap j is held shut as a constraint in mode: closed, and its law's
** closed gap a unilateral constraint (its force the LCP's lambda). */
static inline int rt_law_held(const nsm_sim *s, const unsigned *mode, int j)
{
    return rt_mode_has(mode, j) && rt_law_of(s, j)->constraint;
}

/* Whether gap j is engaged as a force element in mode: closed, and its
** law's closed gap a force k p^a + c p' (penalty). */
static inline int rt_law_engaged(const nsm_sim *s, const unsigned *mode, int j)
{
    return rt_mode_has(mode, j) && !rt_law_of(s, j)->constraint;
}

/* The energy stored in the closed gaps of mode at y: the sum of their laws'
** stored energies (the penalty law's spring, 1/2 k p^2 for p = -gap), counted
** in the mechanical energy and the audit's contacts term. */
static inline double rt_law_stored(const nsm_sim *s, const unsigned *mode, const double *y)
{
    double e = 0;
    for (int j = 0; j < s->n_gaps; j++)
        if (rt_law_of(s, j)->stored && rt_mode_has(mode, j))
            e += rt_law_of(s, j)->stored(s, j, y);
    return e;
}

/* The viscous coefficient c of closed gap j: its law's damping (0 for a
** law without one), for a mode known to close it (the exact method's
** operator of a mode); read from the law when the laws were set up
** (rt_law_setup), since it depends on the parameters alone. */
static inline double rt_law_closed_damping(const nsm_sim *s, int j)
{
    return s->law_c[j];
}

/* The viscous coefficient of gap j in mode: its law's damping when the gap
** is closed (it dissipates c (w.v)^2 there), else 0. */
static inline double rt_law_damping(const nsm_sim *s, const unsigned *mode, int j)
{
    return rt_mode_has(mode, j) ? rt_law_closed_damping(s, j) : 0;
}

/* The force of force-element gap j (its law's force, law.h) at the
** penetration p and its rate pd. */
static inline double rt_law_force(const nsm_sim *s, int j, double p, double pd)
{
    return rt_law_of(s, j)->force(s, j, p, pd);
}

/* The rate of force-element gap j's force at p, p' and p'' (its law's
** force_rate, law.h). */
static inline double rt_law_force_rate(const nsm_sim *s, int j, double p, double pd, double pdd)
{
    return rt_law_of(s, j)->force_rate(s, j, p, pd, pdd);
}

/* Whether force-element gap j's force is exactly k p + c p' (law.h,
** linear). */
static inline int rt_law_linear(const nsm_sim *s, int j)
{
    const rt_law *law = rt_law_of(s, j);
    return law->linear && law->linear(s, j);
}

/* Force-element gap j's force near p = 0 as c0 p^a: c0, and a into *a (a
** law without onset: a = 1, its series does not branch there, and c0 is
** not asked). */
static inline double rt_law_onset(const nsm_sim *s, int j, double *a)
{
    const rt_law *law = rt_law_of(s, j);
    if (law->onset)
        return law->onset(s, j, a);
    *a = 1;
    return 0;
}

/* The stiffness k of force-element gap j's linear force k p + c p' (0 for
** a law without stiffness). */
static inline double rt_law_stiffness(const nsm_sim *s, int j)
{
    const rt_law *law = rt_law_of(s, j);
    return law->stiffness ? law->stiffness(s, j) : 0;
}

/* Whether closed gap j's event function is its penetration -gap rather
** than its force (law.h, closed_gap_event). */
static inline int rt_law_closed_gap_event(const nsm_sim *s, int j)
{
    const rt_law *law = rt_law_of(s, j);
    return law->closed_gap_event && law->closed_gap_event(s, j);
}

#endif
