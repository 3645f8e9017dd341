/*
 * derive_nl.c - what a nonlinear model adds to the derivation: the curved
 * gaps' Jacobian rows and curvature terms, and the Taylor tape from which
 * the C back end writes nl_series (Jorba & Zou 2005: each elementary
 * operation's Taylor-coefficient recurrence, straight-line per model).
 *
 * State components are x_i = var i and v_i = var n + i (derive.h); time
 * switch flags, parameters and hoisted constants are constant over a step.
 */
#include <stdlib.h>
#include <string.h>

#include "derive.h"
#include "timefn.h"

/* ---- curved gaps ----------------------------------------------------------- */

/* gw[j][k] = dg_j/dx at W's k-th column, and gcv[j] = v^T (d2 g_j/dx2) v,
 * for every curved gap j (so that g_j'' = W_j(x) a + gcv[j]). */
void dv_curved_gaps(Derivation *dv)
{
    const Model *m = dv->model;
    ExprCtx *x = dv->ex;
    int g = dv->g;
    dv->gcurve = arena_alloc(dv->arena, sizeof(Expr *) * (size_t)(g + 1));
    dv->gcv = arena_alloc(dv->arena, sizeof(Expr *) * (size_t)(g + 1));
    dv->gw = arena_alloc(dv->arena, sizeof(Expr **) * (size_t)(g + 1));
    dv->n_wcurved = 0;
    for (int j = 0; j < g; j++) {
        if (!m->gaps[j].curve)
            continue;
        const DvMat *W = dv->W;
        int nc = W->nnz[j];
        dv->gcurve[j] = m->gaps[j].curve;
        if (m->gaps[j].sphere) {   /* its row is over the velocities (nq > nu) */
            sphere_derive(dv, j);
            dv->n_wcurved += nc;
            continue;
        }
        dv->gw[j] = arena_alloc(dv->arena, sizeof(Expr *) * (size_t)(nc + 1));
        Expr *cv = expr_num(x, 0);
        for (int a = 0; a < nc; a++) {
            Expr *w = expr_diff(x, dv->gcurve[j], dv->x[W->col[j][a]]);
            dv->gw[j][a] = w;
            Expr *row = expr_num(x, 0);   /* sum_b (d2 g / dx_a dx_b) v_b */
            for (int b = 0; b < nc; b++)
                row = expr_add(x, row, expr_mul(x, expr_diff(x, w, dv->x[W->col[j][b]]),
                                                dv->v[W->col[j][b]]));
            cv = expr_add(x, cv, expr_mul(x, dv->v[W->col[j][a]], row));
        }
        dv->gcv[j] = cv;
        dv->n_wcurved += nc;
    }
}

/* ---- curved slips ----------------------------------------------------------- */

/* Marks in seen[] (and lists in cols, kept increasing) the bodies whose
 * positions e mentions (x_i = var i, i < n). */
static void slip_positions(const Expr *e, int n, unsigned char *seen, int *cols, int *nc)
{
    if (e->kind == EX_VAR) {
        if (e->index < n && !seen[e->index]) {
            int i = (*nc)++;
            while (i > 0 && cols[i - 1] > e->index) {
                cols[i] = cols[i - 1];
                i--;
            }
            cols[i] = e->index;
            seen[e->index] = 1;
        }
        return;
    }
    for (int i = 0; i < e->nargs; i++)
        slip_positions(e->args[i], n, seen, cols, nc);
}

/* For every friction element whose slip coefficients depend on the
 * positions: its nonzero coefficients w_t,i(x) (the pattern of its row of
 * Wt) and the curvature term sum_i v_i sum_j (dw_t,i/dx_j) v_j, so that
 * the slip's rate is w_t(x) a + fcv[k]. */
void dv_curved_slips(Derivation *dv)
{
    const Model *m = dv->model;
    ExprCtx *x = dv->ex;
    int n = dv->n, nf = m->n_frictions;
    dv->fw = arena_alloc(dv->arena, sizeof(Expr **) * (size_t)(nf + 1));
    dv->fcv = arena_alloc(dv->arena, sizeof(Expr *) * (size_t)(nf + 1));
    dv->fcol = arena_alloc(dv->arena, sizeof(int *) * (size_t)(nf + 1));
    dv->fncol = arena_alloc(dv->arena, sizeof(int) * (size_t)(nf + 1));
    dv->n_wtcurved = 0;
    unsigned char *seen = arena_alloc(dv->arena, (size_t)(n ? n : 1));
    int *deps = arena_alloc(dv->arena, sizeof(int) * (size_t)(n ? n : 1));
    for (int k = 0; k < nf; k++) {
        const Friction *f = &m->frictions[k];
        dv->fncol[k] = 0;
        if (!f->curved)
            continue;
        dv->fcol[k] = arena_alloc(dv->arena, sizeof(int) * (size_t)(n ? n : 1));
        dv->fw[k] = arena_alloc(dv->arena, sizeof(Expr *) * (size_t)(n ? n : 1));
        Expr *cv = expr_num(x, 0);
        for (int i = 0; i < n; i++) {
            if (expr_is_zero(f->w[i]))
                continue;
            int c = dv->fncol[k]++;
            dv->fcol[k][c] = i;
            dv->fw[k][c] = f->w[i];
            int nd = 0;
            memset(seen, 0, (size_t)n);
            slip_positions(f->w[i], n, seen, deps, &nd);
            Expr *row = expr_num(x, 0);   /* sum_j (dw_i/dx_j) v_j */
            for (int q = 0; q < nd; q++)
                row = expr_add(x, row, expr_mul(x, expr_diff(x, f->w[i], dv->x[deps[q]]),
                                                dv->v[deps[q]]));
            cv = expr_add(x, cv, expr_mul(x, dv->v[i], row));
        }
        dv->fcv[k] = cv;
        dv->n_wtcurved += dv->fncol[k];
    }
}

/* ---- the Taylor tape ----------------------------------------------------------- */

typedef struct Memo {
    const Expr **key;
    TpArg *val;
    int cap, n;
} Memo;

typedef struct Tb {
    Derivation *dv;
    DvTape *tp;
    Memo memo;
    int n2;                /* 2n + the rigid bodies' p0: variables below it are the state */
} Tb;

/* Slot of e in the memo (open addressing on the creation id: deterministic). */
static int memo_find(const Memo *mm, const Expr *e)
{
    unsigned i = (e->id * 2654435761u) & (unsigned)(mm->cap - 1);
    while (mm->key[i] && mm->key[i] != e)
        i = (i + 1) & (unsigned)(mm->cap - 1);
    return (int)i;
}

/* Records e's operand, growing the table when half full. */
static void memo_put(Memo *mm, const Expr *e, TpArg v)
{
    if (2 * (mm->n + 1) > mm->cap) {
        Memo big = {NULL, NULL, mm->cap ? 2 * mm->cap : 256, 0};
        big.key = calloc((size_t)big.cap, sizeof *big.key);
        big.val = calloc((size_t)big.cap, sizeof *big.val);
        for (int i = 0; i < mm->cap; i++)
            if (mm->key[i])
                memo_put(&big, mm->key[i], mm->val[i]);
        free(mm->key);
        free(mm->val);
        *mm = big;
    }
    int i = memo_find(mm, e);
    if (!mm->key[i])
        mm->n++;
    mm->key[i] = e;
    mm->val[i] = v;
}

/* Does e vary over a step: does it mention the state or t? */
static bool tb_varies(const Tb *b, const Expr *e)
{
    if (e->kind == EX_TIME)
        return true;
    if (e->kind == EX_VAR)
        return e->index < b->n2;
    for (int i = 0; i < e->nargs; i++)
        if (tb_varies(b, e->args[i]))
            return true;
    return false;
}

/* Does e mention the state (a variable below n2)? */
static bool tb_state(const Tb *b, const Expr *e)
{
    if (e->kind == EX_VAR)
        return e->index < b->n2;
    for (int i = 0; i < e->nargs; i++)
        if (tb_state(b, e->args[i]))
            return true;
    return false;
}

/* Appends a node and returns its index; every node but TP_X gets a slot. */
static int tb_node(Tb *b, TpNode nd)
{
    DvTape *tp = b->tp;
    if (tp->n_nodes == tp->cap_nodes) {
        tp->cap_nodes = tp->cap_nodes ? 2 * tp->cap_nodes : 64;
        TpNode *nn = arena_alloc(b->dv->arena, sizeof *nn * (size_t)tp->cap_nodes);
        if (tp->n_nodes)
            memcpy(nn, tp->nodes, sizeof *nn * (size_t)tp->n_nodes);
        tp->nodes = nn;
    }
    nd.slot = nd.op == TP_X ? -1 : tp->n_slots++;
    tp->nodes[tp->n_nodes] = nd;
    return tp->n_nodes++;
}

static TpArg node_arg(int k)
{
    return (TpArg){k, NULL};
}

/* A one- or two-operand node. */
static TpArg tb_op(Tb *b, TpOp op, TpArg a, TpArg a2, Expr *c)
{
    TpNode nd = {0};
    nd.op = op;
    nd.nargs = a2.node >= 0 || a2.c ? 2 : 1;
    nd.arg[0] = a;
    nd.arg[1] = a2;
    nd.c = c;
    nd.pair = -1;
    return node_arg(tb_node(b, nd));
}

static const TpArg NONE = {-1, NULL};

static TpArg tb_expr(Tb *b, Expr *e);

/* a^n for a whole n >= 1, by squaring: O(log n) products. */
static TpArg tb_powi(Tb *b, TpArg a, long n)
{
    if (n == 1)
        return a;
    TpArg h = tb_powi(b, a, n / 2);
    TpArg sq = tb_op(b, TP_MUL, h, h, NULL);
    return n % 2 ? tb_op(b, TP_MUL, sq, a, NULL) : sq;
}

/* A sum: its varying terms as operands, its constant terms as one. */
static TpArg tb_add(Tb *b, Expr *e)
{
    ExprCtx *x = b->dv->ex;
    TpNode nd = {0};
    nd.op = TP_ADD;
    nd.pair = -1;
    nd.args = arena_alloc(b->dv->arena, sizeof(TpArg) * (size_t)(e->nargs + 1));
    Expr *c = expr_num(x, 0);
    for (int i = 0; i < e->nargs; i++) {
        if (!tb_varies(b, e->args[i])) {
            c = expr_add(x, c, e->args[i]);
            continue;
        }
        nd.args[nd.nargs++] = tb_expr(b, e->args[i]);
    }
    if (!expr_is_zero(c))
        nd.args[nd.nargs++] = (TpArg){-1, c};
    nd.src = e;
    return node_arg(tb_node(b, nd));
}

/* A product: the constant factors as one scale, the varying ones chained
 * two by two. */
static TpArg tb_mul(Tb *b, Expr *e)
{
    ExprCtx *x = b->dv->ex;
    Expr *c = expr_num(x, 1);
    TpArg acc = NONE;
    bool have = false;
    for (int i = 0; i < e->nargs; i++) {
        if (!tb_varies(b, e->args[i])) {
            c = expr_mul(x, c, e->args[i]);
            continue;
        }
        TpArg f = tb_expr(b, e->args[i]);
        acc = have ? tb_op(b, TP_MUL, acc, f, NULL) : f;
        have = true;
    }
    double one;
    if (expr_is_num(c, &one) && one == 1)
        return acc;
    return tb_op(b, TP_MUL, acc, NONE, c);
}

/* base ^ exponent, the exponent constant (sema refuses a state in it). */
static TpArg tb_pow(Tb *b, Expr *e)
{
    TpArg a = tb_expr(b, e->args[0]);
    double p;
    if (expr_is_num(e->args[1], &p) && p >= -64 && p <= 64 && p == (long)p && p != 0) {
        TpArg r = tb_powi(b, a, (long)(p < 0 ? -p : p));
        return p < 0 ? tb_op(b, TP_RECIP, r, NONE, NULL) : r;
    }
    return tb_op(b, TP_POW, a, NONE, e->args[1]);
}

/* sin and cos of the same argument: two nodes computed together. */
static TpArg tb_sincos(Tb *b, Expr *arg, bool want_sin)
{
    ExprCtx *x = b->dv->ex;
    Expr *se = expr_call(x, FN_SIN, arg, NULL), *ce = expr_call(x, FN_COS, arg, NULL), *r, *o;
    if (!tb_state(b, arg) && timefn_linear(x, arg, &r, &o))
        return tb_expr(b, want_sin ? se : ce);   /* a sinusoid of time: tb_time's closed form */
    if (b->memo.cap && b->memo.key[memo_find(&b->memo, se)] && b->memo.key[memo_find(&b->memo, ce)])
        return b->memo.val[memo_find(&b->memo, want_sin ? se : ce)];
    TpArg a = tb_expr(b, arg);
    TpNode s = {0}, c = {0};
    s.op = TP_SIN;
    c.op = TP_COS;
    s.nargs = c.nargs = 1;
    s.arg[0] = c.arg[0] = a;
    s.src = se;
    c.src = ce;
    int is = tb_node(b, s);
    int ic = tb_node(b, c);
    b->tp->nodes[is].pair = ic;
    b->tp->nodes[ic].pair = is;
    memo_put(&b->memo, se, node_arg(is));
    memo_put(&b->memo, ce, node_arg(ic));
    return node_arg(want_sin ? is : ic);
}

/* An elementary function of a varying argument. */
static TpArg tb_call(Tb *b, Expr *e)
{
    ExprCtx *x = b->dv->ex;
    switch ((ExprFunc)e->op) {
    case FN_SIN: return tb_sincos(b, e->args[0], true);
    case FN_COS: return tb_sincos(b, e->args[0], false);
    case FN_TAN:
        return tb_op(b, TP_MUL, tb_sincos(b, e->args[0], true),
                     tb_op(b, TP_RECIP, tb_sincos(b, e->args[0], false), NONE, NULL), NULL);
    case FN_EXP: return tb_op(b, TP_EXP, tb_expr(b, e->args[0]), NONE, NULL);
    case FN_LOG: return tb_op(b, TP_LOG, tb_expr(b, e->args[0]), NONE, NULL);
    case FN_SQRT: return tb_op(b, TP_POW, tb_expr(b, e->args[0]), NONE, expr_num(x, 0.5));
    case FN_ABS: return tb_op(b, TP_ABS, tb_expr(b, e->args[0]), NONE, NULL);
    case FN_MIN:
    case FN_MAX: {
        TpArg a0 = tb_expr(b, e->args[0]), a1 = tb_expr(b, e->args[1]);
        return tb_op(b, e->op == FN_MIN ? TP_MIN : TP_MAX, a0, a1, NULL);
    }
    case FN_ACOS: /* only in output columns, which have no series */
        return NONE;
    }
    return NONE;
}

/* ---- functions of t alone ------------------------------------------------------ */

enum { TB_POLY_MAX = 8 };   /* the highest degree of a polynomial in t taken whole */

/* The degree in t of e when it is a polynomial in t (sums, products and
 * whole powers of t and of constants), else -1; -1 too above TB_POLY_MAX. */
static int tb_poly_degree(const Expr *e)
{
    double p;
    int d = 0;
    if (!expr_has_kind(e, EX_TIME))
        return 0;
    switch (e->kind) {
    case EX_TIME:
        return 1;
    case EX_ADD:
    case EX_MUL:
        for (int i = 0; i < e->nargs; i++) {
            int di = tb_poly_degree(e->args[i]);
            if (di < 0)
                return -1;
            d = e->kind == EX_ADD ? (di > d ? di : d) : d + di;
        }
        break;
    case EX_POW:
        if (!expr_is_num(e->args[1], &p) || p < 1 || p > TB_POLY_MAX || p != (long)p ||
            (d = tb_poly_degree(e->args[0])) < 0)
            return -1;
        d *= (int)p;
        break;
    default:
        return -1;
    }
    return d <= TB_POLY_MAX ? d : -1;
}

/* A node with no operand and the closed-form constants tc[0..ntc-1]. */
static TpArg tb_closed(Tb *b, TpOp op, Expr **tc, int ntc)
{
    TpNode nd = {0};
    nd.op = op;
    nd.pair = -1;
    nd.tc = arena_alloc(b->dv->arena, sizeof(Expr *) * (size_t)ntc);
    memcpy(nd.tc, tc, sizeof(Expr *) * (size_t)ntc);
    nd.ntc = ntc;
    return node_arg(tb_node(b, nd));
}

/* A function of t alone (e varies, no state in it) whose Taylor series at
 * the step's start t0 has a closed form, so that each order costs O(1)
 * where the general recurrences cost O(k) (a drive F cos(w t) through
 * tay_sincos): sin, cos and exp of an argument affine in t (the series of
 * sin(r (t0 + tau) + b) from sin and r cos at t0 by s_k = -r^2 s_{k-2} /
 * (k (k - 1)), exp's by e_k = r e_{k-1} / k), and polynomials in t of
 * degree 2 to TB_POLY_MAX (the coefficients p^(k)(t0)/k!, derived here).
 * NONE for any other form: its operands may still be such functions. */
static TpArg tb_time(Tb *b, Expr *e)
{
    ExprCtx *x = b->dv->ex;
    Expr *t = expr_time(x), *tc[TB_POLY_MAX + 1], *rate, *off;
    if (e->kind == EX_CALL && (e->op == FN_SIN || e->op == FN_COS || e->op == FN_EXP)) {
        if (!timefn_linear(x, e->args[0], &rate, &off))
            return NONE;
        tc[0] = e->args[0];
        tc[1] = rate;
        return tb_closed(b, e->op == FN_SIN ? TP_TSIN : e->op == FN_COS ? TP_TCOS : TP_TEXP, tc, 2);
    }
    int deg = e->kind == EX_TIME ? 1 : tb_poly_degree(e);
    if (deg < 2)       /* t itself and affine forms: TP_T and a scale already cost O(1) */
        return NONE;
    Expr *d = e;
    double fact = 1;
    for (int k = 0; k <= deg; k++) {
        if (k) {
            d = expr_diff(x, d, t);
            fact *= k;
        }
        tc[k] = expr_mul(x, expr_num(x, 1 / fact), d);
    }
    return tb_closed(b, TP_TPOLY, tc, deg + 1);
}

/* The node computing e by the general recurrences: one per elementary
 * operation, its operands built first.  A constant operand for the
 * comparisons and logic of flags. */
static TpArg tb_general(Tb *b, Expr *e)
{
    TpArg r = NONE;
    TpNode nd = {0};
    nd.pair = -1;
    switch (e->kind) {
    case EX_VAR:
        nd.op = TP_X;
        nd.index = e->index;
        nd.src = e;
        r = node_arg(tb_node(b, nd));
        break;
    case EX_TIME:
        nd.op = TP_T;
        nd.src = e;
        r = node_arg(tb_node(b, nd));
        break;
    case EX_ADD: r = tb_add(b, e); break;
    case EX_MUL: r = tb_mul(b, e); break;
    case EX_POW: r = tb_pow(b, e); break;
    case EX_CALL: r = tb_call(b, e); break;
    case EX_IF:
        /* the condition holds switch flags only (a state in it is refused) */
        r = tb_op(b, TP_IF, tb_expr(b, e->args[1]), tb_expr(b, e->args[2]), e->args[0]);
        break;
    default:   /* comparisons and logic of flags: constant, handled above */
        return (TpArg){-1, e};
    }
    return r;
}

/* The operand of e: a constant, or the node computing it (built once). */
static TpArg tb_expr(Tb *b, Expr *e)
{
    if (!tb_varies(b, e))
        return (TpArg){-1, e};
    if (b->memo.cap) {
        int i = memo_find(&b->memo, e);
        if (b->memo.key[i])
            return b->memo.val[i];
    }
    TpArg r = tb_state(b, e) ? NONE : tb_time(b, e);
    if (r.node < 0)
        r = tb_general(b, e);
    if (r.node < 0)
        return r;
    if (!b->tp->nodes[r.node].src)
        b->tp->nodes[r.node].src = e;
    memo_put(&b->memo, e, r);
    return r;
}

/* Appends an output row. */
static void tb_out(Tb *b, const char *dst, int row, Expr *e, const char *what)
{
    DvTape *tp = b->tp;
    TpArg v = tb_expr(b, e);
    if (tp->n_outs == tp->cap_outs) {
        tp->cap_outs = tp->cap_outs ? 2 * tp->cap_outs : 16;
        TpOut *no = arena_alloc(b->dv->arena, sizeof *no * (size_t)tp->cap_outs);
        if (tp->n_outs)
            memcpy(no, tp->outs, sizeof *no * (size_t)tp->n_outs);
        tp->outs = no;
    }
    tp->outs[tp->n_outs++] = (TpOut){dst, row, v, what};
}

/* A tape with no nodes yet, for dv's state. */
static void tb_begin(Tb *b, Derivation *dv)
{
    memset(b, 0, sizeof *b);
    b->dv = dv;
    b->n2 = dv->v_sw;      /* x, v, then each rigid body's p0 (variable 2n + b) */
    b->tp = arena_alloc(dv->arena, sizeof *b->tp);
    memset(b->tp, 0, sizeof *b->tp);
}

/* The finished tape (the memo is the builder's only heap memory). */
static DvTape *tb_end(Tb *b)
{
    free(b->memo.key);
    free(b->memo.val);
    return b->tp;
}

DvTape *dv_tape(Derivation *dv)
{
    const Model *m = dv->model;
    Tb b;
    tb_begin(&b, dv);
    for (int i = 0; i < dv->n; i++)
        tb_out(&b, "F", i, dv->fall[i], arena_printf(dv->arena, "every force on %s", m->bodies[i].name));
    int wk = 0;
    for (int j = 0; j < dv->g; j++) {
        if (!dv->gcurve || !dv->gcurve[j])
            continue;
        const char *gn = m->gaps[j].name;
        tb_out(&b, "G", j, dv->gcurve[j], arena_printf(dv->arena, "gap %s", gn));
        tb_out(&b, "CV", j, dv->gcv[j], arena_printf(dv->arena, "curvature term of %s", gn));
        for (int k = 0; k < dv->W->nnz[j]; k++, wk++)
            tb_out(&b, "WV", wk, dv->gw[j][k],
                   arena_printf(dv->arena, "d %s / d %s", gn, m->bodies[dv->W->col[j][k]].xname));
    }
    return tb_end(&b);
}

/* The tape of the curved slips' series (nl_slip_series): for every friction
 * element whose coefficients depend on the positions, its coefficients
 * w_k(x) (rows FW, numbered as nl_slip's wtval) and its curvature term
 * v^T (dw_k/dx) v (row k of FCV), so that the taylor method expands a
 * stuck element's constraint w_k(x) a + FCV_k = 0 and a slipping one's
 * force and slip velocity order by order. */
DvTape *dv_tape_slips(Derivation *dv)
{
    const Model *m = dv->model;
    Tb b;
    tb_begin(&b, dv);
    int wk = 0;
    for (int k = 0; k < m->n_frictions; k++) {
        if (!m->frictions[k].curved)
            continue;
        const char *fn = m->frictions[k].name;
        tb_out(&b, "FCV", k, dv->fcv[k], arena_printf(dv->arena, "curvature term of %s", fn));
        for (int c = 0; c < dv->fncol[k]; c++, wk++)
            tb_out(&b, "FW", wk, dv->fw[k][c],
                   arena_printf(dv->arena, "coefficient of %s in %s", m->bodies[dv->fcol[k][c]].vname, fn));
    }
    return tb_end(&b);
}

/* The tape of a model written by its energies (lag_series): every entry
 * of its mass matrix M(q) (rows M, i*n + j; symmetric entries share one
 * expression and so one series) and its Euler-Lagrange terms h(q, v)
 * (rows H), so that the taylor method expands M(q(t)) a(t) = h + Q order
 * by order, M_0 a_k = f_k - sum_{j>=1} M_j a_{k-j} (docs/theory.md
 * section 18). */
DvTape *dv_tape_lag(Derivation *dv)
{
    const Model *m = dv->model;
    Tb b;
    tb_begin(&b, dv);
    int n = dv->n;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            tb_out(&b, "M", i * n + j, dv->lag_M[i * n + j],
                   arena_printf(dv->arena, "M[%s][%s]", m->bodies[i].name, m->bodies[j].name));
    for (int i = 0; i < n; i++)
        tb_out(&b, "H", i, dv->lag_h[i],
               arena_printf(dv->arena, "Euler-Lagrange terms h on %s", m->bodies[i].name));
    return tb_end(&b);
}
