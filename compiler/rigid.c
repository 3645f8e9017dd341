/*
 * rigid.c - bodies in space (docs/theory.md section 19).
 *
 * A rigid body B has the generalized coordinates (r, p), the centre of mass
 * r and a unit quaternion p = (p0, p1, p2, p3) (scalar first, body to
 * world), and the velocities (v, w), v = r' (world frame) and w the
 * angular velocity in the body frame: q' = B(q) u with r' = v and
 * p' = p (x) (0, w) / 2.  The Newton-Euler equations have the constant
 * mass matrix diag(m, m, m, I1, I2, I3) (principal axes) and the
 * gyroscopic torques -w x I w as a state-dependent force (Euler's
 * equations; Goldstein, Poole and Safko, Classical Mechanics, 3rd ed.,
 * section 5.5).  The rotation is evaluated in its homogeneous form
 * R(p) = (...)/|p|^2, so that a drift of |p| between the runtime's
 * projections does not deform the body.
 */
#include "rigid.h"

#include <string.h>

/* a * b * c */
static Expr *mul3(ExprCtx *x, Expr *a, Expr *b, Expr *c)
{
    return expr_mul(x, a, expr_mul(x, b, c));
}

/* R(p)_ij = (its quadratic form in p) / |p|^2: unchanged by a drift of |p|. */
Expr *rigid_rot(ExprCtx *x, Expr *const p[4], int i, int j)
{
    Expr *two = expr_num(x, 2);
    Expr *n2 = expr_num(x, 0), *num;
    for (int k = 0; k < 4; k++)
        n2 = expr_add(x, n2, expr_mul(x, p[k], p[k]));
    if (i == j) {
        /* p0^2 - |pv|^2 + 2 p_i^2 */
        num = expr_mul(x, p[0], p[0]);
        for (int k = 1; k < 4; k++)
            num = expr_add(x, num, expr_mul(x, expr_num(x, k == i + 1 ? 1 : -1), expr_mul(x, p[k], p[k])));
    } else {
        /* 2 (p_i p_j -+ p0 p_k), k the third axis; + when (i, j, k) is cyclic */
        int k = 3 - i - j;
        double sign = (j == (i + 1) % 3) ? -1 : 1;
        num = expr_mul(x, two, expr_add(x, expr_mul(x, p[i + 1], p[j + 1]),
                                        mul3(x, expr_num(x, sign), p[0], p[k + 1])));
    }
    return expr_div(x, num, n2);
}

/* (r + R(p) s)_k, the body point s in the world frame. */
Expr *rigid_point(ExprCtx *x, Expr *const r[3], Expr *const p[4], Expr *const s[3], int k)
{
    Expr *e = r[k];
    for (int j = 0; j < 3; j++)
        if (!expr_is_zero(s[j]))
            e = expr_add(x, e, expr_mul(x, rigid_rot(x, p, k, j), s[j]));
    return e;
}

/* (v + R(p) (w x s))_k, the velocity of the body point s (w in the body frame). */
Expr *rigid_point_vel(ExprCtx *x, Expr *const v[3], Expr *const p[4], Expr *const w[3],
                      Expr *const s[3], int k)
{
    Expr *ws[3];
    for (int i = 0; i < 3; i++) {
        int a = (i + 1) % 3, b = (i + 2) % 3;
        ws[i] = expr_sub(x, expr_mul(x, w[a], s[b]), expr_mul(x, w[b], s[a]));
    }
    Expr *e = v[k];
    for (int j = 0; j < 3; j++)
        e = expr_add(x, e, expr_mul(x, rigid_rot(x, p, k, j), ws[j]));
    return e;
}

/* acos(clamp(up . R(p) e3)): the angle between the 3-axis and `up`. */
Expr *rigid_tilt(ExprCtx *x, Expr *const p[4], Expr *const up[3])
{
    Expr *c = expr_num(x, 0);
    for (int k = 0; k < 3; k++)
        if (!expr_is_zero(up[k]))
            c = expr_add(x, c, expr_mul(x, up[k], rigid_rot(x, p, k, 2)));
    Expr *one = expr_num(x, 1);
    c = expr_call(x, FN_MIN, one, expr_call(x, FN_MAX, expr_neg(x, one), c));
    return expr_call(x, FN_ACOS, c, NULL);
}

/* The quaternion of a rotation by `angle` about `axis` (normalised here). */
void rigid_axis_angle(ExprCtx *x, Expr *const axis[3], Expr *angle, Expr *q[4])
{
    Expr *half = expr_div(x, angle, expr_num(x, 2));
    Expr *n2 = expr_num(x, 0);
    for (int k = 0; k < 3; k++)
        n2 = expr_add(x, n2, expr_mul(x, axis[k], axis[k]));
    Expr *s = expr_div(x, expr_call(x, FN_SIN, half, NULL), expr_call(x, FN_SQRT, n2, NULL));
    q[0] = expr_call(x, FN_COS, half, NULL);
    for (int k = 0; k < 3; k++)
        q[k + 1] = expr_mul(x, axis[k], s);
}
