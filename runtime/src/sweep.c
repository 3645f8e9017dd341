/*
** sweep.c: nsm_sweep_main, the parameter-study program `nsmc sweep` builds
** for a model (its generated C with this main).  Like driver.c it prints:
** it is a program.
**
**   --param NAME=START:STOP:COUNT (repeatable; the first is the diagram's
**   axis and the direction of continuation)  --section SPEC
**   [--section-period EXPR] [--transient N] [--record N]
**   [--continue up|down|both] [--jobs N] [--set NAME=VALUE]... [--method M]
**   [--t-max EXPR] [--plot COLUMN] --out-dir DIR
**
** Every grid point is a run of the model through the C API (nsm/nsm.h) with
** its parameters: the first N section records are dropped (--transient),
** the next N kept (--record).  A run ends with them, or at --t-max (by
** default the model's t_end with the point's parameters).  With --continue
** each point of a branch (the first parameter swept up or down, the others
** fixed) starts from the state the point before reached: its runs go one
** forcing period (--section-period, or the period of a stroboscopic
** section) at a time, and the next point starts at t = 0 from the state at
** the end of the last period, at the same phase of the forcing.
**
** Work is shared out in units (a point, or a whole branch with --continue)
** over --jobs threads, and over MPI ranks when the program was built with
** MPI and started by mpirun (units round-robin over the ranks).  Each
** unit's text is kept apart and written in unit order by one process, so
** the files are the same, byte for byte, for any number of jobs and ranks.
**
** Output in DIR (each written to a temporary and renamed into place):
**   section.csv    the swept parameters, [branch,] t, phase, the state
**   summary.csv    per point: status, records, the orbit's period (forcing
**                  periods, or records without a period; "none"), its
**                  section records and impacts
**   bifurcation.gp, .png, .svg   gnuplot: a column against the first
**                  parameter
**
** Exit status: 0 ok, 1 bad arguments or an output that cannot be written,
** 3 some points failed (they are listed in summary.csv).
*/
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef NSM_HAVE_MPI
#include <mpi.h>
#endif

#include "nsm/nsm.h"
#include "progress.h"

#define SW_MAX_AXES 8
#define SW_MAX_SETS 256
#define SW_MAX_PERIOD 64      /* longest orbit looked for, in records */

typedef struct Axis {
    const char *name;
    double lo, hi;
    long n;
} Axis;

/* A growing text buffer. */
typedef struct Text {
    char *s;
    size_t n, cap;
    int err;
} Text;

typedef struct Sweep {
    const nsm_model *m;
    const char *prog;
    Axis ax[SW_MAX_AXES];
    int nax;
    const char *section, *pexpr, *tmax, *out_dir, *plot_col;
    char period_expr[512];    /* the phase period: --section-period or the section's own */
    const char *sets[SW_MAX_SETS];
    int nsets, method, cont;  /* cont: 0 none, 1 up, 2 down, 3 both */
    long transient, record;
    int jobs;
    long npoints, nouter, nunits;
    Text *sec_text, *sum_text, *bif_text; /* per unit */
    int floquet;              /* --floquet: multipliers and their crossings */
    int *unit_failed;
    /* work sharing */
    pthread_mutex_t lock;
    long next, done;
    int rank, size;
    Progress pb;
} Sweep;

/* One record kept. */
typedef struct Rec {
    double t, phase;
    long impacts;             /* impacts counted up to this record */
} Rec;

/* What a run collects through the handlers. */
typedef struct Collect {
    const Sweep *sw;
    int n2;
    long count, impacts;
    long kept;
    Rec *rec;                 /* record entries */
    double *y;                /* record * n2 states */
    int stop_when_done;
} Collect;

/* ---- text ------------------------------------------------------------- */

static void text_printf(Text *t, const char *fmt, ...)
{
    if (t->err)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(t->s ? t->s + t->n : NULL, t->s ? t->cap - t->n : 0, fmt, ap);
        va_end(ap);
        if (k < 0) {
            t->err = 1;
            return;
        }
        if (t->s && (size_t)k < t->cap - t->n) {
            t->n += (size_t)k;
            return;
        }
        size_t cap = t->cap * 2 + (size_t)k + 256;
        char *s = realloc(t->s, cap);
        if (!s) {
            t->err = 1;
            return;
        }
        t->s = s;
        t->cap = cap;
    }
}

/* ---- arguments ---------------------------------------------------------- */

static int bad(const char *prog, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: error: ", prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    return 1;
}

static int parse_num(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return *s && !*end && errno == 0 && isfinite(*v);
}

static int parse_count(const char *s, long lo, long hi, long *v)
{
    double d;
    if (!parse_num(s, &d) || d != floor(d) || d < lo || d > hi)
        return 0;
    *v = (long)d;
    return 1;
}

/* NAME=START:STOP:COUNT */
static int parse_axis(const char *val, Axis *a, char *name, size_t len)
{
    const char *eq = strchr(val, '=');
    if (!eq || eq == val || (size_t)(eq - val) >= len)
        return 0;
    memcpy(name, val, eq - val);
    name[eq - val] = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", eq + 1);
    char *c1 = strchr(buf, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c1 || !c2)
        return 0;
    *c1 = *c2 = 0;
    a->name = name;
    return parse_num(buf, &a->lo) && parse_num(c1 + 1, &a->hi) &&
           parse_count(c2 + 1, 1, 100000000, &a->n);
}

static void usage(const char *prog, FILE *f)
{
    fprintf(f,
            "usage: %s --param NAME=START:STOP:COUNT [--param ...] --section SPEC --out-dir DIR\n"
            "         [--section-period EXPR] [--transient N] [--record N]\n"
            "         [--continue up|down|both] [--jobs N] [--set NAME=VALUE]... [--method M]\n"
            "         [--t-max EXPR] [--plot COLUMN] [--floquet]\n"
            "Run the model over a grid of parameters and record a Poincare section per point\n"
            "(SPEC: impact:GAP, period:T[:T0] or plane:F[:up|down|both]); see docs/studies.md.\n",
            prog);
}

/* ---- one point ---------------------------------------------------------- */

static int on_section(void *ud, const nsm_sim *sim, const nsm_section_record *r)
{
    Collect *c = ud;
    (void)sim;
    long need = c->sw->transient + c->sw->record;
    if (c->count >= need)
        return c->stop_when_done;
    if (c->count >= c->sw->transient) {
        Rec *e = &c->rec[c->kept];
        e->t = r->t;
        e->phase = r->phase;
        e->impacts = c->impacts;
        memcpy(c->y + (size_t)c->kept * c->n2, r->y, sizeof(double) * c->n2);
        c->kept++;
    }
    c->count++;
    return c->count >= need && c->stop_when_done;
}

static int on_event(void *ud, const nsm_sim *sim, const nsm_event *ev)
{
    Collect *c = ud;
    (void)sim;
    if (ev->kind == NSM_EV_IMPACT)
        c->impacts++;
    return 0;
}

/* Whether records a and b are the same point of the section: the phase
** (on the circle) and every state column within 1e-6 of its scale. */
static int rec_same(const Collect *c, long a, long b, const double *scale)
{
    const Rec *ra = &c->rec[a], *rb = &c->rec[b];
    if (isfinite(ra->phase)) {
        double d = fabs(ra->phase - rb->phase);
        if (fmin(d, 1 - d) > 1e-6)
            return 0;
    }
    for (int i = 0; i < c->n2; i++)
        if (fabs(c->y[a * c->n2 + i] - c->y[b * c->n2 + i]) > 1e-6 * scale[i])
            return 0;
    return 1;
}

/* The smallest p such that the records repeat every p; 0 if none up to
** SW_MAX_PERIOD (and at most half the records). */
static long orbit_records(const Collect *c)
{
    /* each column's scale, at least 1e-3 of the largest: a column that
     * stays at 0 to rounding (the position at an impact) is not compared
     * on the scale of its rounding */
    double scale[c->n2 > 0 ? c->n2 : 1], top = 1e-300;
    for (int i = 0; i < c->n2; i++) {
        scale[i] = 0;
        for (long k = 0; k < c->kept; k++)
            scale[i] = fmax(scale[i], fabs(c->y[k * c->n2 + i]));
        top = fmax(top, scale[i]);
    }
    for (int i = 0; i < c->n2; i++)
        scale[i] = fmax(scale[i], 1e-3 * top);
    for (long p = 1; p <= SW_MAX_PERIOD && 2 * p <= c->kept; p++) {
        long k;
        for (k = 0; k + p < c->kept; k++)
            if (!rec_same(c, k, k + p, scale))
                break;
        if (k + p >= c->kept)
            return p;
    }
    return 0;
}

/* Set the point's parameters: the fixed --set values, then the axes. */
static int point_params(const Sweep *sw, nsm_sim *sim, long point, double *pv)
{
    for (int k = 0; k < sw->nsets; k++) {
        char name[128];
        const char *eq = strchr(sw->sets[k], '=');
        double v;
        snprintf(name, sizeof name, "%.*s", (int)(eq - sw->sets[k]), sw->sets[k]);
        parse_num(eq + 1, &v);
        if (nsm_sim_set_param(sim, name, v))
            return 1;
    }
    long q = point;
    for (int a = 0; a < sw->nax; a++) {
        long i = q % sw->ax[a].n;
        q /= sw->ax[a].n;
        const Axis *x = &sw->ax[a];
        pv[a] = x->n == 1 ? x->lo : x->lo + (x->hi - x->lo) * (double)i / (double)(x->n - 1);
        if (nsm_sim_set_param(sim, x->name, pv[a]))
            return 1;
    }
    return 0;
}

/* Run one point: records into c; the state at the end in yend (continuation,
** when a period is known).  Returns 0 ok, 1 too few records, 2 failed
** (message in msg). */
static int point_run(const Sweep *sw, nsm_sim *sim, Collect *c, double *yend, char *msg, size_t len,
                     double *Tp_out)
{
    double Tp = 0, tmax;
    int rc;
    c->count = c->impacts = c->kept = 0;
    if ((rc = nsm_sim_reset(sim))) {
        snprintf(msg, len, "%s", nsm_sim_message(sim));
        return 2;
    }
    if (sw->period_expr[0] && (nsm_sim_eval(sim, sw->period_expr, &Tp) || !(Tp > 0))) {
        snprintf(msg, len, "the period %s is not a positive time here", sw->period_expr);
        return 2;
    }
    *Tp_out = Tp;
    if (sw->tmax) {
        if (nsm_sim_eval(sim, sw->tmax, &tmax) || !(tmax > 0)) {
            snprintf(msg, len, "--t-max %s is not a positive time here", sw->tmax);
            return 2;
        }
    } else if (nsm_sim_model_times(sim, &tmax, NULL, NULL)) {
        snprintf(msg, len, "the model's t_end is not a positive time here");
        return 2;
    }
    long need = sw->transient + sw->record;
    if ((sw->cont || sw->floquet) && Tp > 0) {
        /* a forcing period at a time: the run ends at a multiple of it */
        c->stop_when_done = 0;
        for (long k = 1; c->count < need; k++) {
            double t = fmin((double)k * Tp, tmax);
            rc = nsm_sim_run_until(sim, t);
            if (rc)
                break;
            if (t >= tmax)
                break;
        }
    } else {
        c->stop_when_done = 1;
        rc = nsm_sim_run_until(sim, tmax);
        if (rc == NSM_ESTOPPED && c->count >= need)
            rc = NSM_OK;
    }
    if (rc) {
        snprintf(msg, len, "%s", nsm_sim_message(sim));
        return 2;
    }
    memcpy(yend, nsm_sim_state(sim), sizeof(double) * c->n2);
    return c->count >= need ? 0 : 1;
}

/* Append one point's rows and summary to the unit's texts. */
static void point_write(const Sweep *sw, Text *sec, Text *sum, const double *pv, const char *branch,
                        const Collect *c, int status, const char *msg, double Tp, const char *mult)
{
    for (long k = 0; k < c->kept; k++) {
        for (int a = 0; a < sw->nax; a++)
            text_printf(sec, "%.17g,", pv[a]);
        if (sw->cont)
            text_printf(sec, "%s,", branch);
        text_printf(sec, "%.17g,%.17g", c->rec[k].t, c->rec[k].phase);
        for (int i = 0; i < c->n2; i++)
            text_printf(sec, ",%.17g", c->y[k * c->n2 + i]);
        text_printf(sec, "\n");
    }
    for (int a = 0; a < sw->nax; a++)
        text_printf(sum, "%.17g,", pv[a]);
    if (sw->cont)
        text_printf(sum, "%s,", branch);
    char clean[600] = "";
    if (status == 2) {
        size_t k = 0;
        for (const char *q = msg; *q && k + 1 < sizeof clean; q++)
            clean[k++] = *q == '"' ? '\'' : *q;
        clean[k] = 0;
    } else if (status == 1) {
        snprintf(clean, sizeof clean, "fewer than %ld records before t = t-max",
                 sw->transient + sw->record);
    } else if (mult && mult[0] == '!') {
        snprintf(clean, sizeof clean, "%.500s", mult + 1);
        mult = "";
    }
    long p = status == 0 ? orbit_records(c) : 0;
    text_printf(sum, "%s,%ld,", status == 0 ? "ok" : status == 1 ? "short" : "failed", c->kept);
    if (status != 0)
        text_printf(sum, ",,");
    else if (p == 0)
        text_printf(sum, "none,,");
    else if (Tp > 0)
        /* the orbit's duration in forcing periods: its phase repeats, so the
         * time between repeats is a whole number of them */
        text_printf(sum, "%.0f,%ld,", floor((c->rec[p].t - c->rec[0].t) / Tp + 0.5), p);
    else
        text_printf(sum, "%ld,%ld,", p, p);
    if (p > 0)
        text_printf(sum, "%ld", c->rec[p].impacts - c->rec[0].impacts);
    if (sw->floquet)
        text_printf(sum, ",%s", mult ? mult : "");
    text_printf(sum, clean[0] ? ",\"%s\"\n" : ",\n", clean);
}

/* The orbit's period in forcing periods (0: none found, or no period). */
static long orbit_periods(const Collect *c, double Tp)
{
    long p = Tp > 0 ? orbit_records(c) : 0;
    return p > 0 ? (long)floor((c->rec[p].t - c->rec[0].t) / Tp + 0.5) : 0;
}

/* An orbit found on a branch: the parameter, its period, its state at
** t = 0 and det(I + Phi), det(Phi - I) (signs: a multiplier through -1, +1). */
typedef struct Orbit {
    int ok;
    long k;
    double par, gm, gp;
    double y[2 * 64];
    double near[2];           /* distance of the nearest multiplier to -1, to +1 */
} Orbit;

/* det(I + Phi) and det(Phi - I) from the multipliers: products of
** (1 + mu) and (mu - 1) over them, real for a real matrix. */
static void orbit_dets(int n2, const double *re, const double *im, double *gm, double *gp)
{
    double ar = 1, ai = 0, br = 1, bi = 0;
    for (int i = 0; i < n2; i++) {
        double r = ar * (1 + re[i]) - ai * im[i], q = ar * im[i] + ai * (1 + re[i]);
        ar = r, ai = q;
        r = br * (re[i] - 1) - bi * im[i], q = br * im[i] + bi * (re[i] - 1);
        br = r, bi = q;
    }
    *gm = ar;
    *gp = br;
}

/* The periodic orbit of k forcing periods at the first parameter = par
** (the other parameters as set), from the guess in o->y; multipliers into
** re, im.  0 ok. */
static int orbit_at(const Sweep *sw, nsm_sim *sim, double par, long k, double Tp, Orbit *o,
                    double *re, double *im)
{
    int n2 = 2 * sw->m->n_bodies;
    if (nsm_sim_set_param(sim, sw->ax[0].name, par))
        return 1;
    double T = Tp;
    if (nsm_sim_eval(sim, sw->period_expr, &T) || !(T > 0))
        return 1;
    if (nsm_sim_periodic_orbit(sim, (double)k * T, o->y, re, im))
        return 1;
    o->ok = 1;
    o->k = k;
    o->par = par;
    orbit_dets(n2, re, im, &o->gm, &o->gp);
    o->near[0] = o->near[1] = HUGE_VAL;
    for (int i = 0; i < n2; i++) {
        o->near[0] = fmin(o->near[0], hypot(re[i] + 1, im[i]));
        o->near[1] = fmin(o->near[1], hypot(re[i] - 1, im[i]));
    }
    return 0;
}

/* A multiplier crosses -1 (which = 0) or +1 (which = 1) between orbits a
** and b of the same period: bisect on the first parameter to 1e-10 of its
** scale, each orbit by shooting from the last one on a's side, and append
** the point to the unit's bifurcation text. */
static void crossing(const Sweep *sw, nsm_sim *sim, Text *bif, const double *pv, const char *branch,
                     const Orbit *a, const Orbit *b, int which)
{
    int n2 = 2 * sw->m->n_bodies;
    Orbit lo = *a, hi = *b, mid;
    double re[2 * 64], im[2 * 64], tol = 1e-10 * (1 + fabs(a->par));
    int ok = 1;
    while (fabs(hi.par - lo.par) > tol && ok) {
        mid = lo;
        double m = 0.5 * (lo.par + hi.par);
        if (orbit_at(sw, sim, m, lo.k, 0, &mid, re, im)) {
            ok = 0;
            break;
        }
        double gl = which ? lo.gp : lo.gm, gm = which ? mid.gp : mid.gm;
        if ((gm > 0) == (gl > 0))
            lo = mid;
        else
            hi = mid;
    }
    for (int x = 1; x < sw->nax; x++)
        text_printf(bif, "%.17g,", pv[x]);
    if (sw->cont)
        text_printf(bif, "%s,", branch);
    /* a true crossing leaves a multiplier at -1 (+1) at the bisected
     * point; a sign change without one is the orbit changing under the
     * shooting (an impact appearing at a grazing, say) */
    const char *note = !ok ? "bracket only (shooting failed inside)"
                       : fmin(lo.near[which], hi.near[which]) <= 1e-4 ? "bisected"
                       : "no multiplier there: the orbit changes (a grazing?)";
    text_printf(bif, "%s,%ld,%.17g,%.17g,%s\n", which ? "multiplier +1" : "period doubling (-1)",
                a->k, 0.5 * (lo.par + hi.par), fabs(hi.par - lo.par), note);
    (void)n2;
}

/* ---- units and workers ------------------------------------------------- */

/* Unit u: its branch (0 none, 1 up, 2 down), its outer index and, without
** continuation, its point. */
static void unit_shape(const Sweep *sw, long u, int *branch, long *outer)
{
    if (!sw->cont) {
        *branch = 0;
        *outer = u;
        return;
    }
    if (sw->cont == 3) {
        *branch = 1 + (int)(u % 2);
        *outer = u / 2;
    } else {
        *branch = sw->cont;
        *outer = u;
    }
}

/* Run unit u into its texts; returns 1 when a point failed. */
static int unit_run(Sweep *sw, nsm_sim *sim, Collect *c, long u)
{
    int n2 = c->n2, branch, failed = 0, have = 0;
    long outer;
    double pv[SW_MAX_AXES], ystate[n2 > 0 ? n2 : 1], yend[n2 > 0 ? n2 : 1];
    char msg[600], mult[64 * 2 * 60];
    Orbit prev = { 0 }, cur;
    unit_shape(sw, u, &branch, &outer);
    const char *bname = branch == 0 ? "-" : branch == 1 ? "up" : "down";
    long n0 = sw->ax[0].n, count = sw->cont ? n0 : 1;
    for (long k = 0; k < count; k++) {
        long point = !sw->cont ? outer : outer * n0 + (branch == 2 ? n0 - 1 - k : k);
        int status;
        double Tp = 0;
        nsm_sim_set_initial_state(sim, have ? ystate : NULL);
        if (point_params(sw, sim, point, pv)) {
            snprintf(msg, sizeof msg, "a parameter could not be set");
            status = 2;
        } else {
            status = point_run(sw, sim, c, yend, msg, sizeof msg, &Tp);
        }
        mult[0] = 0;
        cur.ok = 0;
        long kper = status == 0 && sw->floquet ? orbit_periods(c, Tp) : 0;
        if (kper > 0 && n2 <= 2 * 64) {
            double re[2 * 64], im[2 * 64];
            memcpy(cur.y, yend, sizeof(double) * n2);
            if (orbit_at(sw, sim, pv[0], kper, Tp, &cur, re, im)) {
                snprintf(mult, sizeof mult, "!no multipliers: %s", nsm_sim_message(sim));
                cur.ok = 0;
            } else {
                size_t used = 0;
                for (int i = 0; i < n2 && used + 60 < sizeof mult; i++)
                    used += (size_t)snprintf(mult + used, sizeof mult - used, "%s%.10g%+.10gi",
                                             i ? " " : "", re[i], im[i]);
            }
        }
        point_write(sw, &sw->sec_text[u], &sw->sum_text[u], pv, bname, c, status, msg, Tp, mult);
        /* a multiplier through -1 or +1 between the last orbit of the branch
         * and its continuation here by shooting (the same orbit, stable or
         * not, whatever the run settled on) */
        if (sw->floquet && prev.ok && (sw->cont || point % n0 != 0)) {
            Orbit next = prev;
            double re[2 * 64], im[2 * 64];
            if (cur.ok && cur.k == prev.k)
                next = cur;
            else if (orbit_at(sw, sim, pv[0], prev.k, 0, &next, re, im))
                next.ok = 0;
            if (next.ok && (prev.gm > 0) != (next.gm > 0))
                crossing(sw, sim, &sw->bif_text[u], pv, bname, &prev, &next, 0);
            if (next.ok && (prev.gp > 0) != (next.gp > 0))
                crossing(sw, sim, &sw->bif_text[u], pv, bname, &prev, &next, 1);
            if (!cur.ok && next.ok && next.k == prev.k && sw->cont)
                cur = next;             /* follow the branch on */
        }
        prev = cur;
        failed |= status == 2;
        have = sw->cont && status == 0;
        if (have)
            memcpy(ystate, yend, sizeof ystate);
        if (sw->rank == 0) {
            pthread_mutex_lock(&sw->lock);
            sw->done++;
            progress_update(&sw->pb, (double)sw->done * sw->size / (double)sw->npoints);
            pthread_mutex_unlock(&sw->lock);
        }
    }
    return failed;
}

/* A worker: its own simulation, units taken in turn from the shared
** counter (only those of this rank). */
static void *worker(void *arg)
{
    Sweep *sw = arg;
    nsm_sim *sim = nsm_sim_create(sw->m);
    Collect c = { sw, 2 * sw->m->n_bodies, 0, 0, 0, NULL, NULL, 0 };
    c.rec = malloc(sizeof(Rec) * (size_t)(sw->record + 1));
    c.y = malloc(sizeof(double) * (size_t)(sw->record + 1) * (size_t)(c.n2 ? c.n2 : 1));
    if (!sim || !c.rec || !c.y || nsm_sim_set_section(sim, sw->section) ||
        (sw->pexpr && nsm_sim_set_section_period(sim, sw->pexpr))) {
        nsm_sim_free(sim);
        free(c.rec);
        free(c.y);
        return (void *)1;
    }
    nsm_sim_set_method(sim, sw->method);
    nsm_sim_set_audit(sim, 0);
    nsm_sim_set_section_handler(sim, on_section, &c);
    nsm_sim_set_event_handler(sim, on_event, &c);
    for (;;) {
        pthread_mutex_lock(&sw->lock);
        long u = sw->next;
        while (u < sw->nunits && u % sw->size != sw->rank)
            u++;
        sw->next = u + 1;
        pthread_mutex_unlock(&sw->lock);
        if (u >= sw->nunits)
            break;
        sw->unit_failed[u] = unit_run(sw, sim, &c, u);
    }
    nsm_sim_free(sim);
    free(c.rec);
    free(c.y);
    return NULL;
}

/* ---- output --------------------------------------------------------------- */

/* Write text to DIR/name through a temporary renamed into place. */
static int write_file(const Sweep *sw, const char *name, const char *const *parts,
                      const size_t *lens, long nparts)
{
    char path[4200], tmp[4300];
    snprintf(path, sizeof path, "%s/%s", sw->out_dir, name);
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f)
        return bad(sw->prog, "cannot write '%s': %s", tmp, strerror(errno));
    for (long k = 0; k < nparts; k++)
        if (lens[k])
            fwrite(parts[k], 1, lens[k], f);
    int e = ferror(f) ? errno : 0;
    if (fclose(f) != 0 && !e)
        e = errno;
    if (e || rename(tmp, path) != 0) {
        unlink(tmp);
        return bad(sw->prog, "cannot write '%s': %s", path, strerror(e ? e : errno));
    }
    return 0;
}

/* The header of section.csv and summary.csv. */
static void headers(const Sweep *sw, Text *sec, Text *sum)
{
    const nsm_model *m = sw->m;
    for (int a = 0; a < sw->nax; a++) {
        const char *unit = "";
        for (int k = 0; k < m->n_params; k++)
            if (!strcmp(m->params[k].name, sw->ax[a].name))
                unit = m->params[k].unit;
        text_printf(sec, *unit ? "%s [%s]," : "%s,", sw->ax[a].name, unit);
        text_printf(sum, *unit ? "%s [%s]," : "%s,", sw->ax[a].name, unit);
    }
    if (sw->cont) {
        text_printf(sec, "branch,");
        text_printf(sum, "branch,");
    }
    text_printf(sec, "t [s],phase");
    for (int q = 0; q < 2 * m->n_bodies; q++)
        text_printf(sec, ",%s.%c [%s]", m->body_names ? m->body_names[q % m->n_bodies] : "?",
                    q < m->n_bodies ? 'x' : 'v', q < m->n_bodies ? "m" : "m/s");
    text_printf(sec, "\n");
    text_printf(sum, "status,records,period,crossings,impacts,%smessage\n",
                sw->floquet ? "multipliers," : "");
}

/* The plot: gnuplot script, then gnuplot run in DIR. */
static int draw(const Sweep *sw)
{
    const nsm_model *m = sw->m;
    char col[160];
    int ycol = -1, xcol = 1, base = sw->nax + (sw->cont ? 1 : 0);
    if (sw->plot_col)
        snprintf(col, sizeof col, "%s", sw->plot_col);
    else
        snprintf(col, sizeof col, "%s.%c", m->body_names ? m->body_names[0] : "?",
                 !strncmp(sw->section, "impact:", 7) ? 'v' : 'x');
    if (!strcmp(col, "t"))
        ycol = base + 1;
    else if (!strcmp(col, "phase"))
        ycol = base + 2;
    for (int q = 0; q < 2 * m->n_bodies && ycol < 0; q++) {
        char name[160];
        snprintf(name, sizeof name, "%s.%c", m->body_names ? m->body_names[q % m->n_bodies] : "?",
                 q < m->n_bodies ? 'x' : 'v');
        if (!strcmp(name, col))
            ycol = base + 3 + q;
    }
    if (ycol < 0)
        return bad(sw->prog, "--plot %s: not a column of section.csv (t, phase, BODY.x, BODY.v)", col);
    Text g = { 0 };
    const char *xunit = "", *yunit = col[strlen(col) - 1] == 'x' ? "m" : col[strlen(col) - 1] == 'v'
                                                               ? "m/s" : !strcmp(col, "t") ? "s" : "";
    for (int k = 0; k < m->n_params; k++)
        if (!strcmp(m->params[k].name, sw->ax[0].name))
            xunit = m->params[k].unit;
    text_printf(&g, "# Bifurcation diagram written by nsmc sweep; rerun with `gnuplot bifurcation.gp` here.\n"
                    "set datafile separator ','\nset key off\nset grid\n"
                    "set xlabel '%s%s%s%s'\nset ylabel '%s%s%s%s'\nset title '%s: %s'\n",
                sw->ax[0].name, *xunit ? " [" : "", xunit, *xunit ? "]" : "", col,
                *yunit ? " [" : "", yunit, *yunit ? "]" : "", m->name, sw->section);
    for (int svg = 0; svg < 2; svg++) {
        if (svg)
            text_printf(&g, "set terminal svg size 1000,700 dynamic noenhanced font 'DejaVu Sans,11'\n"
                            "set output 'bifurcation.svg'\n");
        else
            text_printf(&g, "set terminal pngcairo size 1000,700 noenhanced font 'DejaVu Sans,10'\n"
                            "set output 'bifurcation.png'\n");
        text_printf(&g, "plot 'section.csv' using %d:%d every ::1 with points pt 7 ps 0.25 lc rgb '#1f4e9c'\n"
                        "unset output\n", xcol, ycol);
    }
    const char *parts[1] = { g.s };
    size_t lens[1] = { g.n };
    if (g.err || write_file(sw, "bifurcation.gp", parts, lens, 1)) {
        free(g.s);
        return 1;
    }
    free(g.s);
    pid_t pid = fork();
    if (pid < 0)
        return bad(sw->prog, "cannot start gnuplot: %s", strerror(errno));
    if (pid == 0) {
        if (chdir(sw->out_dir) != 0)
            _exit(126);
        FILE *log = freopen("bifurcation.log", "w", stderr);
        (void)log;
        execlp("gnuplot", "gnuplot", "bifurcation.gp", (char *)NULL);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return bad(sw->prog, "waiting for gnuplot: %s", strerror(errno));
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        return bad(sw->prog, "gnuplot failed on %s/bifurcation.gp (%s; see %s/bifurcation.log)",
                   sw->out_dir, WIFEXITED(st) && WEXITSTATUS(st) == 127 ? "gnuplot is not installed"
                                                                        : "it reported an error",
                   sw->out_dir);
    return 0;
}

/* ---- MPI ------------------------------------------------------------------ */

/* Whether this process was started by mpirun (else MPI is left alone). */
static int under_mpirun(void)
{
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMI_SIZE") || getenv("PMIX_RANK");
}

#ifdef NSM_HAVE_MPI
/* Bring every unit's texts to rank 0, in unit order. */
static void mpi_gather(Sweep *sw)
{
    for (long u = 0; u < sw->nunits; u++) {
        int owner = (int)(u % sw->size);
        if (owner == 0)
            continue;
        Text *tt[3] = { &sw->sec_text[u], &sw->sum_text[u], &sw->bif_text[u] };
        if (sw->rank == owner) {
            for (int k = 0; k < 3; k++) {
                long n = (long)tt[k]->n;
                MPI_Send(&n, 1, MPI_LONG, 0, 0, MPI_COMM_WORLD);
                if (n)
                    MPI_Send(tt[k]->s, (int)n, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
            }
            int f = sw->unit_failed[u];
            MPI_Send(&f, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
        } else if (sw->rank == 0) {
            for (int k = 0; k < 3; k++) {
                long n;
                MPI_Recv(&n, 1, MPI_LONG, owner, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                tt[k]->s = malloc((size_t)n + 1);
                tt[k]->n = tt[k]->cap = (size_t)n;
                if (n)
                    MPI_Recv(tt[k]->s, (int)n, MPI_CHAR, owner, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
            MPI_Recv(&sw->unit_failed[u], 1, MPI_INT, owner, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    }
}
#endif

/* ---- the program ---------------------------------------------------------- */

/* Parse the command line into sw; 0, or the exit status after a message. */
static int sweep_args(Sweep *sw, int argc, char **argv, char names[][128])
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(sw->prog, stdout);
            return -1;
        }
        if (!strcmp(a, "--floquet")) {
            sw->floquet = 1;
            continue;
        }
        if (!val)
            return bad(sw->prog, "option %s needs a value (see --help)", a);
        i++;
        if (!strcmp(a, "--param")) {
            if (sw->nax >= SW_MAX_AXES)
                return bad(sw->prog, "at most %d --param", SW_MAX_AXES);
            if (!parse_axis(val, &sw->ax[sw->nax], names[sw->nax], 128))
                return bad(sw->prog, "--param needs NAME=START:STOP:COUNT, got '%s'", val);
            sw->nax++;
        } else if (!strcmp(a, "--section")) {
            sw->section = val;
        } else if (!strcmp(a, "--section-period")) {
            sw->pexpr = val;
        } else if (!strcmp(a, "--t-max")) {
            sw->tmax = val;
        } else if (!strcmp(a, "--out-dir")) {
            sw->out_dir = val;
        } else if (!strcmp(a, "--plot")) {
            sw->plot_col = val;
        } else if (!strcmp(a, "--transient")) {
            if (!parse_count(val, 0, 100000000, &sw->transient))
                return bad(sw->prog, "bad value '%s' for --transient", val);
        } else if (!strcmp(a, "--record")) {
            if (!parse_count(val, 1, 10000000, &sw->record))
                return bad(sw->prog, "bad value '%s' for --record", val);
        } else if (!strcmp(a, "--jobs")) {
            long j;
            if (!parse_count(val, 1, 1024, &j))
                return bad(sw->prog, "bad value '%s' for --jobs", val);
            sw->jobs = (int)j;
        } else if (!strcmp(a, "--continue")) {
            sw->cont = !strcmp(val, "up") ? 1 : !strcmp(val, "down") ? 2 : !strcmp(val, "both") ? 3 : -1;
            if (sw->cont < 0)
                return bad(sw->prog, "--continue is up, down or both, not '%s'", val);
        } else if (!strcmp(a, "--method")) {
            if ((sw->method = nsm_method_parse(val)) < 0)
                return bad(sw->prog, "unknown method '%s' (valid: rk4, adaptive, exact)", val);
        } else if (!strcmp(a, "--set")) {
            const char *eq = strchr(val, '=');
            double v;
            if (!eq || eq == val || eq - val >= 127 || !parse_num(eq + 1, &v))
                return bad(sw->prog, "--set needs NAME=VALUE, got '%s'", val);
            if (sw->nsets >= SW_MAX_SETS)
                return bad(sw->prog, "at most %d --set", SW_MAX_SETS);
            sw->sets[sw->nsets++] = val;
        } else {
            return bad(sw->prog, "unknown option '%s' (see --help)", a);
        }
    }
    if (!sw->nax || !sw->section || !sw->out_dir)
        return bad(sw->prog, "--param, --section and --out-dir are required (see --help)");
    return 0;
}

/* Check the names against the model with a trial simulation, and work out
** the phase period. */
static int sweep_check(Sweep *sw)
{
    nsm_sim *sim = nsm_sim_create(sw->m);
    double v;
    int rc = 0;
    if (!sim)
        return bad(sw->prog, "cannot create the simulation");
    for (int a = 0; a < sw->nax && !rc; a++)
        if (nsm_sim_get_param(sim, sw->ax[a].name, &v))
            rc = bad(sw->prog, "--param: unknown parameter '%s'", sw->ax[a].name);
    for (int k = 0; k < sw->nsets && !rc; k++) {
        char name[128];
        const char *eq = strchr(sw->sets[k], '=');
        snprintf(name, sizeof name, "%.*s", (int)(eq - sw->sets[k]), sw->sets[k]);
        if (nsm_sim_get_param(sim, name, &v))
            rc = bad(sw->prog, "--set: unknown parameter '%s'", name);
    }
    if (!rc && (nsm_sim_set_section(sim, sw->section) ||
                (sw->pexpr && nsm_sim_set_section_period(sim, sw->pexpr))))
        rc = bad(sw->prog, "%s", nsm_sim_message(sim));
    if (!rc) {
        if (sw->pexpr) {
            snprintf(sw->period_expr, sizeof sw->period_expr, "%s", sw->pexpr);
        } else if (!strncmp(sw->section, "period:", 7)) {
            const char *e = sw->section + 7, *colon = strchr(e, ':');
            snprintf(sw->period_expr, sizeof sw->period_expr, "%.*s",
                     (int)(colon ? colon - e : (long)strlen(e)), e);
        }
        if (sw->floquet && !sw->period_expr[0])
            rc = bad(sw->prog, "--floquet follows orbits over whole forcing periods: give the "
                     "period with --section-period EXPR");
        else if (sw->cont && !sw->period_expr[0])
            rc = bad(sw->prog, "--continue starts each point at the phase the last one ended "
                     "at: give the forcing period with --section-period EXPR");
    }
    nsm_sim_free(sim);
    return rc;
}

int nsm_sweep_main(const nsm_model *m, int argc, char **argv)
{
    static char names[SW_MAX_AXES][128];
    Sweep sw;
    memset(&sw, 0, sizeof sw);
    sw.m = m;
    sw.prog = argc > 0 && argv[0] ? argv[0] : "nsmc sweep";
    sw.method = m->method;
    sw.transient = 100;
    sw.record = 100;
    sw.jobs = 1;
    sw.size = 1;
    int rc = sweep_args(&sw, argc, argv, names);
    if (rc)
        return rc < 0 ? 0 : rc;
    if ((rc = sweep_check(&sw)))
        return rc;
    int mpi = 0;
    if (under_mpirun()) {
#ifdef NSM_HAVE_MPI
        MPI_Init(&argc, &argv);
        MPI_Comm_rank(MPI_COMM_WORLD, &sw.rank);
        MPI_Comm_size(MPI_COMM_WORLD, &sw.size);
        mpi = 1;
#else
        fprintf(stderr, "%s: warning: started by mpirun, but built without MPI: every rank "
                "runs the whole grid\n", sw.prog);
#endif
    }
    if (sw.rank == 0) {
        struct stat st;
        if (mkdir(sw.out_dir, 0777) != 0 && errno != EEXIST)
            rc = bad(sw.prog, "cannot create '%s': %s", sw.out_dir, strerror(errno));
        else if (stat(sw.out_dir, &st) != 0 || !S_ISDIR(st.st_mode))
            rc = bad(sw.prog, "'%s' is not a folder", sw.out_dir);
    }
    sw.npoints = 1;
    for (int a = 0; a < sw.nax; a++)
        sw.npoints *= sw.ax[a].n;
    sw.nouter = sw.npoints / sw.ax[0].n;
    sw.nunits = !sw.cont ? sw.npoints : sw.cont == 3 ? 2 * sw.nouter : sw.nouter;
    if (sw.cont == 3)
        sw.npoints *= 2;
    sw.sec_text = calloc((size_t)sw.nunits, sizeof(Text));
    sw.sum_text = calloc((size_t)sw.nunits, sizeof(Text));
    sw.bif_text = calloc((size_t)sw.nunits, sizeof(Text));
    sw.unit_failed = calloc((size_t)sw.nunits, sizeof(int));
    if (!rc && (!sw.sec_text || !sw.sum_text || !sw.bif_text || !sw.unit_failed))
        rc = bad(sw.prog, "out of memory");
    if (!rc) {
        pthread_t th[1024];
        int nth = 0;
        pthread_mutex_init(&sw.lock, NULL);
        if (sw.rank == 0)
            progress_start(&sw.pb, stderr);
        for (int k = 0; k < sw.jobs; k++)
            if (pthread_create(&th[nth], NULL, worker, &sw) == 0)
                nth++;
        int wfail = nth == 0;
        for (int k = 0; k < nth; k++) {
            void *r;
            pthread_join(th[k], &r);
            wfail |= r != NULL;
        }
        if (sw.rank == 0)
            progress_finish(&sw.pb);
        pthread_mutex_destroy(&sw.lock);
        if (wfail)
            rc = bad(sw.prog, "a worker could not start (out of memory)");
    }
#ifdef NSM_HAVE_MPI
    if (mpi) {
        int any = rc;
        MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (!any)
            mpi_gather(&sw);
        else if (!rc)
            rc = any;
    }
#endif
    long failed = 0;
    if (!rc && sw.rank == 0) {
        Text hs = { 0 }, hm = { 0 };
        headers(&sw, &hs, &hm);
        const char **parts = malloc(sizeof(char *) * (size_t)(sw.nunits + 1));
        size_t *lens = malloc(sizeof(size_t) * (size_t)(sw.nunits + 1));
        int terr = hs.err || hm.err || !parts || !lens;
        for (long u = 0; u < sw.nunits; u++) {
            terr |= sw.sec_text[u].err || sw.sum_text[u].err || sw.bif_text[u].err;
            failed += sw.unit_failed[u];
        }
        if (terr) {
            rc = bad(sw.prog, "out of memory");
        } else {
            parts[0] = hs.s;
            lens[0] = hs.n;
            for (long u = 0; u < sw.nunits; u++)
                parts[u + 1] = sw.sec_text[u].s, lens[u + 1] = sw.sec_text[u].n;
            rc = write_file(&sw, "section.csv", parts, lens, sw.nunits + 1);
            parts[0] = hm.s;
            lens[0] = hm.n;
            for (long u = 0; u < sw.nunits; u++)
                parts[u + 1] = sw.sum_text[u].s, lens[u + 1] = sw.sum_text[u].n;
            if (!rc)
                rc = write_file(&sw, "summary.csv", parts, lens, sw.nunits + 1);
            if (!rc && sw.floquet) {
                Text hb = { 0 };
                for (int a = 1; a < sw.nax; a++)
                    text_printf(&hb, "%s,", sw.ax[a].name);
                text_printf(&hb, "%skind,period,%s,width,note\n", sw.cont ? "branch," : "",
                            sw.ax[0].name);
                parts[0] = hb.s;
                lens[0] = hb.n;
                for (long u = 0; u < sw.nunits; u++)
                    parts[u + 1] = sw.bif_text[u].s, lens[u + 1] = sw.bif_text[u].n;
                rc = hb.err ? bad(sw.prog, "out of memory")
                            : write_file(&sw, "bifurcations.csv", parts, lens, sw.nunits + 1);
                for (long u = 0; u < sw.nunits && !rc; u++)
                    if (sw.bif_text[u].n)
                        fprintf(stderr, "%s: %.*s", sw.prog, (int)sw.bif_text[u].n, sw.bif_text[u].s);
                free(hb.s);
            }
            if (!rc)
                rc = draw(&sw);
        }
        free(parts);
        free(lens);
        free(hs.s);
        free(hm.s);
        if (!rc)
            fprintf(stderr, "%s: %ld points%s, %d job%s%s; %s/section.csv, summary.csv, "
                    "bifurcation.png, bifurcation.svg\n", sw.prog, sw.npoints,
                    failed ? " (some failed: see summary.csv)" : "", sw.jobs, sw.jobs > 1 ? "s" : "",
                    sw.size > 1 ? " on each of several MPI ranks" : "", sw.out_dir);
    }
    for (long u = 0; u < sw.nunits; u++) {
        free(sw.sec_text[u].s);
        free(sw.sum_text[u].s);
        free(sw.bif_text[u].s);
    }
    free(sw.sec_text);
    free(sw.sum_text);
    free(sw.bif_text);
    free(sw.unit_failed);
#ifdef NSM_HAVE_MPI
    if (mpi) {
        MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
        MPI_Finalize();
    }
#endif
    (void)mpi;
    return rc ? rc : failed ? 3 : 0;
}
