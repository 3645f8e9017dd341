/*
** nltaylor.c: the taylor method, for nonlinear models (nsm/model.h, ABI 5).
**
** Over a step from (t0, Y0) in a mode, every state is expanded in powers
** of tau = t - t0 to degree K.  The model's nl_series gives order k of the
** forces and of the curved gaps' values, rows and curvature terms from the
** state's orders 0..k (the automatic-differentiation recurrences nsmc
** emits, Jorba & Zou 2005); this file adds the linear tables' terms, the
** engaged penalty forces (k p^a by the power rule), and the held contacts'
** forces order by order:
**
**   a_k = M^-1 (F_k + sum_{l=0..k} W_l^T lambda_{k-l}),
**   sum_{l=0..k} W_l a_{k-l} + curv_k = 0   (each held gap's g'' = 0)
**   =>  D_0 lambda_k = -(W_0 M^-1 (F_k + sum_{l>=1} W_l^T lambda_{k-l})
**                        + sum_{l>=1} W_l a_{k-l} + curv_k),  D_0 = W_0 M^-1 W_0^T
**
** then x_{k+1} = v_k/(k+1) (a rigid body's quaternion: p' = p (x) (0, w)/2
** by Cauchy products, kin_k), v_{k+1} = a_k/(k+1), and the energy integrals'
** rates by Cauchy products.  The step is rho/e^2 with rho from the last two
** orders' decay (Jorba & Zou; Biscani & Izzo 2021): an estimate of the
** truncation error, not a bound (docs/theory.md).  The expansion is kept;
** a step's interior states (event location, samples) are its polynomial's
** values, so events are found on the same series the step took.
**
** A model written by its energies (nsm_model.lagrangian) has M(q): its
** lag_series gives order k of every entry of M and of h(q, v), and the
** accelerations solve M_0 a_k = F_k + h_k - sum_{j>=1} M_j a_{k-j} + (the
** constraints' forces), the Cauchy product of M(q(t)) a(t) = h + Q at
** order k, with M_0 = M(q(t0)) factored once per step by the mass
** operator (massmat.c) and every M^-1 above that factor's solve.  Its
** friction takes the same paths as any model's: the slipping elements'
** forces onto F_k (fric_slip_k, or in a held gap's force direction,
** cons_dir), the stuck elements' rows among the constraints (cons_k), so
** that their multipliers and the stick and slip event series come from
** M_0's factor too (theory.md section 18).
**
** A penalty law with a non-integer exponent has no series where its
** penetration is 0 (p^a at p = 0, the instants of engagement and release):
** within what its rate covers in the time over which the law could change
** the relative velocity by 1e-17 of it (at_zero), the law is left out of
** the step, entering (a first step that short) or leaving (the step runs
** on to the release); at p = 0 and not entering, the step reports
** RT_NLT_NOSERIES and the caller takes that one step with the adaptive
** method.
*/
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "law.h"
#include "linalg.h"
#include "rt.h"

#ifndef M_E
#define M_E 2.71828182845904523536
#endif
#define NLT_START_EPS 1e-12     /* a slip from zero: its direction's drift allowed in a step */

enum { NLT_K = RT_NLT_K };

struct RtNlTaylor {
    int K, n, nq, g, valid;   /* n velocities, nq positions (nq > n: bodies in space) */
    double t0, hmax;
    double *Y0;               /* N: the expansion point */
    unsigned *mode;           /* mw: its mode */
    double *X;                /* (nq + n) (K+1): the state's series, Y's layout */
    double *E;                /* 2 (K+1): the energy integrals' series */
    double *work;             /* nl_nwork (K+1): the model's intermediate series */
    double *F, *G, *CV, *WV;  /* the model's output series, see nsm_model.nl_series */
    double *swork;            /* nl_slip_nwork (K+1): the curved slips' intermediate series */
    double *FW, *FCV;         /* the curved slips' series, see nsm_model.nl_slip_series */
    double *lwork, *LM, *LH;  /* a model written by its energies: lag_series' work, M(q), h */
    double *P, *PA, *PR;      /* g (K+1): penetration, its law's own series (law.h, series:
                                 the penalty law's p^a), its rate (force elements) */
    double *LAM;              /* g (K+1): contact forces (held and penalty) */
    double *LAMF;             /* nf (K+1): stuck friction elements' multipliers */
    double *FN;               /* nf (K+1): friction elements' normal forces */
    double *LSF;              /* 3 nsf (K+1): stuck spatial friction rows' multipliers */
    RtSfSer *sfs;             /* spatial friction's series (sfseries.c; NULL: none) */
    double *A;                /* n (K+1): accelerations */
    double *CVs;              /* n (K+1): C v, for the dissipation */
    double *Fk, *rhs, *D, *lu;/* scratch; lu: the inverse of the order-0 constraint matrix */
    int *held;                /* the constraints: j < g a held impact gap, g + q a stuck element,
                               * g + nf + 3 k + i row i of a stuck spatial friction element k */
    int nc;                   /* how many */
    int merged;               /* stuck rows merged into groups (cons_merge) */
    int *lead;                /* r = g + nf + 3 nsf: each constraint's group (rt_cons_groups) */
    double *scale, *Q;        /* r, r (K+1): its row's factor, the groups' quotients */
    int *at;                  /* g + nf: where each curved row starts in WV (gaps) or FW (slips) */
    unsigned char *dormant;   /* g: a penalty law at p = 0 left out of this step */
    double hcap;              /* the step's limit from such laws */
    double *CD, *CR;          /* r n (K+1): the constraints' directions and rows as
                               * dense series, row (a n + i) for held[a]'s coordinate i */
    unsigned char *ccurv;     /* r: held[a]'s direction or row has orders above 0 */
    double *EV;               /* (g + 2 nf) K: the event functions' series (event_series) */
    unsigned char *evhas;     /* g + 2 nf: whether function j has one (0: the constant 1) */
    int evready;              /* EV is this expansion's */
    double tlast, taulast, *Ylast; /* the state nlt_eval gave last, its time and offset */
};

/* Coefficient k of row i of a series array with K + 1 columns. */
#define SER(a, i, k) ((a)[(size_t)(i) * (size_t)(K + 1) + (size_t)(k)])

/* Free the expansion's arrays. */
void rt_nlt_free(nsm_sim *s)
{
    RtNlTaylor *e = s->nlt;
    if (!e)
        return;
    void *ptrs[] = { e->Y0, e->mode, e->X, e->E, e->work, e->F, e->G, e->CV, e->WV, e->swork, e->FW, e->FCV, e->lwork, e->LM, e->LH, e->P,
                     e->PA, e->PR, e->LAM, e->LAMF, e->LSF, e->FN, e->A, e->CVs, e->Fk, e->rhs, e->D, e->lu, e->held, e->dormant, e->at,
                     e->lead, e->scale, e->Q, e->CD, e->CR, e->ccurv, e->EV, e->evhas, e->Ylast };
    for (size_t i = 0; i < sizeof ptrs / sizeof ptrs[0]; i++)
        free(ptrs[i]);
    rt_sfser_free(e->sfs);
    free(e);
    s->nlt = NULL;
}

/* Zeroed doubles, counting a failure in *bad. */
static double *zalloc(size_t k, int *bad)
{
    double *p = calloc(k ? k : 1, sizeof(double));
    if (!p)
        *bad = 1;
    return p;
}

/* Where each curved row's nonzeros start in WV (gap j: e->at[j], nl_gap's
** numbering) and FW (element q: e->at[g + q], nl_slip's numbering), so
** that the per-order products do not count them again at every call. */
static void curved_offsets(const nsm_sim *s, RtNlTaylor *e)
{
    const nsm_model *m = s->m;
    int w = 0, f = 0;
    for (int j = 0; j < s->n_gaps; j++) {
        e->at[j] = w;
        w += rt_nl_gap_curved(s, j) ? m->gap_ncols[j] : 0;
    }
    for (int q = 0; q < s->n_fric; q++) {
        e->at[s->n_gaps + q] = f;
        f += rt_nl_slip_curved(s, q) ? m->fric_ncols[q] : 0;
    }
}

/* Allocate the expansion on first use. */
static int nlt_alloc(nsm_sim *s)
{
    if (s->nlt)
        return NSM_OK;
    const nsm_model *m = s->m;
    RtNlTaylor *e = calloc(1, sizeof *e);
    if (!e)
        return NSM_ENOMEM;
    s->nlt = e;
    int bad = 0, n = s->n_vel, g = s->n_gaps, r = s->n_gaps + s->n_fric + 3 * s->n_space_fric;
    size_t K1 = NLT_K + 1, nw = m->n_wcurved > 0 ? (size_t)m->n_wcurved : 1;
    size_t nwt = m->n_wtcurved > 0 ? (size_t)m->n_wtcurved : 1;
    e->K = NLT_K;
    e->n = n;
    e->nq = s->n_pos;
    e->g = g;
    e->Y0 = zalloc((size_t)s->n_state, &bad);
    e->mode = calloc((size_t)s->mode_words, sizeof(unsigned));
    e->X = zalloc((size_t)(s->n_pos + n) * K1, &bad);
    e->E = zalloc(2 * K1, &bad);
    e->work = zalloc((size_t)(m->nl_nwork > 0 ? m->nl_nwork : 1) * K1, &bad);
    e->F = zalloc((size_t)n * K1, &bad);
    e->G = zalloc((size_t)(g + 1) * K1, &bad);
    e->CV = zalloc((size_t)(g + 1) * K1, &bad);
    e->WV = zalloc(nw * K1, &bad);
    e->swork = zalloc((size_t)(m->nl_slip_nwork > 0 ? m->nl_slip_nwork : 1) * K1, &bad);
    e->FW = zalloc(nwt * K1, &bad);
    e->FCV = zalloc((size_t)(s->n_fric + 1) * K1, &bad);
    if (m->lagrangian) {
        e->lwork = zalloc((size_t)(m->lag_nwork > 0 ? m->lag_nwork : 1) * K1, &bad);
        e->LM = zalloc((size_t)n * (size_t)n * K1, &bad);
        e->LH = zalloc((size_t)n * K1, &bad);
    }
    e->P = zalloc((size_t)(g + 1) * K1, &bad);
    e->PA = zalloc((size_t)(g + 1) * K1, &bad);
    e->PR = zalloc((size_t)(g + 1) * K1, &bad);
    e->LAM = zalloc((size_t)(g + 1) * K1, &bad);
    e->LAMF = zalloc((size_t)(s->n_fric + 1) * K1, &bad);
    e->FN = zalloc((size_t)(s->n_fric + 1) * K1, &bad);
    e->LSF = zalloc((size_t)(3 * s->n_space_fric + 1) * K1, &bad);
    if (s->n_space_fric && !(e->sfs = rt_sfser_alloc(s->n_space_fric, NLT_K)))
        bad = 1;
    e->A = zalloc((size_t)n * K1, &bad);
    e->CVs = zalloc((size_t)n * K1, &bad);
    e->Fk = zalloc((size_t)n, &bad);
    e->rhs = zalloc((size_t)r + 1, &bad);
    e->D = zalloc((size_t)(r + 1) * (size_t)(r + 1), &bad);
    e->lu = zalloc((size_t)(r + 1) * (size_t)(r + 1), &bad);
    e->held = calloc((size_t)r + 1, sizeof(int));
    e->lead = calloc((size_t)r + 1, sizeof(int));
    e->scale = zalloc((size_t)r + 1, &bad);
    e->Q = zalloc(((size_t)r + 1) * K1, &bad);
    e->at = calloc((size_t)r + 1, sizeof(int));
    e->dormant = calloc((size_t)g + 1, 1);
    e->CD = zalloc(((size_t)r + 1) * (size_t)n * K1, &bad);
    e->CR = zalloc(((size_t)r + 1) * (size_t)n * K1, &bad);
    e->ccurv = calloc((size_t)r + 1, 1);
    e->EV = zalloc(((size_t)g + 2 * (size_t)s->n_fric + 1) * K1, &bad);
    e->evhas = calloc((size_t)g + 2 * (size_t)s->n_fric + 1, 1);
    e->Ylast = zalloc((size_t)s->n_state, &bad);
    if (bad || !e->mode || !e->held || !e->dormant || !e->at || !e->lead || !e->ccurv || !e->evhas)
        return NSM_ENOMEM;
    curved_offsets(s, e);
    return NSM_OK;
}

/* What the taylor method cannot take, as a failure with the reason; 0 when
** it applies to this model. */
int rt_nlt_check(nsm_sim *s)
{
    const nsm_model *m = s->m;
    if (!m->nl_series && s->n_pos > s->n_vel)
        return rt_fail(s, NSM_EMODEL, -1, "the table of this model with bodies in space has no "
                       "series of its forces (nl_series; generated by an older nsmc): regenerate "
                       "the simulator with this nsmc, or use --method rk4 or adaptive");
    if (!m->nl_series)
        return rt_fail(s, NSM_EMETHOD, -1, "method taylor integrates nonlinear models; this "
                       "model is linear: use --method exact (its exact counterpart)");
    if ((m->nl & NSM_NL_SLIP) && !m->nl_slip_series)
        return rt_fail(s, NSM_EMODEL, -1, "the model's table has no series of its curved slips "
                       "(generated by an older nsmc): regenerate the simulator with this nsmc, "
                       "or use --method rk4 or adaptive");
    for (int j = 0; j < s->n_gaps; j++)
        if (!rt_law_impacts(s, j) && !rt_law_of(s, j)->series)
            return rt_fail(s, NSM_EMETHOD, -1, "gap '%s': its contact law '%s' has no Taylor "
                           "series of its force (law.h, series): use --method rk4 or adaptive",
                           s->m->gaps[j].name, rt_law_of(s, j)->name);
    if (s->moving)
        return rt_fail(s, NSM_EMETHOD, -1, "method taylor does not handle moving surfaces yet; "
                       "use --method rk4 or adaptive");
    if (m->lagrangian && !m->lag_series)
        return rt_fail(s, NSM_EMODEL, -1, "the model's table has no series of its mass matrix "
                       "(generated by an older nsmc): regenerate the simulator with this nsmc, "
                       "or use --method rk4 or adaptive");
    return nlt_alloc(s);
}

/* Order k of row i of csr A times the series of a state block (rows off ..
** off + n - 1 of X): (A x_k)_i. */
static double csr_ser(const RtCsr *A, int i, const double *X, int K, int off, int k)
{
    double r = 0;
    for (int q = A->p[i]; q < A->p[i + 1]; q++)
        r += A->x[q] * SER(X, off + A->i[q], k);
    return r;
}

/* Value at x of the polynomial c[0] + c[1] x + ... + c[K] x^K (Horner's
** rule, RT_HORNER: the same machine code as its own loop), in double.  The kernel rt_poly_eval (locate.c) works in long double on
** long double coefficients; the state's series here are double, and
** nlt_eval calls this for every state at every step and event iterate,
** where converting each row and computing in extended precision (x87 on
** x86-64) would cost several times more for digits the coefficients do
** not carry.  The event searches use rt_poly_eval on their scaled series. */
static inline double poly_at(const double *c, int K, double x)
{
    double r;
    RT_HORNER(r, c, 1, K, x);
    return r;
}

/* A curved row of W (slip 0: gap j's) or Wt (slip 1: friction element
** j's): the model's series array, the row's columns, their number and the
** row's first series in the array. */
typedef struct CurvedRow {
    const double *ser;
    const int *cols;
    int nc, at;
} CurvedRow;

/* Whether row j is curved, and then its series in *cr (row_dot, row_add). */
static int curved_row(const nsm_sim *s, const RtNlTaylor *e, int slip, int j, CurvedRow *cr)
{
    const nsm_model *mo = s->m;
    if (!(slip ? rt_nl_slip_curved(s, j) : rt_nl_gap_curved(s, j)))
        return 0;
    cr->ser = slip ? e->FW : e->WV;
    cr->cols = slip ? mo->fric_cols[j] : mo->gap_cols[j];
    cr->nc = slip ? mo->fric_ncols[j] : mo->gap_ncols[j];
    cr->at = e->at[slip ? s->n_gaps + j : j];
    return 1;
}

/* Order l of row j of W (slip 0) or Wt (slip 1) dotted with the order-m
** coefficients of a state block: sum_c R_l[c] u[(off + col_c) stride + m].
** A curved row's order l is the model's series (WV, FW); an affine row is
** its constant at l = 0 and 0 above.  stride K + 1 reads a series array,
** stride 1 with m = 0 a plain vector. */
static double row_dot(const nsm_sim *s, const RtNlTaylor *e, int slip, int j, int l,
                      const double *u, size_t stride, int off, int m)
{
    int K = e->K;
    double r = 0;
    CurvedRow cr;
    if (curved_row(s, e, slip, j, &cr)) {
        for (int c = 0; c < cr.nc; c++)
            r += SER(cr.ser, cr.at + c, l) * u[(size_t)(off + cr.cols[c]) * stride + (size_t)m];
        return r;
    }
    if (l > 0)
        return 0;
    const RtCsr *A = slip ? &s->sp.Wt : &s->sp.W;
    for (int q = A->p[j]; q < A->p[j + 1]; q++)
        r += A->x[q] * u[(size_t)(off + A->i[q]) * stride + (size_t)m];
    return r;
}

/* out[i] += f times order l of row j of W (slip 0) or Wt (slip 1). */
static void row_add(const nsm_sim *s, const RtNlTaylor *e, int slip, int j, int l, double f,
                    double *out)
{
    int K = e->K;
    CurvedRow cr;
    if (curved_row(s, e, slip, j, &cr)) {
        for (int c = 0; c < cr.nc; c++)
            out[cr.cols[c]] += f * SER(cr.ser, cr.at + c, l);
        return;
    }
    if (l == 0)
        rt_csr_axpy(slip ? &s->sp.Wt : &s->sp.W, j, f, out);
}

/* Order k of row j of W times the series u (rows off .. of a (K+1)-column
** array): (W u)_k = sum_{l=0..k} W_l u_{k-l}. */
static double wdot_k(const nsm_sim *s, const RtNlTaylor *e, int j, int k, const double *u,
                     int off)
{
    double r = 0;
    int top = rt_nl_gap_curved(s, j) ? k : 0;   /* an affine row has no orders above 0 */
    for (int l = 0; l <= top; l++)
        r += row_dot(s, e, 0, j, l, u, (size_t)(e->K + 1), off, k - l);
    return r;
}

/* out[i] += order k of (W_j^T lam_j)_i summed over l = lo..k of W_l lam_{k-l}
** (curved rows' series; an affine row only at l = 0). */
static void wtlam_k(const nsm_sim *s, const RtNlTaylor *e, int j, int k, int lo, double *out)
{
    int K = e->K;
    for (int l = lo; l <= k; l++)
        row_add(s, e, 0, j, l, SER(e->LAM, j, k - l), out);
}

/* How long a force law k p^a near p = 0 (its onset, law.h; a not whole)
** at the relative rate r = |p'| from p = 0 (entering, or leaving to p = 0)
** can be left out: while its force changes the contact's relative velocity
** by at most 1e-17 of r.  The integral of D k (r tau)^a over tau,
** D = W M^-1 W^T, gives h = (1e-17 (a + 1) r^(1-a) / (D k))^(1/(a+1)).  0
** when r = 0 or the law has no stiffness there. */
static double zero_step(nsm_sim *s, int j, double r)
{
    double a, D, k = rt_law_onset(s, j, &a);
    if (!(r > 0) || !(k > 0))
        return 0;
    rt_delassus(s, &j, 1, &D);
    return pow(1e-17 * (a + 1) * pow(r, 1 - a) / (D * k), 1 / (a + 1));
}

/* Whether penalty gap j's law counts as at p = 0, its force left out of
** the step: its penetration within what the rate |p'| covers in 16 units
** in the last place of the step's start (an engagement landed on the
** gap's zero leaves p within rounding of 0, possibly above it, where
** p^a's series would converge only over p/p', a step below the time
** resolution), or within what |p'| covers in zero_step's time.  The
** latter near t = 0, where the time resolution is no bound (an engagement
** landed at 5e-90 s leaves p = 5e-90 m, whose series' coefficients, of
** size p^(a-k) p'^k, overflow by order 20), and on the way out: the
** series' radius is the time left to p = 0, where p^a branches, so the
** steps would shrink towards the release and its zero, at the edge of
** convergence, would be located late (1e-12 s at 2e-4 m/s in the
** touching Hertzian chain); without the force the penetration is
** analytic there.  Left out over that time, the law changes the relative
** velocity by at most 3e-17 of the rate, (2 r h)^a against (r h)^a. */
static int at_zero(nsm_sim *s, RtNlTaylor *e, int j)
{
    int K = e->K;
    double p = SER(e->P, j, 0), r = fabs(SER(e->PR, j, 0));
    if (!(p > 16 * DBL_EPSILON * fabs(e->t0) * fmax(SER(e->PR, j, 0), 0)))
        return 1;
    return r > 0 && p < r * zero_step(s, j, r);
}

/* How long penalty gap j's law k p^a can be left out near p = 0 while the
** applied forces accelerate the gap by at most A (rt_gap_accel_scale:
** gravity, not the other contacts' forces): over h the penetration they
** give is at most A tau^2/2, and the law's share of the relative velocity,
** the integral of D k (A tau^2/2)^a, at most 1e-17 of A h:
** h = (1e-17 (2a + 1) / (D k (A/2)^a))^(1/(2a)).  HUGE_VAL when A = 0. */
static double accel_step(nsm_sim *s, int j)
{
    double a, D, k = rt_law_onset(s, j, &a), A = rt_gap_accel_scale(s, j);
    if (!(A > 0) || !(k > 0))
        return HUGE_VAL;
    rt_delassus(s, &j, 1, &D);
    return pow(1e-17 * (2 * a + 1) / (D * k * pow(A / 2, a)), 1 / (2 * a));
}

/* A penalty law left out of the step (at_zero): entering (p' > 0), the
** step is at most zero_step's time, after which p > 0 and the expansions
** resume (their radius about p/p' keeps the next steps short); leaving
** (p > 0, p' < 0), the step goes on to the release.  Nonzero when the
** gap is at p = 0 and not entering (no such step). */
static int dormant_step(nsm_sim *s, RtNlTaylor *e, int j)
{
    int K = e->K;
    double pd = SER(e->PR, j, 0), ha = accel_step(s, j);
    if (pd < 0 && SER(e->P, j, 0) > 0) {
        e->hcap = fmin(e->hcap, ha);    /* gravity may turn it back before the release */
        return 0;
    }
    double h = fmin(zero_step(s, j, pd), ha);
    if (!(h > 0) || (pd == 0 && ha == HUGE_VAL))
        return 1;
    e->hcap = fmin(e->hcap, h);
    return 0;
}

/* A penalty law left out on the way out (dormant_step), at order 1: the
** step ends by half the time in which the gap's acceleration p'' would
** turn its rate p' back (rt_gap_accel_scale counts no friction): carried
** further, a friction element slipping against the way out turned the
** series back into the wall within the step (a block coasting out of a
** Hertz wall, its stop 50 ms on), the force ~0 at the step's start and
** positive at its end, the release missed; the gap stayed engaged at
** -2.6 mm and the energy balance was off by the whole energy. */
static void dormant_turn(RtNlTaylor *e, const double *p, const double *pd)
{
    if (p[0] > 0 && pd[0] < 0 && pd[1] > 0)
        e->hcap = fmin(e->hcap, -pd[0] / pd[1] / 2);
}

/* The engaged force elements' forces at order k (their penetration's
** orders 0..k and rate's order k known from the state): their laws'
** series (law.h), into LAM and onto Fk.  A law whose force branches at
** p = 0 (its onset's power a other than 1) is left out while p is there
** (at_zero): its damper c p' alone. */
static int penalty_k(nsm_sim *s, RtNlTaylor *e, int k)
{
    int K = e->K;
    for (int j = 0; j < s->n_gaps; j++) {
        if (!rt_law_engaged(s, e->mode, j))
            continue;
        double gap = rt_nl_gap_curved(s, j) ? SER(e->G, j, k)
                                                   : wdot_k(s, e, j, k, e->X, 0) + (k ? 0 : s->num.d[j]);
        SER(e->P, j, k) = -gap;
        SER(e->PR, j, k) = -wdot_k(s, e, j, k, e->X, s->n_pos);
        double a, *p = &SER(e->P, j, 0), *pd = &SER(e->PR, j, 0);
        if (k == 0) {
            rt_law_onset(s, j, &a);
            e->dormant[j] = a != 1 && at_zero(s, e, j);
        }
        if (e->dormant[j]) {
            if (k == 0 && dormant_step(s, e, j))
                return 1;       /* no series at p = 0, not entering either */
            if (k == 1)
                dormant_turn(e, p, pd);
            SER(e->LAM, j, k) = rt_law_damping(s, e->mode, j) * pd[k];
        } else
            SER(e->LAM, j, k) = rt_law_of(s, j)->series(s, j, k, p, pd, &SER(e->PA, j, 0));
        wtlam_k(s, e, j, k, 0, e->Fk);
    }
    return 0;
}

/* The friction elements' normal forces at order k (FN: a constant, or an
** engaged penalty gap's force from penalty_k) and the slipping ones' forces
** -s mu_k N w_t onto Fk, order k of the product of N's series and the
** row's (a curved slip's w_t(x) is a series too), as rt_fric_forces does
** at a state.  An element pressed by a held impact gap gets its normal
** from cons_k: its slip force rides in that gap's force direction. */
static void fric_slip_k(nsm_sim *s, RtNlTaylor *e, int k)
{
    int K = e->K;
    for (int q = 0; q < s->n_fric; q++) {
        int j = rt_fric_normal_gap(s, q);
        SER(e->FN, q, k) = 0;
        if (rt_fric_idle(s, e->mode, q) || (j >= 0 && rt_law_impacts(s, j)))
            continue;
        SER(e->FN, q, k) = j < 0 ? (k ? 0 : s->num.fn[q]) : SER(e->LAM, j, k);
        if (rt_fric_stuck(s, e->mode, q))
            continue;
        double f = -rt_fric_sign(s, e->mode, q) * s->num.muk[q];
        for (int l = 0; l <= k; l++)
            row_add(s, e, 1, q, l, f * SER(e->FN, q, k - l), e->Fk);
    }
}

/* A model written by its energies, order k: onto Fk its Euler-Lagrange
** terms' order k, h_k, and the products of M(q)'s higher orders with the
** accelerations' lower ones, -sum_{j=1..k} M_j a_{k-j}.  Then
** M_0 a_k = Fk + (the constraints' forces), the Cauchy product of
** M(q(t)) a(t) = h + Q at order k, solved by cons_k with M_0's factor
** (theory.md section 18). */
static void lag_k(const nsm_sim *s, RtNlTaylor *e, int k)
{
    int n = s->n_vel, K = e->K;
    for (int i = 0; i < n; i++) {
        double r = SER(e->LH, i, k);
        for (int j = 1; j <= k; j++)
            for (int c = 0; c < n; c++)
                r -= SER(e->LM, i * n + c, j) * SER(e->A, c, k - j);
        e->Fk[i] += r;
    }
}

/* Constraint c of the step (e->held: c < g a held impact gap, g + q a
** stuck friction element): its multiplier's series (the gap's force, the
** element's multiplier). */
static double *cons_mult(const nsm_sim *s, RtNlTaylor *e, int c)
{
    int K = e->K;
    if (c >= s->n_gaps + s->n_fric)
        return &SER(e->LSF, c - s->n_gaps - s->n_fric, 0);
    return c < s->n_gaps ? &SER(e->LAM, c, 0) : &SER(e->LAMF, c - s->n_gaps, 0);
}

/* Whether constraint c is a row of a stuck spatial friction element: its
** element *k and row *r (0, 1: the slip T_i; 2: drilling). */
static int cons_sf(const nsm_sim *s, int c, int *k, int *r)
{
    int a = c - s->n_gaps - s->n_fric;
    if (a < 0)
        return 0;
    *k = a / 3;
    *r = a % 3;
    return 1;
}

/* The first velocity slot of spatial friction element k's body (its six
** columns follow: v1..v3, w1..w3). */
static int sf_col0(const nsm_sim *s, int k)
{
    return s->m->rigid_rot[s->m->space_frictions[k].body] - 3;
}

/* Order l of constraint c's row dotted with the order-m coefficients of a
** state block (row_dot's arguments). */
static double cons_dot(const nsm_sim *s, const RtNlTaylor *e, int c, int l, const double *u,
                       size_t stride, int m)
{
    int k, r;
    if (cons_sf(s, c, &k, &r)) {
        double d = 0;
        for (int i = 0, c0 = sf_col0(s, k); i < 6; i++)
            d += rt_sfser_row(e->sfs, k, r, i, l) * u[(size_t)(c0 + i) * stride + (size_t)m];
        return d;
    }
    return c < s->n_gaps ? row_dot(s, e, 0, c, l, u, stride, 0, m)
                    : row_dot(s, e, 1, c - s->n_gaps, l, u, stride, 0, m);
}

/* Order k of constraint c's curvature term (0 for an affine gap or a slip
** with constant coefficients): its row is R(x) a + curv = 0. */
static double cons_curv(const nsm_sim *s, const RtNlTaylor *e, int c, int k)
{
    int K = e->K, q = c - s->n_gaps, r;
    if (cons_sf(s, c, &q, &r))
        return rt_sfser_curv(e->sfs, q, r, k);
    if (c < s->n_gaps)
        return rt_nl_gap_curved(s, c) ? SER(e->CV, c, k) : 0;
    return rt_nl_slip_curved(s, q) ? SER(e->FCV, q, k) : 0;
}

/* out += f times order l of constraint c's force direction: a held gap's
** w_j plus the slip forces -s mu_k w_q of the elements slipping on its
** force (rt_fric_gap_dir's direction, as series), a stuck element's w_q. */
static void cons_dir(const nsm_sim *s, const RtNlTaylor *e, int c, int l, double f, double *out)
{
    int k, r;
    if (cons_sf(s, c, &k, &r)) {
        for (int i = 0, c0 = sf_col0(s, k); i < 6; i++)
            out[c0 + i] += f * rt_sfser_row(e->sfs, k, r, i, l);
        return;
    }
    if (c >= s->n_gaps) {
        row_add(s, e, 1, c - s->n_gaps, l, f, out);
        return;
    }
    row_add(s, e, 0, c, l, f, out);
    k = rt_sf_of_gap(s, c);
    if (k >= 0 && !rt_sf_stuck(s, e->mode, k))    /* spatial friction sliding on its force */
        for (int i = 0, c0 = sf_col0(s, k); i < 6; i++)
            out[c0 + i] += f * rt_sfser_dir(e->sfs, k, i, l);
    for (int q = 0; q < s->n_fric; q++)
        if (rt_fric_normal_gap(s, q) == c && !rt_fric_stuck(s, e->mode, q))
            row_add(s, e, 1, q, l, -rt_fric_sign(s, e->mode, q) * s->num.muk[q] * f, out);
}

/* Whether constraint c's direction or row has orders above 0: a curved
** gap, a curved slip, or a held gap carrying a curved slipping element's
** force (cons_dir's terms). */
static int cons_curved(const nsm_sim *s, const RtNlTaylor *e, int c)
{
    int k, r;
    if (cons_sf(s, c, &k, &r) || rt_sf_of_gap(s, c) >= 0)
        return 1;               /* spatial friction's rows and directions turn with the body */
    if (c >= s->n_gaps)
        return rt_nl_slip_curved(s, c - s->n_gaps);
    if (rt_nl_gap_curved(s, c))
        return 1;
    for (int q = 0; q < s->n_fric; q++)
        if (rt_fric_normal_gap(s, q) == c && !rt_fric_stuck(s, e->mode, q) && rt_nl_slip_curved(s, q))
            return 1;
    return 0;
}

/* Order l of the step's constraints' force directions (cons_dir) and rows
** (cons_dot's) into the dense series tables CD and CR, once per order, so
** that each order's sums over l are Cauchy products over plain arrays
** rather than a cons_dir or cons_dot call per term.  Orders above 0 only
** for the constraints that have them (ccurv). */
static void cons_table(const nsm_sim *s, RtNlTaylor *e, int l)
{
    int n = s->n_vel, K = e->K;
    double dir[n], row[n];
    for (int a = 0; a < e->nc; a++) {
        int c = e->held[a];
        if (l > 0 && !e->ccurv[a])
            continue;
        memset(dir, 0, sizeof dir);
        memset(row, 0, sizeof row);
        cons_dir(s, e, c, l, 1, dir);
        int k, q;
        if (cons_sf(s, c, &k, &q))
            cons_dir(s, e, c, l, 1, row);   /* a stuck element's row is its direction */
        else if (c < s->n_gaps)
            row_add(s, e, 0, c, l, 1, row);
        else
            row_add(s, e, 1, c - s->n_gaps, l, 1, row);
        for (int i = 0; i < n; i++) {
            SER(e->CD, (size_t)a * n + i, l) = dir[i];
            SER(e->CR, (size_t)a * n + i, l) = row[i];
        }
    }
}

/* The order-0 matrix of the step's r constraints e->held into e->D:
** A_0 = R_0 M^-1 D_0^T (rows R, force directions D at the expansion
** point; not symmetric when a held gap carries slip forces). */
static void cons_matrix(nsm_sim *s, RtNlTaylor *e, int r)
{
    int n = s->n_vel;
    double dir[n], d[n];
    for (int b = 0; b < r; b++) {
        memset(dir, 0, sizeof dir);
        cons_dir(s, e, e->held[b], 0, 1, dir);
        rt_mass_solve(s, dir, d);   /* M_0^-1: mass_inv, or M(q(t0))'s factor */
        for (int a = 0; a < r; a++)
            e->D[(size_t)a * r + b] = cons_dot(s, e, e->held[a], 0, d, 1, 0);
    }
}

/* A_0 singular: the stuck elements whose rows repeat another's at the
** expansion point are merged into groups (rt_cons_groups, dynamics.c),
** and e->lu gets the inverse of A_0 without the merged rows and columns
** (zeros in theirs), so each order's solve gives a group's force on its
** first row, split by cons_k (rt_cons_split).  Returns 1 when nothing
** merges or the rest is still singular. */
static int cons_merge(nsm_sim *s, RtNlTaylor *e, int r)
{
    int n = s->n_vel, keep[r], m = 0, rc = 1;
    double *rows = calloc((size_t)r * n + 2 * (size_t)r * r + 1, sizeof(double));
    if (!rows)
        return 1;
    double *Dr = rows + (size_t)r * n, *inv = Dr + (size_t)r * r;
    for (int a = 0; a < r; a++)
        cons_dir(s, e, e->held[a], 0, 1, rows + (size_t)a * n);
    if (!rt_cons_groups(s, r, n, e->held, rows, e->lead, e->scale))
        goto out;
    for (int a = 0; a < r; a++)
        if (e->lead[a] == a)
            keep[m++] = a;
    cons_matrix(s, e, r);
    for (int a = 0; a < m; a++)
        for (int b = 0; b < m; b++) {
            Dr[(size_t)a * m + b] = e->D[(size_t)keep[a] * r + keep[b]];
            inv[(size_t)a * m + b] = a == b;
        }
    if (nsm_la_solve(m, Dr, inv, m) != NSM_LA_OK)
        goto out;
    memset(e->lu, 0, sizeof(double) * (size_t)r * r);
    for (int a = 0; a < m; a++)
        for (int b = 0; b < m; b++)
            e->lu[(size_t)keep[a] * r + keep[b]] = inv[(size_t)a * m + b];
    e->merged = 1;
    rc = 0;
out:
    free(rows);
    return rc;
}

/* Whether a held gap carrying sliding spatial friction has a diagonal
** entry W_N M^-1 (W_N + f_1) of A_0 that is not positive: friction
** reversing the normal force's effect (Painleve), which spacefric.c's
** held slide refuses too; the run stops with the time. */
static int sf_painleve(nsm_sim *s, const RtNlTaylor *e, int r)
{
    for (int a = 0; a < r; a++) {
        int j = e->held[a], k = j < s->n_gaps ? rt_sf_of_gap(s, j) : -1;
        if (k >= 0 && !rt_sf_stuck(s, e->mode, k) && !(e->D[(size_t)a * r + a] > 0)) {
            rt_fail(s, NSM_ENUMERIC, j, "spatial friction element '%s': at t = %.17g s its "
                    "sliding friction reverses the normal force's effect (W_N M^-1 (W_N + f) "
                    "= %.3g <= 0, Painleve): no normal force holds the contact",
                    s->m->space_frictions[k].name, e->t0, e->D[(size_t)a * r + a]);
            return 1;
        }
    }
    return 0;
}

/* The step's constraints (into e->held, as rt_accel_surf lists them: the
** held impact gaps, then the stuck elements) and the inverse of their
** order-0 matrix A_0 (cons_matrix) in e->lu: every order's problem has
** this matrix, so it is solved once per step.  Stuck elements with
** repeated rows are merged (cons_merge).  Returns 0, or 1 when A_0 is
** singular otherwise (redundant constraints). */
static int cons_setup(nsm_sim *s, RtNlTaylor *e)
{
    int r = 0;
    for (int j = 0; j < s->n_gaps; j++)
        if (rt_law_held(s, e->mode, j))
            e->held[r++] = j;
    for (int q = 0; q < s->n_fric; q++)
        if (rt_fric_stuck(s, e->mode, q))
            e->held[r++] = s->n_gaps + q;
    for (int k = 0; k < s->n_space_fric; k++)
        if (rt_law_held(s, e->mode, s->m->space_frictions[k].gap) && rt_sf_stuck(s, e->mode, k))
            for (int i = 0; i < rt_sf_dim(s, k); i++)
                e->held[r++] = s->n_gaps + s->n_fric + 3 * k + i;
    for (int a = 0; a < r; a++)
        e->ccurv[a] = (unsigned char)cons_curved(s, e, e->held[a]);
    cons_matrix(s, e, r);
    if (sf_painleve(s, e, r))
        return 1;
    for (int a = 0; a < r * r; a++)
        e->lu[a] = a % (r + 1) == 0;
    e->nc = r;
    e->merged = 0;
    if (!r || nsm_la_solve(r, e->D, e->lu, r) == NSM_LA_OK)
        return 0;
    return s->n_space_fric ? 1 : cons_merge(s, e, r);    /* spatial rows are never merged */
}

/* Order k of the accelerations with no constraint held and no friction
** element: M_0 a_k = F_k, cons_k's problem without its empty sums (one
** solve per order where cons_k's general path takes two, the second of a
** zero vector). */
static void free_k(nsm_sim *s, RtNlTaylor *e, int k)
{
    int n = s->n_vel, K = e->K;
    double af[n];
    rt_mass_solve(s, e->Fk, af);    /* M_0^-1: mass_inv, or M(q(t0))'s factor */
    for (int i = 0; i < n; i++)
        SER(e->A, i, k) = af[i];
}

/* Order k of the accelerations and of the constraints' multipliers (the
** held gaps' forces, the stuck elements' multipliers), Fk holding the
** forces without them.  With rows R(x), directions D(x) and curvature
** terms curv as series (theory.md section 15):
**   M a_k = F_k + sum_c sum_{l=0..k} D_{c,l} mu_{c,k-l},
**   sum_{l=0..k} R_{c,l} a_{k-l} + curv_{c,k} = 0   for every constraint c
**   =>  A_0 mu_k = -(R_0 M^-1 (F_k + sum_{l>=1} D_l mu_{k-l})
**                    + sum_{l>=1} R_l a_{k-l} + curv_k).
** Constant rows (affine gaps, slips with constant coefficients) have no
** terms l >= 1, and the problem is the mode's own, rt_accel_surf's, for
** the force's order k.  Merged stuck elements (cons_merge) share their
** group's force by their capacities (rt_cons_split): the group's
** direction at order 0 is its first row's, so the accelerations take the
** group's force whole.  Returns 1 when the constraints are redundant. */
static int cons_k(nsm_sim *s, RtNlTaylor *e, int k)
{
    int n = s->n_vel, K = e->K;
    if (k == 0 && cons_setup(s, e))
        return 1;
    int r = e->nc;
    if (r == 0 && s->n_fric == 0) {
        free_k(s, e, k);
        return 0;
    }
    double af[n], d[n], ad[n], mu[r + 1];
    cons_table(s, e, k);
    /* the products in cons_dir's and cons_dot's order (per constraint and
     * order l, a row's sum from 0): the results do not move with the table */
    for (int b = 0; b < r; b++) {       /* sum_{l>=1} D_l mu_{k-l} */
        const double *mb = cons_mult(s, e, e->held[b]), *D = &SER(e->CD, (size_t)b * n, 0);
        for (int l = 1; e->ccurv[b] && l <= k; l++)
            for (int i = 0; i < n; i++)
                e->Fk[i] += mb[k - l] * D[(size_t)i * (K + 1) + l];
    }
    rt_mass_solve(s, e->Fk, af);    /* M_0^-1: mass_inv, or M(q(t0))'s factor */
    for (int a = 0; a < r; a++) {       /* R_0 af + curv_k + sum_{l>=1} R_l a_{k-l} */
        const double *R = &SER(e->CR, (size_t)a * n, 0);
        double b = 0;
        for (int i = 0; i < n; i++)
            b += R[(size_t)i * (K + 1)] * af[i];
        b += cons_curv(s, e, e->held[a], k);
        for (int l = 1; e->ccurv[a] && l <= k; l++) {
            double bl = 0;
            for (int i = 0; i < n; i++)
                bl += R[(size_t)i * (K + 1) + l] * SER(e->A, i, k - l);
            b += bl;
        }
        e->rhs[a] = -b;
    }
    for (int i = 0; i < n; i++)
        d[i] = 0;
    for (int a = 0; a < r; a++) {
        mu[a] = 0;
        for (int b = 0; b < r; b++)
            mu[a] += e->lu[(size_t)a * r + b] * e->rhs[b];
        cons_mult(s, e, e->held[a])[k] = mu[a];
        for (int i = 0; i < n; i++)
            d[i] += SER(e->CD, (size_t)a * n + i, 0) * mu[a];
    }
    if (e->merged) {      /* the groups' forces on their first rows, split */
        double *ser[r + 1];
        for (int a = 0; a < r; a++)
            ser[a] = cons_mult(s, e, e->held[a]);
        if (rt_cons_split(s, r, e->held, e->lead, e->scale, ser, e->Q, K, k))
            return 1;
    }
    rt_mass_solve(s, d, ad);
    for (int i = 0; i < n; i++)
        SER(e->A, i, k) = af[i] + ad[i];
    for (int q = 0; q < s->n_fric; q++) {
        int j = rt_fric_normal_gap(s, q);
        if (j >= 0 && rt_law_impacts(s, j) && !rt_fric_idle(s, e->mode, q))
            SER(e->FN, q, k) = SER(e->LAM, j, k);
    }
    return 0;
}

/* Order k of element q's slip velocity w_t(x) . v - u_t (a curved row's
** series times the velocities'). */
static double slip_k(const nsm_sim *s, const RtNlTaylor *e, int q, int k)
{
    double r = k ? 0 : -s->num.ut[q];
    for (int l = 0; l <= k; l++)
        r += row_dot(s, e, 1, q, l, e->X, (size_t)(e->K + 1), s->n_pos, k - l);
    return r;
}

/* Order k of friction's dissipated power and surface work (rt_fric_power
** on the series): added to *pd and *pw. */
static void fric_energy_k(const nsm_sim *s, const RtNlTaylor *e, int k, double *pd, double *pw)
{
    int K = e->K;
    for (int q = 0; q < s->n_fric; q++) {
        if (rt_fric_idle(s, e->mode, q))
            continue;
        double ut = s->num.ut[q];
        if (rt_fric_stuck(s, e->mode, q)) {
            *pw += SER(e->LAMF, q, k) * ut;
            continue;
        }
        double f = rt_fric_sign(s, e->mode, q) * s->num.muk[q];
        for (int l = 0; l <= k; l++)
            *pd += f * SER(e->FN, q, l) * slip_k(s, e, q, k - l);
        *pw -= f * SER(e->FN, q, k) * ut;
    }
}

/* Sum_{l=0..k} a_l b_{k-l}: order k of the product of two series rows. */
static double cauchy(const double *a, const double *b, int k)
{
    double r = 0;
    for (int l = 0; l <= k; l++)
        r += a[l] * b[k - l];
    return r;
}

/* Order k of the energy integrals' rates: v^T C v plus the engaged
** penalty dampers' c p'^2, and the applied forces' power F . v. */
static void energy_k(nsm_sim *s, RtNlTaylor *e, int k)
{
    int n = s->n_vel, nq = s->n_pos, K = e->K;
    double pd = 0, pw = 0;
    for (int i = 0; i < n; i++)
        for (int l = 0; l <= k; l++) {
            pd += SER(e->X, nq + i, l) * SER(e->CVs, i, k - l);
            pw += SER(e->F, i, l) * SER(e->X, nq + i, k - l);
        }
    for (int j = 0; j < s->n_gaps; j++) {
        double c = rt_law_damping(s, e->mode, j);
        if (c != 0)
            for (int l = 0; l <= k; l++)
                pd += c * SER(e->PR, j, l) * SER(e->PR, j, k - l);
    }
    if (s->n_fric)
        fric_energy_k(s, e, k, &pd, &pw);
    for (int q = 0; e->sfs && q < s->n_space_fric; q++) {   /* spatial friction: mu lambda_N |gamma_F| */
        int j = s->m->space_frictions[q].gap;
        if (rt_law_held(s, e->mode, j) && !rt_sf_stuck(s, e->mode, q))
            pd += s->num.sf_mu[q] * cauchy(&SER(e->LAM, j, 0), rt_sfser_slip_norm(e->sfs, q), k);
    }
    SER(e->E, 0, k + 1) = pd / (k + 1);
    SER(e->E, 1, k + 1) = pw / (k + 1);
}

/* Order k + 1 of the positions from orders 0..k of the state: x' = v for
** every position, then, for each rigid body b, its quaternion's rows by
** p' = p (x) (0, w) / 2 (rigid.c's kin, Cauchy products of p's and w's
** series; theory.md section 19), p0 at row n + b, p1..p3 in the rows of
** w1..w3.  The structure is fixed per body, so the runtime writes it
** rather than nsmc. */
static void kin_k(const nsm_sim *s, RtNlTaylor *e, int k)
{
    const nsm_model *m = s->m;
    int n = s->n_vel, nq = s->n_pos, K = e->K;
    for (int i = 0; i < n; i++)
        SER(e->X, i, k + 1) = SER(e->X, nq + i, k) / (k + 1);
    for (int b = 0; nq > n && b < m->n_rigid; b++) {
        int r = m->rigid_rot[b];
        const double *p0 = &SER(e->X, n + b, 0), *p1 = &SER(e->X, r, 0),
                     *p2 = &SER(e->X, r + 1, 0), *p3 = &SER(e->X, r + 2, 0),
                     *w1 = &SER(e->X, nq + r, 0), *w2 = &SER(e->X, nq + r + 1, 0),
                     *w3 = &SER(e->X, nq + r + 2, 0);
        double h = 0.5 / (k + 1);
        double d0 = -(cauchy(p1, w1, k) + cauchy(p2, w2, k) + cauchy(p3, w3, k));
        double d1 = cauchy(p0, w1, k) + cauchy(p2, w3, k) - cauchy(p3, w2, k);
        double d2 = cauchy(p0, w2, k) + cauchy(p3, w1, k) - cauchy(p1, w3, k);
        double d3 = cauchy(p0, w3, k) + cauchy(p1, w2, k) - cauchy(p2, w1, k);
        SER(e->X, n + b, k + 1) = h * d0;
        SER(e->X, r, k + 1) = h * d1;
        SER(e->X, r + 1, k + 1) = h * d2;
        SER(e->X, r + 2, k + 1) = h * d3;
    }
}

/* The radius estimate of series whose top orders are 0 (rho_of) because
** they underflowed, not because the series ends: from the highest nonzero
** order k, when the next order its decay predicts is below DBL_MIN /
** DBL_EPSILON (a pendulum at g = 1e-100 m/s^2 has orders of omega^k =
** 1e-50k, 0 from the seventh, and stepped 1e52 s, 16 periods, in one step:
** "off by 1 of the largest energy").  That order is the series' last, so
** the step keeps (h/rho)^(k+1) at DBL_EPSILON.  A polynomial (free flight:
** its orders above 2 exactly 0, the second's decay far from underflow)
** keeps its unbounded radius. */
static double rho_underflow(const double *a, int rows, int K, int top, double a0)
{
    for (int k = top - 2; k >= 1; k--) {
        double ak = 0;
        for (int i = 0; i < rows; i++)
            ak = fmax(ak, fabs(SER(a, i, k)));
        if (!(ak > 0))
            continue;
        double r = pow(fmax(1, a0) / ak, 1.0 / k);
        if (!(ak / r < DBL_MIN / DBL_EPSILON))
            return HUGE_VAL;
        return r * pow(DBL_EPSILON, 1.0 / (k + 1));
    }
    return HUGE_VAL;
}

/* The radius estimate of rows series with K + 1 columns from the decay of
** orders top - 1 and top: min over both of (max(1, |a_0|)/|a_k|)^(1/k),
** each a norm over the rows (Jorba & Zou's absolute-relative mix). */
static double rho_of(const double *a, int rows, int K, int top)
{
    double a0 = 0, rho = HUGE_VAL;
    for (int i = 0; i < rows; i++)
        a0 = fmax(a0, fabs(SER(a, i, 0)));
    for (int k = top - 1; k <= top; k++) {
        double ak = 0;
        for (int i = 0; i < rows; i++)
            ak = fmax(ak, fabs(SER(a, i, k)));
        if (ak > 0)
            rho = fmin(rho, pow(fmax(1, a0) / ak, 1.0 / k));
    }
    return rho < HUGE_VAL ? rho : rho_underflow(a, rows, K, top, a0);
}

/* Order k of spatial friction's series (sfseries.c): the rows' order k + 1
** (the positions' is known: kin_k), then the slip, its norm and the
** sliding direction, or a stuck contact's curvature terms, at order k.
** A sliding contact without slip has no series of its direction: the
** landing (spacestick.c) sticks it first, or starts its slip from zero
** along the force that held it (a body at rest on an incline steeper than
** its friction holds), whose direction the series then keep over the step
** (sfseries.c, sf_start_cap); a zero slip without such a start stops the
** run, naming rk4 and adaptive. */
static int sf_series_k(nsm_sim *s, RtNlTaylor *e, int k)
{
    rt_sfser_rows(s, e->sfs, e->mode, e->X, k + 1);
    int q = rt_sfser_slip(s, e->sfs, e->mode, e->X, k);
    if (q)
        return rt_fail(s, NSM_ENUMERIC, s->m->space_frictions[q - 1].gap, "spatial friction "
                       "element '%s': at t = %.17g s its contact's slip is exactly zero while "
                       "its friction cannot hold it (the stick force leaves the cone): the "
                       "method taylor cannot start a slip from zero (its sliding direction "
                       "has no series there); rk4 (with a dt) or adaptive runs it",
                       s->m->space_frictions[q - 1].name, e->t0);
    return 0;
}

/* The radius of the sliding contacts' |gamma_F| series, relative to its
** own size: (|gamma|_0 / |gamma|_k)^(1/k) over the last two orders.  Its
** branch point, a complex zero of gamma . gamma, nears the real axis as
** the slip falls towards zero, and this keeps the steps within it. */
static double sf_rho(const nsm_sim *s, const RtNlTaylor *e)
{
    double rho = HUGE_VAL;
    int K = e->K;
    for (int q = 0; q < s->n_space_fric; q++) {
        if (!rt_law_held(s, e->mode, s->m->space_frictions[q].gap) || rt_sf_stuck(s, e->mode, q) ||
            rt_sfser_start_reach(e->sfs, q, NLT_START_EPS) != HUGE_VAL)
            continue;           /* a start from zero: sf_start_cap's */
        const double *S = rt_sfser_slip_norm(e->sfs, q);
        for (int k = K - 2; k <= K - 1; k++)
            if (fabs(S[k]) > 0)
                rho = fmin(rho, pow(S[0] / fabs(S[k]), 1.0 / k));
    }
    return fmin(rho, rho_of(e->LSF, 3 * s->n_space_fric, K, K - 1));
}

/* A step whose sliding contact starts from zero slip, its direction the
** start's (sfseries.c): capped in e->hcap where the slip stays along that
** direction within NLT_START_EPS, or refused when it does not grow along
** it (the direction from the tangential force at zero slip is not the
** slip's). */
static int sf_start_cap(nsm_sim *s, RtNlTaylor *e)
{
    for (int q = 0; q < s->n_space_fric; q++) {
        if (!rt_law_held(s, e->mode, s->m->space_frictions[q].gap) || rt_sf_stuck(s, e->mode, q))
            continue;
        double h = rt_sfser_start_reach(e->sfs, q, NLT_START_EPS);
        if (h < 0)
            return rt_fail(s, NSM_ENUMERIC, s->m->space_frictions[q].gap, "spatial friction "
                           "element '%s': at t = %.17g s its slip starts from zero but does "
                           "not grow along the direction of the force that held it: the "
                           "method taylor cannot start it (rk4 with a dt or adaptive may)",
                           s->m->space_frictions[q].name, e->t0);
        e->hcap = fmin(e->hcap, h);
    }
    return NSM_OK;
}

/* Expand the motion from (t0, Y0) in the current mode to degree K and set
** the step's largest size hmax.  0, RT_NLT_NOSERIES, or a status. */
static int nlt_build(nsm_sim *s, double t0, const double *Y0)
{
    RtNlTaylor *e = s->nlt;
    const nsm_model *m = s->m;
    int n = s->n_vel, nq = s->n_pos, K = e->K, rc;
    e->valid = 0;
    e->evready = 0;
    e->tlast = NAN;
    e->t0 = t0;
    rt_mode_copy(s, e->mode, s->mode);
    memcpy(e->Y0, Y0, sizeof(double) * (size_t)s->n_state);
    rt_nl_at(s, Y0);
    if (rt_mass_at(s, Y0))          /* M_0 = M(q(t0)), factored once for the step */
        return s->failed;
    for (int i = 0; i < nq + n; i++)
        SER(e->X, i, 0) = Y0[i];
    SER(e->E, 0, 0) = Y0[rt_eslot(s)];
    SER(e->E, 1, 0) = Y0[rt_eslot(s) + 1];
    memset(e->LAM, 0, sizeof(double) * (size_t)(s->n_gaps + 1) * (size_t)(K + 1));
    memset(e->LAMF, 0, sizeof(double) * (size_t)(s->n_fric + 1) * (size_t)(K + 1));
    memset(e->LSF, 0, sizeof(double) * (size_t)(3 * s->n_space_fric + 1) * (size_t)(K + 1));
    e->hcap = HUGE_VAL;
    if (e->sfs)
        rt_sfser_rows(s, e->sfs, e->mode, e->X, 0);
    for (int k = 0; k < K; k++) {
        for (int i = 0; i < n; i++)
            SER(e->F, i, k) = 0;
        m->nl_series(k, K, t0, e->X, s->sw, s->params, s->consts, e->work, e->F, e->G, e->CV, e->WV);
        if (m->nl & NSM_NL_SLIP)
            m->nl_slip_series(k, K, t0, e->X, s->sw, s->params, s->consts, e->swork, e->FW, e->FCV);
        if (m->lagrangian)
            m->lag_series(k, K, t0, e->X, s->sw, s->params, s->consts, e->lwork, e->LM, e->LH);
        for (int i = 0; i < n; i++) {
            SER(e->CVs, i, k) = csr_ser(&s->sp.C, i, e->X, K, nq, k);
            e->Fk[i] = SER(e->F, i, k) + (k ? 0 : s->num.fconst[i]) -
                       csr_ser(&s->sp.K, i, e->X, K, 0, k) - SER(e->CVs, i, k);
        }
        if (penalty_k(s, e, k))
            return RT_NLT_NOSERIES;
        if (s->n_fric)
            fric_slip_k(s, e, k);
        if (m->lagrangian)
            lag_k(s, e, k);
        kin_k(s, e, k);     /* the positions' order k + 1: spatial friction's rows there */
        if (e->sfs && (rc = sf_series_k(s, e, k)))
            return rc;
        if ((rc = cons_k(s, e, k)))
            return s->failed ? s->failed
                             : rt_fail(s, NSM_ENUMERIC, -1, "the held contacts' forces could not be expanded");
        for (int i = 0; i < n; i++)
            SER(e->X, nq + i, k + 1) = SER(e->A, i, k) / (k + 1);
        energy_k(s, e, k);
    }
    /* the step: rho from the decay of the last two orders, over every
     * state in one norm (absolute below 1, relative above), and over the
     * curved gaps' and the forces' series too: a state may be a
     * polynomial (free flight) while a gap of it, sqrt of a sum of
     * squares, converges only within its complex zeros' distance */
    double rho = rho_of(e->X, nq + n, K, K);
    if (s->nl)
        rho = fmin(rho, rho_of(e->G, s->n_gaps, K, K - 1));
    rho = fmin(rho, rho_of(e->F, n, K, K - 1));
    if (m->lagrangian)
        rho = fmin(rho, rho_of(e->LH, n, K, K - 1));
    rho = fmin(rho, rho_of(e->LAM, s->n_gaps, K, K - 1));
    rho = fmin(rho, rho_of(e->LAMF, s->n_fric, K, K - 1));
    if (e->sfs) {
        rho = fmin(rho, sf_rho(s, e));
        if ((rc = sf_start_cap(s, e)))
            return rc;
    }
    e->hmax = fmin(rho / (M_E * M_E) * exp(-0.7 / (K - 1)), e->hcap);
    e->t0 = t0;
    e->valid = 1;
    return NSM_OK;
}

/* The expansion's state at offset tau, by Horner's scheme per row; the
** state and its time t0 + tau are kept, so that rt_nlt_events knows it. */
static void nlt_eval(const nsm_sim *s, RtNlTaylor *e, double tau, double *Y1)
{
    int K = e->K, es = rt_eslot(s);
    for (int i = 0; i < es; i++)
        Y1[i] = poly_at(&SER(e->X, i, 0), K, tau);
    Y1[es] = poly_at(&SER(e->E, 0, 0), K, tau);
    Y1[es + 1] = poly_at(&SER(e->E, 1, 0), K, tau);
    memcpy(e->Ylast, Y1, sizeof(double) * (size_t)s->n_state);
    e->tlast = e->t0 + tau;
    e->taulast = tau;
}

/* Whether the kept expansion is the one from (t, Y) in the current mode. */
static int nlt_is(const nsm_sim *s, double t, const double *Y)
{
    const RtNlTaylor *e = s->nlt;
    return e && e->valid && e->t0 == t && rt_mode_eq(s, e->mode, s->mode) &&
           memcmp(e->Y0, Y, sizeof(double) * (size_t)s->n_state) == 0;
}

/* Friction event function i (element i / 2, rt_fric_events' numbering)
** over the kept expansion: while stuck mu_s N -+ lambda_f, while slipping
** s times the slip velocity.  0 where the function is the constant 1
** (idle, a slipping element's second). */
static int fric_event_series(const nsm_sim *s, const RtNlTaylor *e, int i, double *a)
{
    int K = e->K, q = i / 2, second = i % 2;
    if (rt_fric_idle(s, e->mode, q))
        return 0;
    if (rt_fric_stuck(s, e->mode, q)) {
        double ms = s->num.mus[q];
        for (int k = 0; k < K; k++)
            a[k] = ms * SER(e->FN, q, k) + (second ? 1 : -1) * SER(e->LAMF, q, k);
        return 1;
    }
    if (second)
        return 0;
    int sg = rt_fric_sign(s, e->mode, q);
    for (int k = 0; k < K; k++)
        a[k] = sg * slip_k(s, e, q, k);
    return 1;
}

/* Orders 0..K-1 of open affine gap j, w_j . x + d_j, over the kept
** expansion: a pass over the row's nonzeros per order (the sums of
** wdot_k, in its order of operations, without its per-order calls). */
static void affine_gap_series(const nsm_sim *s, const RtNlTaylor *e, int j, double *a)
{
    const RtCsr *W = &s->sp.W;
    int K = e->K;
    for (int k = 0; k < K; k++) {
        double r = 0;
        for (int q = W->p[j]; q < W->p[j + 1]; q++)
            r += W->x[q] * SER(e->X, W->i[q], k);
        a[k] = r + (k ? 0 : s->num.d[j]);
    }
}

/* Event function j's series over the kept expansion (coefficients of tau^k,
** k <= K): its gap while open (curved: the model's series), its contact
** force while held or engaged (a penalty gap released at zero penetration:
** the penetration).  0 when j has none here (friction elements). */
static int event_series(const nsm_sim *s, const RtNlTaylor *e, int j, double *a)
{
    int K = e->K;
    if (j >= s->n_gaps)
        return fric_event_series(s, e, j - s->n_gaps, a);
    int closed = rt_mode_has(e->mode, j), pen = rt_law_engaged(s, e->mode, j);
    if (!closed && !rt_nl_gap_curved(s, j)) {
        affine_gap_series(s, e, j, a);
        return 1;
    }
    for (int k = 0; k < K; k++) {
        if (pen && rt_law_closed_gap_event(s, j))
            a[k] = SER(e->P, j, k);
        else if (closed)
            a[k] = SER(e->LAM, j, k);
        else
            a[k] = SER(e->G, j, k);     /* open and curved */
    }
    return 1;
}

/* Every event function's series over the kept expansion into EV (K
** coefficients each; evhas[j] 0 where the function is the constant 1),
** once per expansion. */
static void event_table(const nsm_sim *s, RtNlTaylor *e)
{
    if (e->evready)
        return;
    for (int j = 0; j < s->n_gaps + 2 * s->n_fric; j++)
        e->evhas[j] = (unsigned char)event_series(s, e, j, &e->EV[(size_t)j * e->K]);
    e->evready = 1;
}

/* Whether the step's event functions may be read off the series: every
** gap's law is a constraint's (open: the gap, held: its force, which
** event_series gives); a penalty law's event (its force's larger form, a
** power of the penetration) is left to the generic path. */
static int event_series_apply(const nsm_sim *s)
{
    for (int j = 0; j < s->n_gaps; j++)
        if (!rt_law_impacts(s, j))
            return 0;
    return 1;
}

/* Whether the kept expansion gives the event functions at (t, y): valid,
** of the current mode, with every law's event on its series, and (t, y)
** the state it gave last, past its start (rt_nlt_events). */
static int series_serves(const nsm_sim *s, double t, const double *y)
{
    const RtNlTaylor *e = s->nlt;
    return e && e->valid && rt_mode_eq(s, e->mode, s->mode) && event_series_apply(s) &&
           t == e->tlast && e->taulast > 0 &&
           memcmp(y, e->Ylast, sizeof(double) * (size_t)s->n_state) == 0;
}

/* The event functions and their derivatives at the kept expansion's last
** state, by Horner's scheme on event_table's series (rt_nlt_events). */
static int events_off_series(const nsm_sim *s, RtNlTaylor *e, double *ev, double *evd)
{
    double tau = e->taulast;
    int K = e->K;
    event_table(s, e);
    for (int j = 0; j < s->n_events; j++) {
        const double *a = &e->EV[(size_t)j * K];
        if (!e->evhas[j]) {
            ev[j] = 1;
            evd[j] = 0;
            continue;
        }
        double v = a[K - 1], d = (K - 1) * a[K - 1];
        for (int k = K - 2; k >= 0; k--) {
            v = v * tau + a[k];
            if (k > 0)
                d = d * tau + k * a[k];
        }
        ev[j] = v;
        evd[j] = d;
    }
    return NSM_OK;
}

/* Under the taylor method (rt_nlt_events, rt.h, asks only then): the
** event functions in the current mode at (t, y) and their time
** derivatives, as rt_events gives them (rt_law_impact_event's gap or held
** force, rt_fric_events' friction functions), read off the taylor
** method's kept expansion (event_table, Horner's scheme for the value and
** the derivative) when (t, y) is the state it gave last, past its start
** (a step's end, a locator's iterate), where rt_events would solve the
** constrained accelerations twice and differentiate the forces by a
** central difference; else rt_events.  The series are the ones the step's
** states and its dips' search (cut_at_dips) come from.  A step's start
** keeps rt_events: right after a transition its values must be those the
** transition decided on (an element just set slipping found beyond its
** cone by a rounding of the series would turn again at once). */
int rt_nlt_series_events(const nsm_sim *s, double t, const double *y, double *ev, double *evd)
{
    if (!series_serves(s, t, y))
        return rt_events(s, s->mode, t, y, ev, evd);
    return events_off_series(s, s->nlt, ev, evd);
}

/* Cut a step of size *h that an event function crosses twice (down and
** back up, so that both ends are positive and the end-point test would
** miss it): the first zero on the function's series by the guaranteed
** search of the exact method (taylor.c), with the truncation estimate as
** its tail; the step then ends just past that zero, where the function is
** below 0, and the event is located there as any other. */
static void cut_at_dips(nsm_sim *s, RtNlTaylor *e, double *h)
{
    int K = e->K;
    long double b[K + 1];
    event_table(s, e);
    for (int j = 0; j < s->n_gaps + 2 * s->n_fric; j++) {
        if (!e->evhas[j])
            continue;
        const double *a = &e->EV[(size_t)j * K];
        double mag = 0, hk = 1, x;
        for (int k = 0; k < K; k++, hk *= *h) {
            b[k] = (long double)a[k] * hk;
            mag += fabs((double)b[k]);
        }
        double r0 = 1e-14 * mag + fabs((double)b[K - 1]);
        if (!(b[0] > 10 * r0) || rt_poly_eval(b, K - 1, 1, NULL) <= 0)
            continue;           /* at 0 at its start (the generic tests), or crossing at the end */
        if (!rt_poly_first_zero(b, K - 1, 0, r0, (K + 1) * r0, &x) || !(x < 1))
            continue;
        for (double d = 1e-12; x + d < 1; d *= 4)
            if (rt_poly_eval(b, K - 1, x + d, NULL) < 0) {
                *h = (x + d) * *h;
                break;
            }
    }
}

/* One step of the taylor method from (t, Y): at most *h, shortened to the
** expansion's reach (the new *h) and past the first dip of an event
** function below 0 inside it.  RT_NLT_NOSERIES when no expansion
** exists at this state (step.c then takes the step another way). */
int rt_nlt_step(nsm_sim *s, double t, const double *Y, double *h, double *Y1)
{
    int rc;
    if ((rc = nlt_alloc(s)))
        return rc;
    if (!nlt_is(s, t, Y) && (rc = nlt_build(s, t, Y)))
        return rc;
    if (*h > s->nlt->hmax)
        *h = s->nlt->hmax;
    cut_at_dips(s, s->nlt, h);
    nlt_eval(s, s->nlt, *h, Y1);
    return NSM_OK;
}

/* The state tau after (t, Y) on the expansion from there (built if it is
** not the kept one), without a step-size limit: event location inside a
** step. */
int rt_nlt_advance(nsm_sim *s, double t, const double *Y, double tau, double *Y1)
{
    int rc;
    if ((rc = nlt_alloc(s)))
        return rc;
    if (!nlt_is(s, t, Y) && (rc = nlt_build(s, t, Y)))
        return rc;
    nlt_eval(s, s->nlt, tau, Y1);
    return NSM_OK;
}
