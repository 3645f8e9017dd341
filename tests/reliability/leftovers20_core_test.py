"""What the eighteenth hostile passes on the core left as found, each case
failing before its fix, every reference a closed form derived here.

    tests/reliability/leftovers20_core_test.py NSMC SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  floorpart  a mass at rest pushed by F = 2e-13 N onto an elastic wall
          x0 = 1e-13 m away meets it at t = sqrt(2 x0 m/F) = 1 s at F t/m =
          2e-13 m/s, below the velocity floor of 1e-12 m/s.  Alone it was
          refused; beside an oscillator at 1 m/s, or after another body
          once at 1 m/s had stopped on a plastic wall at 0.5 s, the
          contact decision at rest was judged against the whole run's
          largest kinetic energy, another body's, and the mass stuck at
          the wall, exit 0.  Now it is judged on its own part of the
          model: refused at the wall (1 s, within its band: 1.05 s) naming
          the floor, by exact, rk4 and adaptive.  At F = 2e-6 N from 1e-6 m
          it bounces at 1 s and is back at x0 at rest at 2 s, the other
          body by hand (cos t; at 0.5 m from 0.5 s).
  conepart  a block of 1e-12 kg on a rough floor (mu_s = 0.5, mu_k = 0.3,
          N = 1e-13 N) pushed by c t (c = 1e-13 N/s) beside an oscillator
          of 1 N/m at 1 m: the cone's tolerance was the whole model's
          forces (1e-10 N of the oscillator's), and the block never moved
          (exit 0).  Now its own part's: it slips at t* = mu_s N/c = 0.5 s
          and slides with m v' = c t - mu_k N, so v(1) = (c (1 - t*^2)/2 -
          mu_k N (1 - t*))/m = 0.0225 m/s and x(1) = 0.0045833... m, by
          exact, rk4 and adaptive.  The push of 1e-13 N switched on at 1 s
          on a 1 kg block (mu_s N = 5e-14 N) beside the oscillator slips
          at 1 s (it was 1.571 s, where the oscillator's force passed
          through 0) and slides at (F - mu_k N)/m: x = 3.5e-14 (t - 1)^2.
  slowsphere  a sphere sliding at v0 = 1e-6 m/s on a rough floor (mu =
          0.5): taylor stopped 2e-16 s before its stick at 2 v0/(7 mu g),
          its series of the slip's direction overflowing ("scale the
          model's values", exit 3), below about 1e-4 m/s.  Now the slip
          counts as stuck when taylor cannot follow it to its zero and
          what is left is within 1e-6 of the body's speed: the stick at
          2 v0/(7 mu g) (within 1e-6 relative), rolling at 5/7 v0, for
          1e-6, 1e-5 and 1e-4 m/s; at 1e-13 m/s taylor refuses naming the
          cause (rk4 and adaptive stick by hand).
  hertzrest  taylor refused a ball released at rest touching a Hertz floor
          under gravity ("the energy balance is off by 1", exit 3): the law
          k p^(3/2), left out near p = 0 for as long as the closing rate
          alone said it could not matter (2 ms), let the ball fall through.
          Now that time is also bounded by the applied forces'
          acceleration along the gap (accel_step): the energy, the depth
          (5 m g/(2 k))^(2/3) at odd multiples of the half period
          (quadrature), p = 0 at the even ones; at the static depth (m
          g/k)^(2/3) the ball stays; 1e-3 below it, the period 2 pi /
          sqrt(3/2 k p_s^(1/2)/m) of small oscillations within 1e-5.
  zenopush  a disc bouncing to rest on a rough floor (e = 0.5, mu = 0.3)
          pushed by 1 N from 1e-4 to 1e-12 s before its accumulation point
          t* = 3 sqrt(2 h/g): refused ("a Zeno cascade ... stuck but taking
          tangential impulses or forces in its flights").  Now such a tail
          is not jumped but resolved impact by impact (as --no-zeno does),
          and the disc rolls at 2 F/(3 m) from the push, by exact, rk4 and
          adaptive.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import check, main  # noqa: E402
from causes_test import nsmc_run  # noqa: E402
from leftovers13_core_test import rows_of  # noqa: E402

SRC = os.path.abspath(sys.argv[2])
G = 9.81

PUSH_OSC = '''model pusho "a mass at rest pushed onto an elastic wall, an oscillator beside it"
param F = 2e-13 N
param x0 = 1e-13 m
mass B = 1 kg
mass O = 1 kg
spring So: ground -- O, k = 1 N/m
force on B = -F
gap wall: B.x >= 0, impact(e = 1)
init B.x = x0, O.x = 1 m
simulate t_end = 2 s
output every 0.5 s: B.x, B.v, O.x
'''

PUSH_ONCE = '''model pushw "a mass at rest pushed onto an elastic wall, a body once fast stopped"
param F = 2e-13 N
param x0 = 1e-13 m
mass B = 1 kg
mass O = 1 kg
force on B = -F
gap wall: B.x >= 0, impact(e = 1)
gap stop: O.x <= 0.5 m, impact(e = 0)
init B.x = x0, O.x = 0 m, O.v = 1 m/s
simulate t_end = 2 s
output every 0.5 s: B.x, B.v, O.x
'''


def other_body(name, t):
    """The other body's position by hand: cos t, or at 0.5 m from 0.5 s."""
    return math.cos(t) if name == "pusho" else min(t, 0.5)


def case_floorpart(tmp):
    """A contact decided on the velocity floor, judged on its own part of
    the model, not on another body's energy."""
    for name, text in (("pusho", PUSH_OSC), ("pushw", PUSH_ONCE)):
        for meth in ("exact", "rk4", "adaptive"):
            p = nsmc_run(tmp, name, text, ["--method", meth, "--dt", "1e-3"])
            m = re.search(r"t = ([0-9.e+-]+) s: contact 'wall' closes at ([0-9.e+-]+) m/s",
                          p.stderr)
            check(p.returncode == 3 and "velocity floor of 1e-12 m/s" in p.stderr and
                  "scale the units" in p.stderr and m is not None and
                  1 <= float(m.group(1)) <= 1.05 and abs(float(m.group(2)) - 2e-13) < 0.2e-13,
                  "%s, %s: a mass pushed onto an elastic wall at 2e-13 m/s beside another "
                  "body stops at the wall (t = 1 s, within its band: 1.05 s) naming the floor "
                  "(it stuck there, exit 0)" % (name, meth), p)
        for meth in ("exact", "rk4", "adaptive"):
            p = nsmc_run(tmp, name, text, ["--method", meth, "--dt", "1e-3", "--set", "F=2e-6",
                                           "--set", "x0=1e-6"])
            rows = rows_of(tmp, name, "trajectory") if p.returncode == 0 else []
            ev = rows_of(tmp, name, "events") if p.returncode == 0 else []
            hits = [float(e["t"]) for e in ev if e.get("contact") == "wall"
                    and e.get("kind") == "impact"]
            x = float(rows[-1]["B.x [m]"]) if rows else math.nan
            v = float(rows[-1]["B.v [m/s]"]) if rows else math.nan
            eo = max((abs(float(r["O.x [m]"]) - other_body(name, float(r["t [s]"])))
                      for r in rows), default=math.inf)
            print("  %s at 2e-6 N, %s: impacts %s, x(2) = %.12g m, v(2) = %.3g m/s, the other "
                  "body within %.3g" % (name, meth, hits, x, v, eo))
            check(len(hits) == 1 and abs(hits[0] - 1) < 1e-9 and abs(x - 1e-6) < 1e-14 and
                  abs(v) < 1e-14 and eo < 1e-9, "%s at 2e-6 m/s, %s: the bounce at 1 s, back at "
                  "x0 at rest at 2 s, the other body by hand" % (name, meth), p)


RAMP = '''model ramp "a light block pushed by a growing force against friction, an oscillator beside it"
param c = 1e-13 N/s
param N = 1e-13 N
mass M = 1e-12 kg
mass O = 1 kg
spring So: ground -- O, k = 1 N/m
force push: on M = c*t
friction Fr: M -- ground, mu_s = 0.5, mu_k = 0.3, normal = N
init M.x = 0 m, M.v = 0 m/s, O.x = 1 m
simulate t_end = 1 s
output every 0.1 s: M.x, M.v, O.x
'''

SWITCHED = '''model swo "a mass pushed from t = 1 s against friction, an oscillator beside it"
param F = 1e-13 N
param N = 1e-13 N
mass M = 1 kg
mass O = 1 kg
spring So: ground -- O, k = 1 N/m
force push: on M = if t <= 1 s then 0 N else F
friction Fr: M -- ground, mu_s = 0.5, mu_k = 0.3, normal = N
init M.x = 0 m, M.v = 0 m/s, O.x = 1 m
simulate t_end = 3 s
output every 0.5 s: M.x, M.v, O.x
'''


def case_conepart(tmp):
    """A stuck element's cone judged on its own part's forces: the slip
    starts when the push exceeds mu_s N, not when a stiff oscillator's
    force passes through 0."""
    c, N, m, mus, muk = 1e-13, 1e-13, 1e-12, 0.5, 0.3
    ts = mus * N / c

    def vel(t):
        return (c * (t * t - ts * ts) / 2 - muk * N * (t - ts)) / m

    def pos(t):
        return (c / 2 * ((t ** 3 - ts ** 3) / 3 - ts * ts * (t - ts)) - muk * N * (t - ts) ** 2 / 2) / m

    for meth in ("exact", "rk4", "adaptive"):
        p = nsmc_run(tmp, "ramp", RAMP, ["--method", meth, "--dt", "1e-3"])
        rows = rows_of(tmp, "ramp", "trajectory") if p.returncode == 0 else []
        ev = rows_of(tmp, "ramp", "events") if p.returncode == 0 else []
        slips = [float(e["t"]) for e in ev if e.get("kind") == "slip"]
        ex = max((abs(float(r["M.x [m]"]) - (pos(float(r["t [s]"])) if float(r["t [s]"]) > ts
                                              else 0)) for r in rows), default=math.inf)
        ev_ = max((abs(float(r["M.v [m/s]"]) - (vel(float(r["t [s]"])) if float(r["t [s]"]) > ts
                                                 else 0)) for r in rows), default=math.inf)
        print("  ramp c t beside an oscillator, %s: slips at %s s (by hand %.6g), |x - x_hand| <= "
              "%.3g m, |v - v_hand| <= %.3g m/s (v(1) by hand %.6g, x(1) %.9g)"
              % (meth, slips, ts, ex, ev_, vel(1), pos(1)))
        check(len(slips) == 1 and abs(slips[0] - ts) < 1e-9 and ex < 1e-12 and ev_ < 1e-12,
              "a block of 1e-12 kg pushed by c t beside an oscillator, %s: slips at mu_s N/c = "
              "0.5 s and slides by hand (it never moved, exit 0)" % meth, p)
    a = (1e-13 - muk * 1e-13) / 1.0      # the 1 kg block's slide after 1 s
    for meth in ("exact", "rk4", "adaptive"):
        p = nsmc_run(tmp, "swo", SWITCHED, ["--method", meth, "--dt", "1e-3"])
        ev = rows_of(tmp, "swo", "events") if p.returncode == 0 else []
        rows = rows_of(tmp, "swo", "trajectory") if p.returncode == 0 else []
        slips = [float(e["t"]) for e in ev if e.get("kind") == "slip"]
        ex = max((abs(float(r["M.x [m]"]) - a * max(float(r["t [s]"]) - 1, 0) ** 2 / 2)
                  for r in rows), default=math.inf)
        print("  a push of 1e-13 N from 1 s beside an oscillator, %s: slips at %s s, |x - a (t - "
              "1)^2/2| <= %.3g m (x(3) by hand %.4g m)" % (meth, slips, ex, 2 * a))
        check(len(slips) == 1 and abs(slips[0] - 1) < 1e-9 and len(rows) == 7 and ex < 1e-20,
              "a push of 2 mu_s N on a 1 kg block beside an oscillator, %s: slips at 1 s (it was "
              "1.571 s) and slides at (F - mu_k N)/m" % meth, p)


SPHERE = '''model sph "a sphere sliding slowly on a rough floor"
param v0 = 1e-6 m/s
param mu = 0.5
gravity g = (0, 0, -9.81 m/s^2)
rigid S: mass = 1 kg, inertia = (0.4 kg*m^2, 0.4 kg*m^2, 0.4 kg*m^2)
plane floor: normal = (0, 0, 1), offset = 0 m
gap c: S.sphere(radius = 1 m) above floor, impact(e = 0)
friction fr: normal = gap c, mu = mu, et = 0
init S.z = 1 m, S.vx = v0
simulate t_end = 1 s
output every 1 s: S.x, S.vx, S.w2
'''


def case_slowsphere(tmp):
    """A sphere (I = 2/5 m r^2) sliding at v0 on a rough floor: it sticks at
    t1 = 2 v0/(7 mu g) and rolls at 5/7 v0 (the contact point's angular
    momentum kept), x(T) = v0 t1 - mu g t1^2/2 + 5/7 v0 (T - t1); taylor,
    whose series of the slip's direction overflowed 2e-16 s before the
    stick below about 1e-4 m/s, follows it to the stick down to 1e-6 m/s
    and below that refuses naming the cause."""
    mu = 0.5
    for v0, meths in ((1e-6, ("taylor", "rk4", "adaptive")), (1e-5, ("taylor",)),
                      (1e-4, ("taylor",)), (1e-13, ("taylor", "rk4", "adaptive"))):
        t1 = 2 * v0 / (7 * mu * G)
        T = 2 * t1
        xT = v0 * t1 - mu * G * t1 * t1 / 2 + 5 / 7 * v0 * (T - t1)
        for meth in meths:
            p = nsmc_run(tmp, "sph", SPHERE, ["--method", meth, "--set", "v0=%r" % v0,
                                              "--t-end", repr(T), "--every", repr(T / 4)])
            if meth == "taylor" and v0 < 1e-6:
                check(p.returncode == 3 and "falls to zero in" in p.stderr and
                      "overflow" in p.stderr and "scale the model's values" in p.stderr,
                      "a sphere sliding at %g m/s (taylor): refused, naming the series of the "
                      "slip's direction and the stick's nearness" % v0, p)
                continue
            ev = rows_of(tmp, "sph", "events") if p.returncode == 0 else []
            rows = rows_of(tmp, "sph", "trajectory") if p.returncode == 0 else []
            st = [float(e["t"]) for e in ev if e.get("kind") == "stick" and e.get("contact") == "fr"]
            vx = float(rows[-1]["S.vx [m/s]"]) if rows else math.nan
            w2 = float(rows[-1]["S.w2 [rad/s]"]) if rows else math.nan
            x = float(rows[-1]["S.x [m]"]) if rows else math.nan
            print("  sphere sliding at %g m/s, %s: sticks at %s s (by hand %.15g), rolls at %.12g "
                  "m/s, %.12g rad/s (by hand %.12g), x(T) = %.12g m (%.12g)"
                  % (v0, meth, st, t1, vx, w2, 5 * v0 / 7, x, xT))
            check(p.returncode == 0 and len(st) == 1 and abs(st[0] / t1 - 1) < 1e-6 and
                  abs(vx / (5 * v0 / 7) - 1) < 1e-11 and abs(w2 / (5 * v0 / 7) - 1) < 1e-11 and
                  abs(x / xT - 1) < 1e-9, "a sphere sliding at %g m/s (%s): sticks at 2 v0/(7 mu "
                  "g) and rolls at 5/7 v0 (taylor's series overflowed below 1e-4 m/s)"
                  % (v0, meth), p)


HREST = '''model hrest "a ball released at rest on a Hertz floor"
param x0 = 0 m
mass M = 0.1 kg
gravity 9.81 m/s^2
gap C: M.x >= 0 m, penalty(k = 1e9, c = 0 N*s/m, exponent = 1.5)
init M.x = x0, M.v = 0 m/s
simulate t_end = 10 ms
output every 1 ms: M.x, M.v
'''


def gauss(f, a, b, n=60):
    """Gauss-Legendre quadrature of f over [a, b] (n points)."""
    import numpy as np
    xs, ws = np.polynomial.legendre.leggauss(n)
    return sum(w * f(a + (b - a) * (x + 1) / 2) for x, w in zip(xs, ws)) * (b - a) / 2


def case_hertzrest(tmp):
    """taylor on a ball (m = 0.1 kg) on a Hertz floor (k = 1e9, exponent
    1.5) under gravity.  Released at p = 0 at rest: the energy m v^2/2 +
    2/5 k p^(5/2) - m g p = 0 at every sample, the depth d = (5 m g/(2
    k))^(2/3) at odd multiples of T_half (quadrature of the energy) and p
    = 0 at rest at the even ones, within 1e-7 of m g d and d (the run's
    own balance is checked at 1e-6 of the largest energy).  Released at the static depth (m g/k)^(2/3)
    it stays there; 1e-3 of it deeper it oscillates with the period 2 pi /
    sqrt(3/2 k p_s^(1/2)/m) of small oscillations."""
    m, k = 0.1, 1e9
    d = (5 * m * G / (2 * k)) ** (2 / 3)
    half = math.sqrt(2 * d / G) * gauss(
        lambda u: math.sqrt((1 + math.sin(u)) / (1 + math.sin(u) + math.sin(u) ** 2)),
        0, math.pi / 2)
    every = half / 8
    p = nsmc_run(tmp, "hrest", HREST, ["--method", "taylor", "--every", repr(every),
                                       "--t-end", repr(48 * every)])
    rows = rows_of(tmp, "hrest", "trajectory") if p.returncode == 0 else []
    en = max((abs(m * float(r["M.v [m/s]"]) ** 2 / 2 + 0.4 * k * max(-float(r["M.x [m]"]), 0) **
                  2.5 + m * G * float(r["M.x [m]"])) / (m * G * d) for r in rows), default=math.inf)
    odd = [-float(r["M.x [m]"]) for i, r in enumerate(rows) if i % 16 == 8]
    even = [-float(r["M.x [m]"]) for i, r in enumerate(rows) if i % 16 == 0]
    print("  released at p = 0 at rest, taylor: exit %d, %d samples, energy within %.3g of m g d, "
          "depths %s (by hand %.12g m), at p = 0: %s" % (p.returncode, len(rows), en, odd, d, even))
    check(p.returncode == 0 and len(rows) == 49 and en < 1e-7 and len(odd) == 3 and
          all(abs(x / d - 1) < 1e-7 for x in odd) and all(abs(x) < 1e-7 * d for x in even),
          "a ball released at rest on a Hertz floor (taylor): its depth and half period by hand "
          "(it was refused, 'the energy balance is off by 1')", p)
    ps = (m * G / k) ** (2 / 3)
    w = math.sqrt(1.5 * k * math.sqrt(ps) / m)
    p = nsmc_run(tmp, "hrest", HREST, ["--method", "taylor", "--set", "x0=%r" % -ps,
                                       "--every", "1e-4"])
    rows = rows_of(tmp, "hrest", "trajectory") if p.returncode == 0 else []
    es = max((abs(-float(r["M.x [m]"]) / ps - 1) for r in rows), default=math.inf)
    print("  released at the static depth %.12g m: within %.3g of it" % (ps, es))
    check(p.returncode == 0 and es < 1e-11, "a ball released at its static depth (m g/k)^(2/3) "
          "on a Hertz floor (taylor): stays there", p)
    T = 2 * math.pi / w
    p = nsmc_run(tmp, "hrest", HREST, ["--method", "taylor", "--set", "x0=%r" % (-ps * 1.001),
                                       "--every", repr(T / 400), "--t-end", repr(5.2 * T)])
    rows = rows_of(tmp, "hrest", "trajectory") if p.returncode == 0 else []
    ups = []
    for a, b in zip(rows, rows[1:]):
        va, vb = float(a["M.v [m/s]"]), float(b["M.v [m/s]"])
        if va < 0 <= vb:
            ta, tb = float(a["t [s]"]), float(b["t [s]"])
            ups.append(ta + (tb - ta) * va / (va - vb))
    per = [(b - a) for a, b in zip(ups, ups[1:])]
    print("  released 1e-3 below the static depth: periods %s s (by hand %.12g s)" % (per, T))
    check(p.returncode == 0 and len(per) >= 4 and all(abs(q / T - 1) < 1e-5 for q in per),
          "a ball oscillating about its static depth on a Hertz floor (taylor): the period of "
          "small oscillations 2 pi/sqrt(3/2 k p_s^(1/2)/m)", p)


ZPUSH = '''model push "a disc bouncing to rest on a rough floor, then pushed"
param e = 0.5
param mu = 0.3
param F = 1 N
param ts = 2 s
disc D: mass = 1 kg, radius = 0.1 m, inertia = 0.005 kg*m^2
gravity 9.81 m/s^2
gap fl: D.y - 0.1 m >= 0 m, impact(e = e)
friction ff: slip = D.vx + 0.1 m*D.omega, mu = mu, normal = gap fl
force push: on D.x = if t < ts then 0 N else F
init D.y = 1.1 m
simulate t_end = 3 s
output every 10 ms: D.x, D.vx, D.omega, D.y
'''


def case_zenopush(tmp):
    """A disc (m = 1 kg, I = m R^2/2) dropped from 1 m onto a rough floor
    (e = 0.5, mu = 0.3) bounces to rest at t* = sqrt(2 h/g) (1 + 2 e/(1 -
    e)) = 3 sqrt(2/g), its bounce times a geometric series; pushed by 1 N
    from ts = t* - d inside that tail it rolls at 2 F/(3 m) (F/3 <= mu m g)
    from ts: x = F (t - ts)^2/(3 m), v = 2 F (t - ts)/(3 m), within F (t* -
    ts)^2/m (the tail's flights, pushed at F/m without friction) and 1e-9.
    It was refused ("a Zeno cascade ... stuck but taking tangential
    impulses or forces in its flights") for d from 1e-4 to 1e-9 s."""
    F, m = 1.0, 1.0
    tstar = 3 * math.sqrt(2 / G)
    for d in (1e-4, 1e-6, 1e-9, 1e-12):
        ts = tstar - d
        for meth in ("exact", "rk4", "adaptive"):
            p = nsmc_run(tmp, "zpush", ZPUSH, ["--method", meth, "--set", "ts=%r" % ts])
            rows = rows_of(tmp, "zpush", "trajectory") if p.returncode == 0 else []
            tol = 1e-9 + F * d * d / m
            ex = max((abs(float(r["D.x [m]"]) - F * max(float(r["t [s]"]) - ts, 0) ** 2 / (3 * m))
                      for r in rows), default=math.inf)
            ev = max((abs(float(r["D.vx [m/s]"]) - 2 * F * max(float(r["t [s]"]) - ts, 0) / (3 * m))
                      for r in rows), default=math.inf)
            print("  pushed from t* - %g s, %s: %d samples, |x - F (t - ts)^2/(3 m)| <= %.3g m, "
                  "|v - 2 F (t - ts)/(3 m)| <= %.3g m/s (allowed %.3g)" % (d, meth, len(rows), ex,
                                                                            ev, tol))
            check(p.returncode == 0 and len(rows) == 301 and ex < tol and ev < tol + 2 * F * d / m,
                  "a disc pushed from t* - %g s inside its Zeno tail (%s): rolls at 2 F/(3 m) from "
                  "the push (it was refused)" % (d, meth), p)


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-left20core-", case_arg=3))
