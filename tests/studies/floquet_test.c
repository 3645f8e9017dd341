/*
 * floquet_test.c - the forced impact oscillator's Floquet multipliers and
 * first period doubling, from the runtime's monodromy matrices (exact flow
 * and saltation matrices, runtime/studies/floquet.c), against the mpmath
 * reference (tests/reference/forced_impact_oscillator.py: the Jacobian of
 * the impact map in closed form, by differences - another method).
 *
 *     floquet_test REF_PERIOD1.csv REF_DOUBLING.csv
 *
 * 1. At every reference frequency: the simulation is run 200 forcing
 *    periods from the model's initial state, the period-1 orbit found by
 *    shooting from there (nsm_sim_periodic_orbit), and its multipliers must
 *    be the reference's to 1e-9; one more period with the impact section
 *    must land on the reference impact (speed, phase) to 1e-10.
 * 2. The period-1 branch is followed by shooting past the doubling, and the
 *    frequency where a multiplier crosses -1 (det(I + Phi) changing sign)
 *    is bisected to 1e-10: it must be the reference's omega_pd to 1e-8.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nsm/nsm.h"

extern const nsm_model nsm_model_forced_impact_oscillator;

static const double PI = 3.14159265358979323846;

typedef struct Ref {
    double omega, phase, u, t0, mu[4];
} Ref;

/* Last impact record of a section run: speed and phase. */
typedef struct Last {
    double v, phase;
    long n;
} Last;

static int on_rec(void *ud, const nsm_sim *sim, const nsm_section_record *r)
{
    Last *l = ud;
    (void)sim;
    l->v = r->y[1];
    l->phase = r->phase;
    l->n++;
    return 0;
}

/* Times of a stroboscopic section's records. */
typedef struct Strobe {
    double t[64];
    int n;
} Strobe;

static int on_strobe(void *ud, const nsm_sim *sim, const nsm_section_record *r)
{
    Strobe *st = ud;
    (void)sim;
    st->t[st->n++ % 64] = r->t;     /* the last 64 */
    return 0;
}

/* A stroboscopic section set before a monodromy (which runs the motion on
** without recording) resumes after it at its first time from then on, on
** the same grid k T. */
static int strobe_after_monodromy(nsm_sim *s, double w)
{
    double T = 2 * PI / w, Phi[4];
    Strobe st = { { 0 }, 0 };
    nsm_sim_set_initial_state(s, NULL);
    nsm_sim_set_param(s, "omega", w);
    nsm_sim_set_section(s, "period:2*pi/omega");
    nsm_sim_set_section_handler(s, on_strobe, &st);
    int rc = nsm_sim_reset(s) || nsm_sim_run_until(s, 200 * T);
    int before = st.n;
    rc = rc || nsm_sim_monodromy(s, 1.5 * T, Phi, NULL) || nsm_sim_run_until(s, 204.25 * T);
    int ok = !rc && st.n - before == 3;
    for (int k = before; ok && k < st.n; k++)
        ok = fabs(st.t[k % 64] - (202 + k - before) * T) <= 1e-9 * T;
    printf("%s a stroboscopic section resumes after a monodromy: %d records before, %d after it (t = %.6g T)%s%s\n",
           ok ? "ok  " : "FAIL", before, st.n - before, nsm_sim_time(s) / T, rc ? ": " : "", rc ? nsm_sim_message(s) : "");
    nsm_sim_set_section(s, NULL);
    return !ok;
}

/* The orbit at omega by shooting from y; multipliers sorted by (re, im). */
static int orbit(nsm_sim *s, double omega, double *y, double *mu)
{
    double re[2], im[2];
    nsm_sim_set_param(s, "omega", omega);
    if (nsm_sim_periodic_orbit(s, 2 * PI / omega, y, re, im)) {
        fprintf(stderr, "omega = %.17g: %s\n", omega, nsm_sim_message(s));
        return 1;
    }
    int a = re[0] < re[1] || (re[0] == re[1] && im[0] <= im[1]) ? 0 : 1;
    mu[0] = re[a], mu[1] = im[a], mu[2] = re[1 - a], mu[3] = im[1 - a];
    return 0;
}

/* det(I + Phi) = (1 + mu1)(1 + mu2): its sign change is a multiplier at -1. */
static double g_of(const double *mu)
{
    return (1 + mu[0]) * (1 + mu[2]) - mu[1] * mu[3];
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: floquet_test REF_PERIOD1.csv REF_DOUBLING.csv\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    Ref ref[64];
    int nref = 0, fails = 0;
    char line[2048];
    if (!f || !fgets(line, sizeof line, f))
        return 2;
    while (nref < 64 && fgets(line, sizeof line, f)) {
        Ref *r = &ref[nref];
        if (sscanf(line, "%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf", &r->omega, &r->phase, &r->u, &r->t0,
                   &r->mu[0], &r->mu[1], &r->mu[2], &r->mu[3]) == 8)
            nref++;
    }
    fclose(f);
    double wpd_ref;
    f = fopen(argv[2], "r");
    if (!f || !fgets(line, sizeof line, f) || !fgets(line, sizeof line, f) ||
        sscanf(line, "%lf", &wpd_ref) != 1)
        return 2;
    fclose(f);

    nsm_sim *s = nsm_sim_create(&nsm_model_forced_impact_oscillator);
    const int n2 = 2;
    double y[2], mu[4], worst_mu = 0, worst_u = 0, worst_ph = 0;
    for (int i = 0; i < nref; i++) {
        double w = ref[i].omega, T = 2 * PI / w;
        nsm_sim_set_initial_state(s, NULL);
        nsm_sim_set_param(s, "omega", w);
        if (nsm_sim_reset(s) || nsm_sim_run_until(s, 200 * T)) {
            printf("FAIL omega = %g: %s\n", w, nsm_sim_message(s));
            fails++;
            continue;
        }
        memcpy(y, nsm_sim_state(s), sizeof(double) * n2);
        if (orbit(s, w, y, mu)) {
            fails++;
            continue;
        }
        /* the two multipliers against the reference's, in the better of the
         * two pairings (a conjugate pair's order is a matter of rounding) */
        double d1 = 0, d2 = 0;
        for (int k = 0; k < 4; k++) {
            d1 = fmax(d1, fabs(mu[k] - ref[i].mu[k]));
            d2 = fmax(d2, fabs(mu[k] - ref[i].mu[(k + 2) % 4]));
        }
        double dmu = fmin(d1, d2);
        /* one period of the orbit with the impact section */
        Last l = { 0, 0, 0 };
        nsm_sim_set_section(s, "impact:stop");
        nsm_sim_set_section_period(s, "2*pi/omega");
        nsm_sim_set_section_handler(s, on_rec, &l);
        int rc = nsm_sim_reset(s) || nsm_sim_run_until(s, T);
        nsm_sim_set_section(s, NULL);
        double dph = fabs(l.phase - ref[i].phase), du = fabs(l.v - ref[i].u);
        dph = fmin(dph, 1 - dph);
        int ok = !rc && l.n == 1 && dmu <= 1e-9 && du <= 1e-10 && dph <= 1e-10;
        printf("%s omega = %.2f: multipliers %.12f%+.12fi, %.12f%+.12fi (off %.2g); impact "
               "speed off %.2g, phase off %.2g\n", ok ? "ok  " : "FAIL", w, mu[0], mu[1], mu[2],
               mu[3], dmu, du, dph);
        fails += !ok;
        worst_mu = fmax(worst_mu, dmu);
        worst_u = fmax(worst_u, du);
        worst_ph = fmax(worst_ph, dph);
    }

    /* the branch past the doubling, by shooting from the last reference orbit */
    double lo = ref[nref - 1].omega, hi = lo, ylo[2], yhi[2], mlo[4], mhi[4];
    nsm_sim_set_initial_state(s, NULL);
    nsm_sim_set_param(s, "omega", lo);
    nsm_sim_reset(s);
    nsm_sim_run_until(s, 200 * 2 * PI / lo);
    memcpy(ylo, nsm_sim_state(s), sizeof ylo);
    if (orbit(s, lo, ylo, mlo))
        return 1;
    memcpy(yhi, ylo, sizeof yhi);
    memcpy(mhi, mlo, sizeof mhi);
    while (g_of(mhi) > 0 && hi < 3) {
        lo = hi;
        memcpy(ylo, yhi, sizeof ylo);
        memcpy(mlo, mhi, sizeof mlo);
        hi += 0.01;
        if (orbit(s, hi, yhi, mhi))
            return 1;
    }
    if (!(g_of(mlo) > 0 && g_of(mhi) <= 0)) {
        printf("FAIL the doubling was not bracketed (g = %g at %g, %g at %g)\n", g_of(mlo), lo,
               g_of(mhi), hi);
        return 1;
    }
    while (hi - lo > 1e-10) {
        double mid = 0.5 * (lo + hi), ym[2], mm[4];
        memcpy(ym, ylo, sizeof ym);
        if (orbit(s, mid, ym, mm))
            return 1;
        if (g_of(mm) > 0) {
            lo = mid;
            memcpy(ylo, ym, sizeof ylo);
            memcpy(mlo, mm, sizeof mlo);
        } else {
            hi = mid;
        }
    }
    double wpd = 0.5 * (lo + hi);
    int ok = fabs(wpd - wpd_ref) <= 1e-8;
    printf("%s first period doubling at omega = %.12f (reference %.12f, off %.2g); the "
           "multipliers there %.12f, %.12f\n", ok ? "ok  " : "FAIL", wpd, wpd_ref,
           fabs(wpd - wpd_ref), mlo[0], mlo[2]);
    fails += !ok;
    fails += strobe_after_monodromy(s, ref[0].omega);
    printf("worst: multipliers %.2g, impact speed %.2g, phase %.2g\n%d failed\n", worst_mu,
           worst_u, worst_ph, fails);
    nsm_sim_free(s);
    return fails ? 1 : 0;
}
