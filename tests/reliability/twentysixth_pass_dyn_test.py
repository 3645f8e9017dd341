#!/usr/bin/env python3
"""A twenty-sixth hostile pass on the smooth and nonlinear dynamics and the
studies' numbers, every answer against a closed form or an exact invariant
derived here.

    tests/reliability/twentysixth_pass_dyn_test.py SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  findings_overflow  (silent) a product, quotient or power whose operand
             overflowed to infinity and whose value is therefore 0: param h
             = 1 m / (1e200*1e200), a spring's k = 1 N/m / (1e200*1e200),
             1 m * 0.5^(1e200*1e200), 1 m / exp(800), an initial speed, a
             damping.  The value is 1e-400 (or less), below a double's range,
             as 1 m / 1e200 / 1e200, which nsmc refuses; before, each
             compiled with the value 0, exit 0.  nsmc refuses it now (file:
             line:col, the line and a caret, exit 1, no output).  Kept:
             1 m / (1e200*1e100) (1e-300) compiles.  Failed before the fix.
  findings_oddproduct  (silent) a pendulum's wall written as a product of a
             repeated sum of its angle, l*(P.phi + 0.2)*(P.phi + 0.2)*(P.phi
             + 0.2), l*(P.phi - 0.5)*(P.phi - 0.5)^2, (0.2 + P.phi)*(P.phi +
             0.2)^2, (P.phi - 0.5)^1*(P.phi - 0.5)^2, and divided by the same
             sum: an odd power (3) of an expression of the positions, which
             nsmc refuses written as l*(P.phi - 0.5)^3 (it changes sign with
             zero slope and no impulse acts along it: impacts with impulses
             of 1e12 N s, their instants off by 1e-6 s, the cube root of the
             rounding).  The product of a sum is distributed into a sum
             before the rule looked at it, and it compiled, exit 0.  Refused
             now (file:line:col, caret, exit 1, no output).  Kept: even
             products (P.phi - 0.5)*(P.phi - 0.5), first powers, and
             (P.phi + 0.2)*(P.phi - 0.5) (two simple zeros) compile.  Failed
             before the fix.
  findings_infmass  (silent) a mass that parameters set at run time make
             infinite (mass B = m0*a*a, a = 1e200: 1e400 kg): nsmc refuses
             an infinite mass written in the model ("must be positive and
             finite"), but the run went on with it, energies not a number
             (energy.error nan), exit 0.  The run is refused now, naming the
             mass and its value.  Kept: a = 1e154 (1e308 kg) runs, the light
             mass bouncing off the heavy one at (1 + e) times its speed.
             Failed before the fix.
  findings_frame  (silent) the Lyapunov spectrum of two masses joined by a
             damped spring in free flight (m1 = 1 kg, m2 = 0.5 or 1 kg, k =
             4 or 1 N/m, c = 0.1 to 3 N s/m) over 100 s: 0, 0 (the centre of
             mass) and the real parts of the relative motion's rates, each
             within 8/T.  Before, the frame started as the state's axes, the
             span of the two positions held no velocity of the centre of mass,
             and the second exponent followed the relative motion until
             rounding brought it in: -0.375 1/s for 0 and -1.24 for -1.63
             (m2 = 0.5, k = 4, c = 3), by every method, exit 0 (the error
             37/T, 37 = -log of the rounding).  Failed before the fix.
  kept_pendulum  a pendulum without walls (g/l = 9.81 s^-2) by taylor, rk4
             and adaptive: from rest at phi0 (0.1 to pi - 1e-6) back at
             phi0 after the period 4 K(sin(phi0/2)) / sqrt(g/l); from the
             bottom at omega0 above the separatrix, a full turn in
             4 K(2 sqrt(g/l)/omega0) / omega0.  Passed (kept).
  kept_housner  Housner's rocking block (models/rocking_block.nsm, b/h =
             0.1 to 1, theta0 = 0.05 to 0.3 rad) by taylor, rk4 and adaptive:
             after the first impact it rocks about the other corner with its
             angular velocity times 1 - 3/2 sin^2 alpha, up to the tilt that
             energy gives (within 1e-8 rad).  Passed (kept).
  kept_space  free asymmetric bodies in space (inertias (0.3, 0.4, 0.5),
             (1e-3, 1, 1.0005), (1, 1, 1.999) kg m^2; spun near the
             intermediate axis too) by taylor, rk4 and adaptive: the world
             angular momentum R(q) I w and the kinetic energy constant within
             1e-10 over 5 s.  Passed (kept).
  kept_hertz  two equal masses through a penalty k p^n (n = 1 to 16, k =
             1e3 to 1e15 SI, closing at 1e-3 to 10 m/s), by taylor, rk4 and
             adaptive: the contact lasts 2 (p_max / v) sqrt(pi)
             Gamma(1 + 1/(n + 1)) / Gamma(1/2 + 1/(n + 1)), p_max = ((n + 1)
             mu v^2 / (2 k))^(1/(n + 1)), and the masses leave with their
             speeds exchanged.  Passed (kept).
  kept_studies  the same spectrum for other masses and dampings (m1 = 1e3
             kg with m2 = 1 kg, m2 = 1e-2 kg, c = 0.5 to 30), and the forced
             impact oscillator's spectrum summing to -2 zeta + 2 ln(e) N / T
             (N impacts in T) by exact, rk4 and adaptive.  Passed (kept).
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import cmath
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import check, main, compiled, refusal  # noqa: E402


def nsmc_on(tmp, text):
    """nsmc on text (as tmp/u.nsm) into tmp/u.c: (exit status, stderr,
    whether u.c exists)."""
    src, out = os.path.join(tmp, "u.nsm"), os.path.join(tmp, "u.c")
    with open(src, "w") as f:
        f.write(text)
    if os.path.exists(out):
        os.remove(out)
    nsmc = os.path.join(os.environ["NSM_BUILD_DIR"], "nsmc")
    p = subprocess.run([nsmc, src, "-o", out], capture_output=True, text=True, timeout=60)
    return p.returncode, p.stderr, os.path.exists(out)


UNDER = '''model p "p"
param h = 1 m
mass B = 1 kg
spring S: ground -- B, k = 1 N/m
init B.x = 1 m
simulate t_end = 1 s
output every 0.1 s: B.x
'''


def case_findings_overflow(tmp):
    """Products and quotients of an overflowed operand: refused."""
    bad = [("param h = 1 m", "param h = 1 m / (1e200*1e200)", 2, 11),
           ("param h = 1 m", "param h = 1 m * 0.5^(1e200*1e200)", 2, 17),
           ("param h = 1 m", "param h = 1 m / exp(800)", 2, 11),
           ("param h = 1 m", "param h = 1 m / (1e300 * 1e300 * 1e300)", 2, 11),
           ("k = 1 N/m", "k = 1 N/m / (1e200*1e200)", 4, 28),
           ("k = 1 N/m", "k = 1 N/m, c = 1 N*s/m / (1e200*1e200)", 4, 39),
           ("init B.x = 1 m", "init B.x = 1 m, B.v = 1 m/s / (1e200*1e200)", 5, 23)]
    for old, new, line, col in bad:
        rc, err, made = nsmc_on(tmp, UNDER.replace(old, new))
        first = err.splitlines()[0] if err else ""
        print("  %s -> exit %d, %s, output %s" % (new, rc, first, "made" if made else "none"))
        check(rc == 1 and not made and
              ("u.nsm:%d:%d: error: number out of range" % (line, col)) in first and
              "above the range of a double" in first,
              "'%s': refused as out of a double's range" % new)
        check("^" in err, "'%s': the line and a caret" % new)
    for old, new in (("param h = 1 m", "param h = 1 m / (1e200*1e100)"),
                     ("param h = 1 m", "param h = 1 m * 1e200 / 1e200"),
                     ("param h = 1 m", "param h = 1 m * 0.5^(1e2*1e1)")):
        rc, err, made = nsmc_on(tmp, UNDER.replace(old, new))
        print("  %s -> exit %d, output %s" % (new, rc, "made" if made else "none"))
        check(rc == 0 and made, "'%s' compiles" % new)


PZ = '''model pz "a pendulum against a wall"
param m = 1 kg
param l = 1 m
param g = 9.81 m/s^2
param e = 0.8
body P: mass = m, inertia = m*l^2
force gt: on P.phi = -m*g*l*sin(P.phi)
gap wall: GAP, impact(e = e)
init P.phi = 1, P.omega = 0 rad/s
simulate t_end = 3 s
output every 10 ms: P.phi, P.omega
'''


def case_findings_oddproduct(tmp):
    """A gap written as a product of a repeated sum of the angle."""
    for gap in ("l*(P.phi + 0.2)*(P.phi + 0.2)*(P.phi + 0.2) >= 0 m",
                "l*(P.phi - 0.5)*(P.phi - 0.5)^2 >= 0 m",
                "l*(0.2 + P.phi)*(P.phi + 0.2)^2 >= 0 m",
                "l*(P.phi - 0.5)^1*(P.phi - 0.5)^2 >= 0 m",
                "(P.phi - 0.5)^4*l/(P.phi - 0.5) >= 0 m",
                "-l*(P.phi - 0.5)*(0.5 - P.phi)^2 >= 0 m",
                "0 m <= l*(P.phi + 0.2)*(P.phi + 0.2)*(P.phi + 0.2)*exp(P.phi)",
                "l*(P.phi - 0.5)*(P.phi - 0.5)*(P.phi - 0.5)*(P.phi - 0.5)*(P.phi - 0.5) >= 0 m"):
        rc, err, made = nsmc_on(tmp, PZ.replace("GAP", gap))
        first = err.splitlines()[0] if err else ""
        print("  gap %s -> exit %d, %s, output %s" % (gap, rc, first, "made" if made else "none"))
        check(rc == 1 and not made and "u.nsm:8:11: error: gap 'wall' is an odd power" in first
              and "^~~" in err, "gap '%s': refused as changing sign with zero slope" % gap)
    for gap in ("l*(P.phi - 0.5)*(P.phi - 0.5) >= 0 m", "l*(P.phi + 0.2)*(P.phi - 0.5) >= 0 m",
                "l*(P.phi - 0.5) >= 0 m", "l*(P.phi - 0.5)*(P.phi - 0.5)^2 >= 0.01 m",
                "l*(P.phi - 0.5)^3 + l*P.phi >= 0 m"):
        rc, err, made = nsmc_on(tmp, PZ.replace("GAP", gap))
        print("  gap %s -> exit %d, output %s %s" % (gap, rc, "made" if made else "none",
                                                    err.splitlines()[0] if err else ""))
        check(rc == 0 and made, "gap '%s' compiles" % gap)


MASS = '''model dp3 "a mass from parameters set at run time"
param a = 1
param m0 = 1 kg
param e = 0.5
mass B = m0*a*a
mass C = 1 kg
gap G: C.x - B.x >= 0 m, impact(e = e)
init B.x = 0 m, B.v = 0 m/s, C.x = 1 m, C.v = -1 m/s
simulate t_end = 2 s
output every 0.5 s: B.x, B.v, C.x, C.v, energy.error
'''


def case_findings_infmass(tmp):
    """An infinite mass from parameters set at run time: refused."""
    import nsm
    model = compiled(tmp, "dp3", MASS)
    for a, m0 in ((1e200, 1.0), (1e155, 1.0), (1.0, 1e308), (10.0, 1e307), (1e160, 1e100)):
        mb = m0 * a * a
        for meth in ("exact", "rk4"):
            why = refusal(lambda: model.run(params={"a": a, "m0": m0}, method=meth))
            print("  a = %g, m0 = %g (mass %g kg), %s -> %s" % (a, m0, mb, meth, why))
            if math.isinf(mb):
                check(why is not None and "mass" in why and "not finite" in why and "'B'" in why,
                      "a = %g, m0 = %g (%s): an infinite mass refused" % (a, m0, meth))
            else:
                check(why is None, "a = %g, m0 = %g (%s): a mass of %g kg runs" % (a, m0, meth, mb))
    for meth in ("exact", "rk4", "adaptive"):
        r = model.run(params={"a": 1e154}, method=meth)
        # C leaves at e times its speed, B takes the momentum (1 + e) 1 kg m/s
        print("  a = 1e154 (1e308 kg), %s -> C.v %r, B.v %r at the end (by momentum 0.5, %r)"
              % (meth, r["C.v"][-1], r["B.v"][-1], -1.5 / 1e308))
        check(abs(r["C.v"][-1] - 0.5) <= 1e-12 and abs(r["B.v"][-1] + 1.5e-308) <= 1e-320 and
              nsm is not None,
              "a 1e308 kg mass (%s): C rebounds at e v" % meth)


PEND = '''model pend "a pendulum"
param m = 1 kg
param l = 1 m
param g = 9.81 m/s^2
body P: mass = m, inertia = m*l^2
force gt: on P.phi = -m*g*l*sin(P.phi)
init P.phi = 1, P.omega = 0 rad/s
simulate t_end = 3 s
output every 10 ms: P.phi, P.omega
'''


def agm(a, b):
    """The arithmetic-geometric mean of a and b (40 rounds: converged)."""
    for _ in range(40):
        a, b = (a + b) / 2, math.sqrt(a * b)
    return a


def ellk(k):
    """The complete elliptic integral K of the modulus k (k < 1)."""
    return math.pi / (2 * agm(1.0, math.sqrt((1 - k) * (1 + k))))


def meth_kw(meth, T, n=20000):
    """A method's keyword arguments for a run over T: rk4 n steps; adaptive
    tight tolerances."""
    if meth == "rk4":
        return {"dt": T / n}
    if meth == "adaptive":
        return {"rtol": 1e-12, "atol": 1e-14}
    return {}


def case_kept_pendulum(tmp):
    """Librations and rotations of a pendulum against their elliptic periods."""
    model = compiled(tmp, "pend", PEND)
    w = math.sqrt(9.81)
    for phi0 in (0.1, 1.0, 2.5, 3.0, math.pi - 1e-3, math.pi - 1e-6):
        T = 4 * ellk(math.sin(phi0 / 2)) / w
        for meth in ("taylor", "rk4", "adaptive"):
            r = model.run(method=meth, t_end=T, every=T / 2, init={"P.phi.x": phi0, "P.phi.v": 0},
                          **meth_kw(meth, T, 200000 if phi0 > 3.1 else 20000))
            err = max(abs(r["P.phi"][-1] - phi0), abs(r["P.phi"][1] + phi0))
            print("  libration from %.10g rad, %s -> period %.12g s, at -phi0 and phi0: off by %.2g"
                  % (phi0, meth, T, err))
            tol = 1e-6 if phi0 < 3.1 else (1e-4 if phi0 < math.pi - 1e-5 else 1e-2)
            check(err <= tol, "pendulum from %g rad (%s): its period" % (phi0, meth))
    for om in (2 * w * 1.0001, 2 * w * 1.5, 2 * w * 10):
        k = 2 * w / om
        T = 4 * ellk(k) / om
        for meth in ("taylor", "rk4", "adaptive"):
            r = model.run(method=meth, t_end=T, every=T, init={"P.phi.x": 0, "P.phi.v": om},
                          **meth_kw(meth, T))
            err = abs(r["P.phi"][-1] - 2 * math.pi) + abs(r["P.omega"][-1] - om) / om
            print("  rotation at %.10g rad/s, %s -> a turn in %.12g s: off by %.2g" % (om, meth, T, err))
            check(err <= 1e-6, "pendulum rotating at %g rad/s (%s): one turn" % (om, meth))


HERTZ = '''model hz "two masses through a power-law contact"
param m = 0.1 kg
param kh = 1e9
param nn = 1.5
param v = 1 m/s
param d0 = 1 mm
mass A = m
mass B = m
gap C: B.x - A.x >= 0 m, penalty(k = kh, c = 0 N*s/m, exponent = nn)
init A.x = -d0/2, B.x = d0/2, A.v = v/2, B.v = -v/2
simulate t_end = 2 ms
output every 1 us: A.v, B.v
'''


def case_kept_hertz(tmp):
    """Power-law contacts: the contact time and the exchanged speeds."""
    model = compiled(tmp, "hz", HERTZ)
    for n, kh, v in ((1.5, 1e9, 1.0), (1.5, 1e15, 1e-3), (1.0, 1e3, 1.0), (2.0, 1e6, 10.0),
                     (3.0, 1e12, 0.1), (7.0, 1e12, 1.0), (16.0, 1e15, 1.0), (1.5, 1e3, 10.0)):
        mu = 0.05
        pmax = ((n + 1) * mu * v * v / (2 * kh)) ** (1 / (n + 1))
        a = 1 / (n + 1)
        tc = 2 * pmax / v * math.sqrt(math.pi) * math.gamma(1 + a) / math.gamma(0.5 + a)
        t0 = tc / 10
        for meth in ("taylor", "rk4", "adaptive"):
            kw = meth_kw(meth, tc, 20000)
            r = model.run(method=meth, t_end=t0 + 2 * tc, every=0,
                          params={"nn": n, "kh": kh, "v": v, "d0": v * t0}, **kw)
            ev = [e for e in r.events if e["contact"] == "C"]
            tin = [float(e["t"]) for e in ev if e["kind"] == "contact_enter"]
            tout = [float(e["t"]) for e in ev if e["kind"] == "contact_exit"]
            check(len(tin) == 1 and len(tout) == 1, "n = %g (%s): one contact" % (n, meth))
            d = tout[0] - tin[0]
            dv = abs(r["A.v"][-1] + v / 2) + abs(r["B.v"][-1] - v / 2)
            print("  n = %g, k = %g, v = %g, %s -> contact %.12g s (closed form %.12g): off by %.2g; "
                  "speeds exchanged within %.2g" % (n, kh, v, meth, d, tc, abs(d - tc) / tc, dv / v))
            check(abs(d - tc) <= 1e-6 * tc and dv <= 1e-8 * v, "n = %g, k = %g, v = %g (%s): contact "
                  "time and rebound" % (n, kh, v, meth))


TWO = '''model two "two masses joined by a damped spring"
param m1 = 1 kg
param m2 = 1 kg
param k = 1 N/m
param c = 0.1 N*s/m
mass A = m1
mass B = m2
spring S: A -- B, k = k, c = c
init A.x = 0 m, B.x = 1 m, A.v = 0.3 m/s
simulate t_end = 10 s
output every 0.1 s: A.x, B.x
'''


def two_checked(model, m1, m2, k, c, meth, T, iv):
    """The spectrum of two masses joined by a damped spring over T: 0, 0
    (the centre of mass, growing linearly: log(T)/T) and the real parts of
    the relative motion's mu x'' + c x' + k x = 0, mu = m1 m2 / (m1 + m2),
    each within 8/T; their sum -c/mu within 1e-9 of it."""
    mu = m1 * m2 / (m1 + m2)
    d = cmath.sqrt(c * c - 4 * mu * k)
    ex = sorted([0.0, 0.0, ((-c + d) / (2 * mu)).real, ((-c - d) / (2 * mu)).real], reverse=True)
    lam = model.lyapunov(T, iv, params={"m1": m1, "m2": m2, "k": k, "c": c}, method=meth)
    err = max(abs(a - b) for a, b in zip(lam, ex))
    ds = abs(sum(lam) + c / mu)
    print("  m1 = %g, m2 = %g, k = %g, c = %g, %s over %g s every %g s -> %r (closed form %r): off by "
          "%.2g, sum by %.2g" % (m1, m2, k, c, meth, T, iv, list(lam), ex, err, ds))
    check(err <= 8 / T and ds <= 1e-9 * c / mu, "two masses m1 = %g, m2 = %g, k = %g, c = %g (%s, every "
          "%g s): Lyapunov exponents" % (m1, m2, k, c, meth, iv))


def case_findings_frame(tmp):
    """Two masses joined by a damped spring: the second exponent 0."""
    model = compiled(tmp, "two", TWO)
    for m1, m2, k, c in ((1, 0.5, 4, 3), (1, 1, 4, 3), (1, 0.5, 4, 0.3), (1, 1, 1, 0.1)):
        for meth in ("exact", "rk4", "adaptive"):
            two_checked(model, m1, m2, k, c, meth, 100.0, 0.5)
    two_checked(model, 1, 0.5, 4, 3, "exact", 100.0, 5.0)


def case_kept_studies(tmp):
    """Lyapunov spectra of a free two-mass oscillator and the forced impact
    oscillator's exponents' sum."""
    model = compiled(tmp, "two", TWO)
    for m1, m2, k, c in ((1e3, 1, 10, 30), (2, 2, 1e2, 1), (1, 1e-2, 1e2, 0.5)):
        for meth in ("exact", "rk4", "adaptive"):
            two_checked(model, m1, m2, k, c, meth, 100.0, 0.5)
    fio = compiled(tmp, "fio", path=os.path.join(sys.argv[1], "models", "forced_impact_oscillator.nsm"))
    for w, e, z in ((1.7, 0.7, 0.02), (2.2, 0.6, 0.1)):
        T = 2 * math.pi / w
        p = {"omega": w, "e": e, "zeta": z}
        for meth in ("exact", "rk4", "adaptive"):
            tr, du = 40 * T, 100 * T
            lam = fio.lyapunov(du, T / 3, transient=tr, params=p, method=meth)
            rec = fio.section("impact:stop", t_end=tr + du, params=p, method=meth)
            n = sum(1 for row in rec if row[0] > tr)
            ex = -2 * z + 2 * math.log(e) * n / du
            print("  omega = %g, e = %g, zeta = %g, %s -> sum %.15g (by the %d impacts %.15g)"
                  % (w, e, z, meth, sum(lam), n, ex))
            check(abs(sum(lam) - ex) <= 1e-12, "impact oscillator omega = %g, e = %g (%s): exponents' sum"
                  % (w, e, meth))


def case_kept_housner(tmp):
    """Housner's rocking block: after the first impact it rocks about the
    other corner with omega times 1 - 3/2 sin^2 alpha, up to the tilt
    energy gives."""
    model = compiled(tmp, "rock", path=os.path.join(sys.argv[1], "models", "rocking_block.nsm"))
    g = 9.81
    for b, h, th in ((0.2, 0.5, 0.1), (0.1, 1.0, 0.05), (0.3, 0.3, 0.3)):
        R, al = math.hypot(b, h), math.atan(b / h)
        # about a corner I = 4/3 m R^2; from th at rest to 0, then Housner
        wm = math.sqrt(2 * g * R * (math.cos(al - th) - math.cos(al)) / (4 / 3 * R * R))
        wp = wm * (1 - 1.5 * math.sin(al) ** 2)
        th1 = al - math.acos(math.cos(al) + (0.5 * 4 / 3 * R * R * wp * wp) / (g * R))
        for meth in ("taylor", "rk4", "adaptive"):
            r = model.run(method=meth, params={"b": b, "h": h, "theta0": th}, t_end=1.5, every=5e-4,
                          **({"dt": 1e-5} if meth == "rk4" else {}))
            ev = [float(e["t"]) for e in r.events if e["kind"] == "impact"]
            check(len(ev) >= 2, "block b = %g, h = %g (%s): two impacts" % (b, h, meth))
            ph = r["B.phi"]
            i = min((k for k in range(len(r.t)) if ev[0] < r.t[k] < ev[1]), key=lambda k: ph[k])
            # the parabola through the three samples about the lowest: its vertex
            den = ph[i - 1] - 2 * ph[i] + ph[i + 1]
            low = ph[i] - (ph[i + 1] - ph[i - 1]) ** 2 / (8 * den)
            print("  b = %g, h = %g, theta0 = %g, %s -> first impact at %.9f s, then down to %.10f rad "
                  "(Housner %.10f)" % (b, h, th, meth, ev[0], low, -th1))
            check(abs(low + th1) <= 1e-8, "block b = %g, h = %g, theta0 = %g (%s): Housner's tilt"
                  % (b, h, th, meth))


TOP = '''model top3 "an asymmetric free body"
param m = 2 kg
param I1 = 0.3 kg*m^2
param I2 = 0.4 kg*m^2
param I3 = 0.5 kg*m^2
param w1 = 0.01 rad/s
param w2 = 5 rad/s
param w3 = 0.01 rad/s
rigid B: mass = m, inertia = (I1, I2, I3)
init B.tilt = (1, 0, 0) * 0.3 rad, B.omega = (w1, w2, w3)
simulate t_end = 10 s, dt = 0.1 ms
output every 10 ms: B.w1, B.w2, B.w3, B.p0, B.p1, B.p2, B.p3
'''


def quat_rot(q):
    """The rotation matrix of the unit quaternion q = (p0, p1, p2, p3)."""
    a, b, c, d = q
    return [[a * a + b * b - c * c - d * d, 2 * (b * c - a * d), 2 * (b * d + a * c)],
            [2 * (b * c + a * d), a * a - b * b + c * c - d * d, 2 * (c * d - a * b)],
            [2 * (b * d - a * c), 2 * (c * d + a * b), a * a - b * b - c * c + d * d]]


def case_kept_space(tmp):
    """Free bodies in space: the world angular momentum R I w and the
    kinetic energy w.I w / 2 constant (near the intermediate axis too)."""
    model = compiled(tmp, "top3", TOP)
    for inert, w in (((0.3, 0.4, 0.5), (0.01, 5, 0.01)), ((1e-3, 1, 1.0005), (3, 0.2, 0.1)),
                     ((0.3, 0.4, 0.5), (0, 0, 100)), ((1, 1, 1.999), (1, 2, 3))):
        for meth in ("taylor", "rk4", "adaptive"):
            r = model.run(method=meth, t_end=5, params={"I1": inert[0], "I2": inert[1], "I3": inert[2],
                                                        "w1": w[0], "w2": w[1], "w3": w[2]},
                          **({"dt": 1e-5} if meth == "rk4" else {}))
            ls, es = [], []
            for i in range(len(r.t)):
                q = [r["B.p%d" % k][i] for k in range(4)]
                nq = math.sqrt(sum(x * x for x in q))
                rm = quat_rot([x / nq for x in q])
                om = [r["B.w1"][i], r["B.w2"][i], r["B.w3"][i]]
                h = [inert[k] * om[k] for k in range(3)]
                ls.append([sum(rm[a][k] * h[k] for k in range(3)) for a in range(3)])
                es.append(0.5 * sum(h[k] * om[k] for k in range(3)))
            n0 = math.sqrt(sum(x * x for x in ls[0]))
            dl = max(math.sqrt(sum((x - y) ** 2 for x, y in zip(v, ls[0]))) for v in ls) / n0
            de = max(abs(e - es[0]) for e in es) / es[0]
            print("  inertia %r, omega %r, %s -> %d rows: angular momentum drifts %.2g, energy %.2g"
                  % (inert, w, meth, len(r.t), dl, de))
            check(dl <= 1e-10 and de <= 1e-10, "free body %r, %r (%s): momentum and energy" % (inert, w, meth))


if __name__ == "__main__":
    sys.exit(main({"findings_overflow": case_findings_overflow,
                   "findings_oddproduct": case_findings_oddproduct,
                   "findings_infmass": case_findings_infmass,
                   "findings_frame": case_findings_frame,
                   "kept_pendulum": case_kept_pendulum, "kept_housner": case_kept_housner,
                   "kept_space": case_kept_space, "kept_hertz": case_kept_hertz,
                   "kept_studies": case_kept_studies}, "nsm-twentysixth-dyn-", case_arg=2))
