#!/usr/bin/env python3
"""What the hostile passes on the programs and the Python package left as
found (issue #29, docs/status.md), each a check that failed before its fix.

    tests/reliability/leftovers14_prog_test.py NSMC SOURCE_DIR BALL_SIM CASE

Cases (each under 20 s in the normal build):
  disk       a simulator on a full tmpfs: events.csv, which could not even
             take its header, is removed and named with the system's reason
             (it was left at 0 bytes, and only the trajectory was named).
  place      a sweep whose summary.csv cannot be renamed into place after
             section.csv was (a rename(2) made to fail by an LD_PRELOAD
             shim): the earlier sweep's files are put back byte for byte and
             the message says so (the new section.csv stood beside the old
             summary.csv); a basin study likewise with basins.csv.
  results    `nsmc run MODEL -- --out z.h5 --stats s.csv` names z.h5 and
             s.csv in its results line (z.h5 was left out); an HDF5 --out
             given before and after "--" is refused as given twice.
  basins     Ctrl-C (_thread.interrupt_main) during Model.basins raises
             nsm.Interrupted with the initial states finished (it was a plain
             KeyboardInterrupt, the points lost).
  twice      a flag of nsmc sweep or nsmc continue given twice (--lyapunov,
             --floquet, -q, --no-plot, --switch-pd) and --basin-pilot twice
             are refused, exit 1, nothing made (they were accepted).
  warnings   a study that returns plain arrays keeps the runtime's warnings
             in nsm.last_warnings(); under warnings.simplefilter("error") a
             warning shown in a study's clean-up no longer replaces the
             SimulationError on its way (it raised the SimulationWarning).
  setcr      a parameter file with CR CR LF line ends is read as with LF; a
             lone CR is refused with FILE:LINE:COLUMN and shown as \\r (it
             was printed raw inside the unit's quotes).
  unsampled  the simulator's --section over 1.5e11 s of a pendulum of
             g = 1e-20 m/s^2 without a trajectory runs, as Python's
             Model.section does, with the same records bit for bit and the
             crossings at the elliptic period's (k + 1/4) T (it was refused,
             "about 1.5e+13 samples"); with --out it is still refused.
  rankpid    sweep_killed_rank's search for its rank 1 finds its own job's,
             not another test's rank 1 running beside it (every case's cache
             is TMP/cache, and the other rank was killed instead).
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import SANITIZED, check, env_for, main, python_script, run  # noqa: E402

NSMC = os.path.abspath(sys.argv[1])
SRC = os.path.abspath(sys.argv[2])
BALL = os.path.abspath(sys.argv[3])
BUILD = os.path.dirname(NSMC)
MODELS = os.path.join(SRC, "models")
FIO = os.path.join(MODELS, "forced_impact_oscillator.nsm")
BALL_NSM = os.path.join(MODELS, "bouncing_ball.nsm")
SLOW = 3 if SANITIZED else 1


def tmpfs(cmd, size):
    """cmd run in a private mount namespace with a tmpfs of `size` at /mnt
    (a real full disk, gone when the command ends); the files left in /mnt
    with their sizes are printed after a marker."""
    script = ("mount -t tmpfs -o size=%s tmpfs /mnt || exit 99; \"$@\"; rc=$?; "
              "echo '--- left'; for f in /mnt/*; do [ -f \"$f\" ] && "
              "printf '%%s %%s %%s\\n' \"$f\" \"$(wc -c < \"$f\")\" "
              "\"$(tail -c 1 \"$f\" | od -An -c | tr -d ' ')\"; "
              "done; exit $rc" % size)
    return ["unshare", "-m", "sh", "-c", script, "sh"] + cmd


# ---- disk -------------------------------------------------------------------

def case_disk(tmp):
    """A CSV output that could not take even its header: removed and named."""
    # a row every 0.1 ms fills the disk before the first impact (t = 0.45
    # s): events.csv never ends a line, whatever the run's speed (a CSV
    # output is also written 0.25 s after its opening)
    p = run(tmp, tmpfs([BALL, "--t-end", "50", "--every", "1e-4", "--out", "/mnt/t.csv",
                        "--events", "/mnt/e.csv"], "64k"), timeout=60 * SLOW)
    check(p.returncode != 99, "a tmpfs can be mounted here (root, unshare)", p)
    left = dict((ln.split(" ")[0], ln.split(" ")[1:]) for ln in
                p.stdout.split("--- left\n", 1)[-1].splitlines() if ln.startswith("/mnt/"))
    print("  64 KiB tmpfs: exit %d, left %s\n  %s" % (p.returncode, left,
                                                   p.stderr.strip().replace("\n", "\n  ")))
    check(p.returncode == 3, "exit 3: an output could not be written", p)
    check("/mnt/e.csv" not in left,
          "events.csv, which could not take even its header, is not left (it was 0 bytes)", p)
    check("cannot write '/mnt/e.csv': No space left on device; removed" in p.stderr,
          "events.csv named with the system's reason and said removed (only t.csv was named)", p)
    check("cannot write '/mnt/t.csv': No space left on device" in p.stderr and
          left.get("/mnt/t.csv", ["0", ""])[1] == "\\n" and int(left["/mnt/t.csv"][0]) > 1000,
          "the trajectory named, and ending with a whole line", p)
    p = run(tmp, tmpfs([BALL, "--t-end", "1", "--out", "/mnt/t.csv", "--events", "/mnt/e.csv"],
                       "1m"), timeout=60 * SLOW)
    check(p.returncode == 0 and "/mnt/e.csv" in p.stdout, "with room: both files written", p)


# ---- place ------------------------------------------------------------------

SHIM = r'''
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <string.h>
/* rename(2) onto a path ending in TARGET fails with EIO: a result file that
 * cannot be placed after others were */
int rename(const char *from, const char *to)
{
    static int (*real)(const char *, const char *);
    size_t a = strlen(to), b = strlen(TARGET);
    if (!real)
        real = (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");
    if (a >= b && !strcmp(to + a - b, TARGET)) {
        errno = EIO;
        return -1;
    }
    return real(from, to);
}
#ifdef NO_LINKS
/* a file system without hard links */
int link(const char *from, const char *to)
{
    (void)from, (void)to;
    errno = EPERM;
    return -1;
}
#endif
'''


def shim(tmp, target, links=True):
    """An LD_PRELOAD library making rename onto */target fail (EIO), and
    link fail too unless links, and the environment that loads it after
    whatever is preloaded already (the sanitizers' runtimes come first)."""
    path = os.path.join(tmp, "shim.c")
    with open(path, "w") as f:
        f.write(SHIM)
    so = os.path.join(tmp, "shim_%s%s.so" % (target.replace(".", "_"), "" if links else "_nl"))
    cc = os.environ.get("CC", "cc").split()
    p = subprocess.run(cc + ["-shared", "-fPIC", "-DTARGET=\"/%s\"" % target, "-o", so, path,
                             "-ldl"] + ([] if links else ["-DNO_LINKS"]),
                       capture_output=True, text=True)
    check(p.returncode == 0, "the rename shim builds", p)
    pre = os.environ.get("LD_PRELOAD", "")
    return {"LD_PRELOAD": (pre + ":" if pre else "") + so}


def files(folder, names):
    """{name: bytes} of the named files in folder (None when absent)."""
    out = {}
    for n in names:
        p = os.path.join(folder, n)
        out[n] = open(p, "rb").read() if os.path.exists(p) else None
    return out


def case_place(tmp):
    """Results placed together or not at all."""
    sweep = ["--section", "impact:stop", "--transient", "5", "--record", "5"]
    p = run(tmp, [NSMC, "sweep", FIO, "--param", "omega=2:3:4"] + sweep + ["--out-dir", "s"],
            timeout=120 * SLOW)
    check(p.returncode == 0, "a first sweep", p)
    names = ["section.csv", "summary.csv"]
    before = files(os.path.join(tmp, "s"), names)
    p = run(tmp, [NSMC, "sweep", FIO, "--param", "omega=2:3:5"] + sweep + ["--out-dir", "s"],
            timeout=120 * SLOW, env=shim(tmp, "summary.csv"))
    after = files(os.path.join(tmp, "s"), names)
    print("  summary.csv's rename refused: exit %d\n  %s" % (p.returncode, p.stderr.strip()
                                                             .replace("\n", "\n  ")))
    check(p.returncode == 1 and "cannot write 's/summary.csv': Input/output error" in p.stderr,
          "exit 1, the failed rename named with its reason", p)
    check(after == before, "section.csv and summary.csv are the first sweep's, byte for byte "
          "(the new section.csv stood beside the old summary.csv)", p)
    check("the section.csv placed before it was put back as it was" in p.stderr and
          "the 5 points of this sweep are kept in s/section.csv.partial" in p.stderr,
          "the message says the earlier files stand and where this sweep's points are", p)
    check(not [f for f in os.listdir(os.path.join(tmp, "s")) if ".tmp" in f],
          "no temporary and no kept link left", p)
    # without hard links the earlier section.csv cannot be kept: said as it is
    p = run(tmp, [NSMC, "sweep", FIO, "--param", "omega=2:3:5"] + sweep + ["--out-dir", "s"],
            timeout=120 * SLOW, env=shim(tmp, "summary.csv", links=False))
    after = files(os.path.join(tmp, "s"), names)
    print("  ... and no hard links: exit %d, %s" % (p.returncode,
                                                    p.stderr.strip().splitlines()[-2:-1]))
    check(p.returncode == 1 and after["summary.csv"] == before["summary.csv"] and
          after["section.csv"] != before["section.csv"] and
          "s/section.csv, already replaced by this study's, could not be put back (Operation "
          "not permitted): it is this study's" in p.stderr,
          "without hard links: the new section.csv named as this study's, the summary the "
          "earlier one's (never said to be put back)", p)
    # a basin study: summary.csv, attractors.csv and basins.csv together
    basin = ["--basin", "M.x=-3:-1:4", "--basin", "M.v=-1:1:4", "--section", "impact:stop",
             "--set", "omega=0.7"]
    p = run(tmp, [NSMC, "sweep", FIO] + basin + ["--out-dir", "b"], timeout=120 * SLOW)
    check(p.returncode == 0, "a first basin study", p)
    names = ["summary.csv", "attractors.csv", "basins.csv"]
    before = files(os.path.join(tmp, "b"), names)
    basin[1] = "M.x=-3:-1:5"
    p = run(tmp, [NSMC, "sweep", FIO] + basin + ["--out-dir", "b"], timeout=120 * SLOW,
            env=shim(tmp, "basins.csv"))
    after = files(os.path.join(tmp, "b"), names)
    print("  basins.csv's rename refused: exit %d, %s" % (p.returncode,
                                                          p.stderr.strip().splitlines()[-2:]))
    check(p.returncode == 1 and after == before and
          "the files placed before it were put back" in p.stderr,
          "the basin study's three files are the first study's, byte for byte (summary.csv "
          "and attractors.csv were placed alone)", p)


# ---- results ----------------------------------------------------------------

def case_results(tmp):
    """Every output named on the results line."""
    p = run(tmp, [NSMC, "run", BALL_NSM, "--out-dir", "r", "--t-end", "1", "-q", "--no-plot",
                  "--", "--out", "z.h5", "--stats", "st.csv"], timeout=120 * SLOW)
    line = [ln for ln in p.stdout.splitlines() if ln.startswith("results:")]
    print("  nsmc run ... -- --out z.h5 --stats st.csv: exit %d, %s" % (p.returncode, line))
    check(p.returncode == 0 and os.path.exists(os.path.join(tmp, "z.h5")) and
          os.path.exists(os.path.join(tmp, "st.csv")), "the run wrote z.h5 and st.csv", p)
    check(line == ["results: r/trajectory.csv, r/events.csv, z.h5, st.csv"],
          "the results line names z.h5 and st.csv (z.h5 was left out)", p)
    p = run(tmp, [NSMC, "run", BALL_NSM, "--out-dir", "r2", "--t-end", "1", "-q", "--no-plot",
                  "--out", "a.h5", "--", "--out", "b.h5"], timeout=60 * SLOW)
    print("  --out a.h5 -- --out b.h5: exit %d, %s" % (p.returncode, p.stderr.strip()[-120:]))
    check(p.returncode == 1 and "option --out is given twice ('a.h5' and 'b.h5')" in p.stderr
          and not os.path.exists(os.path.join(tmp, "a.h5")),
          "an HDF5 --out before and after '--' is an option given twice", p)


# ---- basins -----------------------------------------------------------------

PY_BASINS = r'''
import _thread, sys, threading, time
import nsm
fio = nsm.compile(sys.argv[1])
fio.basins(("M.x", -3, -1, 2), ("M.v", -1, 1, 2), "impact:stop", params={"omega": 0.7})
threading.Timer(2.0, _thread.interrupt_main).start()
t0 = time.monotonic()
try:
    fio.basins(("M.x", -3, -0.01, 300), ("M.v", -3, 3, 300), "impact:stop",
               params={"omega": 0.7}, pilot=0)
    raise AssertionError("the basins ran to their end")
except nsm.Interrupted as e:
    took = time.monotonic() - t0
    rows = e.result
    print("  Ctrl-C after 2 s: %s after %.2f s, %d initial states finished; first %s"
          % (type(e).__name__, took, len(rows), rows[:1]))
    assert took < 2 + 10 * float(sys.argv[2]), "stopped promptly (%.1f s)" % took
    assert rows and all(r["status"] in ("ok", "short", "failed") for r in rows), rows[:3]
    assert len(rows) < 90000, "a partial grid"
    assert all(-3 - 1e-12 <= r["M.x [m]"] <= -0.01 + 1e-12 and
               -3 - 1e-12 <= r["M.v [m/s]"] <= 3 + 1e-12 for r in rows), rows[:3]
    assert "interrupted" in str(e) and e.t is None
print("ok: Ctrl-C during basins raises nsm.Interrupted with the states finished (it was a "
      "plain KeyboardInterrupt)")
'''


def case_basins(tmp):
    python_script(tmp, "basins.py", PY_BASINS, [FIO, str(SLOW)],
                  "python: Ctrl-C during Model.basins keeps the finished states")


# ---- twice ------------------------------------------------------------------

def case_twice(tmp):
    """A flag given twice is refused as an option given twice."""
    sweep = ["--param", "omega=2:3:2", "--section", "impact:stop"]
    basin = ["--basin", "M.x=-3:-1:2", "--basin", "M.v=-1:1:2", "--section", "impact:stop"]
    cont = ["--param", "omega=2.5:3.5", "--max-points", "5"]
    cases = [("sweep", sweep + ["--lyapunov", "--lyapunov"], "option --lyapunov is given twice"),
             ("sweep", sweep + ["--floquet", "--floquet"], "option --floquet is given twice"),
             ("sweep", basin + ["--basin-pilot", "3", "--basin-pilot", "4"],
              "option --basin-pilot is given twice"),
             ("continue", cont + ["-q", "-q"], "option -q is given twice"),
             ("continue", cont + ["--no-plot", "--no-plot"], "option --no-plot is given twice"),
             ("continue", cont + ["--switch-pd", "--switch-pd"],
              "option --switch-pd is given twice")]
    for k, (cmd, args, said) in enumerate(cases):
        out = "o%d" % k
        p = run(tmp, [NSMC, cmd, FIO] + args + ["--out-dir", out], timeout=120 * SLOW)
        print("  nsmc %s %s: exit %d, %s" % (cmd, " ".join(args[-2:]), p.returncode,
                                            p.stderr.strip().splitlines()[-1:]))
        check(p.returncode == 1 and said in p.stderr and
              not os.path.exists(os.path.join(tmp, out)),
              "nsmc %s: %s, exit 1, nothing made (it was accepted)" % (cmd, said), p)


# ---- warnings ---------------------------------------------------------------

PY_WARNINGS = r'''
import sys, warnings
import nsm
zsrc = open(sys.argv[1]).read()
for old, new in (("gap floor: B.x >= 0", "param H = 0 m\ngap floor: B.x - H >= 0"),
                 ("init B.x = 1 m", "init B.x = H + 1 m")):
    assert old in zsrc, old
    zsrc = zsrc.replace(old, new)
z = nsm.compile_source(zsrc)        # the floor at H = 1e9 m: held only to 0.2 m, a warning
far = {"H": 1e9}
with warnings.catch_warnings(record=True) as seen:
    warnings.simplefilter("always")
    rec = z.section("impact:floor", t_end=3, params=far, method="exact")
    kept = nsm.last_warnings()
    print("  section: %d records, last_warnings() = %s" % (len(rec), [w[:60] for w in kept]))
    assert len(kept) == 1 and "located and held only to 0.2 m" in kept[0], kept
    assert [str(w.message) for w in seen] == ["bouncing_ball: " + kept[0]], "shown as well"
    lam = z.lyapunov(2, 0.1, transient=2, params=far, method="exact")
    assert len(nsm.last_warnings()) == 1, "the lyapunov study's own"
    z.section("impact:floor", t_end=3, params={"H": 0}, method="exact")
    assert nsm.last_warnings() == [], "a new call, no warning: %s" % nsm.last_warnings()
    r = z.run(t_end=3, params=far, method="exact")
    assert nsm.last_warnings() == r.warnings and len(r.warnings) == 1, "a run's, as its own"
    try:
        z.floquet(1.0, transient=2, params=far, method="exact")
        raise AssertionError("floquet found an orbit of a ball at rest")
    except nsm.SimulationError as e:
        print("  floquet: %s: %s; last_warnings() has %d" % (type(e).__name__, str(e)[:60],
                                                             len(nsm.last_warnings())))
        assert len(nsm.last_warnings()) == 1, "a failed study's warnings kept too"
with warnings.catch_warnings():
    warnings.simplefilter("error")
    try:
        z.floquet(1.0, transient=2, params=far, method="exact")
        raise AssertionError("floquet found an orbit of a ball at rest")
    except nsm.SimulationError as e:
        notes = getattr(e, "__notes__", [])
        print("  floquet under simplefilter('error'): %s, notes %s" % (type(e).__name__,
                                                                      [n[:60] for n in notes]))
        assert any("0.2 m" in n for n in notes), "the warning kept in the error's notes"
    except nsm.SimulationWarning as w:
        raise AssertionError("the clean-up's warning replaced the SimulationError: %s" % w)
    try:
        z.section("impact:floor", t_end=3, params=far, method="exact")
        raise AssertionError("the warning as an error was not raised")
    except nsm.SimulationWarning:
        pass    # no exception on its way: the filter's error, as asked
print("ok: studies keep their warnings in nsm.last_warnings(); a clean-up's warning "
      "never replaces the exception on its way")
'''


def case_warnings(tmp):
    python_script(tmp, "warn.py", PY_WARNINGS, [BALL_NSM],
                  "python: studies' warnings kept, a clean-up's warning never replacing")


# ---- setcr ------------------------------------------------------------------

def case_setcr(tmp):
    """CR CR LF is a line end; a lone CR is refused, shown as \\r."""
    with open(os.path.join(tmp, "lf.txt"), "wb") as f:
        f.write(b"e = 0.5\n")
    with open(os.path.join(tmp, "crcr.txt"), "wb") as f:
        f.write(b"# converted twice\r\r\ne = 0.5\r\r\n")
    with open(os.path.join(tmp, "cr.txt"), "wb") as f:
        f.write(b"e = 0.5\rH = 2\r")
    a = run(tmp, [BALL, "--set-file", "lf.txt", "--t-end", "3", "--events", "a.csv"])
    b = run(tmp, [BALL, "--set-file", "crcr.txt", "--t-end", "3", "--events", "b.csv"])
    print("  CR CR LF: exit %d" % b.returncode)
    check(a.returncode == 0 and b.returncode == 0 and
          open(os.path.join(tmp, "a.csv")).read() == open(os.path.join(tmp, "b.csv")).read(),
          "CR CR LF read as LF: the same events as e = 0.5 with LF (it was refused)", b)
    p = run(tmp, [BALL, "--set-file", "cr.txt", "--t-end", "3", "--events", "c.csv"])
    print("  lone CR: exit %d, %r" % (p.returncode, p.stderr.strip()[:120]))
    check(p.returncode == 1 and "cr.txt:1:8: a carriage return (\\r) inside the line" in p.stderr
          and "\r" not in p.stderr and not os.path.exists(os.path.join(tmp, "c.csv")),
          "a lone CR refused at line 1, column 8, shown as \\r, never raw", p)
    p = run(tmp, [NSMC, "run", BALL_NSM, "--set-file", "cr.txt", "--out-dir", "r", "-q",
                  "--no-plot"], timeout=120 * SLOW)
    check(p.returncode == 1 and "cr.txt:1:8:" in p.stderr and "\r" not in p.stderr,
          "nsmc run --set-file: the same refusal", p)


# ---- unsampled --------------------------------------------------------------

PY_UNSAMPLED = r'''
import sys
import numpy as np
import nsm
rec = nsm.compile(sys.argv[1]).section("plane:P.phi.x:down", t_end=1.5e11,
                                       params={"g": 1e-20}, method="adaptive")
np.savetxt(sys.argv[2], rec[:, 0], fmt="%.17g")
'''


def case_unsampled(tmp):
    """A section whose samples go nowhere steps past the model's period."""
    # the pendulum written by its torque and its elliptic period
    from thirteenth_pass_core_test import PEND, pendulum_period
    model = os.path.join(tmp, "pend.nsm")
    with open(model, "w") as f:
        f.write(PEND)
    p = run(tmp, [NSMC, model, "-o", "pend.c"])
    check(p.returncode == 0, "the pendulum's simulator generated", p)
    libs = subprocess.run(["pkg-config", "--libs", "hdf5-serial"], capture_output=True,
                          text=True).stdout.split()
    cc = os.environ.get("CC", "cc").split()
    p = subprocess.run(cc + ["-O1", "pend.c", "-I" + os.path.join(SRC, "runtime", "include"),
                             os.path.join(BUILD, "libnsmcli.a"), os.path.join(BUILD, "libnsmrt.a")]
                       + libs + ["-lm", "-o", "pend"] + (["-fsanitize=address,undefined"]
                                                        if SANITIZED else []),
                       cwd=tmp, capture_output=True, text=True)
    check(p.returncode == 0, "the pendulum's simulator built", p)
    sec = ["--set", "g=1e-20", "--t-end", "1.5e11", "--method", "adaptive",
           "--section", "plane:P.phi.x:down", "--section-out", "sec.csv"]
    p = run(tmp, ["./pend"] + sec, timeout=20 * SLOW)
    print("  --section over 1.5e11 s, no --out: exit %d, %s" % (p.returncode,
                                                               p.stderr.strip()[-110:]))
    check(p.returncode == 0, "the section runs (it was refused: about 1.5e+13 samples)", p)
    t = [float(ln.split(",")[0]) for ln in open(os.path.join(tmp, "sec.csv")).read()
         .splitlines()[1:]]
    T = pendulum_period(1.0, g=1e-20)
    want = [(k + 0.25) * T for k in range(len(t))]
    worst = max(abs(a - b) / T for a, b in zip(t, want)) if t else 1
    print("  %d crossings, at (k + 1/4) T within %.2g T" % (len(t), worst))
    check(len(t) == 2 and worst < 1e-8, "down-crossings of phi = 0 at (k + 1/4) T, T = 4 sqrt(l/g) "
          "K(sin^2(phi0/2)), within 1e-8 T")
    python_script(tmp, "pend.py", PY_UNSAMPLED, [model, "py.txt"], "Model.section of the same")
    py = [float(x) for x in open(os.path.join(tmp, "py.txt")).read().split()]
    check(py == t, "the simulator's and Model.section's crossings agree bit for bit "
          "(%s and %s)" % (t, py))
    p = run(tmp, ["./pend"] + sec + ["--out", "x.csv"], timeout=20 * SLOW)
    check(p.returncode == 1 and "samples" in p.stderr and not os.path.exists(
        os.path.join(tmp, "x.csv")),
          "with --out the samples are asked for: still refused, nothing written", p)


# ---- rankpid ----------------------------------------------------------------

def case_rankpid(tmp):
    """The killed-rank case's search finds its own job's rank only."""
    import sweep_reliability_test as srt
    other = tempfile.mkdtemp(prefix="nsm-left14-other-")
    env = dict(os.environ, OMPI_COMM_WORLD_RANK="1")
    procs = []
    try:
        # another test's rank 1 first (the lower PID, met first in /proc), then this case's
        for cache in (os.path.join(other, "cache"), env_for(tmp)["XDG_CACHE_HOME"]):
            procs.append(subprocess.Popen(["sleep", "60"], env=dict(env, XDG_CACHE_HOME=cache)))
        found = srt.rank_pid(1, tmp)
        print("  another test's rank 1: pid %d; this case's: pid %d; found %s"
              % (procs[0].pid, procs[1].pid, found))
        check(found == procs[1].pid, "the search finds this case's rank 1, not the other "
              "test's (any cache ending in /cache was taken)")
    finally:
        for p in procs:
            p.kill()
            p.wait()
        shutil.rmtree(other)


if __name__ == "__main__":
    sys.exit(main({"disk": case_disk, "place": case_place, "results": case_results,
                   "basins": case_basins, "twice": case_twice, "warnings": case_warnings,
                   "setcr": case_setcr, "unsampled": case_unsampled, "rankpid": case_rankpid},
                  "nsm-left14prog-", case_arg=4))
