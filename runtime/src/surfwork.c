/*
** surfwork.c: the work of the moving surfaces, for the energy audit.
**
** A moving surface (surface.c) does work on the bodies through the force of
** its held contact and through the impulses of its impacts.  The first is
** booked over every step (rt_surface_step, called by stats.c), the second
** across each transition, between rt_surface_begin and rt_surface_end,
** called by the transitions and the Zeno jump.  The `sfw` sub-struct of the
** simulation (each surface's work, the velocities at the last booking) is
** owned here.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "law.h"
#include "linalg.h"
#include "rt.h"

/* Allocates the books (none for a model whose gaps are all fixed); 0, or 1
** when out of memory. */
int rt_surfwork_alloc(nsm_sim *s)
{
    if (!s->moving)
        return 0;
    s->sfw.swork = calloc((size_t)s->n_gaps, sizeof(double));
    s->sfw.vbook = calloc((size_t)s->n_vel + 1, sizeof(double));
    return !s->sfw.swork || !s->sfw.vbook;
}

/* Frees what rt_surfwork_alloc took. */
void rt_surfwork_free(nsm_sim *s)
{
    free(s->sfw.swork);
    free(s->sfw.vbook);
    s->sfw.swork = s->sfw.vbook = NULL;
}

/* Work of the moving surfaces on the bodies through impacts so far. */
double rt_surface_impulse_work(const nsm_sim *s)
{
    return s->sfw.Wsurf;
}

/* Books the work of the moving surfaces through the impulses of a
** transition since the last mark (rt_surface_begin, rt_surface_mark or an
** earlier rt_surface_book), which took the velocities from s->sfw.vbook to the
** current ones, and marks the current velocities: the impulses P solve
** W_S M^-1 W_S^T P = W_S (v - vbook) over the impact gaps S that touch now
** (the velocity change lies in the span of their directions), and the
** surfaces' work is sum_j P_j (-h_j'), j moving.  The bodies' mechanical
** energy changed by that work minus what the impacts dissipated, so the
** work is added to Wsurf (injected by the surfaces) and to transition_loss (which then
** holds the dissipation proper).  Returns the work booked. */
double rt_surface_book(nsm_sim *s)
{
    int n = s->n_vel, r = 0, any = 0;
    if (!s->moving || !s->sfw.vbook_on)
        return 0;
    int idx[s->n_gaps + 1];
    const double *v = s->y + n;
    double *vb = s->sfw.vbook;
    for (int j = 0; j < s->n_gaps; j++)
        if (rt_law_impacts(s, j) &&
            fabs(rt_gap(s, j, s->y)) <= 1e3 * rt_gap_tol(s, j, s->y)) {
            idx[r++] = j;
            any |= s->m->gap_moving[j];
        }
    double dv[n], w = 0;
    for (int i = 0; i < n; i++)
        dv[i] = v[i] - vb[i];
    memcpy(vb, v, sizeof(double) * n);
    if (!r || !any)
        return 0;
    double *D = malloc(sizeof(double) * ((size_t)r * r + r));
    if (!D)
        return 0;
    double *P = D + (size_t)r * r;
    rt_delassus(s, idx, r, D);
    for (int k = 0; k < r; k++)
        P[k] = rt_wrow(s, idx[k], dv);
    if (nsm_la_solve(r, D, P, 1) != NSM_LA_OK) {
        free(D);
        return 0;
    }
    for (int k = 0; k < r; k++)
        if (s->m->gap_moving[idx[k]]) {
            double wk = -P[k] * rt_surface_of(s, idx[k], 1, s->t);
            s->sfw.swork[idx[k]] += wk;
            w += wk;
        }
    free(D);
    s->sfw.Wsurf += w;
    rt_transition_loss_add(s, w);
    return w;
}

/* Starts booking a transition's impulses: marks the velocities now. */
void rt_surface_begin(nsm_sim *s)
{
    if (!s->moving)
        return;
    memcpy(s->sfw.vbook, rt_vel(s, s->y), sizeof(double) * (size_t)s->n_vel);
    s->sfw.vbook_on = 1;
}

/* Marks the velocities now without booking: a transition that moves the
** state in time (a Zeno jump's flight to the accumulation point) leaves
** that motion to the integrals. */
void rt_surface_mark(nsm_sim *s)
{
    if (s->moving && s->sfw.vbook_on)
        memcpy(s->sfw.vbook, rt_vel(s, s->y), sizeof(double) * (size_t)s->n_vel);
}

/* Books what is left of a transition and stops booking. */
void rt_surface_end(nsm_sim *s)
{
    rt_surface_book(s);
    s->sfw.vbook_on = 0;
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
    double e0[s->n_events + 1], d0[s->n_events + 1], e1[s->n_events + 1], d1[s->n_events + 1], h = t1 - s->t;
    *dW = 0;
    if (!s->moving || !(h > 0))
        return;
    int any = 0;
    for (int j = 0; j < s->n_gaps; j++)
        any |= s->m->gap_moving[j] && rt_law_held(s, s->mode, j);
    if (!any || rt_events(s, s->mode, s->t, s->y, e0, d0) || rt_events(s, s->mode, t1, Y1, e1, d1))
        return;
    for (int j = 0; j < s->n_gaps; j++) {
        if (!s->m->gap_moving[j] || !rt_law_held(s, s->mode, j))
            continue;
        double wk = 0;
        for (int q = 0; q < 4; q++) {
            double x = gx[q], x2 = x * x, x3 = x2 * x;
            double lam = (2 * x3 - 3 * x2 + 1) * e0[j] + (x3 - 2 * x2 + x) * h * d0[j] +
                         (-2 * x3 + 3 * x2) * e1[j] + (x3 - x2) * h * d1[j];
            wk -= gw[q] * h * lam * rt_surface_of(s, j, 1, s->t + x * h);
        }
        s->sfw.swork[j] += wk;
        *dW += wk;
    }
}

/* Work of gap j's moving surface on the bodies so far (0 for a fixed gap). */
double rt_surface_work(const nsm_sim *s, int j)
{
    return s->sfw.swork ? s->sfw.swork[j] : 0;
}

/* Forgets the surfaces' work (a reset). */
void rt_surface_reset(nsm_sim *s)
{
    s->sfw.Wsurf = 0;
    s->sfw.vbook_on = 0;
    if (s->sfw.swork)
        memset(s->sfw.swork, 0, sizeof(double) * (size_t)s->n_gaps);
}
