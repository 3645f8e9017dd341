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
        if (cli_attached_split(a, cli_sweep_valued, NULL, 0))
            continue;       /* --out-dir=-x */
        if (!cli_sweep_valued(a))
            return cli_error(prog, "unknown option '%s' (see --help)", a);
        if (i + 1 >= argc)
            return cli_error(prog, "option %s needs a value (see --help)", a);
        if (!strcmp(a, "--out-dir") && cli_value_optionlike(argv[i + 1]))
            return cli_value_refuse(prog, a, argv[i + 1]);
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
        if (cli_continue_flag(a) || cli_attached_split(a, cli_continue_valued, NULL, 0))
            continue;
        if (i + 1 >= argc)
            return cli_error(prog, "%s: %s", a, a[0] == '-' && a[1] == '-'
                             ? "unknown option or missing value (see --help)"
                             : "unexpected argument");
        if (!cli_continue_valued(a))
            return cli_error(prog, "unknown option '%s' (see --help)", a);
        if (!strcmp(a, "--out-dir") && cli_value_optionlike(argv[i + 1]))
            return cli_value_refuse(prog, a, argv[i + 1]);
        i++;
    }
    return 0;
}

/* ---- values given as --NAME=VALUE ---------------------------------------- */

/* The values that came attached to their option (--NAME=VALUE), which
** cli_value_optionlike lets begin with '-': pointers into the words of
** the command line, one command line per process. */
static const char **cli_attached;
static int cli_nattached;

/* The split command line cli_args_attached made last, kept reachable for
** the process's life (its words are the options' values). */
static char **cli_split_argv;

/* The command line with each --NAME=VALUE of an option that takes a value
** (valued) split into --NAME and VALUE, the values noted as attached: the
** one way a name beginning with '-' is given without ./ (--out-dir=-x).
** Words after a lone "--" are left as they are (they are another
** program's).  The new word list (NULL-ended, its count in *nargc), or
** argv itself when nothing is split or memory runs out. */
char **cli_args_attached(int argc, char **argv, int (*valued)(const char *), int *nargc)
{
    int extra = 0;
    *nargc = argc;
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
        extra += cli_attached_split(argv[i], valued, NULL, 0);
    if (!extra)
        return argv;
    char **out = malloc(sizeof(char *) * (size_t)(argc + extra + 1));
    const char **keep = realloc(cli_attached, sizeof(char *) * (size_t)(cli_nattached + extra));
    if (!out || !keep) {
        free(out);
        if (keep)
            cli_attached = keep;
        return argv;
    }
    cli_attached = keep;
    int n = 0, done = 0;
    for (int i = 0; i < argc; i++) {
        done = done || (i > 0 && !strcmp(argv[i], "--"));
        char name[64];
        if (i == 0 || done || !cli_attached_split(argv[i], valued, name, sizeof name)) {
            out[n++] = argv[i];
            continue;
        }
        size_t len = strlen(name);
        char *opt = malloc(len + 1);
        if (!opt) {
            out[n++] = argv[i];
            continue;
        }
        memcpy(opt, name, len + 1);
        out[n++] = opt;
        out[n++] = argv[i] + len + 1;
        cli_attached[cli_nattached++] = argv[i] + len + 1;
    }
    out[n] = NULL;
    *nargc = n;
    cli_split_argv = out;
    return out;
}

/* Whether word is --NAME=VALUE of an option NAME that takes a value
** (valued): 1, with --NAME copied into name when name is not NULL (and
** fits in len bytes); else 0. */
int cli_attached_split(const char *word, int (*valued)(const char *), char *name, size_t len)
{
    const char *eq = word[0] == '-' && word[1] == '-' ? strchr(word, '=') : NULL;
    char buf[64];
    if (!eq || (size_t)(eq - word) >= sizeof buf)
        return 0;
    memcpy(buf, word, (size_t)(eq - word));
    buf[eq - word] = '\0';
    if (!valued(buf))
        return 0;
    if (name && (size_t)(eq - word) < len)
        memcpy(name, buf, (size_t)(eq - word) + 1);
    return 1;
}

/* Whether val, an option's value, came attached to it (--NAME=VALUE,
** cli_args_attached). */
int cli_value_attached(const char *val)
{
    for (int k = 0; k < cli_nattached; k++)
        if (cli_attached[k] == val)
            return 1;
    return 0;
}

/* Whether val, the value of an option naming a file or a folder, looks
** like an option: it begins with '-' and is not "-" alone (stdout or
** stdin where the option takes it), and it was given as the next word
** (`--out-dir --help` made a folder named --help).  A name beginning with
** '-' is given as --NAME=-x or ./-x. */
int cli_value_optionlike(const char *val)
{
    return val && val[0] == '-' && val[1] != '\0' && !cli_value_attached(val);
}

/* The message for an option whose file or folder name looks like an
** option (cli_value_optionlike), in the words every program says it: 1. */
int cli_value_refuse(const char *prog, const char *opt, const char *val)
{
    return cli_error(prog, "option %s takes a file or folder name, not '%s', which looks like "
                     "an option (the value is missing?); a name beginning with '-' is given as "
                     "%s=%s or %s ./%s", opt, val, opt, val, opt, val);
}
