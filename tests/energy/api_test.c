/*
** api_test.c: the energy audit and contact statistics through libnsmrt's
** API (nsm_sim_audit, nsm_sim_contact_stats, nsm_sim_damper_energy,
** nsm_sim_body_work, nsm_sim_force_work, nsm_sim_set_audit) on the generated simulators of
** models/ and tests/energy/models/force_work (compiled with NSM_NO_MAIN).  One test per command-line argument; exit 0 when it passes.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nsm/nsm.h"

extern const nsm_model nsm_model_bouncing_ball, nsm_model_zeno_ball, nsm_model_sdnd121,
    nsm_model_two_mass_plastic, nsm_model_force_work;

static int fails;

/* Record one comparison. */
static void expect(int ok, const char *what, double got, double want)
{
    printf("%s %-50s got %.17g want %.17g\n", ok ? "ok  " : "FAIL", what, got, want);
    if (!ok)
        fails++;
}

/* got equals want to rtol relative. */
static void near(const char *what, double got, double want, double rtol)
{
    expect(fabs(got - want) <= rtol * fabs(want) && isfinite(got), what, got, want);
}

/* Count the sample handler's calls. */
static int count_samples(void *ud, const nsm_sim *sim, double t)
{
    (void)sim;
    (void)t;
    ++*(long *)ud;
    return 0;
}

/* A run resumed in pieces gives the statistics of one run. */
static void test_resume(void)
{
    nsm_sim *a = nsm_sim_create(&nsm_model_bouncing_ball);
    nsm_sim *b = nsm_sim_create(&nsm_model_bouncing_ball);
    nsm_contact_stats sa, sb;
    nsm_audit aa, ab;
    nsm_sim_set_method(a, NSM_METHOD_EXACT);
    nsm_sim_set_method(b, NSM_METHOD_EXACT);
    nsm_sim_run_until(a, 5);
    nsm_sim_run_until(b, 1.3);
    nsm_sim_run_until(b, 2.71);
    nsm_sim_run_until(b, 5);
    nsm_sim_contact_stats(a, 0, &sa);
    nsm_sim_contact_stats(b, 0, &sb);
    nsm_sim_audit(a, &aa);
    nsm_sim_audit(b, &ab);
    expect(sa.impacts == sb.impacts && sa.impacts > 3, "impacts of one run = of three pieces",
           (double)sb.impacts, (double)sa.impacts);
    near("impulse of one run = of three pieces", sb.impulse, sa.impulse, 1e-12);
    near("energy lost of one run = of three pieces", sb.energy_lost, sa.energy_lost, 1e-12);
    near("largest speed of one run = of three pieces", sb.max_speed, sa.max_speed, 1e-12);
    /* the cuts move the step grid: a step or two more or less */
    expect(labs(ab.steps - aa.steps) <= 2, "steps: those of one run, within the 2 cuts",
           (double)ab.steps, (double)aa.steps);
    expect(ab.error_max <= 1e-10 * ab.energy_max, "pieces: balance closes", ab.error_max, 0);
    nsm_sim_free(a);
    nsm_sim_free(b);
}

/* A reset empties the audit; a parameter change (which resets) too; the
** same run twice gives the same statistics. */
static void test_reset(void)
{
    nsm_sim *s = nsm_sim_create(&nsm_model_two_mass_plastic);
    nsm_contact_stats c1, c0, c2;
    nsm_audit a;
    nsm_sim_run_until(s, 20);
    nsm_sim_contact_stats(s, 0, &c1);
    nsm_sim_reset(s);
    nsm_sim_contact_stats(s, 0, &c0);
    nsm_sim_audit(s, &a);
    expect(c0.impacts == 0 && c0.phases == 0 && c0.impulse == 0 && c0.energy_lost == 0 &&
           c0.contact_time == 0 && c0.peak_force == 0, "reset: contact statistics empty",
           (double)c0.impacts, 0);
    expect(a.steps == 0 && a.error_max == 0 && a.lost == 0 && a.dissipated == 0,
           "reset: audit empty", (double)a.steps, 0);
    expect(nsm_sim_damper_energy(s, 0) == 0 && nsm_sim_damper_energy(s, 1) == 0,
           "reset: damper shares empty", nsm_sim_damper_energy(s, 0), 0);
    nsm_sim_run_until(s, 20);
    nsm_sim_contact_stats(s, 0, &c2);
    expect(c2.impacts == c1.impacts && c2.impulse == c1.impulse && c2.contact_time == c1.contact_time,
           "the same run twice: the same statistics", c2.impulse, c1.impulse);
    nsm_sim_set_param(s, "m1", 5.0);
    nsm_sim_run_until(s, 1);
    nsm_sim_audit(s, &a);
    expect(a.steps >= 1000 && a.steps <= 1010, "a parameter change starts the audit over at t = 0",
           (double)a.steps, 1000);
    nsm_sim_free(s);
}

/* Arguments out of range. */
static void test_args(void)
{
    nsm_sim *s = nsm_sim_create(&nsm_model_two_mass_plastic);
    nsm_contact_stats c;
    expect(nsm_sim_contact_stats(s, -1, &c) == NSM_EINVAL, "gap -1 refused", 0, 0);
    expect(nsm_sim_contact_stats(s, 1, &c) == NSM_EINVAL, "gap 1 of 1 refused", 0, 0);
    expect(nsm_sim_contact_stats(s, 0, NULL) == NSM_EINVAL, "NULL output refused", 0, 0);
    expect(nsm_sim_audit(s, NULL) == NSM_EINVAL, "NULL audit refused", 0, 0);
    expect(isnan(nsm_sim_damper_energy(s, 2)), "damper 2 of 2: NAN", nsm_sim_damper_energy(s, 2), 0);
    expect(isnan(nsm_sim_body_work(s, -1)), "body -1: NAN", nsm_sim_body_work(s, -1), 0);
    nsm_sim_free(s);
}

/* The peak force is taken at every step, whatever the sampling: SDND121 with
** one sample at the end gives the peak of a run sampled at every step, and
** the code_aster metrics do not depend on the sample handler. */
static void test_peak(void)
{
    nsm_sim *a = nsm_sim_create(&nsm_model_sdnd121);
    nsm_sim *b = nsm_sim_create(&nsm_model_sdnd121);
    long na = 0, nb = 0;
    nsm_contact_stats ca, cb;
    nsm_audit aa, ab;
    nsm_sim_set_method(a, NSM_METHOD_EXACT);
    nsm_sim_set_method(b, NSM_METHOD_EXACT);
    nsm_sim_set_every(a, 0.5);
    nsm_sim_set_every(b, 0);
    nsm_sim_set_sample_handler(a, count_samples, &na);
    nsm_sim_set_sample_handler(b, count_samples, &nb);
    nsm_sim_run_until(a, 0.5);
    nsm_sim_run_until(b, 0.5);
    nsm_sim_contact_stats(a, 0, &ca);
    nsm_sim_contact_stats(b, 0, &cb);
    nsm_sim_audit(a, &aa);
    nsm_sim_audit(b, &ab);
    expect(na == 2 && nb > 100000, "samples: 2 against every step", (double)na, 2);
    near("peak force with 2 samples = with every step", ca.peak_force, cb.peak_force, 1e-12);
    /* the peak of k_choc p in a contact of about 0.4 ms, by the step ends */
    expect(ca.peak_force > 1e5, "peak force of the stiff stop above 1e5 N", ca.peak_force, 1e5);
    near("code_aster energy error independent of sampling", aa.aster_energy, ab.aster_energy, 1e-9);
    /* the reference's contact entries before 0.5 s (tests/reference/sdnd121.py) */
    expect(ca.phases == 10 && ca.phases == cb.phases, "10 contact phases in 0.5 s", (double)ca.phases,
           10);
    nsm_sim_free(a);
    nsm_sim_free(b);
}

/* The Zeno ball at rest: the audit reports the stuck contact and the loss of
** every joule; the one body's work share is the injected work (0). */
static void test_zeno(void)
{
    nsm_sim *s = nsm_sim_create(&nsm_model_zeno_ball);
    nsm_contact_stats c;
    nsm_audit a;
    nsm_sim_set_method(s, NSM_METHOD_EXACT);
    nsm_sim_run_until(s, 3);
    nsm_sim_contact_stats(s, 0, &c);
    nsm_sim_audit(s, &a);
    near("lost = m g h", a.lost, 9.81, 1e-12);
    near("kinetic + potential at rest = 0", a.kinetic + a.potential + 1, 1, 1e-12);
    expect(c.zeno == 1 && c.phases == 1, "one Zeno jump, one stick phase", (double)c.zeno, 1);
    expect(nsm_sim_body_work(s, 0) == 0, "no work", nsm_sim_body_work(s, 0), 0);
    nsm_sim_free(s);
}

/* Closed-form work of force_work's three forces at t = 2 s: A (2 kg, v0 =
** 0.5 m/s) under push = 3 N and shake = 5 N sin(4 t), so v_A = v0 + (3 t +
** 5 (1 - cos 4t)/4)/2; B (0.5 kg, v0 = -1 m/s) under 1.5 N until 1.25 s. */
static void force_work_closed(double W[3])
{
    double m = 2, F0 = 3, F1 = 5, w = 4, v0 = 0.5, T = 2, s = sin(w * T), c = cos(w * T);
    W[0] = F0 * (v0 * T + (F0 * T * T / 2 + F1 * (T - s / w) / w) / m);
    W[1] = F1 * (v0 * (1 - c) / w +
                 (F0 * (s - w * T * c) / (w * w) + F1 / w * ((1 - c) / w - s * s / (2 * w))) / m);
    W[2] = 1.5 * (-1 * 1.25 + 1.5 * 1.25 * 1.25 / (2 * 0.5));
}

/* The work of each force statement: closed forms, shares adding up to the
** injected work, range checks; a table without the force list (n_forces =
** 0, as before it existed) still runs and shares per body only. */
static void test_forces(void)
{
    double W[3], w, sum = 0;
    nsm_audit a;
    force_work_closed(W);
    for (int method = NSM_METHOD_RK4; method <= NSM_METHOD_EXACT; method++) {
        nsm_sim *s = nsm_sim_create(&nsm_model_force_work);
        nsm_sim_set_method(s, method);
        int rc = nsm_sim_run_until(s, 2);
        expect(rc == NSM_OK && nsm_sim_time(s) == 2, "run to 2 s", nsm_sim_time(s), 2);
        nsm_sim_audit(s, &a);
        sum = 0;
        for (int k = 0; k < 3; k++) {
            char what[64];
            snprintf(what, sizeof what, "%s: work of %s", nsm_method_name(method),
                     nsm_model_force_work.forces[k].name);
            w = NAN;
            nsm_sim_force_work(s, k, &w);
            near(what, w, W[k], 1e-9);
            sum += w;
        }
        near("shares add up to the injected work", sum, a.injected, 1e-12);
        w = NAN;
        rc = nsm_sim_force_work(s, -1, &w);
        expect(rc == NSM_OK && w == 0, "nothing left to other", w, 0);
        expect(nsm_sim_force_work(s, 3, &w) == NSM_EINVAL, "force 3 out of range", 0, 0);
        near("work on A = push + shake", nsm_sim_body_work(s, 0), W[0] + W[1], 1e-9);
        nsm_sim_free(s);
    }
    nsm_model old = nsm_model_force_work;
    old.n_forces = 0;
    old.forces = NULL;
    old.force_terms = NULL;
    nsm_sim *s = nsm_sim_create(&old);
    expect(s && nsm_sim_run_until(s, 2) == NSM_OK, "table without forces runs", 0, 0);
    expect(nsm_sim_force_work(s, 0, &w) == NSM_EINVAL, "no force list: EINVAL", 0, 0);
    near("without the list, work on A still shared", nsm_sim_body_work(s, 0), W[0] + W[1], 1e-9);
    near("without the list, work on B still shared", nsm_sim_body_work(s, 1), W[2], 1e-9);
    nsm_sim_free(s);
    /* one force on one body: all of the injected work */
    s = nsm_sim_create(&nsm_model_sdnd121);
    nsm_sim_run_until(s, 0.05);
    nsm_sim_audit(s, &a);
    w = NAN;
    nsm_sim_force_work(s, 0, &w);
    expect(w == a.injected && w != 0, "sdnd121: its one force does all the work", w, a.injected);
    nsm_sim_free(s);
}

/* The audit switched off: the balance and its scale are kept step by step
** as with the audit on (the run is the same), what the audit sums reads NAN
** (force work: refused), the event statistics stay; a reset with the audit
** back on gives the full audit again. */
static void test_audit_off(void)
{
    nsm_sim *on = nsm_sim_create(&nsm_model_two_mass_plastic);
    nsm_sim *off = nsm_sim_create(&nsm_model_two_mass_plastic);
    nsm_contact_stats c_on, c_off;
    nsm_audit a_on, a_off;
    double w;
    nsm_sim_set_audit(off, 0);
    nsm_sim_run_until(on, 20);
    nsm_sim_run_until(off, 20);
    nsm_sim_audit(on, &a_on);
    nsm_sim_audit(off, &a_off);
    nsm_sim_contact_stats(on, 0, &c_on);
    nsm_sim_contact_stats(off, 0, &c_off);
    expect(a_off.error_max == a_on.error_max && a_off.error_max > 0, "balance error kept", a_off.error_max,
           a_on.error_max);
    expect(a_off.energy_max == a_on.energy_max, "energy scale kept", a_off.energy_max, a_on.energy_max);
    expect(a_off.steps == a_on.steps, "same steps", (double)a_off.steps, (double)a_on.steps);
    expect(isnan(a_off.dissipated_other) && isnan(a_off.injected_other), "shares: NAN",
           a_off.dissipated_other, NAN);
    expect(isnan(nsm_sim_damper_energy(off, 0)) && !isnan(nsm_sim_damper_energy(on, 0)),
           "damper energy: NAN off, a number on", nsm_sim_damper_energy(off, 0), NAN);
    expect(isnan(nsm_sim_body_work(off, 0)), "body work: NAN", nsm_sim_body_work(off, 0), NAN);
    expect(nsm_sim_force_work(off, 0, &w) == NSM_EINVAL, "force work refused", 0, 0);
    expect(isnan(c_off.peak_force) && !isnan(c_on.peak_force), "peak force: NAN off", c_off.peak_force,
           NAN);
    expect(c_off.impacts == c_on.impacts && c_off.phases == c_on.phases && c_off.impacts > 0,
           "event statistics kept", (double)c_off.impacts, (double)c_on.impacts);
    near("energy lost kept", c_off.energy_lost, c_on.energy_lost, 0);
    nsm_sim_set_audit(off, 1);
    nsm_sim_reset(off);
    nsm_sim_run_until(off, 20);
    expect(nsm_sim_damper_energy(off, 0) == nsm_sim_damper_energy(on, 0),
           "after a reset with the audit on: the same damper energy", nsm_sim_damper_energy(off, 0),
           nsm_sim_damper_energy(on, 0));
    nsm_sim_free(on);
    nsm_sim_free(off);
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        void (*fn)(void);
    } tests[] = { { "resume", test_resume }, { "reset", test_reset }, { "args", test_args },
                  { "peak", test_peak }, { "zeno", test_zeno }, { "forces", test_forces },
                  { "audit_off", test_audit_off } };
    if (argc != 2)
        return 2;
    for (size_t k = 0; k < sizeof tests / sizeof tests[0]; k++)
        if (strcmp(argv[1], tests[k].name) == 0) {
            tests[k].fn();
            return fails != 0;
        }
    fprintf(stderr, "unknown test '%s'\n", argv[1]);
    return 2;
}
