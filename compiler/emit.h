/*
 * emit.h - the back ends: a specialised C simulator, and the equations report.
 */
#ifndef NSM_EMIT_H
#define NSM_EMIT_H

#include <stdio.h>

#include "derive.h"

typedef enum EqFormat { EQ_MARKDOWN, EQ_TEXT } EqFormat;

/* Writes the generated simulator for the derived model.  Returns 0 on success. */
int emit_c_model(const Derivation *dv, FILE *out);

/* Writes every mode's matrices, event functions, derivatives and recasts. */
int emit_equations(const Derivation *dv, FILE *out, EqFormat fmt);

#endif
