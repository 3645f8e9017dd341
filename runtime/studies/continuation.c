/*
** continuation.c: pseudo-arclength continuation of the periodic orbits of a
** forced model in one parameter, with their folds, period doublings,
** Neimark-Sacker points and grazings, and of those points in two parameters
** (docs/studies.md, "Continuation").
**
** A periodic orbit of k forcing periods T(p) (an expression of the
** parameters) is a zero of F(y, p) = P(y, p) - y, P the stroboscopic map
** from t = 0 to k T(p) of the exact flow with its impacts (floquet.c).  The
** branch X = (y, p) is followed by Keller's pseudo-arclength method: the
** tangent tau spans the kernel of J = [D_y F, D_p F] = [Phi - I, F_p], the
** predictor is X + ds tau, and Newton's method corrects it on the
** hyperplane tau . (X - X_a) = ds, which crosses folds of the branch in p.
** Phi is the monodromy matrix from the saltation matrices (exact); F_p is a
** central difference of the exact flow, (P(y, p + h) - P(y, p - h)) / 2h
** with h = eps^(1/3) max(1, |p|) (about 6e-6 relative): truncation h^2 and
** rounding eps/h balance near 1e-11 relative.  F_p only enters the
** Jacobian, so it bounds Newton's rate, not the orbit's accuracy (set by the
** residual), and the fold's location (tau_p = 0 exactly where Phi - I is
** singular, by Cramer's rule on J's kernel).
**
** Test functions, evaluated at each point and located by the Illinois
** method on the arclength between two points (each trial point corrected
** onto the branch):
**     fold              tau_p, the parameter's arclength derivative
**     period doubling   det(Phi + I) = prod (mu_i + 1)
**     Neimark-Sacker    prod_{i<j} (mu_i mu_j - 1) (the bialternate
**                       product's determinant), kept when the pair at the
**                       crossing is complex on the unit circle (else it is
**                       a neutral saddle, not reported)
** Grazing: the number of impacts per period changes between two points
** (the minimal gap over the period of the non-impacting orbit, found by
** Newton's method on the gap's rate from samples of the exact flow, reaches
** zero), located by bisection on the arclength; the continuation then goes
** on from the grazing orbit on the branch of the other impact count (a
** natural-parameter Newton solve on either side of the grazing parameter,
** where the impacting branch exists, then a new tangent).
**
** Branch switching (switch_pd): at the first period doubling the branch
** leaves for the doubled orbit (cont_switch).  Two-parameter curves (curve):
** the fold, period-doubling or grazing point continued in two parameters as
** the zero of an extended system (curve_follow, below).
**
** No I/O: points go to the caller's function (the continuation program,
** contprog.c, writes them).
*/
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "law.h"
#include "linalg.h"
#include "rt.h"

/* Samples of the exact flow per period for the search of the gap's minimum. */
#define GAP_SAMPLES 64

/* A branch whose last RT_CONT_CREEP_STEPS steps were each shorter than
** RT_CONT_CREEP_RATIO of ds creeps (toward a grazing it cannot reach, the
** switched branch of tests/studies/impact_clearance.nsm: steps of 1e-6 to
** 1e-7 for 10000 points) and is stopped; a branch that only passes a hard
** stretch grows its steps again by 1.5 at each success. */
#define RT_CONT_CREEP_STEPS 1000
#define RT_CONT_CREEP_RATIO 1e-3

/* The continuation's working state: the options, the sizes, scratch. */
typedef struct Cont {
    nsm_sim *s;
    const nsm_cont_options *o;
    int n2, N;                /* y's length and X's (n2 + 1) */
    double lo, hi;            /* the parameter's range */
    long impacts;             /* counted by the event handler of the run */
    double vmin;              /* smallest impact speed of the run */
    nsm_cont_fn fn;
    void *ud;
    long index;
    int periods;              /* forcing periods per orbit (doubled by a switch) */
    double p2;                /* a curve's second parameter (NaN on a branch) */
    struct Pt *flip;          /* switch_pd: the period doubling found, else NULL */
} Cont;

/* A point of the branch with what was computed there. */
typedef struct Pt {
    double *X;                /* y (n2) then p */
    double *Phi;              /* n2 x n2 */
    double *Fp;               /* n2 */
    double *tau;              /* unit tangent (N) */
    double *mre, *mim;        /* multipliers */
    double period;
    long impacts;
    double vmin, gmin;
    double f[3];              /* test functions: fold, flip, Neimark-Sacker */
} Pt;

/* Event handler during the continuation's runs: counts the impacts and
** keeps the smallest impact speed. */
static int cont_event(void *ud, const nsm_sim *sim, const nsm_event *ev)
{
    Cont *c = ud;
    (void)sim;
    if (ev->kind == NSM_EV_IMPACT) {
        c->impacts++;
        c->vmin = fmin(c->vmin, fabs(ev->vrel_before));
    }
    return 0;
}

/* The doubles of a point's one block: X, Phi, Fp, tau, mre, mim. */
static size_t pt_size(const Cont *c)
{
    int n2 = c->n2, N = c->N;
    return (size_t)(N + n2 * n2 + n2 + N + 2 * n2);
}

/* Point q's arrays laid out in the block b (pt_size doubles), the one
** place that knows their order. */
static void pt_layout(const Cont *c, Pt *q, double *b)
{
    int n2 = c->n2, N = c->N;
    q->X = b;
    q->Phi = b + N;
    q->Fp = q->Phi + n2 * n2;
    q->tau = q->Fp + n2;
    q->mre = q->tau + N;
    q->mim = q->mre + n2;
}

/* Allocate a point's arrays (one block). */
static int pt_alloc(const Cont *c, Pt *q)
{
    double *b = calloc(pt_size(c), sizeof(double));
    if (!b)
        return NSM_ENOMEM;
    pt_layout(c, q, b);
    return NSM_OK;
}

/* Free a point's arrays. */
static void pt_free(Pt *q)
{
    free(q->X);
    q->X = NULL;
}

/* Copy point a into b (both allocated). */
static void pt_copy(const Cont *c, Pt *b, const Pt *a)
{
    double *X = b->X;
    memcpy(X, a->X, sizeof(double) * pt_size(c));
    *b = *a;
    pt_layout(c, b, X);
}

/* Set the parameter and return the orbit's period k T(p). */
static int cont_period(Cont *c, double p, double *T)
{
    nsm_sim *s = c->s;
    int rc = nsm_sim_set_param(s, c->o->param, p);
    if (rc)
        return rc;
    if ((rc = nsm_sim_eval(s, c->o->period, T)))
        return rc;
    if (!(*T > 0) || !isfinite(*T)) {
        rt_text_printf(s->msg, sizeof s->msg, "continuation: the period %s is not a positive time at %s = %.17g",
                        c->o->period, c->o->param, p);
        return NSM_EMODEL;
    }
    *T *= c->periods;
    return NSM_OK;
}

/* P(y, p) into yT and, when Phi is given, the monodromy matrix; counts the
** impacts of the run. */
static int cont_map(Cont *c, const double *y, double p, double *yT, double *Phi, double *T)
{
    nsm_sim *s = c->s;
    int n2 = c->n2, rc;
    double Tp, scratch[n2 * n2];
    if ((rc = cont_period(c, p, &Tp)))
        return rc;
    if ((rc = nsm_sim_set_initial_state(s, y)) || (rc = nsm_sim_reset(s)))
        return rc;
    c->impacts = 0;
    c->vmin = HUGE_VAL;
    if ((rc = nsm_sim_monodromy(s, Tp, Phi ? Phi : scratch, yT)))
        return rc;
    if (T)
        *T = Tp;
    return NSM_OK;
}

/* F_p by the central difference of the exact flow (step in the header).
** A difference run with another impact count than the base run (y0 = P(y,
** p), its count im) crossed a grazing, where P is not smooth: then the
** one-sided difference on the base's side (error O(h), still a contraction
** of 1e-5 for Newton's method), halving h while neither side matches. */
static int cont_fp(Cont *c, const double *y, double p, const double *y0, long im, double *Fp)
{
    int n2 = c->n2, rc;
    double h = 6.0554544523933395e-06 * fmax(1, fabs(p)), a[n2], b[n2];
    for (int k = 0; k < 30; k++, h /= 2) {
        if ((rc = cont_map(c, y, p + h, a, NULL, NULL)))
            return rc;
        long ia = c->impacts;
        if ((rc = cont_map(c, y, p - h, b, NULL, NULL)))
            return rc;
        long ib = c->impacts;
        for (int i = 0; i < n2; i++)
            Fp[i] = ia == im && ib == im ? (a[i] - b[i]) / (2 * h)
                  : ia == im ? (a[i] - y0[i]) / h : (y0[i] - b[i]) / h;
        if (ia == im || ib == im)
            return NSM_OK;
    }
    return NSM_ENUMERIC;
}

/* Determinant of an n x n matrix (copied) by elimination with pivoting. */
static double det_of(int n, const double *A0)
{
    double A[n * n], d = 1;
    memcpy(A, A0, sizeof A);
    for (int k = 0; k < n; k++) {
        int piv = k;
        for (int i = k + 1; i < n; i++)
            if (fabs(A[i * n + k]) > fabs(A[piv * n + k]))
                piv = i;
        if (A[piv * n + k] == 0)
            return 0;
        if (piv != k) {
            for (int j = 0; j < n; j++) {
                double t = A[k * n + j];
                A[k * n + j] = A[piv * n + j];
                A[piv * n + j] = t;
            }
            d = -d;
        }
        d *= A[k * n + k];
        for (int i = k + 1; i < n; i++) {
            double f = A[i * n + k] / A[k * n + k];
            for (int j = k; j < n; j++)
                A[i * n + j] -= f * A[k * n + j];
        }
    }
    return d;
}

/* The unit kernel vector of the (N-1) x N matrix in A's first N - 1 rows,
** oriented along dir (tau . dir > 0): solved as [J; dir^T] tau = e_N.  A
** (N x N) is overwritten. */
static int cont_kernel(int N, double *A, const double *dir, double *tau)
{
    for (int b = 0; b < N; b++) {
        A[(N - 1) * N + b] = dir[b];
        tau[b] = 0;
    }
    tau[N - 1] = 1;
    if (nsm_la_solve(N, A, tau, 1))
        return NSM_ENUMERIC;
    double nrm = 0, sd = 0;
    for (int i = 0; i < N; i++)
        nrm += tau[i] * tau[i], sd += tau[i] * dir[i];
    nrm = sqrt(nrm);
    if (!(nrm > 0) || !isfinite(nrm))
        return NSM_ENUMERIC;
    for (int i = 0; i < N; i++)
        tau[i] /= sd < 0 ? -nrm : nrm;
    return NSM_OK;
}

/* The unit tangent: the kernel of J = [Phi - I, F_p], oriented along dir. */
static int cont_tangent(const Cont *c, const double *Phi, const double *Fp, const double *dir, double *tau)
{
    int n2 = c->n2, N = c->N;
    double A[N * N];
    for (int a = 0; a < n2; a++) {
        for (int b = 0; b < n2; b++)
            A[a * N + b] = Phi[a * n2 + b] - (a == b);
        A[a * N + n2] = Fp[a];
    }
    return cont_kernel(N, A, dir, tau);
}

/* The smallest gap over the period of an orbit without impacts: the exact
** flow from t = 0 sampled GAP_SAMPLES times, then Newton's method on the
** gap's rate (its derivative from the vector field) from the smallest
** sample: the minimum between samples, to the rounding of the gap. */
static int cont_gap_min(Cont *c, const double *y, double p, double *gmin)
{
    nsm_sim *s = c->s;
    int n = s->n_vel, N = s->n_state, rc;
    double T;
    if ((rc = cont_period(c, p, &T)) || (rc = nsm_sim_set_initial_state(s, y)) || (rc = nsm_sim_reset(s)))
        return rc;
    *gmin = HUGE_VAL;
    if (!rt_mode_empty(s, s->mode))
        return NSM_OK;
    double Y0[N], Y1[N], Yd[N];
    memcpy(Y0, s->y, sizeof Y0);
    unsigned free_mode[s->mode_words];
    rt_mode_none(s, free_mode);
    for (int j = 0; j < s->n_gaps; j++) {
        if (!rt_law_impacts(s, j))
            continue;
        double best = HUGE_VAL, tb = 0;
        for (int i = 0; i <= GAP_SAMPLES; i++) {
            double t = T * i / GAP_SAMPLES;
            if ((rc = rt_advance(s, 0, Y0, t, Y1)))
                return rc;
            double g = rt_gap_at(s, j, t, Y1);
            if (g < best)
                best = g, tb = t;
        }
        /* Newton on g'(t) = w.v = 0 (g'' = w.a), kept inside the period */
        double t = tb;
        for (int it = 0; it < 12; it++) {
            if ((rc = rt_advance(s, 0, Y0, t, Y1)) || (rc = rt_deriv(s, free_mode, t, Y1, Yd)))
                return rc;
            double gd = rt_gap_rate(s, j, t, Y1 + n), gdd = rt_wrow(s, j, Yd + n);
            if (!(gdd > 0))
                break;
            double tn = fmin(fmax(t - gd / gdd, 0), T);
            int done = fabs(tn - t) <= 1e-15 * T;
            t = tn;
            if (done)
                break;
        }
        if ((rc = rt_advance(s, 0, Y0, t, Y1)))
            return rc;
        best = fmin(best, rt_gap_at(s, j, t, Y1));
        *gmin = fmin(*gmin, best);
    }
    return NSM_OK;
}

/* Sort the multipliers by decreasing modulus (for the output). */
static void mu_sort(int n, double *re, double *im)
{
    for (int i = 1; i < n; i++)
        for (int k = i; k > 0 && hypot(re[k], im[k]) > hypot(re[k - 1], im[k - 1]); k--) {
            double a = re[k], b = im[k];
            re[k] = re[k - 1], im[k] = im[k - 1];
            re[k - 1] = a, im[k - 1] = b;
        }
}

/* Everything at a point on the branch: Phi and F_p (already in q from the
** corrector), the tangent oriented along dir, multipliers, test functions,
** the smallest gap. */
static int cont_finish(Cont *c, Pt *q, const double *dir)
{
    int n2 = c->n2, rc;
    if ((rc = cont_tangent(c, q->Phi, q->Fp, dir, q->tau)))
        return rc;
    if (nsm_la_eigvals(n2, q->Phi, q->mre, q->mim))
        return NSM_ENUMERIC;
    mu_sort(n2, q->mre, q->mim);
    double B[n2 * n2];
    for (int i = 0; i < n2 * n2; i++)
        B[i] = q->Phi[i] + (i % (n2 + 1) == 0);
    q->f[0] = q->tau[n2];
    q->f[1] = det_of(n2, B);
    /* prod_{i<j} (mu_i mu_j - 1), real for a real matrix */
    double pr = 1, pi = 0;
    for (int i = 0; i < n2; i++)
        for (int j = i + 1; j < n2; j++) {
            double ar = q->mre[i] * q->mre[j] - q->mim[i] * q->mim[j] - 1;
            double ai = q->mre[i] * q->mim[j] + q->mim[i] * q->mre[j];
            double r = pr * ar - pi * ai;
            pi = pr * ai + pi * ar;
            pr = r;
        }
    q->f[2] = pr;
    q->gmin = 0;
    if (q->impacts == 0 && (rc = cont_gap_min(c, q->X, q->X[n2], &q->gmin)))
        return rc;
    return NSM_OK;
}

/* Newton's method from the guess in q->X: on F = 0 with the hyperplane
** nrm . (X - X0) = sig when nrm is given, else at fixed p.  On success q
** holds Phi, F_p (at the solution) and the impact count; the caller then
** runs cont_finish.  NSM_ENUMERIC when it does not converge. */
static int cont_correct(Cont *c, Pt *q, const double *X0, const double *nrm, double sig)
{
    int n2 = c->n2, N = c->N, rc;
    double yT[n2], r[N], A[N * N], best = HUGE_VAL;
    for (int it = 0; it < 12; it++) {
        double *X = q->X, p = X[n2];
        if (!(p == p) || (rc = cont_map(c, X, p, yT, q->Phi, &q->period)))
            /* an iterate or a predicted point inside a gap (the reset refuses a
             * penetrating state) is Newton's method failing, not the model:
             * the caller shortens the step or reports no orbit (cont_start
             * checks the user's start first) */
            return !rc || rc == NSM_EMODEL ? NSM_ENUMERIC : rc;
        q->impacts = c->impacts;
        q->vmin = c->impacts ? c->vmin : 0;
        double rn = 0, yn = 1;
        for (int i = 0; i < n2; i++) {
            r[i] = yT[i] - X[i];
            rn = fmax(rn, fabs(r[i]));
            yn = fmax(yn, fabs(X[i]));
        }
        double rh = 0;
        if (nrm) {
            for (int i = 0; i < N; i++)
                rh += nrm[i] * (X[i] - X0[i]);
            rh -= sig;
        }
        /* converged at the run's rounding (as nsm_sim_periodic_orbit); F_p
         * at the solution for its tangent (its runs leave Phi as it is) */
        if ((rn <= 1e-14 * yn || (rn <= 1e-11 * yn && rn >= 0.5 * best)) && fabs(rh) <= 1e-13 * yn) {
            long im = q->impacts;
            if ((rc = cont_fp(c, X, p, yT, im, q->Fp)))
                return rc;
            q->impacts = im;
            return NSM_OK;
        }
        if (it > 0 && rn > 1e3 * best)
            return NSM_ENUMERIC;
        best = fmin(best, rn);
        /* F_p once per solve (a chord in p), at the first iterate */
        if (nrm && it == 0) {
            long im = q->impacts;
            if ((rc = cont_fp(c, X, p, yT, im, q->Fp)))
                return rc;
            q->impacts = im;
        }
        int M = nrm ? N : n2;
        for (int a = 0; a < n2; a++) {
            for (int b = 0; b < n2; b++)
                A[a * M + b] = q->Phi[a * n2 + b] - (a == b);
            if (nrm)
                A[a * M + n2] = q->Fp[a];
            r[a] = -r[a];
        }
        if (nrm) {
            for (int b = 0; b < N; b++)
                A[n2 * N + b] = nrm[b];
            r[n2] = -rh;
        }
        if (nsm_la_solve(M, A, r, 1))
            return NSM_ENUMERIC;
        for (int i = 0; i < M; i++)
            X[i] += r[i];
    }
    return NSM_ENUMERIC;
}

/* The point at arclength sig from a along its tangent, corrected and
** finished; ok = 0 (and NSM_OK) when Newton's method fails there. */
static int cont_at(Cont *c, const Pt *a, double sig, Pt *q, int *ok)
{
    for (int i = 0; i < c->N; i++)
        q->X[i] = a->X[i] + sig * a->tau[i];
    int rc = cont_correct(c, q, a->X, a->tau, sig);
    *ok = 0;
    /* no orbit there: Newton's method fails, the motion leaves free flight
     * between impacts, or an iterate starts inside a gap (the reset refuses
     * it; the parameter itself was accepted at the start) */
    if (rc == NSM_ENUMERIC || rc == NSM_EMETHOD || rc == NSM_EMODEL)
        return NSM_OK;
    if (rc || (rc = cont_finish(c, q, a->tau)))
        return rc == NSM_ENUMERIC ? NSM_OK : rc;
    *ok = 1;
    return NSM_OK;
}

/* Hand a point to the caller's function. */
static int cont_emit(Cont *c, const Pt *q, int kind)
{
    int n2 = c->n2, stable = 1;
    for (int i = 0; i < n2; i++)
        if (!(hypot(q->mre[i], q->mim[i]) < 1))
            stable = 0;
    nsm_cont_point pt = { kind, q->X[n2], q->period, n2, q->X, q->mre, q->mim, stable,
                          q->impacts, q->gmin, q->vmin, q->tau[n2], c->index++, c->p2 };
    if (c->fn && c->fn(c->ud, c->s, &pt))
        return NSM_ESTOPPED;
    return NSM_OK;
}

/* Whether the crossing of test function k at q is a reportable point: a
** Neimark-Sacker crossing needs a complex pair on the unit circle. */
static int cont_genuine(const Cont *c, const Pt *q, int k)
{
    if (k != 2)
        return 1;
    for (int i = 0; i < c->n2; i++)
        if (fabs(q->mim[i]) > 1e-8 && fabs(hypot(q->mre[i], q->mim[i]) - 1) < 1e-6)
            return 1;
    return 0;
}

/* Test function k along the branch from a, for rt_bracket (which orients
** it): the point at arclength x corrected and finished into q. */
typedef struct {
    Cont *c;
    const Pt *a;
    Pt *q;
    int k;
} TestFn;

/* Test function k at arclength x (rt_bracket's callback):
** NSM_ENUMERIC when there is no orbit there. */
static int cont_test_value(void *ud, double x, double *f, double *fd)
{
    TestFn *t = ud;
    int rc, ok;
    if ((rc = cont_at(t->c, t->a, x, t->q, &ok)))
        return rc;
    if (!ok)
        return NSM_ENUMERIC;
    *f = t->q->f[t->k];
    *fd = 0;
    return NSM_OK;
}

/* Locate the zero of test function k between a (sig = 0) and b (sig =
** sb) by the shared bracket (locate.c: the Illinois method, Dowell and
** Jarratt, BIT 11, 1971) on the arclength, to an arclength bracket of
** 1e-2 tol (the parameter then within tol); the point found goes to q. */
static int cont_locate(Cont *c, const Pt *a, const Pt *b, double sb, int k, Pt *q)
{
    TestFn t = { c, a, q, k };
    RtBracket br = { .lo = 0, .hi = sb, .flo = a->f[k], .fhi = b->f[k], .tol = 1e-2 * c->o->tol,
                     .orient = 1 };
    double x = br.flo - br.fhi != 0 ? sb * br.flo / (br.flo - br.fhi) : 0.5 * sb, root, f, fd;
    int rc, at;
    if ((rc = rt_bracket(&br, cont_test_value, &t, x, &root, &at)))
        return rc;
    /* the 200 iterations spent before the bracket closed: q is elsewhere */
    return at ? NSM_OK : cont_test_value(&t, root, &f, &fd);
}

/* Locate the grazing between a (its impact count) and the arclength sb,
** where the branch either has another count or cannot be continued: by
** bisection on "corrected with a's count", each trial predicted from the
** last point with a's count (so that the predictor's error shrinks with the
** bracket and Newton's iterates stay on a's side of the grazing).  lastq
** receives that last point (the grazing orbit, its smallest gap ~ 0). */
static int cont_graze(Cont *c, const Pt *a, double sb, Pt *q, Pt *lastq)
{
    double hi = sb;
    int rc, ok;
    pt_copy(c, lastq, a);
    for (int it = 0; it < 400 && hi > 1e-2 * c->o->tol; it++) {
        double x = 0.5 * hi;
        if ((rc = cont_at(c, lastq, x, q, &ok)))
            return rc;
        if (ok && q->impacts == a->impacts) {
            /* the base moves to q: the bracket is [0, hi - x] from there */
            hi -= x;
            pt_copy(c, lastq, q);
        } else {
            hi = x;
        }
    }
    return NSM_OK;
}

/* The grazing orbit g without impacts (its smallest gap within the event
** detection's tolerance of zero, about 1e-10 of the gap's scale) moved onto
** the zero of the smallest gap: one secant step in the parameter on
** gmin(p), each value from an orbit solved at fixed p, the second
** parameter 1e-7 of the scale back along back_p (where the gap opens).  g
** is replaced only by an orbit still without impacts.  q is scratch. */
static int cont_graze_refine(Cont *c, Pt *g, double back_p, Pt *q)
{
    int n2 = c->n2, rc;
    if (g->impacts || !(fabs(g->gmin) < 1e-6))
        return NSM_OK;
    double p1 = g->X[n2], g1 = g->gmin, p0 = p1 + (back_p >= 0 ? 1 : -1) * 1e-7 * fmax(1, fabs(p1));
    double dir[c->N];
    memset(dir, 0, sizeof dir);
    dir[n2] = 1;
    memcpy(q->X, g->X, sizeof(double) * n2);
    q->X[n2] = p0;
    rc = cont_correct(c, q, NULL, NULL, 0);
    if (!rc && q->impacts == 0)
        rc = cont_finish(c, q, dir);
    if (rc || q->impacts || !(q->gmin != g1))
        return rc == NSM_ENUMERIC || rc == NSM_EMETHOD || rc == NSM_EMODEL ? NSM_OK : rc;
    double ps = p1 - g1 * (p1 - p0) / (g1 - q->gmin);
    memcpy(q->X, g->X, sizeof(double) * n2);
    q->X[n2] = ps;
    rc = cont_correct(c, q, NULL, NULL, 0);
    if (!rc && q->impacts == 0)
        rc = cont_finish(c, q, g->tau);
    if (rc || q->impacts)
        return rc == NSM_ENUMERIC || rc == NSM_EMETHOD || rc == NSM_EMODEL ? NSM_OK : rc;
    pt_copy(c, g, q);
    return NSM_OK;
}

/* Whether g, the last orbit of its impact count found by cont_graze,
** grazes: without impacts its smallest gap, with impacts its smallest impact
** speed near zero, to what the bisection's arclength bracket r = 1e-2 tol
** leaves (the gap grows like the distance to the grazing, the speed like its
** square root; sqrt(r) and r^(1/4) of the state's scale leave room).  A long
** step whose corrector lands on an orbit of another branch also changes the
** count: its last orbit is then far from grazing (a gap of 0.56 m). */
static int cont_grazes(const Cont *c, const Pt *g)
{
    double ys = 1, r = 1e-2 * c->o->tol;
    for (int i = 0; i < c->n2; i++)
        ys = fmax(ys, fabs(g->X[i]));
    return g->impacts ? g->vmin <= sqrt(sqrt(r)) * ys : fabs(g->gmin) <= sqrt(r) * ys;
}

/* Past a grazing orbit g: the orbit of another impact count at the
** parameter p_g + h or p_g - h (Newton's method at fixed p from g's state,
** h growing from 1e-6 of the scale), then its tangent pointing away from
** p_g.  The branch continues from there in q; NSM_ENUMERIC when there is
** none on either side. */
static int cont_past(Cont *c, const Pt *g, double dir_p, Pt *q)
{
    int n2 = c->n2, N = c->N, rc;
    double pg = g->X[n2], scale = fmax(1, fabs(pg)), ys = 1;
    for (int i = 0; i < n2; i++)
        ys = fmax(ys, fabs(g->X[i]));
    for (double h = 1e-6; h <= 1.1e-2; h *= 10)
        for (int side = 0; side < 2; side++)
            /* guesses: g's state, then g's state moved by +-10 h along each
             * axis (Newton's method from g's state alone may fall back to
             * g's own branch, which exists on the same side) */
            for (int k = 0; k <= 2 * n2; k++) {
                double sgn = side ? -dir_p : dir_p, p = pg + sgn * h * scale;
                if (p < c->lo || p > c->hi)
                    continue;
                memcpy(q->X, g->X, sizeof(double) * n2);
                if (k > 0)
                    q->X[(k - 1) / 2] += (k % 2 ? 10 : -10) * h * ys;
                q->X[n2] = p;
                rc = cont_correct(c, q, NULL, NULL, 0);
                if (rc == NSM_ENUMERIC || rc == NSM_EMETHOD || rc == NSM_EMODEL)
                    continue;
                if (rc)
                    return rc;
                if (q->impacts == g->impacts)
                    continue;
                double dir[N];
                memset(dir, 0, sizeof dir);
                dir[n2] = sgn;
                if ((rc = cont_finish(c, q, dir)))
                    return rc;
                /* a partner of the grazing orbit grazes nearly too: its
                 * smallest gap O(h), its impact speed O(sqrt h); another
                 * orbit of that parameter is another branch, not this one */
                if (q->impacts == 0 ? q->gmin <= 10 * h * ys : q->vmin <= 10 * sqrt(h) * ys)
                    return NSM_OK;
            }
    return NSM_ENUMERIC;
}

/* The orbit's period k T at p against the motion of the mode the model
** starts in: the monodromy matrix is computed to about the rounding of its
** entries (order 1), so Phi - I, of order |lambda| k T, keeps
** log10(|lambda| k T / eps) digits; below 1e6 roundings (a period of
** 1e-300 s, where Phi - I is exactly 0) neither Newton's method nor the
** tangent has anything to work on.  A mode without any rate (|lambda| = 0)
** is held to the time resolution at t = 1 s.  NSM_EINVAL with the message
** for such a period; NSM_OK otherwise, also where the period or the start
** cannot be formed at p (the continuation says so when it gets there). */
static int cont_period_check(Cont *c, double p)
{
    nsm_sim *s = c->s;
    double T;
    const RtModeInfo *mi = NULL;
    if (cont_period(c, p, &T) || nsm_sim_reset(s) || !(mi = rt_mode_info(s))) {
        s->msg[0] = 0;
        return NSM_OK;
    }
    /* rk4's and adaptive's modes know their eigenvalues; exact's the
     * balanced norm nu, a bound of every |lambda| (so a refusal by it holds
     * for the eigenvalues too) */
    double w = fmax(mi->rho, mi->nu), floor1 = RT_T_RES * (nextafter(1.0, INFINITY) - 1.0);
    if (w > 0 ? !(w * T < 1e6 * DBL_EPSILON) : !(T < floor1))
        return NSM_OK;
    if (w > 0)
        rt_text_printf(s->msg, sizeof s->msg, "continuation: the orbit's period %s = %.6g s at %s = "
                        "%.17g is too short for the model's motion: its fastest rate, |lambda| up to "
                        "%.6g 1/s, moves the state by at most %.3g of itself over the period, below 1e6 "
                        "roundings (%.3g), so Phi - I is lost in the rounding; give the forcing period "
                        "(--period EXPR, default 2*pi/omega)", c->o->period, T, c->o->param, p, w,
                        w * T, 1e6 * DBL_EPSILON);
    else
        rt_text_printf(s->msg, sizeof s->msg, "continuation: the orbit's period %s = %.6g s at %s = "
                        "%.17g is below the time resolution at t = 1 s (%.3g s); give the forcing "
                        "period (--period EXPR, default 2*pi/omega)", c->o->period, T, c->o->param, p,
                        floor1);
    return NSM_EINVAL;
}

/* The period at both ends of the range (cont_period_check) before any
** run: `nsmc continue --period 1e-300` ran the transient and failed with
** "no tangent" (exit 3).  The parameter is left at p0. */
static int cont_check(Cont *c, double p0)
{
    int rc = cont_period_check(c, c->o->from);
    if (!rc)
        rc = cont_period_check(c, c->o->to);
    nsm_sim_set_param(c->s, c->o->param, p0);
    return rc;
}

/* The refusals of nsm_sim_continue's options that need the model, before
** any run (nsm/nsm.h): a program checks them before it makes its out-dir. */
int nsm_sim_continue_check(nsm_sim *s, const nsm_cont_options *o)
{
    double p0;
    if (!s || !o || !o->param || !o->period || o->periods < 1 || !isfinite(o->from) ||
        !isfinite(o->to) || nsm_sim_get_param(s, o->param, &p0))
        return NSM_EINVAL;
    Cont c = { s, o, 2 * s->n_vel, 2 * s->n_vel + 1, fmin(o->from, o->to), fmax(o->from, o->to),
               0, 0, NULL, NULL, 0, o->periods, NAN, NULL };
    return cont_check(&c, p0);
}

/* The options' defaults (nsm/nsm.h): the forced models' usual period, steps
** that resolve the impact oscillator's branch, 1e-10 on the parameter. */
void nsm_cont_defaults(nsm_cont_options *o)
{
    memset(o, 0, sizeof *o);
    o->period = "2*pi/omega";
    o->periods = 1;
    o->ds = 1e-2;
    o->ds_min = 1e-9;
    o->ds_max = 5e-2;
    o->max_points = 10000;
    o->tol = 1e-10;
    o->transient = 200;
}

/* The first point: the orbit at p = from by Newton's method (from y, or
** from the state after o->transient periods of the model's motion). */
static int cont_start(Cont *c, double *y, Pt *a)
{
    nsm_sim *s = c->s;
    const nsm_cont_options *o = c->o;
    int n2 = c->n2, N = c->N, rc;
    double T;
    if ((rc = cont_period(c, o->from, &T)))
        return rc;
    if (!y || o->transient > 0) {
        if ((rc = nsm_sim_set_initial_state(s, y)) || (rc = nsm_sim_reset(s)) ||
            (rc = nsm_sim_run_until(s, T * (double)(o->transient > 0 ? o->transient : 0))))
            return rc;
        memcpy(a->X, s->y, sizeof(double) * n2);
    } else {
        /* the user's start itself inside a gap is the model's refusal, said so
         * (cont_correct takes its iterates' for Newton failing) */
        if ((rc = nsm_sim_set_initial_state(s, y)) || (rc = nsm_sim_reset(s)))
            return rc;
        memcpy(a->X, y, sizeof(double) * n2);
    }
    a->X[n2] = o->from;
    if ((rc = cont_correct(c, a, NULL, NULL, 0)))
        return rc == NSM_ENUMERIC ? (rt_text_printf(s->msg, sizeof s->msg, "continuation: no periodic "
                                                     "orbit found at %s = %.17g from the start state",
                                                     o->param, o->from), rc) : rc;
    double dir[N];
    memset(dir, 0, sizeof dir);
    dir[n2] = o->to >= o->from ? 1 : -1;
    if (y)
        memcpy(y, a->X, sizeof(double) * n2);
    rc = cont_finish(c, a, dir);
    if (rc == NSM_ENUMERIC && !s->msg[0])
        rt_text_printf(s->msg, sizeof s->msg, "continuation: the first orbit at %s = %.17g has no "
                        "tangent ([Phi - I, F_p] has no one-dimensional kernel, or its multipliers "
                        "cannot be computed): is the period %s right?", o->param, o->from, o->period);
    return rc;
}

/* The special points between a and b (arclength sb): each test function's
** sign change located, reported in the order of the arclength; with clip,
** only those within the parameter's range (b lies beyond its end). */
static int cont_specials(Cont *c, const Pt *a, const Pt *b, double sb, Pt *q, int clip)
{
    static const int kinds[3] = { NSM_CONT_FOLD, NSM_CONT_FLIP, NSM_CONT_NS };
    double at[3];
    int which[3], m = 0, rc;
    Pt found[3];
    for (int k = 0; k < 3; k++) {
        if (!((a->f[k] > 0 && b->f[k] < 0) || (a->f[k] < 0 && b->f[k] > 0)))
            continue;
        if ((rc = pt_alloc(c, &found[m])))
            goto out;
        rc = cont_locate(c, a, b, sb, k, q);
        if (rc == NSM_ENUMERIC || (!rc && !cont_genuine(c, q, k)) ||
            (!rc && clip && (q->X[c->n2] < c->lo || q->X[c->n2] > c->hi))) {
            pt_free(&found[m]);
            continue;
        }
        if (rc) {
            pt_free(&found[m]);
            goto out;
        }
        double sg = 0;
        for (int i = 0; i < c->N; i++)
            sg += a->tau[i] * (q->X[i] - a->X[i]);
        pt_copy(c, &found[m], q);
        at[m] = sg;
        which[m++] = k;
    }
    rc = NSM_OK;
    for (int done = 0; done < m && !rc; done++) {
        int best = -1;
        for (int i = 0; i < m; i++)
            if (which[i] >= 0 && (best < 0 || at[i] < at[best]))
                best = i;
        rc = cont_emit(c, &found[best], kinds[which[best]]);
        if (c->flip && !c->flip->X && which[best] == 1 && !rc && !(rc = pt_alloc(c, c->flip)))
            pt_copy(c, c->flip, &found[best]);
        which[best] = -1;
    }
out:
    for (int i = 0; i < m; i++)
        pt_free(&found[i]);
    return rc;
}

/* Onto the doubled orbit at the period doubling f (branch switching): the
** map over twice the periods has a pitchfork there, its new branch tangent
** to (v, 0), v the eigenvector of Phi for the multiplier -1 (Kuznetsov,
** Elements of Applied Bifurcation Theory, 3rd ed. 2004, sec. 10.2).  v by
** inverse iteration on Phi + I (shifted off exact singularity); the first
** orbit of the doubled branch is corrected on the hyperplane v . (y - y_f)
** = ds into b, finished, and emitted as NSM_CONT_SWITCH.  NSM_ENUMERIC, with
** a message, when no doubled orbit is found. */
static int cont_switch(Cont *c, Pt *f, Pt *b)
{
    int n2 = c->n2, rc, ok = 0;
    double v[n2], A[n2 * n2], nrm = 0;
    for (int i = 0; i < n2; i++)
        v[i] = 1 + 0.1 * i;
    for (int it = 0; it < 3; it++) {
        for (int i = 0; i < n2 * n2; i++)
            A[i] = f->Phi[i] + (i % (n2 + 1) == 0) * (1 + 1e-9);
        if (nsm_la_solve(n2, A, v, 1))
            return NSM_ENUMERIC;
        nrm = 0;
        for (int i = 0; i < n2; i++)
            nrm += v[i] * v[i];
        nrm = sqrt(nrm);
        if (!(nrm > 0) || !isfinite(nrm))
            return NSM_ENUMERIC;
        for (int i = 0; i < n2; i++)
            v[i] /= nrm;
    }
    c->periods *= 2;
    for (int i = 0; i < n2; i++)
        f->tau[i] = v[i];
    f->tau[n2] = 0;
    for (double ds = c->o->ds; ds >= 1e-6 && !ok; ds /= 4)
        if ((rc = cont_at(c, f, ds, b, &ok)))
            return rc;
    if (!ok) {
        rt_text_printf(c->s->msg, sizeof c->s->msg, "continuation: no doubled orbit found next to the "
                        "period doubling at %s = %.17g", c->o->param, f->X[n2]);
        return NSM_ENUMERIC;
    }
    return cont_emit(c, b, NSM_CONT_SWITCH);
}

/* The branch or curve stopped at its point cap (max_points) at param p,
** inside its range: said (the run ended with NSM_OK and no word, a
** 10000-point branch creeping toward a grazing taken for a whole one) and
** kept for nsm_sim_continue_short. */
RT_COLD static void cont_capped(Cont *c, double p, const char *what)
{
    const nsm_cont_options *o = c->o;
    char at[32], to[32];
    c->s->cont_short = NSM_CONT_SHORT_CAP;
    rt_text_printf(c->s->msg, sizeof c->s->msg, "continuation: the %s stopped at its point cap "
                   "(max_points = %ld) at %s = %s, before the end of its range at %s: "
                   "the rest was not followed (a larger max_points, --max-points, goes on)",
                   what, o->max_points, o->param, rt_text_shortest(at, sizeof at, p),
                   rt_text_shortest(to, sizeof to, o->to));
}

/* The branch's last RT_CONT_CREEP_STEPS steps were each shorter than
** RT_CONT_CREEP_RATIO of ds (Newton's method converging only on ever
** shorter steps, as toward a grazing whose impact speed falls as the
** square root of the distance, which the steps never cross): stopped and
** said, rather than creeping to the point cap. */
RT_COLD static void cont_creeping(Cont *c, const Pt *b, double ds)
{
    const nsm_cont_options *o = c->o;
    char speed[160] = "";
    if (b->impacts > 0 && b->vmin > 0)
        rt_text_printf(speed, sizeof speed, "; its smallest impact speed is down to %.3g m/s, "
                       "as toward a grazing it cannot reach", b->vmin);
    char at[32], to[32];
    c->s->cont_short = NSM_CONT_SHORT_CREEP;
    rt_text_printf(c->s->msg, sizeof c->s->msg, "continuation: the branch stopped at %s = %s, "
                   "before the end of its range at %s: its last %d steps were each shorter "
                   "than %g of ds = %g (the last %.3g; Newton's method converges only on ever "
                   "shorter steps)%s", o->param, rt_text_shortest(at, sizeof at, b->X[c->n2]),
                   rt_text_shortest(to, sizeof to, o->to), RT_CONT_CREEP_STEPS,
                   RT_CONT_CREEP_RATIO, o->ds, ds, speed);
}

/* Whether the last continuation stopped before the end of its range; see
** nsm/nsm.h. */
int nsm_sim_continue_short(const nsm_sim *s)
{
    return s ? s->cont_short : 0;
}

/* ---- Two-parameter curves of fold, period-doubling and grazing points ----
** The extended system G(X) = (P(y, p, q) - y, g(y, p, q)) = 0 in X = (y, p,
** q), p = param, q = param2, with the bifurcation condition g = det(Phi - I)
** (fold), det(Phi + I) (period doubling: Kuznetsov 2004, sec. 10.3) or, for
** a grazing, the smallest gap over the period of the orbit of the free flow
** (no impacts).  Its solution set is a curve, followed by pseudo-arclength
** continuation in X as the branch is in (y, p).  The Jacobian of G is a
** central difference of G (the step of cont_fp in each coordinate): it
** enters Newton's method only, the points are zeros of G to its rounding. */

/* A curve's working values at X: G (n2 + 1), the orbit's Phi (n2 x n2),
** its impact count. */
typedef struct CurveVal {
    double *G, *Phi;
    long impacts;
    double vmin, gmin, period;
} CurveVal;

/* The free flow's map over the period from y (rt_advance, no impacts) into
** yT; the model's mode at y must be free. */
static int curve_free_map(Cont *c, const double *y, double p, double *yT, double *T)
{
    nsm_sim *s = c->s;
    int rc;
    if ((rc = cont_period(c, p, T)) || (rc = nsm_sim_set_initial_state(s, y)) || (rc = nsm_sim_reset(s)))
        return rc;
    if (!rt_mode_empty(s, s->mode)) {
        rt_text_printf(s->msg, sizeof s->msg, "continuation: the grazing curve needs the orbit in free "
                        "flight (%s = %.17g)", c->o->param, p);
        return NSM_EMETHOD;
    }
    double Y0[s->n_state], Y1[s->n_state];
    memcpy(Y0, s->y, sizeof Y0);
    if ((rc = rt_advance(s, 0, Y0, *T, Y1)))
        return rc;
    memcpy(yT, Y1, sizeof(double) * (size_t)c->n2);
    return NSM_OK;
}

/* G at X into v (with Phi, impacts and the smallest gap or impact speed):
** the second parameter set, then the orbit's map and the condition. */
static int curve_eval(Cont *c, const double *X, CurveVal *v)
{
    int n2 = c->n2, rc;
    double yT[n2], B[n2 * n2];
    c->p2 = X[n2 + 1];
    if ((rc = nsm_sim_set_param(c->s, c->o->param2, X[n2 + 1])))
        return rc;
    v->gmin = 0;
    if (c->o->curve == NSM_CONT_GRAZING) {
        if ((rc = curve_free_map(c, X, X[n2], yT, &v->period)) ||
            (rc = cont_gap_min(c, X, X[n2], &v->gmin)))
            return rc;
        v->impacts = 0, v->vmin = 0;
        v->G[n2] = v->gmin;
    } else {
        if ((rc = cont_map(c, X, X[n2], yT, v->Phi, &v->period)))
            return rc;
        v->impacts = c->impacts;
        v->vmin = c->impacts ? c->vmin : 0;
        double sg = c->o->curve == NSM_CONT_FLIP ? 1 : -1;
        for (int i = 0; i < n2 * n2; i++)
            B[i] = v->Phi[i] + sg * (i % (n2 + 1) == 0);
        v->G[n2] = det_of(n2, B);
    }
    for (int i = 0; i < n2; i++)
        v->G[i] = yT[i] - X[i];
    return NSM_OK;
}

/* The Jacobian of G at X ((n2 + 1) rows of n2 + 2, in the first rows of the
** (n2 + 2)-square A) by central differences; the impact count must stay
** that of the base (im), else the curve is at a grazing: NSM_ENUMERIC. */
static int curve_jacobian(Cont *c, const double *X, long im, double *A)
{
    int n2 = c->n2, M = n2 + 2, rc;
    double Xh[M], Ga[n2 + 1], Gb[n2 + 1], Pa[n2 * n2];
    CurveVal va = { Ga, Pa, 0, 0, 0, 0 }, vb = { Gb, Pa, 0, 0, 0, 0 };
    for (int j = 0; j < M; j++) {
        double h = 6.0554544523933395e-06 * fmax(1, fabs(X[j]));
        memcpy(Xh, X, sizeof Xh);
        Xh[j] = X[j] + h;
        if ((rc = curve_eval(c, Xh, &va)))
            return rc;
        Xh[j] = X[j] - h;
        if ((rc = curve_eval(c, Xh, &vb)))
            return rc;
        if (va.impacts != im || vb.impacts != im)
            return NSM_ENUMERIC;
        for (int i = 0; i <= n2; i++)
            A[i * M + j] = (Ga[i] - Gb[i]) / (2 * h);
    }
    return NSM_OK;
}

/* Newton's method on G = 0 with the hyperplane nrm . (X - X0) = sig, from
** the guess in X; on success v holds G, Phi and the rest at the solution
** and tau (when given) the curve's unit tangent oriented along nrm.
** Converged when the step is at 1e-12 of the coordinates' scale (or stalls
** below 1e-10 at their rounding).  NSM_ENUMERIC when it does not converge,
** or the impact count changes (im >= 0: the count to keep). */
static int curve_correct(Cont *c, double *X, const double *X0, const double *nrm, double sig,
                         long im, CurveVal *v, double *tau)
{
    int n2 = c->n2, M = n2 + 2, rc;
    double A[M * M], r[M], last = HUGE_VAL;
    for (int it = 0; it < 16; it++) {
        if ((rc = curve_eval(c, X, v)))
            return rc;
        if (im >= 0 && v->impacts != im)
            return NSM_ENUMERIC;
        if ((rc = curve_jacobian(c, X, v->impacts, A)))
            return rc;
        for (int i = 0; i <= n2; i++)
            r[i] = -v->G[i];
        r[M - 1] = sig;
        for (int b = 0; b < M; b++) {
            A[(M - 1) * M + b] = nrm[b];
            r[M - 1] -= nrm[b] * (X[b] - X0[b]);
        }
        if (nsm_la_solve(M, A, r, 1))
            return NSM_ENUMERIC;
        double step = 0;
        for (int i = 0; i < M; i++) {
            X[i] += r[i];
            step = fmax(step, fabs(r[i]) / fmax(1, fabs(X[i])));
        }
        if (!(step == step) || step > 1e3 * fmax(last, 1e-3))
            return NSM_ENUMERIC;
        if (step <= 1e-12 || (step <= 1e-10 && step >= 0.5 * last)) {
            if ((rc = curve_eval(c, X, v)) || (im >= 0 && v->impacts != im))
                return rc ? rc : NSM_ENUMERIC;
            if (!tau)
                return NSM_OK;
            if ((rc = curve_jacobian(c, X, v->impacts, A)))
                return rc;
            return cont_kernel(M, A, nrm, tau);
        }
        last = step;
    }
    return NSM_ENUMERIC;
}

/* A point of the curve to the caller: multipliers of Phi (for a grazing, of
** the free flow's monodromy, D_y P = D_y G + I, from the tangent's
** Jacobian), dp/ds the tangent's first parameter's component. */
static int curve_emit(Cont *c, const double *X, const CurveVal *v, const double *tau)
{
    int n2 = c->n2, M = n2 + 2, rc;
    double mre[n2], mim[n2], A[M * M], Phi[n2 * n2];
    if (c->o->curve == NSM_CONT_GRAZING) {
        if ((rc = curve_jacobian(c, X, 0, A)))
            return rc;
        for (int a = 0; a < n2; a++)
            for (int b = 0; b < n2; b++)
                Phi[a * n2 + b] = A[a * M + b] + (a == b);
    } else {
        memcpy(Phi, v->Phi, sizeof Phi);
    }
    if (nsm_la_eigvals(n2, Phi, mre, mim))
        return NSM_ENUMERIC;
    mu_sort(n2, mre, mim);
    int stable = 1;
    for (int i = 0; i < n2; i++)
        if (!(hypot(mre[i], mim[i]) < 1))
            stable = 0;
    c->p2 = X[n2 + 1];
    nsm_cont_point pt = { c->o->curve, X[n2], v->period, n2, X, mre, mim, stable, v->impacts,
                          v->gmin, v->vmin, tau[n2], c->index++, X[n2 + 1] };
    if (c->fn && c->fn(c->ud, c->s, &pt))
        return NSM_ESTOPPED;
    return NSM_OK;
}

/* The branch's callback while a curve looks for its first point: keeps the
** first point of the curve's kind and stops the branch there. */
static int curve_catch(void *ud, const nsm_sim *sim, const nsm_cont_point *pt)
{
    Cont *c = ud;
    (void)sim;
    if (pt->kind != c->o->curve)
        return 0;
    memcpy(c->flip->X, pt->y, sizeof(double) * (size_t)c->n2);
    c->flip->X[c->n2] = pt->param;
    return 1;
}

/* The curve (nsm_sim_continue with o->curve): its first point from the
** branch at param2 = from2, then predictor-corrector steps in (y, p, q) as
** the branch's, until it leaves the box, meets a grazing or runs out of
** points. */
static int curve_follow(Cont *c, double *y)
{
    nsm_sim *s = c->s;
    const nsm_cont_options *o = c->o;
    int n2 = c->n2, M = n2 + 2, rc;
    double X[M], Xa[M], tau[M], ta[M], dir[M], G[n2 + 1], Phi[n2 * n2];
    double lo2 = fmin(o->from2, o->to2), hi2 = fmax(o->from2, o->to2);
    CurveVal v = { G, Phi, 0, 0, 0, 0 };
    Pt first = { 0 };
    if ((rc = pt_alloc(c, &first)))
        return rc;
    nsm_cont_options ob = *o;
    ob.curve = 0, ob.switch_pd = 0;
    Cont cb = *c;
    cb.flip = &first;
    if ((rc = nsm_sim_set_param(s, o->param2, o->from2)))
        goto out;
    rc = nsm_sim_continue(s, &ob, y, curve_catch, &cb);
    if (rc != NSM_ESTOPPED) {
        if (!rc) {
            /* a branch stopped inside its range (its point cap, a creeping
             * or a grazing it cannot pass) says why: "has no fold point"
             * blamed the range when --max-points 2 had cut the branch
             * before its period doubling */
            char why[sizeof s->msg];
            const char *kind = o->curve == NSM_CONT_FOLD ? "fold"
                               : o->curve == NSM_CONT_FLIP ? "period-doubling" : "grazing";
            const char *said = strncmp(s->msg, "continuation: ", 14) ? s->msg : s->msg + 14;
            size_t n = strlen(said);
            n = n < sizeof why ? n : sizeof why - 1;
            memcpy(why, said, n);
            why[n] = 0;
            if (*why)
                rt_text_printf(s->msg, sizeof s->msg, "continuation: the branch of %s from %.17g "
                               "toward %.17g at %s = %.17g met no %s point to start the curve "
                               "from before it stopped: %s", o->param, o->from, o->to, o->param2,
                               o->from2, kind, why);
            else
                rt_text_printf(s->msg, sizeof s->msg, "continuation: the branch of %s from %.17g "
                               "to %.17g at %s = %.17g has no %s point to start the curve from",
                               o->param, o->from, o->to, o->param2, o->from2, kind);
            rc = NSM_ENUMERIC;
        }
        goto out;
    }
    memcpy(X, first.X, sizeof(double) * (size_t)(n2 + 1));
    X[n2 + 1] = o->from2;
    memset(dir, 0, sizeof dir);
    dir[n2 + 1] = o->to2 >= o->from2 ? 1 : -1;
    memcpy(Xa, X, sizeof Xa);
    /* the first point solved at q = from2 (the hyperplane fixes q) */
    if ((rc = curve_correct(c, X, Xa, dir, 0, -1, &v, tau))) {
        if (rc == NSM_ENUMERIC)
            rt_text_printf(s->msg, sizeof s->msg, "continuation: the curve's extended system has no "
                            "solution next to %s = %.17g, %s = %.17g", o->param, first.X[n2], o->param2,
                            o->from2);
        goto out;
    }
    long im = v.impacts, points = 1;
    if ((rc = curve_emit(c, X, &v, tau)))
        goto out;
    double ds = o->ds;
    for (;;) {
        if (points >= o->max_points) {
            cont_capped(c, X[n2], "curve");
            break;
        }
        memcpy(Xa, X, sizeof Xa);
        memcpy(ta, tau, sizeof ta);
        for (int i = 0; i < M; i++)
            X[i] = Xa[i] + ds * ta[i];
        rc = curve_correct(c, X, Xa, ta, ds, im, &v, tau);
        if (rc == NSM_ENUMERIC || rc == NSM_EMETHOD || rc == NSM_EMODEL) {
            memcpy(X, Xa, sizeof Xa);
            memcpy(tau, ta, sizeof tau);
            if (ds > 16 * o->ds_min) {
                ds /= 2;
                continue;
            }
            rt_text_printf(s->msg, sizeof s->msg, "continuation: the curve cannot be continued past %s = "
                            "%.17g, %s = %.17g (Newton's method fails there, or the orbit's impacts "
                            "change: a grazing)", o->param, X[n2], o->param2, X[n2 + 1]);
            rc = NSM_OK;
            break;
        }
        if (rc)
            break;
        if (X[n2] < c->lo || X[n2] > c->hi || X[n2 + 1] < lo2 || X[n2 + 1] > hi2)
            break;
        if ((rc = curve_emit(c, X, &v, tau)))
            break;
        points++;
        ds = fmin(1.5 * ds, o->ds_max);
    }
out:
    pt_free(&first);
    return rc;
}

/* The branch from o->from (nsm/nsm.h): predictor-corrector steps with the
** step halved where Newton's method fails and grown by 1.5 where it
** succeeds; the special points between two points, grazings, and the way
** on past them. */
int nsm_sim_continue(nsm_sim *s, const nsm_cont_options *o, double *y, nsm_cont_fn fn, void *ud)
{
    if (!s || !o || !o->param || !o->period || o->periods < 1 || !isfinite(o->from) ||
        !isfinite(o->to) || !(o->ds > 0) || !(o->ds_min > 0) || !(o->ds_min <= o->ds) ||
        !(o->ds_max >= o->ds) ||
        !(o->tol > 0) || o->max_points < 1)
        return NSM_EINVAL;
    if (rt_floquet_rigid_check(s, "continuation"))
        return NSM_EMETHOD;
    double p0;
    if (nsm_sim_get_param(s, o->param, &p0))
        return NSM_EINVAL;
    Pt flip = { 0 };
    Cont c = { s, o, 2 * s->n_vel, 2 * s->n_vel + 1, fmin(o->from, o->to), fmax(o->from, o->to),
               0, 0, fn, ud, 0, o->periods, NAN, o->switch_pd ? &flip : NULL };
    s->msg[0] = 0;
    s->cont_short = 0;
    int rc0 = cont_check(&c, p0);
    if (rc0)
        return rc0;
    if (o->curve) {
        double q0;
        if ((o->curve != NSM_CONT_FOLD && o->curve != NSM_CONT_FLIP && o->curve != NSM_CONT_GRAZING) ||
            !o->param2 || !strcmp(o->param2, o->param) || !isfinite(o->from2) || !isfinite(o->to2) ||
            nsm_sim_get_param(s, o->param2, &q0))
            return NSM_EINVAL;
        nsm_event_fn ev_fn = s->set.on_event;
        void *ev_ud = s->set.ev_ud;
        nsm_sim_set_event_handler(s, cont_event, &c);
        int rc = curve_follow(&c, y);
        nsm_sim_set_event_handler(s, ev_fn, ev_ud);
        nsm_sim_set_param(s, o->param, p0);
        nsm_sim_set_param(s, o->param2, q0);
        return rc;
    }
    nsm_event_fn ev_fn = s->set.on_event;
    void *ev_ud = s->set.ev_ud;
    nsm_sim_set_event_handler(s, cont_event, &c);
    Pt a = { 0 }, b = { 0 }, q = { 0 }, g = { 0 };
    int rc = pt_alloc(&c, &a);
    if (!rc)
        rc = pt_alloc(&c, &b);
    if (!rc)
        rc = pt_alloc(&c, &q);
    if (!rc)
        rc = pt_alloc(&c, &g);
    if (!rc)
        rc = cont_start(&c, y, &a);
    if (!rc)
        rc = cont_emit(&c, &a, NSM_CONT_START);
    double ds = o->ds;
    long points = 1, creeping = 0;
    while (!rc) {
        if (points >= o->max_points) {
            cont_capped(&c, a.X[c.n2], "branch");
            break;
        }
        int ok;
        if ((rc = cont_at(&c, &a, ds, &b, &ok)))
            break;
        if (ok && b.impacts == a.impacts) {
            double pb = b.X[c.n2];
            int out = pb < c.lo || pb > c.hi;
            /* a step that left the range: the points between a and the
             * range's end are still the branch's (a step of --ds 1 stepped
             * over the period doubling at 2.6589 unreported), and switch_pd
             * still switches at such a doubling */
            if ((rc = cont_specials(&c, &a, &b, ds, &q, out)) ||
                (out && !(c.flip && c.flip->X && c.periods == o->periods)))
                break;
            if (c.flip && c.flip->X && c.periods == o->periods) {
                /* switch_pd: the doubled branch instead of b */
                rc = cont_switch(&c, c.flip, &b);
                if (rc == NSM_ENUMERIC)
                    rc = NSM_OK;
                else if (!rc) {
                    points++;
                    pt_copy(&c, &a, &b);
                    ds = o->ds;
                    continue;
                }
                break;
            }
            if ((rc = cont_emit(&c, &b, NSM_CONT_REGULAR)))
                break;
            points++;
            creeping = ds < RT_CONT_CREEP_RATIO * o->ds ? creeping + 1 : 0;
            if (creeping >= RT_CONT_CREEP_STEPS) {
                cont_creeping(&c, &b, ds);
                break;
            }
            pt_copy(&c, &a, &b);
            ds = fmin(1.5 * ds, o->ds_max);
            continue;
        }
        if (!ok && ds > 16 * o->ds_min) {
            ds /= 2;
            continue;
        }
        /* another impact count ahead (or no orbit ahead at all): a grazing */
        if ((rc = cont_graze(&c, &a, ds, &q, &g)))
            break;
        if (ok && !cont_grazes(&c, &g)) {
            /* the step landed on another branch: a shorter one stays on a's */
            if (ds > 16 * o->ds_min) {
                ds /= 2;
                continue;
            }
            rt_text_printf(s->msg, sizeof s->msg, "continuation: the branch cannot be continued past "
                            "%s = %.17g, where its orbit does not graze: a step of %g ahead lands on an "
                            "orbit of another impact count", o->param, g.X[c.n2], ds);
            break;
        }
        double back = -a.tau[c.n2];
        rc = cont_past(&c, &g, a.tau[c.n2] >= 0 ? 1 : -1, &b);
        if (rc && rc != NSM_ENUMERIC)
            break;
        int past = rc == NSM_OK;
        if (past && g.impacts && b.impacts == 0) {
            /* from the impacting side the orbits near the grazing escape
             * Newton's method (the impact map's square root): locate the
             * grazing again from the side without impacts, backward along
             * b's branch, to the distance between b and g and more */
            double dist = 0;
            for (int i = 0; i < c.N; i++)
                dist += (b.X[i] - g.X[i]) * (b.X[i] - g.X[i]);
            pt_copy(&c, &a, &b);
            for (int i = 0; i < c.N; i++)
                a.tau[i] = -a.tau[i];
            back = -a.tau[c.n2];
            if ((rc = cont_graze(&c, &a, 2 * sqrt(dist) + 1e-3 * o->ds, &q, &g)))
                break;
        }
        if ((rc = cont_graze_refine(&c, &g, back, &q)))
            break;
        if (!past && g.impacts == 0 && !(fabs(g.gmin) < 1e-6)) {
            rt_text_printf(s->msg, sizeof s->msg, "continuation: the branch cannot be continued past "
                            "%s = %.17g (Newton's method fails there)", o->param, g.X[c.n2]);
            break;
        }
        if (!cont_grazes(&c, &g)) {
            /* steps held long by ds_min crossed to another branch */
            rt_text_printf(s->msg, sizeof s->msg, "continuation: the branch cannot be continued past "
                            "%s = %.17g, where its orbit does not graze: the orbits a step of %g ahead "
                            "are of another impact count (a smaller --ds-min may follow it)", o->param,
                            g.X[c.n2], ds);
            break;
        }
        if ((rc = cont_emit(&c, &g, NSM_CONT_GRAZING)))
            break;
        points++;
        if (!past) {
            rt_text_printf(s->msg, sizeof s->msg, "continuation: no orbit past the grazing at %s = %.17g",
                            o->param, g.X[c.n2]);
            break;
        }
        if ((rc = cont_emit(&c, &b, NSM_CONT_REGULAR)))
            break;
        points++;
        pt_copy(&c, &a, &b);
        ds = o->ds;
    }
    nsm_sim_set_event_handler(s, ev_fn, ev_ud);
    nsm_sim_set_param(s, o->param, p0);
    pt_free(&a), pt_free(&b), pt_free(&q), pt_free(&g), pt_free(&flip);
    return rc;
}
