#!/usr/bin/env python3
"""Runs every command of docs/tutorial.md, in order, in a fresh folder.

    tests/workflow/tutorial_test.py BUILD_DIR docs/tutorial.md [SANITIZE_FLAGS]

nsmc is installed with `cmake --install BUILD_DIR` into a temporary prefix,
which goes first on PATH, and pkg-config finds the runtime there through
PKG_CONFIG_PATH, as the tutorial says for such a prefix.  The document becomes
one shell script: a ```nsm file=NAME block writes NAME, a ```sh block is
pasted as it is; the script stops at the first failing command.  Then the
files the tutorial promises must exist.

In a sanitizer build the runtime is instrumented, so programs linked against it
by hand need the sanitizer flags too: then `cc` on PATH is a wrapper adding
SANITIZE_FLAGS (what `nsmc run` and nsm.pc do by themselves in such a build).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

BLOCK = re.compile(r"^```(sh|nsm file=(\S+))[ \t]*\n(.*?)^```", re.S | re.M)


def script_of(text):
    """The shell script of the document and the number of command blocks."""
    out = ["set -e -o pipefail"]
    nsh = 0
    for m in BLOCK.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        out.append("echo '### tutorial.md:%d' >&2" % line)
        if m.group(1) == "sh":
            nsh += 1
            out.append(m.group(3))
        else:
            out.append("cat > '%s' <<'NSM_TUTORIAL_EOF'\n%sNSM_TUTORIAL_EOF" %
                       (m.group(2), m.group(3)))
    return "\n".join(out) + "\n", nsh


def main():
    build, doc = sys.argv[1], sys.argv[2]
    script, nsh = script_of(open(doc, encoding="utf-8").read())
    if nsh < 5:
        sys.exit("FAIL: only %d sh blocks found in %s" % (nsh, doc))
    tmp = tempfile.mkdtemp(prefix="nsm-tutorial-")
    try:
        prefix = os.path.join(tmp, "prefix")
        p = subprocess.run(["cmake", "--install", build, "--prefix", prefix],
                           capture_output=True, text=True, timeout=300)
        if p.returncode != 0:
            sys.exit("FAIL: cmake --install: %s%s" % (p.stdout, p.stderr))
        work = os.path.join(tmp, "work")
        os.mkdir(work)
        env = dict(os.environ)
        env["PATH"] = os.path.join(prefix, "bin") + os.pathsep + env.get("PATH", "")
        if len(sys.argv) > 3 and sys.argv[3]:
            wrap = os.path.join(tmp, "wrap")
            os.mkdir(wrap)
            real = shutil.which("cc")
            with open(os.path.join(wrap, "cc"), "w") as f:
                f.write('#!/bin/sh\nexec %s "$@" %s\n' % (real, sys.argv[3]))
            os.chmod(os.path.join(wrap, "cc"), 0o755)
            env["PATH"] = wrap + os.pathsep + env["PATH"]
        # as the tutorial says for a prefix outside the default paths
        env["PKG_CONFIG_PATH"] = os.path.join(prefix, "lib", "pkgconfig")
        env["XDG_CACHE_HOME"] = os.path.join(tmp, "cache")
        p = subprocess.run(["bash", "-c", script], cwd=work, env=env, capture_output=True,
                           text=True, timeout=600)
        if p.returncode != 0:
            sys.exit("FAIL: a tutorial command failed (exit %d); the last ### line names "
                     "its block\n--- stdout:\n%s\n--- stderr:\n%s" %
                     (p.returncode, p.stdout[-4000:], p.stderr[-4000:]))
        print("ok: %d command blocks ran" % nsh)
        t = os.path.join(work, "tutorial")
        for f in ("out/oscillator/plot.png", "out/two_mass/plot.png", "out/two_mass/phase.png",
                  "out/soft/events.csv", "out/plastic/events.csv", "out/long/plot.svg",
                  "two_mass.h5", "out/h5/trajectory.csv",
                  "two_mass.c", "two_mass", "traj.csv", "out/units/events.csv",
                  "embed/build/two_mass", "embed/build/sweep", "out/fio/summary.csv",
                  "out/fio/bifurcation.png"):
            if not os.path.isfile(os.path.join(t, f)):
                sys.exit("FAIL: the tutorial should have made tutorial/%s" % f)
        print("ok: the plots and files the tutorial describes exist")
        # section 7: the installed examples build and the embedding example
        # finds the ball's rest time t1 (1 + e)/(1 - e), t1 = sqrt(2 h / g)
        if "e = 0.5: at rest at t = 1.35457092295" not in p.stdout:
            sys.exit("FAIL: the installed embedding example did not print the rest time")
        with open(os.path.join(t, "out", "fio", "summary.csv")) as f:
            rows = f.read().splitlines()
        if len(rows) != 10 or ",ok," not in rows[1] + ",":
            sys.exit("FAIL: section 8's sweep should give 9 points: %s" % rows[:3])
        print("ok: the installed examples and models run")
        if "using the cached simulator" not in p.stderr:
            sys.exit("FAIL: the --set run of section 3 should reuse the cached simulator")
        print("ok: changing parameters reuses the simulator")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
