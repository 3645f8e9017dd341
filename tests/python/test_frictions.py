"""Per-element friction statistics from Python (Result.frictions,
Result.space_frictions) and in the simulator's HDF5 file (/run/frictions,
/run/space_frictions), against closed forms:

- a block of m = 2 kg pushed at v0 = 3 m/s on the ground (mu = 0.25, a
  constant normal N = 10 N) decelerates at mu N / m = 1.25 m/s^2, sticks at
  t = 2.4 s and stays: it dissipates m v0^2 / 2 = 9 J, one stick, no slip;
- tests/rigid/rolling_sphere.nsm: a solid sphere (k = 2/5) sliding with the
  slip |gamma0| = 5/2 m/s rolls once its friction has taken
  k/(1 + k) m |gamma0|^2 / 2 = 25/28 J (tests/rigid/test_space_friction.c
  derives it);
- models/tippe_top.nsm: nothing but its two friction elements dissipates,
  so their shares add up to the audit's dissipation.
"""
import os
import re
import subprocess

import h5py
import numpy as np
import pytest

import nsm

SLIDE = """model slide_stop "A block pushed on the ground slides to rest"
mass M = 2 kg
friction F: M -- ground, mu = 0.25, normal = 10 N
init M.v = 3 m/s
simulate t_end = 3 s, method = exact
output every 0.1 s: M.x, M.v
"""


def sim(name):
    return os.path.join(os.environ["NSM_BUILD_DIR"], "sims", "sim_" + name)


@pytest.fixture(scope="module")
def tippe(model_path):
    return nsm.compile(model_path("tippe_top"))


def test_planar_element_slides_to_rest():
    r = nsm.compile_source(SLIDE).run()
    st = r.frictions["F"]
    assert set(st) == {"dissipated", "surface_work", "stick_time", "sticks", "slips",
                       "reversals", "state"}
    assert abs(st["dissipated"] - 9.0) <= 1e-12 * 9
    assert abs(st["stick_time"] - 0.6) <= 1e-12
    assert (st["sticks"], st["slips"], st["reversals"], st["state"]) == (1, 0, 0, 0)
    assert st["surface_work"] == 0
    assert r.space_frictions == {}
    # the events say the same
    assert sum(1 for e in r.events if e["kind"] == "stick" and e["contact"] == "F") == 1
    assert abs(r.audit["dissipated"] - st["dissipated"]) <= 1e-12 * 9


def test_space_element_closed_form(src):
    m = nsm.compile(os.path.join(src, "tests", "rigid", "rolling_sphere.nsm"))
    assert m.space_frictions == ["grip"] and m.frictions == []
    ref = 25.0 / 28.0
    for method in ("taylor", "adaptive"):
        tols = dict(rtol=1e-13, atol=1e-15) if method == "adaptive" else {}
        r = m.run(method=method, **tols)
        e = r.space_frictions["grip"]["dissipated"]
        assert abs(e - ref) <= 1e-12 * ref, (method, e, ref)
        assert abs(r.audit["dissipated"] - e) <= 1e-13 * ref
        assert r.frictions == {}


def test_space_elements_add_up_to_the_audit(tippe):
    assert tippe.space_frictions == ["ball_friction", "stem_friction"]
    r = tippe.run(method="taylor", t_end=2.0)
    ball = r.space_frictions["ball_friction"]["dissipated"]
    stem = r.space_frictions["stem_friction"]["dissipated"]
    assert ball > 0 and stem > 0
    assert abs(ball + stem - r.audit["dissipated"]) <= 1e-13 * r.audit["dissipated"]
    assert abs(r.audit["dissipated_other"]) <= 1e-13 * r.audit["dissipated"]


def summary_frictions(text):
    """The summary's 'friction NAME  VALUE J' lines."""
    return {m.group(1): float(m.group(2))
            for m in re.finditer(r"^\s*friction\s+(\S+)\s+(\S+)\s+J\s*$", text, re.M)}


def test_h5_space_frictions(tmp_path):
    h5 = tmp_path / "top.h5"
    p = subprocess.run([sim("tippe_top"), "--method", "taylor", "--t-end", "2", "--summary",
                        "--out", str(h5)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    lines = summary_frictions(p.stdout + p.stderr)
    assert set(lines) == {"ball_friction", "stem_friction"}
    with h5py.File(h5, "r") as f:
        run = f["run"]
        sf = run["space_frictions"][:]
        names = [n.decode() if isinstance(n, bytes) else n for n in sf["friction"]]
        assert names == ["ball_friction", "stem_friction"]
        for n, e in zip(names, sf["dissipated"]):
            assert abs(e - lines[n]) <= 1e-7 * abs(lines[n])   # the summary's 8 digits
        total = run["audit"].attrs["dissipated"]
        assert total > 0 and abs(sf["dissipated"].sum() - total) <= 1e-13 * total
        assert len(run["frictions"][:]) == 0


def test_h5_without_audit_reads_nan(tmp_path):
    """Without --summary the simulator keeps no step-by-step audit: the
    shares are unknown, and the file says NaN rather than a sum missing
    steps."""
    h5 = tmp_path / "top.h5"
    p = subprocess.run([sim("tippe_top"), "--method", "taylor", "--t-end", "0.5",
                        "--out", str(h5)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    with h5py.File(h5, "r") as f:
        assert np.all(np.isnan(f["run"]["space_frictions"][:]["dissipated"]))


def test_h5_planar_frictions(tmp_path):
    h5 = tmp_path / "block.h5"
    p = subprocess.run([sim("sliding_block"), "--summary", "--out", str(h5)],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    out = p.stdout + p.stderr
    row = re.search(r"^F\s+(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s*$", out, re.M)
    assert row, out
    with h5py.File(h5, "r") as f:
        fr = f["run"]["frictions"][:]
        assert len(fr) == 1 and (fr[0]["friction"].decode() if isinstance(
            fr[0]["friction"], bytes) else fr[0]["friction"]) == "F"
        assert (fr[0]["sticks"], fr[0]["slips"], fr[0]["reversals"]) == tuple(
            int(row.group(i)) for i in (1, 2, 3))
        assert fr[0]["sticks"] > 0 and fr[0]["slips"] > 0
        for i, k in ((4, "stick_time"), (5, "dissipated"), (6, "surface_work")):
            ref = float(row.group(i))
            assert abs(fr[0][k] - ref) <= 1e-7 * max(abs(ref), 1e-300)
        assert fr[0]["state"] == {"stuck": 0, "slip+": 1, "slip-": -1}[row.group(7)]
        total = f["run"]["audit"].attrs["dissipated"]
        assert abs(fr[0]["dissipated"] - total) <= 1e-12 * total
        assert len(f["run"]["space_frictions"][:]) == 0
