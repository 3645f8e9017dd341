/*
** api_bench.c: nsm's side of the benchmark against CVODE (bench/cvode_peer.c),
** in process through the public API (runtime/include/nsm/nsm.h), on the
** simulators nsmc generates from models/two_mass.nsm, two_mass_grazing.nsm,
** two_mass_plastic.nsm (Dedow & Murphy's cases A, B, C) and sdnd121.nsm,
** compiled into this program with -DNSM_NO_MAIN:
**
**     cc -O2 -std=c11 -DNSM_NO_MAIN -Iruntime/include bench/api_bench.c \
**        two_mass.c two_mass_grazing.c two_mass_plastic.c sdnd121.c libnsmrt.a -lm
**     ./api_bench [--reps N] [--events DIR] [--methods exact,rk4,adaptive]
**                 [--audit] [--dt H] [--case two_mass|sdnd121|all]
**
** A run of a case creates the simulation (nsm_sim_create), sets the method,
** turns the step-by-step energy audit off (as the command line does without
** --summary; --audit keeps the library's default, on), records the events
** through an event handler, runs to the reference's end time (20 s, 4 s) and
** frees the simulation.  Everything else is the model's default: its dt (the
** exact method's step, rk4's step, adaptive's largest step) unless --dt is
** given (--dt 0: no dt, each mode chooses its steps), its output period,
** with no sample handler.  The wall time of each
** run (clock_gettime, CLOCK_MONOTONIC) covers all of it; each case is run
** --reps times and the median is printed, with the fastest run and the
** median CPU time (CLOCK_PROCESS_CPUTIME_ID).  The two-mass cases are timed
** together (A, then B, then C in one run).
** bench/run_bench.py counts instructions with callgrind inside the
** functions named bench* only (--toggle-collect=bench*): keep the timed runs
** there.
**
** Output (stdout), one tab-separated line per case and method:
**     case  tool  method  median_s  min_s  cpu_median_s  reps  events  steps
** and with --events DIR the events of the last run in
** DIR/<reference case>.<method>.events.csv (t,kind,contact).  Exit status 0,
** or 1 when a run fails (the library's message on stderr).
*/
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nsm/nsm.h"

extern const nsm_model nsm_model_two_mass, nsm_model_two_mass_grazing,
    nsm_model_two_mass_plastic, nsm_model_sdnd121;

#define MAX_EVENTS 4096
#define MAX_REPS 1000

/* One case: a model, its reference and the reference's end time. */
typedef struct Case {
    const nsm_model *m;
    const char *ref;         /* tests/reference/data/<ref>.events.csv */
    double t_end;
} Case;

static const Case two_mass_cases[3] = {
    { &nsm_model_two_mass, "two_mass_a", 20 },
    { &nsm_model_two_mass_grazing, "two_mass_b", 20 },
    { &nsm_model_two_mass_plastic, "two_mass_c", 20 },
};
static const Case sdnd121_case = { &nsm_model_sdnd121, "sdnd121", 4 };

typedef struct Opts {
    int reps, audit;
    double dt;               /* < 0: the model's; 0: each mode chooses (no dt) */
    const char *events_dir;
} Opts;

/* The events of one run. */
typedef struct Log {
    nsm_event ev[MAX_EVENTS];
    int n;
    long steps;
} Log;

/* Event handler: keep the record. */
static int on_event(void *ud, const nsm_sim *sim, const nsm_event *ev)
{
    Log *lg = ud;
    (void)sim;
    if (lg->n < MAX_EVENTS)
        lg->ev[lg->n] = *ev;
    lg->n++;
    return 0;
}

/* One run of case c with method; 0 or the library's status. */
static int run_case(const Case *c, int method, const Opts *o, Log *lg)
{
    nsm_sim *s = nsm_sim_create(c->m);
    int rc;
    if (!s)
        return NSM_ENOMEM;
    lg->n = 0;
    nsm_sim_set_method(s, method);
    nsm_sim_set_audit(s, o->audit);
    if (o->dt >= 0)
        nsm_sim_set_dt(s, o->dt);
    nsm_sim_set_event_handler(s, on_event, lg);
    rc = nsm_sim_run_until(s, c->t_end);
    lg->steps = nsm_sim_steps(s);
    if (rc)
        fprintf(stderr, "api_bench: %s, %s: %s\n", c->ref, nsm_method_name(method),
                nsm_sim_message(s));
    nsm_sim_free(s);
    return rc;
}

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

/* Write a log as DIR/<ref>.<method>.events.csv. */
static int write_events(const char *dir, const Case *c, int method, const Log *lg)
{
    char path[4096];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s.%s.events.csv", dir, c->ref, nsm_method_name(method));
    if (!(f = fopen(path, "w"))) {
        fprintf(stderr, "api_bench: cannot write %s\n", path);
        return -1;
    }
    fprintf(f, "t,kind,contact\n");
    for (int i = 0; i < lg->n && i < MAX_EVENTS; i++) {
        const nsm_event *ev = &lg->ev[i];
        char sw[32];
        const char *cn = sw;
        if (ev->kind == NSM_EV_TIME)
            snprintf(sw, sizeof sw, "switch%d", ev->contact);
        else
            cn = ev->contact >= 0 && ev->contact < c->m->n_gaps ? c->m->gaps[ev->contact].name : "-";
        fprintf(f, "%.17g,%s,%s\n", ev->t, nsm_event_kind_name(ev->kind), cn);
    }
    return fclose(f) ? -1 : 0;
}

/* The cases cs[0..nc-1] one after the other, --reps times, with method;
** prints the line under the name label. */
static int bench(const char *label, const Case *cs, int nc, int method, const Opts *o)
{
    static Log logs[3];
    double wall[MAX_REPS], cpu[MAX_REPS];
    char name[64];
    long events = 0, steps = 0;
    for (int k = 0; k < o->reps; k++) {
        double t0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
        for (int i = 0; i < nc; i++)
            if (run_case(&cs[i], method, o, &logs[i]))
                return -1;
        cpu[k] = now(CLOCK_PROCESS_CPUTIME_ID) - c0;
        wall[k] = now(CLOCK_MONOTONIC) - t0;
    }
    for (int i = 0; i < nc; i++) {
        events += logs[i].n;
        steps += logs[i].steps;
        if (o->events_dir && write_events(o->events_dir, &cs[i], method, &logs[i]))
            return -1;
    }
    snprintf(name, sizeof name, "%s dt=%g%s", nsm_method_name(method),
             o->dt >= 0 ? o->dt : cs[0].m->dt, o->audit ? " audit" : "");
    print_result(label, "nsm", name, wall, cpu, o->reps, events, steps);
    return 0;
}

/* Print the usage and return the exit status 2. */
static int usage(void)
{
    fprintf(stderr, "usage: api_bench [--reps N] [--events DIR] [--methods exact,rk4,adaptive]\n"
                    "                 [--audit] [--dt H] [--case two_mass|sdnd121|all]\n");
    return 2;
}

int main(int argc, char **argv)
{
    Opts o = { 5, 0, -1, NULL };
    const char *which = "all";
    char methods[256] = "exact,rk4,adaptive";
    int method[3], nm = 0, rc = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--audit")) {
            o.audit = 1;
            continue;
        }
        if (!v)
            return usage();
        i++;
        if (!strcmp(a, "--reps"))
            o.reps = atoi(v);
        else if (!strcmp(a, "--events"))
            o.events_dir = v;
        else if (!strcmp(a, "--methods") && strlen(v) < sizeof methods)
            strcpy(methods, v);
        else if (!strcmp(a, "--dt"))
            o.dt = atof(v);
        else if (!strcmp(a, "--case"))
            which = v;
        else
            return usage();
    }
    if ((strcmp(which, "all") && strcmp(which, "two_mass") && strcmp(which, "sdnd121")) ||
        o.reps < 1 || o.reps > MAX_REPS || !(o.dt >= 0 || o.dt == -1))
        return usage();
    for (char *tok = strtok(methods, ","); tok; tok = strtok(NULL, ","))
        if (nm == 3 || (method[nm++] = nsm_method_parse(tok)) < 0)
            return usage();
    /* a failed case prints no line; the others still run */
    for (int i = 0; i < nm; i++) {
        if (!strcmp(which, "all") || !strcmp(which, "two_mass"))
            rc |= bench("two_mass_abc", two_mass_cases, 3, method[i], &o);
        if (!strcmp(which, "all") || !strcmp(which, "sdnd121"))
            rc |= bench("sdnd121", &sdnd121_case, 1, method[i], &o);
    }
    return rc ? 1 : 0;
}
