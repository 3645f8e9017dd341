/* diag.c - gcc-style diagnostics with the source line and a caret. */
#include "diag.h"

#include <stdarg.h>
#include <string.h>

void diag_init(Diag *d, const Source *src, FILE *out)
{
    d->src = src;
    d->out = out;
    d->errors = 0;
    d->warnings = 0;
}

/* Finds line `line` (1-based) in the source; returns its start and length. */
static const char *find_line(const Source *src, int line, int *len)
{
    const char *p = src->text, *end = src->text + src->size;
    for (int i = 1; i < line && p < end; i++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            return NULL;
        p = nl + 1;
    }
    if (p >= end && line > 1)
        return NULL;
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    *len = (int)((nl ? nl : end) - p);
    if (*len > 0 && p[*len - 1] == '\r')
        (*len)--;
    return p;
}

/* Prints the offending line and a caret under columns [col, col+len). */
static void show_line(Diag *d, SrcLoc loc)
{
    int n = 0;
    const char *line = find_line(d->src, loc.line, &n);
    if (!line)
        return;
    fprintf(d->out, "%5d | ", loc.line);
    for (int i = 0; i < n; i++) {
        unsigned char c = (unsigned char)line[i];
        fputc(c == '\t' ? ' ' : (c < 32 || c == 127) ? '?' : c, d->out);
    }
    fputs("\n      | ", d->out);
    int col = loc.col < 1 ? 1 : loc.col;
    for (int i = 1; i < col; i++)
        fputc(' ', d->out);
    fputc('^', d->out);
    int len = loc.len;
    if (col - 1 + len > n)
        len = n - (col - 1);
    for (int i = 1; i < len; i++)
        fputc('~', d->out);
    fputc('\n', d->out);
}

static void report(Diag *d, SrcLoc loc, const char *kind, const char *fmt, va_list ap)
{
    if (loc.line > 0)
        fprintf(d->out, "%s:%d:%d: %s: ", d->src->path, loc.line, loc.col, kind);
    else
        fprintf(d->out, "%s: %s: ", d->src->path, kind);
    vfprintf(d->out, fmt, ap);
    fputc('\n', d->out);
    if (loc.line > 0)
        show_line(d, loc);
}

void diag_error(Diag *d, SrcLoc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(d, loc, "error", fmt, ap);
    va_end(ap);
    d->errors++;
}

void diag_warning(Diag *d, SrcLoc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(d, loc, "warning", fmt, ap);
    va_end(ap);
    d->warnings++;
}

void diag_note(Diag *d, SrcLoc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(d, loc, "note", fmt, ap);
    va_end(ap);
}
