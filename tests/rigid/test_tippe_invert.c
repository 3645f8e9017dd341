/*
** test_tippe_invert.c: the tippe top (models/tippe_top.nsm, Leine 2003's
** parameters, mu = 0.3 with drilling friction at both spheres) run its
** whole 8 s by the method named on the command line (rk4, adaptive, taylor):
**   - the landing and the stem's first contact against the independent
**     series integration tests/reference/tippe_top.py (mpmath: landing
**     5.047346488959237992e-5 s, stem 1.371043834339366705293 s);
**   - the inversion: the ball's first lift-off after the stem's contact
**     and the first instant theta comes within 0.1 rad of pi, reported
**     (docs/validation.md); the top standing on its stem between them and
**     3 s, its height there the stem's standing height r2 - a2 cos(theta)
**     (geometry) and the ball open;
**   - both spheres held together (after the top falls back, its spin
**     spent by drilling friction below the gyroscopic threshold): the
**     axis at cos(theta) = (r2 - r1) / (a2 - a1) = -10/13 and the centre at
**     r1 - a1 cos(theta) (geometry alone);
**   - the energy balance (friction work and the impacts' losses booked)
**     over the 8 s within 1e-10 of the largest energy.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nsm/model.h"
#include "nsm/nsm.h"

#include "../unit/check.h"

extern const nsm_model nsm_model_tippe_top;

static const double PI = 3.14159265358979323846;
static const double A1 = 0.003, A2 = 0.016, R1 = 0.015, R2 = 0.005;

/* What the run saw: the first impacts of the ball (0) and the stem (1),
** the ball's first separation after the stem's impact, the first sample
** with theta within 0.1 rad of pi, the largest theta, and the samples'
** checks of the phases on the stem alone and on both spheres. */
typedef struct {
    double t_imp[2], t_off, t_inv, th_max;
    int n_imp[2];
    int n_stem, n_both;           /* samples on the stem alone / on both */
    double stem_gap, both_cos, both_z;   /* their worst misfits */
} Log;

/* cos(theta) = e3_z of the (homogeneous) quaternion in state y. */
static double e3z(const double *y)
{
    double p1 = y[3], p2 = y[4], p3 = y[5], p0 = y[6];
    return (p0 * p0 - p1 * p1 - p2 * p2 + p3 * p3) / (p0 * p0 + p1 * p1 + p2 * p2 + p3 * p3);
}

/* Event handler: first impacts, the ball's lift-off after the stem's. */
static int on_event(void *ud, const nsm_sim *sim, const nsm_event *ev)
{
    (void)sim;
    Log *L = ud;
    if (ev->kind == NSM_EV_IMPACT && ev->contact >= 0 && ev->contact < 2 && !L->n_imp[ev->contact]++)
        L->t_imp[ev->contact] = ev->t;
    if (ev->kind == NSM_EV_SEPARATION && ev->contact == 0 && L->n_imp[1] && L->t_off == 0)
        L->t_off = ev->t;
    return 0;
}

/* Sample handler (every ms): theta's first approach to pi and its largest
** value; the held phases' geometry. */
static int on_sample(void *ud, const nsm_sim *sim, double t)
{
    Log *L = ud;
    const double *y = nsm_sim_state(sim);
    double c = e3z(y), th = acos(fmax(-1, fmin(1, c)));
    L->th_max = fmax(L->th_max, th);
    if (L->t_inv == 0 && th >= PI - 0.1)
        L->t_inv = t;
    int ball = nsm_sim_mode_has(sim, 0), stem = nsm_sim_mode_has(sim, 1);
    if (stem && !ball) {
        L->n_stem++;
        L->stem_gap = fmax(L->stem_gap, fabs(y[2] + A2 * c - R2));
    }
    if (stem && ball) {
        L->n_both++;
        L->both_cos = fmax(L->both_cos, fabs(c + 10.0 / 13));
        L->both_z = fmax(L->both_z, fabs(y[2] - (R1 - A1 * c)));
    }
    return 0;
}

int main(int argc, char **argv)
{
    static const double t_land = 5.047346488959237992301767e-5, t_stem = 1.371043834339366705293;
    const char *mname = argc > 1 ? argv[1] : "rk4";
    int method = nsm_method_parse(mname);
    char what[200];
    nsm_sim *s = nsm_sim_create(&nsm_model_tippe_top);
    Log L;
    memset(&L, 0, sizeof L);
    check_true("tippe top created", s != NULL && method >= 0);
    if (!s || method < 0)
        return check_report();
    nsm_sim_set_method(s, method);
    nsm_sim_set_every(s, 1e-3);
    nsm_sim_set_event_handler(s, on_event, &L);
    nsm_sim_set_sample_handler(s, on_sample, &L);
    check_true("tippe top reset", nsm_sim_reset(s) == 0);
    double kin0, pot0, diss0, inj0;
    nsm_sim_energy(s, &kin0, &pot0, &diss0, &inj0);
    double top = kin0 + fabs(pot0);
    int rc = nsm_sim_run_until(s, 3.0);
    snprintf(what, sizeof what, "%s tippe top runs to 3 s", mname);
    check_true(what, rc == 0);
    if (rc)
        printf("  %s\n", nsm_sim_message(s));
    const double *y = nsm_sim_state(s);
    snprintf(what, sizeof what, "%s at 3 s the top stands on its stem, the ball open", mname);
    check_true(what, nsm_sim_mode_has(s, 1) && !nsm_sim_mode_has(s, 0) && e3z(y) < cos(PI - 0.1));
    rc = nsm_sim_run_until(s, 8.0);
    snprintf(what, sizeof what, "%s tippe top runs its 8 s", mname);
    check_true(what, rc == 0);
    if (rc)
        printf("  %s\n", nsm_sim_message(s));
    y = nsm_sim_state(s);
    snprintf(what, sizeof what, "%s landing at the reference's instant", mname);
    check_close(what, L.t_imp[0], t_land, 3e-14);
    snprintf(what, sizeof what, "%s stem's first contact at the reference's instant", mname);
    check_close(what, L.t_imp[1], t_stem, 1e-12);
    snprintf(what, sizeof what, "%s the ball lifts off after the stem's contact", mname);
    check_true(what, L.t_off > t_stem && L.t_off < 1.5);
    snprintf(what, sizeof what, "%s theta comes within 0.1 rad of pi", mname);
    check_true(what, L.t_inv > L.t_off);
    snprintf(what, sizeof what, "%s on the stem: its height r2 - a2 cos(theta)", mname);
    check_true(what, L.n_stem > 1000 && L.stem_gap <= 1e-12 * R1);
    snprintf(what, sizeof what, "%s on both spheres: cos(theta) = -10/13, z = r1 - a1 cos(theta)",
             mname);
    check_true(what, L.n_both > 100 && L.both_cos <= 1e-11 && L.both_z <= 1e-12 * R1);
    double kin, pot, diss, inj, err = nsm_sim_energy(s, &kin, &pot, &diss, &inj);
    snprintf(what, sizeof what, "%s energy balance over the 8 s", mname);
    check_close(what, err, 0, 1e-10 * top);
    printf("%s tippe top: lands at %.17g s, stem at %.17g s (reference %.17g, off %.2g s); the "
           "ball lifts off at %.15g s, theta within 0.1 rad of pi at %.3f s (largest %.6f); on the "
           "stem %d samples (gap within %.2g m), on both %d (cos within %.2g, z within %.2g m); "
           "theta at 8 s %.9f, z %.9g m; dissipated %.9g J, balance %.2g J of %.4g J\n", mname,
           L.t_imp[0], L.t_imp[1], t_stem, fabs(L.t_imp[1] - t_stem), L.t_off, L.t_inv, L.th_max,
           L.n_stem, L.stem_gap, L.n_both, L.both_cos, L.both_z, acos(e3z(y)), y[2], diss, err,
           top);
    nsm_sim_free(s);
    return check_report();
}
