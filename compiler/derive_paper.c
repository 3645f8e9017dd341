/*
 * derive_paper.c - the forms Dedow & Murphy (2021) print: equations of motion
 * in relative coordinates (their Eq. 2) and a stuck mode with the contact
 * force as a state (their Eq. 11), derived for any model of that shape.
 */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "derive.h"

/* Power of leaf `base` in monomial t (0 when absent). */
static double leaf_power(const Expr *t, const Expr *base)
{
    double k;
    if (t == base)
        return 1;
    if (t->kind == EX_POW && t->args[0] == base && expr_is_num(t->args[1], &k))
        return k;
    if (t->kind == EX_MUL) {
        double s = 0;
        for (int i = 0; i < t->nargs; i++)
            s += leaf_power(t->args[i], base);
        return s;
    }
    return 0;
}

/* Puts e over a common denominator kept in factored form: returns the
 * expanded numerator and stores in *den_inv the product of base^-k over the
 * least common denominator (bases: parameters or sums).  Factors common to
 * the denominator and every numerator term are cancelled when the base is a
 * parameter. */
static Expr *together_factored(ExprCtx *x, Expr *e, Expr **den_inv)
{
    enum { MAXF = 32 };
    Expr *base[MAXF];
    double pw[MAXF];
    int nb = 0;
    int nt = e->kind == EX_ADD ? e->nargs : 1;
    for (int i = 0; i < nt; i++) {
        Expr *t = e->kind == EX_ADD ? e->args[i] : e;
        int nf = t->kind == EX_MUL ? t->nargs : 1;
        for (int j = 0; j < nf; j++) {
            Expr *f = t->kind == EX_MUL ? t->args[j] : t;
            double k;
            if (f->kind != EX_POW || !expr_is_num(f->args[1], &k) || !(k < 0) || k < -(double)INT_MAX || k != (int)k)
                continue;
            int b = 0;
            while (b < nb && base[b] != f->args[0])
                b++;
            if (b == nb) {
                if (nb == MAXF)
                    continue;
                base[nb] = f->args[0];
                pw[nb++] = -k;
            } else if (-k > pw[b]) {
                pw[b] = -k;
            }
        }
    }
    Expr *num = expr_num(x, 0);
    for (int i = 0; i < nt; i++) {
        Expr *t = e->kind == EX_ADD ? e->args[i] : e;
        for (int b = 0; b < nb; b++)
            t = expr_mul(x, t, expr_pow(x, base[b], expr_num(x, pw[b])));
        num = expr_add(x, num, expr_expand(x, t));
    }
    num = expr_expand(x, num);
    /* cancel parameter factors */
    for (int b = 0; b < nb; b++) {
        if (base[b]->kind != EX_PARAM || expr_is_zero(num))
            continue;
        int n2 = num->kind == EX_ADD ? num->nargs : 1;
        double c = pw[b];
        for (int j = 0; j < n2 && c > 0; j++) {
            double pj = leaf_power(num->kind == EX_ADD ? num->args[j] : num, base[b]);
            if (pj < c)
                c = pj;
        }
        if (c > 0) {
            num = expr_expand(x, expr_mul(x, num, expr_pow(x, base[b], expr_num(x, -c))));
            pw[b] -= c;
        }
    }
    Expr *di = expr_num(x, 1);
    for (int b = 0; b < nb; b++)
        if (pw[b] > 0)
            di = expr_mul(x, di, expr_pow(x, base[b], expr_num(x, -pw[b])));
    *den_inv = di;
    return num;
}

/* The largest parameter monomial dividing every term of a sum: m1*m2 + m1^2 -> m1. */
static Expr *monomial_content(ExprCtx *x, Expr *sum)
{
    Expr *c = expr_num(x, 1);
    if (sum->kind != EX_ADD)
        return c;
    Expr *t0 = sum->args[0];
    int nf = t0->kind == EX_MUL ? t0->nargs : 1;
    for (int i = 0; i < nf; i++) {
        Expr *f = t0->kind == EX_MUL ? t0->args[i] : t0;
        Expr *base = f->kind == EX_POW ? f->args[0] : f;
        if (base->kind != EX_PARAM)
            continue;
        double k = leaf_power(t0, base);
        for (int j = 1; j < sum->nargs && k > 0; j++) {
            double pj = leaf_power(sum->args[j], base);
            if (pj < k)
                k = pj;
        }
        if (k > 0)
            c = expr_mul(x, c, expr_pow(x, base, expr_num(x, k)));
    }
    return c;
}

/* Rewrites every sum raised to a negative power over a common denominator
 * first, bottom-up: 1/(1/m1 + 1/m2) becomes m1*m2/(m1 + m2). */
static Expr *rationalize(ExprCtx *x, Expr *e)
{
    double k;
    if (e->nargs == 0)
        return e;
    if (e->kind == EX_POW && e->args[0]->kind == EX_ADD && expr_is_num(e->args[1], &k) && k < 0
        && k >= -(double)INT_MAX && k == (int)k) {
        Expr *di, *base = rationalize(x, e->args[0]);
        Expr *num = together_factored(x, base, &di);
        Expr *content = monomial_content(x, num);
        num = expr_expand(x, expr_mul(x, num, expr_powi(x, content, -1)));
        /* (num * content * di)^-1 = content^-1 * num^-1 / di, without distributing */
        Expr *inv = expr_mul(x, expr_powi(x, content, -1), expr_powi(x, num, -1));
        inv = expr_mul(x, inv, expr_powi(x, di, -1));
        return expr_powi(x, inv, (int)-k);
    }
    if (e->kind == EX_ADD || e->kind == EX_MUL) {
        Expr *r = rationalize(x, e->args[0]);
        for (int i = 1; i < e->nargs; i++) {
            Expr *t = rationalize(x, e->args[i]);
            r = e->kind == EX_ADD ? expr_add(x, r, t) : expr_mul(x, r, t);
        }
        return r;
    }
    return e;
}

/* A number within rounding of a simple fraction p/q (q <= 64) becomes the
 * double nearest p/q, so that it prints as the fraction: elimination with
 * floating coefficients leaves 0.16666666666666652 where 1/6 is meant.
 * Whole numbers, large ones (a 1e19 N/m spring) and non-finite values are
 * kept; no value is converted to an integer type, which would be undefined
 * beyond its range. */
static double snap_number(double v)
{
    if (!isfinite(v) || fabs(v) > 1e12 || v == trunc(v))
        return v;
    for (int q = 2; q <= 64; q++) {
        double pq = nearbyint(v * q);
        if (fabs(v * q - pq) <= 1e-12 * fabs(v * q) + 1e-15)
            return pq / q;
    }
    return v;
}

/* Rebuilds e with snap_number applied to its numbers (sums, products, powers). */
static Expr *snap(ExprCtx *x, Expr *e)
{
    double v;
    if (expr_is_num(e, &v))
        return expr_num(x, snap_number(v));
    if (e->kind == EX_ADD || e->kind == EX_MUL) {
        Expr *r = snap(x, e->args[0]);
        for (int i = 1; i < e->nargs; i++) {
            Expr *t = snap(x, e->args[i]);
            r = e->kind == EX_ADD ? expr_add(x, r, t) : expr_mul(x, r, t);
        }
        return r;
    }
    if (e->kind == EX_POW)
        return expr_pow(x, snap(x, e->args[0]), e->args[1]);
    return e;
}

/* The shorter, as printed, of e and e over a common denominator. */
Expr *dv_pretty(const Derivation *dv, Expr *e)
{
    ExprCtx *x = dv->ex;
    Expr *di;
    e = snap(x, e);
    Expr *num = together_factored(x, rationalize(x, e), &di);
    Expr *alt = expr_mul(x, num, di);
    size_t la = strlen(expr_to_string(x, e, EXPR_TEXT, NULL));
    size_t lb = strlen(expr_to_string(x, alt, EXPR_TEXT, NULL));
    return lb < la ? alt : e;
}

/* Chooses for each gap in `which` (bitmask) the last body with a nonzero
 * coefficient not yet taken; fills gap_of[i]. */
static void choose_bodies(const Derivation *dv, unsigned which, int *gap_of)
{
    int n = dv->n;
    for (int i = 0; i < n; i++)
        gap_of[i] = -1;
    for (int j = 0; j < dv->g; j++) {
        if (!dv_closed(which, j))
            continue;
        for (int i = n - 1; i >= 0; i--)
            if (gap_of[i] < 0 && !expr_is_zero(dvm_get(dv->W, j, i))) {
                gap_of[i] = j;
                break;
            }
    }
}

/* Solves q_b = w_j . x + d_j for the chosen bodies by repeated substitution:
 * X[i] becomes x_i in terms of the q's.  pos[i] is the variable standing for
 * x_i in the result for kept bodies, q[i] the one for replaced bodies.
 * Returns false when the substitution does not terminate (dependent gaps). */
static bool solve_coords(const Derivation *dv, const int *gap_of, Expr **q, Expr **X)
{
    ExprCtx *x = dv->ex;
    int n = dv->n;
    for (int i = 0; i < n; i++) {
        if (gap_of[i] < 0) {
            X[i] = q[i];
            continue;
        }
        int j = gap_of[i];
        Expr *rest = expr_sub(x, q[i], dv->d[j]);
        for (int k = 0; k < n; k++)
            if (k != i)
                rest = expr_sub(x, rest, expr_mul(x, dvm_get(dv->W, j, k), dv->x[k]));
        X[i] = expr_div(x, rest, dvm_get(dv->W, j, i));
    }
    for (int round = 0; round <= n; round++) {
        bool left = false;
        for (int i = 0; i < n; i++)
            for (int k = 0; k < n; k++)
                if (expr_depends_on(X[i], dv->x[k])) {
                    X[i] = expr_subst(x, X[i], dv->x[k], X[k]);
                    left = true;
                }
        if (!left)
            return true;
    }
    return false;
}

/* The equations of motion of a mode in relative coordinates (the paper's Eq. 2). */
bool dv_relative(const Derivation *dv, const DvMode *md, DvRelative *rel)
{
    ExprCtx *x = dv->ex;
    Arena *ar = dv->arena;
    int n = dv->n, N = 2 * n;
    if (md->status != DV_MODE_DERIVED || dv->g == 0 || dv->n_moving)
        return false;     /* the paper's forms have fixed gaps */
    memset(rel, 0, sizeof *rel);
    rel->n = n;
    rel->gap_of = arena_alloc(ar, (size_t)n * sizeof *rel->gap_of);
    rel->q = arena_alloc(ar, (size_t)n * sizeof *rel->q);
    rel->qd = arena_alloc(ar, (size_t)n * sizeof *rel->qd);
    rel->X = arena_alloc(ar, (size_t)n * sizeof *rel->X);
    rel->V = arena_alloc(ar, (size_t)n * sizeof *rel->V);
    choose_bodies(dv, ~0u, rel->gap_of);
    for (int i = 0; i < n; i++) {
        rel->q[i] = expr_var(x, dv->v_report + i);
        rel->qd[i] = expr_var(x, dv->v_report + n + i);
    }
    if (!solve_coords(dv, rel->gap_of, rel->q, rel->X))
        return false;
    /* velocities: the same linear map without the offsets */
    for (int i = 0; i < n; i++) {
        Expr *lin = expr_num(x, 0);
        for (int k = 0; k < n; k++)
            lin = expr_add(x, lin, expr_mul(x, expr_diff(x, rel->X[i], rel->q[k]), rel->qd[k]));
        rel->V[i] = lin;
    }
    /* second derivatives of the new coordinates: T a, with a in (x, v) substituted */
    Expr **E = arena_alloc(ar, (size_t)n * sizeof *E);
    for (int i = 0; i < n; i++) {
        Expr *e;
        if (rel->gap_of[i] < 0) {
            e = dv_full(dv, md, md->ydot[n + i]);
        } else {
            int j = rel->gap_of[i];
            e = expr_num(x, 0);
            for (int k = 0; k < n; k++)
                e = expr_add(x, e, expr_mul(x, dvm_get(dv->W, j, k), dv_full(dv, md, md->ydot[n + k])));
        }
        e = dv_expand_consts(dv, e);
        for (int k = 0; k < n; k++) {
            e = expr_subst(x, e, dv->x[k], rel->X[k]);
            e = expr_subst(x, e, dv->v[k], rel->V[k]);
        }
        E[i] = e;
    }
    rel->A = arena_alloc(ar, (size_t)(N * N) * sizeof *rel->A);
    rel->b = arena_alloc(ar, (size_t)N * sizeof *rel->b);
    for (int r = 0; r < N * N; r++)
        rel->A[r] = expr_num(x, 0);
    for (int i = 0; i < n; i++) {
        rel->A[(2 * i) * N + 2 * i + 1] = expr_num(x, 1);
        rel->b[2 * i] = expr_num(x, 0);
        Expr *rest = E[i];
        for (int k = 0; k < n; k++) {
            rel->A[(2 * i + 1) * N + 2 * k] = dv_pretty(dv, expr_diff(x, E[i], rel->q[k]));
            rel->A[(2 * i + 1) * N + 2 * k + 1] = dv_pretty(dv, expr_diff(x, E[i], rel->qd[k]));
            rest = expr_subst(x, rest, rel->q[k], expr_num(x, 0));
            rest = expr_subst(x, rest, rel->qd[k], expr_num(x, 0));
        }
        rel->b[2 * i + 1] = dv_pretty(dv, rest);
    }
    return true;
}

/* A stuck mode with one degree of freedom left, the contact force as a state (Eq. 11). */
bool dv_force_state(const Derivation *dv, const DvMode *md, DvForceState *fs)
{
    ExprCtx *x = dv->ex;
    Arena *ar = dv->arena;
    int n = dv->n, r = md->n_impact;
    if (md->status != DV_MODE_DERIVED || r == 0 || n - r != 1 || dv->n_moving)
        return false;
    memset(fs, 0, sizeof *fs);
    unsigned which = 0;
    for (int k = 0; k < r; k++)
        which |= md->impact[k] < 32 ? 1u << md->impact[k] : 0u;
    int *gap_of = arena_alloc(ar, (size_t)n * sizeof *gap_of);
    choose_bodies(dv, which, gap_of);
    fs->body = -1;
    for (int i = 0; i < n; i++)
        if (gap_of[i] < 0)
            fs->body = i;
    if (fs->body < 0)
        return false;
    /* x = X(u, q_R = 0): alpha u + beta */
    Expr **q = arena_alloc(ar, (size_t)n * sizeof *q);
    Expr **X = arena_alloc(ar, (size_t)n * sizeof *X);
    Expr *u = expr_var(x, dv->v_report + 2 * n);  /* = V[0] */
    for (int i = 0; i < n; i++)
        q[i] = gap_of[i] < 0 ? u : expr_num(x, 0);
    if (!solve_coords(dv, gap_of, q, X))
        return false;
    fs->r = r;
    fs->gaps = md->impact;
    fs->alpha = arena_alloc(ar, (size_t)n * sizeof *fs->alpha);
    fs->beta = arena_alloc(ar, (size_t)n * sizeof *fs->beta);
    for (int i = 0; i < n; i++) {
        fs->alpha[i] = expr_diff(x, X[i], u);
        fs->beta[i] = expr_subst(x, X[i], u, expr_num(x, 0));
    }
    /* project M a + C v + K x = f on alpha: W_R alpha = 0 removes lambda */
    Expr *meff = expr_num(x, 0), *keff = expr_num(x, 0), *ceff = expr_num(x, 0), *feff = expr_num(x, 0);
    Expr **Ka = arena_alloc(ar, (size_t)n * sizeof *Ka);
    Expr **Ca = arena_alloc(ar, (size_t)n * sizeof *Ca);
    Expr **Kb = arena_alloc(ar, (size_t)n * sizeof *Kb);
    for (int i = 0; i < n; i++) {
        Ka[i] = Ca[i] = Kb[i] = expr_num(x, 0);
        for (int k = 0; k < n; k++) {
            Ka[i] = expr_add(x, Ka[i], expr_mul(x, dvm_get(md->K, i, k), fs->alpha[k]));
            Ca[i] = expr_add(x, Ca[i], expr_mul(x, dvm_get(md->C, i, k), fs->alpha[k]));
            Kb[i] = expr_add(x, Kb[i], expr_mul(x, dvm_get(md->K, i, k), fs->beta[k]));
        }
    }
    for (int i = 0; i < n; i++) {
        Expr *al = fs->alpha[i];
        meff = expr_add(x, meff, expr_mul(x, expr_mul(x, al, al), dv->mass[i]));
        keff = expr_add(x, keff, expr_mul(x, al, Ka[i]));
        ceff = expr_add(x, ceff, expr_mul(x, al, Ca[i]));
        feff = expr_add(x, feff, expr_mul(x, al, expr_sub(x, expr_add(x, dv->fext[i], md->fconst[i]), Kb[i])));
    }
    fs->meff = meff;
    fs->keff = keff;
    fs->ceff = ceff;
    fs->feff = feff;
    Expr *t = expr_time(x);
    Expr *feffd = expr_diff(x, feff, t);
    fs->A32 = expr_neg(x, expr_div(x, keff, meff));
    fs->A33 = expr_neg(x, expr_div(x, ceff, meff));
    fs->b3 = expr_div(x, feffd, meff);
    fs->A42 = arena_alloc(ar, (size_t)r * sizeof *fs->A42);
    fs->A43 = arena_alloc(ar, (size_t)r * sizeof *fs->A43);
    fs->b4 = arena_alloc(ar, (size_t)r * sizeof *fs->b4);
    fs->V = arena_alloc(ar, (size_t)(3 + r) * sizeof *fs->V);
    for (int k = 0; k < 3 + r; k++)
        fs->V[k] = expr_var(x, dv->v_report + 2 * n + k);
    for (int a = 0; a < r; a++) {
        int j = md->impact[a];
        int b = -1;
        for (int i = 0; i < n; i++)
            if (gap_of[i] == j)
                b = i;
        if (r == 1 && b >= 0) {
            /* lambda from body b's own equation: w_b lambda = m_b a_b + (C v)_b + (K x)_b - f_b,
             * with u'' = (F_eff - K_eff u - C_eff u')/M_eff, over the common denominator M_eff */
            Expr *mba = expr_mul(x, dv->mass[b], fs->alpha[b]);
            Expr *den = expr_mul(x, dvm_get(dv->W, j, b), meff);
            Expr *n0 = expr_expand(x, expr_sub(x, expr_mul(x, Ka[b], meff), expr_mul(x, mba, keff)));
            Expr *n1 = expr_expand(x, expr_sub(x, expr_mul(x, Ca[b], meff), expr_mul(x, mba, ceff)));
            fs->A42[a] = expr_div(x, n0, den);
            fs->A43[a] = expr_div(x, n1, den);
            fs->b4[a] = expr_div(x, expr_sub(x, expr_mul(x, mba, expr_div(x, feffd, meff)),
                                             expr_diff(x, dv->fext[b], t)),
                                 dvm_get(dv->W, j, b));
        } else {
            /* general: lambda_j(x, v, t) on the stuck manifold, affine in u and u' */
            Expr *l = dv_expand_consts(dv, dv_full(dv, md, dv->lam[j]));
            Expr *ud = fs->V[1];
            for (int i = 0; i < n; i++) {
                l = expr_subst(x, l, dv->x[i], X[i]);
                l = expr_subst(x, l, dv->v[i], expr_mul(x, fs->alpha[i], ud));
            }
            fs->A42[a] = dv_pretty(dv, expr_diff(x, l, u));
            fs->A43[a] = dv_pretty(dv, expr_diff(x, l, ud));
            Expr *g0 = expr_subst(x, expr_subst(x, l, u, expr_num(x, 0)), ud, expr_num(x, 0));
            fs->b4[a] = dv_pretty(dv, expr_diff(x, g0, t));
        }
    }
    return true;
}
