/*
 * two_mass.c: hand-written model table, the two-mass oscillator of Dedow and
 * Murphy (2021): mass 1 tied to the left wall (k1, c1), mass 2 to the right
 * wall (k2, c2), gap r = u2 - u1 >= 0 with restitution e.  Initial state from
 * parameters.  Compiled twice: with straight-line per-mode functions written
 * by hand (two_mass_model), and with -DTWO_MASS_GENERIC (two_mass_generic_model)
 * where they return NSM_NOT_DERIVED so the runtime's generic path runs.
 */
#include <stddef.h>

#include "nsm/model.h"

enum { M1, M2, C1, C2, K1, K2, E, U1, U2, V1, V2 };

static const char *const bodies[] = { "M1", "M2" };
static const nsm_param_info params[] = {
    { "m1", "kg", 5 }, { "m2", "kg", 5 }, { "c1", "N*s/m", 1 }, { "c2", "N*s/m", 1 },
    { "k1", "N/m", 2 }, { "k2", "N/m", 1 }, { "e", "", 0.9 },
    { "u1", "m", -1 }, { "u2", "m", -1 }, { "v1", "m/s", 0 }, { "v2", "m/s", 0 },
};
static const nsm_gap_info gaps[] = { { "r", NSM_LAW_IMPACT, NSM_RELEASE_FORCE } };
static const nsm_output_info outputs[] = {
    { "M1.x", "m", NSM_OUT_X, 0 }, { "M2.x", "m", NSM_OUT_X, 1 },
    { "r.force", "N", NSM_OUT_FORCE, 0 }, { "E.error", "J", NSM_OUT_ERROR, 0 },
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
    if (!(p[E] >= 0 && p[E] <= 1))
        return 1 + E;
    num->mass[0] = p[M1];
    num->mass[1] = p[M2];
    ENTRY(num->K, 0, 0, 0, p[K1]), ENTRY(num->K, 1, 1, 1, p[K2]);
    ENTRY(num->C, 0, 0, 0, p[C1]), ENTRY(num->C, 1, 1, 1, p[C2]);
    num->fconst[0] = num->fconst[1] = 0;
    ENTRY(num->W, 0, 0, 0, -1), ENTRY(num->W, 1, 0, 1, 1);
    num->d[0] = 0;
    num->e[0] = p[E];
    num->kc[0] = num->cc[0] = 0;
    num->gravity = 0;
    return 0;
}

static void initial(const double *p, const double *c, double *y)
{
    (void)c;
    y[0] = p[U1], y[1] = p[U2], y[2] = p[V1], y[3] = p[V2];
}

static void force(double t, const int *sw, const double *p, const double *c, double *f)
{
    (void)t, (void)sw, (void)p, (void)c;
    f[0] = f[1] = 0;
}

#ifndef TWO_MASS_GENERIC
/* Per mode: free (mode 0), stuck (mode 1, Eq. 5 of the paper); each output
 * that is not NULL is filled. */
static int modes(const unsigned *mode, double t, const double *y, const int *sw, const double *p,
                 const double *c, double *yd, double *lam, double *s, double *sd)
{
    (void)t, (void)sw, (void)c;
    double F1 = -p[K1] * y[0] - p[C1] * y[2], F2 = -p[K2] * y[1] - p[C2] * y[3];
    double a = (F1 + F2) / (p[M1] + p[M2]);
    if (yd) {
        yd[0] = y[2], yd[1] = y[3];
        yd[2] = mode[0] ? a : F1 / p[M1];
        yd[3] = mode[0] ? a : F2 / p[M2];
    }
    if (lam)
        lam[0] = mode[0] ? p[M2] * a - F2 : 0;
    if (s && mode[0] == 0) {
        s[0] = y[1] - y[0];
        sd[0] = y[3] - y[2];
    } else if (s) {
        double F1d = -p[K1] * y[2] - p[C1] * a, F2d = -p[K2] * y[3] - p[C2] * a;
        double ad = (F1d + F2d) / (p[M1] + p[M2]);
        s[0] = p[M2] * a - F2;
        sd[0] = p[M2] * ad - F2d;
    }
    return 0;
}

/* The derivatives alone: modes() asked for ydot only. */
static int deriv(const unsigned *mode, double t, const double *y, const int *sw, const double *p,
                 const double *c, double *yd)
{
    return modes(mode, t, y, sw, p, c, yd, NULL, NULL, NULL);
}

/* The event functions alone: modes() asked for s and s' only. */
static int events(const unsigned *mode, double t, const double *y, const int *sw, const double *p,
                  const double *c, double *s, double *sd)
{
    return modes(mode, t, y, sw, p, c, NULL, NULL, s, sd);
}
#define NAME two_mass_model
#define FUNCS .modes = modes, .deriv = deriv, .events = events,
#else
#define NAME two_mass_generic_model
#define FUNCS /* modes stays NULL: the generic path runs every mode */
#endif

const nsm_model NAME = {
    .abi = NSM_ABI_VERSION, .name = "two_mass", .title = "Dedow and Murphy two-mass oscillator",
    .n_bodies = 2, .n_params = 11, .n_gaps = 1, .n_switches = 0, .n_springs = 0, .n_consts = 0,
    .body_names = bodies, .params = params, .gaps = gaps,
    .n_outputs = 4, .outputs = outputs, .t_end = 20, .dt = 1e-3, .every = 0.01,
    .method = NSM_METHOD_RK4, .setup = setup, .initial = initial, .force = force,
    FUNCS
    .nnz_K = 2, .nnz_C = 2, .nnz_W = 2,
};
