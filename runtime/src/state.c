/*
** state.c: the owner of the current state and of the transitions' energy
** record.
**
** The current time `t`, the state vector `y` (positions, velocities, the
** energy integrals and the forcing generator's states, N values) and the
** mode `mode` (which contacts are held, which friction elements stick and
** the slip directions), the time switches' states `sw` (and their flips'
** times) and the last transition's time and column are written here and
** nowhere else; so is
** `transition_loss`, the energy the transitions (impacts, projections,
** frictional impulses, Zeno jumps) removed since the reset, net of the
** moving surfaces' work through impulses.  Every other file reads them and
** changes them through these calls (tests/layers.py checks the direct
** writes).  Not yet here: the impulses of a transition change the
** velocities in place through a pointer into y (transition.c, friction.c,
** zeno.c), which the check cannot see.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

/* Allocate the state vector (N, zero), the mode (mode_words words, no contact
** held) and the switches (ns); NSM_ENOMEM when one fails (rt_state_free
** frees what was). */
int rt_state_alloc(nsm_sim *s)
{
    size_t ns = s->n_switches ? (size_t)s->n_switches : 1;
    s->y = calloc(s->n_state ? (size_t)s->n_state : 1, sizeof(double));
    s->mode = calloc((size_t)s->mode_words, sizeof(unsigned));
    s->sw = calloc(ns, sizeof(int));
    s->sw_last = calloc(ns, sizeof(double));
    s->marks_now = calloc((size_t)s->mode_words, sizeof(unsigned));
    return s->y && s->mode && s->sw && s->sw_last && s->marks_now ? NSM_OK : NSM_ENOMEM;
}

/* Free what rt_state_alloc allocated. */
void rt_state_free(nsm_sim *s)
{
    free(s->y);
    free(s->mode);
    free(s->sw);
    free(s->sw_last);
    free(s->marks_now);
    s->marks_now = NULL;
    s->y = NULL;
    s->mode = NULL;
    s->sw = NULL;
    s->sw_last = NULL;
}

/* Back to the start of a run: t = 0, no contact held, no energy removed
** by transitions (the state vector is set by the reset afterwards). */
void rt_state_clear(nsm_sim *s)
{
    s->t = 0;
    rt_state_mode_clear(s);
    s->transition_loss = 0;
    s->last_transition_t = -1;
    s->last_transition_j = -1;
    rt_mode_none(s, s->marks_now);
    rt_state_inputs_changed(s);
}

/* Something the derivative reads beside t, y and mode may have changed
** (a switch, a parameter, a reset, a transition, the mode itself): the
** derivatives the adaptive method keeps for reuse (step.c, RtFsal) were
** computed under an older generation and are not read again. */
void rt_state_inputs_changed(nsm_sim *s)
{
    s->inputs_gen++;
}

/* The time alone moves to t (a failure's time, or the state is unchanged). */
void rt_state_set_time(nsm_sim *s, double t)
{
    s->t = t;
}

/* The state becomes (t, y), y holding all N values (the quaternions of
** bodies in space scaled back to unit length, rigid.c). */
RT_HOT void rt_state_set(nsm_sim *s, double t, const double *y)
{
    s->t = t;
    if (y != s->y)
        memcpy(s->y, y, sizeof(double) * (size_t)s->n_state);
    if (s->n_pos != s->n_vel)          /* rotations to normalise (bodies in space) */
        rt_rigid_normalise(s, s->y);
}

/* After every change of the mode: whether it holds a constraint gap
** (mode_holds, read by the derivative at every evaluation: a flight's
** needs no look at the mode's words). */
static void mode_changed(nsm_sim *s)
{
    s->mode_holds = rt_mode_holds_constraint(s, s->mode);
    rt_state_inputs_changed(s);
}

/* Element j (a contact held, or a friction column's bit) joins the mode. */
void rt_state_mode_add(nsm_sim *s, int j)
{
    rt_mode_add(s->mode, j);
    mode_changed(s);
}

/* Element j leaves the mode. */
void rt_state_mode_del(nsm_sim *s, int j)
{
    rt_mode_del(s->mode, j);
    mode_changed(s);
}

/* Element j changes side: in the mode if it was out, out if it was in. */
void rt_state_mode_flip(nsm_sim *s, int j)
{
    rt_mode_flip(s->mode, j);
    mode_changed(s);
}

/* No element in the mode: no contact held, every friction element free. */
void rt_state_mode_clear(nsm_sim *s)
{
    rt_mode_none(s, s->mode);
    s->mode_holds = 0;
    rt_state_inputs_changed(s);
}

/* The mode becomes mode (mode_words words). */
void rt_state_mode_set(nsm_sim *s, const unsigned *mode)
{
    rt_mode_copy(s, s->mode, mode);
    mode_changed(s);
}

/* Time switch k turns on (on 1) or off (0) at time t. */
void rt_state_switch_set(nsm_sim *s, int k, int on, double t)
{
    s->sw[k] = on;
    s->sw_last[k] = t;
    rt_state_inputs_changed(s);
}

/* A transition of event column j took place now: its time and column
** are kept, so that the detection does not find that impact again, and
** j joins the columns with a transition at this instant (marks_now, cleared
** when the time moves on). */
void rt_state_transition_mark(nsm_sim *s, int j)
{
    if (s->t != s->last_transition_t)
        rt_mode_none(s, s->marks_now);
    s->last_transition_t = s->t;
    s->last_transition_j = j;
    rt_mode_add(s->marks_now, j);
    rt_state_inputs_changed(s);
}

/* Whether event column j has had a transition at this very instant (not
** only the last one: two touching contacts at rest, each landed in turn,
** would otherwise be found again at the same instant for ever). */
int rt_state_marked_now(const nsm_sim *s, int j)
{
    return s->t == s->last_transition_t && rt_mode_has(s->marks_now, j);
}

/* A transition removed the energy lost (negative: it added energy, e.g. a
** moving surface's work through an impulse). */
void rt_transition_loss_add(nsm_sim *s, double lost)
{
    s->transition_loss += lost;
}

/* Whether the cubic through switch k's values fa, fb and slopes da, db at
** the ends of [a, a + L] gives its value and slope at the inner point a +
** u L within 1e-2 of the values' and the slopes' sizes there (and the
** values' rounding). */
static int switch_fits(const nsm_sim *s, int k, double a, double L, double u, double fa,
                       double da, double fb, double db)
{
    double f, d, x = a + u * L;
    s->m->switch_fn(k, x, s->params, s->consts, &f, &d);
    if (!isfinite(f + d))
        return 1;
    /* the Hermite cubic's basis at u, and its derivative's */
    double h00 = (1 + 2 * u) * (1 - u) * (1 - u), h10 = u * (1 - u) * (1 - u);
    double h01 = u * u * (3 - 2 * u), h11 = u * u * (u - 1);
    double g00 = 6 * u * u - 6 * u, g10 = 3 * u * u - 4 * u + 1, g11 = 3 * u * u - 2 * u;
    double p = h00 * fa + h10 * L * da + h01 * fb + h11 * L * db;
    double q = (g00 * (fa - fb)) / L + g10 * da + g11 * db;
    /* the values' and slopes' own sizes, and the rounding of the values */
    double fs = fmax(fmax(fabs(fa), fabs(fb)), fabs(f)), ds = fmax(fmax(fabs(da), fabs(db)), fabs(d));
    double ef = 1e-14 * (fs + (fabs(a) + fabs(a + L)) * ds);
    return fabs(f - p) <= 1e-2 * fs + ef && fabs(d - q) <= 1e-2 * ds + 6 * ef / L;
}

/* Whether switch k's function is affine in t (the model's switch_affine,
** nsm/model.h): at most one zero, and followed by the ends of any step,
** so its follow test and grid scan are not run (a threshold `t <= 1 s`
** read five times a step was 6 % of a small model's run by exact). */
int rt_switch_affine(const nsm_sim *s, int k)
{
    return s->m->switch_affine && s->m->switch_affine[k];
}

/* Whether switch k is followed faithfully over [a, b] by its ends: the
** cubic through its values and slopes at a and b gives its value and slope
** at three inner points (the golden sections of [a, b] and a point a
** ninth of the way, so that a span of whole periods of an oscillating
** condition does not look flat) within 1e-2 of the values' and the slopes'
** sizes there (switch_fits).  Within that, the function turns at most once
** on [a, b], which the run loop finds (run.c, switch_pulse), and a Zeno
** jump whose tail it follows sees it (zeno.c, zeno_switch_within).  One
** inner point was too few: the slope of t + 0.00114 sin(1307 t) at the
** golden section of a step of 0.7 s (146 periods) came within 1e-2 of the
** cubic's by chance, and two crossings of 0.656 were missed (exit 0);
** and one golden section alone let a sine pass now and then over several
** periods (sin(1e6 t) > 0.999999 over 3.8 periods of an rk4 step: 45
** pulses missed, exit 0; about 1 span in 3e5 of 1 to 100 periods). */
int rt_switch_followed(const nsm_sim *s, int k, double a, double b)
{
    static const double inner[] = { 0.3819660112501051, 0.6180339887498949, 0.1111111111111111 };
    if (rt_switch_affine(s, k))
        return 1;
    double fa, da, fb, db, L = b - a;
    s->m->switch_fn(k, a, s->params, s->consts, &fa, &da);
    s->m->switch_fn(k, b, s->params, s->consts, &fb, &db);
    if (!isfinite(fa + da + fb + db))
        return 1;
    for (size_t i = 0; i < sizeof inner / sizeof inner[0]; i++)
        if (!switch_fits(s, k, a, L, inner[i], fa, da, fb, db))
            return 0;
    return 1;
}
