#!/usr/bin/env python3
"""A fifth hostile pass over the surfaces of issue #29 (sweeps, HDF5,
Python, signals, impossible steps) and the newest ones, the bodies in
space (`rigid`, `B.tilt`, `B.point(...)`, free_top and thrown_body), by
inputs the first four passes did not try.

    tests/reliability/fifth_pass_test.py NSMC SIM FIO_SIM SOURCE_DIR CASE SIMS_DIR

Cases (each under 20 s in the normal build):
  findings  what the pass found, each failing before its fix: principal
            inertias no body has, given at run time (free_top --set
            I3=0.7 ran; nsmc refuses the same triple in the source); a
            derived value 0/0 printed as "-nan"; t_end = 1e300 with the
            model's own dt told to "give a larger --dt"; a spin of 1e300
            rad/s named "position of B.w1" and nsmc run's summary "-nan";
            the energy balance's advice offering a method a body in space refused;
            a quaternion (1e300, 1e300, 0, 0) scaled to NaN and run, exit 0;
            a zero or NaN initial quaternion of the parameters.
  rigid     hostile --set values, options and outputs of free_top and
            thrown_body (zero, negative, tiny and huge inertias and
            masses, a spin of 1e300, impossible steps, every method,
            sections, Lyapunov, HDF5), and model texts (zero or tiny
            quaternions, a zero tilt axis, points of 1e300 m, bad units).
  commands  nsmc run, sweep and continue on the bodies in space and with
            unicode, very long and empty names, out-dirs and plot columns.
  signals   SIGINT, SIGTERM and SIGHUP at seeded random moments of the two
            rigid models writing CSV and HDF5: exit 128 + N, whole lines,
            the HDF5 file marked stopped with as many rows, no temporary.
  python    the Python API on the bodies in space and the leftovers:
            cart_friction with M = 0 or l = 0 (ParameterError, it was a
            SettingError), inertias no body has, arguments of every type
            (a parameter of 10**400 escaped as OverflowError; a sweep of a
            body in space was a SimulationError, now a SettingError).
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


def variant(tmp, name, old, new, tag):
    """models/NAME.nsm with old replaced by new, written into tmp; its path."""
    text = open(model(name)).read()
    if old not in text:
        raise Failure("%s.nsm has no %r" % (name, old))
    path = os.path.join(tmp, "%s_%s.nsm" % (name, tag))
    open(path, "w").write(text.replace(old, new))
    return path


RATIO = '''model ratio "a stiffness that is a ratio of parameters"
param a = 1 N
param s = 1 m^2
mass B = 1 kg
spring S: ground -- B, k = a/s*1 m
init B.x = 0.1 m
simulate t_end = 1 s, dt = 1 ms, method = exact
output every 10 ms: B.x
'''

SPIN = ("B.omega = (0.4 rad/s, -0.25 rad/s, 3 rad/s)",
        "B.omega = (0.4 rad/s, -0.25 rad/s, %s rad/s)")


# ---- findings ---------------------------------------------------------------

def case_findings(tmp):
    """Each finding of the pass, a check that failed before its fix."""
    ft = sim("free_top")
    # inertias no body has, given at run time: refused before any output
    for sets, k, others in ((["I3=0.7"], 3, "0.6"), (["I1=0.1", "I3=0.3"], 3, "0.2"),
                            (["I1=1e-300"], 3, "2e-300"), (["I3=1e300"], 3, "0.6"),
                            (["I1=1", "I3=2.0000001"], 3, "2")):
        args = [ft] + [a for s in sets for a in ("--set", s)] + ["--out", "ft.csv"]
        p = run(tmp, args)
        check(p.returncode == 1 and "no body has the principal inertias of 'B'" in p.stderr and
              "I%d exceeds the sum of the other two (%s kg*m^2)" % (k, others) in p.stderr and
              not os.path.exists(os.path.join(tmp, "ft.csv")),
              "free_top --set %s: exit 1, no body has these inertias, nothing written (it ran "
              "a motion no body has)" % " ".join(sets), p)
    for sets in (["I3=0.6"], ["I1=0.3", "I3=1e-300"], ["I1=1e300", "I3=1e300"]):
        p = run(tmp, [ft] + [a for s in sets for a in ("--set", s)] + ["--t-end", "0.1",
                                                                       "--out", "/dev/null"])
        check(p.returncode == 0, "free_top --set %s: the limits a body can reach still run "
              "(a flat disc, a thin rod, a scaled top)" % " ".join(sets), p)
    p = run(tmp, [NSMC, "run", model("free_top"), "--set", "I3=0.7", "--no-plot",
                  "--out-dir", "r"], timeout=300)
    check(p.returncode == 1 and "no body has the principal inertias" in p.stderr,
          "nsmc run free_top --set I3=0.7: exit 1 with the reason", p)
    # a derived value 0/0: "nan", never "-nan"
    path = os.path.join(tmp, "ratio.nsm")
    open(path, "w").write(RATIO)
    p = run(tmp, [NSMC, "run", path, "--set", "a=0", "--set", "s=0", "--no-plot",
                  "--out-dir", "ra"], timeout=300)
    check(p.returncode == 1 and "invalid value nan (an undefined form such as 0/0) of the "
          "stiffness of S, a/s (parameters a, s)" in p.stderr and "-nan" not in p.stderr,
          "a stiffness a/s with a = s = 0: 'invalid value nan (an undefined form such as "
          "0/0)' (it printed -nan)", p)
    # t_end beyond the resolution with the model's dt: the time is blamed
    for name in ("two_mass", "free_top", "thrown_body"):
        p = run(tmp, [sim(name), "--t-end", "1e300", "--every", "1e299", "--out", "x.csv"])
        check(p.returncode == 1 and "t_end = 1e+300 s is beyond the time resolution" in p.stderr
              and "give a larger --dt" not in p.stderr and
              not os.path.exists(os.path.join(tmp, "x.csv")),
              "%s --t-end 1e300: exit 1 naming the end time, nothing written (it said 'give a "
              "larger --dt')" % name, p)
    p = run(tmp, [sim("two_mass"), "--dt", "1e-300", "--out", "/dev/null"])
    check(p.returncode == 1 and "give a larger --dt" in p.stderr,
          "two_mass --dt 1e-300 still names the step", p)
    # a spin of 1e300 rad/s: the quaternion's part named, the summary says
    # "not a number"
    spin = variant(tmp, "free_top", SPIN[0], SPIN[1] % "1e300", "spin")
    p = run(tmp, [NSMC, "run", spin, "--no-plot", "-q", "--out-dir", "sp"], timeout=300)
    check(p.returncode == 3 and "state is not finite (position of B.p1)" in p.stderr and
          "-nan" not in p.stdout + p.stderr and "not a number at the end" in p.stdout,
          "a spin of 1e300 rad/s: exit 3, 'position of B.p1' (it said 'position of B.w1'), the "
          "summary's 'not a number' (it printed -nan)", p)
    # a quaternion nsmc scaled by an overflowing length ran with a NaN
    # orientation, exit 0; a quaternion or initial state of the parameters
    # that is zero or not finite at run time is refused before any output
    quat = "B.p0 = 0.8, B.p1 = 0.4, B.p2 = -0.4, B.p3 = 0.2"
    huge = variant(tmp, "thrown_body", quat, "B.p0 = 1e300, B.p1 = 1e300", "qhuge")
    p = run(tmp, [NSMC, huge, "-o", "qhuge.c"])
    check(p.returncode == 1 and "the quaternion of 'B' cannot be scaled to unit length: the sum "
          "of its squares overflows" in p.stderr,
          "a quaternion (1e300, 1e300, 0, 0): a compile error (it ran, exit 0, its orientation "
          "NaN)", p)
    byp = variant(tmp, "thrown_body", "param F = 0.6 N", "param F = 0.6 N\nparam q = 1", "qpar")
    byp_text = open(byp).read().replace(quat, "B.p0 = q, B.p1 = 0, B.p2 = 0, B.p3 = 0")
    open(byp, "w").write(byp_text)
    nonfinite = "the initial state is not finite with these parameters: position of B.p0 = "
    zero = "the initial quaternion of 'B' is zero with these parameters"
    for q, said in (("0", nonfinite), ("1e-300", nonfinite), ("1e300", zero)):
        p = run(tmp, [NSMC, "run", byp, "--set", "q=" + q, "--no-plot", "-q", "--out-dir",
                      "qp"], timeout=300)
        check(p.returncode == 1 and said in p.stderr and
              not os.path.exists(os.path.join(tmp, "qp", "trajectory.csv")),
              "a quaternion (q, 0, 0, 0) with --set q=%s: exit 1 before any output (%s)"
              % (q, said[:40]), p)
    fast = variant(tmp, "free_top", SPIN[0], SPIN[1] % "1e8", "fast")
    p = run(tmp, [NSMC, "run", fast, "--no-plot", "-q", "--out-dir", "fa"], timeout=300)
    check(p.returncode == 3 and "energy balance is off" in p.stderr and
          "--method taylor" in p.stderr and "--rtol" in p.stderr and "exact" not in p.stderr,
          "a spin of 1e8 rad/s: the energy balance's advice names --dt, --rtol and taylor, not "
          "exact (which refuses bodies in space)", p)


# ---- rigid ------------------------------------------------------------------

RIGID_SETS = ["I1=0", "I1=-1", "I3=0", "I3=-0", "I1=1e-300", "I3=1e-300", "I1=1e300",
              "I1=5e-324", "m=0", "m=-1", "m=1e-300", "m=1e300", "I1=nan", "I3=inf",
              "I1=1e400", "I1=0x10", "I1=1e-320", "I3=0.3 kg*m^2", "I3=0.3 kg", "m=2 kg*m^2",
              "I1=", "=1", "I9=1", "I1=0.3.4", "I1=１", "I1=0.3 kg*m^2*s"]
THROWN_SETS = ["m=0", "m=1e-300", "m=1e-320", "m=1e300", "F=1e300", "F=-1e300", "F=nan",
               "F=1e308", "m=5e-324", "F=0"]
OPTIONS = [["--method", "taylor"], ["--method", "exact"], ["--method", "adaptive", "--rtol",
                                                            "1e-300"],
           ["--lyapunov", "--t-end", "1"], ["--section", "period:1", "--t-end", "1"],
           ["--section", "plane:B.w1", "--t-end", "1"], ["--section", "impact:B"],
           ["--dt", "1e-300"], ["--dt", "1e300"], ["--every", "1e-300"], ["--every", "-1"],
           ["--t-end", "1e300"], ["--t-end", "-1"], ["--t-end", "0"], ["--t-end", "5e-324"],
           ["--max-steps", "1"], ["--max-steps", "-1"], ["--energy-tol", "nan"],
           ["--energy-tol", "0", "--set", "I3=1e-300"], ["--out", "x.h5", "--t-end", "0.2"],
           ["--out", "x.H5", "--out", "x.csv", "--every", "1e-3", "--t-end", "0.2"],
           ["--out", "x.h5", "--out", "y.h5"], ["--out", "é" * 200 + ".h5", "--t-end", "0.1"],
           ["--out", "x" * 300 + ".csv"], ["--out", ""], ["--out", "/dev/full"],
           ["--events", "/dev/full", "--t-end", "0.1"], ["--out", "/proc/self/nope.csv"]]
TEXTS = [("free_top", "B.tilt = (1, 0, 0) * 0.3 rad", "B.tilt = (0, 0, 0) * 0.3 rad", "axis0"),
         ("free_top", "B.tilt = (1, 0, 0) * 0.3 rad", "B.tilt = (1, 0, 0) * 1e300 rad", "tiltbig"),
         ("free_top", "B.tilt = (1, 0, 0) * 0.3 rad", "B.tilt = (1e-300, 0, 0) * 0.3 rad",
          "axistiny"),
         ("free_top", "B.tilt = (1, 0, 0) * 0.3 rad", "B.tilt = (1, 0, 0) * 0.3 m", "tiltm"),
         ("free_top", SPIN[0], SPIN[1] % "1e150", "spin150"),
         ("free_top", SPIN[0], SPIN[1] % "-1e300", "spinneg"),
         ("free_top", "B.point(0, 0, 1 m).x", "B.point(1e300 m, 0, 1 m).x", "pointbig"),
         ("free_top", "B.point(0, 0, 1 m).x", "B.point(0, 0, 1 kg).x", "pointkg"),
         ("free_top", "B.point(0, 0, 1 m).x", "B.point(0, 0).x", "point2"),
         ("free_top", "B.point(0, 0, 1 m).x", "B.point(0, 0, 1 m).w", "pointw"),
         ("free_top", "B.point(0, 0, 1 m).x", "B.point(0, 0, 1 m, 1 m).x", "point4"),
         ("free_top", "inertia = (I1, I1, I3)", "inertia = (I1, I1, -I3)", "ineg"),
         ("free_top", "inertia = (I1, I1, I3)", "inertia = (I1, I1)", "itwo"),
         ("free_top", "inertia = (I1, I1, I3)", "inertia = (I1, I1, 3*I1)", "itriangle"),
         ("free_top", "inertia = (I1, I1, I3)", "inertia = ((I1, 0, 0), (0, I1, 0), (0, 0, I3))",
          "itensor"),
         ("free_top", "mass = m, inertia", "mass = 0 kg, inertia", "mass0"),
         ("free_top", "method = rk4", "method = taylor", "taylor"),
         ("free_top", "method = rk4", "method = exact", "exact"),
         ("thrown_body", "B.p0 = 0.8, B.p1 = 0.4, B.p2 = -0.4, B.p3 = 0.2",
          "B.p0 = 0, B.p1 = 0, B.p2 = 0, B.p3 = 0", "q0"),
         ("thrown_body", "B.p0 = 0.8, B.p1 = 0.4, B.p2 = -0.4, B.p3 = 0.2",
          "B.p0 = 1e300, B.p1 = 1e300, B.p2 = 0, B.p3 = 0", "qhuge"),
         ("thrown_body", "B.p0 = 0.8, B.p1 = 0.4, B.p2 = -0.4, B.p3 = 0.2",
          "B.p0 = 0.8, B.p1 = 0.4, B.p2 = -0.4", "q3"),
         ("thrown_body", "B.p0 = 0.8, B.p1 = 0.4, B.p2 = -0.4, B.p3 = 0.2",
          "B.p0 = 0.8, B.p1 = 0.4, B.p2 = -0.4, B.p3 = 0.2, B.tilt = (1, 0, 0) * 1 rad",
          "qtilt"),
         ("thrown_body", "inertia = (0.02, 0.035, 0.05)", "inertia = (0.02, 0.035, 0.06)", "tri"),
         ("thrown_body", "inertia = (0.02, 0.035, 0.05)", "inertia = (0.02, 0.035, 0.055)",
          "triedge"),
         ("thrown_body", "gravity g = (1.2 m/s^2, 0, -9.7 m/s^2)",
          "gravity g = (1e300 m/s^2, 0, -9.7 m/s^2)", "g300"),
         ("thrown_body", "force on B = (0, F, 0)", "force on B = (0, F, 0, 0)", "f4"),
         ("thrown_body", "force on B = (0, F, 0)", "torque on B = (0, 0.01 N*m, 0)", "torque"),
         ("thrown_body", "force on B = (0, F, 0)", "torque on B = (0, F, 0)", "torqueN"),
         ("thrown_body", "rigid B:", "rigid B\u00e9:", "uname")]


def case_rigid(tmp):
    """Hostile --set values, options and model texts of the bodies in space:
    each ends by itself with 0, 1 or 3 and a message; a text nsmc accepts
    is run too."""
    n = 0
    ft, tb = sim("free_top"), sim("thrown_body")
    vectors = [[ft, "--set", s] for s in RIGID_SETS] + [[tb, "--set", s] for s in THROWN_SETS]
    vectors += [[ft] + o for o in OPTIONS] + [[tb] + o for o in OPTIONS[:12]]
    for v in vectors[::3] if SANITIZED else vectors:
        args = v + ([] if "--out" in v else ["--out", "/dev/null"])
        args += [] if "--t-end" in v else ["--t-end", "1"]
        tried(tmp, args, label_of([os.path.basename(v[0])] + v[1:]), timeout=60)
        n += 1
    for name, old, new, tag in TEXTS[::3] if SANITIZED else TEXTS:
        path = variant(tmp, name, old, new, tag)
        p = tried(tmp, [NSMC, path, "-o", tag + ".c"], "nsmc %s: %s" % (name, new[:40]))
        n += 1
        if p.returncode == 0:
            tried(tmp, [NSMC, "run", path, "--no-plot", "-q", "--out-dir", tag,
                        "--t-end", "0.5"], "  run it", timeout=300)
    print("rigid: %d inputs" % n)


# ---- commands ---------------------------------------------------------------

def case_commands(tmp):
    """nsmc run, sweep and continue with inputs the earlier passes did not
    try: the bodies in space in the studies, unicode, very long and empty
    names."""
    ft, tb, fio = model("free_top"), model("thrown_body"), model("forced_impact_oscillator")
    short = ["--transient", "1", "--record", "2"]
    inputs = [
        ["sweep", ft, "--param", "I3=0.4:0.8:3", "--section", "period:1"] + short,
        ["sweep", ft, "--basin", "B.w1=0:1:2", "--basin", "B.w2=0:1:2", "--section",
         "period:1"] + short,
        ["continue", ft, "--param", "I3=0.5:0.6", "--period", "1"],
        ["continue", tb, "--param", "F=0.6:0.7"],
        ["run", ft, "--set", "I3=0.6", "--no-plot", "-q", "--", "--t-end", "0.2"],
        ["run", tb, "--out", "t.hdf5", "--no-plot", "-q", "--", "--t-end", "0.2"],
        ["run", tb, "--phase", "--no-plot", "-q", "--", "--t-end", "0.2"],
        ["run", ft, "--animate", "--", "--t-end", "0.2", "--frames", "3"],
        ["run", ft, "--set", "I3=0.7", "--no-plot"],
        ["run", ft, "--set", "\u00e9=1", "--no-plot"],
        ["run", ft, "--set", "I1=" + "9" * 400, "--no-plot"],
        ["run", ft, "--set", "I1" * 300 + "=1", "--no-plot"],
        ["run", ft, "--set", "", "--no-plot"],
        ["run", ft, "--out-dir", "\u00e9\u00e8" * 60, "--no-plot", "-q", "--", "--t-end",
         "0.1"],
        ["run", ft, "--events-max", "-1", "--no-plot"],
        ["run", ft, "--events-max", "1e99", "--no-plot"],
        ["run", ft, "--", "--set", "I3=0.7"],
        ["run", ft, "--", "--bogus"],
        ["sweep", fio, "--param", "omega=1:2:2", "--section", "impact:stop", "--plot",
         "\u00e9"] + short,
        ["sweep", fio, "--param", "\u00e9=1:2:2", "--section", "impact:stop"] + short,
        ["sweep", fio, "--param", "omega=1:2:2", "--section", "impact:" + "s" * 5000] + short,
        ["sweep", fio, "--param", "omega=1:2:2", "--section", ""] + short,
        ["sweep", fio, "--param", "omega=2:1:2", "--section", "impact:stop", "--jobs",
         "-1"] + short,
        ["sweep", fio, "--param", "omega=1:2:2", "--section", "impact:stop", "--transient",
         "nan"],
        ["sweep", fio, "--param", "omega=1:2:2", "--section", "impact:stop", "--record",
         "0x10"],
        ["continue", fio, "--param", "omega=1.3:1.2", "--period", "0"],
        ["continue", fio, "--param", "omega=1.3:1.2", "--period", "-1"],
        ["continue", fio, "--param", "omega=1.3:1.2", "--period", "nan"],
        ["continue", fio, "--param", "omega=1.3:1.2", "--ds-max", "1e-300", "--max-points",
         "2"],
        ["continue", fio, "--param", "omega=1.3:1.3"],
        ["continue", fio, "--param", "omega=1.3"],
        ["continue", fio, "--param", "\u00e9=1:2"],
    ]
    n = 0
    for i, args in enumerate(inputs[::3] if SANITIZED else inputs):
        if "--out-dir" not in args:     # before any '--': nsmc's own option
            at = args.index("--") if "--" in args else len(args)
            args = args[:at] + ["--out-dir", "o%d" % i] + args[at:]
        tried(tmp, [NSMC] + args, label_of([args[0], os.path.basename(args[1])] + args[2:]),
              timeout=300)
        n += 1
    print("commands: %d inputs" % n)


# ---- signals ----------------------------------------------------------------

def case_signals(tmp):
    """Stop signals at seeded random moments of the rigid models writing CSV
    and HDF5: exit 128 + N, whole lines, HDF5 marked stopped with as many
    rows, no temporary."""
    rng = random.Random(2905)
    runs = [("free_top rk4", [sim("free_top"), "--t-end", "5000", "--every", "1e-3"]),
            ("free_top adaptive", [sim("free_top"), "--method", "adaptive", "--t-end", "5000",
                                   "--every", "1e-3"]),
            ("thrown_body", [sim("thrown_body"), "--t-end", "5000", "--every", "1e-3",
                             "--set", "F=0"])]
    for label, cmd in runs:
        sig = rng.choice([signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
        stopped_run(tmp, label, cmd, sig, rng.uniform(0.05, 1.5))


# ---- python -----------------------------------------------------------------

PY = r'''
import math, os, sys
import numpy as np
import nsm
MODELS = sys.argv[1]
''' + PY_EXPECT + r'''cf = nsm.compile(os.path.join(MODELS, "cart_friction.nsm"))
ft = nsm.compile(os.path.join(MODELS, "free_top.nsm"))
tb = nsm.compile(os.path.join(MODELS, "thrown_body.nsm"))
S, P, R, OK = ("SettingError",), ("ParameterError",), ("SimulationError",), ("ok",)
# the leftover: a parameter that makes the model impossible is a ParameterError
for meth in ("rk4", "adaptive", "taylor"):
    expect("cf %s M=0" % meth, lambda: cf.run(method=meth, params={"M": 0}), P)
    expect("cf %s l=0" % meth, lambda: cf.run(method=meth, params={"l": 0}), P)
    expect("cf %s M=0, m=0" % meth, lambda: cf.run(method=meth, params={"M": 0, "m": 0}), P)
# the finding: inertias no body has
for p in ({"I3": 0.7}, {"I1": 0.1, "I3": 0.3}, {"I3": 1e300}, {"I1": 1e-300}):
    expect("ft %r" % p, lambda: ft.run(params=p, t_end=0.1), P)
for p in ({"I3": 0.6}, {"I3": 1e-300}, {"m": 1e300}):
    expect("ft %r" % p, lambda: ft.run(params=p, t_end=0.1), OK)
# arguments of every type on the bodies in space
values = [0, -1, 1e-300, 1e300, float("nan"), float("inf"), -float("inf"), 10 ** 400,
          "1", b"1", None, [1], {"a": 1}, 1j, True, np.float32(0.3), np.int64(2),
          np.array([0.3]), "0.3 kg*m^2", "\u00e9"]
for v in values:
    expect("ft I1=%r" % (v,), lambda: ft.run(params={"I1": v}, t_end=0.1), OK + P)
    expect("tb m=%r" % (v,), lambda: tb.run(params={"m": v}, t_end=0.1), OK + P + R)
    expect("ft t_end=%r" % (v,), lambda: ft.run(t_end=v), OK + S)
    expect("tb every=%r" % (v,), lambda: tb.run(every=v, t_end=0.1), OK + S)
    expect("tb dt=%r" % (v,), lambda: tb.run(dt=v, t_end=0.1), OK + S)
for meth in ("exact", "taylor", "nope", None, 3):
    expect("ft method=%r" % (meth,), lambda: ft.run(method=meth, t_end=0.1),
           OK + S if meth is None else OK if meth == "taylor" else S)
expect("ft params name unicode", lambda: ft.run(params={"\u00e9": 1}), P)
expect("ft params name long", lambda: ft.run(params={"I" * 100000: 1}), P)
expect("ft init", lambda: ft.run(init={"B.x": 1}), P)
expect("ft section", lambda: ft.section("period:1", t_end=1), S)
expect("ft lyapunov", lambda: ft.lyapunov(1, 0.1), S)
# a sweep of a body in space: refused as section() and nsmc sweep refuse it (it
# was a SimulationError of the first value)
expect("ft sweep", lambda: ft.sweep("I3", [0.4, 0.5], "period:1", transient=1, record=1), S)
expect("ft sweep 0.7", lambda: ft.sweep("I3", [0.7], "period:1", transient=1, record=1), S + P)
expect("ft continuation", lambda: ft.continuation("I3", 0.5, 0.6, period="1"), S)
r = ft.run(t_end=0.2)
for col in ("B.w1", "tip_x", "B.p0", "B.theta"):
    assert np.all(np.isfinite(r[col])), col
expect("ft column nope", lambda: r["nope"], ("ColumnError",))
print("ok: %d calls: a result or an nsm.Error with a message, never -nan" % n)
'''


def case_python(tmp):
    """Python on the bodies in space and the leftovers."""
    python_script(tmp, "fifth_python.py", PY, [MODELS], "python: the bodies in space, "
                "cart_friction's impossible parameters and arguments of every type")


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-fifth-"))
