/* source.c - reads a model file and rejects what is not text. */
#include "source.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at p (0 when invalid). */
static size_t utf8_len(const unsigned char *p, const unsigned char *end)
{
    unsigned c = p[0];
    size_t n;
    unsigned min;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4, min = 0x10000;
    else
        return 0;
    if ((size_t)(end - p) < n)
        return 0;
    unsigned cp = c & (0x3F >> (n - 1));
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        cp = cp << 6 | (p[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

/* utf8_len for the other phases: the emitters keep what they copy from
 * outside the model's text (its file's name) valid UTF-8. */
size_t source_utf8_len(const unsigned char *p, const unsigned char *end)
{
    return utf8_len(p, end);
}

/* Whether the CR at p ends its line: only CRs, then LF or the end, follow
 * (CRLF saved on Windows, CR CR LF converted twice), as parameter files. */
static bool cr_ends_line(const unsigned char *p, const unsigned char *end)
{
    while (p < end && *p == '\r')
        p++;
    return p == end || *p == '\n';
}

/* Checks the bytes are text; reports the first offending byte's line.  A CR
 * inside a line is refused: the lexer took it for a space, so the line after
 * a comment ending in one (an old Mac line end) was silently commented out. */
static bool check_text(const Source *src, Diag *d)
{
    const unsigned char *p = (const unsigned char *)src->text;
    const unsigned char *end = p + src->size;
    const unsigned char *line_start = p;
    int line = 1;
    while (p < end) {
        if (*p == '\r' && !cr_ends_line(p, end)) {
            diag_error(d, (SrcLoc){line, (int)(p - line_start) + 1, 1},
                       "a carriage return (\\r) inside the line; lines end with LF or CRLF "
                       "(a file with CR alone as its line end, saved by an old Mac editor, "
                       "needs converting)");
            return false;
        }
        if (*p == '\0') {
            diag_error(d, (SrcLoc){0, 0, 0}, "not a text file (NUL byte on line %d)", line);
            return false;
        }
        size_t n = utf8_len(p, end);
        if (n == 0) {
            diag_error(d, (SrcLoc){0, 0, 0}, "not a text file (invalid UTF-8 on line %d)", line);
            return false;
        }
        if (*p == '\n') {
            line++;
            line_start = p + 1;
        }
        p += n;
    }
    return true;
}

bool source_from_memory(Source *src, const char *path, const char *data, size_t size,
                        Arena *a, Diag *d)
{
    src->path = path;
    src->text = "";
    src->size = 0;
    if (size > SOURCE_MAX_SIZE) {
        diag_error(d, (SrcLoc){0, 0, 0}, "file too large (more than %d bytes)", SOURCE_MAX_SIZE);
        return false;
    }
    char *text = arena_strndup(a, data, size);
    src->text = text;
    src->size = size;
    if (!check_text(src, d)) {
        src->text = "";
        src->size = 0;
        return false;
    }
    return true;
}

bool source_read(Source *src, const char *path, Arena *a, Diag *d)
{
    src->path = path;
    src->text = "";
    src->size = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        diag_error(d, (SrcLoc){0, 0, 0}, "cannot open file: %s", strerror(errno));
        return false;
    }
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    bool ok = buf != NULL;
    while (ok) {
        if (n == cap) {
            if (cap > SOURCE_MAX_SIZE) {
                diag_error(d, (SrcLoc){0, 0, 0}, "file too large (more than %d bytes)",
                           SOURCE_MAX_SIZE);
                ok = false;
                break;
            }
            char *bigger = realloc(buf, cap * 2);
            if (!bigger) {
                ok = false;
                diag_error(d, (SrcLoc){0, 0, 0}, "out of memory reading the file");
                break;
            }
            buf = bigger;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f)) {
                diag_error(d, (SrcLoc){0, 0, 0}, "cannot read file: %s", strerror(errno));
                ok = false;
            }
            break;
        }
    }
    fclose(f);
    if (ok)
        ok = source_from_memory(src, path, buf, n, a, d);
    free(buf);
    return ok;
}
