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
from passlib import SANITIZED, alive, check, env_for, main  # noqa: E402

NSMC = os.path.abspath(sys.argv[1])
SRC = os.path.abspath(sys.argv[2])
FIO = os.path.join(SRC, "models", "forced_impact_oscillator.nsm")
SLOW = 3 if SANITIZED else 1


def left_running(tmp):
    """Processes (pid, command line) whose working folder or command line
    is inside tmp, read in /proc (pgrep hangs under the sanitizer build's
    LD_PRELOAD)."""
    found = []
    for d in os.listdir("/proc"):
        if not d.isdigit() or int(d) == os.getpid():
            continue
        try:
            cwd = os.readlink("/proc/%s/cwd" % d)
            with open("/proc/%s/cmdline" % d, "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        if (cwd.startswith(tmp) or tmp in cmd) and alive(int(d)):
            found.append((int(d), cmd[:100]))
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
    """One child interpreter calling what, sent sig delay s after it says
    go; (its outcome, what it left) checked."""
    # compile into a cold cache; basins with the model and nsmc's sweep
    # program cached by duration()
    cache = os.path.join(tmp, "c%d" % k if what == "compile" else "c-basins")
    scratch = os.path.join(tmp, "t%d" % k)
    os.makedirs(scratch)
    env = dict(env_for(tmp), XDG_CACHE_HOME=cache, TMPDIR=scratch)
    pr = subprocess.Popen([sys.executable, "-c", PY_STOP, what, "1" if widen else "0", FIO],
                          cwd=tmp, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = pr.stdout.readline()
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
    trials += trials[:4]
    stopped = 0
    for k, (what, widen, sig) in enumerate(trials[:6] if SANITIZED else trials):
        try:
            stopped += stop_trial(tmp, k, what, widen, sig,
                                  rnd.uniform(0.05, 0.7) * span[what])
        except AssertionError:
            check(False, "%s with %s: ended within %d s of the signal (it hung)"
                  % (what, sig.name, 10 * SLOW))
    check(stopped >= 4, "at least 4 of the calls were stopped (%d)" % stopped)


if __name__ == "__main__":
    sys.exit(main({"stoppable": case_stoppable}, "nsm_left20prog_", case_arg=3))
