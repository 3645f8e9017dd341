/*
** sparse.c: the nonzeros of the model's numeric tables.
**
** The model's setup fills K, C (n x n) and W (g x n) as dense arrays
** (nsm/model.h); a chain of N beads has about 3N nonzeros in K and 2 per
** row of W.  After each setup the runtime lists them by rows (compressed
** sparse rows), and every force, gap, energy and tolerance of the run goes
** over those lists: an rk4 step costs O(n + g + nonzeros), not O(n^2).
*/
#include <math.h>
#include <stdlib.h>

#include "rt.h"

/* The nonzeros of the rows x cols dense matrix A by rows into *out; 0, or
** NSM_ENOMEM. */
static int csr_build(const double *A, int rows, int cols, RtCsr *out)
{
    size_t nnz = 0;
    for (size_t k = 0; k < (size_t)rows * cols; k++)
        nnz += A[k] != 0;
    int *p = malloc(sizeof(int) * ((size_t)rows + 1 + nnz + 1));
    double *x = malloc(sizeof(double) * (nnz + 1));
    if (!p || !x) {
        free(p);
        free(x);
        return NSM_ENOMEM;
    }
    int *ix = p + rows + 1;
    size_t k = 0;
    for (int i = 0; i < rows; i++) {
        p[i] = (int)k;
        for (int c = 0; c < cols; c++) {
            double v = A[(size_t)i * cols + c];
            if (v != 0) {
                ix[k] = c;
                x[k++] = v;
            }
        }
    }
    p[rows] = (int)k;
    free(out->p);
    free(out->x);
    out->p = p;
    out->i = ix;
    out->x = x;
    out->rows = rows;
    return NSM_OK;
}

/* Whether the n x n matrix listed in A is symmetric (entry by entry). */
static int csr_symmetric(const RtCsr *A, const double *dense, int n)
{
    for (int r = 0; r < n; r++)
        for (int k = A->p[r]; k < A->p[r + 1]; k++)
            if (dense[(size_t)A->i[k] * n + r] != A->x[k])
                return 0;
    return 1;
}

/* List the nonzeros of K, C and W (after every setup: the values change
** with the parameters), and whether K and C are symmetric.  0, or
** NSM_ENOMEM. */
int rt_sparse_build(nsm_sim *s)
{
    int rc = csr_build(s->num.K, s->n, s->n, &s->sp.K);
    if (!rc)
        rc = csr_build(s->num.C, s->n, s->n, &s->sp.C);
    if (!rc)
        rc = csr_build(s->num.W, s->g, s->n, &s->sp.W);
    if (!rc)
        s->sp.sym = csr_symmetric(&s->sp.K, s->num.K, s->n) &&
                    csr_symmetric(&s->sp.C, s->num.C, s->n);
    return rc;
}

/* Free the lists. */
void rt_sparse_free(nsm_sim *s)
{
    RtCsr *m[] = { &s->sp.K, &s->sp.C, &s->sp.W };
    for (int k = 0; k < 3; k++) {
        free(m[k]->p);
        free(m[k]->x);
        m[k]->p = NULL;
        m[k]->x = NULL;
    }
}

/* Row r of A times u. */
double rt_csr_dot(const RtCsr *A, int r, const double *u)
{
    double sum = 0;
    for (int k = A->p[r]; k < A->p[r + 1]; k++)
        sum += A->x[k] * u[A->i[k]];
    return sum;
}

/* w_j . u over the nonzeros of gap j's row. */
double rt_wrow(const nsm_sim *s, int j, const double *u)
{
    return rt_csr_dot(&s->sp.W, j, u);
}

/* Whether gaps a and b act on a common body (an impulse on one moves the
** other): their rows' columns merged, both being sorted. */
int rt_gaps_coupled(const nsm_sim *s, int a, int b)
{
    const RtCsr *W = &s->sp.W;
    int ka = W->p[a], kb = W->p[b];
    while (ka < W->p[a + 1] && kb < W->p[b + 1]) {
        if (W->i[ka] == W->i[kb])
            return 1;
        if (W->i[ka] < W->i[kb])
            ka++;
        else
            kb++;
    }
    return 0;
}
