/*
** mem_check.c: the runtime's memory grows with the model's elements, not
** with n^2.  Runs tests/runtime/chain10000.nsm (10000 beads, 9999 springs
** and 9999 gaps: any dense n x n table of doubles is 800 MB) with rk4 for
** 2 ms, through the first bead's impact on the second, and checks
**   - the run ends without failure and G[1] was hit (the generic impact
**     path ran at this size);
**   - outside the sanitizers, under an address-space cap of 512 MB
**     (RLIMIT_AS: an n x n allocation fails even if never touched), and
**   - the peak resident set (getrusage) stays below 200 MB, 600 MB under
**     AddressSanitizer (its shadow and quarantine of freed blocks).
** The cap is set before the simulator is created.  Exit 0 when all hold.
*/
#include <stdio.h>
#include <sys/resource.h>

#include "nsm/nsm.h"

#if defined(__SANITIZE_ADDRESS__)
#define NSM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NSM_ASAN 1
#endif
#endif

extern const nsm_model nsm_model_chain10000;

static int hits;

/* Count the impacts on G[1] (gap 0). */
static int on_event(void *ud, const nsm_sim *sim, const nsm_event *ev)
{
    (void)ud;
    (void)sim;
    hits += ev->kind == NSM_EV_IMPACT && ev->contact == 0;
    return 0;
}

int main(void)
{
#ifdef NSM_ASAN
    const double cap_mb = 600;
#else
    const double cap_mb = 200;
    struct rlimit rl = { 512UL << 20, 512UL << 20 };
    if (setrlimit(RLIMIT_AS, &rl) != 0) {
        perror("mem_check: setrlimit");
        return 1;
    }
#endif
    nsm_sim *s = nsm_sim_create(&nsm_model_chain10000);
    if (!s) {
        fprintf(stderr, "mem_check: the simulator could not be created within 512 MB\n");
        return 1;
    }
    nsm_sim_set_event_handler(s, on_event, NULL);
    int rc = nsm_sim_run_until(s, 2e-3);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double mb = ru.ru_maxrss / 1024.0;
    printf("mem_check: status %d, %d impacts on G[1], %ld steps, peak resident %.1f MB (cap %.0f MB)\n",
           rc, hits, nsm_sim_steps(s), mb, cap_mb);
    if (rc != NSM_OK)
        fprintf(stderr, "mem_check: the run failed: %s\n", nsm_sim_message(s));
    nsm_sim_free(s);
    if (rc != NSM_OK || hits < 1)
        return 1;
    if (!(mb < cap_mb)) {
        fprintf(stderr, "mem_check: peak resident set %.1f MB is above %.0f MB: O(n^2) memory?\n",
                mb, cap_mb);
        return 1;
    }
    return 0;
}
