/*
** test_locate.c: the pieces every locator shares, written once, do what
** their callers rely on.
**
** Horner's rule (RT_HORNER through rt_taylor_sum, and rt_poly_eval): sums
** of small integers, exact in long double, at x = 2 and x = 1; a component
** whose coefficients are all -0 sums to -0 (the plain sum's sign, which
** rt_taylor_state's step end relied on before it called rt_taylor_sum);
** and the vector sum and the scalar evaluation agree to the bit.
**
** The shared bracket (rt_bracket, Illinois): on f(x) = 1/2 - x^3 over
** [0, 1] (zero 2^(-1/3)) it reaches the zero to the resolution with no
** tolerance, and with a tolerance (the continuation's arclength bracket)
** it stops once the bracket is that narrow, within it of the zero and
** after fewer evaluations.
*/
#include <math.h>
#include <stdio.h>

#include "rt.h"

static int failures, checks;

/* Record one check. */
static void check_true(const char *what, int ok)
{
    checks++;
    if (!ok) {
        failures++;
        printf("FAIL %s\n", what);
    }
}

/* The vector Horner: two components, 1 + 2 x + 3 x^2 and all -0. */
static void test_horner(void)
{
    const long double P[] = { 1, -0.0L, 2, -0.0L, 3, -0.0L };   /* P_k, two components each */
    long double Z[2];
    rt_taylor_sum(P, 2, 2, 2, Z);
    check_true("sum at x = 2 is 17", Z[0] == 17);
    check_true("all -0 coefficients at x = 2 sum to -0", Z[1] == 0 && signbit(Z[1]));
    rt_taylor_sum(P, 2, 2, 1, Z);
    check_true("sum at x = 1 is the plain sum 6", Z[0] == 6);
    check_true("all -0 coefficients at x = 1 sum to -0", Z[1] == 0 && signbit(Z[1]));
    rt_taylor_sum(P, 2, 2, 0.5L, Z);
    check_true("all -0 coefficients at x = 1/2 sum to -0", Z[1] == 0 && signbit(Z[1]));
    /* one component: rt_taylor_sum and rt_poly_eval, the same rule */
    const long double a[] = { 0.1L, -1.3L, 0.7L, 2.9L, -0.45L, 1e-3L };
    for (int i = 0; i <= 8; i++) {
        long double x = 0.125L * i, z, d;
        rt_taylor_sum(a, 1, 5, x, &z);
        check_true("rt_taylor_sum and rt_poly_eval agree to the bit", z == rt_poly_eval(a, 5, x, &d));
    }
}

/* f(x) = 1/2 - x^3 for rt_bracket, counting its evaluations in ud. */
static int cubic(void *ud, double x, double *f, double *fd)
{
    ++*(int *)ud;
    *f = 0.5 - x * x * x;
    *fd = -3 * x * x;
    return 0;
}

/* rt_bracket by Illinois on cubic over [0, 1] with tolerance tol: the
** zero in *root, the bracket left in *b, the evaluations returned. */
static int bracket_cubic(double tol, double *root, RtBracket *b)
{
    int n = 0, at;
    *b = (RtBracket){ .lo = 0, .hi = 1, .flo = 0.5, .fhi = -0.5, .tol = tol };
    check_true("rt_bracket returns NSM_OK", rt_bracket(b, cubic, &n, 0.5, root, &at) == NSM_OK);
    check_true("rt_bracket ends on its last evaluation", at == 1);
    return n;
}

/* The shared bracket with and without the caller's tolerance. */
static void test_bracket(void)
{
    double want = cbrt(0.5), r0, r1;
    RtBracket b0, b1;
    int n0 = bracket_cubic(0, &r0, &b0), n1 = bracket_cubic(1e-4, &r1, &b1);
    check_true("no tolerance: the zero to the resolution", fabs(r0 - want) <= 4e-16);
    check_true("tolerance 1e-4: the bracket that narrow", b1.hi - b1.lo <= 1e-4);
    check_true("tolerance 1e-4: the zero within it", fabs(r1 - want) <= 1e-4);
    check_true("tolerance 1e-4: fewer evaluations", n1 < n0);
    printf("bracket: %d evaluations to the resolution, %d to 1e-4\n", n0, n1);
}

int main(void)
{
    test_horner();
    test_bracket();
    printf("%d checks, %d failures\n", checks, failures);
    return failures != 0;
}
