/* derive.c - placeholder until the derivation lands: reports that it is missing. */
#include "derive.h"

struct Derivation {
    const Model *model;
};

Derivation *derive_model(const Model *m, Arena *a, Diag *d)
{
    (void)a;
    (void)m;
    diag_error(d, (SrcLoc){0, 0, 0}, "the symbolic derivation is not available in this build");
    return NULL;
}
