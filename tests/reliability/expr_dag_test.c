/*
 * expr_dag_test.c - substitution visits each shared subexpression once.
 *
 * Expressions are hash-consed graphs: e_{k+1} = sin(e_k) + cos(e_k) has 2k + 1
 * distinct nodes but unfolds to a tree of 2^k leaves.  Substituting x on
 * e_60 must rebuild the ~120 nodes, not walk 2^60 paths: a substitution that
 * is not linear in the graph never ends here (and ctest's timeout fails it).
 * The result is checked against building the same graph on y directly (by
 * hash-consing, the same node), for expr_subst and for a chain of
 * definitions (expr_subst_chain, as the equations report expands constants).
 */
#include <stdio.h>

#include "arena.h"
#include "expr.h"

/* e_depth over leaf: e_{k+1} = sin(e_k) + cos(e_k). */
static Expr *tower(ExprCtx *x, Expr *leaf, int depth)
{
    Expr *e = leaf;
    for (int k = 0; k < depth; k++)
        e = expr_add(x, expr_call(x, FN_SIN, e, NULL), expr_call(x, FN_COS, e, NULL));
    return e;
}

int main(void)
{
    Arena *a = arena_new();
    ExprCtx *x = expr_ctx_new(a);
    Expr *vx = expr_var(x, 0), *vy = expr_var(x, 1), *vz = expr_var(x, 2);
    int fail = 0;
    Expr *e = tower(x, vx, 60);
    if (expr_subst(x, e, vx, vy) != tower(x, vy, 60)) {
        printf("FAIL: expr_subst on a 60-level shared tower\n");
        fail = 1;
    }
    /* a chain: x := tower(z, 30), z := y; e over x becomes the tower of 90 over y */
    Expr *vars[2] = { vz, vx };
    Expr *vals[2] = { vy, tower(x, vz, 30) };
    if (expr_subst_chain(x, e, 2, vars, vals) != tower(x, vy, 90)) {
        printf("FAIL: expr_subst_chain through two definitions\n");
        fail = 1;
    }
    /* a definition that mentions its own variable keeps it */
    Expr *self[1] = { expr_add(x, vx, vy) };
    Expr *sv[1] = { vx };
    if (expr_subst_chain(x, vx, 1, sv, self) != expr_add(x, vx, vy)) {
        printf("FAIL: a self-referring definition\n");
        fail = 1;
    }
    arena_free(a);
    if (!fail)
        printf("substitution on shared graphs: all checks passed\n");
    return fail;
}
