#!/usr/bin/env python3
"""A twenty-first hostile pass on the core: plastic trains under the
sequential law, switches tied with impacts, and adaptive's reuse of its
last stage under switches, every answer against a closed form derived here.

    tests/reliability/twentyfirst_pass_core_test.py SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  plastictrain  beads (e = 0) all touching, the first struck at 1 m/s: 5
                and 30 equal beads, 10 beads of masses 1e-3 to 1e3 kg
                (rising and falling), 20 beads of 0.13 to 10.1 kg, 1e-6,
                1e6, 1e-6 kg, and 1 kg against 1e-9 kg (both orders), by
                exact, rk4 and adaptive: the plastic limit moves every bead
                at m1 v0 / M (momentum; no contact separates).  Passed
                (kept).
  switchtie     a ball dropped from g/2 m (first impact at t = 1 s exactly)
                onto a floor (e = 0.5, 0, 1), lifted by 2 m g from T = 1 s
                (the impact's instant), 1 + 1e-15, 0.5, 0, 1.3 s, sampled
                every 1 ms, 0.1 s, 1 s and 0.0123 s, by exact, rk4 and
                adaptive: after T it rises at g from its state at T, bounce
                by bounce by hand.  Passed (kept).
  oscswitch     a damped oscillator (k = 0.25 to 1e4 N/m, zeta 0 to 0.5)
                pushed by a step force F from T = 0, 1e-9, 0.7, 2.5, 5 s,
                sampled every 1 ms, 0.37 s and 5 s, by exact, rk4 (1e-4 s)
                and adaptive (rtol 1e-11, reusing its last stage between
                steps): x(t) the free response plus the step response from
                T.  Passed (kept).
  cradles       cradles of 3, 7 and 20 equal balls (e = 1) struck at 1 m/s,
                and two bodies (1e-6 to 1e6 kg, e = 0, 0.3, 1) meeting at 1
                and -0.5 m/s, three equal beads with the laws e = 0 and 1
                (both orders), by exact, rk4 and adaptive: the last ball
                leaves at 1 m/s and the others rest; the pair's velocities
                from momentum and Newton's law; (1/4, 1/4, 1/2) and (0, 1/2,
                1/2) m/s by the pair collisions.  Passed (kept).
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import check, main, compiled  # noqa: E402

G = 9.81
METHODS = ("exact", "rk4", "adaptive")


def train_text(name, masses):
    """A train of beads of these masses, touching, plastic contacts; the
    first comes in at v0 from 0.1 m away."""
    lines = ['model %s "a plastic train"' % name, "param v0 = 1 m/s"]
    lines += ["mass P%d = %r kg" % (i + 1, m) for i, m in enumerate(masses)]
    lines += ["gap G%d: P%d.x - P%d.x >= 0 m, impact(e = 0)" % (i + 1, i + 2, i + 1)
              for i in range(len(masses) - 1)]
    lines += ["init P1.x = -0.1 m, P1.v = v0", "simulate t_end = 0.5 s, dt = 1 ms",
              "output every 10 ms: " + ", ".join("P%d.v" % (i + 1) for i in range(len(masses)))]
    return "\n".join(lines) + "\n"


def case_plastictrain(tmp):
    """Plastic trains end moving together at the momentum's speed."""
    picks = (0.13, 2.3, 10.1, 0.47, 3.7)
    trains = ([1.0] * 5, [1.0] * 30, [10 ** (-3 + 6 * i / 9) for i in range(10)],
              [10 ** (3 - 6 * i / 9) for i in range(10)], [picks[(7 * i) % 5] for i in range(20)],
              [1e-6, 1e6, 1e-6], [1.0, 1e-9], [1e-9, 1.0])
    for k, masses in enumerate(trains):
        m = compiled(tmp, "train%d" % k, train_text("train%d" % k, masses))
        V = masses[0] / sum(masses)
        for meth in METHODS:
            r = m.run(method=meth)
            err = max(abs(r["P%d.v" % (i + 1)][-1] - V) for i in range(len(masses)))
            print("  %d beads (%.3g to %.3g kg), e = 0, %s -> speeds within %.3g of m1 v0/M = %.17g"
                  % (len(masses), min(masses), max(masses), meth, err, V))
            check(err <= 1e-9 * max(1.0, V), "plastic train %d (%s): one speed m1 v0/M" % (k, meth))


BALL = '''model lifted "a ball dropped onto a floor, lifted from T"
param T = 1 s
param e = 0.5
mass B = 1 kg
gravity 9.81 m/s^2
force on B = if t >= T then 19.62 N else 0 N
gap floor: B.x >= 0 m, impact(e = e)
init B.x = 4.905 m
simulate t_end = 1.6 s, dt = 1 ms
output every EVERY: B.x, B.v
'''


def ball_at(T, e, h=4.905):
    """(x, v) at T of a ball dropped from h (restitution e), bounce by bounce."""
    v1, t1 = math.sqrt(2 * G * h), math.sqrt(2 * h / G)
    if T < t1:
        return h - G * T * T / 2, -G * T
    tk, vk = t1, e * v1
    if vk == 0:
        return 0.0, 0.0
    while tk + 2 * vk / G < T:
        tk, vk = tk + 2 * vk / G, vk * e
    tau = T - tk
    return vk * tau - G * tau * tau / 2, vk - G * tau


def case_switchtie(tmp):
    """A lift switched on at the impact's instant, and about it."""
    for n, every in enumerate(("1 ms", "0.1 s", "1 s", "0.0123 s")):
        m = compiled(tmp, "lifted%d" % n, BALL.replace("EVERY", every))
        for meth in METHODS:
            for e in (0.5, 0.0, 1.0):
                for T in (1.0, 1 + 1e-15, 0.5, 0.0, 1.3):
                    r = m.run(method=meth, params={"T": T, "e": e})
                    xT, vT = ball_at(T, e) if T > 0 else (4.905, 0.0)
                    err = max((abs(x - (xT + vT * (t - T) + G / 2 * (t - T) ** 2)) +
                               abs(v - (vT + G * (t - T)))
                               for t, x, v in zip(r.t, r["B.x"], r["B.v"]) if t > T + 1e-9),
                              default=0.0)
                    print("  lift from T = %.17g s, e = %g, every %s, %s -> (x, v) within %.3g "
                          "of the rise from (%.6g m, %.6g m/s)" % (T, e, every, meth, err, xT, vT))
                    check(err < 1e-6, "lift from %.17g s, e = %g (%s, every %s)" % (T, e, meth, every))


OSC = '''model osc "a damped oscillator pushed by a step force"
param k = 4 N/m
param c = 0.4 N*s/m
param F = 1 N
param T = 0.7 s
mass P = 1 kg
spring S: P -- ground, k = k
damper D: P -- ground, c = c
force on P = if t >= T then F else 0 N
init P.x = 0.1 m
simulate t_end = 5 s, dt = 1 ms
output every EVERY: P.x, P.v
'''


def osc_x(t, k, c, F, T, x0=0.1):
    """x(t) of the unit mass: free from x0 at rest, plus F/k's step response from T."""
    w = math.sqrt(k)
    z = c / (2 * w)
    wd = w * math.sqrt(1 - z * z)

    def free(t, x0):
        return math.exp(-z * w * t) * (x0 * math.cos(wd * t) + z * w * x0 / wd * math.sin(wd * t))
    return free(t, x0) + (F / k - free(t - T, F / k) if t >= T else 0.0)


def case_oscswitch(tmp):
    """A step force switched on, every method, samples fine and coarse."""
    for n, every in enumerate(("1 ms", "0.37 s", "5 s")):
        m = compiled(tmp, "osc%d" % n, OSC.replace("EVERY", every))
        for meth in METHODS:
            for k, c, F, T in ((4, 0.4, 1, 0.7), (4, 0, 1, 0.7), (100, 0.1, -3, 0.0), (4, 0.4, 1, 5.0),
                               (0.25, 0.5, 2, 1e-9), (4, 0.4, 0, 0.7), (1e4, 1, 1, 2.5)):
                kw = {"dt": 1e-4} if meth == "rk4" else ({"rtol": 1e-11, "atol": 1e-13}
                                                          if meth == "adaptive" else {})
                r = m.run(method=meth, params={"k": k, "c": c, "F": F, "T": T}, **kw)
                err = max(abs(x - osc_x(t, k, c, F, T)) for t, x in zip(r.t, r["P.x"]))
                print("  k = %g, c = %g, F = %g from T = %g, every %s, %s -> x within %.3g"
                      % (k, c, F, T, every, meth, err))
                check(err < 1e-7, "step force from %g s (k = %g, %s, every %s)" % (T, k, meth, every))


TWO = '''model two "two bodies meeting"
param m1 = 1 kg
param m2 = 1 kg
param e = 0.5
mass A = m1
mass B = m2
gap G: B.x - A.x >= 0 m, impact(e = e)
init A.x = -0.1 m, A.v = 1 m/s, B.v = -0.5 m/s
simulate t_end = 0.3 s, dt = 1 ms
output every 10 ms: A.v, B.v
'''


# three equal beads, the first pair's law e1, the second's e2: by the
# sequence of pair collisions, (e1, e2) = (0, 1) ends at (1/4, 1/4, 1/2) v0
# (plastic, elastic exchange, plastic again) and (1, 0) at (0, 1/2, 1/2) v0
MIXED = '''model mixed "three beads, two laws"
param e1 = 0
param e2 = 1
mass A = 1 kg
mass B = 1 kg
mass C = 1 kg
gap G1: B.x - A.x >= 0 m, impact(e = e1)
gap G2: C.x - B.x >= 0 m, impact(e = e2)
init A.x = -0.1 m, A.v = 1 m/s
simulate t_end = 0.3 s, dt = 1 ms
output every 10 ms: A.v, B.v, C.v
'''


def case_cradles(tmp):
    """Elastic cradles and two-body impacts of very different masses."""
    for N in (3, 7, 20):
        text = ('model cradle%d "a cradle of equal balls"\n' % N +
                "".join("mass P%d = 1 kg\n" % (i + 1) for i in range(N)) +
                "".join("gap G%d: P%d.x - P%d.x >= 0 m, impact(e = 1)\n" % (i + 1, i + 2, i + 1)
                        for i in range(N - 1)) +
                "init P1.x = -0.1 m, P1.v = 1 m/s\nsimulate t_end = 0.3 s, dt = 1 ms\n"
                "output every 10 ms: " + ", ".join("P%d.v" % (i + 1) for i in range(N)) + "\n")
        m = compiled(tmp, "cradle%d" % N, text)
        for meth in METHODS:
            r = m.run(method=meth)
            err = max(abs(r["P%d.v" % (i + 1)][-1] - (1.0 if i == N - 1 else 0.0)) for i in range(N))
            print("  cradle of %d, %s -> speeds within %.3g of (0, ..., 0, 1)" % (N, meth, err))
            check(err <= 1e-9, "cradle of %d (%s): the last ball leaves alone" % (N, meth))
    m = compiled(tmp, "mixed", MIXED)
    for e1, e2, ref in ((0, 1, (0.25, 0.25, 0.5)), (1, 0, (0.0, 0.5, 0.5))):
        for meth in METHODS:
            r = m.run(method=meth, params={"e1": e1, "e2": e2})
            err = max(abs(r[b + ".v"][-1] - v) for b, v in zip("ABC", ref))
            print("  three equal beads, e = %g then %g, %s -> within %.3g of %s"
                  % (e1, e2, meth, err, ref))
            check(err <= 1e-12, "mixed laws e = %g, %g (%s)" % (e1, e2, meth))
    m = compiled(tmp, "two", TWO)
    for m1, m2 in ((1, 1), (1e-6, 1), (1, 1e-6), (1e6, 1e-6), (3, 7)):
        for e in (0, 0.3, 1):
            vc = (m1 * 1.0 - m2 * 0.5) / (m1 + m2)
            a, b = vc - e * m2 * 1.5 / (m1 + m2), vc + e * m1 * 1.5 / (m1 + m2)
            for meth in METHODS:
                r = m.run(method=meth, params={"m1": m1, "m2": m2, "e": e})
                err = abs(r["A.v"][-1] - a) + abs(r["B.v"][-1] - b)
                print("  %g kg at 1 m/s meets %g kg at -0.5 m/s, e = %g, %s -> within %.3g of "
                      "(%.17g, %.17g)" % (m1, m2, e, meth, err, a, b))
                check(err <= 1e-9 * max(1, abs(a), abs(b)), "two bodies %g, %g kg, e = %g (%s)"
                      % (m1, m2, e, meth))


if __name__ == "__main__":
    sys.exit(main({"plastictrain": case_plastictrain, "switchtie": case_switchtie,
                   "oscswitch": case_oscswitch, "cradles": case_cradles}, "nsm-twentyfirst-core-", case_arg=2))
