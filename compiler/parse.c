/* parse.c - feeds tokens from the lexer to the lemon parser. */
#include "parse.h"

#include <stdlib.h>
#include <string.h>

#include "parser.h"

/* lemon's entry points (gen/parser.c). */
void *NsmParseAlloc(void *(*alloc)(size_t));
void NsmParse(void *parser, int kind, Token tok, ParseState *ps);
void NsmParseFree(void *parser, void (*dealloc)(void *));
int NsmParseStates(void *parser, int *st, int max);
int NsmParseTerminals(void);
int NsmParseAccepts(const int *st, int n, int major);

/* Deepest parser stack whose states are kept for the "expected" list
** (parser.y's %stack_size). */
#define PARSE_MAX_STATES 1000

/* Describes a token for "unexpected ..." messages. */
static const char *describe(Token t, char *buf, size_t size)
{
    switch (t.kind) {
    case 0: return "end of file";
    case TK_NEWLINE: return "end of line";
    case TK_NUMBER: snprintf(buf, size, "number '%.*s'", t.len > 40 ? 40 : t.len, t.text); return buf;
    case TK_UNIT: snprintf(buf, size, "unit '%.*s'", t.len > 40 ? 40 : t.len, t.text); return buf;
    case TK_STRING: return "string";
    case TK_IDENT: snprintf(buf, size, "name '%.*s'", t.len > 40 ? 40 : t.len, t.text); return buf;
    default: snprintf(buf, size, "'%.*s'", t.len > 40 ? 40 : t.len, t.text); return buf;
    }
}

/* How an expected terminal reads in a message (keywords quoted like
** punctuation); buf holds it when it has to be built. */
static const char *expect_name(int kind, char *buf, size_t size)
{
    switch (kind) {
    case 0: return "end of file";
    case TK_NEWLINE: return "end of line";
    case TK_IDENT: return "a name";
    case TK_NUMBER: return "a number";
    case TK_UNIT: return "a unit";
    case TK_STRING: return "a string";
    default: {
        const char *name = lex_token_name(kind);
        if (name[0] == '\'')
            return name;
        snprintf(buf, size, "'%s'", name);
        return buf;
    }
    }
}

/* Appends s to buf (of size size), keeping it terminated. */
static void append(char *buf, size_t size, const char *s)
{
    size_t n = strlen(buf);
    if (n + 1 < size)
        snprintf(buf + n, size - n, "%s", s);
}

/* If the first `need` terminals of group (n of them) are all in ok, take
** every terminal of the group out of it and add the group's name to list. */
static void group(int *ok, int nt, const int *grp, int need, int n, const char *name,
                  const char **list, int *names)
{
    for (int i = 0; i < need; i++)
        if (grp[i] >= nt || !ok[grp[i]])
            return;
    for (int i = 0; i < n; i++)
        if (grp[i] < nt)
            ok[grp[i]] = 0;
    list[(*names)++] = name;
}

/* The terminals the parser would have accepted in place of the offending
** token, from its stack before that token: "an operator, ')' or ','".  The
** starts of an expression read as "an expression", the binary operators
** (when the arithmetic ones are all there) as "an operator", the ends of
** line and of file come last.  False when nothing is known (or too much:
** more than eight alternatives say nothing). */
static bool expected(const ParseState *ps, char *buf, size_t size)
{
    static const int expr_start[] = { TK_NUMBER, TK_IDENT, TK_LPAREN, TK_MINUS, TK_NOT, TK_IF };
    static const int binary[] = { TK_PLUS, TK_MINUS, TK_STAR, TK_SLASH, TK_CARET, TK_LT, TK_LE,
                                  TK_GT, TK_GE, TK_EQ, TK_NE, TK_AND, TK_OR };
    int nt = NsmParseTerminals(), ok[256], names = 0, nexpr = sizeof expr_start / sizeof expr_start[0];
    const char *list[256];
    char quoted[256][24];
    if (ps->nstates <= 0 || nt > 256)
        return false;
    for (int k = 0; k < nt; k++)
        ok[k] = NsmParseAccepts(ps->states, ps->nstates, k);
    group(ok, nt, expr_start, nexpr, nexpr, "an expression", list, &names);
    group(ok, nt, binary, 5, sizeof binary / sizeof binary[0], "an operator", list, &names);
    for (int k = 1; k < nt; k++)
        if (ok[k] && k != TK_NEWLINE)
            list[names++] = expect_name(k, quoted[k], sizeof quoted[k]);
    if (ok[TK_NEWLINE])
        list[names++] = expect_name(TK_NEWLINE, NULL, 0);
    if (ok[0])
        list[names++] = expect_name(0, NULL, 0);
    if (names == 0 || names > 8)
        return false;
    buf[0] = 0;
    for (int i = 0; i < names; i++) {
        append(buf, size, i == 0 ? "" : i == names - 1 ? " or " : ", ");
        append(buf, size, list[i]);
    }
    return true;
}

void parse_syntax_error(ParseState *ps, Token t)
{
    if (ps->failed)
        return;
    ps->failed = true;
    char buf[80];
    if (ps->line_start && t.kind == TK_IDENT) {
        diag_error(ps->diag, t.loc,
                   "unknown statement '%.*s' (expected model, param, mass, disc, body, rigid, spring, "
                   "damper, force, torque, gravity, plane, gap, wall, friction, init, simulate, output or for)",
                   t.len > 40 ? 40 : t.len, t.text);
        return;
    }
    char want[400];
    if (expected(ps, want, sizeof want))
        diag_error(ps->diag, t.loc, "syntax error: unexpected %s; expected %s",
                   describe(t, buf, sizeof buf), want);
    else
        diag_error(ps->diag, t.loc, "syntax error: unexpected %s", describe(t, buf, sizeof buf));
}

void parse_stack_overflow(ParseState *ps)
{
    if (ps->failed)
        return;
    ps->failed = true;
    diag_error(ps->diag, ps->loc, "the model is nested too deeply to parse (more than %d "
               "levels of brackets and operators)", PARSE_MAX_STATES);
}

Ast *parse_source(const Source *src, Arena *a, Diag *d)
{
    Lexer lx;
    lex_init(&lx, src, d);
    int states[PARSE_MAX_STATES];
    ParseState ps = {ast_new(a), d, false, true, states, -1, {0, 0, 0}};
    void *parser = NsmParseAlloc(malloc);
    if (!parser) {
        diag_error(d, (SrcLoc){0, 0, 0}, "out of memory");
        return NULL;
    }
    for (;;) {
        Token t = lex_next(&lx);
        if (t.kind == LEX_ERROR) {
            ps.failed = true;
            break;
        }
        ps.nstates = NsmParseStates(parser, states, PARSE_MAX_STATES);
        ps.loc = t.loc;
        if (t.kind == TK_IDENT) {
            int k = lex_context_keyword(t.text, t.len);
            if (k && ps.nstates > 0 && NsmParseAccepts(states, ps.nstates, k) &&
                !NsmParseAccepts(states, ps.nstates, TK_IDENT))
                t.kind = k;
        }
        NsmParse(parser, t.kind, t, &ps);
        if (!ps.failed && ps.ast->too_deep) {
            diag_error(d, ps.ast->deep_loc, "expression nested too deeply (more than %d levels)",
                       AST_MAX_DEPTH);
            ps.failed = true;
        }
        if (ps.failed || t.kind == 0)
            break;
        ps.line_start = t.kind == TK_NEWLINE;
    }
    NsmParseFree(parser, free);
    return ps.failed ? NULL : ps.ast;
}

bool parse_dump_tokens(const Source *src, Diag *d, FILE *out)
{
    Lexer lx;
    lex_init(&lx, src, d);
    for (;;) {
        Token t = lex_next(&lx);
        if (t.kind == LEX_ERROR)
            return false;
        fprintf(out, "%d:%d %s", t.loc.line, t.loc.col, lex_token_name(t.kind));
        if (t.kind == TK_IDENT || t.kind == TK_UNIT || t.kind == TK_STRING)
            fprintf(out, " %.*s", t.len, t.text);
        else if (t.kind == TK_NUMBER)
            fprintf(out, " %.*s = %.15g", t.len, t.text, t.num);
        fputc('\n', out);
        if (t.kind == 0)
            return true;
    }
}
