/*
 * derive_fric.c - the modes of a model with Coulomb friction elements.
 *
 * An element k has three states in a mode (nsm/model.h: bits g + 2k and
 * g + 2k + 1 of the mode): stuck, its slip velocity w_t . v - u held at 0
 * by a multiplier L_k (a row w_t beside the held gaps' rows), or slipping
 * forwards or backwards, with the force -s mu_k N w_t (s = +1, -1).  While
 * an element presses with a constant normal load N, its slip force is a
 * constant added to F, and the held rows' system stays symmetric:
 *   S_R L_R = -u_R,  S_R = Wc_R M^-1 Wc_R^T,  u_j = w_j . a + h_j'' (a gap),
 *   u_k = w_t . a (a stuck element), a = M^-1 F,
 * as for the held gaps alone (derive.c), over the rows Wc = (W; Wt).  An
 * element pressed by an impact gap G's contact force (normal = gap G) is
 * idle while G is open (no force, its event functions the constant 1);
 * slipping on a held G, its force -s mu_k lambda_G w_t moves with G's
 * multiplier, so G's force acts along d_G = w_G - sum_k s mu_k w_t,k and
 *   A_R L_R = -u_R,  A_R = Wc_R M^-1 D_R^T  (D_R: d_j for a gap, w_t stuck),
 * not symmetric, one system per sign combination of the elements slipping
 * on R's gaps; it is inverted by bordering in an order whose pivots are
 * nonzero at the parameters' defaults, and 1/det A_R is kept so that
 * modes() hands a system singular at the run's parameters to the runtime.
 * Event functions (docs/theory.md): a stuck element's mu_s N - L_k and
 * mu_s N + L_k (N = lambda_G when pressed by G), a slipping one's
 * s (w_t . v - u) and the constant 1.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "derive.h"
#include "laws.h"

/* The elements slipping on a held gap's force in the held rows `key`: the
 * elements pressed by a gap of key that are not stuck in it, as bits
 * (element k: bit k). */
static unsigned fric_coupled(const Derivation *dv, unsigned key)
{
    const Model *m = dv->model;
    unsigned c = 0;
    for (int k = 0; k < m->n_frictions; k++) {
        int j = m->frictions[k].normal_gap;
        if (j >= 0 && ((key >> j) & 1u) && !((key >> (dv->g + k)) & 1u))
            c |= 1u << k;
    }
    return c;
}

/* How many held systems the model has (at most, the sets of dependent
 * rows counted): each nonempty set of held rows once per sign combination
 * of the elements slipping on its gaps. */
static int fric_count(const Derivation *dv)
{
    int nr = dv->g + dv->model->n_frictions, count = 0;
    for (unsigned key = 1; key < 1u << nr; key++) {
        unsigned c = fric_coupled(dv, key);
        int bits = 0;
        for (; c; c &= c - 1)
            bits++;
        count += 1 << bits;
    }
    return count;
}

/* Why the friction modes of the model cannot be written out, or NULL. */
static const char *fric_refusal(const Derivation *dv)
{
    const Model *m = dv->model;
    if (m->nl || m->lagrangian)
        return "the model is nonlinear";
    if (m->n_sfrics || m->n_rigids)
        return "the model has bodies in space";
    for (int k = 0; k < m->n_frictions; k++) {
        const Friction *fr = &m->frictions[k];
        if (fr->curved)
            return arena_printf(dv->arena, "friction element '%s' has a curved slip", fr->name);
        if (fr->normal_gap >= 0 && !m->gaps[fr->normal_gap].law->constraint)
            return arena_printf(dv->arena,
                                "friction element '%s' is pressed by penalty gap '%s''s force "
                                "(its slip force depends on the state)",
                                fr->name, m->gaps[fr->normal_gap].name);
        if (fr->normal_gap < 0 && !fr->normal)
            return arena_printf(dv->arena, "friction element '%s' has no normal load", fr->name);
    }
    if (dv->g + m->n_frictions > DV_MAX_ENUM_GAPS)
        return arena_printf(dv->arena, "%d gaps and friction elements (at most %d are enumerated)",
                            dv->g + m->n_frictions, DV_MAX_ENUM_GAPS);
    int systems = fric_count(dv);
    if (systems > DV_MAX_FRIC_SYSTEMS)
        return arena_printf(dv->arena, "%d held systems (sets of held rows times the signs of the "
                            "elements slipping on their gaps; at most %d are written out)",
                            systems, DV_MAX_FRIC_SYSTEMS);
    return NULL;
}

void dv_friction_plan(Derivation *dv)
{
    const Model *m = dv->model;
    dv->n_rows = dv->g;
    dv->fric_modes = false;
    dv->fric_why = NULL;
    if (!m->n_frictions)
        return;
    dv->fric_why = fric_refusal(dv);
    if (dv->fric_why)
        return;
    dv->fric_modes = true;
    dv->n_rows = dv->g + m->n_frictions;
    for (int k = 0; k < m->n_frictions; k++)
        dv->fgap |= m->frictions[k].normal_gap >= 0;
}

/* The constraint rows Wc: the gaps' rows of W, then each element's w_t. */
static void fric_rows(Derivation *dv)
{
    const Model *m = dv->model;
    int g = dv->g;
    dv->Wc = dvm_new(dv, dv->n_rows, dv->n);
    for (int j = 0; j < g; j++)
        for (int k = 0; k < dv->W->nnz[j]; k++)
            dvm_set(dv, dv->Wc, j, dv->W->col[j][k], dv->W->val[j][k]);
    for (int k = 0; k < m->n_frictions; k++)
        for (int i = 0; i < dv->n; i++)
            if (!expr_is_zero(m->frictions[k].w[i]))
                dvm_set(dv, dv->Wc, g + k, i, m->frictions[k].w[i]);
}

/* A constant of the element: a number as it is, anything else hoisted. */
static Expr *fric_const(Derivation *dv, Expr *e, const char *what)
{
    return expr_is_num(e, NULL) ? e : dv_add_const(dv, e, what);
}

/* Row r of Wc dotted with q (n expressions), each term times scale[i]
 * when scale is not NULL. */
static Expr *row_dot(Derivation *dv, int r, Expr **q, Expr **scale)
{
    ExprCtx *x = dv->ex;
    const DvMat *A = dv->Wc;
    Expr *s = expr_num(x, 0);
    for (int k = 0; k < A->nnz[r]; k++) {
        int i = A->col[r][k];
        Expr *t = expr_mul(x, A->val[r][k], q[i]);
        s = expr_add(x, s, scale ? expr_mul(x, t, scale[i]) : t);
    }
    return s;
}

/* Each element's mu_k N and mu_s N (mu_k and mu_s when a gap's contact
 * force presses it: N is that gap's multiplier), and its rows'
 * u_k = w_t . a and u_k' = w_t . M^-1 F' (DvCorr). */
static void fric_terms(Derivation *dv)
{
    const Model *m = dv->model;
    ExprCtx *x = dv->ex;
    int nf = m->n_frictions, g = dv->g;
    dv->fslip = arena_alloc(dv->arena, (size_t)nf * sizeof *dv->fslip);
    dv->fcone = arena_alloc(dv->arena, (size_t)nf * sizeof *dv->fcone);
    for (int k = 0; k < nf; k++) {
        const Friction *fr = &m->frictions[k];
        bool pressed = fr->normal_gap >= 0;
        Expr *N = pressed ? expr_num(x, 1) : fr->normal;
        dv->fslip[k] = fric_const(dv, expr_mul(x, fr->muk, N),
                                  arena_printf(dv->arena, pressed ? "mu_k of %s" : "mu_k N of %s", fr->name));
        dv->fcone[k] = fric_const(dv, expr_mul(x, fr->mus, N),
                                  arena_printf(dv->arena, pressed ? "mu_s of %s" : "mu_s N of %s", fr->name));
        dv->corr.u[g + k] = row_dot(dv, g + k, dv->acc, NULL);
        dv->corr.ud[g + k] = row_dot(dv, g + k, dv->Fdot, dv->invm);
    }
}

/* The mode word's bits of the held rows `key`. */
static unsigned key_word(const Derivation *dv, unsigned key)
{
    unsigned w = 0;
    for (int r = 0; r < dv->n_rows; r++)
        if ((key >> r) & 1u)
            w |= dv_row_bit(dv, r);
    return w;
}

/* "{C closed, F stuck}" for the rows of a set. */
static const char *set_label(const Derivation *dv, const DvHeldSet *hs)
{
    const Model *m = dv->model;
    char *l = arena_strdup(dv->arena, "{");
    for (int a = 0; a < hs->r; a++) {
        int j = hs->rows[a];
        l = arena_printf(dv->arena, "%s%s%s %s", l, a ? ", " : "",
                         j < dv->g ? m->gaps[j].name : m->frictions[j - dv->g].name,
                         j < dv->g ? "closed" : "stuck");
    }
    return arena_printf(dv->arena, "%s}", l);
}

/* Set `key` of held rows: its rows, whether they are independent, S_R^-1
 * (the gap mode's own when it holds gaps only, else bordered from the set
 * without its last row, derived before) and L_R = -S_R^-1 u_R, L_R'. */
static void held_set(Derivation *dv, unsigned key)
{
    const Model *m = dv->model;
    DvHeldSet *hs = &dv->held[key];
    hs->rows = arena_alloc(dv->arena, (size_t)dv->n_rows * sizeof *hs->rows);
    for (int j = 0; j < dv->n_rows; j++) {
        if (!((key >> j) & 1u))
            continue;
        if (j < dv->g && !m->gaps[j].law->constraint) {
            hs->rows = NULL;        /* an engaged penalty gap is a force, not a row */
            return;
        }
        hs->rows[hs->r++] = j;
    }
    int r = hs->r;
    hs->key = key;
    hs->word = key_word(dv, key);
    hs->label = set_label(dv, hs);
    hs->admissible = dv_rows_independent(dv, dv->Wc, hs->rows, r);
    if (!hs->admissible || r == 0)
        return;
    unsigned top = 1u << hs->rows[r - 1];
    if (key < (1u << dv->g) && dv->modes[key].status == DV_MODE_DERIVED)
        hs->Sinv = dv->modes[key].Sinv;
    else
        hs->Sinv = dv_invert_spd(dv, dv_delassus(dv, dv->Wc, hs->rows, r), r, hs->word,
                                 r > 2 ? dv->held[key & ~top].Sinv : NULL);
    dv_held_forces(dv, hs->Sinv, hs->rows, r, &hs->lam_u, &hs->lamd_u);
}

/* The hoisted form of an entry of an inverse: a number or a single
 * variable as it is, anything else a constant. */
static Expr *fric_hoist(Derivation *dv, Expr *e, const char *what)
{
    return expr_is_num(e, NULL) || e->kind == EX_VAR ? e : dv_add_const(dv, e, what);
}

/* The smallest pivot of Gaussian elimination without row exchanges on
 * the r*r matrix A (numbers) taken in the order perm, relative to A's
 * largest entry: 0 when some leading block is singular. */
static double fric_pivots(const double *A, const int *perm, int r)
{
    double B[DV_MAX_ENUM_GAPS * DV_MAX_ENUM_GAPS], big = 0, least = INFINITY;
    for (int a = 0; a < r; a++)
        for (int b = 0; b < r; b++) {
            B[a * r + b] = A[perm[a] * r + perm[b]];
            big = fmax(big, fabs(B[a * r + b]));
        }
    for (int k = 0; k < r; k++) {
        least = fmin(least, fabs(B[k * r + k]));
        if (!(fabs(B[k * r + k]) > 0))
            return 0;
        for (int a = k + 1; a < r; a++) {
            double f = B[a * r + k] / B[k * r + k];
            for (int b = k; b < r; b++)
                B[a * r + b] -= f * B[k * r + b];
        }
    }
    return big > 0 ? least / big : 0;
}

/* The order of the rows whose leading blocks are best conditioned at the
 * parameters' defaults (the largest smallest pivot over the r! orders,
 * r <= DV_MAX_ENUM_GAPS), into perm; false when A is singular there. */
static bool fric_order(Derivation *dv, Expr **A, int r, int *perm)
{
    double An[DV_MAX_ENUM_GAPS * DV_MAX_ENUM_GAPS], best = 0;
    int p[DV_MAX_ENUM_GAPS] = {0}, c[DV_MAX_ENUM_GAPS] = {0};
    for (int a = 0; a < r * r; a++)
        An[a] = dv_default(dv, dv_expand_consts(dv, A[a]));
    for (int a = 0; a < r; a++)
        p[a] = perm[a] = a;
    best = fric_pivots(An, p, r);
    for (int i = 1; i < r;) {      /* Heap's algorithm: every order once */
        if (c[i] < i) {
            int j = i % 2 ? c[i] : 0, t = p[j];
            p[j] = p[i];
            p[i] = t;
            double q = fric_pivots(An, p, r);
            if (q > best) {
                best = q;
                for (int a = 0; a < r; a++)
                    perm[a] = p[a];
            }
            c[i]++;
            i = 1;
        } else {
            c[i++] = 0;
        }
    }
    return best > 1e-12;
}

/* The inverse of the r*r matrix P (not symmetric), hoisted, by bordering
 * its leading blocks: P = [Q b; c^T d], z = Q^-1 b, y^T = c^T Q^-1,
 * sigma = d - c . z (a pivot, nonzero in the order fric_order chose),
 *   P^-1 = [Q^-1 + z y^T / sigma, -z / sigma; -y^T / sigma, 1 / sigma].
 * *guard gets 1/det P, the product of the 1/sigma (hoisted). */
static Expr **fric_invert(Derivation *dv, Expr **P, int r, const char *label, Expr **guard)
{
    ExprCtx *x = dv->ex;
    Arena *ar = dv->arena;
    Expr **Qi = arena_alloc(ar, sizeof *Qi), *idet;
    Qi[0] = idet = fric_hoist(dv, expr_div(x, expr_num(x, 1), P[0]),
                              arena_printf(ar, "(A^-1)[0][0] of %s's first block", label));
    for (int q = 1; q < r; q++) {
        int k = q + 1;
        Expr **z = arena_alloc(ar, (size_t)q * sizeof *z), **y = arena_alloc(ar, (size_t)q * sizeof *y);
        Expr **out = arena_alloc(ar, (size_t)(k * k) * sizeof *out), *sigma = P[q * r + q];
        for (int a = 0; a < q; a++) {
            Expr *za = expr_num(x, 0), *ya = expr_num(x, 0);
            for (int b = 0; b < q; b++) {
                za = expr_add(x, za, expr_mul(x, Qi[a * q + b], P[b * r + q]));
                ya = expr_add(x, ya, expr_mul(x, P[q * r + b], Qi[b * q + a]));
            }
            z[a] = fric_hoist(dv, za, arena_printf(ar, "z[%d] of %s, block %d", a, label, k));
            y[a] = fric_hoist(dv, ya, arena_printf(ar, "y[%d] of %s, block %d", a, label, k));
        }
        for (int a = 0; a < q; a++)
            sigma = expr_sub(x, sigma, expr_mul(x, P[q * r + a], z[a]));
        Expr *is = fric_hoist(dv, expr_div(x, expr_num(x, 1), sigma),
                              arena_printf(ar, "1/sigma of %s, block %d", label, k));
        idet = expr_mul(x, idet, is);
        for (int a = 0; a < q; a++) {
            for (int b = 0; b < q; b++)
                out[a * k + b] = fric_hoist(dv, expr_add(x, Qi[a * q + b], expr_mul(x, expr_mul(x, z[a], y[b]), is)),
                                            arena_printf(ar, "(A^-1)[%d][%d] of %s, block %d", a, b, label, k));
            out[a * k + q] = fric_hoist(dv, expr_neg(x, expr_mul(x, z[a], is)),
                                        arena_printf(ar, "(A^-1)[%d][%d] of %s, block %d", a, q, label, k));
            out[q * k + a] = fric_hoist(dv, expr_neg(x, expr_mul(x, y[a], is)),
                                        arena_printf(ar, "(A^-1)[%d][%d] of %s, block %d", q, a, label, k));
        }
        out[q * k + q] = is;
        Qi = out;
    }
    *guard = dv_add_const(dv, idet, arena_printf(ar, "1/det A of %s", label));
    return Qi;
}

/* Row `row` of Wc times M^-1 times the direction of held row `col` of
 * the set: w_col, plus -s mu_k w_t,k for every element k of `slide`
 * slipping on gap col (s = -1 for those of `back`). */
static Expr *fric_entry(Derivation *dv, int row, int col, unsigned slide, unsigned back)
{
    const Model *m = dv->model;
    ExprCtx *x = dv->ex;
    const DvMat *A = dv->Wc;
    Expr *e = expr_num(x, 0);
    for (int t = 0; t < A->nnz[row]; t++) {
        int i = A->col[row][t];
        Expr *d = dvm_get(A, col, i);
        for (int k = 0; k < m->n_frictions && col < dv->g; k++) {
            if (!((slide >> k) & 1u) || m->frictions[k].normal_gap != col)
                continue;
            Expr *f = expr_mul(x, m->frictions[k].muk, m->frictions[k].w[i]);
            d = (back >> k) & 1u ? expr_add(x, d, f) : expr_sub(x, d, f);
        }
        e = expr_add(x, e, expr_mul(x, expr_mul(x, A->val[row][t], dv->invm[i]), d));
    }
    return e;
}

/* The label of a set with the signs of its elements slipping on its gaps:
 * "{C closed, F stuck; G slipping backwards}". */
static const char *system_label(const Derivation *dv, const DvHeldSet *hs)
{
    const Model *m = dv->model;
    char *l = arena_strdup(dv->arena, hs->label);
    l[strlen(l) - 1] = 0;
    for (int k = 0, first = 1; k < m->n_frictions; k++) {
        unsigned bit = 1u << (dv->g + 2 * k + 1);
        if (!(hs->slide & bit))
            continue;
        l = arena_printf(dv->arena, "%s%s%s slipping %s", l, first ? "; " : ", ", m->frictions[k].name,
                         hs->back & bit ? "backwards" : "forwards");
        first = 0;
    }
    return arena_printf(dv->arena, "%s}", l);
}

/* The system of held set hs (admissible) with the elements of `slide`
 * slipping on its gaps, those of `back` backwards: A_R's inverse (S_R's
 * when the slip forces do not change it), its multipliers, into *out. */
static void held_system(Derivation *dv, const DvHeldSet *hs, unsigned slide, unsigned back,
                        DvHeldSet *out)
{
    ExprCtx *x = dv->ex;
    int r = hs->r;
    *out = *hs;
    out->slide = out->back = 0;
    for (int k = 0; k < dv->model->n_frictions; k++) {
        out->slide |= (slide >> k) & 1u ? 1u << (dv->g + 2 * k + 1) : 0u;
        out->back |= (back >> k) & 1u ? 1u << (dv->g + 2 * k + 1) : 0u;
    }
    out->word |= out->back;
    out->label = system_label(dv, out);
    if (!slide)
        return;
    Expr **A = arena_alloc(dv->arena, (size_t)(r * r) * sizeof *A);
    bool same = true;
    for (int a = 0; a < r; a++)
        for (int b = 0; b < r; b++) {
            A[a * r + b] = fric_entry(dv, hs->rows[a], hs->rows[b], slide, back);
            same &= expr_is_zero(expr_sub(x, A[a * r + b], fric_entry(dv, hs->rows[a], hs->rows[b], 0, 0)));
        }
    if (same)
        return;         /* the slip forces are orthogonal to the held rows: S_R^-1 serves */
    int perm[DV_MAX_ENUM_GAPS];
    if (!fric_order(dv, A, r, perm)) {
        out->singular = true;
        out->Sinv = NULL;
        return;
    }
    Expr **P = arena_alloc(dv->arena, (size_t)(r * r) * sizeof *P);
    for (int a = 0; a < r; a++)
        for (int b = 0; b < r; b++)
            P[a * r + b] = A[perm[a] * r + perm[b]];
    Expr **Pi = fric_invert(dv, P, r, out->label, &out->guard);
    out->Sinv = arena_alloc(dv->arena, (size_t)(r * r) * sizeof *out->Sinv);
    for (int a = 0; a < r; a++)
        for (int b = 0; b < r; b++)
            out->Sinv[perm[a] * r + perm[b]] = Pi[a * r + b];
    dv_held_forces(dv, out->Sinv, out->rows, r, &out->lam_u, &out->lamd_u);
}

/* The systems written out (DvHeldSet, fsys): every admissible nonempty
 * held set, once per sign combination of the elements slipping on its
 * gaps (each subset `back` of the coupled elements slipping backwards). */
static void fric_systems(Derivation *dv)
{
    unsigned sets = 1u << dv->n_rows;
    dv->fsys = arena_alloc(dv->arena, (size_t)(DV_MAX_FRIC_SYSTEMS + 1) * sizeof *dv->fsys);
    dv->n_fsys = 0;
    for (unsigned key = 1; key < sets; key++) {
        const DvHeldSet *hs = &dv->held[key];
        if (!hs->rows || !hs->admissible)
            continue;
        unsigned c = fric_coupled(dv, key), back = 0;
        do {            /* every subset of c, 0 first */
            held_system(dv, hs, c, back, &dv->fsys[dv->n_fsys++]);
            back = (back - c) & c;
        } while (back);
    }
}

void dv_friction_modes(Derivation *dv)
{
    if (!dv->fric_modes)
        return;
    unsigned sets = 1u << dv->n_rows;
    fric_rows(dv);
    fric_terms(dv);
    dv->held = arena_alloc(dv->arena, (size_t)sets * sizeof *dv->held);
    for (unsigned key = 0; key < sets; key++)
        held_set(dv, key);
    fric_systems(dv);
}
