/*
** _record.c: compiled by the Python package nsm into every model's shared
** object, next to the generated simulator (built with -DNSM_NO_MAIN and
** -DNSMPY_MODEL=nsm_model_<name>).
**
** It keeps what Python needs from a run in C arrays, so that Python is not
** called back once per sample: every sample (t, the output columns, the
** state y) and every event (eight numbers) is appended to a growing buffer
** that Python copies into numpy arrays after the run.  It also describes
** the model table as JSON and copies the audit and contact statistics into
** flat arrays, so that the Python side depends on no C struct layout.
** Each event's contact is kept as the runtime's name for it
** (nsm_event_contact_name), of any length.  A run asked to may catch
** SIGINT: the handlers then stop the run at the next sample or event and
** the record says it was interrupted, so that Python raises
** KeyboardInterrupt with what was computed; a second SIGINT kills.  Nothing here prints.
*/
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nsm/nsm.h"

#ifndef NSMPY_MODEL
#error "compile with -DNSMPY_MODEL=<the model table's name>"
#endif
extern const nsm_model NSMPY_MODEL;

/* What one run collected; allocated and freed here. */
typedef struct NsmpyRec {
    int ncol;                 /* numbers per sample: 1 + n_outputs + 2n */
    long nsamples, scap;
    double *samples;
    long nevents, ecap;
    double *events;           /* NSMPY_EVFIELDS per event */
    const char **names;       /* each event's contact name (NULL: a switch or none) */
    long ncap;
    int oom;                  /* a buffer could not grow: the run was stopped */
    int catch_sigint;         /* this run stops on SIGINT */
    int interrupted;          /* ... and it did */
} NsmpyRec;

/* Set by the SIGINT handler while a run that catches it is going on. */
static volatile sig_atomic_t sigint_seen;

/* SIGINT while a run catches it: remembered, the run stops at its next
** step (the runtime reads the flag; handlers may do no more).  A second one, when the run
** has not got there (steps far shorter than the sampling period), ends the
** process as SIGINT does by default: Ctrl-C twice always gets out. */
static void on_sigint(int sig)
{
    if (sigint_seen) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    sigint_seen = 1;
}

/* Whether the run recording into r must stop for a SIGINT. */
static int stop_asked(NsmpyRec *r)
{
    if (!r->catch_sigint || !sigint_seen)
        return 0;
    r->interrupted = 1;
    return 1;
}

#define NSMPY_EVFIELDS 8

/* The model table this object was built with. */
const nsm_model *nsmpy_model(void)
{
    return &NSMPY_MODEL;
}

/* Grows a buffer of n items of size sz to hold one more; 0 or -1. */
static int grow(double **buf, long *cap, long n, size_t per)
{
    if (n < *cap)
        return 0;
    long nc = *cap ? 2 * *cap : 1024;
    double *b = realloc(*buf, (size_t)nc * per * sizeof(double));
    if (!b)
        return -1;
    *buf = b;
    *cap = nc;
    return 0;
}

/* Sample handler: t, every output column, the state. */
static int on_sample(void *ud, const nsm_sim *sim, double t)
{
    NsmpyRec *r = ud;
    const nsm_model *m = &NSMPY_MODEL;
    if (stop_asked(r))
        return 1;
    if (grow(&r->samples, &r->scap, r->nsamples, (size_t)r->ncol)) {
        r->oom = 1;
        return 1;
    }
    double *row = r->samples + (size_t)r->nsamples * (size_t)r->ncol;
    const double *y = nsm_sim_state(sim);
    row[0] = t;
    for (int k = 0; k < m->n_outputs; k++)
        row[1 + k] = nsm_sim_output(sim, k);
    /* the positions, then the velocities, which follow all nq positions
     * (a rigid body's quaternion has one more: nsm/model.h) */
    size_t n = (size_t)m->n_bodies, nq = m->nq ? (size_t)m->nq : n;
    memcpy(row + 1 + m->n_outputs, y, sizeof(double) * n);
    memcpy(row + 1 + m->n_outputs + n, y + nq, sizeof(double) * n);
    r->nsamples++;
    return 0;
}

/* Grows the names of the events to hold one more; 0 or -1. */
static int grow_names(NsmpyRec *r)
{
    if (r->nevents < r->ncap)
        return 0;
    long nc = r->ncap ? 2 * r->ncap : 1024;
    const char **b = realloc(r->names, (size_t)nc * sizeof *b);
    if (!b)
        return -1;
    r->names = b;
    r->ncap = nc;
    return 0;
}

/* Event handler: the record's fields as numbers, its contact's name. */
static int on_event(void *ud, const nsm_sim *sim, const nsm_event *ev)
{
    NsmpyRec *r = ud;
    (void)sim;
    if (grow(&r->events, &r->ecap, r->nevents, NSMPY_EVFIELDS) || grow_names(r)) {
        r->oom = 1;
        return 1;
    }
    r->names[r->nevents] = nsm_event_contact_name(&NSMPY_MODEL, ev);
    double *e = r->events + (size_t)r->nevents * NSMPY_EVFIELDS;
    e[0] = ev->t;
    e[1] = ev->kind;
    e[2] = ev->contact;
    e[3] = ev->vrel_before;
    e[4] = ev->vrel_after;
    e[5] = ev->impulse;
    e[6] = ev->energy_lost;
    e[7] = (double)ev->count;
    r->nevents++;
    return stop_asked(r);
}

/* A new, empty record for runs of this model; NULL when out of memory. */
NsmpyRec *nsmpy_rec_new(void)
{
    NsmpyRec *r = calloc(1, sizeof *r);
    if (r)
        r->ncol = 1 + NSMPY_MODEL.n_outputs + 2 * NSMPY_MODEL.n_bodies;
    return r;
}

/* Frees a record and its buffers. */
void nsmpy_rec_free(NsmpyRec *r)
{
    if (!r)
        return;
    free(r->samples);
    free(r->events);
    free(r->names);
    free(r);
}

/* Accessors of a record, for Python. */
int nsmpy_rec_ncol(const NsmpyRec *r) { return r->ncol; }
long nsmpy_rec_nsamples(const NsmpyRec *r) { return r->nsamples; }
const double *nsmpy_rec_samples(const NsmpyRec *r) { return r->samples; }
long nsmpy_rec_nevents(const NsmpyRec *r) { return r->nevents; }
const double *nsmpy_rec_events(const NsmpyRec *r) { return r->events; }
const char **nsmpy_rec_names(const NsmpyRec *r) { return r->names; }
int nsmpy_rec_oom(const NsmpyRec *r) { return r->oom; }
int nsmpy_rec_interrupted(const NsmpyRec *r) { return r->interrupted; }

/* The runtime's warnings of one simulation (the contact-tolerance band of
** a contact far from the origin, a step reduced for stability), kept as
** lines for Python to show with warnings.warn and keep on the result:
** without a handler they went nowhere, where the simulators print them. */
typedef struct NsmpyWarn {
    char *text;               /* the lines, each ending in '\n'; NULL when none */
    size_t n, cap;
} NsmpyWarn;

/* The warning handler: appends the line (dropped when memory runs out: a
** warning never stops the run). */
static void on_warning(void *ud, const nsm_sim *sim, const char *text)
{
    NsmpyWarn *w = ud;
    size_t len = strlen(text);
    (void)sim;
    if (w->n + len + 2 > w->cap) {
        size_t cap = 2 * (w->n + len + 2);
        char *t = realloc(w->text, cap);
        if (!t)
            return;
        w->text = t;
        w->cap = cap;
    }
    memcpy(w->text + w->n, text, len);
    w->n += len;
    w->text[w->n++] = '\n';
    w->text[w->n] = '\0';
}

/* Collects sim's warnings from now on; NULL when out of memory (then they
** are not collected).  Free with nsmpy_warn_free after the simulation. */
NsmpyWarn *nsmpy_warn_attach(nsm_sim *sim)
{
    NsmpyWarn *w = calloc(1, sizeof *w);
    if (w)
        nsm_sim_set_warning_handler(sim, on_warning, w);
    return w;
}

/* The warnings collected so far, one per line ("" when none), and forgets
** them (each is shown once). */
const char *nsmpy_warn_take(NsmpyWarn *w, size_t *len)
{
    *len = w ? w->n : 0;
    if (w)
        w->n = 0;
    return w && w->text ? w->text : "";
}

/* Frees what nsmpy_warn_attach made (its simulation freed first, or its
** handler removed). */
void nsmpy_warn_free(NsmpyWarn *w)
{
    if (w)
        free(w->text);
    free(w);
}

/* The SIGINT action that nsmpy_catch_begin replaced (the interpreter's),
** and whether it is replaced now. */
static struct sigaction caught_old;
static int catching;

/* Starts catching SIGINT for what sim runs next (nsmpy_run, or a study the
** Python side runs through the runtime: a section, a transient, a Lyapunov
** spectrum, a shooting, a continuation, which ignored Ctrl-C to their end):
** the handler sets the flag that the run loop reads before every step, so
** the run stops with NSM_ESTOPPED.  1 when SIGINT is caught (then call
** nsmpy_catch_end), 0 when the handler could not be installed. */
int nsmpy_catch_begin(nsm_sim *sim)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigint_seen = 0;
    if (catching || sigaction(SIGINT, &sa, &caught_old) != 0)
        return 0;
    catching = 1;
    nsm_sim_set_stop_flag(sim, &sigint_seen);
    return 1;
}

/* Asks the run that catches SIGINT to stop before its next step, as a
** SIGINT does: for a KeyboardInterrupt the interpreter raised without a
** real signal (_thread.interrupt_main), which the handler never sees. */
void nsmpy_catch_stop(void)
{
    if (catching)
        sigint_seen = 1;
}

/* Ends what nsmpy_catch_begin started (the interpreter's handler back);
** whether a SIGINT came meanwhile.  Called when nothing was started (a
** KeyboardInterrupt raised just before or after nsmpy_catch_begin returned)
** it does nothing: the caller may always call it, so the interpreter's
** handler is never left replaced (Ctrl-C was then ignored once and the next
** one ended the interpreter). */
int nsmpy_catch_end(nsm_sim *sim)
{
    nsm_sim_set_stop_flag(sim, NULL);
    if (!catching)
        return 0;
    catching = 0;
    sigaction(SIGINT, &caught_old, NULL);
    return sigint_seen != 0;
}

/* Resets sim (replaying the initial transitions into r) and runs it to
** t_end, recording every sample and event.  With catch_sigint, SIGINT
** stops the run (the previous handler is restored after it, and
** nsmpy_rec_interrupted says so); only the interpreter's main thread asks
** for it.  Returns the runtime's status. */
int nsmpy_run(nsm_sim *sim, NsmpyRec *r, double t_end, int catch_sigint)
{
    r->interrupted = 0;
    r->catch_sigint = catch_sigint && nsmpy_catch_begin(sim);
    nsm_sim_set_event_handler(sim, on_event, r);
    nsm_sim_set_sample_handler(sim, on_sample, r);
    int rc = nsm_sim_reset(sim);
    if (rc == NSM_OK)
        rc = nsm_sim_run_until(sim, t_end);
    if (rc == NSM_OK)
        rc = nsm_sim_sample_end(sim);   /* the end off the sampling grid: its last row */
    nsm_sim_set_event_handler(sim, NULL, NULL);
    nsm_sim_set_sample_handler(sim, NULL, NULL);
    if (r->catch_sigint && nsmpy_catch_end(sim))
        r->interrupted = 1;
    return rc;
}

/* The energy audit as NSMPY_AUDIT numbers, in nsm_audit's order. */
#define NSMPY_AUDIT 17
int nsmpy_audit(const nsm_sim *sim, double *out)
{
    nsm_audit a;
    int rc = nsm_sim_audit(sim, &a);
    double v[NSMPY_AUDIT] = {
        a.kinetic, a.potential, a.springs, a.gravity, a.contacts, a.injected, a.dissipated,
        a.lost, a.e0, a.error, a.error_max, a.energy_max, a.aster_energy, a.aster_force,
        (double)a.steps, a.dissipated_other, a.injected_other
    };
    memcpy(out, v, sizeof v);
    return rc;
}

/* The statistics of gap j as NSMPY_STATS numbers, in nsm_contact_stats's order. */
#define NSMPY_STATS 10
int nsmpy_contact_stats(const nsm_sim *sim, int j, double *out)
{
    nsm_contact_stats c;
    int rc = nsm_sim_contact_stats(sim, j, &c);
    double v[NSMPY_STATS] = {
        (double)c.impacts, (double)c.zeno, (double)c.phases, c.contact_time, c.impulse,
        c.peak_force, c.max_speed, c.energy_lost, c.damper_energy, c.aster_force
    };
    memcpy(out, v, sizeof v);
    return rc;
}

/* The statistics of friction element k (model->frictions[k]) as
** NSMPY_FSTATS numbers, in nsm_friction_stats's order. */
#define NSMPY_FSTATS 7
int nsmpy_friction_stats(const nsm_sim *sim, int k, double *out)
{
    nsm_friction_stats f;
    int rc = nsm_sim_friction_stats(sim, k, &f);
    if (rc != NSM_OK)
        return rc;
    double v[NSMPY_FSTATS] = {
        f.dissipated, f.surface_work, f.stick_time, (double)f.sticks, (double)f.slips,
        (double)f.reversals, (double)f.state
    };
    memcpy(out, v, sizeof v);
    return rc;
}

/* Appends s to the JSON buffer as a string. */
static void json_str(char **p, char *end, const char *s)
{
    if (*p < end)
        *(*p)++ = '"';
    for (; s && *s && *p < end - 6; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            *(*p)++ = '\\';
            *(*p)++ = (char)c;
        } else if (c < 0x20) {
            *p += snprintf(*p, (size_t)(end - *p), "\\u%04x", c);
        } else {
            *(*p)++ = (char)c;
        }
    }
    if (*p < end)
        *(*p)++ = '"';
}

/* Appends formatted text to the JSON buffer. */
#define JSON(...) (p += snprintf(p, p < end ? (size_t)(end - p) : 0, __VA_ARGS__))

/* Describes the model table as JSON into buf: name, title, bodies,
** parameters (name, unit, default), gaps (name, law), outputs (name, unit),
** defaults of the run.  Returns the length needed (>= len: buffer too small). */
static long describe_json(char *buf, long len)
{
    const nsm_model *m = &NSMPY_MODEL;
    char *p = buf, *end = buf + len;
    JSON("{\"abi\": %d, \"nq\": %d, \"name\": ", m->abi, m->nq ? m->nq : m->n_bodies);
    json_str(&p, end, m->name);
    JSON(", \"title\": ");
    json_str(&p, end, m->title ? m->title : "");
    JSON(", \"t_end\": %.17g, \"dt\": %.17g, \"every\": %.17g, \"method\": ", m->t_end, m->dt,
         m->every);
    json_str(&p, end, nsm_method_name(m->method));
    JSON(", \"bodies\": [");
    for (int i = 0; i < m->n_bodies; i++) {
        JSON("%s", i ? ", " : "");
        json_str(&p, end, m->body_names ? m->body_names[i] : "");
    }
    JSON("], \"params\": [");
    for (int k = 0; k < m->n_params; k++) {
        JSON("%s[", k ? ", " : "");
        json_str(&p, end, m->params[k].name);
        JSON(", ");
        json_str(&p, end, m->params[k].unit);
        JSON(", %.17g]", m->params[k].value);
    }
    JSON("], \"gaps\": [");
    for (int j = 0; j < m->n_gaps; j++) {
        JSON("%s[", j ? ", " : "");
        json_str(&p, end, m->gaps[j].name);
        JSON(", \"%s\"]", nsm_law_name(m->gaps[j].law));
    }
    JSON("], \"outputs\": [");
    for (int k = 0; k < m->n_outputs; k++) {
        JSON("%s[", k ? ", " : "");
        json_str(&p, end, m->outputs[k].name);
        JSON(", ");
        json_str(&p, end, m->outputs[k].unit);
        JSON("]");
    }
    JSON("], \"frictions\": [");
    for (int k = 0; k < m->n_frictions; k++) {
        JSON("%s", k ? ", " : "");
        json_str(&p, end, m->frictions[k].name);
    }
    JSON("], \"space_frictions\": [");
    for (int k = 0; k < m->n_space_frictions; k++) {
        JSON("%s", k ? ", " : "");
        json_str(&p, end, m->space_frictions[k].name);
    }
    JSON("], \"kinds\": [");
    for (int k = 0; k <= NSM_EV_REVERSAL; k++) {
        JSON("%s", k ? ", " : "");
        json_str(&p, end, nsm_event_kind_name(k));
    }
    JSON("]}");
    if (p < end)
        *p = '\0';
    else if (len > 0)
        buf[len - 1] = '\0';
    return (long)(p - buf) + 1;
}

/* describe_json with numbers written with a point whatever the process's
** locale: a Python program that had set a decimal comma
** (locale.setlocale(locale.LC_ALL, "")) got "t_end": 10,5, which no
** JSON reader takes (and a default's 0,9 read as two numbers). */
long nsmpy_describe(char *buf, long len)
{
    nsm_locale_saved saved;
    nsm_locale_c_begin(&saved);
    long n = describe_json(buf, len);
    nsm_locale_c_end(&saved);
    return n;
}

/* The command line's reading of --set NAME='VALUE UNIT' (setfile_value, in
** libnsmcli, runtime/programs/setfile.c): params={'g': '981 cm/s^2'} is
** converted to SI exactly as --set g='981 cm/s^2' is, with its errors. */
int setfile_value(const char *text, const char *unit, int any, double *value, char *err,
                  size_t errlen);

/* A parameter's value text with a unit into *value (SI) for the parameter
** whose SI unit is unit: 0, or -1 with the reason in err.  Read in the C
** locale's numbers, as the simulators (which set no locale) read --set: a
** Python program that had set a decimal comma got params={'g': '2.5'}
** refused ("unknown unit '.5'"), strtod stopping at the point. */
int nsmpy_param_value(const char *text, const char *unit, double *value, char *err,
                      size_t errlen)
{
    nsm_locale_saved saved;
    nsm_locale_c_begin(&saved);
    int rc = setfile_value(text, unit, 0, value, err, errlen);
    nsm_locale_c_end(&saved);
    return rc;
}
