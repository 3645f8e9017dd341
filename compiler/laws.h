/*
 * laws.h - the compiler's table of contact laws (laws.c; docs/runtime.md,
 * "How to add a contact law").
 *
 * A gap names its law by a word of the language, `gap G: ..., WORD(options)`;
 * sema looks the word up here.  Each entry gives what the rest of nsmc needs
 * to know of the law:
 *   word        the language's word, and rt_name, the runtime's number for it
 *               (nsm/model.h's enum nsm_law) that the generated table names
 *   constraint  the law's contact mechanics: true, its closed gap is a
 *               unilateral constraint reached by impacts (restitution e,
 *               num->e); false, a force element k p^a + c p' of the
 *               penetration p = -gap (num->kc, num->cc, num->pexp).  The
 *               derivation forms each mode's equations from this alone
 *   read        its option checks: reads the options into the gap (e, or k,
 *               c, release, pexp, ...); false after an error
 *   event       the form of the gap's event function, open or closed: what
 *               the derivation writes and the emitters show
 *   summary     one line for the generated file's header comment
 * Derivation and emission ask a gap's entry (gap->law), never its word.
 */
#ifndef NSM_LAWS_H
#define NSM_LAWS_H

#include "ast.h"
#include "diag.h"
#include "model.h"
#include "units.h"

/* The forms of a gap's event function (its zero is the law's event). */
typedef enum LawEvent {
    LAW_EV_GAP,          /* s = gap: the contact (open) */
    LAW_EV_GAP_OR_FORCE, /* s = max(gap, k gap + c gap'): open, engaged again where
                            the force of the approach reaches zero first */
    LAW_EV_LAMBDA,       /* s = lambda: a held constraint's force (its separation) */
    LAW_EV_FORCE,        /* s = k p + c p': an engaged force element's force */
    LAW_EV_PENETRATION   /* s = p = -gap: an engaged force element released on the gap */
} LawEvent;

typedef struct Sema Sema;

struct LawDef {
    const char *word;
    const char *rt_name;
    bool constraint;
    bool (*read)(Sema *s, const Stmt *st, const Opt *opts, Gap *gap);
    LawEvent (*event)(const Gap *gap, bool closed);
    const char *(*summary)(const Gap *gap);
};

const LawDef *laws_find(const char *word);
const char *laws_words(void);

/* A converted value (sema.c): its expression, unit, and, when it depends on
 * parameters only, its number at the parameters' defaults computed in IEEE
 * arithmetic on the source as written, so that no simplification (x/x = 1,
 * 0*x = 0) hides a NaN or an infinity. */
typedef struct Val {
    Expr *e;
    Dim dim;
    bool ok;
    bool has_num;   /* num is known: no position, no time */
    double num;
} Val;

/* What sema lends the laws' option readers (sema.c). */
Diag *sema_diag(Sema *s);
ExprCtx *sema_exprs(Sema *s);
bool sema_take_opts(Sema *s, const Opt *opts, const char *const *keys, int nkeys,
                    const Opt **found, const char *where);
Val sema_conv(Sema *s, const Node *n);
Val sema_conv_slot(Sema *s, const Node *n, Dim want, const char *what, const char *unit);
bool sema_check_range(Sema *s, Val v, const Node *n, const char *what, double lo, bool strict,
                      double hi, const char *unit);
const char *sema_dim_str(Sema *s, Dim d);

#endif
