#!/usr/bin/env python3
"""A nineteenth hostile pass over the programs and the Python package
(issue #29): outputs named like the files a program writes itself (the
simulator's --plot folder, `nsmc run`'s folder and its lock, the GIF),
option orders, odd paths and signals.

    tests/reliability/nineteenth_pass_prog_test.py NSMC SIM SOURCE_DIR CASE

SIM is sim_bouncing_ball.  Cases (each under 20 s in the normal build):
  findings_plot   the simulator's --plot DIR beside an output named as one
                  of the plot's own files (DIR/plot.svg, DIR/plot.log,
                  DIR/phase.png, ...): the run ended 0 and the figure or
                  gnuplot's log took the output's place; --out DIR/plot.svg
                  ended "no plot: cannot read"; --events DIR/trajectory.csv
                  "in use by another running program"; --animate F.gif
                  beside --out, --stats or --lyapunov-out F.gif kept the GIF
                  alone, exit 0.  Now each is refused before anything is
                  made, naming both options or the plot's file.  --set-file
                  DIR/summary.csv (a study's name) was removed from the plot
                  folder as an earlier study's result, exit 0; now kept.
                  --animate /dev/null/x.gif or a GIF named as a folder: the
                  whole run, then exit 1; now refused before it.
  findings_run    `nsmc run` with --stats DIR/plot.svg (removed with the old
                  figures, exit 0), --stats DIR/.nsm-run.lock (written into
                  the folder's lock, exit 0, every later run refused),
                  --animate DIR/animation.gif after '--': now refused
                  before the run, the folder left as it was.  --phase with
                  --no-plot was taken without a word (nothing drawn); now
                  refused, as the simulator refuses --phase without --plot.
  findings_sweep  nsmc sweep --plot phase of an impact or plane section
                  without --section-period: the whole grid, then exit 1,
                  gnuplot's "all points y value undefined"; now refused
                  before the grid.
  findings_cont   nsmc continue and Model.continuation over a range whose
                  end the model rejects (--param e=0.8:1.5, zeta=0.05:-0.05,
                  a curve's --param2 e=0.8:1.5): the branch ended near the
                  bound, exit 0, a note blaming the orbit's impact count (a
                  FROM the model rejects: exit 3, "continuation failed");
                  now refused before the branch naming the end.  A curve
                  whose branch --max-points cut before its period doubling
                  said the branch "has no period-doubling point"; now the
                  cap is named.
  findings_note   nsm.compile's note on a damaged cache entry onto a stderr
                  on /dev/full or a pipe whose reader is gone: nsm.Error
                  "the call raised OSError", the entry left damaged; with
                  stderr closed the note went to stdout.  Now the note alone
                  is lost, as the warnings module loses a warning.
  findings_py     Model.section and Model.sweep with a section "period:0",
                  "period:-1", "period:1:-1": a SimulationError (the class
                  of a run that failed) where the command line refuses the
                  option (exit 1) and "period:1e-300" is a SettingError; now
                  a SettingError naming the section.
  kept            inputs that found nothing, kept: 20 simulator option sets
                  refused before the run, --set and --set-file in both
                  orders (the later wins), an output folder moved away and a
                  file put in its place mid-run (CSV and HDF5 whole in the
                  moved folder, the HDF5 file renamed there through its
                  folder's handle since left21prog_h5move).
  kept_py         Python's run, section, lyapunov and continuation stopped
                  by SIGINT and by _thread.interrupt_main: Interrupted with
                  the partial result, pickled and back.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import math
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import Failure, check, env_for, main, python_script, run, whole_lines  # noqa: E402

NSMC, SIM = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
SRC = os.path.abspath(sys.argv[3])
BALL = os.path.join(SRC, "models", "bouncing_ball.nsm")
FIO = os.path.join(SRC, "models", "forced_impact_oscillator.nsm")

# the ball of models/bouncing_ball.nsm (m = 1 kg, g = 9.81 m/s^2, e = 0.9)
# dropped from 1 m lands at sqrt(2 h / g) (free fall, by hand)
T_LAND = math.sqrt(2 * 1.0 / 9.81)


def last_line(p):
    """The last line of a run's stderr that is not about the cache."""
    lines = [ln for ln in (p.stderr or "").strip().splitlines()
             if "cached" not in ln and "compiling the" not in ln and ln != "(try --help)"]
    return (lines[-1] if lines else "")[:150]


def listing(folder):
    """The sorted names in folder, or None when it is not there."""
    return sorted(os.listdir(folder)) if os.path.isdir(folder) else None


def landing_ok(events):
    """Whether the first event of an events CSV is the landing at sqrt(2 h / g)."""
    rows = [ln.split(",") for ln in open(events).read().splitlines()[1:]]
    return bool(rows) and rows[0][1] == "impact" and abs(float(rows[0][0]) - T_LAND) < 1e-9


# ---- findings ---------------------------------------------------------------

# (options, the words the refusal must hold); P does not exist before each
PLOT_CLASHES = [
    (["--plot", "P", "--stats", "P/plot.svg"], ["--stats", "P/plot.svg", "--plot P"]),
    (["--plot", "P", "--events", "P/plot.log"], ["--events", "P/plot.log"]),
    (["--plot", "P", "--section", "impact:floor", "--section-out", "P/plot.gp"],
     ["--section-out", "P/plot.gp"]),
    (["--plot", "P", "--out", "P/plot.svg"], ["--out", "P/plot.svg"]),
    (["--plot", "P", "--phase", "--stats", "./P/phase.png"], ["--stats", "./P/phase.png"]),
    (["--plot", "P", "--stats", "P//plot.png"], ["--stats", "P//plot.png"]),
    (["--plot", "a/b/P", "--events", "a/b/P/path.svg"], ["--events", "a/b/P/path.svg"]),
    (["--plot", "P", "--events", "P/trajectory.csv"], ["--out", "--events", "--plot P"]),
    (["--plot", "P/", "--stats", "P/events.csv"], ["--events", "--stats"]),
    (["--lyapunov", "--lyapunov-out", "plot.png", "--plot", "."], ["--lyapunov-out", "plot.png"]),
]

ANIM_CLASHES = [
    (["--out", "a.gif", "--animate", "a.gif"], ["--out", "--animate"]),
    (["--stats", "b.gif", "--animate", "./b.gif"], ["--stats", "--animate"]),
    (["--lyapunov", "--lyapunov-out", "c.gif", "--animate", "c.gif"],
     ["--lyapunov-out", "--animate"]),
    (["--events", "d.gif", "--animate", "d.gif"], ["--events", "--animate"]),
]


def case_findings_plot(tmp):
    """The simulator's outputs named as the --plot folder's own files, and
    as its GIF."""
    for opts, words in PLOT_CLASHES + ANIM_CLASHES:
        for f in ("P", "a"):
            subprocess.run(["rm", "-rf", os.path.join(tmp, f)])
        p = run(tmp, [SIM, "--t-end", "1"] + opts)
        made = [f for f in ("P", "a", "a.gif", "b.gif", "c.gif", "d.gif")
                if os.path.lexists(os.path.join(tmp, f))]
        print("  %-62s -> %d  %s" % (" ".join(opts), p.returncode, last_line(p) if
                                     p.returncode else "made %s" % made))
        check(p.returncode == 1 and all(w in p.stderr for w in words) and not made,
              "%s: refused (exit 1) naming %s, nothing made" % (" ".join(opts), words), p)
    # a GIF that cannot be written, known before the run: its folder a
    # device, its name a folder's
    os.makedirs(os.path.join(tmp, "dir.gif"), exist_ok=True)
    for gif, why in (("/dev/null/x.gif", "Not a directory"), ("dir.gif", "Is a directory"),
                     ("./dir.gif", "Is a directory")):
        p = subprocess.run([SIM, "--t-end", "1", "--animate", gif], cwd=tmp, env=env_for(tmp),
                           capture_output=True, text=True, timeout=60)
        print("  --animate %-16s -> %d, %d bytes of event table  %s"
              % (gif, p.returncode, len(p.stdout), last_line(p)))
        check(p.returncode == 1 and p.stdout == "" and why in p.stderr and
              "no animation" not in p.stderr,
              "--animate %s: refused before the run (%s)" % (gif, why), p)
    # a parameter file of the user's in the plot folder, under a name a
    # study writes, is the run's input and stays
    for name in ("summary.csv", "branch.csv", "basins.csv"):
        os.makedirs(os.path.join(tmp, "R"), exist_ok=True)
        with open(os.path.join(tmp, "R", name), "w") as f:
            f.write("e = 0.5\n")
        p = run(tmp, [SIM, "--t-end", "1", "--plot", "R", "--set-file", "R/" + name])
        kept = os.path.exists(os.path.join(tmp, "R", name))
        print("  --plot R --set-file R/%-14s -> %d  the parameter file %s" %
              (name, p.returncode, "kept" if kept else "REMOVED"))
        check(p.returncode == 0 and kept and open(os.path.join(tmp, "R", name)).read() ==
              "e = 0.5\n", "--set-file R/%s: the user's parameter file kept" % name, p)
    # the outputs of one's own beside the plot stay as they were
    p = run(tmp, [SIM, "--t-end", "1", "--plot", "Q", "--out", "Q/branch.csv", "--stats",
                  "Q/stats.csv"])
    got = listing(os.path.join(tmp, "Q"))
    print("  --plot Q --out Q/branch.csv --stats Q/stats.csv -> %d  %s" % (p.returncode, got))
    check(p.returncode == 0 and {"branch.csv", "stats.csv", "events.csv", "plot.svg"} <= set(got)
          and landing_ok(os.path.join(tmp, "Q", "events.csv")),
          "an output of its own in the plot folder is written, the landing at sqrt(2 h/g)", p)


RUN_CLASHES = [
    (["--stats", "D/plot.svg"], "--stats 'D/plot.svg' is the run's own file"),
    (["--stats", "D/.nsm-run.lock"], "--stats 'D/.nsm-run.lock' is the run's own lock"),
    (["--section", "impact:floor", "--section-out", "./D/plot.gp"],
     "--section-out './D/plot.gp' is the run's own file"),
    (["--", "--animate", "D/animation.gif"], "--animate 'D/animation.gif' is the run's own file"),
    (["--", "--lyapunov", "--lyapunov-out", "D/.nsm-run.lock"],
     "--lyapunov-out 'D/.nsm-run.lock' is the run's own lock"),
    (["--phase"], "--phase draws phase portraits beside the plots: it cannot be given with "
     "--no-plot"),
]


def case_findings_run(tmp):
    """`nsmc run` with a simulator output named as its folder's own files or
    its lock: refused before the run, whether the folder is there or not."""
    for there in (False, True):
        for opts, words in RUN_CLASHES:
            d = os.path.join(tmp, "D")
            subprocess.run(["rm", "-rf", d])
            if there:
                p = run(tmp, [NSMC, "run", BALL, "--out-dir", "D", "--no-plot", "-q",
                              "--t-end", "1"])
                check(p.returncode == 0, "a first run into D", p)
            before = listing(d)
            lockf = os.path.join(d, ".nsm-run.lock")
            lock = open(lockf).read() if there and os.path.exists(lockf) else None
            p = run(tmp, [NSMC, "run", BALL, "--out-dir", "D", "--no-plot", "-q",
                          "--t-end", "1"] + opts)
            after = listing(d)
            print("  %s %-50s -> %d  %s" % ("into D:" if there else "no D:  ", " ".join(opts),
                                            p.returncode, last_line(p)))
            check(p.returncode == 1 and words in p.stderr and after == before and
                  (lock is None or open(lockf).read() == lock),
                  "%s: refused, its reason said, the folder as it was" % " ".join(opts),
                  p)
        p = run(tmp, [NSMC, "run", BALL, "--out-dir", "D", "--no-plot", "-q", "--t-end", "1"])
        check(p.returncode == 0 and landing_ok(os.path.join(tmp, "D", "events.csv")),
              "the next run into D is taken, the landing at sqrt(2 h/g)", p)
    p = run(tmp, [NSMC, "run", BALL, "--out-dir", "D", "--no-plot", "-q", "--t-end", "1",
                  "--stats", "D/stats.csv"])
    check(p.returncode == 0 and os.path.getsize(os.path.join(tmp, "D", "stats.csv")) > 0,
          "--stats D/stats.csv, a name of the user's, is written", p)


def case_findings_sweep(tmp):
    """`nsmc sweep --plot phase` of a section without a phase period: refused
    before the grid (the whole grid ran, then gnuplot failed on a column of
    nan); with --section-period, or a stroboscopic section, drawn."""
    base = [NSMC, "sweep", FIO, "--transient", "5", "--record", "5", "--param",
            "omega=2.5:2.6:3", "--plot", "phase"]
    for section, extra, ok in (("impact:stop", [], False), ("plane:M.x", [], False),
                               ("impact:stop", ["--section-period", "2*pi/omega"], True),
                               ("period:2*pi/omega", [], True)):
        d = os.path.join(tmp, "S")
        subprocess.run(["rm", "-rf", d])
        p = run(tmp, base + ["--section", section, "--out-dir", "S"] + extra, timeout=300)
        got = listing(d)
        print("  --section %-18s %-30s --plot phase -> %d  %s" % (section, " ".join(extra),
                                                                  p.returncode, last_line(p)))
        if ok:
            check(p.returncode == 0 and "bifurcation.png" in got,
                  "--section %s %s: the phase drawn" % (section, " ".join(extra)), p)
        else:
            check(p.returncode == 1 and "--plot phase: the phase column of section.csv is nan "
                  "without --section-period" in p.stderr and got is None,
                  "--section %s: refused before the grid, nothing made" % section, p)


CONT_ENDS = [
    (["--param", "e=0.8:1.5"], "--param e=0.8:1.5: the model cannot start at e = 1.5 (TO)"),
    (["--param", "e=1.5:0.8"], "--param e=1.5:0.8: the model cannot start at e = 1.5 (FROM)"),
    (["--param", "zeta=0.05:-0.05"], "the model cannot start at zeta = -0.05 (TO)"),
    (["--param", "omega=2.5:2.8", "--curve", "flip", "--param2", "e=0.8:1.5"],
     "--param2 e=0.8:1.5: the model cannot start at e = 1.5 (TO)"),
]

PY_ENDS = r'''
import sys
import nsm
f = nsm.compile(sys.argv[1])
for args in (("e", 0.8, 1.5), ("e", 1.5, 0.8), ("zeta", 0.05, -0.05),
             ("omega", 2.5, 2.8, "flip", "e", 0.8, 1.5)):
    try:
        b = f.continuation(*args)
        raise SystemExit("continuation%r: accepted, %d points, %s" % (args, len(b), b.message))
    except nsm.Error as e:
        print("  continuation%-38r %s: %s" % (args, type(e).__name__, str(e)[:80]))
        assert type(e) is nsm.ParameterError and "the model cannot start at" in str(e), args
b = f.continuation("omega", 2.5, 2.8)
print("  continuation('omega', 2.5, 2.8): %d points, %r" % (len(b), b.message))
assert len(b) > 5
'''


def case_findings_cont(tmp):
    """A continued range whose end the model rejects (a restitution above
    1, a negative damping): refused naming the end, by nsmc continue (exit
    1, nothing made) and by Model.continuation (ParameterError); a range
    inside the model's values runs."""
    for opts, words in CONT_ENDS:
        p = run(tmp, [NSMC, "continue", FIO, "--no-plot", "--out-dir", "C"] + opts, timeout=300)
        print("  %-52s -> %d  %s" % (" ".join(opts), p.returncode, last_line(p)[:110]))
        check(p.returncode == 1 and words in p.stderr and listing(os.path.join(tmp, "C")) is None,
              "%s: refused before the branch, naming the end" % " ".join(opts), p)
    p = run(tmp, [NSMC, "continue", FIO, "--no-plot", "--out-dir", "C", "--param",
                  "omega=2.5:2.8"], timeout=300)
    rows = open(os.path.join(tmp, "C", "branch.csv")).read().splitlines()[1:]
    ps = [float(r.split(",")[0]) for r in rows]
    check(p.returncode == 0 and len(ps) > 5 and all(2.5 <= x <= 2.8 for x in ps),
          "--param omega=2.5:2.8: %d points inside the range" % len(ps), p)
    # a curve whose branch is cut by --max-points before its period doubling
    # (at omega = 2.6589 for e = 0.8): the cut said, not "has no point"
    subprocess.run(["rm", "-rf", os.path.join(tmp, "C")])
    p = run(tmp, [NSMC, "continue", FIO, "--no-plot", "--out-dir", "C", "--param",
                  "omega=2.5:2.8", "--curve", "flip", "--param2", "e=0.8:0.7", "--max-points",
                  "2"], timeout=300)
    print("  a flip curve, its branch cut at 2 points -> %d  %s" % (p.returncode,
                                                                 last_line(p)[:150]))
    check(p.returncode == 3 and "met no period-doubling point to start the curve from before it "
          "stopped: the branch stopped at its point cap (max_points = 2)" in p.stderr and
          "has no period-doubling point" not in p.stderr,
          "the curve's branch cut by --max-points: the cap named as the cause", p)
    python_script(tmp, "ends.py", PY_ENDS, [FIO], "Model.continuation refuses the same ends")


PY_SECTION = r'''
import sys
import nsm
m = nsm.compile(sys.argv[1])
f = nsm.compile(sys.argv[2])
for spec in ("period:0", "period:-1", "period:1:-1", "period:e-0.9", "period:1e-300"):
    for what, call in (("Model.section(%r)" % spec, lambda: m.section(spec, t_end=1)),
                       ("Model.sweep('omega', [2.5], %r)" % spec,
                        lambda: f.sweep("omega", [2.5], spec, transient=2, record=2))):
        try:
            call()
            raise SystemExit("%s: accepted" % what)
        except nsm.Error as e:
            print("  %-44s %s: %s" % (what, type(e).__name__, str(e)[:90]))
            assert type(e) is nsm.SettingError, "%s: %s, not SettingError" % (what, type(e).__name__)
            assert spec in str(e) or "1e-300" in str(e), "%s: the section not named" % what
'''


def case_findings_py(tmp):
    """A section whose period or start is out of range, from Python: a
    SettingError, as the command line's exit 1 and period:1e-300."""
    python_script(tmp, "section.py", PY_SECTION, [BALL, FIO],
                  "a section out of range is a SettingError naming it")


# ---- inputs that found nothing, kept ------------------------------------------

# simulator options refused before the run (exit 1, nothing on stdout), with
# a word of the message each
SIM_REFUSED = [
    (["--out", "a.csv", "--events", "./a.csv"], "name the same file"),
    (["--out", "a.csv", "--events", "link.csv"], "name the same file"),
    (["--out", "-", "--stats", "-"], "--stats cannot write to stdout"),
    (["--events", "-", "--section", "impact:floor", "--section-out", "-"], "stdout"),
    (["--out", "x.h5", "--out", "./x.h5"], "given twice"),
    (["--section", "impact:floor", "--lyapunov"], "cannot be combined"),
    (["--section", "period:0"], "must be a positive"),
    (["--section", "period:1:-1"], "must be a positive"),
    (["--section", "period:1/0"], "not finite"),
    (["--section", "plane:B.x:sideways"], "up, down or both"),
    (["--section", "impact:floor:x"], "one gap name"),
    (["--animate", "x.gif", "--fps", "0"], "--fps"),
    (["--animate", "x.gif", "--frames", "1"], "--frames"),
    (["--fps", "10"], "need --animate"),
    (["--animate", ".gif"], "ending in .gif"),
    (["--animate", "P9/a.gif"], "No such file or directory"),
    (["--set-file", "p.txt", "--set-file", "p.txt"], "given twice"),
    (["--set-file", "p.txt", "--set", "e=0.5", "--set", "e=0.6"], "set twice"),
    (["--phase"], "--phase needs --plot"),
    (["--plot", "P", "--out", "-"], "--plot reads the trajectory"),
]


def case_kept(tmp):
    """Simulator options refused up front, --set and --set-file in both
    orders, and a run whose output folder is moved away mid-run."""
    with open(os.path.join(tmp, "p.txt"), "w") as f:
        f.write("e = 0.7\n")
    os.symlink("a.csv", os.path.join(tmp, "link.csv"))
    for opts, words in SIM_REFUSED:
        p = run(tmp, [SIM, "--t-end", "1"] + opts)
        print("  %-58s -> %d  %s" % (" ".join(opts), p.returncode, last_line(p)[:90]))
        check(p.returncode == 1 and p.stdout == "" and words in p.stderr and
              not os.path.exists(os.path.join(tmp, "a.csv")),
              "%s: refused before the run" % " ".join(opts), p)
    # the later of --set and --set-file wins (docs/runtime.md): the ball
    # leaves the floor at e sqrt(2 g h)
    v_land = math.sqrt(2 * 9.81 * 1.0)
    for opts, e in ((["--set", "e=0.5", "--set-file", "p.txt"], 0.7),
                    (["--set-file", "p.txt", "--set", "e=0.5"], 0.5)):
        p = run(tmp, [SIM, "--t-end", "1", "--events", "ev.csv"] + opts)
        row = open(os.path.join(tmp, "ev.csv")).read().splitlines()[1].split(",")
        print("  %-40s -> %d  leaves at %s m/s (by hand %.12f)" % (" ".join(opts), p.returncode,
                                                                   row[4], e * v_land))
        check(p.returncode == 0 and abs(float(row[4]) - e * v_land) < 1e-9 * v_land,
              "%s: e = %g, the later one" % (" ".join(opts), e), p)
    # the output folder moved away and a file put in its place mid-run: the
    # results are whole in the folder moved
    for opts, name in ((["--out", "D/x.csv"], "x.csv"), (["--out", "D/x.h5"], "x.h5"),
                       (["--events", "D/e.csv"], "e.csv")):
        d = os.path.join(tmp, "D")
        subprocess.run(["rm", "-rf", d, d + ".old"])
        os.mkdir(d)
        pr = subprocess.Popen([SIM, "--t-end", "1000", "--set", "e=1"] + opts, cwd=tmp,
                              env=env_for(tmp), stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
        t0 = time.monotonic()     # moved once the run has opened its output there
        while pr.poll() is None and not os.listdir(d) and time.monotonic() - t0 < 60:
            time.sleep(0.01)
        time.sleep(0.05)
        os.rename(d, d + ".old")
        with open(d, "w") as f:
            f.write("a file of the user's\n")
        err = pr.communicate(timeout=120)[1]
        got = listing(d + ".old")
        print("  %-20s the folder moved mid-run -> %d  %s  %s" % (" ".join(opts), pr.returncode,
                                                                got, err.strip()[-90:]))
        untouched = open(d).read() == "a file of the user's\n"
        # the HDF5 file is renamed into place through its folder's handle
        # (it was renamed by its path: refused, exit 3, left unnamed)
        check(pr.returncode == 0 and got == [name] and untouched,
              "%s: the results whole in the moved folder, the user's file untouched"
              % " ".join(opts))
        if name.endswith(".csv") and name != "e.csv":
            check(whole_lines(os.path.join(d + ".old", name)) > 1000, "whole lines")


PY_STOPS = r'''
import _thread, os, pickle, signal, sys, threading, time
import nsm
m = nsm.compile(sys.argv[1])
f = nsm.compile(sys.argv[2])


def later(dt, how):
    """A Ctrl-C dt seconds from now: a SIGINT, or interrupt_main's."""
    def go():
        time.sleep(dt)
        if how == "interrupt_main":
            _thread.interrupt_main()
        else:
            os.kill(os.getpid(), signal.SIGINT)
    threading.Thread(target=go, daemon=True).start()


calls = [("run", lambda: m.run(t_end=1e5, params={"e": 1.0}), "Result"),
         ("section", lambda: m.section("impact:floor", t_end=1e5, params={"e": 1.0}), "ndarray"),
         ("lyapunov", lambda: m.lyapunov(1e4, 0.1, params={"e": 1.0}), "NoneType"),
         ("continuation", lambda: f.continuation("omega", 0.5, 6.0, ds=1e-3, ds_max=1e-3,
                                                 max_points=100000), "Branch")]
for what, call, partial in calls:
    for how in ("interrupt_main", "SIGINT"):
        later(0.4, how)
        t0 = time.time()
        try:
            call()
            raise SystemExit("%s: ended before its Ctrl-C" % what)
        except nsm.Interrupted as e:
            back = pickle.loads(pickle.dumps(e))
            print("  %-13s %-15s Interrupted after %.2f s, partial %s, pickled back t = %r"
                  % (what, how, time.time() - t0, type(e.result).__name__, back.t))
            assert type(e.result).__name__ == partial and back.t == e.t, what
            assert isinstance(e, KeyboardInterrupt)
        time.sleep(0.1)
'''


def case_kept_py(tmp):
    """Python's studies stopped by SIGINT and by interrupt_main: Interrupted
    with the partial result, pickled and back."""
    python_script(tmp, "stops.py", PY_STOPS, [BALL, FIO],
                  "every study stopped by a Ctrl-C gives Interrupted with its partial result")


PY_NOTE = r'''
import sys, traceback
import nsm
with open(sys.argv[2], "w") as out:
    try:
        r = nsm.compile(sys.argv[1]).run(t_end=1)
        print("first impact at %.12f s" % r.events["t"][0], file=out)
    except BaseException as e:
        print("%s: %s" % (type(e).__name__, e), file=out)
'''


def case_findings_note(tmp):
    """nsm.compile's note on a damaged cache entry onto a stderr that cannot
    take it: the compile goes on (it raised OSError onto /dev/full), and a
    stderr closed never sends it to stdout (it did)."""
    script = os.path.join(tmp, "note.py")
    with open(script, "w") as f:
        f.write(PY_NOTE)
    env = env_for(tmp)
    for how in ("first", "/dev/full", "closed", "a pipe whose reader is gone"):
        if how != "first":
            for root, _, files in os.walk(os.path.join(tmp, "cache")):
                for so in [f for f in files if f.endswith(".so")]:
                    os.truncate(os.path.join(root, so), 100)
        res = os.path.join(tmp, "result.txt")
        cmd = [sys.executable, script, BALL, res]
        if how == "/dev/full":
            p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, text=True, timeout=300,
                               stderr=open("/dev/full", "w"))
        elif how == "closed":
            p = subprocess.run(["/bin/sh", "-c", '"$@" 2>&-', "sh"] + cmd, env=env,
                               stdout=subprocess.PIPE, text=True, timeout=300)
        elif how == "first":
            p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
        else:
            r, w = os.pipe()
            os.close(r)
            p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=w, text=True,
                               timeout=300)
            os.close(w)
        said = open(res).read().strip()
        print("  stderr %-28s -> %d  %s; stdout %r" % (how, p.returncode, said, p.stdout[:60]))
        check(p.returncode == 0 and said.startswith("first impact at") and
              abs(float(said.split()[3]) - T_LAND) < 1e-9 and p.stdout == "",
              "stderr %s: the entry rebuilt, the landing at sqrt(2 h/g), nothing on stdout" % how)


CASES = {
    "findings_cont": case_findings_cont,
    "findings_note": case_findings_note,
    "findings_sweep": case_findings_sweep,
    "kept_py": case_kept_py,
    "kept": case_kept,
    "findings_py": case_findings_py,
    "findings_plot": case_findings_plot,
    "findings_run": case_findings_run,
}

if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-19prog-", case_arg=4))
