/*
** sfseries.c: the Taylor series of spatial Coulomb friction (docs/theory.md
** sections 15 and 19), for the taylor method (nltaylor.c).
**
** Over a step every state is a series in tau = t - t0 (nltaylor.c's X, in
** Y's layout).  For each spatial friction element k (spacefric.c) on a held
** sphere gap of rigid body b this file forms, order by order, the series of
**   the rotation  R(p) = M(p) / |p|^2   (M the quadratic forms of
**                 rt_rigid_rot, 1/|p|^2 by the power rule),
**   n_b = R^T n, t_b,i = R^T t_i, s = c - rho n_b (body frame),
**   the rows      T_i = (t_i, s x t_b,i), D = (0, Rd n_b) over the body's
**                 six velocities (spacefric.c's, as series),
**   the slip      gamma_i = sum_l T_i,l . u_{k-l},  Q = gamma . gamma,
**                 |gamma| = Q^(1/2), ghat = gamma Q^(-1/2),
**   the force's direction per unit lambda_N while sliding
**                 f = -mu sum_i ghat_i T_i,
**   the rows' curvature terms while stuck, order k of (d T_i/dt) . u:
**                 sum_{l=0..k} (l + 1) T_i,{l+1} . u_{k-l}.
** Every step is +, -, x and the power rule (Jorba and Zou 2005), so the
** series are exact to rounding wherever |gamma| > 0.  The runtime forms
** them rather than nsmc: their structure is the same for every sphere on a
** plane (as the quaternion's rows, kin_k), their numbers are setup's sf_*,
** and which of them a step needs (slide or stick) is the mode's.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "law.h"
#include "rt.h"

/* The series rows of one element, each K + 1 coefficients. */
enum {
    S_PP = 0,                 /* 10: p_a p_b, pairs 00 11 22 33 01 02 03 12 13 23 */
    S_NI = 10,                /* 1 / |p|^2 */
    S_MM = 11,                /* 9: M(p), row-major */
    S_RR = 20,                /* 9: R(p) */
    S_NB = 29,                /* 3: n_b */
    S_TB = 32,                /* 6: t_b,1, t_b,2 */
    S_SB = 38,                /* 3: s */
    S_ROW = 41,               /* 18: T_1, T_2, D over the six velocities */
    S_GAM = 59,               /* 3: gamma_F */
    S_Q = 62,                 /* gamma . gamma */
    S_QW = 63,                /* Q^(-1/2) */
    S_S = 64,                 /* |gamma_F| */
    S_HAT = 65,               /* 3: ghat */
    S_DIR = 68,               /* 6: f, the friction force's direction per unit lambda_N */
    S_CURV = 74,              /* 3: the rows' curvature terms */
    S_NROWS = 77
};

struct RtSfSer {
    int K, nsf;
    double *a;                /* nsf S_NROWS (K + 1) */
    double *d0;               /* 3 nsf: a slip started from zero, its start's direction */
    int *frozen;              /* nsf: 1 while the step's direction is the start's */
    double tan[2][3];         /* scratch */
};

/* Coefficient l of series row r of element k. */
static double *ser(const RtSfSer *f, int k, int r)
{
    return f->a + ((size_t)k * S_NROWS + (size_t)r) * (size_t)(f->K + 1);
}

/* Order k >= 1 of w = p^a from p's orders 0..k and w's orders 0..k-1 (the
** power rule k p_0 w_k = sum_{j=1..k} (a j - (k - j)) p_j w_{k-j}, Jorba and
** Zou 2005): the series of every power, root and reciprocal the taylor
** method forms at run time. */
double rt_ser_pow_k(const double *p, const double *w, double a, int k)
{
    double r = 0;
    for (int j = 1; j <= k; j++)
        r += (a * j - (k - j)) * p[j] * w[k - j];
    return r / (k * p[0]);
}

/* Sum_{l=0..k} a_l b_{k-l}: order k of a product of series. */
static double prod_k(const double *a, const double *b, int k)
{
    double r = 0;
    for (int l = 0; l <= k; l++)
        r += a[l] * b[k - l];
    return r;
}

/* Allocate the series of nsf elements to degree K (NULL on failure). */
RtSfSer *rt_sfser_alloc(int nsf, int K)
{
    RtSfSer *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->K = K;
    f->nsf = nsf;
    size_t n = (size_t)(nsf > 0 ? nsf : 1);
    f->a = calloc(n * S_NROWS * (size_t)(K + 1), sizeof(double));
    f->d0 = calloc(3 * n, sizeof(double));
    f->frozen = calloc(n, sizeof(int));
    if (!f->a || !f->d0 || !f->frozen) {
        rt_sfser_free(f);
        return NULL;
    }
    return f;
}

/* Free what rt_sfser_alloc allocated. */
void rt_sfser_free(RtSfSer *f)
{
    if (f) {
        free(f->a);
        free(f->d0);
        free(f->frozen);
    }
    free(f);
}

/* Whether element k's contact is held in mode (its series are formed). */
static int sf_held(const nsm_sim *s, const unsigned *mode, int k)
{
    return rt_law_held(s, mode, s->m->space_frictions[k].gap);
}

/* Order m of the rotation R(p) of element k's body from the quaternion's
** orders 0..m in X (p0 at row n + b, p1..p3 at rows rot..rot + 2). */
static void rot_m(const nsm_sim *s, const RtSfSer *f, int k, const double *X, int m)
{
    int K = f->K, b = s->m->space_frictions[k].body, rot = s->m->rigid_rot[b];
    const double *p[4] = { X + (size_t)(s->n_vel + b) * (K + 1), X + (size_t)rot * (K + 1),
                           X + (size_t)(rot + 1) * (K + 1), X + (size_t)(rot + 2) * (K + 1) };
    static const int pa[10] = { 0, 1, 2, 3, 0, 0, 0, 1, 1, 2 }, pb[10] = { 0, 1, 2, 3, 1, 2, 3, 2, 3, 3 };
    double pp[10];
    for (int i = 0; i < 10; i++)
        pp[i] = ser(f, k, S_PP + i)[m] = prod_k(p[pa[i]], p[pb[i]], m);
    /* p00 p11 p22 p33 p01 p02 p03 p12 p13 p23 at 0..9 */
    double M[9] = { pp[0] + pp[1] - pp[2] - pp[3], 2 * (pp[7] - pp[6]), 2 * (pp[8] + pp[5]),
                    2 * (pp[7] + pp[6]), pp[0] - pp[1] + pp[2] - pp[3], 2 * (pp[9] - pp[4]),
                    2 * (pp[8] - pp[5]), 2 * (pp[9] + pp[4]), pp[0] - pp[1] - pp[2] + pp[3] };
    double *N = ser(f, k, S_PP), *ni = ser(f, k, S_NI);
    double nn[m + 1];
    for (int l = 0; l <= m; l++)
        nn[l] = N[l] + ser(f, k, S_PP + 1)[l] + ser(f, k, S_PP + 2)[l] + ser(f, k, S_PP + 3)[l];
    ni[m] = m == 0 ? 1 / nn[0] : rt_ser_pow_k(nn, ni, -1, m);
    for (int i = 0; i < 9; i++) {
        ser(f, k, S_MM + i)[m] = M[i];
        ser(f, k, S_RR + i)[m] = prod_k(ser(f, k, S_MM + i), ni, m);
    }
}

/* Order m of element k's rows T_1, T_2, D over its body's six velocities
** from R's orders 0..m: n_b = R^T n, t_b,i = R^T t_i, s = c - rho n_b,
** T_i = (t_i, s x t_b,i), D = (0, Rd n_b). */
static void rows_m(const nsm_sim *s, RtSfSer *f, int k, int m)
{
    const nsm_numeric *num = &s->num;
    const double *n = &num->sf_normal[3 * k], *c = &num->sf_centre[3 * k];
    double rho = num->sf_radius[k], Rd = num->sf_drill[k];
    rt_plane_tangents(n, f->tan);
    for (int i = 0; i < 3; i++) {
        double nb = 0, t0 = 0, t1 = 0;
        for (int j = 0; j < 3; j++) {
            double Rji = ser(f, k, S_RR + 3 * j + i)[m];
            nb += Rji * n[j];
            t0 += Rji * f->tan[0][j];
            t1 += Rji * f->tan[1][j];
        }
        ser(f, k, S_NB + i)[m] = nb;
        ser(f, k, S_TB + i)[m] = t0;
        ser(f, k, S_TB + 3 + i)[m] = t1;
        ser(f, k, S_SB + i)[m] = (m == 0 ? c[i] : 0) - rho * nb;
    }
    for (int r = 0; r < 2; r++)
        for (int i = 0; i < 3; i++) {
            int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
            ser(f, k, S_ROW + 6 * r + i)[m] = m == 0 ? f->tan[r][i] : 0;
            ser(f, k, S_ROW + 6 * r + 3 + i)[m] =
                prod_k(ser(f, k, S_SB + i1), ser(f, k, S_TB + 3 * r + i2), m) -
                prod_k(ser(f, k, S_SB + i2), ser(f, k, S_TB + 3 * r + i1), m);
        }
    for (int i = 0; i < 3; i++) {
        ser(f, k, S_ROW + 12 + i)[m] = 0;
        ser(f, k, S_ROW + 15 + i)[m] = Rd * ser(f, k, S_NB + i)[m];
    }
}

/* Order m of every held element's rows from the state's orders 0..m
** (positions; the velocities are not read). */
void rt_sfser_rows(const nsm_sim *s, RtSfSer *f, const unsigned *mode, const double *X, int m)
{
    for (int k = 0; k < f->nsf; k++)
        if (sf_held(s, mode, k)) {
            rot_m(s, f, k, X, m);
            rows_m(s, f, k, m);
        }
}

/* Order k of row r (0, 1: T_i; 2: D) of element q dotted with the
** velocities' series: sum_{l=0..k} T_r,l . u_{k-l}, or with shift 1 the
** row's derivative, sum_{l=0..k} (l + 1) T_r,{l+1} . u_{k-l}. */
static double row_u(const nsm_sim *s, const RtSfSer *f, int q, int r, const double *X, int k,
                    int shift)
{
    int K = f->K, rot = s->m->rigid_rot[s->m->space_frictions[q].body];
    double g = 0;
    for (int c = 0; c < 6; c++) {
        const double *u = X + (size_t)(s->n_pos + rot - 3 + c) * (K + 1);
        const double *T = ser(f, q, S_ROW + 6 * r + c);
        for (int l = 0; l <= k; l++)
            g += (shift ? (l + 1) * T[l + 1] : T[l]) * u[k - l];
    }
    return g;
}

/* At a step's start (order 0, Q0 = |gamma_F|^2): element q's slip is
** exactly zero and in its start from zero (spacestick.c's slip_start,
** rt_sf_start_dir), so its direction over the step is the start's d0,
** taken from the tangential force at zero slip, as rk4's and adaptive's
** is: gamma/|gamma| has no series at gamma = 0.  The step is kept where
** gamma stays along d0 (rt_sfser_start_reach); the next step starts from
** a nonzero slip, whose direction has its series (a slip within its
** start's tolerance but not zero, as a pushed ball's, keeps its own). */
static void slip_start_k0(const nsm_sim *s, RtSfSer *f, int q, double Q0)
{
    const double *d0 = Q0 > 0 ? NULL : rt_sf_start_dir(s, q, 0);
    f->frozen[q] = d0 != NULL;
    if (d0)
        memcpy(&f->d0[3 * q], d0, 3 * sizeof(double));
}

/* Order k of a started slip's direction and norm (slip_start_k0): the
** direction d0 at every order (its series 1, 0, 0, ...), the norm the
** slip along it, d0 . gamma, whose product with mu lambda_N is the
** friction's power. */
static void slip_frozen_k(RtSfSer *f, int q, int k)
{
    const double *d0 = &f->d0[3 * q];
    double a = 0;
    for (int r = 0; r < 3; r++) {
        ser(f, q, S_HAT + r)[k] = k == 0 ? d0[r] : 0;
        a += d0[r] * ser(f, q, S_GAM + r)[k];
    }
    ser(f, q, S_S)[k] = a;
}

/* The reach of a step whose element q's direction is its start's
** (slip_start_k0): where the slip's part across d0, sum_k |g_k - (d0 .
** g_k) d0| h^k, stays within eps of its part along it, (d0 . g_1) h (the
** slip from zero grows linearly), each order k >= 2 bounding h by (eps a1
** / p_k)^(1/(k - 1)).  -1 when the slip does not grow along d0 (an order
** 1 across it beyond eps a1, or none along it): the start's direction is
** not the slip's, and the caller refuses the step.  HUGE_VAL for an
** element not in its start. */
double rt_sfser_start_reach(const RtSfSer *f, int q, double eps)
{
    if (!f->frozen[q])
        return HUGE_VAL;
    const double *d0 = &f->d0[3 * q];
    double h = HUGE_VAL, a1 = ser(f, q, S_S)[1];
    if (!(a1 > 0))
        return -1;
    for (int k = 1; k < f->K; k++) {
        double p2 = 0, a = ser(f, q, S_S)[k];
        for (int r = 0; r < 3; r++) {
            double c = ser(f, q, S_GAM + r)[k] - a * d0[r];
            p2 += c * c;
        }
        double p = sqrt(p2);
        if (k == 1 && !(p <= eps * a1))
            return -1;
        if (k >= 2 && p > 0)
            h = fmin(h, pow(eps * a1 / p, 1.0 / (k - 1)));
    }
    return h;
}

/* Order k of element q's slip, |gamma_F| and sliding direction (mode: it
** slides) or of its rows' curvature terms (it sticks), from the
** velocities' orders 0..k and the rows' orders 0..k (sliding) or 0..k + 1
** (stuck).  Returns 1 when a sliding contact's slip is zero at the step's
** start (no series of its direction: the landing, spacestick.c, sticks
** before that). */
static int slip_k(const nsm_sim *s, RtSfSer *f, const unsigned *mode, int q, const double *X, int k)
{
    int dim = rt_sf_dim(s, q);
    if (rt_sf_stuck(s, mode, q)) {
        for (int r = 0; r < 3; r++)
            ser(f, q, S_CURV + r)[k] = r < dim ? row_u(s, f, q, r, X, k, 1) : 0;
        return 0;
    }
    double *Q = ser(f, q, S_Q), *qw = ser(f, q, S_QW), *S = ser(f, q, S_S);
    Q[k] = 0;
    for (int r = 0; r < 3; r++) {
        ser(f, q, S_GAM + r)[k] = r < dim ? row_u(s, f, q, r, X, k, 0) : 0;
        Q[k] += prod_k(ser(f, q, S_GAM + r), ser(f, q, S_GAM + r), k);
    }
    if (k == 0)
        slip_start_k0(s, f, q, Q[0]);
    if (f->frozen[q]) {
        slip_frozen_k(f, q, k);
    } else {
        if (k == 0 && !(Q[0] > 0))
            return 1;
        qw[k] = k == 0 ? 1 / sqrt(Q[0]) : rt_ser_pow_k(Q, qw, -0.5, k);
        S[k] = k == 0 ? sqrt(Q[0]) : rt_ser_pow_k(Q, S, 0.5, k);
        for (int r = 0; r < 3; r++)
            ser(f, q, S_HAT + r)[k] = prod_k(ser(f, q, S_GAM + r), qw, k);
    }
    for (int c = 0; c < 6; c++) {
        double d = 0;
        for (int r = 0; r < dim; r++)
            d += prod_k(ser(f, q, S_HAT + r), ser(f, q, S_ROW + 6 * r + c), k);
        ser(f, q, S_DIR + c)[k] = -s->num.sf_mu[q] * d;
    }
    return 0;
}

/* Order k of every held element's slip and direction or curvature terms
** (slip_k); 1 + the element when a sliding contact has no slip. */
int rt_sfser_slip(const nsm_sim *s, RtSfSer *f, const unsigned *mode, const double *X, int k)
{
    for (int q = 0; q < f->nsf; q++)
        if (sf_held(s, mode, q) && slip_k(s, f, mode, q, X, k))
            return 1 + q;
    return 0;
}

/* Order l of column c (0..5: v1..v3, w1..w3 of the body) of element k's
** row r (0, 1: T_i; 2: D). */
double rt_sfser_row(const RtSfSer *f, int k, int r, int c, int l)
{
    return ser(f, k, S_ROW + 6 * r + c)[l];
}

/* Order l of column c of element k's sliding friction direction f. */
double rt_sfser_dir(const RtSfSer *f, int k, int c, int l)
{
    return ser(f, k, S_DIR + c)[l];
}

/* Order l of the curvature term of element k's row r while stuck. */
double rt_sfser_curv(const RtSfSer *f, int k, int r, int l)
{
    return ser(f, k, S_CURV + r)[l];
}

/* Element k's |gamma_F| series (K + 1 coefficients, orders 0..K-1 set
** while it slides). */
const double *rt_sfser_slip_norm(const RtSfSer *f, int k)
{
    return ser(f, k, S_S);
}
