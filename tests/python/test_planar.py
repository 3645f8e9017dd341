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
    # positions, angles and velocities at the reference's samples (but the
    # samples at an impact's instant, where a velocity is both its values)
    at_event = [float(e["t"]) for e in ev_ref]
    for c in COLS:
        scale = max(abs(row[c]) for row in samples) or 1.0
        for row in samples:
            if min(abs(row["t"] - te) for te in at_event) < 1e-9:
                continue
            i = int(round(row["t"] / 0.01))
            assert abs(r.t[i] - row["t"]) < 1e-12
            assert abs(r[c][i] - row[c]) <= x_tol * scale, (c, row["t"], r[c][i], row[c])


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
