/*
** test_energy.c: the energy terms against hand computations, and the energy
** balance of an exact trajectory (matrix exponential plus Van Loan integrals
** of the dissipation and power forms) as an independent physical check.
*/
#include "energy.h"
#include "linalg.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int failures, checks;

static void check_close(const char *what, double got, double want, double tol)
{
    checks++;
    if (!(fabs(got - want) <= tol)) {
        failures++;
        printf("FAIL %s: got %.17g want %.17g (diff %.3g, tol %.3g)\n", what, got, want,
               fabs(got - want), tol);
    }
}

/*
** Two bodies, m = (2, 3), y = (x1, x2, v1, v2) = (0.5, -0.25, 1, -2).
** Springs: ground-1 (k 10, rest 0.1), 1-2 (k 4, rest 0.2), 2-ground (k 6, rest 0).
** Dampers: c1 = 1 (ground-1), c12 = 0.5, c2 = 2 (2-ground).
** Gaps: 0 penalty w = (-1, 1), d = 0.5, kc 100, cc 3;
**       1 impact  w = (1, 0),  d = 0;
**       2 penalty w = (0, 1),  d = 1,   kc 8,   cc 5.
*/
static const int N = 2, G = 3;
static const double mass[2] = {2, 3};
static const double ystate[4] = {0.5, -0.25, 1.0, -2.0};
static const nsm_spring_info springs[3] = {{"s1", -1, 0}, {"s12", 0, 1}, {"s2", 1, -1}};
static const double sk[3] = {10, 4, 6}, srest[3] = {0.1, 0.2, 0.0};
static const double C[4] = {1.5, -0.5, -0.5, 2.5};
static const int law[3] = {NSM_LAW_PENALTY, NSM_LAW_IMPACT, NSM_LAW_PENALTY};
static const double W[6] = {-1, 1, 1, 0, 0, 1}, d[3] = {0.5, 0, 1};
static const double kc[3] = {100, 0, 8}, cc[3] = {3, 0, 5};

/* The test's own quadratic forms on an augmented state of dimension ld
** (x, v, z...): the dissipated power v^T C v + sum over engaged penalty
** gaps cc (w . v)^2, and the power (B z) . v, written from their
** definitions for the balance check below. */
static void dissipation_form(unsigned mode, int ld, double *Q)
{
    memset(Q, 0, sizeof(double) * (size_t)ld * (size_t)ld);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            Q[(N + i) * ld + N + j] = 0.5 * (C[i * N + j] + C[j * N + i]);
    for (int l = 0; l < G; l++) {
        if (!(mode >> l & 1u) || law[l] != NSM_LAW_PENALTY)
            continue;
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                Q[(N + i) * ld + N + j] += cc[l] * W[l * N + i] * W[l * N + j];
    }
}

static void power_form(const double *B, int ld, double *Q)
{
    memset(Q, 0, sizeof(double) * (size_t)ld * (size_t)ld);
    for (int i = 0; i < N; i++) {
        Q[(N + i) * ld + 2 * N] = 0.5 * B[i];
        Q[(2 * N) * ld + N + i] = 0.5 * B[i];
    }
}

/* The engaged penalty gaps' potential, sum 1/2 kc_j p_j^2 with p_j = -(w_j . x
** + d_j), written out here: the balance below checks the expm_quad integrals
** against it. */
static double penalty_energy(unsigned mode, const double *y)
{
    double e = 0;
    for (int j = 0; j < G; j++) {
        if (!(mode >> j & 1u) || law[j] != NSM_LAW_PENALTY)
            continue;
        double p = -d[j];
        for (int i = 0; i < N; i++)
            p -= W[j * N + i] * y[i];
        e += 0.5 * kc[j] * p * p;
    }
    return e;
}

/* y^T Q y on a D = 5 state. */
static double form_value(const double *Q, const double *y)
{
    double q = 0;
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++)
            q += y[i] * Q[i * 5 + j] * y[j];
    return q;
}

static void test_hand(void)
{
    double f[2] = {3, -1}, Q[25], y5[5], B[2] = {0.5, -1.5}, yz[5] = {0.5, -0.25, 1.0, -2.0, 4.0};
    int i, j;

    /* 1/2 2 1^2 + 1/2 3 (-2)^2 = 1 + 6 */
    check_close("kinetic", nsm_energy_kinetic(N, mass, ystate), 7.0, 1e-15);
    /* ext = 0.4, -0.95, 0.25: 0.8 + 1.805 + 0.1875 */
    check_close("springs", nsm_energy_springs(N, 3, springs, sk, srest, ystate), 2.7925, 1e-15);
    /* 2 g 0.5 + 3 g (-0.25) = 0.25 g */
    check_close("gravity", nsm_energy_gravity(N, mass, NULL, 9.81, ystate), 2.4525, 1e-15);
    /* v^T C v = 1.5 + 2 + 10 = 13.5; gap 0: 3 (-3)^2 = 27; gap 2: 5 (-2)^2 = 20
     * (the test's own form, checked by hand before it checks the runtime) */
    memcpy(y5, ystate, sizeof ystate);
    y5[4] = 123.0;
    dissipation_form(0u, 5, Q);
    check_close("dissipation mode 000", form_value(Q, y5), 13.5, 1e-15);
    dissipation_form(3u, 5, Q);
    check_close("dissipation mode 011", form_value(Q, y5), 40.5, 1e-14);
    /* 3 1 + (-1)(-2) */
    check_close("power", nsm_energy_power(N, f, ystate), 5.0, 1e-15);

    /* The form of mode 111, embedded in a 5-dimensional augmented state. */
    dissipation_form(7u, 5, Q);
    check_close("dissipation form", form_value(Q, y5), 60.5, 1e-13);
    for (i = 0; i < 5; i++)
        for (j = 0; j < 5; j++) {
            check_close("dissipation form symmetric", Q[i * 5 + j], Q[j * 5 + i], 0.0);
            if (i < N || j < N || i == 4 || j == 4) check_close("dissipation form zero", Q[i * 5 + j], 0.0, 0.0);
        }
    /* Q_vv = C + 3 w0 w0^T + 5 w2 w2^T = [[4.5, -3.5], [-3.5, 10.5]] */
    check_close("form vv00", Q[2 * 5 + 2], 4.5, 1e-15);
    check_close("form vv01", Q[2 * 5 + 3], -3.5, 1e-15);
    check_close("form vv11", Q[3 * 5 + 3], 10.5, 1e-15);

    /* Power form: f = B z = (2, -6), f . v = 2 + 12 = 14. */
    power_form(B, 5, Q);
    check_close("power form", form_value(Q, yz), 14.0, 1e-14);
}

/*
** Energy balance over an exact step. Augmented state Y = (x, v, z), z' = 0,
** z = 1, for the example above in mode 101 (penalty gaps 0 and 2 engaged):
**   M v' = -K_t x - C_t v + b z,
**   K_t = K + sum kc w w^T,  C_t = C + sum cc w w^T,
**   b = rest-length forces - kc d w - m g.
** With gravity as a potential: E = T + V_springs + V_penalty + V_gravity
** drops by exactly the dissipated energy Y0^T I_diss Y0. With gravity as an
** external force f = -m g = B z: T + V_springs + V_penalty changes by the work
** Y0^T I_pow Y0 minus the dissipated energy.
*/
static void test_balance(double h)
{
    enum { D = 5 };
    unsigned mode = 5u;
    double g = 9.81, K[4] = {0}, Ct[4], Kt[4], b[2] = {0}, A[D * D] = {0};
    double E[D * D], Id[D * D], Ip[D * D], Qd[D * D], Qp[D * D], Bg[2], Y0[D], Y1[D];
    double e0, e1, diss = 0.0, work = 0.0, m0, m1, scale;
    int s, i, j, l;
    char what[80];

    for (s = 0; s < 3; s++) {
        int a = springs[s].a, c = springs[s].b;
        if (a >= 0) K[a * N + a] += sk[s], b[a] -= sk[s] * srest[s];
        if (c >= 0) K[c * N + c] += sk[s], b[c] += sk[s] * srest[s];
        if (a >= 0 && c >= 0) K[a * N + c] -= sk[s], K[c * N + a] -= sk[s];
    }
    memcpy(Kt, K, sizeof K);
    memcpy(Ct, C, sizeof Ct);
    for (l = 0; l < G; l++) {
        if (!(mode >> l & 1u)) continue;
        for (i = 0; i < N; i++) {
            for (j = 0; j < N; j++) {
                Kt[i * N + j] += kc[l] * W[l * N + i] * W[l * N + j];
                Ct[i * N + j] += cc[l] * W[l * N + i] * W[l * N + j];
            }
            b[i] -= kc[l] * d[l] * W[l * N + i];
        }
    }
    for (i = 0; i < N; i++) {
        A[i * D + N + i] = 1.0;
        for (j = 0; j < N; j++) {
            A[(N + i) * D + j] = -Kt[i * N + j] / mass[i];
            A[(N + i) * D + N + j] = -Ct[i * N + j] / mass[i];
        }
        A[(N + i) * D + 2 * N] = (b[i] - mass[i] * g) / mass[i];
        Bg[i] = -mass[i] * g;
    }
    memcpy(Y0, ystate, sizeof ystate);
    Y0[4] = 1.0;
    dissipation_form(mode, D, Qd);
    power_form(Bg, D, Qp);
    check_close("balance expm_quad rc", nsm_expm_quad(D, A, Qd, h, E, Id), 0, 0);
    check_close("balance expm_quad rc", nsm_expm_quad(D, A, Qp, h, NULL, Ip), 0, 0);
    nsm_la_matvec(D, D, E, Y0, Y1);
    for (i = 0; i < D; i++)
        for (j = 0; j < D; j++) {
            diss += Y0[i] * Id[i * D + j] * Y0[j];
            work += Y0[i] * Ip[i * D + j] * Y0[j];
        }
    m0 = nsm_energy_kinetic(N, mass, Y0) + nsm_energy_springs(N, 3, springs, sk, srest, Y0) +
         penalty_energy(mode, Y0);
    m1 = nsm_energy_kinetic(N, mass, Y1) + nsm_energy_springs(N, 3, springs, sk, srest, Y1) +
         penalty_energy(mode, Y1);
    e0 = m0 + nsm_energy_gravity(N, mass, NULL, g, Y0);
    e1 = m1 + nsm_energy_gravity(N, mass, NULL, g, Y1);
    scale = fabs(e0) + fabs(diss);
    /* Rounding in the Van Loan integral grows about linearly with h (the
     * equilibrium is a neutral direction of the doubling), hence the h term. */
    snprintf(what, sizeof what, "balance, gravity potential, h=%g", h);
    check_close(what, (e0 - e1 - diss) / scale, 0.0, 1e-13 * (1 + h / 10));
    snprintf(what, sizeof what, "balance, gravity work, h=%g", h);
    check_close(what, (m1 - m0 - work + diss) / (scale + fabs(work)), 0.0, 1e-13 * (1 + h / 10));
    snprintf(what, sizeof what, "dissipation positive, h=%g", h);
    check_close(what, diss > 0.0, 1.0, 0.0);
}

int main(void)
{
    test_hand();
    test_balance(1e-3);
    test_balance(0.1);
    test_balance(2.0);
    test_balance(50.0);
    printf("%d checks, %d failures\n", checks, failures);
    return failures != 0;
}
