/*
** nonlin.c: what a nonlinear model (nsm/model.h, ABI 5) adds to the
** dynamics: forces that depend on the state, curved gaps and slips whose
** coefficients depend on the positions (a nonlinear contact force is its
** law's: law_penalty.c).
**
** A curved gap g_j(x) is presented to the rest of the runtime as its
** tangent at the configuration last evaluated: its row of W holds
** W_j(x) = dg_j/dx and d_j = g_j(x) - W_j(x) . x, so that w_j . x + d_j is
** the gap there, w_j . v its rate, and the impulse and force problems of
** the transitions use W(q) at the impact configuration, as they must.
** Held, it obeys d2/dt2 g_j = W_j a + curv_j = 0: the curvature term
** vT (d2 g_j/dx2) v enters the constraint where a moving surface's h''
** does (dynamics.c).  Every entry point that evaluates the dynamics at a
** state calls rt_nl_at first; the tangent is kept per state, so repeated
** calls at one state cost a comparison.
**
** A curved slip u_k = w_k(x) . v - c_k is presented the same way: its row
** of Wt holds w_k(x) at the state last evaluated (u_k is then exact there),
** and a stuck element obeys u_k' = w_k a + curv_k = 0, its curvature term
** v^T (dw_k/dx) v entering the stuck row of the constrained problem
** (dynamics.c) where a held curved gap's enters its row.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

struct RtNl {
    double *g, *curv;         /* g each: the curved gaps' value and curvature term at ykey */
    double *wval;             /* n_wcurved: their W nonzeros at ykey */
    int *wpos;                /* n_wcurved: where each sits in s->sp.W.x */
    double *fcurv;            /* nf: the curved slips' curvature terms at ykey */
    double *wtval;            /* n_wtcurved: their Wt nonzeros at ykey */
    int *wtpos;               /* n_wtcurved: where each sits in s->sp.Wt.x */
    double *ykey;             /* nq + n: the state the tangent is taken at */
    int valid;
};

/* Allocate the curved gaps' tangent (nothing for a model without them). */
int rt_nl_alloc(nsm_sim *s)
{
    const nsm_model *m = s->m;
    if (!(m->nl & (NSM_NL_GAP | NSM_NL_SLIP)))
        return 0;
    RtNl *nl = calloc(1, sizeof *nl);
    if (!nl)
        return NSM_ENOMEM;
    s->nl = nl;
    size_t nw = m->n_wcurved > 0 ? (size_t)m->n_wcurved : 1, g = (size_t)s->n_gaps + 1;
    nl->g = calloc(g, sizeof(double));
    nl->curv = calloc(g, sizeof(double));
    nl->wval = calloc(nw, sizeof(double));
    nl->wpos = calloc(nw, sizeof(int));
    nl->ykey = calloc((size_t)(s->n_pos + s->n_vel), sizeof(double));
    size_t nwt = m->n_wtcurved > 0 ? (size_t)m->n_wtcurved : 1, nf = (size_t)s->n_fric + 1;
    nl->fcurv = calloc(nf, sizeof(double));
    nl->wtval = calloc(nwt, sizeof(double));
    nl->wtpos = calloc(nwt, sizeof(int));
    if (!nl->g || !nl->curv || !nl->wval || !nl->wpos || !nl->ykey || !nl->fcurv || !nl->wtval ||
        !nl->wtpos)
        return NSM_ENOMEM;
    return 0;
}

/* Free what rt_nl_alloc made. */
void rt_nl_free(nsm_sim *s)
{
    RtNl *nl = s->nl;
    if (!nl)
        return;
    free(nl->g);
    free(nl->curv);
    free(nl->wval);
    free(nl->wpos);
    free(nl->ykey);
    free(nl->fcurv);
    free(nl->wtval);
    free(nl->wtpos);
    free(nl);
    s->nl = NULL;
}

/* The places in the rows of A (W or Wt) of the curved rows' nonzeros:
** row r flagged in curved, columns cols[r][0..ncols[r]-1], into pos.
** NSM_EMODEL when the model's pattern does not list one. */
static int curved_positions(nsm_sim *s, const RtCsr *A, int rows, const unsigned char *curved,
                            const int *ncols, const int *const *cols, int *pos,
                            const char *what)
{
    const nsm_model *m = s->m;
    int at = 0;
    for (int r = 0; r < rows; r++) {
        if (!curved || !curved[r])
            continue;
        for (int k = 0; k < ncols[r]; k++, at++) {
            int col = cols[r][k], q = A->p[r];
            while (q < A->p[r + 1] && A->i[q] != col)
                q++;
            if (q == A->p[r + 1]) {
                rt_text_printf(s->msg, sizeof s->msg, "%s '%s' of the model lists no entry for body "
                                "'%s': regenerate the simulator with this nsmc", what,
                                what[0] == 'g' ? m->gaps[r].name : m->frictions[r].name,
                                m->body_names[col]);
                return s->failed = NSM_EMODEL;
            }
            pos[at] = q;
        }
    }
    return NSM_OK;
}

/* After the tables are sorted into rows (every setup): the place of each
** curved nonzero in W's and Wt's rows. */
int rt_nl_setup(nsm_sim *s)
{
    const nsm_model *m = s->m;
    RtNl *nl = s->nl;
    if (!nl)
        return NSM_OK;
    int rc = curved_positions(s, &s->sp.W, s->n_gaps, m->gap_curved, m->gap_ncols, m->gap_cols,
                              nl->wpos, "gap");
    if (!rc && (m->nl & NSM_NL_SLIP))
        rc = curved_positions(s, &s->sp.Wt, s->n_fric, m->fric_curved, m->fric_ncols, m->fric_cols,
                              nl->wtpos, "friction element");
    nl->valid = 0;
    return rc;
}

/* Write the curved slips' rows of Wt and curvature terms at y. */
static void slips_at(const nsm_sim *s, const double *y)
{
    const nsm_model *m = s->m;
    RtNl *nl = s->nl;
    if (!(m->nl & NSM_NL_SLIP))
        return;
    m->nl_slip(y, s->params, s->consts, nl->fcurv, nl->wtval);
    nsm_sim *w = (nsm_sim *)s;
    for (int q = 0; q < m->n_wtcurved; q++)
        w->sp.Wt.x[nl->wtpos[q]] = nl->wtval[q];
}

/* Take the curved gaps' tangent at state y (positions and velocities):
** W's curved rows, their offsets d and curvature terms.  The tangent is
** the simulation's cached view of its geometry, not part of its state, so
** it is refreshed through a const simulation. */
void rt_nl_at(const nsm_sim *s, const double *y)
{
    RtNl *nl = s->nl;
    if (!nl)
        return;
    int n = s->n_vel;
    if (nl->valid && memcmp(nl->ykey, y, sizeof(double) * (size_t)(s->n_pos + n)) == 0)
        return;
    const nsm_model *m = s->m;
    slips_at(s, y);
    nsm_sim *w = (nsm_sim *)s;
    int at = 0;
    if (m->nl & NSM_NL_GAP)
        m->nl_gap(y, s->params, s->consts, nl->g, nl->curv, nl->wval);
    for (int j = 0; j < s->n_gaps && (m->nl & NSM_NL_GAP); j++) {
        if (!m->gap_curved[j])
            continue;
        double wx = 0;
        for (int k = 0; k < m->gap_ncols[j]; k++, at++) {
            w->sp.W.x[nl->wpos[at]] = nl->wval[at];
            wx += nl->wval[at] * y[m->gap_cols[j][k]];
        }
        w->num.d[j] = nl->g[j] - wx;
    }
    memcpy(nl->ykey, y, sizeof(double) * (size_t)(s->n_pos + n));
    nl->valid = 1;
}

/* Curved gap j at positions x (n values), from the model's function:
** exact wherever x is, whatever the tangent. */
double rt_nl_gap_value(const nsm_sim *s, int j, const double *x)
{
    int n = s->n_vel, nq = s->n_pos, g = s->n_gaps, nw = s->m->n_wcurved > 0 ? s->m->n_wcurved : 1;
    double y[nq + n], gv[g + 1], cv[g + 1], wv[nw];
    memcpy(y, x, sizeof(double) * nq);
    memset(y + nq, 0, sizeof(double) * n);
    s->m->nl_gap(y, s->params, s->consts, gv, cv, wv);
    return gv[j];
}

/* The first curved gap whose value at state y is not finite, or -1: a NaN
** gap never reaches 0, so its contact would never close (a curved gap
** times z/z at --set z=0 let one disc pass through the other, exit 0);
** a model with curved gaps only (rt_nl_gap_undefined asks). */
int rt_nl_gap_nonfinite(const nsm_sim *s, const double *y)
{
    int g = s->n_gaps, nw = s->m->n_wcurved > 0 ? s->m->n_wcurved : 1;
    double gv[g + 1], cv[g + 1], wv[nw];
    s->m->nl_gap(y, s->params, s->consts, gv, cv, wv);
    for (int j = 0; j < g; j++)
        if (s->m->gap_curved[j] && !isfinite(gv[j]))
            return j;
    return -1;
}

/* Forget the tangent (after a setup changed the tables). */
void rt_nl_forget(nsm_sim *s)
{
    if (s->nl)
        s->nl->valid = 0;
}

/* Add to h[2g + j] the curvature term of every curved gap at the tangent's
** state: the held gap's constraint W_j a = -curv_j. */
void rt_nl_curv(const nsm_sim *s, double *hdd)
{
    const RtNl *nl = s->nl;
    if (!nl)
        return;
    for (int j = 0; j < s->n_gaps; j++)
        if (rt_nl_gap_curved(s, j))
            hdd[j] += nl->curv[j];
}

/* The curvature term of gap j at the tangent's state (0 unless curved). */
double rt_nl_curv_of(const nsm_sim *s, int j)
{
    return rt_nl_gap_curved(s, j) ? s->nl->curv[j] : 0;
}

/* The curvature term of friction element k's slip at the tangent's state,
** v^T (dw_k/dx) v (0 unless its coefficients depend on the positions). */
double rt_nl_slip_curv(const nsm_sim *s, int k)
{
    return rt_nl_slip_curved(s, k) ? s->nl->fcurv[k] : 0;
}

/* Add the state-dependent forces at (t, y) to f (n values). */
RT_HOT void rt_nl_force(const nsm_sim *s, double t, const double *y, double *f)
{
    if (s->m->nl_force)
        s->m->nl_force(t, y, s->sw, s->params, s->consts, f);
}

/* The largest magnitude of the state-dependent forces at (t, y), NaN when
** one is not finite (a pole of log, a square root of a negative number):
** i receives the first coordinate whose force is not finite, or the one
** of the largest. */
double rt_nl_force_size(const nsm_sim *s, double t, const double *y, int *i)
{
    int n = s->n_vel;
    double f[n], big = 0;
    memset(f, 0, sizeof f);
    rt_nl_force(s, t, y, f);
    *i = 0;
    for (int k = 0; k < n; k++) {
        if (!isfinite(f[k])) {
            *i = k;
            return NAN;
        }
        if (fabs(f[k]) > big)
            big = fabs(f[k]), *i = k;
    }
    return big;
}

/* The name of the first `force` statement of the source acting on body
** i ("force NAME: on A, B = ..."), into buf, or "" when the source does
** not name one: a message about a force then names the body only. */
const char *rt_nl_force_name(const nsm_sim *s, int i, char *buf, size_t size)
{
    const char *const *src = s->m->source;
    const char *body = s->m->body_names ? s->m->body_names[i] : NULL;
    size_t bl = body ? strcspn(body, ".") : 0;
    buf[0] = 0;
    for (int l = 0; src && body && src[l]; l++) {
        const char *a = src[l], *c, *on;
        if (strncmp(a, "force ", 6) || !(c = strchr(a, ':')) || !(on = strstr(c, " on ")))
            continue;
        for (const char *b = on + 4; *b && *b != '='; b += strcspn(b, ",=")) {
            b += strspn(b, ", ");
            if (!strncmp(b, body, bl) && strcspn(b, " ,=") == bl) {
                rt_text_printf(buf, size, "%.*s", (int)(c - a - 6), a + 6);
                return buf;
            }
        }
    }
    return buf;
}

/* Step of the finite differences below, relative to the state's size. */
static double fd_step(int n, const double *y, const double *d)
{
    double sy = 0, sd = 0;
    for (int i = 0; i < n; i++) {
        sy = fmax(sy, fabs(y[i]));
        sd = fmax(sd, fabs(d[i]));
    }
    return sd > 0 ? 1e-7 * (1 + sy) / sd : 1e-7;
}

/* Time derivatives along the motion (velocities v, accelerations a) of the
** state-dependent forces (added to dF) and of the held curved gaps'
** curvature terms plus dW/dt a (added to h3[j]), by a central difference
** on the model's functions: the event functions' rates need them only to
** steer the root finder, whose bracket keeps the result exact. */
void rt_nl_rates(const nsm_sim *s, double t, const double *y, const double *a, double *dF, double *h3)
{
    int n = s->n_vel, nq = s->n_pos;
    const nsm_model *m = s->m;
    double yp[nq + n], ym[nq + n], d[nq + n];
    rt_rigid_qdot(s, y, d);
    memcpy(d + nq, a, sizeof(double) * n);
    double e = fd_step(nq + n, y, d);
    for (int i = 0; i < nq + n; i++) {
        yp[i] = y[i] + e * d[i];
        ym[i] = y[i] - e * d[i];
    }
    if (m->nl_force) {
        double fp[n], fm[n];
        memset(fp, 0, sizeof fp);
        memset(fm, 0, sizeof fm);
        m->nl_force(t + e, yp, s->sw, s->params, s->consts, fp);
        m->nl_force(t - e, ym, s->sw, s->params, s->consts, fm);
        for (int i = 0; i < n; i++)
            dF[i] += (fp[i] - fm[i]) / (2 * e);
    }
    if (!s->nl || !h3 || !m->nl_gap)    /* no gap: nothing curved to rate */
        return;
    int g = s->n_gaps, nw = m->n_wcurved > 0 ? m->n_wcurved : 1;
    double gp[g + 1], gm[g + 1], cp[g + 1], cm[g + 1], wp[nw], wm[nw];
    m->nl_gap(yp, s->params, s->consts, gp, cp, wp);
    m->nl_gap(ym, s->params, s->consts, gm, cm, wm);
    int at = 0;
    for (int j = 0; j < g; j++) {
        if (!m->gap_curved[j])
            continue;
        double wa = 0;
        for (int k = 0; k < m->gap_ncols[j]; k++, at++)
            wa += (wp[at] - wm[at]) / (2 * e) * a[m->gap_cols[j][k]];
        h3[j] += wa + (cp[j] - cm[j]) / (2 * e);
    }
}

