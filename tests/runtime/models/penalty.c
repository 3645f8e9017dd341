/*
 * penalty.c: hand-written model table, a mass on a return spring (k, rest at
 * x = 0) launched with velocity v0 towards a compliant wall at distance d0:
 * gap = d0 - x, penalty force kc p + cc p' while engaged (release when the
 * force reaches 0).  Generic path only.
 */
#include "nsm/model.h"

enum { M, K, KC, CC, D0, V0 };

static const char *const bodies[] = { "M" };
static const nsm_param_info params[] = {
    { "m", "kg", 1 }, { "k", "N/m", 4 }, { "kc", "N/m", 400 }, { "cc", "N*s/m", 0 },
    { "d0", "m", 0.1 }, { "v0", "m/s", 1 },
};
static const nsm_gap_info gaps[] = { { "wall", NSM_LAW_PENALTY, NSM_RELEASE_FORCE } };
static const nsm_output_info outputs[] = {
    { "M.x", "m", NSM_OUT_X, 0 }, { "wall.force", "N", NSM_OUT_FORCE, 0 },
    { "E.error", "J", NSM_OUT_ERROR, 0 },
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
    num->fconst[0] = 0;
    ENTRY(num->W, 0, 0, 0, -1);
    num->d[0] = p[D0];
    num->e[0] = 0;
    num->kc[0] = p[KC];
    num->cc[0] = p[CC];
    return 0;
}

static void initial(const double *p, const double *c, double *y)
{
    (void)c;
    y[0] = 0;
    y[1] = p[V0];
}

const nsm_model penalty_model = {
    .abi = NSM_ABI_VERSION, .name = "penalty", .title = "mass on a spring against a compliant wall",
    .n_bodies = 1, .n_params = 6, .n_gaps = 1, .n_outputs = 3, .body_names = bodies,
    .params = params, .gaps = gaps, .outputs = outputs, .t_end = 2, .dt = 1e-4, .every = 0.01,
    .method = NSM_METHOD_RK4, .setup = setup, .initial = initial,
    .nnz_K = 1, .nnz_W = 1,
};
