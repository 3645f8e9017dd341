#!/usr/bin/env python3
"""The runtime and a few simulators under clang's undefined-behaviour checks.

    tests/reliability/clang_ubsan.py CLANG SOURCE_DIR WORK_DIR

Compiles libnsmrt's core and the simulators' command line (without HDF5)
with clang -fsanitize=undefined,float-cast-overflow,integer, links a few of
the committed simulators (generated/*.c) against them, and runs each with
every method of a linear model and with stop, refusal and error paths.  Any
report fails the test (halt_on_error=1 turns a report into exit status 99).

-fsanitize=integer adds checks for what is not undefined in C but is rarely
meant: unsigned wraparound, and implicit conversions that change a value.
Two of them are intended and suppressed (tests/reliability/ubsan.supp, with
the reason for each): the wrapping multiplications of the modes' hashes, and
nothing else.  A new report is a bug, or an intended wrap to be documented
there.
"""
import concurrent.futures
import glob
import os
import subprocess
import sys

CLANG, SRC, WORK = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
SAN = ["-fsanitize=undefined,float-cast-overflow,integer", "-fno-sanitize-recover=undefined,float-cast-overflow",
       "-fno-sanitize=implicit-integer-sign-change,implicit-signed-integer-truncation,"
       "implicit-unsigned-integer-truncation"]
CFLAGS = ["-O0", "-g", "-std=c11", "-D_POSIX_C_SOURCE=200809L", "-I" + SRC + "/runtime/include",
          "-I" + SRC + "/compiler", "-I" + SRC + "/runtime/src", "-I" + SRC + "/runtime/programs"] + SAN
CLI = {"driver", "plot", "animate", "progress", "setfile"}
# the simulators, and the runs of each: (arguments, expected exit status)
SIMS = {
    "two_mass": [(["--method", m, "--t-end", "20"], 0) for m in ("rk4", "adaptive", "exact")]
    + [(["--set", "e=0.5", "--stats", "-", "--summary"], 0), (["--dt", "1e-300"], 1),
       (["--set", "m1=-1"], 1), (["--every", "1e-30"], 1), (["--t-end", "nan"], 1)],
    "sprung_table": [(["--method", m, "--t-end", "2"], 0) for m in ("rk4", "adaptive", "exact")],
    "belt_friction": [(["--method", m, "--t-end", "20"], 0) for m in ("rk4", "adaptive", "exact")]
    + [(["--set", "k=1e300"], 3)],
    "cradle5": [(["--method", m], 0) for m in ("rk4", "exact")],
    "bouncing_ball": [(["--method", "exact"], 0), (["--no-zeno", "--t-end", "3"], 0)],
    "pendulum_wall": [(["--method", m, "--t-end", "2"], 0) for m in ("taylor", "rk4", "adaptive")]
    + [(["--lyapunov"], 1)],
    # a model written by its energies (the dense mass operator), and a run
    # that blows up (the mass matrix at a state that is not finite)
    "double_pendulum": [(["--method", m, "--t-end", "0.5"], 0) for m in ("taylor", "rk4",
                                                                         "adaptive")]
    + [(["--set", "g=1e300", "--method", "rk4"], 3), (["--lyapunov"], 1)],
}


def compile_one(src):
    """Compiles one source into WORK; returns (src, error text or None)."""
    obj = os.path.join(WORK, os.path.basename(src)[:-2] + ".o")
    p = subprocess.run([CLANG, *CFLAGS, "-c", src, "-o", obj], capture_output=True, text=True)
    return obj, (p.stderr if p.returncode else None)


def main():
    os.makedirs(WORK, exist_ok=True)
    srcs = [f for d in ("src", "studies", "programs")
            for f in sorted(glob.glob(SRC + "/runtime/" + d + "/*.c"))
            if os.path.basename(f)[:-2] not in ("h5out", "sweep")]
    srcs.append(SRC + "/compiler/units.c")
    srcs += [SRC + "/generated/%s.c" % name for name in SIMS]
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(compile_one, srcs))
    errors = [e for _, e in results if e]
    if errors:
        print("FAIL: compiling with clang's sanitizers:\n" + "\n".join(errors)[:5000])
        return 1
    objs = [o for o, _ in results]
    lib = [o for o in objs if os.path.basename(o)[:-2] not in SIMS]
    env = dict(os.environ)
    env["UBSAN_OPTIONS"] = ("halt_on_error=1:print_stacktrace=1:report_error_type=1:"
                            "suppressions=" + SRC + "/tests/reliability/ubsan.supp")
    failed = 0
    for name, runs in SIMS.items():
        exe = os.path.join(WORK, "sim_" + name)
        p = subprocess.run([CLANG, *SAN, "-o", exe, os.path.join(WORK, name + ".o"), *lib, "-lm"],
                           capture_output=True, text=True)
        if p.returncode:
            print("FAIL: linking sim_%s:\n%s" % (name, p.stderr[:3000]))
            return 1
        for args, want in runs:
            q = subprocess.run([exe, *args, "--out", os.devnull, "--events", os.devnull],
                               capture_output=True, text=True, env=env, timeout=300, cwd=WORK)
            bad = "runtime error" in q.stderr or q.returncode != want
            print("%s: sim_%s %s (exit %d)" % ("FAIL" if bad else "ok", name, " ".join(args),
                                               q.returncode))
            if bad:
                print(q.stderr[-3000:])
                failed += 1
    print("clang UBSan: %s" % ("%d runs failed" % failed if failed else "no report"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
