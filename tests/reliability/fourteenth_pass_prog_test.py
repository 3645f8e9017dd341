#!/usr/bin/env python3
"""A fourteenth hostile pass over the programs and the Python package
(issue #29): `nsmc continue` at the limits of its steps and starts, the
figures under a gnuplot that fails, ends without drawing or is slow and
stopped, `nsmc run`'s outputs naming its own inputs, Floquet multipliers
through the command line and Python against the closed form of a linear
forced oscillator, and sweeps on two jobs stopped at random moments.

    tests/reliability/fourteenth_pass_prog_test.py NSMC SIM SOURCE_DIR CASE

SIM is sim_forced_impact_oscillator.  Cases (each under 20 s in the normal
build):
  findings   what the pass found, each failing before its fix: a
             continuation with --ds-max 0.2 to 1e300 or --ds-min 0.01
             reporting grazings where none is (a long step's corrector
             landed on another branch), Python's ds_min above ds taken, a step past the range's end dropping the special
             points before it, `--plot` checked after the branch, a
             gnuplot that ends well without drawing leaving the
             figures announced and absent, `nsmc run` writing its
             statistics, section or HDF5 file over its own model or
             parameter file, and `nsmc continue` stopped while drawing
             without a word.
  kept       inputs that found nothing, kept: Floquet multipliers and
             orbits of the forced damped oscillator by `nsmc sweep
             --floquet` and `Model.floquet` against the closed form,
             refused continuation options, Python's continuation against
             the command line's bit for bit, gnuplot failing or slow and
             stopped, a figure path that is a folder, and a sweep on two
             jobs stopped by signals at random moments.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import cmath
import csv
import math
import os
import random
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import (SANITIZED, alive, check, children, env_for, main,  # noqa: E402
                     prog_paths, python_script, run, thin, whole_figure, whole_lines)

NSMC, SIM, SRC, BALL_SIM, FIO, BALL = prog_paths()
CLEAR = os.path.join(SRC, "tests", "studies", "impact_clearance.nsm")
DAMPED = os.path.join(SRC, "tests", "studies", "damped_forced.nsm")
SEC = ["--section", "period:2*pi/omega", "--transient", "5", "--record", "2"]
# the fold of the clearance oscillator's impacting orbit at e = 0.8: the impact
# map's fixed point with det(DP - I) = 0 in mpmath at 30 digits
# (tests/studies/curves_test.py, docs/studies.md)
FOLD = 1.5715713109996771


def graze_reference():
    """The grazing of the orbit without impacts of impact_clearance.nsm
    (m = k = F = 1, c = 2 zeta = 0.1, d = 2): F / sqrt((k - m w^2)^2 + (c
    w)^2) = d above the resonance, by bisection in w."""
    lo, hi = 1.1, 1.4          # the amplitude falls through d between them
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if 1 / math.hypot(1 - mid * mid, 0.1 * mid) > 2:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def fake_gnuplot(tmp, body):
    """A folder holding a gnuplot that runs body (sh); the environment whose
    PATH finds it first."""
    d = os.path.join(tmp, "fakebin")
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, "gnuplot")
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + body + "\n")
    os.chmod(path, 0o755)
    return {"PATH": d + ":" + os.environ["PATH"]}


def said(p, n=1):
    """The last n lines of stderr without the cache's notes."""
    lines = [ln for ln in p.stderr.splitlines() if "cached" not in ln and "compiling" not in ln]
    return " | ".join(lines[-n:])[:150]


def rows(path):
    """The rows of a CSV file as dicts."""
    with open(path) as f:
        return list(csv.DictReader(f))


# ---- findings ---------------------------------------------------------------

def branch_jump(tmp):
    """The clearance oscillator's impacting branch from 1.2185 up to its fold
    and back down to the grazing of the orbit without impacts: with
    --ds-max 0.2 to 1e300 a long step's corrector landed on the orbit
    without impacts, and the count's change was reported as a grazing at
    omega = 1.257 to 1.298 (gaps of 0.3 to 0.56 m), or the branch ended
    there ('no orbit past the grazing'); every grazing must be the closed
    form's, its smallest gap zero."""
    wg = graze_reference()
    for dsmax in ("0.5", "1e300")[:1 if SANITIZED else 2]:
        out = "jump" + dsmax
        p = run(tmp, [NSMC, "continue", CLEAR, "--param", "omega=1.2185:2.0", "--start", "1.9,3",
                      "--ds-max", dsmax, "--out-dir", out, "-q", "--no-plot"])
        pts = rows(os.path.join(tmp, out, "branch.csv")) if p.returncode == 0 else []
        graze = [(float(r["omega [rad/s]"]), float(r["min_gap"]), int(r["impacts"]))
                 for r in pts if r["point"] == "grazing"]
        folds = [float(r["omega [rad/s]"]) for r in pts if r["point"] == "fold"]
        print("  --ds-max %-6s -> %d, %d points, folds %s, grazings %s (closed form %.15g)"
              % (dsmax, p.returncode, len(pts), folds, [g[0] for g in graze], wg))
        check(p.returncode == 0 and len(folds) == 1 and abs(folds[0] - FOLD) < 1e-10 and
              len(graze) == 1 and abs(graze[0][0] - wg) < 1e-10 and abs(graze[0][1]) < 1e-9,
              "--ds-max %s: the fold at %.15g and one grazing, at the closed form's %.15g within "
              "1e-10, its smallest gap 0 within 1e-9 (%s)" % (dsmax, FOLD, wg, graze), p)


def long_ds_min(tmp):
    """Steps held long by --ds-min (0.01, which the command line takes):
    the same branch reported a grazing at omega = 1.2517, its gap 0.3 m;
    now a note that the branch cannot be continued there, no grazing but
    the closed form's.  Python's ds_min above ds, which the command line
    refuses, ran the same branch: refused too."""
    wg = graze_reference()
    p = run(tmp, [NSMC, "continue", CLEAR, "--param", "omega=1.2185:2.0", "--start", "1.9,3",
                  "--ds-min", "0.01", "--out-dir", "dsmin", "--no-plot"])
    pts = rows(os.path.join(tmp, "dsmin", "branch.csv")) if p.returncode == 0 else []
    graze = [float(r["omega [rad/s]"]) for r in pts if r["point"] == "grazing"]
    print("  --ds-min 0.01 -> %d, grazings %s  %s" % (p.returncode, graze, said(p)[:90]))
    check(p.returncode == 0 and all(abs(g - wg) < 1e-10 for g in graze) and
          (graze or "does not graze" in p.stderr),
          "--ds-min 0.01: no grazing but the closed form's, else a note that the orbit does "
          "not graze", p)
    python_script(tmp, "dsmin.py", DS_MIN, [CLEAR], "Model.continuation refuses ds_min > ds")


DS_MIN = r'''
import sys
import nsm

m = nsm.compile(sys.argv[1])
try:
    m.continuation("omega", 1.2185, 2.0, init={"M.x": 1.9, "M.v": 3}, ds_min=1.0)
    raise SystemExit("ds_min = 1 above ds = 0.01 was taken")
except nsm.SettingError as e:
    print("  continuation(ds_min=1.0) -> SettingError %s" % e)
'''


def range_end(tmp):
    """A step that leaves the parameter's range: the forced impact
    oscillator's branch from 2.5 to 2.8 with --ds 1 stepped past the range's
    end at once and ended with no special point, the period doubling at
    2.6588845466848358 (the impact map's fixed point with det(DP + I) = 0 in
    mpmath, tests/studies/curves_test.py) unreported; a range that ends
    before it reports none."""
    for rng, want in (("2.5:2.8", 1), ("2.5:2.6", 0)):
        p = run(tmp, [NSMC, "continue", FIO, "--param", "omega=" + rng, "--ds", "1", "--ds-max",
                      "1", "--out-dir", "end", "--no-plot"])
        flips = [float(ln.split()[3]) for ln in p.stdout.splitlines() if ln.startswith("flip")]
        print("  --param omega=%s --ds 1 -> %d, flips %s" % (rng, p.returncode, flips))
        check(p.returncode == 0 and len(flips) == want and
              all(abs(f - 2.6588845466848358) < 1e-10 for f in flips),
              "omega=%s with --ds 1: %d period doubling%s, at 2.6588845466848358 within 1e-10"
              % (rng, want, "" if want == 1 else "s"), p)
    p = run(tmp, [NSMC, "continue", FIO, "--param", "omega=2.5:2.8", "--switch-pd", "--ds", "1",
                  "--ds-max", "1", "--out-dir", "ends", "-q", "--no-plot"])
    sw = [r for r in rows(os.path.join(tmp, "ends", "branch.csv")) if r["point"] == "switch"] \
        if p.returncode == 0 else []
    print("  --switch-pd with --ds 1 -> %d, switch points %s" % (
        p.returncode, [(r["omega [rad/s]"], r["period [s]"], r["impacts"]) for r in sw]))
    check(p.returncode == 0 and len(sw) == 1 and int(sw[0]["impacts"]) == 2 and
          abs(float(sw[0]["period [s]"]) - 4 * math.pi / float(sw[0]["omega [rad/s]"])) < 1e-12,
          "--switch-pd with --ds 1 switches at that doubling: a point of twice the forcing "
          "period with two impacts", p)
    p = run(tmp, [NSMC, "continue", FIO, "--param", "omega=2.5:2.8", "--curve", "flip",
                  "--param2", "e=0.8:0.7", "--ds", "1", "--ds-max", "1", "--out-dir", "endc",
                  "-q", "--no-plot"])
    first = rows(os.path.join(tmp, "endc", "curve.csv"))[:1] if p.returncode == 0 else []
    print("  --curve flip with --ds 1 -> %d  %s" % (p.returncode, said(p)))
    check(p.returncode == 0 and first and
          abs(float(first[0]["omega [rad/s]"]) - 2.6588845466848358) < 1e-10,
          "the flip curve with --ds 1 starts at the branch's period doubling (it said the branch "
          "had none)", p)


def plot_column(tmp):
    """nsmc continue --plot naming no column of branch.csv: refused only
    after the whole branch had run (exit 1, branch.csv written); now before
    anything runs or is written, as the sweep's --plot."""
    p = run(tmp, [NSMC, "continue", FIO, "--param", "omega=2.5:2.8", "--max-points", "3",
                  "--plot", "nope", "--out-dir", "pc"])
    print("  continue --plot nope -> %d  %s" % (p.returncode, said(p)))
    check(p.returncode == 1 and "--plot nope: not a column" in p.stderr and
          not os.path.exists(os.path.join(tmp, "pc")),
          "--plot nope: exit 1 before the branch, no out-dir made", p)


def silent_gnuplot(tmp):
    """A gnuplot that exits 0 without drawing: nsmc run, the simulator's
    --plot, nsmc sweep and nsmc continue each said where their figures
    were (exit 0) and none was there; now exit 1, 'did not draw', the
    results whole."""
    env = fake_gnuplot(tmp, "exit 0")
    p = run(tmp, [NSMC, "run", BALL, "--out-dir", "sg", "-q", "--t-end", "1"], env=env)
    n = whole_lines(os.path.join(tmp, "sg", "trajectory.csv"))
    print("  nsmc run -> %d  %s" % (p.returncode, said(p)))
    check(p.returncode == 1 and "did not draw" in p.stderr and
          not os.path.exists(os.path.join(tmp, "sg", "plot.png")) and n == 101 and
          "plots:" not in p.stdout + p.stderr,
          "nsmc run: exit 1, 'did not draw', no figure announced, the 101 samples whole", p)
    p = run(tmp, [BALL_SIM, "--plot", "sp", "--t-end", "1"], env=env)
    print("  sim --plot -> %d  %s" % (p.returncode, said(p, 2)))
    check(p.returncode == 1 and "did not draw" in p.stderr and "plots:" not in p.stderr and
          not os.path.exists(os.path.join(tmp, "sp", "plot.png")),
          "the simulator's --plot: exit 1, 'did not draw', no figure announced", p)
    p = run(tmp, [NSMC, "sweep", FIO, "--param", "omega=2:3:3"] + SEC + ["--out-dir", "ss"],
            env=env)
    print("  nsmc sweep -> %d  %s" % (p.returncode, said(p)))
    check(p.returncode == 1 and "did not draw" in p.stderr and
          "bifurcation.png, bifurcation.svg" not in p.stderr and
          whole_lines(os.path.join(tmp, "ss", "section.csv")) == 6 and
          not os.path.exists(os.path.join(tmp, "ss", "bifurcation.png")),
          "nsmc sweep: exit 1, 'did not draw', its 6 records whole", p)
    p = run(tmp, [NSMC, "continue", FIO, "--param", "omega=2.5:2.6", "--max-points", "3",
                  "--out-dir", "sc"], env=env)
    print("  nsmc continue -> %d  %s" % (p.returncode, said(p)))
    check(p.returncode == 1 and "did not draw" in p.stderr and
          whole_lines(os.path.join(tmp, "sc", "branch.csv")) == 3 and
          not os.path.exists(os.path.join(tmp, "sc", "continuation.png")),
          "nsmc continue: exit 1, 'did not draw', its 3 points whole", p)


def own_inputs(tmp):
    """nsmc run's outputs naming the model's file or the parameter file:
    each overwrote it (the model replaced by its statistics) and exited 0;
    now exit 1 before anything is written, the files byte for byte."""
    model = os.path.join(tmp, "ball.nsm")
    text = open(BALL, "rb").read()
    with open(os.path.join(tmp, "p.set"), "w") as f:
        f.write("e = 0.5\n")
    os.symlink("ball.nsm", os.path.join(tmp, "link.h5"))
    os.makedirs(os.path.join(tmp, "planted"))
    os.symlink("../ball.nsm", os.path.join(tmp, "planted", "events.csv"))
    for args in (["--stats", "ball.nsm"], ["--section", "period:0.5", "--section-out", "./ball.nsm"],
                 ["--", "--stats", "ball.nsm"], ["--out", "link.h5"], ["--", "--out", "link.h5"],
                 ["--set-file", "p.set", "--stats", "p.set"], ["--out-dir", "planted"]):
        with open(model, "wb") as f:
            f.write(text)
        out = [] if "--out-dir" in args else ["--out-dir", "made"]
        p = run(tmp, [NSMC, "run", "ball.nsm", "--no-plot", "-q", "--t-end", "1"] + out + args)
        print("  nsmc run ball.nsm %-44s -> %d  %s" % (" ".join(args), p.returncode, said(p)))
        check(p.returncode == 1 and "itself" in p.stderr and open(model, "rb").read() == text and
              open(os.path.join(tmp, "p.set")).read() == "e = 0.5\n" and
              not os.path.exists(os.path.join(tmp, "made")),
              "%s: exit 1 naming the input, the model and parameter file as they were, no "
              "out-dir made" % " ".join(args), p)
    p = run(tmp, [NSMC, "run", "ball.nsm", "--no-plot", "-q", "--t-end", "1", "--stats", "s.csv",
                  "--out-dir", "made"])
    check(p.returncode == 0 and whole_lines(os.path.join(tmp, "s.csv")) > 0,
          "--stats into another file still runs", p)


def stop_drawing(tmp, what, cmd, words, names):
    """cmd (an nsmc study or run) under a gnuplot that sleeps, stopped by
    SIGTERM while it draws: exit 143, words said, the results names whole,
    no temporary left and gnuplot ended."""
    env = env_for(tmp)
    env.update(fake_gnuplot(tmp, "exec sleep 30"))
    p = subprocess.Popen(cmd, cwd=tmp, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    folder = os.path.join(tmp, os.path.dirname(names[0]))
    script = os.path.join(tmp, [n for n in names if n.endswith(".gp")][0])
    t0 = time.monotonic()
    while p.poll() is None and time.monotonic() - t0 < 60 and not os.path.exists(script):
        time.sleep(0.02)
    time.sleep(0.3)
    kids = children(p.pid)
    p.send_signal(signal.SIGTERM)
    out, err = p.communicate(timeout=30)
    time.sleep(0.1)
    left = [f for f in os.listdir(folder) if ".tmp" in f]
    running = [k for k in kids if alive(k)]
    print("  %s stopped while drawing -> %d  %s" % (what, p.returncode, err.strip()[-110:]))
    for n in names:
        if n.endswith(".csv"):
            whole_lines(os.path.join(tmp, n))
    # 143, or the signal's own end (-15 here, 143 in a shell) where the
    # program ends by the signal's default action (nsmc continue)
    check(p.returncode in (143, -15) and words in err and not left and not running,
          "%s: exit 143, '%s', its results whole, no temporary (%s), gnuplot ended (%s)"
          % (what, words, left, running))


def findings(tmp):
    branch_jump(tmp)
    long_ds_min(tmp)
    range_end(tmp)
    plot_column(tmp)
    silent_gnuplot(tmp)
    own_inputs(tmp)
    stop_drawing(tmp, "nsmc continue",
                 [NSMC, "continue", FIO, "--param", "omega=2.5:2.6", "--max-points", "3",
                  "--out-dir", "cd"], "stopped by SIGTERM while drawing continuation.png",
                 ["cd/branch.csv", "cd/continuation.gp"])


# ---- inputs that found nothing ----------------------------------------------

def floquet_cli(tmp):
    """nsmc sweep --floquet on m x'' + c x' + k x = F cos(w t) (m = 1, k =
    4, c = 0.2): the multipliers exp((-c/2 +- i sqrt(k - c^2/4)) T), T =
    2 pi / w, within the summary's 10 digits."""
    p = run(tmp, [NSMC, "sweep", DAMPED, "--param", "omega=1.3:3.1:3", "--section",
                  "period:2*pi/omega", "--transient", "100", "--record", "4", "--t-max", "1000",
                  "--floquet", "--out-dir", "fq", "--plot", "M.x"])
    check(p.returncode == 0, "nsmc sweep --floquet on the damped oscillator: exit 0", p)
    worst = 0.0
    for r in rows(os.path.join(tmp, "fq", "summary.csv")):
        w = float(r["omega [rad/s]"])
        mu = cmath.exp(complex(-0.1, math.sqrt(4 - 0.01)) * 2 * math.pi / w)
        got = [complex(s.replace("i", "j")) for s in r["multipliers"].split()]
        err = max(min(abs(g - mu), abs(g - mu.conjugate())) for g in got)
        worst = max(worst, err)
        print("  --floquet at omega = %g: %s against %.10f%+.10fi (error %.1e)"
              % (w, r["multipliers"], mu.real, abs(mu.imag), err))
        check(len(got) == 2 and abs(got[0] - got[1].conjugate()) < 1e-10,
              "a conjugate pair at omega = %g" % w)
    check(worst < 1e-9, "the sweep's multipliers within 1e-9 of the closed form (%.1e)" % worst)


FLOQUET = r'''
import cmath, math, sys
import nsm

m = nsm.compile(sys.argv[1])
worst_mu = worst_y = 0.0
for w in (1.3, 2.2, 3.1):
    T = 2 * math.pi / w
    mu = cmath.exp(complex(-0.1, math.sqrt(4 - 0.01)) * T)
    X = 1 / complex(4 - w * w, 0.2 * w)          # x(t) = Re(X e^(i w t))
    for meth in ("exact", "rk4", "adaptive"):
        y, mus = m.floquet("2*pi/omega", params={"omega": w}, method=meth)
        ey = max(abs(y[0] - X.real), abs(y[1] - (1j * w * X).real)) / abs(X)
        em = max(min(abs(a - mu), abs(a - mu.conjugate())) for a in mus)
        worst_y, worst_mu = max(worst_y, ey if meth != "rk4" else 0), max(worst_mu, em)
        print("  floquet omega = %g %-8s orbit within %.1e of |X|, multipliers within %.1e"
              % (w, meth, ey, em))
        assert ey < (1e-11 if meth == "rk4" else 1e-13), (w, meth, ey)
assert worst_mu < 1e-14, worst_mu
# near resonance without damping (w = 2 (1 - 1e-5)): rk4 refused naming the
# multiplier's distance from 1, exact within its rounding magnified by 1/|mu - 1|
w = 2 * (1 - 1e-5)
X = 1 / (4 - w * w)
try:
    m.floquet("2*pi/omega", params={"omega": w, "c": 0}, method="rk4")
    raise SystemExit("rk4 near resonance was not refused")
except nsm.SimulationError as e:
    print("  rk4 at 2 (1 - 1e-5) rad/s -> SimulationError %s" % str(e)[:110])
    assert "magnifies" in str(e), str(e)
y, mus = m.floquet("2*pi/omega", params={"omega": w, "c": 0}, method="exact")
print("  exact at 2 (1 - 1e-5) rad/s: x(0) = %.12g against %.12g" % (y[0], X))
assert abs(y[0] - X) < 1e-10 * X
'''


def floquet(tmp):
    floquet_cli(tmp)
    python_script(tmp, "floquet.py", FLOQUET, [DAMPED], "Model.floquet against the closed form "
                  "under exact, rk4 and adaptive, and the refusal near resonance")


def cont_refusals(tmp):
    """nsmc continue's options at their limits: refused before anything is
    written, with their cause."""
    base = [NSMC, "continue", CLEAR, "--param", "omega=1.3:0.5", "--max-points", "3"]
    for args, words in thin((
            (["--start", "1.9"], "expected 2 numbers"),
            (["--start", "nan,3"], "expected 2 numbers"),
            (["--start", "1.9,3,"], "expected 2 numbers"),
            (["--ds", "0"], "expected a positive number"),
            (["--ds", "inf"], "expected a positive number"),
            (["--ds", "1e300"], "ds-min <= ds <= ds-max"),
            (["--ds", "1e-300"], "ds-min <= ds <= ds-max"),
            (["--ds", "0.1", "--ds-max", "0.01"], "ds-min <= ds <= ds-max"),
            (["--tol", "1e-17"], "below the rounding of the parameter"),
            (["--periods", "1001"], "a whole number from 1 to 1000"),
            (["--transient", "1e12"], "a whole number from 0 to 100000000"),
            (["--max-points", "0"], "given twice"))):
        p = run(tmp, base + args + ["--out-dir", "cr"])
        print("  continue %-32s -> %d  %s" % (" ".join(args), p.returncode, said(p)[:90]))
        check(p.returncode == 1 and words in p.stderr and
              not os.path.exists(os.path.join(tmp, "cr")),
              "continue %s: exit 1, '%s', nothing written" % (" ".join(args), words), p)
    p = run(tmp, base + ["--start", "5,3", "--out-dir", "cr"])
    print("  continue --start 5,3 (inside the stop) -> %d  %s" % (p.returncode, said(p)))
    check(p.returncode == 3 and "penetrates the gap" in p.stderr and
          not os.path.exists(os.path.join(tmp, "cr", "branch.csv")),
          "a start inside the stop: exit 3, 'penetrates the gap', no branch.csv", p)


SAME = r'''
import csv, sys
import nsm

m = nsm.compile(sys.argv[1])
b = m.continuation("omega", 1.2185, 2.0, init={"M.x": 1.9, "M.v": 3}, ds_max=0.5)
rows = list(csv.reader(open("same/branch.csv")))[1:]
cli = [(float(r[0]), r[1], float(r[3]), float(r[4])) for r in rows]
kinds = ["start", "regular", "fold", "flip", "ns", "grazing", "switch"]
print("  Model.continuation: %d points, kinds %s" % (len(b.param), sorted(set(b.kind))))
py = [(float(b.param[i]), b.kind[i], float(b.y[i][0]), float(b.y[i][1]))
      for i in range(len(b.param))]
print("  nsmc continue: %d points; bit for bit: %s" % (len(cli), py == cli))
assert py == cli
'''


def cont_same(tmp):
    """Model.continuation against nsmc continue with --ds-max 0.5 (the
    finding's path): the same points bit for bit."""
    p = run(tmp, [NSMC, "continue", CLEAR, "--param", "omega=1.2185:2.0", "--start", "1.9,3",
                  "--ds-max", "0.5", "--out-dir", "same", "-q", "--no-plot"])
    check(p.returncode == 0, "nsmc continue --ds-max 0.5: exit 0", p)
    python_script(tmp, "same.py", SAME, [CLEAR], "Model.continuation gives nsmc continue's "
                  "branch bit for bit")


def figures(tmp):
    """gnuplot failing, a figure path that is a folder, and a sweep and a
    run stopped while a slow gnuplot draws."""
    env = fake_gnuplot(tmp, "echo 'gnuplot: no terminal' >&2; exit 1")
    p = run(tmp, [NSMC, "run", BALL, "--out-dir", "gf", "-q", "--t-end", "1"], env=env)
    print("  nsmc run, gnuplot failing -> %d  %s" % (p.returncode, said(p)))
    check(p.returncode == 1 and "gnuplot failed" in p.stderr and "no terminal" in p.stderr and
          whole_lines(os.path.join(tmp, "gf", "trajectory.csv")) == 101 and
          not os.path.exists(os.path.join(tmp, "gf", "plot.png")),
          "nsmc run with gnuplot failing: exit 1 with gnuplot's words, the results whole", p)
    os.makedirs(os.path.join(tmp, "fd", "bifurcation.svg"))
    p = run(tmp, [NSMC, "sweep", FIO, "--param", "omega=2:3:3"] + SEC + ["--out-dir", "fd"])
    print("  nsmc sweep, bifurcation.svg a folder -> %d  %s" % (p.returncode, said(p)))
    check(p.returncode == 1 and "Is a directory" in p.stderr and
          sorted(os.listdir(os.path.join(tmp, "fd"))) in (["bifurcation.svg"],
                                                          [".nsm-run.lock", "bifurcation.svg"]),
          "a sweep whose figure is a folder: exit 1 before the grid, nothing written", p)
    os.makedirs(os.path.join(tmp, "rd", "plot.png"))
    p = run(tmp, [NSMC, "run", BALL, "--out-dir", "rd", "-q", "--t-end", "1"])
    print("  nsmc run, plot.png a folder -> %d  %s" % (p.returncode, said(p)))
    # refused before the run, as a sweep refuses it (outdir_result_check)
    check(p.returncode == 1 and "Is a directory" in p.stderr and
          sorted(os.listdir(os.path.join(tmp, "rd"))) == ["plot.png"],
          "nsmc run whose plot.png is a folder: exit 1 before the run, nothing written", p)
    stop_drawing(tmp, "nsmc sweep",
                 [NSMC, "sweep", FIO, "--param", "omega=2:3:3"] + SEC + ["--out-dir", "sd"],
                 "stopped by SIGTERM while drawing bifurcation.png",
                 ["sd/section.csv", "sd/summary.csv", "sd/bifurcation.gp"])
    if not SANITIZED:       # its twin above; the time under the sanitizers kept
        stop_drawing(tmp, "nsmc run", [NSMC, "run", BALL, "--out-dir", "rs", "-q", "--t-end",
                                       "1"], "interrupted by SIGTERM while drawing the figures",
                     ["rs/trajectory.csv", "rs/events.csv", "rs/plot.gp"])


def jobs_signals(tmp):
    """A 400-point sweep on two jobs stopped by SIGINT, SIGTERM or SIGHUP at
    seeded moments: exit 0 or 128 + N with a message, every CSV file in
    whole lines of one width, no temporary, no half figure."""
    rnd = random.Random(14)
    args = [NSMC, "sweep", FIO, "--param", "omega=1.5:3:400", "--section", "period:2*pi/omega",
            "--transient", "50", "--record", "20", "--jobs", "2", "--out-dir", "sj"]
    p = run(tmp, args)              # builds the program: the moments below fall in the sweep
    check(p.returncode == 0, "the sweep runs whole: exit 0", p)
    env = env_for(tmp)
    for _ in range(3 if SANITIZED else 10):
        sig = rnd.choice((signal.SIGINT, signal.SIGTERM, signal.SIGHUP))
        delay = rnd.uniform(0.02, 0.4 * (3 if SANITIZED else 1))
        p = subprocess.Popen(args, cwd=tmp, env=env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
        time.sleep(delay)
        p.send_signal(sig)
        err = p.communicate(timeout=60)[1]
        d = os.path.join(tmp, "sj")
        for f in os.listdir(d):
            if f.endswith((".csv", ".partial", ".prev")):
                whole_lines(os.path.join(d, f))
            check(".tmp" not in f, "no temporary left: %s" % f)
            if f.endswith((".png", ".svg")):
                check(whole_figure(os.path.join(d, f)), "%s whole" % f)
        last = [ln for ln in err.splitlines() if "cached" not in ln][-1:]
        print("  %s after %.2f s -> %d  %s" % (sig.name, delay, p.returncode,
                                              (last[0] if last else "")[:100]))
        # a signal before nsmc has set its handlers (0.03 s in, 0.25 s under
        # the sanitizers, while it reads the model) ends it by the signal's
        # default action, before anything is written (the files checked above)
        check(p.returncode == 0 or (p.returncode == 128 + sig and "stopped by" in err) or
              (p.returncode == -sig and "error" not in err),
              "exit 0 or %d with 'stopped by' (or the signal's own end before the sweep began)"
              % (128 + sig))


def kept(tmp):
    floquet(tmp)
    cont_refusals(tmp)
    cont_same(tmp)
    figures(tmp)
    jobs_signals(tmp)


if __name__ == "__main__":
    sys.exit(main({"findings": findings, "kept": kept}, "nsm-fourteenth-prog-", case_arg=4))
