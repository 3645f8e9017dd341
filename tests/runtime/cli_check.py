#!/usr/bin/env python3
"""Run a simulator command and check its exit status and output.

usage: cli_check.py [--exit N] [--stdout RE] [--stderr RE] [--no-stdout RE]
                    [--file PATH RE] [--csv-lines PATH MIN] -- command...
Every RE must match (re.search, multiline) for the check to pass.
"""
import re
import subprocess
import sys


def main(argv):
    sep = argv.index("--")
    opts, cmd = argv[:sep], argv[sep + 1:]
    want_exit = 0
    checks = []
    i = 0
    while i < len(opts):
        o = opts[i]
        if o == "--exit":
            want_exit = int(opts[i + 1]); i += 2
        elif o in ("--stdout", "--stderr", "--no-stdout"):
            checks.append((o, opts[i + 1])); i += 2
        elif o in ("--file", "--csv-lines"):
            checks.append((o, (opts[i + 1], opts[i + 2]))); i += 3
        else:
            sys.exit("cli_check: unknown option " + o)
    p = subprocess.run(cmd, capture_output=True, text=True)
    ok = True
    print("$ " + " ".join(cmd))
    print("exit", p.returncode)
    print("--- stdout\n" + p.stdout[-3000:])
    print("--- stderr\n" + p.stderr[-3000:])
    if p.returncode != want_exit:
        print("FAIL: exit status %d, expected %d" % (p.returncode, want_exit)); ok = False
    for kind, arg in checks:
        if kind == "--stdout" and not re.search(arg, p.stdout, re.M):
            print("FAIL: stdout does not match", arg); ok = False
        if kind == "--no-stdout" and re.search(arg, p.stdout, re.M):
            print("FAIL: stdout matches", arg); ok = False
        if kind == "--stderr" and not re.search(arg, p.stderr, re.M):
            print("FAIL: stderr does not match", arg); ok = False
        if kind == "--file":
            text = open(arg[0]).read()
            if not re.search(arg[1], text, re.M):
                print("FAIL: %s does not match %s" % arg); ok = False
        if kind == "--csv-lines":
            lines = open(arg[0]).read().split("\n")
            if lines[-1] != "":
                print("FAIL: %s does not end with a complete line" % arg[0]); ok = False
            lines = lines[:-1]
            width = len(lines[0].split(",")) if lines else 0
            if len(lines) < int(arg[1]) or any(len(l.split(",")) != width for l in lines):
                print("FAIL: %s has fewer than %s lines or ragged rows" % arg); ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
