/*
** bench_linalg.c: time per call of the runtime's matrix exponential, its Van
** Loan integral and the LCP solver, for the sizes a 1-D model produces
** (n = 4, 8, 16, 32). Not a test: it prints microseconds per call.
**
**   cc -O2 -Iruntime/src bench/bench_linalg.c runtime/src/linalg.c \
**      runtime/src/expm.c runtime/src/lcp.c -lm -o bench_linalg
*/
#include "linalg.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Wall-clock seconds from a monotonic clock. */
static double now(void)
{
    struct timespec ts;

    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Mode matrix of a fixed-fixed chain of n/2 masses with dampers:
** [[0, I], [-K/m, -C/m]], k = 1e5, m = 10, c = 50. */
static void chain(int n, double *A, double *Q)
{
    int b = n / 2, i;
    double k = 1e5, m = 10, c = 50;

    for (i = 0; i < n * n; i++) A[i] = Q[i] = 0.0;
    for (i = 0; i < b; i++) {
        A[i * n + b + i] = 1.0;
        A[(b + i) * n + i] = -2 * k / m;
        A[(b + i) * n + b + i] = -2 * c / m;
        Q[(b + i) * n + b + i] = 2 * c;
        if (i > 0) {
            A[(b + i) * n + i - 1] = k / m;
            A[(b + i) * n + b + i - 1] = c / m;
            Q[(b + i) * n + b + i - 1] = -c;
        }
        if (i + 1 < b) {
            A[(b + i) * n + i + 1] = k / m;
            A[(b + i) * n + b + i + 1] = c / m;
            Q[(b + i) * n + b + i + 1] = -c;
        }
    }
}

int main(void)
{
    static const int sizes[] = {4, 8, 16, 32};
    unsigned s;

    printf("%4s %14s %14s %14s\n", "n", "expm us", "expm_quad us", "lcp(n/2) us");
    for (s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int n = sizes[s], reps = 200000 / (n * n) + 10, r, i;
        double *A = malloc(sizeof(double) * (size_t)(n * n));
        double *Q = malloc(sizeof(double) * (size_t)(n * n));
        double *E = malloc(sizeof(double) * (size_t)(n * n));
        double *I = malloc(sizeof(double) * (size_t)(n * n));
        double q[16], z[16], t0, t1, t2, t3, sink = 0.0;
        int g = n / 2;

        chain(n, A, Q);
        t0 = now();
        for (r = 0; r < reps; r++) {
            nsm_expm(n, A, 1e-3 * (1 + r % 7), E);
            sink += E[0];
        }
        t1 = now();
        for (r = 0; r < reps; r++) {
            nsm_expm_quad(n, A, Q, 1e-3 * (1 + r % 7), E, I);
            sink += I[n * n - 1];
        }
        t2 = now();
        /* LCP on the g x g block of -A's stiffness part (K/m, a P-matrix). */
        for (i = 0; i < g; i++) {
            int j;
            for (j = 0; j < g; j++) I[i * g + j] = -A[(g + i) * n + j];
            q[i] = (i % 2 ? 1.0 : -1.0) * 1e3;
        }
        for (r = 0; r < reps; r++) {
            q[0] = -1e3 - r % 5;
            nsm_lcp_solve(g, I, q, z, NULL);
            sink += z[0];
        }
        t3 = now();
        printf("%4d %14.2f %14.2f %14.2f%s\n", n, 1e6 * (t1 - t0) / reps, 1e6 * (t2 - t1) / reps,
               1e6 * (t3 - t2) / reps, sink == 12345.0 ? " " : "");
        free(A); free(Q); free(E); free(I);
    }
    return 0;
}
