/*
 * test_nl_series.c - a nonlinear model's generated nl_series, nl_gap and
 * nl_force (tests/unit/nl_series.nsm, compiled by nsmc at build time)
 * against references computed here independently of the compiler:
 *
 *  - the Taylor coefficients of every force and of the curved gap, its
 *    curvature term and W entries, with the state's series x_i(tau) =
 *    a_i + b_i tau + c_i tau^2, against the Cauchy integral
 *    f_k = (1/N) sum_j f(r w^j) w^(-jk) / r^k (w = e^(2 pi i/N)) of the same
 *    expressions written here in complex arithmetic;
 *  - the torque -F0 L sin(phi) with phi = a + b tau against the closed form
 *    -F0 L sin(a + k pi/2) b^k / k!, and B.x's function of time alone
 *    (a sinusoid, an exponential and a parabola of t) against theirs;
 *  - nl_gap's W row and curvature term against central finite differences
 *    of g, and nl_force against the order-0 forces.
 */
#define _POSIX_C_SOURCE 200809L
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nsm/model.h"

extern const nsm_model nsm_model_nl_series;

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

enum { N = 8, K = 14, K1 = K + 1, NCIRC = 128 };

static int failures;

/* Reports a mismatch beyond tol relative to scale. */
static void check(const char *what, int k, double got, double want, double scale, double tol)
{
    if (fabs(got - want) <= tol * (scale > 1 ? scale : 1))
        return;
    printf("FAIL %s order %d: got %.17g, want %.17g\n", what, k, got, want);
    failures++;
}

/* The state's series: y_i(tau) = a_i + b_i tau + c_i tau^2 (positions then
 * velocities; not a trajectory, the recurrences do not need one). */
static const double A0[2 * N] = {0.3, -0.2, 0.05, 0.1, 0.4, 0.35, 0.12, 0,
                                 0.6, -0.3, 0.2, 0.1, 1.5, -0.4, 0.05, 0};
static const double B0[2 * N] = {0.5, 0.2, -0.1, 0.0, 0.8, 0.2, -0.1, 0,
                                 -0.2, 0.4, 0.1, -0.3, 0.2, 0.5, 0.3, 0};
static const double C0[2 * N] = {-0.1, 0.05, 0, 0.02, 0, 0.1, 0.03, 0,
                                 0.1, -0.05, 0, 0.02, 0, -0.1, 0.05, 0};
static const double T0 = 0.4;

/* The parameters' defaults (L = V = T = F0 = 1, a = 0.7). */
static double P[5];

typedef struct Cx {
    double complex y[2 * N];
    double complex t;
} Cx;

/* Every reference output at one complex tau: forces (N), g, curvature, W (4). */
static void reference(double complex tau, double complex *out)
{
    Cx s;
    for (int i = 0; i < 2 * N; i++)
        s.y[i] = A0[i] + B0[i] * tau + C0[i] * tau * tau;
    s.t = T0 + tau;
    double L = P[0], V = P[1], T = P[2], F0 = P[3], a = P[4];
    double complex x1 = s.y[0] / L, x2 = s.y[1] / L, v1 = s.y[8] / V, v2 = s.y[9] / V;
    for (int i = 0; i < N; i++)
        out[i] = 0;
    out[0] = F0 * (csin(x1) * ccos(x2) + cexp(-v1) + clog(2 + v2) * x1 * x1 * x1) + F0 * a;
    out[1] = F0 * (csqrt(1 + x1 * x1) + 1 / ((x2 + 3) * (x2 + 3)) + ctan(x2) / (2 + ccos(s.t / T)) +
                   cpow(1.5 + x1, a));
    out[4] = -F0 * L * csin(s.y[4]);
    double complex tt = s.t / T;
    out[2] = F0 * (csin(2 * tt + 0.3) * x1 + cexp(-tt) * ccos(3 * tt) + (1 + tt) * (1 + tt) * (1 + tt) -
                   2 * tt * tt + ctan(tt / 4));
    out[5] = F0 * (csin(2 * tt + 0.3) + cexp(-tt) + 0.5 * tt * tt);
    /* touch: d = B - A, g = |d| - 0.2, g'' - W a = (|d'|^2 - (n . d')^2)/|d| */
    double complex dx = s.y[5] - s.y[2], dy = s.y[6] - s.y[3];
    double complex ux = s.y[13] - s.y[10], uy = s.y[14] - s.y[11];
    double complex r = csqrt(dx * dx + dy * dy);
    double complex nu = (dx * ux + dy * uy) / r;
    out[N] = r - 0.2;
    out[N + 1] = (ux * ux + uy * uy - nu * nu) / r;
    out[N + 2] = -dx / r;   /* d/d A.x */
    out[N + 3] = -dy / r;   /* d/d A.y */
    out[N + 4] = dx / r;    /* d/d B.x */
    out[N + 5] = dy / r;    /* d/d B.y */
}

enum { NOUT = N + 6 };

/* Taylor coefficients 0..K of every reference output by the Cauchy integral
 * on the circle |tau| = rad. */
static void cauchy(double rad, double ref[NOUT][K1])
{
    memset(ref, 0, sizeof(double) * NOUT * K1);
    for (int j = 0; j < NCIRC; j++) {
        double th = 2 * M_PI * j / NCIRC;
        double complex out[NOUT];
        reference(rad * cexp(I * th), out);
        for (int q = 0; q < NOUT; q++)
            for (int k = 0; k <= K; k++)
                ref[q][k] += creal(out[q] * cexp(-I * th * k)) / NCIRC / pow(rad, k);
    }
}

/* Runs nl_series for orders 0..K and compares with the references. */
static void test_series(const nsm_model *m)
{
    static double X[2 * N * K1], work[8192], F[N * K1], G[K1], CV[K1], WV[4 * K1];
    static double ref[NOUT][K1];
    if (m->nl_nwork * K1 > 8192) {
        printf("FAIL work array too small (%d rows)\n", m->nl_nwork);
        failures++;
        return;
    }
    int sw[1] = {0};
    double c[64] = {0};
    for (int i = 0; i < 2 * N; i++) {
        X[i * K1 + 0] = A0[i];
        X[i * K1 + 1] = B0[i];
        X[i * K1 + 2] = C0[i];
    }
    for (int k = 0; k <= K; k++)
        m->nl_series(k, K, T0, X, sw, P, c, work, F, G, CV, WV);
    cauchy(0.4, ref);   /* inside every singularity of the test series (|tau| > 0.9) */
    const char *names[N] = {"F M1", "F M2", "F A.x", "F A.y", "F A.phi", "F B.x", "F B.y", "F B.phi"};
    for (int i = 0; i < N; i++)
        for (int k = 0; k <= K; k++)
            check(names[i], k, F[i * K1 + k], ref[i][k], fabs(ref[i][0]), 1e-10);
    for (int k = 0; k <= K; k++) {
        check("G touch", k, G[k], ref[N][k], 1, 1e-10);
        check("CV touch", k, CV[k], ref[N + 1][k], fabs(ref[N + 1][0]), 1e-10);
        for (int q = 0; q < 4; q++)
            check("WV touch", k, WV[q * K1 + k], ref[N + 2 + q][k], 1, 1e-10);
    }
    /* the torque's closed form: -F0 L sin(a + b tau) (A.phi's series is linear: C0[4] = 0) */
    double fact, bk;
    fact = 1, bk = 1;
    for (int k = 0; k <= K; k++) {
        if (k)
            fact *= k, bk *= B0[4];
        check("sin closed form", k, F[4 * K1 + k], -P[3] * P[0] * sin(A0[4] + k * M_PI / 2) * bk / fact,
              1, 1e-14);
    }
    /* B.x, a function of time alone (T = 1): F0 (sin(2 t + 0.3) + e^-t + t^2/2) at t = T0 + tau
     * has the coefficients F0 (2^k sin(2 T0 + 0.3 + k pi/2) + (-1)^k e^-T0) / k! + the parabola's */
    fact = 1, bk = 1;
    for (int k = 0; k <= K; k++) {
        if (k)
            fact *= k, bk *= 2;
        double want = (bk * sin(2 * T0 + 0.3 + k * M_PI / 2) + (k % 2 ? -1 : 1) * exp(-T0)) / fact;
        want += k == 0 ? 0.5 * T0 * T0 : k == 1 ? T0 : k == 2 ? 0.5 : 0;
        check("functions of time closed form", k, F[5 * K1 + k], P[3] * want, 1, 1e-14);
    }
}

/* nl_gap against finite differences of g; nl_force against order 0. */
static void test_gap_force(const nsm_model *m)
{
    double y[2 * N], g[1], cv[1], wv[4], c[64] = {0};
    int sw[1] = {0};
    memcpy(y, A0, sizeof y);
    m->nl_gap(y, P, c, g, cv, wv);
    double complex out[NOUT];
    reference(0, out);
    check("nl_gap g", 0, g[0], creal(out[N]), 1, 1e-15);
    const int cols[4] = {2, 3, 5, 6};
    double h = 1e-5;
    for (int q = 0; q < 4; q++) {
        double yp[2 * N], ym[2 * N], gp[1], gm[1], d1[1], d2[4];
        memcpy(yp, y, sizeof y);
        memcpy(ym, y, sizeof y);
        yp[cols[q]] += h;
        ym[cols[q]] -= h;
        m->nl_gap(yp, P, c, gp, d1, d2);
        m->nl_gap(ym, P, c, gm, d1, d2);
        check("nl_gap W vs finite differences", q, wv[q], (gp[0] - gm[0]) / (2 * h), 1, 1e-9);
    }
    /* v^T g'' v = d2/ds2 g(x + s v) at s = 0 */
    double hs = 1e-4, gs[3], d1[1], d2[4];
    for (int s = -1; s <= 1; s++) {
        double ys[2 * N];
        memcpy(ys, y, sizeof y);
        for (int i = 0; i < N; i++)
            ys[i] += s * hs * y[N + i];
        m->nl_gap(ys, P, c, gs + s + 1, d1, d2);
    }
    check("nl_gap curvature vs finite differences", 0, cv[0], (gs[0] - 2 * gs[1] + gs[2]) / (hs * hs), 1, 1e-6);
    double Fn[N] = {0};
    m->nl_force(T0, y, sw, P, c, Fn);
    double fe[N] = {0};
    m->force(T0, sw, P, c, fe);
    for (int i = 0; i < N; i++)
        check("nl_force + force vs every force", i, Fn[i] + fe[i], creal(out[i]), 1, 1e-14);
}

int main(void)
{
    const nsm_model *m = &nsm_model_nl_series;
    for (int i = 0; i < m->n_params && i < 5; i++)
        P[i] = m->params[i].value;
    if (m->nl != (NSM_NL_FORCE | NSM_NL_GAP) || !m->nl_series || !m->nl_gap || !m->nl_force ||
        m->n_wcurved != 4 || !m->gap_curved[0] || m->gap_ncols[0] != 4) {
        printf("FAIL the model's nonlinear tables\n");
        return 1;
    }
    test_series(m);
    test_gap_force(m);
    if (failures) {
        printf("%d failure(s)\n", failures);
        return 1;
    }
    printf("nl_series, nl_gap and nl_force match their references\n");
    return 0;
}
