/*
** force_law.c: a force law written outside the runtime, to show that the
** law interface (runtime/src/law.h) is enough to add a contact whose
** closed gap is a force element of a shape the runtime does not know.
**
** The exponential law: the engaged gap pushes with
**   f(p) = k d (exp(p / d) - 1)
** at the penetration p = -gap (stiffness k at contact, growing by e every
** d of penetration), stores V(p) = k d (d (exp(p / d) - 1) - p) and has no
** damper.  It engages when the gap closes and is released when it opens
** again (its event is the gap, then the penetration), as the penalty law
** released by gap, whose engagement and release it shares
** (rt_law_penalty_transition).  Its parameters are its own (FORCE_K,
** FORCE_D below), whatever the model's num.kc says, so a path that spelt
** the penalty law instead of asking this one would apply another force.
** Its Taylor series: E = exp(p / d) obeys E' = E p' / d, so
**   E_0 = exp(p_0 / d),  k E_k = sum_{i=1..k} i (p_i / d) E_{k-i},
** and f_k = k d (E_k - [k = 0]).
*/
#include "force_law.h"

#include <math.h>

#include "law.h"

/* The law's force at penetration p (its rate p' moves no damper). */
static double exp_force(const nsm_sim *s, int j, double p, double pd)
{
    (void)s, (void)j, (void)pd;
    return FORCE_K * FORCE_D * expm1(p / FORCE_D);
}

/* Its rate: f'(p) p' = k exp(p / d) p'. */
static double exp_force_rate(const nsm_sim *s, int j, double p, double pd, double pdd)
{
    (void)s, (void)j, (void)pdd;
    return FORCE_K * exp(p / FORCE_D) * pd;
}

/* Its stiffness at contact, f'(0) = k: the force's linear part. */
static double exp_stiffness(const nsm_sim *s, int j)
{
    (void)s, (void)j;
    return FORCE_K;
}

/* Order k of the force over a step from the orders 0..k of p: the series
** of E = exp(p / d) in w (the recurrence above), f_k = k d (E_k - [k = 0]). */
static double exp_series(const nsm_sim *s, int j, int k, const double *p, const double *pd,
                         double *w)
{
    (void)s, (void)j, (void)pd;
    if (k == 0) {
        w[0] = exp(p[0] / FORCE_D);
        return FORCE_K * FORCE_D * expm1(p[0] / FORCE_D);
    }
    double r = 0;
    for (int i = 1; i <= k; i++)
        r += i * p[i] * w[k - i];
    w[k] = r / (k * FORCE_D);
    return FORCE_K * FORCE_D * w[k];
}

/* The energy the engaged gap j stores at y: V at its penetration. */
static double exp_stored(const nsm_sim *s, int j, const double *y)
{
    double p = -rt_gap(s, j, y);
    return FORCE_K * FORCE_D * (FORCE_D * expm1(p / FORCE_D) - p);
}

/* The event function: the gap while open (it engages at contact), the
** penetration while engaged (released when the gap opens again). */
static void exp_event(const nsm_sim *s, int j, int closed, const rt_gap_kin *k, double *ev,
                      double *evd)
{
    (void)s, (void)j;
    *ev = closed ? -k->gap : k->gap;
    *evd = closed ? -k->rate : k->rate;
}

/* The same for the exact and taylor methods: gap or -gap. */
static void exp_form(const nsm_sim *s, int j, int closed, rt_gap_form *f)
{
    (void)s, (void)j;
    *f = (rt_gap_form){ .sx = closed ? -1 : 1 };
}

/* The event function's rounding level: the gap's. */
static double exp_event_tol(const nsm_sim *s, int j, int closed, const double *y, double gt)
{
    (void)s, (void)j, (void)closed, (void)y;
    return gt;
}

/* At t = 0 the gap starts engaged when penetrated, or touching and closing. */
static int exp_initial(nsm_sim *s, int j, double gap, double rate, double tol)
{
    if (gap < -tol || (gap <= tol && rate < 0))
        rt_state_mode_add(s, j);
    return NSM_OK;
}

/* The engaged gap's event function is its penetration, not its force. */
static int exp_closed_gap_event(const nsm_sim *s, int j)
{
    (void)s, (void)j;
    return 1;
}

static const rt_law force_law = {
    .name = "exponential",
    .constraint = 0,                      /* a force element */
    .event = exp_event,
    .event_tol = exp_event_tol,
    .form = exp_form,
    .initial = exp_initial,
    .transition = rt_law_penalty_transition,
    .stored = exp_stored,
    .force = exp_force,
    .force_rate = exp_force_rate,
    .stiffness = exp_stiffness,
    .series = exp_series,
    .closed_gap_event = exp_closed_gap_event,
};

/* Register the exponential law as law number FORCE_LAW: the program's one
** line.  NSM_OK or the registration's status. */
int force_law_register(void)
{
    return rt_law_register(FORCE_LAW, &force_law);
}
