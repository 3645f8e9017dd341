#!/usr/bin/env python3
"""A tenth hostile pass over the Python package: texts handed to the
runtime and to nsmc holding a NUL or a lone surrogate, the cache after a
build killed outright, step caps at the edge of a 64-bit count, results
indexed by what is not a column name, and the environment (CC, TMPDIR,
XDG_CACHE_HOME, HOME, an ASCII locale, a lock held by another process).

    tests/reliability/tenth_pass_py_test.py SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  findings   what the pass found, each failing before its fix: a NUL in a
             section, a period, a time expression or a continued
             parameter's name cut the text short without a word
             (section(..., t_end="10\\0*1000") ran to 10 s), a lone
             surrogate escaped as a bare UnicodeEncodeError, a NUL in an
             argument of basins as a bare ValueError; a build's temporary
             left in the cache by a killed process stayed there for ever;
             max_steps=2**63 - 1 was refused as not "> 0"; compile of a
             file whose name begins with '-' ran nsmc with an option
             ("--help": its help, then a bare FileNotFoundError), of '-'
             read standard input, of a path with a NUL a bare ValueError;
             a Result or a Model could not be pickled (a bare
             AttributeError), nor a SimulationError unpickled, so a
             process pool could return neither.
  args       hostile arguments that found nothing: a result or an nsm.Error
             subclass with a message, never another exception.
  env        CC, TMPDIR, XDG_CACHE_HOME and HOME replaced, an ASCII locale,
             Ctrl-C while another process holds the cache entry's lock, and
             while a worker thread runs the same model (the main thread's
             run or its join).
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import glob
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import PY_EXPECT, Failure, check, env_for, main, python_script  # noqa: E402

SRC = os.path.abspath(sys.argv[1])
MODELS = os.path.join(SRC, "models")

COMMON = r'''
import glob, os, signal, subprocess, sys, threading, time, warnings
import numpy as np
import nsm
warnings.simplefilter("error")      # no value cut with a warning only
M = sys.argv[1] + "/"
''' + PY_EXPECT + r'''
S, P, R, C, OK = ("SettingError",), ("ParameterError",), ("SimulationError",), \
    ("CompileError",), ("ok",)
U = "\udc80"        # a lone surrogate: no UTF-8 for it
X, V = ("M.x", -1, 0.5, 2), ("M.v", -1, 1, 2)
'''

# ---- findings ---------------------------------------------------------------

FINDINGS = COMMON + r'''
tm = nsm.compile(M + "two_mass.nsm")
fio = nsm.compile(M + "forced_impact_oscillator.nsm")
kw = dict(transient=1, record=1)
F = [
 # a NUL cut the text short: each of these ran (or swept) without a word
 ("section t_end '10\\0*1000' (ran to 10 s)", lambda: fio.section("impact:stop", t_end="10\0*1000"), S),
 ("section spec 'impact:stop\\0junk'", lambda: fio.section("impact:stop\0junk", t_end=10), S),
 ("section 'period:2*pi/omega\\0*0'", lambda: fio.section("period:2*pi/omega\0*0", t_end=10), S),
 ("lyapunov duration '100\\0junk'", lambda: fio.lyapunov("100\0junk", 1), S),
 ("floquet period '2*pi/omega\\0*7'", lambda: fio.floquet("2*pi/omega\0*7"), S),
 ("sweep section 'period:2*pi/omega\\0*3'",
  lambda: fio.sweep("omega", [2.0], "period:2*pi/omega\0*3", **kw), S),
 ("sweep period '2*pi/omega\\0*3'",
  lambda: fio.sweep("omega", [2.0], "period:2*pi/omega", period="2*pi/omega\0*3", **kw), S),
 ("continuation period '2*pi/omega\\0*3'",
  lambda: fio.continuation("omega", 2.4, 2.5, period="2*pi/omega\0*3", max_points=2), S),
 # a lone surrogate escaped as a bare UnicodeEncodeError
 ("section t_end surrogate", lambda: fio.section("impact:stop", t_end=U), S),
 ("section spec surrogate", lambda: fio.section("impact:" + U, t_end=10), S),
 ("section period surrogate", lambda: fio.section("impact:stop", t_end=10, period=U), S),
 ("lyapunov duration surrogate", lambda: fio.lyapunov(U, 1), S),
 ("floquet period surrogate", lambda: fio.floquet(U), S),
 ("sweep section surrogate", lambda: fio.sweep("omega", [2.0], "impact:" + U, **kw), S),
 ("sweep period surrogate", lambda: fio.sweep("omega", [2.0], "impact:stop", period=U, **kw), S),
 ("continuation param surrogate", lambda: fio.continuation(U, 2.4, 2.5, max_points=2), P),
 ("continuation period surrogate",
  lambda: fio.continuation("omega", 2.4, 2.5, period=U, max_points=2), S),
 # a NUL in basins' arguments escaped as a bare ValueError from exec
 ("basins section NUL", lambda: fio.basins(X, V, "impact:stop\0", **kw), S),
 ("basins coordinate NUL", lambda: fio.basins(("M.x\0", -1, 0.5, 2), V, "impact:stop", **kw), S),
 ("basins period NUL", lambda: fio.basins(X, V, "period:2*pi/omega", period="2*pi/omega\0", **kw), S),
 ("basins t_max NUL", lambda: fio.basins(X, V, "impact:stop", t_max="100\0", **kw), S),
 ("basins params key NUL", lambda: fio.basins(X, V, "impact:stop", params={"e\0": 0.5}, **kw), P),
 ("basins section surrogate", lambda: fio.basins(X, V, "impact:" + U, **kw), S),
 # 2**63 - 1 was rounded to 2**63 as a float and refused as not "> 0"
 ("run max_steps 2**63 - 1", lambda: tm.run(t_end=1, max_steps=2 ** 63 - 1), OK),
 ("run max_steps np.int64(2**63 - 1)", lambda: tm.run(t_end=1, max_steps=np.int64(2 ** 63 - 1)), OK),
 ("run max_steps 2**63", lambda: tm.run(t_end=1, max_steps=2 ** 63), S),
]
for label, call, want in F:
    expect(label, call, want)
try:
    tm.run(t_end=1, max_steps=2 ** 63)
except nsm.SettingError as e:
    assert "2^63 - 1" in str(e), str(e)
print("ok: %d texts and counts refused or taken as given" % len(F))
# a model file whose name begins with '-' was read as nsmc's option ("--help"
# ran nsmc's help, then a bare FileNotFoundError), '-' as standard input;
# a NUL in the path escaped as a bare ValueError
import shutil
for name in ("-x.nsm", "-", "--help"):
    shutil.copy(M + "two_mass.nsm", name)
G = [
 ("compile('-x.nsm')", lambda: nsm.compile("-x.nsm"), OK),
 ("compile(b'-x.nsm')", lambda: nsm.compile(b"-x.nsm"), OK),
 ("compile('-') (read standard input)", lambda: nsm.compile("-"), OK),
 ("compile('--help') (nsmc's help, bare FileNotFoundError)", lambda: nsm.compile("--help"), OK),
 ("compile('--version') (no such file)", lambda: nsm.compile("--version"), C),
 ("compile('-o') (no such file)", lambda: nsm.compile("-o"), C),
 ("compile(path + NUL)", lambda: nsm.compile(M + "two_mass.nsm\0"), C),
 ("compile(b'...\\0x')", lambda: nsm.compile(os.fsencode(M) + b"two_mass.nsm\0x"), C),
]
for label, call, want in G:
    expect(label, call, want)
assert nsm.compile("-").params.keys() == tm.params.keys()
print("ok: %d model paths beginning with '-' or holding a NUL" % len(G))
# the text without its NUL still runs as before
a = fio.section("impact:stop", t_end=10)
assert a.shape[0] >= 1 and np.all(np.diff(a[:, 0]) > 0), a
print("ok: the same section without a NUL runs (%d records)" % len(a))
'''

STALE = r'''
import glob, os, sys
import nsm
M = sys.argv[1] + "/"
dead, alive = int(sys.argv[2]), int(sys.argv[3])
# the model's own cache entry (an earlier case may have made another of
# two_mass, from a copy of its file, whose C text differs)
so = nsm.compile(M + "two_mass.nsm").path
stale = ["%s.tmp%d.140000000000001" % (f, dead) for f in (so, so[:-3] + ".sum", so[:-3] + ".c")]
live = "%s.tmp%d.140000000000002" % (so, alive)
for f in stale + [live]:
    with open(f, "wb") as out:
        out.write(b"\x7fELF half-written by a killed build")
r = nsm.compile(M + "two_mass.nsm").run(t_end=1)
assert len(r.t) == 101, r
left = sorted(os.path.basename(f) for f in glob.glob(so[:-3] + ".*tmp*"))
print("left after the next compile:", left)
assert not any(os.path.exists(f) for f in stale), "a killed build's temporaries stay: %s" % left
assert os.path.exists(live), "a running process's temporary was removed"
os.unlink(live)
print("ok: temporaries of a dead process removed, a live one's kept")
'''


# a Model holds ctypes functions: neither it nor a Result (which refers to it)
# could be pickled, and a SimulationError unpickled with its message alone
PICKLE = r'''
import multiprocessing as mp, pickle, sys
import numpy as np
import nsm
m = nsm.compile(sys.argv[1] + "/two_mass.nsm")
def job(k):
    return m.run(t_end=10, dt=0.01, every=0.01, max_steps=k)
if __name__ == "__main__":
    try:
        m.run(t_end=10, dt=0.01, max_steps=1001, every=0.01)
    except nsm.SimulationError as e:
        e2 = pickle.loads(pickle.dumps(e))
        assert type(e2) is nsm.SimulationError and str(e2) == str(e) and e2.status == e.status
        assert np.array_equal(e2.result.t, e.result.t) and e2.t == e.t and e2.mode == e.mode
        print("ok: SimulationError pickled:", e2.status, len(e2.result.t))
    i2 = pickle.loads(pickle.dumps(nsm.Interrupted(1.5, None)))
    assert type(i2) is nsm.Interrupted and i2.t == 1.5
    r = m.run(t_end=1)
    r2 = pickle.loads(pickle.dumps(r))
    assert np.array_equal(r2["M1.x"], r["M1.x"]) and np.array_equal(r2.t, r.t)
    m2 = pickle.loads(pickle.dumps(m))
    assert np.array_equal(m2.run(t_end=1)["M1.x"], r["M1.x"])
    print("ok: Result and Model pickled")
    with mp.get_context("fork").Pool(2) as pool:
        try:
            pool.map(job, [20000, 1001])
            raise AssertionError("no error from the pool")
        except nsm.SimulationError as e:
            print("ok: a failed run in a worker raised in the parent:", str(e)[:80])
        rs = pool.map(job, [20000, 30000])
    assert all(np.array_equal(x["M1.x"], rs[0]["M1.x"]) for x in rs)
    print("ok: results returned from workers")
'''


def case_findings(tmp):
    """What the pass found, each failing before its fix."""
    python_script(tmp, "tenth_findings.py", FINDINGS, [MODELS],
                  "python: texts with a NUL or a lone surrogate refused, 2**63 - 1 steps taken")
    # a build killed outright (SIGKILL between the compiler's output and its
    # rename) leaves NAME.so.tmpPID.TID; a process that has ended stands for it
    p = subprocess.Popen(["true"])
    p.wait()
    python_script(tmp, "tenth_stale.py", STALE, [MODELS, str(p.pid), str(os.getpid())],
                  "python: a killed build's temporaries removed by the next compile")
    python_script(tmp, "tenth_pickle.py", PICKLE, [MODELS],
                  "python: results, models and errors pickled, through a process pool")


# ---- args -------------------------------------------------------------------

ARGS = COMMON + r'''
tm = nsm.compile(M + "two_mass.nsm")
fio = nsm.compile(M + "forced_impact_oscillator.nsm")
r1 = tm.run(t_end=1)
kw = dict(transient=1, record=1)
A = [
 ("continuation param 'omega\\0x'", lambda: fio.continuation("omega\0x", 2.4, 2.5, max_points=2), P),
 ("continuation curve surrogate", lambda: fio.continuation("omega", 2.4, 2.5, curve=U), S),
 ("run params name surrogate", lambda: tm.run(t_end=1, params={U: 1}), P),
 ("run init name surrogate", lambda: tm.run(t_end=1, init={U: 1}), P),
 ("run method surrogate", lambda: tm.run(t_end=1, method=U), S),
 ("run method 'rk4\\0'", lambda: tm.run(t_end=1, method="rk4\0"), S),
 ("result[surrogate]", lambda: r1[U], ("ColumnError",)),
 ("result[0]", lambda: r1[0], ("ColumnError",)),
 ("result[None]", lambda: r1[None], ("ColumnError",)),
 ("result[['a']]", lambda: r1[["a"]], ("ColumnError",)),
 ("result[b'M1.x']", lambda: r1[b"M1.x"], ("ColumnError",)),
 ("['a'] in result", lambda: ["a"] in r1, OK),
 ("run t_end ' 2 '", lambda: tm.run(t_end=" 2 "), S),     # as --t-end ' 2 ' refuses it
 ("run t_end ' 2'", lambda: tm.run(t_end=" 2"), OK),
 ("run t_end '1/0'", lambda: tm.run(t_end="1/0"), S),
 ("run t_end 'omega'", lambda: fio.run(t_end="omega"), S),
 ("run every [0.1, 0.2]", lambda: tm.run(t_end=1, every=np.array([0.1, 0.2])), S),
 ("run max_steps 1e19", lambda: tm.run(t_end=1, max_steps=1e19), S),
 ("run max_steps 2.5", lambda: tm.run(t_end=1, max_steps=2.5), S),
 ("run rtol nan (adaptive)", lambda: tm.run(t_end=1, method="adaptive", rtol=float("nan")), S),
 ("run max_event_rate 0", lambda: tm.run(t_end=1, max_event_rate=0), S),
 ("run max_event_rate 1e-300", lambda: tm.run(t_end=1, max_event_rate=1e-300), OK),
 ("run zeno 1.0", lambda: tm.run(t_end=1, zeno=1.0), S),
 ("run zeno np.int8(1)", lambda: tm.run(t_end=1, zeno=np.int8(1)), OK),
 ("run init {np.str_('M1.x'): -1}", lambda: tm.run(t_end=1, init={np.str_("M1.x"): -1}), OK),
 ("run init {b'M1.x': -1}", lambda: tm.run(t_end=1, init={b"M1.x": -1}), P),
 ("run params {b'e': 0.5}", lambda: tm.run(t_end=1, params={b"e": 0.5}), P),
 ("run params [('e', 0.5)]", lambda: tm.run(t_end=1, params=[("e", 0.5)]), P),
 ("sweep param np.str_", lambda: fio.sweep(np.str_("omega"), [2.0], "impact:stop", **kw), OK),
 ("sweep values [-0.0]", lambda: fio.sweep("omega", [-0.0], "impact:stop", **kw), P),
 ("sweep values [1e300]", lambda: fio.sweep("omega", [1e300], "impact:stop", **kw), R),
 ("sweep record 0", lambda: fio.sweep("omega", [2.0], "impact:stop", transient=1, record=0), S),
 ("sweep transient 1e300", lambda: fio.sweep("omega", [2.0], "impact:stop", transient=1e300), S),
 ("lyapunov transient -1", lambda: fio.lyapunov(10, 1, transient=-1), S),
 ("lyapunov transient nan", lambda: fio.lyapunov(10, 1, transient=float("nan")), S),
 ("floquet transient '1/0'", lambda: fio.floquet("2*pi/omega", transient="1/0"), S),
 ("floquet period '2*pi/omegaa'", lambda: fio.floquet("2*pi/omegaa"), S),
 ("section t_end 't'", lambda: fio.section("impact:stop", t_end="t"), S),
 ("section t_end 'omega*1e308*10'", lambda: fio.section("impact:stop", t_end="omega*1e308*10"), S),
 ("section t_end '0/0'", lambda: fio.section("impact:stop", t_end="0/0"), S),
 ("section t_end '-0'", lambda: fio.section("impact:stop", t_end="-0"), S),
 ("basins method 'rk4\\0'", lambda: fio.basins(X, V, "impact:stop", method="rk4\0", **kw), S),
 ("basins start nan", lambda: fio.basins(("M.x", float("nan"), 0.5, 2), V, "impact:stop", **kw), S),
]
for label, call, want in A:
    expect(label, call, want)
print("ok: %d hostile arguments, each a result or an nsm.Error with a message" % len(A))
'''


def case_args(tmp):
    """Hostile arguments that found nothing, kept as regression cases."""
    python_script(tmp, "tenth_args.py", ARGS, [MODELS],
                  "python: every hostile argument a result or an nsm.Error with a message")


# ---- env --------------------------------------------------------------------

ENV_PROBE = r'''
import sys
import nsm
try:
    m = nsm.compile(sys.argv[1] + "/two_mass.nsm")
    print("result", len(m.run(t_end=1).t))
except nsm.Error as e:
    assert str(e).strip(), "an empty message"
    print(type(e).__name__, str(e).splitlines()[0][:160])
'''

LOCK = r'''
import fcntl, glob, os, signal, subprocess, sys, threading, time
import nsm
M = sys.argv[1] + "/"
# the model's own cache entry (an earlier case may have made another of
# two_mass, from a copy of its file, whose C text differs)
lock = os.path.join(os.path.dirname(nsm.compile(M + "two_mass.nsm").path), ".lock")
holder = subprocess.Popen([sys.executable, "-c", "import fcntl, sys, time; f = open(sys.argv[1], "
                           "'a'); fcntl.flock(f, fcntl.LOCK_EX); print('held', flush=True); "
                           "time.sleep(60)", lock], stdout=subprocess.PIPE, text=True)
try:
    assert holder.stdout.readline().strip() == "held"
    threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT)).start()
    t0 = time.time()
    try:
        nsm.compile(M + "two_mass.nsm")
        raise AssertionError("compiled past a held lock")
    except KeyboardInterrupt:
        waited = time.time() - t0
    print("Ctrl-C while waiting for the lock: KeyboardInterrupt after %.1f s" % waited)
    assert waited < 10, waited
finally:
    holder.kill()
    holder.wait()
left = sorted(os.listdir(os.path.dirname(lock)))
assert not [f for f in left if "tmp" in f], left
assert len(nsm.compile(M + "two_mass.nsm").run(t_end=1).t) == 101
print("ok: the lock released, the entry whole:", left)
'''


THREADS = r'''
import os, signal, sys, threading, time
import numpy as np
import nsm
m = nsm.compile(sys.argv[1] + '/two_mass.nsm')
ref = m.run(t_end=100, method="exact", every=0.01)
out = {}
def worker():
    out["w"] = m.run(t_end=100, method="exact", every=0.01)
w = threading.Thread(target=worker); w.start()
threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT)).start()
try:
    m.run(t_end=2000, method="exact", every=0.001)
    raise AssertionError("the main thread's run went on to its end")
except nsm.Interrupted as e:
    print("main interrupted at", e.t, len(e.result.t))
w.join()
assert np.array_equal(out["w"]["M1.x"], ref["M1.x"]), "the worker's run changed"
assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
# Ctrl-C to main while a worker runs and main only waits
w = threading.Thread(target=worker); w.start()
# the signal is awaited inside the try: a worker that ends before it
# fires left it to interrupt the next run below
tm = threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT)); tm.start()
try:
    w.join()
    tm.join()
    time.sleep(0.05)
    print("join returned")
except KeyboardInterrupt:
    print("KeyboardInterrupt in join"); w.join()
assert np.array_equal(out["w"]["M1.x"], ref["M1.x"]), "the worker's run changed"
r = m.run(t_end=100, method="exact", every=0.01)
assert np.array_equal(r["M1.x"], ref["M1.x"]), "the next run changed"
print("ok: Ctrl-C stops the main thread's run, a worker's runs to its end bit for bit")
'''


def case_env(tmp):
    """CC, TMPDIR, XDG_CACHE_HOME, HOME and the locale replaced; Ctrl-C while
    another process holds the cache entry's lock."""
    probe = os.path.join(tmp, "env_probe.py")
    with open(probe, "w") as f:
        f.write(ENV_PROBE)
    cases = [
        ({}, "result"),                              # warms the cache
        ({"CC": "/nonexistent/cc"}, "CompileError"),
        ({"CC": "cc -c"}, "CompileError"),
        ({"TMPDIR": "/nonexistent"}, "result"),
        ({"TMPDIR": "/dev/null"}, "result"),
        ({"XDG_CACHE_HOME": "/proc"}, "CompileError"),
        ({"XDG_CACHE_HOME": "/dev/full"}, "CompileError"),
        ({"XDG_CACHE_HOME": "", "HOME": tmp}, "result"),
        ({"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONIOENCODING": "ascii"}, "result"),
        ({"NSMC": "/nonexistent"}, "result"),       # the build's own paths win
    ]
    for extra, want in cases:
        env = env_for(tmp)
        env.update(extra)
        try:
            p = subprocess.run([sys.executable, probe, MODELS], env=env, cwd=tmp,
                               capture_output=True, text=True, timeout=120)
        except subprocess.TimeoutExpired:
            raise Failure("still running after 120 s: %r" % extra)
        said = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else ""
        print("  %-60s %s" % (repr(extra)[:60], said[:100]))
        check(p.returncode == 0 and said.startswith(want),
              "env %r: %s expected, exit 0" % (extra, want), p)
    left = [f for f in glob.glob(os.path.join(tmp, "cache", "nsm", "*", "*"))
            if ".tmp" in os.path.basename(f)]
    check(not left, "no temporary left in the cache (%s)" % left)
    python_script(tmp, "tenth_lock.py", LOCK, [MODELS],
                  "python: Ctrl-C while another process holds the lock")
    python_script(tmp, "tenth_threads.py", THREADS, [MODELS],
                  "python: Ctrl-C with a worker thread running the same model")


if __name__ == "__main__":
    sys.exit(main({"findings": case_findings, "args": case_args, "env": case_env},
                  "nsm-tenth-py-", case_arg=2))
