/*
 * model.h - a checked model: what sema hands to the derivation and emitters.
 *
 * Everything here is plain data in SI units.  Names are the user's names
 * (an indexed body reads "P[4]").  Every numeric slot is a symbolic
 * expression over parameters (EX_PARAM, index into Model.params); forces may
 * also mention time (EX_TIME).  No expression here mentions a body state:
 * gaps are already split into their affine parts w.x + d.
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

typedef struct Body {
    const char *name;
    SrcLoc loc;
    Expr *mass;
} Body;

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
    Expr *value;      /* expression of t and parameters, newtons */
} Force;

typedef enum LawKind { LAW_IMPACT, LAW_PENALTY } LawKind;
typedef enum Release { RELEASE_FORCE, RELEASE_GAP } Release;

/* A unilateral constraint g = sum_i w[i] * x[i] + d >= 0. */
typedef struct Gap {
    const char *name;
    SrcLoc loc;
    int n_w;          /* bodies the gap depends on ... */
    int *w_body;      /* ... in increasing order ... */
    Expr **w;         /* ... and their nonzero coefficients, expressions of parameters (often 1, -1) */
    Expr *d;          /* offset, expression of parameters, metres */
    LawKind law;
    Expr *e;          /* impact: restitution in [0, 1] */
    Expr *k, *c;      /* penalty: stiffness and damping (c may be the number 0) */
    Release release;  /* penalty: when engagement ends */
} Gap;

typedef enum OutputKind {
    OUT_X, OUT_V, OUT_A,          /* index: body */
    OUT_GAP, OUT_FORCE,           /* index: gap */
    OUT_KINETIC, OUT_POTENTIAL, OUT_DISSIPATED, OUT_INJECTED, OUT_ERROR,
    OUT_PARAM                     /* index: parameter */
} OutputKind;

typedef struct Output {
    OutputKind kind;
    int index;
    const char *name; /* column header as the user wrote it, e.g. "M1.x" */
    const char *unit; /* SI unit text */
    SrcLoc loc;
} Output;

typedef enum Method { METHOD_RK4, METHOD_ADAPTIVE, METHOD_EXACT } Method;

typedef struct Model {
    const char *path;   /* as given on the command line */
    const char *name;   /* from `model`, else the file's base name */
    const char *title;  /* from `model`, else "" */

    Param *params;   int n_params;
    Body *bodies;    int n_bodies;
    Spring *springs; int n_springs;   /* dampers are springs with k == NULL */
    Force *forces;   int n_forces;
    Gap *gaps;       int n_gaps;
    Expr *gravity;   /* NULL when absent; acceleration magnitude g, weight -m g on every body */

    Expr **init_x;   /* n_bodies, expressions of parameters; number 0 when unset */
    Expr **init_v;

    double t_end, dt, every; /* seconds; every = 0 means "every step" */
    Expr *t_end_e, *dt_e, *every_e; /* the same as expressions of the parameters, NULL
                                       where the number above is a default */
    Method method;
    Output *outputs; int n_outputs;

    ExprCtx *ex;     /* the context every Expr above lives in */
} Model;

#endif
