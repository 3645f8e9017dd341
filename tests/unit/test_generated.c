/*
 * test_generated.c - properties of one generated simulator, compiled in with
 * -DNSM_GENERATED="path/to/model.c" -DNSM_MODEL=nsm_model_<name>.
 *
 * At random states, times and switch flags, with the default parameters:
 *  - every event derivative equals a central difference of the event function
 *    along the generated right-hand side;
 *  - closed impact gaps keep w . a = 0 (rows of W from setup);
 *  - force_dot is the derivative of force, switch_fn's s' that of s;
 *  - the generator reproduces the forces (f = B z, z' = G z);
 *  - setup accepts the defaults and rejects a negative mass.
 * This checks the C text the back end printed, independently of the
 * symbolic engine's own evaluator.
 */
#define NSM_NO_MAIN
#include NSM_GENERATED

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures, checks;

#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        checks++;                                                          \
        if (!(cond)) {                                                     \
            failures++;                                                    \
            fprintf(stderr, "%s: ", NSM_GENERATED);                        \
            fprintf(stderr, __VA_ARGS__);                                  \
            fputc('\n', stderr);                                           \
        }                                                                  \
    } while (0)

static unsigned long long rng = 0x2545f4914f6cdd1dull;
static double urand(double lo, double hi)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * (double)(rng >> 11) / 9007199254740992.0;
}

static int close_to(double a, double b, double tol)
{
    return fabs(a - b) <= tol * (1 + fabs(a) + fabs(b));
}

/* Room for a sparse table of nnz entries (row and col in one block). */
static nsm_entries entries_alloc(int nnz)
{
    size_t c = nnz > 0 ? (size_t)nnz : 1;
    nsm_entries t;
    t.row = calloc(2 * c, sizeof(int));
    t.col = t.row + c;
    t.val = calloc(c, sizeof(double));
    return t;
}

/* The table's deriv() and events() give what modes() gives when asked
** for everything at once (model ABI 7), value for value. */
static void same_as_modes(const nsm_model *m, const unsigned *mw, double t, const double *y,
                          const int *sw, const double *p, const double *c, const double *yd,
                          const double *s, const double *sd)
{
    int n = m->n_bodies, g = m->n_gaps, nf = m->n_frictions, ge = g + 2 * nf;
    double ya[2 * n], la[g + nf + 1], sa[ge + 1], sda[ge + 1];
    CHECK(m->modes(mw, t, y, sw, p, c, ya, la, sa, sda) == 0, "all outputs of mode %u", mw[0]);
    for (int i = 0; i < 2 * n; i++)
        CHECK(ya[i] == yd[i], "mode %u: deriv()'s ydot[%d] = %.17g, modes()' %.17g", mw[0], i,
              yd[i], ya[i]);
    for (int j = 0; j < ge; j++)
        CHECK(sa[j] == s[j] && sda[j] == sd[j], "mode %u: events()' s[%d] = %.17g, s' = %.17g; "
              "modes()' %.17g, %.17g", mw[0], j, s[j], sd[j], sa[j], sda[j]);
}

int main(void)
{
    const nsm_model *m = &NSM_MODEL;
    int n = m->n_bodies, g = m->n_gaps, ns = m->n_switches, ng = m->n_gen;
    double *p = calloc((size_t)m->n_params + 1, sizeof *p);
    double *c = calloc((size_t)m->n_consts + 1, sizeof *c);
    double *y = calloc((size_t)(2 * n), sizeof *y), *y2 = calloc((size_t)(2 * n), sizeof *y2);
    double *yd = calloc((size_t)(2 * n), sizeof *yd), *yd2 = calloc((size_t)(2 * n), sizeof *yd2);
    /* a model with friction modes: g + 2 nf event functions, g + nf multipliers */
    int nf = m->n_frictions, ge = g + 2 * nf;
    double *s = calloc((size_t)ge + 1, sizeof *s), *sd = calloc((size_t)ge + 1, sizeof *sd);
    double *sp = calloc((size_t)ge + 1, sizeof *sp), *sm = calloc((size_t)ge + 1, sizeof *sm);
    double *lam = calloc((size_t)(g + nf) + 1, sizeof *lam);
    double *f = calloc((size_t)n, sizeof *f), *fd = calloc((size_t)n, sizeof *fd);
    double *fp = calloc((size_t)n, sizeof *fp), *fm = calloc((size_t)n, sizeof *fm);
    int *sw = calloc((size_t)ns + 1, sizeof *sw);
    nsm_numeric num;
    num.mass = calloc((size_t)n, sizeof(double));
    num.K = entries_alloc(m->nnz_K);
    num.C = entries_alloc(m->nnz_C);
    num.fconst = calloc((size_t)n, sizeof(double));
    num.W = entries_alloc(m->nnz_W);
    num.d = calloc((size_t)g + 1, sizeof(double));
    num.e = calloc((size_t)g + 1, sizeof(double));
    num.kc = calloc((size_t)g + 1, sizeof(double));
    num.cc = calloc((size_t)g + 1, sizeof(double));
    num.sk = calloc((size_t)m->n_springs + 1, sizeof(double));
    num.sc = calloc((size_t)m->n_springs + 1, sizeof(double));
    num.srest = calloc((size_t)m->n_springs + 1, sizeof(double));
    num.Wt = entries_alloc(m->nnz_Wt);
    num.ut = calloc((size_t)m->n_frictions + 1, sizeof(double));
    num.fn = calloc((size_t)m->n_frictions + 1, sizeof(double));
    num.mus = calloc((size_t)m->n_frictions + 1, sizeof(double));
    num.muk = calloc((size_t)m->n_frictions + 1, sizeof(double));
    num.gfac = calloc((size_t)n + 1, sizeof(double));
    num.radius = calloc((size_t)m->n_planar + 1, sizeof(double));
    num.et = calloc((size_t)m->n_frictions + 1, sizeof(double));
    num.pexp = calloc((size_t)g + 1, sizeof(double));   /* ABI 4: the runtime fills 1 */
    for (int j = 0; j < g; j++)
        num.pexp[j] = 1;

    for (int i = 0; i < m->n_params; i++)
        p[i] = m->params[i].value;
    CHECK(m->setup(p, c, &num) == 0, "setup rejects the defaults");
    CHECK(m->abi == NSM_ABI_VERSION, "abi");

    unsigned modes = ge <= 6 ? 1u << ge : 64u;
    for (unsigned mode = 0; mode < modes; mode++) {
        unsigned mw[64] = { mode };  /* the mode's words (the rest zero) */
        if (!m->modes || m->modes(mw, 0, y, sw, p, c, yd, NULL, NULL, NULL) != 0)
            continue;
        for (int trial = 0; trial < 4; trial++) {
            double t = urand(0, 2), h = 1e-6;
            for (int i = 0; i < 2 * n; i++)
                y[i] = urand(-1, 1);
            for (int k = 0; k < ns; k++)
                sw[k] = urand(0, 1) < 0.5;
            CHECK(m->deriv(mw, t, y, sw, p, c, yd) == 0, "rhs of mode %u", mode);
            CHECK(m->events(mw, t, y, sw, p, c, s, sd) == 0, "event of mode %u", mode);
            CHECK(m->modes(mw, t, y, sw, p, c, NULL, lam, NULL, NULL) == 0, "lambda of mode %u", mode);
            same_as_modes(m, mw, t, y, sw, p, c, yd, s, sd);
            for (int i = 0; i < 2 * n; i++)
                y2[i] = y[i] + h * yd[i];
            m->modes(mw, t + h, y2, sw, p, c, NULL, NULL, sp, yd2);
            for (int i = 0; i < 2 * n; i++)
                y2[i] = y[i] - h * yd[i];
            m->modes(mw, t - h, y2, sw, p, c, NULL, NULL, sm, yd2);
            for (int j = g; j < ge; j++) {
                double fdq = (sp[j] - sm[j]) / (2 * h);
                CHECK(close_to(sd[j], fdq, 1e-5), "mode %u friction event %d: s' = %.12g, "
                      "finite difference %.12g", mode, j, sd[j], fdq);
            }
            for (int k = 0; k < nf; k++) {  /* a stuck element: w_t . a = 0 */
                double wa = 0, sc = 0;
                if (!((mode >> (g + 2 * k)) & 1u))
                    continue;
                for (int q = 0; q < m->nnz_Wt; q++)
                    if (num.Wt.row[q] == k) {
                        wa += num.Wt.val[q] * yd[n + num.Wt.col[q]];
                        sc += fabs(num.Wt.val[q] * lam[g + k] / num.mass[num.Wt.col[q]]);
                    }
                CHECK(fabs(wa) <= 1e-12 * (1 + sc), "mode %u friction element %d stuck: w_t.a = %g",
                      mode, k, wa);
            }
            for (int j = 0; j < g; j++) {
                double fdq = (sp[j] - sm[j]) / (2 * h);
                CHECK(close_to(sd[j], fdq, 1e-5), "mode %u gap %d: s' = %.12g, finite difference %.12g",
                      mode, j, sd[j], fdq);
                if (!((mode >> j) & 1u)) {
                    CHECK(lam[j] == 0, "mode %u: open gap %d has force %g", mode, j, lam[j]);
                } else if (m->gaps[j].law == NSM_LAW_IMPACT) {
                    double wa = 0, sc = 0;
                    if (m->n_moving && m->gap_motion) {     /* w . a = -h'' on a moving surface */
                        double hm[4 * m->n_gaps + 1];
                        m->gap_motion(t, p, c, hm);
                        wa = hm[2 * m->n_gaps + j];
                        sc = fabs(wa);
                    }
                    for (int k = 0; k < m->nnz_W; k++) {
                        int i = num.W.col[k];
                        if (num.W.row[k] != j)
                            continue;
                        wa += num.W.val[k] * yd[n + i];
                        sc += fabs(num.W.val[k] * lam[j] / num.mass[i]);
                    }
                    CHECK(fabs(wa) <= 1e-12 * (1 + sc), "mode %u gap %d: w.a = %g", mode, j, wa);
                    CHECK(s[j] == lam[j], "mode %u gap %d: event is the contact force", mode, j);
                }
            }
        }
    }

    for (int trial = 0; trial < 4; trial++) {
        double t = urand(0, 2), h = 1e-6;
        for (int k = 0; k < ns; k++)
            sw[k] = urand(0, 1) < 0.5;
        CHECK(m->force || !m->force_dot, "force_dot without force");
        if (m->force) {   /* force_dot NULL: a constant force */
            m->force(t, sw, p, c, f);
            if (m->force_dot)
                m->force_dot(t, sw, p, c, fd);
            m->force(t + h, sw, p, c, fp);
            m->force(t - h, sw, p, c, fm);
            for (int i = 0; i < n; i++)
                CHECK(close_to(fd[i], (fp[i] - fm[i]) / (2 * h), 1e-6), "force_dot[%d]", i);
        }
        for (int k = 0; k < ns; k++) {
            double a, ad, b, bd, sa, sad;
            m->switch_fn(k, t, p, c, &a, &ad);
            m->switch_fn(k, t + h, p, c, &sa, &sad);
            m->switch_fn(k, t - h, p, c, &b, &bd);
            CHECK(close_to(ad, (sa - b) / (2 * h), 1e-6), "switch %d: s' = %g", k, ad);
        }
        if (m->n_moving && m->gap_motion) {
            /* the surfaces' derivatives, and h = H z */
            int g = m->n_gaps;
            double h0[4 * m->n_gaps + 1], hp[4 * m->n_gaps + 1], hm[4 * m->n_gaps + 1];
            m->gap_motion(t, p, c, h0);
            m->gap_motion(t + h, p, c, hp);
            m->gap_motion(t - h, p, c, hm);
            for (int j = 0; j < g; j++)
                for (int k = 0; k < 3; k++)
                    CHECK(close_to(h0[j + (k + 1) * g], (hp[j + k * g] - hm[j + k * g]) / (2 * h), 1e-6),
                          "gap_motion: derivative %d of gap %d", k + 1, j);
            if (ng && m->gap_generator) {
                double *H = calloc((size_t)(g * ng), sizeof *H), *z = calloc((size_t)ng, sizeof *z);
                m->gap_generator(p, c, H);
                m->generator_state(t, sw, p, c, z);
                for (int j = 0; j < g; j++) {
                    double hz = 0;
                    for (int k = 0; k < ng; k++)
                        hz += H[j * ng + k] * z[k];
                    CHECK(close_to(h0[j], hz, 1e-12), "gap_generator: h[%d] = %g, H z = %g", j, h0[j], hz);
                }
                free(H);
                free(z);
            }
        }
        if (ng) {
            double *G = calloc((size_t)(ng * ng), sizeof *G), *B = calloc((size_t)(n * ng), sizeof *B);
            double *z = calloc((size_t)ng, sizeof *z), *zp = calloc((size_t)ng, sizeof *zp);
            double *zm = calloc((size_t)ng, sizeof *zm);
            m->generator(sw, p, c, G, B);
            m->generator_state(t, sw, p, c, z);
            m->generator_state(t + h, sw, p, c, zp);
            m->generator_state(t - h, sw, p, c, zm);
            for (int i = 0; i < n; i++) {
                double bz = 0;
                for (int k = 0; k < ng; k++)
                    bz += B[i * ng + k] * z[k];
                CHECK(close_to(f[i], bz, 1e-12), "generator: f[%d] = %g, B z = %g", i, f[i], bz);
            }
            for (int r = 0; r < ng; r++) {
                double gz = 0;
                for (int k = 0; k < ng; k++)
                    gz += G[r * ng + k] * z[k];
                CHECK(close_to(gz, (zp[r] - zm[r]) / (2 * h), 1e-6), "generator: z'[%d]", r);
            }
            free(G);
            free(B);
            free(z);
            free(zp);
            free(zm);
        }
    }

    /* negative values of every parameter are refused when a mass is a parameter */
    int has_mass = 0;
    for (int i = 0; i < m->n_params; i++)
        has_mass |= strcmp(m->params[i].unit, "kg") == 0;
    if (has_mass) {
        for (int i = 0; i < m->n_params; i++)
            p[i] = -fabs(p[i]) - 1;
        int rc = m->setup(p, c, &num);
        CHECK(rc >= 1 && rc <= m->n_params, "setup accepts negative parameters (rc %d)", rc);
    }

    printf("%s: %d checks, %d failures\n", m->name, checks, failures);
    double *bufs[] = { p, c, y, y2, yd, yd2, s, sd, sp, sm, lam, f, fd, fp, fm,
                       num.mass, num.K.val, num.C.val, num.fconst, num.W.val, num.d, num.e, num.kc,
                       num.cc, num.sk, num.sc, num.srest, num.Wt.val, num.ut, num.fn, num.mus, num.muk,
                       num.gfac, num.radius, num.et, num.pexp };
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        free(bufs[i]);
    nsm_entries *lists[] = { &num.K, &num.C, &num.W, &num.Wt };
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
        free(lists[i]->row);
    free(sw);
    return failures ? 1 : 0;
}
