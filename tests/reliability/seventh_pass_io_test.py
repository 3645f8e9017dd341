#!/usr/bin/env python3
"""A seventh hostile pass over the runtime's I/O and study surfaces (issue
#29): the simulators' outputs onto pipes whose reader goes away, full
disks and odd files, HDF5 output, nsmc sweep, continue, run and cache, the
program caches damaged by folders where files belong, and the Python API's
studies with hostile arguments, by inputs the first six passes did not try.

    tests/reliability/seventh_pass_io_test.py NSMC SIM FIO_SIM SOURCE_DIR CASE SIMS_DIR

Cases (each under 20 s in the normal build):
  findings   what the pass found, each failing before its fix: a simulator
             writing its trajectory to a pipe whose reader went away
             (`--out - | head -1`) was killed by SIGPIPE without a word, its
             event log still buffered (events.csv left empty) and its HDF5
             file never renamed into place; `nsmc continue` and `nsmc cache
             clean` exited 0 with their standard output on a full disk;
             `--max-impacts 2.5` was cut to 2 without a word; a
             folder in place of a cached simulator or of its checksum was
             said to be rebuilt, then every run failed ("Is a directory",
             naming the simulator for its checksum).
  python     the Python API's findings (basins' transient=2.7 and jobs=2.5
             were cut to 2 without a word, continuation's switch_pd='no' was
             true, a 2-D array of values, a list as a
             parameter's name or as params, a list as method and None as a
             basin axis escaped as bare TypeError, ValueError or
             AttributeError; folders in place of the cached object, its
             checksum, its C file or its lock failed every compile), and
             about 110 hostile arguments to run, sweep, basins,
             continuation, lyapunov, floquet and section: a result or an
             nsm.Error with a message; one model run from four threads gives
             bit-identical results.
  sweep, sweep_more  about 90 hostile nsmc sweep inputs in two halves
             (the first also the findings that a section period of -1 was
             blamed on --method, and that a folder in place of summary.csv
             stopped a sweep after it had replaced section.csv, leaving it
             beside an earlier sweep's summary; out-dirs that are links,
             devices or hold folders where files belong, a file-size limit,
             /dev/full in place of a result, counts, ranges, sections,
             horizons, methods, --set, basins, bodies in space): each ends by
             itself with 0, 1 or 3 and a message; a refusal writes nothing.
  outputs    HDF5 onto folders, FIFOs, missing folders, garbage files, a
             file-size limit, two writers, with every other output; nsmc
             continue and run onto full disks, files and closed pipes.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import (Failure, check, env_for, label_of, main, pass_paths,  # noqa: E402
                     python_script, run, tried, whole_lines)

NSMC, SIM, FIO_SIM, SRC, SIMS, MODELS = pass_paths()
FIO = os.path.join(MODELS, "forced_impact_oscillator.nsm")
BALL = os.path.join(SIMS, "sim_bouncing_ball")
SWEEP = ["--param", "omega=1:2:3", "--section", "impact:stop", "--transient", "2",
         "--record", "2"]


def h5_run(path):
    """The /run attributes and the trajectory's rows of an HDF5 output."""
    import h5py
    with h5py.File(path, "r") as f:
        return dict(f["run"].attrs), f["trajectory"].shape[0]


# ---- findings ---------------------------------------------------------------

def closed_pipe(tmp, cmd, lines=1):
    """Runs cmd with its stdout a pipe whose reader reads lines lines and
    goes away (as `| head -1`); the exit status and stderr."""
    pr = subprocess.Popen(cmd, cwd=tmp, env=env_for(tmp), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE)
    for _ in range(lines):
        pr.stdout.readline()
    pr.stdout.close()
    try:
        err = pr.communicate(timeout=60)[1].decode(errors="replace")
    except subprocess.TimeoutExpired:
        pr.kill()
        raise Failure("%s: still running 60 s after its reader went away" % label_of(cmd))
    return pr.returncode, err


def two_h5_writers(tmp):
    """Two simulators writing one HDF5 file: the second is refused before it
    writes anything, as a second CSV writer is (both succeeded, the later
    rename winning over the first's file)."""
    first = subprocess.Popen([BALL, "--out", "two.h5", "--t-end", "1e5", "--every", "1e-3"],
                             cwd=tmp, env=env_for(tmp), stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(200):            # its temporary exists once its file is open
            if any(f.startswith("two.h5.") for f in os.listdir(tmp)):
                break
            time.sleep(0.05)
        time.sleep(0.5)                 # and is locked just after it is made
        p = run(tmp, [BALL, "--out", "two.h5", "--t-end", "1"])
        check(p.returncode == 1 and "cannot write 'two.h5': it is in use by another running "
              "program (process %d" % first.pid in p.stderr and
              not os.path.exists(os.path.join(tmp, "two.h5")),
              "a second simulator writing two.h5: exit 1, nothing written (both exit 0)", p)
        first.send_signal(signal.SIGTERM)
        first.communicate(timeout=60)
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    attrs, rows = h5_run(os.path.join(tmp, "two.h5"))
    check(first.returncode == 143 and attrs.get("status") == 8 and rows > 0,
          "the first writer, stopped by SIGTERM: two.h5 its own, marked stopped (%r, %d rows)"
          % (first.returncode, rows))
    p = run(tmp, [BALL, "--out", "two.h5", "--t-end", "1"])
    attrs, rows = h5_run(os.path.join(tmp, "two.h5"))
    check(p.returncode == 0 and attrs.get("status") == 0 and attrs.get("t_reached") == 1,
          "once the first is done, two.h5 is written again", p)


def case_findings(tmp):
    """Each finding of the pass outside Python, a check that failed before its fix."""
    two_h5_writers(tmp)
    # a reader of the trajectory gone: a failed write of standard output,
    # said, the event log whole, the HDF5 file renamed into place and
    # marked stopped (it was killed by SIGPIPE: exit -13, nothing said,
    # events.csv empty, only x.h5.PID.partial left)
    rc, err = closed_pipe(tmp, [BALL, "--out", "-", "--events", "ev.csv", "--out", "x.h5",
                                "--every", "1e-4", "--t-end", "100"])
    ev = os.path.join(tmp, "ev.csv")
    nev = whole_lines(ev)
    left = [f for f in os.listdir(tmp) if "partial" in f]
    attrs, rows = h5_run(os.path.join(tmp, "x.h5")) if os.path.exists(
        os.path.join(tmp, "x.h5")) else ({}, 0)
    print("  --out - | head -1: exit %d, events.csv %d bytes (%d events), x.h5 status %s, "
          "%d rows" % (rc, os.path.getsize(ev), nev, attrs.get("status"), rows))
    check(rc == 3 and "cannot write 'standard output': Broken pipe" in err and
          os.path.getsize(ev) > 0 and attrs.get("status") == 8 and rows > 0 and not left,
          "bouncing_ball --out - | head -1: exit 3 'cannot write standard output: Broken pipe', "
          "events.csv whole, x.h5 in place marked stopped (it was killed by SIGPIPE, silently)")
    # nsmc continue: its special points on stdout, checked
    with open("/dev/full", "w") as full:
        p = subprocess.run([NSMC, "continue", FIO, "--param", "omega=1.5:2.5", "--max-points",
                            "30", "--no-plot", "--out-dir", "c"], cwd=tmp, env=env_for(tmp),
                           stdout=full, stderr=subprocess.PIPE, text=True, timeout=300)
    check(p.returncode == 1 and "cannot write 'standard output': No space left on device" in
          p.stderr and whole_lines(os.path.join(tmp, "c", "branch.csv")) > 0,
          "nsmc continue >/dev/full: exit 1 naming standard output, branch.csv whole (it "
          "exited 0)", p)
    rc, err = closed_pipe(tmp, [NSMC, "continue", FIO, "--param", "omega=1.5:2.5",
                                "--max-points", "30", "--no-plot", "--out-dir", "c2"], lines=0)
    check(rc == 1 and "cannot write 'standard output': Broken pipe" in err,
          "nsmc continue | head -1: exit 1 naming standard output (%d)" % rc)
    with open("/dev/full", "w") as full:
        p = subprocess.run([NSMC, "cache", "clean"], cwd=tmp, env=env_for(tmp), stdout=full,
                           stderr=subprocess.PIPE, text=True, timeout=60)
    check(p.returncode == 1 and "cannot write 'standard output'" in p.stderr,
          "nsmc cache clean >/dev/full: exit 1 (it exited 0)", p)
    # --max-impacts takes a whole number, as --max-steps (2.5 ran as 2: the
    # five-bead cradle's 2.5 failed as 2 does, "2 impacts at one instant")
    cradle = os.path.join(SIMS, "sim_cradle5")
    for v in ("2.5", "1.0000001", "4.999"):
        p = run(tmp, [cradle, "--max-impacts", v, "--out", "mi.csv"])
        check(p.returncode == 1 and "bad value '%s' for --max-impacts" % v in p.stderr and
              not os.path.exists(os.path.join(tmp, "mi.csv")),
              "cradle5 --max-impacts %s: exit 1 before any output (it was cut)" % v, p)
    for v in ("2", "1e8", "4"):
        p = run(tmp, [cradle, "--max-impacts", v, "--out", "/dev/null"])
        check(p.returncode in (0, 3) and "bad value" not in p.stderr,
              "cradle5 --max-impacts %s is taken" % v, p)
    # a folder in place of the cached simulator or of its checksum: cleared
    # and rebuilt (every run failed, "Is a directory", naming the simulator)
    cmd = [NSMC, "run", FIO, "--no-plot", "-q", "--out-dir", "r", "--", "--t-end", "10"]
    p = run(tmp, cmd, timeout=300)
    check(p.returncode == 0, "nsmc run builds the simulator", p)
    entry = [d for d in os.listdir(os.path.join(tmp, "cache", "nsm"))
             if d.startswith("forced_impact_oscillator-") and "continue" not in d][0]
    base = os.path.join(tmp, "cache", "nsm", entry, "forced_impact_oscillator")
    for what, path in (("the simulator", base), ("its checksum", base + ".sum"),
                       ("both", None)):
        for f in ([base, base + ".sum"] if path is None else [path]):
            if os.path.exists(f):
                os.unlink(f)
            os.mkdir(f)
        p = run(tmp, cmd, timeout=300)
        check(p.returncode == 0 and "Is a directory" not in p.stderr and
              os.path.isfile(base) and os.path.isfile(base + ".sum"),
              "a folder in place of %s in the cache: rebuilt, the run goes on (every run "
              "failed, 'Is a directory')" % what, p)


# ---- python -----------------------------------------------------------------

PY = r'''
import glob, os, sys, threading
import numpy as np
import nsm
MODELS = sys.argv[1]
n = 0
def expect(label, call, errors):
    """One call: a result, or one of errors with a message (never a bare
    TypeError, ValueError or AttributeError)."""
    global n
    n += 1
    try:
        call()
        got = "ok"
    except nsm.Error as e:
        assert str(e).strip(), "%s: an empty message" % label
        got = type(e).__name__
    print("  %-52s %s" % (label[:52], got))
    assert got in errors, "%s: %s, expected %s" % (label, got, errors)
S, P, R, OK = ("SettingError",), ("ParameterError",), ("SimulationError",), ("ok",)
ANY = S + P + R + OK
fio = nsm.compile(os.path.join(MODELS, "forced_impact_oscillator.nsm"))
sec = "impact:stop"
bx, bv = ("M.x", -0.1, 0.1, 2), ("M.v", -0.1, 0.1, 2)
# the findings, each refused with its own error (they were cut, taken as
# true, or escaped as bare exceptions)
F = [
 ("basins transient=2.7 (was cut to 2)", lambda: fio.basins(bx, bv, sec, transient=2.7), S),
 ("basins jobs=2.5 (was cut to 2)", lambda: fio.basins(bx, bv, sec, jobs=2.5), S),
 ("basins transient=nan", lambda: fio.basins(bx, bv, sec, transient=float("nan")), S),
 ("basins record=None", lambda: fio.basins(bx, bv, sec, record=None), S),
 ("basins tol='abc'", lambda: fio.basins(bx, bv, sec, tol="abc"), S),
 ("basins jobs=None", lambda: fio.basins(bx, bv, sec, jobs=None), S),
 ("basins params=[1]", lambda: fio.basins(bx, bv, sec, params=[1]), P),
 ("basins method=3", lambda: fio.basins(bx, bv, sec, method=3), S),
 ("basins x=None", lambda: fio.basins(None, bv, sec), S),
 ("continuation switch_pd='no' (was true)",
  lambda: fio.continuation("omega", 1.5, 1.6, switch_pd="no", max_points=2), S),
 ("continuation params=[1]", lambda: fio.continuation("omega", 1.5, 1.6, params=[1]), P),
 ("continuation param=['omega']", lambda: fio.continuation(["omega"], 1.5, 1.6), P),
 ("continuation curve=['fold']", lambda: fio.continuation("omega", 1.5, 1.6, curve=["fold"]), S),
 ("sweep values 2-D", lambda: fio.sweep("omega", np.ones((2, 2)), sec, transient=1, record=1), P),
 ("sweep param=['omega']", lambda: fio.sweep(["omega"], [1.5], sec, transient=1, record=1), P),
 ("sweep params=[1]", lambda: fio.sweep("omega", [1.5], sec, transient=1, record=1, params=[1]), P),
 ("run method=['rk4']", lambda: fio.run(method=["rk4"], t_end=0.1), S),
 ("sweep method=['rk4']", lambda: fio.sweep("omega", [1.5], sec, method=["rk4"]), S),
]
for label, call, want in F:
    expect(label, call, want)
print("ok: %d findings refused with their own nsm.Error" % len(F))
# the leftovers: lyapunov from t = 0 with a contact held there is the
# simulator's option error (a SimulationError of the first step), and a
# sweep in which no value gave a record is nsmc sweep's exit 3 (empty
# arrays were returned)
tm = nsm.compile(os.path.join(MODELS, "two_mass.nsm"))
try:
    tm.lyapunov(5, 0.5)
    raise AssertionError("two_mass lyapunov from t = 0 ran")
except nsm.SettingError as e:
    assert "does not start in free flight" in str(e) and "'C'" in str(e) and \
        "transient" in str(e), e
print("ok: two_mass lyapunov(5, 0.5): SettingError naming contact C and the transient")
lam = tm.lyapunov(5, 0.5, transient=5)
assert lam.shape == (4,) and np.all(np.isfinite(lam)), lam
print("ok: two_mass lyapunov(5, 0.5, transient=5) still runs")
for vals, tr, tmax in (([1.5], 10 ** 5, 5), ([1.5, 2.0], 3, 1e-3)):
    try:
        r = fio.sweep("omega", vals, sec, transient=tr, record=1, t_max=tmax)
        raise AssertionError("sweep without a record returned %r" % (r,))
    except nsm.SimulationError as e:
        assert "no value gave section records" in str(e) and e.status == "sweep" and \
            e.result[0].size == 0, e
print("ok: a sweep in which no value gave a record: SimulationError (it returned empty arrays)")
p_, rec_ = fio.sweep("omega", [1.5], sec, transient=1, record=1)
assert p_.shape == (1,) and rec_.shape == (1, 4), (p_.shape, rec_.shape)
print("ok: a sweep with a record still returns it")
try:
    fio.run(t_ned=1)
    raise AssertionError("a keyword typo was taken")
except TypeError as e:      # Python's own refusal, naming the keyword
    assert "t_ned" in str(e), e
# hostile arguments that found nothing: a result or an nsm.Error
nan, inf = float("nan"), float("inf")
G = [
 ("sweep values generator", lambda: fio.sweep("omega", (x for x in [1.0]), sec, transient=1, record=1)),
 ("sweep values dict", lambda: fio.sweep("omega", {1: 2}, sec, transient=1, record=1)),
 ("sweep values '1.5'", lambda: fio.sweep("omega", "1.5", sec, transient=1, record=1)),
 ("sweep values [1.5, None]", lambda: fio.sweep("omega", np.array([1.5, None]), sec, transient=1, record=1)),
 ("sweep values []", lambda: fio.sweep("omega", [], sec)),
 ("sweep values [nan]", lambda: fio.sweep("omega", [nan], sec)),
 ("sweep values [1j]", lambda: fio.sweep("omega", [1j], sec)),
 ("sweep param None", lambda: fio.sweep(None, [1.5], sec)),
 ("sweep period 0", lambda: fio.sweep("omega", [1.5], "period:2", period=0, transient=1, record=1)),
 ("sweep period -1", lambda: fio.sweep("omega", [1.5], "period:2", period=-1, transient=1, record=1)),
 ("sweep period nan", lambda: fio.sweep("omega", [1.5], "period:2", period=nan, transient=1, record=1)),
 ("sweep period [1]", lambda: fio.sweep("omega", [1.5], "period:2", period=[1], transient=1, record=1)),
 ("sweep period 1e-300", lambda: fio.sweep("omega", [1.5], "period:1", period="1e-300", transient=1, record=1)),
 ("sweep t_max nan", lambda: fio.sweep("omega", [1.5], sec, t_max=nan, transient=1, record=1)),
 ("sweep t_max 1e300", lambda: fio.sweep("omega", [1.5], sec, t_max=1e300, transient=1, record=1)),
 ("sweep t_max 'zz'", lambda: fio.sweep("omega", [1.5], sec, t_max="zz", transient=1, record=1)),
 ("sweep t_max -1", lambda: fio.sweep("omega", [1.5], sec, t_max=-1, transient=1, record=1)),
 ("sweep t_max 1e-300", lambda: fio.sweep("omega", [1.5], sec, t_max=1e-300, transient=1, record=1)),
 ("sweep t_max inf", lambda: fio.sweep("omega", [1.5], sec, t_max=inf, transient=1, record=1)),
 ("sweep record 0", lambda: fio.sweep("omega", [1.5], sec, transient=1, record=0)),
 ("sweep record 2.5", lambda: fio.sweep("omega", [1.5], sec, transient=1, record=2.5)),
 ("sweep record 1e9", lambda: fio.sweep("omega", [1.5], sec, transient=1, record=1e9)),
 ("sweep transient -1", lambda: fio.sweep("omega", [1.5], sec, transient=-1, record=1)),
 ("sweep method nope", lambda: fio.sweep("omega", [1.5], sec, method="nope")),
 ("sweep method 3", lambda: fio.sweep("omega", [1.5], sec, method=3)),
 ("sweep init [nan, nan]", lambda: fio.sweep("omega", [1.5], sec, transient=1, record=1, init=[nan] * 2)),
 ("sweep init [0]", lambda: fio.sweep("omega", [1.5], sec, transient=1, record=1, init=[0.0])),
 ("sweep section b'...'", lambda: fio.sweep("omega", [1.5], b"impact:stop", transient=1, record=1)),
 ("sweep section with NUL", lambda: fio.sweep("omega", [1.5], "impact:st\0op", transient=1, record=1)),
 ("sweep section plane:", lambda: fio.sweep("omega", [1.5], "plane:", transient=1, record=1)),
 ("sweep section period:", lambda: fio.sweep("omega", [1.5], "period:", transient=1, record=1)),
 ("sweep section period:1e-300", lambda: fio.sweep("omega", [1.5], "period:1e-300", transient=1, record=1)),
 ("sweep omega 1e300", lambda: fio.sweep("omega", [1e300], sec, transient=1, record=1)),
 ("sweep omega -1", lambda: fio.sweep("omega", [-1.0], sec, transient=1, record=1)),
 ("sweep omega 0", lambda: fio.sweep("omega", [0.0], sec, transient=1, record=1)),
 ("basins tol nan", lambda: fio.basins(bx, bv, sec, tol=nan, transient=2, record=2)),
 ("basins jobs -1", lambda: fio.basins(bx, bv, sec, jobs=-1, transient=2, record=2)),
 ("basins params unknown", lambda: fio.basins(bx, bv, sec, params={"zz": 1}, transient=2, record=2)),
 ("basins params name with =", lambda: fio.basins(bx, bv, sec, params={"e=0.1,omega": 1}, transient=2, record=2)),
 ("basins period [1]", lambda: fio.basins(bx, bv, "period:1", period=[1], transient=2, record=2)),
 ("basins t_max nan", lambda: fio.basins(bx, bv, sec, t_max=nan, transient=2, record=2)),
 ("basins coordinate Q.x", lambda: fio.basins(("Q.x", -0.1, 0.1, 2), bv, sec, transient=2, record=2)),
 ("basins one coordinate twice", lambda: fio.basins(bx, bx, sec, transient=2, record=2)),
 ("basins count 0", lambda: fio.basins(("M.x", -0.1, 0.1, 0), bv, sec)),
 ("basins start = stop", lambda: fio.basins(("M.x", 0.1, 0.1, 2), bv, sec, transient=2, record=2)),
 ("basins start 1e300", lambda: fio.basins(("M.x", -1e300, 1e300, 2), bv, sec, transient=2, record=2)),
 ("basins pilot -1", lambda: fio.basins(bx, bv, sec, pilot=-1)),
 ("basins x=generator", lambda: fio.basins((c for c in bx), bv, sec, transient=2, record=2)),
 ("basins axis 'abcd'", lambda: fio.basins("abcd", bv, sec)),
 ("basins axis of 3", lambda: fio.basins(("M.x", 0, 1), bv, sec)),
 ("continuation period None", lambda: fio.continuation("omega", 1.5, 1.6, period=None, max_points=2)),
 ("continuation period nan", lambda: fio.continuation("omega", 1.5, 1.6, period=nan, max_points=2)),
 ("continuation period 1e-300", lambda: fio.continuation("omega", 1.5, 1.6, period="1e-300", max_points=2)),
 ("continuation ds nan", lambda: fio.continuation("omega", 1.5, 1.6, ds=nan, max_points=2)),
 ("continuation ds -1", lambda: fio.continuation("omega", 1.5, 1.6, ds=-1, max_points=2)),
 ("continuation ds 0", lambda: fio.continuation("omega", 1.5, 1.6, ds=0, max_points=2)),
 ("continuation ds_min > ds_max", lambda: fio.continuation("omega", 1.5, 1.6, ds_min=1, ds_max=0.1, max_points=2)),
 ("continuation param 1", lambda: fio.continuation(1, 1.5, 1.6, max_points=2)),
 ("continuation fold without param2", lambda: fio.continuation("omega", 1.5, 1.6, curve="fold", max_points=2)),
 ("continuation param2 = param", lambda: fio.continuation("omega", 1.5, 1.6, curve="fold", param2="omega", start2=1, stop2=2, max_points=2)),
 ("continuation start2 None", lambda: fio.continuation("omega", 1.5, 1.6, curve="fold", param2="e", max_points=2)),
 ("continuation +-1e300", lambda: fio.continuation("omega", 1e300, -1e300, max_points=2)),
 ("continuation max_points 0", lambda: fio.continuation("omega", 1.5, 1.6, max_points=0)),
 ("continuation periods 1e9", lambda: fio.continuation("omega", 1.5, 1.6, periods=1e9)),
 ("lyapunov duration [1]", lambda: fio.lyapunov([1], 1)),
 ("lyapunov interval None", lambda: fio.lyapunov(1, None)),
 ("lyapunov transient nan", lambda: fio.lyapunov(1, 0.1, transient=nan)),
 ("lyapunov interval 1e-300", lambda: fio.lyapunov(1, 1e-300)),
 ("floquet period None", lambda: fio.floquet(None)),
 ("floquet period 'zz'", lambda: fio.floquet("zz")),
 ("floquet period -1", lambda: fio.floquet(-1)),
 ("section spec None", lambda: fio.section(None)),
 ("section t_end [1]", lambda: fio.section(sec, t_end=[1])),
 ("section t_end 1e300", lambda: fio.section(sec, t_end=1e300)),
 ("run params array", lambda: fio.run(params=np.array([1.0]), t_end=0.1)),
 ("run init (2, 1)", lambda: fio.run(init=np.zeros((2, 1)), t_end=0.1)),
 ("run init (1, 2)", lambda: fio.run(init=np.zeros((1, 2)), t_end=0.1)),
 ("run init 'ab'", lambda: fio.run(init="ab", t_end=0.1)),
 ("run init M.x nan", lambda: fio.run(init={"M.x": nan}, t_end=0.1)),
 ("run init M.v 1e300", lambda: fio.run(init={"M.v": 1e300}, t_end=0.1)),
 ("run init inside the gap", lambda: fio.run(init={"M.x": 1e3}, t_end=0.1)),
 ("run init int64 array", lambda: fio.run(init=np.array([0, 0], dtype=np.int64), t_end=0.1)),
 ("run init object array", lambda: fio.run(init=np.array([0, None], dtype=object), t_end=0.1)),
 ("run init huge list", lambda: fio.run(init=[0.0] * 10 ** 6, t_end=0.1)),
 ("run every array [0.1]", lambda: fio.run(every=np.array([0.1]), t_end=0.1)),
 ("run every array [0.1, 0.2]", lambda: fio.run(every=np.array([0.1, 0.2]), t_end=0.1)),
 ("run t_end 1j", lambda: fio.run(t_end=1j)),
 ("run t_end float32 nan", lambda: fio.run(t_end=np.float32("nan"))),
 ("run t_end -0.0", lambda: fio.run(t_end=-0.0)),
 ("run max_steps 1e30", lambda: fio.run(max_steps=1e30, t_end=0.1)),
 ("run max_steps int64 5", lambda: fio.run(max_steps=np.int64(5), t_end=0.1)),
 ("run max_steps -1", lambda: fio.run(max_steps=-1, t_end=0.1)),
 ("run max_event_rate 0", lambda: fio.run(max_event_rate=0, t_end=0.1)),
 ("run max_event_rate nan", lambda: fio.run(max_event_rate=nan, t_end=0.1)),
 ("run rtol inf", lambda: fio.run(method="adaptive", rtol=inf, t_end=0.1)),
 ("run rtol 1e-300", lambda: fio.run(method="adaptive", rtol=1e-300, atol=0, t_end=0.1)),
 ("run atol -1", lambda: fio.run(method="adaptive", atol=-1, t_end=0.1)),
 ("run dt 0 rk4", lambda: fio.run(method="rk4", dt=0, t_end=0.1)),
 ("run dt -1", lambda: fio.run(method="rk4", dt=-1, t_end=0.1)),
 ("run zeno numpy False", lambda: fio.run(zeno=np.bool_(False), t_end=0.1)),
 ("run zeno 2", lambda: fio.run(zeno=2, t_end=0.1)),
 ("run zeno None", lambda: fio.run(zeno=None, t_end=0.1)),
 ("run method b'rk4'", lambda: fio.run(method=b"rk4", t_end=0.1)),
 ("run params {None: 1}", lambda: fio.run(params={None: 1}, t_end=0.1)),
 ("run params {'k': [1]}", lambda: fio.run(params={"k": [1]}, t_end=0.1)),
 ("run params {'k': 1e400 int}", lambda: fio.run(params={"k": 10 ** 400}, t_end=0.1)),
 ("run params {'m': 1e-320}", lambda: fio.run(params={"m": 1e-320}, t_end=0.1)),
]
for label, call in G:
    expect(label, call, ANY)
r = fio.run(t_end=0.1)
for col in (0, None, "nope", "M.x "):
    try:
        r[col]
        raise AssertionError("column %r was found" % (col,))
    except nsm.ColumnError:
        pass
print("ok: %d hostile arguments: a result or an nsm.Error with a message" % len(G))
# one model run from four threads: bit-identical results
ref = fio.run(t_end=50)
out = [None] * 4
def work(i):
    out[i] = fio.run(t_end=50)
ts = [threading.Thread(target=work, args=(i,)) for i in range(4)]
for t in ts:
    t.start()
for t in ts:
    t.join()
assert all(o is not None and np.array_equal(o.state, ref.state) and
           np.array_equal(o.t, ref.t) for o in out), "threads differ"
print("ok: one model run from four threads: bit-identical results")
# folders where the cache's files belong: cleared and rebuilt (each failed
# every compile with "Is a directory", after "rebuilding it")
entry = glob.glob(os.path.join(os.environ["XDG_CACHE_HOME"], "nsm", "py-forced_impact*"))[0]
so = os.path.join(entry, "forced_impact_oscillator.so")
for name in ("forced_impact_oscillator.so", "forced_impact_oscillator.sum",
             "forced_impact_oscillator.c", ".lock"):
    path = os.path.join(entry, name)
    if os.path.exists(path):
        os.unlink(path)
    os.mkdir(path)
    if name.endswith(".c"):
        os.unlink(so)           # the C file is written only when the object is built
    m = nsm.compile(os.path.join(MODELS, "forced_impact_oscillator.nsm"))
    assert np.array_equal(m.run(t_end=50).state, ref.state)
    assert os.path.isfile(path), path
    print("ok: a folder in place of the cache's %s: rebuilt, the same result" % name)
'''


def case_python(tmp):
    """The Python API's findings, hostile arguments, threads and cache."""
    python_script(tmp, "seventh_io_python.py", PY, [MODELS],
                  "python: the findings refused, every argument a result or an nsm.Error, "
                  "threads identical, the damaged cache rebuilt")


# ---- sweep ------------------------------------------------------------------

def sweep_inputs():
    """(label, argv or shell script, out-dir) of the sweep's hostile inputs."""
    fio = FIO
    s = []

    def add(label, args, out):
        s.append((label, [NSMC, "sweep", fio] + args + (["--out-dir", out] if out else []), out))

    def shell(label, script, out):
        s.append((label, script.replace("NSMC", NSMC).replace("FIO", fio)
                  .replace("SW", " ".join(SWEEP)), out))
    add("ok", SWEEP, "s0")
    shell("out-dir a link to a file", "ln -sf /etc/passwd lnk; NSMC sweep FIO SW --out-dir lnk",
          None)
    shell("out-dir a dangling link", "ln -sf /nonexistent/x dl; NSMC sweep FIO SW --out-dir dl",
          None)
    add("out-dir /dev/null", SWEEP, "/dev/null")
    add("out-dir ''", SWEEP, "")
    add("out-dir with a newline", SWEEP, "a\nb")
    add("out-dir /proc", SWEEP, "/proc")
    for i, name in enumerate(("section.csv", "summary.csv", "bifurcation.png",
                              "section.csv.partial", ".nsm-run.lock", "bifurcation.svg",
                              "section.csv.partial.prev")):
        shell("a folder in place of " + name,
              "mkdir -p f%d/%s; touch f%d/section.csv.partial; NSMC sweep FIO SW --out-dir f%d"
              % (i, name, i, i), None)
    shell("file-size limit 2 KiB", "ulimit -f 2; NSMC sweep FIO SW --out-dir u", None)
    shell("file-size limit 40 KiB", "ulimit -f 40; NSMC sweep FIO SW --out-dir u2", None)
    shell("/dev/full as summary.csv",
          "mkdir -p d1; ln -sf /dev/full d1/summary.csv; NSMC sweep FIO SW --out-dir d1", None)
    shell("/dev/full as section.csv",
          "mkdir -p d2; ln -sf /dev/full d2/section.csv; NSMC sweep FIO SW --out-dir d2", None)
    shell("stderr onto /dev/full", "NSMC sweep FIO SW --out-dir e1 2>/dev/full; "
          "echo exit $? >&2; test -s e1/summary.csv && echo error: kept >&2", None)
    for j in ("0", "1000000000", "100000", "-1", "1.5", ""):
        add("--jobs %r" % j, SWEEP + ["--jobs", j], "j")
    for spec in ("nan:2:3", "1:inf:3", "1e308:-1e308:3", "1:1:3", "1:2:1", "1:2", "", "1:2:3:4",
                 "1:2:0x10", "2:1:3", "-1:1:3", "1:2:1e9", "1:2:3 ", "1 :2:3"):
        add("--param omega=%s" % spec, ["--param", "omega=" + spec, "--section", "impact:stop",
                                        "--transient", "1", "--record", "1"], "p")
    add("--param =1:2:3", ["--param", "=1:2:3", "--section", "impact:stop"], "p")
    add("three axes, one unknown", ["--param", "omega=1:2:2", "--param", "e=0.5:0.9:2",
                                    "--param", "d=0.1:0.2:2", "--section", "impact:stop"], "p")
    add("nine axes", sum((["--param", "%s=1:2:1" % c] for c in "omkFzabcd"), []) +
        ["--section", "impact:stop"], "p")
    add("no --section", ["--param", "omega=1:2:3"], "p")
    add("no --param", ["--section", "impact:stop"], "p")
    for plot in ("nope", "", "M.x", "t"):
        add("--plot %r" % plot, SWEEP + ["--plot", plot], "pl")
    for sec in ("impact:", "impact:stop:x", "period:nan", "period:-1", "plane:M.x", "plane:zz",
                "period:2*pi/omega", "plane:M.x:sideways"):
        add("--section %s" % sec, ["--param", "omega=1:2:2", "--section", sec, "--transient",
                                   "1", "--record", "1"], "sc")
    for tmax in ("nan", "0", "-1", "1e-300", "2*pi/omega", "1/(omega-1.5)", "1e300", "omega"):
        add("--t-max %s" % tmax, SWEEP + ["--t-max", tmax], "tm")
    for meth in ("taylor", "nope", "adaptive", "rk4"):
        add("--method %s" % meth, SWEEP + ["--method", meth], "m")
    for st in ("omega=1", "e=2", "zz=2", "e=nan", "k=1e300", "e=0.5 kg"):
        add("--set %s" % st, SWEEP + ["--set", st], "st")
    for opt in ("--lyapunov", "--floquet", "--continue"):
        add(opt, SWEEP + [opt], "o")
    bas = ["--basin", "M.x=-0.1:0.1:2", "--basin", "M.v=-0.1:0.1:2", "--section", "impact:stop",
           "--transient", "2", "--record", "2"]
    add("--basin one axis", ["--basin", "M.x=-0.1:0.1:2", "--section", "impact:stop"], "b")
    add("--basin three axes", bas + ["--basin", "M.x=0:1:2"], "b")
    add("--basin with --param", bas + ["--param", "omega=1:2:2"], "b")
    for tol in ("nan", "0", "1", "-1e-3"):
        add("--basin-tol %s" % tol, bas + ["--basin-tol", tol], "b")
    add("--basin-pilot 1e9", bas + ["--basin-pilot", "1000000000"], "b")
    add("--basin M.q", ["--basin", "M.q=-0.1:0.1:2", "--basin", "M.v=-0.1:0.1:2", "--section",
                        "impact:stop"], "b")
    add("--basin inside the gap", ["--basin", "M.x=10:20:2"] + bas[2:], "b")
    for name, par in (("ball_in_space", "e=0.3:0.5:2"), ("tippe_top", "theta0=0.1:0.2:2")):
        s.append(("bodies in space: " + name, [NSMC, "sweep", os.path.join(MODELS, name + ".nsm"),
                                               "--param", par, "--section", "impact:floor",
                                               "--out-dir", "bs"], "bs"))
    shell("two sweeps into one out-dir", "NSMC sweep FIO SW --out-dir two & sleep 0.1; "
          "NSMC sweep FIO SW --out-dir two; wait", None)
    return s


def sweep_half(tmp, half):
    """Hostile nsmc sweep inputs (one half of them): each ends by itself
    with 0, 1 or 3 and a message; a refusal (exit 1) of one with its own
    out-dir writes no result there."""
    p = run(tmp, [NSMC, "sweep", FIO] + SWEEP + ["--out-dir", "warm"], timeout=300)
    check(p.returncode == 0, "the sweep program builds", p)
    n = 0
    for label, cmd, out in sweep_inputs()[half::2]:
        if isinstance(cmd, str):
            tried(tmp, ["bash", "-c", cmd], label, timeout=300)
        else:
            p = tried(tmp, cmd, label, timeout=300)
            if p.returncode == 1 and out and not out.startswith("/"):
                res = os.path.join(tmp, out, "summary.csv")
                check(not os.path.exists(res), "%s: refused, no summary.csv written" % label)
        n += 1
        for d in ("j", "p", "pl", "sc", "tm", "m", "st", "o", "b", "bs"):
            subprocess.run(["rm", "-rf", os.path.join(tmp, d)])
    print("sweep: %d inputs" % n)


def case_sweep(tmp):
    """The first half of the sweep's inputs, and the finding among them: a
    section period of -1 was blamed on --method."""
    p = run(tmp, [NSMC, "sweep", FIO, "--param", "omega=1:2:2", "--section", "period:-1",
                  "--out-dir", "sp"], timeout=300)
    check(p.returncode == 1 and "the section's period -1 s" in p.stderr and
          "--method" not in p.stderr, "--section period:-1: refused without blaming --method "
          "(it said '--method exact: ...')", p)
    p = run(tmp, [NSMC, "sweep", FIO, "--param", "omega=1:2:2", "--section", "impact:stop",
                  "--method", "taylor", "--out-dir", "sp"], timeout=300)
    check(p.returncode == 1 and "--method taylor: " in p.stderr,
          "--method taylor on a linear model still names --method", p)
    # a folder in place of summary.csv: refused before either result is
    # placed (section.csv was replaced, leaving it beside an earlier sweep's
    # summary)
    p = run(tmp, [NSMC, "sweep", FIO] + SWEEP + ["--out-dir", "k"], timeout=300)
    check(p.returncode == 0, "a complete sweep into k", p)
    sec = os.path.join(tmp, "k", "section.csv")
    before = open(sec, "rb").read()
    os.unlink(os.path.join(tmp, "k", "summary.csv"))
    os.mkdir(os.path.join(tmp, "k", "summary.csv"))
    p = run(tmp, [NSMC, "sweep", FIO, "--param", "omega=2:3:3"] + SWEEP[2:] +
            ["--out-dir", "k"], timeout=300)
    tmps = [f for f in os.listdir(os.path.join(tmp, "k")) if ".tmp" in f]
    check(p.returncode == 1 and "cannot write 'k/summary.csv': Is a directory" in p.stderr and
          open(sec, "rb").read() == before and not tmps,
          "a folder in place of summary.csv: exit 1, the earlier section.csv untouched, no "
          "temporary (section.csv was replaced by the new sweep's)", p)
    sweep_half(tmp, 0)


def case_sweep_more(tmp):
    """The second half of the sweep's inputs."""
    sweep_half(tmp, 1)


# ---- outputs ----------------------------------------------------------------

def case_outputs(tmp):
    """HDF5 and CSV outputs of a simulator onto hostile files, and nsmc
    continue and run onto full disks and closed pipes: each ends by itself
    with a message; what is written is whole or absent."""
    b = BALL
    inputs = [
        ("h5", [b, "--out", "a.h5"]),
        ("h5 onto a folder", ["bash", "-c", "mkdir -p d.h5; %s --out d.h5" % b]),
        ("h5 onto a FIFO", ["bash", "-c", "mkfifo f.h5; %s --out f.h5" % b]),
        ("h5 in a missing folder", [b, "--out", "nodir/x.h5"]),
        ("h5 under a file-size limit", ["bash", "-c", "ulimit -f 10; %s --out u.h5 --every 1e-5"
                                        % b]),
        ("h5 with a CSV of one stem", [b, "--out", "s.h5", "--out", "s.csv"]),
        ("h5 over a garbage file", ["bash", "-c", "head -c 5000 /dev/urandom > g.h5; %s --out "
                                    "g.h5" % b]),
        ("h5 as .HDF5", [b, "--out", "X.HDF5"]),
        ("h5 named .h5", [b, "--out", ".h5"]),
        ("h5 named .HDF5", [b, "--out", ".HDF5"]),
        ("h5 with a 250-character name", [b, "--out", "a" * 250 + ".h5"]),
        ("h5 with a 260-character name", [b, "--out", "a" * 260 + ".h5"]),
        ("h5 with a section", [FIO_SIM, "--section", "impact:stop", "--out", "sec.h5",
                               "--section-out", "sec.csv"]),
        ("h5 with --lyapunov", [FIO_SIM, "--lyapunov", "--out", "ly.h5"]),
        ("h5 with the events on stdout", [b, "--out", "e.h5", "--events", "-"]),
        ("h5 and stdout onto /dev/full", ["bash", "-c", "%s --out - --out o.h5 > /dev/full" % b]),
        ("h5 with --stats onto /dev/full", [b, "--out", "st.h5", "--stats", "/dev/full"]),
        ("h5 twice", [b, "--out", "t.h5", "--out", "t2.h5"]),
        ("events onto /dev/full", [b, "--events", "/dev/full"]),
        ("events under a file-size limit", ["bash", "-c", "ulimit -f 1; %s --events ev.csv "
                                            "--t-end 1000" % b]),
        ("--table onto /dev/full", ["bash", "-c", "%s --table > /dev/full" % b]),
        ("--summary onto /dev/full", ["bash", "-c", "%s --summary > /dev/full" % b]),
        ("--stats - onto a closed pipe", ["bash", "-c", "%s --stats - --t-end 1000 | head -c 1"
                                          % b]),
        ("--section-out - onto a closed pipe",
         ["bash", "-c", "%s --section impact:stop --section-out - --t-end 100000 --out tr.csv "
          "| head -1" % FIO_SIM]),
        ("nsmc continue: out-dir a file", ["bash", "-c", "touch cf; %s continue %s --param "
                                           "omega=1.5:1.6 --max-points 3 --out-dir cf"
                                           % (NSMC, FIO)]),
        ("nsmc continue: file-size limit", ["bash", "-c", "ulimit -f 1; %s continue %s --param "
                                            "omega=1.5:1.6 --max-points 50 --out-dir c2"
                                            % (NSMC, FIO)]),
        ("nsmc continue: a folder in place of branch.csv",
         ["bash", "-c", "mkdir -p c3/branch.csv; %s continue %s --param omega=1.5:1.6 "
          "--max-points 3 --out-dir c3" % (NSMC, FIO)]),
        ("nsmc continue: two into one out-dir",
         ["bash", "-c", "%s continue %s --param omega=1.5:2.5 --max-points 30 --out-dir c5 & "
          "%s continue %s --param omega=1.5:2.5 --max-points 30 --out-dir c5; wait"
          % (NSMC, FIO, NSMC, FIO)]),
        ("nsmc run onto /dev/full", ["bash", "-c", "%s run %s --no-plot --out-dir r0 >/dev/full"
                                     % (NSMC, FIO)]),
        ("nsmc run | head -1", ["bash", "-c", "set -o pipefail; %s run %s --no-plot --out-dir "
                                "r1 | head -1" % (NSMC, FIO)]),
        ("nsmc run: a folder in place of trajectory.csv",
         ["bash", "-c", "mkdir -p r2/trajectory.csv; %s run %s --no-plot --out-dir r2"
          % (NSMC, FIO)]),
        ("nsmc run: out-dir /dev/null", [NSMC, "run", FIO, "--no-plot", "--out-dir",
                                         "/dev/null"]),
    ]
    for label, cmd in inputs:
        tried(tmp, cmd, label, timeout=300)
    # what is there is whole: every CSV file whole lines, every HDF5 file readable
    n5 = 0
    for root, _, files in os.walk(tmp):
        if "cache" in root:
            continue
        for f in files:
            path = os.path.join(root, f)
            if f.endswith(".csv") and os.path.isfile(path):
                whole_lines(path)
            if f.lower().endswith((".h5", ".hdf5")) and os.path.isfile(path) and \
                    f not in ("g.h5",):
                try:
                    h5_run(path)
                except OSError as e:
                    raise Failure("%s: not a readable HDF5 output: %s" % (path, e))
                n5 += 1
    check(not [f for f in os.listdir(tmp) if f.endswith(".partial")],
          "no HDF5 temporary left behind")
    check(n5 >= 10, "%d HDF5 files written, each readable; every CSV file whole lines" % n5)
    print("outputs: %d inputs" % len(inputs))


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-seventh-io-"))
