#!/usr/bin/env python3
"""What the twenty-second and twenty-third hostile passes left as found
(issue #29, docs/fuzzing.md), each a check that failed before its fix.

    tests/reliability/leftovers25_test.py NSMC SIM_BOUNCING_BALL SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  underflow  `--set e=1e-400` (a simulator, `nsmc run`, `nsmc sweep`'s
             --set and --param, a parameter file, Python's params=, a
             .nsm `param` default) was taken as 0 without a word, where
             1e400 is refused as beyond a double's range.  Now refused,
             naming the value and the range of doubles; a literal 0 (and
             "0.0e-999") is still taken.
  cachesafe  the compile cache's folder was used whoever owned it and
             whoever could write it (without HOME and XDG_CACHE_HOME it is
             /tmp/nsm-cache-UID, which another local user could make first
             and plant a simulator in that nsmc would run), and a relative
             HOME put it under the current folder.  Now nsmc and the Python
             package refuse a cache folder that is not a folder of ours
             that no one else may write (exit 1 / CompileError, naming the
             folder, the cause, its owner and mode), make it 0700 when they
             make it, and ignore a relative HOME or XDG_CACHE_HOME.
  tabletwice `--table --table` was taken where every other flag given twice
             is refused (nsmc run passed its own --table, so the simulator
             let a second one through).  Now refused, exit 1, nothing
             written; nsmc run passes no --table of its own when the
             user's words after "--" hold one (the table printed once).
  dangling   `--out-dir D` (nsmc run, sweep, continue) and a simulator's
             `--plot D`, where D (or a folder on D's way) is a symbolic
             link to nothing, said "No such file or directory" or "'D' is
             not a folder".  Now "'D' is a symbolic link to 'nowhere/x',
             which does not exist", exit 1, nothing made.
  pyunits    Python's params={'g': '981 cm/s^2'} was refused ("a plain
             decimal number") while the simulators' --set g='981 cm/s^2'
             converts it.  Now read by the command line's own code
             (setfile_value, linked into the model's shared object): the
             same SI value (the ball's first landing at sqrt(2 h/g) with g
             = 9.81 m/s^2), and the same refusals word for word (a unit of
             another dimension, Hz for m/s^2, an underflow).
  animstop   SIGTERM to `nsmc run --animate` while gnuplot drew the GIF
             (the run at its end) left the earlier run's GIF beside this
             run's animation.gp and an empty animation.log, and nsmc run
             said "the simulation stopped early".  Now the earlier GIF and
             the log are removed (as when gnuplot is missing), this run's
             script kept, and both programs say the run reached its end
             and the animation was stopped; exit 128 + 15; the trajectory
             whole to t_end with the ball's first landing at sqrt(2 h/g).
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import os
import stat
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import (SANITIZED, check, env_for, main, proc_descendants,  # noqa: E402
                     py_compile)

NSMC = os.path.abspath(sys.argv[1])
SIM = os.path.abspath(sys.argv[2])
SRC = os.path.abspath(sys.argv[3])
SLOW = 4 if SANITIZED else 1
BALL = os.path.join(SRC, "models", "bouncing_ball.nsm")
FIO = os.path.join(SRC, "models", "forced_impact_oscillator.nsm")


def go(tmp, cmd, timeout=120, env=None):
    """Runs cmd in tmp with its own cache (env's variables added); the
    CompletedProcess."""
    full = env_for(tmp)
    full.update(env or {})
    return subprocess.run(cmd, cwd=tmp, env=full, capture_output=True, text=True,
                          errors="replace", timeout=timeout * SLOW)


def last(p):
    """The last line of p's standard error (or its first when the last is
    the usage hint), for the printed outcome."""
    lines = [ln for ln in p.stderr.strip().splitlines() if ln != "(try --help)"]
    return lines[-1][:150] if lines else ""


# ---- underflow ---------------------------------------------------------------

BELOW = "below the range of a double"


def case_underflow(tmp):
    """A nonzero value that would read as 0 refused everywhere; 0 taken."""
    with open(os.path.join(tmp, "under.txt"), "w") as f:
        f.write("e = 1e-400\n")
    with open(os.path.join(tmp, "zero.txt"), "w") as f:
        f.write("e = 0.0e-999\n")
    short = ["--t-end", "0.01", "--out", "x.csv"]
    refused = [
        ("simulator --set e=1e-400", [SIM, "--set", "e=1e-400"] + short, "'1e-400'"),
        ("simulator --set e=-5e-400", [SIM, "--set", "e=-5e-400"] + short, "'-5e-400'"),
        ("simulator --set 'g=1e-320 nm/s^2'", [SIM, "--set", "g=1e-320 nm/s^2"] + short,
         "1e-320 nm/s^2"),
        ("simulator --set-file (e = 1e-400)", [SIM, "--set-file", "under.txt"] + short,
         "under.txt:1"),
        ("simulator --t-end 1e-400", [SIM, "--t-end", "1e-400", "--out", "x.csv"], "--t-end"),
        ("nsmc run --set e=1e-400", [NSMC, "run", BALL, "--set", "e=1e-400", "--out-dir", "R",
                                     "-q", "--no-plot"], "'1e-400'"),
        ("nsmc sweep --set e=1e-400", [NSMC, "sweep", FIO, "--param", "omega=2:3:2", "--set",
                                       "e=1e-400", "--section", "impact:stop", "--out-dir", "S"],
         "'1e-400'"),
        ("nsmc sweep --param omega=1e-400:3:2", [NSMC, "sweep", FIO, "--param",
                                                 "omega=1e-400:3:2", "--section", "impact:stop",
                                                 "--out-dir", "S"], "'1e-400'"),
    ]
    for label, cmd, names in refused:
        p = go(tmp, cmd)
        print("  %s -> %d  %s" % (label, p.returncode, last(p)))
        check(p.returncode == 1 and BELOW in p.stderr and names in p.stderr
              and not os.path.exists(os.path.join(tmp, "x.csv")),
              "%s: exit 1, %s naming %s, nothing written" % (label, BELOW, names), p)
    # the .nsm default
    with open(BALL) as f:
        text = f.read()
    for default, ok in (("1e-400", False), ("0.0e-999", True), ("0", True)):
        path = os.path.join(tmp, "ball_%s.nsm" % default.replace(".", "_").replace("-", "m"))
        with open(path, "w") as f:
            f.write(text.replace("param e = 0.9", "param e = %s" % default))
        p = go(tmp, [NSMC, path, "-o", os.path.join(tmp, "g.c")])
        print("  param e = %s in a .nsm -> %d  %s" % (default, p.returncode,
                                                      p.stderr.strip().splitlines()[:1]))
        if ok:
            check(p.returncode == 0, "param e = %s: compiled" % default, p)
        else:
            check(p.returncode == 1 and BELOW in p.stderr and ":7:11: error:" in p.stderr
                  and "^~~~~~" in p.stderr, "param e = 1e-400: file:line:col error with a caret,"
                  " %s" % BELOW, p)
    # zeros are zeros: the ball with e = 0 stays on the floor after its landing
    for label, cmd in (("--set e=0", [SIM, "--set", "e=0"]),
                       ("--set e=0.0e-999", [SIM, "--set", "e=0.0e-999"]),
                       ("--set-file (e = 0.0e-999)", [SIM, "--set-file", "zero.txt"])):
        p = go(tmp, cmd + ["--t-end", "1", "--events", "ev.csv", "--out", "z.csv"])
        print("  simulator %s -> %d  %s" % (label, p.returncode, last(p)))
        check(p.returncode == 0, "simulator %s: taken" % label, p)
    # Python's params=
    os.environ["XDG_CACHE_HOME"] = os.path.join(tmp, "cache")
    import nsm
    from decimal import Decimal
    from fractions import Fraction
    m = nsm.compile(BALL)
    for value in ("1e-400", b"1e-400", Decimal("1e-400"), Fraction(1, 10 ** 400)):
        try:
            m.run(t_end=0.01, params={"e": value})
            outcome = "ran"
        except nsm.Error as err:
            outcome = "%s: %s" % (type(err).__name__, err)
        print("  Model.run(params={'e': %s}) -> %s" % (repr(value)[:40], outcome[:150]))
        check(BELOW in outcome and "parameter 'e'" in outcome,
              "params={'e': %s}: refused, %s" % (repr(value)[:40], BELOW))
    for value in ("0", "0.0e-999", 0.0, Decimal("0E-999")):
        r = m.run(t_end=0.01, params={"e": value})
        print("  Model.run(params={'e': %r}) -> ran, %d samples" % (value, len(r.t)))
        check(len(r.t) > 0, "params={'e': %r}: taken" % value)


# ---- cachesafe --------------------------------------------------------------

def case_cachesafe(tmp):
    """A cache folder of another user or writable by others refused."""
    bad = []
    loose = os.path.join(tmp, "loose")
    os.makedirs(os.path.join(loose, "nsm"))
    os.chmod(os.path.join(loose, "nsm"), 0o777)
    bad.append(("a cache folder of ours of mode 0777", loose, "writable by other users"))
    foreign = os.path.join(tmp, "foreign")
    os.makedirs(foreign)
    if os.geteuid() == 0:
        os.makedirs(os.path.join(foreign, "nsm"), mode=0o755)
        os.chown(os.path.join(foreign, "nsm"), 65534, 65534)
        what = "a cache folder owned by uid 65534"
    else:
        os.symlink("/usr", os.path.join(foreign, "nsm"))
        what = "a cache folder that is a link to /usr (root's)"
    bad.append((what, foreign, "owned by another user"))
    for label, xdg, words in bad:
        env = dict(os.environ, XDG_CACHE_HOME=xdg)
        p = subprocess.run([NSMC, "run", BALL, "--out-dir", "R", "-q", "--no-plot"], cwd=tmp,
                           env=env, capture_output=True, text=True, timeout=120 * SLOW)
        made = [n for n in os.listdir(os.path.join(xdg, "nsm"))] if os.path.isdir(
            os.path.join(xdg, "nsm")) else []
        print("  nsmc run, %s -> %d  %s" % (label, p.returncode, last(p)))
        check(p.returncode == 1 and "not safe" in p.stderr and words in p.stderr and
              os.path.join(xdg, "nsm") in p.stderr and not made and
              not os.path.exists(os.path.join(tmp, "R")),
              "nsmc run, %s: exit 1, '%s', nothing built or run" % (label, words), p)
        code, out = py_compile(tmp, env, BALL)
        print("  nsm.compile, %s -> %s" % (label, out[:150]))
        made = os.listdir(os.path.join(xdg, "nsm")) if os.path.isdir(
            os.path.join(xdg, "nsm")) else []
        check(code == 1 and "CompileError" in out and words in out and not made,
              "nsm.compile, %s: CompileError, '%s', nothing built" % (label, words))
    # a folder made here: 0700 whatever the umask, and used
    fresh = os.path.join(tmp, "fresh")
    env = dict(os.environ, XDG_CACHE_HOME=fresh)
    p = subprocess.run([NSMC, "run", BALL, "--out-dir", "F", "-q", "--no-plot", "--",
                        "--t-end", "0.01"], cwd=tmp, env=env, capture_output=True, text=True,
                       timeout=120 * SLOW, preexec_fn=lambda: os.umask(0))
    mode = stat.S_IMODE(os.stat(os.path.join(fresh, "nsm")).st_mode) if os.path.isdir(
        os.path.join(fresh, "nsm")) else None
    print("  nsmc run, a new cache folder under umask 000 -> %d, mode %s"
          % (p.returncode, None if mode is None else oct(mode)))
    check(p.returncode == 0 and mode == 0o700, "a new cache folder: made 0700 and used", p)
    # a relative HOME (no XDG_CACHE_HOME) is ignored: nothing under the current folder
    env = {k: v for k, v in os.environ.items() if k != "XDG_CACHE_HOME"}
    env["HOME"] = "relhome"
    p = subprocess.run([NSMC, "run", BALL, "--out-dir", "H", "-q", "--no-plot", "--",
                        "--t-end", "0.01"], cwd=tmp, env=env, capture_output=True, text=True,
                       timeout=120 * SLOW)
    tmpcache = "/tmp/nsm-cache-%d" % os.getuid()
    print("  nsmc run, HOME=relhome -> %d  %s; ./relhome there: %s"
          % (p.returncode, p.stderr.strip().splitlines()[:1],
             os.path.exists(os.path.join(tmp, "relhome"))))
    check(p.returncode == 0 and not os.path.exists(os.path.join(tmp, "relhome")) and
          tmpcache in p.stderr, "HOME=relhome: ignored, the cache is %s" % tmpcache, p)
    code, out = py_compile(tmp, env, BALL)
    print("  nsm.compile, HOME=relhome -> %s; ./relhome there: %s"
          % (out[:100], os.path.exists(os.path.join(tmp, "relhome"))))
    check(code == 0 and not os.path.exists(os.path.join(tmp, "relhome")),
          "nsm.compile, HOME=relhome: ignored, nothing under the current folder")
    env["XDG_CACHE_HOME"] = "relxdg"
    code, out = py_compile(tmp, env, BALL)
    print("  nsm.compile, XDG_CACHE_HOME=relxdg HOME=relhome -> %s; ./relxdg there: %s"
          % (out[:100], os.path.exists(os.path.join(tmp, "relxdg"))))
    check(code == 0 and not os.path.exists(os.path.join(tmp, "relxdg")) and
          not os.path.exists(os.path.join(tmp, "relhome")),
          "XDG_CACHE_HOME=relxdg: ignored too")


# ---- tabletwice --------------------------------------------------------------

def case_tabletwice(tmp):
    """--table twice refused; nsmc run's own --table not doubled."""
    for label, cmd, gone in (
            ("simulator --table --table", [SIM, "--table", "--table", "--t-end", "0.5",
                                           "--out", "t.csv"], "t.csv"),
            ("nsmc run -- --table --table", [NSMC, "run", BALL, "--out-dir", "R", "--no-plot",
                                             "--", "--table", "--table"], "R")):
        p = go(tmp, cmd)
        print("  %s -> %d  %s" % (label, p.returncode, last(p)))
        check(p.returncode == 1 and "--table is given twice" in p.stderr and
              not os.path.exists(os.path.join(tmp, gone)),
              "%s: exit 1, '--table is given twice', nothing written" % label, p)
    # one --table after "--": the ball's one landing in 0.5 s, at sqrt(2 h/g), listed once
    for label, extra in (("nsmc run -- --table", []), ("nsmc run -q -- --table", ["-q"])):
        p = go(tmp, [NSMC, "run", BALL, "--out-dir", "T", "--no-plot"] + extra +
               ["--", "--table", "--t-end", "0.5"])
        heads = [ln for ln in p.stdout.splitlines() if ln.startswith("t [s]")]
        rows = [ln.split() for ln in p.stdout.splitlines() if " impact " in ln]
        print("  %s -> %d, %d table header(s), %d impact row(s)"
              % (label, p.returncode, len(heads), len(rows)))
        check(p.returncode == 0 and len(heads) == 1 and len(rows) == 1 and
              abs(float(rows[0][0]) - (2 * 1.0 / 9.81) ** 0.5) < 1e-9,
              "%s: one table, the landing at sqrt(2 h/g)" % label, p)


# ---- dangling ----------------------------------------------------------------

def case_dangling(tmp):
    """An output folder that is a link to nothing: the link and target named."""
    os.symlink("nowhere/x", os.path.join(tmp, "D"))
    os.symlink("nowhere", os.path.join(tmp, "E"))
    for out, link, target in (("D", "D", "nowhere/x"), ("E/sub", "E", "nowhere")):
        for label, cmd in (
                ("nsmc run --out-dir %s" % out, [NSMC, "run", BALL, "--out-dir", out, "-q",
                                                 "--no-plot"]),
                ("nsmc sweep --out-dir %s" % out, [NSMC, "sweep", FIO, "--param",
                                                   "omega=2:3:2", "--section", "impact:stop",
                                                   "--out-dir", out]),
                ("nsmc continue --out-dir %s" % out, [NSMC, "continue", FIO, "--param",
                                                      "omega=2:2.5", "--out-dir", out]),
                ("simulator --plot %s" % out, [SIM, "--plot", out, "--t-end", "0.1"])):
            p = go(tmp, cmd)
            print("  %s -> %d  %s" % (label, p.returncode, last(p)))
            words = "'%s' is a symbolic link to '%s', which does not exist" % (link, target)
            check(p.returncode == 1 and words in p.stderr and
                  not os.path.exists(os.path.join(tmp, "nowhere")),
                  "%s: exit 1, \"%s\", nothing made" % (label, words), p)


# ---- pyunits -----------------------------------------------------------------

def case_pyunits(tmp):
    """params= with a unit: --set's conversion and --set's errors."""
    os.environ["XDG_CACHE_HOME"] = os.path.join(tmp, "cache")
    import nsm
    m = nsm.compile(BALL)
    t1 = (2 * 1.0 / 9.81) ** 0.5        # the first landing from 1 m under 9.81 m/s^2
    for text in ("981 cm/s^2", "981cm/s^2", "9810 mm/s^2", "0.00981 km/s^2", b"981 cm/s^2"):
        r = m.run(t_end=1, params={"g": text})
        shown = text.decode() if isinstance(text, bytes) else text
        p = go(tmp, [SIM, "--set", "g=" + shown, "--t-end", "1", "--out", "u.csv"])
        rows = [ln.split() for ln in p.stdout.splitlines() if " impact " in ln]
        tp = float(r.events[0][0]) if len(r.events) else None
        ts = float(rows[0][0]) if rows else None
        print("  params={'g': %r} -> first landing %s s; --set -> %s s; sqrt(2 h/g) = %.12g s"
              % (text, tp, ts, t1))
        check(tp is not None and ts is not None and abs(tp - t1) < 1e-6 and
              abs(ts - t1) < 1e-6, "g = %r: the landing at sqrt(2 h/g), as --set gives" % text)
    for text in ("981 cm", "2 Hz", "981 furlongs", "1e-400 m/s^2", "1e-320 nm/s^2"):
        p = go(tmp, [SIM, "--set", "g=" + text, "--t-end", "1", "--out", "u.csv"])
        cli = p.stderr.split("for parameter 'g': ", 1)[-1].splitlines()[0]
        try:
            m.run(t_end=1, params={"g": text})
            outcome = "ran"
        except nsm.ParameterError as err:
            outcome = str(err)
        print("  params={'g': %r} -> %s\n    --set: %s" % (text, outcome[:150], cli[:150]))
        check(p.returncode == 1 and outcome.endswith(cli) and "parameter 'g'" in outcome,
              "g = %r: refused as --set refuses it, word for word" % text)


# ---- animstop ----------------------------------------------------------------

def case_animstop(tmp):
    """A stop while the animation is drawn: said so, no earlier GIF left."""
    import signal
    import time
    cmd = [NSMC, "run", BALL, "--out-dir", "R", "--animate", "-q", "--no-plot"]
    p = go(tmp, cmd)
    check(p.returncode == 0 and os.path.isfile(os.path.join(tmp, "R", "animation.gif")),
          "a first run draws R/animation.gif", p)
    earlier = os.path.getmtime(os.path.join(tmp, "R", "animation.gif"))
    run = subprocess.Popen(cmd, cwd=tmp, env=env_for(tmp), stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
    t0, seen = time.monotonic(), False
    while run.poll() is None and time.monotonic() - t0 < 60 * SLOW and not seen:
        seen = any("gnuplot" in c for c in proc_descendants(run.pid).values())
        time.sleep(0.002)
    if not seen:
        run.communicate(timeout=60)
        raise AssertionError("gnuplot never ran under nsmc run --animate")
    run.send_signal(signal.SIGTERM)
    err = run.communicate(timeout=60 * SLOW)[1]
    left = sorted(os.listdir(os.path.join(tmp, "R")))
    print("  SIGTERM while gnuplot draws -> %d\n    %s\n    R: %s"
          % (run.returncode, "\n    ".join(err.strip().splitlines()[-3:]), left))
    gif = os.path.join(tmp, "R", "animation.gif")
    check(run.returncode == 128 + signal.SIGTERM, "exit 128 + SIGTERM")
    check("stopped early" not in err and "reached its end" in err and
          "while the animation was drawn" in err, "nsmc run says the run reached its end and "
          "the animation was stopped, not that the simulation stopped early")
    check(not (os.path.exists(gif) and os.path.getmtime(gif) == earlier) and
          "animation.log" not in left and "animation.gp" in left,
          "no earlier GIF left as this run's, no animation.log; this run's script kept")
    with open(os.path.join(tmp, "R", "trajectory.csv")) as f:
        rows = [ln.split(",") for ln in f.read().splitlines()[1:]]
    with open(os.path.join(tmp, "R", "events.csv")) as f:
        ev = [ln.split(",") for ln in f.read().splitlines()[1:]]
    t1 = (2 * 1.0 / 9.81) ** 0.5
    print("    trajectory to t = %s s; first landing at %s s (sqrt(2 h/g) = %.12g s)"
          % (rows[-1][0], ev[0][0], t1))
    check(abs(float(rows[-1][0]) - 10) < 1e-9 and abs(float(ev[0][0]) - t1) < 1e-9,
          "the trajectory whole to t_end = 10 s, the first landing at sqrt(2 h/g)")


if __name__ == "__main__":
    sys.exit(main({"underflow": case_underflow, "cachesafe": case_cachesafe,
                   "tabletwice": case_tabletwice, "dangling": case_dangling,
                   "pyunits": case_pyunits, "animstop": case_animstop}, "left25",
                  case_arg=4))
