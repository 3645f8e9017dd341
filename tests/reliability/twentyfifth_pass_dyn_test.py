#!/usr/bin/env python3
"""A twenty-fifth hostile pass on the smooth and nonlinear dynamics and the
studies' numbers, every answer against a closed form or an exact invariant
derived here.

    tests/reliability/twentyfifth_pass_dyn_test.py SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  findings_spread  (silent) the Lyapunov spectrum of a damped oscillator
             m x'' + c x' + k x = 0, whose exponents are the real parts of
             lambda = (-c +- sqrt(c^2 - 4 m k)) / (2 m) and sum to the
             trace -c/m at every duration: overdamped with growth rates
             far apart (m = 1 kg, k = 1e4 N/m, c = 1e3 N s/m: -10.1 and
             -989.9 1/s; k = 1e2, c = 1e3; m = 1e-2 kg, k = 1e4, c = 1e2), by
             exact, rk4 and adaptive over 10 s, reorthonormalised every 0.5
             s (and 2 s by exact): the sum within 1e-9 of -c/m, each within
             5/T.  Before,
             the faster exponent read -83 1/s for -989.9 (its column of the
             QR lost under exp(-980 x 0.5) of the other's rounding), its sum
             -93 for -1000, exit 0.  Failed before the fix.
  kept_lyap  the same oscillator underdamped, critically damped and
             overdamped with rates close (m = 1e-3 to 2 kg, k = 0 to 1e6,
             c = 0 to 3): the sum -c/m within 1e-9 of it, each exponent
             within 10/T (T = 200 s: the finite time's
             log of the eigenvectors' condition over T) of the closed form's real parts, 0 and
             -c/m at k = 0.  Passed (kept).
  kept_floquet  the forced damped oscillator (no contact): its orbit of
             period 2 pi/omega, and its multipliers exp(lambda T) by hand
             (omega = 0.5 to 3 rad/s, c = 0.1 to 3).  Passed (kept).
  findings_underflow  (silent) a value written as a product, quotient or
             power of nonzero numbers whose SI value is below a double's
             range (param h = 1e-200 m * 1e-200, 1e-200 m / 1e200,
             (1e-200 m)^2 / (1 m), a spring's k = 1e-170 * 1e-170 N/m, a
             mass, an initial position): nsmc refuses it, file:line:col,
             the line and a caret, exit 1, no output, as it refuses the
             literal 1e-320 nm.  Before, each compiled with the value 0 (or
             was refused later as "0").  Products reaching a subnormal
             (1e-150 m * 1e-160) or exactly 0 (0 m * 1e-300) still compile.
             Failed before the fix.
  findings_flatgap  (silent) a pendulum (g/l = 9.81 s^-2, from 1 rad at
             rest, e = 0.8) against a wall written as an odd power of an
             expression of its angle: l*P.phi^3, l*P.phi*P.phi*P.phi,
             l*sin(P.phi)^3, l*(P.phi - 0.5)^3 and ^5, and the same written
             as 0 m <= -l*(0.5 - P.phi)^3, and (P.phi - 0.5)^nn with the
             parameter nn = 3 (or nn + 2).  Such a gap changes sign with zero
             slope, and no impulse can act along it: before, rk4 and
             adaptive stopped the pendulum at phi = 0 without an event (its
             4.5 J gone, exit 0; taylor happened to strike), and at
             (P.phi - 0.5)^3 every method held it at rest at 0.5 rad
             ("stick"), exit 0.  nsmc now refuses them (file:line:col,
             caret, exit 1, no output).  Kept: the first powers l*P.phi,
             l*(P.phi - 0.5), l*exp(P.phi)*(P.phi - 0.5) and
             l*sin(P.phi - 0.5) strike at (K(k) - F(asin(sin(phi_w/2)/k),
             k)) / sqrt(g/l), k = sin(1/2), within 1e-7 s, and leave at e
             times the speed of the energy; the even power l*(P.phi -
             0.5)^2 and l*(1 - cos(P.phi)), which touch 0 without crossing,
             let it swing freely (back at 1 rad after 4 K / sqrt(g/l)).
             Failed before the fix.
  kept_duffing  undamped Duffing oscillators x'' + k x + alpha x^3 = 0
             (alpha = -1 to 1e12, A = 1e-3 to 100 m, softening to 0.999 of
             the separatrix) by taylor, rk4 and adaptive: at -A after half a
             period and back at A at rest after two, the period 4 K(m) /
             sqrt(k + alpha A^2), m = alpha A^2 / (2 (k + alpha A^2)).
             Passed (kept).
  kept_impactsum  the forced impact oscillator's periodic motions (omega =
             1.5 to 4, e = 0.05 to 1, zeta = 0 to 0.3) by exact, rk4 and
             adaptive: each impact's saltation matrix has determinant e^2,
             so the Lyapunov exponents sum to -2 zeta + 2 ln(e) N / T over
             N impacts in T, and the Floquet multipliers of a period-1
             orbit multiply to e^(2N) exp(-2 zeta T) (within 1e-12).
             Passed (kept).
  kept_continuation  the impact oscillator's period-1 branch continued in
             omega (e = 0.8, 0.3, 1; zeta = 0.05, 0, 0.1) by exact and rk4:
             the multipliers' product e^(2N) exp(-2 zeta T) at every point
             within 1e-12, a multiplier within 1e-6 of -1 at each flip.
             Passed (kept).
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import cmath
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import check, main, compiled  # noqa: E402

OSC = '''model osc "a damped oscillator, forced"
param m = 1 kg
param k = 1 N/m
param c = 0.1 N*s/m
param F = 0 N
param omega = 1 rad/s
mass B = m
spring S: ground -- B, k = k, c = c
force P: on B = F*cos(omega*t)
init B.x = 1 m
simulate t_end = 10 s
output every 0.1 s: B.x, B.v
'''


def osc_rates(m, k, c):
    """The eigenvalues of m x'' + c x' + k x = 0 (complex)."""
    d = cmath.sqrt(c * c - 4 * m * k)
    return (-c + d) / (2 * m), (-c - d) / (2 * m)


def lyap_checked(model, m, k, c, meth, T, iv, tol):
    """The spectrum over T reorthonormalised every iv against the closed
    form: the sum -c/m within 1e-9 of it, each exponent within tol."""
    lam = model.lyapunov(T, iv, params={"m": m, "k": k, "c": c}, method=meth)
    ex = sorted((r.real for r in osc_rates(m, k, c)), reverse=True)
    err = max(abs(a - b) for a, b in zip(lam, ex))
    dsum = abs(sum(lam) + c / m)
    print("  m = %g, k = %g, c = %g, %s, over %g s every %g s -> %r (closed form %r): "
          "off by %.3g, sum off by %.3g" % (m, k, c, meth, T, iv, list(lam), ex, err, dsum))
    check(dsum <= 1e-9 * max(c / m, 1e-300) + 1e-15 and err <= tol,
          "oscillator m = %g, k = %g, c = %g (%s, every %g s): Lyapunov exponents" % (m, k, c, meth, iv))


def case_findings_spread(tmp):
    """Overdamped oscillators with their growth rates far apart."""
    model = compiled(tmp, "osc", OSC)
    for m, k, c in ((1, 1e4, 1e3), (1, 1e2, 1e3), (1e-2, 1e4, 1e2)):
        for meth in ("exact", "rk4", "adaptive"):
            for iv in ((0.5, 2.0) if meth == "exact" else (0.5,)):
                lyap_checked(model, m, k, c, meth, 10.0, iv, 0.5)


def case_kept_lyap(tmp):
    """Damped oscillators with rates close: the closed form within 10/T."""
    model = compiled(tmp, "osc", OSC)
    for m, k, c in ((1, 1, 0.1), (1, 1, 2), (1, 1, 3), (1, 1e6, 1), (1e-3, 1, 1e-4),
                    (1, 1, 1e-9), (2, 8, 8), (1, 0, 1), (1, 1, 0)):
        for meth in ("exact", "rk4", "adaptive"):
            lyap_checked(model, m, k, c, meth, 200.0, 0.5, 10 / 200.0)


def case_kept_floquet(tmp):
    """Forced damped oscillators: multipliers exp(lambda T)."""
    model = compiled(tmp, "osc", OSC)
    for w in (0.5, 1.7, 3.0):
        for c in (0.1, 1.0, 3.0):
            T = 2 * math.pi / w
            y, mu = model.floquet("2*pi/omega", transient=0,
                                  params={"omega": w, "c": c, "F": 1.0}, method="exact")
            H = 1 / complex(1 - w * w, c * w)   # x = Re(H e^{i w t}), m = k = F = 1
            x0, v0 = H.real, -w * H.imag
            ex = [cmath.exp(r * T) for r in osc_rates(1, 1, c)]
            got = list(mu)
            err = max(max(min(abs(a - b) for b in got) for a in ex),
                      max(min(abs(a - b) for b in ex) for a in got))
            dy = abs(y[0] - x0) + abs(y[1] - v0)
            print("  omega = %g, c = %g -> orbit (%.12g, %.12g) (by hand (%.12g, %.12g)), "
                  "multipliers %r (by hand %r): off by %.2g and %.2g"
                  % (w, c, y[0], y[1], x0, v0, list(got), ex, dy, err))
            check(dy <= 1e-9 and err <= 1e-9, "forced oscillator omega = %g, c = %g: orbit and multipliers"
                  % (w, c))


UNDER = '''model p "p"
param h = 1 m
mass B = 1 kg
spring S: ground -- B, k = 1 N/m
init B.x = 1 m
simulate t_end = 1 s
output every 0.1 s: B.x
'''


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


def case_findings_underflow(tmp):
    """Parameter values that underflow to 0 as products: refused."""
    bad = [("param h = 1 m", "param h = 1e-200 m * 1e-200", 2, 11),
           ("param h = 1 m", "param h = 1e-200 m / 1e200", 2, 11),
           ("param h = 1 m", "param h = (1e-200 m)^2/(1 m)", 2, 11),
           ("k = 1 N/m", "k = 1e-170 * 1e-170 N/m", 4, 28),
           ("mass B = 1 kg", "mass B = 1e-300 kg / 1e30", 3, 10),
           ("init B.x = 1 m", "init B.x = 1e-300 m * 1e-300", 5, 12)]
    for old, new, line, col in bad:
        rc, err, made = nsmc_on(tmp, UNDER.replace(old, new))
        first = err.splitlines()[0] if err else ""
        print("  %s -> exit %d, %s, output %s" % (new, rc, first, "made" if made else "none"))
        check(rc == 1 and not made and
              ("u.nsm:%d:%d: error: number out of range" % (line, col)) in first,
              "'%s': refused as below a double's range" % new)
        check("^" in err and new.split("=", 1)[1].strip() in err, "'%s': the line and a caret" % new)
    for old, new in (("param h = 1 m", "param h = 1e-150 m * 1e-160"),
                     ("param h = 1 m", "param h = 0 m * 1e-300"),
                     ("param h = 1 m", "param h = 1e-300 nm"),
                     ("init B.x = 1 m", "init B.x = 1e-150 m * 1e-150")):
        rc, err, made = nsmc_on(tmp, UNDER.replace(old, new))
        print("  %s -> exit %d, output %s" % (new, rc, "made" if made else "none"))
        check(rc == 0 and made, "'%s' compiles" % new)


PZ = '''model pz "a pendulum against a wall"
param m = 1 kg
param l = 1 m
param g = 9.81 m/s^2
param e = 0.8
param nn = 3
body P: mass = m, inertia = m*l^2
force gt: on P.phi = -m*g*l*sin(P.phi)
gap wall: GAP, impact(e = e)
init P.phi = 1, P.omega = 0 rad/s
simulate t_end = 3 s
output every 10 ms: P.phi, P.omega
'''


def ell_f(psi, k):
    """The incomplete elliptic integral F(psi, k) by Simpson's rule (2000
    intervals: the integrand is smooth for k < 1)."""
    n, h = 2000, psi / 2000
    f = [1 / math.sqrt(1 - (k * math.sin(i * h)) ** 2) for i in range(n + 1)]
    return h / 3 * (f[0] + f[-1] + 4 * sum(f[1:-1:2]) + 2 * sum(f[2:-1:2]))


def case_findings_flatgap(tmp):
    """Gaps that are odd powers of a state's expression: refused by nsmc;
    their first powers and even powers run to the closed form."""
    for gap in ("l*P.phi^3 >= 0 m", "l*P.phi*P.phi*P.phi >= 0 m", "l*sin(P.phi)^3 >= 0 m",
                "l*(P.phi - 0.5)^3 >= 0 m", "l*(P.phi - 0.5)^5 >= 0 m", "0 m <= -l*(0.5 - P.phi)^3",
                "l*(P.phi - 0.5)^nn >= 0 m", "l*(P.phi - 0.5)^(nn + 2) >= 0 m"):
        rc, err, made = nsmc_on(tmp, PZ.replace("GAP", gap))
        first = err.splitlines()[0] if err else ""
        print("  gap %s -> exit %d, %s, output %s" % (gap, rc, first, "made" if made else "none"))
        check(rc == 1 and not made and "u.nsm:9:11: error: gap 'wall' is an odd power" in first
              and "^~~" in err, "gap '%s': refused as changing sign with zero slope" % gap)
    w = math.sqrt(9.81)
    k = math.sin(0.5)
    for gap, phw in (("l*P.phi >= 0 m", 0.0), ("l*(P.phi - 0.5) >= 0 m", 0.5),
                     ("l*exp(P.phi)*(P.phi - 0.5) >= 0 m", 0.5), ("l*sin(P.phi - 0.5) >= 0 m", 0.5)):
        m = compiled(tmp, "pz%d" % int(phw * 10) + ("e" if "exp" in gap else "s" if "sin" in gap else ""),
                     PZ.replace("GAP", gap))
        t1 = (ellk(math.cos(0.5)) - ell_f(math.asin(math.sin(phw / 2) / k), k)) / w
        v1 = math.sqrt(2 * 9.81 * (math.cos(phw) - math.cos(1.0)))
        for meth in ("taylor", "rk4", "adaptive"):
            r = m.run(method=meth, t_end=t1 * 1.5, every=0, **({"dt": 1e-4} if meth == "rk4" else {}))
            imp = [e for e in r.events if e["kind"] == "impact"]
            check(len(imp) == 1, "gap '%s' (%s): one impact" % (gap, meth))
            ta = float(imp[0]["t"])
            wl = r["P.omega"][-1]
            # after the impact the pendulum leaves at e v1 and its speed at
            # phi is sqrt((e v1)^2 - 2 g/l (cos phw - cos phi)) by energy
            ph = r["P.phi"][-1]
            vend = math.sqrt((0.8 * v1) ** 2 - 2 * 9.81 * (math.cos(phw) - math.cos(ph)))
            print("  gap %s, %s -> impact at %.12g s (closed form %.12g), leaving: omega %.12g at phi "
                  "%.6g (by energy %.12g)" % (gap, meth, ta, t1, wl, ph, vend))
            check(abs(ta - t1) <= 1e-7 and abs(wl - vend) <= 1e-6,
                  "gap '%s' (%s): impact time and rebound" % (gap, meth))
    for gap in ("l*(P.phi - 0.5)^2 >= 0 m", "l*(1 - cos(P.phi)) >= 0 m"):
        m = compiled(tmp, "pze%d" % len(gap), PZ.replace("GAP", gap))
        T = 4 * ellk(math.cos(0.5)) / w
        for meth in ("taylor", "rk4", "adaptive"):
            r = m.run(method=meth, t_end=T, every=T / 2, **({"dt": 1e-4} if meth == "rk4" else {}))
            err = abs(r["P.phi"][-1] - 1) + abs(r["P.phi"][1] + 1)
            print("  gap %s (touches 0 only), %s -> %d events, back at 1 rad after 4 K/w: off by %.2g"
                  % (gap, meth, len(r.events), err))
            check(len(r.events) == 0 and err <= 1e-6, "gap '%s' (%s): free swing" % (gap, meth))


def agm(a, b):
    """The arithmetic-geometric mean of a and b (40 rounds: converged)."""
    for _ in range(40):
        a, b = (a + b) / 2, math.sqrt(a * b)
    return a


def ellk(kp):
    """The complete elliptic integral K of the complementary modulus kp."""
    return math.pi / (2 * agm(1.0, kp))


DUFF = '''model duff "an undamped Duffing oscillator"
param m = 1 kg
param k = 1 N/m
param alpha = 1 N/m^3
param A = 1 m
mass M = m
spring S: ground -- M, k = k
force cubic: on M = -alpha*M.x^3
init M.x = A, M.v = 0 m/s
simulate t_end = 40 s
output every 20 ms: M.x, M.v
'''


def ellk_m(mm):
    """K of the parameter mm = k^2 (mm < 1, negative too), by the AGM."""
    return math.pi / (2 * agm(1.0, math.sqrt(1 - mm)))


def case_kept_duffing(tmp):
    """Duffing oscillators: back at A after two periods 4 K(m)/sqrt(k + a A^2)."""
    model = compiled(tmp, "duff", DUFF)
    for k, al, A in ((1, 1, 1), (1, 1e6, 1), (1, 1e-6, 1), (1, 1, 100), (1, 1, 1e-3), (1e4, 1, 10),
                     (1, -0.5, 1), (1, -0.99, 1), (1, -1, 0.999), (0, 1, 1), (0, 1e3, 1e-2),
                     (1e-6, 1, 1e-3), (1, 1e12, 1e-3)):
        w2 = k + al * A * A
        T = 4 * ellk_m(al * A * A / (2 * w2)) / math.sqrt(w2)
        for meth in ("taylor", "rk4", "adaptive"):
            kw = dict(method=meth, t_end=2 * T, every=T / 2, params={"k": k, "alpha": al, "A": A})
            if meth == "rk4":
                kw["dt"] = T / 20000
            if meth == "adaptive":
                kw.update(rtol=1e-11, atol=1e-13 * A)
            r = model.run(**kw)
            err = max(abs(r["M.x"][-1] - A), abs(r["M.x"][1] + A),
                      abs(r["M.v"][-1]) * T / (2 * math.pi)) / A
            print("  k = %g, alpha = %g, A = %g, %s -> period %.12g s: off by %.2g of A"
                  % (k, al, A, meth, T, err))
            check(err <= 1e-6, "Duffing k = %g, alpha = %g, A = %g (%s): back after two periods"
                  % (k, al, A, meth))


def case_kept_impactsum(tmp):
    """The impact oscillator's periodic orbits: the multipliers' product
    e^(2N) exp(-2 zeta T), the exponents' sum -2 zeta + 2 ln(e) N / T."""
    model = compiled(tmp, "fio", path=os.path.join(sys.argv[1], "models", "forced_impact_oscillator.nsm"))
    for w, e, z in ((1.5, 0.8, 0.05), (2.0, 0.8, 0.0), (2.5, 0.3, 0.05), (2.5, 1.0, 0.3),
                    (2.0, 0.05, 0.05), (4.0, 0.8, 0.05)):
        T = 2 * math.pi / w
        p = {"omega": w, "e": e, "zeta": z}
        for meth in ("exact", "rk4", "adaptive"):
            tr, du = 50 * T, 200 * T
            lam = model.lyapunov(du, T, transient=tr, params=p, method=meth)
            rec = model.section("impact:stop", t_end=tr + du, params=p, method=meth)
            n = sum(1 for row in rec if row[0] > tr)
            ex = -2 * z + 2 * math.log(e) * n / du
            print("  omega = %g, e = %g, zeta = %g, %s -> exponents %r, sum %.15g (by the %d impacts "
                  "%.15g)" % (w, e, z, meth, list(lam), sum(lam), n, ex))
            check(abs(sum(lam) - ex) <= 1e-12, "impact oscillator omega = %g, e = %g (%s): exponents' sum"
                  % (w, e, meth))
            if w == 4.0 or w == 2.8:
                continue    # period 2 and beyond: no orbit of one period
            y, mu = model.floquet("2*pi/omega", transient=200 * T, params=p, method=meth)
            rec = model.section("impact:stop", t_end=T, params=p, init={"M.x": y[0], "M.v": y[1]},
                                method=meth)
            det = abs(mu[0] * mu[1])
            ex = e ** (2 * len(rec)) * math.exp(-2 * z * T)
            print("    its orbit (%.12g, %.12g), %d impacts a period: multipliers %r, product %.15g "
                  "(by hand %.15g)" % (y[0], y[1], len(rec), list(mu), det, ex))
            check(abs(det - ex) <= 1e-12 * ex, "impact oscillator omega = %g, e = %g (%s): multipliers' "
                  "product" % (w, e, meth))


def case_kept_continuation(tmp):
    """The impact oscillator's period-1 branch continued in omega: at every
    point the multipliers multiply to e^(2N) exp(-2 zeta T), and at a flip
    one is -1."""
    import warnings
    model = compiled(tmp, "fio", path=os.path.join(sys.argv[1], "models", "forced_impact_oscillator.nsm"))
    for e, z, a, b in ((0.8, 0.05, 1.5, 3.5), (0.3, 0.0, 1.2, 3.0), (1.0, 0.1, 1.5, 2.5)):
        for meth in ("exact", "rk4"):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                br = model.continuation("omega", a, b, params={"e": e, "zeta": z}, method=meth,
                                        max_points=400)
            worst = 0
            for i in range(len(br)):
                ex = e ** (2 * br.impacts[i]) * math.exp(-2 * z * br.period[i])
                worst = max(worst, abs(abs(np_prod(br.multipliers[i])) - ex) / ex)
            flips = [min(abs(mu + 1) for mu in br.multipliers[i]) for i in br.special("flip")]
            print("  e = %g, zeta = %g, omega %g to %g, %s -> %d points, product off by %.2g at worst; "
                  "flips at %r, a multiplier within %r of -1" % (e, z, a, b, meth, len(br), worst,
                                                                list(br.param[br.special("flip")]), flips))
            check(len(br) > 20 and worst <= 1e-12 and all(f <= 1e-6 for f in flips),
                  "continuation e = %g, zeta = %g (%s): multipliers" % (e, z, meth))


def np_prod(values):
    """The product of a sequence of complex numbers."""
    p = 1
    for v in values:
        p *= v
    return p


if __name__ == "__main__":
    sys.exit(main({"findings_spread": case_findings_spread, "kept_lyap": case_kept_lyap,
                   "kept_floquet": case_kept_floquet,
                   "findings_underflow": case_findings_underflow,
                   "findings_flatgap": case_findings_flatgap,
                   "kept_duffing": case_kept_duffing, "kept_impactsum": case_kept_impactsum,
                   "kept_continuation": case_kept_continuation}, "nsm-twentyfifth-dyn-", case_arg=2))
