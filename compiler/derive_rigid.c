/*
 * derive_rigid.c - what a rigid body adds to the derivation (docs/theory.md
 * section 19): Euler's gyroscopic torques -w x I w on its body-frame
 * angular velocities, a state-dependent force (Goldstein, Poole and Safko,
 * Classical Mechanics, 3rd ed., section 5.5).  Gravity is its constant
 * weight (setup's gfac), the mass matrix diag(m, m, m, I1, I2, I3).
 */
#include "derive.h"
#include "rigid.h"

/* Adds -(w x I w)_i to the state-dependent force on each w_i (body frame). */
void rigid_derive(Derivation *dv)
{
    const Model *m = dv->model;
    ExprCtx *x = dv->ex;
    for (int b = 0; b < m->n_rigids; b++) {
        const Rigid *rb = &m->rigids[b];
        int w0 = rb->ix + 3;
        for (int i = 0; i < 3; i++) {
            /* (I_a - I_b) w_a w_b on w_i, (i, a, b) cyclic: -(w x I w)_i */
            int a = (i + 1) % 3, c = (i + 2) % 3;
            Expr *t = expr_mul(x, expr_sub(x, rb->inertia[a], rb->inertia[c]),
                               expr_mul(x, dv->v[w0 + a], dv->v[w0 + c]));
            dv->fnl[w0 + i] = expr_add(x, dv->fnl[w0 + i], t);
            dv->fall[w0 + i] = expr_add(x, dv->fall[w0 + i], t);
        }
    }
}

/* Row j of W and the curvature term of sphere gap j over its body's six
 * velocities (v, w) (nsm/model.h, "Contacts of bodies in space";
 * docs/theory.md section 19): with n_b = R^T n the plane's normal in the
 * body frame, gdot = n . v + (c x n_b) . w, so the row is (n, c x n_b), and
 * gddot = W udot + n_b . (w x (w x c)).  R is rigid_rot's homogeneous form,
 * p0 the variable 2n + b. */
void sphere_derive(Derivation *dv, int j)
{
    const Model *m = dv->model;
    const Sphere *sp = m->gaps[j].sphere;
    ExprCtx *x = dv->ex;
    int ix = m->rigids[sp->rigid].ix;
    Expr *p[4] = {expr_var(x, 2 * dv->n + sp->rigid), dv->x[ix + 3], dv->x[ix + 4], dv->x[ix + 5]};
    Expr *nb[3], *w[3], *wc[3], *wwc[3];
    Expr *c[3] = {sp->centre[0], sp->centre[1], sp->centre[2]};
    for (int i = 0; i < 3; i++) {
        nb[i] = expr_num(x, 0);
        for (int k = 0; k < 3; k++)
            nb[i] = expr_add(x, nb[i], expr_mul(x, rigid_rot(x, p, k, i), sp->normal[k]));
        w[i] = dv->v[ix + 3 + i];
    }
    for (int i = 0; i < 3; i++) {   /* w x c, then w x (w x c) */
        int a = (i + 1) % 3, b = (i + 2) % 3;
        wc[i] = expr_sub(x, expr_mul(x, w[a], c[b]), expr_mul(x, w[b], c[a]));
    }
    Expr *cv = expr_num(x, 0);
    for (int i = 0; i < 3; i++) {
        int a = (i + 1) % 3, b = (i + 2) % 3;
        wwc[i] = expr_sub(x, expr_mul(x, w[a], wc[b]), expr_mul(x, w[b], wc[a]));
        cv = expr_add(x, cv, expr_mul(x, nb[i], wwc[i]));
    }
    dv->gcv[j] = cv;
    dv->gw[j] = arena_alloc(dv->arena, sizeof(Expr *) * 6);
    for (int i = 0; i < 3; i++) {   /* n on v, c x n_b on w */
        int a = (i + 1) % 3, b = (i + 2) % 3;
        dv->gw[j][i] = sp->normal[i];
        dv->gw[j][3 + i] = expr_sub(x, expr_mul(x, c[a], nb[b]), expr_mul(x, c[b], nb[a]));
    }
}
