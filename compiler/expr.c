/*
 * expr.c - the symbolic expression engine.
 *
 * Nodes are hash-consed in an open-addressing table, so the constructors
 * below can compare subexpressions by pointer.  Every constructor returns the
 * canonical form:
 *
 *   sum      constant first (if nonzero), then terms c*rest sorted by rest,
 *            each rest at most once (like terms collected);
 *   product  numeric coefficient first (if not 1), then factors base^exp
 *            sorted by base, each base at most once (like factors collected);
 *            a product never holds exactly one sum factor: a sum times a
 *            monomial is distributed, so like terms meet, while a product of
 *            two sums stays a product (no blow-up);
 *   power    a sum raised to an integer power is normalised so its first
 *            non-constant term has coefficient 1 (the content moves to the
 *            coefficient of the product), products raised to integer powers
 *            are distributed, (x^a)^n is x^(a*n) for integer n.
 *
 * The order of terms and factors (expr_compare) is structural: kind, then
 * index or value, then operands, so output never depends on pointer values.
 */
#include "expr.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct ExprCtx {
    Arena *arena;
    Expr **tab;      /* open addressing, linear probing, power-of-two size */
    size_t cap, count;
    unsigned next_id;
};

/* Aborts on allocation failure, like arena_alloc: the compiler cannot go on. */
static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fputs("nsmc: fatal: out of memory\n", stderr);
        abort();
    }
    return p;
}

/* realloc that aborts on failure. */
static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p) {
        fputs("nsmc: fatal: out of memory\n", stderr);
        abort();
    }
    return p;
}

/* ------------------------------------------------------------------ */
/* Hash-consing                                                         */
/* ------------------------------------------------------------------ */

/* Mixes one word into a running hash (boost's hash_combine). */
static unsigned hash_mix(unsigned h, unsigned v)
{
    return h ^ (v + 0x9e3779b9u + (h << 6) + (h >> 2));
}

/* Hash of a double by its bits; -0 and NaN are normalised by the caller. */
static unsigned num_bits_hash(double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    return (unsigned)(bits ^ (bits >> 32));
}

/* Hash of a node's content; operands contribute their own (deterministic)
 * hashes, never their addresses. */
static unsigned node_hash(ExprKind kind, int op, int index, double num, int nargs,
                          Expr *const *args)
{
    unsigned h = 2166136261u;
    h = hash_mix(h, (unsigned)kind);
    h = hash_mix(h, (unsigned)op);
    h = hash_mix(h, (unsigned)index);
    h = hash_mix(h, num_bits_hash(num));
    h = hash_mix(h, (unsigned)nargs);
    for (int i = 0; i < nargs; i++)
        h = hash_mix(h, args[i]->hash);
    return h;
}

/* True when node `e` has exactly this content. */
static bool node_same(const Expr *e, ExprKind kind, int op, int index, double num,
                      int nargs, Expr *const *args)
{
    if (e->kind != kind || e->op != op || e->index != index || e->nargs != nargs)
        return false;
    if (memcmp(&e->num, &num, sizeof num) != 0)
        return false;
    for (int i = 0; i < nargs; i++)
        if (e->args[i] != args[i])
            return false;
    return true;
}

/* The table slot of a hash: its bits mixed (murmur3's finaliser) so that
 * the low bits the mask keeps depend on all of them; hash_mix alone leaves
 * long runs of neighbouring slots, and linear probing then walks them. */
static size_t slot_of(unsigned h, size_t mask)
{
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h & mask;
}

/* Doubles the table.  The old array stays in the arena, unused. */
static void table_grow(ExprCtx *x)
{
    size_t ncap = x->cap ? x->cap * 2 : 1024;
    Expr **nt = arena_alloc(x->arena, ncap * sizeof *nt);
    for (size_t i = 0; i < x->cap; i++) {
        Expr *e = x->tab[i];
        if (!e)
            continue;
        size_t j = slot_of(e->hash, ncap - 1);
        while (nt[j])
            j = (j + 1) & (ncap - 1);
        nt[j] = e;
    }
    x->tab = nt;
    x->cap = ncap;
}

/* Returns the unique node with this content, creating it if needed.  The
 * operands are copied, so callers may pass scratch arrays. */
static Expr *intern(ExprCtx *x, ExprKind kind, int op, int index, double num, int nargs,
                    Expr *const *args)
{
    if (num == 0)
        num = 0.0; /* one zero, not two */
    if (isnan(num))
        num = NAN;
    if ((x->count + 1) * 2 > x->cap)
        table_grow(x);
    unsigned h = node_hash(kind, op, index, num, nargs, args);
    size_t mask = x->cap - 1, i = slot_of(h, mask);
    for (; x->tab[i]; i = (i + 1) & mask)
        if (x->tab[i]->hash == h && node_same(x->tab[i], kind, op, index, num, nargs, args))
            return x->tab[i];
    Expr *e = arena_alloc(x->arena, sizeof *e);
    e->kind = kind;
    e->op = op;
    e->index = index;
    e->num = num;
    e->nargs = nargs;
    if (nargs > 0) {
        e->args = arena_alloc(x->arena, (size_t)nargs * sizeof *e->args);
        memcpy(e->args, args, (size_t)nargs * sizeof *e->args);
    }
    e->hash = h;
    e->id = x->next_id++;
    e->positive = false;
    x->tab[i] = e;
    x->count++;
    return e;
}

/* Counts the contexts made, so the printer's scratch context, whose nodes
 * carry the positivity marks of the expressions last imported, is started
 * afresh for each new context (each model) and never proves a sign with a
 * mark of another. */
static unsigned ctx_generation;

ExprCtx *expr_ctx_new(Arena *arena)
{
    ctx_generation++;
    ExprCtx *x = arena_alloc(arena, sizeof *x);
    x->arena = arena;
    table_grow(x);
    return x;
}

Expr *expr_num(ExprCtx *x, double v)
{
    return intern(x, EX_NUM, 0, 0, v, 0, NULL);
}

Expr *expr_param(ExprCtx *x, int index)
{
    return intern(x, EX_PARAM, 0, index, 0, 0, NULL);
}

Expr *expr_time(ExprCtx *x)
{
    return intern(x, EX_TIME, 0, 0, 0, 0, NULL);
}

Expr *expr_var(ExprCtx *x, int index)
{
    return intern(x, EX_VAR, 0, index, 0, 0, NULL);
}

/* ------------------------------------------------------------------ */
/* Small predicates                                                     */
/* ------------------------------------------------------------------ */

/* True when e is the number v. */
static bool is_numv(const Expr *e, double v)
{
    return e->kind == EX_NUM && e->num == v;
}

/* An integer small enough that arithmetic on it stays exact. */
static bool is_integer(double v)
{
    return v == floor(v) && fabs(v) < 1e15;
}

/* True when e is an integer number. */
static bool is_int_num(const Expr *e)
{
    return e->kind == EX_NUM && is_integer(e->num);
}

bool expr_is_num(const Expr *e, double *value)
{
    if (e->kind != EX_NUM)
        return false;
    if (value)
        *value = e->num;
    return true;
}

/* How deep the sign proofs below look: far enough for sums and products of
 * masses, bounded so that a shared graph is never walked as a huge tree. */
enum { SIGN_DEPTH = 8 };

/* True when e > 0 wherever the program runs: a positive number, a value
 * every run checks (expr_assume_positive), or sums, products, powers, exp
 * and square roots built of them. */
static bool sign_positive(const Expr *e, int depth)
{
    if (e->positive || (e->kind == EX_NUM && e->num > 0))
        return true;
    if (depth <= 0)
        return false;
    switch (e->kind) {
    case EX_ADD:
    case EX_MUL:
        for (int i = 0; i < e->nargs; i++)
            if (!sign_positive(e->args[i], depth - 1))
                return false;
        return true;
    case EX_POW: return sign_positive(e->args[0], depth - 1);
    case EX_CALL:
        return e->op == FN_EXP || (e->op == FN_SQRT && sign_positive(e->args[0], depth - 1));
    default: return false;
    }
}

/* True when e != 0 wherever the program runs: positive, a nonzero finite
 * number, a product of nonzero values, a nonzero value to an integer power,
 * the absolute value of a nonzero value. */
static bool sign_nonzero(const Expr *e, int depth)
{
    if (sign_positive(e, depth))
        return true;
    if (e->kind == EX_NUM)
        return e->num != 0 && isfinite(e->num);
    if (depth <= 0)
        return false;
    switch (e->kind) {
    case EX_MUL:
        for (int i = 0; i < e->nargs; i++)
            if (!sign_nonzero(e->args[i], depth - 1))
                return false;
        return true;
    case EX_POW:
        return is_int_num(e->args[1]) && sign_nonzero(e->args[0], depth - 1);
    case EX_CALL: return e->op == FN_ABS && sign_nonzero(e->args[0], depth - 1);
    default: return false;
    }
}

void expr_assume_positive(ExprCtx *x, Expr *e)
{
    (void)x;
    if (e)
        e->positive = true;
}

bool expr_is_zero(const Expr *e)
{
    return is_numv(e, 0);
}

bool expr_depends_on(const Expr *e, const Expr *leaf)
{
    if (e == leaf)
        return true;
    for (int i = 0; i < e->nargs; i++)
        if (expr_depends_on(e->args[i], leaf))
            return true;
    return false;
}

bool expr_has_kind(const Expr *e, ExprKind kind)
{
    if (e->kind == kind)
        return true;
    for (int i = 0; i < e->nargs; i++)
        if (expr_has_kind(e->args[i], kind))
            return true;
    return false;
}

/* Number of terms of a sum (1 for anything else, 0 for zero). */
static int nterms(const Expr *e)
{
    if (is_numv(e, 0))
        return 0;
    return e->kind == EX_ADD ? e->nargs : 1;
}

/* Logical-valued nodes: their value is always 0 or 1. */
static bool is_boolean(const Expr *e)
{
    switch (e->kind) {
    case EX_CMP: case EX_AND: case EX_OR: case EX_NOT:
        return true;
    case EX_NUM:
        return e->num == 0 || e->num == 1;
    default:
        return false;
    }
}

/* ------------------------------------------------------------------ */
/* Canonical order                                                      */
/* ------------------------------------------------------------------ */

/* Rank of each kind in the canonical order: numbers, then leaves, then
 * compound nodes. */
static int kind_rank(ExprKind k)
{
    switch (k) {
    case EX_NUM: return 0;
    case EX_PARAM: return 1;
    case EX_TIME: return 2;
    case EX_VAR: return 3;
    case EX_CALL: return 4;
    case EX_POW: return 5;
    case EX_MUL: return 6;
    case EX_ADD: return 7;
    case EX_IF: return 8;
    case EX_CMP: return 9;
    case EX_NOT: return 10;
    case EX_AND: return 11;
    case EX_OR: return 12;
    }
    return 13;
}

/* Total order on doubles for the canonical order (NaN last). */
static int cmp_double(double a, double b)
{
    if (a < b)
        return -1;
    if (a > b)
        return 1;
    if (a == b)
        return 0;
    /* NaNs last, all equal among themselves. */
    return isnan(a) - isnan(b);
}

/* Compares exponents, NULL meaning 1. */
static int cmp_exp(const Expr *a, const Expr *b)
{
    if (a == b)
        return 0;
    if (!a)
        return b->kind == EX_NUM ? cmp_double(1, b->num) : -1;
    if (!b)
        return a->kind == EX_NUM ? cmp_double(a->num, 1) : 1;
    return expr_compare(a, b);
}

/* Compares two products as factor lists (lexicographically), then by length
 * and finally by numeric coefficient: k1 < k1*m1 < k2.  Anything that is not
 * a product counts as a one-factor list. */
static int cmp_monomial(const Expr *a, const Expr *b)
{
    const Expr *const *fa = (const Expr *const *)&a, *const *fb = (const Expr *const *)&b;
    int na = 1, nb = 1;
    double ca = 1, cb = 1;
    if (a->kind == EX_MUL) {
        fa = (const Expr *const *)a->args;
        na = a->nargs;
        if (fa[0]->kind == EX_NUM) {
            ca = fa[0]->num;
            fa++;
            na--;
        }
    }
    if (b->kind == EX_MUL) {
        fb = (const Expr *const *)b->args;
        nb = b->nargs;
        if (fb[0]->kind == EX_NUM) {
            cb = fb[0]->num;
            fb++;
            nb--;
        }
    }
    for (int i = 0; i < na && i < nb; i++) {
        int c = expr_compare(fa[i], fb[i]);
        if (c)
            return c;
    }
    if (na != nb)
        return na < nb ? -1 : 1;
    return cmp_double(ca, cb);
}

/* Lexicographic comparison of operand lists, then by length. */
static int cmp_args(const Expr *a, const Expr *b)
{
    for (int i = 0; i < a->nargs && i < b->nargs; i++) {
        int c = expr_compare(a->args[i], b->args[i]);
        if (c)
            return c;
    }
    return (a->nargs > b->nargs) - (a->nargs < b->nargs);
}

int expr_compare(const Expr *a, const Expr *b)
{
    if (a == b)
        return 0;
    if (a->kind == EX_MUL || b->kind == EX_MUL || a->kind == EX_POW || b->kind == EX_POW) {
        if (a->kind == EX_NUM)
            return -1;
        if (b->kind == EX_NUM)
            return 1;
        if (a->kind == EX_MUL || b->kind == EX_MUL)
            return cmp_monomial(a, b);
        /* A power and another factor: base first, then exponent (x < x^2). */
        bool pa = a->kind == EX_POW, pb = b->kind == EX_POW;
        int c = expr_compare(pa ? a->args[0] : a, pb ? b->args[0] : b);
        if (c)
            return c;
        return cmp_exp(pa ? a->args[1] : NULL, pb ? b->args[1] : NULL);
    }
    if (a->kind != b->kind)
        return kind_rank(a->kind) - kind_rank(b->kind);
    switch (a->kind) {
    case EX_NUM:
        return cmp_double(a->num, b->num);
    case EX_PARAM:
    case EX_VAR:
        return (a->index > b->index) - (a->index < b->index);
    case EX_TIME:
        return 0;
    case EX_CALL:
    case EX_CMP:
        if (a->op != b->op)
            return a->op < b->op ? -1 : 1;
        return cmp_args(a, b);
    default:
        return cmp_args(a, b);
    }
}

/* ------------------------------------------------------------------ */
/* Sums                                                                 */
/* ------------------------------------------------------------------ */

/* A term of a sum: c*rest, rest NULL for the constant term. */
typedef struct Term {
    double c;
    Expr *rest;
} Term;

typedef struct TermList {
    Term *t;
    int n, cap;
} TermList;

/* Appends c*rest to a growing term list. */
static void terms_push(TermList *l, double c, Expr *rest)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 16;
        l->t = xrealloc(l->t, (size_t)l->cap * sizeof *l->t);
    }
    l->t[l->n].c = c;
    l->t[l->n].rest = rest;
    l->n++;
}

/* The product of already canonical, sorted factors (no coefficient). */
static Expr *mul_raw(ExprCtx *x, Expr *const *f, int n)
{
    if (n == 1)
        return f[0];
    return intern(x, EX_MUL, 0, 0, 0, n, f);
}

/* Splits a canonical non-sum term into coefficient and rest. */
static Term split_term(ExprCtx *x, Expr *e)
{
    Term t = {1, e};
    if (e->kind == EX_NUM) {
        t.c = e->num;
        t.rest = NULL;
    } else if (e->kind == EX_MUL && e->args[0]->kind == EX_NUM) {
        t.c = e->args[0]->num;
        t.rest = mul_raw(x, e->args + 1, e->nargs - 1);
    }
    return t;
}

/* Rebuilds the canonical term c*rest. */
static Expr *make_term(ExprCtx *x, double c, Expr *rest)
{
    if (!rest)
        return expr_num(x, c);
    if (c == 1)
        return rest;
    if (c == 0)
        return expr_num(x, 0);
    int n = rest->kind == EX_MUL ? rest->nargs : 1;
    Expr *buf[16], **f = n + 1 <= 16 ? buf : xmalloc((size_t)(n + 1) * sizeof *f);
    f[0] = expr_num(x, c);
    if (rest->kind == EX_MUL)
        memcpy(f + 1, rest->args, (size_t)n * sizeof *f);
    else
        f[1] = rest;
    Expr *e = intern(x, EX_MUL, 0, 0, 0, n + 1, f);
    if (f != buf)
        free(f);
    return e;
}

/* Pushes the terms of `e` (one term unless it is a sum), scaled by k. */
static void terms_add(ExprCtx *x, TermList *l, Expr *e, double k)
{
    if (e->kind == EX_ADD) {
        for (int i = 0; i < e->nargs; i++) {
            Term t = split_term(x, e->args[i]);
            terms_push(l, t.c * k, t.rest);
        }
        return;
    }
    Term t = split_term(x, e);
    terms_push(l, t.c * k, t.rest);
}

/* Order of terms in a sum: the constant first, then by rest. */
static int term_cmp(const Term *a, const Term *b)
{
    if (a->rest == b->rest)
        return 0;
    if (!a->rest)
        return -1;
    if (!b->rest)
        return 1;
    return expr_compare(a->rest, b->rest);
}

/* Stable merge sort: the order of equal keys (and so the order in which
 * their coefficients are added) is the input order on every platform. */
static void terms_sort(Term *t, Term *tmp, int n)
{
    if (n < 2)
        return;
    int h = n / 2;
    terms_sort(t, tmp, h);
    terms_sort(t + h, tmp, n - h);
    if (term_cmp(&t[h - 1], &t[h]) <= 0)
        return;
    int i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = term_cmp(&t[j], &t[i]) < 0 ? t[j++] : t[i++];
    while (i < h)
        tmp[k++] = t[i++];
    while (j < n)
        tmp[k++] = t[j++];
    memcpy(t, tmp, (size_t)n * sizeof *t);
}

/* Sorts and collects the terms, and builds the canonical sum.  Frees l. */
static Expr *sum_build(ExprCtx *x, TermList *l)
{
    Term *tmp = xmalloc((size_t)(l->n ? l->n : 1) * sizeof *tmp);
    terms_sort(l->t, tmp, l->n);
    int k = 0;
    for (int i = 0; i < l->n;) {
        Term t = l->t[i++];
        while (i < l->n && l->t[i].rest == t.rest)
            t.c += l->t[i++].c;
        if (t.c != 0 || (t.rest == NULL && isnan(t.c)))
            tmp[k++] = t;
    }
    Expr *e;
    if (k == 0) {
        e = expr_num(x, 0);
    } else if (k == 1) {
        e = make_term(x, tmp[0].c, tmp[0].rest);
    } else {
        Expr **args = xmalloc((size_t)k * sizeof *args);
        for (int i = 0; i < k; i++)
            args[i] = make_term(x, tmp[i].c, tmp[i].rest);
        e = intern(x, EX_ADD, 0, 0, 0, k, args);
        free(args);
    }
    free(tmp);
    free(l->t);
    l->t = NULL;
    l->n = l->cap = 0;
    return e;
}

Expr *expr_add(ExprCtx *x, Expr *a, Expr *b)
{
    if (is_numv(a, 0))
        return b;
    if (is_numv(b, 0))
        return a;
    if (a->kind == EX_NUM && b->kind == EX_NUM)
        return expr_num(x, a->num + b->num);
    TermList l = {0};
    terms_add(x, &l, a, 1);
    terms_add(x, &l, b, 1);
    return sum_build(x, &l);
}

/* Multiplies every term of `e` by k, or divides when `divide` (so that
 * 6*x/3 is exactly 2*x). */
static Expr *scale(ExprCtx *x, Expr *e, double k, bool divide)
{
    TermList l = {0};
    int n = e->kind == EX_ADD ? e->nargs : 1;
    for (int i = 0; i < n; i++) {
        Term t = split_term(x, e->kind == EX_ADD ? e->args[i] : e);
        terms_push(&l, divide ? t.c / k : t.c * k, t.rest);
    }
    return sum_build(x, &l);
}

/* The coefficient of the first non-constant term of a canonical sum. */
static double sum_lead(ExprCtx *x, const Expr *s)
{
    (void)x;
    for (int i = 0; i < s->nargs; i++) {
        const Expr *t = s->args[i];
        if (t->kind == EX_MUL && t->args[0]->kind == EX_NUM)
            return t->args[0]->num;
        if (t->kind != EX_NUM)
            return 1;
    }
    return 1;
}

/* ------------------------------------------------------------------ */
/* Products                                                             */
/* ------------------------------------------------------------------ */

typedef struct Factor {
    Expr *base;
    Expr *exp; /* NULL for 1 */
} Factor;

typedef struct FactorList {
    Factor *f;
    int n, cap;
    double c;
} FactorList;

/* Appends base^exp to a growing factor list. */
static void factors_push(FactorList *l, Expr *base, Expr *exp)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 16;
        l->f = xrealloc(l->f, (size_t)l->cap * sizeof *l->f);
    }
    l->f[l->n].base = base;
    l->f[l->n].exp = exp;
    l->n++;
}

/* Pushes one factor; a sum under an integer power gives up its leading
 * coefficient so that 1/(2*a + 2*b) and 1/(a + b)/2 meet. */
static void factor_add(ExprCtx *x, FactorList *l, Expr *base, Expr *exp)
{
    if (base->kind == EX_ADD && (!exp || is_int_num(exp))) {
        double lead = sum_lead(x, base);
        if (lead != 1 && lead != 0 && isfinite(lead)) {
            double e = exp ? exp->num : 1;
            if (e == 1)
                l->c *= lead;
            else if (e == -1)
                l->c /= lead;
            else
                l->c *= pow(lead, e);
            base = scale(x, base, lead, true);
        }
    }
    factors_push(l, base, exp);
}

/* Flattens `e` into the coefficient and factor list of a product. */
static void factors_add(ExprCtx *x, FactorList *l, Expr *e)
{
    switch (e->kind) {
    case EX_NUM:
        l->c *= e->num;
        break;
    case EX_MUL:
        for (int i = 0; i < e->nargs; i++)
            factors_add(x, l, e->args[i]);
        break;
    case EX_POW:
        factor_add(x, l, e->args[0], e->args[1]);
        break;
    default:
        factor_add(x, l, e, NULL);
        break;
    }
}

/* Stable merge sort of factors by base, so equal bases become adjacent. */
static void factors_sort(Factor *f, Factor *tmp, int n)
{
    if (n < 2)
        return;
    int h = n / 2;
    factors_sort(f, tmp, h);
    factors_sort(f + h, tmp, n - h);
    if (f[h - 1].base == f[h].base || expr_compare(f[h - 1].base, f[h].base) <= 0)
        return;
    int i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = (f[j].base != f[i].base && expr_compare(f[j].base, f[i].base) < 0) ? f[j++] : f[i++];
    while (i < h)
        tmp[k++] = f[i++];
    while (j < n)
        tmp[k++] = f[j++];
    memcpy(f, tmp, (size_t)n * sizeof *f);
}

/* An exponent, NULL standing for 1. */
static Expr *one_if_null(ExprCtx *x, Expr *e)
{
    return e ? e : expr_num(x, 1);
}

/* Distributes the terms of sum `a` over the product b*rest, multiplying each
 * term by the sum b as a whole first, so a denominator b cancels:
 * (m1 + m2)*(x/(m1 + m2) + y/(m1 + m2)) is x + y. */
static Expr *distribute_over(ExprCtx *x, Expr *a, Expr *b, Expr *rest)
{
    TermList tl = {0};
    for (int i = 0; i < a->nargs; i++)
        terms_add(x, &tl, expr_mul(x, expr_mul(x, a->args[i], b), rest), 1);
    return sum_build(x, &tl);
}

/* A product of exactly two sums (factors f[0..k), coefficient c) is expanded
 * when that cancels or collects terms (fewer terms than the product of the
 * term counts, e.g. (a + b)*(a - b) or a sum times its own denominator);
 * otherwise it stays a product, so nothing blows up.  Returns NULL to keep
 * the product. */
static Expr *mul_two_sums(ExprCtx *x, Expr **f, int k, double c)
{
    Expr *s[2], *others[64];
    int ns = 0, no = 0;
    if (k - 2 > 64)
        return NULL;
    for (int i = 0; i < k; i++) {
        if (f[i]->kind != EX_ADD)
            others[no++] = f[i];
        else if (ns < 2)
            s[ns++] = f[i];
        else
            return NULL;
    }
    if (ns != 2)
        return NULL;
    int full = s[0]->nargs * s[1]->nargs;
    if (full > 64)
        return NULL;
    Expr *rest = make_term(x, c, no ? mul_raw(x, others, no) : NULL);
    Expr *r1 = distribute_over(x, s[0], s[1], rest);
    Expr *r2 = distribute_over(x, s[1], s[0], rest);
    Expr *best = nterms(r2) < nterms(r1) ? r2 : r1;
    return nterms(best) < full ? best : NULL;
}

/* The sign of a factor's exponent: 1 for a positive number (or NULL,
 * meaning 1), -1 for a negative one, 0 for a symbolic exponent. */
static int exp_sign(const Expr *exp)
{
    if (!exp)
        return 1;
    if (exp->kind != EX_NUM)
        return 0;
    return exp->num > 0 ? 1 : exp->num < 0 ? -1 : 0;
}

/* The product of the n factors f[] of one base whose exponent has the sign
 * `sign` (2: all of them), as one power; NULL when there are none.  Powers
 * of opposite signs meet only over a nonzero base, so 0/0 is never folded
 * away. */
static Expr *merge_powers(ExprCtx *x, const Factor *f, int n, int sign)
{
    Expr *exp = NULL;
    bool any = false, merged = false;
    for (int q = 0; q < n; q++) {
        if (sign != 2 && exp_sign(f[q].exp) != sign)
            continue;
        if (any) {
            exp = expr_add(x, one_if_null(x, exp), one_if_null(x, f[q].exp));
            merged = true;
        } else {
            exp = f[q].exp;
        }
        any = true;
    }
    if (!any)
        return NULL;
    return (merged || exp) ? expr_pow(x, f[0].base, one_if_null(x, exp)) : f[0].base;
}

/* Builds the canonical product of the collected factors.  Frees l. */
static Expr *mul_build(ExprCtx *x, FactorList *l)
{
    Factor *tmp = xmalloc((size_t)(l->n ? l->n : 1) * sizeof *tmp);
    factors_sort(l->f, tmp, l->n);
    Expr **out = xmalloc((size_t)(l->n ? l->n : 1) * sizeof *out);
    int k = 0, nsum = 0, isum = -1;
    bool reflatten = false;
    double c = l->c;
    Expr *pieces[3];
    for (int i = 0; i < l->n;) {
        int j = i + 1;
        while (j < l->n && l->f[j].base == l->f[i].base)
            j++;
        int np = 0;
        if (j - i == 1 || sign_nonzero(l->f[i].base, SIGN_DEPTH)) {
            pieces[np++] = merge_powers(x, l->f + i, j - i, 2);
        } else {
            /* x/x stays a division unless x is provably nonzero */
            for (int sign = 1; sign >= -1; sign -= 2)
                if ((pieces[np] = merge_powers(x, l->f + i, j - i, sign)) != NULL)
                    np++;
            for (int q = i; q < j; q++)
                if (exp_sign(l->f[q].exp) == 0)
                    out[k++] = expr_pow(x, l->f[q].base, l->f[q].exp);
        }
        i = j;
        for (int q = 0; q < np; q++) {
            Expr *p = pieces[q];
            if (p->kind == EX_NUM) {
                c *= p->num;
                continue;
            }
            if (p->kind == EX_MUL)
                reflatten = true;
            if (p->kind == EX_ADD) {
                nsum++;
                isum = k;
            }
            out[k++] = p;
        }
    }
    free(tmp);
    free(l->f);
    l->f = NULL;
    l->n = l->cap = 0;

    Expr *e;
    if (c == 0 || (c != c && k == 0)) {
        e = expr_num(x, c);
    } else if (reflatten) {
        /* Rare: a merged power produced a product, e.g. (a*b)^(1/2) squared. */
        FactorList again = {.c = c};
        for (int i = 0; i < k; i++)
            factors_add(x, &again, out[i]);
        e = mul_build(x, &again);
    } else if (nsum == 1 && (k > 1 || c != 1)) {
        /* A sum times a monomial: distribute so like terms can meet. */
        Expr *s = out[isum];
        for (int i = isum; i + 1 < k; i++)
            out[i] = out[i + 1];
        k--;
        Expr *mono = make_term(x, c, k ? mul_raw(x, out, k) : NULL);
        TermList tl = {0};
        for (int i = 0; i < s->nargs; i++)
            terms_add(x, &tl, expr_mul(x, s->args[i], mono), 1);
        e = sum_build(x, &tl);
    } else if (nsum == 2 && (e = mul_two_sums(x, out, k, c)) != NULL) {
        /* expanded: it cancelled or collected something */
    } else if (k == 0) {
        e = expr_num(x, c);
    } else {
        e = make_term(x, c, mul_raw(x, out, k));
    }
    free(out);
    return e;
}

Expr *expr_mul(ExprCtx *x, Expr *a, Expr *b)
{
    /* numbers first, in IEEE arithmetic: 0*inf is NaN, not 0 */
    if (a->kind == EX_NUM && b->kind == EX_NUM)
        return expr_num(x, a->num * b->num);
    if (is_numv(a, 0) || is_numv(b, 0))
        return expr_num(x, 0);
    if (is_numv(a, 1))
        return b;
    if (is_numv(b, 1))
        return a;
    if (a->kind == EX_NUM && b->kind == EX_NUM)
        return expr_num(x, a->num * b->num);
    if (a->kind == EX_NUM && b->kind == EX_ADD)
        return scale(x, b, a->num, false);
    if (b->kind == EX_NUM && a->kind == EX_ADD)
        return scale(x, a, b->num, false);
    FactorList l = {.c = 1};
    factors_add(x, &l, a);
    factors_add(x, &l, b);
    return mul_build(x, &l);
}

Expr *expr_neg(ExprCtx *x, Expr *a)
{
    return expr_mul(x, expr_num(x, -1), a);
}

Expr *expr_sub(ExprCtx *x, Expr *a, Expr *b)
{
    return expr_add(x, a, expr_neg(x, b));
}

Expr *expr_div(ExprCtx *x, Expr *a, Expr *b)
{
    if (b->kind == EX_NUM) {
        if (a->kind == EX_NUM)
            return expr_num(x, a->num / b->num);
        if (b->num == 1)
            return a;
        if (b->num != 0 && isfinite(b->num) && !is_numv(a, 0))
            return scale(x, a, b->num, true);
    }
    return expr_mul(x, a, expr_pow(x, b, expr_num(x, -1)));
}

/* ------------------------------------------------------------------ */
/* Powers                                                               */
/* ------------------------------------------------------------------ */

Expr *expr_pow(ExprCtx *x, Expr *base, Expr *exponent)
{
    if (exponent->kind != EX_NUM) {
        if (is_numv(base, 1))
            return base;
        Expr *args[2] = {base, exponent};
        return intern(x, EX_POW, 0, 0, 0, 2, args);
    }
    double e = exponent->num;
    if (e == 0)
        return expr_num(x, 1);
    if (e == 1)
        return base;
    if (base->kind == EX_NUM)
        return expr_num(x, e == -1 ? 1 / base->num : pow(base->num, e));
    if (is_integer(e)) {
        /* sqrt(a)^2 = a and |a|^2 = a^2 wherever they are defined */
        bool even = fmod(e, 2) == 0;
        if (even && base->kind == EX_CALL && base->op == FN_SQRT)
            return expr_pow(x, base->args[0], expr_num(x, e / 2));
        if (even && base->kind == EX_CALL && base->op == FN_ABS)
            return expr_pow(x, base->args[0], exponent);
        if (base->kind == EX_POW)
            return expr_pow(x, base->args[0], expr_mul(x, base->args[1], exponent));
        if (base->kind == EX_MUL) {
            FactorList l = {.c = 1};
            for (int i = 0; i < base->nargs; i++)
                factors_add(x, &l, expr_pow(x, base->args[i], exponent));
            return mul_build(x, &l);
        }
        if (base->kind == EX_ADD) {
            double lead = sum_lead(x, base);
            if (lead != 1 && lead != 0 && isfinite(lead)) {
                Expr *c = expr_num(x, e == -1 ? 1 / lead : pow(lead, e));
                return expr_mul(x, c, expr_pow(x, scale(x, base, lead, true), exponent));
            }
        }
    }
    Expr *args[2] = {base, exponent};
    return intern(x, EX_POW, 0, 0, 0, 2, args);
}

Expr *expr_powi(ExprCtx *x, Expr *base, int exponent)
{
    return expr_pow(x, base, expr_num(x, exponent));
}

/* ------------------------------------------------------------------ */
/* Functions, conditionals, logic                                       */
/* ------------------------------------------------------------------ */

/* Value of an elementary function; shared by folding and evaluation. */
static double call_value(ExprFunc f, double a, double b)
{
    switch (f) {
    case FN_SIN: return sin(a);
    case FN_COS: return cos(a);
    case FN_TAN: return tan(a);
    case FN_EXP: return exp(a);
    case FN_LOG: return log(a);
    case FN_SQRT: return sqrt(a);
    case FN_ABS: return fabs(a);
    /* an undefined operand stays undefined (fmin and fmax drop a NaN:
     * min(0/0, 1) folded to 1 and the model was accepted) */
    case FN_MIN: return isnan(a) || isnan(b) ? NAN : fmin(a, b);
    case FN_MAX: return isnan(a) || isnan(b) ? NAN : fmax(a, b);
    case FN_ACOS: return acos(a);
    }
    return NAN;
}

Expr *expr_call(ExprCtx *x, ExprFunc f, Expr *a, Expr *b)
{
    if (f == FN_MIN || f == FN_MAX) {
        if (!b || a == b)
            return a;
        if (a->kind == EX_NUM && b->kind == EX_NUM)
            return expr_num(x, call_value(f, a->num, b->num));
        Expr *args[2] = {a, b};
        if (expr_compare(a, b) > 0) {
            args[0] = b;
            args[1] = a;
        }
        return intern(x, EX_CALL, (int)f, 0, 0, 2, args);
    }
    if (a->kind == EX_NUM)
        return expr_num(x, call_value(f, a->num, 0));
    if (f == FN_ABS && a->kind == EX_CALL && a->op == FN_ABS)
        return a;
    if (f == FN_LOG && a->kind == EX_CALL && a->op == FN_EXP)
        return a->args[0];
    return intern(x, EX_CALL, (int)f, 0, 0, 1, &a);
}

Expr *expr_if(ExprCtx *x, Expr *cond, Expr *then_, Expr *else_)
{
    if (cond->kind == EX_NUM)
        return isnan(cond->num) ? cond : cond->num != 0 ? then_ : else_;
    if (then_ == else_)
        return then_;
    Expr *args[3] = {cond, then_, else_};
    return intern(x, EX_IF, 0, 0, 0, 3, args);
}

/* Value of a comparison; shared by folding and evaluation. */
static bool cmp_value(ExprCmp op, double a, double b)
{
    switch (op) {
    case CMP_LT: return a < b;
    case CMP_LE: return a <= b;
    case CMP_GT: return a > b;
    case CMP_GE: return a >= b;
    case CMP_EQ: return a == b;
    case CMP_NE: return a != b;
    }
    return false;
}

/* A truth value as a number (1 or 0), NaN when an operand is undefined:
 * `if 0/0 > 1 then 2 else 3` took its else branch and was accepted. */
static double truth(double a, double b, bool v)
{
    return isnan(a) || isnan(b) ? NAN : v;
}

Expr *expr_cmp(ExprCtx *x, ExprCmp op, Expr *a, Expr *b)
{
    if (a->kind == EX_NUM && b->kind == EX_NUM)
        return expr_num(x, truth(a->num, b->num, cmp_value(op, a->num, b->num)));
    if (a == b)
        return expr_num(x, op == CMP_LE || op == CMP_GE || op == CMP_EQ);
    Expr *args[2] = {a, b};
    return intern(x, EX_CMP, (int)op, 0, 0, 2, args);
}

/* Shared by and/or: `absorb` is the value that decides the result alone
 * (0 for and, 1 for or). */
static Expr *logic2(ExprCtx *x, ExprKind kind, Expr *a, Expr *b, bool absorb)
{
    if (a->kind == EX_NUM && b->kind == EX_NUM) {
        bool va = a->num != 0, vb = b->num != 0;
        return expr_num(x, truth(a->num, b->num, kind == EX_AND ? (va && vb) : (va || vb)));
    }
    for (int k = 0; k < 2; k++) {
        Expr *n = k ? b : a, *o = k ? a : b;
        if (n->kind == EX_NUM && isnan(n->num))
            return n;
        if (n->kind == EX_NUM) {
            if ((n->num != 0) == absorb)
                return expr_num(x, absorb);
            if (is_boolean(o))
                return o;
        }
    }
    if (a == b && is_boolean(a))
        return a;
    Expr *args[2] = {a, b};
    if (expr_compare(a, b) > 0) {
        args[0] = b;
        args[1] = a;
    }
    return intern(x, kind, 0, 0, 0, 2, args);
}

Expr *expr_and(ExprCtx *x, Expr *a, Expr *b)
{
    return logic2(x, EX_AND, a, b, false);
}

Expr *expr_or(ExprCtx *x, Expr *a, Expr *b)
{
    return logic2(x, EX_OR, a, b, true);
}

Expr *expr_not(ExprCtx *x, Expr *a)
{
    if (a->kind == EX_NUM)
        return expr_num(x, truth(a->num, 0, a->num == 0));
    if (a->kind == EX_NOT && is_boolean(a->args[0]))
        return a->args[0];
    if (a->kind == EX_CMP) {
        static const ExprCmp neg[] = {
            [CMP_LT] = CMP_GE, [CMP_LE] = CMP_GT, [CMP_GT] = CMP_LE,
            [CMP_GE] = CMP_LT, [CMP_EQ] = CMP_NE, [CMP_NE] = CMP_EQ,
        };
        return expr_cmp(x, neg[a->op], a->args[0], a->args[1]);
    }
    return intern(x, EX_NOT, 0, 0, 0, 1, &a);
}

/* ------------------------------------------------------------------ */
/* Rebuilding, substitution, expansion                                  */
/* ------------------------------------------------------------------ */

/* Maps nodes of one context to their copies in another. */
typedef struct PtrMap {
    const Expr **from;
    Expr **to;
    size_t cap, count;
} PtrMap;

/* Slot of key k (found or free) in the pointer map. */
static size_t ptr_slot(const PtrMap *m, const Expr *k)
{
    size_t i = ((uintptr_t)k >> 4) * 2654435761u & (m->cap - 1);
    while (m->from[i] && m->from[i] != k)
        i = (i + 1) & (m->cap - 1);
    return i;
}

/* Inserts or replaces k -> v, doubling the map when half full. */
static void ptr_put(PtrMap *m, const Expr *k, Expr *v)
{
    if ((m->count + 1) * 2 > m->cap) {
        PtrMap n = {calloc(m->cap ? m->cap * 2 : 256, sizeof *n.from),
                    calloc(m->cap ? m->cap * 2 : 256, sizeof *n.to), m->cap ? m->cap * 2 : 256, 0};
        if (!n.from || !n.to)
            abort();
        for (size_t i = 0; i < m->cap; i++)
            if (m->from[i])
                ptr_put(&n, m->from[i], m->to[i]);
        free(m->from);
        free(m->to);
        *m = n;
    }
    size_t i = ptr_slot(m, k);
    if (!m->from[i])
        m->count++;
    m->from[i] = k;
    m->to[i] = v;
}

/* Builds node `e` again through the constructors, with new operands. */
static Expr *rebuild(ExprCtx *x, const Expr *e, Expr **na)
{
    switch (e->kind) {
    case EX_ADD: {
        TermList l = {0};
        for (int i = 0; i < e->nargs; i++)
            terms_add(x, &l, na[i], 1);
        return sum_build(x, &l);
    }
    case EX_MUL: {
        FactorList l = {.c = 1};
        for (int i = 0; i < e->nargs; i++)
            factors_add(x, &l, na[i]);
        return mul_build(x, &l);
    }
    case EX_POW: return expr_pow(x, na[0], na[1]);
    case EX_CALL: return expr_call(x, (ExprFunc)e->op, na[0], e->nargs > 1 ? na[1] : NULL);
    case EX_IF: return expr_if(x, na[0], na[1], na[2]);
    case EX_CMP: return expr_cmp(x, (ExprCmp)e->op, na[0], na[1]);
    case EX_AND: return expr_and(x, na[0], na[1]);
    case EX_OR: return expr_or(x, na[0], na[1]);
    case EX_NOT: return expr_not(x, na[0]);
    default: return (Expr *)e;
    }
}

/* A memoised rewrite of a node's arguments (subst_memo, chain_memo): the
 * rewrite of argument a, with the rewrite's own data ud and its memo. */
typedef Expr *(*ArgRewrite)(ExprCtx *x, Expr *a, const void *ud, PtrMap *memo);

/* The step the memoised rewrites share: e with each argument rewritten by
 * f, rebuilt only when one changed, the result recorded in memo for e. */
static Expr *rewrite_args(ExprCtx *x, Expr *e, ArgRewrite f, const void *ud, PtrMap *memo)
{
    Expr *buf[8] = {0}, **na = e->nargs <= 8 ? buf : xmalloc((size_t)e->nargs * sizeof *na);
    bool changed = false;
    for (int i = 0; i < e->nargs; i++) {
        na[i] = f(x, e->args[i], ud, memo);
        changed |= na[i] != e->args[i];
    }
    Expr *r = changed ? rebuild(x, e, na) : e;
    if (na != buf)
        free(na);
    ptr_put(memo, e, r);
    return r;
}

/* What expr_subst replaces: leaf, by by. */
typedef struct Subst {
    Expr *leaf, *by;
} Subst;

/* expr_subst on one node, each shared subexpression substituted once (memo
 * maps nodes to their results), so the cost is linear in the number of
 * distinct nodes, not in the size of the tree they unfold to. */
static Expr *subst_memo(ExprCtx *x, Expr *e, const void *ud, PtrMap *memo)
{
    const Subst *sb = ud;
    if (e == sb->leaf)
        return sb->by;
    if (e->nargs == 0)
        return e;
    if (memo->cap) {
        size_t i = ptr_slot(memo, e);
        if (memo->from[i])
            return memo->to[i];
    }
    return rewrite_args(x, e, subst_memo, ud, memo);
}

Expr *expr_subst(ExprCtx *x, Expr *e, Expr *leaf, Expr *by)
{
    if (e == leaf)
        return by;
    if (e->nargs == 0)
        return e;
    PtrMap memo = {0};
    Subst sb = { leaf, by };
    Expr *r = subst_memo(x, e, &sb, &memo);
    free(memo.from);
    free(memo.to);
    return r;
}

/* One pass of expr_subst_chain: e with every variable of vars replaced by
 * its value, itself expanded the same way; memo maps nodes (and the
 * variables) to their results, vals the variables to their values. */
static Expr *chain_memo(ExprCtx *x, Expr *e, const void *ud, PtrMap *memo)
{
    const PtrMap *vals = ud;
    if (memo->cap) {
        size_t i = ptr_slot(memo, e);
        if (memo->from[i])
            return memo->to[i];
    }
    if (e->nargs == 0) {
        if (!vals->cap || !vals->from[ptr_slot(vals, e)])
            return e;
        ptr_put(memo, e, e);   /* a value that mentions its own variable keeps it */
        Expr *r = chain_memo(x, vals->to[ptr_slot(vals, e)], vals, memo);
        ptr_put(memo, e, r);
        return r;
    }
    return rewrite_args(x, e, chain_memo, ud, memo);
}

/* A chain of definitions for expr_chain_apply, with the memo of what was
 * substituted so far. */
struct ExprChain {
    PtrMap vals, memo;
};

ExprChain *expr_chain_new(int n, Expr *const *vars, Expr *const *vals)
{
    ExprChain *c = calloc(1, sizeof *c);
    if (!c)
        abort();
    for (int k = 0; k < n; k++)
        ptr_put(&c->vals, vars[k], vals[k]);
    return c;
}

Expr *expr_chain_apply(ExprCtx *x, ExprChain *c, Expr *e)
{
    return c->vals.count ? chain_memo(x, e, &c->vals, &c->memo) : e;
}

void expr_chain_free(ExprChain *c)
{
    if (!c)
        return;
    free(c->vals.from);
    free(c->vals.to);
    free(c->memo.from);
    free(c->memo.to);
    free(c);
}

Expr *expr_subst_chain(ExprCtx *x, Expr *e, int n, Expr *const *vars, Expr *const *vals)
{
    ExprChain *c = expr_chain_new(n, vars, vals);
    Expr *r = expr_chain_apply(x, c, e);
    expr_chain_free(c);
    return r;
}

/* Product of two expanded expressions, distributing over both sums.  Gives
 * up (returns NULL) past `limit` terms. */
static Expr *expand_mul(ExprCtx *x, Expr *a, Expr *b, int limit)
{
    if (a->kind != EX_ADD && b->kind != EX_ADD)
        return expr_mul(x, a, b);
    if (nterms(a) * nterms(b) > limit)
        return NULL;
    TermList l = {0};
    int na = nterms(a), nb = nterms(b);
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++)
            terms_add(x, &l, expr_mul(x, a->kind == EX_ADD ? a->args[i] : a,
                                      b->kind == EX_ADD ? b->args[j] : b), 1);
    return sum_build(x, &l);
}

/* Full expansion of products and positive integer powers of sums. */
static Expr *expand(ExprCtx *x, Expr *e, int limit)
{
    switch (e->kind) {
    case EX_ADD: {
        TermList l = {0};
        for (int i = 0; i < e->nargs; i++) {
            Expr *t = expand(x, e->args[i], limit);
            if (!t || l.n > limit) {
                free(l.t);
                return NULL;
            }
            terms_add(x, &l, t, 1);
        }
        return sum_build(x, &l);
    }
    case EX_MUL: {
        Expr *r = expr_num(x, 1);
        for (int i = 0; i < e->nargs && r; i++) {
            Expr *f = expand(x, e->args[i], limit);
            r = f ? expand_mul(x, r, f, limit) : NULL;
        }
        return r;
    }
    case EX_POW:
        if (e->args[0]->kind == EX_ADD && is_int_num(e->args[1]) && e->args[1]->num > 0 &&
            e->args[1]->num <= 16) {
            Expr *b = expand(x, e->args[0], limit), *r = expr_num(x, 1);
            for (int i = 0; i < (int)e->args[1]->num && r && b; i++)
                r = expand_mul(x, r, b, limit);
            return b ? r : NULL;
        }
        return e;
    default:
        return e;
    }
}

Expr *expr_expand(ExprCtx *x, Expr *e)
{
    Expr *r = expand(x, e, 1 << 20);
    return r ? r : e;
}

/* Splits `e` into numerator and denominator over the least common
 * denominator of its terms (each base to its highest negative numeric
 * power), the numerator fully expanded.  Returns NULL when the expansion
 * passes `limit` terms. */
static Expr *together(ExprCtx *x, Expr *e, Expr **den, int limit)
{
    *den = expr_num(x, 1);
    int n = nterms(e);
    if (n == 0)
        return e;
    Factor *lcm = xmalloc((size_t)64 * sizeof *lcm);
    int nl = 0, capl = 64;
    for (int i = 0; i < n; i++) {
        Expr *t = e->kind == EX_ADD ? e->args[i] : e;
        int nf = t->kind == EX_MUL ? t->nargs : 1;
        for (int j = 0; j < nf; j++) {
            Expr *f = t->kind == EX_MUL ? t->args[j] : t;
            if (f->kind != EX_POW || f->args[1]->kind != EX_NUM || !(f->args[1]->num < 0))
                continue;
            int k = 0;
            while (k < nl && lcm[k].base != f->args[0])
                k++;
            if (k == nl) {
                if (nl == capl) {
                    capl *= 2;
                    lcm = xrealloc(lcm, (size_t)capl * sizeof *lcm);
                }
                lcm[nl].base = f->args[0];
                lcm[nl].exp = expr_neg(x, f->args[1]);
                nl++;
            } else if (-f->args[1]->num > lcm[k].exp->num) {
                lcm[k].exp = expr_neg(x, f->args[1]);
            }
        }
    }
    if (nl == 0) {
        free(lcm);
        return e;
    }
    FactorList l = {.c = 1};
    for (int k = 0; k < nl; k++)
        factors_push(&l, lcm[k].base, lcm[k].exp);
    free(lcm);
    *den = mul_build(x, &l);
    TermList num = {0};
    for (int i = 0; i < n; i++) {
        Expr *t = e->kind == EX_ADD ? e->args[i] : e;
        Expr *p = expand(x, expr_mul(x, t, *den), limit);
        if (!p || num.n > limit) {
            free(num.t);
            return NULL;
        }
        terms_add(x, &num, p, 1);
    }
    return sum_build(x, &num);
}

Expr *expr_together(ExprCtx *x, Expr *e, Expr **den)
{
    Expr *d;
    Expr *nu = together(x, e, &d, 1 << 20);
    if (!nu) {
        nu = e;
        d = expr_num(x, 1);
    }
    if (den)
        *den = d;
    return nu;
}

/* ------------------------------------------------------------------ */
/* Differentiation                                                      */
/* ------------------------------------------------------------------ */

Expr *expr_diff(ExprCtx *x, Expr *e, Expr *leaf)
{
    Expr *zero = expr_num(x, 0);
    switch (e->kind) {
    case EX_NUM:
        return zero;
    case EX_PARAM:
    case EX_TIME:
    case EX_VAR:
        return expr_num(x, e == leaf);
    case EX_CMP:
    case EX_AND:
    case EX_OR:
    case EX_NOT:
        return zero; /* piecewise constant */
    default:
        break;
    }
    if (!expr_depends_on(e, leaf))
        return zero;
    switch (e->kind) {
    case EX_ADD: {
        TermList l = {0};
        for (int i = 0; i < e->nargs; i++)
            terms_add(x, &l, expr_diff(x, e->args[i], leaf), 1);
        return sum_build(x, &l);
    }
    case EX_MUL: {
        TermList l = {0};
        for (int i = 0; i < e->nargs; i++) {
            Expr *d = expr_diff(x, e->args[i], leaf);
            if (expr_is_zero(d))
                continue;
            for (int j = 0; j < e->nargs; j++)
                if (j != i)
                    d = expr_mul(x, d, e->args[j]);
            terms_add(x, &l, d, 1);
        }
        return sum_build(x, &l);
    }
    case EX_POW: {
        Expr *b = e->args[0], *p = e->args[1];
        Expr *db = expr_diff(x, b, leaf);
        if (p->kind == EX_NUM)
            return expr_mul(x, expr_mul(x, p, expr_pow(x, b, expr_num(x, p->num - 1))), db);
        /* d(b^p) = b^p (p' log b + p b'/b) */
        Expr *dp = expr_diff(x, p, leaf);
        Expr *inner = expr_add(x, expr_mul(x, dp, expr_call(x, FN_LOG, b, NULL)),
                               expr_div(x, expr_mul(x, p, db), b));
        return expr_mul(x, e, inner);
    }
    case EX_CALL: {
        Expr *a = e->args[0];
        Expr *da = expr_diff(x, a, leaf);
        switch ((ExprFunc)e->op) {
        case FN_SIN: return expr_mul(x, expr_call(x, FN_COS, a, NULL), da);
        case FN_COS: return expr_neg(x, expr_mul(x, expr_call(x, FN_SIN, a, NULL), da));
        case FN_TAN: return expr_div(x, da, expr_powi(x, expr_call(x, FN_COS, a, NULL), 2));
        case FN_EXP: return expr_mul(x, e, da);
        case FN_LOG: return expr_div(x, da, a);
        case FN_SQRT: return expr_div(x, da, expr_mul(x, expr_num(x, 2), e));
        case FN_ABS:
            return expr_if(x, expr_cmp(x, CMP_GE, a, zero), da, expr_neg(x, da));
        case FN_MIN:
        case FN_MAX: {
            Expr *b = e->args[1];
            Expr *db = expr_diff(x, b, leaf);
            ExprCmp op = e->op == FN_MIN ? CMP_LE : CMP_GE;
            return expr_if(x, expr_cmp(x, op, a, b), da, db);
        }
        case FN_ACOS: /* -a' / sqrt(1 - a^2) */
            return expr_neg(x, expr_div(x, da, expr_call(x, FN_SQRT, expr_sub(x, expr_num(x, 1),
                                                                              expr_mul(x, a, a)), NULL)));
        }
        return zero;
    }
    case EX_IF:
        return expr_if(x, e->args[0], expr_diff(x, e->args[1], leaf),
                       expr_diff(x, e->args[2], leaf));
    default:
        return zero;
    }
}

/* ------------------------------------------------------------------ */
/* Evaluation                                                           */
/* ------------------------------------------------------------------ */

double expr_eval(const Expr *e, const ExprEnv *env)
{
    switch (e->kind) {
    case EX_NUM:
        return e->num;
    case EX_PARAM:
        return env && env->params ? env->params[e->index] : 0;
    case EX_TIME:
        return env ? env->t : 0;
    case EX_VAR:
        return env && env->vars ? env->vars[e->index] : 0;
    case EX_ADD: {
        double s = 0;
        for (int i = 0; i < e->nargs; i++)
            s += expr_eval(e->args[i], env);
        return s;
    }
    case EX_MUL: {
        double p = 1;
        for (int i = 0; i < e->nargs; i++)
            p *= expr_eval(e->args[i], env);
        return p;
    }
    case EX_POW: {
        double b = expr_eval(e->args[0], env);
        if (is_numv(e->args[1], -1))
            return 1 / b;
        return pow(b, expr_eval(e->args[1], env));
    }
    case EX_CALL:
        return call_value((ExprFunc)e->op, expr_eval(e->args[0], env),
                          e->nargs > 1 ? expr_eval(e->args[1], env) : 0);
    case EX_IF: {
        double c = expr_eval(e->args[0], env);
        return isnan(c) ? c : c != 0 ? expr_eval(e->args[1], env) : expr_eval(e->args[2], env);
    }
    case EX_CMP: {
        double a = expr_eval(e->args[0], env), b = expr_eval(e->args[1], env);
        return truth(a, b, cmp_value((ExprCmp)e->op, a, b));
    }
    case EX_AND:
    case EX_OR: {
        double a = expr_eval(e->args[0], env), b = expr_eval(e->args[1], env);
        bool va = a != 0, vb = b != 0;
        return truth(a, b, e->kind == EX_AND ? (va && vb) : (va || vb));
    }
    case EX_NOT: {
        double a = expr_eval(e->args[0], env);
        return truth(a, 0, a == 0);
    }
    }
    return NAN;
}

/* ------------------------------------------------------------------ */
/* Printing                                                             */
/* ------------------------------------------------------------------ */

typedef struct Buf {
    char *s;
    size_t len, cap;
} Buf;

/* Appends n bytes to a growing, always NUL-terminated string. */
static void buf_putn(Buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->s = xrealloc(b->s, b->cap);
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

/* Appends a C string. */
static void buf_puts(Buf *b, const char *s)
{
    buf_putn(b, s, strlen(s));
}

/* Appends another buffer. */
static void buf_cat(Buf *b, const Buf *c)
{
    if (c->len)
        buf_putn(b, c->s, c->len);
}

/* Binding strength of what was printed; an operand printed weaker than its
 * position needs is parenthesised. */
enum { P_LOW, P_OR, P_AND, P_NOT, P_CMP, P_ADD, P_NEG, P_MUL, P_POW, P_ATOM };

typedef struct Printer {
    ExprCtx *x; /* scratch context: printing builds regrouped subexpressions */
    ExprStyle style;
    const ExprNamer *namer;
} Printer;

static int pr_raw(Printer *p, Expr *e, Buf *out);

/* Prints `e`, in parentheses when it binds weaker than `need`. */
static void pr(Printer *p, Expr *e, int need, Buf *out)
{
    Buf tmp = {0};
    int prec = pr_raw(p, e, &tmp);
    if (prec < need) {
        buf_puts(out, p->style == EXPR_LATEX ? "\\left(" : "(");
        buf_cat(out, &tmp);
        buf_puts(out, p->style == EXPR_LATEX ? "\\right)" : ")");
    } else {
        buf_cat(out, &tmp);
    }
    free(tmp.s);
}

/* Shortest %g form that reads back as the same double. */
static void fmt_shortest(char *s, size_t n, double v)
{
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(s, n, "%.*g", prec, v);
        if (strtod(s, NULL) == v)
            return;
    }
}

/* Prints a number in the style's notation; returns its binding strength. */
static int pr_num(Printer *p, double v, Buf *out)
{
    char s[64];
    if (isnan(v)) {
        buf_puts(out, p->style == EXPR_C ? "NAN" : p->style == EXPR_LATEX ? "\\mathrm{NaN}" : "nan");
        return P_ATOM;
    }
    if (isinf(v)) {
        if (v < 0)
            buf_puts(out, "-");
        buf_puts(out, p->style == EXPR_C ? "HUGE_VAL" : p->style == EXPR_LATEX ? "\\infty" : "inf");
        return v < 0 ? P_NEG : P_ATOM;
    }
    fmt_shortest(s, sizeof s, v);
    int prec = v < 0 ? P_NEG : P_ATOM;
    if (p->style == EXPR_C) {
        buf_puts(out, s);
        if (!strpbrk(s, ".e"))
            buf_puts(out, ".0");
        return prec;
    }
    char *e = strchr(s, 'e');
    if (p->style == EXPR_LATEX && e) {
        *e = '\0';
        int ex = atoi(e + 1);
        char t[32];
        snprintf(t, sizeof t, "10^{%d}", ex);
        if (strcmp(s, "1") == 0 || strcmp(s, "-1") == 0) {
            buf_puts(out, s[0] == '-' ? "-" : "");
            buf_puts(out, t);
            return v < 0 ? P_NEG : P_POW;
        }
        buf_puts(out, s);
        buf_puts(out, " \\cdot ");
        buf_puts(out, t);
        return v < 0 ? P_NEG : P_MUL;
    }
    buf_puts(out, s);
    return prec;
}

/* Prints a parameter or variable through the namer, or p<i> / y<i>. */
static void pr_leaf(Printer *p, const Expr *e, Buf *out)
{
    bool param = e->kind == EX_PARAM;
    const char *name = NULL;
    if (p->namer) {
        const char *(*cb)(void *, int, ExprStyle) = param ? p->namer->param : p->namer->var;
        if (cb)
            name = cb(p->namer->ud, e->index, p->style);
    }
    if (name) {
        buf_puts(out, name);
        return;
    }
    char s[48];
    snprintf(s, sizeof s, p->style == EXPR_LATEX ? "%c_{%d}" : "%c%d", param ? 'p' : 'y', e->index);
    buf_puts(out, s);
}

/* Prints base^exp with a positive or symbolic exponent (NULL meaning 1). */
static int pr_power(Printer *p, Expr *base, Expr *exp, Buf *out)
{
    if (!exp || is_numv(exp, 1))
        return pr_raw(p, base, out);
    bool num = exp->kind == EX_NUM;
    double v = num ? exp->num : 0;
    switch (p->style) {
    case EXPR_C:
        if (num && v == 0.5) {
            buf_puts(out, "sqrt(");
            pr(p, base, P_LOW, out);
            buf_puts(out, ")");
            return P_ATOM;
        }
        if (num && is_integer(v) && v >= 2 && v <= 4) {
            for (int i = 0; i < (int)v; i++) {
                if (i)
                    buf_puts(out, "*");
                pr(p, base, P_POW, out);
            }
            return P_MUL;
        }
        buf_puts(out, "pow(");
        pr(p, base, P_LOW, out);
        buf_puts(out, ", ");
        pr(p, exp, P_LOW, out);
        buf_puts(out, ")");
        return P_ATOM;
    case EXPR_LATEX:
        if (num && v == 0.5) {
            buf_puts(out, "\\sqrt{");
            pr(p, base, P_LOW, out);
            buf_puts(out, "}");
            return P_ATOM;
        }
        pr(p, base, P_ATOM, out);
        buf_puts(out, "^{");
        pr(p, exp, P_LOW, out);
        buf_puts(out, "}");
        return P_POW;
    case EXPR_TEXT:
        if (num && v == 0.5) {
            buf_puts(out, "sqrt(");
            pr(p, base, P_LOW, out);
            buf_puts(out, ")");
            return P_ATOM;
        }
        break;
    }
    pr(p, base, P_ATOM, out);
    buf_puts(out, "^");
    pr(p, exp, P_ATOM, out);
    return P_POW;
}

/* Writes c as n/q with a small q when its decimal form is long (1/3), so
 * that x/3 prints as x/3 and not 0.3333333333333333*x. */
static void rational_of(double c, double *n, double *q)
{
    char s[64];
    *n = c;
    *q = 1;
    if (is_integer(c) || !isfinite(c))
        return;
    fmt_shortest(s, sizeof s, c);
    if (strlen(s) <= 8)
        return;
    for (int d = 2; d <= 1000; d++) {
        double m = nearbyint(c * d);
        if (m != 0 && fabs(m) < 1e15 && m / d == c) {
            *n = m;
            *q = d;
            return;
        }
    }
}

/* One side of a fraction: parts joined by the style's product sign. */
typedef struct Side {
    Buf b;
    int parts;
    int prec; /* binding strength when there is one part */
} Side;

/* Appends a printed factor; LaTeX juxtaposes, with \cdot before a digit. */
static void side_add(Printer *p, Side *s, const Buf *part, int prec)
{
    if (s->parts) {
        if (p->style == EXPR_LATEX)
            buf_puts(&s->b, (part->s[0] >= '0' && part->s[0] <= '9') ? " \\cdot " : " ");
        else
            buf_puts(&s->b, "*");
    }
    buf_cat(&s->b, part);
    s->parts++;
    s->prec = prec;
}

/* Appends a number as a factor. */
static void side_add_num(Printer *p, Side *s, double v)
{
    Buf b = {0};
    int prec = pr_num(p, v, &b);
    side_add(p, s, &b, prec);
    free(b.s);
}

/* Adds base^exp to a side, parenthesised as a factor of a product. */
static void side_add_power(Printer *p, Side *s, Expr *base, Expr *exp)
{
    Buf b = {0};
    int prec = pr_power(p, base, exp, &b);
    if (prec < P_MUL) {
        Buf w = {0};
        buf_puts(&w, p->style == EXPR_LATEX ? "\\left(" : "(");
        buf_cat(&w, &b);
        buf_puts(&w, p->style == EXPR_LATEX ? "\\right)" : ")");
        free(b.s);
        b = w;
        prec = P_ATOM;
    }
    side_add(p, s, &b, prec);
    free(b.s);
}

/* Writes num/den (den may be empty) in the style; returns the strength. */
static int pr_fraction(Printer *p, Side *num, Side *den, Buf *out)
{
    if (!num->parts)
        side_add_num(p, num, 1);
    if (!den->parts) {
        buf_cat(out, &num->b);
        return num->parts == 1 ? num->prec : P_MUL;
    }
    if (p->style == EXPR_LATEX) {
        buf_puts(out, "\\frac{");
        buf_cat(out, &num->b);
        buf_puts(out, "}{");
        buf_cat(out, &den->b);
        buf_puts(out, "}");
        return P_MUL;
    }
    buf_cat(out, &num->b);
    buf_puts(out, "/");
    bool wrap = den->parts > 1 || den->prec < P_POW;
    if (wrap)
        buf_puts(out, "(");
    buf_cat(out, &den->b);
    if (wrap)
        buf_puts(out, ")");
    return P_MUL;
}

/* Prints a product or a power as a fraction: factors with negative numeric
 * exponents go below the bar, the sign in front (-k1/m1). */
static int pr_term(Printer *p, Expr *e, Buf *out)
{
    Expr **f = &e;
    int nf = 1;
    double c = 1;
    if (e->kind == EX_MUL) {
        f = e->args;
        nf = e->nargs;
        if (f[0]->kind == EX_NUM) {
            c = f[0]->num;
            f++;
            nf--;
        }
    }
    bool neg = c < 0;
    double cn, cd;
    rational_of(fabs(c), &cn, &cd);
    Side num = {0}, den = {0};
    if (cn != 1)
        side_add_num(p, &num, cn);
    if (cd != 1)
        side_add_num(p, &den, cd);
    for (int i = 0; i < nf; i++) {
        Expr *g = f[i];
        if (g->kind == EX_POW && g->args[1]->kind == EX_NUM && g->args[1]->num < 0)
            side_add_power(p, &den, g->args[0], expr_num(p->x, -g->args[1]->num));
        else if (g->kind == EX_POW)
            side_add_power(p, &num, g->args[0], g->args[1]);
        else
            side_add_power(p, &num, g, NULL);
    }
    if (neg)
        buf_puts(out, "-");
    int prec = pr_fraction(p, &num, &den, out);
    free(num.b.s);
    free(den.b.s);
    return neg ? P_NEG : prec;
}

/* One printed summand: sign, numerator and optional shared denominator. */
typedef struct Item {
    Expr *num; /* positive term, or a sum when den is set */
    Expr *den; /* NULL: num is a whole term */
    bool neg;
} Item;

/* True when every term of `e` has a negative coefficient. */
static bool all_negative(ExprCtx *x, Expr *e)
{
    int n = nterms(e);
    for (int i = 0; i < n; i++)
        if (!(split_term(x, e->kind == EX_ADD ? e->args[i] : e).c < 0))
            return false;
    return n > 0;
}

/* Prints one item without its sign. */
static int pr_item(Printer *p, const Item *it, Buf *out)
{
    if (!it->den)
        return pr_raw(p, it->num, out);
    Side num = {0}, den = {0};
    Buf b = {0};
    int prec = pr_raw(p, it->num, &b);
    if (prec < P_MUL) {
        buf_puts(&num.b, p->style == EXPR_LATEX ? "" : "(");
        buf_cat(&num.b, &b);
        buf_puts(&num.b, p->style == EXPR_LATEX ? "" : ")");
        prec = P_ATOM;
    } else {
        buf_cat(&num.b, &b);
    }
    num.parts = 1;
    num.prec = prec;
    free(b.s);
    b = (Buf){0};
    int dprec = pr_raw(p, it->den, &b);
    buf_cat(&den.b, &b);
    den.parts = 1;
    den.prec = dprec;
    free(b.s);
    prec = pr_fraction(p, &num, &den, out);
    free(num.b.s);
    free(den.b.s);
    return prec;
}

/* Prints signed items joined by + and -, starting with a positive one when
 * there is one (k2*m1 - k1*m2 rather than -k1*m2 + k2*m1). */
static int pr_items(Printer *p, Item *it, int n, Buf *out)
{
    ExprCtx *x = p->x;
    for (int i = 0; i < n; i++) {
        if (!it[i].den) {
            Term t = split_term(x, it[i].num);
            if (t.c < 0) {
                it[i].neg = true;
                it[i].num = make_term(x, -t.c, t.rest);
            }
        } else if (all_negative(x, it[i].num)) {
            it[i].neg = true;
            it[i].num = expr_neg(x, it[i].num);
        }
    }
    if (n > 1 && it[0].neg) {
        for (int i = 1; i < n; i++) {
            if (!it[i].neg) {
                Item first = it[i];
                memmove(it + 1, it, (size_t)i * sizeof *it);
                it[0] = first;
                break;
            }
        }
    }
    int prec = P_ADD;
    for (int i = 0; i < n; i++) {
        if (i == 0)
            buf_puts(out, it[i].neg ? "-" : "");
        else
            buf_puts(out, it[i].neg ? " - " : " + ");
        Buf b = {0};
        int ip = pr_item(p, &it[i], &b);
        if (ip < P_NEG) {
            buf_puts(out, p->style == EXPR_LATEX ? "\\left(" : "(");
            buf_cat(out, &b);
            buf_puts(out, p->style == EXPR_LATEX ? "\\right)" : ")");
            ip = P_ATOM;
        } else {
            buf_cat(out, &b);
        }
        free(b.s);
        if (n == 1)
            prec = it[0].neg ? P_NEG : ip;
    }
    return prec;
}

/* Splits a term into numerator (with the coefficient) and denominator
 * (negative numeric powers, made positive); den is NULL when there is none. */
static void term_parts(ExprCtx *x, Expr *t, Expr **num, Expr **den)
{
    FactorList nl = {.c = 1}, dl = {.c = 1};
    int nf = t->kind == EX_MUL ? t->nargs : 1;
    for (int i = 0; i < nf; i++) {
        Expr *f = t->kind == EX_MUL ? t->args[i] : t;
        if (f->kind == EX_NUM)
            nl.c *= f->num;
        else if (f->kind == EX_POW && f->args[1]->kind == EX_NUM && f->args[1]->num < 0)
            factors_push(&dl, f->args[0], expr_num(x, -f->args[1]->num));
        else if (f->kind == EX_POW)
            factors_push(&nl, f->args[0], f->args[1]);
        else
            factors_push(&nl, f, NULL);
    }
    bool has_den = dl.n > 0;
    *num = mul_build(x, &nl);
    *den = mul_build(x, &dl);
    if (!has_den)
        *den = NULL;
}

/* Prints a sum.  When putting it over a common denominator needs fewer
 * terms, that is how it prints ((k2*m1 - k1*m2)/(m1 + m2)); otherwise terms
 * that share a denominator are grouped over it, the rest print as they are
 * (k1/m1 - k2/m2). */
static int pr_sum(Printer *p, Expr *e, Buf *out)
{
    ExprCtx *x = p->x;
    Expr *den;
    Expr *nu = together(x, e, &den, 256);
    if (nu && !is_numv(den, 1) && nterms(nu) < nterms(e)) {
        if (nterms(nu) == 0)
            return pr_num(p, 0, out);
        Item it = {nu, den, false};
        return pr_items(p, &it, 1, out);
    }
    int n = e->nargs;
    Item *it = xmalloc((size_t)n * sizeof *it);
    Expr **nums = xmalloc((size_t)n * sizeof *nums), **dens = xmalloc((size_t)n * sizeof *dens);
    bool *used = calloc((size_t)n, sizeof *used);
    if (!used)
        abort();
    for (int i = 0; i < n; i++)
        term_parts(x, e->args[i], &nums[i], &dens[i]);
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (used[i])
            continue;
        int same = 0;
        for (int j = i + 1; j < n && dens[i]; j++)
            same += !used[j] && dens[j] == dens[i];
        if (!same) {
            it[k++] = (Item){e->args[i], NULL, false};
            continue;
        }
        TermList tl = {0};
        for (int j = i; j < n; j++) {
            if (!used[j] && dens[j] == dens[i]) {
                used[j] = true;
                terms_add(x, &tl, nums[j], 1);
            }
        }
        it[k++] = (Item){sum_build(x, &tl), dens[i], false};
    }
    int prec = pr_items(p, it, k, out);
    free(it);
    free(nums);
    free(dens);
    free(used);
    return prec;
}

static const char *func_name(ExprFunc f, ExprStyle style)
{
    static const char *const text[] = {"sin", "cos", "tan", "exp", "log", "sqrt", "abs", "min", "max", "acos"};
    static const char *const c[] = {"sin", "cos", "tan", "exp", "log", "sqrt", "fabs", "fmin", "fmax", "acos"};
    static const char *const latex[] = {"\\sin", "\\cos", "\\tan", "\\exp", "\\log", "\\sqrt",
                                        "", "\\min", "\\max", "\\arccos"};
    return style == EXPR_C ? c[f] : style == EXPR_LATEX ? latex[f] : text[f];
}

/* Prints an elementary function call (fabs/fmin/fmax in C, |x| in LaTeX). */
static int pr_call(Printer *p, Expr *e, Buf *out)
{
    ExprFunc f = (ExprFunc)e->op;
    bool latex = p->style == EXPR_LATEX;
    if (latex && f == FN_SQRT) {
        buf_puts(out, "\\sqrt{");
        pr(p, e->args[0], P_LOW, out);
        buf_puts(out, "}");
        return P_ATOM;
    }
    if (latex && f == FN_ABS) {
        buf_puts(out, "\\left|");
        pr(p, e->args[0], P_LOW, out);
        buf_puts(out, "\\right|");
        return P_ATOM;
    }
    buf_puts(out, func_name(f, p->style));
    buf_puts(out, latex ? "\\left(" : "(");
    for (int i = 0; i < e->nargs; i++) {
        if (i)
            buf_puts(out, ", ");
        pr(p, e->args[i], P_LOW, out);
    }
    buf_puts(out, latex ? "\\right)" : ")");
    return P_ATOM;
}

/* Prints a conditional: if(c, a, b), (c ? a : b) or a cases environment. */
static int pr_if(Printer *p, Expr *e, Buf *out)
{
    switch (p->style) {
    case EXPR_C:
        buf_puts(out, "(");
        pr(p, e->args[0], P_OR, out);
        buf_puts(out, " ? ");
        pr(p, e->args[1], P_OR, out);
        buf_puts(out, " : ");
        pr(p, e->args[2], P_OR, out);
        buf_puts(out, ")");
        return P_ATOM;
    case EXPR_LATEX:
        buf_puts(out, "\\begin{cases} ");
        pr(p, e->args[1], P_LOW, out);
        buf_puts(out, " & \\text{if } ");
        pr(p, e->args[0], P_LOW, out);
        buf_puts(out, " \\\\ ");
        pr(p, e->args[2], P_LOW, out);
        buf_puts(out, " & \\text{otherwise} \\end{cases}");
        return P_ATOM;
    case EXPR_TEXT:
        break;
    }
    buf_puts(out, "if(");
    for (int i = 0; i < 3; i++) {
        if (i)
            buf_puts(out, ", ");
        pr(p, e->args[i], P_LOW, out);
    }
    buf_puts(out, ")");
    return P_ATOM;
}

/* Prints comparisons and logical connectives. */
static int pr_logic(Printer *p, Expr *e, Buf *out)
{
    static const char *const cmp_c[] = {" < ", " <= ", " > ", " >= ", " == ", " != "};
    static const char *const cmp_tex[] = {" < ", " \\le ", " > ", " \\ge ", " = ", " \\ne "};
    bool c = p->style == EXPR_C, latex = p->style == EXPR_LATEX;
    switch (e->kind) {
    case EX_CMP:
        pr(p, e->args[0], P_ADD, out);
        buf_puts(out, (latex ? cmp_tex : cmp_c)[e->op]);
        pr(p, e->args[1], P_ADD, out);
        return P_CMP;
    case EX_AND:
        pr(p, e->args[0], P_AND, out);
        buf_puts(out, c ? " && " : latex ? " \\land " : " and ");
        pr(p, e->args[1], P_AND, out);
        return P_AND;
    case EX_OR:
        /* In C, && inside || is parenthesised (gcc's -Wparentheses). */
        pr(p, e->args[0], c ? P_NOT : P_OR, out);
        buf_puts(out, c ? " || " : latex ? " \\lor " : " or ");
        pr(p, e->args[1], c ? P_NOT : P_OR, out);
        return P_OR;
    default:
        buf_puts(out, c ? "!" : latex ? "\\lnot " : "not ");
        pr(p, e->args[0], P_ATOM, out);
        return P_NOT;
    }
}

/* Prints any node without outer parentheses; returns its binding strength. */
static int pr_raw(Printer *p, Expr *e, Buf *out)
{
    switch (e->kind) {
    case EX_NUM:
        return pr_num(p, e->num, out);
    case EX_PARAM:
    case EX_VAR:
        pr_leaf(p, e, out);
        return P_ATOM;
    case EX_TIME:
        buf_puts(out, "t");
        return P_ATOM;
    case EX_ADD:
        return pr_sum(p, e, out);
    case EX_MUL:
        return pr_term(p, e, out);
    case EX_POW:
        if (e->args[1]->kind == EX_NUM && e->args[1]->num < 0)
            return pr_term(p, e, out);
        return pr_power(p, e->args[0], e->args[1], out);
    case EX_CALL:
        return pr_call(p, e, out);
    case EX_IF:
        return pr_if(p, e, out);
    default:
        return pr_logic(p, e, out);
    }
}

/* The nodes an import has put into its map, so that the map can be emptied
 * in time proportional to them rather than to its capacity. */
typedef struct KeyLog {
    const Expr **key;
    size_t n, cap;
} KeyLog;

/* Copies `e` node for node into context x (no simplification, so the copy
 * has exactly the same structure).  Leaves are not memoised: interning one
 * again costs no more than looking it up. */
static Expr *import(ExprCtx *x, const Expr *e, PtrMap *m, KeyLog *log)
{
    if (e->nargs == 0) {
        Expr *leaf = intern(x, e->kind, e->op, e->index, e->num, 0, NULL);
        leaf->positive = e->positive;
        return leaf;
    }
    if (m->cap) {
        size_t i = ptr_slot(m, e);
        if (m->from[i])
            return m->to[i];
    }
    Expr *buf[8] = {0}, **na = e->nargs <= 8 ? buf : xmalloc((size_t)e->nargs * sizeof *na);
    for (int i = 0; i < e->nargs; i++)
        na[i] = import(x, e->args[i], m, log);
    Expr *r = intern(x, e->kind, e->op, e->index, e->num, e->nargs, na);
    r->positive = e->positive;
    if (na != buf)
        free(na);
    ptr_put(m, e, r);
    if (log->n == log->cap) {
        log->cap = log->cap ? 2 * log->cap : 256;
        log->key = xrealloc(log->key, log->cap * sizeof *log->key);
    }
    log->key[log->n++] = e;
    return r;
}

/* Empties an import map for the next expression: the slots of the logged
 * keys are found first and cleared after, so no probe chain is cut while
 * it is still needed. */
static void import_reset(PtrMap *m, KeyLog *log)
{
    size_t *slot = xmalloc((log->n ? log->n : 1) * sizeof *slot);
    for (size_t k = 0; k < log->n; k++)
        slot[k] = ptr_slot(m, log->key[k]);
    for (size_t k = 0; k < log->n; k++)
        m->from[slot[k]] = NULL;
    free(slot);
    m->count = 0;
    log->n = 0;
}

/* The printer's scratch context: the forms it builds (common denominators,
 * split terms) are hash-consed there, never in the caller's context.  It is
 * kept from one expression to the next (a fresh arena and table per
 * expression cost most of nsmc's time on large models) and started afresh
 * once it holds this many nodes, so its memory stays bounded.  Printing is a
 * function of the expression's structure only, so what an earlier call left
 * in it never changes the text. */
enum { SCRATCH_MAX_NODES = 1 << 18 };
static Arena *scratch_arena;
static ExprCtx *scratch_ctx;

/* The scratch context, renewed when it has grown past its bound. */
static ExprCtx *scratch_get(void)
{
    static unsigned scratch_generation;
    if (scratch_ctx && (scratch_ctx->count > SCRATCH_MAX_NODES ||
                        scratch_generation != ctx_generation)) {
        arena_free(scratch_arena);
        scratch_ctx = NULL;
    }
    if (!scratch_ctx) {
        scratch_arena = arena_new();
        scratch_ctx = expr_ctx_new(scratch_arena);
        scratch_generation = ctx_generation;
    }
    return scratch_ctx;
}

/* Renders `e` into a malloc'd string, working in the scratch context so that
 * printing never adds nodes to the caller's context. */
static char *render(const Expr *e, ExprStyle style, const ExprNamer *namer)
{
    static PtrMap map;
    static KeyLog log;
    Printer p = {scratch_get(), style, namer};
    Expr *c = import(p.x, e, &map, &log);
    import_reset(&map, &log);
    Buf b = {0};
    pr(&p, c, P_LOW, &b);
    if (!b.s)
        buf_puts(&b, "");
    return b.s;
}

void expr_print(FILE *out, const Expr *e, ExprStyle style, const ExprNamer *namer)
{
    char *s = render(e, style, namer);
    fputs(s, out);
    free(s);
}

char *expr_to_string(ExprCtx *x, const Expr *e, ExprStyle style, const ExprNamer *namer)
{
    char *s = render(e, style, namer);
    char *r = arena_strdup(x->arena, s);
    free(s);
    return r;
}
