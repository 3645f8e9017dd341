/*
** laws.c: the table of contact laws (law.h; docs/runtime.md, "How to add
** a contact law").
**
** A gap's nsm_gap_info.law indexes rt_law_table.  The laws of the runtime
** are registered here, one line each; a program adds its own with
** rt_law_register before it creates a simulation.  nsm_model_check refuses
** a model whose gap names a law absent from the table, so that nothing
** below reads an empty entry.
*/
#include <stdio.h>
#include <stdlib.h>

#include "law.h"

const rt_law *rt_law_table[RT_LAWS] = {
    [NSM_LAW_IMPACT] = &rt_law_impact,    /* law_impact.c */
    [NSM_LAW_PENALTY] = &rt_law_penalty,  /* law_penalty.c */
};

/* Register law under identifier id (the value of nsm_gap_info.law that
** selects it): NSM_OK, or NSM_EINVAL for an identifier out of range or
** taken by another law, or a law without a name, event, event_tol, form,
** initial or transition, a constraint law without its restitution or a
** force element's law without its force and its force's rate.  Not
** thread-safe: register before creating simulations. */
int rt_law_register(int id, const rt_law *law)
{
    if (id < 0 || id >= RT_LAWS || !law || !law->name || !law->transition || !law->event ||
        !law->event_tol || !law->form || !law->initial || (law->constraint && !law->restitution) ||
        (!law->constraint && (!law->force || !law->force_rate)))
        return NSM_EINVAL;
    if (rt_law_table[id] && rt_law_table[id] != law)
        return NSM_EINVAL;
    rt_law_table[id] = law;
    return NSM_OK;
}

/* Whether law identifier id names a registered law. */
int rt_law_known(int id)
{
    return id >= 0 && id < RT_LAWS && rt_law_table[id];
}

/* Name of contact law `law` ("impact", "penalty", ...), "?" if it is not
** registered. */
const char *nsm_law_name(int law)
{
    return rt_law_known(law) ? rt_law_table[law]->name : "?";
}

/* Bind each gap of the simulation to its law (s->law, read on every
** step: one load, as the model table's law field was), count the force
** elements among them (n_force_gaps: the energy rates' damping loop is skipped
** without one, at every evaluation of the dynamics) and mark the
** constraints (constraint_gaps: a mode's held contacts are found a word at
** a time, at every evaluation of the dynamics), with room for their
** dampings (law_c, filled by rt_law_setup) and the constants a law's setup
** caches for its event tolerance (law_tol_k, law_tol_gap); nsm_model_check has made sure
** they are registered.  NSM_ENOMEM, or NSM_OK. */
int rt_law_bind(nsm_sim *s)
{
    s->law = calloc((size_t)s->n_gaps + 1, sizeof *s->law);
    s->law_c = calloc((size_t)s->n_gaps + 1, sizeof *s->law_c);
    s->law_tol_k = calloc((size_t)s->n_gaps + 1, sizeof *s->law_tol_k);
    s->law_tol_gap = calloc((size_t)s->n_gaps + 1, sizeof *s->law_tol_gap);
    s->constraint_gaps = calloc((size_t)s->mode_words, sizeof *s->constraint_gaps);
    if (!s->law || !s->law_c || !s->law_tol_k || !s->law_tol_gap || !s->constraint_gaps)
        return NSM_ENOMEM;
    s->n_force_gaps = 0;
    for (int j = 0; j < s->n_gaps; j++) {
        s->law[j] = rt_law_table[s->m->gaps[j].law];
        s->n_force_gaps += !s->law[j]->constraint;
        if (s->law[j]->constraint)
            rt_mode_add(s->constraint_gaps, j);
    }
    return NSM_OK;
}

/* Free what rt_law_bind allocated. */
void rt_law_free(nsm_sim *s)
{
    free(s->law);
    free(s->law_c);
    free(s->law_tol_k);
    free(s->law_tol_gap);
    free(s->constraint_gaps);
    s->constraint_gaps = NULL;
    s->law = NULL;
    s->law_c = NULL;
    s->law_tol_k = NULL;
    s->law_tol_gap = NULL;
}

/* Whether constraint gap j's restitution (its law's impulse rule, at a
** vanishing approach) lies in [0, 1]: more would create energy at every
** impact, less would pull.  0, or 1 with s->msg written. */
static int law_restitution_bad(nsm_sim *s, int j)
{
    double e = rt_law_restitution(s, j, 0);
    if (e >= 0 && e <= 1)
        return 0;
    rt_text_printf(s->msg, sizeof s->msg, "gap '%s': its restitution e = %.12g is not in [0, 1]",
                    s->m->gaps[j].name, e);
    return 1;
}

/* Whether force-element gap j's force is nonlinear in a model whose table
** says it is linear (nsm_model.nl without NSM_NL_PENALTY): the linear
** model's paths (the exact method's matrices, the derived modes) would
** apply the force's linear part k p + c p' only.  0, or 1 with s->msg
** written. */
static int law_nonlinear_bad(nsm_sim *s, int j)
{
    if ((s->m->nl & NSM_NL_PENALTY) || rt_law_linear(s, j))
        return 0;
    rt_text_printf(s->msg, sizeof s->msg, "gap '%s': its contact law '%s' has a nonlinear force, "
                    "but the model's table does not declare it nonlinear (nsm_model.nl lacks "
                    "NSM_NL_PENALTY)", s->m->gaps[j].name, rt_law_of(s, j)->name);
    return 1;
}

/* After the model's numeric setup: each contact's law checks its
** parameters (setup: the gaps', then the friction elements' at their first
** columns), a constraint gap's restitution must be one an impact can
** apply and a nonlinear force element needs a nonlinear model; NSM_EMODEL
** with the message written by the first that refuses.  Then each gap's
** closed damping is read from its law once (law_c: the parameters are
** fixed until the next setup), for the energy rates and the operators that
** ask it at every evaluation. */
int rt_law_setup(nsm_sim *s)
{
    for (int j = 0; j < s->n_events; j += j < s->n_gaps ? 1 : 2) {
        const rt_law *law = rt_law_column(s, j);
        if ((law->setup && law->setup(s, j)) ||
            (j < s->n_gaps && law->constraint && law_restitution_bad(s, j)) ||
            (j < s->n_gaps && !law->constraint && law_nonlinear_bad(s, j))) {
            s->failed = NSM_EMODEL;
            return NSM_EMODEL;
        }
    }
    for (int j = 0; j < s->n_gaps; j++)
        s->law_c[j] = s->law[j]->damping ? s->law[j]->damping(s, j) : 0;
    return NSM_OK;
}
