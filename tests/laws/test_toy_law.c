/*
** test_toy_law.c: a program that adds a contact law of its own (the toy
** law, toy_law.c) with one registration line, and checks that the runtime
** runs it through the law interface (runtime/src/law.h).
**
** The model: a ball (m, gravity g) dropped from h on a floor whose gap has
** the toy law; the model says e = 0.9, the toy law fixes 0.5.  A force
** F1 t pulls the ball up, F1 = m g / T, so that once the bounces have
** come to rest (their accumulation near 1.42 s) the floor's force
** m g - F1 t crosses zero at T = 10 s and the ball lifts off:
** x(t) = g (t - T)^3 / (6 T) after T.  Before the first impact
** x(t) = h - g t^2 / 2 + g t^3 / (6 T).  Checked against these closed forms:
**   - the first impact's time and velocity before it (the cubic's root) and
**     after it, -0.5 times: the toy's restitution, not the model's;
**   - one separation, at T, done by the toy law's transition;
**   - the toy law told of every event at its gap (on_event);
**   - x and v at t_end;
** by the exact method and by adaptive (which locates the events with the
** toy law's own event function).  TOY_TRACE=1 prints the events.  With
** the argument `unregistered` it leaves out the registration and
** checks that the runtime refuses the model with a clear reason.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nsm/nsm.h"
#include "toy_law.h"

enum { M, G, H, E, F1 };

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

static int failures;

/* One check: |got - want| <= tol, or a FAIL line. */
static void check(const char *what, double got, double want, double tol)
{
    int ok = fabs(got - want) <= tol;
    printf("%s %s: %.15g (closed form %.15g)\n", ok ? "ok  " : "FAIL", what, got, want);
    failures += !ok;
}

/* Without the registration the model must be refused, with the reason. */
static int unregistered(void)
{
    const char *why = NULL;
    nsm_sim *s = nsm_sim_create(&toy_model);
    int refused = !s && nsm_model_check(&toy_model, &why) == NSM_EMODEL && why &&
                  strstr(why, "contact law");
    printf("%s unregistered law refused: %s\n", refused ? "ok  " : "FAIL", why ? why : "(no reason)");
    nsm_sim_free(s);
    return refused ? 0 : 1;
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
    printf("method %s\n", nsm_method_name(method));
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
    check("velocity after it (toy restitution 0.5)", seen.va1, TOY_E * seen.vb1 * -1, 1e-12 * v1);
    check("... and the closed form", seen.va1, TOY_E * v1, 1e-8 * v1);
    check("separations by the toy law's transition", (double)toy_transitions, 1, 0);
    check("separations logged", (double)seen.separations, 1, 0);
    check("separation time", seen.t_sep, T, 1e-6);
    check("events the toy law was told of", (double)toy_events, (double)seen.events, 0);
    check("x at 10.5 s", y[0], g * tau * tau * tau / (6 * T), 1e-6);
    check("v at 10.5 s", y[1], g * tau * tau / (2 * T), 1e-6);
    nsm_sim_free(s);
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "unregistered"))
        return unregistered();
    if (toy_law_register() != NSM_OK) {   /* the program's one registration line */
        printf("FAIL the toy law could not be registered\n");
        return 1;
    }
    int methods[] = { NSM_METHOD_EXACT, NSM_METHOD_ADAPTIVE };
    for (int i = 0; i < 2; i++)
        run_toy(methods[i]);
    printf("%s contact law name: %s\n", strcmp(nsm_law_name(TOY_LAW), "toy") ? "FAIL" : "ok  ",
           nsm_law_name(TOY_LAW));
    failures += strcmp(nsm_law_name(TOY_LAW), "toy") != 0;
    return failures ? 1 : 0;
}
