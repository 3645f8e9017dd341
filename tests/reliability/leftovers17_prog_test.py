#!/usr/bin/env python3
"""What the sixteenth hostile pass on the programs and the rounds after it
left as found (issue #29, docs/status.md), each a check that failed before
its fix.

    tests/reliability/leftovers17_prog_test.py NSMC SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  guards     the Python studies refuse up front what nsmc sweep refuses,
             in its words: Model.sweep of 10^8 + 1 values (it checked every
             value before the first run, for hours), a basins grid of
             10001 x 10000 (refused by nsmc sweep only after it compiled
             its program: no sweep program is built now), record above
             nsmc sweep's 10^7 (Model.sweep took it), basins' tol outside
             (0, 1) (refused after the compile), continuation's ds, ds_min
             and ds_max when not positive (as --ds: "expected a positive
             number").
  words      `nsmc sweep` and `nsmc continue` refuse an option of no
             program (--set-file), an option without its value and a stray
             word before building the program: exit 1, the program's own
             message (the cached program, run directly, says the same), the
             cache empty; a correct command still builds it and runs.
  term       SIGTERM to a Python process while nsm.compile runs the C
             compiler: the process still ends by SIGTERM, but after the
             compile's clean-up: the cache entry holds no half of itself and
             TMPDIR no compiler temporary (the entry's C and temporary and
             the compiler's folder were left); the next compile builds the
             model.  The handler exists only around the compile: SIGTERM's
             default action is back after it, a handler of the caller's is
             kept, and a compile in a thread (where no handler can be set)
             builds the model.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import glob
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import SANITIZED, check, main, python_compiling, run  # noqa: E402
# the cache's files, as the SIGINT case of the round before judged them
from leftovers16_prog_test import entry_files  # noqa: E402

NSMC = os.path.abspath(sys.argv[1])
SRC = os.path.abspath(sys.argv[2])
FIO = os.path.join(SRC, "models", "forced_impact_oscillator.nsm")
SLOW = 3 if SANITIZED else 1

# nsmc sweep's words for a grid too large (runtime/programs/sweep.c, grid_size)
TOO_MANY = "more than the 100000000 a sweep may run: use fewer points"


def entries(tmp):
    """The cache entries (folders) of the case's program cache."""
    return sorted(os.listdir(os.path.join(tmp, "cache", "nsm"))) \
        if os.path.isdir(os.path.join(tmp, "cache", "nsm")) else []


# ---- guards -----------------------------------------------------------------

PY_GUARDS = '''
import sys
import numpy as np
import nsm
m = nsm.compile(sys.argv[1])
calls = [
    ("sweep 10^8 + 1 values",
     lambda: m.sweep("omega", np.broadcast_to(2.0, (10**8 + 1,)), "impact:stop")),
    ("sweep record 10^7 + 1",
     lambda: m.sweep("omega", [2.0], "impact:stop", record=10**7 + 1)),
    ("basins 10001 x 10000",
     lambda: m.basins(("M.x", -3, -0.01, 10001), ("M.v", -3, 3, 10000), "impact:stop",
                      period="2*pi/omega")),
    ("basins record 10^7 + 1",
     lambda: m.basins(("M.x", -3, -0.01, 2), ("M.v", -3, 3, 2), "impact:stop",
                      period="2*pi/omega", record=10**7 + 1)),
    ("basins tol 1.5",
     lambda: m.basins(("M.x", -3, -0.01, 2), ("M.v", -3, 3, 2), "impact:stop",
                      period="2*pi/omega", tol=1.5)),
    ("continuation ds -0.01", lambda: m.continuation("omega", 2.5, 2.8, ds=-0.01)),
    ("continuation ds_min 0", lambda: m.continuation("omega", 2.5, 2.8, ds_min=0)),
    ("continuation ds_max -1", lambda: m.continuation("omega", 2.5, 2.8, ds_max=-1)),
]
for label, call in calls:
    try:
        call()
        print(label, "|", "taken")
    except nsm.Error as e:
        print(label, "|", type(e).__name__, e)
    sys.stdout.flush()
'''


def case_guards(tmp):
    """The Python studies' guards, as nsmc sweep's and nsmc continue's."""
    p = run(tmp, [NSMC, "sweep", FIO, "--param", "omega=2:3:10001", "--param", "F=1:2:10000",
                  "--section", "impact:stop", "--out-dir", "o"], timeout=120 * SLOW)
    said = p.stderr.strip().splitlines()[-1:]
    print("  nsmc sweep, 10001 x 10000: exit %d %s" % (p.returncode, said))
    check(p.returncode == 1 and TOO_MANY in p.stderr and
          "the grid has 1.0001e+08 runs (10001 x 10000)" in p.stderr,
          "nsmc sweep refuses a grid of more than 10^8 runs", p)
    before = entries(tmp)
    p = run(tmp, [sys.executable, "-c", PY_GUARDS, FIO], timeout=120 * SLOW)
    got = dict(ln.split(" | ", 1) for ln in p.stdout.splitlines() if " | " in ln)
    for label, outcome in got.items():
        print("  %-26s -> %s" % (label, outcome))
    check(p.returncode == 0 and len(got) == 8, "every call ended (the sweep of 10^8 + 1 values "
          "checked each value for hours)", p)
    check(got["sweep 10^8 + 1 values"] == "SettingError the grid has 1e+08 runs (100000001), "
          + TOO_MANY, "Model.sweep of 10^8 + 1 values is refused up front in nsmc sweep's words")
    check(got["basins 10001 x 10000"] == "SettingError the grid has 1.0001e+08 runs "
          "(10001 x 10000), " + TOO_MANY,
          "Model.basins' grid of 10001 x 10000 is refused in nsmc sweep's words")
    for label in ("sweep record 10^7 + 1", "basins record 10^7 + 1"):
        check(got[label] == "SettingError record must be a whole number from 1 to 10000000, "
              "got 10000001", "%s: refused as nsmc sweep's --record (from 1 to 10000000; "
              "Model.sweep took it)" % label)
    check(got["basins tol 1.5"].startswith("SettingError tol=1.5: a relative tolerance between "
                                           "0 and 1"),
          "basins' tol=1.5 is refused as --basin-tol is")
    for label, text in (("continuation ds -0.01", "ds=-0.01"),
                        ("continuation ds_min 0", "ds_min=0"),
                        ("continuation ds_max -1", "ds_max=-1")):
        check(got[label] == "SettingError %s: expected a positive number" % text,
              "%s: refused as the command line's option, 'expected a positive number'" % label)
    after = entries(tmp)
    print("  cache entries before %s, after %s" % (before, after))
    check(not [e for e in after if e not in before and "-sweep-" in e],
          "no sweep program was built for the basins refused (nsmc sweep refused them only "
          "after its compile)")


# ---- words ------------------------------------------------------------------

def program_said(tmp, kind, args):
    """What the cached program of kind ("sweep", "continue") says, run
    directly on args, its name replaced by nsmc's."""
    prog = [f for f in glob.glob(os.path.join(tmp, "cache", "nsm", "*-%s-*" % kind, "*"))
            if os.access(f, os.X_OK) and not os.path.isdir(f)]
    check(len(prog) == 1, "the %s program is in the cache" % kind)
    p = run(tmp, prog + args, timeout=60 * SLOW)
    return p.returncode, p.stderr.replace(prog[0], "nsmc " + kind)


def case_words(tmp):
    """Every word of nsmc sweep and nsmc continue checked before the compile."""
    sweep = ["--param", "omega=2:3:2", "--section", "impact:stop", "--out-dir", "o"]
    cont = ["--param", "omega=2.5:2.8", "--max-points", "5", "--no-plot", "--out-dir", "c"]
    bad = [("sweep", sweep + ["--set-file", "p.txt"],
            "nsmc sweep: error: unknown option '--set-file' (see --help)"),
           ("sweep", sweep + ["--record"],
            "nsmc sweep: error: option --record needs a value (see --help)"),
           ("sweep", sweep + ["stray", "word"],
            "nsmc sweep: error: unknown option 'stray' (see --help)"),
           ("continue", cont + ["--set-file", "p.txt"],
            "nsmc continue: error: unknown option '--set-file' (see --help)"),
           ("continue", cont + ["--tol"],
            "nsmc continue: error: --tol: unknown option or missing value (see --help)"),
           ("continue", cont + ["stray"],
            "nsmc continue: error: stray: unexpected argument")]
    for cmd, args, said in bad:
        p = run(tmp, [NSMC, cmd, FIO, "-v"] + args, timeout=120 * SLOW)
        print("  nsmc %s ... %s: exit %d %r" % (cmd, " ".join(args[-2:]), p.returncode,
                                                p.stderr.strip()))
        check(p.returncode == 1 and p.stderr.strip() == said and not entries(tmp),
              "nsmc %s ... %s: refused before the compile, exit 1, nothing built (it was "
              "refused after the program was compiled)" % (cmd, " ".join(args[-2:])), p)
    for cmd, args in (("sweep", sweep + ["--jobs", "1"]), ("continue", cont)):
        p = run(tmp, [NSMC, cmd, FIO] + args, timeout=180 * SLOW)
        print("  nsmc %s %s: exit %d" % (cmd, " ".join(args), p.returncode))
        check(p.returncode == 0 and "compiling the" in p.stderr,
              "nsmc %s with correct options builds its program and runs" % cmd, p)
    for cmd, args, said in bad:     # the same words as the program's own
        rc, err = program_said(tmp, cmd, args)
        check(rc == 1 and err.strip() == said,
              "the %s program itself says %r" % (cmd, said))


# ---- term -------------------------------------------------------------------

PY_COMPILE = '''
import sys
import nsm
nsm.compile(sys.argv[1])
print("compiled")
'''

PY_HANDLERS = '''
import signal
import sys
import threading
import nsm
nsm.compile(sys.argv[1])
print("default", signal.getsignal(signal.SIGTERM) is signal.SIG_DFL)
mine = lambda signum, frame: None   # noqa: E731
signal.signal(signal.SIGTERM, mine)
nsm.compile_source(open(sys.argv[1]).read().replace("e = 0.8", "e = 0.7"))
print("kept", signal.getsignal(signal.SIGTERM) is mine)
box = {}
def build():
    try:
        box["m"] = nsm.compile_source(open(sys.argv[1]).read().replace("e = 0.8", "e = 0.6"))
    except BaseException as err:
        box["m"] = err
t = threading.Thread(target=build)
t.start()
t.join()
print("thread", type(box["m"]).__name__)
'''


def case_term(tmp):
    """SIGTERM while nsm.compile runs the C compiler."""
    pr, cmd, env, cache, scratch = python_compiling(tmp, PY_COMPILE, FIO, 60 * SLOW)
    time.sleep(0.1)
    running = pr.poll() is None
    pr.send_signal(signal.SIGTERM)
    out, err = pr.communicate(timeout=120 * SLOW)
    time.sleep(0.2)     # a compiler left running would still write
    left, temps = entry_files(cache), os.listdir(scratch)
    print("  nsm.compile, SIGTERM while the C compiler runs: exit %d, %r, cache %s, TMPDIR %s"
          % (pr.returncode, out.strip(), left, temps))
    check(running and pr.returncode == -signal.SIGTERM and not out.strip() and
          "Traceback" not in err,
          "the process still ends by SIGTERM (its default action), without a traceback", pr)
    check(all(os.path.basename(f) == ".lock" for f in left) and not temps,
          "the cache entry holds no half of itself, TMPDIR no compiler temporary (the entry's "
          "C and temporary, and the compiler's folder, were left)")
    p = subprocess.run(cmd, cwd=tmp, env=env, capture_output=True, text=True,
                       timeout=180 * SLOW)
    check(p.returncode == 0 and p.stdout.strip() == "compiled",
          "the next nsm.compile builds the model", p)
    p = subprocess.run([sys.executable, "-c", PY_HANDLERS, FIO], cwd=tmp, env=env,
                       capture_output=True, text=True, timeout=180 * SLOW)
    print("  handlers: %s" % p.stdout.strip().replace("\n", "; "))
    check(p.returncode == 0 and p.stdout.split("\n")[:3] ==
          ["default True", "kept True", "thread Model"],
          "SIGTERM's default action is back after a compile, a handler of the caller's is "
          "kept, a compile in a thread builds the model", p)


if __name__ == "__main__":
    sys.exit(main({"guards": case_guards, "words": case_words, "term": case_term},
                  "nsm-left17prog-", case_arg=3))
