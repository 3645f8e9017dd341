/*
** run.c: the run loop and the transitions between modes.
**
** Steps inside the current mode, watches every event function (and the time
** switches), lands on the earliest event and applies its transition.  Every
** transition ends with settle(), which decides by complementarity which
** touching impact gaps are held shut: the force LCP
**     lambda >= 0  _|_  w.a >= 0
** over gaps with zero gap and zero relative velocity.  Impacts solve the
** impulse LCP  P >= 0 _|_ w.v+ + e w.v- >= 0  with  v+ = v- + M^-1 W^T P.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linalg.h"
#include "rt.h"

/* Bit mask of the impact gaps. */
static unsigned impact_bits(const nsm_sim *s)
{
    unsigned r = 0;
    for (int j = 0; j < s->g; j++)
        if (s->m->gaps[j].law == NSM_LAW_IMPACT)
            r |= 1u << j;
    return r;
}

static double wdot(const nsm_sim *s, int j, const double *v)
{
    return rt_dot(s->n, s->num.W + (size_t)j * s->n, v);
}

/* Allocate the Zeno detection's per-gap arrays and size the rate guard's
** window; nonzero on failure. */
int rt_zeno_alloc(nsm_sim *s)
{
    int g = s->g ? s->g : 1;
    s->zeno.last = calloc((size_t)g, sizeof(double));
    s->zeno.tau = calloc((size_t)g, sizeof(double));
    s->zeno.geo = calloc((size_t)g, sizeof(int));
    s->zeno.count = calloc((size_t)g, sizeof(int));
    s->rate.window = 16 + 4 * s->g;
    return !s->zeno.last || !s->zeno.tau || !s->zeno.geo || !s->zeno.count;
}

/* Free them. */
void rt_zeno_free(nsm_sim *s)
{
    free(s->zeno.last);
    free(s->zeno.tau);
    free(s->zeno.geo);
    free(s->zeno.count);
}

/* Forget every impact history and the events the rate guard saw (a reset). */
void rt_zeno_reset(nsm_sim *s)
{
    for (int j = 0; j < s->g; j++) {
        s->zeno.last[j] = -1;
        s->zeno.tau[j] = 0;
        s->zeno.geo[j] = s->zeno.count[j] = 0;
    }
    s->zeno.c_last = -1;
    memset(s->zeno.c_hist, 0, sizeof s->zeno.c_hist);
    memset(s->zeno.c_rho, 0, sizeof s->zeno.c_rho);
    memset(s->zeno.c_steady, 0, sizeof s->zeno.c_steady);
    s->zeno.c_geo = 0;
    s->zeno.c_mask = 0;
    s->rate.n = 0;
}

/* Count an event, apply the rate guard (unless the event is exempt: an
** impact of a recognized Zeno cascade) and hand it to the event handler. */
static int emit(nsm_sim *s, const nsm_event *ev)
{
    int W = s->rate.window;
    rt_stats_event(s, ev);
    s->nevents++;
    if (!s->rate.exempt) {
        if (s->rate.n >= W) {
            double oldest = s->rate.ring[s->rate.n % W];
            if (ev->t - oldest < W / s->max_rate)
                return rt_fail(s, NSM_EEVENTS, ev->kind == NSM_EV_TIME ? -1 : ev->contact,
                               "%d events in %.3g s exceed the event rate cap of %.3g per second "
                               "(%s)", W, ev->t - oldest, s->max_rate, nsm_event_kind_name(ev->kind));
        }
        s->rate.ring[s->rate.n % W] = ev->t;
        s->rate.n++;
    }
    if (s->on_event && s->on_event(s->ev_ud, s, ev))
        return rt_fail(s, NSM_ESTOPPED, -1, "stopped by the event handler");
    return NSM_OK;
}

/* Log one event record. */
int rt_log_event(nsm_sim *s, int kind, int j, double vb, double va, double P, double lost,
                 long count)
{
    nsm_event ev = { s->t, kind, j, vb, va, P, lost, count };
    return emit(s, &ev);
}
#define log_event rt_log_event

/* Forget the impact history of gap j (Zeno detection). */
static void zeno_forget(nsm_sim *s, int j)
{
    s->zeno.last[j] = -1;
    s->zeno.tau[j] = 0;
    s->zeno.geo[j] = s->zeno.count[j] = 0;
}

/* Whether touching gap j, which the force LCP leaves open with no force
** (lambda_j within rounding of 0), is to be held shut all the same: free
** flight has just carried it into the gap with no closing speed (a zero-speed
** landing), so it is a persistent contact unless holding it shut needs a
** pull.  The contact force of j in the mode with j shut decides: held when
** it is positive beyond rounding, or zero to rounding and growing
** (lambda_j' > 0, a support that starts to push, like a sprung table under
** a resting ball).  A force zero and not growing (touching bodies with no
** force between them, a contact just released) leaves it open. */
static int settle_hold(nsm_sim *s, int j, unsigned mode, double tol)
{
    double ev[RT_MAXG], evd[RT_MAXG];
    unsigned m = mode | 1u << j;
    if (rt_events(s, m, s->t, s->y, ev, evd))
        return 0;
    return ev[j] > tol || (ev[j] >= -tol && evd[j] > 0);
}

/* Decide the closed set of impact gaps by the force LCP over the gaps that
** touch at rest (or are held shut), project the velocities onto it and log
** stick / separation against the mode ref.  Gaps in forced_open stay open
** (a separation just located); gaps in favour (just landed with no closing
** speed) are held shut unless that needs a pull (settle_hold). */
static int settle_favour(nsm_sim *s, unsigned ref, unsigned forced_open, unsigned favour)
{
    int n = s->n;
    double *y = s->y, *v = s->y + n, lam[RT_MAXG], vb[RT_MAXG];
    unsigned imp = impact_bits(s), cand = 0, closed = 0;
    for (int j = 0; j < s->g; j++) {
        vb[j] = wdot(s, j, v);
        if (!(imp >> j & 1u) || (forced_open >> j & 1u))
            continue;
        if ((s->mode >> j & 1u) ||
            (fabs(rt_gap(s, j, y)) <= rt_gap_tol(s, j, y) && fabs(vb[j]) <= rt_vel_tol(s, j, v)))
            cand |= 1u << j;
    }
    if (rt_force_lcp(s, s->mode, s->t, y, cand, lam))
        return rt_fail(s, NSM_ENUMERIC, -1, "no solution of the contact force problem");
    double tol = rt_force_tol(s, s->mode, y);
    for (int j = 0; j < s->g; j++)
        if ((cand >> j & 1u) && lam[j] > tol)
            closed |= 1u << j;
    for (int j = 0; j < s->g; j++)
        if ((cand & favour & ~closed) >> j & 1u && settle_hold(s, j, (s->mode & ~imp) | closed, tol))
            closed |= 1u << j;
    double Eb = rt_mech_energy(s, s->mode, y);
    if (rt_project(s, closed, v))
        return rt_fail(s, NSM_ENUMERIC, -1, "redundant closed contacts");
    s->mode = (s->mode & ~imp) | closed;
    double lost = Eb - rt_mech_energy(s, s->mode, y);
    s->Ejump += lost;
    for (int j = 0; j < s->g; j++) {
        int rc = 0;
        if ((closed >> j & 1u) && !(ref >> j & 1u)) {
            zeno_forget(s, j);
            rc = log_event(s, NSM_EV_STICK, j, vb[j], wdot(s, j, v), 0, lost, 1);
            lost = 0;
        } else if ((imp >> j & 1u) && !(closed >> j & 1u) && (ref >> j & 1u)) {
            zeno_forget(s, j);
            rc = log_event(s, NSM_EV_SEPARATION, j, vb[j], wdot(s, j, v), 0, 0, 1);
        }
        if (rc)
            return rc;
    }
    return NSM_OK;
}

/* settle without favoured gaps: after every transition but a zero-speed
** landing. */
static int settle(nsm_sim *s, unsigned ref, unsigned forced_open)
{
    return settle_favour(s, ref, forced_open, 0);
}

/* Time from the last impact of a Zeno cascade to its accumulation point.
** Under a constant force the flight times shrink by exactly e, and the rest
** of the cascade lasts e tau/(1 - e).  Otherwise (springs, dampers) the
** ratio of successive flights drifts with the flight time itself,
**     tau_{k+1} = e tau_k (1 + beta tau_k + O(tau_k^2)),
** and the geometric sum is off by about beta tau^2 e/(1 - e)^2 (1e-8 s on
** the two-mass grazing case at tau = 1e-5 s); with beta known the
** recurrence is summed to its end, leaving an error of order tau^3 (3e-11 s
** there at tau = 3e-5 s). */
static double zeno_remaining(double e, double beta, double tau)
{
    double sum = 0, t = tau;
    if (!isfinite(beta) || !(e * (1 + beta * tau) < 1 - 1e-3) || fabs(beta * tau) > 0.05)
        return e * tau / (1 - e);
    for (int k = 0; k < 100000 && t > 1e-18 * sum; k++) {
        t *= e * (1 + beta * t);
        sum += t;
    }
    return sum;
}

/* One free flight of gap j from (t, Y) (gap ~0, opening at w.v > 0) to its
** next touchdown, by Newton on the gap from the constant-acceleration
** guess tg; the flight time in *tau, the state there in Y1.  1 if it fails. */
static int zeno_flight(nsm_sim *s, int j, double t, const double *Y, double tg, double *tau,
                       double *Y1)
{
    double ev[RT_MAXG], evd[RT_MAXG], x = tg, prev = HUGE_VAL;
    for (int it = 0; it < 50; it++) {
        if (rt_advance(s, t, Y, x, Y1) || rt_events(s, s->mode, t + x, Y1, ev, evd) || !(evd[j] < 0))
            return 1;
        double dx = ev[j] / evd[j];
        if (fabs(dx) <= 1e-15 * x || (fabs(dx) < 1e-6 * x && fabs(dx) >= 0.5 * prev)) {
            /* converged, or down to the rounding of the gap */
            *tau = x;
            return 0;
        }
        prev = fabs(dx);
        x -= dx;
        if (!(x > 0.5 * tg && x < 2 * tg))
            return 1;
    }
    return 1;
}

/* Drift of the flight ratio of gap j's cascade measured at the current state
** (just after an impact, gap j open): a pair of trial flights launched from
** here at the relative velocity that makes the first last about tl, the
** second after an impact of restitution e; returns q = tau2/(e tau1) - 1 and
** the first flight in *tau1; NAN on failure. */
static double zeno_pair(nsm_sim *s, int j, double tl, double *tau1)
{
    int n = s->n, N = s->N;
    double Y[N], Y1[N], Y2[N], a[N], tau2, e = s->num.e[j], Djj;
    const double *w = s->num.W + (size_t)j * n;
    rt_delassus(s, &j, 1, &Djj);
    memcpy(Y, s->y, sizeof Y);
    if (rt_deriv(s, s->mode, s->t, Y, a))
        return NAN;
    double acc = rt_dot(n, w, a + n), du = -acc * tl / 2 - wdot(s, j, Y + n);
    if (!(acc < 0) || !(Djj > 0))
        return NAN;
    for (int i = 0; i < n; i++)
        Y[n + i] += s->minv[i] * w[i] * du / Djj;
    if (zeno_flight(s, j, s->t, Y, tl, tau1, Y1))
        return NAN;
    double dv = -(1 + e) * wdot(s, j, Y1 + n) / Djj;
    for (int i = 0; i < n; i++)
        Y1[n + i] += s->minv[i] * w[i] * dv;
    if (zeno_flight(s, j, s->t + *tau1, Y1, e * *tau1, &tau2, Y2))
        return NAN;
    return tau2 / (e * *tau1) - 1;
}

/* beta of zeno_remaining for the cascade of gap j, from a pair of trial
** flights as long as the last flight tau: q = beta tau1.  The flights of the
** cascade itself cannot give it: their times carry the gap's rounding
** divided by relative velocities down to 1e-7 m/s, while the trial flights
** are located on the exact gap function of the method's own steps.  NAN on
** failure (zeno_remaining then takes the geometric sum). */
static double zeno_beta(nsm_sim *s, int j, double tau)
{
    double t1, q = zeno_pair(s, j, tau, &t1);
    return isfinite(q) ? q / t1 : NAN;
}

/* Jump over a Zeno cascade of gap j whose last impact was just applied: the
** impacts accumulate at t* = t + remaining (rt_zeno_tail, or zeno_remaining
** where that does not apply; see impact() for when it jumps); remove the
** relative velocity (plastic projection), move to t* in the mode the force
** LCP chooses there, log one zeno event, and settle. */
static int zeno_jump(nsm_sim *s, int j, unsigned ref, double remaining)
{
    int n = s->n, rc;
    if (s->nf && (rc = rt_fric_zeno_check(s, j)))
        return rc;
    double tstar = s->t + remaining;
    long count = s->zeno.count[j];
    double *v = s->y + n, vb = wdot(s, j, v), lam[RT_MAXG];
    double Eb = rt_mech_energy(s, s->mode, s->y);
    unsigned imp = impact_bits(s), cand = (s->mode & imp) | 1u << j;
    if (rt_project(s, 1u << j, v))
        return rt_fail(s, NSM_ENUMERIC, j, "plastic projection failed");
    if (rt_force_lcp(s, s->mode, s->t, s->y, cand, lam))
        return rt_fail(s, NSM_ENUMERIC, j, "no solution of the contact force problem");
    if (lam[j] > rt_force_tol(s, s->mode, s->y))
        s->mode |= 1u << j;
    double lost = Eb - rt_mech_energy(s, s->mode, s->y);
    s->Ejump += lost;
    double Y1[s->N];
    while (s->t < tstar) {
        double h = tstar - s->t;
        if ((rc = rt_step(s, s->t, s->y, &h, Y1)))
            return rc;
        double t1 = s->t + h >= tstar ? tstar : s->t + h;
        rt_stats_step(s, t1, Y1);
        memcpy(s->y, Y1, sizeof Y1);
        s->t = t1;
    }
    zeno_forget(s, j);
    if ((rc = log_event(s, NSM_EV_ZENO, j, vb, wdot(s, j, v), 0, lost, count)))
        return rc;
    return settle(s, ref, 0);
}

/* After an impact of gap j (now open): whether its rebound is too small to
** leave the gap's rounding band (height u^2 / 2|a| below the gap tolerance,
** u the relative velocity, a < 0 the relative acceleration pulling it back).
** Such flights cannot be resolved; without a Zeno jump the contact is then
** at rest (plastic). */
static int rebound_unresolved(nsm_sim *s, int j)
{
    int n = s->n;
    double Yd[s->N], u = wdot(s, j, s->y + n);
    if (!(u > 0) || rt_deriv(s, s->mode, s->t, s->y, Yd))
        return 0;
    double acc = wdot(s, j, Yd + n);
    return acc < 0 && u * u <= -2 * acc * rt_gap_tol(s, j, s->y);
}

/* Whether gaps a and b act on a common body (an impulse on one moves the
** other). */
static int coupled(const nsm_sim *s, int a, int b)
{
    const double *wa = s->num.W + (size_t)a * s->n, *wb = s->num.W + (size_t)b * s->n;
    for (int i = 0; i < s->n; i++)
        if (wa[i] != 0 && wb[i] != 0)
            return 1;
    return 0;
}

/* The gaps of cand that an impact of gap j reaches through shared bodies
** (j's connected component): a contact elsewhere, stuck or touching, takes
** no impulse from it and stays out of its impulse problem. */
static unsigned impact_component(const nsm_sim *s, int j, unsigned cand)
{
    unsigned comp = 1u << j;
    for (int grown = 1; grown;) {
        grown = 0;
        for (int a = 0; a < s->g; a++) {
            if (!(cand >> a & 1u) || (comp >> a & 1u))
                continue;
            for (int b = 0; b < s->g && !(comp >> a & 1u); b++)
                if ((comp >> b & 1u) && coupled(s, a, b))
                    comp |= 1u << a, grown = 1;
        }
    }
    return comp;
}

/* The impact gaps of an impulse problem for gap j: j, the contacts shut,
** those in extra and those touching, as far as j reaches them through
** shared bodies; into idx (their count returned, ascending) and *set, with
** every gap's relative velocity in vb. */
static int impact_set(nsm_sim *s, int j, unsigned extra, double *vb, int *idx, unsigned *set)
{
    const double *y = s->y, *v = s->y + s->n;
    unsigned imp = impact_bits(s), cand = 0;
    int r = 0;
    for (int i = 0; i < s->g; i++) {
        vb[i] = wdot(s, i, v);
        if ((imp >> i & 1u) && (i == j || (s->mode >> i & 1u) || (extra >> i & 1u) ||
                                fabs(rt_gap(s, i, y)) <= rt_gap_tol(s, i, y)))
            cand |= 1u << i;
    }
    *set = impact_component(s, j, cand);
    for (int i = 0; i < s->g; i++)
        if (*set >> i & 1u)
            idx[r++] = i;
    return r;
}


/* The limit of a sequence of impacts that gap j is part of: the contacts
** it reaches among those shut, touching or in extra have no relative
** approach left: one impulse problem without restitution over them
** (P >= 0 _|_ w.v+ >= 0), logged as one zeno record summing count impacts;
** then the force LCP decides which stay shut. */
static int collapse(nsm_sim *s, int j, unsigned ref, unsigned extra, int count)
{
    int n = s->n, idx[RT_MAXG] = { 0 }, rc;
    for (int a = 0; a < s->g && s->nf; a++)
        if (((extra | 1u << j) >> a & 1u) && (rc = rt_fric_zeno_check(s, a)))
            return rc;
    double *y = s->y, *v = s->y + n, vb[RT_MAXG], D[RT_MAXG * RT_MAXG], q[RT_MAXG], P[RT_MAXG];
    unsigned set;
    int r = impact_set(s, j, extra, vb, idx, &set);
    rt_delassus(s, idx, r, D);
    for (int a = 0; a < r; a++)
        q[a] = vb[idx[a]];
    if (nsm_lcp_solve(r, D, q, P, NULL) != NSM_LA_OK)
        return rt_fail(s, NSM_ENUMERIC, j, "no solution of the impact problem");
    double Eb = rt_mech_energy(s, s->mode, y), Pj = 0;
    for (int a = 0; a < r; a++) {
        const double *w = s->num.W + (size_t)idx[a] * n;
        for (int i = 0; i < n; i++)
            v[i] += s->minv[i] * w[i] * P[a];
        if (idx[a] == j)
            Pj = P[a];
    }
    s->mode &= ~set;
    double lost = Eb - rt_mech_energy(s, s->mode, y);
    s->Ejump += lost;
    memset(s->zeno.c_steady, 0, sizeof s->zeno.c_steady);
    s->zeno.c_geo = 0;
    s->zeno.c_mask = 0;
    rc = log_event(s, NSM_EV_ZENO, j, vb[j], wdot(s, j, v), Pj, lost, count);
    return rc ? rc : settle(s, ref, 0);
}

/*
** Sequential impacts.  The contacts that touch at the instant of an impact
** (open and touching, or held shut), as far as the impact reaches them
** through shared bodies, take the impulse one pair at a time: binary
** collisions, each with Newton's law on its own contact, one after another
** at the same instant, until no touching contact approaches (faster than
** its velocity tolerance).  Order: the contact closing fastest (the most
** negative w.v) goes first, the lower gap index on a tie; in a chain hit
** at one end this follows the wave.  Contacts held shut (stuck under a
** force) are rigid supports in every collision: each collision is the
** impulse LCP over the colliding contact (restitution e) and the held ones
** (no restitution).  The relative velocities u = W v of the touching
** contacts are carried along (u += D p, D = W M^-1 W^T): they shrink by
** many orders below the velocities themselves without losing digits.
**
** Collapse (McNamara & Young, Phys. Fluids A 4 (1992) 496): the sequence
** may never end (three equal beads in a row do so for e < 7 - 4 sqrt(3)).
** It is declared collapsed, from the collisions themselves, when the last
** SEQ_PERIODS periods of p collisions repeat the same contacts and every
** collision's closing speed is the one a period earlier times one ratio
** rho < 1, the same to SEQ_RHO_TOL for all of them: the relative velocities
** then lie along an eigenvector of the period's linear map, and the cycle
** repeats for ever with speeds shrinking by rho.  Its limit is summed at
** once: the contacts of the cycle end with no relative velocity, the unique
** state v + M^-1 W_C^T P with W_C v = 0 (a projection), logged as one zeno
** record; the sequence then goes on with what is left.  Without Zeno jumps
** (nsm_sim_set_zeno 0) nothing is summed: every collision is resolved until
** the closing speeds fall below the velocity tolerance.  Closing speeds
** below it are rounding, not impacts: such contacts lose their residual
** approach plastically without an impact record.
*/
#define SEQ_MAX 200000       /* collisions at one instant before the run stops */
#define SEQ_PERIODS 3        /* periods of a cycle compared */
#define SEQ_MAXP 96          /* longest cycle looked for, in collisions */
#define SEQ_HIST (SEQ_PERIODS * SEQ_MAXP)
#define SEQ_RHO_TOL 1e-6     /* steadiness of the cycle's ratio */

/* One instant's sequence of collisions over the touching gaps idx[0..r). */
typedef struct Seq {
    int r, idx[RT_MAXG];
    unsigned held;           /* positions a whose gap is held shut */
    double D[RT_MAXG * RT_MAXG], u[RT_MAXG];
    long n;                  /* collisions so far */
    int hg[SEQ_HIST];        /* ring: position hit, its closing speed */
    double hu[SEQ_HIST];
} Seq;

/* The cycle the last collisions of q repeat, or 0: its period p (the
** positions hit repeat p apart over SEQ_PERIODS periods) with the ratio of
** every closing speed to the one a period earlier steady to SEQ_RHO_TOL and
** below 1 (in *rho); the positions of the cycle in *set. */
static int seq_cycle(const Seq *q, double *rho, unsigned *set)
{
    long n = q->n;
    int pmax = 4 * q->r < SEQ_MAXP ? 4 * q->r : SEQ_MAXP;
    for (int p = 1; p <= pmax && (long)SEQ_PERIODS * p <= n; p++) {
        double lo = HUGE_VAL, hi = 0;
        int ok = 1;
        for (long k = n - (long)(SEQ_PERIODS - 1) * p; k < n && ok; k++) {
            int a = (int)(k % SEQ_HIST), b = (int)((k - p) % SEQ_HIST);
            double ratio = q->hu[a] / q->hu[b];
            ok = q->hg[a] == q->hg[b] && ratio > 0;
            lo = fmin(lo, ratio);
            hi = fmax(hi, ratio);
        }
        if (!ok || !(hi < 1) || hi - lo > SEQ_RHO_TOL * hi)
            continue;
        *rho = hi;
        *set = 0;
        for (long k = n - p; k < n; k++)
            *set |= 1u << q->hg[k % SEQ_HIST];
        return p;
    }
    return 0;
}

/* Apply the impulses P (one per position of q) to v and to u. */
static void seq_apply(nsm_sim *s, Seq *q, const double *P, double *v)
{
    int n = s->n;
    for (int a = 0; a < q->r; a++) {
        if (P[a] == 0)
            continue;
        const double *w = s->num.W + (size_t)q->idx[a] * n;
        for (int i = 0; i < n; i++)
            v[i] += s->minv[i] * w[i] * P[a];
        for (int b = 0; b < q->r; b++)
            q->u[b] += q->D[b * q->r + a] * P[a];
    }
}

/* One collision of position a of q: the impulse LCP over a (restitution)
** and the held contacts (none), into P (zero elsewhere). */
static int seq_collide(nsm_sim *s, const Seq *q, int a, double *P)
{
    int r = q->r, sub[RT_MAXG], m = 0;
    double Dm[RT_MAXG * RT_MAXG], qm[RT_MAXG], z[RT_MAXG];
    for (int b = 0; b < r; b++)
        P[b] = 0;
    sub[m++] = a;
    for (int b = 0; b < r; b++)
        if (q->held >> b & 1u)
            sub[m++] = b;
    if (m == 1) {
        P[a] = -(1 + s->num.e[q->idx[a]]) * q->u[a] / q->D[a * r + a];
        return NSM_OK;
    }
    for (int x = 0; x < m; x++) {
        for (int y = 0; y < m; y++)
            Dm[x * m + y] = q->D[sub[x] * r + sub[y]];
        qm[x] = x == 0 ? (1 + s->num.e[q->idx[a]]) * q->u[a] : q->u[sub[x]];
    }
    if (nsm_lcp_solve(m, Dm, qm, z, NULL) != NSM_LA_OK)
        return rt_fail(s, NSM_ENUMERIC, q->idx[a], "no solution of the impact problem");
    for (int x = 0; x < m; x++)
        P[sub[x]] = z[x];
    return NSM_OK;
}

/* The limit of the cycle set (positions of q) just recognized: the cycle's
** contacts, and the held ones not separating, end with no relative velocity
** (W_C v = 0: D_CC P = -u_C); one zeno record on the gap of the last
** collision, counting the collisions so far. */
static int seq_collapse(nsm_sim *s, Seq *q, unsigned set, int last, double *v)
{
    int r = q->r, sub[RT_MAXG], m = 0;
    double Dm[RT_MAXG * RT_MAXG], z[RT_MAXG], P[RT_MAXG] = { 0 };
    for (int b = 0; b < r; b++)
        if ((set >> b & 1u) ||
            ((q->held >> b & 1u) && q->u[b] <= rt_vel_tol(s, q->idx[b], v)))
            sub[m++] = b;
    for (int x = 0; x < m; x++) {
        for (int y = 0; y < m; y++)
            Dm[x * m + y] = q->D[sub[x] * r + sub[y]];
        z[x] = -q->u[sub[x]];
    }
    if (nsm_la_solve(m, Dm, z, 1) != NSM_LA_OK) {
        /* dependent contacts (a body squeezed between a floor and a
         * ceiling): D_CC is singular, and the impulse problem without
         * restitution, P >= 0 _|_ u + D P >= 0, brings them to rest */
        double qm[RT_MAXG];
        for (int x = 0; x < m; x++) {
            for (int y = 0; y < m; y++)
                Dm[x * m + y] = q->D[sub[x] * r + sub[y]];
            qm[x] = q->u[sub[x]];
        }
        if (nsm_lcp_solve(m, Dm, qm, z, NULL) != NSM_LA_OK)
            return rt_fail(s, NSM_ENUMERIC, q->idx[last], "no solution of the collapse's impulse problem");
    }
    for (int x = 0; x < m; x++)
        P[sub[x]] = z[x];
    double Eb = rt_mech_energy(s, s->mode, s->y), ub = q->u[last];
    seq_apply(s, q, P, v);
    for (int x = 0; x < m; x++)
        if (q->u[sub[x]] <= rt_vel_tol(s, q->idx[sub[x]], v))
            q->u[sub[x]] = 0;           /* at rest, to rounding */
    double lost = Eb - rt_mech_energy(s, s->mode, s->y);
    s->Ejump += lost;
    return log_event(s, NSM_EV_ZENO, q->idx[last], ub, 0, P[last], lost, q->n);
}

/* The touching open position of q closing fastest beyond its velocity
** tolerance (lowest gap index on a tie), or -1. */
static int seq_next(const nsm_sim *s, const Seq *q, const double *v)
{
    int best = -1;
    for (int a = 0; a < q->r; a++) {
        if (q->held >> a & 1u)
            continue;
        if (q->u[a] < -rt_vel_tol(s, q->idx[a], v) && (best < 0 || q->u[a] < q->u[best]))
            best = a;
    }
    return best;
}

/* Resolve the sequence of collisions at this instant over the touching
** gaps idx[0..r) (j, the landed one, among them), logging each collision
** and each contact held shut that transmits an impulse; the first record
** is exempt from the event-rate guard if exempt1, the others always (a
** sequence at one instant is finite or summed).  *count gets the number of
** collisions. */
static int impact_sequence(nsm_sim *s, int j, const int *idx, int r, int exempt1, long *count)
{
    int n = s->n, rc;
    double *v = s->y + n, y0[2 * n];
    Seq seq, *q = &seq;
    q->r = r;
    q->n = 0;
    q->held = 0;
    memcpy(q->idx, idx, sizeof(int) * (size_t)r);
    rt_delassus(s, idx, r, q->D);
    for (int a = 0; a < r; a++) {
        q->u[a] = wdot(s, idx[a], v);
        if (s->mode >> idx[a] & 1u)
            q->held |= 1u << a;
    }
    for (int a; (a = seq_next(s, q, v)) >= 0;) {
        double P[RT_MAXG], ub[RT_MAXG], E0 = rt_mech_energy(s, s->mode, s->y);
        if (q->n >= SEQ_MAX)
            return rt_fail(s, NSM_EEVENTS, idx[a], "%d impacts at one instant and no end in sight "
                           "(elastic contacts squeezing a body?)", SEQ_MAX);
        if ((rc = seq_collide(s, q, a, P)))
            return rc;
        memcpy(ub, q->u, sizeof(double) * (size_t)r);
        memcpy(y0, s->y, sizeof y0);
        seq_apply(s, q, P, v);
        if (q->held == 0)
            q->u[a] = -s->num.e[idx[a]] * ub[a];     /* Newton's law, exactly */
        if (q->held == 0 && s->method == NSM_METHOD_EXACT && q->n == 0 &&
            seq_next(s, q, v) < 0)
            rt_shadow_impulse(s, idx[a], s->num.e[idx[a]], s->t, y0, s->y);
        s->Ejump += E0 - rt_mech_energy(s, s->mode, s->y);
        q->hg[q->n % SEQ_HIST] = a;
        q->hu[q->n % SEQ_HIST] = ub[a];
        q->n++;
        for (int b = 0; b < r; b++) {
            if (b != a && !(P[b] > 0))
                continue;
            double va = wdot(s, idx[b], v);
            s->rate.exempt = q->n > 1 || (b != a) || exempt1;
            rc = log_event(s, NSM_EV_IMPACT, idx[b], ub[b], va, P[b], -P[b] * (ub[b] + va) / 2, 1);
            s->rate.exempt = 0;
            if (rc)
                return rc;
        }
        double rho;
        unsigned set;
        if (s->zeno_on && seq_cycle(q, &rho, &set)) {
            s->rate.exempt = 1;
            rc = seq_collapse(s, q, set, a, v);
            s->rate.exempt = 0;
            if (rc)
                return rc;
        }
    }
    /* what still approaches does so within rounding: at rest, not impacts */
    unsigned rest = 0;
    for (int a = 0; a < r; a++)
        if (!(q->held >> a & 1u) && q->u[a] < 0)
            rest |= 1u << idx[a];
    if (rest) {
        double Eb = rt_mech_energy(s, s->mode, s->y);
        if (rt_project(s, rest, v))
            return rt_fail(s, NSM_ENUMERIC, j, "plastic projection failed");
        s->Ejump += Eb - rt_mech_energy(s, s->mode, s->y);
    }
    *count = q->n;
    return NSM_OK;
}

/* The time scale a cascade's flights are compared with: the step of the
** mode (1 ms when the method has no bound of its own there). */
static double zeno_scale(const nsm_sim *s)
{
    return isfinite(s->h_step) && s->h_step > 0 ? s->h_step : 1e-3;
}

/* A cascade over several contacts: a light body between two others, or
** between a body and the floor, or a stack whose contacts hit in turn, the
** impacts cycling through the contacts with intervals that shrink by a
** steady ratio (each contact on its own is no geometric cascade, so the
** one-contact Zeno jump does not see it).  The intervals are compared 2, 3
** and 4 apart (RT_CLUSTER_LAGS), the length of the cycle: six ratios in a
** row within 5 % of one another and below 0.95 at one of those lags, with
** intervals below 1e-3 dt, and the rest of the cascade, a few cycles of the
** last intervals, is not resolved: its contacts are collapsed at once
** (collapse) and logged as one zeno record.  True when j's impact ends
** such a cascade. */
static int cluster_track(nsm_sim *s, int j)
{
    double tau = s->t - s->zeno.c_last;
    if (!(tau > 0))
        return 0;               /* same instant: impact_sequence's business */
    int best = 0;
    for (int lag = 2; lag <= RT_CLUSTER_LAGS; lag++) {
        double prev = s->zeno.c_hist[lag - 1], ratio = s->zeno.c_last >= 0 && prev > 0 ? tau / prev : 0;
        if (ratio > 0 && ratio < 0.95 && fabs(ratio - s->zeno.c_rho[lag]) < 0.05 * s->zeno.c_rho[lag])
            s->zeno.c_steady[lag]++;
        else
            s->zeno.c_steady[lag] = 0;
        s->zeno.c_rho[lag] = ratio;
        if (s->zeno.c_steady[lag] > best)
            best = s->zeno.c_steady[lag];
    }
    s->zeno.c_mask = best > 0 ? s->zeno.c_mask | 1u << j : 1u << j;
    s->zeno.c_geo = best;
    memmove(s->zeno.c_hist + 1, s->zeno.c_hist, sizeof(double) * (RT_CLUSTER_LAGS - 1));
    s->zeno.c_hist[0] = s->zeno.c_last >= 0 ? tau : 0;
    s->zeno.c_last = s->t;
    unsigned m = s->zeno.c_mask;
    int several = (m & (m - 1)) != 0;
    return s->zeno_on && several && best >= 6 && tau < 1e-3 * zeno_scale(s);
}

/* Impact of open impact gap j: the sequence of collisions over the touching
** gaps it reaches (impact_sequence), then Zeno detection and settle.  A
** landing with no closing speed is no impact: the contact is at rest. */
static int impact(nsm_sim *s, int j)
{
    int n = s->n, idx[RT_MAXG] = { 0 };
    double *y = s->y, *v = s->y + n, vb[RT_MAXG] = { 0 };
    unsigned set, ref = s->mode;
    int r = impact_set(s, j, 0, vb, idx, &set);
    if (vb[j] >= -rt_vel_tol(s, j, v)) {
        /* landed with the gap leaving 0 by a bounce smaller than the gap's
         * rounding, or closing slower than the velocity tolerance (a contact
         * just released, whose residual velocity is rounding; or carried
         * into the gap by its support with no closing speed): the contact
         * is at rest; remove the residual relative velocity (plastic), and
         * hold it shut unless that needs a pull */
        double Eb = rt_mech_energy(s, s->mode, y);
        if (rt_project(s, 1u << j, v))
            return rt_fail(s, NSM_ENUMERIC, j, "plastic projection failed");
        s->Ejump += Eb - rt_mech_energy(s, s->mode, y);
        return settle_favour(s, ref, 0, 1u << j);
    }
    /* single: j is the only open contact it touches (the others of the
     * problem are shut); held: one of those shares a body with j */
    int single = 1, held = 0;
    for (int a = 0; a < r; a++)
        if (idx[a] != j) {
            if (!(ref >> idx[a] & 1u))
                single = 0;
            else if (coupled(s, idx[a], j))
                held = 1;
        }
    double e = s->num.e[j];
    int cascade = 0;
    if (single && e > 0 && e < 1 && s->zeno_on) {
        if (s->zeno.last[j] >= 0) {
            double tau = s->t - s->zeno.last[j];
            if (s->zeno.tau[j] > 0 && fabs(tau / (s->zeno.tau[j] * e) - 1) < 0.05) {
                s->zeno.geo[j]++;
            } else {
                s->zeno.geo[j] = 0;
                s->zeno.count[j] = 1;
            }
            s->zeno.tau[j] = tau;
        }
        s->zeno.last[j] = s->t;
        s->zeno.count[j]++;
        cascade = s->zeno.geo[j] >= 3;
    }
    /* impacts of a recognized geometric cascade, of one contact or of
     * several, are bounded (the jump comes after finitely many): the
     * event-rate guard leaves them alone */
    int ends_cluster = cluster_track(s, j), rc;
    unsigned cm = s->zeno.c_mask;
    long count;
    int exempt = cascade || (s->zeno_on && (cm & (cm - 1)) && s->zeno.c_geo >= 3), frictional;
    /* with friction on j, alone: the frictional impact law (friction.c) */
    if ((rc = rt_fric_impulse(s, j, r, exempt, &frictional)))
        return rc;
    count = 1;
    if (!frictional && (rc = impact_sequence(s, j, idx, r, exempt, &count)))
        return rc;
    single = single && count == 1;
    if (ends_cluster)
        return collapse(s, j, ref, s->zeno.c_mask, s->zeno.c_geo + 2);
    /* jump once the rebounds stay inside the gap's rounding band (the
     * trajectory then differs from the stuck one by less than the band) and
     * the flight ratio is within 2e-4 of e (|beta tau| < 2e-4: the
     * beta-corrected sum is good to about 1e-9 s on the two-mass grazing
     * case, while every further impact resolved adds the noise of a landing
     * at a smaller relative velocity), or when the flights fall below 1e-3
     * of the step; never past the end of this run (the next run jumps).
     * Outside a recognized cascade, a rebound inside the band ends as
     * plastic.  The tail's flights take j's impulse alone, so a cascade
     * against a body held by another contact is not jumped: its rebounds
     * end plastic in the band. */
    int unresolved = rebound_unresolved(s, j);
    if (cascade && single && !held && (unresolved || s->zeno.tau[j] < 1e-3 * zeno_scale(s))) {
        double rest = rt_zeno_tail(s, j, s->zeno.tau[j]);
        if (isfinite(rest)) {
            if (s->t + rest <= s->t_stop)
                return zeno_jump(s, j, ref, rest);
        } else {
            double beta = zeno_beta(s, j, s->zeno.tau[j]);
            rest = zeno_remaining(e, beta, s->zeno.tau[j]);
            if ((fabs(beta * s->zeno.tau[j]) < 2e-4 || s->zeno.tau[j] < 1e-3 * zeno_scale(s)) &&
                s->t + rest <= s->t_stop)
                return zeno_jump(s, j, ref, rest);
        }
    }
    /* every contact of the sequence whose rebound cannot leave the rounding
     * band ends at rest (j's too, unless a cascade of j alone goes on) */
    unsigned plastic = 0;
    for (int a = 0; a < r; a++)
        if (!(ref >> idx[a] & 1u) && (idx[a] != j || !cascade || held || !single) &&
            rebound_unresolved(s, idx[a]))
            plastic |= 1u << idx[a];
    if (plastic) {
        double Eb2 = rt_mech_energy(s, s->mode, y);
        if (rt_project(s, plastic, v))
            return rt_fail(s, NSM_ENUMERIC, j, "plastic projection failed");
        s->Ejump += Eb2 - rt_mech_energy(s, s->mode, y);
    }
    return settle(s, ref, 0);
}

/* Apply the transition of event function j, just landed on: a gap's, or a
** friction element's (friction.c), after which the gaps settle under the
** new friction forces; after a gap's, the friction elements are decided
** again (an impact changes the slip velocities). */
static int transition_gap(nsm_sim *s, int j);
static int transition(nsm_sim *s, int j)
{
    int rc;
    if (j >= s->g) {
        rc = rt_fric_transition(s, j);
        return rc ? rc : settle(s, s->mode, 0);
    }
    int imp = s->nf && s->m->gaps[j].law == NSM_LAW_IMPACT && !(s->mode >> j & 1u);
    double v0[imp ? s->n : 1];
    if (imp)
        memcpy(v0, s->y + s->n, sizeof v0);
    rc = transition_gap(s, j);
    if (!rc && imp)
        rc = rt_fric_impact(s, j, v0);
    return rc ? rc : rt_fric_update(s);
}

/* The transition of gap j. */
static int transition_gap(nsm_sim *s, int j)
{
    unsigned bit = 1u << j, ref = s->mode;
    const double *v = s->y + s->n;
    int closed = (s->mode & bit) != 0, rc;
    if (s->m->gaps[j].law == NSM_LAW_IMPACT) {
        if (!closed)
            return impact(s, j);
        s->mode &= ~bit;
        zeno_forget(s, j);
        if ((rc = log_event(s, NSM_EV_SEPARATION, j, wdot(s, j, v), wdot(s, j, v), 0, 0, 1)))
            return rc;
        return settle(s, s->mode, bit);
    }
    double Eb = rt_mech_energy(s, s->mode, s->y);
    s->mode ^= bit;
    double lost = Eb - rt_mech_energy(s, s->mode, s->y);
    s->Ejump += lost;
    rc = log_event(s, closed ? NSM_EV_CONTACT_EXIT : NSM_EV_CONTACT_ENTER, j, wdot(s, j, v),
                   wdot(s, j, v), 0, lost, 1);
    if (rc)
        return rc;
    return settle(s, ref & ~bit, 0);
}

/* Initial mode at t = 0: penalty gaps penetrated (or touching and closing)
** are engaged, touching impact gaps at rest are closed if the force LCP says
** so, touching impact gaps closing get their impact now. */
int rt_initial_mode(nsm_sim *s)
{
    int n = s->n, rc;
    const double *y = s->y, *v = s->y + n;
    s->mode = 0;
    for (int j = 0; j < s->g; j++) {
        double gap = rt_gap(s, j, y), tol = rt_gap_tol(s, j, y), wv = wdot(s, j, v);
        if (s->m->gaps[j].law == NSM_LAW_PENALTY) {
            double f = -s->num.kc[j] * gap - s->num.cc[j] * wv;
            int on = s->m->gaps[j].release == NSM_RELEASE_GAP ? (gap < -tol || (gap <= tol && wv < 0))
                                                              : (gap <= tol && f > 0);
            if (on)
                s->mode |= 1u << j;
        } else if (gap < -tol) {
            return rt_fail(s, NSM_EMODEL, j, "initial state penetrates the gap (gap = %.6g)", gap);
        }
    }
    if ((rc = settle(s, 0, 0)))
        return rc;
    /* until none is left (each impact resolves the whole sequence of
     * collisions it starts, see impact_sequence) */
    for (int again = 1, rounds = 0; again && rounds < 1000; rounds++) {
        again = 0;
        for (int j = 0; j < s->g; j++) {
            if (s->m->gaps[j].law != NSM_LAW_IMPACT || (s->mode >> j & 1u))
                continue;
            if (fabs(rt_gap(s, j, y)) <= rt_gap_tol(s, j, y) && wdot(s, j, v) < -rt_vel_tol(s, j, v)) {
                double v0[n];
                memcpy(v0, v, sizeof v0);
                if ((rc = impact(s, j)) || (s->nf && (rc = rt_fric_impact(s, j, v0))))
                    return rc;
                again = 1;
            }
        }
    }
    return rt_fric_initial(s);
}

/* Switch k has the same sign at both ends of [a, *b] (value fa and slope
** da at a, slope db at *b) but turns back inside: whether it crosses 0 on
** the way (a pulse shorter than the step).  The turning point is bisected
** on the slope; at the first midpoint past 0, *b and *fb become that point,
** so that [a, *b] brackets the first crossing.  A switch function that
** turns more than once inside one step is not seen. */
static int switch_pulse(nsm_sim *s, int k, double a, double fa, double da, double db, double *b,
                        double *fb)
{
    double sg = fa > 0 ? 1 : -1, lo = a, hi = *b, f, d;
    if (!(sg * da < 0 && sg * db > 0))
        return 0;
    for (int it = 0; it < 100 && hi - lo > 1e-15 * (1 + fabs(hi)); it++) {
        double m = 0.5 * (lo + hi);
        s->m->switch_fn(k, m, s->p, s->c, &f, &d);
        if (f == 0 || (f > 0) != (fa > 0)) {
            *b = m;
            *fb = f;
            return 1;
        }
        if (sg * d < 0)
            lo = m;
        else
            hi = m;
    }
    return 0;
}

/* Earliest time-switch crossing in (t0, t1], or at t0 itself when an event
** landed exactly on the switch: index, or -1; time in *ts.
** Switch functions depend on time only, so the root is found by bracketing
** (Illinois) to the last bit, and the step is cut to land on it. */
static int next_switch(nsm_sim *s, double t0, double t1, double *ts)
{
    int best = -1;
    *ts = t1;
    if (!s->m->switch_fn)
        return -1;
    for (int k = 0; k < s->ns; k++) {
        double a = t0, b = t1, fa, fb, da, db;
        if (fabs(t0 - s->sw_last[k]) <= 1e-12 * (1 + fabs(t0))) {
            /* it switched at t0: its next crossing is sought from just
             * after, where the function has left 0 */
            a = t0 + 1e-9 * (t1 - t0);
            if (!(a < t1))
                continue;
        }
        s->m->switch_fn(k, a, s->p, s->c, &fa, &da);
        s->m->switch_fn(k, b, s->p, s->c, &fb, &db);
        if (fa == 0) {
            /* zero at t0 itself (an event landed on the switch): it fires
             * now if its condition already differs just after t0 */
            if (fb != 0 && s->m->switch_state &&
                (s->m->switch_state(k, b, s->p, s->c) != 0) != (s->sw[k] != 0)) {
                *ts = t0;
                best = k;
            }
            continue;
        }
        if ((fa > 0) == (fb > 0) && fb != 0 && !switch_pulse(s, k, a, fa, da, db, &b, &fb))
            continue;
        int side = 0;
        for (int it = 0; it < 200 && fb != 0; it++) {
            double x = fa - fb != 0 ? b - fb * (b - a) / (fb - fa) : 0.5 * (a + b);
            if (!(x > a && x < b))
                x = 0.5 * (a + b);
            if (x == a || x == b)
                break;
            double fx, dx;
            s->m->switch_fn(k, x, s->p, s->c, &fx, &dx);
            if (fx == 0) {
                b = x;
                fb = 0;
                break;
            }
            if ((fx > 0) == (fa > 0)) {
                a = x;
                fa = fx;
                if (side == -1)
                    fb /= 2;
                side = -1;
            } else {
                b = x;
                fb = fx;
                if (side == 1)
                    fa /= 2;
                side = 1;
            }
        }
        if (b < *ts || best < 0) {
            if (b <= *ts) {
                *ts = b;
                best = k;
            }
        }
    }
    return best;
}

/* t + h with the rounding carried in *lo (Knuth's two-sum): a million
** steps of 1e-3 s summed naively end up to 1e-8 s off. */
static double time_add(double t, double h, double *lo)
{
    double y = h + *lo, sum = t + y, bp = sum - t;
    *lo = (t - (sum - bp)) + (y - bp);
    return sum;
}

/* Time switch k, landed on: flip it, log it and settle the contacts under
** the new forcing. */
static int toggle_switch(nsm_sim *s, int k)
{
    s->sw[k] = !s->sw[k];
    s->sw_last[k] = s->t;
    int rc = log_event(s, NSM_EV_TIME, k, 0, 0, 0, 0, 1);
    return rc ? rc : settle(s, s->mode, 0);
}

/* Emit a sample to the sample handler. */
static int sample(nsm_sim *s)
{
    if (s->on_sample && s->on_sample(s->sa_ud, s, s->t))
        return rt_fail(s, NSM_ESTOPPED, -1, "stopped by the sample handler");
    return NSM_OK;
}

/* The exact method does not cut its steps at the sample times: a landing
** off the grid of steps would restart the grid there (see step.c), and the
** rounding of each restart adds up over the samples.  Instead the samples
** inside the step (t0, t1) are states of the step's Taylor expansion
** (events.c), shown to the sample handler and then put back; one within
** 1e-9 every of t1 is taken at the step's end, as a landing would. */
static int side_samples(nsm_sim *s, double t0, double t1)
{
    int N = s->N, rc = NSM_OK;
    double Y0[N], Yk[N], tk;
    if (!s->on_sample && s->sample_k * s->every > t0) {
        /* nobody looks: no state to compute, and the count moves to just
         * short of the step's last sample at once (the loop ends it) */
        double k = floor((t1 - 1e-9 * s->every) / s->every) - 1;
        if (k > (double)s->sample_k)
            s->sample_k = (long)k;
    }
    memcpy(Y0, s->y, sizeof Y0);
    while ((tk = s->sample_k * s->every) < t1 - 1e-9 * s->every && tk > t0) {
        if (!s->on_sample) {
            s->sample_k++;
            continue;
        }
        rt_detect_sample(s, tk - t0, Y0, Yk);
        s->t = tk;
        memcpy(s->y, Yk, sizeof Yk);
        s->sample_k++;
        rc = sample(s);
        s->t = t0;
        memcpy(s->y, Y0, sizeof Y0);
        if (rc)
            return rc;
    }
    return NSM_OK;
}

/* Say text through the warning handler. */
static void warn(nsm_sim *s, const char *text)
{
    if (s->on_warn)
        s->on_warn(s->warn_ud, s, text);
}

/* The step of the current mode: exact, its reach 1/nu (mode.c), at most
** the user's dt; rk4, the user's dt while it resolves the mode's fastest
** motion (rho dt < RT_RK4_REACH), else, and without a dt, its own step
** RT_RK4_OWN/rho (at most 1 ms); adaptive, its trial step up to the user's
** dt and up to RT_DP5_OWN/rho.  rk4 and adaptive never step past 0.9 times the mode's stability
** bound either.  A user's dt cut in a mode is said once per mode.  Leaves
** the mode's step in h_step; returns the step to try, or -1 when the mode
** could not be formed. */
static double step_size(nsm_sim *s)
{
    RtModeInfo *mi = (RtModeInfo *)rt_mode_info(s);
    if (!mi)
        return -1;
    double own = mi->rho > 0 ? RT_RK4_OWN / mi->rho : INFINITY;
    double h, bound = s->method == NSM_METHOD_RK4 ? mi->h_rk4
                    : s->method == NSM_METHOD_ADAPTIVE ? mi->h_dp5 : INFINITY;
    if (s->method == NSM_METHOD_EXACT) {
        h = isfinite(mi->h_exact) ? mi->h_exact : 1.0;
        if (s->dt > 0 && s->dt < h)
            h = s->dt;
    } else if (s->method == NSM_METHOD_RK4) {
        h = s->dt > 0 ? s->dt : fmin(1e-3, own);
        if (s->dt > 0 && mi->rho * s->dt >= RT_RK4_REACH)
            bound = fmin(bound, own / 0.9);
    } else {
        /* the error control weighs positions by their size, not by a
         * contact's penetration: a stiff contact's motion is followed at
         * RT_DP5_OWN/rho at most, whatever the control would allow */
        h = s->dt > 0 ? s->dt : INFINITY;
        if (mi->rho > 0 && h > RT_DP5_OWN / mi->rho && RT_DP5_OWN / mi->rho < 0.9 * bound)
            h = RT_DP5_OWN / mi->rho;
    }
    if (h > 0.9 * bound) {
        if (s->dt > 0 && !mi->warned) {
            char text[600], mode[200];
            rt_mode_text(s, s->mode, mode, sizeof mode);
            snprintf(text, sizeof text,
                     "t = %.9g s, mode %s: fastest eigenvalue %.6g %s %.6gi 1/s (|lambda| up to "
                     "%.6g 1/s); %s is stable for steps up to %.6g s; the step %.6g s is cut to "
                     "%.6g s in this mode",
                     s->t, mode, mi->lam_re, mi->lam_im < 0 ? "-" : "+", fabs(mi->lam_im),
                     mi->rho, nsm_method_name(s->method),
                     s->method == NSM_METHOD_RK4 ? mi->h_rk4 : mi->h_dp5, s->dt, 0.9 * bound);
            warn(s, text);
        }
        mi->warned = 1;
        h = 0.9 * bound;
    }
    s->h_step = h;
    if (s->method == NSM_METHOD_ADAPTIVE)
        return s->h_adapt > 0 && s->h_adapt < h ? s->h_adapt : h;
    return h;
}

/* A balance error beyond the tolerance (relative to the largest energy met;
** the balance is kept at every step where the run keeps its energy
** integrals) stops the run: the motion is no longer the model's. */
static int check_balance(nsm_sim *s)
{
    if (!s->energy)
        return NSM_OK;
    double tol = s->etol >= 0 ? s->etol
               : s->method == NSM_METHOD_EXACT ? 1e-6 : s->method == NSM_METHOD_ADAPTIVE ? 1e-2 : 5e-2;
    double rel = rt_stats_relative_error(s);
    if (tol == 0 || !(rel > tol))
        return NSM_OK;
    return rt_fail(s, NSM_ENUMERIC, -1,
                   "the energy balance is off by %.3g of the largest energy (tolerance %.3g): the "
                   "motion is not the model's; give a smaller --dt or use --method exact",
                   rel, tol);
}

/* Whether this run keeps the energy integrals (dissipated energy and
** external work, y[2n] and y[2n+1]).  rk4 and adaptive integrate them as
** states at little cost and their balance guards the step size.  The exact
** method's propagation conserves the balance by construction (every
** transition's loss is booked in Ejump from the velocities), and its
** integrals are a third of its cost: it keeps them only when the audit is
** on or a sample handler receives an output column that needs them. */
static int keeps_energy(const nsm_sim *s)
{
    if (s->method != NSM_METHOD_EXACT || s->audit)
        return 1;
    if (!s->on_sample)
        return 0;
    for (int k = 0; k < s->m->n_outputs; k++) {
        int kind = s->m->outputs[k].kind;
        if (kind == NSM_OUT_DISSIPATED || kind == NSM_OUT_INJECTED || kind == NSM_OUT_ERROR)
            return 1;
    }
    return 0;
}

/* Advance to time t_end: steps, events, transitions, samples at multiples of
** every (and after every step when every is 0). */
int rt_run(nsm_sim *s, double t_end)
{
    int rc, N = s->N, n = s->n;
    if (s->failed)
        return s->failed;
    if (!(t_end >= s->t) || !isfinite(t_end))
        return NSM_EINVAL;
    if (s->method == NSM_METHOD_EXACT && (rc = rt_exact_check(s, t_end)))
        return rc;
    s->energy = keeps_energy(s);
    if (!s->energy)
        s->energy_lost = 1;
    s->t_stop = t_end;
    if (s->sample_k == 0) {
        s->sample_k = 1;
        if ((rc = sample(s)))
            return rc;
    }
    double Y1[N], Ys[N], tlo = 0;
    int side = s->method == NSM_METHOD_EXACT && s->every > 0;
    while (s->t < t_end) {
        if (s->steps >= s->max_steps)
            return rt_fail(s, NSM_ESTEPS, -1, "step cap of %ld steps reached", s->max_steps);
        double h = step_size(s), target = t_end, ts;
        if (h < 0)
            return s->failed;
        int land = 0;
        if (s->every > 0 && !side) {
            double tk = s->sample_k * s->every;
            if (tk < target - 1e-9 * s->every)
                target = tk;
        }
        if (s->sec && (rc = rt_section_target(s, &target)))
            return rc;
        if (s->t + h >= target) {
            h = target - s->t;
            land = 1;
        }
        int ksw = next_switch(s, s->t, s->t + h, &ts);
        if (ksw >= 0 && ts < s->t + h) {
            h = ts - s->t;
            land = 0;
        }
        if (h <= 0) {
            if (ksw < 0)
                h = 0;
        }
        double hreq = h;
        if (h > 0 && (rc = rt_step(s, s->t, s->y, &h, Y1)))
            return rc == NSM_ENUMERIC && s->failed ? rc : rt_fail(s, rc, -1, "integration step failed");
        if (h != hreq)
            land = 0, ksw = -1;
        if (h <= 0)
            memcpy(Y1, s->y, sizeof Y1);
        s->steps++;
        for (int i = 0; i < N; i++)
            if (!isfinite(Y1[i]))
                return i < 2 * n
                           ? rt_fail(s, NSM_ENUMERIC, -1, "state is not finite (%s of %s)",
                                     i < n ? "position" : "velocity", s->m->body_names[i % n])
                           : rt_fail(s, NSM_ENUMERIC, -1, "state is not finite (energy integral)");
        int j;
        double tau = 0;
        if ((rc = rt_detect(s, s->t, s->y, h, Y1, land && target == t_end, &j, &tau, Ys)))
            return rc;
        if (j < 0 && s->method == NSM_METHOD_EXACT && h > 0)
            rt_detect_sample(s, h, s->y, Y1);   /* the step's energies by its expansion */
        if (j >= 0) {
            int at_switch = ksw >= 0 && tau == h;     /* the event falls on the switch */
            double lo = tlo, t1 = land && tau == h ? target : at_switch ? ts : time_add(s->t, tau, &lo);
            tlo = (land && tau == h) || at_switch ? 0 : lo;
            if (t1 < s->t) {
                t1 = s->t;              /* time never runs back (an event at tau = 0) */
                tlo = 0;
            }
            if (side && (rc = side_samples(s, s->t, t1)))
                return rc;
            if (s->sec && (rc = rt_section_step(s, t1, Ys, j)))
                return rc;
            rt_stats_step(s, t1, Ys);
            s->t = t1;
            if ((rc = check_balance(s)))
                return rc;
            memcpy(s->y, Ys, sizeof Ys);
            if ((rc = transition(s, j)))
                return rc;
            s->jt = s->t;
            s->jg = j;
            if (s->t != t1)
                tlo = 0;            /* a Zeno jump moved the time */
            else if (at_switch && (rc = toggle_switch(s, ksw)))
                return rc;
        } else {
            double lo = tlo, t1 = land ? target : (ksw >= 0 ? ts : time_add(s->t, h, &lo));
            tlo = land || ksw >= 0 ? 0 : lo;
            if (side && (rc = side_samples(s, s->t, t1)))
                return rc;
            if (s->sec && (rc = rt_section_step(s, t1, Y1, -1)))
                return rc;
            rt_stats_step(s, t1, Y1);
            s->t = t1;
            memcpy(s->y, Y1, sizeof Y1);
            if ((rc = check_balance(s)))
                return rc;
            if (ksw >= 0 && s->t == ts && (rc = toggle_switch(s, ksw)))
                return rc;
        }
        if (s->every == 0) {
            if ((rc = sample(s)))
                return rc;
        } else if (s->sample_k * s->every <= s->t + (j < 0 && (land || side) ? 1e-9 * s->every : 0)) {
            s->sample_k++;
            if ((rc = sample(s)))
                return rc;
        }
    }
    return NSM_OK;
}
