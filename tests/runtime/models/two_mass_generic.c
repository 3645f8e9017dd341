/* two_mass_generic.c: the two-mass model with every per-mode function
 * returning NSM_NOT_DERIVED, so the runtime's generic path runs it. */
#define TWO_MASS_GENERIC
#include "two_mass.c"
