#!/usr/bin/env python3
"""An eleventh hostile pass over the Python package: arguments that are
subclasses of int, float and str, numpy scalars and 0-d arrays, objects
whose __float__ raises or answers differently each time, integers beyond a
double's range, numpy dates and durations; the program cache damaged by
another entry's whole files, a hard link in its lock's place, read-only,
full and noexec file systems, Ctrl-C at seeded random moments of a cold
build; threads running four models at once.

    tests/reliability/eleventh_pass_py_test.py SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  findings   what the pass found, each failing before its fix: counts and
             sweep values of 10**400 escaped as a bare OverflowError; a
             __float__ that raised escaped as its own exception; an array
             of timedelta64 was swept as its count of its unit; a __float__
             answering 1e-300 to the setting and 0.01 to the check ran
             every=1e-300 past the guard; a hard link in place of a cache
             entry's lock or of an out-dir's lock had its file's contents
             replaced by a process id; another entry's whole object and
             checksum copied into an entry gave another model without a
             word; a read-only cache with a whole entry was refused where
             nsmc run uses it; a cache on a noexec file system was told to
             "compile the model again"; a numpy that fails to import was
             answered with the advice to install numpy.
  args       hostile arguments that found nothing: a result or an nsm.Error
             subclass with a message, never another exception; four models
             run by eight threads at once, bit for bit as one at a time.
  cache      damaged checksums, a full tmpfs, a read-only cold cache, Ctrl-C
             at seeded random moments of a cold build: an nsm.Error naming
             the cause or the reference result, never a temporary left.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import PY_EXPECT, SANITIZED, check, env_for, main, python_script  # noqa: E402

SRC = os.path.abspath(sys.argv[1])
MODELS = os.path.join(SRC, "models")

COMMON = r'''
import fractions, decimal, os, sys, warnings
import numpy as np
import nsm
warnings.simplefilter("error")      # no value cut with a warning only
M = sys.argv[1] + "/"
# every other call under the sanitizers (about 3x slower)
thin = (lambda calls: calls[::2]) if os.environ.get("NSM_SANITIZED") == "1" else list
''' + PY_EXPECT + r'''
S, P, R, C, OK = ("SettingError",), ("ParameterError",), ("SimulationError",), \
    ("CompileError",), ("ok",)
X, V = ("M.x", -1, 0.5, 2), ("M.v", -1, 1, 2)
BIG = 10 ** 400

class Raises:
    """A value whose conversion to float raises its own exception."""
    def __float__(self):
        raise RuntimeError("no float here")

class Flip:
    """A value answering 1e-300 to the first __float__, 0.01 to the next."""
    def __init__(self):
        self.n = 0
    def __float__(self):
        self.n += 1
        return 1e-300 if self.n % 2 else 0.01

class FSub(float):
    pass

class ISub(int):
    pass

class SSub(str):
    pass
'''

# ---- findings ---------------------------------------------------------------

FINDINGS = COMMON + r'''
tm = nsm.compile(M + "two_mass.nsm")
fio = nsm.compile(M + "forced_impact_oscillator.nsm")
kw = dict(transient=1, record=1)
F = [
 # 10**400 as a count or a sweep value: a bare OverflowError
 ("sweep transient 10**400", lambda: fio.sweep("omega", [2.0], "impact:stop", transient=BIG, record=1), S),
 ("sweep record 10**400", lambda: fio.sweep("omega", [2.0], "impact:stop", transient=1, record=BIG), S),
 ("sweep values [10**400]", lambda: fio.sweep("omega", [BIG], "impact:stop", **kw), P),
 ("continuation max_points 10**400", lambda: fio.continuation("omega", 2.4, 2.5, max_points=BIG), S),
 ("continuation periods 10**400", lambda: fio.continuation("omega", 2.4, 2.5, periods=BIG), S),
 ("continuation transient 10**400", lambda: fio.continuation("omega", 2.4, 2.5, transient=BIG), S),
 ("basins count 10**400", lambda: fio.basins(("M.x", -1, 0.5, BIG), V, "impact:stop", **kw), S),
 ("basins jobs 10**400", lambda: fio.basins(X, V, "impact:stop", jobs=BIG, **kw), S),
 ("basins pilot 10**400", lambda: fio.basins(X, V, "impact:stop", pilot=BIG, **kw), S),
 # a __float__ that raises: its own bare exception
 ("run t_end Raises", lambda: tm.run(t_end=Raises()), S),
 ("run every Raises", lambda: tm.run(t_end=1, every=Raises()), S),
 ("run max_steps Raises", lambda: tm.run(t_end=1, max_steps=Raises()), S),
 ("run params {'e': Raises}", lambda: fio.run(t_end=1, params={"e": Raises()}), P),
 ("section t_end Raises", lambda: fio.section("impact:stop", t_end=Raises()), S),
 ("sweep record Raises", lambda: fio.sweep("omega", [2.0], "impact:stop", transient=1, record=Raises()), S),
 ("sweep values [Raises]", lambda: fio.sweep("omega", [Raises()], "impact:stop", **kw), P),
 ("lyapunov duration Raises", lambda: fio.lyapunov(Raises(), 1), S),
 ("continuation ds Raises", lambda: fio.continuation("omega", 2.4, 2.5, ds=Raises()), S),
 # numpy durations and dates: a scalar is refused, an array was swept as
 # its count of its unit (500 ms as omega = 500)
 ("sweep values timedelta64[ms] [500]",
  lambda: fio.sweep("omega", np.array([500], dtype="timedelta64[ms]"), "impact:stop", **kw), P),
 ("sweep values datetime64[D]",
  lambda: fio.sweep("omega", np.array(["1970-01-03"], dtype="datetime64[D]"), "impact:stop", **kw), P),
 ("run init timedelta64 array", lambda: tm.run(t_end=1, init=np.zeros(4, dtype="timedelta64[s]")), P),
 # a value read twice: set from its first answer, checked on its second
 ("run every Flip (1e-300 set, 0.01 checked)", lambda: tm.run(t_end=1, every=Flip(), max_steps=10 ** 6), S),
 ("run dt Flip (rk4)", lambda: tm.run(t_end=1, dt=Flip(), method="rk4", max_steps=10 ** 6), S),
]
for label, call, want in thin(F):
    expect(label, call, want)
try:
    tm.run(t_end=Raises())
except nsm.SettingError as e:
    assert "RuntimeError: no float here" in str(e) and isinstance(e.__cause__, RuntimeError), e
try:
    fio.sweep("omega", [2.0], "impact:stop", transient=BIG, record=1)
except nsm.SettingError as e:
    assert "401 characters" in str(e) and "0 to 100000000" in str(e), e
print("ok: %d values beyond range, raising or answering twice, each an nsm.Error naming it"
      % len(thin(F)))
'''

# the cache entry's lock hard-linked to a file of the user's, and another
# entry's whole object and checksum copied into this one
CACHE_FINDINGS = r'''
import os, shutil, subprocess, sys
import numpy as np
import nsm
M = sys.argv[1] + "/"
notes = os.path.abspath("notes.txt")
with open(notes, "w") as f:
    f.write("my notes\n")
so = nsm.compile(M + "two_mass.nsm").path
lock = os.path.join(os.path.dirname(so), ".lock")
os.unlink(lock)
os.link(notes, lock)
r = nsm.compile(M + "two_mass.nsm").run(t_end=1)
got = open(notes).read()
print("a hard link in the lock's place: the file holds %r" % got)
assert got == "my notes\n", "the lock's hard link had its file replaced: %r" % got
assert len(r.t) == 101
# nsmc run, sweeps and continuations: the out-dir's lock likewise
os.mkdir("od")
os.link(notes, "od/.nsm-run.lock")
nsmc = nsm._locate().NSMC
p = subprocess.run([nsmc, "run", M + "two_mass.nsm", "--out-dir", "od"], capture_output=True,
                   text=True, timeout=300)
got = open(notes).read()
print("nsmc run into a folder whose lock is a hard link: exit %d, %s; the file holds %r"
      % (p.returncode, p.stderr.strip().splitlines()[-1], got))
assert got == "my notes\n", "the out-dir lock's hard link had its file replaced: %r" % got
assert p.returncode == 1 and "hard link" in p.stderr, p.stderr
# another model's whole entry copied in: it was loaded as this model
fso = nsm.compile(M + "forced_impact_oscillator.nsm").path
for src, dst in ((fso, so), (fso[:-3] + ".sum", so[:-3] + ".sum")):
    shutil.copy(src, dst + ".x")
    os.replace(dst + ".x", dst)
'''

CACHE_SWAPPED = r'''
import sys
import nsm
m = nsm.compile(sys.argv[1] + "/two_mass.nsm")
print("compile(two_mass.nsm) over another entry's files gave", m.name)
assert m.name == "two_mass", "another model loaded without a word: " + m.name
assert len(m.run(t_end=1).t) == 101
'''

PROBE = r'''
import sys
import nsm
try:
    m = nsm.compile(sys.argv[1] + "/two_mass.nsm")
    print("result", len(m.run(t_end=1).t))
except nsm.Error as e:
    assert str(e).strip(), "an empty message"
    print(type(e).__name__, str(e).replace("\n", " ")[:400])
'''


def mounted(tmp, opts, script, prep=""):
    """Runs the PROBE script with XDG_CACHE_HOME on a tmpfs mounted with
    opts in a private mount namespace (after the shell commands prep, given
    the mount as $C); its last line, or None when this machine cannot mount
    (not root)."""
    probe = os.path.join(tmp, "probe.py")
    with open(probe, "w") as f:
        f.write(script)
    mnt = os.path.join(tmp, "mnt")
    os.makedirs(mnt, exist_ok=True)
    sh = ("mount -t tmpfs -o %s tmpfs \"$C\" || exit 99; %s XDG_CACHE_HOME=\"$C\" "
          "\"$PY\" \"$PROBE\" \"$MODELS\"" % (opts, prep))
    env = env_for(tmp)
    env.update(C=mnt, PY=sys.executable, PROBE=probe, MODELS=MODELS)
    p = subprocess.run(["unshare", "-m", "sh", "-c", sh], env=env, cwd=tmp,
                       capture_output=True, text=True, timeout=300)
    if p.returncode == 99 or "unshare" in p.stderr and p.returncode != 0:
        return None
    check(p.returncode == 0, "the probe on a tmpfs (%s) ended by itself, exit 0" % opts, p)
    return (p.stdout.strip().splitlines() or [""])[-1]


def case_findings(tmp):
    """What the pass found, each failing before its fix."""
    python_script(tmp, "eleventh_findings.py", FINDINGS, [MODELS],
                  "python: values beyond range, raising or read twice, each an nsm.Error")
    python_script(tmp, "eleventh_cache.py", CACHE_FINDINGS, [MODELS],
                  "python: hard links in the locks' places leave their files alone")
    python_script(tmp, "eleventh_swapped.py", CACHE_SWAPPED, [MODELS],
                  "python: another entry's object and checksum copied in: rebuilt")
    # a read-only cache whose entry is whole: nsmc run uses it, nsm refused it
    said = mounted(tmp, "size=64m", PROBE,
                   "XDG_CACHE_HOME=\"$C\" \"$PY\" \"$PROBE\" \"$MODELS\" >/dev/null && "
                   "mount -o remount,ro \"$C\" &&")
    if said is None:
        print("no mount here (not root): the read-only and noexec caches are not tried")
    else:
        print("  a read-only cache with a whole entry: %s" % said)
        check(said == "result 101", "a read-only cache's whole entry is used (it was refused)")
        said = mounted(tmp, "noexec", PROBE)
        print("  a cache on a noexec file system: %s" % said[:200])
        check(said.startswith("CompileError") and "noexec" in said and
              "compile the model again" not in said,
              "a noexec cache named as such (it said 'compile the model again')")
    # numpy installed but failing to import (what Ctrl-C during its import
    # gives): the advice to install numpy named the wrong cause
    fake = os.path.join(tmp, "fakenp", "numpy")
    os.makedirs(fake)
    with open(os.path.join(fake, "__init__.py"), "w") as f:
        f.write("raise ImportError('Importing the numpy C-extensions failed.\\n\\nOriginal "
                "error was: PyCapsule_Import could not import module \"datetime\"')\n")
    env = env_for(tmp)
    env["PYTHONPATH"] = os.path.dirname(fake) + os.pathsep + env.get("PYTHONPATH", "")
    p = subprocess.run([sys.executable, "-c", "import nsm"], env=env, cwd=tmp,
                       capture_output=True, text=True, timeout=60)
    last = (p.stderr.strip().splitlines() or [""])[-1]
    print("  numpy failing to import: %s" % last[:200])
    check(p.returncode == 1 and "installed for this Python" in last and "datetime" in last and
          "apt-get install" not in last,
          "a numpy that fails to import is named as such (it said to install numpy)", p)


# ---- args -------------------------------------------------------------------

ARGS = COMMON + r'''
tm = nsm.compile(M + "two_mass.nsm")
fio = nsm.compile(M + "forced_impact_oscillator.nsm")
kw = dict(transient=1, record=1)
A = [
 ("run t_end FSub(1)", lambda: tm.run(t_end=FSub(1)), OK),
 ("run t_end ISub(1)", lambda: tm.run(t_end=ISub(1)), OK),
 ("run t_end SSub('1')", lambda: tm.run(t_end=SSub("1")), OK),
 ("run t_end np.array(1.0)", lambda: tm.run(t_end=np.array(1.0)), OK),
 ("run t_end np.float16(1)", lambda: tm.run(t_end=np.float16(1)), OK),
 ("run t_end -10**400", lambda: tm.run(t_end=-BIG), S),
 ("run t_end np.longdouble('1e400')", lambda: tm.run(t_end=np.longdouble("1e400")), S),
 ("run t_end Decimal('sNaN')", lambda: tm.run(t_end=decimal.Decimal("sNaN")), S),
 ("run t_end Fraction(10**400, 3)", lambda: tm.run(t_end=fractions.Fraction(BIG, 3)), S),
 ("run t_end np.timedelta64(500, 'ms')", lambda: tm.run(t_end=np.timedelta64(500, "ms")), S),
 ("run every np.timedelta64(1, 's')", lambda: tm.run(t_end=1, every=np.timedelta64(1, "s")), S),
 ("run max_steps np.uint64(2**64 - 1)", lambda: tm.run(t_end=1, max_steps=np.uint64(2 ** 64 - 1)), S),
 ("run max_steps np.array(100000)", lambda: tm.run(t_end=1, max_steps=np.array(100000)), OK),
 ("run max_steps ISub(100000)", lambda: tm.run(t_end=1, max_steps=ISub(100000)), OK),
 ("run max_event_rate 10**400", lambda: tm.run(t_end=1, max_event_rate=BIG), S),
 ("run zeno ISub(1)", lambda: tm.run(t_end=1, zeno=ISub(1)), OK),
 ("run zeno np.array(True)", lambda: tm.run(t_end=1, zeno=np.array(True)), S),
 ("run zeno 10**400", lambda: tm.run(t_end=1, zeno=BIG), S),
 ("run method SSub('rk4')", lambda: tm.run(t_end=1, method=SSub("rk4")), OK),
 ("run params {SSub('e'): 0.5}", lambda: fio.run(t_end=1, params={SSub("e"): 0.5}), OK),
 ("run params {'e': np.array(0.5)}", lambda: fio.run(t_end=1, params={"e": np.array(0.5)}), OK),
 ("run params {'e': 10**400}", lambda: fio.run(t_end=1, params={"e": BIG}), P),
 ("run params {('e',): 0.5}", lambda: fio.run(t_end=1, params={("e",): 0.5}), P),
 ("run init [10**400] * 4", lambda: tm.run(t_end=1, init=[BIG] * 4), P),
 ("run init np.zeros((2, 2))", lambda: tm.run(t_end=1, init=np.zeros((2, 2))), P),
 ("run init np.array(5.0)", lambda: tm.run(t_end=1, init=np.array(5.0)), P),
 ("section spec SSub", lambda: fio.section(SSub("impact:stop"), t_end=10), OK),
 ("section period 10**400", lambda: fio.section("impact:stop", t_end=10, period=BIG), S),
 ("section period np.float64(1e-300)", lambda: fio.section("impact:stop", t_end=10, period=np.float64(1e-300)), S),
 ("section period Flip", lambda: fio.section("period:1", t_end=10, period=Flip()), S),
 ("sweep param SSub", lambda: fio.sweep(SSub("omega"), [2.0], "impact:stop", **kw), OK),
 ("sweep values [Fraction(5, 2)]", lambda: fio.sweep("omega", [fractions.Fraction(5, 2)], "impact:stop", **kw), OK),
 ("sweep values np.array(2.0)", lambda: fio.sweep("omega", np.array(2.0), "impact:stop", **kw), OK),
 ("sweep values longdouble", lambda: fio.sweep("omega", np.array([2.0], dtype=np.longdouble), "impact:stop", **kw), OK),
 ("sweep values {2.0}", lambda: fio.sweep("omega", {2.0}, "impact:stop", **kw), P),
 ("sweep values uint8 [0]", lambda: fio.sweep("omega", np.array([0], dtype=np.uint8), "impact:stop", **kw), P),
 ("sweep t_max 10**400", lambda: fio.sweep("omega", [2.0], "impact:stop", t_max=BIG, **kw), S),
 ("continuation start 10**400", lambda: fio.continuation("omega", BIG, 2.5), S),
 ("continuation switch_pd 10**400", lambda: fio.continuation("omega", 2.4, 2.5, switch_pd=BIG), S),
 ("continuation curve ['fold']", lambda: fio.continuation("omega", 2.4, 2.5, curve=["fold"]), S),
 ("continuation period 10**400", lambda: fio.continuation("omega", 2.4, 2.5, period=BIG, max_points=2), S),
 ("lyapunov interval 10**400", lambda: fio.lyapunov(10, BIG), S),
 ("floquet period 10**400", lambda: fio.floquet(BIG), S),
 ("basins start 10**400", lambda: fio.basins(("M.x", BIG, 0.5, 2), V, "impact:stop", **kw), S),
 ("basins t_max '--version'", lambda: fio.basins(X, V, "impact:stop", t_max="--version", **kw), S),
 ("basins section '--help'", lambda: fio.basins(X, V, "--help", **kw), S),
 ("basins params {'e=0.1': 0.5}", lambda: fio.basins(X, V, "impact:stop", params={"e=0.1": 0.5}, **kw), P),
]
for label, call, want in thin(A):
    expect(label, call, want)
print("ok: %d hostile arguments, each a result or an nsm.Error with a message" % len(thin(A)))
'''

# four models, every method and the studies, run by eight threads at once
THREADS = r'''
import os, sys, threading
import numpy as np
import nsm
M = sys.argv[1] + "/"
names = ["two_mass", "forced_impact_oscillator", "bouncing_ball", "impacting_oscillator"]
if os.environ.get("NSM_SANITIZED") == "1":
    names = names[:2]       # built already by the args above: no new build under the sanitizers
ms = dict((n, nsm.compile(M + n + ".nsm")) for n in names)
def jobs(n, m):
    out = dict((meth, m.run(method=meth).state) for meth in ("rk4", "adaptive"))
    if n != "bouncing_ball":
        out["exact"] = m.run(method="exact").state
    if n == "forced_impact_oscillator":
        out["section"] = m.section("impact:stop", t_end=50)
        out["sweep"] = m.sweep("omega", [2.0, 2.5, 3.0], "impact:stop", transient=5, record=5)[1]
        out["lyapunov"] = m.lyapunov(50, 1, transient=10)
        out["floquet"] = m.floquet("2*pi/omega", transient=20)[1]
        out["continuation"] = m.continuation("omega", 2.4, 2.6, max_points=10).param
    return out
ref = dict((n, jobs(n, m)) for n, m in ms.items())
got = {}
def worker(n, k):
    got[(n, k)] = jobs(n, ms[n])
ths = [threading.Thread(target=worker, args=(n, k)) for k in range(2) for n in names]
for t in ths:
    t.start()
for t in ths:
    t.join()
n = 0
for (name, k), out in sorted(got.items()):
    for key, v in out.items():
        a, b = np.asarray(ref[name][key]), np.asarray(v)
        assert a.shape == b.shape and a.tobytes() == b.tobytes(), "%s %s differs" % (name, key)
        n += 1
print("ok: %d results of eight threads bit for bit those of one at a time" % n)
'''


def case_args(tmp):
    """Hostile arguments that found nothing, and threads, kept as regression cases."""
    python_script(tmp, "eleventh_args.py", ARGS, [MODELS],
                  "python: every hostile argument a result or an nsm.Error with a message")
    python_script(tmp, "eleventh_threads.py", THREADS, [MODELS],
                  "python: eight threads running four models, bit for bit")


# ---- cache ------------------------------------------------------------------

SUMS = r'''
import os, subprocess, sys
import nsm
M = sys.argv[1] + "/"
so = nsm.compile(M + "two_mass.nsm").path
good = open(so[:-3] + ".sum").read()
h, n, key = good.split()
def rerun():
    return subprocess.run([sys.executable, "-c", "import nsm, sys; r = nsm.compile(sys.argv[1] "
                           "+ '/two_mass.nsm').run(t_end=1); print(repr(r['M1.x'][-1]))", M[:-1]],
                          capture_output=True, text=True, timeout=300)
ref = rerun().stdout
texts = [h + " " + str(int(n) + 2 ** 64) + " " + key, h.upper() + " " + n + " " + key,
         h + " 0x%x " % int(n) + key, h + " " + n + " " + key[::-1], h + " " + n,
         "\ufeff" + good]
if os.environ.get("NSM_SANITIZED") == "1":
    texts = texts[::3]
for text in texts:
    with open(so[:-3] + ".sum", "w") as f:
        f.write(text)
    p = rerun()
    note = [ln for ln in p.stderr.splitlines() if "damaged" in ln]
    print("  checksum %-30r exit %d, %s" % (text[:10] + ".." + text[-16:], p.returncode,
                                            note[0].split("(")[-1] if note else "used"))
    assert p.returncode == 0 and p.stdout == ref and note, (text, p.stderr)
    assert not [f for f in os.listdir(os.path.dirname(so)) if "tmp" in f]
print("ok: %d damaged checksums, each rebuilt with a note, the reference result" % len(texts))
'''

CTRLC = r'''
import glob, os, random, shutil, signal, subprocess, sys, time
M, seed, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
random.seed(seed)
code = ("import nsm, sys\nm = nsm.compile(sys.argv[1] + '/two_mass.nsm')\n"
        "print(repr(m.run(t_end=1)['M1.x'][-1]))")
cache = os.path.abspath("cc_cache")
env = dict(os.environ, XDG_CACHE_HOME=cache)
run = lambda: subprocess.run([sys.executable, "-c", code, M], env=env, capture_output=True,
                             text=True, timeout=300)
ref = run().stdout
assert ref, "no reference"
for i in range(count):
    shutil.rmtree(cache)
    delay = random.uniform(0.05, 1.5)
    p = subprocess.Popen([sys.executable, "-c", code, M], env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    time.sleep(delay)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=120)
    last = (err.strip().splitlines() or ["(ran to its end)"])[-1]
    left = [f for f in glob.glob(cache + "/nsm/*/*") if ".tmp" in os.path.basename(f)]
    q = run()
    print("  Ctrl-C after %.2f s: exit %d, %s; left %s; next compile exit %d, %s"
          % (delay, p.returncode, last[:60], left, q.returncode,
             "the reference" if q.stdout == ref else "DIFFERENT " + q.stdout[:40]))
    assert p.returncode in (0, 1, -2) and not left and q.returncode == 0 and q.stdout == ref
    assert "Traceback" not in err or "KeyboardInterrupt" in err or "ImportError" in err, err
print("ok: %d cold builds stopped by Ctrl-C, no temporary left, the next the reference" % count)
'''


def case_cache(tmp):
    """Damaged checksums, a full tmpfs, a read-only cold cache, Ctrl-C at
    seeded random moments of a cold build."""
    python_script(tmp, "eleventh_sums.py", SUMS, [MODELS],
                  "python: checksums damaged in new ways rebuilt")
    said = mounted(tmp, "size=16k", PROBE)
    if said is None:
        print("no mount here (not root): the full and read-only caches are not tried")
    else:
        print("  a cache on a full 16 KB tmpfs: %s" % said[:200])
        check(said.startswith("CompileError") and "No space left on device" in said,
              "a full cache: a CompileError naming the full disk")
        said = mounted(tmp, "ro", PROBE)
        print("  a cold read-only cache: %s" % said[:200])
        check(said.startswith("CompileError") and "Read-only file system" in said,
              "a cold read-only cache: a CompileError naming it")
    python_script(tmp, "eleventh_ctrlc.py", CTRLC, [MODELS, "11", "1" if SANITIZED else "3"],
                  "python: Ctrl-C at random moments of a cold build")


if __name__ == "__main__":
    sys.exit(main({"findings": case_findings, "args": case_args, "cache": case_cache},
                  "nsm-eleventh-py-", case_arg=2))
