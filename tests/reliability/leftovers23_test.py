#!/usr/bin/env python3
"""What the twenty-first hostile passes left as found (issue #29,
docs/fuzzing.md), each a check that failed before its fix.

    tests/reliability/leftovers23_test.py NSMC SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  lockleft   a refused `nsmc run` (a simulator option's bad value) and a
             failed continuation left their new out-dir holding only
             `.nsm-run.lock`; `nsmc run`, a sweep, a continuation and a
             simulator's `--plot P` left `.nsm-run.lock` among their
             results.  Now the lock goes at the program's end, and a
             folder the program made that holds nothing else goes with
             it (its parents made too); a folder that was there before
             stays, with the user's files; a user's file under the lock's
             name is left as it was.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import SANITIZED, check, env_for, main  # noqa: E402

NSMC = os.path.abspath(sys.argv[1])
SRC = os.path.abspath(sys.argv[2])
SLOW = 4 if SANITIZED else 1
BALL = os.path.join(SRC, "models", "bouncing_ball.nsm")
FIO = os.path.join(SRC, "models", "forced_impact_oscillator.nsm")
LOCK = ".nsm-run.lock"


def go(tmp, cmd, timeout=120, env=None):
    """Runs cmd in tmp with its own cache (env's variables added); the
    CompletedProcess."""
    full = env_for(tmp)
    full.update(env or {})
    return subprocess.run(cmd, cwd=tmp, env=full, capture_output=True, text=True,
                          errors="replace", timeout=timeout * SLOW)


def last(p):
    """The last line of p's standard error, for the printed outcome."""
    lines = p.stderr.strip().splitlines()
    return lines[-1][:110] if lines else ""


def names(folder):
    """The sorted names in folder, or None when it is not there."""
    return sorted(os.listdir(folder)) if os.path.isdir(folder) else None


def cached(tmp, name):
    """The simulator called name in tmp's program cache."""
    for root, _, files in os.walk(os.path.join(tmp, "cache")):
        if name in files and os.access(os.path.join(root, name), os.X_OK):
            return os.path.join(root, name)
    check(False, "the simulator %s is in the cache" % name)
    return None


def first_landing(path):
    """The time of the first impact in the events CSV at path."""
    with open(path) as f:
        for line in f:
            cells = line.strip().split(",")
            if len(cells) > 1 and cells[1] == "impact":
                return float(cells[0])
    return None


# ---- lockleft ----------------------------------------------------------------

def case_lockleft(tmp):
    """The folder lock removed at the end, and a folder made for nothing."""
    bad = ["--", "--t-end=-1"]
    for label, out in (("a new folder N", "N"), ("new folders A/B/N", "A/B/N")):
        p = go(tmp, [NSMC, "run", BALL, "--out-dir", out, "-q", "--no-plot"] + bad)
        top = os.path.join(tmp, out.split("/")[0])
        print("  nsmc run --out-dir %s -- --t-end=-1 -> %d  %s; %s: %s"
              % (out, p.returncode, last(p), out.split("/")[0], names(top)))
        check(p.returncode == 1 and "--t-end" in p.stderr and not os.path.exists(top),
              "refused run into %s: exit 1, the cause named, no folder left" % label, p)
    # a folder of the user's: kept, with its files, whatever the run's end
    for label, files in (("an empty folder E", []), ("a folder F with notes.txt", ["notes.txt"])):
        d = os.path.join(tmp, label.split()[-1 if not files else -3])
        os.makedirs(d)
        for f in files:
            with open(os.path.join(d, f), "w") as h:
                h.write("mine\n")
        p = go(tmp, [NSMC, "run", BALL, "--out-dir", d, "-q", "--no-plot"] + bad)
        print("  nsmc run --out-dir %s -- --t-end=-1 -> %d; left %s"
              % (os.path.basename(d), p.returncode, names(d)))
        check(p.returncode == 1 and names(d) == files,
              "refused run into %s: the folder kept as it was" % label, p)
    # a continuation that fails once its folder is locked
    p = go(tmp, [NSMC, "continue", BALL, "--param", "e=0.5:0.9", "--period", "1",
                 "--out-dir", "C"])
    print("  nsmc continue BALL --param e=0.5:0.9 --period 1 --out-dir C -> %d  %s; C: %s"
          % (p.returncode, last(p), names(os.path.join(tmp, "C"))))
    check("no point computed" in p.stderr and not os.path.exists(os.path.join(tmp, "C")),
          "failed continuation: no folder C left", p)
    # results: the lock gone, the results there; the first landing of the
    # ball dropped from 1 m at sqrt(2 h / g) (rk4's 1 ms steps: within 1e-9 s)
    want = math.sqrt(2 * 1.0 / 9.81)
    p = go(tmp, [NSMC, "run", BALL, "--out-dir", "D/R", "-q", "--no-plot", "--", "--t-end",
                 "1"])
    got = names(os.path.join(tmp, "D", "R"))
    print("  nsmc run --out-dir D/R --t-end 1 -> %d; D/R: %s" % (p.returncode, got))
    check(p.returncode == 0 and got == ["events.csv", "trajectory.csv"],
          "nsmc run: its results, no lock left", p)
    t = first_landing(os.path.join(tmp, "D", "R", "events.csv"))
    print("    first landing at %r s (by hand sqrt(2 h/g) = %.12g s)" % (t, want))
    check(t is not None and abs(t - want) < 1e-9, "the landing at sqrt(2 h/g)")
    sim = cached(tmp, "bouncing_ball")
    p = go(tmp, [sim, "--t-end", "1", "--plot", "P"])
    got = names(os.path.join(tmp, "P"))
    print("  simulator --t-end 1 --plot P -> %d; P: %s" % (p.returncode, got))
    check(p.returncode == 0 and got and "trajectory.csv" in got and LOCK not in got,
          "simulator --plot P: its results, no lock left", p)
    p = go(tmp, [sim, "--t-end", "-1", "--plot", "Q"])
    print("  simulator --t-end -1 --plot Q -> %d; Q: %s" % (p.returncode,
                                                        names(os.path.join(tmp, "Q"))))
    check(p.returncode == 1 and not os.path.exists(os.path.join(tmp, "Q")),
          "simulator refused: no folder Q", p)
    p = go(tmp, [NSMC, "sweep", FIO, "--param", "omega=2:3:2", "--section",
                 "period:2*pi/omega", "--transient", "5", "--record", "2", "--out-dir", "W"])
    got = names(os.path.join(tmp, "W"))
    print("  nsmc sweep FIO --param omega=2:3:2 --out-dir W -> %d; W: %s" % (p.returncode, got))
    check(p.returncode == 0 and got and "summary.csv" in got and LOCK not in got,
          "nsmc sweep: its results, no lock left", p)
    p = go(tmp, [NSMC, "continue", FIO, "--param", "omega=2:3", "--out-dir", "K"])
    got = names(os.path.join(tmp, "K"))
    print("  nsmc continue FIO --param omega=2:3 --out-dir K -> %d; K: %s" % (p.returncode, got))
    check(p.returncode == 0 and got and "branch.csv" in got and LOCK not in got,
          "nsmc continue: its results, no lock left", p)
    # a lock left by a killed run (its process id, no holder): taken, then removed
    with open(os.path.join(tmp, "D", "R", LOCK), "w") as f:
        f.write("999999999\n")
    p = go(tmp, [NSMC, "run", BALL, "--out-dir", "D/R", "-q", "--no-plot", "--", "--t-end",
                 "1"])
    got = names(os.path.join(tmp, "D", "R"))
    print("  nsmc run --out-dir D/R, a killed run's lock there -> %d; D/R: %s"
          % (p.returncode, got))
    check(p.returncode == 0 and got == ["events.csv", "trajectory.csv"],
          "a killed run's lock taken and removed", p)
    # a file of the user's under the lock's name: refused, left as it was
    os.makedirs(os.path.join(tmp, "U"))
    with open(os.path.join(tmp, "U", LOCK), "w") as f:
        f.write("my notes\n")
    p = go(tmp, [NSMC, "run", BALL, "--out-dir", "U", "-q", "--no-plot", "--", "--t-end", "1"])
    with open(os.path.join(tmp, "U", LOCK)) as f:
        kept = f.read()
    print("  nsmc run --out-dir U, U/%s the user's notes -> %d; U: %s, the notes %s"
          % (LOCK, p.returncode, names(os.path.join(tmp, "U")),
             "kept" if kept == "my notes\n" else "changed"))
    check(p.returncode == 1 and names(os.path.join(tmp, "U")) == [LOCK] and
          kept == "my notes\n", "a user's file under the lock's name left as it was", p)


if __name__ == "__main__":
    sys.exit(main({n[5:]: f for n, f in globals().items() if n.startswith("case_")},
                  "nsm-left23-", 3))
