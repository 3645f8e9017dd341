/*
** space_ref.h: the vector algebra and the closed forms that the tests of
** bodies in space share (tests/unit/test_rigid_contact.c on a table
** written by hand, tests/rigid/test_spheres.c on nsmc's tables), written
** here independently of the runtime and of nsmc (and a generated table's
** output column by its name): the cross and dot
** products, Rodrigues' rotation, and an eccentric sphere's first impact
** on a horizontal floor by Newton's law (docs/theory.md section 19).
*/
#ifndef NSM_TEST_SPACE_REF_H
#define NSM_TEST_SPACE_REF_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nsm/model.h"
#include "nsm/nsm.h"

/* Output column `name` of table m at the state of s (NAN, with a line
** saying so, when m has no such column). */
static inline double model_column(const nsm_model *m, const nsm_sim *s, const char *name)
{
    for (int k = 0; k < m->n_outputs; k++)
        if (strcmp(m->outputs[k].name, name) == 0)
            return nsm_sim_output(s, k);
    printf("no output column '%s'\n", name);
    return NAN;
}

static inline double dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* out = a x b. */
static inline void cross(const double *a, const double *b, double *out)
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* Rodrigues' rotation matrix of angle th about the unit axis k (the
** references' own, not a table's quaternion formula). */
static inline void rodrigues(double th, const double *k, double R[3][3])
{
    double c = cos(th), sn = sin(th);
    double K[3][3] = { { 0, -k[2], k[1] }, { k[2], 0, -k[0] }, { -k[1], k[0], 0 } };
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            R[i][j] = (i == j) + sn * K[i][j] + (1 - c) * (k[i] * k[j] - (i == j));
}

/* The first impact of a sphere (radius rho, centred at body point c) of a
** body of mass m and principal inertias I, dropped without spin from
** height z0, rotated by th about the unit axis ax, onto the floor z = 0
** under gravity g with restitution e: the time t1 (the root of
** z0 - g t^2/2 + (R0 c)_z - rho), the gap's rate gd before it, the row
** k = c x n_b (n_b = R0^T e_z), D = 1/m + sum k_i^2 / I_i and the impulse
** P = -(1 + e) gd / D; after it v_z = gd + P/m and w = k P / I. */
typedef struct DropRef {
    double t1, gd, k[3], D, P;
} DropRef;

static inline DropRef drop_ref(double m, const double *I, const double *c, double rho, double th,
                        const double *ax, double z0, double g, double e)
{
    DropRef r;
    double R[3][3], nb[3];
    rodrigues(th, ax, R);
    double Rcz = R[2][0] * c[0] + R[2][1] * c[1] + R[2][2] * c[2];
    r.t1 = sqrt(2 * (z0 + Rcz - rho) / g);
    r.gd = -g * r.t1;
    for (int i = 0; i < 3; i++)
        nb[i] = R[2][i];
    cross(c, nb, r.k);
    r.D = 1 / m + r.k[0] * r.k[0] / I[0] + r.k[1] * r.k[1] / I[1] + r.k[2] * r.k[2] / I[2];
    r.P = -(1 + e) * r.gd / r.D;
    return r;
}

#endif
