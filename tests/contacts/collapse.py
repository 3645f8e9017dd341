"""Inelastic collapse over time of three free beads against exact rationals.

usage: collapse.py --selftest
       collapse.py --nsmc NSMC --include DIR --lib A:B:.. [--cc CC]
                   [--cflags="FLAGS"] --method M --case CASE [--shift S]

The model is tests/contacts/beads3.nsm: three equal beads on a line, free
(no force), bead 1 at x = 0 moving at 1 m/s, bead 2 at rest at 1 m, bead
3 at rest at 1.5 m, both gaps with restitution e.  The reference is
event-driven in exact rational arithmetic (fractions.Fraction): the gap
closing first collides, Newton's law on that pair (equal masses: the
impulse is -(1 + e) u / 2 per unit mass for a closing velocity u < 0).

e = 1/20 (below McNamara and Young's e_c = 7 - 4 sqrt(3)): the collisions
alternate forever.  Their cycle (pair 1-2 then pair 2-3) maps the relative
velocities (a, b) = (v2 - v1, v3 - v2) by C23 C12, whose eigenvalues are
4/25 and 1/64.  The limit is derived here, not fitted: after every
collision of pair 1-2, the open gap G = x3 - x2 and the post-collision
velocities satisfy
    G = (9/4 - t) (-5/2 a - b),
and after every collision of pair 2-3, with G = x2 - x1,
    G = (9/4 - t) (-a - 5/2 b).
The selftest checks this invariant exactly at the first collision and that
one flight and collision carry it to the next for any state that satisfies
it (a rational identity, checked on random rationals and along the
sequence); so the remaining time after every collision is exactly
G / (linear form of the velocities), the velocities contract by 4/25 a
cycle, and the collisions accumulate at t* = 9/4 s.  Momentum gives the
common velocity 1/3 m/s and the centre of mass (0 + 1 + 1.5)/3 + t/3 the
place, 19/12 m at t*.

Cases:
  collapse (e = 0.05): every impact the simulator logs before its zeno
    record at the reference's instant to 1e-12 s and speeds to 1e-12; one
    zeno record at 9/4 to 1e-12 s (rk4, adaptive: 1e-9 s, their landings on
    the double state); the final velocities 1/3 to 1e-12 and positions to
    1e-9; with --shift S every position and the collapse point move by S.
  finite (e = 0.1, above e_c): exactly the reference's 6 collisions (the
    sequence ends, the last at 20.3 s; the run goes to 25 s), instants to
    1e-12 s (rk4, adaptive: their position rounding over the closing
    speed, 1e-11 m + 2e-12 |S|), no zeno record, the final
    velocities exact to 1e-12.
"""
import argparse
import csv
import os
import random
import subprocess
import sys
import tempfile
from fractions import Fraction as F

HERE = os.path.dirname(os.path.abspath(__file__))
X0 = [F(0), F(1), F(3, 2)]
V0 = [F(1), F(0), F(0)]
TSTAR = F(9, 4)
FAILS = []


def check(cond, what):
    """Records a failed check (the run goes on to report every one)."""
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        FAILS.append(what)


def sequence(e, cap):
    """The exact collisions from the initial state: a list of (t, pair,
    u before, u after, positions, velocities after); stops when no gap
    closes or after cap collisions."""
    x, v, t, hits = list(X0), list(V0), F(0), []
    while len(hits) < cap:
        best = None
        for i in range(2):
            u = v[i + 1] - v[i]
            if u < 0:
                dt = (x[i + 1] - x[i]) / (-u)
                if best is None or dt < best[0]:
                    best = (dt, i)
        if best is None:
            break
        dt, i = best
        t += dt
        x = [xi + vi * dt for xi, vi in zip(x, v)]
        u = v[i + 1] - v[i]
        p = -(1 + e) * u / 2
        v[i] -= p
        v[i + 1] += p
        hits.append((t, i, u, v[i + 1] - v[i], list(x), list(v)))
    return hits


def form(pair, a, b):
    """The linear form of the post-collision velocities whose ratio to the
    open gap is the remaining time (see the module's text)."""
    return -F(5, 2) * a - b if pair == 0 else -a - F(5, 2) * b


def step(pair, d, G, a, b, e):
    """One flight and collision after a collision of pair with remaining
    time d, open gap G and post-collision velocities (a, b): the next
    pair's (d, G, a, b)."""
    if pair == 0:                       # gap 2 (x3 - x2) closes at rate b
        tau = G / (-b)
        G2, d2 = a * tau, d - tau       # gap 1 opens at rate a
        a2, b2 = a + (1 + e) * b / 2, -e * b
    else:                               # gap 1 closes at rate a
        tau = G / (-a)
        G2, d2 = b * tau, d - tau
        a2, b2 = -e * a, b + (1 + e) * a / 2
    return d2, G2, a2, b2


def selftest():
    e = F(1, 20)
    # the cycle's eigenvalues: trace and determinant of C23 C12
    c = (1 + e) / 2
    M = [[-e + c * c, c], [-e * c, -e]]
    tr, det = M[0][0] + M[1][1], M[0][0] * M[1][1] - M[0][1] * M[1][0]
    check(det == F(4, 25) * F(1, 64) and tr == F(4, 25) + F(1, 64),
          "cycle eigenvalues 4/25 and 1/64 (trace %s, det %s)" % (tr, det))
    check(e < 7 - 4 * 3 ** 0.5, "e = 1/20 below e_c = 7 - 4 sqrt(3)")
    # the invariant carried by one flight and collision, for any state
    # satisfying it (random rationals with the signs of the cascade)
    rng = random.Random(25)
    ok = True
    for _ in range(200):
        pair = rng.randrange(2)
        a = F(rng.randrange(1, 999), 1000) * (1 if pair == 0 else -1)
        b = -F(rng.randrange(1, 999), 1000) if pair == 0 else F(rng.randrange(1, 999), 1000)
        if pair == 0 and -F(5, 2) * a - b <= 0 or pair == 1 and -a - F(5, 2) * b <= 0:
            continue
        d = F(rng.randrange(1, 999), 997)
        G = d * form(pair, a, b)
        d2, G2, a2, b2 = step(pair, d, G, a, b, e)
        ok &= G2 == d2 * form(1 - pair, a2, b2)
    check(ok, "G = (t* - t) L(a, b) is carried from one collision to the next (rational identity)")
    hits = sequence(e, 60)
    ok = True
    for (t, i, u, ua, x, v) in hits:
        a, b = v[1] - v[0], v[2] - v[1]
        G = x[2] - x[1] if i == 0 else x[1] - x[0]
        ok &= G == (TSTAR - t) * form(i, a, b)
    check(ok, "the invariant holds exactly at each of the first 60 collisions, t* = 9/4")
    check(all(h[1] == k % 2 for k, h in enumerate(hits)), "the pairs alternate 1-2, 2-3")
    check(0 < TSTAR - hits[-1][0] < F(1, 10 ** 28), "t_60 within 1e-28 of 9/4 (%.3g)" %
          float(TSTAR - hits[-1][0]))
    check(all(abs(vi - F(1, 3)) < F(1, 10 ** 20) for vi in hits[-1][5]), "velocities -> 1/3")
    fin = sequence(F(1, 10), 1000)
    check(len(fin) == 6, "e = 1/10 (above e_c): the sequence ends after 6 collisions (%d)" % len(fin))
    return 1 if FAILS else 0


def build(args, work, S):
    with open(os.path.join(HERE, "beads3.nsm")) as f:
        text = f.read()
    if S:
        text = text.replace("init P[1].x = 0 m, P[2].x = 1 m, P[3].x = 1.5 m",
                            "init P[1].x = %r m, P[2].x = %r m, P[3].x = %r m" % (S, S + 1, S + 1.5))
        assert repr(S) in text
    src = os.path.join(work, "beads3.nsm")
    with open(src, "w") as f:
        f.write(text)
    c = os.path.join(work, "beads3.c")
    subprocess.run([args.nsmc, src, "-o", c], check=True)
    exe = os.path.join(work, "beads3")
    subprocess.run([args.cc] + args.cflags.split() + [c, "-I", args.include] +
                   args.lib.split(os.pathsep) + ["-lm", "-o", exe], check=True)
    return exe


def run(exe, method, e, work, t_end=3):
    ev, out = os.path.join(work, "ev.csv"), os.path.join(work, "out.csv")
    p = subprocess.run([exe, "--method", method, "--set", "e=%s" % e, "--events", ev, "--out", out,
                        "--every", "0.01", "--t-end", str(t_end)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        raise RuntimeError("simulator failed: " + p.stderr)
    with open(ev) as f:
        events = list(csv.DictReader(f))
    with open(out) as f:
        rows = [{k.split(" [")[0]: float(v) for k, v in r.items()} for r in csv.DictReader(f)]
    return events, rows


def sim(args):
    S = args.shift
    tt = 1e-12 if args.method == "exact" else 1e-9
    with tempfile.TemporaryDirectory() as work:
        exe = build(args, work, S)
        tag = "%s %s shift %g" % (args.case, args.method, S)
        if args.case == "collapse":
            e = F(1, 20)
            events, rows = run(exe, args.method, "0.05", work)
            ref = sequence(e, 200)
            imp = [x for x in events if x["kind"] == "impact"]
            zen = [x for x in events if x["kind"] == "zeno"]
            check(len(zen) == 1 and events[-1]["kind"] == "zeno",
                  "%s: one zeno record, the last event (%d events)" % (tag, len(events)))
            check(len(imp) >= 1, "%s: impacts before the collapse (%d)" % (tag, len(imp)))
            for k, (x, r) in enumerate(zip(imp, ref)):
                check(abs(float(x["t"]) - float(r[0])) <= tt and
                      x["contact"] == "G[%d]" % (r[1] + 1) and
                      abs(float(x["vrel_before"]) - float(r[2])) <= 1e-12 and
                      abs(float(x["vrel_after"]) - float(r[3])) <= 1e-12,
                      "%s: impact %d at %s on %s (reference %.17g on G[%d])" %
                      (tag, k, x["t"], x["contact"], float(r[0]), r[1] + 1))
            if zen:
                tz = float(zen[0]["t"])
                check(abs(tz - 2.25) <= tt, "%s: collapse at %.17g, t* = 9/4 to %g (error %.3g)" %
                      (tag, tz, tt, tz - 2.25))
                check(int(zen[0]["count"]) + len(imp) > 20,
                      "%s: the zeno record counts the collisions it stands for (%s)" % (tag, zen[0]["count"]))
            last = rows[-1]
            T = last["t"]
            xs = float(F(19, 12) + (F(T) - TSTAR) / 3) + S
            check(all(abs(last["P[%d].v" % i] - 1 / 3) <= 1e-12 for i in (1, 2, 3)),
                  "%s: final velocities 1/3 to 1e-12" % tag)
            xt = 1e-9 + 1e-11 * abs(xs)     # the trajectory file's 12 digits
            check(all(abs(last["P[%d].x" % i] - xs) <= xt for i in (1, 2, 3)),
                  "%s: final positions together at %.12g to %.2g" % (tag, xs, xt))
            check(all(r["P[2].x"] - r["P[1].x"] >= -1e-12 and r["P[3].x"] - r["P[2].x"] >= -1e-12
                      for r in rows), "%s: no interpenetration at any sample" % tag)
        else:
            events, rows = run(exe, args.method, "0.1", work, 25)   # the 6th at 20.3 s
            ref = sequence(F(1, 10), 1000)
            imp = [x for x in events if x["kind"] == "impact"]
            check(len(events) == len(imp) == len(ref) == 6,
                  "%s: the 6 collisions only (%d events, %d impacts)" % (tag, len(events), len(imp)))
            for k, (x, r) in enumerate(zip(imp, ref)):
                # rk4 and adaptive carry absolute positions in double: a
                # landing moves by their rounding over the run over the
                # closing speed (6e-6 s for the last, at 2.8e-4 m/s after
                # 17 s, shifted by 1000 m)
                tk = tt if args.method == "exact" else (1e-11 + 2e-12 * abs(S)) / abs(float(r[2]))
                check(abs(float(x["t"]) - float(r[0])) <= tk and x["contact"] == "G[%d]" % (r[1] + 1) and
                      abs(float(x["vrel_before"]) - float(r[2])) <= 1e-12,
                      "%s: impact %d at %s on %s (reference %.17g on G[%d])" %
                      (tag, k, x["t"], x["contact"], float(r[0]), r[1] + 1))
            last = rows[-1]
            check(all(abs(last["P[%d].v" % (i + 1)] - float(ref[-1][5][i])) <= 1e-12 for i in range(3)),
                  "%s: final velocities %s to 1e-12" % (tag, [str(v) for v in ref[-1][5]]))
    return 1 if FAILS else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--selftest", action="store_true")
    ap.add_argument("--nsmc")
    ap.add_argument("--include")
    ap.add_argument("--lib")
    ap.add_argument("--cc", default="cc")
    ap.add_argument("--cflags", default="-O2")
    ap.add_argument("--method", default="exact")
    ap.add_argument("--case", default="collapse", choices=["collapse", "finite"])
    ap.add_argument("--shift", type=float, default=0.0)
    args = ap.parse_args()
    rc = selftest() if args.selftest else sim(args)
    if FAILS:
        print("%d check(s) failed" % len(FAILS))
    return rc


if __name__ == "__main__":
    sys.exit(main())
