/*
** energy.h: the energy terms of a model, as pure functions of the numeric
** tables (nsm/model.h: nsm_numeric) and a state y = (x[0..n-1], v[0..n-1]).
**
** Ground is at x = 0 and gravity acts as a weight -m g gfac on every body.
** The energy stored in closed gaps, which needs the gaps' rows, is their
** laws' (law.h: rt_law_stored).
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

/* Power of external forces f . v (f has n entries). */
double nsm_energy_power(int n, const double *f, const double *y);

#endif
