/*
** The study programs' shared command-line and text helpers (cli.h).
*/
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "setfile.h"

/* Appends formatted text to t, doubling its buffer as needed; an
** allocation failure sets t->err and stops every later append. */
void cli_printf(CliText *t, const char *fmt, ...)
{
    if (t->err)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(t->s ? t->s + t->n : NULL, t->s ? t->cap - t->n : 0, fmt, ap);
        va_end(ap);
        if (k < 0) {
            t->err = 1;
            return;
        }
        if (t->s && (size_t)k < t->cap - t->n) {
            t->n += (size_t)k;
            return;
        }
        size_t cap = t->cap * 2 + (size_t)k + 256;
        char *s = realloc(t->s, cap);
        if (!s) {
            t->err = 1;
            return;
        }
        t->s = s;
        t->cap = cap;
    }
}

/* The error message of a study program: "PROG: error: ..."; 1. */
int cli_error(const char *prog, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: error: ", prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 1;
}

/* A whole decimal number through setfile_strtod (no hexadecimal, inf or
** nan), finite and with nothing after it; 1 when s is one. */
int cli_number(const char *s, double *v)
{
    return setfile_number(s, v) == NULL;
}

/* A count option's value: cli_number, whole and in [lo, hi]; 1 when it is. */
int cli_count(const char *s, long lo, long hi, long *v)
{
    double d;
    if (!cli_number(s, &d) || d != floor(d) || d < (double)lo || d > (double)hi)
        return 0;
    *v = (long)d;
    return 1;
}

/* ---- the study programs' words, checked before they are built ---------- */

/* nsmc sweep's options that take one value and may be given once. */
const char *const cli_sweep_single[12] = { "--section", "--section-period", "--t-max",
                                           "--out-dir", "--plot", "--transient", "--record",
                                           "--jobs", "--continue", "--method",
                                           "--lyapunov-periods", "--basin-tol" };

/* Whether a is in the n texts of list. */
static int cli_listed(const char *const *list, size_t n, const char *a)
{
    for (size_t k = 0; k < n; k++)
        if (!strcmp(a, list[k]))
            return 1;
    return 0;
}

/* Whether a is one of nsmc sweep's options that take a value
 * (cli_sweep_single's twelve, --basin, --basin-pilot, --param, --set): an
 * unknown option given last is called unknown, not one that needs a value. */
int cli_sweep_valued(const char *a)
{
    static const char *const repeated[] = { "--basin", "--basin-pilot", "--param", "--set" };
    return cli_listed(cli_sweep_single, 12, a) ||
        cli_listed(repeated, sizeof repeated / sizeof *repeated, a);
}

/* Whether a is one of nsmc continue's options that take a value. */
int cli_continue_valued(const char *a)
{
    static const char *const valued[] = { "--param", "--param2", "--curve", "--out-dir",
                                          "--period", "--periods", "--ds", "--ds-min", "--ds-max",
                                          "--tol", "--max-points", "--transient", "--start",
                                          "--plot", "--set" };
    return cli_listed(valued, sizeof valued / sizeof *valued, a);
}

/* Whether a is one of nsmc continue's flags (options without a value). */
int cli_continue_flag(const char *a)
{
    return !strcmp(a, "-q") || !strcmp(a, "--no-plot") || !strcmp(a, "--switch-pd");
}

/* The words of a sweep's command line checked without the model, before
 * nsmc sweep builds the program (seconds into a cold cache: --set-file was
 * refused after them): each is --help, a flag or an option with its value,
 * refused otherwise in the words of sweep.c's sweep_args, which judges the
 * values.  0, or 1 after the message. */
int nsm_sweep_words_check(int argc, char **argv)
{
    const char *prog = argc > 0 && argv[0] ? argv[0] : "nsmc sweep";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            return 0;
        if (!strcmp(a, "--floquet") || !strcmp(a, "--lyapunov"))
            continue;
        if (!cli_sweep_valued(a))
            return cli_error(prog, "unknown option '%s' (see --help)", a);
        if (i + 1 >= argc)
            return cli_error(prog, "option %s needs a value (see --help)", a);
        i++;
    }
    return 0;
}

/* The words of a continuation's command line checked without the model,
 * before nsmc continue builds the program (as nsm_sweep_words_check), in
 * the words of contprog.c's nsm_continue_main, which judges the values.
 * 0, or 1 after the message. */
int nsm_continue_words_check(int argc, char **argv)
{
    const char *prog = argc > 0 && argv[0] ? argv[0] : "nsmc continue";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            return 0;
        if (cli_continue_flag(a))
            continue;
        if (i + 1 >= argc)
            return cli_error(prog, "%s: %s", a, a[0] == '-' && a[1] == '-'
                             ? "unknown option or missing value (see --help)"
                             : "unexpected argument");
        if (!cli_continue_valued(a))
            return cli_error(prog, "unknown option '%s' (see --help)", a);
        i++;
    }
    return 0;
}
