#!/usr/bin/env python3
"""Every source of nsmc and libnsmrt compiles warning-free under clang.

    tests/clang_warnings.py CLANG INCLUDE_DIRS DEFINES FILE...

INCLUDE_DIRS and DEFINES are ';'-separated CMake lists (the targets' own).
The build itself uses the system compiler (gcc on Debian); this keeps the
code clean for clang's -Wall -Wextra -pedantic as well.
"""
import subprocess
import sys


def main(argv):
    clang, incs, defs, files = argv[1], argv[2], argv[3], argv[4:]
    flags = ["-std=c11", "-fsyntax-only", "-Wall", "-Wextra", "-pedantic", "-Werror"]
    flags += ["-I" + d for d in incs.split(";") if d]
    flags += ["-D" + d for d in defs.split(";") if d]
    failed = 0
    for f in files:
        p = subprocess.run([clang] + flags + [f], capture_output=True, text=True)
        if p.returncode != 0:
            failed += 1
            print("FAIL %s\n%s" % (f, p.stderr))
    print("%d passed, %d failed" % (len(files) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
