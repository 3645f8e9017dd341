#!/usr/bin/env python3
"""A twenty-second hostile pass over the generated simulators' command line
and outputs and the Python package (issue #29).

    tests/reliability/twentysecond_pass_py_test.py NSMC SIM SOURCE_DIR CASE

SIM is sim_bouncing_ball (sim_forced_impact_oscillator stands beside it).
Cases (each under 20 s in the normal build):
  findings_sparse  the simulator's --events, --out, --section-out (CSV) and
                   --out r.h5 of a run whose samples are far apart (--every
                   as long as the run), killed by SIGKILL 1.5 s after its
                   start, long after its last event: every file held 0
                   bytes (the HDF5 file no row), the landing, the Zeno
                   cascade's end and the sample at t = 0 lost.  The outputs
                   were written only from the run's own callbacks (a sample,
                   an event, a record), so lines that came before a long
                   quiet stayed in memory however old.  Now a flusher thread
                   writes every output whose lines have waited 0.25 s,
                   whether or not the run calls back.
  findings_empty   the simulator's --section '' (and --section=, --section
                   period:0.3 --section-period ''): exit 0 and an empty
                   section, as if nothing crossed it (an empty spec is the
                   runtime's "no section"); Model.section('') returned no
                   records and Model.sweep(section='') blamed t_max.  Now
                   refused: exit 1 naming the option, nothing written; a
                   SettingError saying the section is empty.
  findings_init    Model.run(init='05') ran from x = 0, v = 5 m/s (a text
                   taken digit by digit), init=bytes([1, 0]) from x = 1 and
                   a set in its hash order.  Now a ParameterError.
  findings_sweepempty  nsmc sweep --section '' ran the whole grid, then "no
                   point gave section records" blamed the t-max (exit 3);
                   --section-period '' left the phase nan, and with --plot
                   phase gnuplot failed after the grid; Model.basins(period=
                   '') ran, its phases nan (every other study refuses an
                   empty period).  Now refused before the grid, naming the
                   option; basins raises a SettingError.
  findings_lyapzero  the simulator's --lyapunov with --every 0 (the interval
                   defaults to the output period, here none): exit 3,
                   "simulation failed: lyapunov: the duration and the
                   reorthonormalisation interval must be positive times",
                   the trajectory CSV left with its header, where
                   Model.lyapunov(interval=0) is a SettingError.  Now an
                   option error (exit 1) naming --lyapunov-interval,
                   nothing written.
  kept_values      every numeric option of the simulator with NaN, inf,
                   hex floats, locale commas, empty and spaced values, 1e400,
                   subnormals: refused with a message naming the option, or
                   run; --set with units; the landing at sqrt(2 h/g) and the
                   Zeno cascade's end at t0 (1 + e)/(1 - e).
  kept_same        Python's Model.run and the simulator's HDF5 --out of the
                   same runs: the same bits (samples and events), and the
                   landing and the cascade's end by hand.
  kept_py          Model.run with odd settings, params and init: a result,
                   or an nsm.Error subclass with a message.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import math
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import (PY_EXPECT, check, env_for, main,  # noqa: E402
                     python_script, run)

NSMC, SIM = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
SRC = os.path.abspath(sys.argv[3])
BALL = os.path.join(SRC, "models", "bouncing_ball.nsm")

# the ball of models/bouncing_ball.nsm (m = 1 kg, g = 9.81 m/s^2, e = 0.9)
# dropped from 1 m: it lands at t0 = sqrt(2 h/g), each later flight is e
# times the one before, so the cascade ends at t0 (1 + 2e/(1 - e)) (by hand)
G, H, E = 9.81, 1.0, 0.9
T_LAND = math.sqrt(2 * H / G)
T_ZENO = T_LAND * (1 + E) / (1 - E)


def csv_rows(path):
    """The whole lines of a CSV file; fails when it ends inside a line."""
    with open(path, "rb") as f:
        data = f.read()
    check(not data or data.endswith(b"\n"), "%s ends at a line end (%d bytes)"
          % (os.path.basename(path), len(data)))
    return data.decode().splitlines()


def killed_sparse(tmp, outs, wait=1.5):
    """Runs the ball for 1e5 s sampled every 1e5 s (samples at 0 and at the
    end alone: its events and its first sample come in the run's first
    milliseconds, then nothing calls back for a minute) with outputs outs,
    and kills it by SIGKILL wait s after its start."""
    cmd = [SIM, "--t-end", "1e5", "--every", "1e5", "--max-steps", "2e8"] + outs
    pr = subprocess.Popen(cmd, cwd=tmp, env=env_for(tmp), stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL)
    time.sleep(wait)
    check(pr.poll() is None, "%s still running after %.1f s" % (" ".join(outs), wait))
    pr.send_signal(signal.SIGKILL)
    pr.wait()


def case_findings_sparse(tmp):
    for f in os.listdir(tmp):
        if f.endswith(".csv"):
            os.unlink(os.path.join(tmp, f))
    killed_sparse(tmp, ["--events", "ev.csv", "--out", "tr.csv", "--section", "impact:floor",
                        "--section-out", "sec.csv"])
    ev, tr, sec = (csv_rows(os.path.join(tmp, n)) for n in ("ev.csv", "tr.csv", "sec.csv"))
    print("  killed 1.5 s in: ev.csv %d lines, tr.csv %d, sec.csv %d" % (len(ev), len(tr), len(sec)))
    check(len(ev) >= 3 and ev[0].startswith("t,kind"),
          "events.csv holds its header and the events of the run's first milliseconds")
    first = ev[1].split(",")
    check(first[1] == "impact" and abs(float(first[0]) - T_LAND) < 1e-9,
          "the landing at sqrt(2 h/g) = %.9f s (got %s)" % (T_LAND, first[0]))
    zeno = [r.split(",") for r in ev[1:] if r.split(",")[1] == "zeno"]
    check(len(zeno) == 1 and abs(float(zeno[0][0]) - T_ZENO) < 1e-7,
          "the cascade's end at t0 (1 + e)/(1 - e) = %.9f s" % T_ZENO)
    check(len(tr) >= 2 and tr[0].startswith("t [s]") and
          [float(x) for x in tr[1].split(",")[:3]] == [0.0, H, 0.0],
          "the trajectory holds its header and the sample at t = 0 (x = 1 m, v = 0)")
    check(len(sec) >= 2 and abs(float(sec[1].split(",")[0]) - T_LAND) < 1e-9,
          "the section holds the landing's record")
    import glob
    import h5py
    for f in glob.glob(os.path.join(tmp, "r.h5*")):
        os.unlink(f)
    killed_sparse(tmp, ["--out", "r.h5", "--events", "/dev/null"])
    left = glob.glob(os.path.join(tmp, "r.h5*"))
    check(len(left) == 1, "one HDF5 file left by the kill (%s)" % [os.path.basename(x) for x in left])
    with h5py.File(left[0], "r") as f:
        traj, evs = f["trajectory"][:], f["events"][:]
    print("  killed 1.5 s in: %s: %d rows, %d events" % (os.path.basename(left[0]), len(traj), len(evs)))
    check(len(traj) >= 1 and list(traj[0][:3]) == [0.0, H, 0.0],
          "the HDF5 trajectory holds the sample at t = 0")
    check(len(evs) >= 2 and abs(evs[0]["t"] - T_LAND) < 1e-9,
          "the HDF5 events hold the landing at sqrt(2 h/g)")


def sim_refused(tmp, args, what):
    """Runs the ball's simulator with args: exit 1 with a message naming
    what, and no s.csv made."""
    path = os.path.join(tmp, "s.csv")
    if os.path.exists(path):
        os.unlink(path)
    p = run(tmp, [SIM, "--t-end", "1"] + args)
    last = (p.stderr.strip().splitlines() or [""])[0]
    print("  %-50s -> %d  %s" % (" ".join(repr(a) if not a else a for a in args), p.returncode,
                                  last[:110]))
    check(p.returncode == 1 and "error" in p.stderr and what in p.stderr and
          not os.path.exists(path), "%s refused (exit 1, naming %s, no file)" % (args, what), p)


def case_findings_empty(tmp):
    sim_refused(tmp, ["--section", "", "--section-out", "s.csv"], "--section")
    sim_refused(tmp, ["--section=", "--section-out=s.csv"], "--section")
    sim_refused(tmp, ["--section-out", "s.csv", "--section", ""], "--section")
    sim_refused(tmp, ["--section", "period:0.3", "--section-period", "", "--section-out", "s.csv"],
                "--section-period")
    sim_refused(tmp, ["--section", "period:0.3", "--section-period=", "--section-out", "s.csv"],
                "--section-period")
    # the section every 0.3 s, written (x = h - g t^2/2 at t = 0.3 s, by hand)
    p = run(tmp, [SIM, "--t-end", "1", "--section", "period:0.3", "--section-out", "s.csv"])
    rows = csv_rows(os.path.join(tmp, "s.csv"))
    x = float(rows[2].split(",")[2])
    print("  --section period:0.3: %d records, x(0.3) = %.12f" % (len(rows) - 1, x))
    check(p.returncode == 0 and len(rows) == 5 and abs(x - (H - G * 0.09 / 2)) < 1e-12,
          "--section period:0.3 records t = 0, 0.3, 0.6, 0.9 s, x(0.3) = h - g t^2/2", p)
    python_script(tmp, "empty.py", PY_EXPECT + """
import sys, nsm
m = nsm.compile(sys.argv[1])
for label, call in [
        ("section('')", lambda: m.section("")),
        ("section('', t_end=2)", lambda: m.section("", t_end=2)),
        ("sweep('e', [0.5], '')", lambda: m.sweep("e", [0.5], "", transient=0, record=1)),
        ("basins(section='')", lambda: m.basins(("B.x", 0.5, 1, 2), ("B.v", -1, 1, 2), "")),
        ("basins(x coordinate '')", lambda: m.basins(("", 0.5, 1, 2), ("B.v", -1, 1, 2),
                                                     "impact:floor")),
]:
    try:
        expect(label, call, ("SettingError",))
    except AssertionError:
        raise
    except nsm.Error:
        raise
print("empty section refused in", n, "calls")
rec = m.section("impact:floor", t_end=1)
assert rec.shape[0] == 1 and abs(rec[0, 0] - T_LAND) < 1e-9, rec
print("section('impact:floor', t_end=1): the landing at", rec[0, 0])
""".replace("T_LAND", repr(T_LAND)), [BALL], "an empty section refused by every study")


def case_findings_init(tmp):
    python_script(tmp, "init.py", PY_EXPECT + """
import sys, nsm
m = nsm.compile(sys.argv[1])
for label, init in [("'05'", "05"), ("'10'", "10"), ("bytes 1 0", bytes([1, 0])),
                    ("bytearray 1 0", bytearray([1, 0])), ("{1.0, 0.0}", {1.0, 0.0}),
                    ("frozenset", frozenset([0.5, 0.0]))]:
    expect("run(init=%s)" % label, lambda: m.run(t_end=0.1, init=init), ("ParameterError",))
    expect("section(init=%s)" % label, lambda: m.section("impact:floor", t_end=1, init=init),
           ("ParameterError",))
# the state as a list, a tuple and a dict: a drop from 0.5 m lands at sqrt(2 h/g)
for init in ([0.5, 0.0], (0.5, 0.0), {"B.x": 0.5}, iter([0.5, 0.0])):
    r = m.run(t_end=1, init=init)
    t = r.events["t"][0]
    assert abs(t - (2 * 0.5 / G_HERE) ** 0.5) < 1e-9, (init, t)
    print("  run(init=%s): lands at %.12f s" % (type(init).__name__, t))
""".replace("G_HERE", repr(G)), [BALL], "init as a text, bytes or a set refused")


# numeric option values: refused (exit 1 with "bad value" or another
# error naming the cause) or run; (option, value, "run" | "bad")
ODD_VALUES = ["nan", "NaN", "inf", "-inf", "0x1p-3", "0,5", "", "1 ", "1e", "0x10", "1_0",
              "1e400", "\u0661"]
NUMERIC = ["--t-end", "--dt", "--every", "--energy-tol", "--max-event-rate", "--max-steps",
           "--events-max", "--max-impacts", "--lyapunov-interval"]


def sim_tried(tmp, args):
    """Runs the ball's simulator (its outputs to /dev/null) with args;
    prints the outcome; the CompletedProcess.  Fails on an end other than
    0, 1 or 3, or a refusal without 'error'."""
    p = run(tmp, [SIM, "--out", "/dev/null", "--events", "/dev/null"] + args)
    last = (p.stderr.strip().splitlines() or [""])[0]
    print("  %-46s -> %d  %s" % (" ".join(repr(a) if not a or " " in a else a for a in args)[:46],
                                  p.returncode, last[:100]))
    check(p.returncode in (0, 1, 3) and (p.returncode == 0 or "error" in p.stderr),
          "%s: exit 0, 1 or 3, a refusal with a message" % args, p)
    return p


def case_kept_values(tmp):
    for opt in NUMERIC:
        for v in ODD_VALUES:
            p = sim_tried(tmp, ["--t-end", "1", opt, v] if opt != "--t-end" else [opt, v])
            check(p.returncode == 1 and "bad value" in p.stderr and opt in p.stderr,
                  "%s %r refused naming the option" % (opt, v), p)
    for args, ok in [(["--t-end", "1e-300"], 0), (["--t-end", "4.9e-324"], 1),
                     (["--t-end", "1e300"], 1), (["--dt", "1e-300"], 1), (["--dt", "1e300"], 0),
                     (["--every", "1e-300"], 1), (["--every", "1e300"], 0),
                     (["--energy-tol", "-0"], 0), (["--max-event-rate", "-0"], 1),
                     (["--max-steps", "0.5"], 1), (["--events-max", "-0"], 0),
                     (["--t-end", " 1"], 0), (["--t-end", "+1"], 0), (["--t-end", "1."], 0)]:
        p = sim_tried(tmp, args)
        check(p.returncode == ok, "%s: exit %d" % (args, ok), p)
    # --set with units: the landing at sqrt(2 h/g) for each g given
    for val, g in [("g=9.81 m/s^2", G), ("g=981 cm/s^2", G), ("g=1 km/s^2", 1000.0),
                   ("g=9.81 um/ms^2", G), ("g=9.81 m*s^-2", G), ("g=9.81 N/kg", G)]:
        p = run(tmp, [SIM, "--t-end", "1", "--set", val, "--out", "/dev/null", "--events", "-"])
        t = float(p.stdout.splitlines()[1].split(",")[0])
        print("  --set %-20s lands at %.12f s" % (repr(val), t))
        check(p.returncode == 0 and abs(t - math.sqrt(2 * H / g)) < 1e-9,
              "--set %r: the landing at sqrt(2 h/g)" % val, p)
    for val in ["g=9.81 m/s2", "g=1 g", "m=1 lb", "e=0.5 m", " e=0.5", "e=", "=0.5", "e==0.5",
                "g=-9.81", "e=nan"]:
        p = sim_tried(tmp, ["--t-end", "1", "--set", val])
        check(p.returncode == 1, "--set %r refused" % val, p)
    # the cascade's end at t0 (1 + e)/(1 - e) whatever rk4's step
    for dt in ["1e300", "0.5", "0.001", "0"]:
        p = run(tmp, [SIM, "--dt", dt, "--out", "/dev/null", "--events", "-"])
        z = [r.split(",") for r in p.stdout.splitlines()[1:] if ",zeno," in r]
        print("  --dt %-8s the cascade ends at %s s" % (dt, z[0][0] if z else "?"))
        check(p.returncode == 0 and len(z) == 1 and abs(float(z[0][0]) - T_ZENO) < 1e-9,
              "--dt %s: the cascade's end at t0 (1 + e)/(1 - e)" % dt, p)


def case_kept_same(tmp):
    python_script(tmp, "same.py", """
import subprocess, sys
import h5py, nsm, numpy as np
sim, ball = sys.argv[1], sys.argv[2]
m = nsm.compile(ball)
for args, kw in [(["--t-end", "3", "--every", "0.01"], dict(t_end=3, every=0.01)),
                 (["--t-end", "3", "--every", "0", "--method", "exact"],
                  dict(t_end=3, every=0, method="exact")),
                 (["--t-end", "2", "--set", "e=0.5", "--method", "adaptive", "--rtol", "1e-6"],
                  dict(t_end=2, params={"e": 0.5}, method="adaptive", rtol=1e-6)),
                 (["--t-end", "1", "--every", "0.3"], dict(t_end=1, every=0.3))]:
    r = m.run(**kw)
    subprocess.run([sim] + args + ["--out", "o.h5", "--events", "/dev/null"], check=True,
                   capture_output=True)
    with h5py.File("o.h5", "r") as f:
        tr, ev = f["trajectory"][:], f["events"][:]
    same = tr.shape == (len(r.t), 1 + len(r.columns)) and np.array_equal(tr[:, 0], r.t) and \
        all(np.array_equal(tr[:, k + 1], r[c]) for k, c in enumerate(r.columns)) and \
        len(ev) == len(r.events) and np.array_equal(ev["t"], r.events["t"])
    print("  %-58s %d samples, %d events, same bits: %s" % (" ".join(args), len(r.t),
                                                           len(r.events), same))
    assert same, args
    assert abs(r.events["t"][0] - T_LAND) < 1e-9, r.events["t"][0]
""".replace("T_LAND", repr(T_LAND)), [SIM, BALL], "Python and the simulator's HDF5 file agree")


def case_kept_py(tmp):
    python_script(tmp, "py.py", PY_EXPECT + """
import fractions, pickle, sys
import nsm, numpy as np
m = nsm.compile(sys.argv[1])
E = ("ParameterError", "SettingError", "ColumnError", "SimulationError", "CompileError")
for label, call, want in [
        ("compile('/dev/null')", lambda: nsm.compile("/dev/null"), ("CompileError",)),
        ("compile(NUL in the name)", lambda: nsm.compile("a" + chr(0) + "b.nsm"),
         ("CompileError",)),
        ("compile_source('')", lambda: nsm.compile_source(""), ("CompileError",)),
        ("compile_source(5)", lambda: nsm.compile_source(5), ("CompileError",)),
        ("Model('')", lambda: nsm.Model(""), ("CompileError",)),
        ("r[0]", lambda: m.run(t_end=1)[0], ("ColumnError",)),
        ("r['t']", lambda: m.run(t_end=1)["t"], ("ColumnError",)),
        ("run(t_end=[1])", lambda: m.run(t_end=[1]), ("SettingError",)),
        ("run(t_end=10**400)", lambda: m.run(t_end=10 ** 400), ("SettingError",)),
        ("run(t_end=True)", lambda: m.run(t_end=True), ("SettingError",)),
        ("run(t_end=Fraction(1, 3))", lambda: m.run(t_end=fractions.Fraction(1, 3)), ("ok",)),
        ("run(method=b'rk4')", lambda: m.run(method=b"rk4"), ("SettingError",)),
        ("run(method='taylor')", lambda: m.run(method="taylor"), ("SettingError",)),
        ("run(params={'e': '0x1p-1'})", lambda: m.run(params={"e": "0x1p-1"}), ("ParameterError",)),
        ("run(params={'e': '0,5'})", lambda: m.run(params={"e": "0,5"}), ("ParameterError",)),
        ("run(params={'g': '9.81 m/s^2'})", lambda: m.run(params={"g": "9.81 m/s^2"}),
         ("ok",)),                           # a unit converted as --set does
        ("run(params={'g': '9.81 m/s'})", lambda: m.run(params={"g": "9.81 m/s"}),
         ("ParameterError",)),               # the wrong dimension
        ("run(params={'m': 1e-320})", lambda: m.run(params={"m": 1e-320}), ("ParameterError",)),
        ("run(params={'g': 1e308})", lambda: m.run(params={"g": 1e308}), ("SimulationError",)),
        ("run(init=[[1, 0]])", lambda: m.run(init=[[1, 0]]), ("ParameterError",)),
        ("run(init={'B.x': -1})", lambda: m.run(init={"B.x": -1}), ("ParameterError",)),
        ("run(max_steps=1e19)", lambda: m.run(max_steps=1e19), ("SettingError",)),
        ("run(max_event_rate=inf)", lambda: m.run(max_event_rate=float("inf")), ("SettingError",)),
        ("run(zeno=None)", lambda: m.run(zeno=None), ("SettingError",)),
        ("run(rtol=0, method='adaptive')", lambda: m.run(rtol=0, method="adaptive"),
         ("SettingError",)),
        ("section('period:1e-300')", lambda: m.section("period:1e-300"), ("SettingError",)),
        ("section('plane:B.x*B.x')", lambda: m.section("plane:B.x*B.x"), ("SettingError",)),
        ("sweep('e', [])", lambda: m.sweep("e", [], "impact:floor"), ("SettingError",)),
        ("sweep('e', [0.5, 2])", lambda: m.sweep("e", [0.5, 2], "impact:floor"),
         ("ParameterError",)),
        ("sweep('e', [0.5], transient=1.5)", lambda: m.sweep("e", [0.5], "impact:floor",
                                                             transient=1.5), ("SettingError",)),
        ("continuation('e', 0.5, 0.6)", lambda: m.continuation("e", 0.5, 0.6), ("SettingError",)),
]:
    expect(label, call, want)
r = pickle.loads(pickle.dumps(m.run(t_end=1)))
assert abs(r.events["t"][0] - T_LAND) < 1e-9
# one Model across parameter changes: each run takes its own, the next the defaults again
for e in (0.5, None, 0.0, None):
    r = m.run(t_end=2, params=None if e is None else {"e": e})
    v = r.events["vrel_after"][0]
    want = (0.9 if e is None else e) * (2 * 9.81) ** 0.5
    print("  e = %-4s rebound %.12f m/s (e sqrt(2 g h) = %.12f)" % (e, v, want))
    assert abs(v - want) < 1e-9, (e, v)
print(n, "calls")
""".replace("T_LAND", repr(T_LAND)), [BALL], "odd settings: a result or an nsm.Error")


FIO = os.path.join(SRC, "models", "forced_impact_oscillator.nsm")


def case_findings_sweepempty(tmp):
    base = [NSMC, "sweep", FIO, "--param", "omega=2.5:2.5:1", "--transient", "5", "--record", "3"]
    for k, extra in enumerate([["--section", ""], ["--section="],
                               ["--section", "impact:stop", "--section-period", ""],
                               ["--section", "impact:stop", "--section-period=", "--plot", "phase"]]):
        out = os.path.join(tmp, "sw%d" % k)
        p = run(tmp, base + extra + ["--out-dir", out])
        last = (p.stderr.strip().splitlines() or [""])[-1]
        print("  nsmc sweep ... %-50s -> %d  %s" % (" ".join(repr(a) if not a else a for a in extra),
                                                     p.returncode, last[:100]))
        opt = "--section-period" if "period" in " ".join(extra) else "--section"
        check(p.returncode == 1 and opt + " needs" in p.stderr and
              not os.path.exists(os.path.join(out, "summary.csv")),
              "nsmc sweep %s refused before the grid" % extra, p)
    # the forced impact oscillator's section with its period: phases in [0, 1)
    out = os.path.join(tmp, "swok")
    p = run(tmp, base + ["--section", "impact:stop", "--section-period", "2*pi/omega",
                         "--out-dir", out])
    rows = csv_rows(os.path.join(out, "section.csv"))[1:]
    phases = [float(r.split(",")[2]) for r in rows]
    print("  nsmc sweep with --section-period 2*pi/omega: %d records, phases %s"
          % (len(rows), ["%.6f" % x for x in phases]))
    check(p.returncode == 0 and len(rows) == 3 and all(0 <= x < 1 for x in phases),
          "the section with its period: 3 records, phases in [0, 1)", p)
    python_script(tmp, "basins.py", PY_EXPECT + """
import sys, nsm
m = nsm.compile(sys.argv[1])
expect("basins(period='')", lambda: m.basins(("M.x", -1, -0.1, 2), ("M.v", -1, 1, 2),
                                              "impact:stop", period="", transient=5, record=3),
       ("SettingError",))
""", [FIO], "Model.basins(period='') refused")


def case_findings_lyapzero(tmp):
    fio_sim = os.path.join(os.path.dirname(SIM), "sim_forced_impact_oscillator")
    for args in (["--every", "0"], ["--every=0"], ["--every", "0", "--lyapunov-transient", "5"]):
        for f in ("lo.csv", "ly.csv"):
            if os.path.exists(os.path.join(tmp, f)):
                os.unlink(os.path.join(tmp, f))
        p = run(tmp, [fio_sim, "--lyapunov", "--t-end", "50", "--out", "lo.csv",
                      "--lyapunov-out", "ly.csv", "--events", "/dev/null"] + args)
        last = (p.stderr.strip().splitlines() or [""])[-1]
        print("  --lyapunov %-40s -> %d  %s" % (" ".join(args), p.returncode, last[:100]))
        check(p.returncode == 1 and "--lyapunov-interval" in p.stderr and
              not os.path.exists(os.path.join(tmp, "lo.csv")) and
              not os.path.exists(os.path.join(tmp, "ly.csv")),
              "--lyapunov %s refused as an option error, nothing written" % args, p)
    # with an interval: the two exponents of the damped oscillator between
    # impacts sum to -c/m over a stretch without impacts (t_end 0.5 s, before
    # the first impact of models/forced_impact_oscillator.nsm: c/m = 0.1 1/s)
    p = run(tmp, [fio_sim, "--lyapunov", "--every", "0", "--lyapunov-interval", "0.1",
                  "--t-end", "0.5", "--events", "/dev/null"])
    lam = [float(r.split(",")[1]) for r in p.stdout.splitlines()[1:]]
    print("  --lyapunov --every 0 --lyapunov-interval 0.1 --t-end 0.5: %s" % lam)
    check(p.returncode == 0 and len(lam) == 2 and abs(sum(lam) + 0.1) < 1e-9,
          "with --lyapunov-interval the exponents sum to -c/m", p)


CASES = {"findings_sparse": case_findings_sparse, "findings_empty": case_findings_empty,
         "findings_init": case_findings_init, "kept_values": case_kept_values,
         "findings_sweepempty": case_findings_sweepempty,
         "findings_lyapzero": case_findings_lyapzero,
         "kept_same": case_kept_same, "kept_py": case_kept_py}

if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-p22py-", case_arg=4))
