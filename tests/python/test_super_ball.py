"""The super ball (models/super_ball.nsm) against its closed form
(tests/reference/super_ball.py: Garwin's ball seen in the plane of the
throw, Glocker's impact law with tangential restitution, every impact in
exact rationals or mpmath at 50 digits, every flight a parabola whose
impact times are roots of quadratics; nothing there runs the simulator).

Three scenarios, the reference's own, by the parameters of one model:

- garwin: no gravity, no spin, e_N = e_T = 1, mu = 100: floor, table,
  floor, every impact sticking, and (vx, r omega) = (v, 0) comes back as
  (-333/343 v, 130/343 v) exactly;
- backspin: gravity, 40 rad/s of backspin, e_N = e_T = 1: the same
  sequence at the roots of quadratics, and the ball comes back;
- lossy: e_N = 0.8, e_T = 1/2, mu = 0.3: a sliding impact under the
  table, then twelve sticking bounces on the floor going onwards.

Every impact: its instant to 1e-12 relative, on the reference's wall, the
normal velocity before and after, the normal impulse, the friction
element's record (stick or slip, the slip before and after, the tangential
impulse) and the energy the impact took (none when e_N = e_T = 1 and it
sticks), each to 1e-12 of the scenario's scale; between impacts, the
samples of x, y, phi and their velocities against the flights' closed form
(every post-impact velocity, and phi, which the reference does not carry:
phi advances by omega+ times each flight).  exact, rk4 (at the model's
1 ms) and adaptive; taylor refuses the model, which is linear (exact is
its closed-form counterpart).
"""
import importlib.util
import os
from fractions import Fraction as Q

import pytest

import nsm

SRC = os.environ.get("NSM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
TOL = 1e-12
COLS = ["D.x", "D.y", "D.phi", "D.vx", "D.vy", "D.omega"]


def load_reference():
    """tests/reference/super_ball.py as a module."""
    path = os.path.join(SRC, "tests", "reference", "super_ball.py")
    spec = importlib.util.spec_from_file_location("super_ball_reference", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


REF = load_reference()

# scenario: the model's parameters that make it the reference's, its end time
SCENARIOS = {
    "garwin": ({"g": 0.0, "y0": 0.25, "w0": 0.0}, 0.5),
    "backspin": ({}, 0.5),
    "lossy": ({"eN": 0.8, "eT": 0.5, "mu": 0.3}, 2.75),
}


@pytest.fixture(scope="module")
def model():
    return nsm.compile(os.path.join(SRC, "models", "super_ball.nsm"))


def f(x):
    """A Fraction or an mpf as a float."""
    return float(x)


def reference(name, t_end):
    """The reference's impacts before t_end, as floats: (t, where, q+, u-, u+,
    P_N, P_T, stuck), q+ = (x, y, phi) at the impact (phi summed over the
    flights), and the ball's parameters."""
    b, q0, u0 = REF.SCENARIOS[name]
    n_max = 40
    imps, _ = REF.run(b, q0, u0, n_max=n_max)
    # every impact before t_end: the reference went past it, or the ball left
    assert imps[-1][0] >= t_end or len(imps) < n_max
    out, t_prev, phi = [], 0, 0
    w = u0[2]
    for (t, where, x, ub, ua, pn, pt, stuck) in imps:
        if t >= t_end:
            break
        phi += w * (t - t_prev)
        y = b.r if where == 1 else b.H - b.r
        out.append((f(t), where, (f(x), f(y), f(phi)), tuple(map(f, ub)), tuple(map(f, ua)),
                    f(pn), f(pt), stuck))
        t_prev, w = t, ua[2]
    return b, out


def flight(b, q0, u0, t0, imps, s):
    """The closed-form state at time s: the parabola from the last impact
    before s (or from the start)."""
    t, q, u = t0, q0, u0
    for (ti, _, qa, _, ua, _, _, _) in imps:
        if ti < s:
            t, q, u = ti, qa, ua
    g, d = f(b.g), s - t
    return (q[0] + u[0] * d, q[1] + u[1] * d - g * d * d / 2, q[2] + u[2] * d,
            u[0], u[1] - g * d, u[2])


def test_model_is_the_reference(model):
    """The model's parameters, with each scenario's overrides, are the
    reference's values of that scenario (so both describe one ball)."""
    defaults = {k: v.value for k, v in model.params.items()}
    for name, (over, _) in SCENARIOS.items():
        b, q0, u0 = REF.SCENARIOS[name]
        ref = {"m": b.m, "r": b.r, "H": b.H, "g": b.g, "eN": b.e_n, "eT": b.e_t, "mu": b.mu,
               "x0": q0[0], "y0": q0[1], "vx0": u0[0], "vy0": u0[1], "w0": u0[2]}
        got = dict(defaults, **over)
        assert sorted(got) == sorted(ref)
        for k in ref:
            assert got[k] == f(ref[k]), (name, k, got[k], ref[k])


@pytest.mark.parametrize("method", ["exact", "rk4", "adaptive"])
@pytest.mark.parametrize("name", list(SCENARIOS))
def test_super_ball_against_closed_form(model, name, method):
    over, t_end = SCENARIOS[name]
    b, imps = reference(name, t_end)
    _, q0, u0 = REF.SCENARIOS[name]
    r = model.run(method=method, params=over, t_end=t_end, every=0.01)
    ev = r.events
    assert len(ev) == 2 * len(imps), [(e["t"], e["kind"], e["contact"]) for e in ev]
    rr = f(b.r)
    vscale = max(max(abs(u[0]), abs(u[1]), rr * abs(u[2])) for i in imps for u in (i[3], i[4]))
    pscale = f(b.m) * vscale
    escale = f(b.m) * vscale ** 2
    for k, (t, where, qa, ub, ua, pn, pt, stuck) in enumerate(imps):
        wall, fric = ev[2 * k], ev[2 * k + 1]
        assert (wall["kind"], wall["contact"]) == ("impact", "floor" if where == 1 else "table"), k
        assert abs(wall["t"] - t) <= TOL * t, (k, wall["t"], t)
        # the wall's normal n = (0, where): the normal velocity where*vy
        assert abs(wall["vrel_before"] - where * ub[1]) <= TOL * vscale, (k, wall)
        assert abs(wall["vrel_after"] - where * ua[1]) <= TOL * vscale, (k, wall)
        assert abs(wall["impulse"] - pn) <= TOL * pscale, (k, wall["impulse"], pn)
        lost = f(b.m) * (sum(x * x for x in ub[:2]) - sum(x * x for x in ua[:2])) / 2 + \
            f(b.th) * (ub[2] ** 2 - ua[2] ** 2) / 2
        assert abs(wall["energy_lost"] - lost) <= TOL * escale, (k, wall["energy_lost"], lost)
        if b.e_n == 1 and b.e_t == 1 and stuck:
            assert abs(wall["energy_lost"]) <= TOL * escale, (k, wall["energy_lost"])
        # the element's slip is where*(vx + where r omega): its direction
        # (where, 0, r) is `where` times the reference's W_T = (1, 0, where r)
        el = "FF" if where == 1 else "FT"
        assert (fric["kind"], fric["contact"], fric["t"]) == \
            ("stick" if stuck else "slip", el, wall["t"]), (k, fric)
        slip = lambda u: where * u[0] + rr * u[2]
        assert abs(fric["vrel_before"] - slip(ub)) <= TOL * vscale, (k, fric, slip(ub))
        assert abs(fric["vrel_after"] - slip(ua)) <= TOL * vscale, (k, fric, slip(ua))
        assert abs(fric["impulse"] - where * pt) <= TOL * pscale, (k, fric["impulse"], pt)
    # the flights: every sample away from an impact, each column to 1e-12 of
    # its largest magnitude
    q0f = (f(q0[0]), f(q0[1]), 0.0)
    u0f = tuple(map(f, u0))
    want = [flight(b, q0f, u0f, 0.0, imps, s) for s in r.t]
    for j, c in enumerate(COLS):
        scale = max(abs(w[j]) for w in want)
        for i, s in enumerate(r.t):
            if min(abs(s - im[0]) for im in imps) < 1e-9:
                continue
            assert abs(r[c][i] - want[i][j]) <= TOL * scale, (c, s, r[c][i], want[i][j])
    # the energy balance closes; with e_N = e_T = 1 nothing is lost
    a = r.audit
    assert abs(a["error_max"]) <= TOL * a["energy_max"]
    if b.e_n == 1 and b.e_t == 1:
        assert abs(a["lost"]) <= TOL * a["energy_max"], a["lost"]
        assert abs(a["kinetic"] + a["potential"] - a["e0"]) <= TOL * a["energy_max"]


def test_garwin_exact_ratios(model):
    """Garwin's floor-table-floor sequence without gravity sends
    (vx, r omega) = (v, 0) to (-333/343 v, 130/343 v): by hand, each
    sticking impact with e_T = 1 reverses the contact point's slip with the
    reduced mass 2/7 m, which no reference code is needed for; the rest of
    the run flies on at these velocities.  Every method, to 1e-12."""
    v, r_ball = 2.0, 0.025
    for method in ("exact", "rk4", "adaptive"):
        r = model.run(method=method, params=SCENARIOS["garwin"][0], every=0.01)
        assert [e["contact"] for e in r.events] == ["floor", "FF", "table", "FT", "floor", "FF"]
        assert abs(r["D.vx"][-1] - float(Q(-333, 343)) * v) <= TOL * v
        assert abs(r_ball * r["D.omega"][-1] - float(Q(130, 343)) * v) <= TOL * v
        assert r["D.vy"][-1] == pytest.approx(3.0, abs=TOL * v)


def test_super_ball_taylor_refused(model):
    """The model is linear: method taylor refuses it and names exact."""
    with pytest.raises(nsm.SettingError, match="exact"):
        model.run(method="taylor")
