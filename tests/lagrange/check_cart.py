#!/usr/bin/env python3
"""The cart carrying a pendulum (models/cart_pendulum.nsm, a model written
by its energies: M(q) depends on the angle) against the independent mpmath
reference tests/reference/cart_pendulum.py (its committed data,
tests/reference/data/cart_pendulum.*.csv: the hand-written Euler-Lagrange
equations integrated by mp.odefun at 30 digits, impacts located by
bisection, the impact law W M(q)^-1 W^T by hand).

usage: check_cart.py --nsmc NSMC --include DIR --lib A:B:.. [--cc CC]
                     [--cflags="FLAGS"] --method rk4|adaptive|taylor

Checks, with the method's tolerances (TOL):
- every impact at the reference's instant, the cart's and the pendulum's
  velocities before (Poincare section at the impacts, full precision) and
  after it (the trajectory's row at the impact);
- the states at the reference's samples every 0.1 s;
- the horizontal momentum (M + m) x' + m l cos(th) th' constant between
  impacts (the trajectory at every step), and its jump at an impact equal
  to the impulse the event log reports;
- the energy balance (T = 1/2 v^T M(q) v, V(q)) closing.
"""
import argparse
import csv
import math
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
REF = os.path.join(ROOT, "tests", "reference", "data", "cart_pendulum")
MC, MB, L = 2.0, 0.5, 0.4
# method: (simulator options, event s, velocity rel, sample abs, momentum rel, balance)
TOL = {"adaptive": (["--rtol", "1e-12", "--atol", "1e-14"], 1e-10, 1e-9, 1e-9, 1e-9, 1e-10),
       "rk4": (["--dt", "1e-4"], 1e-9, 1e-7, 1e-8, 1e-8, 1e-8),
       # the taylor targets: events within 1e-12 s, states within
       # 1e-10 relative, the balance within 1e-10 of the largest energy
       "taylor": ([], 1e-12, 1e-10, 1e-10, 1e-10, 1e-10)}
FAILS = []


def check(cond, what):
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        FAILS.append(what)


def read(path):
    with open(path) as f:
        return [{k.split(" [")[0]: v for k, v in r.items()} for r in csv.DictReader(f)]


def momentum(xd, th, thd):
    return (MC + MB) * xd + MB * L * math.cos(th) * thd


def build(a, work, name="cart_pendulum"):
    """models/NAME.nsm's simulator, compiled in work."""
    c = os.path.join(work, name + ".c")
    subprocess.run([a.nsmc, os.path.join(ROOT, "models", name + ".nsm"), "-o", c], check=True)
    exe = os.path.join(work, name)
    subprocess.run([a.cc] + a.cflags.split() + [c, "-I", a.include] + a.lib.split(os.pathsep) +
                   ["-lm", "-o", exe], check=True)
    return exe


def simulate(exe, opts, work, every, contact="stop"):
    """Events, the state before each impact, the trajectory every `every`
    seconds (0: every step) and the balance's error relative to the largest
    energy."""
    ev, out, sec = (os.path.join(work, f) for f in ("ev.csv", "out.csv", "sec.csv"))
    p = subprocess.run([exe, "--events", ev, "--out", out, "--every", every, "--section",
                        "impact:" + contact, "--section-out", sec, "--summary"] + opts,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit("simulator failed: " + p.stderr)
    m = re.search(r"relative to the largest energy\s+(\S+)", p.stdout)
    with open(sec) as f:
        before = [[float(v) for v in row] for row in list(csv.reader(f))[1:]]
    return read(ev), before, read(out), float(m.group(1)) if m else float("inf")


def main():
    ap = argparse.ArgumentParser()
    for k in ("--nsmc", "--include", "--lib"):
        ap.add_argument(k, required=True)
    ap.add_argument("--cc", default="cc")
    ap.add_argument("--cflags", default="-O2")
    ap.add_argument("--method", required=True, choices=sorted(TOL))
    a = ap.parse_args()
    opts, et, vt, st, pt, bt = TOL[a.method]
    ref_ev = read(REF + ".events.csv")
    ref_sa = read(REF + ".samples.csv")
    with tempfile.TemporaryDirectory() as work:
        exe = build(a, work)
        events, before, traj, bal = simulate(exe, ["--method", a.method] + opts, work, "0")
        samples = simulate(exe, ["--method", a.method] + opts, work, "0.1")[2]
    imp = [e for e in events if e["kind"] == "impact"]
    check(len(imp) == len(ref_ev) and len(before) == len(ref_ev),
          "%d impacts, %d section records (reference %d)" % (len(imp), len(before), len(ref_ev)))
    rows = [{k: float(v) for k, v in r.items()} for r in traj]
    # the row after impact k: the last at its instant (rows print 12 digits)
    starts = [max([i for i, q in enumerate(rows) if abs(q["t"] - float(e["t"])) <= 1e-10] or [-1])
              for e in imp]
    for k, (e, b, r) in enumerate(zip(imp, before, ref_ev)):
        t, tr = float(e["t"]), float(r["t"])
        check(abs(t - tr) <= et, "impact %d at %.17g s (reference %s, error %.3g s)"
              % (k, t, r["t"], t - tr))
        # the section's record: t, phase, C.x, th, C.v, th.omega before the impact
        for name, got, want in (("x'-", b[4], r["xd-"]), ("th'-", b[5], r["thd-"])):
            check(abs(got - float(want)) <= vt * abs(float(want)),
                  "impact %d: %s %.15g (reference %s)" % (k, name, got, want))
        check(starts[k] >= 0, "impact %d: the trajectory's row after it" % k)
        if starts[k] >= 0:
            s = rows[starts[k]]
            for name, got, want in (("x'+", s["C.v"], r["xd+"]), ("th'+", s["th.omega"], r["thd+"])):
                check(abs(got - float(want)) <= max(vt, 1e-11) * abs(float(want)),
                      "impact %d: %s %.12g (reference %s)" % (k, name, got, want))
            # the stop takes P from the momentum: p- - p+ = P
            jump = momentum(b[4], b[3], b[5]) - momentum(s["C.v"], s["th.phi"], s["th.omega"])
            check(abs(jump - float(e["impulse"])) <= 1e-9 * abs(jump),
                  "impact %d: momentum taken %.12g = the impulse %s" % (k, jump, e["impulse"]))
    worst = 0.0
    srows = [{k: float(v) for k, v in r.items()} for r in samples]
    for r in ref_sa:
        t = float(r["t"])
        s = [q for q in srows if abs(q["t"] - t) < 1e-12]
        if not s:
            check(False, "a trajectory row at t = %g" % t)
            continue
        s = s[-1]
        for col in ("C.x", "th.phi", "C.v", "th.omega"):
            worst = max(worst, abs(s[col] - float(r[col])) / max(1.0, abs(float(r[col]))))
    check(worst <= st, "states at the reference's samples within %.3g (worst %.3g)" % (st, worst))
    # momentum between impacts: each flight's rows against its first
    cuts = [0] + [i for i in starts if i >= 0] + [len(rows)]
    drift = 0.0
    for i0, i1 in zip(cuts, cuts[1:]):
        fl = rows[i0:i1]
        if not fl:
            continue
        p0 = momentum(fl[0]["C.v"], fl[0]["th.phi"], fl[0]["th.omega"])
        for q in fl:
            drift = max(drift, abs(momentum(q["C.v"], q["th.phi"], q["th.omega"]) - p0) / abs(p0))
    check(drift <= pt, "momentum between impacts constant within %.3g (worst %.3g)" % (pt, drift))
    check(bal <= bt, "energy balance %.3g of the largest energy (at most %.3g)" % (bal, bt))
    if FAILS:
        sys.exit("%d check(s) failed" % len(FAILS))


if __name__ == "__main__":
    main()
