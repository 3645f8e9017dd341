/*
 * source.h - reading a model file into memory.
 *
 * The text is checked to be text: no NUL byte, valid UTF-8, at most
 * SOURCE_MAX_SIZE bytes, so that every later phase may treat it as a C string.
 */
#ifndef NSM_SOURCE_H
#define NSM_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "diag.h"

enum { SOURCE_MAX_SIZE = 16 << 20 };

/* Reads `path` into `src` (text allocated in `a`).  On failure reports through
 * `d` (whose source must be `src`: its path is set first) and returns false. */
bool source_read(Source *src, const char *path, Arena *a, Diag *d);

/* Wraps bytes already in memory (the fuzz harness and tests), with the same
 * checks as source_read.  Returns false after reporting when they are not text. */
bool source_from_memory(Source *src, const char *path, const char *data, size_t size,
                        Arena *a, Diag *d);

/* Length of the valid UTF-8 sequence at p, before end (0 when invalid). */
size_t source_utf8_len(const unsigned char *p, const unsigned char *end);

#endif
