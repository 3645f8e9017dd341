/*
** test_linalg.c: the runtime's numerical kernels against closed forms.
**
** Every reference here is independent of the code under test: trigonometric
** and exponential closed forms, eigen-decompositions known analytically,
** Gauss-Legendre quadrature, and a brute-force LCP enumeration with its own
** elimination.
*/
#include "linalg.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static const double PI = 3.14159265358979323846;

/* Largest |X - Y| over n*m entries, divided by scale. */
static double maxdiff(int nm, const double *X, const double *Y, double scale)
{
    double d = 0.0;
    int i;

    for (i = 0; i < nm; i++) d = fmax(d, fabs(X[i] - Y[i]));
    return d / scale;
}

static double maxabs(int nm, const double *X)
{
    double d = 0.0;
    int i;

    for (i = 0; i < nm; i++) d = fmax(d, fabs(X[i]));
    return d;
}

/* ---- solve, matmul ---- */

static void test_solve(void)
{
    /* Needs a row exchange: the (0,0) entry is zero. */
    double A[4] = {0, 2, 3, 1}, B[6] = {2, 4, 6, 4, 7, 10};
    double S[4] = {1, 2, 2, 4}, b[2] = {1, 1};
    double X[6] = {1, 2, 3, 4, 5, 6}, Y[6] = {1, 0, 0, 1, 1, 1}, Z[4], Zref[4] = {4, 5, 10, 11};
    double x[3] = {1, -1, 2}, y[2], yref[2] = {5, 11};
    int i;

    /* [0 2; 3 1] X = B with X = [1 1 2; 1 2 3] -> B = [2 4 6; 4 5 9]... built below. */
    B[0] = 2; B[1] = 4; B[2] = 6; B[3] = 4; B[4] = 5; B[5] = 9;
    check_true("solve rc", nsm_la_solve(2, A, B, 3) == NSM_LA_OK);
    check_close("solve x00", B[0], 1, 1e-15);
    check_close("solve x01", B[1], 1, 1e-15);
    check_close("solve x02", B[2], 2, 1e-15);
    check_close("solve x10", B[3], 1, 1e-15);
    check_close("solve x11", B[4], 2, 1e-15);
    check_close("solve x12", B[5], 3, 1e-15);
    check_true("singular detected", nsm_la_solve(2, S, b, 1) == NSM_LA_SINGULAR);
    nsm_la_matmul(2, 3, 2, X, Y, Z);
    for (i = 0; i < 4; i++) check_close("matmul", Z[i], Zref[i], 0.0);
    nsm_la_matvec(2, 3, X, x, y);
    for (i = 0; i < 2; i++) check_close("matvec", y[i], yref[i], 0.0);
}

/* ---- expm ---- */

/*
** The two matrix norms on a matrix whose row and column sums all differ:
** rows 1+2+3 = 6, 4+5+6 = 15, 7+8+10 = 25 (signs dropped), columns 12, 15, 19;
** a NaN entry makes either norm NaN.
*/
static void test_norms(void)
{
    double A[9] = {1, -2, 3, -4, 5, -6, 7, 8, -10};

    check_close("norm_inf is the largest row sum", nsm_la_norm_inf(3, A), 25, 0.0);
    check_close("norm1 is the largest column sum", nsm_la_norm1(3, A), 19, 0.0);
    A[4] = NAN;
    check_true("norm_inf of a NaN", isnan(nsm_la_norm_inf(3, A)));
    check_true("norm1 of a NaN", isnan(nsm_la_norm1(3, A)));
}

/* exp([[0, w], [-w, 0]] h) = [[cos wh, sin wh], [-sin wh, cos wh]]. */
static void test_rotation(double w, double h, double tol)
{
    double A[4] = {0, w, -w, 0}, E[4], R[4];
    char what[80];

    R[0] = cos(w * h); R[1] = sin(w * h); R[2] = -R[1]; R[3] = R[0];
    snprintf(what, sizeof what, "rotation rc w=%g h=%g", w, h);
    check_true(what, nsm_expm(2, A, h, E) == NSM_LA_OK);
    snprintf(what, sizeof what, "rotation w=%g h=%g", w, h);
    check_close(what, maxdiff(4, E, R, 1.0), 0.0, tol);
}

/* exp((lambda I + N) h) for the 3x3 Jordan block: e^{lambda h} [1 h h^2/2; 0 1 h; 0 0 1]. */
static void test_jordan(double lambda, double h)
{
    double J[9] = {lambda, 1, 0, 0, lambda, 1, 0, 0, lambda}, E[9], R[9] = {0};
    double el = exp(lambda * h);
    char what[80];

    R[0] = R[4] = R[8] = el;
    R[1] = R[5] = el * h;
    R[2] = el * h * h / 2;
    check_true("jordan rc", nsm_expm(3, J, h, E) == NSM_LA_OK);
    snprintf(what, sizeof what, "jordan lambda=%g h=%g", lambda, h);
    check_close(what, maxdiff(9, E, R, maxabs(9, R)), 0.0, 4e-15 * (1 + fabs(lambda * h)));
}

/* A = V D V^-1 with V upper bidiagonal ones, V^-1 known exactly. */
static void test_diagonalizable(double h)
{
    double V[9] = {1, 1, 0, 0, 1, 1, 0, 0, 1}, Vi[9] = {1, -1, 1, 0, 1, -1, 0, 0, 1};
    double D[3] = {-1.0, -0.5, 2.0}, A[9], E[9], R[9], T[9];
    int i, j;
    char what[80];

    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++) T[i * 3 + j] = V[i * 3 + j] * D[j];
    nsm_la_matmul(3, 3, 3, T, Vi, A);
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++) T[i * 3 + j] = V[i * 3 + j] * exp(D[j] * h);
    nsm_la_matmul(3, 3, 3, T, Vi, R);
    check_true("diagonalizable rc", nsm_expm(3, A, h, E) == NSM_LA_OK);
    snprintf(what, sizeof what, "diagonalizable h=%g", h);
    check_close(what, maxdiff(9, E, R, maxabs(9, R)), 0.0, 1e-14 * (1 + fabs(h)));
}

/*
** Transition matrix of m x'' + c x' + k x = 0 (underdamped), y = (x, v):
** with a = c/(2m), wd = sqrt(k/m - a^2),
**   Phi = e^{-a t} [[cos + a/wd sin, sin/wd], [-(k/m)/wd sin, cos - a/wd sin]].
*/
static void oscillator_phi(double k, double m, double c, double t, double *P)
{
    double a = c / (2 * m), wd = sqrt(k / m - a * a), ea = exp(-a * t);
    double cs = cos(wd * t), sn = sin(wd * t);

    P[0] = ea * (cs + a / wd * sn);
    P[1] = ea * sn / wd;
    P[2] = -ea * (k / m) / wd * sn;
    P[3] = ea * (cs - a / wd * sn);
}

static void test_oscillator(double k, double m, double c, double h, double tol)
{
    double A[4] = {0, 1, -k / m, -c / m}, E[4], R[4];
    double w0 = sqrt(k / m);
    char what[120];
    int i;

    oscillator_phi(k, m, c, h, R);
    check_true("oscillator rc", nsm_expm(2, A, h, E) == NSM_LA_OK);
    /* Compare in the energy-like scaling of the state: x in units of 1/w0. */
    for (i = 0; i < 2; i++) {
        snprintf(what, sizeof what, "oscillator k=%g m=%g c=%g h=%g entry %d", k, m, c, h, i);
        check_close(what, E[i] * (i ? w0 : 1), R[i] * (i ? w0 : 1), tol);
        check_close(what, E[2 + i] / (i ? 1 : w0), R[2 + i] / (i ? 1 : w0), tol);
    }
}

/* Tiny steps: exp(A h) - I must be right relative to A h itself. */
static void test_tiny(void)
{
    double A[4] = {0, 3.0, -3.0, 0}, E[4];
    double h = 1e-12;

    check_true("tiny rc", nsm_expm(2, A, h, E) == NSM_LA_OK);
    check_close("tiny sin", E[1] / sin(3 * h), 1.0, 2e-16);
    check_close("tiny cos", E[0], cos(3 * h), 2e-16);
    check_true("zero step is identity", nsm_expm(2, A, 0.0, E) == NSM_LA_OK && E[0] == 1 &&
                                            E[1] == 0 && E[2] == 0 && E[3] == 1);
    h = 6e-5; /* just inside the Taylor branch */
    check_true("small rc", nsm_expm(2, A, h, E) == NSM_LA_OK);
    check_close("small sin", E[1] / sin(3 * h), 1.0, 4e-16);
    check_close("small 1-cos", (1 - E[0]) / (1 - cos(3 * h)), 1.0, 1e-9);
    h = 3e-4; /* [3/3] Pade branch */
    check_true("small pade rc", nsm_expm(2, A, h, E) == NSM_LA_OK);
    check_close("small pade sin", E[1] / sin(3 * h), 1.0, 4e-16);
}

/* ---- expm in long double ---- */

/* Unit roundoff the long double exponential is held to: that of long double
** where it is wider than double. */
static long double ld_eps(void)
{
    return LDBL_MANT_DIG > DBL_MANT_DIG ? LDBL_EPSILON : DBL_EPSILON;
}

/* Largest |X - Y| over nm long double entries, relative to scale. */
static long double maxdiff_ld(int nm, const long double *X, const long double *Y, long double scale)
{
    long double d = 0;
    for (int i = 0; i < nm; i++)
        if (fabsl(X[i] - Y[i]) > d) d = fabsl(X[i] - Y[i]);
    return d / scale;
}

/* exp([[0, w], [-w, 0]] h) against cosl and sinl, in units of the roundoff. */
static void test_ld_rotation(double w, double h, double ulps)
{
    double A[4] = {0, w, -w, 0};
    long double E[4], R[4], wh = (long double)w * h;
    char what[80];

    R[0] = cosl(wh); R[1] = sinl(wh); R[2] = -R[1]; R[3] = R[0];
    snprintf(what, sizeof what, "ld rotation rc w=%g h=%g", w, h);
    check_true(what, nsm_expm_ld(2, A, h, E) == NSM_LA_OK);
    snprintf(what, sizeof what, "ld rotation w=%g h=%g (roundoffs)", w, h);
    check_close(what, (double)(maxdiff_ld(4, E, R, 1) / ld_eps()), 0.0, ulps);
}

/* Free flight under gravity on (x, v, 1): the exact polynomial
** [[1, h, -g h^2/2], [0, 1, -g h], [0, 0, 1]], to the roundoff. */
static void test_ld_flight(double g, double h)
{
    double A[9] = {0, 1, 0, 0, 0, -g, 0, 0, 0};
    long double E[9], R[9] = {1, h, -(long double)g * h * h / 2, 0, 1, -(long double)g * h, 0, 0, 1};
    char what[80];

    check_true("ld flight rc", nsm_expm_ld(3, A, h, E) == NSM_LA_OK);
    for (int i = 0; i < 9; i++) {
        snprintf(what, sizeof what, "ld flight g=%g h=%g entry %d (roundoffs)", g, h, i);
        long double scale = R[i] != 0 ? fabsl(R[i]) : 1;
        check_close(what, (double)(fabsl(E[i] - R[i]) / scale / ld_eps()), 0.0, 8);
    }
}

/* The stiff stop of SDND121 (balancing and many squarings) against the
** closed form, evaluated in double: agreement to double precision. */
static void test_ld_oscillator(double k, double m, double h)
{
    double A[4] = {0, 1, -k / m, 0}, R[4], w0 = sqrt(k / m);
    long double E[4];
    char what[80];

    oscillator_phi(k, m, 0.0, h, R);
    check_true("ld oscillator rc", nsm_expm_ld(2, A, h, E) == NSM_LA_OK);
    snprintf(what, sizeof what, "ld oscillator k=%g m=%g h=%g", k, m, h);
    check_close(what, (double)E[0], R[0], 1e-14);
    check_close(what, (double)E[1] * w0, R[1] * w0, 1e-14);
    check_close(what, (double)E[2] / w0, R[2] / w0, 1e-14);
}

/*
** The 8-mass fixed-fixed chain (k = 1e5, m = 10): y' = [[0, I], [-K/m, 0]] y
** with K = k tridiag(-1, 2, -1). K/m = S diag(w_j^2) S^T, S_ij = sqrt(2/9)
** sin(i j pi/9), w_j^2 = 2k/m (1 - cos(j pi/9)), so
**   exp(A h) = [[S cos S^T, S (sin/w) S^T], [-S (w sin) S^T, S cos S^T]].
*/
static void test_chain(double h, double tol)
{
    enum { N = 8, N2 = 16 };
    double k = 1e5, m = 10.0;
    double A[N2 * N2] = {0}, E[N2 * N2], R[N2 * N2];
    double S[N][N], w[N];
    double scale[4];
    int i, j, l, b;
    char what[80];

    for (i = 0; i < N; i++) {
        A[i * N2 + N + i] = 1.0;
        A[(N + i) * N2 + i] = -2 * k / m;
        if (i > 0) A[(N + i) * N2 + i - 1] = k / m;
        if (i + 1 < N) A[(N + i) * N2 + i + 1] = k / m;
    }
    for (j = 0; j < N; j++) {
        w[j] = sqrt(2 * k / m * (1 - cos((j + 1) * PI / 9)));
        for (i = 0; i < N; i++) S[i][j] = sqrt(2.0 / 9) * sin((i + 1) * (j + 1) * PI / 9);
    }
    for (i = 0; i < N; i++) {
        for (j = 0; j < N; j++) {
            double cc = 0, sw = 0, ws = 0;
            for (l = 0; l < N; l++) {
                double p = S[i][l] * S[j][l];
                cc += p * cos(w[l] * h);
                sw += p * sin(w[l] * h) / w[l];
                ws += p * w[l] * sin(w[l] * h);
            }
            R[i * N2 + j] = cc;
            R[i * N2 + N + j] = sw;
            R[(N + i) * N2 + j] = -ws;
            R[(N + i) * N2 + N + j] = cc;
        }
    }
    check_true("chain rc", nsm_expm(N2, A, h, E) == NSM_LA_OK);
    /* Each block against its natural scale: 1, 1/w, w, 1. */
    scale[0] = scale[3] = 1.0;
    scale[1] = 1.0 / w[N - 1];
    scale[2] = w[N - 1];
    for (b = 0; b < 4; b++) {
        double err = 0.0;
        int r0 = (b / 2) * N, c0 = (b % 2) * N;
        for (i = 0; i < N; i++)
            for (j = 0; j < N; j++)
                err = fmax(err, fabs(E[(r0 + i) * N2 + c0 + j] - R[(r0 + i) * N2 + c0 + j]));
        snprintf(what, sizeof what, "chain h=%g block %d", h, b);
        check_close(what, err / scale[b], 0.0, tol);
    }
}

/* Larger n: exp of a block-diagonal of rotations (n = 40, malloc path). */
static void test_big_rotations(void)
{
    enum { N = 40 };
    double *A = calloc(N * N, sizeof(double)), *E = malloc(sizeof(double) * N * N);
    double h = 0.7, err = 0.0;
    int i, j;

    for (i = 0; i < N; i += 2) {
        double w = 1.0 + i;
        A[i * N + i + 1] = w;
        A[(i + 1) * N + i] = -w;
    }
    check_true("big rc", nsm_expm(N, A, h, E) == NSM_LA_OK);
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) {
            int blk = (i / 2 == j / 2);
            double w = 1.0 + 2 * (i / 2), want = 0.0;
            if (blk) {
                if (i == j) want = cos(w * h);
                else if (i < j) want = sin(w * h);
                else want = -sin(w * h);
            }
            err = fmax(err, fabs(E[i * N + j] - want));
        }
    check_close("big rotations", err, 0.0, 2e-14);
    free(A);
    free(E);
}

/* ---- Van Loan integrals ---- */

/*
** A = [[0, 1], [-w^2, 0]], Q = diag(0, 1): y0^T I y0 = integral of v(s)^2 with
** v(s) = -w x0 sin(ws) + v0 cos(ws), so
**   I = [[w^2 (h/2 - sin(2wh)/(4w)), -sin^2(wh)/2], [., h/2 + sin(2wh)/(4w)]].
*/
static void test_quad_oscillator(double w, double h)
{
    double A[4] = {0, 1, -w * w, 0}, Q[4] = {0, 0, 0, 1}, E[4], I[4], Ref[4];
    double s2 = sin(2 * w * h) / (4 * w), sn = sin(w * h);
    char what[80];
    int i;

    Ref[0] = w * w * (h / 2 - s2);
    Ref[1] = Ref[2] = -sn * sn / 2;
    Ref[3] = h / 2 + s2;
    check_true("quad rc", nsm_expm_quad(2, A, Q, h, E, I) == NSM_LA_OK);
    for (i = 0; i < 4; i++) {
        double sc = i == 0 ? w * w * h : (i == 3 ? h : 1.0);
        snprintf(what, sizeof what, "quad oscillator w=%g h=%g entry %d", w, h, i);
        check_close(what, I[i] / sc, Ref[i] / sc, 4e-15 * (1 + w * h));
    }
    check_close("quad E00", E[0], cos(w * h), 4e-15 * (1 + w * h));
    check_close("quad E01", E[1] * w, sn, 4e-15 * (1 + w * h));
}

/*
** Damped oscillator over a long horizon: I tends to the solution of the
** Lyapunov equation A^T P + P A = -Q, which for A = [[0,1],[-k,-c]],
** Q = diag(0,1) is P = diag(k/(2c), 1/(2c)).
*/
static void test_quad_lyapunov(void)
{
    double k = 4.0, c = 1.0, A[4] = {0, 1, -k, -c}, Q[4] = {0, 0, 0, 1}, I[4];

    check_true("lyapunov rc", nsm_expm_quad(2, A, Q, 100.0, NULL, I) == NSM_LA_OK);
    check_close("lyapunov P11", I[0], k / (2 * c), 1e-14);
    check_close("lyapunov P12", I[1], 0.0, 1e-14);
    check_close("lyapunov P21", I[2], 0.0, 1e-14);
    check_close("lyapunov P22", I[3], 1 / (2 * c), 1e-14);
}

/*
** Damped 8-mass chain with a dissipation form Q = [[0, 0], [0, C]]: compare
** I with composite 5-point Gauss-Legendre quadrature of exp(A^T s) Q exp(A s),
** the exponentials at the nodes from nsm_expm.
*/
static void test_quad_chain(double h)
{
    enum { N = 8, N2 = 16, NN = N2 * N2 };
    static const double cdamp[N + 1] = {250, 50, 50, 50, 50, 50, 50, 50, 25};
    double k = 1e5, m = 10.0;
    double A[NN] = {0}, Q[NN] = {0}, E[NN], I[NN], Ref[NN] = {0}, Es[NN], T[NN], U[NN], E2[NN];
    double xg[5], wg[5], err, scale;
    int i, j, p, g, panels = 200;
    char what[80];

    xg[0] = 0; wg[0] = 128.0 / 225;
    xg[1] = sqrt(5 - 2 * sqrt(10.0 / 7)) / 3; xg[2] = -xg[1];
    wg[1] = wg[2] = (322 + 13 * sqrt(70.0)) / 900;
    xg[3] = sqrt(5 + 2 * sqrt(10.0 / 7)) / 3; xg[4] = -xg[3];
    wg[3] = wg[4] = (322 - 13 * sqrt(70.0)) / 900;
    for (i = 0; i < N; i++) {
        double cl = cdamp[i], cr = cdamp[i + 1];
        A[i * N2 + N + i] = 1.0;
        A[(N + i) * N2 + i] = -2 * k / m;
        if (i > 0) A[(N + i) * N2 + i - 1] = k / m;
        if (i + 1 < N) A[(N + i) * N2 + i + 1] = k / m;
        A[(N + i) * N2 + N + i] = -(cl + cr) / m;
        Q[(N + i) * N2 + N + i] = cl + cr;
        if (i > 0) {
            A[(N + i) * N2 + N + i - 1] = cl / m;
            Q[(N + i) * N2 + N + i - 1] = -cl;
        }
        if (i + 1 < N) {
            A[(N + i) * N2 + N + i + 1] = cr / m;
            Q[(N + i) * N2 + N + i + 1] = -cr;
        }
    }
    for (p = 0; p < panels; p++) {
        double a = h * p / panels, b = h * (p + 1) / panels;
        for (g = 0; g < 5; g++) {
            double s = 0.5 * (a + b) + 0.5 * (b - a) * xg[g];
            nsm_expm(N2, A, s, Es);
            nsm_la_matmul(N2, N2, N2, Q, Es, T);
            for (i = 0; i < N2; i++)
                for (j = 0; j < N2; j++) U[i * N2 + j] = Es[j * N2 + i];
            nsm_la_matmul(N2, N2, N2, U, T, Es);
            for (i = 0; i < NN; i++) Ref[i] += 0.5 * (b - a) * wg[g] * Es[i];
        }
    }
    check_true("quad chain rc", nsm_expm_quad(N2, A, Q, h, E, I) == NSM_LA_OK);
    scale = maxabs(NN, Ref);
    err = maxdiff(NN, I, Ref, scale);
    snprintf(what, sizeof what, "quad chain vs Gauss-Legendre h=%g", h);
    check_close(what, err, 0.0, 2e-14);
    nsm_expm(N2, A, h, E2);
    snprintf(what, sizeof what, "quad chain E h=%g", h);
    check_close(what, maxdiff(NN, E, E2, maxabs(NN, E2)), 0.0, 1e-13);
    for (i = 0; i < N2; i++)
        for (j = 0; j < i; j++) checks++, failures += I[i * N2 + j] != I[j * N2 + i];
}


/* ---- LCP ---- */

/* Deterministic uniform(-1, 1) numbers (a 64-bit LCG, top 53 bits). */
static unsigned long long rng_state = 0x9E3779B97F4A7C15ULL;
static double urand(void)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(rng_state >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

/* Gauss-Jordan with partial pivoting, the test's own: x = S^-1 r, S k x k. */
static int gj_solve(int k, double *S, double *r)
{
    int i, j, c, p;

    for (c = 0; c < k; c++) {
        p = c;
        for (i = c + 1; i < k; i++)
            if (fabs(S[i * k + c]) > fabs(S[p * k + c])) p = i;
        if (S[p * k + c] == 0.0) return 1;
        for (j = 0; j < k; j++) { double t = S[c * k + j]; S[c * k + j] = S[p * k + j]; S[p * k + j] = t; }
        { double t = r[c]; r[c] = r[p]; r[p] = t; }
        for (i = 0; i < k; i++) {
            double f;
            if (i == c) continue;
            f = S[i * k + c] / S[c * k + c];
            for (j = 0; j < k; j++) S[i * k + j] -= f * S[c * k + j];
            r[i] -= f * r[c];
        }
    }
    for (i = 0; i < k; i++) r[i] /= S[i * k + i];
    return 0;
}

/* Brute force: the complementary index set whose basic solution is the most
** feasible (for a P-matrix exactly one is feasible). */
static void lcp_brute(int n, const double *M, const double *q, double *z)
{
    double best = -INFINITY, S[100], r[10], zz[10];
    int set, i, j;

    for (set = 0; set < (1 << n); set++) {
        int ix[10], k = 0;
        double worst = INFINITY;
        for (i = 0; i < n; i++)
            if (set >> i & 1) ix[k++] = i;
        for (i = 0; i < k; i++) {
            for (j = 0; j < k; j++) S[i * k + j] = M[ix[i] * n + ix[j]];
            r[i] = -q[ix[i]];
        }
        if (k && gj_solve(k, S, r)) continue;
        for (i = 0; i < n; i++) zz[i] = 0;
        for (i = 0; i < k; i++) zz[ix[i]] = r[i];
        for (i = 0; i < n; i++) {
            double wi = q[i];
            for (j = 0; j < n; j++) wi += M[i * n + j] * zz[j];
            worst = fmin(worst, (set >> i & 1) ? zz[i] : wi);
        }
        if (worst > best) {
            best = worst;
            memcpy(z, zz, sizeof(double) * (size_t)n);
        }
    }
}

/* Random P-matrix: L L^T + diag (symmetric positive definite) plus, when
** skew, a skew-symmetric part (still positive definite, hence P). */
static void random_pmatrix(int n, double *M, int skew)
{
    double L[100];
    int i, j, l;

    for (i = 0; i < n * n; i++) L[i] = urand();
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            double s = i == j ? 0.1 + fabs(urand()) : 0.0;
            for (l = 0; l < n; l++) s += L[i * n + l] * L[j * n + l];
            M[i * n + j] = s;
        }
    if (skew)
        for (i = 0; i < n; i++)
            for (j = 0; j < i; j++) {
                double s = 2 * urand();
                M[i * n + j] += s;
                M[j * n + i] -= s;
            }
}

/* Check z >= 0, w = M z + q >= 0, z.w = 0 and agreement with zref. */
static void check_lcp(const char *what, int n, const double *M, const double *q, const double *z,
                      const double *w, const double *zref)
{
    double sc = 1.0, err = 0.0, comp = 0.0, neg = 0.0, res = 0.0;
    int i, j;

    for (i = 0; i < n; i++) sc = fmax(sc, fabs(q[i]) + fabs(zref[i]));
    for (i = 0; i < n; i++) {
        double wi = q[i];
        for (j = 0; j < n; j++) wi += M[i * n + j] * z[j];
        res = fmax(res, fabs(wi - w[i]));
        neg = fmin(neg, fmin(z[i], w[i]));
        comp += fabs(z[i] * w[i]);
        err = fmax(err, fabs(z[i] - zref[i]));
    }
    {
        char buf[120];
        snprintf(buf, sizeof buf, "%s: nonnegative", what);
        check_true(buf, neg >= 0.0);
        snprintf(buf, sizeof buf, "%s: complementary", what);
        check_true(buf, comp == 0.0);
        snprintf(buf, sizeof buf, "%s: w = Mz + q", what);
        check_close(buf, res / sc, 0.0, 1e-13);
        snprintf(buf, sizeof buf, "%s: z vs reference", what);
        check_close(buf, err / sc, 0.0, 1e-12);
    }
}

static void test_lcp(void)
{
    double M[100], q[10], z[10], w[10], zref[10], zs[10], ws[10];
    int n, trial, i, j;
    char what[80];

    /* 1x1 by hand: z = max(0, -q/m). */
    M[0] = 2.0; q[0] = -3.0; zref[0] = 1.5;
    check_true("lcp 1x1 rc", nsm_lcp_solve(1, M, q, z, w) == NSM_LA_OK);
    check_lcp("lcp 1x1", 1, M, q, z, w, zref);
    /* 2x2 by hand: M = [2 1; 1 2], q = (-1, 1): z = (1/2, 0), w = (0, 3/2). */
    M[0] = 2; M[1] = 1; M[2] = 1; M[3] = 2; q[0] = -1; q[1] = 1;
    zref[0] = 0.5; zref[1] = 0;
    check_true("lcp 2x2 rc", nsm_lcp_solve(2, M, q, z, w) == NSM_LA_OK);
    check_lcp("lcp 2x2", 2, M, q, z, w, zref);
    check_close("lcp 2x2 w1", w[1], 1.5, 1e-15);

    for (n = 1; n <= 10; n++) {
        for (trial = 0; trial < 30; trial++) {
            random_pmatrix(n, M, trial % 2);
            for (i = 0; i < n; i++) q[i] = 3 * urand();
            lcp_brute(n, M, q, zref);
            snprintf(what, sizeof what, "lcp random n=%d trial %d", n, trial);
            check_true(what, nsm_lcp_solve(n, M, q, z, w) == NSM_LA_OK);
            check_lcp(what, n, M, q, z, w, zref);
            /* Degenerate: planted solution with z_i = w_i = 0 on some indices. */
            for (i = 0; i < n; i++) {
                int kind = (int)((urand() + 1) * 1.5); /* 0, 1, 2 */
                zs[i] = kind == 1 ? 1 + urand() : 0.0;
                ws[i] = kind == 2 ? 1 + urand() : 0.0;
            }
            for (i = 0; i < n; i++) {
                q[i] = ws[i];
                for (j = 0; j < n; j++) q[i] -= M[i * n + j] * zs[j];
            }
            snprintf(what, sizeof what, "lcp degenerate n=%d trial %d", n, trial);
            check_true(what, nsm_lcp_solve(n, M, q, z, w) == NSM_LA_OK);
            check_lcp(what, n, M, q, z, w, zs);
        }
        /* q = 0: z = 0. */
        for (i = 0; i < n; i++) q[i] = 0.0, zref[i] = 0.0;
        check_true("lcp q=0 rc", nsm_lcp_solve(n, M, q, z, w) == NSM_LA_OK);
        check_lcp("lcp q=0", n, M, q, z, w, zref);
    }
    /* Redundant contacts (two gaps on the same pair): M = [1 1; 1 1] is only
     * positive semidefinite, Murty meets no singular block here but the
     * solution set is a segment; any z >= 0 with z0 + z1 = 1 is right. */
    M[0] = M[1] = M[2] = M[3] = 1; q[0] = q[1] = -1;
    check_true("lcp redundant rc", nsm_lcp_solve(2, M, q, z, w) == NSM_LA_OK);
    check_close("lcp redundant sum", z[0] + z[1], 1.0, 1e-15);
    check_true("lcp redundant sign", z[0] >= 0 && z[1] >= 0 && w[0] == 0 && w[1] == 0);
    /* Singular block on the pivoting path ({0, 1} with M = ones(3) and
     * q = (-1, -1, -2)): the solution z = (0, 0, 2) is still found. */
    for (i = 0; i < 9; i++) M[i] = 1;
    q[0] = -1; q[1] = -1; q[2] = -2;
    check_true("lcp singular path rc", nsm_lcp_solve(3, M, q, z, w) == NSM_LA_OK);
    for (i = 0; i < 3; i++) {
        double wi = q[i] + z[0] + z[1] + z[2];
        check_true("lcp singular path feasible", z[i] >= 0 && wi >= -1e-15 && fabs(z[i] * wi) < 1e-15);
    }
    /* No solution: w = -z - 1 can never be >= 0. */
    M[0] = -1; q[0] = -1;
    check_true("lcp infeasible", nsm_lcp_solve(1, M, q, z, w) == NSM_LA_NOCONV);
}

/* Larger LCP (beyond the enumeration fallback): planted solution, n = 30. */
static void test_lcp_large(void)
{
    enum { N = 30 };
    static double M[N * N], L[N * N];
    double q[N], z[N], w[N], zs[N], ws[N];
    int i, j, l;

    for (i = 0; i < N * N; i++) L[i] = urand() / sqrt((double)N);
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) {
            double s = i == j ? 0.5 : 0.0;
            for (l = 0; l < N; l++) s += L[i * N + l] * L[j * N + l];
            M[i * N + j] = s;
        }
    for (i = 0; i < N; i++) {
        zs[i] = i % 3 == 0 ? 1 + urand() : 0.0;
        ws[i] = i % 3 == 1 ? 1 + urand() : 0.0;
    }
    for (i = 0; i < N; i++) {
        q[i] = ws[i];
        for (j = 0; j < N; j++) q[i] -= M[i * N + j] * zs[j];
    }
    check_true("lcp n=30 rc", nsm_lcp_solve(N, M, q, z, w) == NSM_LA_OK);
    check_lcp("lcp n=30", N, M, q, z, w, zs);
}

int main(void)
{
    test_solve();
    test_norms();

    test_rotation(1.0, 0.1, 2e-16);
    test_rotation(1.0, 1.0, 4e-16);
    test_rotation(2.0, 3.0, 2e-15);
    test_rotation(1.0, 100.0, 2e-14);
    test_rotation(1.0, 1000.0, 1e-12);
    test_jordan(0.0, 0.5);
    test_jordan(0.0, 7.0);
    test_jordan(-2.0, 1.5);
    test_jordan(-2.0, 20.0);
    test_diagonalizable(0.3);
    test_diagonalizable(2.0);
    test_diagonalizable(10.0);
    /* Dedow & Murphy: m = 5, k = 2, c = 1; code_aster SDND121 stiff stop; a
     * light mass on a stiff spring over long horizons. */
    test_oscillator(2.0, 5.0, 1.0, 0.01, 1e-15);
    test_oscillator(2.0, 5.0, 1.0, 3.0, 1e-15);
    test_oscillator(2.0, 5.0, 1.0, 40.0, 1e-15);
    test_oscillator(1e10, 156.0, 0.0, 1e-5, 1e-15);
    test_oscillator(1e10 + 2e6, 156.0, 0.0, 3.9e-4, 1e-14);
    test_oscillator(1e10, 156.0, 100.0, 2e-3, 2e-14);
    test_oscillator(100.0, 1e-3, 0.01, 0.05, 1e-14);
    test_tiny();
    test_chain(1e-3, 1e-14);
    test_chain(0.09, 5e-14);
    test_chain(1.0, 2e-13);
    test_big_rotations();
    test_ld_rotation(1.0, 0.001, 4);
    test_ld_rotation(1.0, 1.0, 8);
    test_ld_rotation(2.0, 3.0, 32);
    test_ld_rotation(1.0, 32.768, 256);
    test_ld_flight(9.81, 1e-3);
    test_ld_flight(9.81, 0.9030472819714618);
    test_ld_oscillator(1e10, 156.0, 1e-5);
    test_ld_oscillator(1e10 + 2e6, 156.0, 3.9e-4);

    test_quad_oscillator(1.0, 0.5);
    test_quad_oscillator(3.0, 10.0);
    test_quad_oscillator(8006.0, 3.9e-4);
    test_quad_lyapunov();
    test_quad_chain(0.01);
    test_quad_chain(0.2);

    test_lcp();
    test_lcp_large();

    return check_report();
}
