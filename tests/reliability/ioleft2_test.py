#!/usr/bin/env python3
"""What the tenth hostile passes on the I/O surfaces and on the Python
package left as found (issue #29, docs/status.md), each a check that failed
before its fix.

    tests/reliability/ioleft2_test.py NSMC FIO_SIM SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  sweepprev  a folder standing as section.csv.partial.prev beside an earlier
             stopped sweep's partial files: the sweep is refused before the
             grid, both partial files as they were (it kept the summary's
             rows as .prev and replaced the section's, whose records they
             name).
  contend    a continuation run to its end beside an earlier stop's
             branch.csv.partial: the earlier points kept and said (they
             were left beside the new branch.csv without a word).
  contkill   a continuation killed with SIGKILL: the points it computed are
             in branch.csv.partial, whole lines (none were kept: they were
             written only when it stopped or ended).
  plottmp    figures' temporaries NAME.tmpPID of a process that has ended
             (a kill while gnuplot drew) removed by the next run drawing
             into the folder, those of a live process left (they stayed for
             ever).
  pylock     Python: a compile waiting for a cache entry's lock held by
             another process says once, after about a second, which
             process holds it (it waited without a word); Ctrl-C still ends
             the wait.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import os
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import (SANITIZED, Failure, check, dead_pid, env_for, main,  # noqa: E402
                     python_script, run, whole_figure, whole_lines)

NSMC = os.path.abspath(sys.argv[1])
FIO_SIM = os.path.abspath(sys.argv[2])
SRC = os.path.abspath(sys.argv[3])
MODELS = os.path.join(SRC, "models")
FIO = os.path.join(MODELS, "forced_impact_oscillator.nsm")
SLOW = 3 if SANITIZED else 1


# ---- sweepprev --------------------------------------------------------------

def case_sweepprev(tmp):
    """A folder as section.csv.partial.prev beside a stopped sweep's partials."""
    d = os.path.join(tmp, "d")
    os.mkdir(d)
    section = "omega,point,x\n1,0,0.25\n1,1,0.5\n"
    summary = "omega,points\n1,2\n"
    with open(os.path.join(d, "section.csv.partial"), "w") as f:
        f.write(section)
    with open(os.path.join(d, "summary.csv.partial"), "w") as f:
        f.write(summary)
    os.mkdir(os.path.join(d, "section.csv.partial.prev"))
    p = run(tmp, [NSMC, "sweep", FIO, "--section", "impact:stop", "--transient", "2",
                  "--record", "2", "--param", "omega=1:2:3", "--out-dir", "d"],
            timeout=300 * SLOW)
    print("  exit %d: %s" % (p.returncode, p.stderr.strip().splitlines()[-1:]))
    check(p.returncode == 1 and "section.csv.partial.prev' is a folder" in p.stderr,
          "refused before the grid, naming the folder in the way", p)
    check(open(os.path.join(d, "section.csv.partial")).read() == section and
          open(os.path.join(d, "summary.csv.partial")).read() == summary and
          not os.path.exists(os.path.join(d, "summary.csv.partial.prev")) and
          not os.path.exists(os.path.join(d, "section.csv")),
          "both partial files as they were, nothing kept apart from the other, no result", p)
    os.rmdir(os.path.join(d, "section.csv.partial.prev"))
    p = run(tmp, [NSMC, "sweep", FIO, "--section", "impact:stop", "--transient", "2",
                  "--record", "2", "--param", "omega=1:2:3", "--out-dir", "d"],
            timeout=300 * SLOW)
    check(p.returncode == 0 and
          open(os.path.join(d, "section.csv.partial.prev")).read() == section and
          open(os.path.join(d, "summary.csv.partial.prev")).read() == summary,
          "the folder removed: the sweep runs and keeps both partial files together", p)
    print("ok: refused with both kept, then both kept as .prev")


# ---- contend, contkill ------------------------------------------------------

CONT = [NSMC, "continue", FIO, "--param", "omega=2.5:2.6", "--no-plot", "-q"]


def case_contend(tmp):
    """A continuation run to its end beside an earlier stop's partial file."""
    d = os.path.join(tmp, "c")
    os.mkdir(d)
    earlier = "omega,point\n2.5,regular\n"
    with open(os.path.join(d, "branch.csv.partial"), "w") as f:
        f.write(earlier)
    p = run(tmp, CONT + ["--out-dir", "c", "--max-points", "3"], timeout=300 * SLOW)
    print("  exit %d: %s" % (p.returncode, p.stderr.strip()))
    check(p.returncode == 0 and whole_lines(os.path.join(d, "branch.csv")) >= 1,
          "the continuation runs to its end", p)
    prev = os.path.join(d, "branch.csv.partial.prev")
    left = [f for f in (os.path.join(d, "branch.csv.partial"), prev) if os.path.exists(f)]
    check(left and all(open(f).read() == earlier for f in left) and
          all(os.path.relpath(f, tmp) in p.stderr for f in left),
          "the earlier stop's points kept and said, none of this run's left beside them "
          "(left: %r)" % left, p)
    print("ok: the earlier points kept and said:", [os.path.basename(f) for f in left])


def case_contkill(tmp):
    """SIGKILL to a continuation: the points so far in branch.csv.partial."""
    p = run(tmp, CONT + ["--out-dir", "warm", "--max-points", "2"], timeout=300 * SLOW)
    check(p.returncode == 0, "the continuation program compiled", p)
    part = os.path.join(tmp, "c", "branch.csv.partial")
    cmd = CONT[:3] + ["--param", "omega=2.5:3.5", "--out-dir", "c", "--no-plot", "-q",
                      "--ds", "1e-5", "--ds-max", "1e-5", "--max-points", "1000000"]
    proc = subprocess.Popen(cmd, cwd=tmp, env=env_for(tmp), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    time.sleep(3 * SLOW)
    proc.kill()
    proc.wait()
    check(os.path.exists(part), "the killed continuation's points in branch.csv.partial (it "
          "kept none)")
    rows = whole_lines(part)
    print("  killed after %d s: %d points in branch.csv.partial" % (3 * SLOW, rows))
    check(rows >= 1, "at least one point kept after %d s" % (3 * SLOW))
    check(not os.path.exists(os.path.join(tmp, "c", "branch.csv")),
          "no complete result claimed")
    print("ok: %d whole rows kept" % rows)


# ---- plottmp ----------------------------------------------------------------

def case_plottmp(tmp):
    """Figures' temporaries of an ended process removed, of a live one kept."""
    if not shutil.which("gnuplot"):
        raise Failure("gnuplot is needed by this case")
    d = os.path.join(tmp, "d")
    os.mkdir(d)
    gone, live = dead_pid(), os.getpid()
    planted = {"plot.png.tmp%d" % gone: False, "plot.svg.tmp%d" % gone: False,
               "phase.png.tmp%d" % gone: False, "plot.png.tmp%d" % live: True,
               "plot.png.tmp%dx" % gone: True, "notes.tmp%d" % gone: True}
    for name in planted:
        with open(os.path.join(d, name), "w") as f:
            f.write("half a figure")
    p = run(tmp, [FIO_SIM, "--t-end", "20", "--plot", "d"], timeout=120 * SLOW)
    check(p.returncode == 0 and whole_figure(os.path.join(d, "plot.png")),
          "the next run draws its figures", p)
    for name, stays in planted.items():
        there = os.path.exists(os.path.join(d, name))
        print("  %-24s %s" % (name, "left" if there else "removed"))
        check(there == stays, "%s: %s" % (name, "left alone (not an ended process's figure "
                                          "temporary)" if stays else
                                          "removed (its process has ended)"))
    print("ok: the ended process's temporaries removed, the others left")


# ---- pylock -----------------------------------------------------------------

PYLOCK = r'''
import contextlib, fcntl, glob, io, os, signal, subprocess, sys, threading, time
import nsm
M = sys.argv[1] + "/"
nsm.compile(M + "two_mass.nsm")
lock = glob.glob(os.path.join(os.environ["XDG_CACHE_HOME"], "nsm", "py-two_mass-*", ".lock"))[0]
# another compiling process: it holds the lock and wrote its id into it, as nsm does
holder = subprocess.Popen([sys.executable, "-c", "import fcntl, os, sys, time; "
                           "f = open(sys.argv[1], 'a'); fcntl.flock(f, fcntl.LOCK_EX); "
                           "f.truncate(0); f.write('%d\\n' % os.getpid()); f.flush(); "
                           "print('held', flush=True); time.sleep(60)", lock],
                          stdout=subprocess.PIPE, text=True)
err = io.StringIO()
try:
    assert holder.stdout.readline().strip() == "held"
    threading.Timer(2.5, os.kill, (os.getpid(), signal.SIGINT)).start()
    t0 = time.time()
    with contextlib.redirect_stderr(err):
        try:
            nsm.compile(M + "two_mass.nsm")
            raise AssertionError("compiled past a held lock")
        except KeyboardInterrupt:
            waited = time.time() - t0
finally:
    holder.kill()
    holder.wait()
said = err.getvalue()
print("waited %.1f s, said: %r" % (waited, said))
assert waited < 10, waited
assert said.count("process %d" % holder.pid) == 1, "the holder named once: %r" % said
assert "lock" in said, said
assert len(nsm.compile(M + "two_mass.nsm").run(t_end=1).t) == 101
print("ok: the holder named once, Ctrl-C ends the wait, the entry whole")
'''


def case_pylock(tmp):
    python_script(tmp, "ioleft2_lock.py", PYLOCK, [MODELS],
                  "python: a wait for another process's cache lock says who holds it")


if __name__ == "__main__":
    sys.exit(main({"sweepprev": case_sweepprev, "contend": case_contend,
                   "contkill": case_contkill, "plottmp": case_plottmp, "pylock": case_pylock},
                  "nsm-ioleft2-", case_arg=4))
