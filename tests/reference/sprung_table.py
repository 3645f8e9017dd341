"""Reference for models/sprung_table.nsm: a ball resting on a sprung table.

A table (M) on a spring (k) to the ground and a ball (m) lying on it, both
released at rest at x = 0 with the spring at its rest length, under g.  Held
together, they move as one mass m + M:

    x(t) = -(m + M) g / k (1 - cos(w t)),   w = sqrt(k / (m + M)),

and the ball is pressed onto the table with m (g + x'') = m w^2 (-x) >= 0,
zero only at the top of each swing, where it turns back without ever
pulling: the contact stays shut for good.  The force is 0 at t = 0 and grows
(as t^2): the contact is at rest and, once free flight would carry it into
the gap, held shut.  No impact (there is no closing speed), no separation.

    sprung_table.py --sim EXE --method M [--tol TOL]

runs EXE (tests/cradle/cradle_run.c built on models/sprung_table.nsm) to
t = 2 s and checks: the run ends without error; its only event is one
`stick` of C within 1e-5 s of t = 0; the contact is shut at the end; both
bodies are at x(2 s) to TOL (default 1e-9 m) with x'(2 s) to 1e2 TOL.
"""
import argparse
import math
import subprocess
import sys

M, MB, K, G = 1.0, 1.0, 100.0, 9.81
T_END = 2.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sim", required=True)
    ap.add_argument("--method", default="rk4")
    ap.add_argument("--tol", type=float, default=1e-9)
    a = ap.parse_args()
    out = subprocess.run([a.sim, a.method, repr(T_END)], check=True, capture_output=True,
                         text=True).stdout
    status, events, mode, x, v = None, [], None, {}, {}
    for line in out.splitlines():
        f = line.split()
        if f[0] == "status":
            status = int(f[1])
        elif f[0] == "event":
            events.append((f[1], int(f[2]), float(f[3])))
        elif f[0] == "mode":
            mode = int(f[1])
        elif f[0] in ("x", "v"):
            (x if f[0] == "x" else v)[int(f[1])] = float(f[2])
    w = math.sqrt(K / (M + MB))
    amp = (M + MB) * G / K
    xr, vr = -amp * (1 - math.cos(w * T_END)), -amp * w * math.sin(w * T_END)
    msgs = []
    if status != 0:
        msgs.append("the run failed (status %s)" % status)
    if len(events) != 1 or events[0][:2] != ("stick", 0) or not 0 <= events[0][2] < 1e-5:
        msgs.append("events %s, expected one stick of C at t < 1e-5 s" % events[:6])
    if mode is None or not mode & 1:
        msgs.append("contact C is not shut at the end (mode %s)" % mode)
    for i, name in enumerate(("T", "B")):
        if not abs(x.get(i, math.nan) - xr) <= a.tol:
            msgs.append("%s.x = %.17g, reference %.17g" % (name, x.get(i, math.nan), xr))
        if not abs(v.get(i, math.nan) - vr) <= 1e2 * a.tol:
            msgs.append("%s.v = %.17g, reference %.17g" % (name, v.get(i, math.nan), vr))
    print("sprung table, %s: %d events, x(2 s) = %.12g (reference %.12g)"
          % (a.method, len(events), x.get(1, math.nan), xr))
    for m in msgs:
        print("FAIL " + m)
    return 1 if msgs else 0


if __name__ == "__main__":
    sys.exit(main())
