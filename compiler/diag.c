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

/* Widest source excerpt shown: a longer line is cut around the caret, with
 * "..." where it was cut, so a 10^6-character line costs one screen line. */
enum { DIAG_MAX_SHOWN = 160 };

/* Prints the offending line and a caret under columns [col, col+len); a line
 * longer than DIAG_MAX_SHOWN is cut to a window around the caret. */
static void show_line(Diag *d, SrcLoc loc)
{
    int n = 0;
    const char *line = find_line(d->src, loc.line, &n);
    if (!line)
        return;
    int col = loc.col < 1 ? 1 : loc.col;
    int from = 0, to = n;
    if (n > DIAG_MAX_SHOWN) {
        from = col - 1 <= DIAG_MAX_SHOWN / 2 ? 0 : col - 1 - DIAG_MAX_SHOWN / 3;
        if (from > n - DIAG_MAX_SHOWN)
            from = n - DIAG_MAX_SHOWN;
        if (from < 0)
            from = 0;
        while (from > 0 && from < col - 1 && ((unsigned char)line[from] & 0xC0) == 0x80)
            from++;   /* not inside a UTF-8 sequence */
        to = from + DIAG_MAX_SHOWN;
        while (to < n && to > from && ((unsigned char)line[to] & 0xC0) == 0x80)
            to--;
    }
    const char *pre = from > 0 ? "..." : "", *post = to < n ? "..." : "";
    fprintf(d->out, "%5d | %s", loc.line, pre);
    for (int i = from; i < to; i++) {
        unsigned char c = (unsigned char)line[i];
        fputc(c == '\t' ? ' ' : (c < 32 || c == 127) ? '?' : c, d->out);
    }
    fprintf(d->out, "%s\n      | %s", post, from > 0 ? "   " : "");
    for (int i = from + 1; i < col; i++)
        fputc(' ', d->out);
    fputc('^', d->out);
    int len = loc.len;
    if (col - 1 + len > to)
        len = to - (col - 1);
    for (int i = 1; i < len; i++)
        fputc('~', d->out);
    fputc('\n', d->out);
}

/* One diagnostic on d->out; none where d->out is NULL (a Diag that only
 * counts, for a second look at an expression already reported on). */
static void report(Diag *d, SrcLoc loc, const char *kind, const char *fmt, va_list ap)
{
    if (!d->out)
        return;
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
