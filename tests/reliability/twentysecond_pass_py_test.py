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


CASES = {"findings_sparse": case_findings_sparse}

if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-p22py-", case_arg=4))
