/*
** test_t_resolved.c: the run loop's per-step test of the time resolution
** (rt_t_resolved, message.c) answers as the resolution itself would.
**
** rt_t_resolved skips nextafter when a step is at least RT_T_RES DBL_EPSILON
** times the largest time |t|, |t_end|.  The reference here is written apart
** from message.c: RT_T_RES units in the last place of that time, the unit
** taken from frexp's exponent (2^(e-53) for a normal number, the smallest
** subnormal below DBL_MIN).  Steps at, just below and just above the
** resolution, well above it, and at the fast path's own bound are checked
** for times from 0 and subnormals to 1e300, powers of two (whose ulp
** above is twice the one below) and the numbers next to them.
*/
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rt.h"

static int failures, checks;

/* RT_T_RES ulps of the larger of |t| and |t_end|, by frexp. */
static double ref_resolution(double t, double t_end)
{
    double a = fmax(fabs(t), fabs(t_end));
    if (a < DBL_MIN)
        return RT_T_RES * 0x1p-1074;
    int e;
    frexp(a, &e);               /* a = f 2^e, f in [1/2, 1) */
    return RT_T_RES * ldexp(1.0, e - 53);
}

/* One step h at (t, t_end): rt_t_resolved against h >= the reference. */
static void check_step(double t, double t_end, double h)
{
    nsm_sim s;
    memset(&s, 0, sizeof s);
    s.t = t;
    int want = h >= ref_resolution(t, t_end), got = rt_t_resolved(&s, h, t_end);
    checks++;
    if (got != want) {
        failures++;
        printf("FAIL t = %.17g, t_end = %.17g, h = %.17g: %d, want %d\n", t, t_end, h, got, want);
    }
}

int main(void)
{
    const double times[] = { 0, 0x1p-1074, 1e-310, DBL_MIN, 1e-300, 1e-9, 0.1, 0.5, 1,
                             nextafter(1, 0), nextafter(1, 2), 2, 3, 20, 1024, nextafter(1024, 0),
                             1e6, 4.5e15, 0x1p52, 1e300 };
    int nt = (int)(sizeof times / sizeof times[0]);
    for (int i = 0; i < nt; i++)
        for (int k = 0; k < nt; k++) {
            double t = times[i], t_end = times[k], res = ref_resolution(t, t_end);
            double a = fmax(t, t_end);
            const double steps[] = { res, nextafter(res, 0), nextafter(res, INFINITY), 2 * res,
                                     res / 2, 1e-3, 1, RT_T_RES * DBL_EPSILON * a,
                                     nextafter(RT_T_RES * DBL_EPSILON * a, 0) };
            for (int j = 0; j < (int)(sizeof steps / sizeof steps[0]); j++) {
                check_step(t, t_end, steps[j]);
                check_step(-t, t_end, steps[j]);
            }
        }
    printf("%d checks, %d failures\n", checks, failures);
    return failures != 0;
}
