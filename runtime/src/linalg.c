/*
** linalg.c: small dense linear algebra for the runtime.
**
** The matrices of a 1-D mechanical model are small (a few dozen rows at
** most), so plain Gaussian elimination and triple loops are both the
** simplest and the fastest choice. Row-major storage throughout.
*/
#include "linalg.h"

#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Matrices up to this many entries get their workspace from the stack. */
#define LA_STACK 64
#define LA_BALANCE_SWEEPS 40

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

/* Cholesky factor in place, column by column (see linalg.h): the first
** pivot that is not > 0, or -1. */
int nsm_la_cholesky(int n, double *A)
{
    for (int j = 0; j < n; j++) {
        double d = A[j * n + j];
        for (int k = 0; k < j; k++)
            d -= A[j * n + k] * A[j * n + k];
        if (!(d > 0))
            return j;
        double r = sqrt(d);
        A[j * n + j] = r;
        for (int i = j + 1; i < n; i++) {
            double t = A[i * n + j];
            for (int k = 0; k < j; k++)
                t -= A[i * n + k] * A[j * n + k];
            A[i * n + j] = t / r;
        }
    }
    return -1;
}

/* x = L^-T L^-1 b: forward then backward substitution (see linalg.h). */
void nsm_la_cholesky_solve(int n, const double *L, const double *b, double *x)
{
    for (int i = 0; i < n; i++) {
        double t = b[i];
        for (int k = 0; k < i; k++)
            t -= L[i * n + k] * x[k];
        x[i] = t / L[i * n + i];
    }
    for (int i = n - 1; i >= 0; i--) {
        double t = x[i];
        for (int k = i + 1; k < n; k++)
            t -= L[k * n + i] * x[k];
        x[i] = t / L[i * n + i];
    }
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

/*
** The largest sum of absolute values over the lines of the n x n matrix A,
** line i's entries at A[i * across + k * along]: rows (across n, along 1)
** or columns (across 1, along n). A NaN sum wins, so a NaN is never hidden.
*/
static double la_line_abs_max(int n, const double *A, int across, int along)
{
    double best = 0.0;
    int i, k;

    for (i = 0; i < n; i++) {
        double s = 0.0;
        for (k = 0; k < n; k++) s += fabs(A[i * across + k * along]);
        if (s > best || s != s) best = s;
    }
    return best;
}

/* Largest absolute row sum. */
double nsm_la_norm_inf(int n, const double *A)
{
    return la_line_abs_max(n, A, n, 1);
}

/* Largest absolute column sum: the norm Higham's expm bounds are stated in. */
double nsm_la_norm1(int n, const double *A)
{
    return la_line_abs_max(n, A, 1, n);
}

/*
** Balance X in place by a diagonal similarity X <- D^-1 X D with powers of
** two in d (so it is exact), equalising the off-diagonal row and column
** 1-norms of each index. Parlett & Reinsch's iteration without permutations.
** Subnormal entries are left out of the norms and each factor stays within
** 2^-1000 .. 2^1000: an entry of 1e-323 beside ones (a subnormal stiffness
** times a step) asked for 2^1000 and more, d overflowed to inf and the
** exponentials made of it NaN; any D is a similarity, so a bounded one
** only balances less.
*/
void nsm_la_balance(int n, double *X, double *d)
{
    int i, j, sweep, done = 0;

    for (i = 0; i < n; i++) d[i] = 1.0;
    for (sweep = 0; sweep < LA_BALANCE_SWEEPS && !done; sweep++) {
        done = 1;
        for (i = 0; i < n; i++) {
            double c = 0.0, r = 0.0, f = 1.0, s, g;
            for (j = 0; j < n; j++) {
                if (j == i) continue;
                c += fabs(X[j * n + i]) >= DBL_MIN ? fabs(X[j * n + i]) : 0.0;
                r += fabs(X[i * n + j]) >= DBL_MIN ? fabs(X[i * n + j]) : 0.0;
            }
            if (c == 0.0 || r == 0.0) continue;
            s = c + r;
            g = r / 2.0;
            while (c < g && f < 0x1p100 && d[i] * f < 0x1p1000) { f *= 2.0; c *= 4.0; }
            g = r * 2.0;
            while (c >= g && f > 0x1p-100 && d[i] * f > 0x1p-1000) { f /= 2.0; c /= 4.0; }
            if ((c + r) / f < 0.95 * s) {
                done = 0;
                d[i] *= f;
                for (j = 0; j < n; j++) X[i * n + j] /= f;
                for (j = 0; j < n; j++) X[j * n + i] *= f;
            }
        }
    }
}

/* Householder reflection of H (n*n, upper Hessenberg below column k) that
** zeroes H[k+2.., k]; applied from both sides (a similarity). */
static void hessenberg_column(int n, double *H, int k, double *u)
{
    double alpha = 0, norm;
    int i, j, m = n - k - 1;
    for (i = 0; i < m; i++) {
        u[i] = H[(k + 1 + i) * n + k];
        alpha += u[i] * u[i];
    }
    norm = sqrt(alpha);
    if (norm == 0) return;
    if (u[0] > 0) norm = -norm;
    u[0] -= norm;
    alpha = 0;
    for (i = 0; i < m; i++) alpha += u[i] * u[i];
    if (alpha == 0) return;
    for (j = 0; j < n; j++) {            /* H = (I - 2uu'/u'u) H */
        double s = 0;
        for (i = 0; i < m; i++) s += u[i] * H[(k + 1 + i) * n + j];
        s *= 2 / alpha;
        for (i = 0; i < m; i++) H[(k + 1 + i) * n + j] -= s * u[i];
    }
    for (i = 0; i < n; i++) {            /* H = H (I - 2uu'/u'u) */
        double s = 0;
        for (j = 0; j < m; j++) s += H[i * n + k + 1 + j] * u[j];
        s *= 2 / alpha;
        for (j = 0; j < m; j++) H[i * n + k + 1 + j] -= s * u[j];
    }
}

/*
** Eigenvalues (re[i], im[i]) of the n*n matrix A: balancing, Householder
** reduction to Hessenberg form, then the single-shift QR iteration in
** complex arithmetic with Wilkinson's shift and deflation (Golub & Van
** Loan, Matrix Computations, 4th ed., sections 7.4-7.5).  O(n^3); the
** runtime asks it once per mode for the step bounds of its integrators.
** NSM_LA_NOCONV when an eigenvalue takes more than 60 iterations.
*/
int nsm_la_eigvals(int n, const double *A, double *re, double *im)
{
    size_t nn = (size_t)n * (size_t)n;
    double *R = malloc(sizeof(double) * (nn + 2 * (size_t)n));
    double complex *H = malloc(sizeof(double complex) * nn);
    int i, j, k, rc = NSM_LA_OK;

    if (!R || !H) {
        free(R);
        free(H);
        return NSM_LA_NOMEM;
    }
    memcpy(R, A, sizeof(double) * nn);
    /* a small matrix scaled up by a power of 2 (exact) to entries of order
     * 1: the shifts' products b c of a matrix of 1e-273 underflowed to 0,
     * and QR did not converge (a damped oscillator's monodromy over 6283 s).
     * A large one is left as it is: scaled down, its entries of order 1
     * beside 1e300 (a spring of 1e300 N/m on 1 kg) fell to 1e-300, and the
     * balancing's factors took them below the normal range */
    double amax = 0;
    for (i = 0; i < (int)nn; i++) amax = fmax(amax, fabs(R[i]));
    int ex = amax > 0 && amax < 1 ? ilogb(amax) : 0;
    for (i = 0; i < (int)nn; i++) R[i] = ldexp(R[i], -ex);
    nsm_la_balance(n, R, R + nn);
    for (k = 0; k + 2 < n; k++) hessenberg_column(n, R, k, R + nn);
    for (i = 0; i < (int)nn; i++) H[i] = R[i];
    for (int hi = n - 1; hi >= 0;) {
        int lo = hi, its = 0;
        for (;;) {
            for (lo = hi; lo > 0; lo--) {   /* deflate at a negligible subdiagonal */
                double s = cabs(H[(lo - 1) * n + lo - 1]) + cabs(H[lo * n + lo]);
                if (cabs(H[lo * n + lo - 1]) <= DBL_EPSILON * (s > 0 ? s : 1)) {
                    H[lo * n + lo - 1] = 0;
                    break;
                }
            }
            if (lo == hi) break;
            if (++its > 60) {
                rc = NSM_LA_NOCONV;
                goto done;
            }
            /* Wilkinson's shift: the eigenvalue of the trailing 2x2 block
             * closer to its last diagonal entry (an exceptional shift every
             * 11 iterations breaks cycles) */
            double complex a = H[(hi - 1) * n + hi - 1], b = H[(hi - 1) * n + hi];
            double complex c = H[hi * n + hi - 1], d = H[hi * n + hi];
            double complex tr = 0.5 * (a - d), disc = csqrt(tr * tr + b * c);
            double complex mu = cabs(tr + disc) > cabs(tr - disc) ? d - b * c / (tr + disc)
                                                                   : d - b * c / (tr - disc);
            if (tr + disc == 0 && tr - disc == 0) mu = d;
            if (its % 11 == 0) mu = d + cabs(c);
            /* one QR step on the active block H[lo..hi] - mu I by Givens
             * rotations (the blocks beside it do not change its eigenvalues) */
            double complex cs[n], sn[n];
            for (k = lo; k <= hi; k++) H[k * n + k] -= mu;
            for (k = lo; k < hi; k++) {
                double complex x = H[k * n + k], y = H[(k + 1) * n + k];
                double r = hypot(cabs(x), cabs(y));
                double complex cc = r > 0 ? x / r : 1, ss = r > 0 ? y / r : 0;
                cs[k] = cc;
                sn[k] = ss;
                for (j = k; j <= hi; j++) {
                    double complex u = H[k * n + j], v = H[(k + 1) * n + j];
                    H[k * n + j] = conj(cc) * u + conj(ss) * v;
                    H[(k + 1) * n + j] = -ss * u + cc * v;
                }
            }
            for (k = lo; k < hi; k++) {
                double complex cc = cs[k], ss = sn[k];
                for (i = lo; i <= (k + 1 < hi ? k + 1 : hi); i++) {
                    double complex u = H[i * n + k], v = H[i * n + k + 1];
                    H[i * n + k] = u * cc + v * ss;
                    H[i * n + k + 1] = -u * conj(ss) + v * conj(cc);
                }
            }
            for (k = lo; k <= hi; k++) H[k * n + k] += mu;
        }
        re[hi] = ldexp(creal(H[hi * n + hi]), ex);
        im[hi] = ldexp(cimag(H[hi * n + hi]), ex);
        hi--;
    }
done:
    free(R);
    free(H);
    return rc;
}
