/*
** sim.c: the simulation object of libnsmrt: creation from a model table,
** settings, reset to t = 0, queries (state, outputs, energies) and the
** failure message.  The run loop is in run.c, the transitions in
** transition.c, the Zeno handling in zeno.c.
*/
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "energy.h"
#include "law.h"
#include "rt.h"

/* Allocate n doubles (at least one) or record failure in *bad. */
static double *dalloc(size_t n, int *bad)
{
    double *p = calloc(n ? n : 1, sizeof(double));
    if (!p)
        *bad = 1;
    return p;
}

/* Create a simulation of model m at its defaults and reset it to t = 0.
** NULL when nsm_model_check refuses the table (another ABI, a malformed
** table) or on allocation failure.  A model whose default parameters are
** invalid is still created; its run fails with the setup message. */
nsm_sim *nsm_sim_create(const nsm_model *m)
{
    if (nsm_model_check(m, NULL) != NSM_OK)
        return NULL;
    nsm_sim *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    int bad = 0, n = m->n_bodies, g = m->n_gaps;
    s->m = m;
    s->n_vel = n;
    s->n_gaps = g;
    s->n_fric = m->n_frictions > 0 ? m->n_frictions : 0;
    s->n_events = g + 2 * s->n_fric;
    s->n_space_fric = m->n_space_frictions > 0 ? m->n_space_frictions : 0;
    s->mode_words = NSM_MODE_WORDS(s->n_events + s->n_space_fric);
    s->n_switches = m->n_switches;
    s->n_pos = m->nq ? m->nq : n;
    s->n_state = s->n_pos + n + 2;
    s->n_aug = 2 * n + m->n_gen + 1;
    s->set.dense_na = RT_DENSE_NA;
    s->params = dalloc(m->n_params, &bad);
    s->consts = dalloc(m->n_consts, &bad);
    s->num.mass = dalloc(n, &bad);
    s->num.fconst = dalloc(n, &bad);
    s->num.d = dalloc(g, &bad);
    s->num.e = dalloc(g, &bad);
    s->num.kc = dalloc(g, &bad);
    s->num.cc = dalloc(g, &bad);
    s->num.sk = dalloc(m->n_springs, &bad);
    s->num.sc = dalloc(m->n_springs, &bad);
    s->num.srest = dalloc(m->n_springs, &bad);
    s->num.ut = dalloc(s->n_fric, &bad);
    s->num.fn = dalloc(s->n_fric, &bad);
    s->num.mus = dalloc(s->n_fric, &bad);
    s->num.muk = dalloc(s->n_fric, &bad);
    s->num.gfac = dalloc(n, &bad);
    s->num.radius = dalloc(m->n_planar, &bad);
    s->num.et = dalloc(s->n_fric, &bad);
    s->num.pexp = dalloc(g, &bad);
    s->num.kimp = dalloc(g, &bad);
    s->num.eimp = dalloc(g, &bad);
    s->mass_inv = dalloc(n, &bad);
    int nsf = m->n_space_frictions > 0 ? m->n_space_frictions : 0;
    s->num.sf_centre = dalloc(3 * (size_t)nsf, &bad);
    s->num.sf_radius = dalloc((size_t)nsf, &bad);
    s->num.sf_normal = dalloc(3 * (size_t)nsf, &bad);
    s->num.sf_mu = dalloc((size_t)nsf, &bad);
    s->num.sf_et = dalloc((size_t)nsf, &bad);
    s->num.sf_drill = dalloc((size_t)nsf, &bad);
    s->zeno.c_mask = calloc((size_t)s->mode_words, sizeof(unsigned));
    s->zeno.f_mask = calloc((size_t)s->mode_words, sizeof(unsigned));
    if (rt_law_bind(s) || rt_state_alloc(s) || !s->zeno.c_mask || !s->zeno.f_mask)
        bad = 1;
    if (!bad && (rt_sparse_alloc(s) || rt_clus_alloc(s)))
        bad = 1;
    if (!bad && (rt_zeno_alloc(s) || rt_exact_alloc(s)))
        bad = 1;
    if (!bad && rt_stats_alloc(s))
        bad = 1;
    if (!bad && rt_fric_alloc(s))
        bad = 1;
    if (!bad && (rt_nl_alloc(s) || rt_mass_alloc(s) || rt_sf_alloc(s)))
        bad = 1;
    if (!bad && rt_taylor_alloc(s))
        bad = 1;
    if (!bad && (rt_surface_alloc(s) || rt_surfwork_alloc(s)))
        bad = 1;
    if (bad) {
        nsm_sim_free(s);
        return NULL;
    }
    for (int k = 0; k < m->n_params; k++)
        s->params[k] = m->params[k].value;
    s->set.method = m->method;
    s->set.dt = m->dt > 0 ? m->dt : 0;
    s->set.etol = -1;
    s->set.every = m->every > 0 ? m->every : 0;
    s->set.rtol = 1e-9;
    s->set.atol = 1e-12;
    s->set.max_steps = 100000000L;
    s->set.max_rate = 1e6;
    s->set.max_impacts = 100000000L;
    s->set.zeno_on = 1;
    s->set.audit = 1;
    nsm_sim_reset(s);
    return s;
}

/* Free a simulation and everything it owns. */
void nsm_sim_free(nsm_sim *s)
{
    if (!s)
        return;
    double *arrays[] = { s->params, s->consts, s->num.mass, s->num.fconst,
                         s->num.d, s->num.e, s->num.kc, s->num.cc, s->num.sk, s->num.sc,
                         s->num.srest, s->mass_inv, s->num.ut, s->num.fn, s->num.mus, s->num.muk,
                         s->num.gfac, s->num.radius, s->num.et, s->num.pexp,
                         s->num.kimp, s->num.eimp, s->num.sf_centre, s->num.sf_radius,
                         s->num.sf_normal, s->num.sf_mu, s->num.sf_et, s->num.sf_drill };
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        free(arrays[i]);
    rt_exact_free(s);
    rt_fsal_free(s);
    rt_zeno_free(s);
    rt_stats_free(s);
    rt_fric_free(s);
    rt_section_free(s);
    free(s->set.y0);
    rt_taylor_free(s);
    rt_nl_free(s);
    rt_sf_free(s);
    rt_mass_free(s);
    rt_nlt_free(s);
    rt_surface_free(s);
    rt_surfwork_free(s);
    rt_mode_free(s);
    rt_sparse_free(s);
    rt_clus_free(s);
    rt_seq_free(s);
    rt_law_free(s);
    rt_state_free(s);
    free(s->zeno.c_mask);
    free(s->zeno.f_mask);
    free(s);
}

/* Index of parameter name, -1 if none. */
static int param_index(const nsm_sim *s, const char *name)
{
    for (int k = 0; k < s->m->n_params; k++)
        if (strcmp(s->m->params[k].name, name) == 0)
            return k;
    return -1;
}

/* Override a parameter; takes effect at the next reset (nsm_sim_run_until
** resets first, back to t = 0, when a parameter changed since the last one).
** Method, step and tolerances apply from the next step on. */
int nsm_sim_set_param(nsm_sim *s, const char *name, double value)
{
    int k = param_index(s, name);
    if (k < 0 || !isfinite(value))
        return NSM_EINVAL;
    if (s->m->param_size && s->m->param_size[k] == 2 && value != s->m->params[k].value) {
        /* the parameters defined from it keep the values nsmc computed from
         * its default: --set omega under `param T = 2*pi/omega` changed
         * nothing in T, silently */
        rt_text_printf(s->msg, sizeof s->msg,
                        "parameter '%s' is in the definition of another parameter, whose value nsmc "
                        "computed from its default %.17g when the simulator was generated: for %.17g, "
                        "set the parameters defined from it directly, or set its default (param %s = "
                        "%.17g) and generate the simulator again with nsmc",
                        name, s->m->params[k].value, value, name, value);
        return NSM_EMODEL;
    }
    if (s->m->param_size && s->m->param_size[k] && value != s->m->params[k].value) {
        rt_text_printf(s->msg, sizeof s->msg,
                        "parameter '%s' sizes the model's indexed families or loops, fixed at %.17g "
                        "when the simulator was generated: for %.17g, set its default "
                        "(param %s = %.17g) and generate the simulator again with nsmc",
                        name, s->m->params[k].value, value, name, value);
        return NSM_EMODEL;
    }
    s->params[k] = value;
    s->ready = 0;
    rt_state_inputs_changed(s);
    return NSM_OK;
}

/* Current value of a parameter. */
int nsm_sim_get_param(const nsm_sim *s, const char *name, double *value)
{
    int k = param_index(s, name);
    if (k < 0)
        return NSM_EINVAL;
    *value = s->params[k];
    return NSM_OK;
}

/* Choose the integrator. */
int nsm_sim_set_method(nsm_sim *s, int method)
{
    if (method < NSM_METHOD_RK4 || method > NSM_METHOD_TAYLOR)
        return NSM_EINVAL;
    s->set.method = method;
    s->h_adapt = 0;
    s->taylor_tiny_steps = 0;
    rt_mode_clear(s);       /* the stability bounds are the method's */
    return NSM_OK;
}

/* The integrator in use. */
int nsm_sim_get_method(const nsm_sim *s)
{
    return s->set.method;
}

/* The user's step: rk4's step and the largest step of exact and adaptive,
** each reduced where a mode needs it (docs/runtime.md); 0 lets every
** mode choose its own. */
int nsm_sim_set_dt(nsm_sim *s, double dt)
{
    if (!(dt >= 0) || !isfinite(dt))
        return NSM_EINVAL;
    s->set.dt = dt;
    s->set.dt_set = 1;
    s->h_adapt = 0;
    return NSM_OK;
}

/* Relative balance error that stops a run while the audit is on; 0 never
** stops, a negative value restores the method's default. */
int nsm_sim_set_energy_tolerance(nsm_sim *s, double tol)
{
    if (isnan(tol))
        return NSM_EINVAL;
    s->set.etol = tol;
    return NSM_OK;
}

/* Where warnings go (a step reduced below the user's for stability). */
void nsm_sim_set_warning_handler(nsm_sim *s, nsm_warning_fn fn, void *ud)
{
    s->set.on_warn = fn;
    s->set.warn_ud = ud;
}

/* Tolerances of the adaptive method. */
int nsm_sim_set_tolerances(nsm_sim *s, double rtol, double atol)
{
    if (!(rtol > 0) || !(atol >= 0) || !isfinite(rtol) || !isfinite(atol))
        return NSM_EINVAL;
    s->set.rtol = rtol;
    s->set.atol = atol;
    return NSM_OK;
}

/* Sampling period of the sample handler; 0 samples after every step. */
int nsm_sim_set_every(nsm_sim *s, double every)
{
    if (!(every >= 0) || !isfinite(every))
        return NSM_EINVAL;
    s->set.every = every;
    s->set.every_set = 1;
    return NSM_OK;
}

/* The model's t_end, dt (0: none) and output period with the current
** parameters: its `simulate` and `output every` expressions evaluated
** again (they may use parameters that --set changed).  NSM_EMODEL when one
** of them is not a positive time (dt may be 0). */
int nsm_sim_model_times(const nsm_sim *s, double *t_end, double *dt, double *every)
{
    const nsm_model *m = s->m;
    double t[3] = { m->t_end, m->dt, m->every };
    if (m->settings)
        m->settings(s->params, t);
    if (t_end)
        *t_end = t[0];
    if (dt)
        *dt = t[1];
    if (every)
        *every = t[2];
    if (!(t[0] > 0) || !isfinite(t[0]) || !(t[1] >= 0) || !isfinite(t[1]) || !(t[2] >= 0) ||
        !isfinite(t[2]))
        return NSM_EMODEL;
    return NSM_OK;
}

/* Cap on the number of steps of a run. */
int nsm_sim_set_max_steps(nsm_sim *s, long max_steps)
{
    if (max_steps <= 0)
        return NSM_EINVAL;
    s->set.max_steps = max_steps;
    return NSM_OK;
}

/* The step cap (set or default), for callers checking a run up front
** (nsm_run_check) without a copy of the default. */
long nsm_sim_get_max_steps(const nsm_sim *s)
{
    return s->set.max_steps;
}

/* Cap on the event rate: a run fails when W = 16 + 4 g consecutive events
** fall in less than W / rate seconds (a runaway cascade or an event loop;
** W grows with the gaps so that a chain's simultaneous impacts pass). */
int nsm_sim_set_max_event_rate(nsm_sim *s, double rate)
{
    if (!(rate > 0))
        return NSM_EINVAL;
    s->set.max_rate = rate;
    return NSM_OK;
}

/* Cap on the pair collisions of one instant's sequence (the sequential
** impact law): a sequence that reaches it stops the run with a message
** naming the setting (an elastic body squeezed between held contacts never
** ends; a long touching train legitimately takes many). */
int nsm_sim_set_max_impacts(nsm_sim *s, long n)
{
    if (n < 1)
        return NSM_EINVAL;
    s->set.max_impacts = n;
    return NSM_OK;
}

/* Enable or disable the Zeno jump. */
int nsm_sim_set_zeno(nsm_sim *s, int enabled)
{
    s->set.zeno_on = enabled != 0;
    return NSM_OK;
}

/* The detailed energy audit and contact statistics on or off (default on):
** off, a step costs up to a third less, and what the audit would have
** summed step by step reads NAN until the next reset. */
int nsm_sim_set_audit(nsm_sim *s, int enabled)
{
    s->set.audit = enabled != 0;
    return NSM_OK;
}

void nsm_sim_set_event_handler(nsm_sim *s, nsm_event_fn fn, void *ud)
{
    s->set.on_event = fn;
    s->set.ev_ud = ud;
}

void nsm_sim_set_sample_handler(nsm_sim *s, nsm_sample_fn fn, void *ud)
{
    s->set.on_sample = fn;
    s->set.sa_ud = ud;
}

/* The caller's stop flag, read by the run loop before every step. */
void nsm_sim_set_stop_flag(nsm_sim *s, const volatile sig_atomic_t *flag)
{
    s->set.stop = flag;
}

/* A refused value as text: a NaN (an undefined form of finite
** parameters: 0/0, inf/inf, 0*inf or inf - inf after an overflow) is
** said so, never as "-nan" (printf shows the sign of the NaN 0/0 gives).
** A value that 12 digits round onto another is written in full: an
** exponent of 16.000000000000004, above the range [1, 16], was refused as
** "invalid value 16", a value the range allows. */
static const char *sim_value_text(double v, char *buf, size_t size)
{
    if (isnan(v))
        return "nan (an undefined form such as 0/0)";
    rt_text_printf(buf, size, "%.12g", v);
    if (rt_text_strtod(buf, NULL) != v)     /* 16.000000000000004 read "16", a value allowed */
        rt_text_printf(buf, size, "%.17g", v);
    return buf;
}

/* Whether a gap of the model is a penalty contact, whose stiffness must be
 * above 0 (a stiffness 0 is no contact at all), which the refusal names. */
static int sim_has_penalty(const nsm_model *m)
{
    for (int j = 0; j < m->n_gaps && m->gaps; j++)
        if (m->gaps[j].law == NSM_LAW_PENALTY)
            return 1;
    return 0;
}

/* The message of a value the model's setup refused (its return: 1 + the
 * first parameter the value depends on): a derived value (an inertia
 * m*l^2) is named with its expression and parameters, as setup left them
 * in num.bad_what; a parameter's own value by the parameter. */
RT_COLD static void sim_refuse_setup(nsm_sim *s, int bad)
{
    const nsm_model *m = s->m;
    const char *needs = m->n_planar ? ", radii > 0, wall normals other than (0, 0)"
                        : m->n_rigid ? ", tilt angles below 2^55 rad (a turn is lost in their "
                                       "rounding beyond)" : "";
    const char *rule = "the model needs masses > 0, restitutions in [0, 1], stiffnesses and "
                       "dampings >= 0, friction coefficients mu_s >= mu_k >= 0 and normal forces > 0";
    const char *lzb = m->impact_law == NSM_IMPACT_ENERGETIC ? ", energetic impacts' stiffnesses "
                      "> 0 and exponents in [1, 10]" : sim_has_penalty(m) ? ", penalty contacts' "
                      "stiffnesses > 0 and exponents in [1, 16]" : "";
    char num[32];
    if (s->num.bad_what)
        rt_text_printf(s->msg, sizeof s->msg, "invalid value %s of the %s: %s%s%s",
                        sim_value_text(s->num.bad_value, num, sizeof num), s->num.bad_what, rule, lzb,
                        needs);
    else
        rt_text_printf(s->msg, sizeof s->msg, "invalid value %s of parameter '%s' (%s%s%s)",
                        sim_value_text(bad - 1 < m->n_params ? s->params[bad - 1] : 0.0, num, sizeof num),
                        bad - 1 < m->n_params ? m->params[bad - 1].name : "?", rule, lzb, needs);
    s->failed = NSM_EMODEL;
}

/* Whether every rigid body's principal inertias can belong to a body
** (I_k <= I_a + I_b for each k, within the rounding nsmc allows): nsmc
** refuses such a triple in the source, and a --set or a Python params
** can give one at run time (free_top with I3 = 0.7 > 2 I1 ran a motion no
** body has).  NSM_EMODEL with the three values, else NSM_OK. */
static int sim_check_inertias(nsm_sim *s)
{
    const nsm_model *m = s->m;
    for (int b = 0; b < m->n_rigid && m->rigid_rot; b++) {
        const double *d = &s->num.mass[m->rigid_rot[b]];
        for (int k = 0; k < 3; k++) {
            double others = d[(k + 1) % 3] + d[(k + 2) % 3];
            if (!(d[k] > others * (1 + 1e-12)))
                continue;
            const char *name = m->body_names ? m->body_names[m->rigid_rot[b]] : "?";
            int len = (int)strcspn(name, ".");
            rt_text_printf(s->msg, sizeof s->msg, "no body has the principal inertias of '%.*s', "
                            "(%.12g, %.12g, %.12g) kg*m^2: I%d exceeds the sum of the other two "
                            "(%.12g kg*m^2)", len, name, d[0], d[1], d[2], k + 1, others);
            s->failed = NSM_EMODEL;
            return NSM_EMODEL;
        }
    }
    return NSM_OK;
}

/* Whether the initial state y0 (positions and velocities) is finite: an
** init of the parameters can give NaN or an infinity at run time (x = a/s
** with a = s = 0), and a quaternion of NaNs was never caught by the steps
** (thrown_body's p = (1e300, 1e300, 0, 0), scaled by its overflowing
** length to 0, ran to its end, exit 0, its orientation NaN), nor a zero
** quaternion.  NSM_EMODEL naming the component, else NSM_OK. */
static int sim_check_initial(nsm_sim *s, const double *y0)
{
    for (int i = 0; i < s->n_pos + s->n_vel; i++) {
        if (isfinite(y0[i]))
            continue;
        char what[160];
        rt_text_printf(s->msg, sizeof s->msg, "the initial state is not finite with these parameters: "
                        "%s = %s", rt_state_label(s, i, what, sizeof what),
                        isnan(y0[i]) ? "nan (an undefined form such as 0/0)" : y0[i] > 0 ? "inf" : "-inf");
        s->failed = NSM_EMODEL;
        return NSM_EMODEL;
    }
    for (int b = 0; b < s->m->n_rigid && s->m->rigid_rot; b++) {
        const double *pv = &y0[s->m->rigid_rot[b]], p0 = y0[s->n_vel + b];
        if (p0 != 0 || pv[0] != 0 || pv[1] != 0 || pv[2] != 0)
            continue;
        const char *w = s->m->body_names[s->m->rigid_rot[b]];
        rt_text_printf(s->msg, sizeof s->msg, "the initial quaternion of '%.*s' is zero with these "
                        "parameters: it gives no orientation (the identity is p0 = 1)",
                        (int)strcspn(w, "."), w);
        s->failed = NSM_EMODEL;
        return NSM_EMODEL;
    }
    return NSM_OK;
}

/* Back to t = 0: setup on the current parameters, initial state and
** switches, initial mode decided by complementarity. */
int nsm_sim_reset(nsm_sim *s)
{
    const nsm_model *m = s->m;
    s->ready = 0;
    s->failed = 0;
    s->fail_contact = 0;
    s->msg[0] = 0;
    rt_state_clear(s);
    s->t_stop = HUGE_VAL;
    s->steps = s->nevents = 0;
    s->sample_k = 0;
    s->t_sampled = -HUGE_VAL;
    s->nev_sampled = 0;
    rt_surface_reset(s);
    s->energy_lost = 0;
    s->h_adapt = 0;
    s->taylor_tiny_steps = 0;
    s->h_step = 0;
    rt_cache_clear(s);
    rt_stats_reset(s);
    rt_fric_reset(s);
    rt_zeno_reset(s);
    double tt[3];
    if (nsm_sim_model_times(s, &tt[0], &tt[1], &tt[2]) != NSM_OK) {
        rt_text_printf(s->msg, sizeof s->msg, "the model's t_end, dt or output period is not a "
                        "positive time with these parameters (t_end %.12g s, dt %.12g s, every %.12g s)",
                        tt[0], tt[1], tt[2]);
        s->failed = NSM_EMODEL;
        return NSM_EMODEL;
    }
    if (!s->set.dt_set)
        s->set.dt = tt[1];
    if (!s->set.every_set)
        s->set.every = tt[2];
    for (int i = 0; i < s->n_vel; i++)
        s->num.gfac[i] = 1;
    for (int k = 0; k < s->n_fric; k++)
        s->num.et[k] = 0;
    for (int j = 0; j < s->n_gaps; j++) {
        s->num.pexp[j] = 1;
        s->num.kimp[j] = 0;
        s->num.eimp[j] = 1;
    }
    s->num.bad_what = NULL;
    int bad = m->setup ? m->setup(s->params, s->consts, &s->num) : 0;
    if (bad) {
        sim_refuse_setup(s, bad);
        return NSM_EMODEL;
    }
    if (rt_law_setup(s) || rt_sparse_build(s) || rt_nl_setup(s))
        return s->failed;
    rt_surface_setup(s);
    for (int i = 0; i < s->n_vel; i++) {
        if (!(s->num.mass[i] > 0)) {
            rt_text_printf(s->msg, sizeof s->msg, "mass of body '%s' is not positive",
                            m->body_names ? m->body_names[i] : "?");
            s->failed = NSM_EMODEL;
            return NSM_EMODEL;
        }
        if (!isfinite(s->num.mass[i])) {
            /* parameters set at run time that overflow a mass (m0*a*a, a =
             * 1e200): nsmc refuses an infinite mass in the source, and the
             * run went on with it, its energies not a number, exit 0 */
            rt_text_printf(s->msg, sizeof s->msg, "the mass (or inertia) of '%s' is not finite "
                            "(%.6g): its parameters' values overflow a double (the largest is "
                            "%.3g)", m->body_names ? m->body_names[i] : "?", s->num.mass[i],
                            DBL_MAX);
            s->failed = NSM_EMODEL;
            return NSM_EMODEL;
        }
        s->mass_inv[i] = 1 / s->num.mass[i];
        if (!isfinite(s->mass_inv[i])) {
            /* a subnormal mass (--set m1=1e-320): its inverse overflows and
             * the run failed at its first step, "the mode's equations are
             * not finite", exit 3 */
            rt_text_printf(s->msg, sizeof s->msg, "the mass (or inertia) of '%s' is too small for a "
                            "double: %.6g, whose inverse overflows; give it at least %g",
                            m->body_names ? m->body_names[i] : "?", s->num.mass[i], 1 / DBL_MAX);
            s->failed = NSM_EMODEL;
            return NSM_EMODEL;
        }
    }
    if (sim_check_inertias(s))
        return NSM_EMODEL;
    double y0[s->n_state];
    memset(y0, 0, sizeof y0);
    if (m->initial)
        m->initial(s->params, s->consts, y0);
    if (s->set.y0)                  /* nsm_sim_set_initial_state */
        memcpy(y0, s->set.y0, sizeof(double) * (size_t)(s->n_pos + s->n_vel));
    if (sim_check_initial(s, y0))
        return NSM_EMODEL;
    rt_state_set(s, s->t, y0);
    rt_nl_forget(s);
    rt_nl_at(s, s->y);
    rt_mass_forget(s);
    if (rt_mass_at(s, s->y))
        return s->failed;
    for (int k = 0; k < s->n_switches; k++) {
        rt_state_switch_set(s, k, m->switch_state ? m->switch_state(k, 0, s->params, s->consts) : 0,
                            -HUGE_VAL);
    }
    /* the potential below is the physical one (springs at rest length and
     * gravity at x = 0 count zero), up to the constant fixed here */
    s->potential_offset = 0;
    unsigned free_mode[s->mode_words];
    rt_mode_none(s, free_mode);
    s->potential_offset = nsm_energy_springs(s->n_vel, m->n_springs, m->springs, s->num.sk, s->num.srest, s->y) +
              nsm_energy_gravity(s->n_vel, s->num.mass, s->num.gfac, s->num.gravity, s->y) -
              (rt_mech_energy(s, free_mode, s->y) - rt_mass_kinetic(s, s->y));
    if (rt_mass_dense(s))           /* V(q) as the model writes it */
        s->potential_offset += rt_mass_potential(s, s->y);
    s->speed0 = rt_speed_scale(s, s->t);   /* before a touching contact's impact */
    s->t_reset = s->t;
    int rc = rt_initial_mode(s);
    if (rc || (s->sec && (rc = rt_section_reset(s))))
        return rc;
    /* the energy of the initial state as given: what an impact at t = 0
     * (a contact touching and closing) took is in transition_loss, a loss, and a
     * moving surface's work through it in Wsurf */
    s->energy_start = rt_mech_energy(s, s->mode, s->y) + s->transition_loss - rt_surface_impulse_work(s);
    s->ready = 1;
    return NSM_OK;
}


/* |lambda_F| of spatial friction element k at the current state: 0 while
** its gap is open, mu lambda_N while it slides, the stick force's length
** while it sticks (the drilling part, a torque over the effective radius,
** included); NAN when the forces cannot be solved. */
static double sfric_force(const nsm_sim *s, int k)
{
    if (k < 0 || k >= s->n_space_fric)
        return NAN;
    int j = s->m->space_frictions[k].gap;
    double lam[s->n_gaps + 1], lf[3];
    if (!rt_law_held(s, s->mode, j))
        return 0;
    if (rt_lambda(s, s->mode, s->t, s->y, lam))
        return NAN;
    if (!rt_sf_stuck(s, s->mode, k))
        return s->num.sf_mu[k] * lam[j];
    rt_sf_stick_force(s, k, lf);
    return sqrt(lf[0] * lf[0] + lf[1] * lf[1] + lf[2] * lf[2]);
}

/* The contact forces reported at the current state (output columns,
** nsm_sim_forces): rt_lambda's, with an engaged penalty gap released by
** force (law.h) read as at least 0.  Its law is continued oddly below
** p = 0 for the event search, so a sample on the engagement or the
** release, within its rounding (the gap open by 1e-20 m at an entry, a
** taylor step ending 3e-15 m past a release), read k p^a < 0: a pull the
** law never exerts (the force is 0 there, the release due). */
static int forces_reported(const nsm_sim *s, double *lam)
{
    int rc = rt_lambda(s, s->mode, s->t, s->y, lam);
    if (rc)
        return rc;
    for (int j = 0; j < s->n_gaps; j++)
        if (rt_law_engaged(s, s->mode, j) && s->m->gaps[j].release == NSM_RELEASE_FORCE)
            lam[j] = fmax(lam[j], 0.0);
    return 0;
}

/* Value of output column k at the current state (NAN if out of range). */
RT_HOT double nsm_sim_output(const nsm_sim *s, int k)
{
    if (k < 0 || k >= s->m->n_outputs)
        return NAN;
    const nsm_output_info *o = &s->m->outputs[k];
    int n = s->n_vel, i = o->index;
    double kin, pot, diss, inj, err;
    switch (o->kind) {
    case NSM_OUT_X: return i >= 0 && i < n ? s->y[i] : NAN;
    case NSM_OUT_V: return i >= 0 && i < n ? rt_vel(s, s->y)[i] : NAN;
    case NSM_OUT_A: {
        double Yd[s->n_state];
        if (i < 0 || i >= n || rt_deriv(s, s->mode, s->t, s->y, Yd))
            return NAN;
        return rt_vel(s, Yd)[i];
    }
    case NSM_OUT_GAP: return i >= 0 && i < s->n_gaps ? rt_gap(s, i, s->y) : NAN;
    case NSM_OUT_FORCE: {
        double lam[s->n_gaps + 1];
        if (i < 0 || i >= s->n_gaps || forces_reported(s, lam))
            return NAN;
        return lam[i];
    }
    case NSM_OUT_PARAM: return i >= 0 && i < s->m->n_params ? s->params[i] : NAN;
    case NSM_OUT_FRICTION: {
        double ff[s->n_fric + 1];
        if (i < 0 || i >= s->n_fric || rt_fric_values(s, s->mode, s->t, s->y, ff))
            return NAN;
        return ff[i];
    }
    case NSM_OUT_EXPR:
        return s->m->output_value ? s->m->output_value(k, s->t, s->y, s->params, s->consts) : NAN;
    case NSM_OUT_SFRICTION: return sfric_force(s, i);
    default: break;
    }
    err = nsm_sim_energy(s, &kin, &pot, &diss, &inj);
    switch (o->kind) {
    case NSM_OUT_KINETIC: return kin;
    case NSM_OUT_POTENTIAL: return pot;
    case NSM_OUT_DISSIPATED: return diss;
    case NSM_OUT_INJECTED: return inj;
    case NSM_OUT_ERROR: {
        double now = fmax(fmax(fabs(kin), fabs(pot)), fmax(fabs(diss), fabs(inj)));
        double scale = rt_stats_energy_scale(s, fmax(now, fabs(s->energy_start)));
        return scale > 0 ? err / scale : err;
    }
    default: return NAN;
    }
}

/* Contact forces of the gaps at the current state. */
int nsm_sim_forces(const nsm_sim *s, double *lam)
{
    return forces_reported(s, lam);
}

double nsm_sim_time(const nsm_sim *s) { return s->t; }
const double *nsm_sim_state(const nsm_sim *s) { return s->y; }
unsigned nsm_sim_mode(const nsm_sim *s) { return s->mode[0]; }
int nsm_sim_mode_has(const nsm_sim *s, int j) { return j >= 0 && j < s->n_events + s->n_space_fric && rt_mode_has(s->mode, j); }
const int *nsm_sim_switches(const nsm_sim *s) { return s->sw; }
long nsm_sim_steps(const nsm_sim *s) { return s->steps; }
long nsm_sim_events(const nsm_sim *s) { return s->nevents; }
const char *nsm_sim_message(const nsm_sim *s) { return s->msg; }

/* Advance to time t_end: reset first when a parameter changed (or never
** ran), then the run loop (run.c). */
int nsm_sim_run_until(nsm_sim *s, double t_end)
{
    int rc;
    if (!s->ready && (rc = nsm_sim_reset(s)))
        return rc;
    return rt_run(s, t_end);
}

/* The refusals of a run to t_end before its first step (rt_run_check),
** without running: a program checks its options with it before it opens
** any output. */
int nsm_sim_check_run(nsm_sim *s, double t_end)
{
    int rc;
    if (!s->ready && (rc = nsm_sim_reset(s)))
        return rc;
    if (s->failed)
        return s->failed;
    if (!(t_end >= s->t) || !isfinite(t_end))
        return NSM_EINVAL;
    return rt_run_check(s, t_end);
}

/* The initial state of the next resets (NULL: the model's). */
int nsm_sim_set_initial_state(nsm_sim *s, const double *y)
{
    if (!y) {
        free(s->set.y0);
        s->set.y0 = NULL;
        s->ready = 0;
        return NSM_OK;
    }
    for (int i = 0; i < s->n_pos + s->n_vel; i++)
        if (!isfinite(y[i]))
            return NSM_EINVAL;
    if (!s->set.y0 && !(s->set.y0 = malloc(sizeof(double) * (size_t)(s->n_pos + s->n_vel))))
        return NSM_ENOMEM;
    memcpy(s->set.y0, y, sizeof(double) * (size_t)(s->n_pos + s->n_vel));
    s->ready = 0;
    return NSM_OK;
}

/* Value of an expression of the parameters; NSM_EINVAL with the reason in
** the message. */
int nsm_sim_eval(nsm_sim *s, const char *expr, double *v)
{
    char err[256];
    if (!expr || rt_affine_const(s, expr, v, err, sizeof err)) {
        rt_text_printf(s->msg, sizeof s->msg, "expression '%.200s': %s", expr ? expr : "", expr ? err : "none");
        return NSM_EINVAL;
    }
    return NSM_OK;
}
