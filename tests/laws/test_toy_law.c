/*
** test_toy_law.c: a program that adds a contact law of its own (the toy
** law, toy_law.c) with one registration line, and checks that the runtime
** runs it through the law interface (runtime/src/law.h).
**
** The toy law's impulse rule is its own and not Newton's: a restitution
** that falls with the approach speed v, e(v) = TOY_E / (1 + |v| / v0),
** TOY_E = 0.5, v0 = toy_v0 set per run (toy_law.c).  Every model here says
** another e (0.9, 0, 0.8, 0.5), so a path that read the model's e instead of
** asking the law (rt_law_restitution) fails a check below, and so does one
** that asked the law without its approach speed (it would apply TOY_E).
**
** 1. A ball (m, gravity g) dropped from h on a floor of the toy law.  A
**    force F1 t pulls the ball up, F1 = m g / T, so that once the bounces
**    have come to rest (their accumulation near 1.42 s) the floor's force
**    m g - F1 t crosses zero at T = 10 s and the ball lifts off:
**    x(t) = g (t - T)^3 / (6 T) after T.  Before the first impact
**    x(t) = h - g t^2 / 2 + g t^3 / (6 T).  Checked against these closed
**    forms: the first impact's time and velocities (Newton's law with the
**    toy's restitution at v1: transition.c), one separation at T done by the toy
**    law's transition (which the exact method finds only if the held gap's
**    event row is the one the law's form names: mode.c), the toy law told
**    of every event (on_event), x and v at t_end.
** 2. The same ball without the pull (F1 = 0): impact k at the approach
**    speed w_k leaves at e(w_k) w_k, so w_1 = g t1, w_{k+1} = e(w_k) w_k and
**    t_{k+1} = t_k + 2 w_{k+1} / g, t1 = sqrt(2 h / g): the first impacts'
**    times and velocities, and the accumulation point, the limit of t_k
**    (zeno.c's cascade detection and tail, step.c's tail sum with the
**    restitution zeno.c hands it), against that recurrence.
** 3. models/block_drop.nsm with its floor of the toy law: a block falling
**    from h while sliding at v0 on a floor with friction mu (Coulomb on the
**    impulses: each impact takes the tangential impulse -mu (1 + e) |u_n|
**    while the block slips; friction.c's frictional impact law), bouncing
**    with the toy's e(v) to its accumulation (the Zeno jump with slip),
**    then sliding to rest at mu g.  Closed forms: the first impact's
**    velocities, X.v after it v0 - mu (1 + e(v1)) v1, the Zeno time, the
**    sliding stop and X there from the series of flights.
** 3b. models/disc_corner.nsm with both walls of the toy law: a disc meets
**    the floor (approach 4.905 m/s) and the wall (1 m/s) at one instant,
**    both with friction: one frictional impact of two contacts
**    (friction.c's several-contact law), whose normal velocities after it
**    are e(4.905) 4.905 and -e(1) 1, each contact's own restitution.
** 4. models/forced_impact_oscillator.nsm with its stop of the toy law: the
**    product of the multipliers of a periodic orbit with k impacts per
**    period T is det(monodromy) = prod_k e_k (e_k + u_k e'(u_k)) exp(-c T / m)
**    (a one-degree impact at u_k leaving at -e(u_k) u_k has a saltation
**    matrix of determinant (u+/u) d(u+)/du, the flow's Jacobian
**    exp(trace A T)): floquet.c's saltation matrices, with the law's
**    restitution and its slope at each impact's approach speed.
** 5. Two balls stacked on a floor of the toy law, both contacts (ball on
**    ball, lower ball on floor) of it, under impact_law = simultaneous:
**    the lower ball rests on the floor, the upper one falls on it from h
**    and meets it at w = g t1, t1 = sqrt(2 h / g).  The impact reaches
**    both contacts at once (one impulse problem, transition.c's
**    simultaneous law with each contact's restitution at its own approach
**    speed: w and 0); the floor holds the lower ball, so the upper one
**    leaves at e(w) w and the lower one stays at rest; the upper one's
**    next impact is at t1 + 2 e(w) w / g.  The same case under the
**    sequential law checks the record of the velocity after a collision
**    (transition.c sets it to -e(u) u exactly).
** 5b. Two contacts reached at one instant, at their own approach speeds,
**    under each impact law (sequential, simultaneous, energetic): a point
**    (x, y) of two coordinates of mass m, free of forces, and the gaps
**    x + y and x - y, both of the toy law (their rows orthogonal, so their
**    impulses do not act on each other, but they share the coordinates,
**    so one impulse problem holds both).  From (1, 0.5) at (-1, -0.5)
**    both close at t = 1, approached at u1 = -1.5 and u2 = -0.5: each
**    leaves at e(|u|) |u|, its own restitution at its own speed (for the
**    energetic law, Liu, Zhao and Brogliato's, the energetic coefficient
**    of an uncoupled contact is Newton's).
** 6. A row of CHAIN balls on a line, touching at rest, hit at its end by
**    one more at speed 1 under the sequential law, every contact of the
**    toy law: one impulse problem of more than 32 contacts, whose
**    collisions book their energy losses from the impulses and the
**    recorded velocities before and after (transition.c).  Checked: the
**    momentum m stays (no contact pulls, each impulse acts on two balls),
**    the energy balance E0 = T + dissipated holds to rounding, and T after
**    is below E0.
** by the exact method and by adaptive (which locates the events with the
** toy law's own event function).  TOY_TRACE=1 prints the events.  With
** the argument `unregistered` it leaves out the registration and
** checks that the runtime refuses the model with a clear reason.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "law_check.h"
#include "nsm/nsm.h"
#include "toy_law.h"

extern const nsm_model nsm_model_block_drop, nsm_model_forced_impact_oscillator,
    nsm_model_disc_corner;

enum { M, G, H, E, F1 };

/* The toy law's restitution at an approach at speed v (toy_law.h). */
static double toy_e(double v)
{
    return TOY_E / (1 + fabs(v) / toy_v0);
}

static const char *const bodies[] = { "B" };
static const nsm_param_info params[] = {
    { "m", "kg", 1.0 }, { "g", "m/s^2", 9.81 }, { "h", "m", 1.0 }, { "e", "", 0.9 },
    { "F1", "N/s", 9.81 / 10 },
};
static const nsm_gap_info gaps[] = { { "floor", TOY_LAW, NSM_RELEASE_FORCE } };
static const nsm_output_info outputs[] = { { "B.x", "m", NSM_OUT_X, 0 } };

/* Entry k of a sparse table: element (r, c) gets v (nsm/model.h). */
#define ENTRY(T, k, r, c, v) ((T).row[k] = (r), (T).col[k] = (c), (T).val[k] = (v))

/* Numeric tables from p: the ball's weight, the floor's gap x. */
static int setup(const double *p, double *c, nsm_numeric *num)
{
    (void)c;
    num->mass[0] = p[M];
    num->fconst[0] = -p[M] * p[G];
    ENTRY(num->W, 0, 0, 0, 1);
    num->d[0] = 0;
    num->e[0] = p[E];
    num->kc[0] = num->cc[0] = 0;
    num->gravity = p[G];
    return 0;
}

/* Dropped from h at rest. */
static void initial(const double *p, const double *c, double *y)
{
    (void)c;
    y[0] = p[H];
    y[1] = 0;
}

/* The pull F1 t. */
static void force(double t, const int *sw, const double *p, const double *c, double *f)
{
    (void)sw, (void)c;
    f[0] = p[F1] * t;
}

/* Its rate F1. */
static void force_dot(double t, const int *sw, const double *p, const double *c, double *f)
{
    (void)t, (void)sw, (void)c;
    f[0] = p[F1];
}

/* The pull's generator for the exact method: z = (1, t), z' = G z, f = B z. */
static void generator(const int *sw, const double *p, const double *c, double *Gm, double *B)
{
    (void)sw, (void)c;
    Gm[0] = 0, Gm[1] = 0, Gm[2] = 1, Gm[3] = 0;
    B[0] = 0, B[1] = p[F1];
}

/* z(t) = (1, t). */
static void generator_state(double t, const int *sw, const double *p, const double *c, double *z)
{
    (void)sw, (void)p, (void)c;
    z[0] = 1, z[1] = t;
}

static const nsm_model toy_model = {
    .abi = NSM_ABI_VERSION, .name = "toy_ball", .title = "ball on a floor of the toy law",
    .n_bodies = 1, .n_params = 5, .n_gaps = 1, .body_names = bodies, .params = params,
    .gaps = gaps, .n_outputs = 1, .outputs = outputs, .t_end = 10.5, .dt = 1e-3, .every = 0.01,
    .method = NSM_METHOD_EXACT, .setup = setup, .initial = initial, .force = force,
    .force_dot = force_dot, .n_gen = 2, .generator = generator,
    .generator_state = generator_state, .nnz_W = 1,
};

typedef struct Seen {
    long events, separations, impacts;
    double t_sep, t1, vb1, va1;
} Seen;

/* The event handler: counts the events at the floor, keeps the first
** impact's velocities and the separation's time. */
static int on_event(void *ud, const nsm_sim *s, const nsm_event *ev)
{
    Seen *seen = ud;
    (void)s;
    if (getenv("TOY_TRACE"))
        printf("event t=%.12g kind=%d contact=%d vb=%.9g va=%.9g\n", ev->t, ev->kind, ev->contact, ev->vrel_before, ev->vrel_after);
    if (ev->contact != 0)
        return 0;
    seen->events++;
    if (ev->kind == NSM_EV_IMPACT && seen->impacts++ == 0)
        seen->t1 = ev->t, seen->vb1 = ev->vrel_before, seen->va1 = ev->vrel_after;
    if (ev->kind == NSM_EV_SEPARATION)
        seen->separations++, seen->t_sep = ev->t;
    return 0;
}

/* Run the toy model with method and check it against the closed forms. */
static void run_toy(int method)
{
    nsm_sim *s = nsm_sim_create(&toy_model);
    if (!s) {
        printf("FAIL the model with the toy law was refused\n");
        failures++;
        return;
    }
    Seen seen = { 0 };
    toy_v0 = 5;
    printf("method %s, v0 = %g\n", nsm_method_name(method), toy_v0);
    nsm_sim_set_method(s, method);
    nsm_sim_set_event_handler(s, on_event, &seen);
    int rc = nsm_sim_run_until(s, 10.5);
    if (rc) {
        printf("FAIL run: %s\n", nsm_sim_message(s));
        nsm_sim_free(s);
        failures++;
        return;
    }
    double g = 9.81, h = 1.0, T = 10.0, tau = 10.5 - T, t1 = sqrt(2 * h / g);
    for (int i = 0; i < 50; i++)   /* Newton on the cubic h - g t^2/2 + g t^3/(6T) */
        t1 -= (h - g * t1 * t1 / 2 + g * t1 * t1 * t1 / (6 * T)) / (-g * t1 + g * t1 * t1 / (2 * T));
    double v1 = g * t1 - g * t1 * t1 / (2 * T);
    const double *y = nsm_sim_state(s);
    check("first impact's time", seen.t1, t1, 1e-8);
    check("velocity before it", seen.vb1, -v1, 1e-8 * v1);
    check("velocity after it (toy restitution e(vb))", seen.va1, toy_e(seen.vb1) * seen.vb1 * -1,
          1e-12 * v1);
    check("... and the closed form e(v1) v1", seen.va1, toy_e(v1) * v1, 1e-8 * v1);
    check("separations by the toy law's transition", (double)toy_transitions, 1, 0);
    check("separations logged", (double)seen.separations, 1, 0);
    check("separation time", seen.t_sep, T, 1e-6);
    check("events the toy law was told of", (double)toy_events, (double)seen.events, 0);
    check("x at 10.5 s", y[0], g * tau * tau * tau / (6 * T), 1e-6);
    check("v at 10.5 s", y[1], g * tau * tau / (2 * T), 1e-6);
    nsm_sim_free(s);
}

/* Seen at one contact: its impacts, the first impact's velocities and the
** state after it, and its zeno records. */
typedef struct Seen2 {
    int contact, ny;          /* the contact watched, the state's length (<= 6) */
    long impacts, zenos;
    double t1, vb1, va1, y1[6], tz, tk[3], vak[3], ub[64];
} Seen2;

/* The event handler of runs 2-4: counts the impacts and zeno records at
** the contact and keeps the first impact's velocities and state after it. */
static int on_event2(void *ud, const nsm_sim *s, const nsm_event *ev)
{
    Seen2 *seen = ud;
    if (getenv("TOY_TRACE"))
        printf("event t=%.15g kind=%d contact=%d vb=%.9g va=%.9g P=%.9g\n", ev->t, ev->kind,
               ev->contact, ev->vrel_before, ev->vrel_after, ev->impulse);
    if (ev->contact != seen->contact)
        return 0;
    if (ev->kind == NSM_EV_IMPACT && seen->impacts < 3)
        seen->tk[seen->impacts] = ev->t, seen->vak[seen->impacts] = ev->vrel_after;
    if (ev->kind == NSM_EV_IMPACT && seen->impacts < 64)
        seen->ub[seen->impacts] = ev->vrel_before;
    if (ev->kind == NSM_EV_IMPACT && seen->impacts++ == 0) {
        seen->t1 = ev->t, seen->vb1 = ev->vrel_before, seen->va1 = ev->vrel_after;
        memcpy(seen->y1, nsm_sim_state(s), sizeof(double) * (size_t)seen->ny);
    }
    if (ev->kind == NSM_EV_ZENO && seen->zenos++ == 0)
        seen->tz = ev->t;
    return 0;
}

/* The model m with every gap given the toy law (gi: room for its gaps). */
static nsm_model toy_model_of(const nsm_model *m, nsm_gap_info *gi)
{
    nsm_model t = *m;
    for (int j = 0; j < m->n_gaps; j++) {
        gi[j] = m->gaps[j];
        gi[j].law = TOY_LAW;
    }
    t.gaps = gi;
    return t;
}


/* 2: the ball without the pull, its bounces accumulating at 3 t1. */
static void run_zeno(int method)
{
    nsm_sim *s = law_sim(&toy_model, method, "ball at rest by a Zeno cascade");
    if (!s)
        return;
    Seen2 seen = { .contact = 0 };
    toy_v0 = 5;
    nsm_sim_set_event_handler(s, on_event2, &seen);
    nsm_sim_set_param(s, "F1", 0);
    nsm_sim_reset(s);
    if (!law_run_to(s, 3.0)) {
        double g = 9.81, h = 1.0, t = sqrt(2 * h / g), w = g * t, tk[3], vk[3];
        for (int k = 0; k < 100000 && w > 1e-300; k++) {  /* impact k at w, then its flight */
            if (k < 3)
                tk[k] = t, vk[k] = toy_e(w) * w;
            w *= toy_e(w);
            t += 2 * w / g;
        }
        for (int k = 0; k < 3; k++) {
            char what[64];
            snprintf(what, sizeof what, "impact %d's time", k + 1);
            check(what, seen.tk[k], tk[k], 1e-9);
            snprintf(what, sizeof what, "impact %d's velocity after, e(w) w", k + 1);
            check(what, seen.vak[k], vk[k], 1e-9);
        }
        check("zeno records", (double)seen.zenos, 1, 0);
        check("accumulation point, the limit of t_k", seen.tz, t, 1e-9);
        check("at rest on the floor", nsm_sim_state(s)[0], 0, 1e-12);
    }
    nsm_sim_free(s);
}

/* 3: block_drop with its floor of the toy law (see the header). */
static void run_block(int method)
{
    nsm_gap_info gi[1];
    nsm_model bm = toy_model_of(&nsm_model_block_drop, gi);
    nsm_sim *s = law_sim(&bm, method, "block dropped while sliding");
    if (!s)
        return;
    Seen2 seen = { .contact = 0, .ny = 4 };
    toy_v0 = 2;
    nsm_sim_set_event_handler(s, on_event2, &seen);
    if (!law_run_to(s, 1.0)) {
        double g = 9.81, h = 0.2, v0 = 2, mu = 0.3, e = toy_e(g * sqrt(2 * h / g)),
               t1 = sqrt(2 * h / g), v1 = g * t1;
        double tz = t1, X = v0 * t1, Xv = v0, vn = v1;
        for (int k = 0; k < 100000 && vn > 1e-300; k++) {  /* impact k at vn, then its flight */
            Xv -= mu * (1 + toy_e(vn)) * vn;
            vn *= toy_e(vn);
            X += Xv * 2 * vn / g;
            tz += 2 * vn / g;
        }
        double X_end = X + Xv * Xv / (2 * mu * g);
        const double *y = nsm_sim_state(s);
        check("first impact's time", seen.t1, t1, 1e-9);
        check("normal velocity after it (toy restitution)", seen.va1, e * v1, 1e-9);
        check("X.v after it: v0 - mu (1 + e) v1", seen.y1[2], v0 - mu * (1 + e) * v1, 1e-9);
        check("accumulation point, the limit of the flights", seen.tz, tz, 1e-8);
        check("X where the block stops sliding", y[0], X_end, 1e-7);
        check("X.v at 1 s (at rest)", y[2], 0, 1e-9);
    }
    nsm_sim_free(s);
}

/* 3b: disc_corner with both walls of the toy law: the normal velocities
** after the frictional impact of two contacts (see the header). */
static void run_corner(int method)
{
    nsm_gap_info gi[2];
    nsm_model cm = toy_model_of(&nsm_model_disc_corner, gi);
    nsm_sim *s = law_sim(&cm, method, "disc thrown into a corner");
    if (!s)
        return;
    Seen2 seen = { .contact = 0, .ny = 6 };
    toy_v0 = 2;
    nsm_sim_set_event_handler(s, on_event2, &seen);
    if (!law_run_to(s, 0.6)) {
        double vy = 9.81 * 0.5, vx = 1;   /* the floor's and the wall's approach at 0.5 s */
        check("the impact's time", seen.t1, 0.5, 1e-9);
        check("floor: vy after it, e(vy) vy", seen.y1[4], toy_e(vy) * vy, 1e-9);
        check("wall: vx after it, -e(vx) vx", seen.y1[3], -toy_e(vx) * vx, 1e-9);
    }
    nsm_sim_free(s);
}

/* The stacked balls of run 5: the upper ball A (coordinate 0) on the
** lower ball B (1) on the floor; both of mass m under gravity g. */
static const char *const stack_bodies[] = { "A", "B" };
static const nsm_gap_info stack_gaps[] = {
    { "contact", TOY_LAW, NSM_RELEASE_FORCE }, { "floor", TOY_LAW, NSM_RELEASE_FORCE },
};

/* Numeric tables: the weights, the gaps xA - xB and xB (a model e of 0.9
** and 0.8 the toy law must not read). */
static int stack_setup(const double *p, double *c, nsm_numeric *num)
{
    (void)c;
    for (int i = 0; i < 2; i++) {
        num->mass[i] = p[M];
        num->fconst[i] = -p[M] * p[G];
        num->d[i] = 0;
        num->kc[i] = num->cc[i] = 0;
    }
    ENTRY(num->W, 0, 0, 0, 1);
    ENTRY(num->W, 1, 0, 1, -1);
    ENTRY(num->W, 2, 1, 1, 1);
    num->e[0] = p[E];
    num->e[1] = 0.8;
    num->gravity = p[G];
    return 0;
}

/* A at h, B on the floor, both at rest. */
static void stack_initial(const double *p, const double *c, double *y)
{
    (void)c;
    y[0] = p[H];
    y[1] = 0;
    y[2] = y[3] = 0;
}

static const nsm_model stack_model = {
    .abi = NSM_ABI_VERSION, .name = "toy_stack", .title = "two balls stacked on a floor",
    .n_bodies = 2, .n_params = 5, .n_gaps = 2, .body_names = stack_bodies, .params = params,
    .gaps = stack_gaps, .n_outputs = 1, .outputs = outputs, .t_end = 1.0, .dt = 1e-3,
    .every = 0.01, .method = NSM_METHOD_EXACT, .setup = stack_setup,
    .initial = stack_initial, .nnz_W = 3, .impact_law = NSM_IMPACT_SIMULTANEOUS,
};

/* 5: the upper ball's impact on the lower one resting on the floor (see
** the header), under the impact law il. */
static void run_stack(int method, int il)
{
    nsm_model sm = stack_model;
    sm.impact_law = il;
    char what[96];
    snprintf(what, sizeof what, "ball on a ball on the floor, %s impacts",
             il == NSM_IMPACT_SIMULTANEOUS ? "simultaneous" : "sequential");
    nsm_sim *s = law_sim(&sm, method, what);
    if (!s)
        return;
    Seen2 seen = { .contact = 0, .ny = 4 };
    toy_v0 = 5;
    nsm_sim_set_event_handler(s, on_event2, &seen);
    double g = 9.81, h = 1.0, t1 = sqrt(2 * h / g), w = g * t1, e = toy_e(w);
    if (!law_run_to(s, t1 + e * w / g)) {       /* to the top of A's first rebound */
        check("the impact's time", seen.t1, t1, 1e-9);
        check("velocity before it", seen.vb1, -w, 1e-9 * w);
        check("velocity after it (logged), e(w) w", seen.va1, e * w, 1e-9 * w);
        check("A's velocity after it, e(w) w", seen.y1[2], e * w, 1e-9 * w);
        check("B at rest after it", seen.y1[3], 0, 1e-9 * w);
        check("A at the top of its rebound", nsm_sim_state(s)[0], e * e * w * w / (2 * g),
              1e-9 * h);
        check("B on the floor", nsm_sim_state(s)[1], 0, 1e-12);
    }
    nsm_sim_free(s);
}

/* The two gaps x + y and x - y of run 5b (a model e of 0.9 and 0.8 the
** toy law must not read; the energetic law's stiffness ratios 1). */
static const char *const pair_bodies[] = { "X", "Y" };
static const nsm_gap_info pair_gaps[] = {
    { "plus", TOY_LAW, NSM_RELEASE_FORCE }, { "minus", TOY_LAW, NSM_RELEASE_FORCE },
};

static int pair_setup(const double *p, double *c, nsm_numeric *num)
{
    (void)c;
    for (int i = 0; i < 2; i++) {
        num->mass[i] = p[M];
        num->fconst[i] = 0;
        num->d[i] = 0;
        num->kc[i] = num->cc[i] = 0;
        num->kimp[i] = 1;
        num->eimp[i] = 1;
    }
    ENTRY(num->W, 0, 0, 0, 1);
    ENTRY(num->W, 1, 0, 1, 1);
    ENTRY(num->W, 2, 1, 0, 1);
    ENTRY(num->W, 3, 1, 1, -1);
    num->e[0] = p[E];
    num->e[1] = 0.8;
    num->gravity = 0;
    return 0;
}

/* (1, 0.5) moving at (-1, -0.5): both gaps close at t = 1. */
static void pair_initial(const double *p, const double *c, double *y)
{
    (void)p, (void)c;
    y[0] = 1, y[1] = 0.5, y[2] = -1, y[3] = -0.5;
}

static const nsm_model pair_model = {
    .abi = NSM_ABI_VERSION, .name = "toy_pair", .title = "two contacts at one instant",
    .n_bodies = 2, .n_params = 5, .n_gaps = 2, .body_names = pair_bodies, .params = params,
    .gaps = pair_gaps, .n_outputs = 1, .outputs = outputs, .t_end = 1.5, .dt = 1e-3,
    .every = 0.01, .method = NSM_METHOD_EXACT, .setup = pair_setup,
    .initial = pair_initial, .nnz_W = 4,
};

/* 5b: the two contacts under the impact law il (see the header). */
static void run_pair(int method, int il)
{
    static const char *const names[] = { "sequential", "simultaneous", "energetic" };
    nsm_model pm = pair_model;
    pm.impact_law = il;
    char what[96];
    snprintf(what, sizeof what, "two contacts at one instant, %s impacts", names[il]);
    nsm_sim *s = law_sim(&pm, method, what);
    if (!s)
        return;
    Seen2 seen = { .contact = 0, .ny = 4 };
    toy_v0 = 1;
    nsm_sim_set_event_handler(s, on_event2, &seen);
    if (!law_run_to(s, 1.5)) {
        const double *y = nsm_sim_state(s);
        double u1 = 1.5, u2 = 0.5;
        check("the impact's time", seen.t1, 1, 1e-9);
        check("x + y's rate after it, e(1.5) 1.5", y[2] + y[3], toy_e(u1) * u1, 1e-9);
        check("x - y's rate after it, e(0.5) 0.5", y[2] - y[3], toy_e(u2) * u2, 1e-9);
    }
    nsm_sim_free(s);
}

enum { CHAIN = 34 };   /* balls in run 6: 33 contacts, above the small problems' 32 */

static const char *const chain_bodies[CHAIN] = { "B0" };
static nsm_gap_info chain_gaps[CHAIN - 1];

/* Numeric tables: equal masses m, no gravity, gap j = x_{j+1} - x_j - 1
** (the model's e 0.9, which the toy law must not read). */
static int chain_setup(const double *p, double *c, nsm_numeric *num)
{
    (void)c;
    for (int i = 0; i < CHAIN; i++) {
        num->mass[i] = p[M];
        num->fconst[i] = 0;
    }
    for (int j = 0; j < CHAIN - 1; j++) {
        ENTRY(num->W, 2 * j, j, j, -1);
        ENTRY(num->W, 2 * j + 1, j, j + 1, 1);
        num->d[j] = -1;
        num->e[j] = p[E];
        num->kc[j] = num->cc[j] = 0;
    }
    num->gravity = 0;
    return 0;
}

/* Ball 0 half a unit away at speed 1, the others touching at rest. */
static void chain_initial(const double *p, const double *c, double *y)
{
    (void)p, (void)c;
    for (int i = 0; i < CHAIN; i++) {
        y[i] = i;
        y[CHAIN + i] = 0;
    }
    y[0] = -0.5;
    y[CHAIN] = 1;
}

static const nsm_model chain_model = {
    .abi = NSM_ABI_VERSION, .name = "toy_chain", .title = "a row of balls hit at its end",
    .n_bodies = CHAIN, .n_params = 5, .n_gaps = CHAIN - 1, .body_names = chain_bodies,
    .params = params, .gaps = chain_gaps, .n_outputs = 1, .outputs = outputs, .t_end = 1.0,
    .dt = 1e-3, .every = 0.01, .method = NSM_METHOD_EXACT, .setup = chain_setup,
    .initial = chain_initial, .nnz_W = 2 * (CHAIN - 1),
};

/* 6: the row of balls hit at its end (see the header). */
static void run_chain(int method)
{
    for (int j = 0; j < CHAIN - 1; j++)
        chain_gaps[j] = (nsm_gap_info){ "contact", TOY_LAW, NSM_RELEASE_FORCE };
    nsm_sim *s = law_sim(&chain_model, method, "a row of balls hit at its end");
    if (!s)
        return;
    toy_v0 = 1;
    nsm_sim_set_audit(s, 1);
    if (!law_run_to(s, 0.75)) {
        const double *y = nsm_sim_state(s);
        double kin, pot, diss, inj, P = 0, E0 = 0.5;
        nsm_sim_energy(s, &kin, &pot, &diss, &inj);
        for (int i = 0; i < CHAIN; i++)
            P += y[CHAIN + i];
        check("momentum m v0 after the impact", P, 1, 1e-12);
        check("energy balance: T + dissipated = E0", kin + pot + diss - inj, E0, 1e-12 * E0);
        check("kinetic energy below E0 (no energy created)", kin < E0, 1, 0);
    }
    nsm_sim_free(s);
}

/* 4: the forced impact oscillator with its stop of the toy law: the
** product of the periodic orbit's multipliers against e^(2k) exp(-c T/m). */
static void run_floquet(void)
{
    nsm_gap_info gi[1];
    nsm_model fm = toy_model_of(&nsm_model_forced_impact_oscillator, gi);
    nsm_sim *s = law_sim(&fm, NSM_METHOD_EXACT, "forced impact oscillator's periodic orbit");
    if (!s)
        return;
    double omega = 2.5, T = 2 * 3.14159265358979323846 / omega, c = 2 * 0.05, y[2], mre[2], mim[2];
    Seen2 seen = { .contact = 0 };
    toy_v0 = 1;
    if (law_run_to(s, 100 * T))
        goto done;
    memcpy(y, nsm_sim_state(s), sizeof y);
    if (nsm_sim_periodic_orbit(s, T, y, mre, mim)) {
        printf("FAIL periodic orbit: %s\n", nsm_sim_message(s));
        failures++;
        goto done;
    }
    nsm_sim_set_event_handler(s, on_event2, &seen);
    nsm_sim_reset(s);
    if (law_run_to(s, T))
        goto done;
    double prod = mre[0] * mre[1] - mim[0] * mim[1];   /* mu1 mu2 (a pair: |mu|^2) */
    double want = exp(-c * T);
    for (long k = 0; k < seen.impacts && k < 64; k++) {  /* e (e + u e'(u)) at each impact */
        double u = seen.ub[k], d = 1 - u / toy_v0;
        want *= toy_e(u) * (toy_e(u) + u * TOY_E / (toy_v0 * d * d));
    }
    printf("     %ld impact(s) per period, multipliers %.9g%+.9gi, %.9g%+.9gi\n", seen.impacts,
           mre[0], mim[0], mre[1], mim[1]);
    check("impacts per period (at least one)", seen.impacts >= 1, 1, 0);
    check("product of the multipliers prod e (e + u e'(u)) exp(-c T)", prod, want, 1e-8 * want);
done:
    nsm_sim_free(s);
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "unregistered"))
        return law_unregistered(&toy_model);
    if (toy_law_register() != NSM_OK) {   /* the program's one registration line */
        printf("FAIL the toy law could not be registered\n");
        return 1;
    }
    int methods[] = { NSM_METHOD_EXACT, NSM_METHOD_ADAPTIVE };
    for (int i = 0; i < 2; i++) {
        run_toy(methods[i]);
        run_zeno(methods[i]);
        run_block(methods[i]);
        run_corner(methods[i]);
        run_stack(methods[i], NSM_IMPACT_SIMULTANEOUS);
        run_stack(methods[i], NSM_IMPACT_SEQUENTIAL);
        for (int il = NSM_IMPACT_SEQUENTIAL; il <= NSM_IMPACT_ENERGETIC; il++)
            run_pair(methods[i], il);
        run_chain(methods[i]);
    }
    run_floquet();
    printf("%s contact law name: %s\n", strcmp(nsm_law_name(TOY_LAW), "toy") ? "FAIL" : "ok  ",
           nsm_law_name(TOY_LAW));
    failures += strcmp(nsm_law_name(TOY_LAW), "toy") != 0;
    return failures ? 1 : 0;
}
