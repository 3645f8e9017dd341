/*
 * frontend_test.c - checks the Model that sema builds (units converted to SI,
 * parameters kept symbolic, gaps split into slopes and offsets, defaults)
 * and the unit parser, against values worked out by hand.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "laws.h"
#include "parse.h"
#include "sema.h"
#include "source.h"
#include "units.h"

static int failures;

#define CHECK(cond)                                                            \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                        \
        }                                                                      \
    } while (0)

static bool near(double a, double b)
{
    return fabs(a - b) <= 1e-12 * (1 + fabs(b));
}

/* Value of an expression with every parameter at its default. */
static double value(const Model *m, const Expr *e)
{
    double p[64] = {0};
    for (int i = 0; i < m->n_params && i < 64; i++)
        p[i] = m->params[i].number;
    ExprEnv env = {p, NULL, 0};
    return expr_eval(e, &env);
}

/* The coefficient of body i in a gap (its slopes are sparse), NULL if none. */
static const Expr *slope_expr(const Gap *g, int i)
{
    for (int k = 0; k < g->n_w; k++)
        if (g->w_body[k] == i)
            return g->w[k];
    return NULL;
}

/* Its value at the defaults, 0 for a body the gap does not mention. */
static double slope(const Model *m, const Gap *g, int i)
{
    const Expr *e = slope_expr(g, i);
    return e ? value(m, e) : 0;
}

static Model *compile(Arena *a, const char *path, const char *text)
{
    static Source src;
    static Diag d;
    diag_init(&d, &src, stderr);
    if (!source_from_memory(&src, path, text, strlen(text), a, &d))
        return NULL;
    Ast *ast = parse_source(&src, a, &d);
    return ast ? sema_check(ast, &src, a, &d) : NULL;
}

static void test_units(void)
{
    double s;
    Dim d;
    CHECK(unit_parse("kN", &s, &d) && near(s, 1e3) && d.m == 1 && d.kg == 1 && d.s == -2);
    CHECK(unit_parse("N*s/m", &s, &d) && near(s, 1) && d.m == 0 && d.kg == 1 && d.s == -1);
    CHECK(unit_parse("m/s^2", &s, &d) && near(s, 1) && d.m == 1 && d.kg == 0 && d.s == -2);
    CHECK(unit_parse("g", &s, &d) && near(s, 1e-3) && d.kg == 1 && d.m == 0);
    CHECK(unit_parse("kg", &s, &d) && near(s, 1) && d.kg == 1);
    CHECK(unit_parse("mm", &s, &d) && near(s, 1e-3) && d.m == 1);
    CHECK(unit_parse("ms", &s, &d) && near(s, 1e-3) && d.s == 1);
    CHECK(unit_parse("Hz", &s, &d) && near(s, 1) && d.s == -1);
    CHECK(unit_parse("kHz", &s, &d) && near(s, 1e3) && d.s == -1);
    CHECK(unit_parse("MPa", &s, &d) && near(s, 1e6) && d.m == -1 && d.kg == 1 && d.s == -2);
    CHECK(unit_parse("cm^2", &s, &d) && near(s, 1e-4) && d.m == 2);
    CHECK(unit_parse("s^-1", &s, &d) && near(s, 1) && d.s == -1);
    CHECK(unit_parse("J", &s, &d) && d.m == 2 && d.kg == 1 && d.s == -2);
    CHECK(!unit_parse("foo", &s, &d));
    CHECK(!unit_parse("m^", &s, &d));
    CHECK(!unit_parse("m*", &s, &d));
    CHECK(!unit_parse("m^99999", &s, &d));
    CHECK(unit_is_atom("kN", 2) && unit_is_atom("m", 1) && !unit_is_atom("x", 1));
    CHECK(!unit_is_atom("krad", 4));
    char buf[32];
    CHECK(strcmp(dim_text(dim_make(0, 1, -2), buf, sizeof buf), "N/m") == 0);
    CHECK(strcmp(dim_text(dim_make(2, 0, 0), buf, sizeof buf), "m^2") == 0);
    CHECK(strcmp(dim_text(dim_make(0, 0, 0), buf, sizeof buf), "") == 0);
    CHECK(strcmp(dim_text(dim_make(-1, 0, 0), buf, sizeof buf), "1/m") == 0);
    CHECK(dim_equal(dim_free(), dim_make(1, 0, 0)));
    CHECK(!dim_equal(dim_make(0, 1, 0), dim_make(1, 0, 0)));
}

static void test_model(void)
{
    Arena *a = arena_new();
    Model *m = compile(a, "dir/chain.nsm",
                       "param k1 = 2 kN/m\n"
                       "param k2 = 2 * k1\n"
                       "param h = -2 m\n"
                       "mass M1 = 5 kg\n"
                       "mass P[1..3] = 500 g\n"
                       "spring S: ground -- M1, k = k1, rest = 10 mm\n"
                       "for i in 1..2: spring P[i] -- P[i+1], k = k2, c = 3 N*s/m\n"
                       "damper D: M1 -- P[1], c = 1 N*s/m\n"
                       "force on M1 = 3 kN * sin(2*pi*5 Hz*t)\n"
                       "gap C: P[1].x - M1.x >= 0, impact(e = 0.5)\n"
                       "gap stop: 1 mm - M1.x >= 0, penalty(k = 1e10 N/m)\n"
                       "gap roof: P[3].x <= h, penalty(k = k1, c = 2 N*s/m, release = gap)\n"
                       "gap twice: 2 * P[2].x - k1 / k2 * M1.x + h >= 0, impact(e = 0)\n"
                       "init M1.x = -1 m, P[2].v = 3 m/s\n");
    CHECK(m != NULL);
    if (!m) {
        arena_free(a);
        return;
    }
    CHECK(strcmp(m->name, "chain") == 0 && strcmp(m->title, "") == 0);
    CHECK(m->n_params == 3);
    CHECK(near(m->params[0].number, 2000) && strcmp(m->params[0].unit, "N/m") == 0);
    CHECK(near(m->params[1].number, 4000) && strcmp(m->params[1].unit, "N/m") == 0);
    CHECK(m->params[1].value->kind == EX_MUL); /* 2 * k1, not inlined */
    CHECK(m->n_bodies == 4);
    CHECK(strcmp(m->bodies[0].name, "M1") == 0 && strcmp(m->bodies[3].name, "P[3]") == 0);
    CHECK(near(value(m, m->bodies[1].mass), 0.5));
    CHECK(m->n_springs == 4);
    CHECK(m->springs[0].a == -1 && m->springs[0].b == 0 && m->springs[0].k->kind == EX_PARAM);
    CHECK(near(value(m, m->springs[0].rest), 0.01) && m->springs[0].c == NULL);
    CHECK(m->springs[1].a == 1 && m->springs[1].b == 2 && m->springs[1].name == NULL);
    CHECK(m->springs[2].a == 2 && m->springs[2].b == 3 && near(value(m, m->springs[2].c), 3));
    CHECK(m->springs[3].k == NULL && strcmp(m->springs[3].name, "D") == 0); /* damper */
    CHECK(m->n_forces == 1 && m->forces[0].body == 0 && expr_has_kind(m->forces[0].value, EX_TIME));
    CHECK(m->n_gaps == 4);
    const Gap *g = &m->gaps[0];
    CHECK(g->law == laws_find("impact") && near(value(m, g->e), 0.5));
    CHECK(near(slope(m, g, 0), -1) && near(slope(m, g, 1), 1) && near(slope(m, g, 2), 0));
    CHECK(near(value(m, g->d), 0));
    g = &m->gaps[1];
    CHECK(g->law == laws_find("penalty") && g->release == RELEASE_FORCE && expr_is_zero(g->c));
    CHECK(near(slope(m, g, 0), -1) && near(value(m, g->d), 1e-3) && near(value(m, g->k), 1e10));
    g = &m->gaps[2]; /* P[3].x <= h  is  h - P[3].x >= 0 */
    CHECK(g->release == RELEASE_GAP && near(slope(m, g, 3), -1) && near(value(m, g->d), -2));
    CHECK(g->d->kind == EX_PARAM);
    g = &m->gaps[3];
    CHECK(near(slope(m, g, 2), 2) && near(slope(m, g, 0), -0.5) && near(value(m, g->d), -2));
    CHECK(slope_expr(g, 0) && expr_depends_on(slope_expr(g, 0), expr_param(m->ex, 0)));
    CHECK(near(value(m, m->init_x[0]), -1) && near(value(m, m->init_v[2]), 3));
    CHECK(expr_is_zero(m->init_x[1]) && expr_is_zero(m->init_v[0]));
    CHECK(m->gravity == NULL);
    CHECK(near(m->t_end, 10) && m->dt == 0 && near(m->every, 1e-3));
    CHECK(m->method == METHOD_RK4);
    CHECK(m->n_outputs == 8 && m->outputs[0].kind == OUT_X && m->outputs[1].kind == OUT_V);
    CHECK(strcmp(m->outputs[7].name, "P[3].v") == 0 && strcmp(m->outputs[7].unit, "m/s") == 0);
    arena_free(a);
}

static void test_settings(void)
{
    Arena *a = arena_new();
    Model *m = compile(a, "x.nsm",
                       "model demo \"A title\"\n"
                       "param g = 9.81 m/s^2\n"
                       "mass B = 1 kg\n"
                       "gravity g\n"
                       "gap floor: B.x >= 0, impact(e = 0.9)\n"
                       "simulate t_end = 2 s, dt = 0.5 ms, method = exact\n"
                       "output every 10 ms: B.x, B.a, floor.force, floor.gap, energy.error, g\n");
    CHECK(m != NULL);
    if (m) {
        CHECK(strcmp(m->name, "demo") == 0 && strcmp(m->title, "A title") == 0);
        CHECK(m->gravity && m->gravity->kind == EX_PARAM);
        CHECK(near(m->t_end, 2) && near(m->dt, 5e-4) && near(m->every, 0.01));
        CHECK(m->method == METHOD_EXACT);
        CHECK(m->n_outputs == 6);
        CHECK(m->outputs[1].kind == OUT_A && strcmp(m->outputs[1].unit, "m/s^2") == 0);
        CHECK(m->outputs[2].kind == OUT_FORCE && m->outputs[2].index == 0);
        CHECK(m->outputs[3].kind == OUT_GAP && strcmp(m->outputs[3].name, "floor.gap") == 0);
        CHECK(m->outputs[4].kind == OUT_ERROR);
        CHECK(m->outputs[5].kind == OUT_PARAM && strcmp(m->outputs[5].unit, "m/s^2") == 0);
    }
    arena_free(a);
}

int main(void)
{
    test_units();
    test_model();
    test_settings();
    if (failures)
        fprintf(stderr, "%d check(s) failed\n", failures);
    return failures ? 1 : 0;
}
