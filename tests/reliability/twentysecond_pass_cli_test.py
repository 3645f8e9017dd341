#!/usr/bin/env python3
"""A twenty-second hostile pass over the nsmc programs (issue #29): the
simulator's words after `nsmc run ... --`, the study commands' --out-dir in
both forms, the animation's script and log, a study's folder moved mid-run,
programs without gnuplot, two programs in one folder.

    tests/reliability/twentysecond_pass_cli_test.py NSMC SIM SOURCE_DIR CASE

SIM is sim_bouncing_ball.

Cases (each under 20 s in the normal build):
  findings_extras  `nsmc run M.nsm -- --stats=M.nsm` (or --section-out=M.nsm,
                   --stats=DIR/plot.svg, --section-out=DIR/.nsm-run.lock,
                   --lyapunov-out=P.txt of --set-file P.txt): exit 0, the
                   model (the figure, the lock, the parameter file) replaced
                   by the simulator's output, where the same options given
                   as --NAME VALUE are refused; `-- --lyapunov --lyapunov-out
                   M.nsm` in either form replaced the model by the spectrum.
                   nsmc run read the words after "--" as given, and the
                   simulator split --NAME=VALUE after nsmc's checks.  Now
                   refused, the file intact.  `-- --set-file R/summary.csv`
                   was removed as an earlier study's result and `-- --set-file
                   R/plot.gp` replaced by the plots' script, exit 0 (a
                   parameter file after "--" was unknown to nsmc run's checks
                   of its inputs): now taken as nsmc run's own --set-file,
                   kept or refused.  Kept: `-- --t-end=0.5`,
                   `--stats=-s.csv`, `--out=r.h5` as in the other form.
  findings_studyout `nsmc sweep D/summary.csv --out-dir=D ...` and `nsmc
                   continue D/branch.csv --out-dir=D ...`: exit 0, the model
                   replaced by the study's summary or branch (the check of a
                   model inside the folder read only `--out-dir D`).  Now
                   refused as with `--out-dir D`, the model intact.
  findings_animscript the simulator's --animate a.gif beside --out a.gp,
                   --events a.gp, --stats a.log, --section-out a.log,
                   --lyapunov-out a.gp, --set-file a.gp or a.gif, and
                   --animate P/plot.gif with --plot P: exit 0, one of the
                   two files lost (the animation's script FILE.gp and
                   gnuplot's log FILE.log, written beside the GIF, were
                   checked against nothing; the parameter file replaced by
                   the script or the GIF); `nsmc run -- --animate
                   R/plot.gif` shared R/plot.gp with the run's plots, and
                   `-- --animate M.gif` replaced the model M.gp.  Now
                   refused, naming the script or the log, every file
                   intact.
  findings_moved, findings_movedsweep
                   `nsmc continue` and `nsmc sweep` whose --out-dir D is
                   moved away mid-run and replaced by a link to another
                   folder E (or by a file): the results were written by path
                   into E, exit 0, the partial files left in the moved
                   folder (and E, another folder, never locked); or exit 1
                   saying the points were kept in D/NAME.partial, where
                   there was none.  Now refused at the end, naming the
                   partial files left in the folder it started in (whole
                   lines there), nothing written into E; a link to the
                   moved folder itself is the same folder and is written.
  findings_nognuplot the simulator's --animate a.gif (nsmc run --animate)
                   without gnuplot, over an earlier run's GIF: exit 0, "no
                   animation was drawn", and the earlier GIF left beside
                   this run's trajectory and script; nsmc run named it among
                   this run's results.  Now removed (a regular file) and
                   said, as the plots' earlier figures are, and left out of
                   the results line.
  findings_animlate the simulator's --animate D/plot.gif started before
                   `nsmc run --out-dir D` and ending while that run writes
                   into D: exit 0, and its script D/plot.gp written over the
                   run's (the run's gnuplot then drew the animation's
                   script, or the run's figures lost their script).  The
                   animation's files were checked against the folder's lock
                   only at the start.  Now checked again when they are
                   written: refused, the run's files intact.
  kept_names       what was tried and found sound, kept against regressions:
                   `nsmc M.nsm -o` naming the model, a link to it, '' or ./
                   (refused, the model intact); a parameter file '-' or
                   /dev/stdin (refused); the simulator's --lyapunov-out
                   inside the folder --plot makes, spelled ./P/l.csv or
                   P//l.csv with --plot P/ (written); folder names with a
                   backquote, a newline, $(...) and quotes through nsmc run
                   --animate --phase (figures drawn, no command run);
                   `nsmc run -- --plot R` into its own folder (refused, naming it).
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import os
import stat
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import Failure, check, env_for, main, no_gnuplot_path, run  # noqa: E402

NSMC, SIM = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
SRC = os.path.abspath(sys.argv[3])
BALL = os.path.join(SRC, "models", "bouncing_ball.nsm")
FIO = os.path.join(SRC, "models", "forced_impact_oscillator.nsm")


def read(path):
    """The bytes of path, or None when there is no such file."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def said(p):
    """The first line of p's stderr that is not the cache's note."""
    lines = [ln for ln in p.stderr.splitlines()
             if "cached " not in ln and "compiling the" not in ln]
    return lines[0] if lines else ""


def fresh(tmp, name):
    """A new folder name under tmp (what was there removed)."""
    d = os.path.join(tmp, name)
    shutil.rmtree(d, ignore_errors=True)
    os.mkdir(d)
    return d


# the words after "--" that name one of nsmc run's inputs or own files, with
# the file (relative to the run's folder W) that must stay as it was
EXTRAS_REFUSED = [
    (["--stats=ball.nsm"], "ball.nsm"),
    (["--section=period:0.1", "--section-out=ball.nsm"], "ball.nsm"),
    (["--lyapunov", "--lyapunov-out", "ball.nsm"], "ball.nsm"),
    (["--lyapunov", "--lyapunov-out=ball.nsm"], "ball.nsm"),
    (["--lyapunov", "--lyapunov-out=p.txt"], "p.txt"),
    (["--stats=p.txt"], "p.txt"),
    (["--stats=R/plot.svg"], "R/plot.svg"),
    (["--section=period:0.1", "--section-out=R/.nsm-run.lock"], "R/.nsm-run.lock"),
]


def case_findings_extras(tmp):
    """A simulator output after "--" naming the model, the parameter file,
    a figure or the lock: refused in both forms, the file intact."""
    for extra, keep in EXTRAS_REFUSED:
        w = fresh(tmp, "w")
        shutil.copy(BALL, os.path.join(w, "ball.nsm"))
        with open(os.path.join(w, "p.txt"), "w") as f:
            f.write("e = 0.5\n")
        first = run(w, [NSMC, "run", "ball.nsm", "--set-file", "p.txt", "--out-dir", "R",
                        "-q", "--t-end", "0.5"])
        check(first.returncode == 0, "the first run into R: exit 0", first)
        before = read(os.path.join(w, keep))
        p = run(w, [NSMC, "run", "ball.nsm", "--set-file", "p.txt", "--out-dir", "R", "-q",
                    "--", "--t-end", "0.5"] + extra)
        print("input: nsmc run ball.nsm --set-file p.txt --out-dir R -q -- --t-end 0.5 %s -> "
              "%d %s" % (" ".join(extra), p.returncode, said(p)))
        check(p.returncode == 1 and "write it elsewhere" in p.stderr,
              "-- %s: refused, naming the file" % " ".join(extra), p)
        check(read(os.path.join(w, keep)) == before, "-- %s: %s intact" % (" ".join(extra), keep))
    # a parameter file given after "--" is one of the run's inputs too
    for name, refused in (("summary.csv", False), ("branch.csv", False), ("plot.gp", True),
                          ("plot.log", True)):
        w = fresh(tmp, "f")
        shutil.copy(BALL, os.path.join(w, "ball.nsm"))
        os.mkdir(os.path.join(w, "R"))
        with open(os.path.join(w, "R", name), "w") as f:
            f.write("e = 0.5\n")
        p = run(w, [NSMC, "run", "ball.nsm", "--out-dir", "R", "-q", "--t-end", "1", "--",
                    "--set-file", "R/" + name])
        print("input: nsmc run ball.nsm --out-dir R -q --t-end 1 -- --set-file R/%s -> %d %s"
              % (name, p.returncode, said(p)))
        check(p.returncode == (1 if refused else 0), "-- --set-file R/%s: %s"
              % (name, "refused" if refused else "exit 0"), p)
        check(read(os.path.join(w, "R", name)) == b"e = 0.5\n", "R/%s intact" % name)
        if not refused:
            ev = read(os.path.join(w, "R", "events.csv")).decode().splitlines()[1].split(",")
            check(abs(float(ev[4]) + 0.5 * float(ev[3])) < 1e-9 * abs(float(ev[3])),
                  "-- --set-file R/%s: e = 0.5 taken (v+ = -0.5 v-)" % name)
    # the attached forms the simulator takes are kept as given
    w = fresh(tmp, "k")
    shutil.copy(BALL, os.path.join(w, "ball.nsm"))
    a = run(w, [NSMC, "run", "ball.nsm", "--out-dir", "A", "-q", "--no-plot", "--",
                "--t-end", "0.5", "--stats", "./-s.csv"])
    os.rename(os.path.join(w, "-s.csv"), os.path.join(w, "s1.csv"))
    b = run(w, [NSMC, "run", "ball.nsm", "--out-dir", "B", "-q", "--no-plot", "--",
                "--t-end=0.5", "--stats=-s.csv", "--out=r.h5"])
    print("input: nsmc run ball.nsm --out-dir B -q --no-plot -- --t-end=0.5 --stats=-s.csv "
          "--out=r.h5 -> %d %s" % (b.returncode, said(b)))
    check(a.returncode == 0 and b.returncode == 0, "-- --NAME=VALUE words: exit 0", b)
    check(read(os.path.join(w, "A", "trajectory.csv")) == read(os.path.join(w, "B",
                                                                           "trajectory.csv")),
          "-- --t-end=0.5: the trajectory of -- --t-end 0.5")
    check(read(os.path.join(w, "-s.csv")) == read(os.path.join(w, "s1.csv")),
          "-- --stats=-s.csv: the statistics of --stats ./-s.csv")
    check((read(os.path.join(w, "r.h5")) or b"")[:4] == b"\x89HDF" and "r.h5" in b.stdout,
          "-- --out=r.h5: an HDF5 file, named with the results")


def case_findings_studyout(tmp):
    """A study's model inside its folder, the folder given as --out-dir=D:
    refused as with --out-dir D, the model intact."""
    sweep = ["--param", "omega=2.4:2.6:2", "--section", "period:2*pi/omega", "--transient",
             "5", "--record", "4"]
    cont = ["--param", "omega=2.4:2.6", "--no-plot"]
    for what, opts, name in (("sweep", sweep, "summary.csv"), ("sweep", sweep, "section.csv"),
                             ("continue", cont, "branch.csv"),
                             ("continue", cont, "summary.csv")):
        for form in (["--out-dir=D"], ["--out-dir", "D"]):
            w = fresh(tmp, "s")
            os.mkdir(os.path.join(w, "D"))
            model = os.path.join(w, "D", name)
            shutil.copy(FIO, model)
            cmd = [NSMC, what, "D/" + name] + form + opts
            p = run(w, cmd)
            print("input: nsmc %s D/%s %s ... -> %d %s" % (what, name, " ".join(form),
                                                           p.returncode, said(p)))
            check(p.returncode == 1 and "move the model out of the folder" in p.stderr,
                  "nsmc %s D/%s %s: refused" % (what, name, " ".join(form)), p)
            check(read(model) == read(FIO), "nsmc %s D/%s %s: the model intact"
                  % (what, name, " ".join(form)))


# the simulator's words that name the animation's script or log (or its GIF)
# as another output or the parameter file: (words, files kept as they were)
ANIM_REFUSED = [
    (["--out", "a.gp"], []),
    (["--events", "a.gp"], []),
    (["--stats", "a.log"], []),
    (["--section", "period:0.1", "--section-out", "a.log"], []),
    (["--lyapunov", "--lyapunov-out", "a.gp"], []),
    (["--set-file", "a.gp"], ["a.gp"]),
    (["--set-file", "a.gif"], ["a.gif"]),
    (["--plot", "P"], ["P/plot.gp"]),
]


def case_findings_animscript(tmp):
    """The animation's script and log named as another output, the
    parameter file or a figure's script: refused, the files intact."""
    for words, keep in ANIM_REFUSED:
        w = fresh(tmp, "a")
        for f in ("a.gp", "a.gif"):
            with open(os.path.join(w, f), "w") as fh:
                fh.write("e = 0.5\n")
        gif = "P/plot.gif" if "--plot" in words else "a.gif"
        if "--plot" in words:
            os.mkdir(os.path.join(w, "P"))
            with open(os.path.join(w, "P", "plot.gp"), "w") as fh:
                fh.write("# an earlier run's script\n")
        before = {f: read(os.path.join(w, f)) for f in keep}
        p = run(w, [SIM, "--t-end", "0.5", "--animate", gif] + words)
        print("input: sim --t-end 0.5 --animate %s %s -> %d %s"
              % (gif, " ".join(words), p.returncode, said(p)))
        check(p.returncode == 1 and "--animate" in p.stderr,
              "--animate %s %s: refused, naming the animation's script or log"
              % (gif, " ".join(words)), p)
        for f in keep:
            check(read(os.path.join(w, f)) == before[f], "%s intact" % f)
    # nsmc run: the run's own plot.gp, the model and the parameter file
    for extra, keep in ((["--animate", "R/plot.gif"], None), (["--animate=R/plot.gif"], None),
                        (["--animate=ball.gif"], "ball.gp"), (["--animate", "p.gif"], "p.gp")):
        w = fresh(tmp, "r")
        shutil.copy(BALL, os.path.join(w, "ball.gp"))
        with open(os.path.join(w, "p.gp"), "w") as fh:
            fh.write("e = 0.5\n")
        before = read(os.path.join(w, keep)) if keep else None
        p = run(w, [NSMC, "run", "ball.gp", "--set-file", "p.gp", "--out-dir", "R", "-q",
                    "--t-end", "0.5", "--"] + extra)
        print("input: nsmc run ball.gp --set-file p.gp --out-dir R -q --t-end 0.5 -- %s -> %d %s"
              % (" ".join(extra), p.returncode, said(p)))
        check(p.returncode == 1 and "write it elsewhere" in p.stderr,
              "-- %s: refused" % " ".join(extra), p)
        if keep:
            check(read(os.path.join(w, keep)) == before, "%s intact" % keep)
    # kept: an animation beside the plots under another name draws both
    w = fresh(tmp, "k")
    p = run(w, [SIM, "--t-end", "0.5", "--plot", "P", "--animate", "P/a.gif"])
    print("input: sim --t-end 0.5 --plot P --animate P/a.gif -> %d" % p.returncode)
    check(p.returncode == 0 and b"a.gif" in read(os.path.join(w, "P", "a.gp")) and
          b"plot.png" in read(os.path.join(w, "P", "plot.gp")),
          "--plot P --animate P/a.gif: both scripts, each its own", p)


def moved_midway(tmp, what, opts, partial, act):
    """nsmc WHAT (opts) into tmp/D, D renamed to D2 once D/partial holds a
    line, and act ("link": a link D -> E, a new folder; "back": a link D ->
    D2; "file": a file D) put in its place: (the process, its stderr)."""
    for f in ("D", "D2", "E"):
        path = os.path.join(tmp, f)
        if os.path.islink(path) or os.path.isfile(path):
            os.remove(path)
        shutil.rmtree(path, ignore_errors=True)
    d = os.path.join(tmp, "D")
    pr = subprocess.Popen([NSMC, what, FIO, "--out-dir", d] + opts, cwd=tmp, env=env_for(tmp),
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    start = time.time()
    while time.time() - start < 60 and pr.poll() is None:
        data = read(os.path.join(d, partial)) or b""
        if data.count(b"\n") >= 3:
            break
        time.sleep(0.01)
    if pr.poll() is not None:
        raise Failure("nsmc %s ended before its folder was moved: make it longer" % what)
    os.rename(d, os.path.join(tmp, "D2"))
    if act == "link":
        os.mkdir(os.path.join(tmp, "E"))
        os.symlink(os.path.join(tmp, "E"), d)
    elif act == "back":
        os.symlink(os.path.join(tmp, "D2"), d)
    else:
        with open(d, "w") as f:
            f.write("a file\n")
    alive = pr.poll() is None
    err = pr.communicate(timeout=120)[1]
    if not alive:
        raise Failure("nsmc %s ended as its folder was moved: make it longer" % what)
    return pr, err


def case_findings_moved(tmp, kinds=("continue",)):
    """A study's folder moved away mid-run, a link or a file in its
    place: refused at the end, the partial files named, nothing written
    into the link's folder."""
    cont = ["--param", "omega=1.5:2.5", "--ds", "0.0003", "--ds-max", "0.0003", "--max-points",
            "100000", "--no-plot"]
    sweep = ["--param", "omega=2:3:2000", "--section", "period:2*pi/omega", "--transient", "50",
             "--record", "20"]
    for what, opts, partials, result in (
            ("continue", cont, ["branch.csv.partial"], "branch.csv"),
            ("sweep", sweep, ["section.csv.partial", "summary.csv.partial"], "summary.csv")):
        if what not in kinds:
            continue
        for act in ("link", "file", "back"):
            pr, err = moved_midway(tmp, what, opts, partials[0], act)
            first = [ln for ln in err.splitlines() if "error" in ln][:1]
            print("input: nsmc %s --out-dir D, D moved to D2 mid-run, %s in its place -> %d %s"
                  % (what, {"link": "a link to a new folder E", "file": "a file",
                            "back": "a link to D2"}[act], pr.returncode,
                     (first or [""])[0][:200]))
            if act == "back":
                check(pr.returncode in (0, 3) and read(os.path.join(tmp, "D2", result)),
                      "nsmc %s: a link to the moved folder is that folder: %s written there"
                      % (what, result))
                continue
            check(pr.returncode == 1 and "was moved, removed or replaced" in err,
                  "nsmc %s, its folder moved and %s in its place: refused" % (what, act))
            check(not os.path.isdir(os.path.join(tmp, "E")) or
                  not os.listdir(os.path.join(tmp, "E")),
                  "nsmc %s: nothing written into the link's folder E" % what)
            for f in partials:
                data = read(os.path.join(tmp, "D2", f))
                check(data and data.endswith(b"\n") and data.count(b"\n") > 3 and
                      f in err, "nsmc %s: D2/%s named, whole lines" % (what, f))


def case_findings_nognuplot(tmp):
    """No gnuplot: an earlier run's GIF at the animation's path removed and
    said, never named as this run's result."""
    w = fresh(tmp, "g")
    shutil.copy(BALL, os.path.join(w, "ball.nsm"))
    p = run(w, [SIM, "--t-end", "0.5", "--animate", "a.gif"])
    q = run(w, [NSMC, "run", "ball.nsm", "--out-dir", "R", "-q", "--t-end", "0.5", "--animate"])
    check(p.returncode == 0 and q.returncode == 0 and read(os.path.join(w, "a.gif")) and
          read(os.path.join(w, "R", "animation.gif")), "the earlier GIFs drawn", q)
    path = no_gnuplot_path(tmp)
    p = run(w, [SIM, "--t-end", "0.3", "--animate", "a.gif"], env={"PATH": path})
    print("input: sim --t-end 0.3 --animate a.gif without gnuplot, over an earlier a.gif -> "
          "%d %s" % (p.returncode, said(p)))
    check(p.returncode == 0 and "no animation was drawn" in p.stderr and
          "earlier animation there" in p.stderr and read(os.path.join(w, "a.gif")) is None,
          "without gnuplot: the earlier a.gif removed, said", p)
    q = run(w, [NSMC, "run", "ball.nsm", "--out-dir", "R", "-q", "--t-end", "0.3", "--animate"],
            env={"PATH": path})
    print("input: nsmc run --animate without gnuplot, over an earlier R/animation.gif -> %d %s"
          % (q.returncode, [ln for ln in q.stdout.splitlines() if ln.startswith("results")]))
    check(q.returncode == 0 and read(os.path.join(w, "R", "animation.gif")) is None and
          "animation.gif" not in q.stdout,
          "nsmc run without gnuplot: the earlier animation.gif removed, not named a result", q)
    # a FIFO or a link at the GIF's path is not removed
    os.mkfifo(os.path.join(w, "f.gif"))
    p = run(w, [SIM, "--t-end", "0.3", "--animate", "f.gif"], env={"PATH": path})
    print("input: sim --animate f.gif (a FIFO) without gnuplot -> %d" % p.returncode)
    # (a FIFO named as a result is refused before the run, as every result
    # written whole is)
    check(p.returncode == 1 and "it is a FIFO" in p.stderr and
          stat.S_ISFIFO(os.lstat(os.path.join(w, "f.gif")).st_mode),
          "a FIFO at the GIF's path refused and left as it was", p)


def case_kept_names(tmp):
    """Names that were sound: the same outcome kept."""
    w = fresh(tmp, "n")
    shutil.copy(BALL, os.path.join(w, "ball.nsm"))
    os.symlink("ball.nsm", os.path.join(w, "lnk.c"))
    model = read(BALL)
    for out in ("ball.nsm", "./ball.nsm", "lnk.c", "", "./"):
        p = run(w, [NSMC, "ball.nsm", "-o", out])
        print("input: nsmc ball.nsm -o '%s' -> %d %s" % (out, p.returncode, said(p)))
        check(p.returncode == 1 and "error" in p.stderr and
              read(os.path.join(w, "ball.nsm")) == model, "-o '%s': refused, the model intact"
              % out, p)
    for sf in ("-", "/dev/stdin"):
        p = run(w, [NSMC, "run", "ball.nsm", "--set-file", sf, "--out-dir", "S", "-q",
                    "--no-plot"])
        print("input: nsmc run ball.nsm --set-file %s -> %d %s" % (sf, p.returncode, said(p)))
        check(p.returncode == 1 and "cannot read" in p.stderr, "--set-file %s: refused" % sf, p)
    for lo, pl in (("./P/l.csv", "P"), ("P//l.csv", "P/")):
        shutil.rmtree(os.path.join(w, "P"), ignore_errors=True)
        p = run(w, [SIM, "--t-end", "1", "--lyapunov", "--lyapunov-out", lo, "--plot", pl])
        print("input: sim --lyapunov --lyapunov-out %s --plot %s -> %d" % (lo, pl, p.returncode))
        check(p.returncode == 0 and (read(os.path.join(w, "P", "l.csv")) or b"").startswith(
            b"exponent"), "--lyapunov-out %s --plot %s: the spectrum in P" % (lo, pl), p)
    for name in ("a`touch PWN1`b", "nl\nsystem \"touch PWN2\"\n", 'q"; system "touch PWN3"; "',
                 "d$(touch PWN4)"):
        p = run(w, [NSMC, "run", "ball.nsm", "--out-dir", os.path.join(name, "r"), "-q",
                    "--t-end", "0.5", "--animate", "--phase"])
        print("input: nsmc run ball.nsm --out-dir %r --animate --phase -> %d"
              % (name + "/r", p.returncode))
        check(p.returncode == 0 and read(os.path.join(w, name, "r", "plot.png")) and
              read(os.path.join(w, name, "r", "animation.gif")), "the figures drawn", p)
        check(not [f for f in os.listdir(w) if f.startswith("PWN")] and
              not [f for f in os.listdir(os.path.join(w, name, "r")) if f.startswith("PWN")],
              "no command of the folder's name ran")
    p = run(w, [NSMC, "run", "ball.nsm", "--out-dir", "R", "-q", "--t-end", "0.5", "--",
                "--plot", "R"])
    print("input: nsmc run ball.nsm --out-dir R -- --plot R -> %d %s" % (p.returncode, said(p)))
    check(p.returncode == 1 and "own folder" in p.stderr,
          "-- --plot R into the run's own folder: refused, naming it", p)


def case_findings_animlate(tmp):
    """An animation into a folder that nsmc run locked after the
    simulator started: refused when it is written, the run's own script
    intact."""
    w = fresh(tmp, "l")
    shutil.copy(BALL, os.path.join(w, "ball.nsm"))
    p = run(w, [NSMC, "run", "ball.nsm", "--out-dir", "W", "-q", "--t-end", "0.5"])
    check(p.returncode == 0, "the simulator built", p)
    os.mkdir(os.path.join(w, "D"))
    env = env_for(w)
    sim = subprocess.Popen([SIM, "--t-end", "30", "--dt", "1e-5", "--animate", "D/plot.gif"],
                           cwd=w, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           text=True)
    time.sleep(0.1)
    runp = subprocess.Popen([NSMC, "run", "ball.nsm", "--out-dir", "D", "-q", "--t-end", "100",
                             "--dt", "1e-5"], cwd=w, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    start = time.time()
    while not read(os.path.join(w, "D", ".nsm-run.lock")) and time.time() - start < 30:
        time.sleep(0.01)
    if sim.poll() is not None:
        raise Failure("the simulator ended before nsmc run locked D: make it longer")
    serr = sim.communicate(timeout=120)[1]
    still = runp.poll() is None
    runp.communicate(timeout=120)
    print("input: sim --animate D/plot.gif, then nsmc run --out-dir D ending after it -> "
          "sim %d, run %d: %s" % (sim.returncode, runp.returncode,
                                  (serr.splitlines() or [""])[0][:200]))
    if not still:
        raise Failure("nsmc run ended before the simulator: make it longer")
    check(sim.returncode == 1 and "writes or removes" in serr,
          "the animation into the run's folder, written while the run held it: refused", sim)
    check(runp.returncode == 0 and (read(os.path.join(w, "D", "plot.gp")) or b"").startswith(
        b"# Plots of a simulation"), "nsmc run: its plot.gp and figures intact", runp)


CASES = {
    "findings_animlate": case_findings_animlate,
    "kept_names": case_kept_names,
    "findings_nognuplot": case_findings_nognuplot,
    "findings_moved": case_findings_moved,
    "findings_movedsweep": lambda tmp: case_findings_moved(tmp, ("sweep",)),
    "findings_animscript": case_findings_animscript,
    "findings_extras": case_findings_extras,
    "findings_studyout": case_findings_studyout,
}

if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-22cli-", case_arg=4))
