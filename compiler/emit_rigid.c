/*
 * emit_rigid.c - what the C back end writes for bodies in space
 * (docs/theory.md section 19, nsm/model.h): the kinematic map
 * q' = B(q) u, kin(), each rigid body's rotational velocity index, and the
 * table's state layout (nq positions, nu velocities).
 */
#include "emit.h"

/* rigid_rot[] and kin(): r' = v and p' = p (x) (0, w) / 2 per body, in the
** runtime's layout (velocities after the nq positions, p0 at n + b). */
void rigid_emit_kin(const Model *m, FILE *o)
{
    int n = m->n_bodies, nq = m->nq;
    fprintf(o, "/* The velocity index of each rigid body's w1 (its p1, p2, p3 sit in the position\n"
               " * slots of w1, w2, w3; its p0 in position %d + body). */\n"
               "static const int rigid_rot[] = {", n);
    for (int b = 0; b < m->n_rigids; b++)
        fprintf(o, "%s%d", b ? ", " : "", m->rigids[b].ix + 3);
    fprintf(o, "};\n\n");
    fprintf(o, "/* q' = B(q) u: each centre of mass moves with its velocity, each quaternion\n"
               " * turns as p' = p (x) (0, w) / 2, w in the body frame (docs/theory.md section 19). */\n"
               "static void kin(const double *y, const double *p, const double *c, double *qd)\n{\n"
               "    (void)p;\n    (void)c;\n");
    for (int i = 0; i < n; i++)
        if (m->bodies[i].coord != COORD_ROT)
            fprintf(o, "    qd[%d] = y[%d];   /* %s */\n", i, nq + i, m->bodies[i].vname);
    for (int b = 0; b < m->n_rigids; b++) {
        int r = m->rigids[b].ix + 3, u = nq + r;
        fprintf(o, "    {   /* %s */\n", m->rigids[b].name);
        fprintf(o, "        double p0 = y[%d], p1 = y[%d], p2 = y[%d], p3 = y[%d];\n", n + b, r, r + 1, r + 2);
        fprintf(o, "        double w1 = y[%d], w2 = y[%d], w3 = y[%d];\n", u, u + 1, u + 2);
        fprintf(o, "        qd[%d] = -0.5 * (p1 * w1 + p2 * w2 + p3 * w3);\n", n + b);
        fprintf(o, "        qd[%d] = 0.5 * (p0 * w1 + p2 * w3 - p3 * w2);\n", r);
        fprintf(o, "        qd[%d] = 0.5 * (p0 * w2 + p3 * w1 - p1 * w3);\n", r + 1);
        fprintf(o, "        qd[%d] = 0.5 * (p0 * w3 + p1 * w2 - p2 * w1);\n", r + 2);
        fprintf(o, "    }\n");
    }
    fprintf(o, "}\n\n");
}

/* The table's layout entries: nq = n + n_rigid positions, nu = n velocities. */
void rigid_emit_table(const Model *m, FILE *o)
{
    fprintf(o, "    .nq = %d,\n    .nu = %d,\n    .n_rigid = %d,\n    .rigid_rot = rigid_rot,\n"
               "    .kin = kin,\n", m->nq, m->n_bodies, m->n_rigids);
}

/* The spatial friction elements' list (nsm/model.h's nsm_space_friction):
 * each one's name, its sphere gap and that sphere's rigid body. */
void sfric_emit_list(const Model *m, FILE *o)
{
    if (!m->n_sfrics)
        return;
    fprintf(o, "/* Spatial Coulomb friction at sphere gaps: name, gap, rigid body (their numbers\n"
               " * are setup's num->sf_*; docs/theory.md section 19). */\n"
               "static const nsm_space_friction space_frictions[] = {\n");
    for (int k = 0; k < m->n_sfrics; k++) {
        const SpaceFriction *sf = &m->sfrics[k];
        fprintf(o, "    { \"%s\", %d, %d },\n", sf->name, sf->gap, m->gaps[sf->gap].sphere->rigid);
    }
    fprintf(o, "};\n\n");
}

/* The table's entries of the spatial friction elements. */
void sfric_emit_table(const Model *m, FILE *o)
{
    if (m->n_sfrics)
        fprintf(o, "    .n_space_frictions = %d,\n    .space_frictions = space_frictions,\n",
                m->n_sfrics);
}
