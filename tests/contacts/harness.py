"""What the contact tests' scripts share: the failed-check record, building
a model's simulator (from a file or from a text) and the command line
(--nsmc, --include, --lib, --cc, --cflags, --case, a script's own options
and --selftest)."""
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


def build_text(args, text, work, name):
    """Writes a model's text to work/name.nsm and compiles its simulator; its
    path (work/name)."""
    src = os.path.join(work, name + ".nsm")
    with open(src, "w") as f:
        f.write(text)
    return build(args, src, work)


def main(cases, options=None, selftest=None):
    """Parses the command line and runs in a temporary folder the case named
    by --case (cases: {name: function(args, work)}), or the one function
    cases is; options(parser) adds a script's own options; with selftest,
    --selftest runs it instead, without a simulator.  The exit status."""
    ap = argparse.ArgumentParser()
    sim = selftest is None   # the simulator's options are required
    ap.add_argument("--nsmc", required=sim)
    ap.add_argument("--include", required=sim)
    ap.add_argument("--lib", required=sim)
    ap.add_argument("--cc", default="cc")
    ap.add_argument("--cflags", default="-O2")
    if isinstance(cases, dict):
        ap.add_argument("--case", required=sim, choices=sorted(cases))
    if selftest:
        ap.add_argument("--selftest", action="store_true")
    if options:
        options(ap)
    args = ap.parse_args()
    if selftest and args.selftest:
        selftest()
    else:
        missing = [o for o in ("nsmc", "include", "lib", "case") if getattr(args, o, "") is None]
        if missing:
            ap.error("without --selftest, --%s must be given" % ", --".join(missing))
        with tempfile.TemporaryDirectory() as work:
            (cases[args.case] if isinstance(cases, dict) else cases)(args, work)
    if FAILS:
        print("%d check(s) failed" % len(FAILS))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit("harness.py is a module of the contact tests, not a test")
