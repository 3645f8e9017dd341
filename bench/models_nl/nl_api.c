/*
** nl_api.c: nsm's side of bench/nl_bench.py, in process through the public
** API (runtime/include/nsm/nsm.h), on the hand-written nonlinear models of
** this folder (pendulum_wall.c, duffing_stop.c) or, with -DNL_GENERATED, on
** the simulators nsmc generates for the same problems, compiled in with
** -DNSM_NO_MAIN:
**
**     cc -O2 -std=c11 -DNSM_NO_MAIN -Iruntime/include bench/models_nl/nl_api.c \
**        bench/models_nl/pendulum_wall.c bench/models_nl/duffing_stop.c \
**        build/libnsmrt.a -lm -o nl_api
**     build/nsmc bench/models_nl/pendulum.nsm -o pendulum.c   (and duffing.nsm)
**     cc -O2 -std=c11 -DNSM_NO_MAIN -DNL_GENERATED -Iruntime/include \
**        bench/models_nl/nl_api.c pendulum.c duffing.c build/libnsmrt.a -lm -o nl_api_gen
**     ./nl_api [--reps N] [--events DIR] [--method taylor|adaptive|rk4]
**              [--case pendulum|duffing|rocking|rocking_reduced|all]
**
** rocking is models/rocking_block.nsm (generated/rocking_block.c, linked in
** both builds); rocking_reduced the reduced rocking equation, when the
** simulator nsmc generates from rocking_reduced.nsm is linked in too:
**     build/nsmc bench/models_nl/rocking_reduced.nsm -o rocking_reduced.c
**
** A run creates the simulation (nsm_sim_create), sets the method, turns
** the step-by-step energy audit off (as the command line does without
** --summary), records the events through an event handler, runs to the
** model's end time (10 s, 20 s) with no dt (the method chooses its steps)
** and no sample handler, and frees the simulation.  The wall time of each
** run (clock_gettime, CLOCK_MONOTONIC) covers all of it; the median over
** --reps runs is printed with the fastest run and the median CPU time
** (CLOCK_PROCESS_CPUTIME_ID).  The timed runs are inside the function
** bench_case (callgrind --toggle-collect=bench*).
**
** Output (stdout), one tab-separated line per case:
**     case  tool  method  median_s  min_s  cpu_median_s  reps  events  steps
** and with --events DIR the events of the last run in
** DIR/<case>.nsm.events.csv (t,kind,contact).  Exit status 0, or 1 when a
** run fails (the library's message on stderr).
*/
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nsm/nsm.h"

/* The hand-written models, or with -DNL_GENERATED the simulators nsmc
** generates from pendulum.nsm and duffing.nsm of this folder (the same
** problems). */
#ifdef NL_GENERATED
extern const nsm_model nsm_model_pendulum, nsm_model_duffing;
#define PENDULUM nsm_model_pendulum
#define DUFFING nsm_model_duffing
#else
extern const nsm_model nsm_model_pendulum_wall, nsm_model_duffing_stop;
#define PENDULUM nsm_model_pendulum_wall
#define DUFFING nsm_model_duffing_stop
#endif
/* Housner's rocking block has no hand-written model: both builds link the
** simulator nsmc generated from models/rocking_block.nsm (generated/). */
extern const nsm_model nsm_model_rocking_block;
/* The reduced rocking equation (rocking_reduced.nsm of this folder, one
** coordinate, the equation the peers integrate), when its generated
** simulator is linked in (nl_bench.py does); without it the case is left
** out, so that the commands above still link. */
extern const nsm_model nsm_model_rocking_reduced __attribute__((weak));

#define MAX_EVENTS 4096
#define MAX_REPS 100000

typedef struct Case {
    const char *name;
    const nsm_model *m;
    double t_end;
} Case;

static const Case cases[] = {
    { "pendulum", &PENDULUM, 10 },
    { "duffing", &DUFFING, 20 },
    { "rocking", &nsm_model_rocking_block, 1.5 },
    { "rocking_reduced", &nsm_model_rocking_reduced, 1.5 },
};

typedef struct Log {
    nsm_event ev[MAX_EVENTS];
    int n;
    long steps;
} Log;

static int on_event(void *ud, const nsm_sim *sim, const nsm_event *ev)
{
    Log *lg = ud;
    (void)sim;
    if (lg->n < MAX_EVENTS)
        lg->ev[lg->n] = *ev;
    lg->n++;
    return 0;
}

/* One run of case c; 0 or the library's status. */
static int run_case(const Case *c, int method, Log *lg)
{
    nsm_sim *s = nsm_sim_create(c->m);
    int rc;
    if (!s)
        return NSM_ENOMEM;
    lg->n = 0;
    nsm_sim_set_method(s, method);
    nsm_sim_set_audit(s, 0);
    nsm_sim_set_event_handler(s, on_event, lg);
    rc = nsm_sim_run_until(s, c->t_end);
    lg->steps = nsm_sim_steps(s);
    if (rc)
        fprintf(stderr, "nl_api: %s, %s: %s\n", c->name, nsm_method_name(method),
                nsm_sim_message(s));
    nsm_sim_free(s);
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
__attribute__((noinline)) static int bench_case(const Case *c, int method, int reps, Log *lg)
{
    for (int k = 0; k < reps; k++) {
        double t0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
        if (run_case(c, method, lg))
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
    snprintf(path, sizeof path, "%s/%s.nsm.events.csv", dir, c->name);
    if (!(f = fopen(path, "w"))) {
        fprintf(stderr, "nl_api: cannot write %s\n", path);
        return -1;
    }
    fprintf(f, "t,kind,contact\n");
    for (int i = 0; i < lg->n && i < MAX_EVENTS; i++) {
        const nsm_event *ev = &lg->ev[i];
        const char *cn = ev->contact >= 0 && ev->contact < c->m->n_gaps ? c->m->gaps[ev->contact].name : "-";
        fprintf(f, "%.17g,%s,%s\n", ev->t, nsm_event_kind_name(ev->kind), cn);
    }
    return fclose(f) ? -1 : 0;
}

static int usage(void)
{
    fprintf(stderr, "usage: nl_api [--reps N] [--events DIR] [--method taylor|adaptive|rk4]\n"
                    "              [--case pendulum|duffing|rocking|rocking_reduced|all]\n");
    return 2;
}

int main(int argc, char **argv)
{
    static Log lg;
    int reps = 21, method = NSM_METHOD_TAYLOR;
    const char *dir = NULL, *which = "all";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--events") && i + 1 < argc)
            dir = argv[++i];
        else if (!strcmp(argv[i], "--method") && i + 1 < argc) {
            if ((method = nsm_method_parse(argv[++i])) < 0)
                return usage();
        } else if (!strcmp(argv[i], "--case") && i + 1 < argc)
            which = argv[++i];
        else
            return usage();
    }
    if (reps < 1 || reps > MAX_REPS)
        return usage();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const Case *c = &cases[i];
        if ((strcmp(which, "all") && strcmp(which, c->name)) || !c->m)
            continue;           /* another case, or a model not linked in */
        if (bench_case(c, method, reps, &lg))
            return 1;
        if (dir && write_events(dir, c, &lg))
            return 1;
        double mc = median(cpu, reps), mw = median(wall, reps);
        printf("%s\tnsm\t%s\t%.9g\t%.9g\t%.9g\t%d\t%d\t%ld\n", c->name, nsm_method_name(method), mw,
               wall[0], mc, reps, lg.n, lg.steps);
        fflush(stdout);
    }
    return 0;
}
