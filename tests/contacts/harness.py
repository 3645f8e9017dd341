"""What the contact tests' scripts share: the failed-check record, building
a model's simulator and the command line (--nsmc, --include, --lib, --cc,
--cflags, --case).  Used by bead_column.py; the older scripts of this
folder carry their own copies."""
import argparse
import os
import subprocess
import sys
import tempfile

FAILS = []


def check(cond, what):
    """Records a failed check (the run goes on to report every one)."""
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        FAILS.append(what)


def build(args, model, work):
    """Compiles a model file's simulator into work; its path."""
    name = os.path.splitext(os.path.basename(model))[0]
    c = os.path.join(work, name + ".c")
    exe = os.path.join(work, name)
    subprocess.run([args.nsmc, model, "-o", c], check=True)
    subprocess.run([args.cc] + args.cflags.split() + [c, "-I", args.include] +
                   [x for x in args.lib.split(":") if x] + ["-lm", "-o", exe], check=True)
    return exe


def main(cases):
    """Parses the command line, runs the case named by --case (cases: {name:
    function(args, work)}) in a temporary folder; the exit status."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--nsmc", required=True)
    ap.add_argument("--include", required=True)
    ap.add_argument("--lib", required=True)
    ap.add_argument("--cc", default="cc")
    ap.add_argument("--cflags", default="-O2")
    ap.add_argument("--case", required=True, choices=sorted(cases))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as work:
        cases[args.case](args, work)
    if FAILS:
        print("%d check(s) failed" % len(FAILS))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit("harness.py is a module of the contact tests, not a test")
