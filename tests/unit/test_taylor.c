/*
** test_taylor.c: the exact method's event search finds the FIRST zero of an
** event function inside a step, however many zeros the step holds.
**
** The search (runtime/src/taylor.c) works on the polynomial of an event
** function over the step's unit interval with a bound on the series' tail.
** Here the polynomials are products of known factors, so every zero is
** known exactly: two, three and four crossings inside one step, zeros
** bunched within 1e-9 of each other, a dip that stays above zero by less
** than the tail bound allows and one that goes below by a little, the
** peak search that starts a rebound's search, a concave fall after a rise,
** a convex approach to a graze, and the tail bound itself
** (a zero the tail could hide is reported, never skipped).
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rt.h"

#define K RT_TAYLOR_K

static int failures, checks;

/* Record one check: |got - want| <= tol. */
static void check_close(const char *what, double got, double want, double tol)
{
    checks++;
    if (!(fabs(got - want) <= tol)) {
        failures++;
        printf("FAIL %s: got %.17g want %.17g (diff %.3g)\n", what, got, want, fabs(got - want));
    }
}

static void check_true(const char *what, int ok)
{
    checks++;
    if (!ok) {
        failures++;
        printf("FAIL %s\n", what);
    }
}

/* a = scale * prod (x - r_i) (degree nr <= K), coefficients of x^k. */
static void from_roots(long double *a, const double *r, int nr, double scale)
{
    memset(a, 0, sizeof(long double) * (K + 1));
    a[0] = scale;
    for (int i = 0; i < nr; i++)
        for (int k = i + 1; k >= 0; k--)
            a[k] = (k > 0 ? a[k - 1] : 0) - r[i] * a[k];
}

/* The first zero of the product with the given roots, sign chosen so that
** p(0) > 0, to within tol (the zero's conditioning: the rounding of p in
** long double over |p'| there). */
static void first_of(const char *what, const double *r, int nr, double want, double tol)
{
    long double a[K + 1];
    double x = -1;
    from_roots(a, r, nr, 1);
    if (a[0] < 0)
        for (int k = 0; k <= K; k++)
            a[k] = -a[k];
    int found = rt_poly_first_zero(a, K, 0, 1e-30, 1e-30, &x);
    check_true(what, found);
    check_close(what, x, want, tol);
}

int main(void)
{
    long double a[K + 1];
    double x;

    /* crossings two, three and four times inside the step: the first one */
    first_of("two crossings", (const double[]){ 0.7, 0.2 }, 2, 0.2, 4e-16);
    first_of("three crossings", (const double[]){ 0.9, 0.55, 0.125 }, 3, 0.125, 4e-16);
    first_of("four crossings", (const double[]){ 0.8, 0.6, 0.4, 0.2 }, 4, 0.2, 4e-16);
    first_of("four crossings, first late", (const double[]){ 0.97, 0.96, 0.95, 0.94 }, 4, 0.94, 1e-12);
    /* |p'| = 1e-9 at the first zero, and p's coefficients carry their long
     * double rounding (5.4e-20 relative on a0 = 0.25): the zero itself is
     * only defined to 1.4e-11 */
    first_of("two crossings 1e-9 apart", (const double[]){ 0.500000001, 0.5 }, 2, 0.5, 3e-11);
    first_of("zeros outside the step as well", (const double[]){ 1.5, -0.5, 0.3, 2.0 }, 4, 0.3, 4e-16);
    first_of("a zero at the end of the step", (const double[]){ 1.0, 3.0 }, 2, 1.0, 4e-16);

    /* no zero in the step: a dip that stays above 0 */
    from_roots(a, (const double[]){ 0.4, 0.4 }, 2, 1);
    a[0] += 1e-6;
    check_true("dip above zero: no event", !rt_poly_first_zero(a, K, 0, 1e-30, 1e-30, &x));
    /* the same dip 1e-6 below 0: two zeros 2e-3 apart, the first taken */
    a[0] -= 2e-6;
    check_true("dip below zero: event", rt_poly_first_zero(a, K, 0, 1e-30, 1e-30, &x));
    check_close("dip below zero: first zero", x, 0.4 - 1e-3, 1e-12);
    /* a dip above zero by less than the tail bound: the tail could hide a
     * zero there, so the search reports one rather than skip it */
    from_roots(a, (const double[]){ 0.4, 0.4 }, 2, 1);
    a[0] += 1e-12;
    check_true("dip within the tail bound: reported",
               rt_poly_first_zero(a, K, 0, 1e-9, 1e-9, &x) && fabs(x - 0.4) < 1e-4);

    /* a rebound: rising from 0, a peak at 0.25, falling back through 0 */
    from_roots(a, (const double[]){ 0.0, 0.5 }, 2, -1);
    check_true("peak found", rt_poly_first_peak(a, K, 0, 1e-30, &x));
    check_close("peak at the vertex", x, 0.25, 1e-15);
    check_true("zero after the peak", rt_poly_first_zero(a, K, x, 1e-30, 1e-30, &x));
    check_close("zero after the peak: 0.5", x, 0.5, 4e-16);

    /* rising, then falling through 0 concavely, from the search's start:
     * 0.01 + 0.1 x - x^2, zero at (0.1 + sqrt(0.05)) / 2 */
    memset(a, 0, sizeof a);
    a[0] = 0.01, a[1] = 0.1, a[2] = -1;
    check_true("concave fall from a rise", rt_poly_first_zero(a, K, 0, 1e-30, 1e-30, &x));
    check_close("concave fall from a rise: zero", x, (0.1 + sqrt(0.05)) / 2, 4e-16);
    /* a convex approach to a graze: zeros 0.25 and 0.2501 (the minimum
     * between them 2.5e-9 below 0), times 1 + x; the first taken */
    from_roots(a, (const double[]){ 0.25, 0.2501, -1.0 }, 3, 1);
    check_true("convex approach to a graze", rt_poly_first_zero(a, K, 0, 1e-30, 1e-30, &x));
    check_close("convex approach to a graze: first zero", x, 0.25, 1e-15);
    /* and one whose dip stays 2.5e-9 above 0: no zero */
    from_roots(a, (const double[]){ 0.25, 0.25, -1.0 }, 3, 1);
    a[0] += 2.5e-9, a[1] += 2.5e-9;
    check_true("convex approach, dip above: none", !rt_poly_first_zero(a, K, 0, 1e-30, 1e-30, &x));

    /* a polynomial of full degree with a fast oscillation: sum of the
     * Taylor terms of cos(6 x) - 0.95 over the unit interval (its zeros
     * arccos(0.95)/6 + 2 pi k/6 +- ...), cut at degree K: the tail left
     * is below 1e-20 */
    double w = 6, fact = 1;
    for (int k = 0; k <= K; k++) {
        if (k > 0)
            fact *= k;
        a[k] = k % 2 ? 0 : (k % 4 == 0 ? 1 : -1) * pow(w, k) / fact;
    }
    a[0] -= 0.95;
    check_true("oscillation: event", rt_poly_first_zero(a, K, 0, 1e-19, 1e-18, &x));
    check_close("oscillation: first zero", x, acos(0.95) / w, 1e-14);

    printf("%d checks, %d failures\n", checks, failures);
    return failures != 0;
}
