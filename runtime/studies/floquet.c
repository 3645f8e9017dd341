/*
** floquet.c: monodromy matrices, periodic orbits by shooting, and their
** Floquet multipliers, for motions in free flight between single impacts.
**
** Between impacts the state y = (x, v) follows the free mode's linear
** dynamics, whose Jacobian over dt is exp(A dt) with A the mechanical block
** of the mode matrix (mode.c; the forcing enters through the generator
** states, which do not depend on y).  At an impact of gap j at state y-
** (gap zero, closing speed u = w.v- < 0) Newton's law v+ = v- - (1 + e)
** M^-1 w u / (w^T M^-1 w) has the Jacobian R; the impact time moves with
** y, which the saltation matrix accounts for:
**
**     S = R + (f+ - R f-) n^T / (n^T f-),    n = (w, 0),  n^T f- = u,
**
** f- and f+ the vector fields just before and after (P. C. Mueller,
** "Calculation of Lyapunov exponents for dynamic systems with
** discontinuities", Chaos Solitons Fractals 5 (1995) 1671-1681; R. I. Leine
** and H. Nijmeijer, "Dynamics and Bifurcations of Non-Smooth Mechanical
** Systems", Springer 2004, ch. 7).  The monodromy matrix over a period is
** the ordered product of the flows and saltation matrices; its eigenvalues
** are the orbit's Floquet multipliers.  A periodic orbit is found by
** Newton's method on y(T) - y(0) with Phi - I as Jacobian (shooting), which
** converges to unstable orbits as well: what a bisection on a multiplier
** crossing -1 (period doubling) needs, where the orbit is barely attracting.
**
** The run that follows the orbit records, through a tracker standing in for
** the section (section.c), each landing and the modes it passes through.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "law.h"
#include "linalg.h"
#include "rt.h"

/* The impacts met along a run and whatever makes the method not apply. */
typedef struct Track {
    int n2, m, cap;
    double *t, *y;            /* m times, m pre-impact states (n2 each) */
    int *gap;
    char why[200];
} Track;

/* Tracker: every step's end before its transition. */
static int track_step(nsm_sim *s, double t1, const double *Y1, int j, void *ud)
{
    Track *k = ud;
    if (k->why[0])
        return NSM_OK;
    if (!rt_mode_empty(s, s->mode)) {
        rt_text_printf(k->why, sizeof k->why, "the motion is not in free flight at t = %.17g s "
                        "(a contact is held shut or engaged)", s->t);
        return NSM_OK;
    }
    if (j < 0)
        return NSM_OK;
    if (!rt_law_impacts(s, j)) {
        rt_text_printf(k->why, sizeof k->why, "a penalty contact engages at t = %.17g s", t1);
        return NSM_OK;
    }
    if (!(rt_wrow(s, j, Y1 + s->n_vel) < -rt_vel_tol(s, j, Y1 + s->n_vel))) {
        rt_text_printf(k->why, sizeof k->why, "a contact lands at rest at t = %.17g s (sticking)", t1);
        return NSM_OK;
    }
    if (k->m > 0 && k->t[k->m - 1] == t1) {
        rt_text_printf(k->why, sizeof k->why, "simultaneous impacts at t = %.17g s", t1);
        return NSM_OK;
    }
    if (k->m == k->cap) {
        int cap = k->cap ? 2 * k->cap : 16;
        double *t = realloc(k->t, sizeof(double) * cap), *y;
        if (t)
            k->t = t;
        y = t ? realloc(k->y, sizeof(double) * cap * k->n2) : NULL;
        if (y)
            k->y = y;
        int *g = y ? realloc(k->gap, sizeof(int) * cap) : NULL;
        if (!g)
            return rt_fail(s, NSM_ENOMEM, -1, "out of memory");
        k->gap = g;
        k->cap = cap;
    }
    k->t[k->m] = t1;
    memcpy(k->y + (size_t)k->m * k->n2, Y1, sizeof(double) * k->n2);
    k->gap[k->m] = j;
    k->m++;
    return NSM_OK;
}

/* Phi <- exp(A dt) Phi, A the free mode's mechanical block (n2 x n2). */
static int flow_apply(int n2, const double *A, double dt, double *Phi, double *E, double *T)
{
    if (dt <= 0)
        return NSM_OK;
    if (nsm_expm(n2, A, dt, E))
        return NSM_ENUMERIC;
    nsm_la_matmul(n2, n2, n2, E, Phi, T);
    memcpy(Phi, T, sizeof(double) * n2 * n2);
    return NSM_OK;
}

/* Phi <- S Phi for the impact of gap j at (t, y-) (n2 values). */
static int salt_apply(nsm_sim *s, int j, double t, const double *ym, double *Phi, double *S, double *T)
{
    int n = s->n_vel, n2 = 2 * n, N = s->n_state;
    double wd[n];
    const double *w = rt_dense_wrow(s, j, wd);
    double Ym[N], Yp[N], fm[N], fp[N], Rf[n2 > 0 ? n2 : 1], q[n], D = 0;
    memset(Ym, 0, sizeof Ym);
    memcpy(Ym, ym, sizeof(double) * n2);
    for (int i = 0; i < n; i++) {
        q[i] = s->mass_inv[i] * w[i];
        D += w[i] * q[i];
    }
    double u = rt_dot(n, w, ym + n), e = rt_law_restitution(s, j, u);
    double er = e + u * rt_law_restitution_slope(s, j, u);  /* -d(u+)/du: u+ = -e(u) u */
    memcpy(Yp, Ym, sizeof Yp);
    for (int i = 0; i < n; i++)
        Yp[n + i] = ym[n + i] - (1 + e) * q[i] * u / D;
    unsigned free_mode[s->mode_words];
    rt_mode_none(s, free_mode);
    if (rt_deriv(s, free_mode, t, Ym, fm) || rt_deriv(s, free_mode, t, Yp, fp))
        return NSM_ENUMERIC;
    /* R = [[I, 0], [0, I - (1 + e + u e'(u)) q w^T / D]] */
    memset(S, 0, sizeof(double) * n2 * n2);
    for (int i = 0; i < n2; i++)
        S[i * n2 + i] = 1;
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++)
            S[(n + a) * n2 + n + b] -= (1 + er) * q[a] * w[b] / D;
    nsm_la_matvec(n2, n2, S, fm, Rf);
    /* + (f+ - R f-) n^T / u, n = (w, 0) */
    for (int a = 0; a < n2; a++)
        for (int b = 0; b < n; b++)
            S[a * n2 + b] += (fp[a] - Rf[a]) * w[b] / u;
    nsm_la_matmul(n2, n2, n2, S, Phi, T);
    memcpy(Phi, T, sizeof(double) * n2 * n2);
    return NSM_OK;
}

/* Say why the method does not apply, without stopping the simulation;
** who names the study ("monodromy", "lyapunov"). */
static int refuse(nsm_sim *s, const char *who, int code, const char *why)
{
    rt_text_printf(s->msg, sizeof s->msg, "%s: %s", who, why);
    return code;
}

/* The studies' tangent dynamics are 2n x 2n over the state (x, v): a model
** with bodies in space (more positions than velocities, rigid.c) needs a
** chart of its quaternions first.  NSM_EMETHOD with the reason (prefixed
** by who) for such a model, before any state of 2n values is read. */
int rt_floquet_rigid_check(nsm_sim *s, const char *who)
{
    if (s->m->n_rigid <= 0 && (s->m->nq == 0 || s->m->nq == s->m->n_bodies))
        return NSM_OK;
    return refuse(s, who, NSM_EMETHOD, "models with bodies in space are not handled yet (the "
                  "tangent dynamics need a chart of their quaternions)");
}

/* The refusals of the tangent dynamics that depend on the model alone
** (time switches, moving surfaces, nonlinear forces), checked without
** running, so that a program refuses a Lyapunov or Floquet study of such a
** model as an option error before it opens any output (the simulator's
** --lyapunov truncated an earlier run's files, then failed with exit 3).
** NSM_EMETHOD with the reason, prefixed by who, in the message. */
int nsm_sim_check_tangent(nsm_sim *s, const char *who)
{
    int rc = rt_floquet_rigid_check(s, who);
    if (rc)
        return rc;
    if (s->n_switches > 0)
        return refuse(s, who, NSM_EMETHOD, "models with time switches are not handled");
    /* known from the model: super_ball's --lyapunov truncated the outputs,
     * then failed with exit 3 ("does not start in free flight") */
    if (s->n_fric)
        return refuse(s, who, NSM_EMETHOD, "models with friction elements are not handled (slip "
                      "forces and frictional impulses are not in the flow's matrix nor in the "
                      "saltation matrices)");
    if (s->moving)
        return refuse(s, who, NSM_EMETHOD, "models with moving surfaces are not handled (the "
                      "saltation matrices assume fixed gaps)");
    if (s->m->nl)
        return refuse(s, who, NSM_EMETHOD, "nonlinear models are not handled yet (the tangent "
                      "dynamics are built from the linear modes' propagators)");
    /* known from the model and the method too: the 1000-bead chain's
     * --lyapunov truncated the outputs, ran, then failed with exit 3 */
    if (rt_modeop_wanted(s) || rt_mode_sparse(s))
        return refuse(s, who, NSM_EMETHOD, "the model is too large for the dense tangent "
                      "matrices (its free-flight matrix is not formed past 400 states)");
    return NSM_OK;
}

/* Run the simulation from now to t_end and multiply Phi (2n x 2n,
** row-major) on the left by the motion's Jacobian over that time: the exact
** flows exp(A dt) between the impacts and the saltation matrices at them.
** Shared by the monodromy matrix (Phi = I over a period) and the Lyapunov
** spectrum (Phi an orthonormal frame over one reorthonormalisation
** interval), so both see the same tangent dynamics.  NSM_EMETHOD with the
** reason (prefixed by who) when the motion leaves free flight other than by
** single impacts. */
int rt_floquet_propagate(nsm_sim *s, double t_end, double *Phi, const char *who)
{
    int n2 = 2 * s->n_vel, rc;
    if (s->failed)
        return s->failed;
    if ((rc = nsm_sim_check_tangent(s, who)))
        return rc;
    if (!rt_mode_empty(s, s->mode))
        return refuse(s, who, NSM_EMETHOD, "the motion does not start in free flight");
    Track k = { n2, 0, 0, NULL, NULL, NULL, "" };
    double t0 = s->t;
    if ((rc = rt_section_track(s, track_step, &k)))
        return rc;
    rc = rt_run(s, t_end);
    rt_section_untrack(s);
    if (!rc && !rt_mode_empty(s, s->mode) && !k.why[0])
        rt_text_printf(k.why, sizeof k.why, "the motion ends with a contact held shut");
    if (rc || k.why[0]) {
        free(k.t), free(k.y), free(k.gap);
        return rc ? rc : refuse(s, who, NSM_EMETHOD, k.why);
    }
    const RtModeInfo *mi = rt_mode_info(s);
    if (mi && !mi->A) {
        free(k.t), free(k.y), free(k.gap);
        return refuse(s, who, NSM_EMETHOD, "the model is too large for the dense tangent matrices "
                      "(its free-flight matrix is not formed past 400 states)");
    }
    double *A = malloc(sizeof(double) * n2 * n2 * 4);
    if (!mi || !A) {
        free(k.t), free(k.y), free(k.gap), free(A);
        return mi ? NSM_ENOMEM : s->failed;
    }
    double *E = A + n2 * n2, *T = E + n2 * n2, *S = T + n2 * n2, tp = t0;
    for (int a = 0; a < n2; a++)
        for (int b = 0; b < n2; b++)
            A[a * n2 + b] = mi->A[(size_t)a * s->n_aug + b];
    rc = NSM_OK;
    for (int i = 0; i < k.m && !rc; i++) {
        rc = flow_apply(n2, A, k.t[i] - tp, Phi, E, T);
        if (!rc)
            rc = salt_apply(s, k.gap[i], k.t[i], k.y + (size_t)i * n2, Phi, S, T);
        tp = k.t[i];
    }
    if (!rc)
        rc = flow_apply(n2, A, s->t - tp, Phi, E, T);
    free(k.t), free(k.y), free(k.gap), free(A);
    return rc ? refuse(s, who, rc, "the matrix exponential or a vector field failed") : NSM_OK;
}

int nsm_sim_monodromy(nsm_sim *s, double period, double *Phi, double *y_end)
{
    int n2 = 2 * s->n_vel, rc;
    if ((rc = rt_floquet_rigid_check(s, "monodromy")))
        return rc;
    if (!(period > 0) || !isfinite(period) || !Phi)
        return NSM_EINVAL;
    if (!s->ready && (rc = nsm_sim_reset(s)))
        return rc;
    if (s->failed)
        return s->failed;
    memset(Phi, 0, sizeof(double) * n2 * n2);
    for (int a = 0; a < n2; a++)
        Phi[a * n2 + a] = 1;
    if ((rc = rt_floquet_propagate(s, s->t + period, Phi, "monodromy")))
        return rc;
    if (y_end)
        memcpy(y_end, s->y, sizeof(double) * n2);
    return NSM_OK;
}

/* Copy the run's message (cut to n - 1 bytes) into why, so that a
** refusal can quote the reason it replaces. */
static void msg_take(const nsm_sim *s, char *why, size_t n)
{
    size_t len = strlen(s->msg) < n ? strlen(s->msg) : n - 1;
    memcpy(why, s->msg, len);
    why[len] = 0;
}

/* Start the run at y (2n values) at t = 0.  A guess the model cannot
** start from (a gap penetrated) is refused saying so: the orbit is sought
** through t = 0, so the guess must be a state at the forcing's phase 0. */
static int orbit_start(nsm_sim *s, const double *y)
{
    int rc = nsm_sim_set_initial_state(s, y);
    if (!rc)
        rc = nsm_sim_reset(s);
    if (rc == NSM_EMODEL) {
        char why[300];
        msg_take(s, why, sizeof why);
        rt_text_printf(s->msg, sizeof s->msg, "periodic orbit: the guess is not a state the model can "
                        "start from at t = 0 (%s); the orbit is sought through t = 0, so the guess must "
                        "be a state at the forcing's phase 0", why);
    }
    return rc;
}

/* y <- y + r, halving r while the new state cannot start a run (a Newton
** step from a guess far from the orbit can jump through a gap: a start
** inside it, reported at t = 0, would name neither the guess nor the step).
** NSM_ENUMERIC with the reason when no fraction of the step is admissible. */
static int orbit_step(nsm_sim *s, int n2, double *y, const double *r)
{
    double y0[n2];
    memcpy(y0, y, sizeof y0);
    for (int h = 0; h < 30; h++) {
        double f = ldexp(1, -h);
        for (int i = 0; i < n2; i++)
            y[i] = y0[i] + f * r[i];
        if (!nsm_sim_set_initial_state(s, y) && !nsm_sim_reset(s))
            return NSM_OK;
    }
    char why[300];
    msg_take(s, why, sizeof why);
    memcpy(y, y0, sizeof y0);
    rt_text_printf(s->msg, sizeof s->msg, "periodic orbit: every fraction of Newton's step from (%.6g, "
                    "...) leads to a state the model cannot start from (%s): Newton's method is drawn "
                    "toward a contact at t = 0, or the guess is too far from a periodic orbit through "
                    "t = 0 (a longer transient may help)", y0[0], why);
    return NSM_ENUMERIC;
}

/* NSM_OK when no multiplier is 1 within the monodromy's rounding, else
** NSM_ENUMERIC saying so.  Phi - I is then singular but for rounding, and
** Newton's "converged" state is wherever the rounding sent it: an undamped
** oscillator forced at its own frequency, which has no periodic orbit,
** gave one at x = -1.7e15 m (its residual of pi/2 m/s within 1e-14 of that
** state), with the multipliers 1, 1. */
static int orbit_isolated(nsm_sim *s, int n2, const double *mu_re, const double *mu_im)
{
    for (int i = 0; i < n2; i++) {
        double d = hypot(mu_re[i] - 1, mu_im[i]);
        if (d <= 1e-13) {
            rt_text_printf(s->msg, sizeof s->msg, "monodromy: a multiplier is 1 within rounding (|mu - 1| "
                            "= %.2g): the orbit is not isolated (a resonance: every orbit or none repeats "
                            "with this period)", d);
            return NSM_ENUMERIC;
        }
    }
    return NSM_OK;
}

/* The error of the flow over the period from y, whose end the method gave
** as yT, into d: rk4's and adaptive's by a second run, finer (rk4 at half
** its step, Richardson's 16/15 of the difference; adaptive at a thousandth
** of its tolerances); none for exact and taylor, whose only error is
** rounding (their orbit is the best the arithmetic gives: at 2(1 - 1e-9)
** rad/s exact's x is within 8.4e-8 of X).  The simulation is left with
** its settings, at the end of the method's own run over the period. */
static int orbit_flow_error(nsm_sim *s, double period, const double *y, const double *yT,
                            double *d)
{
    int n2 = 2 * s->n_vel, rc = NSM_OK, meth = s->set.method;
    double y2[n2], dt = s->set.dt, rtol = s->set.rtol, atol = s->set.atol, f = 1;
    int dt_set = s->set.dt_set;
    if (meth != NSM_METHOD_RK4 && meth != NSM_METHOD_ADAPTIVE) {
        for (int i = 0; i < n2; i++)
            d[i] = 0;
        return NSM_OK;
    }
    if (meth == NSM_METHOD_RK4) {
        s->set.dt = 0.5 * (dt > 0 ? dt : s->h_step);
        s->set.dt_set = 1;
        f = 16.0 / 15.0;
    } else {
        s->set.rtol = 1e-3 * rtol;
        s->set.atol = 1e-3 * atol;
    }
    double P2[n2 * n2];
    if (!(rc = orbit_start(s, y)))
        rc = nsm_sim_monodromy(s, period, P2, y2);
    s->set.dt = dt;
    s->set.dt_set = dt_set;
    s->set.rtol = rtol;
    s->set.atol = atol;
    for (int i = 0; i < n2; i++)
        d[i] = f * (yT[i] - y2[i]);
    /* the run left at the period's end of the method's own run, as before */
    if (!rc && !(rc = orbit_start(s, y)))
        rc = nsm_sim_monodromy(s, period, P2, NULL);
    return rc;
}

/* NSM_OK when the orbit y is as accurate as the run's tolerances ask, else
** NSM_ENUMERIC naming the cause.  A periodic orbit's error is the flow's
** error d over the period (orbit_flow_error) through (Phi - I)^-1: about
** |d| / |mu - 1|, which near a resonance (multipliers within 6e-9 of 1, an
** undamped oscillator forced at 2(1 - 1e-9) rad/s) turned rk4's error of
** 1.6e-7 m/s into 28 m/s on the orbit and adaptive's into 2.9e7 m/s, with
** no word.  Refused when that estimate exceeds rtol |y| + atol and is more
** than ten times the flow's own error (a well-conditioned orbit is as
** accurate as one run of the method, and judged as before). */
static int orbit_accurate(nsm_sim *s, double period, const double *y, const double *yT,
                          const double *Phi, const double *mu_re, const double *mu_im)
{
    int n2 = 2 * s->n_vel, rc;
    double d[n2], J[n2 * n2], e[n2], en = 0, dn = 0, yn = 0, mu1 = HUGE_VAL;
    if ((rc = orbit_flow_error(s, period, y, yT, d)))
        return rc;
    for (int a = 0; a < n2; a++)
        for (int b = 0; b < n2; b++)
            J[a * n2 + b] = Phi[a * n2 + b] - (a == b);
    memcpy(e, d, sizeof e);
    if (nsm_la_solve(n2, J, e, 1))
        return refuse(s, "monodromy", NSM_ENUMERIC, "a multiplier is 1: the orbit is not isolated");
    for (int i = 0; i < n2; i++) {
        en = fmax(en, fabs(e[i]));
        dn = fmax(dn, fabs(d[i]));
        yn = fmax(yn, fabs(y[i]));
        mu1 = fmin(mu1, hypot(mu_re[i] - 1, mu_im[i]));
    }
    if (!(en > s->set.rtol * yn + s->set.atol && en > 10 * dn))
        return NSM_OK;
    rt_text_printf(s->msg, sizeof s->msg, "periodic orbit: a multiplier is within %.2g of 1, which "
                    "magnifies the method's error over the period (%.2g) to about %.2g on the orbit, "
                    "beyond the tolerance (rtol %.2g of its size %.3g, atol %.2g): the orbit is "
                    "ill-conditioned near a resonance (a smaller step or tolerance, or exact, may "
                    "resolve it)", mu1, dn, en, s->set.rtol, yn, s->set.atol);
    return NSM_ENUMERIC;
}

int nsm_sim_periodic_orbit(nsm_sim *s, double period, double *y, double *mu_re, double *mu_im)
{
    int n2 = 2 * s->n_vel, rc;
    double Phi[n2 * n2], J[n2 * n2], yT[n2], r[n2], best = HUGE_VAL;
    if ((rc = rt_floquet_rigid_check(s, "periodic orbit")))
        return rc;
    for (int it = 0; it < 40; it++) {
        if ((rc = orbit_start(s, y)) || (rc = nsm_sim_monodromy(s, period, Phi, yT)))
            return rc;
        double rn = 0, yn = 1;
        for (int i = 0; i < n2; i++) {
            r[i] = yT[i] - y[i];
            rn = fmax(rn, fabs(r[i]));
            yn = fmax(yn, fabs(y[i]));
        }
        /* converged once the residual stops shrinking at the level of the
         * run's rounding, or is below it */
        if (rn <= 1e-14 * yn || (rn <= 1e-11 * yn && rn >= 0.5 * best)) {
            if (nsm_la_eigvals(n2, Phi, mu_re, mu_im))
                return refuse(s, "monodromy", NSM_ENUMERIC, "the multipliers could not be computed");
            if ((rc = orbit_isolated(s, n2, mu_re, mu_im)))
                return rc;
            return orbit_accurate(s, period, y, yT, Phi, mu_re, mu_im);
        }
        best = fmin(best, rn);
        for (int a = 0; a < n2; a++)
            for (int b = 0; b < n2; b++)
                J[a * n2 + b] = Phi[a * n2 + b] - (a == b);
        for (int i = 0; i < n2; i++)
            r[i] = -r[i];
        if (nsm_la_solve(n2, J, r, 1))
            return refuse(s, "monodromy", NSM_ENUMERIC, "a multiplier is 1: the orbit is not isolated");
        if ((rc = orbit_step(s, n2, y, r)))
            return rc;
    }
    return refuse(s, "monodromy", NSM_ENUMERIC, "Newton's method on the periodic orbit did not converge");
}
