/*
 * forced.c: hand-written model table, a mass on a spring (m, k, damper c,
 * rest length L from the ground at x = 0) under a step force F0 while
 * t <= T, 0 after (one time switch, s = t - T).
 * The forcing has the generator z' = 0, z(0) = 1, f = B z with B = F0 * sw,
 * so the exact method applies.
 */
#include "nsm/model.h"

enum { M, K, C, F0, T, L };

static const char *const bodies[] = { "M" };
static const nsm_param_info params[] = {
    { "m", "kg", 2 }, { "k", "N/m", 50 }, { "c", "N*s/m", 0.4 }, { "F0", "N", 3 }, { "T", "s", 0.75 },
    { "L", "m", 0 },
};
static const nsm_spring_info springs[] = { { "S", -1, 0 } };
static const nsm_output_info outputs[] = {
    { "M.x", "m", NSM_OUT_X, 0 }, { "E.injected", "J", NSM_OUT_INJECTED, 0 },
    { "E.dissipated", "J", NSM_OUT_DISSIPATED, 0 }, { "E.error", "J", NSM_OUT_ERROR, 0 },
};

/* Entry k of a sparse table: element (r, c) gets v (nsm/model.h). */
#define ENTRY(T, k, r, c, v) ((T).row[k] = (r), (T).col[k] = (c), (T).val[k] = (v))

static int setup(const double *p, double *c, nsm_numeric *num)
{
    (void)c;
    if (!(p[M] > 0))
        return 1 + M;
    num->mass[0] = p[M];
    ENTRY(num->K, 0, 0, 0, p[K]);
    ENTRY(num->C, 0, 0, 0, p[C]);
    num->fconst[0] = p[K] * p[L];
    num->sk[0] = p[K];
    num->sc[0] = p[C];
    num->srest[0] = p[L];
    return 0;
}

static void initial(const double *p, const double *c, double *y)
{
    (void)p, (void)c;
    y[0] = y[1] = 0;
}

static void force(double t, const int *sw, const double *p, const double *c, double *f)
{
    (void)t, (void)c;
    f[0] = sw[0] ? p[F0] : 0;
}

static void force_dot(double t, const int *sw, const double *p, const double *c, double *f)
{
    (void)t, (void)sw, (void)p, (void)c;
    f[0] = 0;
}

static void switch_fn(int k, double t, const double *p, const double *c, double *s, double *sd)
{
    (void)k, (void)c;
    *s = t - p[T];
    *sd = 1;
}

static int switch_state(int k, double t, const double *p, const double *c)
{
    (void)k, (void)c;
    return t <= p[T];
}

static void generator(const int *sw, const double *p, const double *c, double *G, double *B)
{
    (void)c;
    G[0] = 0;
    B[0] = sw[0] ? p[F0] : 0;
}

static void generator_state(double t, const int *sw, const double *p, const double *c, double *z)
{
    (void)t, (void)sw, (void)p, (void)c;
    z[0] = 1;
}

const nsm_model forced_model = {
    .abi = NSM_ABI_VERSION, .name = "forced", .title = "step-forced oscillator",
    .n_bodies = 1, .n_params = 6, .n_gaps = 0, .n_switches = 1, .n_outputs = 4,
    .n_springs = 1, .springs = springs,
    .body_names = bodies, .params = params, .outputs = outputs, .t_end = 1.5, .dt = 1e-3,
    .every = 0.01, .method = NSM_METHOD_RK4, .setup = setup, .initial = initial, .force = force,
    .force_dot = force_dot, .switch_fn = switch_fn, .switch_state = switch_state,
    .n_gen = 1, .generator = generator, .generator_state = generator_state,
    .nnz_K = 1, .nnz_C = 1,
};
