"""The Python package nsm against independent results: the mpmath reference
of the two-mass system and of the friction oscillator, Newton's impact law, the bouncing ball's closed-form
rest time; its errors; its cache; an installed copy."""
import csv
import math
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import pytest

import nsm


@pytest.fixture(scope="module")
def two_mass(model_path):
    return nsm.compile(model_path("two_mass"))


@pytest.fixture(scope="module")
def ball(model_path):
    return nsm.compile(model_path("bouncing_ball"))


def test_model_description(two_mass):
    """Parameters, outputs, bodies and contacts as models/two_mass.nsm states them."""
    assert two_mass.name == "two_mass"
    assert list(two_mass.params) == ["m1", "m2", "k1", "k2", "c1", "c2", "e"]
    assert two_mass.params["k1"] == nsm.Param(2.0, "N/m")
    assert two_mass.params["c2"] == nsm.Param(1.0, "N*s/m")
    assert two_mass.params["e"] == nsm.Param(0.9, "")
    assert [o.name for o in two_mass.outputs] == ["M1.x", "M2.x", "M1.v", "M2.v", "C.force"]
    assert two_mass.outputs[0].unit == "m" and two_mass.outputs[4].unit == "N"
    assert two_mass.bodies == ["M1", "M2"] and two_mass.contacts == ["C"]
    assert two_mass.defaults["t_end"] == 20 and two_mass.defaults["method"] == "rk4"


@pytest.mark.parametrize("method", ["exact", "rk4", "adaptive"])
def test_two_mass_events_match_reference(two_mass, two_mass_reference, method):
    """Separation and impacts at the reference's times; every method."""
    ref_events, _ = two_mass_reference
    r = two_mass.run(t_end=20, method=method, every=0.01)
    ev = r.events[r.events["kind"] != "stick"]
    assert [(k, c) for _, k, c in ref_events] == list(zip(ev["kind"], ev["contact"]))
    tol = 1e-9 if method != "rk4" else 1e-8
    np.testing.assert_allclose(ev["t"], [t for t, _, _ in ref_events], rtol=0, atol=tol)
    assert r.events.dtype == nsm.EVENT_DTYPE
    assert r.events["kind"][0] == "stick" and r.events["t"][0] == 0


def test_two_mass_samples_match_reference(two_mass, two_mass_reference):
    """Positions and velocities at the reference's sample times."""
    _, ref = two_mass_reference
    r = two_mass.run(t_end=20, method="exact", every=0.01)
    assert len(r.t) == 2001 and r.t[0] == 0 and abs(r.t[-1] - 20) < 1e-12
    for row in ref:
        i = int(round(row["t"] / 0.01))
        assert abs(r.t[i] - row["t"]) < 1e-12
        for name in ("M1.x", "M2.x", "M1.v", "M2.v"):
            assert abs(r[name][i] - row[name]) < 1e-9, (row["t"], name)
    # the state is (x, v) of the bodies, in r.bodies' order
    np.testing.assert_array_equal(r.x[:, 0], r["M1.x"])
    np.testing.assert_array_equal(r.v[:, 1], r["M2.v"])
    assert r.state.shape == (2001, 4)


def test_parameters_and_newton_impact_law(two_mass):
    """e = 0.5: after every impact vrel+ = -e vrel-, and the energy lost is
    (1 - e^2)/2 * m1 m2/(m1 + m2) * vrel-^2, with the masses changed too."""
    e, m1, m2 = 0.5, 3.0, 5.0
    r = two_mass.run(t_end=20, method="exact", params={"e": e, "m1": m1})
    imp = r.events[r.events["kind"] == "impact"]
    assert len(imp) >= 1
    np.testing.assert_allclose(imp["vrel_after"], -e * imp["vrel_before"], rtol=1e-12)
    mu = m1 * m2 / (m1 + m2)
    np.testing.assert_allclose(imp["energy_lost"],
                               0.5 * (1 - e * e) * mu * imp["vrel_before"] ** 2, rtol=1e-9)
    np.testing.assert_allclose(imp["impulse"], mu * (1 + e) * -imp["vrel_before"], rtol=1e-9)
    # the audit: the losses add up, the balance holds
    assert abs(r.audit["lost"] - imp["energy_lost"].sum()) < 1e-12
    assert r.audit["error_max"] < 1e-9 * r.audit["energy_max"]
    c = r.contacts["C"]
    assert c["impacts"] == len(imp) and c["law"] == "impact"
    assert abs(c["energy_lost"] - r.audit["lost"]) < 1e-12


def test_bouncing_ball_rest_time(ball):
    """The ball comes to rest at t1 (1 + e)/(1 - e), t1 = sqrt(2 h/g)."""
    for e in (0.5, 0.7):
        r = ball.run(t_end=10, method="exact", params={"e": e})
        stick = r.events[r.events["kind"] == "stick"]
        t1 = math.sqrt(2 * 1.0 / 9.81)
        assert abs(stick["t"][0] - t1 * (1 + e) / (1 - e)) < 1e-9
        zeno = r.events[r.events["kind"] == "zeno"]
        assert len(zeno) == 1 and zeno["count"][0] > 1
        assert r.contacts["floor"]["zeno"] == 1


def test_every_and_default_settings(ball):
    """every sets the sampling; defaults come from the model's simulate."""
    r = ball.run(t_end=1, every=0.25)
    np.testing.assert_allclose(r.t, [0, 0.25, 0.5, 0.75, 1.0], atol=1e-12)
    assert r.method == "rk4"
    r = ball.run()
    assert abs(r.t[-1] - 10) < 1e-12 and r.t_reached == 10


def test_unknown_parameter(ball):
    with pytest.raises(nsm.ParameterError, match=r"unknown parameter 'q'; valid parameters: m, g, e"):
        ball.run(params={"q": 1})


def test_rejected_value_carries_runtime_message(ball):
    with pytest.raises(nsm.ParameterError, match=r"invalid value 2 of parameter 'e'"):
        ball.run(params={"e": 2})


def test_size_parameter_is_refused_at_run_time(tmp_path):
    """A parameter that sizes a family is fixed in the compiled simulator:
    another value is refused with the runtime's message, its own value runs."""
    src = tmp_path / "sized.nsm"
    src.write_text("param N = 3\nmass P[1..N] = 1 kg\n"
                   "for i in 1..N-1: spring P[i] -- P[i+1], k = 1 N/m\n"
                   "init P[1].v = 1 m/s\nsimulate t_end = 0.1 s, dt = 1 ms\n")
    model = nsm.compile(str(src))
    with pytest.raises(nsm.ParameterError,
                       match=r"parameter 'N' sizes the model.*fixed at 3.*generate the simulator again"):
        model.run(params={"N": 4})
    r = model.run(params={"N": 3})
    assert r.t[-1] == pytest.approx(0.1)


def test_bad_settings(ball):
    with pytest.raises(ValueError, match="unknown method 'euler'"):
        ball.run(method="euler")
    with pytest.raises(ValueError, match="dt"):
        ball.run(dt=-1)


def test_step_cap_raises_with_time_and_mode(ball):
    """A run that fails: the runtime's message, its status, time and mode,
    and what was computed so far."""
    with pytest.raises(nsm.SimulationError) as ei:
        # adaptive chooses its steps (no bound up front); samples every 1 ms
        ball.run(t_end=10, max_steps=50, every=0.001, dt=0, method="adaptive")
    err = ei.value
    assert err.status == "NSM_ESTEPS"
    assert re.match(r"t = 0\.0[0-9]* s, mode free: step cap of 50 steps", err.message)
    assert 0 < err.t < 0.1 and err.mode == [] and err.contact is None
    assert len(err.result.t) >= 2 and err.result.t[-1] <= err.t
    # rk4 without a dt steps at most 1 ms: a cap of 50 cannot reach 10 s,
    # refused before the run (it spun to the cap, then failed)
    with pytest.raises(nsm.SettingError, match="rk4 without a dt takes steps of at most"):
        ball.run(t_end=10, max_steps=50, every=0.01, dt=0)


def test_event_rate_raises_with_contact(ball):
    with pytest.raises(nsm.SimulationError) as ei:
        ball.run(t_end=30, params={"e": 0.9}, zeno=False, max_event_rate=100)
    err = ei.value
    assert err.status == "NSM_EEVENTS" and err.contact == "floor"
    assert "contact 'floor'" in str(err) and "event rate cap" in str(err)
    assert len(err.result.events) >= 20


def test_compile_error_carries_diagnostics(tmp_path):
    bad = tmp_path / "bad.nsm"
    bad.write_text("model bad\nmass A = 1 kg\ngap C: A.x >= 0, impact(e = 2 m)\n")
    with pytest.raises(nsm.CompileError) as ei:
        nsm.compile(bad)
    assert re.search(r"bad\.nsm:3:[0-9]+: error:", str(ei.value))


def test_cache_reuses_the_shared_object(model_path):
    """A second compile of an unchanged model finds it in the cache."""
    a = nsm.compile(model_path("two_mass_plastic"))
    st = os.stat(a.path)
    b = nsm.compile(model_path("two_mass_plastic"))
    assert a.path == b.path and os.stat(b.path).st_mtime_ns == st.st_mtime_ns
    assert a.path.startswith(os.path.join(os.environ["XDG_CACHE_HOME"], "nsm"))


def test_installed_package(model_path):
    """cmake --install into a temporary prefix: the package under it compiles
    and runs a model with the installed nsmc and libnsmrt."""
    build = os.environ["NSM_BUILD_DIR"]
    with tempfile.TemporaryDirectory(prefix="nsm-pyinstall-") as tmp:
        prefix = os.path.join(tmp, "prefix")
        subprocess.run(["cmake", "--install", build, "--prefix", prefix], check=True,
                       capture_output=True)
        site = os.path.join(prefix, "lib", "python%d.%d" % sys.version_info[:2],
                            "site-packages")
        env = dict(os.environ, PYTHONPATH=site, XDG_CACHE_HOME=os.path.join(tmp, "cache"))
        code = ("import nsm, sys\n"
                "m = nsm.compile(sys.argv[1])\n"
                "r = m.run(method='exact')\n"
                "print(nsm.__file__, nsm._paths.LIBNSMRT)\n"
                "print(' '.join('%s@%.9f' % (k, t) for t, k in zip(r.events['t'], r.events['kind'])))\n")
        p = subprocess.run([sys.executable, "-c", code, model_path("two_mass")], env=env,
                           capture_output=True, text=True, cwd=tmp)
        assert p.returncode == 0, p.stderr
        first, second = p.stdout.splitlines()
        assert first.startswith(site) and os.path.join(prefix, "lib", "libnsmrt.so") in first
        assert second == "stick@0.000000000 separation@3.257839639 impact@11.828417819 " \
                         "impact@17.744776306"


@pytest.mark.parametrize("method", ["exact", "rk4"])
def test_friction_events_match_reference(model_path, src, method):
    """The forced two-mass friction oscillator: stick, slip and reversal
    records named by their friction element, at the mpmath reference's
    times (tests/reference/friction_two_mass.py)."""
    m = nsm.compile(model_path("friction_two_mass"))
    assert m.frictions == ["F1", "F2"] and m.contacts == []
    r = m.run(method=method, every=0.01)
    with open(os.path.join(src, "tests", "reference", "data",
                           "friction_two_mass.events.csv")) as f:
        ref = [(float(x["t"]), x["kind"], x["contact"]) for x in csv.DictReader(f)]
    assert [(k, c) for _, k, c in ref] == list(zip(r.events["kind"], r.events["contact"]))
    tol = 1e-11 if method == "exact" else 1e-8
    np.testing.assert_allclose(r.events["t"], [t for t, _, _ in ref], rtol=0, atol=tol)


def test_nonlinear_model_runs_with_taylor(model_path):
    """A nonlinear model (models/pendulum_wall.nsm) runs from Python with its
    default method, taylor, and lands its first impact at the closed form's
    instant: the time from 1 rad to the wall at -0.3 rad of theta'' =
    -9.81 sin(theta), (K(m) + F(asin(sin(0.15)/k), m))/sqrt(9.81) with
    k = sin(1/2), m = k^2 (mpmath)."""
    from mpmath import mp, mpf
    mp.dps = 30
    k = mp.sin(mpf(1) / 2)
    t1 = (mp.ellipk(k * k) + mp.ellipf(mp.asin(mp.sin(mpf("0.15")) / k), k * k)) / mp.sqrt(mpf("9.81"))
    r = nsm.compile(model_path("pendulum_wall")).run()
    assert r.method == "taylor"
    imp = r.events[r.events["kind"] == "impact"]
    assert len(imp) == 7
    assert abs(imp["t"][0] - float(t1)) < 1e-12
