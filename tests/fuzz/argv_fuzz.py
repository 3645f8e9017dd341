#!/usr/bin/env python3
"""Fuzzes a generated simulator's command line (argv).

    tests/fuzz/argv_fuzz.py SIM SECONDS SEED

Builds argument vectors from the simulator's options (read from --help),
values that probe the parser's edges (empty, NaN, inf, 1e308, -0, huge
integers, hex, trailing junk, very long strings, names that do not exist)
and mutations of both, and runs SIM on each for SECONDS in all (a fixed
number of runs when SECONDS is 0: the deterministic ctest).  Each run must
end by itself within 20 s with exit status 0, 1 (a refused argument, with
a message) or 3 (a failed simulation, with a message): a signal (a crash),
another status, a hang or a silent refusal fails it.  Outputs go to a
scratch folder.  A failing argv is printed as a Python list to replay.
"""
import os
import random
import re
import subprocess
import sys
import tempfile
import time

SIM = os.path.abspath(sys.argv[1])
SECONDS = float(sys.argv[2])
SEED = int(sys.argv[3])
RUNS = 150  # with SECONDS = 0

VALUES = ["", "0", "-0", "1", "-1", "0.5", "1e-300", "1e300", "1e308", "1e309", "-1e309",
          "nan", "NaN", "inf", "-inf", "0x10", "1e", "1.5.2", "2 ", " 2", "3junk",
          "99999999999999999999999", "-9223372036854775808", "1e-320", "4.9e-324",
          "a" * 5000, "=", "e=", "=1", "e=0.5", "e=nan", "m1=1e-300", "k=", "nosuch=1",
          "m1=1,m2=2", "--", "-", "/dev/null", "/dev/full", "/nonexistent/x.csv", "x.h5",
          "x.H5", "x.csv", ".", "\u00e9", "rk4", "exact", "adaptive", "taylor", "euler"]


def options():
    """The simulator's options, from its --help."""
    p = subprocess.run([SIM, "--help"], capture_output=True, text=True, timeout=20)
    opts = sorted(set(re.findall(r"(--[a-z][a-z0-9-]*)", p.stdout + p.stderr)))
    return [o for o in opts if o not in ("--help", "--plot", "--animate")]


def argv(rng, opts):
    """One argument vector: a few options with values, mutated now and then;
    a short t_end keeps the valid ones quick."""
    a = []
    for _ in range(rng.randint(0, 5)):
        o = rng.choice(opts)
        a.append(o)
        if rng.random() < 0.85:
            a.append(rng.choice(VALUES))
    if rng.random() < 0.2:
        a.insert(rng.randint(0, len(a)), rng.choice(VALUES))
    if rng.random() < 0.2 and a:
        i = rng.randrange(len(a))
        s = a[i]
        j = rng.randint(0, len(s))
        a[i] = s[:j] + rng.choice(["=", "-", "e", "\x01", "9", ""]) + s[j + 1:]
    if "--t-end" not in a and rng.random() < 0.9:
        a += ["--t-end", "0.5"]
    if "--every" not in a and rng.random() < 0.9:
        a += ["--every", "0.01"]
    return [x.replace("\0", "") for x in a]


def main():
    rng = random.Random(SEED)
    opts = options()
    if len(opts) < 10:
        print("FAIL: only %d options read from --help: %s" % (len(opts), opts))
        return 1
    end = time.monotonic() + SECONDS
    n = bad = 0
    with tempfile.TemporaryDirectory(prefix="nsm-argv-") as tmp:
        while (n < RUNS) if SECONDS == 0 else (time.monotonic() < end):
            a = argv(rng, opts)
            n += 1
            try:
                p = subprocess.run([SIM, *a], cwd=tmp, capture_output=True, timeout=20,
                                   stdin=subprocess.DEVNULL)
            except subprocess.TimeoutExpired:
                print("FAIL (hang, 20 s): %r" % a)
                bad += 1
                continue
            err = p.stderr.decode("utf-8", "replace")
            if p.returncode not in (0, 1, 3) or (p.returncode and "error" not in err) \
                    or "runtime error" in err or "Sanitizer" in err:
                print("FAIL (exit %d): %r\n%s" % (p.returncode, a, err[-2000:]))
                bad += 1
            for f in os.listdir(tmp):            # keep the scratch folder small
                path = os.path.join(tmp, f)
                if os.path.isfile(path):
                    os.unlink(path)
    print("argv fuzz: %d runs of %s, %d options, seed %d: %s" % (
        n, os.path.basename(SIM), len(opts), SEED, "%d failed" % bad if bad else "all ended well"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
