/*
** spacefric.c: spatial Coulomb friction of a sphere of a rigid body on a
** fixed plane, in flight between events (docs/theory.md section 19).
**
** Element k (nsm_space_friction) sits on the sphere's curved impact gap j
** of rigid body b.  At each evaluated state (rt_sf_at) it forms, over the
** body's six velocities u_b = (v, w) (v world frame, w body frame):
**   the slip rows   T_i = (t_i, s x R^T t_i)  (t_1, t_2 unit tangents of
**                   the plane, s = c - rho R^T n the contact point from
**                   the centre of mass, body frame), gamma_i = T_i . u_b,
**   the drilling row D = (0, Rd n_b), n_b = R^T n, gamma_3 = Rd w_n
**                   (only when sf_drill = Rd > 0),
**   their curvature terms (gammadot_i = T_i . udot + curv_i):
**                   t_i . R (w x (w x c)) (the contact point's own motion
**                   over the sphere adds rho w x n_b to s, and s + rho n_b
**                   = c), 0 for the drilling row (d n_b / dt = n_b x w).
** All the held contacts of one body make one force problem (rt_sf_accel):
** a sliding contact pushes along W_N + f_1 per unit normal force, f_1 =
** -mu sum_i d_i row_i with d its sliding direction (gamma_F / |gamma_F|,
** or the start's direction for a slip started from zero: slide_dir), a
** sticking contact (its mode bit set) along each of its normal and slip
** rows; the normal rows, and the sticking contacts' slip rows, are held
** at rest.  The directions do not depend on the forces, so the problem is
** a small dense linear system, not symmetric when a contact slides.  The
** power of friction while sliding is mu lambda_N d . gamma_F.  The generic
** clusters (dynamics.c) never see these gaps; a body whose held contacts
** mix them with others is refused (spacestick.c).  The mass
** operator is diagonal for bodies in space (mass_inv).
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "law.h"
#include "linalg.h"
#include "rt.h"

/* An element's kinematics at the state last evaluated. */
typedef struct SfKin {
    int cols[6];              /* the body's velocity slots: v1..v3, w1..w3 */
    double rows[3][6];        /* T_1, T_2, D over cols (D only with drilling) */
    double curv[3];           /* their curvature terms */
    double gam[3];            /* gamma_F */
    double lamf[3];           /* the stick force lambda_F of the last value solve */
} SfKin;

struct RtSf {
    SfKin *kin;               /* nsf */
    int *of_gap;              /* g: the element on gap j, -1 */
    double tan[2][3];         /* scratch: tangents */
    int cuts;                 /* consecutive steps cut to land a slip on zero */
    double *vscale;           /* nsf: the largest velocity scale met (rt_sf_scale) */
    int *start;               /* nsf: 1 while a slip started from zero (rt_sf_start) */
    double *dir0;             /* 3 nsf: the started slip's direction */
    double *start_tol;        /* nsf: |gamma_F| below which dir0 holds */
    int edge;                 /* 1 when the last step ended at a stick force's cone */
    int valid;                /* every element's body and gap in range (else the run refuses) */
};

/* Allocate the elements' scratch (the numbers the model's setup fills,
** nsm_numeric's sf_* arrays, are sim.c's with the other numbers); nothing
** for a model without them. */
int rt_sf_alloc(nsm_sim *s)
{
    const nsm_model *m = s->m;
    int nsf = s->n_space_fric;
    if (nsf == 0)
        return NSM_OK;
    RtSf *sf = calloc(1, sizeof *sf);
    if (!sf)
        return NSM_ENOMEM;
    s->sf = sf;
    sf->kin = calloc((size_t)nsf, sizeof *sf->kin);
    sf->of_gap = malloc(sizeof(int) * (size_t)(s->n_gaps + 1));
    sf->vscale = calloc((size_t)nsf, sizeof(double));
    sf->start = calloc((size_t)nsf, sizeof(int));
    sf->dir0 = calloc(3 * (size_t)nsf, sizeof(double));
    sf->start_tol = calloc((size_t)nsf, sizeof(double));
    if (!sf->kin || !sf->of_gap || !sf->vscale || !sf->start || !sf->dir0 || !sf->start_tol)
        return NSM_ENOMEM;
    for (int j = 0; j < s->n_gaps; j++)
        sf->of_gap[j] = -1;
    sf->valid = m->rigid_rot != NULL;
    for (int k = 0; k < nsf; k++) {
        int j = m->space_frictions[k].gap, b = m->space_frictions[k].body;
        if (j >= 0 && j < s->n_gaps && sf->of_gap[j] < 0)
            sf->of_gap[j] = k;
        if (j < 0 || j >= s->n_gaps || b < 0 || b >= m->n_rigid)
            sf->valid = 0;
    }
    return NSM_OK;
}

/* Free what rt_sf_alloc allocated. */
void rt_sf_free(nsm_sim *s)
{
    if (s->sf) {
        free(s->sf->kin);
        free(s->sf->of_gap);
        free(s->sf->vscale);
        free(s->sf->start);
        free(s->sf->dir0);
        free(s->sf->start_tol);
        free(s->sf);
        s->sf = NULL;
    }
}

/* The element on gap j, -1 when the gap carries none. */
int rt_sf_of_gap(const nsm_sim *s, int j)
{
    return s->sf && s->sf->valid && j >= 0 && j < s->n_gaps ? s->sf->of_gap[j] : -1;
}

/* Counts the consecutive steps cut to land a slip on zero: cut 1 adds
** one, 0 starts again; returns the count. */
int rt_sf_cuts(nsm_sim *s, int cut)
{
    s->sf->cuts = cut ? s->sf->cuts + 1 : 0;
    return s->sf->cuts;
}

/* The largest of element k's velocity scales met so far and v. */
double rt_sf_scale(nsm_sim *s, int k, double v)
{
    s->sf->vscale[k] = fmax(s->sf->vscale[k], v);
    return s->sf->vscale[k];
}

/* Element k's slip starts from zero (stick -> slip, or a slip at zero
** whose stick force leaves the cone): its friction opposes the unit
** direction d0 (3 values) until |gamma_F| exceeds tol; on = 0 ends it. */
void rt_sf_start(nsm_sim *s, int k, int on, const double *d0, double tol)
{
    s->sf->start[k] = on;
    if (!on)
        return;
    memcpy(&s->sf->dir0[3 * k], d0, 3 * sizeof(double));
    s->sf->start_tol[k] = tol;
}

/* Marks (set 1) or clears (set 0) that the step taken ends at a stuck
** contact's cone (rt_sf_step_check), set -1 only reads; returns the mark
** before the call. */
int rt_sf_edge(nsm_sim *s, int set)
{
    int was = s->sf->edge;
    if (set >= 0)
        s->sf->edge = set;
    return was;
}

/* Whether element k's slip is still in its start from zero. */
int rt_sf_starting(const nsm_sim *s, int k)
{
    return s->sf->start[k];
}

/* The start's direction (3 values) element k's friction opposes at a slip
** of norm gn: its slip started from zero (rt_sf_start) and gn is still
** within the start's tolerance; NULL otherwise (the slip's own direction). */
const double *rt_sf_start_dir(const nsm_sim *s, int k, double gn)
{
    return s->sf->start[k] && !(gn > s->sf->start_tol[k]) ? &s->sf->dir0[3 * k] : NULL;
}

/* Whether element k sticks in mode (its bit, nsm/model.h). */
int rt_sf_stuck(const nsm_sim *s, const unsigned *mode, int k)
{
    return rt_mode_has(mode, rt_sf_bit(s, k));
}

/* The mode bit of element k. */
int rt_sf_bit(const nsm_sim *s, int k)
{
    return s->n_gaps + 2 * s->n_fric + k;
}

/* How many slip components element k has: 2, 3 with drilling friction. */
int rt_sf_dim(const nsm_sim *s, int k)
{
    return s->num.sf_drill[k] > 0 ? 3 : 2;
}

static double dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* out = a x b. */
static void cross3(const double *a, const double *b, double *out)
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* R^T a. */
static void rot_t(double R[3][3], const double *a, double *out)
{
    for (int i = 0; i < 3; i++)
        out[i] = R[0][i] * a[0] + R[1][i] * a[1] + R[2][i] * a[2];
}

/* Element k's rows, curvature terms and slip at state y (SfKin). */
static void kin_at(const nsm_sim *s, int k, const double *y, SfKin *K)
{
    const nsm_numeric *num = &s->num;
    int b = s->m->space_frictions[k].body, rot = s->m->rigid_rot[b];
    const double *n = &num->sf_normal[3 * k], *c = &num->sf_centre[3 * k], *u = rt_vel(s, y);
    double R[3][3], nb[3], sb[3], t[2][3], w[3], wc[3], wwc[3], Rwwc[3];
    rt_rigid_rot(s, b, y, R);
    rot_t(R, n, nb);
    for (int i = 0; i < 3; i++) {
        K->cols[i] = rot - 3 + i;
        K->cols[3 + i] = rot + i;
        sb[i] = c[i] - num->sf_radius[k] * nb[i];
        w[i] = u[rot + i];
    }
    rt_plane_tangents(n, t);
    cross3(w, c, wc);
    cross3(w, wc, wwc);
    for (int i = 0; i < 3; i++)
        Rwwc[i] = dot3(R[i], wwc);
    for (int r = 0; r < 2; r++) {
        double tb[3];
        rot_t(R, t[r], tb);
        cross3(sb, tb, &K->rows[r][3]);
        memcpy(K->rows[r], t[r], sizeof t[r]);
        K->curv[r] = dot3(t[r], Rwwc);
    }
    for (int i = 0; i < 3; i++) {
        K->rows[2][i] = 0;
        K->rows[2][3 + i] = num->sf_drill[k] * nb[i];
    }
    K->curv[2] = 0;
    for (int r = 0; r < 3; r++) {
        K->gam[r] = 0;
        for (int i = 0; i < 6; i++)
            K->gam[r] += K->rows[r][i] * u[K->cols[i]];
    }
    if (num->sf_drill[k] <= 0)
        K->gam[2] = 0;
}

/* Every element's kinematics at state y (called where the curved gaps'
** tangent is taken, so that the rows below are those of y). */
void rt_sf_at(const nsm_sim *s, const double *y)
{
    if (!s->sf || !s->sf->valid)
        return;
    for (int k = 0; k < s->n_space_fric; k++)
        kin_at(s, k, y, &s->sf->kin[k]);
}

/* |gamma_F| of element k at the state last evaluated; g (3 values, may be
** NULL) gets gamma_F. */
double rt_sf_slip(const nsm_sim *s, int k, double *g)
{
    const SfKin *K = &s->sf->kin[k];
    if (g)
        memcpy(g, K->gam, sizeof K->gam);
    return sqrt(dot3(K->gam, K->gam));
}

/* The rate of |gamma_F| of element k at the state last evaluated, for the
** accelerations a (n values): ghat . (rows a + curv). */
double rt_sf_slip_rate(const nsm_sim *s, int k, const double *a)
{
    const SfKin *K = &s->sf->kin[k];
    double gn = rt_sf_slip(s, k, NULL), r = 0;
    if (!(gn > 0))
        return 0;
    for (int q = 0; q < rt_sf_dim(s, k); q++) {
        double gd = K->curv[q];
        for (int i = 0; i < 6; i++)
            gd += K->rows[q][i] * a[K->cols[i]];
        r += K->gam[q] / gn * gd;
    }
    return r;
}

/* The stick force lambda_F (3 values) of element k from the last solve of
** its stuck contact's values. */
void rt_sf_stick_force(const nsm_sim *s, int k, double *lf)
{
    memcpy(lf, s->sf->kin[k].lamf, sizeof s->sf->kin[k].lamf);
}

/* The rows of element k's held contact over its body's slots, G (4 x 6,
** row 0 the normal W_N of gap j, then T_1, T_2 and D), their curvature
** terms (curv: the normal's from hdd, NULL: 0; values 0: the slip rows'
** 0, a rate problem) and the body's slots; returns the number of rows. */
static int held_rows(const nsm_sim *s, int k, int j, const double *hdd, int values, double G[4][6],
                     double *curv)
{
    const SfKin *K = &s->sf->kin[k];
    const RtCsr *W = &s->sp.W;
    int m = 1 + rt_sf_dim(s, k);
    memset(G[0], 0, sizeof G[0]);
    for (int q = W->p[j]; q < W->p[j + 1]; q++)
        for (int i = 0; i < 6; i++)
            if (W->i[q] == K->cols[i])
                G[0][i] = W->x[q];
    curv[0] = hdd ? hdd[j] : 0;
    for (int r = 1; r < m; r++) {
        memcpy(G[r], K->rows[r - 1], sizeof G[r]);
        curv[r] = values ? K->curv[r - 1] : 0;
    }
    return m;
}

/* Contacts of one body's force problem at most (two spheres of a top, a
** few more for any body). */
#define SF_MAXC SF_BODY_MAXC

/* The direction element k's sliding friction opposes (3 values, unit or
** zero): gamma_F / |gamma_F|, or, for a slip started from zero whose
** |gamma_F| is still below the working tolerance of its start, the start's
** direction (rt_sf_start). */
static void slide_dir(const nsm_sim *s, int k, double *d)
{
    const SfKin *K = &s->sf->kin[k];
    double gn = rt_sf_slip(s, k, NULL);
    const double *d0 = rt_sf_start_dir(s, k, gn);
    if (d0) {
        memcpy(d, d0, 3 * sizeof(double));
        return;
    }
    for (int r = 0; r < 3; r++)
        d[r] = gn > 0 ? K->gam[r] / gn : 0;
}

/* One body's force problem: the held contacts ks[0..nc) (their elements)
** on the body's six slots.  Its unknowns are each contact's lambda_N and,
** for a sticking contact, its lambda_F; the force of a sliding contact acts
** along dir = W_N - mu sum_i d_i T_i per unit lambda_N (d its slide_dir),
** of a sticking one along each of its rows.  The equations hold each
** contact's normal row and a sticking contact's slip rows at rest:
** G_e . a + curv_e = 0, a = a0 + M^-1 sum_u dir_u x_u, a dense linear
** system, not symmetric when a contact slides. */
typedef struct SfBody {
    int nc, ks[SF_MAXC], m[SF_MAXC];  /* contacts, their elements, their row counts */
    int neq;                          /* equations = unknowns */
    int eq_c[4 * SF_MAXC];            /* an equation's (unknown's) contact */
    double G[4 * SF_MAXC][6];         /* the equations' rows */
    double curv[4 * SF_MAXC];         /* their curvature terms */
    double dir[4 * SF_MAXC][6];       /* the unknowns' force directions */
} SfBody;

/* Contact c's equations and unknowns appended to B (element k on gap j). */
static void body_add(const nsm_sim *s, const unsigned *mode, SfBody *B, int c, int k,
                     const double *hdd, int values)
{
    double G[4][6], curv[4], d[3];
    int m = held_rows(s, k, s->m->space_frictions[k].gap, hdd, values, G, curv);
    int stuck = rt_sf_stuck(s, mode, k), ne = stuck ? m : 1;
    if (!stuck)
        slide_dir(s, k, d);
    for (int r = 0; r < ne; r++) {
        int e = B->neq++;
        B->eq_c[e] = c;
        memcpy(B->G[e], G[r], sizeof G[r]);
        B->curv[e] = curv[r];
        memcpy(B->dir[e], G[r], sizeof G[r]);
        for (int q = 1; q < m && !stuck; q++)
            for (int i = 0; i < 6; i++)
                B->dir[e][i] -= s->num.sf_mu[k] * d[q - 1] * G[q][i];
    }
    B->m[c] = ne;
}

/* Solve B's system for the accelerations a (the body's slots, M^-1 F on
** entry); lam[gap] gets each contact's lambda_N and, on a value problem, a
** sticking element keeps its lambda_F.  NSM_ENUMERIC on a singular system
** (sticking rows dependent on one another, or friction cancelling a
** normal force's effect: Painleve). */
static int body_solve(const nsm_sim *s, SfBody *B, int values, double *a, double *lam)
{
    int n = B->neq;
    const int *cols = s->sf->kin[B->ks[0]].cols;
    double A[n * n], x[n];
    for (int e = 0; e < n; e++) {
        x[e] = -B->curv[e];
        for (int i = 0; i < 6; i++)
            x[e] -= B->G[e][i] * a[cols[i]];
        for (int u = 0; u < n; u++) {
            A[e * n + u] = 0;
            for (int i = 0; i < 6; i++)
                A[e * n + u] += B->G[e][i] * s->mass_inv[cols[i]] * B->dir[u][i];
        }
    }
    if (nsm_la_solve(n, A, x, 1) != NSM_LA_OK)
        return NSM_ENUMERIC;
    for (int i = 0; i < 6; i++)
        for (int u = 0; u < n; u++)
            a[cols[i]] += s->mass_inv[cols[i]] * B->dir[u][i] * x[u];
    for (int c = 0, e = 0; c < B->nc; e += B->m[c], c++) {
        int k = B->ks[c];
        lam[s->m->space_frictions[k].gap] = x[e];
        if (values)
            for (int r = 0; r < 3; r++)
                s->sf->kin[k].lamf[r] = r + 1 < B->m[c] ? x[e + r + 1] : 0;
    }
    return NSM_OK;
}

/* The held contacts that carry a spatial friction element, in mode, body
** by body (one force problem over all of a body's held contacts): a (n
** values) holds M^-1 F on entry and gets their forces' accelerations,
** lam[j] their normal forces; hdd the gaps' curvature (and surface) terms
** (NULL: 0), values 0 for the rate problem of the event derivatives (the
** slip rows' curvature left out: the rates are those of the frozen rows).
** The generic constraint problem leaves these gaps out (rt_sf_of_gap). */
int rt_sf_accel(const nsm_sim *s, const unsigned *mode, const double *hdd, int values, double *a,
                double *lam)
{
    if (!s->sf->valid)
        return NSM_OK;          /* refused at the run (rt_sf_check) */
    double lbuf[s->n_gaps + 1], *l = lam ? lam : lbuf;
    for (int b = 0; b < s->m->n_rigid; b++) {
        SfBody B;
        B.nc = B.neq = 0;
        for (int k = 0; k < s->n_space_fric; k++)
            if (s->m->space_frictions[k].body == b &&
                rt_law_held(s, mode, s->m->space_frictions[k].gap)) {
                if (B.nc == SF_MAXC)
                    return NSM_ENUMERIC;        /* refused by name at rt_sf_update */
                B.ks[B.nc] = k;
                body_add(s, mode, &B, B.nc++, k, hdd, values);
            }
        if (B.nc && body_solve(s, &B, values, a, l))
            return NSM_ENUMERIC;
    }
    return NSM_OK;
}

/* Whether element k's contact is held and slides in mode: the only
** state in which it dissipates (the audit skips its solves otherwise). */
int rt_sf_sliding(const nsm_sim *s, const unsigned *mode, int k)
{
    return rt_law_held(s, mode, s->m->space_frictions[k].gap) && !rt_sf_stuck(s, mode, k);
}

/* The power element k dissipates in mode, mu lambda_N |gamma_F| (=
** -lambda_F . gamma_F >= 0) while its contact is held and slides, 0
** otherwise, lam the normal forces of the mode's solve; the audit's
** per-element share (fricstat.c) and the total below both read it. */
double rt_sf_power_of(const nsm_sim *s, const unsigned *mode, int k, const double *lam)
{
    int j = s->m->space_frictions[k].gap;
    double d[3];
    if (!lam || !rt_sf_sliding(s, mode, k))
        return 0;
    slide_dir(s, k, d);
    return s->num.sf_mu[k] * lam[j] * dot3(d, s->sf->kin[k].gam);
}

/* The power friction dissipates in mode, the sum over the elements of
** rt_sf_power_of at the state last evaluated. */
double rt_sf_power(const nsm_sim *s, const unsigned *mode, const double *lam)
{
    double p = 0;
    for (int k = 0; k < s->n_space_fric && lam; k++)
        p += rt_sf_power_of(s, mode, k, lam);
    return p;
}

/* The rows of element k's stuck contact on gap j at the state last
** evaluated, for the projection onto stick (spacestick.c): G (4 x 6) and
** the body's slots cols; returns the number of rows. */
int rt_sf_rows(const nsm_sim *s, int k, double G[4][6], int *cols)
{
    double curv[4];
    memcpy(cols, s->sf->kin[k].cols, sizeof s->sf->kin[k].cols);
    return held_rows(s, k, s->m->space_frictions[k].gap, NULL, 0, G, curv);
}
