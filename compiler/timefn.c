/*
 * timefn.c - expressions of time split into the exact method's pieces
 * (timefn.h): products of t^k, exp of a linear function of t and one
 * sinusoid of a linear function of t, distributed over sums and over
 * if-then-else whose condition does not depend on t.
 */
#include <string.h>

#include "timefn.h"

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

/* Splits an argument linear in t into rate * t + offset; false if not linear
 * (the generator's pieces and the Taylor tape's sinusoids of time alike). */
bool timefn_linear(ExprCtx *x, Expr *arg, Expr **rate, Expr **offset)
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
        if (!timefn_linear(x, f->args[0], &rate, &off))
            return false;
        pc->a = expr_add(x, pc->a, rate);
        pc->coef = expr_mul(x, pc->coef, expr_call(x, FN_EXP, off, NULL));
        return true;
    }
    if (f->kind == EX_CALL && (f->op == FN_SIN || f->op == FN_COS) && !pc->w) {
        Expr *rate, *off;
        if (!timefn_linear(x, f->args[0], &rate, &off))
            return false;
        pc->w = rate;
        pc->phi = off;
        pc->is_cos = f->op == FN_COS;
        return true;
    }
    return false;
}

/* Decomposes e (scaled by `scale`, free of t) into pieces; false when it does not fit. */
bool timefn_decompose(ExprCtx *x, PieceList *l, Expr *e, Expr *scale, int body)
{
    Expr *t = expr_time(x);
    if (!expr_depends_on(e, t)) {
        pieces_push(l, (Piece){expr_mul(x, scale, e), 0, expr_num(x, 0), NULL, NULL, 0, body});
        return true;
    }
    if (e->kind == EX_ADD) {
        for (int i = 0; i < e->nargs; i++)
            if (!timefn_decompose(x, l, e->args[i], scale, body))
                return false;
        return true;
    }
    if (e->kind == EX_IF) {
        if (expr_depends_on(e->args[0], t))
            return false;
        Expr *one = expr_num(x, 1), *zero = expr_num(x, 0);
        return timefn_decompose(x, l, e->args[1], expr_mul(x, scale, expr_if(x, e->args[0], one, zero)), body)
            && timefn_decompose(x, l, e->args[2], expr_mul(x, scale, expr_if(x, e->args[0], zero, one)), body);
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
                    if (!timefn_decompose(x, l, expr_mul(x, rest, f->args[j]), scale, body))
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

/* Can the time function h(t) be written with the generator (the pieces a
 * force may have, without time switches)?  The check sema makes on a moving
 * gap, before any derivation. */
bool timefn_ok(ExprCtx *x, Expr *h)
{
    Arena *a = arena_new();
    PieceList l = {NULL, 0, 0, a};
    bool ok = timefn_decompose(x, &l, h, expr_num(x, 1), 0);
    arena_free(a);
    return ok;
}
