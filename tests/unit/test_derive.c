/*
 * test_derive.c - checks of the symbolic derivation.
 *
 * 1. Dedow & Murphy's two-mass oscillator, built here by hand (independent of
 *    the front end): the relative-coordinate matrix equals the paper's Eq. 2,
 *    the stuck mode with the force as a state equals Eq. 11 (with A42, A43 of
 *    Eq. 11, not the sign-flipped ones printed in Eq. 13).  The paper's
 *    entries are built with the expr API and compared symbolically (their
 *    difference over a common denominator is 0) and numerically.
 * 2. Properties, for every mode of the hand-built models and of every model
 *    file given on the command line (parsed with the front end): the derived
 *    event-function derivative equals a central finite difference of the
 *    event function along the flow; closed impact gaps keep w_j . a = 0;
 *    the forcing generator reproduces f_ext(t) and z' = G z.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "derive.h"
#include "emit.h"
#include "laws.h"
#include "parse.h"
#include "sema.h"
#include "source.h"

static int failures;

/* A body on the line as sema makes it: states NAME.x, NAME.v, NAME.a. */
static Body line_body(const char *name, int line, Expr *mass)
{
    static char names[4][3][16];
    static int used;
    char (*nm)[16] = names[used++ % 4];
    snprintf(nm[0], sizeof nm[0], "%s.x", name);
    snprintf(nm[1], sizeof nm[1], "%s.v", name);
    snprintf(nm[2], sizeof nm[2], "%s.a", name);
    Body b = {name, {line, 1, 1}, mass, COORD_LINE, -1, -1, nm[0], nm[1], nm[2], "m", "m/s", "m/s^2", NULL, 0};
    return b;
}
static int checks;

#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        checks++;                                                          \
        if (!(cond)) {                                                     \
            failures++;                                                    \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                  \
            fputc('\n', stderr);                                           \
        }                                                                  \
    } while (0)

/* Deterministic pseudo-random numbers in [lo, hi). */
static unsigned long long rng_state = 0x9e3779b97f4a7c15ull;
static double urand(double lo, double hi)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * (double)(rng_state >> 11) / 9007199254740992.0;
}

/* ---- hand-built models ------------------------------------------------------ */

enum { P_M1, P_M2, P_K1, P_K2, P_C1, P_C2, P_E, P_A, P_W, P_T, NP };

/* Dedow & Murphy's oscillator: M1 tied to the left wall by k1, c1, M2 to the
 * right wall by k2, c2, gap C = M2.x - M1.x, impact law.  With `forced`, a
 * harmonic force A sin(w t) on M1 and a step A (t <= T) on M2. */
static Model *two_mass(Arena *a, int forced)
{
    static const char *names[NP] = {"m1", "m2", "k1", "k2", "c1", "c2", "e", "A", "w", "T"};
    static const double values[NP] = {5, 5, 2, 1, 1, 1, 0.9, 3, 2, 1.5};
    Model *m = arena_alloc(a, sizeof *m);
    ExprCtx *x = expr_ctx_new(a);
    m->ex = x;
    m->path = "two_mass.nsm";
    m->name = "two_mass";
    m->title = "";
    m->n_params = forced ? NP : P_E + 1;
    m->params = arena_alloc(a, NP * sizeof *m->params);
    for (int i = 0; i < m->n_params; i++) {
        m->params[i].name = names[i];
        m->params[i].value = expr_num(x, values[i]);
        m->params[i].number = values[i];
        m->params[i].unit = "";
    }
    m->n_bodies = 2;
    m->bodies = arena_alloc(a, 2 * sizeof *m->bodies);
    m->bodies[0] = line_body("M1", 1, expr_param(x, P_M1));
    m->bodies[1] = line_body("M2", 2, expr_param(x, P_M2));
    m->n_springs = 2;
    m->springs = arena_alloc(a, 2 * sizeof *m->springs);
    m->springs[0] = (Spring){"left", {3, 1, 1}, -1, 0, expr_param(x, P_K1), expr_param(x, P_C1), expr_num(x, 0)};
    m->springs[1] = (Spring){"right", {4, 1, 1}, 1, -1, expr_param(x, P_K2), expr_param(x, P_C2), expr_num(x, 0)};
    m->n_gaps = 1;
    m->gaps = arena_alloc(a, sizeof *m->gaps);
    m->gaps[0].name = "C";
    m->gaps[0].loc = (SrcLoc){5, 1, 1};
    m->gaps[0].n_w = 2;
    m->gaps[0].w_body = arena_alloc(a, 2 * sizeof(int));
    m->gaps[0].w_body[1] = 1;
    m->gaps[0].w = arena_alloc(a, 2 * sizeof(Expr *));
    m->gaps[0].w[0] = expr_num(x, -1);
    m->gaps[0].w[1] = expr_num(x, 1);
    m->gaps[0].d = expr_num(x, 0);
    m->gaps[0].law = laws_find("impact");
    m->gaps[0].e = expr_param(x, P_E);
    if (forced) {
        Expr *t = expr_time(x);
        m->n_forces = 2;
        m->forces = arena_alloc(a, 2 * sizeof *m->forces);
        m->forces[0] = (Force){"F1", {6, 1, 1}, 0,
                               expr_mul(x, expr_param(x, P_A),
                                        expr_call(x, FN_SIN, expr_mul(x, expr_param(x, P_W), t), NULL)), false};
        m->forces[1] = (Force){"F2", {7, 1, 1}, 1,
                               expr_if(x, expr_cmp(x, CMP_LE, t, expr_param(x, P_T)),
                                       expr_param(x, P_A), expr_num(x, 0)), false};
    }
    m->init_x = arena_alloc(a, 2 * sizeof(Expr *));
    m->init_v = arena_alloc(a, 2 * sizeof(Expr *));
    for (int i = 0; i < 2; i++)
        m->init_x[i] = m->init_v[i] = expr_num(x, 0);
    m->t_end = 20;
    m->dt = 1e-3;
    return m;
}

/* A ball between a floor (impact) and a ceiling (penalty, force release),
 * under gravity: exercises penalty modes and the inadmissibility check. */
static Model *ball(Arena *a)
{
    Model *m = arena_alloc(a, sizeof *m);
    ExprCtx *x = expr_ctx_new(a);
    m->ex = x;
    m->path = "ball.nsm";
    m->name = "ball";
    m->title = "";
    static const char *names[] = {"m", "g", "e", "H", "k", "c"};
    static const double values[] = {2, 9.81, 0.8, 1.5, 1e4, 3};
    m->n_params = 6;
    m->params = arena_alloc(a, 6 * sizeof *m->params);
    for (int i = 0; i < 6; i++) {
        m->params[i].name = names[i];
        m->params[i].value = expr_num(x, values[i]);
        m->params[i].number = values[i];
        m->params[i].unit = "";
    }
    m->n_bodies = 1;
    m->bodies = arena_alloc(a, sizeof *m->bodies);
    m->bodies[0] = line_body("B", 1, expr_param(x, 0));
    m->gravity = expr_param(x, 1);
    m->n_gaps = 3;
    m->gaps = arena_alloc(a, 3 * sizeof *m->gaps);
    for (int j = 0; j < 3; j++) {
        m->gaps[j].n_w = 1;
        m->gaps[j].w_body = arena_alloc(a, sizeof(int));
        m->gaps[j].w = arena_alloc(a, sizeof(Expr *));
        m->gaps[j].loc = (SrcLoc){2 + j, 1, 1};
    }
    m->gaps[0].name = "floor";
    m->gaps[0].w[0] = expr_num(x, 1);
    m->gaps[0].d = expr_num(x, 0);
    m->gaps[0].law = laws_find("impact");
    m->gaps[0].e = expr_param(x, 2);
    m->gaps[1].name = "ceiling";
    m->gaps[1].w[0] = expr_num(x, -1);
    m->gaps[1].d = expr_param(x, 3);
    m->gaps[1].law = laws_find("penalty");
    m->gaps[1].k = expr_param(x, 4);
    m->gaps[1].c = expr_param(x, 5);
    m->gaps[1].release = RELEASE_FORCE;
    m->gaps[2].name = "lid";
    m->gaps[2].w[0] = expr_num(x, -1);
    m->gaps[2].d = expr_mul(x, expr_num(x, 2), expr_param(x, 3));
    m->gaps[2].law = laws_find("impact");
    m->gaps[2].e = expr_param(x, 2);
    m->init_x = arena_alloc(a, sizeof(Expr *));
    m->init_v = arena_alloc(a, sizeof(Expr *));
    m->init_x[0] = expr_num(x, 1);
    m->init_v[0] = expr_num(x, 0);
    m->t_end = 1;
    m->dt = 1e-3;
    return m;
}

/* ---- comparisons -------------------------------------------------------------- */

/* True when a - b is zero as a rational function of the parameters. */
static bool sym_equal(ExprCtx *x, Expr *a, Expr *b)
{
    if (a == b)
        return true;
    Expr *den;
    return expr_is_zero(expr_together(x, expr_sub(x, a, b), &den));
}

/* True when a and b agree at several random parameter points. */
static bool num_equal(const Model *m, Expr *a, Expr *b)
{
    double p[64];
    for (int trial = 0; trial < 5; trial++) {
        for (int i = 0; i < m->n_params && i < 64; i++)
            p[i] = m->params[i].number * urand(0.5, 2.0) + urand(0.1, 1.0);
        ExprEnv env = {p, NULL, 0.7};
        double va = expr_eval(a, &env), vb = expr_eval(b, &env);
        if (!(fabs(va - vb) <= 1e-12 * (1 + fabs(va) + fabs(vb))))
            return false;
    }
    return true;
}

#define SAME(m, a, b, what)                                                     \
    do {                                                                        \
        char *sa_ = expr_to_string((m)->ex, (a), EXPR_TEXT, NULL);              \
        char *sb_ = expr_to_string((m)->ex, (b), EXPR_TEXT, NULL);              \
        CHECK(sym_equal((m)->ex, (a), (b)), "%s: ours %s, paper %s", what, sa_, sb_); \
        CHECK(num_equal((m), (a), (b)), "%s: ours %s, paper %s", what, sa_, sb_); \
    } while (0)

/* ---- the paper's equations ------------------------------------------------------- */

/* The paper's Eqs. 2, 5 and 11 for a two-mass model whose parameters m1, m2,
 * k1, k2, c1, c2 have indices ix[0..5]. */
static void test_paper(const Model *m, const int *ix, const char *what)
{
    Arena *a = arena_new();
    ExprCtx *x = m->ex;
    enum { I_M1, I_M2, I_K1, I_K2, I_C1, I_C2 };
    printf("%s: the paper's equations\n", what);
    Diag d;
    diag_init(&d, NULL, stderr);
    Derivation *dv = derive_model(m, a, &d);
    CHECK(dv != NULL, "%s derives", what);
    if (!dv) {
        arena_free(a);
        return;
    }
    CHECK(dv->n_modes == 2 && dv->enumerated, "two modes");
    Expr *m1 = expr_param(x, ix[I_M1]), *m2 = expr_param(x, ix[I_M2]);
    Expr *k1 = expr_param(x, ix[I_K1]), *k2 = expr_param(x, ix[I_K2]);
    Expr *c1 = expr_param(x, ix[I_C1]), *c2 = expr_param(x, ix[I_C2]);
    Expr *zero = expr_num(x, 0), *one = expr_num(x, 1);

    /* Eq. 2: states (u1, u1', r, r') */
    DvRelative rel;
    CHECK(dv_relative(dv, &dv->modes[0], &rel), "relative coordinates of the free mode");
    CHECK(rel.gap_of[0] == -1 && rel.gap_of[1] == 0, "M2's coordinate is replaced by the gap");
    Expr *eq2[16] = {
        zero, one, zero, zero,
        expr_neg(x, expr_div(x, k1, m1)), expr_neg(x, expr_div(x, c1, m1)), zero, zero,
        zero, zero, zero, one,
        expr_sub(x, expr_div(x, k1, m1), expr_div(x, k2, m2)),
        expr_sub(x, expr_div(x, c1, m1), expr_div(x, c2, m2)),
        expr_neg(x, expr_div(x, k2, m2)), expr_neg(x, expr_div(x, c2, m2))};
    for (int i = 0; i < 16; i++) {
        char what[32];
        snprintf(what, sizeof what, "Eq. 2 A[%d][%d]", i / 4 + 1, i % 4 + 1);
        SAME(m, rel.A[i], eq2[i], what);
    }
    /* the paper's printed forms come out literally (same hash-consed node) */
    CHECK(rel.A[12] == eq2[12], "Eq. 2 A41 prints as k1/m1 - k2/m2");
    for (int i = 0; i < 4; i++)
        CHECK(expr_is_zero(rel.b[i]), "Eq. 2 b[%d] = 0 without forces", i);

    /* Eq. 11: states (u1, u1', u1'', F_i) */
    DvForceState fs;
    CHECK(dv_force_state(dv, &dv->modes[1], &fs), "force-state form of the stuck mode");
    CHECK(fs.body == 0 && fs.r == 1, "reduced coordinate u1 of M1");
    Expr *msum = expr_add(x, m1, m2);
    Expr *A32 = expr_neg(x, expr_div(x, expr_add(x, k1, k2), msum));
    Expr *A33 = expr_neg(x, expr_div(x, expr_add(x, c1, c2), msum));
    Expr *A42 = expr_div(x, expr_sub(x, expr_mul(x, k2, m1), expr_mul(x, k1, m2)), msum);
    Expr *A43 = expr_div(x, expr_sub(x, expr_mul(x, c2, m1), expr_mul(x, c1, m2)), msum);
    SAME(m, fs.meff, msum, "Eq. 5 m1 + m2");
    SAME(m, fs.A32, A32, "Eq. 11 A32");
    SAME(m, fs.A33, A33, "Eq. 11 A33");
    SAME(m, fs.A42[0], A42, "Eq. 11 A42");
    SAME(m, fs.A43[0], A43, "Eq. 11 A43");
    CHECK(fs.A42[0] == A42, "A42 prints as (k2 m1 - k1 m2)/(m1 + m2)");
    CHECK(fs.A43[0] == A43, "A43 prints as (c2 m1 - c1 m2)/(m1 + m2)");
    /* Eq. 13 prints A42 with the opposite sign: it must not match */
    CHECK(!num_equal(m, fs.A42[0], expr_neg(x, A42)), "Eq. 13's sign of A42 is wrong");
    CHECK(expr_is_zero(fs.b3) && expr_is_zero(fs.b4[0]), "no forcing terms");

    /* the contact force equals the paper's F_i = m2 u'' + c2 u' + k2 u on the stuck manifold */
    {
        double p[64], vars[256];
        for (int i = 0; i < m->n_params && i < 64; i++)
            p[i] = m->params[i].number;
        double u = 0.3, ud = -0.7;
        double y[4] = {u, u, ud, ud};
        dv_eval_vars(dv, p, y, NULL, vars);
        ExprEnv env = {p, vars, 0};
        const DvMode *md = &dv->modes[1];
        double lam = expr_eval(dv_full(dv, md, md->lambda[0]), &env);
        double udd = -((p[ix[I_K1]] + p[ix[I_K2]]) * u + (p[ix[I_C1]] + p[ix[I_C2]]) * ud)
                     / (p[ix[I_M1]] + p[ix[I_M2]]);
        double Fi = p[ix[I_M2]] * udd + p[ix[I_C2]] * ud + p[ix[I_K2]] * u;
        CHECK(fabs(lam - Fi) < 1e-12, "lambda %g vs paper's F_i %g", lam, Fi);
        double acc1 = expr_eval(dv_full(dv, md, md->ydot[2]), &env);
        CHECK(fabs(acc1 - udd) < 1e-12, "stuck acceleration %g vs Eq. 5 %g", acc1, udd);
    }
    arena_free(a);
}

/* ---- properties -------------------------------------------------------------- */

/* Central difference of s along the flow against the derived s'. */
static void check_model(const Model *m, const char *what)
{
    Arena *a = arena_new();
    Diag d;
    diag_init(&d, NULL, stderr);
    Derivation *dv = derive_model(m, a, &d);
    CHECK(dv != NULL, "%s derives", what);
    if (!dv) {
        arena_free(a);
        return;
    }
    int n = dv->n, g = dv->g;
    double *p = calloc((size_t)m->n_params + 1, sizeof *p);
    double *vars = calloc((size_t)dv->n_vars + 1, sizeof *vars);
    double *y = calloc((size_t)(2 * n), sizeof *y);
    double *yd = calloc((size_t)(2 * n), sizeof *yd);
    double *y2 = calloc((size_t)(2 * n), sizeof *y2);
    int *sw = calloc((size_t)dv->n_sw + 1, sizeof *sw);
    for (int i = 0; i < m->n_params; i++)
        p[i] = m->params[i].number;
    int made = dv->enumerated ? dv->n_modes : 1;
    for (int k = 0; k < made; k++) {
        const DvMode *md = &dv->modes[k];
        if (md->status != DV_MODE_DERIVED)
            continue;
        Expr **yfull = malloc((size_t)(2 * n) * sizeof *yfull);
        for (int i = 0; i < 2 * n; i++)
            yfull[i] = dv_full(dv, md, md->ydot[i]);
        for (int trial = 0; trial < 3; trial++) {
            double t = urand(0, 3);
            for (int i = 0; i < 2 * n; i++)
                y[i] = urand(-1, 1) * (1 + fabs(p[0]) * 0);
            for (int s = 0; s < dv->n_sw; s++)
                sw[s] = (int)urand(0, 2);
            dv_eval_vars(dv, p, y, sw, vars);
            ExprEnv env = {p, vars, t};
            for (int i = 0; i < 2 * n; i++)
                yd[i] = expr_eval(yfull[i], &env);
            for (int j = 0; j < g; j++) {
                Expr *s = dv_full(dv, md, md->ev[j]);
                Expr *sd = dv_full(dv, md, md->evdot[j]);
                double der = expr_eval(sd, &env);
                double h = 1e-6, fd[2];
                for (int side = 0; side < 2; side++) {
                    double sg = side ? -1 : 1;
                    for (int i = 0; i < 2 * n; i++)
                        y2[i] = y[i] + sg * h * yd[i];
                    dv_eval_vars(dv, p, y2, sw, vars);
                    ExprEnv e2 = {p, vars, t + sg * h};
                    fd[side] = expr_eval(s, &e2);
                }
                double num = (fd[0] - fd[1]) / (2 * h);
                double scale = 1 + fabs(der) + fabs(num);
                /* max() of an open force-release gap has a kink: skip states on it */
                CHECK(fabs(der - num) <= 1e-5 * scale, "%s mode %u gap %d: s' = %.12g, finite difference %.12g",
                      what, md->mask, j, der, num);
                dv_eval_vars(dv, p, y, sw, vars);
            }
            /* closed impact gaps: w_j . a = 0, or -h_j'' on a moving surface */
            for (int r = 0; r < md->n_impact; r++) {
                int j = md->impact[r];
                double wa = dv->hdd[j] ? expr_eval(dv->hdd[j], &env) : 0, sc = fabs(wa);
                for (int i = 0; i < n; i++) {
                    double w = expr_eval(dvm_get(dv->W, j, i), &env);
                    wa += w * yd[n + i];
                    /* scale: the unconstrained acceleration F/m */
                    sc += fabs(w * expr_eval(dv_full(dv, md, dv->F[i]), &env) * expr_eval(dv->invm[i], &env));
                }
                CHECK(fabs(wa) <= 1e-12 * (1 + sc), "%s mode %u gap %d: w.a = %g", what, md->mask, j, wa);
            }
        }
        free(yfull);
    }
    /* generator: f_ext(t) = B z(t) and z' = G z */
    if (dv->n_gen) {
        int ng = dv->n_gen;
        for (int trial = 0; trial < 3; trial++) {
            double t = urand(0, 3);
            for (int s = 0; s < dv->n_sw; s++)
                sw[s] = (int)urand(0, 2);
            dv_eval_vars(dv, p, y, sw, vars);
            ExprEnv env = {p, vars, t};
            for (int i = 0; i < n; i++) {
                double f = expr_eval(dv->fext[i], &env), bz = 0;
                for (int c = 0; c < ng; c++)
                    bz += expr_eval(dv->B[i * ng + c], &env) * expr_eval(dv->z[c], &env);
                CHECK(fabs(f - bz) <= 1e-12 * (1 + fabs(f)), "%s: f_ext[%d] %g vs B z %g", what, i, f, bz);
            }
            /* moving surfaces: h_j(t) = H_j z(t), and h', h'' its derivatives */
            for (int j = 0; j < g; j++) {
                if (!dv->h[j])
                    continue;
                double hz = 0, hv = expr_eval(dv->h[j], &env), dh = 1e-5;
                for (int c = 0; c < ng; c++)
                    hz += expr_eval(dv->H[j * ng + c], &env) * expr_eval(dv->z[c], &env);
                CHECK(fabs(hv - hz) <= 1e-12 * (1 + fabs(hv)), "%s: h[%d] %g vs H z %g", what, j, hv, hz);
                Expr *hk[3] = { dv->h[j], dv->hd[j], dv->hdd[j] };
                for (int k = 0; k < 2; k++) {
                    ExprEnv ep = {p, vars, t + dh}, em = {p, vars, t - dh};
                    double num = (expr_eval(hk[k], &ep) - expr_eval(hk[k], &em)) / (2 * dh);
                    double der = expr_eval(hk[k + 1], &env);
                    CHECK(fabs(num - der) <= 1e-6 * (1 + fabs(der)), "%s: derivative %d of h[%d]: %g vs %g",
                          what, k + 1, j, der, num);
                }
            }
            for (int r = 0; r < ng; r++) {
                double h = 1e-6;
                ExprEnv ep = {p, vars, t + h}, em = {p, vars, t - h};
                double zd = (expr_eval(dv->z[r], &ep) - expr_eval(dv->z[r], &em)) / (2 * h), gz = 0;
                for (int c = 0; c < ng; c++)
                    gz += expr_eval(dv->G[r * ng + c], &env) * expr_eval(dv->z[c], &env);
                CHECK(fabs(zd - gz) <= 1e-6 * (1 + fabs(gz)), "%s: z'[%d] %g vs G z %g", what, r, zd, gz);
            }
        }
    }
    /* the C back end writes something for it */
    FILE *devnull = tmpfile();
    CHECK(devnull && emit_c_model(dv, devnull) == 0, "%s: C back end", what);
    CHECK(devnull && emit_equations(dv, devnull, EQ_TEXT) == 0, "%s: equations report", what);
    if (devnull)
        fclose(devnull);
    free(p);
    free(vars);
    free(y);
    free(yd);
    free(y2);
    free(sw);
    arena_free(a);
}

static void test_hand_models(void)
{
    Arena *a = arena_new();
    check_model(two_mass(a, 0), "two_mass");
    Model *f = two_mass(a, 1);
    check_model(f, "two_mass forced");
    {
        Arena *b = arena_new();
        Diag d;
        diag_init(&d, NULL, stderr);
        Derivation *dv = derive_model(f, b, &d);
        CHECK(dv && dv->n_sw == 1, "one time switch");
        CHECK(dv && dv->n_gen == 3, "generator: sin/cos pair and a constant, got %d", dv ? dv->n_gen : -1);
        arena_free(b);
    }
    Model *bm = ball(a);
    check_model(bm, "ball");
    {
        Arena *b = arena_new();
        Diag d;
        diag_init(&d, NULL, stderr);
        Derivation *dv = derive_model(bm, b, &d);
        /* floor (bit 0) and lid (bit 2) both shut on one body: dependent, inadmissible */
        CHECK(dv && dv->modes[5].status == DV_MODE_INADMISSIBLE, "floor+lid inadmissible");
        CHECK(dv && dv->modes[1].status == DV_MODE_DERIVED, "floor alone fine");
        arena_free(b);
    }
    arena_free(a);
}

/* Zero gap vectors and repeated constraints are errors. */
static void test_diagnostics(void)
{
    Arena *a = arena_new();
    Model *m = ball(a);
    ExprCtx *x = m->ex;
    FILE *sink = tmpfile();
    static const char text[] = "body B\nfloor\nceiling\nlid\n";
    Source src = {"ball.nsm", text, sizeof text - 1};
    Diag d;
    diag_init(&d, &src, sink);
    m->gaps[2].d = m->gaps[1].d; /* lid == ceiling */
    CHECK(derive_model(m, a, &d) == NULL && d.errors == 1, "same constraint twice: %d errors", d.errors);
    m->gaps[2].d = expr_num(x, 5);
    m->gaps[2].w[0] = expr_num(x, 0);
    diag_init(&d, &src, sink);
    CHECK(derive_model(m, a, &d) == NULL && d.errors == 1, "zero gap vector");
    m->gaps[2].w[0] = expr_num(x, -2);      /* parallel, different offset: fine */
    diag_init(&d, &src, sink);
    CHECK(derive_model(m, a, &d) != NULL && d.errors == 0, "parallel gaps with different offsets");
    m->bodies[0].mass = expr_num(x, 0);
    diag_init(&d, &src, sink);
    CHECK(derive_model(m, a, &d) == NULL && d.errors == 1, "massless body");
    if (sink)
        fclose(sink);
    arena_free(a);
}

/* Every model file on the command line, through the front end. */
static void test_file(const char *path)
{
    Arena *a = arena_new();
    Source src;
    Diag d;
    diag_init(&d, &src, stderr);
    if (!source_read(&src, path, a, &d)) {
        CHECK(0, "cannot read %s", path);
        arena_free(a);
        return;
    }
    Ast *ast = parse_source(&src, a, &d);
    Model *m = ast ? sema_check(ast, &src, a, &d) : NULL;
    CHECK(m != NULL, "%s parses and checks", path);
    if (m)
        check_model(m, path);
    /* Dedow & Murphy's models: the paper's equations from the real file */
    static const char *names[6] = {"m1", "m2", "k1", "k2", "c1", "c2"};
    int ix[6], found = 0;
    for (int k = 0; m && k < 6; k++)
        for (int i = 0; i < m->n_params; i++)
            if (strcmp(m->params[i].name, names[k]) == 0) {
                ix[k] = i;
                found++;
            }
    if (m && found == 6 && m->n_bodies == 2 && m->n_gaps == 1 && m->n_forces == 0
        && strncmp(m->name, "two_mass", 8) == 0)
        test_paper(m, ix, path);
    arena_free(a);
}

int main(int argc, char **argv)
{
    {
        Arena *a = arena_new();
        static const int ix[6] = {P_M1, P_M2, P_K1, P_K2, P_C1, P_C2};
        test_paper(two_mass(a, 0), ix, "two_mass (built by hand)");
        arena_free(a);
    }
    test_hand_models();
    test_diagnostics();
    for (int i = 1; i < argc; i++)
        test_file(argv[i]);
    printf("%d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
