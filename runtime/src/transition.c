/*
** transition.c: the transitions between modes.
**
** Every transition ends with settle, which decides by complementarity which
** touching impact gaps are held shut: the force LCP
**     lambda >= 0  _|_  w.a >= 0
** over gaps with zero gap and zero relative velocity.  Impacts solve the
** impulse LCP  P >= 0 _|_ w.v+ + e w.v- >= 0  with  v+ = v- + M^-1 W^T P,
** one collision at a time (impact_sequence).  Events are logged through
** the event log and its rate guard (stats.c).  Nothing here calls up into the Zeno
** handling (zeno.c) or the run loop (run.c): a transition returns what it
** did (RtImpact, and the gaps that stuck or separated, whose impact
** histories the run loop has zeno.c forget).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linalg.h"
#include "rt.h"

/* Whether gap j is an impact gap. */
int rt_is_impact(const nsm_sim *s, int j)
{
    return s->m->gaps[j].law == NSM_LAW_IMPACT;
}

/* Relative normal velocity of gap j at velocities v, now: w_j . v, plus
** the surface's h_j' when it moves (impacts act on this). */
double rt_wdot(const nsm_sim *s, int j, const double *v)
{
    return rt_gap_rate(s, j, s->t, v);
}

/* Relative normal acceleration of gap j for accelerations a, now: w_j . a,
** plus the surface's h_j'' when it moves. */
double rt_wacc(const nsm_sim *s, int j, const double *a)
{
    double r = rt_wrow(s, j, a);
    return s->moving ? r + rt_surface_of(s, j, 2, s->t) : r;
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
static int settle_hold(nsm_sim *s, int j, const unsigned *mode, double tol)
{
    double ev[s->ge + 1], evd[s->ge + 1];
    unsigned m[s->mw];
    rt_mode_copy(s, m, mode);
    rt_mode_add(m, j);
    if (rt_events(s, m, s->t, s->y, ev, evd))
        return 0;
    return ev[j] > tol || (ev[j] >= -tol && evd[j] > 0);
}

/* Decide the closed set of impact gaps by the force LCP over the gaps that
** touch at rest (or are held shut), project the velocities onto it and log
** stick / separation against the mode ref.  Gaps in forced_open stay open
** (a separation just located); gaps in favour (just landed with no closing
** speed) are held shut unless that needs a pull (settle_hold).  The gaps
** that stick or separate are added to *forget: their impact histories are
** to be forgotten by the Zeno detection above (zeno.c).  The sets
** forced_open and favour may be NULL (none); ref may be s->mode itself. */
static int settle_favour(nsm_sim *s, const unsigned *ref_in, const unsigned *forced_open,
                         const unsigned *favour, unsigned *forget)
{
    int n = s->n, g = s->g;
    double *y = s->y, *v = s->y + n, lam[g + 1], vb[g + 1];
    unsigned ref[s->mw], cand[s->mw], closed[s->mw], held[s->mw];
    rt_mode_copy(s, ref, ref_in);
    rt_mode_none(s, cand);
    rt_mode_none(s, closed);
    for (int j = 0; j < g; j++) {
        vb[j] = rt_wdot(s, j, v);
        if (!rt_is_impact(s, j) || (forced_open && rt_mode_has(forced_open, j)))
            continue;
        if (rt_mode_has(s->mode, j) ||
            (fabs(rt_gap(s, j, y)) <= rt_gap_tol(s, j, y) && fabs(vb[j]) <= rt_vel_tol(s, j, v)))
            rt_mode_add(cand, j);
    }
    if (rt_force_lcp(s, s->mode, s->t, y, cand, lam))
        return rt_fail(s, NSM_ENUMERIC, -1, "no solution of the contact force problem");
    double tol = rt_force_tol(s, s->mode, y);
    for (int j = 0; j < g; j++)
        if (rt_mode_has(cand, j) && lam[j] > tol)
            rt_mode_add(closed, j);
    /* the mode tried for a favoured gap: s->mode's penalty and friction
     * states, the impact gaps closed so far */
    rt_mode_copy(s, held, s->mode);
    for (int j = 0; j < g; j++)
        if (rt_is_impact(s, j) && !rt_mode_has(closed, j))
            rt_mode_del(held, j);
    for (int j = 0; favour && j < g; j++)
        if (rt_mode_has(cand, j) && rt_mode_has(favour, j) && !rt_mode_has(closed, j) &&
            settle_hold(s, j, held, tol)) {
            rt_mode_add(closed, j);
            rt_mode_add(held, j);
        }
    double Eb = rt_mech_energy(s, s->mode, y);
    rt_surface_book(s);             /* a moving surface: the impulses so far */
    if (rt_project(s, closed, v))
        return rt_fail(s, NSM_ENUMERIC, -1, "redundant closed contacts");
    for (int j = 0; j < g; j++)
        if (rt_is_impact(s, j)) {
            if (rt_mode_has(closed, j))
                rt_mode_add(s->mode, j);
            else
                rt_mode_del(s->mode, j);
        }
    double lost = Eb - rt_mech_energy(s, s->mode, y);
    s->Ejump += lost;
    lost += rt_surface_book(s);     /* ... and the projection's: what it dissipates */
    for (int j = 0; j < g; j++) {
        int rc = 0;
        if (rt_mode_has(closed, j) && !rt_mode_has(ref, j)) {
            rt_mode_add(forget, j);
            rc = rt_log_event(s, NSM_EV_STICK, j, vb[j], rt_wdot(s, j, v), 0, lost, 1);
            lost = 0;
        } else if (rt_is_impact(s, j) && !rt_mode_has(closed, j) && rt_mode_has(ref, j)) {
            rt_mode_add(forget, j);
            rc = rt_log_event(s, NSM_EV_SEPARATION, j, vb[j], rt_wdot(s, j, v), 0, 0, 1);
        }
        if (rc)
            return rc;
    }
    return NSM_OK;
}

/* settle without favoured gaps: after every transition but a zero-speed
** landing; the gaps that stick or separate added to *forget. */
int rt_settle(nsm_sim *s, const unsigned *ref, const unsigned *forced_open, unsigned *forget)
{
    return settle_favour(s, ref, forced_open, NULL, forget);
}

/* After an impact of gap j (now open): whether its rebound is too small to
** leave the gap's rounding band (height u^2 / 2|a| below the gap tolerance,
** u the relative velocity, a < 0 the relative acceleration pulling it back).
** Such flights cannot be resolved; without a Zeno jump the contact is then
** at rest (plastic). */
int rt_rebound_unresolved(nsm_sim *s, int j)
{
    int n = s->n;
    double Yd[s->N], u = rt_wdot(s, j, s->y + n);
    if (!(u > 0) || rt_deriv(s, s->mode, s->t, s->y, Yd))
        return 0;
    double acc = rt_wacc(s, j, Yd + n);
    return acc < 0 && u * u <= -2 * acc * rt_gap_tol(s, j, s->y);
}

/* Whether gaps a and b act on a common body (an impulse on one moves the
** other). */
static int coupled(const nsm_sim *s, int a, int b)
{
    return rt_gaps_coupled(s, a, b);
}

/* The gaps of cand that an impact of gap j reaches through shared bodies
** (j's connected component): a contact elsewhere, stuck or touching, takes
** no impulse from it and stays out of its impulse problem. */
static void impact_component(const nsm_sim *s, int j, const unsigned *cand, unsigned *comp)
{
    rt_mode_none(s, comp);
    rt_mode_add(comp, j);
    for (int grown = 1; grown;) {
        grown = 0;
        for (int a = 0; a < s->g; a++) {
            if (!rt_mode_has(cand, a) || rt_mode_has(comp, a))
                continue;
            for (int b = 0; b < s->g && !rt_mode_has(comp, a); b++)
                if (rt_mode_has(comp, b) && coupled(s, a, b))
                    rt_mode_add(comp, a), grown = 1;
        }
    }
}

/* The impact gaps of an impulse problem for gap j: j, the contacts shut,
** those in extra and those touching, as far as j reaches them through
** shared bodies; into idx (their count returned, ascending) and *set, with
** every gap's relative velocity in vb. */
int rt_impact_set(nsm_sim *s, int j, const unsigned *extra, double *vb, int *idx, unsigned *set)
{
    const double *y = s->y, *v = s->y + s->n;
    unsigned cand[s->mw];
    int r = 0;
    rt_mode_none(s, cand);
    for (int i = 0; i < s->g; i++) {
        vb[i] = rt_wdot(s, i, v);
        if (rt_is_impact(s, i) && (i == j || rt_mode_has(s->mode, i) || (extra && rt_mode_has(extra, i)) ||
                                fabs(rt_gap(s, i, y)) <= rt_gap_tol(s, i, y)))
            rt_mode_add(cand, i);
    }
    impact_component(s, j, cand, set);
    for (int i = 0; i < s->g; i++)
        if (rt_mode_has(set, i))
            idx[r++] = i;
    return r;
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
#define SEQ_STACK_R 16       /* sequences over at most this many gaps live on the stack */

/* One instant's sequence of collisions over the touching gaps idx[0..r). */
typedef struct Seq {
    int r, *idx;
    int nheld;               /* positions whose gap is held shut: how many, */
    char *held;              /* and which (held[a]) */
    double *D, *u;           /* r*r, r */
    long n;                  /* collisions so far */
    int hg[SEQ_HIST];        /* ring: position hit, its closing speed */
    double hu[SEQ_HIST];
} Seq;

/* The cycle the last collisions of q repeat, or 0: its period p (the
** positions hit repeat p apart over SEQ_PERIODS periods) with the ratio of
** every closing speed to the one a period earlier steady to SEQ_RHO_TOL and
** below 1 (in *rho); the positions of the cycle in *set. */
static int seq_cycle(const Seq *q, double *rho, char *set)
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
        memset(set, 0, (size_t)q->r);
        for (long k = n - p; k < n; k++)
            set[q->hg[k % SEQ_HIST]] = 1;
        return p;
    }
    return 0;
}

/* Apply the impulses P (one per position of q) to v and to u. */
static void seq_apply(nsm_sim *s, Seq *q, const double *P, double *v)
{
    for (int a = 0; a < q->r; a++) {
        if (P[a] == 0)
            continue;
        const RtCsr *W = &s->sp.W;
        for (int k = W->p[q->idx[a]]; k < W->p[q->idx[a] + 1]; k++)
            v[W->i[k]] += s->minv[W->i[k]] * W->x[k] * P[a];
        for (int b = 0; b < q->r; b++)
            q->u[b] += q->D[(size_t)b * q->r + a] * P[a];
    }
}

/* One collision of position a of q: the impulse LCP over a (restitution)
** and the held contacts (none), into P (zero elsewhere). */
static int seq_collide(nsm_sim *s, const Seq *q, int a, double *P)
{
    int r = q->r, sub[r], m = 0;
    for (int b = 0; b < r; b++)
        P[b] = 0;
    if (q->nheld == 0) {
        P[a] = -(1 + s->num.e[q->idx[a]]) * q->u[a] / q->D[(size_t)a * r + a];
        return NSM_OK;
    }
    sub[m++] = a;
    for (int b = 0; b < r; b++)
        if (q->held[b])
            sub[m++] = b;
    double *Dm = malloc(sizeof(double) * ((size_t)m * m + 2 * (size_t)m));
    if (!Dm)
        return rt_fail(s, NSM_ENOMEM, q->idx[a], "out of memory forming the impact problem");
    double *qm = Dm + (size_t)m * m, *z = qm + m;
    for (int x = 0; x < m; x++) {
        for (int y = 0; y < m; y++)
            Dm[(size_t)x * m + y] = q->D[(size_t)sub[x] * r + sub[y]];
        qm[x] = x == 0 ? (1 + s->num.e[q->idx[a]]) * q->u[a] : q->u[sub[x]];
    }
    int bad = nsm_lcp_solve(m, Dm, qm, z, NULL) != NSM_LA_OK;
    for (int x = 0; x < m && !bad; x++)
        P[sub[x]] = z[x];
    free(Dm);
    return bad ? rt_fail(s, NSM_ENUMERIC, q->idx[a], "no solution of the impact problem") : NSM_OK;
}

/* The limit of the cycle set (positions of q) just recognized: the cycle's
** contacts, and the held ones not separating, end with no relative velocity
** (W_C v = 0: D_CC P = -u_C); one zeno record on the gap of the last
** collision, counting the collisions so far. */
static int seq_collapse(nsm_sim *s, Seq *q, const char *set, int last, double *v)
{
    int r = q->r, sub[r], m = 0;
    double P[r];
    memset(P, 0, sizeof P);
    for (int b = 0; b < r; b++)
        if (set[b] || (q->held[b] && q->u[b] <= rt_vel_tol(s, q->idx[b], v)))
            sub[m++] = b;
    double *Dm = malloc(sizeof(double) * ((size_t)m * m + 2 * (size_t)m + 1));
    if (!Dm)
        return rt_fail(s, NSM_ENOMEM, q->idx[last], "out of memory forming the impact problem");
    double *z = Dm + (size_t)m * m, *qm = z + m;
    for (int x = 0; x < m; x++) {
        for (int y = 0; y < m; y++)
            Dm[(size_t)x * m + y] = q->D[(size_t)sub[x] * r + sub[y]];
        z[x] = -q->u[sub[x]];
    }
    if (nsm_la_solve(m, Dm, z, 1) != NSM_LA_OK) {
        /* dependent contacts (a body squeezed between a floor and a
         * ceiling): D_CC is singular, and the impulse problem without
         * restitution, P >= 0 _|_ u + D P >= 0, brings them to rest */
        for (int x = 0; x < m; x++) {
            for (int y = 0; y < m; y++)
                Dm[(size_t)x * m + y] = q->D[(size_t)sub[x] * r + sub[y]];
            qm[x] = q->u[sub[x]];
        }
        if (nsm_lcp_solve(m, Dm, qm, z, NULL) != NSM_LA_OK) {
            free(Dm);
            return rt_fail(s, NSM_ENUMERIC, q->idx[last], "no solution of the collapse's impulse problem");
        }
    }
    for (int x = 0; x < m; x++)
        P[sub[x]] = z[x];
    free(Dm);
    double Eb = rt_mech_energy(s, s->mode, s->y), ub = q->u[last];
    seq_apply(s, q, P, v);
    for (int x = 0; x < m; x++)
        if (q->u[sub[x]] <= rt_vel_tol(s, q->idx[sub[x]], v))
            q->u[sub[x]] = 0;           /* at rest, to rounding */
    double lost = Eb - rt_mech_energy(s, s->mode, s->y);
    s->Ejump += lost;
    return rt_log_exempt(s, NSM_EV_ZENO, q->idx[last], ub, 0, P[last], lost, q->n);
}

/* The touching open position of q closing fastest beyond its velocity
** tolerance (lowest gap index on a tie), or -1. */
static int seq_next(const nsm_sim *s, const Seq *q, const double *v)
{
    int best = -1;
    for (int a = 0; a < q->r; a++) {
        if (q->held[a])
            continue;
        if (q->u[a] < -rt_vel_tol(s, q->idx[a], v) && (best < 0 || q->u[a] < q->u[best]))
            best = a;
    }
    return best;
}

static int seq_run(nsm_sim *s, Seq *q, int j, const int *idx, int exempt1, long *count);

/* Resolve the sequence of collisions at this instant over the touching
** gaps idx[0..r) (j, the landed one, among them), logging each collision
** and each contact held shut that transmits an impulse; the first record
** is exempt from the event-rate guard if exempt1, the others always (a
** sequence at one instant is finite or summed).  *count gets the number of
** collisions. */
static int impact_sequence(nsm_sim *s, int j, const int *idx, int r, int exempt1, long *count)
{
    if (r <= SEQ_STACK_R) {
        /* a few touching gaps (the rule): the sequence on the stack, as the
         * allocations cost more than the impulse problem they hold */
        Seq qs;
        double D[(size_t)r * r + 3 * (size_t)r];
        int ix[r];
        char held[r + 1];
        memset(held, 0, sizeof held);
        qs.r = r;
        qs.D = D;
        qs.u = D + (size_t)r * r;
        qs.idx = ix;
        qs.held = held;
        return seq_run(s, &qs, j, idx, exempt1, count);
    }
    Seq *q = malloc(sizeof *q);     /* not zeroed: seq_run sets the counts, and the
                                     * history rings are read only where written */
    if (q) {
        q->D = malloc(sizeof(double) * ((size_t)r * r + 3 * (size_t)r));
        q->idx = malloc(sizeof(int) * (size_t)r);
        q->held = calloc((size_t)r + 1, 1);
    }
    if (!q || !q->D || !q->idx || !q->held) {
        if (q) {
            free(q->D);
            free(q->idx);
            free(q->held);
        }
        free(q);
        return rt_fail(s, NSM_ENOMEM, j, "out of memory forming the impact problem");
    }
    q->r = r;
    q->u = q->D + (size_t)r * r;
    int rc = seq_run(s, q, j, idx, exempt1, count);
    free(q->D);
    free(q->idx);
    free(q->held);
    free(q);
    return rc;
}

/* impact_sequence's work on its sequence q (allocated, r set): P and ub
** live after u in q->D. */
static int seq_run(nsm_sim *s, Seq *q, int j, const int *idx, int exempt1, long *count)
{
    int n = s->n, r = q->r, rc;
    double *v = s->y + n, y0[2 * n];
    double *P = q->u + r, *ub = P + r;
    char set[r];
    q->n = 0;
    q->nheld = 0;
    memcpy(q->idx, idx, sizeof(int) * (size_t)r);
    rt_delassus(s, idx, r, q->D);
    for (int a = 0; a < r; a++) {
        q->u[a] = rt_wdot(s, idx[a], v);
        if (rt_mode_has(s->mode, idx[a])) {
            q->held[a] = 1;
            q->nheld++;
        }
    }
    for (int a; (a = seq_next(s, q, v)) >= 0;) {
        double E0 = rt_mech_energy(s, s->mode, s->y);
        if (q->n >= SEQ_MAX)
            return rt_fail(s, NSM_EEVENTS, idx[a], "%d impacts at one instant and no end in sight "
                           "(elastic contacts squeezing a body?)", SEQ_MAX);
        if ((rc = seq_collide(s, q, a, P)))
            return rc;
        memcpy(ub, q->u, sizeof(double) * (size_t)r);
        memcpy(y0, s->y, sizeof y0);
        seq_apply(s, q, P, v);
        if (q->nheld == 0)
            q->u[a] = -s->num.e[idx[a]] * ub[a];     /* Newton's law, exactly */
        if (q->nheld == 0 && s->set.method == NSM_METHOD_EXACT && q->n == 0 &&
            seq_next(s, q, v) < 0)
            rt_shadow_impulse(s, idx[a], s->num.e[idx[a]], s->t, y0, s->y);
        s->Ejump += E0 - rt_mech_energy(s, s->mode, s->y);
        q->hg[q->n % SEQ_HIST] = a;
        q->hu[q->n % SEQ_HIST] = ub[a];
        q->n++;
        for (int b = 0; b < r; b++) {
            if (b != a && !(P[b] > 0))
                continue;
            double va = rt_wdot(s, idx[b], v);
            double lost = -P[b] * (ub[b] + va) / 2;
            if (q->n > 1 || b != a || exempt1)
                rc = rt_log_exempt(s, NSM_EV_IMPACT, idx[b], ub[b], va, P[b], lost, 1);
            else
                rc = rt_log_event(s, NSM_EV_IMPACT, idx[b], ub[b], va, P[b], lost, 1);
            if (rc)
                return rc;
        }
        double rho;
        if (s->set.zeno_on && seq_cycle(q, &rho, set)) {
            if ((rc = seq_collapse(s, q, set, a, v)))
                return rc;
        }
    }
    /* what still approaches does so within rounding: at rest, not impacts */
    unsigned rest[s->mw];
    int any = 0;
    rt_mode_none(s, rest);
    for (int a = 0; a < r; a++)
        if (!q->held[a] && q->u[a] < 0) {
            rt_mode_add(rest, idx[a]);
            any = 1;
        }
    if (any) {
        double Eb = rt_mech_energy(s, s->mode, s->y);
        if (rt_project(s, rest, v))
            return rt_fail(s, NSM_ENUMERIC, j, "plastic projection failed");
        s->Ejump += Eb - rt_mech_energy(s, s->mode, s->y);
    }
    *count = q->n;
    return NSM_OK;
}

/* Impact of open impact gap j, first part: the touching gaps it reaches
** (its impulse problem, into im) and whether it is alone among the open
** ones (single) or shares a body with one held shut (held).  A landing with
** no closing speed is no impact: the contact is at rest, settled here
** (im->done); the gaps that stick or separate are added to *forget.  The
** run loop then hands im to the Zeno detection (rt_zeno_track) and on to
** rt_impact_apply. */
int rt_impact_begin(nsm_sim *s, int j, RtImpact *im, unsigned *forget)
{
    int n = s->n;
    double *y = s->y, *v = s->y + n;
    /* the caller's storage: ref and set (mw words), idx and vb (g) */
    unsigned *ref = im->ref, *set = im->set;
    int *idx = im->idx;
    double *vb = im->vb;
    memset(im, 0, sizeof *im);
    im->ref = ref, im->set = set, im->idx = idx, im->vb = vb;
    im->j = j;
    rt_mode_copy(s, im->ref, s->mode);
    im->r = rt_impact_set(s, j, NULL, im->vb, im->idx, im->set);
    if (im->vb[j] >= -rt_vel_tol(s, j, v)) {
        /* landed with the gap leaving 0 by a bounce smaller than the gap's
         * rounding, or closing slower than the velocity tolerance (a contact
         * just released, whose residual velocity is rounding; or carried
         * into the gap by its support with no closing speed): the contact
         * is at rest; remove the residual relative velocity (plastic), and
         * hold it shut unless that needs a pull */
        double Eb = rt_mech_energy(s, s->mode, y);
        unsigned one[s->mw];
        rt_mode_none(s, one);
        rt_mode_add(one, j);
        im->done = 1;
        if (rt_project(s, one, v))
            return rt_fail(s, NSM_ENUMERIC, j, "plastic projection failed");
        s->Ejump += Eb - rt_mech_energy(s, s->mode, y);
        return settle_favour(s, ref, NULL, one, forget);
    }
    /* single: j is the only open contact it touches (the others of the
     * problem are shut); held: one of those shares a body with j */
    im->single = 1;
    for (int a = 0; a < im->r; a++)
        if (im->idx[a] != j) {
            if (!rt_mode_has(ref, im->idx[a]))
                im->single = 0;
            else if (coupled(s, im->idx[a], j))
                im->held = 1;
        }
    return NSM_OK;
}

/* Impact, second part: the sequence of collisions over the gaps of im
** (impact_sequence), its first record exempt from the event-rate guard as
** the Zeno detection said (im->exempt); single stays only if it took one
** collision.  With friction on j and j alone in its impulse problem, the
** frictional impact law instead (friction.c, one collision). */
int rt_impact_apply(nsm_sim *s, RtImpact *im)
{
    int rc, frictional;
    if ((rc = rt_fric_impulse(s, im->j, im->idx, im->r, im->exempt, &frictional)))
        return rc;
    im->count = 1;
    if (!frictional && (rc = impact_sequence(s, im->j, im->idx, im->r, im->exempt, &im->count)))
        return rc;
    im->single = im->single && im->count == 1;
    return NSM_OK;
}

/* Impact, last part, when the Zeno handling did not end it: every contact
** of the sequence whose rebound cannot leave the rounding band ends at rest
** (j's too, unless a cascade of j alone goes on), then settle; the gaps
** that stick or separate are added to *forget. */
int rt_impact_end(nsm_sim *s, const RtImpact *im, unsigned *forget)
{
    int n = s->n, j = im->j, r = im->r, cascade = im->cascade, held = im->held,
        single = im->single;
    const int *idx = im->idx;
    double *y = s->y, *v = s->y + n;
    const unsigned *ref = im->ref;
    /* every contact of the sequence whose rebound cannot leave the rounding
     * band ends at rest (j's too, unless a cascade of j alone goes on) */
    unsigned plastic[s->mw];
    int any = 0;
    rt_mode_none(s, plastic);
    for (int a = 0; a < r; a++)
        if (!rt_mode_has(ref, idx[a]) && (idx[a] != j || !cascade || held || !single) &&
            rt_rebound_unresolved(s, idx[a])) {
            rt_mode_add(plastic, idx[a]);
            any = 1;
        }
    if (any) {
        double Eb2 = rt_mech_energy(s, s->mode, y);
        if (rt_project(s, plastic, v))
            return rt_fail(s, NSM_ENUMERIC, j, "plastic projection failed");
        s->Ejump += Eb2 - rt_mech_energy(s, s->mode, y);
    }
    return rt_settle(s, ref, NULL, forget);
}

/* The transition of gap j, but for the impact of an open impact gap (the
** run loop's impact: rt_impact_begin and on): a separation of an impact
** gap, or a penalty contact's engagement or release; the gaps that stick or
** separate (j's separation too) are added to *forget. */
int rt_transition_gap(nsm_sim *s, int j, unsigned *forget)
{
    unsigned bit[s->mw], ref[s->mw];
    const double *v = s->y + s->n;
    int closed = rt_mode_has(s->mode, j), rc;
    rt_mode_none(s, bit);
    rt_mode_add(bit, j);
    rt_mode_copy(s, ref, s->mode);
    if (s->m->gaps[j].law == NSM_LAW_IMPACT) {
        rt_mode_del(s->mode, j);
        rt_mode_add(forget, j);
        if ((rc = rt_log_event(s, NSM_EV_SEPARATION, j, rt_wdot(s, j, v), rt_wdot(s, j, v), 0, 0, 1)))
            return rc;
        return rt_settle(s, s->mode, bit, forget);
    }
    double Eb = rt_mech_energy(s, s->mode, s->y);
    rt_mode_flip(s->mode, j);
    double lost = Eb - rt_mech_energy(s, s->mode, s->y);
    s->Ejump += lost;
    rc = rt_log_event(s, closed ? NSM_EV_CONTACT_EXIT : NSM_EV_CONTACT_ENTER, j, rt_wdot(s, j, v),
                   rt_wdot(s, j, v), 0, lost, 1);
    if (rc)
        return rc;
    rt_mode_del(ref, j);
    return rt_settle(s, ref, NULL, forget);
}

/* Initial mode at t = 0, first part: penalty gaps penetrated (or touching
** and closing) are engaged, touching impact gaps at rest are closed if the
** force LCP says so (the gaps that stick added to *forget); the run loop's
** rt_initial_mode then gives touching impact gaps closing their impact. */
int rt_initial_contacts(nsm_sim *s, unsigned *forget)
{
    int n = s->n;
    const double *y = s->y, *v = s->y + n;
    rt_mode_none(s, s->mode);
    for (int j = 0; j < s->g; j++) {
        double gap = rt_gap(s, j, y), tol = rt_gap_tol(s, j, y), wv = rt_wdot(s, j, v);
        if (s->m->gaps[j].law == NSM_LAW_PENALTY) {
            double f = rt_pen_force(s, j, -gap, -wv);
            int on = s->m->gaps[j].release == NSM_RELEASE_GAP ? (gap < -tol || (gap <= tol && wv < 0))
                                                              : (gap <= tol && f > 0);
            if (on)
                rt_mode_add(s->mode, j);
        } else if (gap < -tol) {
            return rt_fail(s, NSM_EMODEL, j, "initial state penetrates the gap (gap = %.6g)", gap);
        }
    }
    unsigned none[s->mw];
    rt_mode_none(s, none);
    return rt_settle(s, none, NULL, forget);
}
