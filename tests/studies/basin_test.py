#!/usr/bin/env python3
"""nsmc sweep --basin: a bistable impact oscillator's basins against an
independent simulation, their shares under grid refinement, identical files
for any number of jobs and MPI ranks, refused arguments.

    basin_test.py --nsmc NSMC [--mpirun MPIRUN | --no-mpi]

The forced impact oscillator (models/forced_impact_oscillator.nsm) at
omega = 0.7 has two coexisting period-1 orbits, one with two impacts per
forcing period, one with three (found with nsmc sweep --continue both: the
up and down branches differ there).

1. The grid x0 in [-3, -0.01] m, v0 in [-3, 3] m/s, 24 x 24: two attractors,
   both period 1, with 2 and 3 records per orbit.  Points inside a basin
   (their 8 neighbours classified alike; up to 8 of each) are simulated here
   independently: the closed-form flight of x'' + 0.1 x' + x = cos(0.7 t),
   each next impact the first sign change of x on a 5 ms grid refined by
   brentq, Newton's law v+ = -0.8 v-, for 80 forcing periods; the number of
   impacts in the last period must be the attractor's records per orbit,
   and the attractor's section point's speed one of the period's impact
   speeds to 1e-5 (a basin run ends as soon as its records repeat to 1e-6
   of their scale, so its section point is the orbit's only to about that).
2. The same box on a 48 x 48 grid: each attractor's share within 0.03 of the
   coarse grid's (the basin boundaries here are smooth curves, so the shares
   converge as the cells shrink).
3. --jobs 1, --jobs 2 and (when --mpirun is given) mpirun -np 2 write the
   same basins.csv, attractors.csv and summary.csv, byte for byte; the
   figure basins.png is drawn.
4. Reference orbits (--basin-pilot): on 32 x 32, most runs end on a
   reference orbit (the stderr line's count) and basins.csv and
   attractors.csv are byte for byte those of --basin-pilot 0, which runs
   every point until its own records repeat (the rule before the
   references); summary.csv differs only where a run's own records repeated
   at a multiple of its attractor's period (a slow approach, which the
   classification already reduced to the attractor's period): there the
   row now gives the attractor's period, records and impacts.
5. --basin with --param, a single --basin, a name that is not a coordinate,
   --basin-tol 0, --basin with --continue, a bad --basin-pilot and
   --basin-pilot without --basin are refused with status 1.
"""
import argparse
import csv
import io
import math
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
from scipy.optimize import brentq

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MODEL = os.path.join(ROOT, "models", "forced_impact_oscillator.nsm")
ZETA, E, W = 0.05, 0.8, 0.7
fails = 0


def check(label, ok, detail=""):
    """Print one check; count the failures."""
    global fails
    print("%s %s%s" % ("ok  " if ok else "FAIL", label, "" if ok else ": " + detail))
    fails += not ok


def basin(nsmc, out, n, extra=(), prefix=(), env=None):
    """Run the basin study on an n x n grid into out."""
    cmd = list(prefix) + [nsmc, "sweep", MODEL, "--set", "omega=0.7",
                          "--basin", "M.x=-3:-0.01:%d" % n, "--basin", "M.v=-3:3:%d" % n,
                          "--section", "impact:stop", "--section-period", "2*pi/omega",
                          "--transient", "300", "--record", "12", "--out-dir", out] + list(extra)
    return subprocess.run(cmd, capture_output=True, text=True, env=env)


def flight(t0, x0, v0):
    """Vectorised x(t), and v(t), of the free flight from (x0, v0) at t0."""
    D = (1 - W ** 2) ** 2 + (2 * ZETA * W) ** 2
    A, B = (1 - W ** 2) / D, 2 * ZETA * W / D
    wd = math.sqrt(1 - ZETA ** 2)
    C1 = x0 - (A * math.cos(W * t0) + B * math.sin(W * t0))
    C2 = (v0 - (-A * W * math.sin(W * t0) + B * W * math.cos(W * t0)) + ZETA * C1) / wd

    def x(t):
        s = t - t0
        return (np.exp(-ZETA * s) * (C1 * np.cos(wd * s) + C2 * np.sin(wd * s))
                + A * np.cos(W * t) + B * np.sin(W * t))

    def v(t):
        s = t - t0
        return (np.exp(-ZETA * s) * ((C2 * wd - ZETA * C1) * np.cos(wd * s)
                                     - (C1 * wd + ZETA * C2) * np.sin(wd * s))
                - A * W * np.sin(W * t) + B * W * np.cos(W * t))
    return x, v


def simulate(x0, v0, periods):
    """Impacts (t, speed before) of the motion from (x0, v0) at t = 0.  A
    chatter (impacts slower than 1e-5 m/s, a Zeno cascade) ends with the
    mass at rest on the stop, pressed by the forcing until cos(omega t)
    turns negative: it leaves then from x = 0, v = 0, whatever the cascade's
    exact end (only the release time matters to the motion after)."""
    T = 2 * math.pi / W
    t, x, v, h, out = 0.0, x0, v0, 0.005, []
    while t < periods * T:
        fx, fv = flight(t, x, v)
        grid = t + h * np.arange(1, int(3 * T / h) + 2)
        xs = fx(grid)
        hit = np.nonzero(xs >= 0)[0]
        if len(hit) == 0:           # no impact within 3 periods: it does not happen here
            t, x, v = grid[-1], float(xs[-1]), float(fv(grid[-1]))
            continue
        k = hit[0]
        if x == 0 and (k == 0 or 0 < -v < 1e-5):
            # back on the stop within 5 ms of leaving it slowly: a chatter;
            # at rest until the forcing pulls away (omega t = pi/2 mod 2 pi)
            t = (math.floor((W * t - math.pi / 2) / (2 * math.pi)) + 1) * 2 * math.pi / W \
                + math.pi / 2 / W
            x, v = 0.0, 0.0
            continue
        ti = brentq(fx, grid[k - 1] if k else t, grid[k], xtol=1e-14)
        u = float(fv(ti))
        out.append((ti, u))
        t, x, v = ti, 0.0, -E * u
    return out


def coarse_test(nsmc, d):
    """Two period-1 attractors; interior points against the independent simulation."""
    out = os.path.join(d, "b24")
    r = basin(nsmc, out, 24, ["--jobs", "2"])
    if r.returncode != 0:
        check("basin 24 x 24", False, r.stderr)
        return None
    with open(os.path.join(out, "attractors.csv")) as f:
        at = [row for row in csv.DictReader(f) if int(row["attractor"]) > 0]
    recs = sorted(int(a["records"]) for a in at)
    check("two attractors, period 1, with 2 and 3 records per orbit: %s"
          % [(a["period"], a["records"], a["points"]) for a in at],
          len(at) == 2 and all(a["period"] == "1" for a in at) and recs == [2, 3])
    with open(os.path.join(out, "basins.csv")) as f:
        rows = list(csv.reader(f))[1:]
    n = 24
    lab = np.array([int(r[2]) for r in rows]).reshape(n, n)     # [v index][x index]
    xs = np.array([float(r[0]) for r in rows]).reshape(n, n)
    vs = np.array([float(r[1]) for r in rows]).reshape(n, n)
    byid = {int(a["attractor"]): a for a in at}
    picked = {1: [], 2: []}
    for j in range(1, n - 1, 2):
        for i in range(1, n - 1, 2):
            a = lab[j, i]
            if a in picked and len(picked[a]) < 8 and (lab[j - 1:j + 2, i - 1:i + 2] == a).all():
                picked[a].append((xs[j, i], vs[j, i]))
    T = 2 * math.pi / W
    for a, pts in picked.items():
        check("attractor %d: %d interior points to simulate" % (a, len(pts)), len(pts) >= 4)
        want_n, want_v = int(byid[a]["records"]), float(byid[a]["M.v [m/s]"])
        for x0, v0 in pts:
            imp = simulate(x0, v0, 80)
            last = [u for t, u in imp if t > imp[-1][0] - T + 1e-9]
            near = min(abs(u - want_v) for u in last)
            check("(%.4f, %.4f) -> attractor %d: %d impacts per period, speed within %.1e"
                  % (x0, v0, a, len(last), near), len(last) == want_n and near <= 1e-5,
                  "independent simulation: %d impacts, speeds %s" % (len(last), last))
    return {int(a["attractor"]): int(a["points"]) / n ** 2 for a in at}


def refine_test(nsmc, d, coarse):
    """The shares on a grid twice as fine."""
    out = os.path.join(d, "b48")
    r = basin(nsmc, out, 48, ["--jobs", "2"])
    if r.returncode != 0 or coarse is None:
        check("basin 48 x 48", False, r.stderr)
        return
    with open(os.path.join(out, "attractors.csv")) as f:
        fine = {int(a["attractor"]): int(a["points"]) / 48 ** 2 for a in csv.DictReader(f)
                if int(a["attractor"]) > 0}
    ok = set(fine) == set(coarse) and all(abs(fine[k] - coarse[k]) <= 0.03 for k in fine)
    check("shares under refinement: 24 x 24 %s, 48 x 48 %s" % (coarse, fine), ok)


def identity_test(nsmc, d, mpirun):
    """The same files for any number of jobs and ranks."""
    runs = [("--jobs 1", [], ["--jobs", "1"], None), ("--jobs 2", [], ["--jobs", "2"], None)]
    if mpirun:
        env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                   OMPI_MCA_rmaps_base_oversubscribe="1")
        env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":detect_leaks=0"
        runs.append(("mpirun -np 2", [mpirun, "--oversubscribe", "-np", "2"], ["--jobs", "1"], env))
    first = None
    for label, prefix, extra, env in runs:
        out = os.path.join(d, "id%d" % len(label) + label[-1])
        r = basin(nsmc, out, 12, extra, prefix, env)
        if r.returncode != 0:
            check(label, False, "exit %d: %s" % (r.returncode, r.stderr.strip()[-800:]))
            continue
        files = {}
        for name in ("basins.csv", "attractors.csv", "summary.csv"):
            with open(os.path.join(out, name), "rb") as f:
                files[name] = f.read()
        drawn = os.path.getsize(os.path.join(out, "basins.png")) > 1000
        if first is None:
            first = files
            check(label + ": files written, basins.png drawn", drawn)
        else:
            check(label + ": the same basins.csv, attractors.csv, summary.csv as --jobs 1",
                  files == first and drawn)


def reference_test(nsmc, d):
    """Runs ending on reference orbits classify as runs to their own repeat."""
    n, runs = 32, {}
    for label, extra in (("references", []), ("no references", ["--basin-pilot", "0"])):
        out = os.path.join(d, "ref%d" % len(runs))
        r = basin(nsmc, out, n, ["--jobs", "2"] + extra)
        m = re.search(r"(\d+) ended on a reference orbit", r.stderr)
        if r.returncode != 0 or not m:
            check("basin %d x %d, %s" % (n, n, label), False, r.stderr)
            return
        files = {}
        for name in ("basins.csv", "attractors.csv", "summary.csv"):
            with open(os.path.join(out, name), "rb") as f:
                files[name] = f.read()
        runs[label] = (int(m.group(1)), files)
    on, ref = runs["references"]
    off, full = runs["no references"]
    check("%d of %d runs ended on a reference orbit (at least 80 %%), none with --basin-pilot 0"
          % (on, n * n), on >= 0.8 * n * n and off == 0)
    for name in ("basins.csv", "attractors.csv"):
        check("%s byte for byte that of --basin-pilot 0" % name, ref[name] == full[name])
    at = {row["attractor"]: row for row in csv.DictReader(io.StringIO(ref["attractors.csv"].decode()))}
    lab = [row[2] for row in csv.reader(io.StringIO(ref["basins.csv"].decode()))][1:]
    rows = [list(csv.reader(io.StringIO(t.decode())))[1:] for t in (ref["summary.csv"], full["summary.csv"])]
    changed = bad = 0
    for k, (a, b) in enumerate(zip(*rows)):
        if a == b:
            continue
        changed += 1
        want = at.get(lab[k])
        # status, records as before; period and records per orbit the attractor's,
        # the old ones a multiple of them (the same orbit seen over several periods)
        ok = (want is not None and a[2:4] == b[2:4] and a[4] == want["period"] and
              a[5] == want["records"] and int(b[4]) % int(a[4]) == 0 and
              int(b[5]) % int(a[5]) == 0 and int(b[5]) // int(a[5]) == int(b[4]) // int(a[4]))
        bad += not ok
    check("summary.csv: %d rows changed, each to its attractor's period and records (a "
          "multiple before)" % changed, bad == 0 and len(rows[0]) == len(rows[1]) == n * n,
          "%d rows otherwise" % bad)


def refusal_test(nsmc, d):
    """Bad arguments: status 1 with a message, before any run."""
    base = [nsmc, "sweep", MODEL, "--section", "impact:stop", "--section-period", "2*pi/omega",
            "--out-dir", os.path.join(d, "bad")]
    for extra, words in ((["--basin", "M.x=-1:0:3", "--param", "omega=1:2:2"], "cannot be combined"),
                         (["--basin", "M.x=-1:0:3"], "needs two axes"),
                         (["--basin", "M.x=-1:0:3", "--basin", "M.q=0:1:3"], "not a coordinate"),
                         (["--basin", "M.x=-1:0:3", "--basin", "M.x=0:1:3"], "given twice"),
                         (["--basin", "M.x=-1:0:3", "--basin", "M.v=0:1:3", "--basin-tol", "0"],
                          "--basin-tol is a relative tolerance"),
                         (["--basin", "M.x=-1:0:3", "--basin", "M.v=0:1:0"], "COUNT"),
                         (["--basin", "M.x=-1:0:3", "--basin", "M.v=0:1:3", "--continue", "up"],
                          "--continue does not apply"),
                         (["--basin", "M.x=-1:0:3", "--basin", "M.v=0:1:3", "--basin-pilot", "-1"],
                          "--basin-pilot is a whole number"),
                         (["--param", "omega=1:2:2", "--basin-pilot", "4"],
                          "--basin-pilot needs --basin")):
        r = subprocess.run(base + extra, capture_output=True, text=True)
        check("refused: %s" % " ".join(extra), r.returncode == 1 and words in r.stderr,
              "status %d: %s" % (r.returncode, r.stderr.strip()))
    check("refused arguments wrote nothing", not os.path.exists(os.path.join(d, "bad")))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nsmc", required=True)
    ap.add_argument("--mpirun", default="")
    ap.add_argument("--no-mpi", action="store_true")
    args = ap.parse_args()
    if not args.mpirun and not args.no_mpi:
        print("FAIL: MPI was not found (scripts/setup.sh installs it; -DNSM_MPI=OFF leaves it out)")
        return 1
    with tempfile.TemporaryDirectory() as d:
        coarse = coarse_test(args.nsmc, d)
        refine_test(args.nsmc, d, coarse)
        identity_test(args.nsmc, d, args.mpirun)
        reference_test(args.nsmc, d)
        refusal_test(args.nsmc, d)
    print("%d failed" % fails)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
