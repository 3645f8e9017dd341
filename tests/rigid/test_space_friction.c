/*
** test_space_friction.c: the spatial friction elements nsmc writes for
** tests/rigid/tippe_top.nsm (the tippe top of Leine 2003 with mu = 0.3 and
** drilling friction at both spheres), read from the generated table
** against the model's parameters (docs/theory.md section 19, nsm/model.h's
** nsm_space_friction): the elements' names, gaps and body; setup's sf_*
** numbers (each sphere's centre and radius, the floor's normal, mu, e_F and
** the effective drilling radius 3 pi R / 16); setup's refusal of mu < 0; a
** setup called with the sf_* arrays absent (NULL, a runtime that predates
** them) writing none; and the run refused by the runtime's message until it
** handles spatial friction.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nsm/model.h"
#include "nsm/nsm.h"

#include "../unit/check.h"

extern const nsm_model nsm_model_tippe_top;

/* A slot of 256 zeroed doubles (more than any array of the top needs). */
static double *slot(void)
{
    return calloc(256, sizeof(double));
}

/* nsm_numeric with every array the top's setup writes, the sf_* ones only
** when with_sf. */
static void numeric_alloc(nsm_numeric *num, int with_sf)
{
    memset(num, 0, sizeof *num);
    double **d[] = { &num->mass, &num->fconst, &num->d, &num->e, &num->kc, &num->cc, &num->sk,
                     &num->sc, &num->srest, &num->ut, &num->fn, &num->mus, &num->muk,
                     &num->gfac, &num->radius, &num->et, &num->pexp, &num->kimp, &num->eimp,
                     &num->K.val, &num->C.val, &num->W.val, &num->Wt.val };
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++)
        *d[i] = slot();
    int **ix[] = { &num->K.row, &num->K.col, &num->C.row, &num->C.col, &num->W.row, &num->W.col,
                   &num->Wt.row, &num->Wt.col };
    for (size_t i = 0; i < sizeof ix / sizeof ix[0]; i++)
        *ix[i] = calloc(256, sizeof(int));
    if (!with_sf)
        return;
    double **sf[] = { &num->sf_centre, &num->sf_radius, &num->sf_normal, &num->sf_mu, &num->sf_et,
                      &num->sf_drill };
    for (size_t i = 0; i < sizeof sf / sizeof sf[0]; i++)
        *sf[i] = slot();
}

/* Frees what numeric_alloc allocated. */
static void numeric_free(nsm_numeric *num)
{
    double *d[] = { num->mass, num->fconst, num->d, num->e, num->kc, num->cc, num->sk, num->sc,
                    num->srest, num->ut, num->fn, num->mus, num->muk, num->gfac, num->radius,
                    num->et, num->pexp, num->kimp, num->eimp, num->K.val, num->C.val, num->W.val,
                    num->Wt.val, num->sf_centre, num->sf_radius, num->sf_normal, num->sf_mu,
                    num->sf_et, num->sf_drill };
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++)
        free(d[i]);
    int *ix[] = { num->K.row, num->K.col, num->C.row, num->C.col, num->W.row, num->W.col,
                  num->Wt.row, num->Wt.col };
    for (size_t i = 0; i < sizeof ix / sizeof ix[0]; i++)
        free(ix[i]);
}

/* The index of parameter `name` in the table, -1 when absent. */
static int param_index(const nsm_model *m, const char *name)
{
    for (int k = 0; k < m->n_params; k++)
        if (strcmp(m->params[k].name, name) == 0)
            return k;
    return -1;
}

int main(void)
{
    const nsm_model *m = &nsm_model_tippe_top;
    /* the parameters of the issue, in SI, written here */
    const double a1 = 0.003, a2 = 0.016, r1 = 0.015, r2 = 0.005, mu = 0.3, R = 0.0005;
    const double centre_z[2] = { a1, a2 }, radius[2] = { r1, r2 };
    static const char *const names[2] = { "ball_friction", "stem_friction" };
    static const char *const gaps[2] = { "ball", "stem" };
    check_true("two spatial friction elements", m->n_space_frictions == 2 && m->space_frictions);
    check_true("two sphere gaps, curved", m->n_gaps == 2 && m->gap_curved && m->gap_curved[0] &&
                                          m->gap_curved[1]);
    for (int k = 0; k < 2 && k < m->n_space_frictions; k++) {
        const nsm_space_friction *sf = &m->space_frictions[k];
        char what[120];
        snprintf(what, sizeof what, "element %d is named %s", k, names[k]);
        check_true(what, strcmp(sf->name, names[k]) == 0);
        snprintf(what, sizeof what, "element %d is at gap %s", k, gaps[k]);
        check_true(what, sf->gap >= 0 && sf->gap < m->n_gaps && strcmp(m->gaps[sf->gap].name, gaps[k]) == 0);
        snprintf(what, sizeof what, "element %d is on the top (rigid body 0)", k);
        check_true(what, sf->body == 0 && m->n_rigid == 1);
    }
    double *p = calloc((size_t)m->n_params + 1, sizeof(double)), *c = slot();
    for (int k = 0; k < m->n_params; k++)
        p[k] = m->params[k].value;
    nsm_numeric num;
    numeric_alloc(&num, 1);
    int rc = m->setup(p, c, &num);
    check_true("setup accepts the defaults", rc == 0);
    double drill = 3 * 3.14159265358979323846 * R / 16;
    for (int k = 0; k < 2; k++) {
        char what[120];
        for (int i = 0; i < 3; i++) {
            snprintf(what, sizeof what, "%s: sphere centre[%d]", names[k], i);
            check_close(what, num.sf_centre[3 * k + i], i == 2 ? centre_z[k] : 0, 1e-18);
            snprintf(what, sizeof what, "%s: floor normal[%d]", names[k], i);
            check_close(what, num.sf_normal[3 * k + i], i == 2 ? 1 : 0, 1e-16);
        }
        snprintf(what, sizeof what, "%s: sphere radius", names[k]);
        check_close(what, num.sf_radius[k], radius[k], 1e-18);
        snprintf(what, sizeof what, "%s: mu", names[k]);
        check_close(what, num.sf_mu[k], mu, 1e-16);
        snprintf(what, sizeof what, "%s: e_F", names[k]);
        check_close(what, num.sf_et[k], 0, 0);
        snprintf(what, sizeof what, "%s: drilling radius 3 pi R / 16", names[k]);
        check_close(what, num.sf_drill[k], drill, 1e-19);
    }
    numeric_free(&num);
    /* mu < 0 is refused by setup, naming mu */
    int imu = param_index(m, "mu");
    check_true("the table has parameter mu", imu >= 0);
    if (imu >= 0) {
        numeric_alloc(&num, 1);
        p[imu] = -0.1;
        check_true("setup refuses mu < 0 naming mu", m->setup(p, c, &num) == 1 + imu);
        p[imu] = mu;
        numeric_free(&num);
    }
    /* a runtime that predates the sf_* arrays leaves them NULL: setup writes none */
    numeric_alloc(&num, 0);
    check_true("setup without the sf_* arrays", m->setup(p, c, &num) == 0);
    numeric_free(&num);
    free(p);
    free(c);
    /* the run: its landing is a frictional impact (impact_space.c); the contact
     * held after it stops the run by name until the runtime handles friction
     * on held contacts in space */
    nsm_sim *s = nsm_sim_create(m);
    check_true("the top's simulation is created", s != NULL);
    if (s) {
        int run = nsm_sim_run_until(s, 0.01);
        const char *msg = nsm_sim_message(s);
        check_true("the run is refused", run != 0);
        check_true("the refusal names friction on a held contact and the element",
                   msg && strstr(msg, "friction on a held contact in space") &&
                   strstr(msg, "ball_friction"));
        printf("the run's message: %s\n", msg ? msg : "(none)");
        nsm_sim_free(s);
    }
    return check_report();
}
