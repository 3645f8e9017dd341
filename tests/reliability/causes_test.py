#!/usr/bin/env python3
"""Failures that name their real cause: what the ninth hostile pass on the
core left as found, each case failing before its fix.

    tests/reliability/causes_test.py NSMC SIM_IMPACTING_OSCILLATOR SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  subnormal  impacting_oscillator --set k=1e-320 --method exact failed at
             t = 0 with "integration step failed" (the matrix balancing's
             factor overflowed to inf): it now runs, and the mass, on a
             spring that is no spring, falls freely: first impact at
             sqrt(2 h / g) with the speed sqrt(2 g h), x(t) = h - g t^2 / 2
             before it, against those closed forms.
  masszero   kinetic T = 0.5 kg/m^2*q.x^2*q.v^2 reaches q = 0, where M(q)
             vanishes, at t = sqrt(2) - 1 s (the energy integral, by hand):
             the failure blamed the end time; it now names the singular
             mass matrix and its time.
  pole       a force 1 N*log(M.x/1 m) toward a floor at 0 reaches its pole
             at t* = int_0^1 dx / sqrt(2 (51 + x ln x - x)) (energy, by
             mpmath quadrature): the failure blamed the stiffnesses and
             masses; it now names the force and t*.
  tolerances --rtol and --atol, read only by adaptive, were taken without a
             word by rk4, exact and taylor: refused, naming the method.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import check, main, run  # noqa: E402

NSMC = os.path.abspath(sys.argv[1])
SIM = os.path.abspath(sys.argv[2])

MASS_ZERO = ("coordinate q: length\nkinetic T = 0.5 kg/m^2*q.x^2*q.v^2\n"
             "potential V = 0.5 N/m*q.x^2\ninit q.x = 1 m, q.v = -1 m/s\n"
             "simulate t_end = 2 s\n")
LOG_POLE = ("mass M = 1 kg\nforce f: on M = 1 N*log(M.x/1 m)\n"
            "gap stop: M.x >= 0, impact(e = 0.5)\ninit M.x = 1 m, M.v = -10 m/s\n"
            "simulate t_end = 1 s\n")


def nsmc_run(tmp, name, text, extra=()):
    """Writes the model text as tmp/name.nsm and runs it with nsmc run; the
    process, its stderr's error line printed."""
    path = os.path.join(tmp, name + ".nsm")
    with open(path, "w") as f:
        f.write(text)
    p = run(tmp, [NSMC, "run", path, "--no-plot", "-q", "--out-dir",
                  os.path.join(tmp, "o_" + name), "--"] + list(extra), timeout=120)
    err = [ln for ln in p.stderr.splitlines() if "error:" in ln]
    print("  %s %s -> %d  %s" % (name, " ".join(extra), p.returncode, err[0] if err else ""))
    return p


def failure_time(p, pattern):
    """The time in the failure message after pattern ('... at about t = T s')."""
    m = re.search(pattern + r" at about t = ([0-9.eE+-]+) s", p.stderr)
    check(m is not None, "the message says '%s at about t = ...'" % pattern, p)
    return float(m.group(1))


def case_subnormal(tmp):
    """exact with a subnormal stiffness runs as free fall onto the floor."""
    g, h = 9.81, 1.0
    out = os.path.join(tmp, "x.csv")
    p = run(tmp, [SIM, "--set", "k=1e-320", "--method", "exact", "--out", out])
    print("  --set k=1e-320 --method exact -> %d  %s" % (p.returncode,
                                                       p.stderr.strip().splitlines()[-1:]))
    check(p.returncode == 0 and "integration step failed" not in p.stderr,
          "--set k=1e-320 --method exact runs", p)
    rows = [ln.split() for ln in p.stdout.splitlines() if " impact " in ln]
    check(len(rows) > 0, "an impact on the floor", p)
    t1, v1 = float(rows[0][0]), float(rows[0][3])
    t1_ref, v1_ref = math.sqrt(2 * h / g), -math.sqrt(2 * g * h)
    print("  first impact t = %.15g s (closed form %.15g), vrel- = %.6g m/s (%.6g)"
          % (t1, t1_ref, v1, v1_ref))
    check(abs(t1 - t1_ref) < 1e-12 * t1_ref, "first impact at sqrt(2h/g) within 1e-12 of it")
    check(abs(v1 - v1_ref) < 1e-5 * abs(v1_ref), "impact speed sqrt(2gh) to the table's digits")
    worst = 0.0
    with open(out) as f:
        next(f)
        for ln in f:
            t, x = (float(c) for c in ln.split(",")[:2])
            if t < t1_ref * 0.999:
                worst = max(worst, abs(x - (h - 0.5 * g * t * t)))
    print("  largest |x - (h - g t^2/2)| before the impact: %.3g m" % worst)
    check(worst < 1e-12, "the flight is h - g t^2/2 within 1e-12 m")


def case_masszero(tmp):
    """A mass matrix vanishing at t = sqrt(2) - 1 s is named, with its time."""
    for meth in ("adaptive", "taylor"):
        p = nsmc_run(tmp, "lag_mass_zero", MASS_ZERO, ["--method", meth])
        check(p.returncode == 3, "%s: the run fails (exit 3)" % meth, p)
        check("beyond the time resolution" not in p.stderr,
              "%s: the end time is not blamed" % meth, p)
        t = failure_time(p, "the mass matrix M\\(q\\) becomes singular")
        ref = math.sqrt(2) - 1
        print("  %s: singular at t = %.12g s, closed form %.12g s" % (meth, t, ref))
        check(abs(t - ref) < 1e-10, "%s: the time of the singular M(q) within 1e-10 s" % meth)


def pole_time():
    """t* = int_0^1 dx / sqrt(2 (E + x ln x - x)), E = 0.5*10^2 + 1 = 51:
    m x'' = ln x has the potential x - x ln x."""
    import mpmath
    mpmath.mp.dps = 30
    return float(mpmath.quad(lambda x: 1 / mpmath.sqrt(2 * (51 + x * mpmath.log(x) - x)),
                             [0, 1]))


def case_pole(tmp):
    """A force's pole on the path is named, with the time it is reached."""
    ref = pole_time()
    for meth in ("taylor", "adaptive"):
        p = nsmc_run(tmp, "log_pole", LOG_POLE, ["--method", meth])
        check(p.returncode == 3, "%s: the run fails (exit 3)" % meth, p)
        check("stiffnesses and masses" not in p.stderr, "%s: the stiffnesses are not blamed"
              % meth, p)
        t = failure_time(p, "the force 'f' on M is not finite")
        print("  %s: pole at t = %.12g s, quadrature %.12g s" % (meth, t, ref))
        check(abs(t - ref) < 1e-10, "%s: the time of the pole within 1e-10 s" % meth)


def case_tolerances(tmp):
    """--rtol and --atol with a method other than adaptive are refused."""
    for meth in (None, "rk4", "exact"):
        for opt, val in (("--rtol", "1e-6"), ("--atol", "1e-9")):
            args = [SIM, opt, val, "--out", "/dev/null"] + (["--method", meth] if meth else [])
            p = run(tmp, args)
            line = p.stderr.strip().splitlines()[0] if p.stderr.strip() else ""
            print("  %s -> %d  %s" % (" ".join(args[1:]), p.returncode, line))
            named = meth or "rk4"          # the model's own method
            check(p.returncode == 1 and opt in line and "adaptive" in line and
                  named + " does not use it" in line,
                  "%s with %s: refused, naming the method" % (opt, named), p)
    p = run(tmp, [SIM, "--rtol", "1e-6", "--atol", "1e-9", "--method", "adaptive", "--out",
                  "/dev/null"])
    check(p.returncode == 0, "--rtol and --atol with adaptive: taken", p)
    path = os.path.join(tmp, "cubic.nsm")
    with open(path, "w") as f:
        f.write("mass M = 1 kg\nforce f: on M = -1 N/m^3*M.x^3\ninit M.x = 1 m\n"
                "simulate t_end = 1 s\n")
    p = run(tmp, [NSMC, "run", path, "--no-plot", "-q", "--out-dir", os.path.join(tmp, "oc"),
                  "--", "--method", "taylor", "--rtol", "1e-6"], timeout=120)
    line = [ln for ln in p.stderr.splitlines() if "error:" in ln][:1]
    print("  cubic --method taylor --rtol 1e-6 -> %d  %s" % (p.returncode, line))
    check(p.returncode == 1 and "taylor does not use it" in p.stderr,
          "--rtol with taylor: refused, naming the method", p)


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-causes-", case_arg=4))
