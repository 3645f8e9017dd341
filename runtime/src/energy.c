/*
** energy.c: energy terms of a model for the runtime's energy audit.
**
** Pure functions: no state, no output. The potentials are those whose
** gradients give the forces of nsm/model.h's equations of motion, so that
** kinetic + potentials - injected + dissipated is constant along an exact
** trajectory of any mode.
*/
#include "energy.h"

#include <string.h>

/* 1/2 sum m v^2. */
double nsm_energy_kinetic(int n, const double *mass, const double *y)
{
    double e = 0.0;
    int i;

    for (i = 0; i < n; i++) e += mass[i] * y[n + i] * y[n + i];
    return 0.5 * e;
}

/* 1/2 sum k ext^2 over spring elements, the ground's position being 0. */
double nsm_energy_springs(int n, int n_springs, const nsm_spring_info *sp, const double *sk,
                          const double *srest, const double *y)
{
    double e = 0.0;
    int s;

    (void)n;
    for (s = 0; s < n_springs; s++) {
        double xa = sp[s].a >= 0 ? y[sp[s].a] : 0.0;
        double xb = sp[s].b >= 0 ? y[sp[s].b] : 0.0;
        double ext = xb - xa - srest[s];
        e += sk[s] * ext * ext;
    }
    return 0.5 * e;
}

/* sum m g gfac x: the potential of the weight -m g gfac (gfac NULL: 1, the
** line; a planar coordinate's gfac is minus gravity's direction along it).
** No weight, no potential: at g = 0 the direction G/|G| is 0/0, NaN (a
** body in space at --set g=0 wrote energy.error NaN and a status line
** blaming energies beyond a double's range). */
double nsm_energy_gravity(int n, const double *mass, const double *gfac, double g,
                          const double *y)
{
    double e = 0.0;
    int i;

    if (g == 0)
        return 0.0;

    for (i = 0; i < n; i++) e += mass[i] * (gfac ? gfac[i] : 1.0) * y[i];
    return g * e;
}

/* f . v. */
double nsm_energy_power(int n, const double *f, const double *y)
{
    double p = 0.0;
    int i;

    for (i = 0; i < n; i++) p += f[i] * y[n + i];
    return p;
}
