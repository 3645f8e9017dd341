/*
 * fuzz_pipeline.c - libFuzzer entry point: the whole compiler on arbitrary
 * bytes, past the front end: source checks, parser, sema, derivation of
 * every mode, the C back end and the equations report in both formats.  It
 * must never crash, hang or leak; all output is discarded.
 *
 * Models larger than FUZZ_MAX_BODIES bodies or FUZZ_MAX_GAPS gaps stop after
 * sema: their derivation is legitimately long (2^g modes, dense n x n
 * algebra), and a fuzzer would report that as a hang rather than find bugs.
 * The front end alone is fuzzed on any size by fuzz_frontend.c.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "arena.h"
#include "derive.h"
#include "diag.h"
#include "emit.h"
#include "parse.h"
#include "sema.h"
#include "source.h"

#define FUZZ_MAX_BODIES 6
#define FUZZ_MAX_GAPS 3

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
    Ast *ast = NULL;
    Model *m = NULL;
    Derivation *dv = NULL;
    if (source_from_memory(&src, "fuzz.nsm", (const char *)data, size, a, &d) &&
        (ast = parse_source(&src, a, &d)) != NULL && (m = sema_check(ast, &src, a, &d)) != NULL &&
        m->n_bodies <= FUZZ_MAX_BODIES && m->n_gaps <= FUZZ_MAX_GAPS &&
        (dv = derive_model(m, a, &d)) != NULL) {
        emit_c_model(dv, sink);
        emit_equations(dv, sink, EQ_TEXT);
        emit_equations(dv, sink, EQ_MARKDOWN);
    }
    arena_free(a);
    return 0;
}
