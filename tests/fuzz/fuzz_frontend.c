/*
 * fuzz_frontend.c - libFuzzer entry point: the front end (source checks,
 * lexer, parser, tree printer, sema) on arbitrary bytes.  It must never
 * crash, hang or leak; diagnostics are discarded.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "arena.h"
#include "ast.h"
#include "diag.h"
#include "parse.h"
#include "sema.h"
#include "source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *sink;
    if (!sink)
        sink = fopen("/dev/null", "w");
    if (!sink)
        return 0;
    Arena *a = arena_new();
    Source src = {"fuzz.nsm", "", 0};
    Diag d;
    diag_init(&d, &src, sink);
    if (source_from_memory(&src, "fuzz.nsm", (const char *)data, size, a, &d)) {
        parse_dump_tokens(&src, &d, sink);
        Ast *ast = parse_source(&src, a, &d);
        if (ast) {
            ast_dump(ast, sink);
            sema_check(ast, &src, a, &d);
        }
    }
    arena_free(a);
    return 0;
}
