#!/usr/bin/env python3
"""Golden tests: run nsmc on tests/golden/<suite>/NAME.nsm and compare with the
expected output stored next to it, chosen by file extension.

    tests/golden.py --nsmc build/nsmc tests/golden/err/unknown_name.err   # one test
    tests/golden.py --nsmc build/nsmc                                      # all
    tests/golden.py --nsmc build/nsmc --update [FILES...]                  # rewrite

Run from the repository root, so that paths in messages read tests/golden/....
With --update, every NAME.nsm in tests/golden/<suite>/ gets the expectation of
its suite's default extension (the directory name), plus any expectation file
already next to it; review the diff like code.

To add a kind of golden test, add a line to KINDS.

Simulator goldens (.simout) hold what a generated simulator prints: NAME.sim
is one line `MODEL ARGS...`, run as SIMS/sim_MODEL ARGS (--sims names the
folder the build puts them in); NAME.simout is its exit status, stdout and
stderr. Numbers are compared rounded to 10 significant digits, and below
1e-10 in size as 0: rounding noise is not behaviour, the event sequence and
its instants are.
"""
import argparse
import os
import re
import shlex
import subprocess
import sys

# extension: (nsmc arguments before the file, stream compared, expected exit status)
KINDS = {
    ".ast": (["--dump=ast"], "stdout", 0),
    ".tokens": (["--dump=tokens"], "stdout", 0),
    ".err": (["--check"], "stderr", 1),
    ".eq": (["--emit=equations", "--format=text"], "stdout", 0),
    ".eqmd": (["--emit=equations", "--format=markdown"], "stdout", 0),
}

GOLDEN_DIR = os.path.join("tests", "golden")
SIM_KIND = ".simout"
NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?(?![\w.])")


def round_numbers(text):
    """Every number in text to 10 significant digits, and tiny ones to 0."""
    def one(m):
        v = float(m.group(0))
        return "0" if abs(v) < 1e-10 else "%.10g" % v
    return NUMBER.sub(one, text)


def run_sim(sims, expect_path):
    """Runs the simulator command of NAME.sim; returns (ok, message, actual)."""
    source = os.path.splitext(expect_path)[0] + ".sim"
    if not os.path.exists(source):
        return False, "missing input %s" % source, None
    if not sims:
        return False, "simulator goldens need --sims DIR", None
    words = shlex.split(open(source).read())
    cmd = [os.path.join(sims, "sim_" + words[0])] + words[1:]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    actual = "exit %d\n--- stdout\n%s--- stderr\n%s" % (
        proc.returncode, round_numbers(proc.stdout), round_numbers(proc.stderr))
    return True, "", actual


def run(nsmc, expect_path):
    """Runs nsmc for one expectation file; returns (ok, message, actual)."""
    stem, ext = os.path.splitext(expect_path)
    args, stream, status = KINDS[ext]
    source = stem + ".nsm"
    if not os.path.exists(source):
        return False, "missing input %s" % source, None
    proc = subprocess.run([nsmc] + args + [source], capture_output=True, text=True,
                          timeout=60)
    actual = proc.stdout if stream == "stdout" else proc.stderr
    other = proc.stderr if stream == "stdout" else proc.stdout
    problems = []
    if proc.returncode != status:
        problems.append("exit status %d, expected %d" % (proc.returncode, status))
    if other:
        problems.append("unexpected output on %s:\n%s" %
                        ("stderr" if stream == "stdout" else "stdout", other))
    return not problems, "\n".join(problems), actual


def all_expectations(update):
    """Every expectation file under tests/golden (and, when updating, the
    expectation each .nsm should have by its suite's name)."""
    found = set()
    for suite in sorted(os.listdir(GOLDEN_DIR)):
        d = os.path.join(GOLDEN_DIR, suite)
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            stem, ext = os.path.splitext(name)
            path = os.path.join(d, name)
            if ext in KINDS or ext == SIM_KIND:
                found.add(path)
            elif ext in (".nsm", ".sim") and update and "." + suite in (*KINDS, SIM_KIND):
                found.add(os.path.join(d, stem + "." + suite))
    return sorted(found)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nsmc", required=True, help="the nsmc executable")
    ap.add_argument("--sims", help="folder of the built simulators sim_MODEL (for .simout)")
    ap.add_argument("--update", action="store_true", help="rewrite the expectations")
    ap.add_argument("files", nargs="*", help="expectation files (default: all)")
    opts = ap.parse_args()
    files = opts.files or all_expectations(opts.update)
    failed = 0
    for path in files:
        ext = os.path.splitext(path)[1]
        if ext not in KINDS and ext != SIM_KIND:
            print("%s: unknown golden extension" % path)
            failed += 1
            continue
        if ext == SIM_KIND:
            ok, message, actual = run_sim(opts.sims, path)
        else:
            ok, message, actual = run(opts.nsmc, path)
        if opts.update:
            if actual is not None:
                with open(path, "w") as f:
                    f.write(actual)
            if not ok:
                print("%s: updated, but: %s" % (path, message))
            continue
        expected = open(path).read() if os.path.exists(path) else None
        if expected is None:
            ok, message = False, "missing expectation (run with --update)"
        elif actual != expected:
            import difflib
            diff = "".join(difflib.unified_diff(expected.splitlines(True),
                                                (actual or "").splitlines(True),
                                                path, "actual"))
            ok, message = False, (message + "\n" if message else "") + diff
        if not ok:
            failed += 1
            print("FAIL %s\n%s" % (path, message))
    if not opts.update:
        print("%d golden test(s), %d failed" % (len(files), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
