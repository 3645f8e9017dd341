/*
** multiimpact.c: the energetic multiple-impact law of Liu, Zhao and
** Brogliato (C. Liu, Z. Zhao and B. Brogliato, "Frictionless multiple
** impacts in multibody systems. I. Theoretical framework", Proc. R. Soc. A
** 464 (2008) 3193-3211; "II. Numerical algorithm and simulation results",
** Proc. R. Soc. A 465 (2009) 1-23), the law Siconos ships as
** MultipleImpactNSL with its bi-stiffness compliance.
**
** During the impact the configuration is frozen and the contacts'
** relative normal velocities vn follow Darboux-Keller's impulse dynamics
** d(vn) = W dP (W = H M^-1 H^T, the Delassus matrix). Each contact j
** stores a potential energy E_j that changes by its relative velocity
** times its impulse increment, dE_j = -vn_j dP_j while it is compressed
** (vn_j < 0) and dE_j = -vn_j dP_j / e_j^2 while it expands (vn_j > 0), so
** that an expansion releases e_j^2 of the energy stored at the maximal
** compression (the energetic restitution). The impulses are shared by the
** distributing law dP_j / dP_p = F_j / F_p with the force of the stored
** energy, F_j = k_j^(1/(eta_j+1)) ((eta_j+1) E_j)^(eta_j/(eta_j+1)), i.e.
** (k_j/k_p)^(1/(eta+1)) (E_j/E_p)^(eta/(eta+1)) for a common exponent,
** p being the primary contact (the one storing the most energy).
**
** The kernel writes the stored energy through the contact's equivalent
** compression q_j >= 0, E_j = k_j q_j^(eta_j+1) / (eta_j+1), so that
** F_j = k_j q_j^eta_j and dE_j = F_j dq_j: the law above is then
**
**     d(vn)/ds = W F,   dP/ds = F,   dq_j/ds = -vn_j / c_j,
**     c_j = 1 while compressed, e_j^2 while expanding,
**
** in the parameter s = integral dP_p / F_p, which is the primary contact's
** impulse rescaled by its force (the time of the compliant contacts, but
** only the ratios of the k_j and the energies enter the result: the post-
** impact velocities do not depend on the stiffnesses' common scale). In the
** primary impulse itself the law is singular where every energy is zero
** (at the start, where LZB take a special first step) and wherever the
** primary contact's energy runs out; in s its right-hand side is continuous
** and the start needs nothing special. A separated contact (E_j = 0,
** vn_j >= 0) keeps E_j = 0; an approaching one with E_j = 0 compresses at
** once. The impact ends when every contact is separated.
**
** Integration: Dormand-Prince 5(4) (dp5.h) with step control on every
** relative velocity (relative to the largest approach speed), compression
** and impulse, local tolerance LZB_RTOL. The law's kinks (a contact
** separating, a contact with e_j < 1 turning between compression and
** expansion) are landed on by regula falsi when a step across one fails
** the error test; a plastic contact (e_j = 0) loses its energy at its
** maximal compression, which the steps always land on (vn_j = 0). With W banded (half bandwidth b, e.g. a chain's
** tridiagonal W), F is applied over the band only, and a step touches only
** the contacts within 8 b of a live one (compressed or approaching): the
** others cannot change during the step (each stage reaches one band
** further), so a step costs O(the live contacts), not O(nc).
** Accuracy: docs/theory.md, "Energetic multiple impacts".
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dp5.h"
#include "rt.h"

#define LZB_RTOL 1e-13          /* local error per step, relative (see above) */
#define LZB_LAND 1e-13          /* a plastic contact's landing on vn = 0, over the speed scale */
#define LZB_STEPS_BASE 200000L  /* step budget: this plus LZB_STEPS_PER per contact */
#define LZB_STEPS_PER 2000L

typedef struct {
    int nc, bw;                 /* contacts, half bandwidth of W */
    const double *W, *e, *k, *eta;
    double V;                   /* speed scale: the largest approach speed */
    double *qs, *ps;            /* per contact: floors of q's and P's error scales */
    unsigned char *sep;         /* per contact: separated when the step starts */
    double *y, *y1, *yt, *ks[7];/* state (vn, q, P) and the stages, 3 nc each */
    int lo, hi;                 /* the window of contacts a step may change */
} Lzb;

/* The half bandwidth of W: the largest |i - j| with W_ij != 0. */
static int lzb_bandwidth(int nc, const double *W)
{
    int bw = 0;
    for (int i = 0; i < nc; i++)
        for (int j = 0; j < nc; j++)
            if (W[(size_t)i * nc + j] != 0 && abs(i - j) > bw)
                bw = abs(i - j);
    return bw;
}

/* Whether the arguments describe an impact the law is defined for: W
** symmetric with a positive finite diagonal, finite velocities, 0 <= e <= 1,
** k > 0 and 1 <= eta <= 10 (finite). */
static int lzb_check(int nc, const double *W, const double *vn, const double *e,
                     const double *k, const double *eta)
{
    for (int i = 0; i < nc; i++) {
        if (!isfinite(vn[i]) || !(e[i] >= 0 && e[i] <= 1) || !(k[i] > 0 && isfinite(k[i]))
            || !(eta[i] >= 1 && eta[i] <= 10))
            return RT_LZB_EARG;
        double d = W[(size_t)i * nc + i];
        if (!(d > 0 && isfinite(d)))
            return RT_LZB_EW;
    }
    for (int i = 0; i < nc; i++)
        for (int j = i + 1; j < nc; j++) {
            double a = W[(size_t)i * nc + j], b = W[(size_t)j * nc + i];
            double sc = sqrt(W[(size_t)i * nc + i] * W[(size_t)j * nc + j]);
            if (!isfinite(a) || !(fabs(a - b) <= 1e-12 * sc))
                return RT_LZB_EW;
        }
    return 0;
}

/* A contact's force k q^eta (0 unless compressed), with the common
** exponents without pow. */
static double lzb_force(double k, double eta, double q)
{
    if (!(q > 0))
        return 0;
    if (eta == 1)
        return k * q;
    if (eta == 1.5)
        return k * q * sqrt(q);
    return k * pow(q, eta);
}

/* The rate of a contact's equivalent compression: -vn while it closes,
** -vn/e^2 while it opens. A contact separated when the step starts (sep:
** q <= 0 and opening) keeps q at 0 while it opens and compresses at once if
** it turns back (the law keeps no gap). One that separates within the step
** runs below zero until the step ends, so that the right-hand side stays
** continuous there; each accepted step puts q back to 0 (lzb_settle). A
** plastic contact (e = 0) expands in no time: its steps land on vn = 0
** instead (lzb_landing). */
static double lzb_qrate(double vn, int sep, double e)
{
    if (vn <= 0)
        return -vn;
    if (sep)
        return 0;
    return e == 0 ? -vn : -vn / (e * e);
}

/* The law's right-hand side d(vn, q, P)/ds at y, over the window: the
** forces first, then each velocity's rate as its row of the band times
** them (the sums in the same order as column by column, without a branch
** per entry). */
static void lzb_rates(const Lzb *L, const double *y, double *dy)
{
    int nc = L->nc, lo = L->lo, hi = L->hi, bw = L->bw;
    const double *vn = y, *q = y + nc;
    double *dvn = dy, *dq = dy + nc, *dP = dy + 2 * nc;
    for (int j = lo; j < hi; j++) {
        dP[j] = lzb_force(L->k[j], L->eta[j], q[j]);
        dq[j] = lzb_qrate(vn[j], L->sep[j], L->e[j]);
    }
    for (int i = lo; i < hi; i++) {
        const double *row = L->W + (size_t)i * nc;
        int a = i - bw < lo ? lo : i - bw, b = i + bw + 1 > hi ? hi : i + bw + 1;
        double acc = 0;
        for (int j = a; j < b; j++)
            acc += row[j] * dP[j];
        dvn[i] = acc;
    }
}

/* One Dormand-Prince step of size h from L->y into L->y1 over the window;
** returns the largest error over its scale (accept when <= 1). */
static double lzb_step(Lzb *L, double h)
{
    int nc = L->nc, lo = L->lo, hi = L->hi;
    for (int j = lo; j < hi; j++)
        L->sep[j] = !(L->y[nc + j] > 0) && L->y[j] >= 0;
    lzb_rates(L, L->y, L->ks[0]);
    for (int st = 1; st < 7; st++) {
        /* the rates do not read P: its stages are formed at the last only */
        for (int part = 0; part < (st < 6 ? 2 : 3); part++) {
            int a = part * nc + lo, b = part * nc + hi;
            memcpy(L->yt + a, L->y + a, sizeof(double) * (size_t)(b - a));
            for (int r = 0; r < st; r++) {         /* one stage at a time: vectorises */
                double c = h * dp_a[st][r];
                const double *kr = L->ks[r];
                if (c != 0)
                    for (int i = a; i < b; i++)
                        L->yt[i] += c * kr[i];
            }
        }
        lzb_rates(L, L->yt, L->ks[st]);
    }
    double worst = 0;
    for (int part = 0; part < 3; part++)
        for (int i = lo; i < hi; i++) {
            int x = part * nc + i;
            double err = 0;
            for (int r = 0; r < 7; r++)
                err += dp_e[r] * L->ks[r][x];
            err = fabs(h * err);
            double y0 = fabs(L->y[x]), y1 = fabs(L->yt[x]);
            double sc = part == 0 ? L->V
                      : fmax(fmax(y0, y1), part == 1 ? L->qs[i] : L->ps[i]);
            L->y1[x] = L->yt[x];
            if (err > worst * (LZB_RTOL * sc))
                worst = err / (LZB_RTOL * sc);
        }
    return worst;
}

/* The fraction of the step at which it first crosses a kink of the law,
** by regula falsi on the trial step L->y -> L->y1: a compressed contact's
** q reaching 0 (separation: k q^eta is not smooth there), or its vn
** changing sign when e < 1 (the rate of q jumps from -vn to -vn/e^2).
** 1 when none is crossed. *plastic is set when the first is a plastic
** contact's maximal compression past the landing tolerance, which must be
** landed on (its energy is lost there), not stepped over. */
static double lzb_landing(const Lzb *L, int *plastic)
{
    int nc = L->nc;
    double theta = 1;
    *plastic = 0;
    for (int j = L->lo; j < L->hi; j++) {
        double q0 = L->y[nc + j], q1 = L->y1[nc + j], v0 = L->y[j], v1 = L->y1[j];
        if (!(q0 > 0))
            continue;
        if (q1 < 0 && q0 / (q0 - q1) < theta) {
            theta = q0 / (q0 - q1);
            *plastic = 0;
        }
        if (L->e[j] == 1 || !((v0 < 0 && v1 > 0) || (v0 > 0 && v1 < 0)))
            continue;
        double f = v0 / (v0 - v1);
        if (f < theta) {
            theta = f;
            *plastic = L->e[j] == 0 && v0 < 0 && v1 > LZB_LAND * L->V;
        }
    }
    return theta;
}

/* After an accepted step: compressions below zero are separations (E = 0),
** and a plastic contact at its maximal compression loses its energy. */
static void lzb_settle(Lzb *L)
{
    int nc = L->nc;
    double *vn = L->y, *q = L->y + nc;
    for (int j = L->lo; j < L->hi; j++) {
        if (q[j] < 0)
            q[j] = 0;
        if (L->e[j] == 0 && q[j] > 0 && vn[j] >= -LZB_LAND * L->V)
            q[j] = 0;
    }
}

/* The window of contacts the next step may change: 8 half bandwidths
** around the live ones (compressed or approaching), searched within the
** previous window widened by as much (nothing outside it moved). Returns
** 0 when no contact is live: the impact is over. */
static int lzb_window(Lzb *L, int lo, int hi)
{
    int nc = L->nc, reach = 8 * L->bw, first = -1, last = -1;
    for (int j = lo; j < hi; j++)
        if (L->y[nc + j] > 0 || L->y[j] < 0) {
            if (first < 0)
                first = j;
            last = j;
        }
    if (first < 0)
        return 0;
    L->lo = first - reach < 0 ? 0 : first - reach;
    L->hi = last + reach + 1 > nc ? nc : last + reach + 1;
    return 1;
}

/* The time scale of contact j's compression at the speed V:
** (V^(1-eta) / (k W_jj))^(1/(eta+1)) (from W_jj^-1 V / T = k (V T)^eta). */
static double lzb_timescale(const Lzb *L, int j)
{
    double d = L->W[(size_t)j * L->nc + j];
    return pow(pow(L->V, 1 - L->eta[j]) / (L->k[j] * d), 1 / (L->eta[j] + 1));
}

/* The scales and the first step: V the largest approach speed, q's floor
** each contact's compression V T_j, P's floor V / W_jj (an error of the
** tolerance on them moves the velocities by about the tolerance times V); the
** first step a thousandth of the shortest compression time of the
** approaching contacts. */
static double lzb_scales(Lzb *L, const double *vn)
{
    double h = INFINITY;
    L->V = 0;
    for (int j = 0; j < L->nc; j++)
        L->V = fmax(L->V, -vn[j]);
    for (int j = 0; j < L->nc; j++) {
        double T = lzb_timescale(L, j);
        L->qs[j] = L->V * T;
        L->ps[j] = L->V / L->W[(size_t)j * L->nc + j];
        if (vn[j] < 0)
            h = fmin(h, 1e-3 * T);
    }
    return h;
}

/* Integrate the law from L->y until every contact has separated. */
static int lzb_integrate(Lzb *L, double h)
{
    int nc = L->nc;
    long budget = LZB_STEPS_BASE + LZB_STEPS_PER * (long)nc;
    if (!lzb_window(L, 0, nc))
        return 0;
    for (long n = 0; n < budget; n++) {
        double err = lzb_step(L, h);
        int plastic;
        double theta = lzb_landing(L, &plastic);
        if (plastic) {
            h *= theta;                         /* land on it */
            continue;
        }
        if (!(err <= 1) && theta < 0.999) {
            h *= theta * 1.0001;                /* end a hair past the kink */
            continue;
        }
        if (!(err <= 1)) {
            h *= isfinite(err) ? fmax(0.2, 0.9 * pow(err, -0.2)) : 0.2;
            if (!(h > 0))
                return RT_LZB_ESTEP;
            continue;
        }
        for (int part = 0; part < 3; part++)
            memcpy(L->y + part * nc + L->lo, L->y1 + part * nc + L->lo,
                   sizeof(double) * (size_t)(L->hi - L->lo));
        lzb_settle(L);
        int lo = L->lo - 8 * L->bw, hi = L->hi + 8 * L->bw;
        if (!lzb_window(L, lo < 0 ? 0 : lo, hi > nc ? nc : hi))
            return 0;
        h *= fmin(5, err > 0 ? 0.9 * pow(err, -0.2) : 5);
    }
    return RT_LZB_ESTEP;
}

/* Release the workspace. */
static void lzb_free(Lzb *L)
{
    free(L->y);
    free(L->qs);
    free(L->sep);
}

/* The energetic multiple-impact law (above): the impulses P >= 0 of the nc
** contacts of Delassus matrix W (row-major, symmetric) with pre-impact
** relative normal velocities vn (negative approaching), energetic
** restitution e, stiffnesses k and force exponents eta, and the post-impact
** velocities vn_after = vn + W P. Returns 0, RT_LZB_EARG (an argument out
** of its range: nc < 1, a null pointer, a non-finite vn, e outside [0, 1],
** k <= 0, eta outside [1, 10]), RT_LZB_EW (W not symmetric with a positive
** diagonal), RT_LZB_ENOMEM, or RT_LZB_ESTEP (the impact did not end within
** the step budget). */
int rt_lzb_solve(int nc, const double *W, const double *vn, const double *e, const double *k,
                 const double *eta, double *P, double *vn_after)
{
    if (nc < 1 || !W || !vn || !e || !k || !eta || !P || !vn_after)
        return RT_LZB_EARG;
    int rc = lzb_check(nc, W, vn, e, k, eta);
    if (rc)
        return rc;
    Lzb L = { .nc = nc, .W = W, .e = e, .k = k, .eta = eta };
    size_t n3 = 3 * (size_t)nc;
    L.y = calloc(n3 * 10, sizeof(double));
    L.qs = calloc(2 * (size_t)nc, sizeof(double));
    L.sep = calloc((size_t)nc, 1);
    if (!L.y || !L.qs || !L.sep) {
        lzb_free(&L);
        return RT_LZB_ENOMEM;
    }
    L.y1 = L.y + n3;
    L.yt = L.y + 2 * n3;
    for (int r = 0; r < 7; r++)
        L.ks[r] = L.y + (3 + r) * n3;
    L.ps = L.qs + nc;
    L.bw = lzb_bandwidth(nc, W);
    memcpy(L.y, vn, sizeof(double) * (size_t)nc);
    double h = lzb_scales(&L, vn);
    rc = isfinite(h) ? lzb_integrate(&L, h) : 0;
    if (rc == 0) {
        memcpy(P, L.y + 2 * nc, sizeof(double) * (size_t)nc);
        memcpy(vn_after, L.y, sizeof(double) * (size_t)nc);
    }
    lzb_free(&L);
    return rc;
}
