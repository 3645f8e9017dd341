"""The scaffolding the tests/lagrange/check_*.py scripts share, written once:
their command line, reporting each check, reading the simulator's CSV,
building a model's simulator against the runtime, running it, and the
comparisons of trajectory rows with a reference's samples.  What each
script checks, and its references, stay in the script.
"""
import argparse
import csv
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
REF_DATA = os.path.join(ROOT, "tests", "reference", "data")
MODELS = os.path.join(ROOT, "models")
FAILS = []


def check(cond, what):
    """Print one check's outcome; a failure is remembered for finish()."""
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        FAILS.append(what)


def finish():
    """Exit non-zero when any check failed."""
    if FAILS:
        sys.exit("%d check(s) failed" % len(FAILS))


def arguments(methods):
    """The scripts' command line: --nsmc, --include, --lib A:B:.., --cc,
    --cflags and --method, one of methods."""
    ap = argparse.ArgumentParser()
    for k in ("--nsmc", "--include", "--lib"):
        ap.add_argument(k, required=True)
    ap.add_argument("--cc", default="cc")
    ap.add_argument("--cflags", default="-O2")
    ap.add_argument("--method", required=True, choices=sorted(methods))
    return ap.parse_args()


def read(path):
    """A CSV file's rows as dicts, the units dropped from the column names."""
    with open(path) as f:
        return [{k.split(" [")[0]: v for k, v in r.items()} for r in csv.DictReader(f)]


def floats(rows):
    """Rows of read() with every value a float."""
    return [{k: float(v) for k, v in r.items()} for r in rows]


def model_path(name):
    """NAME.nsm: a test model beside the scripts, else the one in models/."""
    path = os.path.join(HERE, name + ".nsm")
    return path if os.path.exists(path) else os.path.join(MODELS, name + ".nsm")


def build(a, work, path):
    """The simulator of the model file path, compiled in work."""
    name = os.path.splitext(os.path.basename(path))[0]
    c, exe = os.path.join(work, name + ".c"), os.path.join(work, name)
    subprocess.run([a.nsmc, path, "-o", c], check=True)
    subprocess.run([a.cc] + a.cflags.split() + [c, "-I", a.include] + a.lib.split(os.pathsep) +
                   ["-lm", "-o", exe], check=True)
    return exe


def run(exe, opts):
    """Run the simulator with --summary and opts: its standard output (the
    test stops when it fails)."""
    p = subprocess.run([exe, "--summary"] + opts, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if p.returncode != 0:
        sys.exit("simulator failed: " + p.stderr)
    return p.stdout


def balance(summary):
    """The energy balance's error relative to the largest energy, read from
    the summary (infinity when it is not there)."""
    m = re.search(r"relative to the largest energy\s+(\S+)", summary)
    return float(m.group(1)) if m else float("inf")


def section(path, num=float):
    """The records of a Poincare section file, each a list of numbers."""
    with open(path) as f:
        return [[num(v) for v in row] for row in list(csv.reader(f))[1:]]


def rows_at(rows, t, tol):
    """The rows (floats()) within tol of time t."""
    return [q for q in rows if abs(float(q["t"]) - t) <= tol]


def sample_error(rows, ref, cols):
    """The largest error, relative to max(1, |value|), of the columns cols
    of rows (floats()) at the reference's samples ref (read()); a missing
    row fails a check.  Returns (worst, the rows matched)."""
    worst, matched = 0.0, []
    for r in ref:
        t = float(r["t"])
        s = [q for q in rows if abs(q["t"] - t) < 1e-12]
        if not s:
            check(False, "a trajectory row at t = %g" % t)
            continue
        for col in cols:
            worst = max(worst, abs(s[-1][col] - float(r[col])) / max(1.0, abs(float(r[col]))))
        matched.append(s[-1])
    return worst, matched


def simulate(exe, opts, work, every, contact):
    """Run with an impact section on contact: the events, the state before
    each impact (the section, full precision), the trajectory every `every`
    seconds (0: every step) and the balance's error relative to the
    largest energy."""
    ev, out, sec = (os.path.join(work, f) for f in ("ev.csv", "out.csv", "sec.csv"))
    summary = run(exe, ["--events", ev, "--out", out, "--every", every, "--section",
                        "impact:" + contact, "--section-out", sec] + opts)
    return read(ev), section(sec), read(out), balance(summary)
