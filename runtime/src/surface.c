/*
** surface.c: gaps whose surface moves with time.
**
** A moving gap is gap_j = w_j . x + d_j + h_j(t), h_j a function of time
** built like a force (constants, powers of t, exponentials, sinusoids).
** Its rate is the relative normal velocity w_j . v + h_j'(t), on which
** impacts act; held shut it follows the surface, w_j . a = -h_j''(t).  The
** model gives h_j and its first three derivatives (gap_motion), and for the
** exact method h_j = H_j . z on the forcing generator's state z; this file
** keeps H and its products with the generator, H G^k for k = 0..3, whose
** rows give the k-th derivative of h_j as a linear form of z.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "linalg.h"
#include "rt.h"

/* Allocates the surfaces' generator rows (none for a model whose gaps are
** all fixed).  Returns 0, or 1 when out of memory. */
int rt_surface_alloc(nsm_sim *s)
{
    int ng = s->m->n_gen;
    s->moving = s->m->n_moving > 0 && s->m->gap_motion && s->m->gap_moving;
    if (!s->moving)
        return 0;
    s->swork = calloc((size_t)s->g, sizeof(double));
    s->vbook = calloc((size_t)s->n + 1, sizeof(double));
    if (!s->swork || !s->vbook)
        return 1;
    if (ng <= 0)
        return 0;
    s->hgen = calloc((size_t)4 * s->g * ng, sizeof(double));
    return s->hgen == NULL;
}

/* Frees what rt_surface_alloc took. */
void rt_surface_free(nsm_sim *s)
{
    free(s->hgen);
    free(s->swork);
    free(s->vbook);
    s->hgen = s->swork = s->vbook = NULL;
}

/* Fills the rows H G^k (k = 0..3) from the parameters: called by the reset
** after the model's setup. */
void rt_surface_setup(nsm_sim *s)
{
    int ng = s->m->n_gen, g = s->g, n = s->n;
    if (!s->hgen || !s->m->gap_generator || !s->m->generator)
        return;
    double *G = calloc((size_t)ng * ng + (size_t)n * ng + 1, sizeof(double));
    if (!G)
        return;
    s->m->generator(s->sw, s->p, s->c, G, G + (size_t)ng * ng);
    s->m->gap_generator(s->p, s->c, s->hgen);
    for (int k = 1; k < 4; k++) {
        const double *prev = s->hgen + (size_t)(k - 1) * g * ng;
        double *cur = s->hgen + (size_t)k * g * ng;
        for (int j = 0; j < g; j++)
            for (int q = 0; q < ng; q++) {
                double sum = 0;
                for (int r = 0; r < ng; r++)
                    sum += prev[(size_t)j * ng + r] * G[(size_t)r * ng + q];
                cur[(size_t)j * ng + q] = sum;
            }
    }
    free(G);
}

/* The surfaces at time t: h[j + k g] is the k-th derivative of h_j
** (k = 0..3), all 0 for fixed gaps. */
void rt_surface(const nsm_sim *s, double t, double *h)
{
    memset(h, 0, sizeof(double) * 4 * (size_t)s->g);
    if (s->moving)
        s->m->gap_motion(t, s->p, s->c, h);
}

/* The k-th derivative of gap j's surface term at time t (0 when fixed). */
double rt_surface_of(const nsm_sim *s, int j, int k, double t)
{
    if (!s->moving)
        return 0;
    double h[4 * s->g];
    s->m->gap_motion(t, s->p, s->c, h);
    return h[j + k * s->g];
}

/* True when gap j moves with time. */
int rt_surface_moves(const nsm_sim *s, int j)
{
    return s->moving && s->m->gap_moving[j];
}

/* The row H_j G^k (n_gen entries) of gap j, or NULL when it is zero or
** there is no generator. */
const double *rt_surface_row(const nsm_sim *s, int j, int k)
{
    int ng = s->m->n_gen;
    if (!s->hgen)
        return NULL;
    const double *r = s->hgen + ((size_t)k * s->g + j) * ng;
    for (int q = 0; q < ng; q++)
        if (r[q] != 0)
            return r;
    return NULL;
}

/* Books the work of the moving surfaces through the impulses of a
** transition since the last mark (rt_surface_begin, rt_surface_mark or an
** earlier rt_surface_book), which took the velocities from s->vbook to the
** current ones, and marks the current velocities: the impulses P solve
** W_S M^-1 W_S^T P = W_S (v - vbook) over the impact gaps S that touch now
** (the velocity change lies in the span of their directions), and the
** surfaces' work is sum_j P_j (-h_j'), j moving.  The bodies' mechanical
** energy changed by that work minus what the impacts dissipated, so the
** work is added to Wsurf (injected by the surfaces) and to Ejump (which then
** holds the dissipation proper).  Returns the work booked. */
double rt_surface_book(nsm_sim *s)
{
    int n = s->n, idx[RT_MAXG], r = 0, any = 0;
    if (!s->moving || !s->vbook_on)
        return 0;
    const double *v = s->y + n;
    double *vb = s->vbook;
    for (int j = 0; j < s->g; j++)
        if (s->m->gaps[j].law == NSM_LAW_IMPACT &&
            fabs(rt_gap(s, j, s->y)) <= 1e3 * rt_gap_tol(s, j, s->y)) {
            idx[r++] = j;
            any |= s->m->gap_moving[j];
        }
    double D[RT_MAXG * RT_MAXG], P[RT_MAXG], dv[n], w = 0;
    for (int i = 0; i < n; i++)
        dv[i] = v[i] - vb[i];
    memcpy(vb, v, sizeof(double) * n);
    if (!r || !any)
        return 0;
    rt_delassus(s, idx, r, D);
    for (int k = 0; k < r; k++)
        P[k] = rt_dot(n, s->num.W + (size_t)idx[k] * n, dv);
    if (nsm_la_solve(r, D, P, 1) != NSM_LA_OK)
        return 0;
    for (int k = 0; k < r; k++)
        if (s->m->gap_moving[idx[k]]) {
            double wk = -P[k] * rt_surface_of(s, idx[k], 1, s->t);
            s->swork[idx[k]] += wk;
            w += wk;
        }
    s->Wsurf += w;
    s->Ejump += w;
    return w;
}

/* Starts booking a transition's impulses: marks the velocities now. */
void rt_surface_begin(nsm_sim *s)
{
    if (!s->moving)
        return;
    memcpy(s->vbook, s->y + s->n, sizeof(double) * (size_t)s->n);
    s->vbook_on = 1;
}

/* Marks the velocities now without booking: a transition that moves the
** state in time (a Zeno jump's flight to the accumulation point) leaves
** that motion to the integrals. */
void rt_surface_mark(nsm_sim *s)
{
    if (s->moving && s->vbook_on)
        memcpy(s->vbook, s->y + s->n, sizeof(double) * (size_t)s->n);
}

/* Books what is left of a transition and stops booking. */
void rt_surface_end(nsm_sim *s)
{
    rt_surface_book(s);
    s->vbook_on = 0;
}

/* The audit of one step from (s->t, s->y) to (t1, Y1) in s->mode: the work
** of each moving surface through its held contact.  Held, w_j . v = -h_j',
** so the power is -lambda_j h_j'(t): 4-point Gauss on the step with
** lambda_j the cubic Hermite interpolant of its values and rates at the
** ends (the event function of a held contact and its derivative) and h_j'
** exact.  The integrated state holds the exact total; this is its share,
** which the rest of the audit leaves out of the bodies' and forces' shares.
** Returns the total in *dW. */
void rt_surface_step(nsm_sim *s, double t1, const double *Y1, double *dW)
{
    static const double gx[4] = { 0.0694318442029737, 0.3300094782075719, 0.6699905217924281,
                                  0.9305681557970263 };
    static const double gw[4] = { 0.1739274225687269, 0.3260725774312731, 0.3260725774312731,
                                  0.1739274225687269 };
    double e0[RT_MAXG], d0[RT_MAXG], e1[RT_MAXG], d1[RT_MAXG], h = t1 - s->t;
    *dW = 0;
    if (!s->moving || !(h > 0))
        return;
    int any = 0;
    for (int j = 0; j < s->g; j++)
        any |= s->m->gap_moving[j] && s->m->gaps[j].law == NSM_LAW_IMPACT && (s->mode >> j & 1u);
    if (!any || rt_events(s, s->mode, s->t, s->y, e0, d0) || rt_events(s, s->mode, t1, Y1, e1, d1))
        return;
    for (int j = 0; j < s->g; j++) {
        if (!s->m->gap_moving[j] || s->m->gaps[j].law != NSM_LAW_IMPACT || !(s->mode >> j & 1u))
            continue;
        double wk = 0;
        for (int q = 0; q < 4; q++) {
            double x = gx[q], x2 = x * x, x3 = x2 * x;
            double lam = (2 * x3 - 3 * x2 + 1) * e0[j] + (x3 - 2 * x2 + x) * h * d0[j] +
                         (-2 * x3 + 3 * x2) * e1[j] + (x3 - x2) * h * d1[j];
            wk -= gw[q] * h * lam * rt_surface_of(s, j, 1, s->t + x * h);
        }
        s->swork[j] += wk;
        *dW += wk;
    }
}

/* Work of gap j's moving surface on the bodies so far (0 for a fixed gap). */
double rt_surface_work(const nsm_sim *s, int j)
{
    return s->swork ? s->swork[j] : 0;
}

/* Forgets the surfaces' work (a reset). */
void rt_surface_reset(nsm_sim *s)
{
    s->Wsurf = 0;
    s->vbook_on = 0;
    if (s->swork)
        memset(s->swork, 0, sizeof(double) * (size_t)s->g);
}
