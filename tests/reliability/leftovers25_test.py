#!/usr/bin/env python3
"""What the twenty-second and twenty-third hostile passes left as found
(issue #29, docs/fuzzing.md), each a check that failed before its fix.

    tests/reliability/leftovers25_test.py NSMC SIM_BOUNCING_BALL SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  underflow  `--set e=1e-400` (a simulator, `nsmc run`, `nsmc sweep`'s
             --set and --param, a parameter file, Python's params=, a
             .nsm `param` default) was taken as 0 without a word, where
             1e400 is refused as beyond a double's range.  Now refused,
             naming the value and the range of doubles; a literal 0 (and
             "0.0e-999") is still taken.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import SANITIZED, check, env_for, main  # noqa: E402

NSMC = os.path.abspath(sys.argv[1])
SIM = os.path.abspath(sys.argv[2])
SRC = os.path.abspath(sys.argv[3])
SLOW = 4 if SANITIZED else 1
BALL = os.path.join(SRC, "models", "bouncing_ball.nsm")
FIO = os.path.join(SRC, "models", "forced_impact_oscillator.nsm")


def go(tmp, cmd, timeout=120, env=None):
    """Runs cmd in tmp with its own cache (env's variables added); the
    CompletedProcess."""
    full = env_for(tmp)
    full.update(env or {})
    return subprocess.run(cmd, cwd=tmp, env=full, capture_output=True, text=True,
                          errors="replace", timeout=timeout * SLOW)


def last(p):
    """The last line of p's standard error (or its first when the last is
    the usage hint), for the printed outcome."""
    lines = [ln for ln in p.stderr.strip().splitlines() if ln != "(try --help)"]
    return lines[-1][:150] if lines else ""


# ---- underflow ---------------------------------------------------------------

BELOW = "below the range of a double"


def case_underflow(tmp):
    """A nonzero value that would read as 0 refused everywhere; 0 taken."""
    with open(os.path.join(tmp, "under.txt"), "w") as f:
        f.write("e = 1e-400\n")
    with open(os.path.join(tmp, "zero.txt"), "w") as f:
        f.write("e = 0.0e-999\n")
    short = ["--t-end", "0.01", "--out", "x.csv"]
    refused = [
        ("simulator --set e=1e-400", [SIM, "--set", "e=1e-400"] + short, "'1e-400'"),
        ("simulator --set e=-5e-400", [SIM, "--set", "e=-5e-400"] + short, "'-5e-400'"),
        ("simulator --set 'g=1e-320 nm/s^2'", [SIM, "--set", "g=1e-320 nm/s^2"] + short,
         "1e-320 nm/s^2"),
        ("simulator --set-file (e = 1e-400)", [SIM, "--set-file", "under.txt"] + short,
         "under.txt:1"),
        ("simulator --t-end 1e-400", [SIM, "--t-end", "1e-400", "--out", "x.csv"], "--t-end"),
        ("nsmc run --set e=1e-400", [NSMC, "run", BALL, "--set", "e=1e-400", "--out-dir", "R",
                                     "-q", "--no-plot"], "'1e-400'"),
        ("nsmc sweep --set e=1e-400", [NSMC, "sweep", FIO, "--param", "omega=2:3:2", "--set",
                                       "e=1e-400", "--section", "impact:stop", "--out-dir", "S"],
         "'1e-400'"),
        ("nsmc sweep --param omega=1e-400:3:2", [NSMC, "sweep", FIO, "--param",
                                                 "omega=1e-400:3:2", "--section", "impact:stop",
                                                 "--out-dir", "S"], "'1e-400'"),
    ]
    for label, cmd, names in refused:
        p = go(tmp, cmd)
        print("  %s -> %d  %s" % (label, p.returncode, last(p)))
        check(p.returncode == 1 and BELOW in p.stderr and names in p.stderr
              and not os.path.exists(os.path.join(tmp, "x.csv")),
              "%s: exit 1, %s naming %s, nothing written" % (label, BELOW, names), p)
    # the .nsm default
    with open(BALL) as f:
        text = f.read()
    for default, ok in (("1e-400", False), ("0.0e-999", True), ("0", True)):
        path = os.path.join(tmp, "ball_%s.nsm" % default.replace(".", "_").replace("-", "m"))
        with open(path, "w") as f:
            f.write(text.replace("param e = 0.9", "param e = %s" % default))
        p = go(tmp, [NSMC, path, "-o", os.path.join(tmp, "g.c")])
        print("  param e = %s in a .nsm -> %d  %s" % (default, p.returncode,
                                                      p.stderr.strip().splitlines()[:1]))
        if ok:
            check(p.returncode == 0, "param e = %s: compiled" % default, p)
        else:
            check(p.returncode == 1 and BELOW in p.stderr and ":7:11: error:" in p.stderr
                  and "^~~~~~" in p.stderr, "param e = 1e-400: file:line:col error with a caret,"
                  " %s" % BELOW, p)
    # zeros are zeros: the ball with e = 0 stays on the floor after its landing
    for label, cmd in (("--set e=0", [SIM, "--set", "e=0"]),
                       ("--set e=0.0e-999", [SIM, "--set", "e=0.0e-999"]),
                       ("--set-file (e = 0.0e-999)", [SIM, "--set-file", "zero.txt"])):
        p = go(tmp, cmd + ["--t-end", "1", "--events", "ev.csv", "--out", "z.csv"])
        print("  simulator %s -> %d  %s" % (label, p.returncode, last(p)))
        check(p.returncode == 0, "simulator %s: taken" % label, p)
    # Python's params=
    os.environ["XDG_CACHE_HOME"] = os.path.join(tmp, "cache")
    import nsm
    from decimal import Decimal
    from fractions import Fraction
    m = nsm.compile(BALL)
    for value in ("1e-400", b"1e-400", Decimal("1e-400"), Fraction(1, 10 ** 400)):
        try:
            m.run(t_end=0.01, params={"e": value})
            outcome = "ran"
        except nsm.Error as err:
            outcome = "%s: %s" % (type(err).__name__, err)
        print("  Model.run(params={'e': %s}) -> %s" % (repr(value)[:40], outcome[:150]))
        check(BELOW in outcome and "parameter 'e'" in outcome,
              "params={'e': %s}: refused, %s" % (repr(value)[:40], BELOW))
    for value in ("0", "0.0e-999", 0.0, Decimal("0E-999")):
        r = m.run(t_end=0.01, params={"e": value})
        print("  Model.run(params={'e': %r}) -> ran, %d samples" % (value, len(r.t)))
        check(len(r.t) > 0, "params={'e': %r}: taken" % value)


if __name__ == "__main__":
    main({"underflow": case_underflow}, "left25", case_arg=4)
