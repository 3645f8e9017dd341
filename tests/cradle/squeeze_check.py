"""A ball squeezed between a floor and a ceiling (tests/cradle/squeeze.nsm).

    squeeze_check.py --sim EXE --method M

With e < 1 the collisions at t = 0 collapse (their speeds shrink by e at
each, the floor and the ceiling in turn): the ball ends at rest, with one
zeno record (the two contacts are dependent, so the collapse cannot be a
projection onto them); with --no-zeno every collision is resolved down to
the velocity tolerance and no zeno record is written.  With e = 1 they
neither end nor shrink: the run must stop with an error, not go on.
"""
import argparse
import subprocess
import sys


def run(sim, method, *args):
    """Status code, message, event kinds and final velocity of one run."""
    out = subprocess.run([sim, method, "1"] + list(args), check=True, capture_output=True,
                         text=True).stdout
    status, msg, kinds, v = None, "", [], None
    for line in out.splitlines():
        f = line.split()
        if f[0] == "status":
            status, msg = int(f[1]), " ".join(f[2:])
        elif f[0] == "event":
            kinds.append(f[1])
        elif f[0] == "v":
            v = float(f[2])
    return status, msg, kinds, v


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sim", required=True)
    ap.add_argument("--method", required=True)
    a = ap.parse_args()
    msgs = []
    for e in ("0.5", "0.9", "0"):
        status, msg, kinds, v = run(a.sim, a.method, "e=" + e)
        if status != 0 or kinds.count("zeno") != (1 if e != "0" else 0) or not abs(v) <= 1e-12:
            msgs.append("e = %s: status %s %s, %d zeno records, v = %r (expected 0, %s zeno record, v = 0)"
                        % (e, status, msg, kinds.count("zeno"), v, "one" if e != "0" else "no"))
        status, msg, kinds, v = run(a.sim, a.method, "e=" + e, "--no-zeno")
        if status != 0 or "zeno" in kinds or not abs(v) <= 1e-9:
            msgs.append("e = %s --no-zeno: status %s %s, %d zeno records, v = %r"
                        % (e, status, msg, kinds.count("zeno"), v))
    status, msg, kinds, v = run(a.sim, a.method, "e=1")
    if status == 0 or "no end in sight" not in msg:
        msgs.append("e = 1: status %s '%s', expected the run to stop on endless impacts" % (status, msg))
    print("squeezed ball, %s: %d checks failed" % (a.method, len(msgs)))
    for m in msgs:
        print("FAIL " + m)
    return 1 if msgs else 0


if __name__ == "__main__":
    sys.exit(main())
