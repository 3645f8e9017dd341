/*
 * arena.h - one arena per compilation: every phase allocates from it and
 * nothing is freed until the compilation ends.
 */
#ifndef NSM_ARENA_H
#define NSM_ARENA_H

#include <stddef.h>

typedef struct Arena Arena;

Arena *arena_new(void);
void arena_free(Arena *a);
/* Zeroed, max-aligned memory; aborts the process only when malloc fails. */
void *arena_alloc(Arena *a, size_t size);
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_strdup(Arena *a, const char *s);
char *arena_printf(Arena *a, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif
