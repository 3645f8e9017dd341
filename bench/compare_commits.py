#!/usr/bin/env python3
"""Compares every model's events and trajectory between two checkouts of nsm
(not a test: it reports, it asserts nothing).

    python3 bench/compare_commits.py OLD_TREE OLD_BUILD NEW_TREE NEW_BUILD
                                     [--work DIR] [--models a,b] [--methods m,n]
                                     [--timeout S] [--dir FOLDER] [--args 'OPTIONS']

Each tree's nsmc compiles that tree's own models/*.nsm (or --dir's; the new tree's list;
a model the old tree lacks is reported as new), each simulator is compiled
with `cc -O2 -std=c11` against its tree's libnsmcli.a and libnsmrt.a, and
both are run at the model's defaults with each method (rk4, adaptive, exact,
taylor), writing the event log and the trajectory to files.  For every model
and method one line says:

  identical     both event logs and both trajectories are the same bytes;
  same events   the same events (kind, contact) in the same order, with the
                largest event-time difference and the largest trajectory
                difference relative to the column's largest magnitude;
  DIFFER        the event sequences part (where is printed);
  refused       both simulators refuse the method (the new one's message);
  ONE FAILS     one runs, the other stops (both messages).

A model whose .nsm differs between the trees is marked "(model edited)".
The build directories must hold nsmc, libnsmcli.a and libnsmrt.a (for
instance `cmake --build BUILD --target nsmc nsmcli nsmrt`).  Only the
standard library is used.
"""
import argparse
import os
import subprocess
import sys
import tempfile

CC = os.environ.get("CC", "cc")
METHODS = ["rk4", "adaptive", "exact", "taylor"]


def libs_of(build):
    """The libraries a simulator links from a build directory (and HDF5's)."""
    libs = [os.path.join(build, "libnsmcli.a"), os.path.join(build, "libnsmrt.a")]
    h5 = subprocess.run(["pkg-config", "--libs", "hdf5"], capture_output=True, text=True)
    if h5.returncode == 0:
        libs += h5.stdout.split()
    return libs + ["-lm", "-lpthread"]


def make_sim(tree, build, name, work, folder="models"):
    """nsmc then cc on tree's FOLDER/NAME.nsm; returns the executable or an error string."""
    model = os.path.join(tree, folder, name + ".nsm")
    if not os.path.exists(model):
        return None, "no such model in %s" % tree
    c = os.path.join(work, name + ".c")
    exe = os.path.join(work, name)
    r = subprocess.run([os.path.join(build, "nsmc"), model, "-o", c],
                       capture_output=True, text=True)
    if r.returncode != 0:
        return None, "nsmc: " + r.stderr.strip().splitlines()[0]
    r = subprocess.run([CC, "-O2", "-std=c11", c, "-I", os.path.join(tree, "runtime", "include")]
                       + libs_of(build) + ["-o", exe], capture_output=True, text=True)
    if r.returncode != 0:
        return None, "cc: " + r.stderr.strip()[-300:]
    return exe, None


def run_sim(exe, method, work, timeout, extra=()):
    """One run at the model's defaults (and the extra options); returns (rc, last stderr line, events path, traj path)."""
    ev = os.path.join(work, "%s.%s.events.csv" % (os.path.basename(exe), method))
    tr = os.path.join(work, "%s.%s.traj.csv" % (os.path.basename(exe), method))
    try:
        r = subprocess.run([exe, "--method", method, "--events", ev, "--out", tr] + list(extra),
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return -1, "timed out after %g s" % timeout, ev, tr
    lines = [ln for ln in r.stderr.strip().splitlines() if ln.strip()]
    msg = next((ln for ln in lines if "error" in ln), lines[-1] if lines else "")
    return r.returncode, msg, ev, tr


def read_csv(path):
    """(header, rows as lists of strings) of a CSV file, ([], []) if missing."""
    if not os.path.exists(path):
        return [], []
    with open(path) as f:
        lines = f.read().splitlines()
    if not lines:
        return [], []
    return lines[0].split(","), [ln.split(",") for ln in lines[1:]]


def num(s):
    """A float of a CSV cell, None when it is not a number."""
    try:
        return float(s)
    except ValueError:
        return None


def compare_events(old, new):
    """(verdict, largest |dt|, where) of two event logs' rows."""
    for i, (a, b) in enumerate(zip(old, new)):
        if a[1:3] != b[1:3]:
            return "DIFFER at event #%d: old %s %s at %s, new %s %s at %s" % (
                i + 1, a[1], a[2], a[0], b[1], b[2], b[0]), None, None
    if len(old) != len(new):
        return "DIFFER: %d events old, %d new" % (len(old), len(new)), None, None
    worst, at = 0.0, None
    for a, b in zip(old, new):
        ta, tb = num(a[0]), num(b[0])
        if ta is not None and tb is not None and abs(ta - tb) >= worst:
            if abs(ta - tb) > worst or at is None:
                worst, at = abs(ta - tb), "%s %s at %s" % (b[1], b[2], b[0])
    return "same events", worst, at


def compare_traj(hold, old, hnew, new):
    """(note, largest difference relative to the column's largest magnitude, column)."""
    if hold != hnew:
        return "header differs: old %s / new %s" % (hold, hnew), None, None
    if len(old) != len(new):
        return "%d rows old, %d new" % (len(old), len(new)), None, None
    worst, col = 0.0, None
    for j, name in enumerate(hnew):
        vals = [(num(a[j]), num(b[j])) for a, b in zip(old, new) if j < len(a) and j < len(b)]
        mag = max((abs(x) for x, _ in vals if x is not None), default=0.0) or 1.0
        for x, y in vals:
            if x is None or y is None:
                continue
            d = abs(x - y) / mag
            if d > worst:
                worst, col = d, name
    return "", worst, col


def same_bytes(p, q):
    """True when both files exist with the same bytes."""
    if not (os.path.exists(p) and os.path.exists(q)):
        return False
    with open(p, "rb") as f, open(q, "rb") as g:
        return f.read() == g.read()


def compare_run(name, method, old_exe, new_exe, wold, wnew, timeout, extra=()):
    """One model and method on both sides; returns the report's line."""
    rc0, m0, ev0, tr0 = run_sim(old_exe, method, wold, timeout, extra)
    rc1, m1, ev1, tr1 = run_sim(new_exe, method, wnew, timeout, extra)
    if rc0 != 0 and rc1 != 0:
        return "refused     (new: %s)" % m1 if rc1 == rc0 else \
            "both stop   (old rc %d: %s | new rc %d: %s)" % (rc0, m0, rc1, m1)
    if (rc0 != 0) != (rc1 != 0):
        return "ONE FAILS   (old rc %d: %s | new rc %d: %s)" % (rc0, m0, rc1, m1)
    if same_bytes(ev0, ev1) and same_bytes(tr0, tr1):
        return "identical   (%d events)" % len(read_csv(ev1)[1])
    _, e0 = read_csv(ev0)
    _, e1 = read_csv(ev1)
    verdict, worst, at = compare_events(e0, e1)
    if worst is None:
        return verdict
    note, tw, col = compare_traj(*read_csv(tr0), *read_csv(tr1))
    traj = note if note else "trajectory max rel diff %.2g (%s)" % (tw, col)
    return "same events (%d), max |dt| %.2g (%s); %s" % (len(e1), worst, at, traj)


def main():
    """Parses the arguments and prints one line per model and method."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("old_tree")
    ap.add_argument("old_build")
    ap.add_argument("new_tree")
    ap.add_argument("new_build")
    ap.add_argument("--work", help="work directory to keep (default: a temporary one)")
    ap.add_argument("--models", help="comma-separated model names (default: all)")
    ap.add_argument("--methods", default=",".join(METHODS))
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per run")
    ap.add_argument("--args", default="", help="options given to every run (--t-end 1 --dt 1e-3)")
    ap.add_argument("--dir", default="models",
                    help="the models' folder in both trees (default models; tests/validate/models "
                         "holds the validation's edge cases)")
    a = ap.parse_args()
    work = a.work or tempfile.mkdtemp(prefix="nsm-compare-")
    wold, wnew = os.path.join(work, "old"), os.path.join(work, "new")
    os.makedirs(wold, exist_ok=True)
    os.makedirs(wnew, exist_ok=True)
    models = a.models.split(",") if a.models else sorted(
        f[:-4] for f in os.listdir(os.path.join(a.new_tree, a.dir)) if f.endswith(".nsm"))
    for name in models:
        new_exe, err1 = make_sim(a.new_tree, a.new_build, name, wnew, a.dir)
        old_exe, err0 = make_sim(a.old_tree, a.old_build, name, wold, a.dir)
        if err1 or err0:
            print("%-26s -        %s" % (name, "new since the old tree" if err0 and "no such" in err0
                                         else "BUILD: old %s | new %s" % (err0, err1)), flush=True)
            continue
        edited = "" if same_bytes(os.path.join(a.old_tree, a.dir, name + ".nsm"),
                                  os.path.join(a.new_tree, a.dir, name + ".nsm")) \
            else " (model edited)"
        for method in a.methods.split(","):
            line = compare_run(name, method, old_exe, new_exe, wold, wnew, a.timeout,
                               a.args.split())
            print("%-26s %-8s %s%s" % (name, method, line, edited), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
