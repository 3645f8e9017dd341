#!/usr/bin/env python3
"""Loud failures the thirteenth hostile pass on the core and the leftovers
of the twelfth left as found, each case failing before its fix.

    tests/reliability/leftovers14_core_test.py NSMC SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  top     a pendulum written by its torque, -m g l sin(phi), released at
          phi0 = 3.141592653589793 (pi - 1.2246e-16 rad) under taylor for
          3 s: the balance failed, "off by 0.0224 of the largest energy",
          exit 3, the torque's rounding near pi (an ulp of pi times m g l)
          against kinetic energies of 1e-26 J.  Now the run ends and its
          omega follows the linearised closed form -d0 w sinh(w t), d0 =
          pi - phi0 (by mpmath), w = sqrt(g/l), within 1e-2 (relative) from
          0.5 s on; a balance broken by rk4's coarse step or adaptive's
          loose tolerance on the same pendulum still fails.
  lift    a 3 kg block on a floor lifted from rest by 7 N (1 - cos t) or
          7 N t^3 with no weight: rk4 and adaptive failed their first steps
          ("off by 0.0625" / "0.25 of the largest energy", energies of
          1e-19 J).  Now every method runs to x = (7/3)(t^2/2 - 1 + cos t)
          and 7 t^5/60 at 2 s within 1e-9 (relative); with a weight m g,
          g = 1e-3 and 1 m/s^2, the floor lets go once, where 7 (1 - cos t)
          = m g, within 1e-9 s; with 15 N, above the force's 14 N, it stays
          on the floor within 1e-12 m.
  rate    forced_impact_oscillator at F = 1e300 N under exact: it stopped
          on the event rate cap ("20 events in 0 s exceed the event rate
          cap"), the symptom.  Now the message names the cause: the stop's
          force changes at F omega = 2.5e300 N/s, by 2.78e284 N between two
          doubles of t near pi/5 s (1.11e-16 s apart), beyond its rounding.
  companion  two balls (1 kg, 3 kg, e = 0.5) dropped from 1 m and 1 + 1e-7 m
          onto their own floors: the jump of B's cascade takes A along
          mid-flight, and A rested 1.2e-13 m above its floor.  Now A rests
          on it within 1e-15 m under every method, each ball's zeno record
          at its closed form sqrt(2 h/g) (1 + e)/(1 - e) within 1e-13 s.
  taylorscale  the pendulum of `top` at l = 1e-100 m and at m = 1e300 kg under
          taylor: "state is not finite" at t = 0, and "the energy integrals
          ... not finite ... energies near 1e308" (energies of 1e301 J),
          symptoms.  Now both name taylor's series overflowing at that scale
          and rk4 and adaptive; at m = 1e300 kg rk4 and adaptive run and
          cross phi = 0 at T/4, T = 4 sqrt(l/g) K(sin^2(phi0/2)) (K by the
          arithmetic-geometric mean), within 1e-6 s.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import check, main, thin  # noqa: E402
# causes_test's nsmc_run reads the same NSMC (argv[1]) as this runner
from causes_test import nsmc_run  # noqa: E402

METHODS = ("rk4", "adaptive", "exact")


# the rows of a run's CSV files, and the pendulum written by its torque of
# the thirteenth core pass
from leftovers13_core_test import TWO, rows_of  # noqa: E402
from thirteenth_pass_core_test import PEND  # noqa: E402

# pi - 3.141592653589793 (the double nearest pi), by mpmath at 40 digits:
# mpmath.mpf(mpmath.pi) - mpmath.mpf(3.141592653589793)
D0 = 1.2246467991473532e-16


def case_top(tmp):
    """Released within 1e-16 rad of its top: taylor runs, the motion right;
    a broken balance still fails."""
    w = math.sqrt(9.81)
    p = nsmc_run(tmp, "pend", PEND, ["--set", "phi0=3.141592653589793", "--method", "taylor",
                                     "--t-end", "3"])
    check(p.returncode == 0, "released at pi - 1.2e-16 rad, taylor, 3 s: the run ends (it "
          "failed, 'the energy balance is off by 0.0224 of the largest energy')", p)
    worst = 0
    for r in rows_of(tmp, "pend", "trajectory"):
        t, om = float(r["t [s]"]), float(r["P.omega [rad/s]"])
        if t >= 0.5:
            ref = -D0 * w * math.sinh(w * t)
            worst = max(worst, abs(om - ref) / abs(ref))
    print("  omega against -d0 w sinh(w t) from 0.5 s to 3 s: within %.2g (relative)" % worst)
    check(worst < 1e-2, "the motion is the linearised closed form's within 1e-2 (omega near "
          "1e-12 rad/s, phi within an ulp of pi)")
    for extra, what in ((["--method", "rk4", "--dt", "0.5", "--every", "0"], "rk4 at dt = 0.5 s"),
                        (["--method", "adaptive", "--rtol", "0.5", "--every", "0"],
                         "adaptive at rtol = 0.5")):
        p = nsmc_run(tmp, "pend", PEND, ["--set", "phi0=2"] + extra)
        check(p.returncode == 3 and "the energy balance is off by" in p.stderr,
              "phi0 = 2, %s: a broken balance still fails (exit 3)" % what, p)


LIFT = '''model lift "a block lifted by a force growing from 0"
param m = 3 kg
param q = 7 N
param c = 0 N
param gg = 0 m/s^2
mass Y = m
gravity gg
force up: on Y = q*(1 - cos(t/1 s)) + c*(t/1 s)^3
gap floor: Y.x >= 0, impact(e = 0)
init Y.x = 0 m
simulate t_end = 2 s, method = exact
output every 0.125 s: Y.x, Y.v, floor.force
'''


def case_lift(tmp):
    """Lifted from rest by a force from 0: every method runs, the block
    leaves where the force equals its weight."""
    for meth in thin(METHODS):
        for sets, xr, vr in ((["q=7"], 7 / 3 * (1 + math.cos(2)), 7 / 3 * (2 - math.sin(2))),
                             (["q=0", "c=7"], 7 * 32 / 60, 7 * 16 / 12)):
            args = ["--method", meth]
            for a in sets:
                args += ["--set", a]
            p = nsmc_run(tmp, "lift", LIFT, args)
            check(p.returncode == 0, "no weight, %s, %s: the run ends (rk4 and adaptive failed "
                  "their first steps on the energy balance)" % (" ".join(sets), meth), p)
            last = rows_of(tmp, "lift", "trajectory")[-1]
            ex = abs(float(last["Y.x [m]"]) - xr) / xr
            ev = abs(float(last["Y.v [m/s]"]) - vr) / vr
            print("  %-8s %s: x(2) off by %.2g, v(2) by %.2g (relative)" % (meth, sets, ex, ev))
            check(ex < 1e-9 and ev < 1e-9, "%s, %s: free from t = 0, x and v at 2 s the closed "
                  "form's within 1e-9" % (meth, sets))
        for gg in ("1e-3", "1"):
            p = nsmc_run(tmp, "lift", LIFT, ["--method", meth, "--set", "gg=" + gg])
            sep = [float(e["t"]) for e in rows_of(tmp, "lift", "events")
                   if e["kind"] == "separation"]
            tr = math.acos(1 - 3 * float(gg) / 7)
            print("  %-8s weight %s N: released at %s (7 (1 - cos t) = m g at %.16g)"
                  % (meth, 3 * float(gg), sep, tr))
            check(p.returncode == 0 and len(sep) == 1 and abs(sep[0] - tr) < 1e-9,
                  "%s, g = %s: released once where 7 (1 - cos t) = m g, within 1e-9 s"
                  % (meth, gg), p)
        p = nsmc_run(tmp, "lift", LIFT, ["--method", meth, "--set", "gg=5"])
        rows = rows_of(tmp, "lift", "trajectory")
        xs = max(abs(float(r["Y.x [m]"])) for r in rows)
        check(p.returncode == 0 and xs < 1e-12 and
              not any(e["kind"] == "separation" for e in rows_of(tmp, "lift", "events")),
              "%s, weight 15 N above the force's 14 N: held on the floor within 1e-12 m" % meth, p)


def case_rate(tmp):
    """Forces beyond the locator's resolution: the cause named."""
    src = os.path.join(os.path.abspath(sys.argv[2]), "models", "forced_impact_oscillator.nsm")
    with open(src) as f:
        text = f.read()
    p = nsmc_run(tmp, "fio", text, ["--set", "F=1e300", "--method", "exact"])
    m = re.search(r"its force changes at ([0-9.e+]+) N/s, by ([0-9.e+]+) N between two doubles "
                  r"of t \(([0-9.e+-]+) s apart\)", p.stderr)
    # at t = pi/5 s the stop's force is -F cos(omega t), its rate F omega
    # sin(omega t) = 2.5e300 N/s; t's spacing there is 2^-53 s
    check(p.returncode == 3 and m is not None and abs(float(m.group(1)) - 2.5e300) < 1e-2 * 2.5e300
          and abs(float(m.group(3)) - 2.0 ** -53) < 1e-2 * 2.0 ** -53 and
          "cannot be located" in p.stderr,
          "F = 1e300 N, exact: the cap's message names the force's rate F omega = 2.5e300 N/s "
          "and t's resolution 2^-53 s at pi/5 s (it named only the event rate)", p)


def case_companion(tmp):
    """A companion caught mid-flight rests on its floor."""
    def tz(h):
        return math.sqrt(2 * h / 9.81) * 1.5 / 0.5
    for meth in METHODS:
        p = nsmc_run(tmp, "two", TWO, ["--method", meth, "--set", "hb=1.0000001"])
        zeno = {r["contact"]: float(r["t"]) for r in rows_of(tmp, "two", "events")
                if r["kind"] == "zeno"}
        last = rows_of(tmp, "two", "trajectory")[-1]
        xa, xb = float(last["A.x [m]"]), float(last["B.x [m]"])
        ea = abs(zeno.get("FA", math.inf) - tz(1.0))
        eb = abs(zeno.get("FB", math.inf) - tz(1.0000001))
        print("  %-8s A.x %.3g m, B.x %.3g m at 2 s; zeno FA %.3g s, FB %.3g s off"
              % (meth, xa, xb, ea, eb))
        check(p.returncode == 0 and abs(xa) <= 1e-15 and abs(xb) <= 1e-12 and ea < 1e-13 and
              eb < 1e-13, "%s: A, taken along mid-flight by B's jump, rests on its floor within "
              "1e-15 m (it rested 1.2e-13 m above), both zeno records at their closed forms "
              "within 1e-13 s" % meth, p)


def quarter_period(phi0, l=1.0, g=9.81):
    """T/4 of a pendulum released at phi0: sqrt(l/g) K(k), k = sin(phi0/2),
    K = pi / (2 AGM(1, sqrt(1 - k^2)))."""
    a, b = 1.0, math.sqrt(1 - math.sin(phi0 / 2) ** 2)
    for _ in range(40):
        a, b = (a + b) / 2, math.sqrt(a * b)
    return math.sqrt(l / g) * math.pi / (2 * a)


def case_taylorscale(tmp):
    """taylor's overflow at extreme scales named, with the methods that run."""
    for sets in (["l=1e-100", "phi0=2", "--t-end", "1e-49"], ["m=1e300", "phi0=2"]):
        args = ["--method", "taylor", "--set", sets[0], "--set", sets[1]] + sets[2:]
        p = nsmc_run(tmp, "pend", PEND, args)
        check(p.returncode == 3 and "taylor's series over a step" in p.stderr and
              "overflow at this scale" in p.stderr and "--method rk4" in p.stderr and
              "--method adaptive" in p.stderr and "energies near 1e308" not in p.stderr,
              "%s, taylor: the series' overflow named with rk4 and adaptive (it said 'state is "
              "not finite' / 'energies near 1e308')" % sets[0], p)
    tq = quarter_period(2.0)
    for meth in ("rk4", "adaptive"):
        p = nsmc_run(tmp, "pend", PEND, ["--method", meth, "--set", "m=1e300", "--set", "phi0=2",
                                         "--t-end", "1"])
        rows = [(float(r["t [s]"]), float(r["P.phi [rad]"]))
                for r in rows_of(tmp, "pend", "trajectory")]
        cross = [t0 + (t1 - t0) * p0 / (p0 - p1) for (t0, p0), (t1, p1) in zip(rows, rows[1:])
                 if p0 > 0 >= p1]
        print("  %-8s m = 1e300 kg: first crossing %s s (T/4 = %.12g s)" % (meth, cross[:1], tq))
        check(p.returncode == 0 and cross and abs(cross[0] - tq) < 1e-6,
              "%s at m = 1e300 kg: runs, phi = 0 at T/4 within 1e-6 s" % meth, p)


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-left14core-", case_arg=3))
