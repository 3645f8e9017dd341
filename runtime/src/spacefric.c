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
** A held contact that slides pushes along W_N + f_1 per unit normal force,
** f_1 = -mu sum_i ghat_i row_i, ghat = gamma_F / |gamma_F| (the sliding
** direction does not depend on lambda_N, so gddot = 0 is affine in it and
** lambda_N = -(W_N . a0 + curv) / (W_N M^-1 (W_N + f_1))).  A held contact
** that sticks (its mode bit set) holds the normal row and the slip rows as
** bilateral constraints, lambda = (lambda_N, lambda_F) from their Delassus
** system.  The power of friction while sliding is -mu lambda_N |gamma_F|.
**
** One held contact per body carrying such an element: the run refuses two
** (spacestick.c), so that this solve is the body's whole constraint problem
** and the generic clusters (dynamics.c) never see these gaps.  The mass
** operator is diagonal for bodies in space (minv).
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
    int valid;                /* every element's body and gap in range (else the run refuses) */
};

/* Allocate the elements' scratch (the numbers the model's setup fills,
** nsm_numeric's sf_* arrays, are sim.c's with the other numbers); nothing
** for a model without them. */
int rt_sf_alloc(nsm_sim *s)
{
    const nsm_model *m = s->m;
    int nsf = s->nsf;
    if (nsf == 0)
        return NSM_OK;
    RtSf *sf = calloc(1, sizeof *sf);
    if (!sf)
        return NSM_ENOMEM;
    s->sf = sf;
    sf->kin = calloc((size_t)nsf, sizeof *sf->kin);
    sf->of_gap = malloc(sizeof(int) * (size_t)(s->g + 1));
    sf->vscale = calloc((size_t)nsf, sizeof(double));
    if (!sf->kin || !sf->of_gap || !sf->vscale)
        return NSM_ENOMEM;
    for (int j = 0; j < s->g; j++)
        sf->of_gap[j] = -1;
    sf->valid = m->rigid_rot != NULL;
    for (int k = 0; k < nsf; k++) {
        int j = m->space_frictions[k].gap, b = m->space_frictions[k].body;
        if (j >= 0 && j < s->g && sf->of_gap[j] < 0)
            sf->of_gap[j] = k;
        if (j < 0 || j >= s->g || b < 0 || b >= m->n_rigid)
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
        free(s->sf);
        s->sf = NULL;
    }
}

/* The element on gap j, -1 when the gap carries none. */
int rt_sf_of_gap(const nsm_sim *s, int j)
{
    return s->sf && s->sf->valid && j >= 0 && j < s->g ? s->sf->of_gap[j] : -1;
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

/* Whether element k sticks in mode (its bit, nsm/model.h). */
int rt_sf_stuck(const nsm_sim *s, const unsigned *mode, int k)
{
    return rt_mode_has(mode, rt_sf_bit(s, k));
}

/* The mode bit of element k. */
int rt_sf_bit(const nsm_sim *s, int k)
{
    return s->g + 2 * s->nf + k;
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
    for (int k = 0; k < s->nsf; k++)
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

/* The held, sliding contact of element k on gap j: lambda_N from
** W_N . a + curv = 0 along the direction W_N + f_1 (friction included);
** a (n values, M^-1 F on entry) gets the force's accelerations. */
static int held_slide(const nsm_sim *s, int k, int j, const double *hdd, double *a, double *lam)
{
    const SfKin *K = &s->sf->kin[k];
    double G[4][6], curv[4], dir[6], gn = rt_sf_slip(s, k, NULL), num = 0, den = 0;
    int m = held_rows(s, k, j, hdd, 0, G, curv);
    for (int i = 0; i < 6; i++) {
        dir[i] = G[0][i];
        for (int r = 1; r < m && gn > 0; r++)
            dir[i] -= s->num.sf_mu[k] * K->gam[r - 1] / gn * G[r][i];
        num += G[0][i] * a[K->cols[i]];
        den += G[0][i] * s->minv[K->cols[i]] * dir[i];
    }
    if (!(den > 0))
        return NSM_ENUMERIC;    /* friction reversing the normal force's effect (Painleve) */
    double l = -(num + curv[0]) / den;
    for (int i = 0; i < 6; i++)
        a[K->cols[i]] += s->minv[K->cols[i]] * dir[i] * l;
    lam[j] = l;
    return NSM_OK;
}

/* The held, sticking contact of element k on gap j: the normal and slip
** rows held, (G M^-1 G^T) mu = -(G a + curv); a gets the forces'
** accelerations, lam[j] = lambda_N, and on a value problem the element
** keeps lambda_F. */
static int held_stick(const nsm_sim *s, int k, int j, const double *hdd, int values, double *a,
                      double *lam)
{
    SfKin *K = &s->sf->kin[k];
    double G[4][6], curv[4], D[16], mu[4];
    int m = held_rows(s, k, j, hdd, values, G, curv);
    for (int r = 0; r < m; r++) {
        mu[r] = -curv[r];
        for (int i = 0; i < 6; i++)
            mu[r] -= G[r][i] * a[K->cols[i]];
        for (int q = 0; q < m; q++) {
            D[r * m + q] = 0;
            for (int i = 0; i < 6; i++)
                D[r * m + q] += G[r][i] * s->minv[K->cols[i]] * G[q][i];
        }
    }
    if (nsm_la_solve(m, D, mu, 1) != NSM_LA_OK)
        return NSM_ENUMERIC;
    for (int i = 0; i < 6; i++)
        for (int r = 0; r < m; r++)
            a[K->cols[i]] += s->minv[K->cols[i]] * G[r][i] * mu[r];
    lam[j] = mu[0];
    if (values)
        for (int r = 0; r < 3; r++)
            K->lamf[r] = r + 1 < m ? mu[r + 1] : 0;
    return NSM_OK;
}

/* The held contacts that carry a spatial friction element, in mode: a
** (n values) holds M^-1 F on entry and gets their forces' accelerations,
** lam[j] their normal forces; hdd the gaps' curvature (and surface) terms
** (NULL: 0), values 0 for the rate problem of the event derivatives (the
** slip rows' curvature left out: the rates are those of the frozen rows).
** The generic constraint problem leaves these gaps out (rt_sf_of_gap). */
int rt_sf_accel(const nsm_sim *s, const unsigned *mode, const double *hdd, int values, double *a,
                double *lam)
{
    if (!s->sf->valid)
        return NSM_OK;          /* refused at the run (rt_sf_check) */
    for (int k = 0; k < s->nsf; k++) {
        int j = s->m->space_frictions[k].gap, rc;
        if (!rt_law_held(s, mode, j))
            continue;
        double lbuf[s->g + 1], *l = lam ? lam : lbuf;
        rc = rt_sf_stuck(s, mode, k) ? held_stick(s, k, j, hdd, values, a, l)
                                     : held_slide(s, k, j, hdd, a, l);
        if (rc)
            return rc;
    }
    return NSM_OK;
}

/* The power friction dissipates in mode, sum over the held sliding
** contacts of mu lambda_N |gamma_F| (= -lambda_F . gamma_F >= 0), lam the
** normal forces of the mode's solve. */
double rt_sf_power(const nsm_sim *s, const unsigned *mode, const double *lam)
{
    double p = 0;
    for (int k = 0; k < s->nsf && lam; k++) {
        int j = s->m->space_frictions[k].gap;
        if (rt_law_held(s, mode, j) && !rt_sf_stuck(s, mode, k))
            p += s->num.sf_mu[k] * lam[j] * rt_sf_slip(s, k, NULL);
    }
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
