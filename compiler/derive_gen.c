/*
 * derive_gen.c - the exact method's forcing generator.
 *
 * When every force is a sum of pieces c * t^k * exp(a t) * {1, sin(w t + phi),
 * cos(w t + phi)} (c, a, w, phi free of t), f_ext(t) = B z(t) with z' = G z.
 * The moving surfaces' time functions h_j(t) = H_j z(t) use the same blocks.
 * Pieces sharing (a, w, phi) share one block of z:
 *   no sinusoid:  z_k = t^k e^{a t},                   z_k' = k z_{k-1} + a z_k
 *   sinusoid:     S_k = t^k e^{a t} sin(w t + phi),    S_k' = k S_{k-1} + a S_k + w C_k
 *                 C_k = t^k e^{a t} cos(w t + phi),    C_k' = k C_{k-1} + a C_k - w S_k
 */

#include "derive.h"
#include "timefn.h"


/* Expression of block component k (sinusoid: 2k = sin part, 2k+1 = cos part). */
static Expr *basis(ExprCtx *x, const DvGenBlock *b, int k, int is_cos)
{
    Expr *t = expr_time(x);
    Expr *e = expr_mul(x, expr_powi(x, t, k), expr_call(x, FN_EXP, expr_mul(x, b->a, t), NULL));
    if (b->w) {
        Expr *arg = expr_add(x, expr_mul(x, b->w, t), b->phi);
        e = expr_mul(x, e, expr_call(x, is_cos ? FN_COS : FN_SIN, arg, NULL));
    }
    return e;
}

/* Builds G, B and z(t) from the forces, or sets n_gen = 0 when a force does not fit. */
void dv_generator(Derivation *dv)
{
    ExprCtx *x = dv->ex;
    int n = dv->n;
    PieceList l = {NULL, 0, 0, dv->arena};
    dv->n_gen = 0;
    for (int i = 0; i < n; i++) {
        if (!timefn_decompose(x, &l, dv->fext[i], expr_num(x, 1), i)) {
            dv->gen_why = dv->model->bodies[i].name;
            return;
        }
    }
    /* the moving surfaces' time functions: rows n + j (sema checked they fit) */
    for (int j = 0; j < dv->g; j++)
        if (dv->h[j] && !timefn_decompose(x, &l, dv->h[j], expr_num(x, 1), n + j)) {
            dv->gen_why = dv->model->gaps[j].name;
            return;
        }
    /* blocks keyed by (a, w, phi) */
    DvGenBlock *bl = arena_alloc(dv->arena, (size_t)(l.n + 1) * sizeof *bl);
    int nb = 0;
    int *which = arena_alloc(dv->arena, (size_t)(l.n + 1) * sizeof *which);
    for (int k = 0; k < l.n; k++) {
        Piece *pc = &l.p[k];
        if (expr_is_zero(pc->coef)) {
            which[k] = -1;
            continue;
        }
        int b = 0;
        while (b < nb && !(bl[b].a == pc->a && bl[b].w == pc->w && bl[b].phi == pc->phi))
            b++;
        if (b == nb) {
            bl[nb] = (DvGenBlock){pc->a, pc->w, pc->phi, 0, 0};
            nb++;
        }
        if (pc->k > bl[b].kmax)
            bl[b].kmax = pc->k;
        which[k] = b;
    }
    /* no forcing at all: one constant component keeps the exact method available */
    if (nb == 0)
        bl[nb++] = (DvGenBlock){expr_num(x, 0), NULL, NULL, 0, 0};
    int dim = 0;
    for (int b = 0; b < nb; b++) {
        bl[b].first = dim;
        dim += (bl[b].kmax + 1) * (bl[b].w ? 2 : 1);
    }
    dv->gen = bl;
    dv->n_gen_blocks = nb;
    dv->n_gen = dim;
    dv->G = arena_alloc(dv->arena, (size_t)(dim * dim + 1) * sizeof *dv->G);
    dv->B = arena_alloc(dv->arena, (size_t)(n * dim + 1) * sizeof *dv->B);
    dv->H = arena_alloc(dv->arena, (size_t)(dv->g * dim + 1) * sizeof *dv->H);
    for (int i = 0; i < dv->g * dim; i++)
        dv->H[i] = expr_num(x, 0);
    dv->z = arena_alloc(dv->arena, (size_t)(dim + 1) * sizeof *dv->z);
    for (int i = 0; i < dim * dim; i++)
        dv->G[i] = expr_num(x, 0);
    for (int i = 0; i < n * dim; i++)
        dv->B[i] = expr_num(x, 0);
    for (int b = 0; b < nb; b++) {
        DvGenBlock *B = &bl[b];
        int per = B->w ? 2 : 1;
        for (int k = 0; k <= B->kmax; k++) {
            for (int s = 0; s < per; s++) {
                int row = B->first + k * per + s;
                dv->z[row] = basis(x, B, k, s);
                dv->G[row * dim + row] = B->a;
                if (k > 0)
                    dv->G[row * dim + row - per] = expr_num(x, k);
                if (B->w)
                    dv->G[row * dim + (s ? row - 1 : row + 1)] = s ? expr_neg(x, B->w) : B->w;
            }
        }
    }
    for (int k = 0; k < l.n; k++) {
        if (which[k] < 0)
            continue;
        Piece *pc = &l.p[k];
        DvGenBlock *B = &bl[which[k]];
        int per = B->w ? 2 : 1;
        int col = B->first + pc->k * per + (B->w ? pc->is_cos : 0);
        Expr **slot = pc->body < n ? &dv->B[pc->body * dim + col]
                                   : &dv->H[(pc->body - n) * dim + col];
        *slot = expr_add(x, *slot, pc->coef);
    }
}
