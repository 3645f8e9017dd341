/*
 * coords.h - the names and units of a model's state columns, as the
 * programs head them (section.csv, basins, branches, HDF5): a coordinate's
 * own name and unit from the model's coordinate table (th.phi [rad],
 * D.vy [m/s]), BODY.x [m] and BODY.v [m/s] for a table without one.
 * Part of libnsmcli (the programs' library).
 */
#ifndef NSM_COORDS_H
#define NSM_COORDS_H

#include <stddef.h>

#include "nsm/model.h"

/* State column q of 2 n_bodies (positions, then velocities): its name into
 * name[len]; returns its unit (never NULL). */
const char *coords_label(const nsm_model *m, int q, char *name, size_t len);

/* State column q's whole name, as coords_label writes it, in a buffer of
 * its own size (a name has no length limit; free it), or NULL when out of
 * memory; its unit in *unit. */
char *coords_name(const nsm_model *m, int q, const char **unit);

/* The state column named `name` (coords_label's name, or BODY.x / BODY.v
 * as run-time expressions also take it), or -1. */
int coords_find(const nsm_model *m, const char *name);

#endif
