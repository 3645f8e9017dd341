#!/usr/bin/env python3
"""A twenty-second hostile pass over the generated simulators' command line
and outputs and the Python package (issue #29).

    tests/reliability/twentysecond_pass_py_test.py NSMC SIM SOURCE_DIR CASE

SIM is sim_bouncing_ball.  Cases (each under 20 s in the normal build):
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
from passlib import (Failure, PY_EXPECT, check, env_for, main,  # noqa: E402
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


CASES = {"findings_sparse": case_findings_sparse, "findings_empty": case_findings_empty,
         "findings_init": case_findings_init}

if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-p22py-", case_arg=4))
