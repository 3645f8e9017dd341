/*
** stats.c: the energy audit and the per-contact statistics of a run.
**
** The run loop calls rt_stats_step at the end of every integrator step,
** before the transition of an event landed on, with the step's start still in
** the simulation (s->t, s->y, s->mode) and its end in (t1, Y1).  Every event
** record, from the transitions, friction, sections and the Zeno handling, is
** logged here (rt_log_event), through the event-rate guard (the `rate`
** sub-struct, owned here; the records of a recognized Zeno cascade are
** logged outside it, by rt_log_exempt), and counted by stats_event.  From these the audit keeps:
**
**   - the largest balance error and the largest energy met at a step end;
**   - code_aster's SDND121 metrics (validation case SDND121, "Benchmark
**     results"), summed over the step ends i:
**         E_tot,i = kinetic + potential (springs, gravity, 1/2 k p^2)
**         E_inj,i = E_tot,0 + sum_{j <= i} f(t_j) . v_j (t_j - t_{j-1})
**         energy error = sqrt(sum (E_tot,i - E_inj,i)^2 / sum E_inj,i^2)
**         force error  = sqrt(sum (F_i - k p_i)^2 / sum (k p_i)^2)
**     (p the penetration max(0, -gap) of each penalty gap, F its force);
**   - the split of the integrated dissipation over the dampers and of the
**     integrated work over the bodies and over the `force` statements (when
**     the model lists them, nsm_model.forces): each step's increment of the
**     integrated state is shared out by a 4-point Gauss quadrature of each
**     element's power on the cubic Hermite interpolant of the velocities,
**     so the shares always add up to the integrated total;
**   - per gap: impacts, impulses, stick or contact phases and their time,
**     peak force at step ends, largest closing speed, energy lost, and the
**     energy of a penalty gap's damper.
*/
#include <float.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "law.h"
#include "energy.h"
#include "rt.h"

typedef struct RtGapStats {
    long impacts, zeno, phases;
    double time, since;       /* closed time of finished phases; start of the open one */
    int open;                 /* a stick or contact phase is under way */
    double impulse, peak, vmax, lost, damper;
    double fnum, fden;        /* code_aster's force error sums of this gap */
} RtGapStats;

typedef struct RtStats {
    RtGapStats *gap;          /* g */
    double *damper;           /* n_springs: energy burnt in each element's damper */
    double *work;             /* n: work of the external forces on each body */
    double *gyro;             /* n: work of the gyroscopic torques on each rotational
                                 coordinate of a rigid body (their sum is zero) */
    int nf;                   /* force statements listed by the model, 0 if none (or unusable) */
    double *fwork;            /* nf: work of each force statement */
    double *fk, *qf;          /* nf each: the statements' values at a node, their quadrature */
    double other_d, other_w;  /* increments no element could be given */
    double other_f;           /* increments no force statement could be given */
    double *a1, *ya;          /* N each: derivative at the last step's end, and that state */
    double ta;                /* time of the cached derivative a1 */
    unsigned *mode_a;         /* mode_words words */
    long ev_a;                /* event count when a1 was cached */
    int have_a;
    double *f, *vq;           /* n each: forces and velocities at a node */
    long steps;
    int partial;              /* some step ran without the detailed audit */
    double inj;               /* sum f . v dt */
    double num, den, fnum, fden;
    double err_max, e_max, err_last; /* err_last: |balance error| at the last step end */
    double t_max;             /* the largest kinetic energy met at a step end (rt_stats_floor_decision) */
    double t_first, t_last;   /* the first step's start, the last step's end */
    double h_last;            /* the last step's length */
    double *qmax, *path;      /* n each (state-dependent forces only): the largest |x_i|
                                 met and the path sum |dx_i| over the steps */
    double *kmax;             /* n: the largest |df_i/dx_i| state_floor has met */
    double *tk;               /* n: the largest 1/2 m_i v_i^2 of each coordinate met at a
                                 step end (diagonal masses: rt_stats_floor_decision) */
} RtStats;

/* 4-point Gauss-Legendre nodes and weights on [0, 1]. */
static const double gl_x[4] = { 0.069431844202973713, 0.33000947820757187,
                                0.66999052179242813, 0.93056815579702629 };
static const double gl_w[4] = { 0.17392742256872693, 0.32607257743127307,
                                0.32607257743127307, 0.17392742256872693 };

/* Number of force statements the model's table lists usably: a force
** table with its function and every body index in range, else 0 (the audit
** then shares the work per body only). */
static int force_count(const nsm_sim *s)
{
    const nsm_model *m = s->m;
    if (m->n_forces <= 0 || !m->forces || !m->force_terms)
        return 0;
    for (int k = 0; k < m->n_forces; k++)
        if (m->forces[k].body < 0 || m->forces[k].body >= s->n_vel)
            return 0;
    return m->n_forces;
}

/* Allocate the audit's storage; nonzero on failure. */
int rt_stats_alloc(nsm_sim *s)
{
    RtStats *st = calloc(1, sizeof *st);
    if (!st)
        return 1;
    s->st = st;
    size_t N = (size_t)s->n_state, n = (size_t)s->n_vel;
    st->gap = calloc(s->n_gaps ? s->n_gaps : 1, sizeof *st->gap);
    st->damper = calloc(s->m->n_springs ? s->m->n_springs : 1, sizeof(double));
    st->work = calloc(n, sizeof(double));
    st->gyro = calloc(n, sizeof(double));
    st->a1 = calloc(N, sizeof(double));
    st->ya = calloc(N, sizeof(double));
    st->f = calloc(n, sizeof(double));
    st->vq = calloc(n, sizeof(double));
    st->nf = force_count(s);
    size_t nf = (size_t)(st->nf ? st->nf : 1);
    st->fwork = calloc(nf, sizeof(double));
    st->fk = calloc(nf, sizeof(double));
    st->qf = calloc(nf, sizeof(double));
    st->mode_a = calloc((size_t)s->mode_words, sizeof(unsigned));
    st->qmax = calloc(n ? n : 1, sizeof(double));
    st->path = calloc(n ? n : 1, sizeof(double));
    st->kmax = calloc(n ? n : 1, sizeof(double));
    st->tk = calloc(n ? n : 1, sizeof(double));
    s->rate.window = 16 + 4 * s->n_gaps;
    s->rate.ring = calloc((size_t)s->rate.window, sizeof(double));
    return !s->rate.ring || !st->gap || !st->damper || !st->work || !st->gyro || !st->a1 || !st->ya || !st->f ||
           !st->vq || !st->fwork || !st->fk || !st->qf || !st->mode_a || !st->qmax || !st->path ||
           !st->kmax || !st->tk;
}

/* Free the audit's storage. */
void rt_stats_free(nsm_sim *s)
{
    free(s->rate.ring);
    s->rate.ring = NULL;
    RtStats *st = s->st;
    if (!st)
        return;
    free(st->gap);
    free(st->mode_a);
    free(st->damper);
    free(st->work);
    free(st->gyro);
    free(st->a1);
    free(st->ya);
    free(st->f);
    free(st->vq);
    free(st->fwork);
    free(st->fk);
    free(st->qf);
    free(st->qmax);
    free(st->path);
    free(st->kmax);
    free(st->tk);
    free(st);
    s->st = NULL;
}

/* Back to an empty audit (at t = 0). */
void rt_stats_reset(nsm_sim *s)
{
    s->rate.n = 0;
    RtStats *st = s->st;
    if (!st)
        return;
    memset(st->gap, 0, sizeof *st->gap * (size_t)(s->n_gaps ? s->n_gaps : 1));
    memset(st->damper, 0, sizeof(double) * (size_t)(s->m->n_springs ? s->m->n_springs : 1));
    memset(st->work, 0, sizeof(double) * (size_t)s->n_vel);
    memset(st->gyro, 0, sizeof(double) * (size_t)s->n_vel);
    memset(st->fwork, 0, sizeof(double) * (size_t)(st->nf ? st->nf : 1));
    memset(st->qmax, 0, sizeof(double) * (size_t)s->n_vel);
    memset(st->path, 0, sizeof(double) * (size_t)s->n_vel);
    memset(st->kmax, 0, sizeof(double) * (size_t)s->n_vel);
    memset(st->tk, 0, sizeof(double) * (size_t)s->n_vel);
    st->other_d = st->other_w = st->other_f = 0;
    st->have_a = 0;
    st->steps = 0;
    st->partial = 0;
    st->inj = st->num = st->den = st->fnum = st->fden = 0;
    st->err_max = st->e_max = st->err_last = st->t_max = 0;
    st->t_first = st->t_last = st->h_last = 0;
}

/* Penetration and its rate of gap j at y: p = -gap, p' = -w.v. */
static void penetration(const nsm_sim *s, int j, const double *y, double *p, double *pd)
{
    *p = -rt_gap(s, j, y);
    *pd = -rt_wrow(s, j, rt_vel(s, y));
}

/* Velocities at theta in [0, 1] of the step (cubic Hermite on v, a). */
static void hermite_v(int n, const double *v0, const double *a0, const double *v1,
                      const double *a1, double h, double th, double *v)
{
    double t2 = th * th, t3 = t2 * th;
    double h00 = 2 * t3 - 3 * t2 + 1, h10 = t3 - 2 * t2 + th, h01 = -2 * t3 + 3 * t2, h11 = t3 - t2;
    for (int i = 0; i < n; i++)
        v[i] = h00 * v0[i] + h10 * h * a0[i] + h01 * v1[i] + h11 * h * a1[i];
}

/* The integral of force-element gap j's force over a step of length h,
** from the penetration and its rate (p[0], pd[0]) at the step's start to
** (p[1], pd[1]) at its end: its law's impulse, or for a law without one
** the 4-point Gauss quadrature of its elastic force (its force at p' = 0)
** on the cubic Hermite interpolant of p, plus its damper's c (p1 - p0)
** exactly (law.h: a force element's force is elastic in p plus c p'). */
static double gap_impulse(const nsm_sim *s, int j, double h, const double p[2],
                          const double pd[2])
{
    const rt_law *law = rt_law_of(s, j);
    double r = 0, q;
    if (law->impulse)
        return law->impulse(s, j, h, p, pd);
    for (int k = 0; k < 4; k++) {
        hermite_v(1, &p[0], &pd[0], &p[1], &pd[1], h, gl_x[k], &q);
        r += gl_w[k] * law->force(s, j, q, 0);
    }
    return h * r + rt_law_closed_damping(s, j) * (p[1] - p[0]);
}

/* Number of elements that may dissipate in mode: dampers of the spring
** elements and dampers of engaged penalty gaps; the last one in *which
** (spring index, or n_springs + gap index). */
static int dissipators(const nsm_sim *s, const unsigned *mode, int *which)
{
    int c = 0;
    for (int k = 0; k < s->m->n_springs; k++)
        if (s->num.sc[k] != 0)
            c++, *which = k;
    for (int j = 0; j < s->n_gaps; j++)
        if (rt_law_damping(s, mode, j) != 0)
            c++, *which = s->m->n_springs + j;
    return c;
}

/* Share a step's increment dW of injected work among cnt recipients
** (bodies or force statements) whose powers integrate to q[k] over the
** step: each gets its q[k], and the difference between dW (the integrated
** state) and the sum of the q[k] is shared in proportion to |q[k]|, so that
** the shares add up to dW.  Without any power the whole increment goes to
** *other. */
static void share_work(double *acc, const double *q, int cnt, double dW, double *other)
{
    double sum = 0, mag = 0;
    for (int k = 0; k < cnt; k++)
        sum += q[k], mag += fabs(q[k]);
    if (!(mag > 0)) {
        *other += dW;
        return;
    }
    for (int k = 0; k < cnt; k++)
        acc[k] += q[k] + (dW - sum) * (fabs(q[k]) / mag);   /* no overflow at 1e300 J */
}

/* The applied forces on every body (coordinate) at the fraction x of the
** step from (s->t, s->y) to (t1 = s->t + h, Y1), velocities v there: the
** time-dependent ones (force) and the state-dependent ones (nl_force, at
** the positions of the step's cubic Hermite interpolant from the ends'
** positions and velocities, a0 and st->a1).  Without the latter the per-body
** shares of a nonlinear model's work were 0 and all of it "other". */
static void body_forces(nsm_sim *s, double h, double x, const double *Y1, const double *a0,
                        const double *v, double *f)
{
    int n = s->n_vel, nq = s->n_pos;      /* the state (q[nq], u[n]) */
    double t = s->t + x * h, y[nq + n];
    memset(f, 0, sizeof(double) * (size_t)n);
    if (s->m->force)
        s->m->force(t, s->sw, s->params, s->consts, f);
    if (!s->m->nl_force)
        return;
    hermite_v(nq, s->y, a0, Y1, s->st->a1, h, x, y);
    memcpy(y + nq, v, sizeof(double) * (size_t)n);
    s->m->nl_force(t, y, s->sw, s->params, s->consts, f);
}

/* Takes the rigid bodies' gyroscopic torques -(w x I w)_i = (I_a - I_c) w_a w_c
** ((i, a, c) cyclic; nsmc adds them to nl_force, derive_rigid.c) out of the
** forces f at velocities v, adding their power times the weight wq to qg:
** they exchange energy between a body's rotational coordinates and do no
** work in total, so they are no injected work of any coordinate. */
static void gyro_split(const nsm_sim *s, const double *v, double wq, double *f, double *qg)
{
    const double *I = s->num.mass;
    for (int b = 0; b < s->m->n_rigid; b++) {
        int w0 = s->m->rigid_rot[b];
        for (int i = 0; i < 3; i++) {
            int a = w0 + (i + 1) % 3, c = w0 + (i + 2) % 3;
            double gi = (I[a] - I[c]) * v[a] * v[c];
            f[w0 + i] -= gi;
            qg[w0 + i] += wq * gi * v[w0 + i];
        }
    }
}

/* Whether every `force` statement acts on a body no other statement acts
** on: each statement's work is then its body's (state-dependent statements
** have no value of their own in the table, only nl_force's sum per body). */
static int forces_alone(const nsm_sim *s)
{
    const nsm_model *m = s->m;
    for (int k = 0; k < m->n_forces; k++)
        for (int q = k + 1; q < m->n_forces; q++)
            if (m->forces[k].body == m->forces[q].body)
                return 0;
    return 1;
}

/* Whether the statements' works can be told apart (nsm_sim_force_work):
** always for time-dependent forces (force_terms), for state-dependent
** ones when each acts on a body of its own. */
static int forces_split(const nsm_sim *s)
{
    return !s->m->nl_force || forces_alone(s);
}

/* Share the step's increments of dissipated energy (dD) and injected work
** (dW) among the dampers, the bodies and the force statements. */
static void split_step(nsm_sim *s, double h, double t1, const double *Y1, double dD, double dW)
{
    RtStats *st = s->st;
    int n = s->n_vel, ns = s->m->n_springs, g = s->n_gaps, nf = st->nf, which = -1;
    int nd = dissipators(s, s->mode, &which);
    int need_d = nd > 1 && dD != 0;
    int by_body = nf > 1 && s->m->nl_force && forces_alone(s);   /* fwork from work */
    int need_b = n > 1 && dW != 0 && (s->m->force || s->m->nl_force || by_body);
    int need_f = nf > 1 && dW != 0 && !s->m->nl_force;
    int need_g = s->m->n_rigid > 0 && s->m->rigid_rot && s->m->nl_force; /* on every step */
    int need_w = need_b || need_f || need_g;
    if (nd == 1) {
        if (which < ns)
            st->damper[which] += dD;
        else
            st->gap[which - ns].damper += dD;
    } else if (nd == 0) {
        st->other_d += dD;
    }
    if (n == 1)
        st->work[0] += dW;
    else if (!need_b)
        st->other_w += dW;
    if (nf == 1)
        st->fwork[0] += dW;
    else if (nf > 1 && !need_f && !(by_body && need_b))
        st->other_f += dW;
    if (!need_d && !need_w)
        return;
    double a0[s->n_state];
    const double *v0 = rt_vel(s, s->y), *v1 = rt_vel(s, Y1);
    int cached = st->have_a && st->ta == s->t && rt_mode_eq(s, st->mode_a, s->mode) &&
                 st->ev_a == s->nevents && memcmp(st->ya, s->y, sizeof a0) == 0;
    /* derivatives at both ends in the step's mode; the start's is the last
     * step's end when no transition came in between */
    if (cached)
        memcpy(a0, st->a1, sizeof a0);
    st->have_a = 0;
    if ((!cached && rt_deriv(s, s->mode, s->t, s->y, a0)) || rt_deriv(s, s->mode, t1, Y1, st->a1)) {
        st->other_d += need_d ? dD : 0;
        st->other_w += need_b ? dW : 0;
        st->other_f += need_f ? dW : 0;
        return;
    }
    memcpy(st->ya, Y1, sizeof a0);
    st->ta = t1;
    rt_mode_copy(s, st->mode_a, s->mode);
    st->ev_a = s->nevents;
    st->have_a = 1;
    double qd[ns + g + 1], qw[n], qg[n];
    memset(qd, 0, sizeof qd);
    memset(qw, 0, sizeof qw);
    memset(qg, 0, sizeof qg);
    if (need_f)
        memset(st->qf, 0, sizeof(double) * (size_t)nf);
    for (int q = 0; q < 4; q++) {
        double *v = st->vq, wq = gl_w[q] * h;
        hermite_v(n, v0, rt_vel(s, a0), v1, rt_vel(s, st->a1), h, gl_x[q], v);
        if (need_d) {
            for (int k = 0; k < ns; k++) {
                const nsm_spring_info *e = &s->m->springs[k];
                double dv = (e->b >= 0 ? v[e->b] : 0) - (e->a >= 0 ? v[e->a] : 0);
                qd[k] += wq * s->num.sc[k] * dv * dv;
            }
            for (int j = 0; j < g; j++) {
                double c = rt_law_damping(s, s->mode, j), wv = c ? rt_wrow(s, j, v) : 0;
                qd[ns + j] += wq * c * wv * wv;
            }
        }
        if (need_b || need_g) {
            body_forces(s, h, gl_x[q], Y1, a0, v, st->f);
            if (need_g)
                gyro_split(s, v, wq, st->f, qg);
            for (int i = 0; i < n; i++)
                qw[i] += wq * st->f[i] * v[i];
        }
        if (need_f) {
            s->m->force_terms(s->t + gl_x[q] * h, s->sw, s->params, s->consts, st->fk);
            for (int k = 0; k < nf; k++)
                st->qf[k] += wq * st->fk[k] * v[s->m->forces[k].body];
        }
    }
    if (need_d) {
        double sum = 0;
        for (int k = 0; k < ns + g; k++)
            sum += qd[k];
        if (sum > 0) {
            for (int k = 0; k < ns; k++)
                st->damper[k] += dD * qd[k] / sum;
            for (int j = 0; j < g; j++)
                st->gap[j].damper += dD * qd[ns + j] / sum;
        } else {
            st->other_d += dD;
        }
    }
    for (int i = 0; i < n && need_g; i++)
        st->gyro[i] += qg[i];
    if (need_b && by_body) {
        double before[n], ow = st->other_w;
        memcpy(before, st->work, sizeof before);
        share_work(st->work, qw, n, dW, &st->other_w);
        for (int k = 0; k < nf; k++) {
            int b = s->m->forces[k].body;
            st->fwork[k] += st->work[b] - before[b];
        }
        st->other_f += st->other_w - ow;    /* what no body could be given */
    } else if (need_b) {
        share_work(st->work, qw, n, dW, &st->other_w);
    }
    if (need_f)
        share_work(st->fwork, st->qf, nf, dW, &st->other_f);
}

/* The balance's rounding floor at t1: 1e-20 of the energy that the applied
** forces f_i would give the bodies from rest since the run's start,
** sum (f_i dt)^2 / m_i (0 for a mass matrix M(q) or no applied force).  A
** body held still by forces that cancel in its mode's equations only to
** their rounding (m (1/m) is not 1 at m = 3 kg) creeps with an energy of
** about eps^2 of that; its balance, integrated from a power of the same
** size, is then noise of order 1 of the energies met: a block at rest
** under a press failed the balance, "off by 1 of the largest energy" at
** 1e-35 J, at every mass scale but the powers of 2.  The floor is a
** property of the problem: the same fraction at every mass scale. */
static double balance_floor(const nsm_sim *s, double t1)
{
    int n = s->n_vel;
    double dt = t1 - s->st->t_first, f[n], e = 0;
    if (!s->m->force || rt_mass_dense(s) || !(dt > 0))
        return 0;
    memset(f, 0, sizeof f);
    s->m->force(t1, s->sw, s->params, s->consts, f);
    for (int i = 0; i < n; i++)
        e += f[i] * dt * (f[i] * dt * s->mass_inv[i]);   /* in this order: f^2 overflows at 1e300 N */
    return 1e-20 * e;
}

/* The balance's truncation floor of rk4 and adaptive at t1: the energy
** that the applied forces would give the bodies from rest since the run's
** start, sum (f_i T)^2 / m_i, times (h / T)^4, h the last step, T the time
** since the start: the relative truncation of a fourth-order step.  A block
** lifted from rest by a force growing from 0 (7 N (1 - cos t), 7 N t^3)
** has energies like t^6 and t^8 over its first steps, and rk4's Simpson
** rule on the work, F v of degree 5, was off by 1/16 of the energy of
** 1e-19 J after one step of 1 ms, which failed the balance while the
** motion was right; ten steps on, the floor is 1e-4 of that scale. */
static double truncation_floor(const nsm_sim *s, double t1)
{
    const RtStats *st = s->st;
    if (s->set.method != NSM_METHOD_RK4 && s->set.method != NSM_METHOD_ADAPTIVE)
        return 0;
    double T = t1 - st->t_first, r = st->h_last / T;
    return T > 0 && r > 0 ? 1e20 * balance_floor(s, t1) * (r * r) * (r * r) : 0;
}

/* The coordinate whose position is the argument of velocity coordinate i's
** force: i itself where positions and velocities pair one to one, else
** none (-1: bodies in space, whose quaternions are no velocity's). */
static int path_coord(const nsm_sim *s, int i)
{
    return s->n_pos == s->n_vel ? i : -1;
}

/* The path of the step from s->y to Y1 (state-dependent forces only): each
** coordinate's largest magnitude met and the sum of |dx_i|, the larger of
** the ends' difference and the trapezoid of |v_i| h (a step that turns
** back within itself), for state_floor. */
static void path_step(nsm_sim *s, double h, const double *Y1)
{
    RtStats *st = s->st;
    const double *v0 = rt_vel(s, s->y), *v1 = rt_vel(s, Y1);
    for (int i = 0; i < s->n_vel; i++) {
        int q = path_coord(s, i);
        double dq = q < 0 ? 0 : fabs(Y1[q] - s->y[q]), tr = 0.5 * (fabs(v0[i]) + fabs(v1[i])) * h;
        st->path[i] += fmax(dq, tr);
        if (q >= 0 && fabs(Y1[q]) > st->qmax[i])
            st->qmax[i] = fabs(Y1[q]);
    }
}

/* The balance's rounding floor of the state-dependent forces at (t, y): the
** work that a force off by an ulp of its argument does along the run's
** path, 64 sum_i eps |x_i|max |df_i/dx_i| path_i (df_i/dx_i by a one-sided
** difference at y over 1e-6 of the coordinate's scale, the largest met
** at the states it was formed at: a pendulum's m g l |cos phi| is 0 at
** phi = pi/2).  A pendulum
** written by its torque and released within 1e-16 rad of its top moves
** 1e-12 rad in 3 s: its torque, m g l sin(phi), carries an ulp of pi times
** m g l, and its work over that path was 2e-3 of the kinetic energy of
** 1e-26 J, which failed the balance while the motion was right.  The
** factor 64 covers the error met (1 to 2 of the sum) with a margin; over a
** run of N oscillations of amplitude A the floor is about 256 eps N A^2 k,
** 5e-8 of the energy at N = 1e6. */
static double state_floor(const nsm_sim *s, double t, const double *y)
{
    const RtStats *st = s->st;
    int n = s->n_vel;
    if (!s->m->nl_force || !st->qmax)
        return 0;
    double f0[n], f1[n], x[s->n_state], e = 0;
    memset(f0, 0, sizeof f0);
    rt_nl_force(s, t, y, f0);
    for (int i = 0; i < n; i++) {
        int q = path_coord(s, i);
        if (q < 0 || !(st->path[i] > 0) || !(st->qmax[i] > 0))
            continue;
        double d = 1e-6 * fmax(st->qmax[i], st->path[i]);
        memcpy(x, y, sizeof x);
        x[q] += d;
        memset(f1, 0, sizeof f1);
        rt_nl_force(s, t, x, f1);
        double k = fabs(f1[i] - f0[i]) / d;
        if (isfinite(k) && k > st->kmax[i])
            st->kmax[i] = k;    /* RtStats is the audit's own scratch, not the sim's */
        e += DBL_EPSILON * st->qmax[i] * st->kmax[i] * st->path[i];
    }
    return 64 * e;
}

/* Each coordinate's largest kinetic energy 1/2 m_i v_i^2 met at a step
** end, for a model whose masses are diagonal constants (the only one
** rt_part_of splits into parts): the history rt_stats_floor_decision
** judges a contact's own part by; nothing to keep in a model without
** contacts, whose steps need not pay for it. */
static void coord_kinetic_max(nsm_sim *s, const double *Y1)
{
    if (!s->n_gaps || s->m->nl || s->mass || s->n_pos != s->n_vel)
        return;
    const double *m = s->num.mass, *v = Y1 + s->n_pos;
    double *tk = s->st->tk;
    for (int i = 0; i < s->n_vel; i++) {
        double e = 0.5 * m[i] * v[i] * v[i];
        if (e > tk[i])
            tk[i] = e;
    }
}

/* The balance at the step's end (t1, Y1, of kinetic + potential energy E): the
** largest error and the largest energy met, which energy.error needs
** whether or not the rest of the audit runs. */
RT_HOT static void balance_step(nsm_sim *s, double t1, const double *Y1, double E)
{
    RtStats *st = s->st;
    if (st->steps == 1)
        st->t_first = s->t;
    st->t_last = t1;
    st->h_last = t1 - s->t;
    if (s->m->nl_force && t1 > s->t)
        path_step(s, t1 - s->t, Y1);
    double T = rt_mass_kinetic(s, Y1);
    double W = Y1[rt_eslot(s) + 1] + rt_surface_impulse_work(s), D = Y1[rt_eslot(s)], L = s->transition_loss;
    double err = fabs(s->energy_start + W - D - L - E);
    double mags[] = { T, E - T, W, D, L, E, s->energy_start };
    for (size_t k = 0; k < sizeof mags / sizeof mags[0]; k++)
        if (fabs(mags[k]) > st->e_max)
            st->e_max = fabs(mags[k]);
    if (err > st->err_max)
        st->err_max = err;
    st->err_last = err;
    st->t_max = fmax(st->t_max, T);
    coord_kinetic_max(s, Y1);
}

/* The balance error at the last step end relative to the largest energy
** met (0 before any step).  Only when that exceeds tol is the rounding
** floor at the last step end formed (balance_floor: a call of the model's
** forces, which every step paid before, 7 % of a forced oscillator's run
** by rk4) and taken as the reference if larger: it can only lower the
** error, so below tol it changes nothing.  Energies below DBL_MIN are
** subnormal, rounded to 5e-324 J whatever their size: they are judged
** against DBL_MIN (an oscillator of 1e-160 m under exact failed, "off by
** 0.000988 of the largest energy" at 5e-321 J, its motion exact).  The
** state-dependent forces' rounding work (state_floor) is an error the
** balance cannot judge below: the energy of which it is the tol-th part is
** a reference too, so that an error within it passes and one beyond it
** fails as before. */
RT_HOT double rt_stats_relative_error(const nsm_sim *s, double tol)
{
    const RtStats *st = s->st;
    double ref = st ? st->e_max : 0;
    if (st && st->err_last > 0 && !(ref > 0 && st->err_last / ref <= tol))
        ref = fmax(fmax(ref, fmax(balance_floor(s, st->t_last), state_floor(s, s->t, s->y) / tol)),
                   fmax(truncation_floor(s, st->t_last), DBL_MIN));
    return ref > 0 ? st->err_last / ref : 0;
}

/* The gaps closed from the start without an event record (a penalty gap
** engaged at t = 0): their first phase begins with the run's first step.
** Asked at the first step only, not by a loop over every gap at every step. */
RT_COLD static void first_step_phases(nsm_sim *s)
{
    for (int j = 0; j < s->n_gaps; j++) {
        RtGapStats *gs = &s->st->gap[j];
        if (rt_mode_has(s->mode, j) && !gs->open) {
            gs->open = 1;
            gs->since = s->t;
            gs->phases++;
        }
    }
}

/* The detailed audit of one step from (s->t, s->y) to (t1, Y1) in mode
** s->mode (rt_stats_step, when it is on): the contacts' forces and
** impulses, the energy's split by element, the applied forces' work, and
** the balance. */
RT_APART static void audit_step(nsm_sim *s, double t1, const double *Y1)
{
    RtStats *st = s->st;
    int n = s->n_vel, g = s->n_gaps;
    double h = t1 - s->t, lam[s->n_gaps + 1];
    /* open gaps carry no force */
    if (g == 0 || rt_mode_empty(s, s->mode) || rt_lambda(s, s->mode, t1, Y1, lam))
        memset(lam, 0, sizeof lam);
    for (int j = 0; j < g; j++) {
        RtGapStats *gs = &st->gap[j];
        int closed = rt_mode_has(s->mode, j), pen = !rt_law_impacts(s, j);
        double p[2], pd[2];
        if (!closed)
            continue;
        if (lam[j] > gs->peak)
            gs->peak = lam[j];
        if (pen && h > 0) {
            /* the force's integral over the step (its law's) */
            penetration(s, j, s->y, &p[0], &pd[0]);
            penetration(s, j, Y1, &p[1], &pd[1]);
            gs->impulse += gap_impulse(s, j, h, p, pd);
        }
    }
    double fd = 0, fw = 0, sw = 0;
    if (s->n_fric || s->n_space_fric)    /* friction's share (fricstat.c) */
        rt_fricstat_step(s, t1, Y1, &fd, &fw);
    if (s->moving)          /* the moving surfaces' share (surfwork.c) */
        rt_surface_step(s, t1, Y1, &sw);
    fw += sw;
    int e = rt_eslot(s);
    double dD = Y1[e] - s->y[e] - fd, dW = Y1[e + 1] - s->y[e + 1] - fw;
    int which;
    if ((s->n_fric || s->n_space_fric) && dD != 0 && !dissipators(s, s->mode, &which) &&
        rt_fricstat_rest(s, dD))
        dD = 0;             /* friction's alone: its lines add up to the integrated state */
    if (h > 0)
        split_step(s, h, t1, Y1, dD, dW);
    else
        st->other_d += dD, st->other_w += dW, st->other_f += st->nf ? dW : 0;

    /* code_aster's SDND121 sums: the work of every applied force, of the
     * time (force) and of the state (nl_force: a cubic spring written as a
     * force is no potential of E), at the step's end */
    double E = rt_mech_energy(s, s->mode, Y1);
    if ((s->m->force || s->m->nl_force) && h > 0) {
        memset(st->f, 0, sizeof(double) * (size_t)n);
        if (s->m->force)
            s->m->force(t1, s->sw, s->params, s->consts, st->f);
        if (s->m->nl_force)
            s->m->nl_force(t1, Y1, s->sw, s->params, s->consts, st->f);
        st->inj += nsm_energy_power(n, st->f, Y1 + (s->n_pos - n)) * h; /* reads [n + i] */
    }
    double einj = s->energy_start + st->inj;
    st->num += (E - einj) * (E - einj);
    st->den += einj * einj;
    for (int j = 0; j < g; j++) {
        if (rt_law_impacts(s, j))
            continue;
        double p = fmax(0.0, -rt_gap(s, j, Y1)), kp = rt_law_force(s, j, p, 0);
        double F = rt_mode_has(s->mode, j) ? lam[j] : 0;
        st->fnum += (F - kp) * (F - kp);
        st->fden += kp * kp;
        st->gap[j].fnum += (F - kp) * (F - kp);
        st->gap[j].fden += kp * kp;
    }

    balance_step(s, t1, Y1, E);
}

/* The audit of one step from (s->t, s->y) to (t1, Y1) in mode s->mode: the
** balance always, the rest when the detailed audit is on. */
RT_HOT void rt_stats_step(nsm_sim *s, double t1, const double *Y1)
{
    RtStats *st = s->st;
    if (!st)
        return;
    if (++st->steps == 1)
        first_step_phases(s);
    if (s->set.audit) {
        audit_step(s, t1, Y1);
        return;
    }
    if (!st->partial)           /* once: both flags stay until a reset */
        rt_fricstat_partial(s);
    st->partial = 1;
    if (s->energy)
        balance_step(s, t1, Y1, rt_mech_energy(s, s->mode, Y1));
}

/* The largest energy magnitude met at a step end so far, or `now` if larger:
** energy.error is the balance relative to it, so that the column reads the
** same for a 1 J toy and a 1 MJ machine. */
RT_HOT double rt_stats_energy_scale(const nsm_sim *s, double now)
{
    double m = s->st ? s->st->e_max : 0;
    return now > m ? now : m;
}

/* The largest kinetic energy the part of the model that gap j belongs to
** (rt_part_of) has had: each of its coordinates' largest met at a step end
** and now, summed (at least the part's largest at one instant).  The whole
** run's, and the whole model's now, where rt_part_of cannot split the
** model. */
static double part_kinetic_max(nsm_sim *s, int j)
{
    int n = s->n_vel;
    unsigned char comp[n + 1];
    if (!s->st || !rt_part_of(s, j, comp))
        return fmax(s->st ? s->st->t_max : 0, rt_mass_kinetic(s, s->y));
    const double *m = s->num.mass, *v = s->y + s->n_pos;
    double e = 0;
    for (int i = 0; i < n; i++)
        if (comp[i])
            e += fmax(s->st->tk[i], 0.5 * m[i] * v[i] * v[i]);
    return e;
}

/* A contact decision (gap j held at rest, no impact) taken on its closing
** speed u, nonzero and above the velocity tolerance's relative part rel,
** so that only the tolerance's absolute floor RT_VEL_FLOOR called it zero,
** where the largest kinetic energy the gap's own part of the model has had
** (part_kinetic_max: so far and now) is within that of the contact's
** effective mass 1/minv at RT_VEL_FLOORS floors: that part is slower than
** the floor, and its decision was taken on rounding (a mass at rest pushed
** onto an elastic wall at 2e-13 m/s stuck there, exit 0).  Its own part,
** not the whole run's: another body's energy let the same mass stick
** beside an oscillator at 1 m/s, or after another body once at 1 m/s had
** stopped, exit 0; its history, not only its speeds now: a ball coming to
** rest after its bounces, or a train of heavy beads pressed together, rests
** rightly.  Kinetic, not total: a potential's offset is arbitrary (the
** same mass falling at 5e-13 m/s onto a floor 1 m above the origin, its
** m g H in the total, stuck there, exit 0).  The run stops, naming the
** floor, as check_speed_floor (run.c) stops one that moves so slowly at
** its start.  NSM_OK when the decision stands. */
int rt_stats_floor_decision(nsm_sim *s, int j, double u, double rel, double minv)
{
    double vf = RT_VEL_FLOORS * RT_VEL_FLOOR;
    if (!(fabs(u) > rel) || !(minv > 0))
        return NSM_OK;
    /* the energy now too: a decision at the run's start precedes every step
     * end the history is kept at (a bead of 1e12 kg pressing at 1 m/s) */
    if (part_kinetic_max(s, j) > 0.5 * vf * vf / minv)
        return NSM_OK;
    return rt_fail(s, NSM_ENUMERIC, j,
                   "t = %.17g s: contact '%s' closes at %.3g m/s, below the velocity floor of "
                   "%g m/s that counts it as at rest, in a part of the model whose kinetic "
                   "energies are all within those of speeds of %g m/s: its contacts would be "
                   "decided on rounding; scale the units (lengths in um or nm, times in ms) so "
                   "that its speeds exceed %g m/s", s->t, s->m->gaps[j].name, fabs(u),
                   RT_VEL_FLOOR, vf, vf);
}

/* The statistics of one event record. */
static void stats_event(nsm_sim *s, const nsm_event *ev)
{
    RtStats *st = s->st;
    if (!st || ev->kind == NSM_EV_TIME || ev->contact < 0 || ev->contact >= s->n_gaps)
        return;
    RtGapStats *gs = &st->gap[ev->contact];
    gs->lost += ev->energy_lost;
    switch (ev->kind) {
    case NSM_EV_IMPACT:
        gs->impacts++;
        gs->impulse += ev->impulse;
        if (-ev->vrel_before > gs->vmax)
            gs->vmax = -ev->vrel_before;
        break;
    case NSM_EV_ZENO:
        gs->zeno++;
        gs->impulse += ev->impulse;
        break;
    case NSM_EV_CONTACT_ENTER:
        if (-ev->vrel_before > gs->vmax)
            gs->vmax = -ev->vrel_before;
        /* fall through */
    case NSM_EV_STICK:
        if (!gs->open) {
            gs->open = 1;
            gs->since = ev->t;
            gs->phases++;
        }
        break;
    case NSM_EV_SEPARATION:
    case NSM_EV_CONTACT_EXIT:
        if (gs->open) {
            gs->time += ev->t - gs->since;
            gs->open = 0;
        }
        break;
    default:
        break;
    }
}

/* code_aster's global energy error, sqrt(sum (E - E_inj)^2 / sum E_inj^2) over
** the steps, or NaN where it has no value: no injected energy E0 + W (den 0),
** a partial sum, or an injected energy that stays within rounding, its root
** mean square below 1e-10 of the largest energy met or 1e-12 of the forces'
** work scale (F T)^2/m (balance_floor's, which holds 1e-20 of it). The
** metric sums F.v h at the steps' ends: a block held still by a press has
** velocities of rounding, 4e-17 J of such "work" against 1e-33 J of kinetic
** energy, and the ratio of two roundings read "100 %" beside a closed
** balance. */
static double aster_energy_ratio(const nsm_sim *s, double energy_max)
{
    const RtStats *st = s->st;
    if (!(st->den > 0) || st->partial || st->steps <= 0)
        return NAN;
    double rms = sqrt(st->den / (double)st->steps);
    if (rms <= 1e-10 * energy_max || rms <= 1e8 * balance_floor(s, st->t_last))
        return NAN;
    return sqrt(st->num / st->den);
}

/* The energy audit of the run so far. */
int nsm_sim_audit(const nsm_sim *s, nsm_audit *a)
{
    const RtStats *st = s->st;
    if (!a || !st)
        return NSM_EINVAL;
    int n = s->n_vel;
    memset(a, 0, sizeof *a);
    double kin, pot, diss, inj;
    a->error = nsm_sim_energy(s, &kin, &pot, &diss, &inj);
    a->kinetic = kin;
    a->potential = pot;
    a->injected = inj;
    a->lost = s->transition_loss;
    a->dissipated = diss - s->transition_loss;
    a->springs = nsm_energy_springs(n, s->m->n_springs, s->m->springs, s->num.sk, s->num.srest,
                                    s->y);
    a->gravity = nsm_energy_gravity(n, s->num.mass, s->num.gfac, s->num.gravity, s->y);
    a->contacts = rt_law_stored(s, s->mode, s->y);
    a->e0 = s->energy_start;
    a->error_max = fmax(st->err_max, fabs(a->error));
    a->energy_max = st->e_max;
    double mags[] = { kin, pot, inj, diss, s->transition_loss, kin + pot, s->energy_start };
    for (size_t k = 0; k < sizeof mags / sizeof mags[0]; k++)
        if (fabs(mags[k]) > a->energy_max)
            a->energy_max = fabs(mags[k]);
    if (a->error_max > 0)   /* the rounding floor the stop test judges against */
        a->energy_max = fmax(a->energy_max, balance_floor(s, st->t_last));
    a->aster_energy = aster_energy_ratio(s, a->energy_max);
    a->aster_force = st->fden > 0 && !st->partial ? sqrt(st->fnum / st->fden) : NAN;
    a->steps = st->steps;
    a->dissipated_other = st->partial ? NAN : st->other_d;
    a->injected_other = st->partial ? NAN : st->other_w;
    return NSM_OK;
}

/* Energy burnt so far in the damper of spring element k (NAN if none). */
double nsm_sim_damper_energy(const nsm_sim *s, int k)
{
    if (!s->st || s->st->partial || k < 0 || k >= s->m->n_springs)
        return NAN;
    return s->st->damper[k];
}

/* Work done so far by the external forces on body i (NAN if none). */
double nsm_sim_body_work(const nsm_sim *s, int i)
{
    if (!s->st || s->st->partial || i < 0 || i >= s->n_vel)
        return NAN;
    return s->st->work[i];
}

/* Work done so far by the rigid bodies' gyroscopic torques on coordinate i
** (0 but for their rotational coordinates; NAN if none): kept apart from
** the external forces' work, the shares summing to zero. */
double nsm_sim_gyro_work(const nsm_sim *s, int i)
{
    if (!s->st || s->st->partial || i < 0 || i >= s->n_vel)
        return NAN;
    return s->st->gyro[i];
}

/* Kinetic energy of body i in the current state (NAN if none). */
double nsm_sim_body_kinetic(const nsm_sim *s, int i)
{
    if (i < 0 || i >= s->n_vel)
        return NAN;
    double v = rt_vel(s, s->y)[i];
    if (rt_mass_dense(s))           /* M(q) couples the coordinates: no share of its own */
        return NAN;
    return 0.5 * s->num.mass[i] * v * v;
}

/* Wall k's line from its gap's row: gap = n . (x, y) + d = n . ((x, y) - p) - R,
** so the wall n . (x, y) = n . p = -(d + R). */
int nsm_sim_wall_line(const nsm_sim *s, int k, double *nx, double *ny, double *c, double *r)
{
    if (k < 0 || k >= s->m->n_walls || !s->m->walls)
        return NSM_EINVAL;
    const nsm_wall_info *w = &s->m->walls[k];
    if (w->planar < 0 || w->planar >= s->m->n_planar || w->gap < 0 || w->gap >= s->n_gaps)
        return NSM_EINVAL;
    const nsm_planar_info *pl = &s->m->planar[w->planar];
    *nx = rt_csr_get(&s->sp.W, w->gap, pl->ix);
    *ny = rt_csr_get(&s->sp.W, w->gap, pl->iy);
    *r = s->num.radius[w->planar];
    *c = -(s->num.d[w->gap] + *r);
    return NSM_OK;
}

/* Gap j's row of W, its constant d and its moving surface's offset now, for
** pictures of the run (libnsmcli's animations): the gap is w . x + d + h. */
int nsm_sim_gap_row(const nsm_sim *s, int j, double *w, double *d, double *h)
{
    if (!s || j < 0 || j >= s->n_gaps)
        return NSM_EINVAL;
    if (w) {
        memset(w, 0, sizeof(double) * (size_t)s->n_vel);
        for (int q = s->sp.W.p[j]; q < s->sp.W.p[j + 1]; q++)
            w[s->sp.W.i[q]] += s->sp.W.x[q];
    }
    if (d)
        *d = s->num.d[j];
    if (h)
        *h = rt_surface_of(s, j, 0, s->t);
    return NSM_OK;
}

/* Work done so far by force statement k (model->forces[k]), or for k = -1
** the part of the injected work no statement could be given.  NSM_EINVAL
** for a statement when the statements' works cannot be told apart
** (state-dependent statements sharing a body: all of it is k = -1's). */
int nsm_sim_force_work(const nsm_sim *s, int k, double *w)
{
    if (!s || !s->st || !w || s->st->partial || s->st->nf == 0 || k < -1 || k >= s->st->nf)
        return NSM_EINVAL;
    if (k >= 0 && s->st->nf > 1 && !forces_split(s))
        return NSM_EINVAL;
    *w = k < 0 ? s->st->other_f : s->st->fwork[k];
    return NSM_OK;
}

/* Statistics of gap j so far. */
int nsm_sim_contact_stats(const nsm_sim *s, int j, nsm_contact_stats *out)
{
    if (!s->st || !out || j < 0 || j >= s->n_gaps)
        return NSM_EINVAL;
    const RtGapStats *gs = &s->st->gap[j];
    out->impacts = gs->impacts;
    out->zeno = gs->zeno;
    out->phases = gs->phases;
    out->contact_time = gs->time + (gs->open ? s->t - gs->since : 0);
    int pen = !rt_law_impacts(s, j), partial = s->st->partial;
    out->impulse = pen && partial ? NAN : gs->impulse;
    out->peak_force = partial ? NAN : gs->peak;
    out->max_speed = gs->vmax;
    out->energy_lost = gs->lost;
    out->damper_energy = partial ? NAN : gs->damper;
    out->aster_force = gs->fden > 0 && !partial ? sqrt(gs->fnum / gs->fden) : NAN;
    out->surface_work = partial ? NAN : rt_surface_work(s, j);
    return NSM_OK;
}

/* Energies at the current state; returns the balance error
** E0 + injected - dissipated - (kinetic + potential). */
RT_HOT double nsm_sim_energy(const nsm_sim *s, double *kin, double *pot, double *diss, double *inj)
{
    int n = s->n_vel;
    double k = 0;
    if (rt_mass_dense(s))           /* 1/2 v^T M(q) v */
        k = rt_mass_kinetic(s, s->y);
    else
        for (int i = 0; i < n; i++)
            k += 0.5 * s->num.mass[i] * rt_vel(s, s->y)[i] * rt_vel(s, s->y)[i];
    double e = rt_mech_energy(s, s->mode, s->y);
    double d = s->y[rt_eslot(s)] + s->transition_loss,
           w = s->y[rt_eslot(s) + 1] + rt_surface_impulse_work(s);
    if (s->energy_lost)
        d = w = NAN;            /* integrals not kept (exact without the audit) */
    if (kin)
        *kin = k;
    if (pot)
        *pot = e - k;
    if (diss)
        *diss = d;
    if (inj)
        *inj = w;
    return s->energy_start + w - d - e;
}

/* The column rt_fail names for an event: its gap, the first column (g + 2k)
** of friction element k (an event's contact is g + k), the gap of spatial
** friction element k (contact g + nf + k), none for a switch. */
static int rate_column(const nsm_sim *s, const nsm_event *ev)
{
    if (ev->kind == NSM_EV_TIME)
        return -1;
    if (ev->contact >= s->n_gaps + s->n_fric)
        return s->m->space_frictions[ev->contact - s->n_gaps - s->n_fric].gap;
    return ev->contact < s->n_gaps ? ev->contact : s->n_gaps + 2 * (ev->contact - s->n_gaps);
}

/* The cause of a rate cap met at one instant by contact j sticking and
** separating (why, empty when it is not that): its force in the mode with
** j shut changes, over the time resolution at t, by more than its
** rounding, so no instant of a zero force can be located between two
** doubles of t (forced_impact_oscillator at F = 1e300 N: 2.5e300 N/s
** against t's 1.1e-16 s).  Names the force's rate and the resolution. */
static void rate_cause(nsm_sim *s, int j, double span, char *why, size_t size)
{
    double ev[s->n_events + 1], evd[s->n_events + 1], sb[s->n_vel + 1];
    unsigned m[s->mode_words];
    double res = nextafter(fabs(s->t), INFINITY) - fabs(s->t);
    why[0] = 0;
    if (j < 0 || j >= s->n_gaps || !rt_law_impacts(s, j) || span > 2 * res)
        return;
    rt_mode_copy(s, m, s->mode);
    rt_mode_add(m, j);
    if (rt_events(s, m, s->t, s->y, ev, evd))
        return;
    rt_force_scales_at(s, m, s->t, s->y, sb);
    double tol = rt_gap_force_tol(s, j, sb), step = fabs(evd[j]) * res;
    if (!(step > tol))
        return;
    rt_text_printf(why, size, ": its force changes at %.3g N/s, by %.3g N between two doubles of t "
                    "(%.3g s apart), beyond its rounding %.3g N, so the instant it is zero cannot be "
                    "located; scale the model's values (forces near 1e300 N?)", fabs(evd[j]), step, res,
                    tol);
}

/* The cause of a rate cap met by impacts of gap j, which carries no
** spatial friction element, on a body whose spatial friction contact is
** held (why, empty when it is not that): such a gap struck plastically
** while that friction presses the body onto it is never held, for the
** body's held contacts with and without spatial friction together are not
** built (spacestick.c, rt_sf_update), and its impacts repeat at rest (a
** sphere sliding on a rough floor into a plastic wall: 24 impacts in 6e-8
** s under rk4 and adaptive, where taylor names the cause). */
static void rate_cause_mixed(const nsm_sim *s, int j, char *why, size_t size)
{
    if (j < 0 || j >= s->n_gaps || !s->n_space_fric || rt_sf_of_gap(s, j) >= 0)
        return;
    for (int k = 0; k < s->n_space_fric; k++) {
        const nsm_space_friction *e = &s->m->space_frictions[k];
        if (rt_law_held(s, s->mode, e->gap) && rt_gap_on_body(s, j, e->body)) {
            rt_text_printf(why, size, ": gap '%s' strikes again and again at rest on the body of "
                           "the held spatial friction element '%s', and carries no spatial "
                           "friction element: a body's held contacts with and without spatial "
                           "friction together are not built yet", s->m->gaps[j].name, e->name);
            return;
        }
    }
}

/* Count an event, apply the rate guard (when guarded; the records of a
** recognized Zeno cascade are not) and hand it to the event handler. */
static int log_emit(nsm_sim *s, const nsm_event *ev, int guarded)
{
    int W = s->rate.window;
    stats_event(s, ev);
    if (ev->kind != NSM_EV_TIME && ev->contact >= 0 && ev->contact < s->n_events &&
        rt_law_column(s, ev->contact)->on_event)
        rt_law_column(s, ev->contact)->on_event(s, ev);
    s->nevents++;
    if (guarded) {
        if (s->rate.n >= W) {
            double oldest = s->rate.ring[s->rate.n % W];
            char why[320];
            if (ev->t - oldest < W / s->set.max_rate) {
                rate_cause(s, ev->kind == NSM_EV_STICK || ev->kind == NSM_EV_SEPARATION ?
                           ev->contact : -1, ev->t - oldest, why, sizeof why);
                if (ev->kind == NSM_EV_IMPACT && !why[0])
                    rate_cause_mixed(s, ev->contact, why, sizeof why);
                return rt_fail(s, NSM_EEVENTS, rate_column(s, ev),
                               "%d event%s in %.3g s exceed the event rate cap of %.3g per second "
                               "(%s)%s", W, W == 1 ? "" : "s", ev->t - oldest, s->set.max_rate,
                               nsm_event_kind_name(ev->kind), why);
            }
        }
        s->rate.ring[s->rate.n % W] = ev->t;
        s->rate.n++;
    }
    if (s->set.on_event && s->set.on_event(s->set.ev_ud, s, ev))
        return rt_fail(s, NSM_ESTOPPED, -1, "stopped by the event handler");
    return NSM_OK;
}

/* Log one event record, through the event-rate guard.  (A loss computed
** as -0, an elastic impact's, is reported as 0: lost + 0.0.) */
int rt_log_event(nsm_sim *s, int kind, int j, double vb, double va, double P, double lost,
                 long count)
{
    nsm_event ev = { s->t, kind, j, vb, va, P, lost + 0.0, count };
    return log_emit(s, &ev, 1);
}

/* Log one event record outside the event-rate guard: a record of a
** recognized Zeno cascade, whose accumulation the Zeno handling bounds. */
int rt_log_exempt(nsm_sim *s, int kind, int j, double vb, double va, double P, double lost,
                  long count)
{
    nsm_event ev = { s->t, kind, j, vb, va, P, lost + 0.0, count };
    return log_emit(s, &ev, 0);
}
