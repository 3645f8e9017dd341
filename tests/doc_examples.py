#!/usr/bin/env python3
"""Checks every example of a Markdown document with `nsmc --check`.

    tests/doc_examples.py NSMC docs/language.md

Fenced blocks tagged ```nsm must be accepted (exit 0, no output); blocks
tagged ```nsm-error must be rejected with exit status 1 and an `error:`.
"""
import os
import re
import subprocess
import sys
import tempfile


def blocks(text):
    """Yields (tag, first line number, code) for every nsm block."""
    for m in re.finditer(r"^```(nsm|nsm-error)[ \t]*\n(.*?)^```", text, re.S | re.M):
        yield m.group(1), text.count("\n", 0, m.start()) + 1, m.group(2)


def main():
    nsmc, doc = sys.argv[1], sys.argv[2]
    text = open(doc, encoding="utf-8").read()
    failed = count = 0
    with tempfile.TemporaryDirectory() as tmp:
        for tag, line, code in blocks(text):
            count += 1
            path = os.path.join(tmp, "example_line%d.nsm" % line)
            with open(path, "w", encoding="utf-8") as f:
                f.write(code)
            p = subprocess.run([nsmc, "--check", path], capture_output=True, text=True,
                               timeout=60)
            if tag == "nsm":
                ok = p.returncode == 0 and not p.stdout and not p.stderr
            else:
                ok = p.returncode == 1 and "error:" in p.stderr
            if not ok:
                failed += 1
                print("FAIL %s:%d (```%s): exit %d\n%s%s" %
                      (doc, line, tag, p.returncode, p.stdout, p.stderr))
    print("%d example(s), %d failed" % (count, failed))
    if count == 0:
        print("no examples found")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
