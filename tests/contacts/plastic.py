"""Twenty plastic beads (e = 0), the first struck: the train settles.

usage: plastic.py --nsmc NSMC --include DIR --lib A:B:.. [--cc CC]
                  [--cflags="FLAGS"] --case CASE [--method M]

Twenty equal beads (1 kg) 0.1 m apart on a line, every contact plastic,
the first at 1 m/s.  Each time the moving group reaches the next bead, the
sequential law's collisions at that instant go on for ever (pairs of a
touching group colliding plastically in an order that never repeats, the
speeds contracting geometrically): the runtime must declare that collapse
from the speeds (docs/theory.md section 10) instead of resolving every
collision down to the velocity tolerance.

Cases:
  free    no springs.  Closed form (momentum, every instant's collapse ends
          with the group at one velocity): the group of k beads moves at
          1/k m/s and reaches bead k + 1, 0.1 m ahead, 0.1 k s later, so the
          k-th instant is t_k = 0.05 k (k + 1) s (19 instants, the last at
          19 s), where all beads then move at 1/20 m/s together (x = 1.9 m
          at 19 s, 1.95 m at 20 s).  Checked: the instants to 1e-12 s, every
          velocity 1/20 at 20 s to 1e-12 m/s and every position 1.95 m to
          1e-12 m, one zeno record per instant from the third on, and fewer
          than 20000 records (resolved to the velocity tolerance the last
          instants alone took 1e5 records and left relative velocities of
          1e-10 m/s).
  springs the model of issue #25: weak springs between neighbours (0.01
          N/m, rest 0.1 m), run to 20 s.  The springs push touching beads
          apart (a compressed spring between two beads that touch), so groups
          part and collide again: no closed form.  Checked: the run ends
          without reaching any cap, momentum (internal forces only) is 1 kg
          m/s at every sample to 1e-11 (12 digits in the file), no bead passes the next (x[i+1] >=
          x[i] - 1e-12 m), the energy balance (--summary) closes to 1e-10, and the
          impact records number fewer than 50000 (1.8e5 when every instant's
          collisions were resolved one by one).
"""
import csv
import os
import re
import subprocess
import sys

from harness import build_text, check, main

N = 20


def model_text(springs, method):
    """The twenty beads' model, with or without the weak springs."""
    init = ", ".join("P[%d].x = %r m" % (i, round(0.1 * (i - 1), 10)) for i in range(1, N + 1))
    outs = ", ".join(["P[%d].x" % i for i in range(1, N + 1)] + ["P[%d].v" % i for i in range(1, N + 1)])
    text = ("model plastic20 \"Twenty plastic beads, the first struck\"\n"
            "mass P[1..%d] = 1 kg\n"
            "for i in 1..%d: gap G[i]: P[i+1].x - P[i].x >= 0, impact(e = 0)\n" % (N, N - 1))
    if springs:
        text += "for i in 1..%d: spring P[i] -- P[i+1], k = 0.01 N/m, rest = 0.1 m\n" % (N - 1)
    text += ("init %s,\n     P[1].v = 1 m/s\n"
             "simulate t_end = 20 s, dt = 1 ms, method = %s\n"
             "output every 100 ms: %s\n" % (init, method, outs))
    return text


def run(exe, work, extra=()):
    """Runs the simulator: (status, output, samples, events)."""
    ev, out = os.path.join(work, "ev.csv"), os.path.join(work, "out.csv")
    p = subprocess.run([exe, "--events", ev, "--out", out] + list(extra),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    rows = evs = []
    if p.returncode == 0:
        with open(out) as f:
            rows = [{k.split(" [")[0]: float(v) for k, v in r.items()} for r in csv.DictReader(f)]
        with open(ev) as f:
            evs = list(csv.DictReader(f))
    return p.returncode, p.stdout, rows, evs


def case_free(args, work):
    """No springs: the closed form of the module's text."""
    rc, out, rows, evs = run(build_text(args, model_text(False, args.method), work, "free"), work)
    check(rc == 0, "free: the run ends (status %d) %s" % (rc, out.strip()[-300:] if rc else ""))
    if rc:
        return
    instants = []
    for e in evs:
        t = float(e["t"])
        if not instants or t != instants[-1]:
            instants.append(t)
    want = [0.05 * k * (k + 1) for k in range(1, N)]
    check(len(instants) == len(want), "free: %d collision instants (closed form %d)"
          % (len(instants), len(want)))
    worst = max(abs(a - b) for a, b in zip(instants, want)) if instants else 1
    check(worst <= 1e-12, "free: instants t_k = 0.05 k (k + 1) s within 1e-12 s (worst %.3g)" % worst)
    zenos = [float(e["t"]) for e in evs if e["kind"] == "zeno"]
    check(len(zenos) >= N - 3 and all(any(abs(z - w) < 1e-12 for w in want) for z in zenos),
          "free: a zeno record at the instants (%d, from the third instant on: %d)" % (len(zenos), N - 3))
    check(len(evs) < 20000, "free: %d records (< 20000)" % len(evs))
    last = rows[-1]
    check(abs(last["t"] - 20) < 1e-12, "free: the run reaches 20 s")
    wv = max(abs(last["P[%d].v" % i] - 1.0 / N) for i in range(1, N + 1))
    wx = max(abs(last["P[%d].x" % i] - 1.95) for i in range(1, N + 1))
    check(wv <= 1e-12, "free: every velocity 1/20 m/s at 20 s within 1e-12 (worst %.3g)" % wv)
    check(wx <= 1e-12, "free: every position 1.95 m at 20 s within 1e-12 (worst %.3g)" % wx)


def case_springs(args, work):
    """The weak springs: the invariants of the module's text."""
    rc, out, rows, evs = run(build_text(args, model_text(True, args.method), work, "springs"), work,
                             ["--summary"])
    check(rc == 0, "springs: the run ends without a cap (status %d) %s"
          % (rc, out.strip()[-300:] if rc else ""))
    if rc:
        return
    check(abs(rows[-1]["t"] - 20) < 1e-12, "springs: the run reaches 20 s")
    wp = max(abs(sum(r["P[%d].v" % i] for i in range(1, N + 1)) - 1) for r in rows)
    # the trajectory file holds 12 significant digits: 20 velocities of 0.05 sum to 1e-12
    check(wp <= 1e-11, "springs: momentum 1 kg m/s at every sample within 1e-11 (worst %.3g)" % wp)
    pen = min(r["P[%d].x" % (i + 1)] - r["P[%d].x" % i] for r in rows for i in range(1, N))
    check(pen >= -1e-12, "springs: no bead passes the next (smallest gap %.3g m)" % pen)
    check(len(evs) < 50000, "springs: %d records (< 50000)" % len(evs))
    m = re.search(r"energy error \S+ J \(([0-9.eE+-]+) of the largest energy\)", out)
    rel = float(m.group(1)) if m else 1.0
    check(rel <= 1e-10, "springs: the energy balance closes to 1e-10 of the largest energy (%.3g)" % rel)


def options(ap):
    """The script's own option: the integration method."""
    ap.add_argument("--method", default="exact")


if __name__ == "__main__":
    sys.exit(main({"free": case_free, "springs": case_springs}, options))
