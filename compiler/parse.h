/*
 * parse.h - drives the re2c lexer and the lemon parser over one source file.
 */
#ifndef NSM_PARSE_H
#define NSM_PARSE_H

#include <stdbool.h>
#include <stdio.h>

#include "arena.h"
#include "ast.h"
#include "diag.h"
#include "lex.h"

/* What the grammar's actions see (lemon's extra argument). */
typedef struct ParseState {
    Ast *ast;
    Diag *diag;
    bool failed;       /* a syntax error was reported: stop feeding tokens */
    bool line_start;   /* the token being fed starts a statement */
    int *states;       /* the parser's stack before the token being fed */
    int nstates;       /* (-1: not known) */
    SrcLoc loc;        /* where the token being fed is */
} ParseState;

/* Parses the whole file.  Returns NULL after reporting the first lexical or
 * syntax error; the tree otherwise (possibly empty). */
Ast *parse_source(const Source *src, Arena *a, Diag *d);

/* Writes one line per token for `nsmc --dump=tokens`; false on a lexical error. */
bool parse_dump_tokens(const Source *src, Diag *d, FILE *out);

/* Called from the grammar. */
void parse_syntax_error(ParseState *ps, Token t);
void parse_stack_overflow(ParseState *ps);

#endif
