#!/usr/bin/env python3
"""What the seventeenth hostile pass on the core and the round after it
left as found, each case failing before its fix.

    tests/reliability/leftovers18_core_test.py SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  hrest   a ball of 0.1 kg released at rest touching a Hertz floor (k =
          1e9, exponent 1.5) under gravity sinks to d = (5 m g/(2 k))^(2/3)
          and comes back to p = 0 at rest, every T = 2 T_half, T_half =
          sqrt(2 d/g) int_0^(pi/2) sqrt((1 + sin u)/(1 + sin u + sin^2 u))
          du (p = d sin^2 u in the energy m v^2/2 + 2/5 k p^(5/2) = m g
          p).  taylor left the law out for 2 ms and fell through the floor
          (refused, "the energy balance is off by 1"); rk4 without a dt,
          its step bounded by the contact's energy alone (0 at rest), was
          refused at 1 ms samples, "use --method taylor".  Now by hand
          under taylor, rk4 and adaptive: the energy at every sample, the
          depth at odd multiples of T_half and p = 0 at the even ones.
  rock    the rocking block without friction (mu = 0): taylor stopped at
          the rocking's accumulation, 0.28501 s, "the stuck friction
          elements are redundant".  Now the centre falls vertically (B.x
          constant, B.vx = 0), the first impact at T1 = int d(phi)/|omega|
          (energy m g y + (m y'^2 + I omega^2)/2 conserved on the left
          corner), the energy after it that of the vertical impulse on the
          right corner, and at rest on both corners at the end, under
          taylor, rk4 and adaptive.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import check, main  # noqa: E402
# the twelfth core pass's nsm.compile with the program cache in the case's folder
from twelfth_pass_core_test import compiled  # noqa: E402

SRC = os.path.abspath(sys.argv[1])
G = 9.81


def refusal(fn):
    """fn's value, or the message of the nsm.Error it raises."""
    import nsm
    try:
        return fn()
    except nsm.Error as ex:
        return str(ex)


def gauss(f, a, b, n=60):
    """Gauss-Legendre quadrature of f over [a, b] (n points)."""
    import numpy as np
    xs, ws = np.polynomial.legendre.leggauss(n)
    return sum(w * f(a + (b - a) * (x + 1) / 2) for x, w in zip(xs, ws)) * (b - a) / 2


HREST = '''model hrest "a ball released at rest touching a Hertz floor"
mass M = 0.1 kg
gravity 9.81 m/s^2
gap C: M.x >= 0 m, penalty(k = 1e9, c = 0 N*s/m, exponent = 1.5)
init M.x = 0 m, M.v = 0 m/s
simulate t_end = 50 ms
output every 1 ms: M.x, M.v
'''


def case_hrest(tmp):
    """The ball's depth, period and energy by hand under every method
    that takes the model (exact refuses a nonlinear model, naming taylor)."""
    m, k = 0.1, 1e9
    d = (5 * m * G / (2 * k)) ** (2 / 3)
    half = math.sqrt(2 * d / G) * gauss(
        lambda u: math.sqrt((1 + math.sin(u)) / (1 + math.sin(u) + math.sin(u) ** 2)),
        0, math.pi / 2)
    ball = compiled(tmp, "hrest", HREST)
    msg = refusal(lambda: ball.run(method="exact"))
    print("  ball on a Hertz floor, exact -> %s" % msg)
    check(isinstance(msg, str) and "use --method taylor" in msg,
          "exact on a Hertz floor: refused, naming taylor")
    print("  by hand: depth %.10g m, half period %.10g s" % (d, half))
    for meth in ("taylor", "rk4", "adaptive"):
        for every, t_end in ((half / 8, 6 * half), (1e-3, 0.05)):
            r = refusal(lambda: ball.run(method=meth, every=every, t_end=t_end))
            if isinstance(r, str):
                print("  released at rest, %s, samples every %.4g s -> %s" % (meth, every, r))
                check(False, "a ball released at rest on a Hertz floor (%s) runs" % meth)
            x, v = r["M.x"], r["M.v"]
            en = max(abs(0.5 * m * b * b + 0.4 * k * max(-a, 0) ** 2.5 + m * G * a)
                     for a, b in zip(x, v)) / (m * G * d)
            at = [abs(x[i] + (d if (i // 8) % 2 else 0)) / d
                  for i in range(0, len(x), 8)] if every < 1e-3 else [0]
            tol = 1e-6 if meth == "adaptive" else 1e-8
            print("  released at rest, %s, samples every %.4g s -> %d samples, deepest %.10g m, "
                  "energy within %.3g of m g d, at k T_half within %.3g of d"
                  % (meth, every, len(x), -min(x), en, max(at)))
            check(len(x) == round(t_end / every) + 1 and en < tol and max(at) < tol
                  and -min(x) <= d * (1 + tol),
                  "a ball released at rest on a Hertz floor (%s, samples every %.4g s): its "
                  "depth, period and energy by hand" % (meth, every))


def case_rock(tmp):
    """The rocking block of models/rocking_block.nsm with mu = 0."""
    text = open(os.path.join(SRC, "models", "rocking_block.nsm")).read()
    block = compiled(tmp, "rock0", text.replace("mu = 2", "mu = 0"))
    m, b, h, th0 = 1.0, 0.2, 0.5, 0.1
    inertia = m * (b * b + h * h) / 3
    y0 = b * math.sin(th0) + h * math.cos(th0)

    def omega(phi):
        """|omega| on the left corner at phi (energy; y' = (b cos - h sin) omega)."""
        y = b * math.sin(phi) + h * math.cos(phi)
        return math.sqrt(2 * m * G * (y0 - y) / (m * (b * math.cos(phi) - h * math.sin(phi)) ** 2
                                                 + inertia))
    # phi = th0 (1 - s^2): the 1/sqrt at the release taken out
    t1 = gauss(lambda s: 2 * th0 * s / omega(th0 * (1 - s * s)), 0, 1)
    wm = -omega(0.0)
    vym = b * wm
    P = -(vym + b * wm) / (1 / m + b * b / inertia)     # the right corner brought to rest
    e1 = 0.5 * m * (vym + P / m) ** 2 + 0.5 * inertia * (wm + b * P / inertia) ** 2 + m * G * h
    x0 = b * math.cos(th0) - h * math.sin(th0)
    print("  by hand: first impact at %.12g s, energy after it %.12g J" % (t1, e1))
    for meth in ("taylor", "rk4", "adaptive"):
        r = refusal(lambda: block.run(method=meth))
        if isinstance(r, str):
            print("  rocking block, mu = 0, %s -> %s" % (meth, r))
            check(False, "the frictionless rocking block (%s) runs" % meth)
        E = [0.5 * m * (vx * vx + vy * vy) + 0.5 * inertia * w * w + m * G * y
             for vx, vy, w, y in zip(r["B.vx"], r["B.vy"], r["B.omega"], r["B.y"])]
        imp = [float(e["t"]) for e in r.events if e["kind"] == "impact"]
        dx = max(max(abs(x - x0) for x in r["B.x"]), max(abs(v) for v in r["B.vx"]))
        between = [abs(E[i] - e1) / e1 for i in range(len(r.t)) if imp[0] < r.t[i] < imp[1]]
        end = max(abs(r["B.y"][-1] - h), abs(r["B.phi"][-1]), abs(r["B.vy"][-1]),
                  abs(r["B.omega"][-1]))
        print("  rocking block, mu = 0, %s -> %d events to %g s; B.x within %.3g of x0; first "
              "impact %.3g s off; energy after it within %.3g (%d samples); at the end %.3g from "
              "rest" % (meth, len(r.events), r.t[-1], dx, imp[0] - t1, max(between), len(between),
                        end))
        check(r.t[-1] == 1.5 and dx < 1e-12 and abs(imp[0] - t1) < 1e-9 and between
              and max(between) < 1e-10 and end < 1e-9,
              "the frictionless rocking block (%s): falls vertically, by hand" % meth)


CASES = {"hrest": case_hrest, "rock": case_rock}

if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-left18core-", case_arg=2))
