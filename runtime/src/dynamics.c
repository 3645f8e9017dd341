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
** the closed set.  Small arrays live on the stack (sizes n and g <= 32).
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "linalg.h"
#include "rt.h"

/* Gap j at positions x and time t: w_j . x + d_j + h_j(t), h_j the moving
** surface's term (surface.c; 0 for a fixed gap). */
double rt_gap_at(const nsm_sim *s, int j, double t, const double *x)
{
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

/* True when gap j is a penalty gap engaged in mode. */
static int is_pen(const nsm_sim *s, const unsigned *mode, int j)
{
    return s->m->gaps[j].law == NSM_LAW_PENALTY && rt_mode_has(mode, j);
}

/* True when gap j is an impact gap held shut in mode. */
static int is_shut(const nsm_sim *s, const unsigned *mode, int j)
{
    return s->m->gaps[j].law == NSM_LAW_IMPACT && rt_mode_has(mode, j);
}

/* F = fext + cflag*f_const - K x - C v + engaged penalty forces.  With cflag 0
** the affine constants (f_const, gap offsets d) are left out, which makes F
** linear in (x, v, fext): the exact method builds its matrices that way. */
void rt_force_parts(const nsm_sim *s, const unsigned *mode, const double *x, const double *v,
                    const double *fext, int cflag, double *F)
{
    int n = s->n;
    for (int i = 0; i < n; i++)
        F[i] = (fext ? fext[i] : 0) + (cflag ? s->num.fconst[i] : 0)
             - rt_csr_dot(&s->sp.K, i, x) - rt_csr_dot(&s->sp.C, i, v);
    for (int j = 0; j < s->g; j++) {
        if (!is_pen(s, mode, j))
            continue;
        double p = -(rt_wrow(s, j, x) + (cflag ? s->num.d[j] : 0));
        double pd = -rt_wrow(s, j, v);
        add_w(s, j, s->num.kc[j] * p + s->num.cc[j] * pd, F);
    }
    if (s->nf)
        rt_fric_forces(s, mode, x, v, cflag, F);
}

/* Delassus matrix D = W_S M^-1 W_S^T over the gaps listed in idx[0..r-1]:
** the one place it is formed (constraint forces, projections, impulses). */
void rt_delassus(const nsm_sim *s, const int *idx, int r, double *D)
{
    const RtCsr *W = &s->sp.W;
    for (int a = 0; a < r; a++)
        for (int b = 0; b < r; b++) {
            /* the rows' nonzeros merged (columns ascending) */
            int ka = W->p[idx[a]], ea = W->p[idx[a] + 1], kb = W->p[idx[b]], eb = W->p[idx[b] + 1];
            double sum = 0;
            while (ka < ea && kb < eb) {
                if (W->i[ka] == W->i[kb]) {
                    sum += W->x[ka] * s->minv[W->i[ka]] * W->x[kb];
                    ka++, kb++;
                } else if (W->i[ka] < W->i[kb]) {
                    ka++;
                } else {
                    kb++;
                }
            }
            D[(size_t)a * r + b] = sum;
        }
}

/* Gaps of a set as an index list; returns their number. */
static int set_list(const nsm_sim *s, const unsigned *set, int *idx)
{
    int r = 0;
    for (int j = 0; j < s->g; j++)
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
** stuck element.  Returns NSM_ENUMERIC when the constraints are redundant. */
static int accel_constrained(const nsm_sim *s, const unsigned *mode, int r, const double *hdd,
                             double *a, double *lam, double *lamf);

int rt_accel_surf(const nsm_sim *s, const unsigned *mode, const double *F, const double *hdd,
                  double *a, double *lam, double *lamf)
{
    int n = s->n, r = 0;
    for (int i = 0; i < n; i++)
        a[i] = s->minv[i] * F[i];
    if (lam)
        for (int j = 0; j < s->g; j++)
            lam[j] = 0;
    if (lamf)
        for (int k = 0; k < s->nf; k++)
            lamf[k] = 0;
    for (int j = 0; j < s->g; j++)
        r += is_shut(s, mode, j);
    for (int k = 0; k < s->nf; k++)
        r += rt_fric_stuck(s, mode, k);
    if (r == 0)
        return NSM_OK;
    return accel_constrained(s, mode, r, hdd, a, lam, lamf);
}

/* The constrained part of rt_accel_surf over its r constraint rows: a holds
** M^-1 F on entry and the constrained accelerations on return. */
static int accel_constrained(const nsm_sim *s, const unsigned *mode, int r, const double *hdd,
                             double *a, double *lam, double *lamf)
{
    int n = s->n, *idx = malloc(sizeof(int) * (size_t)r);
    const double **row = malloc(sizeof(double *) * 2 * (size_t)r), **dir;
    double *dirs = s->nf ? malloc(sizeof(double) * (size_t)r * n) : NULL;
    double *D = malloc(sizeof(double) * ((size_t)r * r + r)), *mu;
    int rc = NSM_OK;
    if (!idx || !row || !D || (s->nf && !dirs)) {
        rc = NSM_ENOMEM;
        goto out;
    }
    dir = row + r;
    mu = D + (size_t)r * r;
    r = 0;
    /* a closed gap's force acts along w_j, plus the slip forces of the
     * friction elements it presses (their normal force is its force) */
    for (int j = 0; j < s->g; j++)
        if (is_shut(s, mode, j)) {
            idx[r] = j;
            row[r] = dir[r] = s->num.W + (size_t)j * n;
            if (s->nf) {
                double *d = dirs + (size_t)r * n;
                memcpy(d, row[r], sizeof(double) * n);
                rt_fric_gap_dir(s, mode, j, d);
                dir[r] = d;
            }
            r++;
        }
    for (int k = 0; k < s->nf; k++)
        if (rt_fric_stuck(s, mode, k)) {
            idx[r] = s->g + k;
            row[r] = dir[r] = s->num.Wt + (size_t)k * n;
            r++;
        }
    for (int p = 0; p < r; p++)
        for (int q = 0; q < r; q++) {
            double sum = 0;
            for (int i = 0; i < n; i++)
                sum += row[p][i] * s->minv[i] * dir[q][i];
            D[p * r + q] = sum;
        }
    for (int k = 0; k < r; k++)
        mu[k] = -rt_dot(n, row[k], a) - (hdd && idx[k] < s->g ? hdd[idx[k]] : 0);
    if (nsm_la_solve(r, D, mu, 1) != NSM_LA_OK) {
        rc = NSM_ENUMERIC;
        goto out;
    }
    for (int k = 0; k < r; k++) {
        for (int i = 0; i < n; i++)
            a[i] += s->minv[i] * dir[k][i] * mu[k];
        if (idx[k] < s->g) {
            if (lam)
                lam[idx[k]] = mu[k];
        } else if (lamf) {
            lamf[idx[k] - s->g] = mu[k];
        }
    }
out:
    free(idx);
    free(row);
    free(dirs);
    free(D);
    return rc;
}

/* rt_accel_surf for fixed surfaces (or the homogeneous part of a moving one). */
int rt_accel_full(const nsm_sim *s, const unsigned *mode, const double *F, double *a, double *lam,
                  double *lamf)
{
    return rt_accel_surf(s, mode, F, NULL, a, lam, lamf);
}

/* Accelerations a for the force F in mode, and the forces lambda of the
** closed impact gaps (lam may be NULL; entries of other gaps are set to 0).
** Returns NSM_ENUMERIC when the closed constraints are redundant. */
int rt_accel_from_force(const nsm_sim *s, const unsigned *mode, const double *F, double *a, double *lam)
{
    return rt_accel_full(s, mode, F, a, lam, NULL);
}

/* Energy rates appended to a derivative: dissipation v^T C v plus engaged
** penalty dampers c (w.v)^2, and the power of the external forces (with
** friction's surface work and the moving surfaces' work lambda_j w_j . v
** through their held contacts; lam NULL: none held on a moving one). */
static void energy_rates(const nsm_sim *s, const unsigned *mode, const double *x, const double *v,
                         const double *fext, const double *lam, const double *lamf, double *Yd)
{
    int n = s->n;
    double pd = 0;
    for (int i = 0; i < n; i++)
        pd += v[i] * rt_csr_dot(&s->sp.C, i, v);
    for (int j = 0; j < s->g; j++)
        if (is_pen(s, mode, j)) {
            double wv = rt_wrow(s, j, v);
            pd += s->num.cc[j] * wv * wv;
        }
    double fd = 0, fw = 0;
    if (s->nf)
        rt_fric_power(s, mode, x, v, lam, lamf, &fd, &fw);
    if (s->moving && lam)
        for (int j = 0; j < s->g; j++)
            if (is_shut(s, mode, j) && s->m->gap_moving[j])
                fw += lam[j] * rt_wrow(s, j, v);
    Yd[2 * n] = pd + fd;
    Yd[2 * n + 1] = rt_dot(n, fext, v) + fw;
}

/* External force at time t with the current switches (zeros if none). */
static void ext_force(const nsm_sim *s, double t, double *f)
{
    for (int i = 0; i < s->n; i++)
        f[i] = 0;
    if (s->m->force)
        s->m->force(t, s->sw, s->p, s->c, f);
}

/* Derivative of Y by the generic path. */
int rt_deriv_generic(const nsm_sim *s, const unsigned *mode, double t, const double *Y, double *Yd)
{
    int n = s->n;
    double f[n], F[n], lamf[s->nf + 1], lam[s->g + 1], h[4 * s->g + 1];
    ext_force(s, t, f);
    rt_surface(s, t, h);
    rt_force_parts(s, mode, Y, Y + n, f, 1, F);
    memcpy(Yd, Y + n, sizeof(double) * n);
    int rc = rt_accel_surf(s, mode, F, h + 2 * s->g, Yd + n, lam, lamf);
    energy_rates(s, mode, Y, Y + n, f, lam, lamf, Yd);
    return rc;
}

/* Derivative of Y: the model's derived right-hand side of the mode if it has
** one, else the generic path; energy rates appended either way. */
int rt_deriv(const nsm_sim *s, const unsigned *mode, double t, const double *Y, double *Yd)
{
    const nsm_model *m = s->m;
    if (!s->nf && m->rhs && m->rhs(mode, t, Y, s->sw, s->p, s->c, Yd) == 0) {
        double f[s->n], lam[s->g + 1];
        ext_force(s, t, f);
        int held = s->moving && m->lambda && m->lambda(mode, t, Y, s->sw, s->p, s->c, lam) == 0;
        energy_rates(s, mode, Y, Y + s->n, f, held ? lam : NULL, NULL, Yd);
        return NSM_OK;
    }
    return rt_deriv_generic(s, mode, t, Y, Yd);
}

/* Contact forces of all gaps in mode (0 for open gaps): the constraint
** forces of closed impact gaps, k p + c p' for engaged penalty gaps. */
int rt_lambda(const nsm_sim *s, const unsigned *mode, double t, const double *y, double *lam)
{
    const nsm_model *m = s->m;
    int n = s->n;
    if (!s->nf && m->lambda && m->lambda(mode, t, y, s->sw, s->p, s->c, lam) == 0)
        return NSM_OK;
    double f[n], F[n], a[n], h[4 * s->g + 1];
    ext_force(s, t, f);
    rt_surface(s, t, h);
    rt_force_parts(s, mode, y, y + n, f, 1, F);
    int rc = rt_accel_surf(s, mode, F, h + 2 * s->g, a, lam, NULL);
    for (int j = 0; j < s->g; j++)
        if (is_pen(s, mode, j)) {
            lam[j] = -s->num.kc[j] * rt_gap_at(s, j, t, y) - s->num.cc[j] * rt_wrow(s, j, y + n);
        }
    return rc;
}

/* Event functions and their time derivatives by the generic path, per the
** table in nsm/model.h; the friction elements' follow the gaps' (ev and
** evd hold ge entries). */
int rt_events_generic(const nsm_sim *s, const unsigned *mode, double t, const double *y, double *ev,
                      double *evd)
{
    int n = s->n, g = s->g;
    const double *x = y, *v = y + n;
    double f[n], fd[n], F[n], a[n], lam[g + 1], dF[n], da[n], dlam[g + 1];
    double lamf[s->nf + 1], dlamf[s->nf + 1], h[4 * g + 1];
    ext_force(s, t, f);
    rt_surface(s, t, h);
    for (int i = 0; i < n; i++)
        fd[i] = 0;
    if (s->m->force_dot)
        s->m->force_dot(t, s->sw, s->p, s->c, fd);
    rt_force_parts(s, mode, x, v, f, 1, F);
    int rc = rt_accel_surf(s, mode, F, h + 2 * g, a, lam, lamf);
    if (rc)
        return rc;
    /* dF/dt = f' - K v - C a + engaged penalty w (k p' + c p''), linear in (v, a);
     * a held moving gap's constraint w . a = -h'' differentiates to w . da = -(the third derivative of h) */
    rt_force_parts(s, mode, v, a, fd, 0, dF);
    rc = rt_accel_surf(s, mode, dF, h + 3 * g, da, dlam, dlamf);
    if (rc)
        return rc;
    if (s->nf)
        rt_fric_events(s, mode, x, v, a, lam, dlam, lamf, dlamf, ev + g, evd + g);
    for (int j = 0; j < g; j++) {
        double gap = rt_wrow(s, j, x) + s->num.d[j] + h[j], wv = rt_wrow(s, j, v) + h[g + j];
        double wa = rt_wrow(s, j, a) + h[2 * g + j];
        double k = s->num.kc[j], c = s->num.cc[j];
        int closed = rt_mode_has(mode, j);
        if (s->m->gaps[j].law == NSM_LAW_IMPACT) {
            ev[j] = closed ? lam[j] : gap;
            evd[j] = closed ? dlam[j] : wv;
        } else if (!closed) {
            double fs = k * gap + c * wv;
            if (s->m->gaps[j].release == NSM_RELEASE_GAP || gap >= fs) {
                ev[j] = gap;
                evd[j] = wv;
            } else {
                ev[j] = fs;
                evd[j] = k * wv + c * wa;
            }
        } else if (s->m->gaps[j].release == NSM_RELEASE_FORCE) {
            ev[j] = -k * gap - c * wv;
            evd[j] = -k * wv - c * wa;
        } else {
            ev[j] = -gap;
            evd[j] = -wv;
        }
    }
    return NSM_OK;
}

/* Event functions of every gap in mode and their derivatives: the model's
** derived ones if it has them, else the generic path. */
int rt_events(const nsm_sim *s, const unsigned *mode, double t, const double *y, double *ev, double *evd)
{
    const nsm_model *m = s->m;
    if (!s->nf && m->event && m->event(mode, t, y, s->sw, s->p, s->c, ev, evd) == 0)
        return NSM_OK;
    return rt_events_generic(s, mode, t, y, ev, evd);
}

/* Size below which gap j counts as closed: rounding of w.x + d. */
double rt_gap_tol(const nsm_sim *s, int j, const double *x)
{
    const RtCsr *W = &s->sp.W;
    double sc = fabs(s->num.d[j]) + (s->moving ? fabs(rt_surface_of(s, j, 0, s->t)) : 0);
    for (int k = W->p[j]; k < W->p[j + 1]; k++)
        sc += fabs(W->x[k] * x[W->i[k]]);
    return 1e-10 * sc + 1e-14;
}

/* Relative velocity below which gap j counts as at rest. */
double rt_vel_tol(const nsm_sim *s, int j, const double *v)
{
    const RtCsr *W = &s->sp.W;
    double sc = 0;
    for (int k = W->p[j]; k < W->p[j + 1]; k++)
        sc += fabs(W->x[k] * v[W->i[k]]);
    return 1e-9 * sc + 1e-12;
}

/* Magnitude of the forces acting at (t, y): the scale of force rounding. */
double rt_force_scale(const nsm_sim *s, double t, const double *y)
{
    int n = s->n;
    double f[n], sc = 0;
    ext_force(s, t, f);
    const RtCsr *K = &s->sp.K, *C = &s->sp.C;
    for (int i = 0; i < n; i++) {
        sc += fabs(f[i]) + fabs(s->num.fconst[i]);
        for (int k = K->p[i]; k < K->p[i + 1]; k++)
            sc += fabs(K->x[k] * y[K->i[k]]);
        for (int k = C->p[i]; k < C->p[i + 1]; k++)
            sc += fabs(C->x[k] * y[n + C->i[k]]);
    }
    return sc;
}

/* The force LCP that decides which touching gaps of cand stick:
** lambda >= 0 _|_ W_S a >= 0 with a = M^-1 (F + W_S^T lambda), F the forces of
** mode's engaged penalty gaps and springs (impact constraints left out).
** lam[j] gets lambda for j in cand, 0 elsewhere. */
int rt_force_lcp(const nsm_sim *s, const unsigned *mode, double t, const double *y,
                 const unsigned *cand, double *lam)
{
    int n = s->n, idx[s->g + 1];
    int r = set_list(s, cand, idx);
    for (int j = 0; j < s->g; j++)
        lam[j] = 0;
    if (r == 0)
        return NSM_OK;
    double f[n], F[n], a[n], *D = malloc(sizeof(double) * ((size_t)r * r + 2 * (size_t)r));
    if (!D)
        return NSM_ENOMEM;
    double *q = D + (size_t)r * r, *z = q + r;
    unsigned pen[s->mw];            /* mode without its impact constraints */
    rt_mode_copy(s, pen, mode);
    for (int j = 0; j < s->g; j++)
        if (is_shut(s, mode, j))
            rt_mode_del(pen, j);
    ext_force(s, t, f);
    rt_force_parts(s, pen, y, y + n, f, 1, F);
    for (int i = 0; i < n; i++)
        a[i] = s->minv[i] * F[i];
    rt_delassus(s, idx, r, D);
    for (int k = 0; k < r; k++)     /* the relative acceleration, the surface's included */
        q[k] = rt_wrow(s, idx[k], a) + rt_surface_of(s, idx[k], 2, t);
    int rc = nsm_lcp_solve(r, D, q, z, NULL) != NSM_LA_OK ? NSM_ENUMERIC : NSM_OK;
    for (int k = 0; k < r && !rc; k++)
        lam[idx[k]] = z[k];
    free(D);
    return rc;
}

/* Remove the relative velocities of the gaps in set, in the metric of M
** (the plastic projection): v -= M^-1 W^T D^-1 (W v + h'), h' the moving
** surfaces' velocities at the current time (the gaps then move with them). */
int rt_project(const nsm_sim *s, const unsigned *set, double *v)
{
    int idx[s->g + 1];
    int r = set_list(s, set, idx);
    if (r == 0)
        return NSM_OK;
    double *D = malloc(sizeof(double) * ((size_t)r * r + r));
    if (!D)
        return NSM_ENOMEM;
    double *mu = D + (size_t)r * r;
    rt_delassus(s, idx, r, D);
    for (int k = 0; k < r; k++)
        mu[k] = rt_gap_rate(s, idx[k], s->t, v);
    int rc = nsm_la_solve(r, D, mu, 1) != NSM_LA_OK ? NSM_ENUMERIC : NSM_OK;
    for (int k = 0; k < r && !rc; k++) {
        const RtCsr *W = &s->sp.W;
        for (int q = W->p[idx[k]]; q < W->p[idx[k] + 1]; q++)
            v[W->i[q]] -= s->minv[W->i[q]] * W->x[q] * mu[k];
    }
    free(D);
    return rc;
}

/* Force rounding level at the state y of mode: forces below it count as 0
** (the scale of the applied forces and of the engaged penalty forces). */
double rt_force_tol(const nsm_sim *s, const unsigned *mode, const double *y)
{
    double sc = rt_force_scale(s, s->t, y);
    for (int j = 0; j < s->g; j++)
        if (rt_mode_has(mode, j))
            sc += fabs(s->num.kc[j] * rt_gap(s, j, y)) + fabs(s->num.cc[j] * rt_wrow(s, j, y + s->n));
    return 1e-10 * sc + 1e-300;
}

/* Kinetic plus potential energy in mode: 1/2 v.Mv + 1/2 x.Kx - f_const.x
** + 1/2 k p^2 for engaged penalty gaps.  The potential of the linear field
** -K x + f_const is defined up to a constant; Voff (set at reset) makes it the
** physical one of the springs and gravity when the model lists its springs. */
double rt_mech_energy(const nsm_sim *s, const unsigned *mode, const double *y)
{
    double kin, pot;
    int n = s->n;
    kin = pot = 0;
    for (int i = 0; i < n; i++) {
        kin += 0.5 * s->num.mass[i] * y[n + i] * y[n + i];
        pot += 0.5 * y[i] * rt_csr_dot(&s->sp.K, i, y) - s->num.fconst[i] * y[i];
    }
    for (int j = 0; j < s->g; j++)
        if (s->m->gaps[j].law == NSM_LAW_PENALTY && rt_mode_has(mode, j)) {
            double pj = -rt_gap(s, j, y);
            pot += 0.5 * s->num.kc[j] * pj * pj;
        }
    return kin + pot + s->Voff;
}

/* The multipliers of the stuck elements of mode at (t, y), and the
** closed impact gaps' forces (lam, may be NULL). */
int rt_multipliers(nsm_sim *s, const unsigned *mode, double t, const double *y, double *lam,
                            double *lamf)
{
    int n = s->n;
    double f[n], F[n], a[n];
    for (int i = 0; i < n; i++)
        f[i] = 0;
    if (s->m->force)
        s->m->force(t, s->sw, s->p, s->c, f);
    rt_force_parts(s, mode, y, y + n, f, 1, F);
    return rt_accel_full(s, mode, F, a, lam, lamf);
}
