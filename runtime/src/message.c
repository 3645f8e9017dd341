/*
** message.c: the failure message of a simulation.
**
** Every layer of the runtime records a failure the same way: the time, the
** mode and the contact, then what went wrong; the record stops further runs
** until the next reset; and the names of event kinds and methods.  It sits
** below everything else that uses it.
*/
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "rt.h"

/* "free" or "closed: a, b" for a mode, into buf. */
void rt_mode_text(const nsm_sim *s, const unsigned *mode, char *buf, int len)
{
    int any = 0;
    for (int j = 0; j < s->g && !any; j++)
        any = rt_mode_has(mode, j);
    int used = snprintf(buf, len, "%s", any ? "closed:" : "free");
    for (int j = 0; j < s->g && used < len; j++)
        if (rt_mode_has(mode, j))
            used += snprintf(buf + used, len - used, " %s", s->m->gaps[j].name);
    for (int k = 0; k < s->nf && used < len; k++)
        used += snprintf(buf + used, len - used, "%s %s %s", k ? "," : ";",
                         s->m->frictions[k].name,
                         rt_fric_stuck(s, mode, k) ? "stuck"
                         : rt_fric_sign(s, mode, k) > 0 ? "slip+" : "slip-");
}

/* Record a failure: the message names the time, the mode and the contact
** (gap < 0 for none).  Returns code, which also stops further runs. */
int rt_fail(nsm_sim *s, int code, int gap, const char *fmt, ...)
{
    char what[256], mode[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    rt_mode_text(s, s->mode, mode, sizeof mode);
    if (gap >= 0 && gap < s->g)
        snprintf(s->msg, sizeof s->msg, "t = %.17g s, mode %s, contact '%s': %s", s->t, mode,
                 s->m->gaps[gap].name, what);
    else if (gap >= s->g && gap < s->ge)
        snprintf(s->msg, sizeof s->msg, "t = %.17g s, mode %s, friction '%s': %s", s->t, mode,
                 s->m->frictions[(gap - s->g) / 2].name, what);
    else
        snprintf(s->msg, sizeof s->msg, "t = %.17g s, mode %s: %s", s->t, mode, what);
    s->failed = code;
    return code;
}

static const char *const kind_names[] = {
    "impact", "stick", "zeno", "separation", "contact_enter", "contact_exit", "time", "slip",
    "reversal"
};
static const char *const method_names[] = { "rk4", "adaptive", "exact", "taylor" };

/* Name of an event kind, "?" if out of range. */
const char *nsm_event_kind_name(int kind)
{
    if (kind < 0 || kind > NSM_EV_REVERSAL)
        return "?";
    return kind_names[kind];
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
