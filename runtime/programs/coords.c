/*
 * coords.c - the names and units of a model's state columns (coords.h).
 */
#include <stdio.h>
#include <string.h>

#include "coords.h"

/* State column q's name and unit: the coordinate table's when the model
 * has one, else a plain mass's BODY.x [m] / BODY.v [m/s]. */
const char *coords_label(const nsm_model *m, int q, char *name, size_t len)
{
    int n = m->n_bodies, i = q % (n > 0 ? n : 1), vel = q >= n;
    if (m->coords) {
        const nsm_coord_info *c = &m->coords[i];
        snprintf(name, len, "%s", vel ? c->v : c->x);
        const char *u = vel ? c->vunit : c->xunit;
        return u ? u : "";
    }
    snprintf(name, len, "%s.%c", m->body_names ? m->body_names[i] : "?", vel ? 'v' : 'x');
    return vel ? "m/s" : "m";
}

/* The state column named `name`: as coords_label names it, or BODY.x /
** BODY.v, the names run-time expressions and initial values also take
** (P.phi.x for P.phi); -1 for any other name. */
int coords_find(const nsm_model *m, const char *name)
{
    for (int q = 0; q < 2 * m->n_bodies; q++) {
        char s[160];
        coords_label(m, q, s, sizeof s);
        if (!strcmp(s, name))
            return q;
        snprintf(s, sizeof s, "%s.%c", m->body_names ? m->body_names[q % m->n_bodies] : "?",
                 q < m->n_bodies ? 'x' : 'v');
        if (!strcmp(s, name))
            return q;
    }
    return -1;
}
