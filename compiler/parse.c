/* parse.c - feeds tokens from the lexer to the lemon parser. */
#include "parse.h"

#include <stdlib.h>
#include <string.h>

#include "parser.h"

/* lemon's entry points (gen/parser.c). */
void *NsmParseAlloc(void *(*alloc)(size_t));
void NsmParse(void *parser, int kind, Token tok, ParseState *ps);
void NsmParseFree(void *parser, void (*dealloc)(void *));

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

void parse_syntax_error(ParseState *ps, Token t)
{
    if (ps->failed)
        return;
    ps->failed = true;
    char buf[80];
    if (ps->line_start && t.kind == TK_IDENT) {
        diag_error(ps->diag, t.loc,
                   "unknown statement '%.*s' (expected model, param, mass, spring, damper, "
                   "force, gravity, gap, init, simulate, output or for)",
                   t.len > 40 ? 40 : t.len, t.text);
        return;
    }
    diag_error(ps->diag, t.loc, "syntax error: unexpected %s", describe(t, buf, sizeof buf));
}

void parse_stack_overflow(ParseState *ps)
{
    if (ps->failed)
        return;
    ps->failed = true;
    diag_error(ps->diag, (SrcLoc){0, 0, 0}, "the model is nested too deeply to parse");
}

Ast *parse_source(const Source *src, Arena *a, Diag *d)
{
    Lexer lx;
    lex_init(&lx, src, d);
    ParseState ps = {ast_new(a), d, false, true};
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
