/*
** massmat.c: the mass operator, M^-1 and M applied to force and impulse
** directions and the kinetic energy 1/2 v^T M v.
**
** An ordinary model's mass is diagonal (nsm_numeric.mass, s->mass_inv): every
** function here then does the arithmetic the runtime did before it had this
** file, product for product, so that results stay bit-identical (the
** solve a = M^-1 F inline, rt_mass_solve in rt.h: no call per solve).  A model
** written by its energies (nsm_model.lagrangian) has a dense, symmetric
** M(q) (docs/theory.md section 18): it is evaluated at the configuration
** the dynamics last looked at (rt_mass_at, called where the curved gaps'
** tangent is taken) and factored by Cholesky there, so that the forces'
** accelerations, the held contacts' Delassus matrices W M(q)^-1 W^T and
** the impulses at an impact configuration all use M at that configuration.
** A pivot that is not positive (M(q) not positive definite: the kinetic
** energy degenerates there) stops the run with the state and time.
*/
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "energy.h"
#include "linalg.h"
#include "rt.h"

struct RtMass {
    double *L;                /* n*n: the Cholesky factor of M(qkey), lower triangle */
    double *qkey;             /* n: the configuration it is taken at */
    int valid;                /* L is M(qkey)'s factor */
    int bad;                  /* M(qkey) is not positive definite (s->msg says where) */
};

/* Allocate the dense operator of a Lagrangian model (nothing otherwise). */
int rt_mass_alloc(nsm_sim *s)
{
    if (!s->m->lagrangian)
        return NSM_OK;
    RtMass *ms = calloc(1, sizeof *ms);
    if (!ms)
        return NSM_ENOMEM;
    s->mass = ms;
    size_t n = (size_t)s->n_vel + 1;
    ms->L = calloc(n * n, sizeof(double));
    ms->qkey = calloc(n, sizeof(double));
    return ms->L && ms->qkey ? NSM_OK : NSM_ENOMEM;
}

/* Free what rt_mass_alloc made. */
void rt_mass_free(nsm_sim *s)
{
    RtMass *ms = s->mass;
    if (!ms)
        return;
    free(ms->L);
    free(ms->qkey);
    free(ms);
    s->mass = NULL;
}

/* Record that M(q) at y is not positive definite (pivot `bad`): the
** message names the time, the coordinate and the state; a configuration
** that is not finite (a run that blew up, `--set g=1e300`) is named as
** such rather than blamed on the kinetic energy. */
RT_COLD static void mass_refuse(nsm_sim *s, const double *y, int bad)
{
    int n = s->n_vel;
    for (int i = 0; i < n; i++)
        if (!isfinite(y[i])) {      /* the motion ran away: not M(q)'s fault */
            rt_text_printf(s->msg, sizeof s->msg, "t = %.17g s: state is not finite (position of %s "
                            "= %g), so the mass matrix M(q) cannot be evaluated there", s->t,
                            s->m->body_names ? s->m->body_names[i] : "?",
                            isnan(y[i]) ? fabs(y[i]) : y[i]);     /* "nan", never "-nan" */
            s->failed = NSM_ENUMERIC;
            return;
        }
    char st[600];
    size_t at = 0;
    for (int i = 0; i < n && at + 40 < sizeof st; i++)
        at += (size_t)rt_text_printf(st + at, sizeof st - at, "%s%s = %.10g", i ? ", " : "",
                                      s->m->body_names ? s->m->body_names[i] : "?", y[i]);
    rt_text_printf(s->msg, sizeof s->msg, "t = %.17g s: the mass matrix M(q) is not positive definite "
                    "at the configuration %s (its leading %d x %d block is singular or indefinite at "
                    "coordinate '%s'): the kinetic energy degenerates there", s->t, st, bad + 1, bad + 1,
                    s->m->body_names ? s->m->body_names[bad] : "?");
    s->failed = NSM_ENUMERIC;
}

/* The first coordinate whose Cholesky pivot L_jj^2 is lost in the
** rounding of its diagonal entry M_jj (below 16 n eps of it): M(q) is
** singular to working precision there, though the rounding left the pivot
** a tiny positive number (cart_friction at M = 0 kg, whose mass matrix is
** singular at every configuration, went on to "the stuck friction elements
** are redundant").  -1 when every pivot stands out of the rounding. */
static int mass_pivot_lost(int n, const double *diag, const double *L)
{
    for (int j = 0; j < n; j++)
        if (!(L[j * n + j] * L[j * n + j] > 16 * n * DBL_EPSILON * diag[j]))
            return j;
    return -1;
}

/* Evaluate and factor a Lagrangian model's M(q) at the positions of y
** unless already done there (rt_mass_at, rt.h, asks only for such a
** model).  The factor is the simulation's cached view of its geometry, like
** the curved gaps' tangent, so it is refreshed through a const simulation.
** NSM_ENUMERIC (with s->msg) when M(q) is not positive definite. */
int rt_mass_factor(const nsm_sim *s, const double *y)
{
    RtMass *ms = s->mass;
    int n = s->n_vel;
    if (ms->valid && memcmp(ms->qkey, y, sizeof(double) * (size_t)n) == 0)
        return ms->bad ? NSM_ENUMERIC : NSM_OK;
    s->m->lag_mass(y, s->params, s->consts, ms->L);
    memcpy(ms->qkey, y, sizeof(double) * (size_t)n);
    ms->valid = 1;
    double diag[n];
    for (int i = 0; i < n; i++)
        diag[i] = ms->L[i * n + i];
    int bad = nsm_la_cholesky(n, ms->L);
    if (bad < 0)
        bad = mass_pivot_lost(n, diag, ms->L);
    ms->bad = bad >= 0;
    if (ms->bad)
        mass_refuse((nsm_sim *)s, y, bad);
    return ms->bad ? NSM_ENUMERIC : NSM_OK;
}

/* det M(q) at the positions of y, or -1 when M(q) is not positive definite
** there: for the diagnosis of a refused step (rt_cause_ahead), so it
** leaves the cached factor and the failure state alone. */
double rt_mass_det(const nsm_sim *s, const double *y)
{
    int n = s->n_vel;
    double L[n * n], det = 1;
    s->m->lag_mass(y, s->params, s->consts, L);
    if (nsm_la_cholesky(n, L) >= 0)
        return -1;
    for (int j = 0; j < n; j++)
        det *= L[j * n + j] * L[j * n + j];
    return det;
}

/* Forget the factor (after a setup changed the parameters). */
void rt_mass_forget(nsm_sim *s)
{
    if (s->mass)
        s->mass->valid = 0;
}

/* a = M^-1 F for a dense M(q) (rt_mass_solve, rt.h, takes the diagonal
** case inline): by the factor at the configuration last taken.
** NSM_ENUMERIC when that M(q) is not positive definite. */
int rt_mass_solve_dense(const nsm_sim *s, const double *F, double *a)
{
    const RtMass *ms = s->mass;
    if (ms->bad)
        return NSM_ENUMERIC;
    nsm_la_cholesky_solve(s->n_vel, ms->L, F, a);
    return NSM_OK;
}

/* v += M^-1 (f times row r of A) (an impulse f along a gap's or a
** constraint direction's row): over the row's nonzeros for a diagonal
** mass, in the same products as before; densely for M(q). */
void rt_mass_add_row(const nsm_sim *s, const RtCsr *A, int r, double f, double *v)
{
    if (!s->mass) {
        for (int k = A->p[r]; k < A->p[r + 1]; k++)
            v[A->i[k]] += s->mass_inv[A->i[k]] * A->x[k] * f;
        return;
    }
    int n = s->n_vel;
    double b[n], z[n];
    memset(b, 0, sizeof b);
    for (int k = A->p[r]; k < A->p[r + 1]; k++)
        b[A->i[k]] = A->x[k] * f;
    if (s->mass->bad)
        return;
    nsm_la_cholesky_solve(n, s->mass->L, b, z);
    for (int i = 0; i < n; i++)
        v[i] += z[i];
}

/* Row ra of R times M^-1 times row rb of Dd: one entry of a Delassus
** matrix when the mass is dense (delassus_at in dynamics.c forms the
** diagonal case by merging the two rows). */
double rt_mass_inner(const nsm_sim *s, const RtCsr *R, int ra, const RtCsr *Dd, int rb)
{
    int n = s->n_vel;
    double b[n], z[n], sum = 0;
    memset(b, 0, sizeof b);
    for (int k = Dd->p[rb]; k < Dd->p[rb + 1]; k++)
        b[Dd->i[k]] = Dd->x[k];
    if (s->mass->bad)
        return NAN;
    nsm_la_cholesky_solve(n, s->mass->L, b, z);
    for (int k = R->p[ra]; k < R->p[ra + 1]; k++)
        sum += R->x[k] * z[R->i[k]];
    return sum;
}

/* a . M^-1 b for two dense rows over the coordinates (n values each): an
** entry of friction's Delassus matrices (frictional impacts, Zeno tails).
** For a diagonal mass the long double sum of a_i minv_i b_i, product for
** product as friction.c formed it; for M(q) by the factor at the
** configuration last taken (NAN when M(q) is not positive definite). */
long double rt_mass_dot(const nsm_sim *s, const double *a, const double *b)
{
    int n = s->n_vel;
    long double r = 0;
    if (!s->mass) {
        for (int i = 0; i < n; i++)
            r += (long double)a[i] * s->mass_inv[i] * b[i];
        return r;
    }
    if (s->mass->bad)
        return NAN;
    double z[n + 1];
    nsm_la_cholesky_solve(n, s->mass->L, b, z);
    for (int i = 0; i < n; i++)
        r += (long double)a[i] * z[i];
    return r;
}

/* Kinetic energy 1/2 v^T M(q) v of a Lagrangian model at y, M evaluated
** at y's positions (the factor is not touched; rt_mass_kinetic, rt.h,
** gives an ordinary model's diagonal sum). */
double rt_mass_kinetic_q(const nsm_sim *s, const double *y)
{
    int n = s->n_vel;
    double M[n * n + 1], e = 0;
    s->m->lag_mass(y, s->params, s->consts, M);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            e += y[n + i] * M[i * n + j] * y[n + j];
    return 0.5 * e;
}

/* The potential energy V(q) of a Lagrangian model at y (0 otherwise). */
double rt_mass_potential(const nsm_sim *s, const double *y)
{
    return s->mass && s->m->lag_potential ? s->m->lag_potential(y, s->params, s->consts) : 0;
}

/* Add the Euler-Lagrange terms h(q, v) at y to F (nothing for an
** ordinary model). */
void rt_mass_forces(const nsm_sim *s, const double *x, const double *v, double *F)
{
    if (!s->mass)
        return;
    int n = s->n_vel;
    double y[2 * n];
    memcpy(y, x, sizeof(double) * (size_t)n);
    memcpy(y + n, v, sizeof(double) * (size_t)n);
    s->m->lag_h(y, s->params, s->consts, F);
}

/* Add to dF the rate along the motion (velocities v = y[n..], accelerations
** a) of the Lagrangian terms, d/dt h(q, v) - (dM/dt) a, so that M da = dF
** for the accelerations' rate; by a central difference, as rt_nl_rates
** does for the nonlinear forces: the event functions' rates only steer the
** root finder, whose bracket keeps the events exact.  Nothing for an
** ordinary model. */
void rt_mass_rates(const nsm_sim *s, const double *y, const double *a, double *dF)
{
    if (!s->mass)
        return;
    int n = s->n_vel;
    double yp[2 * n], ym[2 * n], hp[n], hm[n], Mp[n * n], Mm[n * n], sy = 0, sd = 0;
    for (int i = 0; i < 2 * n; i++) {
        double d = i < n ? y[n + i] : a[i - n];
        sy = fmax(sy, fabs(y[i]));
        sd = fmax(sd, fabs(d));
    }
    double e = sd > 0 ? 1e-7 * (1 + sy) / sd : 1e-7;
    for (int i = 0; i < 2 * n; i++) {
        double d = i < n ? y[n + i] : a[i - n];
        yp[i] = y[i] + e * d;
        ym[i] = y[i] - e * d;
        if (i < n)
            hp[i] = hm[i] = 0;
    }
    s->m->lag_h(yp, s->params, s->consts, hp);
    s->m->lag_h(ym, s->params, s->consts, hm);
    s->m->lag_mass(yp, s->params, s->consts, Mp);
    s->m->lag_mass(ym, s->params, s->consts, Mm);
    for (int i = 0; i < n; i++) {
        double ma = 0;
        for (int j = 0; j < n; j++)
            ma += (Mp[i * n + j] - Mm[i * n + j]) * a[j];
        dF[i] += (hp[i] - hm[i] - ma) / (2 * e);
    }
}
