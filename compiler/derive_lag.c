/*
 * derive_lag.c - the equations of motion of a model written by its energies
 * (docs/theory.md section 18): generalized coordinates q, a kinetic energy
 * T(q, v) quadratic in the velocities and a potential V(q).  Euler–Lagrange,
 * d/dt dT/dv - dT/dq + dV/dq = Q, gives
 *
 *   M(q) a = h(q, v) + Q,   M_ij = d2T / dv_i dv_j,
 *   h_i = dT/dq_i - dV/dq_i - sum_jk (dM_ij/dq_k) v_j v_k,
 *
 * (Goldstein, Classical Mechanics, ch. 1-2; the Coriolis and centrifugal
 * terms are the last sum), with Q the generalized forces of the model's
 * springs, dampers and forces acting on the coordinates.  Every gap's row
 * W_j(q) = dg_j/dq is derived too.  Variables are those of derive.h:
 * q_i = var i, v_i = var n + i.
 */
#include <stdlib.h>
#include <string.h>

#include "derive.h"
#include "linalg.h"

/* Generalized forces Q_i of the springs, dampers and forces on the
 * coordinates: a spring's tension k (q_b - q_a - rest) + c (v_b - v_a)
 * pulls a towards b (model.h), a force adds to its coordinate. */
static Expr **lag_forces(Derivation *dv)
{
    const Model *m = dv->model;
    ExprCtx *x = dv->ex;
    int n = dv->n;
    Expr **Q = arena_alloc(dv->arena, sizeof(Expr *) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++)
        Q[i] = expr_num(x, 0);
    for (int k = 0; k < m->n_springs; k++) {
        const Spring *sp = &m->springs[k];
        Expr *qa = sp->a >= 0 ? dv->x[sp->a] : expr_num(x, 0);
        Expr *qb = sp->b >= 0 ? dv->x[sp->b] : expr_num(x, 0);
        Expr *va = sp->a >= 0 ? dv->v[sp->a] : expr_num(x, 0);
        Expr *vb = sp->b >= 0 ? dv->v[sp->b] : expr_num(x, 0);
        Expr *ten = expr_num(x, 0);
        if (sp->k)
            ten = expr_mul(x, sp->k, expr_sub(x, expr_sub(x, qb, qa),
                                              sp->rest ? sp->rest : expr_num(x, 0)));
        if (sp->c)
            ten = expr_add(x, ten, expr_mul(x, sp->c, expr_sub(x, vb, va)));
        if (sp->a >= 0)
            Q[sp->a] = expr_add(x, Q[sp->a], ten);
        if (sp->b >= 0)
            Q[sp->b] = expr_sub(x, Q[sp->b], ten);
    }
    for (int k = 0; k < m->n_forces; k++)
        Q[m->forces[k].body] = expr_add(x, Q[m->forces[k].body], m->forces[k].value);
    return Q;
}

/* M(q) = d2T/dv dv (symmetric: the upper triangle is derived, the lower
 * one shares it) and h(q, v) of the header, into dv->lag_M and dv->lag_h. */
static void lag_equations(Derivation *dv)
{
    const Model *m = dv->model;
    ExprCtx *x = dv->ex;
    int n = dv->n;
    Expr **M = arena_alloc(dv->arena, sizeof(Expr *) * (size_t)(n * n > 0 ? n * n : 1));
    Expr **h = arena_alloc(dv->arena, sizeof(Expr *) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        Expr *dTi = expr_diff(x, m->kinetic, dv->v[i]);
        for (int j = i; j < n; j++)
            M[i * n + j] = M[j * n + i] = expr_expand(x, expr_diff(x, dTi, dv->v[j]));
    }
    for (int i = 0; i < n; i++) {
        Expr *hi = expr_sub(x, expr_diff(x, m->kinetic, dv->x[i]),
                            expr_diff(x, m->potential, dv->x[i]));
        for (int j = 0; j < n; j++) {
            Expr *dM = expr_num(x, 0);    /* sum_k (dM_ij/dq_k) v_k = dM_ij/dt */
            for (int k = 0; k < n; k++)
                dM = expr_add(x, dM, expr_mul(x, expr_diff(x, M[i * n + j], dv->x[k]), dv->v[k]));
            hi = expr_sub(x, hi, expr_mul(x, dM, dv->v[j]));
        }
        h[i] = expr_expand(x, hi);
    }
    dv->lag_M = M;
    dv->lag_h = h;
    dv->lag_Q = lag_forces(dv);
}

/* Every gap's value g_j(q) and row W_j(q) = dg_j/dq (dense, n entries). */
static void lag_gaps(Derivation *dv)
{
    const Model *m = dv->model;
    ExprCtx *x = dv->ex;
    int n = dv->n, g = dv->g;
    dv->lag_g = arena_alloc(dv->arena, sizeof(Expr *) * (size_t)(g ? g : 1));
    dv->lag_W = arena_alloc(dv->arena, sizeof(Expr *) * (size_t)(g * n > 0 ? g * n : 1));
    for (int j = 0; j < g; j++) {
        const Gap *gp = &m->gaps[j];
        Expr *gj = gp->curve;
        if (!gj) {
            gj = gp->d ? gp->d : expr_num(x, 0);
            for (int k = 0; k < gp->n_w; k++)
                gj = expr_add(x, gj, expr_mul(x, gp->w[k], dv->x[gp->w_body[k]]));
            if (gp->h)
                gj = expr_add(x, gj, gp->h);
        }
        dv->lag_g[j] = gj;
        for (int i = 0; i < n; i++)
            dv->lag_W[j * n + i] = expr_diff(x, gj, dv->x[i]);
    }
}

/* M(q) at the initial state with every parameter at its default must be
 * positive definite: a kinetic energy that is not (a wrong sign, a
 * coordinate whose inertia vanishes there) is refused at its statement.
 * The simulator checks it again for the parameters it runs with. */
static int lag_check_initial(Derivation *dv, Diag *d)
{
    const Model *m = dv->model;
    int n = dv->n;
    double *p = arena_alloc(dv->arena, sizeof(double) * (size_t)(m->n_params + 1));
    double *y = arena_alloc(dv->arena, sizeof(double) * (size_t)(2 * n + 1));
    double *A = arena_alloc(dv->arena, sizeof(double) * (size_t)(n * n + 1));
    for (int k = 0; k < m->n_params; k++)
        p[k] = m->params[k].number;
    ExprEnv pe = {p, NULL, 0};
    for (int i = 0; i < n; i++) {
        y[i] = expr_eval(m->init_x[i], &pe);
        y[n + i] = expr_eval(m->init_v[i], &pe);
    }
    ExprEnv ye = {p, y, 0};
    for (int k = 0; k < n * n; k++)
        A[k] = expr_eval(dv->lag_M[k], &ye);
    int bad = nsm_la_cholesky(n, A);
    if (bad < 0)
        return 0;
    diag_error(d, m->kinetic_loc, "the kinetic energy is not a positive-definite quadratic form "
               "in the velocities at the initial state (the mass matrix's leading %d x %d block "
               "is singular or indefinite there, at '%s'): check its signs and coefficients",
               bad + 1, bad + 1, m->bodies[bad].vname);
    return 1;
}

/* The Euler-Lagrange terms of a Lagrangian model on top of its ordinary
 * derivation (derive_model, where every coordinate carries a unit mass in
 * the diagonal table and the model runs the nonlinear path): M(q),
 * h(q, v), Q and the gaps' rows, and M(q)'s check at the initial state.
 * 1 after an error. */
int derive_lagrange(Derivation *dv, Diag *d)
{
    dv->lagrangian = true;
    lag_equations(dv);
    lag_gaps(dv);
    return lag_check_initial(dv, d);
}
