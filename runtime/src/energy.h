/*
** energy.h: the energy terms of a model, as pure functions of the numeric
** tables (nsm/model.h: nsm_numeric) and a state y = (x[0..n-1], v[0..n-1]).
**
** Conventions: mode bit j (bit j % 32 of word j / 32) set means gap j is closed (engaged, for a penalty
** gap); law[j] is the gap's enum nsm_law; W is g*n (row j is w_j), the gap is
** w_j . x + d_j and the penetration of an engaged penalty gap p_j = -gap_j.
** Ground is at x = 0 and gravity acts as a weight -m g on every body.
*/
#ifndef NSM_ENERGY_H
#define NSM_ENERGY_H

#include "nsm/model.h"

/* Kinetic energy sum 1/2 m_i v_i^2. */
double nsm_energy_kinetic(int n, const double *mass, const double *y);

/* Spring potential sum 1/2 k_e ext_e^2, ext_e = x_b - x_a - rest_e (x = 0 for ground, index -1). */
double nsm_energy_springs(int n, int n_springs, const nsm_spring_info *sp, const double *sk,
                          const double *srest, const double *y);

/* Gravity potential sum m_i g x_i. */
double nsm_energy_gravity(int n, const double *mass, const double *gfac, double g,
                          const double *y);

/* Potential of the engaged penalty gaps: sum 1/2 kc_j p_j^2 (p not clamped:
** it is the potential of the engaged mode's linear contact spring). */
double nsm_energy_penalty(int n, int g, const unsigned *mode, const int *law, const double *W,
                          const double *d, const double *kc, const double *y);

/* Power of external forces f . v (f has n entries). */
double nsm_energy_power(int n, const double *f, const double *y);

#endif
