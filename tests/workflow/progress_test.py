#!/usr/bin/env python3
"""The progress bar shows on a terminal and never in a pipe.

    tests/workflow/progress_test.py PROGRESS_TEST_BINARY
"""
import os
import pty
import subprocess
import sys

prog = sys.argv[1]

# On a pipe: only the program's own line.
p = subprocess.run([prog], capture_output=True, timeout=60)
if p.returncode != 0 or p.stderr != b"done\n":
    sys.exit("FAIL: on a pipe stderr should be exactly 'done\\n', got %r" % p.stderr)
print("ok: no progress bar on a pipe")

# On a terminal: the bar is drawn, then erased before the last line.
master, slave = os.openpty()
proc = subprocess.Popen([prog], stdin=slave, stdout=slave, stderr=slave)
os.close(slave)
out = b""
while True:
    try:
        chunk = os.read(master, 4096)
    except OSError:        # EIO once the child has closed the terminal
        break
    if not chunk:
        break
    out += chunk
proc.wait(timeout=60)
os.close(master)
if b"\r[#" not in out or b"%" not in out:
    sys.exit("FAIL: no progress bar on a terminal: %r" % out[:300])
tail = out[out.rindex(b"%"):]
if not tail.rstrip().endswith(b"done") or b"\r" not in tail:
    sys.exit("FAIL: the bar is not erased before later output: %r" % tail)
print("ok: progress bar drawn on a terminal and erased")
