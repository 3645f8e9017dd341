#!/usr/bin/env python3
"""What a first day with nsm reaches for (issue 28, point 5): HDF5 from
`nsmc run`, the balance line of a renamed energy.error, units in `nsmc sweep
--set`, clean sweep grid values and the marks of the bifurcation diagram.

    tests/workflow/firstday_test.py NSMC SOURCE_DIR CASE

Cases:
- run_h5: `nsmc run --out FILE.h5` writes the run as HDF5 beside the
  folder's CSV: the same samples as trajectory.csv, the same events as
  events.csv, the model's source byte for byte (/model/source); a CSV name
  for --out is refused before anything runs.
- energy_rename: `err = energy.error` in the output list keeps nsmc run's
  "energy balance error" line, with the values of that column; a model
  without energy.error has no such line.
- sweep_units: `nsmc sweep --set 'k=2 kN/m'` runs the grid of `--set
  k=2000`, byte for byte, and `--param 'k=1 kN/m:3 kN/m:3'` the grid
  k=1000:3000:3; a unit of another dimension and Hz for a parameter in
  rad/s are refused, exit 1, nothing written.
- sweep_grid: the grid 2.6:2.7:11 is written 2.6, 2.61, ..., 2.7 (not
  2.6099999999999999) and each point ran with the double nearest to that
  decimal.
- bifurcation_marks: with --floquet, bifurcation.gp draws one dashed line
  at each crossing bifurcations.csv gives as bisected, at its parameter
  value, labelled P->2P for a period doubling; bifurcation.png is drawn.

Each case runs in a fresh temporary folder with its own cache.
"""
import os
import subprocess
import sys
import tempfile

NSMC = os.path.abspath(sys.argv[1])
SRC = os.path.abspath(sys.argv[2])
FIO = os.path.join(SRC, "models", "forced_impact_oscillator.nsm")
SWEEP = ["--section", "impact:stop", "--section-period", "2*pi/omega"]


class Failure(Exception):
    pass


def check(cond, what, proc=None):
    """Fails the case with a message (and the process's output) unless cond."""
    if not cond:
        if proc is not None:
            what += "\n--- exit %d\n--- stdout:\n%s\n--- stderr:\n%s" % (
                proc.returncode, proc.stdout, proc.stderr)
        raise Failure(what)
    print("ok:", what.splitlines()[0])


def nsmc(tmp, *args):
    """Runs nsmc ARGS in tmp with the cache in tmp/cache."""
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cache"))
    return subprocess.run([NSMC, *args], cwd=tmp, env=env, capture_output=True, text=True,
                          timeout=300)


def rows_of(path):
    """The lines of a CSV file after its header, split at commas."""
    with open(path, encoding="utf-8") as f:
        return [l.rstrip("\n").split(",") for l in f.readlines()[1:] if l.strip()]


def case_run_h5(tmp):
    import h5py
    import numpy as np
    model = os.path.join(SRC, "models", "two_mass.nsm")
    p = nsmc(tmp, "run", model, "-q", "--no-plot", "--out", "csv.csv")
    check(p.returncode == 1 and "takes an HDF5 file" in p.stderr and
          not os.path.exists(os.path.join(tmp, "out")) and
          not os.path.exists(os.path.join(tmp, "csv.csv")),
          "nsmc run --out csv.csv is refused before anything runs", p)
    p = nsmc(tmp, "run", model, "-q", "--no-plot", "--out", "two_mass.h5")
    check(p.returncode == 0 and "two_mass.h5" in p.stdout.splitlines()[-1],
          "nsmc run --out two_mass.h5 exits 0 and names the file", p)
    out = os.path.join(tmp, "out", "two_mass")
    csv_rows = np.array([[float(v) for v in r] for r in rows_of(os.path.join(out, "trajectory.csv"))])
    ev_rows = rows_of(os.path.join(out, "events.csv"))
    with h5py.File(os.path.join(tmp, "two_mass.h5"), "r") as f:
        data = f["trajectory"][()]
        events = f["events"][()]
        source = f["model/source"][()]
    check(data.shape == csv_rows.shape and np.allclose(data, csv_rows, rtol=1e-11, atol=1e-14),
          "/trajectory holds trajectory.csv's %d samples" % len(csv_rows))
    check(len(events) == len(ev_rows) and
          all(abs(e["t"] - float(r[0])) < 1e-12 for e, r in zip(events, ev_rows)),
          "/events holds events.csv's %d events" % len(ev_rows))
    with open(model, "rb") as f:
        text = f.read()
    source = source if isinstance(source, bytes) else source.encode()
    check(source == text, "/model/source is the model's file, byte for byte (%d bytes)" % len(text))


def case_energy_rename(tmp):
    src = open(os.path.join(SRC, "models", "two_mass.nsm")).read()
    line = [l for l in src.splitlines() if l.startswith("output ")]
    assert len(line) == 1
    with open(os.path.join(tmp, "renamed.nsm"), "w") as f:
        f.write(src.replace(line[0], "output every 10 ms: M1.x, M2.x, err = energy.error"))
    p = nsmc(tmp, "run", "renamed.nsm", "-q", "--no-plot", "--out-dir", "r")
    line = [l for l in p.stdout.splitlines() if l.startswith("energy balance error:")]
    check(p.returncode == 0 and len(line) == 1, "a renamed energy.error keeps the balance line", p)
    vals = [abs(float(r[3])) for r in rows_of(os.path.join(tmp, "r", "trajectory.csv"))]
    last = float(line[0].split()[3])
    worst = float(line[0].split()[7])
    check(last == float("%.3g" % float(rows_of(os.path.join(tmp, "r", "trajectory.csv"))[-1][3]))
          and worst == float("%.3g" % max(vals)),
          "the line gives the column err's last and largest values (%g, %g)" % (last, worst))
    p = nsmc(tmp, "run", os.path.join(SRC, "models", "two_mass.nsm"), "-q", "--no-plot",
             "--out-dir", "plain")
    check(p.returncode == 0 and "energy balance error" not in p.stdout,
          "without energy.error there is no balance line", p)


def sweep(tmp, out, *args):
    return nsmc(tmp, "sweep", FIO, "--param", "omega=2.6:2.7:3", *SWEEP, "--out-dir", out, *args)


def case_sweep_units(tmp):
    p = sweep(tmp, "si", "--set", "k=2000")
    check(p.returncode == 0, "sweep --set k=2000", p)
    p = sweep(tmp, "unit", "--set", "k=2 kN/m")
    check(p.returncode == 0, "sweep --set 'k=2 kN/m'", p)
    for name in ("summary.csv", "section.csv"):
        a = open(os.path.join(tmp, "si", name), "rb").read()
        b = open(os.path.join(tmp, "unit", name), "rb").read()
        check(a == b and len(a) > 100, "%s: 'k=2 kN/m' gives the sweep of k=2000, byte for byte"
              % name)
    p = sweep(tmp, "bad", "--set", "k=2 kg")
    check(p.returncode == 1 and "--set k=2 kg" in p.stderr and "not a unit of N/m" in p.stderr
          and not os.path.exists(os.path.join(tmp, "bad")),
          "a unit of another dimension is refused, nothing written: " +
          p.stderr.strip().splitlines()[-1], p)
    p = sweep(tmp, "hz", "--set", "omega=1 Hz", "--param", "F=1:2:2")
    check(p.returncode == 1 and "Hz counts cycles" in p.stderr,
          "Hz for a parameter in rad/s is refused: " + p.stderr.strip().splitlines()[-1], p)
    # the axes' ends too
    runs = []
    for out, axis in (("asi", "k=1000:3000:3"), ("aunit", "k=1 kN/m:3 kN/m:3")):
        p = nsmc(tmp, "sweep", FIO, "--param", "omega=2.6:2.7:2", "--param", axis, *SWEEP,
                 "--out-dir", out)
        check(p.returncode == 0, "sweep --param %s" % axis, p)
        runs.append(open(os.path.join(tmp, out, "section.csv"), "rb").read())
    check(runs[0] == runs[1], "--param 'k=1 kN/m:3 kN/m:3' is the grid k=1000:3000:3, byte for byte")
    p = nsmc(tmp, "sweep", FIO, "--param", "k=1:3 kg:3", *SWEEP, "--out-dir", "abad")
    check(p.returncode == 1 and "--param k: STOP 'kg' is not a unit of N/m" in p.stderr and
          not os.path.exists(os.path.join(tmp, "abad")),
          "an end in a unit of another dimension is refused: " + p.stderr.strip().splitlines()[-1],
          p)


def case_sweep_grid(tmp):
    p = nsmc(tmp, "sweep", FIO, "--param", "omega=2.6:2.7:11", *SWEEP, "--out-dir", "g")
    check(p.returncode == 0, "sweep over omega = 2.6:2.7:11", p)
    first = [r[0] for r in rows_of(os.path.join(tmp, "g", "summary.csv"))]
    want = ["%.2f" % (2.6 + 0.01 * i) for i in range(11)]
    want = [w.rstrip("0").rstrip(".") for w in want]
    check(first == want, "summary.csv's grid values are written as given: %s" % first)
    sec = {r[0] for r in rows_of(os.path.join(tmp, "g", "section.csv"))}
    check(sec <= set(want) and len(sec) == 11, "section.csv's too: %s" % sorted(sec))
    check(all(float(v) == float(w) for v, w in zip(first, want)),
          "each point's value is the double nearest to its decimal")


def case_bifurcation_marks(tmp):
    p = nsmc(tmp, "sweep", FIO, "--param", "omega=2.6:2.75:16", *SWEEP, "--floquet",
             "--continue", "up", "--out-dir", "b")
    check(p.returncode == 0, "sweep --floquet --continue up over 2.6:2.75:16", p)
    rows = rows_of(os.path.join(tmp, "b", "bifurcations.csv"))
    bisected = [r for r in rows if r[-1] == "bisected"]
    check(len(bisected) >= 3 and all(r[1] == "period doubling (-1)" for r in bisected[:3]),
          "bifurcations.csv locates the cascade: %s" % [r[3] for r in bisected])
    gp = open(os.path.join(tmp, "b", "bifurcation.gp")).read().splitlines()
    arrows = [l for l in gp if l.startswith("set arrow from ")]
    labels = [l for l in gp if l.startswith("set label ")]
    check(len(arrows) == len(bisected), "one mark per bisected crossing (%d)" % len(arrows))
    for r, a, lab in zip(bisected, arrows, labels):
        x = a.split()[3].rstrip(",")
        check(float(x) == float(r[3]) and "graph 0 to %s, graph 1" % x in a and "dt 2" in a,
              "a dashed line across the plot at omega = %s" % r[3])
        per = int(r[2])
        check(lab.startswith("set label '%d->%d' at %s," % (per, 2 * per, x)),
              "labelled %d->%d" % (per, 2 * per))
    png = open(os.path.join(tmp, "b", "bifurcation.png"), "rb").read()
    check(png.startswith(b"\x89PNG"), "bifurcation.png is drawn")


def main():
    case = sys.argv[3]
    tmp = tempfile.mkdtemp(prefix="nsm-firstday-")
    try:
        globals()["case_" + case](tmp)
    except Failure as e:
        print("FAIL:", e)
        sys.exit(1)
    finally:
        subprocess.run(["rm", "-rf", tmp])


if __name__ == "__main__":
    main()
