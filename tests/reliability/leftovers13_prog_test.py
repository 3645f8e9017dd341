#!/usr/bin/env python3
"""What the eleventh and twelfth hostile passes on the programs and the
Python package left as found (issue #29, docs/status.md), each a check that
failed before its fix.

    tests/reliability/leftovers13_prog_test.py NSMC BALL_SIM SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  figures   nsmc run whose figures cannot be written (a 128 KiB tmpfs) exits
            1 with the cause, the results whole and no figure left (it said
            "warning: no plot" and exited 0, where the simulator's --plot
            exits 1 for the same failure).
  complete  nsmc sweep and nsmc continue whose complete file cannot be
            written (a tmpfs that holds the partial files but not the
            complete one beside them) name the partial files that keep every
            point (they named only section.csv or branch.csv, and the
            continuation said its points were "in DIR/branch.csv").
  fifo      nsmc run stopped by SIGTERM while its simulator waits for a
            reader of a FIFO planted as DIR/trajectory.csv says that nothing
            was written and what each result file is (it said both "hold
            whole lines up to where it stopped"; events.csv was not made).
  tty       an output naming /dev/tty is compared with stdout when stdout
            is that terminal: `--out - --events /dev/tty` refused as one
            file, exit 1 (both were written onto the terminal).
  python    the caller's own exceptions in argument handling and run(tend=1)
            are nsm.Error subclasses with a message and the original as
            __cause__ (they passed through unchanged); a masked array of
            sweep values is refused naming its masked entries (they were
            swept); the runtime's warnings (a floor at 1e9 m) are shown as
            nsm.SimulationWarning and kept on the result (Python showed none).
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import fcntl
import os
import pty
import select
import signal
import subprocess
import sys
import termios
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import (SANITIZED, check, env_for, main, python_script, run,  # noqa: E402
                     whole_lines)

NSMC = os.path.abspath(sys.argv[1])
BALL = os.path.abspath(sys.argv[2])
SRC = os.path.abspath(sys.argv[3])
MODELS = os.path.join(SRC, "models")
FIO = os.path.join(MODELS, "forced_impact_oscillator.nsm")
BALL_NSM = os.path.join(MODELS, "bouncing_ball.nsm")
SLOW = 3 if SANITIZED else 1


def tmpfs(cmd, size):
    """cmd run in a private mount namespace with a tmpfs of `size` at /mnt
    (a real full disk, gone when the command ends); the shell prints the
    files left in /mnt/out after it, one per line, after a marker."""
    script = ("mount -t tmpfs -o size=%s tmpfs /mnt || exit 99; \"$@\"; rc=$?; "
              "echo '--- left'; ls -a /mnt/out 2>/dev/null; "
              "for f in /mnt/out/*.partial; do [ -f \"$f\" ] && echo \"$f $(wc -l < \"$f\")\"; "
              "done; exit $rc" % size)
    return ["unshare", "-m", "sh", "-c", script, "sh"] + cmd


def left_files(p):
    """The files tmpfs() listed, and {partial file: its line count}."""
    out = p.stdout.split("--- left\n", 1)[-1].splitlines()
    names = [ln for ln in out if ln and " " not in ln and ln not in (".", "..")]
    lines = dict((ln.split(" ")[0], int(ln.split(" ")[1])) for ln in out if " " in ln)
    return names, lines


# ---- figures ----------------------------------------------------------------

def case_figures(tmp):
    """Figures that cannot be written: exit 1 with the cause."""
    # build the simulator into the cache first: the tmpfs holds the out-dir only
    p = run(tmp, [NSMC, "run", BALL_NSM, "--out-dir", "warm", "--t-end", "1", "-q", "--no-plot"],
            timeout=120 * SLOW)
    check(p.returncode == 0, "the simulator built", p)
    p = run(tmp, tmpfs([NSMC, "run", BALL_NSM, "--out-dir", "/mnt/out", "--t-end", "5", "-q"],
                       "128k"), timeout=60 * SLOW)
    check(p.returncode != 99, "a tmpfs can be mounted here (root, unshare)", p)
    names, _ = left_files(p)
    print("  nsmc run onto 128 KiB: exit %d, %s; left %s"
          % (p.returncode, p.stderr.strip().splitlines()[-1:], names))
    check(p.returncode == 1, "exit 1 (a figure that cannot be written is an error, as the "
          "simulator's --plot makes it; it was exit 0)", p)
    check("nsmc: error: the figures could not be drawn" in p.stderr and
          "the disk is full" in p.stderr and "warning: no plot" not in p.stderr,
          "the cause said as an error, not a warning", p)
    check("trajectory.csv" in names and "events.csv" in names and
          not [n for n in names if n.endswith((".png", ".svg")) or ".tmp" in n],
          "the results there, no figure and no temporary left", p)
    check("energy balance error" in p.stdout and "results: /mnt/out/trajectory.csv" in p.stdout,
          "the results summarised (they are whole)", p)
    p = run(tmp, [NSMC, "run", BALL_NSM, "--out-dir", "ok", "--t-end", "5", "-q"],
            timeout=60 * SLOW)
    check(p.returncode == 0 and os.path.exists(os.path.join(tmp, "ok", "plot.png")),
          "with room for them: exit 0 and the figures drawn", p)


# ---- complete ---------------------------------------------------------------

SWEEP = ["--param", "omega=2:3:40", "--section", "period:2*pi/omega", "--transient", "5",
         "--record", "20"]
CONT = ["--param", "omega=2.5:3.5", "--max-points", "200"]


def case_complete(tmp):
    """A complete file that cannot be written names the partial files."""
    # the reference: the same sweep and continuation with room (and the programs built)
    p = run(tmp, [NSMC, "sweep", FIO] + SWEEP + ["--out-dir", "s"], timeout=120 * SLOW)
    check(p.returncode == 0, "the sweep with room", p)
    rows = whole_lines(os.path.join(tmp, "s", "section.csv"))
    size = os.path.getsize(os.path.join(tmp, "s", "section.csv"))
    p = run(tmp, [NSMC, "continue", FIO] + CONT + ["--out-dir", "c"], timeout=120 * SLOW)
    check(p.returncode == 0, "the continuation with room", p)
    points = whole_lines(os.path.join(tmp, "c", "branch.csv"))
    csize = os.path.getsize(os.path.join(tmp, "c", "branch.csv"))
    # a tmpfs with room for the partial files (and the lock) but not for the
    # complete file's temporary beside them
    kib = lambda n: "%dk" % (4 * ((n + 4095) // 4096) + 8)     # noqa: E731
    p = run(tmp, tmpfs([NSMC, "sweep", FIO] + SWEEP + ["--out-dir", "/mnt/out"],
                       kib(size + 4096)), timeout=60 * SLOW)
    check(p.returncode != 99, "a tmpfs can be mounted here (root, unshare)", p)
    names, lines = left_files(p)
    print("  sweep onto %s: exit %d, %s; left %s %s" % (kib(size + 4096), p.returncode,
                                                       p.stderr.strip().splitlines()[-2:],
                                                       names, lines))
    check(p.returncode == 1 and "cannot write '/mnt/out/section.csv'" in p.stderr,
          "the sweep: exit 1, the complete section.csv cannot be written", p)
    check(lines.get("/mnt/out/section.csv.partial") == rows + 1 and
          lines.get("/mnt/out/summary.csv.partial") == 41,
          "the partial files hold every point (%d section rows, 40 summary rows)" % rows, p)
    check("the 40 points of this sweep are kept in /mnt/out/section.csv.partial and "
          "summary.csv.partial" in p.stderr,
          "the message names the partial files that keep the points (it named only "
          "section.csv)", p)
    p = run(tmp, tmpfs([NSMC, "continue", FIO] + CONT + ["--out-dir", "/mnt/out"],
                       kib(csize)), timeout=60 * SLOW)
    names, lines = left_files(p)
    print("  continuation onto %s: exit %d, %s; left %s %s"
          % (kib(csize), p.returncode, p.stderr.strip().splitlines()[-2:], names, lines))
    check(p.returncode == 1 and "cannot write '/mnt/out/branch.csv'" in p.stderr and
          lines.get("/mnt/out/branch.csv.partial") == points + 1,
          "the continuation: exit 1, branch.csv not written, its %d points in "
          "branch.csv.partial" % points, p)
    check("the %d points of this continuation are kept in /mnt/out/branch.csv.partial"
          % points in p.stderr,
          "the message names the partial file that keeps the points", p)
    check("in /mnt/out/branch.csv" not in p.stdout,
          "no line says the points are in the branch.csv that was not written", p)


# ---- fifo -------------------------------------------------------------------

def stopped_on_fifo(tmp, out, extra=()):
    """nsmc run into out, whose trajectory.csv is a FIFO nobody reads,
    stopped by SIGTERM once its simulator waits: the Popen, with
    returncode and stderr."""
    pr = subprocess.Popen([NSMC, "run", BALL_NSM, "--out-dir", out, "--t-end", "1", "-q"] +
                          list(extra),
                          cwd=tmp, env=env_for(tmp), stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    time.sleep(1.0 * SLOW)        # built already: the simulator is waiting in its open
    pr.send_signal(signal.SIGTERM)
    try:
        err = pr.communicate(timeout=20 * SLOW)[1]
    except subprocess.TimeoutExpired:
        pr.kill()
        raise
    pr.stderr = err
    return pr


def case_fifo(tmp):
    """A stop before anything was written: said as it is."""
    p = run(tmp, [NSMC, "run", BALL_NSM, "--out-dir", "warm", "--t-end", "1", "-q", "--no-plot"],
            timeout=120 * SLOW)
    check(p.returncode == 0, "the simulator built", p)
    out = os.path.join(tmp, "f")
    os.mkdir(out)
    os.mkfifo(os.path.join(out, "trajectory.csv"))
    p = stopped_on_fifo(tmp, out, ["--out", os.path.join(out, "r.h5")])
    print("  FIFO as trajectory.csv, SIGTERM: exit %d, %s"
          % (p.returncode, p.stderr.strip().splitlines()[-1:]))
    check(p.returncode == 143 and "waiting for a reader of the FIFO" in p.stderr,
          "stopped by SIGTERM while waiting for the FIFO's reader: exit 143", p)
    check("hold whole lines" not in p.stderr and
          "before the simulation started: nothing written" in p.stderr and
          "trajectory.csv: a FIFO, nothing written into it" in p.stderr and
          "events.csv: not made" in p.stderr and "r.h5: not made" in p.stderr,
          "nsmc run says nothing was written, the FIFO untouched, events.csv and the HDF5 file "
          "not made (it said both CSV files hold whole lines up to where it stopped)", p)
    check(not os.path.exists(os.path.join(out, "events.csv")) and
          not os.path.exists(os.path.join(out, "r.h5")), "events.csv and r.h5 indeed not made")
    # an earlier run's events.csv beside the FIFO: left as it was, and said so
    with open(os.path.join(out, "events.csv"), "w") as f:
        f.write("t,kind\n1,impact\n")
    p = stopped_on_fifo(tmp, out)
    print("  ... with an earlier events.csv: exit %d, %s"
          % (p.returncode, p.stderr.strip().splitlines()[-1:]))
    check(p.returncode == 143 and "events.csv: an earlier run's, as it was" in p.stderr and
          open(os.path.join(out, "events.csv")).read() == "t,kind\n1,impact\n",
          "an earlier run's events.csv said to be that, and left as it was", p)


# ---- tty --------------------------------------------------------------------

def with_terminal():
    """A preexec function making the child's stdin (a pseudo-terminal's
    slave) its controlling terminal, in a session of its own."""
    def pre():
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    return pre


def on_terminal(tmp, args, stdout_is_tty):
    """BALL with args, its controlling terminal a fresh pty; stdout that
    terminal or /dev/null.  (exit status, stderr, what reached the
    terminal)."""
    master, slave = pty.openpty()
    try:
        pr = subprocess.Popen([BALL] + args, cwd=tmp, stdin=slave,
                              stdout=slave if stdout_is_tty else subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True, start_new_session=True,
                              preexec_fn=with_terminal())
        os.close(slave)
        slave = -1
        got, end = b"", time.monotonic() + 30 * SLOW
        while time.monotonic() < end:   # drain the terminal: the run never waits on it
            if not select.select([master], [], [], 0.5)[0]:
                continue
            try:
                chunk = os.read(master, 65536)
            except OSError:    # EIO: every writer of the slave has gone
                break
            if not chunk:
                break
            got += chunk
        err = pr.communicate(timeout=30 * SLOW)[1]
        return pr.returncode, err, got.decode("utf-8", "replace")
    finally:
        os.close(master)
        if slave >= 0:
            os.close(slave)


def case_tty(tmp):
    """/dev/tty compared as the terminal it stands for."""
    for args in (["--out", "-", "--events", "/dev/tty"], ["--out", "/dev/tty", "--events", "-"],
                 ["--events", "-", "--stats", "/dev/tty"]):
        rc, err, got = on_terminal(tmp, ["--t-end", "1"] + args, True)
        print("  stdout the terminal: %-36s exit %d: %s" % (" ".join(args), rc,
                                                            err.strip().splitlines()[:1]))
        check(rc == 1 and "name the same file: each output needs its own" in err and
              "impact" not in got,
              "%s with stdout on that terminal: refused as one file, nothing written (both "
              "were written onto it)" % " ".join(args))
    rc, err, got = on_terminal(tmp, ["--t-end", "1", "--out", "-", "--events", "/dev/tty"], False)
    print("  stdout /dev/null: --out - --events /dev/tty  exit %d, %d bytes on the terminal"
          % (rc, len(got)))
    check(rc == 0 and "impact,floor" in got,
          "stdout elsewhere: /dev/tty is another file, the events written onto the terminal")


# ---- python -----------------------------------------------------------------

PY_ARGS = r'''
import sys, warnings
import numpy as np
import nsm
M = sys.argv[1] + "/"
two = nsm.compile(M + "two_mass.nsm")
fio = nsm.compile(M + "forced_impact_oscillator.nsm")

class Boom(Exception):
    pass

class S(str):
    """A str whose comparisons raise."""
    def __eq__(self, other): raise Boom("eq")
    def __ne__(self, other): raise Boom("ne")
    __hash__ = str.__hash__

class Items(dict):
    def items(self): raise Boom("items")

class Ones(dict):
    def items(self): return [("m1",)]

class It:
    def __iter__(self): raise Boom("iter")

def refused(label, call, cls, cause=None, words=()):
    """call() raises cls (an nsm.Error) with a message, cause chained."""
    try:
        call()
    except nsm.Error as e:
        print("  %-40s %s: %s" % (label, type(e).__name__, str(e)[:90]))
        assert isinstance(e, cls), "%s: %s, expected %s" % (label, type(e).__name__, cls.__name__)
        assert str(e).strip(), "%s: an empty message" % label
        if cause:
            assert isinstance(e.__cause__, cause), "%s: cause %r" % (label, e.__cause__)
        for w in words:
            assert w in str(e), "%s: %r not in %r" % (label, w, str(e))
        return e
    except BaseException as e:
        raise AssertionError("%s: %s escaped (%s)" % (label, type(e).__name__, e))
    raise AssertionError("%s: accepted" % label)

# the caller's exceptions: nsm errors naming the argument, the exception chained
refused("params whose items() raises", lambda: two.run(t_end=1, params=Items(m1=2)),
        nsm.ParameterError, Boom, ["params.items()", "Boom"])
refused("params whose items() gives a 1-tuple", lambda: two.run(t_end=1, params=Ones(m1=2)),
        nsm.ParameterError, None, ["pairs"])
refused("init whose iterator raises", lambda: two.run(t_end=1, init=It()),
        nsm.ParameterError, Boom, ["init", "Boom"])
refused("section params whose items() raises",
        lambda: fio.section("impact:stop", params=Items(e=0.5)), nsm.ParameterError, Boom)
refused("str subclass as a method, raising __eq__ (a parameter name below)",
        lambda: two.run(t_end=1, method=S("euler")), nsm.SettingError, None, ["euler"])
# where no argument check names it, still an nsm.Error with the exception chained
e = refused("basins axis whose iterator raises",
            lambda: fio.basins(It(), ("M.v", -1, 1, 3), "impact:stop"), nsm.Error, Boom,
            ["basins", "Boom"])
e = refused("run(tend=1)", lambda: two.run(tend=1), nsm.ArgumentError, TypeError, ["tend"])
assert isinstance(e, TypeError), "an ArgumentError is a TypeError too"
refused("run(1, 2, 3, ...) too many", lambda: two.run(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12),
        nsm.ArgumentError, TypeError)
refused("section() with no spec", lambda: fio.section(), nsm.ArgumentError, TypeError)
refused("nsm.compile(path=..., x=1)", lambda: nsm.compile(M + "two_mass.nsm", x=1),
        nsm.ArgumentError, TypeError)
# a str subclass is taken as its text: its own __eq__ and __hash__ never run
r = two.run(t_end=1, method=S("rk4"), params={S("m1"): 2.0})
assert r.method == "rk4" and len(r.t) > 0
p, rec = fio.sweep(S("omega"), [2.5], S("impact:stop"), transient=1, record=1)
assert p.tolist() == [2.5], p
refused("str subclass naming no parameter", lambda: two.run(t_end=1, params={S("nope"): 1}),
        nsm.ParameterError, None, ["nope"])
print("ok: the caller's exceptions and wrong calls are nsm errors, chained")

# masked sweep values: refused, naming them (np.asarray dropped the mask)
vals = np.ma.array([2.0, 1e9, 2.5, 7.0], mask=[0, 1, 0, 1])
refused("masked sweep values", lambda: fio.sweep("omega", vals, "impact:stop", transient=1,
                                                  record=1),
        nsm.ParameterError, None, ["2 masked entries", "at 1, 3", "compressed()"])
p, rec = fio.sweep("omega", vals.compressed(), "impact:stop", transient=1, record=1)
assert p.tolist() == [2.0, 2.5], p
p, rec = fio.sweep("omega", np.ma.array([2.0, 2.5]), "impact:stop", transient=1, record=1)
assert p.tolist() == [2.0, 2.5], "a masked array with nothing masked is swept: %s" % p
print("ok: masked sweep values refused; unmasked ones swept")

# the runtime's warnings: a floor at 1e9 m is held only to its band of 0.2 m
# (the shipped bouncing ball, its floor moved to H and the drop starting 1 m above it)
zsrc = open(M + "bouncing_ball.nsm").read()
for old, new in (("gap floor: B.x >= 0", "param H = 0 m\ngap floor: B.x - H >= 0"),
                 ("init B.x = 1 m", "init B.x = H + 1 m")):
    assert old in zsrc, old
    zsrc = zsrc.replace(old, new)
z = nsm.compile_source(zsrc)
with warnings.catch_warnings(record=True) as seen:
    warnings.simplefilter("always")
    r = z.run(t_end=3, params={"H": 1e9}, method="exact")
    here = [w for w in seen if issubclass(w.category, nsm.SimulationWarning)]
    print("  floor at 1e9 m:", [str(w.message)[:100] for w in here])
    assert len(here) == 1, "one warning, shown once: %s" % [str(w.message) for w in seen]
    assert "located and held only to 0.2 m" in str(here[0].message), here[0].message
    assert "move the model's origin near its contacts" in str(here[0].message)
    assert here[0].filename == __file__, "the warning names the caller's line: %s" % here[0].filename
    assert len(r.warnings) == 1 and "0.2 m" in r.warnings[0], r.warnings
    seen.clear()
    r = z.run(t_end=3, params={"H": 0}, method="exact")
    assert not seen and r.warnings == [], "a floor at 0 m: no warning (%s)" % r.warnings
    z.section("impact:floor", t_end=3, params={"H": 1e9}, method="exact")
    assert [w for w in seen if "0.2 m" in str(w.message)], "a study's run warns too"
with warnings.catch_warnings():
    warnings.simplefilter("error", nsm.SimulationWarning)
    try:
        z.run(t_end=3, params={"H": 1e9}, method="exact")
        raise AssertionError("the warning as an error was not raised")
    except nsm.SimulationWarning as w:
        print("  as an error:", type(w).__name__)
print("ok: the runtime's warnings shown as SimulationWarning and kept on the result")
'''


def case_python(tmp):
    python_script(tmp, "args.py", PY_ARGS, [MODELS],
                  "python: nsm errors for the caller's exceptions, masked values, warnings")


if __name__ == "__main__":
    sys.exit(main({"figures": case_figures, "complete": case_complete, "fifo": case_fifo,
                   "tty": case_tty, "python": case_python}, "nsm-left13prog-", case_arg=4))
