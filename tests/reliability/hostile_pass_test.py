#!/usr/bin/env python3
"""A fresh hostile pass over every surface: nothing silent, nothing lost.

    tests/reliability/hostile_pass_test.py NSMC SIM FIO_SIM SOURCE_DIR CASE

SIM is the two-mass simulator (sim_two_mass), FIO_SIM the forced impact
oscillator's (sim_forced_impact_oscillator).  Cases:
  options   every option of a simulator (read from its --help) with hostile
            values (empty, NaN, inf, 1e309, negative, hex, units, junk, 5000
            characters) and given twice: each run ends by itself with 0, 1
            or 3 and a message; an option given twice (even with the same
            value) and a parameter set twice (--set, --set-file) exit 1; every
            exit 1 happens before any output is opened: an earlier run's
            files and plots are left byte for byte, no new file appears.
  outputs   each output onto /dev/full, a file-size limit, a missing or
            read-only folder, and one output that cannot be opened among
            others that can: exit 3 (write) or 1 (open) with the system's
            reason, the other outputs of an earlier run untouched; two
            simulators writing one file at once: one refused, the file whole.
  commands  nsmc compile, run, sweep, continue with options given twice,
            full disks and read-only, missing or file out-dirs: exit 1 with a
            message before any work, nothing half-written.
  signals   SIGINT, SIGTERM, SIGHUP at random moments (seeded) of runs
            writing CSV and HDF5 and of sweeps: exit 128 + N or 0, CSV files
            of whole lines, HDF5 files readable and marked stopped or
            complete, a sweep's partial files whole.
  python    the Python API: bad arguments of every call, KeyboardInterrupt
            during a run (the partial result kept), a damaged cache entry
            (rebuilt), threads compiling one model into a cold cache.
Each input and its outcome is printed, so the pass is repeatable and its log
is the record of what was tried.  Exits 1 on the first failure.
"""
import os
import random
import re
import signal
import stat
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import (Failure, SANITIZED, bad_end, check, env_for, main,  # noqa: E402
                     pass_paths, run, snapshot, stop_after, whole_lines)

NSMC, SIM, FIO_SIM, SRC = pass_paths()[:4]
FIO = os.path.join(SRC, "models", "forced_impact_oscillator.nsm")
TWO = os.path.join(SRC, "models", "two_mass.nsm")


# ---- options ----------------------------------------------------------------

HOSTILE = ["", "nan", "-inf", "1e309", "-1", "0", "1e-320", "0x10", "1e3x", "5 ms",
           "x" * 5000, "--t-end"]


def sim_options(sim):
    """The options of sim's --help: (flag, takes a value)."""
    p = subprocess.run([sim, "--help"], capture_output=True, text=True, timeout=30)
    opts = {}
    for m in re.finditer(r"^\s+(--[a-z-]+)( [A-Z]|, --| *$| {2,})", p.stdout, re.M):
        opts[m.group(1)] = m.group(2).startswith(" ") and m.group(2).strip() != ""
    for m in re.finditer(r"(--[a-z-]+) ([A-Z][A-Z.|-]*)", p.stdout):
        opts[m.group(1)] = True
    return opts


def case_options(tmp):
    """Hostile values and repeats of every option: exit 0, 1 or 3 and a
    message; every exit 1 leaves the earlier run's files as they were."""
    old = os.path.join(tmp, "old")
    os.makedirs(os.path.join(old, "plots"))
    files = {"out": "t,x\n0,1\n", "ev": "t,kind\n", "stats": "a\n", "sec": "s\n"}
    for name, text in files.items():
        open(os.path.join(old, name + ".csv"), "w").write(text)
    open(os.path.join(old, "plots", "plot.png"), "wb").write(b"PNG-of-an-earlier-run")
    open(os.path.join(old, "none.txt"), "w").write("# no overrides\n")
    before = snapshot(old)
    base = ["--out", "old/out.csv", "--events", "old/ev.csv", "--stats", "old/stats.csv",
            "--plot", "old/plots"]
    opts = sim_options(SIM)
    check(len(opts) >= 25, "the simulator's --help lists %d options" % len(opts))
    tried = 0

    def one(args, expect=None, label=None):
        nonlocal tried
        tried += 1
        label = label or " ".join(a if len(a) < 40 else a[:12] + "...(%d)" % len(a)
                                  for a in args[len(base):] if args[:len(base)] == base) \
            or " ".join(args)
        p = run(tmp, [SIM, "--t-end", "0.05"] + args, timeout=60)
        why = bad_end(p)
        if why is None and expect is not None and p.returncode != expect:
            why = "exit %d, expected %d" % (p.returncode, expect)
        if why is None and p.returncode == 1 and snapshot(old) != before:
            why = "exit 1 after changing an earlier run's files"
        if why is None and p.returncode == 1 and sorted(os.listdir(tmp)) != sorted(start):
            why = "exit 1 leaving new files %s" % (set(os.listdir(tmp)) - set(start))
        print("  %-60s -> %d" % (label[:60], p.returncode))
        if why:
            raise Failure("%s: %s\n--- stderr:\n%s" % (label, why, p.stderr[-2000:]))
        if p.returncode != 1:     # a run that went ahead rewrote them: restore
            for rel, data in before.items():
                open(os.path.join(old, rel), "wb").write(data)
            for f in set(os.listdir(os.path.join(old, "plots"))) - {"plot.png"}:
                os.remove(os.path.join(old, "plots", f))
        return p

    start = os.listdir(tmp)
    skip = {"--help", "--out", "--events", "--stats", "--plot", "--animate", "--lyapunov-out",
            "--section-out"}
    for opt, valued in sorted(opts.items()):
        if opt in skip:
            continue
        if not valued:
            one(base + [opt])
            continue
        # under the sanitizers each run takes ~1 s: three values reach the
        # parser's paths (empty, not a number, out of range) in a minute or two
        for v in (HOSTILE[:2] + HOSTILE[3:4] if SANITIZED else HOSTILE):
            one(base + [opt, v])
    # every option given twice: refused, even with the same value
    same = {"--t-end": "0.05", "--dt": "0.001", "--every": "0.01", "--method": "rk4",
            "--rtol": "1e-9", "--atol": "1e-12", "--energy-tol": "0.1", "--max-steps": "1000000",
            "--max-event-rate": "1e6", "--max-impacts": "1000", "--events-max": "5",
            "--section": "impact:C", "--section-period": "1", "--set-file": "old/none.txt",
            "--fps": "10", "--frames": "5", "--lyapunov-interval": "0.01",
            "--lyapunov-transient": "0.01"}
    for opt, v in sorted(same.items()):
        p = one(base + [opt, v, opt, v], expect=1)
        check("given twice" in p.stderr, "%s given twice with the same value: exit 1, 'given "
              "twice'" % opt, p)
    p = one(["--out", "a.csv", "--out", "b.csv"], expect=1)
    check("--out is given twice" in p.stderr and not os.path.exists(os.path.join(tmp, "a.csv")),
          "--out a.csv --out b.csv: refused, neither written", p)
    p = one(base + ["--set", "k1=2", "--set", "k1=2"], expect=1)
    check("'k1' is set twice" in p.stderr, "--set k1=2 twice: exit 1 naming the parameter", p)
    open(os.path.join(tmp, "old", "set.txt"), "w").write("# overrides\nk1 = 3\nk1 = 4\n")
    before = snapshot(old)
    p = one(base + ["--set-file", "old/set.txt"], expect=1)
    check("by old/set.txt:2 and by old/set.txt:3" in p.stderr,
          "a --set-file setting k1 twice: exit 1 naming both lines", p)
    # option errors found only by the run's first step: exit 1 before any output
    for args, words in ((["--dt", "1e-300"], "below the time resolution"),
                        (["--method", "taylor"], "integrates nonlinear models")):
        p = one(base + args, expect=1)
        check(words in p.stderr, "%s: exit 1, nothing opened" % " ".join(args), p)
    p = run(tmp, [FIO_SIM, "--section", "impact:stop", "--section-period", "1e-12",
                  "--section-out", "old/sec.csv", "--out", "old/out.csv"])
    check(p.returncode == 1 and "(--section-period)" in p.stderr and snapshot(old) == before,
          "a section period the run refuses: exit 1 like a bad --every, files untouched", p)
    p = run(tmp, [SIM, "--every", "-1", "--out", "old/out.csv"])
    check(p.returncode == 1 and snapshot(old) == before, "a bad --every: exit 1 as well", p)
    print("options: %d argument vectors" % tried)


# ---- outputs ----------------------------------------------------------------

def case_outputs(tmp):
    """Full disks, file-size limits, folders that cannot take a file, an
    output refused among others, two writers of one file."""
    for opt in ("--out", "--events", "--stats"):
        p = run(tmp, [SIM, opt, "/dev/full"] + (["--out", "x.csv"] if opt != "--out" else []))
        check(p.returncode == 3 and "No space left on device" in p.stderr,
              "%s /dev/full: exit 3 with the reason" % opt, p)
    p = run(tmp, [FIO_SIM, "--section", "impact:stop", "--section-out", "/dev/full", "--out",
                  "x.csv", "--t-end", "50"])
    check(p.returncode == 3 and "No space left on device" in p.stderr,
          "--section-out /dev/full: exit 3 with the reason", p)

    def limit():
        import resource
        resource.setrlimit(resource.RLIMIT_FSIZE, (20000, 20000))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    p = run(tmp, [SIM, "--every", "0", "--out", "big.csv"], preexec=limit)
    check(p.returncode == 3 and "File too large" in p.stderr, "a file-size limit: exit 3", p)
    whole_lines(os.path.join(tmp, "big.csv"))
    p = run(tmp, [SIM, "--every", "0", "--out", "big.h5"], preexec=limit)
    check(p.returncode == 3 and "File too large" in p.stderr
          and not [f for f in os.listdir(tmp) if "partial" in f],
          "HDF5 under a file-size limit: exit 3, no temporary left", p)
    ro = os.path.join(tmp, "ro")
    os.makedirs(ro)
    os.chmod(ro, stat.S_IRUSR | stat.S_IXUSR)
    writable = not os.access(ro, os.W_OK)    # root writes anywhere
    keep = os.path.join(tmp, "keep")
    os.makedirs(keep)
    for name in ("out.csv", "ev.csv", "stats.csv", "run.h5"):
        open(os.path.join(keep, name), "w").write("earlier " + name + "\n")
    before = snapshot(keep)
    targets = ["missing/dir/x.csv", "x.csv/"] + (["ro/x.csv"] if writable else [])
    for bad_path in targets:
        for opt in ("--out", "--events", "--stats", "--out h5"):
            o = opt.split()[0]
            target = bad_path + (".h5" if opt.endswith("h5") and not bad_path.endswith("/") else "")
            args = {"--out": ["--out", "keep/out.csv"], "--events": ["--events", "keep/ev.csv"],
                    "--stats": ["--stats", "keep/stats.csv"]}
            cmd = [SIM]
            for k, v in args.items():
                if k != o or opt.endswith("h5"):
                    cmd += v
            cmd += [o, target]
            p = run(tmp, cmd)
            check(p.returncode == 1 and "error" in p.stderr and snapshot(keep) == before,
                  "%s %s: exit 1 with the reason, the other outputs' earlier files untouched"
                  % (o, target), p)
    # two simulators writing one CSV file at once: the second is refused
    slow = [SIM, "--t-end", "2000", "--every", "0.001", "--out", "one.csv"]
    a = subprocess.Popen(slow, cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         text=True)
    time.sleep(0.3)
    b = run(tmp, slow)
    a.send_signal(signal.SIGTERM)
    a.wait(timeout=60)
    check(b.returncode == 1 and "in use" in b.stderr,
          "a second simulator writing one.csv while the first does: refused", b)
    rows = whole_lines(os.path.join(tmp, "one.csv"))
    ts = [float(l.split(",")[0]) for l in open(os.path.join(tmp, "one.csv")).read().splitlines()[1:]]
    check(rows > 0 and ts == sorted(ts) and len(set(ts)) == len(ts),
          "the first writer's file holds its own rows only (%d, increasing t)" % rows)


# ---- commands ---------------------------------------------------------------

def case_commands(tmp):
    """nsmc's commands with hostile folders, full disks and repeats."""
    p = run(tmp, [NSMC, TWO, "-o", "/dev/full"])
    check(p.returncode == 1 and "No space left" in p.stderr, "nsmc -o /dev/full: exit 1", p)
    p = run(tmp, [NSMC, TWO, "-o", "missing/x.c"])
    check(p.returncode == 1 and not os.path.exists(os.path.join(tmp, "missing")),
          "nsmc -o into a missing folder: exit 1", p)
    open(os.path.join(tmp, "afile"), "w").write("x\n")
    for args, words in (
            (["run", TWO, "--out-dir", "o1", "--out-dir", "o2"], "given twice"),
            (["run", TWO, "--out", "a.h5", "--out", "b.h5", "--out-dir", "o3"], "given twice"),
            (["run", TWO, "--set-file", "s", "--set-file", "s", "--out-dir", "o4"], "given twice"),
            (["run", TWO, "--every", "0.1", "--every", "0.1", "--out-dir", "o5"], "given twice"),
            (["run", TWO, "--set", "e=0.5", "--set", "e=0.5", "--out-dir", "o6"], "set twice"),
            (["run", TWO, "--out-dir", "afile"], "error"),
            (["sweep", FIO, "--param", "omega=2:3:2", "--section", "impact:stop",
              "--out-dir", "s1", "--basin-tol", "0.1", "--basin-tol", "0.1"], "given twice"),
            (["sweep", FIO, "--param", "omega=2:3:2", "--section", "impact:stop",
              "--out-dir", "s2", "--jobs", "1", "--jobs", "1"], "given twice"),
            (["continue", FIO, "--param", "omega=1.3:1.2", "--param", "omega=1.3:1.2",
              "--out-dir", "c1"], "given twice"),
            (["continue", FIO, "--param", "omega=1.3:1.2", "--out-dir", "c2", "--out-dir", "c2"],
             "given twice"),
            (["continue", FIO, "--param", "omega=1.3:1.2", "--set", "e=0.5", "--set", "e=0.6",
              "--out-dir", "c3"], "given twice")):
        p = run(tmp, [NSMC] + args, timeout=300)
        made = [d for d in ("o1", "o2", "o3", "o4", "o5", "o6", "s1", "s2", "c1", "c2", "c3")
                if os.path.exists(os.path.join(tmp, d)) and
                set(os.listdir(os.path.join(tmp, d))) - {".nsm-run.lock"}]
        check(p.returncode == 1 and words in p.stderr and not bad_end(p) and not made,
              "nsmc %s: exit 1 (%s), nothing written" % (" ".join(args[:1] + args[2:]), words), p)
    # an option the simulator refuses leaves an earlier run's results alone
    p = run(tmp, [NSMC, "run", TWO, "--out-dir", "o7", "--set", "e=0.3"], timeout=300)
    check(p.returncode == 0, "a first nsmc run into o7", p)
    before = snapshot(os.path.join(tmp, "o7"))
    for args in (["--dt", "1e-300"], ["--method", "taylor"], ["--every", "-1"],
                 ["--", "--out", "o7/x.h5", "--out", "o7/y.h5"], ["--set", "nope=1"]):
        p = run(tmp, [NSMC, "run", TWO, "--out-dir", "o7"] + args, timeout=300)
        after = snapshot(os.path.join(tmp, "o7"))
        check(p.returncode == 1 and not bad_end(p) and
              {k: v for k, v in after.items() if k != ".nsm-run.lock"} ==
              {k: v for k, v in before.items() if k != ".nsm-run.lock"},
              "nsmc run %s refused: exit 1, the earlier results and plots untouched"
              % " ".join(args), p)
    ro = os.path.join(tmp, "ro")
    os.makedirs(ro)
    os.chmod(ro, stat.S_IRUSR | stat.S_IXUSR)
    if not os.access(ro, os.W_OK):
        for args in (["run", TWO, "--out-dir", "ro/x"], ["run", TWO, "--out-dir", "ro"],
                     ["sweep", FIO, "--param", "omega=2:3:2", "--section", "impact:stop",
                      "--out-dir", "ro"],
                     ["continue", FIO, "--param", "omega=1.3:1.2", "--out-dir", "ro/c"]):
            p = run(tmp, [NSMC] + args, timeout=300)
            check(p.returncode == 1 and "error" in p.stderr and not bad_end(p)
                  and not os.listdir(ro), "nsmc %s %s: exit 1 with the reason"
                  % (args[0], args[-1]), p)


# ---- signals ----------------------------------------------------------------

def case_signals(tmp):
    """Signals at random moments: files whole, or marked stopped."""
    import h5py
    rnd = random.Random(29)
    sigs = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
    for k in range(12):
        sig = sigs[k % 3]
        delay = rnd.uniform(0.0, 0.4)
        h5 = k % 2 == 0
        out = "r%d.%s" % (k, "h5" if h5 else "csv")
        # long enough that every signal arrives during the run (500 s of the
        # two masses took under 0.4 s on an idle machine: a late signal found
        # the run finished, exit 0); the run stops at the signal anyway
        cmd = [SIM, "--t-end", "100000", "--every", "0.001", "--out", out, "--events",
               "e%d.csv" % k]
        pr = subprocess.Popen(cmd, cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True)
        err = stop_after(pr, sig, delay, "%s after %.3f s" % (sig.name, delay), 30)
        rc = pr.returncode
        check(rc in (128 + sig, -sig), "%s after %.3f s: exit %d" % (sig.name, delay, rc))
        if rc < 0:
            continue       # before the handlers were installed: nothing written
        path = os.path.join(tmp, out)
        if os.path.exists(os.path.join(tmp, "e%d.csv" % k)):
            whole_lines(os.path.join(tmp, "e%d.csv" % k))
        if h5:
            if not os.path.exists(path):
                check(not [f for f in os.listdir(tmp) if f.startswith(out + ".")],
                      "  no HDF5 file and no temporary left (%s)" % err.strip()[-80:])
                continue
            with h5py.File(path, "r") as f:
                status = int(f["run"].attrs["status"])
                n = f["trajectory"].shape[0]
            check(status == 8, "  %s: readable, marked stopped (status 8), %d rows" % (out, n))
        else:
            rows = whole_lines(path)
            check(True, "  %s: %d whole rows" % (out, rows))
    # a sweep stopped at a random moment: its partial files whole, the exit 128 + N
    p = run(tmp, [NSMC, "sweep", FIO, "--param", "omega=2:3:2", "--transient", "3", "--record",
                  "3", "--section", "impact:stop", "--out-dir", "sw_build"], timeout=600)
    check(p.returncode == 0, "a first sweep builds the cached sweep program", p)
    for k, sig in enumerate(sigs):
        pr = subprocess.Popen([NSMC, "sweep", FIO, "--param", "omega=1.5:3:100000", "--transient",
                               "20", "--record", "10", "--section", "impact:stop", "--jobs", "2",
                               "--out-dir", "sw%d" % k], cwd=tmp, env=env_for(tmp),
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        err = stop_after(pr, sig, 0.3 + rnd.uniform(0, 1.5), "a sweep after %s" % sig.name)
        check(pr.returncode in (128 + sig, -sig), "sweep stopped by %s: exit %d"
              % (sig.name, pr.returncode))
        d = os.path.join(tmp, "sw%d" % k)
        for f in os.listdir(d) if os.path.isdir(d) else []:
            if f.endswith(".csv") or f.endswith(".partial"):
                whole_lines(os.path.join(d, f))
        check(True, "  its files hold whole lines: %s" % sorted(os.listdir(d)) if
              os.path.isdir(d) else "  no folder yet")


# ---- python -----------------------------------------------------------------

PY = r'''
import ctypes, os, signal, sys, threading, time
import numpy as np
import nsm
SRC = sys.argv[1]
TWO = os.path.join(SRC, "models", "two_mass.nsm")
FIO = os.path.join(SRC, "models", "forced_impact_oscillator.nsm")
ok = 0
def expect(fn, what):
    global ok
    try:
        fn()
    except nsm.Error as e:
        assert str(e).strip() and not str(e).rstrip().endswith(":"), \
            "%s: an empty message (%s %r)" % (what, type(e).__name__, str(e))
        ok += 1
        return
    except (TypeError, ValueError) as e:
        assert str(e).strip(), "%s: an empty message" % what
        ok += 1
        return
    raise AssertionError("%s: accepted" % what)
m = nsm.compile(TWO)
f = nsm.compile(FIO)
for bad in (None, "", "/nonexistent.nsm", 3, b"\0", "x" * 5000):
    expect(lambda: nsm.compile(bad), "compile(%r)" % (bad,))
expect(lambda: nsm.compile_source("model {"), "compile_source of a syntax error")
vals = [float("nan"), float("inf"), -1.0, 1e309, "1", None, [], {}, True, 1e300, -0.0, 0]
for kw in ("t_end", "every", "dt", "rtol", "atol", "max_steps", "max_event_rate"):
    for v in vals:
        try:
            m.run(**{kw: v, "t_end": 0.01} if kw != "t_end" else {kw: v})
        except (nsm.Error, TypeError, ValueError) as e:
            assert str(e).strip(), "run(%s=%r): an empty message" % (kw, v)
        ok += 1
for v in ("no", "yes", 2, None, "0"):
    expect(lambda: m.run(t_end=0.01, zeno=v), "zeno=%r" % (v,))
for params in ({"nope": 1}, {"k1": "x"}, {"k1": float("nan")}, [1], {"m1": -1.0}, "k1=2"):
    expect(lambda: m.run(t_end=0.01, params=params), "params=%r" % (params,))
expect(lambda: m.run(method="taylor"), "taylor on a linear model")
expect(lambda: m.run(method="nope"), "an unknown method")
expect(lambda: m.run(init={"nope.x": 1}), "an unknown init name")
expect(lambda: m.run(init=[1.0]), "an init of the wrong length")
for call in (lambda: f.section("nope:x", t_end=10), lambda: f.section("impact:stop", t_end=-1),
             lambda: f.section("impact:stop", t_end=10, period="1e-300"),
             lambda: f.lyapunov(-1, 0.1), lambda: f.lyapunov(1, float("nan")),
             lambda: f.floquet("0"), lambda: f.floquet("nope"),
             lambda: f.sweep("omega", [], "impact:stop"),
             lambda: f.sweep("nope", [1, 2], "impact:stop"),
             lambda: f.sweep("omega", [float("nan")], "impact:stop"),
             lambda: f.sweep("omega", [2, 3], "impact:stop", transient=-1),
             lambda: f.continuation("omega", 1.3, 1.3),
             lambda: f.continuation("nope", 1.3, 1.2),
             lambda: f.continuation("omega", float("inf"), 1.2)):
    expect(call, "study call %d of the list" % ok)
# Ctrl-C during a long run: Interrupted with the partial result, promptly
def interrupt():
    time.sleep(0.5)
    os.kill(os.getpid(), signal.SIGINT)
threading.Thread(target=interrupt).start()
t0 = time.monotonic()
try:
    m.run(t_end=50000, every=0.01)
    raise AssertionError("a run of 50000 s finished before Ctrl-C")
except nsm.Interrupted as e:
    assert time.monotonic() - t0 < 20, "Ctrl-C took %.1f s" % (time.monotonic() - t0)
    assert e.result is not None and len(e.result.t) > 0 and e.t > 0
ok += 1
# threads running the same model give the sequential results
ref = [m.run(t_end=1, method="exact", params={"e": e}).events["t"] for e in (0.2, 0.5, 0.8)]
out = [None] * 6
def worker(i):
    out[i] = m.run(t_end=1, method="exact", params={"e": (0.2, 0.5, 0.8)[i % 3]}).events["t"]
ts = [threading.Thread(target=worker, args=(i,)) for i in range(6)]
[t.start() for t in ts]
[t.join() for t in ts]
assert all(np.array_equal(out[i], ref[i % 3]) for i in range(6)), "threads differ"
ok += 1
print("python: %d hostile calls, each a result or an error with a message" % ok)
'''

PY_CACHE = r'''
import glob, os, sys, threading
import nsm
SRC, STAGE = sys.argv[1], sys.argv[2]
TWO = os.path.join(SRC, "models", "two_mass.nsm")
root = os.environ["XDG_CACHE_HOME"]
ref = [0.0] * int(os.environ.get("NSM_EVENTS", "0"))
sos = glob.glob(os.path.join(root, "**", "two_mass.so"), recursive=True)
if STAGE in ("truncate", "empty", "alter"):
    # damaged between two sessions (a file this process has mapped is not
    # touched: rewriting a mapped object in place is SIGBUS in any program)
    for so in sos:
        data = open(so, "rb").read()
        if STAGE == "truncate":
            data = data[:len(data) // 3]
        elif STAGE == "empty":
            data = b""
        else:
            data = data[:1000] + bytes([data[1000] ^ 0xff]) + data[1001:]
        open(so, "wb").write(data)
    r = nsm.compile(TWO).run(t_end=1, method="exact").events["t"]
    assert len(r) == len(ref), STAGE
    print("ok: a %s cached object is rebuilt" % {"truncate": "truncated", "empty": "empty",
                                                  "alter": "altered"}[STAGE])
    sys.exit(0)
# four threads compiling one model into a cold cache: each loads a whole object
res = [None] * 4
def build(i):
    res[i] = nsm.compile(TWO).run(t_end=1, method="exact").events["t"]
ts = [threading.Thread(target=build, args=(i,)) for i in range(4)]
[t.start() for t in ts]
[t.join() for t in ts]
assert all(r is not None and len(r) == len(res[0]) for r in res), "a thread failed"
sos = glob.glob(os.path.join(root, "**", "two_mass.so"), recursive=True)
assert sos, "no cached object under %s" % root
assert not [f for f in glob.glob(os.path.join(root, "**", "*"), recursive=True)
            if ".tmp" in f or f.endswith(".partial")], "a temporary left in the cache"
print("events:%d" % len(res[0]))
# an unwritable cache: a CompileError with a message
os.chmod(root, 0o500)
try:
    if not os.access(root, os.W_OK):
        for d in os.listdir(root):
            os.chmod(os.path.join(root, d), 0o500)
        try:
            nsm.compile_source("model tiny_%d\nbody B { mass = 1 kg }\n" % os.getpid())
            raise AssertionError("an unwritable cache accepted a new model")
        except nsm.Error as e:
            assert str(e).strip()
            print("ok: an unwritable cache: %s" % type(e).__name__)
finally:
    for dp, dn, fn in os.walk(root):
        os.chmod(dp, 0o700)
'''


def case_python(tmp):
    """The Python API's arguments, Ctrl-C, damaged caches and threads."""
    env = env_for(tmp)
    env.setdefault("MPLBACKEND", "Agg")
    # the damaged entries exercise the package's Python only: left to the
    # normal build (under the sanitizers each rebuild takes about a minute)
    stages = (("calls", PY, ""), ("cache", PY_CACHE, "threads")) + (
        () if SANITIZED else (("cache", PY_CACHE, "truncate"), ("cache", PY_CACHE, "empty"),
                              ("cache", PY_CACHE, "alter")))
    for name, code, stage in stages:
        path = os.path.join(tmp, "hostile_%s.py" % name)
        open(path, "w").write(code)
        try:
            p = subprocess.run([sys.executable, path, SRC, stage], cwd=tmp, env=env,
                               capture_output=True, text=True, timeout=600)
        except subprocess.TimeoutExpired:
            raise Failure("python %s %s: still running after 600 s" % (name, stage))
        print(p.stdout)
        check(p.returncode == 0, "python %s %s: every hostile call answered" % (name, stage), p)
        m = re.search(r"events:(\d+)", p.stdout)
        if m:
            env["NSM_EVENTS"] = m.group(1)


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-hostile-"))
