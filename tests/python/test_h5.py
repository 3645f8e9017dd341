"""--out FILE.h5: the simulator's HDF5 file round-trips through h5py.  The same
run written as CSV is the comparison: every sample (the CSV's 12 digits),
every event (the CSV's 17 digits), the column names and units of the CSV
header, and the model's parameters as models/two_mass.nsm and --set give
them."""
import csv
import os
import subprocess

import h5py
import numpy as np
import pytest


def sim(name):
    return os.path.join(os.environ["NSM_BUILD_DIR"], "sims", "sim_" + name)


def run(*args, cwd=None):
    p = subprocess.run(list(args), capture_output=True, text=True, cwd=cwd)
    return p


def text(b):
    return b.decode() if isinstance(b, bytes) else str(b)


def test_two_mass_round_trip(tmp_path):
    h5, csvf = tmp_path / "run.h5", tmp_path / "run.csv"
    common = [sim("two_mass"), "--method", "exact", "--set", "e=0.5", "--set", "m1=3"]
    p = run(*common, "--out", str(h5))
    assert p.returncode == 0, p.stderr
    p = run(*common, "--out", str(csvf), "--events", str(tmp_path / "ev.csv"))
    assert p.returncode == 0, p.stderr
    with open(csvf) as f:
        rows = list(csv.reader(f))
    header, data = rows[0], np.array(rows[1:], dtype=float)
    with open(tmp_path / "ev.csv") as f:
        evs = list(csv.DictReader(f))
    with h5py.File(h5, "r") as f:
        traj = f["trajectory"][:]
        cols = [text(c) for c in f["trajectory"].attrs["columns"]]
        units = [text(u) for u in f["trajectory"].attrs["units"]]
        assert ["%s [%s]" % (c, u) if u else c for c, u in zip(cols, units)] == header
        assert traj.shape == data.shape == (2001, 6)
        np.testing.assert_allclose(traj, data, rtol=1e-11, atol=1e-300)
        ev = f["events"][:]
        assert len(ev) == len(evs) == 4
        for e, c in zip(ev, evs):
            assert e["t"] == float(c["t"])
            assert text(e["kind"]) == c["kind"] and text(e["contact"]) == c["contact"]
            for k in ("vrel_before", "vrel_after", "impulse", "energy_lost"):
                assert abs(e[k] - float(c[k])) <= 1e-11 * max(1, abs(e[k]))
            assert e["count"] == int(c["count"])
        # the model's description and the values this run used
        m = f["model"]
        assert text(m.attrs["name"]) == "two_mass" and m.attrs["abi"] == 7
        assert [text(b) for b in m["bodies"][:]] == ["M1", "M2"]
        assert [text(c) for c in m["contacts"][:]] == ["C"]
        assert [text(c) for c in m["laws"][:]] == ["impact"]
        par = {text(r["name"]): (text(r["unit"]), r["default"], r["value"])
               for r in m["parameters"][:]}
        assert par["e"] == ("", 0.9, 0.5) and par["m1"] == ("kg", 5.0, 3.0)
        assert par["k1"] == ("N/m", 2.0, 2.0)
        r = f["run"]
        assert r.attrs["status"] == 0 and text(r.attrs["message"]) == ""
        assert text(r.attrs["method"]) == "exact" and r.attrs["t_reached"] == 20
        assert r.attrs["events"] == 4
        # the balance error is kept at every step, audit or not
        assert abs(r["audit"].attrs["error_max"]) < 1e-12 * r["audit"].attrs["energy_max"]
        st = r["contacts"][:]
        assert text(st[0]["contact"]) == "C" and st[0]["impacts"] == 2


def test_failed_run_keeps_what_was_computed(tmp_path):
    """A run stopped by a guard: exit 3, the file complete up to the failure,
    with the runtime's message and status."""
    h5 = tmp_path / "cap.h5"
    p = run(sim("bouncing_ball"), "--max-steps", "300", "--dt", "0.04", "--every", "0.01",
            "--out", str(h5))
    assert p.returncode == 3, p.stderr
    with h5py.File(h5, "r") as f:
        assert f["run"].attrs["status"] == 4    # NSM_ESTEPS
        assert "step cap of 300 steps" in text(f["run"].attrs["message"])
        t = f["trajectory"][:, 0]
        assert len(t) >= 2 and t[-1] <= f["run"].attrs["t_reached"]


def test_unwritable_file_is_an_error(tmp_path):
    p = run(sim("two_mass"), "--out", str(tmp_path / "no" / "such" / "run.h5"))
    assert p.returncode == 1
    assert "cannot write" in p.stderr and "run.h5" in p.stderr


def test_plot_with_h5(tmp_path):
    """--plot with --out FILE.h5: the HDF5 file, and the plot's CSV in DIR."""
    h5, d = tmp_path / "run.h5", tmp_path / "plots"
    p = run(sim("two_mass"), "--t-end", "13", "--out", str(h5), "--plot", str(d))
    assert p.returncode == 0, p.stderr
    with h5py.File(h5, "r") as f:
        n = len(f["trajectory"])
    with open(d / "trajectory.csv") as f:
        assert sum(1 for _ in f) == n + 1
    with open(d / "plot.png", "rb") as f:
        assert f.read(4) == b"\x89PNG"
