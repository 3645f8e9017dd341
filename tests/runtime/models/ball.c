/*
 * ball.c: hand-written model table, a ball dropped on rigid ground.
 * One body, one impact gap (gap = x), gravity.  Only the numeric tables are
 * given (modes is NULL): the runtime's generic path runs it.
 */
#include "nsm/model.h"

static const char *const bodies[] = { "B" };
static const nsm_param_info params[] = {
    { "m", "kg", 1.0 }, { "g", "m/s^2", 9.81 }, { "h", "m", 1.0 }, { "e", "", 0.5 },
    { "v0", "m/s", 0.0 },
};
static const nsm_gap_info gaps[] = { { "floor", NSM_LAW_IMPACT, NSM_RELEASE_FORCE } };
static const nsm_output_info outputs[] = {
    { "B.x", "m", NSM_OUT_X, 0 }, { "B.v", "m/s", NSM_OUT_V, 0 },
    { "floor.force", "N", NSM_OUT_FORCE, 0 }, { "E.error", "J", NSM_OUT_ERROR, 0 },
};

/* Numeric tables from p = (m, g, h, e, v0). */
/* Entry k of a sparse table: element (r, c) gets v (nsm/model.h). */
#define ENTRY(T, k, r, c, v) ((T).row[k] = (r), (T).col[k] = (c), (T).val[k] = (v))

static int setup(const double *p, double *c, nsm_numeric *num)
{
    (void)c;
    if (!(p[0] > 0))
        return 1;
    if (!(p[3] >= 0 && p[3] <= 1))
        return 4;
    num->mass[0] = p[0];
    num->fconst[0] = -p[0] * p[1];
    ENTRY(num->W, 0, 0, 0, 1);
    num->d[0] = 0;
    num->e[0] = p[3];
    num->kc[0] = num->cc[0] = 0;
    num->gravity = p[1];
    return 0;
}

static void initial(const double *p, const double *c, double *y)
{
    (void)c;
    y[0] = p[2];
    y[1] = p[4];
}

const nsm_model ball_model = {
    .abi = NSM_ABI_VERSION, .name = "ball", .title = "ball on rigid ground",
    .n_bodies = 1, .n_params = 5, .n_gaps = 1, .n_switches = 0, .n_springs = 0, .n_consts = 0,
    .body_names = bodies, .params = params, .gaps = gaps, .springs = 0,
    .n_outputs = 4, .outputs = outputs, .t_end = 2.0, .dt = 1e-3, .every = 0.01,
    .method = NSM_METHOD_RK4, .setup = setup, .initial = initial,
    .nnz_W = 1,
};
