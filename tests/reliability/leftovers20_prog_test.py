#!/usr/bin/env python3
"""What the eighteenth hostile passes on the programs and the review of the
latest changes left as found (issue #29, docs/status.md), each a check that
failed before its fix.

    tests/reliability/leftovers20_prog_test.py NSMC SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  stoppable  SIGINT and SIGTERM at random moments into nsm.compile (nsmc,
             then the C compiler) and Model.basins (nsmc sweep --basin) in
             child interpreters, some with subprocess's wait lock made slow
             to release (the window where a signal's exception raised
             inside subprocess's wait left the lock held, and the
             clean-up's wait then blocked for ever, made wide): each ends
             within 10 s, SIGINT as KeyboardInterrupt (nsm.Interrupted for
             basins), SIGTERM by SIGTERM, no program left running (read in
             /proc), no temporary left in TMPDIR or the cache.
  sweepstart Model.sweep stopped by SIGINT before its first point: from a
             hook in its argument checks (a params mapping whose
             __contains__ sends the signal), and at 400 random moments of
             short sweeps: nsm.Interrupted with t None and empty records
             of the model's width, or the records so far (it was a bare
             KeyboardInterrupt from the checks before the sweep's try);
             a bare KeyboardInterrupt only raised outside the package or
             as the call is entered, before its first instruction.
  plotlock   the simulator's --plot DIR takes the folder's lock as `nsmc
             run` takes it: a simulator waiting on a FIFO with its --plot
             folder locked, then a second simulator and `nsmc run` into the
             folder, each refused naming the first's process and its own
             option, nothing written; `nsmc run` running into a folder,
             then a simulator's --plot there, refused (both were taken
             and wrote into one folder at once).
  helpvalue  `--help` or `-h` given as an option's value (`nsmc sweep M
             --section --help`, `--basin -h`, `--set --help`; `nsmc
             continue M --param --help`, `--ds -h`; `nsmc run M --method
             --help`, `--t-end -h`, `--set --help`; the simulator's, the
             sweep's and the continuation's programs themselves): refused
             as a bad value of that option, naming it, no help printed
             (nsmc refused them as --help beside other words); --help
             given as a word of its own beside others is still refused.
  cap        `nsmc continue` of the forced impact oscillator over
             omega = 2.5:2.8 on arclength steps held at 1e-6 (--ds and
             --ds-max; each step 1000 times --ds-min's floor of a creep):
             the documented default cap of 10000 points is reached in
             about 1.5 s, exit 3 with the cap named, 10000 whole points
             below 2.8; the same with --max-points 10000 given: a note,
             exit 0; Python's continuation likewise says the cap in
             Branch.message.
  cacheclean three `nsmc run` loops, an `nsm.compile` loop and two `nsmc
             cache clean` loops on one cache for 12 s: every run exits 0 with the landing at
             sqrt(2 h / g), every clean exits 0 (a run failed 3 times in
             1479 under load: a folder removed as make_dirs checked it,
             "cannot write the simulator's cache ...: No such file or
             directory", and the entry's C removed under a builder that
             had locked a lock file made anew while the clean was still
             removing the entry).
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import glob
import os
import random
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import (SANITIZED, alive, check, env_for, main, proc_cmdline,  # noqa: E402
                     proc_descendants, proc_find)

NSMC = os.path.abspath(sys.argv[1])
SRC = os.path.abspath(sys.argv[2])
FIO = os.path.join(SRC, "models", "forced_impact_oscillator.nsm")
SLOW = 3 if SANITIZED else 1


def left_running(tmp):
    """Processes (pid, command line) whose working folder or command line
    is inside tmp, read in /proc (pgrep hangs under the sanitizer build's
    LD_PRELOAD)."""
    found = []
    for pid in proc_find(lambda _cmd: True):
        cmd = proc_cmdline(pid)
        try:
            cwd = os.readlink("/proc/%d/cwd" % pid)
        except OSError:
            continue
        if (cwd.startswith(tmp) or tmp in cmd) and alive(pid):
            found.append((pid, cmd[:100]))
    return found


def temporaries(cache, scratch):
    """What a stopped call left: files in its TMPDIR, temporaries in the
    cache, an entry's C without its object (a half entry)."""
    bad = [os.path.join(scratch, f) for f in os.listdir(scratch)]
    for root, _, files in os.walk(cache):
        for f in files:
            path = os.path.join(root, f)
            half = os.path.basename(root).startswith("py-") and f.endswith(".c") and \
                not os.path.exists(path[:-2] + ".so")
            if ".tmp" in f or half:
                bad.append(path)
    return bad


# ---- stoppable -----------------------------------------------------------

# argv: what (compile, basins), widen (1: subprocess's wait lock slow to
# release once taken), the model
PY_STOP = r'''
import os, signal, subprocess, sys, time
import nsm
what, widen, model = sys.argv[1], sys.argv[2] == "1", sys.argv[3]


class SlowLock:
    """subprocess's wait lock whose acquire sleeps 20 ms once it has taken
    the lock: a signal's exception raised in that sleep leaves the lock
    held, as one raised between the lock's acquire and the with that
    releases it does (a window of a few instructions, made wide)."""

    def __init__(self, lock):
        self.lock = lock

    def acquire(self, blocking=True, timeout=-1):
        got = self.lock.acquire(blocking, timeout)
        if got:
            time.sleep(0.02)
        return got

    def release(self):
        self.lock.release()

    def __enter__(self):
        self.acquire()
        return self

    def __exit__(self, *exc):
        self.release()


if widen:
    _init = subprocess.Popen.__init__

    def _patched(self, *a, **k):
        _init(self, *a, **k)
        self._waitpid_lock = SlowLock(self._waitpid_lock)
    subprocess.Popen.__init__ = _patched

m = nsm.compile(model) if what == "basins" else None
print("go", flush=True)
done = False
try:
    if what == "compile":
        nsm.compile(model)
    else:
        m.basins(("M.x", -1, 0, 24), ("M.v", -1, 1, 24), "period:2*pi/omega")
    done = True
    signal.signal(signal.SIGINT, signal.SIG_IGN)    # a signal after the call is not its
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    print("finished", flush=True)
except KeyboardInterrupt as e:
    print("late" if done else type(e).__name__, flush=True)
    sys.exit(130)
'''


def stop_trial(tmp, k, what, widen, sig, delay):
    """One child interpreter calling what, sent sig delay s after a program
    (nsmc, the C compiler) runs under it; its outcome and what it left
    checked."""
    # compile into a cold cache; basins with the model and nsmc's sweep
    # program cached by duration()
    cache = os.path.join(tmp, "c%d" % k if what == "compile" else "c-basins")
    scratch = os.path.join(tmp, "t%d" % k)
    os.makedirs(scratch)
    env = dict(env_for(tmp), XDG_CACHE_HOME=cache, TMPDIR=scratch)
    # stdout unbuffered: a buffered readline could take the outcome line
    # with "go", and communicate() would then not see it
    pr = subprocess.Popen([sys.executable, "-c", PY_STOP, what, "1" if widen else "0", FIO],
                          cwd=tmp, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          bufsize=0)
    first = pr.stdout.readline()
    t0 = time.monotonic()       # the signal once a program runs under the call
    while not proc_descendants(pr.pid) and pr.poll() is None and time.monotonic() - t0 < 30 * SLOW:
        time.sleep(0.002)
    time.sleep(delay)
    t0 = time.monotonic()
    pr.send_signal(sig)
    try:
        out, err = pr.communicate(timeout=10 * SLOW)
    except subprocess.TimeoutExpired:
        pr.kill()
        pr.communicate()
        raise AssertionError
    took = time.monotonic() - t0
    time.sleep(0.2)     # a program left running would still write
    running, left = left_running(tmp), temporaries(cache, scratch)
    said = out.decode().split()
    print("  %-7s %s %s after %.3f s: exit %d in %.2f s, said %s, running %s, left %s"
          % (what, "slow lock" if widen else "         ", sig.name, delay, pr.returncode, took,
             said, running, left))
    if sig == signal.SIGINT:
        want = "KeyboardInterrupt" if what == "compile" else "Interrupted"
        ok = (pr.returncode, said) in ((130, [want]), (0, ["finished"]), (130, ["late"]))
    else:
        ok = pr.returncode == -signal.SIGTERM or (pr.returncode, said) == (0, ["finished"])
    check(first.strip() == b"go" and ok,
          "%s %s: %s" % (what, sig.name, "KeyboardInterrupt (nsm.Interrupted for basins) or the "
                         "whole call" if sig == signal.SIGINT else "ended by SIGTERM"),
          subprocess.CompletedProcess(pr.args, pr.returncode, out, err.decode()[-2000:]))
    check(not running and not left, "no program left running, no temporary left")
    return said != ["finished"]


def duration(tmp, what):
    """How long the child's call takes, unstopped (a cold cache for
    compile, the programs cached for basins)."""
    env = dict(env_for(tmp), XDG_CACHE_HOME=os.path.join(tmp, "c-" + what))
    if what == "basins":
        subprocess.run([sys.executable, "-c", PY_STOP, what, "0", FIO], cwd=tmp, env=env,
                       capture_output=True, timeout=120 * SLOW)
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, "-c", PY_STOP, what, "0", FIO], cwd=tmp, env=env,
                       capture_output=True, timeout=120 * SLOW)
    check(p.stdout.split() == [b"go", b"finished"], "%s unstopped" % what,
          subprocess.CompletedProcess(p.args, p.returncode, p.stdout, p.stderr.decode()))
    return time.monotonic() - t0


def case_stoppable(tmp):
    """Signals at random moments into nsm.compile and Model.basins."""
    rnd = random.Random(20)
    span = {w: duration(tmp, w) for w in ("compile", "basins")}
    print("  unstopped: compile %.2f s, basins %.2f s" % (span["compile"], span["basins"]))
    trials = [("compile", True, signal.SIGINT), ("compile", True, signal.SIGTERM),
              ("basins", True, signal.SIGINT), ("basins", True, signal.SIGTERM),
              ("compile", False, signal.SIGINT), ("compile", False, signal.SIGTERM),
              ("basins", False, signal.SIGINT), ("basins", False, signal.SIGTERM)]
    trials += trials[:2]
    stopped = 0
    for k, (what, widen, sig) in enumerate(trials[:6] if SANITIZED else trials):
        try:
            stopped += stop_trial(tmp, k, what, widen, sig,
                                  rnd.uniform(0, 0.3) * span[what])
        except AssertionError:
            check(False, "%s with %s: ended within %d s of the signal (it hung)"
                  % (what, sig.name, 10 * SLOW))
    check(stopped >= 4, "at least 4 of the calls were stopped (%d)" % stopped)


# ---- plotlock ------------------------------------------------------------

def refused(tmp, label, cmd, holder, option, d):
    """cmd, run while process holder writes into folder d: exit 1, the
    holder named with the advice of option, the folder unchanged."""
    before = sorted(os.listdir(d))
    p = subprocess.run(cmd, cwd=tmp, env=env_for(tmp), capture_output=True, text=True,
                       timeout=60 * SLOW)
    print("  %-36s -> %d  %s" % (label, p.returncode, p.stderr.strip().splitlines()[-1:]))
    check(p.returncode == 1 and "another run (process %d) is writing into" % holder in p.stderr
          and "choose another folder with %s" % option in p.stderr and
          sorted(os.listdir(d)) == before,
          "%s: refused, naming process %d and %s, the folder unchanged" % (label, holder, option),
          p)


def case_plotlock(tmp):
    """Two writers into one folder, one of them the simulator's --plot."""
    p = subprocess.run([NSMC, "run", FIO, "--no-plot", "-q", "--t-end", "1", "--out-dir", "o"],
                       cwd=tmp, env=env_for(tmp), capture_output=True, text=True,
                       timeout=120 * SLOW)
    check(p.returncode == 0, "nsmc run builds the simulator", p)
    sims = [f for f in glob.glob(os.path.join(tmp, "cache", "nsm", "*", "*"))
            if os.path.basename(f) == "forced_impact_oscillator" and os.access(f, os.X_OK)]
    check(len(sims) == 1, "the simulator is in the case's cache")
    d, fifo = os.path.join(tmp, "d"), os.path.join(tmp, "fifo.csv")
    os.mkfifo(fifo)
    # the first simulator locks d, then waits for the FIFO's reader
    first = subprocess.Popen([sims[0], "--t-end", "1", "--plot", d, "--out", fifo], cwd=tmp,
                             env=env_for(tmp), stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
    lockf = os.path.join(d, ".nsm-run.lock")
    t0 = time.monotonic()
    while not (os.path.exists(lockf) and open(lockf).read().strip() == str(first.pid)) and \
            first.poll() is None and time.monotonic() - t0 < 30 * SLOW:
        time.sleep(0.01)
    print("  a simulator --plot d waiting on a FIFO: running %s, lock %r"
          % (first.poll() is None, open(lockf).read().strip() if os.path.exists(lockf) else None))
    try:
        check(first.poll() is None and os.path.exists(lockf),
              "the simulator with --plot d holds d's lock (its process id in it)")
        refused(tmp, "a second simulator --plot d", [sims[0], "--t-end", "1", "--plot", d],
                first.pid, "--plot", d)
        refused(tmp, "nsmc run --out-dir d", [NSMC, "run", FIO, "--no-plot", "-q", "--t-end",
                                              "1", "--out-dir", d], first.pid, "--out-dir", d)
    finally:
        first.kill()
        first.wait()
    # nsmc run writing into e, then a simulator's --plot e
    e = os.path.join(tmp, "e")
    run = subprocess.Popen([NSMC, "run", FIO, "--no-plot", "-q", "--t-end", "1e7", "--every", "1000", "--out-dir",
                            e], cwd=tmp, env=env_for(tmp), stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
    lockf = os.path.join(e, ".nsm-run.lock")
    t0 = time.monotonic()
    # the simulator opens trajectory.csv, then events.csv: the folder is
    # settled once both are there
    while not all(os.path.exists(os.path.join(e, f)) for f in ("trajectory.csv", "events.csv")) \
            and run.poll() is None and time.monotonic() - t0 < 30 * SLOW:
        time.sleep(0.01)
    try:
        check(run.poll() is None, "nsmc run is writing into e")
        refused(tmp, "a simulator --plot e", [sims[0], "--t-end", "1", "--plot", e], run.pid,
                "--plot", e)
    finally:
        run.send_signal(signal.SIGINT)
        run.communicate(timeout=60 * SLOW)
    p = subprocess.run([sims[0], "--t-end", "1", "--plot", e], cwd=tmp, env=env_for(tmp),
                       capture_output=True, text=True, timeout=60 * SLOW)
    print("  a simulator --plot e once nsmc run ended -> %d" % p.returncode)
    check(p.returncode == 0 and os.path.getsize(os.path.join(e, "trajectory.csv")) > 0,
          "once the run ended, the simulator plots into e", p)


# ---- helpvalue -----------------------------------------------------------

def case_helpvalue(tmp):
    """--help or -h as an option's value."""
    sweep = [NSMC, "sweep", FIO, "--param", "omega=2.5:2.6:2", "--out-dir", "o"]
    cont = [NSMC, "continue", FIO, "--out-dir", "o"]
    run = [NSMC, "run", FIO, "--no-plot", "-q", "--out-dir", "o"]
    cases = [(sweep + ["--section", "--help"], "section '--help': expected"),
             (sweep[:3] + ["--basin", "-h", "--section", "impact:stop", "--out-dir", "o"],
              "--basin needs NAME=START:STOP:COUNT, got '-h'"),
             (sweep + ["--section", "impact:stop", "--set", "--help"],
              "--set needs NAME=VALUE, got '--help'"),
             (cont + ["--param", "--help"], "--param --help: expected NAME=FROM:TO"),
             (cont + ["--param", "omega=2.5:2.8", "--ds", "-h"], "--ds -h: expected a positive"),
             (run + ["--method", "--help"], "unknown method '--help'"),
             (run + ["--t-end", "-h"], "bad value '-h' for --t-end"),
             (run + ["--set", "--help"], "--set needs NAME=VALUE, got '--help'")]
    for cmd, said in cases:
        p = subprocess.run(cmd, cwd=tmp, env=env_for(tmp), capture_output=True, text=True,
                           timeout=120 * SLOW)
        last = p.stderr.strip().splitlines()[-1:] if p.stderr.strip() else []
        print("  %-52s -> %d  %s" % (" ".join(cmd[1:2] + cmd[3:])[:52], p.returncode, last))
        check(p.returncode == 1 and said in p.stderr and "takes no other argument" not in
              p.stderr and not p.stdout, "%s: refused as the option's bad value (%s)"
              % (" ".join(cmd[1:2] + cmd[3:]), said), p)
    sims = [f for f in glob.glob(os.path.join(tmp, "cache", "nsm", "*", "*"))
            if os.access(f, os.X_OK) and not os.path.isdir(f)]
    progs = {os.path.basename(f).rsplit("-", 1)[-1].replace("forced_impact_", ""): f
             for f in sims}
    check(set(progs) == {"oscillator", "sweep", "continue"},
          "the simulator, the sweep and the continuation programs are in the cache (%s)"
          % sorted(progs))
    own = [([progs["oscillator"], "--t-end", "--help"], "bad value '--help' for --t-end"),
           ([progs["sweep"], "--param", "omega=1:2:2", "--out-dir", "o", "--section", "-h"],
            "section '-h': expected"),
           ([progs["continue"], "--param", "--help"], "--param --help: expected")]
    for cmd, said in own:
        p = subprocess.run(cmd, cwd=tmp, env=env_for(tmp), capture_output=True, text=True,
                           timeout=60 * SLOW)
        print("  %-52s -> %d  %s" % (" ".join([os.path.basename(cmd[0])] + cmd[1:])[:52],
                                     p.returncode, p.stderr.strip().splitlines()[-1:]))
        check(p.returncode == 1 and said in p.stderr and not p.stdout,
              "%s itself: refused as the option's bad value" % os.path.basename(cmd[0]), p)
    for cmd in (sweep[:3] + ["--help"], sweep + ["--section", "impact:stop", "--help"],
                cont[:3] + ["-h"], run + ["--help"]):
        p = subprocess.run(cmd, cwd=tmp, env=env_for(tmp), capture_output=True, text=True,
                           timeout=60 * SLOW)
        print("  %-52s -> %d  %s" % (" ".join(cmd[1:2] + cmd[3:])[:52], p.returncode,
                                     p.stderr.strip().splitlines()[:1]))
        check(p.returncode == 1 and "takes no other argument" in p.stderr and not p.stdout,
              "--help beside other words: still refused", p)


# ---- cap -----------------------------------------------------------------

# docs/studies.md: "--max-points (10000)", exit 3 when "the default
# 10000-point cap" is reached, a --max-points given and reached "said in a
# note, exit 0"
DEFAULT_CAP = 10000
CAP_CMD = ["continue", FIO, "--param", "omega=2.5:2.8", "--ds", "1e-6", "--ds-max", "1e-6",
           "--no-plot"]


def branch_points(path):
    """The omegas of branch.csv's whole rows (after its header)."""
    with open(path) as f:
        rows = f.read().split("\n")
    return [float(r.split(",")[0]) for r in rows[1:] if r.count(",") > 8]


def case_cap(tmp):
    """The continuation's default point cap, reached."""
    for label, extra, want in (("default cap", [], 3),
                               ("--max-points 10000", ["--max-points", str(DEFAULT_CAP)], 0)):
        d = "o%d" % want
        t0 = time.monotonic()
        p = subprocess.run([NSMC] + CAP_CMD + extra + ["--out-dir", d], cwd=tmp,
                           env=env_for(tmp), capture_output=True, text=True,
                           timeout=120 * SLOW)
        took = time.monotonic() - t0
        omegas = branch_points(os.path.join(tmp, d, "branch.csv")) if p.returncode in (0, 3) \
            else []
        print("  %-20s -> %d in %.1f s, %d points, last omega %s: %s"
              % (label, p.returncode, took, len(omegas), omegas[-1] if omegas else None,
                 [ln[:90] for ln in p.stderr.splitlines() if "point cap" in ln]))
        check(p.returncode == want and len(omegas) == DEFAULT_CAP and omegas[-1] < 2.8 and
              "stopped at its point cap (max_points = %d)" % DEFAULT_CAP in p.stderr and
              ("error:" if want else "note:") in p.stderr,
              "%s: exit %d, the cap named (%s), %d points short of 2.8"
              % (label, want, "an error" if want else "a note", DEFAULT_CAP), p)
    code = ("import sys, nsm\nb = nsm.compile(sys.argv[1]).continuation('omega', 2.5, 2.8, "
            "ds=1e-6, ds_max=1e-6)\nprint(len(b), b.message)")
    p = subprocess.run([sys.executable, "-c", code, FIO], cwd=tmp, env=env_for(tmp),
                       capture_output=True, text=True, timeout=120 * SLOW)
    print("  Python's continuation -> %s" % p.stdout.strip()[:120])
    check(p.returncode == 0 and p.stdout.startswith("%d " % DEFAULT_CAP) and
          "point cap (max_points = %d)" % DEFAULT_CAP in p.stdout,
          "Python: %d points, Branch.message names the cap" % DEFAULT_CAP, p)


# ---- cacheclean ----------------------------------------------------------

BALL = os.path.join(SRC, "models", "bouncing_ball.nsm")


def landing(path):
    """The first impact's time in an events.csv, or None."""
    try:
        with open(path) as f:
            rows = f.read().splitlines()[1:]
    except OSError:
        return None
    return float(rows[0].split(",")[0]) if rows else None


def case_cacheclean(tmp):
    """nsmc run beside nsmc cache clean on one cache."""
    import threading
    import math
    env = dict(env_for(tmp))
    end = time.monotonic() + 12
    runs, cleans, bad = [0], [0], []
    t_land = math.sqrt(2 * 1.0 / 9.81)     # dropped from 1 m, g = 9.81 (by hand)

    def runner(k):
        """nsmc run again and again into its own folder."""
        while time.monotonic() < end:
            d = os.path.join(tmp, "o%d" % k)
            p = subprocess.run([NSMC, "run", BALL, "--no-plot", "-q", "--t-end", "0.5",
                                "--out-dir", d], cwd=tmp, env=env, capture_output=True,
                               text=True, timeout=120 * SLOW)
            runs[0] += 1
            t = landing(os.path.join(d, "events.csv"))
            if p.returncode != 0 or t is None or abs(t - t_land) > 1e-6:
                bad.append("run: exit %d, landing %s: %s" % (p.returncode, t, p.stderr[-500:]))

    def cleaner():
        """nsmc cache clean again and again."""
        while time.monotonic() < end:
            p = subprocess.run([NSMC, "cache", "clean"], cwd=tmp, env=env,
                               capture_output=True, text=True, timeout=60 * SLOW)
            cleans[0] += 1
            if p.returncode != 0:
                bad.append("clean: exit %d: %s" % (p.returncode, p.stderr[-500:]))
    def compiler():
        """nsm.compile and a run, again and again, in a child interpreter."""
        code = ("import math, sys, time, nsm\nend = time.monotonic() + float(sys.argv[2])\n"
                "n = 0\nwhile time.monotonic() < end:\n"
                "    r = nsm.compile(sys.argv[1]).run(t_end=0.5)\n"
                "    n += 1\n"
                "    assert abs(r.events['t'][0] - math.sqrt(2 / 9.81)) < 1e-6\nprint(n)")
        p = subprocess.run([sys.executable, "-c", code, BALL, str(end - time.monotonic())],
                           cwd=tmp, env=env, capture_output=True, text=True,
                           timeout=120 * SLOW)
        runs[0] += int(p.stdout.strip() or 0)
        if p.returncode != 0:
            bad.append("nsm.compile: exit %d: %s" % (p.returncode, p.stderr[-800:]))
    threads = [threading.Thread(target=runner, args=(k,)) for k in range(3)]
    threads += [threading.Thread(target=cleaner) for _ in range(2)]
    threads += [threading.Thread(target=compiler)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print("  %d runs and %d cleans on one cache: %d failed" % (runs[0], cleans[0], len(bad)))
    for b in bad[:3]:
        print("  " + b.strip().replace("\n", "\n    "))
    check(runs[0] >= 10 and not bad, "every run (landing at sqrt(2 h / g)) and every clean "
          "exits 0")


# ---- sweepstart ---------------------------------------------------------

PY_SWEEPSTART = r'''
import dis, os, random, signal, sys, threading, time
import numpy as np
import nsm
m = nsm.compile(sys.argv[1])
API = nsm.Model.sweep.__code__         # _api's wrapper
ENTRY = [i.offset for i in dis.get_instructions(API) if i.opname == "RESUME"][0]
WIDTH = 2 + 2 * len(m.bodies)


class Stopping(dict):
    """A params mapping whose membership test sends SIGINT (a Ctrl-C as the
    sweep checks its arguments)."""

    def __contains__(self, key):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.01)
        return dict.__contains__(self, key)


def stop_outcome(e):
    """How a stopped sweep ended: 'empty' (Interrupted, no records, of the
    model's width), 'partial', or what is wrong."""
    if isinstance(e, nsm.Interrupted):
        p, rec = e.result
        if e.t is None and p.shape == (0,) and rec.shape == (0, WIDTH):
            return "empty"
        return "partial" if len(p) == len(rec) and rec.shape[1:] == (WIDTH,) else "bad %r" % (e.result,)
    tb, frames = e.__traceback__, []
    while tb is not None:
        frames.append(tb)
        tb = tb.tb_next
    ours = [f for f in frames if f.tb_frame.f_code.co_filename == nsm.__file__]
    if not ours or (len(ours) == 1 and ours[0].tb_frame.f_code is API and
                    ours[0].tb_lasti <= ENTRY):
        return "outside"
    return "bare KeyboardInterrupt from %s line %d" % (ours[-1].tb_frame.f_code.co_name,
                                                     ours[-1].tb_lineno)


try:
    m.sweep("omega", [2.5, 2.6], "period:2*pi/omega", transient=2, record=2,
            params=Stopping(e=0.8))
    print("hook: finished")
except KeyboardInterrupt as e:
    print("hook:", stop_outcome(e))

seen = {}
rnd = random.Random(7)
span = 1.0
for _ in range(5):      # the call's own time, without a thread's start
    t0 = time.perf_counter()
    m.sweep("omega", [2.5], "period:2*pi/omega", transient=0, record=100)
    span = min(span, time.perf_counter() - t0)
print("span: %.6f s" % span)
for k in range(400):
    delay = rnd.uniform(0, span)
    th = threading.Timer(delay, os.kill, (os.getpid(), signal.SIGINT))
    try:
        th.start()
        m.sweep("omega", [2.5], "period:2*pi/omega", transient=0, record=100)
        th.join()
        got = "finished"
    except KeyboardInterrupt as e:
        got = stop_outcome(e)
        th.join()
    seen[got] = seen.get(got, 0) + 1
print("random:", sorted(seen.items()))
'''


def case_sweepstart(tmp):
    """Model.sweep stopped before its first point."""
    p = subprocess.run([sys.executable, "-c", PY_SWEEPSTART, FIO], cwd=tmp, env=env_for(tmp),
                       capture_output=True, text=True, timeout=120 * SLOW)
    print("  " + p.stdout.strip().replace("\n", "\n  "))
    check(p.returncode == 0, "the child ran", p)
    lines = dict(ln.split(": ", 1) for ln in p.stdout.strip().splitlines())
    check(lines.get("hook") == "empty", "a SIGINT as sweep checks its params: nsm.Interrupted "
          "with t None and empty records of the model's width")
    seen = eval(lines["random"])
    check(all(k in ("empty", "partial", "finished", "outside") for k, _ in seen),
          "400 SIGINTs at random moments: Interrupted, finished, or raised outside the "
          "package")


if __name__ == "__main__":
    sys.exit(main({"stoppable": case_stoppable, "sweepstart": case_sweepstart,
                   "plotlock": case_plotlock, "helpvalue": case_helpvalue,
                   "cap": case_cap, "cacheclean": case_cacheclean}, "nsm_left20prog_", case_arg=3))
