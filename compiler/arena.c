/* arena.c - bump allocator in chained blocks. */
#include "arena.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Block {
    struct Block *next;
    size_t used, size;
    max_align_t data[];
} Block;

struct Arena {
    Block *head;
};

/* Allocation failure is the one condition the compiler cannot report and go on. */
static void *xcalloc(size_t n)
{
    void *p = calloc(1, n);
    if (!p) {
        fputs("nsmc: fatal: out of memory\n", stderr);
        abort();
    }
    return p;
}

Arena *arena_new(void)
{
    return xcalloc(sizeof(Arena));
}

void arena_free(Arena *a)
{
    if (!a)
        return;
    for (Block *b = a->head, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    free(a);
}

void *arena_alloc(Arena *a, size_t size)
{
    const size_t align = sizeof(max_align_t);
    size = (size + align - 1) / align * align;
    if (size == 0)
        size = align;
    Block *b = a->head;
    if (!b || b->size - b->used < size) {
        size_t cap = size > 65536 ? size : 65536;
        b = xcalloc(sizeof(Block) + cap);
        b->size = cap;
        b->next = a->head;
        a->head = b;
    }
    void *p = (char *)b->data + b->used;
    b->used += size;
    return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n)
{
    char *p = arena_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *arena_strdup(Arena *a, const char *s)
{
    return arena_strndup(a, s, strlen(s));
}

char *arena_printf(Arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        n = 0;
    char *p = arena_alloc(a, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}
