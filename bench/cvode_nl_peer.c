/*
** cvode_nl_peer.c: the peer of bench/nl_bench.py for CVODE.  The impact
** pendulum and the Duffing oscillator against a stop of
** bench/models_nl/pendulum_wall.c and duffing_stop.c, written by hand for
** CVODE (SUNDIALS 6, Debian 12's libsundials-dev) with its rootfinding, the
** way bench/cvode_peer.c writes the linear models: CVODE integrates the
** smooth equations, its rootfinding (CVodeRootInit, direction -1) stops on
** the gap falling through 0, the program applies Newton's law (v -> -e v,
** the position put exactly on the wall) and restarts the integrator there
** (CVodeReInit).
**
**     cc -O2 -std=c11 bench/cvode_nl_peer.c -lsundials_cvode -lsundials_nvecserial -lm
**     ./cvode_nl_peer [--reps N] [--events DIR] [--lmm adams|bdf] [--rtol R] [--atol A]
**                     [--case pendulum|duffing|rocking|all]
**
** Pendulum: theta'' = -w2 sin(theta), w2 = 9.81, from theta = 1 rad at
** rest, gap theta - theta_w, theta_w = -0.3 rad, e = 0.8, 10 s.
** Duffing: x'' + 0.1 x' + x + 0.5 x^3 = 1.2 cos(1.3 t), from rest at 0,
** gap 0.9 - x, e = 0.8, 20 s.
**
** Defaults: Adams with fixed-point iteration (--lmm bdf: BDF, Newton on a
** dense matrix), rtol = atol = 1e-10.
**
** Timing: each case is run --reps times; the wall time of a run
** (clock_gettime, CLOCK_MONOTONIC) covers creating the integrator, the
** whole integration with its events, and freeing it; the median is
** printed with the fastest run and the median CPU time.  The timed runs
** are inside bench_case (callgrind --toggle-collect=bench*).
**
** Output (stdout): a line `# SUNDIALS <version>`, then one tab-separated
** line per case:
**     case  tool  method  median_s  min_s  cpu_median_s  reps  events  steps
** and with --events DIR the events of the last run in
** DIR/<case>.cvode.events.csv (t,kind,contact).  Exit status 0, or 1 when
** CVODE fails.
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
#define MAX_REPS 100000

typedef struct Opts {
    int lmm;
    double rtol, atol;
    int reps;
    const char *events_dir;
} Opts;

typedef struct Log {
    double t[MAX_EVENTS];
    int n;
    long steps;
} Log;

/* One case: its right-hand side and gap, the impact's coordinate value
** (the wall or the stop) and restitution, initial state, end time. */
typedef struct Case {
    const char *name, *contact;
    CVRhsFn rhs;
    CVRootFn gap;
    double wall, e, y0[2], t_end;
} Case;

static int pend_rhs(realtype t, N_Vector yv, N_Vector ydv, void *ud)
{
    const double *y = N_VGetArrayPointer(yv);
    double *yd = N_VGetArrayPointer(ydv);
    (void)t, (void)ud;
    yd[0] = y[1];
    yd[1] = -9.81 * sin(y[0]);
    return 0;
}

static int pend_gap(realtype t, N_Vector yv, realtype *g, void *ud)
{
    (void)t, (void)ud;
    g[0] = N_VGetArrayPointer(yv)[0] + 0.3;
    return 0;
}

static int duff_rhs(realtype t, N_Vector yv, N_Vector ydv, void *ud)
{
    const double *y = N_VGetArrayPointer(yv);
    double *yd = N_VGetArrayPointer(ydv);
    (void)ud;
    yd[0] = y[1];
    yd[1] = 1.2 * cos(1.3 * t) - 0.1 * y[1] - y[0] - 0.5 * y[0] * y[0] * y[0];
    return 0;
}

static int duff_gap(realtype t, N_Vector yv, realtype *g, void *ud)
{
    (void)t, (void)ud;
    g[0] = 0.9 - N_VGetArrayPointer(yv)[0];
    return 0;
}

/* Housner's rocking block (b = 0.2 m, h = 0.5 m) on its pivot corner:
** theta'' = -w2 sin(alpha - theta), w2 = 3 g/(4 R), alpha = atan(b/h); at
** theta = 0 the other corner lands and sticks, the angular velocity is
** multiplied by 1 - 3/2 sin^2 alpha = 23/29 (Housner 1963) and theta is
** measured from the new pivot: a wall at 0 with e = 23/29. */
static int rock_rhs(realtype t, N_Vector yv, N_Vector ydv, void *ud)
{
    const double *y = N_VGetArrayPointer(yv);
    double *yd = N_VGetArrayPointer(ydv);
    (void)t, (void)ud;
    yd[0] = y[1];
    yd[1] = -3 * 9.81 / (4 * sqrt(0.29)) * sin(atan(0.4) - y[0]);
    return 0;
}

static int rock_gap(realtype t, N_Vector yv, realtype *g, void *ud)
{
    (void)t, (void)ud;
    g[0] = N_VGetArrayPointer(yv)[0];
    return 0;
}

static const Case cases[] = {
    { "pendulum", "W", pend_rhs, pend_gap, -0.3, 0.8, { 1, 0 }, 10 },
    { "duffing", "stop", duff_rhs, duff_gap, 0.9, 0.8, { 0, 0 }, 20 },
    { "rocking", "corner", rock_rhs, rock_gap, 0, 23.0 / 29.0, { 0.1, 0 }, 1.5 },
};

/* One run of case c from t = 0 to its end: 0, or -1 when CVODE fails. */
static int run_case(const Case *c, SUNContext ctx, const Opts *o, Log *lg)
{
    int dir = -1, rc = 0, flag;
    long nst = 0;
    double t = 0, *y;
    void *mem = NULL;
    SUNMatrix A = NULL;
    SUNLinearSolver LS = NULL;
    SUNNonlinearSolver NLS = NULL;
    N_Vector yv = N_VNew_Serial(2, ctx);
    lg->n = 0;
    lg->steps = 0;
    if (!yv)
        return -1;
    y = N_VGetArrayPointer(yv);
    y[0] = c->y0[0];
    y[1] = c->y0[1];
    mem = CVodeCreate(o->lmm, ctx);
    if (!mem || CVodeInit(mem, c->rhs, 0.0, yv) || CVodeSStolerances(mem, o->rtol, o->atol) ||
        CVodeSetMaxNumSteps(mem, 1000000) || CVodeSetStopTime(mem, c->t_end) ||
        CVodeRootInit(mem, 1, c->gap) || CVodeSetRootDirection(mem, &dir) ||
        CVodeSetNoInactiveRootWarn(mem))
        rc = -1;
    else if (o->lmm == CV_ADAMS) {
        NLS = SUNNonlinSol_FixedPoint(yv, 0, ctx);
        rc = !NLS || CVodeSetNonlinearSolver(mem, NLS) ? -1 : 0;
    } else {
        A = SUNDenseMatrix(2, 2, ctx);
        LS = A ? SUNLinSol_Dense(yv, A, ctx) : NULL;
        rc = !LS || CVodeSetLinearSolver(mem, LS, A) ? -1 : 0;
    }
    while (!rc && t < c->t_end) {
        flag = CVode(mem, c->t_end, yv, &t, CV_NORMAL);
        if (flag < 0) {
            fprintf(stderr, "cvode_nl_peer: %s: CVode failed (%d) at t = %.17g\n", c->name, flag, t);
            rc = -1;
        } else if (flag == CV_ROOT_RETURN) {
            if (lg->n < MAX_EVENTS)
                lg->t[lg->n] = t;
            lg->n++;
            y[0] = c->wall;            /* on the wall, Newton's law */
            y[1] = -c->e * y[1];
            CVodeGetNumSteps(mem, &nst);
            lg->steps += nst;
            if (CVodeReInit(mem, t, yv) || CVodeSetStopTime(mem, c->t_end))
                rc = -1;
        }
    }
    CVodeGetNumSteps(mem, &nst);
    lg->steps += nst;
    if (mem)
        CVodeFree(&mem);
    if (NLS)
        SUNNonlinSolFree(NLS);
    if (LS)
        SUNLinSolFree(LS);
    if (A)
        SUNMatDestroy(A);
    N_VDestroy(yv);
    return rc;
}

static double now(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static double wall[MAX_REPS], cpu[MAX_REPS];

/* The timed runs of case c. */
__attribute__((noinline)) static int bench_case(const Case *c, SUNContext ctx, const Opts *o, Log *lg)
{
    for (int k = 0; k < o->reps; k++) {
        double t0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
        if (run_case(c, ctx, o, lg))
            return -1;
        cpu[k] = now(CLOCK_PROCESS_CPUTIME_ID) - c0;
        wall[k] = now(CLOCK_MONOTONIC) - t0;
    }
    return 0;
}

static int write_events(const char *dir, const Case *c, const Log *lg)
{
    char path[4096];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s.cvode.events.csv", dir, c->name);
    if (!(f = fopen(path, "w"))) {
        fprintf(stderr, "cvode_nl_peer: cannot write %s\n", path);
        return -1;
    }
    fprintf(f, "t,kind,contact\n");
    for (int i = 0; i < lg->n && i < MAX_EVENTS; i++)
        fprintf(f, "%.17g,impact,%s\n", lg->t[i], c->contact);
    return fclose(f) ? -1 : 0;
}

static int usage(void)
{
    fprintf(stderr, "usage: cvode_nl_peer [--reps N] [--events DIR] [--lmm adams|bdf]\n"
                    "                     [--rtol R] [--atol A] [--case pendulum|duffing|rocking|all]\n");
    return 2;
}

int main(int argc, char **argv)
{
    static Log lg;
    Opts o = { CV_ADAMS, 1e-10, 1e-10, 21, NULL };
    const char *which = "all";
    SUNContext ctx;
    int rc = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            o.reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--events") && i + 1 < argc)
            o.events_dir = argv[++i];
        else if (!strcmp(argv[i], "--lmm") && i + 1 < argc) {
            i++;
            if (!strcmp(argv[i], "adams"))
                o.lmm = CV_ADAMS;
            else if (!strcmp(argv[i], "bdf"))
                o.lmm = CV_BDF;
            else
                return usage();
        } else if (!strcmp(argv[i], "--rtol") && i + 1 < argc)
            o.rtol = atof(argv[++i]);
        else if (!strcmp(argv[i], "--atol") && i + 1 < argc)
            o.atol = atof(argv[++i]);
        else if (!strcmp(argv[i], "--case") && i + 1 < argc)
            which = argv[++i];
        else
            return usage();
    }
    if (o.reps < 1 || o.reps > MAX_REPS || !(o.rtol > 0) || !(o.atol > 0))
        return usage();
    printf("# SUNDIALS %s\n", SUNDIALS_VERSION);
    if (SUNContext_Create(NULL, &ctx)) {
        fprintf(stderr, "cvode_nl_peer: SUNContext_Create failed\n");
        return 1;
    }
    for (size_t i = 0; i < sizeof cases / sizeof cases[0] && !rc; i++) {
        const Case *c = &cases[i];
        char name[96];
        if (strcmp(which, "all") && strcmp(which, c->name))
            continue;
        if (bench_case(c, ctx, &o, &lg) || (o.events_dir && write_events(o.events_dir, c, &lg))) {
            rc = 1;
            break;
        }
        double mc = median(cpu, o.reps), mw = median(wall, o.reps);
        snprintf(name, sizeof name, "%s rtol=%g atol=%g", o.lmm == CV_ADAMS ? "adams" : "bdf",
                 o.rtol, o.atol);
        printf("%s\tcvode\t%s\t%.9g\t%.9g\t%.9g\t%d\t%d\t%ld\n", c->name, name, mw, wall[0], mc,
               o.reps, lg.n, lg.steps);
        fflush(stdout);
    }
    SUNContext_Free(&ctx);
    return rc;
}
