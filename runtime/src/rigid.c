/*
** rigid.c: the positions of bodies in space (docs/theory.md section 19).
**
** A model with rigid bodies has more positions than velocities: the state
** is Y = (q[nq], u[n], E_d, E_w), each rigid body's orientation a unit
** quaternion p = (p0, p1, p2, p3) whose vector part sits in the position
** slots of its three body-frame angular velocities and whose scalar part
** p0 follows the n positions (nsm/model.h).  This file gives the rate of
** the positions, qdot = B(q) u (the generated kinematic map, the identity
** for every other model), and keeps the quaternions of unit length.
*/
#include <math.h>
#include <string.h>

#include "rt.h"

/* The positions' rate qdot (nq values) at Y: the model's kinematic map
** for bodies in space, the velocities themselves otherwise. */
void rt_rigid_qdot(const nsm_sim *s, const double *Y, double *qdot)
{
    if (s->m->kin && s->n_pos != s->n_vel) {
        s->m->kin(Y, s->params, s->consts, qdot);
        return;
    }
    memcpy(qdot, rt_vel(s, Y), sizeof(double) * (size_t)s->n_vel);
}

/* Scales each rigid body's quaternion in y back to unit length.  The exact
** flow keeps |p| = 1 and the rotation R(p) is homogeneous of degree 0 in
** p, so the projection changes neither the body's placement nor any
** energy: it only stops the drift of |p| a step's error leaves. */
void rt_rigid_normalise(const nsm_sim *s, double *y)
{
    const nsm_model *m = s->m;
    if (s->n_pos == s->n_vel || !m->rigid_rot)
        return;
    for (int b = 0; b < m->n_rigid; b++) {
        double *p0 = &y[s->n_vel + b], *pv = &y[m->rigid_rot[b]];
        double r = sqrt(*p0 * *p0 + pv[0] * pv[0] + pv[1] * pv[1] + pv[2] * pv[2]);
        if (!(r > 0) || !isfinite(r))
            continue;           /* left to the run's finiteness check */
        *p0 /= r;
        for (int i = 0; i < 3; i++)
            pv[i] /= r;
    }
}

/* Two unit tangents t1, t2 = n x t1 of the plane of unit normal n (t1 from
** the coordinate axis least along n): fixed for a fixed plane, shared by
** the friction in flight and at impacts so that both see one basis. */
void rt_plane_tangents(const double *n, double t[2][3])
{
    int a = 0;
    for (int i = 1; i < 3; i++)
        if (fabs(n[i]) < fabs(n[a]))
            a = i;
    double e[3] = { 0, 0, 0 }, len = 0;
    e[a] = 1;
    for (int i = 0; i < 3; i++) {
        t[0][i] = e[i] - n[a] * n[i];
        len += t[0][i] * t[0][i];
    }
    len = sqrt(len);
    for (int i = 0; i < 3; i++)
        t[0][i] /= len;
    t[1][0] = n[1] * t[0][2] - n[2] * t[0][1];
    t[1][1] = n[2] * t[0][0] - n[0] * t[0][2];
    t[1][2] = n[0] * t[0][1] - n[1] * t[0][0];
}

/* The rotation R(p) / |p|^2 of body b's quaternion in y (homogeneous, as
** the gaps evaluate it): the one place the runtime forms it (spatial
** friction's rows in flight and at impacts). */
void rt_rigid_rot(const nsm_sim *s, int b, const double *y, double R[3][3])
{
    const double *pv = &y[s->m->rigid_rot[b]];
    double w = y[s->n_vel + b], x = pv[0], yy = pv[1], z = pv[2];
    double q = 1 / (w * w + x * x + yy * yy + z * z);
    double M[3][3] = {
        { w * w + x * x - yy * yy - z * z, 2 * (x * yy - w * z), 2 * (x * z + w * yy) },
        { 2 * (x * yy + w * z), w * w - x * x + yy * yy - z * z, 2 * (yy * z - w * x) },
        { 2 * (x * z - w * yy), 2 * (yy * z + w * x), w * w - x * x - yy * yy + z * z },
    };
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++)
            R[i][k] = M[i][k] * q;
}
