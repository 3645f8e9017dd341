/*
 * coords.c - the names and units of a model's state columns (coords.h).
 */
#include <stdio.h>
#include <stdlib.h>
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

/* State column q's whole name in a buffer of its own size (coords.h):
** the bodies' names and the table's have no length limit, and a fixed
** buffer cut them (two 2000-character bodies alike in their first 157
** were headed alike in section.csv and /section). */
char *coords_name(const nsm_model *m, int q, const char **unit)
{
    int n = m->n_bodies, i = q % (n > 0 ? n : 1), vel = q >= n;
    size_t len = m->coords ? strlen(vel ? m->coords[i].v : m->coords[i].x) + 1
                           : strlen(m->body_names ? m->body_names[i] : "?") + 3;
    char *name = malloc(len);
    if (name)
        *unit = coords_label(m, q, name, len);
    return name;
}

/* Whether name is BODY.x (q a position) or BODY.v of state column q's body. */
static int body_coord(const nsm_model *m, int q, const char *name)
{
    const char *body = m->body_names ? m->body_names[q % m->n_bodies] : "?";
    size_t n = strlen(body);
    return !strncmp(name, body, n) && name[n] == '.' && name[n + 1] == (q < m->n_bodies ? 'x' : 'v')
           && name[n + 2] == 0;
}

/* The state column named `name`: as coords_label names it, or BODY.x /
** BODY.v, the names run-time expressions and initial values also take
** (P.phi.x for P.phi); -1 for any other name. */
int coords_find(const nsm_model *m, const char *name)
{
    for (int q = 0; q < 2 * m->n_bodies; q++) {
        const char *unit;
        char *s = coords_name(m, q, &unit);
        int same = s && !strcmp(s, name);
        free(s);
        if (same || body_coord(m, q, name))
            return q;
    }
    return -1;
}
