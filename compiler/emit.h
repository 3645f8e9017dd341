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

/* Bodies in space (emit_rigid.c): kin() (q' = B(q) u) and rigid_rot[] for a
 * model with rigid bodies, and the table's state layout entries (.nq, .nu,
 * .n_rigid, .rigid_rot, .kin). */
void rigid_emit_kin(const Model *m, FILE *o);
void rigid_emit_table(const Model *m, FILE *o);
/* The spatial friction elements' list and table entries (emit_rigid.c). */
void sfric_emit_list(const Model *m, FILE *o);
void sfric_emit_table(const Model *m, FILE *o);

/* Writes every mode's matrices, event functions, derivatives and recasts. */
int emit_equations(const Derivation *dv, FILE *out, EqFormat fmt);

#endif
