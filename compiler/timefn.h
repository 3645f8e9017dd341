/*
 * timefn.h - expressions of time split into the exact method's pieces.
 *
 * A force or a moving surface's h(t) fits the exact method's forcing
 * generator when it is a sum of pieces c * t^k * exp(a t) * {1, sin(w t + phi),
 * cos(w t + phi)} with c, a, w, phi free of t.  The split is an operation on
 * expressions alone: sema uses it to refuse a moving surface the generator
 * cannot carry, derive_gen.c to build the generator's blocks.
 */
#ifndef NSM_TIMEFN_H
#define NSM_TIMEFN_H

#include <stdbool.h>

#include "arena.h"
#include "expr.h"

/* One piece c t^k e^{a t} {1, sin, cos}(w t + phi) of row `body`. */
typedef struct Piece {
    Expr *coef;      /* free of t */
    int k;           /* power of t */
    Expr *a;         /* exponential rate (number 0 when none) */
    Expr *w, *phi;   /* sinusoid (w NULL when none) */
    int is_cos;
    int body;
} Piece;

/* A growing list of pieces, allocated in `arena`. */
typedef struct PieceList {
    Piece *p;
    int n, cap;
    Arena *arena;
} PieceList;

/* Splits e, scaled by `scale` (free of t), into pieces of row `body`,
 * appended to l; false when e does not fit. */
bool timefn_decompose(ExprCtx *x, PieceList *l, Expr *e, Expr *scale, int body);

/* Does h(t) fit the generator (constants, t^k, exp/sin/cos of linear t and
 * their products, no switches)? */
bool timefn_ok(ExprCtx *x, Expr *h);

/* Splits an argument linear in t into rate * t + offset (both free of t);
 * false if it is not linear in t. */
bool timefn_linear(ExprCtx *x, Expr *arg, Expr **rate, Expr **offset);

#endif
