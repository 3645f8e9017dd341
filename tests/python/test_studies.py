"""The Python studies (nsm.Model.section, floquet, lyapunov, run(init=...),
nsm.compile_source) against closed forms and the mpmath reference
(tests/reference/data/forced_impact_oscillator.period1.csv)."""
import csv
import math
import os

import numpy as np
import pytest

import nsm

DAMPED = """model py_damped "A damped free linear oscillator"
param m = 2 kg
param k = 8 N/m
param c = 0.4 N*s/m
mass M = m
spring M -- ground, k = k, c = c
init M.x = 1 m, M.v = 0 m/s
simulate t_end = 20 s, method = exact
output every 0.5 s: M.x, M.v
"""


@pytest.fixture(scope="module")
def fio(src):
    return nsm.compile(os.path.join(src, "models", "forced_impact_oscillator.nsm"))


@pytest.fixture(scope="module")
def damped():
    return nsm.compile_source(DAMPED)


def test_compile_source_and_init(damped):
    """compile_source builds the text's model; init starts it elsewhere: the
    free oscillation from (x0, v0) is the closed form."""
    assert damped.name == "py_damped"
    r = damped.run(init={"M.x": 0.3, "M.v": -0.7}, t_end=5)
    z, wn = 0.4 / (2 * math.sqrt(8 * 2)), 2.0
    wd = wn * math.sqrt(1 - z * z)
    t = r.t
    x = np.exp(-z * wn * t) * (0.3 * np.cos(wd * t) + (-0.7 + z * wn * 0.3) / wd * np.sin(wd * t))
    np.testing.assert_allclose(r["M.x"], x, atol=1e-9)
    r2 = damped.run(init=[0.3, -0.7], t_end=5)
    np.testing.assert_array_equal(r2["M.x"], r["M.x"])
    with pytest.raises(nsm.ParameterError, match="not a coordinate"):
        damped.run(init={"M.q": 1})
    with pytest.raises(nsm.ParameterError, match="needs 2 values"):
        damped.run(init=[1.0])
    with pytest.raises(nsm.CompileError):
        nsm.compile_source("model broken\nmass = \n")


def test_lyapunov_damped(damped):
    """Exponents of the damped oscillator: -c/(2m) each, their sum exact."""
    lam = damped.lyapunov(2000, 0.5)
    assert isinstance(lam, np.ndarray) and lam.shape == (2,)
    assert abs(lam.sum() + 0.2) <= 1e-11
    assert np.all(np.abs(lam + 0.1) <= 1 / 2000)


def test_floquet_and_lyapunov_period1(src, fio):
    """The period-1 orbit's multipliers against the mpmath reference, and
    the largest exponent from its state: log|mu| / T within 4 / (N T)."""
    with open(os.path.join(src, "tests", "reference", "data",
                           "forced_impact_oscillator.period1.csv")) as f:
        ref = {round(float(r["omega"]), 6): r for r in csv.DictReader(f)}
    for w in (1.5, 2.5):
        T = 2 * math.pi / w
        y, mu = fio.floquet("2*pi/omega", transient=200 * T, params={"omega": w})
        r = ref[w]
        want = sorted([complex(float(r["mu1_re"]), float(r["mu1_im"])),
                       complex(float(r["mu2_re"]), float(r["mu2_im"]))], key=lambda z: (round(z.real, 6), z.imag))
        got = sorted(mu, key=lambda z: (round(z.real, 6), z.imag))
        np.testing.assert_allclose(got, want, atol=1e-9)
        lam = fio.lyapunov(400 * T, T, params={"omega": w}, init=list(y))
        assert abs(lam[0] - math.log(max(abs(z) for z in want)) / T) <= 4 / (400 * T)


def test_section_and_small_bifurcation_study(fio):
    """A stroboscopic impact-map study over omega returns numpy arrays: one
    impact speed per period below the first period doubling (2.6589), two
    above it."""
    periods = {}
    for w in (2.5, 2.7):
        rec = fio.section("impact:stop", t_end="400*2*pi/omega", period="2*pi/omega",
                          params={"omega": w})
        assert rec.ndim == 2 and rec.shape[1] == 4
        v = np.unique(np.round(rec[-40:, 3], 6))
        periods[w] = len(v)
    assert periods == {2.5: 1, 2.7: 2}
    with pytest.raises(nsm.SettingError):
        fio.section("impact:nosuch")


def test_section_period_refused(fio):
    """A phase period the time axis cannot carry (1e-300 s: the phase read 0
    at every record) or that is no period is refused naming the option, by
    section and sweep (the C API's nsm_sim_set_section_period and run) and
    by basins, which raises with the first state's cause when every state
    fails; a basin grid whose states find no period returns its 'none' row
    instead of failing to parse it."""
    for per in (1e-300, "1e-12", 0, -1):
        # an option error (exit 1) on the command line: SettingError here
        with pytest.raises(nsm.SettingError, match="period"):
            fio.section("impact:stop", t_end=100, period=per)
        # and by sweep before its first value runs, as nsmc sweep refuses it
        # before the grid (it was the first value's SimulationError)
        with pytest.raises(nsm.SettingError, match="period"):
            fio.sweep("omega", [2.0, 2.5], "impact:stop", period=per, transient=5, record=3)
    # refused before the grid by nsmc sweep --basin (exit 1) since the sixth
    # hostile pass, where every state failed (exit 3): a SettingError
    with pytest.raises(nsm.SettingError, match=r"--section-period\) 1e-300 s is too short"):
        fio.basins(("M.x", -1, 0, 2), ("M.v", -1, 1, 2), "impact:stop", period=1e-300,
                   transient=5, record=3)
    xs, ys, labels, atts = fio.basins(("M.x", -1, 0, 2), ("M.v", -1, 1, 2), "impact:stop",
                                      period="2*pi/omega", transient=5, record=5, t_max=200)
    assert (labels == 0).all() and atts[-1]["period"] == "none" and atts[-1]["records"] is None
    assert atts[-1]["points"] == 4


@pytest.fixture(scope="module")
def clear(src):
    return nsm.compile(os.path.join(src, "tests", "studies", "impact_clearance.nsm"))


def test_hostile_study_arguments(fio, clear):
    """The studies' arguments a hostile pass tried: each raises an nsm.Error
    subclass with a message (they escaped as ValueError, AttributeError, or
    ran: a swept parameter in params overridden without a word, a negative
    transient taken as 0, record=0 returning nothing, a basin count of 2.7
    cut to 2, a continuation with start == stop or tol below rounding)."""
    S = "impact:stop"
    bad = [
        (nsm.ParameterError, "values must be numbers", lambda: fio.sweep("omega", "abc", S)),
        (nsm.SettingError, "section must be a text", lambda: fio.sweep("omega", [2], None)),
        (nsm.SettingError, "section must be a text", lambda: fio.sweep("omega", [2], 5)),
        (nsm.SettingError, "spec must be a text", lambda: fio.section(None)),
        (nsm.SettingError, "transient must be a whole number",
         lambda: fio.sweep("omega", [2], S, transient=-1)),
        (nsm.SettingError, "record must be a whole number", lambda: fio.sweep("omega", [2], S, record=0)),
        (nsm.SettingError, "record must be a whole number",
         lambda: fio.sweep("omega", [2], S, record=1e30)),
        (nsm.SettingError, "not a positive time", lambda: fio.sweep("omega", [2], S, t_max=-1)),
        (nsm.ParameterError, "swept or continued",
         lambda: fio.sweep("omega", [2], S, params={"omega": 3})),
        (nsm.SettingError, "start and stop are equal", lambda: clear.continuation("omega", 1.3, 1.3)),
        (nsm.ParameterError, "swept or continued",
         lambda: clear.continuation("omega", 1.3, 1.2, params={"omega": 1.0})),
        (nsm.SettingError, "below the rounding",
         lambda: clear.continuation("omega", 1.3, 1.2, tol=1e-300)),
        (nsm.SettingError, "max_points must be a whole number",
         lambda: clear.continuation("omega", 1.3, 1.2, max_points=-1)),
        (nsm.SettingError, "periods must be a whole number",
         lambda: clear.continuation("omega", 1.3, 1.2, periods="abc")),
        (nsm.SettingError, "too short for the model's motion",
         lambda: clear.continuation("omega", 1.3, 1.2, period=1e-300)),
        (nsm.SettingError, "x count must be a whole number",
         lambda: fio.basins(("M.x", -1, 0, 2.7), ("M.v", 0, 1, 2), S, period="2*pi/omega")),
        (nsm.SettingError, "x count must be a whole number",
         lambda: fio.basins(("M.x", -1, 0, float("nan")), ("M.v", 0, 1, 2), S)),
        (nsm.SettingError, r"^nsmc sweep --basin: --basin M.q",
         lambda: fio.basins(("M.q", 0, 1, 2), ("M.v", 0, 1, 2), S, period="2*pi/omega")),
    ]
    for exc, msg, call in bad:
        with pytest.raises(exc, match=msg):
            call()
