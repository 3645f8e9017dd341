#!/usr/bin/env python3
"""The state columns of sections, sweeps and basins are named by the
coordinates' own names and units: an angle is NAME.phi [rad] with its rate
NAME.omega [rad/s], a planar body's coordinates D.x [m], D.y [m], D.phi
[rad] (docs/language.md's table), never BODY.x [m] for an angle.

    labels_test.py --nsmc NSMC --sim SIM_DOUBLE_PENDULUM

1. The simulator of models/double_pendulum.nsm (coordinates a, b: angles)
   writes its section's header t, phase, a.phi [rad], b.phi [rad],
   a.omega [rad/s], b.omega [rad/s].
2. nsmc sweep on models/pendulum_wall.nsm (a planar body P): section.csv's
   header names P's six coordinates with their units, and --plot P.omega
   labels the diagram's axis 'P.omega [rad/s]'.
3. nsmc sweep --basin P.phi=... --basin P.omega=...: basins.csv's and
   basins.gp's axes say [rad] and [rad/s], attractors.csv's state columns
   are section.csv's; P.phi.x and P.phi.v (the names run-time expressions
   and initial values also take) are the same axes; P.theta is refused.
4. nsmc continue on tests/studies/impact_clearance.nsm (param omega in
   rad/s): branch.csv's first column and continuation.gp's x axis are
   'omega [rad/s]', the parameter with the unit it is declared in.
"""
import argparse
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PENDULUM = os.path.join(ROOT, "models", "pendulum_wall.nsm")
CLEARANCE = os.path.join(ROOT, "tests", "studies", "impact_clearance.nsm")
P_COLUMNS = ["P.x [m]", "P.y [m]", "P.phi [rad]", "P.vx [m/s]", "P.vy [m/s]", "P.omega [rad/s]"]


def check(label, ok, detail):
    print("%s %s: %s" % ("ok  " if ok else "FAIL", label, detail))
    return 0 if ok else 1


def first_line(path):
    with open(path) as f:
        return f.readline().strip().split(",")


def labels(path):
    with open(path) as f:
        return [ln.strip() for ln in f if ln.startswith(("set xlabel", "set ylabel"))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nsmc", required=True)
    ap.add_argument("--sim", required=True)
    a = ap.parse_args()
    bad = 0
    with tempfile.TemporaryDirectory(prefix="nsm-labels-") as d:
        out = os.path.join(d, "sec.csv")
        r = subprocess.run([a.sim, "--section", "impact:wall", "--section-out", out, "--t-end", "1"],
                           capture_output=True, text=True)
        want = ["t [s]", "phase", "a.phi [rad]", "b.phi [rad]", "a.omega [rad/s]", "b.omega [rad/s]"]
        got = first_line(out) if r.returncode == 0 else r.stderr
        bad += check("simulator section header (angles)", got == want, got)

        sw = os.path.join(d, "sweep")
        r = subprocess.run([a.nsmc, "sweep", PENDULUM, "--param", "e=0.5:0.8:2", "--section",
                            "impact:wall", "--transient", "0", "--record", "3", "--plot", "P.omega",
                            "--out-dir", sw], capture_output=True, text=True)
        got = first_line(os.path.join(sw, "section.csv")) if r.returncode == 0 else r.stderr
        bad += check("sweep section.csv header (planar body)",
                     got == ["e", "t [s]", "phase"] + P_COLUMNS, got)
        got = labels(os.path.join(sw, "bifurcation.gp")) if r.returncode == 0 else []
        bad += check("bifurcation diagram's axes", got == ["set xlabel 'e'",
                                                           "set ylabel 'P.omega [rad/s]'"], got)

        bs = os.path.join(d, "basins")
        r = subprocess.run([a.nsmc, "sweep", PENDULUM, "--basin", "P.phi=0.5:1:2", "--basin",
                            "P.omega=0:1:2", "--section", "impact:wall", "--section-period", "1",
                            "--transient", "2", "--record", "4", "--out-dir", bs],
                           capture_output=True, text=True)
        ok = r.returncode in (0, 3)
        got = first_line(os.path.join(bs, "basins.csv")) if ok else r.stderr
        bad += check("basins.csv header", got == ["P.phi [rad]", "P.omega [rad/s]", "attractor"], got)
        got = labels(os.path.join(bs, "basins.gp")) if ok else []
        bad += check("basins diagram's axes", got == ["set xlabel 'P.phi [rad]'",
                                                      "set ylabel 'P.omega [rad/s]'"], got)
        got = first_line(os.path.join(bs, "attractors.csv"))[6:] if ok else []
        bad += check("attractors.csv state columns", got == P_COLUMNS, got)

        old = os.path.join(d, "old")
        r = subprocess.run([a.nsmc, "sweep", PENDULUM, "--basin", "P.phi.x=0.5:1:2", "--basin",
                            "P.phi.v=0:1:2", "--section", "impact:wall", "--section-period", "1",
                            "--transient", "2", "--record", "4", "--out-dir", old],
                           capture_output=True, text=True)
        got = first_line(os.path.join(old, "basins.csv")) if r.returncode in (0, 3) else r.stderr
        bad += check("P.phi.x and P.phi.v (as run-time expressions name them) are P.phi's axes",
                     got == ["P.phi [rad]", "P.omega [rad/s]", "attractor"], got)
        r = subprocess.run([a.nsmc, "sweep", PENDULUM, "--basin", "P.theta=0.5:1:2", "--basin",
                            "P.omega=0:1:2", "--section", "impact:wall", "--section-period", "1",
                            "--out-dir", os.path.join(d, "bad")], capture_output=True, text=True)
        bad += check("an unknown coordinate is refused",
                     r.returncode == 1 and "P.theta: not a coordinate" in r.stderr, r.stderr.strip())

        co = os.path.join(d, "continue")
        r = subprocess.run([a.nsmc, "continue", CLEARANCE, "--param", "omega=0.5:0.6", "-q",
                            "--out-dir", co], capture_output=True, text=True)
        got = first_line(os.path.join(co, "branch.csv"))[:1] if r.returncode == 0 else r.stderr
        bad += check("continuation branch.csv's parameter column", got == ["omega [rad/s]"], got)
        got = labels(os.path.join(co, "continuation.gp")) if r.returncode == 0 else []
        bad += check("continuation diagram's axes", got == ["set xlabel 'omega [rad/s]'",
                                                            "set ylabel 'M.x [m]'"], got)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
