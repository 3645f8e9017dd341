/*
 * expr.h - the symbolic expression engine.
 *
 * Expressions over numbers, model parameters, time `t` and symbolic variables
 * (state components, switch flags, anything the derivation names).  Nodes are
 * immutable and hash-consed inside one ExprCtx, so structurally equal
 * expressions are the same pointer and comparisons are pointer comparisons.
 *
 * Every constructor returns a simplified expression: constants fold, 0*x, 1*x,
 * x+0 and x-x vanish, like terms and like factors are collected (a sum is a
 * list of terms coeff*product, a product a list of base^power factors), so
 * `k1/m1 - k2/m2` stays in that shape and `(k1/m1 - k2/m2) + k2/m2` is k1/m1.
 * The canonical order of terms and factors is deterministic (it does not
 * depend on pointer values), so printed output is reproducible byte for byte.
 */
#ifndef NSM_EXPR_H
#define NSM_EXPR_H

#include <stdbool.h>
#include <stdio.h>

#include "arena.h"

typedef enum ExprKind {
    EX_NUM,   /* numeric constant */
    EX_PARAM, /* model parameter, by index */
    EX_TIME,  /* the independent variable t */
    EX_VAR,   /* symbolic variable, by index (state components, switch flags, ...) */
    EX_ADD,   /* n-ary sum */
    EX_MUL,   /* n-ary product */
    EX_POW,   /* base ^ exponent */
    EX_CALL,  /* elementary function, see ExprFunc */
    EX_IF,    /* if cond then a else b */
    EX_CMP,   /* comparison, see ExprCmp; value 1 or 0 */
    EX_AND,
    EX_OR,
    EX_NOT
} ExprKind;

typedef enum ExprFunc {
    FN_SIN, FN_COS, FN_TAN, FN_EXP, FN_LOG, FN_SQRT, FN_ABS, FN_MIN, FN_MAX,
    FN_ACOS   /* written by nsmc only (a rigid body's tilt B.theta), not a user function */
} ExprFunc;

typedef enum ExprCmp { CMP_LT, CMP_LE, CMP_GT, CMP_GE, CMP_EQ, CMP_NE } ExprCmp;

typedef struct Expr Expr;
struct Expr {
    ExprKind kind;
    int op;          /* ExprFunc for EX_CALL, ExprCmp for EX_CMP */
    int index;       /* EX_PARAM, EX_VAR */
    double num;      /* EX_NUM */
    int nargs;       /* EX_ADD/EX_MUL: number of operands; others: 0..3 */
    Expr **args;     /* operands (EX_IF: cond, then, else; EX_POW: base, exponent) */
    unsigned hash;
    unsigned id;     /* creation order inside the context, for deterministic output */
    bool positive;   /* the program refuses every run where this value is not > 0
                        (expr_assume_positive), so it may be cancelled */
};

typedef struct ExprCtx ExprCtx;

/* Creates a context whose nodes live in `arena` (freed with the arena). */
ExprCtx *expr_ctx_new(Arena *arena);

/* Leaves. */
Expr *expr_num(ExprCtx *x, double v);
Expr *expr_param(ExprCtx *x, int index);
Expr *expr_time(ExprCtx *x);
Expr *expr_var(ExprCtx *x, int index);

/* Arithmetic, simplified on construction. */
Expr *expr_add(ExprCtx *x, Expr *a, Expr *b);
Expr *expr_sub(ExprCtx *x, Expr *a, Expr *b);
Expr *expr_mul(ExprCtx *x, Expr *a, Expr *b);
Expr *expr_div(ExprCtx *x, Expr *a, Expr *b);
Expr *expr_neg(ExprCtx *x, Expr *a);
Expr *expr_pow(ExprCtx *x, Expr *base, Expr *exponent);
Expr *expr_powi(ExprCtx *x, Expr *base, int exponent);
Expr *expr_call(ExprCtx *x, ExprFunc f, Expr *a, Expr *b /* NULL unless min/max */);
Expr *expr_if(ExprCtx *x, Expr *cond, Expr *then_, Expr *else_);
Expr *expr_cmp(ExprCtx *x, ExprCmp op, Expr *a, Expr *b);
Expr *expr_and(ExprCtx *x, Expr *a, Expr *b);
Expr *expr_or(ExprCtx *x, Expr *a, Expr *b);
Expr *expr_not(ExprCtx *x, Expr *a);

/* Calculus and rewriting. `leaf` is an EX_PARAM, EX_TIME or EX_VAR node. */
Expr *expr_diff(ExprCtx *x, Expr *e, Expr *leaf);
Expr *expr_subst(ExprCtx *x, Expr *e, Expr *leaf, Expr *by);
/* Substitutes every leaf vars[k] by vals[k] at once, the values themselves
 * expanded the same way (a chain of definitions, each in terms of earlier
 * ones); each distinct node is rebuilt once, so the cost is linear in the
 * size of the expression graph. */
Expr *expr_subst_chain(ExprCtx *x, Expr *e, int n, Expr *const *vars, Expr *const *vals);
/* The same for many expressions: the memo is kept between calls, so what
 * they share is substituted once. */
typedef struct ExprChain ExprChain;
ExprChain *expr_chain_new(int n, Expr *const *vars, Expr *const *vals);
Expr *expr_chain_apply(ExprCtx *x, ExprChain *c, Expr *e);
void expr_chain_free(ExprChain *c);

/* Records that every run refuses a value of `e` that is not > 0 (a body's
 * mass, checked in the simulator's setup), so x/x, x^2/x and the like
 * cancel for it and for what is provably positive or nonzero through it
 * (sums and products of positive values, nonzero numbers).  Any other
 * base keeps its division, so a parameter set to 0 at run time gives the
 * NaN the source as written gives (and the simulator's checks see it). */
void expr_assume_positive(ExprCtx *x, Expr *e);

/* Queries. */
bool expr_is_num(const Expr *e, double *value); /* true for EX_NUM, value optional */
bool expr_is_zero(const Expr *e);
bool expr_depends_on(const Expr *e, const Expr *leaf);
bool expr_has_kind(const Expr *e, ExprKind kind); /* e.g. does it mention t or any var */

/* Numeric evaluation; unspecified leaves count as 0. */
typedef struct ExprEnv {
    const double *params;
    const double *vars;
    double t;
} ExprEnv;
double expr_eval(const Expr *e, const ExprEnv *env);

/* Printing.  The namer says how leaves read in each target: in C a parameter
 * may be `p[3]` or `k1`, a variable `y[0]`; in LaTeX `m_{1}` or `\dot{u}_1`. */
typedef enum ExprStyle { EXPR_TEXT, EXPR_C, EXPR_LATEX } ExprStyle;
typedef struct ExprNamer {
    const char *(*param)(void *ud, int index, ExprStyle style);
    const char *(*var)(void *ud, int index, ExprStyle style);
    void *ud;
} ExprNamer;

void expr_print(FILE *out, const Expr *e, ExprStyle style, const ExprNamer *namer);
/* Returns a NUL-terminated string allocated in the context's arena. */
char *expr_to_string(ExprCtx *x, const Expr *e, ExprStyle style, const ExprNamer *namer);

/* Canonical order used for terms and factors: negative, zero or positive like
 * strcmp; structural, so it is the same on every run. */
int expr_compare(const Expr *a, const Expr *b);

/* Full expansion: products of sums and positive integer powers of sums are
 * multiplied out (the constructors distribute only a sum times a monomial). */
Expr *expr_expand(ExprCtx *x, Expr *e);

/* Puts `e` over the least common denominator of its terms: returns the
 * expanded numerator and stores the denominator (1 if none) in *den, so that
 * e == numerator/den.  A zero numerator proves e is zero as a rational
 * function, e.g. m1/(m1 + m2) + m2/(m1 + m2) - 1. */
Expr *expr_together(ExprCtx *x, Expr *e, Expr **den);

#endif
