/*
 * diag.h - diagnostics in the form gcc uses:
 *
 *     models/x.nsm:12:5: error: unknown body 'M3'
 *        12 | gap C: M3.x - M1.x >= 0, impact(e = 1)
 *           |        ^~~~
 *
 * followed, where useful, by `note:` lines that point elsewhere.
 */
#ifndef NSM_DIAG_H
#define NSM_DIAG_H

#include <stddef.h>
#include <stdio.h>

typedef struct SrcLoc {
    int line, col; /* 1-based; line 0 means "no location" */
    int len;       /* columns the caret underlines, at least 1 */
} SrcLoc;

typedef struct Source {
    const char *path;
    const char *text; /* NUL-terminated copy of the file */
    size_t size;
} Source;

typedef struct Diag {
    const Source *src;
    FILE *out;
    int errors, warnings;
} Diag;

void diag_init(Diag *d, const Source *src, FILE *out);
void diag_error(Diag *d, SrcLoc loc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void diag_warning(Diag *d, SrcLoc loc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void diag_note(Diag *d, SrcLoc loc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif
