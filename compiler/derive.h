/*
 * derive.h - symbolic derivation: every mode's equations, event functions,
 * their time derivatives and the recasts, from a checked Model.
 */
#ifndef NSM_DERIVE_H
#define NSM_DERIVE_H

#include "arena.h"
#include "diag.h"
#include "model.h"

typedef struct Derivation Derivation;

/* Derives what the emitters need.  Returns NULL after reporting through `d`
 * when the model is degenerate (singular stuck mode, zero gap vector, ...). */
Derivation *derive_model(const Model *m, Arena *a, Diag *d);

#endif
