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
          p).  rk4 without a dt, its step bounded by the contact's energy
          alone (0 at rest), was refused at 1 ms samples, "use --method
          taylor", and taylor refuses it too.  Now rk4 without a dt and
          adaptive by hand: the energy at every sample, the depth at odd
          multiples of T_half and p = 0 at the even ones; rk4 at a dt of 1
          ms is refused advising adaptive (which works); taylor, refused
          here before (its law near p = 0), runs by hand too since
          leftovers20_core_test's hertzrest (within 1e-7).
  rock    the rocking block without friction (mu = 0): taylor stopped at
          the rocking's accumulation, 0.28501 s, "the stuck friction
          elements are redundant".  Now the centre falls vertically (B.x
          constant, B.vx = 0), the first impact at T1 = int d(phi)/|omega|
          (energy m g y + (m y'^2 + I omega^2)/2 conserved on the left
          corner), the energy after it that of the vertical impulse on the
          right corner, and at rest on both corners at the end, under
          taylor, rk4 and adaptive.
  free    exact on a free mass steps 2 s at a time (its mode's reach 2/nu,
          nu = 1/s from x' = v): not a defect.  Samples inside a step come
          from the step's expansion, events are located inside it, and the
          motion is a polynomial the expansion holds: x0 + v0 t + F t^2/(2
          m) at every sample (every 0.7 s and every 77.7 s to 1e5 s) within
          1e-13 of the span's largest |x|, the landing on a wall 1000 m away
          at (-v0 + sqrt(v0^2 + 2 a L))/a within 1e-13 relative and the
          motion after it (e = 0.5) by hand.  Passes before and after: the
          step length stays, documented.
  units   (a) a parameter given as a bare number matches any unit, alone, in
          a product or a sum (language.md says so; models write `A*sin(w*t)`
          so): `force on M = q` runs as q newtons; (b) a unit reads its
          atoms left to right, `*` and `/` at one level and `^` tightest, as
          arithmetic does: gravity `9.81 m/s^2*m` is in m^2/s^2, refused with
          a caret, `2 N/m*s` is a damping in N*s/m; (c) `2` and `-2` alone
          match any slot (a force), `2*M.v` is in m/s and refused as a force
          while the negated `-2*M.v` matches any slot (language.md).
  floor   the mid-run slip judgement on a part of the model: a mass at rest
          pushed by 1e-13 N from t = 1 s to 2 s against friction (mu_s N =
          5e-14 N), beside an unrelated oscillator at 1 m/s, slid backwards
          after the push, exit 0 (its slip judged on the whole model's
          speeds, the oscillator's among them).  Now it stops after the push
          and by the stick it had to make (2 + 7/3 s at most), naming the
          element and the floor; at 1e-7 N it sticks at 2 + 7/3 s at 7e-8/6
          m within 1e-9 and the oscillator keeps cos t (exact, rk4,
          adaptive).
  spatial a sphere in space (r = 1 m, I = 2/5 m r^2) sliding at 1e-13 m/s
          without spin on a rough floor (mu = 0.5) beside a body flying at
          50 m/s: spatial friction has no absolute velocity floor (its slip
          tolerance is 1e-10 of its own body's speeds), so the slip is
          decided on its own scale: it sticks at 2 v0/(7 mu g) and rolls at
          5/7 v0 (rk4 and adaptive); taylor's series overflow at 1e-15 s
          steps and it stops saying so ("scale the model's values").
          Passes before and after: no floor to judge mid-run there.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import check, compiled, main  # noqa: E402

SRC = os.path.abspath(sys.argv[1])
NSMC = os.path.join(os.environ.get("NSM_BUILD_DIR", os.path.join(SRC, "build")), "nsmc")
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
    """The ball's depth, period and energy by hand under rk4, adaptive and
    taylor; exact and rk4 at a dt of 1 ms refused, each advising a method
    that works."""
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
    # taylor, refused here before, runs since leftovers20_core_test's hertzrest
    for meth, dt, advice in (("rk4", 1e-3, "give a smaller --dt or use --method adaptive"),):
        msg = refusal(lambda: ball.run(method=meth, dt=dt))
        print("  released at rest, %s, dt %s -> %s" % (meth, dt, msg if isinstance(msg, str)
                                                        else "ran"))
        check(isinstance(msg, str) and "energy balance is off" in msg and advice in msg,
              "a ball released at rest on a Hertz floor (%s, dt %s): refused, advising %s"
              % (meth, dt, advice))
    for meth in ("rk4", "adaptive", "taylor"):
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
            tol = {"adaptive": 1e-6, "taylor": 1e-7}.get(meth, 1e-8)
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

FREE = '''model free "a mass pushed towards a far wall"
param F = 0 N
mass M = 1 kg
force push: on M = F
gap W: 1000 m - M.x >= 0 m, impact(e = 0.5)
init M.x = 0.1 m, M.v = 0.3 m/s
simulate t_end = 10 s
output every 0.7 s: M.x, M.v
'''


def free_by_hand(F, t, x0=0.1, v0=0.3, L=1000.0, e=0.5):
    """x, v of the unit mass pushed by F from (x0, v0) towards the wall at L,
    its landing at t1 (a = F: the root of x0 + v0 t + a t^2/2 = L), the
    rebound -e v1."""
    a = F
    t1 = (-v0 + math.sqrt(v0 * v0 + 2 * a * (L - x0))) / a if a > 0 else (L - x0) / v0
    if t <= t1:
        return x0 + v0 * t + a * t * t / 2, v0 + a * t, t1
    s, v1 = t - t1, v0 + a * t1
    return L - e * v1 * s + a * s * s / 2, -e * v1 + a * s, t1


def case_free(tmp):
    """exact on a free mass, its 2 s steps: samples, landing and motion by
    hand."""
    free = compiled(tmp, "free", FREE)
    for F, T, every in ((0.0, 1e3, 0.7), (0.0, 1e5, 77.7), (0.7, 100.0, 0.7), (0.5, 100.0, 0.3)):
        r = free.run(method="exact", t_end=T, every=every, params={"F": F})
        big = max(max(abs(x) for x in r["M.x"]), 1.0)
        vbig = max(max(abs(v) for v in r["M.v"]), 1.0)
        err = max(max(abs(x - free_by_hand(F, t)[0]) / big, abs(v - free_by_hand(F, t)[1]) / vbig)
                  for t, x, v in zip(r.t, r["M.x"], r["M.v"]))
        imp = [float(ev["t"]) for ev in r.events if ev["kind"] == "impact"]
        t1 = free_by_hand(F, 0.0)[2]
        land = abs(imp[0] / t1 - 1) if imp else (0.0 if t1 > T else 1.0)
        print("  free mass, F %g N, to %g s, samples every %g s -> %d samples within %.3g, "
              "landing %s (by hand %.15g s, %.3g off)" % (F, T, every, len(r.t), err,
                                                           imp[:1], t1, land))
        # the grid's samples, and the state at T as the last when the
        # period does not divide T
        grid = math.floor(T / every + 1e-9) + 1
        want = grid + (0 if abs(T - (grid - 1) * every) <= 1e-9 * every else 1)
        check(len(r.t) == want and r.t[-1] == T and err < 1e-13 and land < 1e-13,
              "exact on a free mass (F %g N, to %g s): its samples and landing by hand" % (F, T))


def nsmc_check(tmp, text):
    """nsmc on a model text: its exit status and its messages."""
    path = os.path.join(tmp, "u.nsm")
    with open(path, "w") as f:
        f.write(text)
    p = subprocess.run([NSMC, path, "-o", os.path.join(tmp, "u.c")], capture_output=True,
                       text=True, timeout=60)
    return p.returncode, p.stderr


def case_units(tmp):
    """Bare parameters, a unit's atoms left to right, negated literals."""
    force = 'model u "u"\nparam q = 0.5\nmass M = 1 kg\nforce push: on M = %s\n' \
            'simulate t_end = 1 s\noutput every 0.5 s: M.x\n'
    for expr, ok, unit in (("q", True, None), ("-q", True, None), ("2 N*s*q", True, None),
                           ("2 N*s/(1 + q)", True, None), ("2", True, None), ("-2", True, None),
                           ("-2*M.v", True, None), ("2*M.v", False, "m/s"),
                           ("2 N*s*2", False, "N*s"), ("-2 N*s", False, "N*s"),
                           ("2 kg*m/s^2", True, None), ("2 kg/s^2*m", True, None),
                           ("2 kg*m/s^2*s", False, "N*s")):
        rc, err = nsmc_check(tmp, force % expr)
        print("  force on M = %s -> %d %s" % (expr, rc, err.strip().splitlines()[0] if err else ""))
        check(rc == 0 if ok else (rc == 1 and "a force must be in N, not %s" % unit in err
                                  and "^" in err),
              "a force written as %s: %s" % (expr, "accepted" if ok else "refused with a caret"))
    for grav, ok, unit in (("9.81 m/s^2", True, None), ("9.81 m/s^2*m", False, "m^2/s^2"),
                           ("9.81 m/s^2/m*m", True, None), ("9.81 m*s^-2", True, None),
                           ("9.81 m/s/s", True, None), ("9.81 m/s*s", False, "m")):
        rc, err = nsmc_check(tmp, 'model u "u"\nmass M = 1 kg\ngravity %s\nsimulate t_end = 1 s\n'
                                  'output every 0.5 s: M.x\n' % grav)
        print("  gravity %s -> %d %s" % (grav, rc, err.strip().splitlines()[0] if err else ""))
        check(rc == 0 if ok else (rc == 1 and "gravity must be in m/s^2, not %s" % unit in err
                                  and "^~" in err),
              "gravity %s: %s" % (grav, "accepted" if ok else "refused, read left to right"))
    rc, err = nsmc_check(tmp, 'model u "u"\nmass M = 1 kg\nspring S: ground -- M, k = 1 N/m, '
                              'c = 2 N/m*s\nsimulate t_end = 1 s\noutput every 0.5 s: M.x\n')
    print("  damping c = 2 N/m*s -> %d %s" % (rc, err.strip()[:80]))
    check(rc == 0, "a damping written 2 N/m*s: N*s/m, accepted")
    # a bare parameter alone is taken in SI: a force of q newtons
    pushed = compiled(tmp, "pushed", force % "q")
    for q in (0.5, -2.0):
        r = pushed.run(method="exact", params={"q": q})
        err = max(abs(x - q * t * t / 2) for t, x in zip(r.t, r["M.x"]))
        print("  force on M = q, q = %g -> x(1 s) = %.17g (by hand %g), within %.3g"
              % (q, r["M.x"][-1], q / 2, err))
        check(err < 1e-15, "a bare parameter as a force (q = %g): q newtons" % q)


SWITCHED = '''model swo "a mass pushed from t = 1 s to 2 s against friction, an oscillator beside it"
param F = 1e-13 N
param N = 1e-13 N
mass M = 1 kg
mass O = 1 kg
spring So: ground -- O, k = 1 N/m
force push: on M = if t <= 1 s or t > 2 s then 0 N else F
friction Fr: M -- ground, mu_s = 0.5, mu_k = 0.3, normal = N
init M.x = 0 m, M.v = 0 m/s, O.x = 1 m
simulate t_end = 6 s
output every 0.5 s: M.x, M.v, O.x
'''


def case_floor(tmp):
    """A slow slip beside a fast unrelated oscillator, judged on its own
    part of the model."""
    import re
    sw = compiled(tmp, "swo", SWITCHED)
    stick = 2 + 7 / 3
    for meth in ("exact", "rk4", "adaptive"):
        msg = refusal(lambda: sw.run(method=meth, dt=1e-3))
        m = re.search(r"t = ([0-9.e+-]+) s: friction element 'Fr' slips against its direction",
                      msg) if isinstance(msg, str) else None
        print("  pushed by 1e-13 N beside an oscillator, %s -> %s" % (
            meth, msg[:220] if isinstance(msg, str) else "ran, M.x(6) = %.3g m" % msg["M.x"][-1]))
        check(m is not None and "velocity floor of 1e-12 m/s" in msg and "scale the units" in msg
              and 2 < float(m.group(1)) <= stick + 2e-3,
              "a slow slip beside a fast oscillator (%s): stops naming the element and the floor"
              % meth)
    want = 0.35e-7 + 0.7e-7 ** 2 / 0.6e-7
    for meth in ("exact", "rk4", "adaptive"):
        r = sw.run(method=meth, dt=1e-3, params={"F": 1e-7, "N": 1e-7})
        st = [float(e["t"]) for e in r.events if e["kind"] == "stick" and float(e["t"]) > 0]
        osc = max(abs(x - math.cos(t)) for t, x in zip(r.t, r["O.x"]))
        print("  pushed by 1e-7 N beside an oscillator, %s -> sticks at %s s (%.17g), x(6) = "
              "%.12g m (%.12g), the oscillator within %.3g of cos t"
              % (meth, st, stick, r["M.x"][-1], want, osc))
        check(len(st) == 1 and abs(st[0] - stick) < 1e-9 and abs(r["M.x"][-1] - want) < 1e-9 * want
              and osc < 1e-8, "a slip of 1e-7 N beside an oscillator (%s): by hand" % meth)


SPHERE = '''model sph "a sphere sliding slowly on a rough floor, a fast body beside it"
param v0 = 1e-13 m/s
param mu = 0.5
gravity g = (0, 0, -9.81 m/s^2)
rigid S: mass = 1 kg, inertia = (0.4 kg*m^2, 0.4 kg*m^2, 0.4 kg*m^2)
rigid F: mass = 1 kg, inertia = (0.4 kg*m^2, 0.4 kg*m^2, 0.4 kg*m^2)
plane floor: normal = (0, 0, 1), offset = 0 m
gap c: S.sphere(radius = 1 m) above floor, impact(e = 0)
friction fr: normal = gap c, mu = mu, et = 0
init S.z = 1 m, S.vx = v0, F.z = 100 m, F.vx = 1 m/s, F.vz = 50 m/s
simulate t_end = 1e-13 s
output every 1e-15 s: S.x, S.vx, S.w2, F.z
'''


def case_spatial(tmp):
    """A slow spatial slip beside a fast body, on its own scale."""
    sph = compiled(tmp, "sph", SPHERE)
    v0, mu = 1e-13, 0.5
    t1 = 2 * v0 / (7 * mu * G)
    for meth in ("rk4", "adaptive", "taylor"):
        r = refusal(lambda: sph.run(method=meth))
        if isinstance(r, str):
            print("  sphere sliding at 1e-13 m/s, %s -> %s" % (meth, r[:200]))
            check(meth == "taylor" and "scale the model's values" in r,
                  "a slow spatial slip (%s): by hand, or taylor's overflow said" % meth)
            continue
        st = [float(e["t"]) for e in r.events if e["kind"] == "stick" and e["contact"] == "fr"]
        vx, w2 = r["S.vx"][-1], r["S.w2"][-1]
        print("  sphere sliding at 1e-13 m/s, %s -> sticks at %s s (by hand %.15g), rolls at "
              "%.15g m/s, %.15g rad/s (by hand %.15g)" % (meth, st, t1, vx, w2, 5 * v0 / 7))
        check(len(st) == 1 and abs(st[0] / t1 - 1) < 1e-9 and abs(vx / (5 * v0 / 7) - 1) < 1e-12
              and abs(w2 / (5 * v0 / 7) - 1) < 1e-12 and abs(r["F.z"][-1] - 100) < 1e-9,
              "a slow spatial slip beside a fast body (%s): sticks and rolls by hand" % meth)


CASES = {"hrest": case_hrest, "rock": case_rock, "free": case_free, "units": case_units,
         "floor": case_floor, "spatial": case_spatial}

if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-left18core-", case_arg=2))
