/*
 * model.h - a checked model: what sema hands to the derivation and emitters.
 *
 * Everything here is plain data in SI units.  Names are the user's names
 * (an indexed body reads "P[4]").  Every numeric slot is a symbolic
 * expression over parameters (EX_PARAM, index into Model.params); forces may
 * also mention time (EX_TIME).  Only a nonlinear model's state-dependent
 * forces (Force.state) and curved gaps (Gap.curve) mention body states, as
 * EX_VAR i = x_i and EX_VAR n + i = v_i (n bodies, the numbering of
 * derive.h); other gaps are already split into their affine parts w.x + d.
 */
#ifndef NSMC_MODEL_H
#define NSMC_MODEL_H

#include <stdbool.h>

#include "diag.h"
#include "expr.h"
#include "units.h"

typedef struct Param {
    const char *name;
    SrcLoc loc;
    Expr *value;      /* default: expression of earlier parameters only */
    double number;    /* `value` evaluated with every default, SI */
    Dim dim;          /* physical dimension, see units.h */
    const char *unit; /* SI unit text for headers and help, e.g. "N/m"; "" if none */
    bool size;        /* used in an index or a range bound: fixed when generated */
} Param;

/* Which coordinate a body is: a mass on the line, or one of the three
 * coordinates of a planar body (each its own one-coordinate state, with the
 * planar body's mass for x and y and its moment of inertia for phi). */
typedef enum Coord { COORD_LINE, COORD_X, COORD_Y, COORD_PHI, COORD_Z, COORD_ROT } Coord;

typedef struct Body {
    const char *name;  /* "M1"; a planar body's coordinates: "D.x", "D.y", "D.phi" */
    SrcLoc loc;
    Expr *mass;        /* kg; kg*m^2 for COORD_PHI */
    Coord coord;
    int planar;        /* index into Model.planars, -1 on the line */
    int rigid;         /* index into Model.rigids, -1 otherwise: its COORD_X, COORD_Y,
                          COORD_Z (mass m) and COORD_ROT (w1, w2, w3 with the
                          principal inertias; the position is the quaternion's
                          p1, p2, p3, docs/theory.md section 19) */
    const char *xname, *vname, *aname; /* "M1.x" "M1.v" "M1.a"; "D.phi" "D.omega" "D.alpha" */
    const char *xunit, *vunit, *aunit; /* "m" "m/s" "m/s^2"; "rad" "rad/s" "rad/s^2" */
    Expr *gfac;        /* weight = -mass * gravity * gfac; 1 on the line, the
                          direction's component for planar coordinates */
    int gen;           /* a generalized coordinate of a Lagrangian model: GEN_LENGTH
                          (fields x, v, a; coord COORD_LINE) or GEN_ANGLE (phi, omega,
                          alpha; coord COORD_PHI); mass is then NULL (the kinetic
                          energy gives M(q)); 0 for a body with a mass */
} Body;

enum { GEN_LENGTH = 1, GEN_ANGLE = 2 };

/* A body moving in the plane (x, y up, phi counter-clockwise): a disc has a
 * radius, a general `body` none.  Its coordinates are bodies ix, iy, iphi. */
typedef struct Planar {
    const char *name;
    SrcLoc loc;
    bool disc;
    Expr *mass, *inertia, *radius; /* radius NULL for a body */
    int ix, iy, iphi;
} Planar;

/* A rigid body in space (docs/theory.md section 19): its coordinates are
 * bodies ix .. ix + 5, the centre of mass x, y, z (world frame) and the
 * body-frame angular velocities w1, w2, w3, whose position slots hold the
 * quaternion's vector part p1, p2, p3; its p0 is position n + k of the
 * runtime's state (k its index), variable 2n + k of derive.h. */
typedef struct Rigid {
    const char *name;
    SrcLoc loc;
    Expr *mass, *inertia[3];       /* principal inertias, body frame */
    int ix;
    Expr *p[4];                    /* the initial unit quaternion p0 .. p3 */
    Expr *tilt;                    /* the tilt's angle when the orientation is a tilt, else NULL */
} Rigid;

/* A sphere of rigid body `rigid` against a fixed plane (docs/theory.md
 * section 19): its centre c in the body frame (from the centre of mass), its
 * radius, the plane's unit normal n (world frame, towards the free side) and
 * offset d (the plane is n . x = d).  Its gap is n . (r + R c) - d - radius,
 * its row of W over the body's six velocities (v, w). */
typedef struct Sphere {
    int rigid;
    Expr *centre[3], *radius;
    Expr *normal[3], *offset;
    const char *plane;             /* the plane's name */
} Sphere;

/* A flat wall against a disc: gap `gap` is n.(x, y) - n.p - R, n the unit
 * normal pointing from the wall into the disc's side, p a point of the wall. */
typedef struct Wall {
    const char *name;
    SrcLoc loc;
    int planar, gap;
    Expr *nx, *ny, *px, *py;       /* n normalised */
} Wall;

/* A spring and/or damper between two bodies; body index -1 is `ground` (x = 0).
 * Its tension is k*(x[b] - x[a] - rest) + c*(v[b] - v[a]); it pulls a towards b. */
typedef struct Spring {
    const char *name; /* NULL when the statement gave none */
    SrcLoc loc;
    int a, b;
    Expr *k;          /* NULL for a pure damper */
    Expr *c;          /* NULL when undamped */
    Expr *rest;       /* 0 when not given */
} Spring;

typedef struct Force {
    const char *name; /* may be NULL */
    SrcLoc loc;
    int body;
    Expr *value;      /* expression of t and parameters, newtons; of the state too
                         when `state` (x_i = var i, v_i = var n + i) */
    bool state;       /* depends on a position or a velocity: a nonlinear model */
} Force;

/* A gap's contact law: its entry in the compiler's table (laws.h). */
typedef struct LawDef LawDef;

typedef enum Release { RELEASE_FORCE, RELEASE_GAP } Release;

/* The most powers of a gap whose exponents of the parameters are checked at
 * run time (an odd power is refused, as nsmc refuses one written). */
#define GAP_FLAT_MAX 4

/* A unilateral constraint g = sum_i w[i] * x[i] + d >= 0. */
typedef struct Gap {
    const char *name;
    SrcLoc loc;
    int n_w;          /* bodies the gap depends on ... */
    int *w_body;      /* ... in increasing order ... */
    Expr **w;         /* ... and their nonzero coefficients, expressions of parameters (often 1, -1) */
    Expr *d;          /* offset, expression of parameters, metres */
    Expr *h;          /* moving surface: the part of the gap that depends on time t
                         (a function of the kinds a force's generator accepts), or NULL */
    SrcLoc h_loc;     /* where h was written */
    const LawDef *law; /* its contact law (laws.h): its mechanics, event function */
    Expr *e;          /* impact: restitution in [0, 1] */
    Expr *k, *c;      /* penalty: stiffness and damping (c may be the number 0) */
    Release release;  /* penalty: when engagement ends */
    Expr *pexp;       /* penalty: exponent of the penetration (NULL: 1; 1.5: Hertz) */
    Expr *istiff;     /* impact: contact stiffness for impact_law = energetic, or NULL */
    Expr *iexp;       /* impact: its force's exponent (NULL: 1; 1.5: Hertz) */
    SrcLoc istiff_loc; /* where the stiffness (or the exponent) was written */
    Expr *curve;      /* a curved gap (not affine in the positions): g(x), vars x_i = var i;
                         then w_body lists the bodies it depends on, w their slopes
                         (expressions of x), d is 0; NULL for an affine gap */
    const Sphere *sphere; /* a sphere gap of a rigid body (curve is then its g, its row of W
                         over the body's velocities: derive_rigid.c), or NULL */
    Expr *flat_exp[GAP_FLAT_MAX]; /* the exponents of the parameters of its powers of a
                         state's expression (repeated factors summed), which setup
                         checks are no odd number >= 3 (sema.c's gap_flat_power) */
    int n_flat_exp;
} Gap;

/* A Coulomb friction element on the slip velocity sum_i w[i] * v[i] - u,
 * with normal force `normal` (> 0) and coefficients mu_s >= mu_k >= 0. */
typedef struct Friction {
    const char *name;
    SrcLoc loc;
    Expr **w;         /* n_bodies coefficients, expressions of parameters */
    Expr *u;          /* the surface's velocity, expression of parameters, m/s */
    Expr *mus, *muk;  /* dimensionless */
    Expr *normal;     /* newtons; NULL when normal_gap >= 0 */
    int normal_gap;   /* -1, or the gap whose contact force is the normal force */
    Expr *et;         /* tangential restitution of impacts on normal_gap, in [0, 1]; NULL: 0 */
    bool curved;      /* a coefficient w[i] depends on the positions (x_i = var i) */
} Friction;

/* Spatial Coulomb friction at sphere gap `gap` (nsm/model.h's
 * nsm_space_friction): isotropic, coefficient mu, tangential restitution et
 * at impacts (NULL: 0), drilling friction of effective radius drill (NULL:
 * none). */
typedef struct SpaceFriction {
    const char *name;
    SrcLoc loc;
    int gap;
    Expr *mu, *et, *drill;
} SpaceFriction;

typedef enum OutputKind {
    OUT_X, OUT_V, OUT_A,          /* index: body */
    OUT_GAP, OUT_FORCE,           /* index: gap */
    OUT_KINETIC, OUT_POTENTIAL, OUT_DISSIPATED, OUT_INJECTED, OUT_ERROR,
    OUT_PARAM,                    /* index: parameter */
    OUT_FRICTION,                 /* index: friction element; its force */
    OUT_EXPR,                     /* index: the column; `value` */
    OUT_SFRICTION                 /* index: spatial friction element; |lambda_F| */
} OutputKind;

typedef struct Output {
    OutputKind kind;
    int index;
    const char *name; /* column header as the user wrote it, e.g. "M1.x" */
    const char *unit; /* SI unit text */
    SrcLoc loc;
    Expr *value;      /* OUT_EXPR: an expression of t, parameters and the state
                         (x_i = var i, v_i = var n + i), else NULL */
} Output;

typedef enum Method { METHOD_RK4, METHOD_ADAPTIVE, METHOD_EXACT, METHOD_TAYLOR } Method;

/* How the impacts at several touching contacts are resolved (nsm/model.h's
 * enum nsm_impact_law): one pair collision after another, one impulse
 * problem with Newton's law on every contact, or Liu, Zhao and Brogliato's
 * energetic multi-impact law. */
typedef enum ImpactLaw { IMPACT_SEQUENTIAL, IMPACT_SIMULTANEOUS, IMPACT_ENERGETIC } ImpactLaw;

/* What makes a model nonlinear (Model.nl), the bits of nsm/model.h's enum nsm_nl. */
enum { NL_FORCE = 1, NL_GAP = 2, NL_PENALTY = 4, NL_SLIP = 8 };

typedef struct Model {
    const char *path;   /* as given on the command line */
    const char *name;   /* from `model`, else the file's base name */
    const char *title;  /* from `model`, else "" */
    const char *source; /* the model's text as read (the simulator keeps it) */

    Param *params;   int n_params;
    Body *bodies;    int n_bodies;
    Spring *springs; int n_springs;   /* dampers are springs with k == NULL */
    Force *forces;   int n_forces;
    Gap *gaps;       int n_gaps;
    Friction *frictions; int n_frictions;
    Expr *gravity;   /* NULL when absent; acceleration magnitude g, weight -m g on every body
                        of the line, along the direction's (Body.gfac) for planar ones */
    Planar *planars; int n_planars;
    Wall *walls;     int n_walls;
    SpaceFriction *sfrics; int n_sfrics; /* spatial friction at sphere gaps */
    Rigid *rigids;   int n_rigids; /* bodies in space; the state has n_bodies + n_rigids
                                      positions (Model.nq) */
    int nq;

    Expr **init_x;   /* n_bodies, expressions of parameters; number 0 when unset */
    Expr **init_v;

    double t_end, dt, every; /* seconds; every = 0 means "every step" */
    Expr *t_end_e, *dt_e, *every_e; /* the same as expressions of the parameters, NULL
                                       where the number above is a default */
    Method method;
    ImpactLaw impact_law;
    int nl;          /* NL_* bits; 0 for a linear model */
    Output *outputs; int n_outputs;

    /* A Lagrangian model (docs/language.md, `coordinate`, `kinetic`,
     * `potential`): every body is a generalized coordinate (Body.gen), the
     * kinetic energy T(q, v) is a quadratic form in the velocities and the
     * potential V(q) depends on the positions (x_i = var i, v_i = var n + i);
     * potential is the number 0 when not written.  lagrangian is false and
     * both NULL otherwise. */
    bool lagrangian;
    Expr *kinetic, *potential;
    SrcLoc kinetic_loc, potential_loc;

    ExprCtx *ex;     /* the context every Expr above lives in */
} Model;

#endif
