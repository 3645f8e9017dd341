"""Plastic contacts brought to rest stay at rest: no creeping, no stalling.

usage: held.py --nsmc NSMC --include DIR --lib A:B:.. [--cc CC]
               [--cflags="FLAGS"] --case CASE

Cases:
  train   a heavy bead (mass M) at 1 m/s presses a light one (1 kg) onto a
          wall, every contact plastic (e = 0), both touching at t = 0, no
          force.  Closed form (momentum: the wall takes all of it, e = 0):
          both end at rest, x = 0.  The impact's impulse problem has the
          condition of the mass ratio (W M^-1 W^T = [[1, -1], [-1, 1 + 1/M]]),
          so its solution rounds to eps times M of the 1 m/s: a residual
          approach left by it once made the two contacts trade it one
          landing at a time, an event a step (M = 1e12: 1e-14 s steps, the
          step cap).  Checked for M = 1, 1e6, 1e10, 1e12, 1e15, under rk4,
          adaptive and exact, with the sequential and the simultaneous law:
          the run reaches t_end with fewer than 100000 steps (exit 0), at
          every sample neither gap is below -2e-14 m (the gaps' rounding
          band, 1e-14 m at x = 0), and at the end both velocities are within
          min(4 eps M, 1e-9) m/s of 0 (the mass ratio's rounding, and no
          more than the velocity tolerance's relative part).
  stall   twenty plastic beads on weak springs (contacts.plastic.springs's
          model) under exact without dt: two touching contacts with no
          relative velocity and no force between them, found again and again
          at one instant (t = 1.0003198 s), each landing at rest changing
          nothing.  Checked: the run reaches 20 s (exit 0) within 20000
          steps, momentum 1 kg m/s at every sample to 1e-11, no bead passes
          the next (x[i+1] >= x[i] - 1e-12 m).
  press0  models/sliding_block.nsm with a press of zero (--set P=0): the
          floor's force is the press Q sin t alone, 0 at t = 0 and growing,
          the friction's normal force with it.  Closed form (m = 1 kg, Y
          held on the floor): N(t) = 3 sin t on [0, pi]; at pi the press
          turns upward and Y leaves, y' = 3 (cos t + 1) >= 0 after, so it
          never lands again.  Under exact the floor was released at t = 0
          by the friction's slip (its force exactly 0 there), landed again
          at once, and so on until the event rate cap (exit 3).  Checked
          under exact, rk4 and adaptive: exit 0, floor.force within 1e-9 N
          of 3 sin t before pi and 0 after, one separation of the floor, at
          pi to 1e-9 s, no impact of the floor.
"""
import csv
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
import plastic  # noqa: E402

EPS = 2.0 ** -52
TRAIN = """model presstrain "A heavy bead pressing a light one onto a wall"
param M = 1e12 kg
mass B1 = 1 kg
mass B2 = M
gap W: B1.x >= 0, impact(e = 0)
gap G1: B2.x - B1.x >= 0, impact(e = 0)
init B1.x = 0 m, B2.x = 0 m, B2.v = -1 m/s
simulate t_end = 0.1 s, method = rk4, impact_law = LAW
"""


def write(work, name, text):
    """Writes a model file into work; its path."""
    path = os.path.join(work, name + ".nsm")
    with open(path, "w") as f:
        f.write(text)
    return path


def rows(path):
    """The trajectory file's rows as lists of floats (header dropped)."""
    with open(path) as f:
        return [[float(x) for x in r] for r in list(csv.reader(f))[1:]]


def case_train(args, work):
    """The pressed train at five mass ratios, three methods, two laws."""
    for law in ("sequential", "simultaneous"):
        exe = harness.build(args, write(work, "train_" + law, TRAIN.replace("LAW", law)), work)
        for method in ("rk4", "adaptive", "exact"):
            for M in (1.0, 1e6, 1e10, 1e12, 1e15):
                what = "%s %s M = %g" % (law, method, M)
                out = os.path.join(work, "t.csv")
                p = subprocess.run([exe, "--method", method, "--set", "M=%r" % M,
                                    "--max-steps", "100000", "--out", out, "--events", os.devnull],
                                   capture_output=True, text=True, timeout=60)
                harness.check(p.returncode == 0, "%s: runs to t_end (exit %d %s)"
                              % (what, p.returncode, p.stderr.strip()[-120:]))
                if p.returncode != 0:
                    continue
                data = rows(out)
                harness.check(abs(data[-1][0] - 0.1) < 1e-12, "%s: the last sample at 0.1 s" % what)
                low = min(min(r[1], r[3] - r[1]) for r in data)
                harness.check(low >= -2e-14, "%s: no gap below -2e-14 m (lowest %.3g)" % (what, low))
                vmax = max(abs(data[-1][2]), abs(data[-1][4]))
                bound = min(4 * EPS * M, 1e-9)
                harness.check(vmax <= bound, "%s: both at rest, |v| %.3g <= %.3g m/s" % (what, vmax, bound))


def case_stall(args, work):
    """The twenty beads on springs under exact without dt, to 20 s."""
    text = plastic.model_text(True, "exact").replace("dt = 1 ms, ", "")
    exe = harness.build(args, write(work, "stall", text), work)
    out = os.path.join(work, "s.csv")
    p = subprocess.run([exe, "--max-steps", "20000", "--out", out, "--events", os.devnull],
                       capture_output=True, text=True, timeout=120)
    harness.check(p.returncode == 0, "exact without dt runs to 20 s (exit %d %s)"
                  % (p.returncode, p.stderr.strip()[-160:]))
    if p.returncode != 0:
        return
    data = rows(out)
    n = plastic.N
    harness.check(abs(data[-1][0] - 20) < 1e-9, "the last sample at 20 s")
    mom = max(abs(sum(r[1 + n:1 + 2 * n]) - 1) for r in data)
    harness.check(mom <= 1e-11, "momentum 1 kg m/s at every sample (worst %.3g)" % mom)
    order = min(r[i + 2] - r[i + 1] for r in data for i in range(n - 1))
    harness.check(order >= -1e-12, "no bead passes the next (lowest gap %.3g m)" % order)


def case_press0(args, work):
    """sliding_block with P = 0 under every method: the floor held to pi."""
    here = os.path.dirname(os.path.abspath(__file__))
    exe = harness.build(args, os.path.join(here, "..", "..", "models", "sliding_block.nsm"), work)
    for method in ("exact", "rk4", "adaptive"):
        out, ev = os.path.join(work, "p.csv"), os.path.join(work, "e.csv")
        p = subprocess.run([exe, "--set", "P=0", "--method", method, "--out", out, "--events", ev],
                           capture_output=True, text=True, timeout=60)
        harness.check(p.returncode == 0, "%s: runs (exit %d %s)" % (method, p.returncode, p.stderr.strip()[-160:]))
        if p.returncode != 0:
            continue
        worst = max(abs(r[3] - (3 * math.sin(r[0]) if r[0] < math.pi else 0)) for r in rows(out))
        harness.check(worst <= 1e-9, "%s: floor.force is 3 sin t, then 0 (worst %.3g N)" % (method, worst))
        with open(ev) as f:
            log = list(csv.DictReader(f))
        seps = [float(r["t"]) for r in log if r["contact"] == "floor" and r["kind"] == "separation"]
        harness.check(len(seps) == 1 and abs(seps[0] - math.pi) <= 1e-9,
                      "%s: one separation of the floor, at pi (%s)" % (method, seps))
        imps = [r for r in log if r["contact"] == "floor" and r["kind"] == "impact"]
        harness.check(not imps, "%s: no impact of the floor (%d)" % (method, len(imps)))


if __name__ == "__main__":
    sys.exit(harness.main({"train": case_train, "stall": case_stall, "press0": case_press0}))
