/*
** linalg.c: small dense linear algebra for the runtime.
**
** The matrices of a 1-D mechanical model are small (a few dozen rows at
** most), so plain Gaussian elimination and triple loops are both the
** simplest and the fastest choice. Row-major storage throughout.
*/
#include "linalg.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Matrices up to this many entries get their workspace from the stack. */
#define LA_STACK 64

/*
** Solve A X = B by Gaussian elimination with partial pivoting (row
** interchanges), overwriting B with X and A with its LU factors. A pivot
** that is zero, not finite, or below n*eps times the largest entry of A
** means A is singular to working precision: NSM_LA_SINGULAR, with B
** partly modified.
*/
int nsm_la_solve(int n, double *A, double *B, int nrhs)
{
    double amax = 0.0, tol;
    int i, j, k, p;

    for (i = 0; i < n * n; i++) {
        double a = fabs(A[i]);
        if (!(a <= DBL_MAX)) return NSM_LA_SINGULAR; /* inf or nan */
        if (a > amax) amax = a;
    }
    tol = n * DBL_EPSILON * amax;
    for (k = 0; k < n; k++) {
        double big = fabs(A[k * n + k]);
        p = k;
        for (i = k + 1; i < n; i++) {
            if (fabs(A[i * n + k]) > big) {
                big = fabs(A[i * n + k]);
                p = i;
            }
        }
        if (big == 0.0 || big <= tol) return NSM_LA_SINGULAR;
        if (p != k) {
            for (j = 0; j < n; j++) {
                double t = A[k * n + j]; A[k * n + j] = A[p * n + j]; A[p * n + j] = t;
            }
            for (j = 0; j < nrhs; j++) {
                double t = B[k * nrhs + j]; B[k * nrhs + j] = B[p * nrhs + j]; B[p * nrhs + j] = t;
            }
        }
        for (i = k + 1; i < n; i++) {
            double l = A[i * n + k] / A[k * n + k];
            if (l == 0.0) continue;
            A[i * n + k] = l;
            for (j = k + 1; j < n; j++) A[i * n + j] -= l * A[k * n + j];
            for (j = 0; j < nrhs; j++) B[i * nrhs + j] -= l * B[k * nrhs + j];
        }
    }
    /* Back substitution, one right-hand side column at a time. */
    for (j = 0; j < nrhs; j++) {
        for (i = n - 1; i >= 0; i--) {
            double s = B[i * nrhs + j];
            for (k = i + 1; k < n; k++) s -= A[i * n + k] * B[k * nrhs + j];
            B[i * nrhs + j] = s / A[i * n + i];
        }
    }
    return NSM_LA_OK;
}

/* Ainv = A^-1, by solving A X = I on a copy of A. */
int nsm_la_inverse(int n, const double *A, double *Ainv)
{
    double buf[LA_STACK], *W = buf;
    int i, rc;

    if (n <= 0) return NSM_LA_OK;
    if (n * n > LA_STACK) {
        W = malloc(sizeof(double) * (size_t)n * (size_t)n);
        if (!W) return NSM_LA_NOMEM;
    }
    memcpy(W, A, sizeof(double) * (size_t)n * (size_t)n);
    memset(Ainv, 0, sizeof(double) * (size_t)n * (size_t)n);
    for (i = 0; i < n; i++) Ainv[i * n + i] = 1.0;
    rc = nsm_la_solve(n, W, Ainv, n);
    if (W != buf) free(W);
    return rc;
}

/* C(n*k) = A(n*m) B(m*k), in i-p-j order so the inner loop runs along rows. */
void nsm_la_matmul(int n, int m, int k, const double *A, const double *B, double *C)
{
    int i, p, j;

    for (i = 0; i < n * k; i++) C[i] = 0.0;
    for (i = 0; i < n; i++) {
        double *c = C + i * k;
        for (p = 0; p < m; p++) {
            double a = A[i * m + p];
            const double *b = B + p * k;
            if (a == 0.0) continue;
            for (j = 0; j < k; j++) c[j] += a * b[j];
        }
    }
}

/* y(n) = A(n*m) x(m). */
void nsm_la_matvec(int n, int m, const double *A, const double *x, double *y)
{
    int i, j;

    for (i = 0; i < n; i++) {
        double s = 0.0;
        for (j = 0; j < m; j++) s += A[i * m + j] * x[j];
        y[i] = s;
    }
}

/* Largest absolute row sum. */
double nsm_la_norm_inf(int n, const double *A)
{
    double best = 0.0;
    int i, j;

    for (i = 0; i < n; i++) {
        double s = 0.0;
        for (j = 0; j < n; j++) s += fabs(A[i * n + j]);
        if (s > best || s != s) best = s;
    }
    return best;
}

/* Largest absolute column sum: the norm Higham's expm bounds are stated in. */
double nsm_la_norm1(int n, const double *A)
{
    double best = 0.0;
    int i, j;

    for (j = 0; j < n; j++) {
        double s = 0.0;
        for (i = 0; i < n; i++) s += fabs(A[i * n + j]);
        if (s > best || s != s) best = s;
    }
    return best;
}
