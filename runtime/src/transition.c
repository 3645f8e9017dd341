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
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "law.h"
#include "linalg.h"
#include "rt.h"

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


/* The contact force of gap j shut in mode m a little after now, for a
** force that is zero with a zero rate now (settle_hold): from the state
** carried along m's motion to first order over d, 1e-3 of the step (1e-6 s
** at rk4's 1 ms: far enough that a force growing like t^2 is beyond its
** rounding, near enough that its first nonzero derivative decides); minus
** its rounding there.  Its sign says whether the contact starts to push
** (> 0) or to pull; 0 when it stays zero or cannot be evaluated. */
static double settle_later(nsm_sim *s, int j, const unsigned *m)
{
    int N = s->n_state;
    double Yd[N], Y1[N], ev[s->n_events + 1], evd[s->n_events + 1], sb[s->n_vel + 1];
    double d = 1e-3 * (isfinite(s->h_step) && s->h_step > 0 ? s->h_step : 1e-3);
    if (rt_deriv(s, m, s->t, s->y, Yd))
        return 0;
    for (int i = 0; i < N; i++)
        Y1[i] = s->y[i] + d * Yd[i];
    if (rt_events(s, m, s->t + d, Y1, ev, evd))
        return 0;
    rt_force_scales_at(s, m, s->t + d, Y1, sb);
    double lam = ev[j] - rt_gap_force_tol(s, j, sb);
    return lam > 0 ? lam : (ev[j] < 0 ? ev[j] : 0);
}

/* Whether touching gap j, which the force LCP leaves open with no force
** (lambda_j within rounding of 0), is to be held shut all the same: free
** flight has just carried it into the gap with no closing speed (a zero-speed
** landing), or it starts at rest on its contact, so it is a persistent
** contact unless holding it shut needs a pull.  The contact force of j in
** the mode with j shut decides: held when it is positive beyond rounding, or
** zero to rounding and growing (lambda_j' > 0, a support that starts to
** push, like a sprung table under a resting ball), or, at the run's start
** (later), zero with a zero rate and positive a little later (settle_later:
** a press -P (1 - cos t) from t = 0, whose force grows like t^2; not at a
** landing, where a force that oscillates faster than the look-ahead, a
** forcing at 1e300 rad/s, held and released a contact at one instant for
** ever).  A force zero and not growing
** (touching bodies with no force between them, a contact just released)
** leaves it open. */
static int settle_hold(nsm_sim *s, int j, const unsigned *mode, double tol, int later)
{
    double ev[s->n_events + 1], evd[s->n_events + 1];
    unsigned m[s->mode_words];
    rt_mode_copy(s, m, mode);
    rt_mode_add(m, j);
    if (rt_events(s, m, s->t, s->y, ev, evd) || !isfinite(ev[j]) || !isfinite(evd[j]))
        return 0;                   /* equations out of range: the step says so */
    if (ev[j] > tol || (ev[j] >= -tol && evd[j] > 0))
        return 1;
    return later && ev[j] >= -tol && evd[j] == 0 && settle_later(s, j, m) > 0;
}

/* Gap j held shut at closing speed vb, which its velocity tolerance called
** zero (rel: the tolerance's relative part at vb's velocities): refused
** when only the tolerance's absolute floor did, in a run slower than that
** floor (rt_stats_floor_decision), and the flight the rest suppresses,
** vb^2/(2 a) against the largest acceleration a the forces on its bodies
** give along it (rt_gap_accel_scale), would leave the gap's band (a ball
** at rest under gravity closing at 1e-300 m/s rests rightly; a mass pushed
** by 2e-13 N onto an elastic wall at 2e-13 m/s would rise 1e-13 m, however
** strong a gravity across the wall). */
static int floor_stick(nsm_sim *s, int j, double vb, double rel)
{
    double D = rt_delassus_entry(s, j, j), a = rt_gap_accel_scale(s, j);
    if (!(D > 0) || !(vb * vb > 2 * a * rt_gap_tol(s, j, s->y)))
        return NSM_OK;      /* no mass to move, or its flight within the gap's band: rest is right */
    return rt_stats_floor_decision(s, j, vb, rel, D);
}

/* Decide the closed set of impact gaps by the force LCP over the gaps that
** touch at rest (or are held shut), project the velocities onto it and log
** stick / separation against the mode ref.  Gaps in forced_open stay open
** (a separation just located); gaps in favour (just landed with no closing
** speed) are held shut unless that needs a pull (settle_hold).  The gaps
** that stick or separate are added to *forget: their impact histories are
** to be forgotten by the Zeno detection above (zeno.c).  The sets
** forced_open and favour may be NULL (none); ref may be s->mode itself;
** later: the run's start (settle_hold looks a little ahead). */
static int settle_favour(nsm_sim *s, const unsigned *ref_in, const unsigned *forced_open,
                         const unsigned *favour, unsigned *forget, int later)
{
    int g = s->n_gaps;
    double *y = s->y, *v = s->y + s->n_pos, lam[g + 1], vb[g + 1], rel[g + 1];
    unsigned ref[s->mode_words], cand[s->mode_words], closed[s->mode_words], held[s->mode_words];
    rt_mode_copy(s, ref, ref_in);
    rt_mode_none(s, cand);
    rt_mode_none(s, closed);
    for (int j = 0; j < g; j++) {
        vb[j] = rt_wdot(s, j, v);
        rel[j] = rt_vel_tol(s, j, v) - RT_VEL_FLOOR;
        if (!rt_law_impacts(s, j) || (forced_open && rt_mode_has(forced_open, j)))
            continue;
        if (rt_mode_has(s->mode, j) ||
            (fabs(rt_gap(s, j, y)) <= rt_gap_tol(s, j, y) && fabs(vb[j]) <= rt_vel_tol(s, j, v)))
            rt_mode_add(cand, j);
    }
    if (rt_force_lcp(s, s->mode, s->t, y, cand, lam))
        return rt_fail(s, NSM_ENUMERIC, -1, "no solution of the contact force problem");
    double sb[s->n_vel + 1];        /* each contact's force rounding: its own bodies' */
    rt_force_scales(s, s->mode, y, sb);
    for (int j = 0; j < g; j++)
        if (rt_mode_has(cand, j) && lam[j] > rt_gap_force_tol(s, j, sb))
            rt_mode_add(closed, j);
    /* the mode tried for a favoured gap: s->mode's penalty and friction
     * states, the impact gaps closed so far */
    rt_mode_copy(s, held, s->mode);
    for (int j = 0; j < g; j++)
        if (rt_law_impacts(s, j) && !rt_mode_has(closed, j))
            rt_mode_del(held, j);
    for (int j = 0; favour && j < g; j++)
        if (rt_mode_has(cand, j) && rt_mode_has(favour, j) && !rt_mode_has(closed, j) &&
            settle_hold(s, j, held, rt_gap_force_tol(s, j, sb), later)) {
            rt_mode_add(closed, j);
            rt_mode_add(held, j);
        }
    double Eb = rt_mech_energy(s, s->mode, y);
    rt_surface_book(s);             /* a moving surface: the impulses so far */
    if (rt_project(s, closed, v))
        return rt_fail(s, NSM_ENUMERIC, -1, "redundant closed contacts");
    for (int j = 0; j < g; j++)
        if (rt_law_impacts(s, j)) {
            if (rt_mode_has(closed, j))
                rt_state_mode_add(s, j);
            else
                rt_state_mode_del(s, j);
        }
    double lost = Eb - rt_mech_energy(s, s->mode, y);
    rt_transition_loss_add(s, lost);
    lost += rt_surface_book(s);     /* ... and the projection's: what it dissipates */
    for (int j = 0; j < g; j++) {
        int rc = 0;
        if (rt_mode_has(closed, j) && !rt_mode_has(ref, j)) {
            rt_mode_add(forget, j);
            if ((rc = floor_stick(s, j, vb[j], rel[j])))
                return rc;
            rc = rt_log_event(s, NSM_EV_STICK, j, vb[j], rt_wdot(s, j, v), 0, lost, 1);
            lost = 0;
        } else if (rt_law_impacts(s, j) && !rt_mode_has(closed, j) && rt_mode_has(ref, j)) {
            rt_mode_add(forget, j);
            rc = rt_log_event(s, NSM_EV_SEPARATION, j, vb[j], rt_wdot(s, j, v), 0, 0, 1);
        }
        if (rc)
            return rc;
    }
    return NSM_OK;
}

/* settle after every transition but a zero-speed landing, the contacts
** held shut before favoured: one whose force is zero to rounding and
** growing stays shut (a press that starts at 0 at the instant a friction
** element starts to slip: released there, it landed again at once); the
** gaps that stick or separate added to *forget. */
int rt_settle(nsm_sim *s, const unsigned *ref, const unsigned *forced_open, unsigned *forget)
{
    unsigned held[s->mode_words];
    rt_mode_copy(s, held, s->mode);
    return settle_favour(s, ref, forced_open, held, forget, 0);
}

/* Whether gap j's rebound is too small to leave its rounding band, given
** the derivative Yd of the current state (height u^2 / 2|a| below the gap
** tolerance, u the relative velocity, a < 0 the relative acceleration
** pulling it back).  The caller computes Yd once for all the gaps it asks
** about in one state: the check over an impact's contacts is then linear in
** their number, not quadratic. */
static int rebound_unresolved_in(nsm_sim *s, int j, const double *Yd)
{
    double u = rt_wdot(s, j, s->y + s->n_pos);
    if (!(u > 0))
        return 0;
    double acc = rt_wacc(s, j, Yd + s->n_pos);
    return acc < 0 && u * u <= -2 * acc * rt_gap_tol(s, j, s->y);
}

/* After an impact of gap j (now open): whether its rebound is too small to
** leave the gap's rounding band (rebound_unresolved_in).  Such flights
** cannot be resolved; without a Zeno jump the contact is then at rest
** (plastic). */
int rt_rebound_unresolved(nsm_sim *s, int j)
{
    double Yd[s->n_state];
    if (!(rt_wdot(s, j, s->y + s->n_pos) > 0) || rt_deriv(s, s->mode, s->t, s->y, Yd))
        return 0;
    return rebound_unresolved_in(s, j, Yd);
}

/* Whether gaps a and b act on a common body (an impulse on one moves the
** other). */
static int coupled(const nsm_sim *s, int a, int b)
{
    return rt_gaps_coupled(s, a, b);
}

/* The impact gaps of an impulse problem for gap j: j, the contacts shut,
** those in extra and those touching, as far as j reaches them through
** shared bodies; into idx (their count returned, ascending) and *set, with
** every gap's relative velocity in vb. */
int rt_impact_set(nsm_sim *s, int j, const unsigned *extra, double *vb, int *idx, unsigned *set)
{
    const double *y = s->y, *v = s->y + s->n_pos;
    int c = 0;
    for (int i = 0; i < s->n_gaps; i++) {
        vb[i] = rt_wdot(s, i, v);
        if (rt_law_impacts(s, i) && (i == j || rt_mode_has(s->mode, i) || (extra && rt_mode_has(extra, i)) ||
                                fabs(rt_gap(s, i, y)) <= rt_gap_tol(s, i, y)))
            idx[c++] = i;
    }
    /* j's cluster among the candidates (a contact elsewhere, stuck or
     * touching, takes no impulse from it), filtered in place */
    int r = rt_gap_component(s, j, idx, c, idx);
    rt_mode_none(s, set);
    for (int a = 0; a < r; a++)
        rt_mode_add(set, idx[a]);
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
#define SEQ_PERIODS 3        /* periods of a cycle compared */
#define SEQ_DEFER_MAX 100000 /* limits declined for another closing contact, an instant */
#define SEQ_DEFER_TOL 1       /* ... closing beyond this many times its velocity tolerance
                              * (it was 1000: a contact closing below that, summed after
                              * the cycle, left the train's velocities 1e-4 m/s off the
                              * sequence's own) */
#define SEQ_MAXP 96          /* longest cycle looked for, in collisions */
#define SEQ_HIST (SEQ_PERIODS * SEQ_MAXP)
#define SEQ_RHO_TOL 1e-6     /* steadiness of the cycle's ratio */
#define SEQ_CONTRACT_MIN 64 /* collisions before a contraction without a cycle is looked for */
#define SEQ_CONTRACT_TOL 0.25 /* steadiness of its ratio, relative to 1 - ratio */
#define SEQ_CONTRACT_DROP 1e-2 /* how far its speeds must have fallen already */
#define SEQ_CONTRACT_EVERY 8  /* collisions between two looks */
#define SEQ_RESYNC_MAX 8      /* readings of the bodies' velocities once a sequence ends */
#define SEQ_SMALL 32         /* up to this many gaps a collision's energy loss is the
                              * difference of the mechanical energies (as it always was);
                              * above, the kinetic energy's change at the collision's
                              * contacts, sum P (u- + u+) / 2, which costs O(1) */

/* One instant's impulse problem over the touching gaps idx[0..r) (ascending),
** in sparse form: position a's coupled positions (those sharing a body,
** itself included) are nb[np[a] .. np[a+1]), with the Delassus entries
** D(b, a) of column a in nd; the diagonal D(a, a) in dd[a]. */
typedef struct RtSeq {
    int r, *idx;
    int nheld;               /* positions whose gap is held shut: how many, */
    char *held;              /* and which (held[a]) */
    int *hl;                 /* their list, ascending */
    int *np, *nb;
    double *nd, *dd, *u;     /* u: relative normal velocities W v (+ h') */
    double *P, *ub;          /* a collision's impulses and velocities before it, */
    int *sub, nsub;          /* at the positions sub[0 .. nsub) (P zero elsewhere) */
    int *heap, *hpos, hn;    /* the positions closing beyond their tolerance, by u */
    char *set;               /* a cycle's positions (seq_cycle) */
    long n;                  /* collisions so far */
    long next_look;          /* no contraction looked for before this collision */
    double umax;             /* the largest closing speed of the sequence */
    long deferred;           /* limits declined for a contact closing outside them */
    int hg[SEQ_HIST];        /* ring: position hit, its closing speed */
    double hu[SEQ_HIST];
    /* the arrays' storage, kept in the simulation between sequences and
     * grown when a sequence needs more (an impact then allocates nothing);
     * freed with the simulation (rt_seq_free) */
    void *ibuf, *ubuf, *nbbuf, *ndbuf;
    size_t icap, ucap, nbcap, ndcap;  /* their sizes in bytes */
} Seq;

/* Free the impact sequences' storage kept in the simulation (seq_new). */
void rt_seq_free(nsm_sim *s)
{
    Seq *q = s->impact_seq;
    if (!q)
        return;
    free(q->ibuf);
    free(q->ubuf);
    free(q->nbbuf);
    free(q->ndbuf);
    free(q);
    s->impact_seq = NULL;
}

/* Make *buf hold at least n bytes (its size *cap), keeping it when it does
** already: the sequences' arrays are reused from one impact to the next;
** NULL when out of memory. */
static void *seq_grow(void **buf, size_t *cap, size_t n)
{
    if (n <= *cap)
        return *buf;
    void *p = realloc(*buf, n);
    if (!p)
        return NULL;
    *buf = p;
    *cap = n;
    return p;
}

/* The storage of q's cnt coupled entries: ints nb, then chars held and
** set (r + 1 each), and doubles nd; -1 when out of memory. */
static int seq_entries(Seq *q, size_t cnt)
{
    q->nb = seq_grow(&q->nbbuf, &q->nbcap, sizeof(int) * (cnt + 1) + 2 * ((size_t)q->r + 1));
    q->nd = seq_grow(&q->ndbuf, &q->ndcap, sizeof(double) * (cnt + 1));
    if (!q->nb || !q->nd)
        return -1;
    q->held = (char *)(q->nb + cnt + 1);
    q->set = NULL;
    return 0;
}

/* seq_couple for a single touching gap whose row of W is not empty (or a
** dense M(q)): its one coupled position is itself, with its Delassus
** entry, the same as seq_couple gives without the bodies' lists (most
** impacts: a body against one stop).  1 when done, 0 when seq_couple is
** needed, -1 when out of memory. */
static int seq_couple_one(nsm_sim *s, Seq *q)
{
    const RtCsr *W = &s->sp.W;
    int i = q->idx[0];
    if (q->r != 1 || (!rt_mass_dense(s) && W->p[i + 1] == W->p[i]))
        return 0;
    if (seq_entries(q, 1) < 0)
        return -1;
    q->np[0] = 0;
    q->np[1] = 1;
    q->nb[0] = 0;
    q->nd[0] = q->dd[0] = rt_delassus_entry(s, i, i);
    return 1;
}

/* The coupled positions of each position of q over its touching gaps
** (np, nb) and their Delassus entries (nd, dd), from the bodies' lists of
** gaps (a counting sort into bstart, of the bodies' n + 1 starts and the
** nnzw entries of the rows after it); -1 when out of memory. */
static int seq_couple(nsm_sim *s, Seq *q, int *bstart, size_t nnzw)
{
    const RtCsr *W = &s->sp.W;
    const int *idx = q->idx;
    int n = s->n_vel, r = q->r, *blist = bstart + n + 1, *mark = blist + nnzw;
    /* each body's positions (counting sort) */
    memset(bstart, 0, sizeof(int) * ((size_t)n + 1));
    for (int a = 0; a < r; a++)
        for (int k = W->p[idx[a]]; k < W->p[idx[a] + 1]; k++)
            bstart[W->i[k] + 1]++;
    for (int i = 0; i < n; i++)
        bstart[i + 1] += bstart[i];
    for (int a = 0; a < r; a++)
        for (int k = W->p[idx[a]]; k < W->p[idx[a] + 1]; k++)
            blist[bstart[W->i[k]]++] = a;
    for (int i = n; i > 0; i--)
        bstart[i] = bstart[i - 1];
    bstart[0] = 0;
    /* the coupled positions of each position, twice: count, then fill */
    for (int pass = 0; pass < 2; pass++) {
        size_t cnt = 0;
        for (int a = 0; a < r; a++)
            mark[a] = -1;
        for (int a = 0; a < r; a++) {
            if (pass == 0)
                q->np[a] = (int)cnt;
            /* a dense M(q) couples every pair: one pass over all positions */
            int all = rt_mass_dense(s), k1 = all ? 1 : W->p[idx[a] + 1];
            for (int k = all ? 0 : W->p[idx[a]]; k < k1; k++)
                for (int t = all ? 0 : bstart[W->i[k]]; t < (all ? r : bstart[W->i[k] + 1]); t++) {
                    int b = all ? t : blist[t];
                    if (mark[b] == a)
                        continue;
                    mark[b] = a;
                    if (pass == 1) {
                        q->nb[cnt] = b;
                        q->nd[cnt] = rt_delassus_entry(s, idx[b], idx[a]);
                        if (b == a)
                            q->dd[a] = q->nd[cnt];   /* the same entry */
                    }
                    cnt++;
                }
        }
        if (pass == 0) {
            q->np[r] = (int)cnt;
            if (seq_entries(q, cnt) < 0)
                return -1;
        }
    }
    return 0;
}


/* The sparse impulse problem over the touching gaps idx[0..r): the
** positions coupled through a body, found from the bodies' lists of gaps
** (O(the rows' nonzeros times the gaps per body), never r x r), their
** Delassus entries, the held positions and the velocities; NULL when out of
** memory. */
static Seq *seq_new(nsm_sim *s, const int *idx, int r)
{
    const RtCsr *W = &s->sp.W;
    int n = s->n_vel;
    /* zeroed up to the collision rings: they are read only where written
     * (the last collisions, k < n), and clearing their 3.5 kB took a third
     * of an impact's cost on a single-contact model */
    Seq *q = s->impact_seq;
    if (!q) {
        /* not calloc: the rings need no clearing (above), and clearing them
         * was most of a simulation's first impact on a small model */
        q = malloc(sizeof *q);
        if (!q)
            return NULL;
        q->ibuf = q->ubuf = q->nbbuf = q->ndbuf = NULL;
        q->icap = q->ucap = q->nbcap = q->ndcap = 0;
        s->impact_seq = q;
    }
    memset(q, 0, offsetof(Seq, hg));
    q->r = r;
    /* ints: idx, hl, np (r+1), heap, hpos, sub, body counts (n+1), body lists, mark */
    size_t nnzw = 0;
    for (int a = 0; a < r; a++)
        nnzw += (size_t)(W->p[idx[a] + 1] - W->p[idx[a]]);
    q->idx = seq_grow(&q->ibuf, &q->icap, sizeof(int) * (7 * (size_t)r + (size_t)n + 3 + nnzw));
    q->u = seq_grow(&q->ubuf, &q->ucap, sizeof(double) * (4 * (size_t)r + 1));
    if (!q->idx || !q->u)
        return NULL;
    q->hl = q->idx + r;
    q->np = q->hl + r;
    q->heap = q->np + r + 1;
    q->hpos = q->heap + r;
    q->sub = q->hpos + r;
    int *bstart = q->sub + r, one;
    q->dd = q->u + r;
    q->P = q->dd + r;
    q->ub = q->P + r;
    memcpy(q->idx, idx, sizeof(int) * (size_t)r);
    if ((one = seq_couple_one(s, q)) < 0 || (!one && seq_couple(s, q, bstart, nnzw) < 0))
        return NULL;
    const double *v = s->y + s->n_pos;
    for (int a = 0; a < r; a++) {
        q->u[a] = rt_wdot(s, idx[a], v);
        q->P[a] = 0;
        q->hpos[a] = -1;
        q->held[a] = (char)rt_mode_has(s->mode, idx[a]);
        if (q->held[a])
            q->hl[q->nheld++] = a;
    }
    return q;
}

/* Whether position a goes before position b: the faster closing (more
** negative u), the lower gap index on a tie (positions are ascending). */
static int seq_before(const Seq *q, int a, int b)
{
    return q->u[a] < q->u[b] || (q->u[a] == q->u[b] && a < b);
}

/* Swap heap slots i and k. */
static void heap_swap(Seq *q, int i, int k)
{
    int t = q->heap[i];
    q->heap[i] = q->heap[k];
    q->heap[k] = t;
    q->hpos[q->heap[i]] = i;
    q->hpos[q->heap[k]] = k;
}

/* Restore the heap order around slot i (up, then down). */
static void heap_fix(Seq *q, int i)
{
    while (i > 0 && seq_before(q, q->heap[i], q->heap[(i - 1) / 2])) {
        heap_swap(q, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
    for (;;) {
        int l = 2 * i + 1, m = i;
        if (l < q->hn && seq_before(q, q->heap[l], q->heap[m]))
            m = l;
        if (l + 1 < q->hn && seq_before(q, q->heap[l + 1], q->heap[m]))
            m = l + 1;
        if (m == i)
            return;
        heap_swap(q, i, m);
        i = m;
    }
}

/* Position a after its u or its bodies' velocities changed: in the heap
** when it is open and closes faster than its velocity tolerance (the
** candidates of the next collision), out of it otherwise.  O(log r). */
static void seq_touch(const nsm_sim *s, Seq *q, int a)
{
    const double *v = s->y + s->n_pos;
    int in = !q->held[a] && q->u[a] < -rt_vel_tol(s, q->idx[a], v), i = q->hpos[a];
    if (in && i < 0) {
        q->heap[q->hn] = a;
        q->hpos[a] = q->hn++;
        heap_fix(q, q->hn - 1);
    } else if (in) {
        heap_fix(q, i);
    } else if (i >= 0) {
        q->hpos[a] = -1;
        if (i < --q->hn) {
            q->heap[i] = q->heap[q->hn];
            q->hpos[q->heap[i]] = i;
            heap_fix(q, i);
        }
    }
}

/* The next collision: the touching open position closing fastest beyond
** its velocity tolerance (the lowest gap index on a tie), or -1. */
static int seq_next(const Seq *q)
{
    return q->hn > 0 ? q->heap[0] : -1;
}

/* The cycle the last collisions of q repeat, or 0: its period p (the
** positions hit repeat p apart over SEQ_PERIODS periods) with the ratio of
** every closing speed to the one a period earlier steady to SEQ_RHO_TOL (in
** *rho: below 1, a collapse; 1 or more, a sequence that never ends); the
** positions of the cycle in *set. */
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
        if (!ok || hi - lo > SEQ_RHO_TOL * hi)
            continue;
        *rho = hi;
        memset(set, 0, (size_t)q->r);
        for (long k = n - p; k < n; k++)
            set[q->hg[k % SEQ_HIST]] = 1;
        return p;
    }
    return 0;
}

/* Whether the last SEQ_PERIODS blocks of L collisions of q (the ring,
** L <= SEQ_MAXP) hit the same positions, marked in set (set is all 0 on
** entry and holds that set on a true return, all 0 again otherwise), and
** the largest closing speed of each block is below the one before by a
** steady ratio (the two ratios within SEQ_CONTRACT_TOL of each other's
** shortfall from 1).  O(L): only the ring's entries are visited. */
static int seq_blocks_contract(const Seq *q, int L, char *set)
{
    double M[SEQ_PERIODS];
    long n = q->n, first = n - (long)SEQ_PERIODS * L;
    int want = 0, ok = 1;
    for (long k = n - L; k < n; k++)
        if (!set[q->hg[k % SEQ_HIST]]) {
            set[q->hg[k % SEQ_HIST]] = 1;
            want++;
        }
    for (int b = 0; b < SEQ_PERIODS && ok; b++) {
        long k0 = first + (long)b * L;
        int hits = 0;
        M[b] = 0;
        for (long k = k0; k < k0 + L && ok; k++) {
            int a = q->hg[k % SEQ_HIST];
            ok = set[a] != 0;           /* a contact outside the last block's set */
            if (ok && set[a] == 1) {
                set[a] = 2;
                hits++;
            }
            M[b] = fmax(M[b], fabs(q->hu[k % SEQ_HIST]));
        }
        for (long k = n - L; k < n; k++)
            set[q->hg[k % SEQ_HIST]] = 1;
        ok = ok && hits == want;        /* every contact of the set in every block */
    }
    double r1 = ok ? M[1] / M[0] : 2, r2 = ok ? M[2] / M[1] : 2;
    ok = r1 < 1 && r2 < 1 && fabs(r2 - r1) <= SEQ_CONTRACT_TOL * (1 - fmax(r1, r2)) &&
         M[2] <= SEQ_CONTRACT_DROP * q->umax;
    if (!ok)
        for (long k = n - L; k < n; k++)
            set[q->hg[k % SEQ_HIST]] = 0;
    return ok;
}

/* A sequence at one instant that contracts geometrically without a cycle
** (seq_cycle): beads of a plastic train colliding in an order that never
** repeats.  Looked for every SEQ_CONTRACT_EVERY collisions once the
** sequence is SEQ_CONTRACT_MIN long and not before q->next_look (set after
** a declined limit): its last blocks of L = 2 d collisions (d the contacts
** hit in the last SEQ_MAXP / 2, so that every contact of the set collides
** in each block) are compared (seq_blocks_contract), and the closing speeds
** must have fallen below SEQ_CONTRACT_DROP of the sequence's largest.  True
** with the set's positions in set (1), which is otherwise left all 0. */
static int seq_contract(Seq *q, char *set)
{
    long n = q->n;
    if (n < SEQ_CONTRACT_MIN || n < q->next_look || n % SEQ_CONTRACT_EVERY)
        return 0;
    int d = 0;
    long k0 = n > SEQ_MAXP ? n - SEQ_MAXP : 0;
    for (long k = k0; k < n; k++)
        if (!set[q->hg[k % SEQ_HIST]]) {
            set[q->hg[k % SEQ_HIST]] = 1;
            d++;
        }
    for (long k = k0; k < n; k++)
        set[q->hg[k % SEQ_HIST]] = 0;
    int L = 4 * d < SEQ_MAXP ? 4 * d : SEQ_MAXP;
    if (L < 2 || (long)SEQ_PERIODS * L > n)
        return 0;
    return seq_blocks_contract(q, L, set);
}

/* Apply the impulses q->P at the positions q->sub[0 .. nsub) (ascending)
** to v and to u (u += D P over the coupled positions), then refresh the
** heap at every position whose u or whose bodies moved. */
static void seq_apply(nsm_sim *s, Seq *q, double *v)
{
    const RtCsr *W = &s->sp.W;
    for (int x = 0; x < q->nsub; x++) {
        int a = q->sub[x];
        if (q->P[a] == 0)
            continue;
        rt_mass_add_row(s, W, q->idx[a], q->P[a], v);
        for (int k = q->np[a]; k < q->np[a + 1]; k++)
            q->u[q->nb[k]] += q->nd[k] * q->P[a];
    }
}

/* Refresh the heap at the positions coupled to those of q->sub. */
static void seq_refresh(nsm_sim *s, Seq *q)
{
    for (int x = 0; x < q->nsub; x++)
        for (int k = q->np[q->sub[x]]; k < q->np[q->sub[x] + 1]; k++)
            seq_touch(s, q, q->nb[k]);
}

/* Sort the positions of q->sub ascending (insertion: a collision's list is
** its contact and the held ones, in order but for the first). */
static void seq_sort_sub(Seq *q)
{
    for (int x = 1; x < q->nsub; x++)
        for (int y = x; y > 0 && q->sub[y - 1] > q->sub[y]; y--) {
            int t = q->sub[y];
            q->sub[y] = q->sub[y - 1];
            q->sub[y - 1] = t;
        }
}

/* Clear the impulses of the last collision (P back to 0 at q->sub). */
static void seq_clear(Seq *q)
{
    for (int x = 0; x < q->nsub; x++)
        q->P[q->sub[x]] = 0;
    q->nsub = 0;
}

/* The impulse LCP over the positions sub[0 .. m) with right side qm, its
** solution into q->P; gap fails with "what" on no solution. */
static int seq_lcp(nsm_sim *s, Seq *q, const int *sub, int m, const double *qm, int gap,
                   const char *what)
{
    double *Dm = calloc(1, sizeof(double) * ((size_t)m * m + (size_t)m) + sizeof(int) * ((size_t)m + 1));
    if (!Dm)
        return rt_fail(s, NSM_ENOMEM, gap, "out of memory forming the impact problem");
    double *z = Dm + (size_t)m * m;
    int *gl = (int *)(z + m);
    for (int x = 0; x < m; x++)
        gl[x] = q->idx[sub[x]];
    rt_delassus(s, gl, m, Dm);
    int bad = nsm_lcp_solve(m, Dm, qm, z, NULL) != NSM_LA_OK;
    for (int x = 0; x < m && !bad; x++)
        q->P[sub[x]] = z[x];
    free(Dm);
    return bad ? rt_fail(s, NSM_ENUMERIC, gap, "%s", what) : NSM_OK;
}

/* One collision of position a of q: the impulse LCP over a (restitution)
** and the held contacts (none), into q->P at q->sub. */
static int seq_collide(nsm_sim *s, Seq *q, int a)
{
    q->nsub = 0;
    q->sub[q->nsub++] = a;
    if (q->nheld == 0) {
        q->P[a] = -(1 + rt_law_restitution(s, q->idx[a], q->u[a])) * q->u[a] / q->dd[a];
        return NSM_OK;
    }
    for (int x = 0; x < q->nheld; x++)
        q->sub[q->nsub++] = q->hl[x];
    int m = q->nsub;
    double qm[m];
    for (int x = 0; x < m; x++)
        qm[x] = x == 0 ? (1 + rt_law_restitution(s, q->idx[a], q->u[a])) * q->u[a] : q->u[q->sub[x]];
    int rc = seq_lcp(s, q, q->sub, m, qm, q->idx[a], "no solution of the impact problem");
    seq_sort_sub(q);
    return rc;
}

/* Whether a contact outside the set of a cycle (or contraction) just
** recognized closes beyond its tolerance: the sequence takes the fastest
** closing contact first, so as the cycle's speeds shrink that contact's
** turn comes inside the cycle's tail and the cycle does not repeat for
** ever.  Summing the cycle first put its collision after the limit: four
** beads (10, 0.5, 10, 1 kg; e = 0, 0.25, 0.8) struck at 1 m/s, the last
** left at 0.798 m/s where the sequence's own limit gives 0.536 m/s (exit
** 0).  The limit is then declined and the collisions go on, up to
** SEQ_DEFER_MAX times an instant (then it is taken as before), for any
** contact closing beyond its tolerance (SEQ_DEFER_TOL): one closing below
** 1000 times it was summed after the cycle, 1.03e-4 m/s off the law's own
** sequence for beads of 2.3, 3.7, 0.13, 3.7, 0.47 kg.  (Declining for
** those once left approaches within rounding that the next steps found as
** impacts; the instant now ends them, seq_rest.) */
static int seq_other_closing(const nsm_sim *s, Seq *q, const char *set)
{
    if (q->deferred >= SEQ_DEFER_MAX)
        return 0;
    const double *v = s->y + s->n_pos;
    for (int k = 0; k < q->hn; k++) {
        int b = q->heap[k];
        if (!set[b] && !q->held[b] && q->u[b] < -SEQ_DEFER_TOL * rt_vel_tol(s, q->idx[b], v))
            return q->deferred++, 1;
    }
    return 0;
}

/* Whether the limit's impulses q->P at q->sub are all pushes (P >= 0 to
** the rounding of the solve, 1e-9 of the largest impulse): the limit of a
** sequence of collisions is a sum of pushes, so a pull means the set of
** contacts taken for it is not the sequence's. */
static int seq_limit_pushes(const Seq *q)
{
    double big = 0;
    for (int x = 0; x < q->nsub; x++)
        big = fmax(big, fabs(q->P[q->sub[x]]));
    for (int x = 0; x < q->nsub; x++)
        if (q->P[q->sub[x]] < -1e-9 * big)
            return 0;
    return 1;
}

/* Whether the limit's impulses q->P at q->sub leave a contact outside the
** set (not held) closing beyond its tolerance that was not before: its
** closing began inside the cycle's tail, where the sequence would have
** taken it when it became the fastest (seq_other_closing).  Five beads
** (1, 1, 10, 0.5, 2 kg; e = 0.5, 0.1, 0, 0) struck at 1 m/s: a cycle
** between the last three's contacts, summed at once, slowed the third bead
** below the second, whose contact was not taken (the second left 4.8e-4
** m/s slower than the rest, where the sequence's limit moves them
** together; exit 0).  Counts as a declined limit (SEQ_DEFER_MAX). */
static int seq_limit_closes_other(nsm_sim *s, Seq *q, const char *set)
{
    if (q->deferred >= SEQ_DEFER_MAX)
        return 0;
    const double *v = s->y + s->n_pos;
    double *du = calloc((size_t)q->r + 1, sizeof(double));
    if (!du)
        return 0;
    for (int x = 0; x < q->nsub; x++)
        for (int a = q->sub[x], k = q->np[a]; k < q->np[a + 1]; k++)
            du[q->nb[k]] += q->nd[k] * q->P[a];
    int closes = 0;
    for (int b = 0; b < q->r && !closes; b++)
        closes = !set[b] && !q->held[b] && q->hpos[b] < 0 &&
                 q->u[b] + du[b] < -SEQ_DEFER_TOL * rt_vel_tol(s, q->idx[b], v);
    free(du);
    return closes ? (q->deferred++, 1) : 0;
}

/* The limit of the cycle set (positions of q) just recognized: the cycle's
** contacts, and the held ones not separating, end with no relative velocity
** (W_C v = 0: D_CC P = -u_C); one zeno record on the gap of the last
** collision, counting the collisions so far.  With pushes_only (a set found
** from the speeds' contraction, seq_contract), a limit that needs a pull is
** declined (*taken = 0, nothing applied) and the sequence goes on. */
static int seq_collapse(nsm_sim *s, Seq *q, const char *set, int last, double *v, int pushes_only,
                        int *taken)
{
    *taken = 0;
    int r = q->r, m = 0;
    seq_clear(q);
    for (int b = 0; b < r; b++)
        if (set[b] || (q->held[b] && q->u[b] <= rt_vel_tol(s, q->idx[b], v)))
            q->sub[m++] = b;
    q->nsub = m;
    double *Dm = calloc(1, sizeof(double) * ((size_t)m * m + 2 * (size_t)m + 1) + sizeof(int) * ((size_t)m + 1));
    if (!Dm)
        return rt_fail(s, NSM_ENOMEM, q->idx[last], "out of memory forming the impact problem");
    double *z = Dm + (size_t)m * m, *qm = z + m;
    int *gl = (int *)(qm + m + 1);
    for (int x = 0; x < m; x++) {
        gl[x] = q->idx[q->sub[x]];
        z[x] = -q->u[q->sub[x]];
        qm[x] = q->u[q->sub[x]];
    }
    rt_delassus(s, gl, m, Dm);
    int rc = NSM_OK;
    if (nsm_la_solve(m, Dm, z, 1) == NSM_LA_OK) {
        for (int x = 0; x < m; x++)
            q->P[q->sub[x]] = z[x];
    } else {
        /* dependent contacts (a body squeezed between a floor and a
         * ceiling): D_CC is singular, and the impulse problem without
         * restitution, P >= 0 _|_ u + D P >= 0, brings them to rest */
        rc = seq_lcp(s, q, q->sub, m, qm, q->idx[last], "no solution of the collapse's impulse problem");
    }
    free(Dm);
    if (rc)
        return rc;
    if ((pushes_only && !seq_limit_pushes(q)) || seq_limit_closes_other(s, q, set)) {
        seq_clear(q);
        return NSM_OK;
    }
    *taken = 1;
    double Eb = rt_mech_energy(s, s->mode, s->y), ub = q->u[last], Pl = q->P[last];
    seq_apply(s, q, v);
    for (int x = 0; x < m; x++)
        if (q->u[q->sub[x]] <= rt_vel_tol(s, q->idx[q->sub[x]], v))
            q->u[q->sub[x]] = 0;           /* at rest, to rounding */
    seq_refresh(s, q);
    seq_clear(q);
    double lost = Eb - rt_mech_energy(s, s->mode, s->y);
    rt_transition_loss_add(s, lost);
    return rt_log_exempt(s, NSM_EV_ZENO, q->idx[last], ub, 0, Pl, lost, q->n);
}

/* The positions of q neither in (in[]) nor held that the impulses q->P at
** q->sub would leave approaching beyond 1e-3 of their tolerance, added to
** q->sub and in[]: how many, -1 when out of memory. */
static int seq_rest_grow(nsm_sim *s, Seq *q, char *in)
{
    const double *v = s->y + s->n_pos;
    double *du = calloc((size_t)q->r + 1, sizeof(double));
    if (!du)
        return -1;
    for (int x = 0; x < q->nsub; x++)
        for (int a = q->sub[x], k = q->np[a]; k < q->np[a + 1]; k++)
            du[q->nb[k]] += q->nd[k] * q->P[a];
    int added = 0;
    for (int b = 0; b < q->r; b++)
        if (!in[b] && !q->held[b] && q->u[b] + du[b] < -1e-3 * rt_vel_tol(s, q->idx[b], v)) {
            in[b] = 1;
            q->sub[q->nsub++] = b;
            added++;
        }
    free(du);
    return added;
}

/* The plastic impact problem (P >= 0 _|_ u + D P >= 0) over the positions
** still approaching beyond 1e-3 of their tolerance and those its impulses
** would set approaching, grown until none is (at most r + 1 rounds),
** applied: what seq_rest's pair impulses leave when they go round a
** cluster without end (a plastic cycle, the pairs' speeds falling
** geometrically). */
static int seq_rest_lcp(nsm_sim *s, Seq *q, int j)
{
    double *v = s->y + s->n_pos;
    char *in = calloc((size_t)q->r + 1, 1);
    if (!in)
        return rt_fail(s, NSM_ENOMEM, j, "out of memory forming the impact problem");
    seq_clear(q);
    int rc = NSM_OK, grown = seq_rest_grow(s, q, in);
    for (int round = 0; rc == NSM_OK && grown > 0 && round <= q->r; round++) {
        int m = q->nsub;
        double *qm = malloc(sizeof(double) * ((size_t)m + 1));
        if (!qm) {
            grown = -1;
            break;
        }
        seq_sort_sub(q);
        for (int x = 0; x < m; x++)
            qm[x] = q->u[q->sub[x]];
        rc = seq_lcp(s, q, q->sub, m, qm, j, "no solution of the impact problem bringing the "
                     "last approaches to rest");
        free(qm);
        if (rc == NSM_OK)
            grown = seq_rest_grow(s, q, in);
    }
    free(in);
    if (grown < 0)
        return rt_fail(s, NSM_ENOMEM, j, "out of memory forming the impact problem");
    if (rc == NSM_OK && q->nsub > 0) {
        seq_sort_sub(q);
        seq_apply(s, q, v);
    }
    seq_clear(q);
    return rc;
}

/* What still approaches at the end of an instant's impulses does so within
** rounding: at rest, not impacts.  Each such contact, and each neighbour
** that bringing it to rest sets approaching, takes the plastic pair
** impulse -u/d (a push; Gauss-Seidel on the plastic impact problem),
** until none approaches beyond 1e-3 of its tolerance, at most 64 r + 64
** times, then the plastic impact problem over what is left (seq_rest_lcp:
** a plastic cycle's pairs would go on without end); the loss is booked.  Removing the approaches of the closing
** contacts alone at once (a projection) set their neighbours approaching
** at up to 8 times the tolerance in a train of 30 beads of 0.13 to 10.1
** kg, and the next steps found those as impacts one ulp of time apart
** until the event-rate cap refused the run (exit 3). */
static int seq_rest(nsm_sim *s, Seq *q, int j)
{
    double *v = s->y + s->n_pos;
    int r = q->r, *fifo = malloc(sizeof(int) * ((size_t)r + 1)), head = 0, len = 0;
    char *in = calloc((size_t)r + 1, 1);
    if (!fifo || !in) {
        free(fifo);
        free(in);
        return rt_fail(s, NSM_ENOMEM, j, "out of memory forming the impact problem");
    }
    seq_clear(q);
    for (int b = 0; b < r; b++) {
        q->u[b] = rt_wdot(s, q->idx[b], v);
        if (!q->held[b] && q->u[b] < 0) {
            fifo[(head + len++) % r] = b;
            in[b] = 1;
        }
    }
    double Eb = len ? rt_mech_energy(s, s->mode, s->y) : 0;
    int any = len > 0;
    for (long k = 0; len > 0 && k < 64 * (long)r + 64; k++) {
        int a = fifo[head];
        head = (head + 1) % r, len--, in[a] = 0;
        if (!(q->u[a] < -1e-3 * rt_vel_tol(s, q->idx[a], v)))
            continue;
        q->sub[0] = a, q->nsub = 1;
        q->P[a] = -q->u[a] / q->dd[a];
        seq_apply(s, q, v);
        q->u[a] = 0;
        seq_clear(q);
        for (int x = q->np[a]; x < q->np[a + 1]; x++) {
            int b = q->nb[x];
            if (!in[b] && !q->held[b] && q->u[b] < 0 && len < r) {
                fifo[(head + len++) % r] = b;
                in[b] = 1;
            }
        }
    }
    free(fifo);
    free(in);
    int rc = len > 0 ? seq_rest_lcp(s, q, j) : NSM_OK;
    if (any)
        rt_transition_loss_add(s, Eb - rt_mech_energy(s, s->mode, s->y));
    return rc;
}

/* Log the impulses of the collision just applied (an impact record per
** contact that took one, the first of the instant's through the event-rate
** guard unless exempt1) and book its energy loss; E0 is the mechanical
** energy before it (small problems), lost the kinetic energy it took. */
static int seq_log(nsm_sim *s, Seq *q, int a, int exempt1, double E0)
{
    const double *v = s->y + s->n_pos;
    if (q->r <= SEQ_SMALL || s->moving) {
        rt_transition_loss_add(s, E0 - rt_mech_energy(s, s->mode, s->y));
    } else {
        for (int x = 0; x < q->nsub; x++)
            rt_transition_loss_add(s, -(q->P[q->sub[x]] * (q->ub[q->sub[x]] + q->u[q->sub[x]]) / 2));
    }
    for (int x = 0; x < q->nsub; x++) {
        int b = q->sub[x];
        if (b != a && !(q->P[b] > 0))
            continue;
        double va = rt_wdot(s, q->idx[b], v);
        double lost = -q->P[b] * (q->ub[b] + va) / 2;
        int rc;
        if (q->n > 1 || b != a || exempt1)
            rc = rt_log_exempt(s, NSM_EV_IMPACT, q->idx[b], q->ub[b], va, q->P[b], lost, 1);
        else
            rc = rt_log_event(s, NSM_EV_IMPACT, q->idx[b], q->ub[b], va, q->P[b], lost, 1);
        if (rc)
            return rc;
    }
    return NSM_OK;
}

/* The tracked relative velocities q->u read again from the bodies'
** velocities once the sequence has no collision left, and the heap made
** again from them; *a the next collision, or -1 when nothing closes
** beyond its tolerance (1 then 0 is returned).  The tracked speeds carry
** each collision's rounding and the limits' "at rest" (u within its
** tolerance set to 0): after 61208 collisions of a train of 30 beads the
** bodies still closed at up to 8e-11 m/s, four times the tolerance, and
** the next steps found them as new impacts one ulp of time apart, 50
** instants refused by the event-rate cap (exit 3). */
static int seq_resync(nsm_sim *s, Seq *q, int *a)
{
    const double *v = s->y + s->n_pos;
    for (int b = 0; b < q->r; b++) {
        q->u[b] = rt_wdot(s, q->idx[b], v);
        seq_touch(s, q, b);
    }
    *a = seq_next(q);
    return *a >= 0;
}

/* Resolve the sequence of collisions at this instant over the touching
** gaps of q (j, the landed one, among them), logging each collision and
** each contact held shut that transmits an impulse; the first record is
** exempt from the event-rate guard if exempt1, the others always (a
** sequence at one instant is finite or summed).  *count gets the number of
** collisions.  A collision costs O(log r) plus its contacts' rows: the
** next one comes from a heap of the positions closing beyond their
** tolerance, and only the positions coupled to the collision's move. */
static int seq_run(nsm_sim *s, Seq *q, int j, int exempt1, long *count)
{
    int n = s->n_vel, r = q->r, rc;
    double *v = s->y + s->n_pos, y0[2 * n];
    for (int a = 0; a < r; a++)
        seq_touch(s, q, a);
    for (int a, round = 0; (a = seq_next(q)) >= 0 ||
                           (round++ < SEQ_RESYNC_MAX && seq_resync(s, q, &a));) {
        double E0 = q->r <= SEQ_SMALL || s->moving ? rt_mech_energy(s, s->mode, s->y) : 0;
        if (q->n >= s->set.max_impacts)
            return rt_fail(s, NSM_EEVENTS, q->idx[a], "%ld impact%s at one instant and no end in sight; "
                           "--max-impacts N (nsm_sim_set_max_impacts) raises the limit", s->set.max_impacts,
                           s->set.max_impacts == 1 ? "" : "s");
        if ((rc = seq_collide(s, q, a)))
            return rc;
        for (int x = 0; x < q->nsub; x++)
            q->ub[q->sub[x]] = q->u[q->sub[x]];
        if (q->n == 0)
            memcpy(y0, s->y, sizeof y0);
        seq_apply(s, q, v);
        if (q->nheld == 0)
            q->u[a] = -rt_law_restitution(s, q->idx[a], q->ub[a]) * q->ub[a];     /* Newton's law, exactly */
        seq_refresh(s, q);
        if (q->nheld == 0 && s->set.method == NSM_METHOD_EXACT && q->n == 0 && seq_next(q) < 0)
            rt_shadow_impulse(s, q->idx[a], rt_law_restitution(s, q->idx[a], q->ub[a]), s->t, y0, s->y);
        q->hg[q->n % SEQ_HIST] = a;
        q->hu[q->n % SEQ_HIST] = q->ub[a];
        q->umax = fmax(q->umax, fabs(q->ub[a]));
        q->n++;
        if ((rc = seq_log(s, q, a, exempt1, E0)))
            return rc;
        seq_clear(q);
        double rho;
        int p = seq_cycle(q, &rho, q->set);
        if (p && !(rho < 1))
            return rt_fail(s, NSM_EEVENTS, q->idx[a], "%ld impact%s at one instant and no end in sight: "
                           "a cycle of %d collisions repeats without losing speed (elastic contacts "
                           "squeezing a body?)", q->n, q->n == 1 ? "" : "s", p);
        int taken;
        if (p && s->set.zeno_on && !seq_other_closing(s, q, q->set) &&
            (rc = seq_collapse(s, q, q->set, a, v, 0, &taken)))
            return rc;
        if (p)
            memset(q->set, 0, (size_t)q->r);
        if (!p && s->set.zeno_on && seq_contract(q, q->set) && !seq_other_closing(s, q, q->set)) {
            if ((rc = seq_collapse(s, q, q->set, a, v, 1, &taken)))
                return rc;
            memset(q->set, 0, (size_t)q->r);
            q->next_look = q->n + (long)SEQ_PERIODS * SEQ_MAXP;  /* new evidence first */
        }
    }
    *count = q->n;
    return seq_rest(s, q, j);
}

/* Resolve the sequence of collisions at this instant over the touching
** gaps idx[0..r) (seq_run). */
static int impact_sequence(nsm_sim *s, int j, const int *idx, int r, int exempt1, long *count)
{
    Seq *q = seq_new(s, idx, r);
    if (!q)
        return rt_fail(s, NSM_ENOMEM, j, "out of memory forming the impact problem");
    q->set = q->held + r + 1;
    memset(q->set, 0, (size_t)r + 1);
    return seq_run(s, q, j, exempt1, count);
}

/*
** Simultaneous impacts (impact_law = simultaneous): one impulse problem
** over the whole touching cluster, with Newton's law on every contact that
** approaches and no penetration at the others (the generalised Newton law
** of Moreau, as Siconos's NewtonImpactNSL applies it over the active set):
**     P >= 0  _|_  u+ + e u- >= 0,   u+ = u- + D P,
** e the gap's restitution where u- < 0 beyond the velocity tolerance, 0
** elsewhere (a touching contact at rest or separating takes no restitution;
** a held one is such a contact).  An LCP in P with the Delassus matrix D of
** the cluster, solved by block principal pivoting (Judice and Pires,
** Computers & Operations Research 21 (1994) 587) whose linear systems
** D_AA P_A = -q_A are band Cholesky factorisations (rt_band_factor): for a
** chain, D is tridiagonal and a solve is O(N).  Small clusters go to the
** dense LCP solver (lcp.c).
*/
#define SIM_DENSE 12         /* up to this many contacts, the dense LCP solver */
#define SIM_BAD 3            /* block pivots without progress before single pivots */

/* The half bandwidth of the Delassus matrix over the positions in[] of q,
** numbered in order (at[] gets each position's number, -1 outside). */
static int simul_band(const Seq *q, const char *in, int *at)
{
    int m = 0, b = 0;
    for (int a = 0; a < q->r; a++)
        at[a] = in[a] ? m++ : -1;
    for (int a = 0; a < q->r; a++)
        for (int k = q->np[a]; in[a] && k < q->np[a + 1]; k++)
            if (at[q->nb[k]] >= 0 && abs(at[q->nb[k]] - at[a]) > b)
                b = abs(at[q->nb[k]] - at[a]);
    return b;
}

/* P_A = -D_AA^-1 q_A over the positions in[] of q (P zero elsewhere), by a
** band Cholesky factorisation; at and gl: r ints of scratch. */
static int simul_solve(nsm_sim *s, const Seq *q, const char *in, const double *qv, double *P,
                       int *at, int *gl)
{
    int b = simul_band(q, in, at), m = 0;
    for (int a = 0; a < q->r; a++) {
        P[a] = 0;
        if (in[a])
            gl[m++] = q->idx[a];
    }
    if (m == 0)
        return NSM_OK;
    long double *L = malloc(sizeof(long double) * ((size_t)m * ((size_t)b + 1) + (size_t)m));
    if (!L)
        return NSM_ENOMEM;
    long double *x = L + (size_t)m * ((size_t)b + 1);
    int rc = rt_band_factor(s, gl, m, b, L);
    if (rc == NSM_OK) {
        for (int a = 0; a < q->r; a++)
            if (in[a])
                x[at[a]] = -qv[a];
        rt_band_solve(L, m, b, x);
        for (int a = 0; a < q->r; a++)
            if (in[a])
                P[a] = (double)x[at[a]];
    }
    free(L);
    return rc;
}

/* The LCP P >= 0 _|_ D P + qv >= 0 over q's positions by block principal
** pivoting: the set A of positions with P > 0 starts as those with qv <= 0;
** every infeasible position (P < 0 in A, D P + qv < 0 outside) flips at
** once while their number falls, else, after SIM_BAD tries, only the least
** (Murty's rule, finite for the P-matrix D).  w: r doubles of scratch. */
static int simul_bpp(nsm_sim *s, const Seq *q, const double *qv, double *P, double *w, char *in,
                     int *at, int *gl)
{
    int r = q->r, best = r + 1, bad = 0;
    double scale = 0;
    for (int a = 0; a < r; a++) {
        in[a] = qv[a] <= 0;
        scale = fmax(scale, fabs(qv[a]));
    }
    double tol = 1e-12 * scale;
    for (long it = 0; it < 10L * r + 100; it++) {
        int rc = simul_solve(s, q, in, qv, P, at, gl);
        if (rc)
            return rc;
        memcpy(w, qv, sizeof(double) * (size_t)r);
        for (int a = 0; a < r; a++)
            for (int k = q->np[a]; P[a] != 0 && k < q->np[a + 1]; k++)
                w[q->nb[k]] += q->nd[k] * P[a];
        int ninf = 0, first = -1;
        for (int a = 0; a < r; a++)
            if (in[a] ? P[a] < -tol : w[a] < -tol) {
                ninf++;
                if (first < 0)
                    first = a;
            }
        if (ninf == 0) {
            for (int a = 0; a < r; a++)
                P[a] = fmax(P[a], 0);
            return NSM_OK;
        }
        if (ninf < best) {
            best = ninf;
            bad = 0;
        } else {
            bad++;
        }
        for (int a = 0; a < r; a++)
            if ((bad < SIM_BAD || a == first) && (in[a] ? P[a] < -tol : w[a] < -tol))
                in[a] = (char)!in[a];
    }
    return NSM_ENUMERIC;
}

/* The impulses of the simultaneous law over q into q->P: qv = u + e min(u, 0)
** as stated above, the LCP dense for a few contacts, else simul_bpp. */
static int simul_impulses(nsm_sim *s, Seq *q, int j)
{
    int r = q->r, rc;
    const double *v = s->y + s->n_pos;
    double *qv = malloc(sizeof(double) * 2 * (size_t)r);
    int *at = malloc(sizeof(int) * 2 * (size_t)r);
    char *in = malloc((size_t)r + 1);
    if (!qv || !at || !in) {
        free(qv);
        free(at);
        free(in);
        return rt_fail(s, NSM_ENOMEM, j, "out of memory forming the impact problem");
    }
    for (int a = 0; a < r; a++) {
        double e = !q->held[a] && q->u[a] < -rt_vel_tol(s, q->idx[a], v)
                       ? rt_law_restitution(s, q->idx[a], q->u[a]) : 0;
        qv[a] = (1 + e) * q->u[a];
        q->sub[a] = a;
    }
    if (r <= SIM_DENSE)
        rc = seq_lcp(s, q, q->sub, r, qv, j, "no solution of the simultaneous impact problem");
    else if ((rc = simul_bpp(s, q, qv, q->P, qv + r, in, at, at + r)) == NSM_ENOMEM)
        rc = rt_fail(s, NSM_ENOMEM, j, "out of memory forming the impact problem");
    else if (rc)
        rc = rt_fail(s, NSM_ENUMERIC, j, "no solution of the simultaneous impact problem "
                     "(dependent contacts?)");
    free(qv);
    free(at);
    free(in);
    return rc;
}

/* The work the moving surfaces do through the simultaneous law's impulses
** over idx[]: the sum of -P_a h_a', h_a' the surface's term of contact a's
** rate (0 when every surface is fixed); *mag gets the sum of |P_a h_a'|,
** the scale of its rounding.  The kinetic energy changes by exactly this
** plus sum P_a (u_a- + u_a+) / 2, the law's own term, never positive for
** an energy-consistent law.  Any moving surface once exempted the impact
** from the energy check (a floor at c t under a touching chain, c = 1e-300
** m/s, let a 79 % gain through), and then twice |P_a h_a'| was allowed: the
** same chain moving with a floor at 0.3 m/s or faster gained its 1.752 J
** silently, and with the floor moving away (negative work) the kinetic
** energy fell while the law added the same. */
static double simul_surface_work(const nsm_sim *s, const Seq *q, const int *idx, double *mag)
{
    double w = 0;
    *mag = 0;
    if (!s->moving)
        return 0;
    for (int a = 0; a < q->r; a++)
        if (q->P[a] != 0) {
            double pw = q->P[a] * rt_surface_of(s, idx[a], 1, s->t);
            w -= pw;
            *mag += fabs(pw);
        }
    return w;
}

/* The kinetic energy the simultaneous law's impulses can change, from the
** contacts' relative normal velocities before them: the sum over its
** contacts of u_a^2 / (2 D_aa), each the energy of the relative motion at
** the contact in its bodies' centre of mass (reduced mass 1 / D_aa).  It
** is Galilean invariant and blind to bodies the impulses do not act on:
** judged against the whole model's kinetic energy, a free 1e5 kg mass at
** 100 m/s elsewhere, or the whole row drifting at 7000 m/s, let a 13.8 %
** gain through silently. */
static double simul_relative_kinetic(const Seq *q)
{
    double k = 0;
    for (int a = 0; a < q->r; a++)
        if (q->dd[a] > 0)
            k += q->u[a] * q->u[a] / (2 * q->dd[a]);
    return k;
}

/* The simultaneous law's impulses just applied, from the state y0 (Kc the
** kinetic energy they can change, simul_relative_kinetic): a gain of
** kinetic energy beyond rounding (1e-8 of Kc and a few ulps of the whole
** model's kinetic energy, in which the gain is formed) and beyond the
** work the moving surfaces do through the impulses (simul_surface_work,
** with a few ulps of its magnitude) stops the run, naming the law.  With a touching
** contact that separates taken at e = 0 beside a restituting one, Moreau's
** generalised Newton law is not energy-consistent: three touching beads of
** 1, 1.26 and 2 kg, all e = 1, the middle one moving into the last at
** 1.872 m/s, left with 13.8 % more kinetic energy (silent; the sequential
** law keeps it).  The impulses move nothing, so only the kinetic energy is
** compared: the mechanical energy of two elastic beads falling from rest
** at x = 0 is 0 (m g x beside the kinetic energy), and its rounding,
** judged against 1e-8 of 0, stopped the run.  The gain is named as a
** fraction too: a gain of 1.5e-8 read "2.20776 J to 2.20776 J". */
#define SIMUL_WHY "Moreau's generalised Newton law, a touching contact that separates taken " \
    "at e = 0 beside one that restitutes, is not energy-consistent here; use impact_law = " \
    "sequential or energetic"

/* The simultaneous law's own term of the change of kinetic energy, from
** the contacts' relative normal velocities alone: sum P_a (u_a- + u_a+)/2,
** u_a- and u_a+ read from the velocities before (y0) and just set.  *tol
** is its resolution: per contact a few ulps of P_a times the scale of its
** velocities (the rounding of u_a), and for a contact at rest within its
** velocity tolerance before, P_a times half that tolerance (the most it
** can add there).  Frame-free: the kinetic energies themselves carry the
** rounding of a few ulps of the bodies' whole kinetic energy, which a fast
** floor makes large, and it hid a real gain: floor | 2 kg | 1.26 kg | 1 kg
** touching, e = 1, the floor and the beads at c = 1e4 m/s, the middle one
** at 1.872e-4 m/s towards the first (the problem refused at c = 0), left
** with 1.794 times its relative kinetic energy, exit 0. */
static double simul_law_gain(nsm_sim *s, const Seq *q, const int *idx, const double *y0,
                             double *tol)
{
    const double *v = s->y + s->n_pos, *v0 = y0 + s->n_pos;
    double g = 0, ulps = (16.0 + s->n_vel) * DBL_EPSILON;
    *tol = 0;
    for (int a = 0; a < q->r; a++)
        if (q->P[a] != 0) {
            int c = idx[a];
            double u0 = rt_gap_rate(s, c, s->t, v0), u1 = rt_gap_rate(s, c, s->t, v);
            double vt = rt_vel_tol(s, c, v0);
            double sc = rt_vel_scale(s, c, v0) + rt_vel_scale(s, c, v) +
                        2 * fabs(rt_surface_of(s, c, 1, s->t));
            g += q->P[a] * (u0 + u1) / 2;
            *tol += fabs(q->P[a]) * (ulps * sc + (fabs(u0) <= vt ? vt / 2 : 0));
        }
    return g;
}

static int simul_gain_check(nsm_sim *s, int j, const Seq *q, const int *idx, const double *y0,
                            double Kc)
{
    double K0 = rt_mass_kinetic(s, y0), K1 = rt_mass_kinetic(s, s->y), mag, ltol;
    double work = simul_surface_work(s, q, idx, &mag);
    double tol = 1e-8 * Kc + (16.0 + s->n_vel) * DBL_EPSILON * (fmax(K0, K1) + mag);
    double gain = K1 - K0 - work, lgain = simul_law_gain(s, q, idx, y0, &ltol);
    if (!(gain > tol) && !(lgain > 1e-8 * Kc + ltol))
        return NSM_OK;
    if (!(gain > tol))
        gain = lgain;
    if (work != 0)
        return rt_fail(s, NSM_EMODEL, j, "the simultaneous impact law adds energy at this "
                       "impact (kinetic energy %.6g J to %.6g J with the moving surfaces' work "
                       "%.6g J, a gain of %.3g of it, %.3g of the %.6g J of relative motion at "
                       "its contacts): " SIMUL_WHY, K0, K1, work, gain / K0, gain / Kc, Kc);
    return rt_fail(s, NSM_EMODEL, j, "the simultaneous impact law adds energy at this impact "
                   "(kinetic energy %.6g J to %.6g J, a gain of %.3g of it, %.3g of the %.6g J of "
                   "relative motion at its contacts): " SIMUL_WHY, K0, K1, gain / K0, gain / Kc,
                   Kc);
}

/* Resolve the impact of gap j over the touching gaps idx[0..r) by the
** simultaneous law (one impulse problem), logging an impact record for
** every contact that takes an impulse (the first through the event-rate
** guard unless exempt1); *count = 1. */
static int impact_simultaneous(nsm_sim *s, int j, const int *idx, int r, int exempt1, long *count)
{
    Seq *q = seq_new(s, idx, r);
    if (!q)
        return rt_fail(s, NSM_ENOMEM, j, "out of memory forming the impact problem");
    int n = s->n_vel, rc = simul_impulses(s, q, j);
    double *v = s->y + s->n_pos, y0[2 * n];
    if (rc)
        return rc;
    q->nsub = 0;
    for (int a = 0; a < r; a++)
        if (q->P[a] != 0) {
            q->sub[q->nsub++] = a;
            q->ub[a] = q->u[a];
        }
    double E0 = rt_mech_energy(s, s->mode, s->y), Kc = simul_relative_kinetic(q);
    memcpy(y0, s->y, sizeof y0);
    seq_apply(s, q, v);
    if ((rc = simul_gain_check(s, j, q, idx, y0, Kc)))
        return rc;
    if (q->nsub == 1 && q->nheld == 0 && s->set.method == NSM_METHOD_EXACT)
        rt_shadow_impulse(s, idx[q->sub[0]], rt_law_restitution(s, idx[q->sub[0]], q->ub[q->sub[0]]), s->t, y0, s->y);
    rt_transition_loss_add(s, E0 - rt_mech_energy(s, s->mode, s->y));
    for (int x = 0; x < q->nsub && !rc; x++) {
        int b = q->sub[x];
        if (!(q->P[b] > 0))
            continue;
        double va = rt_wdot(s, idx[b], v), lost = -q->P[b] * (q->ub[b] + va) / 2;
        if (x > 0 || exempt1)
            rc = rt_log_exempt(s, NSM_EV_IMPACT, idx[b], q->ub[b], va, q->P[b], lost, 1);
        else
            rc = rt_log_event(s, NSM_EV_IMPACT, idx[b], q->ub[b], va, q->P[b], lost, 1);
    }
    *count = 1;
    if (!rc)
        rc = seq_rest(s, q, j);
    return rc;
}

/*
** The energetic multi-impact law (impact_law = energetic; Liu, Zhao and
** Brogliato, Proc. R. Soc. A 464 (2008) 3193 and Multibody System Dynamics
** 21 (2009) 9): its kernel, rt_lzb_solve (multiimpact.c), takes the
** cluster's Delassus matrix W (nc x nc, row-major), the relative normal
** velocities vn, and per contact the restitution e, the stiffness k and the
** force's exponent eta, and gives the normal impulses P and vn_after.
** The stiffness and exponent are nsm_numeric's kimp and eimp (from
** impact(..., stiffness = K, exponent = 1.5)).
*/
/* A restitution for the energetic kernel: one below the rounding of 1
** (e < 2^-52) is plastic.  Its expansion returns e^2 of the stored energy,
** so the velocities it gives a contact, e times the approach speed, are lost
** in the rounding of the bodies' velocities; the kernel's expansion rate
** 1/e^2 made it run out of steps instead (a valid e = 1e-20 failed with
** "no solution" where e = 1e-16 and e = 0 gave the same impact). */
static double energetic_restitution(double e)
{
    return e < DBL_EPSILON ? 0 : e;
}

/* What the energetic law's impulses leave approaching does so within the
** kernel's tolerance, below the velocity tolerance: at rest, as after the
** other laws (seq_rest).  Left as it was, a contact drifted shut at that
** speed (eight beads of 0.39 g to 170 kg by exact: 1.8e-10 m/s after the
** instant, the pair 3e-11 m into each other from then on). */
static int energetic_rest(nsm_sim *s, int j, const int *idx, int r)
{
    Seq *q = seq_new(s, idx, r);
    if (!q)
        return rt_fail(s, NSM_ENOMEM, j, "out of memory forming the impact problem");
    return seq_rest(s, q, j);
}

/* The energetic kernel's impulses or velocities came out not finite: the
** run stops naming the law and the spread of the contacts' stiffnesses,
** whose time scales the kernel integrates together.  Applied, they left
** the state not finite and the run stopped on "state is not finite
** (position of P1)", naming no cause (three touching elastic beads with
** stiffnesses 1e-250 and 1e250). */
RT_COLD static int energetic_not_finite(nsm_sim *s, int j, const int *idx, int r)
{
    double kmin = HUGE_VAL, kmax = 0;
    for (int a = 0; a < r; a++) {
        kmin = fmin(kmin, s->num.kimp[idx[a]]);
        kmax = fmax(kmax, s->num.kimp[idx[a]]);
    }
    return rt_fail(s, NSM_ENUMERIC, j, "no solution of the energetic impact problem: its "
                   "impulses came out not finite (the contacts' stiffnesses, %.3g to %.3g, are "
                   "too far apart for the kernel to integrate their time scales together)",
                   kmin, kmax);
}

/* The energetic law over the touching gaps idx[0..r): the kernel's inputs
** formed here, its impulses applied to v, one record per contact. */
static int impact_energetic(nsm_sim *s, int j, const int *idx, int r, int exempt1, long *count)
{
    int rc = NSM_OK;
    double *v = s->y + s->n_pos;
    double *W = malloc(sizeof(double) * ((size_t)r * r + 7 * (size_t)r));
    if (!W)
        return rt_fail(s, NSM_ENOMEM, j, "out of memory forming the impact problem");
    double *vn = W + (size_t)r * r, *e = vn + r, *k = e + r, *eta = k + r, *P = eta + r,
           *after = P + r, *ub = after + r;
    rt_delassus(s, idx, r, W);
    for (int a = 0; a < r; a++) {
        vn[a] = ub[a] = rt_wdot(s, idx[a], v);
        e[a] = energetic_restitution(rt_law_restitution(s, idx[a], ub[a]));
        k[a] = s->num.kimp[idx[a]];
        eta[a] = s->num.eimp[idx[a]];
    }
    double E0 = rt_mech_energy(s, s->mode, s->y);
    int lz = rt_lzb_solve(r, W, vn, e, k, eta, P, after);
    if (lz < 0) {
        free(W);
        if (lz == RT_LZB_ESTEP)
            return rt_fail(s, NSM_ENUMERIC, j, "the energetic impact problem stalled: what is "
                           "left of the impact stopped shrinking");
        return rt_fail(s, NSM_ENUMERIC, j, "no solution of the energetic impact problem: %s",
                       lz == RT_LZB_EARG ? "an approach speed is not finite, or a contact's "
                       "stiffness, exponent or restitution is out of range" :
                       lz == RT_LZB_EW ? "the contacts' Delassus matrix is not finite" :
                       "out of memory");
    }
    for (int a = 0; a < r; a++)
        if (!isfinite(P[a]) || !isfinite(after[a])) {
            free(W);
            return energetic_not_finite(s, j, idx, r);
        }
    const RtCsr *Wc = &s->sp.W;
    for (int a = 0; a < r; a++)
        if (P[a] != 0)
            rt_mass_add_row(s, Wc, idx[a], P[a], v);
    rt_transition_loss_add(s, E0 - rt_mech_energy(s, s->mode, s->y));
    for (int a = 0, first = 1; a < r && !rc; a++) {
        if (!(P[a] > 0))
            continue;
        double va = rt_wdot(s, idx[a], v), lost = -P[a] * (ub[a] + va) / 2;
        rc = first && !exempt1 ? rt_log_event(s, NSM_EV_IMPACT, idx[a], ub[a], va, P[a], lost, 1)
                               : rt_log_exempt(s, NSM_EV_IMPACT, idx[a], ub[a], va, P[a], lost, 1);
        first = 0;
    }
    free(W);
    *count = 1;
    return rc ? rc : energetic_rest(s, j, idx, r);
}

/* The largest relative speed |W_i| |v| over the gaps idx[0..r): the scale
** of the velocities a projection over them rounds. */
static double chain_speed(const nsm_sim *s, const int *idx, int r, const double *v)
{
    const RtCsr *W = &s->sp.W;
    double sc = 0;
    for (int a = 0; a < r; a++) {
        double row = 0;
        for (int k = W->p[idx[a]]; k < W->p[idx[a] + 1]; k++)
            row += fabs(W->x[k] * v[W->i[k]]);
        sc = fmax(sc, row);
    }
    return sc;
}

/* The plastic rest of a landing with no closing speed (gap im->j) over the
** open contacts touching it, into rest: j, and every open touching contact
** of its impulse problem that the projection leaves approaching, brought to
** rest together (a heavy body pressing a light one onto a wall: bringing
** one contact to rest pushes the other into its gap; handled one landing
** at a time they trade the residual velocity for ever, an event a step).
** The projection's solve rounds to eps times the condition of W M^-1 W^T
** (the mass ratio: 4e-4 of the speeds for masses 1e12 apart), so it is
** repeated on what it leaves until the set's relative speeds are within
** 8 eps of the speeds it started from (each round divides the residual by
** the condition's rounding; at most REST_ROUNDS rounds). */
#define REST_ROUNDS 48
static int rest_chain(nsm_sim *s, const RtImpact *im, unsigned *rest)
{
    double *v = s->y + s->n_pos;
    double band = 8 * DBL_EPSILON * chain_speed(s, im->idx, im->r, v);
    rt_mode_none(s, rest);
    rt_mode_add(rest, im->j);
    for (int round = 0, more = 1; more && round < REST_ROUNDS; round++) {
        if (rt_project(s, rest, v))
            return NSM_ENUMERIC;
        more = 0;
        for (int a = 0; a < im->r; a++) {
            int i = im->idx[a];
            double u = rt_wdot(s, i, v);
            if (rt_mode_has(s->mode, i))
                continue;               /* held shut: settle projects it */
            if (rt_mode_has(rest, i) ? fabs(u) > band
                                     : u < -band && u >= -rt_vel_tol(s, i, v)) {
                rt_mode_add(rest, i);
                more = 1;
            }
        }
    }
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
    double *y = s->y, *v = s->y + s->n_pos;
    /* the caller's storage: ref and set (mode_words words), idx and vb (g) */
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
        unsigned rest[s->mode_words];
        im->done = 1;
        int rc = im->vb[j] < 0 ? floor_stick(s, j, im->vb[j], rt_vel_tol(s, j, v) - RT_VEL_FLOOR)
                               : NSM_OK;
        if (rc)
            return rc;
        if (rest_chain(s, im, rest))
            return rt_fail(s, NSM_ENUMERIC, j, "plastic projection failed");
        rt_transition_loss_add(s, Eb - rt_mech_energy(s, s->mode, y));
        return settle_favour(s, ref, NULL, rest, forget, 0);
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

/* The impact of gap j over the touching gaps idx[0..r) by the model's
** impact law (nsm_model.impact_law): one contact alone takes Newton's law
** under every law, by the sequence's one collision. */
static int impact_by_law(nsm_sim *s, int j, const int *idx, int r, int exempt1, long *count)
{
    if (r > 1 && s->m->impact_law == NSM_IMPACT_SIMULTANEOUS)
        return impact_simultaneous(s, j, idx, r, exempt1, count);
    if (r > 1 && s->m->impact_law == NSM_IMPACT_ENERGETIC)
        return impact_energetic(s, j, idx, r, exempt1, count);
    return impact_sequence(s, j, idx, r, exempt1, count);
}

/* Impact, second part: the sequence of collisions over the gaps of im
** (impact_sequence), its first record exempt from the event-rate guard as
** the Zeno detection said (im->exempt); single stays only if it took one
** collision.  With friction on j and j alone in its impulse problem, the
** frictional impact law instead (friction.c, one collision), and Glocker's
** law at a contact of a body in space with spatial friction
** (impact_space.c). */
int rt_impact_apply(nsm_sim *s, RtImpact *im)
{
    int rc, frictional;
    if ((rc = rt_spimp_impulse(s, im->j, im->idx, im->r, im->exempt, &frictional)))
        return rc;
    if (!frictional && (rc = rt_fric_impulse(s, im->j, im->idx, im->r, im->exempt, &frictional)))
        return rc;
    im->count = 1;
    im->frictional = frictional;
    if (!frictional && (rc = impact_by_law(s, im->j, im->idx, im->r, im->exempt, &im->count)))
        return rc;
    im->single = im->single && im->count == 1;
    return NSM_OK;
}

/* A contact held shut before a frictionless impact that its impulse
** problem (where it took a support's impulse, no restitution, free to
** separate) left separating faster than its velocity tolerance, by a
** rebound that leaves the rounding band, is released: it leaves the mode,
** so that settle neither holds it nor projects its separation away (which
** would hand the impact back to the other contact, one impact after another
** without end: a body struck at one sphere while resting on another).  The
** frictional impact laws' held contacts, and every held contact of a model
** without bodies in space, are left to settle as before: on lines and
** planar bodies the release made chains of held and impacting gaps trade
** events until the event rate cap (the property test's random models). */
static void impact_release(nsm_sim *s, const RtImpact *im)
{
    const double *v = s->y + s->n_pos;
    if (im->frictional || s->m->n_rigid == 0)
        return;
    for (int a = 0; a < im->r; a++) {
        int i = im->idx[a];
        if (i != im->j && rt_mode_has(s->mode, i) && rt_wdot(s, i, v) > rt_vel_tol(s, i, v) &&
            !rt_rebound_unresolved(s, i))
            rt_state_mode_del(s, i);
    }
}

/* Impact, last part, when the Zeno handling did not end it: the held
** contacts the impulses part are released (impact_release); every contact
** of the sequence whose rebound cannot leave the rounding band ends at rest
** (j's too, unless a cascade of j alone goes on), then settle; the gaps
** that stick or separate are added to *forget. */
int rt_impact_end(nsm_sim *s, const RtImpact *im, unsigned *forget)
{
    int j = im->j, r = im->r, cascade = im->cascade, held = im->held,
        single = im->single;
    const int *idx = im->idx;
    double *y = s->y, *v = s->y + s->n_pos;
    const unsigned *ref = im->ref;
    /* every contact of the sequence whose rebound cannot leave the rounding
     * band ends at rest (j's too, unless a cascade of j alone goes on) */
    unsigned plastic[s->mode_words];
    int any = 0, have_yd = 0;
    double Yd[s->n_state];
    rt_mode_none(s, plastic);
    for (int a = 0; a < r; a++) {
        int i = idx[a];
        if (rt_mode_has(ref, i) || (i == j && cascade && !held && single) ||
            !(rt_wdot(s, i, v) > 0))
            continue;
        /* one derivative for every contact asked about: the state does
         * not change in this loop */
        if (!have_yd && rt_deriv(s, s->mode, s->t, y, Yd))
            break;
        have_yd = 1;
        if (rebound_unresolved_in(s, i, Yd)) {
            rt_mode_add(plastic, i);
            any = 1;
        }
    }
    if (any) {
        double Eb2 = rt_mech_energy(s, s->mode, y);
        if (rt_project(s, plastic, v))
            return rt_fail(s, NSM_ENUMERIC, j, "plastic projection failed");
        rt_transition_loss_add(s, Eb2 - rt_mech_energy(s, s->mode, y));
    }
    impact_release(s, im);
    return rt_settle(s, ref, NULL, forget);
}

/* The transition of gap j, but for the impact of an open impact gap (the
** run loop's impact: rt_impact_begin and on), j's law's (law.h): a
** separation of an impact gap, or a penalty contact's engagement or
** release; the gaps that stick or separate (j's separation too) are added
** to *forget. */
int rt_transition_gap(nsm_sim *s, int j, unsigned *forget)
{
    return rt_law_of(s, j)->transition(s, j, forget);
}

/* Initial mode at t = 0, first part: each gap's law decides whether it
** starts engaged (law.h: penalty gaps penetrated, or touching and closing;
** an impact gap penetrated refuses the state), touching impact gaps at rest are closed if the
** force LCP says so (the gaps that stick added to *forget); the run loop's
** rt_initial_mode then gives touching impact gaps closing their impact. */
int rt_initial_contacts(nsm_sim *s, unsigned *forget)
{
    const double *y = s->y, *v = s->y + s->n_pos;
    rt_state_mode_clear(s);
    for (int j = 0; j < s->n_gaps; j++) {
        double gap = rt_gap(s, j, y), tol = rt_gap_tol(s, j, y), wv = rt_wdot(s, j, v);
        int rc = rt_law_of(s, j)->initial(s, j, gap, wv, tol);
        if (rc)
            return rc;
    }
    unsigned none[s->mode_words], all[s->mode_words];
    rt_mode_none(s, none);
    rt_mode_none(s, all);
    for (int j = 0; j < s->n_gaps; j++)
        rt_mode_add(all, j);
    /* every contact at rest is held unless that needs a pull (settle_hold):
     * a press starting from 0 holds its block from the start */
    return settle_favour(s, none, NULL, all, forget, 1);
}
