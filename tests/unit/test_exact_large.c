/*
** test_exact_large.c: the exact method's large-model path (the mode as an
** operator over the sparse K, C, W: runtime/src/modeop.c) lands the same
** events as its dense path, and both land them where closed forms put them.
**
** tests/unit/beads20.nsm (20 beads 1 mm apart, the first at 1 m/s into the
** others; a push F on the first and springs k between neighbours when set)
** is run twice per case: with the mode's dense matrices (dense_na above the
** model's size) and with every mode as an operator (dense_na = 0, as a
** model past RT_DENSE_NA states gets).  References:
**
**   e = 1, no push, no springs: every collision is binary and hands the
**     velocity on, so gap k closes at k d / v, and at the end bead 20 moves
**     at v and the others rest (tests/cradle/chain_check.py's closed form);
**   e = 0, a push F on bead 1: the k beads behind gap k move together at
**     u_k with acceleration F / (k m) and stick; the next gap closes after
**     tau with d = u_k tau + F tau^2 / (2 k m), and momentum gives u_(k+1)
**     = k (u_k + F tau / (k m)) / (k + 1), in long double: the forcing
**     generator's path, clusters of held contacts up to 19 gaps, and their
**     forces as event forms;
**   springs (k = 100 N/m) with e = 0.9, 0.5, and 0 with a push (sticking,
**     then separating when a held contact's force falls to 0): no closed
**     form; the two paths must agree event by event (kind, contact, time
**     to 1e-12 s).
**
** Each run also checks that the path asked for was the one taken.
*/
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nsm/nsm.h"
#include "rt.h"

extern const nsm_model nsm_model_beads20;

#define NB 20
#define DGAP 1e-3
#define V0 1.0
#define MASS 0.01
#define MAXEV 4096

typedef struct Log {
    int n;
    int kind[MAXEV], gap[MAXEV];
    double t[MAXEV];
} Log;

static int failures, checks;

/* Record one check. */
static void check(int ok, const char *fmt, const char *what, double a, double b)
{
    checks++;
    if (!ok) {
        failures++;
        printf("FAIL %s: ", what);
        printf(fmt, a, b);
        printf("\n");
    }
}

/* The event handler: every record kept. */
static int on_event(void *ud, const nsm_sim *s, const nsm_event *ev)
{
    Log *log = ud;
    (void)s;
    if (getenv("TEST_EXACT_LARGE_VERBOSE"))
        printf("  event %d contact %d t %.17g vb %.6g va %.6g\n", ev->kind, ev->contact, ev->t,
               ev->vrel_before, ev->vrel_after);
    if (log->n < MAXEV) {
        log->kind[log->n] = ev->kind;
        log->gap[log->n] = ev->contact;
        log->t[log->n] = ev->t;
    }
    log->n++;
    return 0;
}

/* One run of beads20 to t_end with the exact method (dt < 0: the model's
** 1 ms; 0: the modes' own steps), by the operator path (large) or the dense
** one; the events into log and the final state into y (2 NB).  Returns the
** run's status, or -1 when the path taken was not the one asked for. */
static int run(int large, double e, double F, double k, double dt, double t_end, Log *log,
               double *y)
{
    nsm_sim *s = nsm_sim_create(&nsm_model_beads20);
    if (!s)
        return -2;
    nsm_sim_set_method(s, NSM_METHOD_EXACT);
    nsm_sim_set_param(s, "e", e);
    nsm_sim_set_param(s, "F", F);
    nsm_sim_set_param(s, "k", k);
    if (dt >= 0)
        nsm_sim_set_dt(s, dt);
    s->set.dense_na = large ? 0 : 1 << 30;
    rt_cache_clear(s);
    log->n = 0;
    nsm_sim_set_event_handler(s, on_event, log);
    int rc = nsm_sim_run_until(s, t_end);
    if (rc)
        printf("run (%s, e %g, F %g, k %g, dt %g): status %d: %s\n", large ? "operator" : "dense",
               e, F, k, dt, rc, nsm_sim_message(s));
    int ops = 0, dense = 0;
    for (int q = 0; q < RT_MODES; q++) {
        ops += s->md.info[q].used && s->md.info[q].op != NULL;
        dense += s->md.info[q].used && s->md.info[q].A != NULL;
    }
    if (large ? (ops == 0 || dense > 0) : (ops > 0 || dense == 0)) {
        printf("run (%s): %d operator modes, %d dense modes\n", large ? "operator" : "dense", ops,
               dense);
        rc = -1;
    }
    memcpy(y, nsm_sim_state(s), sizeof(double) * 2 * NB);
    nsm_sim_free(s);
    return rc;
}

/* The impacts of a log (other records dropped: sticking after e = 0). */
static int impacts(const Log *log, int *gap, double *t)
{
    int m = 0;
    for (int q = 0; q < log->n && q < MAXEV; q++)
        if (log->kind[q] == NSM_EV_IMPACT) {
            gap[m] = log->gap[q];
            t[m++] = log->t[q];
        }
    return m;
}

/* A run's impacts against the times want[0 .. NB - 2] (gap q at want[q]),
** and no separation. */
static void check_impacts(const char *what, const Log *log, const long double *want)
{
    int gap[MAXEV];
    double t[MAXEV];
    int m = impacts(log, gap, t);
    check(m == NB - 1, "%g impacts, expected %g", what, m, NB - 1);
    for (int q = 0; q < m && q < NB - 1; q++) {
        char name[160];
        snprintf(name, sizeof name, "%s: impact %d on gap %d", what, q + 1, gap[q]);
        check(gap[q] == q && fabsl(t[q] - want[q]) <= 1e-12L, "t = %.17g, expected %.17g", name,
              t[q], (double)want[q]);
    }
    for (int q = 0; q < log->n && q < MAXEV; q++)
        check(log->kind[q] != NSM_EV_SEPARATION, "separation at t = %.17g%.0g", what, log->t[q], 0);
}

/* e = 1, no push: the velocity handed down, every impact at k d / v; the
** final state too. */
static void case_elastic(int large, double dt)
{
    Log log;
    double y[2 * NB];
    long double want[NB];
    char what[96];
    snprintf(what, sizeof what, "e = 1 (%s, dt %g)", large ? "operator" : "dense", dt);
    double t_end = (NB - 1) * DGAP / V0 + 5e-4;
    int rc = run(large, 1, 0, 0, dt, t_end, &log, y);
    check(rc == 0, "status %g%.0g", what, rc, 0);
    for (int q = 0; q < NB - 1; q++)
        want[q] = (q + 1) * (long double)DGAP / V0;
    check_impacts(what, &log, want);
    /* each bead travels d before it hands its velocity on (tests/cradle/
     * chain_check.py): beads 1 .. NB - 1 end at x = d, bead NB moves on */
    for (int i = 0; i < NB; i++) {
        double xw = i < NB - 1 ? DGAP : V0 * t_end - (NB - 1) * DGAP, vw = i < NB - 1 ? 0 : V0;
        check(fabs(y[i] - xw) <= 1e-12, "x = %.17g, expected %.17g", what, y[i], xw);
        check(fabs(y[NB + i] - vw) <= 1e-12, "v = %.17g, expected %.17g", what, y[NB + i], vw);
    }
}

/* e = 0 with a push F on bead 1: the k beads behind gap k - 1 (counted
** from 0) move together at u_k with acceleration F / (k m) until it closes,
** and stick (the push holds every contact shut).  Each closing is a stick
** record at the closed form's time, the impacts of the sequence that
** settles it at the same instant; no separation; at the end all beads move
** together at (m v + F t) / (NB m). */
static void case_plastic(int large, double F, double dt)
{
    Log log;
    double y[2 * NB];
    long double want[NB], t = 0, u = V0;
    char what[96];
    snprintf(what, sizeof what, "e = 0, push %g N (%s, dt %g)", F, large ? "operator" : "dense",
             dt);
    for (int k = 1; k < NB; k++) {
        long double a = F / (k * (long double)MASS);
        long double tau = 2 * (long double)DGAP / (u + sqrtl(u * u + 2 * a * DGAP));
        t += tau;
        want[k - 1] = t;
        u = k * (u + a * tau) / (k + 1);
    }
    double t_end = (double)t + 5e-4;
    int rc = run(large, 0, F, 0, dt, t_end, &log, y);
    check(rc == 0, "status %g%.0g", what, rc, 0);
    int sticks = 0, last = -1;
    for (int q = 0; q < log.n && q < MAXEV; q++) {
        char name[160];
        snprintf(name, sizeof name, "%s: record %d (kind %d, contact %d)", what, q + 1, log.kind[q],
                 log.gap[q]);
        if (log.kind[q] == NSM_EV_STICK) {
            check(log.gap[q] == sticks && sticks < NB - 1 &&
                  fabsl(log.t[q] - want[sticks < NB - 1 ? sticks : 0]) <= 1e-12L,
                  "t = %.17g, expected %.17g", name, log.t[q], (double)want[sticks < NB - 1 ? sticks : 0]);
            last = sticks++;
        } else {
            /* an impact of the sequence: at the closing of the next gap */
            int k = last + 1 < NB - 1 ? last + 1 : NB - 2;
            check(log.kind[q] == NSM_EV_IMPACT && fabsl(log.t[q] - want[k]) <= 1e-12L,
                  "t = %.17g, expected %.17g", name, log.t[q], (double)want[k]);
        }
    }
    check(sticks == NB - 1, "%g sticks, expected %g", what, sticks, NB - 1);
    long double ub = (MASS * (long double)V0 + F * (long double)t_end) / (NB * (long double)MASS);
    for (int i = 0; i < NB; i++)
        check(fabsl(y[NB + i] - ub) <= 1e-12L * V0, "v = %.17g, expected %.17g", what, y[NB + i],
              (double)ub);
}

/* Springs between neighbours: the operator path against the dense one,
** event by event. */
static void case_sprung(double e, double F, double dt)
{
    Log a, b;
    double ya[2 * NB], yb[2 * NB];
    char what[96];
    snprintf(what, sizeof what, "springs, e = %g, push %g N (dt %g)", e, F, dt);
    int ra = run(0, e, F, 100, dt, 0.2, &a, ya), rb = run(1, e, F, 100, dt, 0.2, &b, yb);
    check(ra == 0 && rb == 0, "status %g and %g", what, ra, rb);
    check(a.n == b.n && a.n >= 20, "%g events (dense), %g (operator)", what, a.n, b.n);
    for (int q = 0; q < a.n && q < b.n && q < MAXEV; q++) {
        char name[160];
        snprintf(name, sizeof name, "%s: event %d (kind %d/%d, contact %d/%d)", what, q + 1,
                 a.kind[q], b.kind[q], a.gap[q], b.gap[q]);
        check(a.kind[q] == b.kind[q] && a.gap[q] == b.gap[q] && fabs(a.t[q] - b.t[q]) <= 1e-12,
              "t = %.17g (dense), %.17g (operator)", name, a.t[q], b.t[q]);
    }
    for (int i = 0; i < 2 * NB; i++)
        check(fabs(ya[i] - yb[i]) <= 1e-9 * (1 + fabs(ya[i])), "%.17g (dense), %.17g (operator)",
              what, ya[i], yb[i]);
}

int main(int argc, char **argv)
{
    if (argc == 5) {                    /* one run, for a look: LARGE E F K */
        Log log;
        double y[2 * NB];
        setenv("TEST_EXACT_LARGE_VERBOSE", "1", 1);
        int rc = run(atoi(argv[1]), atof(argv[2]), atof(argv[3]), atof(argv[4]), -1, 0.2, &log, y);
        printf("status %d, %d events\n", rc, log.n);
        for (int i = 0; i < NB; i++)
            printf("  bead %d: x %.17g v %.17g\n", i + 1, y[i], y[NB + i]);
        return rc != 0;
    }
    for (int large = 0; large <= 1; large++) {
        case_elastic(large, -1);
        case_elastic(large, 0);
        case_plastic(large, 0.05, -1);
        case_plastic(large, 0.05, 0);
    }
    case_sprung(0.9, 0, -1);
    case_sprung(0.9, 0, 0);
    case_sprung(0.5, 0.05, -1);
    case_sprung(0, 0.5, -1);        /* sticking, and separating when a force falls to 0 */
    printf("%d checks, %d failures\n", checks, failures);
    return failures != 0;
}
