/*
** test_fric_modes.c: the friction elements' derived modes (compiler/
** derive_fric.c, the modes() of generated/ for models whose elements press
** with a constant normal load or with an impact gap's contact force).
**
**   - belt_friction (m = k = 1, N = 10, v_b = 3, mu_s = 0.5, mu_k = 0.3)
**     against its closed forms at a few states: slipping forwards
**     a = (-k x - mu_k N) / m, backwards a = (-k x + mu_k N) / m, the slip
**     v - v_b and its rate (negated backwards); stuck a = 0, the multiplier
**     L = k x, events mu_s N -+ k x with rates -+ k v, and the surface's
**     power L v_b in the energy rates; the dissipated power s mu_k N (v - v_b);
**   - every mode of belt_friction, coulomb_oscillator, friction_two_mass
**     and disc_incline_roll (a held impact gap beside a stuck element) at
**     random states: the derivative with its energy rates, the contact
**     forces, the multipliers and the event functions with their rates
**     from modes() against the runtime's generic path (dynamics.c, written
**     from the numeric tables without the derivation), to 1e-12 relative;
**   - every mode of the models whose elements are pressed by a gap's
**     contact force (normal = gap G: sliding_block, block_drop,
**     disc_corner, disc_walls_friction, rotating_ball_2..5, super_ball),
**     idle, stuck and slipping either way on a held gap, likewise against
**     the generic path; and sliding_block's stuck and slipping modes
**     against their closed forms (a = -k x / m - s mu_k P / m with
**     lambda = P, the floor's force);
**   - whole runs of those models with modes() and with the generic path
**     alone (the same model without modes()), by rk4 and by the
**     adaptive and exact methods: the same events (kind, contact, time
**     to 1e-12 s) and the same final states (to 1e-12 of the state's
**     largest entry).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nsm/model.h"
#include "nsm/nsm.h"
#include "rt.h"

#include "check.h"

extern const nsm_model nsm_model_belt_friction, nsm_model_coulomb_oscillator,
    nsm_model_friction_two_mass, nsm_model_disc_incline_roll, nsm_model_sliding_block,
    nsm_model_block_drop, nsm_model_disc_corner, nsm_model_disc_walls_friction,
    nsm_model_rotating_ball_2, nsm_model_rotating_ball_3, nsm_model_rotating_ball_4,
    nsm_model_rotating_ball_5, nsm_model_super_ball;

/* A mode word of one 32-bit word (every model here has fewer bits). */
static void mode_of(const nsm_sim *s, unsigned word, unsigned *mode)
{
    memset(mode, 0, sizeof(unsigned) * (size_t)s->mode_words);
    mode[0] = word;
}

/* belt_friction's closed forms at (x, v) in its three states. */
static void belt_closed_forms(void)
{
    nsm_sim *s = nsm_sim_create(&nsm_model_belt_friction);
    const double m = 1, k = 1, N = 10, vb = 3, mus = 0.5, muk = 0.3;
    const double xs[3] = {0.7, -2.5, 4.9}, vs[3] = {1.5, -0.4, 3.8};
    check_true("belt_friction created", s != NULL);
    if (!s)
        return;
    for (int c = 0; c < 3; c++) {
        double Y[s->n_state], Yd[s->n_state], ev[s->n_events], evd[s->n_events], lam[1];
        double x = xs[c], v = vs[c], L = k * x;
        unsigned mode[s->mode_words];
        memset(Y, 0, sizeof Y);
        Y[0] = x, Y[1] = v;
        for (int back = 0; back < 2; back++) {   /* slipping forwards, backwards */
            double sg = back ? -1 : 1, a = (-k * x - sg * muk * N) / m;
            mode_of(s, back ? 2u : 0u, mode);
            check_true("slipping: derived", rt_deriv(s, mode, 0, Y, Yd) == NSM_OK &&
                                                rt_events(s, mode, 0, Y, ev, evd) == NSM_OK);
            check_close("slipping: x'", Yd[0], v, 0);
            check_close("slipping: v'", Yd[1], a, 1e-15);
            check_close("slipping: slip event", ev[0], sg * (v - vb), 1e-15);
            check_close("slipping: its rate", evd[0], sg * a, 1e-15);
            check_close("slipping: second event", ev[1], 1, 0);
            check_close("slipping: dissipated power", Yd[rt_eslot(s)], sg * muk * N * (v - vb), 1e-14);
            check_close("slipping: surface work rate", Yd[rt_eslot(s) + 1], -sg * muk * N * vb, 1e-14);
        }
        mode_of(s, 1u, mode);
        check_true("stuck: derived", rt_deriv(s, mode, 0, Y, Yd) == NSM_OK &&
                                     rt_events(s, mode, 0, Y, ev, evd) == NSM_OK &&
                                     nsm_model_belt_friction.modes(mode, 0, Y, s->sw, s->params, s->consts,
                                                                   NULL, lam, NULL, NULL) == 0);
        check_close("stuck: v'", Yd[1], 0, 1e-15);
        check_close("stuck: multiplier", lam[0], L, 1e-15);
        check_close("stuck: event mu_s N - L", ev[0], mus * N - L, 1e-14);
        check_close("stuck: event mu_s N + L", ev[1], mus * N + L, 1e-14);
        check_close("stuck: rate of the first", evd[0], -k * v, 1e-15);
        check_close("stuck: rate of the second", evd[1], k * v, 1e-15);
        /* the stuck force L's power on the body, L v: the belt's L vb at zero
         * slip, and at this state (v off the belt's speed) also the work of
         * the slip that rounding leaves in a stuck phase */
        check_close("stuck: work rate of the stuck force", Yd[rt_eslot(s) + 1], L * v, 1e-14);
    }
    nsm_sim_free(s);
}

/* |a - b| within 1e-12 of the larger magnitude (and of scale). */
static void agree(const char *what, const char *model, unsigned word, int i, double got,
                  double want, double scale)
{
    char msg[160];
    snprintf(msg, sizeof msg, "%s: mode %u, %s[%d] derived vs generic", model, word, what, i);
    check_close(msg, got, want, 1e-12 * fmax(scale, fmax(fabs(got), fabs(want))));
}

/* Every mode of model at random states: modes() against the generic path. */
static void against_generic(const nsm_model *model, int *derived)
{
    nsm_sim *s = nsm_sim_create(model);
    check_true(model->name, s != NULL && model->modes != NULL);
    if (!s || !model->modes)
        return;
    unsigned words = 1u << s->n_events;
    srand(7);
    for (unsigned w = 0; w < words; w++) {
        unsigned mode[s->mode_words];
        mode_of(s, w, mode);
        for (int trial = 0; trial < 4; trial++) {
            double Y[s->n_state], Yd[s->n_state], Yg[s->n_state], ev[s->n_events], evd[s->n_events], eg[s->n_events], edg[s->n_events];
            double lam[s->n_gaps + s->n_fric + 1], lg[s->n_gaps + 1], lfg[s->n_fric + 1], t = 3.0 * rand() / RAND_MAX;
            memset(Y, 0, sizeof Y);
            for (int i = 0; i < 2 * s->n_vel; i++)
                Y[i] = 4.0 * rand() / RAND_MAX - 2;
            if (model->modes(mode, t, Y, s->sw, s->params, s->consts, Yd, lam, ev, evd) != 0)
                continue;
            *derived += trial == 0;
            if (rt_deriv(s, mode, t, Y, Yd) || rt_deriv_generic(s, mode, t, Y, Yg) ||
                rt_events(s, mode, t, Y, ev, evd) || rt_events_generic(s, mode, t, Y, eg, edg) ||
                rt_multipliers(s, mode, t, Y, lg, lfg)) {
                check_true("a mode's functions could be evaluated", 0);
                continue;
            }
            double sc = 0;
            for (int i = 0; i < s->n_state; i++)
                sc = fmax(sc, fabs(Yg[i]));
            for (int i = 0; i < s->n_state; i++)
                agree("Yd", model->name, w, i, Yd[i], Yg[i], sc);
            for (int j = 0; j < s->n_gaps + s->n_fric; j++)
                agree("lam", model->name, w, j, lam[j], j < s->n_gaps ? lg[j] : lfg[j - s->n_gaps], sc);
            for (int j = 0; j < s->n_events; j++) {
                agree("s", model->name, w, j, ev[j], eg[j], 1);
                agree("sdot", model->name, w, j, evd[j], edg[j], sc);
            }
        }
    }
    nsm_sim_free(s);
}

/* sliding_block (m = k = 1, P = 9.81, Q = 3, A = 8, w = 1, mu_s = 0.4,
** mu_k = 0.3) on the floor at t = 0: the floor holds Y, lambda = P
** (Y's press), and X slips with -s mu_k P or sticks with L = k x. */
static void sliding_closed_forms(void)
{
    nsm_sim *s = nsm_sim_create(&nsm_model_sliding_block);
    const double m = 1, k = 1, P = 9.81, mus = 0.4, muk = 0.3;
    check_true("sliding_block created", s != NULL && nsm_model_sliding_block.modes != NULL);
    if (!s || !nsm_model_sliding_block.modes)
        return;
    double Y[s->n_state], Yd[s->n_state], ev[s->n_events], evd[s->n_events], lam[3];
    unsigned mode[s->mode_words];
    memset(Y, 0, sizeof Y);
    Y[0] = 0.6, Y[2] = 0.25;
    for (int back = 0; back < 2; back++) {
        double sg = back ? -1 : 1, a = (-k * Y[0] - sg * muk * P) / m;
        mode_of(s, back ? 5u : 1u, mode);
        check_true("sliding_block slipping: derived",
                   nsm_model_sliding_block.modes(mode, 0, Y, s->sw, s->params, s->consts, Yd, lam, ev, evd) == 0);
        check_close("sliding_block slipping: X''", Yd[2], a, 1e-15);
        check_close("sliding_block slipping: Y''", Yd[3], 0, 1e-15);
        check_close("sliding_block slipping: the floor's force", lam[0], P, 1e-14);
        check_close("sliding_block slipping: slip event", ev[1], sg * Y[2], 1e-15);
        check_close("sliding_block slipping: its rate", evd[1], sg * a, 1e-15);
    }
    mode_of(s, 3u, mode);
    check_true("sliding_block stuck: derived",
               nsm_model_sliding_block.modes(mode, 0, Y, s->sw, s->params, s->consts, Yd, lam, ev, evd) == 0);
    check_close("sliding_block stuck: X''", Yd[2], 0, 1e-15);
    check_close("sliding_block stuck: multiplier", lam[1], k * Y[0], 1e-15);
    check_close("sliding_block stuck: mu_s P - L", ev[1], mus * P - k * Y[0], 1e-14);
    check_close("sliding_block stuck: mu_s P + L", ev[2], mus * P + k * Y[0], 1e-14);
    mode_of(s, 0u, mode);
    check_true("sliding_block idle: derived",
               nsm_model_sliding_block.modes(mode, 0, Y, s->sw, s->params, s->consts, Yd, lam, ev, evd) == 0);
    check_close("sliding_block idle: X''", Yd[2], -k * Y[0] / m, 1e-15);
    check_close("sliding_block idle: events 1", ev[1] + ev[2], 2, 0);
    nsm_sim_free(s);
}

/* The events of a run, recorded by the event handler. */
typedef struct {
    int n;
    nsm_event ev[4096];
} Events;

/* Records one event (the run goes on). */
static int record(void *ud, const nsm_sim *sim, const nsm_event *e)
{
    Events *E = ud;
    (void)sim;
    if (E->n < 4096)
        E->ev[E->n++] = *e;
    return 0;
}

/* A run of model to its t_end by method, its events into E and its final
** state into y (N values); the run's return code. */
static int run_model(const nsm_model *model, int method, Events *E, double *y, int N)
{
    nsm_sim *s = nsm_sim_create(model);
    if (!s)
        return -1;
    E->n = 0;
    nsm_sim_set_method(s, method);
    nsm_sim_set_event_handler(s, record, E);
    double t_end, dt, every;
    nsm_sim_model_times(s, &t_end, &dt, &every);
    int rc = nsm_sim_run_until(s, t_end);
    memcpy(y, nsm_sim_state(s), sizeof(double) * (size_t)N);
    nsm_sim_free(s);
    return rc;
}

/* A whole run of model with its modes() and with the generic path alone:
** the same events and final state. */
static void run_against_generic(const nsm_model *model, int method)
{
    nsm_model generic = *model;
    generic.modes = NULL;
    generic.deriv = NULL;
    generic.events = NULL;
    nsm_sim *s = nsm_sim_create(model);
    if (!s)
        return;
    int N = s->n_state;
    nsm_sim_free(s);
    static Events Ed, Eg;
    double yd[N], yg[N];
    int rd = run_model(model, method, &Ed, yd, N), rg = run_model(&generic, method, &Eg, yg, N);
    char msg[200];
    snprintf(msg, sizeof msg, "%s (method %d): runs end alike (%d, %d), %d and %d events",
             model->name, method, rd, rg, Ed.n, Eg.n);
    check_true(msg, rd == rg && Ed.n == Eg.n);
    double dt = 0, dy = 0;
    for (int k = 0; k < Ed.n && k < Eg.n; k++) {
        dt = fmax(dt, fabs(Ed.ev[k].t - Eg.ev[k].t));
        snprintf(msg, sizeof msg, "%s (method %d): event %d kind and contact", model->name, method, k);
        check_true(msg, Ed.ev[k].kind == Eg.ev[k].kind && Ed.ev[k].contact == Eg.ev[k].contact);
        snprintf(msg, sizeof msg, "%s (method %d): event %d time", model->name, method, k);
        check_close(msg, Ed.ev[k].t, Eg.ev[k].t, 1e-12);
    }
    double sc = 0;
    for (int i = 0; i < N; i++)
        sc = fmax(sc, fabs(yg[i]));
    for (int i = 0; i < N; i++) {
        snprintf(msg, sizeof msg, "%s (method %d): final y[%d]", model->name, method, i);
        check_close(msg, yd[i], yg[i], 1e-12 * fmax(sc, 1));
        dy = fmax(dy, fabs(yd[i] - yg[i]) / fmax(sc, 1));
    }
    printf("%s (method %d): %d events, times within %.2g s, final state within %.2g\n", model->name,
           method, Ed.n, dt, dy);
}

/* Every mode of model against the generic path (against_generic), and
** how many mode words modes() wrote out: want. */
static void modes_counted(const nsm_model *model, int want)
{
    int derived = 0;
    char msg[120];
    against_generic(model, &derived);
    snprintf(msg, sizeof msg, "%s: %d modes written out, %d expected", model->name, derived, want);
    check_true(msg, derived == want);
}

int main(void)
{
    belt_closed_forms();
    const nsm_model *models[] = {&nsm_model_belt_friction, &nsm_model_coulomb_oscillator,
                                 &nsm_model_friction_two_mass, &nsm_model_disc_incline_roll};
    /* every mode word is written out (stuck with the backward bit set reads as stuck) */
    const int want[] = {4, 4, 16, 8};
    for (size_t k = 0; k < sizeof models / sizeof models[0]; k++)
        modes_counted(models[k], want[k]);
    sliding_closed_forms();
    const nsm_model *pressed[] = {&nsm_model_sliding_block, &nsm_model_block_drop,
                                  &nsm_model_disc_corner, &nsm_model_disc_walls_friction,
                                  &nsm_model_rotating_ball_2, &nsm_model_rotating_ball_3,
                                  &nsm_model_rotating_ball_4, &nsm_model_rotating_ball_5,
                                  &nsm_model_super_ball};
    /* every mode word but those holding dependent rows (a disc between two
     * parallel walls; floor, wall and both elements stuck in the corner) */
    const int pwant[] = {8, 8, 60, 48, 8, 8, 8, 8, 48};
    for (size_t k = 0; k < sizeof pressed / sizeof pressed[0]; k++) {
        modes_counted(pressed[k], pwant[k]);
        run_against_generic(pressed[k], NSM_METHOD_RK4);
        run_against_generic(pressed[k], NSM_METHOD_ADAPTIVE);
        run_against_generic(pressed[k], NSM_METHOD_EXACT);
    }
    return check_report();
}
