/*
 * stack.c: hand-written model table, a block B1 resting on rigid ground and
 * a ball B2 dropped onto it from height h.  Two impact gaps: floor (x1 >= 0,
 * restitution ef) and top (x2 - x1 >= 0, restitution e).  When B2 hits B1,
 * the closed floor contact takes part in the impulse LCP.  Generic path only.
 */
#include "nsm/model.h"

enum { M1, M2, G, H, E, EF };

static const char *const bodies[] = { "B1", "B2" };
static const nsm_param_info params[] = {
    { "m1", "kg", 2 }, { "m2", "kg", 0.5 }, { "g", "m/s^2", 9.81 }, { "h", "m", 0.8 },
    { "e", "", 0.6 }, { "ef", "", 0 },
};
static const nsm_gap_info gaps[] = {
    { "floor", NSM_LAW_IMPACT, NSM_RELEASE_FORCE }, { "top", NSM_LAW_IMPACT, NSM_RELEASE_FORCE },
};
static const nsm_output_info outputs[] = {
    { "B1.x", "m", NSM_OUT_X, 0 }, { "B2.x", "m", NSM_OUT_X, 1 },
    { "floor.force", "N", NSM_OUT_FORCE, 0 },
};

/* Entry k of a sparse table: element (r, c) gets v (nsm/model.h). */
#define ENTRY(T, k, r, c, v) ((T).row[k] = (r), (T).col[k] = (c), (T).val[k] = (v))

static int setup(const double *p, double *c, nsm_numeric *num)
{
    (void)c;
    if (!(p[M1] > 0))
        return 1 + M1;
    if (!(p[M2] > 0))
        return 1 + M2;
    num->mass[0] = p[M1];
    num->mass[1] = p[M2];
    num->fconst[0] = -p[M1] * p[G];
    num->fconst[1] = -p[M2] * p[G];
    ENTRY(num->W, 0, 0, 0, 1);                            /* floor: x1 */
    ENTRY(num->W, 1, 1, 0, -1), ENTRY(num->W, 2, 1, 1, 1); /* top: x2 - x1 */
    num->d[0] = num->d[1] = 0;
    num->e[0] = p[EF];
    num->e[1] = p[E];
    num->kc[0] = num->kc[1] = num->cc[0] = num->cc[1] = 0;
    num->gravity = p[G];
    return 0;
}

static void initial(const double *p, const double *c, double *y)
{
    (void)c;
    y[0] = 0, y[1] = p[H], y[2] = 0, y[3] = 0;
}

const nsm_model stack_model = {
    .abi = NSM_ABI_VERSION, .name = "stack", .title = "ball dropped on a block resting on the ground",
    .n_bodies = 2, .n_params = 6, .n_gaps = 2, .n_outputs = 3, .body_names = bodies,
    .params = params, .gaps = gaps, .outputs = outputs, .t_end = 0.6, .dt = 1e-3, .every = 0.01,
    .method = NSM_METHOD_RK4, .setup = setup, .initial = initial,
    .nnz_W = 3,
};
