/*
 * emit_c.c - the C back end: one self-contained simulator source per model,
 * following runtime/include/nsm/model.h.
 *
 * The output is deterministic (no dates, no absolute paths) and every block
 * carries a comment with the equation it implements.  Names in the code:
 * p[i] parameters, c[k] hoisted constants, y[i] state (x then v), sw[k] time
 * switch flags; inside modes() the arrays F[] net forces, L[] contact
 * forces, a[] accelerations, u[] the impact gaps' accelerations before the
 * contact forces, Fd[] and ud[] their time derivatives.
 *
 * Modes: one function writes the free mode once and each closed gap's or
 * closed set's correction after it (derive.h, DvCorr), rather than a
 * complete function per mode.
 *
 * Loops: a run of assignments that differ only by a shift of every index
 * (the springs of a chain, the gaps between its beads, the masses of a
 * family) is written as one `for` loop over i, so the generated code grows
 * with the model's text rather than its size.  Each iteration evaluates the
 * same expression, in the same order, as the assignment it replaces.
 * The sparse tables K, C, W and Wt are written as lists of entries (row,
 * column, value; nsm/model.h): their integer rows and columns roll too,
 * each by a constant step per iteration.  The Taylor recurrences
 * (nl_series, nl_slip_series, lag_series), nl_gap, nl_slip, force_terms,
 * the header's lists and the tables of a family roll by their text
 * (emit_roll.h): statements alike but for integers moving in constant
 * steps, each element's work rows included.
 */
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "emit.h"
#include "emit_roll.h"
#include "laws.h"
#include "rigid.h"

typedef struct Cgen {
    const Derivation *dv;
    const Model *m;
    FILE *out;
    char **vname;      /* per variable index */
    char **pname;      /* per parameter */
    char **penum;      /* per parameter: its index constant P_<name>, NULL if none */
    ExprNamer nm;
    char **tname;      /* "M1.x", "M1.v" for comments */
    ExprNamer tnm;
    char **aname;      /* per variable index, with a mode's locals as arrays: F[3] */
    bool arrays;       /* locals are arrays (the mode being written has loops) */
    bool rolling;      /* printing the body of a loop over i ... */
    long shift;        /* ... in which every variable index moves by shift*i */
    struct { Expr *e; const char *op; } *checked; /* setup's checks written so far */
    int n_checked, cap_checked;
    int nnz_K, nnz_C, nnz_W, nnz_Wt; /* entries setup lists in num->K, C, W, Wt */
    int nl_nwork;      /* nl_series' work rows (a nonlinear model) */
    int n_gen;         /* the forcing generator's size in the table: 0 without forcing */
    int nl_slip_nwork; /* nl_slip_series' work rows (curved slips) */
    int lag_nwork;     /* lag_series' work rows (a model written by its energies) */
} Cgen;

/* One assignment of generated code, dst[index] = value (or a local). */
typedef struct Line {
    const char *dst;   /* the array written ("ydot", "num->K.val", a local array "F") */
    long index;        /* element of dst */
    int var;           /* a mode's local: its variable index (a scalar unless arrays); else -1 */
    Expr *value;
    const char *name;  /* what the element is, for its comment; NULL: none */
    const char *doc;   /* the equation, shared by a loop's iterations; NULL: none */
    bool trailing;     /* comment after the statement rather than before */
    bool is_int;       /* the value is the integer ival (a sparse entry's row or column) */
    long ival;
    bool accum;        /* dst[index] += value (nl_force) */
} Line;

/* A run of lines written as one loop: `period` lines repeated `count` times. */
typedef struct Seg {
    int start, period, count;
    long shift[4];     /* per line of the period: variable index step per iteration */
    long istep[4];     /* per integer line of the period: its value's step per iteration */
} Seg;

enum { ROLL_MAX_PERIOD = 4, ROLL_MIN_COUNT = 4 };

/* How a parameter reads in the generated C: p[P_name]. */
static const char *c_param(void *ud, int index, ExprStyle style)
{
    (void)style;
    return ((Cgen *)ud)->pname[index];
}

/* Names for expressions quoted in comments: the user's names. */
static const char *t_param(void *ud, int index, ExprStyle style)
{
    (void)style;
    return ((Cgen *)ud)->m->params[index].name;
}

/* How a state reads in comments: M1.x, M1.v. */
static const char *t_var(void *ud, int index, ExprStyle style)
{
    Cgen *cg = ud;
    (void)style;
    if (index >= 0 && index < 2 * cg->dv->n + cg->m->n_rigids)
        return cg->tname[index];
    if (index >= cg->dv->v_sw && index < cg->dv->v_sw + cg->dv->n_sw)
        return cg->vname[index];
    return "?";
}

/* The array a variable lives in and its element there: y, sw, c or a
 * mode's local array (F, L, a, Fd). */
static const char *var_slot(const Cgen *cg, int index, long *elem)
{
    const Derivation *dv = cg->dv;
    struct { int first, count; const char *arr; } slot[] = {
        {0, 2 * dv->n, "y"}, {dv->v_sw, dv->n_sw, "sw"}, {dv->v_f, dv->n, "F"},
        {dv->v_lam, dv->n_rows, "L"}, {dv->v_acc, dv->n, "a"}, {dv->v_fdot, dv->n, "Fd"},
        {dv->v_u, dv->n_rows, "u"}, {dv->v_ud, dv->n_rows, "ud"},
        {dv->v_const, dv->n_consts, "c"}};
    for (size_t k = 0; k < sizeof slot / sizeof slot[0]; k++)
        if (index >= slot[k].first && index < slot[k].first + slot[k].count) {
            *elem = index - slot[k].first;
            return slot[k].arr;
        }
    *elem = 0;
    return NULL;
}

/* The index text base + step*i: "i", "i + 3", "2*i + 3", "3". */
static char *idx_text(Arena *a, long base, long step)
{
    if (step == 0)
        return arena_printf(a, "%ld", base);
    const char *i = step == 1 ? "i" : step == -1 ? "-i" : arena_printf(a, "%ld*i", step);
    if (base == 0)
        return (char *)i;
    return arena_printf(a, "%s %c %ld", i, base < 0 ? '-' : '+', base < 0 ? -base : base);
}

/* How a variable reads in the generated C: y[i], sw[k], locals, c[k]; inside
 * a loop, its element moved by shift*i. */
static const char *c_var(void *ud, int index, ExprStyle style)
{
    Cgen *cg = ud;
    (void)style;
    if (index < 0 || index >= cg->dv->n_vars)
        return "0";
    if (cg->rolling && cg->shift != 0) {
        long elem;
        const char *arr = var_slot(cg, index, &elem);
        return arena_printf(cg->dv->arena, "%s[%s]", arr, idx_text(cg->dv->arena, elem, cg->shift));
    }
    return cg->arrays ? cg->aname[index] : cg->vname[index];
}

/* An expression as C text. */
static const char *c_text(Cgen *cg, Expr *e)
{
    return expr_to_string(cg->dv->ex, e, EXPR_C, &cg->nm);
}

/* Prints an expression as C. */
static void px(Cgen *cg, Expr *e)
{
    expr_print(cg->out, e, EXPR_C, &cg->nm);
}

/* Prints a C string literal. */
static void pstr(FILE *out, const char *s)
{
    fputc('"', out);
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(out, "\\%c", ch);
        else if (ch < 32 || ch == 127)
            fprintf(out, "\\%03o", ch);
        else
            fputc(ch, out);
    }
    fputc('"', out);
}

/* p, the result of an allocation (malloc, realloc, open_memstream), when
 * it succeeded; out of memory is fatal, as in the arena. */
static void *mem_need(void *p)
{
    if (!p) {
        fputs("nsmc: fatal: out of memory\n", stderr);
        abort();
    }
    return p;
}

/* An in-memory stream into *text (its length in *len), for text written
 * before what goes around it. */
static FILE *memstream_open(char **text, size_t *len)
{
    return mem_need(open_memstream(text, len));
}

/* A C string literal as text (pstr's), for a table row. */
static const char *c_string(Arena *a, const char *s)
{
    char *text = NULL;
    size_t len = 0;
    FILE *o = memstream_open(&text, &len);
    pstr(o, s);
    fclose(o);
    const char *r = arena_strdup(a, text);
    free(text);
    return r;
}

/* Writes a comment body safely (emit_roll.c). */
static void pcomment(FILE *out, const char *s)
{
    emit_comment_text(out, s);
}

/* The model name as a C identifier. */
static char *c_ident(Arena *a, const char *name)
{
    size_t len = strlen(name);
    char *s = arena_alloc(a, len + 2);
    size_t k = 0;
    if (len == 0 || (name[0] >= '0' && name[0] <= '9'))
        s[k++] = '_';
    for (size_t i = 0; i < len; i++) {
        char ch = name[i];
        int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
        s[k++] = ok ? ch : '_';
    }
    s[k] = 0;
    return s;
}

/* The file name without directories, so output does not depend on where it ran. */
static const char *base_name(const char *path)
{
    const char *b = path ? path : "";
    for (const char *s = b; *s; s++)
        if (*s == '/' || *s == '\\')
            b = s + 1;
    return b;
}

/* Sets up the names every expression prints with. */
static void cg_init(Cgen *cg, const Derivation *dv, FILE *out)
{
    Arena *a = dv->arena;
    int n = dv->n;
    cg->dv = dv;
    cg->m = dv->model;
    cg->out = out;
    cg->pname = arena_alloc(a, (size_t)(cg->m->n_params + 1) * sizeof *cg->pname);
    cg->penum = arena_alloc(a, (size_t)(cg->m->n_params + 1) * sizeof *cg->penum);
    for (int i = 0; i < cg->m->n_params; i++) {
        /* p[P_name] where the name makes a unique identifier, else p[i] */
        char *id = arena_printf(a, "P_%s", c_ident(a, cg->m->params[i].name));
        bool clash = false;
        for (int k = 0; k < i; k++)
            clash |= cg->penum[k] && strcmp(cg->penum[k], id) == 0;
        cg->penum[i] = clash ? NULL : id;
        cg->pname[i] = clash ? arena_printf(a, "p[%d]", i) : arena_printf(a, "p[%s]", id);
    }
    cg->vname = arena_alloc(a, (size_t)(dv->n_vars + 1) * sizeof *cg->vname);
    for (int i = 0; i < dv->n_vars; i++)
        cg->vname[i] = "0";
    /* the state Y = (q[nq], u[n]): velocity i is y[nq + i], a rigid body's
     * p0 (variable 2n + b) is y[n + b] (docs/theory.md section 19) */
    int nq = cg->m->n_rigids ? cg->m->nq : n;
    for (int i = 0; i < 2 * n; i++)
        cg->vname[i] = arena_printf(a, "y[%d]", i < n ? i : nq + i - n);
    for (int b = 0; b < cg->m->n_rigids; b++)
        cg->vname[2 * n + b] = arena_printf(a, "y[%d]", n + b);
    for (int k = 0; k < dv->n_sw; k++)
        cg->vname[dv->v_sw + k] = arena_printf(a, "sw[%d]", k);
    for (int i = 0; i < n; i++) {
        cg->vname[dv->v_f + i] = arena_printf(a, "F%d", i);
        cg->vname[dv->v_acc + i] = arena_printf(a, "a%d", i);
        cg->vname[dv->v_fdot + i] = arena_printf(a, "Fd%d", i);
    }
    for (int j = 0; j < dv->n_rows; j++)
        cg->vname[dv->v_lam + j] = arena_printf(a, "lam%d", j);
    for (int k = 0; k < dv->n_consts; k++)
        cg->vname[dv->v_const + k] = arena_printf(a, "c[%d]", k);
    cg->aname = arena_alloc(a, (size_t)(dv->n_vars + 1) * sizeof *cg->aname);
    for (int i = 0; i < dv->n_vars; i++) {
        long elem;
        const char *arr = var_slot(cg, i, &elem);
        cg->aname[i] = arr ? arena_printf(a, "%s[%ld]", arr, elem) : cg->vname[i];
    }
    cg->arrays = cg->rolling = false;
    cg->nnz_K = cg->nnz_C = cg->nnz_W = cg->nnz_Wt = 0;
    cg->shift = 0;
    cg->checked = NULL;
    cg->n_checked = cg->cap_checked = 0;
    cg->nm.param = c_param;
    cg->nm.var = c_var;
    cg->nm.ud = cg;
    cg->tname = arena_alloc(a, (size_t)(2 * n + cg->m->n_rigids + 1) * sizeof *cg->tname);
    for (int i = 0; i < n; i++) {
        cg->tname[i] = (char *)cg->m->bodies[i].xname;
        cg->tname[n + i] = (char *)cg->m->bodies[i].vname;
    }
    for (int b = 0; b < cg->m->n_rigids; b++)
        cg->tname[2 * n + b] = arena_printf(a, "%s.p0", cg->m->rigids[b].name);
    cg->tnm.param = t_param;
    cg->tnm.var = t_var;
    cg->tnm.ud = cg;
}

/* ---- header and tables ---------------------------------------------------- */

static void emit_header(Cgen *cg)
{
    const Model *m = cg->m;
    const Derivation *dv = cg->dv;
    FILE *o = cg->out;
    fprintf(o, "/*\n * Simulator for the model '");
    pcomment(o, m->name);
    fprintf(o, "'");
    if (m->title && *m->title) {
        fprintf(o, ": ");
        pcomment(o, m->title);
    }
    fprintf(o, ".\n * Generated by nsmc from ");
    pcomment(o, base_name(m->path));
    fprintf(o, "; do not edit, regenerate.\n *\n");
    fprintf(o, " * Equations of motion in every mode (a set of gaps, bit j = gap j closed):\n");
    fprintf(o, " *   M a = F + sum_j w_j lambda_j,  F = f_ext(t) + f_const - K x - C v\n");
    int nq = m->n_rigids ? m->nq : dv->n;
    fprintf(o, m->n_rigids ? " * State y = (q, u), q' = B(q) u (docs/theory.md section 19):\n"
                           : " * State y = (x, v):\n");
    Roll *r = roll_new(dv->arena);
    for (int i = 0; i < dv->n; i++)
        roll_add(r, NULL, arena_printf(dv->arena, "y[%d] = %s   y[%d] = %s", i, m->bodies[i].xname,
                                       nq + i, m->bodies[i].vname), NULL);
    for (int b = 0; b < m->n_rigids; b++)
        roll_add(r, NULL, arena_printf(dv->arena, "y[%d] = %s.p0", dv->n + b, m->rigids[b].name), NULL);
    roll_write_ranges(r, o, " *   ");
    if (m->n_params) {
        fprintf(o, " * Parameters p[] (SI):\n");
        for (int i = 0; i < m->n_params; i++) {
            fprintf(o, " *   p[%d] = ", i);
            pcomment(o, m->params[i].name);
            fprintf(o, " [%s]\n", m->params[i].unit && *m->params[i].unit ? m->params[i].unit : "-");
        }
    }
    if (dv->g) {
        fprintf(o, " * Gaps (gap_j = w_j . x + d_j >= 0):\n");
        for (int j = 0; j < dv->g; j++)
            roll_add(r, NULL, arena_printf(dv->arena, "%d %s: %s%s", j, m->gaps[j].name,
                                           m->gaps[j].curve ? "curved (nl_gap), " : "",
                                           m->gaps[j].law->summary(&m->gaps[j])), NULL);
        roll_write_ranges(r, o, " *   ");
    }
    fprintf(o, " */\n#include <math.h>\n#include <stddef.h>\n\n#include \"nsm/model.h\"\n\n");
    /* the table's functions share the runtime's signatures: a model whose
     * equations need no t or sw leaves them unused, which is not a defect */
    fprintf(o, "/* Each function takes its slot's arguments; those not needed stay unused. */\n"
               "#pragma GCC diagnostic ignored \"-Wunused-parameter\"\n\n");
    bool any = false;
    for (int i = 0; i < m->n_params; i++)
        any |= cg->penum[i] != NULL;
    if (any) {
        fprintf(o, "/* indices into p[] */\nenum {");
        for (int i = 0; i < m->n_params; i++)
            if (cg->penum[i])
                fprintf(o, "%s\n    %s = %d", i ? "," : "", cg->penum[i], i);
        fprintf(o, "\n};\n\n");
    }
}

/* The runtime's name of an output kind. */
static const char *out_kind_name(OutputKind k)
{
    switch (k) {
    case OUT_X: return "NSM_OUT_X";
    case OUT_V: return "NSM_OUT_V";
    case OUT_A: return "NSM_OUT_A";
    case OUT_GAP: return "NSM_OUT_GAP";
    case OUT_FORCE: return "NSM_OUT_FORCE";
    case OUT_KINETIC: return "NSM_OUT_KINETIC";
    case OUT_POTENTIAL: return "NSM_OUT_POTENTIAL";
    case OUT_DISSIPATED: return "NSM_OUT_DISSIPATED";
    case OUT_INJECTED: return "NSM_OUT_INJECTED";
    case OUT_ERROR: return "NSM_OUT_ERROR";
    case OUT_PARAM: return "NSM_OUT_PARAM";
    case OUT_FRICTION: return "NSM_OUT_FRICTION";
    case OUT_EXPR: return "NSM_OUT_EXPR";
    case OUT_SFRICTION: return "NSM_OUT_SFRICTION";
    }
    return "NSM_OUT_X";
}

/* Body names, parameters, gaps, springs and outputs as static tables. */
/* Name of force statement k in the force table: its own, else "force on
 * BODY", or "force K on BODY" (K its number from 1) when another unnamed
 * force acts on the same body. */
static const char *force_name(Cgen *cg, int k)
{
    const Model *m = cg->m;
    const Force *f = &m->forces[k];
    if (f->name && *f->name)
        return f->name;
    int twins = 0;
    for (int i = 0; i < m->n_forces; i++)
        twins += !(m->forces[i].name && *m->forces[i].name) && m->forces[i].body == f->body;
    const char *b = m->bodies[f->body].name;
    if (twins > 1)
        return arena_printf(cg->dv->arena, "force %d on %s", k + 1, b);
    return arena_printf(cg->dv->arena, "force on %s", b);
}

/* Does some parameter size a family or a loop (Param.size)? */
/* Whether e reads parameter i. */
static bool reads_param(const Expr *e, int i)
{
    if (e->kind == EX_PARAM)
        return e->index == i;
    for (int k = 0; k < e->nargs; k++)
        if (reads_param(e->args[k], i))
            return true;
    return false;
}

/* The runtime's flag of parameter i (nsm_model.param_size): 1 for a size,
 * 2 when another parameter's default was computed from it here (`param T =
 * 2*pi/omega`: a run-time --set omega left T as it was, silently), else 0. */
static int param_fixed(const Model *m, int i)
{
    if (m->params[i].size)
        return 1;
    for (int j = 0; j < m->n_params; j++)
        if (j != i && m->params[j].value && reads_param(m->params[j].value, i))
            return 2;
    return 0;
}

static bool model_has_sizes(const Model *m)
{
    for (int i = 0; i < m->n_params; i++)
        if (param_fixed(m, i))
            return true;
    return false;
}

/* Whether body i's coordinate is named and measured as a plain mass's,
 * NAME.x [m] and NAME.v [m/s] (the runtime's reading without a table). */
static bool coord_plain(const Body *b)
{
    size_t n = strlen(b->name);
    return !strncmp(b->xname, b->name, n) && !strcmp(b->xname + n, ".x") &&
           !strncmp(b->vname, b->name, n) && !strcmp(b->vname + n, ".v") &&
           !strcmp(b->xunit ? b->xunit : "", "m") && !strcmp(b->vunit ? b->vunit : "", "m/s");
}

/* Whether the model needs the coordinate table: some body is an angle or a
 * planar body's coordinate (an older table's NULL reads every one plain). */
static bool coords_needed(const Model *m)
{
    for (int i = 0; i < m->n_bodies; i++)
        if (!coord_plain(&m->bodies[i]))
            return true;
    return false;
}

/* The coordinate table: every body's position and velocity names and units,
 * which the programs' state columns (sections, basins) are headed by. */
static void emit_coords(Cgen *cg)
{
    const Model *m = cg->m;
    FILE *o = cg->out;
    if (!coords_needed(m))
        return;
    fprintf(o, "/* position, unit, velocity, unit */\nstatic const nsm_coord_info coords[] = {\n");
    for (int i = 0; i < m->n_bodies; i++) {
        const Body *b = &m->bodies[i];
        fprintf(o, "    {");
        pstr(o, b->xname);
        fprintf(o, ", ");
        pstr(o, b->xunit ? b->xunit : "");
        fprintf(o, ", ");
        pstr(o, b->vname);
        fprintf(o, ", ");
        pstr(o, b->vunit ? b->vunit : "");
        fprintf(o, "},\n");
    }
    fprintf(o, "};\n\n");
}

static void emit_tables(Cgen *cg)
{
    const Model *m = cg->m;
    FILE *o = cg->out;
    Arena *a = cg->dv->arena;
    Roll *r = roll_new(a);
    fprintf(o, "static const char *const body_names[] = {");
    for (int i = 0; i < m->n_bodies; i++) {
        fprintf(o, "%s", i ? ", " : "");
        pstr(o, m->bodies[i].name);
    }
    fprintf(o, "};\n\n");
    emit_coords(cg);
    if (m->n_params) {
        fprintf(o, "/* name, SI unit, default */\nstatic const nsm_param_info params[] = {\n");
        for (int i = 0; i < m->n_params; i++) {
            fprintf(o, "    {");
            pstr(o, m->params[i].name);
            fprintf(o, ", ");
            pstr(o, m->params[i].unit ? m->params[i].unit : "");
            fprintf(o, ", %.17g},\n", m->params[i].number);
        }
        fprintf(o, "};\n\n");
    }
    if (m->n_planars) {
        fprintf(o, "/* name, bodies of x, y, phi, has a radius */\nstatic const nsm_planar_info planar[] = {\n");
        for (int k = 0; k < m->n_planars; k++) {
            const Planar *pl = &m->planars[k];
            fprintf(o, "    {");
            pstr(o, pl->name);
            fprintf(o, ", %d, %d, %d, %d},\n", pl->ix, pl->iy, pl->iphi, pl->disc ? 1 : 0);
        }
        fprintf(o, "};\n\n");
    }
    if (m->n_walls) {
        fprintf(o, "/* name, planar body, gap */\nstatic const nsm_wall_info walls[] = {\n");
        for (int k = 0; k < m->n_walls; k++) {
            fprintf(o, "    {");
            pstr(o, m->walls[k].name);
            fprintf(o, ", %d, %d},\n", m->walls[k].planar, m->walls[k].gap);
        }
        fprintf(o, "};\n\n");
    }
    if (model_has_sizes(m)) {
        fprintf(o, "/* 1: the parameter sizes an indexed family or a loop, fixed in this file;\n"
                   "   2: another parameter's default was computed from it, fixed too */\n"
                   "static const unsigned char param_size[] = {");
        for (int i = 0; i < m->n_params; i++)
            fprintf(o, "%s%d", i ? ", " : "", param_fixed(m, i));
        fprintf(o, "};\n\n");
    }
    if (m->n_gaps) {
        fprintf(o, "static const nsm_gap_info gaps[] = {\n");
        for (int j = 0; j < m->n_gaps; j++)
            roll_add(r, NULL,
                     arena_printf(a, "{%s, %s, %s},", c_string(a, m->gaps[j].name), m->gaps[j].law->rt_name,
                                  m->gaps[j].release == RELEASE_GAP ? "NSM_RELEASE_GAP" : "NSM_RELEASE_FORCE"),
                     NULL);
        roll_write_rows(r, o, "    ");
        fprintf(o, "};\n\n");
    }
    if (m->n_frictions) {
        fprintf(o, "/* name, gap whose contact force is the normal force (-1: a constant) */\n"
                   "static const nsm_friction_info frictions[] = {\n");
        for (int k = 0; k < m->n_frictions; k++) {
            fprintf(o, "    {");
            pstr(o, m->frictions[k].name);
            fprintf(o, ", %d},\n", m->frictions[k].normal_gap);
        }
        fprintf(o, "};\n\n");
    }
    if (m->n_springs) {
        fprintf(o, "/* name, body a, body b (-1 = ground) */\nstatic const nsm_spring_info springs[] = {\n");
        for (int s = 0; s < m->n_springs; s++)
            roll_add(r, NULL,
                     arena_printf(a, "{%s, %d, %d},", m->springs[s].name ? c_string(a, m->springs[s].name) : "NULL",
                                  m->springs[s].a, m->springs[s].b),
                     NULL);
        roll_write_rows(r, o, "    ");
        fprintf(o, "};\n\n");
    }
    if (m->n_forces) {
        fprintf(o, "/* name, body */\nstatic const nsm_force_info forces[] = {\n");
        for (int k = 0; k < m->n_forces; k++)
            roll_add(r, NULL, arena_printf(a, "{%s, %d},", c_string(a, force_name(cg, k)), m->forces[k].body),
                     NULL);
        roll_write_rows(r, o, "    ");
        fprintf(o, "};\n\n");
    }
    if (m->n_outputs) {
        fprintf(o, "static const nsm_output_info outputs[] = {\n");
        for (int k = 0; k < m->n_outputs; k++) {
            fprintf(o, "    {");
            pstr(o, m->outputs[k].name);
            fprintf(o, ", ");
            pstr(o, m->outputs[k].unit ? m->outputs[k].unit : "");
            fprintf(o, ", %s, %d},\n", out_kind_name(m->outputs[k].kind), m->outputs[k].index);
        }
        fprintf(o, "};\n\n");
    }
}

/* ---- loops ------------------------------------------------------------------ */

/* Are a and b the same expression but for every variable index moved by the
 * same amount (*delta, fixed by the first variable met when *set is false),
 * each staying in its array? */
static bool same_shifted(const Cgen *cg, const Expr *a, const Expr *b, long *delta, bool *set)
{
    if (a->kind != b->kind || a->op != b->op || a->nargs != b->nargs)
        return false;
    switch (a->kind) {
    case EX_NUM:
    case EX_PARAM:
    case EX_TIME:
        return a == b;
    case EX_VAR: {
        long ea, eb;
        const char *sa = var_slot(cg, a->index, &ea), *sb = var_slot(cg, b->index, &eb);
        if (!sa || sa != sb)
            return false;
        if (!*set) {
            *delta = eb - ea;
            *set = true;
        }
        return eb - ea == *delta;
    }
    default:
        for (int k = 0; k < a->nargs; k++)
            if (!same_shifted(cg, a->args[k], b->args[k], delta, set))
                return false;
        return true;
    }
}

/* Do two optional comment texts agree? */
static bool same_text(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* How many times the period of `period` lines starting at lines[0] repeats
 * (at least 1), each repetition moving every index by the same steps; fills
 * the variable index steps per line of the period. */
static int roll_count(const Cgen *cg, const Line *lines, int n, int period, long *shift,
                      long *istep)
{
    if (2 * period > n)
        return 1;
    long step[ROLL_MAX_PERIOD];
    for (int q = 0; q < period; q++) {
        const Line *a = &lines[q], *b = &lines[period + q];
        if (strcmp(a->dst, b->dst) != 0 || !same_text(a->doc, b->doc) || a->is_int != b->is_int)
            return 1;
        step[q] = b->index - a->index;
        bool set = false;
        shift[q] = istep[q] = 0;
        if (step[q] == 0)
            return 1;
        if (a->is_int)
            istep[q] = b->ival - a->ival;
        else if (!same_shifted(cg, a->value, b->value, &shift[q], &set))
            return 1;
    }
    int count = 2;
    for (; (count + 1) * period <= n; count++) {
        for (int q = 0; q < period; q++) {
            const Line *a = &lines[q], *b = &lines[count * period + q];
            long d = 0;
            bool set = false;
            if (strcmp(a->dst, b->dst) != 0 || !same_text(a->doc, b->doc) ||
                a->is_int != b->is_int || b->index - a->index != count * step[q])
                return count;
            if (a->is_int ? b->ival - a->ival != count * istep[q]
                          : !same_shifted(cg, a->value, b->value, &d, &set) ||
                                (set && d != count * shift[q]))
                return count;
        }
    }
    return count;
}

/* Splits lines into runs written as loops and single lines (count 1).
 * Returns the number of segments; *any says whether some run is a loop. */
static int roll_plan(const Cgen *cg, const Line *lines, int n, Seg *segs, bool *any)
{
    int ns = 0;
    for (int k = 0; k < n;) {
        Seg best = {k, 1, 1, {0}, {0}};
        /* bodies in space: no loops (their state is not laid out as (x, v)) */
        int max_period = cg->m->n_rigids ? 0 : ROLL_MAX_PERIOD;
        for (int period = 1; period <= max_period; period++) {
            long shift[ROLL_MAX_PERIOD] = {0}, istep[ROLL_MAX_PERIOD] = {0};
            int count = roll_count(cg, lines + k, n - k, period, shift, istep);
            if (count >= ROLL_MIN_COUNT && count * period > best.count * best.period) {
                best = (Seg){k, period, count, {0}, {0}};
                memcpy(best.shift, shift, sizeof shift);
                memcpy(best.istep, istep, sizeof istep);
            }
        }
        if (best.count == 1)
            best.period = 1;
        *any |= best.count > 1;
        segs[ns++] = best;
        k += best.count * best.period;
    }
    return ns;
}

/* Writes the comment of a line, or of a loop from line a to line b. */
static void line_comment(Cgen *cg, const Line *a, const Line *b)
{
    FILE *o = cg->out;
    if (!a->name && !a->doc)
        return;
    fprintf(o, "/* ");
    if (a->name) {
        pcomment(o, a->name);
        if (b) {
            fprintf(o, " .. ");
            pcomment(o, b->name);
        }
    }
    if (a->doc) {
        fprintf(o, "%s", a->name ? " " : "");
        pcomment(o, a->doc);
    }
    fprintf(o, " */");
}

/* The left side of an assignment: dst[index], or a scalar local's declaration. */
static void line_target(Cgen *cg, const Line *l, const char *index)
{
    if (l->var >= 0 && !cg->arrays)
        fprintf(cg->out, "const double %s = ", cg->vname[l->var]);
    else
        fprintf(cg->out, "%s[%s] %s ", l->dst, index, l->accum ? "+=" : "=");
}

/* Writes lines as planned: single statements, and loops over i. */
static void emit_lines(Cgen *cg, const Line *lines, const Seg *segs, int ns, const char *indent)
{
    FILE *o = cg->out;
    Arena *a = cg->dv->arena;
    for (int s = 0; s < ns; s++) {
        const Seg *sg = &segs[s];
        const Line *first = &lines[sg->start];
        if (sg->count == 1) {
            if (!first->trailing && (first->name || first->doc)) {
                fprintf(o, "%s", indent);
                line_comment(cg, first, NULL);
                fprintf(o, "\n");
            }
            fprintf(o, "%s", indent);
            line_target(cg, first, arena_printf(a, "%ld", first->index));
            if (first->is_int)
                fprintf(o, "%ld", first->ival);
            else
                px(cg, first->value);
            fprintf(o, ";");
            if (first->trailing) {
                fprintf(o, " ");
                line_comment(cg, first, NULL);
            }
            fprintf(o, "\n");
            continue;
        }
        const Line *last = &lines[sg->start + (sg->count - 1) * sg->period];
        fprintf(o, "%s", indent);
        line_comment(cg, first, last);
        if (first->name || first->doc)
            fprintf(o, "\n%s", indent);
        fprintf(o, "for (i = 0; i < %d; i++)%s\n", sg->count, sg->period > 1 ? " {" : "");
        for (int q = 0; q < sg->period; q++) {
            const Line *l = &lines[sg->start + q];
            long step = lines[sg->start + sg->period + q].index - l->index;
            fprintf(o, "%s    ", indent);
            line_target(cg, l, idx_text(a, l->index, step));
            if (l->is_int) {
                fprintf(o, "%s", idx_text(a, l->ival, sg->istep[q]));
            } else {
                cg->rolling = true;
                cg->shift = sg->shift[q];
                px(cg, l->value);
                cg->rolling = false;
                cg->shift = 0;
            }
            fprintf(o, ";\n");
        }
        if (sg->period > 1)
            fprintf(o, "%s}\n", indent);
    }
}

/* A growing list of lines. */
typedef struct Lines {
    Line *v;
    int n, cap;
} Lines;

static void lines_put(Lines *ls, Line l);

/* Appends one line. */
static void lines_add(Lines *ls, const char *dst, long index, Expr *value, const char *name,
                      const char *doc, bool trailing)
{
    lines_put(ls, (Line){dst, index, -1, value, name, doc, trailing, false, 0, false});
}

/* Appends an assignment of an integer, dst[index] = ival. */
static void lines_int(Lines *ls, const char *dst, long index, long ival)
{
    lines_put(ls, (Line){dst, index, -1, NULL, NULL, NULL, false, true, ival, false});
}

/* Appends an assignment to a mode's local variable. */
static void lines_local(const Cgen *cg, Lines *ls, int var, Expr *value)
{
    long elem;
    const char *arr = var_slot(cg, var, &elem);
    lines_put(ls, (Line){arr, elem, var, value, NULL, NULL, false, false, 0, false});
}

/* Appends a line to the list. */
static void lines_put(Lines *ls, Line l)
{
    if (ls->n == ls->cap) {
        ls->cap = ls->cap ? 2 * ls->cap : 64;
        ls->v = mem_need(realloc(ls->v, (size_t)ls->cap * sizeof *ls->v));
    }
    ls->v[ls->n++] = l;
}

/* Plans and writes a list of lines, then empties it.  Returns whether a loop
 * was written. */
static bool lines_flush(Cgen *cg, Lines *ls, const char *indent)
{
    Seg *segs = mem_need(malloc((size_t)(ls->n + 1) * sizeof *segs));
    bool any = false;
    int ns = roll_plan(cg, ls->v, ls->n, segs, &any);
    emit_lines(cg, ls->v, segs, ns, indent);
    free(segs);
    ls->n = 0;
    return any;
}

/* Would these lines hold a loop? */
static bool lines_roll(const Cgen *cg, const Lines *ls)
{
    Seg *segs = mem_need(malloc((size_t)(ls->n + 1) * sizeof *segs));
    bool any = false;
    roll_plan(cg, ls->v, ls->n, segs, &any);
    free(segs);
    return any;
}

/* ---- setup ------------------------------------------------------------------ */

/* 1 + the first parameter an expression depends on (1 when it depends on none). */
static int blame(const Model *m, const Expr *e)
{
    for (int i = 0; i < m->n_params; i++)
        if (expr_depends_on(e, expr_param(m->ex, i)))
            return i + 1;
    return 1;
}

/* Whether a checked value is one parameter's own (named by its index) or
 * a constant (checked by the compiler, never failing at run time): no
 * description for the run's message. */
static bool check_is_param(const Model *m, const Expr *e)
{
    bool any = false;
    for (int i = 0; i < m->n_params; i++) {
        if (e == expr_param(m->ex, i))
            return true;
        any = any || expr_depends_on(e, expr_param(m->ex, i));
    }
    return !any;
}

/* For a check of a value that is not one parameter's (a derived inertia
 * m*l^2), writes what setup leaves for the run's message: what is wrong, its
 * expression and parameters (num->bad_what) and its value (num->bad_value),
 * so a refusal names the inertia, not only the first parameter it mentions. */
static void check_name(Cgen *cg, Expr *e, const char *what, const char *name)
{
    const Model *m = cg->m;
    char *text = NULL;
    size_t len = 0;
    FILE *t = memstream_open(&text, &len);
    fprintf(t, "%s of %s, %s", what, name, expr_to_string(cg->dv->ex, e, EXPR_TEXT, &cg->tnm));
    const char *sep = " (parameters ";
    for (int i = 0; i < m->n_params; i++)
        if (expr_depends_on(e, expr_param(m->ex, i))) {
            fprintf(t, "%s%s", sep, m->params[i].name);
            sep = ", ";
        }
    fputs(*sep == ',' ? ")" : "", t);
    fclose(t);
    fprintf(cg->out, "        num->bad_what = ");
    pstr(cg->out, text);
    free(text);
    fprintf(cg->out, ";\n        num->bad_value = ");
    px(cg, e);
    fprintf(cg->out, ";\n");
}

/* One validity check in setup: `if (!(e OP bound)) return k;`, written once
 * for all the elements it covers (a family's masses share one).  The same
 * check is the same expression (hash-consed: equal content, equal pointer)
 * and the same operator text: the operators are compared by content, as two
 * equal string literals need not be one object (C11 6.4.5p7). */
static void emit_check(Cgen *cg, Expr *e, const char *op, const char *what, const char *name)
{
    FILE *o = cg->out;
    if (!e)
        return;
    for (int k = 0; k < cg->n_checked; k++)
        if (cg->checked[k].e == e && strcmp(cg->checked[k].op, op) == 0)
            return;
    if (cg->n_checked == cg->cap_checked) {
        cg->cap_checked = cg->cap_checked ? 2 * cg->cap_checked : 16;
        void *nc = arena_alloc(cg->dv->arena, (size_t)cg->cap_checked * sizeof *cg->checked);
        if (cg->n_checked)
            memcpy(nc, cg->checked, (size_t)cg->n_checked * sizeof *cg->checked);
        cg->checked = nc;
    }
    cg->checked[cg->n_checked].e = e;
    cg->checked[cg->n_checked++].op = op;
    bool named = check_is_param(cg->m, e);
    fprintf(o, "    if (!(");
    px(cg, e);
    fprintf(o, " %s))%s /* %s of ", op, named ? "" : " {", what);
    pcomment(o, name);
    fprintf(o, " */\n");
    if (!named)
        check_name(cg, e, what, name);
    fprintf(o, "        return %d;\n%s", blame(cg->m, e), named ? "" : "    }\n");
}

/* A check in setup that exponent e of the parameters, of a power of an
 * expression of the positions in gap `name`, is no odd number >= 3 at the
 * run's values: nsmc refuses such a gap written (sema.c's gap_flat_power),
 * and `l*P.phi^nn` with nn = 2 in the model ran at --set nn=3 as a gap
 * that changes sign with zero slope, which no impulse acts along. */
static void emit_check_odd(Cgen *cg, Expr *e, const char *name)
{
    const Model *m = cg->m;
    FILE *o = cg->out;
    char *text = NULL;
    size_t len = 0;
    FILE *t = memstream_open(&text, &len);
    fprintf(t, "exponent %s of gap '%s'", expr_to_string(cg->dv->ex, e, EXPR_TEXT, &cg->tnm), name);
    const char *sep = " (parameters ";
    for (int i = 0; i < m->n_params; i++)
        if (expr_depends_on(e, expr_param(m->ex, i))) {
            fprintf(t, "%s%s", sep, m->params[i].name);
            sep = ", ";
        }
    fprintf(t, "%s: an odd power (3, 5, ...) of an expression of the positions changes sign "
            "with zero slope where that expression is 0, and no impulse can act along it there "
            "(nsmc refuses such a gap written; give an even or first power)", *sep == ',' ? ")" : "");
    fclose(t);
    fprintf(o, "    {   /* the exponent of a power in gap ");
    pcomment(o, name);
    fprintf(o, ": no odd number >= 3 */\n        double odd_pow = ");
    px(cg, e);
    fprintf(o, ";\n        if (odd_pow >= 3 && odd_pow == floor(odd_pow) && fmod(odd_pow, 2) == 1) {\n"
            "            num->bad_what = ");
    pstr(o, text);
    free(text);
    fprintf(o, ";\n            num->bad_value = odd_pow;\n            return %d;\n        }\n    }\n",
            blame(m, e));
}

/* A sparse table of nsm_numeric as a list of entries (nsm/model.h): the
 * rows, then the columns, then the values of its nonzero entries, each a run
 * of lines that rolls into loops.  `name` is "num->K"; returns the count. */
static int lines_entries(Lines *ls, Arena *a, const char *name, int rows, int cols,
                         Expr *(*at)(const void *, int, int, int *), const void *A,
                         bool (*curved)(const Derivation *, int), const Derivation *dv)
{
    const char *rn = arena_printf(a, "%s.row", name), *cn = arena_printf(a, "%s.col", name);
    const char *vn = arena_printf(a, "%s.val", name);
    int count = 0;
    for (int pass = 0; pass < 3; pass++) {
        count = 0;
        for (int i = 0; i < rows; i++)
            for (int k = 0;; k++) {
                int c;
                Expr *v = at(A, i, k, &c);
                if (!v)
                    break;
                /* a curved row lists its pattern (value 0: filled at a state) */
                bool keep = curved && curved(dv, i);
                if (c < 0 || c >= cols || (expr_is_zero(v) && !keep))
                    continue;
                if (pass == 0)
                    lines_int(ls, rn, count, i);
                else if (pass == 1)
                    lines_int(ls, cn, count, c);
                else
                    lines_add(ls, vn, count, v, NULL, NULL, false);
                count++;
            }
    }
    return count;
}

/* Entry k of row i of a DvMat (NULL past its end), its column in *c. */
static Expr *dvmat_at(const void *A, int i, int k, int *c)
{
    const DvMat *M = A;
    if (k >= M->nnz[i])
        return NULL;
    *c = M->col[i][k];
    return M->val[i][k];
}

/* Entry k of row i of the friction elements' Wt: body k's coefficient of
 * element i (NULL past the last body; 0 in a curved row, whose nonzeros
 * are kept as the pattern and valued by nl_slip at a state). */
static Expr *wt_at(const void *A, int i, int k, int *c)
{
    const Derivation *dv = A;
    const Model *m = dv->model;
    if (k >= m->n_bodies)
        return NULL;
    *c = k;
    Expr *w = m->frictions[i].w[k];
    return m->frictions[i].curved && !expr_is_zero(w) ? expr_num(dv->ex, 0) : w;
}

/* Is gap i curved (its row of W valued by nl_gap at a state)? */
static bool w_row_curved(const Derivation *dv, int i)
{
    return dv->model->gaps[i].curve != NULL;
}

/* Is friction element i's slip curved (its row of Wt valued by nl_slip)?
 * Its pattern: the coefficients that are not identically 0. */
static bool wt_row_curved(const Derivation *dv, int i)
{
    return dv->model->frictions[i].curved;
}

/* Whether e is a value of the parameters alone (no t, no state) that is
 * more than one parameter, a number or a parameter times a number of at
 * most 1: such a value can be undefined or infinite at run time (z/z after
 * --set z=0) though every parameter is finite. */
static bool defined_needs_check(const Expr *e)
{
    double c;
    bool scaled = e->kind == EX_MUL && e->nargs == 2 && e->args[1]->kind == EX_PARAM &&
                  expr_is_num(e->args[0], &c) && fabs(c) <= 1;     /* -h: finite too */
    return e->kind != EX_PARAM && e->kind != EX_NUM && !scaled && expr_has_kind(e, EX_PARAM) &&
           !expr_has_kind(e, EX_TIME) && !expr_has_kind(e, EX_VAR);
}

/* Checks in setup that no operand of a min, a max or a comparison in e is
 * undefined: fmin(NaN, 2) is 2 and NaN > 0.5 is false, so `min(z/z, 2)` or
 * `if z/z > 0.5 then ...` at --set z=0 ran on the other value, exit 0,
 * where the source as written gives NaN.  `under`: e is such an operand
 * (or part of one); the first value of the parameters alone found there is
 * checked (NaN fails `>= -INFINITY`), the rest of e searched further. */
static void emit_check_defined(Cgen *cg, Expr *e, bool under, const char *name)
{
    if (!e)
        return;
    if (under && defined_needs_check(e)) {
        emit_check(cg, e, ">= -INFINITY", "operand of a min, max or comparison", name);
        return;
    }
    bool kink = e->kind == EX_CMP || (e->kind == EX_CALL && (e->op == FN_MIN || e->op == FN_MAX));
    for (int i = 0; i < e->nargs; i++)
        emit_check_defined(cg, e->args[i], under || kink, name);
}

/* A gap's slope or offset of the parameters (not one parameter, which is
 * finite) must be finite at run time: z/z at --set z=0 made the gap NaN,
 * which never reaches 0 (the body went through the floor, exit 0). */
static void emit_check_finite(Cgen *cg, Expr *e, const char *what, const char *name)
{
    if (!e || !defined_needs_check(e))
        return;
    emit_check(cg, e, "> -INFINITY", what, name);
    emit_check(cg, e, "< INFINITY", what, name);
}

/* emit_check_defined over every expression of the parameters, time or
 * state that the generated code evaluates while it runs: masses, springs,
 * forces, gaps and their laws, friction elements, gravity, initial values,
 * the end time, step and output period, output columns and energies. */
static void emit_checks_defined(Cgen *cg)
{
    const Model *m = cg->m;
    Arena *a = cg->dv->arena;
    for (int i = 0; i < m->n_bodies; i++) {
        emit_check_defined(cg, m->bodies[i].mass, false, m->bodies[i].name);
        emit_check_defined(cg, m->init_x[i], false, arena_printf(a, "init of %s", m->bodies[i].name));
        emit_check_defined(cg, m->init_v[i], false, arena_printf(a, "init of %s", m->bodies[i].name));
    }
    for (int s = 0; s < m->n_springs; s++) {
        const Spring *sp = &m->springs[s];
        const char *nm = sp->name ? sp->name : "a spring";
        emit_check_defined(cg, sp->k, false, nm);
        emit_check_defined(cg, sp->c, false, nm);
        emit_check_defined(cg, sp->rest, false, nm);
    }
    for (int f = 0; f < m->n_forces; f++) {
        const Force *fo = &m->forces[f];
        const char *nm = fo->name ? fo->name
                         : arena_printf(a, "the force on %s", m->bodies[fo->body].name);
        emit_check_defined(cg, fo->value, false, nm);
    }
    for (int j = 0; j < m->n_gaps; j++) {
        const Gap *gp = &m->gaps[j];
        Expr *const parts[] = {gp->d, gp->h, gp->e, gp->k, gp->c, gp->pexp, gp->istiff, gp->iexp,
                               gp->curve};
        for (size_t i = 0; i < sizeof parts / sizeof *parts; i++)
            emit_check_defined(cg, parts[i], false, gp->name);
        for (int i = 0; i < gp->n_w; i++) {
            emit_check_defined(cg, gp->w[i], false, gp->name);
            if (!gp->curve)
                emit_check_finite(cg, gp->w[i], "slope", gp->name);
        }
        if (!gp->curve)
            emit_check_finite(cg, gp->d, "offset", gp->name);
    }
    for (int k = 0; k < m->n_frictions; k++) {
        const Friction *fr = &m->frictions[k];
        Expr *const parts[] = {fr->u, fr->mus, fr->muk, fr->normal, fr->et};
        for (size_t i = 0; i < sizeof parts / sizeof *parts; i++)
            emit_check_defined(cg, parts[i], false, fr->name);
        for (int i = 0; i < m->n_bodies && fr->w; i++)
            emit_check_defined(cg, fr->w[i], false, fr->name);
    }
    emit_check_defined(cg, m->gravity, false, "gravity");
    emit_check_defined(cg, m->t_end_e, false, "simulate");
    emit_check_defined(cg, m->dt_e, false, "simulate");
    emit_check_defined(cg, m->every_e, false, "output");
    for (int k = 0; k < m->n_outputs; k++)
        emit_check_defined(cg, m->outputs[k].value, false, m->outputs[k].name);
    emit_check_defined(cg, m->kinetic, false, "kinetic energy");
    emit_check_defined(cg, m->potential, false, "potential energy");
}

/* setup's numbers of the spatial friction elements (nsm_numeric's sf_*):
 * the sphere's centre and radius, the plane's unit normal, mu, et and the
 * drilling radius, written only when the runtime allocated them (a runtime
 * that predates them leaves sf_mu NULL and refuses the elements by name). */
static void emit_sfric_setup(Cgen *cg)
{
    const Model *m = cg->m;
    FILE *o = cg->out;
    if (!m->n_sfrics)
        return;
    fprintf(o, "    if (num->sf_mu) {   /* spatial friction: sphere, plane, mu, et, drilling radius */\n");
    for (int b = 0; b < m->n_rigids; b++)
        if (m->rigids[b].tilt && expr_has_kind(m->rigids[b].tilt, EX_PARAM))
            emit_check(cg, expr_call(cg->dv->ex, FN_ABS, m->rigids[b].tilt, NULL),
                       "< " RIGID_TEXT(RIGID_TILT_MAX), "tilt angle", m->rigids[b].name);
    for (int k = 0; k < m->n_sfrics; k++) {
        const SpaceFriction *sf = &m->sfrics[k];
        const Sphere *sp = m->gaps[sf->gap].sphere;
        Expr *const vals[] = {sp->radius, sf->mu, sf->et, sf->drill};
        static const char *const arr[] = {"sf_radius", "sf_mu", "sf_et", "sf_drill"};
        fprintf(o, "        /* %s at %s */\n", sf->name, m->gaps[sf->gap].name);
        for (int i = 0; i < 3; i++) {
            fprintf(o, "        num->sf_centre[%d] = ", 3 * k + i);
            px(cg, sp->centre[i]);
            fprintf(o, ";\n        num->sf_normal[%d] = ", 3 * k + i);
            px(cg, sp->normal[i]);
            fprintf(o, ";\n");
        }
        for (int i = 0; i < 4; i++) {
            fprintf(o, "        num->%s[%d] = ", arr[i], k);
            if (vals[i])
                px(cg, vals[i]);
            else
                fprintf(o, "0");
            fprintf(o, ";\n");
        }
    }
    fprintf(o, "    }\n");
}

/* The body of setup(): parameter checks, hoisted constants and the
 * numeric tables; returns whether it holds a loop. */
static bool setup_body(Cgen *cg)
{
    const Derivation *dv = cg->dv;
    const Model *m = cg->m;
    FILE *o = cg->out;
    int n = dv->n, g = dv->g;
    bool loops = false;
    for (int i = 0; i < n; i++)
        emit_check(cg, m->bodies[i].mass, "> 0",
                   m->bodies[i].coord == COORD_PHI ? "inertia" : "mass", m->bodies[i].name);
    for (int s = 0; s < m->n_springs; s++) {
        const char *nm = m->springs[s].name ? m->springs[s].name : "a spring";
        emit_check(cg, m->springs[s].k, ">= 0", "stiffness", nm);
        emit_check(cg, m->springs[s].c, ">= 0", "damping", nm);
    }
    for (int j = 0; j < g; j++) {
        const Gap *gp = &m->gaps[j];
        if (gp->law->constraint) {
            emit_check(cg, gp->e, ">= 0", "restitution", gp->name);
            emit_check(cg, gp->e, "<= 1", "restitution", gp->name);
            /* the energetic law's stiffness and exponent: out of range
             * after --set, they ran to the first impact, then "no solution" */
            emit_check(cg, gp->istiff, "> 0", "contact stiffness", gp->name);
            emit_check(cg, gp->iexp, ">= 1", "impact exponent", gp->name);
            emit_check(cg, gp->iexp, "<= 10", "impact exponent", gp->name);
        } else {
            emit_check(cg, gp->k, "> 0", "contact stiffness", gp->name);
            emit_check(cg, gp->c, ">= 0", "contact damping", gp->name);
            if (gp->pexp) {     /* [1, 16] as the compiler's own check of a written value:
                                 * 300 by --set overflowed taylor's step bounds */
                emit_check(cg, gp->pexp, ">= 1", "penalty exponent", gp->name);
                emit_check(cg, gp->pexp, "<= 16", "penalty exponent", gp->name);
            }
        }
    }
    for (int j = 0; j < g; j++)
        for (int k = 0; k < m->gaps[j].n_flat_exp; k++)
            emit_check_odd(cg, m->gaps[j].flat_exp[k], m->gaps[j].name);
    if (m->gravity)
        emit_check(cg, m->gravity, ">= 0", "acceleration", "gravity");
    for (int k = 0; k < m->n_planars; k++)
        if (m->planars[k].radius && expr_has_kind(m->planars[k].radius, EX_PARAM))
            emit_check(cg, m->planars[k].radius, "> 0", "radius", m->planars[k].name);
    for (int k = 0; k < m->n_walls; k++) {
        /* a normal (0, 0) after --set: its normalised components are NaN */
        const Wall *w = &m->walls[k];
        Expr *len2 = expr_add(cg->dv->ex, expr_mul(cg->dv->ex, w->nx, w->nx),
                              expr_mul(cg->dv->ex, w->ny, w->ny));
        if (expr_has_kind(len2, EX_PARAM))
            emit_check(cg, len2, "> 0", "normal", w->name);
    }
    for (int j = 0; j < m->n_gaps; j++) {
        /* a sphere's radius, and its plane's normal: (0, 0, 0) after --set is NaN */
        const Sphere *sp = m->gaps[j].sphere;
        if (!sp)
            continue;
        emit_check(cg, sp->radius, "> 0", "sphere's radius", m->gaps[j].name);
        Expr *len2 = expr_num(cg->dv->ex, 0);
        for (int i = 0; i < 3; i++)
            len2 = expr_add(cg->dv->ex, len2, expr_mul(cg->dv->ex, sp->normal[i], sp->normal[i]));
        if (expr_has_kind(len2, EX_PARAM))
            emit_check(cg, len2, "> 0", "plane's normal", sp->plane);
    }
    for (int k = 0; k < m->n_sfrics; k++) {
        const SpaceFriction *sf = &m->sfrics[k];
        emit_check(cg, sf->mu, ">= 0", "coefficient", sf->name);
        emit_check(cg, sf->et, ">= 0", "tangential restitution", sf->name);
        emit_check(cg, sf->et, "<= 1", "tangential restitution", sf->name);
        emit_check(cg, sf->drill, ">= 0", "drilling radius", sf->name);
    }
    for (int k = 0; k < m->n_frictions; k++) {
        const Friction *fr = &m->frictions[k];
        emit_check(cg, fr->muk, ">= 0", "kinetic coefficient", fr->name);
        emit_check(cg, expr_sub(m->ex, fr->mus, fr->muk), ">= 0", "static minus kinetic coefficient",
                   fr->name);
        emit_check(cg, fr->normal, "> 0", "normal force", fr->name);
        if (fr->et && expr_has_kind(fr->et, EX_PARAM)) {
            emit_check(cg, fr->et, ">= 0", "tangential restitution", fr->name);
            emit_check(cg, fr->et, "<= 1", "tangential restitution", fr->name);
        }
    }
    emit_checks_defined(cg);
    Lines ls = {0};
    if (dv->n_consts)
        fprintf(o, "\n    /* hoisted constants */\n");
    for (int k = 0; k < dv->n_consts; k++)
        lines_add(&ls, "c", k, dv->consts[k].value, dv->consts[k].what, NULL, true);
    loops |= lines_flush(cg, &ls, "    ");
    fprintf(o, "\n    /* numeric ingredients for the runtime's generic paths */\n");
    for (int i = 0; i < n; i++) {
        lines_add(&ls, "num->mass", i, dv->mass[i], NULL, NULL, false);
        lines_add(&ls, "num->fconst", i, dv->fconst[i], NULL, NULL, false);
    }
    loops |= lines_flush(cg, &ls, "    ");
    /* the sparse tables, entry by entry: row, column, value */
    Arena *ar = dv->arena;
    cg->nnz_K = lines_entries(&ls, ar, "num->K", n, n, dvmat_at, dv->K, NULL, dv);
    cg->nnz_C = lines_entries(&ls, ar, "num->C", n, n, dvmat_at, dv->C, NULL, dv);
    cg->nnz_W = lines_entries(&ls, ar, "num->W", g, n, dvmat_at, dv->W,
                              dv->nl ? w_row_curved : NULL, dv);
    cg->nnz_Wt = lines_entries(&ls, ar, "num->Wt", m->n_frictions, n, wt_at, dv,
                               (dv->nl & NL_SLIP) ? wt_row_curved : NULL, dv);
    loops |= lines_flush(cg, &ls, "    ");
    Expr *zero = expr_num(dv->ex, 0);
    for (int j = 0; j < g; j++) {
        const Gap *gp = &m->gaps[j];
        lines_add(&ls, "num->d", j, dv->d[j], NULL, NULL, false);
        lines_add(&ls, "num->e", j, gp->law->constraint && gp->e ? gp->e : zero, NULL, NULL, false);
        lines_add(&ls, "num->kc", j, !gp->law->constraint && gp->k ? gp->k : zero, NULL, NULL, false);
        lines_add(&ls, "num->cc", j, !gp->law->constraint && gp->c ? gp->c : zero, NULL, NULL, false);
    }
    for (int j = 0; j < g && m->impact_law == IMPACT_ENERGETIC; j++) {
        const Gap *gp = &m->gaps[j];
        if (!gp->law->constraint || !gp->istiff)
            continue;
        lines_add(&ls, "num->kimp", j, gp->istiff, NULL, NULL, false);
        if (gp->iexp)
            lines_add(&ls, "num->eimp", j, gp->iexp, NULL, NULL, false);
    }
    for (int k = 0; k < m->n_springs; k++) {
        const Spring *sp = &m->springs[k];
        lines_add(&ls, "num->sk", k, sp->k ? sp->k : zero, NULL, NULL, false);
        lines_add(&ls, "num->sc", k, sp->c ? sp->c : zero, NULL, NULL, false);
        lines_add(&ls, "num->srest", k, sp->rest ? sp->rest : zero, NULL, NULL, false);
    }
    loops |= lines_flush(cg, &ls, "    ");
    for (int j = 0; j < g; j++)
        if (m->gaps[j].pexp)
            lines_add(&ls, "num->pexp", j, m->gaps[j].pexp, NULL,
                      "penalty exponents: the engaged force is k p^pexp + c p'", false);
    loops |= lines_flush(cg, &ls, "    ");
    free(ls.v);
    for (int k = 0; k < m->n_frictions; k++) {
        const Friction *fr = &m->frictions[k];
        fprintf(o, "    /* friction ");
        pcomment(o, fr->name);
        fprintf(o, " */\n");
        fprintf(o, "    num->ut[%d] = ", k);
        px(cg, fr->u);
        fprintf(o, ";\n    num->fn[%d] = ", k);
        if (fr->normal)
            px(cg, fr->normal);
        else
            fprintf(o, "0");
        fprintf(o, ";\n    num->mus[%d] = ", k);
        px(cg, fr->mus);
        fprintf(o, ";\n    num->muk[%d] = ", k);
        px(cg, fr->muk);
        fprintf(o, ";\n");
        if (fr->et) {
            fprintf(o, "    num->et[%d] = ", k);
            px(cg, fr->et);
            fprintf(o, ";\n");
        }
    }
    fprintf(o, "    num->gravity = ");
    if (m->gravity)
        px(cg, m->gravity);
    else
        fprintf(o, "0");
    fprintf(o, ";\n");
    if (m->n_rigids) {
        fprintf(o, "    /* bodies in space: minus gravity's direction per coordinate (0 on w) */\n");
        for (int i = 0; i < n; i++) {
            fprintf(o, "    num->gfac[%d] = ", i);
            px(cg, m->bodies[i].gfac);
            fprintf(o, ";\n");
        }
    }
    emit_sfric_setup(cg);
    if (m->n_planars) {
        fprintf(o, "    /* planar bodies: gravity's share per coordinate, radii */\n");
        for (int i = 0; i < n; i++) {
            fprintf(o, "    num->gfac[%d] = ", i);
            if (m->bodies[i].gfac)
                px(cg, m->bodies[i].gfac);
            else
                fprintf(o, "1");
            fprintf(o, ";\n");
        }
        for (int k = 0; k < m->n_planars; k++) {
            fprintf(o, "    num->radius[%d] = ", k);
            if (m->planars[k].radius)
                px(cg, m->planars[k].radius);
            else
                fprintf(o, "0");
            fprintf(o, ";\n");
        }
    }
    fprintf(o, "    return 0;\n");
    return loops;
}

/* Writes a function: its comment and signature, then its body as `body`
 * writes it, with the loop counter `int i;` declared only when the body
 * has a loop (no unused local). */
static void emit_function(Cgen *cg, const char *doc, const char *sig, bool (*body)(Cgen *))
{
    FILE *out = cg->out;
    char *text = NULL;
    size_t len = 0;
    FILE *o = memstream_open(&text, &len);
    cg->out = o;
    bool loops = body(cg);
    cg->out = out;
    fclose(o);
    fprintf(out, "/* %s */\nstatic %s\n{\n%s", doc, sig, loops ? "    int i;\n" : "");
    fwrite(text, 1, len, out);
    fprintf(out, "}\n\n");
    free(text);
}

/* setup(): parameter checks, hoisted constants and the numeric tables. */
static void emit_setup(Cgen *cg)
{
    emit_function(cg, "Checks the parameters, derives the constants c[] and the numeric tables.",
                  "int setup(const double *p, double *c, nsm_numeric *num)", setup_body);
}

/* ---- initial state and forces ---------------------------------------------- */

/* The body of initial(): every state from the `init` statements (0 when
 * not given); returns whether it holds a loop. */
static bool initial_body(Cgen *cg)
{
    const Model *m = cg->m;
    int n = cg->dv->n, nq = m->n_rigids ? m->nq : n;
    Lines ls = {0};
    for (int i = 0; i < n; i++) {
        lines_add(&ls, "y", i, m->init_x && m->init_x[i] ? m->init_x[i] : expr_num(m->ex, 0),
                  NULL, NULL, false);
        lines_add(&ls, "y", nq + i, m->init_v && m->init_v[i] ? m->init_v[i] : expr_num(m->ex, 0),
                  NULL, NULL, false);
    }
    for (int b = 0; b < m->n_rigids; b++)   /* each quaternion's p0 */
        lines_add(&ls, "y", n + b, m->rigids[b].p[0], NULL, NULL, false);
    bool loops = lines_flush(cg, &ls, "    ");
    free(ls.v);
    return loops;
}

/* initial(): the initial state. */
static void emit_initial(Cgen *cg)
{
    emit_function(cg, "Initial state from the `init` statements.",
                  "void initial(const double *p, const double *c, double *y)", initial_body);
}

/* Are all n expressions f[] zero (a model without forcing, a constant one's
 * derivative)? */
static bool all_zero(Expr **f, int n)
{
    for (int i = 0; i < n; i++)
        if (f && f[i] && !expr_is_zero(f[i]))
            return false;
    return true;
}

/* force() or force_dot(): one line per body; nothing when every line is 0
 * (the table's entry is then NULL). */
static void emit_force_fn(Cgen *cg, const char *name, const char *doc, Expr **f)
{
    FILE *o = cg->out;
    if (all_zero(f, cg->dv->n))
        return;
    fprintf(o, "/* %s */\n", doc);
    fprintf(o, "static void %s(double t, const int *sw, const double *p, const double *c, double *f)\n{\n", name);
    Lines ls = {0};
    for (int i = 0; i < cg->dv->n; i++)
        lines_add(&ls, "f", i, f[i], NULL, NULL, false);
    fprintf(o, "%s", lines_roll(cg, &ls) ? "    int i;\n" : "");
    lines_flush(cg, &ls, "    ");
    free(ls.v);
    fprintf(o, "}\n\n");
}

/* force_terms(): one line per `force` statement, for the energy audit's
 * work of each force. */
static void emit_force_terms(Cgen *cg)
{
    const Model *m = cg->m;
    FILE *o = cg->out;
    if (!m->n_forces)
        return;
    fprintf(o, "/* The `force` statements one by one (work of each force in the energy audit). */\n");
    fprintf(o, "static void force_terms(double t, const int *sw, const double *p, const double *c, double *fk)\n{\n");
    Roll *r = roll_new(cg->dv->arena);
    for (int k = 0; k < m->n_forces; k++)
        roll_add(r, NULL, arena_printf(cg->dv->arena, "fk[%d] = %s;", k, c_text(cg, cg->dv->force_each[k])),
                 NULL);
    roll_write(r, o, "    ");
    fprintf(o, "}\n\n");
}

/* ---- modes -------------------------------------------------------------------- */

static const char *ev_doc(const Model *m, unsigned mask, int j)
{
    const Gap *gp = &m->gaps[j];
    switch (gp->law->event(gp, dv_closed(mask, j))) {
    case LAW_EV_GAP: return "open: s = gap, s' = w.v";
    case LAW_EV_GAP_OR_FORCE: return "open, force release: s = max(gap, k gap + c gap')";
    case LAW_EV_LAMBDA: return "held shut: s = lambda, s' = lambda' (below)";
    case LAW_EV_FORCE: return "engaged: s = k p + c p', s' = k p' + c p''";
    case LAW_EV_PENETRATION: break;
    }
    return "engaged: s = p = -gap, s' = -w.v";
}

/* The bit of gap j in word 0 of a mode, as C: "4u". */
static const char *gap_bit(const Cgen *cg, int j)
{
    return arena_printf(cg->dv->arena, "%uu", 1u << j);
}

/* Writes `dst[index] += term;`, or `-=` and the term negated when the term
 * reads as a negation (a - b rounds like a + (-b)). */
static void emit_add(Cgen *cg, const char *indent, const char *dst, long index, Expr *term)
{
    ExprCtx *x = cg->dv->ex;
    const char *pos = expr_to_string(x, term, EXPR_C, &cg->nm);
    const char *neg = expr_to_string(x, expr_neg(x, term), EXPR_C, &cg->nm);
    bool minus = pos[0] == '-' && neg[0] != '-';
    fprintf(cg->out, "%s%s[%ld] %s %s;\n", indent, dst, index, minus ? "-=" : "+=", minus ? neg : pos);
}

/* dst[i] += w_ji v for every body i of gap j's row: a force or
 * acceleration correction of gap j (inv: times 1/m_i as well). */
static void emit_gap_adds(Cgen *cg, const char *indent, const char *dst, int j, Expr *v, bool inv)
{
    const Derivation *dv = cg->dv;
    const DvMat *W = j < dv->g ? dv->W : dv->Wc;     /* a stuck element's row: Wc */
    for (int k = 0; k < W->nnz[j]; k++) {
        if (expr_is_zero(W->val[j][k]))
            continue;
        int i = W->col[j][k];
        Expr *t = expr_mul(dv->ex, W->val[j][k], v);
        emit_add(cg, indent, dst, i, inv ? expr_mul(dv->ex, t, dv->invm[i]) : t);
    }
}

/* The bit of friction element k in word 0 of a mode, as C: its stuck bit
 * (back 0) or its slipping-backwards bit (back 1). */
static const char *fric_bit(const Cgen *cg, int k, int back)
{
    return arena_printf(cg->dv->arena, "%uu", 1u << (cg->dv->g + 2 * k + back));
}

/* The bit of held row r (a gap, or g + a stuck element) in word 0. */
static const char *row_bit(const Cgen *cg, int r)
{
    return arena_printf(cg->dv->arena, "%uu", dv_row_bit(cg->dv, r));
}

/* F += -s mu_k N w_t for every slipping friction element with a constant
 * normal load N (s = -1 while its backward bit is set): constants. */
static void emit_slip_forces(Cgen *cg)
{
    const Derivation *dv = cg->dv;
    const Model *m = cg->m;
    FILE *o = cg->out;
    for (int k = 0; k < m->n_frictions; k++) {
        if (m->frictions[k].normal_gap >= 0)
            continue;       /* in its gap's force direction (emit_pressed_slips) */
        const char *f = c_text(cg, dv->fslip[k]);
        fprintf(o, "    if (!(m & %s)) { /* ", fric_bit(cg, k, 0));
        pcomment(o, m->frictions[k].name);
        fprintf(o, " slipping: F += -s mu_k N w_t, s = -1 backwards (%s) */\n"
                   "        const double f = m & %s ? %s : -%s;\n",
                fric_bit(cg, k, 1), fric_bit(cg, k, 1), f, f);
        for (int i = 0; i < dv->n; i++) {
            Expr *w = m->frictions[k].w[i];
            double wv;
            if (expr_is_zero(w))
                continue;
            if (expr_is_num(w, &wv) && (wv == 1 || wv == -1))
                fprintf(o, "        F[%d] %s f;\n", i, wv > 0 ? "+=" : "-=");
            else
                fprintf(o, "        F[%d] += (%s) * f;\n", i, c_text(cg, w));
        }
        fprintf(o, "    }\n");
    }
}

/* a += M^-1 w_t (-s mu_k lambda_j) for every element pressed by held gap
 * j's force and slipping on it: the part of j's force direction d_j
 * that its elements' slip forces add to w_j. */
static void emit_pressed_slips(Cgen *cg, int j, const char *indent)
{
    const Derivation *dv = cg->dv;
    const Model *m = cg->m;
    ExprCtx *x = dv->ex;
    FILE *o = cg->out;
    for (int k = 0; k < m->n_frictions; k++) {
        if (m->frictions[k].normal_gap != j)
            continue;
        const char *f = c_text(cg, expr_mul(x, dv->fslip[k], dv->lam[j]));
        fprintf(o, "%sif (!(m & %s)) { /* ", indent, fric_bit(cg, k, 0));
        pcomment(o, m->frictions[k].name);
        fprintf(o, " slipping on it: a += M^-1 w_t f, f = -s mu_k lambda, s = -1 backwards (%s) */\n"
                   "%s    const double f = m & %s ? %s : -(%s);\n",
                fric_bit(cg, k, 1), indent, fric_bit(cg, k, 1), f, f);
        for (int i = 0; i < dv->n; i++) {
            Expr *w = m->frictions[k].w[i];
            if (!expr_is_zero(w))
                fprintf(o, "%s    a[%d] += %s * f;\n", indent, i,
                        c_text(cg, expr_mul(x, w, dv->invm[i])));
        }
        fprintf(o, "%s}\n", indent);
    }
}

/* The friction elements' event functions (nsm/model.h, g + 2k and
 * g + 2k + 1): stuck, mu_s N - L and mu_s N + L (their rates with the
 * held rows' below); slipping, s (w_t . v - u) with its rate s w_t . a,
 * and the constant 1. */
static bool emit_fric_events(Cgen *cg, Lines *ls)
{
    const Derivation *dv = cg->dv;
    const Model *m = cg->m;
    ExprCtx *x = dv->ex;
    FILE *o = cg->out;
    int g = dv->g;
    bool loops = false;
    for (int k = 0; k < m->n_frictions; k++) {
        const Friction *fr = &m->frictions[k];
        Expr *slip = expr_neg(x, fr->u ? fr->u : expr_num(x, 0)), *rate = expr_num(x, 0);
        for (int i = 0; i < dv->n; i++) {
            slip = expr_add(x, slip, expr_mul(x, fr->w[i], dv->v[i]));
            rate = expr_add(x, rate, expr_mul(x, fr->w[i], dv->acc[i]));
        }
        int j = fr->normal_gap;
        Expr *cone = j >= 0 ? expr_mul(x, dv->fcone[k], dv->lam[j]) : dv->fcone[k];
        if (j >= 0) {
            fprintf(o, "        if (!(m & %s)) { /* ", gap_bit(cg, j));
            pcomment(o, fr->name);
            fprintf(o, " idle, its gap open: s = 1, 1 */\n");
            for (int e = 0; e < 2; e++) {
                lines_add(ls, "s", g + 2 * k + e, expr_num(x, 1), NULL, NULL, false);
                lines_add(ls, "sdot", g + 2 * k + e, expr_num(x, 0), NULL, NULL, false);
            }
            loops |= lines_flush(cg, ls, "            ");
        }
        fprintf(o, "        %sif (m & %s) { /* ", j >= 0 ? "} else " : "", fric_bit(cg, k, 0));
        pcomment(o, fr->name);
        fprintf(o, " stuck: s = mu_s N - L, mu_s N + L%s */\n", j >= 0 ? ", N = lambda of its gap" : "");
        lines_add(ls, "s", g + 2 * k, expr_sub(x, cone, dv->lam[g + k]), NULL, NULL, false);
        lines_add(ls, "s", g + 2 * k + 1, expr_add(x, cone, dv->lam[g + k]), NULL, NULL, false);
        loops |= lines_flush(cg, ls, "            ");
        fprintf(o, "        } else { /* slipping: s = w_t . v - u, s' = w_t . a, negated backwards; 1 */\n");
        lines_add(ls, "s", g + 2 * k, slip, NULL, NULL, false);
        lines_add(ls, "sdot", g + 2 * k, rate, NULL, NULL, false);
        lines_add(ls, "s", g + 2 * k + 1, expr_num(x, 1), NULL, NULL, false);
        lines_add(ls, "sdot", g + 2 * k + 1, expr_num(x, 0), NULL, NULL, false);
        loops |= lines_flush(cg, ls, "            ");
        fprintf(o, "            if (m & %s) {\n"
                   "                s[%d] = -s[%d];\n                sdot[%d] = -sdot[%d];\n"
                   "            }\n        }\n",
                fric_bit(cg, k, 1), g + 2 * k, g + 2 * k, g + 2 * k, g + 2 * k);
    }
    return loops;
}

/* The position of held row j in the set hs, or -1. */
static int held_pos(const DvHeldSet *hs, int j)
{
    for (int a = 0; a < hs->r; a++)
        if (hs->rows[a] == j)
            return a;
    return -1;
}

/* The rates of set hs's event functions into the lines: a held gap's
 * s' = L'; a stuck element's -L', L' (with mu_s lambda_G' of its gap G
 * when G's force presses it; nothing while G is open: it is idle). */
static void held_rates(Cgen *cg, const DvHeldSet *hs, Lines *ls)
{
    const Derivation *dv = cg->dv;
    ExprCtx *x = dv->ex;
    int g = dv->g;
    for (int a = 0; a < hs->r; a++) {
        int j = hs->rows[a];
        if (j < g) {
            lines_add(ls, "sdot", j, hs->lamd_u[a], NULL, NULL, false);
            continue;
        }
        int G = cg->m->frictions[j - g].normal_gap, b = G >= 0 ? held_pos(hs, G) : -1;
        if (G >= 0 && b < 0)
            continue;
        Expr *cone = b >= 0 ? expr_mul(x, dv->fcone[j - g], hs->lamd_u[b]) : expr_num(x, 0);
        lines_add(ls, "sdot", g + 2 * (j - g), expr_sub(x, cone, hs->lamd_u[a]), NULL, NULL, false);
        lines_add(ls, "sdot", g + 2 * (j - g) + 1, expr_add(x, cone, hs->lamd_u[a]), NULL, NULL, false);
    }
}

/* The systems of held rows (gaps held shut, stuck elements, and the signs
 * of the elements slipping on the held gaps' forces: DvHeldSet), each with
 * lines assigning its multipliers, or their rates into the event
 * functions' (deriv).  sel: the switch's selector ("m & 5u", or h, the
 * key modes() computes when elements are pressed by gaps).  A system
 * singular at the parameters' defaults, or at the run's (1/det A not
 * finite), is left to the runtime's generic path.  Returns whether a loop
 * was written (the function then declares its index). */
static bool emit_held_sets(Cgen *cg, const char *sel, bool deriv, const char *indent)
{
    const Derivation *dv = cg->dv;
    FILE *o = cg->out;
    Lines ls = {0};
    bool loops = false;
    const char *in2 = arena_printf(dv->arena, "%s    ", indent);
    fprintf(o, "%sswitch (%s) {\n", indent, sel);
    for (int q = 0; q < dv->n_fsys; q++) {
        const DvHeldSet *hs = &dv->fsys[q];
        if (deriv && hs->singular)
            continue;
        fprintf(o, "%scase %uu: /* ", indent, hs->word);
        pcomment(o, hs->label);
        fprintf(o, " */\n");
        const DvHeldSet *next = q + 1 < dv->n_fsys ? &dv->fsys[q + 1] : NULL;
        if (next && next->key == hs->key && next->Sinv == hs->Sinv && !hs->singular)
            continue;       /* the same system: the slip forces leave the held rows alone */
        if (hs->singular) {
            fprintf(o, "%sreturn NSM_NOT_DERIVED; /* singular at the defaults: the runtime's */\n", in2);
            continue;
        }
        if (!deriv && hs->guard)
            fprintf(o, "%sif (!isfinite(%s)) /* 1/det A: singular here, the runtime's */\n"
                       "%s    return NSM_NOT_DERIVED;\n", in2, c_text(cg, hs->guard), in2);
        if (deriv)
            held_rates(cg, hs, &ls);
        else
            for (int a = 0; a < hs->r; a++)
                lines_local(cg, &ls, dv->v_lam + hs->rows[a], hs->lam_u[a]);
        loops |= lines_flush(cg, &ls, in2);
        fprintf(o, "%sbreak;\n", in2);
    }
    fprintf(o, "%s}\n", indent);
    free(ls.v);
    return loops;
}

/* Prints the mode's label and story, e.g. "{C closed}: M1 and M2 stuck". */
static void mode_title(Cgen *cg, const DvMode *md)
{
    pcomment(cg->out, md->label);
    fprintf(cg->out, ": ");
    pcomment(cg->out, md->story);
}

/* The comment over a closed set's contact forces: its modes' story, and
 * each force written out when it reads in one line and is not 0. */
static void closed_set_comment(Cgen *cg, const DvMode *md, const char *indent)
{
    const Derivation *dv = cg->dv;
    FILE *o = cg->out;
    int r = md->n_impact;
    fprintf(o, "%scase %uu: /* ", indent, md->mask);
    mode_title(cg, md);
    for (int k = 0; k < r; k++) {
        int j = md->impact[k];
        Expr *l = dv_pretty(dv, dv_expand_consts(dv, dv_full(dv, md, dv->lam[j])));
        char *txt = expr_to_string(dv->ex, l, EXPR_TEXT, &cg->tnm);
        if (strlen(txt) > 160 || expr_is_zero(l))
            continue;
        fprintf(o, ";\n%s   lambda_", indent);
        pcomment(o, cg->m->gaps[j].name);
        fprintf(o, " = ");
        pcomment(o, txt);
    }
    fprintf(o, " */\n");
}

/* The closed impact sets R (modes whose closed gaps are all impact gaps),
 * each with lines assigning its contact forces or their derivatives.
 * Returns whether a loop was written. */
static bool emit_closed_sets(Cgen *cg, unsigned imask, bool deriv, const char *indent)
{
    const Derivation *dv = cg->dv;
    FILE *o = cg->out;
    Lines ls = {0};
    bool loops = false;
    const char *in2 = arena_printf(dv->arena, "%s    ", indent);
    fprintf(o, "%sswitch (m & %uu) {\n", indent, imask);
    for (int k = 1; k < dv->n_modes; k++) {
        const DvMode *md = &dv->modes[k];
        if ((md->mask & ~imask) || md->status != DV_MODE_DERIVED)
            continue;
        if (deriv) {
            fprintf(o, "%scase %uu: /* ", indent, md->mask);
            pcomment(o, md->label);
            fprintf(o, " */\n");
        } else {
            closed_set_comment(cg, md, indent);
        }
        for (int a = 0; a < md->n_impact; a++) {
            int j = md->impact[a];
            if (deriv)
                lines_add(&ls, "sdot", j, md->lamd_u[a], NULL, NULL, false);
            else
                lines_local(cg, &ls, dv->v_lam + j, md->lam_u[a]);
        }
        loops |= lines_flush(cg, &ls, in2);
        fprintf(o, "%sbreak;\n", in2);
    }
    fprintf(o, "%s}\n", indent);
    free(ls.v);
    return loops;
}

/* The friction part of modes()'s header comment, and its sets of held rows. */
static void fric_comment(Cgen *cg)
{
    const Derivation *dv = cg->dv;
    FILE *o = cg->out;
    fprintf(o, " * Friction element k (bit g + 2k: stuck, g + 2k + 1: slipping backwards):\n"
               " *   slipping: F += -s mu_k N w_t, s = 1 (-1 backwards); s = s (w_t . v - u) and 1\n"
               " *   stuck: w_t . a = 0, a row beside the held gaps' with its multiplier L_k\n"
               " *          (lambda_R above over the rows R); s = mu_s N - L_k and mu_s N + L_k\n");
    if (dv->fgap)
        fprintf(o, " *   pressed by gap j (N = lambda_j): idle while j is open (s = 1, 1); slipping on\n"
                   " *          a held j, its force -s mu_k lambda_j w_t acts along with w_j, so the\n"
                   " *          held rows solve A_R lambda_R = -u_R, A_R = W_R M^-1 D_R^T, D_R the\n"
                   " *          rows' force directions (w_j - s mu_k w_t): one system per slip sign\n");
    fprintf(o, " * The sets of held rows:\n");
    for (unsigned key = 0; key < 1u << dv->n_rows; key++) {
        const DvHeldSet *hs = &dv->held[key];
        if (!hs->rows)
            continue;
        fprintf(o, " *   %u ", hs->word);
        pcomment(o, hs->label);
        fprintf(o, "%s\n", hs->admissible ? "" : " (dependent rows: left to the runtime's generic path)");
    }
    fprintf(o, " */\n");
}

/* The header comment of modes(): the equations and the modes written out. */
static void modes_comment(Cgen *cg, unsigned imask, unsigned pmask)
{
    const Derivation *dv = cg->dv;
    FILE *o = cg->out;
    fprintf(o, "/* Every mode (bit j of m set: gap j closed) as the free mode and its corrections:\n"
               " *   F = f_ext(t) + f_const - K x - C v          the free mode's net forces\n");
    if (pmask)
        fprintf(o, " *   F += w_j lambda_j                           engaged penalty gap j:"
                   " lambda_j = k_j p + c_j p', p = -gap_j\n");
    fprintf(o, " *   a = M^-1 F\n");
    if (imask)
        fprintf(o, " *   lambda_R = -S_R^-1 u_R, u_j = w_j . a + h_j''  the closed impact gaps R,"
                   " S_R = W_R M^-1 W_R^T\n"
                   " *   a += M^-1 W_R^T lambda_R\n");
    fprintf(o, " * Event functions: those of the open gaps, replaced by the closed gaps' own.\n");
    if (dv->fric_modes) {
        fric_comment(cg);
        return;
    }
    if (!dv->enumerated) {
        fprintf(o, " * %d gaps: only the free mode is written out, the runtime's generic path\n"
                   " * solves the others (docs/theory.md). */\n", dv->g);
        return;
    }
    fprintf(o, " * The modes:\n");
    for (int k = 0; k < dv->n_modes; k++) {
        const DvMode *md = &dv->modes[k];
        fprintf(o, " *   %u ", md->mask);
        mode_title(cg, md);
        if (md->status == DV_MODE_INADMISSIBLE)
            fprintf(o, " (inadmissible: the closed gaps' w are dependent, never entered)");
        fprintf(o, "\n");
    }
    fprintf(o, " */\n");
}

/* Does e mention a variable of index lo..hi-1 (a mode's locals)? */
static bool uses_vars(const Expr *e, int lo, int hi)
{
    if (e->kind == EX_VAR)
        return e->index >= lo && e->index < hi;
    for (int k = 0; k < e->nargs; k++)
        if (uses_vars(e->args[k], lo, hi))
            return true;
    return false;
}

/* The event functions of the open gaps (those of the free mode), as lines. */
static void open_events(Cgen *cg, Lines *ls)
{
    const DvMode *md0 = &cg->dv->modes[0];
    for (int j = 0; j < cg->dv->g; j++) {
        lines_add(ls, "s", j, md0->ev[j], cg->m->gaps[j].name, ev_doc(cg->m, 0, j), false);
        lines_add(ls, "sdot", j, md0->evdot[j], NULL, NULL, false);
    }
}

/* The selector of the held systems' switch: the held bits of the mode,
 * or h (emit_held_key) when elements are pressed by gaps. */
static const char *held_sel(const Cgen *cg, unsigned hmask)
{
    return cg->dv->fgap ? "h" : arena_printf(cg->dv->arena, "m & %uu", hmask);
}

/* h = the held bits of the mode and the backward bits of the elements
 * slipping on a held gap's force: the key of its held system (an element
 * stuck, or idle on an open gap, has its backward bit cleared). */
static void emit_held_key(Cgen *cg, unsigned hmask)
{
    const Derivation *dv = cg->dv;
    const Model *m = cg->m;
    FILE *o = cg->out;
    unsigned back = 0;
    for (int k = 0; k < m->n_frictions; k++)
        back |= m->frictions[k].normal_gap >= 0 ? 1u << (dv->g + 2 * k + 1) : 0u;
    fprintf(o, "        /* the held rows, and the signs of the elements slipping on held gaps */\n"
               "        h = m & %uu;\n", hmask | back);
    for (int k = 0; k < m->n_frictions; k++) {
        int j = m->frictions[k].normal_gap;
        if (j < 0)
            continue;
        fprintf(o, "        if (!(m & %s) || (m & %s)) /* ", gap_bit(cg, j), fric_bit(cg, k, 0));
        pcomment(o, m->frictions[k].name);
        fprintf(o, " idle or stuck */\n            h &= ~%s;\n", fric_bit(cg, k, 1));
    }
}

/* The body of modes(), into cg->out; returns whether it holds a loop. */
static bool modes_body(Cgen *cg, unsigned imask, unsigned pmask, unsigned hmask)
{
    const Derivation *dv = cg->dv;
    const Model *m = cg->m;
    const DvMode *md0 = &dv->modes[0];
    const DvCorr *cr = &dv->corr;
    FILE *o = cg->out;
    ExprCtx *x = dv->ex;
    int n = dv->n, g = dv->g;
    bool en = dv->enumerated && g > 0, loops = false, fr = dv->fric_modes;
    int nr = dv->n_rows;
    Lines ls = {0};

    /* the open gaps' event functions first when they need no acceleration:
     * event() then returns in the free mode before any dynamics */
    bool early = g > 0 && !fr;   /* friction's events follow the gaps' */
    for (int j = 0; j < g && early; j++)
        early = !uses_vars(md0->ev[j], dv->v_f, dv->v_const) && !uses_vars(md0->evdot[j], dv->v_f, dv->v_const);
    if (early) {
        fprintf(o, "    if (s && sdot) {\n");
        open_events(cg, &ls);
        loops |= lines_flush(cg, &ls, "        ");
        fprintf(o, "        if (!ydot && !lam && m == 0u)\n"
                   "            return 0; /* the free mode's event functions need nothing else */\n"
                   "    }\n");
    }
    fprintf(o, "    /* F = f_ext(t) + f_const - K x - C v */\n");
    for (int i = 0; i < n; i++)
        lines_local(cg, &ls, md0->prog[i].var->index, md0->prog[i].value);
    loops |= lines_flush(cg, &ls, "    ");
    if (en || fr) {
        fprintf(o, "    /* lambda_j = 0 while gap j is open%s */\n", fr ? ", L = 0 while an element slips" : "");
        for (int j = 0; j < nr; j++)
            lines_local(cg, &ls, dv->v_lam + j, expr_num(x, 0));
        loops |= lines_flush(cg, &ls, "    ");
    }
    for (int j = 0; j < g && pmask; j++) {
        if (!((pmask >> j) & 1u))
            continue;
        fprintf(o, "    if (m & %s) { /* ", gap_bit(cg, j));
        pcomment(o, m->gaps[j].name);
        fprintf(o, " engaged: lambda = k p + c p', p = -gap; F += w lambda */\n");
        lines_local(cg, &ls, dv->v_lam + j, cr->pen[j]);
        loops |= lines_flush(cg, &ls, "        ");
        emit_gap_adds(cg, "        ", "F", j, dv->lam[j], false);
        fprintf(o, "    }\n");
    }
    if (fr)
        emit_slip_forces(cg);
    fprintf(o, "    /* a = M^-1 F */\n");
    for (int i = n; i < 2 * n; i++)
        lines_local(cg, &ls, md0->prog[i].var->index, md0->prog[i].value);
    loops |= lines_flush(cg, &ls, "    ");
    if (hmask) {
        fprintf(o, "    if (m & %uu) {\n", hmask);
        fprintf(o, "        /* u_j = w_j . a + h_j'': the impact gaps' accelerations under F alone%s */\n",
                fr ? ", u_k = w_t . a the elements' slip accelerations" : "");
        for (int j = 0; j < g; j++)
            if ((imask >> j) & 1u)
                lines_local(cg, &ls, dv->v_u + j, cr->u[j]);
        for (int j = g; j < nr; j++)
            lines_local(cg, &ls, dv->v_u + j, cr->u[j]);
        loops |= lines_flush(cg, &ls, "        ");
        fprintf(o, "        /* lambda_R = -S_R^-1 u_R over the closed impact gaps R, S_R = W_R M^-1 W_R^T%s */\n",
                pmask ? "\n           (the forces written out are those of R alone: engaged penalty gaps add to F)" : "");
        if (fr && dv->fgap)
            emit_held_key(cg, hmask);
        if (fr)
            loops |= emit_held_sets(cg, held_sel(cg, hmask), false, "        ");
        else
            loops |= emit_closed_sets(cg, imask, false, "        ");
        fprintf(o, "        /* a += M^-1 W_R^T lambda_R */\n");
        for (int j = 0; j < nr; j++) {
            if (j < g && !((imask >> j) & 1u))
                continue;
            if (hmask == dv_row_bit(dv, j)) {  /* the only held row: held here */
                emit_gap_adds(cg, "        ", "a", j, dv->lam[j], true);
                if (fr && j < g)
                    emit_pressed_slips(cg, j, "        ");
                continue;
            }
            fprintf(o, "        if (m & %s) {\n", row_bit(cg, j));
            emit_gap_adds(cg, "            ", "a", j, dv->lam[j], true);
            if (fr && j < g)
                emit_pressed_slips(cg, j, "            ");
            fprintf(o, "        }\n");
        }
        fprintf(o, "    }\n");
    }
    fprintf(o, "    if (ydot) {\n");
    for (int i = 0; i < 2 * n; i++)
        lines_add(&ls, "ydot", i, md0->ydot[i], NULL, NULL, false);
    loops |= lines_flush(cg, &ls, "        ");
    fprintf(o, "    }\n");
    if (!g && !fr) {
        free(ls.v);
        return loops;
    }
    fprintf(o, "    if (lam) {%s\n", fr ? " /* the gaps', then the stuck elements' multipliers */" : "");
    for (int j = 0; j < nr; j++)
        lines_add(&ls, "lam", j, en || fr ? dv->lam[j] : expr_num(x, 0), NULL, NULL, false);
    loops |= lines_flush(cg, &ls, "        ");
    fprintf(o, "    }\n");
    fprintf(o, "    if (s && sdot) {\n");
    if (!early) {
        open_events(cg, &ls);
        loops |= lines_flush(cg, &ls, "        ");
    }
    for (int j = 0; j < g && en; j++) {
        const DvMode *mj = &dv->modes[1u << j];
        fprintf(o, "        if (m & %s) { /* ", gap_bit(cg, j));
        pcomment(o, m->gaps[j].name);
        fprintf(o, " %s */\n", ev_doc(m, 1u << j, j));
        if (m->gaps[j].law->constraint) {
            lines_add(&ls, "s", j, dv->lam[j], NULL, NULL, false);
        } else {
            /* released by force: s is the force computed above */
            lines_add(&ls, "s", j, mj->ev[j] == dv->corr.pen[j] ? dv->lam[j] : mj->ev[j], NULL, NULL, false);
            lines_add(&ls, "sdot", j, mj->evdot[j], NULL, NULL, false);
        }
        loops |= lines_flush(cg, &ls, "            ");
        fprintf(o, "        }\n");
    }
    if (fr)
        loops |= emit_fric_events(cg, &ls);
    if (hmask) {
        fprintf(o, "        if (m & %uu) {\n", hmask);
        fprintf(o, "            /* F' = f_ext'(t) - K v - C a");
        if (pmask)
            fprintf(o, ", + w_j lambda_j' of the engaged penalty gaps");
        fprintf(o, " */\n");
        for (int i = 0; i < n; i++)
            lines_local(cg, &ls, dv->v_fdot + i, cr->fdot[i]);
        loops |= lines_flush(cg, &ls, "            ");
        for (int j = 0; j < g; j++) {
            if (!((pmask >> j) & 1u))
                continue;
            fprintf(o, "            if (m & %s) {\n", gap_bit(cg, j));
            emit_gap_adds(cg, "                ", "Fd", j, cr->pen_dot[j], false);
            fprintf(o, "            }\n");
        }
        fprintf(o, "            /* u_j' = w_j . M^-1 F' + h_j'''%s */\n", fr ? ", u_k' = w_t . M^-1 F'" : "");
        for (int j = 0; j < g; j++)
            if ((imask >> j) & 1u)
                lines_local(cg, &ls, dv->v_ud + j, cr->ud[j]);
        for (int j = g; j < nr; j++)
            lines_local(cg, &ls, dv->v_ud + j, cr->ud[j]);
        loops |= lines_flush(cg, &ls, "            ");
        fprintf(o, "            /* s' = lambda_R' = -S_R^-1 u_R'%s */\n", fr ? "; a stuck element's -L', L'" : "");
        if (fr)
            loops |= emit_held_sets(cg, held_sel(cg, hmask), true, "            ");
        else
            loops |= emit_closed_sets(cg, imask, true, "            ");
        fprintf(o, "        }\n");
    }
    fprintf(o, "    }\n");
    free(ls.v);
    return loops;
}

/* The held rows' mask of word 0 (impact gaps, the elements' stuck bits),
 * 0 without friction modes. */
static unsigned held_mask(const Derivation *dv)
{
    unsigned h = 0;
    for (int j = 0; j < dv->n_rows && dv->fric_modes; j++)
        if (j >= dv->g || dv->model->gaps[j].law->constraint)
            h |= dv_row_bit(dv, j);
    return h;
}

/* modes()'s refusal of the held sets whose rows are dependent (two stuck
 * elements on one slip, a stuck element along a held gap): the runtime's
 * generic path merges them. */
static void emit_held_check(Cgen *cg)
{
    const Derivation *dv = cg->dv;
    FILE *o = cg->out;
    bool any = false;
    for (unsigned key = 1; key < 1u << dv->n_rows; key++) {
        const DvHeldSet *hs = &dv->held[key];
        if (!hs->rows || hs->admissible)
            continue;
        if (!any)
            fprintf(o, "    switch (mode[0] & %uu) {\n", held_mask(dv));
        any = true;
        fprintf(o, "    case %uu: /* ", hs->word);
        pcomment(o, hs->label);
        fprintf(o, " dependent rows: left to the runtime */\n        return NSM_NOT_DERIVED;\n");
    }
    if (any)
        fprintf(o, "    }\n");
}

/* The start of modes(): the modes it does not write out return
 * NSM_NOT_DERIVED, left to the runtime's generic path (those beyond the
 * enumerated ones, and the inadmissible sets of impact gaps). */
static void emit_mode_check(Cgen *cg)
{
    const Derivation *dv = cg->dv;
    const Model *m = cg->m;
    FILE *o = cg->out;
    int words = (dv->g + 2 * m->n_frictions + m->n_sfrics) / 32 + 1;  /* NSM_MODE_WORDS */
    if (words > 1)  /* the modes written out close gaps of word 0 only */
        fprintf(o, "    for (int w = 1; w < %d; w++)\n        if (mode[w])\n"
                   "            return NSM_NOT_DERIVED;\n", words);
    if (dv->fric_modes)
        fprintf(o, "    if (mode[0] >= %uu) /* left to the runtime's generic path */\n"
                   "        return NSM_NOT_DERIVED;\n", 1u << (dv->g + 2 * m->n_frictions));
    else if (dv->enumerated)
        fprintf(o, "    if (mode[0] >= %uu) /* left to the runtime's generic path */\n"
                   "        return NSM_NOT_DERIVED;\n", (unsigned)dv->n_modes);
    else
        fprintf(o, "    if (mode[0] != 0u) /* %d gaps: modes beyond the all-open one are left to the runtime */\n"
                   "        return NSM_NOT_DERIVED;\n", dv->g);
    if (dv->fric_modes) {
        emit_held_check(cg);
        return;
    }
    bool any = false;
    for (int k = 0; k < (dv->enumerated ? dv->n_modes : 0); k++) {
        const DvMode *md = &dv->modes[k];
        unsigned rmask = 0;
        for (int a = 0; a < md->n_impact; a++)
            rmask |= 1u << md->impact[a];
        if (md->status != DV_MODE_INADMISSIBLE || rmask != md->mask)
            continue;
        if (!any) {
            unsigned imask = 0;
            for (int j = 0; j < dv->g; j++)
                imask |= m->gaps[j].law->constraint ? 1u << j : 0u;
            fprintf(o, "    switch (mode[0] & %uu) {\n", imask);
        }
        any = true;
        fprintf(o, "    case %uu: /* ", md->mask);
        pcomment(o, md->label);
        fprintf(o, " inadmissible: the closed gaps' w are dependent, never entered */\n"
                   "        return NSM_NOT_DERIVED;\n");
    }
    if (any)
        fprintf(o, "    }\n");
}

/* deriv() and events(), the table's entries for the two questions the
 * runtime asks most: the derivatives alone (each stage of a step) and the
 * event functions alone (each detection).  Each calls modes() with the other
 * outputs NULL, which the C compiler specialises, leaving out the work the
 * question does not need; as entries of their own they also leave out the
 * register saves of modes()' most general call (model ABI 7). */
static void emit_modes_entries(FILE *out)
{
    fprintf(out,
            "/* The derivatives alone (each stage of a step). */\n"
            "static int deriv(const unsigned *mode, double t, const double *y, const int *sw,\n"
            "                 const double *p, const double *c, double *ydot)\n{\n"
            "    return modes(mode, t, y, sw, p, c, ydot, NULL, NULL, NULL);\n"
            "}\n\n"
            "/* The event functions and their rates alone (each detection). */\n"
            "static int events(const unsigned *mode, double t, const double *y, const int *sw,\n"
            "                  const double *p, const double *c, double *s, double *sdot)\n{\n"
            "    return modes(mode, t, y, sw, p, c, NULL, NULL, s, sdot);\n"
            "}\n\n");
}

/* modes(): every mode in one function, the free mode written once and each
 * closed gap's or closed set's correction after it (DvCorr, derive.h).  Its
 * locals are arrays: F, a (n), L (g: contact forces), u, Fd, ud. */
static void emit_modes(Cgen *cg)
{
    const Derivation *dv = cg->dv;
    const Model *m = cg->m;
    FILE *out = cg->out;
    int n = dv->n, g = dv->g;
    unsigned imask = 0, pmask = 0;
    for (int j = 0; j < g && dv->enumerated; j++) {
        if (m->gaps[j].law->constraint)
            imask |= 1u << j;
        else
            pmask |= 1u << j;
    }
    char *body = NULL;
    size_t len = 0;
    FILE *o = memstream_open(&body, &len);
    cg->out = o;
    cg->arrays = true;
    bool loops = modes_body(cg, imask, pmask, dv->fric_modes ? held_mask(dv) : imask);
    cg->arrays = false;
    cg->out = out;
    fclose(o);

    modes_comment(cg, imask, pmask);
    fprintf(out, "static inline NSM_ALWAYS_INLINE int modes(const unsigned *mode, double t,"
                 " const double *y,\n"
                 "                         const int *sw, const double *p, const double *c,\n"
                 "                         double *ydot, double *lam, double *s, double *sdot)\n{\n");
    /* the body tests the closed gaps as `(m & bit)` and the free mode as
     * `m == 0u`: the word is named only when it does */
    if (strstr(body, "(m & ") || strstr(body, " m == 0u"))
        fprintf(out, "    const unsigned m = mode[0];\n");
    if (loops)
        fprintf(out, "    int i;\n");
    fprintf(out, "    double F[%d], a[%d];\n", n, n);
    unsigned hmask = dv->fric_modes ? held_mask(dv) : imask;
    if ((dv->enumerated && g) || dv->fric_modes)
        fprintf(out, "    double L[%d];\n", dv->n_rows);
    if (hmask)
        fprintf(out, "    double u[%d], Fd[%d], ud[%d];\n", dv->n_rows, n, dv->n_rows);
    if (hmask && dv->fgap)
        fprintf(out, "    unsigned h = 0;\n");
    emit_mode_check(cg);
    fwrite(body, 1, len, out);
    fprintf(out, "    return 0;\n}\n\n");
    free(body);
    emit_modes_entries(out);
}

/* ---- switches and generator ---------------------------------------------------- */

/* Whether some time switch's function is affine in t. */
static bool any_switch_affine(const Derivation *dv)
{
    for (int k = 0; k < dv->n_sw; k++)
        if (dv->sw_list[k].affine)
            return true;
    return false;
}

/* switch_affine[]: which switch functions are a + b t (nsm/model.h), so
 * the run loop skips the test that a step follows them; nothing when none
 * is. */
static void emit_switch_affine(Cgen *cg)
{
    const Derivation *dv = cg->dv;
    FILE *o = cg->out;
    if (!any_switch_affine(dv))
        return;
    fprintf(o, "/* Which switch functions are affine in t (at most one zero, followed by\n"
               " * the ends of any step). */\n");
    fprintf(o, "static const unsigned char switch_affine[%d] = {", dv->n_sw);
    for (int k = 0; k < dv->n_sw; k++)
        fprintf(o, "%s%d", k ? ", " : " ", dv->sw_list[k].affine ? 1 : 0);
    fprintf(o, " };\n\n");
}

/* switch_fn() and switch_state(): each time switch's function and its
 * condition's truth value (and switch_affine[], emit_switch_affine). */
static void emit_switches(Cgen *cg)
{
    const Derivation *dv = cg->dv;
    FILE *o = cg->out;
    if (!dv->n_sw)
        return;
    fprintf(o, "/* Time switch k: s = lhs - rhs of its comparison, and s'. */\n");
    fprintf(o, "static void switch_fn(int k, double t, const double *p, const double *c, double *s, double *sdot)\n{\n");
    fprintf(o, "    switch (k) {\n");
    for (int k = 0; k < dv->n_sw; k++) {
        fprintf(o, "    case %d: /* ", k);
        char *txt = expr_to_string(dv->ex, dv->sw_list[k].cond, EXPR_TEXT, &cg->nm);
        pcomment(o, txt);
        fprintf(o, " */\n        *s = ");
        px(cg, dv->sw_list[k].fn);
        fprintf(o, ";\n        *sdot = ");
        px(cg, dv->sw_list[k].fn_dot);
        fprintf(o, ";\n        return;\n");
    }
    fprintf(o, "    default:\n        *s = 1;\n        *sdot = 0;\n        return;\n    }\n}\n\n");
    fprintf(o, "/* Truth value of time switch k's condition at time t. */\n");
    fprintf(o, "static int switch_state(int k, double t, const double *p, const double *c)\n{\n");
    fprintf(o, "    switch (k) {\n");
    for (int k = 0; k < dv->n_sw; k++) {
        fprintf(o, "    case %d:\n        return ", k);
        px(cg, dv->sw_list[k].cond);
        fprintf(o, ";\n");
    }
    fprintf(o, "    default:\n        return 0;\n    }\n}\n\n");
    emit_switch_affine(cg);
}

/* generator() and generator_state() of the exact method; nothing for a
 * model without forcing (n_gen 0, the table's entries NULL), a note when the
 * forcing has no generator. */
static void emit_generator(Cgen *cg)
{
    const Derivation *dv = cg->dv;
    FILE *o = cg->out;
    int n = dv->n, ng = cg->n_gen;
    if (!ng && cg->m->n_rigids)
        fprintf(o, "/* Exact method: not available for bodies in space (rk4, adaptive, taylor). */\n\n");
    else if (!ng && dv->nl)
        fprintf(o, "/* Exact method: not available, the model is nonlinear (method taylor). */\n\n");
    else if (!ng && !all_zero(dv->fext, n))
        fprintf(o, "/* Exact method: not available, the forces are not built from polynomials,\n"
                   "   exponentials and sinusoids. */\n\n");
    if (!ng)
        return;
    fprintf(o, "/* Exact method: f_ext(t) = B z(t), z' = G z. */\n");
    fprintf(o, "static void generator(const int *sw, const double *p, const double *c, double *G, double *B)\n{\n");
    fprintf(o, "    int i;\n");
    fprintf(o, "    for (i = 0; i < %d; i++)\n        G[i] = 0;\n", ng * ng);
    fprintf(o, "    for (i = 0; i < %d; i++)\n        B[i] = 0;\n", n * ng);
    for (int i = 0; i < ng * ng; i++)
        if (!expr_is_zero(dv->G[i])) {
            fprintf(o, "    G[%d] = ", i);
            px(cg, dv->G[i]);
            fprintf(o, ";\n");
        }
    for (int i = 0; i < n * ng; i++)
        if (!expr_is_zero(dv->B[i])) {
            fprintf(o, "    B[%d] = ", i);
            px(cg, dv->B[i]);
            fprintf(o, ";\n");
        }
    fprintf(o, "}\n\n");
    fprintf(o, "static void generator_state(double t, const int *sw, const double *p, const double *c, double *z)\n{\n");
    for (int i = 0; i < ng; i++) {
        fprintf(o, "    z[%d] = ", i);
        px(cg, dv->z[i]);
        fprintf(o, ";\n");
    }
    fprintf(o, "}\n\n");
}

/* gap_motion() and gap_generator(): the moving surfaces' time functions
 * h_j(t) and their derivatives, and h_j = H_j z for the exact method.
 * Written only when a gap moves. */
static void emit_gap_motion(Cgen *cg)
{
    const Derivation *dv = cg->dv;
    FILE *o = cg->out;
    int g = dv->g, ng = cg->n_gen;
    if (!dv->n_moving)
        return;
    fprintf(o, "/* 1 for a gap whose surface moves with time */\nstatic const unsigned char gap_moving[] = {");
    for (int j = 0; j < g; j++)
        fprintf(o, "%s%d", j ? ", " : "", dv->h[j] != NULL);
    fprintf(o, "};\n\n");
    fprintf(o, "/* Moving surfaces: gap_j = w_j . x + d_j + h_j(t); h[j + k g] = the k-th time\n"
               "   derivative of h_j, k = 0..3 (0 for a fixed gap). */\n");
    fprintf(o, "static void gap_motion(double t, const double *p, const double *c, double *h)\n{\n");
    fprintf(o, "    int i;\n");
    fprintf(o, "    for (i = 0; i < %d; i++)\n        h[i] = 0;\n", 4 * g);
    for (int j = 0; j < g; j++) {
        if (!dv->h[j])
            continue;
        Expr *e[4] = { dv->h[j], dv->hd[j], dv->hdd[j], dv->hddd[j] };
        for (int k = 0; k < 4; k++) {
            fprintf(o, "    h[%d] = ", j + k * g);
            px(cg, e[k]);
            if (k == 0)
                fprintf(o, ";   /* %s */\n", dv->model->gaps[j].name);
            else
                fprintf(o, ";\n");
        }
    }
    fprintf(o, "}\n\n");
    fprintf(o, "/* Exact method: h_j(t) = H_j z(t) on the forcing generator's state. */\n");
    fprintf(o, "static void gap_generator(const double *p, const double *c, double *H)\n{\n");
    fprintf(o, "    int i;\n");
    fprintf(o, "    for (i = 0; i < %d; i++)\n        H[i] = 0;\n", g * ng);
    for (int i = 0; i < g * ng && dv->H; i++)
        if (!expr_is_zero(dv->H[i])) {
            fprintf(o, "    H[%d] = ", i);
            px(cg, dv->H[i]);
            fprintf(o, ";\n");
        }
    fprintf(o, "}\n\n");
}

/* ---- nonlinear models ---------------------------------------------------------- */

/* The row of X holding derivation variable `index`: the state's layout
 * Y = (q[nq], u[n]), so that velocity i is row nq + i and a rigid body's
 * p0 (variable 2n + b) row n + b (docs/theory.md section 19); nq = n
 * without bodies in space. */
static int tp_row(const Cgen *cg, int index)
{
    int n = cg->dv->n, nq = cg->m->n_rigids ? cg->m->nq : n;
    if (index < n)
        return index;
    if (index < 2 * n)
        return nq + index - n;
    return n + index - 2 * n;
}

/* A tape operand at order `ord` (a C expression text): a series reads its
 * array, a constant is its value at order 0 and 0 above. */
static const char *tp_at(Cgen *cg, const DvTape *tp, TpArg a, const char *ord)
{
    Arena *ar = cg->dv->arena;
    if (a.node < 0) {
        char *v = expr_to_string(cg->dv->ex, a.c, EXPR_C, &cg->nm);
        if (strcmp(ord, "0") == 0)
            return arena_printf(ar, "(%s)", v);
        return arena_printf(ar, "(%s == 0 ? %s : 0)", ord, v);
    }
    const TpNode *nd = &tp->nodes[a.node];
    if (nd->op == TP_X)
        return arena_printf(ar, "X[%d * K1 + %s]", tp_row(cg, nd->index), ord);
    return arena_printf(ar, "w[%d * K1 + %s]", nd->slot, ord);
}

/* A series operand's coefficients as a pointer (for the helpers). */
static const char *tp_ptr(Cgen *cg, const DvTape *tp, TpArg a)
{
    const TpNode *nd = &tp->nodes[a.node];
    if (nd->op == TP_X)
        return arena_printf(cg->dv->arena, "X + %d * K1", tp_row(cg, nd->index));
    return arena_printf(cg->dv->arena, "w + %d * K1", nd->slot);
}

/* The recurrences the series functions call, each written only when one
 * of the tapes (nt of them, NULL entries skipped) uses it. */
static void emit_tay_helpers(Cgen *cg, const DvTape *const *tapes, int nt)
{
    FILE *o = cg->out;
    bool use[TP_MAX_OP + 1] = {false};
    bool mul2 = false;
    for (int q = 0; q < nt; q++)
        for (int i = 0; tapes[q] && i < tapes[q]->n_nodes; i++) {
            const DvTape *t = tapes[q];
            use[t->nodes[i].op] = true;
            mul2 |= t->nodes[i].op == TP_MUL && t->nodes[i].nargs == 2;
        }
    fprintf(o, "/* Taylor-coefficient recurrences (Jorba & Zou 2005): order k of w from the\n"
               "   orders 0..k of its operand(s) and 0..k-1 of w itself. */\n");
    if (mul2)
        fprintf(o, "/* w = a b: w_k = sum_{j=0..k} a_j b_{k-j} */\n"
                   "static double tay_mul(int k, const double *a, const double *b)\n{\n"
                   "    double s = 0;\n    for (int j = 0; j <= k; j++)\n        s += a[j] * b[k - j];\n"
                   "    return s;\n}\n\n");
    if (use[TP_RECIP])
        fprintf(o, "/* w = 1/a: a_0 w_k = -sum_{j=1..k} a_j w_{k-j} (k > 0) */\n"
                   "static double tay_recip(int k, const double *a, const double *w)\n{\n"
                   "    if (k == 0)\n        return 1 / a[0];\n    double s = 0;\n"
                   "    for (int j = 1; j <= k; j++)\n        s += a[j] * w[k - j];\n"
                   "    return -s / a[0];\n}\n\n");
    if (use[TP_POW])
        fprintf(o, "/* w = a^r: k a_0 w_k = sum_{j=1..k} (r j - (k - j)) a_j w_{k-j} */\n"
                   "static double tay_pow(int k, double r, const double *a, const double *w)\n{\n"
                   "    if (k == 0)\n        return pow(a[0], r);\n    double s = 0;\n"
                   "    for (int j = 1; j <= k; j++)\n        s += (r * j - (k - j)) * a[j] * w[k - j];\n"
                   "    return s / (k * a[0]);\n}\n\n");
    if (use[TP_EXP])
        fprintf(o, "/* w = exp a: k w_k = sum_{j=1..k} j a_j w_{k-j} */\n"
                   "static double tay_exp(int k, const double *a, const double *w)\n{\n"
                   "    if (k == 0)\n        return exp(a[0]);\n    double s = 0;\n"
                   "    for (int j = 1; j <= k; j++)\n        s += j * a[j] * w[k - j];\n"
                   "    return s / k;\n}\n\n");
    if (use[TP_LOG])
        fprintf(o, "/* w = log a: k a_0 w_k = k a_k - sum_{j=1..k-1} j w_j a_{k-j} */\n"
                   "static double tay_log(int k, const double *a, const double *w)\n{\n"
                   "    if (k == 0)\n        return log(a[0]);\n    double s = k * a[k];\n"
                   "    for (int j = 1; j < k; j++)\n        s -= j * w[j] * a[k - j];\n"
                   "    return s / (k * a[0]);\n}\n\n");
    if (use[TP_SIN])
        fprintf(o, "/* s = sin a, c = cos a together: k s_k = sum_{j=1..k} j a_j c_{k-j},\n"
                   "   k c_k = -sum_{j=1..k} j a_j s_{k-j} */\n"
                   "static void tay_sincos(int k, const double *a, double *s, double *c)\n{\n"
                   "    if (k == 0) {\n        s[0] = sin(a[0]);\n        c[0] = cos(a[0]);\n        return;\n    }\n"
                   "    double ss = 0, cs = 0;\n    for (int j = 1; j <= k; j++) {\n"
                   "        ss += j * a[j] * c[k - j];\n        cs += j * a[j] * s[k - j];\n    }\n"
                   "    s[k] = ss / k;\n    c[k] = -cs / k;\n}\n\n");
}

/* One tape node's order-k coefficient, as a statement of r (its comment:
 * the expression it computes). */
static void emit_tay_node(Cgen *cg, Roll *r, const DvTape *tp, int i)
{
    const TpNode *nd = &tp->nodes[i];
    if (nd->op == TP_X || nd->op == TP_COS)   /* read from X; computed with its sin */
        return;
    char *code = NULL;
    size_t len = 0;
    FILE *o = memstream_open(&code, &len);
    FILE *out = cg->out;
    cg->out = o;
    const char *dst = arena_printf(cg->dv->arena, "w[%d * K1 + k]", nd->slot);
    const char *doc = NULL;
    if (nd->src)
        doc = roll_clip(cg->dv->arena, expr_to_string(cg->dv->ex, nd->src, EXPR_TEXT, &cg->tnm), 70);
    const char *a0 = nd->nargs > 0 && nd->op != TP_ADD ? tp_at(cg, tp, nd->arg[0], "k") : NULL;
    switch (nd->op) {
    case TP_T:
        fprintf(o, "%s = k == 0 ? t0 : k == 1 ? 1 : 0;", dst);
        break;
    case TP_ADD:
        fprintf(o, "%s = ", dst);
        for (int a = 0; a < nd->nargs; a++)
            fprintf(o, "%s%s", a ? " + " : "", tp_at(cg, tp, nd->args[a], "k"));
        fprintf(o, ";");
        break;
    case TP_MUL:
        fprintf(o, "%s = ", dst);
        if (nd->c) {
            fprintf(o, "(");
            px(cg, nd->c);
            fprintf(o, ") * ");
        }
        if (nd->nargs == 2)
            fprintf(o, "tay_mul(k, %s, %s);", tp_ptr(cg, tp, nd->arg[0]), tp_ptr(cg, tp, nd->arg[1]));
        else
            fprintf(o, "%s;", a0);
        break;
    case TP_RECIP:
        fprintf(o, "%s = tay_recip(k, %s, w + %d * K1);", dst, tp_ptr(cg, tp, nd->arg[0]), nd->slot);
        break;
    case TP_POW:
        fprintf(o, "%s = tay_pow(k, ", dst);
        px(cg, nd->c);
        fprintf(o, ", %s, w + %d * K1);", tp_ptr(cg, tp, nd->arg[0]), nd->slot);
        break;
    case TP_EXP:
    case TP_LOG:
        fprintf(o, "%s = tay_%s(k, %s, w + %d * K1);", dst, nd->op == TP_EXP ? "exp" : "log",
                tp_ptr(cg, tp, nd->arg[0]), nd->slot);
        break;
    case TP_SIN:
        fprintf(o, "tay_sincos(k, %s, w + %d * K1, w + %d * K1);   /* and its cos */",
                tp_ptr(cg, tp, nd->arg[0]), nd->slot, tp->nodes[nd->pair].slot);
        break;
    case TP_TSIN:
    case TP_TCOS:
        fprintf(o, "%s = k == 0 ? %s(", dst, nd->op == TP_TSIN ? "sin" : "cos");
        px(cg, nd->tc[0]);
        fprintf(o, ") : k == 1 ? %s(", nd->op == TP_TSIN ? "" : "-");
        px(cg, nd->tc[1]);
        fprintf(o, ") * %s(", nd->op == TP_TSIN ? "cos" : "sin");
        px(cg, nd->tc[0]);
        fprintf(o, ") : -(");
        px(cg, nd->tc[1]);
        fprintf(o, ") * (");
        px(cg, nd->tc[1]);
        fprintf(o, ") * w[%d * K1 + k - 2] / (k * (k - 1));", nd->slot);
        break;
    case TP_TEXP:
        fprintf(o, "%s = k == 0 ? exp(", dst);
        px(cg, nd->tc[0]);
        fprintf(o, ") : (");
        px(cg, nd->tc[1]);
        fprintf(o, ") * w[%d * K1 + k - 1] / k;", nd->slot);
        break;
    case TP_TPOLY:
        fprintf(o, "%s = ", dst);
        for (int q = 0; q < nd->ntc; q++) {
            fprintf(o, "k == %d ? (", q);
            px(cg, nd->tc[q]);
            fprintf(o, ") : ");
        }
        fprintf(o, "0;");
        break;
    case TP_IF:
        fprintf(o, "%s = (", dst);
        px(cg, nd->c);
        fprintf(o, ") ? %s : %s;", a0, tp_at(cg, tp, nd->arg[1], "k"));
        break;
    case TP_ABS:
        fprintf(o, "%s = %s < 0 ? -%s : %s;   /* the sign at the step's start */", dst,
                tp_at(cg, tp, nd->arg[0], "0"), a0, a0);
        break;
    case TP_MIN:
    case TP_MAX:
        fprintf(o, "%s = %s %s %s ? %s : %s;   /* the branch at the step's start */", dst,
                tp_at(cg, tp, nd->arg[0], "0"), nd->op == TP_MIN ? "<=" : ">=",
                tp_at(cg, tp, nd->arg[1], "0"), a0, tp_at(cg, tp, nd->arg[1], "k"));
        break;
    default:
        break;
    }
    fclose(o);
    cg->out = out;
    if (len)
        roll_add(r, doc, arena_strdup(cg->dv->arena, code), NULL);
    free(code);
}

/* The statements of a tape's order k (its nodes, then its outputs) and the
 * function's closing brace: the elements of a `for` loop alike stay a loop
 * (emit_roll.h), their series in rows of w moving with the loop's i. */
static void emit_tape_body(Cgen *cg, const DvTape *tp)
{
    Roll *r = roll_new(cg->dv->arena);
    for (int i = 0; i < tp->n_nodes; i++)
        if (tp->nodes[i].tc) {
            fprintf(cg->out, "    const double t = t0;   /* the closed forms of functions of time read t */\n");
            break;
        }
    for (int i = 0; i < tp->n_nodes; i++)
        emit_tay_node(cg, r, tp, i);
    for (int q = 0; q < tp->n_outs; q++) {
        const TpOut *ou = &tp->outs[q];
        roll_add(r, NULL,
                 arena_printf(cg->dv->arena, "%s[%d * K1 + k] = %s;", ou->dst, ou->row,
                              tp_at(cg, tp, ou->val, "k")),
                 ou->what);
    }
    roll_write(r, cg->out, "    ");
    fprintf(cg->out, "}\n\n");
}

/* nl_series(): order k of every force, curved gap, curvature term and W
 * entry, straight-line over the tape. */
static void emit_nl_series(Cgen *cg, const DvTape *tp)
{
    FILE *o = cg->out;
    fprintf(o, "/* Order k of the Taylor coefficients over a step from t0 (t = t0 + tau): every\n"
               "   force F, curved gap G, curvature term CV and curved W entry WV, from the\n"
               "   state's orders 0..k in X (row i: X[i * (K + 1) + k]).  Called for\n"
               "   k = 0, 1, ..., K in turn; the work array w holds the intermediate series, %d rows. */\n",
            tp->n_slots);
    fprintf(o, "static void nl_series(int k, int K, double t0, const double *X, const int *sw, const double *p,\n"
               "                      const double *c, double *w, double *F, double *G, double *CV,\n"
               "                      double *WV)\n{\n");
    fprintf(o, "    const int K1 = K + 1;\n");
    emit_tape_body(cg, tp);
}

/* nl_slip_series(): the curved slips' coefficients FW and curvature terms
 * FCV over a step, order k, from their own tape (dv_tape_slips). */
static void emit_nl_slip_series(Cgen *cg, const DvTape *tp)
{
    FILE *o = cg->out;
    fprintf(o, "/* Order k of the curved slips' series over a step from t0: their coefficients\n"
               "   FW (numbered as nl_slip's wtval) and curvature terms FCV (row: the element),\n"
               "   from the state's orders 0..k in X.  Called for k = 0, 1, ..., K in turn;\n"
               "   the work array w holds the intermediate series, %d rows. */\n",
            tp->n_slots);
    fprintf(o, "static void nl_slip_series(int k, int K, double t0, const double *X, const int *sw,\n"
               "                           const double *p, const double *c, double *w, double *FW,\n"
               "                           double *FCV)\n{\n");
    fprintf(o, "    const int K1 = K + 1;\n");
    emit_tape_body(cg, tp);
}

/* lag_series(): a model written by its energies, order k of every entry of
 * M(q) and of h(q, v) over a step, from its own tape (dv_tape_lag). */
static void emit_lag_series(Cgen *cg, const DvTape *tp)
{
    FILE *o = cg->out;
    fprintf(o, "/* Order k of the mass matrix's entries M (row i * n + j) and of the\n"
               "   Euler-Lagrange terms H over a step from t0, from the state's orders 0..k\n"
               "   in X.  Called for k = 0, 1, ..., K in turn; the work array w holds the\n"
               "   intermediate series, %d rows. */\n",
            tp->n_slots);
    fprintf(o, "static void lag_series(int k, int K, double t0, const double *X, const int *sw,\n"
               "                       const double *p, const double *c, double *w, double *M,\n"
               "                       double *H)\n{\n");
    fprintf(o, "    const int K1 = K + 1;\n");
    emit_tape_body(cg, tp);
}

/* nl_force(): the state-dependent forces, added to F. */
static void emit_nl_force(Cgen *cg)
{
    const Derivation *dv = cg->dv;
    FILE *o = cg->out;
    fprintf(o, "/* The `force` statements that depend on the state, added to F (force() has the others). */\n");
    fprintf(o, "static void nl_force(double t, const double *y, const int *sw, const double *p, const double *c,\n"
               "                     double *F)\n{\n");
    Lines ls = {0};
    for (int i = 0; i < dv->n; i++) {
        if (expr_is_zero(dv->fnl[i]))
            continue;
        lines_put(&ls, (Line){"F", i, -1, dv->fnl[i], cg->m->bodies[i].name, NULL, true, false, 0, true});
    }
    fprintf(o, "%s", lines_roll(cg, &ls) ? "    int i;\n" : "");
    lines_flush(cg, &ls, "    ");
    free(ls.v);
    fprintf(o, "}\n\n");
}

/* The curved gaps' tables and nl_gap(): g_j(x), v^T g_j'' v and W_j(x). */
static void emit_nl_gap(Cgen *cg)
{
    const Derivation *dv = cg->dv;
    const Model *m = cg->m;
    FILE *o = cg->out;
    int g = dv->g;
    if (!(dv->nl & NL_GAP))
        return;
    fprintf(o, "/* 1 for a curved gap (not affine in the positions) */\nstatic const unsigned char gap_curved[] = {");
    for (int j = 0; j < g; j++)
        fprintf(o, "%s%d", j ? ", " : "", m->gaps[j].curve != NULL);
    fprintf(o, "};\n\n/* the curved gaps' bodies, gap by gap, each in increasing order */\n"
               "static const int gap_cols_all[] = {");
    for (int j = 0, any = 0; j < g; j++)
        for (int k = 0; m->gaps[j].curve && k < dv->W->nnz[j]; k++)
            fprintf(o, "%s%d", any++ ? ", " : "", dv->W->col[j][k]);
    fprintf(o, "};\n");
    fprintf(o, "static const int gap_ncols[] = {");
    for (int j = 0; j < g; j++)
        fprintf(o, "%s%d", j ? ", " : "", m->gaps[j].curve ? dv->W->nnz[j] : 0);
    fprintf(o, "};\nstatic const int *const gap_cols[] = {");
    for (int j = 0, at = 0; j < g; j++) {
        if (m->gaps[j].curve)
            fprintf(o, "%sgap_cols_all + %d", j ? ", " : "", at);
        else
            fprintf(o, "%sNULL", j ? ", " : "");
        at += m->gaps[j].curve ? dv->W->nnz[j] : 0;
    }
    fprintf(o, "};\n\n");
    fprintf(o, "/* Curved gaps at y: g[j] = g_j(x), curv[j] = v^T (d2 g_j/dx2) v (so that\n"
               "   g_j'' = W_j(x) a + curv[j]) and wval = d g_j/dx at its bodies. */\n");
    fprintf(o, "static void nl_gap(const double *y, const double *p, const double *c, double *g, double *curv,\n"
               "                   double *wval)\n{\n");
    int wk = 0;
    Arena *a = dv->arena;
    Roll *r = roll_new(a);
    for (int j = 0; j < g; j++) {
        if (!m->gaps[j].curve)
            continue;
        roll_add(r, arena_printf(a, "%s: %s", m->gaps[j].name,
                                 expr_to_string(dv->ex, dv->gcurve[j], EXPR_TEXT, &cg->tnm)),
                 arena_printf(a, "g[%d] = %s;", j, c_text(cg, dv->gcurve[j])), NULL);
        roll_add(r, NULL, arena_printf(a, "curv[%d] = %s;", j, c_text(cg, dv->gcv[j])), NULL);
        for (int k = 0; k < dv->W->nnz[j]; k++, wk++)
            roll_add(r, NULL, arena_printf(a, "wval[%d] = %s;", wk, c_text(cg, dv->gw[j][k])),
                     m->gaps[j].sphere ? arena_printf(a, "on %s", m->bodies[dv->W->col[j][k]].vname)
                                       : arena_printf(a, "d/d %s", m->bodies[dv->W->col[j][k]].xname));
    }
    roll_write(r, o, "    ");
    fprintf(o, "}\n\n");
}

/* The curved slips' tables and nl_slip(): their rows w_t(x) of Wt and
** curvature terms v^T (dw_t/dx) v. */
static void emit_nl_slip(Cgen *cg)
{
    const Derivation *dv = cg->dv;
    const Model *m = cg->m;
    FILE *o = cg->out;
    int nf = m->n_frictions;
    if (!(dv->nl & NL_SLIP))
        return;
    fprintf(o, "/* 1 for a slip whose coefficients depend on the positions */\n"
               "static const unsigned char fric_curved[] = {");
    for (int k = 0; k < nf; k++)
        fprintf(o, "%s%d", k ? ", " : "", m->frictions[k].curved);
    fprintf(o, "};\n\n/* the curved slips' bodies, element by element, each in increasing order */\n"
               "static const int fric_cols_all[] = {");
    for (int k = 0, any = 0; k < nf; k++)
        for (int c = 0; m->frictions[k].curved && c < dv->fncol[k]; c++)
            fprintf(o, "%s%d", any++ ? ", " : "", dv->fcol[k][c]);
    fprintf(o, "};\n");
    fprintf(o, "static const int fric_ncols[] = {");
    for (int k = 0; k < nf; k++)
        fprintf(o, "%s%d", k ? ", " : "", m->frictions[k].curved ? dv->fncol[k] : 0);
    fprintf(o, "};\nstatic const int *const fric_cols[] = {");
    for (int k = 0, at = 0; k < nf; k++) {
        if (m->frictions[k].curved)
            fprintf(o, "%sfric_cols_all + %d", k ? ", " : "", at);
        else
            fprintf(o, "%sNULL", k ? ", " : "");
        at += m->frictions[k].curved ? dv->fncol[k] : 0;
    }
    fprintf(o, "};\n\n");
    fprintf(o, "/* Curved slips at y: curv[k] = v^T (dw_k/dx) v (so that the slip's rate is\n"
               "   w_k(x) a + curv[k]) and wtval = w_k(x) at its bodies. */\n");
    fprintf(o, "static void nl_slip(const double *y, const double *p, const double *c, double *curv,\n"
               "                    double *wtval)\n{\n");
    int wk = 0;
    Arena *a = dv->arena;
    Roll *r = roll_new(a);
    for (int k = 0; k < nf; k++) {
        if (!m->frictions[k].curved)
            continue;
        roll_add(r, m->frictions[k].name, arena_printf(a, "curv[%d] = %s;", k, c_text(cg, dv->fcv[k])),
                 NULL);
        for (int c = 0; c < dv->fncol[k]; c++, wk++)
            roll_add(r, NULL, arena_printf(a, "wtval[%d] = %s;", wk, c_text(cg, dv->fw[k][c])),
                     arena_printf(a, "coefficient of %s", m->bodies[dv->fcol[k][c]].vname));
    }
    roll_write(r, o, "    ");
    fprintf(o, "}\n\n");
}

/* Everything a nonlinear model adds: nl_force, nl_gap, nl_slip, nl_series. */
static void emit_nl(Cgen *cg)
{
    emit_nl_force(cg);
    emit_nl_gap(cg);
    emit_nl_slip(cg);
    if (cg->m->n_rigids) {       /* q' = B(q) u; its series is the runtime's (nltaylor.c) */
        rigid_emit_kin(cg->m, cg->out);
        sfric_emit_list(cg->m, cg->out);
    }
    DvTape *tp = dv_tape((Derivation *)cg->dv);
    DvTape *ts = (cg->dv->nl & NL_SLIP) ? dv_tape_slips((Derivation *)cg->dv) : NULL;
    DvTape *tl = cg->dv->lagrangian ? dv_tape_lag((Derivation *)cg->dv) : NULL;
    const DvTape *all[] = {tp, ts, tl};
    cg->nl_nwork = tp->n_slots;
    cg->nl_slip_nwork = ts ? ts->n_slots : 0;
    cg->lag_nwork = tl ? tl->n_slots : 0;
    emit_tay_helpers(cg, all, 3);
    emit_nl_series(cg, tp);
    if (ts)
        emit_nl_slip_series(cg, ts);
    if (tl)
        emit_lag_series(cg, tl);
}

/* A model written by its energies: lag_mass() fills M(q) = d2T/dv dv,
 * lag_h() adds the Euler-Lagrange terms h(q, v) = dT/dq - dV/dq - (dM/dt) v
 * to F and lag_potential() returns V(q) (nsm/model.h; derive_lag.c). */
static void emit_lag(Cgen *cg)
{
    const Derivation *dv = cg->dv;
    FILE *o = cg->out;
    int n = dv->n;
    if (!dv->lagrangian)
        return;
    fprintf(o, "/* The mass matrix M(q) = d2T/dv dv at the positions of y (row-major). */\n"
               "static void lag_mass(const double *y, const double *p, const double *c, double *M)\n{\n"
               "    (void)c;\n");
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            fprintf(o, "    M[%d] = ", i * n + j);
            px(cg, dv->lag_M[i * n + j]);
            fprintf(o, ";\n");
        }
    fprintf(o, "}\n\n/* Adds to F the Euler-Lagrange terms h(q, v) = dT/dq - dV/dq - (dM/dt) v. */\n"
               "static void lag_h(const double *y, const double *p, const double *c, double *F)\n{\n"
               "    (void)c;\n");
    for (int i = 0; i < n; i++) {
        if (expr_is_zero(dv->lag_h[i]))
            continue;
        fprintf(o, "    F[%d] += ", i);
        px(cg, dv->lag_h[i]);
        fprintf(o, ";   /* %s */\n", cg->m->bodies[i].name);
    }
    fprintf(o, "}\n\n/* The potential energy V(q). */\n"
               "static double lag_potential(const double *y, const double *p, const double *c)\n{\n"
               "    (void)c;\n    (void)y;\n    (void)p;\n    return ");
    px(cg, cg->m->potential);
    fprintf(o, ";\n}\n\n");
}

/* The nonlinear entries of the nsm_model table. */
static void emit_nl_table(Cgen *cg)
{
    const Derivation *dv = cg->dv;
    FILE *o = cg->out;
    static const struct { int bit; const char *name; } bits[] = {
        {NL_FORCE, "NSM_NL_FORCE"}, {NL_GAP, "NSM_NL_GAP"}, {NL_PENALTY, "NSM_NL_PENALTY"},
        {NL_SLIP, "NSM_NL_SLIP"}};
    fprintf(o, "    .nl = ");
    for (int b = 0, any = 0; b < 4; b++)
        if (dv->nl & bits[b].bit)
            fprintf(o, "%s%s", any++ ? " | " : "", bits[b].name);
    fprintf(o, ",\n    .nl_force = nl_force,\n");
    if (dv->nl & NL_GAP)
        fprintf(o, "    .gap_curved = gap_curved,\n    .gap_ncols = gap_ncols,\n    .gap_cols = gap_cols,\n"
                   "    .n_wcurved = %d,\n    .nl_gap = nl_gap,\n", dv->n_wcurved);
    if (dv->nl & NL_SLIP)
        fprintf(o, "    .fric_curved = fric_curved,\n    .fric_ncols = fric_ncols,\n"
                   "    .fric_cols = fric_cols,\n    .n_wtcurved = %d,\n    .nl_slip = nl_slip,\n"
                   "    .nl_slip_nwork = %d,\n    .nl_slip_series = nl_slip_series,\n",
                dv->n_wtcurved, cg->nl_slip_nwork);
    if (cg->m->n_rigids) {
        rigid_emit_table(cg->m, o);
        sfric_emit_table(cg->m, o);
    }
    fprintf(o, "    .nl_nwork = %d,\n    .nl_series = nl_series,\n", cg->nl_nwork);
}

/* Whether an output column is an expression (output_value is written). */
static bool has_expr_outputs(const Model *m)
{
    for (int k = 0; k < m->n_outputs; k++)
        if (m->outputs[k].kind == OUT_EXPR)
            return true;
    return false;
}

/* output_value(): the output columns that are expressions of t, the
 * parameters and the state (a spring's force, a slip velocity, B.x - P.x). */
static void emit_output_value(Cgen *cg)
{
    const Model *m = cg->m;
    FILE *o = cg->out;
    if (!has_expr_outputs(m))
        return;
    cg->arrays = cg->rolling = false;
    fprintf(o, "/* Output column k when it is an expression of t, the parameters and the state. */\n");
    fprintf(o, "static double output_value(int k, double t, const double *y, const double *p, const double *c)\n{\n"
               "    switch (k) {\n");
    for (int k = 0; k < m->n_outputs; k++) {
        const Output *ou = &m->outputs[k];
        if (ou->kind != OUT_EXPR)
            continue;
        fprintf(o, "    case %d:   /* ", k);
        pcomment(o, ou->name);
        fprintf(o, " = ");
        pcomment(o, expr_to_string(cg->dv->ex, ou->value, EXPR_TEXT, &cg->tnm));
        fprintf(o, " */\n        return ");
        px(cg, ou->value);
        fprintf(o, ";\n");
    }
    fprintf(o, "    default:\n        return 0;\n    }\n}\n\n");
}

/* Are t_end, dt and every numbers, the table's for every parameter value
 * (no settings() then)? */
static bool settings_fixed(const Model *m)
{
    Expr *e[3] = { m->t_end_e, m->dt_e, m->every_e };
    const double num[3] = { m->t_end, m->dt, m->every };
    for (int k = 0; k < 3; k++) {
        double v;
        if (e[k] && !(expr_is_num(e[k], &v) && v == num[k]))
            return false;
    }
    return true;
}

/* settings(): `simulate` and `output every` from the parameters, so that a
 * --set of a parameter they use moves them too; nothing when they are
 * numbers. */
static void emit_settings(Cgen *cg)
{
    const Model *m = cg->m;
    FILE *o = cg->out;
    Expr *e[3] = { m->t_end_e, m->dt_e, m->every_e };
    const double num[3] = { m->t_end, m->dt, m->every };
    const char *name[3] = { "t_end", "dt", "every" };
    if (settings_fixed(m))
        return;
    fprintf(o, "/* t_end, dt (0: none) and the output period from the parameters. */\n");
    fprintf(o, "static void settings(const double *p, double *t)\n{\n");
    for (int k = 0; k < 3; k++) {
        fprintf(o, "    t[%d] = ", k);
        if (e[k])
            px(cg, e[k]);
        else
            fprintf(o, "%.17g", num[k]);
        fprintf(o, ";   /* %s */\n", name[k]);
    }
    fprintf(o, "}\n\n");
}

/* The runtime's name of an integration method. */
static const char *method_name(Method m)
{
    if (m == METHOD_TAYLOR)
        return "NSM_METHOD_TAYLOR";
    return m == METHOD_EXACT ? "NSM_METHOD_EXACT" : m == METHOD_ADAPTIVE ? "NSM_METHOD_ADAPTIVE" : "NSM_METHOD_RK4";
}

/* Writes one piece of the model's source as a C string literal: escapes
 * like pstr, plus "??" written "?\?" (no trigraph under -std=c11). */
static void emit_source_piece(FILE *o, const char *s, size_t n)
{
    fputs("    \"", o);
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '"' || ch == '\\')
            fprintf(o, "\\%c", ch);
        else if (ch == '\n')
            fputs("\\n", o);
        else if (ch < 32 || ch == 127)
            fprintf(o, "\\%03o", ch);
        else if (ch == '?' && i + 1 < n && s[i + 1] == '?')
            fputs("?\\", o);
        else
            fputc(ch, o);
    }
    fputs("\",\n", o);
}

/* The model's source text as the table's `source`: one piece per line,
 * long lines cut every 1000 bytes (a literal stays under the 4095
 * characters C11 guarantees, even with every byte escaped). */
static void emit_source(Cgen *cg)
{
    const char *s = cg->m->source;
    FILE *o = cg->out;
    if (!s)
        return;
    fputs("/* The model's source, kept for the HDF5 output (nsm_model.source). */\n"
          "static const char *const model_source[] = {\n", o);
    while (*s) {
        size_t n = strcspn(s, "\n");
        n = n < 1000 ? n + (s[n] == '\n') : 1000;
        emit_source_piece(o, s, n);
        s += n;
    }
    fputs("    NULL\n};\n\n", o);
}

/* The nsm_model table and the optional main(). */
static void emit_table(Cgen *cg)
{
    const Derivation *dv = cg->dv;
    const Model *m = cg->m;
    FILE *o = cg->out;
    char *id = c_ident(dv->arena, m->name ? m->name : "model");
    fprintf(o, "const nsm_model nsm_model_%s = {\n", id);
    fprintf(o, "    .abi = NSM_ABI_VERSION,\n    .name = ");
    pstr(o, m->name);
    fprintf(o, ",\n    .title = ");
    pstr(o, m->title ? m->title : "");
    fprintf(o, ",\n    .n_bodies = %d,\n    .n_params = %d,\n    .n_gaps = %d,\n", m->n_bodies,
            m->n_params, m->n_gaps);
    if (dv->n_sw)   /* counts the model has none of stay 0 */
        fprintf(o, "    .n_switches = %d,\n", dv->n_sw);
    fprintf(o, "    .n_springs = %d,\n    .n_consts = %d,\n", m->n_springs, dv->n_consts);
    fprintf(o, "    .body_names = body_names,\n    .params = %s,\n    .gaps = %s,\n    .springs = %s,\n",
            m->n_params ? "params" : "NULL", m->n_gaps ? "gaps" : "NULL", m->n_springs ? "springs" : "NULL");
    fprintf(o, "    .n_outputs = %d,\n    .outputs = %s,\n", m->n_outputs, m->n_outputs ? "outputs" : "NULL");
    fprintf(o, "    .t_end = %.17g,\n    .dt = %.17g,\n    .every = %.17g,\n    .method = %s,\n",
            m->t_end, m->dt, m->every, method_name(m->method));
    /* what the model lacks stays NULL (nsm/model.h) */
    fprintf(o, "    .setup = setup,\n    .initial = initial,\n");
    if (!all_zero(dv->fext, dv->n))
        fprintf(o, "    .force = force,\n");
    if (!all_zero(dv->fext_dot, dv->n))
        fprintf(o, "    .force_dot = force_dot,\n");
    if ((!m->n_frictions || dv->fric_modes) && !dv->nl)
        fprintf(o, "    .modes = modes,\n    .deriv = deriv,\n    .events = events,\n");
    if (dv->n_sw)
        fprintf(o, "    .switch_fn = switch_fn,\n    .switch_state = switch_state,\n");
    if (any_switch_affine(dv))
        fprintf(o, "    .switch_affine = switch_affine,\n");
    if (cg->n_gen)
        fprintf(o, "    .n_gen = %d,\n    .generator = generator,\n    .generator_state = generator_state,\n",
                cg->n_gen);
    if (m->n_forces)
        fprintf(o, "    .n_forces = %d,\n    .forces = forces,\n    .force_terms = force_terms,\n",
                m->n_forces);
    if (!settings_fixed(m))
        fprintf(o, "    .settings = settings,\n");
    if (m->n_frictions)
        fprintf(o, "    .n_frictions = %d,\n    .frictions = frictions,\n", m->n_frictions);
    if (m->n_planars)
        fprintf(o, "    .n_planar = %d,\n    .planar = planar,\n    .n_walls = %d,\n    .walls = %s,\n",
                m->n_planars, m->n_walls, m->n_walls ? "walls" : "NULL");
    if (model_has_sizes(m))
        fprintf(o, "    .param_size = param_size,\n");
    if (m->impact_law == IMPACT_SIMULTANEOUS)
        fprintf(o, "    .impact_law = NSM_IMPACT_SIMULTANEOUS,\n");
    else if (m->impact_law == IMPACT_ENERGETIC)
        fprintf(o, "    .impact_law = NSM_IMPACT_ENERGETIC,\n");
    if (dv->n_moving)
        fprintf(o, "    .n_moving = %d,\n    .gap_moving = gap_moving,\n    .gap_motion = gap_motion,\n"
                   "    .gap_generator = gap_generator,\n",
                dv->n_moving);
    fprintf(o, "    .nnz_K = %d,\n    .nnz_C = %d,\n    .nnz_W = %d,\n", cg->nnz_K, cg->nnz_C,
            cg->nnz_W);
    if (cg->nnz_Wt)
        fprintf(o, "    .nnz_Wt = %d,\n", cg->nnz_Wt);
    if (dv->nl)
        emit_nl_table(cg);
    if (has_expr_outputs(m))
        fprintf(o, "    .output_value = output_value,\n");
    if (m->source)
        fprintf(o, "    .source = model_source,\n");
    if (dv->lagrangian)
        fprintf(o, "    .lagrangian = 1,\n    .lag_mass = lag_mass,\n    .lag_h = lag_h,\n"
                   "    .lag_potential = lag_potential,\n    .lag_nwork = %d,\n"
                   "    .lag_series = lag_series,\n", cg->lag_nwork);
    if (coords_needed(m))
        fprintf(o, "    .coords = coords,\n");
    fprintf(o, "};\n\n");
    fprintf(o, "#ifndef NSM_NO_MAIN\n#include \"nsm/cli.h\"\n\n"
               "int main(int argc, char **argv) { return nsm_main(&nsm_model_%s, argc, argv); }\n#endif\n", id);
}

/* Why a model with friction has no modes(): fric_why. */
static void no_modes_comment(Cgen *cg)
{
    fprintf(cg->out, "/* No modes(): ");
    pcomment(cg->out, cg->dv->fric_why);
    fprintf(cg->out, ";\n * the runtime's generic path serves every mode (docs/status.md). */\n\n");
}

/* Writes the whole simulator source. */
int emit_c_model(const Derivation *dv, FILE *out)
{
    Cgen cg;
    if (!dv || !out)
        return 1;
    cg_init(&cg, dv, out);
    /* the generator of a model without forcing (z = 1, B = 0) is left out */
    cg.n_gen = dv->n_moving || !all_zero(dv->fext, dv->n) ? dv->n_gen : 0;
    emit_header(&cg);
    emit_tables(&cg);
    emit_setup(&cg);
    emit_initial(&cg);
    emit_force_fn(&cg, "force", "External forces f_ext(t) of the `force` statements.", dv->fext);
    emit_force_fn(&cg, "force_dot", "Their time derivative f_ext'(t).", dv->fext_dot);
    emit_force_terms(&cg);
    if ((!dv->model->n_frictions || dv->fric_modes) && !dv->nl)
        emit_modes(&cg);
    else if (dv->fric_why && !dv->nl)
        no_modes_comment(&cg);
    emit_switches(&cg);
    emit_generator(&cg);
    emit_gap_motion(&cg);
    if (dv->nl)
        emit_nl(&cg);
    emit_lag(&cg);
    emit_settings(&cg);
    emit_output_value(&cg);
    emit_source(&cg);
    emit_table(&cg);
    return ferror(out) ? 1 : 0;
}
