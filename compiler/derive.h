/*
 * derive.h - symbolic derivation: every mode's equations, event functions,
 * their time derivatives and the recasts, from a checked Model.
 *
 * Everything is an Expr in the model's ExprCtx.  Symbolic variables (EX_VAR)
 * are numbered as follows (n bodies, g gaps, s time switches):
 *
 *   x_i      = var i                 positions
 *   v_i      = var n + i             velocities
 *   sw_k     = var dv->v_sw + k      time-switch flags (0 or 1)
 *   F_i      = var dv->v_f + i       net force on body i in the mode (local)
 *   lambda_j = var dv->v_lam + j     contact force of gap j (local)
 *   a_i      = var dv->v_acc + i     acceleration of body i (local)
 *   F'_i     = var dv->v_fdot + i    time derivative of F_i along the flow (local)
 *   u_j      = var dv->v_u + j       w_j . a + h_j'' before the contact forces (local)
 *   u'_j     = var dv->v_ud + j      its time derivative w_j . M^-1 F' + h_j''' (local)
 *   c_k      = var dv->v_const + k   hoisted constant, a function of p only
 *   report   = var dv->v_report + ...  q_i (n), q_i' (n), V_k (3 + g): see below
 *
 * The "locals" let the emitted code read like the equations (first the forces,
 * then the contact forces, then the accelerations); dv_full() substitutes
 * them away so that every expression becomes a function of (x, v, t, sw, c).
 */
#ifndef NSM_DERIVE_H
#define NSM_DERIVE_H

#include <stdbool.h>

#include "arena.h"
#include "diag.h"
#include "model.h"

/* Modes are enumerated symbolically while there are at most this many gaps:
 * 2^5 = 32 modes keep the generated file readable; beyond that only the
 * all-open mode is written out (see docs/theory.md). */
#define DV_MAX_ENUM_GAPS 5

/* A friction model's held systems (derive_fric.c: each set of held rows
 * once per sign combination of the elements slipping on its held gaps'
 * forces) are written out while there are at most this many. */
#define DV_MAX_FRIC_SYSTEMS 64

/* A sparse matrix of expressions: row i holds nnz[i] entries in increasing
 * column order; absent entries are zero.  Chains and other sparse models keep
 * O(elements) entries instead of n*n. */
typedef struct DvMat {
    int rows, cols;
    int *nnz, *cap;        /* per row */
    int **col;             /* per row: the columns of its entries */
    Expr ***val;           /* per row: their values */
    Expr *zero;
} DvMat;

/* Entry (i, j), the number 0 when absent: O(log nnz of the row). */
Expr *dvm_get(const DvMat *A, int i, int j);

/* Is gap j closed in mode `mask`?  Modes are enumerated as masks only while
 * there are few gaps; beyond 32 gaps only the all-open mode 0 exists here. */
static inline bool dv_closed(unsigned mask, int j)
{
    return j >= 0 && j < 32 && ((mask >> j) & 1u);
}

typedef enum DvModeStatus {
    DV_MODE_DERIVED,      /* written out */
    DV_MODE_INADMISSIBLE, /* closed impact gaps with dependent w: never entered */
    DV_MODE_SKIPPED       /* not enumerated (too many gaps) */
} DvModeStatus;

/* A constant hoisted into the generated setup(): c[k] = value(p, c[0..k-1]). */
typedef struct DvConst {
    Expr *value;
    const char *what;  /* comment, e.g. "1/m1" or "(S^-1)_00 of mode 3" */
} DvConst;

/* One local assignment of a mode's straight-line program: var = value. */
typedef struct DvAssign {
    Expr *var;
    Expr *value;
} DvAssign;

typedef struct DvMode {
    unsigned mask;         /* bit j set: gap j closed */
    DvModeStatus status;
    const char *label;     /* "{C closed}", "{} all open" */
    const char *story;     /* "M1 and M2 stuck" */
    int n_impact;          /* closed impact gaps ... */
    int *impact;           /* ... their indices */
    Expr **Sinv;           /* n_impact^2, row-major: S^-1, S = W_R M^-1 W_R^T, entries 0 or
                              hoisted constants; shared by the modes with the same R */
    DvMat *K, *C;          /* n*n, the mode's stiffness and damping (penalty gaps added) */
    Expr **fconst;         /* n, with the penalty offsets -k d w */
    /* Straight-line program, in order: F (n), lambda (closed impact gaps), a (n),
     * then F' (n) when some closed impact gap needs it. */
    DvAssign *prog; int n_prog;
    Expr **ydot;           /* 2n: (v, a) in terms of the locals */
    Expr **lambda;         /* g: contact forces, locals allowed; 0 for open gaps */
    Expr **ev, **evdot;    /* g: event functions and derivatives, locals allowed */
    /* The same contact forces as a correction of the free mode (what the C
     * back end writes, see DvCorr): lambda_R = -S^-1 u_R and its time
     * derivative -S^-1 u_R', per closed impact gap of the mode; NULL when
     * the mode has none. */
    Expr **lam_u, **lamd_u;
} DvMode;

/* Every mode as the free mode and its corrections (dv_corrections), the form
 * the C back end writes: the free mode's F = f_ext + f_const - K x - C v,
 * each engaged penalty gap's force added to F, a = M^-1 F, then for the
 * closed impact gaps R lambda_R = -S_R^-1 u_R with u_j = w_j . a + h_j''
 * (the gaps' accelerations under F alone) and a += M^-1 W_R^T lambda_R.
 * Every expression is in x, v, t, sw and the locals F, a, lambda, F', u, u'. */
typedef struct DvCorr {
    Expr **u, **ud;        /* n_rows: u_j = w_j . a + h_j'', u_j' = w_j . M^-1 F' + h_j'''
                              (a friction row g + k: w_t . a and w_t . M^-1 F') */
    Expr **pen, **pen_dot; /* g: an engaged penalty gap's force k p + c p' (p = -gap)
                              and its time derivative (a: the mode's acceleration);
                              NULL for an impact gap */
    Expr **fdot;           /* n: the free mode's F' = f_ext'(t) - K v - C a */
} DvCorr;

/* A set of held rows of a model whose friction modes are derived
 * (derive_fric.c): bit j of its key set = row j held (an impact gap j < g
 * held shut, friction element j - g stuck).  Its multipliers solve
 * S_R L_R = -u_R, S_R = Wc_R M^-1 Wc_R^T, symmetric while the slipping
 * elements' forces are constant loads, in F.  An element slipping on a
 * held gap's contact force (normal = gap G) turns G's force direction into
 * d_G = w_G - sum s mu_k w_t: its system A_R L_R = -u_R, A_R = Wc_R M^-1 D_R^T,
 * is not symmetric and depends on the slip signs s, one system per sign
 * combination (`back`). */
typedef struct DvHeldSet {
    unsigned word;         /* the set as bits of a mode's word 0 (gap j: bit j, element k: g + 2k),
                              with the backward bits of `back` */
    unsigned key;          /* its held rows (bit r: row r) */
    unsigned slide;        /* backward bits of the elements slipping on a held gap's force */
    unsigned back;         /* those of them slipping backwards (s = -1) */
    bool singular;         /* A_R singular at the parameters' defaults: left to the runtime */
    Expr *guard;           /* 1/det A_R, hoisted (NULL: symmetric, S_R positive definite);
                              not finite: singular at the parameters, left to the runtime */
    bool admissible;       /* independent rows; otherwise left to the runtime */
    const char *label;     /* "{C closed, F stuck}" */
    int r;                 /* held rows ... */
    int *rows;             /* ... their indices (gaps, then g + element) */
    Expr **Sinv;           /* r*r: S_R^-1, hoisted */
    Expr **lam_u, **lamd_u; /* r: L_R = -S_R^-1 u_R and L_R' = -S_R^-1 u_R' */
} DvHeldSet;

/* A time switch: a comparison in a force that involves t. */
typedef struct DvSwitch {
    Expr *cond;            /* the comparison as written */
    Expr *fn, *fn_dot;     /* switch function lhs - rhs and its time derivative */
    bool affine;           /* fn is a + b t: sums and products of numbers,
                              parameters and t, its derivative free of t */
    SrcLoc loc;            /* of the force it was found in */
} DvSwitch;

/* One block of the exact method's forcing generator. */
typedef struct DvGenBlock {
    Expr *a, *w, *phi;     /* exponent rate, angular frequency, phase (w == NULL: no sinusoid) */
    int kmax;              /* highest power of t */
    int first;             /* index of its first component in z */
} DvGenBlock;

typedef struct Derivation {
    const Model *model;
    ExprCtx *ex;
    Arena *arena;
    int n, g, n_sw;

    /* variable numbering, see above */
    int v_sw, v_f, v_lam, v_acc, v_fdot, v_u, v_ud, v_const, n_vars;
    int v_report;          /* first variable of the report's coordinates (q, q', V), >= n_vars */
    Expr **x, **v, **sw, **F, **lam, **acc, **Fdot, **u, **ud;

    /* assembled model: M a + C v + K x = f_ext(t) + f_const + W^T lambda */
    Expr **mass, **invm;   /* n; invm are const vars c_k = 1/m_i */
    DvMat *K, *C;          /* n*n, sparse */
    Expr **fconst;         /* n */
    Expr **fext, **fext_dot; /* n, switches replaced by sw flags */
    Expr **force_each;       /* Model.n_forces: each force statement, switches replaced */
    DvMat *W;              /* g*n, sparse: row j is w_j */
    Expr **d;              /* g */
    /* moving surfaces: gap_j = w_j . x + d_j + h_j(t); h[j] NULL for a fixed gap,
     * hd, hdd, hddd its first three time derivatives */
    Expr **h, **hd, **hdd, **hddd;
    int n_moving;          /* gaps with h */

    DvSwitch *sw_list;

    int n_modes;           /* 2^g (modes beyond the enumeration limit are DV_MODE_SKIPPED) */
    bool enumerated;       /* g <= DV_MAX_ENUM_GAPS */
    DvMode *modes;
    DvCorr corr;           /* the modes as corrections of the free mode */

    /* Friction modes (derive_fric.c): a model whose friction elements all
     * press with a constant normal load gets every combination of its
     * gaps' and elements' states written out; n_rows = g + nf constraint
     * rows then (Wc: W's rows, then each element's slip row w_t), else
     * n_rows = g and fric_why says why the runtime's generic path serves
     * its modes (NULL for a model without friction). */
    bool fric_modes;
    const char *fric_why;
    int n_rows;
    DvMat *Wc;
    Expr **fslip;          /* nf: mu_k N of each element, hoisted */
    Expr **fcone;          /* nf: mu_s N of each element, hoisted */
    DvHeldSet *held;       /* 2^n_rows sets, by their row bits */
    bool fgap;             /* some element is pressed by a gap's contact force */
    DvHeldSet *fsys;       /* the systems written out: each admissible held set, once per */
    int n_fsys;            /* sign combination of the elements slipping on its held gaps */

    DvConst *consts; int n_consts, cap_consts;
    Expr **cvar; int n_cvar;  /* the variables of the constants */

    /* exact-method generator: f_ext(t) = B z(t), z' = G z; n_gen == 0 when not available */
    int n_gen;
    Expr **G, **B;         /* n_gen*n_gen and n*n_gen */
    Expr **H;              /* g*n_gen: h_j(t) = H_j z(t) */
    Expr **z;              /* n_gen: z(t) */
    DvGenBlock *gen; int n_gen_blocks;
    const char *gen_why;   /* why n_gen == 0, NULL otherwise */
    double *defaults;      /* parameter defaults, for numeric sanity checks */

    /* Nonlinear models (Model.nl != 0; derive_nl.c).  fext, fext_dot and
     * force_each keep the state-independent forces only; modes are not
     * enumerated (only the all-open mode 0 is derived, and the emitters
     * leave every mode to the runtime's generic path). */
    int nl;                /* Model.nl */
    Expr **fnl;            /* n: sum of the state-dependent forces per body (x, v, t, sw) */
    Expr **fall;           /* n: sum of every force per body */
    /* curved gaps (gcurve[j] != NULL): g_j(x), its nonzero slopes
     * gw[j][k] = dg_j/dx at body W->col[j][k] (k < W->nnz[j]) and the
     * curvature term gcv[j] = v^T (d2 g_j/dx2) v */
    Expr **gcurve, **gcv;
    Expr ***gw;
    int n_wcurved;         /* the curved gaps' nonzeros of W, all together */
    /* curved slips (Friction.curved): element k's nonzero coefficients
     * fw[k][i] = w_t(x) at body fcol[k][i] (i < fncol[k]) and its curvature
     * term fcv[k] = v^T (dw_t/dx) v, so that u_k' = w_t(x) a + fcv[k] */
    Expr ***fw, **fcv;
    int **fcol, *fncol;
    int n_wtcurved;        /* the curved slips' nonzeros of Wt, all together */

    /* A model written by its energies (derive_lag.c; Model.lagrangian): no
     * modes; M(q) a = h(q, v) + Q with M = d2T/dv dv (n*n, row-major), h
     * the Euler-Lagrange terms and Q the generalized forces (n each), and
     * every gap's value g_j(q) and row W_j(q) = dg_j/dq (g and g*n). */
    bool lagrangian;
    Expr **lag_M, **lag_h, **lag_Q;
    Expr **lag_g, **lag_W;
} Derivation;

/* The paper's forms (derive_paper.c).
 *
 * Relative coordinates (Dedow & Murphy Eq. 2): for each gap one body with a
 * nonzero coefficient (the last one not yet taken) has its coordinate replaced
 * by the gap, q_b = w_j . x + d_j; the other bodies keep x_i.  States are
 * interleaved (q_0, q_0', q_1, q_1', ...) like the paper's Eq. 1:
 * Y' = A Y + b(t), A and b of size 2n (row-major A). */
typedef struct DvRelative {
    int n;                 /* bodies */
    int *gap_of;           /* n: gap whose coordinate replaces body i, -1 if kept */
    Expr **q, **qd;        /* n: the new coordinates and velocities (variables) */
    Expr **X, **V;         /* n: x_i and v_i in terms of q, q' */
    Expr **A, **b;         /* 2n*2n and 2n, constants expanded (functions of p, t, sw) */
} DvRelative;

bool dv_relative(const Derivation *dv, const DvMode *md, DvRelative *rel);

/* A stuck mode reduced to one degree of freedom (n - |R| = 1, R the closed
 * impact gaps), with the contact forces as extra states (the paper's Eq. 11):
 * V = (u, u', u'', lambda_R...), V' = A V + b(t), u = x of the one body whose
 * coordinate is not replaced by a closed gap.  A is (3 + r) square. */
typedef struct DvForceState {
    int body;              /* u = x[body] */
    int r;                 /* closed impact gaps */
    int *gaps;             /* r of them */
    Expr *meff, *keff, *ceff; /* reduced mass, stiffness, damping */
    Expr *feff;            /* reduced forcing F_eff(t) (constants included) */
    Expr *A32, *A33;       /* -K_eff/M_eff, -C_eff/M_eff */
    Expr **A42, **A43;     /* per gap: lambda_j' = A42 u' + A43 u'' + b4 */
    Expr *b3, **b4;        /* forcing terms of rows 3 and 4... */
    Expr **alpha, **beta;  /* n: x = alpha u + beta */
    Expr **V;              /* 3 + r state variables */
} DvForceState;

bool dv_force_state(const Derivation *dv, const DvMode *md, DvForceState *fs);

/* A display form: the shorter of e and its form over a common denominator. */
Expr *dv_pretty(const Derivation *dv, Expr *e);

/* Derives what the emitters need.  Returns NULL after reporting through `d`
 * when the model is degenerate (singular stuck mode, zero gap vector, ...). */
Derivation *derive_model(const Model *m, Arena *a, Diag *d);

/* Substitutes a mode's locals (F', a, lambda, F) away: the result depends on
 * x, v, t, sw, p and hoisted constants only. */
Expr *dv_full(const Derivation *dv, const DvMode *md, Expr *e);

/* Substitutes the hoisted constants by their definitions: a function of p. */
Expr *dv_expand_consts(const Derivation *dv, Expr *e);

/* Fills vars[0..dv->n_vars-1] for expr_eval: x, v from y (2n), sw flags, and
 * every hoisted constant evaluated from p.  Locals are left 0. */
void dv_eval_vars(const Derivation *dv, const double *p, const double *y,
                  const int *sw, double *vars);

/* Time derivative along the flow of a mode of an expression in (x, v, t, sw):
 * de/dy . y' + de/dt, with y' the mode's full (substituted) right-hand side. */
Expr *dv_flow_diff(const Derivation *dv, const DvMode *md, Expr *e);

/* Builds the exact-method generator (derive_gen.c); sets dv->n_gen. */
void dv_generator(Derivation *dv);

/* The derivation of a Lagrangian model (derive_lag.c), called by
 * derive_model: M(q), h(q, v), Q and the gaps' rows. */
int derive_lagrange(Derivation *dv, Diag *d);

/* The curved gaps' derivatives (derive_nl.c): gw and gcv of every curved gap. */
void dv_curved_gaps(Derivation *dv);
/* The curved slips' coefficients and curvature terms (derive_nl.c). */
void dv_curved_slips(Derivation *dv);

/* derive_fric.c: whether the friction elements' modes can be written out
 * (sets fric_modes, fric_why, n_rows; before the variables are numbered),
 * then the held rows' sets (after the gap modes and their corrections). */
void dv_friction_plan(Derivation *dv);
void dv_friction_modes(Derivation *dv);

/* derive.c, shared with derive_fric.c: whether rows[0..r-1] of A are
 * independent at the parameters' defaults, and the hoisted inverse of a
 * symmetric positive definite r*r matrix S (Qinv: the inverse of its
 * leading (r-1)*(r-1) block, needed when r > 2). */
bool dv_rows_independent(Derivation *dv, const DvMat *A, const int *rows, int r);
Expr **dv_invert_spd(Derivation *dv, Expr **S, int r, unsigned mask, Expr *const *Qinv);
Expr **dv_delassus(Derivation *dv, const DvMat *A, const int *rows, int r);
void dv_held_forces(Derivation *dv, Expr *const *Sinv, const int *rows, int r, Expr ***lam_u,
                    Expr ***lamd_u);

/* The bit of held row r in word 0 of a mode: gap r < g is bit r, friction
 * element r - g's stuck bit is g + 2 (r - g). */
static inline unsigned dv_row_bit(const Derivation *dv, int r)
{
    return r < dv->g ? 1u << r : 1u << (dv->g + 2 * (r - dv->g));
}
DvMat *dvm_new(Derivation *dv, int rows, int cols);
void dvm_set(Derivation *dv, DvMat *A, int i, int j, Expr *e);

/* A nonlinear model's Taylor tape (derive_nl.c): the three-address form of
 * every force, curved gap, curvature term and W entry, one node per
 * elementary operation, each distinct subexpression once (expressions are
 * hash-consed), in an order where every node comes after its operands.
 * A node's series lives in work slot `slot` (TP_X reads the state's series
 * X[index] instead).  An operand is a node, or a constant (node -1, cexpr
 * a function of p, c and sw: order 0 only). */
typedef enum TpOp {
    TP_X,      /* state component `index` (x then v) */
    TP_T,      /* t = t0 + tau */
    TP_ADD,    /* sum of the operands (a constant operand: order 0 only) */
    TP_MUL,    /* c * a (one operand) or c * a * b (two, Cauchy product) */
    TP_RECIP,  /* 1 / a */
    TP_POW,    /* a ^ c, c constant (the power rule; a_0 != 0) */
    TP_EXP, TP_LOG,
    TP_SIN,    /* sin a, computed with its pair TP_COS (node `pair`) */
    TP_COS,
    TP_IF,     /* c ? a : b, c constant (switch flags) */
    TP_ABS,    /* |a|, the sign of a_0 held over the step */
    TP_MIN, TP_MAX, /* the operand smaller (larger) at order 0 */
    /* functions of t alone, by their closed-form series at the step's start
     * (no operand; tc below): */
    TP_TSIN,   /* sin(r t + b): s_k = -r^2 s_{k-2} / (k (k - 1)) from sin, r cos at t0 */
    TP_TCOS,   /* cos(r t + b): likewise from cos, -r sin at t0 */
    TP_TEXP,   /* exp(r t + b): e_k = r e_{k-1} / k from exp at t0 */
    TP_TPOLY,  /* a polynomial p(t): p^(k)(t0) / k! up to its degree, 0 above */
    TP_MAX_OP = TP_TPOLY
} TpOp;

typedef struct TpArg {
    int node;              /* -1: constant */
    Expr *c;
} TpArg;

typedef struct TpNode {
    TpOp op;
    int index;             /* TP_X: the state component */
    int slot;              /* work slot (-1 for TP_X) */
    int nargs;
    TpArg arg[2];          /* TP_ADD: args[] below instead */
    TpArg *args;           /* TP_ADD: nargs operands */
    Expr *c;               /* TP_MUL scale, TP_POW exponent, TP_IF condition (NULL: none) */
    int pair;              /* TP_SIN <-> TP_COS */
    Expr *src;             /* the expression it computes, for comments (NULL: intermediate) */
    Expr **tc;             /* TP_TSIN/TCOS/TEXP: {argument, its rate r}; TP_TPOLY: the
                            * coefficients p^(k)(t)/k!, k < ntc (t the step's start) */
    int ntc;
} TpNode;

typedef struct TpOut {
    const char *dst;       /* "F", "G", "CV", "WV"; "FW", "FCV"; "M", "H" */
    int row;               /* series row in dst */
    TpArg val;
    const char *what;      /* comment */
} TpOut;

typedef struct DvTape {
    TpNode *nodes; int n_nodes, cap_nodes;
    TpOut *outs; int n_outs, cap_outs;
    int n_slots;           /* nl_nwork */
} DvTape;

/* Builds the tape of a nonlinear model's nl_series outputs. */
DvTape *dv_tape(Derivation *dv);

/* Builds the tape of the curved slips' series (nl_slip_series). */
DvTape *dv_tape_slips(Derivation *dv);

/* Builds the tape of a Lagrangian model's M(q) and h(q, v) (lag_series). */
DvTape *dv_tape_lag(Derivation *dv);

/* Adds every rigid body's gyroscopic torques -w x I w (Euler's equations in
 * the body frame) to the state-dependent forces (derive_rigid.c). */
void rigid_derive(Derivation *dv);
/* Sphere gap j's row of W over its rigid body's velocities and its
 * curvature term (gw[j], gcv[j]; derive_rigid.c). */
void sphere_derive(Derivation *dv, int j);

/* The value of an expression in p (no hoisted constants) at the
 * parameters' defaults, for numeric sanity checks (derive.c). */
double dv_default(Derivation *dv, const Expr *e);

/* Adds a hoisted constant and returns its variable. */
Expr *dv_add_const(Derivation *dv, Expr *value, const char *what);

#endif
