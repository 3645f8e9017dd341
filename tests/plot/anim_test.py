#!/usr/bin/env python3
"""Animated GIFs of runs, `--animate` (label workflow).

    tests/plot/anim_test.py CASE WORK NSMC SOURCE_DIR SIM_TWO_MASS SIM_DISC_WALLS
                            SIM_VIBRATING_TABLE

The GIF is read with tests/plot/gif.py (blocks parsed, frames decoded with
the standard library); where a body should be is computed from the
trajectory the same run writes, and mapped to pixels with the view the
script FILE.gp states in its second line.

  frames     two_mass: --frames 25 --fps 10 gives 25 frames of 10/100 s,
             looping; without --frames, the run's 20 s within 4..12 s at 20
             frames per second: 241 frames; stderr says where the GIF is.
  pixels     two_mass, 21 frames (t = 0, 1, .. 20 s): M1's block is centred
             on M1.x; the gap between the blocks is M2.x - M1.x; the contact
             is red while the masses stick (t = 1 s) and on the frame after
             the impact at 11.83 s, not while open (t = 5 s, 13 s).
  disc       disc_walls, 31 frames: the disc's colour at its centre, the
             mark of its rotation towards phi and not opposite; a wall red on
             the frame after the disc strikes it, grey on a frame without.
  table      vibrating_table: drawn upright; the table's slab moves with
             amp sin(omega t) between two frames.
  nsmc_run   nsmc run cradle5 --animate -- --frames 5: DIR/animation.gif
             with 5 frames.
  refusals   bad --animate, --fps and --frames values, --fps without
             --animate, a folder that is not there: exit 1, a message, and
             neither the GIF nor the trajectory written; without gnuplot on
             PATH: exit 0, a note, no GIF.
"""
import csv
import math
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gif  # noqa: E402

FAILS = []
M1, M2, RED, WALL, MARK = (0x1f, 0x77, 0xb4), (0x2c, 0xa0, 0x2c), (0xe8, 0x00, 0x0b), \
    (0x66, 0x66, 0x66), (0x22, 0x22, 0x22)


def check(cond, what):
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        FAILS.append(what)


def run(cmd, env=None):
    """Runs a command; returns (exit status, stdout, stderr)."""
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600,
                       env=dict(os.environ, **(env or {})))
    print("run:", " ".join(cmd), "->", p.returncode)
    print(p.stderr[-1500:])
    return p.returncode, p.stdout, p.stderr


def trajectory(path):
    """The trajectory CSV as a list of dicts of floats, keyed by column name."""
    with open(path) as f:
        rows = list(csv.reader(f))
    names = [re.sub(r" \[.*\]$", "", h) for h in rows[0]]
    return [dict(zip(names, map(float, r))) for r in rows[1:]]


def at(rows, t):
    """The sample at time t."""
    return min(rows, key=lambda r: abs(r["t"] - t))


class View:
    """The data-to-pixel map stated in the script's second line."""

    def __init__(self, script):
        line = open(script).read().splitlines()[1]
        m = re.search(r"x \[(\S+), (\S+)\], y \[(\S+), (\S+)\] fills the pixels "
                      r"x \[(\d+), (\d+)\], y \[(\d+), (\d+)\]", line)
        self.x0, self.x1, self.y0, self.y1 = map(float, m.groups()[:4])
        self.px0, self.px1, self.py0, self.py1 = map(int, m.groups()[4:])
        self.scale = (self.px1 - self.px0) / (self.x1 - self.x0)

    def pixel(self, x, y):
        """(column, row) of the data point (x, y)."""
        c = self.px0 + (x - self.x0) * self.scale
        r = self.py0 + (self.y1 - y) * (self.py1 - self.py0) / (self.y1 - self.y0)
        return int(round(c)), int(round(r))


def runs(row, color):
    """The columns of a pixel row that have the colour."""
    return [c for c, px in enumerate(row) if px == color]


def has(frame, color, view):
    """Whether the colour appears inside the plot area (the legend is red too)."""
    return any(px == color for row in frame[view.py0:view.py1 + 1]
               for px in row[view.px0:view.px1 + 1])


def case_frames(work, sims):
    out = os.path.join(work, "a.gif")
    rc, so, se = run([sims["two_mass"], "--animate", out, "--frames", "25", "--fps", "10",
                      "--out", os.path.join(work, "t.csv")])
    check(rc == 0, "exit status 0")
    info = gif.blocks(open(out, "rb").read())
    check(len(info["frames"]) == 25, "25 frames (got %d)" % len(info["frames"]))
    check(all(f["delay"] == 10 for f in info["frames"]), "each frame 10/100 s at 10 fps")
    check(info["loop"] == 0, "the GIF loops forever")
    check("animation: %s (25 frames" % out in se, "stderr says where the GIF is")
    check(os.path.exists(os.path.join(work, "a.gp")), "the script a.gp is kept beside it")
    check(not [f for f in os.listdir(work) if f.startswith(".anim-")], "no temporary file left")
    rc, so, se = run([sims["two_mass"], "--animate", out])
    info = gif.blocks(open(out, "rb").read())
    check(rc == 0 and len(info["frames"]) == 241,
          "default: 12 s at 20 frames per second, 241 frames (got %d)" % len(info["frames"]))


def case_pixels(work, sims):
    out, traj = os.path.join(work, "tm.gif"), os.path.join(work, "tm.csv")
    rc, so, se = run([sims["two_mass"], "--animate", out, "--frames", "21", "--out", traj])
    check(rc == 0, "exit status 0")
    view, rows = View(os.path.join(work, "tm.gp")), trajectory(traj)
    frames = gif.frames(open(out, "rb").read(), {1, 5, 12, 13, 15})
    _, r0 = view.pixel(0, 0)
    for k in (5, 15):
        s = at(rows, k)
        row = frames[k][r0]
        a, b = runs(row, M1), runs(row, M2)
        if not (a and b):
            check(False, "frame %d: both blocks on the line" % k)
            continue
        c1, _ = view.pixel(s["M1.x"], 0)
        check(abs((a[0] + a[-1]) / 2 - c1) <= 2,
              "frame %d: M1's block centred on M1.x = %.4f m (px %.1f, expected %d)"
              % (k, s["M1.x"], (a[0] + a[-1]) / 2, c1))
        gap = (b[0] - a[-1]) / view.scale
        check(abs(gap - (s["M2.x"] - s["M1.x"])) <= 4 / view.scale,
              "frame %d: the blocks %.4f m apart, M2.x - M1.x = %.4f m"
              % (k, gap, s["M2.x"] - s["M1.x"]))
    check(has(frames[1], RED, view), "t = 1 s, the masses stuck: the contact is red")
    check(not has(frames[5], RED, view), "t = 5 s, apart: no red")
    check(has(frames[12], RED, view), "t = 12 s, struck at 11.83 s: red")
    check(not has(frames[13], RED, view), "t = 13 s, apart: no red")


def case_disc(work, sims):
    out, traj, ev = (os.path.join(work, n) for n in ("d.gif", "d.csv", "ev.csv"))
    rc, so, se = run([sims["disc_walls"], "--animate", out, "--frames", "31", "--out", traj,
                      "--events", ev, "--every", "0.01"])
    check(rc == 0, "exit status 0")
    view, rows = View(os.path.join(work, "d.gp")), trajectory(traj)
    with open(ev) as f:
        impacts = [float(r["t"]) for r in csv.DictReader(f) if r["kind"] == "impact"]
    struck = [k for k in range(1, 31) if any(0.1 * (k - 1) + 1e-6 < t < 0.1 * k - 1e-6
                                             for t in impacts)]
    quiet = [k for k in range(1, 31) if not any(0.1 * (k - 1) - 0.05 < t < 0.1 * k + 0.05
                                                for t in impacts)]
    check(struck and quiet, "frames with and without an impact: %s, %s" % (struck, quiet))
    if not (struck and quiet):
        return
    k, q = struck[0], quiet[0]
    frames = gif.frames(open(out, "rb").read(), {k, q, 7})
    s, R = at(rows, 0.7), 0.1
    cx, cy = s["D.x"], s["D.y"]
    px = view.pixel(cx, cy)
    f7 = frames[7]
    # the centre may sit on the mark: look a little off it, across the mark
    side = view.pixel(cx - 0.5 * R * math.sin(s["D.phi"]), cy + 0.5 * R * math.cos(s["D.phi"]))
    check(f7[side[1]][side[0]] == M1, "t = 0.7 s: the disc's colour inside it at %s" % (side,))
    on = view.pixel(cx + 0.6 * R * math.cos(s["D.phi"]), cy + 0.6 * R * math.sin(s["D.phi"]))
    off = view.pixel(cx - 0.6 * R * math.cos(s["D.phi"]), cy - 0.6 * R * math.sin(s["D.phi"]))
    near = [f7[on[1] + dy][on[0] + dx] for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
    check(MARK in near, "the rotation mark at phi = %.3f rad (%s)" % (s["D.phi"], on))
    check(f7[off[1]][off[0]] == M1, "no mark opposite phi (%s)" % (off,))
    check(has(frames[k], RED, view), "frame %d, after an impact: a wall in red" % k)
    check(not has(frames[q], RED, view) and has(frames[q], WALL, view),
          "frame %d, no impact near: the walls grey, no red" % q)
    check(px[0] > 0, "centre mapped")


def case_table(work, sims):
    out, traj = os.path.join(work, "v.gif"), os.path.join(work, "v.csv")
    rc, so, se = run([sims["vibrating_table"], "--animate", out, "--frames", "25", "--out", traj])
    check(rc == 0, "exit status 0")
    view = View(os.path.join(work, "v.gp"))
    info = gif.blocks(open(out, "rb").read())
    check(info["height"] > info["width"], "drawn upright: %d x %d px" % (info["width"],
                                                                          info["height"]))
    a_, b_ = 3, 4      # t = 0.075 s and 0.1 s
    frames = gif.frames(open(out, "rb").read(), {a_, b_})
    amp, omega = 0.01, 40

    def slab_row(frame):
        rows_ = [r for r in range(view.py0, view.py1 + 1)
                 if sum(px in (WALL, RED) for px in frame[r]) > 10]
        return (rows_[0] + rows_[-1]) / 2 if rows_ else None
    ra, rb = slab_row(frames[a_]), slab_row(frames[b_])
    expect = (amp * math.sin(omega * 0.1) - amp * math.sin(omega * 0.075)) * \
        (view.py1 - view.py0) / (view.y1 - view.y0)
    check(ra is not None and rb is not None and abs((ra - rb) - expect) <= 2,
          "the table moves up by amp (sin(omega 0.1) - sin(omega 0.075)): %.1f px, got %s"
          % (expect, None if ra is None or rb is None else ra - rb))


def case_nsmc_run(work, nsmc, src):
    d = os.path.join(work, "out")
    rc, so, se = run([nsmc, "run", os.path.join(src, "models", "cradle5.nsm"), "--out-dir", d,
                      "--no-plot", "--animate", "--", "--frames", "5"],
                     env={"XDG_CACHE_HOME": os.path.join(work, "cache")})
    check(rc == 0, "nsmc run --animate: exit status 0")
    g = os.path.join(d, "animation.gif")
    check(os.path.exists(g) and len(gif.blocks(open(g, "rb").read())["frames"]) == 5,
          "DIR/animation.gif with 5 frames")
    check("animation: %s" % g in se, "nsmc's output says where it is")


def case_refusals(work, sims):
    sim, traj = sims["two_mass"], os.path.join(work, "t.csv")
    bad = [(["--animate", os.path.join(work, "a.png")], "ending in .gif"),
           (["--animate", os.path.join(work, "a.gif"), "--fps", "0"], "--fps must be"),
           (["--animate", os.path.join(work, "a.gif"), "--fps", "1000"], "--fps must be"),
           (["--animate", os.path.join(work, "a.gif"), "--frames", "1"], "--frames must be"),
           (["--animate", os.path.join(work, "a.gif"), "--frames", "2.5"], "--frames must be"),
           (["--animate", os.path.join(work, "a.gif"), "--frames", "1e9"], "--frames must be"),
           (["--animate", os.path.join(work, "a.gif"), "--frames", "many"], "bad value"),
           (["--fps", "10"], "need --animate"),
           (["--animate", os.path.join(work, "nowhere", "a.gif")], "cannot write the animation")]
    for args, msg in bad:
        for f in (traj, os.path.join(work, "a.gif"), os.path.join(work, "a.png")):
            if os.path.exists(f):
                os.remove(f)
        rc, so, se = run([sim, "--out", traj] + args)
        check(rc == 1 and msg in se and not re.search(r"Segmentation|Sanitizer|runtime error", se),
              "%s: exit 1 and '%s'" % (" ".join(args[-2:]), msg))
        check(not os.path.exists(traj) and not os.path.exists(os.path.join(work, "a.gif"))
              and not os.path.exists(os.path.join(work, "a.png")), "nothing written")
    empty = os.path.join(work, "emptybin")
    os.makedirs(empty, exist_ok=True)
    out = os.path.join(work, "n.gif")
    rc, so, se = run([sim, "--animate", out, "--frames", "3"], env={"PATH": empty})
    check(rc == 0 and "note: no animation: gnuplot is not installed" in se,
          "no gnuplot: exit 0 and a note")
    check(not os.path.exists(out) and os.path.exists(os.path.join(work, "n.gp")),
          "no gnuplot: no GIF, the script written")


def main():
    case, work, nsmc, src = sys.argv[1:5]
    sims = dict(zip(("two_mass", "disc_walls", "vibrating_table"), sys.argv[5:8]))
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    if case == "nsmc_run":
        case_nsmc_run(work, nsmc, src)
    else:
        globals()["case_" + case](work, sims)
    if FAILS:
        sys.exit("%d check(s) failed" % len(FAILS))
    print("all checks passed")


if __name__ == "__main__":
    main()
