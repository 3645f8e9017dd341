/*
 * derive_rigid.c - what a rigid body adds to the derivation (docs/theory.md
 * section 19): Euler's gyroscopic torques -w x I w on its body-frame
 * angular velocities, a state-dependent force (Goldstein, Poole and Safko,
 * Classical Mechanics, 3rd ed., section 5.5).  Gravity is its constant
 * weight (setup's gfac), the mass matrix diag(m, m, m, I1, I2, I3).
 */
#include "derive.h"

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
