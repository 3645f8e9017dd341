/*
 * rigid.h - bodies in space (docs/theory.md section 19): the expressions of
 * a rigid body's rotation, points and tilt, its Newton-Euler gyroscopic
 * torques, and what the C back end writes for it (the kinematic map
 * q' = B(q) u and the table's layout entries).
 */
#ifndef NSMC_RIGID_H
#define NSMC_RIGID_H

#include "expr.h"
#include "model.h"

/* Entry (i, j) of the rotation R(p) (body to world) in its homogeneous
 * form, a quadratic form in p over |p|^2 (p = p0, p1, p2, p3). */
Expr *rigid_rot(ExprCtx *x, Expr *const p[4], int i, int j);

/* Component k of the world point r + R(p) s of body-frame point s. */
Expr *rigid_point(ExprCtx *x, Expr *const r[3], Expr *const p[4], Expr *const s[3], int k);

/* Component k of the velocity v + R(p) (w x s) of body-frame point s. */
Expr *rigid_point_vel(ExprCtx *x, Expr *const v[3], Expr *const p[4], Expr *const w[3],
                      Expr *const s[3], int k);

/* The tilt: the angle between the body's 3-axis R(p) e3 and the unit
 * vector up[3], acos of their dot product clamped to [-1, 1]. */
Expr *rigid_tilt(ExprCtx *x, Expr *const p[4], Expr *const up[3]);

/* The largest tilt angle taken, 2^55 rad: beyond it the doubles are 8 rad
 * apart, more than a turn, so the angle as written gives no orientation
 * (a tilt of 1e300 rad was taken as cos and sin of that double).  nsmc
 * refuses a larger one in the source, the generated setup one of the
 * parameters at run time. */
#define RIGID_TILT_MAX 36028797018963968.0
#define RIGID_TEXT_(x) #x
#define RIGID_TEXT(x) RIGID_TEXT_(x)    /* a macro's value as a string */

/* The unit quaternion of the rotation by `angle` about `axis` (any
 * length but zero): (cos(angle/2), sin(angle/2) axis/|axis|). */
void rigid_axis_angle(ExprCtx *x, Expr *const axis[3], Expr *angle, Expr *q[4]);

#endif
