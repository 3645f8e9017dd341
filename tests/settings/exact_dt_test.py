#!/usr/bin/env python3
"""The model's `simulate dt` does not cap the exact method's steps.

    exact_dt_test.py SIMULATOR   (the two_mass simulator: dt = 1 ms, output every 10 ms)

exact solves each linear mode in closed form and takes each mode's own
steps; the model's dt is rk4's step and the default output period.  Run with
--method exact, two_mass must take a few dozen steps (it took 20,002 when
the model's dt capped them), still write one sample every 10 ms over 20 s
(2001 rows), and land its events where the run with the steps capped by an
explicit --dt 1e-3 lands them (the validation test two_mass_a checks both
against the independent reference).  An explicit --dt still caps exact, and
so does the model's dt while the step-by-step audit runs (--summary): the
audit's split by element and its sums are sampled at step ends.
"""
import csv
import os
import re
import subprocess
import sys
import tempfile

SUMMARY = re.compile(r"(\d+) events, (\d+) steps, t = (\S+) s, method (\w+)")


def run(sim, tmp, tag, *extra):
    """Runs the simulator; returns (steps, sample rows, event times)."""
    traj, ev = os.path.join(tmp, tag + ".csv"), os.path.join(tmp, tag + ".events.csv")
    p = subprocess.run([sim, "--method", "exact", "--out", traj, "--events", ev, *extra],
                       capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        sys.exit("FAIL: %s exited %d: %s" % (tag, p.returncode, p.stderr))
    m = SUMMARY.search(p.stderr)
    if not m or m.group(4) != "exact":
        sys.exit("FAIL: %s: no summary line in %r" % (tag, p.stderr))
    with open(traj) as f:
        rows = list(csv.reader(f))[1:]
    with open(ev) as f:
        times = [float(r["t"]) for r in csv.DictReader(f)]
    return int(m.group(2)), rows, times


def main():
    sim = sys.argv[1]
    fails = []
    with tempfile.TemporaryDirectory() as tmp:
        steps, rows, times = run(sim, tmp, "own")
        capped, crows, ctimes = run(sim, tmp, "capped", "--dt", "1e-3")
        audited, _, _ = run(sim, tmp, "audited", "--summary")
    if steps > 200:
        fails.append("exact took %d steps: the model's dt still caps them" % steps)
    if capped < 20000:
        fails.append("--dt 1e-3 no longer caps exact (%d steps over 20 s)" % capped)
    if audited < 20000:
        fails.append("with --summary the model's dt no longer sets exact's steps (%d), "
                     "the audit's resolution" % audited)
    if len(rows) != 2001 or abs(float(rows[1][0]) - 0.01) > 1e-15:
        fails.append("samples: %d rows, second at %s; expected 2001, every 10 ms"
                     % (len(rows), rows[1][0] if len(rows) > 1 else "-"))
    if len(times) != len(ctimes) or any(abs(a - b) > 1e-12 for a, b in zip(times, ctimes)):
        fails.append("event times differ from the capped run's: %s vs %s" % (times, ctimes))
    worst = max(abs(float(a) - float(b)) for r, c in zip(rows, crows) for a, b in zip(r, c))
    if worst > 1e-10:
        fails.append("samples differ from the capped run's by %.3g" % worst)
    for f in fails:
        print("FAIL: " + f)
    if not fails:
        print("ok: exact took %d steps (%d with --dt 1e-3), %d samples, %d events"
              % (steps, capped, len(rows), len(times)))
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
