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
**   lyapunov.gp, .png, .svg   with --lyapunov: the largest exponent
**                  (summary.csv's column) against the first parameter
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
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifdef NSM_HAVE_MPI
#include <mpi.h>
#endif

#include "nsm/nsm.h"
#include "cli.h"
#include "coords.h"
#include "outdir.h"
#include "plot.h"
#include "progress.h"
#include "setfile.h"

#define SW_MAX_AXES 8
#define SW_MAX_SETS 256
#define SW_MAX_PERIOD 64      /* longest orbit looked for, in records */
#define SW_MAX_COUNT 100000000L   /* points on one axis */
#define SW_MAX_POINTS 100000000L  /* points in the whole grid (runs, with --continue both) */

typedef struct Axis {
    const char *name;
    double lo, hi;
    long n;
} Axis;

typedef struct Sweep {
    const nsm_model *m;
    const char *prog;
    struct stat dir_id;       /* the out-dir locked (outdir_id_take; rank 0) */
    Axis ax[SW_MAX_AXES];
    int nax;
    const char *section, *pexpr, *tmax, *out_dir, *plot_col;
    int ycol;                 /* section.csv's column drawn (1-based), found before the grid */
    char period_expr[512];    /* the phase period: --section-period or the section's own */
    const char *sets[SW_MAX_SETS];
    double setv[SW_MAX_SETS]; /* their values in SI (a unit given is converted: set_value) */
    int nsets, method, cont;  /* cont: 0 none, 1 up, 2 down, 3 both */
    long transient, record;
    int jobs;
    long npoints, nouter, nunits;
    CliText *sec_text, *sum_text, *bif_text; /* per unit */
    int floquet;              /* --floquet: multipliers and their crossings */
    int lyap;                 /* --lyapunov: the largest exponent per point */
    long lyap_periods;        /* --lyapunov-periods: its run, in forcing periods */
    int basin;                /* --basin: the axes are two coordinates of the initial state */
    int bstate[SW_MAX_AXES];  /* with --basin: each axis's index in the state (x, then v) */
    double btol;              /* --basin-tol: attractors the same within it (relative) */
    double binit[2 * 64];     /* with --basin: the model's initial state (the --set values fixed) */
    struct BasinRef *bref;    /* with --basin: the pilot's reference orbits (basin_pilot) */
    long nbref;
    long bpilot;              /* --basin-pilot: the pilot lattice's most values per axis */
    int bpilot_set;
    long *unit_failed;        /* failed points per unit */
    size_t *sec_flushed, *sum_flushed;  /* per unit: bytes already in the partial files */
    int part_sec, part_sum;   /* DIR/section.csv.partial, summary.csv.partial (-1: none) */
    int write_err;            /* errno of a failed write to a partial file */
    long points_done;         /* points of this rank finished (in the partial files) */
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
    int settled;              /* --basin: the kept records repeat, the run ended early */
    long point;               /* --basin: the grid index of the run */
    int no_early;             /* --basin: the references are not used (the pilot's runs) */
    const struct BasinRef *early; /* --basin: the reference the run settled on (basin_match) */
} Collect;

/* A reference orbit of a basin study, from a pilot run that settled as
** every run did before the references (basin_pilot): only runs of later
** grid points compare with it, so that the first point of each attractor
** in grid order is never classified through a reference. */
typedef struct BasinRef {
    long point;               /* the pilot's grid index */
    long p;                   /* records per repeat (orbit_records) */
    double *ph, *y;           /* its last p records: phases, states (p * n2) */
    double *scale;            /* each state column's scale over its records */
    char *sig;                /* its basin_signature line */
    char *fields;             /* its summary's records, period, crossings, impacts */
} BasinRef;

/* ---- stop requests and the partial files ------------------------------ */

/* The signal that asked the sweep to stop (SIGINT, SIGTERM, SIGHUP), -1
** after a failed write to a partial file, 0 while the sweep goes on.  The
** workers read it before each point and the handlers during a run. */
static volatile sig_atomic_t sweep_stop;
static volatile sig_atomic_t stop_second;   /* CLOCK_MONOTONIC second of the first signal */

/* The name of stop signal sig (SIGINT, SIGTERM or SIGHUP), for messages. */
static const char *stop_name(int sig)
{
    return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "SIGHUP";
}

/* The handler of SIGINT, SIGTERM and SIGHUP: the first asks the workers to
** stop (what is finished stays in the partial files); a repeat within a
** second (a process group signalled twice) counts once, a later one
** kills at once. */
static void stop_handler(int sig)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (sweep_stop <= 0) {
        sweep_stop = sig;
        stop_second = (sig_atomic_t)now.tv_sec;
        return;
    }
    if ((long)now.tv_sec - (long)stop_second >= 1) {
        signal(sig, SIG_DFL);
        raise(sig);
    }
}

/* Installs stop_handler for SIGINT, SIGTERM and SIGHUP (one ignored when
** the sweep started, nohup or `trap '' HUP`, stays ignored: it was
** caught), and ignores SIGXFSZ and SIGPIPE so that a file-size limit or a
** reader of standard output gone is a failed write with its reason.
** Called first thing (and again after MPI_Init); the stop signals are then
** unblocked, so that a mask inherited blocked cannot leave the sweep deaf
** to them and a request held pending is taken by stop_handler. */
static void stop_install(void)
{
    out_stop_install(stop_handler, 0);
    plot_stop_watch(&sweep_stop);
}

/* Appends s[0..n) to the partial file fd in whole (a loop over short
** writes); on a failure cuts the file back to where it ended, so that it
** keeps whole lines, and stops the sweep with the reason in sw->write_err.
** Called with sw->lock held.  0 or -1. */
static int partial_write(Sweep *sw, int fd, const char *s, size_t n)
{
    off_t end = lseek(fd, 0, SEEK_END);
    while (n > 0) {
        ssize_t k = write(fd, s, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            sw->write_err = k < 0 ? errno : ENOSPC;
            if (end >= 0 && ftruncate(fd, end) != 0)
                (void)0;        /* the reason reported is the write's */
            sweep_stop = -1;
            return -1;
        }
        s += k;
        n -= (size_t)k;
    }
    return 0;
}

/* Appends what unit u has added to its texts since the last call (its
** finished points) to the partial files: the section's rows first, then
** the summary's, so a summary row in DIR/summary.csv.partial means its
** point's rows are all in DIR/section.csv.partial.  With sw->lock held. */
static void partial_append(Sweep *sw, long u)
{
    CliText *sec = &sw->sec_text[u], *sum = &sw->sum_text[u];
    if (sw->part_sec < 0 || sw->write_err || sec->err || sum->err)
        return;
    if (partial_write(sw, sw->part_sec, sec->s + sw->sec_flushed[u], sec->n - sw->sec_flushed[u]))
        return;
    sw->sec_flushed[u] = sec->n;
    if (partial_write(sw, sw->part_sum, sum->s + sw->sum_flushed[u], sum->n - sw->sum_flushed[u]))
        return;
    sw->sum_flushed[u] = sum->n;
}

/* ---- arguments ---------------------------------------------------------- */

/* The names of the axes and of the --set parameters, whole (no name limit:
** names were cut or refused above 127 characters), copied from the command
** line once; file-scope, as one sweep runs per process. */
static char *axis_names[SW_MAX_AXES];
static char *set_names[SW_MAX_SETS];

/* A copy of text[0..n), NUL-ended, in *slot (an earlier one freed): 0, or
** 1 after "out of memory". */
static int name_keep(const char *prog, char **slot, const char *text, size_t n)
{
    free(*slot);
    if (!(*slot = malloc(n + 1)))
        return cli_error(prog, "out of memory");
    memcpy(*slot, text, n);
    (*slot)[n] = '\0';
    return 0;
}

/* The NAME of --set k (NAME=VALUE, kept whole by sweep_args). */
static const char *set_name(int k)
{
    return set_names[k];
}

/* The SI unit text of parameter `name` of m ("" when dimensionless), or
** NULL when m has no such parameter. */
static const char *param_unit(const nsm_model *m, const char *name)
{
    for (int k = 0; m && k < m->n_params; k++)
        if (!strcmp(m->params[k].name, name))
            return m->params[k].unit ? m->params[k].unit : "";
    return NULL;
}

/* The value of --set NAME=VALUE in SI: a number, or a number with a unit of
** the parameter's dimension ('k=2 N/m', as the simulators' --set takes it,
** setfile_value).  An unknown NAME is left to sweep_check, which names it:
** its value is then converted unchecked.  0, or 1 after the message. */
static int set_value(const Sweep *sw, const char *set, double *v)
{
    char err[256];
    const char *unit = param_unit(sw->m, set_name(sw->nsets));
    if (setfile_value(strchr(set, '=') + 1, unit, !unit, v, err, sizeof err))
        return cli_error(sw->prog, "--set %s: %s", set, err);
    return 0;
}

/* Checks a --param COUNT and stores it in *n: a whole number of points
** from 1 to SW_MAX_COUNT, each way of getting it wrong with its own
** message (a COUNT of 0, -3, 1e9 or 2.5 is a typo, not a usage error).
** 0, or 1 after the message. */
static int count_parse(const char *prog, const char *opt, const char *name, const char *s, long *n)
{
    double d;
    if (!cli_number(s, &d))
        return cli_error(prog, "%s %s: COUNT '%s' is not a number (the number of points "
                   "from START to STOP)", opt, name, s);
    if (d != floor(d))
        return cli_error(prog, "%s %s: COUNT %s is not a whole number of points", opt, name, s);
    if (d < 1)
        return cli_error(prog, "%s %s: COUNT %s: an axis needs at least 1 point", opt, name, s);
    if (d > SW_MAX_COUNT)
        return cli_error(prog, "%s %s: COUNT %s is more than the %ld points an axis may have", opt,
                   name, s, SW_MAX_COUNT);
    *n = (long)d;
    return 0;
}

/* An end of an axis, text, into *v: for a parameter of the model (its SI
** unit text in unit), a number or a number with a unit of its dimension, as
** --set takes it (setfile_value); otherwise (a basin's coordinate, a name
** sweep_check will refuse) a bare number.  0, or 1 after the message. */
static int axis_end(const char *prog, const char *opt, const char *name, const char *which,
                    const char *text, const char *unit, double *v)
{
    char err[256], *end;
    double x = setfile_strtod(text, &end);
    if (end == text || !isfinite(x) || (!unit && !cli_number(text, v)))
        return cli_error(prog, "%s %s: %s '%s' is not a finite number", opt, name, which, text);
    if (unit && setfile_value(text, unit, 0, v, err, sizeof err))
        return cli_error(prog, "%s %s: %s %s", opt, name, which, err);
    return 0;
}

static double grid_round(double v);
static double grid_value(const Axis *x, long i);

/* Whether two neighbours of the grid of the axis a (two different ends,
** more than one point) are the same double: 1:1.0000000000000002:5 has
** five points within one ulp.  Only a grid whose step is below 1e-13 of
** its ends is walked. */
static int grid_repeats(const Axis *a)
{
    if (a->n < 2 || a->lo == a->hi ||
        fabs(a->hi - a->lo) / (double)(a->n - 1) >= 1e-13 * fmax(fabs(a->lo), fabs(a->hi)))
        return 0;
    for (long i = 1; i < a->n; i++)
        if (grid_value(a, i) == grid_value(a, i - 1))
            return 1;
    return 0;
}

/* Refuses an axis whose grid values would not be finite numbers: STOP -
** START beyond a double's range (-1e308:1e308:3 swept NaN and infinity, a
** basin's NaN states classified as an attractor), or, on an axis of more
** than one point, an end that its 15 digits round to infinity (grid_round
** of 1.7976931348623157e308 swept F = inf).  A basin's axis (basin)
** with two equal ends and more than one point is refused too: its picture
** has no extent, and gnuplot failed on it after the whole grid had run.
** 0, or 1 after the message. */
static int axis_range(const char *prog, const char *opt, const char *name, const Axis *a,
                      int basin)
{
    if (!isfinite(a->hi - a->lo))
        return cli_error(prog, "%s %s: START %.17g and STOP %.17g are too far apart for a grid "
                   "of doubles (STOP - START must be a finite number)", opt, name, a->lo, a->hi);
    if (a->n > 1 && (!isfinite(grid_round(a->lo)) || !isfinite(grid_round(a->hi))))
        return cli_error(prog, "%s %s: an end within rounding of a double's largest value: the "
                   "grid's values, rounded to 15 digits, would be infinite", opt, name);
    if (grid_repeats(a))
        return cli_error(prog, "%s %s: %ld points from %.17g to %.17g are closer than a double "
                   "can tell apart (two of them are the same number): give fewer points or "
                   "ends further apart", opt, name, a->n, a->lo, a->hi);
    if (basin && a->n > 1 && a->lo == a->hi)
        return cli_error(prog, "%s %s: START and STOP are both %.17g: give two different ends, "
                   "or COUNT 1", opt, name, a->lo);
    return 0;
}

/* Parses NAME=START:STOP:COUNT into a and name; START and STOP of a
** parameter of m may carry a unit (axis_end; m NULL for a basin's axes).
** 0, or 1 after the message. */
static int axis_parse(const char *prog, const char *opt, const char *val, Axis *a, char *name,
                      size_t len, const nsm_model *m)
{
    const char *eq = strchr(val, '=');
    if (!eq || eq == val)
        return cli_error(prog, "%s needs NAME=START:STOP:COUNT, got '%s'", opt, val);
    if ((size_t)(eq - val) >= len)
        return cli_error(prog, "%s: the name in '%.40s...' is longer than %zu characters", opt, val,
                   len - 1);
    memcpy(name, val, (size_t)(eq - val));
    name[eq - val] = 0;
    char *t = setfile_trim(name);
    memmove(name, t, strlen(t) + 1);
    if (!*name)
        return cli_error(prog, "%s needs NAME=START:STOP:COUNT, got '%s'", opt, val);
    char buf[256];
    if (snprintf(buf, sizeof buf, "%s", eq + 1) >= (int)sizeof buf)
        return cli_error(prog, "%s %s: START:STOP:COUNT is too long", opt, name);
    char *c1 = strchr(buf, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c1 || !c2 || strchr(c2 + 1, ':'))
        return cli_error(prog, "%s needs NAME=START:STOP:COUNT, got '%s'", opt, val);
    *c1 = *c2 = 0;
    a->name = name;
    const char *unit = param_unit(m, name);
    if (axis_end(prog, opt, name, "START", setfile_trim(buf), unit, &a->lo) ||
        axis_end(prog, opt, name, "STOP", setfile_trim(c1 + 1), unit, &a->hi) ||
        count_parse(prog, opt, name, setfile_trim(c2 + 1), &a->n))
        return 1;
    return axis_range(prog, opt, name, a, !m);
}

static void usage(const char *prog, FILE *f)
{
    fprintf(f,
            "usage: %s --param NAME=START:STOP:COUNT [--param ...] --section SPEC --out-dir DIR\n"
            "         [--section-period EXPR] [--transient N] [--record N]\n"
            "         [--continue up|down|both] [--jobs N] [--set NAME=VALUE]... [--method M]\n"
            "         [--t-max EXPR] [--plot COLUMN] [--floquet]\n"
            "         [--lyapunov [--lyapunov-periods N]]\n"
            "   or: %s --basin BODY.x|BODY.v=START:STOP:COUNT (twice) --section SPEC\n"
            "         --section-period EXPR --out-dir DIR [--basin-tol TOL] [--basin-pilot N]\n"
            "         [options above]\n"
            "Run the model over a grid of parameters and record a Poincare section per point\n"
            "(SPEC: impact:GAP, period:T[:T0] or plane:F[:up|down|both]), or classify a grid\n"
            "of initial states by the attractor each reaches; see docs/studies.md.\n",
            prog, prog);
}

#define BASIN_PILOT 16      /* the pilot's lattice: at most this many values per axis (default) */

/* ---- one point ---------------------------------------------------------- */

static long orbit_records(const Collect *c);

/* Whether kept record a is record s of reference r: the phase (on the
** circle) and every state column within tol of the reference's scale. */
static int ref_near(const Collect *c, long a, const BasinRef *r, long s, double tol)
{
    double ph = c->rec[a].phase;
    if (isfinite(ph)) {
        double d = fabs(ph - r->ph[s]);
        if (fmin(d, 1 - d) > tol)
            return 0;
    }
    for (int i = 0; i < c->n2; i++)
        if (fabs(c->y[a * c->n2 + i] - r->y[s * c->n2 + i]) > tol * r->scale[i])
            return 0;
    return 1;
}

/* How close a run's records must come to a reference orbit's (relative,
** as --basin-tol): half of --basin-tol, the tolerance within which two
** orbits are one attractor. */
static double basin_ref_tol(const Sweep *sw)
{
    return 0.5 * sw->btol;
}

/* The reference orbit a basin run has settled on, or NULL: its last two
** repeats (2 p records of a reference of p) each within basin_ref_tol of
** the reference's records in their order on the orbit, the phase on the
** circle and the state columns on the reference's scales.  The orbits the
** references stand for are attracting and further apart than
** --basin-tol, so a run this close to one for two whole repeats is on that
** attractor within the tolerance that classifies it, and would end
** classified as it (docs/studies.md, "Basins of attraction"); a run still
** farther from every reference goes on until its own records repeat.
** Only references of earlier grid points count: which ones a run may use
** does not depend on the jobs or ranks. */
static const BasinRef *basin_match(const Collect *c)
{
    const Sweep *sw = c->sw;
    double tol = basin_ref_tol(sw);
    for (long k = 0; k < sw->nbref; k++) {
        const BasinRef *r = &sw->bref[k];
        long L = 2 * r->p, s, i;
        if (r->point >= c->point || c->kept < L)
            continue;
        for (s = 0; s < r->p; s++)          /* the newest record's place on the orbit */
            if (ref_near(c, c->kept - 1, r, s, tol))
                break;
        if (s == r->p)
            continue;
        for (i = 1; i < L; i++)
            if (!ref_near(c, c->kept - 1 - i, r, ((s - i) % r->p + r->p) % r->p, tol))
                break;
        if (i == L)
            return r;
    }
    return NULL;
}

/* Whether the grid point is a reference's own (basin_pilot): it runs
** again as the pilot ran it, its line the reference's, so that a point
** classified through a reference always has an earlier point of the same
** line, and the first point of each attractor is run to its own repeat. */
static int basin_is_ref(const Sweep *sw, long point)
{
    for (long k = 0; k < sw->nbref; k++)
        if (sw->bref[k].point == point)
            return 1;
    return 0;
}

/* Appends section record r, with the impacts counted so far, to the
** records kept (room for it is the caller's). */
static void record_keep(Collect *c, const nsm_section_record *r)
{
    Rec *e = &c->rec[c->kept];
    e->t = r->t;
    e->phase = r->phase;
    e->impacts = c->impacts;
    memcpy(c->y + (size_t)c->kept * c->n2, r->y, sizeof(double) * c->n2);
    c->kept++;
}

/* A basin run keeps its last --record records in a sliding window and ends
** as soon as they repeat (an orbit found: orbit_records), at most after
** --transient + --record records: most initial states settle well before
** the slowest, and the classification is the same; or, unless it is a
** reference's own point, as soon as its last two repeats lie on a
** reference orbit (basin_match).  Returns the section handler's answer. */
static int basin_record(Collect *c, const nsm_section_record *r)
{
    long R = c->sw->record;
    if (c->kept == R) {
        memmove(c->rec, c->rec + 1, sizeof(Rec) * (size_t)(R - 1));
        memmove(c->y, c->y + c->n2, sizeof(double) * (size_t)(R - 1) * (size_t)c->n2);
        c->kept--;
    }
    record_keep(c, r);
    c->count++;
    if (c->kept == R && c->count >= R && orbit_records(c) > 0) {
        c->settled = 1;
        return 1;
    }
    if (!c->no_early && (c->early = basin_match(c)) != NULL) {
        c->settled = 1;
        return 1;
    }
    return c->count >= c->sw->transient + R;
}

static int on_section(void *ud, const nsm_sim *sim, const nsm_section_record *r)
{
    Collect *c = ud;
    (void)sim;
    if (sweep_stop)
        return 1;
    if (c->sw->basin && c->stop_when_done)
        return basin_record(c, r);
    long need = c->sw->transient + c->sw->record;
    if (c->count >= need)
        return c->stop_when_done;
    if (c->count >= c->sw->transient)
        record_keep(c, r);
    c->count++;
    return c->count >= need && c->stop_when_done;
}

static int on_event(void *ud, const nsm_sim *sim, const nsm_event *ev)
{
    Collect *c = ud;
    (void)sim;
    if (sweep_stop)
        return 1;
    if (ev->kind == NSM_EV_IMPACT)
        c->impacts++;
    return 0;
}

/* Whether records a and b are the same point of the section within tol:
** the phase (on the circle) and every state column within tol of its
** scale. */
static int rec_within(const Collect *c, long a, long b, const double *scale, double tol)
{
    const Rec *ra = &c->rec[a], *rb = &c->rec[b];
    if (isfinite(ra->phase)) {
        double d = fabs(ra->phase - rb->phase);
        if (fmin(d, 1 - d) > tol)
            return 0;
    }
    for (int i = 0; i < c->n2; i++)
        if (fabs(c->y[a * c->n2 + i] - c->y[b * c->n2 + i]) > tol * scale[i])
            return 0;
    return 1;
}

/* Whether records a and b are the same point of the section (1e-6). */
static int rec_same(const Collect *c, long a, long b, const double *scale)
{
    return rec_within(c, a, b, scale, 1e-6);
}

/* Each state column's scale over the kept records, at least 1e-3 of the
** largest: a column that stays at 0 to rounding (the position at an
** impact) is not compared on the scale of its rounding. */
static void record_scales(const Collect *c, double *scale)
{
    double top = 1e-300;
    for (int i = 0; i < c->n2; i++) {
        scale[i] = 0;
        for (long k = 0; k < c->kept; k++)
            scale[i] = fmax(scale[i], fabs(c->y[k * c->n2 + i]));
        top = fmax(top, scale[i]);
    }
    for (int i = 0; i < c->n2; i++)
        scale[i] = fmax(scale[i], 1e-3 * top);
}

/* The distance of records k and k + q, the largest state column's on its
** scale. */
static double rec_dist(const Collect *c, long k, long q, const double *scale)
{
    double d = 0;
    for (int i = 0; i < c->n2; i++)
        d = fmax(d, fabs(c->y[(k + q) * c->n2 + i] - c->y[k * c->n2 + i]) / scale[i]);
    return d;
}

/* Whether the records settle on an orbit of q records while they are still
** q apart by more than the 1e-6 of rec_same: an orbit approached through a
** multiplier near -1 alternates about it, so that its records repeat to
** 1e-6 at twice its period first.  Settling: the distances D_k of records
** k and k + q never grow along the window, fall by 1% or more, and their
** limit by Aitken's delta-squared extrapolation on D_0, D_m, D_2m (a
** geometric approach, D_k = D + a r^k) is within 1e-6: a true orbit of
** more records keeps D_k at its own size. */
static int orbit_settles(const Collect *c, long q, const double *scale)
{
    long K = c->kept - q, m = (K - 1) / 2;
    if (m < 2)
        return 0;
    for (long k = 0; k + 1 < K; k++)
        if (rec_dist(c, k + 1, q, scale) > rec_dist(c, k, q, scale))
            return 0;
    double a = rec_dist(c, 0, q, scale), b = rec_dist(c, m, q, scale), d = rec_dist(c, 2 * m, q, scale);
    double den = d - 2 * b + a;
    if (!(d < 0.99 * a) || !(den > 0))
        return 0;
    return d - (d - b) * (d - b) / den <= 1e-6;
}

/* The smallest p such that the records repeat every p; 0 if none up to
** SW_MAX_PERIOD (and at most half the records).  A p whose least divisor
** q < p settles (orbit_settles) is reported as q: the orbit is still
** approaching its period q. */
static long orbit_records(const Collect *c)
{
    double scale[c->n2 > 0 ? c->n2 : 1];
    record_scales(c, scale);
    for (long p = 1; p <= SW_MAX_PERIOD && 2 * p <= c->kept; p++) {
        long k;
        for (k = 0; k + p < c->kept; k++)
            if (!rec_same(c, k, k + p, scale))
                break;
        if (k + p < c->kept)
            continue;
        for (long q = 1; q < p; q++)
            if (p % q == 0 && orbit_settles(c, q, scale))
                return q;
        return p;
    }
    return 0;
}

/* A grid value lo + (hi - lo) i / (n - 1) rounded to 15 significant
** digits: the value the user means (1.5, not 1.5000000000000002; 0.005, the
** double nearest to it), so that it is written and set as that number.  A
** grid's steps are far coarser than the 1e-15 relative this moves them. */
static double grid_round(double v)
{
    char buf[40];
    snprintf(buf, sizeof buf, "%.15g", v);
    return strtod(buf, NULL);
}

/* The shortest text of v that reads back as v (at most 17 digits): a
** parameter value in the CSV files, the figures and the messages. */
static const char *grid_text(double v, char buf[40])
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, 40, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    return buf;
}

/* v rounded to 15 digits (grid_round) when that moves it by less than a
** millionth of the step of the axis x, else v itself. */
static double grid_tidy(double v, const Axis *x)
{
    double r = grid_round(v), step = fabs(x->hi - x->lo) / (double)(x->n - 1);
    return fabs(r - v) <= 1e-6 * step ? r : v;
}

/* The grid value i of the axis x (more than one point): lo + (hi - lo) i /
** (n - 1), rounded to 15 digits (grid_round) when that moves it by less
** than a millionth of the grid's step.  A grid finer than 15 digits
** (e=0.8:0.8000000000000003:3, a basin's M.x=-1:-1.0000000000000004:2)
** was swept as one value again and again, its STOP never run, exit 0. */
static double grid_value(const Axis *x, long i)
{
    if (i == 0 || i == x->n - 1)
        return i == 0 ? grid_tidy(x->lo, x) : grid_tidy(x->hi, x);
    double v = x->lo + (x->hi - x->lo) * (double)i / (double)(x->n - 1);
    /* the sum's rounding is of the ends' size, not of v's: near 0 it is
     * most of v (-0.1:0.2:4 swept 1.38777878078145e-17 where the grid has
     * 0, -0.99999999:1.00000001:3 1.00000000502476e-08 for 1e-08), so v
     * goes to 15 digits of the ends first */
    double mag = fmax(fabs(x->lo), fabs(x->hi));
    double q = mag > 0 ? pow(10.0, ceil(log10(mag)) - 15.0) : 0.0;
    if (q > 0 && isfinite(q)) {
        double s = nearbyint(v / q) * q;
        double step = fabs(x->hi - x->lo) / (double)(x->n - 1);
        if (isfinite(s) && fabs(s - v) <= 1e-6 * step)
            v = s;
    }
    return v == 0 ? 0.0 : grid_tidy(v, x);     /* 0, not -0 */
}

/* The parameter values of a point, every axis, into pv: computed before
** anything is set, so that a point whose parameters cannot be set still
** has all its values for its summary row. */
static void point_values(const Sweep *sw, long point, double *pv)
{
    long q = point;
    for (int a = 0; a < sw->nax; a++) {
        const Axis *x = &sw->ax[a];
        long i = q % x->n;
        q /= x->n;
        pv[a] = x->n == 1 ? x->lo : grid_value(x, i);
    }
}

/* Set the point's parameters: the fixed --set values, then the axes (pv,
** from point_values).  0, or 1 with the model's reason in msg. */
static int point_params(const Sweep *sw, nsm_sim *sim, const double *pv, char *msg, size_t len)
{
    for (int k = 0; k < sw->nsets; k++) {
        const char *name = set_name(k);
        if (nsm_sim_set_param(sim, name, sw->setv[k])) {
            snprintf(msg, len, "--set %s: %s", sw->sets[k], nsm_sim_message(sim));
            return 1;
        }
    }
    if (sw->basin) {
        /* the model's initial state (sweep_check) with the two coordinates
         * replaced */
        int n2 = 2 * sw->m->n_bodies;
        double y[n2 > 0 ? n2 : 1];
        memcpy(y, sw->binit, sizeof(double) * n2);
        for (int a = 0; a < sw->nax; a++)
            y[sw->bstate[a]] = pv[a];
        nsm_sim_set_initial_state(sim, y);
        return 0;
    }
    for (int a = 0; a < sw->nax; a++)
        if (nsm_sim_set_param(sim, sw->ax[a].name, pv[a])) {
            char vt[40];
            snprintf(msg, len, "%s = %s: %s", sw->ax[a].name, grid_text(pv[a], vt),
                     nsm_sim_message(sim));
            return 1;
        }
    return 0;
}

/* A basin point's attractor as one line of text for the unit (bif_text,
** which a basin study does not otherwise use; rank 0 classifies the lines
** in grid order at the end): "-1" failed, "0" no period found, else the
** period (forcing periods, or records without a forcing period), the
** records per orbit, and the orbit's canonical section point (its record
** of least phase, then least state) as phase and state, to 17 digits; a
** run that ended on a reference orbit (basin_match) has the reference's
** line after a '~'. */
static void basin_signature(const Sweep *sw, CliText *t, const Collect *c, int status, double Tp)
{
    if (status == 0 && c->early) {
        cli_printf(t, "~%s", c->early->sig);   /* on a reference orbit: its line, marked */
        return;
    }
    long p = status == 0 ? orbit_records(c) : 0;
    if (status == 2 || p == 0) {
        cli_printf(t, "%d\n", status == 2 ? -1 : 0);
        return;
    }
    /* a slowly settling orbit whose multiplier is near -1 repeats to 1e-6
     * at twice its period first: the least divisor of p whose records
     * repeat within the classification's tolerance is its period */
    double scale[c->n2 > 0 ? c->n2 : 1];
    record_scales(c, scale);
    for (long q = 1; q < p; q++) {
        if (p % q)
            continue;
        long k;
        for (k = 0; k + q < c->kept; k++)
            if (!rec_within(c, k, k + q, scale, sw->btol))
                break;
        if (k + q >= c->kept) {
            p = q;
            break;
        }
    }
    long best = 0;
    for (long k = 1; k < p; k++) {
        const Rec *a = &c->rec[k], *b = &c->rec[best];
        int less = isfinite(a->phase) && a->phase != b->phase ? a->phase < b->phase : 0;
        if (!(isfinite(a->phase) && a->phase != b->phase))
            for (int i = 0; i < c->n2; i++) {
                double ya = c->y[k * c->n2 + i], yb = c->y[best * c->n2 + i];
                if (ya != yb) {
                    less = ya < yb;
                    break;
                }
            }
        if (less)
            best = k;
    }
    long per = Tp > 0 ? (long)floor((c->rec[p].t - c->rec[0].t) / Tp + 0.5) : p;
    cli_printf(t, "%ld,%ld,%.17g", per, p, c->rec[best].phase);
    for (int i = 0; i < c->n2; i++)
        cli_printf(t, ",%.17g", c->y[best * c->n2 + i]);
    cli_printf(t, "\n");
}

/* The horizon of a point's run, --t-max or the model's t_end with the
** parameters sim holds.  0, or 1 with the reason in msg. */
static int point_tmax(const Sweep *sw, nsm_sim *sim, double *tmax, char *msg, size_t len)
{
    if (sw->tmax) {
        if (nsm_sim_eval(sim, sw->tmax, tmax) || !(*tmax > 0)) {
            snprintf(msg, len, "--t-max %s is not a positive time here", sw->tmax);
            return 1;
        }
    } else if (nsm_sim_model_times(sim, tmax, NULL, NULL)) {
        snprintf(msg, len, "the model's t_end is not a positive time here");
        return 1;
    }
    return 0;
}

/* The sampling period of a point's run to tmax: the model's output period
** (the step landings the sweep's records have always had), or none where
** that period would give more samples than a run may (nsm_run_check): a
** sweep keeps no samples, and stepping to each of them made a pendulum of
** g = 1e-20 m/s^2 over --t-max 1e10 run to the step cap.  Set at every
** point, so that no point inherits another's. */
static void point_sampling(nsm_sim *sim, double tmax)
{
    double every = 0;
    if (nsm_sim_model_times(sim, NULL, NULL, &every))
        return;
    nsm_sim_set_every(sim, nsm_run_check(tmax, every, 0, 0, NULL, 0) ? 0 : every);
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
    c->settled = 0;
    c->early = NULL;
    if ((rc = nsm_sim_reset(sim))) {
        snprintf(msg, len, "%s", nsm_sim_message(sim));
        return 2;
    }
    if (sw->period_expr[0] && (nsm_sim_eval(sim, sw->period_expr, &Tp) || !(Tp > 0))) {
        snprintf(msg, len, "the period %s is not a positive time here", sw->period_expr);
        return 2;
    }
    *Tp_out = Tp;
    if (point_tmax(sw, sim, &tmax, msg, len))
        return 2;
    point_sampling(sim, tmax);
    long need = sw->transient + sw->record;
    if ((sw->cont || sw->floquet || sw->lyap) && Tp > 0) {
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
        if (rc == NSM_ESTOPPED && (c->count >= need || c->settled))
            rc = NSM_OK;
    }
    if (rc) {
        snprintf(msg, len, "%s", nsm_sim_message(sim));
        return 2;
    }
    memcpy(yend, nsm_sim_state(sim), sizeof(double) * c->n2);
    return c->count >= need || c->settled ? 0 : 1;
}

/* The summary's records, period, crossings and impacts of a run (status
** as point_run's), into sum. */
static void orbit_fields(CliText *sum, const Collect *c, int status, double Tp)
{
    long p = status == 0 ? orbit_records(c) : 0;
    cli_printf(sum, "%ld,", c->kept);
    if (status != 0)
        cli_printf(sum, ",,");
    else if (p == 0)
        cli_printf(sum, "none,,");
    else if (Tp > 0)
        /* the orbit's duration in forcing periods: its phase repeats, so the
         * time between repeats is a whole number of them */
        cli_printf(sum, "%.0f,%ld,", floor((c->rec[p].t - c->rec[0].t) / Tp + 0.5), p);
    else
        cli_printf(sum, "%ld,%ld,", p, p);
    if (p > 0)
        cli_printf(sum, "%ld", c->rec[p].impacts - c->rec[0].impacts);
}

/* Append one point's rows and summary to the unit's texts. */
static void point_write(const Sweep *sw, CliText *sec, CliText *sum, const double *pv, const char *branch,
                        const Collect *c, int status, const char *msg, double Tp, const char *mult,
                        const char *lyap)
{
    char vt[SW_MAX_AXES][40];   /* the point's values as text, formed once for its rows */
    for (int a = 0; a < sw->nax; a++)
        grid_text(pv[a], vt[a]);
    for (long k = 0; k < (sw->basin ? 0 : c->kept); k++) {
        for (int a = 0; a < sw->nax; a++)
            cli_printf(sec, "%s,", vt[a]);
        if (sw->cont)
            cli_printf(sec, "%s,", branch);
        cli_printf(sec, "%.17g,%.17g", c->rec[k].t, c->rec[k].phase);
        for (int i = 0; i < c->n2; i++)
            cli_printf(sec, ",%.17g", c->y[k * c->n2 + i]);
        cli_printf(sec, "\n");
    }
    for (int a = 0; a < sw->nax; a++)
        cli_printf(sum, "%s,", vt[a]);
    if (sw->cont)
        cli_printf(sum, "%s,", branch);
    char clean[600] = "";
    if (status == 2) {
        size_t k = 0;
        for (const char *q = msg; *q && k + 1 < sizeof clean; q++)
            clean[k++] = *q == '"' ? '\'' : *q;
        clean[k] = 0;
    } else if (status == 1) {
        snprintf(clean, sizeof clean, "fewer than %ld record%s before t = t-max",
                 sw->transient + sw->record, sw->transient + sw->record == 1 ? "" : "s");
    } else if (mult && mult[0] == '!') {
        snprintf(clean, sizeof clean, "%.500s", mult + 1);
        mult = "";
    }
    if (status == 0 && lyap && lyap[0] == '!') {
        size_t k = strlen(clean);
        snprintf(clean + k, sizeof clean - k, "%s%.300s", k ? "; " : "", lyap + 1);
        lyap = "";
    }
    cli_printf(sum, "%s,", status == 0 ? "ok" : status == 1 ? "short" : "failed");
    if (status == 0 && c->early)
        cli_printf(sum, "%s", c->early->fields);   /* a basin run on a reference orbit */
    else
        orbit_fields(sum, c, status, Tp);
    if (sw->floquet)
        cli_printf(sum, ",%s", mult ? mult : "");
    if (sw->lyap)
        cli_printf(sum, ",%s", lyap ? lyap : "");
    cli_printf(sum, clean[0] ? ",\"%s\"\n" : ",\n", clean);
}

/* The largest Lyapunov exponent of the motion from where the point's run
** ended, over --lyapunov-periods forcing periods reorthonormalised once a
** period (nsm_sim_lyapunov), as text into out; "!reason" when the method
** does not apply (it goes into the summary's message). */
static void point_lyapunov(const Sweep *sw, nsm_sim *sim, double Tp, char *out, size_t len)
{
    int n2 = 2 * sw->m->n_bodies;
    double lam[n2 > 0 ? n2 : 1];
    if (nsm_sim_lyapunov(sim, (double)sw->lyap_periods * Tp, Tp, lam))
        snprintf(out, len, "!no Lyapunov exponent: %s", nsm_sim_message(sim));
    else
        snprintf(out, len, "%.10g", lam[0]);
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
static void crossing(const Sweep *sw, nsm_sim *sim, CliText *bif, const double *pv, const char *branch,
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
    char vt[40];
    for (int x = 1; x < sw->nax; x++)
        cli_printf(bif, "%s,", grid_text(pv[x], vt));
    if (sw->cont)
        cli_printf(bif, "%s,", branch);
    /* a true crossing leaves a multiplier at -1 (+1) at the bisected
     * point; a sign change without one is the orbit changing under the
     * shooting (an impact appearing at a grazing, say) */
    const char *note = !ok ? "bracket only (shooting failed inside)"
                       : fmin(lo.near[which], hi.near[which]) <= 1e-4 ? "bisected"
                       : "no multiplier there: the orbit changes (a grazing?)";
    cli_printf(bif, "%s,%ld,%.17g,%.17g,%s\n", which ? "multiplier +1" : "period doubling (-1)",
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

/* Run unit u into its texts, each point appended to the partial files as
** it ends; returns the number of points that failed.  A stop request
** (SIGINT, SIGTERM, SIGHUP) ends the unit before its next point, and
** the point it interrupts is not written. */
static long unit_run(Sweep *sw, nsm_sim *sim, Collect *c, long u)
{
    int n2 = c->n2, branch, have = 0;
    long failed = 0;
    long outer;
    double pv[SW_MAX_AXES], ystate[n2 > 0 ? n2 : 1], yend[n2 > 0 ? n2 : 1];
    char msg[600], mult[64 * 2 * 60];
    Orbit prev = { 0 }, cur;
    unit_shape(sw, u, &branch, &outer);
    const char *bname = branch == 0 ? "-" : branch == 1 ? "up" : "down";
    long n0 = sw->ax[0].n, count = sw->cont ? n0 : 1;
    for (long k = 0; k < count && !sweep_stop; k++) {
        long point = !sw->cont ? outer : outer * n0 + (branch == 2 ? n0 - 1 - k : k);
        int status;
        double Tp = 0;
        nsm_sim_set_initial_state(sim, have ? ystate : NULL);
        point_values(sw, point, pv);
        c->point = point;
        c->no_early = basin_is_ref(sw, point);
        if (point_params(sw, sim, pv, msg, sizeof msg)) {
            c->count = c->impacts = c->kept = 0;   /* no records of the point before */
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
        char lyap[400] = "";
        if (status == 0 && sw->lyap && !sweep_stop)
            point_lyapunov(sw, sim, Tp, lyap, sizeof lyap);
        if (sweep_stop)
            break;              /* the run was cut short by the stop: not a result */
        point_write(sw, &sw->sec_text[u], &sw->sum_text[u], pv, bname, c, status, msg, Tp, mult,
                    lyap);
        if (sw->basin)
            basin_signature(sw, &sw->bif_text[u], c, status, Tp);
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
        failed += status == 2;
        have = sw->cont && status == 0;
        if (have)
            memcpy(ystate, yend, sizeof ystate);
        pthread_mutex_lock(&sw->lock);
        partial_append(sw, u);
        sw->done++;
        if (sw->rank == 0)
            progress_update(&sw->pb, (double)sw->done * sw->size / (double)sw->npoints);
        pthread_mutex_unlock(&sw->lock);
    }
    return failed;
}

/* A simulation set up for the sweep's runs (the section and its period,
** the method, no audit, the handlers filling c) and c's record buffers;
** NULL when out of memory or the section is refused. */
static nsm_sim *sweep_sim(const Sweep *sw, Collect *c)
{
    nsm_sim *sim = nsm_sim_create(sw->m);
    *c = (Collect){ .sw = sw, .n2 = 2 * sw->m->n_bodies };
    c->rec = malloc(sizeof(Rec) * (size_t)(sw->record + 1));
    c->y = malloc(sizeof(double) * (size_t)(sw->record + 1) * (size_t)(c->n2 ? c->n2 : 1));
    if (!sim || !c->rec || !c->y || nsm_sim_set_section(sim, sw->section) ||
        (sw->pexpr && nsm_sim_set_section_period(sim, sw->pexpr))) {
        nsm_sim_free(sim);
        free(c->rec);
        free(c->y);
        return NULL;
    }
    nsm_sim_set_method(sim, sw->method);
    nsm_sim_set_audit(sim, 0);
    nsm_sim_set_section_handler(sim, on_section, c);
    nsm_sim_set_event_handler(sim, on_event, c);
    return sim;
}

/* A worker: its own simulation, units taken in turn from the shared
** counter (only those of this rank). */
static void *worker(void *arg)
{
    Sweep *sw = arg;
    Collect c;
    nsm_sim *sim = sweep_sim(sw, &c);
    if (!sim)
        return (void *)1;
    for (;;) {
        pthread_mutex_lock(&sw->lock);
        long u = sw->next;
        while (u < sw->nunits && u % sw->size != sw->rank)
            u++;
        sw->next = u + 1;
        pthread_mutex_unlock(&sw->lock);
        if (u >= sw->nunits || sweep_stop)
            break;
        sw->unit_failed[u] = unit_run(sw, sim, &c, u);
    }
    nsm_sim_free(sim);
    free(c.rec);
    free(c.y);
    return NULL;
}

/* ---- output --------------------------------------------------------------- */

/* The file that DIR/NAME stands for, into path: DIR/NAME, or the regular
** file it is a symbolic link to (out_link_target), whose contents a sweep
** replaces, the link kept, as `nsmc -o` does.  0, or 1 after a message. */
static int result_path(const Sweep *sw, const char *name, char path[4200])
{
    char in[4200];
    snprintf(in, sizeof in, "%s/%s", sw->out_dir, name);
    return out_link_target(sw->prog, in, path, 4200);
}

/* Whether an earlier stopped sweep's DIR/NAME.partial can be kept as
** NAME.partial.prev: a folder standing there would keep the summary's rows
** while the section's records are replaced (or the reverse), so the sweep
** is refused before the grid runs, as for the other odd things standing in
** place of its files.  0, or 1 after a message. */
static int partials_keepable(const Sweep *sw, const char *name)
{
    char part[4200], prev[4300];
    struct stat st;
    snprintf(part, sizeof part, "%s/%s.partial", sw->out_dir, name);
    snprintf(prev, sizeof prev, "%s.prev", part);
    if (lstat(part, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    if (lstat(prev, &st) != 0 || !S_ISDIR(st.st_mode))
        return 0;       /* a file, a link or a device there is replaced by the rename */
    return cli_error(sw->prog, "cannot keep '%s', left by an earlier sweep that did not finish: "
                     "'%s' is a folder; remove it or move the partial results away", part, prev);
}

/* Checks, before the grid runs, that every result the sweep may write can
** be replaced (outdir_result_check): a folder, a FIFO or a device in its
** place, or a symbolic link to one, is refused (the link to /dev/full was
** replaced by the file after the whole grid ran, a FIFO named summary.csv
** by the summary).  Then removes the
** results' temporaries left by a sweep killed while it wrote them (they
** stayed for ever).  0, or 1 after a message. */
static int results_check(const Sweep *sw)
{
    static const char *const names[] = {
        "section.csv", "summary.csv", "bifurcations.csv", "basins.csv", "attractors.csv",
        "bifurcation.gp", "bifurcation.png", "bifurcation.svg", "lyapunov.gp", "lyapunov.png",
        "lyapunov.svg", "basins.gp", "basins.png", "basins.svg",
        /* gnuplot's logs: a FIFO held gnuplot in its open() */
        "bifurcation.log", "lyapunov.log", "basins.log",
        /* the earlier results kept while a sweep places its own (temps_place) */
        "section.csv.kept", "summary.csv.kept" };
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        char in[4200];
        snprintf(in, sizeof in, "%s/%s", sw->out_dir, names[k]);
        if (outdir_result_check(sw->prog, in))
            return 1;
    }
    if (partials_keepable(sw, "section.csv") || partials_keepable(sw, "summary.csv"))
        return 1;
    /* the out-dir's lock is ours: temporaries of these files are left only
     * by a sweep killed while it wrote its results */
    plot_stale_clear(sw->out_dir, names, (int)(sizeof names / sizeof names[0]));
    return 0;
}

/* Writes the concatenated parts into the temporary PATH.tmpPID beside the
** file PATH that DIR/NAME stands for (result_path), which temps_place
** renames over it.  0, or 1 after a message (the temporary removed). */
static int write_temp(const Sweep *sw, const char *name, const char *const *parts,
                      const size_t *lens, long nparts)
{
    char path[4200], tmp[4300];
    if (result_path(sw, name, path))
        return 1;
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f)
        return cli_error(sw->prog, "cannot write '%s': %s", tmp, strerror(errno));
    for (long k = 0; k < nparts; k++)
        if (lens[k])
            fwrite(parts[k], 1, lens[k], f);
    int e = ferror(f) ? errno : 0;
    if (fclose(f) != 0 && !e)
        e = errno;
    if (e) {
        unlink(tmp);
        return cli_error(sw->prog, "cannot write '%s': %s", path, strerror(e));
    }
    return 0;
}

/* Puts back what temps_place had placed of the files names[0..placed)
** when a later one could not be placed: each earlier file from the hard
** link made of it (kept[k] 1: PATH.kept.tmpPID), or, where there was none
** (0), the new file removed; an earlier file that could not be linked
** (kept[k] the link's negated errno: a file system without hard links) is
** gone, and the new one is left, named.  0, or the errno of the first step
** that failed, the files not put back named in notback. */
static int temps_undo(const Sweep *sw, const char *const *names, int placed, const int *kept,
                      char *notback, size_t len)
{
    char path[4200], old[4300];
    int e = 0;
    size_t used = 0;
    for (int k = 0; k < placed; k++) {
        if (result_path(sw, names[k], path))
            return EIO;
        snprintf(old, sizeof old, "%s.kept.tmp%ld", path, (long)getpid());
        int ek = kept[k] < 0 ? -kept[k] : 0;
        if (!ek && (kept[k] ? rename(old, path) : unlink(path)) != 0)
            ek = errno;
        if (!ek)
            continue;
        e = e ? e : ek;
        used += (size_t)snprintf(notback + used, used < len ? len - used : 0, "%s%s/%s",
                                 used ? " and " : "", sw->out_dir, names[k]);
        used = used < len ? used : len - 1;
    }
    return e;
}

/* Renames the temporaries of the n files names (written by write_temp)
** over them, after checking that none is a folder: the results of one
** sweep are placed together or not at all (section.csv was replaced, then
** a folder in place of summary.csv stopped the sweep, leaving the new
** section.csv beside the earlier sweep's summary).  A rename that fails
** after others succeeded (section.csv placed, summary.csv's rename
** refused) puts the earlier files back from hard links made of them
** first, so that the folder holds one sweep's results; where that too
** fails, the message says which file is whose.  0, or 1 after a message
** with every temporary not placed removed. */
static int temps_place(const Sweep *sw, const char *const *names, int n)
{
    char path[4200], tmp[4300], old[4300];
    int rc = 0, placed = 0, kept[4] = { 0 }, e = 0;
    for (int k = 0; k < n && !rc; k++) {
        struct stat st;
        rc = result_path(sw, names[k], path);
        if (!rc && lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
            rc = cli_error(sw->prog, "cannot write '%s/%s': %s", sw->out_dir, names[k],
                     strerror(EISDIR));
    }
    for (int k = 0; k < n && k < 4 && !rc && n > 1; k++) {
        rc = result_path(sw, names[k], path);
        snprintf(old, sizeof old, "%s.kept.tmp%ld", path, (long)getpid());
        unlink(old);
        struct stat st;
        if (!rc && lstat(path, &st) == 0)
            kept[k] = link(path, old) == 0 ? 1 : -(errno ? errno : EIO);
    }
    for (int k = 0; k < n && !rc; k++) {
        rc = result_path(sw, names[k], path);
        snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
        if (!rc && rename(tmp, path) != 0)
            e = errno, rc = 1;
        placed += !rc;
    }
    if (e) {
        char which[600] = "";
        int u = placed ? temps_undo(sw, names, placed, kept, which, sizeof which) : 0;
        if (!placed)
            cli_error(sw->prog, "cannot write '%s': %s", path, strerror(e));
        else if (!u)
            cli_error(sw->prog, "cannot write '%s': %s; none of this study's results were "
                      "placed: the %s placed before it %s put back as %s before this study",
                      path, strerror(e), placed == 1 ? names[0] : "files",
                      placed == 1 ? "was" : "were", placed == 1 ? "it was" : "they were");
        else
            cli_error(sw->prog, "cannot write '%s': %s; and %s, already replaced by this "
                      "study's, could not be put back (%s): %s this study's, the folder's "
                      "other results the earlier study's", path, strerror(e), which,
                      strerror(u), strstr(which, " and ") ? "they are" : "it is");
    }
    for (int k = 0; k < n; k++) {
        if (result_path(sw, names[k], path)) {
            rc = 1;
            continue;
        }
        snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
        snprintf(old, sizeof old, "%s.kept.tmp%ld", path, (long)getpid());
        if (rc)
            unlink(tmp);
        if (k < 4 && kept[k] > 0)
            unlink(old);
    }
    return rc;
}

/* Removes the temporaries of the n files names that write_temp may have
** written, none to be placed (a later one could not be written). */
static void temps_drop(const Sweep *sw, const char *const *names, int n)
{
    char path[4200], tmp[4300];
    for (int k = 0; k < n; k++) {
        if (result_path(sw, names[k], path))
            continue;
        snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
        unlink(tmp);
    }
}

/* Writes the concatenated parts to DIR/NAME through a temporary renamed
** into place.  0, or 1 after a message. */
static int write_file(const Sweep *sw, const char *name, const char *const *parts,
                      const size_t *lens, long nparts)
{
    return write_temp(sw, name, parts, lens, nparts) || temps_place(sw, &name, 1);
}

/* State column q's name and unit (positions, then velocities) as
** "NAME [UNIT]", whole however long the name (free it), or NULL when out
** of memory. */
static char *state_text(const nsm_model *m, int q)
{
    const char *unit = "";
    char *name = coords_name(m, q, &unit);
    if (!name)
        return NULL;
    size_t n = strlen(name) + strlen(unit) + 4;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s [%s]", name, unit);
    free(name);
    return s;
}

/* The state's columns of a header: ",NAME [UNIT]" for each. */
static void state_header(const nsm_model *m, CliText *t)
{
    for (int q = 0; q < 2 * m->n_bodies; q++) {
        const char *unit = "";
        char *name = coords_name(m, q, &unit);
        cli_printf(t, ",%s [%s]", name ? name : "?", unit);
        free(name);
    }
}

/* The header of section.csv and summary.csv. */
static void headers(const Sweep *sw, CliText *sec, CliText *sum)
{
    const nsm_model *m = sw->m;
    for (int a = 0; a < sw->nax; a++) {
        const char *unit = "";
        for (int k = 0; k < m->n_params; k++)
            if (!strcmp(m->params[k].name, sw->ax[a].name))
                unit = m->params[k].unit;
        char *coord = sw->basin ? coords_name(m, sw->bstate[a], &unit) : NULL;
        const char *name = coord ? coord : sw->ax[a].name;     /* whole, however long */
        sec->err |= sw->basin && !coord;
        cli_printf(sec, *unit ? "%s [%s]," : "%s,", name, unit);
        cli_printf(sum, *unit ? "%s [%s]," : "%s,", name, unit);
        free(coord);
    }
    if (sw->cont) {
        cli_printf(sec, "branch,");
        cli_printf(sum, "branch,");
    }
    cli_printf(sec, "t [s],phase");
    state_header(m, sec);
    cli_printf(sec, "\n");
    cli_printf(sum, "status,records,period,crossings,impacts,%s%smessage\n",
                sw->floquet ? "multipliers," : "", sw->lyap ? "lyapunov [1/s]," : "");
}

/* The column of section.csv the diagram draws: --plot's, by default the
** first body's speed (impact sections) or position.  Its name into col;
** returns its 1-based index, or -1 when section.csv has no such column. */
static int plot_column(const Sweep *sw, char col[160])
{
    const nsm_model *m = sw->m;
    int base = sw->nax + (sw->cont ? 1 : 0);
    if (sw->plot_col)
        snprintf(col, 160, "%s", sw->plot_col);
    else
        coords_label(m, !strncmp(sw->section, "impact:", 7) ? m->n_bodies : 0, col, 160);
    const char *name = sw->plot_col ? sw->plot_col : col;      /* whole, however long */
    if (!strcmp(name, "t"))
        return base + 1;
    if (!strcmp(name, "phase"))
        return base + 2;
    int q = sw->plot_col ? coords_find(m, name) :
            !strncmp(sw->section, "impact:", 7) ? m->n_bodies : 0;
    return q < 0 ? -1 : base + 3 + q;
}

/* Write the gnuplot script g (freed here) to DIR/NAME.gp and run gnuplot
** in DIR into temporaries that replace NAME.png and .svg only once both
** are drawn (a failed gnuplot leaves the figures of an earlier sweep whole;
** its messages go to DIR/NAME.log).  0, or 1 after a message. */
static int gnuplot_figure(const Sweep *sw, const char *name, CliText *g)
{
    char file[200], log_name[200];
    snprintf(file, sizeof file, "%s.gp", name);
    snprintf(log_name, sizeof log_name, "%s.log", name);
    const char *parts[1] = { g->s };
    size_t lens[1] = { g->n };
    if (g->err || write_file(sw, file, parts, lens, 1)) {
        free(g->s);
        return g->err ? cli_error(sw->prog, "out of memory") : 1;
    }
    free(g->s);
    char err[1200], fpng[200], fsvg[200];
    snprintf(fpng, sizeof fpng, "%s.png", name);
    snprintf(fsvg, sizeof fsvg, "%s.svg", name);
    const char *fin[2] = { fpng, fsvg };
    if (!plot_have_gnuplot()) {
        plot_without_gnuplot(sw->out_dir, file, fin, 2, err, sizeof err);
        fprintf(stderr, "%s: note: %s\n", sw->prog, err);
        return 0;
    }
    char names[400], png[160], svg[160];
    snprintf(png, sizeof png, "%s.png.tmp%ld", name, (long)getpid());
    snprintf(svg, sizeof svg, "%s.svg.tmp%ld", name, (long)getpid());
    snprintf(names, sizeof names, "png='%s'; svg='%s'", png, svg);
    const char *drawn[2] = { png, svg };
    int got = plot_gnuplot(sw->out_dir, file, names, log_name, err, sizeof err);
    int ok = got == PLOT_OK && plot_figures_check(sw->out_dir, drawn, 2, err, sizeof err) == PLOT_OK;
    if (got == PLOT_ESTOP) {    /* gnuplot killed: its temporaries removed, no half figure */
        plot_figures_place(sw->out_dir, drawn, fin, 2, 0, err, sizeof err);
        fprintf(stderr, "%s: stopped by %s while drawing %s.png and .svg: the results in %s "
                "are whole, the figures not drawn\n", sw->prog, stop_name((int)sweep_stop), name,
                sw->out_dir);
        return 128 + (int)sweep_stop;
    }
    if (plot_figures_place(sw->out_dir, drawn, fin, 2, ok, err, sizeof err) != PLOT_OK || !ok)
        return cli_error(sw->prog, "%s", err);
    return 0;
}

/* Field k (0-based) of the CSV row at line into buf ("" past the row's end). */
static void csv_field(const char *line, const char *end, int k, char *buf, size_t len)
{
    for (; k > 0 && line < end; k--) {
        const char *c = memchr(line, ',', (size_t)(end - line));
        line = c ? c + 1 : end;
    }
    const char *c = memchr(line, ',', (size_t)(end - line));
    size_t n = (size_t)((c ? c : end) - line);
    snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), line);
}

/* With --floquet, the bifurcation diagram's marks: a dashed vertical line at
** every crossing bifurcations.csv gives as bisected (red for a period
** doubling, labelled "P->2P" with the orbit's period P; orange for a
** multiplier +1, labelled "+1"), read back from the rows of bif_text so that
** the figure shows exactly what the file says.  Brackets and grazings are
** not marked (no bifurcation is located there). */
static void bif_marks(const Sweep *sw, CliText *g)
{
    int k0 = sw->nax - 1 + (sw->cont ? 1 : 0);   /* the kind's field */
    for (long u = 0; sw->floquet && u < sw->nunits; u++) {
        const char *p = sw->bif_text[u].s, *end = p + sw->bif_text[u].n;
        while (p && p < end) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            const char *e = nl ? nl : end;
            char kind[64], per[32], x[64], note[64];
            csv_field(p, e, k0, kind, sizeof kind);
            csv_field(p, e, k0 + 1, per, sizeof per);
            csv_field(p, e, k0 + 2, x, sizeof x);
            csv_field(p, e, k0 + 4, note, sizeof note);
            p = nl ? nl + 1 : NULL;
            if (strcmp(note, "bisected"))
                continue;
            int pd = !strncmp(kind, "period doubling", 15);
            const char *colour = pd ? "#c0392b" : "#e67e22";
            cli_printf(g, "set arrow from %s, graph 0 to %s, graph 1 nohead dt 2 lw 1.5 "
                           "lc rgb '%s' front\n", x, x, colour);
            if (pd)
                cli_printf(g, "set label '%s->%ld' at %s, graph 0.99 right rotate by 90 "
                               "offset -0.4,0 textcolor rgb '%s' front\n", per,
                            2 * strtol(per, NULL, 10), x, colour);
            else
                cli_printf(g, "set label '+1' at %s, graph 0.99 right rotate by 90 "
                               "offset -0.4,0 textcolor rgb '%s' front\n", x, colour);
        }
    }
}

/* The plot: gnuplot script, then gnuplot run in DIR into temporaries that
** replace bifurcation.png and .svg only once both are drawn (a failed
** gnuplot leaves the figures of an earlier sweep whole). */
static int draw(const Sweep *sw)
{
    const nsm_model *m = sw->m;
    char col[160];
    int xcol = 1, ycol = plot_column(sw, col);
    if (ycol < 0)
        return cli_error(sw->prog, "--plot %s: not a column of section.csv (t, phase, BODY.x, BODY.v)",
                         sw->plot_col ? sw->plot_col : col);
    CliText g = { 0 };
    int q = ycol - (sw->nax + (sw->cont ? 1 : 0)) - 3;        /* the state column, or < 0 */
    const char *xunit = "", *yunit = !strcmp(col, "t") ? "s" : "";
    char *yname = q >= 0 ? coords_name(m, q, &yunit) : NULL;      /* whole, however long */
    g.err = q >= 0 && !yname;
    for (int k = 0; k < m->n_params; k++)
        if (!strcmp(m->params[k].name, sw->ax[0].name))
            xunit = m->params[k].unit;
    cli_printf(&g, "# Bifurcation diagram written by nsmc sweep; rerun with `gnuplot bifurcation.gp` here.\n"
                    "set datafile separator ','\nset key off\nset grid\n"
                    "set xlabel '%s%s%s%s'\nset ylabel '%s%s%s%s'\nset title '%s: %s'\n",
                sw->ax[0].name, *xunit ? " [" : "", xunit, *xunit ? "]" : "", yname ? yname : col,
                *yunit ? " [" : "", yunit, *yunit ? "]" : "", m->name, sw->section);
    free(yname);
    bif_marks(sw, &g);
    for (int svg = 0; svg < 2; svg++) {
        if (svg)
            cli_printf(&g, "set terminal svg size 1000,700 dynamic noenhanced font 'DejaVu Sans,11'\n"
                            "if (!exists('svg')) svg = 'bifurcation.svg'\nset output svg\n");
        else
            cli_printf(&g, "set terminal pngcairo size 1000,700 noenhanced font 'DejaVu Sans,10'\n"
                            "if (!exists('png')) png = 'bifurcation.png'\nset output png\n");
        cli_printf(&g, "plot 'section.csv' using %d:%d every ::1 with points pt 7 ps 0.25 lc rgb '#1f4e9c'\n"
                        "unset output\n", xcol, ycol);
    }
    return gnuplot_figure(sw, "bifurcation", &g);
}

/* The Lyapunov figure: summary.csv's largest exponent against the first
** parameter, with the zero line (chaos above it). */
static int draw_lyapunov(const Sweep *sw)
{
    const nsm_model *m = sw->m;
    const char *xunit = "";
    int ycol = sw->nax + (sw->cont ? 1 : 0) + 5 + sw->floquet + 1;
    for (int k = 0; k < m->n_params; k++)
        if (!strcmp(m->params[k].name, sw->ax[0].name))
            xunit = m->params[k].unit;
    CliText g = { 0 };
    cli_printf(&g, "# Largest Lyapunov exponent written by nsmc sweep; rerun with `gnuplot lyapunov.gp` here.\n"
                    "set datafile separator ','\nset key off\nset grid\n"
                    "set xlabel '%s%s%s%s'\nset ylabel 'largest Lyapunov exponent [1/s]'\n"
                    "set title '%s: largest Lyapunov exponent'\n",
                sw->ax[0].name, *xunit ? " [" : "", xunit, *xunit ? "]" : "", m->name);
    for (int svg = 0; svg < 2; svg++) {
        if (svg)
            cli_printf(&g, "set terminal svg size 1000,500 dynamic noenhanced font 'DejaVu Sans,11'\n"
                            "if (!exists('svg')) svg = 'lyapunov.svg'\nset output svg\n");
        else
            cli_printf(&g, "set terminal pngcairo size 1000,500 noenhanced font 'DejaVu Sans,10'\n"
                            "if (!exists('png')) png = 'lyapunov.png'\nset output png\n");
        cli_printf(&g, "plot 'summary.csv' using 1:%d every ::1 with linespoints pt 7 ps 0.3 "
                        "lc rgb '#1f4e9c', 0 with lines lc rgb '#888888'\nunset output\n", ycol);
    }
    return gnuplot_figure(sw, "lyapunov", &g);
}

/* The words after the summary line's "N jobs": " on each of R MPI ranks"
** when the sweep ran over R > 1 ranks (it said "several", the count
** left out), else "". */
static const char *ranks_text(const Sweep *sw, char *buf, size_t len)
{
    if (sw->size <= 1)
        return "";
    snprintf(buf, len, " on each of %d MPI ranks", sw->size);
    return buf;
}

/* ---- basins of attraction ------------------------------------------------- */

/* An attractor met by the basin study: its period, records per orbit and
** canonical section point (phase, state), and how many points reach it. */
typedef struct Attractor {
    long per, p, count;
    double ph, *y;
} Attractor;

/* Whether the signature (per, p, ph, y) is attractor a: the same period and
** records, the phase (on the circle) within tol, each state column within
** tol of its scale. */
static int basin_same(const Attractor *a, long per, long p, double ph, const double *y, int n2,
                      const double *scale, double tol)
{
    if (a->per != per || a->p != p)
        return 0;
    if (isfinite(ph) && isfinite(a->ph)) {
        double d = fabs(ph - a->ph);
        if (fmin(d, 1 - d) > tol)
            return 0;
    }
    for (int i = 0; i < n2; i++)
        if (fabs(y[i] - a->y[i]) > tol * scale[i])
            return 0;
    return 1;
}

/* The figure's range [*a, *b] of a basin axis from lo to hi: the axis
** itself, or around its one value when its ends are equal (a grid of one
** point along it, `M.x=-1:-1:1`): `set xrange [-1:-1]` made gnuplot fail,
** "Can't plot with an empty x range", exit 1 after the study's results
** (basin_draw draws such a grid's points as squares). */
static void basin_range(double lo, double hi, double *a, double *b)
{
    double h = lo != hi ? 0 : lo != 0 ? 0.5 * fabs(lo) : 0.5;
    *a = fmin(lo, hi) - h;
    *b = fmax(lo, hi) + h;
}

/* Write the basin figure: the grid coloured by attractor (black: failed,
** grey: no period found), a legend naming each attractor by its period and
** share of the grid (the first 12; the others share their colours). */
static int basin_draw(const Sweep *sw, const Attractor *at, long nat, long none, long bad_pts)
{
    static const char *const col[12] = { "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                         "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#393b79",
                                         "#637939", "#843c39" };
    const nsm_model *m = sw->m;
    char *bx = state_text(m, sw->bstate[0]), *by = state_text(m, sw->bstate[1]);
    CliText g = { 0 };
    double x0, x1, y0, y1;
    basin_range(sw->ax[0].lo, sw->ax[0].hi, &x0, &x1);
    basin_range(sw->ax[1].lo, sw->ax[1].hi, &y0, &y1);
    g.err = !bx || !by;
    cli_printf(&g, "# Basins of attraction written by nsmc sweep --basin; rerun with `gnuplot basins.gp` here.\n"
                    "set datafile separator ','\nset grid front\nunset colorbox\n"
                    "set key outside right top box opaque\n"
                    "set xlabel '%s'\nset ylabel '%s'\nset title '%s: basins of attraction (%s)'\n"
                    "set xrange [%.17g:%.17g]\nset yrange [%.17g:%.17g]\n"
                    "set cbrange [-1.5:%ld.5]\nset palette defined (-1.5 '#000000', -0.5 '#000000', "
                    "-0.5 '#d0d0d0', 0.5 '#d0d0d0'",
                bx ? bx : "", by ? by : "", m->name, sw->section,
                x0, x1, y0, y1, nat);
    for (long k = 0; k < nat; k++)
        cli_printf(&g, ", %ld.5 '%s', %ld.5 '%s'", k, col[k % 12], k + 1, col[k % 12]);
    cli_printf(&g, ")\n");
    free(bx), free(by);
    for (int svg = 0; svg < 2; svg++) {
        if (svg)
            cli_printf(&g, "set terminal svg size 1100,800 dynamic noenhanced font 'DejaVu Sans,11'\n"
                            "if (!exists('svg')) svg = 'basins.svg'\nset output svg\n");
        else
            cli_printf(&g, "set terminal pngcairo size 1100,800 noenhanced font 'DejaVu Sans,10'\n"
                            "if (!exists('png')) png = 'basins.png'\nset output png\n");
        /* gnuplot draws no image of one row or one column (nothing, no
        ** word): the points of such a grid are drawn as squares */
        cli_printf(&g, "plot 'basins.csv' using 1:2:3 every ::1 %s notitle",
                   sw->ax[0].lo == sw->ax[0].hi || sw->ax[1].lo == sw->ax[1].hi
                   ? "with points pt 5 ps 3 lc palette" : "with image pixels");
        for (long k = 0; k < nat && k < 12; k++)
            cli_printf(&g, ", NaN with boxes fs solid lc rgb '%s' title 'attractor %ld: period %ld, "
                            "%ld record%s per orbit (%.1f%%)'", col[k], k + 1, at[k].per, at[k].p,
                        at[k].p > 1 ? "s" : "", 100.0 * (double)at[k].count / (double)sw->npoints);
        if (none)
            cli_printf(&g, ", NaN with boxes fs solid lc rgb '#d0d0d0' title 'no period found "
                            "(%.1f%%)'", 100.0 * (double)none / (double)sw->npoints);
        if (bad_pts)
            cli_printf(&g, ", NaN with boxes fs solid lc rgb '#000000' title 'failed (%.1f%%)'",
                        100.0 * (double)bad_pts / (double)sw->npoints);
        cli_printf(&g, "\nunset output\n");
    }
    return gnuplot_figure(sw, "basins", &g);
}

/* The end of a basin study on rank 0: every point's attractor line (in
** grid order, the same for any number of jobs and ranks) is matched
** against the attractors met before it (--basin-tol), which numbers them
** in order of first appearance; writes DIR/basins.csv (the two coordinates
** and the attractor: 1, 2, ...; 0 no period found; -1 failed),
** DIR/attractors.csv (each attractor's period, section point and share)
** and the figure.  0, or 1 after a message. */
static long summary_short(const Sweep *sw, char *cause, size_t len);

static int basin_finish(const Sweep *sw, long failed, int *placed)
{
    static const char *const three[3] = { "summary.csv", "attractors.csv", "basins.csv" };
    int n2 = 2 * sw->m->n_bodies;
    long np = sw->npoints, nat = 0, none = 0, bad_pts = 0, on_ref = 0;
    double *sig = malloc(sizeof(double) * (size_t)np * (size_t)(n2 + 3));
    long *id = malloc(sizeof(long) * (size_t)np);
    Attractor *at = malloc(sizeof(Attractor) * (size_t)(np > 0 ? np : 1));
    double scale[n2 > 0 ? n2 : 1], top = 1e-300;
    int rc = 0;
    if (!sig || !id || !at) {
        free(sig), free(id), free(at);
        temps_drop(sw, three, 1);
        return cli_error(sw->prog, "out of memory");
    }
    for (int i = 0; i < n2; i++)
        scale[i] = 0;
    /* parse the lines; each column's scale over every attractor point */
    for (long u = 0; u < np; u++) {
        double *g = sig + (size_t)u * (size_t)(n2 + 3);
        const char *q = sw->bif_text[u].n ? sw->bif_text[u].s : "-1";
        char *end;
        if (*q == '~') {                /* ended on a reference orbit (basin_match) */
            on_ref++;
            q++;
        }
        g[0] = strtod(q, &end);
        if (g[0] > 0) {
            for (int i = 1; i < n2 + 3; i++)
                g[i] = strtod(end + 1, &end);
            for (int i = 0; i < n2; i++)
                scale[i] = fmax(scale[i], fabs(g[3 + i]));
        }
    }
    for (int i = 0; i < n2; i++)
        top = fmax(top, scale[i]);
    for (int i = 0; i < n2; i++)
        scale[i] = fmax(scale[i], 1e-3 * top);
    for (long u = 0; u < np; u++) {
        double *g = sig + (size_t)u * (size_t)(n2 + 3);
        if (g[0] <= 0) {
            id[u] = g[0] < 0 ? -1 : 0;
            bad_pts += g[0] < 0;
            none += g[0] == 0;
            continue;
        }
        long k;
        for (k = 0; k < nat; k++)
            if (basin_same(&at[k], (long)g[0], (long)g[1], g[2], g + 3, n2, scale, sw->btol))
                break;
        if (k == nat) {
            at[nat].per = (long)g[0];
            at[nat].p = (long)g[1];
            at[nat].ph = g[2];
            at[nat].y = g + 3;
            at[nat].count = 0;
            nat++;
        }
        at[k].count++;
        id[u] = k + 1;
    }
    CliText b = { 0 }, a = { 0 };
    const nsm_model *m = sw->m;
    char *bx = state_text(m, sw->bstate[0]), *by = state_text(m, sw->bstate[1]);
    b.err = !bx || !by;
    cli_printf(&b, "%s,%s,attractor\n", bx ? bx : "", by ? by : "");
    free(bx), free(by);
    for (long u = 0; u < np; u++) {
        double pv[SW_MAX_AXES];
        point_values(sw, u, pv);
        cli_printf(&b, "%.17g,%.17g,%ld\n", pv[0], pv[1], id[u]);
    }
    cli_printf(&a, "attractor,period,records,points,fraction,phase");
    state_header(m, &a);
    cli_printf(&a, "\n");
    for (long k = 0; k < nat; k++) {
        cli_printf(&a, "%ld,%ld,%ld,%ld,%.17g,%.17g", k + 1, at[k].per, at[k].p, at[k].count,
                    (double)at[k].count / (double)np, at[k].ph);
        for (int i = 0; i < n2; i++)
            cli_printf(&a, ",%.17g", at[k].y[i]);
        cli_printf(&a, "\n");
    }
    if (none)
        cli_printf(&a, "0,none,,%ld,%.17g,\n", none, (double)none / (double)np);
    if (bad_pts)
        cli_printf(&a, "-1,failed,,%ld,%.17g,\n", bad_pts, (double)bad_pts / (double)np);
    const char *pb[1] = { b.s }, *pa[1] = { a.s };
    size_t lb[1] = { b.n }, la[1] = { a.n };
    if (b.err || a.err)
        rc = cli_error(sw->prog, "out of memory");
    if (!rc)
        rc = write_temp(sw, "attractors.csv", pa, la, 1) || write_temp(sw, "basins.csv", pb, lb, 1);
    /* the three files of one study placed together (summary.csv was placed
     * first, then attractors.csv and basins.csv each on its own) */
    if (!rc)
        *placed = !(rc = temps_place(sw, three, 3));
    else
        temps_drop(sw, three, 3);
    free(b.s);
    free(a.s);
    if (!rc && bad_pts == np) {
        /* every initial state failed: no map to draw, the earlier figure kept */
        char cause[600];
        summary_short(sw, cause, sizeof cause);
        fprintf(stderr, "%s: no initial state gave records (%ld of %ld failed; first cause: %s): "
                "see %s/summary.csv; basins.png and .svg were not drawn (any there are from an "
                "earlier sweep)\n", sw->prog, bad_pts, np, cause[0] ? cause : "unknown",
                sw->out_dir);
        free(sig), free(id), free(at);
        return 3;
    }
    if (!rc)
        rc = basin_draw(sw, at, nat, none, bad_pts);
    char rk[48];
    if (!rc)
        fprintf(stderr, "%s: %ld initial state%s, %ld attractor%s (%ld without a period, %ld "
                "failed), %ld ended on a reference orbit, %d job%s%s; %s/basins.csv, "
                "attractors.csv, summary.csv%s\n", sw->prog, np, np == 1 ? "" : "s", nat,
                nat == 1 ? "" : "s", none, failed, on_ref, sw->jobs, sw->jobs > 1 ? "s" : "",
                ranks_text(sw, rk, sizeof rk), sw->out_dir,
                plot_have_gnuplot() ? ", basins.png, basins.svg" : "");
    free(sig), free(id), free(at);
    return rc;
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
        CliText *tt[3] = { &sw->sec_text[u], &sw->sum_text[u], &sw->bif_text[u] };
        if (sw->rank == owner) {
            for (int k = 0; k < 3; k++) {
                long n = (long)tt[k]->n;
                MPI_Send(&n, 1, MPI_LONG, 0, 0, MPI_COMM_WORLD);
                if (n)
                    MPI_Send(tt[k]->s, (int)n, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
            }
            long f = sw->unit_failed[u];
            MPI_Send(&f, 1, MPI_LONG, 0, 2, MPI_COMM_WORLD);
        } else if (sw->rank == 0) {
            for (int k = 0; k < 3; k++) {
                long n;
                MPI_Recv(&n, 1, MPI_LONG, owner, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                tt[k]->s = malloc((size_t)n + 1);
                tt[k]->n = tt[k]->cap = (size_t)n;
                if (n)
                    MPI_Recv(tt[k]->s, (int)n, MPI_CHAR, owner, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
            MPI_Recv(&sw->unit_failed[u], 1, MPI_LONG, owner, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    }
}
#endif

/* ---- the program ---------------------------------------------------------- */

/* Refuses a parameter given twice: two --param of one name (the diagram's
** axis would read one grid while the runs used the other), a --set of a
** swept parameter, or two --set of one name.  0, or 1 after the message. */
static int args_unique(const Sweep *sw)
{
    for (int i = 0; i < sw->nax; i++)
        for (int j = i + 1; j < sw->nax; j++)
            if (!strcmp(sw->ax[i].name, sw->ax[j].name) && sw->basin)
                return cli_error(sw->prog, "--basin %s is given twice: the two axes are two "
                           "different coordinates", sw->ax[i].name);
            else if (!strcmp(sw->ax[i].name, sw->ax[j].name))
                return cli_error(sw->prog, "--param %s is given twice: a parameter is swept along "
                           "one axis", sw->ax[i].name);
    for (int k = 0; k < sw->nsets; k++) {
        const char *ni = set_name(k);
        /* a basin's axes are coordinates of the state, never parameters:
         * sweep_check names the one that is not */
        for (int i = 0; i < sw->nax && !sw->basin; i++)
            if (!strcmp(ni, sw->ax[i].name))
                return cli_error(sw->prog, "--set %s: the parameter is also swept by --param %s",
                           sw->sets[k], ni);
        for (int j = k + 1; j < sw->nsets; j++) {
            if (!strcmp(ni, set_name(j)))
                return cli_error(sw->prog, "--set %s is given twice ('%s' and '%s')", ni,
                           sw->sets[k], sw->sets[j]);
        }
    }
    return 0;
}

/* The grid's number of runs (points, twice with --continue both), refused
** above SW_MAX_POINTS with the product spelled out: the product of the
** counts is formed in double so that 65536^4 cannot wrap to 0.  0, or 1
** after the message. */
static int grid_size(Sweep *sw)
{
    double total = sw->cont == 3 ? 2 : 1;
    for (int a = 0; a < sw->nax; a++)
        total *= (double)sw->ax[a].n;
    if (total > (double)SW_MAX_POINTS) {
        char dims[256] = "";
        size_t k = 0;
        for (int a = 0; a < sw->nax && k < sizeof dims; a++)
            k += (size_t)snprintf(dims + k, sizeof dims - k, "%s%ld", a ? " x " : "",
                                  sw->ax[a].n);
        return cli_error(sw->prog, "the grid has %.6g runs (%s%s), more than the %ld a sweep may "
                   "run: use fewer points", total, dims, sw->cont == 3 ? ", both ways" : "",
                   SW_MAX_POINTS);
    }
    sw->npoints = (long)total;
    return 0;
}

/* Whether an option that takes one value was already given; *seen is
** its flag.  1 after the message. */
static int once(const Sweep *sw, const char *opt, int *seen)
{
    if (*seen)
        return cli_error(sw->prog, "option %s is given twice", opt);
    *seen = 1;
    return 0;
}

/* Parse the command line into sw; 0, or the exit status after a message. */
static int sweep_args(Sweep *sw, int argc, char **argv)
{
    int seen[12] = { 0 };
    const char *const *single = cli_sweep_single;
    argv = cli_args_attached(argc, argv, cli_sweep_valued, &argc);   /* --out-dir=-x */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(sw->prog, stdout);
            return -1;
        }
        if (!strcmp(a, "--floquet")) {
            if (once(sw, a, &sw->floquet))
                return 1;
            continue;
        }
        if (!strcmp(a, "--lyapunov")) {
            if (once(sw, a, &sw->lyap))
                return 1;
            continue;
        }
        if (!val && !cli_sweep_valued(a))
            return cli_error(sw->prog, "unknown option '%s' (see --help)", a);
        if (!val)
            return cli_error(sw->prog, "option %s needs a value (see --help)", a);
        i++;
        for (int k = 0; k < 12; k++)
            if (!strcmp(a, single[k]) && once(sw, a, &seen[k]))
                return 1;
        if (!strcmp(a, "--basin")) {
            if (sw->nax >= 2 || (sw->nax && !sw->basin))
                return cli_error(sw->prog, sw->nax >= 2 ? "--basin is given twice: the grid of initial "
                           "states has two axes%s" : "--basin and --param cannot be combined: a "
                           "basin's grid is of initial states, the parameters fixed (--set)%s", "");
            if (name_keep(sw->prog, &axis_names[sw->nax], val, strlen(val)) ||
                axis_parse(sw->prog, "--basin", val, &sw->ax[sw->nax], axis_names[sw->nax],
                           strlen(val) + 1, NULL))
                return 1;
            sw->nax++;
            sw->basin = 1;
        } else if (!strcmp(a, "--basin-pilot")) {
            if (sw->bpilot_set)     /* the later value replaced the earlier without a word */
                return cli_error(sw->prog, "option %s is given twice", a);
            if (!cli_count(val, 0, 1000, &sw->bpilot))
                return cli_error(sw->prog, "--basin-pilot is a whole number of points per axis from 0 "
                           "(no reference orbits) to 1000, not '%s'", val);
            sw->bpilot_set = 1;
        } else if (!strcmp(a, "--basin-tol")) {
            if (!cli_number(val, &sw->btol) || !(sw->btol > 0) || !(sw->btol < 1))
                return cli_error(sw->prog, "--basin-tol is a relative tolerance between 0 and 1, not "
                           "'%s'", val);
        } else if (!strcmp(a, "--param")) {
            if (sw->basin)
                return cli_error(sw->prog, "--basin and --param cannot be combined: a basin's grid is "
                           "of initial states, the parameters fixed (--set)%s", "");
            if (sw->nax >= SW_MAX_AXES)
                return cli_error(sw->prog, "at most %d --param", SW_MAX_AXES);
            if (name_keep(sw->prog, &axis_names[sw->nax], val, strlen(val)) ||
                axis_parse(sw->prog, "--param", val, &sw->ax[sw->nax], axis_names[sw->nax],
                           strlen(val) + 1, sw->m))
                return 1;
            sw->nax++;
        } else if (!strcmp(a, "--section")) {
            /* empty is the runtime's "no section": the whole grid ran,
             * then "no point gave section records" blamed the t-max */
            if (!*val)
                return cli_error(sw->prog, "--section needs a section (impact:GAP, period:T[:T0] "
                                 "or plane:F[:up|down|both]), got ''");
            sw->section = val;
        } else if (!strcmp(a, "--section-period")) {
            /* empty left the phase nan (and --plot phase failed in gnuplot
             * after the whole grid) */
            if (!*val)
                return cli_error(sw->prog, "--section-period needs a period (a time such as "
                                 "2*pi/omega), got ''");
            sw->pexpr = val;
        } else if (!strcmp(a, "--t-max")) {
            sw->tmax = val;
        } else if (!strcmp(a, "--out-dir")) {
            if (!*val)
                return cli_error(sw->prog, "--out-dir needs a folder, got ''");
            if (cli_value_optionlike(val))
                return cli_value_refuse(sw->prog, a, val);
            sw->out_dir = val;
        } else if (!strcmp(a, "--plot")) {
            sw->plot_col = val;
        } else if (!strcmp(a, "--transient")) {
            if (!cli_count(val, 0, 100000000, &sw->transient))
                return cli_error(sw->prog, "--transient is a whole number of records from 0 to "
                           "100000000, not '%s'", val);
        } else if (!strcmp(a, "--record")) {
            if (!cli_count(val, 1, 10000000, &sw->record))
                return cli_error(sw->prog, "--record is a whole number of records from 1 to "
                           "10000000, not '%s'", val);
        } else if (!strcmp(a, "--lyapunov-periods")) {
            if (!cli_count(val, 1, 100000000, &sw->lyap_periods))
                return cli_error(sw->prog, "--lyapunov-periods is a whole number of forcing periods "
                           "from 1 to 100000000, not '%s'", val);
        } else if (!strcmp(a, "--jobs")) {
            long j;
            if (!cli_count(val, 1, 1024, &j))
                return cli_error(sw->prog, "--jobs is a whole number from 1 to 1024, not '%s'", val);
            sw->jobs = (int)j;
        } else if (!strcmp(a, "--continue")) {
            sw->cont = !strcmp(val, "up") ? 1 : !strcmp(val, "down") ? 2 : !strcmp(val, "both") ? 3 : -1;
            if (sw->cont < 0)
                return cli_error(sw->prog, "--continue is up, down or both, not '%s'", val);
        } else if (!strcmp(a, "--method")) {
            if ((sw->method = nsm_method_parse(val)) < 0)
                return cli_error(sw->prog, "unknown method '%s' (valid: rk4, adaptive, exact, taylor)", val);
        } else if (!strcmp(a, "--set")) {
            const char *eq = strchr(val, '=');
            double v;
            if (!eq || eq == val)
                return cli_error(sw->prog, "--set needs NAME=VALUE, got '%s'", val);
            if (sw->nsets >= SW_MAX_SETS)
                return cli_error(sw->prog, "at most %d --set", SW_MAX_SETS);
            if (name_keep(sw->prog, &set_names[sw->nsets], val, (size_t)(eq - val)) ||
                set_value(sw, val, &v))
                return 1;
            sw->setv[sw->nsets] = v;
            sw->sets[sw->nsets++] = val;
        } else {
            return cli_error(sw->prog, "unknown option '%s' (see --help)", a);
        }
    }
    if (sw->lyap_periods && !sw->lyap)
        return cli_error(sw->prog, "--lyapunov-periods needs --lyapunov");
    if (sw->btol > 0 && !sw->basin)
        return cli_error(sw->prog, "--basin-tol needs --basin");
    if (sw->basin && sw->nax != 2)
        return cli_error(sw->prog, "--basin needs two axes: --basin X=START:STOP:COUNT --basin "
                   "Y=START:STOP:COUNT (two coordinates of the initial state)");
    if (sw->basin && (sw->cont || sw->floquet))
        return cli_error(sw->prog, "--basin runs every initial state on its own: --%s does not apply",
                   sw->cont ? "continue" : "floquet");
    /* basins.png colours each initial state by its attractor: a column
     * to draw was taken without a word and drew nothing */
    if (sw->basin && sw->plot_col)
        return cli_error(sw->prog, "--basin draws the basins of attraction (basins.png), not a "
                         "column: --plot %s does not apply", sw->plot_col);
    if (sw->bpilot_set && !sw->basin)
        return cli_error(sw->prog, "--basin-pilot needs --basin");
    if (!(sw->btol > 0))
        sw->btol = 1e-4;
    if (!sw->bpilot_set)
        sw->bpilot = BASIN_PILOT;
    if (!sw->lyap_periods)
        sw->lyap_periods = 200;
    if (!sw->nax || !sw->section || !sw->out_dir)
        return cli_error(sw->prog, "--param (or --basin), --section and --out-dir are required (see "
                   "--help)");
    if (args_unique(sw) || grid_size(sw))
        return 1;
    return 0;
}

/* Sets every --set value and both ends of every axis on the trial
** simulation sim, and starts it with each, so that a value the model
** refuses (a parameter that sizes an indexed family, a restitution above
** 1) is an error before the grid, with the model's reason, not a failure
** at every point.  0, or 1 after the message. */
static int check_values(const Sweep *sw, nsm_sim *sim)
{
    for (int k = 0; k < sw->nsets; k++) {
        const char *name = set_name(k);
        if (nsm_sim_set_param(sim, name, sw->setv[k]))
            return cli_error(sw->prog, "--set %s: %s", sw->sets[k], nsm_sim_message(sim));
    }
    if (nsm_sim_reset(sim))
        return cli_error(sw->prog, "the model cannot start with these --set values: %s",
                   nsm_sim_message(sim));
    for (int a = 0; a < sw->nax; a++) {
        const Axis *x = &sw->ax[a];
        double end[2] = {x->lo, x->hi};
        for (int k = 0; k < 2; k++) {
            if (nsm_sim_set_param(sim, x->name, end[k]))
                return cli_error(sw->prog, "--param %s: %s", x->name, nsm_sim_message(sim));
            if (nsm_sim_reset(sim))
                return cli_error(sw->prog, "--param %s=%.12g: the model cannot start: %s", x->name,
                           end[k], nsm_sim_message(sim));
        }
    }
    return 0;
}

/* Checks each axis end's run to its horizon (--t-max or the model's
** t_end) as the points will run it, on sim with the section set: a phase
** period or a step the time axis cannot carry there (--section-period
** 1e-300) is an option error before the grid, not a failure at every
** point (it was exit 3, "some points failed").  0, or 1 after the message. */
static int check_horizon(const Sweep *sw, nsm_sim *sim)
{
    for (int a = 0; a < (sw->basin ? 1 : sw->nax); a++) {
        const Axis *x = &sw->ax[a];
        double end[2] = {x->lo, x->hi}, tmax;
        for (int k = 0; k < (sw->basin ? 1 : 2); k++) {
            char msg[512];
            if (!sw->basin && nsm_sim_set_param(sim, x->name, end[k]))
                return cli_error(sw->prog, "--param %s: %s", x->name, nsm_sim_message(sim));
            if (nsm_sim_reset(sim))
                return cli_error(sw->prog, "the model cannot start: %s", nsm_sim_message(sim));
            if (point_tmax(sw, sim, &tmax, msg, sizeof msg))
                return cli_error(sw->prog, "%s", msg);
            if (nsm_sim_check_run(sim, tmax))
                return cli_error(sw->prog, "%s", nsm_sim_message(sim));
        }
    }
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
        return cli_error(sw->prog, "cannot create the simulation");
    if (sw->m->nq && sw->m->nq != sw->m->n_bodies) {  /* its states are not 2n long */
        nsm_sim_free(sim);
        return cli_error(sw->prog, "sweeps, basins and continuation do not take bodies in space yet "
                   "(their Poincare sections and tangent dynamics need a chart of the "
                   "quaternions)");
    }
    for (int a = 0; a < sw->nax && !rc; a++)
        if (sw->basin) {
            if ((sw->bstate[a] = coords_find(sw->m, sw->ax[a].name)) < 0)
                rc = cli_error(sw->prog, "--basin %s: not a coordinate of the state (BODY.x or BODY.v; "
                         "an angle's A.phi or A.omega)", sw->ax[a].name);
            else if (a == 1 && sw->bstate[1] == sw->bstate[0])
                rc = cli_error(sw->prog, "--basin %s is given twice: the two axes are two different "
                         "coordinates", sw->ax[a].name);
        } else if (nsm_sim_get_param(sim, sw->ax[a].name, &v))
            rc = cli_error(sw->prog, "--param: unknown parameter '%s'", sw->ax[a].name);
    for (int k = 0; k < sw->nsets && !rc; k++) {
        const char *name = set_name(k);
        if (nsm_sim_get_param(sim, name, &v))
            rc = cli_error(sw->prog, "--set: unknown parameter '%s'", name);
    }
    if (!rc && !sw->basin)
        rc = check_values(sw, sim);
    else if (!rc)
        for (int k = 0; k < sw->nsets && !rc; k++) {
            const char *name = set_name(k);
            if (nsm_sim_set_param(sim, name, sw->setv[k]))
                rc = cli_error(sw->prog, "--set %s: %s", sw->sets[k], nsm_sim_message(sim));
        }
    if (!rc && sw->basin) {
        /* the initial state the two coordinates replace, once for the grid */
        if (2 * sw->m->n_bodies > 2 * 64)
            rc = cli_error(sw->prog, "--basin handles models of at most 64 bodies");
        else if (nsm_sim_reset(sim))
            rc = cli_error(sw->prog, "the model cannot start: %s", nsm_sim_message(sim));
        else
            memcpy(sw->binit, nsm_sim_state(sim), sizeof(double) * 2 * sw->m->n_bodies);
    }
    char col[160];
    if (!rc && plot_column(sw, col) < 0)
        rc = cli_error(sw->prog, "--plot %s: not a column of section.csv (t, phase, BODY.x, BODY.v)",
                 col);
    /* the phase column reads nan without a period to measure it in: the
     * whole grid ran, then gnuplot failed ("all points y value undefined") */
    if (!rc && !sw->basin && sw->plot_col && !strcmp(sw->plot_col, "phase") && !sw->pexpr &&
        strncmp(sw->section, "period:", 7))
        rc = cli_error(sw->prog, "--plot phase: the phase column of section.csv is nan "
                       "without --section-period EXPR (the period the phase is measured in)");
    if (!rc && (nsm_sim_set_section(sim, sw->section) ||
                (sw->pexpr && nsm_sim_set_section_period(sim, sw->pexpr))))
        rc = cli_error(sw->prog, "%s", nsm_sim_message(sim));
    /* a method the model cannot take (taylor on a linear model) is an
     * option error before the grid, as the simulator's --method is, not a
     * failure at every point */
    if (!rc && (nsm_sim_set_method(sim, sw->method) || nsm_sim_check_run(sim, 0.0))) {
        /* the run's other refusals (a section period of -1) were blamed on
         * --method too: "--method exact: ... the section's period -1 s" */
        const char *why = nsm_sim_message(sim);
        rc = strstr(why, "method") ? cli_error(sw->prog, "--method %s: %s",
                                         nsm_method_name(sw->method), why)
                                   : cli_error(sw->prog, "%s", why);
    }
    if (!rc)
        rc = check_horizon(sw, sim);
    /* --floquet and --lyapunov on a model whose tangent dynamics are not
     * handled (a nonlinear one) ran the whole grid, exit 0, every point
     * "no multipliers" and an empty lyapunov figure: refused before it */
    if (!rc && (sw->floquet || sw->lyap) &&
        nsm_sim_check_tangent(sim, sw->floquet ? "--floquet" : "--lyapunov"))
        rc = cli_error(sw->prog, "%s", nsm_sim_message(sim));
    if (!rc) {
        if (sw->pexpr) {
            snprintf(sw->period_expr, sizeof sw->period_expr, "%s", sw->pexpr);
        } else if (!strncmp(sw->section, "period:", 7)) {
            const char *e = sw->section + 7, *colon = strchr(e, ':');
            snprintf(sw->period_expr, sizeof sw->period_expr, "%.*s",
                     (int)(colon ? colon - e : (long)strlen(e)), e);
        }
        if (sw->floquet && !sw->period_expr[0])
            rc = cli_error(sw->prog, "--floquet follows orbits over whole forcing periods: give the "
                     "period with --section-period EXPR");
        else if (sw->lyap && !sw->period_expr[0])
            rc = cli_error(sw->prog, "--lyapunov reorthonormalises once a forcing period: give the "
                     "period with --section-period EXPR");
        else if (sw->cont && !sw->period_expr[0])
            rc = cli_error(sw->prog, "--continue starts each point at the phase the last one ended "
                     "at: give the forcing period with --section-period EXPR");
    }
    nsm_sim_free(sim);
    return rc;
}

/* A partial file left by an earlier sweep that was killed (the out-dir's
** lock is ours, so no sweep is writing it): kept as NAME.partial.prev (the
** one before is replaced, and that said too) and said, with its rows, so
** that the new sweep never replaces a partial result silently. */
static void partial_stale(const Sweep *sw, const char *path)
{
    /* without blocking: a FIFO planted there waited in open() for a writer,
     * deaf to a stop signal (SA_RESTART); it is kept as .prev like a file */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return;
    char buf[65536], prev[4300];
    long lines = 0;
    ssize_t k;
    while ((k = read(fd, buf, sizeof buf)) > 0)
        for (ssize_t i = 0; i < k; i++)
            lines += buf[i] == '\n';
    close(fd);
    snprintf(prev, sizeof prev, "%s.prev", path);
    struct stat st;
    int older = lstat(prev, &st) == 0;    /* kept from a stop before: replaced, and said */
    if (rename(path, prev) == 0)
        fprintf(stderr, "%s: note: '%s' was left by an earlier sweep that did not finish (%ld "
                "rows after its header): kept as '%s'%s\n", sw->prog, path,
                lines > 0 ? lines - 1 : 0, prev,
                older ? ", replacing the one kept there from a stop before it" : "");
    else
        fprintf(stderr, "%s: note: '%s' was left by an earlier sweep that did not finish (%ld "
                "rows after its header) and could not be kept (%s): this sweep replaces it\n",
                sw->prog, path, lines > 0 ? lines - 1 : 0, strerror(errno));
}

/* Opens DIR/NAME.partial for appending; rank 0 creates it afresh with the
** header hdr (the other ranks open it after a barrier).  The descriptor,
** or -1 after a message. */
static int partial_open(const Sweep *sw, const char *name, const CliText *hdr)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s.partial", sw->out_dir, name);
    int flags = O_WRONLY | O_APPEND | O_CLOEXEC | (sw->rank == 0 ? O_CREAT | O_TRUNC : 0);
    if (sw->rank == 0)
        partial_stale(sw, path);
    int fd = open(path, flags, 0666);
    if (fd < 0) {
        cli_error(sw->prog, "cannot write '%s': %s", path, strerror(errno));
        return -1;
    }
    if (sw->rank == 0 && hdr->n && write(fd, hdr->s, hdr->n) != (ssize_t)hdr->n) {
        cli_error(sw->prog, "cannot write '%s': %s", path, strerror(errno ? errno : ENOSPC));
        close(fd);
        unlink(path);
        return -1;
    }
    return fd;
}

/* Removes DIR/NAME.partial (the complete file has replaced it). */
static void partial_remove(const Sweep *sw, const char *name)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s.partial", sw->out_dir, name);
    unlink(path);
}

/* Allocates the per-unit texts and counters.  0, or 1 after a message
** (the sweep's arrays are then NULL or freed by sweep_free). */
static int sweep_alloc(Sweep *sw)
{
    size_t n = (size_t)sw->nunits;
    sw->sec_text = calloc(n, sizeof(CliText));
    sw->sum_text = calloc(n, sizeof(CliText));
    sw->bif_text = calloc(n, sizeof(CliText));
    sw->unit_failed = calloc(n, sizeof(long));
    sw->sec_flushed = calloc(n, sizeof(size_t));
    sw->sum_flushed = calloc(n, sizeof(size_t));
    if (!sw->sec_text || !sw->sum_text || !sw->bif_text || !sw->unit_failed ||
        !sw->sec_flushed || !sw->sum_flushed)
        return cli_error(sw->prog, "out of memory for a grid of %ld points", sw->npoints);
    return 0;
}

/* Frees what sweep_alloc and the workers allocated; safe after a failed
** sweep_alloc (a texts array may be NULL). */
static void sweep_free(Sweep *sw)
{
    for (long u = 0; u < sw->nunits; u++) {
        if (sw->sec_text)
            free(sw->sec_text[u].s);
        if (sw->sum_text)
            free(sw->sum_text[u].s);
        if (sw->bif_text)
            free(sw->bif_text[u].s);
    }
    free(sw->sec_text);
    free(sw->sum_text);
    free(sw->bif_text);
    free(sw->unit_failed);
    free(sw->sec_flushed);
    free(sw->sum_flushed);
    if (sw->part_sec >= 0)
        close(sw->part_sec);
    if (sw->part_sum >= 0)
        close(sw->part_sum);
    sw->part_sec = sw->part_sum = -1;
}

#define BASIN_MAX_REFS 64   /* reference orbits kept at most */

/* Adds the orbit the run in c settled on to the references, unless one
** there already stands for it (its newest record on that orbit, as
** basin_match compares).  0, or 1 when out of memory. */
static int basin_ref_add(Sweep *sw, const Collect *c, double Tp)
{
    long p = orbit_records(c);
    int n2 = c->n2;
    if (p <= 0 || sw->nbref >= BASIN_MAX_REFS)
        return 0;
    for (long k = 0; k < sw->nbref; k++)
        for (long s = 0; s < sw->bref[k].p; s++)
            if (sw->bref[k].p == p && ref_near(c, c->kept - 1, &sw->bref[k], s, basin_ref_tol(sw)))
                return 0;
    BasinRef *r = &sw->bref[sw->nbref];
    CliText sig = { 0 }, fields = { 0 };
    basin_signature(sw, &sig, c, 0, Tp);
    orbit_fields(&fields, c, 0, Tp);
    r->point = c->point;
    r->p = p;
    r->ph = malloc(sizeof(double) * (size_t)p);
    r->y = malloc(sizeof(double) * (size_t)(p * (n2 ? n2 : 1)));
    r->scale = malloc(sizeof(double) * (size_t)(n2 ? n2 : 1));
    r->sig = sig.s;
    r->fields = fields.s;
    sw->nbref++;
    if (!r->ph || !r->y || !r->scale || sig.err || fields.err || !sig.s || !fields.s)
        return 1;
    for (long s = 0; s < p; s++) {
        long a = c->kept - p + s;
        r->ph[s] = c->rec[a].phase;
        memcpy(r->y + s * n2, c->y + a * n2, sizeof(double) * (size_t)n2);
    }
    record_scales(c, r->scale);
    return 0;
}

/* Frees the basin study's reference orbits. */
static void basin_refs_free(Sweep *sw)
{
    for (long k = 0; k < sw->nbref; k++) {
        free(sw->bref[k].ph);
        free(sw->bref[k].y);
        free(sw->bref[k].scale);
        free(sw->bref[k].sig);
        free(sw->bref[k].fields);
    }
    free(sw->bref);
    sw->bref = NULL;
    sw->nbref = 0;
}

/* The pilot's lattice values on an axis of n: a quarter of them, at least
** 2 and at most --basin-pilot (by default 16: the pilot is then at most
** 7 % of the grid's runs, 0.1 % on 500 x 500). */
static long basin_pilot_count(const Sweep *sw, long n)
{
    long m = n / 4 < 2 ? 2 : n / 4;
    m = m < sw->bpilot ? m : sw->bpilot;
    return m < n ? m : n;
}

/* The pilot of a basin study: the points of a lattice of at most
** BASIN_PILOT x BASIN_PILOT over the grid (basin_pilot_count), run as every point was before
** there were references (until their records repeat), in grid order on
** every rank alike; the orbits they settle on are the references that
** later points compare with as they run (basin_match), which ends most
** runs a few repeats after they reach their attractor instead of once 12
** records repeat to 1e-6.  The pilot's points are run again with the
** grid (in 0.1 % of the time of a 500 x 500 grid).  Not with
** --lyapunov, whose exponent starts where the run ends, nor with
** --basin-pilot 0.  0, or 1 after a
** message. */
static int basin_pilot(Sweep *sw)
{
    if (!sw->basin || sw->lyap || sw->bpilot == 0)
        return 0;
    Collect c;
    nsm_sim *sim = sweep_sim(sw, &c);
    sw->bref = calloc(BASIN_MAX_REFS, sizeof(BasinRef));
    int rc = !sim || !sw->bref;
    long n0 = sw->ax[0].n, n1 = sw->ax[1].n;
    long m0 = basin_pilot_count(sw, n0), m1 = basin_pilot_count(sw, n1);
    c.no_early = 1;
    for (long b = 0; b < m1 && !rc && !sweep_stop; b++)
        for (long a = 0; a < m0 && !rc && !sweep_stop; a++) {
            long i = m0 > 1 ? a * (n0 - 1) / (m0 - 1) : 0, j = m1 > 1 ? b * (n1 - 1) / (m1 - 1) : 0;
            double pv[SW_MAX_AXES], Tp = 0, yend[c.n2 ? c.n2 : 1];
            char msg[600];
            c.point = i + n0 * j;
            point_values(sw, c.point, pv);
            if (!point_params(sw, sim, pv, msg, sizeof msg) &&
                point_run(sw, sim, &c, yend, msg, sizeof msg, &Tp) == 0)
                rc = basin_ref_add(sw, &c, Tp);
        }
    if (sim) {
        nsm_sim_free(sim);
        free(c.rec);
        free(c.y);
    }
    return rc ? cli_error(sw->prog, "out of memory") : 0;
}

/* The threads worth starting on this rank: --jobs, at most one a unit the
** rank runs (units go round-robin over the ranks), at least one.  The
** summary says this number: `--jobs 1000` on a 4-point sweep said "1000
** jobs" and ran 4 (the others found no unit). */
static int sweep_jobs_used(const Sweep *sw)
{
    long mine = sw->rank < sw->nunits ? (sw->nunits - sw->rank + sw->size - 1) / sw->size : 0;
    return mine < 1 ? 1 : mine < sw->jobs ? (int)mine : sw->jobs;
}

/* Runs the grid on sw->jobs threads (sweep_jobs_used: no more than its
** units).  0, or 1 after a message. */
static int sweep_grid(Sweep *sw)
{
    pthread_t th[1024];
    int nth = 0;
    if (basin_pilot(sw)) {
        basin_refs_free(sw);
        return 1;
    }
    pthread_mutex_init(&sw->lock, NULL);
    if (sw->rank == 0)
        progress_start(&sw->pb, stderr);
    sw->jobs = sweep_jobs_used(sw);
    for (int k = 0; k < sw->jobs; k++)
        if (pthread_create(&th[nth], NULL, worker, sw) == 0)
            nth++;
    int wfail = nth == 0;
    for (int k = 0; k < nth; k++) {
        void *r;
        pthread_join(th[k], &r);
        wfail |= r != NULL;
    }
    if (sw->rank == 0)
        progress_finish(&sw->pb);
    pthread_mutex_destroy(&sw->lock);
    basin_refs_free(sw);
    if (wfail)
        return cli_error(sw->prog, "a worker could not start (out of memory)");
    return 0;
}

/* After a stop (a signal, or a failed write to the partial files): says
** what was kept, where, and returns the exit status (128 + the signal, or
** 1).  The complete files of an earlier sweep are left as they were. */
static int sweep_stopped(const Sweep *sw)
{
    char sec[4200], moved[4400] = "";
    snprintf(sec, sizeof sec, "%s/section.csv.partial", sw->out_dir);
    /* a folder moved, removed or replaced mid-run: the partial files went
     * with the folder the sweep locked, not into what DIR names now */
    if (outdir_moved(sw->out_dir, &sw->dir_id)) {
        snprintf(sec, sizeof sec, "section.csv.partial");
        snprintf(moved, sizeof moved, " in the folder the sweep started in, wherever that was "
                 "moved ('%s' was moved, removed or replaced while it ran)", sw->out_dir);
    }
    if (sweep_stop < 0) {
        cli_error(sw->prog, "cannot write '%s' or summary.csv.partial: %s; the points finished before "
            "are there, in whole lines%s", sec, strerror(sw->write_err), moved);
        return 1;
    }
    const char *sig = stop_name((int)sweep_stop);
    fprintf(stderr, "%s: stopped by %s: %ld of %ld point%s finished%s, in %s and "
            "summary.csv.partial%s (a partial result; section.csv, summary.csv and the figures "
            "were left as they were)\n", sw->prog, sig, sw->done, sw->npoints,
            sw->npoints == 1 ? "" : "s",
            sw->size > 1 ? " on this rank" : "", sec, moved);
    return 128 + (int)sweep_stop;
}

/* Walks the units' summary rows: counts the points that ended short and
** copies the message of the first point that did not end ok (its last,
** quoted field) into cause, so a sweep that has nothing to draw names why
** instead of only saying so. */
static long summary_short(const Sweep *sw, char *cause, size_t len)
{
    int field = sw->nax + (sw->cont ? 1 : 0);   /* the status column */
    long nshort = 0;
    cause[0] = 0;
    for (long u = 0; u < sw->nunits; u++) {
        const char *s = sw->sum_text[u].s, *end = s + sw->sum_text[u].n;
        while (s && s < end) {
            const char *nl = memchr(s, '\n', (size_t)(end - s)), *f = s;
            if (!nl)
                nl = end;
            for (int k = 0; k < field && f < nl; k++) {
                const char *c = memchr(f, ',', (size_t)(nl - f));
                f = c ? c + 1 : nl;
            }
            int ok = nl - f >= 3 && !strncmp(f, "ok,", 3);
            nshort += nl - f >= 6 && !strncmp(f, "short,", 6);
            const char *q1 = nl > s && nl[-1] == '"' ? nl - 1 : NULL, *q0 = NULL;
            for (const char *c = q1 ? q1 - 1 : NULL; c && c >= f; c--)
                if (*c == '"') {
                    q0 = c;
                    break;
                }
            if (!ok && !cause[0] && q0)
                snprintf(cause, len, "%.*s", (int)(q1 - q0 - 1), q0 + 1);
            s = nl + 1;
        }
    }
    return nshort;
}

/* The complete section.csv or summary.csv could not be written (said
** already): the points are still in the partial files, which the user must
** be told of (the message named only the complete file, so the points
** looked lost). */
static void partial_kept_said(const Sweep *sw)
{
    fprintf(stderr, "%s: the %ld point%s of this sweep %s kept in %s/section.csv.partial and "
            "summary.csv.partial, in whole lines (no figure drawn)\n", sw->prog, sw->npoints,
            sw->npoints == 1 ? "" : "s", sw->npoints == 1 ? "is" : "are", sw->out_dir);
}

/* Removes the results of an earlier study into the folder that this one
** does not write, once its own are in place (outdir_others_remove). */
static void others_remove(const Sweep *sw)
{
    const char *own[6];
    int n = 0;
    own[n++] = "summary.csv";
    if (sw->basin) {
        own[n++] = "section.csv.partial";    /* a basin study's partial files too */
        own[n++] = "basins.csv";
        own[n++] = "attractors.csv";
        own[n++] = "basins.";
    } else {
        own[n++] = "section.csv";
        own[n++] = "bifurcation.";
        if (sw->lyap)
            own[n++] = "lyapunov.";
        if (sw->floquet)
            own[n++] = "bifurcations.csv";
    }
    outdir_others_remove(sw->prog, sw->out_dir, own, n);
}

/* The end of a basin study whose summary.csv is written into its
** temporary: basin_finish classifies the points and places summary.csv,
** attractors.csv and basins.csv together; the partial files removed once
** they are placed, else kept and said.  The exit status. */
static int basin_placed(const Sweep *sw, long failed)
{
    int placed = 0, rc = basin_finish(sw, failed, &placed);
    if (placed) {
        partial_remove(sw, "section.csv");
        partial_remove(sw, "summary.csv");
        others_remove(sw);
    } else
        partial_kept_said(sw);
    return rc;
}

/* A basin study whose summary.csv could not be written (said already):
** its temporary removed, the partial files kept and said.  1. */
static int basin_unplaced(const Sweep *sw)
{
    static const char *const summary[1] = { "summary.csv" };
    temps_drop(sw, summary, 1);
    partial_kept_said(sw);
    return 1;
}

/* The complete files from the units' texts, in unit order: section.csv,
** summary.csv (bifurcations.csv with --floquet), each a temporary renamed
** into place, then the partial files removed and the diagram drawn when
** there are records to draw.  *failed: the points that failed.  0, or
** the exit status after a message. */
static int sweep_finish(Sweep *sw, const CliText *hs, const CliText *hm, long *failed)
{
    const char **parts = malloc(sizeof(char *) * (size_t)(sw->nunits + 1));
    size_t *lens = malloc(sizeof(size_t) * (size_t)(sw->nunits + 1));
    int rc = 0, terr = hs->err || hm->err || !parts || !lens, rows = 0;
    for (long u = 0; u < sw->nunits; u++) {
        terr |= sw->sec_text[u].err || sw->sum_text[u].err || sw->bif_text[u].err;
        *failed += sw->unit_failed[u];
        rows |= sw->sec_text[u].n > 0;
    }
    if (terr) {
        free(parts);
        free(lens);
        return cli_error(sw->prog, "out of memory");
    }
    if (outdir_still_there(sw->prog, sw->out_dir, &sw->dir_id,
                           sw->basin ? "basin study" : "sweep",
                           "section.csv.partial and summary.csv.partial")) {
        free(parts);
        free(lens);
        return 1;
    }
    parts[0] = hs->s;
    lens[0] = hs->n;
    for (long u = 0; u < sw->nunits; u++)
        parts[u + 1] = sw->sec_text[u].s, lens[u + 1] = sw->sec_text[u].n;
    rc = sw->basin ? 0 : write_temp(sw, "section.csv", parts, lens, sw->nunits + 1);
    parts[0] = hm->s;
    lens[0] = hm->n;
    for (long u = 0; u < sw->nunits; u++)
        parts[u + 1] = sw->sum_text[u].s, lens[u + 1] = sw->sum_text[u].n;
    if (!rc && write_temp(sw, "summary.csv", parts, lens, sw->nunits + 1))
        rc = 1;
    if (!rc && sw->floquet) {
        CliText hb = { 0 };
        for (int a = 1; a < sw->nax; a++)
            cli_printf(&hb, "%s,", sw->ax[a].name);
        cli_printf(&hb, "%skind,period,%s,width,note\n", sw->cont ? "branch," : "",
                    sw->ax[0].name);
        parts[0] = hb.s;
        lens[0] = hb.n;
        for (long u = 0; u < sw->nunits; u++)
            parts[u + 1] = sw->bif_text[u].s, lens[u + 1] = sw->bif_text[u].n;
        rc = hb.err ? cli_error(sw->prog, "out of memory")
                    : write_temp(sw, "bifurcations.csv", parts, lens, sw->nunits + 1);
        free(hb.s);
    }
    free(parts);
    free(lens);
    if (sw->basin)      /* summary.csv placed with basins.csv and attractors.csv */
        return rc ? basin_unplaced(sw) : basin_placed(sw, *failed);
    /* all or none: the files of one sweep, never one beside an earlier one's */
    static const char *const all[3] = { "section.csv", "summary.csv", "bifurcations.csv" };
    if (!rc)
        rc = temps_place(sw, all, sw->floquet ? 3 : 2);
    else
        temps_drop(sw, all, 2);
    if (rc) {
        partial_kept_said(sw);
        return rc;
    }
    partial_remove(sw, "section.csv");
    partial_remove(sw, "summary.csv");
    others_remove(sw);
    for (long u = 0; u < sw->nunits && sw->floquet; u++)
        if (sw->bif_text[u].n)
            fprintf(stderr, "%s: %.*s", sw->prog, (int)sw->bif_text[u].n, sw->bif_text[u].s);
    char cause[600];
    long nshort = summary_short(sw, cause, sizeof cause);
    if (!rows) {
        /* nothing to draw is a failure of every point, whatever each
         * status says: never an exit 0 without a result */
        fprintf(stderr, "%s: no point gave section records (%ld of %ld failed, %ld ended short; "
                "first cause: %s): see %s/summary.csv; bifurcation.png and .svg were not drawn "
                "(any there are from an earlier sweep)\n", sw->prog, *failed, sw->npoints, nshort,
                cause[0] ? cause : "unknown", sw->out_dir);
        return 3;
    }
    if (nshort)
        fprintf(stderr, "%s: note: %ld of %ld point%s ended short (fewer than %ld record%s before "
                "t = t-max): they are drawn with the records they have; see %s/summary.csv\n",
                sw->prog, nshort, sw->npoints, sw->npoints == 1 ? "" : "s",
                sw->transient + sw->record, sw->transient + sw->record == 1 ? "" : "s",
                sw->out_dir);
    if ((rc = draw(sw)) || (sw->lyap && (rc = draw_lyapunov(sw))))
        return rc;
    int drawn = plot_have_gnuplot();
    char rk[48];
    fprintf(stderr, "%s: %ld point%s, %d job%s%s; %s/section.csv, summary.csv%s%s\n", sw->prog,
            sw->npoints, sw->npoints == 1 ? "" : "s", sw->jobs, sw->jobs > 1 ? "s" : "",
            ranks_text(sw, rk, sizeof rk), sw->out_dir,
            drawn ? ", bifurcation.png, bifurcation.svg" : "",
            drawn && sw->lyap ? ", lyapunov.png, lyapunov.svg" : "");
    return 0;
}

int nsm_sweep_main(const nsm_model *m, int argc, char **argv)
{
    stop_install();     /* first: a stop request at any moment is a flag */
    Sweep sw;
    memset(&sw, 0, sizeof sw);
    sw.m = m;
    sw.prog = argc > 0 && argv[0] ? argv[0] : "nsmc sweep";
    sw.method = m->method;
    sw.transient = 100;
    sw.record = 100;
    sw.jobs = 1;
    sw.size = 1;
    sw.part_sec = sw.part_sum = -1;
    int rc = sweep_args(&sw, argc, argv);
    if (rc)
        return rc < 0 ? out_stdout_check(sw.prog) : rc;   /* -1: --help printed */
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
    sw.nouter = sw.npoints / (sw.cont == 3 ? 2 : 1) / sw.ax[0].n;
    sw.nunits = !sw.cont ? sw.npoints : sw.cont == 3 ? 2 * sw.nouter : sw.nouter;
    CliText hs = { 0 }, hm = { 0 };
    headers(&sw, &hs, &hm);
    stop_install();     /* again: MPI_Init may have set its own */
    if (sw.rank == 0) {
        rc = outdir_lock(sw.prog, sw.out_dir) || results_check(&sw);
        outdir_id_take(sw.out_dir, &sw.dir_id);
    }
    if (!rc)
        rc = sweep_alloc(&sw);
    if (!rc && (hs.err || hm.err))
        rc = cli_error(sw.prog, "out of memory");
    if (!rc && sw.rank == 0 && ((sw.part_sec = partial_open(&sw, "section.csv", &hs)) < 0 ||
                                (sw.part_sum = partial_open(&sw, "summary.csv", &hm)) < 0))
        rc = 1;
#ifdef NSM_HAVE_MPI
    if (mpi) {
        /* every rank starts, or none: the partial files exist before the others append */
        MPI_Allreduce(MPI_IN_PLACE, &rc, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (!rc && sw.rank != 0 && ((sw.part_sec = partial_open(&sw, "section.csv", &hs)) < 0 ||
                                    (sw.part_sum = partial_open(&sw, "summary.csv", &hm)) < 0))
            rc = 1;
    }
#endif
    if (!rc)
        rc = sweep_grid(&sw);
    if (!rc && sweep_stop)
        rc = sweep_stopped(&sw);
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
    if (!rc && sw.rank == 0)
        rc = sweep_finish(&sw, &hs, &hm, &failed);
    free(hs.s);
    free(hm.s);
    sweep_free(&sw);
#ifdef NSM_HAVE_MPI
    if (mpi) {
        MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
        MPI_Finalize();
    }
#endif
    (void)mpi;
    if ((!rc || rc == 3) && failed)
        fprintf(stderr, "%s: some points failed (%ld of %ld): see %s/summary.csv\n", sw.prog,
                failed, sw.npoints, sw.out_dir);
    return rc ? rc : failed ? 3 : 0;
}
