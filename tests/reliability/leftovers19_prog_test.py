#!/usr/bin/env python3
"""What the eighteenth hostile pass on the programs and Python left as found
(issue #29, docs/status.md), each a check that failed before its fix.

    tests/reliability/leftovers19_prog_test.py NSMC SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  folder   `nsmc run`, `nsmc sweep`, `nsmc continue` and `nsmc run` again
           into one folder: each, once its own results are in place,
           removes the other programs' known result files and says which
           in a note (a sweep or a continuation left a run's
           trajectory.csv, events.csv and figures beside its own results
           without a word); files of other names, and a folder under a
           result's name, stay; a sweep refused up front removes nothing;
           the simulator's --plot folder likewise.
  partial  `nsmc continue` under a file-size limit that its partial file
           meets part-way and branch.csv too: the message says how many of
           the points branch.csv.partial keeps and where (it said the
           points "could not be kept"), and the partial file holds that
           many whole lines, the first of the branch.
  nul      Python: a parameter's name and a column's name holding a NUL (and
           a newline) are shown escaped in the message (they were shown
           raw).
  longname `nsmc run` of a model named with 300 characters without
           --out-dir: its default folder is out/ and the name's first 100
           characters with a short hash, said in a note, and the run's
           landing is the closed form's (it was refused at out/NAME, "File
           name too long"); two such names alike in their first 100
           characters go to two folders; a name of 100 characters keeps
           out/NAME.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import glob
import math
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import check, limit, main, python_script, run, whole_lines  # noqa: E402

NSMC = os.path.abspath(sys.argv[1])
SRC = os.path.abspath(sys.argv[2])
FIO = os.path.join(SRC, "models", "forced_impact_oscillator.nsm")
BALL = os.path.join(SRC, "models", "bouncing_ball.nsm")

# the files `nsmc run` writes into its folder (docs/runtime.md), and the
# studies' (docs/studies.md)
RUN_FILES = {"trajectory.csv", "events.csv", "plot.png", "plot.svg", "phase.png", "phase.svg",
             "path.png", "path.svg", "plot.gp", "plot.log", "animation.gif", "animation.gp"}
SWEEP_FILES = {"section.csv", "summary.csv", "bifurcations.csv", "bifurcation.gp",
               "bifurcation.png", "bifurcation.svg", "bifurcation.log"}
CONT_FILES = {"branch.csv", "continuation.gp", "continuation.png", "continuation.svg",
              "continuation.log"}
# files and folders of the user's, never results
MINE = ("notes.txt", "trajectory.csv.mine", "my_events.csv", "plot.png.old")

# the ball of models/bouncing_ball.nsm (g = 9.81 m/s^2) dropped from 1 m lands
# at sqrt(2 h / g) (free fall, by hand)
T_LAND = math.sqrt(2 * 1.0 / 9.81)


def note_names(err):
    """The file names of the note 'removed from DIR the results of an
    earlier run or study ...: a, b, c' in err (an empty set without one)."""
    m = re.search(r"note: removed from .* does not write: (.*)", err)
    return set(m.group(1).split(", ")) if m else set()


def step(tmp, d, label, cmd, gone, made):
    """Runs cmd into folder d: exit 0, its own file made there, none of gone
    left, the note naming exactly those of gone that were there, the user's
    files and folder kept."""
    before = set(os.listdir(d)) if os.path.isdir(d) else set()
    p = run(tmp, cmd + ([d] if cmd[-1] == "--plot" else ["--out-dir", d]))
    after = set(os.listdir(d))
    said = note_names(p.stderr)
    print("  %-14s -> %d  removed (said): %s\n  %-14s    now: %s"
          % (label, p.returncode, ", ".join(sorted(said)) or "-", "", " ".join(sorted(after))))
    check(p.returncode == 0 and made in after, "%s: its results made" % label, p)
    check(not (after & gone), "%s: no other program's result left in the folder (%s)"
          % (label, ", ".join(sorted(after & gone)) or "none"), p)
    check(said == (before & gone), "%s: the note names the files removed" % label, p)
    check(all(f in after for f in MINE) and os.path.isdir(os.path.join(d, "curve.csv")),
          "%s: the user's files and the folder named curve.csv kept" % label)


def case_folder(tmp):
    """A run, a sweep, a run, a continuation and a run into one folder."""
    d = os.path.join(tmp, "one")
    os.makedirs(os.path.join(d, "curve.csv"))
    for f in MINE:
        with open(os.path.join(d, f), "w") as fh:
            fh.write("mine\n")
    runc = [NSMC, "run", FIO, "-q", "--t-end", "10"]
    sweep = [NSMC, "sweep", FIO, "--param", "omega=2.5:2.7:2", "--section", "impact:stop",
             "--transient", "5", "--record", "3"]
    cont = [NSMC, "continue", FIO, "--param", "omega=2.5:2.8"]
    step(tmp, d, "run", runc, SWEEP_FILES | CONT_FILES, "trajectory.csv")
    # a sweep refused up front (an unknown parameter) touches nothing
    keep = sorted(os.listdir(d))
    p = run(tmp, [NSMC, "sweep", FIO, "--param", "nosuch=1:2:3", "--section", "impact:stop",
                  "--out-dir", d])
    print("  refused sweep  -> %d  now: %s" % (p.returncode, " ".join(sorted(os.listdir(d)))))
    check(p.returncode != 0 and sorted(os.listdir(d)) == keep,
          "a sweep refused up front leaves the run's results", p)
    step(tmp, d, "sweep", sweep, RUN_FILES | CONT_FILES, "section.csv")
    step(tmp, d, "run again", runc, SWEEP_FILES | CONT_FILES, "trajectory.csv")
    step(tmp, d, "continue", cont, RUN_FILES | SWEEP_FILES, "branch.csv")
    step(tmp, d, "run at last", runc, SWEEP_FILES | CONT_FILES, "trajectory.csv")
    # the simulator's own --plot folder, as `nsmc run`'s
    sims = [f for f in glob.glob(os.path.join(tmp, "cache", "nsm", "*", "*"))
            if os.path.basename(f) == "forced_impact_oscillator" and os.access(f, os.X_OK)]
    check(len(sims) == 1, "the simulator is in the case's cache")
    step(tmp, d, "sweep again", sweep, RUN_FILES | CONT_FILES, "section.csv")
    step(tmp, d, "sim --plot", [sims[0], "--t-end", "10", "--plot"], SWEEP_FILES | CONT_FILES,
         "trajectory.csv")


def case_partial(tmp):
    """A continuation whose partial file and branch.csv meet a file-size
    limit."""
    cmd = [NSMC, "continue", FIO, "--param", "omega=2.5:2.8", "--no-plot"]
    p = run(tmp, cmd + ["--out-dir", os.path.join(tmp, "whole")])
    branch = open(os.path.join(tmp, "whole", "branch.csv")).read().splitlines()
    size = os.path.getsize(os.path.join(tmp, "whole", "branch.csv"))
    check(p.returncode == 0 and len(branch) > 6, "the branch without a limit: %d points, %d bytes"
          % (len(branch) - 1, size), p)
    d = os.path.join(tmp, "lim")
    p = run(tmp, cmd + ["--out-dir", d], preexec=limit(size // 2))
    said = [ln for ln in p.stderr.splitlines() if "points of this continuation" in ln]
    print("  under a limit of %d bytes -> %d  %s" % (size // 2, p.returncode,
                                                      said[-1] if said else p.stderr[-200:]))
    part = os.path.join(d, "branch.csv.partial")
    kept = whole_lines(part)
    rows = open(part).read().splitlines()
    m = re.search(r"the first (\d+) of the (\d+) points of this continuation (?:is|are) kept in "
                  r"(\S+), in whole lines", said[-1] if said else "")
    check(p.returncode == 1 and m is not None, "the message says what is kept and where", p)
    check(int(m.group(1)) == kept and int(m.group(2)) == len(branch) - 1 and 0 < kept < len(branch) - 1
          and m.group(3) == part, "%d of %d points said, %d whole lines in %s"
          % (int(m.group(1)), int(m.group(2)), kept, part), p)
    check(rows == branch[:kept + 1], "the partial file holds the first points of the branch")
    check("could not be kept" not in p.stderr, "nothing says the points could not be kept", p)


PY_NUL = r'''
import sys
import nsm
m = nsm.compile(sys.argv[1])
r = m.run(t_end=0.1)
for what, call in (("Model.run(params={'e\\0x': 0.5})", lambda: m.run(t_end=0.1, params={"e\0x": 0.5})),
                   ("Model.run(params={'e\\nx': 0.5})", lambda: m.run(t_end=0.1, params={"e\nx": 0.5})),
                   ("Model.sweep('e\\0', ...)", lambda: m.sweep("e\0", [0.5], "impact:stop")),
                   ("Model.continuation('e\\0', ...)", lambda: m.continuation("e\0", 0.5, 0.6)),
                   ("Result['x\\0y']", lambda: r["x\0y"])):
    try:
        call()
        raise SystemExit("%s: accepted" % what)
    except nsm.Error as e:
        text = str(e)
        print("  %-36s %s: %r" % (what, type(e).__name__, text[:90]))
        assert "\0" not in text and "\n" not in text, "%s: a raw NUL or newline in %r" % (what, text)
        assert "\\x00" in text or "\\n" in text, "%s: the character not shown escaped" % what
'''


def case_nul(tmp):
    """A NUL and a newline in names given to Python."""
    python_script(tmp, "nul.py", PY_NUL, [BALL], "names with a NUL or a newline shown escaped")


def renamed(tmp, name, path):
    """The bouncing ball's model under model name name, written to tmp/path."""
    text = open(BALL).read()
    first = text.split("\n", 1)[0].split()[1]
    full = os.path.join(tmp, path)
    with open(full, "w") as f:
        f.write(text.replace("model " + first, "model " + name, 1))
    return full


def landing_ok(events):
    """Whether the first event of events.csv is the landing at sqrt(2 h / g)."""
    rows = [ln.split(",") for ln in open(events).read().splitlines()[1:]]
    return bool(rows) and rows[0][1] == "impact" and abs(float(rows[0][0]) - T_LAND) < 1e-9


def case_longname(tmp):
    """Models named with 300 characters (two alike in their first 100), and
    one of 100, run without --out-dir."""
    seen = []
    for tail, n in (("a", 300), ("b", 300), ("", 100)):
        name = "x" * (n - len(tail)) + tail
        model = renamed(tmp, name, "m%s%d.nsm" % (tail, n))
        p = run(tmp, [NSMC, "run", model, "--no-plot", "-q", "--t-end", "1"])
        folders = sorted(set(os.listdir(os.path.join(tmp, "out"))) - set(seen))
        print("  a model named with %d characters (ending %r) -> %d  folder %s  %s"
              % (n, tail, p.returncode, [f[:6] + "..." + f[-12:] for f in folders],
                 p.stderr.strip().splitlines()[-1][:60] + "..." if p.stderr.strip() else ""))
        check(p.returncode == 0 and len(folders) == 1, "it runs into one new folder", p)
        f = folders[0]
        seen.append(f)
        if n <= 100:
            check(f == name and "note: the model's name" not in p.stderr,
                  "a name of %d characters keeps out/NAME, nothing said" % n, p)
        else:
            check(re.fullmatch(re.escape(name[:100]) + "-[0-9a-f]{8}", f) is not None,
                  "its folder is the name's first 100 characters and a hash", p)
            check(os.path.join("out", f) in p.stderr, "a note names the folder", p)
        check(landing_ok(os.path.join(tmp, "out", f, "events.csv")),
              "the landing at sqrt(2 h / g) in %s" % f[-12:])


if __name__ == "__main__":
    sys.exit(main({"folder": case_folder, "partial": case_partial, "nul": case_nul,
                   "longname": case_longname}, "nsm_left19prog_", case_arg=3))
