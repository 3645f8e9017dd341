/*
** taylor.c: the Taylor expansion of a linear mode's motion over one step,
** and the first zero of an event function along it, found with a proof.
**
** Inside a mode Z' = A Z (mode.c), so over a step of length h from Z0
**
**     Z(t0 + tau) = sum_k P_k tau^k,   P_0 = Z0,  P_k = A P_{k-1} / k,
**
** and every event function c . Z is the polynomial sum_k (c . P_k) tau^k plus
** the tail of the series.  The step is at most RT_TAYLOR_REACH / nu (2 / nu), with nu
** the norm of the balanced matrix D^-1 A D (mode.c), so the terms fall like
** (nu h)^k / k! and the tail past degree K is bounded by
**
**     |sum_{k>K} c . P_k tau^k| <= ||c D||_1 ||D^-1 P_K||_inf h^K q / (1 - q),
**     q = nu h / (K + 1)
**
** (because D^-1 P_{K+m} = (D^-1 A D)^m D^-1 P_K K!/(K+m)!).  The zeros of
** the polynomial are isolated by interval subdivision: on [u, v] the
** polynomial re-expanded at the midpoint bounds the function's range and
** its slope; an interval where the function stays above its tail bound is
** excluded, one where the slope keeps its sign holds at most one zero, found
** by Newton's method inside its bracket, and intervals are searched from the
** left, so the zero found is the first.  Two, three or more crossings inside
** one step are all seen, and the earliest is returned.
**
** The same expansion is the step's dense output: a probe of the state at
** any tau costs K n-vector updates, with no exponential (samples, landings),
** and the energy integrals over [0, tau] are polynomials too.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

/* Coefficients of p(x + u) from those of p(x) (degree K), by repeated
** synthetic division (Horner's scheme once per coefficient): O(K^2).  Its
** first rows, p(u), p'(u) and p''(u) / 2, are rt_poly_eval2's (rt.h). */
static void poly_shift(const long double *a, int K, long double u, long double *b)
{
    memcpy(b, a, sizeof(long double) * (size_t)(K + 1));
    if (u == 0)
        return;
    for (int i = 0; i < K; i++)
        for (int k = K - 1; k >= i; k--)
            b[k] += u * b[k + 1];
}

/* The zero of p in [u, v], where p(u) > 0 >= p(v) and p is monotone:
** Newton's method kept inside the bracket (bisection where it leaves it).
** The coefficients are those of p(o + t), expanded at o: near o the terms
** are small and the rounding of p with them, so an expansion at a point
** next to the zero places it to the zero's conditioning. */
static double poly_polish(const long double *a, int K, long double o, long double u,
                          long double v)
{
    long double lo = u - o, hi = v - o, pu = rt_poly_eval(a, K, lo, NULL), pv = rt_poly_eval(a, K, hi, NULL);
    long double x = pu - pv > 0 ? lo + (hi - lo) * (pu / (pu - pv)) : 0.5L * (lo + hi);
    long double scale = fabsl(o) + fabsl(v) + 1e-300L;
    for (int it = 0; it < 200; it++) {
        long double d, p = rt_poly_eval(a, K, x, &d);
        if (p == 0)
            break;
        if (p > 0)
            lo = x;
        else
            hi = x;
        long double xn = d != 0 ? x - p / d : 0.5L * (lo + hi);
        if (d != 0 && fabsl(xn - x) <= 1e-19L * scale) {
            /* converged: Newton's step is below the tolerance (or the
             * rounding of x, when xn == x, which the bracket's test below
             * would take for a step out of it and bisect from the other
             * end for sixty halvings) */
            if (xn > lo && xn < hi)
                x = xn;
            break;
        }
        if (!(xn > lo && xn < hi))
            xn = 0.5L * (lo + hi);
        if (fabsl(xn - x) <= 1e-19L * scale || hi - lo <= 1e-19L * scale) {
            x = xn;
            break;
        }
        x = xn;
    }
    /* the first point found where p <= 0: a step past the zero if need be */
    for (int it = 0; it < 16 && rt_poly_eval(a, K, x, NULL) > 0 && x < hi; it++)
        x = nextafterl(o + x, o + hi) - o;
    if (rt_poly_eval(a, K, x, NULL) > 0)
        x = hi;
    long double X = o + x;
    double xd = (double)X;
    if (xd < X && rt_poly_eval(a, K, (long double)xd - o, NULL) > 0)
        xd = nextafter(xd, 2.0);
    return xd;
}

/* Bounds of p and p' over [u, v], 0 <= u < v, from the coefficients' signs:
** each term a_k x^k (and k a_k x^(k-1)) is monotone for x >= 0, so its least
** and greatest values are at u and v.  O(K) and no shift: looser than the
** centred form on a narrow interval, and enough to settle most of a step. */
static void poly_range(const long double *a, int K, long double u, long double v,
                       long double *lo, long double *dlo, long double *dhi)
{
    long double uk = 1, vk = 1, l = a[0], dl = 0, dh = 0;
    for (int k = 1; k <= K; k++) {
        long double du = k * a[k] * uk, dv = k * a[k] * vk;   /* slope terms at u, v */
        dl += du < dv ? du : dv;
        dh += du < dv ? dv : du;
        uk *= u;
        vk *= v;
        long double tu = a[k] * uk, tv = a[k] * vk;
        l += tu < tv ? tu : tv;
    }
    *lo = l;
    *dlo = dl;
    *dhi = dh;
}

/* The zero of p on [u, v] when p is monotone there, from the coefficients
** a of p(o + t): 1 with *root (u itself when p(u) <= 0), 0 when p stays
** positive. */
static int monotone_zero(const long double *a, int K, long double o, double u, double v,
                         double *root)
{
    long double pu = rt_poly_eval(a, K, u - o, NULL), pv = rt_poly_eval(a, K, v - o, NULL);
    if (pu <= 0) {
        *root = u;
        return 1;
    }
    if (pv > 0)
        return 0;
    *root = poly_polish(a, K, o, u, v);
    return 1;
}

/* The first point of [u, v] where p <= 0, given p > 0 just left of u (or at
** u); r0 and r1 bound the tail of the function and of its slope.  Returns 1
** with *root, or 0 when p stays positive on [u, v]. */
static int first_zero(const long double *a, int K, double u, double v, double r0, double r1,
                      int depth, double *root)
{
    long double lo, dlo, dhi;
    poly_range(a, K, u, v, &lo, &dlo, &dhi);
    if (lo - r0 > 0)
        return 0;                               /* positive on the whole interval */
    if (dlo > r1 || dhi < -r1)
        return monotone_zero(a, K, 0, u, v, root); /* at most one zero */
    long double b[K + 1];
    long double m = 0.5L * ((long double)u + v), r = 0.5L * ((long double)v - u);
    /* a cheap exclusion first, O(K): |p(x) - p(m)| <= r max|p'| on [u, v],
     * with max|p'| <= sum k |a_k| v^(k-1) (0 <= u < v) */
    long double dmax = 0, vk = 1, pm = rt_poly_eval(a, K, m, NULL);
    for (int k = 1; k <= K; k++) {
        dmax += k * fabsl(a[k]) * vk;
        vk *= v;
    }
    if (pm - r * dmax - r0 > 0)
        return 0;
    poly_shift(a, K, m, b);
    long double B0 = r0, B1 = r1, rk = 1;
    for (int k = 1; k <= K; k++) {
        B1 += k * fabsl(b[k]) * rk * (k > 1);   /* |p'(m + d) - p'(m)| bound */
        rk *= r;
        B0 += fabsl(b[k]) * rk;
    }
    if (b[0] - B0 > 0)
        return 0;                               /* positive on the whole interval */
    if (fabsl(b[1]) > B1)                       /* monotone: at most one zero */
        return monotone_zero(b, K, m, u, v, root);
    if (B0 - r0 <= r0 || depth >= 60 || v - u <= 1e-17 * (1 + fabs(v))) {
        /* the function comes within its tail bound of 0 here and its own
         * variation over the interval is below that bound: whether it
         * touches 0 cannot be told, so it counts as touching (a graze at
         * the resolution is reported, never skipped) */
        *root = u;
        return 1;
    }
    if (first_zero(a, K, u, (double)m, r0, r1, depth + 1, root))
        return 1;
    return first_zero(a, K, (double)m, v, r0, r1, depth + 1, root);
}

/* Lower bound of b(s) = sum_k b_k s^k over s in [0, t]: Horner's scheme in
** interval arithmetic, q_K = b_K, q_k = b_k + [0, t] q_(k+1), of which only
** the lower ends are needed (l_k = b_k + min(0, t l_(k+1)), since s >= 0).
** It is at least the bound of the terms of negative coefficient taken at t
** (by induction on k), exact where the positive leading terms dominate, and
** nonincreasing in t.  *dl is its derivative in t (0 where it is flat). */
static long double lower_from(const long double *b, int K, long double t, long double *dl)
{
    long double l = b[K], d = 0;
    for (int k = K - 1; k >= 0; k--) {
        long double tl = t * l;
        if (tl < 0) {
            d = l + t * d;
            l = b[k] + tl;
        } else {
            d = 0;
            l = b[k];
        }
    }
    if (dl)
        *dl = d;
    return l;
}

/* Upper bound of b'(s) over s in [0, t]: the upper ends of the same
** interval Horner scheme on the derivative's coefficients k b_k;
** nondecreasing in t. */
static long double slope_above(const long double *b, int K, long double t)
{
    long double u = K * b[K];
    for (int k = K - 1; k >= 1; k--) {
        long double tu = t * u;
        u = k * b[k] + (tu > 0 ? tu : 0);
    }
    return u;
}

/* A long t in [0, W] over which lower_from stays above r0 (0 if it does
** not at 0; within 1 % of the longest, fW being the bound at W), from
** below: a chord from the last point proved towards the first point
** refuted, and the bound's tangent at that point (the bound is mostly
** concave: the chord falls short of the crossing, the tangent passes it);
** every point is checked, so the result is proved whatever the shape;
** points just short of the chord's are tried, so that a bound linear to
** rounding still moves. */
static long double exclusion_length(const long double *b, int K, long double W, long double fW,
                                    double r0)
{
    long double lo = 0, hi = W, flo = b[0] - r0, fhi = fW - r0;
    if (!(flo > 0))
        return 0;
    for (int it = 0; it < 6 && hi - lo > 1e-2L * hi; it++) {
        long double c = lo + 0.999L * (hi - lo) * flo / (flo - fhi), d;
        long double fc = lower_from(b, K, c, NULL) - r0;
        if (fc > 0)
            lo = c, flo = fc;
        else
            hi = c, fhi = fc;
        lower_from(b, K, hi, &d);                                   /* tangent at hi */
        if (d < 0) {
            long double t = hi - fhi / d;
            if (t > lo && t < hi) {
                long double ft = lower_from(b, K, t, NULL) - r0;
                if (ft > 0)
                    lo = t, flo = ft;
                else
                    hi = t, fhi = ft;
            }
        }
    }
    return lo;
}

/* Whether p, of coefficients b on [0, w] (an expansion at the march's
** point), falls through 0 there with p' < -r1 throughout: then it holds
** exactly one zero. */
static int falling_on(const long double *b, int K, double r1, long double w)
{
    return slope_above(b, K, w) < -r1 && rt_poly_eval(b, K, w, NULL) < 0;
}

/* When p(w) < 0 but the slope's bound fails over [0, w] (w past a
** minimum: the convex approach to a graze, where the exclusion's steps
** shrink geometrically), a shorter stretch on which p falls through 0, from
** regula falsi (the Illinois variant) towards the sign change, where the
** bound is tighter; each candidate is checked (falling_on), *w set to the
** one proved.  O(K) per candidate. */
static int falling_nearer(const long double *b, int K, double r1, long double *w)
{
    long double lo = 0, hi = *w, plo = b[0], phi = rt_poly_eval(b, K, hi, NULL);
    int side = 0;
    if (!(phi < 0) || !(plo > 0))
        return 0;
    for (int it = 0; it < 10; it++) {
        long double c = lo + (hi - lo) * (plo / (plo - phi)), pc;
        if (!(c > lo && c < hi))
            return 0;
        pc = rt_poly_eval(b, K, c, NULL);
        if (pc < 0) {
            if (slope_above(b, K, c) < -r1) {
                *w = c;
                return 1;
            }
            hi = c, phi = pc;
            if (side < 0)
                plo /= 2;
            side = -1;
        } else {
            lo = c, plo = pc;
            if (side > 0)
                phi /= 2;
            side = 1;
        }
    }
    return 0;
}

/* Upper bound of b''(s) over s in [0, t]: the upper ends of the interval
** Horner scheme on the second derivative's coefficients k (k - 1) b_k;
** nondecreasing in t. */
static long double curvature_above(const long double *b, int K, long double t)
{
    long double u = (long double)K * (K - 1) * b[K];
    for (int k = K - 1; k >= 2; k--) {
        long double tu = t * u;
        u = (long double)k * (k - 1) * b[k] + (tu > 0 ? tu : 0);
    }
    return u;
}

/* Whether p, of coefficients b on [u, u + W] (b expanded at 0: u = 0 at
** the march's point, or u > 0 at its start, which spares the expansion
** there), with p(u) > 0, is concave on a stretch [u, u + w] at whose end it
** is below 0, the tail of p'' (r2) included (over [0, u + w]): the function
** is then positive up to one zero there and negative past it (a concave
** function's positive set is an interval), and the polynomial likewise.
** The stretch is tried just past the zero of the local quadratic
** p(u) + p'(u) t + p''(u) t^2 / 2, then a Newton step further: a flight's
** fall after its peak (a rebound in a Zeno cascade), which the exclusion's
** bounds reach only after several re-expansions, is settled by one.  *w
** set to the stretch proved. */
static int concave_stretch(const long double *b, int K, long double u, long double W, double r2,
                           long double *w)
{
    long double c1, c2, d;
    if (K < 2)
        return 0;
    long double c0 = rt_poly_eval2(b, K, u, &c1, &c2);     /* p(u), p'(u), p''(u) / 2 */
    if (!(c0 > 0) || !(c2 < 0))
        return 0;
    long double D = c1 * c1 - 4 * c0 * c2;
    long double t = 2 * c0 / (sqrtl(D) - c1) * (1 + 1.0L / 64);
    for (int it = 0; it < 3 && t > 0; it++) {
        if (t > W)
            t = W;
        long double p = rt_poly_eval(b, K, u + t, &d);
        if (p < 0) {
            if (!(curvature_above(b, K, u + t) < -r2))
                return 0;
            *w = t;
            return 1;
        }
        if (t == W || !(d < 0))
            return 0;
        t -= 2 * p / d;                 /* past the zero: Newton's step, doubled */
    }
    return 0;
}

/* The first zero by marching from lo (r2 bounds the tail of p''): at each point u, the expansion of p at
** u bounds p from below over [u, u + t] one-sidedly (tight where p is
** stationary at u, as after a peak, where the centred bounds of first_zero
** need many halvings); the march skips the length proved positive, and
** stops at a stretch from u where p falls monotonically through 0.
** Returns 1 with *root, 0 when p stays positive to 1, and -1 with *lo
** moved forward (p > 0 on the stretch skipped) when the march stalls. */
static int march_zero(const long double *a, int K, double *lo, double r0, double r1, double r2,
                      double *root)
{
    long double b[K + 1], mag = 0;
    double u = *lo;
    for (int k = 0; k <= K; k++)
        mag += fabsl(a[k]);
    r0 += 1e-18 * (double)mag;                      /* the rounding of the shifts */
    r1 += 1e-18 * K * (double)mag;
    r2 += 1e-18 * K * K * (double)mag;
    long double w;
    if (u > 0 && concave_stretch(a, K, u, 1 - (long double)u, r2, &w)) {
        *root = poly_polish(a, K, 0, u, (long double)u + w);
        return 1;
    }
    for (int it = 0; it < 12 && u < 1; it++) {
        long double W = 1 - (long double)u;
        poly_shift(a, K, u, b);
        long double fW = lower_from(b, K, W, NULL);
        if (fW - r0 > 0)
            return 0;                               /* positive to the end */
        /* falling at u: a stretch where p' < -r1 and p ends below 0; or
         * a concave one; or a shorter falling one */
        w = b[0] > 0 && b[1] < -r1 ? 4 * b[0] / -b[1] : 0;
        if (w > W)
            w = W;
        if ((w > 0 && falling_on(b, K, r1, w)) || concave_stretch(b, K, 0, W, r2, &w) ||
            (w > 0 && falling_nearer(b, K, r1, &w))) {
            *root = poly_polish(b, K, u, u, (long double)u + w);
            return 1;
        }
        long double t = exclusion_length(b, K, W, fW, r0);
        if (!(t > 1e-6L * W))
            break;                                  /* little progress: hand over */
        double un = (double)((long double)u + t);
        if (un > (long double)u + t)
            un = nextafter(un, 0.0);               /* stay inside the proved stretch */
        if (!(un > u))
            break;
        u = un;
    }
    *lo = u;
    return -1;
}

/* The first x in (lo, 1] where p(x) <= 0 for a polynomial of degree K on the
** step's unit interval, p(lo) > 0, with tail bounds r0 (value) and r1
** (slope); 1 and *x if there is one.  The search may report a point where
** |p| is within the tail bound of 0 when p grazes 0 there. */
RT_HOT int rt_poly_first_zero(const long double *a, int K, double lo, double r0, double r1, double *x)
{
    if (!(lo < 1))
        return 0;
    /* the last terms, below a tenth of the tail bound together, join
     * the tail: on [0, 1] they add at most their sum to the value and
     * sum k |a_k| to the slope, and every search step is O(K) or O(K^2) */
    /* the tail of p'' (for the concave stretches): the tails are series
     * whose terms fall at least by q <= 1/2 from one degree to the next
     * (taylor_degree: q <= 1/10), so their second derivative's is at most
     * 3 K times their slope's; and the cut terms' k (k - 1) |a_k| */
    double cut = 0, cut1 = 0, r2 = 3.0 * K * r1;
    while (K > 1 && cut + fabsl(a[K]) <= 0.1 * r0) {
        cut += fabsl(a[K]);
        cut1 += K * fabsl(a[K]);
        r2 += (double)K * (K - 1) * fabsl(a[K]);
        K--;
    }
    r0 += cut;
    r1 += cut1;
    int r = march_zero(a, K, &lo, r0, r1, r2, x);
    if (r >= 0)
        return r;
    return lo < 1 ? first_zero(a, K, lo, 1, r0, r1, 0, x) : 0;
}

/* The first point of (lo, 1] where p turns from rising to falling (p' <= 0
** after p' > 0 at lo): the first zero of the derivative polynomial. */
int rt_poly_first_peak(const long double *a, int K, double lo, double r1, double *x)
{
    long double d[K > 0 ? K : 1];
    if (K == 0)
        return 0;
    for (int k = 0; k < K; k++)
        d[k] = (k + 1) * a[k + 1];
    return rt_poly_first_zero(d, K - 1, lo, r1, r1 * (K + 2), x);
}

/* The degree that carries a step of nu h <= 2 to below 1e-20 of its size
** (a tenth of the long double rounding):
** the first K with (nu h)^(K+1)/(K+1)! under that (at most RT_TAYLOR_K). */
static int taylor_degree(double nuh)
{
    double term = 1;
    for (int k = 1; k <= RT_TAYLOR_K; k++) {
        term *= nuh / k;
        if (term < 1e-20 && k >= 4)
            return k - 1 > 4 ? k - 1 : 4;
    }
    return RT_TAYLOR_K;
}

/* taylor_degree for the callers of modeop.c's series (step.c). */
int rt_taylor_degree(double nuh)
{
    return taylor_degree(nuh);
}

/* The number of Taylor terms, at least 3 and at most kmax, that carries a
** flight of ||A|| s <= r (r <= 1/2) to below 1e-24 of its size:
** r^(K+1)/(K+1)! < 1e-24.  The Zeno tail (step.c) and the collapse's
** follow (zeno.c) cut their flights' series here. */
int rt_taylor_flight_terms(double r, int kmax)
{
    double term = r;
    for (int k = 1; k < kmax; k++) {
        term *= r / (k + 1);
        if (term < 1e-24)
            return k < 3 ? 3 : k;
    }
    return kmax;
}

/* RT_HORNER_N at x, with x = 1 passed as the constant 1: the products by
** 1 are exact and the compiler drops them, leaving the plain sum, the same
** bits without a multiply in each link of the chain (on x87 an add waits
** for a multiply and an add in Horner's rule).  The end of a step asks at
** 1: its state and its energy integrals. */
#define HORNER_AT(r, n, c, stride, K, x)                                \
    do {                                                                \
        if ((x) == 1)                                                   \
            RT_HORNER_N(r, n, c, stride, K, 1.0L);                      \
        else                                                            \
            RT_HORNER_N(r, n, c, stride, K, x);                         \
    } while (0)

/* Z = sum_{k=0..K} P_k x^k, the series of rt_taylor_terms (K + 1 vectors of
** na, h = 1) summed at x by Horner's rule, component by component: the
** runtime's one Horner (RT_HORNER, rt.h) over a vector series: the steps'
** states and the Zeno tail's flights.  From the top coefficient, so that a
** component whose coefficients are all -0 sums to -0; at x = 1 the
** products are exact and the sum is the plain one. */
void rt_taylor_sum(const long double *P, int na, int K, long double x, long double *Z)
{
    for (int i = 0; i < na; i++) {
        long double z;
        HORNER_AT(&z, 1, P + i, na, K, x);
        Z[i] = z;
    }
}

/* The Taylor coefficients P_k = A P_(k-1) h / k, k = 1 .. K, of mode mi's
** motion from P_0 (P holds K + 1 vectors of na), over A's nonzeros: the
** step's expansion here, the Zeno tail's flights in step.c. */
RT_HOT void rt_taylor_terms(const RtModeInfo *mi, int na, int K, double h, long double *P)
{
    const int *rows = mi->rows, *cols = mi->cols;
    const double *vals = mi->vals;
    for (int k = 1; k <= K; k++) {
        const long double *Pp = P + (size_t)(k - 1) * na;
        long double *Pk = P + (size_t)k * na, hk = (long double)h / k;
        for (int i = 0, e = rows[0]; i < na; i++) {
            long double sum = 0;
            for (int end = rows[i + 1]; e < end; e++)
                sum += vals[e] * Pp[cols[e]];
            Pk[i] = sum * hk;
        }
    }
}

/* The rows r_k = r_(k-1) (A h / k), k = 1 .. K, from r_0 (R holds K + 1
** rows of na), over A's nonzeros: the transposed recursion of
** rt_taylor_terms, so that r_k . Z0 = r_0 . P_k. */
static void row_terms(const RtModeInfo *mi, int na, int K, double h, long double *R)
{
    for (int k = 1; k <= K; k++) {
        const long double *Rp = R + (size_t)(k - 1) * na;
        long double *Rk = R + (size_t)k * na, hk = (long double)h / k;
        for (int i = 0; i < na; i++)
            Rk[i] = 0;
        for (int i = 0; i < na; i++) {
            if (Rp[i] == 0)
                continue;
            for (int e = mi->rows[i]; e < mi->rows[i + 1]; e++)
                Rk[mi->cols[e]] += mi->vals[e] * Rp[i];
        }
        for (int i = 0; i < na; i++)
            Rk[i] *= hk;
    }
}

/* Form propagator pr of mode mi's step h at degree K: E's and G_K's rows
** from the unit rows (each E row summed from its smallest terms up, as
** rt_taylor_state sums a step's end), and the event forms' rows.  Nonzero
** when out of memory. */
static int prop_form(nsm_sim *s, RtTayProp *pr, const RtModeInfo *mi, double h, int K)
{
    int na = s->n_aug, ge = s->n_events;
    size_t na2 = (size_t)na * na, rows = (size_t)ge * (K + 1) * na;
    size_t need = 2 * na2 + rows + (sizeof(double) * ge + sizeof(long double) - 1) / sizeof(long double);
    if (pr->cap < need) {
        long double *b = realloc(pr->E, need * sizeof(long double));
        if (!b)
            return 1;
        pr->E = b;
        pr->cap = need;
    }
    pr->GK = pr->E + na2;
    pr->R = pr->GK + na2;
    pr->cn = (double *)(pr->R + rows);
    long double T[(size_t)(K + 1) * na];
    for (int i = 0; i < na; i++) {
        for (int q = 0; q < na; q++)
            T[q] = q == i;
        row_terms(mi, na, K, h, T);
        for (int q = 0; q < na; q++) {
            long double sum = T[(size_t)K * na + q];
            for (int k = K - 1; k >= 0; k--)
                sum += T[(size_t)k * na + q];
            pr->E[(size_t)i * na + q] = sum;
            pr->GK[(size_t)i * na + q] = T[(size_t)K * na + q];
        }
    }
    for (int j = 0; j < ge; j++) {
        const double *c = mi->ev + (size_t)j * na;
        long double *R = pr->R + (size_t)j * (K + 1) * na;
        double cn = 0;
        for (int q = 0; q < na; q++) {
            R[q] = c[q];
            cn += fabs(c[q]) * mi->bal[q];
        }
        row_terms(mi, na, K, h, R);
        pr->cn[j] = cn;
    }
    return 0;
}

/* The price of forming mode mi's propagator in steps' terms: a step's
** terms cost (nnz + na) products a degree (rt_taylor_terms), forming costs
** (2 na + nnz) for each of the na + ge rows (row_terms: clear, scatter,
** scale) and na for each of the na unit rows' sums (prop_form). */
static int prop_price(const nsm_sim *s, const RtModeInfo *mi)
{
    long na = s->n_aug, nnz = mi->rows[na];
    return (int)(((na + s->n_events) * (2 * na + nnz) + na * na) / (na + nnz));
}

/* The propagator of mode mi's step h at degree K, or NULL: formed once as
** many steps of that key went without their terms as forming it costs
** (prop_price: the rule of renting skis until their price is
** paid, never more than twice the better choice; a mode whose every step
** lands on an event, as a Zeno cascade's flights, or a step length met
** once, never pays), kept for the next ones; only for small models with
** the mode's matrix.  T->key is set to
** the key's entry, formed or not.  The least recently used key is
** replaced, keys not formed first. */
static const RtTayProp *prop_get(nsm_sim *s, const RtModeInfo *mi, double h, int K)
{
    RtTaylor *T = &s->tay;
    T->key = NULL;
    if (s->n_aug > RT_TAYLOR_PROP_NA || !mi->dense || !mi->A)
        return NULL;
    RtTayProp *old = NULL;
    for (int k = 0; k < RT_TAYLOR_PROPS; k++) {
        RtTayProp *pr = &T->props[k];
        if (pr->mi == mi && pr->built == mi->built && pr->h == h && pr->K == K) {
            pr->stamp = ++T->clock;
            T->key = pr;
            if (!pr->ready && pr->quiet >= prop_price(s, mi)) {
                if (prop_form(s, pr, mi, h, K)) {
                    pr->mi = NULL;
                    T->key = NULL;
                    return NULL;
                }
                pr->ready = 1;
            }
            return pr->ready ? pr : NULL;
        }
        if (!old || (old->ready && !pr->ready) ||
            (old->ready == pr->ready && pr->stamp < old->stamp))
            old = pr;
    }
    old->mi = mi;
    old->built = mi->built;
    old->h = h;
    old->K = K;
    old->ready = 0;
    old->quiet = 0;
    old->stamp = ++T->clock;
    T->key = old;
    return NULL;
}

/* The terms P_1 .. P_K of the current step, formed now if its propagator
** stood for them; the step counts as one that needed them. */
static void taylor_need_terms(nsm_sim *s)
{
    RtTaylor *T = &s->tay;
    T->touched = 1;
    if (!T->lazy)
        return;
    rt_taylor_terms(T->mi, s->n_aug, T->K, T->h, T->P);
    T->lazy = 0;
}

/* Expand the motion of the current mode (mi) over [t0, t0 + h] from the
** augmented state Z0: the step's P_k, the tail factor, and nothing of the
** energy yet (rt_taylor_energy does that on demand). */
RT_HOT int rt_taylor_build(nsm_sim *s, const RtModeInfo *mi, double t0, const long double *Z0, double h)
{
    RtTaylor *T = &s->tay;
    if (mi->op) {                          /* a large mode: by its operator (modeop.c) */
        int rc = rt_modeop_taylor(s, mi, Z0, h, taylor_degree(mi->nu * h));
        if (rc)
            return rc;
        T->lazy = 0;                       /* no propagator: its terms are formed */
        T->prop = NULL;
        T->key = NULL;
        goto done;
    }
    int na = s->n_aug, K = taylor_degree(mi->nu * h);
    long double *P = T->P;
    if (T->valid && T->key && !T->touched)
        T->key->quiet++;                /* the last step went without its terms */
    const RtTayProp *pr = prop_get(s, mi, h, K);
    double pk = 0;
    memcpy(P, Z0, sizeof(long double) * na);
    if (pr) {
        /* P_K = G_K Z0 for the tail; the other terms only if asked for */
        for (int i = 0; i < na; i++) {
            long double sum = 0;
            for (int q = 0; q < na; q++)
                sum += pr->GK[(size_t)i * na + q] * Z0[q];
            double v = fabs((double)sum) / mi->bal[i];
            if (v > pk)
                pk = v;
        }
    } else {
        rt_taylor_terms(mi, na, K, h, P);  /* the coefficients on the unit interval */
        for (int i = 0; i < na; i++) {
            double v = fabs((double)P[(size_t)K * na + i]) / mi->bal[i];
            if (v > pk)
                pk = v;
        }
    }
    T->lazy = pr != NULL;
    T->prop = pr;
    T->touched = 0;
    double q = mi->nu * h / (K + 1);
    T->tail = q < 0.5 ? pk * q / (1 - q) : INFINITY;
    T->tail1 = q < 0.5 ? pk * (K + 1) * q / ((1 - q) * (1 - q)) : INFINITY;
    T->K = K;
done:
    T->mi = mi;
    T->built = mi->built;
    T->t0 = t0;
    T->h = h;
    T->energy = 0;
    T->valid = 1;
    return NSM_OK;
}

/* Whether the expansion in s->tay is the one from Z0 at t0 over h in mode
** mi (the step just taken by it: the detection reuses it). */
int rt_taylor_is(const nsm_sim *s, const RtModeInfo *mi, double t0, const long double *Z0,
                 double h)
{
    const RtTaylor *T = &s->tay;
    if (!T->valid || T->mi != mi || T->built != mi->built ||
        T->t0 != t0 || T->h != h)
        return 0;
    for (int i = 0; i < s->n_aug; i++)
        if (T->P[i] != Z0[i])
            return 0;
    return 1;
}

/* The state at t0 + x h (x in [0, 1]) of the expansion, in long double
** (the step's end by its propagator when it has one). */
RT_HOT void rt_taylor_state(nsm_sim *s, double x, long double *Z)
{
    const RtTaylor *T = &s->tay;
    int na = s->n_aug, K = T->K;
    if (x == 1 && T->prop) {
        const long double *E = T->prop->E;
        for (int i = 0; i < na; i++) {
            long double sum = 0;
            for (int q = 0; q < na; q++)
                sum += E[(size_t)i * na + q] * T->P[q];
            Z[i] = sum;
        }
        return;
    }
    if (x != 1)
        taylor_need_terms(s);
    rt_taylor_sum(T->P, na, K, x, Z);    /* at the step's end (x = 1): the plain sum */
}

/* rt_taylor_form on the step's terms as they stand (formed). */
static void taylor_form(nsm_sim *s, const double *c, long double *a, double *r0, double *r1)
{
    const RtTaylor *T = &s->tay;
    int na = s->n_aug, K = T->K, nz = 0, ixs[na <= 256 ? na : 1];
    int *ix = na <= 256 ? ixs : malloc(sizeof(int) * (size_t)na);   /* no allocation when small */
    double cn = 0;
    /* the form's nonzeros (a gap's: its bodies' x and v and the constant),
     * so that a large model's forms cost O(na + K nnz), not O(K na) */
    for (int i = 0; i < na; i++)
        if (c[i] != 0 && ix)
            ix[nz++] = i;
    for (int k = 0; k <= K; k++) {
        const long double *Pk = T->P + (size_t)k * na;
        long double sum = 0;
        if (ix)
            for (int q = 0; q < nz; q++)
                sum += c[ix[q]] * Pk[ix[q]];
        else
            for (int i = 0; i < na; i++)
                sum += c[i] * Pk[i];
        a[k] = sum;
    }
    for (int q = 0; q < (ix ? nz : na) && !T->mi->op; q++) {
        int i = ix ? ix[q] : q;
        cn += fabs(c[i]) * T->mi->bal[i];
    }
    if (T->mi->op)
        cn = rt_modeop_dual(s, c);     /* a large mode's norm (modeop.c) */
    if (ix != ixs)
        free(ix);
    /* the tail of the series, plus the rounding of the sums (long double) */
    double mag = 0;
    for (int k = 0; k <= K; k++)
        mag += fabs((double)a[k]);
    *r0 = cn * T->tail + 1e-17 * mag;
    *r1 = cn * T->tail1 + 1e-17 * K * mag;
}

/* The polynomial (on the unit interval, degree s->tay.K) of the linear form
** c . Z and the bounds of its tail and of its slope's tail. */
void rt_taylor_form(nsm_sim *s, const double *c, long double *a, double *r0, double *r1)
{
    taylor_need_terms(s);
    taylor_form(s, c, a, r0, r1);
}

/* Four coefficients of an event's polynomial, rows R .. R + 3 na of its
** propagator against the step's start P: a[0] .. a[3], each the sum of
** its products in the order i = 0 .. na - 1, as row by row (the same
** bits).  The four sums in one pass, so that each P[i] is loaded once and
** the four chains of additions overlap: these rows were 15 % of the
** sweep's CPU time (101 frequencies of the forced impact oscillator),
** one long double chain after another. */
static inline void event_rows4(const long double *R, const long double *P, int na,
                               long double *a)
{
    long double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (int i = 0; i < na; i++) {
        long double p = P[i];
        s0 += R[i] * p;
        s1 += R[na + i] * p;
        s2 += R[2 * na + i] * p;
        s3 += R[3 * na + i] * p;
    }
    a[0] = s0;
    a[1] = s1;
    a[2] = s2;
    a[3] = s3;
}

/* The polynomial and tail bounds of event function j of the step's mode
** (rt_taylor_form on its row of mi->ev), from the propagator's rows when
** the step has one: (K + 1) na products, no terms. */
RT_HOT void rt_taylor_event(nsm_sim *s, int j, long double *a, double *r0, double *r1)
{
    const RtTaylor *T = &s->tay;
    int na = s->n_aug, K = T->K;
    if (!T->prop) {
        taylor_form(s, T->mi->ev + (size_t)j * na, a, r0, r1);
        return;
    }
    const long double *R = T->prop->R + (size_t)j * (K + 1) * na;
    double mag = 0, cn = T->prop->cn[j];
    int k = 0;
    for (; k + 3 <= K; k += 4) {
        event_rows4(R + (size_t)k * na, T->P, na, &a[k]);
        mag += fabs((double)a[k]);
        mag += fabs((double)a[k + 1]);
        mag += fabs((double)a[k + 2]);
        mag += fabs((double)a[k + 3]);
    }
    for (; k <= K; k++) {
        long double sum = 0;
        for (int i = 0; i < na; i++)
            sum += R[(size_t)k * na + i] * T->P[i];
        a[k] = sum;
        mag += fabs((double)sum);
    }
    /* as rt_taylor_form: the tail, plus the rounding of the sums */
    *r0 = cn * T->tail + 1e-17 * mag;
    *r1 = cn * T->tail1 + 1e-17 * K * mag;
}

/* The step's terms rounded to double, component by component: pd[i (K + 1)
** + k] = (double) P_k[i], for the components i the mode's energy forms
** read (mi->qcomp).  energy_series reads each term up to K + 1 times for
** each form's entry; a long double's load and rounding to double in its
** innermost loop took a third of the exact method's time.  The same
** roundings, done once a step, in rows that the products read in order. */
RT_HOT static void energy_terms(const RtTaylor *T, int na, double *restrict pd)
{
    int K = T->K;
    for (int c = 0; c < T->mi->nqcomp; c++) {
        int i = T->mi->qcomp[c];
        for (int k = 0; k <= K; k++)
            pd[(size_t)i * (K + 1) + k] = (double)T->P[(size_t)k * na + i];
    }
}

/* The coefficients e_m (m <= K) of the integrand Z(x)^T Q Z(x) along the
** expansion: for each nonzero entry Q_iq (the forms are mostly zero: the
** dampers' and the forcing's couplings), the truncated product of the
** series of Z_i and Z_q (pd: energy_terms).  In double: the integrals feed
** a balance checked to 1e-6 and printed to 1e-12, and their terms do not
** cancel.  Each e_m takes its products in the order (i, q, k). */
RT_HOT static void energy_series(const nsm_sim *s, const double *Q, const double *restrict pd,
                          double *restrict e)
{
    int na = s->n_aug, K = s->tay.K;
    for (int m = 0; m <= K; m++)
        e[m] = 0;
    for (int i = 0; i < na; i++)
        for (int q = 0; q < na; q++) {
            double c = Q[(size_t)i * na + q];
            if (c == 0)
                continue;
            const double *pi = pd + (size_t)i * (K + 1), *pq = pd + (size_t)q * (K + 1);
            for (int k = 0; k <= K; k++) {
                double zi = c * pi[k];
                if (zi == 0)
                    continue;
                for (int l = 0; k + l <= K; l++)
                    e[k + l] += zi * pq[l];
            }
        }
}

/* The dissipated energy and the external work over [t0, t0 + x h] along the
** expansion: integrals of the quadratic forms Z^T Q Z, whose polynomial
** coefficients (up to degree K) are formed on the first call of a step;
** 0 when the run keeps no energy integrals (s->energy, run.c). */
void rt_taylor_energy(nsm_sim *s, double x, double *Ed, double *Ew)
{
    RtTaylor *T = &s->tay;
    int K = T->K;
    if (!s->energy) {
        *Ed = *Ew = 0;          /* the run keeps no energy integrals */
        return;
    }
    if (!T->energy) {
        double ed[K + 1], ew[K + 1];
        taylor_need_terms(s);
        if (T->mi->op) {               /* a large mode (modeop.c) */
            rt_modeop_energy(s, ed, ew);
        } else {
            energy_terms(T, s->n_aug, T->pd);
            energy_series(s, T->mi->Qd, T->pd, ed);
            energy_series(s, T->mi->Qw, T->pd, ew);
        }
        for (int m = 0; m <= K; m++) {  /* the integrals' coefficients e_m / (m + 1) */
            T->edw[2 * m] = (long double)ed[m] / (m + 1);
            T->edw[2 * m + 1] = (long double)ew[m] / (m + 1);
        }
        T->energy = 1;
    }
    /* integral over [0, x h] of sum_m e_m (s/h)^m ds = h x sum_m e_m/(m+1) x^m,
     * the two series side by side */
    long double dw[2];
    HORNER_AT(dw, 2, T->edw, 2, K, x);
    *Ed = (double)(dw[0] * x * T->h);
    *Ew = (double)(dw[1] * x * T->h);
}

/* Forget the expansion and the propagators' keys (a new run, or new
** parameters): a run's steps must not depend on what ran before it on the
** same simulation (a parameter study's points, on one or more threads). */
void rt_taylor_forget(nsm_sim *s)
{
    RtTaylor *T = &s->tay;
    T->valid = 0;
    T->prop = NULL;
    T->key = NULL;
    for (int k = 0; k < RT_TAYLOR_PROPS; k++) {
        T->props[k].mi = NULL;
        T->props[k].ready = 0;
        T->props[k].quiet = 0;
        T->props[k].stamp = 0;
    }
    T->clock = 0;
}

/* Allocate the expansion's arrays. */
int rt_taylor_alloc(nsm_sim *s)
{
    int K = RT_TAYLOR_K;
    /* K + 2 vectors: a large mode's expansion uses the last as scratch */
    size_t nld = (size_t)(K + 2) * s->n_aug + 2 * (size_t)(K + 1);
    s->tay.P = malloc(sizeof(long double) * nld + sizeof(double) * (size_t)(K + 1) * s->n_aug);
    if (!s->tay.P)
        return NSM_ENOMEM;
    s->tay.edw = s->tay.P + (size_t)(K + 2) * s->n_aug;
    s->tay.pd = (double *)(s->tay.P + nld);
    s->tay.valid = 0;
    s->tay.lazy = 0;
    s->tay.prop = NULL;
    s->tay.key = NULL;
    memset(s->tay.props, 0, sizeof s->tay.props);
    s->tay.clock = 0;
    return NSM_OK;
}

/* Free them. */
void rt_taylor_free(nsm_sim *s)
{
    free(s->tay.P);
    free(s->tay.lam);
    s->tay.P = NULL;
    s->tay.pd = NULL;
    s->tay.lam = NULL;
    s->tay.lam_cap = 0;
    for (int k = 0; k < RT_TAYLOR_PROPS; k++) {
        free(s->tay.props[k].E);
        s->tay.props[k].E = NULL;
        s->tay.props[k].cap = 0;
        s->tay.props[k].mi = NULL;
    }
    s->tay.prop = NULL;
}
