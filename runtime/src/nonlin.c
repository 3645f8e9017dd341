/*
** nonlin.c: what a nonlinear model (nsm/model.h, ABI 4) adds to the
** dynamics: forces that depend on the state, curved gaps and penalty laws
** with an exponent.
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
    double *ykey;             /* 2n: the state the tangent is taken at */
    int valid;
};

/* Allocate the curved gaps' tangent (nothing for a model without them). */
int rt_nl_alloc(nsm_sim *s)
{
    const nsm_model *m = s->m;
    if (!(m->nl & NSM_NL_GAP))
        return 0;
    RtNl *nl = calloc(1, sizeof *nl);
    if (!nl)
        return NSM_ENOMEM;
    s->nl = nl;
    size_t nw = m->n_wcurved > 0 ? (size_t)m->n_wcurved : 1, g = (size_t)s->g + 1;
    nl->g = calloc(g, sizeof(double));
    nl->curv = calloc(g, sizeof(double));
    nl->wval = calloc(nw, sizeof(double));
    nl->wpos = calloc(nw, sizeof(int));
    nl->ykey = calloc(2 * (size_t)s->n, sizeof(double));
    if (!nl->g || !nl->curv || !nl->wval || !nl->wpos || !nl->ykey)
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
    free(nl);
    s->nl = NULL;
}

/* After the tables are sorted into rows (every setup): the place of each
** curved nonzero in W's rows.  NSM_EMODEL when the model's pattern does
** not list it. */
int rt_nl_setup(nsm_sim *s)
{
    const nsm_model *m = s->m;
    RtNl *nl = s->nl;
    if (!nl)
        return NSM_OK;
    const RtCsr *W = &s->sp.W;
    int at = 0;
    for (int j = 0; j < s->g; j++) {
        if (!m->gap_curved || !m->gap_curved[j])
            continue;
        for (int k = 0; k < m->gap_ncols[j]; k++, at++) {
            int col = m->gap_cols[j][k], q = W->p[j];
            while (q < W->p[j + 1] && W->i[q] != col)
                q++;
            if (q == W->p[j + 1]) {
                snprintf(s->msg, sizeof s->msg, "gap '%s' of the model lists no entry of W for "
                         "body '%s': regenerate the simulator with this nsmc", m->gaps[j].name,
                         m->body_names[col]);
                return s->failed = NSM_EMODEL;
            }
            nl->wpos[at] = q;
        }
    }
    nl->valid = 0;
    return NSM_OK;
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
    int n = s->n;
    if (nl->valid && memcmp(nl->ykey, y, sizeof(double) * 2 * (size_t)n) == 0)
        return;
    const nsm_model *m = s->m;
    m->nl_gap(y, s->p, s->c, nl->g, nl->curv, nl->wval);
    nsm_sim *w = (nsm_sim *)s;
    int at = 0;
    for (int j = 0; j < s->g; j++) {
        if (!m->gap_curved[j])
            continue;
        double wx = 0;
        for (int k = 0; k < m->gap_ncols[j]; k++, at++) {
            w->sp.W.x[nl->wpos[at]] = nl->wval[at];
            wx += nl->wval[at] * y[m->gap_cols[j][k]];
        }
        w->num.d[j] = nl->g[j] - wx;
    }
    memcpy(nl->ykey, y, sizeof(double) * 2 * (size_t)n);
    nl->valid = 1;
}

/* Curved gap j at positions x (n values), from the model's function:
** exact wherever x is, whatever the tangent. */
double rt_nl_gap_value(const nsm_sim *s, int j, const double *x)
{
    int n = s->n, g = s->g, nw = s->m->n_wcurved > 0 ? s->m->n_wcurved : 1;
    double y[2 * n], gv[g + 1], cv[g + 1], wv[nw];
    memcpy(y, x, sizeof(double) * n);
    memset(y + n, 0, sizeof(double) * n);
    s->m->nl_gap(y, s->p, s->c, gv, cv, wv);
    return gv[j];
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
    for (int j = 0; j < s->g; j++)
        if (s->m->gap_curved[j])
            hdd[j] += nl->curv[j];
}

/* The curvature term of gap j at the tangent's state (0 unless curved). */
double rt_nl_curv_of(const nsm_sim *s, int j)
{
    return s->nl && s->m->gap_curved[j] ? s->nl->curv[j] : 0;
}

/* Add the state-dependent forces at (t, y) to f (n values). */
void rt_nl_force(const nsm_sim *s, double t, const double *y, double *f)
{
    if (s->m->nl_force)
        s->m->nl_force(t, y, s->sw, s->p, s->c, f);
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
    int n = s->n;
    const nsm_model *m = s->m;
    double yp[2 * n], ym[2 * n], d[2 * n];
    memcpy(d, y + n, sizeof(double) * n);
    memcpy(d + n, a, sizeof(double) * n);
    double e = fd_step(2 * n, y, d);
    for (int i = 0; i < 2 * n; i++) {
        yp[i] = y[i] + e * d[i];
        ym[i] = y[i] - e * d[i];
    }
    if (m->nl_force) {
        double fp[n], fm[n];
        memset(fp, 0, sizeof fp);
        memset(fm, 0, sizeof fm);
        m->nl_force(t + e, yp, s->sw, s->p, s->c, fp);
        m->nl_force(t - e, ym, s->sw, s->p, s->c, fm);
        for (int i = 0; i < n; i++)
            dF[i] += (fp[i] - fm[i]) / (2 * e);
    }
    if (!s->nl || !h3)
        return;
    int g = s->g, nw = m->n_wcurved > 0 ? m->n_wcurved : 1;
    double gp[g + 1], gm[g + 1], cp[g + 1], cm[g + 1], wp[nw], wm[nw];
    m->nl_gap(yp, s->p, s->c, gp, cp, wp);
    m->nl_gap(ym, s->p, s->c, gm, cm, wm);
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

/* p^a for penalty gap j, continued oddly below 0 (a penetration that has
** just ended): exactly p for the linear law. */
static double pen_pow(const nsm_sim *s, int j, double p)
{
    double a = s->num.pexp ? s->num.pexp[j] : 1;
    return a == 1 ? p : copysign(pow(fabs(p), a), p);
}

/* Force of penalty gap j at penetration p and its rate pd:
** k p^a + c p'. */
double rt_pen_force(const nsm_sim *s, int j, double p, double pd)
{
    return s->num.kc[j] * pen_pow(s, j, p) + s->num.cc[j] * pd;
}

/* Rate of that force: k a |p|^(a-1) p' + c p''. */
double rt_pen_force_rate(const nsm_sim *s, int j, double p, double pd, double pdd)
{
    double a = s->num.pexp ? s->num.pexp[j] : 1;
    double ka = a == 1 ? s->num.kc[j] : s->num.kc[j] * a * pow(fabs(p), a - 1);
    return ka * pd + s->num.cc[j] * pdd;
}

/* Energy stored in penalty gap j at penetration p >= 0: k p^(a+1)/(a+1). */
double rt_pen_energy(const nsm_sim *s, int j, double p)
{
    double a = s->num.pexp ? s->num.pexp[j] : 1;
    return a == 1 ? 0.5 * s->num.kc[j] * p * p : s->num.kc[j] * pow(fabs(p), a + 1) / (a + 1);
}
