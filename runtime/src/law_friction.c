/*
** law_friction.c: Coulomb friction as a contact law (law.h).
**
** A friction element k owns the event columns g + 2k (its slip velocity,
** while it slips) and g + 2k + 1 (its force reaching the cone, while it
** sticks); its forces are coulomb.c's, its stick, slip and frictional
** impulses friction.c's (Glocker 2001; Pfeiffer and Glocker 1996), its
** statistics fricstat.c's.  This file gives them the law interface: the
** tables' check and the transition at its events.  Friction stores no
** energy; its dissipation is the slip work the audit computes in closed
** form (fricstat.c).
*/
#include "law.h"

/* The friction tables the model's setup filled (all elements at once,
** rt_fric_validate): checked at the first element's column. */
static int friction_setup(nsm_sim *s, int j)
{
    return j == s->n_gaps ? rt_fric_validate(s) : 0;
}

/* Element (j - g) / 2's slip reached 0 or its force reached the cone:
** stick, slip or reversal (rt_fric_transition). */
static int friction_transition(nsm_sim *s, int j, unsigned *forget)
{
    (void)forget;
    return rt_fric_transition(s, j);
}

const rt_law rt_law_friction = {
    .name = "friction",
    .constraint = 0,
    .setup = friction_setup,
    .transition = friction_transition,
};
