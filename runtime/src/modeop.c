/*
** modeop.c: a large model's mode as an operator, for the exact method.
**
** Past s->set.dense_na augmented states (RT_DENSE_NA unless a test lowers it)
** the exact method forms neither the mode matrix A nor its event forms
** (mode.c's are na x na and ge x na).  Inside the mode
**
**     x' = v,   v' = a = M^-1 (F + W_R^T lambda_R),   F = f_const + B z - K' x - C' v,
**     z' = G z (the forcing's generator),
**     S_R lambda_R = -W_R M^-1 F,   S_R = W_R M^-1 W_R^T,
**
** with K', C' the stiffness and damping with the engaged penalty contacts
** (and f_const their offsets), R the closed impact gaps.  S_R is block
** diagonal over the clusters of R (gaps coupled through a shared body), and
** each block is banded in the gaps' order (a chain's is tridiagonal): its
** band Cholesky factor, formed once per mode from rt_delassus, solves a
** cluster in O(r b) for r gaps and half bandwidth b.  Applying A to a state
** costs O(nonzeros of K, C, W_R + sum r b), and the step's Taylor
** coefficients P_k = A P_(k-1) h / k are k such applications; the forces
** lambda_R(P_k) come out of the same solves, so a closed contact's event
** polynomial costs nothing more, and an open gap's is its row of W (two
** nonzeros on a chain) summed over the P_k.
**
** The tails of the series are bounded in the norm ||Z|| = max(omega
** ||x||_M, ||v||_M, mu ||z||_inf) (||u||_M^2 = u^T M u; the constant's
** entry is 0 in every P_k, k >= 1), in which ||A|| <= nu = max(omega,
** kap/omega + damp + beta/mu, ||G||_inf) with kap = ||M^-1 K'||_inf and
** damp = ||M^-1 C'||_inf (row sums over the nonzeros), beta = ||M^-1/2
** B||_(inf->2) (docs/theory.md section 4a, "Large models"); the event
** forms' dual norms follow (sigma_c bounds a cluster's forces per unit of
** force).  Models with friction, moving surfaces or K, C that are not
** symmetric keep the dense matrices (rt_modeop_wanted).
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "law.h"
#include "rt.h"

#define RT_FLUSH 1e-300L     /* coefficients below this are 0 (op_scale) */

/* Whether the current mode of the exact method is taken as an operator:
** a model past s->set.dense_na states of the kind this file handles. */
int rt_modeop_wanted(const nsm_sim *s)
{
    return s->set.method == NSM_METHOD_EXACT && s->n_aug > s->set.dense_na && !s->n_fric && s->sp.sym &&
           !s->moving && (s->m->n_gen == 0 || s->m->generator);
}


/* Free a mode's operator. */
void rt_modeop_free(RtModeInfo *mi)
{
    RtModeOp *op = mi->op;
    if (!op)
        return;
    free(op->gap);
    free(op->bi);
    free(op->bx);
    free(op->L);
    free(op->sigma);
    free(op->work);
    free(op);
    mi->op = NULL;
}

/* The bound of ||L^-1||_2 for the band Cholesky factor L of r rows and
** half bandwidth b (row i holds columns i - b .. i): with M(L) the
** comparison matrix (|l_ii| on the diagonal, -|l_ik| off it), |L^-1| <=
** M(L)^-1 entrywise for a triangular L, so ||L^-1||_inf <= max M(L)^-1 e
** and ||L^-1||_1 <= max M(L)^-T e, and ||.||_2 <= sqrt(||.||_1 ||.||_inf). */
static double band_inverse_bound(const long double *L, int r, int b, long double *y)
{
    long double ninf = 0, n1 = 0;
    for (int i = 0; i < r; i++) {            /* M(L) y = e */
        long double sum = 1;
        for (int k = i - b > 0 ? i - b : 0; k < i; k++)
            sum += fabsl(L[(size_t)i * (b + 1) + (k - i + b)]) * y[k];
        y[i] = sum / L[(size_t)i * (b + 1) + b];
        if (y[i] > ninf)
            ninf = y[i];
    }
    for (int i = r - 1; i >= 0; i--) {       /* M(L)^T y = e */
        long double sum = 1;
        for (int k = i + 1; k < r && k <= i + b; k++)
            sum += fabsl(L[(size_t)k * (b + 1) + (i - k + b)]) * y[k];
        y[i] = sum / L[(size_t)i * (b + 1) + b];
        if (y[i] > n1)
            n1 = y[i];
    }
    return (double)sqrtl(ninf * n1) * (1 + 1e-12);
}

/* The band Cholesky factor of cluster c's Delassus matrix (its gaps
** gap[0 .. r), half bandwidth b) into L: the band rows from rt_delassus on
** windows of b + 1 gaps.  NSM_ENUMERIC when a pivot vanishes (the closed
** set is redundant). */
int rt_band_factor(const nsm_sim *s, const int *gap, int r, int b, long double *L)
{
    int w = b + 1;
    double *D = malloc(sizeof(double) * (size_t)w * w);
    if (!D)
        return NSM_ENOMEM;
    for (int a = 0; a < r; a++) {       /* row a of L first holds D[a][a - b .. a] */
        int len = r - a < w ? r - a : w;
        rt_delassus(s, gap + a, len, D);
        for (int t = 0; t < len; t++)   /* D[a][a + t] = D[a + t][a]: row a + t, column a */
            L[(size_t)(a + t) * w + (b - t)] = D[t];
    }
    free(D);
    for (int i = 0; i < r; i++)
        for (int j = i - b > 0 ? i - b : 0; j <= i; j++) {
            long double sum = L[(size_t)i * w + (j - i + b)];
            int k0 = i - b > j - b ? i - b : j - b;
            for (int k = k0 > 0 ? k0 : 0; k < j; k++)
                sum -= L[(size_t)i * w + (k - i + b)] * L[(size_t)j * w + (k - j + b)];
            if (j < i) {
                L[(size_t)i * w + (j - i + b)] = sum / L[(size_t)j * w + b];
                continue;
            }
            long double diag = L[(size_t)i * w + b];  /* D[i][i] */
            if (!(sum > 1e-12L * diag))
                return NSM_ENUMERIC;        /* dependent rows: a redundant closed set */
            L[(size_t)i * w + b] = sqrtl(sum);
        }
    return NSM_OK;
}

/* Solve L L^T u = u in place for cluster factor L (r rows, half bandwidth b). */
void rt_band_solve(const long double *L, int r, int b, long double *u)
{
    int w = b + 1;
    for (int i = 0; i < r; i++) {
        long double sum = u[i];
        for (int k = i - b > 0 ? i - b : 0; k < i; k++)
            sum -= L[(size_t)i * w + (k - i + b)] * u[k];
        u[i] = sum / L[(size_t)i * w + b];
    }
    for (int i = r - 1; i >= 0; i--) {
        long double sum = u[i];
        for (int k = i + 1; k < r && k <= i + b; k++)
            sum -= L[(size_t)k * w + (i - k + b)] * u[k];
        u[i] = sum / L[(size_t)i * w + b];
    }
}

/* The closed impact gaps of the mode in clusters, each with its band and
** factor.  par, pos, own: n ints of scratch. */
static int op_clusters(nsm_sim *s, RtModeOp *op, int *par, int *own, int *pos)
{
    const RtCsr *W = &s->sp.W;
    int n = s->n_vel, g = s->n_gaps, nr = 0;
    for (int i = 0; i < n; i++)
        par[i] = i, own[i] = -1;
    for (int j = 0; j < g; j++) {
        op->slot[j] = op->clus[j] = -1;
        if (!rt_law_held(s, s->mode, j) || W->p[j] == W->p[j + 1])
            continue;
        nr++;
        for (int k = W->p[j] + 1; k < W->p[j + 1]; k++)
            rt_uf_join(par, W->i[W->p[j]], W->i[k]);
    }
    op->nr = nr;
    op->nc = 0;
    /* clusters numbered by their first gap; own[root] = cluster */
    for (int j = 0; j < g; j++) {
        if (!rt_law_held(s, s->mode, j) || W->p[j] == W->p[j + 1])
            continue;
        int root = rt_uf_find(par, W->i[W->p[j]]);
        if (own[root] < 0) {
            own[root] = op->nc;
            op->cstart[op->nc++] = 0;
        }
        op->clus[j] = own[root];
        op->cstart[op->clus[j]]++;
    }
    int acc = 0;                        /* sizes to starts */
    for (int c = 0; c < op->nc; c++) {
        int size = op->cstart[c];
        op->cstart[c] = acc;
        acc += size;
    }
    op->cstart[op->nc] = acc;
    for (int c = 0; c < op->nc; c++)
        op->band[c] = 0;
    int fill[op->nc + 1];
    for (int c = 0; c < op->nc; c++)
        fill[c] = op->cstart[c];
    for (int j = 0; j < g; j++)         /* ascending within a cluster */
        if (op->clus[j] >= 0) {
            op->slot[j] = fill[op->clus[j]]++;
            op->gap[op->slot[j]] = j;
        }
    /* the half bandwidth: the widest span of positions sharing a body */
    for (int i = 0; i < n; i++)
        pos[i] = -1;
    for (int q = 0; q < nr; q++) {
        int j = op->gap[q], c = op->clus[j];
        for (int k = W->p[j]; k < W->p[j + 1]; k++) {
            int i = W->i[k];
            if (pos[i] < 0 || pos[i] < op->cstart[c])
                pos[i] = q;
            if (q - pos[i] > op->band[c])
                op->band[c] = q - pos[i];
        }
    }
    size_t lsz = 0;
    for (int c = 0; c < op->nc; c++) {
        op->lstart[c] = (int)lsz;
        lsz += (size_t)(op->cstart[c + 1] - op->cstart[c]) * (op->band[c] + 1);
    }
    op->lstart[op->nc] = (int)lsz;
    free(op->L);
    op->L = malloc(sizeof(long double) * (lsz ? lsz : 1));
    if (!op->L)
        return NSM_ENOMEM;
    long double *y = op->work;
    for (int c = 0; c < op->nc; c++) {
        int r = op->cstart[c + 1] - op->cstart[c], b = op->band[c];
        long double *L = op->L + op->lstart[c];
        int rc = rt_band_factor(s, op->gap + op->cstart[c], r, b, L);
        if (rc)
            return rc;
        op->sigma[c] = band_inverse_bound(L, r, b, y);
    }
    return NSM_OK;
}

/* The forcing generator of the current switch state: B's nonzeros, G, and
** beta = ||M^-1/2 B||_(inf->2) = max over ||z||_inf <= 1 of ||M^-1/2 B z||_2,
** at most sqrt(sum_i (sum_k |B_ik|)^2 / m_i). */
static int op_generator(nsm_sim *s, RtModeOp *op)
{
    int n = s->n_vel, ng = s->m->n_gen;
    free(op->bi);
    free(op->bx);
    op->bi = NULL;
    op->bx = NULL;
    op->ng = ng;
    op->nb = 0;
    op->beta = 0;
    if (ng == 0)
        return NSM_OK;
    double *B = calloc((size_t)n * ng + (size_t)ng * ng, sizeof(double));
    if (!B)
        return NSM_ENOMEM;
    double *G = B + (size_t)n * ng;
    s->m->generator(s->sw, s->params, s->consts, G, B);
    int nb = 0;
    for (size_t k = 0; k < (size_t)n * ng; k++)
        nb += B[k] != 0;
    op->bi = malloc(sizeof(int) * 2 * (size_t)(nb + 1));
    op->bx = malloc(sizeof(double) * ((size_t)nb + 1 + (size_t)ng * ng));
    if (!op->bi || !op->bx) {
        free(B);
        return NSM_ENOMEM;
    }
    op->bk = op->bi + nb + 1;
    op->G = op->bx + nb + 1;
    memcpy(op->G, G, sizeof(double) * (size_t)ng * ng);
    double b2 = 0;
    for (int i = 0; i < n; i++) {
        double row = 0;
        for (int k = 0; k < ng; k++) {
            double b = B[(size_t)i * ng + k];
            if (b == 0)
                continue;
            op->bi[op->nb] = i;
            op->bk[op->nb] = k;
            op->bx[op->nb++] = b;
            row += fabs(b);
        }
        b2 += row * row * s->mass_inv[i];
    }
    op->beta = sqrt(b2);
    free(B);
    return isfinite(op->beta) ? NSM_OK : 100;
}

/* Build the current mode's operator into mode info mi, with its step
** figures: nu bounds ||A|| in the weighted norm, the step is
** RT_TAYLOR_REACH / nu, and rho = nu.  0, NSM_ENOMEM, or NSM_ENUMERIC
** (a redundant closed set). */
int rt_modeop_build(nsm_sim *s, RtModeInfo *mi)
{
    int n = s->n_vel, g = s->n_gaps;
    const RtCsr *K = &s->sp.K, *C = &s->sp.C, *W = &s->sp.W;
    RtModeOp *op = mi->op;
    if (!op) {
        op = calloc(1, sizeof *op);
        if (!op)
            return NSM_ENOMEM;
        size_t gg = (size_t)(g > 0 ? g : 1);
        op->gap = malloc(sizeof(int) * (9 * gg + 4));
        op->sigma = malloc(sizeof(double) * 2 * gg);
        op->work = malloc(sizeof(long double) * gg);
        mi->op = op;
        if (!op->gap || !op->sigma || !op->work) {
            rt_modeop_free(mi);
            return NSM_ENOMEM;
        }
        op->cstart = op->gap + gg;
        op->band = op->cstart + gg + 1;
        op->lstart = op->band + gg;
        op->slot = op->lstart + gg + 1;
        op->clus = op->slot + gg;
        op->pen = op->clus + gg;
        op->has2 = op->pen + gg;
        op->wn = op->sigma + gg;
    }
    /* the weights: kap and damp over the nonzeros, as mode.c's mode_bounds */
    double ka[n], ca[n];
    for (int i = 0; i < n; i++) {
        ka[i] = rt_csr_abs(K, i);
        ca[i] = rt_csr_abs(C, i);
    }
    op->damped = C->p[n] > 0;
    op->npen = 0;
    for (int j = 0; j < g; j++) {
        double l1 = 0, m2 = 0;
        for (int k = W->p[j]; k < W->p[j + 1]; k++) {
            l1 += fabs(W->x[k]);
            m2 += W->x[k] * W->x[k] * s->mass_inv[W->i[k]];
        }
        op->wn[j] = sqrt(m2);
        int pen = rt_law_engaged(s, s->mode, j);
        rt_gap_form f;                  /* a second form: max of two (law.h) */
        rt_law_of(s, j)->form(s, j, rt_mode_has(s->mode, j), &f);
        op->has2[j] = f.second;
        if (!pen)
            continue;
        op->pen[op->npen++] = j;
        double kj = rt_law_stiffness(s, j), cj = rt_law_closed_damping(s, j);
        op->damped |= cj != 0;
        for (int k = W->p[j]; k < W->p[j + 1]; k++) {
            ka[W->i[k]] += fabs(kj * W->x[k]) * l1;
            ca[W->i[k]] += fabs(cj * W->x[k]) * l1;
        }
    }
    double kap = 0, damp = 0;
    for (int i = 0; i < n; i++) {
        kap = fmax(kap, s->mass_inv[i] * ka[i]);
        damp = fmax(damp, s->mass_inv[i] * ca[i]);
    }
    if (!isfinite(kap) || !isfinite(damp))
        return 100;                     /* mode.c's NSM_ERANGE_MODE: not finite */
    op->kap = kap;
    op->damp = damp;
    op->omega = kap > 0 ? sqrt(kap) : damp > 0 ? damp : 1;
    int rc = op_generator(s, op);
    if (rc)
        return rc;
    double vrow = kap / op->omega + damp;
    op->mu = op->beta == 0 ? 1 : vrow > 0 ? 4 * op->beta / vrow : op->beta / op->omega;
    double gn = 0;
    for (int r = 0; r < op->ng; r++) {
        double sum = 0;
        for (int q = 0; q < op->ng; q++)
            sum += fabs(op->G[r * op->ng + q]);
        gn = fmax(gn, sum);
    }
    int *scratch = malloc(sizeof(int) * 3 * (size_t)n);
    if (!scratch)
        return NSM_ENOMEM;
    rc = op_clusters(s, op, scratch, scratch + n, scratch + 2 * n);
    free(scratch);
    if (rc)
        return rc;
    mi->nu = fmax(fmax(op->omega, vrow + op->beta / op->mu), gn);
    /* the coefficients flushed (op_scale): each entry of each P_k moves by
     * at most RT_FLUSH, a vector of such entries has norm at most RT_FLUSH
     * max(omega, 1, mu) sqrt(sum m_i + 1) and the flow over a step (nu h
     * <= RT_TAYLOR_REACH) grows it by at most e^2 < 8; K + 1 of them */
    double msum = 1;
    for (int i = 0; i < n; i++)
        msum += s->num.mass[i];
    op->flush = 8.0 * (RT_TAYLOR_K + 1) * (double)RT_FLUSH *
                fmax(fmax(op->omega, 1), op->mu) * sqrt(msum);
    mi->h_exact = RT_TAYLOR_REACH / mi->nu;
    mi->h_rk4 = mi->h_dp5 = INFINITY;
    mi->lam_re = mi->lam_im = 0;
    mi->rho = mi->nu;
    mi->has2 = op->has2;
    return NSM_OK;
}

/* AZ = A Z for the mode's operator, and the closed impact gaps' forces
** lambda(Z) into lam (op->nr entries, by position), in long double. */
void rt_modeop_apply(const nsm_sim *s, const RtModeOp *op, const long double *Z, long double *AZ,
                     long double *lam)
{
    const RtCsr *K = &s->sp.K, *C = &s->sp.C, *W = &s->sp.W;
    int n = s->n_vel;
    const long double *x = Z, *v = Z + n;
    long double one = Z[s->n_aug - 1], *a = AZ + n;
    for (int i = 0; i < n; i++) {
        long double F = one * s->num.fconst[i];
        for (int k = K->p[i]; k < K->p[i + 1]; k++)
            F -= K->x[k] * x[K->i[k]];
        for (int k = C->p[i]; k < C->p[i + 1]; k++)
            F -= C->x[k] * v[C->i[k]];
        a[i] = F;
    }
    for (int q = 0; q < op->npen; q++) {
        int j = op->pen[q];
        long double p = -one * s->num.d[j], pd = 0;
        for (int k = W->p[j]; k < W->p[j + 1]; k++) {
            p -= W->x[k] * x[W->i[k]];
            pd -= W->x[k] * v[W->i[k]];
        }
        long double f = rt_law_stiffness(s, j) * p + rt_law_closed_damping(s, j) * pd;
        for (int k = W->p[j]; k < W->p[j + 1]; k++)
            a[W->i[k]] += W->x[k] * f;
    }
    const long double *z = Z + 2 * n;
    for (int e = 0; e < op->nb; e++)
        a[op->bi[e]] += op->bx[e] * z[op->bk[e]];
    for (int i = 0; i < n; i++)
        a[i] *= s->mass_inv[i];
    memcpy(AZ, v, sizeof(long double) * (size_t)n);
    for (int r = 0; r < op->ng; r++) {
        long double sum = 0;
        for (int q = 0; q < op->ng; q++)
            sum += op->G[r * op->ng + q] * z[q];
        AZ[2 * n + r] = sum;
    }
    AZ[s->n_aug - 1] = 0;
    for (int c = 0; c < op->nc; c++) {
        int q0 = op->cstart[c], r = op->cstart[c + 1] - q0;
        long double *mu = lam + q0;
        for (int q = 0; q < r; q++) {       /* -W_c a */
            int j = op->gap[q0 + q];
            long double u = 0;
            for (int k = W->p[j]; k < W->p[j + 1]; k++)
                u -= W->x[k] * a[W->i[k]];
            mu[q] = u;
        }
        rt_band_solve(op->L + op->lstart[c], r, op->band[c], mu);
        for (int q = 0; q < r; q++) {       /* a += M^-1 W_c^T mu */
            int j = op->gap[q0 + q];
            for (int k = W->p[j]; k < W->p[j + 1]; k++)
                a[W->i[k]] += s->mass_inv[W->i[k]] * W->x[k] * mu[q];
        }
    }
}

/* P *= hk, entries below RT_FLUSH in magnitude set to 0.  A wave's
** influence reaches the bodies k springs away through the k-th term only,
** so far from it the coefficients fall like (nu h)^k / k! from one step to
** the next, below the range of doubles within a few steps and into the
** long double's subnormals after some hundred (1e-4000 m/s: each operation
** and each rounding to the double state on them costs a microcode assist,
** a hundred times a normal one).  The entries flushed are far below the
** rounding of the double state; their effect on the motion over a step is
** bounded in op->flush, which the tail bounds include. */
static void op_scale(long double *P, int na, long double hk)
{
    for (int i = 0; i < na; i++) {
        long double v = P[i] * hk;
        P[i] = fabsl(v) < RT_FLUSH ? 0 : v;
    }
}

/* ||Z|| = max(omega ||x||_M, ||v||_M, mu ||z||_inf) of a coefficient
** (its constant 0). */
static double op_norm(const nsm_sim *s, const RtModeOp *op, const long double *Z)
{
    long double sx = 0, sv = 0, zm = 0;
    for (int i = 0; i < s->n_vel; i++) {
        sx += s->num.mass[i] * Z[i] * Z[i];
        sv += s->num.mass[i] * Z[s->n_vel + i] * Z[s->n_vel + i];
    }
    for (int k = 0; k < op->ng; k++)
        zm = fmaxl(zm, fabsl(Z[2 * s->n_vel + k]));
    return fmax(fmax(op->omega * sqrt((double)sx), sqrt((double)sv)), op->mu * (double)zm);
}

/* The step's expansion of degree K (taylor.c's for nu h) in s->tay over
** [0, h] from Z0 by the operator: P_k, the forces lambda(P_k) for k = 0 ..
** K and the tail factors (the caller sets the rest). */
int rt_modeop_taylor(nsm_sim *s, const RtModeInfo *mi, const long double *Z0, double h, int K)
{
    RtTaylor *T = &s->tay;
    const RtModeOp *op = mi->op;
    int na = s->n_aug, nr = op->nr;
    size_t need = (size_t)(RT_TAYLOR_K + 1) * (nr ? nr : 1);
    if ((size_t)T->lam_cap < need) {
        long double *l = realloc(T->lam, sizeof(long double) * need);
        if (!l)
            return NSM_ENOMEM;
        T->lam = l;
        T->lam_cap = (int)need;
    }
    long double *P = T->P;
    memcpy(P, Z0, sizeof(long double) * (size_t)na);
    for (int k = 1; k <= K + 1; k++) {
        long double *Pk = P + (size_t)k * na, hk = (long double)h / k;
        rt_modeop_apply(s, op, P + (size_t)(k - 1) * na, Pk, T->lam + (size_t)(k - 1) * nr);
        if (k > K)
            break;                      /* lambda(P_K) only: P_(K+1) is scratch */
        op_scale(Pk, na, hk);
    }
    double pk = op_norm(s, op, P + (size_t)K * na), q = mi->nu * h / (K + 1);
    T->tail = q < 0.5 ? pk * q / (1 - q) + op->flush : INFINITY;
    T->tail1 = q < 0.5 ? pk * (K + 1) * q / ((1 - q) * (1 - q)) + (K + 1) * op->flush : INFINITY;
    T->K = K;
    return NSM_OK;
}

/* The polynomial of event function j of the current mode along s->tay, its
** law's form (law.h; second: the law's second form, the re-entry form
** k gap + c gap' of an open penalty gap released by force) and the bounds of its tail and its slope's, from the
** form's dual norm: a gap's ||M^-1/2 w||_2 / omega, a closed contact's
** force sigma_c (kap / omega + damp + beta / mu). */
void rt_modeop_form(const nsm_sim *s, int j, int second, long double *a, double *r0, double *r1)
{
    const RtTaylor *T = &s->tay;
    const RtModeOp *op = T->mi->op;
    const RtCsr *W = &s->sp.W;
    int na = s->n_aug, n = s->n_vel, K = T->K;
    double cn;
    if (op->slot[j] >= 0) {
        for (int k = 0; k <= K; k++)
            a[k] = T->lam[(size_t)k * op->nr + op->slot[j]];
        cn = op->sigma[op->clus[j]] * (op->kap / op->omega + op->damp + op->beta / op->mu);
    } else {
        rt_gap_form f;                      /* the law's: sx gap + sv gap' (law.h) */
        rt_law_of(s, j)->form(s, j, rt_mode_has(s->mode, j), &f);
        double sx = second ? f.sx2 : f.sx, sv = second ? f.sv2 : f.sv;
        for (int k = 0; k <= K; k++) {
            const long double *Pk = T->P + (size_t)k * na;
            long double gx = s->num.d[j] * Pk[na - 1], gv = 0;
            for (int e = W->p[j]; e < W->p[j + 1]; e++) {
                gx += W->x[e] * Pk[W->i[e]];
                gv += W->x[e] * Pk[n + W->i[e]];
            }
            a[k] = sx * gx + sv * gv;
        }
        cn = (fabs(sx) / op->omega + fabs(sv)) * op->wn[j];
    }
    long double sum = 0;                /* in long double: one conversion, not K */
    for (int k = 0; k <= K; k++)
        sum += fabsl(a[k]);
    double mag = (double)sum;
    *r0 = cn * T->tail + 1e-17 * mag;
    *r1 = cn * T->tail1 + 1e-17 * K * mag;
}

/* The dual norm of a dense form c (na entries) in the operator's norm:
** ||c_x||_M^-1 / omega + ||c_v||_M^-1 + ||c_z||_1 / mu (the constant's
** entry is 0 in the tail). */
double rt_modeop_dual(const nsm_sim *s, const double *c)
{
    const RtModeOp *op = s->tay.mi->op;
    double sx = 0, sv = 0, sz = 0;
    for (int i = 0; i < s->n_vel; i++) {
        sx += c[i] * c[i] * s->mass_inv[i];
        sv += c[s->n_vel + i] * c[s->n_vel + i] * s->mass_inv[i];
    }
    for (int k = 0; k < op->ng; k++)
        sz += fabs(c[2 * s->n_vel + k]);
    return sqrt(sx) / op->omega + sqrt(sv) + sz / op->mu;
}

/* u = C' v (the damping with the engaged penalty dampers) in double. */
static void op_damp(const nsm_sim *s, const RtModeOp *op, const long double *v, double *u)
{
    const RtCsr *C = &s->sp.C, *W = &s->sp.W;
    for (int i = 0; i < s->n_vel; i++) {
        double sum = 0;
        for (int k = C->p[i]; k < C->p[i + 1]; k++)
            sum += C->x[k] * (double)v[C->i[k]];
        u[i] = sum;
    }
    for (int q = 0; q < op->npen; q++) {
        int j = op->pen[q];
        double wv = 0;
        for (int k = W->p[j]; k < W->p[j + 1]; k++)
            wv += W->x[k] * (double)v[W->i[k]];
        double c = rt_law_closed_damping(s, j);
        for (int k = W->p[j]; k < W->p[j + 1]; k++)
            u[W->i[k]] += c * W->x[k] * wv;
    }
}

/* The coefficients (m <= K) of the dissipated power v^T C' v (into dd)
** and of the external power (B z) . v (into dw) along the K + 1 vectors P
** of a series: sums over k + l = m of (C' v_k) . v_l and (B z_k) . v_l,
** O(K nnz + K^2 n); the first is 0 for an undamped mode, the second without
** forcing. */
static int op_power(const nsm_sim *s, const RtModeOp *op, const long double *P, int K, double *dd,
                    double *dw)
{
    int n = s->n_vel, na = s->n_aug;
    for (int m = 0; m <= K; m++)
        dd[m] = dw[m] = 0;
    if (!op->damped && !op->nb)
        return NSM_OK;
    double *u = malloc(sizeof(double) * (size_t)n);
    if (!u)
        return NSM_ENOMEM;
    for (int pass = 0; pass < 2; pass++) {
        double *acc = pass ? dw : dd;
        if (pass ? !op->nb : !op->damped)
            continue;
        for (int k = 0; k <= K; k++) {
            const long double *Pk = P + (size_t)k * na;
            if (pass == 0) {
                op_damp(s, op, Pk + n, u);
            } else {
                memset(u, 0, sizeof(double) * (size_t)n);
                for (int e = 0; e < op->nb; e++)
                    u[op->bi[e]] += op->bx[e] * (double)Pk[2 * n + op->bk[e]];
            }
            for (int l = 0; k + l <= K; l++) {
                const long double *vl = P + (size_t)l * na + n;
                double sum = 0;
                for (int i = 0; i < n; i++)
                    sum += u[i] * (double)vl[i];
                acc[k + l] += sum;
            }
        }
    }
    free(u);
    return NSM_OK;
}

/* The coefficients of the dissipated power (ed) and of the external power
** (ew) along s->tay (in double: the integrals feed a balance checked to
** 1e-6, as taylor.c's energy_series). */
void rt_modeop_energy(const nsm_sim *s, double *ed, double *ew)
{
    const RtTaylor *T = &s->tay;
    int K = T->K;
    if (op_power(s, T->mi->op, T->P, K, ed, ew))
        for (int m = 0; m <= K; m++)
            ed[m] = ew[m] = NAN;    /* out of memory: the balance fails loudly */
}

/* Z1 = exp(A pieces h) Z0 by the operator's series of degree K over each
** of the pieces (the caller makes nu h at most RT_TAYLOR_REACH), without
** touching the step's expansion in s->tay (an advance inside a step: Zeno
** checks, sections); *Ed (if Ed) and *Ew the dissipated energy and the
** external work over it. */
int rt_modeop_advance(nsm_sim *s, const RtModeInfo *mi, const long double *Z0, double h,
                      int pieces, int K, long double *Z1, double *Ed, double *Ew)
{
    const RtModeOp *op = mi->op;
    int na = s->n_aug, nr = op->nr;
    double ed = 0, ew = 0;
    int keep = Ed && (op->damped || op->nb);
    int nv = keep ? K + 1 : 2;
    long double *P = malloc(sizeof(long double) * ((size_t)nv * na + (nr ? nr : 1)));
    if (!P)
        return NSM_ENOMEM;
    long double *lam = P + (size_t)nv * na;
    memmove(Z1, Z0, sizeof(long double) * (size_t)na);
    for (int p = 0; p < pieces; p++) {
        memcpy(P, Z1, sizeof(long double) * (size_t)na);
        for (int k = 1; k <= K; k++) {
            long double *prev = P + (size_t)((k - 1) % nv) * na;
            long double *cur = P + (size_t)(k % nv) * na, hk = (long double)h / k;
            rt_modeop_apply(s, op, prev, cur, lam);
            op_scale(cur, na, hk);
            for (int i = 0; i < na; i++)
                Z1[i] += cur[i];
        }
        if (keep) {                     /* h sum_m e_m / (m + 1) */
            double dd[K + 1], dw[K + 1];
            if (op_power(s, op, P, K, dd, dw)) {
                free(P);
                return NSM_ENOMEM;
            }
            for (int m = 0; m <= K; m++) {
                ed += h * dd[m] / (m + 1);
                ew += h * dw[m] / (m + 1);
            }
        }
    }
    if (Ed)
        *Ed = ed;
    if (Ew)
        *Ew = ew;
    free(P);
    return NSM_OK;
}
