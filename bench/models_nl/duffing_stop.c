/*
** duffing_stop.c: the Duffing oscillator against a stop of
** bench/nl_bench.py, written by hand in the model ABI of
** runtime/include/nsm/model.h before nsmc compiled nonlinear models,
** kept as the benchmark's baseline (bench/models_nl/duffing.nsm is the
** same problem for nsmc).  What it writes for
**
**     x'' + c x' + k x + alpha x^3 = F cos(w t)   (unit mass)
**     gap S: xs - x >= 0, impact(e)
**
** All four forces are `force` statements: F cos(w t) depends on time only
** (force, force_terms), -k x - c v - alpha x^3 on the state (nl_force).
** nl_series gives their sum order by order: x^3 by two Cauchy products
** (x2 = x x, x3 = x2 x, in the work array), cos(w (t0 + tau)) by its
** closed-form coefficients w^j cos(w t0 + j pi/2) / j! (one cos and one
** sin per expansion).
** Parameters k = 1, c = 0.1, alpha = 0.5, F = 1.2, w = 1.3, xs = 0.9,
** e = 0.8, from x = 0, v = 0; 20 s.  Compiled with -DNSM_NO_MAIN into
** bench/models_nl/nl_api.c; alone it is a simulator:
**
**     cc -O2 bench/models_nl/duffing_stop.c -Iruntime/include build/libnsmcli.a \
**        build/libnsmrt.a $(pkg-config --libs hdf5) -lm -o duffing_stop
*/
#include <math.h>
#include <stddef.h>

#include "nsm/model.h"

enum { P_K, P_C, P_ALPHA, P_F, P_W, P_XS, P_E, P_X0, P_V0 };

static const char *const body_names[] = { "M" };
static const nsm_param_info params[] = {
    { "k", "N/m", 1 },     { "c", "N*s/m", 0.1 }, { "alpha", "N/m^3", 0.5 },
    { "F", "N", 1.2 },     { "w", "rad/s", 1.3 }, { "xs", "m", 0.9 },
    { "e", "", 0.8 },      { "x0", "m", 0 },      { "v0", "m/s", 0 } };
static const nsm_gap_info gaps[] = { { "stop", NSM_LAW_IMPACT, NSM_RELEASE_FORCE } };
static const nsm_output_info outputs[] = {
    { "M.x", "m", NSM_OUT_X, 0 }, { "M.v", "m/s", NSM_OUT_V, 0 } };
static const nsm_force_info forces[] = { { "drive", 0 } };

static int setup(const double *p, double *c, nsm_numeric *num)
{
    (void)c;
    if (!(p[P_E] >= 0 && p[P_E] <= 1))
        return 1 + P_E;
    num->mass[0] = 1;
    num->fconst[0] = 0;
    num->W.row[0] = 0;           /* gap = xs - x */
    num->W.col[0] = 0;
    num->W.val[0] = -1;
    num->d[0] = p[P_XS];
    num->e[0] = p[P_E];
    return 0;
}

static void initial(const double *p, const double *c, double *y)
{
    (void)c;
    y[0] = p[P_X0];
    y[1] = p[P_V0];
}

static void force(double t, const int *sw, const double *p, const double *c, double *f)
{
    (void)sw, (void)c;
    f[0] = p[P_F] * cos(p[P_W] * t);
}

static void force_dot(double t, const int *sw, const double *p, const double *c, double *f)
{
    (void)sw, (void)c;
    f[0] = -p[P_F] * p[P_W] * sin(p[P_W] * t);
}

static void force_terms(double t, const int *sw, const double *p, const double *c, double *fk)
{
    force(t, sw, p, c, fk);
}

static void nl_force(double t, const double *y, const int *sw, const double *p, const double *c,
                     double *F)
{
    (void)t, (void)sw, (void)c;
    F[0] += -p[P_K] * y[0] - p[P_C] * y[1] - p[P_ALPHA] * y[0] * y[0] * y[0];
}

/* work: x2 = x^2, x3 = x^3 (K + 1 coefficients each), then cos and sin of
** the forcing's phase at t0 and w^k / k!. */
static void nl_series(int k, int K, double t0, const double *X, const int *sw, const double *p,
                      const double *c, double *w, double *F, double *G, double *CV, double *WV)
{
    (void)sw, (void)c, (void)G, (void)CV, (void)WV;
    double *x2 = w, *x3 = w + (K + 1);
    const double *x = X, *v = X + (K + 1);   /* rows 0 and 1: x's and v's coefficients */
    double s2 = 0, s3 = 0;
    for (int j = 0; j <= k; j++)
        s2 += x[j] * x[k - j];
    x2[k] = s2;
    for (int j = 0; j <= k; j++)
        s3 += x2[j] * x[k - j];
    x3[k] = s3;
    /* cos(w t0 + w tau): coefficient k = w^k / k! cos(w t0 + k pi/2), the
     * phase's cosine and sine taken once per expansion (work row 2) */
    double *cw = w + 2 * (K + 1);
    if (k == 0) {
        cw[0] = cos(p[P_W] * t0);
        cw[1] = sin(p[P_W] * t0);
        cw[2] = 1;                       /* w^k / k! */
    } else
        cw[2] *= p[P_W] / k;
    double cs = (k & 1) ? cw[1] : cw[0];
    if ((k & 3) == 1 || (k & 3) == 2)
        cs = -cs;
    F[k] = p[P_F] * cw[2] * cs - p[P_K] * x[k] - p[P_C] * v[k] - p[P_ALPHA] * x3[k];
}

static void settings(const double *p, double *t)
{
    (void)p;
    t[0] = 20;
    t[1] = 0;
    t[2] = 0.01;
}

const nsm_model nsm_model_duffing_stop = {
    .abi = NSM_ABI_VERSION, .name = "duffing_stop", .title = "Duffing oscillator against a stop (hand-written)",
    .n_bodies = 1, .n_params = 9, .n_gaps = 1, .body_names = body_names, .params = params,
    .gaps = gaps, .n_outputs = 2, .outputs = outputs, .t_end = 20, .dt = 0, .every = 0.01,
    .method = NSM_METHOD_TAYLOR, .setup = setup, .initial = initial, .force = force,
    .force_dot = force_dot, .n_forces = 1, .forces = forces, .force_terms = force_terms,
    .settings = settings, .nnz_W = 1, .nl = NSM_NL_FORCE, .nl_force = nl_force, .nl_nwork = 3,
    .nl_series = nl_series,
};

#ifndef NSM_NO_MAIN
#include "nsm/cli.h"
int main(int argc, char **argv) { return nsm_main(&nsm_model_duffing_stop, argc, argv); }
#endif
