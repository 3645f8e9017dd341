/*
 * derive_fric.c - the modes of a model with Coulomb friction elements.
 *
 * An element k has three states in a mode (nsm/model.h: bits g + 2k and
 * g + 2k + 1 of the mode): stuck, its slip velocity w_t . v - u held at 0
 * by a multiplier L_k (a row w_t beside the held gaps' rows), or slipping
 * forwards or backwards, with the force -s mu_k N w_t (s = +1, -1).  While
 * every element presses with a constant normal load N, the slip forces are
 * constants added to F and the held rows' system stays symmetric:
 *   S_R L_R = -u_R,  S_R = Wc_R M^-1 Wc_R^T,  u_j = w_j . a + h_j'' (a gap),
 *   u_k = w_t . a (a stuck element), a = M^-1 F,
 * as for the held gaps alone (derive.c), over the rows Wc = (W; Wt).  Event
 * functions (docs/theory.md): a stuck element's mu_s N - L_k and
 * mu_s N + L_k, a slipping one's s (w_t . v - u) and the constant 1.
 * An element pressed by a gap's contact force (normal = gap G) makes the
 * slip force a multiple of another multiplier (a non-symmetric system):
 * such models keep the runtime's generic path, and fric_why says so.
 */
#include <stdlib.h>

#include "derive.h"
#include "laws.h"

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
        if (fr->normal_gap >= 0)
            return arena_printf(dv->arena,
                                "friction element '%s' is pressed by gap '%s''s contact force "
                                "(its slip force depends on another multiplier)",
                                fr->name, m->gaps[fr->normal_gap].name);
        if (!fr->normal)
            return arena_printf(dv->arena, "friction element '%s' has no normal load", fr->name);
    }
    if (dv->g + m->n_frictions > DV_MAX_ENUM_GAPS)
        return arena_printf(dv->arena, "%d gaps and friction elements (at most %d are enumerated)",
                            dv->g + m->n_frictions, DV_MAX_ENUM_GAPS);
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

/* Each element's mu_k N and mu_s N, and its rows' u_k = w_t . a and
 * u_k' = w_t . M^-1 F' (DvCorr). */
static void fric_terms(Derivation *dv)
{
    const Model *m = dv->model;
    ExprCtx *x = dv->ex;
    int nf = m->n_frictions, g = dv->g;
    dv->fslip = arena_alloc(dv->arena, (size_t)nf * sizeof *dv->fslip);
    dv->fcone = arena_alloc(dv->arena, (size_t)nf * sizeof *dv->fcone);
    for (int k = 0; k < nf; k++) {
        const Friction *fr = &m->frictions[k];
        dv->fslip[k] = fric_const(dv, expr_mul(x, fr->muk, fr->normal),
                                  arena_printf(dv->arena, "mu_k N of %s", fr->name));
        dv->fcone[k] = fric_const(dv, expr_mul(x, fr->mus, fr->normal),
                                  arena_printf(dv->arena, "mu_s N of %s", fr->name));
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
}
