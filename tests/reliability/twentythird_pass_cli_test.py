#!/usr/bin/env python3
"""A twenty-third hostile pass over the nsmc programs (issue #29): a run's
folder moved mid-run, studies stopped after their folder moved, and the
sound inputs kept against regressions.

    tests/reliability/twentythird_pass_cli_test.py NSMC SIM SOURCE_DIR CASE

SIM is sim_bouncing_ball.

Cases (each under 20 s in the normal build):
  findings_runmoved `nsmc run --out-dir D` whose folder D is moved to D2
                   while the simulator runs, a link to another run's folder
                   E (or a file, or nothing) put in its place: nsmc run read
                   E's events and printed them as this run's summary, removed
                   E's figures and an earlier study's summary.csv, drew E's
                   trajectory, exit 0.  Now refused once the simulator ends,
                   nothing read, removed or drawn in E, the run's files
                   whole in D2.
  findings_stopmoved `nsmc sweep` and `nsmc continue` stopped by SIGINT
                   after their folder D was moved to D2 (a link to a folder
                   E, a file or nothing in its place): "kept in
                   D/NAME.partial", where there is none (E's, a file's, or
                   no such path).  Now the message says the folder was
                   moved and the partial files are in the folder the study
                   started in (whole lines in D2).
  findings_simmoved the simulator's --plot D, its --animate D/a.gif and
                   nsmc run --animate, D moved mid-run and a link to another
                   run's folder E put in its place: E's summary.csv removed
                   and its figures drawn from E's trajectory, or E's
                   animation and script replaced, exit 0 (the GIF and the
                   figures were written by path at the end).  Now refused
                   (exit 1), E intact; a link to the moved folder itself
                   is drawn into.
  findings_animfail nsmc run --animate --phase over an earlier run's
                   figures and GIF, the animation failing after the run
                   (gnuplot's log cannot be written; a file-size limit does
                   the same): exit 1 with only the simulator's "no
                   animation", nothing summarised, and the earlier run's
                   figures and GIF left beside this run's trajectory (the
                   simulator's exit 1 taken for a refused option).  Now the
                   run is summarised and drawn, the earlier GIF removed,
                   exit 1.
  findings_basinplot `nsmc sweep --basin X --basin Y --plot COLUMN`: the
                   column taken without a word (basins.png colours the
                   initial states by attractor and draws no column), where
                   --continue and --floquet are refused.  Now refused
                   before the grid.
  findings_contearly `nsmc continue --out-dir D` whose folder D is moved to
                   D2 before its first point, a link to a folder E put in
                   its place: the partial file (opened at the first point,
                   by path) was made in E, never locked, and the end said
                   the points were in the folder the continuation started
                   in.  Now no partial file is made once the folder has
                   moved; the end (exit 1) or a stop (130) says the points
                   are not written.
  kept_sound       what was tried and found sound, kept against regressions:
                   empty attached values (--set-file=, --set=, --out=,
                   --out-dir=, --section-period=, --jobs=, --start=, --tol=)
                   refused in nsmc run, sweep and continue; carets on a CRLF
                   line and under a non-ASCII character; `-- --set-file=P`
                   taken (e = 0.5 at the first impact); `-- --out=R/
                   trajectory.h5` written beside the run's CSV.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import os
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import Failure, check, env_for, main, no_gnuplot_path, whole_lines  # noqa: E402

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


def said(text):
    """The first line of a stderr text that is not the cache's note."""
    lines = [ln for ln in text.splitlines()
             if "cached " not in ln and "compiling the" not in ln]
    return lines[0] if lines else ""


def clear(tmp, *names):
    """Removes tmp/NAME for each name (a folder, a file or a link)."""
    for n in names:
        path = os.path.join(tmp, n)
        if os.path.islink(path) or os.path.isfile(path):
            os.remove(path)
        shutil.rmtree(path, ignore_errors=True)


def run_in(tmp, cmd):
    """Runs cmd in tmp with its own program cache; the CompletedProcess."""
    return subprocess.run(cmd, cwd=tmp, env=env_for(tmp), capture_output=True, text=True,
                          timeout=120)


def snapshot(folder):
    """Every file of folder (not the lock) with its bytes."""
    return {f: read(os.path.join(folder, f)) for f in sorted(os.listdir(folder))
            if f != ".nsm-run.lock"}


def replace_by(tmp, act):
    """Moves tmp/D to tmp/D2 and puts act in its place: "link" (a link to
    tmp/E), "file" (a file) or "gone" (nothing)."""
    d = os.path.join(tmp, "D")
    os.rename(d, os.path.join(tmp, "D2"))
    if act == "link":
        os.symlink(os.path.join(tmp, "E"), d)
    elif act == "file":
        with open(d, "w") as f:
            f.write("a file\n")


def wait_lines(pr, path, n, limit=60):
    """Waits until path holds n lines (pr still running); Failure when pr
    ends first."""
    start = time.time()
    while time.time() - start < limit and pr.poll() is None:
        if (read(path) or b"").count(b"\n") >= n:
            return
        time.sleep(0.01)
    raise Failure("the program ended before %s held %d lines: make it longer" % (path, n))


def case_findings_runmoved(tmp):
    """nsmc run's folder moved while the simulator ran: nothing read,
    removed or drawn in what stands in its place."""
    shutil.copy(BALL, os.path.join(tmp, "ball.nsm"))
    first = subprocess.run([NSMC, "run", "ball.nsm", "--out-dir", "E", "-q", "--t-end", "0.5"],
                           cwd=tmp, env=env_for(tmp), capture_output=True, text=True)
    check(first.returncode == 0, "the earlier run into E: exit 0", first)
    with open(os.path.join(tmp, "E", "summary.csv"), "w") as f:
        f.write("omega,status\n")           # an earlier study's result in E
    before = snapshot(os.path.join(tmp, "E"))
    for act in ("link", "file", "gone"):
        clear(tmp, "D", "D2")
        pr = subprocess.Popen([NSMC, "run", "ball.nsm", "--out-dir", "D", "-q", "--t-end", "40",
                               "--dt", "1e-5"], cwd=tmp, env=env_for(tmp),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        wait_lines(pr, os.path.join(tmp, "D", "trajectory.csv"), 3)
        replace_by(tmp, act)
        alive = pr.poll() is None
        out, err = pr.communicate(timeout=120)
        pr.stderr = err         # for check's report
        if not alive:
            raise Failure("nsmc run ended as its folder was moved: make it longer")
        print("input: nsmc run ball.nsm --out-dir D, D moved to D2 mid-run, %s in its place "
              "-> %d %s" % ({"link": "a link to the earlier run's folder E", "file": "a file",
                            "gone": "nothing"}[act], pr.returncode, said(err)[:240]))
        check(pr.returncode == 1 and "was moved, removed or replaced" in err,
              "nsmc run, its folder moved and %s in its place: refused" % act, pr)
        check("events:" not in out and "plots:" not in out,
              "nsmc run, its folder moved: no other run's events summarised, nothing drawn")
        check(snapshot(os.path.join(tmp, "E")) == before,
              "nsmc run, its folder moved: E's files (figures, summary.csv) as they were")
        rows = whole_lines(os.path.join(tmp, "D2", "trajectory.csv"))
        check(rows > 3 and whole_lines(os.path.join(tmp, "D2", "events.csv")) > 3,
              "nsmc run, its folder moved: its trajectory and events whole in D2")


def case_findings_stopmoved(tmp):
    """A sweep or a continuation stopped after its folder moved: the
    message does not name a partial file where there is none."""
    cont = ["--param", "omega=1.5:2.5", "--ds", "0.0003", "--ds-max", "0.0003",
            "--max-points", "100000", "--no-plot"]
    sweep = ["--param", "omega=2:3:2000", "--section", "period:2*pi/omega", "--transient",
             "50", "--record", "20"]
    for what, opts, partials in (("continue", cont, ["branch.csv.partial"]),
                                 ("sweep", sweep, ["section.csv.partial",
                                                   "summary.csv.partial"])):
        for act in ("link", "file", "gone"):
            clear(tmp, "D", "D2", "E")
            os.mkdir(os.path.join(tmp, "E"))
            pr = subprocess.Popen([NSMC, what, FIO, "--out-dir", "D"] + opts, cwd=tmp,
                                  env=env_for(tmp), stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, text=True)
            wait_lines(pr, os.path.join(tmp, "D", partials[0]), 3)
            replace_by(tmp, act)
            time.sleep(0.2)
            alive = pr.poll() is None
            pr.send_signal(signal.SIGINT)
            err = pr.communicate(timeout=120)[1]
            pr.stderr = err     # for check's report
            if not alive:
                raise Failure("nsmc %s ended before SIGINT: make it longer" % what)
            print("input: nsmc %s --out-dir D, D moved to D2, %s in its place, then SIGINT -> "
                  "%d %s" % (what, act, pr.returncode, said(err)[:300]))
            check(pr.returncode == 130, "nsmc %s: stopped by SIGINT (130)" % what, pr)
            check("D/" + partials[0] not in err and "was moved, removed or replaced" in err,
                  "nsmc %s, its folder moved: D/%s not named, the move said"
                  % (what, partials[0]), pr)
            check(not os.listdir(os.path.join(tmp, "E")), "nsmc %s: nothing written into E"
                  % what)
            for f in partials:
                check(whole_lines(os.path.join(tmp, "D2", f)) >= 2 and f in err,
                      "nsmc %s: D2/%s named, whole lines" % (what, f))


def case_findings_simmoved(tmp):
    """The simulator's --plot D and --animate D/a.gif (and nsmc run
    --animate), D moved mid-run and a link to another run's folder E put
    in its place: nothing removed or drawn in E; a link to the moved
    folder itself is that folder and is drawn."""
    shutil.copy(BALL, os.path.join(tmp, "ball.nsm"))
    first = subprocess.run([NSMC, "run", "ball.nsm", "--out-dir", "E", "-q", "--t-end", "0.5",
                            "--animate"], cwd=tmp, env=env_for(tmp), capture_output=True,
                           text=True)
    check(first.returncode == 0, "the earlier run into E (with its animation): exit 0", first)
    with open(os.path.join(tmp, "E", "summary.csv"), "w") as f:
        f.write("omega,status\n")
    before = snapshot(os.path.join(tmp, "E"))
    long_run = ["--t-end", "15", "--dt", "1e-5"]
    for label, cmd, drawn in (
            ("sim --plot D", [SIM, "--plot", "D"] + long_run, "plot.png"),
            ("sim --out D/t.csv --animate D/a.gif", [SIM, "--out", "D/t.csv", "--animate",
                                                     "D/a.gif"] + long_run, "a.gif"),
            ("nsmc run --animate --no-plot --out-dir D", [NSMC, "run", "ball.nsm", "--out-dir",
                                                          "D", "-q", "--animate",
                                                          "--no-plot"] + long_run,
             "animation.gif")):
        for act in ("link", "back"):
            clear(tmp, "D", "D2")
            if "D/t.csv" in cmd:
                os.mkdir(os.path.join(tmp, "D"))
            pr = subprocess.Popen(cmd, cwd=tmp, env=env_for(tmp), stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
            csv = "t.csv" if "D/t.csv" in cmd else "trajectory.csv"
            wait_lines(pr, os.path.join(tmp, "D", csv), 3)
            os.rename(os.path.join(tmp, "D"), os.path.join(tmp, "D2"))
            os.symlink(os.path.join(tmp, "E" if act == "link" else "D2"), os.path.join(tmp, "D"))
            alive = pr.poll() is None
            err = pr.communicate(timeout=120)[1]
            pr.stderr = err     # for check's report
            if not alive:
                raise Failure("%s ended as its folder was moved: make it longer" % label)
            print("input: %s, D moved to D2 mid-run, a link to %s in its place -> %d %s"
                  % (label, "another run's folder E" if act == "link" else "D2",
                     pr.returncode, [ln for ln in err.splitlines() if ": error:" in ln][:1]))
            if act == "back":
                check(pr.returncode == 0 and read(os.path.join(tmp, "D2", drawn)),
                      "%s: a link to the moved folder is that folder: %s drawn there"
                      % (label, drawn), pr)
                continue
            check(pr.returncode == 1 and "was moved, removed or replaced" in err,
                  "%s, its folder replaced by a link to E: refused" % label, pr)
            check(snapshot(os.path.join(tmp, "E")) == before,
                  "%s: E's files (figures, animation, summary.csv) as they were" % label)
            check(whole_lines(os.path.join(tmp, "D2", csv)) > 3,
                  "%s: the trajectory whole in D2" % label)


def case_findings_animfail(tmp):
    """nsmc run --animate whose animation fails after the run (its log
    cannot be written): the run summarised, its figures drawn, the earlier
    run's figures and GIF not left as this run's, exit 1."""
    shutil.copy(BALL, os.path.join(tmp, "ball.nsm"))
    first = subprocess.run([NSMC, "run", "ball.nsm", "--out-dir", "U", "-q", "--t-end", "0.5",
                            "--animate", "--phase"], cwd=tmp, env=env_for(tmp),
                           capture_output=True, text=True)
    check(first.returncode == 0, "the earlier run into U (figures, animation): exit 0", first)
    u = os.path.join(tmp, "U")
    earlier = {f: read(os.path.join(u, f)) for f in ("plot.png", "phase.svg", "plot.gp")}
    # gnuplot fails on the animation's script alone (a folder named as its
    # log is refused before the run now, as every result's is): a gnuplot
    # first on PATH that exits 1 for animation.gp and runs the real one else
    path = no_gnuplot_path(tmp)
    failing = os.path.join(tmp, "failbin")
    os.mkdir(failing)
    with open(os.path.join(failing, "gnuplot"), "w") as f:
        f.write('#!/bin/sh\nfor a in "$@"; do last="$a"; done\n'
                'case "$last" in *animation.gp) echo "gnuplot: cannot draw" >&2; exit 1;; esac\n'
                'exec %s "$@"\n' % shutil.which("gnuplot"))
    os.chmod(os.path.join(failing, "gnuplot"), 0o755)
    p = subprocess.run([NSMC, "run", "ball.nsm", "--out-dir", "U", "-q", "--t-end", "3",
                        "--animate", "--phase"], cwd=tmp,
                       env=dict(env_for(tmp), PATH=failing + ":" + path),
                       capture_output=True, text=True)
    print("input: nsmc run ball.nsm --out-dir U --t-end 3 --animate --phase over an earlier "
          "run's figures, gnuplot failing on the animation -> %d %s / %s"
          % (p.returncode, said(p.stderr)[:200], p.stdout.splitlines()[:1]))
    check(p.returncode == 1 and "no animation" in p.stderr,
          "the animation failed: exit 1, said", p)
    check("events: 4" in p.stdout and "plots: U/plot.png" in p.stdout,
          "the run summarised (its 4 impacts) and its figures drawn", p)
    for f, data in earlier.items():
        check(read(os.path.join(u, f)) != data, "U/%s is this run's, not the earlier one's" % f)
    check(not os.path.exists(os.path.join(u, "animation.gif")) and
          "animation.gif" not in p.stdout,
          "the earlier run's animation.gif removed, not named a result")


def case_findings_basinplot(tmp):
    """A basin study given --plot COLUMN (either form): refused before the
    grid, no folder made; the same study without it runs."""
    base = [NSMC, "sweep", FIO, "--section", "period:2*pi/omega", "--transient", "3",
            "--record", "2", "--basin", "M.x=-1:1:2", "--basin", "M.v=-1:1:2"]
    for extra in (["--plot", "M.v"], ["--plot=M.x"], ["--plot", "t"]):
        clear(tmp, "B")
        p = subprocess.run(base + ["--out-dir", "B"] + extra, cwd=tmp, env=env_for(tmp),
                           capture_output=True, text=True)
        print("input: nsmc sweep FIO --basin M.x=-1:1:2 --basin M.v=-1:1:2 %s -> %d %s"
              % (" ".join(extra), p.returncode, said(p.stderr)[:200]))
        check(p.returncode == 1 and "does not apply" in p.stderr,
              "--basin with %s: refused, naming --plot" % " ".join(extra), p)
        check(not os.path.exists(os.path.join(tmp, "B")), "--basin with %s: no folder made"
              % " ".join(extra))
    p = subprocess.run(base + ["--out-dir", "B"], cwd=tmp, env=env_for(tmp),
                       capture_output=True, text=True)
    print("input: nsmc sweep FIO --basin M.x=-1:1:2 --basin M.v=-1:1:2 -> %d" % p.returncode)
    check(p.returncode in (0, 3) and read(os.path.join(tmp, "B", "basins.csv")),
          "--basin without --plot: basins.csv written", p)


def case_findings_contearly(tmp):
    """A continuation whose folder is moved before its first point (a long
    transient), a link to a folder E put in its place: no partial file in
    E, and the end or the stop says the points are not written."""
    for act in ("end", "stop"):
        clear(tmp, "D", "D2", "E")
        os.mkdir(os.path.join(tmp, "E"))
        pr = subprocess.Popen([NSMC, "continue", FIO, "--param", "omega=2.4:2.6", "--out-dir",
                               "D", "--no-plot", "--transient", "100000"], cwd=tmp,
                              env=env_for(tmp), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
        start = time.time()
        while (not os.path.exists(os.path.join(tmp, "D", ".nsm-run.lock")) and
               time.time() - start < 60 and pr.poll() is None):
            time.sleep(0.005)
        replace_by(tmp, "link")
        early = not os.path.exists(os.path.join(tmp, "D2", "branch.csv.partial"))
        if act == "stop":
            time.sleep(0.2)
            pr.send_signal(signal.SIGINT)
        err = pr.communicate(timeout=120)[1]
        pr.stderr = err     # for check's report
        if not early:
            raise Failure("the first point came before the folder was moved: make the "
                          "transient longer")
        print("input: nsmc continue --out-dir D --transient 100000, D moved to D2 before the "
              "first point, a link to E in its place%s -> %d %s"
              % (", then SIGINT" if act == "stop" else "", pr.returncode, said(err)[:240]))
        check(pr.returncode == (130 if act == "stop" else 1) and
              ("not written" in err or "nothing written" in err),
              "nsmc continue, its folder moved before the first point (%s): the points said "
              "not written" % act, pr)
        check(not os.listdir(os.path.join(tmp, "E")),
              "nsmc continue (%s): no partial file made in E" % act)


def case_kept_sound(tmp):
    """What was tried and found sound, kept against regressions: empty
    attached values refused in every program, carets on a CRLF line and
    on a non-ASCII character, `-- --set-file=P` taken in its place, a
    basin study's options refused with their reason, an HDF5 file named
    like the run's trajectory written beside it."""
    shutil.copy(BALL, os.path.join(tmp, "ball.nsm"))
    with open(os.path.join(tmp, "crlf.nsm"), "wb") as f:
        f.write(b"model x\r\nparam m = 1 kg\r\nmass B = m\r\n"
                b"gap g: B.x >= 0, impact(e = 2)\r\n")
    with open(os.path.join(tmp, "utf.nsm"), "wb") as f:
        f.write("model \u00e9 \"\u00fc\"\nmass B = 1 kg\n".encode())
    for name, line, col in (("crlf.nsm", 4, 29), ("utf.nsm", 1, 7)):
        p = run_in(tmp, [NSMC, "--check", name])
        print("input: nsmc --check %s -> %d %s" % (name, p.returncode, said(p.stderr)))
        lines = p.stderr.splitlines()
        check(p.returncode == 1 and lines[0].startswith("%s:%d:%d: error:" % (name, line, col))
              and len(lines) >= 3 and lines[2].index("^") - lines[2].index("|") - 1 == col,
              "%s: file:line:col, the source line and a caret under column %d" % (name, col), p)
    sweep = [NSMC, "sweep", FIO, "--param", "omega=2:3:3", "--section=period:2*pi/omega"]
    cont = [NSMC, "continue", FIO, "--param=omega=2.4:2.6", "--out-dir=C", "--no-plot"]
    runs = [NSMC, "run", "ball.nsm", "-q", "--t-end", "0.1", "--out-dir", "R"]
    for cmd, word in ((runs + ["--set-file="], "cannot read ''"),
                      (runs + ["--set="], "--set needs NAME=VALUE"),
                      (runs + ["--out="], "takes an HDF5 file"),
                      (sweep + ["--out-dir="], "--out-dir needs a folder"),
                      (sweep + ["--out-dir", "S", "--section-period="], "needs a period"),
                      (sweep + ["--out-dir", "S", "--jobs="], "--jobs is a whole number"),
                      (cont + ["--start="], "expected 2 numbers"),
                      (cont + ["--tol="], "expected a positive number")):
        p = run_in(tmp, cmd)
        print("input: %s -> %d %s" % (" ".join("FIO" if c == FIO else c for c in cmd[1:]),
                                      p.returncode, said(p.stderr)[:160]))
        check(p.returncode == 1 and word in p.stderr, "%s: refused" % cmd[-1], p)
    with open(os.path.join(tmp, "p.txt"), "w") as f:
        f.write("e = 0.5\n")
    p = run_in(tmp, [NSMC, "run", "ball.nsm", "-q", "--no-plot", "--out-dir", "R", "--",
                     "--t-end=1", "--set-file=p.txt", "--out=R/trajectory.h5"])
    print("input: nsmc run ball.nsm --out-dir R -- --t-end=1 --set-file=p.txt "
          "--out=R/trajectory.h5 -> %d" % p.returncode)
    ev = (read(os.path.join(tmp, "R", "events.csv")) or b"").decode().splitlines()
    check(p.returncode == 0 and len(ev) > 1, "-- --set-file=p.txt --out=R/trajectory.h5: exit 0", p)
    row = ev[1].split(",")
    check(abs(float(row[4]) + 0.5 * float(row[3])) < 1e-9 * abs(float(row[3])),
          "-- --set-file=p.txt: e = 0.5 taken (v+ = -0.5 v-)")
    check((read(os.path.join(tmp, "R", "trajectory.h5")) or b"")[:4] == b"\x89HDF" and
          whole_lines(os.path.join(tmp, "R", "trajectory.csv")) > 10,
          "-- --out=R/trajectory.h5: HDF5 beside the run's own trajectory.csv")


CASES = {
    "findings_runmoved": case_findings_runmoved,
    "findings_stopmoved": case_findings_stopmoved,
    "findings_simmoved": case_findings_simmoved,
    "findings_animfail": case_findings_animfail,
    "findings_basinplot": case_findings_basinplot,
    "findings_contearly": case_findings_contearly,
    "kept_sound": case_kept_sound,
}

if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-23cli-", case_arg=4))
