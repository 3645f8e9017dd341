#!/usr/bin/env python3
"""What the fourteenth hostile pass on the programs left as found (issue
#29, docs/status.md), each a check that failed before its fix.

    tests/reliability/leftovers15_prog_test.py NSMC SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  early      SIGTERM sent to `nsmc sweep`, `nsmc continue` and `nsmc run`
             while nsmc still reads the model (a FIFO that is written only
             after the signal: the moment before any handler of the study
             program or the simulator exists, deterministically): each says
             it was stopped, exit 143, the folder as a stop before the first
             point leaves it (nsmc ended by the signal's own action without
             a word).
  partial    a sweep into a folder where a stopped continuation left
             branch.csv.partial (and .prev) removes them once its results
             are in place and says so, and a continuation a stopped sweep's
             section.csv.partial and summary.csv.partial (they stayed
             without a word); a sweep's own partial files kept from a stop
             before stay.
  run        `nsmc run` into a folder holding a sweep's, a basin study's and
             a continuation's results and figures removes them once its own
             are in place (they stayed beside its own without a word); a file
             the run itself writes under such a name (--section-out
             DIR/section.csv) stays.
  tol        `nsmc continue --tol T` prints a special point with the digits
             T justifies (15 digits at --tol 1), each within T of the period
             doubling of the impact map at 2.6588845466848358.
  twice      -v given twice to nsmc sweep or continue, nsmc run's own flags
             twice (-v with --verbose, -q, --phase, --animate, --plot with
             --no-plot) and the simulator's (--summary, --phase, --lyapunov,
             --no-zeno) are refused, exit 1, nothing made (they were taken).
  inputs     a parameter file kept in the run's folder under a figure's name
             (DIR/plot.png, drawn over and removed as an earlier run's
             figure, exit 0) is refused before anything is written, and one
             kept under a study's result name (DIR/summary.csv, removed as a
             sweep's) stays, its values used.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import os
import re
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import SANITIZED, check, env_for, main, run  # noqa: E402

NSMC = os.path.abspath(sys.argv[1])
SRC = os.path.abspath(sys.argv[2])
FIO = os.path.join(SRC, "models", "forced_impact_oscillator.nsm")
SLOW = 3 if SANITIZED else 1

# the period doubling of the forced impact oscillator's period-1 orbit, from
# the impact map (docs/studies.md; tests/studies, no code of the runtime)
FLIP = 2.6588845466848358

SWEEP = ["--param", "omega=2:3:2", "--section", "impact:stop"]
CONT = ["--param", "omega=2.5:2.8", "--max-points", "5", "--no-plot"]


def listing(folder):
    """The names in folder, sorted, without the lock."""
    return sorted(f for f in os.listdir(folder) if f != ".nsm-run.lock")


# ---- early ------------------------------------------------------------------

def stopped_early(tmp, cmd, out):
    """Runs `nsmc CMD FIFO ... --out-dir out` whose model is a FIFO, sends
    SIGTERM while nsmc waits to read it, then writes the model into it; the
    CompletedProcess-like (returncode, stderr)."""
    fifo = os.path.join(tmp, "fifo", os.path.basename(FIO))   # its name is in the C
    if os.path.exists(fifo):
        os.unlink(fifo)
    os.makedirs(os.path.dirname(fifo), exist_ok=True)
    os.mkfifo(fifo)
    pr = subprocess.Popen([NSMC, cmd, fifo] + out, cwd=tmp, env=env_for(tmp),
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    time.sleep(0.3 * SLOW)     # nsmc is in open() of the FIFO, before any handler
    pr.send_signal(signal.SIGTERM)
    time.sleep(0.1)
    try:
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
    except OSError:             # nsmc died: no reader
        fd = -1
    if fd >= 0:
        with open(FIO, "rb") as f:
            os.write(fd, f.read())
        os.close(fd)
    try:
        err = pr.communicate(timeout=120 * SLOW)[1]
    except subprocess.TimeoutExpired:
        pr.kill()
        pr.communicate()
        raise OSError("nsmc %s still running 120 s after SIGTERM" % cmd)
    pr.stderr = err
    return pr


def case_early(tmp):
    """A stop before the handlers exist is said, exit 143."""
    cases = [("sweep", SWEEP, "stopped by SIGTERM: 0 of 2 points finished",
              ["section.csv.partial", "summary.csv.partial"]),
             ("continue", CONT, "interrupted by SIGTERM before the first point: nothing written",
              []),
             ("run", ["-q", "--no-plot"], "interrupted by SIGTERM", None)]
    for k, (cmd, args, said, left) in enumerate(cases):
        warm = run(tmp, [NSMC, cmd, FIO] + args + ["--out-dir", "warm%d" % k],
                   timeout=180 * SLOW)   # the program cached: the FIFO's run execs it at once
        check(warm.returncode == 0, "nsmc %s runs (its program cached)" % cmd, warm)
        out = "o%d" % k
        pr = stopped_early(tmp, cmd, args + ["--out-dir", out])
        err = pr.stderr
        files = listing(os.path.join(tmp, out)) if os.path.isdir(os.path.join(tmp, out)) else []
        print("  nsmc %s, SIGTERM while reading the model: exit %d, %r, folder %s"
              % (cmd, pr.returncode, err.strip().splitlines()[-1:], files))
        check(pr.returncode == 128 + signal.SIGTERM and said in err,
              "nsmc %s stopped before its handlers: '%s', exit 143 (it ended by the signal "
              "without a word)" % (cmd, said), pr)
        check(not any(".tmp" in f for f in files), "nsmc %s: no temporary left" % cmd)
        if left is not None:
            check(files == left, "nsmc %s: the folder holds %s" % (cmd, left or "nothing"))
        for f in files:
            if f.endswith(".partial"):
                lines = open(os.path.join(tmp, out, f)).read().splitlines()
                check(len(lines) == 1, "%s holds its header alone" % f)


# ---- partial ----------------------------------------------------------------

def case_partial(tmp):
    """An earlier study's partial files go with its complete ones, said."""
    d = os.path.join(tmp, "p")
    os.makedirs(d)
    planted = {"branch.csv.partial": "omega,x\n2.5,1\n", "branch.csv.partial.prev": "omega,x\n",
               "curve.csv.partial": "omega,e\n", "branch.csv": "omega\n",
               "section.csv.partial.prev": "point\n"}
    for name, text in planted.items():
        with open(os.path.join(d, name), "w") as f:
            f.write(text)
    p = run(tmp, [NSMC, "sweep", FIO] + SWEEP + ["--out-dir", "p"], timeout=180 * SLOW)
    files = listing(d)
    print("  sweep into a stopped continuation's folder: exit %d, %s" % (p.returncode, files))
    check(p.returncode == 0, "the sweep runs", p)
    for name in ("branch.csv.partial", "branch.csv.partial.prev", "curve.csv.partial"):
        check(name not in files and "removed 'p/%s'" % name in p.stderr,
              "the sweep removes %s once its results are in place, and says so (it stayed "
              "without a word)" % name, p)
    check("branch.csv" not in files, "the complete branch.csv goes as before")
    check("section.csv.partial.prev" in files and "section.csv.partial.prev" not in p.stderr,
          "a sweep's own partial file kept from a stop before stays, unsaid")
    check({"section.csv", "summary.csv", "bifurcation.png"} <= set(files),
          "the sweep's results are in place")
    for name in ("section.csv.partial", "summary.csv.partial"):
        with open(os.path.join(d, name), "w") as f:
            f.write("point\n")
    p = run(tmp, [NSMC, "continue", FIO] + CONT + ["--out-dir", "p"], timeout=180 * SLOW)
    files = listing(d)
    print("  continuation into a stopped sweep's folder: exit %d, %s" % (p.returncode, files))
    check(p.returncode == 0 and files == ["branch.csv"],
          "the continuation leaves its branch.csv alone in the folder", p)
    for name in ("section.csv.partial", "summary.csv.partial", "section.csv.partial.prev"):
        check("removed 'p/%s'" % name in p.stderr, "the continuation says it removed %s" % name, p)


# ---- run --------------------------------------------------------------------

STUDY_FILES = ["section.csv", "summary.csv", "bifurcations.csv", "basins.csv", "attractors.csv",
               "branch.csv", "curve.csv", "bifurcation.png", "bifurcation.svg", "bifurcation.gp",
               "lyapunov.png", "basins.svg", "continuation.png", "curve.gp", "branch.csv.partial"]


def case_run(tmp):
    """nsmc run clears a study's results from its folder once its own are in."""
    d = os.path.join(tmp, "r")
    os.makedirs(d)
    for name in STUDY_FILES:
        with open(os.path.join(d, name), "w") as f:
            f.write("a study's\n")
    p = run(tmp, [NSMC, "run", FIO, "--out-dir", "r", "-q", "--no-plot"], timeout=180 * SLOW)
    files = listing(d)
    print("  nsmc run into a studies' folder: exit %d, %s" % (p.returncode, files))
    check(p.returncode == 0 and files == ["events.csv", "trajectory.csv"],
          "nsmc run leaves its own results alone in the folder (the studies' stayed)", p)
    check("removed 'r/branch.csv.partial'" in p.stderr, "the partial file's removal is said", p)
    for name in STUDY_FILES:
        with open(os.path.join(d, name), "w") as f:
            f.write("a study's\n")
    p = run(tmp, [NSMC, "run", FIO, "--out-dir", "r", "-q", "--no-plot", "--",
                  "--section-out", "r/section.csv", "--section", "impact:stop"], timeout=180 * SLOW)
    files = listing(d)
    sec = open(os.path.join(d, "section.csv")).read()
    print("  nsmc run --section-out r/section.csv: exit %d, %s" % (p.returncode, files))
    check(p.returncode == 0 and files == ["events.csv", "section.csv", "trajectory.csv"] and
          sec != "a study's\n", "the run's own section.csv stays, the studies' files go", p)


# ---- tol --------------------------------------------------------------------

def case_tol(tmp):
    """Special points printed with the digits their tolerance justifies."""
    # at --tol 1, wider than the range [2.5, 2.8], the point is printed to
    # the range's width (2.7: it read 3, outside the range; leftovers16_prog)
    for tol, digits in (("1", 2), ("1e-3", 4), ("1e-6", 7), ("1e-10", 11)):
        p = run(tmp, [NSMC, "continue", FIO, "--param", "omega=2.5:2.8", "--no-plot",
                      "--tol", tol, "--out-dir", "t"], timeout=180 * SLOW)
        m = re.search(r"^flip\s+omega = (\S+)", p.stdout, re.M)
        print("  --tol %-6s: %s" % (tol, m.group(0) if m else p.stdout.strip()[-200:]))
        check(p.returncode == 0 and m, "--tol %s: the flip is reported" % tol, p)
        text = m.group(1)
        sig = len(re.sub(r"^0*", "", text.replace(".", "").replace("-", "")))
        check(sig <= digits, "--tol %s: %s has at most %d significant digits (15 printed)"
              % (tol, text, digits))
        check(abs(float(text) - FLIP) <= float(tol),
              "--tol %s: %s within %s of the impact map's %.17g" % (tol, text, tol, FLIP))


# ---- twice ------------------------------------------------------------------

def case_twice(tmp):
    """A flag given twice is refused as an option given twice."""
    cases = [("sweep", SWEEP + ["-v", "-v"], "option -v is given twice"),
             ("continue", CONT + ["-v", "-v"], "option -v is given twice"),
             ("run", ["-v", "--verbose"], "options -v and --verbose are given together"),
             ("run", ["-q", "-q"], "option -q is given twice"),
             ("run", ["--phase", "--phase"], "option --phase is given twice"),
             ("run", ["--animate", "--animate"], "option --animate is given twice"),
             ("run", ["--plot", "--no-plot"], "options --plot and --no-plot are given together"),
             ("run", ["--summary", "--summary"], "option --summary is given twice"),
             ("run", ["--no-zeno", "--", "--no-zeno"], "option --no-zeno is given twice"),
             ("run", ["--", "--lyapunov", "--lyapunov"], "option --lyapunov is given twice"),
             ("run", ["--", "--phase", "--phase"], "option --phase is given twice")]
    for k, (cmd, args, said) in enumerate(cases):
        out = "o%d" % k
        extra = args.index("--") if "--" in args else len(args)
        full = [NSMC, cmd, FIO] + args[:extra] + ["--out-dir", out] + args[extra:]
        p = run(tmp, full, timeout=180 * SLOW)
        print("  nsmc %s %s: exit %d, %s" % (cmd, " ".join(args), p.returncode,
                                            p.stderr.strip().splitlines()[-1:]))
        made = os.path.exists(os.path.join(tmp, out)) and listing(os.path.join(tmp, out))
        check(p.returncode == 1 and said in p.stderr and not made,
              "nsmc %s %s: '%s', exit 1, nothing written (it was taken)"
              % (cmd, " ".join(args), said), p)


# ---- inputs -----------------------------------------------------------------

def case_inputs(tmp):
    """A run's inputs in its own folder are neither drawn over nor cleared."""
    d = os.path.join(tmp, "o")
    os.makedirs(d)
    ball = os.path.join(SRC, "models", "bouncing_ball.nsm")
    for name in ("plot.png", "plot.svg", "plot.gp", "phase.png", "path.svg", "animation.gif"):
        pf = os.path.join(d, name)
        with open(pf, "w") as f:
            f.write("e = 0.5\n")
        p = run(tmp, [NSMC, "run", ball, "--set-file", pf, "--out-dir", "o", "-q"],
                timeout=180 * SLOW)
        kept = open(pf, "rb").read() if os.path.exists(pf) else None
        print("  --set-file o/%s --out-dir o: exit %d, file %r" % (name, p.returncode,
                                                                kept and kept[:16]))
        check(p.returncode == 1 and "is the parameter file" in p.stderr and kept == b"e = 0.5\n"
              and not os.path.exists(os.path.join(d, "trajectory.csv")),
              "a parameter file named as the run's figure %s is refused, nothing written "
              "(it was drawn over or removed, exit 0)" % name, p)
        os.unlink(pf)
    pf = os.path.join(d, "summary.csv")
    with open(pf, "w") as f:
        f.write("e = 0.5\n")
    p = run(tmp, [NSMC, "run", ball, "--set-file", pf, "--out-dir", "o", "-q", "--no-plot"],
            timeout=180 * SLOW)
    kept = open(pf).read() if os.path.exists(pf) else None
    print("  --set-file o/summary.csv --out-dir o: exit %d, file %r" % (p.returncode, kept))
    check(p.returncode == 0 and kept == "e = 0.5\n",
          "a parameter file under a study's result name stays (it was removed as a sweep's)", p)
    # the file's e = 0.5 was used (the model's is 0.9): the ball dropped from
    # 1 m comes to rest at t1 (1 + e)/(1 - e), t1 = sqrt(2/g)
    with open(os.path.join(d, "events.csv")) as f:
        zeno = [float(r.split(",")[0]) for r in f.read().splitlines()[1:] if ",zeno," in r]
    t_rest = (2 / 9.81) ** 0.5 * 1.5 / 0.5
    print("  its Zeno point %s, closed form %.17g" % (zeno, t_rest))
    check(len(zeno) == 1 and abs(zeno[0] - t_rest) < 1e-9,
          "the parameter file's e = 0.5 is the run's (Zeno point at t1 (1 + e)/(1 - e))", p)


if __name__ == "__main__":
    sys.exit(main({"early": case_early, "partial": case_partial, "run": case_run,
                   "tol": case_tol, "twice": case_twice,
                   "inputs": case_inputs}, "nsm-left15prog-", case_arg=3))
