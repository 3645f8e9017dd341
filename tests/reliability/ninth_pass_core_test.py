#!/usr/bin/env python3
"""A ninth hostile pass on the core: impossible or extreme steps and values
through the simulators' command line under every method, models whose only
defect appears at run time, the compiler on model texts that combine
features with odd values, and the simulators' reporting options in odd
combinations; answers at extreme but legal values checked against closed
forms.

    tests/reliability/ninth_pass_core_test.py NSMC SIM FIO_SIM SOURCE_DIR CASE SIMS_DIR

Cases (each under 20 s in the normal build):
  findings   what the pass found, each failing before its fix: an operand of
             min, max or a comparison that is undefined at run time
             (`min(z/z, 2)`, `if z/z > 0.5`, `if t < z/z*0.5 s`, a floor at
             `min(z/z, 2) m - 1 m`, `t_end = min(z/z, 2) s`, all at --set
             z=0) ran on the other value, exit 0, where the source gives NaN;
             rk4 without a dt (--dt 0) spun through its whole step cap (1e8
             steps of at most 1 ms, a minute) before failing with exit 3.
  closed     a bouncing ball's impact times at g = 1e-6 .. 1e12 m/s^2 and
             e = 0.5, 0.9, 1, and an elastic impacting oscillator's impact
             times and trajectory |cos(w t)| at w = 1e-6 .. 1e12 rad/s with
             masses of 1e-300 and 1e300 kg, every linear method, against
             their closed forms.
  values     --set of 0, -0, 1e-320, 1e+-300 and values that make a mode's
             matrix singular or a time scale below t's resolution, with every
             method and --dt, --every, --t-end, --max-steps, --max-impacts,
             --rtol, --atol at their limits; runtime-only defects (a negative
             stiffness or damping, a force that overflows, a Lagrangian
             model that blows up).
  texts      model texts that combine features (friction on a penalty gap,
             walls with curved gaps, nonlinear forces with impacts, sections
             and periods, x/x over values that may be zero), each nsmc accepts
             also run.
  options    --help, --stats, --summary, --table, --lyapunov, --section-out,
             --no-zeno, --events in odd combinations; nsmc -o, run and cache.
  python     the findings as Python sees them.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import csv
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import (SANITIZED, check, main, pass_paths, python_script, run,  # noqa: E402
                     sim, thin, tried)

NSMC, SIM, FIO_SIM, SRC, SIMS, MODELS = pass_paths()


def write(tmp, name, text):
    """A model text as tmp/name; its path."""
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path


# ---- findings ---------------------------------------------------------------

# Each model runs a mass of 1 kg from rest under 1 N (x(1 s) = 0.5 m) while z
# = 1; at z = 0 the source's value is NaN.
UNDEFINED = {
    "nan_min": ("force on M = min(z/z, 2) * 1 N", "the force on M"),
    "nan_if": ("force on M = if z/z > 0.5 then 1 N else 0 N", "the force on M"),
    "nan_switch": ("force on M = if t < z/z * 2 s then 1 N else 0 N", "the force on M"),
    "nan_max": ("force push: on M = max(-z/z, 1) * 1 N", "push"),
}


def undefined_model(name, force, extra=""):
    return ('model %s "an operand undefined at z = 0"\nparam z = 1\nmass M = 1 kg\n%s\n%s'
            "init M.x = 0 m\nsimulate t_end = 1 s, dt = 1 ms, method = rk4\n"
            "output every 0.5 s: M.x, M.v\n" % (name, force, extra))


def last_row(path):
    rows = list(csv.reader(open(path)))
    return [float(v) for v in rows[-1]]


def undefined_refused(tmp, label, path, what):
    """nsmc run of path at z = 0: exit 1 naming the undefined operand, no
    trajectory; at z = 1 it runs."""
    out = os.path.join(tmp, "o_" + label)
    p = run(tmp, [NSMC, "run", path, "--no-plot", "-q", "--out-dir", out, "--set", "z=0"],
            timeout=120)
    check(p.returncode == 1 and "invalid value nan" in p.stderr and
          "operand of a min, max or comparison of %s" % what in p.stderr and
          not os.path.exists(os.path.join(out, "trajectory.csv")),
          "%s at --set z=0: exit 1 naming the undefined operand of %s, nothing written "
          "(it ran on the other value, exit 0)" % (label, what), p)
    return out


def findings_sims(tmp):
    """The findings on the prebuilt simulators: rk4's step cap without a
    dt, and exact's weight on a spring the motion does not see."""
    # rk4 without a dt steps at most 1 ms: a cap it cannot keep is refused
    # before the first step, nothing written
    t0 = time.monotonic()
    p = run(tmp, [sim("impacting_oscillator"), "--set", "k=1e-12", "--set", "g=0", "--dt", "0",
                  "--t-end", "1.6e7", "--every", "1e5", "--out", "cap.csv"], timeout=120)
    took = time.monotonic() - t0
    print("  rk4 --dt 0 --t-end 1.6e7: exit %d after %.2f s" % (p.returncode, took))
    check(p.returncode == 1 and "rk4 without a dt takes steps of at most 0.001 s" in p.stderr and
          "1.6e+10 steps" in p.stderr and "step cap of 100000000" in p.stderr and
          not os.path.exists(os.path.join(tmp, "cap.csv")),
          "impacting_oscillator --dt 0 --t-end 1.6e7 under rk4: refused up front, exit 1, "
          "nothing written (it spun through 1e8 steps, then exit 3)", p)
    p = run(tmp, [sim("impacting_oscillator"), "--dt", "0", "--t-end", "2", "--max-steps", "1000",
                  "--out", "cap.csv"])
    check(p.returncode == 1 and "at least 2e+03 steps" in p.stderr,
          "--dt 0 --t-end 2 --max-steps 1000 under rk4: refused up front", p)
    for meth in ("adaptive", "exact"):
        p = run(tmp, [sim("impacting_oscillator"), "--set", "k=1e-12", "--set", "g=0",
                      "--set", "e=1", "--dt", "0", "--t-end", "1.6e7", "--every", "1e5",
                      "--method", meth, "--out", "cap.csv"], timeout=120)
        check(p.returncode == 0, "the same run under %s (steps of its own): runs" % meth, p)
    # exact with a stiffness that the motion does not see: the mass falls
    # from 1 m, lands at t1 = sqrt(2/g) and leaves at e g t1; its long double
    # exponential dropped the weight (balanced to a norm of 1e-150: Taylor
    # degree 0), x(0.5 s) = 1 - 5e-10 m, no impact, exit 0
    g, e = 9.81, 0.9
    t1 = math.sqrt(2 / g)
    x_end = e * g * t1 * (0.5 - t1) - 0.5 * g * (0.5 - t1) ** 2
    v_end = e * g * t1 - g * (0.5 - t1)
    for k in ("1e-300", "1e-100", "1e-17", "0"):
        for dt in ("1e-5", "0"):
            p, ts = event_times(tmp, [sim("impacting_oscillator"), "--set", "k=" + k, "--method",
                                      "exact", "--dt", dt, "--t-end", "0.5", "--every", "0.1",
                                      "--out", "fall.csv"])
            row = last_row(os.path.join(tmp, "fall.csv")) if p.returncode == 0 else [0, 0, 0]
            print("  exact k = %-6s dt = %-4s -> %d, impacts %s, x(0.5) = %.12g m"
                  % (k, dt, p.returncode, ts, row[1]))
            check(p.returncode == 0 and len(ts) == 1 and abs(ts[0] - t1) < 1e-12 and
                  abs(row[1] - x_end) < 1e-10 and abs(row[2] - v_end) < 1e-9,
                  "impacting_oscillator --set k=%s --method exact --dt %s: lands at sqrt(2/g) "
                  "and is at its closed form at 0.5 s (it stayed at 1 m, exit 0)" % (k, dt), p)


def case_findings(tmp):
    """Each finding of the pass, a check that failed before its fix."""
    for name, (force, what) in UNDEFINED.items():
        path = write(tmp, name + ".nsm", undefined_model(name, force))
        if SANITIZED and name != "nan_min":
            continue            # a C compilation each: one under the sanitizers
        out = undefined_refused(tmp, name, path, what)
        p = run(tmp, [NSMC, "run", path, "--no-plot", "-q", "--out-dir", out], timeout=120)
        row = last_row(os.path.join(out, "trajectory.csv"))
        check(p.returncode == 0 and abs(row[1] - 0.5) < 1e-12 and abs(row[2] - 1) < 1e-12,
              "%s at z = 1: x(1 s) = 0.5 m, v = 1 m/s (1 N on 1 kg)" % name, p)
    findings_sims(tmp)
    if SANITIZED:
        return                  # the rest compiles models: Python's in case_python
    floor = ('model nan_floor "a floor at an undefined height"\nparam z = 1\nmass M = 1 kg\n'
             "gravity 9.81 m/s^2\ngap floor: M.x >= min(z/z, 2) * 1 m - 1 m, impact(e = 0.5)\n"
             "init M.x = 1 m\nsimulate t_end = 1 s, dt = 1 ms, method = rk4\n"
             "output every 0.5 s: M.x, M.v\n")
    undefined_refused(tmp, "nan_floor", write(tmp, "nan_floor.nsm", floor), "floor")
    tend = undefined_model("nan_end", "force on M = 1 N").replace(
        "t_end = 1 s", "t_end = min(z/z, 2) * 1 s")
    undefined_refused(tmp, "nan_end", write(tmp, "nan_end.nsm", tend), "simulate")
    col = undefined_model("nan_col", "force on M = 1 N").replace(
        "M.x, M.v", "M.x, M.v, sw = if z/z > 0.5 then 1 else 0")
    undefined_refused(tmp, "nan_col", write(tmp, "nan_col.nsm", col), "sw")
    # a gap's slope z/z: NaN at z = 0, a gap that never closes (the ball fell
    # through the floor, exit 0); nsmc refuses it in the source
    slope = ('model nan_slope "a slope of z/z"\nparam z = 1 m\nmass M = 1 kg\n'
             "gravity 9.81 m/s^2\ngap G: M.x*z/z >= 0, impact(e = 1)\ninit M.x = 1 m\n"
             "simulate t_end = 1 s\noutput every 0.5 s: M.x, M.v\n")
    path = write(tmp, "nan_slope.nsm", slope)
    out = os.path.join(tmp, "o_slope")
    p = run(tmp, [NSMC, "run", path, "--no-plot", "-q", "--out-dir", out, "--set", "z=0"],
            timeout=120)
    check(p.returncode == 1 and "invalid value nan" in p.stderr and "slope of G, z/z" in p.stderr,
          "a gap's slope z/z at --set z=0: exit 1 naming the slope (the ball fell through the "
          "floor, exit 0)", p)
    p = run(tmp, [NSMC, "--check", write(tmp, "nan_slope0.nsm", slope.replace("z = 1 m",
                                                                             "z = 0 m"))])
    check(p.returncode == 1 and "nan_slope0.nsm:5:8: error: gap 'G': its slope with respect "
          "to M.x must be finite (it is nan)" in p.stderr,
          "nsmc refuses the slope z/z at z = 0 m in the source, at the gap", p)
    # a curved gap times z/z: the run stops at its first step, exit 3 (the
    # discs passed through each other, exit 0); at z = 1 they exchange
    # velocities at t = 0.8 s: A.x(2 s) = -1.2 m, B.x = 0.2 m
    curved = ('model nan_curved "a curved gap times z/z"\nparam z = 1\n'
              "disc A: mass = 1 kg, radius = 0.1 m, inertia = 0.004 kg*m^2\n"
              "disc B: mass = 1 kg, radius = 0.1 m, inertia = 0.004 kg*m^2\n"
              "gap touch: (sqrt((B.x - A.x)^2 + (B.y - A.y)^2) - 0.2 m)*z/z >= 0 m, "
              "impact(e = 1)\ninit B.x = 1 m, B.vx = -1 m/s\nsimulate t_end = 2 s\n"
              "output every 0.5 s: A.x, B.x\n")
    path = write(tmp, "nan_curved.nsm", curved)
    out = os.path.join(tmp, "o_curved")
    for meth in ("taylor", "rk4", "adaptive"):
        p = run(tmp, [NSMC, "run", path, "--no-plot", "-q", "--out-dir", out, "--set", "z=0",
                      "--", "--method", meth], timeout=120)
        check(p.returncode == 3 and "gap 'touch' has no finite value" in p.stderr,
              "a curved gap times z/z at --set z=0 under %s: exit 3 naming the gap (the discs "
              "passed through each other, exit 0)" % meth, p)
        p = run(tmp, [NSMC, "run", path, "--no-plot", "-q", "--out-dir", out, "--",
                      "--method", meth], timeout=120)
        row = last_row(os.path.join(out, "trajectory.csv"))
        check(p.returncode == 0 and abs(row[1] + 1.2) < 1e-6 and abs(row[2] - 0.2) < 1e-6,
              "the same discs at z = 1 under %s: A.x(2 s) = -1.2 m, B.x = 0.2 m (within 1e-6 m)"
              % meth, p)
    case_python(tmp)


PY = r'''
import sys, time, nsm
T = sys.argv[1] + "/"
for name in ("nan_min",) if sys.argv[3] == "1" else ("nan_min", "nan_if", "nan_switch"):
    m = nsm.compile(T + name + ".nsm")
    try:
        m.run(params={"z": 0})
        raise AssertionError(name + ": z = 0 ran")
    except nsm.ParameterError as e:
        assert "invalid value nan" in str(e) and "min, max or comparison" in str(e), e
    r = m.run(params={"z": 1})
    assert abs(r["M.x"][-1] - 0.5) < 1e-12, r["M.x"][-1]
    print("ok: %s: z = 0 a ParameterError naming the operand, z = 1 runs" % name)
m = nsm.compile(sys.argv[2] + "/impacting_oscillator.nsm")
t0 = time.monotonic()
try:
    m.run(params={"k": 1e-12, "g": 0}, dt=0, t_end=1.6e7, every=1e5)
    raise AssertionError("rk4 dt=0 t_end=1.6e7 ran")
except nsm.SettingError as e:
    assert "rk4 without a dt" in str(e), e
assert time.monotonic() - t0 < 10
print("ok: rk4 with dt=0 to 1.6e7 s: a SettingError up front")
'''


def case_python(tmp):
    """The findings as Python sees them."""
    for name, (force, _) in UNDEFINED.items():
        write(tmp, name + ".nsm", undefined_model(name, force))
    python_script(tmp, "ninth_core_python.py", PY, [tmp, MODELS, "1" if SANITIZED else "0"],
                  "python: an undefined operand is a ParameterError, rk4's cap a SettingError")


# ---- closed -----------------------------------------------------------------

def event_times(tmp, cmd):
    """The run's impact times (its events on stdout) and the process."""
    p = run(tmp, cmd + ["--events", "-"], timeout=120)
    ts = [float(ln.split(",")[0]) for ln in p.stdout.splitlines()[1:] if ",impact," in ln]
    return p, ts


def case_closed(tmp):
    """Extreme but legal values against closed forms."""
    worst = 0.0
    n = 0
    # a ball dropped from 1 m: impact j at t1 (1 + 2 (e + ... + e^(j-1))), t1 = sqrt(2/g)
    for g in thin(["1e-6", "1e-3", "1e3", "1e6", "1e12"]):
        for e in ("0.5", "1"):
            for meth in ("rk4", "adaptive", "exact"):
                gv, ev = float(g), float(e)
                t1 = math.sqrt(2 / gv)
                ref = [t1 * (1 + 2 * sum(ev ** k for k in range(1, j))) for j in range(1, 6)]
                t_end = ref[-1] + t1 * ev ** 5
                p, ts = event_times(tmp, [sim("bouncing_ball"), "--set", "g=" + g, "--set",
                                          "e=" + e, "--method", meth, "--t-end", repr(t_end),
                                          "--dt", repr(t1 / 100),
                                          "--every", repr(t_end / 20), "--out", "/dev/null"])
                err = max(abs(a - b) / t1 for a, b in zip(ts, ref)) if ts else math.inf
                tol = 1e-12 if meth == "exact" else 1e-9
                print("  ball g = %-6s e = %-3s %-8s -> %d, %d impacts, error %.1e t1"
                      % (g, e, meth, p.returncode, len(ts), err))
                check(p.returncode == 0 and len(ts) == 5 and err <= tol,
                      "bouncing ball, g = %s, e = %s, %s: five impacts within %g t1" %
                      (g, e, meth, tol), p)
                worst = max(worst, err)
                n += 1
    # the elastic oscillator on a floor at its rest point: x = |cos(w t)|,
    # impacts at (2j + 1) pi / (2 w)
    for m, k in thin([("1e-12", "1e12"), ("1", "1e-12"), ("1e-300", "1e-288"),
                      ("1e300", "1e300"), ("1", "1e20")]):
        w = math.sqrt(float(k) / float(m))
        t_end = 5.25 * math.pi / w
        for meth in ("rk4", "adaptive", "exact"):
            if meth == "rk4" and w < 1:
                continue        # 1 ms steps over 1.6e7 s: refused (findings)
            p, ts = event_times(tmp, [sim("impacting_oscillator"), "--set", "m=" + m, "--set",
                                      "k=" + k, "--set", "g=0", "--set", "e=1", "--method",
                                      meth, "--dt", "0", "--t-end", repr(t_end), "--every",
                                      repr(t_end / 40), "--out", "o.csv"])
            ref = [(2 * j + 1) * math.pi / (2 * w) for j in range(len(ts))]
            err = max(abs(a - b) * w for a, b in zip(ts, ref)) if ts else math.inf
            xerr = math.inf
            if p.returncode == 0:
                rows = list(csv.reader(open(os.path.join(tmp, "o.csv"))))[1:]
                # t is written with 12 digits: its rounding moves cos by up to 1e-11
                xerr = max(abs(float(r[1]) - abs(math.cos(w * float(r[0])))) for r in rows)
            tol = 1e-13 if meth == "exact" else 1e-7
            print("  oscillator w = %-7.0e %-8s -> %d, %d impacts, phase error %.1e rad, "
                  "x error %.1e m" % (w, meth, p.returncode, len(ts), err, xerr))
            check(p.returncode == 0 and len(ts) == 5 and err <= tol and xerr <= 1e-10 + 10 * tol,
                  "oscillator m = %s, k = %s, %s: impacts within %g rad of (2j+1) pi/(2w), "
                  "x = |cos(w t)|" % (m, k, meth, tol), p)
            worst = max(worst, err)
            n += 1
    print("%d closed-form runs; the worst error %.1e (of t1, or rad)" % (n, worst))


# ---- values -----------------------------------------------------------------

VALUE_SETS = {
    "impacting_oscillator": ["m=0", "m=-0", "m=1e-320", "m=1e300", "k=0", "k=-0", "k=-1",
                             "k=1e-320", "k=1e300", "e=-0", "e=1e-320", "g=-0", "g=1e300",
                             "g=-1e-300"],
    "two_mass": ["m1=1e-300", "k1=-1", "c1=-1", "c1=1e300", "k2=1e300", "e=0"],
    "duffing_stop": ["alpha=1e300", "alpha=-1", "alpha=1e-320", "m=1e-300"],
    "double_pendulum": ["g=1e300", "m1=1e-300", "l1=1e-300"],
    "bouncing_ball": ["g=0", "g=-0", "e=0", "m=1e-320"],
}
VALUE_OPTS = [[], ["--method", "adaptive"], ["--method", "exact"], ["--method", "taylor"],
              ["--dt", "0"], ["--dt", "5e-324"], ["--every", "0", "--t-end", "1e-3"],
              ["--t-end", "-0"], ["--max-steps", "1"], ["--max-impacts", "1"],
              ["--rtol", "5e-324", "--method", "adaptive"], ["--atol", "0", "--method", "adaptive"],
              ["--no-zeno"]]


def case_values(tmp):
    """--set values with every method and odd options: each ends by itself
    with 0, 1 or 3 and a message."""
    n = 0
    for name, sets in VALUE_SETS.items():
        for setv in sets:
            for o in thin(VALUE_OPTS)[:: 1 if name == "impacting_oscillator" else 3]:
                args = [sim(name), "--set", setv, "--t-end", "0.5", "--out", "v.csv"] + o
                p = tried(tmp, args, "%s %s %s" % (name, setv, " ".join(o)), timeout=60)
                if p.returncode != 0:
                    check(not os.path.exists(os.path.join(tmp, "v.csv")) or p.returncode == 3,
                          "a refusal leaves no output", p)
                for f in ("v.csv",):
                    if os.path.exists(os.path.join(tmp, f)):
                        os.unlink(os.path.join(tmp, f))
                n += 1
    print("%d value inputs, each ended with 0, 1 or 3 and a message" % n)


# ---- texts ------------------------------------------------------------------

HEAD = 'model t "a combination"\n'
TEXTS = {
    # friction pressed by a penalty gap, with odd values
    "fric_penalty": "mass B = 1 kg\ngravity 9.81 m/s^2\nmass F = 1 kg\n"
                    "gap floor: B.x >= 0, penalty(k = 1e6 N/m, c = 10 N*s/m)\n"
                    "friction R: F -- ground, mu = 0.3, normal = gap floor\n"
                    "init B.x = 0.1 m, F.v = 1 m/s\nsimulate t_end = 1 s\n",
    "fric_penalty_gap": "mass B = 1 kg\ngravity 9.81 m/s^2\n"
                        "gap floor: B.x >= 0, penalty(k = 1e6 N/m, release = gap)\n"
                        "friction R: B -- ground, mu = 0.3, normal = gap floor\n",
    "fric_penalty_huge": "mass B = 1 kg\ngravity 9.81 m/s^2\nmass F = 1 kg\n"
                         "gap floor: B.x >= 0, penalty(k = 1e300 N/m)\n"
                         "friction R: F -- ground, mu = 1e300, normal = gap floor\n"
                         "init F.v = 1 m/s\nsimulate t_end = 0.01 s\n",
    "fric_hertz": "mass B = 1 kg\ngravity 9.81 m/s^2\nmass F = 1 kg\n"
                  "gap floor: B.x >= 0, penalty(k = 1e9, exponent = 1.5)\n"
                  "friction R: F -- ground, mu = 0.3, normal = gap floor\n"
                  "init B.x = 0.01 m, F.v = 1 m/s\nsimulate t_end = 0.5 s\n",
    # walls and curved gaps together
    "wall_curved": "disc A: mass = 1 kg, radius = 0.1 m, inertia = 0.004 kg*m^2\n"
                   "disc B: mass = 1 kg, radius = 0.1 m, inertia = 0.004 kg*m^2\n"
                   "wall floor: A, normal = (0, 1), through = (0 m, 0 m), impact(e = 0.5)\n"
                   "wall side: B, normal = (-1, 1e-300), through = (1 m, 0 m), impact(e = 1)\n"
                   "gap touch: sqrt((B.x - A.x)^2 + (B.y - A.y)^2) >= 0.2 m, impact(e = 1)\n"
                   "gravity 9.81 m/s^2 along -y\n"
                   "init A.y = 0.5 m, B.x = 0.5 m, B.y = 0.5 m, B.vx = 1 m/s\n"
                   "simulate t_end = 1 s\n",
    "wall_curved_friction": "disc A: mass = 1 kg, radius = 0.1 m, inertia = 0.004 kg*m^2\n"
                            "disc B: mass = 1 kg, radius = 0.1 m, inertia = 0.004 kg*m^2\n"
                            "wall floor: A, normal = (0, 1), through = (0 m, 0 m), "
                            "impact(e = 0.5)\n"
                            "gap touch: sqrt((B.x - A.x)^2 + (B.y - A.y)^2) >= 0.2 m, "
                            "impact(e = 1)\n"
                            "friction F: slip = A.vx + 0.1 m*A.omega, mu = 0.2, normal = gap floor\n",
    "wall_penalty_curved": "disc A: mass = 1e-300 kg, radius = 0.1 m, "
                           "inertia = 4e-303 kg*m^2\n"
                           "disc B: mass = 1 kg, radius = 0.1 m, inertia = 0.004 kg*m^2\n"
                           "wall floor: A, normal = (0, 1), through = (0 m, 0 m), "
                           "penalty(k = 1e6 N/m)\n"
                           "gap touch: sqrt((B.x - A.x)^2 + (B.y - A.y)^2) >= 0.2 m, "
                           "penalty(k = 1e6, exponent = 1.5)\n"
                           "init B.x = 0.3 m, B.vx = -1 m/s, A.y = 0.2 m\n"
                           "simulate t_end = 0.5 s\n",
    # nonlinear forces with impacts, sections and periods
    "nl_impact_period": "param omega = 1e-300 rad/s\nmass M = 1 kg\n"
                        "force cubic: on M = -1 N/m^3*M.x^3 + 1 N*sin(omega*t)\n"
                        "gap stop: 0.1 m - M.x >= 0, impact(e = 0.8)\n"
                        "init M.x = 0.05 m, M.v = 1 m/s\n"
                        "simulate t_end = 2*pi/omega\n",
    "nl_impact_every": "param omega = 1e300 rad/s\nmass M = 1 kg\n"
                       "force cubic: on M = -1 N/m^3*M.x^3 + 1 N*sin(omega*t)\n"
                       "gap stop: 0.1 m - M.x >= 0, impact(e = 0.8)\n"
                       "init M.v = 1 m/s\nsimulate t_end = 1 s\n"
                       "output every 2*pi/omega: M.x\n",
    "nl_overflow": "mass M = 1 kg\nforce f: on M = -1e300 N/m^9*M.x^9\n"
                   "gap stop: M.x >= -1 m, impact(e = 1)\n"
                   "init M.x = 1e30 m\nsimulate t_end = 1 s, method = rk4\n",
    "nl_exp_overflow": "mass M = 1 kg\nforce f: on M = 1 N*exp(M.x/1 m)\n"
                       "gap stop: 1000 m - M.x >= 0, impact(e = 1)\n"
                       "init M.x = 700 m\nsimulate t_end = 1 s\n",
    "nl_log_pole": "mass M = 1 kg\nforce f: on M = 1 N*log(M.x/1 m)\n"
                   "gap stop: M.x >= 0, impact(e = 0.5)\ninit M.x = 1 m, M.v = -10 m/s\n"
                   "simulate t_end = 1 s\n",
    "nl_sqrt_negative": "mass M = 1 kg\nforce f: on M = 1 N*sqrt(M.x/1 m)\n"
                        "init M.x = 1 m, M.v = -10 m/s\nsimulate t_end = 1 s\n",
    # Lagrangian models that blow up
    "lag_blowup": "coordinate q: length\nkinetic T = 0.5 kg*q.v^2\n"
                  "potential V = -1e300 J/m^4*q.x^4\ninit q.x = 1 m\nsimulate t_end = 1 s\n",
    "lag_mass_zero": "coordinate q: length\nkinetic T = 0.5 kg/m^2*q.x^2*q.v^2\n"
                     "potential V = 0.5 N/m*q.x^2\ninit q.x = 1 m, q.v = -1 m/s\n"
                     "simulate t_end = 2 s\n",
    "lag_gap_pole": "coordinate q: angle\nkinetic T = 0.5 kg*m^2*q.omega^2\n"
                    "potential V = 1 J*cos(q.phi)\n"
                    "gap G: 1 m*log(q.phi + 1) >= -10 m, impact(e = 0.5)\n"
                    "init q.phi = 0.5, q.omega = -100 rad/s\nsimulate t_end = 1 s\n",
    # x/x over values that may be zero, and over values that may not
    "cancel_init": "param z = 0 m\nmass M = 1 kg\ninit M.x = z/z * 1 m\n",
    "cancel_mass": "param m = 2 kg\nmass M = m\nspring S: ground -- M, k = m/m * 1 N/m\n"
                   "init M.x = 1 m\nsimulate t_end = 1 s\n",
    "cancel_spring": "param z = 0\nmass M = 1 kg\nspring S: ground -- M, k = (z/z) * 1 N/m\n",
    "cancel_gap": "param z = 0 m\nmass M = 1 kg\ngap G: M.x*z/z >= 0, impact(e = 1)\n",
    "cancel_offset": "param z = 0 m\nmass M = 1 kg\ngap G: M.x >= z/z * 1 m, impact(e = 1)\n",
    "cancel_friction": "param z = 0\nmass M = 1 kg\n"
                       "friction F: M -- ground, mu = z/z, normal = 1 N\n",
    # many and long contact names in one failing mode
    "long_names": "".join("mass B%d = 1 kg\n" % i for i in range(12)) +
                  "".join("gap %s%d: B%d.x - B%d.x >= 0, impact(e = 0)\n" %
                          ("c" * 120, i, i + 1, i) for i in range(11)) +
                  "force on B11 = -1e308 N\n"
                  "init " + ", ".join("B%d.x = 0 m" % i for i in range(12)) + "\n"
                  "simulate t_end = 10 s, impact_law = simultaneous\n",
}


# the accepted texts also run (a C compilation each: the others were run by
# hand, each ending with 0, 1 or 3 and a message)
RUN_TEXTS = thin(["fric_penalty_huge", "fric_hertz", "wall_curved", "nl_impact_period",
                  "nl_overflow", "lag_blowup", "lag_gap_pole", "long_names"])


def case_texts(tmp):
    """Model texts that combine features with odd values: nsmc refuses with
    a located message or accepts, and what it accepts runs to an end with
    0, 1 or 3 and a message."""
    n = 0
    for name, body in TEXTS.items():
        path = write(tmp, name + ".nsm", HEAD + body)
        p = tried(tmp, [NSMC, "--check", path], "nsmc --check " + name, timeout=60)
        if p.returncode:
            check(name + ".nsm:" in p.stderr and "^" in p.stderr,
                  "%s: refused with FILE:LINE:COL and a caret" % name, p)
            n += 1
            continue
        if name not in RUN_TEXTS:
            n += 1
            continue
        out = os.path.join(tmp, "o_" + name)
        p = tried(tmp, [NSMC, "run", path, "--no-plot", "-q", "--out-dir", out],
                  "nsmc run " + name, timeout=120)
        if name == "long_names":
            # a failure naming the eleven 121-byte contacts of its mode: every
            # name in the message is whole
            check(p.returncode == 3 and "c" * 120 + "0" in p.stderr,
                  "long_names: the run fails naming its mode's contacts", p)
            for ln in p.stderr.splitlines():
                for word in ln.replace(",", " ").replace("'", " ").split():
                    if word.startswith("ccc"):
                        check(word.rstrip(".):;") in ["c" * 120 + str(i) for i in range(11)],
                              "a contact named whole in the message", p)
        n += 1
    print("%d model texts, each refused with a located message or run to an end" % n)


# ---- options ----------------------------------------------------------------

OPTION_SETS = [
    ["--help", "--t-end", "nope"], ["--t-end", "1", "--help"], ["--stats", "-", "--out", "-"],
    ["--stats", "-", "--table", "--events", "e.csv"], ["--summary", "--stats", "-",
                                                        "--events", "-"],
    ["--section", "impact:floor", "--section-out", "-", "--out", "-"],
    ["--section", "impact:floor", "--section-out", "s.csv", "--events", "s.csv"],
    ["--lyapunov", "--lyapunov-out", "-", "--section", "impact:floor", "--section-out", "-"],
    ["--lyapunov", "--method", "exact", "--no-zeno", "--t-end", "30"],
    ["--lyapunov", "--lyapunov-transient", "1e300"],
    ["--no-zeno", "--t-end", "30", "--summary"], ["--no-zeno", "--method", "exact", "--t-end",
                                                  "30", "--stats", "-"],
    ["--summary", "--t-end", "0"], ["--table", "--events-max", "0", "--t-end", "3"],
    ["--stats", "-", "--t-end", "0", "--method", "adaptive"],
    ["--section", "period:1e-300", "--section-out", "-"],
    ["--section", "plane:B.x:both", "--section-out", "-", "--t-end", "2"],
    ["--every", "5e-324", "--t-end", "5e-324"], ["--t-end", "5e-324", "--summary"],
    ["--dt", "1e-300", "--t-end", "0"], ["--max-steps", "0"], ["--max-impacts", "0"],
    ["--max-event-rate", "0"], ["--max-event-rate", "1e-300", "--t-end", "3"],
    ["--energy-tol", "0", "--method", "exact", "--t-end", "3"],
]


def case_options(tmp):
    """The reporting options in odd combinations, on every method; nsmc's
    -o, run and cache."""
    n = 0
    for o in OPTION_SETS:
        for meth in thin([[], ["--method", "adaptive"], ["--method", "exact"]]):
            args = [sim("bouncing_ball")] + o + meth
            if "--method" in o and meth:
                continue
            tried(tmp, args, "bouncing_ball " + " ".join(o + meth), timeout=60)
            n += 1
    model = os.path.join(MODELS, "bouncing_ball.nsm")
    for args in (["-o", "-", "-o", "-"], ["-o", "x.c", model, model], ["cache"],
                 ["cache", "clean", "now"], ["cache", "list"], ["run"], ["run", model, "-o", "x"],
                 ["run", model, "--no-plot", "-q", "--out-dir", "r", "--", "--help"],
                 ["run", model, "--no-plot", "-q", "--out-dir", "r", "--", "--t-end", "1",
                  "--t-end", "2"],
                 ["run", model, "--no-plot", "-q", "--out-dir", "r", "--", "--summary",
                  "--stats", "-", "--table", "--t-end", "2"]):
        full = [NSMC] + args if args[0] in ("run", "cache") else [NSMC, model] + args \
            if model not in args else [NSMC] + args
        tried(tmp, full, "nsmc " + " ".join(a.replace(SRC, "") for a in args), timeout=120)
        n += 1
    print("%d option combinations, each ended with 0, 1 or 3 and a message" % n)


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-ninth-core-"))
