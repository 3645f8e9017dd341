/*
** sparse.c: the nonzeros of the model's numeric tables.
**
** The model's setup lists the entries of K, C (n x n), W (g x n) and Wt
** (nf x n) as (row, column, value) triplets (nsm/model.h, ABI 3); a chain
** of N beads has about 3N entries in K and 2 per row of W.  After each
** setup the runtime sorts them into compressed sparse rows (entries of one
** element added up, zeros dropped), and every force, gap, energy and
** tolerance of the run goes over those lists: memory and an rk4 step cost
** O(n + g + nonzeros), never O(n^2).  A path that needs a dense matrix
** materialises it here (rt_dense_K, rt_dense_C, rt_dense_W), in storage of
** its own, and only up to RT_DENSE_MAX bodies; one dense row of W or Wt
** (rt_dense_wrow, rt_dense_wtrow) costs O(n) at any size.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

/* The entries T (nnz of them) of a rows x cols matrix by rows into *out,
** each row's columns ascending, entries of one element summed, zeros
** dropped but in the rows flagged in keep (a curved gap's pattern, whose
** values come later: nonlin.c).  0, NSM_ENOMEM, or NSM_EMODEL for an entry
** out of range. */
static int csr_build(const nsm_entries *T, int nnz, int rows, int cols, const unsigned char *keep,
                    RtCsr *out)
{
    size_t m = nnz > 0 ? (size_t)nnz : 0;
    int *p = malloc(sizeof(int) * ((size_t)rows + 2 + m));
    double *x = malloc(sizeof(double) * (m + 1));
    if (!p || !x) {
        free(p);
        free(x);
        return NSM_ENOMEM;
    }
    int *ix = p + rows + 1;
    memset(p, 0, sizeof(int) * ((size_t)rows + 1));
    for (size_t k = 0; k < m; k++) {
        if (T->row[k] < 0 || T->row[k] >= rows || T->col[k] < 0 || T->col[k] >= cols) {
            free(p);
            free(x);
            return NSM_EMODEL;
        }
        p[T->row[k] + 1]++;
    }
    for (int r = 0; r < rows; r++)
        p[r + 1] += p[r];
    /* place by rows (p[r] runs through row r's slots, then is shifted back) */
    for (size_t k = 0; k < m; k++) {
        int at = p[T->row[k]]++;
        ix[at] = T->col[k];
        x[at] = T->val[k];
    }
    for (int r = rows; r > 0; r--)
        p[r] = p[r - 1];
    p[0] = 0;
    /* per row: insertion sort by column (rows are short), then merge */
    int w = 0;
    for (int r = 0; r < rows; r++) {
        int b = p[r], e = p[r + 1];
        for (int a = b + 1; a < e; a++) {
            int c = ix[a], q = a;
            double v = x[a];
            for (; q > b && ix[q - 1] > c; q--) {
                ix[q] = ix[q - 1];
                x[q] = x[q - 1];
            }
            ix[q] = c;
            x[q] = v;
        }
        p[r] = w;
        for (int a = b; a < e;) {
            int c = ix[a];
            double v = 0;
            for (; a < e && ix[a] == c; a++)
                v += x[a];
            if (v != 0 || (keep && keep[r])) {
                ix[w] = c;
                x[w++] = v;
            }
        }
    }
    p[rows] = w;
    free(out->p);
    free(out->x);
    out->p = p;
    out->i = ix;
    out->x = x;
    out->rows = rows;
    out->cols = cols;
    return NSM_OK;
}

/* Entry (r, c) of A, 0 when absent: a binary search in row r. */
double rt_csr_get(const RtCsr *A, int r, int c)
{
    int lo = A->p[r], hi = A->p[r + 1];
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (A->i[mid] == c)
            return A->x[mid];
        if (A->i[mid] < c)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

/* Whether the square matrix A is symmetric (entry by entry). */
static int csr_symmetric(const RtCsr *A)
{
    for (int r = 0; r < A->rows; r++)
        for (int k = A->p[r]; k < A->p[r + 1]; k++)
            if (rt_csr_get(A, A->i[k], r) != A->x[k])
                return 0;
    return 1;
}

/* Sort the entries of K, C, W and Wt into rows (after every setup: the
** values change with the parameters), and whether K and C are symmetric.
** 0, NSM_ENOMEM, or NSM_EMODEL (with the message) when setup listed an
** entry outside its table. */
int rt_sparse_build(nsm_sim *s)
{
    const nsm_model *m = s->m;
    struct { const nsm_entries *T; int nnz, rows; RtCsr *out; const char *name;
             const unsigned char *keep; } t[] = {
        { &s->num.K, m->nnz_K, s->n_vel, &s->sp.K, "K", NULL },
        { &s->num.C, m->nnz_C, s->n_vel, &s->sp.C, "C", NULL },
        { &s->num.W, m->nnz_W, s->n_gaps, &s->sp.W, "W", m->nl & NSM_NL_GAP ? m->gap_curved : NULL },
        { &s->num.Wt, m->nnz_Wt, s->n_fric, &s->sp.Wt, "Wt", m->nl & NSM_NL_SLIP ? m->fric_curved : NULL },
    };
    for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
        int rc = csr_build(t[k].T, t[k].nnz, t[k].rows, s->n_vel, t[k].keep, t[k].out);
        if (rc == NSM_EMODEL)
            rt_text_printf(s->msg, sizeof s->msg, "the model's setup listed an entry of %s outside its "
                            "%d x %d table: regenerate the simulator with this nsmc", t[k].name,
                            t[k].rows, s->n_vel);
        else if (rc)
            rt_text_printf(s->msg, sizeof s->msg, "out of memory listing the model's nonzeros");
        if (rc)
            return s->failed = rc;
    }
    s->sp.sym = csr_symmetric(&s->sp.K) && csr_symmetric(&s->sp.C);
    return NSM_OK;
}

/* Allocate the entry lists setup fills (sizes from the model).  0, or
** NSM_ENOMEM. */
int rt_sparse_alloc(nsm_sim *s)
{
    const nsm_model *m = s->m;
    nsm_entries *T[] = { &s->num.K, &s->num.C, &s->num.W, &s->num.Wt };
    int nnz[] = { m->nnz_K, m->nnz_C, m->nnz_W, m->nnz_Wt };
    for (int k = 0; k < 4; k++) {
        size_t c = nnz[k] > 0 ? (size_t)nnz[k] : 1;
        T[k]->row = calloc(2 * c, sizeof(int));
        T[k]->col = T[k]->row ? T[k]->row + c : NULL;
        T[k]->val = calloc(c, sizeof(double));
        if (!T[k]->row || !T[k]->val)
            return NSM_ENOMEM;
    }
    return NSM_OK;
}

/* Free the entry lists and the rows. */
void rt_sparse_free(nsm_sim *s)
{
    nsm_entries *T[] = { &s->num.K, &s->num.C, &s->num.W, &s->num.Wt };
    for (int k = 0; k < 4; k++) {
        free(T[k]->row);
        free(T[k]->val);
        T[k]->row = T[k]->col = NULL;
        T[k]->val = NULL;
    }
    RtCsr *m[] = { &s->sp.K, &s->sp.C, &s->sp.W, &s->sp.Wt };
    for (int k = 0; k < 4; k++) {
        free(m[k]->p);
        free(m[k]->x);
        m[k]->p = NULL;
        m[k]->x = NULL;
    }
}

/* The 1-norm of row r of A: the sum of its entries' magnitudes (the
** spectrum bounds' row sums). */
double rt_csr_abs(const RtCsr *A, int r)
{
    double sum = 0;
    for (int k = A->p[r]; k < A->p[r + 1]; k++)
        sum += fabs(A->x[k]);
    return sum;
}

/* u += f (row r of A) over its nonzeros. */
void rt_csr_axpy(const RtCsr *A, int r, double f, double *u)
{
    for (int k = A->p[r]; k < A->p[r + 1]; k++)
        u[A->i[k]] += A->x[k] * f;
}

/* Whether rows a and b of A share a column (both sorted). */
int rt_csr_share(const RtCsr *A, int a, int b)
{
    int ka = A->p[a], kb = A->p[b];
    while (ka < A->p[a + 1] && kb < A->p[b + 1]) {
        if (A->i[ka] == A->i[kb])
            return 1;
        if (A->i[ka] < A->i[kb])
            ka++;
        else
            kb++;
    }
    return 0;
}

/* Whether gaps a and b act on a common body (an impulse on one moves the
** other). */
int rt_gaps_coupled(const nsm_sim *s, int a, int b)
{
    return rt_csr_share(&s->sp.W, a, b);
}

/* ---- dense forms, for the paths that need them on small models ---------- */

/* Rows r0 .. r1-1 of A as a dense (r1 - r0) x cols block into out. */
static void csr_dense(const RtCsr *A, int r0, int r1, double *out)
{
    size_t cols = (size_t)A->cols;
    memset(out, 0, sizeof(double) * (size_t)(r1 - r0) * cols);
    for (int r = r0; r < r1; r++)
        for (int k = A->p[r]; k < A->p[r + 1]; k++)
            out[(size_t)(r - r0) * cols + A->i[k]] = A->x[k];
}

/* Whether a dense path (`what`, for the message) may form n x n matrices
** for this model; else the run fails with a message saying so (never a
** silent fallback). */
int rt_dense_ok(nsm_sim *s, const char *what)
{
    if (s->n_vel <= RT_DENSE_MAX)
        return 1;
    rt_text_printf(s->msg, sizeof s->msg, "%s forms dense %d x %d matrices; this model has %d "
                    "bodies, above the %d it is built for (rk4 and adaptive run any size)", what, s->n_vel,
                    s->n_vel, s->n_vel, RT_DENSE_MAX);
    s->failed = NSM_EMETHOD;
    return 0;
}

/* One of K, C (n x n) or W (g x n), `which`, as a dense row-major matrix
** into out, for the path `what` that needs it on a small model.  NSM_OK,
** or NSM_EMETHOD (rt_dense_ok's message) above RT_DENSE_MAX bodies. */
static int dense_of(nsm_sim *s, const RtCsr *A, double *out, const char *what)
{
    if (!rt_dense_ok(s, what))
        return NSM_EMETHOD;
    csr_dense(A, 0, A->rows, out);
    return NSM_OK;
}

int rt_dense_K(nsm_sim *s, double *out, const char *what)
{
    return dense_of(s, &s->sp.K, out, what);
}

int rt_dense_C(nsm_sim *s, double *out, const char *what)
{
    return dense_of(s, &s->sp.C, out, what);
}

int rt_dense_W(nsm_sim *s, double *out, const char *what)
{
    return dense_of(s, &s->sp.W, out, what);
}

/* Gap j's row w_j as a dense n-vector into out; returns out. */
const double *rt_dense_wrow(const nsm_sim *s, int j, double *out)
{
    csr_dense(&s->sp.W, j, j + 1, out);
    return out;
}

/* Friction element k's row Wt[k] as a dense n-vector into out; returns out. */
const double *rt_dense_wtrow(const nsm_sim *s, int k, double *out)
{
    csr_dense(&s->sp.Wt, k, k + 1, out);
    return out;
}

/* Whether gap j's row of W reaches a velocity slot of rigid body b (its
** translation's three and its rotation's three, rigid_rot[b] - 3 onwards):
** the gap acts on that body. */
int rt_gap_on_body(const nsm_sim *s, int j, int b)
{
    const RtCsr *W = &s->sp.W;
    int rot = s->m->rigid_rot[b];
    for (int q = W->p[j]; q < W->p[j + 1]; q++)
        if (W->i[q] >= rot - 3 && W->i[q] < rot + 3)
            return 1;
    return 0;
}
