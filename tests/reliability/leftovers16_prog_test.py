#!/usr/bin/env python3
"""What the fifteenth hostile pass on the programs and the rounds after it
left as found (issue #29, docs/status.md), each a check that failed before
its fix.

    tests/reliability/leftovers16_prog_test.py NSMC SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  energy     `nsmc run`'s energy line says what the simulator's balance
             check judged: a pendulum released within 1.2e-16 rad of its
             top (its energies at their rounding's scale) reads a worst
             sample of 0.02 of the energy met by then beside a check that
             passed on the rounding floors, and now says it passed (so does
             the simulator's own line on stderr); with
             --energy-tol 0 it says the balance was not judged; a broken
             balance (rk4 at dt = 0.5 s) says the run failed.  The line's
             numbers are the column's own (its last and largest values).
  bom        a parameter file that starts with a byte order mark is read
             (its e = 0.5 is the run's: the ball's Zeno point at t1 (1 +
             e)/(1 - e)); one elsewhere, a no-break space, a byte that is
             no UTF-8, are refused at their line and column by code point
             (the mark was refused as "expected a parameter name").
  alone      `nsmc --version extra`, `--help extra`, `--datadir extra`,
             `--datadir --version`, `-h x`, `MODEL --help`, `cache clean
             extra`, `cache --help extra` are refused with the usage line,
             exit 1, nothing on stdout (the first answered, the rest
             ignored, exit 0).
  ignored    `nsmc continue`, `nsmc sweep` and `nsmc run` started with
             SIGHUP ignored (nohup, `trap '' HUP`) and sent SIGHUP every
             50 ms run to their end, exit 0, results whole (the
             continuation and the sweep caught it and stopped, 129);
             SIGTERM still stops them.
  compile    SIGTERM while `nsmc run`, `sweep` and `continue` compile
             their program into a cold cache: "interrupted by SIGTERM while
             compiling", exit 143, the cache entry without a half of itself
             (the generated C was left without its program), no compiler
             temporary in TMPDIR, and the next command compiles it and runs;
             Python's nsm.compile stopped by SIGINT while the C compiler
             runs: KeyboardInterrupt, the cache entry and TMPDIR as clean
             (the compiler, killed, left its .s, .o and .res in TMPDIR).
  tol        `nsmc continue --tol T` at its edges (and Python's
             continuation's tol=, whose 0 and -1 were "below the rounding"):
             0, -1, nan, inf refused
             (exit 1, "expected a positive number"), 1e-300 refused below
             the parameter's rounding; 1 and 1e300, wider than the range
             [2.5, 2.8], noted and the flip printed to the range's width,
             inside the range and within T of the impact map's
             2.6588845466848358 (it read "omega = 3", outside the range).
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import csv
import glob
import math
import os
import re
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import (SANITIZED, check, env_for, main, proc_descendants,  # noqa: E402
                     python_compiling, run, wait_until)

NSMC = os.path.abspath(sys.argv[1])
SRC = os.path.abspath(sys.argv[2])
FIO = os.path.join(SRC, "models", "forced_impact_oscillator.nsm")
BALL = os.path.join(SRC, "models", "bouncing_ball.nsm")
SLOW = 3 if SANITIZED else 1

# the period doubling of the forced impact oscillator's period-1 orbit, from
# the impact map (docs/studies.md; tests/studies, no code of the runtime)
FLIP = 2.6588845466848358

SWEEP = ["--param", "omega=2:3:2", "--section", "impact:stop"]
CONT = ["--param", "omega=2.5:2.8", "--max-points", "5", "--no-plot"]

# a pendulum written by its torque (the thirteenth core pass's), with its
# balance's column
from thirteenth_pass_core_test import PEND as PEND_BARE  # noqa: E402
PEND = PEND_BARE.replace("output every 10 ms: P.phi, P.omega",
                         "output every 10 ms: P.phi, P.omega, energy.error")
assert PEND != PEND_BARE


# ---- energy -----------------------------------------------------------------

def energy_line(p):
    """The 'energy balance error:' line of nsmc run's output, or ''."""
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith("energy balance error:")]
    return lines[0] if len(lines) == 1 else ""


def case_energy(tmp):
    """The energy line says the balance check's verdict."""
    with open(os.path.join(tmp, "pend.nsm"), "w") as f:
        f.write(PEND)
    top = ["--set", "phi0=3.141592653589793", "--method", "taylor", "--t-end", "3"]
    p = run(tmp, [NSMC, "run", "pend.nsm", "-q", "--no-plot", "--out-dir", "top"] + top,
            timeout=180 * SLOW)
    line = energy_line(p)
    print("  released at pi - 1.2e-16 rad, taylor, 3 s: exit %d, %r" % (p.returncode, line))
    check(p.returncode == 0 and line, "the near-top pendulum runs, one energy line", p)
    col = [float(r[3]) for r in list(csv.reader(open(os.path.join(tmp, "top",
                                                                   "trajectory.csv"))))[1:]]
    words = line.split()
    check(float(words[3]) == float("%.3g" % col[-1]) and
          float(words[7]) == float("%.3g" % max(abs(v) for v in col)),
          "the line gives the column's last and largest values (%s, %s)" % (words[3], words[7]))
    check(max(abs(v) for v in col) > 1e-2,
          "the column's worst sample is above 1e-2 of the energy met by then (%s)" % words[7])
    check("the simulator's balance check passed at every step" in line and
          "rounding floors" in line,
          "beside it, the simulator's verdict: passed, on its tolerance or the rounding floors "
          "(0.0204 at worst was printed alone, as a failure)")
    check(re.search(r"energy error \S+ J \(\S+ of the largest energy\), balance check passed "
                    r"at every step", p.stderr),
          "the simulator's own summary line says the verdict too (it read '(0.013 of the largest "
          "energy)' alone)", p)
    p = run(tmp, [NSMC, "run", "pend.nsm", "-q", "--no-plot", "--out-dir", "off"] + top +
            ["--energy-tol", "0"], timeout=180 * SLOW)
    line = energy_line(p)
    print("  --energy-tol 0: exit %d, %r" % (p.returncode, line[-80:]))
    check(p.returncode == 0 and "not judged (--energy-tol 0)" in line and "passed" not in line
          and "of the largest energy), balance not judged (--energy-tol 0)" in p.stderr,
          "--energy-tol 0: the balance said not judged, not passed, by both lines", p)
    p = run(tmp, [NSMC, "run", "pend.nsm", "-q", "--no-plot", "--out-dir", "rk4", "--set",
                  "phi0=2", "--method", "rk4", "--dt", "0.5", "--every", "0"],
            timeout=180 * SLOW)
    line = energy_line(p)
    print("  phi0 = 2, rk4 at dt = 0.5 s: exit %d, %r" % (p.returncode, line[-80:]))
    check(p.returncode == 3 and "the energy balance is off by" in p.stderr and
          "the run failed" in line and "passed" not in line,
          "a broken balance: exit 3, the simulator's message, the line says the run failed", p)


# ---- bom --------------------------------------------------------------------

def case_bom(tmp):
    """A byte order mark starting a parameter file is taken as none; any
    other character outside ASCII is named by its code point."""
    pf = os.path.join(tmp, "p.txt")
    with open(pf, "wb") as f:
        f.write(b"\xef\xbb\xbfe = 0.5\n")
    p = run(tmp, [NSMC, "run", BALL, "--set-file", pf, "--out-dir", "o", "-q", "--no-plot"],
            timeout=180 * SLOW)
    print("  BOM, then e = 0.5: exit %d %s" % (p.returncode, p.stderr.strip().splitlines()[-1:]))
    check(p.returncode == 0, "a parameter file starting with a byte order mark is read (it "
          "was refused, 'expected a parameter name')", p)
    with open(os.path.join(tmp, "o", "events.csv")) as f:
        zeno = [float(r.split(",")[0]) for r in f.read().splitlines()[1:] if ",zeno," in r]
    # the ball dropped from 1 m comes to rest at t1 (1 + e)/(1 - e), t1 = sqrt(2/g)
    t_rest = (2 / 9.81) ** 0.5 * 1.5 / 0.5
    print("  its Zeno point %s, closed form %.17g" % (zeno, t_rest))
    check(len(zeno) == 1 and abs(zeno[0] - t_rest) < 1e-9,
          "the file's e = 0.5 is the run's (Zeno point at t1 (1 + e)/(1 - e))")
    sim = glob.glob(os.path.join(tmp, "cache", "nsm", "bouncing_ball-*", "bouncing_ball"))
    check(len(sim) == 1, "the simulator is in the cache")
    for text, said in ((b"e = 0.5\n\xef\xbb\xbfg = 9.81\n",
                        "q.txt:2:1: the character U+FEFF (a byte order mark) outside a comment"),
                       (b"e = 0.5 \xef\xbb\xbf\n", "q.txt:1:9: the character U+FEFF"),
                       (b"\xc2\xa0e = 0.5\n", "q.txt:1:1: the character U+00A0 (a no-break space)"),
                       (b"e = 0.5\xff\n", "q.txt:1:8: the byte 0xff (not UTF-8)"),
                       (b"e = 0.5  # \xc3\xa9lastique \xef\xbb\xbf\n", None)):
        with open(os.path.join(tmp, "q.txt"), "wb") as f:
            f.write(text)
        for cmd in ([NSMC, "run", BALL, "--set-file", "q.txt", "--out-dir", "q", "-q",
                     "--no-plot"], [sim[0], "--set-file", "q.txt", "--out", "q.csv"]):
            p = run(tmp, cmd, timeout=180 * SLOW)
            print("  %-40r %s: exit %d %s" % (text, os.path.basename(cmd[0]), p.returncode,
                                             p.stderr.strip().splitlines()[-1:]))
            if said is None:
                check(p.returncode == 0, "anything in a comment is read as a comment", p)
            else:
                check(p.returncode == 1 and said in p.stderr and
                      not os.path.exists(os.path.join(tmp, "q.csv")),
                      "%r: '%s', exit 1, nothing written" % (text, said), p)


# ---- alone ------------------------------------------------------------------

def case_alone(tmp):
    """The options that stand alone refuse any other argument."""
    for args in (["--version", "extra"], ["--help", "extra"], ["--datadir", "extra"],
                 ["--datadir", "--version"], ["-h", "x"], [BALL, "--help"],
                 ["--check", BALL, "--version"], ["cache", "clean", "extra"],
                 ["cache", "--help", "extra"]):
        p = run(tmp, [NSMC] + args)
        print("  nsmc %s: exit %d, %r" % (" ".join(args), p.returncode, p.stderr.strip()))
        check(p.returncode == 1 and "usage: nsmc" in p.stderr and "takes no other argument"
              in p.stderr and p.stdout == "",
              "nsmc %s: refused with the usage line, exit 1 (the rest was ignored, exit 0)"
              % " ".join(args), p)
    for args, out in ((["--version"], "nsmc "), (["--help"], "usage: nsmc"),
                      (["--datadir"], "/")):
        p = run(tmp, [NSMC] + args)
        check(p.returncode == 0 and p.stdout.startswith(out), "nsmc %s alone still answers"
              % args[0], p)


# ---- ignored ----------------------------------------------------------------

def hup_ignored():
    """In the child before exec: SIGHUP ignored, as nohup leaves it."""
    signal.signal(signal.SIGHUP, signal.SIG_IGN)


def signalled(tmp, cmd, sig, ignore):
    """Runs cmd (its program cached) and sends sig every 50 ms from its
    start until it ends; (returncode, stderr, signals sent)."""
    pr = subprocess.Popen(cmd, cwd=tmp, env=env_for(tmp), stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True,
                          preexec_fn=hup_ignored if ignore else None)
    first = pr.stderr.readline()    # "nsmc: using the cached ...": nsmc catches stops
    sent, start = 0, time.time()
    while pr.poll() is None and time.time() - start < 120 * SLOW:
        time.sleep(0.05)
        try:
            pr.send_signal(sig)
            sent += 1
        except ProcessLookupError:
            break
        if not ignore:
            break
    err = first + pr.communicate(timeout=120 * SLOW)[1]
    return pr.returncode, err, sent


def case_ignored(tmp):
    """A stop signal ignored at the start stays ignored in every program."""
    # each about a second long in the normal build
    cases = [("continue", ["--param", "omega=2.5:2.8", "--max-points", "3000", "--ds", "1e-4",
                           "--ds-max", "1e-4", "--ds-min", "1e-5", "--no-plot"], "branch.csv",
              CONT),
             ("sweep", ["--param", "omega=2:3:100", "--section", "impact:stop"], "section.csv",
              SWEEP),
             ("run", ["-q", "--no-plot", "--t-end", "10000"], "trajectory.csv",
              ["-q", "--no-plot", "--t-end", "1"])]
    for k, (cmd, args, result, short) in enumerate(cases):
        warm = run(tmp, [NSMC, cmd, FIO] + short + ["--out-dir", "warm%d" % k],
                   timeout=180 * SLOW)
        check(warm.returncode == 0, "nsmc %s runs (its program cached)" % cmd, warm)
        out = "h%d" % k
        rc, err, sent = signalled(tmp, [NSMC, cmd, FIO] + args + ["--out-dir", out],
                                  signal.SIGHUP, True)
        print("  nsmc %s, SIGHUP ignored, sent %d times: exit %d %s"
              % (cmd, sent, rc, err.strip().splitlines()[-1:]))
        check(sent >= 2, "nsmc %s ran long enough to be sent SIGHUP twice" % cmd)
        check(rc == 0 and os.path.exists(os.path.join(tmp, out, result)) and
              not glob.glob(os.path.join(tmp, out, "*.partial")),
              "nsmc %s with SIGHUP ignored runs to its end, %s whole (it was stopped, 129)"
              % (cmd, result))
        rc, err, sent = signalled(tmp, [NSMC, cmd, FIO] + args + ["--out-dir", out + "t"],
                                  signal.SIGTERM, True)
        print("  nsmc %s, SIGHUP ignored, SIGTERM: exit %d %s"
              % (cmd, rc, err.strip().splitlines()[-1:]))
        check(rc == 128 + signal.SIGTERM, "SIGTERM still stops nsmc %s (exit 143)" % cmd)


# ---- compile ----------------------------------------------------------------

COMPILERS = {"cc", "gcc", "cc1", "as", "collect2", "ld"}


def compiler_running(pid):
    """Whether a C compiler's process (cc, cc1, as, collect2, ld) runs
    among the descendants of process pid."""
    return any(name in COMPILERS for name in proc_descendants(pid).values())


def signal_while_compiling(pr, sig, limit):
    """Sends sig to pr once a C compiler runs under it (within limit s;
    a fixed delay after the compile's start missed it on an idle machine,
    where the compile took under 0.1 s)."""
    wait_until(pr, lambda: compiler_running(pr.pid), limit, 0.001)
    pr.send_signal(sig)


def entry_files(cache):
    """Every file under the cache folder, by its path relative to it."""
    found = []
    for root, _, files in os.walk(cache):
        found += [os.path.relpath(os.path.join(root, f), cache) for f in files]
    return sorted(found)


def case_compile(tmp):
    """A stop while a program is compiled into a cold cache."""
    cases = [("run", ["-q", "--no-plot"], "simulator"),
             ("sweep", SWEEP, "sweep program"),
             ("continue", CONT, "continuation program")]
    for k, (cmd, args, what) in enumerate(cases):
        cache, scratch = os.path.join(tmp, "c%d" % k), os.path.join(tmp, "t%d" % k)
        os.makedirs(scratch)
        env = dict(env_for(tmp), XDG_CACHE_HOME=cache, TMPDIR=scratch)
        full = [NSMC, cmd, FIO] + args + ["--out-dir", "o%d" % k]
        pr = subprocess.Popen(full, cwd=tmp, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
        first = pr.stderr.readline()        # "nsmc: compiling the ...": cc starts
        signal_while_compiling(pr, signal.SIGTERM, 60 * SLOW)
        err = first + pr.communicate(timeout=120 * SLOW)[1]
        left, temps = entry_files(cache), os.listdir(scratch)
        print("  nsmc %s, SIGTERM while compiling: exit %d, %r, cache %s, TMPDIR %s"
              % (cmd, pr.returncode, err.strip().splitlines()[-1:], left, temps))
        check("compiling the %s" % what in first and pr.returncode == 128 + signal.SIGTERM and
              "interrupted by SIGTERM while compiling the %s" % what in err,
              "nsmc %s: the stop while compiling is said, exit 143" % cmd)
        check(all(os.path.basename(f) == ".lock" for f in left) and not temps,
              "nsmc %s: the cache entry holds no half of itself (its C without its program "
              "was left), TMPDIR no compiler temporary" % cmd)
        p = subprocess.run(full, cwd=tmp, env=env, capture_output=True, text=True,
                           timeout=180 * SLOW)
        check(p.returncode == 0 and "compiling the %s" % what in p.stderr,
              "nsmc %s: the next command compiles the program and runs" % cmd, p)
    python_stop(tmp)


PY_COMPILE = '''
import sys
import nsm
try:
    nsm.compile(sys.argv[1])
except KeyboardInterrupt:
    print("KeyboardInterrupt")
    sys.exit(130)
print("compiled")
'''


def python_stop(tmp):
    """nsm.compile stopped by SIGINT while the C compiler runs."""
    pr, cmd, env, cache, scratch = python_compiling(tmp, PY_COMPILE, FIO, 60 * SLOW)
    signal_while_compiling(pr, signal.SIGINT, 60 * SLOW)
    out, err = pr.communicate(timeout=120 * SLOW)
    time.sleep(0.2)     # a compiler left running would still write
    left, temps = entry_files(cache), os.listdir(scratch)
    print("  nsm.compile, SIGINT while the C compiler runs: exit %d, %r, cache %s, TMPDIR %s"
          % (pr.returncode, out.strip(), left, temps))
    check(pr.returncode == 130 and out.strip() == "KeyboardInterrupt",
          "nsm.compile raises KeyboardInterrupt", pr)
    check(all(os.path.basename(f) == ".lock" for f in left) and not temps,
          "the cache entry holds no half of itself, TMPDIR no compiler temporary (the "
          "compiler, killed, left its .s, .o and .res files)")
    p = subprocess.run(cmd, cwd=tmp, env=env, capture_output=True, text=True,
                       timeout=180 * SLOW)
    check(p.returncode == 0 and p.stdout.strip() == "compiled",
          "the next nsm.compile builds the model", p)


# ---- tol --------------------------------------------------------------------

PY_TOL = '''
import sys
import nsm
m = nsm.compile(sys.argv[1])
for tol in (0, -1, float("nan"), 1e-300):
    try:
        m.continuation("omega", 2.5, 2.8, tol=tol)
        print(tol, "taken")
    except nsm.SettingError as e:
        said = [w for w in ("expected a positive number", "must be a finite number",
                            "below the rounding") if w in str(e)]
        print(tol, said[0] if said else e)
'''

def case_tol(tmp):
    """--tol at its edges: refused, or honoured and said."""
    base = [NSMC, "continue", FIO, "--param", "omega=2.5:2.8", "--no-plot"]
    for tol, said in (("0", "expected a positive number"), ("-1", "expected a positive number"),
                      ("nan", "expected a positive number"), ("inf", "expected a positive number"),
                      ("1e-300", "below the rounding of the parameter over [2.5, 2.8]")):
        p = run(tmp, base + ["--tol", tol, "--out-dir", "r"], timeout=180 * SLOW)
        print("  --tol %-7s: exit %d %s" % (tol, p.returncode, p.stderr.strip().splitlines()[-1:]))
        check(p.returncode == 1 and "--tol %s: %s" % (tol, said) in p.stderr and
              not os.path.exists(os.path.join(tmp, "r")),
              "--tol %s: refused, '%s', exit 1, nothing made" % (tol, said), p)
    for tol in ("1", "1e300"):
        p = run(tmp, base + ["--tol", tol, "--out-dir", "t"], timeout=180 * SLOW)
        m = re.search(r"^flip\s+omega = (\S+)", p.stdout, re.M)
        print("  --tol %-7s: exit %d, %s; %s" % (tol, p.returncode, m.group(0) if m else None,
                                                 p.stderr.strip().splitlines()[-1:]))
        check(p.returncode == 0 and m and "is wider than the range [2.5, 2.8] itself" in p.stderr,
              "--tol %s: the continuation runs and notes a tolerance wider than the range" % tol, p)
        v = float(m.group(1))
        check(2.5 <= v <= 2.8 and abs(v - FLIP) <= min(float(tol), 0.3) and
              len(m.group(1).replace(".", "")) == 2,
              "--tol %s: the flip printed %s, 2 digits, inside [2.5, 2.8] and within the range's "
              "width of the impact map's %.17g (it read 3, outside the range)"
              % (tol, m.group(1), FLIP))
    py = PY_TOL
    p = run(tmp, [sys.executable, "-c", py, FIO], timeout=180 * SLOW)
    print("  Model.continuation(tol=...): %s" % p.stdout.strip().replace("\n", "; "))
    check(p.returncode == 0 and p.stdout.split("\n")[:4] ==
          ["0 expected a positive number", "-1 expected a positive number",
           "nan must be a finite number", "1e-300 below the rounding"],
          "Python's continuation refuses tol 0 and -1 as not positive (it said 'below the "
          "rounding'), NaN as not finite, 1e-300 below the rounding", p)
    p = run(tmp, base + ["--tol", "1e-3", "--out-dir", "f"], timeout=180 * SLOW)
    m = re.search(r"^flip\s+omega = (\S+)", p.stdout, re.M)
    print("  --tol 1e-3   : exit %d, %s" % (p.returncode, m.group(0) if m else None))
    check(p.returncode == 0 and m and m.group(1) == "2.659" and "wider" not in p.stderr and
          abs(float(m.group(1)) - FLIP) <= 1e-3,
          "--tol 1e-3: the flip printed to its tolerance's decade, 2.659, no note", p)


if __name__ == "__main__":
    sys.exit(main({"energy": case_energy, "bom": case_bom, "alone": case_alone,
                   "ignored": case_ignored, "compile": case_compile, "tol": case_tol},
                  "nsm-left16prog-", case_arg=3))
