/*
** The study programs' shared command-line and text helpers (cli.h).
*/
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

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
