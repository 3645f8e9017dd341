/*
** lzb_bench.c: cost of the energetic multiple-impact law (rt_lzb_solve,
** runtime/src/multiimpact.c) against the length of a chain of equal balls
** at rest and touching, struck at one end at 1 m/s (Hertz contacts, k = 1).
** Not a test: it prints, per chain length and restitution (1, 0.95 and
** plastic, 0, up to 100 balls), the seconds of one solve (CPU), the CPU per
** contact (the law resolves every contact of the train in one solve: the
** cost per collision record), the global step attempts, the momentum's
** error, the kinetic energy after it, the energy balance's residual (the
** blow's 0.5 J less the kinetic energy after, the loss the kernel
** integrated and what it left stored) and the return code, then the
** exponents of the CPU time and of the CPU per contact against the length
** fitted from 100 balls up (plastic: from 30; least squares in log-log).
**
**   cmake --build build --target bench_lzb && build/tests/bench_lzb [NMAX]
*/
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "rt.h"

/* CPU seconds of this process (steadier than wall time on a shared machine). */
static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One chain of n balls with restitution e: prints a line; its CPU seconds. */
static double bench_chain(int n, double e)
{
    int nc = n - 1;
    double *W = calloc((size_t)nc * nc, sizeof(double)), *buf = malloc(sizeof(double) * 6 * nc);
    double *vn = buf, *ee = buf + nc, *k = buf + 2 * nc, *eta = buf + 3 * nc, *P = buf + 4 * nc,
           *va = buf + 5 * nc;
    for (int j = 0; j < nc; j++) {
        W[(size_t)j * nc + j] = 2;
        if (j + 1 < nc)
            W[(size_t)j * nc + j + 1] = W[(size_t)(j + 1) * nc + j] = -1;
        vn[j] = j == 0 ? -1 : 0;
        ee[j] = e;
        k[j] = 1;
        eta[j] = 1.5;
    }
    double t0 = now();
    RtLzbInfo info;
    int rc = rt_lzb_solve_info(nc, W, vn, ee, k, eta, P, va, &info);
    double t = now() - t0, T = 0, p = 0;
    for (int i = 0; i < n; i++) {
        double v = (i == 0) - (i < nc ? P[i] : 0) + (i > 0 ? P[i - 1] : 0);
        T += 0.5 * v * v;
        p += v;
    }
    printf("%6d  %5.2f  %10.4f  %10.3g  %9ld  %9.2g  %.12f  %9.2g  %d\n", n, e, t, t / nc,
           info.steps, p - 1, T, 0.5 - T - info.lost - info.stored, rc);
    fflush(stdout);
    free(W);
    free(buf);
    return t;
}

/* The slope of log t against log n over the rows with n >= from (least
** squares); 0 when fewer than two. */
static double bench_fit(const int *ns, const double *ts, int rows, int from)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int m = 0;
    for (int a = 0; a < rows; a++) {
        if (ns[a] < from)
            continue;
        double x = log(ns[a]), y = log(fmax(ts[a], 1e-6));
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
        m++;
    }
    return m < 2 ? 0 : (m * sxy - sx * sy) / (m * sxx - sx * sx);
}

int main(int argc, char **argv)
{
    int nmax = argc > 1 ? atoi(argv[1]) : 1000;
    const int ns[] = { 10, 30, 100, 300, 1000, 3000 };
    printf("# balls  e  cpu_seconds  cpu_per_contact  global_steps  momentum_error  kinetic_after"
           "  balance_residual  rc\n");
    const double es[] = { 1, 0.95, 0 };
    for (int b = 0; b < 3; b++) {
        double ts[6], per[6];
        int rows = 0, top = es[b] == 0 && nmax > 100 ? 100 : nmax;  /* plastic: 100 take 8 s */
        for (; rows < 6 && ns[rows] <= top; rows++) {
            ts[rows] = bench_chain(ns[rows], es[b]);
            per[rows] = ts[rows] / (ns[rows] - 1);
        }
        int from = es[b] == 0 ? 30 : 100;
        printf("# e = %.2f: cpu ~ N^%.2f, cpu per contact ~ N^%.2f (from %d balls up)\n", es[b],
               bench_fit(ns, ts, rows, from), bench_fit(ns, per, rows, from), from);
    }
    return 0;
}
