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

#include "law.h"

const rt_law *rt_law_table[RT_LAWS] = {
    [NSM_LAW_IMPACT] = &rt_law_impact,    /* law_impact.c */
    [NSM_LAW_PENALTY] = &rt_law_penalty,  /* law_penalty.c */
};

/* Register law under identifier id (the value of nsm_gap_info.law that
** selects it): NSM_OK, or NSM_EINVAL for an identifier out of range or
** taken by another law, or a law without a name or transition.  Not
** thread-safe: register before creating simulations. */
int rt_law_register(int id, const rt_law *law)
{
    if (id < 0 || id >= RT_LAWS || !law || !law->name || !law->transition)
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

/* After the model's numeric setup: each gap's law checks its parameters
** (setup); NSM_EMODEL with the message written by the first that refuses. */
int rt_law_setup(nsm_sim *s)
{
    for (int j = 0; j < s->g; j++) {
        const rt_law *law = rt_law_of(s, j);
        if (law->setup && law->setup(s, j)) {
            s->failed = NSM_EMODEL;
            return NSM_EMODEL;
        }
    }
    return NSM_OK;
}
