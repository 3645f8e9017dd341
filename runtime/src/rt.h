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
#include "energy.h"

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

/* A function that only records a failure, builds a message, or handles a
** rare case (an event found, a first call's set-up): gcc keeps it out of
** line (noinline) and moves it and the branches that lead to it out of the
** hot code (.text.unlikely), so that a step's loops fill fewer
** instruction-cache lines.  Like RT_HOT, it changes where the code lies,
** not what it computes. */
#if defined(__GNUC__) || defined(__clang__)
#define RT_COLD __attribute__((cold, noinline))
#else
#define RT_COLD
#endif
/* A function that every step of some method runs (the step itself, its
** derivatives, its event detection, its energy balance, its sample): gcc
** places them together (.text.hot), so that the few kilobytes a step runs
** share instruction-cache sets with each other and not with the hundreds
** of kilobytes of set-up, studies and rare transitions between them.  The
** attribute changes where the code lies and how hard gcc optimises it,
** not what it computes: the arithmetic is the same IEEE arithmetic. */
#define RT_HOT __attribute__((hot))
/* A function kept out of line (noinline) so that a hot caller stays small:
** the work of an option a step runs only when it is on (the detailed
** audit), or one method's path beside another's in one dispatcher. */
#if defined(__GNUC__) || defined(__clang__)
#define RT_APART __attribute__((noinline))
#else
#define RT_APART
#endif
#define RT_CACHE 16           /* propagators kept by the exact method */
#define RT_ANCHOR_LEVELS 4
#define RT_CLUSTER_LAGS 4     /* longest cycle of contacts a cascade is seen in (zeno.c) */
#define RT_SHADOWS 8          /* long double states kept by the exact method */
#define RT_MODES 8            /* modes whose matrices and step bounds are kept (mode.c) */
#define RT_DENSE_NA 400       /* larger models: rk4 and adaptive bound a mode's steps without its matrix */
#define RT_TAYLOR_K 32        /* degree of a step's Taylor expansion (taylor.c) */
#define RT_VEL_FLOOR 1e-12   /* m/s: the velocity floors' absolute part (rt_vel_tol, rt_fric_slip_tol) */
#define RT_VEL_FLOORS 1e3    /* a run whose speed scale is within this many floors is refused (run.c) */
#define RT_TAYLOR_REACH 2.0   /* the exact method's step is at most this over nu (mode.c) */
#define RT_TAYLOR_PROPS 8     /* full steps' propagators kept (taylor.c) */
#define RT_TAYLOR_PROP_NA 24  /* ... for models of at most this many augmented states */
#define RT_RK4_REACH 0.5      /* a user's rk4 step resolves a mode while rho h is below this */
#define RT_DP5_OWN 0.1        /* adaptive's largest step in a mode: this over rho */
#define RT_BAND_WARN 1e-6     /* a gap band (m) beyond which a contact's resolution is said */
#define RT_RK4_OWN 0.02       /* rk4's own step in a mode it must resolve: this over rho */
#define RT_RK4_LONGEST 1e-3   /* rk4's longest own step (no dt), s */

/* What the runtime knows of a mode (mode.c): on Z = (x, v, z, 1), Z' = A Z;
** the quadratic forms of the dissipated power (Qd) and of the external
** work (Qw); event function j is ev[j] . Z (max with ev2[j] . Z when
** has2[j], an open penalty gap released by force); the balancing scales
** bal of A and nu = ||bal^-1 A bal||_inf; the exponentials' factors ebal
** (nsm_expm_factors: bal, or ones where it does not lower the 1-norm),
** formed once for every step; the exact method's step h_exact;
** the stability bounds h_rk4 and h_dp5 and the eigenvalue lam that sets
** h_rk4.  Built once per mode and switch state. */
typedef struct RtModeInfo {
    int used, warned;
    int dense;                /* A, Qd, Qw, ev, bal were formed (else A is NULL: mode.c) */
    unsigned *mode;           /* mode_words words */
    unsigned long hash, swkey;
    long stamp, built;        /* last use; when the slot was filled (clock of RtModes) */
    double *A, *Qd, *Qw, *bal, *ebal, *ev, *ev2;
    int *has2;
    int *rows, *cols;         /* A's nonzeros by rows: row i is vals[rows[i] .. rows[i+1]) */
    int *qcomp, nqcomp;       /* the components Qd or Qw reads (a nonzero in their row or column) */
    double *vals;
    double nu, h_exact, h_rk4, h_dp5, lam_re, lam_im, rho;
    struct RtModeOp *op;      /* a large model's mode as an operator (modeop.c), else NULL */
} RtModeInfo;

/* A large model's mode as an operator on Z = (x, v, 1) (modeop.c): the
** closed impact gaps grouped into clusters (gaps coupled through shared
** bodies), each with the band Cholesky factor of its Delassus matrix, the
** engaged penalty gaps, the forcing generator's B and G, and the weights
** of the norm its Taylor tails are bounded in, ||Z|| = max(omega ||x||_M,
** ||v||_M, mu ||z||_inf). */
typedef struct RtModeOp {
    int nr, nc;               /* closed impact gaps; clusters */
    int *gap;                 /* nr: the closed impact gaps, cluster by cluster */
    int *cstart;              /* nc + 1: cluster c is gap[cstart[c] .. cstart[c + 1]) */
    int *band;                /* nc: its half bandwidth */
    int *lstart;              /* nc + 1: its factor is L[lstart[c] ..), (band + 1) per row */
    long double *L;
    double *sigma;            /* nc: a bound of ||L^-1||_2 (the cluster's forces per force) */
    int *slot;                /* n_gaps: gap j's index in gap[] (-1: not a closed impact gap) */
    int *clus;                /* n_gaps: its cluster */
    int npen, *pen;           /* the engaged penalty gaps */
    int *has2;                /* n_gaps: as RtModeInfo's */
    double *wn;               /* n_gaps: ||M^-1/2 w_j||_2 */
    double kap, damp, omega;  /* ||M^-1 K'||_inf, ||M^-1 C'||_inf, the x weight */
    double beta, mu;          /* ||M^-1/2 B||_(inf->2), the z weight */
    double flush;             /* bound of the flushed coefficients' effect (modeop.c) */
    int ng, nb;               /* the forcing generator's states; B's nonzeros */
    int *bi, *bk;             /* B's nonzeros: f_ext[bi] += bx z[bk] */
    double *bx, *G;           /* and G (ng x ng) */
    int damped;               /* C' has nonzeros: the dissipated energy is not 0 */
    long double *work;        /* nr: the clusters' right-hand sides */
} RtModeOp;

/* The Taylor expansion of the current step (taylor.c): Z(t0 + x h) =
** sum_k P_k x^k for x in [0, 1] (P_k already scaled by h^k), the tail
** factors, and on demand the coefficients of the energy integrands. */
/* A propagator of the exact method's full step h in a mode (taylor.c), for
** a small model: the expansion's operators applied once to every state of
** a step instead of forming its terms, which a step without an event never
** needs.  E = sum_k G_k and G_K, with G_k = (A h)^k / k!, and the rows
** c_j G_k of every event function (n_events * (K + 1) rows of n_aug). */
typedef struct RtTayProp {
    const RtModeInfo *mi;
    long built, stamp;        /* mi->built it was formed for; last use */
    double h;
    int K, ready;             /* ready: formed (else the key is only counted) */
    int quiet;                /* its steps whose terms nothing asked for */
    size_t cap;               /* long doubles in E */
    long double *E, *GK, *R;  /* one block: n_aug*n_aug, n_aug*n_aug, n_events*(K+1)*n_aug */
    double *cn;               /* n_events: sum_i |c_j,i| bal_i (the tail's factor) */
} RtTayProp;

typedef struct RtTaylor {
    int valid, energy, K;     /* K: the step's degree, at most RT_TAYLOR_K */
    int lazy;                 /* P_1 .. P_K not formed yet (prop stands for them) */
    double t0, h, tail, tail1;
    const RtModeInfo *mi;
    long built;               /* mi->built when this was built (mi's slot may be refilled) */
    long double *P;
    long double *edw;         /* the energy integrals' coefficients, dissipated and external by pairs */
    double *pd;               /* P's terms rounded to double, component by component (energy_series) */
    long double *lam;         /* a large mode's (mi->op): lambda of P_k, k = 0 .. K, nr each */
    int lam_cap;              /* entries allocated in lam */
    const RtTayProp *prop;    /* the step's propagator, or NULL */
    RtTayProp *key;           /* the step's entry (formed or not), or NULL */
    int touched;              /* the step's terms were asked for */
    RtTayProp props[RT_TAYLOR_PROPS];
    long clock;
} RtTaylor;

/* One cached propagator of the exact method: exp(A h) of a mode's augmented
** matrix (in long double, see expm.c) and the Van Loan integrals of the
** dissipation and work forms. */
typedef struct RtProp {
    int used;
    unsigned *mode;           /* mode_words words */
    unsigned long hash, swkey;
    double h;
    int quad;                 /* Qd, Qw were formed (only when the run keeps energies) */
    long double *E;           /* n_aug*n_aug */
    double *Qd, *Qw;          /* n_aug*n_aug each */
} RtProp;

/* The exact method's grid of steps dt inside a mode (step.c): where it
** applies, the grid index k, the current grid state as the run holds it (y,
** 2n doubles) and the state of each level in long double (Z, levels*n_aug).
** States are matched by time as well: a body at rest repeats its y. */
/* A long double image of a state of the exact method (step.c): Z, the
** augmented state (n_aug), stands behind any y (2n doubles) that is exactly its
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
    unsigned *mode;           /* mode_words words */
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
    unsigned *c_mask;         /* the contacts of the cascade (a set of mode_words words) */
    double f_u;               /* the last impact's closing speed (collapse_follow) */
    int f_run;                /* impacts in a row whose closing speed contracted */
    long f_count, f_retry;    /* impacts seen; the count before which no new follow */
    unsigned *f_mask;         /* the contacts of that run (mode_words words) */
    int rk_gap;               /* rocking cascade (zeno.c): the gap of its last impact, */
    double rk_rho, rk_a, rk_c;   /* that impact's speed ratio, the opening gap's flight law */
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

/* The adaptive method's last stage kept for reuse (step.c, adaptive_step):
** f(t, y) in a mode, computed under inputs_gen.  The next step's first
** stage is read from it when that step's time, state and mode are these,
** bit for bit, and inputs_gen has not moved (first same as last). */
typedef struct {
    double t;                 /* the time the derivative was evaluated at */
    double *y, *k;            /* its state and derivative (n_state values each) */
    unsigned *mode;           /* its mode (mode_words words) */
    unsigned gen;             /* inputs_gen when it was computed */
    int used;                 /* it holds one */
    void *block;              /* the arrays above, one allocation (step.c) */
} RtFsal;

/* A matrix by rows (sparse.c): row r's nonzeros are x[p[r] .. p[r+1]),
** in the columns i[...] (ascending). */
typedef struct RtCsr {
    int rows, cols;
    int *p, *i;               /* i points into p's allocation */
    double *x;
} RtCsr;

/* The nonzeros of the numeric tables K, C, W and Wt (sparse.c). */
typedef struct RtSparse {
    RtCsr K, C, W, Wt;
    int sym;                  /* K and C are symmetric */
} RtSparse;

/* The modes met, least recently used replaced (mode.c). */
/* The moving surfaces' work on the bodies (surfwork.c). */
typedef struct RtSurfWork {
    double *swork;            /* n_gaps: each moving surface's work on the bodies so far */
    double *vbook;            /* n_vel: velocities at the last booking of impulse work */
    int vbook_on;             /* a transition's impulses are being booked */
    double Wsurf;             /* work of the moving surfaces on the bodies through impacts */
} RtSurfWork;

typedef struct RtModes {
    RtModeInfo info[RT_MODES];
    long clock;
} RtModes;

/* The settings of a simulation (sim.c owns them: only the API's setters and
** the reset write them; every layer reads them). */
typedef struct RtSettings {
    int method;
    double dt, every, rtol, atol; /* dt: the user's step (0: none, the steps come from the modes) */
    double etol;              /* balance error (relative) that stops a run with the audit on */
    int dt_set, every_set;    /* dt and every given through the API (else the model's, at reset) */
    long max_steps;
    double max_rate;
    long max_impacts;         /* pair collisions at one instant before the run stops */
    int zeno_on;
    int audit;                /* the detailed energy audit and contact statistics (stats.c) */
    nsm_event_fn on_event;  void *ev_ud;
    nsm_sample_fn on_sample; void *sa_ud;
    const volatile sig_atomic_t *stop; /* the caller's stop flag, read per step, or NULL */
    void (*on_warn)(void *, const nsm_sim *, const char *);
    void *warn_ud;
    double *y0;               /* initial state replacing the model's (2n), or NULL */
    int dense_na;             /* exact: past this n_aug a mode is an operator (RT_DENSE_NA; modeop.c);
                                 a test lowers it */
} RtSettings;

struct nsm_sim {
    const nsm_model *m;
    int n_vel, n_gaps, n_switches, n_state; /* velocities, gaps, time switches, length of Y */
    int n_pos;                /* positions: Y = (q[n_pos], u[n_vel], E_d, E_w); n_pos =
                                 n_vel but for bodies in space (nsm/model.h, rigid.c) */
    int n_fric, n_events;     /* friction elements; event functions n_gaps + 2 n_fric (friction.c) */
    int n_space_fric;         /* spatial friction elements (spacefric.c); mode bits n_events + k */
    int mode_words;           /* words of a mode: NSM_MODE_WORDS(n_events + n_space_fric) */
    struct RtFric *fr;        /* friction's transition state, friction.c */
    struct RtFricStat *fs;    /* friction's audit and statistics, fricstat.c */
    const struct rt_law **law; /* n_gaps: each gap's contact law (laws.c, law.h) */
    int n_force_gaps;         /* gaps whose law is a force element (not a constraint), laws.c */
    unsigned *constraint_gaps; /* mode_words words: the gaps whose law is a constraint (laws.c);
                                 a mode's held contacts are its bits among these */
    double *law_c;            /* n_gaps: each gap's closed damping, its law's damping read
                                 once per setup (laws.c), not through the table per use */
    double *law_tol_k;        /* n_gaps: a law's constant of its event tolerance, cached by its
                                 setup hook (law_penalty.c: a linear force's slope) */
    unsigned char *law_tol_gap; /* n_gaps: 1 where the law's setup said its event tolerance is
                                 the gap's in every mode (events.c asks rt_gap_tol directly) */
    int n_aug;                /* augmented states Z = (x, v, z, 1): 2 n_vel + n_gen + 1 */
    double *params, *consts;  /* parameters (with overrides), constants */
    nsm_numeric num;
    RtSparse sp;              /* num's K, C, W and Wt by rows, after each setup (sparse.c) */
    double *mass_inv;         /* 1/mass */

    RtSettings set;           /* the settings, sim.c */
    int energy;               /* the energy integrals y[2n], y[2n+1] are kept in this run (run.c) */
    int energy_lost;          /* some part of the run since the reset went without them */

    int ready;                /* reset succeeded */
    int failed;               /* status of the failure that stopped the run */
    int fail_contact;         /* 1 + the gap or friction column the failure names, 0 none */
    double t;                 /* the current state: t, y and mode, written by state.c only */
    double t_stop;            /* end of the current nsm_sim_run_until */
    double *y;                /* n_state */
    unsigned *mode;           /* the current mode, mode_words words (see rt_mode_has) */
    int mode_holds;           /* whether it holds a constraint gap (constraint_gaps), state.c */
    int *sw;                  /* each time switch's state (n_switches), state.c */
    double *sw_last;          /* time of the last flip of each switch, state.c */
    double h_adapt;           /* adaptive: next trial step */
    unsigned inputs_gen;      /* changes with what the derivative reads beside t, y and mode
                                 (switches, parameters, a reset, a transition), state.c */
    RtFsal fsal;              /* adaptive's derivatives kept for reuse, step.c */
    double speed0;            /* speeds at the reset, before its impacts (rt_speed_scale) */
    double t_reset;           /* the time at the reset: a run's span is t_stop - t_reset */
    double h_step;            /* the current mode's step (exact, rk4) or largest step (adaptive) */
    int taylor_tiny_steps;    /* taylor: steps in a row its reach cut below the time resolution */
    double energy_start;     /* mechanical energy at t = 0 */
    double potential_offset; /* constant making the potential the physical one */
    double transition_loss;   /* energy removed by transitions (impacts, projections), state.c */
    int band_warned;          /* a contact's coarse band said once (run.c, band_warn) */
    long steps, nevents;
    long sample_k;
    double t_sampled;         /* the time of the last sample handed out (run.c, sample) */
    long nev_sampled;         /* nevents then: an event since sets the end apart */
    RtRate rate;              /* the event log's rate guard, stats.c */

    RtZeno zeno;              /* Zeno and cascade detection, zeno.c */
    double last_transition_t; /* time and event column of the last transition, state.c */
    int last_transition_j;    /* (-1 none): an impact there is not found again (detect) */
    unsigned *marks_now;      /* the columns with a transition at last_transition_t (mode_words words) */

    RtModes md;               /* the modes met, mode.c */
    RtTaylor tay;

    RtExact ex;               /* the exact method's propagators, grid and shadows, step.c */

    int moving;               /* some gap moves with time (surface.c) */
    double *surface_gen_rows; /* 4 g n_gen: rows H G^k of the moving surfaces, surface.c */
    RtSurfWork sfw;           /* the moving surfaces' work, surfwork.c */
    struct RtStats *st;       /* energy audit and contact statistics, stats.c */
    struct RtClus *cl;        /* scratch of the generic path's constraint problems, dynamics.c */
    struct RtSeq *impact_seq; /* the impact sequences' arrays, kept between impacts, transition.c */
    struct RtNl *nl;          /* a nonlinear model's curved-gap tangent, nonlin.c (NULL: none) */
    struct RtSf *sf;          /* spatial friction's kinematics, spacefric.c (NULL: none) */
    struct RtMass *mass;      /* a Lagrangian model's M(q) factor, massmat.c (NULL: diagonal) */
    struct RtNlTaylor *nlt;   /* the taylor method's series, nltaylor.c (NULL: not used yet) */
    struct RtSection *sec;    /* the Poincare section recorded, section.c (NULL: none) */
    double *work;             /* scratch, see sim.c */
    char msg[1200];
    int cont_short;           /* how the last continuation ended short, continuation.c */
};

/* A mode, and any set of gaps and friction states, is a bitset of s->mode_words
** words (nsm/model.h): bit j is bit j % 32 of word j / 32.  Sets made on the
** fly are arrays on the stack: unsigned set[s->mode_words], cleared by rt_mode_none. */
static inline int rt_mode_has(const unsigned *m, int j) { return (int)(m[j >> 5] >> (j & 31) & 1u); }
static inline void rt_mode_add(unsigned *m, int j) { m[j >> 5] |= 1u << (j & 31); }
static inline void rt_mode_del(unsigned *m, int j) { m[j >> 5] &= ~(1u << (j & 31)); }
static inline void rt_mode_flip(unsigned *m, int j) { m[j >> 5] ^= 1u << (j & 31); }
static inline void rt_mode_none(const nsm_sim *s, unsigned *m) { memset(m, 0, sizeof(unsigned) * (size_t)s->mode_words); }
static inline void rt_mode_copy(const nsm_sim *s, unsigned *d, const unsigned *a)
{
    memmove(d, a, sizeof(unsigned) * (size_t)s->mode_words);
}
static inline int rt_mode_eq(const nsm_sim *s, const unsigned *a, const unsigned *b)
{
    return memcmp(a, b, sizeof(unsigned) * (size_t)s->mode_words) == 0;
}
int rt_mode_empty(const nsm_sim *s, const unsigned *m);
/* Whether mode m holds a constraint gap (one of s->constraint_gaps, laws.c):
** read a word at a time, no law looked up. */
static inline int rt_mode_holds_constraint(const nsm_sim *s, const unsigned *m)
{
    unsigned any = 0;
    for (int w = 0; w < s->mode_words; w++)
        any |= m[w] & s->constraint_gaps[w];
    return any != 0;
}
unsigned long rt_mode_hash(const nsm_sim *s, const unsigned *m);
int rt_mode_count(const nsm_sim *s, const unsigned *m);

/* The velocities u[n] of the state Y (after its n_pos positions). */
static inline const double *rt_vel(const nsm_sim *s, const double *Y) { return Y + s->n_pos; }
/* Index in Y of the dissipated energy E_d (E_w follows). */
static inline int rt_eslot(const nsm_sim *s) { return s->n_pos + s->n_vel; }

/* Dot product of two n-vectors. */
static inline double rt_dot(int n, const double *a, const double *b)
{
    double r = 0;
    for (int i = 0; i < n; i++)
        r += a[i] * b[i];
    return r;
}

/* ctext.c: every text the library formats or number it reads, with a
** decimal point whatever the calling program's locale */
int rt_text_printf(char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int rt_text_vprintf(char *buf, size_t len, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));
double rt_text_strtod(const char *s, char **end);
const char *rt_text_shortest(char *buf, size_t len, double v);

/* message.c */
#define RT_T_RES 16           /* a step below this many ulps of t cannot advance it */
#define RT_NL_RK4_STEP 1e-3  /* rk4's step on a nonlinear model without a dt */
RT_COLD int rt_fail(nsm_sim *s, int code, int gap, const char *fmt, ...);
double rt_t_resolution(const nsm_sim *s, double t_end);
int rt_t_resolved(const nsm_sim *s, double h, double t_end);
RT_COLD int rt_time_beyond(nsm_sim *s, double h, double t_end, const char *who);
RT_COLD int rt_cause_ahead(nsm_sim *s, double h);
RT_COLD int rt_cause_step(nsm_sim *s, double t0, const double *y0, double h);
RT_COLD int rt_time_beyond_as(nsm_sim *s, double h, double t_end, const char *who, int status);
RT_COLD const char *rt_state_label(const nsm_sim *s, int i, char *buf, size_t size);
int rt_mode_sparse(const nsm_sim *s);
RT_COLD void rt_mode_text(const nsm_sim *s, const unsigned *mode, char *buf, int len);

/* nonlin.c: nonlinear models (state-dependent forces, curved gaps, penalty powers) */
/* The mass operator (massmat.c): diagonal, or a Lagrangian model's M(q). */
typedef struct RtMass RtMass;
int rt_mass_alloc(nsm_sim *s);
void rt_mass_free(nsm_sim *s);
int rt_mass_factor(const nsm_sim *s, const double *y);
double rt_mass_kinetic_q(const nsm_sim *s, const double *y);
double rt_mass_det(const nsm_sim *s, const double *y);

/* Is the mass matrix dense (a Lagrangian model)? */
static inline int rt_mass_dense(const nsm_sim *s)
{
    return s->mass != NULL;
}

/* M(q) evaluated and factored at the positions of y (rt_mass_factor) for
** a Lagrangian model; nothing for a diagonal constant mass, decided here
** so that such a model pays no call per evaluation of its dynamics.
** NSM_ENUMERIC (with s->msg) when M(q) is not positive definite. */
static inline int rt_mass_at(const nsm_sim *s, const double *y)
{
    return s->mass ? rt_mass_factor(s, y) : NSM_OK;
}

/* Kinetic energy 1/2 v^T M v at y: energy.c's diagonal sum for an ordinary
** model (inline: the audit asks at every step), rt_mass_kinetic_q's
** 1/2 v^T M(q) v for a Lagrangian one. */
static inline double rt_mass_kinetic(const nsm_sim *s, const double *y)
{
    if (s->mass)
        return rt_mass_kinetic_q(s, y);
    return nsm_energy_kinetic(s->n_vel, s->num.mass, y + (s->n_pos - s->n_vel)); /* reads [n + i] */
}
void rt_mass_forget(nsm_sim *s);
int rt_mass_solve_dense(const nsm_sim *s, const double *F, double *a);

/* a = M^-1 F (n values; a may not alias F): mass_inv F, product for product,
** inline for a diagonal mass, so that the models without M(q) pay no call
** per solve (the taylor method solves twice per order); M(q)'s factor
** through rt_mass_solve_dense.  NSM_ENUMERIC when that M(q) is not
** positive definite. */
static inline int rt_mass_solve(const nsm_sim *s, const double *F, double *a)
{
    if (s->mass)
        return rt_mass_solve_dense(s, F, a);
    for (int i = 0; i < s->n_vel; i++)
        a[i] = s->mass_inv[i] * F[i];
    return NSM_OK;
}
void rt_mass_add_row(const nsm_sim *s, const RtCsr *A, int r, double f, double *v);
double rt_mass_inner(const nsm_sim *s, const RtCsr *R, int ra, const RtCsr *Dd, int rb);
long double rt_mass_dot(const nsm_sim *s, const double *a, const double *b);
double rt_mass_potential(const nsm_sim *s, const double *y);
void rt_mass_forces(const nsm_sim *s, const double *x, const double *v, double *F);
void rt_mass_rates(const nsm_sim *s, const double *y, const double *a, double *dF);

typedef struct RtNl RtNl;
int rt_nl_alloc(nsm_sim *s);
void rt_nl_free(nsm_sim *s);
int rt_nl_setup(nsm_sim *s);
void rt_nl_at(const nsm_sim *s, const double *y);
void rt_nl_forget(nsm_sim *s);
void rt_nl_curv(const nsm_sim *s, double *hdd);
double rt_nl_curv_of(const nsm_sim *s, int j);
/* Is gap j curved (a model with curved slips may have no curved gap)?
** Inline: every gap's value asks (rt_gap_at). */
static inline int rt_nl_gap_curved(const nsm_sim *s, int j)
{
    return s->nl && s->m->gap_curved && s->m->gap_curved[j];
}
/* Is friction element k's slip curved (its row w_k(x) taken at each
** state by rt_nl_at, its series from nl_slip_series)?  Inline: the taylor
** method's per-order row products ask it for every term. */
static inline int rt_nl_slip_curved(const nsm_sim *s, int k)
{
    return s->nl && s->m->fric_curved && s->m->fric_curved[k];
}
double rt_nl_slip_curv(const nsm_sim *s, int k);
double rt_nl_gap_value(const nsm_sim *s, int j, const double *x);
int rt_nl_gap_nonfinite(const nsm_sim *s, const double *y);

/* The first curved gap whose value at state y is not finite, or -1
** (rt_nl_gap_nonfinite); inline, so that a model without curved gaps pays
** no call at every step for the answer -1. */
static inline int rt_nl_gap_undefined(const nsm_sim *s, const double *y)
{
    return s->m->nl & NSM_NL_GAP ? rt_nl_gap_nonfinite(s, y) : -1;
}
void rt_nl_force(const nsm_sim *s, double t, const double *y, double *f);
double rt_nl_force_size(const nsm_sim *s, double t, const double *y, int *i);
const char *rt_nl_force_name(const nsm_sim *s, int i, char *buf, size_t size);
void rt_nl_rates(const nsm_sim *s, double t, const double *y, const double *a, double *dF, double *h3);

/* rigid.c: positions of bodies in space */
void rt_rigid_qdot(const nsm_sim *s, const double *Y, double *qdot);
void rt_rigid_rot(const nsm_sim *s, int b, const double *y, double R[3][3]);
void rt_plane_tangents(const double *n, double t[2][3]);

/* spacefric.c: spatial Coulomb friction of a rigid body's sphere on a
** plane in flight (rows, slip, the held contact's solve, its power) */
typedef struct RtSf RtSf;
#define SF_BODY_MAXC 8   /* held spatial friction contacts of one body (spacefric.c) */
int rt_sf_alloc(nsm_sim *s);
void rt_sf_free(nsm_sim *s);
int rt_sf_of_gap(const nsm_sim *s, int j);
int rt_sf_bit(const nsm_sim *s, int k);
int rt_sf_stuck(const nsm_sim *s, const unsigned *mode, int k);
int rt_sf_sliding(const nsm_sim *s, const unsigned *mode, int k);
int rt_sf_dim(const nsm_sim *s, int k);
void rt_sf_at(const nsm_sim *s, const double *y);
double rt_sf_slip(const nsm_sim *s, int k, double *g);
double rt_sf_slip_rate(const nsm_sim *s, int k, const double *a);
void rt_sf_stick_force(const nsm_sim *s, int k, double *lf);
int rt_sf_accel(const nsm_sim *s, const unsigned *mode, const double *hdd, int values, double *a,
                double *lam);
double rt_sf_power(const nsm_sim *s, const unsigned *mode, const double *lam);
double rt_sf_power_of(const nsm_sim *s, const unsigned *mode, int k, const double *lam);
int rt_sf_rows(const nsm_sim *s, int k, double G[4][6], int *cols);
int rt_sf_cuts(nsm_sim *s, int cut);
void rt_sf_start(nsm_sim *s, int k, int on, const double *d0, double tol);
int rt_sf_starting(const nsm_sim *s, int k);
const double *rt_sf_start_dir(const nsm_sim *s, int k, double gn);
int rt_sf_edge(nsm_sim *s, int set);
double rt_sf_scale(nsm_sim *s, int k, double v);
void rt_rigid_normalise(const nsm_sim *s, double *y);

/* sfseries.c: the Taylor series of spatial friction (rows, slip, sliding
** direction, curvature terms) for the taylor method */
typedef struct RtSfSer RtSfSer;
double rt_ser_pow_k(const double *p, const double *w, double a, int k);
RtSfSer *rt_sfser_alloc(int nsf, int K);
void rt_sfser_free(RtSfSer *f);
void rt_sfser_rows(const nsm_sim *s, RtSfSer *f, const unsigned *mode, const double *X, int m);
int rt_sfser_slip(const nsm_sim *s, RtSfSer *f, const unsigned *mode, const double *X, int k);
double rt_sfser_row(const RtSfSer *f, int k, int r, int c, int l);
double rt_sfser_dir(const RtSfSer *f, int k, int c, int l);
double rt_sfser_curv(const RtSfSer *f, int k, int r, int l);
const double *rt_sfser_slip_norm(const RtSfSer *f, int k);
double rt_sfser_start_reach(const RtSfSer *f, int k, double eps);

/* nltaylor.c: the taylor method for nonlinear models */
#define RT_NLT_NOSERIES 100   /* no expansion at this state (p^a at p = 0) */
#define RT_NLT_K 20           /* the taylor method's order (nltaylor.c) */
typedef struct RtNlTaylor RtNlTaylor;
int rt_nlt_step(nsm_sim *s, double t, const double *Y, double *h, double *Y1);
int rt_nlt_advance(nsm_sim *s, double t, const double *Y, double tau, double *Y1);
void rt_nlt_free(nsm_sim *s);
int rt_nlt_check(nsm_sim *s);
int rt_nlt_series_events(const nsm_sim *s, double t, const double *y, double *ev, double *evd);

/* surface.c */
int rt_surface_alloc(nsm_sim *s);
void rt_surface_free(nsm_sim *s);
void rt_surface_setup(nsm_sim *s);
void rt_surface(const nsm_sim *s, double t, double *h);
double rt_surface_of(const nsm_sim *s, int j, int k, double t);
const double *rt_surface_row(const nsm_sim *s, int j, int k);

/* coulomb.c: the friction elements' forces (event functions n_gaps .. n_events - 1);
** an element's state is the mode's bits g + 2k (stuck), g + 2k + 1 (slipping
** backwards) */
static inline int rt_fric_stuck(const nsm_sim *s, const unsigned *mode, int k)
{
    return rt_mode_has(mode, s->n_gaps + 2 * k);
}
static inline int rt_fric_sign(const nsm_sim *s, const unsigned *mode, int k)
{
    return rt_mode_has(mode, s->n_gaps + 2 * k + 1) ? -1 : 1;
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
int rt_fric_values(const nsm_sim *s, const unsigned *mode, double t, const double *y, double *ff);
void rt_force_parts(const nsm_sim *s, const unsigned *mode, const double *x, const double *v,
                    const double *fext, int cflag, double *F);
int rt_accel_full(const nsm_sim *s, const unsigned *mode, const double *F, double *a, double *lam,
                  double *lamf);
int rt_deriv(const nsm_sim *s, const unsigned *mode, double t, const double *Y, double *Yd);
int rt_deriv_generic(const nsm_sim *s, const unsigned *mode, double t, const double *Y, double *Yd);
int rt_lambda(const nsm_sim *s, const unsigned *mode, double t, const double *y, double *lam);
int rt_events(const nsm_sim *s, const unsigned *mode, double t, const double *y, double *ev, double *evd);

/* The event functions in the current mode at (t, y) and their derivatives,
** as the locator asks for them: off the taylor method's kept expansion
** where it holds them (rt_nlt_series_events), else rt_events; inline, so
** that rk4, adaptive and exact pay no call for the question. */
static inline int rt_nlt_events(const nsm_sim *s, double t, const double *y, double *ev,
                                double *evd)
{
    if (s->set.method != NSM_METHOD_TAYLOR)
        return rt_events(s, s->mode, t, y, ev, evd);
    return rt_nlt_series_events(s, t, y, ev, evd);
}
int rt_events_generic(const nsm_sim *s, const unsigned *mode, double t, const double *y, double *ev, double *evd);
double rt_gap_tol(const nsm_sim *s, int j, const double *x);
double rt_vel_scale(const nsm_sim *s, int j, const double *v);
double rt_vel_tol(const nsm_sim *s, int j, const double *v);
double rt_force_scale(const nsm_sim *s, double t, const double *y);
double rt_speed_scale(const nsm_sim *s, double t_end);
double rt_speed_slowest(const nsm_sim *s, double t_end, int *which);
double rt_speed_scale_of(const nsm_sim *s, int w, double t_end);
double rt_gap_accel_scale(const nsm_sim *s, int j);
void rt_force_scales(const nsm_sim *s, const unsigned *mode, const double *y, double *sb);
void rt_force_scales_at(const nsm_sim *s, const unsigned *mode, double t, const double *y,
                        double *sb);
double rt_gap_force_tol(const nsm_sim *s, int j, const double *sb);
double rt_force_tol_gap(const nsm_sim *s, const unsigned *mode, const double *y, int j);
int rt_force_lcp(const nsm_sim *s, const unsigned *mode, double t, const double *y,
                 const unsigned *cand, double *lam);
int rt_project(const nsm_sim *s, const unsigned *set, double *v);

double rt_force_tol(const nsm_sim *s, const unsigned *mode, const double *y);
double rt_force_tol_of(const nsm_sim *s, const unsigned *mode, const double *y, int w);
int rt_part_of(const nsm_sim *s, int w, unsigned char *comp);
void rt_delassus(const nsm_sim *s, const int *idx, int r, double *D);
int rt_cons_groups(const nsm_sim *s, int r, int n, const int *kind, const double *rows, int *lead,
                   double *scale);
double rt_fric_row_ratio(const nsm_sim *s, int k, int q);
int rt_cons_split(const nsm_sim *s, int r, const int *kind, const int *lead, const double *scale,
                  double *const *ser, double *Q, int K, int k);
double rt_delassus_entry(const nsm_sim *s, int a, int b);
int rt_gap_component(const nsm_sim *s, int j, const int *cand, int r, int *comp);
int rt_band_factor(const nsm_sim *s, const int *gap, int r, int b, long double *L);
void rt_band_solve(const long double *L, int r, int b, long double *u);
int rt_clus_alloc(nsm_sim *s);
void rt_clus_free(nsm_sim *s);
double rt_mech_energy(const nsm_sim *s, const unsigned *mode, const double *y);

/* sparse.c.  The dense forms are for small models only: a path that needs
** n x n matrices asks rt_dense_ok first, which fails the run with a message
** above RT_DENSE_MAX bodies. */
#define RT_DENSE_MAX 2000
int rt_sparse_alloc(nsm_sim *s);
int rt_sparse_build(nsm_sim *s);
void rt_sparse_free(nsm_sim *s);
double rt_csr_abs(const RtCsr *A, int r);
void rt_csr_axpy(const RtCsr *A, int r, double f, double *u);
double rt_csr_get(const RtCsr *A, int r, int c);
int rt_csr_share(const RtCsr *A, int a, int b);
int rt_gap_on_body(const nsm_sim *s, int j, int b);
/* Row r of A times u.  Inline with the two rows below: the gaps' and the
** energy's rates ask for a row at every evaluation, half a million times in
** a sweep, where the call cost a third of the product. */
static inline double rt_csr_dot(const RtCsr *A, int r, const double *u)
{
    double sum = 0;
    for (int k = A->p[r]; k < A->p[r + 1]; k++)
        sum += A->x[k] * u[A->i[k]];
    return sum;
}
/* w_j . u over the nonzeros of gap j's row. */
static inline double rt_wrow(const nsm_sim *s, int j, const double *u)
{
    return rt_csr_dot(&s->sp.W, j, u);
}
/* Wt[k] . u over the nonzeros of friction element k's row. */
static inline double rt_wtrow(const nsm_sim *s, int k, const double *u)
{
    return rt_csr_dot(&s->sp.Wt, k, u);
}
int rt_gaps_coupled(const nsm_sim *s, int a, int b);
int rt_dense_ok(nsm_sim *s, const char *what);
int rt_dense_K(nsm_sim *s, double *out, const char *what);
int rt_dense_C(nsm_sim *s, double *out, const char *what);
int rt_dense_W(nsm_sim *s, double *out, const char *what);
const double *rt_dense_wrow(const nsm_sim *s, int j, double *out);
const double *rt_dense_wtrow(const nsm_sim *s, int k, double *out);

/* mode.c */
unsigned long rt_switch_key(const nsm_sim *s);
const RtModeInfo *rt_mode_info(nsm_sim *s);
void rt_mode_clear(nsm_sim *s);
void rt_mode_free(nsm_sim *s);

/* modeop.c: a large model's mode as an operator (the exact method) */
int rt_modeop_wanted(const nsm_sim *s);
int rt_modeop_build(nsm_sim *s, RtModeInfo *mi);
void rt_modeop_free(RtModeInfo *mi);
void rt_modeop_apply(const nsm_sim *s, const RtModeOp *op, const long double *Z, long double *AZ,
                     long double *lam);
int rt_modeop_taylor(nsm_sim *s, const RtModeInfo *mi, const long double *Z0, double h, int K);
void rt_modeop_form(const nsm_sim *s, int j, int second, long double *a, double *r0, double *r1);
double rt_modeop_dual(const nsm_sim *s, const double *c);
void rt_modeop_energy(const nsm_sim *s, double *ed, double *ew);
int rt_modeop_advance(nsm_sim *s, const RtModeInfo *mi, const long double *Z0, double h,
                      int pieces, int K, long double *Z1, double *Ed, double *Ew);

/* taylor.c */
int rt_taylor_degree(double nuh);
int rt_taylor_alloc(nsm_sim *s);
void rt_taylor_free(nsm_sim *s);
void rt_taylor_forget(nsm_sim *s);
void rt_taylor_terms(const RtModeInfo *mi, int na, int K, double h, long double *P);
int rt_taylor_flight_terms(double r, int kmax);
void rt_taylor_sum(const long double *P, int na, int K, long double x, long double *Z);
int rt_taylor_build(nsm_sim *s, const RtModeInfo *mi, double t0, const long double *Z0, double h);
int rt_taylor_is(const nsm_sim *s, const RtModeInfo *mi, double t0, const long double *Z0,
                 double h);
void rt_taylor_state(nsm_sim *s, double x, long double *Z);
void rt_taylor_form(nsm_sim *s, const double *c, long double *a, double *r0, double *r1);
void rt_taylor_event(nsm_sim *s, int j, long double *a, double *r0, double *r1);
void rt_taylor_energy(nsm_sim *s, double x, double *Ed, double *Ew);
int rt_poly_first_zero(const long double *a, int K, double lo, double r0, double r1, double *x);
int rt_poly_first_peak(const long double *a, int K, double lo, double r1, double *x);

/* state.c: the owner of t, y, mode and the transitions' energy record */
int rt_state_alloc(nsm_sim *s);
void rt_state_free(nsm_sim *s);
void rt_state_clear(nsm_sim *s);
void rt_state_set_time(nsm_sim *s, double t);
void rt_state_set(nsm_sim *s, double t, const double *y);
void rt_state_mode_add(nsm_sim *s, int j);
void rt_state_mode_del(nsm_sim *s, int j);
void rt_state_mode_flip(nsm_sim *s, int j);
void rt_state_mode_clear(nsm_sim *s);
void rt_state_mode_set(nsm_sim *s, const unsigned *mode);
void rt_transition_loss_add(nsm_sim *s, double lost);
void rt_state_switch_set(nsm_sim *s, int k, int on, double t);
int rt_switch_followed(const nsm_sim *s, int k, double a, double b);
int rt_switch_affine(const nsm_sim *s, int k);
void rt_state_transition_mark(nsm_sim *s, int j);
void rt_state_inputs_changed(nsm_sim *s);
int rt_state_marked_now(const nsm_sim *s, int j);

/* affine.c */
int rt_affine_read(const nsm_sim *s, const char *text, int state_ok, double *a, double *b,
                   char *err, size_t len);
int rt_affine_has_state(const nsm_sim *s, const double *a);
int rt_affine_const(const nsm_sim *s, const char *text, double *v, char *err, size_t len);

/* Horner's rule, written once for every coefficient type: r = sum over
** k = 0..K of c[k stride] x^k, from the top coefficient down (so that
** coefficients all -0 sum to -0, as their plain sum does).  A macro, so
** that a double series (nltaylor.c) is summed in double and a long double
** one (taylor.c) in long double, each by the same loop its own code would
** compile to; stride > 1 reads one component of a series of vectors.
** rt_poly_eval2 (below) is the same rule carrying the derivatives along.
** RT_HORNER_N sums n series side by side, r[i] from c[k stride + i]
** (i < n): each r[i] by the same operations in the same order as
** RT_HORNER's, the n chains of dependent operations interleaved, so that
** one waits less for the last's result (n a small constant: the compiler
** keeps r in registers). */
#define RT_HORNER_N(r, n, c, stride, K, x)                                      \
    do {                                                                        \
        for (int rt_i_ = 0; rt_i_ < (n); rt_i_++)                               \
            (r)[rt_i_] = (c)[(size_t)(K) * (size_t)(stride) + (size_t)rt_i_];   \
        for (int rt_k_ = (K) - 1; rt_k_ >= 0; rt_k_--)                          \
            for (int rt_i_ = 0; rt_i_ < (n); rt_i_++)                           \
                (r)[rt_i_] = (r)[rt_i_] * (x) +                                 \
                             (c)[(size_t)rt_k_ * (size_t)(stride) + (size_t)rt_i_]; \
    } while (0)
#define RT_HORNER(r, c, stride, K, x) RT_HORNER_N(&(r), 1, c, stride, K, x)

/* p(x) and, when dp (hp) is not NULL, p'(x) (p''(x) / 2) of the
** polynomial a of degree K (a[k] the coefficient of x^k), by Horner's rule
** carrying the derivatives along: the first rows of the synthetic division
** that shifts p to x, each in registers, the three chains interleaved.
** Inline: the event searches and the polish of every zero evaluate short
** polynomials (degree 2 to 6 for the exact method's gaps) many times,
** where the call cost as much as the sums; a NULL output's chain is
** dropped by the compiler. */
static inline long double rt_poly_eval2(const long double *a, int K, long double x,
                                        long double *dp, long double *hp)
{
    long double p = a[K], d = 0, e = 0;
    for (int k = K - 1; k >= 0; k--) {
        e = e * x + d;
        d = d * x + p;
        p = p * x + a[k];
    }
    if (dp)
        *dp = d;
    if (hp)
        *hp = e;
    return p;
}

/* p(x) and, when dp is not NULL, p'(x) (rt_poly_eval2). */
static inline long double rt_poly_eval(const long double *a, int K, long double x,
                                       long double *dp)
{
    return rt_poly_eval2(a, K, x, dp, NULL);
}

/* locate.c: what every event locator shares */
int rt_uf_find(int *parent, int i);
void rt_uf_join(int *parent, int a, int b);
double rt_hermite_min(double q0, double d0, double q1, double d1, double h, double *qmin);
/* A scalar function in a bracket: f(x) and f'(x) (used when newton is set). */
typedef int (*rt_bracket_fn)(void *ud, double x, double *f, double *fd);
typedef struct {
    double lo, hi;   /* the bracket: f(lo) = flo > 0 >= f(hi) = fhi */
    double flo, fhi;
    double scale;    /* |t0| of the step: the resolution is 4e-16 (scale + x) */
    int newton;      /* safeguarded Newton on f' (else Illinois) */
    int tight;       /* to the last bit, the zero being hi (time switches) */
    int orient;      /* flo and fhi of either signs: f taken times flo's sign */
    double tol;      /* a bracket this narrow also ends it (0: the resolution only) */
} RtBracket;
int rt_bracket(RtBracket *b, rt_bracket_fn fn, void *ud, double x, double *root, int *at_root);

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
/* An event source: its function at (t, Y) and the rate there. */
typedef int (*rt_event_fn)(nsm_sim *s, void *ud, double t, const double *Y, double *f, double *fd);
int rt_land(nsm_sim *s, rt_event_fn fn, void *ud, double t0, const double *Y0, double lo,
            const double *Ylo, double flo, double fdlo, double hi, double *tau, double *Ys);
int rt_locate(nsm_sim *s, int j, double t0, const double *Y0, double h,
              double s0, double sd0, double *tau, double *Ys);
int rt_exact_alloc(nsm_sim *s);
void rt_exact_free(nsm_sim *s);
void rt_fsal_free(nsm_sim *s);
void rt_cache_clear(nsm_sim *s);
int rt_exact_check(nsm_sim *s, double t_end);
double rt_zeno_tail(nsm_sim *s, int j, double e, double tau);
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
void rt_fricstat_partial(nsm_sim *s);
void rt_fricstat_change(nsm_sim *s, int k, int kind);
void rt_fricstat_step(nsm_sim *s, double t1, const double *Y1, double *dD, double *dW);
int rt_fricstat_rest(nsm_sim *s, double dD);

/* friction.c: the friction elements' transitions (stick, slip, impulses) */
int rt_fric_impulse(nsm_sim *s, int j, const int *idx, int r, int exempt, int *handled);
int rt_fric_impact(nsm_sim *s, int j, const double *v0);
int rt_fric_zeno_summable(nsm_sim *s, int j);
int rt_fric_zeno_check(nsm_sim *s, int j, int *slipping);
int rt_fric_tail_project(nsm_sim *s, int j, int k);
void rt_fric_resolved(nsm_sim *s, int j);
int rt_fric_tail_check(nsm_sim *s, int j, int k, int sg);
int rt_fric_transition(nsm_sim *s, int j);
int rt_fric_update(nsm_sim *s);

/* spacestick.c: spatial friction's transitions around the run loop's steps */
int rt_sf_check(nsm_sim *s);
int rt_sf_update(nsm_sim *s);
int rt_sf_land(nsm_sim *s, double *h);
int rt_sf_step_check(nsm_sim *s, double *h, double *Y1);
int rt_fric_initial(nsm_sim *s);
int rt_fric_alloc(nsm_sim *s);
void rt_fric_free(nsm_sim *s);
void rt_fric_reset(nsm_sim *s);
int rt_fric_validate(nsm_sim *s);

/* impact_space.c: frictional impacts of bodies in space (Glocker's law) */
int rt_spimp_element(const nsm_sim *s, int j);
int rt_spimp_law(int m, const double *G, const double *q, double mu, double *P, int *stuck);
int rt_spimp_impulse(nsm_sim *s, int j, const int *idx, int r, int exempt, int *handled);

/* transition.c: the transitions.  An impact is applied in parts, between
** which the run loop hands its RtImpact to the Zeno handling (zeno.c):
** rt_impact_begin, rt_zeno_track, rt_impact_apply, rt_zeno_resolve and,
** unless that ended it (done), rt_impact_end.  Whatever settles reports the
** gaps that stuck or separated in *forget, for rt_zeno_forget. */
typedef struct RtImpact {
    int j;                    /* the gap landed on, open and closing */
    unsigned *ref;            /* the mode before (mode_words words, the caller's storage) */
    int r, *idx;              /* the gaps of its impulse problem, ascending (g entries) */
    unsigned *set;            /* the same as a set (mode_words words) */
    double *vb;               /* every gap's relative velocity before (g entries) */
    int single;               /* j the only open one (and one collision) */
    int held;                 /* one held shut shares a body with j */
    int cascade;              /* zeno.c: a one-contact cascade goes on */
    int ends_cluster;         /* zeno.c: it ends a cascade over several */
    int exempt;               /* zeno.c: its records skip the rate guard */
    long count;               /* collisions of its sequence */
    int frictional;           /* solved by a frictional impact law */
    int done;                 /* the transition is complete (settled) */
} RtImpact;
double rt_wdot(const nsm_sim *s, int j, const double *v);
double rt_wacc(const nsm_sim *s, int j, const double *a);
int rt_settle(nsm_sim *s, const unsigned *ref, const unsigned *forced_open, unsigned *forget);
int rt_rebound_unresolved(nsm_sim *s, int j);
int rt_impact_set(nsm_sim *s, int j, const unsigned *extra, double *vb, int *idx, unsigned *set);
int rt_impact_begin(nsm_sim *s, int j, RtImpact *im, unsigned *forget);
int rt_impact_apply(nsm_sim *s, RtImpact *im);
int rt_impact_end(nsm_sim *s, const RtImpact *im, unsigned *forget);
void rt_seq_free(nsm_sim *s);
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
int rt_run_check(nsm_sim *s, double t_end);
int rt_run(nsm_sim *s, double t_end);

/* section.c: the run loop asks for the next stroboscopic time before a step
** (rt_section_target) and hands over each step's end before its transition
** (rt_section_step; j the event landed on, -1 none); both only with s->sec. */
int rt_section_reset(nsm_sim *s);
void rt_section_free(nsm_sim *s);
int rt_section_target(nsm_sim *s, double *target);
int rt_section_check_run(nsm_sim *s, double t_end);
int rt_section_step(nsm_sim *s, double t1, const double *Y1, int j);
/* A stroboscopic time at the run's end, after the transitions there. */
int rt_section_end(nsm_sim *s);
/* After a Zeno jump from (t1, Y1): a plane crossed inside the jumped tail stops the run. */
int rt_section_jump(nsm_sim *s, double t1, const double *Y1);
typedef int (*rt_track_fn)(nsm_sim *s, double t1, const double *Y1, int j, void *ud);
int rt_section_track(nsm_sim *s, rt_track_fn fn, void *ud);
void rt_section_untrack(nsm_sim *s);

/* floquet.c: the tangent dynamics of a run in free flight between single
** impacts, Phi <- J(now -> t_end) Phi (2n x 2n), for the monodromy matrix
** and the Lyapunov spectrum (lyapunov.c); who prefixes a refusal. */
int rt_floquet_propagate(nsm_sim *s, double t_end, double *Phi, const char *who);
int rt_floquet_rigid_check(nsm_sim *s, const char *who);

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
double rt_stats_relative_error(const nsm_sim *s, double tol);
int rt_stats_floor_decision(nsm_sim *s, int j, double u, double rel, double minv);

/* Whether the caller's stop flag (nsm_sim_set_stop_flag) is up. */
static inline int rt_stop_asked(const nsm_sim *s)
{
    return s->set.stop && *s->set.stop;
}

/* multiimpact.c: the energetic multiple-impact law of Liu, Zhao and
** Brogliato (a kernel: it calls nothing of the runtime). W: nc x nc Delassus
** matrix H M^-1 H^T, row-major, symmetric; vn: pre-impact relative normal
** velocities (negative approaching); e: energetic restitution, k: stiffness,
** eta: force exponent (1 linear, 1.5 Hertz), per contact. P receives the
** normal impulses, vn_after the post-impact velocities vn + W P. Returns 0
** or one of the negative codes below. */
#define RT_LZB_EARG (-1)      /* nc < 1, a null pointer, vn not finite, e outside [0, 1], k <= 0, eta outside [1, 10] */
#define RT_LZB_EW (-2)        /* W not symmetric with a positive finite diagonal */
#define RT_LZB_ENOMEM (-3)    /* out of memory */
#define RT_LZB_ESTEP (-4)     /* the impact stalled: what is left stopped shrinking */
int rt_lzb_solve(int nc, const double *W, const double *vn, const double *e, const double *k,
                 const double *eta, double *P, double *vn_after);
/* rt_lzb_solve, with the global step attempts it made in *steps (NULL:
** not stored): the tests' step budget. */
int rt_lzb_solve_steps(int nc, const double *W, const double *vn, const double *e,
                       const double *k, const double *eta, double *P, double *vn_after,
                       long *steps);
/* What a solve did: its global step attempts, the energy the law
** dissipated (integrated from its own rates) and the energy still stored
** when the early stop ended it (0 at a natural end). */
typedef struct {
    long steps;
    double lost, stored;
} RtLzbInfo;
/* rt_lzb_solve, with *info filled (NULL: not stored). */
int rt_lzb_solve_info(int nc, const double *W, const double *vn, const double *e,
                      const double *k, const double *eta, double *P, double *vn_after,
                      RtLzbInfo *info);

#endif
