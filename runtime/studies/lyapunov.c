/*
** lyapunov.c: the Lyapunov spectrum of a motion in free flight between
** single impacts (P. C. Mueller, "Calculation of Lyapunov exponents for
** dynamic systems with discontinuities", Chaos Solitons Fractals 5 (1995)
** 1671-1681).
**
** The variational equation is integrated exactly: between impacts a tangent
** vector follows the flow's Jacobian exp(A dt), at an impact it is mapped by
** the saltation matrix, both applied by floquet.c (rt_floquet_propagate,
** the same products the monodromy matrix is made of).  An orthonormal frame
** Q of 2n tangent vectors is carried over each reorthonormalisation
** interval and brought back to orthonormal by a QR factorisation (modified
** Gram-Schmidt, repeated once for orthogonality to rounding), whose
** diagonal R_ii are the growths of the nested volumes; the exponents are
** the time averages of log R_ii (G. Benettin, L. Galgani, A. Giorgilli and
** J.-M. Strelcyn, Meccanica 15 (1980) 9-30).  On a periodic orbit of period
** T with multipliers mu_i they converge to log|mu_i| / T.
**
** No I/O: the simulator's --lyapunov and nsmc sweep --lyapunov print.
*/
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "linalg.h"
#include "rt.h"

/* QR of Q (n x n, row-major, columns the vectors) in place by modified
** Gram-Schmidt, twice over for orthogonality; log R_jj added to sum[j].
** NSM_ENUMERIC when a column collapses or overflows (the interval is too
** long for the exponents). */
static int lyap_orthonormalise(int n, double *Q, double *sum)
{
    for (int j = 0; j < n; j++) {
        for (int pass = 0; pass < 2; pass++)
            for (int i = 0; i < j; i++) {
                double r = 0;
                for (int a = 0; a < n; a++)
                    r += Q[a * n + i] * Q[a * n + j];
                for (int a = 0; a < n; a++)
                    Q[a * n + j] -= r * Q[a * n + i];
            }
        double scale = 0, norm = 0;
        for (int a = 0; a < n; a++)
            scale = fmax(scale, fabs(Q[a * n + j]));
        if (!(scale > 0) || !isfinite(scale))
            return NSM_ENUMERIC;
        for (int a = 0; a < n; a++) {
            double q = Q[a * n + j] / scale;
            norm += q * q;
        }
        norm = scale * sqrt(norm);
        sum[j] += log(norm);
        for (int a = 0; a < n; a++)
            Q[a * n + j] /= norm;
    }
    return NSM_OK;
}

/* The starting frame Q (n x n, row-major, columns the vectors): the first
** state axis, then a fixed frame in general position, the orthonormalised
** columns of a pseudo-random matrix (the same at every call).  The frame I
** of the state's axes lay along invariant subspaces: two masses joined by
** a damped spring, the span of the two positions holds the relative motion
** and no velocity of the centre of mass, so the second exponent followed
** the relative motion's decay until rounding brought the centre of mass in
** (t about 37 / rate), -0.375 1/s for 0 over 100 s.  The first vector stays
** the first axis, so the largest exponent (and, with two states, both) are
** as before.  sum (n) is left at 0; I where the QR fails (it does not for
** this matrix). */
static void lyap_frame(int n, double *Q, double *sum)
{
    unsigned long r = 20261130UL;
    for (int a = 0; a < n * n; a++) {
        r = (1103515245UL * r + 12345UL) & 0x7fffffffUL;
        Q[a] = a % n == 0 ? (a == 0) : 2.0 * (double)r / 2147483648.0 - 1.0;
    }
    if (lyap_orthonormalise(n, Q, sum)) {
        memset(Q, 0, sizeof(double) * (size_t)n * n);
        for (int a = 0; a < n; a++)
            Q[a * n + a] = 1;
    }
    memset(sum, 0, sizeof(double) * (size_t)n);
}

/* Sort n values into decreasing order (insertion: n is small). */
static void lyap_sort(int n, double *v)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j] > v[j - 1]; j--) {
            double x = v[j];
            v[j] = v[j - 1];
            v[j - 1] = x;
        }
}

/* Over a QR interval h the tangent vectors' growths differ by up to
** exp(spread h), spread the free-flight mode's widest difference of growth
** rates, and each R_jj is known only to a few roundings times that ratio:
** the smaller exponents are lost when it nears 1/eps (an overdamped
** oscillator, m = 1 kg, k = 1e4 N/m, c = 1e3 N s/m, over intervals of 0.5 s:
** -83 1/s for -990 1/s, their sum not the trace -c/m).  The QRs are
** therefore at most LYAP_SPREAD / spread apart (exp(12) = 1.6e5: the
** exponents known to about 1e-11 of the spread). */
#define LYAP_SPREAD 12.0
/* Past this many QRs over the duration the spectrum is refused (its cost). */
#define LYAP_MAX_QR 1e8

/* The free-flight mode's spread of growth rates, max Re lambda - min Re
** lambda over its mechanical block (2 nu, a bound of every |lambda|, where
** the eigenvalues cannot be had or the matrix is not formed). */
static double lyap_spread(const nsm_sim *s, const RtModeInfo *mi)
{
    int m2 = 2 * s->n_vel, na = s->n_aug;
    if (!mi->A || m2 == 0)
        return 2 * mi->nu;
    double *M = malloc(sizeof(double) * ((size_t)m2 * m2 + 2 * (size_t)m2));
    if (!M)
        return 2 * mi->nu;
    double *re = M + (size_t)m2 * m2, *im = re + m2;
    for (int i = 0; i < m2; i++)
        for (int k = 0; k < m2; k++)
            M[(size_t)i * m2 + k] = mi->A[(size_t)i * na + k];
    double lo = INFINITY, hi = -INFINITY;
    if (nsm_la_eigvals(m2, M, re, im) != NSM_LA_OK) {
        free(M);
        return 2 * mi->nu;
    }
    for (int i = 0; i < m2; i++)
        lo = fmin(lo, re[i]), hi = fmax(hi, re[i]);
    free(M);
    return isfinite(hi - lo) ? hi - lo : 2 * mi->nu;
}

/* The longest QR interval the exponents allow (interval, or shorter where
** the mode's spread of growth rates needs it; see LYAP_SPREAD), from the
** current mode: interval itself where the mode is not free flight. */
static double lyap_step(nsm_sim *s, double interval)
{
    const RtModeInfo *mi = NULL;
    if (!rt_mode_empty(s, s->mode) || !(mi = rt_mode_info(s)))
        return interval;
    double spread = lyap_spread(s, mi);
    return spread * interval > LYAP_SPREAD ? LYAP_SPREAD / spread : interval;
}

/* The shorter of the duration and the interval, T, against the rate of
** the mode the motion is in (free flight, the only one the exponents are
** taken in): each QR's log R_ii carries a few roundings, so an exponent is
** known to about eps/T 1/s, and over T the tangent vectors move by at most
** w T of themselves (w the mode's fastest rate, its balanced norm nu a
** bound of every |lambda|).  Below 1e6 roundings of w T the exponents are
** lost in the rounding: T below about 1e-15 s read 0 for every exponent
** (exp(A T) rounded to I), and digits went below about 1e-12 s, where
** their sum must be the trace of A (-c/m for a damped oscillator).  The
** bound is the continuation's rule for its period.  NSM_EINVAL with the
** message; NSM_OK also where the mode is not free flight or cannot be
** formed (the spectrum refuses it when it gets there). */
static int lyap_span_check(nsm_sim *s, double duration, double interval)
{
    const RtModeInfo *mi = NULL;
    if (!rt_mode_empty(s, s->mode) || !(mi = rt_mode_info(s))) {
        s->msg[0] = 0;
        return NSM_OK;
    }
    double T = fmin(duration, interval), w = fmax(mi->rho, mi->nu);
    double floor1 = RT_T_RES * (nextafter(1.0, INFINITY) - 1.0);
    double h = lyap_step(s, interval);
    if (h < interval && duration / h > LYAP_MAX_QR) {
        rt_text_printf(s->msg, sizeof s->msg, "lyapunov: the duration %.6g s is too long for the "
                        "exponents' spread: the model's growth rates differ by up to %.6g 1/s, so "
                        "the tangent vectors are reorthonormalised at least every %.3g s to keep "
                        "the smaller exponents out of the rounding, %.3g times over it, beyond "
                        "%.0e: give at most %.3g s", duration, LYAP_SPREAD / h, h, duration / h,
                        LYAP_MAX_QR, LYAP_MAX_QR * h);
        return NSM_EINVAL;
    }
    if (w > 0 ? !(w * T < 1e6 * DBL_EPSILON) : !(T < floor1))
        return NSM_OK;
    const char *what = duration <= interval ? "duration" : "reorthonormalisation interval";
    if (w > 0)
        rt_text_printf(s->msg, sizeof s->msg, "lyapunov: the %s %.6g s is too short for the "
                        "exponents: the model's fastest rate, |lambda| up to %.6g 1/s, moves the "
                        "tangent vectors by at most %.3g of themselves over it, below 1e6 roundings "
                        "(%.3g), so the exponents (each known to about %.3g 1/s) are lost in the "
                        "rounding; give at least %.3g s", what, T, w, w * T, 1e6 * DBL_EPSILON,
                        4 * DBL_EPSILON / T, 1e6 * DBL_EPSILON / w);
    else
        rt_text_printf(s->msg, sizeof s->msg, "lyapunov: the %s %.6g s is below the time "
                        "resolution at t = 1 s (%.3g s): the exponents would be lost in the "
                        "rounding", what, T, floor1);
    return NSM_EINVAL;
}

/* Whether nsm_sim_lyapunov can give exponents over duration, reorthonormalised
** every interval, from the current state (nsm/nsm.h): a program checks it
** before it opens its outputs. */
int nsm_sim_lyapunov_check(nsm_sim *s, double duration, double interval)
{
    int rc;
    if (!(duration > 0) || !isfinite(duration) || !(interval > 0) || !isfinite(interval))
        return NSM_EINVAL;
    if (!s->ready && (rc = nsm_sim_reset(s)))
        return rc;
    return s->failed ? s->failed : lyap_span_check(s, duration, interval);
}

int nsm_sim_lyapunov(nsm_sim *s, double duration, double interval, double *lambda)
{
    int n2 = 2 * s->n_vel, rc;
    if ((rc = rt_floquet_rigid_check(s, "lyapunov")))
        return rc;
    if (!(duration > 0) || !isfinite(duration) || !(interval > 0) || !isfinite(interval) ||
        !lambda) {
        rt_text_printf(s->msg, sizeof s->msg, "lyapunov: the duration and the reorthonormalisation "
                        "interval must be positive times");
        return NSM_EINVAL;
    }
    if (!s->ready && (rc = nsm_sim_reset(s)))
        return rc;
    if (s->failed)
        return s->failed;
    if (n2 == 0) {
        rt_text_printf(s->msg, sizeof s->msg, "lyapunov: the model has no states");
        return NSM_EINVAL;
    }
    if ((rc = lyap_span_check(s, duration, interval)))
        return rc;
    double *Q = calloc((size_t)n2 * n2, sizeof(double)), *sum = calloc((size_t)n2, sizeof(double));
    if (!Q || !sum) {
        free(Q), free(sum);
        return NSM_ENOMEM;
    }
    lyap_frame(n2, Q, sum);
    double t0 = s->t, t_end = t0 + duration, h = lyap_step(s, interval);
    rc = NSM_OK;
    while (!rc && s->t < t_end) {
        double t1 = s->t + h;
        if (t1 > t_end || t_end - t1 < 1e-9 * h)
            t1 = t_end;
        if ((rc = rt_floquet_propagate(s, t1, Q, "lyapunov")))
            break;
        if ((rc = lyap_orthonormalise(n2, Q, sum)))
            rt_text_printf(s->msg, sizeof s->msg, "lyapunov: a tangent vector overflowed or "
                            "collapsed at t = %.17g s: shorten the reorthonormalisation interval", s->t);
    }
    if (!rc) {
        for (int i = 0; i < n2; i++)
            lambda[i] = sum[i] / (s->t - t0);
        lyap_sort(n2, lambda);
    }
    free(Q), free(sum);
    return rc;
}
