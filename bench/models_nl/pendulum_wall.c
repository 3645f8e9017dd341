/*
** pendulum_wall.c: the impact pendulum of bench/nl_bench.py, written by hand
** in the model ABI of runtime/include/nsm/model.h (the nonlinear
** functions at the end of struct nsm_model) before nsmc compiled
** nonlinear models, kept as the benchmark's baseline
** (bench/models_nl/pendulum.nsm is the same problem for nsmc).  What it
** writes for
**
**     theta'' = -w2 sin(theta),  gap W: theta - theta_w >= 0, impact(e)
**
** with unit inertia: nl_force gives -w2 sin(theta) at a state, nl_series
** its Taylor coefficients order by order from sin's and cos's
** recurrences (k S_k = sum_j j x_j C_{k-j}, k C_k = -sum_j j x_j S_{k-j}).
** Parameters w2 = 9.81, e = 0.8, thw = -0.3 rad, th0 = 1 rad (released at
** rest); 10 s.  Compiled with -DNSM_NO_MAIN into bench/models_nl/nl_api.c;
** alone it is a simulator with the usual command line:
**
**     cc -O2 bench/models_nl/pendulum_wall.c -Iruntime/include build/libnsmcli.a \
**        build/libnsmrt.a $(pkg-config --libs hdf5) -lm -o pendulum_wall
*/
#include <math.h>
#include <stddef.h>

#include "nsm/model.h"

static const char *const body_names[] = { "P.theta" };
static const nsm_param_info params[] = {
    { "w2", "1/s^2", 9.81 }, { "e", "", 0.8 }, { "thw", "rad", -0.3 }, { "th0", "rad", 1.0 } };
static const nsm_gap_info gaps[] = { { "W", NSM_LAW_IMPACT, NSM_RELEASE_FORCE } };
static const nsm_output_info outputs[] = {
    { "P.theta", "rad", NSM_OUT_X, 0 }, { "P.omega", "rad/s", NSM_OUT_V, 0 } };

static int setup(const double *p, double *c, nsm_numeric *num)
{
    (void)c;
    if (!(p[1] >= 0 && p[1] <= 1))
        return 2;
    num->mass[0] = 1;
    num->fconst[0] = 0;
    num->W.row[0] = 0;           /* gap = theta - thw */
    num->W.col[0] = 0;
    num->W.val[0] = 1;
    num->d[0] = -p[2];
    num->e[0] = p[1];
    return 0;
}

static void initial(const double *p, const double *c, double *y)
{
    (void)c;
    y[0] = p[3];
    y[1] = 0;
}

static void nl_force(double t, const double *y, const int *sw, const double *p, const double *c,
                     double *F)
{
    (void)t, (void)sw, (void)c;
    F[0] += -p[0] * sin(y[0]);
}

/* work: S (sin theta) and C (cos theta), K + 1 coefficients each. */
static void nl_series(int k, int K, double t0, const double *X, const int *sw, const double *p,
                      const double *c, double *w, double *F, double *G, double *CV, double *WV)
{
    (void)t0, (void)sw, (void)c, (void)G, (void)CV, (void)WV;
    double *S = w, *C = w + (K + 1);
    const double *x = X;         /* row 0: theta's coefficients */
    if (k == 0) {
        S[0] = sin(x[0]);
        C[0] = cos(x[0]);
    } else {
        double s = 0, cc = 0;
        for (int j = 1; j <= k; j++) {
            s += j * x[j] * C[k - j];
            cc -= j * x[j] * S[k - j];
        }
        S[k] = s / k;
        C[k] = cc / k;
    }
    F[k] = -p[0] * S[k];
}

static void settings(const double *p, double *t)
{
    (void)p;
    t[0] = 10;
    t[1] = 0;
    t[2] = 0.01;
}

const nsm_model nsm_model_pendulum_wall = {
    .abi = NSM_ABI_VERSION, .name = "pendulum_wall", .title = "impact pendulum (hand-written)",
    .n_bodies = 1, .n_params = 4, .n_gaps = 1, .body_names = body_names, .params = params,
    .gaps = gaps, .n_outputs = 2, .outputs = outputs, .t_end = 10, .dt = 0, .every = 0.01,
    .method = NSM_METHOD_TAYLOR, .setup = setup, .initial = initial, .settings = settings,
    .nnz_W = 1, .nl = NSM_NL_FORCE, .nl_force = nl_force, .nl_nwork = 2, .nl_series = nl_series,
};

#ifndef NSM_NO_MAIN
#include "nsm/cli.h"
int main(int argc, char **argv) { return nsm_main(&nsm_model_pendulum_wall, argc, argv); }
#endif
