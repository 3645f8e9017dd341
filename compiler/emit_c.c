/*
 * emit_c.c - the C back end: one self-contained simulator source per model,
 * following runtime/include/nsm/model.h.
 *
 * The output is deterministic (no dates, no absolute paths) and every block
 * carries a comment with the equation it implements.  Names in the code:
 * p[i] parameters, c[k] hoisted constants, y[i] state (x then v), sw[k] time
 * switch flags; inside a mode F<i> net forces, lam<j> contact forces, a<i>
 * accelerations and Fd<i> force derivatives.
 */
#include <stdlib.h>
#include <string.h>

#include "emit.h"

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
} Cgen;

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
    if (index >= 0 && index < 2 * cg->dv->n)
        return cg->tname[index];
    if (index >= cg->dv->v_sw && index < cg->dv->v_sw + cg->dv->n_sw)
        return cg->vname[index];
    return "?";
}

/* How a variable reads in the generated C: y[i], sw[k], locals, c[k]. */
static const char *c_var(void *ud, int index, ExprStyle style)
{
    Cgen *cg = ud;
    (void)style;
    if (index < 0 || index >= cg->dv->n_vars)
        return "0";
    return cg->vname[index];
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

/* Writes a comment body safely: no comment terminator can leak out. */
static void pcomment(FILE *out, const char *s)
{
    for (; s && *s; s++) {
        if (s[0] == '*' && s[1] == '/') {
            fputs("* /", out);
            s++;
            continue;
        }
        fputc(*s, out);
    }
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
    for (int i = 0; i < 2 * n; i++)
        cg->vname[i] = arena_printf(a, "y[%d]", i);
    for (int k = 0; k < dv->n_sw; k++)
        cg->vname[dv->v_sw + k] = arena_printf(a, "sw[%d]", k);
    for (int i = 0; i < n; i++) {
        cg->vname[dv->v_f + i] = arena_printf(a, "F%d", i);
        cg->vname[dv->v_acc + i] = arena_printf(a, "a%d", i);
        cg->vname[dv->v_fdot + i] = arena_printf(a, "Fd%d", i);
    }
    for (int j = 0; j < dv->g; j++)
        cg->vname[dv->v_lam + j] = arena_printf(a, "lam%d", j);
    for (int k = 0; k < dv->n_consts; k++)
        cg->vname[dv->v_const + k] = arena_printf(a, "c[%d]", k);
    cg->nm.param = c_param;
    cg->nm.var = c_var;
    cg->nm.ud = cg;
    cg->tname = arena_alloc(a, (size_t)(2 * n + 1) * sizeof *cg->tname);
    for (int i = 0; i < n; i++) {
        cg->tname[i] = arena_printf(a, "%s.x", cg->m->bodies[i].name);
        cg->tname[n + i] = arena_printf(a, "%s.v", cg->m->bodies[i].name);
    }
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
    fprintf(o, " * Equations of motion in every mode (bitmask over gaps, bit j = gap j closed):\n");
    fprintf(o, " *   M a = F + sum_j w_j lambda_j,  F = f_ext(t) + f_const - K x - C v\n");
    fprintf(o, " * State y = (x, v):\n");
    for (int i = 0; i < dv->n; i++) {
        fprintf(o, " *   y[%d] = ", i);
        pcomment(o, m->bodies[i].name);
        fprintf(o, ".x   y[%d] = ", dv->n + i);
        pcomment(o, m->bodies[i].name);
        fprintf(o, ".v\n");
    }
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
        for (int j = 0; j < dv->g; j++) {
            fprintf(o, " *   %d ", j);
            pcomment(o, m->gaps[j].name);
            fprintf(o, ": %s\n", m->gaps[j].law == LAW_IMPACT ? "impact"
                                  : m->gaps[j].release == RELEASE_GAP ? "penalty, released when the gap reopens"
                                  : "penalty, released when the force vanishes");
        }
    }
    fprintf(o, " */\n#include <math.h>\n#include <stddef.h>\n\n#include \"nsm/model.h\"\n\n");
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
static bool model_has_sizes(const Model *m)
{
    for (int i = 0; i < m->n_params; i++)
        if (m->params[i].size)
            return true;
    return false;
}

static void emit_tables(Cgen *cg)
{
    const Model *m = cg->m;
    FILE *o = cg->out;
    fprintf(o, "static const char *const body_names[] = {");
    for (int i = 0; i < m->n_bodies; i++) {
        fprintf(o, "%s", i ? ", " : "");
        pstr(o, m->bodies[i].name);
    }
    fprintf(o, "};\n\n");
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
    if (model_has_sizes(m)) {
        fprintf(o, "/* 1: the parameter sizes an indexed family or a loop, fixed in this file */\n"
                   "static const unsigned char param_size[] = {");
        for (int i = 0; i < m->n_params; i++)
            fprintf(o, "%s%d", i ? ", " : "", m->params[i].size ? 1 : 0);
        fprintf(o, "};\n\n");
    }
    if (m->n_gaps) {
        fprintf(o, "static const nsm_gap_info gaps[] = {\n");
        for (int j = 0; j < m->n_gaps; j++) {
            fprintf(o, "    {");
            pstr(o, m->gaps[j].name);
            fprintf(o, ", %s, %s},\n", m->gaps[j].law == LAW_IMPACT ? "NSM_LAW_IMPACT" : "NSM_LAW_PENALTY",
                    m->gaps[j].release == RELEASE_GAP ? "NSM_RELEASE_GAP" : "NSM_RELEASE_FORCE");
        }
        fprintf(o, "};\n\n");
    }
    if (m->n_springs) {
        fprintf(o, "/* name, body a, body b (-1 = ground) */\nstatic const nsm_spring_info springs[] = {\n");
        for (int s = 0; s < m->n_springs; s++) {
            fprintf(o, "    {");
            if (m->springs[s].name)
                pstr(o, m->springs[s].name);
            else
                fprintf(o, "NULL");
            fprintf(o, ", %d, %d},\n", m->springs[s].a, m->springs[s].b);
        }
        fprintf(o, "};\n\n");
    }
    if (m->n_forces) {
        fprintf(o, "/* name, body */\nstatic const nsm_force_info forces[] = {\n");
        for (int k = 0; k < m->n_forces; k++) {
            fprintf(o, "    {");
            pstr(o, force_name(cg, k));
            fprintf(o, ", %d},\n", m->forces[k].body);
        }
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

/* ---- setup ------------------------------------------------------------------ */

/* 1 + the first parameter an expression depends on (1 when it depends on none). */
static int blame(const Model *m, const Expr *e)
{
    for (int i = 0; i < m->n_params; i++)
        if (expr_depends_on(e, expr_param(m->ex, i)))
            return i + 1;
    return 1;
}

/* One validity check in setup: `if (!(e OP bound)) return k;` */
static void emit_check(Cgen *cg, Expr *e, const char *op, const char *what, const char *name)
{
    FILE *o = cg->out;
    if (!e)
        return;
    fprintf(o, "    if (!(");
    px(cg, e);
    fprintf(o, " %s)) /* %s of ", op, what);
    pcomment(o, name);
    fprintf(o, " */\n        return %d;\n", blame(cg->m, e));
}

/* Assigns the nonzero entries of a matrix in nsm_numeric (row-major there). */
static void emit_matrix(Cgen *cg, const char *name, const DvMat *A)
{
    for (int i = 0; i < A->rows; i++)
        for (int k = 0; k < A->nnz[i]; k++)
            if (!expr_is_zero(A->val[i][k])) {
                fprintf(cg->out, "    num->%s[%ld] = ", name, (long)i * A->cols + A->col[i][k]);
                px(cg, A->val[i][k]);
                fprintf(cg->out, ";\n");
            }
}

/* setup(): parameter checks, hoisted constants and the numeric tables. */
static void emit_setup(Cgen *cg)
{
    const Derivation *dv = cg->dv;
    const Model *m = cg->m;
    FILE *o = cg->out;
    int n = dv->n, g = dv->g;
    fprintf(o, "/* Checks the parameters, derives the constants c[] and the numeric tables. */\n");
    fprintf(o, "static int setup(const double *p, double *c, nsm_numeric *num)\n{\n");
    fprintf(o, "    int i;\n    (void)p;\n    (void)c;\n");
    for (int i = 0; i < n; i++)
        emit_check(cg, m->bodies[i].mass, "> 0", "mass", m->bodies[i].name);
    for (int s = 0; s < m->n_springs; s++) {
        const char *nm = m->springs[s].name ? m->springs[s].name : "a spring";
        emit_check(cg, m->springs[s].k, ">= 0", "stiffness", nm);
        emit_check(cg, m->springs[s].c, ">= 0", "damping", nm);
    }
    for (int j = 0; j < g; j++) {
        const Gap *gp = &m->gaps[j];
        if (gp->law == LAW_IMPACT) {
            emit_check(cg, gp->e, ">= 0", "restitution", gp->name);
            emit_check(cg, gp->e, "<= 1", "restitution", gp->name);
        } else {
            emit_check(cg, gp->k, ">= 0", "contact stiffness", gp->name);
            emit_check(cg, gp->c, ">= 0", "contact damping", gp->name);
        }
    }
    if (m->gravity)
        emit_check(cg, m->gravity, ">= 0", "acceleration", "gravity");
    if (dv->n_consts)
        fprintf(o, "\n    /* hoisted constants */\n");
    for (int k = 0; k < dv->n_consts; k++) {
        fprintf(o, "    c[%d] = ", k);
        px(cg, dv->consts[k].value);
        fprintf(o, "; /* ");
        pcomment(o, dv->consts[k].what);
        fprintf(o, " */\n");
    }
    fprintf(o, "\n    /* numeric ingredients for the runtime's generic paths */\n");
    fprintf(o, "    for (i = 0; i < %d; i++)\n        num->K[i] = num->C[i] = 0;\n", n * n);
    for (int i = 0; i < n; i++) {
        fprintf(o, "    num->mass[%d] = ", i);
        px(cg, dv->mass[i]);
        fprintf(o, ";\n    num->fconst[%d] = ", i);
        px(cg, dv->fconst[i]);
        fprintf(o, ";\n");
    }
    emit_matrix(cg, "K", dv->K);
    emit_matrix(cg, "C", dv->C);
    if (g)
        fprintf(o, "    for (i = 0; i < %d; i++)\n        num->W[i] = 0;\n", g * n);
    emit_matrix(cg, "W", dv->W);
    for (int j = 0; j < g; j++) {
        const Gap *gp = &m->gaps[j];
        fprintf(o, "    num->d[%d] = ", j);
        px(cg, dv->d[j]);
        fprintf(o, ";\n    num->e[%d] = ", j);
        if (gp->law == LAW_IMPACT && gp->e)
            px(cg, gp->e);
        else
            fprintf(o, "0");
        fprintf(o, ";\n    num->kc[%d] = ", j);
        if (gp->law == LAW_PENALTY && gp->k)
            px(cg, gp->k);
        else
            fprintf(o, "0");
        fprintf(o, ";\n    num->cc[%d] = ", j);
        if (gp->law == LAW_PENALTY && gp->c)
            px(cg, gp->c);
        else
            fprintf(o, "0");
        fprintf(o, ";\n");
    }
    for (int s = 0; s < m->n_springs; s++) {
        const Spring *sp = &m->springs[s];
        fprintf(o, "    num->sk[%d] = ", s);
        if (sp->k) px(cg, sp->k); else fprintf(o, "0");
        fprintf(o, ";\n    num->sc[%d] = ", s);
        if (sp->c) px(cg, sp->c); else fprintf(o, "0");
        fprintf(o, ";\n    num->srest[%d] = ", s);
        if (sp->rest) px(cg, sp->rest); else fprintf(o, "0");
        fprintf(o, ";\n");
    }
    fprintf(o, "    num->gravity = ");
    if (m->gravity)
        px(cg, m->gravity);
    else
        fprintf(o, "0");
    fprintf(o, ";\n    return 0;\n}\n\n");
}

/* ---- initial state and forces ---------------------------------------------- */

static void emit_initial(Cgen *cg)
{
    const Model *m = cg->m;
    FILE *o = cg->out;
    int n = cg->dv->n;
    fprintf(o, "/* Initial state from the `init` statements. */\n");
    fprintf(o, "static void initial(const double *p, const double *c, double *y)\n{\n");
    fprintf(o, "    (void)p;\n    (void)c;\n");
    for (int i = 0; i < n; i++) {
        fprintf(o, "    y[%d] = ", i);
        px(cg, m->init_x && m->init_x[i] ? m->init_x[i] : expr_num(m->ex, 0));
        fprintf(o, ";\n    y[%d] = ", n + i);
        px(cg, m->init_v && m->init_v[i] ? m->init_v[i] : expr_num(m->ex, 0));
        fprintf(o, ";\n");
    }
    fprintf(o, "}\n\n");
}

/* force() or force_dot(): one line per body. */
static void emit_force_fn(Cgen *cg, const char *name, const char *doc, Expr **f)
{
    FILE *o = cg->out;
    fprintf(o, "/* %s */\n", doc);
    fprintf(o, "static void %s(double t, const int *sw, const double *p, const double *c, double *f)\n{\n", name);
    fprintf(o, "    (void)t;\n    (void)sw;\n    (void)p;\n    (void)c;\n");
    for (int i = 0; i < cg->dv->n; i++) {
        fprintf(o, "    f[%d] = ", i);
        px(cg, f[i]);
        fprintf(o, ";\n");
    }
    fprintf(o, "}\n\n");
}

/* force_terms(): one line per `force` statement, for the energy audit's
 * work of each force. */
static void emit_force_terms(Cgen *cg)
{
    const Model *m = cg->m;
    FILE *o = cg->out;
    fprintf(o, "/* The `force` statements one by one (work of each force in the energy audit). */\n");
    fprintf(o, "static void force_terms(double t, const int *sw, const double *p, const double *c, double *fk)\n{\n");
    fprintf(o, "    (void)t;\n    (void)sw;\n    (void)p;\n    (void)c;\n");
    if (!m->n_forces)
        fprintf(o, "    (void)fk;\n");
    for (int k = 0; k < m->n_forces; k++) {
        fprintf(o, "    fk[%d] = ", k);
        px(cg, cg->dv->force_each[k]);
        fprintf(o, ";\n");
    }
    fprintf(o, "}\n\n");
}

/* ---- modes -------------------------------------------------------------------- */

static const char *ev_doc(const Model *m, unsigned mask, int j)
{
    const Gap *gp = &m->gaps[j];
    bool closed = dv_closed(mask, j);
    if (!closed && (gp->law == LAW_IMPACT || gp->release == RELEASE_GAP))
        return "open: s = gap, s' = w.v";
    if (!closed)
        return "open, force release: s = max(gap, k gap + c gap')";
    if (gp->law == LAW_IMPACT)
        return "held shut: s = lambda, s' = dlambda/dF . F'";
    if (gp->release == RELEASE_FORCE)
        return "engaged: s = k p + c p', s' = k p' + c p''";
    return "engaged: s = p = -gap, s' = -w.v";
}

/* One mode as a straight-line function: forces, contact forces, accelerations, events. */
static void emit_mode(Cgen *cg, const DvMode *md)
{
    const Derivation *dv = cg->dv;
    const Model *m = cg->m;
    FILE *o = cg->out;
    int n = dv->n, g = dv->g;

    fprintf(o, "/* mode %u ", md->mask);
    pcomment(o, md->label);
    fprintf(o, ": ");
    pcomment(o, md->story);
    if (md->n_impact)
        fprintf(o, ";\n * lambda_R = -(W_R M^-1 W_R^T)^-1 W_R M^-1 F over the closed impact gaps R,"
                   "\n * (W_R M^-1 W_R^T)^-1 = c[%d..%d]", md->sinv, md->sinv + md->n_impact * md->n_impact - 1);
    for (int k = 0; k < md->n_impact; k++) {
        /* the contact force written out, when it reads in one line */
        int j = md->impact[k];
        Expr *l = dv_pretty(dv, dv_expand_consts(dv, dv_full(dv, md, dv->lam[j])));
        char *txt = expr_to_string(dv->ex, l, EXPR_TEXT, &cg->tnm);
        if (strlen(txt) > 160)
            continue;
        fprintf(o, ";\n * lambda_");
        pcomment(o, m->gaps[j].name);
        fprintf(o, " = ");
        pcomment(o, txt);
    }
    fprintf(o, " */\n");
    fprintf(o, "static void mode_%u(double t, const double *y, const int *sw, const double *p,\n"
               "                   const double *c, double *ydot, double *lam, double *s, double *sdot)\n{\n",
            md->mask);
    fprintf(o, "    (void)t;\n    (void)y;\n    (void)sw;\n    (void)p;\n    (void)c;\n");
    int k = 0;
    fprintf(o, "    /* F = f_ext(t) + f_const - K x - C v");
    for (int j = 0; j < g; j++)
        if (dv_closed(md->mask, j) && m->gaps[j].law == LAW_PENALTY)
            fprintf(o, "; engaged %s adds k w w^T to K, c w w^T to C, -k d w to f", m->gaps[j].name);
    fprintf(o, " */\n");
    for (; k < n; k++) {
        fprintf(o, "    const double %s = ", c_var(cg, md->prog[k].var->index, EXPR_C));
        px(cg, md->prog[k].value);
        fprintf(o, ";\n");
    }
    if (md->n_impact)
        fprintf(o, "    /* contact forces of the gaps held shut */\n");
    for (; k < n + md->n_impact; k++) {
        fprintf(o, "    const double %s = ", c_var(cg, md->prog[k].var->index, EXPR_C));
        px(cg, md->prog[k].value);
        fprintf(o, ";\n");
    }
    fprintf(o, "    /* a = M^-1 (F + W_R^T lambda_R) */\n");
    for (; k < 2 * n + md->n_impact; k++) {
        fprintf(o, "    const double %s = ", c_var(cg, md->prog[k].var->index, EXPR_C));
        px(cg, md->prog[k].value);
        fprintf(o, ";\n");
    }
    fprintf(o, "    if (ydot) {\n");
    for (int i = 0; i < 2 * n; i++) {
        fprintf(o, "        ydot[%d] = ", i);
        px(cg, md->ydot[i]);
        fprintf(o, ";\n");
    }
    fprintf(o, "    }\n");
    if (g) {
        fprintf(o, "    if (lam) {\n");
        for (int j = 0; j < g; j++) {
            fprintf(o, "        lam[%d] = ", j);
            px(cg, md->lambda[j]);
            fprintf(o, ";\n");
        }
        fprintf(o, "    }\n");
        fprintf(o, "    if (s && sdot) {\n");
        if (md->n_impact) {
            fprintf(o, "        /* F' = f_ext'(t) - K v - C a */\n");
            for (; k < md->n_prog; k++) {
                bool used = false;
                for (int j = 0; j < g; j++)
                    used |= expr_depends_on(md->evdot[j], md->prog[k].var);
                if (!used)
                    continue;
                fprintf(o, "        const double %s = ", c_var(cg, md->prog[k].var->index, EXPR_C));
                px(cg, md->prog[k].value);
                fprintf(o, ";\n");
            }
        }
        for (int j = 0; j < g; j++) {
            fprintf(o, "        /* ");
            pcomment(o, m->gaps[j].name);
            fprintf(o, " %s */\n        s[%d] = ", ev_doc(m, md->mask, j), j);
            px(cg, md->ev[j]);
            fprintf(o, ";\n        sdot[%d] = ", j);
            px(cg, md->evdot[j]);
            fprintf(o, ";\n");
        }
        fprintf(o, "    }\n");
    } else {
        fprintf(o, "    (void)lam;\n    (void)s;\n    (void)sdot;\n");
    }
    fprintf(o, "}\n\n");
}

/* The three per-mode entry points dispatch to the mode functions. */
static void emit_dispatch(Cgen *cg)
{
    const Derivation *dv = cg->dv;
    FILE *o = cg->out;
    int made = dv->enumerated ? dv->n_modes : 1;
    static const char *fn[3] = {"rhs", "lambda", "event"};
    static const char *args[3] = {
        "double *ydot", "double *lam", "double *s, double *sdot"};
    static const char *call[3] = {"ydot, NULL, NULL, NULL", "NULL, lam, NULL, NULL", "NULL, NULL, s, sdot"};
    for (int f = 0; f < 3; f++) {
        fprintf(o, "static int %s(unsigned mode, double t, const double *y, const int *sw,\n"
                   "    const double *p, const double *c, %s)\n{\n", fn[f], args[f]);
        fprintf(o, "    switch (mode) {\n");
        for (int k = 0; k < made; k++) {
            const DvMode *md = &dv->modes[k];
            if (md->status == DV_MODE_INADMISSIBLE) {
                fprintf(o, "    case %u: /* inadmissible: the closed gaps' w are dependent, never entered */\n"
                           "        return NSM_NOT_DERIVED;\n", md->mask);
                continue;
            }
            fprintf(o, "    case %u:\n        mode_%u(t, y, sw, p, c, %s);\n        return 0;\n",
                    md->mask, md->mask, call[f]);
        }
        fprintf(o, "    default:\n");
        if (!dv->enumerated)
            fprintf(o, "        /* %d gaps: modes beyond the all-open one are left to the runtime */\n", dv->g);
        fprintf(o, "        (void)t;\n        (void)y;\n        (void)sw;\n        (void)p;\n        (void)c;\n");
        if (f == 0)
            fprintf(o, "        (void)ydot;\n");
        else if (f == 1)
            fprintf(o, "        (void)lam;\n");
        else
            fprintf(o, "        (void)s;\n        (void)sdot;\n");
        fprintf(o, "        return NSM_NOT_DERIVED;\n    }\n}\n\n");
    }
}

/* ---- switches and generator ---------------------------------------------------- */

static void emit_switches(Cgen *cg)
{
    const Derivation *dv = cg->dv;
    FILE *o = cg->out;
    fprintf(o, "/* Time switch k: s = lhs - rhs of its comparison, and s'. */\n");
    fprintf(o, "static void switch_fn(int k, double t, const double *p, const double *c, double *s, double *sdot)\n{\n");
    fprintf(o, "    (void)t;\n    (void)p;\n    (void)c;\n    switch (k) {\n");
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
    fprintf(o, "    (void)t;\n    (void)p;\n    (void)c;\n    switch (k) {\n");
    for (int k = 0; k < dv->n_sw; k++) {
        fprintf(o, "    case %d:\n        return ", k);
        px(cg, dv->sw_list[k].cond);
        fprintf(o, ";\n");
    }
    fprintf(o, "    default:\n        return 0;\n    }\n}\n\n");
}

/* generator() and generator_state() of the exact method. */
static void emit_generator(Cgen *cg)
{
    const Derivation *dv = cg->dv;
    FILE *o = cg->out;
    int n = dv->n, ng = dv->n_gen;
    fprintf(o, "/* Exact method: f_ext(t) = B z(t), z' = G z");
    if (!ng)
        fprintf(o, " -- not available, the forces are not built from polynomials, exponentials and sinusoids");
    fprintf(o, ". */\n");
    fprintf(o, "static void generator(const int *sw, const double *p, const double *c, double *G, double *B)\n{\n");
    fprintf(o, "    int i;\n    (void)sw;\n    (void)p;\n    (void)c;\n");
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
    fprintf(o, "    (void)t;\n    (void)sw;\n    (void)p;\n    (void)c;\n");
    if (!ng)
        fprintf(o, "    (void)z;\n");
    for (int i = 0; i < ng; i++) {
        fprintf(o, "    z[%d] = ", i);
        px(cg, dv->z[i]);
        fprintf(o, ";\n");
    }
    fprintf(o, "}\n\n");
}

/* settings(): `simulate` and `output every` from the parameters, so that a
 * --set of a parameter they use moves them too. */
static void emit_settings(Cgen *cg)
{
    const Model *m = cg->m;
    FILE *o = cg->out;
    Expr *e[3] = { m->t_end_e, m->dt_e, m->every_e };
    const double num[3] = { m->t_end, m->dt, m->every };
    const char *name[3] = { "t_end", "dt", "every" };
    fprintf(o, "/* t_end, dt (0: none) and the output period from the parameters. */\n");
    fprintf(o, "static void settings(const double *p, double *t)\n{\n    (void)p;\n");
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
    return m == METHOD_EXACT ? "NSM_METHOD_EXACT" : m == METHOD_ADAPTIVE ? "NSM_METHOD_ADAPTIVE" : "NSM_METHOD_RK4";
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
    fprintf(o, ",\n    .n_bodies = %d,\n    .n_params = %d,\n    .n_gaps = %d,\n    .n_switches = %d,\n"
               "    .n_springs = %d,\n    .n_consts = %d,\n",
            m->n_bodies, m->n_params, m->n_gaps, dv->n_sw, m->n_springs, dv->n_consts);
    fprintf(o, "    .body_names = body_names,\n    .params = %s,\n    .gaps = %s,\n    .springs = %s,\n",
            m->n_params ? "params" : "NULL", m->n_gaps ? "gaps" : "NULL", m->n_springs ? "springs" : "NULL");
    fprintf(o, "    .n_outputs = %d,\n    .outputs = %s,\n", m->n_outputs, m->n_outputs ? "outputs" : "NULL");
    fprintf(o, "    .t_end = %.17g,\n    .dt = %.17g,\n    .every = %.17g,\n    .method = %s,\n",
            m->t_end, m->dt, m->every, method_name(m->method));
    fprintf(o, "    .setup = setup,\n    .initial = initial,\n    .force = force,\n    .force_dot = force_dot,\n"
               "    .rhs = rhs,\n    .lambda = lambda,\n    .event = event,\n"
               "    .switch_fn = switch_fn,\n    .switch_state = switch_state,\n");
    fprintf(o, "    .n_gen = %d,\n    .generator = generator,\n    .generator_state = generator_state,\n",
            dv->n_gen);
    fprintf(o, "    .n_forces = %d,\n    .forces = %s,\n    .force_terms = force_terms,\n"
               "    .settings = settings,\n",
            m->n_forces, m->n_forces ? "forces" : "NULL");
    if (model_has_sizes(m))
        fprintf(o, "    .param_size = param_size,\n");
    fprintf(o, "};\n\n");
    fprintf(o, "#ifndef NSM_NO_MAIN\n#include \"nsm/nsm.h\"\n\n"
               "int main(int argc, char **argv) { return nsm_main(&nsm_model_%s, argc, argv); }\n#endif\n", id);
}

/* Writes the whole simulator source. */
int emit_c_model(const Derivation *dv, FILE *out)
{
    Cgen cg;
    if (!dv || !out)
        return 1;
    cg_init(&cg, dv, out);
    emit_header(&cg);
    emit_tables(&cg);
    emit_setup(&cg);
    emit_initial(&cg);
    emit_force_fn(&cg, "force", "External forces f_ext(t) of the `force` statements.", dv->fext);
    emit_force_fn(&cg, "force_dot", "Their time derivative f_ext'(t).", dv->fext_dot);
    emit_force_terms(&cg);
    int made = dv->enumerated ? dv->n_modes : 1;
    for (int k = 0; k < made; k++)
        if (dv->modes[k].status == DV_MODE_DERIVED)
            emit_mode(&cg, &dv->modes[k]);
    emit_dispatch(&cg);
    emit_switches(&cg);
    emit_generator(&cg);
    emit_settings(&cg);
    emit_table(&cg);
    return ferror(out) ? 1 : 0;
}
