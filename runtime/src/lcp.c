/*
** lcp.c: the linear complementarity problem of simultaneous impacts.
**
** Find z >= 0 with w = M z + q >= 0 and z.w = 0. In the runtime M is a
** Delassus matrix W M^-1 W^T of independent contacts, a P-matrix, for which
** the solution exists and is unique. We use Murty's least-index principal
** pivoting method (K. G. Murty, "Note on a Bard-type scheme for solving the
** complementarity problem", Opsearch 11, 1974), which terminates for every
** P-matrix: keep a set alpha of indices where z may be positive, solve
** M_aa z_a = -q_a, and flip the least index whose complementary variable
** (z_i for i in alpha, w_i otherwise) is negative. Should rounding make it
** cycle, or a principal block be singular (M not a P-matrix), we fall back
** to trying every complementary index set when n is small.
*/
#include "linalg.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Workspace up to this many doubles comes from the stack (n <= 8). */
#define LCP_STACK 96
/* Largest n for the exhaustive fallback (4096 index sets). */
#define LCP_ENUM_MAX 12

/* Relative tolerance for "negative": values above -tol count as zero. */
static const double lcp_rtol = 64.0 * DBL_EPSILON;

/*
** Complementary basic solution for the index set alpha (in[i] != 0):
** z_a = -M_aa^-1 q_a, z = 0 elsewhere, w = M z + q. S and r are scratch of
** n*n and n doubles. Returns NSM_LA_OK or NSM_LA_SINGULAR.
*/
static int basic_solution(int n, const double *M, const double *q, const unsigned char *in,
                          double *z, double *w, double *S, double *r)
{
    int idx[64], *ix = idx, na = 0, i, j, rc = NSM_LA_OK;

    if (n > 64) {
        ix = malloc(sizeof(int) * (size_t)n);
        if (!ix) return NSM_LA_NOMEM;
    }
    for (i = 0; i < n; i++)
        if (in[i]) ix[na++] = i;
    for (i = 0; i < na; i++) {
        for (j = 0; j < na; j++) S[i * na + j] = M[ix[i] * n + ix[j]];
        r[i] = -q[ix[i]];
    }
    if (na > 0) rc = nsm_la_solve(na, S, r, 1);
    if (rc == NSM_LA_OK) {
        for (i = 0; i < n; i++) z[i] = 0.0;
        for (i = 0; i < na; i++) z[ix[i]] = r[i];
        for (i = 0; i < n; i++) {
            double s = q[i];
            for (j = 0; j < na; j++) s += M[i * n + ix[j]] * r[j];
            w[i] = s;
        }
    }
    if (ix != idx) free(ix);
    return rc;
}

/*
** Tolerance for the sign test of index i: a multiple of the rounding error
** in computing w_i = q_i + sum_j M_ij z_j, or, for z_i, of the size of z.
*/
static double tol_of(int n, const double *M, const double *q, const double *z, int i, int zside)
{
    double s = 0.0, zmax = 0.0;
    int j;

    if (zside) {
        for (j = 0; j < n; j++) zmax = fmax(zmax, fabs(z[j]));
        return lcp_rtol * zmax;
    }
    s = fabs(q[i]);
    for (j = 0; j < n; j++) s += fabs(M[i * n + j] * z[j]);
    return lcp_rtol * s;
}

/* Is the basic solution for alpha feasible (within rounding)? */
static int feasible(int n, const double *M, const double *q, const unsigned char *in,
                    const double *z, const double *w, int *bad)
{
    int i;

    for (i = 0; i < n; i++) {
        double v = in[i] ? z[i] : w[i];
        if (v < -tol_of(n, M, q, z, i, in[i])) {
            *bad = i;
            return 0;
        }
    }
    return 1;
}

/* Clean a feasible basic solution: exact zeros where complementarity says. */
static void finish(int n, const unsigned char *in, double *z, const double *wb, double *w)
{
    int i;

    for (i = 0; i < n; i++) {
        if (in[i]) {
            if (z[i] < 0.0) z[i] = 0.0;
            if (w) w[i] = 0.0;
        } else {
            z[i] = 0.0;
            if (w) w[i] = wb[i] < 0.0 ? 0.0 : wb[i];
        }
    }
}

/* Murty's least-index method; NSM_LA_NOCONV if it exceeds its pivot budget. */
static int murty(int n, const double *M, const double *q, unsigned char *in,
                 double *z, double *w, double *S, double *r)
{
    long it, budget = n < 20 ? (1L << n) + n : 1L << 20;
    int bad, rc;

    memset(in, 0, (size_t)n);
    for (it = 0; it <= budget; it++) {
        rc = basic_solution(n, M, q, in, z, w, S, r);
        if (rc != NSM_LA_OK) return rc == NSM_LA_NOMEM ? rc : NSM_LA_NOCONV;
        if (feasible(n, M, q, in, z, w, &bad)) return NSM_LA_OK;
        in[bad] = !in[bad];
    }
    return NSM_LA_NOCONV;
}

/* Try every complementary index set (n <= LCP_ENUM_MAX). */
static int enumerate(int n, const double *M, const double *q, unsigned char *in,
                     double *z, double *w, double *S, double *r)
{
    unsigned long set, nsets = 1UL << n;
    int i, bad;

    for (set = 0; set < nsets; set++) {
        for (i = 0; i < n; i++) in[i] = (unsigned char)((set >> i) & 1UL);
        if (basic_solution(n, M, q, in, z, w, S, r) != NSM_LA_OK) continue;
        if (feasible(n, M, q, in, z, w, &bad)) return NSM_LA_OK;
    }
    return NSM_LA_NOCONV;
}

/* Solve the LCP (M, q): pivoting first, enumeration as the fallback. */
int nsm_lcp_solve(int n, const double *M, const double *q, double *z, double *w)
{
    double buf[LCP_STACK], *S = buf, *r, *wb;
    unsigned char inbuf[16], *in = inbuf;
    size_t need = (size_t)n * (size_t)n + 2 * (size_t)n;
    int rc;

    if (n <= 0) return NSM_LA_OK;
    if (need > LCP_STACK) {
        S = malloc(sizeof(double) * need);
        if (!S) return NSM_LA_NOMEM;
    }
    if (n > 16) {
        in = malloc((size_t)n);
        if (!in) {
            if (S != buf) free(S);
            return NSM_LA_NOMEM;
        }
    }
    r = S + (size_t)n * (size_t)n;
    wb = r + n;
    rc = murty(n, M, q, in, z, wb, S, r);
    if (rc == NSM_LA_NOCONV && n <= LCP_ENUM_MAX) rc = enumerate(n, M, q, in, z, wb, S, r);
    if (rc == NSM_LA_OK) finish(n, in, z, wb, w);
    if (in != inbuf) free(in);
    if (S != buf) free(S);
    return rc;
}
