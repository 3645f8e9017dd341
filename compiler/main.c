/*
 * main.c - the nsmc command line.
 *
 *     source → parse → sema → derive → emit
 *
 * Exit status: 0 success, 1 an error in the model or the command line,
 * 2 an internal error.  A failed compilation leaves no output file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arena.h"
#include "derive.h"
#include "diag.h"
#include "emit.h"
#include "parse.h"
#include "run.h"
#include "sema.h"
#include "source.h"

typedef enum Action { ACT_COMPILE, ACT_CHECK, ACT_TOKENS, ACT_AST, ACT_EQUATIONS } Action;

typedef struct Options {
    Action action;
    EqFormat format;
    const char *input, *output;
} Options;

static void usage(FILE *out)
{
    fputs("usage: nsmc FILE.nsm [-o FILE.c]          compile a model to a C simulator\n"
          "       nsmc --check FILE.nsm               check a model, print nothing when it is valid\n"
          "       nsmc --dump=tokens|ast FILE.nsm     print the tokens or the syntax tree\n"
          "       nsmc --emit=equations [--format=text|markdown] [-o FILE] FILE.nsm\n"
          "                                           print every mode's equations\n"
          "       nsmc run FILE.nsm [--out-dir DIR] [--set NAME=VALUE]... [--set-file FILE]\n"
          "                [--no-plot] [--phase] [-- SIMULATOR ARGS]\n"
          "                                           compile, build (cached) and run a model,\n"
          "                                           print its events, plot into out/NAME/\n"
          "       nsmc --help | --version\n"
          "exit status: 0 ok, 1 error in the model or the command line, 2 internal error\n",
          out);
}

/* Parses the command line; returns -1 to go on, else an exit status. */
static int parse_args(int argc, char **argv, Options *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--version") == 0) {
            printf("nsmc %s\n", NSM_VERSION);
            return 0;
        } else if (strcmp(a, "--check") == 0) {
            o->action = ACT_CHECK;
        } else if (strcmp(a, "--dump=tokens") == 0) {
            o->action = ACT_TOKENS;
        } else if (strcmp(a, "--dump=ast") == 0) {
            o->action = ACT_AST;
        } else if (strcmp(a, "--emit=equations") == 0) {
            o->action = ACT_EQUATIONS;
        } else if (strcmp(a, "--format=text") == 0) {
            o->format = EQ_TEXT;
        } else if (strcmp(a, "--format=markdown") == 0) {
            o->format = EQ_MARKDOWN;
        } else if (strcmp(a, "-o") == 0) {
            if (++i == argc) {
                fputs("nsmc: error: '-o' needs a file name\n", stderr);
                return 1;
            }
            o->output = argv[i];
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "nsmc: error: unknown option '%s' (see nsmc --help)\n", a);
            return 1;
        } else if (o->input) {
            fprintf(stderr, "nsmc: error: more than one input file ('%s' and '%s')\n", o->input, a);
            return 1;
        } else {
            o->input = a;
        }
    }
    if (!o->input) {
        fputs("nsmc: error: no input file (see nsmc --help)\n", stderr);
        return 1;
    }
    return -1;
}

/* The default output file: the input's base name with ".c", in the current directory. */
static char *default_output(Arena *a, const char *input)
{
    const char *b = strrchr(input, '/');
    b = b ? b + 1 : input;
    size_t n = strlen(b);
    if (n > 4 && strcmp(b + n - 4, ".nsm") == 0)
        n -= 4;
    return arena_printf(a, "%.*s.c", (int)n, b);
}

/* Writes through a temporary file in the same directory, renamed into place
 * only when the emitter succeeds, so no half-written file is ever left. */
static int write_output(const char *path, const Derivation *dv, const Options *o, Arena *a)
{
    char *tmp = arena_printf(a, "%s.tmpXXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd >= 0) { /* mkstemp creates 0600; give the usual permissions */
        mode_t mask = umask(0);
        umask(mask);
        fchmod(fd, 0666 & ~mask);
    }
    FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
    if (!f) {
        fprintf(stderr, "nsmc: error: cannot write '%s': %s\n", path, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
        }
        return 1;
    }
    int rc = o->action == ACT_EQUATIONS ? emit_equations(dv, f, o->format) : emit_c_model(dv, f);
    if (fclose(f) != 0 && rc == 0) {
        fprintf(stderr, "nsmc: error: cannot write '%s': %s\n", path, strerror(errno));
        rc = 1;
    } else if (rc != 0)
        fprintf(stderr, "nsmc: internal error: the back end failed writing '%s'\n", path);
    else if (rename(tmp, path) != 0) {
        fprintf(stderr, "nsmc: error: cannot write '%s': %s\n", path, strerror(errno));
        rc = 1;
    } else
        return 0;
    unlink(tmp);
    return rc == 1 ? 1 : 2;
}

/* Runs the pipeline for one file; returns the exit status. */
static int compile(const Options *o, Arena *a)
{
    Source src = {o->input, "", 0};
    Diag diag;
    diag_init(&diag, &src, stderr);
    if (!source_read(&src, o->input, a, &diag))
        return 1;
    if (o->action == ACT_TOKENS)
        return parse_dump_tokens(&src, &diag, stdout) ? 0 : 1;
    Ast *ast = parse_source(&src, a, &diag);
    if (!ast)
        return 1;
    if (o->action == ACT_AST) {
        ast_dump(ast, stdout);
        return 0;
    }
    Model *model = sema_check(ast, &src, a, &diag);
    if (!model)
        return 1;
    /* --check derives too: a model it accepts must also compile. */
    Derivation *dv = derive_model(model, a, &diag);
    if (!dv)
        return 1;
    if (o->action == ACT_CHECK)
        return 0;
    if (o->action == ACT_EQUATIONS && !o->output) {
        if (emit_equations(dv, stdout, o->format) != 0) {
            fputs("nsmc: internal error: the equations report failed\n", stderr);
            return 2;
        }
        return 0;
    }
    return write_output(o->output ? o->output : default_output(a, o->input), dv, o, a);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "run") == 0)
        return run_main(argc - 1, argv + 1);
    Options o = {ACT_COMPILE, EQ_MARKDOWN, NULL, NULL};
    int rc = parse_args(argc, argv, &o);
    if (rc >= 0)
        return rc;
    Arena *a = arena_new();
    rc = compile(&o, a);
    arena_free(a);
    return rc;
}
