/*
 * sema.h - checks a syntax tree and builds the Model (model.h): names, units,
 * `for` expansion, indexed families, affine gaps, defaults.
 */
#ifndef NSM_SEMA_H
#define NSM_SEMA_H

#include "arena.h"
#include "ast.h"
#include "diag.h"
#include "model.h"

/* Limits that keep the compiler fast on any input. */
enum {
    SEMA_MAX_BODIES = 10000,      /* bodies after expanding families */
    SEMA_MAX_STATEMENTS = 100000, /* statements after expanding `for` loops */
    SEMA_MAX_RANGE = 100000,      /* iterations of one `for` loop */
    SEMA_MAX_COORDINATES = 64     /* generalized coordinates (a dense M(q)) */
};

/* Returns the checked model, or NULL after reporting every error found. */
Model *sema_check(const Ast *ast, const Source *src, Arena *a, Diag *d);

#endif
