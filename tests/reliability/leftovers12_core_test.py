#!/usr/bin/env python3
"""Loud failures the eleventh hostile pass on the core left as found, each
case failing before its fix.

    tests/reliability/leftovers12_core_test.py NSMC SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  zenostiff   a ball dropped from 1 m (e = 0.5, g = 9.81 m/s^2) beside an
              unrelated mass on a 4e11 N/m spring: the held contact's force
              rounding was 1e-10 of the forces on every body (40 N), so the
              ball's 9.81 N counted as none and the run failed at the Zeno
              point ("an impact was missed").  Now per contact: the Zeno
              time t1 (1 + e)/(1 - e), t1 = sqrt(2 h/g), within 1e-12 s and
              the ball at rest on the floor after it.
  press       a 3 kg block at rest on a floor under a press that grows from
              0 (-7 N t/1 s) or starts at 7 N (-7 N (1 + sin t)), with and
              without gravity, rk4 and adaptive: it failed "the energy
              balance is off by 1 of the largest energy" (the press's work
              on the rounding creep of the held block had no counterpart on
              the derived path).  Now it stays on the floor (|x| < 1e-12 m),
              the floor's force is m g + press within 1e-9 N, and the status
              line's balance is within 1e-10 of the energies met.
  zeroenergy  an oscillator of 1e-200 m, whose energies round to exactly
              0 J: the status line read "energy error 0 J (0 of the largest
              energy)"; it now says the balance is not judged.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import csv
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import check, main, thin  # noqa: E402
# causes_test's nsmc_run reads the same NSMC (argv[1]) as this runner
from causes_test import nsmc_run  # noqa: E402

G = 9.81


def rows_of(tmp, name, what):
    """The rows of o_name/what.csv as dictionaries."""
    with open(os.path.join(tmp, "o_" + name, what + ".csv")) as f:
        return list(csv.DictReader(f))


def status_line(p):
    """The simulator's last line on stderr that names the method."""
    lines = [ln for ln in p.stderr.splitlines() if ", method " in ln]
    return lines[-1] if lines else ""


STIFF_NEIGHBOUR = '''model zk "a Zeno ball beside a stiff spring"
param k = 4e11 N/m
mass A = 1 kg
mass B = 1 kg
gravity 9.81 m/s^2
spring S: ground -- B, k = k
gap FA: A.x >= 0, impact(e = 0.5)
init A.x = 1 m, B.x = 1 m
simulate t_end = 1.5 s, method = exact
output every 0.05 s: A.x, A.v
'''


def case_zenostiff(tmp):
    """The Zeno time and the rest after it beside a stiff unrelated spring."""
    tz = math.sqrt(2 / G) * 1.5 / 0.5
    for k in thin(("4e11", "4e9")):
        name = "zk_%s" % k
        p = nsmc_run(tmp, name, STIFF_NEIGHBOUR, ["--set", "k=" + k])
        check(p.returncode == 0, "a Zeno ball beside a %s N/m spring (exact): the run ends "
              "(it failed at the Zeno point, 'an impact was missed')" % k, p)
        zeno = [r for r in rows_of(tmp, name, "events") if r["kind"] == "zeno"]
        check(len(zeno) == 1 and zeno[0]["contact"] == "FA", "one Zeno record, on FA")
        t = float(zeno[0]["t"])
        last = rows_of(tmp, name, "trajectory")[-1]
        x, v = float(last["A.x [m]"]), float(last["A.v [m/s]"])
        print("  k = %s: t_zeno = %.15g s, closed form %.15g s (%.2g s), x = %.3g m, v = %.3g"
              % (k, t, tz, t - tz, x, v))
        check(abs(t - tz) < 1e-12 and abs(x) < 1e-12 and v == 0,
              "k = %s: the Zeno time t1 (1 + e)/(1 - e) within 1e-12 s, at rest on the floor "
              "after it" % k)


PRESS = '''model press "a block held on a floor by a press"
param m = 3 kg
mass Y = m
%s
force press: on Y = %s
gap floor: Y.x >= 0, impact(e = 0)
init Y.x = 0 m
simulate t_end = 2 s, method = exact
output every 0.25 s: Y.x, Y.v, floor.force
'''


def case_press(tmp):
    """A block held still by a growing press: on the floor, the floor's
    force m g + press, the balance closed."""
    presses = (("-7 N*t/1 s", lambda t: 7 * t),
               ("-7 N*(1 + sin(t/1 s))", lambda t: 7 * (1 + math.sin(t))))
    for grav in ("", "gravity 9.81 m/s^2"):
        for text, press in presses:
            for meth in thin(("rk4", "adaptive")):
                name = "press"
                p = nsmc_run(tmp, name, PRESS % (grav, text), ["--method", meth])
                line = status_line(p)
                print("    %s" % line)
                what = "a 3 kg block under a press %s%s, %s" % (
                    text, " and gravity" if grav else "", meth)
                check(p.returncode == 0, what + ": the run ends (it failed, 'the energy "
                      "balance is off by 1 of the largest energy')", p)
                rows = rows_of(tmp, name, "trajectory")
                mg = 3 * G if grav else 0.0
                xs = max(abs(float(r["Y.x [m]"])) for r in rows)
                ferr = max(abs(float(r["floor.force [N]"]) - mg - press(float(r["t [s]"])))
                           for r in rows)
                check(xs < 1e-12 and ferr < 1e-9, what + ": on the floor within 1e-12 m (%.2g), "
                      "the floor's force m g + press within 1e-9 N (%.2g)" % (xs, ferr))
                m = re.search(r"\(([0-9.eE+-]+) of the largest energy\)", line)
                check(m is not None and float(m.group(1)) < 1e-10,
                      what + ": the balance closed, within 1e-10 of the energies met", p)


OSC = '''model osc "a harmonic oscillator"
param A = 1 m
mass M = 1 kg
spring S: ground -- M, k = 1 N/m
init M.x = A
simulate t_end = 10 s, method = exact
output every 1 s: M.x, M.v
'''


def case_zeroenergy(tmp):
    """Energies that round to 0 J: the balance is not judged."""
    for A, meth in (("1e-200", "exact"), ("1e-200", "rk4"), ("1e-170", "adaptive")):
        p = nsmc_run(tmp, "osc", OSC, ["--set", "A=" + A, "--method", meth, "--dt", "0.01",
                                       "--summary"])
        line = status_line(p)
        print("    %s" % line)
        check(p.returncode == 0 and "energy balance not judged: every energy met is 0 J" in line
              and "of the largest energy" not in line,
              "an oscillator of %s m under %s (energies of 0 J): the status line says the "
              "balance is not judged (it read 'energy error 0 J (0 of the largest energy)')"
              % (A, meth), p)
        rows = rows_of(tmp, "osc", "trajectory")
        a = float(A)
        err = max(abs(float(r["M.x [m]"]) - a * math.cos(float(r["t [s]"]))) for r in rows) / a
        check(err < 1e-6, "and its motion A cos(t) within 1e-6 A (%.1e)" % err)
    p = nsmc_run(tmp, "osc", OSC, ["--set", "A=1", "--method", "exact", "--summary"])
    check(p.returncode == 0 and "of the largest energy" in status_line(p),
          "at 1 m the balance is judged as before", p)


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-left12core-", case_arg=3))
