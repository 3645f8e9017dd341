/*
** rigid_bench.c: the cost of bodies in space by method (docs/performance.md,
** "Bodies in space"), on the simulators nsmc generates from
** models/free_top.nsm and models/thrown_body.nsm, compiled in with
** -DNSM_NO_MAIN:
**
**     cc -O2 -std=c11 -DNSM_NO_MAIN -Iruntime/include bench/rigid_bench.c \
**        generated/free_top.c generated/thrown_body.c build/libnsmrt.a -lm
**     ./a.out [--reps N]
**
** Each run creates the simulation, sets the method (rk4 at dt 1e-4 s and
** 1e-3 s, adaptive at rtol 1e-13, atol 1e-15, taylor), runs to the end
** (free_top 10 s, thrown_body 2 s) without output or event handler, and
** measures the error at the end against the closed forms of
** tests/rigid/test_rigid_models.c: free_top's w1 + i w2 turning at
** Omega = (I3 - I1) w3 / I1, thrown_body's parabola and rotational kinetic
** energy.  Printed per model and method: steps, the median CPU time of
** --reps runs (CLOCK_PROCESS_CPUTIME_ID) and the error.
*/
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nsm/model.h"
#include "nsm/nsm.h"

extern const nsm_model nsm_model_free_top, nsm_model_thrown_body;

enum { NQ = 7, W1 = NQ + 3 };

/* CPU seconds of this process. */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* free_top's error at t: the largest of |w1 - want1|, |w2 - want2|. */
static double top_error(const double *y, double t)
{
    double I1 = 0.3, I3 = 0.5, w0[3] = { 0.4, -0.25, 3 }, Om = (I3 - I1) * w0[2] / I1;
    double c = cos(Om * t), s = sin(Om * t);
    return fmax(fabs(y[W1] - (w0[0] * c - w0[1] * s)), fabs(y[W1 + 1] - (w0[0] * s + w0[1] * c)));
}

/* thrown_body's error at t: the centre off the parabola (m) and the
** rotational kinetic energy's relative drift, the larger. */
static double thrown_error(const double *y, double t)
{
    double mass = 1.5, F = 0.6, r0[3] = { 0.5, 0, 10 }, v0[3] = { 1, 0, 3 };
    double a[3] = { 1.2, F / mass, -9.7 }, I[3] = { 0.02, 0.035, 0.05 }, w0[3] = { 1.5, 0.1, 2.5 };
    double e = 0, T = 0, T0 = 0;
    for (int i = 0; i < 3; i++) {
        e = fmax(e, fabs(y[i] - (r0[i] + v0[i] * t + 0.5 * a[i] * t * t)));
        T += 0.5 * I[i] * y[W1 + i] * y[W1 + i];
        T0 += 0.5 * I[i] * w0[i] * w0[i];
    }
    return fmax(e, fabs(T / T0 - 1));
}

/* One run of m by the method to t_end; its steps and end error. */
static int bench_run(const nsm_model *m, int method, double dt, double t_end, long *steps,
                     double *err)
{
    nsm_sim *s = nsm_sim_create(m);
    if (!s)
        return 1;
    nsm_sim_set_method(s, method);
    if (method == NSM_METHOD_RK4)
        nsm_sim_set_dt(s, dt);
    if (method == NSM_METHOD_ADAPTIVE)
        nsm_sim_set_tolerances(s, 1e-13, 1e-15);
    int rc = nsm_sim_reset(s) || nsm_sim_run_until(s, t_end);
    if (rc)
        fprintf(stderr, "%s: %s\n", m->name, nsm_sim_message(s));
    const double *y = nsm_sim_state(s);
    *err = m == &nsm_model_free_top ? top_error(y, t_end) : thrown_error(y, t_end);
    *steps = nsm_sim_steps(s);
    nsm_sim_free(s);
    return rc;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int reps = 5;
    if (argc == 3 && strcmp(argv[1], "--reps") == 0)
        reps = atoi(argv[2]) > 0 ? atoi(argv[2]) : 1;
    const nsm_model *models[] = { &nsm_model_free_top, &nsm_model_thrown_body };
    const double t_end[] = { 10, 2 };
    struct { int method; double dt; const char *name; } how[] = {
        { NSM_METHOD_RK4, 1e-4, "rk4 dt=1e-4" }, { NSM_METHOD_RK4, 1e-3, "rk4 dt=1e-3" },
        { NSM_METHOD_ADAPTIVE, 0, "adaptive 1e-13" }, { NSM_METHOD_TAYLOR, 0, "taylor" },
    };
    printf("model\tmethod\tsteps\tcpu_median_s\terror\n");
    for (int k = 0; k < 2; k++)
        for (size_t h = 0; h < sizeof how / sizeof how[0]; h++) {
            double cpu[reps], err = 0;
            long steps = 0;
            for (int r = 0; r < reps; r++) {
                double t0 = cpu_now();
                if (bench_run(models[k], how[h].method, how[h].dt, t_end[k], &steps, &err))
                    return 1;
                cpu[r] = cpu_now() - t0;
            }
            qsort(cpu, (size_t)reps, sizeof cpu[0], cmp_double);
            printf("%s\t%s\t%ld\t%.3g\t%.2g\n", models[k]->name, how[h].name, steps,
                   cpu[reps / 2], err);
        }
    return 0;
}
