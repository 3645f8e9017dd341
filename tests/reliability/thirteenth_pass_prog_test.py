#!/usr/bin/env python3
"""A thirteenth hostile pass over the programs and the Python package
(issue #29): sweep and basin grids at a double's range, basin axes and
--set, parameter files, the program cache under `nsmc cache clean`, results
of an earlier study left in a sweep's folder, HDF5 at a file-size limit and
with long names, MPI ranks against jobs, and the command line against
Python for basins and Lyapunov spectra.

    tests/reliability/thirteenth_pass_prog_test.py NSMC SIM SOURCE_DIR CASE [MPIEXEC]

SIM is sim_forced_impact_oscillator.  Cases (each under 20 s in the normal
build):
  findings   what the pass found, each failing before its fix: grids whose
             STOP - START overflows (NaN and infinite parameter values
             swept, NaN initial states classified as an attractor), a basin
             axis of two equal ends (gnuplot failed after the grid), a
             basin's --set of its own axis blamed on --param, a CRLF
             parameter file refused as "unknown unit ''", `nsmc cache clean`
             removing entries that nsmc run and nsm.compile were building
             (both failed), an earlier study's results left beside a
             sweep's or a continuation's own, and Model.basins telling a coordinate that is not
             a text to be one "such as 'impact:stop'" (a section).
  kept       inputs that found nothing, kept: a basin study stopped by
             SIGTERM and run again, HDF5 under a file-size limit
             with an earlier file, HDF5 named with 252 bytes, refused basin
             and Lyapunov options and parameter files, and Python's basins
             and Lyapunov spectrum against the command line's, bit for bit.
  mpi        `mpirun -np 3` on two points and `-np 2` on a basin grid with
             --lyapunov against one job, byte for byte.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import csv
import os
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import (SANITIZED, check, env_for, limit, main, python_script,  # noqa: E402
                     run, thin)

NSMC, SIM = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
SRC = os.path.abspath(sys.argv[3])
MPIEXEC = sys.argv[5] if len(sys.argv) > 5 else None
FIO = os.path.join(SRC, "models", "forced_impact_oscillator.nsm")
BALL = os.path.join(SRC, "models", "bouncing_ball.nsm")
SEC = ["--section", "period:2*pi/omega", "--transient", "5", "--record", "2"]
BASIN = ["--set", "omega=0.7", "--section", "impact:stop", "--section-period", "2*pi/omega",
         "--transient", "300", "--record", "12"]


def sweep(tmp, args, out="o"):
    """nsmc sweep FIO args --out-dir out; prints the outcome."""
    p = run(tmp, [NSMC, "sweep", FIO] + args + ["--out-dir", out])
    last = [ln for ln in p.stderr.splitlines() if "cached" not in ln and "compiling" not in ln]
    print("  sweep %-58s -> %d  %s" % (" ".join(args)[-58:], p.returncode,
                                        (last[-1] if last else "")[:100]))
    return p


def refused(tmp, args, words):
    """A sweep refused before its grid: exit 1, words in the message, no
    out-dir made."""
    p = sweep(tmp, args, "refused")
    check(p.returncode == 1 and words in p.stderr and
          not os.path.exists(os.path.join(tmp, "refused")),
          "refused before the grid, '%s': %s" % (words, " ".join(args)), p)


# ---- findings ---------------------------------------------------------------

def grids(tmp):
    """Axes whose values would not be finite, a basin axis without extent,
    and a basin's --set of its own axis."""
    refused(tmp, SEC + ["--param", "omega=2:3:2", "--param", "F=-1e308:1e308:3"],
            "too far apart for a grid of doubles")
    refused(tmp, SEC + ["--param", "F=1e308:-1e308:2"], "too far apart for a grid of doubles")
    refused(tmp, SEC + ["--param", "F=1.7976931348623157e308:1:2"],
            "rounded to 15 digits, would be infinite")
    refused(tmp, BASIN + ["--basin", "M.x=-1e308:1e308:3", "--basin", "M.v=-3:3:2"],
            "too far apart for a grid of doubles")
    refused(tmp, BASIN + ["--basin", "M.x=-3:-3:2", "--basin", "M.v=-3:3:2"],
            "START and STOP are both -3")
    refused(tmp, BASIN + ["--basin", "M.x=-3:-1:2", "--basin", "omega=1:3:2"],
            "--basin omega: not a coordinate of the state")
    refused(tmp, BASIN + ["--basin", "M.x=-3:-1:2", "--basin", "M.v=1:3:2", "--set", "M.x=1"],
            "unknown parameter 'M.x'")
    # still taken: one value at the largest double, two equal ends of a parameter
    p = sweep(tmp, SEC + ["--param", "omega=2:2:2"], "flat")
    check(p.returncode == 0, "--param omega=2:2:2 still runs, exit 0", p)


def crlf(tmp):
    """A parameter file with CRLF line ends is read as with LF: e = 0.5,
    the second landing of a ball dropped from 1 m at t1 (1 + 2 e) = 2 t1,
    t1 = sqrt(2/g)."""
    with open(os.path.join(tmp, "crlf.set"), "wb") as f:
        f.write(b"e = 0.5 # half\r\nm = 1 kg\r\n")
    ball = os.path.join(os.path.dirname(SIM), "sim_bouncing_ball")
    p = run(tmp, [ball, "--set-file", "crlf.set", "--t-end", "1", "--events", "ev.csv",
                  "--out", "/dev/null"])
    rows = list(csv.reader(open(os.path.join(tmp, "ev.csv"))))[1:] if p.returncode == 0 else []
    t1 = (2 / 9.81) ** 0.5
    got = [float(r[0]) for r in rows]
    print("  --set-file with CRLF -> %d, events %s (expected %.15g, %.15g)"
          % (p.returncode, got[:2], t1, 2 * t1))
    check(p.returncode == 0 and len(got) >= 2 and abs(got[0] - t1) < 1e-9 and
          abs(got[1] - 2 * t1) < 1e-9, "a CRLF parameter file sets e = 0.5: the second "
          "landing at 2 sqrt(2/g) within 1e-9 s", p)


CLEANER = r'''
import subprocess, sys, time
end = time.monotonic() + float(sys.argv[2])
while time.monotonic() < end:
    subprocess.run([sys.argv[1], "cache", "clean"], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    time.sleep(0.02)
'''


def cache_clean(tmp):
    """nsmc cache clean, over and over, while two nsmc run and one
    nsm.compile build one model each on a cold cache: every build ends
    well (each failed, "No such file or directory", its entry removed
    under it)."""
    env = env_for(tmp)
    env.setdefault("MPLBACKEND", "Agg")
    rounds = 1 if SANITIZED else 2
    for r in range(rounds):
        shutil.rmtree(os.path.join(tmp, "cache"), ignore_errors=True)
        cleaner = subprocess.Popen([sys.executable, "-c", CLEANER, NSMC, "60"], cwd=tmp, env=env)
        builds = [subprocess.Popen([NSMC, "run", BALL, "--out-dir", "r%d%d" % (r, i), "--no-plot",
                                    "-q", "--t-end", "1"], cwd=tmp, env=env,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                  for i in range(2)]
        builds.append(subprocess.Popen(
            [sys.executable, "-c", "import nsm; r = nsm.compile(%r).run(t_end=1); "
             "print(len(r.t))" % BALL], cwd=tmp, env=env, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True))
        outs = [b.communicate(timeout=300) for b in builds]
        cleaner.kill()
        cleaner.wait()
        for b, (out, err), what in zip(builds, outs, ("nsmc run", "nsmc run", "nsm.compile")):
            tail = [ln for ln in err.splitlines() if ln.strip()][-1:]
            print("  round %d: %-12s -> %d  %s" % (r, what, b.returncode,
                                                   (tail[0] if tail else "")[:90]))
            check(b.returncode == 0, "%s on a cold cache beside nsmc cache clean: exit 0\n%s"
                  % (what, err[-1500:]))
    p = run(tmp, [NSMC, "cache", "clean"])
    check(p.returncode == 0 and not [e for e in os.listdir(os.path.join(tmp, "cache", "nsm"))
                                      if not e.startswith(".")],
          "nsmc cache clean afterwards removes every entry", p)


def others(tmp):
    """An earlier study's results that a sweep does not write are removed
    once its own are in place."""
    d = os.path.join(tmp, "st")

    def has(*names):
        return [n for n in names if os.path.exists(os.path.join(d, n))]
    p = sweep(tmp, SEC + ["--param", "omega=2:3:3", "--lyapunov", "--floquet"], "st")
    check(p.returncode == 0 and len(has("lyapunov.png", "bifurcations.csv",
                                        "section.csv")) == 3,
          "a sweep with --lyapunov --floquet writes lyapunov.png and bifurcations.csv", p)
    p = sweep(tmp, SEC + ["--param", "omega=1:1.5:3"], "st")
    check(p.returncode == 0 and not has("bifurcations.csv", "lyapunov.png", "lyapunov.svg",
                                        "lyapunov.gp"),
          "the next sweep without them leaves no bifurcations.csv or lyapunov figure (%s)"
          % has("bifurcations.csv", "lyapunov.png", "lyapunov.svg", "lyapunov.gp"), p)
    p = sweep(tmp, BASIN[:-4] + ["--transient", "30", "--record", "12", "--basin",
                                 "M.x=-3:-0.01:3", "--basin", "M.v=-3:3:3"], "st")
    check(p.returncode == 0 and has("basins.csv") and
          not has("section.csv", "bifurcation.png", "bifurcation.svg"),
          "a basin study after it leaves no section.csv or bifurcation figure (%s)"
          % has("section.csv", "bifurcation.png", "bifurcation.svg"), p)
    p = sweep(tmp, SEC + ["--param", "omega=1:1.5:3"], "st")
    check(p.returncode == 0 and has("section.csv") and
          not has("basins.csv", "attractors.csv", "basins.png"),
          "a sweep after the basins leaves no basins.csv, attractors.csv or basins.png", p)
    p = run(tmp, [NSMC, "continue", FIO, "--param", "omega=2.5:2.6", "--max-points", "3",
                  "--transient", "20", "--out-dir", "st", "-q"])
    check(p.returncode == 0 and has("branch.csv") and
          not has("section.csv", "summary.csv", "bifurcation.png"),
          "a continuation after it leaves no section.csv, summary.csv or bifurcation.png (%s)"
          % has("section.csv", "summary.csv", "bifurcation.png"), p)
    p = sweep(tmp, SEC + ["--param", "omega=1:1.5:3"], "st")
    check(p.returncode == 0 and not has("branch.csv", "continuation.png", "continuation.gp"),
          "a sweep after the continuation leaves no branch.csv or continuation figure", p)


COORD = r'''
import sys
import nsm

m = nsm.compile(sys.argv[1])
try:
    m.basins((["M.x"], -3, -1, 2), ("M.v", -3, 3, 2), "impact:stop", period="2*pi/omega")
    raise SystemExit("a list as a coordinate was taken")
except nsm.SettingError as e:
    print("  basins((['M.x'], ...)) -> SettingError %s" % e)
    assert "such as 'M.x'" in str(e) and "impact:stop" not in str(e), str(e)
'''


def findings(tmp):
    python_script(tmp, "coord.py", COORD, [FIO], "a basin's coordinate that is not a text: "
                  "the message gives a coordinate as its example, not a section")
    grids(tmp)
    crlf(tmp)
    others(tmp)
    cache_clean(tmp)


# ---- inputs that found nothing ----------------------------------------------

def h5_limit(tmp):
    """An HDF5 trajectory beside CSV under a file-size limit, an earlier
    HDF5 file there: exit 3 with the system's reason, the earlier file
    byte for byte, the CSV file whole, no temporary left."""
    import h5py
    p = run(tmp, [SIM, "--out", "x.h5", "--t-end", "2", "--events", "/dev/null"])
    check(p.returncode == 0, "a first HDF5 run: exit 0", p)
    before = open(os.path.join(tmp, "x.h5"), "rb").read()
    p = run(tmp, [SIM, "--out", "x.h5", "--out", "x.csv", "--t-end", "2000", "--every", "0.001",
                  "--events", "e.csv"], preexec=limit(256 * 1024))
    data = open(os.path.join(tmp, "x.csv"), "rb").read()
    left = [f for f in os.listdir(tmp) if "partial" in f or ".tmp" in f]
    print("  HDF5 + CSV under a 256 KiB limit -> %d  %s" % (p.returncode,
                                                             p.stderr.strip()[-110:]))
    with h5py.File(os.path.join(tmp, "x.h5"), "r") as f:
        rows = f["trajectory"].shape[0]
    check(p.returncode == 3 and "File too large" in p.stderr and
          open(os.path.join(tmp, "x.h5"), "rb").read() == before and rows > 0 and
          data.endswith(b"\n") and not left,
          "exit 3, 'File too large', the earlier x.h5 as it was (%d rows), x.csv whole, no "
          "temporary (%s)" % (rows, left), p)
    name = "b" * 252 + ".h5"
    p = run(tmp, [SIM, "--out", name, "--t-end", "1", "--events", "/dev/null"])
    with h5py.File(os.path.join(tmp, name), "r") as f:
        ok = f["trajectory"].shape[0] > 0 and int(f["run"].attrs["status"]) == 0
    left = [f for f in os.listdir(tmp) if "partial" in f]
    print("  --out of 255 bytes -> %d, readable %s, temporaries %s" % (p.returncode, ok, left))
    check(p.returncode == 0 and ok and not left, "an HDF5 file named with 255 bytes: written "
          "through a temporary whose name fits, readable, none left", p)


def refusals(tmp):
    """Basin, Lyapunov and parameter-file options refused with their cause."""
    # every third under the sanitizers (about 3x slower), as passlib.thin
    for args, words in thin((
            (["--basin", "M.x=-3:-1:2"], "--basin needs two axes"),
            (["--basin", "M.x=-3:-1:2", "--basin", "M.x=1:2:2"], "is given twice"),
            (["--basin", "M.x=-3:-1:2", "--basin", "M.v=1:2:2", "--basin", "M.v=1:2:2"],
             "--basin is given twice"),
            (["--basin", "M.x=nan:1:2", "--basin", "M.v=1:2:2"], "is not a finite number"),
            (["--basin", "M.a=-3:-1:2", "--basin", "M.v=1:2:2"], "not a coordinate of the state"),
            (["--basin", "M.x=-3:-1:2", "--basin", "M.v=1:2:2", "--basin-tol", "nan"],
             "relative tolerance between 0 and 1"),
            (["--basin", "M.x=-3:-1:2", "--basin", "M.v=1:2:2", "--basin-pilot", "-1"],
             "--basin-pilot is a whole number"),
            (["--basin", "M.x=-3:-1:2", "--basin", "M.v=1:2:2", "--floquet"],
             "--floquet does not apply"),
            (["--basin", "M.x=-3:-1:2", "--basin", "M.v=1:2:2", "--param", "omega=1:2:2"],
             "cannot be combined"))):
        refused(tmp, BASIN + args, words)
    for args, words in (
            (["--lyapunov", "--lyapunov-periods", "0"], "--lyapunov-periods is a whole number"),
            (["--lyapunov", "--lyapunov-periods", "1e12"], "--lyapunov-periods is a whole"),
            (["--lyapunov-periods", "5"], "--lyapunov-periods needs --lyapunov")):
        refused(tmp, SEC + ["--param", "omega=2:3:2"] + args, words)
    ball = os.path.join(os.path.dirname(SIM), "sim_bouncing_ball")
    for text, words in thin(((b"e = 0.5\n\xef\xbb\xbfg = 9.81\n", "s.set:2:1: the character U+FEFF"),
                        (b"e = 0.5\ne = 0.6\n", "by s.set:1 and by s.set:2"),
                        (b"e = 1/2\n", "s.set:1: bad value '1/2'"),
                        (b"g = 9.81 m/s\n", "is not a unit of m/s^2"),
                        (b"e = 0.5 kg\n", "given for a dimensionless parameter"),
                        (b"m = 0x10\n", "expected a number after '='"))):
        with open(os.path.join(tmp, "s.set"), "wb") as f:
            f.write(text)
        p = run(tmp, [ball, "--set-file", "s.set", "--t-end", "1", "--out", "sf.csv"])
        print("  --set-file %-26r -> %d  %s" % (text, p.returncode, p.stderr.strip()[-80:]))
        check(p.returncode == 1 and words in p.stderr and
              not os.path.exists(os.path.join(tmp, "sf.csv")),
              "a parameter file %r: exit 1, '%s', nothing written" % (text, words), p)


SAME = r'''
import csv, sys
import numpy as np
import nsm

fio = nsm.compile(sys.argv[1])
xs, ys, lab, att = fio.basins(("M.x", -3, -0.01, 6), ("M.v", -3, 3, 5), "impact:stop",
                              period="2*pi/omega", transient=300, record=12,
                              params={"omega": 0.7}, jobs=2)
rows = list(csv.reader(open("bas/basins.csv")))[1:]
cli = [(float(r[0]), float(r[1]), int(r[2])) for r in rows]
py = [(xs[j], ys[i], int(lab[i, j])) for i in range(len(ys)) for j in range(len(xs))]
ar = list(csv.reader(open("bas/attractors.csv")))[1:]
same = cli == py and len(ar) == len(att) == 2 and all(
    a["phase"] == float(r[5]) and a["M.v [m/s]"] == float(r[7]) for a, r in zip(att, ar))
print("  basins: %d states, %d attractors (impact speeds %s), bit for bit: %s"
      % (len(py), len(att), [a["M.v [m/s]"] for a in att], same))
assert same
# the two period-1 orbits at omega = 0.7 (docs/studies.md: 1.3099 and 1.2199 m/s)
assert sorted(round(a["M.v [m/s]"], 4) for a in att) == [1.2199, 1.3099]
lam = fio.lyapunov(250, 2.5, transient=50, params={"omega": 2.0})
cli = [float(r[1]) for r in list(csv.reader(open("ly.csv")))[1:]]
print("  lyapunov at omega = 2: %r against %r" % (lam.tolist(), cli))
assert lam.tolist() == cli
'''


def same(tmp):
    """Python's basins and Lyapunov spectrum against the command line's."""
    p = sweep(tmp, BASIN + ["--basin", "M.x=-3:-0.01:6", "--basin", "M.v=-3:3:5"], "bas")
    check(p.returncode == 0, "a 6 x 5 basin grid: exit 0", p)
    p = run(tmp, [SIM, "--set", "omega=2.0", "--lyapunov", "--lyapunov-transient", "50",
                  "--t-end", "300", "--lyapunov-interval", "2.5", "--lyapunov-out", "ly.csv",
                  "--out", "/dev/null", "--events", "/dev/null"])
    check(p.returncode == 0, "the simulator's --lyapunov at omega = 2: exit 0", p)
    python_script(tmp, "same.py", SAME, [FIO], "Python's basins and spectrum are the "
                  "command line's, bit for bit")


def basin_stop(tmp):
    """A basin study stopped by SIGTERM keeps whole rows in its partial
    summary, and the next one into the folder keeps them as .prev (said)
    and writes the complete result, whose first rows they are."""
    args = [NSMC, "sweep", FIO] + BASIN + ["--basin", "M.x=-3:-0.01:30", "--basin",
                                           "M.v=-3:3:30", "--out-dir", "bs"]
    part = os.path.join(tmp, "bs", "summary.csv.partial")
    p = subprocess.Popen(args, cwd=tmp, env=env_for(tmp), stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True)
    t0 = time.monotonic()
    while p.poll() is None and time.monotonic() - t0 < 60 and not (
            os.path.exists(part) and open(part).read().count("\n") > 30):
        time.sleep(0.02)
    p.send_signal(signal.SIGTERM)
    err = p.communicate(timeout=60)[1]
    kept_rows = open(part).read() if os.path.exists(part) else ""
    n = kept_rows.count("\n") - 1
    print("  basin study stopped by SIGTERM -> %d, %d rows kept" % (p.returncode, n))
    check(p.returncode == 143 and "stopped by SIGTERM" in err and n > 0 and
          kept_rows.endswith("\n"), "a stopped basin study: exit 143, said, whole rows kept", p)
    p = run(tmp, args)
    with open(os.path.join(tmp, "bs", "summary.csv")) as f:
        full = f.read()
    check(p.returncode == 0 and "kept as" in p.stderr and
          open(part + ".prev").read() == kept_rows and full.startswith(kept_rows),
          "run again: the stopped rows kept as .prev, the first rows of the complete summary", p)


def kept(tmp):
    basin_stop(tmp)
    h5_limit(tmp)
    refusals(tmp)
    same(tmp)


def mpi(tmp):
    """More ranks than points, and a basin grid with --lyapunov on two
    ranks of two jobs, against one job: the same files byte for byte."""
    check(MPIEXEC is not None, "an mpiexec is given")
    env = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
           "OMPI_MCA_rmaps_base_oversubscribe": "1",
           "ASAN_OPTIONS": os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0"}
    grid = BASIN[:-4] + ["--transient", "300", "--record", "12", "--basin", "M.x=-3:-0.01:4",
                         "--basin", "M.v=-3:3:3", "--lyapunov"]
    for ranks, args, names in (
            ("3", SEC + ["--param", "omega=2:3:2"], ("section.csv", "summary.csv")),
            ("2", grid + ["--jobs", "2"], ("basins.csv", "attractors.csv", "summary.csv"))):
        p1 = sweep(tmp, args, "one" + ranks)
        t0 = time.monotonic()
        p2 = run(tmp, [MPIEXEC, "--oversubscribe", "-np", ranks, NSMC, "sweep", FIO] + args +
                 ["--out-dir", "mpi" + ranks], env=env, timeout=300)
        alike = all(open(os.path.join(tmp, "one" + ranks, n), "rb").read() ==
                    open(os.path.join(tmp, "mpi" + ranks, n), "rb").read() for n in names)
        print("  mpirun -np %s (%.1f s) -> %d, %s alike: %s" % (ranks, time.monotonic() - t0,
                                                               p2.returncode, names, alike))
        check(p1.returncode == 0 and p2.returncode == 0 and alike,
              "mpirun -np %s: the files of one job, byte for byte" % ranks, p2)


if __name__ == "__main__":
    sys.exit(main({"findings": findings, "kept": kept, "mpi": mpi}, "nsm-thirteenth-prog-",
                  case_arg=4))
