#!/usr/bin/env python3
"""What the model's `simulate dt` does to the exact method, and that it says so.

    exact_dt_test.py SIMULATOR   (the two_mass simulator: dt = 1 ms, output every 10 ms)

exact solves each linear mode in closed form and needs no step cap, but the
model's dt (rk4's step, the default output period) caps its steps: two_mass
with exact takes 20,002 steps where each mode's own take 12.  The cap stays
(the core's event search is not yet safe on every model without it, see
docs/runtime.md), and the simulator says so in one `note:` line naming
--dt 0; no note with rk4, with --dt given, or when the cap did not bind.
With --dt 0 the run takes a few dozen steps, still writes one sample every
10 ms over 20 s (2001 rows), and lands its events where the capped run lands
them (validation test two_mass_a checks the latter against the independent
reference).
"""
import csv
import os
import re
import subprocess
import sys
import tempfile

SUMMARY = re.compile(r"(\d+) events?, (\d+) steps?, t = (\S+) s, method (\w+)")
NOTE = "note: the model's dt = 0.001 s capped exact's steps (20002 steps); exact needs no cap: " \
       "--dt 0 lets each mode take its own"


def run(sim, tmp, tag, *extra):
    """Runs the simulator; returns (steps, sample rows, event times, stderr)."""
    traj, ev = os.path.join(tmp, tag + ".csv"), os.path.join(tmp, tag + ".events.csv")
    p = subprocess.run([sim, "--out", traj, "--events", ev, *extra],
                       capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        sys.exit("FAIL: %s exited %d: %s" % (tag, p.returncode, p.stderr))
    m = SUMMARY.search(p.stderr)
    if not m:
        sys.exit("FAIL: %s: no summary line in %r" % (tag, p.stderr))
    with open(traj) as f:
        rows = list(csv.reader(f))[1:]
    with open(ev) as f:
        times = [float(r["t"]) for r in csv.DictReader(f)]
    return int(m.group(2)), rows, times, p.stderr


def main():
    sim = sys.argv[1]
    fails = []
    with tempfile.TemporaryDirectory() as tmp:
        capped, crows, ctimes, cerr = run(sim, tmp, "capped", "--method", "exact")
        own, rows, times, oerr = run(sim, tmp, "own", "--method", "exact", "--dt", "0")
        _, _, _, gerr = run(sim, tmp, "given", "--method", "exact", "--dt", "1e-3")
        _, _, _, rerr = run(sim, tmp, "rk4")
    if NOTE not in cerr:
        fails.append("the model's dt capped exact (%d steps) without the note: %r"
                     % (capped, cerr))
    for what, err in (("--dt 0", oerr), ("--dt 1e-3", gerr), ("rk4", rerr)):
        if "note:" in err:
            fails.append("a note with %s: %r" % (what, err))
    if own > 200:
        fails.append("exact with --dt 0 took %d steps" % own)
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
        print("ok: exact took %d steps under the model's dt, with the note; %d with --dt 0, "
              "%d samples, %d events" % (capped, own, len(rows), len(times)))
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
