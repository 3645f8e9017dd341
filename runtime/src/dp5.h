/*
** dp5.h: the Dormand-Prince 5(4) tableau (J. R. Dormand and P. J. Prince,
** "A family of embedded Runge-Kutta formulae", J. Comput. Appl. Math. 6(1),
** 1980), shared by the adaptive method (step.c) and the multiple-impact
** kernel (multiimpact.c). dp_e are the differences between the 5th and 4th
** order weights, the embedded error estimate; stage 7 is evaluated at the
** 5th order result (first same as last).
*/
#ifndef NSM_DP5_H
#define NSM_DP5_H

static const double dp_c[7] = { 0, 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1, 1 };
static const double dp_a[7][6] = {
    { 0 },
    { 1.0 / 5 },
    { 3.0 / 40, 9.0 / 40 },
    { 44.0 / 45, -56.0 / 15, 32.0 / 9 },
    { 19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729 },
    { 9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656 },
    { 35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84 },
};
static const double dp_e[7] = { 71.0 / 57600, 0, -71.0 / 16695, 71.0 / 1920,
                                -17253.0 / 339200, 22.0 / 525, -1.0 / 40 };

#endif
