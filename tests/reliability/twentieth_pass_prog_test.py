#!/usr/bin/env python3
"""A twentieth hostile pass over the programs and the Python package
(issue #29): outputs named as the folder's lock, a study's model kept in
its own output folder, Model.basins' parameters, every study program under
every stop signal, odd folder names.

    tests/reliability/twentieth_pass_prog_test.py NSMC SIM SOURCE_DIR CASE

SIM is sim_bouncing_ball.  Cases (each under 20 s in the normal build):
  findings_lock   the simulator's --plot P with --out, --events,
                  --section-out or --stats P/.nsm-run.lock (also through
                  ./P//): the output was written over the folder's lock, exit
                  0, and every later run into P was refused ("holds other
                  data than a process id").  Now refused before anything is
                  made, P left as it was, the next run taken.
  findings_model  `nsmc sweep D/summary.csv --out-dir D` (a model kept in the
                  output folder under a result's name, or a link there to
                  it): the model compiled, then replaced by the sweep's
                  summary, exit 0; `nsmc continue D/section.csv --out-dir D`
                  removed it as an earlier sweep's results.  Now refused
                  before the compile, the model as it was; a model kept in
                  the folder under its own name runs.
  findings_basins Model.basins with params holding an unknown parameter or a
                  value the model rejects (e = 2, m = -1): a SettingError
                  quoting nsmc sweep, where run, sweep, section and
                  continuation raise ParameterError (docs/python.md's
                  class for both).  Now a ParameterError.
  findings_fsize  nsmc under a file-size limit of 1 or 4 KiB: `nsmc -o x.c`,
                  `--emit=equations -o`, and the cache's C source of `nsmc
                  run`, sweep and continue were killed by SIGXFSZ, exit 153
                  without a word, a temporary left beside the output or in
                  the cache.  Now exit 1, "File too large" and the limit said,
                  nothing left.
  findings_mpi    `mpirun -np 2 nsmc continue` and `nsmc run`: each rank did
                  the whole work into one folder, the second was refused as
                  "another run (process N)", and mpirun then stopped the
                  first mid-branch, exit 1, the cause unnamed.  Now the
                  refusal adds that the process is one of mpirun's and only
                  nsmc sweep shares its work over the ranks.
  findings_busy   the simulator's --stats D/plot.png, --animate
                  D/animation.gif, --stats S/summary.csv ... while `nsmc
                  run` writes into D or a sweep into S: exit 0, and the run's
                  figure or the sweep's summary took the output's place (or
                  the GIF stayed beside a run that did not draw it); and the
                  other order, `nsmc run`, a sweep, a continuation or a
                  --plot into a folder where a simulator was writing
                  plot.png or summary.csv, its output lost.  Now refused,
                  naming the running process or the file being written;
                  other names in those folders written.
  findings_gnuplot a model's title, a --plot run's --out path or an --animate
                  name with a command between backquotes or a newline then
                  a `!` line: gnuplot ran the command (a model file's title
                  ran a shell command when `nsmc run` plotted it), or failed
                  after the whole run.  Now escaped: drawn as written.
  findings_curve  Model.continuation(curve=..., param2=param) raised
                  SettingError "bad options (steps, range or period)", and
                  start2 == stop2 ran the whole branch, then SimulationError
                  ("no period-doubling point"), where nsmc continue refuses
                  both naming them; a period of 0, -1 or "omega-2.5" ran
                  the set-up, then raised SimulationError where `nsmc
                  continue --period 0` is an option error.  Now a
                  SettingError naming each.
  kept_signals    nsmc sweep (one and two jobs), a basin study, nsmc continue
                  and nsmc run sent SIGINT, SIGTERM, SIGHUP or SIGKILL at
                  random moments: ended by the signal or its status, no
                  temporary left, the folder's lock free for the next run.
  kept_odd        nsmc run, sweep and continue into folders named with a
                  quote, a double quote, a newline, a backslash, a non-UTF-8
                  byte, '%s', '-q': every result and figure written.
  kept_py         Model.basins' arguments of every type (periods, t_max,
                  params' keys, pilot, coordinates, methods): a result, or
                  an nsm.Error subclass with a message.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import math
import os
import random
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import (Failure, alive, check, env_for, main, proc_descendants,  # noqa: E402
                     limit, python_script, run)

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


def landing_ok(events):
    """Whether the first event of an events CSV is the landing at sqrt(2 h / g)."""
    rows = [ln.split(",") for ln in open(events).read().splitlines()[1:]]
    return bool(rows) and rows[0][1] == "impact" and abs(float(rows[0][0]) - T_LAND) < 1e-9


def listing(folder):
    """The sorted names in folder (dot files too), or None when it is not there."""
    return sorted(os.listdir(folder)) if os.path.isdir(folder) else None


def lock_held_by(folder, pr):
    """Waits until process pr (nsmc, or the study program it became) has
    written its id into folder's lock; fails after 30 s.  The lock file of
    an earlier run stays with that run's id."""
    lock = os.path.join(folder, ".nsm-run.lock")
    t0 = time.monotonic()
    while pr.poll() is None and time.monotonic() - t0 < 30:
        try:
            if open(lock).read().strip() == str(pr.pid):
                return
        except OSError:
            pass
        time.sleep(0.01)
    raise Failure("%s: the lock not taken by process %d" % (folder, pr.pid))


# ---- findings ---------------------------------------------------------------

LOCK_CLASHES = [
    ["--out", "P/.nsm-run.lock"],
    ["--events", "P/.nsm-run.lock"],
    ["--section", "impact:floor", "--section-out", "P/.nsm-run.lock"],
    ["--stats", "P/.nsm-run.lock"],
    ["--stats", "./P//.nsm-run.lock"],
]


def case_findings_lock(tmp):
    """The simulator's outputs named as its --plot folder's lock: refused
    before anything is made, the folder taken by the next run."""
    for first in (False, True):
        for opts in LOCK_CLASHES:
            p_dir = os.path.join(tmp, "P")
            if first:   # a folder an earlier run filled, its lock there
                q = run(tmp, [SIM, "--t-end", "0.5", "--plot", "P"])
                check(q.returncode == 0, "an earlier run into P", q)
            before = listing(p_dir)
            p = run(tmp, [SIM, "--t-end", "0.5", "--plot", "P"] + opts)
            print("  %-5s %-52s -> %d  %s" % ("again" if first else "new", " ".join(opts),
                                            p.returncode, last_line(p)))
            check(p.returncode == 1 and "lock" in p.stderr and opts[-1] in p.stderr,
                  "--plot P %s refused naming the lock" % " ".join(opts), p)
            check(listing(p_dir) == before, "P as it was (%s)" % (before,))
            q = run(tmp, [SIM, "--t-end", "1", "--plot", "P"])
            check(q.returncode == 0 and landing_ok(os.path.join(p_dir, "events.csv")),
                  "the next run takes P, the landing at sqrt(2 h/g)", q)
            for f in os.listdir(tmp):
                if f == "P":
                    subprocess.run(["rm", "-rf", os.path.join(tmp, f)], check=True)


# (command, the model's name in D, the words of the refusal)
MODEL_CLASHES = [
    ("sweep", "summary.csv"), ("sweep", "section.csv"), ("sweep", "branch.csv"),
    ("sweep", "bifurcation.gp"), ("sweep", "section.csv.partial"), ("sweep", "trajectory.csv"),
    ("continue", "section.csv"), ("continue", "branch.csv"), ("continue", "continuation.log"),
    ("continue", "plot.png"),
]


def study_cmd(what, model, folder):
    """A short study of the forced impact oscillator from model into folder."""
    if what == "sweep":
        return [NSMC, "sweep", model, "--param", "omega=2.4:2.6:2", "--section",
                "period:2*pi/omega", "--transient", "5", "--record", "4", "--out-dir", folder]
    return [NSMC, "continue", model, "--param", "omega=2.4:2.6", "--out-dir", folder]


def case_findings_model(tmp):
    """A study's model kept in its output folder under a result's name (or
    a link there): refused before the compile, the model as it was."""
    text = open(FIO, "rb").read()
    d = os.path.join(tmp, "D")
    os.mkdir(d)
    for what, name in MODEL_CLASHES:
        path = os.path.join(d, name)
        with open(path, "wb") as f:
            f.write(text)
        p = run(tmp, study_cmd(what, "D/" + name, "D"))
        print("  %-8s D/%-22s -> %d  %s" % (what, name, p.returncode, last_line(p)))
        check(p.returncode == 1 and "model file" in p.stderr and name in p.stderr,
              "nsmc %s of D/%s refused naming the model file" % (what, name), p)
        check(open(path, "rb").read() == text, "the model D/%s as it was" % name)
        check(not os.path.exists(os.path.join(d, ".nsm-run.lock")), "D not taken")
        os.unlink(path)
    # a link in the folder under a result's name to the model elsewhere
    # (the studies write through a link into the file it names)
    with open(os.path.join(tmp, "m.nsm"), "wb") as f:
        f.write(text)
    for what, name in (("sweep", "summary.csv"), ("continue", "branch.csv")):
        os.symlink("../m.nsm", os.path.join(d, name))
        p = run(tmp, study_cmd(what, "m.nsm", "D"))
        print("  %-8s m.nsm, D/%s a link to it -> %d  %s" % (what, name, p.returncode,
                                                           last_line(p)))
        check(p.returncode == 1 and "model file" in p.stderr,
              "nsmc %s with D/%s a link to the model refused" % (what, name), p)
        check(open(os.path.join(tmp, "m.nsm"), "rb").read() == text, "m.nsm as it was")
        os.unlink(os.path.join(d, name))
    # the model kept in the folder under its own name: both studies run
    os.rename(os.path.join(tmp, "m.nsm"), os.path.join(d, "m.nsm"))
    for what, result in (("sweep", "summary.csv"), ("continue", "branch.csv")):
        p = run(tmp, study_cmd(what, "D/m.nsm", "D"))
        print("  %-8s D/m.nsm -> %d  %s" % (what, p.returncode, last_line(p)))
        check(p.returncode == 0 and os.path.exists(os.path.join(d, result)) and
              open(os.path.join(d, "m.nsm"), "rb").read() == text,
              "nsmc %s of D/m.nsm into D: %s written, the model kept" % (what, result), p)


BASINS_PARAMS = r'''
import sys
import nsm
m = nsm.compile(sys.argv[1])
ax, ay = ("M.x", -0.5, 0.0, 2), ("M.v", -0.5, 0.5, 2)
for params in ({"e": 2}, {"m": -1}, {"zz": 1.0}, {5: 1.0}, {"e ": 0.5}, {"k": -1}):
    try:
        m.basins(ax, ay, "period:2*pi/omega", transient=2, record=2, params=params)
        out = "a result"
    except nsm.Error as e:
        out = "%s: %s" % (type(e).__name__, str(e)[:100])
    print("  basins params=%-14r -> %s" % (params, out))
    assert out.startswith("ParameterError"), out
# the same values given to the other studies: ParameterError (the reference)
for call in (lambda: m.run(t_end=1, params={"e": 2}),
             lambda: m.sweep("omega", [2.5], "period:2*pi/omega", transient=2, record=2,
                             params={"e": 2}),
             lambda: m.continuation("omega", 2.4, 2.6, params={"e": 2})):
    try:
        call()
        raise AssertionError("taken")
    except nsm.ParameterError as e:
        print("  the same e = 2 elsewhere -> ParameterError: %s" % str(e)[:60])
# good params still run, and a grid state inside the gap is a failed point
xs, ys, labels, atts = m.basins(("M.x", -0.5, 0.5, 2), ay, "period:2*pi/omega", transient=2,
                                record=2, params={"e": 0.5})
print("  basins e = 0.5 -> labels %s" % labels.tolist())
assert labels[:, 1].tolist() == [-1, -1] and all(v >= 0 for v in labels[:, 0]), labels
print("done")
'''


def case_findings_basins(tmp):
    """Model.basins' params judged as the other studies': ParameterError."""
    python_script(tmp, "basins_params.py", BASINS_PARAMS, [FIO],
                  "Model.basins with a rejected or unknown parameter: ParameterError")


def case_findings_fsize(tmp):
    """nsmc's own writes under a file-size limit: exit 1 with the reason,
    no temporary left beside the output or in the cache."""
    cmds = [
        ("nsmc -o x.c", [NSMC, BALL, "-o", "x.c"], "x.c"),
        ("--emit=equations -o eq.md", [NSMC, "--emit=equations",
                                       os.path.join(SRC, "models", "chain20.nsm"), "-o", "eq.md"],
         "eq.md"),
        ("nsmc run", [NSMC, "run", BALL, "-q", "--out-dir", "R", "--", "--t-end", "0.1"], None),
        ("nsmc sweep", study_cmd("sweep", FIO, "S"), None),
        ("nsmc continue", study_cmd("continue", FIO, "C"), None),
    ]
    for kib in (1, 4):
        for label, cmd, out in cmds:
            subprocess.run(["rm", "-rf", os.path.join(tmp, "cache")], check=True)
            p = subprocess.run(cmd, cwd=tmp, env=env_for(tmp), capture_output=True, text=True,
                               timeout=120, preexec_fn=limit(kib * 1024))
            print("  ulimit -f %d: %-26s -> %d  %s" % (kib, label, p.returncode, last_line(p)))
            left = [f for f in os.listdir(tmp) if ".tmp" in f]
            for root, _, files in os.walk(os.path.join(tmp, "cache")):
                left += [f for f in files if ".tmp" in f]
            check(p.returncode == 1 and "File too large" in p.stderr,
                  "%s under a %d KiB limit: exit 1, 'File too large' said" % (label, kib), p)
            check(out is None or not os.path.exists(os.path.join(tmp, out)),
                  "%s: no half-written output" % label)
            check(not left, "%s: no temporary left (%s)" % (label, left))
            if "cache" in p.stderr:
                check("file-size limit of %d KiB" % kib in p.stderr,
                      "%s: the cache's failure names the limit" % label, p)


def case_findings_mpi(tmp):
    """nsmc continue and nsmc run under mpirun -np 2: the refusal of the
    second rank names mpirun, not only "another run"."""
    import shutil
    long_cont = [NSMC, "continue", FIO, "--param", "omega=1.0:4.0", "--ds", "0.0005",
                 "--ds-max", "0.0005", "--out-dir", "D"]
    ball = [NSMC, "run", BALL, "-q", "--out-dir", "D", "--", "--t-end", "20", "--dt", "1e-5"]
    for label, cmd in (("continue", long_cont), ("run", ball)):
        # built first, so that the run holding D holds it at once
        q = run(tmp, study_cmd("continue", FIO, "W") if label == "continue" else
                cmd[:5] + ["W", "--", "--t-end", "0.1"])
        check(q.returncode == 0, "nsmc %s built" % label, q)
        # a rank's environment (OpenMPI's, MPICH's) beside a run holding D
        for var in ("OMPI_COMM_WORLD_SIZE", "PMI_SIZE"):
            first = subprocess.Popen(cmd, cwd=tmp, env=env_for(tmp), stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
            lock_held_by(os.path.join(tmp, "D"), first)
            p = run(tmp, cmd, env={var: "2"})
            first.send_signal(signal.SIGINT)
            first.wait(timeout=60)
            print("  %-8s %s=2 beside a run into D -> %d  %s" % (label, var, p.returncode,
                                                                last_line(p)))
            check(p.returncode == 1 and "another run" in p.stderr and "mpirun" in p.stderr,
                  "nsmc %s as one of 2 MPI processes: the refusal names mpirun" % label, p)
        short = study_cmd("continue", FIO, "D1") if label == "continue" else \
            cmd[:5] + ["D1", "--", "--t-end", "1"]
        q = run(tmp, short, env={"OMPI_COMM_WORLD_SIZE": "1"}, timeout=120)
        check(q.returncode == 0, "nsmc %s as the one MPI process: runs" % label, q)
    mpirun = shutil.which("mpirun")
    if not mpirun:
        print("  no mpirun: the ranks' environments above stand for it")
        return
    for label, cmd in (("continue", long_cont), ("run", ball)):
        p = run(tmp, [mpirun, "--allow-run-as-root", "--oversubscribe", "-np", "2"] + cmd,
                timeout=120)
        said = [ln for ln in p.stderr.splitlines() if ln.startswith("nsmc")]
        print("  mpirun -np 2 nsmc %-8s -> %d  %s" % (label, p.returncode,
                                                     (said[-1] if said else "")[:100]))
        check(p.returncode != 0 and "started by mpirun" in p.stderr,
              "mpirun -np 2 nsmc %s: refused, mpirun named" % label, p)


BUSY_OUTPUTS = [
    (["--stats", "D/plot.png"], "D/plot.png"),
    (["--stats", "./D/phase.svg"], "D/phase.svg"),
    (["--animate", "D/animation.gif"], "D/animation.gif"),
    (["--section", "impact:floor", "--section-out", "D/plot.gp"], "D/plot.gp"),
    (["--plot", "E", "--stats", "D/plot.log"], "D/plot.log"),
    (["--stats", "S/summary.csv"], "S/summary.csv"),
    (["--events", "S/section.csv"], "S/section.csv"),
    (["--out", "S/bifurcation.svg"], "S/bifurcation.svg"),
    (["--stats", "S/bifurcations.csv"], "S/bifurcations.csv"),
]


def case_findings_busy(tmp):
    """The simulator's outputs named as files of a folder that a running
    `nsmc run` or sweep holds: refused, naming the run; other names there
    written; `nsmc run`'s own simulator still writes its folder."""
    env = env_for(tmp)
    q = run(tmp, [NSMC, "run", BALL, "-q", "--no-plot", "--out-dir", "W", "--", "--t-end",
                  "0.1"])
    check(q.returncode == 0, "the ball's simulator built", q)
    q = run(tmp, study_cmd("sweep", FIO, "W2"))
    check(q.returncode == 0, "the sweep program built", q)
    holders = [subprocess.Popen(cmd, cwd=tmp, env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True) for cmd in (
        [NSMC, "run", BALL, "-q", "--phase", "--out-dir", "D", "--", "--t-end", "60", "--dt",
         "1e-5"],
        [NSMC, "sweep", FIO, "--param", "omega=2.0:3.0:4000", "--section", "period:2*pi/omega",
         "--transient", "200", "--record", "50", "--out-dir", "S"])]
    try:
        for folder, holder in zip(("D", "S"), holders):
            lock_held_by(os.path.join(tmp, folder), holder)
        for opts, path in BUSY_OUTPUTS:
            full = os.path.join(tmp, path)
            before = os.path.exists(full) and open(full, "rb").read()
            p = run(tmp, [SIM, "--t-end", "1"] + opts)
            print("  %-48s -> %d  %s" % (" ".join(opts), p.returncode, last_line(p)))
            check(p.returncode == 1 and "process" in p.stderr and path.split("/")[1] in p.stderr,
                  "%s refused, naming the run" % " ".join(opts), p)
            check((os.path.exists(full) and open(full, "rb").read()) == before,
                  "%s as it was" % path)
            check(not os.path.exists(os.path.join(tmp, "E")), "no plot folder made")
        p = run(tmp, [SIM, "--t-end", "1", "--stats", "D/mine.csv", "--events", "S/ev.csv"])
        print("  %-48s -> %d  %s" % ("--stats D/mine.csv --events S/ev.csv", p.returncode,
                                     last_line(p)))
        check(p.returncode == 0 and landing_ok(os.path.join(tmp, "S", "ev.csv")),
              "other names in the busy folders written, the landing at sqrt(2 h/g)", p)
    finally:
        for h in holders:
            h.send_signal(signal.SIGINT)
            h.communicate(timeout=60)
    q = run(tmp, [NSMC, "run", BALL, "-q", "--animate", "--out-dir", "D", "--", "--t-end", "1"])
    check(q.returncode == 0 and landing_ok(os.path.join(tmp, "D", "events.csv")) and
          os.path.exists(os.path.join(tmp, "D", "animation.gif")),
          "nsmc run --animate: its own simulator writes its folder", q)
    # the other order: the simulator's output first, then a run into its folder
    os.mkdir(os.path.join(tmp, "F"))
    for name in ("plot.png", "summary.csv"):
        path = os.path.join(tmp, "F", name)
        sim = subprocess.Popen([SIM, "--t-end", "60", "--dt", "1e-5", "--out", "/dev/null",
                                "--stats", path], cwd=tmp, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            t0 = time.monotonic()
            while not os.path.exists(path) and time.monotonic() - t0 < 30:
                time.sleep(0.01)
            for label, cmd in (
                    ("nsmc run --out-dir F", [NSMC, "run", BALL, "-q", "--out-dir", "F", "--",
                                              "--t-end", "1"]),
                    ("nsmc sweep --out-dir F", study_cmd("sweep", FIO, "F")),
                    ("nsmc continue --out-dir F", study_cmd("continue", FIO, "F")),
                    ("sim --plot F", [SIM, "--t-end", "1", "--plot", "F"])):
                p = run(tmp, cmd)
                print("  %s written by a simulator; %-26s -> %d  %s" % (name, label, p.returncode,
                                                                       last_line(p)))
                check(p.returncode == 1 and "F/" + name in p.stderr and "being written" in
                      p.stderr, "%s refused, naming F/%s" % (label, name), p)
                check(sorted(os.listdir(os.path.join(tmp, "F"))) in ([name],
                                                                     [".nsm-run.lock", name]),
                      "F holds the simulator's output alone")
        finally:
            sim.send_signal(signal.SIGINT)
            sim.wait(timeout=60)
        os.unlink(path)


def planted(tmp):
    """The files named PWNED* anywhere under tmp (a command run by gnuplot)."""
    return [os.path.join(r, f) for r, _, files in os.walk(tmp) for f in files
            if f.startswith("PWNED")]


def case_findings_gnuplot(tmp):
    """Names and titles with backquotes or line ends in gnuplot's scripts:
    drawn as they are, no command run."""
    for k, out in enumerate(["`touch PWNED1`.csv", "y\n!touch PWNED2\n.csv"]):
        p = run(tmp, [SIM, "--t-end", "1", "--plot", "P%d" % k, "--out", out])
        print("  --plot P%d --out %-22r -> %d  %s" % (k, out, p.returncode, last_line(p)))
        got = listing(os.path.join(tmp, "P%d" % k)) or []
        check(p.returncode == 0 and "plot.png" in got and "plot.svg" in got,
              "--out %r: plotted, exit 0" % out, p)
        check(not planted(tmp), "--out %r: no command run (%s)" % (out, planted(tmp)))
    for gif in ["x\n!touch PWNED3\n.gif", "`touch PWNED4`.gif"]:
        p = run(tmp, [SIM, "--t-end", "0.5", "--out", "/dev/null", "--animate", gif])
        print("  --animate %-28r -> %d  %s" % (gif, p.returncode, last_line(p)))
        check(p.returncode == 0 and os.path.exists(os.path.join(tmp, gif)),
              "--animate %r: the GIF under its name, exit 0" % gif, p)
        check(not planted(tmp), "--animate %r: no command run (%s)" % (gif, planted(tmp)))
    # a model whose title holds a command between backquotes, a backslash, quotes
    text = open(BALL).read().replace('model bouncing_ball "', 'model bouncing_ball '
                                     '"`touch PWNED5` \\q \'q\' ', 1)
    with open(os.path.join(tmp, "t.nsm"), "w") as f:
        f.write(text)
    check("PWNED5" in text.splitlines()[0], "the title holds the command")
    p = run(tmp, [NSMC, "run", "t.nsm", "-q", "--phase", "--out-dir", "R", "--", "--t-end",
                  "1"])
    print("  nsmc run of a title with `touch PWNED5` -> %d  %s" % (p.returncode, last_line(p)))
    got = listing(os.path.join(tmp, "R")) or []
    check(p.returncode == 0 and "plot.png" in got and "phase.svg" in got and
          landing_ok(os.path.join(tmp, "R", "events.csv")),
          "the model's title plotted, the landing at sqrt(2 h/g)", p)
    check(not planted(tmp), "the title: no command run (%s)" % planted(tmp))


CURVE_ARGS = r'''
import sys
import nsm
m = nsm.compile(sys.argv[1])
for kw, words in ((dict(param2="omega", start2=2.4, stop2=2.6), "same parameter"),
                  (dict(param2="zeta", start2=0.05, stop2=0.05), "equal"),
                  (dict(param2="zeta", start2=0.05, stop2="0.05"), "equal")):
    for curve in ("flip", "fold", "grazing"):
        try:
            m.continuation("omega", 2.4, 2.6, curve=curve, **kw)
            out = "a curve"
        except nsm.Error as e:
            out = "%s: %s" % (type(e).__name__, e)
        print("  continuation curve=%-7s %-44r -> %s" % (curve, kw, out[:110]))
        assert out.startswith("SettingError") and words in out, out
print("done")
'''


def case_findings_curve(tmp):
    """Model.continuation's curve with param2 the continued parameter or an
    empty range: a SettingError naming it, as nsmc continue refuses them."""
    for p2, words in (("omega=2.4:2.6", "same parameter"), ("zeta=0.05:0.05", "equal")):
        p = run(tmp, [NSMC, "continue", FIO, "--param", "omega=2.4:2.6", "--curve", "flip",
                      "--param2", p2, "--out-dir", "C"])
        print("  nsmc continue --curve flip --param2 %-16s -> %d  %s" % (p2, p.returncode,
                                                                       last_line(p)))
        check(p.returncode == 1 and words in p.stderr, "nsmc continue refuses --param2 %s" % p2,
              p)
    python_script(tmp, "curve_args.py", CURVE_ARGS, [FIO],
                  "Model.continuation's curve over the continued parameter or an empty range: "
                  "SettingError")
    # the period at the range's start, not a positive time
    for per in ("0", "-1", "omega-2.5", "0*omega"):
        p = run(tmp, [NSMC, "continue", FIO, "--param", "omega=2.4:2.6", "--period", per,
                      "--out-dir", "C"])
        print("  nsmc continue --period %-10s -> %d  %s" % (per, p.returncode, last_line(p)))
        check(p.returncode == 1 and "not a positive time" in p.stderr,
              "nsmc continue refuses --period %s" % per, p)
    python_script(tmp, "cont_period.py", CONT_PERIOD, [FIO],
                  "Model.continuation with a period not positive at the start: SettingError")


CONT_PERIOD = r'''
import sys
import nsm
m = nsm.compile(sys.argv[1])
for per in (0, -1, 0.0, "0", "omega-2.5", "0*omega"):
    try:
        m.continuation("omega", 2.4, 2.6, period=per)
        out = "a branch"
    except nsm.Error as e:
        out = "%s: %s" % (type(e).__name__, e)
    print("  continuation period=%-12r -> %s" % (per, out[:110]))
    assert out.startswith("SettingError") and "not a positive time" in out, out
b = m.continuation("omega", 2.4, 2.6, period="2*pi/omega")
print("  continuation period='2*pi/omega' -> %d points" % len(b))
assert len(b) > 1
print("done")
'''


# ---- kept -------------------------------------------------------------------

def signal_cmds():
    """Study commands of a few seconds each (name, command into folder D)."""
    sweep = [NSMC, "sweep", FIO, "--param", "omega=2.0:3.0:400", "--section",
             "period:2*pi/omega", "--transient", "200", "--record", "50", "--out-dir", "D"]
    return [
        ("sweep", sweep),
        ("sweep -j2", sweep + ["--jobs", "2"]),
        ("basins", [NSMC, "sweep", FIO, "--basin", "M.x=-1:0:100", "--basin", "M.v=-1:1:100",
                    "--section", "period:2*pi/omega", "--transient", "200", "--record", "20",
                    "--out-dir", "D"]),
        ("continue", [NSMC, "continue", FIO, "--param", "omega=1.0:4.0", "--ds", "0.0005",
                      "--ds-max", "0.0005", "--out-dir", "D"]),
        ("run", [NSMC, "run", BALL, "--phase", "--animate", "-q", "--out-dir", "D", "--",
                 "--t-end", "20", "--dt", "1e-5"]),
    ]


def tmp_pid(name):
    """The process id of a temporary NAME.tmpPID (0 when none is read)."""
    tail = name.rsplit(".tmp", 1)[1]
    digits = tail.split(".", 1)[0]
    return int(digits) if digits.isdigit() else 0


def case_kept_signals(tmp):
    """Every study program under every stop signal at a random moment."""
    rnd = random.Random(20)
    env = env_for(tmp)
    for what in ("sweep", "continue"):     # built once, outside the signalled part
        q = run(tmp, study_cmd(what, FIO, "W"))
        check(q.returncode == 0, "the %s program built" % what, q)
    q = run(tmp, [NSMC, "run", BALL, "-q", "--no-plot", "--out-dir", "W", "--", "--t-end",
                  "0.1"])
    check(q.returncode == 0, "the ball's simulator built", q)
    for name, cmd in signal_cmds():
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGKILL):
            delay = rnd.uniform(0.05, 0.6)
            pr = subprocess.Popen(cmd, cwd=tmp, env=env, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, text=True)
            time.sleep(delay)
            kids = proc_descendants(pr.pid)
            pr.send_signal(sig)
            try:
                _, err = pr.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                pr.kill()
                raise Failure("%s under %s still running after 60 s" % (name, sig.name))
            # a SIGKILLed nsmc run's simulator is sent SIGTERM and ends alone
            t0 = time.monotonic()
            while any(alive(k) for k in kids) and time.monotonic() - t0 < 30:
                time.sleep(0.02)
            check(not any(alive(k) for k in kids), "%s: no program left running" % name)
            d = os.path.join(tmp, "D")
            left = [f for f in (listing(d) or []) if ".tmp" in f]
            lines = [ln for ln in err.strip().splitlines() if "cached" not in ln]
            print("  %-9s %-7s %.2f s -> %4d  %s" % (name, sig.name, delay, pr.returncode,
                                                   (lines[-1] if lines else "")[:90]))
            rc = pr.returncode
            check(rc in (0, -sig, 128 + sig) and "Sanitizer" not in err,
                  "%s under %s: ended by it or by its status" % (name, sig.name))
            check(rc != 128 + sig or "interrupted" in err or "stopped" in err,
                  "%s: the stop said" % name)
            if sig != signal.SIGKILL:
                check(not left, "%s: no temporary left (%s)" % (name, left))
            else:
                # a kill while gnuplot drew leaves the figures' temporaries
                # (NAME.tmpPID) of a process that has ended, which the next
                # program drawing those figures into the folder removes
                # (docs/status.md)
                check(not any(tmp_pid(f) > 0 and alive(tmp_pid(f)) for f in left),
                      "%s: no temporary of a live process left (%s)" % (name, left))
                if left:
                    q = subprocess.run(cmd, cwd=tmp, env=env, capture_output=True, text=True,
                                       timeout=120)
                    left = [f for f in (listing(d) or []) if ".tmp" in f]
                    check(q.returncode == 0 and not left, "%s: the same program run again "
                          "removes them (%s)" % (name, left), q)
            q = run(tmp, [NSMC, "run", BALL, "-q", "--no-plot", "--out-dir", "D", "--",
                          "--t-end", "1"])
            check(q.returncode == 0 and landing_ok(os.path.join(d, "events.csv")),
                  "the next run takes D, the landing at sqrt(2 h/g)", q)


ODD_NAMES = ["a'q", 'a"q', "a\nq", "a b", "a\\q", "a%sq", "-q", "a`q`", "a;q"]


def case_kept_odd(tmp):
    """Folders with odd names: every result and figure written."""
    odd = [n.encode() for n in ODD_NAMES] + [b"a\xff\xfeq"]
    for name in odd:
        d = os.path.join(tmp.encode(), b"run-" + name)
        p = subprocess.run([NSMC.encode(), b"run", BALL.encode(), b"-q", b"--phase",
                            b"--out-dir", d, b"--", b"--t-end", b"1"], cwd=tmp,
                           env=env_for(tmp), capture_output=True, timeout=120)
        got = sorted(os.listdir(d)) if os.path.isdir(d) else []
        print("  run %-12r -> %d  %s" % (name, p.returncode, got))
        check(p.returncode == 0 and all(f.encode() in got for f in (
            "trajectory.csv", "events.csv", "plot.png", "plot.svg", "phase.png", "phase.svg")) and
              landing_ok(os.fsdecode(os.path.join(d, b"events.csv"))),
              "nsmc run into %r: every file, the landing at sqrt(2 h/g)" % name)
    for name in (b"s'q", b"s\nq", b"s\xffq"):
        for what, files in (("sweep", ["section.csv", "summary.csv", "bifurcation.png"]),
                            ("continue", ["branch.csv", "continuation.png"])):
            d = os.path.join(tmp.encode(), what.encode() + b"-" + name)
            cmd = [w.encode() for w in study_cmd(what, FIO, "X")][:-1] + [d]
            p = subprocess.run(cmd, cwd=tmp, env=env_for(tmp), capture_output=True,
                               timeout=120)
            got = sorted(os.listdir(d)) if os.path.isdir(d) else []
            print("  %-8s %-8r -> %d  %s" % (what, name, p.returncode, got))
            check(p.returncode == 0 and all(f.encode() in got for f in files),
                  "nsmc %s into %r: its results and figure" % (what, name))


BASINS_ARGS = r'''
import sys
import nsm
m = nsm.compile(sys.argv[1])
ax, ay = ("M.x", -0.5, 0.0, 2), ("M.v", -0.5, 0.5, 2)
n = 0
def t(label, x=ax, y=ay, section="period:2*pi/omega", **kw):
    global n
    n += 1
    try:
        r = m.basins(x, y, section, transient=3, record=3, **kw)
        out = "labels %s" % r[2].tolist()
    except nsm.Error as e:
        out = "%s: %s" % (type(e).__name__, str(e).splitlines()[0][:90])
        assert str(e).strip(), label
    print("  %-26s -> %s" % (label, out))
    return out
imp = "impact:stop"
for label, kw in [("period 0", dict(period=0, section=imp)),
                  ("period nan", dict(period=float("nan"), section=imp)),
                  ("period '--help'", dict(period="--help", section=imp)),
                  ("period True", dict(period=True, section=imp)),
                  ("period [1]", dict(period=[1], section=imp)),
                  ("t_max 0", dict(t_max=0)), ("t_max -1", dict(t_max=-1)),
                  ("t_max 'abc'", dict(t_max="abc")), ("t_max '--help'", dict(t_max="--help")),
                  ("params {'': 1}", dict(params={"": 1})),
                  ("params {'--help': 1}", dict(params={"--help": 1})),
                  ("params {'e=0.3': 0.9}", dict(params={"e=0.3": 0.9})),
                  ("pilot -1", dict(pilot=-1)), ("pilot 1.5", dict(pilot=1.5)),
                  ("x '--help'", dict(x=("--help", -0.5, 0.0, 2))),
                  ("x 'M.x=1'", dict(x=("M.x=1", -0.5, 0.0, 2))),
                  ("x 'M.y'", dict(x=("M.y", -0.5, 0.0, 2))),
                  ("x start inf", dict(x=("M.x", float("inf"), 0.0, 2))),
                  ("x equal ends", dict(x=("M.x", -0.5, -0.5, 2))),
                  ("x count 0", dict(x=("M.x", -0.5, 0.0, 0))),
                  ("x == y", dict(y=ax)),
                  ("method 'RK4'", dict(method="RK4")),
                  ("section '--help'", dict(section="--help")),
                  ("section 'impact:nope'", dict(section="impact:nope")),
                  ("tol 1", dict(tol=1))]:
    assert not t(label, **kw).startswith("labels"), label
for label, kw in [("pilot 0", dict(pilot=0)), ("x start 1e-320", dict(x=("M.x", 1e-320, 0.0, 2))),
                  ("method 'exact'", dict(method="exact")), ("jobs 3", dict(jobs=3)),
                  ("x as a list", dict(x=["M.x", -0.5, 0.0, 2]))]:
    assert t(label, **kw).startswith("labels"), label
print("inputs", n)
'''


def case_kept_py(tmp):
    """Model.basins' arguments of every type: a result or an nsm.Error."""
    python_script(tmp, "basins_args.py", BASINS_ARGS, [FIO],
                  "Model.basins' arguments: a result or an nsm.Error with a message")


CASES = {
    "findings_lock": case_findings_lock,
    "findings_model": case_findings_model,
    "findings_basins": case_findings_basins,
    "findings_fsize": case_findings_fsize,
    "findings_mpi": case_findings_mpi,
    "findings_busy": case_findings_busy,
    "findings_gnuplot": case_findings_gnuplot,
    "findings_curve": case_findings_curve,
    "kept_signals": case_kept_signals,
    "kept_odd": case_kept_odd,
    "kept_py": case_kept_py,
}

if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-20prog-", case_arg=4))
