#!/usr/bin/env python3
"""What the twenty-first hostile passes left as found (issue #29,
docs/fuzzing.md), each a check that failed before its fix.

    tests/reliability/leftovers23_test.py NSMC SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  lockleft   a refused `nsmc run` (a simulator option's bad value) and a
             failed continuation left their new out-dir holding only
             `.nsm-run.lock`; `nsmc run`, a sweep, a continuation and a
             simulator's `--plot P` left `.nsm-run.lock` among their
             results.  Now the lock goes at the program's end, and a
             folder the program made that holds nothing else goes with
             it (its parents made too); a folder that was there before
             stays, with the user's files; a user's file under the lock's
             name is left as it was.
  fifolink   a FIFO named as a sweep's summary.csv, section.csv or
             bifurcation.png, a continuation's branch.csv or
             continuation.png, or nsmc run's animation.gif was replaced by
             the result (exit 0), and a symbolic link named as branch.csv or
             animation.gif was replaced by the file (the link gone, its
             target as it was).  Now a FIFO (or a link to one) there is
             refused before any work, exit 1, the FIFO left as it was,
             nothing written; a link to a file is written through (its
             target replaced, the link kept), as a sweep's summary.csv and
             the figures were already.  Their scripts and gnuplot's logs
             too: a FIFO named animation.gp held the simulator in its
             open() at the run's end, deaf to SIGTERM (nsmc run --animate
             never ended), plot.gp and plot.png were removed as an earlier
             run's; now refused before the run.
  basinstwice `Model.basins` with one coordinate on both axes said
             "nsmc sweep --basin: nsmc sweep: error: --basin M.x is given
             twice" (the program twice, its option rather than the
             argument); now a SettingError naming x and y and the
             coordinate, no program; another of nsmc sweep's refusals
             (an unknown coordinate) names the program once.
  gpfull     never tried before: the gnuplot scripts of a sweep and a
             continuation (bifurcation.gp, continuation.gp) under a
             file-size limit that the results fit in and the script does not
             (a model named with 3000 or 12000 characters, which each script
             carries in its title): exit 1, "cannot write 'D/NAME.gp': File
             too large", the earlier script and figures byte for byte as
             they were, no temporary left, the results whole (passed before
             too: kept as a regression check; the full disk, a 256 KiB
             tmpfs, was tried by hand, docs/fuzzing.md).
  ccenv      `CC='cc -DX'` (the macro X breaks a parameter's name in the
             runtime's model.h) and `CC='cc -Dsize_t=int'`: nsmc run said
             "internal error: the generated C ... did not compile with 'cc';
             please report this", exit 2, and nsm.compile "did not build
             with cc".  Now "the C compiler named by CC ('cc -DX') failed on
             the generated C ...; its first errors:" with the compiler's
             first error lines, exit 1; a failing default compiler (a cc on
             PATH that fails, CC unset) is still an internal error, exit 2.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import math
import os
import stat
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import SANITIZED, check, env_for, limit, main  # noqa: E402

NSMC = os.path.abspath(sys.argv[1])
SRC = os.path.abspath(sys.argv[2])
SLOW = 4 if SANITIZED else 1
BALL = os.path.join(SRC, "models", "bouncing_ball.nsm")
FIO = os.path.join(SRC, "models", "forced_impact_oscillator.nsm")
LOCK = ".nsm-run.lock"


def go(tmp, cmd, timeout=120, env=None):
    """Runs cmd in tmp with its own cache (env's variables added); the
    CompletedProcess."""
    full = env_for(tmp)
    full.update(env or {})
    return subprocess.run(cmd, cwd=tmp, env=full, capture_output=True, text=True,
                          errors="replace", timeout=timeout * SLOW)


def last(p):
    """The last line of p's standard error, for the printed outcome."""
    lines = p.stderr.strip().splitlines()
    return lines[-1][:110] if lines else ""


def names(folder):
    """The sorted names in folder, or None when it is not there."""
    return sorted(os.listdir(folder)) if os.path.isdir(folder) else None


def cached(tmp, name):
    """The simulator called name in tmp's program cache."""
    for root, _, files in os.walk(os.path.join(tmp, "cache")):
        if name in files and os.access(os.path.join(root, name), os.X_OK):
            return os.path.join(root, name)
    check(False, "the simulator %s is in the cache" % name)
    return None


def first_landing(path):
    """The time of the first impact in the events CSV at path."""
    with open(path) as f:
        for line in f:
            cells = line.strip().split(",")
            if len(cells) > 1 and cells[1] == "impact":
                return float(cells[0])
    return None


# ---- lockleft ----------------------------------------------------------------

def case_lockleft(tmp):
    """The folder lock removed at the end, and a folder made for nothing."""
    bad = ["--", "--t-end=-1"]
    for label, out in (("a new folder N", "N"), ("new folders A/B/N", "A/B/N")):
        p = go(tmp, [NSMC, "run", BALL, "--out-dir", out, "-q", "--no-plot"] + bad)
        top = os.path.join(tmp, out.split("/")[0])
        print("  nsmc run --out-dir %s -- --t-end=-1 -> %d  %s; %s: %s"
              % (out, p.returncode, last(p), out.split("/")[0], names(top)))
        check(p.returncode == 1 and "--t-end" in p.stderr and not os.path.exists(top),
              "refused run into %s: exit 1, the cause named, no folder left" % label, p)
    # a folder of the user's: kept, with its files, whatever the run's end
    for label, files in (("an empty folder E", []), ("a folder F with notes.txt", ["notes.txt"])):
        d = os.path.join(tmp, label.split()[-1 if not files else -3])
        os.makedirs(d)
        for f in files:
            with open(os.path.join(d, f), "w") as h:
                h.write("mine\n")
        p = go(tmp, [NSMC, "run", BALL, "--out-dir", d, "-q", "--no-plot"] + bad)
        print("  nsmc run --out-dir %s -- --t-end=-1 -> %d; left %s"
              % (os.path.basename(d), p.returncode, names(d)))
        check(p.returncode == 1 and names(d) == files,
              "refused run into %s: the folder kept as it was" % label, p)
    # a continuation that fails once its folder is locked
    p = go(tmp, [NSMC, "continue", BALL, "--param", "e=0.5:0.9", "--period", "1",
                 "--out-dir", "C"])
    print("  nsmc continue BALL --param e=0.5:0.9 --period 1 --out-dir C -> %d  %s; C: %s"
          % (p.returncode, last(p), names(os.path.join(tmp, "C"))))
    check("no point computed" in p.stderr and not os.path.exists(os.path.join(tmp, "C")),
          "failed continuation: no folder C left", p)
    # results: the lock gone, the results there; the first landing of the
    # ball dropped from 1 m at sqrt(2 h / g) (rk4's 1 ms steps: within 1e-9 s)
    want = math.sqrt(2 * 1.0 / 9.81)
    p = go(tmp, [NSMC, "run", BALL, "--out-dir", "D/R", "-q", "--no-plot", "--", "--t-end",
                 "1"])
    got = names(os.path.join(tmp, "D", "R"))
    print("  nsmc run --out-dir D/R --t-end 1 -> %d; D/R: %s" % (p.returncode, got))
    check(p.returncode == 0 and got == ["events.csv", "trajectory.csv"],
          "nsmc run: its results, no lock left", p)
    t = first_landing(os.path.join(tmp, "D", "R", "events.csv"))
    print("    first landing at %r s (by hand sqrt(2 h/g) = %.12g s)" % (t, want))
    check(t is not None and abs(t - want) < 1e-9, "the landing at sqrt(2 h/g)")
    sim = cached(tmp, "bouncing_ball")
    p = go(tmp, [sim, "--t-end", "1", "--plot", "P"])
    got = names(os.path.join(tmp, "P"))
    print("  simulator --t-end 1 --plot P -> %d; P: %s" % (p.returncode, got))
    check(p.returncode == 0 and got and "trajectory.csv" in got and LOCK not in got,
          "simulator --plot P: its results, no lock left", p)
    p = go(tmp, [sim, "--t-end", "-1", "--plot", "Q"])
    print("  simulator --t-end -1 --plot Q -> %d; Q: %s" % (p.returncode,
                                                        names(os.path.join(tmp, "Q"))))
    check(p.returncode == 1 and not os.path.exists(os.path.join(tmp, "Q")),
          "simulator refused: no folder Q", p)
    p = go(tmp, [NSMC, "sweep", FIO, "--param", "omega=2:3:2", "--section",
                 "period:2*pi/omega", "--transient", "5", "--record", "2", "--out-dir", "W"])
    got = names(os.path.join(tmp, "W"))
    print("  nsmc sweep FIO --param omega=2:3:2 --out-dir W -> %d; W: %s" % (p.returncode, got))
    check(p.returncode == 0 and got and "summary.csv" in got and LOCK not in got,
          "nsmc sweep: its results, no lock left", p)
    p = go(tmp, [NSMC, "continue", FIO, "--param", "omega=2:3", "--out-dir", "K"])
    got = names(os.path.join(tmp, "K"))
    print("  nsmc continue FIO --param omega=2:3 --out-dir K -> %d; K: %s" % (p.returncode, got))
    check(p.returncode == 0 and got and "branch.csv" in got and LOCK not in got,
          "nsmc continue: its results, no lock left", p)
    # a lock left by a killed run (its process id, no holder): taken, then removed
    with open(os.path.join(tmp, "D", "R", LOCK), "w") as f:
        f.write("999999999\n")
    p = go(tmp, [NSMC, "run", BALL, "--out-dir", "D/R", "-q", "--no-plot", "--", "--t-end",
                 "1"])
    got = names(os.path.join(tmp, "D", "R"))
    print("  nsmc run --out-dir D/R, a killed run's lock there -> %d; D/R: %s"
          % (p.returncode, got))
    check(p.returncode == 0 and got == ["events.csv", "trajectory.csv"],
          "a killed run's lock taken and removed", p)
    # a file of the user's under the lock's name: refused, left as it was
    os.makedirs(os.path.join(tmp, "U"))
    with open(os.path.join(tmp, "U", LOCK), "w") as f:
        f.write("my notes\n")
    p = go(tmp, [NSMC, "run", BALL, "--out-dir", "U", "-q", "--no-plot", "--", "--t-end", "1"])
    with open(os.path.join(tmp, "U", LOCK)) as f:
        kept = f.read()
    print("  nsmc run --out-dir U, U/%s the user's notes -> %d; U: %s, the notes %s"
          % (LOCK, p.returncode, names(os.path.join(tmp, "U")),
             "kept" if kept == "my notes\n" else "changed"))
    check(p.returncode == 1 and names(os.path.join(tmp, "U")) == [LOCK] and
          kept == "my notes\n", "a user's file under the lock's name left as it was", p)


# ---- fifolink ----------------------------------------------------------------

SWEEP = ["sweep", FIO, "--param", "omega=2:3:2", "--section", "period:2*pi/omega",
         "--transient", "5", "--record", "2"]
CONT = ["continue", FIO, "--param", "omega=2:3"]
ANIM = ["run", BALL, "--animate", "--no-plot", "-q"]
STARTS = {".csv": b"omega [rad/s],", ".png": b"\x89PNG", ".gif": b"GIF8"}


def is_fifo(path):
    """Whether path is a FIFO (not followed through a link)."""
    return os.path.lexists(path) and stat.S_ISFIFO(os.lstat(path).st_mode)


def go_group(tmp, cmd, timeout=60):
    """Runs cmd in tmp (its own cache) in a process group of its own,
    killed whole past timeout (a simulator deaf to SIGTERM outlived nsmc);
    the CompletedProcess, or a failure naming the hang."""
    p = subprocess.Popen(cmd, cwd=tmp, env=env_for(tmp), stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, errors="replace",
                         start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout * SLOW)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, 9)
        p.communicate()
        check(False, "still running after %d s (killed): %s" % (timeout * SLOW, cmd[1:3]))
    return subprocess.CompletedProcess(cmd, p.returncode, out, err)


def case_fifolink(tmp):
    """A FIFO or a link named as a result written through a temporary."""
    tail = {"sweep": [], "continue": [], "run": ["--", "--t-end", "1"]}
    cases = [("sweep", SWEEP, "summary.csv"), ("sweep", SWEEP, "section.csv"),
             ("sweep", SWEEP, "bifurcation.png"), ("continue", CONT, "branch.csv"),
             ("continue", CONT, "continuation.png"), ("run", ANIM, "animation.gif")]
    for i, (prog, args, name) in enumerate(cases):
        d = os.path.join(tmp, "f%d" % i)
        os.makedirs(d)
        os.mkfifo(os.path.join(d, name))
        p = go(tmp, [NSMC] + args + ["--out-dir", d] + tail[prog], timeout=60)
        left = names(d)
        print("  nsmc %s, %s a FIFO -> %d  %s; left %s" % (prog, name, p.returncode, last(p),
                                                         left))
        check(p.returncode == 1 and "'%s/%s'" % (d, name) in p.stderr and "a FIFO" in p.stderr
              and is_fifo(os.path.join(d, name)) and left == [name],
              "nsmc %s with %s a FIFO: refused before any work, the FIFO as it was, nothing "
              "written" % (prog, name), p)
        # a link to a FIFO outside the folder: refused alike
        e = os.path.join(tmp, "g%d" % i)
        os.makedirs(e)
        os.symlink(os.path.join(d, name), os.path.join(e, name))
        p = go(tmp, [NSMC] + args + ["--out-dir", e] + tail[prog], timeout=60)
        print("  nsmc %s, %s a link to a FIFO -> %d  %s" % (prog, name, p.returncode, last(p)))
        check(p.returncode == 1 and "symbolic link" in p.stderr and
              is_fifo(os.path.join(d, name)) and os.path.islink(os.path.join(e, name)) and
              names(e) == [name], "nsmc %s with %s a link to a FIFO: refused, nothing written"
              % (prog, name), p)
        # a link to a file: the target replaced by the result, the link kept
        h = os.path.join(tmp, "h%d" % i)
        os.makedirs(h)
        target = os.path.join(tmp, "target%d%s" % (i, os.path.splitext(name)[1]))
        with open(target, "wb") as f:
            f.write(b"keep\n")
        os.symlink(target, os.path.join(h, name))
        p = go(tmp, [NSMC] + args + ["--out-dir", h] + tail[prog], timeout=60)
        with open(target, "rb") as f:
            head = f.read(16)
        want = STARTS[os.path.splitext(name)[1]] if name != "section.csv" else b"omega [rad/s],t"
        print("  nsmc %s, %s a link to a file -> %d; the link %s, the target starts %r"
              % (prog, name, p.returncode, "kept" if os.path.islink(os.path.join(h, name))
                 else "replaced", head))
        check(p.returncode == 0 and os.path.islink(os.path.join(h, name)) and
              head.startswith(want), "nsmc %s with %s a link to a file: written through, the "
              "link kept" % (prog, name), p)
    # the scripts and logs beside them, and --plot's own files
    sim = cached(tmp, "bouncing_ball")
    sides = [("nsmc run --animate", [NSMC] + ANIM, "animation.gp", tail["run"]),
             ("nsmc run --animate", [NSMC] + ANIM, "animation.log", tail["run"]),
             ("nsmc run", [NSMC, "run", BALL, "-q"], "plot.gp", tail["run"]),
             ("nsmc run", [NSMC, "run", BALL, "-q"], "plot.png", tail["run"]),
             ("nsmc sweep", [NSMC] + SWEEP, "bifurcation.log", []),
             ("nsmc continue", [NSMC] + CONT, "continuation.log", [])]
    for i, (label, cmd, name, rest) in enumerate(sides):
        d = os.path.join(tmp, "s%d" % i)
        os.makedirs(d)
        os.mkfifo(os.path.join(d, name))
        p = go_group(tmp, cmd + ["--out-dir", d] + rest)
        print("  %s, %s a FIFO -> %d  %s" % (label, name, p.returncode, last(p)))
        check(p.returncode == 1 and "a FIFO" in p.stderr and is_fifo(os.path.join(d, name))
              and names(d) == [name], "%s with %s a FIFO: refused before the run, the FIFO "
              "as it was" % (label, name), p)
    for name in ("plot.gp", "plot.png", "plot.log"):
        d = os.path.join(tmp, "p" + name.replace(".", ""))
        os.makedirs(d)
        os.mkfifo(os.path.join(d, name))
        p = go_group(tmp, [sim, "--t-end", "1", "--plot", d])
        print("  simulator --plot P, P/%s a FIFO -> %d  %s" % (name, p.returncode, last(p)))
        check(p.returncode == 1 and "a FIFO" in p.stderr and is_fifo(os.path.join(d, name))
              and names(d) == [name], "simulator --plot with %s a FIFO: refused before the "
              "run, the FIFO as it was" % name, p)


# ---- basinstwice -------------------------------------------------------------

def case_basinstwice(tmp):
    """Model.basins with one coordinate on both axes."""
    import nsm
    os.environ["XDG_CACHE_HOME"] = os.path.join(tmp, "cache")
    m = nsm.compile(FIO)
    sec = "period:2*pi/omega"
    for label, x, y in (("M.x twice", ("M.x", -1, 0, 2), ("M.x", 0, 1, 2)),
                        ("M.v twice", ("M.v", -1, 0, 2), ("M.v", 0, 1, 2)),
                        ("' M.x' and 'M.x'", (" M.x", -1, 0, 2), ("M.x", 0, 1, 2))):
        try:
            m.basins(x, y, sec, transient=2, record=2)
            said, kind = "", "no error"
        except nsm.Error as e:
            said, kind = str(e), type(e).__name__
        print("  basins, %-18s -> %s: %s" % (label, kind, said))
        check(kind == "SettingError" and "x and y both name the coordinate" in said and
              "'%s'" % x[0].strip() in said and "nsmc" not in said and said.count("given") == 0,
              "basins with %s: a SettingError naming x and y, no program" % label)
    try:
        m.basins(("M.q", -1, 0, 2), ("M.v", 0, 1, 2), sec, transient=2, record=2)
        said, kind = "", "no error"
    except nsm.Error as e:
        said, kind = str(e), type(e).__name__
    print("  basins, M.q (no such coordinate) -> %s: %s" % (kind, said))
    check(kind == "SettingError" and said.count("nsmc sweep") == 1 and "M.q" in said,
          "basins with an unknown coordinate: nsmc sweep named once")


# ---- gpfull -----------------------------------------------------------------

def long_named(tmp, reps):
    """The forced impact oscillator's model named fio_ repeated reps times
    (the scripts' titles carry the name), written into tmp; its path."""
    with open(FIO) as f:
        text = f.read()
    path = os.path.join(tmp, "long%d.nsm" % reps)
    with open(path, "w") as f:
        f.write(text.replace("model forced_impact_oscillator", "model " + "fio_" * reps, 1))
    return path


def folder_bytes(d):
    """Every file of folder d and its bytes."""
    out = {}
    for n in os.listdir(d):
        with open(os.path.join(d, n), "rb") as f:
            out[n] = f.read()
    return out


def case_gpfull(tmp):
    """A study's gnuplot script past a file-size limit its results fit in."""
    studies = [("sweep", 750, ["--param", "omega=2:3:2", "--section", "period:2*pi/omega",
                               "--transient", "5", "--record", "2"], "bifurcation",
                ["section.csv", "summary.csv"], 2048),
               ("continue", 3000, ["--param", "omega=2:2.01"], "continuation",
                ["branch.csv"], 8192)]
    for prog, reps, args, base, results, cap in studies:
        model = long_named(tmp, reps)
        d = os.path.join(tmp, prog)
        cmd = [NSMC, prog, model] + args + ["--out-dir", d]
        p = go(tmp, cmd)
        check(p.returncode == 0, "nsmc %s of the long-named model, no limit" % prog, p)
        before = folder_bytes(d)
        gp = len(before[base + ".gp"])
        print("  nsmc %s: %s.gp of %d bytes, results of %s bytes"
              % (prog, base, gp, [len(before[r]) for r in results]))
        check(gp > cap and all(len(before[r]) < cap for r in results),
              "the script passes the limit of %d bytes, the results fit" % cap)
        full = env_for(tmp)
        p = subprocess.run(cmd, cwd=tmp, env=full, capture_output=True, text=True,
                           errors="replace", timeout=120 * SLOW, preexec_fn=limit(cap))
        after = folder_bytes(d)
        changed = sorted(n for n in set(before) | set(after) if before.get(n) != after.get(n))
        print("  nsmc %s under ulimit -f %d bytes -> %d  %s; changed %s"
              % (prog, cap, p.returncode, last(p), changed))
        check(p.returncode == 1 and "cannot write '%s/%s.gp': File too large" % (d, base)
              in p.stderr, "nsmc %s: exit 1, the script and the cause named" % prog, p)
        check(changed == [], "nsmc %s: no temporary left, the earlier script, figures and "
              "results as they were (the same results written again)" % prog)


# ---- ccenv -------------------------------------------------------------------

FAKE_CC = "#!/bin/sh\necho 'gen.c:1:1: error: a compiler that fails' >&2\nexit 1\n"


def case_ccenv(tmp):
    """The C compiler named by CC failing on the generated C."""
    out = os.path.join(tmp, "o")
    for cc in ("cc -DX", "cc -Dsize_t=int"):
        p = go(tmp, [NSMC, "run", BALL, "-q", "--no-plot", "--out-dir", out], env={"CC": cc})
        lines = p.stderr.splitlines()
        at = [i for i, ln in enumerate(lines) if "named by CC" in ln]
        quoted = lines[at[0] + 1] if at and at[0] + 1 < len(lines) else ""
        print("  CC=%r nsmc run -> %d  %s\n    then %r" % (cc, p.returncode,
                                                       at and lines[at[0]][:100], quoted[:100]))
        check(p.returncode == 1 and "internal error" not in p.stderr and
              "the C compiler named by CC ('%s') failed on the generated C" % cc in p.stderr and
              "its first errors:" in p.stderr and quoted.startswith("  ") and
              "error" in quoted and not os.path.exists(out),
              "CC=%r: the compiler named with its first error, exit 1, no internal error" % cc, p)
    # the default compiler failing: still nsm's own error
    bindir = os.path.join(tmp, "bin")
    os.makedirs(bindir)
    with open(os.path.join(bindir, "cc"), "w") as f:
        f.write(FAKE_CC)
    os.chmod(os.path.join(bindir, "cc"), 0o755)
    env = {"PATH": bindir + os.pathsep + os.environ.get("PATH", ""), "CC": ""}
    p = go(tmp, [NSMC, "run", BALL, "-q", "--no-plot", "--out-dir", out], env=env)
    print("  a failing default cc (CC empty) -> %d  %s" % (p.returncode, last(p)))
    check(p.returncode == 2 and "internal error: the generated C" in p.stderr and
          "named by CC" not in p.stderr, "the default compiler failing: an internal error, "
          "exit 2", p)
    # the Python package's compile, under the same CC
    code = ("import nsm, sys\n"
            "try:\n    nsm.compile(sys.argv[1])\n"
            "except nsm.CompileError as e:\n    print(e)\n")
    p = go(tmp, [sys.executable, "-c", code, BALL], env={"CC": "cc -DX"})
    print("  CC='cc -DX' nsm.compile -> %s" % p.stdout.strip().splitlines()[:1])
    check("the C compiler named by CC ('cc -DX') failed on the generated C" in p.stdout and
          "error" in p.stdout, "nsm.compile under CC='cc -DX': the compiler named", p)


if __name__ == "__main__":
    sys.exit(main({n[5:]: f for n, f in globals().items() if n.startswith("case_")},
                  "nsm-left23-", 3))
