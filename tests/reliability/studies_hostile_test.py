#!/usr/bin/env python3
"""A hostile user's pass over the studies: nothing silent, nothing crashes.

    tests/reliability/studies_hostile_test.py NSMC SIM SOURCE_DIR CASE

SIM is the forced impact oscillator's simulator (sim_forced_impact_oscillator).
Cases:
  section_period  a phase period the time axis cannot carry (1e-300, 1e-12
                  over a 754 s run) or that is no period (0, -1, 1/0), and a
                  stroboscopic period below the time resolution: refused
                  naming the option, by the simulator, `nsmc sweep` and
                  `--basin` (which say the first point's cause, exit 3, and
                  leave an earlier figure alone), never a column of zeros.
  hostile         about a hundred hostile inputs to `nsmc sweep` (--param,
                  --set, --basin, --lyapunov, --floquet, --continue, counts,
                  expressions), `nsmc continue` and the simulator's section
                  and HDF5 options: each ends by itself within its timeout
                  with exit 0, 1 or 3 and, when not 0, a message on stderr
                  naming what is wrong; never a signal, a sanitizer report,
                  an exit 0 without its output files, nor an exit 0 with a
                  warning-free all-zero phase column.
Each input and its outcome is printed, so the pass is repeatable and its log
is the record of what was tried.  Exits 1 on the first failure.
"""
import os
import subprocess
import sys
import tempfile

NSMC = os.path.abspath(sys.argv[1])
SIM = os.path.abspath(sys.argv[2])
SRC = os.path.abspath(sys.argv[3])
FIO = os.path.join(SRC, "models", "forced_impact_oscillator.nsm")
CLEAR = os.path.join(SRC, "tests", "studies", "impact_clearance.nsm")
SEC = ["--section", "impact:stop", "--section-period", "2*pi/omega"]


class Failure(Exception):
    pass


def check(cond, what, proc=None):
    """Fails the case with a message (and the process's output) unless cond."""
    if not cond:
        if proc is not None:
            what += "\n--- exit %r\n--- stderr:\n%s" % (proc.returncode, str(proc.stderr)[-3000:])
        raise Failure(what)
    print("ok:", what.splitlines()[0])


def env_for(tmp):
    e = dict(os.environ)
    e["XDG_CACHE_HOME"] = os.path.join(tmp, "cache")
    return e


def run(tmp, cmd, timeout=120):
    """Runs cmd in tmp (its own program cache); the CompletedProcess."""
    return subprocess.run(cmd, cwd=tmp, env=env_for(tmp), capture_output=True, text=True,
                          errors="replace", timeout=timeout)


def sweep(tmp, args, out="out", model=FIO, timeout=120):
    return run(tmp, [NSMC, "sweep", model] + args + (["--out-dir", out] if out else []), timeout)


def case_section_period(tmp):
    """Degenerate phase periods are refused naming --section-period."""
    for per in ("1e-300", "1e-12", "0", "-1", "pi*0"):
        p = run(tmp, [SIM, "--section", "impact:stop", "--section-period", per,
                      "--section-out", "sec.csv", "--out", "/dev/null"])
        rows = open(os.path.join(tmp, "sec.csv")).read().splitlines()[1:] \
            if os.path.exists(os.path.join(tmp, "sec.csv")) else []
        check(p.returncode in (1, 3) and "--section-period" in p.stderr and not rows,
              "simulator --section-period %s: refused naming the option, no record" % per, p)
    p = run(tmp, [SIM, "--section", "impact:stop", "--section-period", "1/0", "--out", "/dev/null"])
    check(p.returncode == 1 and "section period '1/0'" in p.stderr, "--section-period 1/0", p)
    for spec in ("period:1e-300", "period:1e-14:1"):
        p = run(tmp, [SIM, "--section", spec, "--section-out", "sec.csv", "--out", "/dev/null"],
                timeout=60)
        check(p.returncode == 3 and "below the time resolution" in p.stderr,
              "simulator --section %s: refused at once (no spin)" % spec, p)
    # a period the phase resolves (1e-5 s over 754 s: one ulp is 1e-8 of it) still runs
    p = run(tmp, [SIM, "--section", "impact:stop", "--section-period", "1e-5",
                  "--section-out", "sec.csv", "--out", "/dev/null"])
    ph = [float(l.split(",")[1]) for l in open(os.path.join(tmp, "sec.csv")).read().splitlines()[1:]]
    check(p.returncode == 0 and len(ph) > 10 and len(set(ph)) > 1,
          "a short period the time axis resolves: records with a varying phase", p)
    # the sweep: the first point's cause, exit 3, the earlier figure untouched
    p = sweep(tmp, ["--param", "omega=2:3:2", "--transient", "5", "--record", "3"] + SEC)
    check(p.returncode == 0, "a first, complete sweep", p)
    before = open(os.path.join(tmp, "out", "bifurcation.png"), "rb").read()
    p = sweep(tmp, ["--param", "omega=2:3:2", "--transient", "5", "--record", "3",
                    "--section", "impact:stop", "--section-period", "1e-300"])
    check(p.returncode == 3 and "no point gave section records" in p.stderr
          and "(--section-period) 1e-300 s is too short" in p.stderr,
          "nsmc sweep --section-period 1e-300: exit 3 with the cause", p)
    check(open(os.path.join(tmp, "out", "bifurcation.png"), "rb").read() == before,
          "the earlier bifurcation.png untouched")
    p = sweep(tmp, ["--basin", "M.x=-1:0:2", "--basin", "M.v=-1:1:2", "--transient", "5",
                    "--record", "3", "--section", "impact:stop", "--section-period", "1e-300"],
              out="basin")
    check(p.returncode == 3 and "no initial state gave records" in p.stderr
          and "(--section-period) 1e-300 s" in p.stderr
          and not os.path.exists(os.path.join(tmp, "basin", "basins.png")),
          "nsmc sweep --basin --section-period 1e-300: exit 3 with the cause, nothing drawn", p)


def outcome_ok(p, out_files):
    """An acceptable end: 0 with its files, or 1/3 with a message; never a
    signal or a sanitizer's report."""
    err = p.stderr or ""
    if "runtime error:" in err or "AddressSanitizer" in err or "LeakSanitizer" in err:
        return "a sanitizer report"
    if p.returncode < 0 or p.returncode >= 128:
        return "killed by a signal (%d)" % p.returncode
    if p.returncode == 0:
        missing = [f for f in out_files if not os.path.exists(f)]
        return "exit 0 without %s" % missing if missing else None
    if p.returncode not in (1, 3):
        return "exit status %d" % p.returncode
    if "error" not in err and "failed" not in err and "no point" not in err \
            and "no initial state" not in err and "no orbit" not in err:
        return "exit %d without a message" % p.returncode
    return None


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


def main():
    case = sys.argv[4]
    with tempfile.TemporaryDirectory(prefix="nsm-hostile-") as tmp:
        try:
            CASES[case](tmp)
        except (Failure, subprocess.TimeoutExpired, OSError, ValueError) as e:
            print("FAIL:", e)
            return 1
    print("PASS:", case)
    return 0


if __name__ == "__main__":
    sys.exit(main())
