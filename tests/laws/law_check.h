/*
** law_check.h: what the contact-law test programs (test_force_law.c,
** test_toy_law.c) share: the failure count, a check against a reference
** within a tolerance, the refusal of a model whose law was not registered,
** and creating and running a simulation that counts a failure when the
** runtime refuses.  Included once per program (static: each program keeps
** its own count).
*/
#ifndef NSM_TEST_LAW_CHECK_H
#define NSM_TEST_LAW_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nsm/nsm.h"

static int failures;

/* One check: |got - want| <= tol, or a FAIL line. */
static inline void check(const char *what, double got, double want, double tol)
{
    int ok = fabs(got - want) <= tol;
    printf("%s %s: %.15g (reference %.15g)\n", ok ? "ok  " : "FAIL", what, got, want);
    failures += !ok;
}

/* Without its law's registration model m must be refused, with the reason;
** 0 when it is. */
static inline int law_unregistered(const nsm_model *m)
{
    const char *why = NULL;
    nsm_sim *s = nsm_sim_create(m);
    int refused = !s && nsm_model_check(m, &why) == NSM_EMODEL && why &&
                  strstr(why, "contact law");
    printf("%s unregistered law refused: %s\n", refused ? "ok  " : "FAIL",
           why ? why : "(no reason)");
    nsm_sim_free(s);
    return refused ? 0 : 1;
}

/* A simulation of model m with method (what names the run in the output),
** or NULL and a failure counted when the runtime refuses the model. */
static inline nsm_sim *law_sim(const nsm_model *m, int method, const char *what)
{
    nsm_sim *s = nsm_sim_create(m);
    if (!s) {
        printf("FAIL %s: the model was refused\n", what);
        failures++;
        return NULL;
    }
    nsm_sim_set_method(s, method);
    printf("%s, method %s\n", what, nsm_method_name(method));
    return s;
}

/* Run s to t, or count a failure with the run's message; 0 when it ran. */
static inline int law_run_to(nsm_sim *s, double t)
{
    if (nsm_sim_run_until(s, t) == NSM_OK)
        return 0;
    printf("FAIL run: %s\n", nsm_sim_message(s));
    failures++;
    return 1;
}

#endif
