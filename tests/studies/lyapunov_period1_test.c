/*
 * lyapunov_period1_test.c - the Lyapunov spectrum (nsm_sim_lyapunov) of the
 * forced impact oscillator's period-1 orbits against the multipliers of the
 * mpmath reference (tests/reference/forced_impact_oscillator.py: Jacobian
 * of the impact map in closed form, by differences), through the exact
 * relation lambda_i = log|mu_i| / T on a periodic orbit of period T.
 *
 *     lyapunov_period1_test REF_PERIOD1.csv
 *
 * At every reference frequency the orbit is found by shooting
 * (nsm_sim_periodic_orbit) and the spectrum computed over N and 2N forcing
 * periods from the orbit's state, reorthonormalised once a period, so that
 * the product is Phi^N:
 *  - the sum of the exponents is log|mu1 mu2| / T to 1e-11 (the QR's
 *    diagonal holds det(Phi)^N exactly, whatever the frame);
 *  - for a complex pair each exponent is log|mu| / T up to the finite-time
 *    term, which oscillates within C / (N T) (C a log of the eigenvectors'
 *    conditioning): checked by |lambda_i - ref| <= 4 / (N T) at both
 *    lengths, so that the error shrinks with the run;
 *  - for real distinct multipliers (omega = 2.0: mu2/mu1 = 0.985) the
 *    finite-time term is c / N plus O(|mu2/mu1|^N): over 10 N and 20 N
 *    periods 2 lambda(20N) - lambda(10N) (one Richardson step) must be
 *    log|mu_i| / T to 1e-10.
 * A damped free linear oscillator without impacts has the exponents of the
 * real parts of its eigenvalues (the sum exact, tr A = -c/m), checked by
 * tests/studies/lyapunov_test.py through the simulator's --lyapunov.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nsm/nsm.h"

extern const nsm_model nsm_model_forced_impact_oscillator;

static const double PI = 3.14159265358979323846;

typedef struct Ref {
    double omega, mu[4];      /* mu1 re, im, mu2 re, im */
} Ref;

/* The spectrum over n periods from the orbit's state y (period T). */
static int spectrum(nsm_sim *s, const double *y, double T, int n, double *lam)
{
    if (nsm_sim_set_initial_state(s, y) || nsm_sim_reset(s))
        return 1;
    return nsm_sim_lyapunov(s, n * T, T, lam);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: lyapunov_period1_test REF_PERIOD1.csv\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    Ref ref[64];
    int nref = 0, fails = 0, nreal = 0;
    char line[2048];
    if (!f || !fgets(line, sizeof line, f))
        return 2;
    while (nref < 64 && fgets(line, sizeof line, f)) {
        Ref *r = &ref[nref];
        double ph, u, t0;
        if (sscanf(line, "%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf", &r->omega, &ph, &u, &t0, &r->mu[0],
                   &r->mu[1], &r->mu[2], &r->mu[3]) == 8)
            nref++;
    }
    fclose(f);
    if (nref < 20) {
        fprintf(stderr, "lyapunov_period1_test: %d reference rows, expected 22\n", nref);
        return 2;
    }
    nsm_sim *s = nsm_sim_create(&nsm_model_forced_impact_oscillator);
    const int N = 400;
    double worst_sum = 0, worst_c = 0, worst_r = 0;
    for (int i = 0; i < nref; i++) {
        double w = ref[i].omega, T = 2 * PI / w, y[2], mre[2], mim[2], l1[2], l2[2];
        nsm_sim_set_initial_state(s, NULL);
        nsm_sim_set_param(s, "omega", w);
        if (nsm_sim_reset(s) || nsm_sim_run_until(s, 200 * T) ||
            (memcpy(y, nsm_sim_state(s), sizeof y), nsm_sim_periodic_orbit(s, T, y, mre, mim)) ||
            spectrum(s, y, T, ref[i].mu[1] ? N : 10 * N, l1) ||
            spectrum(s, y, T, ref[i].mu[1] ? 2 * N : 20 * N, l2)) {
            printf("FAIL omega = %g: %s\n", w, nsm_sim_message(s));
            fails++;
            continue;
        }
        double a1 = hypot(ref[i].mu[0], ref[i].mu[1]), a2 = hypot(ref[i].mu[2], ref[i].mu[3]);
        double r1 = log(fmax(a1, a2)) / T, r2 = log(fmin(a1, a2)) / T;
        double esum = fmax(fabs(l1[0] + l1[1] - r1 - r2), fabs(l2[0] + l2[1] - r1 - r2));
        worst_sum = fmax(worst_sum, esum);
        if (!(esum <= 1e-11)) {
            printf("FAIL omega = %g: sum of the exponents %.17g, %.17g; log|mu1 mu2|/T = %.17g\n",
                   w, l1[0] + l1[1], l2[0] + l2[1], r1 + r2);
            fails++;
        }
        if (ref[i].mu[1] != 0) {
            /* a complex pair: both exponents log|mu|/T */
            double e1 = fmax(fabs(l1[0] - r1), fabs(l1[1] - r1));
            double e2 = fmax(fabs(l2[0] - r1), fabs(l2[1] - r1));
            worst_c = fmax(worst_c, e2);
            if (!(e1 <= 4 / (N * T)) || !(e2 <= 4 / (2 * N * T))) {
                printf("FAIL omega = %g: exponents %.12g %.12g (N) and %.12g %.12g (2N), "
                       "log|mu|/T = %.12g\n", w, l1[0], l1[1], l2[0], l2[1], r1);
                fails++;
            }
        } else {
            double x1 = 2 * l2[0] - l1[0], x2 = 2 * l2[1] - l1[1];
            double e = fmax(fabs(x1 - r1), fabs(x2 - r2));
            worst_r = fmax(worst_r, e);
            nreal++;
            if (!(e <= 1e-10)) {
                printf("FAIL omega = %g: extrapolated exponents %.15g %.15g, log|mu_i|/T = "
                       "%.15g %.15g\n", w, x1, x2, r1, r2);
                fails++;
            }
        }
    }
    if (nreal == 0) {
        printf("FAIL: no reference orbit with real multipliers (omega = 2.0 expected)\n");
        fails++;
    }
    printf("lyapunov period-1: %d orbits, worst sum %.2g, complex pairs at 2N %.2g, real "
           "(extrapolated) %.2g\n", nref, worst_sum, worst_c, worst_r);
    /* bad arguments: refused, not run */
    double lam[2];
    nsm_sim_set_initial_state(s, NULL);
    if (nsm_sim_reset(s) || nsm_sim_lyapunov(s, 0, 1, lam) != NSM_EINVAL ||
        nsm_sim_lyapunov(s, 10, -1, lam) != NSM_EINVAL || nsm_sim_lyapunov(s, 10, NAN, lam) !=
        NSM_EINVAL || nsm_sim_time(s) != 0) {
        printf("FAIL: a non-positive duration or interval is not refused with NSM_EINVAL\n");
        fails++;
    }
    nsm_sim_free(s);
    return fails ? 1 : 0;
}
