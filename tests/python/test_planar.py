"""Planar discs against flat walls, compared with the independent closed-form
references of tests/reference (rotating_ball.py, disc_incline.py,
disc_walls.py: mpmath, event-driven, no integration) at full double
precision: the frictionless cases the language expresses today.

- models/rotating_ball.nsm: the seed collection's rotating bouncing ball,
  scenario 1 (dropped at rest: its contact point never slips, so friction
  never acts);
- models/disc_incline.nsm: a disc dropped on a frictionless incline;
- models/disc_walls.nsm: a spinning disc between two frictionless walls;
- models/disc_incline_roll.nsm, disc_incline_slide.nsm: a disc launched
  down an incline with Coulomb friction (a friction element on the slip of
  its contact point, with the slope's constant contact force as its normal
  force): rolling from the reference's instant, or sliding for ever.

Events: every impact of the simulator at the reference's instant, in order,
on the same wall (the simulator jumps a Zeno cascade once it recognises it:
its impacts are the reference's first ones, its zeno and stick events the
reference's accumulation point); the normal velocity after each impact.
Samples every 10 ms (but those at an impact's instant): x, y, phi and
their velocities, relative to the largest magnitude of each column, which checks every post-impact velocity
through the free flight after it.  exact: 1e-12 s and 1e-12; rk4 at its
1 ms step and adaptive at its tolerances: 1e-11 (every motion here is a
polynomial of degree 2, which both integrate to rounding: 5e-14 measured).
"""
import csv
import os

import numpy as np
import pytest

import nsm

COLS = ["D.x", "D.y", "D.phi", "D.vx", "D.vy", "D.omega"]
CASES = [("rotating_ball", "rotating_ball_1", {"floor": (0.0, 1.0)}),
         ("disc_incline", "incline_drop", {"slope": (0.5, 3 ** 0.5 / 2)}),
         ("disc_walls", "walls_frictionless", {"left": (1.0, 0.0), "right": (-1.0, 0.0)})]
TOL = {"exact": (1e-12, 1e-12), "rk4": (1e-11, 1e-11), "adaptive": (1e-11, 1e-11)}


def check_samples(r, samples, ev_ref, x_tol):
    """The run's samples (every 10 ms) against the reference's, each column
    within x_tol of its largest magnitude; samples at an event's instant,
    where a velocity has both its values, are left out."""
    at_event = [float(e["t"]) for e in ev_ref]
    for c in COLS:
        scale = max(abs(row[c]) for row in samples) or 1.0
        for row in samples:
            if min(abs(row["t"] - te) for te in at_event) < 1e-9:
                continue
            i = int(round(row["t"] / 0.01))
            assert abs(r.t[i] - row["t"]) < 1e-12
            assert abs(r[c][i] - row[c]) <= x_tol * scale, (c, row["t"], r[c][i], row[c])


def reference(src, name):
    d = os.path.join(src, "tests", "reference", "data")
    with open(os.path.join(d, name + ".events.csv")) as f:
        events = list(csv.DictReader(f))
    with open(os.path.join(d, name + ".samples.csv")) as f:
        samples = [{k: float(v) for k, v in r.items()} for r in csv.DictReader(f)]
    return events, samples


@pytest.fixture(scope="module")
def models(model_path):
    return {m: nsm.compile(model_path(m)) for m, _, _ in CASES}


@pytest.mark.parametrize("method", ["exact", "rk4", "adaptive"])
@pytest.mark.parametrize("model,ref,normals", CASES)
def test_planar_against_reference(models, src, model, ref, normals, method):
    ev_ref, samples = reference(src, ref)
    t_tol, x_tol = TOL[method]
    r = models[model].run(method=method, every=0.01)
    ev = r.events
    # impacts: the simulator's are the reference's first ones
    imp = ev[ev["kind"] == "impact"]
    rimp = [e for e in ev_ref if e["kind"] == "impact"]
    assert 0 < len(imp) <= len(rimp)
    zeno_ref = [e for e in ev_ref if e["kind"] == "zeno"]
    if not zeno_ref:
        assert len(imp) == len(rimp)
    for k, (s, e) in enumerate(zip(imp, rimp)):
        assert s["contact"] == e["contact"], k
        assert abs(s["t"] - float(e["t"])) <= t_tol * max(1, float(e["t"])), (k, s["t"], e["t"])
        n = normals[e["contact"]]
        vn = n[0] * float(e["D.vx"]) + n[1] * float(e["D.vy"])
        scale = abs(imp["vrel_after"][0])
        assert abs(s["vrel_after"] - vn) <= 10 * x_tol * scale, (k, s["vrel_after"], vn)
    # the accumulation point and the contact held after it
    assert [(e["kind"], e["contact"]) for e in ev_ref if e["kind"] != "impact"] == \
        [(k, c) for k, c in zip(ev["kind"], ev["contact"]) if k != "impact"]
    for s, e in zip(ev[ev["kind"] != "impact"], [e for e in ev_ref if e["kind"] != "impact"]):
        assert abs(s["t"] - float(e["t"])) <= t_tol * max(1, float(e["t"])), (s, e)
    check_samples(r, samples, ev_ref, x_tol)


def test_planar_energy_names_rotation(models):
    """The audit's kinetic energy holds the rotation 1/2 th omega^2: the
    spinning disc between frictionless walls keeps 1/2 th omega0^2 after
    every impact, the translation losing (1 - e^2) of its own."""
    r = models["disc_walls"].run(method="exact", every=0.01)
    th, w0, v0, e = 0.4 * 1 * 0.1 ** 2, 30.0, 2.0, 0.8
    n = len(r.events)
    expected = 0.5 * th * w0 ** 2 + 0.5 * (v0 * e ** n) ** 2
    assert abs(r.audit["kinetic"] - expected) < 1e-12 * expected
    assert r.bodies == ["D.x", "D.y", "D.phi"]


FRICTION_CASES = [("disc_incline_roll", "incline_roll"), ("disc_incline_slide", "incline_slide")]


@pytest.fixture(scope="module")
def friction_models(model_path):
    return {m: nsm.compile(model_path(m)) for m, _ in FRICTION_CASES}


@pytest.mark.parametrize("method", ["exact", "rk4", "adaptive"])
@pytest.mark.parametrize("model,ref", FRICTION_CASES)
def test_planar_friction_against_reference(friction_models, src, model, ref, method):
    """A disc launched down a 30 degree incline at 1 m/s without spin, held on
    it (gap `slope`, its contact from t = 0) with Coulomb friction on the slip
    of its contact point, cos(a) vx - sin(a) vy + R omega, under the constant
    normal force m g cos(a) (which is the contact force of the slope here):
    with mu = 0.2 the slip reaches zero and the friction element sticks (the
    disc rolls) at the reference's instant; with mu = 0.1 it slides for
    ever.  Samples as above."""
    ev_ref, samples = reference(src, ref)
    t_tol, x_tol = TOL[method]
    r = friction_models[model].run(method=method, every=0.01)
    ev = r.events
    assert (ev["kind"][0], ev["contact"][0], ev["t"][0]) == ("stick", "slope", 0.0)
    roll = [e for e in ev_ref if e["kind"] == "roll"]
    assert len(ev_ref) == len(roll) and len(ev) == 1 + len(roll)
    for s, e in zip(ev[1:], roll):
        assert (s["kind"], s["contact"]) == ("stick", "F")
        assert abs(s["t"] - float(e["t"])) <= t_tol * max(1, float(e["t"])), (s["t"], e["t"])
    for c in COLS:
        scale = max(abs(row[c]) for row in samples) or 1.0
        for row in samples:
            i = int(round(row["t"] / 0.01))
            assert abs(r.t[i] - row["t"]) < 1e-12
            assert abs(r[c][i] - row[c]) <= x_tol * scale, (c, row["t"], r[c][i], row[c])


# Frictional impacts: model, reference, wall normals, each wall's friction
# element.  The reference's events: impact, stick and zeno on walls, roll
# when the slip reaches zero in contact; the simulator's: impact, stick and
# zeno on walls, and its friction elements' records (stick or slip with the
# tangential impulse at an impact, stick when the slip reaches zero later).
FRICTIONAL_IMPACT_CASES = [
    ("rotating_ball_2", "rotating_ball_2", {"floor": (0.0, 1.0)}, {"floor": "F"}),
    ("rotating_ball_3", "rotating_ball_3", {"floor": (0.0, 1.0)}, {"floor": "F"}),
    ("rotating_ball_4", "rotating_ball_4", {"floor": (0.0, 1.0)}, {"floor": "F"}),
    ("rotating_ball_5", "rotating_ball_5", {"floor": (0.0, 1.0)}, {"floor": "F"}),
    ("disc_walls_friction", "walls_friction", {"left": (1.0, 0.0), "right": (-1.0, 0.0)},
     {"left": "FL", "right": "FR"}),
    ("disc_corner", "disc_corner", {"floor": (0.0, 1.0), "right": (-1.0, 0.0)},
     {"floor": "FF", "right": "FW"}),
]
R_DISC = 0.1


@pytest.fixture(scope="module")
def fimpact_models(model_path):
    return {m: nsm.compile(model_path(m)) for m, _, _, _ in FRICTIONAL_IMPACT_CASES}


def slip_of(row, n):
    """The slip of the contact point on the wall of normal n, t.v + R omega
    with t = (n_y, -n_x), from a reference row's velocities."""
    return n[1] * float(row["D.vx"]) - n[0] * float(row["D.vy"]) + R_DISC * float(row["D.omega"])


@pytest.mark.parametrize("method", ["exact", "rk4", "adaptive"])
@pytest.mark.parametrize("model,ref,normals,elements", FRICTIONAL_IMPACT_CASES)
def test_frictional_impacts_against_reference(fimpact_models, src, model, ref, normals, elements,
                                              method):
    """The rotating bouncing ball's scenarios 2 (a sliding impact, sliding,
    rolling), 3 (a sticking impact, rolling) and 4 (a sliding impact, a
    sticking one, rolling bounces accumulating at 3 t1: a Zeno jump with a
    stuck friction element), 5 (backspin: sliding impacts accumulating at
    3 t1 while the contact slips, the tail's tangential impulses summed by
    the Zeno jump, then sliding and rolling) and a spinning disc between two walls with
    friction (sliding and sticking impacts on alternate walls), and a disc
    thrown into a corner, floor and wall hit at one instant with friction on
    both (the simultaneous frictional law of two contacts): every
    impact at the reference's instant on its wall with its normal velocity
    after; the slip after each impact (the friction element's record, or
    no record when the slip was zero and stays so) and its kind (stick when
    the reference's slip after is zero); every start of rolling (the
    reference's roll, the element's stick) at its instant; the samples as
    above, which check vx, vy and omega after every impact."""
    ev_ref, samples = reference(src, ref)
    t_tol, x_tol = TOL[method]
    r = fimpact_models[model].run(method=method, every=0.01)
    ev = r.events
    walls = [e for e in ev if e["contact"] in normals]
    fric = [e for e in ev if e["contact"] in elements.values()]
    assert len(walls) + len(fric) == len(ev)
    imp = [e for e in walls if e["kind"] == "impact"]
    rimp = [e for e in ev_ref if e["kind"] == "impact"]
    zeno_ref = [e for e in ev_ref if e["kind"] == "zeno"]
    assert 0 < len(imp) <= len(rimp)
    if not zeno_ref:
        assert len(imp) == len(rimp)
    vscale = max(abs(float(e[c])) for e in ev_ref for c in ("D.vx", "D.vy")) + \
        R_DISC * max(abs(float(e["D.omega"])) for e in ev_ref)
    slip_before = {w: None for w in normals}
    for k, (s, e) in enumerate(zip(imp, rimp)):
        w = e["contact"]
        assert s["contact"] == w, k
        assert abs(s["t"] - float(e["t"])) <= t_tol * max(1, float(e["t"])), (k, s["t"], e["t"])
        n = normals[w]
        vn = n[0] * float(e["D.vx"]) + n[1] * float(e["D.vy"])
        assert abs(s["vrel_after"] - vn) <= 10 * x_tol * abs(imp[0]["vrel_after"] or 1), (k, s, vn)
        g_after = slip_of(e, n)
        rec = [f for f in fric if f["t"] == s["t"] and f["contact"] == elements[w]]
        if rec:
            assert len(rec) == 1
            assert rec[0]["kind"] == ("stick" if abs(g_after) < 1e-15 * vscale else "slip"), (k, rec)
            assert abs(rec[0]["vrel_after"] - g_after) <= 10 * x_tol * vscale, (k, rec, g_after)
        else:
            # an impulse that leaves the element alone: a rolling bounce
            assert abs(g_after) < 1e-15 * vscale, (k, g_after)
    # the walls' other events (stick, zeno) as the reference's
    assert [(e["kind"], e["contact"]) for e in ev_ref if e["kind"] not in ("impact", "roll")] == \
        [(e["kind"], e["contact"]) for e in walls if e["kind"] != "impact"]
    for s, e in zip([e for e in walls if e["kind"] != "impact"],
                    [e for e in ev_ref if e["kind"] not in ("impact", "roll")]):
        assert abs(s["t"] - float(e["t"])) <= t_tol * max(1, float(e["t"])), (s, e)
    # rolling starts: the elements' stick records away from any impact
    imp_t = {e["t"] for e in imp}
    rolls = [e for e in fric if e["kind"] == "stick" and e["t"] not in imp_t]
    rroll = [e for e in ev_ref if e["kind"] == "roll"]
    assert len(rolls) == len(rroll), (rolls, rroll)
    for s, e in zip(rolls, rroll):
        assert s["contact"] == elements[e["contact"]]
        assert abs(s["t"] - float(e["t"])) <= t_tol * max(1, float(e["t"])), (s["t"], e["t"])
    # no record of an element while its wall is open (its slip may change
    # sign in flight, meaning nothing): each is the outcome of an impulse on
    # its own wall, or the start of rolling
    wall_of = {el: w for w, el in elements.items()}
    imp_on = {(e["t"], e["contact"]) for e in imp}
    for f in fric:
        assert (f["t"], wall_of[f["contact"]]) in imp_on or f in rolls, f
    check_samples(r, samples, ev_ref, x_tol)
    # the energy balance closes through the impacts' losses
    assert abs(r.audit["error_max"]) <= 1e-12 * r.audit["energy_max"]


def test_frictional_impact_rolling_speed(fimpact_models):
    """Scenarios 2, 3, 4 and 5 end rolling at vx = -R L / (th + m R^2), L =
    th omega0 - m R vx0 the angular momentum about the contact point, which
    no impact, no sliding phase and no Zeno tail changes: -1/0.7, -2/7,
    -5/7 and -40/7 m/s, to 1e-12 with exact."""
    th = 0.4 * 0.1 ** 2
    for model, w0, vx0 in (("rotating_ball_2", 50, 0), ("rotating_ball_3", 10, 0),
                           ("rotating_ball_4", 50, 1), ("rotating_ball_5", 200, 0)):
        r = fimpact_models[model].run(method="exact", every=0.01)
        speed = -R_DISC * (th * w0 - R_DISC * vx0) / (th + R_DISC ** 2)
        assert abs(r["D.vx"][-1] - speed) <= 1e-12 * abs(speed), (model, r["D.vx"][-1], speed)
        assert abs(r["D.vx"][-1] + R_DISC * r["D.omega"][-1]) <= 1e-12 * abs(speed)


@pytest.mark.parametrize("method", ["exact", "rk4", "adaptive"])
def test_block_dropped_while_sliding(model_path, method):
    """A block (X horizontal, Y vertical, m = 1) dropped from h = 0.2 m on a
    floor with e = 0 while sliding at v0 = 2 m/s, friction mu = 0.3 with the
    floor's contact force, and impulse, as normal (models/block_drop.nsm).
    Closed form: the impact at t1 = sqrt(2 h / g) takes P_N = m sqrt(2 g h)
    and, as m v0 > mu P_N, P_T = -mu P_N: vx+ = v0 - mu sqrt(2 g h); then
    the block slides at -mu g to rest at t1 + vx+/(mu g) and sticks.  The
    impact's loss is m g h + 1/2 m (v0^2 - vx+^2); the balance closes."""
    g, h, v0, mu = 9.81, 0.2, 2.0, 0.3
    t1 = (2 * h / g) ** 0.5
    vn = (2 * g * h) ** 0.5
    vx1 = v0 - mu * vn
    t2 = t1 + vx1 / (mu * g)
    t_tol, x_tol = TOL[method]
    r = nsm.compile(model_path("block_drop")).run(method=method, every=0.01)
    ev = r.events
    got = [(e["kind"], e["contact"]) for e in ev]
    assert got == [("impact", "floor"), ("slip", "F"), ("stick", "floor"), ("stick", "F")], got
    assert abs(ev["t"][0] - t1) <= t_tol and ev["t"][1] == ev["t"][0]
    assert abs(ev["impulse"][0] - vn) <= 10 * x_tol * vn
    assert abs(ev["impulse"][1] + mu * vn) <= 10 * x_tol * vn
    assert abs(ev["vrel_after"][1] - vx1) <= 10 * x_tol * v0
    lost = g * h + 0.5 * (v0 ** 2 - vx1 ** 2)
    assert abs(ev["energy_lost"][0] - lost) <= 10 * x_tol * lost
    assert abs(ev["t"][3] - t2) <= t_tol
    for i, t in enumerate(r.t):
        if min(abs(t - t1), abs(t - t2)) < 1e-9:
            continue
        if t < t1:
            x, vx, y = v0 * t, v0, h - g * t * t / 2
        elif t < t2:
            s = t - t1
            x, vx, y = v0 * t1 + vx1 * s - mu * g * s * s / 2, vx1 - mu * g * s, 0.0
        else:
            x, vx, y = v0 * t1 + vx1 * vx1 / (2 * mu * g), 0.0, 0.0
        assert abs(r["X.x"][i] - x) <= x_tol * 2, (t, r["X.x"][i], x)
        assert abs(r["X.v"][i] - vx) <= x_tol * 2, (t, r["X.v"][i], vx)
        assert abs(r["Y.x"][i] - y) <= x_tol * 2, (t, r["Y.x"][i], y)
    assert abs(r.audit["error_max"]) <= 1e-12 * r.audit["energy_max"]


def test_tangential_restitution(model_path):
    """Scenario 3 with e_T = 1 and 1/2 (`et = eT`): the impact still sticks
    (|P_T| = (1 + e_T) W gamma- <= mu P_N, W = 1/(1/m + R^2/th) = 2/7 kg)
    and ends with the slip at -e_T gamma- = -e_T m/s: vx+ = P_T/m,
    omega+ = omega0 + R P_T/th; then the floor holds the ball (e_N = 0) and
    it slides (friction pushing vx up by mu g) back to rolling at t1 + e_T/(mu g (1 + m R^2/th)), at the
    same -2/7 m/s (the angular momentum about the contact point is kept).
    Closed forms, exact to 1e-12."""
    g, mu, th, w0 = 9.81, 0.2, 0.4 * 0.1 ** 2, 10.0
    t1 = (2 * 0.9 / g) ** 0.5
    W = 1 / (1 + R_DISC ** 2 / th)
    m = nsm.compile(model_path("rotating_ball_3"))
    for et in (1.0, 0.5):
        r = m.run(method="exact", every=0.01, params={"eT": et})
        ev = r.events
        got = [(e["kind"], e["contact"]) for e in ev]
        assert got == [("impact", "floor"), ("stick", "F"), ("stick", "floor"), ("stick", "F")], got
        PT = -(1 + et) * W * (R_DISC * w0)
        assert abs(ev["impulse"][1] - PT) <= 1e-12 * abs(PT)
        assert abs(ev["vrel_after"][1] + et * R_DISC * w0) <= 1e-12
        troll = t1 + et / (mu * g * (1 + R_DISC ** 2 / th))
        assert abs(ev["t"][3] - troll) <= 1e-12, (ev["t"][3], troll)
        i = int(round(t1 / 0.01)) + 1
        assert abs(r["D.vx"][i] - (PT + mu * g * (r.t[i] - t1))) <= 1e-12
        speed = -R_DISC * th * w0 / (th + R_DISC ** 2)
        assert abs(r["D.vx"][-1] - speed) <= 1e-12 * abs(speed)


ECCENTRIC = """model eccentric "A body hitting a floor at a point off its centre, with friction"
param m = 2 kg
param I = 0.5 kg*m^2
param d = 0.3 m
param h = 0.4 m
param mu = 0.5
param e = 0.5
param eT = 0
param v0 = 3 m/s
body P: mass = m, inertia = I
gap floor: P.y - d*P.phi >= 0, impact(e = e)
friction F: slip = P.vx + h*P.omega, mu = mu, et = eT, normal = gap floor
init P.y = 0.5 m, P.vy = -1 m/s, P.vx = v0
simulate t_end = 1 s, dt = 1 ms, method = exact
output every 0.5 s: P.vx, P.vy, P.omega
"""


def coupled_reference(v0, mu, et):
    """The frictional impact of ECCENTRIC in exact rationals, by trying the
    three candidates of the law one by one (stick: both velocities given,
    the 2 x 2 system solved; slide with sign s: P_T = -s mu P_N, Newton's
    law alone) and keeping the one whose conditions hold (P_N >= 0 and
    |P_T| <= mu P_N; or s xi_T > 0): w_n = (0, 1, -d), w_t = (1, 0, h), the
    normal and tangential directions coupled through the rotation
    (G_nt = -d h / I)."""
    from fractions import Fraction as Fr
    m, I, d, h, e = Fr(2), Fr(1, 2), Fr(3, 10), Fr(2, 5), Fr(1, 2)
    mu, et = Fr(mu), Fr(et)
    minv = [1 / m, 1 / m, 1 / I]
    wn, wt = [0, 1, -d], [1, 0, h]
    v = [Fr(v0), Fr(-1), Fr(0)]
    dot = lambda a, b: sum(x * y for x, y in zip(a, b))
    G = lambda a, b: sum(x * mi * y for x, mi, y in zip(a, minv, b))
    Gnn, Gnt, Gtt = G(wn, wn), G(wn, wt), G(wt, wt)
    un, ut = dot(wn, v), dot(wt, v)
    found = []
    det = Gnn * Gtt - Gnt * Gnt
    rn, rt = -(1 + e) * un, -(1 + et) * ut
    PN, PT = (rn * Gtt - Gnt * rt) / det, (Gnn * rt - Gnt * rn) / det
    if PN >= 0 and abs(PT) <= mu * PN:
        found.append((PN, PT, "stick"))
    for s in (1, -1):
        PN = rn / (Gnn - s * mu * Gnt)
        PT = -s * mu * PN
        xi = ut + Gnt * PN + Gtt * PT + et * ut
        if PN >= 0 and s * xi > 0:
            found.append((PN, PT, "slip"))
    assert len(found) == 1, found
    PN, PT, kind = found[0]
    after = [v[i] + minv[i] * (wn[i] * PN + wt[i] * PT) for i in range(3)]
    return float(PN), float(PT), kind, [float(x) for x in after]


@pytest.mark.parametrize("v0,mu,et", [(3, "1/2", 0), ("1/5", "1/2", 0), (-3, "1/2", 0),
                                      ("1/5", "1/2", 1), (1, "1/10", "1/2")])
def test_frictional_impact_coupled(tmp_path, v0, mu, et):
    """A body whose contact point is off its centre (linearised: the gap
    y - d phi, the slip vx + h omega) hits a floor: the normal and
    tangential impulses are coupled through its rotation.  Sliding either
    way, sticking, sticking with e_T = 1, and sliding with e_T = 1/2 against
    the rational reference above, to 1e-12 (exact method, no gravity: the
    velocities after the impact are those at t = 1 s)."""
    from fractions import Fraction as Fr
    PN, PT, kind, after = coupled_reference(Fr(v0), Fr(mu), Fr(et))
    path = tmp_path / "eccentric.nsm"
    path.write_text(ECCENTRIC)
    r = nsm.compile(str(path)).run(method="exact",
                                   params={"v0": float(Fr(v0)), "mu": float(Fr(mu)),
                                           "eT": float(Fr(et))})
    ev = r.events
    assert [(e["kind"], e["contact"]) for e in ev][:2] == [("impact", "floor"), (kind, "F")]
    assert abs(ev["impulse"][0] - PN) <= 1e-12 * abs(PN)
    assert abs(ev["impulse"][1] - PT) <= 1e-12 * max(abs(PT), PN)
    for c, x in zip(["P.vx", "P.vy", "P.omega"], after):
        assert abs(r[c][-1] - x) <= 1e-12 * 3, (c, r[c][-1], x)
    assert r.audit["error_max"] <= 1e-12 * r.audit["energy_max"]


def test_frictional_impact_refusals(tmp_path):
    """What the law does not do stops the run with its reason: mu_s |r| >= 1
    (no unique solution).  An impact reaching a contact held shut whose
    friction element slips (the hammer on a sliding block) takes the
    frictional law of several contacts, against its closed form."""
    path = tmp_path / "eccentric.nsm"
    path.write_text(ECCENTRIC)
    with pytest.raises(nsm.Error, match="no unique solution"):
        nsm.compile(str(path)).run(method="exact", params={"mu": 3.0})
    hammer = tmp_path / "hammer.nsm"
    hammer.write_text("""mass X = 1 kg
mass Y = 1 kg
mass H = 1 kg
force weight: on Y = -9.81 N
gap floor: Y.x >= 0, impact(e = 0)
gap hit: H.x - Y.x >= 0.1 m, impact(e = 0.5)
friction F: X -- ground, mu = 0.3, normal = gap floor
init X.v = 2 m/s, H.x = 0.5 m, H.v = -3 m/s
simulate t_end = 0.5 s, dt = 1 ms, method = exact
""")
    r = nsm.compile(str(hammer)).run(method="exact", every=0.001)
    # closed form: X slides at mu g until the hit at t_h = 0.4/3 s; the
    # hit (e = 0.5) and the floor held under Y push together: Newton on the
    # hit, w.v+ = 1.5 m/s, and the floor shut, Y.v+ = 0, give P_hit = P_floor
    # = 4.5 N s; X's slip needs 1.6076 N s to stop, more than mu P_floor =
    # 1.35, so it slides on: P_T = -1.35, then decelerates at mu g to rest
    g, mu = 9.81, 0.3
    th = 0.4 / 3
    vx = 2 - mu * g * th - mu * 4.5
    ev = r.events
    hit = ev[(ev["kind"] == "impact") & (ev["contact"] == "hit")]
    assert len(hit) == 1 and abs(hit["t"][0] - th) < 1e-12
    assert abs(hit["impulse"][0] - 4.5) < 1e-12 and abs(hit["vrel_after"][0] - 1.5) < 1e-12
    fl = ev[(ev["kind"] == "impact") & (ev["contact"] == "floor")]
    assert len(fl) == 1 and abs(fl["impulse"][0] - 4.5) < 1e-12
    sl = ev[(ev["contact"] == "F") & (ev["t"] == hit["t"][0])]
    assert len(sl) == 1 and sl["kind"][0] == "slip" and abs(sl["impulse"][0] + mu * 4.5) < 1e-12
    assert abs(sl["vrel_after"][0] - vx) < 1e-12
    stop = ev[(ev["contact"] == "F") & (ev["kind"] == "stick")]
    assert abs(stop["t"][-1] - (th + vx / (mu * g))) < 1e-12
    assert abs(r.audit["error_max"]) <= 1e-12 * r.audit["energy_max"]
