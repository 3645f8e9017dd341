/*
** energy.c: energy terms of a model for the runtime's energy audit.
**
** Pure functions: no state, no output. The potentials are those whose
** gradients give the forces of nsm/model.h's equations of motion, so that
** kinetic + potentials - injected + dissipated is constant along an exact
** trajectory of any mode.
*/
#include "energy.h"

#include <string.h>

/* Is gap j an engaged penalty gap in this mode? */
static int penalty_engaged(int j, unsigned mode, const int *law)
{
    return j < (int)(8 * sizeof mode) && (mode >> j & 1u) && law[j] == NSM_LAW_PENALTY;
}

/* w_j . u for row j of W (g*n). */
static double row_dot(int n, const double *W, int j, const double *u)
{
    double s = 0.0;
    int i;

    for (i = 0; i < n; i++) s += W[j * n + i] * u[i];
    return s;
}

/* 1/2 sum m v^2. */
double nsm_energy_kinetic(int n, const double *mass, const double *y)
{
    double e = 0.0;
    int i;

    for (i = 0; i < n; i++) e += mass[i] * y[n + i] * y[n + i];
    return 0.5 * e;
}

/* 1/2 sum k ext^2 over spring elements, the ground's position being 0. */
double nsm_energy_springs(int n, int n_springs, const nsm_spring_info *sp, const double *sk,
                          const double *srest, const double *y)
{
    double e = 0.0;
    int s;

    (void)n;
    for (s = 0; s < n_springs; s++) {
        double xa = sp[s].a >= 0 ? y[sp[s].a] : 0.0;
        double xb = sp[s].b >= 0 ? y[sp[s].b] : 0.0;
        double ext = xb - xa - srest[s];
        e += sk[s] * ext * ext;
    }
    return 0.5 * e;
}

/* sum m g gfac x: the potential of the weight -m g gfac (gfac NULL: 1, the
** line; a planar coordinate's gfac is minus gravity's direction along it). */
double nsm_energy_gravity(int n, const double *mass, const double *gfac, double g,
                          const double *y)
{
    double e = 0.0;
    int i;

    for (i = 0; i < n; i++) e += mass[i] * (gfac ? gfac[i] : 1.0) * y[i];
    return g * e;
}

/* 1/2 sum kc p^2 over engaged penalty gaps, p = -(w . x + d). */
double nsm_energy_penalty(int n, int g, unsigned mode, const int *law, const double *W,
                          const double *d, const double *kc, const double *y)
{
    double e = 0.0;
    int j;

    for (j = 0; j < g; j++) {
        double p;
        if (!penalty_engaged(j, mode, law)) continue;
        p = -(row_dot(n, W, j, y) + d[j]);
        e += kc[j] * p * p;
    }
    return 0.5 * e;
}

/* v^T C v + sum cc (w . v)^2 over engaged penalty gaps. */
double nsm_energy_dissipation_rate(int n, int g, unsigned mode, const int *law, const double *C,
                                   const double *W, const double *cc, const double *y)
{
    const double *v = y + n;
    double r = 0.0;
    int i, j;

    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) r += v[i] * C[i * n + j] * v[j];
    for (j = 0; j < g; j++) {
        double wv;
        if (!penalty_engaged(j, mode, law)) continue;
        wv = row_dot(n, W, j, v);
        r += cc[j] * wv * wv;
    }
    return r;
}

/* f . v. */
double nsm_energy_power(int n, const double *f, const double *y)
{
    double p = 0.0;
    int i;

    for (i = 0; i < n; i++) p += f[i] * y[n + i];
    return p;
}

/* Q = [[0, 0], [0, sym(C) + sum cc_j w_j w_j^T]] embedded in ld x ld zeros. */
void nsm_energy_dissipation_form(int n, int g, unsigned mode, const int *law, const double *C,
                                 const double *W, const double *cc, int ld, double *Q)
{
    int i, j, l;

    memset(Q, 0, sizeof(double) * (size_t)ld * (size_t)ld);
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) Q[(n + i) * ld + n + j] = 0.5 * (C[i * n + j] + C[j * n + i]);
    for (l = 0; l < g; l++) {
        if (!penalty_engaged(l, mode, law)) continue;
        for (i = 0; i < n; i++)
            for (j = 0; j < n; j++) Q[(n + i) * ld + n + j] += cc[l] * W[l * n + i] * W[l * n + j];
    }
}

/* Q[v_i][z_k] = Q[z_k][v_i] = B_ik / 2, zero elsewhere. */
void nsm_energy_power_form(int n, int n_gen, const double *B, int ld, double *Q)
{
    int i, k;

    memset(Q, 0, sizeof(double) * (size_t)ld * (size_t)ld);
    for (i = 0; i < n; i++)
        for (k = 0; k < n_gen; k++) {
            Q[(n + i) * ld + 2 * n + k] = 0.5 * B[i * n_gen + k];
            Q[(2 * n + k) * ld + n + i] = 0.5 * B[i * n_gen + k];
        }
}
