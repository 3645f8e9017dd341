/*
** step.c: integrators inside a mode and the location of events.
**
**   rk4       classical Runge-Kutta, fixed step dt
**   adaptive  Dormand-Prince 5(4) with error control (J. R. Dormand and
**             P. J. Prince, J. Comput. Appl. Math. 6(1), 1980)
**   exact     the mode is linear, y' = A y + B z + b with z' = G z the
**             forcing's generator: exp of the augmented matrix, energies by
**             Van Loan's integrals of the quadratic rates; steps of dt on a
**             grid anchored where the mode was entered (see "The anchor")
**
** rk4 and adaptive locate events by the recast of M. Henon (Physica D 5,
** 1982), written once for every event function s: dY/ds = Y'/s', dt/ds =
** 1/s', one step from s(t0) to 0 (the force step of Dedow and Murphy, 2021,
** is the same with s = lambda), polished by Newton on the method's own step.
** The exact method finds its zeros on the step's Taylor expansion
** (taylor.c, events.c) and lands with the states this file keeps.
*/
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "law.h"
#include "dp5.h"
#include "linalg.h"
#include "rt.h"

/* Y1 = Y + h * k, over N entries. */
static void axpy(int N, const double *Y, double h, const double *k, double *Y1)
{
    for (int i = 0; i < N; i++)
        Y1[i] = Y[i] + h * k[i];
}

/* One classical RK4 step of size h in the current mode. */
RT_HOT static int rk4_step(nsm_sim *s, double t, const double *Y, double h, double *Y1)
{
    int N = s->n_state, rc;
    double k1[N], k2[N], k3[N], k4[N], T[N];
    if ((rc = rt_deriv(s, s->mode, t, Y, k1)))
        return rc;
    axpy(N, Y, h / 2, k1, T);
    if ((rc = rt_deriv(s, s->mode, t + h / 2, T, k2)))
        return rc;
    axpy(N, Y, h / 2, k2, T);
    if ((rc = rt_deriv(s, s->mode, t + h / 2, T, k3)))
        return rc;
    axpy(N, Y, h, k3, T);
    if ((rc = rt_deriv(s, s->mode, t + h, T, k4)))
        return rc;
    for (int i = 0; i < N; i++)
        Y1[i] = Y[i] + h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
    return NSM_OK;
}

/* The Dormand-Prince 5(4) tableau: dp5.h. */

/* The error estimate E (positions, velocities) seen by the engaged penalty
** contacts: their penetration and its rate, each relative to its own size.
** Weighed by the positions' size alone, a stiff contact's exit velocity
** carries the positions' tolerance divided by a penetration a thousand
** times smaller, and the motion after a hundred contacts drifts by that
** much (the sum of squares added to the step's norm). */
static double dp_contact_error(const nsm_sim *s, const double *Y, const double *Y1,
                               const double *E)
{
    int n = s->n_vel;
    double sum = 0;
    for (int j = 0; j < s->n_gaps; j++) {
        if (!rt_law_engaged(s, s->mode, j))
            continue;
        double wd[n];
        const double *w = rt_dense_wrow(s, j, wd);
        double p0 = rt_dot(n, w, Y) + s->num.d[j], p1 = rt_dot(n, w, Y1) + s->num.d[j];
        double r0 = rt_dot(n, w, rt_vel(s, Y)), r1 = rt_dot(n, w, rt_vel(s, Y1));
        double sp = s->set.atol + s->set.rtol * fmax(fabs(p0), fabs(p1));
        double sr = s->set.atol + s->set.rtol * fmax(fabs(r0), fabs(r1));
        double ep = rt_dot(n, w, E) / sp, er = rt_dot(n, w, rt_vel(s, E)) / sr;
        sum += ep * ep + er * er;
    }
    return sum;
}

/* Whether the adaptive method may keep its derivatives for reuse (RtFsal):
** only where rt_deriv is a function of (t, y, mode) and of what
** inputs_gen follows, nothing else: the adaptive method itself (not the
** taylor method's fallback), a linear model's derived modes() (no state
** dependent forces, mass matrix or caches the generic path fills), no
** penalty contacts, no moving surfaces, no bodies in space. */
static int fsal_allowed(const nsm_sim *s)
{
    return s->set.method == NSM_METHOD_ADAPTIVE && !s->m->nl && s->m->modes && s->m->deriv &&
           !s->n_force_gaps && !s->moving && !s->n_space_fric && s->n_pos == s->n_vel;
}

/* Allocate the kept last stage in one block (first use); nonzero when it
** fails (the steps then evaluate every first stage). */
RT_COLD static int fsal_alloc(nsm_sim *s)
{
    RtFsal *c = &s->fsal;
    size_t N = (size_t)s->n_state, w = (size_t)s->mode_words;
    c->block = malloc(2 * N * sizeof(double) + w * sizeof(unsigned) + 1);
    if (!c->block)
        return 1;
    c->y = c->block;
    c->k = c->y + N;
    c->mode = (unsigned *)(c->k + N);
    c->used = 0;
    return 0;
}

/* Free it. */
void rt_fsal_free(nsm_sim *s)
{
    free(s->fsal.block);
    s->fsal.block = NULL;
    s->fsal.used = 0;
}

/* Whether the n doubles a and b have the same bits (not ==: 0 and -0
** differ, and a NaN is the same as itself), one 8-byte word at a time. */
static int same_bits(const double *a, const double *b, int n)
{
    for (int i = 0; i < n; i++) {
        uint64_t x, y;
        memcpy(&x, a + i, sizeof x);
        memcpy(&y, b + i, sizeof y);
        if (x != y)
            return 0;
    }
    return 1;
}

/* Whether c holds f(t, Y) in the current mode under the current
** inputs_gen: the time's bits, the whole state's and the mode's words. */
static int fsal_holds(const nsm_sim *s, const RtFsal *c, double t, const double *Y)
{
    if (!c->used || c->gen != s->inputs_gen || !same_bits(&c->t, &t, 1) ||
        !same_bits(c->y, Y, s->n_state))
        return 0;
    for (int w = 0; w < s->mode_words; w++)
        if (c->mode[w] != s->mode[w])
            return 0;
    return 1;
}

/* Keep k = f(t, Y) in the current mode in c. */
static void fsal_keep(const nsm_sim *s, RtFsal *c, double t, const double *Y, const double *k)
{
    c->t = t;
    for (int i = 0; i < s->n_state; i++)
        c->y[i] = Y[i], c->k[i] = k[i];
    for (int w = 0; w < s->mode_words; w++)
        c->mode[w] = s->mode[w];
    c->gen = s->inputs_gen;
    c->used = 1;
}

/* The first stage k0 = f(t, Y) of adaptive's step: the last step's last
** stage when c holds exactly it, else evaluated. */
static int dp_first_stage(nsm_sim *s, const RtFsal *c, double t, const double *Y, double *k0)
{
    if (c && fsal_holds(s, c, t, Y)) {
        for (int i = 0; i < s->n_state; i++)
            k0[i] = c->k[i];
        return NSM_OK;
    }
    return rt_deriv(s, s->mode, t, Y, k0);
}

/* Stages 1 to 6 of a Dormand-Prince step of size h from k[0] = f(t, Y):
** the 5th order result in Y1 (stage 7 is evaluated there, at t + h:
** dp_c[6] is 1) and the weighted RMS norm of the embedded error estimate
** over (x, v) in *err.  k: 7 rows of n_state.  The loops over the stages
** are unrolled, so that the tableau's entries are constants in the code
** and the sums need no loop of their own: the same products, added in the
** same order (a zero entry's too), as the loops give. */
RT_HOT static int dp_stages(nsm_sim *s, double t, const double *Y, double h, int N, double k[][N],
                            double *Y1, double *err)
{
    int rc;
    if (N < 1)                  /* never (the energy integrals are two entries): T is written */
        return NSM_EINVAL;
    double T[N];
#pragma GCC unroll 7
    for (int st = 1; st < 7; st++) {
        for (int i = 0; i < N; i++) {
            double acc = 0;
#pragma GCC unroll 7
            for (int q = 0; q < st; q++)
                acc += dp_a[st][q] * k[q][i];
            T[i] = Y[i] + h * acc;
        }
        if ((rc = rt_deriv(s, s->mode, t + dp_c[st] * h, T, k[st])))
            return rc;
    }
    memcpy(Y1, T, sizeof(double) * N);   /* stage 7 is evaluated at the 5th order result */
    double sum = 0, E[s->n_pos + s->n_vel];
    int m = s->n_pos + s->n_vel;
    for (int i = 0; i < m; i++) {
        double e = 0;
#pragma GCC unroll 7
        for (int q = 0; q < 7; q++)
            e += dp_e[q] * k[q][i];
        E[i] = h * e;
        double sc = s->set.atol + s->set.rtol * fmax(fabs(Y[i]), fabs(Y1[i]));
        double r = E[i] / (sc > 0 ? sc : 1e-300);
        sum += r * r;
    }
    sum += dp_contact_error(s, Y, Y1, E);
    *err = sqrt(sum / m);
    return NSM_OK;
}

/* One Dormand-Prince step of size h: the 5th order result in Y1 and the
** weighted RMS norm of the embedded error estimate over (x, v) in *err. */
static int dp_step(nsm_sim *s, double t, const double *Y, double h, double *Y1, double *err)
{
    int N = s->n_state, rc;
    double k[7][N];
    if ((rc = rt_deriv(s, s->mode, t, Y, k[0])))
        return rc;
    return dp_stages(s, t, Y, h, N, k, Y1, err);
}

/* How far ahead, in refused steps, a singularity of the model is sought
** (rt_cause_ahead): the steps shrink as the motion nears it. */
#define RT_AHEAD 1024.0

/* The state y0 moved along its straight path for tau: positions q +
** qdot tau (qdot the kinematic map's at y0: the velocities themselves, or
** a body in space's rates of its position and quaternion), velocities as
** they are.  qdot: n_pos values. */
static void path_at(const nsm_sim *s, const double *y0, const double *qdot, double tau,
                    double *y)
{
    memcpy(y, y0, sizeof(double) * (size_t)(s->n_pos + s->n_vel));
    for (int i = 0; i < s->n_pos; i++)
        y[i] += qdot[i] * tau;
}

/* The configuration of y as "NAME = value, ..." into buf. */
static const char *config_text(const nsm_sim *s, const double *y, char *buf, size_t size)
{
    size_t at = 0;
    buf[0] = 0;
    for (int i = 0; i < s->n_vel && at + 40 < size; i++)
        at += (size_t)rt_text_printf(buf + at, size - at, "%s%s = %.6g", i ? ", " : "",
                                      s->m->body_names ? s->m->body_names[i] : "?", y[i]);
    return buf;
}

/* Where a singularity of the model is sought: from (t0, y0) along the
** straight path, within reach steps h; why ends the message (how the
** method met it). */
typedef struct {
    double t0, h, reach;
    const double *y0, *qdot;
    const char *why;
} RtAhead;

/* A Lagrangian M(q) whose determinant, falling at its present rate along
** the path, vanishes within the reach: the kinetic energy degenerates
** there and no step can cross it.  1 after rt_fail. */
static int mass_vanishing(nsm_sim *s, const RtAhead *a)
{
    double y[s->n_pos + s->n_vel], tau = a->h / 256;
    double d0 = rt_mass_det(s, a->y0);
    path_at(s, a->y0, a->qdot, tau, y);
    double d1 = rt_mass_det(s, y);
    if (!(d0 > 0))
        return 0;
    double ahead = d1 < 0 ? tau : d0 / ((d0 - d1) / tau);
    if (!(ahead > 0) || !(ahead <= a->reach * a->h))
        return 0;
    char now[300], then[300];
    path_at(s, a->y0, a->qdot, ahead, y);
    return rt_fail(s, NSM_ENUMERIC, -1, "the mass matrix M(q) becomes singular at about t = "
                   "%.10g s: det M(q) = %.3g at %s falls to zero within %.3g s at its present "
                   "rate, near %s (the kinetic energy degenerates there), and %s", a->t0 + ahead,
                   d0, config_text(s, a->y0, now, sizeof now), ahead,
                   config_text(s, y, then, sizeof then), a->why) != 0;
}

/* A state-dependent force that turns from moderate values (below 1e100:
** not a stiff force overflowing) to not finite along the path within the
** reach: a pole, or the edge of its domain (log or sqrt of zero or less);
** the crossing is found by bisection.  1 after rt_fail. */
static int force_pole(nsm_sim *s, const RtAhead *a)
{
    int i;
    double y[s->n_pos + s->n_vel], lo = 0, hi = 0, t0 = a->t0;
    if (!(rt_nl_force_size(s, t0, a->y0, &i) < 1e100))
        return 0;
    for (double tau = a->h; tau <= a->reach * a->h && !(hi > 0); tau *= 2) {
        path_at(s, a->y0, a->qdot, tau, y);
        double f = rt_nl_force_size(s, t0 + tau, y, &i);
        if (isnan(f))
            hi = tau;
        else if (!(f < 1e100))
            return 0;
        else
            lo = tau;
    }
    for (int k = 0; k < 64 && hi > 0; k++) {
        double mid = 0.5 * (lo + hi);
        path_at(s, a->y0, a->qdot, mid, y);
        *(isnan(rt_nl_force_size(s, t0 + mid, y, &i)) ? &hi : &lo) = mid;
    }
    if (!(hi > 0))
        return 0;
    path_at(s, a->y0, a->qdot, hi, y);
    rt_nl_force_size(s, t0 + hi, y, &i);
    char name[128], what[160];
    rt_nl_force_name(s, i, name, sizeof name);
    return rt_fail(s, NSM_ENUMERIC, -1, "the force %s%s%son %s is not finite at about t = %.10g "
                   "s, as the %s reaches %.10g: it grows without bound on the path (a pole, or the "
                   "edge of its domain such as log or sqrt of zero or less), and %s",
                   *name ? "'" : "", name, *name ? "' " : "",
                   s->m->body_names ? s->m->body_names[i] : "?", t0 + hi,
                   rt_state_label(s, i, what, sizeof what), y[i], a->why) != 0;
}

/* Either singularity of the model along the path a describes; 1 after
** rt_fail naming it. */
static int cause_near(nsm_sim *s, RtAhead *a)
{
    if (!(a->h > 0))
        return 0;
    double qdot[s->n_pos];
    rt_rigid_qdot(s, a->y0, qdot);
    for (int i = 0; i < s->n_pos; i++)
        if (!isfinite(qdot[i]))
            return 0;
    a->qdot = qdot;
    return (rt_mass_dense(s) && mass_vanishing(s, a)) || (s->m->nl_force && force_pole(s, a));
}

/* Before a step below the time resolution is blamed on the end time or on
** a stiffness: the motion may be running into a singularity of the model
** itself, a Lagrangian mass matrix that becomes singular or a force with
** a pole on the path, which no choice of step or end time can pass.  1
** after rt_fail naming it, 0 when neither is seen. */
RT_COLD int rt_cause_ahead(nsm_sim *s, double h)
{
    RtAhead a = { .t0 = s->t, .h = h, .reach = RT_AHEAD, .y0 = s->y,
                  .why = "the steps shrink below the time resolution of t as the motion nears it" };
    return cause_near(s, &a);
}

/* A fixed step h from (t0, y0) that failed (its state not finite, or the
** energy balance broken, symptoms only): the same singularities, sought
** within this step and the next few, are named as the cause.  1 after
** rt_fail, 0 when neither is seen. */
RT_COLD int rt_cause_step(nsm_sim *s, double t0, const double *y0, double h)
{
    char why[160];
    rt_text_printf(why, sizeof why, "%s's step of %.3g s from t = %.10g s runs into it",
                    nsm_method_name(s->set.method), h, t0);
    RtAhead a = { .t0 = t0, .h = h, .reach = 4, .y0 = y0, .why = why };
    return cause_near(s, &a);
}

/* Adaptive's smallest trial step, relative to 1 + |t| (its steps stop
** there even where the time axis resolves smaller ones). */
#define ADAPTIVE_FLOOR 1e-15

/* Whether adaptive's error control asks for less than a double's
** rounding: --rtol below DBL_EPSILON and --atol below DBL_EPSILON of the
** largest state, so that no step passes its test whatever the motion
** (--rtol 1e-300 --atol 0 was blamed on "the stiffnesses and masses"). */
static int tolerance_unmet(const nsm_sim *s)
{
    double ymax = 0;
    if (s->set.method != NSM_METHOD_ADAPTIVE || !(s->set.rtol < DBL_EPSILON))
        return 0;
    for (int i = 0; i < s->n_pos + s->n_vel; i++)
        ymax = fmax(ymax, fabs(s->y[i]));
    return s->set.atol < DBL_EPSILON * ymax;
}

/* A step h the method's own control asks for below the time resolution of
** t up to the run's end (rt_t_resolution): the run stops at once, naming
** the mode (rt_fail) and the cause, instead of spinning through steps that
** barely move t (k = 1e300 N/m, m = 1e-300 kg).  who: what chose h;
** beyond: h is a step the method would take (the end time is then blamed
** when h is a step of a time axis in seconds, rt_time_beyond), 0 when h is
** a trial still shrinking below the resolution at t itself (the motion). */
RT_COLD static int step_refuse(nsm_sim *s, const char *who, double h, int beyond)
{
    double t_end = fmax(s->t, s->t_stop);
    if (rt_cause_ahead(s, h))
        return s->failed;
    if (beyond && rt_time_beyond(s, h, t_end, who))
        return s->failed;
    if (!beyond && tolerance_unmet(s))
        return rt_fail(s, NSM_ENUMERIC, -1,
                       "%s cannot be met (its trial steps shrank to %.3g s): its tolerances "
                       "ask for less than a double's rounding (--rtol %.3g below %.3g, --atol "
                       "%.3g below %.3g of the state's size); give a larger --rtol or --atol",
                       who, h, s->set.rtol, DBL_EPSILON, s->set.atol, DBL_EPSILON);
    double res = rt_t_resolution(s, t_end);
    if (!beyond && s->set.method == NSM_METHOD_ADAPTIVE && h >= res)
        return rt_fail(s, NSM_ENUMERIC, -1,
                       "%s needs steps of %.3g s or less, below its floor of %.3g s, "
                       "1e-15 (1 + |t|) (the resolution of t is %.3g s): a motion faster than "
                       "adaptive follows; check the stiffnesses and masses (a value off by "
                       "orders of magnitude?), or use rk4 with a --dt below that time scale",
                       who, h,
                       ADAPTIVE_FLOOR * (1 + fabs(s->t)), res);
    return rt_fail(s, NSM_ENUMERIC, -1,
                   "steps below the time resolution of t up to t_end = %.9g s: %s needs steps "
                   "of %.3g s, below the resolution %.3g s (a motion too fast for the time "
                   "axis); check the stiffnesses and masses (a value off by orders of "
                   "magnitude?)", t_end, who, h, res);
}

/* Adaptive step: tries *h, shrinks it until the error test passes, and
** leaves the next trial step in s->h_adapt.  Where fsal_allowed, the first
** stage f(t, Y) is evaluated once for all the trials (nothing the
** derivative reads changes between them) or read from the last step's
** last stage (RtFsal), and the accepted step's last stage is kept. */
RT_HOT static int adaptive_step(nsm_sim *s, double t, const double *Y, double *h, double *Y1)
{
    int beyond = 0;     /* a trial below the resolution at the end time */
    int N = s->n_state, rc;
    double k[7][N];
    RtFsal *c = fsal_allowed(s) && (s->fsal.block || !fsal_alloc(s)) ? &s->fsal : NULL;
    if (c && (rc = dp_first_stage(s, c, t, Y, k[0])))
        return rc;
    for (;;) {
        double err;
        if (!c && (rc = rt_deriv(s, s->mode, t, Y, k[0])))
            return rc;
        if ((rc = dp_stages(s, t, Y, *h, N, k, Y1, &err)))
            return rc;
        if (!isfinite(err))
            err = 1e10;
        if (err <= 1 && beyond)     /* the control's step cannot carry t to its end */
            return step_refuse(s, "adaptive's error control", *h, 1);
        if (err <= 1) {
            double f = err > 0 ? 0.9 * pow(err, -0.2) : 5;
            s->h_adapt = fmin(s->h_step, *h * fmin(5, fmax(0.2, f)));
            if (s->h_adapt < *h)
                s->h_adapt = fmin(s->h_step, fmax(s->h_adapt, *h));
            if (c)
                fsal_keep(s, c, t + dp_c[6] * *h, Y1, k[6]);
            return NSM_OK;
        }
        *h *= fmax(0.1, 0.9 * pow(err, -0.2));
        if (*h < ADAPTIVE_FLOOR * (1 + fabs(t)) || *h < rt_t_resolution(s, t))
            return step_refuse(s, "adaptive's error control", *h, 0);
        beyond = *h < rt_t_resolution(s, s->t_stop);
    }
}

/* ---- exact method ---------------------------------------------------- */

/* Allocate the exact method's propagators, grid and shadows in one block
** (the long double arrays first, for their alignment): a simulation is
** created per run of a parameter study, and some sixty small allocations,
** or zeroing them, cost more than the run of a small model.  Nothing is
** read before it is written: the entries' flags (used, valid, quad) say
** what holds data.  Nonzero on failure. */
int rt_exact_alloc(nsm_sim *s)
{
    size_t na = (size_t)s->n_aug, na2 = na * na, n2 = 2 * (size_t)s->n_vel;
    size_t q2 = na2 ? na2 : 1, m2 = n2 ? n2 : 1;
    /* past RT_DENSE_NA states the propagators (O(na^2) each) are allocated
     * on their first use (exact_prop), which a large model's Taylor steps
     * never make */
    int lazy = s->n_aug > RT_DENSE_NA;
    size_t nc = lazy ? 0 : RT_CACHE;
    size_t nld = nc * na2 + RT_ANCHOR_LEVELS * na + RT_SHADOWS * na;
    size_t nd = nc * 2 * q2 + m2 + RT_SHADOWS * m2;
    size_t nu = (RT_CACHE + 1) * (size_t)s->mode_words;
    RtExact *x = &s->ex;
    x->block = malloc(nld * sizeof(long double) + nd * sizeof(double) + nu * sizeof(unsigned));
    if (!x->block)
        return 1;
    x->lazy = lazy;
    long double *L = x->block;
    double *D = (double *)(L + nld);
    unsigned *U = (unsigned *)(D + nd);
    for (int k = 0; k < RT_CACHE; k++) {
        x->cache[k].mode = U, U += s->mode_words;
        if (lazy) {
            x->cache[k].E = NULL;
            x->cache[k].Qd = x->cache[k].Qw = NULL;
            continue;
        }
        x->cache[k].E = L, L += na2;
        x->cache[k].Qd = D, D += q2;
        x->cache[k].Qw = D, D += q2;
    }
    x->anchor.mode = U;
    x->anchor.y = D, D += m2;
    x->anchor.Z = L, L += RT_ANCHOR_LEVELS * na;
    for (int k = 0; k < RT_SHADOWS; k++) {
        x->shadow[k].y = D, D += m2;
        x->shadow[k].Z = L, L += na;
    }
    return 0;
}

/* Free them. */
void rt_exact_free(nsm_sim *s)
{
    if (s->ex.lazy)
        for (int k = 0; k < RT_CACHE; k++) {
            free(s->ex.cache[k].E);
            free(s->ex.cache[k].Qd);
            free(s->ex.cache[k].Qw);
            s->ex.cache[k].E = NULL;
            s->ex.cache[k].Qd = s->ex.cache[k].Qw = NULL;
        }
    free(s->ex.block);
    s->ex.block = NULL;
}

/* Forget every cached propagator (parameters or settings changed). */
void rt_cache_clear(nsm_sim *s)
{
    for (int k = 0; k < RT_CACHE; k++)
        s->ex.cache[k].used = 0;
    s->ex.cache_next = 0;
    s->ex.anchor.used = 0;
    rt_state_inputs_changed(s);
    for (int k = 0; k < RT_SHADOWS; k++)
        s->ex.shadow[k].valid = 0;
    rt_mode_clear(s);
    rt_taylor_forget(s);
}

/* exp(A h) (long double) and the two energy integrals of the current mode
** over a step h into E, Id, Iw (na*na each; without the integrals when Id
** is NULL). */
static int exact_propagator(nsm_sim *s, double h, long double *E, double *Id, double *Iw)
{
    const RtModeInfo *mi = rt_mode_info(s);
    if (!mi)
        return s->failed;
    if (nsm_expm_ld_bal(s->n_aug, mi->A, h, mi->ebal, E) != NSM_LA_OK)
        return NSM_ENUMERIC;
    if (Id && nsm_expm_quad_bal(s->n_aug, mi->A, mi->Qd, h, mi->ebal, NULL, Id) != NSM_LA_OK)
        return NSM_ENUMERIC;
    if (Id && nsm_expm_quad_bal(s->n_aug, mi->A, mi->Qw, h, mi->ebal, NULL, Iw) != NSM_LA_OK)
        return NSM_ENUMERIC;
    return NSM_OK;
}

/* The augmented state Z = (x, v, z(t), 1) the exact propagators act on: the
** forcing generator's state at t, and the constant that carries f_const. */
static void augment(const nsm_sim *s, double t, const double *Y, double *Z)
{
    int n = s->n_vel, ng = s->m->n_gen;
    memcpy(Z, Y, sizeof(double) * 2 * n);
    for (int k = 0; k < ng; k++)
        Z[2 * n + k] = 0;
    if (ng && s->m->generator_state)
        s->m->generator_state(t, s->sw, s->params, s->consts, Z + 2 * n);
    Z[s->n_aug - 1] = 1;
}

/* y = A x for an n*n long double matrix. */
static void matvec_ld(int n, const long double *A, const long double *x, long double *y)
{
    for (int i = 0; i < n; i++) {
        long double sum = 0;
        for (int k = 0; k < n; k++)
            sum += A[(size_t)i * n + k] * x[k];
        y[i] = sum;
    }
}

/*
** The anchor.  Applying the same rounded exp(A dt) a million times makes its
** rounding grow a million-fold, and coherently: the e = 1 ball drifts by
** 2e-8 s over 9e5 steps.  So the steps of size dt inside a mode are taken
** on a grid from an anchor state (the state where the mode was entered, or
** where the grid was left): the state at grid point k is the product of the
** propagators of dt, 32 dt, 1024 dt and 32768 dt (each an exponential of its
** own, cached like the others) that the digits of k in base 32 call for,
** applied level by level, so at most 31 products per level separate any grid
** point from the anchor instead of k.  The levels' states are kept in long
** double, so that the run's double state is one rounding away from the
** exact product; steps that leave the grid from its current point (event
** location, samples) start from that long double state too.  Any change of
** the state outside the grid steps (a transition, a landing on a time
** switch or on the end of a run) shows as a current state that is not the
** grid's, and the next step re-anchors.
*/
#define ANCHOR_BASE 32

/* Whether two times name the same state (they may be summed differently):
** within 1e-12 of the larger, with no absolute floor.  A floor of 1e-12 s
** took t = 0 and t = 1e-13 s for one time, and a body at rest at both (the
** same positions and velocities) was given the later one's augmented state,
** its forcing's time included: a block under a force growing as 1e14 N/s
** slipped at t = 0 instead of 5e-14 s.  Times that do not match only cost
** forming the augmented state again from (t, Y).  The larger magnitude is
** taken by a comparison, not libm's fmax (a call through the PLT on every
** shadow looked at, 1.2 million in a sweep): the two differ only for a NaN,
** where a - b is NaN too and the answer is "not the same" either way. */
static int same_time(double a, double b)
{
    double fa = fabs(a), fb = fabs(b);
    return fabs(a - b) <= 1e-12 * (fa > fb ? fa : fb);
}

/* The anchor if it continues from (t, Y) with step h in the current mode,
** else NULL (h = 0: any step). */
RT_HOT static RtAnchor *anchor_get(nsm_sim *s, double t, const double *Y, double h)
{
    RtAnchor *a = &s->ex.anchor;
    if (!a->used || !rt_mode_eq(s, a->mode, s->mode) || a->swkey != rt_switch_key(s) ||
        (h != 0 && a->h != h))
        return NULL;
    if (!same_time(a->t, t) || memcmp(a->y, Y, sizeof(double) * 2 * s->n_vel) != 0)
        return NULL;
    return a;
}

/* Index of the shadow standing behind the state y (its first 2n entries) at
** time t, or -1. */
static int shadow_index(const nsm_sim *s, double t, const double *y)
{
    for (int k = 0; k < RT_SHADOWS; k++)
        if (s->ex.shadow[k].valid && same_time(s->ex.shadow[k].t, t) &&
            memcmp(s->ex.shadow[k].y, y, sizeof(double) * 2 * s->n_vel) == 0)
            return k;
    return -1;
}

/* The shadow standing behind (t, y), or NULL; it is kept from the next
** overwrites (a root search advances many times from one state). */
static RtShadow *shadow_find(nsm_sim *s, double t, const double *y)
{
    int k = shadow_index(s, t, y);
    if (k < 0)
        return NULL;
    s->ex.shadow_used = k;
    return &s->ex.shadow[k];
}

/* Y1's positions and velocities as the rounding of the long double Z, the
** state at time t, which becomes a shadow. */
RT_HOT void rt_exact_land(nsm_sim *s, double t, const long double *Z, double *Y1)
{
    int n = s->n_vel;
    if (s->ex.shadow_next == s->ex.shadow_used)
        s->ex.shadow_next = (s->ex.shadow_next + 1) % RT_SHADOWS;
    RtShadow *sh = &s->ex.shadow[s->ex.shadow_next];
    s->ex.shadow_next = (s->ex.shadow_next + 1) % RT_SHADOWS;
    for (int i = 0; i < 2 * n; i++)
        Y1[i] = (double)Z[i];
    memcpy(sh->y, Y1, sizeof(double) * 2 * n);
    memmove(sh->Z, Z, sizeof(long double) * s->n_aug);
    sh->t = t;
    sh->valid = 1;
}

/* The moving surface's part of gap j's k-th derivative on the augmented
** state Z: (H G^k)_j . z (0 for a fixed gap). */
static long double surf_form(const nsm_sim *s, int j, int k, const long double *Z)
{
    const double *row = s->moving ? rt_surface_row(s, j, k) : NULL;
    long double sum = 0;
    for (int q = 0; row && q < s->m->n_gen; q++)
        sum += row[q] * Z[2 * s->n_vel + q];
    return sum;
}

/* The impact of gap j alone with restitution e on the state y, whose
** velocities have just been updated in double, when a shadow stood behind
** y0 (its positions and velocities before the impact): Newton's law applied
** to the shadow's long double velocities, whose rounding replaces y's.  In
** a Zeno cascade the relative velocity falls to 1e-7 of the velocities, and
** its rounding in double would be most of the next flight's error. */
void rt_shadow_impulse(nsm_sim *s, int j, double e, double t, const double *y0, double *y)
{
    int n = s->n_vel, na = s->n_aug;
    double wd[n];
    const double *w = rt_dense_wrow(s, j, wd);
    RtShadow *sh = shadow_find(s, t, y0);
    if (!sh || rt_mass_dense(s))    /* the exact method's: a diagonal mass only */
        return;
    long double Z[na], u = 0, D = 0;
    memcpy(Z, sh->Z, sizeof Z);
    for (int i = 0; i < n; i++) {
        u += w[i] * Z[n + i];
        D += w[i] * s->mass_inv[i] * w[i];
    }
    u += surf_form(s, j, 1, Z);     /* relative to a moving surface */
    if (!(u < 0) || !(D > 0))
        return;
    long double P = -(1 + (long double)e) * u / D;
    for (int i = 0; i < n; i++)
        Z[n + i] += s->mass_inv[i] * w[i] * P;
    rt_exact_land(s, t, Z, y);
}

/* The augmented state of (t, Y) in long double: the shadow's or the grid's
** when Y is their rounding, else Y extended. */
RT_HOT void rt_exact_state(nsm_sim *s, double t, const double *Y, long double *ZL)
{
    int na = s->n_aug;
    RtShadow *sh = shadow_find(s, t, Y);
    if (sh) {
        memcpy(ZL, sh->Z, sizeof(long double) * na);
        return;
    }
    RtAnchor *a = anchor_get(s, t, Y, 0);
    if (a) {
        memcpy(ZL, a->Z, sizeof(long double) * na);
        return;
    }
    double Z[na];
    augment(s, t, Y, Z);
    for (int i = 0; i < na; i++)
        ZL[i] = Z[i];
}

/* Anchor the grid at (t, Y): every level's state is Z(t), the shadow's
** when it stands behind Y. */
static RtAnchor *anchor_set(nsm_sim *s, double t, const double *Y, double h)
{
    int na = s->n_aug;
    RtAnchor *a = &s->ex.anchor;
    long double Z[na];
    rt_exact_state(s, t, Y, Z);
    for (int l = 0; l < RT_ANCHOR_LEVELS; l++)
        memcpy(a->Z + (size_t)l * na, Z, sizeof Z);
    memcpy(a->y, Y, sizeof(double) * 2 * s->n_vel);
    a->t = t;
    a->k = 0;
    a->used = 1;
    rt_mode_copy(s, a->mode, s->mode);
    a->swkey = rt_switch_key(s);
    a->h = h;
    return a;
}

/* The energy integrals over a step from the augmented state Z: Y1's last
** two entries from Y's. */
RT_HOT static void exact_energy(nsm_sim *s, const double *Z, const double *Id, const double *Iw,
                         const double *Y, double *Y1)
{
    int n = s->n_vel, na = s->n_aug;
    double QZ[na];
    nsm_la_matvec(na, na, Id, Z, QZ);
    Y1[2 * n] = Y[2 * n] + rt_dot(na, Z, QZ);
    nsm_la_matvec(na, na, Iw, Z, QZ);
    Y1[2 * n + 1] = Y[2 * n + 1] + rt_dot(na, Z, QZ);
}

/* The double copy of a long double augmented state (for the energy forms). */
static void round_state(int na, const long double *ZL, double *Z)
{
    for (int i = 0; i < na; i++)
        Z[i] = (double)ZL[i];
}

/* Propagate Y over h with the given propagator; without the energy
** integrals when Id is NULL (Y1's last two entries are then Y's). */
RT_HOT static void exact_apply(nsm_sim *s, double t, double h, const double *Y, const long double *E,
                        const double *Id, const double *Iw, double *Y1)
{
    int n = s->n_vel, na = s->n_aug;
    long double ZL[na], Z1[na];
    double Z[na];
    rt_exact_state(s, t, Y, ZL);
    matvec_ld(na, E, ZL, Z1);
    rt_exact_land(s, t + h, Z1, Y1);
    if (Id) {
        round_state(na, ZL, Z);
        exact_energy(s, Z, Id, Iw, Y, Y1);
    } else {
        Y1[2 * n] = Y[2 * n];
        Y1[2 * n + 1] = Y[2 * n + 1];
    }
}

/* The cached propagator of step h in the current mode and switch state,
** computed on a miss. */
RT_HOT static int exact_prop(nsm_sim *s, double h, RtProp **out)
{
    unsigned long key = rt_switch_key(s), hash = rt_mode_hash(s, s->mode);
    for (int k = 0; k < RT_CACHE; k++)
        if (s->ex.cache[k].used && s->ex.cache[k].hash == hash && s->ex.cache[k].swkey == key &&
            s->ex.cache[k].h == h && s->ex.cache[k].quad >= s->energy &&
            rt_mode_eq(s, s->ex.cache[k].mode, s->mode)) {
            *out = &s->ex.cache[k];
            return NSM_OK;
        }
    if (s->ex.cache_next >= RT_CACHE)
        s->ex.cache_next = 0;
    RtProp *pr = &s->ex.cache[s->ex.cache_next];
    s->ex.cache_next = (s->ex.cache_next + 1) % RT_CACHE;
    pr->used = 0;
    if (!pr->E) {
        size_t na2 = (size_t)s->n_aug * s->n_aug;
        pr->E = calloc(na2, sizeof(long double));
        pr->Qd = calloc(na2, sizeof(double));
        pr->Qw = calloc(na2, sizeof(double));
        if (!pr->E || !pr->Qd || !pr->Qw) {
            free(pr->E);
            free(pr->Qd);
            free(pr->Qw);
            pr->E = NULL;
            pr->Qd = pr->Qw = NULL;
            return NSM_ENOMEM;
        }
    }
    int rc = exact_propagator(s, h, pr->E, s->energy ? pr->Qd : NULL, pr->Qw);
    if (rc)
        return rc;
    pr->used = 1;
    pr->quad = s->energy;
    rt_mode_copy(s, pr->mode, s->mode);
    pr->hash = hash;
    pr->swkey = key;
    pr->h = h;
    *out = pr;
    return NSM_OK;
}

/* One grid step of size h from the anchored state Y: the grid index k
** becomes k + 1, and the state there is the highest level whose period
** divides k + 1, advanced by one propagator of that period; the lower
** levels restart from it.  The energy integrals are those of the step h
** from the current state. */
static int anchor_step(nsm_sim *s, RtAnchor *a, double t, const double *Y, double h, double *Y1)
{
    int n = s->n_vel, na = s->n_aug, L = 0, rc;
    double k = a->k + 1, period = 1, Z[na];
    long double Zn[na];
    RtProp *pr;
    while (L + 1 < RT_ANCHOR_LEVELS && fmod(k, period * ANCHOR_BASE) == 0) {
        period *= ANCHOR_BASE;
        L++;
    }
    if ((rc = exact_prop(s, h, &pr)))
        return rc;
    round_state(na, a->Z, Z);
    if (s->energy)
        exact_energy(s, Z, pr->Qd, pr->Qw, Y, Y1);
    else
        memcpy(Y1 + 2 * n, Y + 2 * n, 2 * sizeof(double));
    if (L > 0 && (rc = exact_prop(s, h * period, &pr)))
        return rc;
    matvec_ld(na, pr->E, a->Z + (size_t)L * na, Zn);
    for (int l = 0; l <= L; l++)
        memcpy(a->Z + (size_t)l * na, Zn, sizeof Zn);
    a->k = k;
    rt_exact_land(s, t + h, Zn, Y1);
    memcpy(a->y, Y1, sizeof(double) * 2 * n);
    a->t = t + h;
    return NSM_OK;
}

/* Exact step of size h by the step's Taylor expansion (taylor.c), which the
** event detection then reuses: the end state in long double, the energies
** by its quadrature.  No exponential is formed. */
RT_HOT static int taylor_step(nsm_sim *s, double t, const double *Y, double h, double *Y1)
{
    int n = s->n_vel, na = s->n_aug, rc;
    const RtModeInfo *mi = rt_mode_info(s);
    if (!mi)
        return s->failed;
    long double Z0[na], Z1[na];
    rt_exact_state(s, t, Y, Z0);
    if ((rc = rt_taylor_build(s, mi, t, Z0, h)))
        return rc;
    rt_taylor_state(s, 1, Z1);
    rt_exact_land(s, t + h, Z1, Y1);
    double Ed, Ew;
    rt_taylor_energy(s, 1, &Ed, &Ew);
    Y1[2 * n] = Y[2 * n] + Ed;
    Y1[2 * n + 1] = Y[2 * n + 1] + Ew;
    return NSM_OK;
}

/* Exact step of size h from (t, Y).  Steps of a user's dt go on the
** anchored grid (a million steps of one rounded propagator would drift
** coherently), but for models past RT_DENSE_NA states, whose dense
** exponential would cost O(na^3); the steps the modes choose, the landings
** on samples and switches, and a large model's every step follow the
** step's Taylor expansion (over the mode matrix's nonzeros, or a large
** mode's operator: modeop.c). */
RT_HOT static int exact_step(nsm_sim *s, double t, const double *Y, double h, double *Y1)
{
    if (h == s->h_step && h == s->set.dt && s->n_aug <= s->set.dense_na) {
        RtAnchor *a = anchor_get(s, t, Y, h);
        if (!a)
            a = anchor_set(s, t, Y, h);
        return anchor_step(s, a, t, Y, h, Y1);
    }
    return taylor_step(s, t, Y, h, Y1);
}

/* Exact propagation over an arbitrary tau, without caching (event
** location); without the energy integrals unless energy is set (Y1's last
** two entries are then Y's). */
RT_HOT static int exact_advance(nsm_sim *s, double t, const double *Y, double tau, double *Y1, int energy)
{
    const RtModeInfo *mi = s->n_aug > s->set.dense_na ? rt_mode_info(s) : NULL;
    if (s->n_aug > s->set.dense_na && !mi)
        return s->failed;
    if (mi && mi->op) {
        /* a large mode (modeop.c): its series, without an exponential */
        int n = s->n_vel, rc;
        long double Z0[s->n_aug], Z1[s->n_aug];
        double Ed = 0, Ew = 0;
        rt_exact_state(s, t, Y, Z0);
        int pieces = (int)ceil(tau * mi->nu / RT_TAYLOR_REACH);  /* each within the reach */
        if (pieces < 1)
            pieces = 1;
        if ((rc = rt_modeop_advance(s, mi, Z0, tau / pieces, pieces,
                                    rt_taylor_degree(mi->nu * tau / pieces), Z1,
                                    energy ? &Ed : NULL, &Ew)))
            return rc;
        rt_exact_land(s, t + tau, Z1, Y1);
        Y1[2 * n] = Y[2 * n] + Ed;
        Y1[2 * n + 1] = Y[2 * n + 1] + Ew;
        return NSM_OK;
    }
    size_t na2 = (size_t)s->n_aug * s->n_aug;
    long double *E = malloc(na2 * sizeof(long double));
    double *I = malloc(2 * na2 * sizeof(double)), *Id = energy ? I : NULL;
    int rc = NSM_ENOMEM;
    if (E && I && !(rc = exact_propagator(s, tau, E, Id, I + na2)))
        exact_apply(s, t, tau, Y, E, Id, I + na2, Y1);
    free(E);
    free(I);
    return rc;
}

/*
** The tail of a Zeno cascade.  Its last flights cannot be located on the
** run's double state: the gap is a difference of positions rounded to 1e-16
** of their size, and divided by relative velocities down to 1e-6 m/s that
** rounding moves each landing by 1e-10 s, more than the flights left.  Here
** the cascade is followed on the mode's own linear dynamics, in long double,
** from the state just after an impact: over a flight of length s the
** augmented state is Z(s) = sum_k A^k Z s^k / k! (Taylor, for ||A s|| <=
** 1/2), and the gap's increment w.(x(s) - x(0)) = sum_{k>=1} c_k s^k, with
** c_k = w.(A^k Z)_x / k!, has the flight time as the positive root of
** sum c_k s^(k-1): no positions are subtracted.  Each landing applies
** Newton's restitution to the long double velocities, and the flights are
** followed until they are below 1e-8 of the elapsed time, when the
** geometric remainder e s/(1 - e) is added (its error, of order beta s^2,
** is then far below the double rounding of the result), or until they are
** below 1e-5 of it and the remainder to second order is as good.
*/
#define TAIL_TERMS 24
#define TAIL_FLIGHTS 5000

/* Flight time of the cascade's next flight from the augmented state Z
** (gap j just opened), its landing state into Z1, with guess s0; 0 if it
** fails or lasts more than smax (the series is cut for flights up to
** smax).  P holds TAIL_TERMS + 1 vectors of na. */
static double tail_flight(nsm_sim *s, int j, const RtModeInfo *mi, double normA, const long double *Z,
                          double s0, double smax, long double *P, long double *Z1)
{
    int n = s->n_vel, na = s->n_aug, K = rt_taylor_flight_terms(normA * smax, TAIL_TERMS);
    double wd[n];
    const double *w = rt_dense_wrow(s, j, wd);
    long double c[TAIL_TERMS + 1], x = s0;
    memcpy(P, Z, sizeof(long double) * na);
    rt_taylor_terms(mi, na, K, 1, P);
    c[0] = 0;
    for (int k = 1; k <= K; k++) {
        c[k] = surf_form(s, j, 0, P + (size_t)k * na);
        for (int i = 0; i < n; i++)
            c[k] += w[i] * P[(size_t)k * na + i];
    }
    if (!(c[1] > 0) || !(c[2] < 0))
        return 0;
    for (int it = 0; it < 60; it++) {
        long double dq, q = rt_poly_eval(c + 1, K - 1, x, &dq);
        if (!(dq < 0) || !(x > 0) || normA * (double)x > 0.5)
            return 0;
        long double dx = q / dq;
        x -= dx;
        if (fabsl(dx) <= 1e-18L * x)
            break;
    }
    if (!(x > 0) || normA * (double)x > 0.5 || x > smax)
        return 0;
    rt_taylor_sum(P, na, K, x, Z1);
    return (double)x;
}

/* Time from (s->t, s->y), just after an impact of gap j that opened it with
** restitution e in (0, 1) (its law's, rt_law_restitution: the caller's), to
** the accumulation point of its cascade, the last flight having lasted tau;
** NAN when the mode's linear dynamics are not available (forcing without a
** generator, a nonlinear model, a mass matrix M(q): the flights below are
** the linear mode's and the impulses the diagonal mass's) or the flights do
** not shrink to a point (then the caller estimates the tail otherwise). */
double rt_zeno_tail(nsm_sim *s, int j, double e, double tau)
{
    int n = s->n_vel, na = s->n_aug;
    if ((s->m->n_gen == 0 && s->m->force) || s->m->nl || rt_mass_dense(s))
        return NAN;
    const RtModeInfo *mi = rt_mode_info(s);
    double total = 0, D = 0;
    long double *P = malloc((TAIL_TERMS + 1) * (size_t)na * sizeof(long double));
    long double Z[na], Z1[na];
    double wd[n];
    const double *w = rt_dense_wrow(s, j, wd), *A = mi ? mi->A : NULL;
    double result = NAN;
    if (!A || !P)
        goto done;
    double normA = nsm_la_norm1(na, A);
    for (int i = 0; i < n; i++)
        D += w[i] * s->mass_inv[i] * w[i];
    rt_exact_state(s, s->t, s->y, Z);
    for (int f = 0; f < TAIL_FLIGHTS; f++) {
        double sf = tail_flight(s, j, mi, normA, Z, e * tau, 2 * tau, P, Z1);
        if (!(sf > 0) || sf > 2 * tau)
            goto done;
        total += sf;
        if (sf <= 1e-8 * total) {
            result = total + e * sf / (1 - e);
            goto done;
        }
        if (f > 0 && sf <= 1e-5 * total) {
            /* the flights' ratio drifts with their length, s' = e s (1 + g s
             * + O(s^2)), g from the last two flights: the remainder to that
             * order, once the next, about (g s)^2 s / (1 - e)^3, is below
             * 1e-18 of the time (case B: g = -2.23 1/s; at flights of 1e-4
             * of the elapsed time that term is 1.2e-14 s, as estimated) */
            double g = (sf / tau / e - 1) / tau, d = 1 - e;
            if (g * g * sf * sf * sf <= 1e-18 * (fabs(s->t) + total) * d * d * d) {
                result = total + e * sf / d + g * sf * sf * e / (d * d * (1 + e));
                goto done;
            }
        }
        tau = sf;
        long double u = surf_form(s, j, 1, Z1);
        for (int i = 0; i < n; i++)
            u += w[i] * Z1[n + i];
        if (!(u < 0))
            goto done;
        long double P1 = -(1 + e) * u / D;
        for (int i = 0; i < n; i++)
            Z1[n + i] += s->mass_inv[i] * w[i] * P1;
        memcpy(Z, Z1, sizeof Z);
    }
done:
    free(P);
    return result;
}

/* The exact method needs the forcing's generator; refuse it when the model
** has forcing but no generator (checked on a grid over [0, t_end]). */
int rt_exact_check(nsm_sim *s, double t_end)
{
    if (s->m->n_gen > 0 || !s->m->force)
        return NSM_OK;
    int n = s->n_vel;
    double f[n];
    for (int k = 0; k <= 16; k++) {
        double t = t_end * k / 16.0;
        for (int i = 0; i < n; i++)
            f[i] = 0;
        s->m->force(t, s->sw, s->params, s->consts, f);
        for (int i = 0; i < n; i++)
            if (f[i] != 0)
                return rt_fail(s, NSM_EMETHOD, -1,
                               "method 'exact' needs the forcing as a linear generator, and "
                               "this model's forcing has none; use --method rk4 or adaptive");
    }
    return NSM_OK;
}

/* ---- steps and location ---------------------------------------------- */

/* Steps in a row the taylor method may take below the time resolution
** while a longer one was asked for: one is a dip of an event function just
** after the step's start (the next step lands on it); a run of them is the
** expansion's reach itself below the resolution. */
#define RT_NLT_TINY_MAX 8

/* The taylor method's step h (asked: hreq) against the time resolution:
** refused, with the mode and the cause, once its reach has cut
** RT_NLT_TINY_MAX steps in a row below it. */
static int taylor_reach_check(nsm_sim *s, double hreq, double h)
{
    double res = rt_t_resolution(s, s->t_stop);
    if (!(h < res && h < hreq)) {
        s->taylor_tiny_steps = 0;
        return NSM_OK;
    }
    if (++s->taylor_tiny_steps < RT_NLT_TINY_MAX)
        return NSM_OK;
    s->taylor_tiny_steps = 0;
    return step_refuse(s, "the taylor method's expansion (its reach, from the decay of "
                       "its coefficients)", h, 1);
}

/* A step of the taylor method (nltaylor.c); where the motion has no
** expansion (a Hertz contact at the instant it engages) the one step is
** the adaptive method's, with its error control. */
static int taylor_nl_step(nsm_sim *s, double t, const double *Y, double *h, double *Y1)
{
    double hreq = *h;
    int rc = rt_nlt_step(s, t, Y, h, Y1);
    if (rc == RT_NLT_NOSERIES)
        return adaptive_step(s, t, Y, h, Y1);
    if (rc)
        return rc;
    return taylor_reach_check(s, hreq, *h);
}

/* One step of the current method from (t, Y).  The adaptive method may
** shorten *h; the others take it as given. */
RT_HOT int rt_step(nsm_sim *s, double t, const double *Y, double *h, double *Y1)
{
    switch (s->set.method) {
    case NSM_METHOD_ADAPTIVE: return adaptive_step(s, t, Y, h, Y1);
    case NSM_METHOD_EXACT: return exact_step(s, t, Y, *h, Y1);
    case NSM_METHOD_TAYLOR: return taylor_nl_step(s, t, Y, h, Y1);
    default: return rk4_step(s, t, Y, *h, Y1);
    }
}

/* A single step of size tau without error control (for event location). */
int rt_advance(nsm_sim *s, double t, const double *Y, double tau, double *Y1)
{
    double err;
    if (tau == 0) {
        memcpy(Y1, Y, sizeof(double) * s->n_state);
        return NSM_OK;
    }
    switch (s->set.method) {
    case NSM_METHOD_ADAPTIVE: return dp_step(s, t, Y, tau, Y1, &err);
    case NSM_METHOD_EXACT: return exact_advance(s, t, Y, tau, Y1, s->energy);
    case NSM_METHOD_TAYLOR: {
        int rc = rt_nlt_advance(s, t, Y, tau, Y1);
        return rc == RT_NLT_NOSERIES ? dp_step(s, t, Y, tau, Y1, &err) : rc;
    }
    default: return rk4_step(s, t, Y, tau, Y1);
    }
}

/* An open impact gap j and its rate from the shadow of Y, when there is
** one: a landing at a relative velocity u is then placed to within the long
** double rounding of the positions over u, not the double one. */
static void shadow_gap(const nsm_sim *s, int j, double t, const double *Y, double *ev, double *evd)
{
    int n = s->n_vel;
    if (j >= s->n_gaps || !rt_law_impacts(s, j) || rt_mode_has(s->mode, j))
        return;
    int k = shadow_index(s, t, Y);
    if (k < 0)
        return;
    const RtShadow *sh = &s->ex.shadow[k];
    double wd[n];
    const double *w = rt_dense_wrow(s, j, wd);
    const long double *Z = sh->Z;
    long double g = s->num.d[j] + surf_form(s, j, 0, Z), u = surf_form(s, j, 1, Z);
    for (int i = 0; i < n; i++) {
        g += w[i] * Z[i];
        u += w[i] * Z[n + i];
    }
    *ev = (double)g;
    *evd = (double)u;
}

/* Event function j at (t, Y) and its derivative. */
static int event_at(nsm_sim *s, int j, double t, const double *Y, double *ev, double *evd)
{
    double e[s->n_events], ed[s->n_events];
    int rc = rt_nlt_events(s, t, Y, e, ed);
    *ev = e[j];
    *evd = ed[j];
    if (!rc && s->set.method == NSM_METHOD_EXACT)
        shadow_gap(s, j, t, Y, ev, evd);
    return rc;
}

/* event_at as an event source for rt_land: ud points to j. */
static int gap_source(nsm_sim *s, void *ud, double t, const double *Y, double *f, double *fd)
{
    return event_at(s, *(const int *)ud, t, Y, f, fd);
}

/* Right-hand side of the recast: dY/ds = Y'/s', dt/ds = 1/s'.  Fails (1)
** when s' does not keep the sign of sd_ref or shrinks by more than a factor
** 10 (grazing: the recast is ill-conditioned there). */
static int recast_rhs(nsm_sim *s, rt_event_fn fn, void *ud, double t, const double *Y,
                      double sd_ref, double *dY, double *dt)
{
    double ev, evd;
    if (fn(s, ud, t, Y, &ev, &evd))
        return 1;
    if (!(evd * sd_ref > 0) || fabs(evd) < 0.1 * fabs(sd_ref) || fabs(evd) > 10 * fabs(sd_ref))
        return 1;
    if (rt_deriv(s, s->mode, t, Y, dY))
        return 1;
    for (int i = 0; i < s->n_state; i++)
        dY[i] /= evd;
    *dt = 1 / evd;
    return 0;
}

/* Henon's recast of the event function fn: nsub RK4 steps in s from s0 to
** 0, the time of the zero in *t1.  Returns 1 if it does not apply (then
** the caller falls back to root finding in time). */
static int recast(nsm_sim *s, rt_event_fn fn, void *ud, double t0, const double *Y0, double s0,
                  double sd0, int nsub, double *t1, double *Y1)
{
    int N = s->n_state;
    double Y[N], T[N], k1[N], k2[N], k3[N], k4[N], t = t0, d1, d2, d3, d4;
    double ds = -s0 / nsub;
    memcpy(Y, Y0, sizeof(double) * N);
    for (int q = 0; q < nsub; q++) {
        if (recast_rhs(s, fn, ud, t, Y, sd0, k1, &d1))
            return 1;
        axpy(N, Y, ds / 2, k1, T);
        if (recast_rhs(s, fn, ud, t + ds / 2 * d1, T, sd0, k2, &d2))
            return 1;
        axpy(N, Y, ds / 2, k2, T);
        if (recast_rhs(s, fn, ud, t + ds / 2 * d2, T, sd0, k3, &d3))
            return 1;
        axpy(N, Y, ds, k3, T);
        if (recast_rhs(s, fn, ud, t + ds * d3, T, sd0, k4, &d4))
            return 1;
        for (int i = 0; i < N; i++)
            Y[i] += ds / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
        t += ds / 6 * (d1 + 2 * d2 + 2 * d3 + d4);
    }
    *t1 = t;
    memcpy(Y1, Y, sizeof(double) * N);
    return 0;
}

/* An event function on the method's own step from (t0, Y0), as a function
** of the step's length x for rt_bracket: the state at x is left in Ys. */
typedef struct {
    nsm_sim *s;
    rt_event_fn fn;
    void *ud;
    double t0;
    const double *Y0;
    double *Ys;
} StepFn;

/* fn at t0 + x on the method's step from (t0, Y0) (rt_bracket's callback). */
static int step_fn(void *ud, double x, double *f, double *fd)
{
    StepFn *c = ud;
    int rc = rt_advance(c->s, c->t0, c->Y0, x, c->Ys);
    return rc ? rc : c->fn(c->s, c->ud, c->t0 + x, c->Ys, f, fd);
}

/* Land on the zero of the event function fn inside [lo, hi] of the step
** from (t0, Y0), where fn is flo > 0 (or ~0) at lo, with rate fdlo and
** state Ylo there, and <= 0 at hi.  Henon's recast from lo (one RK4 step
** in s for rk4, several for adaptive) gives the first guess; it is then
** polished by safeguarded Newton on fn(step(tau)), the method's own step
** from t0, so that the landing state is the integrator's state at that
** time (rt_bracket).  When the recast does not apply (fn' small or
** changing sign: grazing) the guess is Newton's or the secant's.  The time
** offset in *tau, the state there in Ys.  rk4 and adaptive: gaps, forces
** and slips (events.c) and Poincare planes (section.c) alike. */
int rt_land(nsm_sim *s, rt_event_fn fn, void *ud, double t0, const double *Y0, double lo,
            const double *Ylo, double flo, double fdlo, double hi, double *tau, double *Ys)
{
    double t1, fhi, fd, x = -1;
    int rc, at;
    if (fdlo < 0 && !recast(s, fn, ud, t0 + lo, Ylo, flo, fdlo,
                            s->set.method == NSM_METHOD_ADAPTIVE ? 8 : 1, &t1, Ys)) {
        double d = t1 - t0;
        if (d >= lo - 1e-12 * (hi - lo) && d <= lo + (hi - lo) * (1 + 1e-6))
            x = d;
    }
    StepFn c = { s, fn, ud, t0, Y0, Ys };
    if ((rc = step_fn(&c, hi, &fhi, &fd)))
        return rc;
    if (!(x > lo && x < hi)) {
        if (fdlo < 0 && lo + -flo / fdlo < hi)
            x = lo + -flo / fdlo;
        else
            x = flo - fhi != 0 ? lo + (hi - lo) * flo / (flo - fhi) : 0.5 * (lo + hi);
    }
    RtBracket b = { .lo = lo, .hi = hi, .flo = flo, .fhi = fhi, .scale = fabs(t0), .newton = 1 };
    if ((rc = rt_bracket(&b, step_fn, &c, x, tau, &at)))
        return rc;
    return at ? NSM_OK : rt_advance(s, t0, Y0, *tau, Ys);
}

/* Land on the zero of event function j inside the step [t0, t0 + h]
** (s(t0) = s0 > 0 or ~0, s(t0 + h) <= 0): rt_land from the step's start.
** rk4 and adaptive only (events.c). */
int rt_locate(nsm_sim *s, int j, double t0, const double *Y0, double h, double s0, double sd0,
              double *tau, double *Ys)
{
    return rt_land(s, gap_source, &j, t0, Y0, 0, Y0, s0, sd0, h, tau, Ys);
}
