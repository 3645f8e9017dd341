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
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import STUDY_WORDS, Failure, bad_end, check, main, run  # noqa: E402

NSMC = os.path.abspath(sys.argv[1])
SIM = os.path.abspath(sys.argv[2])
SRC = os.path.abspath(sys.argv[3])
FIO = os.path.join(SRC, "models", "forced_impact_oscillator.nsm")
CLEAR = os.path.join(SRC, "tests", "studies", "impact_clearance.nsm")
SEC = ["--section", "impact:stop", "--section-period", "2*pi/omega"]


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
        check(p.returncode in (1, 3) and "below the time resolution" in p.stderr,
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
    # (refused before the grid since the sixth hostile pass: every point
    # failed with this cause, exit 3)
    check(p.returncode == 1 and "(--section-period) 1e-300 s is too short" in p.stderr,
          "nsmc sweep --section-period 1e-300: exit 1 before the grid with the cause", p)
    check(open(os.path.join(tmp, "out", "bifurcation.png"), "rb").read() == before,
          "the earlier bifurcation.png untouched")
    p = sweep(tmp, ["--basin", "M.x=-1:0:2", "--basin", "M.v=-1:1:2", "--transient", "5",
                    "--record", "3", "--section", "impact:stop", "--section-period", "1e-300"],
              out="basin")
    check(p.returncode == 1 and "(--section-period) 1e-300 s" in p.stderr
          and not os.path.exists(os.path.join(tmp, "basin", "basins.png")),
          "nsmc sweep --basin --section-period 1e-300: exit 1 before the grid with the cause, "
          "nothing drawn", p)


def outcome_ok(p, out_files):
    """An acceptable end: 0 with its files, or 1/3 with a message; never a
    signal or a sanitizer's report (passlib.bad_end)."""
    why = bad_end(p, STUDY_WORDS)
    if why or p.returncode:
        return why
    missing = [f for f in out_files if not os.path.exists(f)]
    return "exit 0 without %s" % missing if missing else None


GRID = ["--param", "omega=2:3:2", "--transient", "3", "--record", "3"]
BASIN = ["--basin", "M.x=-1:0:2", "--basin", "M.v=-1:1:2", "--transient", "3", "--record", "3"]
CONT = ["--param", "omega=1.3:1.2", "--start", "1.9,3", "--max-points", "30"]


def hostile_inputs(tmp):
    """The hostile inputs: (label, command, files an exit 0 must leave)."""
    out = os.path.join(tmp, "out")
    sw = [os.path.join(out, "summary.csv")]
    br = [os.path.join(out, "branch.csv")]
    cases = []

    def S(label, args, model=FIO):
        cases.append(("sweep " + label, [NSMC, "sweep", model] + args + ["--out-dir", out], sw))

    def B(label, args):
        cases.append(("basin " + label, [NSMC, "sweep", FIO] + args + ["--out-dir", out], sw))

    def C(label, args):
        cases.append(("continue " + label, [NSMC, "continue", CLEAR] + args + ["--out-dir", out],
                      br))

    # --param
    for v in ("omega", "omega=", "omega=1:2", "omega=1:2:3:4", "omega=2:1:3", "omega=1:1:2",
              "omega=nan:2:2", "omega=inf:2:2", "omega=1:-inf:2", "omega=-1:1:3", "omega=0:1:2",
              "omega=1e308:1.7e308:2", "omega=1e-300:2e-300:2", "nope=1:2:2", "m=0:1:2",
              "e=-1:2:3", "zeta=-1:0:2", "omega=1 kg:2 kg:2", "omega=1 Hz:2 Hz:2",
              "omega=1:2:2.5", "omega=1:2:0x10", "omega=1:2: 2", "omega=1:2:1e9",
              "omega=:2:2", "=1:2:2", "omega=1:2:2 extra"):
        S("--param " + v, ["--param", v, "--transient", "3", "--record", "3"] + SEC)
    S("two axes", GRID + ["--param", "e=0.5:0.8:2"] + SEC)
    S("four axes of 65536", ["--param", "omega=1:2:65536", "--param", "e=0:1:65536",
                             "--param", "zeta=0:1:65536", "--param", "m=1:2:65536"] + SEC)
    # --set
    for v in ("e=2", "e=-0.1", "m=-1", "m=0", "zeta=nan", "zeta=inf", "k=1e300", "k=-1",
              "F=1e308", "nope=1", "e", "=1", "e=1 kg", "e=", "omega=3", "e=0.5 e=0.6"):
        S("--set " + v, GRID + ["--set", v] + SEC)
    S("--set twice", GRID + ["--set", "e=0.5", "--set", "e=0.6"] + SEC)
    # counts, jobs, method, t-max
    for opt, vals in (("--transient", ("-1", "abc", "1.5", "1e12")),
                      ("--record", ("0", "-1", "1e12", "")),
                      ("--jobs", ("0", "-1", "1000", "abc")),
                      ("--method", ("nope", "rk4", "adaptive", "taylor", "")),
                      ("--t-max", ("0", "-1", "1e300", "nan", "abc", "1e-300", "1/0",
                                   "2*pi/omega*0"))):
        for v in vals:
            S("%s %r" % (opt, v), ["--param", "omega=2:3:2"] +
              (["--transient", "3"] if opt != "--transient" else []) +
              (["--record", "3"] if opt != "--record" else []) + [opt, v] + SEC)
    # sections
    for spec in ("impact:nope", "period:0", "period:-1", "period:nan", "plane:M.x*M.x",
                 "plane:1", "", "impact:stop:x", "impact", "nope:1", "period:2*pi/omega:-1"):
        S("--section %r" % spec, GRID + ["--section", spec])
    S("no section", GRID)
    # studies' options
    S("--floquet rk4", GRID + SEC + ["--floquet", "--method", "rk4"])
    S("--floquet no period", GRID + ["--section", "impact:stop", "--floquet"])
    for v in ("0", "-1", "1e12", "abc"):
        S("--lyapunov-periods " + v, GRID + SEC + ["--lyapunov", "--lyapunov-periods", v])
    S("--lyapunov no period", GRID + ["--section", "impact:stop", "--lyapunov"])
    for v in ("sideways", "", "up up"):
        S("--continue %r" % v, GRID + SEC + ["--continue", v])
    S("--continue both --floquet --lyapunov", GRID + SEC + ["--continue", "both", "--floquet",
                                                              "--lyapunov"])
    S("--plot nope", GRID + SEC + ["--plot", "nope"])
    S("--plot phase", GRID + SEC + ["--plot", "phase"])
    # --basin
    for v in ("M.z=1:2:2", "N.x=1:2:2", "M.x=1:2:0", "M.x=nan:1:2", "M.x=1:2", "M.x",
              "M.v=1e308:1.7e308:2"):
        B("--basin %r" % v, ["--basin", v, "--basin", "M.v=-1:1:2", "--transient", "3",
                             "--record", "3"] + SEC)
    B("one axis", ["--basin", "M.x=-1:0:2", "--transient", "3", "--record", "3"] + SEC)
    B("one axis twice", ["--basin", "M.x=-1:0:2", "--basin", "M.x=-1:0:2"] + SEC)
    B("three axes", BASIN + ["--basin", "M.x=0:1:2"] + SEC)
    B("with --param", BASIN + ["--param", "omega=2:3:2"] + SEC)
    B("no period", BASIN + ["--section", "impact:stop"])
    for v in ("-1", "0", "nan", "abc", "1e300"):
        B("--basin-tol " + v, BASIN + SEC + ["--basin-tol", v])
    B("--continue", BASIN + SEC + ["--continue", "up"])
    # output folders and models
    S("--out-dir ''", GRID + SEC + ["--out-dir", ""])
    cases.append(("sweep --out-dir /dev/null", [NSMC, "sweep", FIO] + GRID + SEC +
                  ["--out-dir", "/dev/null"], sw))
    cases.append(("sweep --out-dir /proc/nope", [NSMC, "sweep", FIO] + GRID + SEC +
                  ["--out-dir", "/proc/nope/x"], sw))
    cases.append(("sweep no --out-dir", [NSMC, "sweep", FIO] + GRID + SEC, sw))
    cases.append(("sweep missing model", [NSMC, "sweep", os.path.join(tmp, "nope.nsm")] +
                  GRID + SEC + ["--out-dir", out], sw))
    cases.append(("sweep model is a folder", [NSMC, "sweep", tmp] + GRID + SEC +
                  ["--out-dir", out], sw))
    # nsmc continue
    for args in (["--param", "omega=nan:1"], ["--param", "omega=1.3"], ["--param", "omega=1.3:1.3"],
                 ["--param", "nope=1:2"], ["--param", "omega=1.3:1.2", "--start", "a,b"],
                 ["--param", "omega=1.3:1.2", "--start", "1"],
                 ["--param", "omega=1.3:1.2", "--start", "nan,1"],
                 ["--param", "omega=1.3:1.2", "--start", "1e308,1e308"]):
        C(" ".join(args), args + ["--max-points", "30"])
    for opt, vals in (("--ds", ("0", "-1", "nan", "1e300")), ("--ds-min", ("-1", "1")),
                      ("--ds-max", ("0", "1e-300")), ("--max-points", ("0", "-5", "abc")),
                      ("--periods", ("0", "-1", "1000000")), ("--tol", ("0", "-1", "1e-300")),
                      ("--period", ("0", "-1", "1e-300", "nope")), ("--transient", ("-1", "abc")),
                      ("--curve", ("nope", "fold")), ("--plot", ("nope",))):
        for v in vals:
            C("%s %r" % (opt, v), CONT + [opt, v])
    C("--curve fold without --param2", CONT + ["--curve", "fold"])
    C("--param2 nan", CONT + ["--curve", "fold", "--param2", "e=nan:0.5"])
    C("--set e=2", CONT + ["--set", "e=2"])
    C("--set omega=1", CONT + ["--set", "omega=1"])
    # the simulator's section and output options
    for args in (["--section", "impact:stop", "--section-out", tmp],
                 ["--section", "impact:stop", "--section-out", "/dev/full"],
                 ["--section", "impact:stop", "--section-out", "/proc/nope/x"],
                 ["--section-period", "1"], ["--section-out", "x.csv"],
                 ["--section", "impact:stop", "--section", "impact:stop"],
                 ["--section", "plane:M.v:sideways"],
                 ["--section", "impact:stop", "--out", "sec.h5", "--section-out", "sec.h5"],
                 ["--out", os.path.join(tmp, "x.h5"), "--section", "impact:stop",
                  "--section-out", "/dev/null"],
                 ["--out", "/dev/full"], ["--out", tmp], ["--out", "a.H5", "--set", "m=0"],
                 ["--section", "period:1e-9", "--section-out", "/dev/null", "--t-end", "1"]):
        cases.append(("simulator " + " ".join(args), [SIM] + args +
                      ([] if "--out" in args else ["--out", "/dev/null"]), []))
    return cases


def case_hostile(tmp):
    """Every hostile input ends by itself, with 0 and its files or 1/3 and a
    message; prints each input with its exit status and first line."""
    p = sweep(tmp, GRID + SEC, out="warm")
    check(p.returncode == 0, "the sweep program builds", p)
    cases = hostile_inputs(tmp)
    bad = []
    for label, cmd, files in cases:
        out = os.path.join(tmp, "out")
        if os.path.isdir(out):
            shutil.rmtree(out)
        try:
            p = run(tmp, cmd, timeout=180)
        except Failure:
            bad.append("%s: no end within 180 s" % label)
            print("HANG:", label)
            continue
        why = outcome_ok(p, files)
        first = next((l for l in p.stderr.splitlines() if "cached" not in l
                      and "compiling the" not in l), "")
        print("%-4s %-55s exit %d  %s" % ("BAD" if why else "ok", label[:55], p.returncode,
                                          first[:110]))
        if why:
            bad.append("%s: %s\n%s" % (label, why, p.stderr[-1500:]))
    print("%d hostile inputs, %d bad" % (len(cases), len(bad)))
    check(not bad, "every hostile input ends with 0 and its files, or 1/3 and a message:\n"
          + "\n".join(bad))


def case_findings(tmp):
    """What the hostile pass found, each fixed: two outputs onto one file
    (the HDF5 file replaced the section's CSV without a word), a
    stroboscopic section of 7.5e11 records (ran for days), a --set of the
    continued parameter (silently overridden), a --tol below the parameter's
    rounding, a continuation with no point (it blamed gnuplot and replaced
    the earlier diagram with an empty one, and its failure had no reason)."""
    p = run(tmp, [SIM, "--section", "impact:stop", "--out", "sec.h5", "--section-out", "sec.h5"])
    check(p.returncode == 1 and "--out and --section-out name the same file" in p.stderr,
          "--out x.h5 --section-out x.h5: refused", p)
    p = run(tmp, [SIM, "--out", "a.csv", "--events", "./a.csv"])
    check(p.returncode == 1 and "name the same file" in p.stderr and not os.path.exists(
        os.path.join(tmp, "a.csv")), "--out a.csv --events ./a.csv: refused, nothing written", p)
    p = run(tmp, [SIM, "--section", "impact:stop", "--out", "/dev/null", "--events", "/dev/null",
                  "--section-out", "/dev/null"])
    check(p.returncode == 0, "outputs may share /dev/null", p)
    p = run(tmp, [SIM, "--section", "period:1e-9", "--section-out", "/dev/null", "--out",
                  "/dev/null"], timeout=30)
    check(p.returncode == 1 and "7.54e+11 samples" in p.stderr and "--section period:T" in p.stderr,
          "--section period:1e-9 over 754 s: refused up front with the estimate", p)
    ok = run(tmp, [NSMC, "continue", CLEAR] + CONT + ["--out-dir", "c"])
    check(ok.returncode == 0, "a first continuation", ok)
    before = open(os.path.join(tmp, "c", "continuation.png"), "rb").read()
    p = run(tmp, [NSMC, "continue", CLEAR] + CONT + ["--set", "omega=1", "--out-dir", "c"])
    check(p.returncode == 1 and "--set omega: the parameter is continued by --param" in p.stderr,
          "continue --set of the continued parameter: refused", p)
    p = run(tmp, [NSMC, "continue", CLEAR] + CONT + ["--tol", "1e-300", "--out-dir", "c"])
    check(p.returncode == 1 and "--tol 1e-300: below the rounding" in p.stderr,
          "continue --tol 1e-300: refused", p)
    p = run(tmp, [NSMC, "continue", CLEAR] + CONT + ["--period", "1e-300", "--out-dir", "c"])
    check(p.returncode == 1 and "too short for the model's motion" in p.stderr and
          "gnuplot" not in p.stderr,
          "continue --period 1e-300: refused before any run, gnuplot not blamed", p)
    check(open(os.path.join(tmp, "c", "continuation.png"), "rb").read() == before,
          "the earlier continuation.png untouched")
    # Newton's iterates inside the stop were reported as the model's fault
    p = run(tmp, [NSMC, "continue", os.path.join(SRC, "tests", "studies", "two_dof_impact.nsm"),
                  "--param", "omega=2.5:1.0", "--out-dir", "c2"])
    check(p.returncode == 3 and "no periodic orbit found at omega = 2.5" in p.stderr
          and "penetrates" not in p.stderr,
          "continue from a start where Newton's iterates enter the stop: 'no periodic orbit "
          "found', not 'initial state penetrates the gap'", p)


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-hostile-", 4))
