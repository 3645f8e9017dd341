/*
** lzb_bench.c: cost of the energetic multiple-impact law (rt_lzb_solve,
** runtime/src/multiimpact.c) against the length of a chain of equal balls
** at rest and touching, struck at one end at 1 m/s (Hertz contacts, k = 1).
** Not a test: it prints, per chain length and restitution, the seconds of
** one solve (CPU), the kinetic energy after it and the return code.
**
**   cmake --build build --target bench_lzb && build/tests/bench_lzb [NMAX]
*/
#define _POSIX_C_SOURCE 200809L
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

/* One chain of n balls with restitution e: prints a line. */
static void bench_chain(int n, double e)
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
    int rc = rt_lzb_solve(nc, W, vn, ee, k, eta, P, va);
    double t = now() - t0, T = 0;
    for (int i = 0; i < n; i++) {
        double v = (i == 0) - (i < nc ? P[i] : 0) + (i > 0 ? P[i - 1] : 0);
        T += 0.5 * v * v;
    }
    printf("%6d  %5.2f  %10.4f  %.12f  %d\n", n, e, t, T, rc);
    fflush(stdout);
    free(W);
    free(buf);
}

int main(int argc, char **argv)
{
    int nmax = argc > 1 ? atoi(argv[1]) : 1000;
    const int ns[] = { 10, 30, 100, 300, 1000, 3000 };
    printf("# balls  e  cpu_seconds  kinetic_after  rc\n");
    for (int a = 0; a < 6 && ns[a] <= nmax; a++)
        bench_chain(ns[a], 1);
    for (int a = 0; a < 6 && ns[a] <= nmax && ns[a] <= 300; a++)
        bench_chain(ns[a], 0.95);
    return 0;
}
