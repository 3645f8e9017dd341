/* sweep.c: rest time of the bouncing ball for several restitutions. */
#include <stdio.h>

#include "nsm/nsm.h"

extern const nsm_model nsm_model_bouncing_ball;

typedef struct Stats {
    long impacts, cascade;
    double t_rest;
} Stats;

/* Event handler: count impacts, remember when the ball sticks. */
static int on_event(void *ud, const nsm_sim *sim, const nsm_event *ev)
{
    Stats *st = ud;
    (void)sim;
    if (ev->kind == NSM_EV_IMPACT)
        st->impacts++;
    if (ev->kind == NSM_EV_ZENO)
        st->cascade = ev->count;    /* impacts of the geometric cascade detected */
    if (ev->kind == NSM_EV_STICK && st->t_rest < 0)
        st->t_rest = ev->t;
    return 0;                       /* nonzero would stop the run */
}

int main(void)
{
    const double es[] = { 0.5, 0.7, 0.9 };
    nsm_sim *sim = nsm_sim_create(&nsm_model_bouncing_ball);
    if (!sim)
        return 1;
    nsm_sim_set_method(sim, NSM_METHOD_EXACT);
    for (int i = 0; i < 3; i++) {
        Stats st = { 0, 0, -1 };
        nsm_sim_set_event_handler(sim, on_event, &st);
        nsm_sim_set_param(sim, "e", es[i]);
        if (nsm_sim_reset(sim) != NSM_OK || nsm_sim_run_until(sim, 30.0) != NSM_OK) {
            fprintf(stderr, "e = %g: %s\n", es[i], nsm_sim_message(sim));
            nsm_sim_free(sim);
            return 1;
        }
        printf("e = %g: at rest at t = %.12f s after %ld impacts (Zeno jump after %ld), "
               "energy error %.1e J\n", es[i], st.t_rest, st.impacts, st.cascade,
               nsm_sim_energy(sim, NULL, NULL, NULL, NULL));
    }
    nsm_sim_free(sim);
    return 0;
}
