/*
 * emit_eq.c - the equations report (`nsmc --emit=equations`): for every mode
 * its matrices y' = A y + b(t), the contact forces of the closed gaps, each
 * gap's event function with its derivative and the recast that lands on it.
 * For models shaped like Dedow & Murphy's it adds their forms: relative
 * coordinates (Eq. 2), the gap recast (Eq. 3, corrected), the stuck mode with
 * the contact force as a state (Eq. 11) and the force recast (Eq. 12,
 * corrected).  Markdown with LaTeX by default, plain text for a terminal.
 */
#include <ctype.h>
#include <stdarg.h>
#include <string.h>

#include "emit.h"
#include "laws.h"

typedef struct Eq {
    const Derivation *dv;
    const Model *m;
    FILE *o;
    EqFormat fmt;
    ExprStyle style;
    char **ptext, **platex;   /* parameter names */
    char **vtext, **vlatex;   /* variable names */
    int nv;
    ExprNamer nm;
    ExprChain *consts;        /* the hoisted constants, for all modes */
    ExprChain *locals;        /* the current mode's locals */
} Eq;

/* ---- names ------------------------------------------------------------------- */

/* A LaTeX rendering of an identifier: k1 -> k_{1}, k_stop -> k_{\mathrm{stop}}. */
static char *latex_ident(Arena *a, const char *name)
{
    size_t n = strlen(name), i = 0;
    while (i < n && isalpha((unsigned char)name[i]))
        i++;
    char *base = i == 1 ? arena_strndup(a, name, 1)
                : i == 0 ? arena_strdup(a, "")
                : arena_printf(a, "\\mathrm{%.*s}", (int)i, name);
    const char *rest = name + i;
    if (*rest == '_')
        rest++;
    if (!*rest)
        return base;
    char *esc = arena_alloc(a, 2 * strlen(rest) + 1);
    size_t k = 0;
    bool digits = true;
    for (const char *s = rest; *s; s++) {
        if (*s == '_')
            esc[k++] = '\\';
        digits &= isdigit((unsigned char)*s) != 0;
        esc[k++] = *s;
    }
    esc[k] = 0;
    return digits ? arena_printf(a, "%s_{%s}", base, esc) : arena_printf(a, "%s_{\\mathrm{%s}}", base, esc);
}

/* A parameter's name in the report's notation. */
static const char *eq_param(void *ud, int index, ExprStyle style)
{
    Eq *q = ud;
    return style == EXPR_LATEX ? q->platex[index] : q->ptext[index];
}

/* A variable's name in the report's notation. */
static const char *eq_var(void *ud, int index, ExprStyle style)
{
    Eq *q = ud;
    if (index < 0 || index >= q->nv || !q->vtext[index])
        return "?";
    return style == EXPR_LATEX ? q->vlatex[index] : q->vtext[index];
}

/* Sets the text and LaTeX names of a variable. */
static void setv(Eq *q, int index, const char *text, char *latex)
{
    q->vtext[index] = (char *)text;
    q->vlatex[index] = latex;
}

/* Names every parameter and variable the report prints. */
static void eq_init(Eq *q, const Derivation *dv, FILE *out, EqFormat fmt)
{
    Arena *a = dv->arena;
    const Model *m = dv->model;
    int n = dv->n;
    memset(q, 0, sizeof *q);
    q->dv = dv;
    q->m = m;
    q->o = out;
    q->fmt = fmt;
    q->style = fmt == EQ_MARKDOWN ? EXPR_LATEX : EXPR_TEXT;
    q->ptext = arena_alloc(a, (size_t)(m->n_params + 1) * sizeof *q->ptext);
    q->platex = arena_alloc(a, (size_t)(m->n_params + 1) * sizeof *q->platex);
    for (int i = 0; i < m->n_params; i++) {
        q->ptext[i] = arena_strdup(a, m->params[i].name);
        q->platex[i] = latex_ident(a, m->params[i].name);
    }
    q->nv = dv->v_report + 2 * n + 3 + dv->g + 3 + 3 * dv->g + 1;
    q->vtext = arena_alloc(a, (size_t)q->nv * sizeof *q->vtext);
    q->vlatex = arena_alloc(a, (size_t)q->nv * sizeof *q->vlatex);
    for (int i = 0; i < n; i++) {
        const Body *bd = &m->bodies[i];
        const char *b = bd->name;
        /* a planar body's coordinates read x_D, y_D, \varphi_D */
        const char *sym = bd->coord == COORD_Y ? "y" : bd->coord == COORD_PHI ? "\\varphi" : "x";
        const char *sub = bd->planar >= 0 ? m->planars[bd->planar].name : b;
        setv(q, i, bd->xname, arena_printf(a, "%s_{\\mathrm{%s}}", sym, sub));
        setv(q, n + i, bd->vname, arena_printf(a, "\\dot{%s}_{\\mathrm{%s}}", sym, sub));
        setv(q, dv->v_f + i, arena_printf(a, "F_%s", b), arena_printf(a, "F_{\\mathrm{%s}}", b));
        setv(q, dv->v_acc + i, bd->aname, arena_printf(a, "\\ddot{%s}_{\\mathrm{%s}}", sym, sub));
        setv(q, dv->v_fdot + i, arena_printf(a, "F_%s'", b), arena_printf(a, "\\dot{F}_{\\mathrm{%s}}", b));
    }
    for (int b = 0; b < m->n_rigids; b++) {   /* a rigid body's quaternion p0 .. p3 */
        const Rigid *rb = &m->rigids[b];
        setv(q, 2 * n + b, arena_printf(a, "%s.p0", rb->name),
             arena_printf(a, "p_{0,\\mathrm{%s}}", rb->name));
        for (int k = 0; k < 3; k++)
            setv(q, rb->ix + 3 + k, m->bodies[rb->ix + 3 + k].xname,
                 arena_printf(a, "p_{%d,\\mathrm{%s}}", k + 1, rb->name));
    }
    for (int k = 0; k < dv->n_sw; k++)
        setv(q, dv->v_sw + k, arena_printf(a, "sw%d", k), arena_printf(a, "\\sigma_{%d}", k));
    for (int j = 0; j < dv->g; j++) {
        const char *g = m->gaps[j].name;
        setv(q, dv->v_lam + j, arena_printf(a, "lambda_%s", g), arena_printf(a, "\\lambda_{\\mathrm{%s}}", g));
    }
    for (int k = 0; k < dv->n_consts; k++)
        setv(q, dv->v_const + k, arena_printf(a, "c%d", k), arena_printf(a, "c_{%d}", k));
    for (int k = 0; k < 3 + dv->g; k++)
        setv(q, dv->v_report + 2 * n + k, arena_printf(a, "v%d", k + 1), arena_printf(a, "v_{%d}", k + 1));
    int base = dv->v_report + 2 * n + 3 + dv->g;
    setv(q, base, "A32", "A_{32}");
    setv(q, base + 1, "A33", "A_{33}");
    setv(q, base + 2, "b3(t)", "b_{3}(t)");
    for (int k = 0; k < dv->g; k++) {
        setv(q, base + 3 + 3 * k, arena_printf(a, "A%d2", 4 + k), arena_printf(a, "A_{%d2}", 4 + k));
        setv(q, base + 4 + 3 * k, arena_printf(a, "A%d3", 4 + k), arena_printf(a, "A_{%d3}", 4 + k));
        setv(q, base + 5 + 3 * k, arena_printf(a, "b%d(t)", 4 + k), arena_printf(a, "b_{%d}(t)", 4 + k));
    }
    q->nm.param = eq_param;
    q->nm.var = eq_var;
    q->nm.ud = q;
}

/* Names the relative coordinates: kept bodies u<i>, gap coordinates r (r_<gap>). */
static void name_relative(Eq *q, const DvRelative *rel)
{
    const Derivation *dv = q->dv;
    Arena *a = dv->arena;
    int n = dv->n;
    for (int i = 0; i < n; i++) {
        int j = rel->gap_of[i];
        if (j < 0) {
            setv(q, dv->v_report + i, arena_printf(a, "u%d", i + 1), arena_printf(a, "u_{%d}", i + 1));
            setv(q, dv->v_report + n + i, arena_printf(a, "u%d'", i + 1), arena_printf(a, "\\dot{u}_{%d}", i + 1));
        } else if (dv->g == 1) {
            setv(q, dv->v_report + i, "r", "r");
            setv(q, dv->v_report + n + i, "r'", "\\dot{r}");
        } else {
            const char *g = q->m->gaps[j].name;
            setv(q, dv->v_report + i, arena_printf(a, "r_%s", g), arena_printf(a, "r_{\\mathrm{%s}}", g));
            setv(q, dv->v_report + n + i, arena_printf(a, "r_%s'", g), arena_printf(a, "\\dot{r}_{\\mathrm{%s}}", g));
        }
    }
}

/* ---- output primitives ---------------------------------------------------------- */

/* e with the hoisted constants substituted (dv_expand_consts), through one
 * memo for the whole report, so that shared subexpressions are expanded
 * once: linear in the size of the expression graph. */
static Expr *consts_of(Eq *q, Expr *e)
{
    return expr_chain_apply(q->dv->ex, q->consts, e);
}

/* e with the current mode's locals substituted (dv_full), memoized per mode. */
static Expr *full_of(Eq *q, Expr *e)
{
    return expr_chain_apply(q->dv->ex, q->locals, e);
}

/* Starts the memos: the constants' once, the locals' for each mode. */
static void chains_begin(Eq *q, const DvMode *mo)
{
    const Derivation *dv = q->dv;
    Arena *a = dv->arena;
    if (!q->consts) {
        int nc = dv->n_consts;
        Expr **vars = arena_alloc(a, (size_t)(nc + 1) * sizeof *vars);
        Expr **vals = arena_alloc(a, (size_t)(nc + 1) * sizeof *vals);
        for (int k = 0; k < nc; k++) {
            vars[k] = dv->cvar && k < dv->n_cvar ? dv->cvar[k] : expr_var(dv->ex, dv->v_const + k);
            vals[k] = dv->consts[k].value;
        }
        q->consts = expr_chain_new(nc, vars, vals);
    }
    expr_chain_free(q->locals);
    q->locals = NULL;
    if (!mo)
        return;
    Expr **vars = arena_alloc(a, (size_t)(mo->n_prog + 1) * sizeof *vars);
    Expr **vals = arena_alloc(a, (size_t)(mo->n_prog + 1) * sizeof *vals);
    for (int k = 0; k < mo->n_prog; k++) {
        vars[k] = mo->prog[k].var;
        vals[k] = mo->prog[k].value;
    }
    q->locals = expr_chain_new(mo->n_prog, vars, vals);
}

static const char *sx(Eq *q, Expr *e)
{
    return expr_to_string(q->dv->ex, e, q->style, &q->nm);
}

/* True when writing markdown. */
static bool md(const Eq *q)
{
    return q->fmt == EQ_MARKDOWN;
}

/* An expression inside running text: $...$ in markdown. */
static const char *inl(Eq *q, Expr *e)
{
    const char *s = sx(q, e);
    return md(q) ? arena_printf(q->dv->arena, "$%s$", s) : s;
}

/* A section heading: "#" levels in markdown, underlined in text. */
static void heading(Eq *q, int level, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (md(q)) {
        fprintf(q->o, "%.*s %s\n\n", level, "######", buf);
        return;
    }
    fprintf(q->o, "%s\n", buf);
    size_t len = strlen(buf);
    for (size_t i = 0; i < len; i++)
        fputc(level == 1 ? '=' : level == 2 ? '-' : '.', q->o);
    fprintf(q->o, "\n\n");
}

/* A paragraph of running text. */
static void para(Eq *q, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(q->o, fmt, ap);
    va_end(ap);
    fprintf(q->o, "\n\n");
}

/* One displayed equation "lhs = rhs"; lhs given in both notations. */
static void eqn(Eq *q, const char *lhs_text, const char *lhs_latex, Expr *rhs)
{
    if (md(q))
        fprintf(q->o, "$$%s = %s$$\n\n", lhs_latex, sx(q, rhs));
    else
        fprintf(q->o, "    %s = %s\n", lhs_text, sx(q, rhs));
}

/* An equation whose left side is a symbol subscripted by a name: SYM_NAME
 * as text, LATEX_{\mathrm{NAME}} in Markdown. */
static void eqn_sub(Eq *q, const char *sym, const char *latex, const char *name, Expr *rhs)
{
    Arena *a = q->dv->arena;
    eqn(q, arena_printf(a, "%s_%s", sym, name), arena_printf(a, "%s_{\\mathrm{%s}}", latex, name), rhs);
}

/* Ends a block of equations. */
static void eqn_end(Eq *q)
{
    if (!md(q))
        fputc('\n', q->o);
}

/* The planar bodies and their walls: which coordinates each body has, its
 * mass, moment of inertia and radius, and each wall's gap.  Nothing for a
 * model on the line. */
static void emit_planar(Eq *q)
{
    const Model *m = q->m;
    if (!m->n_planars)
        return;
    heading(q, 2, "Planar bodies");
    para(q, "Each planar body moves in the plane (y up, phi counter-clockwise) with three "
            "coordinates, each a body of its own below: x and y carry its mass, phi its moment "
            "of inertia (kinetic energy 1/2 m (vx^2 + vy^2) + 1/2 I omega^2).%s",
         m->gravity ? " Gravity acts along the direction given (default -y)." : "");
    for (int k = 0; k < m->n_planars; k++) {
        const Planar *pl = &m->planars[k];
        para(q, "%s %s: coordinates %s, %s, %s; velocities %s, %s, %s.", pl->disc ? "Disc" : "Body",
             pl->name, m->bodies[pl->ix].xname, m->bodies[pl->iy].xname, m->bodies[pl->iphi].xname,
             m->bodies[pl->ix].vname, m->bodies[pl->iy].vname, m->bodies[pl->iphi].vname);
        eqn_sub(q, "m", "m", pl->name, pl->mass);
        eqn_sub(q, "I", "I", pl->name, pl->inertia);
        if (pl->radius)
            eqn_sub(q, "R", "R", pl->name, pl->radius);
        eqn_end(q);
    }
    for (int k = 0; k < m->n_walls; k++) {
        const Wall *w = &m->walls[k];
        const Gap *gp = &m->gaps[w->gap];
        const Planar *pl = &m->planars[w->planar];
        para(q, "Wall %s against %s: gap %s = n . (%s, %s) - n . p - R >= 0, with the unit normal n "
                "and the point p:", w->name, pl->name, gp->name, m->bodies[pl->ix].xname,
             m->bodies[pl->iy].xname);
        eqn(q, "n_x", "n_x", w->nx);
        eqn(q, "n_y", "n_y", w->ny);
        eqn(q, "p_x", "p_x", w->px);
        eqn(q, "p_y", "p_y", w->py);
        eqn_end(q);
    }
}

/* Bodies in space (docs/theory.md section 19): each rigid body's state,
 * its kinematic map q' = B(q) u, Newton-Euler's equations with their
 * gyroscopic torques, its weight and its energies.  Nothing without them. */
static void emit_rigid(Eq *q)
{
    const Model *m = q->m;
    Arena *a = q->dv->arena;
    if (!m->n_rigids)
        return;
    heading(q, 2, "Bodies in space");
    para(q, "Each rigid body has the positions q = (x, y, z, p0, p1, p2, p3), its centre of mass in "
            "the world frame and a unit quaternion p (body to world, scalar first), and the "
            "velocities u = (vx, vy, vz, w1, w2, w3), w in the body frame; the state is "
            "(q[%d], u[%d]) with p1, p2, p3 in the position slots of w1, w2, w3 and each p0 after "
            "the %d positions. q' = B(q) u: r' = v, p0' = -(p1 w1 + p2 w2 + p3 w3)/2, "
            "p1' = (p0 w1 + p2 w3 - p3 w2)/2, p2' = (p0 w2 + p3 w1 - p1 w3)/2, "
            "p3' = (p0 w3 + p1 w2 - p2 w1)/2; the runtime scales p to unit length after every "
            "step. Newton-Euler: m v' = F + m g, I w' = tau - w x I w (the gyroscopic torques "
            "are f_nl below), with the constant mass matrix diag(m, m, m, I1, I2, I3). Kinetic "
            "energy 1/2 m v.v + 1/2 (I1 w1^2 + I2 w2^2 + I3 w3^2), potential -m g.r. Rotations "
            "R(p) are written homogeneous, (...)/|p|^2.", m->nq, m->n_bodies, m->n_bodies);
    for (int k = 0; k < m->n_rigids; k++) {
        const Rigid *rb = &m->rigids[k];
        para(q, "Rigid body %s: positions %s, %s, %s, %s.p0, %s, %s, %s; velocities %s, %s, %s, %s, %s, %s.",
             rb->name, m->bodies[rb->ix].xname, m->bodies[rb->ix + 1].xname, m->bodies[rb->ix + 2].xname,
             rb->name, m->bodies[rb->ix + 3].xname, m->bodies[rb->ix + 4].xname,
             m->bodies[rb->ix + 5].xname, m->bodies[rb->ix].vname, m->bodies[rb->ix + 1].vname,
             m->bodies[rb->ix + 2].vname, m->bodies[rb->ix + 3].vname, m->bodies[rb->ix + 4].vname,
             m->bodies[rb->ix + 5].vname);
        eqn_sub(q, "m", "m", rb->name, rb->mass);
        for (int i = 0; i < 3; i++)
            eqn(q, arena_printf(a, "I%d_%s", i + 1, rb->name),
                arena_printf(a, "I_{%d,\\mathrm{%s}}", i + 1, rb->name), rb->inertia[i]);
        for (int i = 0; i < 4; i++)
            eqn(q, arena_printf(a, "%s.p%d(0)", rb->name, i),
                arena_printf(a, "p_{%d,\\mathrm{%s}}(0)", i, rb->name), rb->p[i]);
        if (m->gravity)
            for (int i = 0; i < 3; i++)   /* the weight -m g gfac */
                eqn(q, arena_printf(a, "weight on %s", m->bodies[rb->ix + i].xname),
                    arena_printf(a, "W_{%c}", "xyz"[i]),
                    expr_neg(m->ex, expr_mul(m->ex, rb->mass, expr_mul(m->ex, m->gravity,
                                                                       m->bodies[rb->ix + i].gfac))));
        eqn_end(q);
    }
}

/* A matrix, rows x cols, with optional row labels (text) for readability. */
static void matrix(Eq *q, const char *name_text, const char *name_latex, Expr **A, int rows, int cols)
{
    Arena *a = q->dv->arena;
    const char **s = arena_alloc(a, (size_t)(rows * cols + 1) * sizeof *s);
    for (int i = 0; i < rows * cols; i++)
        s[i] = sx(q, A[i]);
    if (md(q)) {
        fprintf(q->o, "$$%s = \\begin{bmatrix}\n", name_latex);
        for (int i = 0; i < rows; i++) {
            for (int k = 0; k < cols; k++)
                fprintf(q->o, "%s%s", k ? " & " : "", s[i * cols + k]);
            fprintf(q->o, "%s\n", i + 1 < rows ? " \\\\" : "");
        }
        fprintf(q->o, "\\end{bmatrix}$$\n\n");
        return;
    }
    int *w = arena_alloc(a, (size_t)(cols + 1) * sizeof *w);
    for (int k = 0; k < cols; k++)
        for (int i = 0; i < rows; i++) {
            int l = (int)strlen(s[i * cols + k]);
            if (l > w[k])
                w[k] = l;
        }
    int lab = (int)strlen(name_text) + 3;
    for (int i = 0; i < rows; i++) {
        fprintf(q->o, "    %-*s[ ", lab, i == (rows - 1) / 2 ? arena_printf(a, "%s =", name_text) : "");
        for (int k = 0; k < cols; k++)
            fprintf(q->o, "%-*s%s", w[k], s[i * cols + k], k + 1 < cols ? "  " : "");
        fprintf(q->o, " ]\n");
    }
    fputc('\n', q->o);
}

/* A list of names as a vector: "(a, b, c)" or "\begin{bmatrix}..." */
static const char *vec_names(Eq *q, Expr **v, int n)
{
    Arena *a = q->dv->arena;
    char *s = arena_strdup(a, md(q) ? "\\begin{bmatrix}" : "(");
    for (int i = 0; i < n; i++)
        s = arena_printf(a, "%s%s%s", s, i ? (md(q) ? " \\\\ " : ", ") : "", sx(q, v[i]));
    return arena_printf(a, "%s%s", s, md(q) ? "\\end{bmatrix}" : ")");
}

/* "c1 Y1 + c2 Y2 + ... + b" with each coefficient kept as printed (the paper's
 * row notation), instead of letting the simplifier merge the terms. */
static const char *row_text(Eq *q, Expr **coef, Expr **Y, int n, Expr *b)
{
    Arena *a = q->dv->arena;
    char *s = arena_strdup(a, "");
    int terms = 0;
    for (int k = 0; k <= n; k++) {
        Expr *c = k < n ? coef[k] : b;
        double v;
        if (!c || expr_is_zero(c))
            continue;
        const char *var = k < n ? sx(q, Y[k]) : NULL;
        const char *cs;
        bool neg = false;
        if (var && expr_is_num(c, &v) && (v == 1 || v == -1)) {
            cs = "";
            neg = v < 0;
        } else {
            cs = sx(q, c);
            if (c->kind == EX_ADD && var)
                cs = arena_printf(a, md(q) ? "\\left(%s\\right) " : "(%s) ", cs);
            else if (cs[0] == '-') {
                neg = true;
                cs++;
                if (var)
                    cs = arena_printf(a, md(q) ? "%s\\," : "%s ", cs);
            } else if (var)
                cs = arena_printf(a, md(q) ? "%s\\," : "%s ", cs);
        }
        s = arena_printf(a, "%s%s%s%s", s, terms ? (neg ? " - " : " + ") : (neg ? "-" : ""), cs, var ? var : "");
        terms++;
    }
    return terms ? s : "0";
}

/* Prints "lhs = (row)/den" in the report's notation. */
static void eqn_frac(Eq *q, const char *lhs_text, const char *lhs_latex, const char *row, const char *den)
{
    if (md(q))
        fprintf(q->o, "$$%s = \\frac{%s}{%s}$$\n\n", lhs_latex, row, den);
    else
        fprintf(q->o, strchr(row, ' ') ? "    %s = (%s) / (%s)\n" : "    %s = %s / (%s)\n", lhs_text, row, den);
}

/* ---- sections ---------------------------------------------------------------- */

/* Interleaved state (x_0, v_0, x_1, v_1, ...) as the paper orders it. */
static Expr **interleaved(const Derivation *dv)
{
    Expr **Y = arena_alloc(dv->arena, (size_t)(2 * dv->n) * sizeof *Y);
    for (int i = 0; i < dv->n; i++) {
        Y[2 * i] = dv->x[i];
        Y[2 * i + 1] = dv->v[i];
    }
    return Y;
}

/* gap_j = w_j . x + d_j (+ h_j(t) for a moving surface) */
static Expr *gap_expr(const Derivation *dv, int j)
{
    if (dv->model->gaps[j].curve)
        return dv->model->gaps[j].curve;   /* a curved gap: g_j(x) */
    Expr *s = dv->h[j] ? expr_add(dv->ex, dv->d[j], dv->h[j]) : dv->d[j];
    for (int k = 0; k < dv->W->nnz[j]; k++)
        s = expr_add(dv->ex, s, expr_mul(dv->ex, dv->W->val[j][k], dv->x[dv->W->col[j][k]]));
    return s;
}

/* Splits y' (interleaved) into A and b: A = dy'/dy, b = y' at y = 0. */
static void split_linear(const Derivation *dv, Expr **rows, Expr **Y, int N, Expr **A, Expr **b)
{
    ExprCtx *x = dv->ex;
    for (int i = 0; i < N; i++) {
        Expr *rest = rows[i];
        for (int k = 0; k < N; k++) {
            A[i * N + k] = dv_pretty(dv, expr_diff(x, rows[i], Y[k]));
            rest = expr_subst(x, rest, Y[k], expr_num(x, 0));
        }
        b[i] = dv_pretty(dv, rest);
    }
}

/* A sparse matrix written out densely, for the small models shown whole. */
static Expr **dense(const Derivation *dv, const DvMat *A)
{
    Expr **D = arena_alloc(dv->arena, (size_t)(A->rows * A->cols + 1) * sizeof *D);
    for (int i = 0; i < A->rows * A->cols; i++)
        D[i] = A->zero;
    for (int i = 0; i < A->rows; i++)
        for (int k = 0; k < A->nnz[i]; k++)
            D[i * A->cols + A->col[i][k]] = A->val[i][k];
    return D;
}

/* The assembled system: M, K, C, forces, gaps, time switches. */
static void section_model(Eq *q)
{
    const Derivation *dv = q->dv;
    const Model *m = q->m;
    Arena *a = dv->arena;
    int n = dv->n, g = dv->g;
    heading(q, 1, "Equations of model %s", m->name);
    if (m->title && *m->title)
        para(q, "%s", m->title);
    const char *file = strrchr(m->path, '/') ? strrchr(m->path, '/') + 1 : m->path;
    if (dv->nl)
        para(q, "Generated by nsmc from %s. The model is nonlinear: M a + C v + K x = f_ext(t) + "
                "f_const + f_nl(x, v, t) + sum_j W_j(x)^T lambda_j, gap_j = g_j(x) >= 0, with the "
                "nonlinear parts listed below.", file);
    else
        para(q, "Generated by nsmc from %s. Every mode (set of closed gaps) is linear: "
                "M a + C v + K x = f_ext(t) + f_const + sum_j w_j lambda_j, gap_j = w_j . x + d_j >= 0.",
             file);
    emit_planar(q);
    emit_rigid(q);
    heading(q, 2, "Assembled system");
    Expr **M = arena_alloc(a, (size_t)(n * n) * sizeof *M);
    for (int i = 0; i < n * n; i++)
        M[i] = i % (n + 1) == 0 ? dv->mass[i / (n + 1)] : expr_num(dv->ex, 0);
    if (n <= 8) {
        para(q, md(q) ? "Coordinates $%s$." : "Coordinates x = %s.", vec_names(q, dv->x, n));
        matrix(q, "M", "M", M, n, n);
        matrix(q, "K", "K", dense(dv, dv->K), n, n);
        matrix(q, "C", "C", dense(dv, dv->C), n, n);
    } else {
        para(q, "%d bodies: M, K and C are listed by their nonzero entries.", n);
        for (int r = 0; r < n; r++) {
            /* the nonzero entries of row r of K and C, interleaved by column */
            const DvMat *K = dv->K, *C = dv->C;
            int ik = 0, ic = 0;
            while (ik < K->nnz[r] || ic < C->nnz[r]) {
                int kc = ik < K->nnz[r] ? K->col[r][ik] : n, cc = ic < C->nnz[r] ? C->col[r][ic] : n;
                int k = kc < cc ? kc : cc;
                if (kc == k && !expr_is_zero(K->val[r][ik]))
                    eqn(q, arena_printf(a, "K[%d][%d]", r, k), arena_printf(a, "K_{%d,%d}", r, k), K->val[r][ik]);
                if (cc == k && !expr_is_zero(C->val[r][ic]))
                    eqn(q, arena_printf(a, "C[%d][%d]", r, k), arena_printf(a, "C_{%d,%d}", r, k), C->val[r][ic]);
                ik += kc == k;
                ic += cc == k;
            }
        }
        for (int i = 0; i < n; i++)
            eqn(q, arena_printf(a, "m[%d]", i), arena_printf(a, "m_{%d}", i), dv->mass[i]);
        eqn_end(q);
    }
    for (int i = 0; i < n; i++) {
        const char *b = m->bodies[i].name;
        if (!expr_is_zero(dv->fconst[i]))
            eqn(q, arena_printf(a, "f_const[%s]", b), arena_printf(a, "f^{\\mathrm{const}}_{\\mathrm{%s}}", b), dv->fconst[i]);
        if (!expr_is_zero(dv->fext[i]))
            eqn(q, arena_printf(a, "f_ext[%s](t)", b), arena_printf(a, "f_{\\mathrm{%s}}(t)", b), dv->fext[i]);
    }
    for (int j = 0; j < g; j++) {
        Expr *gap = gap_expr(dv, j);
        const char *gn = m->gaps[j].name;
        eqn(q, arena_printf(a, "gap %s", gn), arena_printf(a, "g_{\\mathrm{%s}}", gn), gap);
    }
    eqn_end(q);
    if (dv->n_moving) {
        heading(q, 2, "Moving surfaces");
        para(q, "A gap that depends on time moves with its surface: gap_j = w_j . x + d_j + h_j(t). "
                "Its rate is w_j . v + h_j'(t), the relative normal velocity on which impacts act "
                "(after an impact w_j . v + h_j' = -e (w_j . v + h_j') before it). Held shut, it "
                "follows the surface: w_j . a = -h_j''(t), so the contact force carries the "
                "surface's acceleration and separation comes when that force reaches 0.");
        for (int j = 0; j < g; j++) {
            if (!dv->h[j])
                continue;
            const char *gn = m->gaps[j].name;
            eqn(q, arena_printf(a, "h_%s(t)", gn), arena_printf(a, "h_{\\mathrm{%s}}(t)", gn),
                dv_pretty(dv, dv->h[j]));
            eqn(q, arena_printf(a, "h_%s'(t)", gn), arena_printf(a, "\\dot h_{\\mathrm{%s}}(t)", gn),
                dv_pretty(dv, dv->hd[j]));
            eqn(q, arena_printf(a, "h_%s''(t)", gn), arena_printf(a, "\\ddot h_{\\mathrm{%s}}(t)", gn),
                dv_pretty(dv, dv->hdd[j]));
        }
        eqn_end(q);
    }
    if (dv->n_sw) {
        heading(q, 2, "Time switches");
        para(q, "Each comparison of a force that involves t is a switch: its flag replaces the "
                "comparison, the integrator lands on the zero of its switch function.");
        for (int k = 0; k < dv->n_sw; k++) {
            eqn(q, arena_printf(a, "sw%d: %s; s", k, expr_to_string(dv->ex, dv->sw_list[k].cond, EXPR_TEXT, &q->nm)),
                arena_printf(a, "\\sigma_{%d} = [%s],\\quad s", k, expr_to_string(dv->ex, dv->sw_list[k].cond, EXPR_LATEX, &q->nm)),
                dv->sw_list[k].fn);
        }
        eqn_end(q);
    }
}

/* What a gap's event function is in a mode, in words. */
static const char *event_name(const Model *m, unsigned mask, int j)
{
    const Gap *gp = &m->gaps[j];
    switch (gp->law->event(gp, dv_closed(mask, j))) {
    case LAW_EV_GAP: return "the gap (impact or entry when it reaches 0)";
    case LAW_EV_GAP_OR_FORCE: return "max(gap, k gap + c gap') (entry)";
    case LAW_EV_LAMBDA: return "the contact force (separation when it reaches 0)";
    case LAW_EV_FORCE: return "the contact force k p + c p', p = -gap (exit when it reaches 0)";
    case LAW_EV_PENETRATION: break;
    }
    return "the penetration p = -gap (exit when it reaches 0)";
}

/* The paper's Eq. 2 and the corrected Eq. 3 for the free mode. */
static void section_relative(Eq *q, const DvMode *mo)
{
    const Derivation *dv = q->dv;
    ExprCtx *x = dv->ex;
    Arena *a = dv->arena;
    int n = dv->n, N = 2 * n;
    DvRelative rel;
    if (!dv_relative(dv, mo, &rel))
        return;
    name_relative(q, &rel);
    Expr **Y = arena_alloc(a, (size_t)N * sizeof *Y);
    for (int i = 0; i < n; i++) {
        Y[2 * i] = rel.q[i];
        Y[2 * i + 1] = rel.qd[i];
    }
    heading(q, 3, "Relative coordinates (Dedow & Murphy Eq. 2)");
    para(q, "Each gap replaces the coordinate of one body with a nonzero coefficient "
            "(the last one), so the gap is itself a coordinate:");
    for (int i = 0; i < n; i++)
        eqn(q, sx(q, rel.q[i]), sx(q, rel.q[i]),
            rel.gap_of[i] < 0 ? dv->x[i] : gap_expr(dv, rel.gap_of[i]));
    eqn_end(q);
    para(q, md(q) ? "$$\\frac{d}{dt}%s = A %s + b(t)$$" : "d/dt %s = A %s + b(t)", vec_names(q, Y, N), vec_names(q, Y, N));
    matrix(q, "A", "A", rel.A, N, N);
    matrix(q, "b", "b", rel.b, N, 1);

    for (int i = 0; i < n; i++) {
        int j = rel.gap_of[i];
        if (j < 0)
            continue;
        heading(q, 3, "Gap recast on %s (Henon; Dedow & Murphy Eq. 3, corrected)", q->m->gaps[j].name);
        para(q, "The gap coordinate %s becomes the independent variable: dt/d%s = 1/%s, and every other "
                "state's equation is divided by %s. One step of size -%s lands on contact.",
             inl(q, rel.q[i]), inl(q, rel.q[i]), inl(q, rel.qd[i]), inl(q, rel.qd[i]), inl(q, rel.q[i]));
        for (int r = 0; r < N; r++) {
            Expr *lhs = r == 2 * i ? expr_time(x) : Y[r];
            const char *row = r == 2 * i ? "1" : row_text(q, &rel.A[r * N], Y, N, rel.b[r]);
            eqn_frac(q, arena_printf(a, "d%s/d%s", sx(q, lhs), sx(q, rel.q[i])),
                     arena_printf(a, "\\frac{d%s}{d%s}", sx(q, lhs), sx(q, rel.q[i])), row, sx(q, rel.qd[i]));
        }
        eqn_end(q);
    }
}

/* The paper's Eq. 11 and the corrected Eq. 12 for a stuck mode. */
static bool section_force_state(Eq *q, const DvMode *mo)
{
    const Derivation *dv = q->dv;
    ExprCtx *x = dv->ex;
    Arena *a = dv->arena;
    const Model *m = q->m;
    DvForceState fs;
    if (!dv_force_state(dv, mo, &fs))
        return false;
    int r = fs.r, S = 3 + r;
    const char *u = m->bodies[fs.body].xname;
    heading(q, 3, "Contact force as a state (Dedow & Murphy Eq. 11)");
    para(q, "The stuck cluster moves with one coordinate u = %s; x = alpha u + beta with "
            "alpha = %s. Projecting the equations of motion on alpha removes the contact force "
            "(Eq. 5): M_eff u'' + C_eff u' + K_eff u = F_eff(t).",
         u, md(q) ? arena_printf(a, "$%s$", vec_names(q, fs.alpha, dv->n)) : vec_names(q, fs.alpha, dv->n));
    eqn(q, "M_eff", "M_{\\mathrm{eff}}", fs.meff);
    eqn(q, "C_eff", "C_{\\mathrm{eff}}", fs.ceff);
    eqn(q, "K_eff", "K_{\\mathrm{eff}}", fs.keff);
    if (!expr_is_zero(fs.feff))
        eqn(q, "F_eff(t)", "F_{\\mathrm{eff}}(t)", fs.feff);
    eqn_end(q);
    char *states = arena_printf(a, "v1 = %s, v2 = v1', v3 = v1''", u);
    for (int k = 0; k < r; k++)
        states = arena_printf(a, "%s, v%d = lambda_%s", states, 4 + k, m->gaps[fs.gaps[k]].name);
    para(q, "States: %s.", states);
    Expr **A = arena_alloc(a, (size_t)(S * S) * sizeof *A);
    Expr **b = arena_alloc(a, (size_t)S * sizeof *b);
    for (int i = 0; i < S * S; i++)
        A[i] = expr_num(x, 0);
    for (int i = 0; i < S; i++)
        b[i] = expr_num(x, 0);
    A[0 * S + 1] = expr_num(x, 1);
    A[1 * S + 2] = expr_num(x, 1);
    A[2 * S + 1] = fs.A32;
    A[2 * S + 2] = fs.A33;
    b[2] = fs.b3;
    for (int k = 0; k < r; k++) {
        A[(3 + k) * S + 1] = fs.A42[k];
        A[(3 + k) * S + 2] = fs.A43[k];
        b[3 + k] = fs.b4[k];
    }
    para(q, md(q) ? "$$\\frac{d}{dt}%s = A %s + b(t)$$" : "d/dt %s = A %s + b(t)",
         vec_names(q, fs.V, S), vec_names(q, fs.V, S));
    matrix(q, "A", "A", A, S, S);
    bool forced = false;
    for (int i = 0; i < S; i++)
        forced |= !expr_is_zero(b[i]);
    if (forced)
        matrix(q, "b", "b", b, S, 1);
    eqn(q, "A32", "A_{32}", fs.A32);
    eqn(q, "A33", "A_{33}", fs.A33);
    for (int k = 0; k < r; k++) {
        eqn(q, arena_printf(a, "A%d2", 4 + k), arena_printf(a, "A_{%d2}", 4 + k), fs.A42[k]);
        eqn(q, arena_printf(a, "A%d3", 4 + k), arena_printf(a, "A_{%d3}", 4 + k), fs.A43[k]);
    }
    eqn_end(q);
    for (int k = 0; k < r; k++) {
        int j = fs.gaps[k];
        heading(q, 3, "Force recast on %s (Dedow & Murphy Eq. 12, corrected)", m->gaps[j].name);
        Expr *v4 = fs.V[3 + k];
        Expr *fd = expr_add(x, expr_add(x, expr_mul(x, fs.A42[k], fs.V[1]), expr_mul(x, fs.A43[k], fs.V[2])), fs.b4[k]);
        para(q, "The contact force %s becomes the independent variable; every equation is divided by "
                "its rate %s' = A%d2 v2 + A%d3 v3%s (not by a constant: the printed 1/A with "
                "A = A42 + A43 is not even dimensionally consistent). One step of size -%s lands on separation.",
             inl(q, v4), q->vtext[v4->index], 4 + k, 4 + k, expr_is_zero(fs.b4[k]) ? "" : " + b4(t)", inl(q, v4));
        /* the coefficients by name, as the paper writes them */
        Expr **Sym = arena_alloc(a, (size_t)(S * S) * sizeof *Sym);
        Expr **bs = arena_alloc(a, (size_t)S * sizeof *bs);
        for (int i = 0; i < S * S; i++)
            Sym[i] = A[i];
        for (int i = 0; i < S; i++)
            bs[i] = b[i];
        int base = dv->v_report + 2 * dv->n + 3 + dv->g;
        Sym[2 * S + 1] = expr_var(x, base);
        Sym[2 * S + 2] = expr_var(x, base + 1);
        if (!expr_is_zero(b[2]))
            bs[2] = expr_var(x, base + 2);
        for (int c = 0; c < r; c++) {
            Sym[(3 + c) * S + 1] = expr_var(x, base + 3 + 3 * c);
            Sym[(3 + c) * S + 2] = expr_var(x, base + 4 + 3 * c);
            if (!expr_is_zero(b[3 + c]))
                bs[3 + c] = expr_var(x, base + 5 + 3 * c);
        }
        const char *den = row_text(q, &Sym[(3 + k) * S], fs.V, S, bs[3 + k]);
        eqn(q, arena_printf(a, "%s'", sx(q, v4)), arena_printf(a, "\\dot{%s}", sx(q, v4)), fd);
        for (int i = 0; i < S; i++) {
            if (i == 3 + k) {
                eqn_frac(q, arena_printf(a, "dt/d%s", sx(q, v4)), arena_printf(a, "\\frac{dt}{d%s}", sx(q, v4)),
                         "1", den);
                continue;
            }
            eqn_frac(q, arena_printf(a, "d%s/d%s", sx(q, fs.V[i]), sx(q, v4)),
                     arena_printf(a, "\\frac{d%s}{d%s}", sx(q, fs.V[i]), sx(q, v4)),
                     row_text(q, &Sym[i * S], fs.V, S, bs[i]), den);
        }
        eqn_end(q);
    }
    return true;
}

/* For closed impact gaps of other shapes: lambda as an extra state of the full system. */
static void section_lambda_state(Eq *q, const DvMode *mo, Expr **Y)
{
    const Derivation *dv = q->dv;
    ExprCtx *x = dv->ex;
    Arena *a = dv->arena;
    int N = 2 * dv->n;
    heading(q, 3, "Contact forces as states");
    para(q, "Appending each contact force to the state: lambda' = (dlambda/dy) y' + dlambda/dt, "
            "a linear row in y (lambda itself is an output, its column is zero).");
    for (int k = 0; k < mo->n_impact; k++) {
        int j = mo->impact[k];
        Expr *l = consts_of(q, full_of(q, dv->lam[j]));
        Expr *ld = consts_of(q, dv_flow_diff(dv, mo, full_of(q, dv->lam[j])));
        Expr *rest = ld;
        Expr *row = expr_num(x, 0);
        for (int c = 0; c < N; c++) {
            row = expr_add(x, row, expr_mul(x, dv_pretty(dv, expr_diff(x, ld, Y[c])), Y[c]));
            rest = expr_subst(x, rest, Y[c], expr_num(x, 0));
        }
        row = expr_add(x, row, dv_pretty(dv, rest));
        const char *gn = q->m->gaps[j].name;
        (void)l;
        eqn(q, arena_printf(a, "lambda_%s'", gn), arena_printf(a, "\\dot{\\lambda}_{\\mathrm{%s}}", gn), row);
    }
    eqn_end(q);
}

/* One mode: matrices, contact forces, events, recasts, and the paper's forms. */
static void section_mode(Eq *q, const DvMode *mo)
{
    const Derivation *dv = q->dv;
    const Model *m = q->m;
    ExprCtx *x = dv->ex;
    Arena *a = dv->arena;
    int n = dv->n, g = dv->g, N = 2 * n;
    heading(q, 2, "Mode %u %s: %s", mo->mask, mo->label, mo->story);
    if (mo->status == DV_MODE_INADMISSIBLE) {
        para(q, "Inadmissible: the gaps held shut have linearly dependent directions, "
                "W_R M^-1 W_R^T is singular (they cannot all be shut at once). The runtime never enters it.");
        return;
    }
    chains_begin(q, mo);
    Expr **Y = interleaved(dv);
    Expr **rows = arena_alloc(a, (size_t)N * sizeof *rows);
    for (int i = 0; i < n; i++) {
        rows[2 * i] = dv->v[i];
        rows[2 * i + 1] = consts_of(q, full_of(q, mo->ydot[n + i]));
    }
    if (n <= 6) {
        Expr **A = arena_alloc(a, (size_t)(N * N) * sizeof *A);
        Expr **b = arena_alloc(a, (size_t)N * sizeof *b);
        split_linear(dv, rows, Y, N, A, b);
        para(q, md(q) ? "$$\\frac{d}{dt}%s = A %s + b(t)$$" : "d/dt %s = A %s + b(t)",
             vec_names(q, Y, N), vec_names(q, Y, N));
        matrix(q, "A", "A", A, N, N);
        matrix(q, "b", "b", b, N, 1);
    } else {
        para(q, "Accelerations (y' = A y + b(t) with y = (x, v)):");
        for (int i = 0; i < n; i++)
            eqn(q, m->bodies[i].aname, q->vlatex[dv->v_acc + i], dv_pretty(dv, rows[2 * i + 1]));
        eqn_end(q);
    }
    if (mo->n_impact) {
        para(q, "Contact forces of the gaps held shut, lambda_R = -(W_R M^-1 W_R^T)^-1 W_R M^-1 F:");
        for (int k = 0; k < mo->n_impact; k++) {
            int j = mo->impact[k];
            const char *gn = m->gaps[j].name;
            Expr *l = consts_of(q, full_of(q, dv->lam[j]));
            eqn_sub(q, "lambda", "\\lambda", gn, dv_pretty(dv, l));
        }
        eqn_end(q);
    }
    bool pen = false;
    for (int j = 0; j < g; j++)
        pen |= dv_closed(mo->mask, j) && !m->gaps[j].law->constraint;
    if (pen) {
        para(q, "Contact forces of the engaged compliant gaps, k p + c p' with p = -gap:");
        for (int j = 0; j < g; j++)
            if (dv_closed(mo->mask, j) && !m->gaps[j].law->constraint) {
                const char *gn = m->gaps[j].name;
                eqn_sub(q, "lambda", "\\lambda", gn,
                    full_of(q, mo->lambda[j]));
            }
        eqn_end(q);
    }
    if (g) {
        para(q, "Event functions s and their derivatives s' along the flow; the recast on s "
                "(dy/ds = y'/s', dt/ds = 1/s') lands on s = 0 with one step of size -s:");
        for (int j = 0; j < g; j++) {
            const char *gn = m->gaps[j].name;
            Expr *s = consts_of(q, full_of(q, mo->ev[j]));
            Expr *sd = consts_of(q, full_of(q, mo->evdot[j]));
            if (md(q))
                fprintf(q->o, "%s: %s.\n\n", gn, event_name(m, mo->mask, j));
            else
                fprintf(q->o, "    %s: %s\n", gn, event_name(m, mo->mask, j));
            eqn_sub(q, "s", "s", gn, dv_pretty(dv, s));
            eqn(q, arena_printf(a, "s_%s'", gn), arena_printf(a, "\\dot{s}_{\\mathrm{%s}}", gn), dv_pretty(dv, sd));
            if (expr_is_zero(sd))
                para(q, md(q) ? "No recast on %s: its event function is constant in this mode."
                              : "    no recast on %s: its event function is constant in this mode", gn);
            else
                eqn(q, arena_printf(a, "recast on %s: dt/ds", gn), arena_printf(a, "\\frac{dt}{ds_{\\mathrm{%s}}}", gn),
                    dv_pretty(dv, expr_div(x, expr_num(x, 1), sd)));
            if (!md(q))
                fputc('\n', q->o);
        }
        eqn_end(q);
    }
    if (mo->mask == 0 && g > 0 && n <= 6)
        section_relative(q, mo);
    if (mo->n_impact && !section_force_state(q, mo))
        section_lambda_state(q, mo, Y);
}

/* The exact method's forcing generator. */
static void section_generator(Eq *q)
{
    const Derivation *dv = q->dv;
    Arena *a = dv->arena;
    heading(q, 2, "Exact method: forcing generator");
    if (!dv->n_gen) {
        para(q, "Not available: the force on %s is not a sum of c t^k exp(a t) {1, sin, cos}(w t + phi) pieces.",
             dv->gen_why ? dv->gen_why : "a body");
        return;
    }
    para(q, "f_ext(t) = B z(t), z' = G z, with %d component%s:", dv->n_gen,
         dv->n_gen == 1 ? "" : "s");
    for (int i = 0; i < dv->n_gen; i++)
        eqn(q, arena_printf(a, "z%d", i), arena_printf(a, "z_{%d}", i), dv->z[i]);
    eqn_end(q);
    if (dv->n_gen <= 8) {
        matrix(q, "G", "G", dv->G, dv->n_gen, dv->n_gen);
        matrix(q, "B", "B", dv->B, dv->n, dv->n_gen);
    }
    if (dv->n_moving && dv->H) {
        para(q, "The moving surfaces' time functions share the generator: h(t) = H z(t), so every "
                "event function stays a linear form of (x, v, z, 1).");
        if (dv->n_gen <= 8)
            matrix(q, "H", "H", dv->H, dv->g, dv->n_gen);
    }
}

/* The friction elements: each one's slip velocity, forces and event
** functions in its three states.  The gap modes above are those of the
** elements' forces left out; the runtime forms every combination of gap
** mode and friction states from the numeric tables (docs/theory.md). */
static void section_friction(Eq *q)
{
    const Derivation *dv = q->dv;
    const Model *m = q->m;
    Arena *a = dv->arena;
    ExprCtx *x = dv->ex;
    if (!m->n_frictions)
        return;
    heading(q, 2, "Coulomb friction");
    para(q, "Each friction element k acts on its slip velocity u_k = w_k . v - c_k with normal "
            "force N_k. In the states slip+ and slip- (s = +1, -1) it adds the constant generalized "
            "force -s mu_k N_k w_k to the right-hand side and its event function is s u_k (the slip "
            "velocity reaching 0, a crossing or a touch); stuck, it adds the constraint "
            "w_k . a = 0 with its multiplier lambda_k (solved with the closed gaps' forces), and "
            "its event functions are mu_s N_k - lambda_k and mu_s N_k + lambda_k (the force "
            "reaching the friction cone). Every combination of the gaps' mode and the elements' "
            "states is a linear mode; the runtime forms it from the numeric tables. The gap modes "
            "below leave the friction forces out.");
    for (int k = 0; k < m->n_frictions; k++) {
        const Friction *f = &m->frictions[k];
        Expr *u = expr_neg(x, f->u);
        for (int i = 0; i < dv->n; i++)
            if (!expr_is_zero(f->w[i]))
                u = expr_add(x, u, expr_mul(x, f->w[i], dv->v[i]));
        eqn(q, arena_printf(a, "u[%s]", f->name), arena_printf(a, "u_{\\mathrm{%s}}", f->name), u);
        if (f->normal)
            eqn(q, arena_printf(a, "N[%s]", f->name),
                arena_printf(a, "N_{\\mathrm{%s}}", f->name), f->normal);
        else
            eqn(q, arena_printf(a, "N[%s]", f->name),
                arena_printf(a, "N_{\\mathrm{%s}}", f->name),
                expr_var(x, dv->v_lam + f->normal_gap));
        eqn(q, arena_printf(a, "mu_s[%s]", f->name),
            arena_printf(a, "\\mu^s_{\\mathrm{%s}}", f->name), f->mus);
        eqn(q, arena_printf(a, "mu_k[%s]", f->name),
            arena_printf(a, "\\mu^k_{\\mathrm{%s}}", f->name), f->muk);
        eqn(q, arena_printf(a, "slip force on %s (slip+)", f->name),
            arena_printf(a, "F^{+}_{\\mathrm{%s}}", f->name),
            expr_neg(x, expr_mul(x, f->muk, f->normal ? f->normal
                                                      : expr_var(x, dv->v_lam + f->normal_gap))));
    }
    eqn_end(q);
}

/* A sphere gap of a rigid body (docs/theory.md section 19): its value, its
 * row of W over the body's velocities (n on v, c x n_b on w, n_b = R^T n)
 * and its curvature term n_b . (w x (w x c)). */
static void sphere_gap(Eq *q, int j)
{
    const Derivation *dv = q->dv;
    const Model *m = q->m;
    const Gap *gp = &m->gaps[j];
    Arena *a = dv->arena;
    para(q, "Sphere gap %s: the sphere of %s against plane %s, gap = n . (r + R c) - d - rho; its "
            "row of W over the velocities (gap' = W u: n on v, c x R^T n on w) and its curvature "
            "term, so that gap'' = W u' + (R^T n) . (w x (w x c)):", gp->name,
         m->rigids[gp->sphere->rigid].name, gp->sphere->plane);
    eqn_sub(q, "g", "g", gp->name, gp->curve);
    for (int k = 0; k < dv->W->nnz[j]; k++) {
        const char *v = m->bodies[dv->W->col[j][k]].vname;
        eqn(q, arena_printf(a, "W_%s[%s]", gp->name, v),
            arena_printf(a, "W_{\\mathrm{%s}}[%s]", gp->name, sx(q, dv->v[dv->W->col[j][k]])),
            dv->gw[j][k]);
    }
    eqn_sub(q, "curv", "\\kappa", gp->name,
        dv->gcv[j]);
    eqn_end(q);
    for (int k = 0; k < m->n_sfrics; k++) {
        const SpaceFriction *sf = &m->sfrics[k];
        if (sf->gap != j)
            continue;
        para(q, "Spatial Coulomb friction %s at %s: |lambda_F| <= mu lambda_N on the slip of the "
                "contact point and, with a drilling radius Rd > 0, Rd times the spin about the "
                "normal (the runtime's nsm_space_friction), tangential restitution e_F at impacts:",
             sf->name, gp->name);
        Expr *zero = expr_num(dv->ex, 0);
        eqn_sub(q, "mu", "\\mu", sf->name, sf->mu);
        eqn(q, arena_printf(a, "eF_%s", sf->name), arena_printf(a, "e_{F,\\mathrm{%s}}", sf->name),
            sf->et ? sf->et : zero);
        eqn(q, arena_printf(a, "Rd_%s", sf->name), arena_printf(a, "R_{d,\\mathrm{%s}}", sf->name),
            sf->drill ? sf->drill : zero);
        eqn_end(q);
    }
}

/* A nonlinear model's parts: the forces of the state, each curved gap with
 * its W row (dg/dx) and curvature term v^T g'' v, the penalty exponents; its
 * modes are not derived symbolically (the runtime forms them). */
static void section_nonlinear(Eq *q)
{
    const Derivation *dv = q->dv;
    const Model *m = q->m;
    Arena *a = dv->arena;
    heading(q, 2, "Nonlinear parts");
    para(q, "The modes of a nonlinear model are not derived symbolically: the runtime forms "
            "each one from the numeric tables and the functions below; method taylor expands "
            "them in Taylor series by the recurrences of docs/theory.md.");
    bool any = false;
    for (int i = 0; i < dv->n; i++) {
        if (expr_is_zero(dv->fnl[i]))
            continue;
        if (!any)
            para(q, "Forces that depend on the state (f_nl):");
        any = true;
        const char *b = m->bodies[i].name;
        eqn(q, arena_printf(a, "f_nl[%s]", b), arena_printf(a, "f^{\\mathrm{nl}}_{\\mathrm{%s}}", b),
            dv->fnl[i]);
    }
    if (any)
        eqn_end(q);
    for (int j = 0; j < dv->g; j++) {
        const Gap *gp = &m->gaps[j];
        if (gp->pexp) {
            para(q, "Gap %s: penalty force k p^a + c p' (p = -gap) with exponent", gp->name);
            eqn_sub(q, "a", "a", gp->name,
                gp->pexp);
            eqn_end(q);
        }
        if (gp->sphere) {
            sphere_gap(q, j);
            continue;
        }
        if (!gp->curve)
            continue;
        para(q, "Curved gap %s: its row of W = dg/dx, and its curvature term, so that "
                "gap'' = W(x) a + v^T g'' v:", gp->name);
        for (int k = 0; k < dv->W->nnz[j]; k++) {
            const char *x = m->bodies[dv->W->col[j][k]].xname;
            eqn(q, arena_printf(a, "d %s / d %s", gp->name, x),
                arena_printf(a, "\\partial g_{\\mathrm{%s}} / \\partial %s", gp->name, sx(q, dv->x[dv->W->col[j][k]])),
                dv->gw[j][k]);
        }
        eqn(q, arena_printf(a, "v^T g''_%s v", gp->name),
            arena_printf(a, "v^T \\nabla^2 g_{\\mathrm{%s}}\\, v", gp->name), dv->gcv[j]);
        eqn_end(q);
    }
}

/* A model written by its energies (derive_lag.c): its energies, the mass
 * matrix M(q) = d2T/dv dv, the Euler-Lagrange terms h(q, v), the
 * generalized forces Q, and every gap with its row W(q) = dg/dq. */
static void section_lagrange(Eq *q)
{
    const Derivation *dv = q->dv;
    const Model *m = q->m;
    Arena *a = dv->arena;
    int n = dv->n;
    heading(q, 1, "Model %s%s%s", m->name, *m->title ? ": " : "", m->title);
    para(q, "Written by its energies in %d generalized coordinates; by Euler-Lagrange "
            "(docs/theory.md section 18) M(q) a = h(q, v) + Q, M = d2T/dv dv, "
            "h = dT/dq - dV/dq - (dM/dt) v.", n);
    eqn(q, "T", "T", m->kinetic);
    eqn(q, "V", "V", m->potential);
    eqn_end(q);
    heading(q, 2, "Mass matrix M(q)");
    for (int i = 0; i < n; i++)
        for (int j = i; j < n; j++)
            eqn(q, arena_printf(a, "M[%s, %s]", m->bodies[i].xname, m->bodies[j].xname),
                arena_printf(a, "M_{%d%d}", i + 1, j + 1), dv->lag_M[i * n + j]);
    eqn_end(q);
    heading(q, 2, "Coriolis, centrifugal and potential terms h(q, v)");
    for (int i = 0; i < n; i++)
        eqn(q, arena_printf(a, "h[%s]", m->bodies[i].xname), arena_printf(a, "h_{%d}", i + 1),
            dv->lag_h[i]);
    eqn_end(q);
    bool any = false;
    for (int i = 0; i < n; i++)
        any = any || !expr_is_zero(dv->lag_Q[i]);
    if (any) {
        heading(q, 2, "Generalized forces Q");
        for (int i = 0; i < n; i++)
            eqn(q, arena_printf(a, "Q[%s]", m->bodies[i].xname), arena_printf(a, "Q_{%d}", i + 1),
                dv->lag_Q[i]);
        eqn_end(q);
    }
    for (int j = 0; j < dv->g; j++) {
        const char *gn = m->gaps[j].name;
        heading(q, 2, "Gap %s", gn);
        eqn_sub(q, "g", "g", gn, dv->lag_g[j]);
        for (int i = 0; i < n; i++)
            eqn(q, arena_printf(a, "W[%s, %s]", gn, m->bodies[i].xname),
                arena_printf(a, "W_{\\mathrm{%s},%d}", gn, i + 1), dv->lag_W[j * n + i]);
        eqn_end(q);
    }
}

/* Writes the whole report. */
int emit_equations(const Derivation *dv, FILE *out, EqFormat fmt)
{
    Eq q;
    if (!dv || !out)
        return 1;
    eq_init(&q, dv, out, fmt);
    if (dv->lagrangian) {
        section_lagrange(&q);
        return ferror(out) ? 1 : 0;
    }
    section_model(&q);
    section_friction(&q);
    if (dv->nl) {
        section_nonlinear(&q);
        expr_chain_free(q.consts);
        expr_chain_free(q.locals);
        return ferror(out) ? 1 : 0;
    }
    int made = dv->enumerated ? dv->n_modes : 1;
    if (!dv->enumerated)
        para(&q, "%d gaps: only the all-open mode is derived symbolically (2^%d modes would be "
                 "enumerated otherwise); the runtime handles the others from the numeric tables.",
             dv->g, dv->g);
    for (int k = 0; k < made; k++)
        section_mode(&q, &dv->modes[k]);
    section_generator(&q);
    expr_chain_free(q.consts);
    expr_chain_free(q.locals);
    return ferror(out) ? 1 : 0;
}
