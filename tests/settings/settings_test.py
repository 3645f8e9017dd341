#!/usr/bin/env python3
"""`simulate` and `output every` follow --set of the parameters they use.

    settings_test.py --nsmc NSMC --lib LIBNSMCLI:LIBNSMRT[:...] --include DIR [--cc CC]

tests/settings/stroboscope.nsm samples once per forcing period 2 pi/omega
and runs ten periods.  Run with the default omega = 1 and with --set
omega=2, the sample times must be k 2 pi/omega (k = 0..10) and the run must
end at 20 pi/omega; before the output period was evaluated at run time, the
second run kept sampling every 2 pi s and ran to 20 pi s.  The expected
times are computed here from omega, not taken from a run.
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


def main():
    ap = sim_parser(__doc__.split("\n")[0])
    args = ap.parse_args()
    failures = 0
    with tempfile.TemporaryDirectory() as d:
        exe = build_sim(args, os.path.join(HERE, "stroboscope.nsm"), d)
        for omega in (1.0, 2.0, 0.5):
            out = os.path.join(d, "traj.csv")
            cmd = [exe, "--out", out, "--events", os.path.join(d, "ev.csv")]
            if omega != 1.0:
                cmd += ["--set", "omega=%r" % omega]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                print("FAIL omega = %g: exit %d: %s" % (omega, r.returncode, r.stderr.strip()))
                failures += 1
                continue
            with open(out) as f:
                t = [float(row[0]) for row in list(csv.reader(f))[1:]]
            period = 2 * math.pi / omega
            want = [k * period for k in range(11)]
            ok = len(t) == len(want) and all(abs(a - b) <= 1e-9 * (1 + b) for a, b in zip(t, want))
            print("%s omega = %g: %d samples, last at %.12g s (want 11, last at %.12g s)"
                  % ("ok  " if ok else "FAIL", omega, len(t), t[-1] if t else float("nan"), want[-1]))
            failures += not ok
    print("%d failed" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
