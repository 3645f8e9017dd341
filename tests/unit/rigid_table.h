/*
** rigid_table.h: the hand-written pieces of a model table with one body in
** space, shared by test_rigid.c, test_rigid_contact.c and
** test_spacefric.c (written here from the Newton-Euler equations and the
** contract of a body in space's curved gap in nsm/model.h, independently
** of nsmc).
**
** The state's layout: q = (x, y, z, p1, p2, p3, p0), u = (vx, vy, vz, w1,
** w2, w3), w in the body frame; the parameters hold the principal inertias
** I1, I2, I3 at p[1], p[2], p[3] (p[0] the mass).
*/
#ifndef NSM_TEST_RIGID_TABLE_H
#define NSM_TEST_RIGID_TABLE_H

#include <math.h>

#include "nsm/model.h"

enum { RB_NB = 6, RB_NQ = 7, RB_P1 = 3, RB_P0 = 6, RB_U = RB_NQ, RB_W1 = RB_NQ + 3 };

/* The numbers of the setup every such table shares: the masses diag(m, m,
** m, I1, I2, I3), the weight -m g on z as a constant force (gfac 1 on z,
** for the audit's potential). */
static inline void rigid_masses(const double *p, nsm_numeric *num)
{
    for (int i = 0; i < 3; i++) {
        num->mass[i] = p[0];
        num->mass[3 + i] = p[1 + i];
        num->gfac[i] = num->gfac[3 + i] = 0;
        num->fconst[i] = num->fconst[3 + i] = 0;
    }
    num->gravity = p[4];
    num->gfac[2] = 1;
    num->fconst[2] = -p[0] * p[4];
}

/* Euler's equations' gyroscopic torques -w x I w on the body-frame rows. */
static inline void rigid_nl_force(double t, const double *y, const int *sw, const double *p,
                           const double *c, double *F)
{
    (void)t, (void)sw, (void)c;
    const double *w = y + RB_W1;
    F[3] += (p[2] - p[3]) * w[1] * w[2];
    F[4] += (p[3] - p[1]) * w[2] * w[0];
    F[5] += (p[1] - p[2]) * w[0] * w[1];
}

/* q' = B(q) u: r' = v, p' = p (x) (0, w) / 2. */
static inline void rigid_kin(const double *y, const double *p, const double *c, double *qd)
{
    (void)p, (void)c;
    double p0 = y[RB_P0], p1 = y[RB_P1], p2 = y[RB_P1 + 1], p3 = y[RB_P1 + 2];
    const double *w = y + RB_W1;
    for (int i = 0; i < 3; i++)
        qd[i] = y[RB_U + i];
    qd[RB_P0] = -0.5 * (p1 * w[0] + p2 * w[1] + p3 * w[2]);
    qd[RB_P1] = 0.5 * (p0 * w[0] + p2 * w[2] - p3 * w[1]);
    qd[RB_P1 + 1] = 0.5 * (p0 * w[1] + p3 * w[0] - p1 * w[2]);
    qd[RB_P1 + 2] = 0.5 * (p0 * w[2] + p1 * w[1] - p2 * w[0]);
}

/* The rotation of the quaternion in y, homogeneous: R(p) / |p|^2. */
static inline void rigid_rotation(const double *y, double R[3][3])
{
    double w = y[RB_P0], x = y[RB_P1], yy = y[RB_P1 + 1], z = y[RB_P1 + 2];
    double s = 1 / (w * w + x * x + yy * yy + z * z);
    double M[3][3] = {
        { w * w + x * x - yy * yy - z * z, 2 * (x * yy - w * z), 2 * (x * z + w * yy) },
        { 2 * (x * yy + w * z), w * w - x * x + yy * yy - z * z, 2 * (yy * z - w * x) },
        { 2 * (x * z - w * yy), 2 * (yy * z + w * x), w * w - x * x - yy * yy + z * z },
    };
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++)
            R[i][k] = M[i][k] * s;
}

/* out = a x b. */
static inline void rigid_cross(const double *a, const double *b, double *out)
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* a . b over three components. */
static inline double rigid_dot(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* One sphere (0, 0, a), radius rho, against the plane n . x = 0: its gap,
** curvature term and row of W over the velocities (nsm/model.h). */
static inline void rigid_sphere_gap(const double *y, double R[3][3], const double *n, double a,
                                    double rho, double *g, double *curv, double *wval)
{
    double cb[3] = { 0, 0, a }, nb[3], wc[3], wwc[3], k[3];
    for (int i = 0; i < 3; i++)
        nb[i] = R[0][i] * n[0] + R[1][i] * n[1] + R[2][i] * n[2];
    double ctr = 0;
    for (int i = 0; i < 3; i++)
        ctr += n[i] * (y[i] + rigid_dot(R[i], cb));
    *g = ctr - rho;
    rigid_cross(cb, nb, k);
    for (int i = 0; i < 3; i++) {
        wval[i] = n[i];
        wval[3 + i] = k[i];
    }
    rigid_cross(y + RB_W1, cb, wc);
    rigid_cross(y + RB_W1, wc, wwc);
    *curv = rigid_dot(nb, wwc);
}

#endif
