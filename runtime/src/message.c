/*
** message.c: the failure message of a simulation.
**
** Every layer of the runtime records a failure the same way: the time, the
** mode and the contact, then what went wrong; the record stops further runs
** until the next reset; the names of status codes, event kinds and methods;
** the checks whose refusals are messages for the caller (a model table this
** runtime cannot run, a run's times that cannot work).  It sits below
** everything else that uses it.
*/
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "law.h"
#include "rt.h"

/* "free" or "closed: a, b" for a mode, into buf. */
RT_COLD void rt_mode_text(const nsm_sim *s, const unsigned *mode, char *buf, int len)
{
    int any = 0, items = 0, done = 0;
    for (int j = 0; j < s->n_gaps; j++)
        if (rt_mode_has(mode, j))
            any = 1, items++;
    items += s->n_fric;
    int used = rt_text_printf(buf, len, "%s", any ? "closed:" : "free");
    char item[300];
    /* each name whole or not at all: a list that does not fit ends with
     * how many more there are, never in the middle of a name */
    for (int j = 0; j < s->n_gaps + s->n_fric && used < len; j++) {
        if (j < s->n_gaps && !rt_mode_has(mode, j))
            continue;
        int k = j - s->n_gaps;
        int n = j < s->n_gaps ? rt_text_printf(item, sizeof item, " %s", s->m->gaps[j].name)
                         : rt_text_printf(item, sizeof item, "%s %s %s", k ? "," : ";",
                                           s->m->frictions[k].name,
                                           rt_fric_stuck(s, mode, k) ? "stuck"
                                           : rt_fric_sign(s, mode, k) > 0 ? "slip+" : "slip-");
        int last = done + 1 == items;
        if (n >= (int)sizeof item || used + n + (last ? 0 : 16) >= len) {
            rt_text_printf(buf + used, len - used, " ... %d more", items - done);
            return;
        }
        memcpy(buf + used, item, (size_t)n + 1);
        used += n;
        done++;
    }
}

/* Record a failure: the message names the time, the mode and the contact
** (gap < 0 for none).  Returns code, which also stops further runs. */
RT_COLD int rt_fail(nsm_sim *s, int code, int gap, const char *fmt, ...)
{
    char what[768], mode[240];
    va_list ap;
    va_start(ap, fmt);
    rt_text_vprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    rt_mode_text(s, s->mode, mode, sizeof mode);
    if (gap >= 0 && gap < s->n_gaps)
        rt_text_printf(s->msg, sizeof s->msg, "t = %.17g s, mode %s, contact '%s': %s", s->t, mode,
                        s->m->gaps[gap].name, what);
    else if (gap >= s->n_gaps && gap < s->n_events)
        rt_text_printf(s->msg, sizeof s->msg, "t = %.17g s, mode %s, friction '%s': %s", s->t, mode,
                        s->m->frictions[(gap - s->n_gaps) / 2].name, what);
    else
        rt_text_printf(s->msg, sizeof s->msg, "t = %.17g s, mode %s: %s", s->t, mode, what);
    s->failed = code;
    s->fail_contact = gap >= 0 && gap < s->n_events ? 1 + gap : 0;
    return code;
}

/* The smallest step the time axis carries to t_end: RT_T_RES units in the
** last place of the largest time of the run (its current t or t_end).  A
** step below it would need more than 2^48 steps to get there, each moving
** t by a few roundings: the run loop (rk4's and exact's steps, adaptive's
** largest) and the steppers (adaptive's error control, taylor's reach)
** refuse it. */
double rt_t_resolution(const nsm_sim *s, double t_end)
{
    double a = fmax(fabs(s->t), fabs(t_end));
    return RT_T_RES * (nextafter(a, INFINITY) - a);
}

/* Whether a step h reaches the time resolution (h >= rt_t_resolution): an
** ulp of a normal number a is at most DBL_EPSILON a, so a step of at least
** RT_T_RES DBL_EPSILON a does without nextafter (the run loop asks at
** every step). */
RT_HOT int rt_t_resolved(const nsm_sim *s, double h, double t_end)
{
    double a = fmax(fabs(s->t), fabs(t_end));
    if (a >= DBL_MIN && h >= RT_T_RES * DBL_EPSILON * a)
        return 1;
    return h >= rt_t_resolution(s, t_end);
}

/* Steps of h s that cannot carry t to t_end: when the time is the cause
** (the steps would move t at t = 1 s, so a t_end of 1e300 s is what the
** time axis cannot reach, not a stiffness), the failure is that message,
** naming how far such steps can carry t, and 1 is returned; 0 when the
** steps are too short for a time axis in seconds (the caller then blames
** the motion's speed). */
RT_COLD int rt_time_beyond(nsm_sim *s, double h, double t_end, const char *who)
{
    return rt_time_beyond_as(s, h, t_end, who, NSM_ENUMERIC);
}

/* rt_time_beyond with the failure's status: NSM_EINVAL for a step refused
** before the first one (an option error, exit 1), NSM_ENUMERIC for one
** the run met. */
RT_COLD int rt_time_beyond_as(nsm_sim *s, double h, double t_end, const char *who, int status)
{
    if (!(h > 0) || RT_T_RES * (nextafter(1.0, INFINITY) - 1.0) > h)
        return 0;
    int e;
    frexp(h / RT_T_RES, &e);        /* ulp(T) <= h/16 while T < 2^(e + 52) */
    double reach = ldexp(1.0, e + 52);
    rt_fail(s, status, -1,
            "t_end = %.9g s is beyond the time resolution for this run's steps: near it t "
            "moves only by steps of %.3g s or more (%d ulps), and %s takes steps of %.3g s, "
            "which carry t to about %.3g s at most: give an earlier end time (or run in parts)",
            t_end, rt_t_resolution(s, t_end), RT_T_RES, who, h, reach);
    return 1;
}

/* What state component i of Y = (q[nq], u[n], ...) is, for a message:
** "position of NAME" or "velocity of NAME" by the coordinate table when
** the model has one (a rigid body's B.p1 and B.w1, not its velocity's
** name for both), its scalar parts p0 (q[n + b]) by their body; buf
** holds the text. */
RT_COLD const char *rt_state_label(const nsm_sim *s, int i, char *buf, size_t size)
{
    const nsm_model *m = s->m;
    int n = s->n_vel, pos = i < s->n_pos, k = pos ? i : i - s->n_pos;
    if (pos && k >= n) {            /* the scalar part of body b's quaternion */
        int b = k - n;
        const char *w = m->rigid_rot && b < m->n_rigid ? m->body_names[m->rigid_rot[b]] : "?";
        rt_text_printf(buf, size, "position of %.*s.p0", (int)strcspn(w, "."), w);
        return buf;
    }
    const char *name = m->coords ? (pos ? m->coords[k].x : m->coords[k].v) : m->body_names[k];
    rt_text_printf(buf, size, "%s of %s", pos ? "position" : "velocity", name);
    return buf;
}

/* Name of the gap or friction element the last failure is about (the one
** its message names after "contact" or "friction"), NULL when none: callers
** get it without parsing the message. */
const char *nsm_sim_failed_contact(const nsm_sim *s)
{
    if (!s || !s->failed || s->fail_contact <= 0)
        return NULL;
    int j = s->fail_contact - 1;
    return j < s->n_gaps ? s->m->gaps[j].name : s->m->frictions[(j - s->n_gaps) / 2].name;
}

/* Name of the gap or friction element of an event record (its contact
** field: a gap, n_gaps + the friction element's index, or n_gaps +
** n_frictions + the spatial friction element's); NULL for a time switch,
** which has no name, and for an index out of range. */
const char *nsm_event_contact_name(const nsm_model *m, const nsm_event *ev)
{
    if (!m || !ev || ev->kind == NSM_EV_TIME || ev->contact < 0)
        return NULL;
    if (ev->contact < m->n_gaps)
        return m->gaps[ev->contact].name;
    int k = ev->contact - m->n_gaps, nf = m->n_frictions > 0 ? m->n_frictions : 0;
    if (k < nf)
        return m->frictions ? m->frictions[k].name : NULL;
    k -= nf;
    return k < m->n_space_frictions && m->space_frictions ? m->space_frictions[k].name : NULL;
}

/* Whether every gap of m names a registered contact law (laws.c). */
static int laws_known(const nsm_model *m)
{
    for (int j = 0; j < m->n_gaps; j++)
        if (!m->gaps || !rt_law_known(m->gaps[j].law))
            return 0;
    return 1;
}

/* Whether this runtime can simulate the model table m: NSM_OK, or
** NSM_EMODEL with the reason in *why (why may be NULL).  nsm_sim_create
** refuses exactly these tables, so that a caller told NULL can tell a
** wrong table from a lack of memory. */
/* Whether a table's state layout holds together: nq = nu = n_bodies (or 0)
** without rigid bodies; with them nq = n_bodies + n_rigid, kin given and
** each body's three rotational velocities inside the velocities. */
static int rigid_layout_ok(const nsm_model *m)
{
    int n = m->n_bodies, nq = m->nq ? m->nq : n;
    if ((m->nu && m->nu != n) || m->n_rigid < 0)
        return 0;
    if (m->n_rigid == 0)
        return nq == n;
    if (nq != n + m->n_rigid || !m->kin || !m->rigid_rot)
        return 0;
    for (int b = 0; b < m->n_rigid; b++)
        if (m->rigid_rot[b] < 0 || m->rigid_rot[b] + 3 > n)
            return 0;
    return 1;
}

int nsm_model_check(const nsm_model *m, const char **why)
{
    const char *w = !m ? "no model table"
                  : m->abi != NSM_ABI_VERSION ? "the model was generated for another version "
                                                "of the runtime (ABI); generate it again with "
                                                "this nsmc"
                  : m->modes && (!m->deriv || !m->events) ? "the model table has modes() "
                                                              "without its deriv() and events()"
                  : m->n_bodies <= 0 ? "the model table has no bodies"
                  : m->n_gaps < 0 ? "the model table's gap count is negative"
                  : m->n_frictions > 0 && !m->frictions ? "the model table lists friction "
                                                          "elements without their table"
                  : !laws_known(m) ? "a gap of the model table names a contact law this "
                                     "program has not registered"
                  : !rigid_layout_ok(m) ? "the model table's positions (nq), velocities (nu) "
                                          "and rigid bodies do not agree"
                  : NULL;
    if (why)
        *why = w;
    return w ? NSM_EMODEL : NSM_OK;
}

/* Formats a refusal of nsm_run_check into why; returns NSM_EINVAL. */
RT_COLD static int run_refuse(char *why, int len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (why && len > 0)
        rt_text_vprintf(why, (size_t)len, fmt, ap);
    va_end(ap);
    return NSM_EINVAL;
}

/* Whether a run from t = 0 to t_end, sampled every `every` s (0: every
** step) with steps of at most dt (0: the modes choose) and a cap of
** max_steps steps (0: none), can work: a t_end that is not a finite time,
** a sampling period or step below the time resolution at t_end
** (NSM_TIME_RESOLUTION t_end: t + h would not move), more than
** NSM_MAX_SAMPLES samples (a typo, not a run: it would fill the disk or the
** memory), or more steps than the cap at the largest step are refused up
** front.  NSM_OK, or NSM_EINVAL with the reason in why (len bytes). */
int nsm_run_check(double t_end, double every, double dt, long max_steps, char *why, int len)
{
    double res = NSM_TIME_RESOLUTION * t_end;
    if (!(t_end >= 0) || !isfinite(t_end))
        return run_refuse(why, len, "the end time %g s is not a finite time >= 0", t_end);
    if (t_end > 0 && t_end < DBL_MIN)   /* no step or sample of the run is a normal time */
        return run_refuse(why, len, "the end time %.3g s is subnormal, below the time resolution "
                          "of any run (the smallest normal double, %g s): choose 0 or a "
                          "larger end time", t_end, DBL_MIN);
    if (!(every >= 0) || !isfinite(every))
        return run_refuse(why, len, "the sampling period %g s is not a finite time >= 0", every);
    if (!(dt >= 0) || !isfinite(dt))
        return run_refuse(why, len, "the step %g s is not a finite time >= 0", dt);
    double count = every > 0 ? t_end / every : 0;
    if (every > 0 && every < res)      /* a subnormal period: more samples than a double holds */
        return run_refuse(why, len, "the sampling period %g s is below the time resolution at "
                          "t = %g s (%g s): %s %.3g samples; choose a larger sampling "
                          "period", every, t_end, res, isfinite(count) ? "about" : "more than",
                          fmin(count, DBL_MAX));
    if (every > 0 && t_end / every > NSM_MAX_SAMPLES)
        return run_refuse(why, len, "the sampling period %g s gives about %.3g samples over "
                          "%g s (at most %.0e): choose a larger sampling period", every,
                          t_end / every, t_end, NSM_MAX_SAMPLES);
    if (dt > 0 && dt < res)
        return run_refuse(why, len, "the step %g s is below the time resolution at t = %g s "
                          "(%g s): the time would not advance; choose a larger step", dt,
                          t_end, res);
    if (dt > 0 && max_steps > 0 && t_end / dt > (double)max_steps)
        return run_refuse(why, len, "steps of at most %g s need at least %.3g steps to reach "
                          "t = %g s, more than the step cap of %ld", dt, t_end / dt, t_end,
                          max_steps);
    return NSM_OK;
}

static const char *const kind_names[] = {
    "impact", "stick", "zeno", "separation", "contact_enter", "contact_exit", "time", "slip",
    "reversal"
};
static const char *const method_names[] = { "rk4", "adaptive", "exact", "taylor" };
static const char *const status_names[] = {
    "NSM_OK", "NSM_EINVAL", "NSM_ENOMEM", "NSM_EMODEL", "NSM_ESTEPS", "NSM_EEVENTS",
    "NSM_ENUMERIC", "NSM_EMETHOD", "NSM_ESTOPPED"
};

/* Name of an event kind, "unknown" if out of range. */
const char *nsm_event_kind_name(int kind)
{
    if (kind < 0 || kind > NSM_EV_REVERSAL)
        return "unknown";
    return kind_names[kind];
}

/* Name of a status code as nsm.h spells it ("NSM_OK", "NSM_ESTEPS", ...),
** "unknown" if it is none: messages and bindings name codes without a
** table of their own. */
const char *nsm_status_name(int status)
{
    if (status < NSM_OK || status > NSM_ESTOPPED)
        return "unknown";
    return status_names[status];
}

/* Name of an integration method, "?" if out of range. */
const char *nsm_method_name(int method)
{
    if (method < 0 || method > NSM_METHOD_TAYLOR)
        return "?";
    return method_names[method];
}

/* Method number from its name, -1 if unknown. */
int nsm_method_parse(const char *name)
{
    for (int i = 0; i <= NSM_METHOD_TAYLOR; i++)
        if (strcmp(name, method_names[i]) == 0)
            return i;
    return -1;
}
