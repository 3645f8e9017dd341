#!/usr/bin/env python3
"""What the fifteenth hostile pass on the core and the rounds before it left
as found, each case failing before its fix.

    tests/reliability/leftovers16_core_test.py NSMC SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  hertz   rk4 without a dt on the Hertz pair (models/hertz_pair.nsm) at a
          closing speed of 1e-6 m/s stepped 1 ms through a contact of 3.9
          ms whose stiffness starts at 0: the spheres parted 1.25 % slower
          than they met, and the run said so only as "0.025 of the largest
          energy" on its status line, exit 0.  Now the step is bounded by
          the contact's stiffness at the deepest penetration its energy
          reaches: after 1 ms of flight (4.1e-5 slow before) the spheres
          part at the speed they met (equal masses, undamped) within 1e-6,
          and the contact lasts Hertz's
          2 (p_max/v) int_0^1 du/sqrt(1 - u^(5/2)), p_max = (5 mu v^2 /
          (4 k))^(2/5) (mpmath), within 1e-7 relative.
  taylorstart  a sphere at rest on a floor tilted beyond its friction's
          hold (alpha = 0.3, mu = 0.05) under taylor, the default for
          bodies in space, stopped with "cannot start a slip from zero",
          exit 3.  Now taylor starts the slip as rk4 and adaptive do (its
          direction from the tangential force at zero slip): x = g (sin a
          - mu cos a) t^2/2 and its spin (5/2) mu g cos a t / r within 1e-11
          (relative, the CSV's 12 digits).
  floor   a mass at rest at its start pushed by 2e-13 N onto an elastic wall
          1e-13 m away met it at 2e-13 m/s, below the velocity floor of
          1e-12 m/s (a model at rest is not judged at its start): it stuck
          there, exit 0.  Now the run stops at the wall (t = 1 s), exit 3,
          naming the floor, the closing speed and "scale the units"; at
          2e-6 N from 1e-6 m it bounces and is back at rest at x0 at 2 s.
  floorslip  a block at rest on a still surface pulled by a spring of
          1e-13 N (mu_s N = 5e-14 N) slid at most 7e-14 m/s and passed its
          turning point at pi s, where its spring's 4e-14 N could not move
          it, without sticking, exit 0.  Now it stops at its start, exit 3,
          naming the floor; at 1e-7 N it sticks at pi s at -0.4 x0 (x = xe
          + (x0 - xe) cos t, xe = mu_k N/k).
  tie     the Poincare section's exact tie (a strobe time on an impact's
          instant, section.c) had no check since its code moved: a ball
          (e = 0.5) dropped from h under g lands at T = sqrt(2 h/g), and
          period:T records v = e sqrt(2 g h) within 1e-12 under exact (the
          tie handling broken, -sqrt(2 g h), the state before); rk4 and
          adaptive, which land some such impacts up to 1e-14 s after T,
          were refused ("went on ... without the impact"): now the same.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import ball_drop, check, compiled, main  # noqa: E402
# causes_test's nsmc_run reads the same NSMC (argv[1]) as this runner
from causes_test import nsmc_run  # noqa: E402
from leftovers13_core_test import rows_of  # noqa: E402

SRC = os.path.abspath(sys.argv[2])
G = 9.81


def model_text(name):
    """The text of models/NAME.nsm."""
    with open(os.path.join(SRC, "models", name + ".nsm")) as f:
        return f.read()


def hertz_time(m, k, v):
    """Hertz's contact time of two equal spheres of mass m closing at v
    through k p^(3/2): 2 (p_max/v) int_0^1 du/sqrt(1 - u^(5/2)), p_max from
    (1/2) mu v^2 = (2/5) k p_max^(5/2), mu = m/2 (mpmath, 30 digits)."""
    import mpmath
    mpmath.mp.dps = 30
    mu = mpmath.mpf(m) / 2
    pmax = (mpmath.mpf(5) / 4 * mu * mpmath.mpf(v) ** 2 / k) ** (mpmath.mpf(2) / 5)
    integral = mpmath.quad(lambda u: 1 / mpmath.sqrt(1 - u ** mpmath.mpf(2.5)), [0, 1])
    return float(2 * pmax / v * integral)


def case_hertz(tmp):
    """rk4 without a dt through a soft Hertz contact: the velocities
    exchanged and Hertz's contact time."""
    src = model_text("hertz_pair")
    for v in (1e-6, 1e-3):
        # the spheres 1 ms of flight apart: gap0 = v * 1 ms
        t_meet, tc = 1e-3, hertz_time(0.1, 1e9, v)
        p = nsmc_run(tmp, "hp", src, ["--method", "rk4", "--set", "v=%g" % v, "--set",
                                      "gap0=%r" % (v * 1e-3), "--t-end", repr(t_meet + 3 * tc),
                                      "--every", repr((t_meet + 3 * tc) / 50)])
        ev = rows_of(tmp, "hp", "events")
        enter = [float(e["t"]) for e in ev if e["kind"] == "contact_enter"]
        leave = [e for e in ev if e["kind"] == "contact_exit"]
        ok = p.returncode == 0 and len(enter) == 1 and len(leave) == 1
        # the relative velocity at parting: equal masses exchange their
        # velocities, the pair parting at the speed it closed with
        dv = abs(float(leave[0]["vrel_after"]) - v) / v if ok else math.inf
        t = float(leave[0]["t"]) - enter[0] if ok else math.nan
        print("  Hertz pair at %g m/s, rk4 without a dt: parting at %.12g m/s, off by %.2g; "
              "contact %.12g s (Hertz %.12g s), off by %.2g" % (v, dv * v + v if ok else math.nan,
                                                                dv, t, tc, abs(t - tc) / tc))
        check(ok and dv < 1e-6 and abs(t - tc) < 1e-7 * tc,
              "Hertz pair at %g m/s under rk4 without a dt: parting at the closing speed within "
              "1e-6, Hertz's contact time within 1e-7 (it parted 4.1e-5 slow after 1 ms of flight, "
              "1.25 %% after 1000 s, exit 0)" % v, p)


ROLL = '''model roll "a solid sphere on a floor under tilted gravity"
param m = 1 kg
param r = 0.1 m
param mu = 0.05
param alpha = 0.3 rad
gravity G = (9.81 m/s^2 * sin(alpha), 0, -9.81 m/s^2 * cos(alpha))
rigid B: mass = m, inertia = (0.4*m*r^2, 0.4*m*r^2, 0.4*m*r^2)
plane floor: normal = (0, 0, 1), offset = 0 m
gap F: B.sphere(radius = r) above floor, impact(e = 0)
friction FF: normal = gap F, mu = mu
init B.z = r
simulate t_end = 1 s, method = taylor
output every 50 ms: B.x, B.z, B.vx, B.w2
'''


def case_taylorstart(tmp):
    """taylor starts a slip from exactly zero: a sphere at rest on a floor
    too steep for its friction slides at g (sin a - mu cos a)."""
    for alpha, mu in ((0.3, 0.05), (1.0, 0.3), (1.5, 0.01)):
        a = G * (math.sin(alpha) - mu * math.cos(alpha))
        # rolling would need tan a <= 7/2 mu; the contact slides from rest:
        # its spin grows at (5/2) mu g cos a / r, its centre at a
        wdot = 2.5 * mu * G * math.cos(alpha) / 0.1
        p = nsmc_run(tmp, "roll", ROLL, ["--set", "alpha=%r" % alpha, "--set", "mu=%r" % mu])
        rows = rows_of(tmp, "roll", "trajectory") if p.returncode == 0 else []
        # relative to the values: the CSV holds 12 digits
        ex = max((abs(float(r["B.x [m]"]) - a * float(r["t [s]"]) ** 2 / 2) /
                  (1 + a * float(r["t [s]"]) ** 2 / 2) for r in rows), default=math.inf)
        ew = max((abs(float(r["B.w2 [rad/s]"]) - wdot * float(r["t [s]"])) /
                  (1 + wdot * float(r["t [s]"])) for r in rows), default=math.inf)
        print("  sphere at rest, alpha %g, mu %g, taylor: exit %d, %d samples, |x - a t^2/2| <= "
              "%.3g (relative), |w - wdot t| <= %.3g"
              % (alpha, mu, p.returncode, len(rows), ex, ew))
        check(p.returncode == 0 and len(rows) == 21 and ex < 1e-11 and ew < 1e-11,
              "a sphere sliding from rest (alpha %g, mu %g) under taylor: x = g (sin a - mu cos "
              "a) t^2/2 within 1e-11 (relative), its spin (5/2) mu g cos a t / r (it was "
              "refused, 'cannot start a slip from zero')" % (alpha, mu), p)


PUSH = '''model push "a mass at rest pushed onto an elastic wall by a constant force"
param F = 2e-13 N
param x0 = 1e-13 m
mass B = 1 kg
force on B = -F
gap wall: B.x >= 0, impact(e = 1)
init B.x = x0
simulate t_end = 2 s, method = exact
output every 0.5 s: B.x, B.v
'''


def case_floor(tmp):
    """A model at rest at its start that a tiny force drives onto a wall
    slower than the velocity floor: refused when the decision is taken."""
    for meth in ("exact", "rk4", "adaptive"):
        p = nsmc_run(tmp, "push", PUSH, ["--method", meth, "--dt", "1e-3"])
        m = re.search(r"t = ([0-9.e+-]+) s: contact 'wall' closes at ([0-9.e+-]+) m/s", p.stderr)
        check(p.returncode == 3 and "velocity floor of 1e-12 m/s" in p.stderr and
              "scale the units" in p.stderr and m is not None and
              1 <= float(m.group(1)) <= 1.05 and abs(float(m.group(2)) - 2e-13) < 0.2e-13,
              "a mass at rest pushed onto an elastic wall at 2e-13 m/s, %s: stops at the wall "
              "(t = 1 s, within the gap's band of 1e-14 m: 1.05 s) naming the floor and the "
              "closing speed (it stuck there, exit 0)" % meth, p)
    # at 2e-6 m/s: the bounce at t = 1 s, back at x0 at rest at t = 2 s
    for meth in ("exact", "rk4", "adaptive"):
        p = nsmc_run(tmp, "push", PUSH, ["--method", meth, "--dt", "1e-3", "--set", "F=2e-6",
                                         "--set", "x0=1e-6"])
        last = rows_of(tmp, "push", "trajectory")[-1] if p.returncode == 0 else {}
        x, v = float(last.get("B.x [m]", "nan")), float(last.get("B.v [m/s]", "nan"))
        print("  pushed at 2e-6 m/s, %s: x(2) = %.12g m, v(2) = %.3g m/s" % (meth, x, v))
        check(abs(x - 1e-6) < 1e-14 and abs(v) < 1e-14, "a mass pushed onto an elastic wall "
              "at 2e-6 m/s, %s: back at x0 at rest at t = 2 s" % meth, p)


SPRUNG = '''model fb "a block at rest on a still surface pulled by a spring"
param N = 1e-13 N
param x0 = 1e-13 m
mass M = 1 kg
spring S: ground -- M, k = 1 N/m
friction F: M -- belt(v = 0 m/s), mu_s = 0.5, mu_k = 0.3, normal = N
init M.x = x0, M.v = 0 m/s
simulate t_end = 4 s, method = exact
output every 0.5 s: M.x, M.v
'''


def case_floorslip(tmp):
    """A block at rest whose spring starts it slipping at speeds below the
    floor: refused at its start; slower than the floor no more, it sticks at
    its first turning point."""
    for meth in ("exact", "rk4", "adaptive"):
        p = nsmc_run(tmp, "fb", SPRUNG, ["--method", meth, "--dt", "1e-3"])
        check(p.returncode == 3 and "velocity floor of 1e-12 m/s" in p.stderr and
              "scale the units" in p.stderr and "t = 0 s" in p.stderr,
              "a block at rest pulled by a spring of 1e-13 N into a slip of at most 7e-14 m/s, "
              "%s: stops at its start naming the floor (it slid through its turning point, "
              "where it had to stick, exit 0)" % meth, p)
    # x = xe + (x0 - xe) cos t, xe = mu_k N / k, to its turning point at pi,
    # where k |x| = 0.4 N < mu_s N: stuck there at 2 xe - x0 = -0.4 x0
    for meth in ("exact", "rk4", "adaptive"):
        p = nsmc_run(tmp, "fb", SPRUNG, ["--method", meth, "--dt", "1e-3", "--set", "N=1e-7",
                                         "--set", "x0=1e-7"])
        ev = rows_of(tmp, "fb", "events") if p.returncode == 0 else []
        st = [float(e["t"]) for e in ev if e["kind"] == "stick"]
        x = float(rows_of(tmp, "fb", "trajectory")[-1]["M.x [m]"]) if ev else math.nan
        print("  block at 1e-7 m, %s: sticks at %s s (pi), x(4) = %.12g m (-4e-8)" % (meth, st, x))
        check(len(st) == 1 and abs(st[0] - math.pi) < 1e-9 and abs(x + 4e-8) < 1e-19,
              "a block at rest pulled by a spring of 1e-7 N, %s: slides to its turning point "
              "at pi s and sticks at -0.4 x0" % meth, p)


BALL = ball_drop("exact")


def case_tie(tmp):
    """A stroboscopic time on an impact's instant: the record is the state
    after the impact (section.c's tie within rounding), and one whose
    impact rk4 or adaptive lands a few 1e-15 s late is not refused."""
    import nsm
    b = compiled(tmp, "ball", BALL)
    # exact lands within rounding of T = sqrt(2 h/g); the tie handling
    # broken, it recorded -sqrt(2 g h), the velocity before the impact
    cases = [("exact", g, h) for g, h in ((0.5, 1.0), (9.81, 1.0), (2.0, 4.0), (8.0, 0.3))]
    # rk4 and adaptive land these a few ulps to 1e-14 s after T: refused
    # ("the run went on ... without the impact") before
    cases += [(m, g, h) for m in ("rk4", "adaptive") for g, h in ((3.0, 1.5), (2.0, 1.5),
                                                                  (9.81, 2.0))]
    for meth, g, h in cases:
        T = math.sqrt(2 * h / g)
        try:
            rec = b.section("period:%r" % T, t_end=1.5 * T, method=meth,
                            params={"g": g, "h": h})
            at = [r for r in rec if abs(r[0] - T) <= 1e-12 * T]
            v = at[0][3] if len(at) == 1 else math.nan
        except nsm.SimulationError as ex:
            v, rec = str(ex), []
        want = 0.5 * math.sqrt(2 * g * h)
        print("  ball g %g, h %g, period:%.17g under %s: v at T %r (e sqrt(2 g h) = %.17g)"
              % (g, h, T, meth, v, want))
        check(isinstance(v, float) and abs(v - want) < 1e-12 * (1 + want),
              "a strobe time on the landing (g %g, h %g, %s): the state after the impact"
              % (g, h, meth))


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-left16core-", case_arg=3))
