#!/usr/bin/env python3
"""The plots' rough edges, each fixed (label workflow).

    tests/plot/fixes_test.py CASE WORK NSMC SOURCE_DIR SIM_CRADLE5 SIM_VIBRATING_TABLE
                             SIM_DISC_WALLS_FRICTION SIM_ROTATING_BALL_3 SIM_CHAIN20

  negzero    cradle5 (e = 1): the events' energy_lost is written 0, never -0.
  phase_one  vibrating_table --phase: the one-body phase portrait is 640 px
             wide with room for its y label (90 px), which it sets, and its
             long title is broken after the model's name.
  friction   disc_walls_friction: the friction elements stuck by a frictional
             impact are not drawn stuck while the disc flies off the wall (no
             bar), but as points on their rows; every colour of the bars is in
             the legend.  rotating_ball_3: the element stuck at a sticking
             impact whose normal contact holds stays stuck to the end.
  t0         chain20 (struck at t = 0): the time axis starts before 0, so
             the impacts at 0 are not hidden in the axis.
  rolling    tests/rigid/rolling_sphere.nsm by nsmc run: the spatial friction
             element that sticks (the sphere rolls) without ever having
             slipped before is named for what it does, "grip rolling (no
             slip)", not "grip in contact" as a gap would be; a planar
             element that only sticks (a block pushed to rest) "F stuck".
  surface    vibrating_table: the table's surface is drawn in the position
             panel as B.x - floor.gap, which is amp sin(omega t); nsmc run
             draws it too; a model without floor.gap among its outputs gets a
             note instead.
"""
import csv
import math
import os
import re
import shutil
import struct
import subprocess
import sys

FAILS = []


def check(cond, what):
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        FAILS.append(what)


def run(cmd, env=None):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600,
                       env=dict(os.environ, **(env or {})))
    print("run:", " ".join(cmd), "->", p.returncode)
    print(p.stderr[-1500:])
    return p.returncode, p.stdout, p.stderr


def png_size(path):
    """(width, height) from a PNG's IHDR."""
    with open(path, "rb") as f:
        head = f.read(24)
    return struct.unpack(">II", head[16:24])


def block(gp, name):
    """The rows of a data block $name of the script (None when absent)."""
    m = re.search(r"^\$%s << EOD\n(.*?)^EOD$" % name, gp, re.S | re.M)
    return [line.split(",") for line in m.group(1).splitlines()] if m else None


def case_negzero(work, sims):
    rc, so, se = run([sims["cradle5"], "--events", "-"])
    rows = list(csv.DictReader(so.splitlines()))
    check(rc == 0 and len(rows) == 4, "four impacts (got %d)" % len(rows))
    check(all(r["energy_lost"] == "0" for r in rows),
          "energy_lost written 0: %s" % [r["energy_lost"] for r in rows])


def case_phase_one(work, sims):
    d = os.path.join(work, "p")
    rc, so, se = run([sims["vibrating_table"], "--plot", d, "--phase"])
    check(rc == 0, "exit status 0")
    w, h = png_size(os.path.join(d, "phase.png"))
    check(w >= 640, "phase.png 640 px wide or more (got %d x %d)" % (w, h))
    gp = open(os.path.join(d, "plot.gp")).read()
    phase = gp[gp.index("set output 'phase.png'"):]
    m = re.search(r"margins ([0-9.]+),", phase)
    check(m is not None and float(m.group(1)) * w >= 85,
          "90 px left of the portrait for its y label (%s)" % (m and float(m.group(1)) * w))
    check('set ylabel "B.v [m/s]"' in phase, "the y label is set")
    check(re.search(r'set multiplot title sprintf\("%s\\n%s", "vibrating_table:", "Ball on',
                    phase) is not None, "the long title broken after the model's name")


def case_friction(work, sims):
    d = os.path.join(work, "f")
    rc, so, se = run([sims["disc_walls_friction"], "--plot", d])
    gp = open(os.path.join(d, "plot.gp")).read()
    closed, fr = block(gp, "closed"), block(gp, "friction")
    with open(os.path.join(d, "events.csv")) as f:
        ev = list(csv.DictReader(f))
    sticks = [float(r["t"]) for r in ev if r["kind"] == "stick"]
    check(rc == 0 and len(sticks) == 3, "three sticks at frictional impacts: %s" % sticks)
    check(closed == [], "no bar: the disc leaves the wall at once (got %s)" % closed)
    pts = sorted(float(r[0]) for r in fr or [] if r[2] == "7")
    check(fr is not None and all(any(abs(p - t) < 1e-12 for p in pts) for t in sticks),
          "each stick a point on its row: %s" % pts)
    colors = {int(r[3]) for r in closed or []}
    keys = {int(c, 16) for c in re.findall(r"keyentry with lines lw 5 lc rgb '#([0-9a-f]{6})'", gp)}
    check(colors <= keys, "every bar colour is in the legend")
    check("title 'stick'" in gp and "title 'slip'" in gp, "stick and slip points in the legend")
    d = os.path.join(work, "r")
    rc, so, se = run([sims["rotating_ball_3"], "--plot", d])
    gp = open(os.path.join(d, "plot.gp")).read()
    with open(os.path.join(d, "events.csv")) as f:
        t0 = [float(r["t"]) for r in csv.DictReader(f) if r["contact"] == "F"][0]
    rects = re.findall(r"set object \d+ rect from ([0-9.e+-]+), graph 0 to ([0-9.e+-]+), graph 1 "
                       r"behind fc rgb '(#[0-9a-f]{6})'", gp)
    f_rect = [r for r in rects if abs(float(r[0]) - t0) < 1e-12 and float(r[1]) == 2]
    check(len(f_rect) >= 1, "rotating_ball_3: F stuck from its sticking impact to the end")
    check('title "F stuck"' in gp, "its legend says stuck")


def case_rolling(work, sims, nsmc, src):
    env = {"XDG_CACHE_HOME": os.path.join(work, "cache")}
    out = os.path.join(work, "r")
    rc, so, se = run([nsmc, "run", os.path.join(src, "tests", "rigid", "rolling_sphere.nsm"),
                      "--out-dir", out], env)
    gp = open(os.path.join(out, "plot.gp")).read() if rc == 0 else ""
    with open(os.path.join(out, "events.csv")) as f:
        ev = [r["kind"] for r in csv.DictReader(f) if r["contact"] == "grip"]
    check(rc == 0 and ev == ["stick"], "the grip sticks once, never slips: %s" % ev)
    check('title "grip rolling (no slip)"' in gp, "the band of the rolling sphere's grip")
    check("grip in contact" not in gp, "not called a contact")
    block = """model push "A block pushed on the ground slides to rest"
mass M = 2 kg
friction F: M -- ground, mu = 0.25, normal = 10 N
init M.v = 3 m/s
simulate t_end = 3 s, method = exact
output every 0.1 s: M.x, M.v
"""
    path = os.path.join(work, "push.nsm")
    open(path, "w").write(block)
    rc, so, se = run([nsmc, "run", path, "--out-dir", os.path.join(work, "p")], env)
    gp = open(os.path.join(work, "p", "plot.gp")).read() if rc == 0 else ""
    check('title "F stuck"' in gp and "F in contact" not in gp,
          "a planar element that only sticks is keyed stuck")


def case_t0(work, sims):
    d = os.path.join(work, "c")
    rc, so, se = run([sims["chain20"], "--plot", d])
    gp = open(os.path.join(d, "plot.gp")).read()
    imp = block(gp, "impacts")
    check(rc == 0 and imp and float(imp[0][0]) == 0, "impacts at t = 0")
    lo = float(re.search(r"set xrange \[([^:]+):", gp).group(1))
    check(lo < -0.01, "the time axis starts before 0 (%g)" % lo)


def case_surface(work, sims, nsmc, src):
    d = os.path.join(work, "s")
    rc, so, se = run([sims["vibrating_table"], "--plot", d])
    gp = open(os.path.join(d, "plot.gp")).read()
    m = re.search(r"using 1:\(column\((\d+)\) - column\((\d+)\) / ([0-9.e+-]+)\) with lines [^\n]*"
                  r'title "floor \(surface\)"', gp)
    check(rc == 0 and m is not None, "the surface drawn in a panel")
    if m:
        with open(os.path.join(d, "trajectory.csv")) as f:
            rows = [list(map(float, r)) for r in list(csv.reader(f))[1:]]
        xc, gc, coef = int(m.group(1)) - 1, int(m.group(2)) - 1, float(m.group(3))
        err = max(abs(r[xc] - r[gc] / coef - 0.01 * math.sin(40 * r[0])) for r in rows)
        check(err < 1e-9, "the drawn surface is amp sin(omega t) (max error %.2g)" % err)
        panel = gp[:m.start()].rsplit("set ylabel", 1)[1].split("\n")[0]
        check("position" in panel, "in the position panel (%s)" % panel.strip())
    env = {"XDG_CACHE_HOME": os.path.join(work, "cache")}
    out = os.path.join(work, "n")
    rc, so, se = run([nsmc, "run", os.path.join(src, "models", "vibrating_table.nsm"),
                      "--out-dir", out], env)
    check(rc == 0 and 'title "floor (surface)"' in open(os.path.join(out, "plot.gp")).read(),
          "nsmc run draws the surface too")
    model = open(os.path.join(src, "models", "vibrating_table.nsm")).read()
    model = model.replace("output every 1 ms: B.x, B.v, floor.gap,", "output every 1 ms: B.x, B.v,")
    path = os.path.join(work, "nogap.nsm")
    open(path, "w").write(model)
    rc, so, se = run([nsmc, "run", path, "--out-dir", os.path.join(work, "g")], env)
    check(rc == 0 and "the moving surface of floor is drawn when B.x and floor.gap are outputs"
          in so, "without floor.gap: a note says what to add")


def main():
    case, work, nsmc, src = sys.argv[1:5]
    sims = dict(zip(("cradle5", "vibrating_table", "disc_walls_friction", "rotating_ball_3",
                     "chain20"), sys.argv[5:10]))
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    if case in ("surface", "rolling"):
        globals()["case_" + case](work, sims, nsmc, src)
    else:
        globals()["case_" + case](work, sims)
    if FAILS:
        sys.exit("%d check(s) failed" % len(FAILS))
    print("all checks passed")


if __name__ == "__main__":
    main()
