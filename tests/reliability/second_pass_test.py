#!/usr/bin/env python3
"""A second hostile pass over the surfaces of issue #29: what the first pass
(hostile_pass_test.py) and the studies' pass did not try.

    tests/reliability/second_pass_test.py NSMC SIM FIO_SIM SOURCE_DIR CASE

SIM is the two-mass simulator (sim_two_mass), FIO_SIM the forced impact
oscillator's.  Cases:
  options   about 150 argument vectors of the simulator not tried before
            (--set spellings and units, values beyond a double's range,
            caps, sections, Lyapunov, animation, stdout, output names of 250
            bytes, symbolic links, odd file names): each ends by itself with
            0, 1 or 3 and a message; and what the pass found: a --set whose
            unit overflows the SI value (an empty message), a number beyond
            a double's range (blamed as "expected a number"), --max-steps 1.5
            (taken as 1), a step cap the run cannot keep (a run that failed,
            where Python refuses it up front), an HDF5 file or nsmc -o output
            of a 250-byte name (its temporary's name was too long).
  sweeps    about 60 `nsmc sweep` inputs not tried before (axis spellings,
            units, out-dirs that are links, ".", 250-byte names, methods,
            plots, basins), and the findings: --method taylor on a linear
            model (every point failed, exit 3; now exit 1 before the grid,
            nothing written), a --set unit overflow (an empty message).
  figures   gnuplot under a file-size limit leaves figures cut short and
            exits 0: the simulator's --plot said "plots: ..." with exit 0
            over 8 KiB halves of PNGs and SVGs, and a sweep replaced an
            earlier sweep's whole figures with cut ones; `nsmc continue` was
            killed by SIGXFSZ, leaving branch.csv.tmpPID.  Now: exit 1 naming
            the limit, no cut figure left, the earlier figures untouched.
  signals   a stop signal at the earliest moments: a simulator or sweep
            started with the stop signals blocked (an inherited mask) ran to
            the end deaf to SIGTERM; `nsmc run` signalled while its simulator
            was still starting killed it (the default action, before its
            handlers) instead of stopping it; SIGKILL of `nsmc run` left its
            simulator running on, unseen, into the folder.
  python    the Python API against the command line on 33 settings: each
            pair agrees (exit 0: a result, 1: ParameterError, SettingError,
            3: SimulationError); run(method="taylor") on a linear model and
            a study with it raised SimulationError where the command line
            gives an option error.
Each input and its outcome is printed, so the pass is repeatable and its log
is the record of what was tried.  Exits 1 on the first failure.
"""
import os
import re
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import (Failure, SANITIZED, alive, blocked, check, children, env_for,  # noqa: E402
                     label_of, limit, main, pass_paths, run, tried, whole_figure)
from passlib import later_bad_end as bad_end  # noqa: E402

NSMC, SIM, FIO_SIM, SRC = pass_paths()[:4]
FIO = os.path.join(SRC, "models", "forced_impact_oscillator.nsm")
TWO = os.path.join(SRC, "models", "two_mass.nsm")
CLEAR = os.path.join(SRC, "tests", "studies", "impact_clearance.nsm")
SEC = ["--section", "impact:stop", "--section-period", "2*pi/omega"]


# ---- options ----------------------------------------------------------------

OPTION_INPUTS = [
    ["--t-end=5"], ["-t", "1"], ["--t"], ["--T-END", "1"], ["--", "--t-end", "1"], ["positional"],
    ["-"], ["--set", "k1="], ["--set", "=2"], ["--set", "k1==2"], ["--set", "k1=2=3"],
    ["--set", "k1 = 2"], ["--set", "K1=2"], ["--set", "k1=2 kN/m"], ["--set", "k1=2 kg"],
    ["--set", "k1=1e306 kN/m"], ["--set", "k1=1e-320"], ["--set", "m1=5 g"],
    ["--set", "m1=1e-310"], ["--set", "e=0.5 %"], ["--set", "e=50%"], ["--set", "k1=2N/m"],
    ["--set", "k1=  2  "], ["--set", "k1=2\n"], ["--set", "k1=0x1p3"], ["--set", "k1=1_000"],
    ["--set", "k1=+2"], ["--set", "k1=.5"], ["--set", "k1=5."], ["--set", "k1=1e+"],
    ["--set", "k1=infinity"], ["--set", "k1=2 N/mm"], ["--set", "k1=2 N m^-1"],
    ["--set", "k1=2 N/m/m"], ["--set", "m1=2 lb"], ["--set", "m1=2 kg*m/m"],
    ["--set", "m1=1e306 Mg"], ["--set", "k1=1e400"], ["--set", "c1=1e308 kN*s/m"],
    ["--set", "e=1e308 m/m"], ["--dt", "0", "--method", "rk4"], ["--dt", "1e300"],
    ["--dt", "-0"], ["--max-steps", "0"], ["--max-steps", "9223372036854775807"],
    ["--max-steps", "9223372036854775808"], ["--max-steps", "1e18"], ["--max-steps", "1.5"],
    ["--max-steps", "1"], ["--max-steps", "49"], ["--max-event-rate", "0"],
    ["--max-event-rate", "1e-300"], ["--max-impacts", "0"], ["--max-impacts", "-1"],
    ["--max-impacts", "1e300"], ["--events-max", "-1"], ["--events-max", "0"],
    ["--events-max", "1e30"], ["--rtol", "1e-300"], ["--rtol", "1"], ["--rtol", "10"],
    ["--atol", "1e300"], ["--method", "adaptive", "--rtol", "1e-30", "--atol", "0"],
    ["--method", "adaptive", "--rtol", "10"], ["--energy-tol", "1e-300"],
    ["--energy-tol", "-0"], ["--method", "TAYLOR"], ["--method", "rk4 "],
    ["--method", "exact", "--dt", "1e-300"], ["--method", "exact", "--dt", "0"],
    ["--section", "impact:"], ["--section", "period:"], ["--section", "period:1:2:3"],
    ["--section", "plane:"], ["--section", "plane:M1.x:up:down"],
    ["--section", "impact:C", "--section-period", "0*k1"], ["--section", "period:1/0"],
    ["--section", "period:-1"], ["--section", "period:1e300"],
    ["--section", "plane:M1.x*M1.x"], ["--section", "plane:sin(M1.x)"],
    ["--section", "plane:1"], ["--section", "plane:0"], ["--section", "plane:M1.x - M1.x"],
    ["--section", "plane:M1.x - M2.x:both"], ["--section", "impact:C", "--section-out", "-"],
    ["--lyapunov", "--lyapunov-interval", "1e-300"], ["--lyapunov", "--lyapunov-interval", "1e300"],
    ["--lyapunov", "--lyapunov-transient", "0.05"], ["--lyapunov", "--method", "rk4"],
    ["--lyapunov", "--lyapunov-out", "/dev/full"], ["--animate", "x.gif", "--fps", "1e9"],
    ["--animate", "x.gif", "--frames", "1e9"], ["--animate", "x.gif", "--fps", "0.001"],
    ["--animate", "/dev/full"], ["--animate", "x.png"], ["--animate", "x.gif", "--frames", "1"],
    ["--plot", "/dev/null"], ["--phase"], ["--table"],
    ["--summary", "--events", "-", "--stats", "-", "--out", "-"], ["--out", "-", "--events", "-"],
    ["--out", "-", "--out", "-"], ["--out", "x.h5", "--out", "y.hdf5"],
    ["--out", "x.h5", "--out", "x.csv"], ["--set-file", "/dev/stdin"], ["--set-file", "."],
    ["--set-file", "/proc/self/status"], ["--out", "a" * 249 + ".h5"], ["--out", "b" * 240 + ".csv"],
    ["--out", "c" * 255], ["--out", ".h5"], ["--out", "x.h5/"], ["--out", "link.h5"],
    ["--out", "x.HDF5"], ["--out", "x.h5.partial"], ["--out", "/dev/null.h5"],
    ["--out", "/dev/stdout"], ["--out", "x.h5", "--events", "x.h5"],
    ["--out", "x.h5", "--stats", "x.h5"], ["--out", "y.csv", "--stats", "./y.csv"],
    ["--out", "x.h5", "--every", "0"], ["--out", "x.h5", "--section", "impact:C",
                                         "--section-out", "x.h5"],
    ["--out", "z.h5", "--section", "impact:C"], ["--out", "z2.h5", "--lyapunov"],
    ["--out", "z3.h5", "--set", "m1=-1"], ["--out", "dir.h5"], ["--out", "..h5"],
    ["--out", "x y.h5"], ["--out", "\u00e9.h5"], ["--out", "x\n.h5"], ["--events", "e" * 250],
    ["--plot", "p" * 250], ["--animate", "g" * 250 + ".gif"], ["--set-file", "setf.txt"],
    ["--set-file", "crlf.txt"], ["--set-file", "big.txt"], ["--set-file", "bom.txt"],
]


def case_options(tmp):
    """The simulator's argument vectors, then the findings' own checks."""
    open(os.path.join(tmp, "real.h5"), "w").write("an earlier file\n")
    os.symlink("real.h5", os.path.join(tmp, "link.h5"))
    os.makedirs(os.path.join(tmp, "dir.h5"))
    open(os.path.join(tmp, "setf.txt"), "w").write("k1 = 1e306 kN/m\n")
    open(os.path.join(tmp, "crlf.txt"), "w").write("k1 = 3\r\ne = 0.5\r\n")
    open(os.path.join(tmp, "big.txt"), "w").write("k1 = 1e999\n")
    open(os.path.join(tmp, "bom.txt"), "wb").write(b"\xef\xbb\xbfk1 = 3\n")
    n = 0
    # under the sanitizers each run takes about a second: every third vector
    # (the findings' own checks below all run)
    for args in OPTION_INPUTS[::3] if SANITIZED else OPTION_INPUTS:
        if SANITIZED and ("--animate" in args or "--plot" in args):
            continue            # gnuplot's time, not ours
        tried(tmp, [SIM, "--t-end", "0.05"] + args, label_of(args), timeout=120)
        n += 1
    print("options: %d argument vectors" % n)
    # what the pass found
    for args, words in (
            (["--set", "k1=1e306 kN/m"], "more than the largest double"),
            (["--set", "m1=1e306 Mg"], "more than the largest double"),
            (["--set-file", "setf.txt"], "more than the largest double"),
            (["--set", "k1=1e400"], "beyond the range of a double"),
            (["--set-file", "big.txt"], "beyond the range of a double"),
            (["--max-steps", "1.5"], "bad value '1.5' for --max-steps"),
            (["--max-steps", "49"], "more than the step cap of 49")):
        p = run(tmp, [SIM, "--t-end", "0.05", "--out", "cap.csv"] + args)
        check(p.returncode == 1 and words in p.stderr and not bad_end(p)
              and not os.path.exists(os.path.join(tmp, "cap.csv")),
              "%s: exit 1, '%s', nothing written" % (label_of(args), words), p)
    import h5py
    p = run(tmp, [SIM, "--t-end", "0.05", "--set", "k1=1e-320", "--out", "sub.csv"])
    check(p.returncode == 0, "--set k1=1e-320 (a subnormal): taken, as Python's params take it",
          p)
    for args in (["--lyapunov-interval", "1e-300"], ["--lyapunov-interval", "1e-9"]):
        p = run(tmp, [FIO_SIM, "--t-end", "10", "--lyapunov", "--out", "ly.csv"] + args,
                timeout=60)
        check(p.returncode == 1 and "--lyapunov-interval" in p.stderr and
              not os.path.exists(os.path.join(tmp, "ly.csv")),
              "--lyapunov %s over 10 s: refused up front (it spun for ever), nothing written"
              % label_of(args), p)
    long_h5 = "a" * 249 + ".h5"
    p = run(tmp, [SIM, "--t-end", "0.05", "--out", long_h5])
    with h5py.File(os.path.join(tmp, long_h5), "r") as f:
        rows = f["trajectory"].shape[0]
    check(p.returncode == 0 and rows > 0 and
          not [x for x in os.listdir(tmp) if re.search(r"\.\d+\.partial$", x)],
          "--out of a 252-byte HDF5 name: written (%d rows), no temporary left" % rows, p)
    p = run(tmp, [SIM, "--t-end", "0.05", "--out", "link.h5"])
    check(p.returncode == 0, "--out link.h5 (a symbolic link to real.h5)", p)
    with h5py.File(os.path.join(tmp, "link.h5"), "r") as f:
        check(os.path.islink(os.path.join(tmp, "link.h5")) and f["trajectory"].shape[0] > 0,
              "--out onto a symbolic link: its target written, the link kept")
    long_c = "c" * 252
    p = run(tmp, [NSMC, TWO, "-o", long_c])
    check(p.returncode == 0 and os.path.getsize(os.path.join(tmp, long_c)) > 1000 and
          not [x for x in os.listdir(tmp) if ".tmp" in x],
          "nsmc -o of a 252-byte name: written, no temporary left", p)


# ---- sweeps -----------------------------------------------------------------

def case_sweeps(tmp):
    """nsmc sweep's inputs, then the findings' own checks."""
    grid = ["--transient", "2", "--record", "2"]
    p = run(tmp, [NSMC, "sweep", FIO, "--param", "omega=2:3:2"] + grid + SEC +
            ["--out-dir", "first"], timeout=600)
    check(p.returncode == 0, "a first sweep builds the cached sweep program", p)
    open(os.path.join(tmp, "afile"), "w").write("x")
    os.makedirs(os.path.join(tmp, "real_dir"))
    os.symlink("real_dir", os.path.join(tmp, "dlink"))
    os.symlink("nowhere/x", os.path.join(tmp, "dangle"))
    P = ["--param", "omega=2:3:2"]
    inputs = [["--param", v] + grid + SEC for v in (
        "omega=3:2:2", "omega=2:2:3", "omega=2 rad/s:3 rad/s:2", "omega=2 Hz:3:2", "omega=2:3:2 ",
        "omega= 2:3:2", "omega=2:3:+2", "omega=2:3:02", "omega=2:3:2e0", "omega=-1:1:3",
        "omega=0:1:2", "omega=1e-300:1e-299:2", "omega=1e300:1e301:2", "Omega=2:3:2",
        "omega=2:3:2:4", "omega=::", "omega=2:3:", "x" * 200 + "=1:2:2", "e=0:1:3",
        "e=-0.1:0.5:2", "zeta=0:1:2", "m=0:1:2", "omega=2;3;2", "omega=2..3..2",
        "omega=nan:3:2", "omega=2:3:nan", "omega=1e400:2:2", "omega=2 kHz:3:2")]
    inputs += [P + grid + SEC + ["--set", v] for v in (
        "e=1e306 kN/m", "m=1e306 Mg", "e=1e-320", "x" * 200 + "=1", "e", "e=", "m=1e-300",
        "k=1e300", "k=1e400", "zeta=1e308 m/m")]
    inputs += [P + grid + SEC + a for a in (
        ["--jobs", "64"], ["--t-max", "1e-9"], ["--t-max", "omega"], ["--plot", "M.v"],
        ["--plot", "t"], ["--plot", "omega"], ["--plot", ""], ["--method", "exact"],
        ["--method", "taylor"], ["--method", "adaptive"], ["--floquet"], ["--lyapunov"],
        ["--continue", "up", "--jobs", "2"], ["--basin-pilot", "5"], ["--lyapunov-periods", "3"])]
    inputs += [P + grid + ["--section", s] for s in ("period:2*pi/omega", "plane:M.x",
                                                      "impact:stop:x", "plane:M.x*M.x")]
    basin = ["--basin", "M.x=-1:0:2", "--basin", "M.v=-1:1:2"] + grid + SEC
    inputs += [basin + ["--basin-pilot", "0"], basin + ["--set", "omega=1e300"],
               basin + ["--method", "taylor"],
               ["--basin", "M.x=-1e300:1e300:2", "--basin", "M.v=-1:1:2"] + grid + SEC,
               ["--basin", "M.v=-1:0:2", "--basin", "M.x=-1:1:2"] + grid + SEC]
    n = 0
    for k, args in enumerate(inputs):
        if SANITIZED and k % 3:
            continue            # every third under the sanitizers (a second each)
        tried(tmp, [NSMC, "sweep", FIO] + args + ["--out-dir", "o%d" % k], label_of(args))
        n += 1
    for out in (".", "./", "real_dir/", "dlink", "dangle", "afile/x", "/dev/null/x",
                "o_" + "y" * 250, "/proc/1/x", "first")[::3 if SANITIZED else 1]:
        tried(tmp, [NSMC, "sweep", FIO] + P + grid + SEC + ["--out-dir", out], "--out-dir " +
              label_of([out]))
        n += 1
    print("sweeps: %d inputs" % n)
    # what the pass found: an option the model cannot take is refused before the grid
    for args, words in (
            (["--method", "taylor"], "--method taylor: "),
            (["--set", "m=1e306 Mg"], "more than the largest double"),
            (["--set", "e=1e400"], "beyond the range of a double")):
        p = run(tmp, [NSMC, "sweep", FIO] + P + grid + SEC + args + ["--out-dir", "never"])
        check(p.returncode == 1 and words in p.stderr and not bad_end(p)
              and not os.path.exists(os.path.join(tmp, "never")),
              "sweep %s: exit 1 before the grid ('%s'), nothing written" % (label_of(args), words),
              p)
    p = run(tmp, [NSMC, "sweep", FIO, "--basin", "M.x=-1:0:2", "--basin", "M.x=-1:1:2"] + grid +
            SEC + ["--out-dir", "never"])
    check(p.returncode == 1 and "--basin M.x is given twice" in p.stderr,
          "one basin coordinate twice: the message names --basin (it named --param)", p)
    p = run(tmp, [NSMC, "sweep", FIO] + basin + ["--method", "taylor", "--out-dir", "never"])
    check(p.returncode == 1 and "--method taylor" in p.stderr and
          not os.path.exists(os.path.join(tmp, "never")),
          "a basin with --method taylor: exit 1 before the grid", p)


# ---- figures ----------------------------------------------------------------

def case_figures(tmp):
    """Figures under a file-size limit: refused, nothing cut left or installed."""
    p = run(tmp, [SIM, "--t-end", "1", "--every", "0.1", "--plot", "pl", "--phase"],
            preexec=limit(8192))
    figs = [f for f in os.listdir(os.path.join(tmp, "pl")) if f.endswith((".png", ".svg"))]
    check(p.returncode == 1 and "file-size limit" in p.stderr and "plots:" not in p.stderr
          and not figs, "--plot under an 8 KiB file-size limit: exit 1 naming the limit, no cut "
          "figure left (%s)" % figs, p)
    p = run(tmp, [SIM, "--t-end", "1", "--every", "0.1", "--plot", "pl", "--phase"])
    check(p.returncode == 0 and all(whole_figure(os.path.join(tmp, "pl", f)) for f in
                                    ("plot.png", "plot.svg", "phase.png", "phase.svg")),
          "--plot without a limit: every figure whole", p)
    args = ["--param", "omega=2:3:3", "--transient", "2", "--record", "2"] + SEC
    p = run(tmp, [NSMC, "sweep", FIO] + args + ["--out-dir", "sw"], timeout=600)
    check(p.returncode == 0 and whole_figure(os.path.join(tmp, "sw", "bifurcation.png")),
          "a first sweep draws whole figures", p)
    before = {f: open(os.path.join(tmp, "sw", f), "rb").read()
              for f in ("bifurcation.png", "bifurcation.svg")}
    for nbytes in (1024, 8192):
        p = run(tmp, [NSMC, "sweep", FIO] + args + ["--out-dir", "sw"], preexec=limit(nbytes))
        after = {f: open(os.path.join(tmp, "sw", f), "rb").read() for f in before}
        check(p.returncode == 1 and "file-size limit" in p.stderr and after == before and
              not [f for f in os.listdir(os.path.join(tmp, "sw")) if ".tmp" in f],
              "a sweep under a %d-byte limit: exit 1 naming the limit, the earlier figures "
              "byte for byte, no temporary left" % nbytes, p)
    cont = ["--param", "omega=1.3:1.2", "--start", "1.9,3", "--max-points", "30"]
    p = run(tmp, [NSMC, "continue", CLEAR] + cont + ["--out-dir", "c"], timeout=600)
    check(p.returncode == 0, "a first continuation", p)
    before = {f: open(os.path.join(tmp, "c", f), "rb").read() for f in os.listdir(
        os.path.join(tmp, "c")) if f.endswith((".csv", ".png", ".svg"))}
    for nbytes in (4096, 40000):
        p = run(tmp, [NSMC, "continue", CLEAR] + cont + ["--out-dir", "c"], preexec=limit(nbytes))
        after = {f: open(os.path.join(tmp, "c", f), "rb").read() for f in before}
        left = [f for f in os.listdir(os.path.join(tmp, "c")) if ".tmp" in f]
        check(p.returncode == 1 and "error" in p.stderr and not left and
              all(whole_figure(os.path.join(tmp, "c", f)) for f in after if f[-4:] != ".csv"),
              "nsmc continue under a %d-byte limit: exit 1 with the reason (not SIGXFSZ), no "
              "temporary, no cut figure" % nbytes, p)


# ---- signals ----------------------------------------------------------------

def continue_stopped_while_writing(tmp, env):
    """nsmc continue stopped (the whole process group, as Ctrl-C does) the
    moment a temporary of its results appears: no DIR/NAME.tmpPID is left."""
    cont = ["--param", "omega=1.3:1.2", "--start", "1.9,3", "--max-points", "30"]
    p = run(tmp, [NSMC, "continue", CLEAR] + cont + ["--out-dir", "c0"], timeout=600)
    check(p.returncode == 0, "a first continuation builds the cached program", p)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        out = os.path.join(tmp, "c_" + sig.name)
        pr = subprocess.Popen([NSMC, "continue", CLEAR] + cont + ["--out-dir", out], cwd=tmp,
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True, start_new_session=True)
        seen = None
        while pr.poll() is None and seen is None:
            if os.path.isdir(out):
                seen = next((f for f in os.listdir(out) if ".tmp" in f), None)
            if seen is not None:
                os.killpg(pr.pid, sig)
            else:
                time.sleep(0.0002)
        pr.communicate(timeout=120)
        left = [f for f in os.listdir(out) if ".tmp" in f] if os.path.isdir(out) else []
        print("  nsmc continue, %s on seeing %s: exit %d, left %s"
              % (sig.name, seen, pr.returncode, left))
        check(not left, "nsmc continue stopped by %s while %s was being written: no "
              "temporary left (%s)" % (sig.name, seen, left))


def case_signals(tmp):
    """Stop requests at the earliest moments, with the mask inherited blocked,
    nsmc run killed outright, and nsmc continue stopped while it writes."""
    env = env_for(tmp)
    continue_stopped_while_writing(tmp, env)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        pr = subprocess.Popen([SIM, "--t-end", "2000", "--every", "0.01", "--out", "b.csv"],
                              cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True, preexec_fn=blocked)
        pr.send_signal(sig)
        try:
            err = pr.communicate(timeout=60)[1]
        except subprocess.TimeoutExpired:
            pr.kill()
            raise Failure("a simulator started with %s blocked: still running 60 s later"
                          % sig.name)
        check(pr.returncode == 128 + sig and "interrupted by %s" % sig.name in err,
              "a simulator started with the stop signals blocked, sent %s at once: exit %d, "
              "stopped" % (sig.name, pr.returncode))
    p = run(tmp, [NSMC, "sweep", FIO, "--param", "omega=2:3:2", "--transient", "2", "--record",
                  "2", "--out-dir", "s0"] + SEC, timeout=600)
    check(p.returncode == 0, "a first sweep builds the cached sweep program", p)
    pr = subprocess.Popen([NSMC, "sweep", FIO, "--param", "omega=1.5:3:100000", "--transient",
                           "20", "--record", "10", "--out-dir", "s1"] + SEC, cwd=tmp, env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          preexec_fn=blocked)
    pr.send_signal(signal.SIGTERM)
    try:
        pr.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        pr.kill()
        raise Failure("a sweep started with SIGTERM blocked: still running 120 s later")
    check(pr.returncode == 143, "a sweep started with the stop signals blocked, sent SIGTERM at "
          "once: exit %d" % pr.returncode)
    # nsmc run signalled while its simulator is still starting: the request
    # waits (blocked across exec) and stops the simulator, which says so
    p = run(tmp, [NSMC, "run", TWO, "--out-dir", "r0", "--t-end", "0.1"], timeout=600)
    check(p.returncode == 0, "a first nsmc run builds the cached simulator", p)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        pr = subprocess.Popen([NSMC, "run", TWO, "--out-dir", "r1", "--t-end", "200"], cwd=tmp,
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True)
        t0 = time.monotonic()
        while not children(pr.pid) and time.monotonic() - t0 < 60 and pr.poll() is None:
            pass
        pr.send_signal(sig)
        err = pr.communicate(timeout=120)[1]
        check(pr.returncode == 128 + sig and "was killed by" not in err and
              "two_mass: interrupted by %s" % sig.name in err,
              "nsmc run sent %s as its simulator starts: the simulator stopped itself, exit %d"
              % (sig.name, pr.returncode))
        if os.path.exists(os.path.join(tmp, "r1", "trajectory.csv")):
            data = open(os.path.join(tmp, "r1", "trajectory.csv"), "rb").read()
            check(not data or data.endswith(b"\n"), "  its trajectory.csv holds whole lines")
    # SIGKILL of nsmc run: its simulator does not run on unseen
    pr = subprocess.Popen([NSMC, "run", TWO, "--out-dir", "r2", "--t-end", "1e5", "--every",
                           "0.01"], cwd=tmp, env=env, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL)
    t0 = time.monotonic()
    while not children(pr.pid) and time.monotonic() - t0 < 60:
        time.sleep(0.01)
    kids = children(pr.pid)
    check(bool(kids), "nsmc run started its simulator (process %s)" % kids)
    time.sleep(0.5)
    pr.kill()
    pr.wait()
    t0 = time.monotonic()
    while any(alive(k) for k in kids) and time.monotonic() - t0 < 20:
        time.sleep(0.05)
    left = [k for k in kids if alive(k)]
    for k in left:
        os.kill(k, signal.SIGKILL)
    check(not left, "SIGKILL of nsmc run: its simulator stopped too (%.1f s)"
          % (time.monotonic() - t0))


# ---- python -----------------------------------------------------------------

PY = r'''
import os, subprocess, sys
import nsm
SRC, SIM = sys.argv[1], sys.argv[2]
m = nsm.compile(os.path.join(SRC, "models", "two_mass.nsm"))
f = nsm.compile(os.path.join(SRC, "models", "forced_impact_oscillator.nsm"))
CASES = [
 (["--method", "taylor"], dict(method="taylor")),
 (["--method", "exact", "--dt", "1e-300"], dict(method="exact", dt=1e-300)),
 (["--dt", "1e-300"], dict(dt=1e-300)),
 (["--t-end", "1e300"], dict(t_end=1e300)),
 (["--t-end", "1e300", "--every", "0"], dict(t_end=1e300, every=0)),
 (["--t-end", "0"], dict(t_end=0)),
 (["--t-end", "-1"], dict(t_end=-1)),
 (["--every", "1e-300"], dict(every=1e-300)),
 (["--every", "-1"], dict(every=-1)),
 (["--every", "1e300"], dict(every=1e300)),
 (["--max-steps", "1.5"], dict(max_steps=1.5)),
 (["--max-steps", "1"], dict(max_steps=1)),
 (["--max-steps", "999"], dict(max_steps=999)),
 (["--max-steps", "1e18"], dict(max_steps=1e18)),
 (["--max-event-rate", "1e-300"], dict(max_event_rate=1e-300)),
 (["--max-event-rate", "0"], dict(max_event_rate=0)),
 (["--rtol", "0"], dict(rtol=0)),
 (["--rtol", "10", "--method", "adaptive"], dict(rtol=10, method="adaptive")),
 (["--atol", "-1"], dict(atol=-1)),
 (["--method", "adaptive", "--rtol", "1e-30", "--atol", "0"],
  dict(method="adaptive", rtol=1e-30, atol=0)),
 (["--set", "k1=1e300"], dict(params={"k1": 1e300})),
 (["--set", "m1=1e-300"], dict(params={"m1": 1e-300})),
 (["--set", "e=2"], dict(params={"e": 2})),
 (["--set", "m1=0"], dict(params={"m1": 0})),
 (["--set", "k1=-1"], dict(params={"k1": -1})),
 (["--set", "c1=1e300"], dict(params={"c1": 1e300})),
 (["--set", "c1=1e300", "--method", "exact"], dict(params={"c1": 1e300}, method="exact")),
 (["--set", "k1=1e300", "--method", "exact"], dict(params={"k1": 1e300}, method="exact")),
 (["--set", "k1=1e300", "--method", "adaptive"], dict(params={"k1": 1e300}, method="adaptive")),
 (["--no-zeno"], dict(zeno=False)),
 (["--dt", "0"], dict(dt=0)),
 (["--dt", "1e300"], dict(dt=1e300)),
 (["--method", "exact", "--dt", "0"], dict(method="exact", dt=0)),
]
MAP = {0: ("ok",), 1: ("SettingError", "ParameterError"), 3: ("SimulationError",)}
bad = []
for args, kw in CASES:
    cmd = [SIM] + ([] if "--t-end" in args else ["--t-end", "1"]) + args + ["--out", "/dev/null"]
    cli = subprocess.run(cmd, capture_output=True, text=True, timeout=300).returncode
    kw = dict(kw)
    kw.setdefault("t_end", 1)
    try:
        m.run(**kw)
        py = "ok"
    except nsm.Error as e:
        assert str(e).strip(), "%s: an empty message" % args
        py = type(e).__name__
    same = cli in MAP and py in MAP[cli]
    print("  %-45s CLI exit %s, Python %s%s" % (" ".join(args), cli, py, "" if same else "  <-- differ"))
    if not same:
        bad.append(args)
assert not bad, "the command line and Python differ on %s" % bad
for call in (lambda: f.lyapunov(10, 1e-300), lambda: f.lyapunov(1e300, 1)):
    try:
        call()
        raise AssertionError("a Lyapunov study that cannot end accepted")
    except nsm.SettingError as e:
        assert "refused" in str(e), str(e)
print("ok: lyapunov(10, 1e-300) and lyapunov(1e300, 1) are refused (they never ended)")
for call in (lambda: m.run(t_end=0.1, method="taylor"),
             lambda: f.section("impact:stop", t_end=10, method="taylor"),
             lambda: f.lyapunov(10, 1, method="taylor")):
    try:
        call()
        raise AssertionError("taylor on a linear model accepted")
    except nsm.SettingError as e:
        assert "taylor" in str(e), str(e)
print("python: %d settings agree with the command line; taylor on a linear model is a "
      "SettingError in run and the studies" % len(CASES))
'''


def case_python(tmp):
    """The Python API against the command line."""
    path = os.path.join(tmp, "second_python.py")
    open(path, "w").write(PY)
    env = env_for(tmp)
    env.setdefault("MPLBACKEND", "Agg")
    try:
        p = subprocess.run([sys.executable, path, SRC, SIM], cwd=tmp, env=env,
                           capture_output=True, text=True, timeout=900)
    except subprocess.TimeoutExpired:
        raise Failure("python: still running after 900 s")
    print(p.stdout)
    check(p.returncode == 0, "python: every setting answered as the command line answers it", p)


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-second-"))
