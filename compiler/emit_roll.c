/*
 * emit_roll.c - runs of alike generated statements written as loops
 * (emit_roll.h).
 */
#include "emit_roll.h"
#include "source.h"

#include <stdlib.h>
#include <string.h>

/* Longest period of statements looked for, and fewest repetitions of it
 * that make a loop. */
enum { ROLL_PERIOD_MAX = 64, ROLL_REPEAT_MIN = 4 };

/* Holes are literals of at most this many digits, so that base + step*i
 * stays far inside an int. */
enum { HOLE_DIGITS_MAX = 9 };

#define HOLE '\001'   /* stands for an integer in a template */

/* A text with its integers taken out: lit is the text with each integer
 * replaced by HOLE, v[0..nh-1] their values. */
typedef struct Tmpl {
    const char *lit;
    long *v;
    int nh;
} Tmpl;

typedef struct Stmt {
    Tmpl part[3];      /* comment before, code, comment after (lit NULL: none) */
    unsigned long key; /* hash of the three lits */
} Stmt;

struct Roll {
    Arena *a;
    Stmt *s;
    int n, cap;
};

enum { PART_BEFORE, PART_CODE, PART_AFTER };

Roll *roll_new(Arena *a)
{
    Roll *r = arena_alloc(a, sizeof *r);
    r->a = a;
    return r;
}

/* Writes a comment body safely: no comment terminator can leak out, and
 * a byte that is not UTF-8 (a model file's name in Latin-1, the one text
 * copied from outside the checked model) is written as the text \xHH, so
 * that the C stays UTF-8: the Python package reads it as such, and
 * nsm.compile of a file named with such a byte failed with a
 * UnicodeDecodeError. */
void emit_comment_text(FILE *out, const char *s)
{
    const unsigned char *end = s ? (const unsigned char *)s + strlen(s) : NULL;
    for (; s && *s; s++) {
        if (s[0] == '*' && s[1] == '/') {
            fputs("* /", out);
            s++;
            continue;
        }
        size_t n = source_utf8_len((const unsigned char *)s, end);
        if (n == 0) {
            fprintf(out, "\\x%02X", (unsigned char)*s);
            continue;
        }
        fwrite(s, 1, n, out);
        s += n - 1;
    }
}

/* Is ch part of a C identifier or number (so a digit beside it is no hole)? */
static bool word_char(char ch)
{
    return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
           ch == '_' || ch == '.';
}

/* The end of the C preprocessing number starting at s (digits, letters,
 * dots, and a sign after an exponent letter: 1e-05, 0x1p+3). */
static const char *number_end(const char *s)
{
    const char *e = s;
    for (;;) {
        if ((*e == '+' || *e == '-') && e > s && (e[-1] == 'e' || e[-1] == 'E' || e[-1] == 'p' ||
                                                 e[-1] == 'P'))
            e++;
        else if (word_char(*e))
            e++;
        else
            return e;
    }
}

/* Splits text into its template: every number made of digits only (no
 * leading zero but 0 itself, at most HOLE_DIGITS_MAX digits) becomes a hole. */
static Tmpl tmpl_make(Arena *a, const char *text)
{
    Tmpl t = {NULL, NULL, 0};
    if (!text)
        return t;
    size_t len = strlen(text);
    char *lit = arena_alloc(a, len + 1);
    t.v = arena_alloc(a, sizeof *t.v * (len / 2 + 1));
    size_t k = 0;
    for (const char *s = text; *s;) {
        bool starts = *s >= '0' && *s <= '9' && (s == text || !word_char(s[-1]));
        if (!starts) {
            lit[k++] = *s++;
            continue;
        }
        const char *e = number_end(s);
        size_t nd = (size_t)(e - s);
        bool digits = nd <= HOLE_DIGITS_MAX && (nd == 1 || s[0] != '0');
        for (const char *q = s; q < e; q++)
            digits &= *q >= '0' && *q <= '9';
        if (!digits) {
            memcpy(lit + k, s, nd);
            k += nd;
            s = e;
            continue;
        }
        t.v[t.nh++] = strtol(s, NULL, 10);
        lit[k++] = HOLE;
        s = e;
    }
    lit[k] = 0;
    t.lit = lit;
    return t;
}

/* FNV-1a over a template's text, chained from h. */
static unsigned long hash_text(unsigned long h, const char *s)
{
    for (; s && *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ul;
    return (h ^ 0xffu) * 1099511628211ul;
}

void roll_add(Roll *r, const char *before, const char *code, const char *after)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 64;
        Stmt *ns = arena_alloc(r->a, sizeof *ns * (size_t)r->cap);
        if (r->n)
            memcpy(ns, r->s, sizeof *ns * (size_t)r->n);
        r->s = ns;
    }
    Stmt *st = &r->s[r->n++];
    const char *text[3] = {before, code, after};
    st->key = 14695981039346656037ul;
    for (int p = 0; p < 3; p++) {
        st->part[p] = tmpl_make(r->a, text[p]);
        st->key = hash_text(st->key, st->part[p].lit);
    }
}

/* Do two templates read the same outside their holes? */
static bool tmpl_alike(const Tmpl *x, const Tmpl *y)
{
    if (!x->lit || !y->lit)
        return x->lit == y->lit;
    return x->nh == y->nh && strcmp(x->lit, y->lit) == 0;
}

static bool stmt_alike(const Stmt *x, const Stmt *y)
{
    return x->key == y->key && tmpl_alike(&x->part[0], &y->part[0]) &&
           tmpl_alike(&x->part[1], &y->part[1]) && tmpl_alike(&x->part[2], &y->part[2]);
}

/* Does hole h of part p move affinely over repetitions 0..j of a period
 * (s: the run's first statement of this position, every `period` apart)? */
static bool hole_affine(const Stmt *s, int period, int j, int p, int h)
{
    long v0 = s[0].part[p].v[h], d = s[period].part[p].v[h] - v0;
    return s[(long)j * period].part[p].v[h] == v0 + (long)j * d;
}

/* Is repetition j of the period starting at s alike to the first, its code
 * holes moving affinely (ranges: every hole)? */
static bool repeat_fits(const Stmt *s, int period, int j, bool ranges)
{
    for (int q = 0; q < period; q++) {
        const Stmt *x = &s[q];
        if (!stmt_alike(x, &s[(long)j * period + q]))
            return false;
        for (int h = 0; h < x->part[PART_CODE].nh; h++)
            if (!hole_affine(x, period, j, PART_CODE, h))
                return false;
        for (int h = 0; ranges && h < x->part[PART_BEFORE].nh; h++)
            if (!hole_affine(x, period, j, PART_BEFORE, h))
                return false;
    }
    return true;
}

/* How many times the period starting at s (n statements left) repeats. */
static int repeat_count(const Stmt *s, int n, int period, bool ranges)
{
    int count = 1;
    while ((long)(count + 1) * period <= n && repeat_fits(s, period, count, ranges))
        count++;
    return count;
}

/* The longest run starting at s: its period and repetitions (1 and 1 when
 * no period repeats ROLL_REPEAT_MIN times); the shortest period covering
 * the most statements wins. */
static void run_find(const Stmt *s, int n, bool ranges, int *period, int *count)
{
    *period = 1;
    *count = 1;
    for (int p = 1; p <= ROLL_PERIOD_MAX && 2 * p <= n; p++) {
        if (!stmt_alike(&s[0], &s[p]))
            continue;
        int c = repeat_count(s, n, p, ranges);
        if (c >= ROLL_REPEAT_MIN && (long)c * p > (long)*count * *period) {
            *period = p;
            *count = c;
        }
    }
}

/* Writes base + step*i (in parentheses unless bare or between brackets). */
static void hole_write(FILE *out, long base, long step, bool bracketed)
{
    if (step == 0) {
        fprintf(out, "%ld", base);
        return;
    }
    bool bare = base == 0 && step == 1;
    if (!bare && !bracketed)
        fputc('(', out);
    if (step == 1)
        fputs("i", out);
    else if (step == -1)
        fputs("-i", out);
    else
        fprintf(out, "%ld*i", step);
    if (base)
        fprintf(out, " %c %ld", base < 0 ? '-' : '+', base < 0 ? -base : base);
    if (!bare && !bracketed)
        fputc(')', out);
}

/* Is the hole at lit[k] directly between '[' and ']' (spaces aside)? */
static bool hole_bracketed(const char *lit, size_t k)
{
    size_t b = k;
    while (b > 0 && lit[b - 1] == ' ')
        b--;
    size_t e = k + 1;
    while (lit[e] == ' ')
        e++;
    return b > 0 && lit[b - 1] == '[' && lit[e] == ']';
}

/* How a template's holes are written: 0 their values in statement x, 1 as
 * base + step*i of a loop (steps from x to y), 2 as ranges first..last (y
 * the last repetition). */
enum { HOLES_VALUES, HOLES_LOOP, HOLES_RANGE };

/* Writes template x (of the statement whose counterpart is y). */
static void tmpl_write(FILE *out, const Tmpl *x, const Tmpl *y, int how, bool comment)
{
    int h = 0;
    for (size_t k = 0; x->lit[k]; k++) {
        if (x->lit[k] != HOLE) {
            if (comment && x->lit[k] == '*' && x->lit[k + 1] == '/')
                fputs("* ", out);
            else
                fputc(x->lit[k], out);
            continue;
        }
        long v = x->v[h], w = y ? y->v[h] : v;
        h++;
        if (how == HOLES_VALUES || v == w)
            fprintf(out, "%ld", v);
        else if (how == HOLES_LOOP)
            hole_write(out, v, w - v, hole_bracketed(x->lit, k));
        else
            fprintf(out, "%ld..%ld", v, w);
    }
}

/* Do the comment holes of part p move affinely over a run? */
static bool part_affine(const Stmt *s, int period, int count, int p)
{
    for (int h = 0; h < s->part[p].nh; h++)
        for (int j = 2; j < count; j++)
            if (!hole_affine(s, period, j, p, h))
                return false;
    return true;
}

/* A comment of a loop's statement: with i where its integers move
 * affinely, else the first element's and the last's. */
static void loop_comment(FILE *out, const Stmt *s, int period, int count, int p)
{
    const Stmt *last = &s[(long)(count - 1) * period];
    fputs("/* ", out);
    if (part_affine(s, period, count, p)) {
        tmpl_write(out, &s->part[p], &s[period].part[p], HOLES_LOOP, true);
    } else {
        tmpl_write(out, &s->part[p], NULL, HOLES_VALUES, true);
        fputs(" .. ", out);
        tmpl_write(out, &last->part[p], NULL, HOLES_VALUES, true);
    }
    fputs(" */", out);
}

/* One statement with its comments; in a loop (count > 1) with its holes
 * as functions of i. */
static void stmt_write(FILE *out, const Stmt *s, int period, int count, const char *indent)
{
    bool loop = count > 1;
    if (s->part[PART_BEFORE].lit) {
        fputs(indent, out);
        if (loop)
            loop_comment(out, s, period, count, PART_BEFORE);
        else {
            fputs("/* ", out);
            tmpl_write(out, &s->part[PART_BEFORE], NULL, HOLES_VALUES, true);
            fputs(" */", out);
        }
        fputc('\n', out);
    }
    fputs(indent, out);
    tmpl_write(out, &s->part[PART_CODE], loop ? &s[period].part[PART_CODE] : NULL,
               loop ? HOLES_LOOP : HOLES_VALUES, false);
    if (s->part[PART_AFTER].lit) {
        fputs("   ", out);
        if (loop)
            loop_comment(out, s, period, count, PART_AFTER);
        else {
            fputs("/* ", out);
            tmpl_write(out, &s->part[PART_AFTER], NULL, HOLES_VALUES, true);
            fputs(" */", out);
        }
    }
    fputc('\n', out);
}

bool roll_write(Roll *r, FILE *out, const char *indent)
{
    bool any = false;
    char *inner = arena_printf(r->a, "%s    ", indent);
    for (int k = 0; k < r->n;) {
        int period, count;
        run_find(&r->s[k], r->n - k, false, &period, &count);
        if (count == 1) {
            stmt_write(out, &r->s[k], 1, 1, indent);
            k++;
            continue;
        }
        any = true;
        fprintf(out, "%sfor (int i = 0; i < %d; i++) {\n", indent, count);
        for (int q = 0; q < period; q++)
            stmt_write(out, &r->s[k + q], period, count, inner);
        fprintf(out, "%s}\n", indent);
        k += period * count;
    }
    r->n = 0;
    return any;
}

void roll_write_ranges(Roll *r, FILE *out, const char *prefix)
{
    for (int k = 0; k < r->n;) {
        int period, count;
        run_find(&r->s[k], r->n - k, true, &period, &count);
        for (int q = 0; q < period; q++) {
            const Stmt *s = &r->s[k + q];
            const Stmt *last = &r->s[k + q + (count - 1) * period];
            fputs(prefix, out);
            tmpl_write(out, &s->part[PART_CODE], &last->part[PART_CODE],
                       count > 1 ? HOLES_RANGE : HOLES_VALUES, true);
            fputc('\n', out);
        }
        k += period * count;
    }
    r->n = 0;
}

void roll_write_rows(Roll *r, FILE *out, const char *indent)
{
    for (int k = 0; k < r->n;) {
        int period, count;
        run_find(&r->s[k], r->n - k, true, &period, &count);
        fputs(indent, out);
        for (int j = 0; j < period * count; j++) {
            fputs(j ? " " : "", out);
            tmpl_write(out, &r->s[k + j].part[PART_CODE], NULL, HOLES_VALUES, false);
        }
        fputc('\n', out);
        k += period * count;
    }
    r->n = 0;
}

const char *roll_clip(Arena *a, const char *text, int max)
{
    int len = 0;
    for (const char *s = text; *s; s++) {
        bool digit_run = *s >= '0' && *s <= '9' && s > text && s[-1] >= '0' && s[-1] <= '9';
        len += !digit_run;
        if (len >= max - 4 && !(s[1] >= '0' && s[1] <= '9')) {
            if (!s[1])
                return text;
            /* is the rest short enough to keep? */
            int rest = 0;
            for (const char *q = s + 1; *q; q++)
                rest += !(*q >= '0' && *q <= '9' && q[-1] >= '0' && q[-1] <= '9');
            if (len + rest <= max)
                return text;
            return arena_printf(a, "%.*s ...", (int)(s + 1 - text), text);
        }
    }
    return text;
}
