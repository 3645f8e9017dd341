"""Cost of the impact laws on touching trains against the train's length.

usage: python3 bench/train_bench.py [--nsmc build/nsmc] [--build build]
                                    [--law sequential|simultaneous|energetic]
                                    [--exponent X] [--e E] [--n N ..] [--callgrind]

N equal beads (1 kg, weak springs to the ground), all touching, the last
struck at 1 m/s, e = 0.95 (issue #25; --e for another restitution); one
instant's impacts and a 1 ms run.  The energetic law's contacts all have stiffness 1 (only ratios
enter) and force exponent --exponent (default 1.5, Hertz).  Prints, per N, the pair collisions (sequential) or contacts solved
(simultaneous), the simulator's CPU time and the time per collision, and
the exponents fitted (least squares in log-log, from N = 100 up) to the time and to the
time per collision against N.  With --callgrind the cost is the simulator's
instruction count under valgrind's callgrind (steady on a shared machine, where
CPU seconds are not) instead of its CPU seconds.  Numbers in
docs/performance.md.
"""
import argparse
import math
import os
import re
import resource
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "contacts"))
import train  # noqa: E402  (the tests' model of the train)


def fit(xs, ys):
    """Slope of log y against log x (least squares)."""
    lx = [math.log(x) for x in xs]
    ly = [math.log(y) for y in ys]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / sum((a - mx) ** 2 for a in lx)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nsmc", default="build/nsmc")
    ap.add_argument("--build", default="build")
    ap.add_argument("--law", default="sequential")
    ap.add_argument("--exponent", type=float, default=1.5)
    ap.add_argument("--e", type=float, default=0.95)
    ap.add_argument("--n", type=int, action="append")
    ap.add_argument("--callgrind", action="store_true")
    a = ap.parse_args()
    sizes = a.n or {"sequential": [50, 100, 200, 400, 1000], "energetic": [10, 30, 100, 300, 1000]}.get(
        a.law, [1000, 2000, 5000, 10000])
    libs = [os.path.join(a.build, "libnsmcli.a"), os.path.join(a.build, "libnsmrt.a")]
    libs += subprocess.run(["pkg-config", "--libs", "hdf5"], stdout=subprocess.PIPE,
                           text=True).stdout.split()
    args = argparse.Namespace(nsmc=a.nsmc, include="runtime/include", lib=":".join(libs), cc="cc",
                              cflags="-O2")
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for n in sizes:
            exe = train.build(args, train.model_text(n, a.e, a.law, exponent=a.exponent if a.law ==
                                                     "energetic" else None), work, "t%d" % n)
            cmd = [exe, "--events-max", "0"]
            if a.callgrind:
                cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + cmd
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
            if a.callgrind:
                cpu = float(re.search(r"Collected : (\d+)", p.stdout).group(1))
            m = re.search(r"(\d+) events, ", p.stdout)
            count = int(m.group(1)) if m else 0
            rows.append((n, count, cpu))
            unit = "instr" if a.callgrind else "s"
            print("%-12s e = %.2f N = %6d  %10d impact records  %10.4g %s  %8.3g %s per record"
                  % (a.law, a.e, n, count, cpu, unit, cpu / max(count, 1), unit), flush=True)
    big = [r for r in rows if r[0] >= 100]         # below, start-up dominates
    rows = big if len(big) > 1 else rows
    if len(rows) > 1:
        ns = [r[0] for r in rows]
        print("fitted exponents: records ~ N^%.2f, time ~ N^%.2f, time per record ~ N^%.2f"
              % (fit(ns, [max(r[1], 1) for r in rows]), fit(ns, [max(r[2], 1e-6) for r in rows]),
                 fit(ns, [max(r[2], 1e-6) / max(r[1], 1) for r in rows])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
