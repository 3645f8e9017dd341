/*
** cradle_run.c: runs one generated simulator (NSM_MODEL, compiled with
** NSM_NO_MAIN) through libnsmrt's API and prints what the independent
** references of tests/reference/cradle.py compare, at full precision:
**
**     cradle_run METHOD T_END [--no-zeno] [NAME=VALUE ...]
**
** prints `status RC`, one `event KIND CONTACT T VREL_BEFORE VREL_AFTER
** IMPULSE COUNT` line per event, `mode MASK`, then `x I X` and `v I V` for
** every body at the end.  Exit 0 unless the command line is wrong.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nsm/nsm.h"

extern const nsm_model NSM_MODEL;

/* Print one event as it comes. */
static int on_event(void *ud, const nsm_sim *sim, const nsm_event *ev)
{
    (void)ud;
    (void)sim;
    printf("event %s %d %.17g %.17g %.17g %.17g %ld\n", nsm_event_kind_name(ev->kind), ev->contact,
           ev->t, ev->vrel_before, ev->vrel_after, ev->impulse, ev->count);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s METHOD T_END [--no-zeno] [NAME=VALUE ...]\n", argv[0]);
        return 1;
    }
    nsm_sim *s = nsm_sim_create(&NSM_MODEL);
    int method = nsm_method_parse(argv[1]);
    if (!s || method < 0 || nsm_sim_set_method(s, method)) {
        fprintf(stderr, "%s: bad method '%s'\n", argv[0], argv[1]);
        return 1;
    }
    nsm_sim_set_event_handler(s, on_event, NULL);
    for (int k = 3; k < argc; k++) {
        char name[64];
        const char *eq = strchr(argv[k], '=');
        if (!strcmp(argv[k], "--no-zeno")) {
            nsm_sim_set_zeno(s, 0);
            continue;
        }
        if (!eq || eq - argv[k] >= (long)sizeof name) {
            fprintf(stderr, "%s: bad argument '%s'\n", argv[0], argv[k]);
            return 1;
        }
        memcpy(name, argv[k], (size_t)(eq - argv[k]));
        name[eq - argv[k]] = 0;
        int src = nsm_sim_set_param(s, name, strtod(eq + 1, NULL));
        if (src) {
            if (src == NSM_EMODEL)
                fprintf(stderr, "%s: %s\n", argv[0], nsm_sim_message(s));
            else
                fprintf(stderr, "%s: unknown parameter '%s'\n", argv[0], name);
            return 1;
        }
    }
    int rc = nsm_sim_run_until(s, strtod(argv[2], NULL));
    printf("status %d %s\n", rc, rc ? nsm_sim_message(s) : "");
    printf("mode %u\n", nsm_sim_mode(s));
    int n = NSM_MODEL.n_bodies;
    const double *y = nsm_sim_state(s);
    for (int i = 0; i < n; i++)
        printf("x %d %.17g\n", i, y[i]);
    for (int i = 0; i < n; i++)
        printf("v %d %.17g\n", i, y[n + i]);
    nsm_sim_free(s);
    return 0;
}
