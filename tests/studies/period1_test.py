#!/usr/bin/env python3
"""The forced impact oscillator's period-1 orbits against the mpmath reference.

    period1_test.py --nsmc NSMC --lib LIBS --include DIR [--cc CC] [--method M]

models/forced_impact_oscillator.nsm is run at every frequency of
tests/reference/data/forced_impact_oscillator.period1.csv (the fixed points
of the impact map, computed in closed form by
tests/reference/forced_impact_oscillator.py) with the impact section of its
stop and the phase measured in forcing periods.  After the model's 300
periods the last record must be the reference orbit: the speed just before
the impact (M.v) and the phase to 1e-10, M.x at the stop to 1e-12, one
impact per period over the last ten records, and the records' times one
period apart.
"""
import csv
import math
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from simbuild import build_sim, sim_parser  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(ROOT, "tests", "reference", "data", "forced_impact_oscillator.period1.csv")


def main():
    ap = sim_parser(__doc__.split("\n")[0])
    ap.add_argument("--method", default="exact")
    args = ap.parse_args()
    with open(DATA) as f:
        ref = [dict((k, float(v)) for k, v in r.items()) for r in csv.DictReader(f)]
    fails = 0
    with tempfile.TemporaryDirectory() as d:
        exe = build_sim(args, os.path.join(ROOT, "models", "forced_impact_oscillator.nsm"), d,
                        "fio")
        sec = os.path.join(d, "sec.csv")
        for r in ref:
            w = r["omega"]
            p = subprocess.run([exe, "--set", "omega=%r" % w, "--method", args.method,
                                "--section", "impact:stop", "--section-period", "2*pi/omega",
                                "--section-out", sec, "--events", os.path.join(d, "ev.csv")],
                               capture_output=True, text=True)
            if p.returncode != 0:
                print("FAIL omega = %g: exit %d: %s" % (w, p.returncode, p.stderr.strip()))
                fails += 1
                continue
            with open(sec) as f:
                rows = [[float(x) for x in row] for row in list(csv.reader(f))[1:]]
            T = 2 * math.pi / w
            last = rows[-1]
            dphase = abs(last[1] - r["phase"])
            dphase = min(dphase, 1 - dphase)
            du = abs(last[3] - r["u"])
            gaps = [b[0] - a[0] for a, b in zip(rows[-11:-1], rows[-10:])]
            one = all(abs(g - T) <= 1e-9 * T for g in gaps) and len(rows) >= 250
            ok = dphase <= 1e-10 and du <= 1e-10 and abs(last[2]) <= 1e-12 and one
            print("%s omega = %.2f: phase %.15f (ref %.15f, off %.2g), u %.15f (ref %.15f, off "
                  "%.2g), %d impacts" % ("ok  " if ok else "FAIL", w, last[1], r["phase"], dphase,
                                         last[3], r["u"], du, len(rows)))
            fails += not ok
    print("%d failed" % fails)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
