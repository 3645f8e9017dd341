/*
 * derive.c - from a checked Model to every mode's equations.
 *
 * Assembly:  M a + C v + K x = f_ext(t) + f_const + W^T lambda.
 * Modes:     bitmask over gaps; closed penalty gaps stiffen K and C, closed
 *            impact gaps add the constraint w_j . a = 0 and solve for lambda:
 *              lambda_R = -(W_R M^-1 W_R^T)^-1 W_R M^-1 F,  F = f - K x - C v.
 * Events:    per gap and mode, the event function of runtime/include/nsm/model.h
 *            and its exact time derivative along the flow.
 * See docs/theory.md for the mathematics.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "derive.h"
#include "laws.h"

/* ---- small helpers ---------------------------------------------------- */

static void *dv_alloc(Derivation *dv, size_t n, size_t size)
{
    return arena_alloc(dv->arena, (n ? n : 1) * size);
}

/* A vector of n zero expressions. */
static Expr **dv_exprs(Derivation *dv, int n)
{
    Expr **v = dv_alloc(dv, (size_t)n, sizeof *v);
    Expr *zero = expr_num(dv->ex, 0);
    for (int i = 0; i < n; i++)
        v[i] = zero;
    return v;
}

/* Adds a hoisted constant c_k = value and returns the variable standing for it. */
Expr *dv_add_const(Derivation *dv, Expr *value, const char *what)
{
    if (dv->n_consts == dv->cap_consts) {
        int cap = dv->cap_consts ? 2 * dv->cap_consts : 32;
        DvConst *nc = dv_alloc(dv, (size_t)cap, sizeof *nc);
        if (dv->n_consts)
            memcpy(nc, dv->consts, (size_t)dv->n_consts * sizeof *nc);
        dv->consts = nc;
        dv->cap_consts = cap;
    }
    dv->consts[dv->n_consts].value = value;
    dv->consts[dv->n_consts].what = what;
    return expr_var(dv->ex, dv->v_const + dv->n_consts++);
}

/* The default value of a parameter expression, for numeric sanity checks. */
double dv_default(Derivation *dv, const Expr *e)
{
    const Model *m = dv->model;
    if (!dv->defaults) {
        dv->defaults = arena_alloc(dv->arena, (size_t)(m->n_params + 1) * sizeof *dv->defaults);
        for (int i = 0; i < m->n_params; i++)
            dv->defaults[i] = m->params[i].number;
    }
    ExprEnv env = {dv->defaults, NULL, 0};
    return expr_eval(e, &env);
}

/* A body's name, "ground" for index -1. */
static const char *body_name(const Model *m, int i)
{
    return i < 0 ? "ground" : m->bodies[i].name;
}

/* ---- sparse matrices ------------------------------------------------------ */

/* An empty rows x cols matrix. */
DvMat *dvm_new(Derivation *dv, int rows, int cols)
{
    DvMat *A = arena_alloc(dv->arena, sizeof *A);
    A->rows = rows;
    A->cols = cols;
    A->nnz = dv_alloc(dv, (size_t)rows, sizeof *A->nnz);
    A->cap = dv_alloc(dv, (size_t)rows, sizeof *A->cap);
    A->col = dv_alloc(dv, (size_t)rows, sizeof *A->col);
    A->val = dv_alloc(dv, (size_t)rows, sizeof *A->val);
    A->zero = expr_num(dv->ex, 0);
    return A;
}

/* Position of column j in row i, or where it would be inserted. */
static int dvm_find(const DvMat *A, int i, int j)
{
    int lo = 0, hi = A->nnz[i];
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (A->col[i][mid] < j)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

Expr *dvm_get(const DvMat *A, int i, int j)
{
    int k = dvm_find(A, i, j);
    return k < A->nnz[i] && A->col[i][k] == j ? A->val[i][k] : A->zero;
}

/* Sets entry (i, j), inserting it in column order. */
void dvm_set(Derivation *dv, DvMat *A, int i, int j, Expr *e)
{
    int k = dvm_find(A, i, j);
    if (k < A->nnz[i] && A->col[i][k] == j) {
        A->val[i][k] = e;
        return;
    }
    if (A->nnz[i] == A->cap[i]) {
        int cap = A->cap[i] ? 2 * A->cap[i] : 4;
        int *nc = dv_alloc(dv, (size_t)cap, sizeof *nc);
        Expr **nv = dv_alloc(dv, (size_t)cap, sizeof *nv);
        if (A->nnz[i]) {
            memcpy(nc, A->col[i], (size_t)A->nnz[i] * sizeof *nc);
            memcpy(nv, A->val[i], (size_t)A->nnz[i] * sizeof *nv);
        }
        A->col[i] = nc;
        A->val[i] = nv;
        A->cap[i] = cap;
    }
    memmove(A->col[i] + k + 1, A->col[i] + k, (size_t)(A->nnz[i] - k) * sizeof **A->col);
    memmove(A->val[i] + k + 1, A->val[i] + k, (size_t)(A->nnz[i] - k) * sizeof **A->val);
    A->col[i][k] = j;
    A->val[i][k] = e;
    A->nnz[i]++;
}

/* A copy whose rows can be changed without touching A. */
static DvMat *dvm_copy(Derivation *dv, const DvMat *A)
{
    DvMat *B = dvm_new(dv, A->rows, A->cols);
    for (int i = 0; i < A->rows; i++) {
        B->nnz[i] = B->cap[i] = A->nnz[i];
        B->col[i] = dv_alloc(dv, (size_t)A->nnz[i], sizeof **B->col);
        B->val[i] = dv_alloc(dv, (size_t)A->nnz[i], sizeof **B->val);
        if (A->nnz[i]) {
            memcpy(B->col[i], A->col[i], (size_t)A->nnz[i] * sizeof **B->col);
            memcpy(B->val[i], A->val[i], (size_t)A->nnz[i] * sizeof **B->val);
        }
    }
    return B;
}

/* ---- assembly ----------------------------------------------------------- */

/* Adds the symmetric stiffness pattern of a two-ended element to a matrix. */
static void stamp(Derivation *dv, DvMat *A, int a, int b, Expr *k)
{
    ExprCtx *x = dv->ex;
    if (a >= 0)
        dvm_set(dv, A, a, a, expr_add(x, dvm_get(A, a, a), k));
    if (b >= 0)
        dvm_set(dv, A, b, b, expr_add(x, dvm_get(A, b, b), k));
    if (a >= 0 && b >= 0) {
        dvm_set(dv, A, a, b, expr_sub(x, dvm_get(A, a, b), k));
        dvm_set(dv, A, b, a, expr_sub(x, dvm_get(A, b, a), k));
    }
}

/* Builds M, K, C, f_const and W, d from the model's statements. */
static int dv_assemble(Derivation *dv, Diag *diag)
{
    const Model *m = dv->model;
    ExprCtx *x = dv->ex;
    int n = dv->n, bad = 0;

    dv->mass = dv_alloc(dv, (size_t)n, sizeof *dv->mass);
    dv->invm = dv_alloc(dv, (size_t)n, sizeof *dv->invm);
    for (int i = 0; i < n; i++) {
        double mv;
        /* a generalized coordinate's inertia is in M(q) (derive_lag.c): the
         * diagonal table carries 1, which the runtime does not read */
        dv->mass[i] = m->bodies[i].mass ? m->bodies[i].mass : expr_num(x, 1);
        if (expr_is_num(dv->mass[i], &mv) && !(mv > 0)) {
            diag_error(diag, m->bodies[i].loc,
                       "body '%s' has mass %g: every body needs a positive mass "
                       "(M would be singular)", m->bodies[i].name, mv);
            bad = 1;
            continue;
        }
        dv->invm[i] = dv_add_const(dv, expr_div(x, expr_num(x, 1), dv->mass[i]),
                                   arena_printf(dv->arena, "1/m of %s", m->bodies[i].name));
    }
    if (bad)
        return 1;

    dv->K = dvm_new(dv, n, n);
    dv->C = dvm_new(dv, n, n);
    dv->fconst = dv_exprs(dv, n);
    for (int s = 0; s < m->n_springs; s++) {
        const Spring *sp = &m->springs[s];
        if (sp->k) {
            stamp(dv, dv->K, sp->a, sp->b, sp->k);
            if (sp->rest && !expr_is_zero(sp->rest)) {
                /* tension k (x_b - x_a - rest): constant part -k rest pulls a, pushes b */
                Expr *kr = expr_mul(x, sp->k, sp->rest);
                if (sp->a >= 0)
                    dv->fconst[sp->a] = expr_sub(x, dv->fconst[sp->a], kr);
                if (sp->b >= 0)
                    dv->fconst[sp->b] = expr_add(x, dv->fconst[sp->b], kr);
            }
        }
        if (sp->c)
            stamp(dv, dv->C, sp->a, sp->b, sp->c);
    }
    if (m->gravity)
        for (int i = 0; i < n; i++) {
            /* weight -m g on the line; -m g gfac along a planar body's coordinate */
            Expr *wt = expr_mul(x, dv->mass[i], m->gravity);
            if (m->bodies[i].gfac)
                wt = expr_mul(x, wt, m->bodies[i].gfac);
            dv->fconst[i] = expr_sub(x, dv->fconst[i], wt);
        }

    dv->W = dvm_new(dv, dv->g, n);
    dv->d = dv_alloc(dv, (size_t)dv->g, sizeof *dv->d);
    for (int j = 0; j < dv->g; j++) {
        /* a curved gap's row is its pattern, values 0: they come from nl_gap */
        for (int k = 0; k < m->gaps[j].n_w; k++)
            dvm_set(dv, dv->W, j, m->gaps[j].w_body[k],
                    m->gaps[j].curve ? expr_num(x, 0) : m->gaps[j].w[k]);
        dv->d[j] = m->gaps[j].d ? m->gaps[j].d : expr_num(x, 0);
    }
    dv->h = dv_alloc(dv, (size_t)dv->g + 1, sizeof *dv->h);
    dv->hd = dv_alloc(dv, (size_t)dv->g + 1, sizeof *dv->hd);
    dv->hdd = dv_alloc(dv, (size_t)dv->g + 1, sizeof *dv->hdd);
    dv->hddd = dv_alloc(dv, (size_t)dv->g + 1, sizeof *dv->hddd);
    for (int j = 0; j < dv->g; j++) {
        if (!m->gaps[j].h)
            continue;
        Expr *t = expr_time(x);
        dv->h[j] = m->gaps[j].h;
        dv->hd[j] = expr_diff(x, dv->h[j], t);
        dv->hdd[j] = expr_diff(x, dv->hd[j], t);
        dv->hddd[j] = expr_diff(x, dv->hdd[j], t);
        dv->n_moving++;
    }
    return 0;
}

/* Reports gaps that can never open or close, and gaps that repeat another. */
static int dv_check_gaps(Derivation *dv, Diag *diag)
{
    const Model *m = dv->model;
    ExprCtx *x = dv->ex;
    int bad = 0;
    const DvMat *W = dv->W;

    for (int j = 0; j < dv->g; j++) {
        int nz = m->gaps[j].curve != NULL;   /* sema saw it depend on a position */
        for (int k = 0; k < W->nnz[j]; k++)
            nz += !expr_is_zero(W->val[j][k]);
        if (!nz) {
            diag_error(diag, m->gaps[j].loc,
                       "gap '%s' does not depend on any body position: it can never open or close",
                       m->gaps[j].name);
            bad = 1;
        }
    }
    if (bad)
        return 1;
    /* w_b = alpha w_a with alpha > 0 and d_b = alpha d_a: the same constraint twice.
     * Parallel rows have the same support: compare first nonzero and count first. */
    int *first = dv_alloc(dv, (size_t)dv->g, sizeof *first);
    int *count = dv_alloc(dv, (size_t)dv->g, sizeof *count);
    for (int j = 0; j < dv->g; j++) {
        first[j] = -1;
        for (int k = 0; k < W->nnz[j]; k++)
            if (!expr_is_zero(W->val[j][k])) {
                if (first[j] < 0)
                    first[j] = W->col[j][k];
                count[j]++;
            }
    }
    for (int a = 0; a < dv->g; a++) {
        for (int b = a + 1; b < dv->g; b++) {
            if (first[a] != first[b] || count[a] != count[b] || first[a] < 0)
                continue;
            int i0 = first[a];
            Expr *alpha = expr_div(x, dvm_get(W, b, i0), dvm_get(W, a, i0));
            int parallel = 1;
            for (int k = 0; k < W->nnz[a] && parallel; k++) {
                int i = W->col[a][k];
                parallel = expr_is_zero(expr_sub(x, dvm_get(W, b, i),
                                                 expr_mul(x, alpha, W->val[a][k])));
            }
            if (!parallel || !(dv_default(dv, alpha) > 0))
                continue;
            if (dv->h[a] || dv->h[b])
                continue;       /* a moving surface is not the same constraint as another */
            if (expr_is_zero(expr_sub(x, dv->d[b], expr_mul(x, alpha, dv->d[a])))) {
                diag_error(diag, m->gaps[b].loc,
                           "gaps '%s' and '%s' are the same constraint (parallel, same offset)",
                           m->gaps[a].name, m->gaps[b].name);
                diag_note(diag, m->gaps[a].loc, "'%s' is defined here", m->gaps[a].name);
                bad = 1;
            }
        }
    }
    return bad;
}

/* ---- time switches -------------------------------------------------------- */

/* Whether e is built of sums and products of t and of terms free of t
 * (numbers, parameters and functions of them, constant over a run): a
 * polynomial in t.  With a derivative free of t, it is a + b t. */
static bool dv_polynomial_in_time(const Expr *e)
{
    if (!expr_has_kind(e, EX_TIME) && !expr_has_kind(e, EX_VAR))
        return true;
    switch (e->kind) {
    case EX_TIME:
        return true;
    case EX_ADD:
    case EX_MUL:
        for (int i = 0; i < e->nargs; i++)
            if (!dv_polynomial_in_time(e->args[i]))
                return false;
        return true;
    default:
        return false;
    }
}

/* Rebuilds e bottom-up, replacing every comparison that involves t by its
 * switch flag (registering new switches on the way). */
static Expr *dv_switchify(Derivation *dv, Expr *e, SrcLoc loc)
{
    ExprCtx *x = dv->ex;
    if (e->nargs == 0 || !expr_has_kind(e, EX_TIME))
        return e;
    if (e->kind == EX_CMP) {
        for (int k = 0; k < dv->n_sw; k++)
            if (dv->sw_list[k].cond == e)
                return expr_var(x, dv->v_sw + k);
        /* a new switch: the comparison's sides give its switch function */
        int k = dv->n_sw++;
        DvSwitch *s = &dv->sw_list[k];
        s->cond = e;
        s->fn = expr_sub(x, e->args[0], e->args[1]);
        s->fn_dot = expr_diff(x, s->fn, expr_time(x));
        s->affine = dv_polynomial_in_time(s->fn) && !expr_has_kind(s->fn_dot, EX_TIME);
        s->loc = loc;
        return expr_var(x, dv->v_sw + k);
    }
    Expr *a[3] = {NULL, NULL, NULL};
    Expr *r = NULL;
    switch (e->kind) {
    case EX_ADD:
    case EX_MUL:
        r = dv_switchify(dv, e->args[0], loc);
        for (int i = 1; i < e->nargs; i++) {
            Expr *t = dv_switchify(dv, e->args[i], loc);
            r = e->kind == EX_ADD ? expr_add(x, r, t) : expr_mul(x, r, t);
        }
        return r;
    default:
        break;
    }
    for (int i = 0; i < e->nargs && i < 3; i++)
        a[i] = dv_switchify(dv, e->args[i], loc);
    switch (e->kind) {
    case EX_POW:  return expr_pow(x, a[0], a[1]);
    case EX_CALL: return expr_call(x, (ExprFunc)e->op, a[0], e->nargs > 1 ? a[1] : NULL);
    case EX_IF:   return expr_if(x, a[0], a[1], a[2]);
    case EX_AND:  return expr_and(x, a[0], a[1]);
    case EX_OR:   return expr_or(x, a[0], a[1]);
    case EX_NOT:  return expr_not(x, a[0]);
    default:      return e;
    }
}

/* Counts the comparison nodes of e, an upper bound for the switches it adds. */
static int dv_count_cmp(const Expr *e)
{
    int c = e->kind == EX_CMP;
    for (int i = 0; i < e->nargs; i++)
        c += dv_count_cmp(e->args[i]);
    return c;
}

/* Sums the `force` statements per body, with time switches replaced by flags. */
static void dv_forces(Derivation *dv)
{
    const Model *m = dv->model;
    ExprCtx *x = dv->ex;
    int bound = 0;
    for (int f = 0; f < m->n_forces; f++)
        bound += dv_count_cmp(m->forces[f].value);
    dv->sw_list = dv_alloc(dv, (size_t)bound, sizeof *dv->sw_list);
    dv->n_sw = 0;
    dv->fext = dv_exprs(dv, dv->n);
    dv->fnl = dv_exprs(dv, dv->n);
    dv->fall = dv_exprs(dv, dv->n);
    dv->force_each = dv_alloc(dv, (size_t)m->n_forces + 1, sizeof *dv->force_each);
    for (int f = 0; f < m->n_forces; f++) {
        const Force *fo = &m->forces[f];
        Expr *v = dv_switchify(dv, fo->value, fo->loc);
        int i = fo->body;
        dv->fall[i] = expr_add(x, dv->fall[i], v);
        /* a state-dependent force is nl_force's; force() and force_terms() keep the others */
        if (fo->state) {
            dv->force_each[f] = expr_num(x, 0);
            dv->fnl[i] = expr_add(x, dv->fnl[i], v);
            continue;
        }
        dv->force_each[f] = v;
        dv->fext[i] = expr_add(x, dv->fext[i], v);
    }
    dv->fext_dot = dv_alloc(dv, (size_t)dv->n, sizeof *dv->fext_dot);
    for (int i = 0; i < dv->n; i++)
        dv->fext_dot[i] = expr_diff(x, dv->fext[i], expr_time(x));
}

/* ---- linear algebra on expressions ----------------------------------------- */

/* Numeric rank test at the default parameters: are rows[0..r-1] of A (W_R) independent? */
bool dv_rows_independent(Derivation *dv, const DvMat *A, const int *rows, int r)
{
    int n = dv->n;
    double *R = dv_alloc(dv, (size_t)(r * n), sizeof *R);
    double scale = 0;
    for (int a = 0; a < r; a++)
        for (int i = 0; i < n; i++) {
            R[a * n + i] = dv_default(dv, dvm_get(A, rows[a], i));
            if (fabs(R[a * n + i]) > scale)
                scale = fabs(R[a * n + i]);
        }
    int rank = 0;
    for (int col = 0; col < n && rank < r; col++) {
        int piv = -1;
        double best = 1e-12 * scale;
        for (int a = rank; a < r; a++)
            if (fabs(R[a * n + col]) > best) {
                best = fabs(R[a * n + col]);
                piv = a;
            }
        if (piv < 0)
            continue;
        for (int i = 0; i < n; i++) {
            double t = R[piv * n + i];
            R[piv * n + i] = R[rank * n + i];
            R[rank * n + i] = t;
        }
        for (int a = rank + 1; a < r; a++) {
            double f = R[a * n + col] / R[rank * n + col];
            for (int i = col; i < n; i++)
                R[a * n + i] -= f * R[rank * n + i];
        }
        rank++;
    }
    return rank == r;
}

/* The Delassus matrix S = A_R M^-1 A_R^T of rows[0..r-1] of A (r*r
 * expressions, row-major): the held gaps' W_R, or with friction the held
 * rows of Wc. */
Expr **dv_delassus(Derivation *dv, const DvMat *A, const int *rows, int r)
{
    ExprCtx *x = dv->ex;
    Expr **S = dv_alloc(dv, (size_t)(r * r), sizeof *S);
    for (int a = 0; a < r; a++)
        for (int b = 0; b < r; b++) {
            Expr *s = expr_num(x, 0);
            int ja = rows[a], jb = rows[b];
            for (int k = 0; k < A->nnz[ja]; k++) {
                int i = A->col[ja][k];
                Expr *wb = dvm_get(A, jb, i);
                if (!expr_is_zero(A->val[ja][k]) && !expr_is_zero(wb))
                    s = expr_add(x, s, expr_mul(x, expr_mul(x, A->val[ja][k], wb), dv->invm[i]));
            }
            S[a * r + b] = s;
        }
    return S;
}

/* An entry of S^-1 as the mode's code reads it: 0 stays 0, a number or a
 * single constant is used as it is, anything else is hoisted into c[]. */
static Expr *dv_hoist(Derivation *dv, Expr *e, const char *what)
{
    if (expr_is_num(e, NULL) || e->kind == EX_VAR)
        return e;
    return dv_add_const(dv, e, what);
}

/* The inverse of the symmetric positive definite r*r Delassus matrix S of
 * the closed impact gaps R (mask), as r*r expressions (row-major, symmetric:
 * one constant per pair), hoisted into constants.  r = 1: 1/S.  r = 2:
 * 1/S of each when the two rows share no body (S[0][1] = 0), else the
 * cofactors (their 1/det S is a product of two 1/m: it overflows at masses
 * of 1e-300 kg, status.md).  For larger R, S is bordered from S_Q of Q = R
 * without its last gap (a smaller mask, derived before; Qinv its inverse):
 *   S = [S_Q b; b^T d],  z = Qinv b,  sigma = d - b . z  (> 0, a Schur complement of SPD S),
 *   S^-1 = [Qinv + z z^T / sigma, -z / sigma; -z^T / sigma, 1 / sigma],
 * O(r^2) constants per closed set, and none where a gap touches no other
 * gap of R (b = 0: the inverse is block diagonal). */
Expr **dv_invert_spd(Derivation *dv, Expr **S, int r, unsigned mask, Expr *const *Qinv)
{
    ExprCtx *x = dv->ex;
    Arena *ar = dv->arena;
    Expr **out = dv_alloc(dv, (size_t)(r * r), sizeof *out);
    if (r == 1 || (r == 2 && expr_is_zero(S[1]))) {
        /* one row, or two that share no body: no determinant, whose (1/m)^2
         * was infinite at 1e-300 kg and 0 at 1e300 kg */
        for (int a = 0; a < r; a++)
            out[a * r + a] = dv_hoist(dv, expr_div(x, expr_num(x, 1), S[a * r + a]),
                                      arena_printf(ar, "(S^-1)[%d][%d] of mode %u", a, a, mask));
        if (r == 2)
            out[1] = out[2] = expr_num(x, 0);
        return out;
    }
    if (r == 2) {
        Expr *det = expr_sub(x, expr_mul(x, S[0], S[3]), expr_mul(x, S[1], S[2]));
        Expr *idet = dv_add_const(dv, expr_div(x, expr_num(x, 1), det),
                                  arena_printf(ar, "1/det S of mode %u", mask));
        out[0] = dv_hoist(dv, expr_mul(x, S[3], idet), arena_printf(ar, "(S^-1)[0][0] of mode %u", mask));
        out[1] = out[2] = dv_hoist(dv, expr_neg(x, expr_mul(x, S[1], idet)),
                                   arena_printf(ar, "(S^-1)[0][1] of mode %u", mask));
        out[3] = dv_hoist(dv, expr_mul(x, S[0], idet), arena_printf(ar, "(S^-1)[1][1] of mode %u", mask));
        return out;
    }
    int q = r - 1;
    Expr **z = dv_alloc(dv, (size_t)q, sizeof *z);
    Expr *sigma = S[q * r + q];
    for (int a = 0; a < q; a++) {
        Expr *za = expr_num(x, 0);
        for (int b = 0; b < q; b++)
            za = expr_add(x, za, expr_mul(x, Qinv[a * q + b], S[b * r + q]));
        z[a] = dv_hoist(dv, za, arena_printf(ar, "z[%d] = (S_Q^-1 b)[%d] of mode %u", a, a, mask));
        sigma = expr_sub(x, sigma, expr_mul(x, S[a * r + q], z[a]));
    }
    Expr *is = dv_hoist(dv, expr_div(x, expr_num(x, 1), sigma),
                        arena_printf(ar, "1/sigma of mode %u: (S^-1)[%d][%d]", mask, q, q));
    for (int a = 0; a < q; a++) {
        for (int b = a; b < q; b++)
            out[a * r + b] = out[b * r + a] =
                dv_hoist(dv, expr_add(x, Qinv[a * q + b], expr_mul(x, expr_mul(x, z[a], z[b]), is)),
                         arena_printf(ar, "(S^-1)[%d][%d] of mode %u", a, b, mask));
        out[a * r + q] = out[q * r + a] =
            dv_hoist(dv, expr_neg(x, expr_mul(x, z[a], is)),
                     arena_printf(ar, "(S^-1)[%d][%d] of mode %u", a, q, mask));
    }
    out[q * r + q] = is;
    return out;
}

/* ---- modes ---------------------------------------------------------------- */

/* Describes which bodies a mode sticks together, e.g. "M1 and M2 stuck". */
static void dv_describe(Derivation *dv, DvMode *md)
{
    const Model *m = dv->model;
    Arena *ar = dv->arena;
    int n = dv->n;
    char *label = arena_strdup(ar, "{");
    int first = 1;
    for (int j = 0; j < dv->g; j++)
        if (dv_closed(md->mask, j)) {
            label = arena_printf(ar, "%s%s%s", label, first ? "" : ", ", m->gaps[j].name);
            first = 0;
        }
    md->label = arena_printf(ar, "%s%s}", label, first ? "" : " closed");
    if (first) {
        md->story = "all gaps open, free flight";
        return;
    }
    /* union-find over bodies joined by closed impact gaps; -1 = ground joins too */
    int *root = dv_alloc(dv, (size_t)(n + 1), sizeof *root);
    for (int i = 0; i <= n; i++)
        root[i] = i;
    int *grounded = dv_alloc(dv, (size_t)(n + 1), sizeof *grounded);
    for (int k = 0; k < md->n_impact; k++) {
        int j = md->impact[k], prev = -1, cnt = 0;
        for (int t = 0; t < dv->W->nnz[j]; t++) {
            int i = dv->W->col[j][t];
            if (expr_is_zero(dv->W->val[j][t]))
                continue;
            cnt++;
            int ri = i;
            while (root[ri] != ri)
                ri = root[ri];
            if (prev >= 0) {
                int rp = prev;
                while (root[rp] != rp)
                    rp = root[rp];
                root[ri] = rp;
            }
            prev = i;
        }
        if (cnt == 1)
            grounded[prev] = 1;
    }
    /* each body's root once, and the members of each root in increasing
     * order (next[]), so the story costs O(n) rather than O(n^2) */
    int *cnt = dv_alloc(dv, (size_t)n, sizeof *cnt), *gnd = dv_alloc(dv, (size_t)n, sizeof *gnd);
    int *head = dv_alloc(dv, (size_t)n, sizeof *head), *tail = dv_alloc(dv, (size_t)n, sizeof *tail);
    int *next = dv_alloc(dv, (size_t)n, sizeof *next);
    for (int i = 0; i < n; i++)
        head[i] = tail[i] = next[i] = -1;
    for (int i = 0; i < n; i++) {
        int ri = i;
        while (root[ri] != ri)
            ri = root[ri];
        cnt[ri]++;
        gnd[ri] |= grounded[i];
        if (tail[ri] < 0)
            head[ri] = i;
        else
            next[tail[ri]] = i;
        tail[ri] = i;
    }
    char *story = arena_strdup(ar, "");
    int parts = 0;
    for (int r = 0; r < n; r++) {
        if (cnt[r] == 0 || (cnt[r] == 1 && !gnd[r]))
            continue;
        char *names = arena_strdup(ar, "");
        int members = 0;
        for (int i = head[r]; i >= 0; i = next[i]) {
            members++;
            names = arena_printf(ar, "%s%s%s", names,
                                 members == 1 ? "" : members == cnt[r] ? " and " : ", ",
                                 body_name(m, i));
        }
        story = arena_printf(ar, "%s%s%s %s", story, parts ? "; " : "", names,
                             gnd[r] ? (members > 1 ? "stuck and held at their stop"
                                                   : "held at its stop")
                                    : "stuck");
        parts++;
    }
    for (int j = 0; j < dv->g; j++)
        if (dv_closed(md->mask, j) && !m->gaps[j].law->constraint) {
            story = arena_printf(ar, "%s%s%s engaged", story, parts ? "; " : "", m->gaps[j].name);
            parts++;
        }
    md->story = story;
}

/* gap_j = w_j . x + d_j + h_j: with pos = v (or a) and the surface term
 * hsurf = h_j' (or h_j''), its time derivatives. */
static Expr *dv_gap_with(Derivation *dv, int j, Expr **pos, Expr *hsurf)
{
    ExprCtx *x = dv->ex;
    Expr *s = hsurf ? hsurf : expr_num(x, 0);
    for (int k = 0; k < dv->W->nnz[j]; k++)
        if (!expr_is_zero(dv->W->val[j][k]))
            s = expr_add(x, s, expr_mul(x, dv->W->val[j][k], pos[dv->W->col[j][k]]));
    return s;
}

/* gap_j = w_j . x + d_j + h_j(t) (h_j only for a moving surface). */
static Expr *dv_gap(Derivation *dv, int j, Expr **pos)
{
    ExprCtx *x = dv->ex;
    Expr *s = dv->h[j] ? expr_add(x, dv->d[j], dv->h[j]) : dv->d[j];
    for (int k = 0; k < dv->W->nnz[j]; k++)
        if (!expr_is_zero(dv->W->val[j][k]))
            s = expr_add(x, s, expr_mul(x, dv->W->val[j][k], pos[dv->W->col[j][k]]));
    return s;
}

/* f - sum_k A[i][k] q[k] over the nonzero entries of row i. */
static Expr *dv_row_sub(Derivation *dv, Expr *f, const DvMat *A, int i, Expr **q)
{
    for (int k = 0; k < A->nnz[i]; k++)
        if (!expr_is_zero(A->val[i][k]))
            f = expr_sub(dv->ex, f, expr_mul(dv->ex, A->val[i][k], q[A->col[i][k]]));
    return f;
}

/* Derives one mode: its program of locals, right-hand side, contact forces
 * and event functions with their derivatives. */
static void dv_mode(Derivation *dv, DvMode *md)
{
    const Model *m = dv->model;
    ExprCtx *x = dv->ex;
    int n = dv->n, g = dv->g;
    unsigned mask = md->mask;

    /* the mode's K, C and f_const: engaged penalty gaps add k w w^T, c w w^T, -k d w */
    bool penalty = false;
    for (int j = 0; j < g; j++)
        penalty |= dv_closed(mask, j) && !m->gaps[j].law->constraint;
    md->K = dv->K;
    md->C = dv->C;
    md->fconst = dv->fconst;
    if (penalty) {
        md->K = dvm_copy(dv, dv->K);
        md->C = dvm_copy(dv, dv->C);
        md->fconst = dv_alloc(dv, (size_t)n, sizeof *md->fconst);
        memcpy(md->fconst, dv->fconst, (size_t)n * sizeof *md->fconst);
    }
    const DvMat *W = dv->W;
    for (int j = 0; j < g && penalty; j++) {
        const Gap *gp = &m->gaps[j];
        if (!dv_closed(mask, j) || gp->law->constraint)
            continue;
        Expr *w = NULL;
        for (int ka = 0; ka < W->nnz[j]; ka++) {
            int a = W->col[j][ka];
            Expr *wa = W->val[j][ka];
            if (expr_is_zero(wa))
                continue;
            md->fconst[a] = expr_sub(x, md->fconst[a], expr_mul(x, expr_mul(x, gp->k, dv->d[j]), wa));
            for (int kb = 0; kb < W->nnz[j]; kb++) {
                int b = W->col[j][kb];
                w = expr_mul(x, wa, W->val[j][kb]);
                if (expr_is_zero(w))
                    continue;
                dvm_set(dv, md->K, a, b, expr_add(x, dvm_get(md->K, a, b), expr_mul(x, gp->k, w)));
                if (gp->c)
                    dvm_set(dv, md->C, a, b, expr_add(x, dvm_get(md->C, a, b), expr_mul(x, gp->c, w)));
            }
        }
    }

    md->prog = dv_alloc(dv, (size_t)(3 * n + g), sizeof *md->prog);
    md->n_prog = 0;
    /* F = f_ext(t) + f_const - K x - C v */
    for (int i = 0; i < n; i++) {
        Expr *f = expr_add(x, dv->fext[i], md->fconst[i]);
        f = dv_row_sub(dv, f, md->K, i, dv->x);
        f = dv_row_sub(dv, f, md->C, i, dv->v);
        md->prog[md->n_prog++] = (DvAssign){dv->F[i], f};
    }
    /* lambda_R = -S^-1 W_R M^-1 F, S = W_R M^-1 W_R^T */
    int r = md->n_impact;
    unsigned rmask = 0;
    for (int a = 0; a < r; a++)
        rmask |= 1u << md->impact[a];
    if (r && rmask != mask) {
        /* S^-1 depends on R only: the mode R itself (derived before, its mask
         * is smaller) has it; its engaged penalty gaps change F, not S */
        md->Sinv = dv->modes[rmask].Sinv;
    } else if (r) {
        Expr **S = dv_delassus(dv, W, md->impact, r);
        unsigned top = 1u << md->impact[r - 1];
        md->Sinv = dv_invert_spd(dv, S, r, mask, r > 2 ? dv->modes[rmask & ~top].Sinv : NULL);
    }
    if (r) {
        Expr **rhs = dv_alloc(dv, (size_t)r, sizeof *rhs);
        for (int a = 0; a < r; a++) {
            rhs[a] = expr_num(x, 0);
            int ja = md->impact[a];
            for (int k = 0; k < W->nnz[ja]; k++) {
                int i = W->col[ja][k];
                if (!expr_is_zero(W->val[ja][k]))
                    rhs[a] = expr_add(x, rhs[a], expr_mul(x, expr_mul(x, W->val[ja][k], dv->invm[i]),
                                                          dv->F[i]));
            }
            /* a moving surface: the held gap follows it, w . a = -h'' */
            if (dv->hdd[ja])
                rhs[a] = expr_add(x, rhs[a], dv->hdd[ja]);
        }
        for (int a = 0; a < r; a++) {
            Expr *l = expr_num(x, 0);
            for (int b = 0; b < r; b++)
                l = expr_sub(x, l, expr_mul(x, md->Sinv[a * r + b], rhs[b]));
            md->prog[md->n_prog++] = (DvAssign){dv->lam[md->impact[a]], l};
        }
    }
    /* a = M^-1 (F + W_R^T lambda_R) */
    for (int i = 0; i < n; i++) {
        Expr *f = dv->F[i];
        for (int a = 0; a < r; a++) {
            Expr *w = dvm_get(W, md->impact[a], i);
            if (!expr_is_zero(w))
                f = expr_add(x, f, expr_mul(x, w, dv->lam[md->impact[a]]));
        }
        md->prog[md->n_prog++] = (DvAssign){dv->acc[i], expr_mul(x, dv->invm[i], f)};
    }
    /* F' = f_ext'(t) - K v - C a, needed by the derivative of lambda */
    if (r)
        for (int i = 0; i < n; i++) {
            Expr *f = dv->fext_dot[i];
            f = dv_row_sub(dv, f, md->K, i, dv->v);
            f = dv_row_sub(dv, f, md->C, i, dv->acc);
            md->prog[md->n_prog++] = (DvAssign){dv->Fdot[i], f};
        }

    md->ydot = dv_alloc(dv, (size_t)(2 * n), sizeof *md->ydot);
    for (int i = 0; i < n; i++) {
        md->ydot[i] = dv->v[i];
        md->ydot[n + i] = dv->acc[i];
    }

    md->lambda = dv_exprs(dv, g);
    md->ev = dv_alloc(dv, (size_t)g, sizeof *md->ev);
    md->evdot = dv_alloc(dv, (size_t)g, sizeof *md->evdot);
    for (int j = 0; j < g; j++) {
        const Gap *gp = &m->gaps[j];
        Expr *gap = dv_gap(dv, j, dv->x);
        Expr *gapd = dv_gap_with(dv, j, dv->v, dv->hd[j]);
        Expr *gapdd = dv_gap_with(dv, j, dv->acc, dv->hdd[j]);
        LawEvent form = gp->law->event(gp, dv_closed(mask, j));
        if (form == LAW_EV_GAP) {
            md->ev[j] = gap;
            md->evdot[j] = gapd;
        } else if (form == LAW_EV_GAP_OR_FORCE) {
            /* re-entry after a force release: max(gap, k gap + c gap') */
            Expr *c = gp->c ? gp->c : expr_num(x, 0);
            Expr *alt = expr_add(x, expr_mul(x, gp->k, gap), expr_mul(x, c, gapd));
            Expr *altd = expr_add(x, expr_mul(x, gp->k, gapd), expr_mul(x, c, gapdd));
            md->ev[j] = expr_call(x, FN_MAX, gap, alt);
            md->evdot[j] = expr_if(x, expr_cmp(x, CMP_GE, gap, alt), gapd, altd);
        } else if (form == LAW_EV_LAMBDA) {
            Expr *l = NULL, *ld = expr_num(x, 0);
            for (int k = 0; k < md->n_prog; k++)
                if (md->prog[k].var == dv->lam[j])
                    l = md->prog[k].value;
            for (int i = 0; i < n; i++)
                ld = expr_add(x, ld, expr_mul(x, expr_diff(x, l, dv->F[i]), dv->Fdot[i]));
            /* the surfaces' acceleration h'' enters lambda explicitly in t */
            ld = expr_add(x, ld, expr_diff(x, l, expr_time(x)));
            md->lambda[j] = dv->lam[j];
            md->ev[j] = dv->lam[j];
            md->evdot[j] = ld;
        } else {
            /* force element engaged: force k p + c p', p = -gap */
            Expr *c = gp->c ? gp->c : expr_num(x, 0);
            Expr *f = expr_neg(x, expr_add(x, expr_mul(x, gp->k, gap), expr_mul(x, c, gapd)));
            Expr *fd = expr_neg(x, expr_add(x, expr_mul(x, gp->k, gapd), expr_mul(x, c, gapdd)));
            md->lambda[j] = f;
            if (form == LAW_EV_FORCE) {
                md->ev[j] = f;
                md->evdot[j] = fd;
            } else {
                md->ev[j] = expr_neg(x, gap);
                md->evdot[j] = expr_neg(x, gapd);
            }
        }
    }
    md->status = DV_MODE_DERIVED;
}

/* The modes as corrections of the free mode (DvCorr in derive.h): the
 * pieces every mode shares, per gap and per closed set, instead of each
 * mode's own program.  lambda_R = -S^-1 W_R M^-1 F (dv_mode) reads
 * -S^-1 u_R with u_j = w_j . M^-1 F + h_j'' = w_j . a + h_j'', a = M^-1 F
 * the acceleration before the contact forces; its time derivative is
 * -S^-1 u_R' with u_j' = w_j . M^-1 F' + h_j'''. */
static void dv_corrections(Derivation *dv)
{
    const Model *m = dv->model;
    ExprCtx *x = dv->ex;
    int n = dv->n, g = dv->g;
    DvCorr *cr = &dv->corr;

    /* F' = f_ext'(t) - K v - C a of the free mode, and M^-1 F' */
    cr->fdot = dv_alloc(dv, (size_t)n, sizeof *cr->fdot);
    Expr **jerk = dv_alloc(dv, (size_t)n, sizeof *jerk);
    for (int i = 0; i < n; i++) {
        Expr *f = dv_row_sub(dv, dv->fext_dot[i], dv->K, i, dv->v);
        cr->fdot[i] = dv_row_sub(dv, f, dv->C, i, dv->acc);
        jerk[i] = expr_mul(x, dv->invm[i], dv->Fdot[i]);
    }
    cr->u = dv_alloc(dv, (size_t)dv->n_rows + 1, sizeof *cr->u);
    cr->ud = dv_alloc(dv, (size_t)dv->n_rows + 1, sizeof *cr->ud);
    cr->pen = dv_alloc(dv, (size_t)g + 1, sizeof *cr->pen);
    cr->pen_dot = dv_alloc(dv, (size_t)g + 1, sizeof *cr->pen_dot);
    for (int j = 0; j < g; j++) {
        const Gap *gp = &m->gaps[j];
        if (gp->law->constraint) {
            cr->u[j] = dv_gap_with(dv, j, dv->acc, dv->hdd[j]);
            cr->ud[j] = dv_gap_with(dv, j, jerk, dv->hddd[j]);
            continue;
        }
        /* engaged penalty: lambda_j = k p + c p', p = -gap (a penalty gap never moves) */
        Expr *c = gp->c ? gp->c : expr_num(x, 0);
        Expr *gap = dv_gap(dv, j, dv->x);
        Expr *gapd = dv_gap_with(dv, j, dv->v, NULL);
        Expr *gapdd = dv_gap_with(dv, j, dv->acc, NULL);
        cr->pen[j] = expr_neg(x, expr_add(x, expr_mul(x, gp->k, gap), expr_mul(x, c, gapd)));
        cr->pen_dot[j] = expr_neg(x, expr_add(x, expr_mul(x, gp->k, gapd), expr_mul(x, c, gapdd)));
    }
    if (!dv->enumerated)
        return;
    for (int k = 0; k < dv->n_modes; k++) {
        DvMode *md = &dv->modes[k];
        int r = md->n_impact;
        if (md->status != DV_MODE_DERIVED || r == 0)
            continue;
        dv_held_forces(dv, md->Sinv, md->impact, r, &md->lam_u, &md->lamd_u);
    }
}

/* The held rows' multipliers as corrections of the free mode,
 * lam_u = -S^-1 u_R, and their rates lamd_u = -S^-1 u_R' (r each). */
void dv_held_forces(Derivation *dv, Expr *const *Sinv, const int *rows, int r, Expr ***lam_u,
                    Expr ***lamd_u)
{
    ExprCtx *x = dv->ex;
    *lam_u = dv_alloc(dv, (size_t)r, sizeof **lam_u);
    *lamd_u = dv_alloc(dv, (size_t)r, sizeof **lamd_u);
    for (int a = 0; a < r; a++) {
        Expr *l = expr_num(x, 0), *ld = expr_num(x, 0);
        for (int b = 0; b < r; b++) {
            l = expr_sub(x, l, expr_mul(x, Sinv[a * r + b], dv->u[rows[b]]));
            ld = expr_sub(x, ld, expr_mul(x, Sinv[a * r + b], dv->ud[rows[b]]));
        }
        (*lam_u)[a] = l;
        (*lamd_u)[a] = ld;
    }
}

/* ---- substitution and evaluation helpers ------------------------------------ */

/* Marks in `seen` (indexed by variable) every variable e mentions. */
static void mark_vars(const Expr *e, unsigned char *seen, int nv)
{
    if (e->kind == EX_VAR) {
        if (e->index >= 0 && e->index < nv)
            seen[e->index] = 1;
        return;
    }
    for (int i = 0; i < e->nargs; i++)
        mark_vars(e->args[i], seen, nv);
}

/* Substitutes the variables vars[k] (k from last to first) by vals[k] where e
 * mentions them, each expansion possibly introducing earlier ones. */
static Expr *subst_chain(const Derivation *dv, Expr *e, int n, Expr *const *vars, Expr *const *vals)
{
    ExprCtx *x = dv->ex;
    int nv = dv->v_const + dv->n_consts + 1;
    unsigned char *seen = calloc((size_t)nv, 1);
    if (!seen)
        return e;
    mark_vars(e, seen, nv);
    for (int k = n - 1; k >= 0; k--) {
        int idx = vars[k]->index;
        if (idx < 0 || idx >= nv || !seen[idx])
            continue;
        e = expr_subst(x, e, vars[k], vals[k]);
        mark_vars(vals[k], seen, nv);
    }
    free(seen);
    return e;
}

/* Substitutes the mode's locals (see derive.h). */
Expr *dv_full(const Derivation *dv, const DvMode *md, Expr *e)
{
    Expr **vars = malloc((size_t)(md->n_prog + 1) * sizeof *vars);
    Expr **vals = malloc((size_t)(md->n_prog + 1) * sizeof *vals);
    if (!vars || !vals) {
        free(vars);
        free(vals);
        return e;
    }
    for (int k = 0; k < md->n_prog; k++) {
        vars[k] = md->prog[k].var;
        vals[k] = md->prog[k].value;
    }
    e = subst_chain(dv, e, md->n_prog, vars, vals);
    free(vars);
    free(vals);
    return e;
}

/* Substitutes the hoisted constants (see derive.h). */
Expr *dv_expand_consts(const Derivation *dv, Expr *e)
{
    ExprCtx *x = dv->ex;
    int nc = dv->n_consts;
    Expr **vars = malloc((size_t)(nc + 1) * sizeof *vars);
    Expr **vals = malloc((size_t)(nc + 1) * sizeof *vals);
    if (!vars || !vals) {
        free(vars);
        free(vals);
        return e;
    }
    for (int k = 0; k < nc; k++) {
        vars[k] = dv->cvar && k < dv->n_cvar ? dv->cvar[k] : expr_var(x, dv->v_const + k);
        vals[k] = dv->consts[k].value;
    }
    e = subst_chain(dv, e, nc, vars, vals);
    free(vars);
    free(vals);
    return e;
}

/* Fills the variables expr_eval needs (see derive.h). */
void dv_eval_vars(const Derivation *dv, const double *p, const double *y,
                  const int *sw, double *vars)
{
    for (int i = 0; i < dv->n_vars; i++)
        vars[i] = 0;
    for (int i = 0; i < 2 * dv->n; i++)
        vars[i] = y ? y[i] : 0;
    for (int k = 0; k < dv->n_sw; k++)
        vars[dv->v_sw + k] = sw ? sw[k] : 0;
    ExprEnv env = {p, vars, 0};
    for (int k = 0; k < dv->n_consts; k++)
        vars[dv->v_const + k] = expr_eval(dv->consts[k].value, &env);
}

/* Time derivative along the mode's flow: de/dy . y' + de/dt. */
Expr *dv_flow_diff(const Derivation *dv, const DvMode *md, Expr *e)
{
    ExprCtx *x = dv->ex;
    Expr *r = expr_diff(x, e, expr_time(x));
    for (int i = 0; i < 2 * dv->n; i++) {
        Expr *yi = i < dv->n ? dv->x[i] : dv->v[i - dv->n];
        if (!expr_depends_on(e, yi))
            continue;
        r = expr_add(x, r, expr_mul(x, expr_diff(x, e, yi), dv_full(dv, md, md->ydot[i])));
    }
    return r;
}

/* ---- entry point -------------------------------------------------------------- */

Derivation *derive_model(const Model *m, Arena *a, Diag *d)
{
    Derivation *dv = arena_alloc(a, sizeof *dv);
    ExprCtx *x = m->ex;
    dv->model = m;
    dv->ex = x;
    dv->arena = a;
    dv->n = m->n_bodies;
    dv->g = m->n_gaps;
    int n = dv->n, g = dv->g;

    /* Switches are counted while the forces are rebuilt; number the variables
     * with an upper bound first, then fix the layout. */
    int bound = 0;
    for (int f = 0; f < m->n_forces; f++)
        bound += dv_count_cmp(m->forces[f].value);
    dv_friction_plan(dv);          /* n_rows: g, or g + nf with the friction modes */
    int nr = dv->n_rows;
    dv->v_sw = 2 * n + m->n_rigids;   /* a rigid body's p0 is variable 2n + b */
    dv->v_f = dv->v_sw + bound;
    dv->v_lam = dv->v_f + n;
    dv->v_acc = dv->v_lam + nr;
    dv->v_fdot = dv->v_acc + n;
    dv->v_u = dv->v_fdot + n;
    dv->v_ud = dv->v_u + nr;
    dv->v_const = dv->v_ud + nr;

    dv->x = dv_alloc(dv, (size_t)n, sizeof *dv->x);
    dv->v = dv_alloc(dv, (size_t)n, sizeof *dv->v);
    dv->F = dv_alloc(dv, (size_t)n, sizeof *dv->F);
    dv->acc = dv_alloc(dv, (size_t)n, sizeof *dv->acc);
    dv->Fdot = dv_alloc(dv, (size_t)n, sizeof *dv->Fdot);
    dv->lam = dv_alloc(dv, (size_t)nr, sizeof *dv->lam);
    dv->u = dv_alloc(dv, (size_t)nr, sizeof *dv->u);
    dv->ud = dv_alloc(dv, (size_t)nr, sizeof *dv->ud);
    for (int i = 0; i < n; i++) {
        dv->x[i] = expr_var(x, i);
        dv->v[i] = expr_var(x, n + i);
        dv->F[i] = expr_var(x, dv->v_f + i);
        dv->acc[i] = expr_var(x, dv->v_acc + i);
        dv->Fdot[i] = expr_var(x, dv->v_fdot + i);
    }
    for (int j = 0; j < nr; j++) {
        dv->lam[j] = expr_var(x, dv->v_lam + j);
        dv->u[j] = expr_var(x, dv->v_u + j);
        dv->ud[j] = expr_var(x, dv->v_ud + j);
    }

    if (dv_assemble(dv, d) || dv_check_gaps(dv, d))
        return NULL;
    dv_forces(dv);
    rigid_derive(dv);
    dv->sw = dv_alloc(dv, (size_t)dv->n_sw, sizeof *dv->sw);
    for (int k = 0; k < dv->n_sw; k++)
        dv->sw[k] = expr_var(x, dv->v_sw + k);

    /* M(q) a = h(q, v) + ...: a Lagrangian model runs the nonlinear path */
    dv->nl = m->nl | (m->lagrangian ? NL_FORCE : 0);
    dv->enumerated = g <= DV_MAX_ENUM_GAPS && !dv->nl;
    dv->n_modes = g < 31 ? 1 << g : 0;
    int made = dv->enumerated ? dv->n_modes : 1;
    dv->modes = dv_alloc(dv, (size_t)made, sizeof *dv->modes);
    for (int k = 0; k < made; k++) {
        DvMode *md = &dv->modes[k];
        md->mask = (unsigned)k;
        md->impact = dv_alloc(dv, (size_t)g, sizeof *md->impact);
        for (int j = 0; j < g; j++)
            if (dv_closed(md->mask, j) && m->gaps[j].law->constraint)
                md->impact[md->n_impact++] = j;
        dv_describe(dv, md);
        if (!dv_rows_independent(dv, dv->W, md->impact, md->n_impact)) {
            md->status = DV_MODE_INADMISSIBLE;
            continue;
        }
        dv_mode(dv, md);
    }
    dv_corrections(dv);
    dv_friction_modes(dv);
    if (dv->nl) {
        dv->n_gen = 0;    /* the exact method needs a linear model */
        dv->gen_why = "the model is nonlinear";
        dv_curved_gaps(dv);
        if (dv->nl & NL_SLIP)
            dv_curved_slips(dv);
    } else {
        dv_generator(dv);
    }
    dv->n_vars = dv->v_const + dv->n_consts;
    dv->v_report = dv->n_vars;
    dv->n_cvar = dv->n_consts;
    dv->cvar = dv_alloc(dv, (size_t)dv->n_consts, sizeof *dv->cvar);
    for (int k = 0; k < dv->n_consts; k++)
        dv->cvar[k] = expr_var(x, dv->v_const + k);
    if (m->lagrangian && derive_lagrange(dv, d))
        return NULL;
    return dv;
}
