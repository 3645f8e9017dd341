/*
 * emit_roll.h - loops stay loops: a list of generated statements in which
 * runs that differ only by integers moving in constant steps (the Taylor
 * recurrences of a `for` loop's forces and gaps, element after element)
 * are written as one `for` loop over i, so that the generated code grows
 * with the model's text rather than its size.
 *
 * A statement is one line of C (its code) with an optional comment before
 * it and one after it.  Every integer literal of the code (a C number made
 * of digits only) is a hole; two statements are alike when their texts
 * agree outside the holes.  A run of a period of alike statements repeated
 * at least four times, each hole of the code an affine function of the
 * repetition, becomes a loop whose body is the first repetition with each
 * moving hole written as base + step*i: every iteration executes the very
 * text the statement it replaces would have, in the same order, so the
 * results are bit-identical.  Comments follow the same rule where their
 * integers move affinely, else they name the first and last elements.
 */
#ifndef NSM_EMIT_ROLL_H
#define NSM_EMIT_ROLL_H

#include <stdbool.h>
#include <stdio.h>

#include "arena.h"

typedef struct Roll Roll;

/* An empty list of statements, allocated in a. */
Roll *roll_new(Arena *a);

/* Appends a statement: its code (one line, no indentation or newline), a
 * comment written on the line before it and one after it (NULL: none;
 * comment texts without the comment markers). */
void roll_add(Roll *r, const char *before, const char *code, const char *after);

/* Writes the statements, runs as loops over `int i`, each line indented by
 * indent, then empties the list.  Returns whether a loop was written. */
bool roll_write(Roll *r, FILE *out, const char *indent);

/* Writes the statements as comment lines (prefix before each), a run of
 * alike lines as one line whose moving integers read first..last
 * ("y[0..19] = P[1..20].x"), then empties the list. */
void roll_write_ranges(Roll *r, FILE *out, const char *prefix);

/* Writes the statements as rows of a static table's initializer, a run of
 * alike rows on one line, each line indented by indent, then empties the
 * list (the names of a family are data: they grow with it, the lines do
 * not). */
void roll_write_rows(Roll *r, FILE *out, const char *indent);

/* Writes a comment body safely: no comment terminator can leak out. */
void emit_comment_text(FILE *out, const char *s);

/* text cut to about max characters (" ..." appended when cut), each run of
 * digits counted as one, so that the comments of a loop's elements are cut
 * alike whatever their indices' lengths. */
const char *roll_clip(Arena *a, const char *text, int max);

#endif
