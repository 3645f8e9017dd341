/* sema.c - from syntax tree to checked Model: names, units, loops, gaps. */
#include "sema.h"
#include "laws.h"
#include "rigid.h"
#include "timefn.h"

#include <nsm/model.h>

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* ---- symbols ------------------------------------------------------------ */

typedef enum SymKind {
    SYM_PARAM, SYM_BODY, SYM_FAMILY, SYM_SPRING, SYM_DAMPER, SYM_FORCE, SYM_GAP, SYM_PLANAR,
    SYM_FRICTION, SYM_RIGID, SYM_PLANE, SYM_SFRICTION
} SymKind;

typedef struct Sym {
    const char *name;
    SymKind kind;
    int index;     /* param, body, gap, planar body index; family: first body */
    int lo, hi;    /* family index range */
    SrcLoc loc;
} Sym;

/* Open-addressing hash table from name to Sym. */
typedef struct Table {
    Sym **slots;
    int cap, n;
} Table;

static unsigned hash_str(const char *s)
{
    unsigned h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static Sym *table_get(const Table *t, const char *name)
{
    if (!t->cap)
        return NULL;
    for (unsigned i = hash_str(name) & (unsigned)(t->cap - 1);; i = (i + 1) & (unsigned)(t->cap - 1)) {
        Sym *s = t->slots[i];
        if (!s)
            return NULL;
        if (strcmp(s->name, name) == 0)
            return s;
    }
}

static void table_put(Arena *a, Table *t, Sym *sym)
{
    if (2 * (t->n + 1) > t->cap) {
        Table bigger = {NULL, t->cap ? t->cap * 2 : 64, 0};
        bigger.slots = arena_alloc(a, sizeof(Sym *) * (size_t)bigger.cap);
        for (int i = 0; i < t->cap; i++)
            if (t->slots[i])
                table_put(a, &bigger, t->slots[i]);
        *t = bigger;
    }
    unsigned i = hash_str(sym->name) & (unsigned)(t->cap - 1);
    while (t->slots[i])
        i = (i + 1) & (unsigned)(t->cap - 1);
    t->slots[i] = sym;
    t->n++;
}

/* ---- state -------------------------------------------------------------- */

typedef struct LoopVar {
    const char *name;
    long value;
} LoopVar;

enum { MAX_LOOP_NEST = 16 };

typedef struct GapTerm {
    int body;
    Expr *w;
} GapTerm;

/* A gap while statements are still being read: its slopes are sparse until
 * the number of bodies is known. */
typedef struct PendingGap {
    GapTerm *terms;
    int n_terms;
} PendingGap;

/* A fixed plane of bodies in space, n . x = d (n of unit length). */
typedef struct Plane {
    Expr *n[3], *d;
} Plane;

/* A rigid body's initial orientation while `init` statements are read. */
typedef struct RigidInit {
    Expr *p[4];        /* the tilt's quaternion, or the components given (0 when not) */
    Expr *angle;       /* the tilt's angle (NULL when not a tilt) */
    bool tilt_set, p_set;
    SrcLoc loc;        /* where it was first given */
} RigidInit;

typedef struct Sema {
    Arena *arena;
    Diag *diag;
    const Source *src;
    Model *m;
    ExprCtx *ex;
    Table syms;
    Table later;   /* every name the file declares, to explain "used before declared" */
    Table columns; /* the output columns' names, to refuse one given twice */
    LoopVar loops[MAX_LOOP_NEST];
    int n_loops;
    long budget;   /* statements expanded so far */
    bool budget_reported;
    int cap_params, cap_bodies, cap_springs, cap_forces, cap_gaps, cap_outputs;
    PendingGap *pgaps;
    Expr **init_x, **init_v;
    SrcLoc *init_x_loc, *init_v_loc; /* SEMA_MAX_BODIES each */
    int n_pgaps, cap_pgaps;
    PendingGap *pfrics;  /* the friction elements' slip rows, sparse like pgaps */
    int n_pfrics, cap_pfrics, cap_frictions;
    double *pvals;  /* parameter defaults, for constant checks */
    int cap_pvals;
    int cap_planars, cap_walls;
    const Node *gravity_dir;   /* `along` of gravity, NULL when not given */
    Expr *gdx, *gdy;           /* its unit direction */
    int *gap_bodies;  /* scratch for split_gap: the bodies a gap mentions */
    int cap_gap_bodies;
    const Node **pdefs; /* each parameter's value as written, for sizes */
    int n_pdefs, cap_pdefs;
    const Node *hz_warned[16]; /* Hz in an angle, warned once per place */
    int n_hz_warned;
    bool have_gravity, have_simulate, have_output;
    SrcLoc gravity_loc, simulate_loc, output_loc;
    bool every_set;
    bool method_set;           /* `method =` given in `simulate` ... */
    bool out_expr;             /* converting an output column's expression (CX_OUT) */
    bool out_torque;           /* ... and it mentions a torque (out_member, conv of a name) */
    SrcLoc method_loc;         /* ... here */
    bool impact_law_set;       /* `impact_law =` given in `simulate` ... */
    const Stmt *kinetic_st, *potential_st; /* a Lagrangian model's energies, NULL when absent */
    const char *kinetic_name, *potential_name;
    int cap_rigids, n_rinit, cap_rinit;
    RigidInit *rinit;          /* per rigid body */
    Expr *gvec[3];             /* gravity's unit direction in space, NULL when not a vector */
    const Node *gravity_vec;   /* gravity given as a vector (gravity g = (gx, gy, gz)) */
    Plane *planes;             /* `plane` statements, by SYM_PLANE index */
    int n_planes, cap_planes;
    SrcLoc plane_loc;          /* the first one */
    int cap_sfrics;
} Sema;

/* Grows an arena array to hold n+1 elements; returns the new (zeroed) slot. */
static void *vec_push(Arena *a, void **arr, int *n, int *cap, size_t size)
{
    if (*n == *cap) {
        int c = *cap ? *cap * 2 : 8;
        void *bigger = arena_alloc(a, size * (size_t)c);
        if (*n)
            memcpy(bigger, *arr, size * (size_t)*n);
        *arr = bigger;
        *cap = c;
    }
    return (char *)*arr + size * (size_t)(*n)++;
}

static const char *kind_word(SymKind k)
{
    switch (k) {
    case SYM_PARAM: return "parameter";
    case SYM_BODY: return "body";
    case SYM_FAMILY: return "family of bodies";
    case SYM_SPRING: return "spring";
    case SYM_DAMPER: return "damper";
    case SYM_FORCE: return "force";
    case SYM_PLANAR: return "planar body";
    case SYM_FRICTION: return "friction element";
    case SYM_RIGID: return "rigid body";
    case SYM_PLANE: return "plane";
    case SYM_SFRICTION: return "spatial friction element";
    default: return "gap";
    }
}

static bool is_reserved(const char *name)
{
    return strcmp(name, "ground") == 0 || strcmp(name, "t") == 0 || strcmp(name, "pi") == 0 ||
           strcmp(name, "energy") == 0;
}

/* Declares `name`; reports a redefinition (with a note) and returns NULL. */
static Sym *declare(Sema *s, const char *name, SymKind kind, int index, SrcLoc loc)
{
    if (is_reserved(name)) {
        diag_error(s->diag, loc, "'%s' is a reserved name", name);
        return NULL;
    }
    for (int i = 0; i < s->n_loops; i++)
        if (strcmp(s->loops[i].name, name) == 0) {
            diag_error(s->diag, loc, "'%s' is the loop variable here", name);
            return NULL;
        }
    Sym *old = table_get(&s->syms, name);
    if (old) {
        diag_error(s->diag, loc, "redefinition of '%s'", name);
        diag_note(s->diag, old->loc, "previous definition of %s '%s' is here",
                  kind_word(old->kind), name);
        return NULL;
    }
    Sym *sym = arena_alloc(s->arena, sizeof *sym);
    sym->name = name;
    sym->kind = kind;
    sym->index = index;
    sym->loc = loc;
    table_put(s->arena, &s->syms, sym);
    return sym;
}

/* Reports a name that is not (yet) declared. */
static void unknown_name(Sema *s, const char *name, const char *base, SrcLoc loc)
{
    Sym *later = table_get(&s->later, base);
    if (later && (later->loc.line > loc.line ||
                  (later->loc.line == loc.line && later->loc.col > loc.col))) {
        diag_error(s->diag, loc, "'%s' is used before it is declared", name);
        diag_note(s->diag, later->loc, "'%s' is declared here", base);
        return;
    }
    diag_error(s->diag, loc, "unknown name '%s'", name);
}

/* ---- constant integer expressions (indices, ranges) --------------------- */

static const LoopVar *find_loop(const Sema *s, const char *name)
{
    for (int i = s->n_loops - 1; i >= 0; i--)
        if (strcmp(s->loops[i].name, name) == 0)
            return &s->loops[i];
    return NULL;
}

enum { INDEX_LIMIT = 1000000000 };

/* Why a parameter cannot be a size: the node at fault and what is wrong. */
typedef struct SizeFault {
    const Node *at;
    const char *why;
} SizeFault;

/* Evaluates a parameter's value as a size without reporting: whole numbers
 * without unit and other size parameters, joined by + - *.  Fills *f and
 * returns false otherwise. */
static bool size_value(Sema *s, const Node *n, long *out, SizeFault *f)
{
    long a, b;
    switch (n->kind) {
    case N_NUM:
        if (n->unit) {
            *f = (SizeFault){n, "has a unit"};
            return false;
        }
        if (n->num != floor(n->num) || fabs(n->num) > INDEX_LIMIT) {
            *f = (SizeFault){n, "is not a whole number"};
            return false;
        }
        *out = (long)n->num;
        return true;
    case N_NAME: {
        Sym *sym = table_get(&s->syms, n->name);
        if (!sym || sym->kind != SYM_PARAM || sym->index >= s->n_pdefs) {
            *f = (SizeFault){n, "is not a parameter"};
            return false;
        }
        return size_value(s, s->pdefs[sym->index], out, f);
    }
    case N_NEG:
        if (!size_value(s, n->a, &a, f))
            return false;
        *out = -a;
        return true;
    case N_BIN:
        if (n->op == '+' || n->op == '-' || n->op == '*') {
            if (!size_value(s, n->a, &a, f) || !size_value(s, n->b, &b, f))
                return false;
            double r = n->op == '+' ? (double)a + (double)b
                     : n->op == '-' ? (double)a - (double)b : (double)a * (double)b;
            if (fabs(r) > INDEX_LIMIT) {
                *f = (SizeFault){n, "is too large"};
                return false;
            }
            *out = (long)r;
            return true;
        }
        break;
    default:
        break;
    }
    *f = (SizeFault){n, "is not built from whole numbers and parameters with '+', '-' and '*'"};
    return false;
}

/* A parameter used in an index or a range bound (`mass P[1..N]`): its value
 * must be a whole number >= 0 known from the text, and it is then a size,
 * fixed when the simulator is generated (Param.size).  Reports and returns
 * false otherwise. */
static bool size_param(Sema *s, const Node *use, int k, long *out)
{
    Param *p = &s->m->params[k];
    SizeFault f = {0};
    if (k >= s->n_pdefs || !s->pdefs[k]) {
        diag_error(s->diag, use->loc, "parameter '%s' cannot be a size", p->name);
        return false;
    }
    if (!size_value(s, s->pdefs[k], out, &f)) {
        diag_error(s->diag, use->loc,
                   "parameter '%s' cannot be a size: its value must be a whole number without "
                   "unit, built from numbers and other size parameters with '+', '-' and '*'",
                   p->name);
        diag_note(s->diag, f.at->loc, "this %s", f.why);
        return false;
    }
    if (*out < 0) {
        diag_error(s->diag, use->loc, "parameter '%s' is a size and must not be negative (it is %ld)",
                   p->name, *out);
        diag_note(s->diag, p->loc, "'%s' is defined here", p->name);
        return false;
    }
    p->size = true;
    return true;
}

/* Evaluates an index built from integers, loop variables, size parameters,
 * + - * and parentheses.  Reports and returns false otherwise. */
static bool eval_int(Sema *s, const Node *n, long *out)
{
    long a, b;
    switch (n->kind) {
    case N_NUM:
        if (n->unit || n->num != floor(n->num) || fabs(n->num) > INDEX_LIMIT) {
            diag_error(s->diag, n->loc, "an index or range bound must be a whole number without unit");
            return false;
        }
        *out = (long)n->num;
        return true;
    case N_NAME: {
        const LoopVar *v = find_loop(s, n->name);
        const Sym *sym = v ? NULL : table_get(&s->syms, n->name);
        if (sym && sym->kind == SYM_PARAM)
            return size_param(s, n, sym->index, out);
        if (!v) {
            diag_error(s->diag, n->loc,
                       "'%s' is not a loop variable or a parameter: an index is built from whole "
                       "numbers, loop variables and parameters", n->name);
            return false;
        }
        *out = v->value;
        return true;
    }
    case N_NEG:
        if (!eval_int(s, n->a, &a))
            return false;
        *out = -a;
        return true;
    case N_BIN:
        if (n->op == '+' || n->op == '-' || n->op == '*') {
            if (!eval_int(s, n->a, &a) || !eval_int(s, n->b, &b))
                return false;
            double r = n->op == '+' ? (double)a + (double)b
                     : n->op == '-' ? (double)a - (double)b : (double)a * (double)b;
            if (fabs(r) > INDEX_LIMIT) {
                diag_error(s->diag, n->loc, "index out of range");
                return false;
            }
            *out = (long)r;
            return true;
        }
        break;
    default:
        break;
    }
    diag_error(s->diag, n->loc,
               "an index must be built from whole numbers, loop variables, parameters, '+', '-' and '*'");
    return false;
}

/* Resolves the name of a declared thing, "S1" or "G[3]"; NULL after an error. */
static const char *label_name(Sema *s, const Node *n)
{
    if (n->kind == N_NAME)
        return n->name;
    if (n->kind == N_INDEX) {
        long i;
        if (!eval_int(s, n->a, &i))
            return NULL;
        return arena_printf(s->arena, "%s[%ld]", n->name, i);
    }
    diag_error(s->diag, n->loc, "expected a name here");
    return NULL;
}

static Val rigid_refuse(Sema *s, const Node *n, const char *name);
static Expr *sphere_rate(Sema *s, const Sphere *sp);
static Val sphere_point(Sema *s, const Sphere *sp, const char *f);
static Val sphere_slip(Sema *s, const Sphere *sp);

/* Finds the symbol a reference names: NAME or NAME[index].  Reports unknown
 * names and out-of-range indices; returns NULL then. */
static Sym *resolve(Sema *s, const Node *n)
{
    if (n->kind == N_RANGE) {
        diag_error(s->diag, n->loc, "a range of indices is only allowed in 'mass'");
        return NULL;
    }
    if (n->kind == N_NAME) {
        Sym *sym = table_get(&s->syms, n->name);
        if (!sym)
            unknown_name(s, n->name, n->name, n->loc);
        return sym;
    }
    if (n->kind != N_INDEX) {
        diag_error(s->diag, n->loc, "expected a name here");
        return NULL;
    }
    long i;
    if (!eval_int(s, n->a, &i))
        return NULL;
    Sym *fam = table_get(&s->syms, n->name);
    if (fam && fam->kind == SYM_FAMILY && (i < fam->lo || i > fam->hi)) {
        diag_error(s->diag, n->a->loc, "index %ld is out of range for '%s' (%d..%d)", i, n->name,
                   fam->lo, fam->hi);
        return NULL;
    }
    const char *name = arena_printf(s->arena, "%s[%ld]", n->name, i);
    Sym *sym = table_get(&s->syms, name);
    if (!sym) {
        if (fam && fam->kind != SYM_FAMILY)
            diag_error(s->diag, n->loc, "'%s' is a %s and cannot be indexed", n->name,
                       kind_word(fam->kind));
        else
            unknown_name(s, name, n->name, n->loc);
    }
    return sym;
}

/* The body that holds coordinate `field` of planar body p (x, y or phi);
 * -1 when there is no such coordinate. */
static int planar_coord(const Sema *s, int p, const char *field)
{
    const Planar *pl = &s->m->planars[p];
    if (strcmp(field, "x") == 0)
        return pl->ix;
    if (strcmp(field, "y") == 0)
        return pl->iy;
    if (strcmp(field, "phi") == 0)
        return pl->iphi;
    return -1;
}

/* Resolves a body reference; -1 is ground.  A coordinate of a planar body
 * (D.x, D.y, D.phi) is the body that holds it.  Returns false after an error. */
static bool resolve_body(Sema *s, const Node *n, int *body)
{
    if (n->kind == N_NAME && strcmp(n->name, "ground") == 0) {
        *body = -1;
        return true;
    }
    if (n->kind == N_MEMBER) {
        Sym *ps = resolve(s, n->a);
        if (!ps)
            return false;
        if (ps->kind == SYM_RIGID) {
            rigid_refuse(s, n, ps->name);
            return false;
        }
        if (ps->kind != SYM_PLANAR) {
            diag_error(s->diag, n->loc,
                       "'%s.%s' is not a body: only a planar body's coordinates (like D.x) are named with a '.' here",
                       ps->name, n->name);
            return false;
        }
        *body = planar_coord(s, ps->index, n->name);
        if (*body < 0) {
            diag_error(s->diag, n->name_loc,
                       "a planar body's coordinates are x, y and phi, not '%s'", n->name);
            return false;
        }
        return true;
    }
    Sym *sym = resolve(s, n);
    if (!sym)
        return false;
    if (sym->kind == SYM_FAMILY) {
        diag_error(s->diag, n->loc, "'%s' is a family of bodies; name one of them, e.g. %s[%d]",
                   sym->name, sym->name, sym->lo);
        return false;
    }
    if (sym->kind == SYM_RIGID) {
        rigid_refuse(s, n, sym->name);
        return false;
    }
    if (sym->kind == SYM_PLANAR) {
        diag_error(s->diag, n->loc,
                   "'%s' is a planar body: name the coordinate this acts along, %s.x, %s.y or %s.phi",
                   sym->name, sym->name, sym->name, sym->name);
        return false;
    }
    if (sym->kind != SYM_BODY) {
        diag_error(s->diag, n->loc, "'%s' is a %s, not a body", sym->name, kind_word(sym->kind));
        return false;
    }
    *body = sym->index;
    return true;
}

/* ---- expressions -------------------------------------------------------- */

enum { CX_TIME = 1, CX_POS = 2, CX_VEL = 4, CX_STATE = 8, CX_OUT = 16, CX_KIN = 32 };
/* CX_KIN: a kinetic or potential energy, which may mention the generalized
 * coordinates' positions and velocities only */
/* what an expression may mention; CX_STATE: a force's positions and velocities;
 * CX_OUT: an output column's, which may also name the elements' quantities
 * (S.force, F.slip, G.gap) and need not be smooth */
/* While statements are read the number of bodies is not known: a force's
 * velocity v_i is variable VEL_VAR + i, renumbered n + i by finish(). */
enum { VEL_VAR = SEMA_MAX_BODIES };
/* In a slip velocity (whose velocities are vars 0..n-1) the position x_i is
 * SLIP_POS_VAR + i, renumbered i by finish() (the slip's coefficients). */
enum { SLIP_POS_VAR = 2 * SEMA_MAX_BODIES };
/* A rigid body b's quaternion scalar part p0 is P0_VAR + b, renumbered
 * 2n + b by finish() (derive.h; docs/theory.md section 19). */
enum { P0_VAR = 3 * SEMA_MAX_BODIES };
static Dim DIM_V, DIM_RATE; /* defined with the other units below */

/* Val, a converted value: laws.h. */

static Val bad(void)
{
    return (Val){NULL, {false, 0, 0, 0}, false, false, 0};
}

static Val val(Expr *e, Dim d)
{
    return (Val){e, d, true, false, 0};
}

static double num_of(Sema *s, const Expr *e);

/* v with its number at the defaults. */
static Val with_num(Val v, double num)
{
    if (v.ok) {
        v.has_num = true;
        v.num = num;
    }
    return v;
}

/* v with the number of a one- or two-argument operation on a and b, when
 * both are known. */
static Val with_num2(Val v, Val a, Val b, double num)
{
    return a.has_num && b.has_num ? with_num(v, num) : v;
}

static const char *num_text(Sema *s, double v);
static Val num_kept(Sema *s, const Node *n, Val v, Val a, Val b);
static Val conv_arith(Sema *s, const Node *n, Val a, Val b);

static const char *dim_str(Sema *s, Dim d)
{
    char buf[64];
    dim_text(d, buf, sizeof buf);
    if (!d.known)
        return "no unit";
    if (!buf[0])
        return "no unit (dimensionless)";
    return arena_strdup(s->arena, buf);
}

static bool dim_is_none(Dim d)
{
    return d.known && d.m == 0 && d.kg == 0 && d.s == 0;
}

static Val conv(Sema *s, const Node *n, int cx);

/* Rejects a body state inside a construct that is not differentiable in it
 * (abs, min, max, comparisons, `if`): forces and gaps of the state must be
 * smooth, their Jacobians and Taylor coefficients are derived symbolically. */
static bool smooth_guard(Sema *s, Val v, const Node *n, const char *what)
{
    if (s->out_expr)      /* an output column is only evaluated, never differentiated */
        return true;
    if (v.ok && expr_has_kind(v.e, EX_VAR)) {
        diag_error(s->diag, n->loc,
                   "%s a body state is not differentiable: a force or a gap must be a smooth "
                   "function of positions and velocities (sums, products, powers, sin, cos, tan, "
                   "exp, log, sqrt)", what);
        return false;
    }
    return true;
}

static const struct {
    const char *name;
    ExprFunc fn;
    int nargs;
} funcs[] = {
    {"sin", FN_SIN, 1},   {"cos", FN_COS, 1}, {"tan", FN_TAN, 1},
    {"exp", FN_EXP, 1},   {"log", FN_LOG, 1}, {"sqrt", FN_SQRT, 1},
    {"abs", FN_ABS, 1},   {"min", FN_MIN, 2}, {"max", FN_MAX, 2},
};

/* Whether n holds a number written in Hz (`10 Hz`, `2 kHz`), directly or
 * through the values of the parameters it names (depth bounded). */
static bool hz_in(const Sema *s, const Node *n, int depth)
{
    if (!n || depth > 16)
        return false;
    if (n->kind == N_NUM)
        return n->unit && strstr(n->unit, "Hz");
    if (n->kind == N_NAME) {
        Sym *sym = table_get(&s->syms, n->name);
        return sym && sym->kind == SYM_PARAM && sym->index < s->n_pdefs &&
               hz_in(s, s->pdefs[sym->index], depth + 1);
    }
    if (hz_in(s, n->a, depth) || hz_in(s, n->b, depth) || hz_in(s, n->c, depth))
        return true;
    for (int i = 0; i < n->nargs; i++)
        if (hz_in(s, n->args[i], depth))
            return true;
    return false;
}

/* Whether the expression n names `pi` (a 2*pi*f argument converts cycles). */
static bool names_pi(const Node *n)
{
    if (!n)
        return false;
    if (n->kind == N_NAME)
        return strcmp(n->name, "pi") == 0;
    if (names_pi(n->a) || names_pi(n->b) || names_pi(n->c))
        return true;
    for (int i = 0; i < n->nargs; i++)
        if (names_pi(n->args[i]))
            return true;
    return false;
}

/* Warns when the argument of sin, cos or tan holds a frequency in Hz and no
 * `pi` converts it: the
 * argument is in radians, so `cos(w*t)` with `param w = 10 Hz` turns at
 * 10 rad/s, not 10 cycles per second.  Once per place (a loop expands a
 * statement many times). */
static void warn_hz_angle(Sema *s, const Node *call, const Node *arg)
{
    if (!hz_in(s, arg, 0) || names_pi(arg))
        return;
    for (int i = 0; i < s->n_hz_warned; i++)
        if (s->hz_warned[i] == arg)
            return;
    if (s->n_hz_warned < (int)(sizeof s->hz_warned / sizeof s->hz_warned[0]))
        s->hz_warned[s->n_hz_warned++] = arg;
    diag_warning(s->diag, arg->loc, "a frequency in Hz inside '%s' is taken as rad/s (Hz counts "
                 "cycles, the argument is in radians); write 2*pi*f, or give the frequency in "
                 "rad/s", call->name);
}

/* v, or an error at the call n when v's number is 0 though function fn's
 * value at the argument x is not: exp(-1000) (or any function whose value
 * underflows) would run as 0, as "1e-200 * 1e-200" would (num_kept).  Zero
 * is exact only at sin, tan, sqrt or abs of 0, log or acos of 1, and for
 * min and max (their value is an operand's). */
static Val call_kept(Sema *s, const Node *n, ExprFunc fn, Val v, double x)
{
    bool at_zero = fn == FN_SIN || fn == FN_TAN || fn == FN_SQRT || fn == FN_ABS;
    bool at_one = fn == FN_LOG || fn == FN_ACOS;
    if (!v.ok || !v.has_num || v.num != 0 || fn == FN_MIN || fn == FN_MAX || !isfinite(x) ||
        (at_zero && x == 0) || (at_one && x == 1))
        return v;
    diag_error(s->diag, n->loc, "number out of range: this value of '%s' at %s is below the range "
               "of a double and would be taken as 0 (nonzero doubles are at least 4.9e-324 in "
               "magnitude)", n->name, num_text(s, x));
    return bad();
}

static Val conv_call(Sema *s, const Node *n, int cx)
{
    int f = -1;
    for (int i = 0; i < (int)(sizeof funcs / sizeof funcs[0]); i++)
        if (strcmp(funcs[i].name, n->name) == 0)
            f = i;
    if (f < 0) {
        diag_error(s->diag, n->loc,
                   "unknown function '%s' (expected sin, cos, tan, exp, log, sqrt, abs, min or max)",
                   n->name);
        return bad();
    }
    if (n->nargs != funcs[f].nargs) {
        diag_error(s->diag, n->loc, "'%s' takes %d argument%s, not %d", n->name, funcs[f].nargs,
                   funcs[f].nargs == 1 ? "" : "s", n->nargs);
        return bad();
    }
    Val a = conv(s, n->args[0], cx);
    Val b = funcs[f].nargs == 2 ? conv(s, n->args[1], cx) : a;
    if (!a.ok || !b.ok)
        return bad();
    ExprFunc fn = funcs[f].fn;
    const char *what = arena_printf(s->arena, "'%s' of", n->name);
    bool kinked = fn == FN_ABS || fn == FN_MIN || fn == FN_MAX;
    if (kinked && (!smooth_guard(s, a, n, what) || !smooth_guard(s, b, n, what)))
        return bad();
    Dim d = a.dim;
    switch (fn) {
    case FN_SIN: case FN_COS: case FN_TAN: case FN_EXP: case FN_LOG:
    case FN_ACOS:   /* not in funcs[]: nsmc writes it (B.theta) */
        if (a.dim.known && !dim_is_none(a.dim)) {
            diag_error(s->diag, n->args[0]->loc,
                       "unit mismatch: the argument of '%s' must be dimensionless, not %s", n->name,
                       dim_str(s, a.dim));
            return bad();
        }
        if (fn == FN_SIN || fn == FN_COS || fn == FN_TAN)
            warn_hz_angle(s, n, n->args[0]);
        d = dim_none();
        break;
    case FN_SQRT:
        if (a.dim.known && (a.dim.m % 2 || a.dim.kg % 2 || a.dim.s % 2)) {
            diag_error(s->diag, n->args[0]->loc, "unit mismatch: cannot take the square root of %s",
                       dim_str(s, a.dim));
            return bad();
        }
        d = a.dim.known ? dim_make(a.dim.m / 2, a.dim.kg / 2, a.dim.s / 2) : a.dim;
        break;
    case FN_ABS:
        break;
    case FN_MIN: case FN_MAX:
        if (!dim_equal(a.dim, b.dim)) {
            diag_error(s->diag, n->loc, "unit mismatch: '%s' of %s and %s", n->name,
                       dim_str(s, a.dim), dim_str(s, b.dim));
            return bad();
        }
        d = a.dim.known ? a.dim : b.dim;
        break;
    }
    bool two = fn == FN_MIN || fn == FN_MAX;
    Val r = val(expr_call(s->ex, fn, a.e, two ? b.e : NULL), d);
    if (!a.has_num || !b.has_num)
        return r;
    return call_kept(s, n, fn, with_num(r, num_of(s, expr_call(s->ex, fn, expr_num(s->ex, a.num),
                                                  two ? expr_num(s->ex, b.num) : NULL))), a.num);
}

/* A planar body's velocity in a force (vx, vy, omega); its accelerations are
 * refused. */
static Val planar_rate(Sema *s, const Node *n, const Sym *ps)
{
    static const char *const vel[] = {"vx", "vy", "omega"};
    static const char *const crd[] = {"x", "y", "phi"};
    for (int k = 0; k < 3; k++) {
        if (strcmp(n->name, vel[k]) != 0)
            continue;
        int vb = planar_coord(s, ps->index, crd[k]);
        return val(expr_var(s->ex, VEL_VAR + vb), k == 2 ? DIM_RATE : DIM_V);
    }
    diag_error(s->diag, n->loc, "a force may depend on positions and velocities, not on '%s.%s'",
               ps->name, n->name);
    return bad();
}

/* Converts a coordinate of a planar body (D.x, D.y, D.phi) in a gap; its
 * velocities and accelerations belong to `init` and `output` only. */
static Val conv_planar_member(Sema *s, const Node *n, const Sym *ps, int cx)
{
    int body = planar_coord(s, ps->index, n->name);
    static const char *const rates[] = {"vx", "vy", "omega", "ax", "ay", "alpha"};
    bool rate = false;
    for (int i = 0; i < 6; i++)
        rate = rate || strcmp(n->name, rates[i]) == 0;
    if (body < 0 && !rate) {
        diag_error(s->diag, n->name_loc,
                   "a planar body has no field '%s' (expected x, y, phi, vx, vy, omega, ax, ay or alpha)",
                   n->name);
        return bad();
    }
    if (cx & CX_VEL) {
        /* a slip velocity: vx, vy (m/s) and omega (rad/s, times a length) */
        int vb = -1;
        static const char *const vel[] = {"vx", "vy", "omega"};
        for (int k = 0; k < 3; k++)
            if (strcmp(n->name, vel[k]) == 0)
                vb = planar_coord(s, ps->index, k == 0 ? "x" : k == 1 ? "y" : "phi");
        if (vb < 0 && body >= 0) /* a position: in the coefficients (a rotating corner) */
            return val(expr_var(s->ex, SLIP_POS_VAR + body),
                       s->m->bodies[body].coord == COORD_PHI ? dim_none() : dim_make(1, 0, 0));
        if (vb < 0) {
            diag_error(s->diag, n->loc, "a slip velocity may depend on velocities and positions "
                       "only (vx, vy, omega, x, y, phi), not on '%s.%s'", ps->name, n->name);
            return bad();
        }
        return val(expr_var(s->ex, vb), s->m->bodies[vb].coord == COORD_PHI ? DIM_RATE : DIM_V);
    }
    if (!(cx & CX_POS)) {
        diag_error(s->diag, n->loc,
                   "body states like '%s.%s' may only appear in a force, a gap, a slip velocity or an "
                   "output list", ps->name, n->name);
        return bad();
    }
    if (rate && (cx & CX_STATE))
        return planar_rate(s, n, ps);
    if (rate) {
        diag_error(s->diag, n->loc, "a gap may depend on positions only, not on '%s.%s'", ps->name,
                   n->name);
        return bad();
    }
    return val(expr_var(s->ex, body), s->m->bodies[body].coord == COORD_PHI ? dim_none()
                                                                           : dim_make(1, 0, 0));
}

/* ---- quantities of the elements in output columns ------------------------ */

static Dim DIM_M, DIM_N, DIM_TORQUE; /* defined with the other units below */

/* Refuses a quantity that depends on the mode (a contact or friction force,
 * an acceleration) inside an expression: the runtime computes it per mode,
 * so it is an output column of its own. */
static Val mode_quantity(Sema *s, const Node *n, const char *name, const char *field)
{
    diag_error(s->diag, n->loc,
               "'%s.%s' depends on which contacts are closed and which friction elements stick: "
               "it can be an output column of its own, not part of an expression", name, field);
    return bad();
}

/* x_i (position var i) or v_i (VEL_VAR + i) of body i, 0 for ground. */
static Expr *state_of(Sema *s, int body, bool vel)
{
    return body < 0 ? expr_num(s->ex, 0) : expr_var(s->ex, (vel ? VEL_VAR : 0) + body);
}

/* Whether body i is an angle (a planar body's phi). */
static bool is_angle(const Sema *s, int body)
{
    return body >= 0 && s->m->bodies[body].coord == COORD_PHI;
}

/* The wall whose gap is gap j, or NULL. */
static const Wall *wall_of(const Sema *s, int j)
{
    for (int k = 0; k < s->m->n_walls; k++)
        if (s->m->walls[k].gap == j)
            return &s->m->walls[k];
    return NULL;
}

/* Field f (x, y, vx or vy) of the contact point of wall w's disc: the
 * disc's point nearest the wall, c = (D.x, D.y) - R n, and that material
 * point's velocity (D.vx, D.vy) + omega x (c - centre) = (D.vx + omega R
 * n_y, D.vy - omega R n_x) (0 while rolling without slip along the wall).
 * An invalid value (ok false) for any other field. */
static Val wall_point(Sema *s, const Wall *w, const char *f)
{
    const Planar *pl = &s->m->planars[w->planar];
    ExprCtx *x = s->ex;
    bool vel = f[0] == 'v', along_x = strcmp(f + vel, "x") == 0;
    if (!along_x && strcmp(f + vel, "y") != 0)
        return bad();
    Expr *rn = expr_mul(x, pl->radius, along_x ? w->nx : w->ny);
    if (!vel)
        return val(expr_sub(x, state_of(s, along_x ? pl->ix : pl->iy, false), rn), DIM_M);
    Expr *spin = expr_mul(x, state_of(s, pl->iphi, true), expr_mul(x, pl->radius, along_x ? w->ny : w->nx));
    Expr *v = state_of(s, along_x ? pl->ix : pl->iy, true);
    return val(along_x ? expr_add(x, v, spin) : expr_sub(x, v, spin), DIM_V);
}

/* The quantity `field` of element sym (spring, damper, force, gap, friction
 * element) as an expression of the state: a spring's or damper's tension,
 * a force's value, a gap's value, a friction element's slip velocity.  Its
 * mode-dependent quantities (contact and friction forces) are refused. */
static Val element_value(Sema *s, const Node *n, const Sym *sym)
{
    const char *f = n->name;
    Model *m = s->m;
    switch (sym->kind) {
    case SYM_SPRING:
    case SYM_DAMPER: {
        if (strcmp(f, "force") != 0)
            break;
        const Spring *sp = &m->springs[sym->index];
        Expr *e = expr_num(s->ex, 0);
        if (sp->k) {
            Expr *dx = expr_sub(s->ex, state_of(s, sp->b, false), state_of(s, sp->a, false));
            e = expr_mul(s->ex, sp->k, expr_sub(s->ex, dx, sp->rest));
        }
        if (sp->c) {
            Expr *dv = expr_sub(s->ex, state_of(s, sp->b, true), state_of(s, sp->a, true));
            e = expr_add(s->ex, e, expr_mul(s->ex, sp->c, dv));
        }
        return val(e, is_angle(s, sp->a) || is_angle(s, sp->b) ? DIM_TORQUE : DIM_N);
    }
    case SYM_FORCE: {
        if (strcmp(f, "force") != 0)
            break;
        const Force *fo = &m->forces[sym->index];
        return val(fo->value, is_angle(s, fo->body) ? DIM_TORQUE : DIM_N);
    }
    case SYM_GAP: {
        if (strcmp(f, "force") == 0)
            return mode_quantity(s, n, sym->name, f);
        if (m->gaps[sym->index].sphere) {
            Val p = sphere_point(s, m->gaps[sym->index].sphere, f);
            if (p.ok)
                return p;
        }
        const Wall *w = wall_of(s, sym->index);
        if (w) {
            Val p = wall_point(s, w, f);
            if (p.ok)
                return p;
        }
        bool rate = strcmp(f, "rate") == 0;
        if (strcmp(f, "gap") != 0 && !rate)
            break;
        const Gap *g = &m->gaps[sym->index];
        Expr *e = g->curve;
        if (!e) {
            const PendingGap *pg = &s->pgaps[sym->index];
            e = g->d ? g->d : expr_num(s->ex, 0);
            for (int k = 0; k < pg->n_terms; k++)
                e = expr_add(s->ex, e, expr_mul(s->ex, pg->terms[k].w,
                                                state_of(s, pg->terms[k].body, false)));
            if (g->h)
                e = expr_add(s->ex, e, g->h);
        }
        if (!rate)
            return val(e, DIM_M);
        if (g->sphere)
            return val(sphere_rate(s, g->sphere), DIM_V);
        /* its rate: the sum over the bodies of dg/dx_i v_i, and dg/dt of a moving surface */
        Expr *r = expr_diff(s->ex, e, expr_time(s->ex));
        for (int i = 0; i < m->n_bodies; i++) {
            Expr *d = expr_diff(s->ex, e, expr_var(s->ex, i));
            if (!expr_is_zero(d))
                r = expr_add(s->ex, r, expr_mul(s->ex, d, state_of(s, i, true)));
        }
        return val(r, DIM_V);
    }
    case SYM_FRICTION: {
        if (strcmp(f, "force") == 0)
            return mode_quantity(s, n, sym->name, f);
        if (strcmp(f, "slip") != 0)
            break;
        const PendingGap *pf = &s->pfrics[sym->index];
        Expr *e = expr_neg(s->ex, m->frictions[sym->index].u);
        for (int k = 0; k < pf->n_terms; k++)
            e = expr_add(s->ex, e, expr_mul(s->ex, pf->terms[k].w, state_of(s, pf->terms[k].body, true)));
        return val(e, DIM_V);
    }
    case SYM_SFRICTION:
        if (strcmp(f, "force") == 0)
            return mode_quantity(s, n, sym->name, f);
        if (strcmp(f, "slip") != 0)
            break;
        return sphere_slip(s, m->gaps[m->sfrics[sym->index].gap].sphere);
    default:
        break;
    }
    static const char *const expect[] = {
        [SYM_SPRING] = "force", [SYM_DAMPER] = "force", [SYM_FORCE] = "force",
        [SYM_GAP] = "gap, rate or force", [SYM_FRICTION] = "force or slip",
        [SYM_RIGID] = "x, y, z, vx, vy, vz, w1, w2, w3, p0, p1, p2, p3 or theta",
        [SYM_PLANE] = "none: a plane is named by sphere gaps only",
        [SYM_SFRICTION] = "force or slip"};
    if (sym->kind == SYM_GAP && m->gaps[sym->index].sphere) {
        diag_error(s->diag, n->name_loc, "a sphere gap has no field '%s' (expected gap, rate, "
                   "force, or x, y, z, vx, vy, vz: its contact point)", f);
        return bad();
    }
    if (sym->kind == SYM_GAP && wall_of(s, sym->index)) {
        diag_error(s->diag, n->name_loc, "a wall has no field '%s' (expected gap, rate, force, "
                   "or x, y, vx, vy: its contact point)", f);
        return bad();
    }
    diag_error(s->diag, n->name_loc, "a %s has no field '%s' (expected %s)", kind_word(sym->kind), f,
               expect[sym->kind]);
    return bad();
}

/* In an output column's expression, the quantities that are not a body's
 * state: the elements' (element_value), refusing energies and
 * accelerations (columns of their own).  *handled is false for a body's
 * positions and velocities, which conv_member converts. */
static Val out_member(Sema *s, const Node *n, bool *handled)
{
    const Node *base = n->a;
    const char *f = n->name;
    *handled = true;
    if (base->kind == N_NAME && strcmp(base->name, "energy") == 0) {
        diag_error(s->diag, n->loc, "'energy.%s' is an output column of its own, not part of an "
                   "expression", f);
        return bad();
    }
    Sym *sym = NULL;
    bool indexed_body = false;
    if (base->kind == N_NAME) {
        sym = table_get(&s->syms, base->name);
    } else if (base->kind == N_INDEX) {
        Sym *fam = table_get(&s->syms, base->name);
        indexed_body = fam && fam->kind == SYM_FAMILY;
        if (!indexed_body && !(sym = resolve(s, base)))
            return bad();
    }
    bool body = indexed_body || (base->kind == N_NAME && strcmp(base->name, "ground") == 0) ||
                (sym && (sym->kind == SYM_BODY || sym->kind == SYM_FAMILY));
    if (body || (sym && sym->kind == SYM_PLANAR)) {
        static const char *const acc[] = {"a", "ax", "ay", "alpha"};
        for (int i = body ? 0 : 1; i < (body ? 1 : 4); i++)
            if (strcmp(f, acc[i]) == 0)
                return mode_quantity(s, n, sym ? sym->name : base->name, f);
    }
    if (!sym || body || sym->kind == SYM_PLANAR || sym->kind == SYM_PARAM) {
        *handled = false;
        return bad();
    }
    Val v = element_value(s, n, sym);
    if (v.ok && dim_equal(v.dim, DIM_TORQUE))
        s->out_torque = true;   /* a spring, damper or force acting on an angle */
    return v;
}

/* The state a field of generalized coordinate b names: 'x' (its position:
 * x, or phi for an angle), 'v' (v, omega), 'a' (a, alpha), or 0 when b has
 * no such field. */
static int gen_field(const Body *b, const char *f)
{
    static const char *const len[] = {"x", "v", "a"}, *const ang[] = {"phi", "omega", "alpha"};
    const char *const *names = b->gen == GEN_ANGLE ? ang : len;
    for (int i = 0; i < 3; i++)
        if (strcmp(f, names[i]) == 0)
            return "xva"[i];
    return 0;
}

/* Converts a field of generalized coordinate `body` (th.phi, th.omega,
 * C.x, C.v) where a body's state may appear: positions in gaps, forces and
 * energies, velocities in forces and energies. */
static Val conv_gen_member(Sema *s, const Node *n, int body, int cx)
{
    const Body *b = &s->m->bodies[body];
    const char *cn = b->name;
    int f = gen_field(b, n->name);
    if (!f) {
        diag_error(s->diag, n->name_loc, "'%s' is %s coordinate: its fields are %s, not '%s'", cn,
                   b->gen == GEN_ANGLE ? "an angle" : "a length",
                   b->gen == GEN_ANGLE ? "phi, omega and alpha" : "x, v and a", n->name);
        return bad();
    }
    if (cx & CX_VEL) {  /* a slip velocity: the rates, and positions in the coefficients */
        if (f == 'a') {
            diag_error(s->diag, n->loc, "a slip velocity may depend on velocities and positions "
                       "only, not on '%s.%s'", cn, n->name);
            return bad();
        }
        bool ang = b->gen == GEN_ANGLE;
        if (f == 'v')
            return val(expr_var(s->ex, body), ang ? DIM_RATE : DIM_V);
        return val(expr_var(s->ex, SLIP_POS_VAR + body), ang ? dim_none() : DIM_M);
    }
    if (!(cx & CX_POS)) {
        diag_error(s->diag, n->loc, "coordinate states like '%s.%s' may only appear in a force, a "
                   "gap, an energy or an output list", cn, n->name);
        return bad();
    }
    if (f == 'a') {
        diag_error(s->diag, n->loc, "'%s.%s' is an acceleration: it may be an output column, not "
                   "part of an expression", cn, n->name);
        return bad();
    }
    if (f == 'v' && !(cx & CX_STATE)) {
        diag_error(s->diag, n->loc, "a gap may depend on positions only, not on '%s.%s'", cn,
                   n->name);
        return bad();
    }
    bool ang = b->gen == GEN_ANGLE;
    if (f == 'v')
        return val(expr_var(s->ex, VEL_VAR + body), ang ? DIM_RATE : DIM_V);
    return val(expr_var(s->ex, body), ang ? dim_none() : DIM_M);
}

/* Converts a member in a kinetic or potential energy: a generalized
 * coordinate's state only.  A body with a mass has its own kinetic energy
 * and equations, so mixing it in is refused. */
static Val conv_energy_member(Sema *s, const Node *n, int cx)
{
    const Node *base = n->a;
    if (base->kind == N_NAME && strcmp(base->name, "ground") == 0) {
        diag_error(s->diag, n->loc, "ground does not move: it has no place in an energy");
        return bad();
    }
    Sym *sym = base->kind == N_NAME || base->kind == N_INDEX ? resolve(s, base) : NULL;
    if (!sym)
        return bad();
    if (sym->kind == SYM_BODY && s->m->bodies[sym->index].gen)
        return conv_gen_member(s, n, sym->index, cx);
    if (sym->kind == SYM_BODY || sym->kind == SYM_PLANAR || sym->kind == SYM_FAMILY) {
        diag_error(s->diag, n->loc, "an energy may mention generalized coordinates only, and '%s' "
                   "is a body with a mass of its own: declare it with 'coordinate' and write its "
                   "kinetic energy into 'kinetic'", sym->name);
        return bad();
    }
    diag_error(s->diag, n->loc, "'%s.%s' can only be used in an output list", sym->name, n->name);
    return bad();
}

/* Converts `BODY.x` and friends; only a gap may mention positions. */
static Sym *rigid_sym(Sema *s, const Node *base);
static Val rigid_member(Sema *s, const Node *n, const Node *call, const Sym *sym, int cx);

static Val conv_member(Sema *s, const Node *n, int cx)
{
    const Node *base = n->a;
    if (cx & CX_KIN)
        return conv_energy_member(s, n, cx);
    Sym *rs = rigid_sym(s, base->kind == N_CALL && base->a ? base->a : base);
    if (rs)
        return rigid_member(s, n, base->kind == N_CALL ? base : NULL, rs, cx);
    if (base->kind == N_CALL) {
        diag_error(s->diag, base->loc, "only a rigid body has points: B.point(a, b, c).x");
        return bad();
    }
    if (cx & CX_OUT) {
        bool handled;
        Val v = out_member(s, n, &handled);
        if (handled)
            return v;
    }
    if (base->kind == N_NAME && strcmp(base->name, "energy") == 0) {
        diag_error(s->diag, n->loc, "'energy.%s' can only be used in an output list", n->name);
        return bad();
    }
    if (base->kind == N_NAME && strcmp(base->name, "ground") != 0) {
        Sym *sym = table_get(&s->syms, base->name);
        if (sym && sym->kind != SYM_BODY && sym->kind != SYM_FAMILY && sym->kind != SYM_PLANAR) {
            diag_error(s->diag, n->loc, "'%s.%s' can only be used in an output list", base->name,
                       n->name);
            return bad();
        }
    }
    if (base->kind == N_NAME) {
        Sym *ps = table_get(&s->syms, base->name);
        if (ps && ps->kind == SYM_PLANAR)
            return conv_planar_member(s, n, ps, cx);
    } else if (base->kind == N_INDEX) {
        Sym *fam = table_get(&s->syms, base->name);
        if (!fam || fam->kind != SYM_FAMILY) { /* D[2]: declared one by one */
            Sym *ps = resolve(s, base);
            if (!ps)
                return bad();
            if (ps->kind == SYM_PLANAR)
                return conv_planar_member(s, n, ps, cx);
        }
    }
    int body;
    if (!resolve_body(s, base, &body))
        return bad();
    if (body >= 0 && s->m->bodies[body].gen)
        return conv_gen_member(s, n, body, cx);
    if (strcmp(n->name, "x") != 0 && strcmp(n->name, "v") != 0 && strcmp(n->name, "a") != 0) {
        diag_error(s->diag, n->name_loc, "a body has no field '%s' (expected x, v or a)", n->name);
        return bad();
    }
    if (cx & CX_VEL) {
        if (strcmp(n->name, "x") == 0 && body >= 0) /* a position, in the coefficients */
            return val(expr_var(s->ex, SLIP_POS_VAR + body), dim_make(1, 0, 0));
        if (strcmp(n->name, "v") != 0) {
            diag_error(s->diag, n->loc, "a slip velocity may depend on velocities only, not on "
                       "'%s.%s'", body < 0 ? "ground" : s->m->bodies[body].name, n->name);
            return bad();
        }
        if (body < 0)
            return with_num(val(expr_num(s->ex, 0), dim_make(1, 0, -1)), 0);
        return val(expr_var(s->ex, body), dim_make(1, 0, -1));
    }
    if (!(cx & CX_POS)) {
        diag_error(s->diag, n->loc,
                   "body states like '%s.%s' may only appear in a force, a gap, a slip velocity or an "
                   "output list",
                   body < 0 ? "ground" : s->m->bodies[body].name, n->name);
        return bad();
    }
    if ((cx & CX_STATE) && strcmp(n->name, "v") == 0) {
        if (body < 0)
            return with_num(val(expr_num(s->ex, 0), dim_make(1, 0, -1)), 0);
        return val(expr_var(s->ex, VEL_VAR + body), dim_make(1, 0, -1));
    }
    if ((cx & CX_STATE) && strcmp(n->name, "x") != 0) {
        diag_error(s->diag, n->loc, "a force may depend on positions and velocities, not on '%s.%s'",
                   body < 0 ? "ground" : s->m->bodies[body].name, n->name);
        return bad();
    }
    if (strcmp(n->name, "x") != 0) {
        diag_error(s->diag, n->loc, "a gap may depend on positions only, not on '%s.%s'",
                   body < 0 ? "ground" : s->m->bodies[body].name, n->name);
        return bad();
    }
    if (body < 0)
        return with_num(val(expr_num(s->ex, 0), dim_make(1, 0, 0)), 0);
    return val(expr_var(s->ex, body), dim_make(1, 0, 0));
}

static Val conv_name(Sema *s, const Node *n, int cx)
{
    const LoopVar *lv = find_loop(s, n->name);
    if (lv)
        return with_num(val(expr_num(s->ex, (double)lv->value), dim_none()), (double)lv->value);
    if (strcmp(n->name, "pi") == 0)
        return with_num(val(expr_num(s->ex, M_PI), dim_none()), M_PI);
    if (strcmp(n->name, "t") == 0) {
        if (!(cx & CX_TIME)) {
            diag_error(s->diag, n->loc, "time 't' may only appear in a force, a gap or an output column");
            return bad();
        }
        return val(expr_time(s->ex), dim_make(0, 0, 1));
    }
    if (strcmp(n->name, "ground") == 0 || strcmp(n->name, "energy") == 0) {
        diag_error(s->diag, n->loc, "'%s' is not a value", n->name);
        return bad();
    }
    Sym *sym = resolve(s, n);
    if (!sym)
        return bad();
    if (sym->kind == SYM_PARAM) {
        const Param *pm = &s->m->params[sym->index];
        if (s->out_expr && pm->unit && strcmp(pm->unit, "N*m") == 0)
            s->out_torque = true;
        return with_num(val(expr_param(s->ex, sym->index), pm->dim), pm->number);
    }
    if (sym->kind == SYM_BODY || sym->kind == SYM_FAMILY)
        diag_error(s->diag, n->loc, "'%s' is a body, not a value (its position is %s.x)",
                   sym->name, sym->name);
    else if (sym->kind == SYM_PLANAR)
        diag_error(s->diag, n->loc,
                   "'%s' is a planar body, not a value (its coordinates are %s.x, %s.y and %s.phi)",
                   sym->name, sym->name, sym->name, sym->name);
    else
        diag_error(s->diag, n->loc, "'%s' is a %s, not a value", sym->name, kind_word(sym->kind));
    return bad();
}

static Val conv_pow(Sema *s, const Node *n, int cx)
{
    Val a = conv(s, n->a, cx), b = conv(s, n->b, cx);
    if (!a.ok || !b.ok)
        return bad();
    if (b.dim.known && !dim_is_none(b.dim)) {
        diag_error(s->diag, n->b->loc, "unit mismatch: an exponent must be dimensionless, not %s",
                   dim_str(s, b.dim));
        return bad();
    }
    double p;
    bool constant = expr_is_num(b.e, &p);
    if (expr_has_kind(b.e, EX_VAR)) {
        diag_error(s->diag, n->b->loc,
                   "an exponent may not depend on a body state (write exp(...) of it instead)");
        return bad();
    }
    Dim d = a.dim;
    if (a.dim.known && !dim_is_none(a.dim)) {
        if (!constant || p != floor(p) || fabs(p) > 12) {
            diag_error(s->diag, n->b->loc,
                       "a quantity with a unit (%s) can only be raised to a constant whole power between -12 and 12",
                       dim_str(s, a.dim));
            return bad();
        }
        d = dim_pow(a.dim, (int)p);
    }
    return num_kept(s, n, with_num2(val(expr_pow(s->ex, a.e, b.e), d), a, b, pow(a.num, b.num)),
                    a, b);
}

/* Whether n is written with bare number literals only ("1 + 1", "sqrt(2)"):
 * such a factor is a pure number, as a single literal is. */
static bool node_bare(const Node *n)
{
    if (n->kind == N_NUM)
        return !n->unit;
    if (n->kind == N_NEG)
        return node_bare(n->a);
    if (n->kind == N_BIN)
        return node_bare(n->a) && node_bare(n->b);
    if (n->kind != N_CALL || n->nargs < 1)
        return false;
    for (int i = 0; i < n->nargs; i++)
        if (!node_bare(n->args[i]))
            return false;
    return true;
}

/* A bare number is dimensionless in a product ("2*k" has k's unit), and so is
 * a factor written with bare literals only: "2 kg/(1 + 1)" has the unit kg,
 * it was taken as matching any slot (a force of 1 N).  A negated bare
 * literal ("-0.05*th.omega", a damping torque written with a bare coefficient) still
 * matches any slot, as models are written so. */
static Dim factor_dim(const Node *n, Val v)
{
    if (!v.dim.known && !(n->kind == N_NEG && n->a->kind == N_NUM) && node_bare(n))
        return dim_none();
    return v.dim;
}

/* v, or an error at n when v's number is 0 though it is the product,
 * quotient or power of the nonzero finite numbers of a and b: as a literal
 * below a double's range ("1e-320 nm"), "1e-200 m * 1e-200" would run as 0.
 * An operand that overflowed to infinity is refused where the result is
 * finite: "1 m / (1e200*1e200)" is 1e-400 m, and ran as 0 as well. */
static Val num_kept(Sema *s, const Node *n, Val v, Val a, Val b)
{
    if (!v.ok || !v.has_num || !a.has_num || !b.has_num)
        return v;
    const char *what = n->op == '*' ? "product" : n->op == '/' ? "quotient" : "power";
    if (isfinite(v.num) && (isinf(a.num) || isinf(b.num))) {
        diag_error(s->diag, n->loc, "number out of range: an operand of this %s is above the "
                   "range of a double (it overflowed to %s), so its value (%s) would be taken "
                   "for one it is not (the largest double is 1.8e308)", what,
                   isinf(a.num) ? num_text(s, a.num) : num_text(s, b.num), num_text(s, v.num));
        return bad();
    }
    if (v.num != 0 || a.num == 0 || b.num == 0 || !isfinite(a.num) || !isfinite(b.num))
        return v;
    diag_error(s->diag, n->loc, "number out of range: this %s of nonzero numbers (%s and %s) is "
               "below the range of a double and would be taken as 0 (nonzero doubles are at "
               "least 4.9e-324 in magnitude)", what, num_text(s, a.num), num_text(s, b.num));
    return bad();
}

static Val conv_bin(Sema *s, const Node *n, int cx)
{
    if (n->op == '^')
        return conv_pow(s, n, cx);
    Val a = conv(s, n->a, cx), b = conv(s, n->b, cx);
    if (!a.ok || !b.ok)
        return bad();
    if (n->op == '*' || n->op == '/')
        return num_kept(s, n, conv_arith(s, n, a, b), a, b);
    return conv_arith(s, n, a, b);
}

/* The sum, difference, product or quotient n of a and b: its expression,
 * unit and, when both are known, number. */
static Val conv_arith(Sema *s, const Node *n, Val a, Val b)
{
    switch (n->op) {
    case '+':
    case '-':
        if (!dim_equal(a.dim, b.dim)) {
            diag_error(s->diag, n->loc, "unit mismatch: cannot %s %s and %s",
                       n->op == '+' ? "add" : "subtract", dim_str(s, a.dim), dim_str(s, b.dim));
            return bad();
        }
        return with_num2(val(n->op == '+' ? expr_add(s->ex, a.e, b.e) : expr_sub(s->ex, a.e, b.e),
                             a.dim.known ? a.dim : b.dim), a, b,
                         n->op == '+' ? a.num + b.num : a.num - b.num);
    case '*':
        return with_num2(val(expr_mul(s->ex, a.e, b.e),
                             dim_mul(factor_dim(n->a, a), factor_dim(n->b, b))), a, b, a.num * b.num);
    default:
        return with_num2(val(expr_div(s->ex, a.e, b.e),
                             dim_div(factor_dim(n->a, a), factor_dim(n->b, b))), a, b, a.num / b.num);
    }
}

static Val conv(Sema *s, const Node *n, int cx)
{
    switch (n->kind) {
    case N_NUM: {
        if (!n->unit)
            return with_num(val(expr_num(s->ex, n->num), dim_free()), n->num);
        double scale;
        Dim d;
        if (!unit_parse(n->unit, &scale, &d)) {
            diag_error(s->diag, n->unit_loc, "invalid unit '%s'", n->unit);
            return bad();
        }
        double v = n->num * scale;
        if (!isfinite(v)) {
            diag_error(s->diag, n->loc, "number out of range");
            return bad();
        }
        if (v == 0 && n->num != 0) {  /* 1e-320 nm ran as 0 */
            diag_error(s->diag, n->loc, "number out of range: in SI units (the unit '%s' is %g of "
                       "them) it is below the range of a double and would be taken as 0 "
                       "(nonzero doubles are at least 4.9e-324 in magnitude)", n->unit, scale);
            return bad();
        }
        return with_num(val(expr_num(s->ex, v), d), v);
    }
    case N_NAME:
        return conv_name(s, n, cx);
    case N_INDEX:
    case N_RANGE: {
        Sym *sym = resolve(s, n);
        if (!sym)
            return bad();
        if (sym->kind == SYM_BODY)
            diag_error(s->diag, n->loc, "'%s' is a body, not a value (its position is %s.x)",
                       sym->name, sym->name);
        else
            diag_error(s->diag, n->loc, "'%s' is a %s, not a value", sym->name, kind_word(sym->kind));
        return bad();
    }
    case N_MEMBER:
        return conv_member(s, n, cx);
    case N_NEG: {
        Val a = conv(s, n->a, cx);
        return a.ok ? with_num2(val(expr_neg(s->ex, a.e), a.dim), a, a, -a.num) : a;
    }
    case N_BIN:
        return conv_bin(s, n, cx);
    case N_CMP: {
        Val a = conv(s, n->a, cx), b = conv(s, n->b, cx);
        if (!a.ok || !b.ok)
            return bad();
        if (!smooth_guard(s, a, n, "a comparison of") || !smooth_guard(s, b, n, "a comparison of"))
            return bad();
        if (!dim_equal(a.dim, b.dim)) {
            diag_error(s->diag, n->loc, "unit mismatch: cannot compare %s with %s",
                       dim_str(s, a.dim), dim_str(s, b.dim));
            return bad();
        }
        return with_num2(val(expr_cmp(s->ex, (ExprCmp)n->op, a.e, b.e), dim_none()), a, b,
                         num_of(s, expr_cmp(s->ex, (ExprCmp)n->op, expr_num(s->ex, a.num),
                                            expr_num(s->ex, b.num))));
    }
    case N_AND:
    case N_OR: {
        Val a = conv(s, n->a, cx), b = conv(s, n->b, cx);
        if (!a.ok || !b.ok)
            return bad();
        bool x = a.num != 0, y = b.num != 0;
        double v = n->kind == N_AND ? (x && y) : (x || y);
        return with_num2(val(n->kind == N_AND ? expr_and(s->ex, a.e, b.e) : expr_or(s->ex, a.e, b.e),
                             dim_none()), a, b, isnan(a.num) || isnan(b.num) ? NAN : v);
    }
    case N_NOT: {
        Val a = conv(s, n->a, cx);
        return a.ok ? with_num2(val(expr_not(s->ex, a.e), dim_none()), a, a,
                                isnan(a.num) ? NAN : a.num == 0) : a;
    }
    case N_CALL:
        return conv_call(s, n, cx);
    case N_LABEL:
        diag_error(s->diag, n->loc, "a named column 'NAME = EXPRESSION' is only an item of 'output'");
        return bad();
    case N_TUPLE:
        diag_error(s->diag, n->loc,
                   "a pair (a, b) is only a wall's 'normal' or 'through', or gravity's direction");
        return bad();
    case N_IF: {
        Val c = conv(s, n->a, cx), a = conv(s, n->b, cx), b = conv(s, n->c, cx);
        if (!c.ok || !a.ok || !b.ok)
            return bad();
        if (!smooth_guard(s, c, n, "a condition on") || !smooth_guard(s, a, n, "'if' of") ||
            !smooth_guard(s, b, n, "'if' of"))
            return bad();
        if (!dim_equal(a.dim, b.dim)) {
            diag_error(s->diag, n->loc, "unit mismatch: 'then' gives %s but 'else' gives %s",
                       dim_str(s, a.dim), dim_str(s, b.dim));
            return bad();
        }
        Val r = val(expr_if(s->ex, c.e, a.e, b.e), a.dim.known ? a.dim : b.dim);
        /* an undefined condition (0/0 > 1) decides nothing: the value is
         * undefined too (the else branch was taken) */
        if (c.has_num && isnan(c.num))
            r = with_num(r, NAN);
        else if (c.has_num && (c.num != 0 ? a.has_num : b.has_num))
            r = with_num(r, c.num != 0 ? a.num : b.num);
        return r;
    }
    }
    return bad();
}

/* Converts and checks the value against the slot's dimension. */
static Val conv_slot(Sema *s, const Node *n, int cx, Dim want, const char *what)
{
    Val v = conv(s, n, cx);
    if (v.ok && !dim_equal(v.dim, want)) {
        diag_error(s->diag, n->loc, "unit mismatch: %s must be in %s, not %s", what,
                   dim_str(s, want), dim_str(s, v.dim));
        return bad();
    }
    return v;
}

/* conv_slot for a slot whose unit reads better as `unit` than as SI base
 * units (a torque in N*m rather than J, an angular velocity in rad/s). */
static Val conv_slot_u(Sema *s, const Node *n, int cx, Dim want, const char *what, const char *unit)
{
    Val v = conv(s, n, cx);
    if (v.ok && !dim_equal(v.dim, want)) {
        diag_error(s->diag, n->loc, "unit mismatch: %s must be in %s, not %s", what, unit,
                   dim_str(s, v.dim));
        return bad();
    }
    return v;
}

/* Value of an expression with every parameter at its default. */
static double eval_default(Sema *s, const Expr *e)
{
    ExprEnv env = {s->pvals, NULL, 0};
    return expr_eval(e, &env);
}

/* Value of an expression of numbers only (a call or comparison of the
 * numbers of converted values). */
static double num_of(Sema *s, const Expr *e)
{
    return eval_default(s, e);
}

/* The number of a value at the defaults: as computed on the source (see
 * Val), else from its expression. */
static double value_of(Sema *s, Val v)
{
    return v.has_num ? v.num : eval_default(s, v.e);
}

/* The shortest text that reads back as exactly v ("1.0000001", "nan"). */
static const char *num_text(Sema *s, double v)
{
    char buf[40];
    if (isnan(v))
        return "nan";
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (!isfinite(v) || strtod(buf, NULL) == v)
            break;
    }
    return arena_strdup(s->arena, buf);
}

/* Checks that a value (its number at the defaults, see Val) is finite and
 * at least lo (above lo when strict), at most hi; reports at n otherwise,
 * with the value exactly.  Returns whether it holds. */
static bool check_range(Sema *s, Val v, const Node *n, const char *what, double lo, bool strict,
                        double hi, const char *unit)
{
    double x = value_of(s, v);
    bool ok = isfinite(x) && (strict ? x > lo : x >= lo) && x <= hi;
    if (ok)
        return true;
    const char *range = hi < INFINITY ? arena_printf(s->arena, "lie in [%g, %g]", lo, hi)
                      : strict && lo == 0 ? "be positive and finite"
                      : strict ? arena_printf(s->arena, "be finite and > %g", lo)
                      : lo > -INFINITY ? arena_printf(s->arena, "be finite and >= %g", lo)
                      : "be finite";
    diag_error(s->diag, n->loc, "%s must %s (it is %s%s%s)", what, range, num_text(s, x),
               *unit ? " " : "", unit);
    return false;
}

/* Checks that a positive mass or inertia (its number at the defaults) has
 * a finite inverse: the equations divide by it, and 1e-320 kg passed
 * check_range and made the simulator fail at its first step ("the mode's
 * equations are not finite").  Reports at n otherwise; whether it holds. */
static bool check_inverse(Sema *s, Val v, const Node *n, const char *what, const char *unit)
{
    double x = value_of(s, v);
    if (!(x > 0) || isfinite(1 / x))
        return true;
    diag_error(s->diag, n->loc, "%s is too small for a double: its inverse overflows (it is "
               "%s %s); give it at least %g %s", what, num_text(s, x), unit, 1 / DBL_MAX, unit);
    return false;
}

/* ---- options ------------------------------------------------------------ */

/* Matches options against the allowed keys; reports unknown and repeated
 * keys.  found[i] is the option for keys[i] or NULL. */
static bool take_opts(Sema *s, const Opt *opts, const char *const *keys, int nkeys,
                      const Opt **found, const char *where)
{
    bool ok = true;
    for (int i = 0; i < nkeys; i++)
        found[i] = NULL;
    for (const Opt *o = opts; o; o = o->next) {
        int k = -1;
        for (int i = 0; i < nkeys; i++)
            if (strcmp(keys[i], o->key) == 0)
                k = i;
        if (k < 0) {
            char list[128] = "";
            for (int i = 0; i < nkeys; i++) {
                size_t len = strlen(list);
                snprintf(list + len, sizeof list - len, "%s%s", i == 0 ? "" : i == nkeys - 1 ? " or " : ", ",
                         keys[i]);
            }
            diag_error(s->diag, o->key_loc, "unknown option '%s' for %s (expected %s)", o->key,
                       where, list);
            ok = false;
            continue;
        }
        if (found[k]) {
            diag_error(s->diag, o->key_loc, "option '%s' given twice", o->key);
            diag_note(s->diag, found[k]->key_loc, "first given here");
            ok = false;
            continue;
        }
        if ((o->word && strcmp(o->key, "release") != 0 && strcmp(o->key, "normal") != 0) ||
            (o->target && strcmp(o->key, "normal") != 0)) {
            diag_error(s->diag, o->loc, "option '%s' expects a value, not '%s'", o->key, o->word);
            ok = false;
            continue;
        }
        found[k] = o;
    }
    return ok;
}

static Dim DIM_KG, DIM_S, DIM_K, DIM_C, DIM_V, DIM_A;
static Dim DIM_INERTIA, DIM_KROT, DIM_CROT, DIM_RATE;

static void init_dims(void)
{
    DIM_M = dim_make(1, 0, 0);
    DIM_KG = dim_make(0, 1, 0);
    DIM_S = dim_make(0, 0, 1);
    DIM_N = dim_make(1, 1, -2);
    DIM_K = dim_make(0, 1, -2);
    DIM_C = dim_make(0, 1, -1);
    DIM_V = dim_make(1, 0, -1);
    DIM_A = dim_make(1, 0, -2);
    DIM_INERTIA = dim_make(2, 1, 0);
    DIM_TORQUE = dim_make(2, 1, -2);
    DIM_KROT = dim_make(2, 1, -2);
    DIM_CROT = dim_make(2, 1, -1);
    DIM_RATE = dim_make(0, 0, -1);
}

/* ---- statements --------------------------------------------------------- */

static void stmt_check(Sema *s, const Stmt *st);

/* The unit a parameter is reported in (generated tables, CSV headers, sweep
 * axes): the unit as written when the value is a number with a coherent SI
 * unit ("rad/s", "Hz", "N*s/m"), so an angular frequency is not shown as Hz;
 * otherwise the SI text of its dimension ("1 kN" is reported in N, since the
 * value is stored in SI). */
static const char *param_unit(Sema *s, const Node *value, Dim dim)
{
    double scale;
    Dim written;
    if (value->kind == N_NUM && value->unit && unit_parse(value->unit, &scale, &written) &&
        scale == 1 && written.known && dim.known && written.m == dim.m &&
        written.kg == dim.kg && written.s == dim.s)
        return value->unit;
    char buf[64];
    return arena_strdup(s->arena, dim_text(dim, buf, sizeof buf));
}

static void stmt_param(Sema *s, const Stmt *st)
{
    Val v = conv(s, st->value, 0);
    if (!v.ok) /* declared anyway (the model is rejected), so uses do not cascade */
        v = val(expr_num(s->ex, 0), dim_free());
    int idx = s->m->n_params;
    if (!declare(s, st->name, SYM_PARAM, idx, st->name_loc))
        return;
    Param *p = vec_push(s->arena, (void **)&s->m->params, &s->m->n_params, &s->cap_params,
                        sizeof *p);
    p->name = st->name;
    p->loc = st->name_loc;
    p->value = v.e;
    p->dim = v.dim;
    p->unit = param_unit(s, st->value, v.dim);
    p->number = value_of(s, v);
    if (!isfinite(p->number)) {
        diag_error(s->diag, st->value->loc,
                   "the value of parameter '%s' is not a finite number (it is %s)", st->name,
                   num_text(s, p->number));
        p->number = 0;
    }
    int n = idx;
    double *slot = vec_push(s->arena, (void **)&s->pvals, &n, &s->cap_pvals, sizeof(double));
    *slot = p->number;
    const Node **def = vec_push(s->arena, (void **)&s->pdefs, &s->n_pdefs, &s->cap_pdefs,
                                sizeof *def);
    *def = st->value;
}

/* Appends one body. */
static int add_body(Sema *s, const char *name, SrcLoc loc, Expr *mass)
{
    int idx = s->m->n_bodies;
    Body *b = vec_push(s->arena, (void **)&s->m->bodies, &s->m->n_bodies, &s->cap_bodies,
                       sizeof *b);
    b->name = name;
    b->loc = loc;
    b->mass = mass;
    /* setup() refuses a run whose mass is not > 0, so it may be cancelled */
    expr_assume_positive(s->ex, mass);
    b->coord = COORD_LINE;
    b->planar = -1;
    b->rigid = -1;
    b->xname = arena_printf(s->arena, "%s.x", name);
    b->vname = arena_printf(s->arena, "%s.v", name);
    b->aname = arena_printf(s->arena, "%s.a", name);
    b->xunit = "m";
    b->vunit = "m/s";
    b->aunit = "m/s^2";
    b->gfac = NULL;
    return idx;
}

static void stmt_mass(Sema *s, const Stmt *st)
{
    const Node *l = st->label;
    Val v = conv_slot(s, st->value, 0, DIM_KG, "a mass");
    if (v.ok)
        v.ok = check_range(s, v, st->value, arena_printf(s->arena, "the mass of '%s'", l->name),
                           0, true, INFINITY, "kg") &&
               check_inverse(s, v, st->value, arena_printf(s->arena, "the mass of '%s'", l->name),
                             "kg");
    if (!v.ok) /* declared anyway (the model is rejected), so uses do not cascade */
        v = val(expr_num(s->ex, 1), DIM_KG);
    if (l->kind == N_RANGE) {
        long lo, hi;
        if (!eval_int(s, l->a, &lo) || !eval_int(s, l->b, &hi))
            return;
        if (lo > hi) {
            diag_error(s->diag, l->loc, "empty range %ld..%ld", lo, hi);
            return;
        }
        if (hi - lo + 1 > SEMA_MAX_BODIES - s->m->n_bodies) {
            diag_error(s->diag, l->loc, "too many bodies: %ld (at most %d in a model)",
                       hi - lo + 1 + s->m->n_bodies, SEMA_MAX_BODIES);
            return;
        }
        Sym *fam = declare(s, l->name, SYM_FAMILY, s->m->n_bodies, l->loc);
        if (!fam)
            return;
        fam->lo = (int)lo;
        fam->hi = (int)hi;
        for (long i = lo; i <= hi; i++) {
            const char *name = arena_printf(s->arena, "%s[%ld]", l->name, i);
            int idx = add_body(s, name, l->loc, v.e);
            declare(s, name, SYM_BODY, idx, l->loc);
        }
        return;
    }
    const char *name = label_name(s, l);
    if (!name)
        return;
    if (s->m->n_bodies >= SEMA_MAX_BODIES) {
        diag_error(s->diag, l->loc, "too many bodies (at most %d in a model)", SEMA_MAX_BODIES);
        return;
    }
    if (!declare(s, name, SYM_BODY, s->m->n_bodies, l->loc))
        return;
    add_body(s, name, l->loc, v.e);
}

static bool split_gap(Sema *s, Expr *g, const char *name, SrcLoc loc, PendingGap *pg, Gap *gap);
static int gap_add(Sema *s, const Stmt *st, const Opt *law_opts, Gap gap, PendingGap pg);

/* Adds coordinate `c` of planar body p as a one-coordinate body: x and y
 * with the body's mass, phi with its moment of inertia. */
static int add_coord(Sema *s, int p, Coord c, Expr *mass)
{
    const Planar *pl = &s->m->planars[p];
    static const char *const x[] = {"", "x", "y", "phi"}, *const v[] = {"", "vx", "vy", "omega"},
                             *const acc[] = {"", "ax", "ay", "alpha"};
    int i = add_body(s, arena_printf(s->arena, "%s.%s", pl->name, x[c]), pl->loc, mass);
    Body *b = &s->m->bodies[i];
    b->coord = c;
    b->planar = p;
    b->xname = b->name;
    b->vname = arena_printf(s->arena, "%s.%s", pl->name, v[c]);
    b->aname = arena_printf(s->arena, "%s.%s", pl->name, acc[c]);
    if (c == COORD_PHI) {
        b->xunit = "rad";
        b->vunit = "rad/s";
        b->aunit = "rad/s^2";
    }
    return i;
}

/* ---- Lagrangian models ---------------------------------------------------- */

/* `coordinate NAME: length | angle`: a generalized coordinate, a body with
 * no mass of its own (the kinetic energy gives the mass matrix). */
static void stmt_coordinate(Sema *s, const Stmt *st)
{
    const char *name = label_name(s, st->label);
    if (!name)
        return;
    bool ang = strcmp(st->law, "angle") == 0;
    if (!ang && strcmp(st->law, "length") != 0) {
        diag_error(s->diag, st->law_loc, "a coordinate is a 'length' (fields x, v, a) or an "
                   "'angle' (fields phi, omega, alpha), not '%s'", st->law);
        return;
    }
    int idx = s->m->n_bodies;
    if (idx >= SEMA_MAX_COORDINATES) {
        diag_error(s->diag, st->loc, "too many generalized coordinates (at most %d: their mass "
                   "matrix is dense)", SEMA_MAX_COORDINATES);
        return;
    }
    if (!declare(s, name, SYM_BODY, idx, st->label->loc))
        return;
    Body *b = vec_push(s->arena, (void **)&s->m->bodies, &s->m->n_bodies, &s->cap_bodies,
                       sizeof *b);
    b->name = name;
    b->loc = st->label->loc;
    b->mass = NULL;
    b->coord = ang ? COORD_PHI : COORD_LINE;
    b->planar = -1;
    b->gen = ang ? GEN_ANGLE : GEN_LENGTH;
    b->xname = arena_printf(s->arena, "%s.%s", name, ang ? "phi" : "x");
    b->vname = arena_printf(s->arena, "%s.%s", name, ang ? "omega" : "v");
    b->aname = arena_printf(s->arena, "%s.%s", name, ang ? "alpha" : "a");
    b->xunit = ang ? "rad" : "m";
    b->vunit = ang ? "rad/s" : "m/s";
    b->aunit = ang ? "rad/s^2" : "m/s^2";
    b->gfac = NULL;
}

/* Does e mention a velocity (VEL_VAR + i, before renumbering)? */
static bool has_velocity(const Expr *e)
{
    if (e->kind == EX_VAR)
        return e->index >= VEL_VAR && e->index < 2 * VEL_VAR;
    for (int i = 0; i < e->nargs; i++)
        if (has_velocity(e->args[i]))
            return true;
    return false;
}

/* The least and greatest degree in the velocities of the monomials of e
 * (as built, before any cancellation); false when e is not a polynomial in
 * them (a velocity inside a function, a division or a non-integer power). */
static bool velocity_degree(const Expr *e, int *lo, int *hi)
{
    *lo = *hi = 0;
    if (!has_velocity(e))
        return true;
    if (e->kind == EX_VAR) {
        *lo = *hi = 1;
        return true;
    }
    if (e->kind == EX_ADD || e->kind == EX_MUL) {
        bool add = e->kind == EX_ADD;
        *lo = add ? INT32_MAX : 0;
        for (int i = 0; i < e->nargs; i++) {
            int l, h;
            if (!velocity_degree(e->args[i], &l, &h))
                return false;
            *lo = add ? (l < *lo ? l : *lo) : *lo + l;
            *hi = add ? (h > *hi ? h : *hi) : *hi + h;
        }
        return true;
    }
    double k;
    if (e->kind == EX_POW && !has_velocity(e->args[1]) && expr_is_num(e->args[1], &k) &&
        k >= 0 && k <= 8 && k == floor(k)) {
        int l, h;
        if (!velocity_degree(e->args[0], &l, &h))
            return false;
        *lo = l * (int)k;
        *hi = h * (int)k;
        return true;
    }
    return false;
}

/* Checks that each term of the kinetic energy as written (the operands of
 * its top-level sums) is of degree 2 in the velocities, reporting the first
 * that is not with its place; docs/theory.md section 18. */
static bool kinetic_terms(Sema *s, const Node *n)
{
    if (n->kind == N_BIN && (n->op == '+' || n->op == '-'))
        return kinetic_terms(s, n->a) && kinetic_terms(s, n->b);
    if (n->kind == N_NEG)
        return kinetic_terms(s, n->a);
    Val v = conv(s, n, CX_POS | CX_STATE | CX_KIN);
    if (!v.ok)
        return false;
    int lo, hi;
    if (!velocity_degree(v.e, &lo, &hi)) {
        diag_error(s->diag, n->loc, "a kinetic energy is a quadratic form in the velocities, and "
                   "this term is not a polynomial in them (a velocity inside a function, a "
                   "division or a non-integer power)");
        return false;
    }
    if (lo == 2 && hi == 2)
        return true;
    if (lo != hi)
        diag_error(s->diag, n->loc, "a kinetic energy is a quadratic form in the velocities, and "
                   "this term mixes degrees %d to %d in them: expand it into terms of degree 2",
                   lo, hi);
    else if (lo == 0)
        diag_error(s->diag, n->loc, "a kinetic energy is a quadratic form in the velocities, and "
                   "this term has no velocity: an energy of the positions belongs in 'potential'");
    else
        diag_error(s->diag, n->loc, "a kinetic energy is a quadratic form in the velocities, and "
                   "this term is of degree %d in them%s", lo,
                   lo == 1 ? " (a term linear in a velocity alone is not a kinetic energy)" : "");
    return false;
}

/* `kinetic NAME = T` and `potential NAME = V`: a Lagrangian model's
 * energies, in joules; T of degree 2 in the velocities term by term, V of
 * the positions only. */
static void stmt_energy(Sema *s, const Stmt *st)
{
    bool kin = st->kind == S_KINETIC;
    const Stmt **slot = kin ? &s->kinetic_st : &s->potential_st;
    const char *word = kin ? "kinetic" : "potential";
    if (*slot) {
        diag_error(s->diag, st->loc, "the model's %s energy is given twice", word);
        diag_note(s->diag, (*slot)->loc, "first given here");
        return;
    }
    const char *name = label_name(s, st->label);
    if (!name)
        return;
    Val v = conv_slot_u(s, st->value, CX_POS | CX_STATE | CX_KIN, DIM_TORQUE,
                        kin ? "a kinetic energy" : "a potential energy", "J");
    if (!v.ok)
        return;
    if (!kin && has_velocity(v.e)) {
        diag_error(s->diag, st->value->loc, "a potential energy depends on the positions only: "
                   "a velocity belongs in 'kinetic' (or a force, for a dissipative one)");
        return;
    }
    if (kin && !kinetic_terms(s, st->value))
        return;
    *slot = st;
    if (kin) {
        s->kinetic_name = name;
        s->m->kinetic = v.e;
        s->m->kinetic_loc = st->loc;
    } else {
        s->potential_name = name;
        s->m->potential = v.e;
        s->m->potential_loc = st->loc;
    }
}

/* Reads one option of a planar body: a value of unit `want` that is
 * positive (or >= 0 when !strict); NULL after an error. */
static Expr *planar_opt(Sema *s, const Opt *o, Dim want, const char *what, const char *unit)
{
    Val v = conv_slot(s, o->value, 0, want, what);
    if (!v.ok || !check_range(s, v, o->value, what, 0, true, INFINITY, unit))
        return NULL;
    if (strcmp(unit, "m") && !check_inverse(s, v, o->value, what, unit))
        return NULL;            /* a mass or an inertia: the equations divide by it */
    return v.e;
}

/* disc NAME: mass = M, radius = R, inertia = I;  body NAME: mass = M, inertia = I.
 * A body in the plane with coordinates x, y (m) and phi (rad). */
static void stmt_planar(Sema *s, const Stmt *st)
{
    bool disc = st->kind == S_DISC;
    static const char *const disc_keys[] = {"mass", "radius", "inertia"};
    static const char *const body_keys[] = {"mass", "inertia"};
    const Opt *found[3] = {NULL, NULL, NULL};
    const char *what = disc ? "a disc" : "a planar body";
    if (st->label->kind == N_RANGE) {
        diag_error(s->diag, st->label->loc,
                   "a range of indices is only allowed in 'mass'; declare planar bodies one by one "
                   "(for i in 1..3: disc D[i]: ...)");
        return;
    }
    const char *name = label_name(s, st->label);
    if (!name)
        return;
    if (!take_opts(s, st->opts, disc ? disc_keys : body_keys, disc ? 3 : 2, found, what))
        return;
    const Opt *om = found[0], *or = disc ? found[1] : NULL, *oi = disc ? found[2] : found[1];
    if (!om || !oi || (disc && !or)) {
        diag_error(s->diag, st->loc, "%s needs %s", what,
                   disc ? "mass = ..., radius = ... and inertia = ... (its moment of inertia: "
                          "1/2*m*R^2 for a uniform disc, 2/5*m*R^2 for a ball)"
                        : "mass = ... and inertia = ... (its moment of inertia about its centre)");
        return;
    }
    Expr *mass = planar_opt(s, om, DIM_KG, arena_printf(s->arena, "the mass of '%s'", name), "kg");
    Expr *inertia = planar_opt(s, oi, DIM_INERTIA,
                               arena_printf(s->arena, "the moment of inertia of '%s'", name),
                               "kg*m^2");
    Expr *radius = disc ? planar_opt(s, or, DIM_M,
                                     arena_printf(s->arena, "the radius of '%s'", name), "m")
                        : NULL;
    /* a bad value is reported; the body is declared anyway (the model is
     * rejected) so that its uses do not cascade into "unknown name" errors,
     * as for a mass */
    Expr *one = expr_num(s->ex, 1);
    mass = mass ? mass : one;
    inertia = inertia ? inertia : one;
    radius = disc && !radius ? one : radius;
    /* setup() refuses a run whose radius is not > 0 */
    expr_assume_positive(s->ex, radius);
    if (s->m->n_bodies + 3 > SEMA_MAX_BODIES) {
        diag_error(s->diag, st->label->loc, "too many bodies (at most %d coordinates in a model)",
                   SEMA_MAX_BODIES);
        return;
    }
    int p = s->m->n_planars;
    if (!declare(s, name, SYM_PLANAR, p, st->label->loc))
        return;
    Planar *pl = vec_push(s->arena, (void **)&s->m->planars, &s->m->n_planars, &s->cap_planars,
                          sizeof *pl);
    *pl = (Planar){name, st->label->loc, disc, mass, inertia, radius, -1, -1, -1};
    int ix = add_coord(s, p, COORD_X, mass);
    int iy = add_coord(s, p, COORD_Y, mass);
    int iphi = add_coord(s, p, COORD_PHI, inertia);
    pl = &s->m->planars[p];
    pl->ix = ix;
    pl->iy = iy;
    pl->iphi = iphi;
}

/* Reads a pair (a, b) whose components have unit `want` (or are bare
 * numbers); false after an error. */
static bool pair_value(Sema *s, const Node *n, Dim want, const char *what, Val *a, Val *b)
{
    if (n->kind != N_TUPLE || n->c) {   /* a third component was dropped silently */
        diag_error(s->diag, n->loc, "%s is a pair: (a, b)%s", what,
                   n->kind == N_TUPLE ? ", not three components (the plane of planar bodies "
                   "is x, y)" : "");
        return false;
    }
    *a = conv_slot(s, n->a, 0, want, what);
    *b = conv_slot(s, n->b, 0, want, what);
    if (!a->ok || !b->ok)
        return false;
    return check_range(s, *a, n->a, what, -INFINITY, false, INFINITY, "") &&
           check_range(s, *b, n->b, what, -INFINITY, false, INFINITY, "");
}

static bool scale_check(Sema *s, SrcLoc loc, const char *what, double n2, double big,
                        const char *unit, const char *advice);

/* A direction (a, b) divided by its length; false (reported) when its
 * length is zero at the parameters' defaults, or its sum of squares under-
 * or overflows (a normal (1e300, 1e300) was taken for a gap that "does not
 * depend on any body position", (1e-320, 0) for (0, 0)). */
static bool unit_pair(Sema *s, const Node *n, const char *what, Expr **ux, Expr **uy)
{
    Val a, b;
    if (!pair_value(s, n, dim_none(), what, &a, &b))
        return false;
    double na = value_of(s, a), nb = value_of(s, b);
    if (na == 0 && nb == 0) {
        diag_error(s->diag, n->loc, "%s must not be (0, 0)", what);
        return false;
    }
    if (!scale_check(s, n->loc, what, na * na + nb * nb, fmax(fabs(na), fabs(nb)), "",
                     ": give it with parts nearer 1"))
        return false;
    Expr *len = expr_call(s->ex, FN_SQRT,
                          expr_add(s->ex, expr_mul(s->ex, a.e, a.e), expr_mul(s->ex, b.e, b.e)), NULL);
    *ux = expr_div(s->ex, a.e, len);
    *uy = expr_div(s->ex, b.e, len);
    return true;
}

/* wall [NAME:] D, normal = (nx, ny), through = (px, py), LAW: the gap
 * n.(D.x, D.y) - n.p - R between disc D and the flat wall through p with unit
 * normal n (pointing to the disc's side). */
static void stmt_wall(Sema *s, const Stmt *st)
{
    const char *name = NULL;
    if (st->label && !(name = label_name(s, st->label)))
        return;
    if (!name)
        name = arena_printf(s->arena, "wall%d", s->m->n_walls + 1);
    Sym *ps = resolve(s, st->a);
    if (!ps)
        return;
    if (ps->kind != SYM_PLANAR || !s->m->planars[ps->index].disc) {
        diag_error(s->diag, st->a->loc,
                   "a wall stops a disc, and '%s' is %s: for other bodies write a gap linear in "
                   "their coordinates (gap G: B.y - h >= 0, impact(e = ...))",
                   ps->name, ps->kind == SYM_PLANAR ? "a planar body without a radius"
                             : ps->kind == SYM_BODY ? "a mass on the line"
                             : arena_printf(s->arena, "a %s", kind_word(ps->kind)));
        return;
    }
    static const char *const keys[] = {"normal", "through"};
    const Opt *found[2];
    if (!take_opts(s, st->opts, keys, 2, found, "a wall"))
        return;
    if (!found[0] || !found[1]) {
        diag_error(s->diag, st->loc,
                   "a wall needs normal = (nx, ny), its direction towards the disc, and "
                   "through = (px, py), a point on it");
        return;
    }
    Expr *nx, *ny;
    Val px, py;
    bool ok = found[0]->value && unit_pair(s, found[0]->value, "a wall's normal", &nx, &ny);
    ok = found[1]->value && pair_value(s, found[1]->value, DIM_M, "a wall's point 'through'", &px, &py) && ok;
    if (!ok)
        return;
    const Planar *pl = &s->m->planars[ps->index];
    ExprCtx *x = s->ex;
    Expr *g = expr_sub(x, expr_add(x, expr_mul(x, nx, expr_sub(x, expr_var(x, pl->ix), px.e)),
                                   expr_mul(x, ny, expr_sub(x, expr_var(x, pl->iy), py.e))),
                       pl->radius);
    Gap gap = {0};
    gap.name = name;
    gap.loc = st->label ? st->label->loc : st->loc;
    PendingGap pg;
    if (!split_gap(s, g, name, st->loc, &pg, &gap))
        return;
    int j = gap_add(s, st, st->law_opts, gap, pg);
    if (j < 0)
        return;
    Wall *w = vec_push(s->arena, (void **)&s->m->walls, &s->m->n_walls, &s->cap_walls, sizeof *w);
    *w = (Wall){name, gap.loc, ps->index, j, nx, ny, px.e, py.e};
}

static void stmt_spring(Sema *s, const Stmt *st)
{
    bool damper = st->kind == S_DAMPER;
    static const char *const spring_keys[] = {"k", "c", "rest"};
    static const char *const damper_keys[] = {"c"};
    const Opt *found[3];
    const char *what = damper ? "a damper" : "a spring";
    if (!take_opts(s, st->opts, damper ? damper_keys : spring_keys, damper ? 1 : 3, found, what))
        return;
    const char *name = NULL;
    if (st->label && !(name = label_name(s, st->label)))
        return;
    int a, b;
    bool ok_a = resolve_body(s, st->a, &a);
    bool ok_b = resolve_body(s, st->b, &b);
    if (!ok_a || !ok_b)
        return;
    if (a == b) {
        diag_error(s->diag, ast_span(st->a->loc, st->b->loc),
                   "%s must connect two different bodies", what);
        return;
    }
    bool rot_a = a >= 0 && s->m->bodies[a].coord == COORD_PHI;
    bool rot_b = b >= 0 && s->m->bodies[b].coord == COORD_PHI;
    if ((a >= 0 && b >= 0 && rot_a != rot_b)) {
        diag_error(s->diag, ast_span(st->a->loc, st->b->loc),
                   "%s cannot connect a rotation (%s) with a translation (%s)", what,
                   s->m->bodies[rot_a ? a : b].name, s->m->bodies[rot_a ? b : a].name);
        return;
    }
    bool rot = rot_a || rot_b;
    Dim dk = rot ? DIM_KROT : DIM_K, dc = rot ? DIM_CROT : DIM_C, dr = rot ? dim_none() : DIM_M;
    const char *uk = rot ? "N*m/rad" : "N/m", *uc = rot ? "N*m*s/rad" : "N*s/m",
               *ur = rot ? "rad" : "m";
    Spring sp = {name, st->label ? st->label->loc : st->loc, a, b, NULL, NULL, NULL};
    bool ok = true;
    if (damper) {
        if (!found[0]) {
            diag_error(s->diag, st->loc, "a damper needs a damping coefficient: c = ...");
            return;
        }
        Val c = conv_slot_u(s, found[0]->value, 0, dc, "the damping 'c'", uc);
        ok = c.ok && check_range(s, c, found[0]->value, "the damping 'c'", 0, false, INFINITY, uc);
        sp.c = c.e;
    } else {
        if (!found[0]) {
            diag_error(s->diag, st->loc,
                       "a spring needs a stiffness: k = ... (use 'damper' for a damper alone)");
            return;
        }
        Val k = conv_slot_u(s, found[0]->value, 0, dk, "the stiffness 'k'", uk);
        ok = k.ok && check_range(s, k, found[0]->value, "the stiffness 'k'", 0, false, INFINITY, uk);
        sp.k = k.e;
        if (found[1]) {
            Val c = conv_slot_u(s, found[1]->value, 0, dc, "the damping 'c'", uc);
            ok = c.ok && check_range(s, c, found[1]->value, "the damping 'c'", 0, false,
                                     INFINITY, uc) && ok;
            sp.c = c.e;
        }
        if (found[2]) {
            Val r = conv_slot_u(s, found[2]->value, 0, dr, "the rest length", ur);
            ok = r.ok && check_range(s, r, found[2]->value, "the rest length", -INFINITY, false,
                                     INFINITY, ur) && ok;
            sp.rest = r.e;
        }
    }
    if (!ok)
        return;
    if (!sp.rest)
        sp.rest = expr_num(s->ex, 0);
    if (name && !declare(s, name, damper ? SYM_DAMPER : SYM_SPRING, s->m->n_springs, sp.loc))
        return;
    Spring *p = vec_push(s->arena, (void **)&s->m->springs, &s->m->n_springs, &s->cap_springs,
                         sizeof *p);
    *p = sp;
}

/* ---- bodies in space ------------------------------------------------------ */

/* The rigid body a reference names (NAME or NAME[i]), or NULL (nothing
 * reported) when it names something else. */
static Sym *rigid_sym(Sema *s, const Node *base)
{
    if (base->kind != N_NAME && (base->kind != N_INDEX || !s->m->n_rigids))
        return NULL;   /* (an index is evaluated only where rigid bodies exist) */
    Sym *sym = base->kind == N_NAME ? table_get(&s->syms, base->name)
                                    : table_get(&s->syms, label_name(s, base) ? label_name(s, base) : "");
    return sym && sym->kind == SYM_RIGID ? sym : NULL;
}

/* Refuses what bodies in space cannot be part of yet (springs, dampers,
 * gaps, friction): the contact stage builds them. */
static Val rigid_refuse(Sema *s, const Node *n, const char *name)
{
    diag_error(s->diag, n->loc, "'%s' is a rigid body: springs, dampers, walls, slips and "
               "gaps other than sphere gaps on bodies in space are not in nsmc yet (forces, "
               "torques, gravity, output columns, 'gap G: %s.sphere(radius = ...) above PLANE, "
               "impact(...)' and its 'friction F: normal = gap G, mu = ...' are; "
               "docs/language.md section 11)", name, name);
    return bad();
}

/* The state variables of rigid body b: r (x, y, z), v, the quaternion p
 * (p0 first) and w (body frame), as sema numbers them (velocities VEL_VAR
 * + i, p0 P0_VAR + b). */
static void rigid_vars(Sema *s, int b, Expr *r[3], Expr *v[3], Expr *p[4], Expr *w[3])
{
    int ix = s->m->rigids[b].ix;
    p[0] = expr_var(s->ex, P0_VAR + b);
    for (int k = 0; k < 3; k++) {
        r[k] = expr_var(s->ex, ix + k);
        v[k] = expr_var(s->ex, VEL_VAR + ix + k);
        p[k + 1] = expr_var(s->ex, ix + 3 + k);
        w[k] = expr_var(s->ex, VEL_VAR + ix + 3 + k);
    }
}

/* The unit vector 'up' of B.theta: opposite gravity's direction, +z
 * without gravity or with the scalar form (whose weight is along -z). */
static void rigid_up(Sema *s, Expr *up[3])
{
    for (int k = 0; k < 3; k++)
        up[k] = s->gvec[k] ? expr_neg(s->ex, s->gvec[k]) : expr_num(s->ex, k == 2 ? 1 : 0);
}

/* B.point(a, b, c).F: a field (x, y, z, vx, vy, vz) of the body point at
 * body coordinates (a, b, c), lengths of the parameters. */
static Val rigid_point_member(Sema *s, const Node *n, const Node *call, int b)
{
    if (strcmp(call->name, "point") != 0 || call->nargs != 3) {
        diag_error(s->diag, call->loc, "a rigid body's point is B.point(a, b, c), three body-frame "
                   "coordinates");
        return bad();
    }
    Expr *sv[3], *r[3], *v[3], *p[4], *w[3];
    for (int k = 0; k < 3; k++) {
        Val c = conv_slot(s, call->args[k], 0, DIM_M, "a body point's coordinate");
        if (!c.ok)
            return bad();
        sv[k] = c.e;
    }
    rigid_vars(s, b, r, v, p, w);
    static const char *const f[] = {"x", "y", "z", "vx", "vy", "vz"};
    for (int k = 0; k < 6; k++)
        if (strcmp(n->name, f[k]) == 0)
            return k < 3 ? val(rigid_point(s->ex, r, p, sv, k), DIM_M)
                         : val(rigid_point_vel(s->ex, v, p, w, sv, k - 3), DIM_V);
    diag_error(s->diag, n->name_loc, "a body point has no field '%s' (expected x, y, z, vx, vy or vz)",
               n->name);
    return bad();
}

/* A field of rigid body B (or of one of its points) in an expression: its
 * state in forces and output columns, its orientation (p0 .. p3, theta)
 * and points in output columns only. */
static Val rigid_member(Sema *s, const Node *n, const Node *call, const Sym *sym, int cx)
{
    if (!(cx & (CX_POS | CX_VEL | CX_STATE))) {
        diag_error(s->diag, n->loc, "a rigid body's state may only appear in a force, a torque or "
                   "an output list");
        return bad();
    }
    if (!(cx & CX_STATE))
        return rigid_refuse(s, n, sym->name);
    bool out = cx & CX_OUT;
    if (call) {
        if (!out) {
            diag_error(s->diag, n->loc, "a rigid body's points are output columns (a force acts "
                       "at the centre of mass; write a torque for its moment)");
            return bad();
        }
        return rigid_point_member(s, n, call, sym->index);
    }
    Expr *r[3], *v[3], *p[4], *w[3];
    rigid_vars(s, sym->index, r, v, p, w);
    static const char *const pos[] = {"x", "y", "z"}, *const vel[] = {"vx", "vy", "vz"},
                             *const rate[] = {"w1", "w2", "w3"}, *const quat[] = {"p0", "p1", "p2", "p3"};
    for (int k = 0; k < 3; k++) {
        if (strcmp(n->name, pos[k]) == 0)
            return val(r[k], DIM_M);
        if (strcmp(n->name, vel[k]) == 0)
            return val(v[k], DIM_V);
        if (strcmp(n->name, rate[k]) == 0)
            return val(w[k], DIM_RATE);
    }
    bool orient = strcmp(n->name, "theta") == 0;
    for (int k = 0; k < 4; k++)
        orient = orient || strcmp(n->name, quat[k]) == 0;
    if (!orient) {
        diag_error(s->diag, n->name_loc, "a rigid body has no field '%s' (expected x, y, z, vx, "
                   "vy, vz, w1, w2, w3, p0, p1, p2, p3, theta or point(a, b, c))", n->name);
        return bad();
    }
    if (!out) {
        diag_error(s->diag, n->loc, "a force or torque may depend on a rigid body's position and "
                   "velocities; its orientation '%s.%s' is for output columns", sym->name, n->name);
        return bad();
    }
    if (n->name[0] == 'p') {
        int k = n->name[1] - '0';
        Expr *n2 = expr_num(s->ex, 0);  /* the runtime keeps |p| = 1: p / |p| shows it as such */
        for (int i = 0; i < 4; i++)
            n2 = expr_add(s->ex, n2, expr_mul(s->ex, p[i], p[i]));
        return val(expr_div(s->ex, p[k], expr_call(s->ex, FN_SQRT, n2, NULL)), dim_none());
    }
    Expr *up[3];
    rigid_up(s, up);
    return val(rigid_tilt(s->ex, p, up), dim_none());
}

/* The three components of a vector (a, b, c) in unit `want`; false after
 * an error.  A nested tuple (a tensor) is refused with `nested`. */
static bool rigid_triple(Sema *s, const Node *n, int cx, Dim want, const char *what,
                         const char *unit, Val out[3])
{
    if (n->kind != N_TUPLE || !n->c) {
        diag_error(s->diag, n->loc, "%s is a vector of three components: (a, b, c)", what);
        return false;
    }
    const Node *c[3] = {n->a, n->b, n->c};
    for (int k = 0; k < 3; k++) {
        out[k] = conv_slot_u(s, c[k], cx, want, what, unit);
        if (!out[k].ok)
            return false;
    }
    return true;
}

/* ---- planes and sphere gaps ----------------------------------------------- */

/* Whether a vector whose sum of squares is n2 and largest part big can be
 * scaled to unit length; else an error at loc: a sum that under- or
 * overflows (parts of 1e-300 or 1e300) is said so, never called (0, 0, 0)
 * or "no direction", nor left to the run (a gravity of (1e200, 1e200, 0)
 * ran with a NaN potential).  A zero vector (big = 0) is the caller's. */
static bool scale_check(Sema *s, SrcLoc loc, const char *what, double n2, double big,
                        const char *unit, const char *advice)
{
    if (n2 > 0 && isfinite(n2))
        return true;
    diag_error(s->diag, loc, "%s cannot be scaled to unit length: the sum of its squares %s (its "
               "largest part is %g%s)%s", what, isfinite(n2) ? "underflows to 0" : "overflows", big,
               unit, advice);
    return false;
}

/* A vector given as (a, b, c) divided by its length: a zero vector is
 * refused, a length other than 1 (at the defaults) scaled with a warning,
 * as a quaternion is.  False after an error. */
static bool unit_triple(Sema *s, const Node *n, const char *what, const char *owner, Expr *u[3])
{
    Val c[3];
    if (!rigid_triple(s, n, 0, dim_none(), what, "no unit", c))
        return false;
    double n2 = 0, big = 0;
    Expr *e2 = expr_num(s->ex, 0);
    for (int k = 0; k < 3; k++) {
        double ck = value_of(s, c[k]);
        n2 += ck * ck;
        big = fmax(big, fabs(ck));
        e2 = expr_add(s->ex, e2, expr_mul(s->ex, c[k].e, c[k].e));
    }
    if (!(big > 0) || isnan(n2)) {
        diag_error(s->diag, n->loc, "%s of '%s' has no direction (its length is %s)", what, owner,
                   num_text(s, sqrt(n2)));
        return false;
    }
    char full[160];
    snprintf(full, sizeof full, "%s of '%s'", what, owner);
    if (!scale_check(s, n->loc, full, n2, big, "", ": give parts of about 1"))
        return false;
    if (fabs(sqrt(n2) - 1) > 1e-12)
        diag_warning(s->diag, n->loc, "%s of '%s' has length %.17g: it is scaled to unit length",
                     what, owner, sqrt(n2));
    Expr *len = expr_call(s->ex, FN_SQRT, e2, NULL);
    for (int k = 0; k < 3; k++)
        u[k] = expr_div(s->ex, c[k].e, len);
    return true;
}

/* plane NAME: normal = (nx, ny, nz), offset = d | through = (x, y, z): the
 * fixed plane n . x = d, n scaled to unit length and pointing to the side
 * where spheres are free (docs/language.md section 11). */
static void stmt_plane(Sema *s, const Stmt *st)
{
    const char *name = label_name(s, st->label);
    if (!name)
        return;
    static const char *const keys[] = {"normal", "offset", "through"};
    const Opt *found[3];
    if (!take_opts(s, st->opts, keys, 3, found, "a plane"))
        return;
    if (!found[0] || (!found[1] == !found[2])) {
        diag_error(s->diag, st->loc, "a plane needs normal = (nx, ny, nz), towards its free side, "
                   "and one of offset = d (the plane n . x = d) or through = (x, y, z), a point on it");
        return;
    }
    Plane pl;
    if (!found[0]->value || !unit_triple(s, found[0]->value, "the normal", name, pl.n))
        return;
    if (found[1]) {
        Val d = found[1]->value ? conv_slot(s, found[1]->value, 0, DIM_M, "a plane's offset") : bad();
        if (!d.ok)
            return;
        pl.d = d.e;
    } else {
        Val p[3];
        if (!found[2]->value || !rigid_triple(s, found[2]->value, 0, DIM_M, "a plane's point 'through'", "m", p))
            return;
        pl.d = expr_num(s->ex, 0);
        for (int k = 0; k < 3; k++)
            pl.d = expr_add(s->ex, pl.d, expr_mul(s->ex, pl.n[k], p[k].e));
    }
    if (!declare(s, name, SYM_PLANE, s->n_planes, st->label->loc))
        return;
    if (!s->n_planes)
        s->plane_loc = st->loc;
    Plane *q = vec_push(s->arena, (void **)&s->planes, &s->n_planes, &s->cap_planes, sizeof *q);
    *q = pl;
}

/* The rigid body and plane a sphere gap names; false (reported) when the
 * body is not a rigid body or the plane not a plane. */
static bool sphere_ends(Sema *s, const Stmt *st, int *body, const Plane **plane)
{
    Sym *bs = resolve(s, st->a);
    if (!bs)
        return false;
    if (bs->kind != SYM_RIGID) {
        diag_error(s->diag, st->a->loc, "a sphere gap's sphere belongs to a rigid body, and '%s' is "
                   "a %s (for other bodies write a gap linear in their coordinates)", bs->name,
                   kind_word(bs->kind));
        return false;
    }
    if (strcmp(st->name, "sphere") != 0) {
        diag_error(s->diag, st->name_loc, "a rigid body's contact shape is B.sphere(centre = "
                   "(a, b, c), radius = r), not '%s'", st->name);
        return false;
    }
    Sym *ps = resolve(s, st->b);
    if (!ps)
        return false;
    if (ps->kind != SYM_PLANE) {
        diag_error(s->diag, st->b->loc, "a sphere touches a plane (plane NAME: normal = ..., "
                   "offset = ...), and '%s' is a %s: spheres against spheres or other shapes are "
                   "not built", ps->name, kind_word(ps->kind));
        return false;
    }
    *body = bs->index;
    *plane = &s->planes[ps->index];
    return true;
}

/* A sphere gap's rate n . (v + R (w x c)), the normal velocity of the
 * sphere's centre (the rate of n . (r + R c) - d - rho). */
static Expr *sphere_rate(Sema *s, const Sphere *sp)
{
    Expr *r[3], *v[3], *p[4], *w[3];
    rigid_vars(s, sp->rigid, r, v, p, w);
    Expr *e = expr_num(s->ex, 0);
    for (int k = 0; k < 3; k++)
        e = expr_add(s->ex, e, expr_mul(s->ex, sp->normal[k], rigid_point_vel(s->ex, v, p, w, sp->centre, k)));
    return e;
}

/* The body-frame coordinates of sphere sp's contact point, c - rho R(p)^T n
 * (the sphere's point nearest its plane; it moves over the body). */
static void sphere_contact_body(Sema *s, const Sphere *sp, Expr *const p[4], Expr *sc[3])
{
    ExprCtx *x = s->ex;
    for (int k = 0; k < 3; k++) {
        Expr *rn = expr_num(x, 0);
        for (int j = 0; j < 3; j++)
            rn = expr_add(x, rn, expr_mul(x, rigid_rot(x, p, j, k), sp->normal[j]));
        sc[k] = expr_sub(x, sp->centre[k], expr_mul(x, sp->radius, rn));
    }
}

/* Field f (x, y, z, vx, vy, vz) of sphere sp's contact point: its place on
 * the plane, r + R c - rho n (the path of the contact on the floor), and
 * the velocity of the body's material point there, v + R (w x s) with s its
 * body-frame coordinates (the slip in the plane plus the gap's rate along
 * n).  An invalid value (ok false) for any other field. */
static Val sphere_point(Sema *s, const Sphere *sp, const char *f)
{
    static const char *const fields[] = {"x", "y", "z", "vx", "vy", "vz"};
    int i = 0;
    while (i < 6 && strcmp(f, fields[i]) != 0)
        i++;
    if (i == 6)
        return bad();
    Expr *r[3], *v[3], *p[4], *w[3];
    rigid_vars(s, sp->rigid, r, v, p, w);
    if (i < 3)
        return val(expr_sub(s->ex, rigid_point(s->ex, r, p, sp->centre, i),
                            expr_mul(s->ex, sp->radius, sp->normal[i])), DIM_M);
    Expr *sc[3];
    sphere_contact_body(s, sp, p, sc);
    return val(rigid_point_vel(s->ex, v, p, w, sc, i - 3), DIM_V);
}

/* |gamma_T|, the slip of sphere sp's contact point in its plane: the
 * contact point's velocity without its normal part (docs/theory.md
 * section 19; the spatial friction element's `slip`). */
static Val sphere_slip(Sema *s, const Sphere *sp)
{
    ExprCtx *x = s->ex;
    Expr *r[3], *v[3], *p[4], *w[3], *sc[3], *vc[3], *vn = expr_num(x, 0), *sq = expr_num(x, 0);
    rigid_vars(s, sp->rigid, r, v, p, w);
    sphere_contact_body(s, sp, p, sc);
    for (int k = 0; k < 3; k++) {
        vc[k] = rigid_point_vel(x, v, p, w, sc, k);
        vn = expr_add(x, vn, expr_mul(x, sp->normal[k], vc[k]));
    }
    for (int k = 0; k < 3; k++) {
        Expr *t = expr_sub(x, vc[k], expr_mul(x, vn, sp->normal[k]));
        sq = expr_add(x, sq, expr_mul(x, t, t));
    }
    return val(expr_call(x, FN_SQRT, sq, NULL), DIM_V);
}

/* gap NAME: B.sphere(centre = c, radius = rho) above PLANE, impact(...): the
 * sphere of rigid body B centred at body point c against the plane n . x = d,
 * the curved gap n . (r + R c) - d - rho of the body's positions, its row of
 * W over the body's six velocities (derive_sphere.c, docs/theory.md
 * section 19).  The runtime runs impacts only for bodies in space. */
static void stmt_sphere(Sema *s, const Stmt *st)
{
    const char *name = label_name(s, st->label);
    int b;
    const Plane *pl;
    if (!name || !sphere_ends(s, st, &b, &pl))
        return;
    static const char *const keys[] = {"centre", "radius"};
    const Opt *found[2];
    if (!take_opts(s, st->opts, keys, 2, found, "a sphere"))
        return;
    if (!found[1]) {
        diag_error(s->diag, st->a->loc, "a sphere needs radius = r (and centre = (a, b, c) in the "
                   "body frame, from the centre of mass; (0, 0, 0) when not given)");
        return;
    }
    Sphere *sp = arena_alloc(s->arena, sizeof *sp);
    sp->rigid = b;
    sp->plane = st->b->name;
    for (int k = 0; k < 3; k++)
        sp->normal[k] = pl->n[k];
    sp->offset = pl->d;
    Val c[3], rho = found[1]->value ? conv_slot(s, found[1]->value, 0, DIM_M, "a sphere's radius") : bad();
    if (!rho.ok || !check_range(s, rho, found[1]->value, "a sphere's radius", 0, true, INFINITY, "m"))
        return;
    sp->radius = rho.e;
    for (int k = 0; k < 3; k++)
        c[k] = val(expr_num(s->ex, 0), DIM_M);
    if (found[0] && (!found[0]->value ||
                     !rigid_triple(s, found[0]->value, 0, DIM_M, "a sphere's centre", "m", c)))
        return;
    Expr *r[3], *v[3], *p[4], *w[3];
    rigid_vars(s, b, r, v, p, w);
    ExprCtx *x = s->ex;
    Expr *g = expr_neg(x, expr_add(x, pl->d, rho.e));
    for (int k = 0; k < 3; k++)
        sp->centre[k] = c[k].e;
    for (int k = 0; k < 3; k++)
        g = expr_add(x, g, expr_mul(x, pl->n[k], rigid_point(x, r, p, sp->centre, k)));
    Gap gap = {0};
    gap.name = name;
    gap.loc = st->label->loc;
    gap.curve = g;
    gap.d = expr_num(x, 0);
    gap.sphere = sp;
    PendingGap pg;   /* the pattern: the body's six velocities (values from nl_gap) */
    pg.terms = arena_alloc(s->arena, sizeof(GapTerm) * 6);
    pg.n_terms = 6;
    for (int k = 0; k < 6; k++)
        pg.terms[k] = (GapTerm){s->m->rigids[b].ix + k, expr_num(x, 1)};
    const LawDef *law = laws_find(st->law);
    if (law && strcmp(law->word, "impact") != 0) {
        diag_error(s->diag, st->law_loc, "a sphere gap takes the impact law only: the runtime runs "
                   "impacts and held contacts of bodies in space, not the '%s' law", st->law);
        return;
    }
    gap_add(s, st, st->law_opts, gap, pg);
}

/* rigid NAME: mass = M, inertia = (I1, I2, I3): a body in space with its
 * principal inertias about its centre of mass (body frame). */
static void stmt_rigid(Sema *s, const Stmt *st)
{
    static const char *const keys[] = {"mass", "inertia"};
    const Opt *found[2] = {NULL, NULL};
    const char *name = st->label->kind == N_RANGE ? NULL : label_name(s, st->label);
    if (st->label->kind == N_RANGE)
        diag_error(s->diag, st->label->loc, "a range of indices is only allowed in 'mass'; declare "
                   "rigid bodies one by one");
    if (!name || !take_opts(s, st->opts, keys, 2, found, "a rigid body"))
        return;
    if (!found[0] || !found[1]) {
        diag_error(s->diag, st->loc, "a rigid body needs mass = ... and inertia = (I1, I2, I3), its "
                   "principal moments of inertia about its centre of mass");
        return;
    }
    Expr *mass = planar_opt(s, found[0], DIM_KG, arena_printf(s->arena, "the mass of '%s'", name), "kg");
    const Node *in = found[1]->value;
    if (in->kind == N_TUPLE && (in->a->kind == N_TUPLE || in->b->kind == N_TUPLE ||
                                (in->c && in->c->kind == N_TUPLE))) {
        diag_error(s->diag, in->loc, "a full inertia tensor is not supported: rotate the body frame "
                   "to the principal axes of inertia and give inertia = (I1, I2, I3)");
        return;
    }
    Val I[3];
    const char *what = arena_printf(s->arena, "the principal inertia of '%s'", name);
    if (!mass || !rigid_triple(s, in, 0, DIM_INERTIA, what, "kg*m^2", I))
        return;
    const Node *ic[3] = {in->a, in->b, in->c};
    double d[3];
    for (int k = 0; k < 3; k++) {
        if (!check_range(s, I[k], ic[k], what, 0, true, INFINITY, "kg*m^2") ||
            !check_inverse(s, I[k], ic[k], what, "kg*m^2"))
            return;
        d[k] = value_of(s, I[k]);
    }
    for (int k = 0; k < 3; k++)   /* a mass distribution has I_k <= I_a + I_b */
        if (d[k] > (d[(k + 1) % 3] + d[(k + 2) % 3]) * (1 + 1e-12)) {
            diag_error(s->diag, in->loc, "no body has these principal inertias: I%d = %g exceeds "
                       "the sum of the other two (%g kg*m^2)", k + 1, d[k], d[(k + 1) % 3] + d[(k + 2) % 3]);
            return;
        }
    if (s->m->n_bodies + 6 > SEMA_MAX_BODIES) {
        diag_error(s->diag, st->label->loc, "too many bodies (at most %d coordinates in a model)",
                   SEMA_MAX_BODIES);
        return;
    }
    int r = s->m->n_rigids;
    if (!declare(s, name, SYM_RIGID, r, st->label->loc))
        return;
    Rigid *rb = vec_push(s->arena, (void **)&s->m->rigids, &s->m->n_rigids, &s->cap_rigids, sizeof *rb);
    rb->name = name;
    rb->loc = st->label->loc;
    rb->mass = mass;
    rb->ix = s->m->n_bodies;
    vec_push(s->arena, (void **)&s->rinit, &s->n_rinit, &s->cap_rinit, sizeof(RigidInit));
    static const char *const f[] = {"x", "y", "z", "w1", "w2", "w3"},
                             *const xf[] = {"x", "y", "z", "p1", "p2", "p3"},
                             *const vf[] = {"vx", "vy", "vz", "w1", "w2", "w3"},
                             *const af[] = {"ax", "ay", "az", "w1dot", "w2dot", "w3dot"};
    for (int k = 0; k < 6; k++) {
        Expr *mk = k < 3 ? mass : I[k - 3].e;
        int i = add_body(s, arena_printf(s->arena, "%s.%s", name, f[k]), rb->loc, mk);
        Body *b = &s->m->bodies[i];
        b->coord = k < 3 ? (Coord)(COORD_X + (k == 2 ? 3 : k)) : COORD_ROT;
        b->rigid = r;
        b->xname = arena_printf(s->arena, "%s.%s", name, xf[k]);
        b->vname = arena_printf(s->arena, "%s.%s", name, vf[k]);
        b->aname = arena_printf(s->arena, "%s.%s", name, af[k]);
        if (k >= 3) {
            b->xunit = "";
            b->vunit = "rad/s";
            b->aunit = "rad/s^2";
        }
    }
    for (int k = 0; k < 3; k++)
        s->m->rigids[r].inertia[k] = I[k].e;
}

/* gravity NAME = (gx, gy, gz): gravity along any direction in space, for
 * rigid bodies; its magnitude is Model.gravity and each coordinate's
 * weight factor the direction's component. */
static void gravity_vector(Sema *s, const Stmt *st)
{
    Val g[3];
    if (!rigid_triple(s, st->value, 0, DIM_A, "gravity", "m/s^2", g))
        return;
    double n2 = 0, big = 0;
    for (int k = 0; k < 3; k++) {
        if (!check_range(s, g[k], st->value, "gravity's component", -INFINITY, false, INFINITY, "m/s^2"))
            return;
        n2 += value_of(s, g[k]) * value_of(s, g[k]);
        big = fmax(big, fabs(value_of(s, g[k])));
    }
    if (!(big > 0)) {
        diag_error(s->diag, st->value->loc, "gravity (0, 0, 0) has no direction: leave the "
                   "'gravity' statement out");
        return;
    }
    if (!scale_check(s, st->value->loc, "gravity", n2, big, " m/s^2", ""))
        return;
    ExprCtx *x = s->ex;
    Expr *len = expr_call(x, FN_SQRT, expr_add(x, expr_mul(x, g[0].e, g[0].e),
                          expr_add(x, expr_mul(x, g[1].e, g[1].e), expr_mul(x, g[2].e, g[2].e))), NULL);
    expr_assume_positive(x, len);
    s->have_gravity = true;
    s->gravity_loc = st->loc;
    s->gravity_vec = st->value;
    s->m->gravity = len;
    for (int k = 0; k < 3; k++)
        s->gvec[k] = expr_div(x, g[k].e, len);
}

/* force on B = (fx, fy, fz) (world frame, at the centre of mass) and
 * torque on B = (t1, t2, t3) (body frame): one force per coordinate. */
static void rigid_force(Sema *s, const Stmt *st, const Sym *sym)
{
    bool torque = st->kind == S_TORQUE;
    if (st->label) {
        diag_error(s->diag, st->label->loc, "a force or torque on a rigid body takes no name (it "
                   "is three components)");
        return;
    }
    Val f[3];
    if (!rigid_triple(s, st->value, CX_TIME | CX_POS | CX_STATE, torque ? DIM_TORQUE : DIM_N,
                      torque ? "a torque on a rigid body" : "a force on a rigid body",
                      torque ? "N*m" : "N", f))
        return;
    int first = s->m->rigids[sym->index].ix + (torque ? 3 : 0);
    for (int k = 0; k < 3; k++) {
        if (expr_is_zero(f[k].e))
            continue;
        Force *fo = vec_push(s->arena, (void **)&s->m->forces, &s->m->n_forces, &s->cap_forces,
                             sizeof *fo);
        fo->name = NULL;
        fo->loc = st->loc;
        fo->body = first + k;
        fo->value = f[k].e;
        fo->state = expr_has_kind(f[k].e, EX_VAR);
    }
}

/* init B.tilt = (ax, ay, az) * ANGLE (or ANGLE * (ax, ay, az)): the
 * orientation as a rotation by ANGLE about the axis (world frame). */
static void rigid_init_tilt(Sema *s, const Opt *o, int b)
{
    const Node *v = o->value;
    const Node *axis = v->kind == N_BIN && v->op == '*' ? (v->a->kind == N_TUPLE ? v->a : v->b) : NULL;
    const Node *angle = axis ? (axis == v->a ? v->b : v->a) : NULL;
    if (!axis || axis->kind != N_TUPLE) {
        diag_error(s->diag, v->loc, "a tilt is an axis times an angle: (ax, ay, az) * ANGLE");
        return;
    }
    Val a[3];
    Val ang = conv_slot_u(s, angle, 0, dim_none(), "the tilt's angle", "rad");
    if (!ang.ok || !rigid_triple(s, axis, 0, dim_none(), "the tilt's axis", "no unit", a))
        return;
    double n2 = 0, big = 0;
    for (int k = 0; k < 3; k++) {
        n2 += value_of(s, a[k]) * value_of(s, a[k]);
        big = fmax(big, fabs(value_of(s, a[k])));
    }
    if (!(big > 0)) {
        diag_error(s->diag, axis->loc, "the tilt's axis must not be (0, 0, 0)");
        return;
    }
    if (!scale_check(s, axis->loc, "the tilt's axis", n2, big, "", ": give parts of about 1"))
        return;     /* (1e-300, 0, 0) was called (0, 0, 0) */
    RigidInit *ri = &s->rinit[b];
    if (ri->tilt_set || ri->p_set) {
        diag_error(s->diag, o->target->loc, "the orientation of '%s' is given twice (a tilt, or "
                   "the quaternion p0 .. p3)", s->m->rigids[b].name);
        diag_note(s->diag, ri->loc, "first given here");
        return;
    }
    double th = value_of(s, ang);
    if (!(fabs(th) < RIGID_TILT_MAX)) {
        diag_error(s->diag, angle->loc, "the tilt's angle %g rad gives no orientation: %s",
                   th, isfinite(th) ? "the doubles near it are more than a turn apart (give an "
                   "angle below 3.6e16 rad, 2^55, or better within a turn)" : "it is not finite");
        return;
    }
    Expr *ax[3] = {a[0].e, a[1].e, a[2].e};
    rigid_axis_angle(s->ex, ax, ang.e, ri->p);
    ri->angle = ang.e;
    ri->tilt_set = true;
    ri->loc = o->target->loc;
}

/* Sets an initial state of body i (its position when pos) to e, given at
** loc; reports a second value for the same state. */
static void rigid_set_init(Sema *s, int i, bool pos, Expr *e, SrcLoc loc)
{
    Expr **slot = pos ? &s->init_x[i] : &s->init_v[i];
    SrcLoc *where = pos ? &s->init_x_loc[i] : &s->init_v_loc[i];
    if (*slot) {
        const Body *b = &s->m->bodies[i];
        diag_error(s->diag, loc, "'%s' is initialised twice", pos ? b->xname : b->vname);
        diag_note(s->diag, *where, "first initialised here");
        return;
    }
    *slot = e;
    *where = loc;
}

/* init B.FIELD = ...: a rigid body's initial state (x, y, z, vx, vy, vz,
 * w1, w2, w3, omega = (w1, w2, w3), p0 .. p3, tilt). */
static void rigid_init(Sema *s, const Opt *o, const Sym *sym)
{
    const char *f = o->target->name;
    int b = sym->index, ix = s->m->rigids[b].ix;
    if (strcmp(f, "tilt") == 0) {
        rigid_init_tilt(s, o, b);
        return;
    }
    if (strcmp(f, "omega") == 0) {
        Val w[3];
        if (!rigid_triple(s, o->value, 0, DIM_RATE, "an initial angular velocity", "rad/s", w))
            return;
        for (int k = 0; k < 3; k++)
            rigid_set_init(s, ix + 3 + k, false, w[k].e, o->target->loc);
        return;
    }
    if (f[0] == 'p' && f[1] >= '0' && f[1] <= '3' && !f[2]) {
        RigidInit *ri = &s->rinit[b];
        if (ri->tilt_set) {
            diag_error(s->diag, o->target->loc, "the orientation of '%s' is given twice (a tilt, or "
                       "the quaternion p0 .. p3)", sym->name);
            diag_note(s->diag, ri->loc, "first given here");
            return;
        }
        Val v = conv_slot(s, o->value, 0, dim_none(), "a quaternion component");
        if (!v.ok || !check_range(s, v, o->value, "a quaternion component", -INFINITY, false, INFINITY, ""))
            return;
        if (!ri->p_set) {
            for (int k = 0; k < 4; k++)
                ri->p[k] = expr_num(s->ex, 0);
            ri->loc = o->target->loc;
        }
        ri->p_set = true;
        ri->p[f[1] - '0'] = v.e;
        return;
    }
    static const char *const pos[] = {"x", "y", "z"}, *const vel[] = {"vx", "vy", "vz", "w1", "w2", "w3"};
    for (int k = 0; k < 6; k++) {
        bool isp = k < 3 && strcmp(f, pos[k]) == 0, isv = strcmp(f, vel[k]) == 0;
        if (!isp && !isv)
            continue;
        Val v = conv_slot_u(s, o->value, 0, isp ? DIM_M : k < 3 ? DIM_V : DIM_RATE,
                            isp ? "an initial position" : k < 3 ? "an initial velocity"
                                : "an initial angular velocity",
                            isp ? "m" : k < 3 ? "m/s" : "rad/s");
        if (!v.ok || !check_range(s, v, o->value, "an initial state", -INFINITY, false, INFINITY, ""))
            return;
        rigid_set_init(s, ix + k, isp, v.e, o->target->loc);
        return;
    }
    diag_error(s->diag, o->target->name_loc, "'init' sets a rigid body's x, y, z, vx, vy, vz, "
               "omega (or w1, w2, w3), tilt or p0 .. p3, not '%s'", f);
}

/* Each rigid body's initial quaternion: the tilt's, the given p0 .. p3
 * scaled to unit length (with a warning when they are not; refused when
 * zero), or the identity. */
static void rigid_finish_init(Sema *s)
{
    ExprCtx *x = s->ex;
    for (int b = 0; b < s->m->n_rigids; b++) {
        RigidInit *ri = &s->rinit[b];
        Rigid *rb = &s->m->rigids[b];
        if (!ri->tilt_set && !ri->p_set) {
            rb->p[0] = expr_num(x, 1);
            for (int k = 1; k < 4; k++)
                rb->p[k] = expr_num(x, 0);
        } else if (ri->tilt_set) {
            memcpy(rb->p, ri->p, sizeof rb->p);
            rb->tilt = ri->angle;
        } else {
            double n2 = 0, big = 0;
            Expr *e2 = expr_num(x, 0);
            for (int k = 0; k < 4; k++) {
                double pk = eval_default(s, ri->p[k]);
                n2 += pk * pk;
                big = fmax(big, fabs(pk));
                e2 = expr_add(x, e2, expr_mul(x, ri->p[k], ri->p[k]));
            }
            if (!(n2 > 0) && big == 0) {
                diag_error(s->diag, ri->loc, "the quaternion of '%s' is zero: it gives no "
                           "orientation (the identity is p0 = 1)", rb->name);
                continue;
            }
            char what[160];     /* (1e300, 1e300, 0, 0) was scaled to 0 */
            snprintf(what, sizeof what, "the quaternion of '%s'", rb->name);
            if (!scale_check(s, ri->loc, what, n2, big, "", ": give parts of about 1"))
                continue;
            if (fabs(sqrt(n2) - 1) > 1e-12)
                diag_warning(s->diag, ri->loc, "the quaternion of '%s' has length %.17g: it is "
                             "scaled to unit length", rb->name, sqrt(n2));
            Expr *len = expr_call(x, FN_SQRT, e2, NULL);
            for (int k = 0; k < 4; k++)
                rb->p[k] = expr_div(x, ri->p[k], len);
        }
        for (int k = 1; k < 4; k++)
            s->init_x[rb->ix + 2 + k] = rb->p[k];
    }
}

/* What a model with rigid bodies may hold today: rigid bodies only (no
 * masses on the line, planar bodies or coordinates), sphere gaps against
 * planes and their spatial friction; methods taylor (the default: it runs
 * every such model, with far fewer steps than adaptive, docs/performance.md),
 * adaptive and rk4. */
static void rigid_checks(Sema *s)
{
    Model *m = s->m;
    if (!m->n_rigids) {
        if (s->n_planes)
            diag_error(s->diag, s->plane_loc, "a plane is touched by the spheres of rigid bodies, "
                       "and this model has none (a body on the line or in the plane meets a "
                       "gap or a wall)");
        return;
    }
    for (int i = 0; i < m->n_bodies; i++)
        if (m->bodies[i].rigid < 0) {
            diag_error(s->diag, m->bodies[i].loc, "'%s' is not a rigid body, and this model has "
                       "bodies in space: masses on the line, planar bodies and coordinates are not "
                       "mixed with them", m->bodies[i].name);
            return;
        }
    for (int j = 0; j < m->n_gaps; j++)
        if (!m->gaps[j].sphere) {
            diag_error(s->diag, m->gaps[j].loc, "gap '%s' is not a sphere gap: a model with bodies "
                       "in space has sphere gaps only (gap G: B.sphere(centre = ..., radius = ...) "
                       "above PLANE, impact(e = ...))", m->gaps[j].name);
            return;
        }
    if (m->n_frictions) {
        diag_error(s->diag, m->frictions[0].loc, "friction '%s' has a slip velocity: on bodies "
                   "in space friction acts at a sphere gap's contact, 'friction F: normal = gap G, "
                   "mu = ...' with G a sphere gap", m->frictions[0].name);
        return;
    }
    if (s->gravity_dir)
        diag_error(s->diag, s->gravity_dir->loc, "'along' gives a direction in the plane: gravity "
                   "in space is a vector, gravity g = (gx, gy, gz)");
    if (!s->method_set)
        m->method = METHOD_TAYLOR;
    else if (m->method == METHOD_EXACT)
        diag_error(s->diag, s->method_loc, "method 'exact' does not take bodies in space (its "
                   "propagator assumes that the positions' rates are the velocities, and a "
                   "quaternion's are not, and the Newton-Euler equations are not linear): use "
                   "method = taylor (the default here), adaptive or rk4");
}

static void stmt_force(Sema *s, const Stmt *st)
{
    Sym *rs = rigid_sym(s, st->a);
    if (rs) {
        rigid_force(s, st, rs);
        return;
    }
    if (st->a->kind == N_MEMBER && rigid_sym(s, st->a->a)) {
        diag_error(s->diag, st->a->loc, "a force on a rigid body is a vector: force on %s = (fx, "
                   "fy, fz) (world frame), torque on %s = (t1, t2, t3) (body frame)",
                   rigid_sym(s, st->a->a)->name, rigid_sym(s, st->a->a)->name);
        return;
    }
    if (st->kind == S_TORQUE) {
        diag_error(s->diag, st->a->loc, "a torque acts on a rigid body (on a planar body, write "
                   "force on D.phi = ...)");
        return;
    }
    const char *name = NULL;
    if (st->label && !(name = label_name(s, st->label)))
        return;
    int body;
    if (!resolve_body(s, st->a, &body))
        return;
    if (body < 0) {
        diag_error(s->diag, st->a->loc, "a force on 'ground' has no effect: ground is fixed");
        return;
    }
    bool rot = s->m->bodies[body].coord == COORD_PHI;
    Val v = conv_slot_u(s, st->value, CX_TIME | CX_POS | CX_STATE, rot ? DIM_TORQUE : DIM_N, rot ? "a torque" : "a force",
                        rot ? "N*m" : "N");
    if (!v.ok || (v.has_num && !check_range(s, v, st->value, rot ? "a constant torque" : "a constant force",
                                            -INFINITY, false, INFINITY, rot ? "N*m" : "N")))
        return;
    SrcLoc loc = st->label ? st->label->loc : st->loc;
    if (name && !declare(s, name, SYM_FORCE, s->m->n_forces, loc))
        return;
    Force *f = vec_push(s->arena, (void **)&s->m->forces, &s->m->n_forces, &s->cap_forces,
                        sizeof *f);
    f->name = name;
    f->loc = loc;
    f->body = body;
    f->value = v.e;
    f->state = expr_has_kind(v.e, EX_VAR);
}

static void stmt_gravity(Sema *s, const Stmt *st)
{
    if (s->have_gravity) {
        diag_error(s->diag, st->loc, "gravity is given twice");
        diag_note(s->diag, s->gravity_loc, "first given here");
        return;
    }
    if (st->label) {
        gravity_vector(s, st);
        return;
    }
    Val v = conv_slot(s, st->value, 0, DIM_A, "gravity");
    if (!v.ok || !check_range(s, v, st->value, "gravity", 0, false, INFINITY, "m/s^2"))
        return;
    s->have_gravity = true;
    s->gravity_loc = st->loc;
    s->m->gravity = v.e;
    if (!st->a)
        return;
    const Node *d = st->a;
    const Node *axis = d->kind == N_NEG ? d->a : d;
    double sign = d->kind == N_NEG ? -1 : 1;
    if (axis->kind == N_NAME && (strcmp(axis->name, "x") == 0 || strcmp(axis->name, "y") == 0)) {
        bool isx = axis->name[0] == 'x';
        s->gdx = expr_num(s->ex, isx ? sign : 0);
        s->gdy = expr_num(s->ex, isx ? 0 : sign);
    } else if (d->kind != N_TUPLE) {
        diag_error(s->diag, d->loc, "gravity's direction is x, -x, y, -y or a pair (dx, dy)");
        return;
    } else if (!unit_pair(s, d, "gravity's direction", &s->gdx, &s->gdy))
        return;
    s->gravity_dir = d;
}

/* Names leaves in messages as the user wrote them. */
static const char *param_namer(void *ud, int index, ExprStyle style)
{
    (void)style;
    return ((Sema *)ud)->m->params[index].name;
}

static const char *var_namer(void *ud, int index, ExprStyle style)
{
    (void)style;
    Sema *s = ud;
    if (index >= SLIP_POS_VAR)
        return s->m->bodies[index - SLIP_POS_VAR].xname;
    if (index >= VEL_VAR)
        return s->m->bodies[index - VEL_VAR].vname;
    return s->m->bodies[index].xname;
}

/* Lists, in increasing order, the bodies whose positions e mentions. */
static void collect_vars(const Expr *e, int *out, int *n, int max)
{
    if (e->kind == EX_VAR) {
        if (e->index < 0 || e->index >= max)
            return;
        int i = *n;
        while (i > 0 && out[i - 1] > e->index)
            i--;
        if (i > 0 && out[i - 1] == e->index)
            return;
        memmove(out + i + 1, out + i, sizeof *out * (size_t)(*n - i));
        out[i] = e->index;
        (*n)++;
        return;
    }
    for (int i = 0; i < e->nargs; i++)
        collect_vars(e->args[i], out, n, max);
}

/* A curved gap (a slope depends on the positions): keeps g whole, with
 * every body it mentions and its slope there (for the pattern of W); a
 * curved gap may not also move with time. */
static bool curved_gap(Sema *s, Expr *g, const char *name, SrcLoc loc, PendingGap *pg, Gap *gap)
{
    if (expr_has_kind(g, EX_TIME)) {
        diag_error(s->diag, loc,
                   "gap '%s' is curved (not affine in the positions) and moves with time: a curved "
                   "gap against a moving surface is not supported yet", name);
        return false;
    }
    (void)pg;
    gap->curve = g;
    gap->d = expr_num(s->ex, 0);
    return true;
}

/* An affine gap's slopes and offset at the defaults must be finite: a
 * slope z/z with z = 0 m is NaN, the gap's value NaN, which never reaches
 * 0, so the body went through the floor, exit 0.  Reports at loc. */
static bool gap_parts_finite(Sema *s, const PendingGap *pg, Expr *off, const char *name,
                             SrcLoc loc)
{
    for (int k = 0; k < pg->n_terms; k++) {
        double w = eval_default(s, pg->terms[k].w);
        if (!isfinite(w)) {
            diag_error(s->diag, loc, "gap '%s': its slope with respect to %s must be finite (it "
                       "is %s)", name, s->m->bodies[pg->terms[k].body].xname, num_text(s, w));
            return false;
        }
    }
    double d = expr_has_kind(off, EX_TIME) ? 0 : eval_default(s, off);
    if (!isfinite(d)) {
        diag_error(s->diag, loc, "gap '%s': its offset (its value with every position 0) must "
                   "be finite (it is %s m)", name, num_text(s, d));
        return false;
    }
    return true;
}

/* Splits g into slopes w[i] = dg/dx_i and offset d = g(x = 0).  When every
 * slope depends on parameters only the gap is affine; when one depends on
 * the positions the gap is curved (curved_gap). */
static bool split_gap(Sema *s, Expr *g, const char *name, SrcLoc loc, PendingGap *pg, Gap *gap)
{
    int n = s->m->n_bodies;
    if (s->cap_gap_bodies < n) {
        s->cap_gap_bodies = n;
        s->gap_bodies = arena_alloc(s->arena, sizeof(int) * (size_t)n);
    }
    int *bodies = s->gap_bodies;
    int nb = 0;
    collect_vars(g, bodies, &nb, n);
    pg->terms = arena_alloc(s->arena, sizeof(GapTerm) * (size_t)(nb ? nb : 1));
    pg->n_terms = 0;
    Expr *off = g;
    bool curved = false;
    for (int k = 0; k < nb; k++) {
        int i = bodies[k];
        Expr *var = expr_var(s->ex, i);
        if (!expr_depends_on(g, var))
            continue;
        Expr *w = expr_diff(s->ex, g, var);
        curved = curved || expr_has_kind(w, EX_VAR);
        if (!curved && expr_has_kind(w, EX_TIME)) {
            ExprNamer namer = {param_namer, var_namer, s};
            diag_error(s->diag, loc,
                       "gap '%s' is not affine in body positions (like M2.x - M1.x + d): its slope with respect to %s is %s, which depends on the time (only the offset may move)",
                       name, s->m->bodies[i].xname, expr_to_string(s->ex, w, EXPR_TEXT, &namer));
            return false;
        }
        pg->terms[pg->n_terms++] = (GapTerm){i, w};
        off = expr_subst(s->ex, off, var, expr_num(s->ex, 0));
    }
    if (pg->n_terms == 0) {
        diag_error(s->diag, loc, "gap '%s' does not depend on any body position: it can never open or close", name);
        return false;
    }
    if (curved)
        return curved_gap(s, g, name, loc, pg, gap);
    if (!gap_parts_finite(s, pg, off, name, loc))
        return false;
    gap->d = off;
    return true;
}

/* Reads a gap's law (its options law_opts) and adds the gap; returns its
 * index, or -1 after an error. */
static int gap_add(Sema *s, const Stmt *st, const Opt *law_opts, Gap gap, PendingGap pg)
{
    const char *name = gap.name;
    gap.law = laws_find(st->law);
    if (!gap.law) {
        diag_error(s->diag, st->law_loc, "unknown contact law '%s' (expected %s)", st->law,
                   laws_words());
        return -1;
    }
    if (!gap.law->read(s, st, law_opts, &gap))
        return -1;
    if (gap.h && !gap.law->constraint) {
        diag_error(s->diag, gap.h_loc, "gap '%s' moves with time: a moving surface needs an "
                   "impact law (penalty contacts against moving surfaces are not supported)", name);
        return -1;
    }
    if (!declare(s, name, SYM_GAP, s->m->n_gaps, gap.loc))
        return -1;
    Gap *p = vec_push(s->arena, (void **)&s->m->gaps, &s->m->n_gaps, &s->cap_gaps, sizeof *p);
    *p = gap;
    PendingGap *q = vec_push(s->arena, (void **)&s->pgaps, &s->n_pgaps, &s->cap_pgaps, sizeof *q);
    *q = pg;
    return s->m->n_gaps - 1;
}

/* The side of comparison c that mentions time, for the caret of an error. */
static const Node *time_side(Sema *s, const Node *c)
{
    Val b = conv(s, c->b, CX_POS | CX_TIME);
    return b.ok && expr_has_kind(b.e, EX_TIME) ? c->b : c->a;
}

/* Splits a gap's offset d into its part free of time (kept in d) and the
 * moving surface's part h(t), which must be a sum of the pieces the exact
 * method's generator accepts (constants, powers of t, exponentials and
 * sinusoids of linear functions of t, and their products): the gap's rate
 * and its second derivative are then exact, and its event function stays
 * a linear form of (x, v, z, 1).  Time switches (`if` on t) are refused. */
static bool split_time(Sema *s, const Node *c, const char *name, Gap *gap)
{
    Expr *off = gap->d;
    if (!expr_has_kind(off, EX_TIME))
        return true;
    const Node *side = time_side(s, c);
    Expr *d = expr_num(s->ex, 0), *h = expr_num(s->ex, 0);
    if (off->kind == EX_ADD) {
        for (int i = 0; i < off->nargs; i++) {
            if (expr_has_kind(off->args[i], EX_TIME))
                h = expr_add(s->ex, h, off->args[i]);
            else
                d = expr_add(s->ex, d, off->args[i]);
        }
    } else {
        h = off;
    }
    if (!timefn_ok(s->ex, h)) {
        ExprNamer namer = {param_namer, var_namer, s};
        diag_error(s->diag, side->loc,
                   "gap '%s' moves with time as %s, which is not a sum of constants, powers of t, "
                   "and exp, sin or cos of a linear function of t (and their products): the "
                   "surface's motion needs a linear generator", name,
                   expr_to_string(s->ex, h, EXPR_TEXT, &namer));
        return false;
    }
    gap->d = d;
    gap->h = h;
    gap->h_loc = side->loc;
    return true;
}

/* Whether e is a constant exponent (of numbers and parameters), its value
 * at the parameters' values into *p. */
static bool const_exponent(Sema *s, const Expr *e, double *p)
{
    if (expr_has_kind(e, EX_VAR) || expr_has_kind(e, EX_TIME))
        return false;
    *p = eval_default(s, e);
    return true;
}

/* The exponent of factor b of a gap's product (1 when it is no power), and
 * whether it is a constant one (const_exponent) into *ok, its value in *p. */
static Expr *factor_exponent(Sema *s, const Expr *b, double *p, bool *ok)
{
    *p = 1;
    *ok = b->kind != EX_POW || const_exponent(s, b->args[1], p);
    return b->kind == EX_POW ? b->args[1] : expr_num(s->ex, 1);
}

/* The odd power (3, 5, ...) of an expression of the state that g is, or
 * that is a factor of g's product (repeated factors counted together), or 0:
 * such a gap changes sign with zero slope where that expression is 0, so
 * no impulse can act along it there.  l*P.phi^3 >= 0 stopped a pendulum
 * at phi = 0 without an event (rk4, adaptive); even powers only touch 0.
 * An exponent of the parameters is judged at their values in the model,
 * and kept in gap->flat_exp for setup to judge at the run's values (nn = 2
 * in the model, --set nn=3 made l*P.phi^nn an odd power unseen).  -1 when
 * more such exponents than setup checks (GAP_FLAT_MAX): the fifth and later
 * were dropped unchecked, and --set n1=3 on the first held a pendulum. */
static int gap_flat_power(Sema *s, const Expr *g, Gap *gap)
{
    const Expr *const *f = g->kind == EX_MUL ? (const Expr *const *)g->args : (const Expr *const *)&g;
    int n = g->kind == EX_MUL ? g->nargs : 1;
    for (int i = 0; i < n; i++) {
        double p, q;
        bool ok;
        Expr *pe = factor_exponent(s, f[i], &p, &ok);
        const Expr *base = f[i]->kind == EX_POW ? f[i]->args[0] : f[i];
        if (!ok || !expr_has_kind(base, EX_VAR))
            continue;
        bool seen = false;
        for (int k = 0; k < n; k++) {
            const Expr *b = f[k];
            Expr *qe = factor_exponent(s, b, &q, &ok);
            if (k == i || !ok || (b->kind == EX_POW ? b->args[0] : b) != base)
                continue;
            seen = seen || k < i;
            p += q;
            pe = expr_add(s->ex, pe, qe);
        }
        if (p >= 3 && p == floor(p) && fmod(p, 2) == 1)
            return (int)p;
        if (seen || !expr_has_kind(pe, EX_PARAM))
            continue;
        if (gap->n_flat_exp == GAP_FLAT_MAX)
            return -1;
        gap->flat_exp[gap->n_flat_exp++] = pe;
    }
    return 0;
}

/* A factor of a gap's written product: its expression and its total power. */
typedef struct GapFactor {
    const Expr *e;
    double p;
} GapFactor;

#define GAP_FACTORS 64

/* Adds the factor n, raised to sign times its written constant power, to
 * f (nf of them): an expression met again, or its negative, adds to the
 * power it has.  False where the product has too many factors to look at. */
static bool gap_factor_add(Sema *s, const Node *n, double sign, GapFactor *f, int *nf)
{
    double p = 1;
    const Node *base = n;
    if (n->kind == N_BIN && n->op == '^') {
        Val ev = conv(s, n->b, CX_POS | CX_TIME);
        if (ev.ok && const_exponent(s, ev.e, &p))
            base = n->a;
        else
            p = 1;
    }
    Val v = conv(s, base, CX_POS | CX_TIME);
    if (!v.ok)
        return false;
    for (int i = 0; i < *nf; i++)
        if (f[i].e == v.e || f[i].e == expr_neg(s->ex, v.e)) {
            f[i].p += sign * p;
            return true;
        }
    if (*nf == GAP_FACTORS)
        return false;
    f[*nf].e = v.e;
    f[(*nf)++].p = sign * p;
    return true;
}

/* Collects the factors of the product n is written as (through '*', '/'
 * and unary minus), each once with its total power. */
static bool gap_factors(Sema *s, const Node *n, double sign, GapFactor *f, int *nf)
{
    if (n->kind == N_NEG)
        return gap_factors(s, n->a, sign, f, nf);
    if (n->kind == N_BIN && (n->op == '*' || n->op == '/'))
        return gap_factors(s, n->a, sign, f, nf) &&
               gap_factors(s, n->b, n->op == '/' ? -sign : sign, f, nf);
    return gap_factor_add(s, n, sign, f, nf);
}

/* The odd power (3, 5, ...) of an expression of the positions that the
 * side n of a gap (the other side 0) is written as a product of, or 0.
 * The expressions gap_flat_power reads are simplified: a product of sums
 * is distributed into a sum, so l*(P.phi + 0.2)*(P.phi + 0.2)*(P.phi +
 * 0.2) compiled, a cube as flat as l*(P.phi + 0.2)^3.  Each written factor
 * is converted again with a Diag that only counts (it was reported on
 * already). */
static int gap_written_power(Sema *s, const Node *n)
{
    GapFactor f[GAP_FACTORS];
    int nf = 0;
    Diag *saved = s->diag, mute = *s->diag;
    mute.out = NULL;
    s->diag = &mute;
    bool ok = gap_factors(s, n, 1, f, &nf);
    s->diag = saved;
    for (int i = 0; ok && i < nf; i++) {
        double p = f[i].p;
        if (expr_has_kind(f[i].e, EX_VAR) && p >= 3 && p == floor(p) && fmod(p, 2) == 1)
            return (int)p;
    }
    return 0;
}

static void stmt_gap(Sema *s, const Stmt *st)
{
    const char *name = NULL;
    if (st->label && !(name = label_name(s, st->label)))
        return;
    if (!name)
        name = arena_printf(s->arena, "gap%d", s->m->n_gaps + 1);
    const Node *c = st->value;
    if (c->kind != N_CMP || (c->op != CMP_GE && c->op != CMP_LE)) {
        diag_error(s->diag, c->loc, "a gap is written 'EXPRESSION >= EXPRESSION' (or '<=')");
        return;
    }
    Val a = conv(s, c->a, CX_POS | CX_TIME), b = conv(s, c->b, CX_POS | CX_TIME);
    if (!a.ok || !b.ok)
        return;
    Expr *g = c->op == CMP_GE ? expr_sub(s->ex, a.e, b.e) : expr_sub(s->ex, b.e, a.e);
    Gap gap = {0};
    int flat = gap_flat_power(s, g, &gap);
    if (flat < 0) {
        diag_error(s->diag, c->loc, "gap '%s' has more than %d powers whose exponents are "
                   "expressions of the parameters: a run could make one of them odd (a power "
                   "that changes sign with zero slope) unchecked; write at most %d such powers",
                   name, GAP_FLAT_MAX, GAP_FLAT_MAX);
        return;
    }
    if (!flat && expr_is_zero(b.e))
        flat = gap_written_power(s, c->a);
    if (!flat && expr_is_zero(a.e))
        flat = gap_written_power(s, c->b);
    if (flat) {
        diag_error(s->diag, c->loc, "gap '%s' is an odd power (%d) of an expression of the "
                   "positions: it changes sign with zero slope where that expression is 0, and "
                   "no impulse can act along it there; write the expression itself (it has the "
                   "gap's sign)", name, flat);
        return;
    }
    gap.name = name;
    gap.loc = st->label ? st->label->loc : st->loc;
    PendingGap pg;
    if (!split_gap(s, g, name, c->loc, &pg, &gap))
        return;
    if (!split_time(s, c, name, &gap))
        return;
    if (!dim_equal(a.dim, b.dim)) {
        diag_error(s->diag, c->loc, "unit mismatch: cannot compare %s with %s", dim_str(s, a.dim),
                   dim_str(s, b.dim));
        return;
    }
    Dim gd = a.dim.known ? a.dim : b.dim;
    if (!dim_equal(gd, DIM_M)) {
        diag_error(s->diag, c->loc, "unit mismatch: a gap must be in m, not %s", dim_str(s, gd));
        return;
    }
    gap_add(s, st, st->opts, gap, pg);
}

/* The planar body a member's base names, or NULL; *failed says whether
 * resolving it reported an error (D[2] that does not exist). */
static Sym *planar_base(Sema *s, const Node *base, bool *failed)
{
    *failed = false;
    if (base->kind == N_NAME) {
        Sym *p = table_get(&s->syms, base->name);
        return p && p->kind == SYM_PLANAR ? p : NULL;
    }
    if (base->kind != N_INDEX)
        return NULL;
    Sym *fam = table_get(&s->syms, base->name);
    if (fam && fam->kind == SYM_FAMILY)
        return NULL;
    Sym *p = resolve(s, base);
    if (!p) {
        *failed = true;
        return NULL;
    }
    return p->kind == SYM_PLANAR ? p : NULL;
}

/* The state an `init` target names: a body and whether it is the position;
 * false after an error. */
static bool init_target(Sema *s, const Node *t, int *body, bool *pos)
{
    bool failed;
    Sym *ps = t->kind == N_MEMBER ? planar_base(s, t->a, &failed) : NULL;
    if (t->kind == N_MEMBER && failed)
        return false;
    if (ps) {
        static const char *const pos_f[] = {"x", "y", "phi"}, *const vel_f[] = {"vx", "vy", "omega"};
        const Planar *pl = &s->m->planars[ps->index];
        int coords[] = {pl->ix, pl->iy, pl->iphi};
        for (int k = 0; k < 3; k++)
            if (strcmp(t->name, pos_f[k]) == 0 || strcmp(t->name, vel_f[k]) == 0) {
                *body = coords[k];
                *pos = strcmp(t->name, pos_f[k]) == 0;
                return true;
            }
        diag_error(s->diag, t->name_loc,
                   "'init' sets a planar body's x, y, phi, vx, vy or omega, not '%s'", t->name);
        return false;
    }
    Sym *gs = NULL;
    if (t->kind == N_MEMBER && t->a->kind == N_NAME)
        gs = table_get(&s->syms, t->a->name);
    else if (t->kind == N_MEMBER && t->a->kind == N_INDEX && !(gs = resolve(s, t->a)))
        return false;
    if (gs && gs->kind == SYM_BODY && s->m->bodies[gs->index].gen) {
        int f = gen_field(&s->m->bodies[gs->index], t->name);
        if (f != 'x' && f != 'v') {
            diag_error(s->diag, t->name_loc, "'init' sets a coordinate's %s, not '%s'",
                       s->m->bodies[gs->index].gen == GEN_ANGLE ? "phi or omega" : "x or v",
                       t->name);
            return false;
        }
        *body = gs->index;
        *pos = f == 'x';
        return true;
    }
    if (t->kind != N_MEMBER || (strcmp(t->name, "x") != 0 && strcmp(t->name, "v") != 0)) {
        diag_error(s->diag, t->loc, "'init' sets BODY.x or BODY.v");
        return false;
    }
    if (!resolve_body(s, t->a, body))
        return false;
    if (*body < 0) {
        diag_error(s->diag, t->loc, "ground is fixed at x = 0 and cannot be given a state");
        return false;
    }
    *pos = strcmp(t->name, "x") == 0;
    return true;
}

/* Does e mention a variable below `below` (in a slip: a velocity)? */
static bool has_var_below(const Expr *e, int below)
{
    if (e->kind == EX_VAR)
        return e->index < below;
    for (int i = 0; i < e->nargs; i++)
        if (has_var_below(e->args[i], below))
            return true;
    return false;
}

/* Splits a slip velocity into its slopes w[i] = du/dv_i (parameters and
** positions: a rotating corner's) and the surface velocity -u(v = 0), which
** may depend on neither time nor the positions. */
static bool split_slip(Sema *s, Expr *u, const char *name, SrcLoc loc, PendingGap *pg,
                       Expr **surf)
{
    int n = s->m->n_bodies;
    pg->terms = arena_alloc(s->arena, sizeof(GapTerm) * (size_t)(n ? n : 1));
    pg->n_terms = 0;
    int *bodies = arena_alloc(s->arena, sizeof(int) * (size_t)(n ? n : 1));
    int nb = 0;
    collect_vars(u, bodies, &nb, n);
    Expr *off = u;
    for (int k = 0; k < nb; k++) {
        int i = bodies[k];
        Expr *var = expr_var(s->ex, i);
        if (!expr_depends_on(u, var))
            continue;
        Expr *w = expr_diff(s->ex, u, var);
        if (has_var_below(w, n) || expr_has_kind(w, EX_TIME)) {
            diag_error(s->diag, loc, "the slip velocity of friction '%s' must be linear in body "
                       "velocities, with coefficients of the parameters and positions (like "
                       "A.v - B.v + R*W.v)", name);
            return false;
        }
        pg->terms[pg->n_terms++] = (GapTerm){i, w};
        off = expr_subst(s->ex, off, var, expr_num(s->ex, 0));
    }
    if (pg->n_terms == 0) {
        diag_error(s->diag, loc, "the slip velocity of friction '%s' does not depend on any "
                   "body velocity", name);
        return false;
    }
    if (expr_has_kind(off, EX_TIME)) {
        diag_error(s->diag, loc, "friction '%s': a surface velocity that changes with time is "
                   "not supported yet (give a constant or parameter expression)", name);
        return false;
    }
    if (expr_has_kind(off, EX_VAR)) {
        diag_error(s->diag, loc, "friction '%s': the slip velocity has a term in the positions "
                   "alone (a surface velocity that depends on the configuration is not "
                   "supported: positions may only multiply velocities)", name);
        return false;
    }
    *surf = expr_neg(s->ex, off);
    return true;
}

/* The slip velocity of a friction statement as one expression: `slip =`,
** A.v - B.v for `A -- B`, A.v - V for `A -- SURFACE(v = V)`. */
static bool friction_slip(Sema *s, const Stmt *st, const Opt *slip, Val *out)
{
    if (slip && st->a) {
        diag_error(s->diag, slip->key_loc, "option 'slip' given with 'A -- B': give one or the "
                   "other");
        return false;
    }
    if (slip) {
        *out = conv_slot(s, slip->value, CX_VEL, DIM_V, "a slip velocity");
        return out->ok;
    }
    if (!st->a) {
        diag_error(s->diag, st->loc, "a friction element needs its slip velocity: 'friction F: "
                   "A -- B, ...' or 'friction F: slip = EXPRESSION, ...'");
        return false;
    }
    int a, b = -1;
    if (!resolve_body(s, st->a, &a) || (st->b && !resolve_body(s, st->b, &b)))
        return false;
    if (a < 0 && b < 0) {
        diag_error(s->diag, st->a->loc, "a friction element between ground and ground has no "
                   "slip velocity");
        return false;
    }
    Expr *u = a >= 0 ? expr_var(s->ex, a) : expr_num(s->ex, 0);
    if (b >= 0)
        u = expr_sub(s->ex, u, expr_var(s->ex, b));
    if (!st->b) {
        static const char *const keys[] = {"v"};
        const Opt *found[1];
        if (!take_opts(s, st->surface, keys, 1, found, "a moving surface"))
            return false;
        if (!found[0]) {
            diag_error(s->diag, st->law_loc, "a moving surface needs its velocity: %s(v = ...)",
                       st->law);
            return false;
        }
        Val v = conv_slot(s, found[0]->value, CX_TIME, DIM_V, "a surface velocity");
        if (!v.ok)
            return false;
        u = expr_sub(s->ex, u, v.e);
    }
    *out = val(u, DIM_V);
    return true;
}

/* A coefficient of friction: dimensionless, finite, >= 0. */
static bool friction_mu(Sema *s, const Opt *o, const char *what, Expr **out)
{
    Val v = conv_slot(s, o->value, 0, dim_none(), what);
    if (!v.ok || !check_range(s, v, o->value, what, 0, false, INFINITY, ""))
        return false;
    *out = v.e;
    return true;
}

/* friction NAME: (A -- B | A -- SURFACE(v = V) | slip = U), mu_s, mu_k | mu,
** normal = N: a Coulomb friction element. */
/* The sphere gap `normal = gap G` names, or -1 (nothing reported) when it
 * names no sphere gap. */
static int sphere_gap_of(Sema *s, const Opt *normal)
{
    if (!normal || !normal->word || strcmp(normal->word, "gap") != 0 || !normal->target)
        return -1;
    const char *gname = label_name(s, normal->target);
    Sym *gs = gname ? table_get(&s->syms, gname) : NULL;
    if (!gs || gs->kind != SYM_GAP || !s->m->gaps[gs->index].sphere)
        return -1;
    return gs->index;
}

/* friction NAME: normal = gap G, mu = MU, et = ET, drill = RD at sphere gap
 * G: isotropic spatial Coulomb friction with optional drilling friction
 * (nsm/model.h's nsm_space_friction; f holds the options slip, mu, mu_s,
 * mu_k, normal, et, drill).  One element per sphere gap. */
static void stmt_space_friction(Sema *s, const Stmt *st, const Opt *const *f, int gap)
{
    const char *name = label_name(s, st->label);
    const char *gname = s->m->gaps[gap].name;
    if (f[2] || f[3]) {
        diag_error(s->diag, (f[2] ? f[2] : f[3])->key_loc, "friction at sphere gap '%s' has one "
                   "coefficient, mu = ... (the isotropic cone |lambda_F| <= mu lambda_N)", gname);
        return;
    }
    if (!f[1]) {
        diag_error(s->diag, st->label->loc, "friction '%s' needs its coefficient: mu = ...", name);
        return;
    }
    for (int k = 0; k < s->m->n_sfrics; k++)
        if (s->m->sfrics[k].gap == gap) {
            diag_error(s->diag, f[4]->target->loc, "sphere gap '%s' has friction already "
                       "('%s'): one friction element per contact", gname, s->m->sfrics[k].name);
            diag_note(s->diag, s->m->sfrics[k].loc, "'%s' is here", s->m->sfrics[k].name);
            return;
        }
    SpaceFriction sf = {name, st->label->loc, gap, NULL, NULL, NULL};
    if (!friction_mu(s, f[1], "the coefficient of friction 'mu'", &sf.mu))
        return;
    if (f[5]) {
        Val ev = conv_slot(s, f[5]->value, 0, dim_none(), "the tangential restitution 'et'");
        if (!ev.ok || !check_range(s, ev, f[5]->value, "the tangential restitution 'et'", 0, false,
                                   1, ""))
            return;
        sf.et = ev.e;
    }
    if (f[6]) {
        Val dv = conv_slot(s, f[6]->value, 0, DIM_M, "the drilling radius 'drill'");
        if (!dv.ok || !check_range(s, dv, f[6]->value, "the drilling radius 'drill'", 0, false,
                                   INFINITY, "m"))
            return;
        sf.drill = dv.e;
    }
    if (!declare(s, name, SYM_SFRICTION, s->m->n_sfrics, sf.loc))
        return;
    SpaceFriction *p = vec_push(s->arena, (void **)&s->m->sfrics, &s->m->n_sfrics, &s->cap_sfrics,
                                sizeof *p);
    *p = sf;
}

static void stmt_friction(Sema *s, const Stmt *st)
{
    const char *name = label_name(s, st->label);
    if (!name)
        return;
    static const char *const keys[] = {"slip", "mu", "mu_s", "mu_k", "normal", "et", "drill"};
    const Opt *f[7];
    if (!take_opts(s, st->opts, keys, 7, f, "a friction element"))
        return;
    int sphere = sphere_gap_of(s, f[4]);
    if (!f[0] && !st->a && sphere >= 0) {
        stmt_space_friction(s, st, f, sphere);
        return;
    }
    if (f[6]) {
        diag_error(s->diag, f[6]->key_loc, "drilling friction 'drill' acts at a sphere's contact: "
                   "it needs 'normal = gap G' with G a sphere gap, and no slip");
        return;
    }
    Val u;
    if (!friction_slip(s, st, f[0], &u))
        return;
    Friction fr = {0};
    fr.name = name;
    fr.loc = st->label->loc;
    PendingGap pg;
    if (!split_slip(s, u.e, name, f[0] ? f[0]->value->loc : st->a->loc, &pg, &fr.u))
        return;
    if (f[1] && (f[2] || f[3])) {
        diag_error(s->diag, f[1]->key_loc, "give either 'mu' or 'mu_s' and 'mu_k', not both");
        return;
    }
    if (!f[1] && !(f[2] && f[3])) {
        diag_error(s->diag, st->label->loc, "friction '%s' needs its coefficients: mu = ... "
                   "(static and kinetic alike) or mu_s = ..., mu_k = ...", name);
        return;
    }
    if (f[1]) {
        if (!friction_mu(s, f[1], "the coefficient of friction 'mu'", &fr.mus))
            return;
        fr.muk = fr.mus;
    } else {
        if (!friction_mu(s, f[2], "the static coefficient 'mu_s'", &fr.mus) ||
            !friction_mu(s, f[3], "the kinetic coefficient 'mu_k'", &fr.muk))
            return;
        double ms = eval_default(s, fr.mus), mk = eval_default(s, fr.muk);
        if (ms < mk) {
            diag_error(s->diag, f[2]->value->loc, "the static coefficient mu_s (%s) is below "
                       "the kinetic one mu_k (%s): sticking would hold less than sliding pulls",
                       num_text(s, ms), num_text(s, mk));
            diag_note(s->diag, f[3]->value->loc, "mu_k given here");
            return;
        }
    }
    if (!f[4]) {
        diag_error(s->diag, st->label->loc, "friction '%s' needs its normal force: normal = ...",
                   name);
        return;
    }
    fr.normal_gap = -1;
    if (f[4]->word) {
        if (strcmp(f[4]->word, "gap") != 0 || !f[4]->target) {
            diag_error(s->diag, f[4]->loc, "the normal force is a value or 'gap NAME' (the "
                       "contact force of that gap)");
            return;
        }
        const char *gname = label_name(s, f[4]->target);
        Sym *gs = gname ? table_get(&s->syms, gname) : NULL;
        if (!gs || gs->kind != SYM_GAP) {
            if (gname)
                diag_error(s->diag, f[4]->target->loc, "'%s' is not a gap declared before this "
                           "friction element", gname);
            return;
        }
        const Gap *gp = &s->m->gaps[gs->index];
        if (gp->h) {
            diag_error(s->diag, f[4]->target->loc, "gap '%s' moves with time: friction whose "
                       "normal force is a moving surface's contact force is not supported", gname);
            return;
        }
        if (!gp->law->constraint && gp->release == RELEASE_GAP) {
            diag_error(s->diag, f[4]->target->loc, "gap '%s' is released on the gap, so its "
                       "contact force can turn tensile: Coulomb friction needs a compressive "
                       "normal force (use release = force)", gname);
            return;
        }
        fr.normal_gap = gs->index;
    }
    Val nv = {0};
    if (fr.normal_gap < 0)
        nv = conv_slot(s, f[4]->value, 0, DIM_N, "the normal force");
    if (fr.normal_gap < 0 && !nv.ok)
        return;
    if (fr.normal_gap < 0 && !(value_of(s, nv) > 0)) {
        diag_error(s->diag, f[4]->value->loc, "the normal force must be positive (it is %s N): "
                   "Coulomb friction needs a compressive normal force",
                   num_text(s, value_of(s, nv)));
        return;
    }
    if (fr.normal_gap < 0 &&
        !check_range(s, nv, f[4]->value, "the normal force", 0, true, INFINITY, "N"))
        return;
    fr.normal = fr.normal_gap < 0 ? nv.e : NULL;
    if (f[5]) {
        /* tangential restitution: only an impact gap's impulse has a
         * tangential part for it to act on */
        if (fr.normal_gap < 0 || !s->m->gaps[fr.normal_gap].law->constraint) {
            diag_error(s->diag, f[5]->key_loc, "the tangential restitution 'et' acts at impacts: "
                       "it needs 'normal = gap G' with G an impact gap");
            return;
        }
        Val ev = conv_slot(s, f[5]->value, 0, dim_none(), "the tangential restitution 'et'");
        if (!ev.ok || !check_range(s, ev, f[5]->value, "the tangential restitution 'et'", 0, false,
                                   1, ""))
            return;
        fr.et = ev.e;
    }
    if (!declare(s, name, SYM_FRICTION, s->m->n_frictions, fr.loc))
        return;
    Friction *p = vec_push(s->arena, (void **)&s->m->frictions, &s->m->n_frictions,
                           &s->cap_frictions, sizeof *p);
    *p = fr;
    PendingGap *q = vec_push(s->arena, (void **)&s->pfrics, &s->n_pfrics, &s->cap_pfrics,
                             sizeof *q);
    *q = pg;
}

static void stmt_init(Sema *s, const Stmt *st)
{
    for (const Opt *o = st->opts; o; o = o->next) {
        const Node *t = o->target;
        int body;
        bool pos;
        Sym *rs = t->kind == N_MEMBER ? rigid_sym(s, t->a) : NULL;
        if (rs) {
            rigid_init(s, o, rs);
            continue;
        }
        if (!init_target(s, t, &body, &pos))
            continue;
        const Body *b = &s->m->bodies[body];
        bool rot = b->coord == COORD_PHI;
        const char *what = pos ? (rot ? "an initial angle" : "an initial position")
                               : (rot ? "an initial angular velocity" : "an initial velocity");
        Dim want = pos ? (rot ? dim_none() : DIM_M) : (rot ? DIM_RATE : DIM_V);
        Val v = conv_slot_u(s, o->value, 0, want, what, pos ? b->xunit : b->vunit);
        if (!v.ok || !check_range(s, v, o->value, what, -INFINITY, false, INFINITY,
                                  pos ? b->xunit : b->vunit))
            continue;
        Expr **slot = pos ? &s->init_x[body] : &s->init_v[body];
        SrcLoc *where = pos ? &s->init_x_loc[body] : &s->init_v_loc[body];
        if (*slot) {
            diag_error(s->diag, t->loc, "'%s' is initialised twice", pos ? b->xname : b->vname);
            diag_note(s->diag, *where, "first initialised here");
            continue;
        }
        *slot = v.e;
        *where = t->loc;
    }
}

/* Evaluates a time setting of `simulate` or `output`; must be positive. */
static bool time_value(Sema *s, const Node *n, const char *what, double *out, Expr **eout)
{
    Val v = conv_slot(s, n, 0, DIM_S, what);
    if (!v.ok)
        return false;
    double x = value_of(s, v);
    if (!(x > 0) || !isfinite(x)) {
        diag_error(s->diag, n->loc, "%s must be a positive time (it is %s s)", what, num_text(s, x));
        return false;
    }
    *out = x;
    *eout = v.e;    /* evaluated again at run time, after --set */
    return true;
}

/* Reads `impact_law = sequential | simultaneous | energetic` of `simulate`
 * into the model: how the impacts at several touching contacts are resolved
 * (docs/theory.md section 10). */
static void impact_law_value(Sema *s, const Node *v)
{
    static const char *const names[] = {"sequential", "simultaneous", "energetic"};
    static const ImpactLaw laws[] = {IMPACT_SEQUENTIAL, IMPACT_SIMULTANEOUS, IMPACT_ENERGETIC};
    s->impact_law_set = true;
    for (int k = 0; k < 3; k++)
        if (v->kind == N_NAME && strcmp(v->name, names[k]) == 0) {
            s->m->impact_law = laws[k];
            return;
        }
    diag_error(s->diag, v->loc, "unknown impact law (expected sequential, simultaneous or energetic)");
}

static void stmt_simulate(Sema *s, const Stmt *st)
{
    if (s->have_simulate) {
        diag_error(s->diag, st->loc, "'simulate' is given twice");
        diag_note(s->diag, s->simulate_loc, "first given here");
        return;
    }
    s->have_simulate = true;
    s->simulate_loc = st->loc;
    static const char *const keys[] = {"t_end", "dt", "method", "impact_law"};
    const Opt *found[4];
    if (!take_opts(s, st->opts, keys, 4, found, "simulate"))
        return;
    if (found[3])
        impact_law_value(s, found[3]->value);
    if (found[0])
        time_value(s, found[0]->value, "t_end", &s->m->t_end, &s->m->t_end_e);
    if (found[1])
        time_value(s, found[1]->value, "dt", &s->m->dt, &s->m->dt_e);
    if (found[2]) {
        const Node *v = found[2]->value;
        if (v->kind == N_NAME && strcmp(v->name, "rk4") == 0)
            s->m->method = METHOD_RK4;
        else if (v->kind == N_NAME && strcmp(v->name, "adaptive") == 0)
            s->m->method = METHOD_ADAPTIVE;
        else if (v->kind == N_NAME && strcmp(v->name, "exact") == 0)
            s->m->method = METHOD_EXACT;
        else if (v->kind == N_NAME && strcmp(v->name, "taylor") == 0)
            s->m->method = METHOD_TAYLOR;
        else
            diag_error(s->diag, v->loc, "unknown method (expected rk4, adaptive, exact or taylor)");
        s->method_set = true;
        s->method_loc = v->loc;
    }
    if (s->m->dt > s->m->t_end) {
        diag_error(s->diag, found[1] ? found[1]->value->loc : st->loc,
                   "the time step dt = %g s is longer than t_end = %g s", s->m->dt, s->m->t_end);
    }
}

static Output *add_output(Sema *s, OutputKind kind, int index, const char *name,
                          const char *unit, SrcLoc loc)
{
    Output *o = vec_push(s->arena, (void **)&s->m->outputs, &s->m->n_outputs, &s->cap_outputs,
                         sizeof *o);
    *o = (Output){kind, index, name, unit, loc, NULL};
    return o;
}

/* Adds the quantity of element sym named by member n (S.force, F.slip,
 * F.force) as a column named `label`, or sym.field. */
static void element_item(Sema *s, const Node *n, const Sym *sym, const char *label)
{
    const char *name = label ? label : arena_printf(s->arena, "%s.%s", sym->name, n->name);
    if ((sym->kind == SYM_FRICTION || sym->kind == SYM_SFRICTION) && strcmp(n->name, "force") == 0) {
        add_output(s, sym->kind == SYM_FRICTION ? OUT_FRICTION : OUT_SFRICTION, sym->index, name, "N",
                   n->loc);
        return;
    }
    Val v = element_value(s, n, sym);
    if (!v.ok)
        return;
    bool torque = v.dim.known && v.dim.m == 2;
    Output *o = add_output(s, OUT_EXPR, s->m->n_outputs, name,
                           v.dim.m == 1 && v.dim.s == -1 ? "m/s" : torque ? "N*m" : v.dim.kg ? "N" : "m",
                           n->loc);
    o->value = v.e;
}

/* Resolves an item that names one quantity (BODY.x, GAP.force, S.force,
 * energy.error, a parameter ...) as a column named `label`, or as written.
 * Returns false when n is not of that form (an expression). */
static bool quantity_item(Sema *s, const Node *n, const char *label)
{
#define NAMED(text) (label ? label : (text))
    if (n->kind == N_NAME) {
        Sym *sym = table_get(&s->syms, n->name);
        if (sym && sym->kind == SYM_PARAM) {
            add_output(s, OUT_PARAM, sym->index, NAMED(sym->name), s->m->params[sym->index].unit, n->loc);
            return true;
        }
        if (strcmp(n->name, "t") == 0 || strcmp(n->name, "pi") == 0)
            return false;
        if (!sym)
            unknown_name(s, n->name, n->name, n->loc);
        else if (sym->kind == SYM_PLANAR)
            diag_error(s->diag, n->loc,
                       "cannot output the planar body '%s' itself (write %s.x, .y, .phi, .vx, .vy, "
                       ".omega, .ax, .ay or .alpha)", n->name, n->name);
        else if (sym->kind == SYM_RIGID)
            diag_error(s->diag, n->loc, "cannot output the rigid body '%s' itself (write %s.x, .y, "
                       ".z, .vx, .vy, .vz, .w1, .w2, .w3, .p0 .. .p3, .theta or .point(a, b, c).x)",
                       n->name, n->name);
        else if (sym->kind == SYM_BODY || sym->kind == SYM_FAMILY)
            diag_error(s->diag, n->loc, "cannot output the %s '%s' itself (write %s.x, .v or .a)",
                       kind_word(sym->kind), n->name, n->name);
        else
            diag_error(s->diag, n->loc, "cannot output the %s '%s' itself (write %s.%s)",
                       kind_word(sym->kind), n->name, n->name,
                       sym->kind == SYM_GAP ? "gap, .rate or .force" : sym->kind == SYM_FRICTION
                       ? "force or .slip" : "force");
        return true;
    }
    if (n->kind != N_MEMBER)
        return false;
    const Node *base = n->a;
    const char *f = n->name;
    if (base->kind == N_NAME && strcmp(base->name, "energy") == 0) {
        static const char *const names[] = {"kinetic", "potential", "dissipated", "injected", "error"};
        for (int i = 0; i < 5; i++)
            if (strcmp(f, names[i]) == 0) {
                add_output(s, (OutputKind)(OUT_KINETIC + i), 0,
                           NAMED(arena_printf(s->arena, "energy.%s", f)), i == 4 ? "" : "J", n->loc);
                return true;
            }
        diag_error(s->diag, n->name_loc,
                   "unknown energy quantity '%s' (expected kinetic, potential, dissipated, injected or error)",
                   f);
        return true;
    }
    if (base->kind == N_NAME && strcmp(base->name, "ground") == 0) {
        diag_error(s->diag, n->loc, "ground does not move: nothing to output");
        return true;
    }
    if (base->kind == N_CALL)    /* a rigid body's point: an expression */
        return false;
    Sym *rs = rigid_sym(s, base);
    if (rs) {                    /* its state as columns, the rest as expressions */
        static const char *const fx[] = {"x", "y", "z"}, *const fv[] = {"vx", "vy", "vz", "w1", "w2", "w3"};
        int ix = s->m->rigids[rs->index].ix;
        for (int k = 0; k < 6; k++) {
            const Body *b = &s->m->bodies[ix + k];
            if ((k < 3 && strcmp(f, fx[k]) == 0) || strcmp(f, fv[k]) == 0) {
                bool x = k < 3 && strcmp(f, fx[k]) == 0;
                add_output(s, x ? OUT_X : OUT_V, ix + k, NAMED(x ? b->xname : b->vname),
                           x ? b->xunit : b->vunit, n->loc);
                return true;
            }
        }
        return false;
    }
    Sym *sym = resolve(s, base);
    if (!sym)
        return true;
    if (sym->kind == SYM_PLANAR) {
        static const char *const fields[] = {"x", "y", "phi", "vx", "vy", "omega", "ax", "ay", "alpha"};
        const Planar *pl = &s->m->planars[sym->index];
        int coords[] = {pl->ix, pl->iy, pl->iphi};
        for (int i = 0; i < 9; i++)
            if (strcmp(f, fields[i]) == 0) {
                const Body *b = &s->m->bodies[coords[i % 3]];
                int kind = i / 3;
                add_output(s, (OutputKind)(OUT_X + kind), coords[i % 3],
                           NAMED(kind == 0 ? b->xname : kind == 1 ? b->vname : b->aname),
                           kind == 0 ? b->xunit : kind == 1 ? b->vunit : b->aunit, n->loc);
                return true;
            }
        diag_error(s->diag, n->name_loc,
                   "a planar body has no field '%s' (expected x, y, phi, vx, vy, omega, ax, ay or alpha)",
                   f);
        return true;
    }
    if (sym->kind == SYM_GAP) {
        if (strcmp(f, "gap") == 0 || strcmp(f, "force") == 0) {
            bool gap = f[0] == 'g';
            add_output(s, gap ? OUT_GAP : OUT_FORCE, sym->index,
                       NAMED(arena_printf(s->arena, "%s.%s", sym->name, f)), gap ? "m" : "N", n->loc);
            return true;
        }
        if (strcmp(f, "rate") == 0 || wall_of(s, sym->index) || s->m->gaps[sym->index].sphere) {
            element_item(s, n, sym, label);
            return true;
        }
        diag_error(s->diag, n->name_loc, "a gap has no field '%s' (expected gap, rate or force)", f);
        return true;
    }
    if (sym->kind == SYM_BODY && s->m->bodies[sym->index].gen) {
        const Body *b = &s->m->bodies[sym->index];
        int k = gen_field(b, f);
        if (!k) {
            diag_error(s->diag, n->name_loc, "coordinate '%s' has no field '%s' (expected %s)",
                       sym->name, f, b->gen == GEN_ANGLE ? "phi, omega or alpha" : "x, v or a");
            return true;
        }
        int i = k == 'x' ? 0 : k == 'v' ? 1 : 2;
        add_output(s, (OutputKind)(OUT_X + i), sym->index,
                   NAMED(i == 0 ? b->xname : i == 1 ? b->vname : b->aname),
                   i == 0 ? b->xunit : i == 1 ? b->vunit : b->aunit, n->loc);
        return true;
    }
    if (sym->kind == SYM_BODY) {
        static const char *const fields[] = {"x", "v", "a"};
        static const char *const units[] = {"m", "m/s", "m/s^2"};
        for (int i = 0; i < 3; i++)
            if (strcmp(f, fields[i]) == 0) {
                add_output(s, (OutputKind)(OUT_X + i), sym->index,
                           NAMED(arena_printf(s->arena, "%s.%s", sym->name, f)), units[i], n->loc);
                return true;
            }
        diag_error(s->diag, n->name_loc, "a body has no field '%s' (expected x, v or a)", f);
        return true;
    }
    if (sym->kind == SYM_FAMILY) {
        diag_error(s->diag, base->loc, "'%s' is a family of bodies; name one of them, e.g. %s[%d]",
                   sym->name, sym->name, sym->lo);
        return true;
    }
    if (sym->kind == SYM_SPRING || sym->kind == SYM_DAMPER || sym->kind == SYM_FORCE ||
        sym->kind == SYM_FRICTION || sym->kind == SYM_SFRICTION) {
        element_item(s, n, sym, label);
        return true;
    }
    diag_error(s->diag, n->loc, "cannot output '%s.%s': '%s' is a %s", sym->name, f, sym->name,
               kind_word(sym->kind));
    return true;
#undef NAMED
}

/* The text of the source at loc (one line), each run of blanks read as
 * one space: the column name of an expression given without one. */
static char *source_text(Sema *s, SrcLoc loc)
{
    const char *p = s->src->text;
    for (int line = 1; line < loc.line && p && *p; line++) {
        p = strchr(p, '\n');
        p = p ? p + 1 : NULL;
    }
    if (!p)
        return arena_strdup(s->arena, "?");
    char *out = arena_alloc(s->arena, (size_t)loc.len + 1);
    int k = 0;
    for (int c = 0; c < loc.len && p[loc.col - 1 + c] && p[loc.col - 1 + c] != '\n'; c++) {
        char ch = p[loc.col - 1 + c] == '\t' ? ' ' : p[loc.col - 1 + c];
        if (ch != ' ' || (k > 0 && out[k - 1] != ' '))
            out[k++] = ch;
    }
    while (k > 0 && out[k - 1] == ' ')
        k--;
    out[k] = '\0';
    return out;
}

/* Resolves one item of an output list: a quantity, an expression of t,
 * parameters, the bodies' states and the elements' quantities, or either
 * of them named, NAME = EXPRESSION. */
static void output_item(Sema *s, const Node *item)
{
    const Node *n = item;
    const char *label = NULL;
    if (item->kind == N_LABEL) {
        if (item->a->kind != N_NAME) {
            diag_error(s->diag, item->a->loc, "a column's name is a plain name: NAME = EXPRESSION");
            return;
        }
        label = item->a->name;
        n = item->b;
        if (strcmp(label, "t") == 0) {
            diag_error(s->diag, item->a->loc, "'t' is the time, the first column already");
            return;
        }
    }
    if (n->kind == N_NAME && strcmp(n->name, "t") == 0) {
        diag_error(s->diag, n->loc, "'t' is the time, the first column already");
        return;
    }
    int before = s->m->n_outputs;
    if (quantity_item(s, n, label)) {
        if (label && s->m->n_outputs > before)
            s->m->outputs[before].loc = item->a->loc;   /* a later duplicate's note */
        return;
    }
    s->out_expr = true;
    s->out_torque = false;
    Val v = conv(s, n, CX_TIME | CX_POS | CX_STATE | CX_OUT);
    s->out_expr = false;
    if (!v.ok)
        return;
    const char *name = label ? label : source_text(s, n->loc);
    if (strpbrk(name, ",\"")) {
        diag_error(s->diag, n->loc, "give this column a name, NAME = EXPRESSION (its text '%s' has "
                   "a comma or a quote, which a CSV header cannot hold)", name);
        return;
    }
    char buf[64];
    dim_text(v.dim, buf, sizeof buf);
    /* J and N*m share their dimensions: a column that mentions a torque (an
     * element acting on an angle, a parameter written in N*m) is a torque;
     * any other (k*x^2/2, F*x, and a moment arm times a force, which the
     * unit system cannot tell from work) is an energy */
    if (s->out_torque && dim_equal(v.dim, DIM_TORQUE))
        snprintf(buf, sizeof buf, "N*m");
    if (n->kind == N_MEMBER && strcmp(n->name, "theta") == 0 && rigid_sym(s, n->a))
        snprintf(buf, sizeof buf, "rad");   /* a rigid body's tilt, an angle */
    Output *o = add_output(s, OUT_EXPR, s->m->n_outputs, name, arena_strdup(s->arena, buf),
                           label ? item->a->loc : n->loc);
    o->value = v.e;
}

/* Refuses a column added from index `from` whose name an earlier column
 * already has (`output: A.x, A.x` was taken as written: two columns of one
 * name, which a reader of the CSV or HDF5 file cannot tell apart). */
static void output_check_names(Sema *s, int from)
{
    for (int k = from; k < s->m->n_outputs; k++) {
        const Output *o = &s->m->outputs[k];
        const Sym *first = table_get(&s->columns, o->name);
        if (first) {
            diag_error(s->diag, o->loc, "column '%s' is given twice", o->name);
            diag_note(s->diag, first->loc, "first given here");
            s->m->n_outputs = k;
            return;
        }
        Sym *col = arena_alloc(s->arena, sizeof *col);
        *col = (Sym){.name = o->name, .index = k, .loc = o->loc};
        table_put(s->arena, &s->columns, col);
    }
}

static void stmt_output(Sema *s, const Stmt *st)
{
    if (s->have_output) {
        diag_error(s->diag, st->loc, "'output' is given twice");
        diag_note(s->diag, s->output_loc, "first given here");
        return;
    }
    s->have_output = true;
    s->output_loc = st->loc;
    if (st->value && time_value(s, st->value, "the output interval", &s->m->every, &s->m->every_e))
        s->every_set = true;
    for (int i = 0; i < st->items.n; i++) {
        int before = s->m->n_outputs;
        output_item(s, st->items.items[i]);
        output_check_names(s, before);
    }
}

static void stmt_for(Sema *s, const Stmt *st)
{
    long lo, hi;
    if (!eval_int(s, st->a, &lo) || !eval_int(s, st->b, &hi))
        return;
    if (hi - lo + 1 > SEMA_MAX_RANGE) {
        diag_error(s->diag, ast_span(st->a->loc, st->b->loc),
                   "the range %ld..%ld is too long (at most %d iterations)", lo, hi, SEMA_MAX_RANGE);
        return;
    }
    if (s->n_loops == MAX_LOOP_NEST) {
        diag_error(s->diag, st->loc, "'for' loops nested too deeply (at most %d)", MAX_LOOP_NEST);
        return;
    }
    if (is_reserved(st->name) || table_get(&s->syms, st->name) || find_loop(s, st->name)) {
        diag_error(s->diag, st->name_loc, "the loop variable '%s' hides another name", st->name);
        return;
    }
    s->loops[s->n_loops++] = (LoopVar){st->name, lo};
    for (long i = lo; i <= hi; i++) {
        s->loops[s->n_loops - 1].value = i;
        int before = s->diag->errors;
        stmt_check(s, st->body);
        if (s->diag->errors > before)
            break; /* one report per loop, not one per iteration */
    }
    s->n_loops--;
}

static void stmt_check(Sema *s, const Stmt *st)
{
    if (++s->budget > SEMA_MAX_STATEMENTS) {
        if (!s->budget_reported)
            diag_error(s->diag, st->loc,
                       "too many statements after expanding 'for' loops (at most %d)",
                       SEMA_MAX_STATEMENTS);
        s->budget_reported = true;
        return;
    }
    switch (st->kind) {
    case S_MODEL: /* sema_check reads the first statement itself */
        diag_error(s->diag, st->loc, "'model' must be the first statement");
        break;
    case S_PARAM: stmt_param(s, st); break;
    case S_MASS: stmt_mass(s, st); break;
    case S_SPRING:
    case S_DAMPER: stmt_spring(s, st); break;
    case S_FORCE:
    case S_TORQUE: stmt_force(s, st); break;
    case S_RIGID: stmt_rigid(s, st); break;
    case S_PLANE: stmt_plane(s, st); break;
    case S_SPHERE: stmt_sphere(s, st); break;
    case S_GRAVITY: stmt_gravity(s, st); break;
    case S_GAP: stmt_gap(s, st); break;
    case S_FRICTION: stmt_friction(s, st); break;
    case S_INIT: stmt_init(s, st); break;
    case S_SIMULATE: stmt_simulate(s, st); break;
    case S_OUTPUT: stmt_output(s, st); break;
    case S_FOR: stmt_for(s, st); break;
    case S_DISC:
    case S_BODY: stmt_planar(s, st); break;
    case S_WALL: stmt_wall(s, st); break;
    case S_COORDINATE: stmt_coordinate(s, st); break;
    case S_KINETIC:
    case S_POTENTIAL: stmt_energy(s, st); break;
    }
}

/* Records every name a statement declares (for "used before declared"). */
static void collect_later(Sema *s, const Stmt *st)
{
    const char *name = NULL;
    SrcLoc loc = st->loc;
    switch (st->kind) {
    case S_PARAM:
        name = st->name;
        loc = st->name_loc;
        break;
    case S_MASS:
    case S_SPRING:
    case S_DAMPER:
    case S_FORCE:
    case S_GAP:
    case S_DISC:
    case S_BODY:
    case S_WALL:
    case S_FRICTION:
    case S_COORDINATE:
    case S_RIGID:
    case S_PLANE:
    case S_SPHERE:
        if (st->label && st->label->name) {
            name = st->label->name;
            loc = st->label->loc;
        }
        break;
    case S_FOR:
        collect_later(s, st->body);
        return;
    default:
        return;
    }
    if (!name || table_get(&s->later, name))
        return;
    Sym *sym = arena_alloc(s->arena, sizeof *sym);
    sym->name = name;
    sym->loc = loc;
    table_put(s->arena, &s->later, sym);
}

/* The model's name when the file has no `model` line: its base name. */
static const char *base_name(Sema *s, const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    size_t n = strlen(b);
    if (n > 4 && strcmp(b + n - 4, ".nsm") == 0)
        n -= 4;
    return arena_strndup(s->arena, b, n);
}

/* The chain that renumbers the variables from + i as to + i for every
 * body i (and with_p0, each rigid body's P0_VAR + b as 2n + b), built once
 * per kind and applied to every expression (expr_chain_apply keeps its
 * memo): a chain built per expression made N force statements cost O(N^2). */
static ExprChain *renumber_chain(Sema *s, int from, int to, int with_p0)
{
    int n = s->m->n_bodies, nr = with_p0 ? s->m->n_rigids : 0;
    Expr **fv = arena_alloc(s->arena, sizeof(Expr *) * (size_t)(n + nr ? n + nr : 1));
    Expr **tv = arena_alloc(s->arena, sizeof(Expr *) * (size_t)(n + nr ? n + nr : 1));
    for (int i = 0; i < n; i++) {
        fv[i] = expr_var(s->ex, from + i);
        tv[i] = expr_var(s->ex, to + i);
    }
    for (int b = 0; b < nr; b++) {   /* a rigid body's p0 */
        fv[n + b] = expr_var(s->ex, P0_VAR + b);
        tv[n + b] = expr_var(s->ex, 2 * n + b);
    }
    return expr_chain_new(n + nr, fv, tv);
}

/* Renumbers the positions SLIP_POS_VAR + i of a slip's coefficient as i,
 * the numbering of derive.h, by the chain renumber_chain(s, SLIP_POS_VAR, 0, 0). */
static Expr *renumber_slip_positions(Sema *s, ExprChain *pos, Expr *e)
{
    if (!expr_has_kind(e, EX_VAR))
        return e;
    return expr_chain_apply(s->ex, pos, e);
}

/* The model's nonlinear bits (Model.nl): state-dependent forces, curved gaps,
 * penalty exponents other than 1. */
static int nonlinear_bits(const Model *m)
{
    int nl = 0;
    for (int k = 0; k < m->n_forces; k++)
        nl |= m->forces[k].state ? NL_FORCE : 0;
    for (int j = 0; j < m->n_gaps; j++) {
        nl |= m->gaps[j].curve ? NL_GAP : 0;
        nl |= m->gaps[j].pexp ? NL_PENALTY : 0;
    }
    for (int k = 0; k < m->n_frictions; k++)
        nl |= m->frictions[k].curved ? NL_SLIP : 0;
    return nl;
}

/* Does e hold abs, min or max of something that moves with time?  The
 * Taylor method would carry such a kink through a step unnoticed. */
static bool kink_of_time(const Expr *e)
{
    if (e->kind == EX_CALL && (e->op == FN_ABS || e->op == FN_MIN || e->op == FN_MAX)) {
        for (int i = 0; i < e->nargs; i++)
            if (expr_has_kind(e->args[i], EX_TIME))
                return true;
    }
    for (int i = 0; i < e->nargs; i++)
        if (kink_of_time(e->args[i]))
            return true;
    return false;
}

/* What a nonlinear model may not use yet, and its method: taylor by
 * default, exact refused (its proof and generator need a linear model). */
static void nonlinear_checks(Sema *s)
{
    Model *m = s->m;
    if (!m->nl)
        return;
    for (int k = 0; k < m->n_forces; k++)
        if (kink_of_time(m->forces[k].value)) {
            diag_error(s->diag, m->forces[k].loc,
                       "in a nonlinear model a force may not take abs, min or max of a function of "
                       "time yet (the Taylor method would step over the kink): write it with 'if' "
                       "on t, whose switch is located");
            break;
        }
    if (!s->method_set) {
        m->method = METHOD_TAYLOR;
        return;
    }
    if (m->method == METHOD_EXACT)
        diag_error(s->diag, s->method_loc,
                   "method 'exact' needs a linear model, and this one is nonlinear (%s): use "
                   "method = taylor (the default here), rk4 or adaptive",
                   (m->nl & NL_FORCE) ? "a force depends on the state"
                   : (m->nl & NL_GAP) ? "a gap is curved" : "a penalty law has an exponent");
}

/* A model with coordinates or energies: coordinates only (a body with a
 * mass of its own has no place in the energies), a kinetic energy in which
 * every coordinate's velocity appears (else M(q) is singular), the weight
 * written into the potential, no friction yet.  Sets Model.lagrangian. */
static void lagrangian_checks(Sema *s)
{
    Model *m = s->m;
    int gen = -1, body = -1;
    for (int i = m->n_bodies - 1; i >= 0; i--)
        *(m->bodies[i].gen ? &gen : &body) = i;
    const Stmt *en = s->kinetic_st ? s->kinetic_st : s->potential_st;
    if (gen < 0 && !en)
        return;
    if (gen < 0) {
        diag_error(s->diag, en->loc, "an energy is written in generalized coordinates: declare "
                   "them with 'coordinate NAME: length' or 'coordinate NAME: angle'");
        return;
    }
    if (!s->kinetic_st) {
        diag_error(s->diag, m->bodies[gen].loc, "a model with coordinates needs its kinetic "
                   "energy: 'kinetic T = ...', a quadratic form in the velocities");
        return;
    }
    if (body >= 0) {
        diag_error(s->diag, m->bodies[body].loc, "'%s' has a mass of its own, and this model is "
                   "written by its energies: declare it with 'coordinate' and add its kinetic "
                   "energy to 'kinetic'", m->bodies[body].name);
        return;
    }
    if (s->have_gravity) {
        diag_error(s->diag, s->gravity_loc, "a model written by its energies takes its weight in "
                   "'potential' (for example V = -m*g*l*cos(th.phi)): remove 'gravity'");
        return;
    }
    for (int i = 0; i < m->n_bodies; i++)
        if (!expr_depends_on(m->kinetic, expr_var(s->ex, VEL_VAR + i))) {
            diag_error(s->diag, m->bodies[i].loc, "coordinate '%s' has no velocity in the kinetic "
                       "energy '%s': the mass matrix would be singular", m->bodies[i].name,
                       s->kinetic_name);
            return;
        }
    m->lagrangian = true;
}

/* The method of a Lagrangian model: adaptive (the default), taylor or rk4;
 * exact needs a linear model (its mass matrix is constant). */
static void lagrangian_method(Sema *s)
{
    Model *m = s->m;
    if (!m->lagrangian)
        return;
    if (!s->method_set) {
        m->method = METHOD_ADAPTIVE;
        return;
    }
    if (m->method == METHOD_EXACT)
        diag_error(s->diag, s->method_loc, "method 'exact' does not take a model written by its "
                   "energies (its mass matrix depends on the configuration): use method = "
                   "adaptive (the default here), taylor or rk4");
}

/* The impact law against the gaps: an impact's stiffness is read by the
 * energetic law only, which needs one on every impact gap. */
static void impact_checks(Sema *s)
{
    const Model *m = s->m;
    for (int j = 0; j < m->n_gaps; j++) {
        const Gap *g = &m->gaps[j];
        if (!g->law->constraint)
            continue;
        if (g->istiff && m->impact_law != IMPACT_ENERGETIC) {
            diag_error(s->diag, g->istiff_loc,
                       "gap '%s': an impact's 'stiffness' is read by impact_law = energetic only "
                       "(this model's impact law is %s)", g->name,
                       m->impact_law == IMPACT_SIMULTANEOUS ? "simultaneous" : "sequential");
            return;
        }
        if (!g->istiff && m->impact_law == IMPACT_ENERGETIC) {
            diag_error(s->diag, g->loc,
                       "gap '%s': impact_law = energetic needs the contact's stiffness: "
                       "impact(e = ..., stiffness = ...)", g->name);
            return;
        }
    }
}

/* Fills in what the statements left unset and lays gaps out densely. */
static void finish(Sema *s)
{
    Model *m = s->m;
    int n = m->n_bodies;
    rigid_finish_init(s);
    m->nq = n + m->n_rigids;
    m->init_x = arena_alloc(s->arena, sizeof(Expr *) * (size_t)(n ? n : 1));
    m->init_v = arena_alloc(s->arena, sizeof(Expr *) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        m->init_x[i] = s->init_x[i] ? s->init_x[i] : expr_num(s->ex, 0);
        m->init_v[i] = s->init_v[i] ? s->init_v[i] : expr_num(s->ex, 0);
    }
    for (int j = 0; j < m->n_gaps; j++) {
        Gap *g = &m->gaps[j];
        const PendingGap *pg = &s->pgaps[j];
        g->w_body = arena_alloc(s->arena, sizeof(int) * (size_t)(pg->n_terms + 1));
        g->w = arena_alloc(s->arena, sizeof(Expr *) * (size_t)(pg->n_terms + 1));
        for (int k = 0; k < pg->n_terms; k++) {
            if (expr_is_zero(pg->terms[k].w))
                continue;
            g->w_body[g->n_w] = pg->terms[k].body;
            g->w[g->n_w++] = pg->terms[k].w;
        }
    }
    ExprChain *pos = renumber_chain(s, SLIP_POS_VAR, 0, 0);
    for (int k = 0; k < m->n_frictions; k++) {
        Friction *f = &m->frictions[k];
        f->w = arena_alloc(s->arena, sizeof(Expr *) * (size_t)(n ? n : 1));
        for (int i = 0; i < n; i++)
            f->w[i] = expr_num(s->ex, 0);
        for (int q = 0; q < s->pfrics[k].n_terms; q++) {
            Expr *w = renumber_slip_positions(s, pos, s->pfrics[k].terms[q].w);
            f->w[s->pfrics[k].terms[q].body] = w;
            f->curved = f->curved || expr_has_kind(w, EX_VAR);
        }
    }
    expr_chain_free(pos);
    /* a state-dependent force's velocities VEL_VAR + i become n + i, the
     * numbering of derive.h, now that n is known */
    ExprChain *vel = renumber_chain(s, VEL_VAR, n, 1);
    for (int k = 0; k < m->n_forces; k++)
        if (m->forces[k].state)
            m->forces[k].value = expr_chain_apply(s->ex, vel, m->forces[k].value);
    for (int k = 0; k < m->n_outputs; k++)
        if (m->outputs[k].value)
            m->outputs[k].value = expr_chain_apply(s->ex, vel, m->outputs[k].value);
    for (int j = 0; j < m->n_gaps; j++)   /* a sphere gap's quaternion p0 */
        if (m->gaps[j].sphere)
            m->gaps[j].curve = expr_chain_apply(s->ex, vel, m->gaps[j].curve);
    if (m->lagrangian) {
        m->kinetic = expr_chain_apply(s->ex, vel, m->kinetic);
        m->potential = m->potential ? expr_chain_apply(s->ex, vel, m->potential) : expr_num(s->ex, 0);
        m->potential_loc = s->potential_st ? s->potential_st->loc : m->kinetic_loc;
    }
    expr_chain_free(vel);
    m->nl = nonlinear_bits(m) | (m->n_rigids ? NL_FORCE : 0);   /* -w x I w */
    if (!s->every_set) {
        m->every = m->dt > 0 ? m->dt : 1e-3;    /* samples do not depend on the steps */
        m->every_e = m->dt_e;
    }
    for (int i = 0; i < n; i++) {
        Body *b = &m->bodies[i];
        if (b->coord == COORD_LINE)
            continue;
        if (b->rigid >= 0) {
            /* weight m g d (d gravity's direction), -z for the scalar form; none on w */
            int k = b->coord == COORD_X ? 0 : b->coord == COORD_Y ? 1 : 2;
            b->gfac = b->coord == COORD_ROT ? expr_num(s->ex, 0)
                    : s->gvec[k] ? expr_neg(s->ex, s->gvec[k]) : expr_num(s->ex, k == 2 ? 1 : 0);
            continue;
        }
        /* weight m g d: gfac = -d along x and y (-d_y = 1 without `along`), 0 for phi */
        Expr *d = b->coord == COORD_PHI ? NULL : b->coord == COORD_X ? s->gdx : s->gdy;
        b->gfac = d ? expr_neg(s->ex, d)
                    : expr_num(s->ex, b->coord == COORD_Y && !s->gravity_dir ? 1 : 0);
    }
    if (!s->have_output) {
        for (int i = 0; i < n; i++) {
            add_output(s, OUT_X, i, m->bodies[i].xname, m->bodies[i].xunit, m->bodies[i].loc);
            add_output(s, OUT_V, i, m->bodies[i].vname, m->bodies[i].vunit, m->bodies[i].loc);
        }
        for (int b = 0; b < m->n_rigids; b++) {   /* the quaternion's scalar part */
            Output *o = add_output(s, OUT_EXPR, m->n_outputs,
                                   arena_printf(s->arena, "%s.p0", m->rigids[b].name), "",
                                   m->rigids[b].loc);
            o->value = expr_var(s->ex, 2 * n + b);
        }
    }
}

Model *sema_check(const Ast *ast, const Source *src, Arena *a, Diag *d)
{
    init_dims();
    Sema s = {0};
    s.arena = a;
    s.diag = d;
    s.src = src;
    s.m = arena_alloc(a, sizeof *s.m);
    s.ex = expr_ctx_new(a);
    Model *m = s.m;
    m->ex = s.ex;
    s.init_x = arena_alloc(a, sizeof(Expr *) * SEMA_MAX_BODIES);
    s.init_v = arena_alloc(a, sizeof(Expr *) * SEMA_MAX_BODIES);
    s.init_x_loc = arena_alloc(a, sizeof(SrcLoc) * SEMA_MAX_BODIES);
    s.init_v_loc = arena_alloc(a, sizeof(SrcLoc) * SEMA_MAX_BODIES);
    m->path = src->path;
    m->source = src->text;
    m->name = base_name(&s, src->path);
    m->title = "";
    m->t_end = 10;
    m->dt = 0;
    m->method = METHOD_RK4;
    int errors = d->errors;

    if (!ast->first) {
        diag_error(d, (SrcLoc){0, 0, 0}, "the model is empty: it has no statements");
        return NULL;
    }
    for (const Stmt *st = ast->first; st; st = st->next)
        collect_later(&s, st);
    for (const Stmt *st = ast->first; st; st = st->next) {
        if (st->kind == S_MODEL && st == ast->first) {
            m->name = st->name;
            m->title = st->title ? st->title : "";
            continue;
        }
        stmt_check(&s, st);
    }
    if (d->errors == errors && m->n_bodies == 0)
        diag_error(d, (SrcLoc){0, 0, 0},
                   "the model has no mass: declare at least one body with 'mass NAME = VALUE'");
    for (int i = 0; s.gravity_dir && i < m->n_bodies; i++)
        if (m->bodies[i].coord == COORD_LINE) {
            diag_error(d, s.gravity_dir->loc,
                       "a direction of gravity is for planar bodies, and '%s' is a mass on the "
                       "line (its weight acts along it): write 'gravity g' without 'along'",
                       m->bodies[i].name);
            break;
        }
    if (s.gravity_vec && !m->n_rigids && d->errors == errors)
        diag_error(d, s.gravity_vec->loc, "gravity as a vector (gx, gy, gz) is for bodies in space "
                   "('rigid'): write 'gravity g' for masses on the line and 'gravity g along "
                   "(dx, dy)' for planar bodies");
    if (d->errors == errors)
        rigid_checks(&s);
    if (d->errors == errors)
        lagrangian_checks(&s);
    if (d->errors > errors)
        return NULL;
    finish(&s);
    if (m->lagrangian)
        lagrangian_method(&s);
    else if (!m->n_rigids)
        nonlinear_checks(&s);
    impact_checks(&s);
    if (d->errors > errors)
        return NULL;
    return m;
}

/* ---- what the contact laws' option readers borrow (laws.h, laws.c) -------- */

/* The diagnostics the checks report to. */
Diag *sema_diag(Sema *s)
{
    return s->diag;
}

/* The expressions' context the checked model's expressions live in. */
ExprCtx *sema_exprs(Sema *s)
{
    return s->ex;
}

/* take_opts for a law's options. */
bool sema_take_opts(Sema *s, const Opt *opts, const char *const *keys, int nkeys,
                    const Opt **found, const char *where)
{
    return take_opts(s, opts, keys, nkeys, found, where);
}

/* conv of a law's option (no position, no time). */
Val sema_conv(Sema *s, const Node *n)
{
    return conv(s, n, 0);
}

/* conv_slot of a law's option, or conv_slot_u when unit is given. */
Val sema_conv_slot(Sema *s, const Node *n, Dim want, const char *what, const char *unit)
{
    return unit ? conv_slot_u(s, n, 0, want, what, unit) : conv_slot(s, n, 0, want, what);
}

/* check_range for a law's option. */
bool sema_check_range(Sema *s, Val v, const Node *n, const char *what, double lo, bool strict,
                      double hi, const char *unit)
{
    return check_range(s, v, n, what, lo, strict, hi, unit);
}

/* dim_str: a dimension as the messages write it. */
const char *sema_dim_str(Sema *s, Dim d)
{
    return dim_str(s, d);
}
