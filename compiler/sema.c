/* sema.c - from syntax tree to checked Model: names, units, loops, gaps. */
#include "sema.h"

#include <nsm/model.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* ---- symbols ------------------------------------------------------------ */

typedef enum SymKind {
    SYM_PARAM, SYM_BODY, SYM_FAMILY, SYM_SPRING, SYM_DAMPER, SYM_FORCE, SYM_GAP
} SymKind;

typedef struct Sym {
    const char *name;
    SymKind kind;
    int index;     /* param, body, gap index; family: first body */
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

typedef struct Sema {
    Arena *arena;
    Diag *diag;
    const Source *src;
    Model *m;
    ExprCtx *ex;
    Table syms;
    Table later;   /* every name the file declares, to explain "used before declared" */
    LoopVar loops[MAX_LOOP_NEST];
    int n_loops;
    long budget;   /* statements expanded so far */
    bool budget_reported;
    int cap_params, cap_bodies, cap_springs, cap_forces, cap_gaps, cap_outputs;
    PendingGap *pgaps;
    Expr **init_x, **init_v;
    SrcLoc *init_x_loc, *init_v_loc; /* SEMA_MAX_BODIES each */
    int n_pgaps, cap_pgaps;
    int *gap_bodies;  /* scratch for split_gap: the bodies a gap mentions */
    int cap_gap_bodies;
    double *pvals;  /* parameter defaults, for constant checks */
    int cap_pvals;
    const Node **pdefs; /* each parameter's value as written, for sizes */
    int n_pdefs, cap_pdefs;
    bool have_gravity, have_simulate, have_output;
    SrcLoc gravity_loc, simulate_loc, output_loc;
    bool every_set;
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

/* Resolves a body reference; -1 is ground.  Returns false after an error. */
static bool resolve_body(Sema *s, const Node *n, int *body)
{
    if (n->kind == N_NAME && strcmp(n->name, "ground") == 0) {
        *body = -1;
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
    if (sym->kind != SYM_BODY) {
        diag_error(s->diag, n->loc, "'%s' is a %s, not a body", sym->name, kind_word(sym->kind));
        return false;
    }
    *body = sym->index;
    return true;
}

/* ---- expressions -------------------------------------------------------- */

enum { CX_TIME = 1, CX_POS = 2 }; /* what an expression may mention */

/* A converted value: its expression (simplified as it is built), unit, and,
 * when it depends on parameters only, its number at the parameters'
 * defaults computed in IEEE arithmetic on the source as written, so that no
 * simplification (x/x = 1, 0*x = 0) hides a NaN or an infinity. */
typedef struct Val {
    Expr *e;
    Dim dim;
    bool ok;
    bool has_num;   /* num is known: no position, no time */
    double num;
} Val;

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

/* Rejects positions inside constructs that cannot be affine. */
static bool affine_guard(Sema *s, Val v, const Node *n, const char *what)
{
    if (v.ok && expr_has_kind(v.e, EX_VAR)) {
        diag_error(s->diag, n->loc,
                   "a gap must be affine in body positions (like M2.x - M1.x + d), but %s a position is not",
                   what);
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
    const char *what = arena_printf(s->arena, "'%s' of", n->name);
    if (!affine_guard(s, a, n, what) || !affine_guard(s, b, n, what))
        return bad();
    ExprFunc fn = funcs[f].fn;
    Dim d = a.dim;
    switch (fn) {
    case FN_SIN: case FN_COS: case FN_TAN: case FN_EXP: case FN_LOG:
        if (a.dim.known && !dim_is_none(a.dim)) {
            diag_error(s->diag, n->args[0]->loc,
                       "unit mismatch: the argument of '%s' must be dimensionless, not %s", n->name,
                       dim_str(s, a.dim));
            return bad();
        }
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
    return with_num(r, num_of(s, expr_call(s->ex, fn, expr_num(s->ex, a.num),
                                           two ? expr_num(s->ex, b.num) : NULL)));
}

/* Converts `BODY.x` and friends; only a gap may mention positions. */
static Val conv_member(Sema *s, const Node *n, int cx)
{
    const Node *base = n->a;
    if (base->kind == N_NAME && strcmp(base->name, "energy") == 0) {
        diag_error(s->diag, n->loc, "'energy.%s' can only be used in an output list", n->name);
        return bad();
    }
    if (base->kind == N_NAME && strcmp(base->name, "ground") != 0) {
        Sym *sym = table_get(&s->syms, base->name);
        if (sym && sym->kind != SYM_BODY && sym->kind != SYM_FAMILY) {
            diag_error(s->diag, n->loc, "'%s.%s' can only be used in an output list", base->name,
                       n->name);
            return bad();
        }
    }
    int body;
    if (!resolve_body(s, base, &body))
        return bad();
    if (strcmp(n->name, "x") != 0 && strcmp(n->name, "v") != 0 && strcmp(n->name, "a") != 0) {
        diag_error(s->diag, n->name_loc, "a body has no field '%s' (expected x, v or a)", n->name);
        return bad();
    }
    if (!(cx & CX_POS)) {
        diag_error(s->diag, n->loc,
                   "body states like '%s.%s' may only appear in a gap or an output list",
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
            diag_error(s->diag, n->loc, "time 't' may only appear in a force");
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
    if (sym->kind == SYM_PARAM)
        return with_num(val(expr_param(s->ex, sym->index), s->m->params[sym->index].dim),
                        s->m->params[sym->index].number);
    if (sym->kind == SYM_BODY || sym->kind == SYM_FAMILY)
        diag_error(s->diag, n->loc, "'%s' is a body, not a value (its position is %s.x)",
                   sym->name, sym->name);
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
    if (expr_has_kind(a.e, EX_VAR) && !(constant && p == 1)) {
        diag_error(s->diag, n->loc,
                   "a gap must be affine in body positions (like M2.x - M1.x + d), but a power of a position is not");
        return bad();
    }
    if (!affine_guard(s, b, n->b, "an exponent with"))
        return bad();
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
    return with_num2(val(expr_pow(s->ex, a.e, b.e), d), a, b, pow(a.num, b.num));
}

/* A bare number literal is dimensionless in a product ("2*k" has k's unit). */
static Dim factor_dim(const Node *n, Val v)
{
    if (n->kind == N_NUM && !n->unit)
        return dim_none();
    return v.dim;
}

static Val conv_bin(Sema *s, const Node *n, int cx)
{
    if (n->op == '^')
        return conv_pow(s, n, cx);
    Val a = conv(s, n->a, cx), b = conv(s, n->b, cx);
    if (!a.ok || !b.ok)
        return bad();
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
        if (!affine_guard(s, b, n, "dividing by"))
            return bad();
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
        if (!affine_guard(s, a, n, "a comparison of") || !affine_guard(s, b, n, "a comparison of"))
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
        return with_num2(val(n->kind == N_AND ? expr_and(s->ex, a.e, b.e) : expr_or(s->ex, a.e, b.e),
                             dim_none()), a, b, n->kind == N_AND ? (x && y) : (x || y));
    }
    case N_NOT: {
        Val a = conv(s, n->a, cx);
        return a.ok ? with_num2(val(expr_not(s->ex, a.e), dim_none()), a, a, a.num == 0) : a;
    }
    case N_CALL:
        return conv_call(s, n, cx);
    case N_IF: {
        Val c = conv(s, n->a, cx), a = conv(s, n->b, cx), b = conv(s, n->c, cx);
        if (!c.ok || !a.ok || !b.ok)
            return bad();
        if (!affine_guard(s, c, n, "a condition on") || !affine_guard(s, a, n, "'if' of") ||
            !affine_guard(s, b, n, "'if' of"))
            return bad();
        if (!dim_equal(a.dim, b.dim)) {
            diag_error(s->diag, n->loc, "unit mismatch: 'then' gives %s but 'else' gives %s",
                       dim_str(s, a.dim), dim_str(s, b.dim));
            return bad();
        }
        Val r = val(expr_if(s->ex, c.e, a.e, b.e), a.dim.known ? a.dim : b.dim);
        if (c.has_num && (c.num != 0 ? a.has_num : b.has_num))
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
        if (o->word && strcmp(o->key, "release") != 0) {
            diag_error(s->diag, o->loc, "option '%s' expects a value, not '%s'", o->key, o->word);
            ok = false;
            continue;
        }
        found[k] = o;
    }
    return ok;
}

static Dim DIM_M, DIM_KG, DIM_S, DIM_N, DIM_K, DIM_C, DIM_V, DIM_A;

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
}

/* ---- statements --------------------------------------------------------- */

static void stmt_check(Sema *s, const Stmt *st);

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
    char buf[64];
    p->unit = arena_strdup(s->arena, dim_text(v.dim, buf, sizeof buf));
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
    return idx;
}

static void stmt_mass(Sema *s, const Stmt *st)
{
    const Node *l = st->label;
    Val v = conv_slot(s, st->value, 0, DIM_KG, "a mass");
    if (v.ok)
        v.ok = check_range(s, v, st->value, arena_printf(s->arena, "the mass of '%s'", l->name),
                           0, true, INFINITY, "kg");
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
    Spring sp = {name, st->label ? st->label->loc : st->loc, a, b, NULL, NULL, NULL};
    bool ok = true;
    if (damper) {
        if (!found[0]) {
            diag_error(s->diag, st->loc, "a damper needs a damping coefficient: c = ...");
            return;
        }
        Val c = conv_slot(s, found[0]->value, 0, DIM_C, "the damping 'c'");
        ok = c.ok && check_range(s, c, found[0]->value, "the damping 'c'", 0, false, INFINITY,
                                 "N*s/m");
        sp.c = c.e;
    } else {
        if (!found[0]) {
            diag_error(s->diag, st->loc,
                       "a spring needs a stiffness: k = ... (use 'damper' for a damper alone)");
            return;
        }
        Val k = conv_slot(s, found[0]->value, 0, DIM_K, "the stiffness 'k'");
        ok = k.ok && check_range(s, k, found[0]->value, "the stiffness 'k'", 0, false, INFINITY,
                                 "N/m");
        sp.k = k.e;
        if (found[1]) {
            Val c = conv_slot(s, found[1]->value, 0, DIM_C, "the damping 'c'");
            ok = c.ok && check_range(s, c, found[1]->value, "the damping 'c'", 0, false,
                                     INFINITY, "N*s/m") && ok;
            sp.c = c.e;
        }
        if (found[2]) {
            Val r = conv_slot(s, found[2]->value, 0, DIM_M, "the rest length");
            ok = r.ok && check_range(s, r, found[2]->value, "the rest length", -INFINITY, false,
                                     INFINITY, "m") && ok;
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

static void stmt_force(Sema *s, const Stmt *st)
{
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
    Val v = conv_slot(s, st->value, CX_TIME, DIM_N, "a force");
    if (!v.ok || (v.has_num && !check_range(s, v, st->value, "a constant force", -INFINITY, false,
                                            INFINITY, "N")))
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
}

static void stmt_gravity(Sema *s, const Stmt *st)
{
    if (s->have_gravity) {
        diag_error(s->diag, st->loc, "gravity is given twice");
        diag_note(s->diag, s->gravity_loc, "first given here");
        return;
    }
    Val v = conv_slot(s, st->value, 0, DIM_A, "gravity");
    if (!v.ok || !check_range(s, v, st->value, "gravity", 0, false, INFINITY, "m/s^2"))
        return;
    s->have_gravity = true;
    s->gravity_loc = st->loc;
    s->m->gravity = v.e;
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
    return arena_printf(s->arena, "%s.x", s->m->bodies[index].name);
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

/* Splits g into slopes w[i] = dg/dx_i and offset d = g(x = 0), checking that
 * the slopes depend on parameters only: that is what "affine" means. */
static bool split_gap(Sema *s, Expr *g, const char *name, SrcLoc loc, PendingGap *pg, Expr **d)
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
    for (int k = 0; k < nb; k++) {
        int i = bodies[k];
        Expr *var = expr_var(s->ex, i);
        if (!expr_depends_on(g, var))
            continue;
        Expr *w = expr_diff(s->ex, g, var);
        if (expr_has_kind(w, EX_VAR) || expr_has_kind(w, EX_TIME)) {
            ExprNamer namer = {param_namer, var_namer, s};
            diag_error(s->diag, loc,
                       "gap '%s' is not affine in body positions (like M2.x - M1.x + d): its slope with respect to %s.x is %s, which depends on the positions",
                       name, s->m->bodies[i].name, expr_to_string(s->ex, w, EXPR_TEXT, &namer));
            return false;
        }
        pg->terms[pg->n_terms++] = (GapTerm){i, w};
        off = expr_subst(s->ex, off, var, expr_num(s->ex, 0));
    }
    if (pg->n_terms == 0) {
        diag_error(s->diag, loc, "gap '%s' does not depend on any body position: it can never open or close", name);
        return false;
    }
    *d = off;
    return true;
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
    Val a = conv(s, c->a, CX_POS), b = conv(s, c->b, CX_POS);
    if (!a.ok || !b.ok)
        return;
    Expr *g = c->op == CMP_GE ? expr_sub(s->ex, a.e, b.e) : expr_sub(s->ex, b.e, a.e);
    Gap gap = {0};
    gap.name = name;
    gap.loc = st->label ? st->label->loc : st->loc;
    PendingGap pg;
    if (!split_gap(s, g, name, c->loc, &pg, &gap.d))
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
    bool ok = true;
    if (strcmp(st->law, "impact") == 0) {
        static const char *const keys[] = {"e"};
        const Opt *found[1];
        if (!take_opts(s, st->opts, keys, 1, found, "an impact"))
            return;
        if (!found[0]) {
            diag_error(s->diag, st->law_loc,
                       "an impact needs a coefficient of restitution: impact(e = ...)");
            return;
        }
        Val e = conv_slot(s, found[0]->value, 0, dim_none(), "the restitution 'e'");
        if (!e.ok)
            return;
        if (!check_range(s, e, found[0]->value, "the coefficient of restitution", 0, false, 1, ""))
            return;
        gap.law = LAW_IMPACT;
        gap.e = e.e;
    } else {
        static const char *const keys[] = {"k", "c", "release"};
        const Opt *found[3];
        if (!take_opts(s, st->opts, keys, 3, found, "a penalty contact"))
            return;
        if (!found[0]) {
            diag_error(s->diag, st->law_loc, "a penalty contact needs a stiffness: penalty(k = ...)");
            return;
        }
        Val k = conv_slot(s, found[0]->value, 0, DIM_K, "the contact stiffness 'k'");
        ok = k.ok && check_range(s, k, found[0]->value, "the contact stiffness 'k'", 0, false,
                                 INFINITY, "N/m");
        gap.k = k.e;
        gap.c = expr_num(s->ex, 0);
        if (found[1]) {
            Val cv = conv_slot(s, found[1]->value, 0, DIM_C, "the contact damping 'c'");
            ok = cv.ok && check_range(s, cv, found[1]->value, "the contact damping 'c'", 0, false,
                                      INFINITY, "N*s/m") && ok;
            gap.c = cv.e;
        }
        gap.law = LAW_PENALTY;
        gap.release = RELEASE_FORCE;
        if (found[2]) {
            if (!found[2]->word) {
                diag_error(s->diag, found[2]->value->loc, "release must be 'force' or 'gap'");
                ok = false;
            } else if (strcmp(found[2]->word, "gap") == 0)
                gap.release = RELEASE_GAP;
        }
    }
    if (!ok)
        return;
#ifdef NSM_MAX_GAPS
    if (s->m->n_gaps == NSM_MAX_GAPS)
        diag_warning(s->diag, c->loc,
                     "more than %d gaps: the runtime this nsmc was built with keeps a mode as a "
                     "%d-bit mask and will refuse to start the simulator (it is generated anyway)",
                     NSM_MAX_GAPS, NSM_MAX_GAPS);
#endif
    if (!declare(s, name, SYM_GAP, s->m->n_gaps, gap.loc))
        return;
    Gap *p = vec_push(s->arena, (void **)&s->m->gaps, &s->m->n_gaps, &s->cap_gaps, sizeof *p);
    *p = gap;
    PendingGap *q = vec_push(s->arena, (void **)&s->pgaps, &s->n_pgaps, &s->cap_pgaps, sizeof *q);
    *q = pg;
}

static void stmt_init(Sema *s, const Stmt *st)
{
    for (const Opt *o = st->opts; o; o = o->next) {
        const Node *t = o->target;
        if (t->kind != N_MEMBER || (strcmp(t->name, "x") != 0 && strcmp(t->name, "v") != 0)) {
            diag_error(s->diag, t->loc, "'init' sets BODY.x or BODY.v");
            continue;
        }
        int body;
        if (!resolve_body(s, t->a, &body))
            continue;
        if (body < 0) {
            diag_error(s->diag, t->loc, "ground is fixed at x = 0 and cannot be given a state");
            continue;
        }
        bool pos = strcmp(t->name, "x") == 0;
        Val v = conv_slot(s, o->value, 0, pos ? DIM_M : DIM_V,
                          pos ? "an initial position" : "an initial velocity");
        if (!v.ok || !check_range(s, v, o->value, pos ? "an initial position" : "an initial velocity",
                                  -INFINITY, false, INFINITY, pos ? "m" : "m/s"))
            continue;
        Expr **slot = pos ? &s->init_x[body] : &s->init_v[body];
        SrcLoc *where = pos ? &s->init_x_loc[body] : &s->init_v_loc[body];
        if (*slot) {
            diag_error(s->diag, t->loc, "'%s.%s' is initialised twice", s->m->bodies[body].name,
                       t->name);
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

static void stmt_simulate(Sema *s, const Stmt *st)
{
    if (s->have_simulate) {
        diag_error(s->diag, st->loc, "'simulate' is given twice");
        diag_note(s->diag, s->simulate_loc, "first given here");
        return;
    }
    s->have_simulate = true;
    s->simulate_loc = st->loc;
    static const char *const keys[] = {"t_end", "dt", "method"};
    const Opt *found[3];
    if (!take_opts(s, st->opts, keys, 3, found, "simulate"))
        return;
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
        else
            diag_error(s->diag, v->loc, "unknown method (expected rk4, adaptive or exact)");
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
    *o = (Output){kind, index, name, unit, loc};
    return o;
}

/* Resolves one item of an output list. */
static void output_item(Sema *s, const Node *n)
{
    if (n->kind == N_NAME) {
        Sym *sym = table_get(&s->syms, n->name);
        if (sym && sym->kind == SYM_PARAM) {
            add_output(s, OUT_PARAM, sym->index, sym->name, s->m->params[sym->index].unit, n->loc);
            return;
        }
        if (!sym)
            unknown_name(s, n->name, n->name, n->loc);
        else
            diag_error(s->diag, n->loc, "cannot output the %s '%s' itself (write %s.x, .v or .a)",
                       kind_word(sym->kind), n->name, n->name);
        return;
    }
    if (n->kind != N_MEMBER) {
        diag_error(s->diag, n->loc,
                   "an output is BODY.x, BODY.v, BODY.a, GAP.gap, GAP.force, energy.QUANTITY or a parameter");
        return;
    }
    const Node *base = n->a;
    const char *f = n->name;
    if (base->kind == N_NAME && strcmp(base->name, "energy") == 0) {
        static const char *const names[] = {"kinetic", "potential", "dissipated", "injected", "error"};
        for (int i = 0; i < 5; i++)
            if (strcmp(f, names[i]) == 0) {
                add_output(s, (OutputKind)(OUT_KINETIC + i), 0,
                           arena_printf(s->arena, "energy.%s", f), i == 4 ? "" : "J", n->loc);
                return;
            }
        diag_error(s->diag, n->name_loc,
                   "unknown energy quantity '%s' (expected kinetic, potential, dissipated, injected or error)",
                   f);
        return;
    }
    if (base->kind == N_NAME && strcmp(base->name, "ground") == 0) {
        diag_error(s->diag, n->loc, "ground does not move: nothing to output");
        return;
    }
    Sym *sym = resolve(s, base);
    if (!sym)
        return;
    if (sym->kind == SYM_GAP) {
        if (strcmp(f, "gap") == 0 || strcmp(f, "force") == 0) {
            bool gap = f[0] == 'g';
            add_output(s, gap ? OUT_GAP : OUT_FORCE, sym->index,
                       arena_printf(s->arena, "%s.%s", sym->name, f), gap ? "m" : "N", n->loc);
            return;
        }
        diag_error(s->diag, n->name_loc, "a gap has no field '%s' (expected gap or force)", f);
        return;
    }
    if (sym->kind == SYM_BODY) {
        static const char *const fields[] = {"x", "v", "a"};
        static const char *const units[] = {"m", "m/s", "m/s^2"};
        for (int i = 0; i < 3; i++)
            if (strcmp(f, fields[i]) == 0) {
                add_output(s, (OutputKind)(OUT_X + i), sym->index,
                           arena_printf(s->arena, "%s.%s", sym->name, f), units[i], n->loc);
                return;
            }
        diag_error(s->diag, n->name_loc, "a body has no field '%s' (expected x, v or a)", f);
        return;
    }
    if (sym->kind == SYM_FAMILY) {
        diag_error(s->diag, base->loc, "'%s' is a family of bodies; name one of them, e.g. %s[%d]",
                   sym->name, sym->name, sym->lo);
        return;
    }
    diag_error(s->diag, n->loc, "cannot output '%s.%s': '%s' is a %s", sym->name, f, sym->name,
               kind_word(sym->kind));
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
    for (int i = 0; i < st->items.n; i++)
        output_item(s, st->items.items[i]);
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
    case S_FORCE: stmt_force(s, st); break;
    case S_GRAVITY: stmt_gravity(s, st); break;
    case S_GAP: stmt_gap(s, st); break;
    case S_INIT: stmt_init(s, st); break;
    case S_SIMULATE: stmt_simulate(s, st); break;
    case S_OUTPUT: stmt_output(s, st); break;
    case S_FOR: stmt_for(s, st); break;
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

/* Fills in what the statements left unset and lays gaps out densely. */
static void finish(Sema *s)
{
    Model *m = s->m;
    int n = m->n_bodies;
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
    if (!s->every_set) {
        m->every = m->dt > 0 ? m->dt : 1e-3;    /* samples do not depend on the steps */
        m->every_e = m->dt_e;
    }
    if (!s->have_output) {
        for (int i = 0; i < n; i++) {
            add_output(s, OUT_X, i, arena_printf(s->arena, "%s.x", m->bodies[i].name), "m",
                       m->bodies[i].loc);
            add_output(s, OUT_V, i, arena_printf(s->arena, "%s.v", m->bodies[i].name), "m/s",
                       m->bodies[i].loc);
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
    if (d->errors > errors)
        return NULL;
    finish(&s);
    return m;
}
