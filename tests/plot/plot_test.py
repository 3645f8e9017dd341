#!/usr/bin/env python3
"""The plots of models that used to break them (label workflow).

    tests/plot/plot_test.py NSMC SOURCE_DIR WORK CASE

Each case runs `nsmc run MODEL --phase` on a model of tests/plot and reads
the gnuplot script, the CSV files and what nsmc printed:

  columns    chain20_full (60 columns of indexed families P[i].x, P[i].v,
             G[i].force): the script names every column of the trajectory in
             its column map, with the panel that draws it, and draws it
             (`using 1:K`); the phase portraits pair P[i].x with P[i].v for
             all twenty beads; no note, nothing left out.
  left_out   left_out (ten kinds of output and unit, eight panels): the two
             columns beyond are listed as not drawn, with the reason, and
             nsmc's note says so; every other column is drawn.
  impacts    impacts2000 (2001 impacts): every impact is within the stated
             merging distance of a drawn mark, the last one included, and the
             note gives the counts the script holds.
  contacts   contacts32 (32 contacts): the timeline has a row per contact,
             every stick of events.csv starts a bar on its contact's row.
"""
import csv
import math
import os
import re
import subprocess
import sys

FAILS = []


def check(cond, what):
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        FAILS.append(what)


def run_model(nsmc, src, work, model):
    """nsmc run tests/plot/MODEL.nsm --phase; returns (out dir, stdout, stderr)."""
    out = os.path.join(work, model)
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "cache"))
    p = subprocess.run([nsmc, "run", os.path.join(src, "tests", "plot", model + ".nsm"),
                        "--out-dir", out, "--phase"], capture_output=True, text=True, env=env,
                       timeout=600)
    print(p.stdout[-2000:], p.stderr[-2000:])
    check(p.returncode == 0, "%s: nsmc run exit status 0 (got %d)" % (model, p.returncode))
    png = os.path.join(out, "plot.png")
    check(os.path.exists(png) and open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n",
          "%s: plot.png drawn" % model)
    return out, p.stdout, p.stderr


def header(out):
    """(name, unit) of the trajectory's columns after t, as the CSV header has them."""
    with open(os.path.join(out, "trajectory.csv")) as f:
        fields = next(csv.reader(f))[1:]
    cols = []
    for fld in fields:
        m = re.match(r"^(.*) \[([^\]]*)\]$", fld)
        cols.append((m.group(1), m.group(2)) if m else (fld, ""))
    return cols


def script(out):
    with open(os.path.join(out, "plot.gp")) as f:
        return f.read()


def block(gp, name):
    """The rows of a data block $name of the script."""
    m = re.search(r"^\$%s << EOD\n(.*?)^EOD$" % name, gp, re.S | re.M)
    return [l.split(",") for l in m.group(1).splitlines()] if m else None


def check_columns_drawn(model, gp, cols, skip=()):
    """Every column but those in skip: in the map with its panel, and drawn."""
    for k, (name, unit) in enumerate(cols, start=2):
        if name in skip:
            continue
        shown = "%s [%s]" % (name, unit) if unit else name
        entry = re.search(r"^#   column %d: %s -> panel (.+)$" % (k, re.escape(shown)), gp, re.M)
        drawn = re.search(r"skip 1 using 1:%d with lines" % k, gp)
        if not (entry and drawn):
            check(False, "%s: column %d (%s) named in the map and drawn" % (model, k, shown))
            return False
    return True


def case_columns(nsmc, src, work):
    out, so, se = run_model(nsmc, src, work, "chain20_full")
    gp, cols = script(out), header(out)
    check(len(cols) == 60, "60 columns in the trajectory (got %d)" % len(cols))
    check(cols[0] == ("P[1].x", "m") and cols[20] == ("P[1].v", "m/s")
          and cols[40] == ("G[1].force", "N"), "indexed names with their units: %s, %s, %s"
          % (cols[0], cols[20], cols[40]))
    check(check_columns_drawn("chain20_full", gp, cols),
          "every column named in the script's map with its panel and drawn")
    check("not drawn" not in gp and "note:" not in so + se, "nothing left out, no note")
    for name, label in (("P[1].x", "position [m]"), ("P[20].v", "velocity [m/s]"),
                        ("G[19].force", "force [N]")):
        check(re.search(r"^#   column \d+: %s \[[^\]]*\] -> panel %s$"
                        % (re.escape(name), re.escape(label)), gp, re.M) is not None,
              "%s in the panel '%s'" % (name, label))
    # (the script draws the time plot twice: PNG, then SVG)
    check(gp.count('title "P[1].x"') == 2 and gp.count('title "P[20].x"') == 2
          and gp.count('title "P[2].x"') == 0 and "(20 lines in order)" in gp,
          "the positions' panel names its first and last line only")
    idx = {name: k for k, (name, _) in enumerate(cols, start=2)}
    pairs = all(re.search(r"using %d:%d with lines" % (idx["P[%d].x" % i], idx["P[%d].v" % i]), gp)
                for i in range(1, 21))
    check(pairs, "phase portraits of all twenty indexed beads")
    check(os.path.exists(os.path.join(out, "phase.png")), "phase.png drawn")


def case_left_out(nsmc, src, work):
    out, so, se = run_model(nsmc, src, work, "left_out")
    gp, cols = script(out), header(out)
    names = [n for n, _ in cols]
    check(names == ["M.x", "M.v", "M.a", "C.gap", "C.force", "energy.kinetic", "energy.error",
                    "m", "k", "c"], "ten columns: %s" % names)
    left = re.findall(r"^#   column (\d+): (.*) -> not drawn: (.+)$", gp, re.M)
    check(len(left) == 2 and all("too many kinds of output and units" in r for _, _, r in left),
          "two columns listed as not drawn, with the reason: %s" % left)
    check(check_columns_drawn("left_out", gp, cols, skip=[n.split(" [")[0] for _, n, _ in left]),
          "every other column drawn")
    check(re.search(r"note: 2 columns not drawn \(.*\): more than 8 kinds of output and units",
                    so) is not None, "nsmc's note says which and why")
    check("Note: 2 columns not drawn" in gp, "the picture carries the note")


def case_impacts(nsmc, src, work):
    out, so, se = run_model(nsmc, src, work, "impacts2000")
    gp = script(out)
    with open(os.path.join(out, "events.csv")) as f:
        imp = [float(r["t"]) for r in csv.DictReader(f) if r["kind"] == "impact"]
    check(len(imp) == 2001, "2001 impacts in events.csv (got %d)" % len(imp))
    marks = block(gp, "impacts")
    check(marks is not None and len(marks) > 500, "the timeline holds the impact marks")
    m = re.search(r"note: (\d+) of (\d+) impact marks drawn: impacts less than ([0-9.e+-]+) s "
                  r"apart on a contact share one mark", so)
    check(m is not None, "nsmc's note says the marks were merged")
    if m and marks:
        check(int(m.group(1)) == len(marks) and int(m.group(2)) == len(imp),
              "the note's counts: %s of %s, the script has %d" % (m.group(1), m.group(2),
                                                                   len(marks)))
        bin_ = float(m.group(3)) * 1.001
        drawn = sorted(float(r[0]) for r in marks)
        j, ok = 0, True
        for t in imp:
            while j + 1 < len(drawn) and drawn[j + 1] <= t:
                j += 1
            if not (drawn[j] <= t < drawn[j] + bin_):
                ok = False
                print("impact at %.9g s has no mark within %g s before it" % (t, bin_))
                break
        check(ok, "every impact within the merging distance of a drawn mark (none cut)")
        check(abs(drawn[-1] - imp[-1]) < bin_, "the last impact is marked")


def case_contacts(nsmc, src, work):
    out, so, se = run_model(nsmc, src, work, "contacts32")
    gp = script(out)
    ytics = re.search(r"^set ytics \((.*)\) font", gp, re.M)
    check(ytics is not None, "the timeline's rows are labelled")
    if ytics:
        labels = dict((int(r), n) for n, r in re.findall(r'"([^"]+)" (\d+)', ytics.group(1)))
        check(labels.get(32) == "C[1]" and labels.get(2) == "C[31]" and len(labels) == 16,
              "32 rows, every second one named, C[1] on top: %s" % sorted(labels.items())[:4])
    bars = block(gp, "closed")
    with open(os.path.join(out, "events.csv")) as f:
        sticks = [(float(r["t"]), r["contact"]) for r in csv.DictReader(f) if r["kind"] == "stick"]
    check(len(sticks) > 10 and bars is not None, "sticks in events.csv (%d) and bars" % len(sticks))
    if bars:
        rows = {}
        for t0, t1, row, rgb in bars:
            rows.setdefault(int(row), []).append(float(t0))
        ok = all(any(abs(t - s) < 1e-9 for s in rows.get(33 - int(c[2:-1]), []))
                 for t, c in sticks)
        check(ok, "every stick starts a bar on its contact's own row")
        check(set(rows) <= set(range(1, 33)), "bars only on the 32 rows")


def case_planar(nsmc, src, work):
    """A planar model: x, y, phi and their velocities in their panels, phase
    portraits pairing D.x with D.vx and D.phi with D.omega, and path.png with
    both walls where the run's parameters put them (--set alpha moves the
    tilted floor); parameters set behind "--" leave the walls out, with a note."""
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "cache"))
    model = os.path.join(src, "tests", "plot", "planar.nsm")
    out = os.path.join(work, "planar")
    p = subprocess.run([nsmc, "run", model, "--out-dir", out, "--phase", "--set", "alpha=0.3"],
                       capture_output=True, text=True, env=env, timeout=600)
    print(p.stdout[-2000:], p.stderr[-2000:])
    check(p.returncode == 0, "planar: nsmc run exit status 0 (got %d)" % p.returncode)
    png = os.path.join(out, "path.png")
    check(os.path.exists(png) and open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n",
          "planar: path.png drawn")
    check(os.path.exists(os.path.join(out, "path.svg")), "planar: path.svg drawn")
    check("path.png" in p.stdout, "planar: nsmc run names path.png")
    gp, cols = script(out), header(out)
    check([c for c, _ in cols] == ["D.x", "D.vx", "D.y", "D.vy", "D.phi", "D.omega"],
          "planar: default outputs are the coordinates and their velocities (%s)" % cols)
    check(dict(cols) == {"D.x": "m", "D.vx": "m/s", "D.y": "m", "D.vy": "m/s",
                         "D.phi": "rad", "D.omega": "rad/s"}, "planar: units")
    for name, label in (("D.y", "position [m]"), ("D.phi", "angle [rad]"),
                        ("D.vy", "velocity [m/s]"), ("D.omega", "angular velocity [rad/s]")):
        check(re.search(r"^#   column \d+: %s \[[^\]]*\] -> panel %s$"
                        % (re.escape(name), re.escape(label)), gp, re.M) is not None,
              "planar: %s in the panel '%s'" % (name, label))
    idx = {name: k for k, (name, _) in enumerate(cols, start=2)}
    for x, v in (("D.x", "D.vx"), ("D.y", "D.vy"), ("D.phi", "D.omega")):
        check(re.search(r"using %d:%d with lines" % (idx[x], idx[v]), gp) is not None,
              "planar: phase portrait %s against %s" % (v, x))
    check(re.search(r"using %d:%d with lines lw 1.4 lc rgb '[^']*' title \"D\"" % (idx["D.x"], idx["D.y"]), gp)
          is not None, "planar: the path y against x")
    # the tilted floor sin(a) x + cos(a) y = 0 with a = 0.3 (the --set), the side wall x = -1
    m = re.search(r"\(([-0-9.e]+) - ([-0-9.e]+) \* x\) / ([-0-9.e]+) with lines", gp)
    check(m is not None and abs(float(m.group(1))) < 1e-15 and
          abs(float(m.group(2)) - math.sin(0.3)) < 1e-15 and abs(float(m.group(3)) - math.cos(0.3)) < 1e-15,
          "planar: the floor drawn with alpha = 0.3 from --set")
    check(re.search(r"set arrow from first -1, graph 0 to first -1, graph 1 nohead", gp) is not None,
          "planar: the side wall x = -1 drawn")
    # the simulator's own --set behind "--": walls unknown here, left out with a note
    p = subprocess.run([nsmc, "run", model, "--out-dir", out + "2", "--", "--set", "L=2"],
                       capture_output=True, text=True, env=env, timeout=600)
    check(p.returncode == 0 and "walls are not drawn" in p.stdout,
          "planar: walls left out with a note when the simulator's arguments set parameters")


def main():
    nsmc, src, work, case = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    globals()["case_" + case](nsmc, src, work)
    if FAILS:
        sys.exit("%d check(s) failed" % len(FAILS))
    print("all checks passed")


if __name__ == "__main__":
    main()
