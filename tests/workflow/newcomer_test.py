#!/usr/bin/env python3
"""The newcomer's path of issue 28, as one test, from an install prefix:

    tests/workflow/newcomer_test.py BUILD_DIR SOURCE_DIR

1. `cmake --install BUILD_DIR --prefix PREFIX` into a temporary folder,
   PREFIX/bin first on PATH (docs/tutorial.md's setting);
2. a fresh virtual environment, `python3 -m venv --system-site-packages`
   (Debian's numpy and matplotlib seen through it), and `pip install
   --no-build-isolation --no-index` of the source folder python/ into it
   (docs/python.md, "Installing with pip"), no PYTHONPATH anywhere;
3. every ```python block of docs/python.md, in order, in one namespace, run
   by the virtual environment's interpreter in a folder whose models/ is the
   install's share/nsm/models; its printed events are checked against the
   independent two-mass reference (tests/reference/data);
4. every command of docs/tutorial.md, in order, from the same prefix
   (tests/workflow/tutorial_test.py's reading of the document), with the
   virtual environment's bin/ on PATH too.

Prints what it checked; exits 1 on the first failure.
"""
import csv
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from tutorial_test import script_of  # noqa: E402  (the tutorial read as a script)

RUNNER = r'''
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
code = [m.group(1) for m in re.finditer(r"^```python[ \t]*\n(.*?)^```", text, re.S | re.M)]
ns = {"__name__": "python_md"}
for i, c in enumerate(code):
    exec(compile(c, "docs/python.md block %d" % (i + 1), "exec"), ns)
import nsm
print("NSM_FILE", nsm.__file__)
print("BLOCKS", len(code))
'''


def fail(what, p=None):
    if p is not None:
        what += "\n--- exit %d\n--- stdout:\n%s\n--- stderr:\n%s" % (
            p.returncode, p.stdout[-4000:], p.stderr[-4000:])
    sys.exit("FAIL: " + what)


def step(cmd, what, **kw):
    """Runs cmd; fails with its output unless it exits 0."""
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=900, **kw)
    if p.returncode != 0:
        fail(what, p)
    print("ok:", what)
    return p


def reference_events(src):
    with open(os.path.join(src, "tests", "reference", "data", "two_mass_a.events.csv")) as f:
        return [(float(r["t"]), r["kind"], r["contact"]) for r in csv.DictReader(f)]


def main():
    build, src = sys.argv[1], sys.argv[2]
    tmp = tempfile.mkdtemp(prefix="nsm-newcomer-")
    try:
        prefix = os.path.join(tmp, "prefix")
        step(["cmake", "--install", build, "--prefix", prefix], "cmake --install into a prefix")
        venv = os.path.join(tmp, "venv")
        step([sys.executable, "-m", "venv", "--without-pip", "--system-site-packages", venv],
             "python3 -m venv --system-site-packages")
        python = os.path.join(venv, "bin", "python")
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "NSMC")}
        env.update(PATH=os.pathsep.join([os.path.join(prefix, "bin"), os.path.join(venv, "bin"),
                                         env.get("PATH", "")]),
                   XDG_CACHE_HOME=os.path.join(tmp, "cache"), PIP_NO_INDEX="1",
                   PIP_DISABLE_PIP_VERSION_CHECK="1", MPLBACKEND="Agg",
                   PKG_CONFIG_PATH=os.path.join(prefix, "lib", "pkgconfig"))
        pkg = os.path.join(tmp, "pkg")
        shutil.copytree(os.path.join(src, "python"), pkg,
                        ignore=shutil.ignore_patterns("build", "*.egg-info", "CMakeLists.txt"))
        step([python, "-m", "pip", "install", "--no-build-isolation", "--no-index",
              "--no-cache-dir", "--root-user-action=ignore", "-q", pkg],
             "pip install --no-build-isolation ./python into the venv", env=env)
        # docs/python.md, with the installed models
        guide = os.path.join(tmp, "guide")
        os.mkdir(guide)
        os.symlink(os.path.join(prefix, "share", "nsm", "models"), os.path.join(guide, "models"))
        with open(os.path.join(tmp, "guide.py"), "w") as f:
            f.write(RUNNER)
        p = step([python, os.path.join(tmp, "guide.py"), os.path.join(src, "docs", "python.md")],
                 "docs/python.md's examples run in the venv", cwd=guide, env=env)
        where = re.search(r"^NSM_FILE (.*)$", p.stdout, re.M).group(1)
        if not where.startswith(venv) or "site-packages" not in where:
            fail("nsm was imported from %s, not the venv's site-packages" % where)
        print("ok: nsm imported from the venv (%s)" % where)
        for t, kind, contact in reference_events(src):
            if not re.search(r"^%.9f s  %-10s %s " % (t, kind, contact), p.stdout, re.M):
                fail("the guide's event table lacks the reference's %s at %.9f s" % (kind, t), p)
        print("ok: the guide's two-mass events are the reference's to 1e-9 s")
        for png in ("two_mass.png", "two_mass_phase.png"):
            with open(os.path.join(guide, png), "rb") as f:
                if f.read(8) != b"\x89PNG\r\n\x1a\n":
                    fail("the guide's %s is not a PNG" % png)
        print("ok: the guide's figures are drawn")
        # docs/tutorial.md, every command, from the same prefix
        script, nsh = script_of(open(os.path.join(src, "docs", "tutorial.md"),
                                     encoding="utf-8").read())
        work = os.path.join(tmp, "work")
        os.mkdir(work)
        p = subprocess.run(["bash", "-c", script], cwd=work, env=env, capture_output=True,
                           text=True, timeout=900)
        if p.returncode != 0:
            fail("a tutorial command failed; the last ### line names its block", p)
        print("ok: the tutorial's %d command blocks ran from the prefix" % nsh)
        if not os.path.isfile(os.path.join(work, "tutorial", "out", "two_mass", "plot.png")):
            fail("the tutorial's two-mass plot was not drawn")
        print("ok: the tutorial's plots are there")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
