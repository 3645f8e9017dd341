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
** The step budget is a test of progress (lzb_progress): the bound on what
** is left (below) must halve within every stretch of global steps.
** A global step that fails its error test only near contacts crossing a
** kink is not cut back onto the first kink: each band of LZB_REACH half
** bandwidths around them is re-stepped alone over the step in sub-steps of
** its own (multirate, C. W. Gear and D. R. Wells, "Multirate linear
** multistep methods", BIT 24 (1984) 484-502), its neighbours acting through
** the global step's continuous extension, and the global step stands
** elsewhere if the bands' edges agree with it to the local tolerance.
** The integration ends early once the law's energy bound (the energy stored
** in the contacts and the approach speeds' relative kinetic energy) shows
** that no velocity can still move by LZB_STOP of the largest approach
** speed; the energy the law dissipates is integrated alongside, so that
** a solve's energy balance can be closed (rt_lzb_solve_info).
** Accuracy: docs/theory.md, "Energetic multiple impacts".
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dp5.h"
#include "rt.h"

#define LZB_RTOL 1e-13          /* local error per step, relative (see above) */
#define LZB_LAND 1e-13          /* a plastic contact's landing on vn = 0, over the speed scale */
#define LZB_STEPS_BASE 200000L  /* a stretch of global steps: this plus LZB_STEPS_PER per */
#define LZB_STEPS_PER 2000L     /* contact, in which the energy bound must halve (lzb_progress) */
#define LZB_STEPS_SQ 10L        /* W not positive definite: a fixed budget, plus this times nc^2 */
#define LZB_SAMPLE 64           /* the bound is sampled every this many global step attempts */
#define LZB_REACH 4             /* a band's half width around a kink, in half bandwidths */
#define LZB_STOP 1e-11          /* early stop: what is left may move no velocity by more, over V */

typedef struct {
    int nc, bw;                 /* contacts, half bandwidth of W */
    const double *W, *e, *k, *eta;
    double V;                   /* speed scale: the largest approach speed */
    double *qs, *ps;            /* per contact: floors of q's and P's error scales */
    unsigned char *sep;         /* per contact: separated when the step starts */
    unsigned char *kink;        /* per contact: the trial step crosses one of its kinks */
    double *y, *y1, *yt, *ks[7];/* state (vn, q, P) and the stages, 3 nc each */
    double *ce;                 /* per contact: the trial step's error over its tolerance */
    double *F;                  /* per contact: the forces of the stage being formed */
    double *ysave, *gsave;      /* a band's state at the global step's start and end (3 nc) */
    double *dD, *D, *Dsave;     /* per contact: the trial step's dissipation, the total, a band's */
    int *blo, *bhi;             /* the bands of a global step (at most nc) */
    int lo, hi;                 /* the window of contacts a step may change */
    int wlo, whi;               /* the global step's window while a band is re-stepped */
    int glo, ghi;               /* a band's contacts plus its ghosts (band mode), else lo, hi */
    int ghost;                  /* band mode: forces beyond [lo, hi) from the global step */
    double gs0, gH;             /* band mode: the sub-step's start and the global step's size */
    int reach;                  /* a band's half width around a kink: LZB_REACH bands of W */
    long n;                     /* global steps taken */
    double *chol;               /* W's banded Cholesky factor (nc rows of bw + 1), or NULL */
    int chol_state;             /* 0 not formed, 1 formed, -1 W not positive definite */
    long deadline;              /* the attempt at which the current stretch ends */
    double reach_prev, reach_min; /* the bound's least sample in the last stretch, this one */
    double wmax;                /* the largest W_jj */
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

/* Dormand and Prince's continuous extension of their 5(4) pair (the
** coefficients of Hairer's DOPRI5, CONTD5: E. Hairer, S. P. Norsett and G.
** Wanner, Solving Ordinary Differential Equations I, 2nd ed., Springer
** 1993, section II.6), of order 5 over the step like the step itself. */
static const double lzb_dense[7] = { -12715105075.0 / 11282082432, 0,
                                     87487479700.0 / 32700410799, -10690763975.0 / 1880347072,
                                     701980252875.0 / 199316789632, -1453857185.0 / 822651844,
                                     69997945.0 / 29380423 };

/* A ghost contact's force at the fraction th of the global step: its q
** from the global step's continuous extension (L->y at the start, L->y1 at
** the end, the stages L->ks, which a band's sub-steps leave untouched
** outside the band). A ghost is a contact within one half bandwidth of a
** band being re-stepped: the band's velocities feel its force. */
static double lzb_ghost_force(const Lzb *L, int j, double th)
{
    int x = L->nc + j;
    double H = L->gH, r2 = L->y1[x] - L->y[x], r3 = H * L->ks[0][x] - r2;
    double r4 = r2 - H * L->ks[6][x] - r3, r5 = 0;
    for (int s = 0; s < 7; s++)
        r5 += lzb_dense[s] * L->ks[s][x];
    r5 *= H;
    double q = L->y[x] + th * (r2 + (1 - th) * (r3 + th * (r4 + (1 - th) * r5)));
    return lzb_force(L->k[j], L->eta[j], q);
}

/* The law's right-hand side d(vn, q, P)/ds at y, over the window, at the
** offset c into the step: the forces first (and, in band mode, the ghosts'
** from the global step at that offset), then each velocity's rate as its
** row of the band times them (the sums in the same order as column by
** column, without a branch per entry). */
static void lzb_rates(const Lzb *L, const double *y, double *dy, double c)
{
    int nc = L->nc, lo = L->lo, hi = L->hi, bw = L->bw, glo = L->glo, ghi = L->ghi;
    const double *vn = y, *q = y + nc;
    double *dvn = dy, *dq = dy + nc, *dP = dy + 2 * nc, *F = L->F;
    for (int j = lo; j < hi; j++) {
        F[j] = dP[j] = lzb_force(L->k[j], L->eta[j], q[j]);
        dq[j] = lzb_qrate(vn[j], L->sep[j], L->e[j]);
    }
    if (L->ghost) {
        double th = (L->gs0 + c) / L->gH;
        for (int j = glo; j < lo; j++)
            F[j] = lzb_ghost_force(L, j, th);
        for (int j = hi; j < ghi; j++)
            F[j] = lzb_ghost_force(L, j, th);
    }
    for (int i = lo; i < hi; i++) {
        const double *row = L->W + (size_t)i * nc;
        int a = i - bw < glo ? glo : i - bw, b = i + bw + 1 > ghi ? ghi : i + bw + 1;
        double acc = 0;
        for (int j = a; j < b; j++)
            acc += row[j] * F[j];
        dvn[i] = acc;
    }
}

/* The energy each contact of the window dissipates over the trial step of
** size h, into L->dD: the step's quadrature (Dormand-Prince's fifth-order
** weights) of the rate (1 - e^2) F (-dq/ds) while it expands (dq < 0), which
** is vn F (1/e^2 - 1): of what an expansion takes from the stored energy,
** e^2 goes to the velocities and the rest is lost. A plastic contact loses
** its energy at once where it lands (lzb_settle), not here. */
static void lzb_dissipation(Lzb *L, double h)
{
    int nc = L->nc;
    for (int j = L->lo; j < L->hi; j++) {
        double e = L->e[j], acc = 0;
        if (e == 0 || e == 1) {
            L->dD[j] = 0;
            continue;
        }
        for (int r = 0; r < 6; r++) {
            double dq = L->ks[r][nc + j];
            if (dq < 0)
                acc += dp_a[6][r] * L->ks[r][2 * nc + j] * -dq;
        }
        L->dD[j] = h * (1 - e * e) * acc;
    }
}

/* One Dormand-Prince step of size h from L->y into L->y1 over the window;
** returns the largest error over its scale (accept when <= 1) and leaves
** each contact's own in L->ce. */
static double lzb_step(Lzb *L, double h)
{
    int nc = L->nc, lo = L->lo, hi = L->hi;
    if (!L->ghost) {
        L->glo = lo;
        L->ghi = hi;
    }
    for (int j = lo; j < hi; j++)
        L->sep[j] = !(L->y[nc + j] > 0) && L->y[j] >= 0;
    lzb_rates(L, L->y, L->ks[0], 0);
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
        lzb_rates(L, L->yt, L->ks[st], dp_c[st] * h);
    }
    lzb_dissipation(L, h);
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
            double r = err / (LZB_RTOL * sc);
            if (part == 0 || r > L->ce[i])
                L->ce[i] = r;
            if (err > worst * (LZB_RTOL * sc))
                worst = r;
        }
    return worst;
}

/* The fraction of the trial step L->y -> L->y1 at which contact j first
** crosses a kink of the law, by regula falsi: its q reaching 0 while
** compressed (separation: k q^eta is not smooth there), or its vn changing
** sign when e < 1 (the rate of q jumps from -vn to -vn/e^2). 1 when none.
** *plastic is set when that kink is a plastic contact's maximal
** compression past the landing tolerance, which must be landed on (its
** energy is lost there), not stepped over. *closes is set when a contact
** separated at the step's start is compressed at its end: the onset of a
** compression, where the force k q^eta grows as a power (s - s0)^eta of the
** time since the onset (not smooth for eta = 3/2), so a step across it
** fails its error test like one across a kink; it is not landed on (the
** steps from the onset are no smoother) but re-stepped in a band. */
static double lzb_kink(const Lzb *L, int j, int *plastic, int *closes)
{
    int nc = L->nc;
    double q0 = L->y[nc + j], q1 = L->y1[nc + j], v0 = L->y[j], v1 = L->y1[j], theta = 1;
    *plastic = 0;
    *closes = !(q0 > 0) && q1 > 0;
    if (!(q0 > 0))
        return 1;
    if (q1 < 0)
        theta = q0 / (q0 - q1);
    if (L->e[j] == 1 || !((v0 < 0 && v1 > 0) || (v0 > 0 && v1 < 0)))
        return theta;
    double f = v0 / (v0 - v1);
    if (f < theta) {
        theta = f;
        *plastic = L->e[j] == 0 && v0 < 0 && v1 > LZB_LAND * L->V;
    }
    return theta;
}

/* The fraction of the trial step at which it first crosses a kink of any
** contact of the window (lzb_kink; 1 when none), *plastic as there for
** that first one; marks in L->kink every contact that crosses one or
** starts a compression within the step (the bands are re-stepped around
** both). */
static double lzb_landing(Lzb *L, int *plastic)
{
    double theta = 1;
    *plastic = 0;
    for (int j = L->lo; j < L->hi; j++) {
        int pl, closes;
        double f = lzb_kink(L, j, &pl, &closes);
        L->kink[j] = f < 1 || closes;
        if (f < theta) {
            theta = f;
            *plastic = pl;
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
        if (L->e[j] == 0 && q[j] > 0 && vn[j] >= -LZB_LAND * L->V) {
            L->D[j] += lzb_force(L->k[j], L->eta[j], q[j]) * q[j] / (L->eta[j] + 1);
            q[j] = 0;
        }
    }
}

/* Accept the trial step over the window: L->y1 becomes the state. */
static void lzb_accept(Lzb *L)
{
    int nc = L->nc;
    for (int part = 0; part < 3; part++)
        memcpy(L->y + part * nc + L->lo, L->y1 + part * nc + L->lo,
               sizeof(double) * (size_t)(L->hi - L->lo));
    for (int j = L->lo; j < L->hi; j++)
        L->D[j] += L->dD[j];
    lzb_settle(L);
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

/* The step after an accepted one of error err (over its tolerance). */
static double lzb_grow(double h, double err)
{
    return h * fmin(5, err > 0 ? 0.9 * pow(err, -0.2) : 5);
}

/* One attempt's verdict, shared by the global steps and a band's
** sub-steps: 1 when the trial step of size *h is accepted; otherwise 0
** with *h the size to try instead (onto the first kink when the step
** fails across one, or a plastic contact's landing), or RT_LZB_ESTEP when
** the step size vanished. */
static int lzb_verdict(double *h, double err, double theta, int plastic)
{
    if (plastic) {
        *h *= theta;                            /* land on it */
        return 0;
    }
    if (err <= 1)
        return 1;
    if (theta < 0.999) {
        *h *= theta * 1.0001;                   /* end a hair past the kink */
        return 0;
    }
    *h *= isfinite(err) ? fmax(0.2, 0.9 * pow(err, -0.2)) : 0.2;
    return *h > 0 ? 0 : RT_LZB_ESTEP;
}

/* Re-step the band [L->lo, L->hi) over the whole global step (size L->gH)
** in sub-steps of its own, with the same error test and kink landing as
** the global steps; the contacts within a half bandwidth outside it (its
** ghosts) act through their forces from the global step's continuous
** extension. Returns 0, or RT_LZB_ESTEP after LZB_STEPS_BASE sub-steps
** (the global budget counts global steps only: a sub-step costs a band). */
static int lzb_band_run(Lzb *L)
{
    double H = L->gH, s = 0, h = H;
    for (long n = 0; n < LZB_STEPS_BASE; n++) {
        int last = h >= H - s, plastic;
        double hs = last ? H - s : h;
        L->gs0 = s;
        double err = lzb_step(L, hs);
        double theta = lzb_landing(L, &plastic);
        int v = lzb_verdict(&hs, err, theta, plastic);
        if (v < 0)
            return v;
        if (v == 0) {
            h = hs;
            continue;
        }
        lzb_accept(L);
        if (last)
            return 0;
        s += hs;
        h = lzb_grow(hs, err);
    }
    return RT_LZB_ESTEP;
}

/* The bands of the trial step: the contacts within L->reach of one that
** crosses a kink, merged when their ghosts would overlap (less than two
** half bandwidths apart). Returns their number, 0 when there is none or
** when one band is the whole window (the global cut is the same work),
** *eo the largest error outside them. */
static int lzb_bands(Lzb *L, double *eo)
{
    int nb = 0, covered = 0, r = L->reach, gap = 2 * L->bw;
    *eo = 0;
    for (int j = L->lo; j < L->hi; j++) {
        if (!L->kink[j])
            continue;
        int a = j - r < L->lo ? L->lo : j - r, b = j + r + 1 > L->hi ? L->hi : j + r + 1;
        if (nb > 0 && a < L->bhi[nb - 1] + gap) {
            covered += b - L->bhi[nb - 1];
            L->bhi[nb - 1] = b;
            continue;
        }
        L->blo[nb] = a;
        L->bhi[nb++] = b;
        covered += b - a;
    }
    if (nb == 0 || covered >= L->hi - L->lo)
        return 0;
    for (int b = 0, j = L->lo; j < L->hi; j++) {
        while (b < nb && j >= L->bhi[b])
            b++;
        if (b < nb && j >= L->blo[b])
            continue;
        if (isnan(L->ce[j]))
            return 0;                           /* no band over a step gone bad */
        if (L->ce[j] > *eo)
            *eo = L->ce[j];
    }
    return nb;
}

/* Copy the three parts (vn, q, P) of contacts [a, b) from src to dst. */
static void lzb_copy(const Lzb *L, double *dst, const double *src, int a, int b)
{
    for (int part = 0; part < 3; part++)
        memcpy(dst + part * L->nc + a, src + part * L->nc + a, sizeof(double) * (size_t)(b - a));
}

/* Whether band b's re-stepped edges (its outermost half bandwidth on each
** side that borders other contacts) agree with the global step's values
** there (L->gsave) within the error test's tolerance: the global step's
** contacts outside the band used those edges' stage values, so they are
** right only if the kink's correction has not reached the edges. */
static int lzb_edges_agree(const Lzb *L, int b)
{
    int nc = L->nc, a = L->blo[b], z = L->bhi[b], bw = L->bw;
    for (int j = a; j < z; j++) {
        if (!((a > L->wlo && j < a + bw) || (z < L->whi && j >= z - bw)))
            continue;
        for (int part = 0; part < 3; part++) {
            int x = part * nc + j;
            double sc = part == 0 ? L->V
                      : fmax(fabs(L->y[x]), part == 1 ? L->qs[j] : L->ps[j]);
            if (!(fabs(L->y[x] - L->gsave[x]) <= LZB_RTOL * sc))
                return 0;
        }
    }
    return 1;
}

/* A global step of size H whose error test fails only near kinks:
** re-step each band around them on its own (lzb_band_run) and take the
** global step's values elsewhere. Returns 1 when done (the state
** advanced, *eo the error outside the bands), 0 when not applicable (the
** state unchanged; the caller cuts the global step as before), or
** RT_LZB_ESTEP. A band whose edges disagree with the global step widens
** the bands for the steps that follow. */
static int lzb_banded(Lzb *L, double H, double *eo)
{
    int nb = lzb_bands(L, eo);
    if (nb == 0 || !(*eo <= 1))
        return 0;
    L->wlo = L->lo;
    L->whi = L->hi;
    for (int b = 0; b < nb; b++) {
        lzb_copy(L, L->ysave, L->y, L->blo[b], L->bhi[b]);
        lzb_copy(L, L->gsave, L->y1, L->blo[b], L->bhi[b]);
        memcpy(L->Dsave + L->blo[b], L->D + L->blo[b],
               sizeof(double) * (size_t)(L->bhi[b] - L->blo[b]));
    }
    L->ghost = 1;
    L->gH = H;
    int rc = 0, agree = 1;
    for (int b = 0; b < nb && rc == 0 && agree; b++) {
        L->lo = L->blo[b];
        L->hi = L->bhi[b];
        L->glo = L->lo - L->bw < L->wlo ? L->wlo : L->lo - L->bw;
        L->ghi = L->hi + L->bw > L->whi ? L->whi : L->hi + L->bw;
        rc = lzb_band_run(L);
        agree = rc == 0 && lzb_edges_agree(L, b);
    }
    L->ghost = 0;
    L->lo = L->wlo;
    L->hi = L->whi;
    if (rc)
        return rc;
    if (!agree) {
        for (int b = 0; b < nb; b++) {
            lzb_copy(L, L->y, L->ysave, L->blo[b], L->bhi[b]);
            memcpy(L->D + L->blo[b], L->Dsave + L->blo[b],
                   sizeof(double) * (size_t)(L->bhi[b] - L->blo[b]));
        }
        return 0;
    }
    for (int b = 0, j = L->lo; j < L->hi; j++) {   /* the global step elsewhere */
        while (b < nb && j >= L->bhi[b])
            b++;
        if (b == nb || j < L->blo[b]) {
            lzb_copy(L, L->y, L->y1, j, j + 1);
            L->D[j] += L->dD[j];
        }
    }
    lzb_settle(L);
    return 1;
}

/* W's lower Cholesky factor in band storage (row i holds L_{i,i-bw..i} at
** chol[i (bw + 1) + (j - i + bw)]), formed once when the early stop first
** needs it: 1, or -1 when W is not positive definite to working accuracy
** (a pivot below 1e-12 of its diagonal entry: no early stop then), or
** RT_LZB_ENOMEM. O(nc bw^2). */
static int lzb_cholesky(Lzb *L)
{
    int nc = L->nc, bw = L->bw, w = bw + 1;
    L->chol = malloc(sizeof(double) * (size_t)nc * (size_t)w);
    if (!L->chol)
        return RT_LZB_ENOMEM;
    for (int i = 0; i < nc; i++)
        for (int j = i - bw < 0 ? 0 : i - bw; j <= i; j++) {
            double acc = L->W[(size_t)i * nc + j];
            int a = (i > j ? i : j) - bw;
            const double *Li = L->chol + (size_t)i * w + bw - i;  /* Li[m] = L_im */
            const double *Lj = L->chol + (size_t)j * w + bw - j;
            for (int m = a < 0 ? 0 : a; m < j; m++)
                acc -= Li[m] * Lj[m];
            if (j < i) {
                L->chol[(size_t)i * w + (j - i + bw)] = acc / L->chol[(size_t)j * w + bw];
                continue;
            }
            if (!(acc > 1e-12 * L->W[(size_t)i * nc + i]))
                return -1;
            L->chol[(size_t)i * w + bw] = sqrt(acc);
        }
    return 1;
}

/* c^2 = vn-^T W^-1 vn- for the approach speeds vn-_j = max(-vn_j, 0),
** which are zero outside the window: |z|^2 with L z = vn- (W = L L^T),
** forward substitution from the window's first contact. O((nc - lo) bw). */
static double lzb_approach_energy(const Lzb *L, double *z)
{
    int nc = L->nc, bw = L->bw, w = bw + 1;
    double c2 = 0;
    for (int i = L->lo; i < nc; i++) {
        double acc = i < L->hi && L->y[i] < 0 ? -L->y[i] : 0;
        for (int m = i - bw < L->lo ? L->lo : i - bw; m < i; m++)
            acc -= L->chol[(size_t)i * w + (m - i + bw)] * z[m];
        z[i] = acc / L->chol[(size_t)i * w + bw];
        c2 += z[i] * z[i];
    }
    return c2;
}

/* The energy still stored in the contacts, U = sum k_j q_j^(eta_j+1) / (eta_j+1)
** over the window (nothing outside it is compressed). */
static double lzb_stored(const Lzb *L)
{
    double U = 0;
    for (int j = L->lo; j < L->hi; j++) {
        double q = L->y[L->nc + j];
        if (q > 0)
            U += lzb_force(L->k[j], L->eta[j], q) * q / (L->eta[j] + 1);
    }
    return U;
}

/* The energy stored in every contact (lzb_stored over all of them). */
static double lzb_stored_all(Lzb *L)
{
    int lo = L->lo, hi = L->hi;
    L->lo = 0;
    L->hi = L->nc;
    double U = lzb_stored(L);
    L->lo = lo;
    L->hi = hi;
    return U;
}

/* W's Cholesky factor, formed once when first needed: 1, -1 when W is not
** positive definite to working accuracy, or RT_LZB_ENOMEM. */
static int lzb_factor(Lzb *L)
{
    if (L->chol_state == 0)
        L->chol_state = lzb_cholesky(L);
    return L->chol_state;
}

/* The most any contact's velocity can still change, W's factor formed
** (docs/theory.md section 17, "The early stop"): the remaining impulse
** dP >= 0 obeys vn^T dP + dP^T W dP / 2 <= U (the energy does not grow and
** every E_j is zero at the end), so x = W^(1/2) dP has |x| <= c + (c^2 +
** 2U)^(1/2) with c^2 = vn-^T W^-1 vn-, and |dvn_j| <= W_jj^(1/2) |x|. */
static double lzb_reach(Lzb *L, double U)
{
    double c2 = lzb_approach_energy(L, L->F);
    return sqrt(L->wmax) * (sqrt(c2) + sqrt(c2 + 2 * U));
}

/* Whether what is left of the impact can no longer move any contact's
** velocity by more than LZB_STOP V (lzb_reach). The cheap necessary test
** (c = 0) first; W's factor only when it passes. 1 stop, 0 go on, or
** RT_LZB_ENOMEM. */
static int lzb_spent(Lzb *L)
{
    double tol = LZB_STOP * L->V, U = lzb_stored(L);
    if (!(sqrt(L->wmax) * sqrt(2 * U) <= tol))
        return 0;
    int f = lzb_factor(L);
    if (f < 0)
        return f == -1 ? 0 : f;
    return lzb_reach(L, U) <= tol;
}

/* The step budget as a test of progress, after accepted attempt L->n: the
** impact is given up (RT_LZB_ESTEP) only when a stretch of LZB_STEPS_BASE +
** LZB_STEPS_PER nc attempts has not halved the least value of the bound
** lzb_reach (sampled every LZB_SAMPLE attempts) that the stretch before it
** reached. The early stop ends the impact once the bound is below LZB_STOP
** V, so a solve that goes on halving it ends after at most about
** log2(reach_0 / (LZB_STOP V)) stretches whatever its length: a legitimate
** decay, however slow, is never cut, and a stalled one (a chatter held by
** rounding) is reported. Where W is not positive definite the bound does
** not apply: a fixed budget then, that stretch plus LZB_STEPS_SQ nc^2.
** 0 go on, or RT_LZB_ESTEP, RT_LZB_ENOMEM. */
static int lzb_progress(Lzb *L)
{
    if (L->n < LZB_STEPS_BASE / 4 || (L->n % LZB_SAMPLE != 0 && L->n < L->deadline))
        return 0;                               /* short solves: no factor, no samples */
    int f = lzb_factor(L);
    if (f == -1)
        return L->n < L->deadline + LZB_STEPS_SQ * (long)L->nc * L->nc ? 0 : RT_LZB_ESTEP;
    if (f < 0)
        return f;
    L->reach_min = fmin(L->reach_min, lzb_reach(L, lzb_stored(L)));
    if (L->n < L->deadline)
        return 0;
    if (!(L->reach_min <= 0.5 * L->reach_prev))
        return RT_LZB_ESTEP;
    L->reach_prev = L->reach_min;
    L->reach_min = INFINITY;
    L->deadline += LZB_STEPS_BASE + LZB_STEPS_PER * (long)L->nc;
    return 0;
}

/* Integrate the law from L->y until every contact has separated. */
static int lzb_integrate(Lzb *L, double h)
{
    int nc = L->nc;
    L->deadline = LZB_STEPS_BASE + LZB_STEPS_PER * (long)nc;
    L->reach_prev = L->reach_min = INFINITY;
    if (!lzb_window(L, 0, nc))
        return 0;
    int rejected = 0;                           /* the last attempt failed */
    for (;;) {
        if (++L->n > L->deadline + LZB_STEPS_BASE + LZB_STEPS_SQ * (long)nc * nc)
            return RT_LZB_ESTEP;                /* that long without an accepted step */
        double err = lzb_step(L, h), eo = err, ht = h;
        int plastic;
        double theta = lzb_landing(L, &plastic);
        int v = lzb_verdict(&ht, err, theta, plastic);
        if (v < 0)
            return v;
        if (v == 0) {
            v = lzb_banded(L, h, &eo);
            if (v < 0)
                return v;
        } else {
            lzb_accept(L);
        }
        if (v == 0) {
            h = ht;
            rejected = 1;
            continue;
        }
        int lo = L->lo - 8 * L->bw, hi = L->hi + 8 * L->bw;
        if (!lzb_window(L, lo < 0 ? 0 : lo, hi > nc ? nc : hi))
            return 0;
        if ((v = lzb_spent(L)) != 0)
            return v < 0 ? v : 0;
        if ((v = lzb_progress(L)) != 0)
            return v;
        /* no growth right after a rejection (Hairer, Norsett and Wanner,
        ** Solving ODEs I, II.4): a third of the attempts failed without it */
        h = rejected ? fmin(h, lzb_grow(h, eo)) : lzb_grow(h, eo);
        rejected = 0;
    }
}

/* Release the workspace. */
static void lzb_free(Lzb *L)
{
    free(L->y);
    free(L->qs);
    free(L->sep);
    free(L->blo);
    free(L->chol);
}

/* The energetic multiple-impact law (above): the impulses P >= 0 of the nc
** contacts of Delassus matrix W (row-major, symmetric) with pre-impact
** relative normal velocities vn (negative approaching), energetic
** restitution e, stiffnesses k and force exponents eta, and the post-impact
** velocities vn_after = vn + W P. Returns 0, RT_LZB_EARG (an argument out
** of its range: nc < 1, a null pointer, a non-finite vn, e outside [0, 1],
** k <= 0, eta outside [1, 10]), RT_LZB_EW (W not symmetric with a positive
** diagonal), RT_LZB_ENOMEM, or RT_LZB_ESTEP (the impact stalled: its bound on
** what is left did not halve within a stretch of global steps,
** lzb_progress). */
int rt_lzb_solve(int nc, const double *W, const double *vn, const double *e, const double *k,
                 const double *eta, double *P, double *vn_after)
{
    return rt_lzb_solve_steps(nc, W, vn, e, k, eta, P, vn_after, NULL);
}

/* rt_lzb_solve, also storing in *steps (when not NULL) the global step
** attempts it made (accepted, rejected or completed by bands), the cost
** measure the tests bound: a step budget, not a time. */
int rt_lzb_solve_steps(int nc, const double *W, const double *vn, const double *e,
                       const double *k, const double *eta, double *P, double *vn_after,
                       long *steps)
{
    RtLzbInfo info;
    int rc = rt_lzb_solve_info(nc, W, vn, e, k, eta, P, vn_after, &info);
    if (steps)
        *steps = info.steps;
    return rc;
}

/* rt_lzb_solve, also filling *info (when not NULL): the global step
** attempts, the energy the law dissipated (integrated from its own rates,
** apart from the velocities) and the energy still stored in the contacts
** when the early stop ended the impact (0 at a natural end), so that a
** caller can close the energy balance K_before - K_after = lost + stored. */
int rt_lzb_solve_info(int nc, const double *W, const double *vn, const double *e,
                      const double *k, const double *eta, double *P, double *vn_after,
                      RtLzbInfo *info)
{
    if (info)
        *info = (RtLzbInfo){ 0, 0, 0 };
    if (nc < 1 || !W || !vn || !e || !k || !eta || !P || !vn_after)
        return RT_LZB_EARG;
    int rc = lzb_check(nc, W, vn, e, k, eta);
    if (rc)
        return rc;
    Lzb L = { .nc = nc, .W = W, .e = e, .k = k, .eta = eta };
    size_t n3 = 3 * (size_t)nc;
    L.y = calloc(n3 * 12, sizeof(double));
    L.qs = calloc(7 * (size_t)nc, sizeof(double));
    L.sep = calloc(2 * (size_t)nc, 1);
    L.blo = calloc(2 * (size_t)nc, sizeof(int));
    if (!L.y || !L.qs || !L.sep || !L.blo) {
        lzb_free(&L);
        return RT_LZB_ENOMEM;
    }
    L.y1 = L.y + n3;
    L.yt = L.y + 2 * n3;
    for (int r = 0; r < 7; r++)
        L.ks[r] = L.y + (3 + r) * n3;
    L.ysave = L.y + 10 * n3;
    L.gsave = L.y + 11 * n3;
    L.ps = L.qs + nc;
    L.ce = L.qs + 2 * nc;
    L.F = L.qs + 3 * nc;
    L.dD = L.qs + 4 * nc;
    L.D = L.qs + 5 * nc;
    L.Dsave = L.qs + 6 * nc;
    L.kink = L.sep + nc;
    L.bhi = L.blo + nc;
    L.bw = lzb_bandwidth(nc, W);
    L.reach = LZB_REACH * (L.bw > 0 ? L.bw : 1);
    for (int j = 0; j < nc; j++)
        L.wmax = fmax(L.wmax, W[(size_t)j * nc + j]);
    memcpy(L.y, vn, sizeof(double) * (size_t)nc);
    double h = lzb_scales(&L, vn);
    rc = isfinite(h) ? lzb_integrate(&L, h) : 0;
    if (info) {
        info->steps = L.n;
        for (int j = 0; j < nc; j++)
            info->lost += L.D[j];
        info->stored = lzb_stored_all(&L);
    }
    if (rc == 0) {
        memcpy(P, L.y + 2 * nc, sizeof(double) * (size_t)nc);
        memcpy(vn_after, L.y, sizeof(double) * (size_t)nc);
    }
    lzb_free(&L);
    return rc;
}
