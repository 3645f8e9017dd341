/*
** dynamics.c: a mode's equations of motion, contact forces and event
** functions, from the model's straight-line functions when it derived the
** mode, else from the numeric tables (the generic path):
**
**   M a = F + W_R^T lambda_R,   F = f_ext + f_const - K x - C v + sum_pen w_j (k p + c p')
**   W_R a = 0 for the closed impact gaps R  =>  (W_R M^-1 W_R^T) lambda_R = -W_R M^-1 F
**
** Also the complementarity problems the transitions solve (the force LCP that
** decides which touching gaps stick) and the projection of velocities onto
** the closed set.  Small arrays live on the stack; the constraint problems
** are split into clusters of coupled contacts (gaps and stuck friction
** elements acting on a common body) and solved in scratch the sim owns.
*/
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "law.h"
#include "energy.h"
#include "linalg.h"
#include "rt.h"

/* Gap j at positions x and time t: w_j . x + d_j + h_j(t), h_j the moving
** surface's term (surface.c; 0 for a fixed gap). */
RT_HOT double rt_gap_at(const nsm_sim *s, int j, double t, const double *x)
{
    if (rt_nl_gap_curved(s, j))
        return rt_nl_gap_value(s, j, x);
    double g = rt_wrow(s, j, x) + s->num.d[j];
    return s->moving ? g + rt_surface_of(s, j, 0, t) : g;
}

/* Gap j at positions x at the current time. */
double rt_gap(const nsm_sim *s, int j, const double *x)
{
    return rt_gap_at(s, j, s->t, x);
}

/* Rate of gap j at velocities v and time t: the relative normal velocity
** w_j . v + h_j'(t). */
double rt_gap_rate(const nsm_sim *s, int j, double t, const double *v)
{
    double u = rt_wrow(s, j, v);
    return s->moving ? u + rt_surface_of(s, j, 1, t) : u;
}

/* u += f w_j over the nonzeros of gap j's row. */
static void add_w(const nsm_sim *s, int j, double f, double *u)
{
    const RtCsr *W = &s->sp.W;
    for (int k = W->p[j]; k < W->p[j + 1]; k++)
        u[W->i[k]] += W->x[k] * f;
}

/* F = fext + cflag*f_const - K x - C v + the engaged force elements' forces
** (their laws', law.h).  With cflag 0 the affine constants (f_const, gap
** offsets d) are left out and each force element gives its linear part
** k p + c p', which makes F linear in (x, v, fext): the exact method builds
** its matrices that way. */
void rt_force_parts(const nsm_sim *s, const unsigned *mode, const double *x, const double *v,
                    const double *fext, int cflag, double *F)
{
    int n = s->n_vel;
    for (int i = 0; i < n; i++)
        F[i] = (fext ? fext[i] : 0) + (cflag ? s->num.fconst[i] : 0)
             - rt_csr_dot(&s->sp.K, i, x) - rt_csr_dot(&s->sp.C, i, v);
    for (int j = 0; j < s->n_gaps; j++) {
        if (!rt_law_engaged(s, mode, j))
            continue;
        double p = -(rt_wrow(s, j, x) + (cflag ? s->num.d[j] : 0));
        double pd = -rt_wrow(s, j, v);
        add_w(s, j, cflag ? rt_law_force(s, j, p, pd)
                          : rt_law_stiffness(s, j) * p + rt_law_damping(s, mode, j) * pd, F);
    }
    if (s->n_fric)
        rt_fric_forces(s, mode, x, v, cflag, F);
    if (cflag)
        rt_mass_forces(s, x, v, F);
}

/* Scratch of the constraint problems of the generic path, sized by the
** model when the simulation is created, so that no call allocates: the
** constraint rows and force directions of a closed set (sparse), its
** split into clusters, and the largest cluster's Delassus matrix so far. */
typedef struct RtClus {
    int cap;                  /* constraints at most: g + nf */
    int *root, *cid, *order, *start, *lidx; /* cap (start: cap + 1): clus_split */
    int *gk, *seq;            /* cap: each row's constraint (gap j, g + element k); 0, 1, 2 .. */
    int *owner;               /* n: a constraint acting on the body, -1 */
    int *mark;                /* n: the body is in the direction being summed */
    double *acc;              /* n: a force direction being summed */
    RtCsr rows, dirs;         /* per constraint: its row, the direction of its force */
    double *rhs;              /* cap */
    double *D;                /* the Delassus matrix of a cluster and its right side */
    size_t dcap;
} RtClus;

/* Allocate the scratch (its Delassus matrix grows on first use). */
int rt_clus_alloc(nsm_sim *s)
{
    const nsm_model *m = s->m;
    RtClus *cl = calloc(1, sizeof *cl);
    if (!cl)
        return NSM_ENOMEM;
    s->cl = cl;
    size_t cap = (size_t)s->n_gaps + s->n_fric + 1, n = (size_t)s->n_vel;
    /* a row per closed gap and stuck element; a direction adds to its
     * gap's row those of the elements slipping on it (each at most once) */
    size_t nnz = (size_t)(m->nnz_W > 0 ? m->nnz_W : 0) + 2 * (size_t)(m->nnz_Wt > 0 ? m->nnz_Wt : 0) + 1;
    cl->cap = s->n_gaps + s->n_fric;
    cl->root = malloc(sizeof(int) * (8 * cap + 1 + 2 * n));
    cl->acc = calloc(n + 2 * cap, sizeof(double));
    RtCsr *c[2] = { &cl->rows, &cl->dirs };
    for (int k = 0; k < 2; k++) {
        c[k]->p = malloc(sizeof(int) * (cap + 1 + nnz));
        c[k]->x = malloc(sizeof(double) * nnz);
        if (!c[k]->p || !c[k]->x)
            return NSM_ENOMEM;
        c[k]->i = c[k]->p + cap + 1;
        c[k]->cols = s->n_vel;
    }
    if (!cl->root || !cl->acc)
        return NSM_ENOMEM;
    cl->cid = cl->root + cap;
    cl->order = cl->cid + cap;
    cl->lidx = cl->order + cap;
    cl->start = cl->lidx + cap;
    cl->owner = cl->start + cap + 1;
    cl->mark = cl->owner + n;
    cl->gk = cl->mark + n;
    cl->seq = cl->gk + cap;
    for (size_t i = 0; i < n; i++)
        cl->owner[i] = -1, cl->mark[i] = 0;
    for (size_t k = 0; k < cap; k++)
        cl->seq[k] = (int)k;
    cl->rhs = cl->acc + n;
    return NSM_OK;
}

/* Free the scratch. */
void rt_clus_free(nsm_sim *s)
{
    RtClus *cl = s->cl;
    if (!cl)
        return;
    free(cl->root);
    free(cl->acc);
    free(cl->rows.p);
    free(cl->rows.x);
    free(cl->dirs.p);
    free(cl->dirs.x);
    free(cl->D);
    free(cl);
    s->cl = NULL;
}

/* Room for an r x r Delassus matrix and two right sides; NULL when out of memory. */
static double *clus_dmat(RtClus *cl, int r)
{
    size_t need = (size_t)r * r + 2 * (size_t)r + 1;
    if (need > cl->dcap) {
        double *D = realloc(cl->D, sizeof(double) * need);
        if (!D)
            return NULL;
        cl->D = D;
        cl->dcap = need;
    }
    return cl->D;
}

/* Mark constraint a (row R[ra], direction Dd[ra]) as acting on its bodies,
** joining it to the clusters of the constraints already there. */
static void clus_touch(RtClus *cl, const RtCsr *A, int ra, int a)
{
    for (int k = A->p[ra]; k < A->p[ra + 1]; k++) {
        int i = A->i[k], *o = &cl->owner[i];
        if (*o < 0) {
            *o = a;
        } else {
            rt_uf_join(cl->root, a, *o);
        }
    }
}

/* Split the r constraints idx[0..r-1] (rows R, force directions Dd) into
** clusters: two constraints are coupled (their Delassus entry is nonzero)
** only when a force of one moves a body the other's row reads, M being
** diagonal (a dense M(q) couples them all), so the system is block diagonal over the clusters of
** constraints linked through shared bodies.  Cluster c is order[start[c]
** .. start[c+1]) (positions in idx, ascending); returns the number of
** clusters.  O(the rows' nonzeros). */
static int clus_split(const nsm_sim *s, RtClus *cl, const RtCsr *R, const RtCsr *Dd, const int *idx, int r)
{
    for (int a = 0; a < r; a++)
        cl->root[a] = a;
    for (int a = 0; a < r; a++) {
        clus_touch(cl, R, idx[a], a);
        if (Dd != R)
            clus_touch(cl, Dd, idx[a], a);
        if (rt_mass_dense(s) && a > 0)   /* M(q) couples every pair */
            rt_uf_join(cl->root, a, 0);
    }
    for (int a = 0; a < r; a++) {   /* the bodies' owners back to none */
        const RtCsr *A[2] = { R, Dd };
        for (int t = 0; t < 2; t++)
            for (int k = A[t]->p[idx[a]]; k < A[t]->p[idx[a] + 1]; k++)
                cl->owner[A[t]->i[k]] = -1;
    }
    int nc = 0;
    for (int a = 0; a < r; a++)     /* a representative is its cluster's first member */
        cl->cid[a] = rt_uf_find(cl->root, a) == a ? nc++ : cl->cid[rt_uf_find(cl->root, a)];
    for (int c = 0; c <= nc; c++)
        cl->start[c] = 0;
    for (int a = 0; a < r; a++)
        cl->start[cl->cid[a] + 1]++;
    for (int c = 0; c < nc; c++)
        cl->start[c + 1] += cl->start[c];
    for (int a = 0; a < r; a++)
        cl->order[cl->start[cl->cid[a]]++] = a;
    for (int c = nc; c > 0; c--)
        cl->start[c] = cl->start[c - 1];
    cl->start[0] = 0;
    return nc;
}

/* The rows idx of cluster c, listed in cl->lidx; returns how many. */
static int clus_rows(RtClus *cl, const int *idx, int c)
{
    int m = cl->start[c + 1] - cl->start[c];
    for (int k = 0; k < m; k++)
        cl->lidx[k] = idx[cl->order[cl->start[c] + k]];
    return m;
}

/* Delassus matrix D = R_S M^-1 Dd_S^T over the rows listed in idx[0..r-1]
** of R (the constraints' rows) and Dd (the directions of their forces):
** the one place it is formed.  Each entry merges two sorted rows. */
static double delassus_at(const nsm_sim *s, const RtCsr *R, const RtCsr *Dd, int ra, int rb)
{
    if (rt_mass_dense(s))
        return rt_mass_inner(s, R, ra, Dd, rb);
    int ka = R->p[ra], ea = R->p[ra + 1], kb = Dd->p[rb], eb = Dd->p[rb + 1];
    double sum = 0;
    while (ka < ea && kb < eb) {
        if (R->i[ka] == Dd->i[kb]) {
            sum += R->x[ka] * s->mass_inv[R->i[ka]] * Dd->x[kb];
            ka++, kb++;
        } else if (R->i[ka] < Dd->i[kb]) {
            ka++;
        } else {
            kb++;
        }
    }
    return sum;
}

static void delassus_rows(const nsm_sim *s, const RtCsr *R, const RtCsr *Dd, const int *idx, int r,
                          double *D)
{
    for (int a = 0; a < r; a++)
        for (int b = 0; b < r; b++)
            D[(size_t)a * r + b] = delassus_at(s, R, Dd, idx[a], idx[b]);
}

/* Entry (a, b) of the gaps' Delassus matrix, w_a M^-1 w_b^T: the same
** products in the same order as rt_delassus, for the sparse impulse
** problems that form only the entries of coupled gaps (transition.c). */
double rt_delassus_entry(const nsm_sim *s, int a, int b)
{
    return delassus_at(s, &s->sp.W, &s->sp.W, a, b);
}

/* The gaps of cand (an index list of r gaps) that gap j reaches through
** shared bodies, j's cluster: into comp (ascending), their count returned;
** j must be in cand.  O(the rows' nonzeros) by clus_split's union-find,
** where growing the cluster by pairwise tests would cost O(r^2) per sweep. */
int rt_gap_component(const nsm_sim *s, int j, const int *cand, int r, int *comp)
{
    if (r == 1) {           /* j alone: its own cluster (most impacts) */
        comp[0] = cand[0];
        return 1;
    }
    RtClus *cl = s->cl;
    clus_split(s, cl, &s->sp.W, &s->sp.W, cand, r);
    int cj = -1, m = 0;
    for (int a = 0; a < r && cj < 0; a++)
        if (cand[a] == j)
            cj = cl->cid[a];
    for (int a = 0; a < r; a++)
        if (cl->cid[a] == cj)
            comp[m++] = cand[a];
    return m;
}

/* Delassus matrix D = W_S M^-1 W_S^T over the gaps listed in idx[0..r-1]
** (constraint forces, projections, impulses). */
void rt_delassus(const nsm_sim *s, const int *idx, int r, double *D)
{
    delassus_rows(s, &s->sp.W, &s->sp.W, idx, r, D);
}

/* Gaps of a set as an index list; returns their number. */
static int set_list(const nsm_sim *s, const unsigned *set, int *idx)
{
    int r = 0;
    for (int j = 0; j < s->n_gaps; j++)
        if (rt_mode_has(set, j))
            idx[r++] = j;
    return r;
}

/* Accelerations a for the force F in mode, the forces lambda of the
** closed impact gaps (lam may be NULL; entries of other gaps are set to 0)
** and the multipliers of the stuck friction elements (lamf, nf entries, may
** be NULL; 0 for slipping ones): the constraint rows are the closed gaps'
** w_j and the stuck elements' slip rows, with w . a = -hdd[j] for a gap
** (a moving surface's acceleration; hdd NULL: all 0) and w . a = 0 for a
** stuck element.  Stuck elements whose rows repeat another's share their
** group's force by their capacities (clus_dependent, rt_cons_split).
** Returns NSM_ENUMERIC when other constraints are redundant. */
static int accel_constrained(const nsm_sim *s, const unsigned *mode, const double *hdd,
                             double *a, double *lam, double *lamf, int split);

/* rt_accel_surf; split 0: merged stuck elements' forces left on their
** groups' first elements (clus_dependent). */
static int accel_surf(const nsm_sim *s, const unsigned *mode, const double *F, const double *hdd,
                      double *a, double *lam, double *lamf, int split)
{
    int r = 0;
    if (rt_mass_solve(s, F, a))
        return NSM_ENUMERIC;
    if (lam)
        for (int j = 0; j < s->n_gaps; j++)
            lam[j] = 0;
    if (lamf)
        for (int k = 0; k < s->n_fric; k++)
            lamf[k] = 0;
    if (s->n_space_fric && rt_sf_accel(s, mode, hdd, split, a, lam))
        return NSM_ENUMERIC;
    for (int j = 0; j < s->n_gaps; j++)
        r += rt_law_held(s, mode, j) && rt_sf_of_gap(s, j) < 0;
    for (int k = 0; k < s->n_fric; k++)
        r += rt_fric_stuck(s, mode, k);
    if (r == 0)
        return NSM_OK;
    return accel_constrained(s, mode, hdd, a, lam, lamf, split);
}

int rt_accel_surf(const nsm_sim *s, const unsigned *mode, const double *F, const double *hdd,
                  double *a, double *lam, double *lamf)
{
    return accel_surf(s, mode, F, hdd, a, lam, lamf, 1);
}

/* Append row ra of A as row r of B (B's rows so far end at B->p[r]). */
static void rows_copy(RtCsr *B, int r, const RtCsr *A, int ra)
{
    int w = B->p[r];
    for (int k = A->p[ra]; k < A->p[ra + 1]; k++, w++) {
        B->i[w] = A->i[k];
        B->x[w] = A->x[k];
    }
    B->p[r + 1] = w;
}

/* Append as row r of cl->dirs the direction of closed gap j's force: w_j
** plus the slip forces of the friction elements it presses
** (rt_fric_gap_dir), summed in cl->acc over the bodies they act on. */
static void dir_of_gap(const nsm_sim *s, const unsigned *mode, RtClus *cl, int r, int j)
{
    RtCsr *B = &cl->dirs;
    const RtCsr *W = &s->sp.W, *Wt = &s->sp.Wt;
    int w = B->p[r], w0 = w;
    for (int k = W->p[j]; k < W->p[j + 1]; k++) {
        cl->acc[W->i[k]] = W->x[k];
        cl->mark[W->i[k]] = 1;
        B->i[w++] = W->i[k];
    }
    for (int e = 0; e < s->n_fric; e++)
        if (s->m->frictions[e].normal_gap == j && !rt_fric_stuck(s, mode, e))
            for (int k = Wt->p[e]; k < Wt->p[e + 1]; k++)
                if (!cl->mark[Wt->i[k]]) {
                    cl->mark[Wt->i[k]] = 1;
                    B->i[w++] = Wt->i[k];
                }
    rt_fric_gap_dir(s, mode, j, cl->acc);
    for (int q = w0 + 1; q < w; q++) {  /* columns ascending */
        int c = B->i[q], t = q;
        for (; t > w0 && B->i[t - 1] > c; t--)
            B->i[t] = B->i[t - 1];
        B->i[t] = c;
    }
    for (int q = w0; q < w; q++) {
        B->x[q] = cl->acc[B->i[q]];
        cl->acc[B->i[q]] = 0;
        cl->mark[B->i[q]] = 0;
    }
    B->p[r + 1] = w;
}

/* Which stuck friction rows of a constraint set repeat another's (a block
** on two corners with both elements stuck: one body, one tangent, the
** same slip row twice).  rows: r dense rows of n entries, of the
** constraints kind[0..r-1] (a gap j < g, or g + element q).  lead[a] = b
** < a and scale[a] = f when a is a stuck element whose row is f times the
** row of the stuck element b, the first of its group (to 1e-12 of the
** row's largest entry), else lead[a] = a and scale[a] = 1.  Returns how
** many rows were merged into a group's first.  Only friction rows are
** merged: the groups' forces act along one row, and only their sum is
** determined (statically indeterminate friction). */
int rt_cons_groups(const nsm_sim *s, int r, int n, const int *kind, const double *rows, int *lead,
                   double *scale)
{
    int merged = 0;
    for (int a = 0; a < r; a++) {
        const double *ra = rows + (size_t)a * n;
        lead[a] = a;
        scale[a] = 1;
        for (int b = 0; b < a && lead[a] == a && kind[a] >= s->n_gaps; b++) {
            const double *rb = rows + (size_t)b * n;
            double ab = 0, bb = 0, big = 0, dev = 0;
            if (kind[b] < s->n_gaps || lead[b] != b)
                continue;
            for (int i = 0; i < n; i++) {
                ab += ra[i] * rb[i];
                bb += rb[i] * rb[i];
                big = fmax(big, fabs(ra[i]));
            }
            if (!(bb > 0) || !(ab != 0))
                continue;
            for (int i = 0; i < n; i++)
                dev = fmax(dev, fabs(ra[i] - ab / bb * rb[i]));
            if (dev <= 1e-12 * big) {
                lead[a] = b;
                scale[a] = ab / bb;
                merged++;
            }
        }
    }
    return merged;
}

/* f when friction element q's slip row at the current state is f times
** element k's (rt_cons_groups' test: the two stuck would be merged), else
** 0: elements whose rows repeat each other slip together. */
double rt_fric_row_ratio(const nsm_sim *s, int k, int q)
{
    int n = s->n_vel, kind[2] = { s->n_gaps + k, s->n_gaps + q }, lead[2];
    double scale[2], *rows = calloc(2 * (size_t)n + 1, sizeof(double));
    const RtCsr *Wt = &s->sp.Wt;
    if (!rows)
        return 0;
    for (int a = 0; a < 2; a++)
        for (int c = Wt->p[kind[a] - s->n_gaps]; c < Wt->p[kind[a] - s->n_gaps + 1]; c++)
            rows[(size_t)a * n + Wt->i[c]] = Wt->x[c];
    double f = k != q && rt_cons_groups(s, 2, n, kind, rows, lead, scale) ? scale[1] : 0;
    free(rows);
    return f;
}

/* Row of the constraints kind[0..r-1] that holds the normal gap of the
** element of constraint a, or -1 (its normal force is no held contact's). */
static int cons_normal(const nsm_sim *s, int r, const int *kind, int a)
{
    int j = rt_fric_normal_gap(s, kind[a] - s->n_gaps);
    for (int b = 0; b < r && j >= 0; b++)
        if (kind[b] == j)
            return b;
    return -1;
}

/* Order l of element a's capacity in its group: mu_s |scale| N_l, N the
** multiplier series of its normal gap's row nb. */
static double cons_capacity(const nsm_sim *s, const int *kind, const double *scale,
                            double *const *ser, int a, int nb, int l)
{
    return s->num.mus[kind[a] - s->n_gaps] * fabs(scale[a]) * ser[nb][l];
}

/* Order k of the multipliers of every merged group (rt_cons_groups): the
** group's first row holds the order k of the group's force T (in its
** row's units, the merged rows' 0), solved with the merged rows left out.
** The split rule: each element carries T in proportion to its capacity
** mu_s N (its static friction limit), lambda_a scale_a = T P_a / S with
** P_a = mu_s |scale_a| N_a, S = sum P: every element of the group then
** uses the same fraction |T| / S of its cone, so each element's slip onset
** (mu_s N_a = |lambda_a|) is the group's, sum mu_s N = |T|, the limit of
** the rigid body's friction, whatever split the statics would allow.  As
** series: Q = T / S by the quotient's recurrence (Q_k = (T_k - sum_{l>=1}
** S_l Q_{k-l}) / S_0), lambda_a = P_a Q / scale_a by a Cauchy product;
** ser[a] points at constraint a's series (orders 0..k used), Q holds r
** series of K + 1 (the groups' quotients).  K = k = 0: the split at one
** state.  Returns 1 when the split is undetermined: a merged element whose
** normal force is no held contact's, or a group with no capacity (S_0 <=
** 0: no normal force to share the friction by). */
int rt_cons_split(const nsm_sim *s, int r, const int *kind, const int *lead, const double *scale,
                  double *const *ser, double *Q, int K, int k)
{
    for (int g0 = 0; g0 < r; g0++) {
        int nb[r], any = 0;
        double *q = Q + (size_t)g0 * (K + 1), tk = 0, S[k + 1];
        for (int a = g0 + 1; a < r; a++)
            any |= lead[a] == g0;
        if (!any)
            continue;
        for (int a = g0; a < r; a++)
            if (lead[a] == g0 && (nb[a] = cons_normal(s, r, kind, a)) < 0)
                return 1;
        for (int l = 0; l <= k; l++) {
            S[l] = 0;
            for (int a = g0; a < r; a++)
                if (lead[a] == g0)
                    S[l] += cons_capacity(s, kind, scale, ser, a, nb[a], l);
        }
        if (!(S[0] > 0))
            return 1;
        for (int a = g0; a < r; a++)
            if (lead[a] == g0)
                tk += scale[a] * ser[a][k];
        for (int l = 1; l <= k; l++)
            tk -= S[l] * q[k - l];
        q[k] = tk / S[0];
        for (int a = g0; a < r; a++) {
            if (lead[a] != g0)
                continue;
            double v = 0;
            for (int l = 0; l <= k; l++)
                v += cons_capacity(s, kind, scale, ser, a, nb[a], l) * q[k - l];
            ser[a][k] = v / scale[a];
        }
    }
    return 0;
}

/* The Delassus matrix D (m x m) of a cluster's rows lidx and its right
** side rhs: the constrained accelerations' conditions R a = -hdd - curv
** with a = M^-1 F on entry (accel_constrained's problem). */
static void clus_problem(const nsm_sim *s, const RtCsr *R, const RtCsr *Dd, const int *gk,
                         const int *lidx, int m, const double *hdd, const double *a, double *D,
                         double *rhs)
{
    delassus_rows(s, R, Dd, lidx, m, D);
    for (int k = 0; k < m; k++) {
        int q = lidx[k];
        rhs[k] = -rt_csr_dot(R, q, a) - (hdd && gk[q] < s->n_gaps ? hdd[gk[q]] : 0) -
                 (gk[q] >= s->n_gaps ? rt_nl_slip_curv(s, gk[q] - s->n_gaps) : 0);
    }
}

/* A cluster's problem D mu = rhs whose matrix is singular: the stuck
** friction rows that repeat another's are merged (rt_cons_groups), the
** problem without them is solved, the groups' forces are split by the
** elements' capacities (rt_cons_split), and every merged row's condition
** is checked to hold with the multipliers found, to 1e-9 of its largest
** term (the accelerations are unique when it does; checked on the values'
** problems, split 1: a rate problem at rest is rounding noise).  D and rhs are the cluster's problem, rhs gets
** mu; split 0 leaves each group's force on its first row (a rate problem,
** whose split is the value's derivative: fric_rates_split).  NSM_ENUMERIC when rows other than stuck friction are dependent,
** the reduced problem is singular, a merged condition fails or the split
** is undetermined. */
static int clus_dependent(const nsm_sim *s, const RtCsr *R, const int *gk, const int *lidx, int m,
                          const double *D, double *rhs, int split)
{
    int n = s->n_vel, kind[m], lead[m], keep[m], r = 0, rc = NSM_ENUMERIC;
    double scale[m], sol[m], Q[m], mu[m], *ser[m];
    double *rows = calloc((size_t)m * n + (size_t)m * m + 1, sizeof(double)), *Dr = rows + (size_t)m * n;
    if (!rows)
        return NSM_ENOMEM;
    for (int a = 0; a < m; a++) {
        kind[a] = gk[lidx[a]];
        for (int k = R->p[lidx[a]]; k < R->p[lidx[a] + 1]; k++)
            rows[(size_t)a * n + R->i[k]] = R->x[k];
    }
    if (!rt_cons_groups(s, m, n, kind, rows, lead, scale))
        goto out;
    for (int a = 0; a < m; a++)
        if (lead[a] == a)
            keep[r++] = a;
    for (int a = 0; a < r; a++) {
        sol[a] = rhs[keep[a]];
        for (int b = 0; b < r; b++)
            Dr[(size_t)a * r + b] = D[(size_t)keep[a] * m + keep[b]];
    }
    if (nsm_la_solve(r, Dr, sol, 1) != NSM_LA_OK)
        goto out;
    for (int a = 0; a < m; a++) {
        mu[a] = 0;
        ser[a] = &mu[a];
    }
    for (int a = 0; a < r; a++)
        mu[keep[a]] = sol[a];
    if (split && rt_cons_split(s, m, kind, lead, scale, ser, Q, 0, 0))
        goto out;
    for (int a = 0; a < m && split; a++) {
        double got = 0, big = fabs(rhs[a]);
        for (int b = 0; b < m; b++) {
            got += D[(size_t)a * m + b] * mu[b];
            big = fmax(big, fabs(D[(size_t)a * m + b] * mu[b]));
        }
        if (lead[a] != a && !(fabs(got - rhs[a]) <= 1e-9 * big))
            goto out;
    }
    memcpy(rhs, mu, sizeof mu);
    rc = NSM_OK;
out:
    free(rows);
    return rc;
}

/* The constrained part of rt_accel_surf over its constraint rows: a holds
** M^-1 F on entry and the constrained accelerations on return.  Solved
** cluster by cluster (clus_split) in the sim's scratch. */
static int accel_constrained(const nsm_sim *s, const unsigned *mode, const double *hdd,
                             double *a, double *lam, double *lamf, int split)
{
    RtClus *cl = s->cl;
    RtCsr *R = &cl->rows, *Dd = &cl->dirs;
    int *gk = cl->gk, nr = 0;
    /* the constraint rows: closed gaps (the force acts along w_j, plus the
     * slip forces of the friction elements it presses), then stuck elements */
    R->p[0] = Dd->p[0] = 0;
    for (int j = 0; j < s->n_gaps; j++)
        if (rt_law_held(s, mode, j) && rt_sf_of_gap(s, j) < 0) {    /* spacefric.c's own */
            rows_copy(R, nr, &s->sp.W, j);
            if (s->n_fric)
                dir_of_gap(s, mode, cl, nr, j);
            else
                rows_copy(Dd, nr, &s->sp.W, j);
            gk[nr++] = j;
        }
    for (int k = 0; k < s->n_fric; k++)
        if (rt_fric_stuck(s, mode, k)) {
            rows_copy(R, nr, &s->sp.Wt, k);
            rows_copy(Dd, nr, &s->sp.Wt, k);
            gk[nr++] = s->n_gaps + k;
        }
    int nc = clus_split(s, cl, R, Dd, cl->seq, nr);
    for (int c = 0; c < nc; c++) {
        int m = clus_rows(cl, cl->seq, c);
        double *D = clus_dmat(cl, m), *mu;
        if (!D)
            return NSM_ENOMEM;
        mu = D + (size_t)m * m;
        clus_problem(s, R, Dd, gk, cl->lidx, m, hdd, a, D, mu);
        if (nsm_la_solve(m, D, mu, 1) != NSM_LA_OK) {
            int rc;       /* dependent rows: the problem again, merged */
            clus_problem(s, R, Dd, gk, cl->lidx, m, hdd, a, D, mu);
            if ((rc = clus_dependent(s, R, gk, cl->lidx, m, D, mu, split)))
                return rc;
        }
        for (int k = 0; k < m; k++) {
            int q = cl->lidx[k];
            rt_mass_add_row(s, Dd, q, mu[k], a);
            if (gk[q] < s->n_gaps) {
                if (lam)
                    lam[gk[q]] = mu[k];
            } else if (lamf) {
                lamf[gk[q] - s->n_gaps] = mu[k];
            }
        }
    }
    return NSM_OK;
}

/* rt_accel_surf for fixed surfaces (or the homogeneous part of a moving one). */
int rt_accel_full(const nsm_sim *s, const unsigned *mode, const double *F, double *a, double *lam,
                  double *lamf)
{
    return rt_accel_surf(s, mode, F, NULL, a, lam, lamf);
}

/* Energy rates appended to a derivative: dissipation v^T C v plus engaged
** penalty dampers c (w.v)^2, and the power of the external forces (with
** friction's surface work and the held contacts' work lambda_j w_j . v:
** a moving surface's, and on a fixed one that of the rounding's drift into
** it, which the forces pressing the contact are credited with; lam NULL:
** the derived path without friction, moving surfaces or a drift). */
RT_HOT static void energy_rates(const nsm_sim *s, const unsigned *mode, const double *x, const double *v,
                         const double *fext, const double *lam, const double *lamf, double *Yd)
{
    int n = s->n_vel;
    double pd = 0;
    for (int i = 0; i < n; i++)
        pd += v[i] * rt_csr_dot(&s->sp.C, i, v);
    for (int j = 0; j < s->n_gaps && s->n_force_gaps; j++)   /* force elements' damping */
        if (rt_law_engaged(s, mode, j)) {
            double wv = rt_wrow(s, j, v);
            pd += rt_law_damping(s, mode, j) * wv * wv;
        }
    double fd = 0, fw = 0;
    if (s->n_fric)
        rt_fric_power(s, mode, x, v, lam, lamf, &fd, &fw);
    if (s->n_space_fric)
        fd += rt_sf_power(s, mode, lam);
    if (lam)
        for (int j = 0; j < s->n_gaps; j++)
            if (rt_law_held(s, mode, j))
                fw += lam[j] * rt_wrow(s, j, v);
    Yd[rt_eslot(s)] = pd + fd;
    Yd[rt_eslot(s) + 1] = rt_dot(n, fext, v) + fw;
}

/* External force at time t with the current switches (zeros if none). */
RT_HOT static void ext_force(const nsm_sim *s, double t, double *f)
{
    for (int i = 0; i < s->n_vel; i++)
        f[i] = 0;
    if (s->m->force)
        s->m->force(t, s->sw, s->params, s->consts, f);
}

/* What the equations of motion need at (t, Y) besides the tables: the
** applied forces f (the state-dependent ones of a nonlinear model
** included), the moving surfaces' terms h (4g) with the held curved gaps'
** curvature in the h'' slots, and the curved gaps' tangent taken at Y. */
RT_HOT static void state_terms(const nsm_sim *s, double t, const double *Y, double *f, double *h)
{
    rt_nl_at(s, Y);
    rt_sf_at(s, Y);
    rt_mass_at(s, Y);               /* a failure stops the solves that follow */
    ext_force(s, t, f);
    rt_nl_force(s, t, Y, f);
    if (!h)
        return;
    rt_surface(s, t, h);
    rt_nl_curv(s, h + 2 * s->n_gaps);
}

/* Derivative of Y by the generic path. */
int rt_deriv_generic(const nsm_sim *s, const unsigned *mode, double t, const double *Y, double *Yd)
{
    int n = s->n_vel;
    double f[n], F[n], lamf[s->n_fric + 1], lam[s->n_gaps + 1], h[4 * s->n_gaps + 1];
    state_terms(s, t, Y, f, h);
    rt_force_parts(s, mode, Y, rt_vel(s, Y), f, 1, F);
    rt_rigid_qdot(s, Y, Yd);
    int rc = rt_accel_surf(s, mode, F, h + 2 * s->n_gaps, Yd + s->n_pos, lam, lamf);
    energy_rates(s, mode, Y, rt_vel(s, Y), f, lam, lamf, Yd);
    return rc;
}

/* Whether the model's derived modes() serves the mode's equations: a
** linear model's table (a model with friction has one only when its
** elements' modes are derived, nsm/model.h). */
static int derived(const nsm_sim *s)
{
    return !s->m->nl && s->m->modes;
}

/* Whether a held contact of mode has drifted at the velocities v (w_j . v
** not 0): the rounding of its mode's equations (m (1/m) is not 1 at 3 kg)
** lets a block held still by a press creep, and the press's work on the
** creep must be met by the contact's, or the balance is off by 1 of the
** energies met (a block under a press growing from 0, rk4 and adaptive).
** The held contacts are mode's bits among the constraint gaps: the current
** mode says whether it holds one (mode_holds, state.c), another is read a
** word at a time; a flight costs a test, not a law's lookup per gap, at
** every evaluation, and no register kept for the loop's calls. */
static int held_drift(const nsm_sim *s, const unsigned *mode, const double *v)
{
    if (mode == s->mode ? !s->mode_holds : !rt_mode_holds_constraint(s, mode))
        return 0;
    for (int j = 0; j < s->n_gaps; j++)
        if (rt_mode_has(mode, j) && rt_mode_has(s->constraint_gaps, j) && rt_wrow(s, j, v) != 0)
            return 1;
    return 0;
}

/* The derivative of the derived path where the energy rates need the held
** contacts' forces and the stuck elements' multipliers (g + nf values of
** modes()' lam): a moving surface, friction, or a held contact that has
** drifted.  One call of modes() gives the derivatives and the forces
** together (the same straight-line code as deriv(), which then need not
** run as well).  Returns modes()' status; apart from rt_deriv, so that a
** step that needs no forces allocates none. */
static int derived_deriv_held(const nsm_sim *s, const unsigned *mode, double t, const double *Y,
                              const double *f, double *Yd)
{
    const nsm_model *m = s->m;
    double lam[s->n_gaps + s->n_fric + 1];
    int rc = m->modes(mode, t, Y, s->sw, s->params, s->consts, Yd, lam, NULL, NULL);
    if (rc == 0)
        energy_rates(s, mode, Y, rt_vel(s, Y), f, lam, lam + s->n_gaps, Yd);
    return rc;
}

/* Derivative of Y: the model's derived right-hand side of the mode if it has
** one, else the generic path; energy rates appended either way (with the
** held contacts' forces where derived_deriv_held says). */
RT_HOT int rt_deriv(const nsm_sim *s, const unsigned *mode, double t, const double *Y, double *Yd)
{
    const nsm_model *m = s->m;
    if (!derived(s))
        return rt_deriv_generic(s, mode, t, Y, Yd);
    double f[s->n_vel];
    ext_force(s, t, f);
    if (s->moving || s->n_fric || held_drift(s, mode, rt_vel(s, Y))) {
        if (derived_deriv_held(s, mode, t, Y, f, Yd) != 0)
            return rt_deriv_generic(s, mode, t, Y, Yd);
        return NSM_OK;
    }
    if (m->deriv(mode, t, Y, s->sw, s->params, s->consts, Yd) != 0)
        return rt_deriv_generic(s, mode, t, Y, Yd);
    energy_rates(s, mode, Y, rt_vel(s, Y), f, NULL, NULL, Yd);
    return NSM_OK;
}

/* Contact forces of all gaps in mode (0 for open gaps): the constraint
** forces of closed impact gaps, k p + c p' for engaged penalty gaps. */
int rt_lambda(const nsm_sim *s, const unsigned *mode, double t, const double *y, double *lam)
{
    const nsm_model *m = s->m;
    int n = s->n_vel;
    double all[s->n_gaps + s->n_fric + 1];   /* modes() adds the stuck elements' multipliers */
    if (derived(s) && m->modes(mode, t, y, s->sw, s->params, s->consts, NULL, all, NULL, NULL) == 0) {
        memcpy(lam, all, sizeof(double) * (size_t)s->n_gaps);
        return NSM_OK;
    }
    double f[n], F[n], a[n], h[4 * s->n_gaps + 1];
    state_terms(s, t, y, f, h);
    rt_force_parts(s, mode, y, rt_vel(s, y), f, 1, F);
    int rc = rt_accel_surf(s, mode, F, h + 2 * s->n_gaps, a, lam, NULL);
    for (int j = 0; j < s->n_gaps; j++)
        if (rt_law_engaged(s, mode, j)) {
            lam[j] = rt_law_force(s, j, -rt_gap_at(s, j, t, y), -rt_wrow(s, j, rt_vel(s, y)));
        }
    return rc;
}

/* Forces of the friction elements in mode at (t, y), ff (nf values), each
** along its slip velocity's coefficients: a stuck element's multiplier, a
** slipping one's -mu_k N sign(slip) with N its normal force in the mode, 0
** for an idle one (its normal gap open). */
int rt_fric_values(const nsm_sim *s, const unsigned *mode, double t, const double *y, double *ff)
{
    int n = s->n_vel;
    double f[n], F[n], a[n], h[4 * s->n_gaps + 1], lam[s->n_gaps + 1], lamf[s->n_fric + 1];
    state_terms(s, t, y, f, h);
    rt_force_parts(s, mode, y, rt_vel(s, y), f, 1, F);
    int rc = rt_accel_surf(s, mode, F, h + 2 * s->n_gaps, a, lam, lamf);
    for (int k = 0; k < s->n_fric; k++) {
        if (rt_fric_idle(s, mode, k))
            ff[k] = 0;
        else if (rt_fric_stuck(s, mode, k))
            ff[k] = lamf[k];
        else
            ff[k] = -rt_fric_sign(s, mode, k) * s->num.muk[k] *
                    rt_fric_normal(s, mode, k, y, rt_vel(s, y), lam, 1);
    }
    return rc;
}

/* For force elements whose law is not linear (a penalty exponent): dF/dt's
** term is w f'(p) p' + c p'' (the law's force_rate), not the linear
** w (k p' + c p'') that rt_force_parts gives on (v, a); add the difference
** to fd. */
static void pen_rates(const nsm_sim *s, const unsigned *mode, const double *x, const double *v,
                      double *fd)
{
    for (int j = 0; j < s->n_gaps; j++) {
        if (!rt_law_engaged(s, mode, j) || rt_law_linear(s, j))
            continue;
        double p = -(rt_wrow(s, j, x) + s->num.d[j]), pd = -rt_wrow(s, j, v);
        add_w(s, j, rt_law_force_rate(s, j, p, pd, 0) - rt_law_stiffness(s, j) * pd, fd);
    }
}

/* The rates of the stuck elements' multipliers where some rows repeat
** another's (rt_cons_groups): the rate problem (accel_surf, split 0) left
** each group's rate dT on its first element; the split's rate,
** d(T P_a / S), is rt_cons_split's order 1 over the series (value, rate)
** of every held gap's force and stuck element's multiplier.  dlamf gets
** it; NSM_ENUMERIC when the split is undetermined. */
static int fric_rates_split(const nsm_sim *s, const unsigned *mode, const double *lam,
                            const double *dlam, const double *lamf, double *dlamf)
{
    int n = s->n_vel, g = s->n_gaps, r = 0, stuck = 0, rc = NSM_OK;
    for (int k = 0; k < s->n_fric; k++)
        stuck += rt_fric_stuck(s, mode, k);
    if (stuck < 2)
        return NSM_OK;
    int kind[g + s->n_fric], lead[g + s->n_fric];
    double scale[g + s->n_fric], v[2 * (g + s->n_fric)], Q[2 * (g + s->n_fric)], *ser[g + s->n_fric];
    double *rows = calloc((size_t)(g + s->n_fric) * n, sizeof(double));
    if (!rows)
        return NSM_ENOMEM;
    for (int j = 0; j < g; j++)
        if (rt_law_held(s, mode, j)) {
            v[2 * r] = lam[j], v[2 * r + 1] = dlam[j];
            kind[r++] = j;
        }
    for (int k = 0; k < s->n_fric; k++)
        if (rt_fric_stuck(s, mode, k)) {
            const RtCsr *Wt = &s->sp.Wt;
            for (int q = Wt->p[k]; q < Wt->p[k + 1]; q++)
                rows[(size_t)r * n + Wt->i[q]] = Wt->x[q];
            v[2 * r] = lamf[k], v[2 * r + 1] = dlamf[k];
            kind[r++] = g + k;
        }
    for (int a = 0; a < r; a++)
        ser[a] = v + 2 * a;
    if (rt_cons_groups(s, r, n, kind, rows, lead, scale)) {
        if (rt_cons_split(s, r, kind, lead, scale, ser, Q, 1, 0) ||
            rt_cons_split(s, r, kind, lead, scale, ser, Q, 1, 1))
            rc = NSM_ENUMERIC;
        for (int a = 0; a < r && !rc; a++)
            if (kind[a] >= g)
                dlamf[kind[a] - g] = ser[a][1];
    }
    free(rows);
    return rc;
}

/* Event functions and their time derivatives by the generic path, per the
** table in nsm/model.h; the friction elements' follow the gaps' (ev and
** evd hold ge entries). */
int rt_events_generic(const nsm_sim *s, const unsigned *mode, double t, const double *y, double *ev,
                      double *evd)
{
    int n = s->n_vel, g = s->n_gaps;
    const double *x = y, *v = rt_vel(s, y);
    double f[n], fd[n], F[n], a[n], lam[g + 1], dF[n], da[n], dlam[g + 1];
    double lamf[s->n_fric + 1], dlamf[s->n_fric + 1], h[4 * g + 1];
    state_terms(s, t, y, f, h);
    for (int i = 0; i < n; i++)
        fd[i] = 0;
    if (s->m->force_dot)
        s->m->force_dot(t, s->sw, s->params, s->consts, fd);
    rt_force_parts(s, mode, x, v, f, 1, F);
    int rc = rt_accel_surf(s, mode, F, h + 2 * g, a, lam, lamf);
    if (rc)
        return rc;
    /* dF/dt = f' - K v - C a + engaged penalty w (k p' + c p''), linear in (v, a);
     * a held moving gap's constraint w . a = -h'' differentiates to w . da = -(the third derivative of h) */
    if (s->m->nl) {
        rt_nl_rates(s, t, y, a, fd, h + 3 * g);
        pen_rates(s, mode, x, v, fd);
    }
    rt_mass_rates(s, y, a, fd);     /* M(q): d/dt h(q, v) - (dM/dt) a */
    rt_force_parts(s, mode, v, a, fd, 0, dF);
    rc = accel_surf(s, mode, dF, h + 3 * g, da, dlam, dlamf, 0);
    if (!rc && s->n_fric)
        rc = fric_rates_split(s, mode, lam, dlam, lamf, dlamf);
    if (rc)
        return rc;
    if (s->n_fric)
        rt_fric_events(s, mode, x, v, a, lam, dlam, lamf, dlamf, ev + g, evd + g);
    for (int j = 0; j < g; j++) {
        rt_gap_kin k = { rt_wrow(s, j, x) + s->num.d[j] + h[j], rt_wrow(s, j, v) + h[g + j],
                         rt_wrow(s, j, a) + h[2 * g + j], lam[j], dlam[j] };
        rt_law_of(s, j)->event(s, j, rt_mode_has(mode, j), &k, &ev[j], &evd[j]);
    }
    return NSM_OK;
}

/* Event functions of every gap in mode and their derivatives: the model's
** derived ones if it has them, else the generic path. */
RT_HOT int rt_events(const nsm_sim *s, const unsigned *mode, double t, const double *y, double *ev, double *evd)
{
    const nsm_model *m = s->m;
    if (derived(s) && m->events(mode, t, y, s->sw, s->params, s->consts, ev, evd) == 0)
        return NSM_OK;
    return rt_events_generic(s, mode, t, y, ev, evd);
}

/* Size below which gap j counts as closed: rounding of w.x + d. */
RT_HOT double rt_gap_tol(const nsm_sim *s, int j, const double *x)
{
    const RtCsr *W = &s->sp.W;
    double sc = fabs(s->num.d[j]) + (s->moving ? fabs(rt_surface_of(s, j, 0, s->t)) : 0);
    for (int k = W->p[j]; k < W->p[j + 1]; k++)
        sc += fabs(W->x[k] * x[W->i[k]]);
    return 1e-10 * sc + 1e-14;
}

/* The scale of gap j's relative velocity at v: the sum of its row's terms'
** magnitudes, which its rate's rounding is made of (rt_vel_tol, and the
** simultaneous law's energy term in transition.c). */
double rt_vel_scale(const nsm_sim *s, int j, const double *v)
{
    const RtCsr *W = &s->sp.W;
    double sc = 0;
    for (int k = W->p[j]; k < W->p[j + 1]; k++)
        sc += fabs(W->x[k] * v[W->i[k]]);
    return sc;
}

/* Relative velocity below which gap j counts as at rest. */
double rt_vel_tol(const nsm_sim *s, int j, const double *v)
{
    return 1e-9 * rt_vel_scale(s, j, v) + RT_VEL_FLOOR;
}

/* Magnitude of the forces on each velocity coordinate at (t, y), into sb:
** the applied and constant forces and the springs' and dampers' terms of
** its row.  Summed over all coordinates it is the run's force scale; summed
** over a contact's columns, that contact's own. */
RT_HOT static void force_scale_coords(const nsm_sim *s, double t, const double *y, double *sb)
{
    const RtCsr *K = &s->sp.K, *C = &s->sp.C;
    state_terms(s, t, y, sb, NULL);
    for (int i = 0; i < s->n_vel; i++) {
        double sc = fabs(sb[i]) + fabs(s->num.fconst[i]);
        for (int k = K->p[i]; k < K->p[i + 1]; k++)
            sc += fabs(K->x[k] * y[K->i[k]]);
        for (int k = C->p[i]; k < C->p[i + 1]; k++)
            sc += fabs(C->x[k] * rt_vel(s, y)[C->i[k]]);
        sb[i] = sc;
    }
}

/* Each velocity coordinate's acceleration bound at the state, into acc,
** from its force magnitudes sb (force_scale_coords): sb_i / m_i for a
** diagonal mass; for M(q) (a Lagrangian model) its Euler-Lagrange terms
** h(q, v) added to sb and |(M^-1 f)_i| <= sqrt(d_i) sum_k sb_k sqrt(d_k),
** d = diag(M^-1) (|M^-1_ik| <= sqrt(d_i d_k), M^-1 positive definite), so
** that a configuration-dependent mass faces the velocity floors as a
** diagonal one does.  INFINITY everywhere when M(q) cannot be solved (the
** run says why). */
static void coord_accels(const nsm_sim *s, double *sb, double *acc)
{
    int n = s->n_vel;
    if (!s->mass) {
        for (int i = 0; i < n; i++)
            acc[i] = sb[i] * s->mass_inv[i];
        return;
    }
    double h[n + 1], e[n + 1], z[n + 1], sum = 0;
    memset(h, 0, sizeof h);
    rt_mass_forces(s, s->y, rt_vel(s, s->y), h);
    memset(e, 0, sizeof e);
    for (int i = 0; i < n; i++) {
        e[i] = 1;
        int bad = rt_mass_solve(s, e, z) || !(z[i] > 0);
        e[i] = 0;
        if (bad) {
            for (int k = 0; k < n; k++)
                acc[k] = INFINITY;
            return;
        }
        acc[i] = sqrt(z[i]);
        sum += (sb[i] + fabs(h[i])) * acc[i];
    }
    for (int i = 0; i < n; i++)
        acc[i] *= sum;
}

/* The set-up every speed scale shares: each coordinate's force magnitudes
** at the state into sb and its acceleration bound into acc (coord_accels);
** the state's velocities. */
static const double *speed_setup(const nsm_sim *s, double *sb, double *acc)
{
    force_scale_coords(s, s->t, s->y, sb);  /* takes the tangent and M(q) at the state first */
    coord_accels(s, sb, acc);
    return rt_vel(s, s->y);
}

/* Contact or friction element j's row (j a gap's index, or n_gaps + the
** element's): its matrix, its row q in it, and into *c its surface's
** (moving surfaces) or belt's speed, the row's speed term beside A_q v. */
static const RtCsr *speed_row(const nsm_sim *s, int j, int *q, double *c)
{
    int f = j >= s->n_gaps;
    *q = f ? j - s->n_gaps : j;
    *c = f ? s->num.ut[*q] : (s->moving ? rt_surface_of(s, *q, 1, s->t) : 0);
    return f ? &s->sp.Wt : &s->sp.W;
}

/* The speed scale of a run from (t, y) to t_end, for the velocity floors
** (RT_VEL_FLOOR, rt_vel_tol and rt_fric_slip_tol): the largest of the
** moving surfaces' and belts' speeds, the contacts' relative velocities
** (through their Jacobians at the state: a curved gap's tangent there),
** and each coordinate's forces times the run's duration over its mass (an
** upper bound of the speed those forces can give: coord_accels; a
** nonlinear model's state-dependent forces among them).  0 when nothing
** moves nor pushes. */
double rt_speed_scale(const nsm_sim *s, double t_end)
{
    int n = s->n_vel;
    double sb[n + 1], acc[n + 1], sc = 0;
    const double *v = speed_setup(s, sb, acc);
    for (int j = 0; j < s->n_gaps; j++)
        sc = fmax(sc, fabs(rt_wrow(s, j, v)) +
                          (s->moving ? fabs(rt_surface_of(s, j, 1, s->t)) : 0));
    for (int k = 0; k < s->n_fric; k++)
        sc = fmax(sc, fmax(fabs(rt_wtrow(s, k, v)), fabs(s->num.ut[k])));
    for (int i = 0; i < n; i++)
        sc = fmax(sc, acc[i] * (t_end - s->t));
    return sc;
}

/* Row q of A's acceleration bound: sum |A_qi| acc_i (coord_accels). */
static double row_accel(const RtCsr *A, int q, const double *acc)
{
    double a = 0;
    for (int k = A->p[q]; k < A->p[q + 1]; k++)
        a += fabs(A->x[k]) * acc[A->i[k]];
    return a;
}

/* Row q of A's own speed scale over a run of duration dur: its speed
** |A_q v| + |c| (c its surface's or belt's speed) plus the speeds the forces
** on its columns can give, row_accel times dur. */
static double row_speed_scale(const RtCsr *A, int q, double c, const double *v,
                              const double *acc, double dur)
{
    return fabs(rt_csr_dot(A, q, v)) + fabs(c) + row_accel(A, q, acc) * dur;
}

/* The smallest own speed scale (row_speed_scale) over a run to t_end among
** the contacts and friction elements moving at the state (their relative
** velocity or surface speed above the rounding of their terms: a contact
** left at 2.8e-17 m/s by an impact of bodies at 0.4 m/s is at rest), the
** floors being each one's own
** (rt_vel_tol, rt_fric_slip_tol): a slow contact beside fast bodies is
** decided on rounding as a slow model is (a mass at rest on a belt at
** 4e-13 m/s beside an oscillator at 1 m/s stuck at t = 0 and never moved).
** *which gets the gap's index, or n_gaps + the element's; INFINITY and -1
** when none moves.  Nonlinear models and M(q) too (their rows at the
** state's tangent, their forces' bounds from coord_accels). */
double rt_speed_slowest(const nsm_sim *s, double t_end, int *which)
{
    int n = s->n_vel, q;
    double sb[n + 1], acc[n + 1], lo = INFINITY, dur = t_end - s->t, c;
    const double *v = speed_setup(s, sb, acc);
    *which = -1;
    for (int j = 0; j < s->n_gaps + s->n_fric; j++) {
        const RtCsr *A = speed_row(s, j, &q, &c);
        double own = fabs(c);           /* its terms' sizes: what rounding of its speed scales with */
        for (int k = A->p[q]; k < A->p[q + 1]; k++)
            own += fabs(A->x[k] * v[A->i[k]]);
        if (!(row_speed_scale(A, q, c, v, acc, 0) > 1e-9 * own))
            continue;
        double sc = row_speed_scale(A, q, c, v, acc, dur);
        if (sc < lo) {
            lo = sc;
            *which = j;
        }
    }
    return lo;
}

/* Joins into comp the columns of A's rows that touch comp; whether any was
** added. */
static int comp_join_rows(const RtCsr *A, unsigned char *comp)
{
    int grew = 0;
    for (int q = 0; q < A->rows; q++) {
        int touch = 0;
        for (int k = A->p[q]; k < A->p[q + 1] && !touch; k++)
            touch = comp[A->i[k]];
        for (int k = A->p[q]; k < A->p[q + 1] && touch; k++)
            if (!comp[A->i[k]])
                comp[A->i[k]] = grew = 1;
    }
    return grew;
}

/* Joins into comp the coordinates of rows of a coordinate coupling (the
** stiffness or damping matrix: row i, columns the coordinates it couples)
** that touch comp, either way; whether any was added. */
static int comp_join_coupling(const RtCsr *A, unsigned char *comp)
{
    int grew = 0;
    for (int i = 0; i < A->rows; i++) {
        int touch = comp[i];
        for (int k = A->p[i]; k < A->p[i + 1] && !touch; k++)
            touch = comp[A->i[k]];
        if (!touch)
            continue;
        if (!comp[i])
            comp[i] = grew = 1;
        for (int k = A->p[i]; k < A->p[i + 1]; k++)
            if (!comp[A->i[k]])
                comp[A->i[k]] = grew = 1;
    }
    return grew;
}

/* The part of the model that contact or friction element w (a gap's
** index, or n_gaps + the element's) belongs to, into comp (n_vel flags):
** the coordinates joined to w's row through any contact's or friction
** element's row (whatever its state: a stuck element or a held contact
** passes on forces applied elsewhere, two masses stuck together with the
** drive on the other) and any spring's or damper's coupling.  0, comp
** untouched, for a model whose forces couple coordinates in ways those
** tables do not show (nonlinear, M(q), bodies in space) or for no element:
** the caller takes the model whole. */
static int part_coords(const nsm_sim *s, int w, unsigned char *comp)
{
    int n = s->n_vel;
    if (s->m->nl || s->mass || s->n_pos != n || s->n_space_fric || w < 0)
        return 0;
    const RtCsr *A = w >= s->n_gaps ? &s->sp.Wt : &s->sp.W;
    int q = w >= s->n_gaps ? w - s->n_gaps : w;
    memset(comp, 0, (size_t)n);
    for (int k = A->p[q]; k < A->p[q + 1]; k++)
        comp[A->i[k]] = 1;
    while (comp_join_rows(&s->sp.W, comp) | comp_join_rows(&s->sp.Wt, comp) |
           comp_join_coupling(&s->sp.K, comp) | comp_join_coupling(&s->sp.C, comp))
        ;
    return 1;
}

/* The part of the model contact or friction element w belongs to, as
** part_coords gives it (comp: n_vel flags), for the layers above; 0 where
** the model cannot be split (the caller takes it whole). */
int rt_part_of(const nsm_sim *s, int w, unsigned char *comp)
{
    return part_coords(s, w, comp);
}

/* Whether row q of A touches the part comp (its first column: a row's
** columns are all in one part, part_coords joins them). */
static int row_in_part(const RtCsr *A, int q, const unsigned char *comp)
{
    return A->p[q] < A->p[q + 1] && comp[A->i[A->p[q]]];
}

/* The speed scale of the part of the model that contact or friction
** element w belongs to (part_coords), over a run to t_end: rt_speed_scale
** over that part's coordinates and rows.  A slow element beside a fast
** unrelated body is then judged on its own part (a mass pushed by 1e-13 N
** against friction beside an oscillator at 1 m/s slid backwards, exit 0).
** A model part_coords cannot split is taken whole, as rt_speed_scale
** does. */
double rt_speed_scale_of(const nsm_sim *s, int w, double t_end)
{
    int n = s->n_vel;
    unsigned char comp[n + 1];
    if (!part_coords(s, w, comp))
        return rt_speed_scale(s, t_end);
    int r;
    double sb[n + 1], acc[n + 1], sc = 0, c;
    const double *v = speed_setup(s, sb, acc);
    for (int j = 0; j < s->n_gaps + s->n_fric; j++) {
        const RtCsr *B = speed_row(s, j, &r, &c);
        if (row_in_part(B, r, comp))
            sc = fmax(sc, row_speed_scale(B, r, c, v, acc, 0));
    }
    for (int i = 0; i < n; i++)
        if (comp[i])
            sc = fmax(sc, acc[i] * (t_end - s->t));
    return sc;
}

/* Gap j's own acceleration scale at the state: the accelerations the
** forces on its bodies can give along its row, sum |w_ji| acc_i
** (coord_accels), not the whole model's forces (a body resting on a floor
** under gravity pushed onto a wall by 2e-13 N: gravity's 9.81 m/s^2 along y
** is none of the wall's). */
double rt_gap_accel_scale(const nsm_sim *s, int j)
{
    int n = s->n_vel;
    double sb[n + 1], acc[n + 1];
    speed_setup(s, sb, acc);
    return row_accel(&s->sp.W, j, acc);
}

/* Magnitude of the forces acting at (t, y): the scale of force rounding. */
double rt_force_scale(const nsm_sim *s, double t, const double *y)
{
    int n = s->n_vel;
    double sb[n + 1], sc = 0;
    force_scale_coords(s, t, y, sb);
    for (int i = 0; i < n; i++)
        sc += sb[i];
    return sc;
}

/* Gap j's relative acceleration for the body accelerations a at t, the
** moving surface's and the curvature's terms included: the force LCP's q. */
static double cluster_pull(const nsm_sim *s, int j, double t, const double *a)
{
    return rt_wrow(s, j, a) + rt_surface_of(s, j, 2, t) + rt_nl_curv_of(s, j);
}

/* The force LCP that decides which touching gaps of cand stick:
** lambda >= 0 _|_ W_S a >= 0 with a = M^-1 (F + W_S^T lambda), F the forces of
** mode's engaged penalty gaps and springs (impact constraints left out).
** lam[j] gets lambda for j in cand, 0 elsewhere. */
int rt_force_lcp(const nsm_sim *s, const unsigned *mode, double t, const double *y,
                 const unsigned *cand, double *lam)
{
    RtClus *cl = s->cl;
    int n = s->n_vel, *idx = cl->gk;
    int r = set_list(s, cand, idx);
    for (int j = 0; j < s->n_gaps; j++)
        lam[j] = 0;
    if (r == 0)
        return NSM_OK;
    double f[n], F[n], a[n];
    unsigned pen[s->mode_words];            /* mode without its impact constraints */
    rt_mode_copy(s, pen, mode);
    for (int j = 0; j < s->n_gaps; j++)
        if (rt_law_held(s, mode, j))
            rt_mode_del(pen, j);
    state_terms(s, t, y, f, NULL);
    rt_force_parts(s, pen, y, rt_vel(s, y), f, 1, F);
    if (rt_mass_solve(s, F, a))
        return NSM_ENUMERIC;
    /* one LCP per cluster of coupled gaps: the matrix is block diagonal */
    int nc = clus_split(s, cl, &s->sp.W, &s->sp.W, idx, r);
    for (int c = 0; c < nc; c++) {
        int m = clus_rows(cl, idx, c), pulls = 0;
        for (int k = 0; k < m && !pulls; k++)
            pulls = cluster_pull(s, cl->lidx[k], t, a) < 0;
        if (!pulls)
            continue;   /* z = 0 solves it (q >= 0), the only solution (D is a P-matrix):
                         * a long touching train at rest forms no dense matrix */
        double *D = clus_dmat(cl, m);
        if (!D)
            return NSM_ENOMEM;
        double *q = D + (size_t)m * m, *z = q + m;
        for (int k = 0; k < m; k++)
            q[k] = cluster_pull(s, cl->lidx[k], t, a);
        rt_delassus(s, cl->lidx, m, D);
        if (nsm_lcp_solve(m, D, q, z, NULL) != NSM_LA_OK) {
            for (int j = 0; j < s->n_gaps; j++)
                lam[j] = 0;
            return NSM_ENUMERIC;
        }
        for (int k = 0; k < m; k++)
            lam[cl->lidx[k]] = z[k];
    }
    return NSM_OK;
}

/* Remove the relative velocities of the gaps in set, in the metric of M
** (the plastic projection): v -= M^-1 W^T D^-1 (W v + h'), h' the moving
** surfaces' velocities at the current time (the gaps then move with them). */
int rt_project(const nsm_sim *s, const unsigned *set, double *v)
{
    RtClus *cl = s->cl;
    int *idx = cl->gk;
    int r = set_list(s, set, idx);
    if (r == 0)
        return NSM_OK;
    /* cluster by cluster; v changes once every cluster is solved, so that a
     * failure leaves it as it was */
    int nc = clus_split(s, cl, &s->sp.W, &s->sp.W, idx, r);
    double *mu = cl->rhs;
    for (int k = 0; k < r; k++)
        mu[k] = rt_gap_rate(s, idx[k], s->t, v);
    for (int c = 0; c < nc; c++) {
        int m = clus_rows(cl, idx, c), *pos = cl->order + cl->start[c];
        double *D = clus_dmat(cl, m), *x;
        if (!D)
            return NSM_ENOMEM;
        x = D + (size_t)m * m;
        rt_delassus(s, cl->lidx, m, D);
        for (int k = 0; k < m; k++)
            x[k] = mu[pos[k]];
        if (nsm_la_solve(m, D, x, 1) != NSM_LA_OK)
            return NSM_ENUMERIC;
        for (int k = 0; k < m; k++)
            mu[pos[k]] = x[k];
    }
    const RtCsr *W = &s->sp.W;
    for (int k = 0; k < r; k++)
        rt_mass_add_row(s, W, idx[k], -mu[k], v);
    return NSM_OK;
}

/* The size of engaged gap j's force element at y (its law's force and
** damping), a term of the force rounding scale. */
static double engaged_force(const nsm_sim *s, const unsigned *mode, int j, const double *y)
{
    if (!rt_law_engaged(s, mode, j))
        return 0;
    return fabs(rt_law_force(s, j, -rt_gap(s, j, y), 0)) +
           fabs(rt_law_damping(s, mode, j) * rt_wrow(s, j, rt_vel(s, y)));
}

/* Force rounding level at the state y of mode: forces below it count as 0
** (1e-10 of the scale of the applied forces and of the engaged force
** elements'; the smallest double keeps it positive when every force is 0).
** Its floor was 1e-300 N, a tenth of the press on a block of 1e-300 kg:
** its friction stuck where at any other mass scale the slip reverses. */
double rt_force_tol(const nsm_sim *s, const unsigned *mode, const double *y)
{
    double sc = rt_force_scale(s, s->t, y);
    for (int j = 0; j < s->n_gaps; j++)
        sc += engaged_force(s, mode, j, y);
    return 1e-10 * sc + DBL_TRUE_MIN;
}

/* The rounding level of the forces on the part of the model that contact
** or friction element w belongs to (part_coords), at the state y of mode:
** rt_force_tol over that part's coordinates and engaged force elements.
** A stuck element's cone is judged on its own part's forces: beside a
** stiff oscillator, a push of 1e-13 N past mu_s N = 5e-14 N on a separate
** block counted as rounding of the oscillator's newtons, and the block
** began to slip only where the oscillator's force passed through 0 (1.571
** s instead of 1 s).  The whole model's where part_coords cannot split it. */
double rt_force_tol_of(const nsm_sim *s, const unsigned *mode, const double *y, int w)
{
    int n = s->n_vel;
    unsigned char comp[n + 1];
    if (!part_coords(s, w, comp))
        return rt_force_tol(s, mode, y);
    double sb[n + 1], sc = 0;
    force_scale_coords(s, s->t, y, sb);
    for (int i = 0; i < n; i++)
        if (comp[i])
            sc += sb[i];
    for (int j = 0; j < s->n_gaps; j++)
        if (row_in_part(&s->sp.W, j, comp))
            sc += engaged_force(s, mode, j, y);
    return 1e-10 * sc + DBL_TRUE_MIN;
}

/* The force scale of every velocity coordinate at the state y of mode, into
** sb (n_vel values): its own forces and those of the engaged force elements
** acting on it.  rt_gap_force_tol reads a contact's rounding level from it. */
void rt_force_scales(const nsm_sim *s, const unsigned *mode, const double *y, double *sb)
{
    rt_force_scales_at(s, mode, s->t, y, sb);
}

/* rt_force_scales at time t (a force a little ahead, settle_later). */
RT_HOT void rt_force_scales_at(const nsm_sim *s, const unsigned *mode, double t, const double *y,
                        double *sb)
{
    const RtCsr *W = &s->sp.W;
    force_scale_coords(s, t, y, sb);
    for (int j = 0; j < s->n_gaps; j++) {
        double f = engaged_force(s, mode, j, y);
        for (int k = W->p[j]; f > 0 && k < W->p[j + 1]; k++)
            sb[W->i[k]] += f;
    }
}

/* The rounding level of held contact j's force from the coordinate scales
** sb (rt_force_scales): 1e-10 of the forces on the coordinates its row
** touches.  The run's total was used: a ball's 9.81 N beside an unrelated
** mass on a 4e11 N/m spring counted as rounding, and its Zeno rest failed. */
RT_HOT double rt_gap_force_tol(const nsm_sim *s, int j, const double *sb)
{
    const RtCsr *W = &s->sp.W;
    double sc = 0;
    for (int k = W->p[j]; k < W->p[j + 1]; k++)
        sc += sb[W->i[k]];
    return 1e-10 * sc + DBL_TRUE_MIN;
}

/* Held contact j's force rounding level at the state y of mode (one
** contact: rt_force_scales once and rt_gap_force_tol for several). */
RT_HOT double rt_force_tol_gap(const nsm_sim *s, const unsigned *mode, const double *y, int j)
{
    double sb[s->n_vel + 1];
    rt_force_scales(s, mode, y, sb);
    return rt_gap_force_tol(s, j, sb);
}

/* Kinetic plus potential energy in mode: 1/2 v.Mv + 1/2 x.Kx - f_const.x
** + 1/2 k p^2 for engaged penalty gaps.  The potential of the linear field
** -K x + f_const is defined up to a constant; Voff (set at reset) makes it the
** physical one of the springs and gravity when the model lists its springs. */
RT_HOT double rt_mech_energy(const nsm_sim *s, const unsigned *mode, const double *y)
{
    double pot = 0;
    for (int i = 0; i < s->n_vel; i++)
        pot += 0.5 * y[i] * rt_csr_dot(&s->sp.K, i, y) - s->num.fconst[i] * y[i];
    if (rt_mass_dense(s))           /* 1/2 v^T M(q) v and the potential V(q) */
        pot += rt_mass_kinetic(s, y) + rt_mass_potential(s, y);
    else
        pot += nsm_energy_kinetic(s->n_vel, s->num.mass, y + (s->n_pos - s->n_vel)); /* reads [n + i] */
    return pot + rt_law_stored(s, mode, y) + s->potential_offset;
}

/* The multipliers of the stuck elements of mode at (t, y), and the
** closed impact gaps' forces (lam, may be NULL). */
int rt_multipliers(nsm_sim *s, const unsigned *mode, double t, const double *y, double *lam,
                            double *lamf)
{
    int n = s->n_vel;
    double f[n], F[n], a[n], h[4 * s->n_gaps + 1];
    state_terms(s, t, y, f, h);
    rt_force_parts(s, mode, y, rt_vel(s, y), f, 1, F);
    return rt_accel_surf(s, mode, F, h + 2 * s->n_gaps, a, lam, lamf);
}
