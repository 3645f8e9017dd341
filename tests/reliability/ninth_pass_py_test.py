#!/usr/bin/env python3
"""A ninth hostile pass over the Python package: compile and compile_source
with paths and texts of every kind, the runs' and studies' arguments as
numpy scalars and arrays of odd dtypes, booleans and complex numbers, the
program cache damaged in the ways a folder of files can be (a FIFO, a link
to /dev/zero, garbage) and rebuilt by other processes at once, the C
compiler replaced, temporary folders removed and file-size limits, Ctrl-C
at random moments (during the C build, just before a run's handler is in
place, during runs and studies), and threads and processes compiling and
running at once.

    tests/reliability/ninth_pass_py_test.py NSMC SIM FIO_SIM SOURCE_DIR CASE SIMS_DIR

Cases (each under 20 s in the normal build):
  findings, findings_cache
             what the pass found, each failing before its fix: nsm.compile
             hung for ever on a FIFO in place of a cache entry's checksum
             or lock file and read a checksum linked to /dev/zero into
             memory without end; numpy's complex numbers were taken as their
             real parts (a warning only) and booleans as 0 and 1 by run,
             init and sweep; compile(None) and compile_source of a lone
             surrogate escaped as bare TypeError and UnicodeEncodeError;
             compile_source and basins under a file-size limit or with
             their temporary folder gone escaped as bare OSError; CC=true
             was blamed on the cache; Ctrl-C during the C build left the
             half-written object in the cache; a SIGINT that reached the
             interpreter just before a run's handler was installed left a
             study's handler in place (Ctrl-C ignored once, the next one
             ending Python) or let a run go on to its end, deaf.
  args       hostile arguments that found nothing: a result or an nsm.Error
             subclass with a message, never another exception.
  signals    Ctrl-C at seeded random moments of run, section, lyapunov,
             sweep and continuation: nsm.Interrupted with a consistent
             partial result or a KeyboardInterrupt before the run, the
             interpreter's handler back after each, and the next run bit for
             bit the reference.
  threads    one model run from 8 threads, four models compiled from 8
             threads into a cold cache.
  cache      three processes compiling one model into a cold cache, a
             process rebuilding a damaged entry while another runs the model
             it loaded; checksums of garbage, of a negative or a huge size.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import glob
import os
import resource
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import (PY_EXPECT, SANITIZED, Failure, check, env_for, main,  # noqa: E402
                     python_script, thin)

SRC = os.path.abspath(sys.argv[4])
MODELS = os.path.join(SRC, "models")

# What the scripts share: passlib's expect(label, call, errors), with every
# warning an error (a value cut with a warning only fails the call);
# handler() is the address of SIGINT's handler as the kernel holds it (the
# interpreter's, or a model's while it runs).
COMMON = r'''
import ctypes, glob, os, signal, sys, threading, time, warnings
import numpy as np
import nsm
warnings.simplefilter("error")      # no value cut with a warning only
M = sys.argv[1] + "/"
CACHE = os.path.join(os.environ["XDG_CACHE_HOME"], "nsm")
''' + PY_EXPECT + r'''
S, P, R, C, OK = ("SettingError",), ("ParameterError",), ("SimulationError",), \
    ("CompileError",), ("ok",)
libc = ctypes.CDLL(None)
def handler():
    """SIGINT's handler as the kernel has it (struct sigaction begins with it)."""
    buf = ctypes.create_string_buffer(256)
    libc.sigaction(signal.SIGINT, None, buf)
    return ctypes.c_void_p.from_buffer(buf).value
PYTHON_HANDLER = handler()
'''

# ---- findings ---------------------------------------------------------------

FINDINGS = COMMON + r'''
tm = nsm.compile(M + "two_mass.nsm")
fio = nsm.compile(M + "forced_impact_oscillator.nsm")
# arguments: complex numbers were cut to their real parts, booleans taken
# as 0 and 1, compile's path and compile_source's text escaped bare
F = [
 ("run params e = complex128(0.5+3j) (ran e = 0.5)",
  lambda: tm.run(t_end=1, params={"e": np.complex128(0.5 + 3j)}), P),
 ("run t_end = complex128(1+3j) (ran to 1 s)", lambda: tm.run(t_end=np.complex128(1 + 3j)), S),
 ("run every = complex64(0.1+1j)", lambda: tm.run(t_end=1, every=np.complex64(0.1 + 1j)), S),
 ("run init complex array (real parts)",
  lambda: tm.run(t_end=1, init=np.array([-1, -1, 0, 0]) + 1j), P),
 ("run init {'M1.v': complex128}", lambda: tm.run(t_end=1, init={"M1.v": np.complex128(1j)}), P),
 ("sweep values complex array (real parts swept)",
  lambda: fio.sweep("omega", np.array([1.5 + 2j]), "impact:stop", transient=1, record=1), P),
 ("sweep values object array [complex128] (real part swept)",
  lambda: fio.sweep("omega", np.array([np.complex128(1.5 + 1j)], object), "impact:stop",
                    transient=1, record=1), P),
 ("sweep values object array [True] (omega = 1 swept)",
  lambda: fio.sweep("omega", np.array([True], object), "impact:stop", transient=1, record=1), P),
 ("sweep values [True] (omega = 1 swept)",
  lambda: fio.sweep("omega", [True], "impact:stop", transient=1, record=1), P),
 ("run t_end = True (ran 1 s)", lambda: tm.run(t_end=True), S),
 ("run every = np.True_", lambda: tm.run(t_end=1, every=np.bool_(True)), S),
 ("run params e = True (ran e = 1)", lambda: tm.run(t_end=1, params={"e": True}), P),
 ("lyapunov duration = True", lambda: fio.lyapunov(True, 0.5), S),
 ("continuation start = complex128", lambda: fio.continuation("omega", np.complex128(1.5), 1.6,
                                                              max_points=2), S),
 ("compile(None) (bare TypeError)", lambda: nsm.compile(None), C),
 ("compile(123) (bare TypeError)", lambda: nsm.compile(123), C),
 ("compile_source lone surrogate (bare UnicodeEncodeError)",
  lambda: nsm.compile_source("model x \udc80\n"), C),
]
for label, call, want in F:
    expect(label, call, want)
print("ok: %d arguments refused with an nsm.Error naming them" % len(F))
r = tm.run(t_end=1, params={"e": 0.5}, init=[-1, -1, 0, 0], every=0.1)
assert len(r.t) == 11, r
print("ok: real values still run")
# CC that exits 0 without writing the object was blamed on the cache
os.environ["CC"] = "true"
try:
    nsm.compile_source(open(M + "two_mass.nsm").read() + "# CC=true\n")
    raise AssertionError("CC=true gave a model")
except nsm.CompileError as e:
    assert "wrote no shared object" in str(e) and "XDG_CACHE_HOME" not in str(e), e
    print("ok: CC=true: CompileError naming the compiler, not the cache")
del os.environ["CC"]
# a temporary folder removed during the session
import tempfile
gone = os.path.join(os.getcwd(), "tmp-gone")
os.mkdir(gone)
tempfile.tempdir = gone
os.rmdir(gone)
for label, call in (("compile_source", lambda: nsm.compile_source("model x\n")),
                    ("basins", lambda: fio.basins(("M.x", -0.1, 0.1, 2), ("M.v", -0.1, 0.1, 2),
                                                  "impact:stop", transient=2, record=2))):
    try:
        call()
        raise AssertionError("%s without a temporary folder ran" % label)
    except nsm.CompileError as e:
        assert "temporary folder" in str(e) and "TMPDIR" in str(e), e
        print("ok: %s with its temporary folder gone: CompileError with the hint" % label)
tempfile.tempdir = None
# a file-size limit on the temporary model text (Python ignores SIGXFSZ)
import resource
soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
resource.setrlimit(resource.RLIMIT_FSIZE, (20000, hard))
for label, call in (("compile_source of 40 kB", lambda: nsm.compile_source("#" * 40000 + "\n")),
                    ("basins", lambda: fio.basins(("M.x", -0.1, 0.1, 2), ("M.v", -0.1, 0.1, 2),
                                                  "impact:stop", transient=2, record=2))):
    if label == "basins":
        resource.setrlimit(resource.RLIMIT_FSIZE, (100, hard))
    try:
        call()
        raise AssertionError("%s under a file-size limit ran" % label)
    except nsm.CompileError as e:
        assert "File too large" in str(e), e
        print("ok: %s under a file-size limit: CompileError, File too large" % label)
resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
'''

# A SIGINT arriving inside the C call that installs a run's handler, before
# the handler is in place: trip_begin and trip_run raise SIGINT (the
# interpreter's handler takes it) and then call the model's own function.
TRIP_C = r'''
#include <signal.h>
typedef int (*begin_fn)(void *);
typedef int (*run_fn)(void *, void *, double, int);
static begin_fn real_begin;
static run_fn real_run;
void trip_set(begin_fn b, run_fn r) { real_begin = b; real_run = r; }
int trip_begin(void *sim) { raise(SIGINT); return real_begin(sim); }
int trip_run(void *sim, void *rec, double t, int c) { raise(SIGINT); return real_run(sim, rec, t, c); }
'''

TRIP = COMMON + r'''
trip = ctypes.CDLL(sys.argv[2])
P_, I_, D_ = ctypes.c_void_p, ctypes.c_int, ctypes.c_double
BEGIN = ctypes.CFUNCTYPE(I_, P_)
RUN = ctypes.CFUNCTYPE(I_, P_, P_, D_, I_)
def tripped(model):
    """The model's catch_begin and nsmpy_run, each raising SIGINT first."""
    lib = model._lib
    trip.trip_set(ctypes.cast(lib.nsmpy_catch_begin, P_), ctypes.cast(lib.nsmpy_run, P_))
    b, r = trip.trip_begin, trip.trip_run
    b.restype, b.argtypes = I_, [P_]
    r.restype, r.argtypes = I_, [P_, P_, D_, I_]
    reached = []
    def run(sim, rec, t, c):
        try:
            return r(sim, rec, t, c)
        finally:
            reached.append(lib.nsm_sim_time(sim))
    lib.nsmpy_catch_begin, lib.nsmpy_run = b, run
    return reached
fio = nsm.compile(M + "forced_impact_oscillator.nsm")
tripped(fio)
try:
    fio.section("impact:stop", t_end=20000)
    raise AssertionError("the section ran to its end")
except KeyboardInterrupt:
    pass
assert handler() == PYTHON_HANDLER, "the model's SIGINT handler was left in place"
print("ok: a SIGINT as a study's handler is installed: KeyboardInterrupt, the interpreter's "
      "handler back (it was left replaced: Ctrl-C ignored, the next one ended Python)")
tm = nsm.compile(M + "two_mass.nsm")
reached = tripped(tm)
try:
    tm.run(t_end=200, method="exact", every=1)
    raise AssertionError("the run was not interrupted")
except KeyboardInterrupt as e:
    assert not reached or reached[-1] < 200, "the run went on to t = %g, deaf" % reached[-1]
    assert handler() == PYTHON_HANDLER
    print("ok: a SIGINT as a run's handler is installed: %s before the run (it ran on to "
          "t = 200 s, then threw the result away)" % type(e).__name__)
'''


def child(tmp, script, args=(), timeout=60, fsize=None):
    """Runs a Python script in tmp with its program cache; a memory limit
    (outside the sanitizers) keeps a runaway read from the machine."""
    def limits():
        if not SANITIZED:
            resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
    path = os.path.join(tmp, "child.py")
    with open(path, "w") as f:
        f.write(script)
    try:
        return subprocess.run([sys.executable, path] + list(args), cwd=tmp, env=env_for(tmp),
                              capture_output=True, text=True, timeout=timeout,
                              preexec_fn=limits)
    except subprocess.TimeoutExpired:
        raise Failure("still running after %d s: %s %s" % (timeout, script[-200:], args))


COMPILE_TM = r'''
import sys, time, nsm
t0 = time.monotonic()
m = nsm.compile(sys.argv[1] + "/two_mass.nsm")
r = m.run(t_end=20, method="exact")
print("%.17g %d" % (r.state[-1, 0], len(r.events)))
'''


def cache_entry(tmp):
    """The cache folder of two_mass (compiled by an earlier child)."""
    return glob.glob(os.path.join(tmp, "cache", "nsm", "py-two_mass-*"))[0]


def damaged_cache(tmp):
    """A FIFO or a link to /dev/zero in place of the checksum or the lock:
    nsm.compile hung for ever (or read /dev/zero into memory), now the entry
    is rebuilt and the run gives the reference."""
    ref = child(tmp, COMPILE_TM, [MODELS])
    check(ref.returncode == 0, "two_mass compiled into a cold cache", ref)
    for what, name in thin((("a link to /dev/zero", ".sum"), ("a FIFO", ".lock"),
                            ("a dangling link", ".lock"), ("a FIFO", ".sum"),
                            ("a link to /dev/zero", ".lock"))):
        d = cache_entry(tmp)
        path = os.path.join(d, "two_mass" + name if name == ".sum" else name)
        os.unlink(path)
        if what == "a FIFO":
            os.mkfifo(path)
        else:
            os.symlink("/dev/zero" if "zero" in what else os.path.join(tmp, "no", "x"), path)
        p = child(tmp, COMPILE_TM, [MODELS], timeout=30)
        print("  %-40s -> %d %s" % (what + " as " + name, p.returncode, p.stdout.strip()))
        check(p.returncode == 0 and p.stdout == ref.stdout,
              "%s in place of the cache's %s: rebuilt or used, the reference result" % (what, name),
              p)


CTRL_C_BUILD = r'''
import glob, os, signal, sys, threading, time, nsm
SRC = open(sys.argv[1] + "/two_mass.nsm").read()
cache = os.path.join(os.environ["XDG_CACHE_HOME"], "nsm")
hits = 0
for i in range(2):
    seen = threading.Event()
    def watch():
        # SIGINT the moment the compiler's output appears under its temporary name
        while not seen.is_set():
            if glob.glob(cache + "/*/two_mass.so.tmp*"):
                os.kill(os.getpid(), signal.SIGINT)
                return
            time.sleep(0.0005)
    th = threading.Thread(target=watch)
    th.start()
    try:
        try:
            nsm.compile_source(SRC + "# build %d\n" % i)
            out = "finished"
        finally:
            seen.set()
            th.join()
    except KeyboardInterrupt:
        out = "KeyboardInterrupt"
        hits += 1
    left = glob.glob(cache + "/*/*.tmp*")
    print("  build %d: %s, temporaries left %s" % (i, out, left))
    assert not left, "the interrupted build left %s" % left
assert hits, "no build was interrupted"
m = nsm.compile_source(SRC + "# build 0\n")
assert abs(m.run(t_end=20, method="exact").events["t"][1] - 3.257839639) < 1e-8
print("ok: Ctrl-C while the C compiler writes: no temporary left (%d interrupted), the "
      "model built whole afterwards" % hits)
'''


def case_findings_cache(tmp):
    """The findings in the program cache, each failing before its fix: a
    FIFO or a link to /dev/zero in place of a checksum or a lock, Ctrl-C
    during the C build."""
    damaged_cache(tmp)
    p = child(tmp, CTRL_C_BUILD, [MODELS], timeout=120)
    print(p.stdout)
    check(p.returncode == 0, "Ctrl-C during the C build leaves no temporary in the cache", p)


ASCII_LOCALE = r'''
import locale, sys, nsm
assert locale.getpreferredencoding(False) != "UTF-8"
m = nsm.compile(sys.argv[1])
assert "St\u00f6\u00dfe" in m.title and "St\u00f6\u00dfe" in m._source, (m.title, m._source[:80])
xs, ys, labels, atts = m.basins(("M1.x", -1, -0.5, 2), ("M1.v", -0.1, 0.1, 2), "impact:C",
                                transient=1, record=2)
assert labels.shape == (2, 2), labels
print("ok: a model with a non-ASCII title under an ASCII locale: compiled, its source read "
      "as UTF-8, basins run")
'''


def ascii_locale(tmp):
    """A model with a non-ASCII title compiled under an ASCII locale (LC_ALL=C,
    PYTHONUTF8=0): a bare UnicodeDecodeError before its fix."""
    model = os.path.join(tmp, "uni.nsm")
    text = open(os.path.join(MODELS, "two_mass.nsm"), encoding="utf-8").read()
    with open(model, "w", encoding="utf-8") as f:
        f.write(text.replace('"Two masses', '"Zwei Massen \u2014 St\u00f6\u00dfe', 1))
    path = os.path.join(tmp, "ascii_locale.py")
    with open(path, "w") as f:
        f.write(ASCII_LOCALE)
    env = env_for(tmp)
    env.update(LC_ALL="C", PYTHONUTF8="0")
    p = subprocess.run([sys.executable, path, model], cwd=tmp, env=env, capture_output=True,
                       text=True, errors="replace", timeout=120)
    print(p.stdout)
    check(p.returncode == 0, "a model with a non-ASCII title under an ASCII locale", p)


def case_findings(tmp):
    """The findings in the arguments and in Ctrl-C, each a check that
    failed before its fix (the cache's are case_findings_cache)."""
    ascii_locale(tmp)
    python_script(tmp, "ninth_findings.py", FINDINGS, [MODELS],
                  "python: complex and boolean values, compile's path, compile_source's text, "
                  "CC=true, a removed temporary folder and a file-size limit, each an nsm.Error "
                  "naming its cause")
    trip_c = os.path.join(tmp, "trip.c")
    with open(trip_c, "w") as f:
        f.write(TRIP_C)
    so = os.path.join(tmp, "trip.so")
    cc = os.environ.get("CC", "cc").split()
    b = subprocess.run(cc + ["-shared", "-fPIC", "-o", so, trip_c], capture_output=True,
                       text=True)
    check(b.returncode == 0, "the SIGINT-raising shims built", b)
    p = child(tmp, TRIP, [MODELS, so])
    print(p.stdout)
    check(p.returncode == 0, "a SIGINT just before a run's or a study's handler is installed: "
          "honoured before the run, the interpreter's handler back", p)


# ---- args -------------------------------------------------------------------

ARGS = COMMON + r'''
from pathlib import Path
tm = nsm.compile(M + "two_mass.nsm")
fio = nsm.compile(M + "forced_impact_oscillator.nsm")
nan, inf = float("nan"), float("inf")
LONG = "G" + "x" * 120
text = """model odd "no parameters, a gap of a long name"
mass B = 1 kg
gravity 9.81 m/s^2
gap %s: B.x >= 0, impact(e = 0.5)
init B.x = 1 m
simulate t_end = 3 s, method = exact
""" % LONG
A = [
 ("compile(Path)", lambda: nsm.compile(Path(M) / "two_mass.nsm"), OK),
 ("compile(bytes)", lambda: nsm.compile((M + "two_mass.nsm").encode()), OK),
 ("compile(folder)", lambda: nsm.compile(M), C),
 ("compile('')", lambda: nsm.compile(""), C),
 ("compile('/dev/null')", lambda: nsm.compile("/dev/null"), C),
 ("compile(a missing file)", lambda: nsm.compile(M + "nope.nsm"), C),
 ("compile(3.5)", lambda: nsm.compile(3.5), C),
 ("compile_source(b'...')", lambda: nsm.compile_source(b"model x\n"), C),
 ("compile_source NUL", lambda: nsm.compile_source("model x\0\n"), C),
 ("compile_source ''", lambda: nsm.compile_source(""), C),
 ("compile_source None", lambda: nsm.compile_source(None), C),
 ("compile_source 2 MB comment", lambda: nsm.compile_source(text + "#" * 2000000 + "\n"), OK),
 ("run t_end float16 inf", lambda: tm.run(t_end=np.float16("inf")), S),
 ("run t_end longdouble 1e400", lambda: tm.run(t_end=np.longdouble("1e400")), S),
 ("run t_end int8 1", lambda: tm.run(t_end=np.int8(1)), OK),
 ("run t_end uint64 max", lambda: tm.run(t_end=np.uint64(2 ** 64 - 1)), S),
 ("run t_end 0-d array", lambda: tm.run(t_end=np.array(1.0)), OK),
 ("run t_end Fraction 1/3", lambda: tm.run(t_end=__import__("fractions").Fraction(1, 3)), OK),
 ("run t_end Decimal 'nan'", lambda: tm.run(t_end=__import__("decimal").Decimal("nan")), S),
 ("run t_end 1e-320", lambda: tm.run(t_end=1e-320), OK + S),
 ("run every 1e-300", lambda: tm.run(every=1e-300), S),
 ("run every float32 1e-45", lambda: tm.run(t_end=1, every=np.float32(1e-45)), S),
 ("run dt 1e-300 rk4", lambda: tm.run(t_end=1, method="rk4", dt=1e-300), S),
 ("run max_steps True", lambda: tm.run(t_end=1, max_steps=True), S),
 ("run max_steps 2**63", lambda: tm.run(t_end=1, max_steps=2 ** 63), S),
 ("run max_steps uint64", lambda: tm.run(t_end=1, max_steps=np.uint64(10 ** 6)), OK),
 ("run max_event_rate inf", lambda: tm.run(t_end=1, max_event_rate=inf), S),
 ("run params np.str_ key", lambda: tm.run(t_end=1, params={np.str_("e"): 0.5}), OK),
 ("run params bytes key", lambda: tm.run(t_end=1, params={b"e": 0.5}), P),
 ("run params float32 e", lambda: tm.run(t_end=1, params={"e": np.float32(0.5)}), OK),
 ("run params e = int 10**400", lambda: tm.run(t_end=1, params={"e": 10 ** 400}), P),
 ("run params e = '0.5'", lambda: tm.run(t_end=1, params={"e": "0.5"}), OK),
 ("run params e = ' nan '", lambda: tm.run(t_end=1, params={"e": " nan "}), P),
 ("run params m1 = 1e-300", lambda: tm.run(t_end=1, params={"m1": 1e-300}), OK + P + R + S),
 ("run params m1 = 1e300", lambda: tm.run(t_end=1, params={"m1": 1e300}), OK + P + R + S),
 ("run params 5000 unknown", lambda: tm.run(t_end=1, params={"p%d" % i: 1 for i in range(5000)}), P),
 ("run params OrderedDict", lambda: tm.run(t_end=1, params=__import__("collections").OrderedDict(e=0.5)), OK),
 ("run init generator of 4", lambda: tm.run(t_end=1, init=(x for x in [-1, -1, 0, 0])), OK),
 ("run init range(4)", lambda: tm.run(t_end=1, init=range(-2, 2)), OK + P),
 ("run init float16 array", lambda: tm.run(t_end=1, init=np.array([-1, -1, 0, 0], np.float16)), OK),
 ("run init {'M1.x': np.float64}", lambda: tm.run(t_end=1, init={"M1.x": np.float64(-1)}), OK),
 ("run init uint8 array", lambda: tm.run(t_end=1, init=np.array([0, 255, 0, 0], np.uint8)), OK),
 ("run method np.str_", lambda: tm.run(t_end=1, method=np.str_("rk4")), OK),
 ("run method 'RK4'", lambda: tm.run(t_end=1, method="RK4"), S),
 ("run zeno np.int64(1)", lambda: tm.run(t_end=1, zeno=np.int64(1)), OK),
 ("run zeno 1.0", lambda: tm.run(t_end=1, zeno=1.0), S),
 ("section period np.float64", lambda: fio.section("period:1", t_end=5, period=np.float64(2.0)), OK),
 ("section period Fraction", lambda: fio.section("period:1", t_end=5, period=__import__("fractions").Fraction(7, 3)), OK),
 ("section spec np.str_", lambda: fio.section(np.str_("impact:stop"), t_end=5), OK),
 ("section t_end '10*2*pi/omega'", lambda: fio.section("impact:stop", t_end="10*2*pi/omega"), OK),
 ("section t_end 'nope'", lambda: fio.section("impact:stop", t_end="nope"), S),
 ("lyapunov interval 1e300", lambda: fio.lyapunov(1, 1e300), OK + S),
 ("lyapunov duration 1e300", lambda: fio.lyapunov(1e300, 1), S),
 ("floquet transient 1e300", lambda: fio.floquet("2*pi/omega", transient=1e300), S),
 ("floquet period '1/0'", lambda: fio.floquet("1/0"), S),
 ("sweep values range(3)", lambda: fio.sweep("omega", range(1, 3), "impact:stop", transient=1, record=1), OK + R),
 ("sweep values int8 array", lambda: fio.sweep("omega", np.array([2], np.int8), "impact:stop", transient=1, record=1), OK + R),
 ("sweep values float32 nan", lambda: fio.sweep("omega", np.array([np.float32("nan")]), "impact:stop"), P + S),
 ("sweep values object [1.5, '2']", lambda: fio.sweep("omega", np.array([1.5, "2"], object), "impact:stop", transient=1, record=1), OK + P),
 ("sweep values ['1.5', 'x']", lambda: fio.sweep("omega", ["1.5", "x"], "impact:stop"), P),
 ("sweep record np.int64", lambda: fio.sweep("omega", [1.5], "impact:stop", transient=np.int64(1), record=np.int64(1)), OK),
 ("sweep record np.bool_", lambda: fio.sweep("omega", [1.5], "impact:stop", transient=1, record=np.bool_(True)), S),
 ("sweep param np.str_", lambda: fio.sweep(np.str_("omega"), [1.5], "impact:stop", transient=1, record=1), OK),
 ("sweep params {'omega': 1}", lambda: fio.sweep("omega", [1.5], "impact:stop", params={"omega": 1}), P),
 ("basins axis with np types", lambda: fio.basins((np.str_("M.x"), np.float32(-0.1), np.float64(0.1), np.int64(2)), ("M.v", -0.1, 0.1, 2), "impact:stop", transient=2, record=2), OK),
 ("basins axis complex start", lambda: fio.basins(("M.x", np.complex128(-0.1), 0.1, 2), ("M.v", -0.1, 0.1, 2), "impact:stop", transient=2, record=2), S),
 ("basins params e = True", lambda: fio.basins(("M.x", -0.1, 0.1, 2), ("M.v", -0.1, 0.1, 2), "impact:stop", transient=2, record=2, params={"e": True}), P),
 ("basins t_max ';rm -rf'", lambda: fio.basins(("M.x", -0.1, 0.1, 2), ("M.v", -0.1, 0.1, 2), "impact:stop", transient=2, record=2, t_max="1;rm -rf x"), S),
 ("continuation periods np.int64(1)", lambda: fio.continuation("omega", 2.4, 2.45, periods=np.int64(1), max_points=3, transient=20), OK + R),
 ("continuation switch_pd np.True_", lambda: fio.continuation("omega", 2.4, 2.45, switch_pd=np.bool_(True), max_points=3, transient=20), OK + R),
 ("continuation ds True", lambda: fio.continuation("omega", 2.4, 2.45, ds=True, max_points=3), S),
 ("continuation tol np.float16", lambda: fio.continuation("omega", 2.4, 2.45, tol=np.float16(1e-3), max_points=3, transient=20), OK + R),
]
for label, call, want in A:
    expect(label, call, want)
print("ok: %d hostile arguments: a result or an nsm.Error with a message" % len(A))
odd = nsm.compile_source(text)
r = odd.run()
assert list(odd.params) == [] and odd.contacts == [LONG], (odd.params, odd.contacts)
assert set(r.events["contact"]) == {LONG} and r.contacts[LONG]["impacts"] > 3, r.events
for ev in r.events:         # each impact at 1 m of fall: speeds of sqrt(2 g) * 0.5^k
    if ev["kind"] == "impact":
        assert abs(ev["vrel_after"] + 0.5 * ev["vrel_before"]) < 1e-9, ev
print("ok: a model with no parameters and a 121-character gap name: the name whole, "
      "every impact's speed halved")
try:
    r[np.str_("B.x")]
    r["B.x\0"]
    raise AssertionError("a column with a NUL was found")
except nsm.ColumnError as e:
    assert "B.x" in str(e)
print("ok: columns by numpy strings; a name with a NUL is a ColumnError")
# the first impact against the closed form of the fall from 1 m: at
# t = sqrt(2/g), speed sqrt(2 g)
first = r.events[r.events["kind"] == "impact"][0]
assert abs(first["t"] - (2 / 9.81) ** 0.5) < 1e-12, first
assert abs(first["vrel_before"] + (2 * 9.81) ** 0.5) < 1e-12, first
print("ok: the first impact at sqrt(2/g) = %.15f s, %.15f m/s (closed form within 1e-12)"
      % (first["t"], first["vrel_before"]))
'''


def case_args(tmp):
    """Hostile arguments that found nothing, kept as regression cases."""
    python_script(tmp, "ninth_args.py", ARGS, [MODELS],
                  "python: every hostile argument a result or an nsm.Error with a message")


# ---- signals ----------------------------------------------------------------

SIGNALS = COMMON + r'''
import random
tm = nsm.compile(M + "two_mass.nsm")
fio = nsm.compile(M + "forced_impact_oscillator.nsm")
ref = tm.run(t_end=20, method="exact", every=0.01)
calls = {
 "run": lambda: tm.run(t_end=200, method="exact", every=0.001),
 "section": lambda: fio.section("impact:stop", t_end=20000),
 "lyapunov": lambda: fio.lyapunov(2000, 1),
 "sweep": lambda: fio.sweep("omega", np.linspace(1.5, 2.5, 40), "impact:stop", transient=50,
                            record=20),
 "continuation": lambda: fio.continuation("omega", 2.4, 2.8, switch_pd=True),
}
rng = random.Random(int(sys.argv[2]))
tally = {}
def consistent(name, e):
    """The partial result of an interrupted study, checked."""
    res = e.result
    if name == "run":
        assert res is not None and len(res.t) >= 1 and np.all(np.diff(res.t) > 0), res
        assert res.t[-1] <= e.t + 1e-12 and res.t_reached == e.t, (res.t[-1], e.t)
        assert np.all(res.events["t"] <= e.t + 1e-12) and np.all(np.isfinite(res.state))
        # the samples so far are the reference's where they overlap (every 0.001 s)
        k = min(len(res.t), 20001) // 10 * 10
        if k:
            assert np.array_equal(res.state[:k:10], ref.state[:k // 10]), "samples differ"
    elif name == "section":
        assert res.ndim == 2 and res.shape[1] == 4 and np.all(res[:, 0] <= e.t + 1e-9)
    elif name == "sweep":
        p, rec = res
        assert len(p) == len(rec) and np.all(np.isin(p, np.linspace(1.5, 2.5, 40)))
    elif name == "continuation":
        assert isinstance(res, nsm.Branch) and res.message == "interrupted"
    else:
        assert res is None
for round_ in range(int(sys.argv[3])):
    for name, call in calls.items():
        delay = rng.uniform(0.0, 0.25)
        go = threading.Event()
        def fire():
            go.wait()
            end = time.perf_counter() + delay
            while time.perf_counter() < end:
                pass
            os.kill(os.getpid(), signal.SIGINT)
        th = threading.Thread(target=fire)
        th.start()
        try:
            try:
                go.set()
                call()
                out = "finished"
            finally:
                th.join()
            time.sleep(0.01)        # a late SIGINT lands here
        except nsm.Interrupted as e:
            consistent(name, e)
            out = "Interrupted"
        except KeyboardInterrupt:
            out = "KeyboardInterrupt"
        assert handler() == PYTHON_HANDLER, "%s: SIGINT's handler left replaced" % name
        tally[(name, out)] = tally.get((name, out), 0) + 1
for k in sorted(tally):
    print("  %-14s %-18s %d" % (k + (tally[k],)))
assert sum(v for (n_, o), v in tally.items() if o == "Interrupted") >= len(calls), tally
again = tm.run(t_end=20, method="exact", every=0.01)
assert np.array_equal(again.state, ref.state) and np.array_equal(again.t, ref.t)
print("ok: Ctrl-C at %d random moments: Interrupted with a consistent partial result or a "
      "KeyboardInterrupt, the handler back each time, the next run bit for bit the reference"
      % sum(tally.values()))
'''


def case_signals(tmp):
    """Ctrl-C at seeded random moments of runs and studies."""
    python_script(tmp, "ninth_signals.py", SIGNALS, [MODELS, "9", "2" if SANITIZED else "4"],
                  "python: Ctrl-C at random moments of every study")


# ---- cache and concurrency --------------------------------------------------

THREADS = COMMON + r'''
import queue
base = open(M + "two_mass.nsm").read()
texts = [base + "# variant %d\n" % i for i in range(4)]
out, errs = [None] * 8, queue.Queue()
def build(i):
    try:
        m = nsm.compile_source(texts[i % 4])    # two threads per text, four texts at once
        out[i] = m.run(t_end=20, method="exact")
    except BaseException as e:
        errs.put(repr(e))
ts = [threading.Thread(target=build, args=(i,)) for i in range(8)]
for t in ts:
    t.start()
for t in ts:
    t.join()
assert errs.empty(), list(errs.queue)
assert all(np.array_equal(o.state, out[0].state) for o in out), "the builds differ"
left = [f for f in glob.glob(CACHE + "/*/*") if ".tmp" in f]
assert not left and len(glob.glob(CACHE + "/py-two_mass-*")) == 4, (left, os.listdir(CACHE))
print("ok: four models compiled from eight threads into a cold cache: each whole, the same "
      "motion, no temporary left")
m = nsm.compile(M + "two_mass.nsm")
ref = m.run(t_end=20, method="exact", every=0.001)
res = [None] * 8
def work(i):
    res[i] = m.run(t_end=20, method="exact", every=0.001, params={"e": 0.9})
ts = [threading.Thread(target=work, args=(i,)) for i in range(8)]
for t in ts:
    t.start()
for t in ts:
    t.join()
assert all(r is not None and np.array_equal(r.state, ref.state) and
           np.array_equal(r.events["t"], ref.events["t"]) for r in res), "threads differ"
# the first separation, against the event the model's validation names (3.257839639 s)
assert abs(ref.events["t"][1] - 3.257839639) < 1e-8, ref.events
print("ok: one model run from eight threads: bit-identical results")
'''

LOADED_RUNS = r'''
import sys, time, numpy as np, nsm
m = nsm.compile(sys.argv[1] + "/two_mass.nsm")
ref = m.run(t_end=20, method="exact")
print("loaded", flush=True)
sys.stdin.readline()            # the other process rebuilds the entry meanwhile
for i in range(5):
    assert np.array_equal(m.run(t_end=20, method="exact").state, ref.state)
print("%.17g %d" % (ref.state[-1, 0], len(ref.events)))
'''


def case_threads(tmp):
    """Threads compiling four models into a cold cache, and running one."""
    python_script(tmp, "ninth_threads.py", THREADS, [MODELS],
                  "python: threads compiling four models and running one")


def case_cache(tmp):
    """Processes compiling and rebuilding at once; checksums of garbage."""
    # three processes compiling one model into a cold cache at once
    path = os.path.join(tmp, "c.py")
    with open(path, "w") as f:
        f.write(COMPILE_TM)
    procs = [subprocess.Popen([sys.executable, path, MODELS], cwd=tmp, env=env_for(tmp),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(3)]
    outs = [p.communicate(timeout=120) for p in procs]
    check(all(p.returncode == 0 for p in procs) and len({o for o, _ in outs}) == 1,
          "three processes compiling one model into a cold cache: the same result each",
          procs[0])
    # a process rebuilding a damaged entry while another runs what it loaded
    path = os.path.join(tmp, "loaded.py")
    with open(path, "w") as f:
        f.write(LOADED_RUNS)
    holder = subprocess.Popen([sys.executable, path, MODELS], cwd=tmp, env=env_for(tmp),
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    check(holder.stdout.readline().strip() == "loaded", "a process loaded two_mass")
    so = os.path.join(cache_entry(tmp), "two_mass.so")
    with open(so, "r+b") as f:         # altered in place of a copy: a new file, same name
        data = f.read()
    os.unlink(so)
    with open(so, "wb") as f:
        f.write(data[:len(data) // 2])
    p = subprocess.run([sys.executable, os.path.join(tmp, "c.py"), MODELS], cwd=tmp,
                       env=env_for(tmp), capture_output=True, text=True, timeout=120)
    out, err = holder.communicate("go\n", timeout=120)
    check(p.returncode == 0 and holder.returncode == 0 and p.stdout == out == outs[0][0] and
          "damaged" in p.stderr,
          "an entry truncated and rebuilt by one process while another runs the model it "
          "loaded: both the reference", p)
    sumfile = os.path.join(cache_entry(tmp), "two_mass.sum")
    good = open(sumfile).read()
    for label, text in thin((("garbage", "\x00\xff garbage"),
                             ("a negative size", good.split()[0] + " -5\n"),
                             ("a huge size", good.split()[0] + " 99999999999999999999999\n"))):
        with open(sumfile, "w", errors="surrogateescape") as f:
            f.write(text)
        p = subprocess.run([sys.executable, os.path.join(tmp, "c.py"), MODELS], cwd=tmp,
                           env=env_for(tmp), capture_output=True, text=True, timeout=120)
        print("  checksum %-16s -> %d %s" % (label, p.returncode, p.stderr.strip()[-60:]))
        check(p.returncode == 0 and p.stdout == outs[0][0] and "damaged" in p.stderr,
              "a checksum of %s: rebuilt, the reference result" % label, p)


if __name__ == "__main__":
    sys.exit(main({"findings": case_findings, "findings_cache": case_findings_cache,
                   "args": case_args, "signals": case_signals,
                   "threads": case_threads, "cache": case_cache}, "nsm-ninth-py-"))
