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
    if (ng <= 0)
        return 0;
    s->surface_gen_rows = calloc((size_t)4 * s->n_gaps * ng, sizeof(double));
    return s->surface_gen_rows == NULL;
}

/* Frees what rt_surface_alloc took. */
void rt_surface_free(nsm_sim *s)
{
    free(s->surface_gen_rows);
    s->surface_gen_rows = NULL;
}

/* Fills the rows H G^k (k = 0..3) from the parameters: called by the reset
** after the model's setup. */
void rt_surface_setup(nsm_sim *s)
{
    int ng = s->m->n_gen, g = s->n_gaps, n = s->n_vel;
    if (!s->surface_gen_rows || !s->m->gap_generator || !s->m->generator)
        return;
    double *G = calloc((size_t)ng * ng + (size_t)n * ng + 1, sizeof(double));
    if (!G)
        return;
    s->m->generator(s->sw, s->params, s->consts, G, G + (size_t)ng * ng);
    s->m->gap_generator(s->params, s->consts, s->surface_gen_rows);
    for (int k = 1; k < 4; k++) {
        const double *prev = s->surface_gen_rows + (size_t)(k - 1) * g * ng;
        double *cur = s->surface_gen_rows + (size_t)k * g * ng;
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
    memset(h, 0, sizeof(double) * 4 * (size_t)s->n_gaps);
    if (s->moving)
        s->m->gap_motion(t, s->params, s->consts, h);
}

/* The k-th derivative of gap j's surface term at time t (0 when fixed). */
double rt_surface_of(const nsm_sim *s, int j, int k, double t)
{
    if (!s->moving)
        return 0;
    double h[4 * s->n_gaps];
    s->m->gap_motion(t, s->params, s->consts, h);
    return h[j + k * s->n_gaps];
}

/* The row H_j G^k (n_gen entries) of gap j, or NULL when it is zero or
** there is no generator. */
const double *rt_surface_row(const nsm_sim *s, int j, int k)
{
    int ng = s->m->n_gen;
    if (!s->surface_gen_rows)
        return NULL;
    const double *r = s->surface_gen_rows + ((size_t)k * s->n_gaps + j) * ng;
    for (int q = 0; q < ng; q++)
        if (r[q] != 0)
            return r;
    return NULL;
}

