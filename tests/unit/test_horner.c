/*
** test_horner.c: the runtime's Horner sums (rt.h, taylor.c) give the
** polynomial's value and derivatives, and the same bits however they are
** scheduled.
**
**   rt_poly_eval2   p(x), p'(x) and p''(x) / 2 against the explicit sums
**                   sum a_k x^k, sum k a_k x^(k-1), sum k(k-1)/2 a_k x^(k-2),
**                   on integer coefficients at dyadic points, where every
**                   product and sum is exact in long double: the results
**                   must be equal, not close;
**   rt_taylor_sum   a vector series at x = 1 (the step's end, summed without
**                   the products by 1) against the plain sum from the top
**                   coefficient down, bit for bit, -0 kept; at x = 1/2 against
**                   the explicit sum, exact as above;
**   RT_HORNER_N     two series side by side against each alone by RT_HORNER,
**                   bit for bit, on coefficients that round.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rt.h"

static int failures, checks;

/* One check of two long doubles for the same value (and sign of zero). */
static void check_same(const char *what, int K, long double x, long double got, long double want)
{
    checks++;
    if (got == want && signbit(got) == signbit(want))
        return;
    failures++;
    printf("FAIL %s (K = %d, x = %Lg): got %.21Lg want %.21Lg\n", what, K, x, got, want);
}

/* x^k by repeated products (exact for the dyadic x and small k used). */
static long double power(long double x, int k)
{
    long double r = 1;
    for (int i = 0; i < k; i++)
        r *= x;
    return r;
}

/* rt_poly_eval2 and rt_poly_eval against the explicit sums. */
static void check_eval(const long double *a, int K, long double x)
{
    long double p = 0, d = 0, h = 0, dp, hp;
    for (int k = 0; k <= K; k++) {
        p += a[k] * power(x, k);
        if (k >= 1)
            d += k * a[k] * power(x, k - 1);
        if (k >= 2)
            h += (long double)(k * (k - 1) / 2) * a[k] * power(x, k - 2);
    }
    check_same("rt_poly_eval2 p", K, x, rt_poly_eval2(a, K, x, &dp, &hp), p);
    check_same("rt_poly_eval2 p'", K, x, dp, d);
    check_same("rt_poly_eval2 p''/2", K, x, hp, h);
    check_same("rt_poly_eval2 p alone", K, x, rt_poly_eval2(a, K, x, NULL, NULL), p);
    check_same("rt_poly_eval p", K, x, rt_poly_eval(a, K, x, &dp), p);
    check_same("rt_poly_eval p'", K, x, dp, d);
}

/* The series P (K + 1 vectors of na) summed by rt_taylor_sum at 1 and at
** 1/2 against the plain and the explicit sums. */
static void check_sum(const long double *P, int na, int K)
{
    long double Z[8];
    rt_taylor_sum(P, na, K, 1, Z);
    for (int i = 0; i < na; i++) {
        long double z = P[(size_t)K * na + i];
        for (int k = K - 1; k >= 0; k--)
            z = z + P[(size_t)k * na + i];
        check_same("rt_taylor_sum at 1", K, 1, Z[i], z);
    }
    rt_taylor_sum(P, na, K, 0.5L, Z);
    for (int i = 0; i < na; i++) {
        long double z = 0;
        for (int k = 0; k <= K; k++)
            z += P[(size_t)k * na + i] * power(0.5L, k);
        if (z == 0)
            continue;   /* the explicit sum from 0 up loses -0: compared at 1 above */
        check_same("rt_taylor_sum at 1/2", K, 0.5L, Z[i], z);
    }
}

/* Two series side by side by RT_HORNER_N against each by RT_HORNER. */
static void check_pairs(const long double *c, int K, long double x)
{
    long double r[2], a, b;
    RT_HORNER_N(r, 2, c, 2, K, x);
    RT_HORNER(a, c, 2, K, x);
    RT_HORNER(b, c + 1, 2, K, x);
    check_same("RT_HORNER_N first", K, x, r[0], a);
    check_same("RT_HORNER_N second", K, x, r[1], b);
}

int main(void)
{
    long double a[16], P[16 * 3], c[2 * 33];
    const long double xs[] = { 0, 1, -1, 0.5L, -1.5L, 3, 0.375L };
    unsigned seed = 12345;
    for (int K = 0; K <= 12; K++) {
        for (int k = 0; k <= K; k++) {
            seed = seed * 1103515245u + 12345u;
            a[k] = (long double)((int)(seed >> 16) % 21 - 10);
        }
        for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++)
            check_eval(a, K, xs[i]);
        for (int k = 0; k <= K; k++) {
            P[3 * k] = a[k];
            P[3 * k + 1] = -0.0L;               /* all -0: the sum is -0 */
            P[3 * k + 2] = a[K - k] * 0.25L;
        }
        check_sum(P, 3, K);
    }
    for (int K = 0; K <= 32; K++) {
        for (int k = 0; k < 2 * (K + 1); k++)
            c[k] = 1.0L / (k + 3) - (k % 3 ? 0.1L : 0.7L);  /* rounded coefficients */
        check_pairs(c, K, 0.7L);
        check_pairs(c, K, 1);
        check_pairs(c, K, -1.3L);
    }
    printf("%d checks, %d failures\n", checks, failures);
    return failures != 0;
}
