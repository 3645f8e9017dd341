#!/usr/bin/env python3
"""The twenty-sixth hostile pass over the nsmc programs (issue #29,
docs/fuzzing.md): results replaced under their names while a run ran,
sweep and basin grids finer than 15 digits, the C compiler named by CC,
the stale animation temporaries, one-point basin axes, cache links,
output folders and signals.

    tests/reliability/twentysixth_pass_cli_test.py NSMC SIM SOURCE_DIR CASE

SIM is the bouncing ball's simulator.
Cases (each under 20 s in the normal build):
  findings_replaced  `mv other.csv D/trajectory.csv` (or D/events.csv)
             while `nsmc run` ran: the other file was summarised as the
             run ("samples: 1", "energy balance error: 0"), exit 0, and an
             earlier run's figures left; a simulator's `--plot P` with
             P/events.csv so replaced drew the figures from the other
             file, exit 0.  Now the simulator reports the name that no
             longer gives the file it wrote: "... was replaced by another
             file while the simulator ran", nothing summarised or drawn,
             the earlier figures removed, exit 1.
  findings_finegrid  `nsmc sweep --param e=0.8:0.8000000000000003:3` swept
             0.8 three times (each grid value rounded to 15 digits), its
             STOP never run, exit 0; a basin's M.x=-1:-1.0000000000000004:2
             likewise ran one column twice.  Now a value is rounded to 15
             digits only when that moves it by under a millionth of the
             step; a grid whose neighbours are one double is refused.
             F=-0.1:0.2:4 swept 1.38777878078145e-17 where the grid has 0,
             and -0.99999999:1.00000001:3 1.00000000502476e-08 for 1e-08
             (the sum's rounding, of the ends' size); a point is now taken
             to 15 digits of the ends first (0, 1e-08).
  findings_stale  names that only look like a killed run's temporary, in
             the folder of a GIF or of --plot's figures: `.anim-0123.gif`
             (a leading 0), `.anim-2147483648.gif` (beyond any process
             id), a link named `.anim-PID.gif` (the link removed), another
             user's file, `plot.png.tmp0123`: all removed by the next
             drawing as stale temporaries (silent).  Now only a regular
             file of ours whose name holds a process id as a program
             writes its own, of a process that has ended, is removed.
  findings_ccprogram  CC making a script, or a program of its own, that
             exits 0 without doing anything: cached, run, and said to have
             had its trajectory and events "removed or renamed while the
             simulator ran" (a false cause), exit 1, at every run.  Now the
             simulator reports it opened its results; a program that exits
             0 without that report is said not to be a simulator made from
             the generated C, naming CC, exit 1.  CC='cc -shared -fPIC
             -Wl,-e,main' (a library with an entry point) was cached and
             died of SIGSEGV, said as nsm's "internal error", exit 2, at
             every run; a program from CC that dies of a signal before it
             opens its results is now said to be CC's, exit 1.
  findings_devstdout  a simulator's `--out /dev/stdout > f.csv` (or
             /proc/self/fd/1, or the very file stdout goes to): the event
             table, written to stdout through another description, wrote
             over the CSV's first rows (a file beginning with the table
             and a broken row, exit 0, silent); `--summary` appended its
             audit.  Now an output naming stdout's file counts as "-":
             no table, the audit on stderr.
  kept_cc    CC='cc -Wl,-e,0', 'cc -static-pie', a missing compiler
             (refused naming CC, no folder left); 'cc -O0', a -o of its own
             (run whole); CFLAGS -Werror -Wconversion (compiles) (passed:
             kept as a regression check).
  kept_cache a cache folder that is a link of ours (used), an entry's
             simulator replaced by a link (damaged, rebuilt, never
             followed), another entry's checksum (rebuilt), XDG_CACHE_HOME
             a file or a FIFO (refused) (passed).
  kept_setfile  parameter files with CRLF, a BOM, no final newline, a
             comment, a unit (taken); a NUL, a name twice, a hex number,
             an underflow, a wrong unit, an unknown name, /dev/null, a
             folder, "-" (refused) (passed).
  kept_signals  SIGTERM/SIGINT/SIGHUP at random moments of `nsmc continue`
             and `nsmc sweep` over earlier results: exit 0, 128 + N or the
             signal, whole lines, whole figures, no temporary (passed).
  kept_mpi   `mpirun -np 2 nsmc sweep`: a fine grid over two ranks; a rank
             killed (SIGKILL, SIGTERM) at a random moment: nonzero exit,
             whole lines, the next sweep whole with no lock left (passed).
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import os
import random
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import (SANITIZED, check, env_for, has_bytes, main, stop_after,  # noqa: E402
                     wait_until, whole_figure, whole_lines)

NSMC = os.path.abspath(sys.argv[1])
SIM = os.path.abspath(sys.argv[2])
SRC = os.path.abspath(sys.argv[3])
SLOW = 4 if SANITIZED else 1
BALL = os.path.join(SRC, "models", "bouncing_ball.nsm")
FIO = os.path.join(SRC, "models", "forced_impact_oscillator.nsm")
FIGURES = ("plot.png", "plot.svg", "plot.gp", "plot.log")
OTHER = "t [s],B.x [m]\n0,1\n"


def nsmc(tmp, args, env=None, timeout=120):
    """Runs nsmc with args in tmp (its own cache, env's variables added);
    the CompletedProcess, printed with its outcome."""
    full = env_for(tmp)
    full.update(env or {})
    p = subprocess.run([NSMC] + args, cwd=tmp, env=full, capture_output=True, text=True,
                       errors="replace", timeout=timeout * SLOW)
    last = p.stderr.strip().splitlines()[-1][:150] if p.stderr.strip() else ""
    print("  %snsmc %s -> %d  %s" % ("".join("%s=%r " % kv for kv in (env or {}).items()),
                                    " ".join(repr(a) if " " in a or "\n" in a else a
                                             for a in args), p.returncode, last))
    return p


def names(folder):
    """The sorted names in folder, or None when it is not there."""
    return sorted(os.listdir(folder)) if os.path.isdir(folder) else None


def replace_with_other(tmp, path):
    """Moves a small CSV of another run over path (rename: a new file)."""
    other = os.path.join(tmp, "other.csv")
    with open(other, "w") as f:
        f.write(OTHER)
    os.rename(other, path)


# ---- findings_replaced ------------------------------------------------------

def case_replaced(tmp):
    """A result replaced under its name mid-run: said, nothing summarised."""
    d = os.path.join(tmp, "D")
    for name in ("trajectory.csv", "events.csv"):
        p = nsmc(tmp, ["run", BALL, "--out-dir", "D", "-q", "--", "--t-end", "20"])
        check(p.returncode == 0 and all(os.path.isfile(os.path.join(d, f)) for f in FIGURES),
              "an earlier run's figures in D")
        pr = subprocess.Popen([NSMC, "run", BALL, "--out-dir", "D", "--", "--t-end", "400",
                               "--dt", "1e-4", "--every", "1"], cwd=tmp, env=env_for(tmp),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              errors="replace")
        ok = wait_until(pr, lambda: os.path.exists(os.path.join(d, ".nsm-run.lock")) and
                        has_bytes(os.path.join(d, "trajectory.csv"))() and
                        os.path.getmtime(os.path.join(d, "trajectory.csv")) >
                        os.path.getmtime(os.path.join(d, "plot.png")), 30 * SLOW)
        check(ok and pr.poll() is None, "nsmc run: running when %s is replaced" % name)
        replace_with_other(tmp, os.path.join(d, name))
        out, err = pr.communicate(timeout=180 * SLOW)
        print("  nsmc run --out-dir D, mv other.csv D/%s mid-run -> %d  %s; D: %s"
              % (name, pr.returncode, err.strip().splitlines()[-1][:160], names(d)))
        check(pr.returncode == 1, "%s replaced: exit 1 (was 0)" % name)
        check("D/%s was replaced by another file while the simulator ran" % name in err,
              "%s replaced: said, naming it" % name)
        check("samples:" not in out and "energy balance" not in out,
              "%s replaced: nothing summarised (the other file was)" % name)
        check(not any(os.path.exists(os.path.join(d, f)) for f in FIGURES),
              "%s replaced: the earlier figures removed, none drawn" % name)
        check(open(os.path.join(d, name)).read() == OTHER, "the other file left as it is")
    # the simulator's own --plot
    p3 = os.path.join(tmp, "P")
    pr = subprocess.Popen([SIM, "--t-end", "400", "--dt", "1e-4", "--every", "1", "--plot",
                           "P"], cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True, errors="replace")
    ok = wait_until(pr, has_bytes(os.path.join(p3, "events.csv")), 30 * SLOW)
    check(ok and pr.poll() is None, "sim --plot P: running when its event log is replaced")
    replace_with_other(tmp, os.path.join(p3, "events.csv"))
    err = pr.communicate(timeout=180 * SLOW)[1]
    print("  sim --plot P, mv other.csv P/events.csv mid-run -> %d  %s; P: %s"
          % (pr.returncode, err.strip().splitlines()[0][:160], names(p3)))
    check(pr.returncode == 1 and "no plot: 'P/events.csv' was replaced by another file" in err,
          "sim --plot: the event log replaced, no plot, said, exit 1 (was 0, drawn)")
    check(not os.path.exists(os.path.join(p3, "plot.png")), "no figure of the other file")
    # a result not replaced (rewritten in place, or a hard link made): summarised
    p = nsmc(tmp, ["run", BALL, "--out-dir", "D", "-q", "--", "--t-end", "20"])
    check(p.returncode == 0, "a run left alone: exit 0", p)


# ---- findings_finegrid ------------------------------------------------------

def summary_values(path):
    """The first column of a sweep's summary.csv, as floats."""
    rows = open(path).read().splitlines()[1:]
    return [float(r.split(",")[0]) for r in rows]


def case_finegrid(tmp):
    """Grids finer than 15 digits: every value swept, or refused."""
    sweep = ["--section", "period:2*pi/omega", "--transient", "10", "--record", "3"]
    lo, hi = 0.8, float("0.8000000000000003")
    p = nsmc(tmp, ["sweep", FIO, "--param", "e=0.8:0.8000000000000003:3", "--out-dir", "W"]
             + sweep)
    check(p.returncode == 0, "e=0.8:0.8000000000000003:3: exit 0", p)
    vals = summary_values(os.path.join(tmp, "W", "summary.csv"))
    print("    swept: %r" % vals)
    check(len(set(vals)) == 3 and vals[0] == lo and vals[-1] == hi,
          "three different values swept, from START to STOP exactly (was 0.8 thrice)")
    check(vals[0] < vals[1] < vals[2], "in order")
    # a grid whose neighbours are one double: refused, nothing run
    p = nsmc(tmp, ["sweep", FIO, "--param", "e=0.8:0.8000000000000001:5", "--out-dir", "W2"]
             + sweep)
    check(p.returncode == 1 and "closer than a double can tell apart" in p.stderr and
          not os.path.exists(os.path.join(tmp, "W2")), "five points within one ulp: refused", p)
    # usual grids keep their 15-digit values
    for spec, want in (("e=0.1:0.3:3", [0.1, 0.2, 0.3]), ("e=0.5:0.9:5", [0.5, 0.6, 0.7, 0.8, 0.9]),
                       ("e=0.8:0.8:2", [0.8, 0.8])):
        p = nsmc(tmp, ["sweep", FIO, "--param", spec, "--out-dir", "W3"] + sweep)
        vals = summary_values(os.path.join(tmp, "W3", "summary.csv"))
        check(p.returncode == 0 and vals == want, "%s: the values %r" % (spec, want), p)
    # a grid through 0: the point is 0, not the rounding of the sum
    for spec, want in (("F=-0.1:0.2:4", [-0.1, 0.0, 0.1, 0.2]),
                       ("F=-0.3:0.3:3", [-0.3, 0.0, 0.3]), ("F=0.2:-0.1:4", [0.2, 0.1, 0.0, -0.1]),
                       ("F=-0.99999999:1.00000001:3", [-0.99999999, 1e-08, 1.00000001])):
        p = nsmc(tmp, ["sweep", FIO, "--param", spec, "--out-dir", "W4"] + sweep)
        vals = summary_values(os.path.join(tmp, "W4", "summary.csv"))
        print("    swept: %r" % vals)
        check("\n-0," not in open(os.path.join(tmp, "W4", "summary.csv")).read(),
              "%s: 0 written as 0, not -0" % spec)
        check(p.returncode == 0 and vals == want, "%s: the values %r (-0.1:0.2:4 swept "
              "1.38777878078145e-17 for 0)" % (spec, want), p)
    # a basin axis one double apart: two columns
    p = nsmc(tmp, ["sweep", FIO, "--basin", "M.x=-1:-1.0000000000000004:2", "--basin",
                   "M.v=0:1:2", "--section", "period:2*pi/omega", "--out-dir", "B"])
    check(p.returncode == 0, "basin M.x=-1:-1.0000000000000004:2: exit 0", p)
    xs = sorted(set(summary_values(os.path.join(tmp, "B", "basins.csv"))))
    print("    basin columns: %r" % xs)
    check(xs == [float("-1.0000000000000004"), -1.0], "both columns run (was -1 twice)")


# ---- findings_stale ---------------------------------------------------------

def dead_pid():
    """The id of a process that has ended."""
    pr = subprocess.Popen(["true"])
    pr.wait()
    return pr.pid


def case_stale(tmp):
    """Only a killed run's own temporaries are removed by the next drawing."""
    a = os.path.join(tmp, "A")
    os.mkdir(a)
    live = subprocess.Popen(["sleep", "60"])
    d1, d2, d3 = dead_pid(), dead_pid(), dead_pid()
    gone = [".anim-%d.gif" % d1]                       # a killed run's: removed
    kept = [".anim-%d.gif" % live.pid,                 # a live process's
            ".anim-0%d.gif" % d1,                      # no program writes a leading 0
            ".anim-2147483648.gif",                    # beyond any process id
            ".anim-%dx.gif" % d1, "x.anim-%d.gif" % d1, ".anim-%d.gif.gif" % d1]
    for n in gone + kept:
        with open(os.path.join(a, n), "w") as f:
            f.write("mine\n")
    with open(os.path.join(tmp, "target"), "w") as f:
        f.write("target\n")
    os.symlink(os.path.join(tmp, "target"), os.path.join(a, ".anim-%d.gif" % d2))
    kept.append(".anim-%d.gif" % d2)                   # a link, not a temporary
    os.mkdir(os.path.join(a, ".anim-%d.gif" % d3))
    kept.append(".anim-%d.gif" % d3)                   # a folder
    if os.geteuid() == 0:                              # another user's file
        d4 = dead_pid()
        other = os.path.join(a, ".anim-%d.gif" % d4)
        with open(other, "w") as f:
            f.write("theirs\n")
        os.chown(other, 4242, 4242)
        kept.append(".anim-%d.gif" % d4)
    try:
        p = subprocess.run([SIM, "--t-end", "2", "--animate", "A/x.gif", "--frames", "5",
                            "--out", "/dev/null", "--events", "/dev/null"], cwd=tmp,
                           capture_output=True, text=True, errors="replace", timeout=60 * SLOW)
    finally:
        live.kill()
        live.wait()
    left = names(a)
    print("  sim --animate A/x.gif over %s -> %d; A: %s" % (gone + kept, p.returncode, left))
    check(p.returncode == 0 and "x.gif" in left, "the animation drawn", p)
    check(all(n not in left for n in gone), "a killed run's .anim-PID.gif removed")
    for n in kept:
        check(n in left, "%s left alone" % n)
    check(open(os.path.join(tmp, "target")).read() == "target\n", "the link's target untouched")
    # the figures' NAME.tmpPID alike
    p3 = os.path.join(tmp, "P")
    os.mkdir(p3)
    gone, kept = ["plot.png.tmp%d" % d1], ["plot.png.tmp0%d" % d1, "plot.svg.tmp%d" % d2]
    for n in gone + kept[:1]:
        with open(os.path.join(p3, n), "w") as f:
            f.write("mine\n")
    os.symlink(os.path.join(tmp, "target"), os.path.join(p3, kept[1]))
    p = subprocess.run([SIM, "--t-end", "2", "--plot", "P"], cwd=tmp, capture_output=True,
                       text=True, errors="replace", timeout=60 * SLOW)
    left = names(p3)
    print("  sim --plot P over %s -> %d; P: %s" % (gone + kept, p.returncode, left))
    check(p.returncode == 0 and "plot.png" in left, "the figures drawn", p)
    check(gone[0] not in left and all(n in left for n in kept),
          "a killed run's plot.png.tmpPID removed, a leading 0 and a link left")


# ---- findings_ccprogram -----------------------------------------------------

CC_SCRIPT = """#!/bin/sh
# a "compiler" writing a script that exits 0 where the program was asked for
while [ $# -gt 0 ]; do case "$1" in -o) out="$2"; shift;; esac; shift; done
printf '#!/bin/sh\\nexit 0\\n' > "$out" && chmod 700 "$out"
"""
CC_NOTHING = """#!/bin/sh
# a "compiler" linking a program of its own that does nothing
while [ $# -gt 0 ]; do case "$1" in -o) out="$2"; shift;; esac; shift; done
printf 'int main(void) { return 0; }\\n' > "$out.c" && cc -o "$out" "$out.c"; rc=$?
rm -f "$out.c"; exit $rc
"""


def case_ccprogram(tmp):
    """A program from CC that exits 0 without running: said as such."""
    for name, text in (("ccscript", CC_SCRIPT), ("ccnothing", CC_NOTHING)):
        cc = os.path.join(tmp, name)
        with open(cc, "w") as f:
            f.write(text)
        os.chmod(cc, 0o755)
        for k in range(2):      # built, then taken from the cache
            p = nsmc(tmp, ["run", BALL, "--out-dir", "D"], env={"CC": cc})
            check(p.returncode == 1 and "exited 0 without running the model" in p.stderr and
                  "CC ('%s')" % cc in p.stderr, "CC=%s (run %d): said, exit 1" % (name, k + 1), p)
            check("removed or renamed" not in p.stderr,
                  "CC=%s: not said to be results removed mid-run (they were)" % name)
            check(not os.path.exists(os.path.join(tmp, "D")), "CC=%s: no folder left" % name)
    # a shared library with an entry point: it dies of SIGSEGV before it runs
    for k in range(2):
        p = nsmc(tmp, ["run", BALL, "--out-dir", "D", "-q"],
                 env={"CC": "cc -shared -fPIC -Wl,-e,main"})
        check(p.returncode == 1 and "before it ran the model" in p.stderr and
              "internal error" not in p.stderr,
              "CC='cc -shared -fPIC -Wl,-e,main' (run %d): the program CC made named, exit 1 "
              "(was nsm's 'internal error', exit 2)" % (k + 1), p)
    p = nsmc(tmp, ["run", BALL, "--out-dir", "D", "-q"])
    check(p.returncode == 0, "without CC: the run", p)


# ---- findings_devstdout -----------------------------------------------------

def case_devstdout(tmp):
    """An output named by stdout's own file: the CSV whole, no table in it."""
    import math
    g, e = 9.81, 0.9
    t1 = math.sqrt(2 * 1.0 / g)                      # the first impact, from 1 m
    t2 = t1 + 2 * e * math.sqrt(2 * g * 1.0) / g     # the second
    for opt, path in (("--out", "/dev/stdout"), ("--out", "/proc/self/fd/1"),
                      ("--events", "/dev/stdout"), ("--out", "same.csv")):
        f = os.path.join(tmp, "same.csv")
        other = "--events" if opt == "--out" else "--out"
        with open(f, "w") as fo:
            p = subprocess.run([SIM, "--t-end", "2", opt, path, other, "x.csv", "--summary"],
                               cwd=tmp, stdout=fo, stderr=subprocess.PIPE, text=True,
                               errors="replace", timeout=60 * SLOW)
        lines = open(f).read().splitlines()
        print("  sim --t-end 2 %s %s --summary > same.csv -> %d; %d lines, first %r"
              % (opt, path, p.returncode, len(lines), lines[0][:60] if lines else ""))
        check(p.returncode == 0, "%s %s: exit 0" % (opt, path), p)
        check(lines != [], "%s %s: something written" % (opt, path))
        rows = [ln.split(",") for ln in lines[1:]]
        if opt == "--out":
            check(lines[0].startswith("t [s],B.x [m]"), "%s: the CSV's header first (the "
                  "event table was written over it)" % path)
            whole_lines(f)
            times = [float(r[0]) for r in rows]
            check(len(times) == 201 and all(abs(t - 0.01 * k) < 1e-9 for k, t in
                                            enumerate(times)),
                  "%s: rows at 0, 0.01, ..., 2 s and nothing else" % path)
        else:
            check(lines[0].startswith("t,kind,contact"), "the event log's header first")
            whole_lines(f)
            check(len(rows) == 3 and abs(float(rows[0][0]) - t1) < 1e-9 and
                  abs(float(rows[1][0]) - t2) < 1e-9, "three impacts, at the closed form's "
                  "times %.12g and %.12g" % (t1, t2))
        check("impacts" in p.stderr, "the --summary audit on stderr, beside a CSV on stdout")
    # /dev/null as both stdout and an output loses nothing: the audit stays on stdout
    p = subprocess.run([SIM, "--t-end", "2", "--out", "/dev/null", "--summary"], cwd=tmp,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                       errors="replace", timeout=60 * SLOW)
    check(p.returncode == 0 and "impacts" not in p.stderr,
          "--out /dev/null > /dev/null: the audit where it was (stdout)", p)


# ---- kept_cc ----------------------------------------------------------------

def case_cc(tmp):
    """CC choices: a program run whole, or a refusal naming CC."""
    for cc, ok in (("cc -Wl,-e,0", False), ("cc -static-pie", False), ("/nonexistent/cc", False),
                   ("cc -O0", True), ("cc -o /nonexistent/stolen", True)):
        p = nsmc(tmp, ["run", BALL, "--out-dir", "D", "-q", "--no-plot"], env={"CC": cc})
        if ok:
            check(p.returncode == 0 and "events: 134" in p.stdout, "CC=%r: the run" % cc, p)
        else:
            check(p.returncode == 1 and cc.split()[0] in p.stderr and
                  "internal error" not in p.stderr, "CC=%r: refused naming CC" % cc, p)
            check(not os.path.exists(os.path.join(tmp, "D")), "CC=%r: no folder left" % cc)
        subprocess.run(["rm", "-rf", os.path.join(tmp, "D")])
    p = nsmc(tmp, ["run", BALL, "--out-dir", "D", "-q", "--no-plot"],
             env={"CFLAGS": "-Werror -Wall -Wextra -Wconversion"})
    check(p.returncode == 0, "CFLAGS=-Werror ... -Wconversion: the generated C compiles", p)


# ---- kept_cache -------------------------------------------------------------

def case_cache(tmp):
    """Cache folders and entries of odd kinds: used, rebuilt or refused."""
    real = os.path.join(tmp, "real")
    os.mkdir(real)
    os.symlink("real", os.path.join(tmp, "lnk"))
    p = nsmc(tmp, ["run", BALL, "--out-dir", "D", "-q", "--no-plot"],
             env={"XDG_CACHE_HOME": os.path.join(tmp, "lnk")})
    check(p.returncode == 0 and os.path.isdir(os.path.join(real, "nsm")),
          "a cache folder that is a link of ours: used through its target", p)
    entry = [os.path.join(real, "nsm", n) for n in os.listdir(os.path.join(real, "nsm"))][0]
    sim = os.path.join(entry, "bouncing_ball")
    os.rename(sim, sim + ".real")
    os.symlink("bouncing_ball.real", sim)
    p = nsmc(tmp, ["run", BALL, "--out-dir", "D", "-q", "--no-plot"],
             env={"XDG_CACHE_HOME": os.path.join(tmp, "lnk")})
    check(p.returncode == 0 and "damaged (a link, not a file)" in p.stderr and
          not os.path.islink(sim), "the simulator a link: damaged, rebuilt, never followed", p)
    with open(sim + ".sum", "w") as f:
        f.write("0000000000000000 12 x\n")
    p = nsmc(tmp, ["run", BALL, "--out-dir", "D", "-q", "--no-plot"],
             env={"XDG_CACHE_HOME": os.path.join(tmp, "lnk")})
    check(p.returncode == 0 and "damaged" in p.stderr, "a checksum of another entry: rebuilt", p)
    with open(os.path.join(tmp, "afile"), "w") as f:
        f.write("x\n")
    os.mkfifo(os.path.join(tmp, "ff"))
    for c in ("afile", "ff"):
        p = nsmc(tmp, ["run", BALL, "--out-dir", "D", "-q", "--no-plot"],
                 env={"XDG_CACHE_HOME": os.path.join(tmp, c)})
        check(p.returncode == 1 and "XDG_CACHE_HOME" in p.stderr,
              "XDG_CACHE_HOME a %s: refused, naming it" % c, p)


# ---- kept_setfile -----------------------------------------------------------

def case_setfile(tmp):
    """Parameter files of odd texts: the value taken, or a refusal at its line."""
    texts = {"crlf": (b"e = 0.5\r\n", "23"), "bom": (b"\xef\xbb\xbfe = 0.5\n", "23"),
             "noeol": (b"e = 0.5", "23"), "comment": (b"e = 0.5 # c\n", "23"),
             "unit": (b"g = 9.81 m/s^2\n", "134"), "nul": (b"e = 0.5\0\n", "NUL"),
             "twice": (b"e = 0.5\ne = 0.6\n", "set twice"), "hex": (b"e = 0x1p-1\n", "expected"),
             "underflow": (b"g = 1e-400\n", "below the range"),
             "badunit": (b"g = 9.81 m/s\n", "not a unit"), "unknown": (b"nope = 1\n", "unknown")}
    for name, (text, want) in texts.items():
        path = os.path.join(tmp, name + ".txt")
        with open(path, "wb") as f:
            f.write(text)
        p = nsmc(tmp, ["run", BALL, "--out-dir", "D", "--no-plot", "--set-file", path])
        if want.isdigit():
            check(p.returncode == 0 and ("events: %s " % want) in p.stdout,
                  "%s: the value taken (%s events)" % (name, want), p)
        else:
            check(p.returncode == 1 and want in p.stderr, "%s: refused (%s)" % (name, want), p)
    for path in ("/dev/null", ".", "-"):
        p = nsmc(tmp, ["run", BALL, "--out-dir", "D", "--no-plot", "--set-file", path])
        check(p.returncode == 1 and "cannot read" in p.stderr, "%s: refused" % path, p)


# ---- kept_signals -----------------------------------------------------------

def case_signals(tmp):
    """Stops at random moments of a continuation and a sweep over earlier
    results: the exit 128 + N (or death by the signal while its results
    are written), whole lines, no temporary left."""
    cmds = {"continue": [NSMC, "continue", FIO, "--param", "omega=1.5:4", "--ds-max", "0.004",
                         "--ds", "0.002", "--out-dir", "K"],
            "sweep": [NSMC, "sweep", FIO, "--param", "omega=1:3:150", "--section",
                      "period:2*pi/omega", "--transient", "100", "--record", "10", "--out-dir",
                      "K"]}
    rng = random.Random(26)
    sigs = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
    k = d = 0
    for name, cmd in cmds.items():
        t0 = time.monotonic()
        p = subprocess.run(cmd, cwd=tmp, env=env_for(tmp), capture_output=True, text=True)
        full = time.monotonic() - t0
        check(p.returncode == 0, "%s: the whole run (%.2f s)" % (name, full), p)
        for i in range(5):
            sig, d = sigs[k % 3], rng.uniform(0.05, full)
            k += 1
            pr = subprocess.Popen(cmd, cwd=tmp, env=env_for(tmp), stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, text=True, errors="replace")
            err = stop_after(pr, sig, d, "%s %s" % (name, sig.name), timeout=60 * SLOW)
            left = names(os.path.join(tmp, "K"))
            print("  %s, %s at %.2f s -> %d  %s; K: %s" % (name, sig.name, d, pr.returncode,
                  err.strip().splitlines()[-1][:100] if err.strip() else "", left))
            check(pr.returncode in (0, 128 + sig, -sig), "%s %s: exit 0, 128 + N or the "
                  "signal" % (name, sig.name))
            for f in left:
                path = os.path.join(tmp, "K", f)
                if f.endswith(".csv") or ".csv.partial" in f:
                    whole_lines(path)
                check(".tmp" not in f, "%s: no temporary %s left" % (name, f))
                if f.endswith((".png", ".svg")):
                    check(whole_figure(path), "%s: %s whole" % (name, f))


# ---- kept_mpi ---------------------------------------------------------------

def case_mpi(tmp):
    """`mpirun -np 2 nsmc sweep` with a rank killed at a random moment: a
    nonzero exit, whole lines in the partial results, and the next sweep
    into the folder keeps them as .prev and finishes; a grid finer than 15
    digits swept over the ranks with its own values."""
    import shutil
    from passlib import proc_descendants
    mpirun = shutil.which("mpirun")
    check(mpirun is not None, "mpirun is on the PATH")
    base = [mpirun, "--allow-run-as-root", "--oversubscribe", "-np", "2", NSMC, "sweep", FIO]
    p = subprocess.run(base + ["--param", "e=0.8:0.8000000000000003:3", "--section",
                               "period:2*pi/omega", "--transient", "10", "--record", "3",
                               "--out-dir", "F"], cwd=tmp, env=env_for(tmp),
                       capture_output=True, text=True, timeout=120 * SLOW)
    vals = summary_values(os.path.join(tmp, "F", "summary.csv"))
    print("  mpirun -np 2 nsmc sweep --param e=0.8:0.8000000000000003:3 -> %d; %r"
          % (p.returncode, vals))
    check(p.returncode == 0 and len(set(vals)) == 3 and vals[-1] == float("0.8000000000000003"),
          "over two ranks: three values, STOP exactly", p)
    rng = random.Random(2026)
    cmd = base + ["--param", "omega=1:3:60", "--section", "period:2*pi/omega", "--transient",
                  "3000", "--record", "50", "--t-max", "1e6", "--out-dir", "W"]
    for k, sig in enumerate((signal.SIGKILL, signal.SIGTERM)):
        pr = subprocess.Popen(cmd, cwd=tmp, env=env_for(tmp), stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True, errors="replace")
        ok = wait_until(pr, lambda: len([c for c in proc_descendants(pr.pid).values()
                                         if c.startswith("forced")]) == 2 and
                        has_bytes(os.path.join(tmp, "W", "summary.csv.partial"))(), 30 * SLOW)
        check(ok, "two ranks running, the partial summary begun")
        time.sleep(rng.uniform(0.1, 0.8))
        ranks = sorted(q for q, c in proc_descendants(pr.pid).items() if c.startswith("forced"))
        if ranks:
            os.kill(ranks[k % len(ranks)], sig)
        err = pr.communicate(timeout=120 * SLOW)[1]
        left = names(os.path.join(tmp, "W"))
        print("  mpirun -np 2 nsmc sweep, %s to rank %d -> %d; W: %s"
              % (sig.name, k % 2, pr.returncode, left))
        check(pr.returncode != 0, "a killed rank: a nonzero exit")
        for f in left or []:
            if ".csv" in f:
                whole_lines(os.path.join(tmp, "W", f))
    p = subprocess.run([NSMC, "sweep", FIO, "--param", "e=0.5:0.9:3", "--section",
                        "period:2*pi/omega", "--out-dir", "W"], cwd=tmp, env=env_for(tmp),
                       capture_output=True, text=True, timeout=120 * SLOW)
    left = names(os.path.join(tmp, "W"))
    print("  nsmc sweep into W after -> %d; W: %s" % (p.returncode, left))
    check(p.returncode == 0 and "summary.csv" in left and ".nsm-run.lock" not in left,
          "the next sweep into the folder: whole, no lock left", p)


CASES = {"findings_devstdout": case_devstdout, "findings_replaced": case_replaced, "findings_finegrid": case_finegrid,
         "findings_stale": case_stale, "findings_ccprogram": case_ccprogram,
         "kept_cc": case_cc, "kept_cache": case_cache, "kept_setfile": case_setfile,
         "kept_signals": case_signals, "kept_mpi": case_mpi}

if __name__ == "__main__":
    sys.exit(main(CASES, "nsm26cli-", case_arg=4))
