/*
** rt.h: internals of libnsmrt shared by its source files.
**
** The simulation object, the evaluation of a mode's dynamics and event
** functions (dynamics.c), the integrators and event location (step.c), and
** the transitions (transition.c), the Zeno handling (zeno.c) and the run
** loop (run.c).  Not installed.
**
** The integrated state is Y = (x[n], v[n], Ed, Ew) with N = 2n + 2: the
** mechanical state followed by the dissipated energy (dampers and engaged
** penalty dampers) and the work of the external forces, integrated as ODE
** states by the same method as the motion.
*/
#ifndef NSM_RT_H
#define NSM_RT_H

#include "nsm/nsm.h"

#include <string.h>

#define RT_CACHE 16           /* propagators kept by the exact method */
#define RT_ANCHOR_LEVELS 4
#define RT_CLUSTER_LAGS 4     /* longest cycle of contacts a cascade is seen in (zeno.c) */
#define RT_SHADOWS 8          /* long double states kept by the exact method */
#define RT_MODES 8            /* modes whose matrices and step bounds are kept (mode.c) */
#define RT_DENSE_NA 400       /* larger models: rk4 and adaptive bound a mode's steps without its matrix */
#define RT_TAYLOR_K 32        /* degree of a step's Taylor expansion (taylor.c) */
#define RT_TAYLOR_REACH 2.0   /* the exact method's step is at most this over nu (mode.c) */
#define RT_RK4_REACH 0.5      /* a user's rk4 step resolves a mode while rho h is below this */
#define RT_DP5_OWN 0.1        /* adaptive's largest step in a mode: this over rho */
#define RT_RK4_OWN 0.02       /* rk4's own step in a mode it must resolve: this over rho */

/* What the runtime knows of a mode (mode.c): on Z = (x, v, z, 1), Z' = A Z;
** the quadratic forms of the dissipated power (Qd) and of the external
** work (Qw); event function j is ev[j] . Z (max with ev2[j] . Z when
** has2[j], an open penalty gap released by force); the balancing scales
** bal of A and nu = ||bal^-1 A bal||_inf; the exact method's step h_exact;
** the stability bounds h_rk4 and h_dp5 and the eigenvalue lam that sets
** h_rk4.  Built once per mode and switch state. */
typedef struct RtModeInfo {
    int used, warned;
    int dense;                /* A, Qd, Qw, ev, bal were formed (else A is NULL: mode.c) */
    unsigned *mode;           /* mw words */
    unsigned long hash, swkey;
    long stamp, built;        /* last use; when the slot was filled (clock of RtModes) */
    double *A, *Qd, *Qw, *bal, *ev, *ev2;
    int *has2;
    int *rows, *cols;         /* A's nonzeros by rows: row i is vals[rows[i] .. rows[i+1]) */
    double *vals;
    double nu, h_exact, h_rk4, h_dp5, lam_re, lam_im, rho;
} RtModeInfo;

/* The Taylor expansion of the current step (taylor.c): Z(t0 + x h) =
** sum_k P_k x^k for x in [0, 1] (P_k already scaled by h^k), the tail
** factors, and on demand the coefficients of the energy integrands. */
typedef struct RtTaylor {
    int valid, energy, K;     /* K: the step's degree, at most RT_TAYLOR_K */
    double t0, h, tail, tail1;
    const RtModeInfo *mi;
    long built;               /* mi->built when this was built (mi's slot may be refilled) */
    long double *P, *ed, *ew;
} RtTaylor;

/* One cached propagator of the exact method: exp(A h) of a mode's augmented
** matrix (in long double, see expm.c) and the Van Loan integrals of the
** dissipation and work forms. */
typedef struct RtProp {
    int used;
    unsigned *mode;           /* mw words */
    unsigned long hash, swkey;
    double h;
    int quad;                 /* Qd, Qw were formed (only when the run keeps energies) */
    long double *E;           /* na*na */
    double *Qd, *Qw;          /* na*na each */
} RtProp;

/* The exact method's grid of steps dt inside a mode (step.c): where it
** applies, the grid index k, the current grid state as the run holds it (y,
** 2n doubles) and the state of each level in long double (Z, levels*na).
** States are matched by time as well: a body at rest repeats its y. */
/* A long double image of a state of the exact method (step.c): Z, the
** augmented state (na), stands behind any y (2n doubles) that is exactly its
** rounding.  The last RT_SHADOWS states computed are kept, so that the
** samples and trial steps taken between a landing and its transition do not
** push the landing's out. */
typedef struct RtShadow {
    int valid;
    double t;
    double *y;
    long double *Z;
} RtShadow;

typedef struct RtAnchor {
    int used;
    unsigned *mode;           /* mw words */
    unsigned long hash, swkey;
    double h, k, t;           /* t: time of the current grid point */
    double *y;
    long double *Z;
} RtAnchor;

/* Zeno and cascade detection (zeno.c): per gap, the time of its last
** impact, the last flight, how many flights in a row shrank by e, and the
** impacts counted; over several contacts (cluster_track) the last
** intervals, their ratios per lag and how steady they stay. */
typedef struct RtZeno {
    double *last, *tau;
    int *geo, *count;
    double c_last;
    double c_hist[RT_CLUSTER_LAGS];       /* the last intervals, newest first */
    double c_rho[RT_CLUSTER_LAGS + 1];    /* per lag: the last ratio */
    int c_steady[RT_CLUSTER_LAGS + 1];    /* and how many in a row kept it */
    int c_geo;                /* the most of those */
    unsigned *c_mask;         /* the contacts of the cascade (a set of mw words) */
} RtZeno;

/* The event-rate guard of the event log (stats.c owns, sizes and resets
** it; a recognized cascade's records go around it, rt_log_exempt): the
** times of the last events. */
typedef struct RtRate {
    double *ring;             /* window entries */
    long n;
    int window;               /* events the guard looks at: 16 + 4 g */
} RtRate;

/* The exact method's state (step.c): cached propagators, the anchored grid
** and the long double shadows of the states the run holds. */
typedef struct RtExact {
    RtProp cache[RT_CACHE];
    int cache_next;
    RtAnchor anchor;
    RtShadow shadow[RT_SHADOWS];
    int shadow_next, shadow_used;
    void *block;              /* the arrays above, one allocation (step.c) */
    int lazy;                 /* the propagators are allocated on first use (large models) */
} RtExact;

/* A matrix by rows (sparse.c): row r's nonzeros are x[p[r] .. p[r+1]),
** in the columns i[...] (ascending). */
typedef struct RtCsr {
    int rows;
    int *p, *i;               /* i points into p's allocation */
    double *x;
} RtCsr;

/* The nonzeros of the numeric tables K, C and W (sparse.c). */
typedef struct RtSparse {
    RtCsr K, C, W;
    int sym;                  /* K and C are symmetric */
} RtSparse;

/* The modes met, least recently used replaced (mode.c). */
/* The moving surfaces' work on the bodies (surfwork.c). */
typedef struct RtSurfWork {
    double *swork;            /* g: each moving surface's work on the bodies so far */
    double *vbook;            /* n: velocities at the last booking of impulse work */
    int vbook_on;             /* a transition's impulses are being booked */
    double Wsurf;             /* work of the moving surfaces on the bodies through impacts */
} RtSurfWork;

typedef struct RtModes {
    RtModeInfo info[RT_MODES];
    long clock;
} RtModes;

struct nsm_sim {
    const nsm_model *m;
    int n, g, ns, N;          /* bodies, gaps, switches, length of Y */
    int nf, ge;               /* friction elements; event functions g + 2 nf (friction.c) */
    int mw;                   /* words of a mode: NSM_MODE_WORDS(ge) */
    struct RtFric *fr;        /* friction's transition state, friction.c */
    struct RtFricStat *fs;    /* friction's audit and statistics, fricstat.c */
    int na;                   /* exact method: 2n + n_gen + 1 */
    double *p, *c;            /* parameters (with overrides), constants */
    nsm_numeric num;
    RtSparse sp;              /* num's K, C and W by rows, after each setup (sparse.c) */
    double *minv;             /* 1/mass */

    int method;
    double dt, every, rtol, atol; /* dt: the user's step (0: none, the steps come from the modes) */
    double etol;              /* balance error (relative) that stops a run with the audit on */
    int dt_set, every_set;    /* dt and every given through the API (else the model's, at reset) */
    long max_steps;
    double max_rate;
    int zeno_on;
    int audit;                /* the detailed energy audit and contact statistics (stats.c) */
    int energy;               /* the energy integrals y[2n], y[2n+1] are kept in this run (run.c) */
    int energy_lost;          /* some part of the run since the reset went without them */
    nsm_event_fn on_event;  void *ev_ud;
    nsm_sample_fn on_sample; void *sa_ud;

    int ready;                /* reset succeeded */
    int failed;               /* status of the failure that stopped the run */
    double t;
    double t_stop;            /* end of the current nsm_sim_run_until */
    double *y;                /* N */
    unsigned *mode;           /* the current mode, mw words (see rt_mode_has) */
    int *sw;
    double *sw_last;          /* time of the last flip of each switch */
    double h_adapt;           /* adaptive: next trial step */
    double h_step;            /* the current mode's step (exact, rk4) or largest step (adaptive) */
    double E0;                /* mechanical energy at t = 0 */
    double Voff;              /* constant making the potential the physical one */
    double Ejump;             /* energy removed by transitions (impacts, projections) */
    long steps, nevents;
    long sample_k;
    RtRate rate;              /* the event log's rate guard, stats.c */

    RtZeno zeno;              /* Zeno and cascade detection, zeno.c */
    double jt;                /* time and gap of the last transition (run.c, detect) */
    int jg;

    RtModes md;               /* the modes met, mode.c */
    RtTaylor tay;
    void (*on_warn)(void *, const nsm_sim *, const char *);
    void *warn_ud;

    RtExact ex;               /* the exact method's propagators, grid and shadows, step.c */

    int moving;               /* some gap moves with time (surface.c) */
    double *hgen;             /* 4 g n_gen: rows H G^k of the moving surfaces, surface.c */
    RtSurfWork sfw;           /* the moving surfaces' work, surfwork.c */
    struct RtStats *st;       /* energy audit and contact statistics, stats.c */
    struct RtSection *sec;    /* the Poincare section recorded, section.c (NULL: none) */
    double *y0;               /* initial state replacing the model's (2n), or NULL */
    double *work;             /* scratch, see sim.c */
    char msg[512];
};

/* A mode, and any set of gaps and friction states, is a bitset of s->mw
** words (nsm/model.h): bit j is bit j % 32 of word j / 32.  Sets made on the
** fly are arrays on the stack: unsigned set[s->mw], cleared by rt_mode_none. */
static inline int rt_mode_has(const unsigned *m, int j) { return (int)(m[j >> 5] >> (j & 31) & 1u); }
static inline void rt_mode_add(unsigned *m, int j) { m[j >> 5] |= 1u << (j & 31); }
static inline void rt_mode_del(unsigned *m, int j) { m[j >> 5] &= ~(1u << (j & 31)); }
static inline void rt_mode_flip(unsigned *m, int j) { m[j >> 5] ^= 1u << (j & 31); }
static inline void rt_mode_none(const nsm_sim *s, unsigned *m) { memset(m, 0, sizeof(unsigned) * (size_t)s->mw); }
static inline void rt_mode_copy(const nsm_sim *s, unsigned *d, const unsigned *a)
{
    memmove(d, a, sizeof(unsigned) * (size_t)s->mw);
}
static inline int rt_mode_eq(const nsm_sim *s, const unsigned *a, const unsigned *b)
{
    return memcmp(a, b, sizeof(unsigned) * (size_t)s->mw) == 0;
}
int rt_mode_empty(const nsm_sim *s, const unsigned *m);
unsigned long rt_mode_hash(const nsm_sim *s, const unsigned *m);
int rt_mode_count(const nsm_sim *s, const unsigned *m);

/* Dot product of two n-vectors. */
static inline double rt_dot(int n, const double *a, const double *b)
{
    double r = 0;
    for (int i = 0; i < n; i++)
        r += a[i] * b[i];
    return r;
}

/* message.c */
int rt_fail(nsm_sim *s, int code, int gap, const char *fmt, ...);
void rt_mode_text(const nsm_sim *s, const unsigned *mode, char *buf, int len);

/* surface.c */
int rt_surface_alloc(nsm_sim *s);
void rt_surface_free(nsm_sim *s);
void rt_surface_setup(nsm_sim *s);
void rt_surface(const nsm_sim *s, double t, double *h);
double rt_surface_of(const nsm_sim *s, int j, int k, double t);
int rt_surface_moves(const nsm_sim *s, int j);
const double *rt_surface_row(const nsm_sim *s, int j, int k);

/* coulomb.c: the friction elements' forces (event functions g .. ge - 1);
** an element's state is the mode's bits g + 2k (stuck), g + 2k + 1 (slipping
** backwards) */
static inline int rt_fric_stuck(const nsm_sim *s, const unsigned *mode, int k)
{
    return rt_mode_has(mode, s->g + 2 * k);
}
static inline int rt_fric_sign(const nsm_sim *s, const unsigned *mode, int k)
{
    return rt_mode_has(mode, s->g + 2 * k + 1) ? -1 : 1;
}
double rt_fric_slip(const nsm_sim *s, int k, const double *v);
int rt_fric_idle(const nsm_sim *s, const unsigned *mode, int k);
double rt_fric_slip_tol(const nsm_sim *s, int k, const double *v);
int rt_fric_normal_gap(const nsm_sim *s, int k);
double rt_fric_normal(const nsm_sim *s, const unsigned *mode, int k, const double *x,
                      const double *v, const double *lam, int cflag);
void rt_fric_forces(const nsm_sim *s, const unsigned *mode, const double *x, const double *v,
                    int cflag, double *F);
void rt_fric_gap_dir(const nsm_sim *s, const unsigned *mode, int j, double *dir);
void rt_fric_events(const nsm_sim *s, const unsigned *mode, const double *x, const double *v,
                    const double *a, const double *lam, const double *dlam, const double *lamf,
                    const double *dlamf, double *ev, double *evd);
void rt_fric_power(const nsm_sim *s, const unsigned *mode, const double *x, const double *v,
                   const double *lam, const double *lamf, double *pd, double *pw);
void rt_fric_forms(const nsm_sim *s, const unsigned *mode, const double *L, const double *lg, double *ev,
                   double *Qd, double *Qw);

/* dynamics.c */
double rt_gap(const nsm_sim *s, int j, const double *x);
double rt_gap_at(const nsm_sim *s, int j, double t, const double *x);
double rt_gap_rate(const nsm_sim *s, int j, double t, const double *v);
int rt_accel_surf(const nsm_sim *s, const unsigned *mode, const double *F, const double *hdd,
                  double *a, double *lam, double *lamf);
int rt_multipliers(nsm_sim *s, const unsigned *mode, double t, const double *y, double *lam,
                   double *lamf);
void rt_force_parts(const nsm_sim *s, const unsigned *mode, const double *x, const double *v,
                    const double *fext, int cflag, double *F);
int rt_accel_from_force(const nsm_sim *s, const unsigned *mode, const double *F, double *a, double *lam);
int rt_accel_full(const nsm_sim *s, const unsigned *mode, const double *F, double *a, double *lam,
                  double *lamf);
int rt_deriv(const nsm_sim *s, const unsigned *mode, double t, const double *Y, double *Yd);
int rt_deriv_generic(const nsm_sim *s, const unsigned *mode, double t, const double *Y, double *Yd);
int rt_lambda(const nsm_sim *s, const unsigned *mode, double t, const double *y, double *lam);
int rt_events(const nsm_sim *s, const unsigned *mode, double t, const double *y, double *ev, double *evd);
int rt_events_generic(const nsm_sim *s, const unsigned *mode, double t, const double *y, double *ev, double *evd);
double rt_gap_tol(const nsm_sim *s, int j, const double *x);
double rt_vel_tol(const nsm_sim *s, int j, const double *v);
double rt_force_scale(const nsm_sim *s, double t, const double *y);
int rt_force_lcp(const nsm_sim *s, const unsigned *mode, double t, const double *y,
                 const unsigned *cand, double *lam);
int rt_project(const nsm_sim *s, const unsigned *set, double *v);

double rt_force_tol(const nsm_sim *s, const unsigned *mode, const double *y);
void rt_delassus(const nsm_sim *s, const int *idx, int r, double *D);
double rt_mech_energy(const nsm_sim *s, const unsigned *mode, const double *y);

/* sparse.c */
int rt_sparse_build(nsm_sim *s);
void rt_sparse_free(nsm_sim *s);
double rt_csr_dot(const RtCsr *A, int r, const double *u);
double rt_wrow(const nsm_sim *s, int j, const double *u);
int rt_gaps_coupled(const nsm_sim *s, int a, int b);

/* mode.c */
unsigned long rt_switch_key(const nsm_sim *s);
const RtModeInfo *rt_mode_info(nsm_sim *s);
void rt_mode_clear(nsm_sim *s);
void rt_mode_free(nsm_sim *s);

/* taylor.c */
int rt_taylor_alloc(nsm_sim *s);
void rt_taylor_free(nsm_sim *s);
void rt_taylor_terms(const RtModeInfo *mi, int na, int K, double h, long double *P);
int rt_taylor_build(nsm_sim *s, const RtModeInfo *mi, double t0, const long double *Z0, double h);
int rt_taylor_is(const nsm_sim *s, const RtModeInfo *mi, double t0, const long double *Z0,
                 double h);
void rt_taylor_state(const nsm_sim *s, double x, long double *Z);
void rt_taylor_form(const nsm_sim *s, const double *c, long double *a, double *r0, double *r1);
void rt_taylor_energy(nsm_sim *s, double x, double *Ed, double *Ew);
int rt_poly_first_zero(const long double *a, int K, double lo, double r0, double r1, double *x);
int rt_poly_first_peak(const long double *a, int K, double lo, double r1, double *x);

/* events.c */
double rt_fric_event_tol(const nsm_sim *s, int j, const double *y);
int rt_fric_check(nsm_sim *s, double t1, const double *Y1);
int rt_detect(nsm_sim *s, double t0, const double *Y0, double h, const double *Y1, int final,
              int *jev, double *tau, double *Ys);
void rt_detect_sample(nsm_sim *s, double tau, const double *Y0, double *Yk);

/* step.c */
void rt_exact_state(nsm_sim *s, double t, const double *Y, long double *ZL);
void rt_exact_land(nsm_sim *s, double t, const long double *Z, double *Y1);
int rt_step(nsm_sim *s, double t, const double *Y, double *h, double *Y1);
int rt_advance(nsm_sim *s, double t, const double *Y, double tau, double *Y1);
int rt_locate(nsm_sim *s, int j, double t0, const double *Y0, double h,
              double s0, double sd0, double *tau, double *Ys);
int rt_exact_alloc(nsm_sim *s);
void rt_exact_free(nsm_sim *s);
void rt_cache_clear(nsm_sim *s);
int rt_exact_check(nsm_sim *s, double t_end);
double rt_zeno_tail(nsm_sim *s, int j, double tau);
void rt_shadow_impulse(nsm_sim *s, int j, double e, double t, const double *y0, double *y);

/* surfwork.c: the moving surfaces' work (the audit's and the transitions') */
int rt_surfwork_alloc(nsm_sim *s);
void rt_surfwork_free(nsm_sim *s);
double rt_surface_impulse_work(const nsm_sim *s);
double rt_surface_book(nsm_sim *s);
void rt_surface_begin(nsm_sim *s);
void rt_surface_mark(nsm_sim *s);
void rt_surface_end(nsm_sim *s);
void rt_surface_step(nsm_sim *s, double t1, const double *Y1, double *dW);
double rt_surface_work(const nsm_sim *s, int j);
void rt_surface_reset(nsm_sim *s);

/* fricstat.c: the friction elements' audit and statistics */
int rt_fricstat_alloc(nsm_sim *s);
void rt_fricstat_free(nsm_sim *s);
void rt_fricstat_reset(nsm_sim *s);
void rt_fricstat_change(nsm_sim *s, int k, int kind);
void rt_fricstat_step(nsm_sim *s, double t1, const double *Y1, double *dD, double *dW);

/* friction.c: the friction elements' transitions (stick, slip, impulses) */
int rt_fric_impulse(nsm_sim *s, int j, int r, int exempt, int *handled);
int rt_fric_impact(nsm_sim *s, int j, const double *v0);
int rt_fric_zeno_check(nsm_sim *s, int j);
int rt_fric_transition(nsm_sim *s, int j);
int rt_fric_update(nsm_sim *s);
int rt_fric_initial(nsm_sim *s);
int rt_fric_alloc(nsm_sim *s);
void rt_fric_free(nsm_sim *s);
void rt_fric_reset(nsm_sim *s);
int rt_fric_validate(nsm_sim *s);

/* transition.c: the transitions.  An impact is applied in parts, between
** which the run loop hands its RtImpact to the Zeno handling (zeno.c):
** rt_impact_begin, rt_zeno_track, rt_impact_apply, rt_zeno_resolve and,
** unless that ended it (done), rt_impact_end.  Whatever settles reports the
** gaps that stuck or separated in *forget, for rt_zeno_forget. */
typedef struct RtImpact {
    int j;                    /* the gap landed on, open and closing */
    unsigned *ref;            /* the mode before (mw words, the caller's storage) */
    int r, *idx;              /* the gaps of its impulse problem, ascending (g entries) */
    unsigned *set;            /* the same as a set (mw words) */
    double *vb;               /* every gap's relative velocity before (g entries) */
    int single;               /* j the only open one (and one collision) */
    int held;                 /* one held shut shares a body with j */
    int cascade;              /* zeno.c: a one-contact cascade goes on */
    int ends_cluster;         /* zeno.c: it ends a cascade over several */
    int exempt;               /* zeno.c: its records skip the rate guard */
    long count;               /* collisions of its sequence */
    int done;                 /* the transition is complete (settled) */
} RtImpact;
int rt_is_impact(const nsm_sim *s, int j);
double rt_wdot(const nsm_sim *s, int j, const double *v);
double rt_wacc(const nsm_sim *s, int j, const double *a);
int rt_settle(nsm_sim *s, const unsigned *ref, const unsigned *forced_open, unsigned *forget);
int rt_rebound_unresolved(nsm_sim *s, int j);
int rt_impact_set(nsm_sim *s, int j, const unsigned *extra, double *vb, int *idx, unsigned *set);
int rt_impact_begin(nsm_sim *s, int j, RtImpact *im, unsigned *forget);
int rt_impact_apply(nsm_sim *s, RtImpact *im);
int rt_impact_end(nsm_sim *s, const RtImpact *im, unsigned *forget);
int rt_transition_gap(nsm_sim *s, int j, unsigned *forget);
int rt_initial_contacts(nsm_sim *s, unsigned *forget);

/* zeno.c: the Zeno and cascade handling */
int rt_zeno_alloc(nsm_sim *s);
void rt_zeno_free(nsm_sim *s);
void rt_zeno_reset(nsm_sim *s);
int rt_zeno_settle(nsm_sim *s, const unsigned *ref, const unsigned *forced_open);
void rt_zeno_forget(nsm_sim *s, const unsigned *gaps);
void rt_zeno_track(nsm_sim *s, RtImpact *im);
int rt_zeno_resolve(nsm_sim *s, RtImpact *im);

/* run.c: the run loop */
int rt_initial_mode(nsm_sim *s);
int rt_run(nsm_sim *s, double t_end);

/* section.c: the run loop asks for the next stroboscopic time before a step
** (rt_section_target) and hands over each step's end before its transition
** (rt_section_step; j the event landed on, -1 none); both only with s->sec. */
int rt_section_reset(nsm_sim *s);
void rt_section_free(nsm_sim *s);
int rt_section_target(nsm_sim *s, double *target);
int rt_section_step(nsm_sim *s, double t1, const double *Y1, int j);
typedef int (*rt_track_fn)(nsm_sim *s, double t1, const double *Y1, int j, void *ud);
int rt_section_track(nsm_sim *s, rt_track_fn fn, void *ud);
void rt_section_untrack(nsm_sim *s);

/* stats.c: the audit follows every step (rt_stats_step, called by the run
** loop with the step's start in s and its end (t1, Y1) before any
** transition) and every event record, which the transitions log here. */
int rt_log_event(nsm_sim *s, int kind, int j, double vb, double va, double P, double lost,
                 long count);
int rt_log_exempt(nsm_sim *s, int kind, int j, double vb, double va, double P, double lost,
                  long count);

int rt_stats_alloc(nsm_sim *s);
void rt_stats_free(nsm_sim *s);
void rt_stats_reset(nsm_sim *s);
void rt_stats_step(nsm_sim *s, double t1, const double *Y1);
/* The largest energy magnitude met so far, at least `now`: the scale of energy.error. */
double rt_stats_energy_scale(const nsm_sim *s, double now);
double rt_stats_relative_error(const nsm_sim *s);

#endif
