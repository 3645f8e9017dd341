"""The bifurcation studies from Python (nsm.Model.continuation, sweep,
basins) against references computed independently of the runtime: the
impact map's closed form in mpmath (tests/studies/continuation_test.py,
curves_test.py), the grazing's closed form, and the mpmath period-1
reference of the forced impact oscillator
(tests/reference/data/forced_impact_oscillator.*.csv)."""
import csv
import math
import os
import sys

import numpy as np
import pytest

import nsm

SRC = os.environ.get("NSM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(SRC, "tests", "studies"))
import continuation_test as ref  # noqa: E402  (the impact map in mpmath)
import curves_test  # noqa: E402  (its period-2 orbit)
from mpmath import mpf  # noqa: E402


@pytest.fixture(scope="module")
def fio():
    return nsm.compile(os.path.join(SRC, "models", "forced_impact_oscillator.nsm"))


@pytest.fixture(scope="module")
def clearance():
    return nsm.compile(os.path.join(SRC, "tests", "studies", "impact_clearance.nsm"))


@pytest.fixture(autouse=True)
def reference_defaults():
    """The reference's oscillator back at e = 0.8, d = 2 after each test."""
    yield
    ref.E, ref.D = mpf("0.8"), mpf(2)


def test_continuation_branch(clearance):
    """The impacting branch downward from 1.3: its period doubling against
    the impact map's fixed point with det(DP + I) = 0, its grazing against
    the closed form, both to 1e-10; stable above the doubling."""
    b = clearance.continuation("omega", 1.3, 0.5, init=[1.9, 3])
    assert isinstance(b, nsm.Branch) and b.y.shape == (len(b), 2)
    assert b.multipliers.dtype == complex and b.kind[0] == "start"
    (i,) = b.special("flip")
    w, _ = ref.special(b.param[i], b.y[i, 0], b.y[i, 1], +1)
    assert abs(b.param[i] - float(w)) < 1e-10
    assert b.stable[i - 1] and not b.stable[i + 1]
    assert abs(min(abs(b.multipliers[i] + 1))) < 1e-7
    (g,) = b.special("grazing")
    assert abs(b.param[g] - float(ref.grazing_omegas()[0])) < 1e-10
    assert np.all(np.isnan(b.param2))


def test_continuation_curve_and_switch(fio, clearance):
    """The period-doubling curve in (omega, e) of the oscillator with its
    stop at equilibrium against mpmath at two of its points; the doubled
    branch from the period doubling against the period-2 orbit in mpmath."""
    c = fio.continuation("omega", 2.5, 2.8, curve="flip", param2="e", start2=0.8, stop2=0.6)
    assert len(c) >= 4 and np.all(c.kind == "flip") and c.param2[0] == 0.8
    ref.D = mpf(0)
    for i in (0, len(c) - 1):
        ref.E = mpf(c.param2[i])
        w, _ = ref.special(c.param[i], c.y[i, 0], c.y[i, 1], +1)
        assert abs(c.param[i] - float(w)) < 1e-10
    ref.E, ref.D = mpf("0.8"), mpf(2)
    b = clearance.continuation("omega", 1.3, 0.5, init=[1.9, 3], switch_pd=True)
    (s,) = b.special("switch")
    assert b.kind[s - 1] == "flip" and b.impacts[s] == 2
    r = s + 8
    _, (x, v) = curves_test.period2(mpf(b.param[r]), mpf(b.y[r, 0]), mpf(b.y[r, 1]))
    assert abs(float(x) - b.y[r, 0]) < 1e-10 and abs(float(v) - b.y[r, 1]) < 1e-10
    with pytest.raises(nsm.SettingError, match="param2"):
        fio.continuation("omega", 2.5, 2.8, curve="flip")
    with pytest.raises(nsm.SettingError, match="curve"):
        fio.continuation("omega", 2.5, 2.8, curve="cusp", param2="e", start2=0.8, stop2=0.6)
    with pytest.raises(nsm.ParameterError):
        fio.continuation("nosuch", 2.5, 2.8)


def test_continuation_grazing_curve(clearance):
    """The grazing curve in (omega, d): the non-impacting orbit's amplitude
    F / sqrt((k - m w^2)^2 + (c w)^2) equals d at every point (1e-10)."""
    c = clearance.continuation("omega", 1.6, 0.5, curve="grazing", param2="d", start2=2, stop2=2.6)
    assert len(c) > 3 and c.param2.max() > 2.5
    w = c.param
    amp = 1 / np.sqrt((1 - w * w) ** 2 + (0.1 * w) ** 2)
    # d'(w) is about -10 here: 1e-9 in d is 1e-10 in omega
    assert np.max(np.abs(amp - c.param2)) < 1e-9
    assert np.max(np.abs(c.min_gap)) < 1e-9


def test_sweep_bifurcation_diagram(fio, src):
    """The brute-force diagram: at omega = 2.5 every kept impact has the
    period-1 orbit's speed and phase of the mpmath reference; above the
    doubling (2.7) the records alternate between two speeds."""
    with open(os.path.join(src, "tests", "reference", "data",
                           "forced_impact_oscillator.period1.csv")) as f:
        r25 = [r for r in csv.DictReader(f) if abs(float(r["omega"]) - 2.5) < 1e-9][0]
    p, rec = fio.sweep("omega", [2.5, 2.7], "impact:stop", period="2*pi/omega",
                       transient=300, record=20, t_max="1000*2*pi/omega")
    assert p.shape == (40,) and rec.shape == (40, 4)
    a = rec[p == 2.5]
    np.testing.assert_allclose(a[:, 3], float(r25["u"]), atol=1e-10)
    np.testing.assert_allclose(a[:, 1], float(r25["phase"]), atol=1e-10)
    assert len(np.unique(np.round(rec[p == 2.7, 3], 8))) == 2
    with pytest.raises(nsm.ParameterError):
        fio.sweep("nosuch", [1.0], "impact:stop")


def test_basins(fio):
    """Basins at omega = 0.7 (two period-1 orbits, two and three impacts per
    period): labels on the grid, shares that add up, and for each attractor
    a run from a grid point of its basin ends on an orbit of its stated
    records per period (impacts on the stop, x = 0) through its section
    point."""
    xs, ys, lab, atts = fio.basins(("M.x", -3, -0.01, 8), ("M.v", -3, 3, 6), "impact:stop",
                                   period="2*pi/omega", transient=300, record=12,
                                   params={"omega": 0.7}, jobs=2)
    assert xs.shape == (8,) and ys.shape == (6,) and lab.shape == (6, 8)
    assert xs[0] == -3 and ys[-1] == 3
    assert sorted((int(a["period"]), int(a["records"])) for a in atts) == [(1, 2), (1, 3)]
    assert abs(sum(a["fraction"] for a in atts) - 1) < 1e-12
    for k, a in enumerate(atts, 1):
        assert int(a["points"]) == int(np.sum(lab == k))
        n = int(a["records"])
        i, j = np.argwhere(lab == k)[0]
        rec = fio.section("impact:stop", t_end="400*2*pi/omega", period="2*pi/omega",
                          params={"omega": 0.7}, init=[xs[j], ys[i]])
        last = rec[-3 * n:]
        assert np.all(np.abs(last[:, 2]) < 1e-12)
        np.testing.assert_allclose(last[n:, 3], last[:-n, 3], atol=1e-5)
        np.testing.assert_allclose(last[n:, 1], last[:-n, 1], atol=1e-5)
        m = np.argmin(np.abs(last[:, 1] - a["phase"]))
        assert abs(last[m, 1] - a["phase"]) < 1e-5 and abs(last[m, 3] - a["M.v [m/s]"]) < 1e-5


def test_basins_independent_reference(fio):
    """Every state of an 8 x 6 basin grid at omega = 0.7 is classified again
    by tests/studies/basin_reference.py (the closed-form flow between
    impacts, bisected impacts, no runtime code): the attractor Model.basins
    gives it has the reference's impacts per period, and its section point
    (phase, impact speed) is one of the reference's last period's impacts
    within 1e-5 (both are states after some 300 periods of a transient that
    decays geometrically, a few 1e-6 from the orbit; the two orbits' impact
    speeds differ by 0.09)."""
    import basin_reference
    xs, ys, lab, atts = fio.basins(("M.x", -3, -0.01, 8), ("M.v", -3, 3, 6), "impact:stop",
                                   period="2*pi/omega", transient=300, record=12,
                                   params={"omega": 0.7}, jobs=2)
    seen, compared = set(), 0
    for i in range(len(ys)):
        for j in range(len(xs)):
            ref = basin_reference.attractor(xs[j], ys[i], 0.7)
            if ref is None:
                continue
            per, last = ref
            assert lab[i, j] >= 1, (xs[j], ys[i])
            a = atts[lab[i, j] - 1]
            assert per == a["records"], (xs[j], ys[i], per, a)
            assert min(abs(ph - a["phase"]) + abs(s - a["M.v [m/s]"]) for ph, s in last) < 1e-5
            seen.add(int(a["records"]))
            compared += 1
    assert compared >= 44 and seen == {2, 3}


def test_basins_pilot(fio, monkeypatch):
    """pilot is the command line's --basin-pilot: passed on as given, checked
    as the command line checks it (a whole number from 0 to 1000), and, as
    docs/studies.md states, the labels and attractors without reference
    orbits (pilot=0) are those with them."""
    sent = []
    real = nsm._run_stoppable      # how basins runs nsmc sweep (Ctrl-C honoured)

    def spy(cmd, what, **kw):
        sent.append(list(cmd))
        return real(cmd, what, **kw)
    monkeypatch.setattr(nsm, "_run_stoppable", spy)
    args = (("M.x", -3, -0.01, 6), ("M.v", -3, 3, 5), "impact:stop")
    kw = dict(period="2*pi/omega", transient=300, record=12, params={"omega": 0.7})
    xs0, ys0, lab0, atts0 = fio.basins(*args, pilot=0, **kw)
    assert sent[-1][sent[-1].index("--basin-pilot") + 1] == "0"
    xs2, ys2, lab2, atts2 = fio.basins(*args, pilot=3, **kw)
    assert sent[-1][sent[-1].index("--basin-pilot") + 1] == "3"
    fio.basins(*args, **kw)
    assert "--basin-pilot" not in sent[-1]
    assert np.array_equal(lab0, lab2) and atts0 == atts2
    assert sorted(int(a["records"]) for a in atts0) == [2, 3]
    for bad in (-1, 1001, 2.5, "many"):
        with pytest.raises(nsm.SettingError, match="pilot"):
            fio.basins(*args, pilot=bad, **kw)


def test_basins_refused(fio):
    """Bad basin axes: nsmc's message, as a SettingError; nothing left over."""
    with pytest.raises(nsm.SettingError, match="M.q"):
        fio.basins(("M.q", -3, -0.01, 4), ("M.v", -3, 3, 4), "impact:stop",
                   period="2*pi/omega", params={"omega": 0.7})
    with pytest.raises(nsm.SettingError, match="COORDINATE"):
        fio.basins(("M.x", -3, 4), ("M.v", -3, 3, 4), "impact:stop")


def test_lyapunov_refusal_names_lyapunov(src):
    """A nonlinear model's Lyapunov refusal names the Lyapunov study, and is
    a SettingError, as the command line's exit 1 (refused before running)."""
    m = nsm.compile(os.path.join(src, "models", "duffing_stop.nsm"))
    with pytest.raises(nsm.SettingError) as err:
        m.lyapunov(10, 1)
    assert "lyapunov" in str(err.value) and "monodromy" not in str(err.value)
