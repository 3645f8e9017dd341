/*
 * test_expr.c - unit tests of the symbolic expression engine (compiler/expr.c):
 * canonical simplification, hash-consing, differentiation against finite
 * differences, evaluation, printing in the three styles, and a round trip
 * through a C compiler for the C style.
 *
 * Usage: test_expr [CC WORKDIR]   (the C round trip runs when both are given)
 */
#include "expr.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int failures, checks;

#define CHECK(cond)                                                          \
    do {                                                                     \
        checks++;                                                            \
        if (!(cond)) {                                                       \
            failures++;                                                      \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                    \
    } while (0)

static Arena *arena;
static ExprCtx *x;

/* Parameters 0..5 print as k1 k2 m1 m2 c1 c2, in C as p[i]. */
static const char *param_name(void *ud, int i, ExprStyle s)
{
    static const char *const text[] = {"k1", "k2", "m1", "m2", "c1", "c2"};
    static const char *const tex[] = {"k_{1}", "k_{2}", "m_{1}", "m_{2}", "c_{1}", "c_{2}"};
    static char buf[32];
    (void)ud;
    if (s == EXPR_C) {
        snprintf(buf, sizeof buf, "p[%d]", i);
        return buf;
    }
    if (i < 0 || i > 5)
        return NULL;
    return s == EXPR_LATEX ? tex[i] : text[i];
}

static const char *var_name(void *ud, int i, ExprStyle s)
{
    static char buf[32];
    (void)ud;
    if (s != EXPR_C)
        return NULL; /* exercise the fallback names */
    snprintf(buf, sizeof buf, "y[%d]", i);
    return buf;
}

static const ExprNamer namer = {param_name, var_name, NULL};

static Expr *N(double v) { return expr_num(x, v); }
static Expr *P(int i) { return expr_param(x, i); }
static Expr *V(int i) { return expr_var(x, i); }
static Expr *add(Expr *a, Expr *b) { return expr_add(x, a, b); }
static Expr *sub(Expr *a, Expr *b) { return expr_sub(x, a, b); }
static Expr *mul(Expr *a, Expr *b) { return expr_mul(x, a, b); }
static Expr *dvd(Expr *a, Expr *b) { return expr_div(x, a, b); }

/* Compares a printed string with the expected one, reporting both. */
static void check_print(const Expr *e, ExprStyle style, const char *want, int line)
{
    char *got = expr_to_string(x, e, style, &namer);
    checks++;
    if (strcmp(got, want) != 0) {
        failures++;
        fprintf(stderr, "%s:%d: printed\n  %s\nexpected\n  %s\n", __FILE__, line, got, want);
    }
}
#define PRINTS(e, style, want) check_print((e), (style), (want), __LINE__)

static bool close_to(double a, double b, double rel)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    return fabs(a - b) <= rel * (1 + fabs(a) + fabs(b));
}

/* ------------------------------------------------------------------ */

static void test_hash_consing(void)
{
    Expr *k1 = P(0), *k2 = P(1);
    CHECK(P(0) == k1);
    CHECK(V(3) == V(3));
    CHECK(expr_time(x) == expr_time(x));
    CHECK(N(2.5) == N(2.5));
    CHECK(N(0.0) == N(-0.0));
    CHECK(add(k1, k2) == add(k2, k1));
    CHECK(mul(k1, k2) == mul(k2, k1));
    CHECK(add(mul(k1, V(0)), k2) == add(k2, mul(V(0), k1)));
    CHECK(expr_call(x, FN_SIN, k1, NULL) == expr_call(x, FN_SIN, k1, NULL));
    CHECK(expr_call(x, FN_MIN, k1, k2) == expr_call(x, FN_MIN, k2, k1));
}

static void test_simplify(void)
{
    Expr *a = P(0), *b = P(1), *c = P(6), *d = P(7), *y = V(0);
    /* m and n are positive (masses: every run refuses them <= 0), so they
     * cancel; a, b, c, d and y may be 0 at run time, so they do not */
    Expr *m = P(10), *n = P(11);
    expr_assume_positive(x, m);
    expr_assume_positive(x, n);
    /* constant folding, exact on integers */
    CHECK(add(N(2), N(3)) == N(5));
    CHECK(mul(N(2), N(3)) == N(6));
    CHECK(dvd(N(6), N(3)) == N(2));
    CHECK(dvd(mul(N(6), y), N(3)) == mul(N(2), y));
    CHECK(expr_powi(x, N(2), 10) == N(1024));
    CHECK(sub(N(0.3), N(0.1)) == N(0.3 - 0.1));
    CHECK(expr_call(x, FN_COS, N(0), NULL) == N(1));
    /* identities */
    CHECK(mul(N(0), y) == N(0));
    CHECK(mul(y, N(0)) == N(0));
    CHECK(mul(N(1), y) == y);
    CHECK(add(y, N(0)) == y);
    CHECK(sub(y, y) == N(0));
    CHECK(sub(add(a, b), add(b, a)) == N(0));
    Expr *yy = mul(y, y);
    CHECK(yy->kind == EX_POW && yy->args[0] == y && yy->args[1] == N(2));
    CHECK(yy == expr_powi(x, y, 2));
    CHECK(dvd(m, m) == N(1));
    CHECK(dvd(y, y) != N(1) && dvd(a, a) != N(1));     /* 0/0 is kept */
    CHECK(dvd(mul(N(3), m), mul(N(3), m)) == N(1));
    CHECK(dvd(mul(a, m), m) == a);
    CHECK(dvd(mul(a, b), b) != a);
    CHECK(dvd(expr_powi(x, a, 2), a) != a && dvd(expr_powi(x, m, 2), m) == m);
    CHECK(expr_powi(x, expr_powi(x, y, 2), 3) == expr_powi(x, y, 6));
    CHECK(expr_pow(x, expr_pow(x, y, a), N(2)) == expr_pow(x, y, mul(N(2), a)));
    CHECK(mul(expr_powi(x, m, 2), expr_powi(x, m, -2)) == N(1));
    CHECK(mul(expr_powi(x, y, 2), expr_powi(x, y, -2)) != N(1));
    CHECK(mul(expr_powi(x, y, 2), expr_powi(x, y, 3)) == expr_powi(x, y, 5));
    CHECK(mul(expr_powi(x, y, -2), expr_powi(x, y, -1)) == expr_powi(x, y, -3));
    CHECK(expr_neg(x, expr_neg(x, y)) == y);
    Expr *sqy = expr_call(x, FN_SQRT, y, NULL);
    CHECK(mul(sqy, sqy) == y);
    CHECK(expr_powi(x, expr_call(x, FN_ABS, y, NULL), 2) == expr_powi(x, y, 2));
    /* flattening */
    Expr *s1 = add(add(a, b), c), *s2 = add(a, add(b, c));
    CHECK(s1 == s2);
    CHECK(s1->kind == EX_ADD && s1->nargs == 3);
    Expr *p1 = mul(mul(a, b), c), *p2 = mul(a, mul(b, c));
    CHECK(p1 == p2);
    CHECK(p1->kind == EX_MUL && p1->nargs == 3);
    /* numeric coefficient first */
    Expr *t = mul(y, N(3));
    CHECK(t->kind == EX_MUL && t->args[0] == N(3) && t->args[1] == y);
    /* like terms */
    Expr *k1m1 = dvd(a, c);
    CHECK(sub(mul(N(2), k1m1), k1m1) == k1m1);
    CHECK(add(sub(dvd(a, c), dvd(b, d)), dvd(b, d)) == dvd(a, c));
    CHECK(add(y, y) == mul(N(2), y));
    /* a numeric factor distributes over a sum; a sum times a monomial too */
    CHECK(mul(N(2), add(a, b)) == add(mul(N(2), a), mul(N(2), b)));
    CHECK(mul(y, add(a, b)) == add(mul(a, y), mul(b, y)));
    /* a product of sums stays a product (no expansion blow-up) */
    Expr *ps = mul(add(a, b), add(c, d));
    CHECK(ps->kind == EX_MUL && ps->nargs == 2);
    /* ... unless expanding cancels: a sum times its own denominator, or
     * (a + b)*(a - b) */
    Expr *mn = add(m, n);
    CHECK(mul(mn, add(dvd(y, mn), dvd(a, mn))) == add(y, a));
    CHECK(mul(add(a, b), sub(a, b)) == sub(expr_powi(x, a, 2), expr_powi(x, b, 2)));
    /* division by a sum is a power -1 factor; the content of the sum moves
     * into the coefficient so 1/(2a + 2b) meets 1/(a + b)/2 */
    Expr *inv = dvd(N(1), add(c, d));
    CHECK(inv->kind == EX_POW && inv->args[1] == N(-1) && inv->args[0] == add(c, d));
    CHECK(dvd(N(1), add(mul(N(2), a), mul(N(2), b))) == dvd(dvd(N(1), add(a, b)), N(2)));
    CHECK(dvd(add(m, n), add(m, n)) == N(1));
    CHECK(dvd(add(c, d), add(c, d)) != N(1));           /* c + d may be 0 */
    CHECK(mul(add(m, mul(N(2), n)), dvd(N(1), add(mul(N(2), m), mul(N(4), n)))) == N(0.5));
    CHECK(mul(sub(a, b), dvd(N(1), sub(b, a))) != N(-1)); /* a - b may be 0 */
    /* products under integer powers distribute */
    CHECK(expr_powi(x, mul(a, b), -1) == mul(expr_powi(x, a, -1), expr_powi(x, b, -1)));
    /* conditionals and logic fold */
    CHECK(expr_if(x, N(1), a, b) == a);
    CHECK(expr_if(x, N(0), a, b) == b);
    CHECK(expr_if(x, expr_cmp(x, CMP_LT, y, a), b, b) == b);
    CHECK(expr_cmp(x, CMP_LE, y, y) == N(1));
    CHECK(expr_cmp(x, CMP_LT, N(1), N(2)) == N(1));
    Expr *lt = expr_cmp(x, CMP_LT, y, a);
    CHECK(expr_and(x, lt, N(1)) == lt);
    CHECK(expr_and(x, lt, N(0)) == N(0));
    CHECK(expr_or(x, lt, N(1)) == N(1));
    CHECK(expr_not(x, lt) == expr_cmp(x, CMP_GE, y, a));
    CHECK(expr_not(x, expr_not(x, lt)) == lt);
    /* rational cancellation on demand */
    Expr *den;
    Expr *z = add(add(dvd(m, add(m, n)), dvd(n, add(m, n))), N(-1));
    CHECK(!expr_is_zero(z));
    CHECK(expr_is_zero(expr_together(x, z, &den)));
    CHECK(expr_expand(x, ps) == add(add(mul(a, c), mul(a, d)), add(mul(b, c), mul(b, d))));
    /* queries */
    CHECK(expr_depends_on(ps, d) && !expr_depends_on(ps, y));
    CHECK(expr_has_kind(add(a, expr_time(x)), EX_TIME) && !expr_has_kind(ps, EX_VAR));
    double v = 0;
    CHECK(expr_is_num(N(4), &v) && v == 4 && !expr_is_num(a, NULL));
    /* subst re-simplifies */
    CHECK(expr_subst(x, add(mul(a, y), b), y, N(0)) == b);
    CHECK(expr_subst(x, dvd(y, m), y, m) == N(1));
    CHECK(expr_subst(x, dvd(y, c), y, c) != N(1));
}

static void test_diff(void)
{
    Expr *y = V(0), *t = expr_time(x), *a = P(0);
    /* polynomial */
    Expr *poly = add(add(expr_powi(x, y, 3), mul(N(3), y)), N(1));
    CHECK(expr_diff(x, poly, y) == add(mul(N(3), expr_powi(x, y, 2)), N(3)));
    CHECK(expr_diff(x, poly, t) == N(0));
    CHECK(expr_diff(x, mul(a, y), a) == y);
    /* chain rule */
    Expr *s = expr_call(x, FN_SIN, expr_powi(x, y, 2), NULL);
    CHECK(expr_diff(x, s, y) == mul(mul(N(2), y), expr_call(x, FN_COS, expr_powi(x, y, 2), NULL)));
    Expr *cs = expr_call(x, FN_COS, mul(a, t), NULL);
    CHECK(expr_diff(x, cs, t) == expr_neg(x, mul(a, expr_call(x, FN_SIN, mul(a, t), NULL))));
    /* quotient: d/dw (w/(1 + w)) = 1/(1 + w)^2, for w > 0 (1 + w cancels) */
    Expr *w = V(10);
    expr_assume_positive(x, w);
    Expr *q = dvd(w, add(N(1), w));
    Expr *dq = expr_diff(x, q, w), *den;
    Expr *nu = expr_together(x, dq, &den);
    CHECK(nu == N(1) && den == expr_powi(x, add(N(1), w), 2));
    /* if: both branches */
    Expr *c = expr_cmp(x, CMP_LE, t, N(1));
    Expr *f = expr_if(x, c, expr_powi(x, t, 2), t);
    CHECK(expr_diff(x, f, t) == expr_if(x, c, mul(N(2), t), N(1)));
    /* abs, min, max are piecewise */
    Expr *ab = expr_diff(x, expr_call(x, FN_ABS, mul(a, y), NULL), y);
    CHECK(ab == expr_if(x, expr_cmp(x, CMP_GE, mul(a, y), N(0)), a, expr_neg(x, a)));
    Expr *mn = expr_diff(x, expr_call(x, FN_MIN, y, N(2)), y);
    CHECK(mn == expr_if(x, expr_cmp(x, CMP_LE, N(2), y), N(0), N(1)) ||
          mn == expr_if(x, expr_cmp(x, CMP_LE, y, N(2)), N(1), N(0)));
    /* comparisons are piecewise constant */
    CHECK(expr_diff(x, c, t) == N(0));
}

static void test_eval(void)
{
    double params[] = {2, 3, 5, 7, 0, 0};
    double vars[] = {0.5, -1.5};
    ExprEnv env = {params, vars, 0.25};
    Expr *y0 = V(0), *y1 = V(1), *t = expr_time(x);
    CHECK(expr_eval(add(P(0), mul(P(1), y0)), &env) == 2 + 3 * 0.5);
    CHECK(expr_eval(dvd(P(0), add(P(2), P(3))), &env) == 2.0 / 12);
    CHECK(expr_eval(expr_pow(x, P(2), y0), &env) == pow(5, 0.5));
    CHECK(expr_eval(expr_call(x, FN_MIN, y0, y1), &env) == -1.5);
    CHECK(expr_eval(expr_call(x, FN_MAX, y0, y1), &env) == 0.5);
    CHECK(expr_eval(expr_call(x, FN_ABS, y1, NULL), &env) == 1.5);
    CHECK(expr_eval(expr_call(x, FN_SQRT, P(0), NULL), &env) == sqrt(2));
    CHECK(expr_eval(expr_call(x, FN_LOG, P(0), NULL), &env) == log(2));
    CHECK(expr_eval(expr_call(x, FN_EXP, y1, NULL), &env) == exp(-1.5));
    CHECK(expr_eval(expr_call(x, FN_TAN, t, NULL), &env) == tan(0.25));
    Expr *c1 = expr_cmp(x, CMP_LT, t, N(1)), *c2 = expr_cmp(x, CMP_GT, y1, N(0));
    CHECK(expr_eval(c1, &env) == 1 && expr_eval(c2, &env) == 0);
    CHECK(expr_eval(expr_and(x, c1, c2), &env) == 0);
    CHECK(expr_eval(expr_or(x, c1, c2), &env) == 1);
    CHECK(expr_eval(expr_not(x, c2), &env) == 1);
    CHECK(expr_eval(expr_cmp(x, CMP_EQ, y0, N(0.5)), &env) == 1);
    CHECK(expr_eval(expr_cmp(x, CMP_NE, y0, N(0.5)), &env) == 0);
    CHECK(expr_eval(expr_if(x, c1, y0, y1), &env) == 0.5);
    CHECK(expr_eval(expr_if(x, c2, y0, y1), &env) == -1.5);
    /* unspecified leaves count as 0 */
    ExprEnv none = {NULL, NULL, 0};
    CHECK(expr_eval(add(P(0), add(y0, N(1))), &none) == 1);
}

static void test_print(void)
{
    Expr *k1 = P(0), *k2 = P(1), *m1 = P(2), *m2 = P(3), *c1 = P(4), *c2 = P(5);
    Expr *M = add(m1, m2), *y0 = V(0), *y1 = V(1), *t = expr_time(x);
    /* m1 and m2 are masses (every run refuses them <= 0), as nsmc marks them */
    expr_assume_positive(x, m1);
    expr_assume_positive(x, m2);

    Expr *e1 = sub(dvd(k1, m1), dvd(k2, m2));
    PRINTS(e1, EXPR_TEXT, "k1/m1 - k2/m2");
    PRINTS(e1, EXPR_C, "p[0]/p[2] - p[1]/p[3]");
    PRINTS(e1, EXPR_LATEX, "\\frac{k_{1}}{m_{1}} - \\frac{k_{2}}{m_{2}}");

    Expr *e2 = expr_neg(x, dvd(add(k1, k2), M));
    PRINTS(e2, EXPR_TEXT, "-(k1 + k2)/(m1 + m2)");
    PRINTS(e2, EXPR_C, "-(p[0] + p[1])/(p[2] + p[3])");
    PRINTS(e2, EXPR_LATEX, "-\\frac{k_{1} + k_{2}}{m_{1} + m_{2}}");

    /* the paper's Eq. 11 entry, reached the way a derivation meets it:
     * k2 - m2 (k1 + k2)/(m1 + m2) */
    Expr *e3 = sub(k2, dvd(mul(m2, add(k1, k2)), M));
    PRINTS(e3, EXPR_TEXT, "(k2*m1 - k1*m2)/(m1 + m2)");
    PRINTS(e3, EXPR_C, "(p[1]*p[2] - p[0]*p[3])/(p[2] + p[3])");
    PRINTS(e3, EXPR_LATEX, "\\frac{k_{2} m_{1} - k_{1} m_{2}}{m_{1} + m_{2}}");

    Expr *e4 = dvd(sub(sub(mul(expr_neg(x, c1), y1), mul(k1, y0)), V(3)), m1);
    PRINTS(e4, EXPR_TEXT, "-(k1*y0 + c1*y1 + y3)/m1");
    PRINTS(e4, EXPR_C, "-(p[0]*y[0] + p[4]*y[1] + y[3])/p[2]");

    Expr *e5 = add(N(1), dvd(y0, expr_powi(x, m1, 2)));
    PRINTS(e5, EXPR_TEXT, "1 + y0/m1^2");
    PRINTS(e5, EXPR_C, "1.0 + y[0]/(p[2]*p[2])");
    PRINTS(e5, EXPR_LATEX, "1 + \\frac{y_{0}}{m_{1}^{2}}");

    Expr *e6 = mul(N(0.1), expr_call(x, FN_SIN, mul(N(2), t), NULL));
    PRINTS(e6, EXPR_TEXT, "0.1*sin(2*t)");
    PRINTS(e6, EXPR_C, "0.1*sin(2.0*t)");
    PRINTS(e6, EXPR_LATEX, "0.1 \\sin\\left(2 t\\right)");

    Expr *e7 = expr_if(x, expr_cmp(x, CMP_LE, t, N(1)), dvd(c2, N(3)), expr_call(x, FN_ABS, y0, NULL));
    PRINTS(e7, EXPR_TEXT, "if(t <= 1, c2/3, abs(y0))");
    PRINTS(e7, EXPR_C, "(t <= 1.0 ? p[5]/3.0 : fabs(y[0]))");
    PRINTS(e7, EXPR_LATEX,
           "\\begin{cases} \\frac{c_{2}}{3} & \\text{if } t \\le 1 \\\\ \\left|y_{0}\\right| & "
           "\\text{otherwise} \\end{cases}");

    Expr *e8 = sub(expr_pow(x, y0, N(0.5)), expr_powi(x, sub(y1, N(1)), 3));
    PRINTS(e8, EXPR_TEXT, "sqrt(y0) - (y1 - 1)^3");
    PRINTS(e8, EXPR_C, "sqrt(y[0]) - (y[1] - 1.0)*(y[1] - 1.0)*(y[1] - 1.0)");
    PRINTS(e8, EXPR_LATEX, "\\sqrt{y_{0}} - \\left(y_{1} - 1\\right)^{3}");

    Expr *e9 = expr_or(x, expr_and(x, expr_cmp(x, CMP_GT, y0, N(0)), expr_cmp(x, CMP_LT, y1, N(0))),
                       expr_not(x, expr_cmp(x, CMP_EQ, t, N(2))));
    PRINTS(e9, EXPR_C, "t != 2.0 || (y[1] < 0.0 && y[0] > 0.0)");
    PRINTS(e9, EXPR_TEXT, "t != 2 or y1 < 0 and y0 > 0");
    PRINTS(e9, EXPR_LATEX, "t \\ne 2 \\lor y_{1} < 0 \\land y_{0} > 0");

    Expr *e10 = expr_pow(x, m1, y0);
    PRINTS(e10, EXPR_C, "pow(p[2], y[0])");
    PRINTS(e10, EXPR_TEXT, "m1^y0");
    PRINTS(expr_powi(x, y0, 7), EXPR_C, "pow(y[0], 7.0)");
    PRINTS(dvd(N(1e-5), mul(m1, m2)), EXPR_LATEX, "\\frac{10^{-5}}{m_{1} m_{2}}");
    PRINTS(N(2), EXPR_C, "2.0");
    PRINTS(N(-0.1), EXPR_TEXT, "-0.1");
    PRINTS(N(1.0 / 3), EXPR_TEXT, "0.3333333333333333");
    PRINTS(expr_call(x, FN_MAX, y0, N(2)), EXPR_C, "fmax(2.0, y[0])");
    PRINTS(P(9), EXPR_TEXT, "p9");
    PRINTS(mul(N(-2), t), EXPR_TEXT, "-2*t");
    PRINTS(sub(N(1), y0), EXPR_TEXT, "1 - y0");
    PRINTS(sub(y0, N(1)), EXPR_TEXT, "y0 - 1");
    PRINTS(expr_neg(x, dvd(k1, m1)), EXPR_TEXT, "-k1/m1");
    PRINTS(expr_neg(x, dvd(k1, m1)), EXPR_C, "-p[0]/p[2]");
    PRINTS(dvd(N(-1), m1), EXPR_C, "-1.0/p[2]");
    PRINTS(dvd(mul(N(2), k1), N(3)), EXPR_TEXT, "2*k1/3");
    PRINTS(mul(N(2), expr_pow(x, N(3), y0)), EXPR_LATEX, "2 \\cdot 3^{y_{0}}");
    PRINTS(mul(N(2), expr_pow(x, N(3), y0)), EXPR_C, "2.0*pow(3.0, y[0])");
    PRINTS(mul(expr_call(x, FN_EXP, y0, NULL), expr_call(x, FN_LOG, m1, NULL)), EXPR_C,
           "exp(y[0])*log(p[2])");
    PRINTS(mul(expr_call(x, FN_TAN, y0, NULL), add(k1, k2)), EXPR_LATEX,
           "k_{1} \\tan\\left(y_{0}\\right) + k_{2} \\tan\\left(y_{0}\\right)");
    PRINTS(mul(add(k1, k2), add(m1, y0)), EXPR_TEXT, "(k1 + k2)*(m1 + y0)");
    PRINTS(mul(add(k1, k2), add(m1, y0)), EXPR_LATEX,
           "\\left(k_{1} + k_{2}\\right) \\left(m_{1} + y_{0}\\right)");
    PRINTS(expr_powi(x, mul(m1, y0), 2), EXPR_TEXT, "m1^2*y0^2");
    PRINTS(expr_pow(x, mul(m1, y0), N(0.25)), EXPR_TEXT, "(m1*y0)^0.25");
    PRINTS(mul(N(2), expr_cmp(x, CMP_LT, y0, N(1))), EXPR_C, "2.0*(y[0] < 1.0)");
    /* a rational identity prints as 0 */
    PRINTS(add(add(dvd(m1, M), dvd(m2, M)), N(-1)), EXPR_TEXT, "0");
}

/* Printing does not depend on the order in which nodes were created. */
static void test_deterministic(void)
{
    Arena *a2 = arena_new();
    ExprCtx *x2 = expr_ctx_new(a2);
    /* build the same sum with leaves created in the opposite order */
    Expr *m2 = expr_param(x2, 3), *k2 = expr_param(x2, 1), *m1 = expr_param(x2, 2),
         *k1 = expr_param(x2, 0);
    Expr *e2 = expr_add(x2, expr_div(x2, k2, m2), expr_neg(x2, expr_div(x2, k1, m1)));
    Expr *e1 = sub(dvd(P(0), P(2)), dvd(P(1), P(3)));
    e1 = expr_neg(x, e1);
    CHECK(strcmp(expr_to_string(x, e1, EXPR_TEXT, &namer), expr_to_string(x2, e2, EXPR_TEXT, &namer)) == 0);
    CHECK(e1->hash == e2->hash);
    arena_free(a2);
}

/* ------------------------------------------------------------------ */
/* Random expressions: a plain tree evaluated directly with libm, and the
 * same tree built through the constructors.                            */
/* ------------------------------------------------------------------ */

enum { T_NUM, T_PARAM, T_VAR, T_TIME, T_ADD, T_SUB, T_MUL, T_DIV, T_POW, T_SIN, T_COS, T_EXP,
       T_SQRT, T_LOG, T_ABS, T_MIN, T_MAX, T_IF, T_TAN, T_NEG, T_NKIND };

typedef struct Tree {
    int op, leaf, ipow;
    double c;
    struct Tree *a, *b, *cc;
} Tree;

static unsigned long long rng_state = 88172645463325252ull;

static unsigned rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (unsigned)(rng_state >> 11);
}

static double rnd01(void)
{
    return (rnd() % 1000000) / 1e6;
}

static Tree pool[200000];
static int npool;

static Tree *gen(int depth)
{
    Tree *t = &pool[npool++];
    memset(t, 0, sizeof *t);
    if (depth == 0 || rnd() % 10 == 0) {
        static const int leaves[] = {T_NUM, T_PARAM, T_PARAM, T_VAR, T_VAR, T_TIME};
        t->op = leaves[rnd() % 6];
        t->leaf = (int)(rnd() % 2);
        t->c = (double)((int)(rnd() % 7) - 3) / (rnd() % 2 ? 1 : 2);
        return t;
    }
    t->op = T_ADD + (int)(rnd() % (T_NKIND - T_ADD));
    t->a = gen(depth - 1);
    t->b = gen(depth - 1);
    t->cc = gen(depth - 1);
    t->ipow = (int)(rnd() % 5) - 2;
    return t;
}

/* The denominators and function arguments are kept away from poles: 1.5 + a^2
 * below a division bar, a sum of squares under sqrt and log. */
static double tree_eval(const Tree *t, const double *p, const double *v, double tm)
{
    double a = t->a ? tree_eval(t->a, p, v, tm) : 0;
    double b = t->b ? tree_eval(t->b, p, v, tm) : 0;
    switch (t->op) {
    case T_NUM: return t->c;
    case T_PARAM: return p[t->leaf];
    case T_VAR: return v[t->leaf];
    case T_TIME: return tm;
    case T_ADD: return a + b;
    case T_SUB: return a - b;
    case T_MUL: return a * b;
    case T_DIV: return a / (1.5 + b * b);
    case T_POW: return pow(1.5 + a * a, t->ipow);
    case T_SIN: return sin(a);
    case T_COS: return cos(a);
    case T_EXP: return exp(sin(a));
    case T_SQRT: return sqrt(1 + a * a);
    case T_LOG: return log(1 + a * a);
    case T_ABS: return fabs(a);
    case T_MIN: return fmin(a, b);
    case T_MAX: return fmax(a, b);
    case T_IF: return tree_eval(t->cc, p, v, tm) < 0.3 ? a : b;
    case T_TAN: return tan(0.5 * sin(a));
    case T_NEG: return -a;
    }
    return 0;
}

static Expr *sq(Expr *a) { return expr_powi(x, a, 2); }

/* Builds the tree; `swap` exchanges the operands of + and * everywhere. */
static Expr *tree_build(const Tree *t, bool swap)
{
    Expr *a = t->a ? tree_build(t->a, swap) : NULL;
    Expr *b = t->b ? tree_build(t->b, swap) : NULL;
    switch (t->op) {
    case T_NUM: return N(t->c);
    case T_PARAM: return P(t->leaf);
    case T_VAR: return V(t->leaf);
    case T_TIME: return expr_time(x);
    case T_ADD: return swap ? add(b, a) : add(a, b);
    case T_SUB: return sub(a, b);
    case T_MUL: return swap ? mul(b, a) : mul(a, b);
    case T_DIV: return dvd(a, add(N(1.5), sq(b)));
    case T_POW: return expr_powi(x, add(N(1.5), sq(a)), t->ipow);
    case T_SIN: return expr_call(x, FN_SIN, a, NULL);
    case T_COS: return expr_call(x, FN_COS, a, NULL);
    case T_EXP: return expr_call(x, FN_EXP, expr_call(x, FN_SIN, a, NULL), NULL);
    case T_SQRT: return expr_call(x, FN_SQRT, add(N(1), sq(a)), NULL);
    case T_LOG: return expr_call(x, FN_LOG, add(N(1), sq(a)), NULL);
    case T_ABS: return expr_call(x, FN_ABS, a, NULL);
    case T_MIN: return expr_call(x, FN_MIN, a, b);
    case T_MAX: return expr_call(x, FN_MAX, a, b);
    case T_IF: return expr_if(x, expr_cmp(x, CMP_LT, tree_build(t->cc, swap), N(0.3)), a, b);
    case T_TAN: return expr_call(x, FN_TAN, mul(N(0.5), expr_call(x, FN_SIN, a, NULL)), NULL);
    case T_NEG: return expr_neg(x, a);
    }
    return NULL;
}

static void random_point(double *p, double *v, double *tm)
{
    for (int i = 0; i < 3; i++) {
        p[i] = 0.5 + rnd01();
        v[i] = -1 + 2 * rnd01();
    }
    *tm = rnd01() * 2;
}

/* Simplification preserves value; operand order does not change the
 * canonical form; expr_diff agrees with a central difference of the tree. */
static void test_random(void)
{
    int nexpr = 400, bad_value = 0, bad_diff = 0, bad_swap = 0, kinks = 0, compared = 0;
    int nonzero = 0, bad_subst = 0;
    for (int k = 0; k < nexpr; k++) {
        npool = 0;
        Tree *t = gen(2 + k % 5);
        Expr *e = tree_build(t, false);
        if (tree_build(t, true) != e)
            bad_swap++;
        for (int rep = 0; rep < 3; rep++) {
            double p[3], v[3], tm;
            random_point(p, v, &tm);
            ExprEnv env = {p, v, tm};
            double want = tree_eval(t, p, v, tm), got = expr_eval(e, &env);
            if (!close_to(got, want, 1e-9)) {
                bad_value++;
                fprintf(stderr, "value mismatch: %.17g vs %.17g for ", got, want);
                expr_print(stderr, e, EXPR_TEXT, &namer);
                fputc('\n', stderr);
            }
            /* substitution y0 -> p0 + t re-simplifies without changing the value */
            Expr *se = expr_subst(x, e, V(0), add(P(0), expr_time(x)));
            double v2[3] = {p[0] + tm, v[1], v[2]};
            if (!close_to(expr_eval(se, &env), tree_eval(t, p, v2, tm), 1e-9))
                bad_subst++;
            /* derivative with respect to each kind of leaf */
            for (int w = 0; w < 5; w++) {
                Expr *leaf = w < 2 ? V(w) : w < 4 ? P(w - 2) : expr_time(x);
                double *slot = w < 2 ? &v[w] : w < 4 ? &p[w - 2] : &tm;
                double d = expr_eval(expr_diff(x, e, leaf), &env);
                double save = *slot, fd[2];
                for (int j = 0; j < 2; j++) {
                    double h = j ? 1e-4 : 1e-5;
                    *slot = save + h;
                    double up = tree_eval(t, p, v, tm);
                    *slot = save - h;
                    double dn = tree_eval(t, p, v, tm);
                    fd[j] = (up - dn) / (2 * h);
                }
                *slot = save;
                if (!close_to(fd[0], fd[1], 1e-5)) {
                    kinks++; /* a branch switch lies within h: no reference */
                    continue;
                }
                compared++;
                nonzero += d != 0;
                if (!close_to(d, fd[0], 1e-5)) {
                    bad_diff++;
                    fprintf(stderr, "derivative mismatch: %.17g vs %.17g for ", d, fd[0]);
                    expr_print(stderr, e, EXPR_TEXT, &namer);
                    fputc('\n', stderr);
                }
            }
        }
    }
    CHECK(bad_value == 0);
    CHECK(bad_diff == 0);
    CHECK(bad_swap == 0);
    CHECK(bad_subst == 0);
    printf("random: %d expressions, %d derivatives compared (%d nonzero), %d points near a kink\n",
           nexpr, compared, nonzero, kinks);
    CHECK(nonzero > 1500);
    CHECK(kinks * 20 < compared); /* the comparison really took place */
}

static int sign(int v)
{
    return (v > 0) - (v < 0);
}

/* Collects `e` and its subexpressions, up to `cap`. */
static void collect(Expr *e, Expr **out, int *n, int cap)
{
    if (*n >= cap)
        return;
    out[(*n)++] = e;
    for (int i = 0; i < e->nargs; i++)
        collect(e->args[i], out, n, cap);
}

/* expr_compare is a strict total order: sums and products are sorted with
 * it, so an inconsistency would leave like terms apart. */
static void test_order(void)
{
    enum { CAP = 600 };
    static Expr *es[CAP];
    int n = 0;
    while (n < CAP) {
        npool = 0;
        collect(tree_build(gen(1 + n % 4), false), es, &n, CAP);
    }
    int bad = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int c = expr_compare(es[i], es[j]);
            if ((c == 0) != (es[i] == es[j]) || sign(c) != -sign(expr_compare(es[j], es[i])))
                bad++;
        }
    for (int k = 0; k < 200000; k++) {
        Expr *a = es[rnd() % n], *b = es[rnd() % n], *c = es[rnd() % n];
        if (expr_compare(a, b) < 0 && expr_compare(b, c) < 0 && !(expr_compare(a, c) < 0))
            bad++;
    }
    CHECK(bad == 0);
}

/* The C style compiles and computes what expr_eval computes. */
static void test_c_roundtrip(const char *cc, const char *dir)
{
    enum { NE = 120 };
    Expr *es[NE];
    int n = 0;
    es[n++] = sub(P(1), dvd(mul(P(3), add(P(0), P(1))), add(P(2), P(3))));
    es[n++] = expr_if(x, expr_cmp(x, CMP_LE, expr_time(x), N(1)), dvd(P(5), N(3)),
                      expr_call(x, FN_ABS, V(0), NULL));
    es[n++] = expr_powi(x, sub(V(1), N(1)), 3);
    es[n++] = expr_powi(x, V(1), -7);
    es[n++] = expr_pow(x, P(2), V(0));
    es[n++] = expr_or(x, expr_and(x, expr_cmp(x, CMP_GT, V(0), N(0)), expr_cmp(x, CMP_LT, V(1), N(0))),
                      expr_not(x, expr_cmp(x, CMP_EQ, expr_time(x), N(2))));
    es[n++] = mul(N(1e-300), N(1e300));
    es[n++] = dvd(N(0.1), V(2));
    while (n < NE) {
        npool = 0;
        Tree *t = gen(1 + n % 5);
        Expr *e = tree_build(t, false);
        es[n] = n % 2 ? e : expr_diff(x, e, V(n % 3));
        n++;
    }
    double params[6] = {1.25, 0.75, 2.5, 1.5, 0.3, 0.7}, vars[3] = {0.4, -0.6, 0.9}, tm = 0.8;
    char src[1024], exe[1024], cmd[4096];
    snprintf(src, sizeof src, "%s/expr_roundtrip.c", dir);
    snprintf(exe, sizeof exe, "%s/expr_roundtrip", dir);
    FILE *f = fopen(src, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    fprintf(f, "#include <math.h>\n#include <stdio.h>\n\n");
    for (int i = 0; i < n; i++) {
        fprintf(f, "static double f%d(const double *p, const double *y, double t)\n{\n"
                   "    (void)p;\n    (void)y;\n    (void)t;\n    return ", i);
        expr_print(f, es[i], EXPR_C, &namer);
        fprintf(f, ";\n}\n\n");
    }
    fprintf(f, "int main(void)\n{\n    const double p[] = {%.17g, %.17g, %.17g, %.17g, %.17g, %.17g};\n",
            params[0], params[1], params[2], params[3], params[4], params[5]);
    fprintf(f, "    const double y[] = {%.17g, %.17g, %.17g};\n", vars[0], vars[1], vars[2]);
    for (int i = 0; i < n; i++)
        fprintf(f, "    printf(\"%%.17g\\n\", f%d(p, y, %.17g));\n", i, tm);
    fprintf(f, "    return 0;\n}\n");
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s -std=c11 -Wall -Wextra -pedantic -Werror -O0 -o %s %s -lm", cc, exe, src);
    int rc = system(cmd);
    CHECK(rc == 0);
    if (rc != 0)
        return;
    FILE *pipe = popen(exe, "r");
    CHECK(pipe != NULL);
    if (!pipe)
        return;
    ExprEnv env = {params, vars, tm};
    for (int i = 0; i < n; i++) {
        double got;
        if (fscanf(pipe, "%lf", &got) != 1) {
            CHECK(!"generated program printed too little");
            break;
        }
        double want = expr_eval(es[i], &env);
        if (!close_to(got, want, 1e-12)) {
            fprintf(stderr, "C value %.17g, expr_eval %.17g for f%d\n", got, want, i);
            CHECK(close_to(got, want, 1e-12));
        }
    }
    CHECK(pclose(pipe) == 0);
}

/* Jacobian-like expressions of a chain of 20 masses, each tied to its
 * neighbours by springs and dampers, plus every stuck pair's reduced
 * acceleration: must build in well under 0.1 s. */
static void test_performance(void)
{
    enum { NM = 20 };
    clock_t start = clock();
    Expr *acc[NM];
    for (int i = 0; i < NM; i++) {
        Expr *k = P(10 + i), *kn = P(10 + i + 1), *c = P(40 + i), *cn = P(40 + i + 1), *m = P(70 + i);
        Expr *xi = V(i), *vi = V(NM + i);
        Expr *f = expr_neg(x, mul(add(k, kn), xi));
        f = sub(f, mul(add(c, cn), vi));
        if (i > 0)
            f = add(f, add(mul(k, V(i - 1)), mul(c, V(NM + i - 1))));
        if (i + 1 < NM)
            f = add(f, add(mul(kn, V(i + 1)), mul(cn, V(NM + i + 1))));
        f = add(f, mul(P(100 + i), expr_call(x, FN_SIN, expr_time(x), NULL)));
        acc[i] = dvd(f, m);
    }
    int nonzero = 0;
    for (int i = 0; i + 1 < NM; i++) {
        /* bodies i and i+1 stuck: common acceleration and contact force */
        Expr *mi = P(70 + i), *mj = P(70 + i + 1);
        Expr *a = dvd(add(mul(acc[i], mi), mul(acc[i + 1], mj)), add(mi, mj));
        Expr *lam = sub(mul(mj, a), mul(acc[i + 1], mj));
        for (int j = 0; j < 2 * NM; j++) {
            nonzero += !expr_is_zero(expr_diff(x, a, V(j)));
            nonzero += !expr_is_zero(expr_diff(x, lam, V(j)));
        }
        nonzero += !expr_is_zero(expr_diff(x, lam, expr_time(x)));
    }
    for (int i = 0; i < NM; i++)
        for (int j = 0; j < 2 * NM; j++)
            nonzero += !expr_is_zero(expr_diff(x, acc[i], V(j)));
    double secs = (double)(clock() - start) / CLOCKS_PER_SEC;
    printf("chain of %d masses: %d nonzero entries in %.4f s\n", NM, nonzero, secs);
    CHECK(nonzero > 3 * NM);
    CHECK(secs < 0.1);
}

int main(int argc, char **argv)
{
    arena = arena_new();
    x = expr_ctx_new(arena);
    test_hash_consing();
    test_simplify();
    test_diff();
    test_eval();
    test_print();
    test_deterministic();
    test_random();
    test_order();
    test_performance();
    if (argc >= 3)
        test_c_roundtrip(argv[1], argv[2]);
    arena_free(arena);
    printf("%d checks, %d failures\n", checks, failures);
    return failures != 0;
}
