/*
** cvode_peer.c: the benchmark's peer.  The same physics as models/two_mass.nsm,
** two_mass_grazing.nsm, two_mass_plastic.nsm (Dedow & Murphy's cases A, B, C)
** and models/sdnd121.nsm (code_aster SDND121), written by hand for CVODE
** (SUNDIALS 6, Debian 12's libsundials-dev) with its rootfinding, the way a
** user of CVODE would write them, so that bench/run_bench.py can time nsm and
** CVODE side by side in one run and compare both with the references of
** tests/reference/data.
**
**     cc -O2 -std=c11 bench/cvode_peer.c -lsundials_cvode -lsundials_nvecserial -lm
**     ./cvode_peer [--reps N] [--events DIR] [--lmm adams|bdf] [--rtol R] [--atol A]
**                  [--vstick V] [--case two_mass|sdnd121|all]
**
** Every case is a switched system integrated mode by mode: CVODE integrates one
** mode's smooth equations, its rootfinding (CVodeRootInit, direction -1) stops
** on the mode's event function, the program applies the transition and
** restarts the integrator there (CVodeReInit).
**
** Defaults: Adams with fixed-point iteration (--lmm bdf: BDF, Newton on a
** dense matrix), rtol 1e-10, atol 1e-12, --vstick 1e-6 m/s.
**
** Two masses (y = x1, x2, v1, v2): free, or stuck (a1 = a2, the same four
** states).  Free: event function the gap r = x2 - x1; an impact applies
** Newton's law r'+ = -e r'- with momentum conserved, and puts both bodies at
** their centre of mass (the gap exactly 0, not CVODE's root to its
** tolerance).  A second event function, the gap plus 1e-9 m, stops the run
** with a message if CVODE steps over an impact (a flight too short for it)
** instead of letting the bodies pass through each other.  Stuck: event function
** the contact force lambda = (m1 F2 - m2 F1) / (m1 + m2), F_i = k_i x_i +
** c_i v_i; it falling through 0 is a separation.  After an impact with e = 0,
** or one whose rebound velocity is below --vstick (a Zeno cascade whose flights
** CVODE can no longer resolve, cut short there and logged as `zeno`), the
** bodies take their common velocity and stick only if lambda > 0 (the force
** would be compressive); otherwise they fly apart with the impact's velocities
** (docs/theory.md).  At t = 0 they start stuck when they touch at the same
** velocity under a compressive force.
**
** SDND121 (y = x, v): free, or engaged in the penalty stop (force k_choc p +
** c_choc p', p = x - jeu).  Free: event function jeu - x (contact entry);
** engaged: k_choc p + c_choc p' (exit when the force vanishes).
**
** Timing: each case is run --reps times in this process; the wall time of a
** run (clock_gettime, CLOCK_MONOTONIC) covers creating the integrator, the
** whole integration with its events, and freeing it; the median is printed,
** with the fastest run and the median CPU time (CLOCK_PROCESS_CPUTIME_ID).
** The two-mass cases are timed together (A, then B, then C in one run).
** bench/run_bench.py counts instructions with callgrind inside the
** functions named bench* only (--toggle-collect=bench*): keep the timed runs
** there.
**
** Output (stdout): a line `# SUNDIALS <version>`, then one tab-separated line
** per case:
**     case  tool  method  median_s  min_s  cpu_median_s  reps  events  steps
** and with --events DIR the events of the last run in DIR/<case>.events.csv
** (t,kind,contact), the format of tests/reference/data.  Exit status 0, or 1
** when CVODE fails (its message on stderr).
*/
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

#define MAX_EVENTS 4096
#define MAX_REPS 1000

/* Settings of the integrator, as a user of CVODE would choose them. */
typedef struct Opts {
    int lmm;                /* CV_ADAMS (fixed-point iteration) or CV_BDF (Newton, dense) */
    double rtol, atol;      /* CVodeSStolerances */
    double vstick;          /* rebound speed below which a cascade is cut short, m/s */
    int reps;
    const char *events_dir;
} Opts;

/* One logged event. */
typedef struct Event {
    double t;
    const char *kind;
    const char *contact;
} Event;

typedef struct Log {
    Event ev[MAX_EVENTS];
    int n;
    long steps;             /* CVODE steps over all restarts */
} Log;

/* Append an event; the log keeps the first MAX_EVENTS. */
static void log_event(Log *lg, double t, const char *kind, const char *contact)
{
    if (lg->n < MAX_EVENTS) {
        lg->ev[lg->n].t = t;
        lg->ev[lg->n].kind = kind;
        lg->ev[lg->n].contact = contact;
    }
    lg->n++;
}

/* ------------------------------------------------------------ the integrator */

/* CVODE's memory and what it needs, for one mode-switched run. */
typedef struct Peer {
    void *mem;
    N_Vector y;
    SUNMatrix A;
    SUNLinearSolver LS;
    SUNNonlinearSolver NLS;
    double t_end;
} Peer;

/* Free what peer_open made. */
static void peer_close(Peer *p)
{
    if (p->mem)
        CVodeFree(&p->mem);
    if (p->NLS)
        SUNNonlinSolFree(p->NLS);
    if (p->LS)
        SUNLinSolFree(p->LS);
    if (p->A)
        SUNMatDestroy(p->A);
    if (p->y)
        N_VDestroy(p->y);
    memset(p, 0, sizeof *p);
}

/* Create and configure CVODE on n states y0 at t = 0, with the right-hand side
** f, nroots event functions g (roots where they fall through 0 only) and user
** data ud. */
static int peer_open(Peer *p, SUNContext ctx, const Opts *o, int n, const double *y0,
                     CVRhsFn f, int nroots, CVRootFn g, void *ud, double t_end)
{
    int dir[2] = { -1, -1 };
    memset(p, 0, sizeof *p);
    p->t_end = t_end;
    p->y = N_VNew_Serial(n, ctx);
    if (!p->y)
        return -1;
    memcpy(N_VGetArrayPointer(p->y), y0, n * sizeof *y0);
    p->mem = CVodeCreate(o->lmm, ctx);
    if (!p->mem || CVodeInit(p->mem, f, 0.0, p->y) || CVodeSStolerances(p->mem, o->rtol, o->atol) ||
        CVodeSetUserData(p->mem, ud) || CVodeSetMaxNumSteps(p->mem, 1000000) ||
        CVodeSetStopTime(p->mem, t_end) || CVodeRootInit(p->mem, nroots, g) ||
        CVodeSetRootDirection(p->mem, dir) || CVodeSetNoInactiveRootWarn(p->mem))
        return -1;
    if (o->lmm == CV_ADAMS) {
        p->NLS = SUNNonlinSol_FixedPoint(p->y, 0, ctx);
        return !p->NLS || CVodeSetNonlinearSolver(p->mem, p->NLS) ? -1 : 0;
    }
    p->A = SUNDenseMatrix(n, n, ctx);
    p->LS = p->A ? SUNLinSol_Dense(p->y, p->A, ctx) : NULL;
    return !p->LS || CVodeSetLinearSolver(p->mem, p->LS, p->A) ? -1 : 0;
}

/* Restart the integration at t from the (changed) state in p->y, keeping the
** count of the steps taken so far. */
static int peer_restart(Peer *p, double t, Log *lg)
{
    long nst = 0;
    CVodeGetNumSteps(p->mem, &nst);
    lg->steps += nst;
    if (CVodeReInit(p->mem, t, p->y) || CVodeSetStopTime(p->mem, p->t_end))
        return -1;
    return 0;
}

/* Integrate until the event function has a root (returns 1, *t its time,
** p->y the state there) or the end time is reached (returns 0); -1 when
** CVODE fails. */
static int peer_advance(Peer *p, double *t, Log *lg)
{
    int flag;
    do {
        flag = CVode(p->mem, p->t_end, p->y, t, CV_NORMAL);
        if (flag == CV_ROOT_RETURN)
            return 1;
        if (flag < 0)
            return -1;
    } while (*t < p->t_end);
    long nst = 0;
    CVodeGetNumSteps(p->mem, &nst);
    lg->steps += nst;
    return 0;
}

/* ------------------------------------------------------- Dedow & Murphy */

/* Parameters and initial state of one two-mass case (reference/problems.md). */
typedef struct TwoMass {
    const char *name;       /* reference case, tests/reference/data/<name>.events.csv */
    double m1, m2, k1, k2, c1, c2, e;
    double y0[4];           /* x1, x2, v1, v2 */
    double t_end;
} TwoMass;

static const TwoMass two_mass_cases[3] = {
    { "two_mass_a", 5, 5, 2, 1, 1, 1, 0.9, { -1, -1, 0, 0 }, 20 },
    { "two_mass_b", 5, 5, 2, 1, 1, 1, 0.9, { 0.879773, 3.768875, 1.611922, 0.325024 }, 20 },
    { "two_mass_c", 5, 5, 2, 1, 1, 1, 0.0, { -1, 2, 0, 0 }, 20 },
};

#define TM_OVERLAP 1e-9     /* m: an overlap this deep means an impact was missed */

typedef struct TwoMassRun {
    const TwoMass *c;
    int stuck;
} TwoMassRun;

/* The contact force that holds the bodies together, were they stuck at y. */
static double tm_lambda(const TwoMass *c, const double *y)
{
    double F1 = c->k1 * y[0] + c->c1 * y[2], F2 = c->k2 * y[1] + c->c2 * y[3];
    return (c->m1 * F2 - c->m2 * F1) / (c->m1 + c->m2);
}

/* Right-hand side: free flight, or the stuck pair's common acceleration. */
static int tm_rhs(realtype t, N_Vector yv, N_Vector ydv, void *ud)
{
    const TwoMassRun *r = ud;
    const TwoMass *c = r->c;
    const double *y = N_VGetArrayPointer(yv);
    double *yd = N_VGetArrayPointer(ydv);
    (void)t;
    yd[0] = y[2];
    yd[1] = y[3];
    if (r->stuck) {
        double a = -(c->k1 * y[0] + c->k2 * y[1] + c->c1 * y[2] + c->c2 * y[3]) / (c->m1 + c->m2);
        yd[2] = yd[3] = a;
    } else {
        yd[2] = -(c->k1 * y[0] + c->c1 * y[2]) / c->m1;
        yd[3] = -(c->k2 * y[1] + c->c2 * y[3]) / c->m2;
    }
    return 0;
}

/* Event functions: g[0] the gap when free, the contact force when stuck;
** g[1] (free) the gap plus TM_OVERLAP, which falls through 0 only when CVODE
** stepped over an impact (a flight shorter than it can resolve): the run then
** fails instead of letting the bodies pass through each other. */
static int tm_root(realtype t, N_Vector yv, realtype *g, void *ud)
{
    const TwoMassRun *r = ud;
    const double *y = N_VGetArrayPointer(yv);
    (void)t;
    g[0] = r->stuck ? tm_lambda(r->c, y) : y[1] - y[0];
    g[1] = r->stuck ? 1.0 : y[1] - y[0] + TM_OVERLAP;
    return 0;
}

/* Give both bodies the velocity of their centre of mass. */
static void tm_common_velocity(const TwoMass *c, double *y)
{
    y[2] = y[3] = (c->m1 * y[2] + c->m2 * y[3]) / (c->m1 + c->m2);
}

/* The gap closed at t: Newton's impact, then sticking if the rebound is nil
** (plastic impact, or a cascade cut short) and the force compressive. */
static void tm_impact(TwoMassRun *r, double *y, double t, double vstick, Log *lg)
{
    const TwoMass *c = r->c;
    double w = y[3] - y[2];                    /* closing speed, < 0 */
    double P = -(1 + c->e) * w / (1 / c->m1 + 1 / c->m2);
    double ys[4];
    if (w >= 0)
        return;                                /* touched without closing: nothing to do */
    y[0] = y[1] = (c->m1 * y[0] + c->m2 * y[1]) / (c->m1 + c->m2);
    y[2] -= P / c->m1;
    y[3] += P / c->m2;
    log_event(lg, t, "impact", "C");
    if (-c->e * w > vstick)
        return;
    memcpy(ys, y, sizeof ys);
    tm_common_velocity(c, ys);
    if (tm_lambda(c, ys) <= 0)
        return;                                /* the pair flies apart: no sticking */
    memcpy(y, ys, sizeof ys);
    if (c->e > 0)
        log_event(lg, t, "zeno", "C");        /* the rest of the cascade is dropped */
    log_event(lg, t, "stick", "C");
    r->stuck = 1;
}

/* One two-mass case from t = 0 to its end time. */
static int tm_run(const TwoMass *c, SUNContext ctx, const Opts *o, Log *lg)
{
    TwoMassRun r = { c, 0 };
    Peer p;
    double t = 0, *y;
    int rc;
    if (c->y0[0] == c->y0[1] && c->y0[2] == c->y0[3] && tm_lambda(c, c->y0) > 0)
        r.stuck = 1;                           /* initial mode, not an event */
    if (peer_open(&p, ctx, o, 4, c->y0, tm_rhs, 2, tm_root, &r, c->t_end)) {
        peer_close(&p);
        return -1;
    }
    y = N_VGetArrayPointer(p.y);
    while ((rc = peer_advance(&p, &t, lg)) == 1) {
        int found[2] = { 0, 0 };
        CVodeGetRootInfo(p.mem, found);
        if (!found[0]) {
            fprintf(stderr, "cvode_peer: %s: the bodies overlap by %g m at t = %.17g s: CVODE "
                            "stepped over an impact (raise --vstick)\n", c->name, TM_OVERLAP, t);
            rc = -1;
            break;
        }
        if (r.stuck) {
            log_event(lg, t, "separation", "C");
            r.stuck = 0;
        } else {
            tm_impact(&r, y, t, o->vstick, lg);
        }
        if (peer_restart(&p, t, lg)) {
            rc = -1;
            break;
        }
    }
    peer_close(&p);
    return rc;
}

/* ------------------------------------------------------------- SDND121 */

/* code_aster SDND121 (reference/problems.md, models/sdnd121.nsm). */
typedef struct Sdnd121 {
    double m, k_rappel, k_choc, c_choc, jeu, F0, f, t_end;
} Sdnd121;

static const Sdnd121 sdnd121_case = { 156, 2e6, 1e10, 0, 1e-3, 3000, 5, 4 };

typedef struct Sdnd121Run {
    const Sdnd121 *c;
    int engaged;
} Sdnd121Run;

/* Right-hand side: return spring, harmonic force, the stop when engaged. */
static int sd_rhs(realtype t, N_Vector yv, N_Vector ydv, void *ud)
{
    const Sdnd121Run *r = ud;
    const Sdnd121 *c = r->c;
    const double *y = N_VGetArrayPointer(yv);
    double *yd = N_VGetArrayPointer(ydv);
    double F = c->F0 * sin(2 * 3.14159265358979323846 * c->f * t) - c->k_rappel * y[0];
    if (r->engaged)
        F -= c->k_choc * (y[0] - c->jeu) + c->c_choc * y[1];
    yd[0] = y[1];
    yd[1] = F / c->m;
    return 0;
}

/* Event function: the gap jeu - x when free, the stop's force when engaged. */
static int sd_root(realtype t, N_Vector yv, realtype *g, void *ud)
{
    const Sdnd121Run *r = ud;
    const Sdnd121 *c = r->c;
    const double *y = N_VGetArrayPointer(yv);
    (void)t;
    g[0] = r->engaged ? c->k_choc * (y[0] - c->jeu) + c->c_choc * y[1] : c->jeu - y[0];
    return 0;
}

/* SDND121 from t = 0 to its end time. */
static int sd_run(const Sdnd121 *c, SUNContext ctx, const Opts *o, Log *lg)
{
    Sdnd121Run r = { c, 0 };
    double y0[2] = { 0, 0 }, t = 0;
    Peer p;
    int rc;
    if (peer_open(&p, ctx, o, 2, y0, sd_rhs, 1, sd_root, &r, c->t_end)) {
        peer_close(&p);
        return -1;
    }
    while ((rc = peer_advance(&p, &t, lg)) == 1) {
        log_event(lg, t, r.engaged ? "contact_exit" : "contact_enter", "stop");
        r.engaged = !r.engaged;
        if (peer_restart(&p, t, lg)) {
            rc = -1;
            break;
        }
    }
    peer_close(&p);
    return rc;
}

/* ---------------------------------------------------------------- driver */

/* Seconds on a clock: CLOCK_MONOTONIC (wall time) or CLOCK_PROCESS_CPUTIME_ID
** (the CPU time of this process, less disturbed by a loaded machine). */
static double now(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* qsort comparison of doubles. */
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of n values (sorts them). */
static double median(double *v, int n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Print one result line: the median and fastest of the wall times, the median
** of the CPU times (sorts both arrays). */
static void print_result(const char *label, const char *tool, const char *method, double *wall,
                         double *cpu, int reps, long events, long steps)
{
    double mw = median(wall, reps);
    printf("%s\t%s\t%s\t%.9g\t%.9g\t%.9g\t%d\t%ld\t%ld\n", label, tool, method, mw, wall[0],
           median(cpu, reps), reps, events, steps);
    fflush(stdout);
}

/* Write a log as DIR/<name>.events.csv. */
static int write_events(const char *dir, const char *name, const Log *lg)
{
    char path[4096];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s.events.csv", dir, name);
    if (!(f = fopen(path, "w"))) {
        fprintf(stderr, "cvode_peer: cannot write %s\n", path);
        return -1;
    }
    fprintf(f, "t,kind,contact\n");
    for (int i = 0; i < lg->n && i < MAX_EVENTS; i++)
        fprintf(f, "%.17g,%s,%s\n", lg->ev[i].t, lg->ev[i].kind, lg->ev[i].contact);
    return fclose(f) ? -1 : 0;
}

/* The name of the integrator's settings, for the table. */
static const char *method_name(const Opts *o)
{
    static char buf[96];
    snprintf(buf, sizeof buf, "%s rtol=%g atol=%g", o->lmm == CV_ADAMS ? "Adams" : "BDF",
             o->rtol, o->atol);
    return buf;
}

/* Cases A, B and C one after the other, --reps times; prints the line. */
static int bench_two_mass(SUNContext ctx, const Opts *o)
{
    static Log logs[3];
    double wall[MAX_REPS], cpu[MAX_REPS];
    long events = 0, steps = 0;
    for (int k = 0; k < o->reps; k++) {
        double t0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
        for (int i = 0; i < 3; i++) {
            memset(&logs[i], 0, sizeof logs[i]);
            if (tm_run(&two_mass_cases[i], ctx, o, &logs[i])) {
                fprintf(stderr, "cvode_peer: %s: CVODE failed\n", two_mass_cases[i].name);
                return -1;
            }
        }
        cpu[k] = now(CLOCK_PROCESS_CPUTIME_ID) - c0;
        wall[k] = now(CLOCK_MONOTONIC) - t0;
    }
    for (int i = 0; i < 3; i++) {
        events += logs[i].n;
        steps += logs[i].steps;
        if (o->events_dir && write_events(o->events_dir, two_mass_cases[i].name, &logs[i]))
            return -1;
    }
    print_result("two_mass_abc", "CVODE", method_name(o), wall, cpu, o->reps, events, steps);
    return 0;
}

/* SDND121, --reps times; prints the line. */
static int bench_sdnd121(SUNContext ctx, const Opts *o)
{
    static Log lg;
    double wall[MAX_REPS], cpu[MAX_REPS];
    for (int k = 0; k < o->reps; k++) {
        double t0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
        memset(&lg, 0, sizeof lg);
        if (sd_run(&sdnd121_case, ctx, o, &lg)) {
            fprintf(stderr, "cvode_peer: sdnd121: CVODE failed\n");
            return -1;
        }
        cpu[k] = now(CLOCK_PROCESS_CPUTIME_ID) - c0;
        wall[k] = now(CLOCK_MONOTONIC) - t0;
    }
    if (o->events_dir && write_events(o->events_dir, "sdnd121", &lg))
        return -1;
    print_result("sdnd121", "CVODE", method_name(o), wall, cpu, o->reps, lg.n, lg.steps);
    return 0;
}

/* Print the usage and return the exit status 2. */
static int usage(void)
{
    fprintf(stderr, "usage: cvode_peer [--reps N] [--events DIR] [--lmm adams|bdf] [--rtol R]\n"
                    "                  [--atol A] [--vstick V] [--case two_mass|sdnd121|all]\n");
    return 2;
}

int main(int argc, char **argv)
{
    Opts o = { CV_ADAMS, 1e-10, 1e-12, 1e-6, 5, NULL };
    const char *which = "all";
    SUNContext ctx;
    int rc = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v)
            return usage();
        i++;
        if (!strcmp(a, "--reps"))
            o.reps = atoi(v);
        else if (!strcmp(a, "--events"))
            o.events_dir = v;
        else if (!strcmp(a, "--lmm") && (!strcmp(v, "adams") || !strcmp(v, "bdf")))
            o.lmm = !strcmp(v, "adams") ? CV_ADAMS : CV_BDF;
        else if (!strcmp(a, "--rtol"))
            o.rtol = atof(v);
        else if (!strcmp(a, "--atol"))
            o.atol = atof(v);
        else if (!strcmp(a, "--vstick"))
            o.vstick = atof(v);
        else if (!strcmp(a, "--case"))
            which = v;
        else
            return usage();
    }
    if ((strcmp(which, "all") && strcmp(which, "two_mass") && strcmp(which, "sdnd121")) ||
        o.reps < 1 || o.reps > MAX_REPS || !(o.rtol > 0) || !(o.atol > 0) || !(o.vstick >= 0))
        return usage();
    printf("# SUNDIALS %s\n", SUNDIALS_VERSION);
    if (SUNContext_Create(NULL, &ctx)) {
        fprintf(stderr, "cvode_peer: SUNContext_Create failed\n");
        return 1;
    }
    if (!strcmp(which, "all") || !strcmp(which, "two_mass"))
        rc |= bench_two_mass(ctx, &o);
    if (!rc && (!strcmp(which, "all") || !strcmp(which, "sdnd121")))
        rc |= bench_sdnd121(ctx, &o);
    SUNContext_Free(&ctx);
    return rc ? 1 : 0;
}
