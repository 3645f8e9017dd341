/*
** force_law.h: the exponential force law of force_law.c, its number and
** its parameters.
*/
#ifndef FORCE_LAW_H
#define FORCE_LAW_H

#define FORCE_LAW 3           /* the law number its gaps name (nsm_gap_info.law) */
#define FORCE_K 1e4           /* its stiffness at contact, N/m */
#define FORCE_D 1e-3          /* the penetration over which it grows by e, m */

int force_law_register(void);

#endif
