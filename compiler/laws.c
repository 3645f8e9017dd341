/*
 * laws.c - the compiler's table of contact laws (laws.h): each law's word,
 * its runtime number, its contact mechanics, its option checks and the form
 * of its event function.  A new law adds its reader and one line of
 * law_table (and its runtime file, docs/runtime.md).
 */
#include "laws.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- impact: Newton's restitution ---------------------------------------- */

/* Reads `exponent = ...` of a contact stiffness: a dimensionless constant
 * expression of the parameters, at least 1 (the force k p^a is then
 * continuous with its first derivative bounded at contact onset for a = 1 and
 * zero for a > 1) and at most hi (16 for a penalty law; 10 for the energetic
 * impact law, the range its kernel integrates, multiimpact.c's lzb_check:
 * an impact's 11 was taken and failed at the first impact).  An exponent of
 * exactly 1 is the linear law (*pexp stays NULL); what names it. */
static bool law_read_exponent(Sema *s, const Node *n, Expr **pexp, const char *what, double hi)
{
    Val a = sema_conv_slot(s, n, dim_none(), what, NULL);
    if (!a.ok || !sema_check_range(s, a, n, what, 1, false, hi, ""))
        return false;
    double v;
    if (expr_is_num(a.e, &v) && v == 1)
        return true;
    *pexp = a.e;
    return true;
}

/* The exponent of a penalty law whose stiffness's unit cannot be spelled,
 * in words: fractional, a whole number beyond the units' powers (12), or
 * given by an expression (a parameter --set may change).  Every such
 * exponent was called fractional: `exponent = 16` read "a penalty law with
 * a fractional exponent". */
static void law_exponent_words(const Expr *pexp, char *buf, size_t size)
{
    double a;
    if (!expr_is_num(pexp, &a))
        snprintf(buf, size, "an exponent given by an expression");
    else if (a != floor(a))
        snprintf(buf, size, "a fractional exponent");
    else
        snprintf(buf, size, "the exponent %g (units have whole powers up to 12)", a);
}

/* A contact stiffness: N/m for the linear law.  With an exponent a the
 * force k p^a needs k in N/m^a: checked when a is a whole number; for a
 * fractional a (units have whole powers only) k must be written without a
 * unit and is read in SI, N/m^a.  slot names it as written ("the contact
 * stiffness 'k'", or an impact's 'stiffness'), law the law it belongs to:
 * an impact's stiffness was called "'k' of a penalty law". */
static Val law_read_stiffness(Sema *s, const Node *n, Expr *pexp, const char *slot,
                              const char *law)
{
    double a;
    Dim newton = dim_make(1, 1, -2), metre = dim_make(1, 0, 0);
    if (!pexp)
        return sema_conv_slot(s, n, dim_div(newton, metre), slot, NULL);
    if (expr_is_num(pexp, &a) && a == floor(a) && a >= -12 && a <= 12) {
        char unit[32];
        snprintf(unit, sizeof unit, "N/m^%g", a);
        return sema_conv_slot(s, n, dim_div(newton, dim_pow(metre, (int)a)), slot, unit);
    }
    Val k = sema_conv(s, n);
    if (k.ok && k.dim.known && (k.dim.m || k.dim.kg || k.dim.s)) {
        char what[64];
        law_exponent_words(pexp, what, sizeof what);
        diag_error(sema_diag(s), n->loc,
                   "%s of %s with %s is in N/m^exponent, "
                   "which units cannot spell: write it as a number in SI (not %s)",
                   slot, law, what, sema_dim_str(s, k.dim));
        k.ok = false;
    }
    return k;
}

/* Reads an impact's `stiffness = K` and `exponent = 1.5` (the contact's
 * force K p^exponent, read by impact_law = energetic only: sema's
 * impact_checks) into gap; false after an error. */
static bool impact_read_stiffness(Sema *s, const Opt *k, const Opt *ex, Gap *gap)
{
    if (ex && !k) {
        diag_error(sema_diag(s), ex->key_loc, "an impact's 'exponent' is that of its contact "
                   "stiffness: give 'stiffness = ...' with it");
        return false;
    }
    if (!k)
        return true;
    gap->istiff_loc = k->key_loc;
    if (ex && !law_read_exponent(s, ex->value, &gap->iexp, "the impact's exponent", 10))
        return false;
    Val kv = law_read_stiffness(s, k->value, gap->iexp, "the contact stiffness 'stiffness'",
                                "an impact");
    if (!kv.ok || !sema_check_range(s, kv, k->value, "the contact stiffness", 0, true, INFINITY,
                                    gap->iexp ? "SI" : "N/m"))
        return false;
    gap->istiff = kv.e;
    return true;
}

/* The impact law's options: e (required, in [0, 1]) and, for the
 * energetic impact law, its contact stiffness and exponent. */
static bool impact_read(Sema *s, const Stmt *st, const Opt *opts, Gap *gap)
{
    static const char *const keys[] = {"e", "stiffness", "exponent"};
    const Opt *found[3];
    if (!sema_take_opts(s, opts, keys, 3, found, "an impact"))
        return false;
    if (!impact_read_stiffness(s, found[1], found[2], gap))
        return false;
    if (!found[0]) {
        diag_error(sema_diag(s), st->law_loc,
                   "an impact needs a coefficient of restitution: impact(e = ...)");
        return false;
    }
    Val e = sema_conv_slot(s, found[0]->value, dim_none(), "the restitution 'e'", NULL);
    if (!e.ok)
        return false;
    if (!sema_check_range(s, e, found[0]->value, "the coefficient of restitution", 0, false, 1, ""))
        return false;
    gap->e = e.e;
    return true;
}

/* An impact gap's event function: the gap while open, its force lambda
 * while held (Moreau 1988; Pfeiffer and Glocker 1996). */
static LawEvent impact_event(const Gap *gap, bool closed)
{
    (void)gap;
    return closed ? LAW_EV_LAMBDA : LAW_EV_GAP;
}

/* The header comment's line for an impact gap. */
static const char *impact_summary(const Gap *gap)
{
    (void)gap;
    return "impact";
}

/* ---- penalty: the compliant contact k p^a + c p' ---------------------------- */

/* The penalty law's options: k (required, > 0: no contact at 0), c (>= 0, default 0),
 * release (force or gap) and the exponent of the penetration. */
static bool penalty_read(Sema *s, const Stmt *st, const Opt *opts, Gap *gap)
{
    static const char *const keys[] = {"k", "c", "release", "exponent"};
    const Opt *found[4];
    bool ok;
    if (!sema_take_opts(s, opts, keys, 4, found, "a penalty contact"))
        return false;
    if (!found[0]) {
        diag_error(sema_diag(s), st->law_loc,
                   "a penalty contact needs a stiffness: penalty(k = ...)");
        return false;
    }
    if (found[3] && !law_read_exponent(s, found[3]->value, &gap->pexp, "the penalty exponent", 16))
        return false;
    Val k = law_read_stiffness(s, found[0]->value, gap->pexp, "the contact stiffness 'k'",
                               "a penalty law");
    ok = k.ok && sema_check_range(s, k, found[0]->value, "the contact stiffness 'k'", 0, true,
                                  INFINITY, gap->pexp ? "SI" : "N/m");
    gap->k = k.e;
    gap->c = expr_num(sema_exprs(s), 0);
    if (found[1]) {
        Val cv = sema_conv_slot(s, found[1]->value, dim_make(0, 1, -1), "the contact damping 'c'",
                                NULL);
        ok = cv.ok && sema_check_range(s, cv, found[1]->value, "the contact damping 'c'", 0,
                                       false, INFINITY, "N*s/m") && ok;
        gap->c = cv.e;
    }
    gap->release = RELEASE_FORCE;
    if (found[2]) {
        if (!found[2]->word) {
            diag_error(sema_diag(s), found[2]->value->loc, "release must be 'force' or 'gap'");
            ok = false;
        } else if (strcmp(found[2]->word, "gap") == 0)
            gap->release = RELEASE_GAP;
    }
    return ok;
}

/* A penalty gap's event function.  Open: the gap, or, released by force,
 * max(gap, k gap + c gap') (engaged again where the approach's force
 * reaches zero first).  Engaged: its force (released by force) or its
 * penetration (released by gap). */
static LawEvent penalty_event(const Gap *gap, bool closed)
{
    bool by_gap = gap->release == RELEASE_GAP;
    if (!closed)
        return by_gap ? LAW_EV_GAP : LAW_EV_GAP_OR_FORCE;
    return by_gap ? LAW_EV_PENETRATION : LAW_EV_FORCE;
}

/* The header comment's line for a penalty gap: its release. */
static const char *penalty_summary(const Gap *gap)
{
    return gap->release == RELEASE_GAP ? "penalty, released when the gap reopens"
                                       : "penalty, released when the force vanishes";
}

/* ---- the table ------------------------------------------------------------- */

static const LawDef law_table[] = {
    {"impact", "NSM_LAW_IMPACT", true, impact_read, impact_event, impact_summary},
    {"penalty", "NSM_LAW_PENALTY", false, penalty_read, penalty_event, penalty_summary},
};

/* The law the language's word names, or NULL. */
const LawDef *laws_find(const char *word)
{
    for (size_t i = 0; i < sizeof law_table / sizeof law_table[0]; i++)
        if (strcmp(law_table[i].word, word) == 0)
            return &law_table[i];
    return NULL;
}

/* The words of the known laws, for an error: "impact or penalty". */
const char *laws_words(void)
{
    static char list[256];
    size_t n = sizeof law_table / sizeof law_table[0], len = 0;
    list[0] = '\0';
    for (size_t i = 0; i < n && len < sizeof list; i++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s",
                                i == 0 ? "" : i == n - 1 ? " or " : ", ", law_table[i].word);
    return list;
}
