/*
** impact_space.c: frictional impacts of bodies in space (Glocker's law).
**
** At an impact on the contact of a sphere of a rigid body with a fixed plane
** that carries a spatial friction element (nsm_space_friction), the impulses
** P = (P_N, P_F) over the contact's rows R = (W_N; W_F) of the velocities
** (W_F: two tangential rows, and the drilling row Rd n_b . w when the
** element has a drilling radius) obey Glocker's impact law
**
**   xi_N = gamma_N+ + e_N gamma_N-,  P_N >= 0 _|_ xi_N >= 0,
**   xi_F = gamma_F+ + e_F gamma_F-,  P_F in -mu P_N d|xi_F|  (Coulomb),
**   u+ = u- + M^-1 R^T P,  gamma = R u,
**
** with M the diagonal mass diag(m, m, m, I1, I2, I3) (docs/theory.md
** section 19).  One contact closing (gamma_N- < 0) always pushes (P_N = 0
** would leave xi_N = (1 + e_N) gamma_N- < 0), so xi_N = 0.  The sticking
** candidate xi_F = 0 is linear, G P = -(1 + E) gamma- with the Delassus
** matrix G = R M^-1 R^T and E = diag(e_N, e_F, ..); it is the answer when
** |P_F| <= mu P_N.  Otherwise the contact slides: P_F = -mu P_N d with d
** the unit direction of xi_F; for a fixed d, P_N = c / (G_NN - mu G_NF d)
** (c = -(1 + e_N) gamma_N-) and xi_F = h + P_N (G_FN - mu G_FF d), h =
** (1 + e_F) gamma_F-.  The direction is the fixed point d = xi_F/|xi_F|,
** by plain iteration (one step for a ball, whose rows are M^-1-orthogonal
** and whose G_FF is isotropic), then, when the iteration does not settle
** or leaves the law's domain, by Newton's method with a line search on x =
** xi_F, from the last direction and from the directions of a grid over the
** circle (sphere, with drilling) of directions that come nearest to a fixed
** point; an answer that converges by neither stops the run (on strongly
** coupled random contacts, 10 in 4000: tests/unit/test_space_impact.c).  The kinetic energy changes by sum P_i (gamma_i+ + gamma_i-)/2
** over the rows, which the audit books as the impact's loss; an increase
** beyond rounding (an e_F that Glocker's energetic consistency forbids for
** this contact's geometry) stops the run.
**
** Several contacts at one instant are solved together by block
** Gauss-Seidel over the contacts (below).  A frictional contact held shut
** after a transition (friction in flight: sliding, rolling, drilling) is
** refused with a message.
*/
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "linalg.h"
#include "rt.h"

#define SPIMP_FIXED_ITERS 60     /* plain iterations on the direction */
#define SPIMP_NEWTON_ITERS 40    /* then Newton's */
#define SPIMP_DIR_TOL (8 * DBL_EPSILON)   /* a converged direction's change */
#define SPIMP_ENERGY_TOL (64 * DBL_EPSILON) /* rounding of the energy change, relative */
#define SPIMP_ROW_TOL 1e-9       /* the gap's row against the element's geometry */

/* The spatial friction element whose sphere's gap is j, or -1. */
int rt_spimp_element(const nsm_sim *s, int j)
{
    for (int k = 0; k < s->m->n_space_frictions; k++)
        if (s->m->space_frictions[k].gap == j)
            return k;
    return -1;
}

/* out = a x b. */
static void spimp_cross(const double *a, const double *b, double *out)
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* R^T x for body b's rotation at the current state (rt_rigid_rot's
** homogeneous R(p) / |p|^2, as everywhere for bodies in space). */
static void spimp_rot_t(const nsm_sim *s, int b, const double *x, double *out)
{
    double R[3][3];
    rt_rigid_rot(s, b, s->y, R);
    for (int i = 0; i < 3; i++)
        out[i] = R[0][i] * x[0] + R[1][i] * x[1] + R[2][i] * x[2];
}

/* The rows of element k's contact over the nu velocities, dense, into R
** ((1 + nf) x nu, zeroed here): the normal row W_N = (n, c x n_b) and the
** friction rows (t_i, s x R^T t_i), then (0, Rd n_b) with drilling, s = c -
** rho n_b the contact point from the centre of mass (body frame).  The
** number of friction rows returned, 2 or 3. */
static int spimp_rows(const nsm_sim *s, int k, double *R)
{
    const nsm_space_friction *f = &s->m->space_frictions[k];
    const double *n = s->num.sf_normal + 3 * k, *c = s->num.sf_centre + 3 * k;
    double rho = s->num.sf_radius[k], Rd = s->num.sf_drill[k];
    int nu = s->n_vel, rot = s->m->rigid_rot[f->body], nf = Rd > 0 ? 3 : 2;
    double nb[3], sp[3], t[2][3], tb[3], arm[3];
    memset(R, 0, sizeof(double) * (size_t)(1 + nf) * (size_t)nu);
    spimp_rot_t(s, f->body, n, nb);
    for (int i = 0; i < 3; i++)
        sp[i] = c[i] - rho * nb[i];
    rt_plane_tangents(n, t);
    spimp_cross(c, nb, arm);
    for (int i = 0; i < 3; i++) {
        R[rot - 3 + i] = n[i];
        R[rot + i] = arm[i];
    }
    for (int a = 0; a < 2; a++) {
        double *row = R + (size_t)(1 + a) * (size_t)nu;
        spimp_rot_t(s, f->body, t[a], tb);
        spimp_cross(sp, tb, arm);
        for (int i = 0; i < 3; i++) {
            row[rot - 3 + i] = t[a][i];
            row[rot + i] = arm[i];
        }
    }
    for (int i = 0; nf == 3 && i < 3; i++)
        R[(size_t)3 * (size_t)nu + (size_t)rot + (size_t)i] = Rd * nb[i];
    return nf;
}

/* The velocities gm = R u of the n rows R (n x nu, dense) and their
** Delassus matrix D = R M^-1 R^T (n x n), M the diagonal mass. */
static void spimp_delassus(const nsm_sim *s, const double *R, int n, double *gm, double *D)
{
    int nu = s->n_vel;
    const double *u = s->y + s->n_pos;
    for (int x = 0; x < n; x++) {
        const double *rx = R + (size_t)x * (size_t)nu;
        gm[x] = rt_dot(nu, rx, u);
        for (int y = 0; y < n; y++) {
            const double *ry = R + (size_t)y * (size_t)nu;
            double g = 0;
            for (int i = 0; i < nu; i++)
                g += rx[i] * s->mass_inv[i] * ry[i];
            D[x * n + y] = g;
        }
    }
}

/* Solve the m x m system A x = b (A copied, not destroyed); 1 when singular. */
static int spimp_solve(int m, const double *A, const double *b, double *x)
{
    double a[16];
    memcpy(a, A, sizeof(double) * (size_t)(m * m));
    memcpy(x, b, sizeof(double) * (size_t)m);
    return nsm_la_solve(m, a, x, 1) != NSM_LA_OK;
}

/* The sliding law's normal impulse and xi_F for a unit direction d of the
** m - 1 friction rows: P_N = c / (G_NN - mu G_NF d), xi_F = h + P_N (G_FN -
** mu G_FF d); the denominator into *den (the law has no such answer when
** it is not positive). */
static double spimp_slide_at(int m, const double *G, const double *h, double c, double mu,
                             const double *d, double *xi, double *den)
{
    double gd = 0;
    for (int a = 1; a < m; a++)
        gd += G[a] * d[a - 1];
    *den = G[0] - mu * gd;
    double pn = c / *den;
    for (int a = 1; a < m; a++) {
        double gfd = 0;
        for (int b = 1; b < m; b++)
            gfd += G[a * m + b] * d[b - 1];
        xi[a - 1] = h[a - 1] + pn * (G[a * m] - mu * gfd);
    }
    return pn;
}

/* Length of the k-vector x. */
static double spimp_norm(int k, const double *x)
{
    double r = 0;
    for (int i = 0; i < k; i++)
        r += x[i] * x[i];
    return sqrt(r);
}

/* The sliding direction by plain iteration d <- xi_F(d)/|xi_F(d)| from d:
** 0 with d the fixed point, 1 when it does not settle in
** SPIMP_FIXED_ITERS iterations (d the last iterate), 2 when the law has no
** sliding answer along the way (a denominator not positive, or xi_F = 0). */
static int spimp_fixed_point(int m, const double *G, const double *h, double c, double mu,
                             double *d)
{
    int k = m - 1;
    for (int it = 0; it < SPIMP_FIXED_ITERS; it++) {
        double xi[3], den, change = 0;
        spimp_slide_at(m, G, h, c, mu, d, xi, &den);
        double l = spimp_norm(k, xi);
        if (!(den > 0) || !(l > 0))
            return 2;
        for (int i = 0; i < k; i++) {
            change = fmax(change, fabs(xi[i] / l - d[i]));
            d[i] = xi[i] / l;
        }
        if (change <= SPIMP_DIR_TOL)
            return 0;
    }
    return 1;
}

/* The residual r(x) = x - xi_F(x/|x|) of the sliding direction's equation
** (k = m - 1 values) and its length; -1 where it is not defined (x = 0 or
** the sliding law's denominator not positive). */
static double spimp_resid(int m, const double *G, const double *h, double c, double mu,
                          const double *x, double *r)
{
    int k = m - 1;
    double l = spimp_norm(k, x), d[3], xi[3], den;
    if (!(l > 0))
        return -1;
    for (int i = 0; i < k; i++)
        d[i] = x[i] / l;
    spimp_slide_at(m, G, h, c, mu, d, xi, &den);
    if (!(den > 0))
        return -1;
    for (int i = 0; i < k; i++)
        r[i] = x[i] - xi[i];
    return spimp_norm(k, r);
}

/* Newton's method with a backtracking line search on x = xi_F: r(x) = 0
** with the Jacobian I - dxi/dd (I - d d^T)/|x|, dxi/dd = (G_FN - mu G_FF d)
** dP_N/dd - mu P_N G_FF, dP_N/dd = mu P_N G_NF / den.  From the direction d
** (x = xi_F(d)); 0 with d the converged direction, 1 otherwise. */
static int spimp_newton(int m, const double *G, const double *h, double c, double mu, double *d)
{
    int k = m - 1;
    double x[3], r[3], den;
    spimp_slide_at(m, G, h, c, mu, d, x, &den);
    double nr = spimp_resid(m, G, h, c, mu, x, r);
    for (int it = 0; it < SPIMP_NEWTON_ITERS && nr >= 0; it++) {
        double l = spimp_norm(k, x), dd[3], xi[3], J[9], dx[3];
        for (int i = 0; i < k; i++)
            dd[i] = x[i] / l;
        double pn = spimp_slide_at(m, G, h, c, mu, dd, xi, &den);
        for (int a = 0; a < k; a++) {
            double gfd = 0, dxi[3];
            for (int b = 0; b < k; b++)
                gfd += G[(a + 1) * m + b + 1] * dd[b];
            for (int b = 0; b < k; b++)
                dxi[b] = (G[(a + 1) * m] - mu * gfd) * mu * pn * G[b + 1] / den -
                         mu * pn * G[(a + 1) * m + b + 1];
            for (int b = 0; b < k; b++) {
                double jab = 0;
                for (int q = 0; q < k; q++)
                    jab += dxi[q] * ((q == b) - dd[q] * dd[b]) / l;
                J[a * k + b] = (a == b) - jab;
            }
        }
        if (spimp_solve(k, J, r, dx))
            return 1;
        double step = spimp_norm(k, dx), alpha = 1, xt[3], rt[3], nt = -1;
        for (int ls = 0; ls < 40; ls++, alpha /= 2) {
            for (int i = 0; i < k; i++)
                xt[i] = x[i] - alpha * dx[i];
            nt = spimp_resid(m, G, h, c, mu, xt, rt);
            if (nt >= 0 && nt < nr)
                break;
        }
        if (nt >= 0 && nt < nr) {
            memcpy(x, xt, sizeof x);
            memcpy(r, rt, sizeof r);
            nr = nt;
        }
        /* converged: the step, or the residual, at the rounding of x and h */
        double lx = spimp_norm(k, x);
        if (alpha * step <= SPIMP_DIR_TOL * lx || nr <= SPIMP_DIR_TOL * (lx + spimp_norm(k, h))) {
            for (int i = 0; i < k; i++)
                d[i] = x[i] / lx;
            return 0;
        }
        if (!(nt >= 0 && nt <= nr))
            return 1;           /* no descent: a stationary point of |r| */
    }
    return 1;
}

/* How far direction d is from being the sliding direction: |xi_F(d)/|xi_F(d)|
** - d|, or 3 where the sliding law is not defined there. */
static double spimp_misfit(int m, const double *G, const double *h, double c, double mu,
                           const double *d)
{
    int k = m - 1;
    double xi[3], den, r = 0;
    spimp_slide_at(m, G, h, c, mu, d, xi, &den);
    double l = spimp_norm(k, xi);
    if (!(den > 0) || !(l > 0))
        return 3;
    for (int i = 0; i < k; i++)
        r += (xi[i] / l - d[i]) * (xi[i] / l - d[i]);
    return sqrt(r);
}

/* Direction number a of the search grid: SPIMP_GRID angles on the circle
** (k = 2), or SPIMP_GRID latitudes times 2 SPIMP_GRID longitudes on the
** sphere (k = 3). */
#define SPIMP_GRID 48
#define SPIMP_STARTS 12
#define SPIMP_PI 3.14159265358979323846
static void spimp_grid_dir(int k, int a, double *d)
{
    if (k == 2) {
        double ph = 2 * SPIMP_PI * a / SPIMP_GRID;
        d[0] = cos(ph);
        d[1] = sin(ph);
        return;
    }
    double th = SPIMP_PI * (a / (2 * SPIMP_GRID) + 0.5) / SPIMP_GRID,
           ph = 2 * SPIMP_PI * (a % (2 * SPIMP_GRID)) / (2 * SPIMP_GRID);
    d[0] = sin(th) * cos(ph);
    d[1] = sin(th) * sin(ph);
    d[2] = cos(th);
}

/* Newton where the fixed point did not settle: from the direction given,
** then from the SPIMP_STARTS directions of the grid over the circle (k =
** 2) or the sphere (k = 3) of directions that come nearest to being the
** sliding direction (spimp_misfit); 0 with d the first converged, 1 when
** none converges. */
static int spimp_newton_starts(int m, const double *G, const double *h, double c, double mu,
                               double *d)
{
    int k = m - 1, n = k == 2 ? SPIMP_GRID : 2 * SPIMP_GRID * SPIMP_GRID, best[SPIMP_STARTS];
    double bm[SPIMP_STARTS], d0[3];
    memcpy(d0, d, sizeof d0);
    if (!spimp_newton(m, G, h, c, mu, d))
        return 0;
    for (int b = 0; b < SPIMP_STARTS; b++)
        best[b] = -1, bm[b] = 3;
    for (int a = 0; a < n; a++) {
        double g[3];
        spimp_grid_dir(k, a, g);
        double f = spimp_misfit(m, G, h, c, mu, g);
        int b = SPIMP_STARTS;
        for (; b > 0 && f < bm[b - 1]; b--)
            if (b < SPIMP_STARTS)
                bm[b] = bm[b - 1], best[b] = best[b - 1];
        if (b < SPIMP_STARTS)
            bm[b] = f, best[b] = a;
    }
    for (int b = 0; b < SPIMP_STARTS && best[b] >= 0; b++) {
        spimp_grid_dir(k, best[b], d);
        if (!spimp_newton(m, G, h, c, mu, d))
            return 0;
    }
    memcpy(d, d0, sizeof d0);
    return 1;
}

/* Glocker's law for one contact: the impulses P (P_N, then the m - 1
** friction rows) from the Delassus matrix G (m x m) and the offsets q of
** xi = q + G P (q = gamma_free + E gamma-: the rows' velocities before
** this contact's impulse plus the restitutions times those before the
** impact; for one contact alone q = (1 + E) gamma-) and mu.  q_N >= 0
** takes no impulse.  *stuck says which branch; 0, or 1 with no sticking
** answer and no sliding one (the sliding law's denominator not positive:
** a Painleve-like geometry), 2 when the sliding direction converges by
** neither method. */
int rt_spimp_law(int m, const double *G, const double *q, double mu, double *P, int *stuck)
{
    double rhs[4], h[3], d[3];
    int k = m - 1;
    *stuck = 1;
    if (q[0] >= 0) {
        memset(P, 0, sizeof(double) * (size_t)m);
        return 0;
    }
    for (int a = 0; a < m; a++)
        rhs[a] = -q[a];
    if (!spimp_solve(m, G, rhs, P) && P[0] >= 0 && spimp_norm(k, P + 1) <= mu * P[0])
        return 0;
    /* sliding: from the sticking impulse's direction when it has one (the
     * pre-impact slip's for a ball), else from the slip's */
    *stuck = 0;
    double l = spimp_norm(k, P + 1);
    for (int i = 0; i < k; i++) {
        h[i] = q[1 + i];
        d[i] = l > 0 && isfinite(l) ? -P[1 + i] / l : h[i];
    }
    l = spimp_norm(k, d);
    if (!(l > 0))
        return 1;
    for (int i = 0; i < k; i++)
        d[i] /= l;
    if (spimp_fixed_point(m, G, h, rhs[0], mu, d) && spimp_newton_starts(m, G, h, rhs[0], mu, d))
        return 2;
    double xi[3], den;
    P[0] = spimp_slide_at(m, G, h, rhs[0], mu, d, xi, &den);
    for (int i = 0; i < k; i++)
        P[1 + i] = -mu * P[0] * d[i];
    return den > 0 && P[0] >= 0 ? 0 : 1;
}

/* The frictional impact of gap j (element k) alone: its rows, Glocker's
** law, the velocities' jump u+ = u- + M^-1 R^T P, the energy check and
** booking, and the impact record (P_N; the loss -sum P (gamma+ + gamma-)/2
** over the rows). */
static int spimp_apply(nsm_sim *s, int j, int k, int exempt)
{
    int nu = s->n_vel, nf, m;
    double R[4 * nu], wn[nu], G[16], gm[4], gp[4], P[4];
    const double *wj = rt_dense_wrow(s, j, wn);
    double *u = s->y + s->n_pos, mu = s->num.sf_mu[k], eN = s->num.e[j], eF = s->num.sf_et[k];
    const char *name = s->m->space_frictions[k].name;
    if (!(mu >= 0) || !(eF >= 0 && eF <= 1) || !(eN >= 0 && eN <= 1))
        return rt_fail(s, NSM_EMODEL, j, "spatial friction '%s': mu = %g, e_F = %g and e_N = %g "
                       "must be mu >= 0 and restitutions in [0, 1]", name, mu, eF, eN);
    nf = spimp_rows(s, k, R);
    m = 1 + nf;
    for (int i = 0; i < nu; i++)
        if (fabs(R[i] - wj[i]) > SPIMP_ROW_TOL * (1 + fabs(wj[i])))
            return rt_fail(s, NSM_EMODEL, j, "spatial friction '%s': the sphere's geometry "
                           "(centre, radius, normal) disagrees with gap '%s''s row W_N (entry "
                           "%d: %.17g against %.17g)", name, s->m->gaps[j].name, i, R[i], wj[i]);
    spimp_delassus(s, R, m, gm, G);
    double q[4] = { 0, 0, 0, 0 };
    for (int a = 0; a < m; a++)
        q[a] = (1 + (a ? eF : eN)) * gm[a];
    int stuck, rc = rt_spimp_law(m, G, q, mu, P, &stuck);
    if (rc)
        return rt_fail(s, NSM_ENUMERIC, j, "the frictional impact on gap '%s' (friction '%s', "
                       "mu = %g) %s", s->m->gaps[j].name, name, mu, rc == 1 ?
                       "has no solution of Glocker's law: the contact would slide with a normal "
                       "impulse that does not push (a Painleve-like geometry)" :
                       "did not converge: the sliding direction settles neither by iteration "
                       "nor by Newton's method");
    for (int a = 0; a < m; a++)
        for (int i = 0; i < nu; i++)
            u[i] += s->mass_inv[i] * R[(size_t)a * (size_t)nu + (size_t)i] * P[a];
    double dT = 0, scale = 0;
    for (int a = 0; a < m; a++) {
        gp[a] = rt_dot(nu, R + (size_t)a * (size_t)nu, u);
        dT += P[a] * (gp[a] + gm[a]) / 2;
        scale += fabs(P[a]) * (fabs(gp[a]) + fabs(gm[a])) / 2;
    }
    if (dT > SPIMP_ENERGY_TOL * scale)
        return rt_fail(s, NSM_EMODEL, j, "the frictional impact on gap '%s' (friction '%s') "
                       "would create %.6g J of kinetic energy: e_F = %g with e_N = %g is not "
                       "energetically consistent for this contact (Glocker's conditions)",
                       s->m->gaps[j].name, name, dT, eF, eN);
    rt_transition_loss_add(s, -dT);
    if (exempt)
        return rt_log_exempt(s, NSM_EV_IMPACT, j, gm[0], gp[0], P[0], -dT, 1);
    return rt_log_event(s, NSM_EV_IMPACT, j, gm[0], gp[0], P[0], -dT, 1);
}

/*
** Several contacts at one instant (j's impact reaching touching contacts,
** one of them at least with spatial friction): Glocker's law at every
** contact at once, by block Gauss-Seidel over the contacts.  Contact a has
** its rows R_a (the normal row, and the friction rows when it carries a
** spatial friction element), the blocks G_ab = R_a M^-1 R_b^T, and its
** offsets q_a = gamma-_a + E_a gamma-_a + sum_{b != a} G_ab P_b, E_a its
** restitutions where it closes beyond its velocity tolerance (0 for a
** contact at rest or leaving, as the simultaneous law takes them); each
** sweep solves every contact's law with the others' impulses fixed
** (rt_spimp_law).  Converged when a sweep changes no impulse by more than
** SPIMP_GS_TOL of the largest; SPIMP_GS_SWEEPS sweeps without it stop the
** run (elastic contacts squeezing a body have no answer).
*/
#define SPIMP_MAXC 8             /* contacts of one frictional impact */
#define SPIMP_GS_SWEEPS 2000
#define SPIMP_GS_TOL (16 * DBL_EPSILON)

/* The rows of several contacts: contact a's m[a] rows start at row o[a]
** of R (nrow x nu), its restitutions eN[a], eF[a] and mu[a] (0 for a
** frictionless contact, whose only row is W_N). */
typedef struct SpMulti {
    int r, nrow, idx[SPIMP_MAXC], m[SPIMP_MAXC], o[SPIMP_MAXC + 1];
    double eN[SPIMP_MAXC], eF[SPIMP_MAXC], mu[SPIMP_MAXC];
} SpMulti;

/* The rows and numbers of the contacts idx[0..r) into C and R (room for 4 r
** rows over nu); 1 on a bad number (the run already stopped). */
static int multi_rows(nsm_sim *s, const int *idx, int r, SpMulti *C, double *R)
{
    int nu = s->n_vel;
    const double *v = s->y + s->n_pos;
    C->r = r;
    C->o[0] = 0;
    for (int a = 0; a < r; a++) {
        int j = idx[a], k = rt_spimp_element(s, j);
        double *Ra = R + (size_t)C->o[a] * (size_t)nu, wn[nu];
        C->idx[a] = j;
        if (k >= 0) {
            C->m[a] = 1 + spimp_rows(s, k, Ra);
            C->mu[a] = s->num.sf_mu[k];
            C->eF[a] = s->num.sf_et[k];
        } else {
            memcpy(Ra, rt_dense_wrow(s, j, wn), sizeof(double) * (size_t)nu);
            C->m[a] = 1;
            C->mu[a] = 0;
            C->eF[a] = 0;
        }
        C->eN[a] = s->num.e[j];
        if (!(C->mu[a] >= 0) || !(C->eF[a] >= 0 && C->eF[a] <= 1) ||
            !(C->eN[a] >= 0 && C->eN[a] <= 1))
            return rt_fail(s, NSM_EMODEL, j, "gap '%s': mu = %g, e_F = %g and e_N = %g must be "
                           "mu >= 0 and restitutions in [0, 1]", s->m->gaps[j].name, C->mu[a],
                           C->eF[a], C->eN[a]);
        if (!(rt_dot(nu, Ra, v) < -rt_vel_tol(s, j, v)))
            C->eN[a] = C->eF[a] = 0;        /* at rest or leaving: no restitution */
        C->o[a + 1] = C->o[a] + C->m[a];
    }
    C->nrow = C->o[r];
    return 0;
}

/* Block Gauss-Seidel over the contacts of C for the impulses P (nrow
** values) from the rows' velocities gm and the Delassus matrix D (nrow x
** nrow); 0, or the failing contact's law's code (1, 2), or 3 when the
** sweeps do not converge.  *bad gets the contact. */
static int multi_solve(const SpMulti *C, const double *D, const double *gm, double *P, int *bad)
{
    int n = C->nrow;
    memset(P, 0, sizeof(double) * (size_t)n);
    for (int sweep = 0; sweep < SPIMP_GS_SWEEPS; sweep++) {
        double change = 0, big = 0;
        for (int a = 0; a < C->r; a++) {
            int o = C->o[a], m = C->m[a], stuck;
            double G[16], q[4], Pa[4];
            for (int x = 0; x < m; x++) {
                double e = x ? C->eF[a] : C->eN[a];
                q[x] = (1 + e) * gm[o + x];
                for (int y = 0; y < n; y++)
                    if (y < o || y >= o + m)
                        q[x] += D[(o + x) * n + y] * P[y];
                for (int y = 0; y < m; y++)
                    G[x * m + y] = D[(o + x) * n + o + y];
            }
            int rc = rt_spimp_law(m, G, q, C->mu[a], Pa, &stuck);
            if (rc)
                return *bad = a, rc;
            for (int x = 0; x < m; x++) {
                change = fmax(change, fabs(Pa[x] - P[o + x]));
                P[o + x] = Pa[x];
                big = fmax(big, fabs(Pa[x]));
            }
        }
        if (change <= SPIMP_GS_TOL * big)
            return 0;
    }
    return *bad = 0, 3;
}

/* The frictional impact of gap j over the touching contacts idx[0..r)
** (r >= 2, at most SPIMP_MAXC): the rows, the Delassus matrix, the
** impulses by multi_solve, the velocities' jump, the energy check and
** booking, and an impact record per contact that took a normal impulse
** (j's always, the others exempt from the event-rate guard). */
static int multi_impact(nsm_sim *s, int j, const int *idx, int r, int exempt, double *R);
static int spimp_multi(nsm_sim *s, int j, const int *idx, int r, int exempt)
{
    int nu = s->n_vel;
    if (r > SPIMP_MAXC)
        return rt_fail(s, NSM_EMODEL, j, "the frictional impact on gap '%s' reaches %d contacts "
                       "at one instant: frictional impacts in space take at most %d", s->m->gaps[j].name,
                       r, SPIMP_MAXC);
    double *R = malloc(sizeof(double) * 4 * SPIMP_MAXC * (size_t)nu);
    if (!R)
        return rt_fail(s, NSM_ENOMEM, j, "out of memory forming the impact problem");
    int rc = multi_impact(s, j, idx, r, exempt, R);
    free(R);
    return rc;
}

/* spimp_multi with room for the rows in R (4 SPIMP_MAXC rows over nu). */
static int multi_impact(nsm_sim *s, int j, const int *idx, int r, int exempt, double *R)
{
    int nu = s->n_vel;
    double D[16 * SPIMP_MAXC * SPIMP_MAXC], gm[4 * SPIMP_MAXC], gp[4 * SPIMP_MAXC],
        P[4 * SPIMP_MAXC];
    SpMulti C;
    memset(&C, 0, sizeof C);
    if (multi_rows(s, idx, r, &C, R))
        return s->failed;
    int n = C.nrow, bad, rc;
    double *u = s->y + s->n_pos;
    spimp_delassus(s, R, n, gm, D);
    rc = multi_solve(&C, D, gm, P, &bad);
    if (rc)
        return rt_fail(s, NSM_ENUMERIC, j, "the frictional impact on gap '%s' reaching %d contacts "
                       "%s (gap '%s')", s->m->gaps[j].name, r, rc == 3 ? "did not converge: the "
                       "iteration over the contacts settles on no impulses (contacts squeezing a "
                       "body?)" : rc == 1 ? "has no solution of Glocker's law at one contact (a "
                       "Painleve-like geometry)" : "did not converge: a contact's sliding direction "
                       "settles neither by iteration nor by Newton's method",
                       s->m->gaps[C.idx[bad]].name);
    for (int x = 0; x < n; x++)
        for (int i = 0; i < nu; i++)
            u[i] += s->mass_inv[i] * R[(size_t)x * (size_t)nu + (size_t)i] * P[x];
    double dT = 0, scale = 0, lost[SPIMP_MAXC], pmax = 0;
    for (int a = 0; a < r; a++) {
        lost[a] = 0;
        pmax = fmax(pmax, P[C.o[a]]);
        for (int x = C.o[a]; x < C.o[a + 1]; x++) {
            gp[x] = rt_dot(nu, R + (size_t)x * (size_t)nu, u);
            lost[a] -= P[x] * (gp[x] + gm[x]) / 2;
            scale += fabs(P[x]) * (fabs(gp[x]) + fabs(gm[x])) / 2;
        }
        dT -= lost[a];
    }
    if (dT > SPIMP_ENERGY_TOL * scale)
        return rt_fail(s, NSM_EMODEL, j, "the frictional impact on gap '%s' reaching %d contacts "
                       "would create %.6g J of kinetic energy: its restitutions are not "
                       "energetically consistent for these contacts (Glocker's conditions)",
                       s->m->gaps[j].name, r, dT);
    rt_transition_loss_add(s, -dT);
    for (int a = 0; a < r; a++) {
        int o = C.o[a], g = C.idx[a];
        if (g != j && !(P[o] > 1e-12 * pmax))
            continue;
        rc = g == j && !exempt ? rt_log_event(s, NSM_EV_IMPACT, g, gm[o], gp[o], P[o], lost[a], 1)
                               : rt_log_exempt(s, NSM_EV_IMPACT, g, gm[o], gp[o], P[o], lost[a], 1);
        if (rc)
            return rc;
    }
    return NSM_OK;
}

/* The impact of gap j over the touching gaps idx[0..r) when a spatial
** friction element is involved: j's alone (r = 1) by Glocker's law, or
** several contacts at once (spimp_multi) when one of them carries spatial
** friction (*handled = 1); otherwise *handled = 0 (the frictionless laws
** apply). */
int rt_spimp_impulse(nsm_sim *s, int j, const int *idx, int r, int exempt, int *handled)
{
    *handled = 0;
    if (s->m->n_space_frictions <= 0)
        return NSM_OK;
    for (int a = 0; a < r && r > 1; a++)
        if (rt_spimp_element(s, idx[a]) >= 0) {
            *handled = 1;
            return spimp_multi(s, j, idx, r, exempt);
        }
    int k = rt_spimp_element(s, j);
    if (k < 0)
        return NSM_OK;
    *handled = 1;
    return spimp_apply(s, j, k, exempt);
}
