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
#include <string.h>

#include "derive.h"

typedef struct Piece {
    Expr *coef;      /* free of t */
    int k;           /* power of t */
    Expr *a;         /* exponential rate (number 0 when none) */
    Expr *w, *phi;   /* sinusoid (w NULL when none) */
    int is_cos;
    int body;
} Piece;

typedef struct PieceList {
    Piece *p;
    int n, cap;
    Arena *arena;
} PieceList;

/* Appends a piece, growing the list in the arena. */
static void pieces_push(PieceList *l, Piece pc)
{
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 16;
        Piece *np = arena_alloc(l->arena, (size_t)cap * sizeof *np);
        if (l->n)
            memcpy(np, l->p, (size_t)l->n * sizeof *np);
        l->p = np;
        l->cap = cap;
    }
    l->p[l->n++] = pc;
}

/* Splits an argument linear in t into rate * t + offset; false if not linear. */
static bool linear_in_t(ExprCtx *x, Expr *arg, Expr **rate, Expr **offset)
{
    Expr *t = expr_time(x);
    *rate = expr_diff(x, arg, t);
    if (expr_depends_on(*rate, t))
        return false;
    *offset = expr_subst(x, arg, t, expr_num(x, 0));
    return true;
}

/* Folds one factor of a product into the piece; false when it does not fit. */
static bool piece_factor(ExprCtx *x, Piece *pc, Expr *f)
{
    Expr *t = expr_time(x);
    double k;
    if (!expr_depends_on(f, t)) {
        pc->coef = expr_mul(x, pc->coef, f);
        return true;
    }
    if (f->kind == EX_TIME) {
        pc->k += 1;
        return true;
    }
    if (f->kind == EX_POW && f->args[0]->kind == EX_TIME && expr_is_num(f->args[1], &k)
        && k >= 1 && k <= 16 && k == (int)k) {
        pc->k += (int)k;
        return true;
    }
    if (f->kind == EX_CALL && f->op == FN_EXP) {
        Expr *rate, *off;
        if (!linear_in_t(x, f->args[0], &rate, &off))
            return false;
        pc->a = expr_add(x, pc->a, rate);
        pc->coef = expr_mul(x, pc->coef, expr_call(x, FN_EXP, off, NULL));
        return true;
    }
    if (f->kind == EX_CALL && (f->op == FN_SIN || f->op == FN_COS) && !pc->w) {
        Expr *rate, *off;
        if (!linear_in_t(x, f->args[0], &rate, &off))
            return false;
        pc->w = rate;
        pc->phi = off;
        pc->is_cos = f->op == FN_COS;
        return true;
    }
    return false;
}

/* Decomposes e (scaled by `scale`, free of t) into pieces; false when it does not fit. */
static bool decompose(ExprCtx *x, PieceList *l, Expr *e, Expr *scale, int body)
{
    Expr *t = expr_time(x);
    if (!expr_depends_on(e, t)) {
        pieces_push(l, (Piece){expr_mul(x, scale, e), 0, expr_num(x, 0), NULL, NULL, 0, body});
        return true;
    }
    if (e->kind == EX_ADD) {
        for (int i = 0; i < e->nargs; i++)
            if (!decompose(x, l, e->args[i], scale, body))
                return false;
        return true;
    }
    if (e->kind == EX_IF) {
        if (expr_depends_on(e->args[0], t))
            return false;
        Expr *one = expr_num(x, 1), *zero = expr_num(x, 0);
        return decompose(x, l, e->args[1], expr_mul(x, scale, expr_if(x, e->args[0], one, zero)), body)
            && decompose(x, l, e->args[2], expr_mul(x, scale, expr_if(x, e->args[0], zero, one)), body);
    }
    Piece pc = {scale, 0, expr_num(x, 0), NULL, NULL, 0, body};
    if (e->kind == EX_MUL) {
        /* a product with one sum factor depending on t: distribute it */
        for (int i = 0; i < e->nargs; i++) {
            Expr *f = e->args[i];
            if (f->kind == EX_ADD && expr_depends_on(f, t)) {
                Expr *rest = expr_num(x, 1);
                for (int j = 0; j < e->nargs; j++)
                    if (j != i)
                        rest = expr_mul(x, rest, e->args[j]);
                for (int j = 0; j < f->nargs; j++)
                    if (!decompose(x, l, expr_mul(x, rest, f->args[j]), scale, body))
                        return false;
                return true;
            }
        }
        for (int i = 0; i < e->nargs; i++)
            if (!piece_factor(x, &pc, e->args[i]))
                return false;
    } else if (!piece_factor(x, &pc, e)) {
        return false;
    }
    pieces_push(l, pc);
    return true;
}

/* Can the moving surface's time function h(t) be written with the generator
 * (the pieces a force may have, without time switches)?  Used by sema. */
bool dv_time_function_ok(ExprCtx *x, Expr *h)
{
    Arena *a = arena_new();
    PieceList l = {NULL, 0, 0, a};
    bool ok = decompose(x, &l, h, expr_num(x, 1), 0);
    arena_free(a);
    return ok;
}

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
        if (!decompose(x, &l, dv->fext[i], expr_num(x, 1), i)) {
            dv->gen_why = dv->model->bodies[i].name;
            return;
        }
    }
    /* the moving surfaces' time functions: rows n + j (sema checked they fit) */
    for (int j = 0; j < dv->g; j++)
        if (dv->h[j] && !decompose(x, &l, dv->h[j], expr_num(x, 1), n + j)) {
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
