#!/usr/bin/env python3
"""The twenty-fifth hostile pass over the nsmc programs (issue #29,
docs/fuzzing.md): nsmc run's words after "--", its results that cannot be
read back, the C compiler named by CC, odd output folders and result files.

    tests/reliability/twentyfifth_pass_cli_test.py NSMC SIM SOURCE_DIR CASE

SIM is the bouncing ball's simulator.
Cases (each under 20 s in the normal build):
  findings_tablevalue  `nsmc run M -- --stats=--table` (statistics into a
             file named --table; --section-out=--table too): the value was
             taken for the user's --table, so nsmc run passed none of its
             own and the event table was left out without a word.  Now the
             table is printed; the user's own --table still suppresses
             nsmc run's (no option given twice).
  findings_unread  DIR/events.csv a link to /dev/null: nsmc run summarised
             "events: 0", "energy lost in events: 0 J" after a run of 134
             impacts, exit 0, and named it among the results;
             DIR/trajectory.csv a link to /dev/null or a FIFO with a
             reader: exit 0 with no summary, no figures and no word (an
             earlier run's figures left beside this run's events).  Now a
             note names the file and what it is, nothing is summarised or
             drawn, the earlier figures are removed (this run's animation
             kept), exit 0.
  findings_gone  DIR/trajectory.csv or DIR/events.csv removed or renamed
             while `nsmc run` ran: the trajectory gone gave exit 0 with no
             summary, no figures and no word; the events gone a summary
             without its events line naming DIR/events.csv among the
             results, and figures without the events, exit 0.  Now "... is
             not there: removed or renamed while the simulator ran",
             nothing summarised or drawn, exit 1.
  findings_ccshared  CC='cc -shared -fPIC': the shared library was cached
             as the simulator, which died of SIGSEGV, said as nsm's
             "internal error", exit 2, at every later run.  Now "exited 0
             without making a program ... a shared library or object
             file", exit 1, nothing cached; a damaged entry holding one is
             rebuilt.
  findings_plotfifo  a simulator's `--out FIFO --plot P` (a reader on the
             FIFO): it hung at the run's end opening the FIFO to read the
             trajectory back (no writer left), deaf to SIGTERM; `--events
             /dev/null --plot P` drew figures without the events, exit 0,
             without a word.  Now "no plot: the trajectory 'ff' is a FIFO,
             which cannot be read back" (the event log: a device), exit 0,
             the trajectory whole in the FIFO's reader.  The event log
             removed while `sim --plot P` ran: figures without the events,
             exit 0; now "no plot: cannot read 'P/events.csv'", exit 1, as
             for the trajectory removed.
  findings_basinline  a basin grid of one point along an axis
             (`--basin M.x=-1:-1:1`, with M.v over 1 or 5 points): the
             study's results written, then gnuplot failed on its script,
             "Can't plot with an empty x range", exit 1 (and an image of
             one column draws nothing).  Now the axis's range is widened
             around its value and such a grid's points are drawn as
             squares: exit 0, one mark per grid point in the SVG.
  kept_outdirs  odd output folders (`D//E/`, `-`, a name with a newline,
             `./D/.`, a dangling link, a link loop, a link through a
             dangling link, /dev/null, /proc/self, a file) and FIFOs or
             links to /dev/null in the place of the figures, scripts and
             logs: either a run whose files are whole, or a refusal naming
             the cause with nothing left behind (passed: kept as a
             regression check).
  kept_signals  SIGTERM, SIGINT and SIGHUP at random moments of `nsmc run`
             (with and without --animate) over an earlier run's files:
             the exit 128 + N, whole lines in the trajectory and event log,
             no lock, temporary or half figure left, the earlier figures
             either untouched or this run's whole ones (passed: kept as a
             regression check).
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import os
import random
import signal
import subprocess
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import (SANITIZED, check, env_for, has_bytes, main, stop_after,  # noqa: E402
                     wait_until, whole_figure, whole_lines)

NSMC = os.path.abspath(sys.argv[1])
SIM = os.path.abspath(sys.argv[2])
SRC = os.path.abspath(sys.argv[3])
SLOW = 4 if SANITIZED else 1
BALL = os.path.join(SRC, "models", "bouncing_ball.nsm")
TABLE_HEAD = "t [s]"
FIGURES = ("plot.png", "plot.svg", "plot.gp", "plot.log")


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


# ---- findings_tablevalue ----------------------------------------------------

def case_tablevalue(tmp):
    """An option's value spelt --table is no --table."""
    for words in (["--stats=--table"], ["--section", "impact:floor", "--section-out=--table"]):
        p = nsmc(tmp, ["run", BALL, "--out-dir", "D", "--no-plot", "--"] + words)
        check(p.returncode == 0, "%s: the run succeeds" % words, p)
        check(p.stdout.startswith(TABLE_HEAD), "%s: the event table is printed (it "
              "began %r)" % (words, p.stdout[:40]), p)
        check(os.path.isfile(os.path.join(tmp, "--table")), "%s: the file --table written"
              % words)
        os.unlink(os.path.join(tmp, "--table"))
    # the user's own --table: printed once, no refusal
    p = nsmc(tmp, ["run", BALL, "--out-dir", "D", "--no-plot", "--", "--table"])
    check(p.returncode == 0 and p.stdout.count(TABLE_HEAD) == 1,
          "the user's --table: the table printed once", p)
    # -q still leaves it out, the user's --table still refused twice
    p = nsmc(tmp, ["run", BALL, "--out-dir", "D", "--no-plot", "-q", "--", "--stats=--table"])
    check(p.returncode == 0 and TABLE_HEAD not in p.stdout, "-q: no table", p)
    p = nsmc(tmp, ["run", BALL, "--out-dir", "D", "--no-plot", "--", "--table", "--table"])
    check(p.returncode == 1 and "given twice" in p.stderr, "--table twice refused", p)


# ---- findings_unread --------------------------------------------------------

def case_unread(tmp):
    """Results nsmc run cannot read back: said, nothing summarised."""
    d = os.path.join(tmp, "D")
    for name, kind in (("events.csv", "link"), ("trajectory.csv", "link"),
                       ("trajectory.csv", "fifo")):
        p = nsmc(tmp, ["run", BALL, "--out-dir", "D", "-q"])      # an earlier run's figures
        check(p.returncode == 0 and all(os.path.isfile(os.path.join(d, f)) for f in FIGURES),
              "the earlier run drew its figures", p)
        path = os.path.join(d, name)
        os.unlink(path)
        got = []
        if kind == "link":
            os.symlink("/dev/null", path)
            p = nsmc(tmp, ["run", BALL, "--out-dir", "D", "-q"])
        else:
            os.mkfifo(path)
            reader = threading.Thread(target=lambda: got.append(open(path).read()))
            reader.start()
            p = nsmc(tmp, ["run", BALL, "--out-dir", "D", "-q", "--animate"])
            reader.join(30 * SLOW)
        print("    %s as a %s: stdout %r; D: %s" % (name, kind, p.stdout[:60], names(d)))
        check(p.returncode == 0, "%s as a %s: the run's exit 0" % (name, kind), p)
        check("events: 0" not in p.stdout, "%s as a %s: no summary of 0 events" % (name, kind),
              p)
        check("note: D/%s is a" % name in p.stderr and "not summarised" in p.stderr,
              "%s as a %s: said, the file named" % (name, kind), p)
        check(not any(os.path.exists(os.path.join(d, f)) for f in FIGURES),
              "%s as a %s: the earlier run's figures removed" % (name, kind))
        if kind == "fifo":
            check(got and got[0].count("\n") > 1000, "the FIFO's reader got the trajectory")
            check(os.path.isfile(os.path.join(d, "animation.gif")), "this run's animation kept")
        other = os.path.join(d, "trajectory.csv" if name == "events.csv" else "events.csv")
        whole_lines(other)
        subprocess.run(["rm", "-rf", d])


# ---- findings_gone ----------------------------------------------------------

def case_gone(tmp):
    """A result removed or renamed mid-run: said, exit 1."""
    d = os.path.join(tmp, "D")
    acts = (("rm D/trajectory.csv", ["trajectory.csv"], None),
            ("rm D/events.csv", ["events.csv"], None),
            ("mv D/trajectory.csv D/t2", ["trajectory.csv"], "t2"),
            ("rm D/trajectory.csv D/events.csv", ["trajectory.csv", "events.csv"], None))
    for label, gone, renamed in acts:
        subprocess.run(["rm", "-rf", d])
        pr = subprocess.Popen([NSMC, "run", BALL, "--out-dir", "D", "-q", "--", "--t-end", "3000"],
                              cwd=tmp, env=env_for(tmp), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, errors="replace")
        traj = os.path.join(d, "trajectory.csv")
        ok = wait_until(pr, lambda: has_bytes(traj) and os.path.exists(os.path.join(d, "events.csv")),
                        30 * SLOW)
        check(ok and pr.poll() is None, "%s: the run writing when the file goes" % label)
        if renamed:
            os.rename(os.path.join(d, gone[0]), os.path.join(d, renamed))
        else:
            for g in gone:
                os.unlink(os.path.join(d, g))
        out, err = pr.communicate(timeout=120 * SLOW)
        print("  nsmc run --out-dir D, %s mid-run -> %d  %s; stdout %r; D: %s"
              % (label, pr.returncode, err.strip().splitlines()[-1][:150], out[:40], names(d)))
        check(pr.returncode == 1, "%s: exit 1" % label)
        check(" and ".join("D/" + g for g in gone) + (" are" if len(gone) > 1 else " is")
              + " not there" in err, "%s: the file named" % label)
        check("results:" not in out and "events:" not in out, "%s: nothing summarised" % label)
        check(not os.path.exists(os.path.join(d, "plot.png")), "%s: no figure" % label)


# ---- findings_ccshared ------------------------------------------------------

def entry_bins(tmp):
    """The simulators in the case's cache (entry/NAME files, no .c or .sum)."""
    root = os.path.join(tmp, "cache", "nsm")
    out = []
    for e in names(root) or []:
        out += [f for f in names(os.path.join(root, e)) or []
                if f == "bouncing_ball"]
    return out


def case_ccshared(tmp):
    """A compiler making a shared library where the program was asked for."""
    env = {"CC": "cc -shared -fPIC"}
    for attempt in (1, 2):
        p = nsmc(tmp, ["run", BALL, "-q", "--no-plot", "--out-dir", "o"], env=env)
        check(p.returncode == 1, "CC='cc -shared -fPIC' (%d): exit 1 (a refusal), not an "
              "internal error" % attempt, p)
        check("exited 0 without making a program" in p.stderr and "shared library" in
              p.stderr and "'cc -shared -fPIC'" in p.stderr, "the compiler named, what it "
              "made said", p)
        check(not entry_bins(tmp), "nothing cached as the simulator")
        check(not os.path.exists(os.path.join(tmp, "o")), "no output folder made")
    # an entry holding a shared library under a checksum that matches it
    # (as the code before made one) is rebuilt, not run
    root = os.path.join(tmp, "cache", "nsm")
    p = nsmc(tmp, ["run", BALL, "-q", "--no-plot", "--out-dir", "o"])
    check(p.returncode == 0, "the default compiler builds and runs", p)
    entry = [e for e in names(root) if "bouncing_ball" in names(os.path.join(root, e))][0]
    bin_ = os.path.join(root, entry, "bouncing_ball")
    lib = os.path.join(tmp, "lib.so")
    with open(os.path.join(tmp, "x.c"), "w") as f:
        f.write("int f(void) { return 1; }\n")
    subprocess.run(["cc", "-shared", "-fPIC", "-o", lib, os.path.join(tmp, "x.c")], check=True)
    data = open(lib, "rb").read()
    with open(bin_ + ".sum", "w") as f:
        f.write("%016x %d %s\n" % (digest(data), len(data), entry))
    os.chmod(lib, 0o700)
    os.replace(lib, bin_)
    p = nsmc(tmp, ["run", BALL, "-q", "--no-plot", "--out-dir", "o"])
    check(p.returncode == 0 and "damaged" in p.stderr and "compiling" in p.stderr,
          "a shared library in the entry: said damaged and rebuilt", p)


def digest(data):
    """The cache's checksum of data (compiler/commands/run.c, hash_bytes:
    FNV-1a eight bytes at a time, the high half folded down), as
    file_digest reads a file in 64 KiB blocks."""
    m = (1 << 64) - 1
    h = 14695981039346656037
    for at in range(0, len(data), 65536):
        blk = data[at:at + 65536]
        i = 0
        while i + 8 <= len(blk):
            h = ((h ^ int.from_bytes(blk[i:i + 8], "little")) * 1099511628211) & m
            h ^= h >> 32
            i += 8
        for b in blk[i:]:
            h = ((h ^ b) * 1099511628211) & m
    return h


# ---- findings_plotfifo -----------------------------------------------------

def case_plotfifo(tmp):
    """A simulator's --plot reading back what it cannot read."""
    ff = os.path.join(tmp, "ff")
    os.mkfifo(ff)
    got = []
    reader = threading.Thread(target=lambda: got.append(open(ff).read()))
    reader.start()
    try:
        p = subprocess.run([SIM, "--out", "ff", "--plot", "P"], cwd=tmp, capture_output=True,
                           text=True, errors="replace", timeout=20 * SLOW)
    finally:
        if reader.is_alive():       # release the reader of a run that never opened ff
            with open(ff, "w"):
                pass
        reader.join(10)
    print("  sim --out ff (a FIFO, read) --plot P -> %d  %s; P: %s"
          % (p.returncode, p.stderr.strip().splitlines()[0][:120], names(os.path.join(tmp, "P"))))
    check(p.returncode == 0 and "no plot: the trajectory 'ff' is a FIFO" in p.stderr,
          "the FIFO said, no plot, the run's exit 0", p)
    check(got and got[0].count("\n") > 1000, "the reader got the whole trajectory")
    whole_lines(os.path.join(tmp, "P", "events.csv"))
    p = subprocess.run([SIM, "--out", "t.csv", "--events", "/dev/null", "--plot", "P2"],
                       cwd=tmp, capture_output=True, text=True, errors="replace",
                       timeout=60 * SLOW)
    print("  sim --out t.csv --events /dev/null --plot P2 -> %d  %s; P2: %s"
          % (p.returncode, p.stderr.strip().splitlines()[0][:120],
             names(os.path.join(tmp, "P2"))))
    check(p.returncode == 0 and "no plot: the event log '/dev/null' is a device" in p.stderr,
          "the device said, no plot", p)
    check(not os.path.exists(os.path.join(tmp, "P2", "plot.png")), "no figure without events")
    # the event log removed while the run ran: figures without the events,
    # exit 0, before; now no plot, exit 1, as for the trajectory removed
    pr = subprocess.Popen([SIM, "--t-end", "3000", "--plot", "P3"], cwd=tmp,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          errors="replace")
    ev = os.path.join(tmp, "P3", "events.csv")
    ok = wait_until(pr, lambda: has_bytes(os.path.join(tmp, "P3", "trajectory.csv")) and
                    os.path.exists(ev), 30 * SLOW)
    check(ok and pr.poll() is None, "sim --plot P3: running when its event log goes")
    os.unlink(ev)
    err = pr.communicate(timeout=120 * SLOW)[1]
    print("  sim --t-end 3000 --plot P3, rm P3/events.csv mid-run -> %d  %s; P3: %s"
          % (pr.returncode, err.strip().splitlines()[0][:120], names(os.path.join(tmp, "P3"))))
    check(pr.returncode == 1 and "no plot: cannot read 'P3/events.csv'" in err,
          "the event log removed: no plot, said, exit 1")
    check(not os.path.exists(os.path.join(tmp, "P3", "plot.png")), "no figure without events")


# ---- findings_basinline ----------------------------------------------------

def case_basinline(tmp):
    """Basin grids of one point along an axis: drawn, exit 0."""
    fio = os.path.join(SRC, "models", "forced_impact_oscillator.nsm")
    for vax, npts in (("M.v=0:0:1", 1), ("M.v=-3:3:5", 5), ("M.v=2:2:1", 1)):
        out = "B%d" % npts
        p = nsmc(tmp, ["sweep", fio, "--basin", "M.x=-1:-1:1", "--basin", vax, "--section",
                       "period:2*pi/omega", "--out-dir", out])
        check(p.returncode == 0, "M.x=-1:-1:1, %s: the study and its figure, exit 0" % vax, p)
        svg = open(os.path.join(tmp, out, "basins.svg")).read()
        # gnuplot's marks placed in the figure (its definitions have none)
        marks = sum(1 for ln in svg.splitlines()
                    if "<use xlink:href='#gpPt" in ln and "transform='translate(" in ln)
        print("    %s: %d marks in basins.svg for %d points" % (vax, marks, npts))
        check(marks == npts, "%s: one mark per grid point drawn" % vax)
        subprocess.run(["rm", "-rf", os.path.join(tmp, out)])


# ---- kept_outdirs -----------------------------------------------------------

def case_outdirs(tmp):
    """Odd output folders and result files: whole runs or clean refusals."""
    os.symlink("/nonexistent-h25", os.path.join(tmp, "dangling"))
    os.symlink("loop", os.path.join(tmp, "loop"))
    os.symlink("dangling/x", os.path.join(tmp, "through"))
    with open(os.path.join(tmp, "afile"), "w") as f:
        f.write("mine\n")
    ok = {"D//E/": "D/E", "-": "-", "a\nb": "a\nb", "./F/.": "F"}
    refused = {"dangling": "does not exist", "loop": "symbolic links",
               "through/sub": "does not exist", "/dev/null": "Not a directory",
               "/proc/self": "lock", "afile": "Not a directory", "afile/sub": "Not a directory"}
    for out, folder in ok.items():
        p = nsmc(tmp, ["run", BALL, "-q", "--no-plot", "--out-dir", out])
        check(p.returncode == 0, "--out-dir %r: runs" % out, p)
        whole_lines(os.path.join(tmp, folder, "trajectory.csv"))
        check(".nsm-run.lock" not in names(os.path.join(tmp, folder)), "%r: lock removed" % out)
    before = names(tmp)
    for out, why in refused.items():
        p = nsmc(tmp, ["run", BALL, "-q", "--no-plot", "--out-dir", out])
        check(p.returncode == 1 and why in p.stderr, "--out-dir %r: refused, naming %r"
              % (out, why), p)
        check(names(tmp) == before, "--out-dir %r: nothing left behind" % out)
    d = os.path.join(tmp, "R")
    for f in FIGURES + ("animation.gif", "animation.gp", "animation.log", "phase.png"):
        for kind in ("fifo", "link"):
            subprocess.run(["rm", "-rf", d])
            os.mkdir(d)
            (os.mkfifo if kind == "fifo" else lambda p: os.symlink("/dev/null", p))(
                os.path.join(d, f))
            p = nsmc(tmp, ["run", BALL, "-q", "--animate", "--phase", "--out-dir", "R"],
                     timeout=30)
            check(p.returncode == 1 and "cannot write 'R/%s'" % f in p.stderr,
                  "%s as a %s: refused, named" % (f, kind), p)
            check(names(d) == [f], "%s as a %s: nothing else written" % (f, kind))


# ---- kept_signals -----------------------------------------------------------

def case_signals(tmp):
    """Stop signals at random moments of nsmc run: files whole afterwards."""
    d = os.path.join(tmp, "D")
    p = nsmc(tmp, ["run", BALL, "-q", "--animate", "--out-dir", "D"])
    check(p.returncode == 0, "the earlier run", p)
    earlier = {f: open(os.path.join(d, f), "rb").read() for f in FIGURES}
    rng = random.Random(25)
    sigs = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
    for k in range(12):
        sig, delay = sigs[k % 3], rng.uniform(0.0, 1.0)
        anim = ["--animate"] if k % 2 else []
        pr = subprocess.Popen([NSMC, "run", BALL, "-q", "--out-dir", "D"] + anim +
                              ["--", "--t-end", "1000"], cwd=tmp, env=env_for(tmp),
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                              errors="replace")
        err = stop_after(pr, sig, delay, "nsmc run %s" % sig.name, timeout=60 * SLOW)
        left = names(d)
        print("  nsmc run %s, %s at %.2f s -> %d  %s; D: %s"
              % (" ".join(anim), sig.name, delay, pr.returncode,
                 err.strip().splitlines()[-1][:100] if err.strip() else "", left))
        check(pr.returncode in (0, 128 + sig), "%s: exit 0 or 128 + N" % sig.name)
        for f in ("trajectory.csv", "events.csv"):
            whole_lines(os.path.join(d, f))
        check(".nsm-run.lock" not in left and not any(".tmp" in f for f in left),
              "%s: no lock or temporary left" % sig.name)
        for f in FIGURES:
            path = os.path.join(d, f)
            if os.path.exists(path) and open(path, "rb").read() != earlier[f]:
                check(f.endswith((".gp", ".log")) or whole_figure(path),
                      "%s: %s is whole" % (sig.name, f))
                earlier[f] = open(path, "rb").read()


CASES = {"findings_tablevalue": case_tablevalue, "findings_unread": case_unread,
         "findings_ccshared": case_ccshared, "findings_gone": case_gone,
         "findings_basinline": case_basinline,
         "findings_plotfifo": case_plotfifo,
         "kept_outdirs": case_outdirs, "kept_signals": case_signals}

if __name__ == "__main__":
    sys.exit(main(CASES, "nsm25cli-", case_arg=4))
