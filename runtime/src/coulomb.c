/*
** coulomb.c: the forces of the Coulomb friction elements, in the dynamics
** layer.
**
** What a friction element contributes to a mode's equations, given the mode:
** its slip velocity, its normal force, the slipping elements' forces, the
** event functions of docs/theory.md (slip velocity while slipping, the
** force reaching the cone while stuck), the power it dissipates and the
** rows of those over the exact method's augmented state.  No state of its
** own: which elements stick is the mode's (friction.c decides it at the
** transitions), the multipliers of the stuck ones come from dynamics.c.
*/
#include <math.h>
#include <string.h>

#include "law.h"
#include "rt.h"

/* Slip velocity of element k at velocities v. */
double rt_fric_slip(const nsm_sim *s, int k, const double *v)
{
    return rt_wtrow(s, k, v) - s->num.ut[k];
}

/* Velocity below which element k counts as at zero slip. */
double rt_fric_slip_tol(const nsm_sim *s, int k, const double *v)
{
    const RtCsr *W = &s->sp.Wt;
    double sc = fabs(s->num.ut[k]);
    for (int q = W->p[k]; q < W->p[k + 1]; q++)
        sc += fabs(W->x[q] * v[W->i[q]]);
    return 1e-9 * sc + RT_VEL_FLOOR;
}

/* Gap whose contact force is element k's normal force, or -1. */
int rt_fric_normal_gap(const nsm_sim *s, int k)
{
    return s->m->frictions[k].normal_gap;
}

/* True when element k is idle in mode: its normal force is a gap's contact
** force and that gap is open.  An idle element exerts no force and has no
** events (its event functions are the constant 1): its slip velocity may
** change sign in flight without meaning anything. */
int rt_fric_idle(const nsm_sim *s, const unsigned *mode, int k)
{
    int j = rt_fric_normal_gap(s, k);
    return j >= 0 && !rt_mode_has(mode, j);
}

/* Normal force of element k at (x, v) in mode: its constant, or the contact
** force of its gap (lam: the closed impact gaps' forces, for an impact
** gap; a penalty gap's k p^a + c p'; 0 while the gap is open).  With cflag 0
** the constants (fn, the gap's offset) are left out: the linear part (for
** a penalty exponent other than 1, the linear law's: exact, which reads
** it, is refused for such models, and the event functions' rates it
** feeds only steer the locator). */
double rt_fric_normal(const nsm_sim *s, const unsigned *mode, int k, const double *x,
                          const double *v, const double *lam, int cflag)
{
    int j = rt_fric_normal_gap(s, k);
    if (j < 0)
        return cflag ? s->num.fn[k] : 0;
    if (!rt_mode_has(mode, j))
        return 0;
    if (rt_law_impacts(s, j))
        return lam ? lam[j] : 0;
    if (cflag)      /* the force element's force (the penalty law's k p^a + c p') */
        return rt_law_force(s, j, -(rt_wrow(s, j, x) + s->num.d[j]), -rt_wrow(s, j, v));
    return -rt_law_stiffness(s, j) * rt_wrow(s, j, x) -
           rt_law_damping(s, mode, j) * rt_wrow(s, j, v);
}

/* Add the slip forces of mode at (x, v) to F: constants (only with cflag,
** like the other affine terms of rt_force_parts), or linear in the state
** when the normal is a penalty gap's force.  Those whose normal is an
** impact gap's force are in that gap's force direction (rt_fric_gap_dir). */
void rt_fric_forces(const nsm_sim *s, const unsigned *mode, const double *x, const double *v,
                    int cflag, double *F)
{
    for (int k = 0; k < s->n_fric; k++) {
        int j = rt_fric_normal_gap(s, k);
        if (rt_fric_stuck(s, mode, k) || (j >= 0 && rt_law_impacts(s, j)))
            continue;
        double f = -rt_fric_sign(s, mode, k) * s->num.muk[k] *
                   rt_fric_normal(s, mode, k, x, v, NULL, cflag);
        rt_csr_axpy(&s->sp.Wt, k, f, F);
    }
}

/* Add to dir (n values, initially w_j) the slip forces per unit contact
** force of closed impact gap j: the elements slipping on j's force. */
void rt_fric_gap_dir(const nsm_sim *s, const unsigned *mode, int j, double *dir)
{
    for (int k = 0; k < s->n_fric; k++) {
        if (rt_fric_normal_gap(s, k) != j || rt_fric_stuck(s, mode, k))
            continue;
        double f = -rt_fric_sign(s, mode, k) * s->num.muk[k];
        rt_csr_axpy(&s->sp.Wt, k, f, dir);
    }
}

/* Event functions g + 2k, g + 2k + 1 of every element and their rates, from
** the state (x, v), accelerations a, the closed impact gaps' forces lam and
** their rates dlam, and the stuck elements' multipliers lamf and their
** rates dlamf.  A slipping element's second function is the constant 1. */
void rt_fric_events(const nsm_sim *s, const unsigned *mode, const double *x, const double *v,
                    const double *a, const double *lam, const double *dlam, const double *lamf,
                    const double *dlamf, double *ev, double *evd)
{
    for (int k = 0; k < s->n_fric; k++) {
        if (rt_fric_idle(s, mode, k)) {
            ev[2 * k] = ev[2 * k + 1] = 1;
            evd[2 * k] = evd[2 * k + 1] = 0;
        } else if (rt_fric_stuck(s, mode, k)) {
            double ms = s->num.mus[k];
            double N = rt_fric_normal(s, mode, k, x, v, lam, 1);
            double Nd = rt_fric_normal(s, mode, k, v, a, dlam, 0);
            ev[2 * k] = ms * N - lamf[k];
            evd[2 * k] = ms * Nd - dlamf[k];
            ev[2 * k + 1] = ms * N + lamf[k];
            evd[2 * k + 1] = ms * Nd + dlamf[k];
        } else {
            int sg = rt_fric_sign(s, mode, k);
            ev[2 * k] = sg * rt_fric_slip(s, k, v);
            evd[2 * k] = sg * rt_wtrow(s, k, a);
            ev[2 * k + 1] = 1;
            evd[2 * k + 1] = 0;
        }
    }
}

/* Friction's dissipated power and the power of the moving surfaces in mode
** at velocities v (lamf: the stuck elements' multipliers).  A stuck
** element's force does the work lamf (w_t . v): the surface's, lamf u, at
** zero slip, and also that of the slip the rounding leaves (a block held
** by a drive force of 3 N at 3 kg crept at 1e-16 m/s^2, the drive's
** work was counted and the stuck force's was not, and the balance of a
** run at rest was off by the whole of that work: exit 3 at any mass but
** a power of 2). */
void rt_fric_power(const nsm_sim *s, const unsigned *mode, const double *x, const double *v,
                   const double *lam, const double *lamf, double *pd, double *pw)
{
    *pd = *pw = 0;
    for (int k = 0; k < s->n_fric; k++) {
        if (rt_fric_stuck(s, mode, k)) {
            *pw += lamf[k] * rt_wtrow(s, k, v);
            continue;
        }
        double f = s->num.muk[k] * rt_fric_normal(s, mode, k, x, v, lam, 1);
        int sg = rt_fric_sign(s, mode, k);
        *pd += sg * f * rt_fric_slip(s, k, v);
        *pw -= sg * f * s->num.ut[k];
    }
}

/* Element k's normal force as a row over Z = (x, v, z, 1) in mode: its
** constant, a penalty gap's k p + c p', or a held impact gap's force (the
** row lg of that gap, from the constrained accelerations). */
static void normal_row(const nsm_sim *s, const unsigned *mode, int k, const double *lg, double *row)
{
    int n = s->n_vel, na = s->n_aug, j = rt_fric_normal_gap(s, k);
    memset(row, 0, sizeof(double) * (size_t)na);
    if (j < 0) {
        row[na - 1] = s->num.fn[k];
    } else if (!rt_mode_has(mode, j)) {
        return;
    } else if (rt_law_impacts(s, j)) {
        memcpy(row, lg + (size_t)j * na, sizeof(double) * (size_t)na);
    } else {
        const RtCsr *W = &s->sp.W;
        double k = rt_law_stiffness(s, j), c = rt_law_damping(s, mode, j);
        for (int q = W->p[j]; q < W->p[j + 1]; q++) {
            row[W->i[q]] = -k * W->x[q];
            row[n + W->i[q]] = -c * W->x[q];
        }
        row[na - 1] = -k * s->num.d[j];
    }
}

/* The rows of the friction elements' event functions and the friction
** terms of the quadratic forms of mode on Z = (x, v, z, 1): L holds the
** stuck elements' multipliers as rows over Z (nf*na), lg the closed impact
** gaps' forces (g rows), ev the event rows (2 nf of them), Qd and Qw the
** forms of rt_fric_power. */
void rt_fric_forms(const nsm_sim *s, const unsigned *mode, const double *L, const double *lg, double *ev,
                   double *Qd, double *Qw)
{
    int n = s->n_vel, na = s->n_aug, one = na - 1;
    double nr[na], ur[na];
    for (int k = 0; k < s->n_fric; k++) {
        double *ea = ev + (size_t)(2 * k) * na, *eb = ea + na;
        double wd[n];
        const double *w = rt_dense_wtrow(s, k, wd), *l = L + (size_t)k * na;
        double ms = s->num.mus[k], c = s->num.ut[k];
        memset(ea, 0, sizeof(double) * 2 * (size_t)na);
        if (rt_fric_idle(s, mode, k)) {
            ea[one] = eb[one] = 1;
            continue;
        }
        normal_row(s, mode, k, lg, nr);
        if (rt_fric_stuck(s, mode, k)) {
            for (int q = 0; q < na; q++) {
                ea[q] = ms * nr[q] - l[q];
                eb[q] = ms * nr[q] + l[q];
                Qw[(size_t)one * na + q] += 0.5 * c * l[q];
                Qw[(size_t)q * na + one] += 0.5 * c * l[q];
            }
            continue;
        }
        /* dissipation s mu_k N u and surface work -s mu_k N c, N = nr . Z,
         * u = ur . Z: symmetric quadratic forms */
        int sg = rt_fric_sign(s, mode, k);
        double f = sg * s->num.muk[k];
        memset(ur, 0, sizeof ur);
        for (int i = 0; i < n; i++)
            ur[n + i] = w[i];
        ur[one] = -c;
        for (int q = 0; q < na; q++)
            ea[q] = sg * ur[q];
        eb[one] = 1;
        for (int p = 0; p < na; p++) {
            if (nr[p] == 0 && ur[p] == 0)
                continue;
            for (int q = 0; q < na; q++)
                Qd[(size_t)p * na + q] += 0.5 * f * (nr[p] * ur[q] + ur[p] * nr[q]);
            Qw[(size_t)one * na + p] -= 0.5 * f * c * nr[p];
            Qw[(size_t)p * na + one] -= 0.5 * f * c * nr[p];
        }
    }
}
