/*
** mode.c: what the runtime knows of a mode once it has met it.
**
** Inside a mode the motion is linear.  On the augmented state
** Z = (x, v, z, 1) (z the forcing generator's state, 1 the constant that
** carries gravity, rest lengths and gap offsets) it is Z' = A Z, and every
** event function of the mode is a linear form c_j . Z.  This file builds,
** once per mode and switch state, the augmented matrix A, the quadratic
** forms of the dissipated power and of the external work, the event forms,
** and the figures the integrators' steps are bounded by:
**
**   nu       ||D^-1 A D||_inf after balancing (D diagonal, powers of two):
**            the Taylor series of exp(A tau) Z converges like (nu tau)^k/k!,
**            which is what the exact method's step and its guarantee on
**            event detection rest on (docs/theory.md, "No missed event");
**   h_rk4    the largest step for which h lambda lies in classical RK4's
**   h_dp5    (or Dormand-Prince 5's) stability region for every eigenvalue
**            lambda of the mechanical block of A;
**   rho      the largest |lambda| of A (the forcing's included): rk4
**            resolves the mode's motion with steps up to RT_RK4_REACH/rho.
**
** A model past RT_DENSE_NA states stepped by rk4 or adaptive (without
** friction, K and C symmetric) gets h_rk4, h_dp5 and rho from a bound on
** the spectrum over the nonzeros instead (mode_bounds); its A is not
** formed (NULL).
**
** The exact method past s->set.dense_na states (without friction, moving
** surfaces or a forcing generator; K, C symmetric) takes the mode as an
** operator instead (modeop.c): no matrix, no dense event forms.
**
** The cache holds RT_MODES modes, least recently used out.  It is the one
** place where a mode's matrices are formed (the exact method's propagators
** and the Zeno tail use them too).
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "law.h"
#include "linalg.h"
#include "rt.h"

#define NSM_ERANGE_MODE 100     /* mode_spectrum: a matrix entry is not finite */
#define RT_PI 3.14159265358979323846

/* True when no bit of mode m is set (every gap open, every friction element
** slipping forwards). */
int rt_mode_empty(const nsm_sim *s, const unsigned *m)
{
    for (int w = 0; w < s->mode_words; w++)
        if (m[w])
            return 0;
    return 1;
}

/* Number of bits set in m. */
int rt_mode_count(const nsm_sim *s, const unsigned *m)
{
    int c = 0;
    for (int w = 0; w < s->mode_words; w++)
        for (unsigned b = m[w]; b; b &= b - 1)
            c++;
    return c;
}

/* Hash of mode m (FNV-1a over its words): the caches keyed by a mode
** compare hashes first, then the words. */
unsigned long rt_mode_hash(const nsm_sim *s, const unsigned *m)
{
    unsigned long h = 14695981039346656037ul;
    for (int w = 0; w < s->mode_words; w++) {
        h ^= m[w];
        h *= 1099511628211ul;
    }
    return h;
}

/* Key of the switch states (the forcing of each piece differs). */
unsigned long rt_switch_key(const nsm_sim *s)
{
    unsigned long k = 0;
    for (int i = 0; i < s->n_switches && i < 64; i++)
        k = k << 1 | (unsigned long)(s->sw[i] != 0);
    return k;
}

/* Whether gap j's event function in mode is its held force lambda (its
** law's form says so, law.h): then mode_matrices fills its row with the
** force's columns, else event_forms wrote the law's linear form there. */
static int form_is_force(const nsm_sim *s, const unsigned *mode, int j)
{
    rt_gap_form f;
    rt_law_of(s, j)->form(s, j, rt_mode_has(mode, j), &f);
    return f.force;
}

/* The augmented matrix A (na*na) of mode on Z = (x, v, z, 1) and the
** quadratic forms whose integrals are the dissipated energy (Qd) and the
** work of the external forces (Qw).  Columns of the velocity rows come from
** the generic accelerations, which are linear in (x, v, f) when the affine
** constants are switched off; the same solves give the rows of ev of the
** held impact contacts (their forces).  Without a forcing generator
** (n_gen = 0) the forcing is left out: A is then the homogeneous part,
** which is all the step bounds of rk4 and adaptive need. */
static int mode_matrices(nsm_sim *s, const unsigned *mode, double *A, double *Qd, double *Qw, double *ev)
{
    int n = s->n_vel, g = s->n_gaps, ng = s->m->n_gen, na = s->n_aug, rc = NSM_OK;
    size_t na2 = (size_t)na * na;
    double *G = calloc((size_t)(ng ? ng * ng : 1), sizeof(double));
    double *B = calloc((size_t)(ng ? n * ng : 1), sizeof(double));
    double zero[n], unit[n], F[n], a[n], lam[g > 0 ? g : 1], lamf[s->n_fric + 1], hdd[g > 0 ? g : 1];
    double *L = calloc((size_t)(s->n_fric ? s->n_fric * na : 1), sizeof(double));
    if (!G || !B || !L) {
        free(G);
        free(B);
        free(L);
        return NSM_ENOMEM;
    }
    if (ng && s->m->generator)
        s->m->generator(s->sw, s->params, s->consts, G, B);
    memset(A, 0, sizeof(double) * na2);
    memset(Qd, 0, sizeof(double) * na2);
    memset(Qw, 0, sizeof(double) * na2);
    memset(zero, 0, sizeof zero);
    for (int i = 0; i < n; i++)
        A[(size_t)i * na + n + i] = 1;
    int force_row[g > 0 ? g : 1];       /* the gaps whose law's event here is their force */
    for (int j = 0; j < g; j++)
        force_row[j] = form_is_force(s, mode, j);
    for (int col = 0; col < na && !rc; col++) {
        memset(unit, 0, sizeof unit);
        /* a moving surface's acceleration h_j'' = (H G^2)_j . z: its z columns */
        for (int j = 0; j < g; j++) {
            const double *r2 = col >= 2 * n && col < 2 * n + ng ? rt_surface_row(s, j, 2) : NULL;
            hdd[j] = r2 ? r2[col - 2 * n] : 0;
        }
        if (col < 2 * n) {
            unit[col % n] = 1;
            rt_force_parts(s, mode, col < n ? unit : zero, col < n ? zero : unit, NULL, 0, F);
        } else if (col < 2 * n + ng) {
            for (int i = 0; i < n; i++)
                unit[i] = B[(size_t)i * ng + (col - 2 * n)];
            rt_force_parts(s, mode, zero, zero, unit, 0, F);
        } else {
            rt_force_parts(s, mode, zero, zero, NULL, 1, F);
        }
        rc = rt_accel_surf(s, mode, F, hdd, a, lam, lamf);
        for (int i = 0; i < n; i++)
            A[(size_t)(n + i) * na + col] = a[i];
        for (int k = 0; k < s->n_fric; k++)  /* a stuck friction element's force */
            L[(size_t)k * na + col] = lamf[k];
        for (int j = 0; j < g; j++)     /* a held contact's force, column by column */
            if (force_row[j])
                ev[(size_t)j * na + col] = lam[j];
    }
    for (int r = 0; r < ng; r++)
        for (int q = 0; q < ng; q++)
            A[(size_t)(2 * n + r) * na + 2 * n + q] = G[r * ng + q];
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++) {
            double c = rt_csr_get(&s->sp.C, i, k);
            for (int j = 0; j < s->n_gaps; j++)
                if (rt_law_engaged(s, mode, j))
                    c += rt_law_damping(s, mode, j) * rt_csr_get(&s->sp.W, j, i) *
                         rt_csr_get(&s->sp.W, j, k);
            Qd[(size_t)(n + i) * na + n + k] = c;
        }
    for (int i = 0; i < n; i++)
        for (int k = 0; k < ng; k++) {
            double b = 0.5 * B[(size_t)i * ng + k];
            Qw[(size_t)(n + i) * na + 2 * n + k] = b;
            Qw[(size_t)(2 * n + k) * na + n + i] = b;
        }
    if (s->n_fric)
        rt_fric_forms(s, mode, L, ev, ev + (size_t)g * na, Qd, Qw);
    /* the work of a moving surface through its held contact: lambda_j w_j . v */
    for (int j = 0; j < g && s->moving; j++) {
        if (!s->m->gap_moving[j] || !rt_law_held(s, mode, j))
            continue;
        double wd[n];
        const double *w = rt_dense_wrow(s, j, wd), *lr = ev + (size_t)j * na;
        for (int i = 0; i < n; i++)
            for (int q = 0; q < na; q++) {
                double h = 0.5 * w[i] * lr[q];
                Qw[(size_t)(n + i) * na + q] += h;
                Qw[(size_t)q * na + n + i] += h;
            }
    }
    free(G);
    free(B);
    free(L);
    return rc;
}

/* The event forms of mode, from each gap's law (its form, law.h): event
** function j is ev[j] . Z, and when the law gives a second form (an open
** penalty gap released by force), max(ev[j] . Z, ev2[j] . Z) (has2[j] set),
** as in the table of nsm/model.h.  A closed impact gap's force is linear
** in Z too; mode_matrices fills its row, column by column, from the
** constrained accelerations of unit states. */
static void event_forms(nsm_sim *s, const unsigned *mode, double *ev, double *ev2, int *has2)
{
    int n = s->n_vel, g = s->n_gaps, na = s->n_aug;
    memset(ev, 0, sizeof(double) * (size_t)s->n_events * na);
    memset(ev2, 0, sizeof(double) * (size_t)s->n_events * na);
    for (int j = g; j < s->n_events; j++)
        has2[j] = 0;                    /* friction: rt_fric_forms fills its rows */
    for (int j = 0; j < g; j++) {
        double wd[n];
        const double *w = rt_dense_wrow(s, j, wd);
        double d = s->num.d[j];
        double *e = ev + (size_t)j * na, *e2 = ev2 + (size_t)j * na;
        rt_gap_form f;                  /* the law's: sx gap + sv gap' (law.h) */
        rt_law_of(s, j)->form(s, j, rt_mode_has(mode, j), &f);
        has2[j] = 0;
        if (f.force)
            continue;                   /* a force: mode_matrices fills it */
        for (int i = 0; i < n; i++) {
            e[i] = f.sx * w[i];
            e[n + i] = f.sv * w[i];
        }
        e[na - 1] = f.sx * d;
        const double *hz = s->moving ? rt_surface_row(s, j, 0) : NULL;
        for (int q = 0; hz && q < s->m->n_gen; q++)   /* a moving surface: h_j = H_j . z */
            e[2 * n + q] = hz[q];
        if (f.second) {
            has2[j] = 1;                /* e.g. re-entry after a force release: k gap + c gap' */
            for (int i = 0; i < n; i++) {
                e2[i] = f.sx2 * w[i];
                e2[n + i] = f.sv2 * w[i];
            }
            e2[na - 1] = f.sx2 * d;
        }
    }
}

/* |R(z)| of a stability polynomial with coefficients 1/k! up to degree 4
** (classical RK4), or Dormand-Prince 5's 1 + ... + z^5/120 + z^6/600. */
static double stab_abs(int dp5, double zr, double zi)
{
    static const double rk4[] = { 1, 1, 1.0 / 2, 1.0 / 6, 1.0 / 24 };
    static const double dp[] = { 1, 1, 1.0 / 2, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 600 };
    const double *c = dp5 ? dp : rk4;
    int deg = dp5 ? 6 : 4;
    double pr = c[deg], pi = 0;
    for (int k = deg - 1; k >= 0; k--) {
        double t = pr * zr - pi * zi + c[k];
        pi = pr * zi + pi * zr;
        pr = t;
    }
    return hypot(pr, pi);
}

/* Largest h with h lambda inside the method's stability region (scanned
** from 0 outwards, then bisected); eigenvalues with a positive real part
** (motion that grows in its own right) bound the step by 1/|lambda|, for
** accuracy.  A real part within rounding of 0 counts as 0 (an undamped
** oscillator sits on the imaginary axis, inside RK4's region up to
** |h lambda| = 2 sqrt 2). */
static double stab_step(int dp5, double re, double im)
{
    double mod = hypot(re, im);
    if (mod == 0)
        return INFINITY;
    if (re > 1e-9 * mod)
        return 1 / mod;
    if (re > -1e-9 * mod)
        re = 0;
    double lo = 0, hi = 0, step = 4.0 / 64 / mod;
    for (int k = 1; k <= 64; k++) {
        double h = k * step;
        if (stab_abs(dp5, h * re, h * im) > 1 + 1e-12) {
            hi = h;
            break;
        }
        lo = h;
    }
    if (hi == 0)
        return lo;
    for (int it = 0; it < 60; it++) {
        double m = 0.5 * (lo + hi);
        if (stab_abs(dp5, m * re, m * im) > 1 + 1e-12)
            hi = m;
        else
            lo = m;
    }
    return lo;
}

/* The spectrum's figures of mode info mi from its matrix: nu, the exact
** method's step 2/nu, and the stability steps with the eigenvalue that
** sets rk4's (the mechanical block only: the forcing generator's
** eigenvalues do not make the motion unstable). */
static int mode_spectrum(nsm_sim *s, RtModeInfo *mi)
{
    int n = s->n_vel, na = s->n_aug, m2 = 2 * n;
    size_t na2 = (size_t)na * na;
    double *T = malloc(sizeof(double) * (na2 + (size_t)(m2 * m2) + 2 * (size_t)m2));
    if (!T)
        return NSM_ENOMEM;
    memcpy(T, mi->A, sizeof(double) * na2);
    nsm_la_balance(na, T, mi->bal);
    mi->nu = nsm_la_norm_inf(na, T);
    if (!isfinite(mi->nu)) {
        free(T);
        return NSM_ERANGE_MODE;
    }
    mi->h_exact = mi->nu > 0 ? RT_TAYLOR_REACH / mi->nu : INFINITY;
    if (nsm_expm_factors(na, mi->A, 1.0, mi->ebal) != NSM_LA_OK) {
        free(T);
        return NSM_ENOMEM;
    }
    double *M = T + na2, *re = M + (size_t)m2 * m2, *im = re + m2;
    for (int i = 0; i < m2; i++)
        for (int k = 0; k < m2; k++)
            M[(size_t)i * m2 + k] = mi->A[(size_t)i * na + k];
    mi->h_rk4 = mi->h_dp5 = INFINITY;
    mi->lam_re = mi->lam_im = mi->rho = 0;
    if (s->set.method == NSM_METHOD_EXACT) {
        /* no stability bound to keep (nsm_sim_set_method clears the cache) */
    } else if (nsm_la_eigvals(m2, M, re, im) != NSM_LA_OK) {
        /* no eigenvalues: the balanced norm bounds every |lambda| */
        mi->h_rk4 = 2.5 / mi->nu;
        mi->h_dp5 = 2.5 / mi->nu;
        mi->lam_re = -mi->nu;
        mi->rho = mi->nu;
    } else {
        /* the fastest motion of the mode, forcing included: what rk4 must
         * resolve (its eigenvalues with the generator's) */
        double *F = malloc(sizeof(double) * (na2 + 2 * (size_t)na));
        if (F) {
            memcpy(F, mi->A, sizeof(double) * na2);
            if (nsm_la_eigvals(na, F, F + na2, F + na2 + na) == NSM_LA_OK)
                for (int i = 0; i < na; i++)
                    mi->rho = fmax(mi->rho, hypot(F[na2 + i], F[na2 + na + i]));
            free(F);
        }
        for (int i = 0; i < m2; i++) {
            mi->rho = fmax(mi->rho, hypot(re[i], im[i]));
            double h4 = stab_step(0, re[i], im[i]), h5 = stab_step(1, re[i], im[i]);
            if (h4 < mi->h_rk4) {
                mi->h_rk4 = h4;
                mi->lam_re = re[i];
                mi->lam_im = fabs(im[i]);
            }
            if (h5 < mi->h_dp5)
                mi->h_dp5 = h5;
        }
    }
    free(T);
    return NSM_OK;
}

/* Whether the mode's figures come from bounds over the model's nonzeros
** (mode_bounds) instead of its dense matrix: a large model (na above
** RT_DENSE_NA) without friction, stepped by rk4 or adaptive, whose K and C
** are symmetric (springs and dampers with stiffnesses and dampings >= 0,
** which setup enforces, make them nonnegative too). */
int rt_mode_sparse(const nsm_sim *s)
{
    return s->n_aug > RT_DENSE_NA && s->set.method != NSM_METHOD_EXACT && !s->n_fric && s->sp.sym;
}

/* The step figures of a mode_sparse mode without its matrix, in O(nonzeros).
** Let K' and C' be K and C with the engaged penalty contacts' k w w^T and
** c w w^T (symmetric, nonnegative).  The mode's eigenvalues are 0 (the
** directions the held impact contacts fix) and those of the motion along
** the held constraints W_R x = 0: with Z a basis of their null space, the
** quadratic eigenproblem (lambda^2 Z'MZ + lambda Z'C'Z + Z'K'Z) u = 0.  For
** its eigenvector u, with m = u*Z'MZu > 0, c = u*Z'C'Zu >= 0 and
** k = u*Z'K'Zu >= 0, lambda solves m lambda^2 + c lambda + k = 0, so
** Re lambda <= 0 and |lambda| <= c/m + sqrt(k/m); and c/m, k/m are
** Rayleigh quotients, at most the largest eigenvalues of M^-1 C' and M^-1 K',
** at most their infinity norms (row sums over the nonzeros, a penalty
** contact's rows by the triangle inequality).  So every eigenvalue lies in
** the left half of the disc of radius R = sqrt(||M^-1 K'||) + ||M^-1 C'||,
** and the stability steps are the smallest over that half disc's rim (16
** directions from the imaginary axis to the negative real axis: the steps
** vary slowly with the direction, 0.04 % below the 16 directions' least at
** worst), the run loop's 0.9 on top.  rho adds the forcing generator's
** eigenvalues (a small matrix).  The exact method never comes here: its
** step rests on nu (docs/theory.md section 4a). */
static int mode_bounds(nsm_sim *s, RtModeInfo *mi)
{
    int n = s->n_vel, ng = s->m->n_gen;
    double a = 0, c = 0;
    const RtCsr *K = &s->sp.K, *C = &s->sp.C, *W = &s->sp.W;
    double wl1[s->n_gaps + 1];
    for (int j = 0; j < s->n_gaps; j++)
        wl1[j] = rt_csr_abs(W, j);
    double ka[n], ca[n];
    for (int i = 0; i < n; i++) {
        ka[i] = rt_csr_abs(K, i);
        ca[i] = rt_csr_abs(C, i);
    }
    for (int j = 0; j < s->n_gaps; j++)
        if (rt_law_engaged(s, s->mode, j))
            for (int k = W->p[j]; k < W->p[j + 1]; k++) {
                ka[W->i[k]] += fabs(rt_law_stiffness(s, j) * W->x[k]) * wl1[j];
                ca[W->i[k]] += fabs(rt_law_damping(s, s->mode, j) * W->x[k]) * wl1[j];
            }
    for (int i = 0; i < n; i++) {
        a = fmax(a, s->mass_inv[i] * ka[i]);
        c = fmax(c, s->mass_inv[i] * ca[i]);
    }
    double R = sqrt(a) + c;
    if (!isfinite(R))
        return NSM_ERANGE_MODE;
    mi->nu = R;
    mi->h_exact = R > 0 ? RT_TAYLOR_REACH / R : INFINITY;
    mi->h_rk4 = mi->h_dp5 = INFINITY;
    mi->lam_re = mi->lam_im = 0;
    mi->rho = R;
    for (int d = 0; d <= 16 && R > 0; d++) {
        double th = RT_PI / 2 + d * (RT_PI / 2) / 16, re = R * cos(th), im = R * sin(th);
        double h4 = stab_step(0, re, im), h5 = stab_step(1, re, im);
        if (h4 < mi->h_rk4) {
            mi->h_rk4 = h4;
            mi->lam_re = re;
            mi->lam_im = fabs(im);
        }
        mi->h_dp5 = fmin(mi->h_dp5, h5);
    }
    if (ng > 0 && s->m->generator) {
        double *G = calloc((size_t)ng * ng + (size_t)n * ng + 2 * (size_t)ng, sizeof(double));
        if (!G)
            return NSM_ENOMEM;
        double *B = G + (size_t)ng * ng, *re = B + (size_t)n * ng, *im = re + ng;
        s->m->generator(s->sw, s->params, s->consts, G, B);
        if (nsm_la_eigvals(ng, G, re, im) == NSM_LA_OK)
            for (int i = 0; i < ng; i++)
                mi->rho = fmax(mi->rho, hypot(re[i], im[i]));
        free(G);
    }
    return NSM_OK;
}

/* Allocate the arrays of cache slot mi (on its first use). */
static int mode_alloc(nsm_sim *s, RtModeInfo *mi)
{
    if (mi->A)
        return NSM_OK;
    size_t na = (size_t)s->n_aug, na2 = na * na, g = (size_t)s->n_events;
    mi->A = malloc(sizeof(double) * (4 * na2 + 2 * na + 2 * g * na + 1));
    mi->has2 = malloc(sizeof(int) * (g + 1 + na + 1 + na2 + na));
    if (!mi->mode)
        mi->mode = malloc(sizeof(unsigned) * (size_t)s->mode_words);
    if (!mi->A || !mi->has2 || !mi->mode) {
        free(mi->A);
        free(mi->has2);
        free(mi->mode);
        mi->A = NULL;
        mi->has2 = NULL;
        mi->mode = NULL;
        return NSM_ENOMEM;
    }
    mi->Qd = mi->A + na2;
    mi->Qw = mi->Qd + na2;
    mi->bal = mi->Qw + na2;
    mi->ebal = mi->bal + na;
    mi->ev = mi->ebal + na;
    mi->ev2 = mi->ev + g * na;
    mi->vals = mi->ev2 + g * na;
    mi->rows = mi->has2 + g + 1;
    mi->cols = mi->rows + na + 1;
    mi->qcomp = mi->cols + na2;
    return NSM_OK;
}

/* The nonzeros of the mode matrix by rows: a mechanical mode is mostly
** zero (x' = v, the forcing's generator, the constant), and the Taylor
** expansions (taylor.c, the Zeno tail) run over them only. */
static void mode_rows(const nsm_sim *s, RtModeInfo *mi)
{
    int na = s->n_aug, nnz = 0;
    for (int i = 0; i < na; i++) {
        mi->rows[i] = nnz;
        for (int q = 0; q < na; q++)
            if (mi->A[(size_t)i * na + q] != 0) {
                mi->cols[nnz] = q;
                mi->vals[nnz++] = mi->A[(size_t)i * na + q];
            }
    }
    mi->rows[na] = nnz;
}

/* Whether Q (na x na) has a nonzero in row or column i. */
static int form_touches(const double *Q, int na, int i)
{
    for (int q = 0; q < na; q++)
        if (Q[(size_t)i * na + q] != 0 || Q[(size_t)q * na + i] != 0)
            return 1;
    return 0;
}

/* The components of Z that the energy forms Qd and Qw read, in order: the
** step's energy series (taylor.c) round only these terms to double, once
** a step, where a mode's forms touch the velocities and the forcing's
** generator but not the positions. */
static void mode_qcomp(const nsm_sim *s, RtModeInfo *mi)
{
    int na = s->n_aug;
    mi->nqcomp = 0;
    for (int i = 0; i < na; i++)
        if (form_touches(mi->Qd, na, i) || form_touches(mi->Qw, na, i))
            mi->qcomp[mi->nqcomp++] = i;
}

/* Free a cache slot's dense matrices (a slot with A == NULL has none; its
** has2 may then point into an operator, modeop.c's to free) and make room
** for its mode: the slot of a mode without a matrix.  NSM_OK or NSM_ENOMEM. */
static int mode_no_matrix(const nsm_sim *s, RtModeInfo *mi)
{
    if (mi->A) {
        free(mi->A);
        free(mi->has2);
    }
    mi->A = NULL;
    mi->has2 = NULL;
    mi->dense = 0;
    if (!mi->mode && !(mi->mode = malloc(sizeof(unsigned) * (size_t)s->mode_words)))
        return NSM_ENOMEM;
    return NSM_OK;
}

/* The current mode and switch state (switch key, mode hash) met for the
** first time, or again after it left the cache: its entry built in mi, the
** least recently used slot; NULL on failure, with the run failed
** (rt_mode_info). */
RT_APART static const RtModeInfo *mode_build(nsm_sim *s, RtModeInfo *mi, unsigned long key,
                                             unsigned long hash)
{
    mi->used = 0;
    int rc;
    if (rt_modeop_wanted(s)) {
        /* the exact method on a large model: the mode as an operator
         * (modeop.c), no matrix; has2 points into the operator */
        if (!(rc = mode_no_matrix(s, mi)))
            rc = rt_modeop_build(s, mi);
        goto built;
    }
    if (mi->op) {
        rt_modeop_free(mi);             /* the slot held an operator: its has2 went with it */
        mi->has2 = NULL;
    }
    if (rt_mode_sparse(s)) {
        /* no matrix: A stays NULL, which its users (the exact method, the
         * Zeno tail, Floquet) check */
        if (!(rc = mode_no_matrix(s, mi)))
            rc = mode_bounds(s, mi);
        goto built;
    }
    mi->dense = 1;
    rc = mode_alloc(s, mi);
    if (!rc) {
        event_forms(s, s->mode, mi->ev, mi->ev2, mi->has2);
        rc = mode_matrices(s, s->mode, mi->A, mi->Qd, mi->Qw, mi->ev);
    }
    if (!rc) {
        mode_rows(s, mi);
        mode_qcomp(s, mi);
        rc = mode_spectrum(s, mi);
    }
built:
    if (rc) {
        rt_fail(s, rc == NSM_ENOMEM ? NSM_ENOMEM : NSM_ENUMERIC, -1, "%s",
                rc == NSM_ENOMEM        ? "out of memory forming the mode's matrices"
                : rc == NSM_ERANGE_MODE ? "the mode's equations are not finite (a stiffness, "
                                          "damping or mass out of the range of doubles)"
                                        : "the mode's closed contacts are redundant");
        return NULL;
    }
    mi->used = 1;
    rt_mode_copy(s, mi->mode, s->mode);
    mi->hash = hash;
    mi->swkey = key;
    mi->stamp = ++s->md.clock;
    mi->built = mi->stamp;
    mi->warned = 0;
    return mi;
}

/* What the runtime knows of the current mode and switch state, built on
** its first use (mode_build); NULL on failure (out of memory, a redundant
** closed set), with the run failed. */
RT_HOT const RtModeInfo *rt_mode_info(nsm_sim *s)
{
    unsigned long key = rt_switch_key(s), hash = rt_mode_hash(s, s->mode);
    RtModeInfo *old = &s->md.info[0];
    for (int k = 0; k < RT_MODES; k++) {
        RtModeInfo *c = &s->md.info[k];
        if (c->used && c->hash == hash && c->swkey == key && rt_mode_eq(s, c->mode, s->mode)) {
            c->stamp = ++s->md.clock;
            return c;
        }
        if (!c->used || c->stamp < old->stamp)
            old = c;
    }
    return mode_build(s, old, key, hash);
}

/* Forget every mode met (parameters changed). */
void rt_mode_clear(nsm_sim *s)
{
    for (int k = 0; k < RT_MODES; k++)
        s->md.info[k].used = 0;
}

/* Free the mode cache's arrays. */
void rt_mode_free(nsm_sim *s)
{
    for (int k = 0; k < RT_MODES; k++) {
        if (s->md.info[k].op) {
            rt_modeop_free(&s->md.info[k]);
            s->md.info[k].has2 = NULL;
        }
        free(s->md.info[k].A);
        free(s->md.info[k].has2);
        free(s->md.info[k].mode);
        s->md.info[k].A = NULL;
        s->md.info[k].has2 = NULL;
        s->md.info[k].mode = NULL;
    }
}
