#!/usr/bin/env python3
"""A sixth hostile pass over the surfaces of issue #29 and the newest ones:
bodies in space against planes (`plane`, `B.sphere(...) above P`, spatial
friction, models/tippe_top, tests/rigid's sphere drop, models/ball_in_space,
super_ball), the energetic and simultaneous impact laws on hostile trains,
and the fifth pass's leftovers, by inputs the first five passes did not try.

    tests/reliability/sixth_pass_test.py NSMC SIM FIO_SIM SOURCE_DIR CASE SIMS_DIR

Cases (each under 20 s in the normal build):
  findings   what the pass found, each failing before its fix: `nsmc sweep
             --section-period 1e-300` and `--t-max 1e300` ran the grid and
             failed every point (exit 3); a model without a dt took
             `--t-end 1e300` to its first step (exit 3, not 1); cart_friction
             at M = 0 blamed "redundant" friction for its singular mass
             matrix; a tilt of 1e300 rad was taken as written, in the source
             and by --set; plane normals and gravity whose sum of squares
             under- or overflows were said to have "no direction" or ran
             with a NaN potential; an energetic impact's stiffness of 0 or
             below, or an exponent above 10, was taken and failed at the
             first impact; a restitution
             below 2^-52 under the energetic law failed ("no solution"); a
             run whose energies overflow was told "--summary keeps it" and
             wrote "-nan" into events.csv; --lyapunov on a model with
             friction elements truncated the outputs and failed, exit 3.
  space      hostile --set values, options and model texts of the bodies in
             space against planes (ball_in_space, super_ball, sphere_drop,
             the tippe top): each ends by itself with 0, 1 or 3 and a message.
  laws       the energetic and simultaneous impact laws on hostile trains:
             stiffnesses, exponents, restitutions, speeds, masses, gaps.
  studies    nsmc sweep, continue and run on the newest models with hostile
             options.
  signals    stop signals at seeded moments of ball_in_space and super_ball
             writing CSV and HDF5 (whole lines, HDF5 marked stopped with as
             many rows).
  python     the Python API on the bodies in space against planes and the
             energetic law: a result or an nsm.Error with a message.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import os
import random
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import (PY_EXPECT, SANITIZED, Failure, check, label_of, main,  # noqa: E402
                     model, pass_paths, python_script, run, sim, stopped_run, tried)

NSMC, SIM, FIO_SIM, SRC, SIMS, MODELS = pass_paths()
RIGID = os.path.join(SRC, "tests", "rigid")


def variant(tmp, path, old, new, tag):
    """The model at path with old replaced by new, written into tmp; its path."""
    text = open(path).read()
    if old not in text:
        raise Failure("%s has no %r" % (path, old))
    out = os.path.join(tmp, "%s_%s.nsm" % (os.path.basename(path)[:-4], tag))
    open(out, "w").write(text.replace(old, new))
    return out


def cradle(tmp, law, opts, tag, extra=""):
    """models/cradle5.nsm under impact_law = law with the impact options
    opts (and extra parameter lines); its path."""
    text = open(model("cradle5")).read()
    text = text.replace("method = rk4", "method = rk4, impact_law = " + law)
    text = text.replace("impact(e = e)", "impact(e = e%s)" % opts)
    text = text.replace("param d = 0.1 m", "param d = 0.1 m\n" + extra)
    path = os.path.join(tmp, "cradle_%s.nsm" % tag)
    open(path, "w").write(text)
    return path


def rows(path):
    """A CSV file's rows after its header, as lists of strings."""
    return [ln.split(",") for ln in open(path).read().splitlines()[1:]]


FIO_SWEEP = ["--param", "omega=1:2:3", "--section", "impact:stop", "--transient", "2",
             "--record", "2"]


# ---- findings ---------------------------------------------------------------

def case_findings(tmp):
    """Each finding of the pass, a check that failed before its fix."""
    fio = model("forced_impact_oscillator")
    # a phase period or a horizon the time axis cannot carry: refused before
    # the grid (exit 1, no out-dir), not a failure at every point (exit 3)
    for opt, said in ((["--section-period", "1e-300"], "is too short for the time resolution"),
                      (["--t-max", "1e300"], "t_end = 1e+300 s is beyond the time resolution")):
        p = run(tmp, [NSMC, "sweep", fio] + FIO_SWEEP + opt + ["--out-dir", "sw"], timeout=300)
        check(p.returncode == 1 and said in p.stderr and "some points failed" not in p.stderr and
              not os.path.exists(os.path.join(tmp, "sw")),
              "nsmc sweep %s: exit 1 before the grid, no out-dir (it failed every point, exit 3)"
              % " ".join(opt), p)
    p = run(tmp, [NSMC, "sweep", fio] + FIO_SWEEP + ["--section-period", "2*pi/omega",
                                                    "--out-dir", "ok"], timeout=300)
    check(p.returncode == 0, "nsmc sweep with a sound --section-period still runs", p)
    # a model without a dt: a t_end its initial mode's own steps cannot reach
    # is an option error before any output, as with a model's dt
    for meth in ("exact", "rk4", "adaptive"):
        p = run(tmp, [FIO_SIM, "--method", meth, "--t-end", "1e300", "--every", "1e299",
                      "--out", "x.csv"])
        check(p.returncode == 1 and "t_end = 1e+300 s is beyond the time resolution" in p.stderr
              and not os.path.exists(os.path.join(tmp, "x.csv")),
              "forced_impact_oscillator --method %s --t-end 1e300: exit 1, nothing written (it "
              "failed at its first step, exit 3)" % meth, p)
    # cart_friction's mass matrix singular at M = 0: named, not "redundant"
    for meth in ("rk4", "adaptive"):
        for m in ("0", "1e-300"):
            p = run(tmp, [sim("cart_friction"), "--method", meth, "--set", "M=" + m, "--out",
                          "cf.csv"])
            check(p.returncode == 1 and "the mass matrix M(q) is not positive definite" in
                  p.stderr and "redundant" not in p.stderr and
                  not os.path.exists(os.path.join(tmp, "cf.csv")),
                  "cart_friction --method %s --set M=%s: exit 1 naming the singular mass matrix "
                  "(it said 'the stuck friction elements are redundant')" % (meth, m), p)
    p = run(tmp, [sim("cart_friction"), "--out", "/dev/null"])
    check(p.returncode == 0, "cart_friction as written still runs", p)
    # a tilt whose rounding exceeds a turn: refused in the source and by --set
    tip = os.path.join(MODELS, "tippe_top.nsm")
    huge = variant(tmp, tip, "param theta0 = 0.1 rad", "param theta0 = 1e300 rad", "tilt")
    p = run(tmp, [NSMC, huge, "-o", "tilt.c"])
    check(p.returncode == 1 and "the tilt's angle 1e+300 rad gives no orientation" in p.stderr,
          "a tilt of 1e300 rad in the source: a compile error (it was taken as written)", p)
    for th in ("1e300", "-4e16"):
        p = run(tmp, [NSMC, "run", tip, "--set", "theta0=" + th, "--no-plot", "-q",
                      "--out-dir", "tt", "--", "--t-end", "0.01"], timeout=300)
        check(p.returncode == 1 and "of the tilt angle of T, abs(theta0)" in p.stderr and
              "tilt angles below 2^55 rad" in p.stderr and
              not os.path.exists(os.path.join(tmp, "tt", "trajectory.csv")),
              "tippe_top --set theta0=%s: exit 1 naming the tilt angle, nothing written" % th, p)
    p = run(tmp, [NSMC, "run", tip, "--set", "theta0=3e16", "--no-plot", "-q", "--out-dir",
                  "tt", "--", "--t-end", "0.01"], timeout=300)
    check("tilt angle" not in p.stderr, "a tilt of 3e16 rad (below 2^55) is not refused as a "
          "tilt", p)
    # vectors whose sum of squares under- or overflows: said so, never "no
    # direction", never run with a NaN potential
    bis = model("ball_in_space")
    tb = model("thrown_body")
    for path, old, new, said in (
            (bis, "normal = (-sin(alpha), 0, cos(alpha))", "normal = (1e-300, 0, 0)",
             "the normal of 'floor' cannot be scaled to unit length: the sum of its squares "
             "underflows to 0"),
            (bis, "normal = (-sin(alpha), 0, cos(alpha))", "normal = (0, 0, 1e300)",
             "the normal of 'floor' cannot be scaled to unit length: the sum of its squares "
             "overflows"),
            (tb, "gravity g = (1.2 m/s^2, 0, -9.7 m/s^2)",
             "gravity g = (1e200 m/s^2, 1e200 m/s^2, 0)",
             "gravity cannot be scaled to unit length: the sum of its squares overflows"),
            (tb, "gravity g = (1.2 m/s^2, 0, -9.7 m/s^2)", "gravity g = (0, 0, -1e-170 m/s^2)",
             "gravity cannot be scaled to unit length: the sum of its squares underflows")):
        path = variant(tmp, path, old, new, "vec")
        p = run(tmp, [NSMC, path, "-o", "vec.c"])
        check(p.returncode == 1 and said in p.stderr and "no direction" not in p.stderr,
              "%s: a compile error saying the sum of squares %s (it said 'no direction' or ran)"
              % (new, "overflows" if "overflows" in said else "underflows"), p)
    # the energetic law's stiffness: refused in the source at 0 and by --set
    # at 0 or below, before any output (it failed at the first impact)
    zero = cradle(tmp, "energetic", ", stiffness = 0", "k0")
    p = run(tmp, [NSMC, zero, "-o", "k0.c"])
    check(p.returncode == 1 and "the contact stiffness" in p.stderr,
          "an energetic impact's stiffness = 0: a compile error (it ran to 'no solution')", p)
    eleven = cradle(tmp, "energetic", ", stiffness = 1e6, exponent = 11", "x11")
    p = run(tmp, [NSMC, eleven, "-o", "x11.c"])
    check(p.returncode == 1 and "the impact's exponent must lie in [1, 10]" in p.stderr,
          "an energetic impact's exponent = 11: a compile error (it was taken, as a penalty's "
          "up to 16, and failed at the first impact)", p)
    byx = cradle(tmp, "energetic", ", stiffness = 1e6, exponent = X", "xp", "param X = 1.5")
    p = run(tmp, [NSMC, "run", byx, "--set", "X=11", "--no-plot", "-q", "--out-dir", "xp"],
            timeout=300)
    check(p.returncode == 1 and "invalid value 11 of parameter 'X'" in p.stderr and
          "exponents in [1, 10]" in p.stderr,
          "an energetic exponent --set X=11: exit 1 before any output", p)
    byk = cradle(tmp, "energetic", ", stiffness = K", "kp", "param K = 1e6")
    for k in ("0", "-1"):
        p = run(tmp, [NSMC, "run", byk, "--set", "K=" + k, "--no-plot", "-q", "--out-dir",
                      "kp"], timeout=300)
        check(p.returncode == 1 and "invalid value %s of parameter 'K'" % k in p.stderr and
              "energetic impacts' stiffnesses > 0" in p.stderr and
              not os.path.exists(os.path.join(tmp, "kp", "trajectory.csv")),
              "an energetic stiffness --set K=%s: exit 1 before any output (it failed at the "
              "first impact, exit 3)" % k, p)
    # a restitution below the rounding of 1 under the energetic law: the
    # impact is the plastic one, whose closed form for five equal beads is
    # the common velocity v0/5 (no contact expands), within the kernel's
    # 1e-10 of the approach speed; it failed ("no solution").  e = 1e-15,
    # above 2^-52, goes through the kernel's expansion and lands there too.
    for e in ("1e-20", "1e-300", "1e-15"):
        p = run(tmp, [NSMC, "run", byk, "--set", "e=" + e, "--no-plot", "-q", "--out-dir",
                      "e" + e], timeout=300)
        check(p.returncode == 0, "the energetic law with e = %s runs (it failed: 'no solution "
              "of the energetic impact problem')" % e, p)
        end = [float(x) for x in rows(os.path.join(tmp, "e" + e, "trajectory.csv"))[-1]]
        v = end[2::2]
        dev = max(abs(x - 0.2) for x in v)
        print("  e = %s: velocities %s, off v0/5 by %.2g m/s, momentum off by %.2g"
              % (e, " ".join("%.12g" % x for x in v), dev, abs(sum(v) - 1.0)))
        check(dev < 1e-10 and abs(sum(v) - 1.0) < 1e-11, "e = %s under the energetic law: "
              "every bead at v0/5 within 1e-10 m/s, momentum m v0 within 1e-11" % e)
    # --lyapunov on a model with friction elements: refused from the model
    # before any output (it truncated the outputs, then failed with exit 3,
    # "the motion does not start in free flight")
    for name in ("super_ball", "friction_two_mass", "coulomb_oscillator"):
        keep = os.path.join(tmp, "keep.csv")
        open(keep, "w").write("earlier\n")
        p = run(tmp, [sim(name), "--lyapunov", "--t-end", "1", "--out", "keep.csv"])
        check(p.returncode == 1 and "models with friction elements are not handled" in p.stderr
              and open(keep).read() == "earlier\n",
              "%s --lyapunov: exit 1 before any output, the earlier file untouched (exit 3 "
              "after truncating it)" % name, p)
    # energies beyond a double's range: said so, never "--summary keeps it",
    # never "-nan" in events.csv
    p = run(tmp, [NSMC, "run", model("cradle5"), "--set", "v0=1e300", "--no-plot", "-q",
                  "--out-dir", "big"], timeout=300)
    check(p.returncode == 0 and "energy balance not computable: the energies are beyond a "
          "double's range" in p.stderr and "--summary keeps it" not in p.stderr,
          "cradle5 at v0 = 1e300 m/s under rk4: 'energy balance not computable' (it said "
          "'--summary keeps it')", p)
    p = run(tmp, [sim("super_ball"), "--set", "w0=1e300", "--events", "ev.csv", "--out",
                  "sb.csv"])
    ev = open(os.path.join(tmp, "ev.csv")).read()
    check(p.returncode == 0 and "-nan" not in ev and ",nan," in ev and
          "--summary keeps it" not in p.stderr,
          "super_ball at w0 = 1e300 rad/s: events.csv says nan, never -nan, and the summary "
          "line names the overflow", p)


# ---- space ------------------------------------------------------------------

BALL_SETS = ["e=2", "e=-0.1", "e=1e-300", "rho=0", "rho=-1", "rho=1e-300", "rho=1e300",
             "m=0", "m=1e-300", "m=1e300", "h=-0.5", "h=0", "h=1e300", "alpha=1e300",
             "alpha=1.5707963267948966", "alpha=-3", "alpha=nan", "alpha=1e-300", "e=nan",
             "m=inf", "rho=0x1p-3", "e=1 kg", "h=0.25 kg", "alpha=0.3 rad", "alpha=30 deg"]
SUPER_SETS = ["mu=1e300", "mu=-1", "mu=0", "eT=2", "eT=-1", "eT=1e-300", "eN=1.5", "r=0",
              "r=1e-300", "r=1e300", "m=1e-300", "m=1e300", "w0=1e300", "w0=-1e300",
              "vx0=1e300", "vy0=1e300", "H=0", "H=1e-300", "H=1e300", "g=1e300", "g=-9.81",
              "y0=0.025", "y0=0.475", "x0=-1e300", "mu=nan"]
SPACE_OPTIONS = [["--method", "taylor"], ["--method", "exact"], ["--method", "adaptive",
                                                               "--rtol", "1e-300"],
                 ["--dt", "1e-300"], ["--dt", "1e300"], ["--every", "1e-300"],
                 ["--t-end", "1e300"], ["--t-end", "5e-324"], ["--max-steps", "1"],
                 ["--section", "impact:contact", "--t-end", "1"],
                 ["--section", "period:0.1", "--t-end", "1"], ["--lyapunov", "--t-end", "1"],
                 ["--out", "x.h5"], ["--out", "/dev/full"], ["--events", "/dev/full"],
                 ["--summary", "--method", "taylor"], ["--energy-tol", "0"]]
SPACE_TEXTS = [
    ("ball_in_space", "radius = rho", "radius = 1e-300 m", "rtiny"),
    ("ball_in_space", "radius = rho", "radius = 1e300 m", "rhuge"),
    ("ball_in_space", "offset = 0 m", "offset = 1e300 m", "off300"),
    ("ball_in_space", "offset = 0 m", "through = (0 m, 0 m, 0 m)", "through"),
    ("ball_in_space", "offset = 0 m", "offset = 0 m, through = (0 m, 0 m, 0 m)", "both"),
    ("ball_in_space", "B.sphere(radius = rho)", "B.sphere(centre = (1e300 m, 0 m, 0 m), "
     "radius = rho)", "c300"),
    ("ball_in_space", "B.sphere(radius = rho)", "B.sphere(centre = (0 m, 0 m), radius = rho)",
     "c2"),
    ("ball_in_space", "B.sphere(radius = rho)", "B.sphere(radius = rho, radius = rho)", "r2"),
    ("ball_in_space", "B.sphere(radius = rho)", "B.sphere(radius = 1 kg)", "rkg"),
    ("ball_in_space", "above floor", "above nofloor", "nofloor"),
    ("ball_in_space", "above floor", "above B", "aboveb"),
    ("ball_in_space", "impact(e = e)", "penalty(k = 1e6 N/m)", "penalty"),
    ("ball_in_space", "impact(e = e)", "impact(e = e, stiffness = 1e6)", "stiff"),
    ("ball_in_space", "inertia = (0.008, 0.008, 0.008)", "inertia = (0.008, 0.008, 0.016)",
     "iedge"),
    ("ball_in_space", "method = rk4", "method = exact", "exact"),
    ("ball_in_space", "plane floor:", "plane B:", "planeb"),
    ("ball_in_space", "B.omega = (3 rad/s, -2 rad/s, 7 rad/s)",
     "B.omega = (3 rad/s, -2 rad/s, 1e300 rad/s)", "spin300"),
    ("sphere_drop", "B.tilt = (cos(0.7), sin(0.7), 0) * 0.5 rad",
     "B.tilt = (cos(0.7), sin(0.7), 0) * 1e17 rad", "tilt17"),
    ("sphere_drop", "B.tilt = (cos(0.7), sin(0.7), 0) * 0.5 rad",
     "B.tilt = (cos(0.7), sin(0.7), 0) * 3e16 rad", "tilt16"),
    ("sphere_drop", "normal = (0, 0, 1)", "normal = (0, 0, -1)", "down"),
    ("tippe_top", "drill = 3 * pi * R / 16", "drill = -1 m", "drillneg"),
    ("tippe_top", "mu = mu, et = 0", "mu = 1e300, et = 0", "mu300"),
    ("tippe_top", "mu = mu, et = 0", "mu = mu, et = 2", "et2"),
    ("tippe_top", "normal = gap ball, mu", "normal = gap nope, mu", "nogap"),
    ("tippe_top", "normal = gap ball, mu", "normal = gap stem, mu", "twice"),
]


def text_path(tmp, name, old, new, tag):
    base = os.path.join(RIGID if name == "sphere_drop" else MODELS, name + ".nsm")
    return variant(tmp, base, old, new, tag)


def case_space(tmp):
    """Bodies in space against planes: hostile --set values, options and
    model texts; each ends by itself with 0, 1 or 3 and a message, a text
    nsmc accepts is run too."""
    n = 0
    bis, sb = sim("ball_in_space"), sim("super_ball")
    vectors = [[bis, "--set", s] for s in BALL_SETS] + [[sb, "--set", s] for s in SUPER_SETS]
    vectors += [[bis] + o for o in SPACE_OPTIONS] + [[sb] + o for o in SPACE_OPTIONS]
    for v in vectors[::3] if SANITIZED else vectors:
        args = v + ([] if "--out" in v else ["--out", "/dev/null"])
        args += [] if "--t-end" in v else ["--t-end", "0.5"]
        tried(tmp, args, label_of([os.path.basename(v[0])] + v[1:]), timeout=60)
        n += 1
    for name, old, new, tag in SPACE_TEXTS[::3] if SANITIZED else SPACE_TEXTS:
        path = text_path(tmp, name, old, new, tag)
        p = tried(tmp, [NSMC, path, "-o", tag + ".c"], "nsmc %s: %s" % (name, new[:40]))
        n += 1
        if p.returncode == 0 and name != "tippe_top":
            tried(tmp, [NSMC, "run", path, "--no-plot", "-q", "--out-dir", tag, "--",
                        "--t-end", "0.2"], "  run it", timeout=300)
    print("space: %d inputs" % n)


# ---- laws -------------------------------------------------------------------

def case_laws(tmp):
    """The energetic and simultaneous impact laws on hostile trains."""
    n = 0
    texts = [("energetic", ", stiffness = 1e6, exponent = 1.5", "h15"),
             ("energetic", ", stiffness = 1e300", "k300"),
             ("energetic", ", stiffness = 1e-300", "km300"),
             ("energetic", ", stiffness = -1", "kneg"),
             ("energetic", ", stiffness = 1e6, exponent = 0.5", "x05"),
             ("energetic", ", stiffness = 1e6, exponent = 11", "x11"),
             ("energetic", ", stiffness = 1e6, exponent = 10", "x10"),
             ("energetic", ", exponent = 1.5", "xonly"),
             ("energetic", "", "nostiff"),
             ("simultaneous", ", stiffness = 1e6", "simk"),
             ("simultaneous", "", "sim"),
             ("sequential", "", "seq"),
             ("bogus", "", "bogus")]
    paths = {}
    for law, opts, tag in texts:
        path = cradle(tmp, law, opts, tag)
        p = tried(tmp, [NSMC, path, "-o", tag + ".c"], "nsmc cradle5 %s%s" % (law, opts))
        n += 1
        if p.returncode == 0:
            paths[tag] = path
    sets = ["e=1e-300", "e=1e-17", "e=0", "e=1", "v0=1e300", "v0=1e-300", "v0=-1", "m=1e-300",
            "m=1e300", "d=0", "d=-1e-300", "d=1e300", "v0=1e150"]
    for tag in ("h15", "sim", "k300"):
        if tag not in paths:
            raise Failure("cradle5 %s did not compile" % tag)
        chosen = sets[::3] if SANITIZED else sets
        for s in chosen:
            tried(tmp, [NSMC, "run", paths[tag], "--set", s, "--no-plot", "-q", "--out-dir",
                        "o_" + tag], "run %s --set %s" % (tag, s), timeout=300)
            n += 1
        for meth in ("exact", "adaptive"):
            tried(tmp, [NSMC, "run", paths[tag], "--no-plot", "-q", "--out-dir", "o_" + tag,
                        "--", "--method", meth], "run %s --method %s" % (tag, meth), timeout=300)
            n += 1
    print("laws: %d inputs" % n)


# ---- studies ----------------------------------------------------------------

def case_studies(tmp):
    """nsmc sweep, continue and run on the newest models."""
    n = 0
    bis, sb, fio = model("ball_in_space"), model("super_ball"), model("forced_impact_oscillator")
    inputs = [
        ["sweep", bis, "--param", "e=0.2:0.8:3", "--section", "impact:contact"],
        ["continue", bis, "--param", "e=0.2:0.3"],
        ["sweep", sb, "--param", "mu=0.1:1:3", "--section", "impact:floor", "--transient", "1",
         "--record", "1"],
        ["sweep", sb, "--param", "mu=0.1:1:3", "--section", "impact:floor", "--section-period",
         "1e-300"],
        ["sweep", fio, "--param", "omega=1:2:3", "--section", "impact:stop", "--t-max", "1e-300"],
        ["sweep", fio, "--param", "omega=1:2:3", "--section", "impact:stop", "--section-period",
         "1e300"],
        ["sweep", fio, "--param", "omega=1e-300:2:3", "--section", "impact:stop",
         "--section-period", "2*pi/omega"],
        ["sweep", fio, "--param", "omega=1:2:3", "--section", "period:1e-300"],
        ["continue", fio, "--param", "omega=1.3:1.2", "--period", "1e-300"],
        ["run", bis, "--set", "e=2", "--no-plot"],
        ["run", sb, "--set", "w0=1e300", "--no-plot", "-q"],
        ["run", sb, "--out", "sb.h5", "--no-plot", "-q", "--", "--t-end", "0.2"],
    ]
    for i, args in enumerate(inputs[::3] if SANITIZED else inputs):
        if "--out-dir" not in args:
            at = args.index("--") if "--" in args else len(args)
            args = args[:at] + ["--out-dir", "o%d" % i] + args[at:]
        tried(tmp, [NSMC] + args, label_of([args[0], os.path.basename(args[1])] + args[2:]),
              timeout=300)
        n += 1
    print("studies: %d inputs" % n)


# ---- signals ----------------------------------------------------------------

def case_signals(tmp):
    """Stop signals at seeded random moments of the bodies against planes
    writing CSV and HDF5 (passlib.stopped_run's checks)."""
    rng = random.Random(2906)
    runs = [("ball_in_space rk4", [sim("ball_in_space"), "--t-end", "5000", "--every", "1e-3"]),
            ("super_ball exact", [sim("super_ball"), "--t-end", "5000", "--every", "1e-3"]),
            ("super_ball rk4", [sim("super_ball"), "--method", "rk4", "--t-end", "5000",
                                "--every", "1e-3"])]
    for label, cmd in runs:
        sig = rng.choice([signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
        stopped_run(tmp, label, cmd, sig, rng.uniform(0.05, 1.0))


# ---- python -----------------------------------------------------------------

PY = r'''
import math, os, sys
import numpy as np
import nsm
MODELS, RIGID = sys.argv[1], sys.argv[2]
''' + PY_EXPECT + r'''S, P, R, OK = ("SettingError",), ("ParameterError",), ("SimulationError",), ("ok",)
bis = nsm.compile(os.path.join(MODELS, "ball_in_space.nsm"))
sb = nsm.compile(os.path.join(MODELS, "super_ball.nsm"))
cf = nsm.compile(os.path.join(MODELS, "cart_friction.nsm"))
fio = nsm.compile(os.path.join(MODELS, "forced_impact_oscillator.nsm"))
# the findings as Python sees them: the same refusals as the command line
expect("cf M=0 rk4", lambda: cf.run(method="rk4", params={"M": 0}), P)
try:
    cf.run(method="adaptive", params={"M": 0})
    raise AssertionError("cart_friction at M = 0 ran")
except nsm.ParameterError as e:
    # the finding: it said "the stuck friction elements are redundant"
    assert "mass matrix M(q) is not positive definite" in str(e) and "redundant" not in str(e), e
expect("fio t_end=1e300", lambda: fio.run(t_end=1e300), S)
values = [0, -1, 1e-300, 1e300, float("nan"), float("inf"), 10 ** 400, "1", None, [1], 1j,
          True, np.float32(0.3), np.int64(2)]
for v in values:
    expect("bis e=%r" % (v,), lambda: bis.run(params={"e": v}, t_end=0.2), OK + P + R)
    expect("bis rho=%r" % (v,), lambda: bis.run(params={"rho": v}, t_end=0.2), OK + P + R)
    expect("sb mu=%r" % (v,), lambda: sb.run(params={"mu": v}, t_end=0.2), OK + P + R)
    expect("sb eT=%r" % (v,), lambda: sb.run(params={"eT": v}, t_end=0.2), OK + P + R)
    expect("bis every=%r" % (v,), lambda: bis.run(every=v, t_end=0.2), OK + S)
    expect("sb t_end=%r" % (v,), lambda: sb.run(t_end=v), OK + S + R)
for meth in ("exact", "taylor", "rk4", "adaptive"):
    expect("bis method=%s" % meth, lambda: bis.run(method=meth, t_end=0.2), OK + S)
    expect("sb method=%s" % meth, lambda: sb.run(method=meth, t_end=0.2), OK + S)
expect("bis sweep", lambda: bis.sweep("e", [0.3, 0.5], "impact:contact", transient=1, record=1),
       S)
expect("sb sweep", lambda: sb.sweep("mu", [0.3, 0.5], "impact:floor", transient=1, record=1),
       OK + S + R)
r = bis.run(t_end=0.5)
for col in ("B.x", "B.z", "contact.gap", "energy.kinetic"):
    assert np.all(np.isfinite(r[col])), col
print("ok: %d calls: a result or an nsm.Error with a message, never -nan" % n)
'''


def case_python(tmp):
    """Python on the bodies in space against planes and the findings."""
    python_script(tmp, "sixth_python.py", PY, [MODELS, RIGID],
                "python: the bodies against planes and the findings")


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-sixth-"))
