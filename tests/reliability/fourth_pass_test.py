#!/usr/bin/env python3
"""A fourth hostile pass over the surfaces of issue #29 (sweeps, HDF5,
Python, signals, impossible steps), by inputs and combinations the first
three passes (hostile_pass_test.py, second_pass_test.py,
third_pass_test.py) did not try: a real full disk (a 64 KiB tmpfs in a
private mount namespace, where the earlier passes had /dev/full and
RLIMIT_FSIZE), a loop model of 1000 beads, the models written by their
energies under every study, `nsmc continue` and the simulators'
`--lyapunov`/`--floquet` stopped at random moments, a damaged cache in
the ways not tried (its checksum gone or garbled, the object a folder or a
link to /dev/zero, the cache root a file or on a full disk), and the
leftovers of the third pass.

    tests/reliability/fourth_pass_test.py NSMC SIM FIO_SIM SOURCE_DIR CASE SIMS_DIR

Cases (each under 40 s under ASan):
  findings_continue
            what the pass found, failing before its fix: nsmc continue
            stopped by a signal lost every point (now exit 128 + N, the
            points whole in branch.csv.partial, the earlier branch and
            figures untouched).
  findings  the other findings, each failing before its fix: --lyapunov of the 1000 beads truncated the
            outputs, ran, then failed with exit 3 (now exit 1 before any
            output); and the third pass's leftovers: --set l=0 on
            pendulum_wall named "invalid value 1 of parameter 'm'" (now the
            inertia m*l^2 of P.phi and its parameters); t_end = 1e300
            blamed the stiffnesses and masses (now: the time is beyond the
            resolution, with how far the steps reach); rocking_block with
            m = 1e-300 failed its first frictional impact ("has no
            solution").
  steps_loops, steps_energies
            impossible steps, ends, sampling periods and parameters on the
            1000 beads, the forced oscillator's Lyapunov spectra and period
            sections, and the models written by their energies under
            taylor, rk4 and adaptive.
  disk_sims, disk_commands, disk_studies
            a full tmpfs under the simulators' CSV, HDF5, events, section
            and Lyapunov outputs; an earlier HDF5 file over a failed
            replacement, nsmc -o and nsmc sweep; nsmc continue and nsmc run.
  sweeps    nsmc sweep and nsmc continue on the loop and energy models
            (grids, family sizes, out-dirs, impossible settings), and a
            sweep into the folder a continuation is writing (the lock; the
            continuation took none).
  signals_loops, signals_loops_rk4, signals_lyapunov, signals_energies
            SIGINT, SIGTERM, SIGHUP at seeded random moments of the 1000
            beads (exact, rk4), a Lyapunov run, a period section, taylor
            and an energy model writing CSV and HDF5: exit 128 + N, whole
            lines, HDF5 marked stopped with as many rows, no temporary.
  python    guards on the newest models, Ctrl-C in continuation and long
            runs, damaged caches, a cache root that is a file.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import os
import random
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import (SANITIZED, Failure, check, env_for, has_bytes, label_of,  # noqa: E402
                     limit, main, model, pass_paths, run, sim, snapshot, stop_after, tried,
                     wait_until, whole_lines)

NSMC, SIM, FIO_SIM, SRC, SIMS, MODELS = pass_paths()
HERE = os.path.dirname(os.path.abspath(__file__))
MPIRUN = shutil.which("mpirun")


def beads(tmp, n=1000):
    """The loop model of n beads (tests/reliability/beads.nsm, N = 1000),
    written into tmp with its N set; its path."""
    path = os.path.join(tmp, "beads%d.nsm" % n)
    text = open(os.path.join(HERE, "beads.nsm")).read()
    open(path, "w").write(text.replace("param N = 1000", "param N = %d" % n))
    return path


def tmpfs(cmd, size="64k", prep=""):
    """cmd run in a private mount namespace with a tmpfs of `size` at /mnt
    (made ready by the shell commands prep): a real full disk, gone when
    the command ends."""
    script = "mount -t tmpfs -o size=%s tmpfs /mnt && cd /mnt && %s exec \"$@\"" % (size, prep)
    return ["unshare", "-m", "sh", "-c", script, "sh"] + cmd


def tmpfs_ok(tmp):
    """Whether this machine lets the test mount a tmpfs (root, unshare)."""
    p = run(tmp, tmpfs(["true"]), timeout=30)
    return p.returncode == 0


# ---- findings ---------------------------------------------------------------

def case_findings(tmp):
    """The third pass's leftovers, each a check that failed before its fix."""
    pw, rb = sim("pendulum_wall"), sim("rocking_block")
    p = run(tmp, [pw, "--set", "l=0", "--out", "/dev/null"])
    check(p.returncode == 1 and "inertia of P.phi, m*l^2 (parameters m, l)" in p.stderr and
          "invalid value 0 of the inertia" in p.stderr and "parameter 'm'" not in p.stderr,
          "pendulum_wall --set l=0: exit 1 naming the inertia m*l^2 of P.phi, its value 0 and "
          "its parameters (it said 'invalid value 1 of parameter 'm'')", p)
    p = run(tmp, [pw, "--set", "m=0", "--out", "/dev/null"])
    check(p.returncode == 1 and "invalid value 0 of parameter 'm'" in p.stderr,
          "pendulum_wall --set m=0: the parameter m itself is named", p)
    # t_end beyond the time resolution: the time is named, not the stiffness
    for exe, meth in ((pw, "taylor"), (pw, "rk4"), (pw, "adaptive"), (FIO_SIM, "exact"),
                      (FIO_SIM, "rk4"), (FIO_SIM, "adaptive")):
        p = run(tmp, [exe, "--method", meth, "--t-end", "1e300", "--every", "1e299", "--out",
                      "/dev/null"])
        # a linear model's first mode gives its step before the run: refused
        # as an option, exit 1, since the sixth hostile pass (it was exit 3);
        # so does rk4's fixed step on a nonlinear model since the seventh
        status = 1 if exe == FIO_SIM or meth == "rk4" else 3
        check(p.returncode == status and "t_end = 1e+300 s is beyond the time resolution" in p.stderr
              and "stiffness" not in p.stderr and "carry t to about" in p.stderr,
              "%s --method %s --t-end 1e300 --every 1e299: exit %d, the time is beyond the "
              "resolution, with how far the steps reach (it blamed the stiffnesses and masses)"
              % (os.path.basename(exe), meth, status), p)
    stiff = os.path.join(HERE, "stiff_spring.nsm")
    p = run(tmp, [NSMC, "run", stiff, "--set", "k=1e300", "--out-dir", "stiff"], timeout=300)
    check(p.returncode == 3 and "stiff" in p.stderr and "beyond the time resolution" not in
          p.stderr, "k = 1e300 N/m still blames the mode's stiffness, not the time", p)
    # rocking_block with m = 1e-300: the motion does not depend on m
    out = {}
    for m in ("1", "1e-300", "1e300"):
        p = run(tmp, [rb, "--set", "m=" + m, "--out", "rb%s.csv" % m, "--events",
                      "rbev%s.csv" % m])
        check(p.returncode == 0, "rocking_block --set m=%s runs (m = 1e-300 failed its first "
              "frictional impact: 'has no solution')" % m, p)
        out[m] = [list(map(float, ln.split(",")[1:4])) for ln in
                  open(os.path.join(tmp, "rb%s.csv" % m)).read().splitlines()[1:]]
    worst = max(abs(a - b) for m in ("1e-300", "1e300") for ra, rb_ in zip(out["1"], out[m])
                for a, b in zip(ra, rb_))
    check(len(out["1"]) == len(out["1e-300"]) == len(out["1e300"]) and worst < 1e-9,
          "rocking_block's motion is the same for m = 1, 1e-300 and 1e300 (scale-free in m: "
          "every force and impulse is proportional to it): %.3g" % worst)
    # --lyapunov of a model too large for the dense tangent matrices: an
    # option error before any output (it truncated them, ran, then exit 3)
    b = sim("beads")
    p = run(tmp, [b, "--t-end", "0.002", "--out", "keepb.csv"])
    check(p.returncode == 0, "a first run of the 1000 beads writes keepb.csv", p)
    before = open(os.path.join(tmp, "keepb.csv"), "rb").read()
    for meth in ("exact", "rk4", "adaptive"):
        p = run(tmp, [b, "--lyapunov", "--method", meth, "--t-end", "0.002", "--out",
                      "keepb.csv", "--lyapunov-out", "lyb.csv"])
        check(p.returncode == 1 and "too large for the dense tangent matrices" in p.stderr and
              open(os.path.join(tmp, "keepb.csv"), "rb").read() == before and
              not os.path.exists(os.path.join(tmp, "lyb.csv")),
              "1000 beads --lyapunov --method %s: exit 1 before any output, the earlier file "
              "byte for byte (it truncated it, ran, then failed with exit 3)" % meth, p)


def results(folder):
    """A folder's files but its lock and partial files, with their bytes."""
    return {k: v for k, v in snapshot(folder).items()
            if k != ".nsm-run.lock" and not k.endswith(".partial")}


def continue_ctrl_c(tmp):
    """SIGINT, SIGTERM and SIGHUP at seeded random moments of nsmc continue:
    exit 128 + N with a note, the points so far kept whole in
    branch.csv.partial (they were lost: the signal killed the program), no
    temporary, the earlier branch and figures byte for byte."""
    fio = model("forced_impact_oscillator")
    args = [NSMC, "continue", fio, "--param", "omega=1.3:1.2", "--max-points", "30",
            "--out-dir", "c"]
    p = run(tmp, args, timeout=300)
    check(p.returncode == 0, "a first continuation", p)
    before = results(os.path.join(tmp, "c"))
    rng = random.Random(4)
    long_args = [NSMC, "continue", fio, "--param", "omega=0.5:5", "--max-points", "100000",
                 "--ds", "1e-4", "--ds-max", "1e-4", "--out-dir", "c"]
    # a first run builds the continuation program into the cache, so that
    # the signals below land while the branch is computed
    kept_any = 0
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        q = subprocess.Popen(long_args, cwd=tmp, env=env_for(tmp), stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        err = stop_after(q, sig, rng.uniform(1.0, 2.5) * (4 if SANITIZED else 1),
                         "nsmc continue")
        folder = os.path.join(tmp, "c")
        left = sorted(f for f in os.listdir(folder) if ".tmp" in f)
        part = os.path.join(folder, "branch.csv.partial")
        kept = whole_lines(part) if os.path.exists(part) else 0
        note = (err.strip().splitlines() or [""])[-1]
        print("  nsmc continue, %s: exit %d, %s" % (sig.name, q.returncode, note[:110]))
        said = "interrupted by %s: %d points kept" % (sig.name, kept) if kept else \
            "interrupted by %s before the first point: nothing written" % sig.name
        check(q.returncode == 128 + sig and said in note and not left and
              results(folder) == before,
              "nsmc continue stopped by %s: exit %d, its %d points whole in branch.csv.partial "
              "(they were lost), no temporary, the earlier branch and figures byte for byte %s"
              % (sig.name, 128 + sig, kept, left))
        kept_any += kept
        if kept:
            os.unlink(part)
    check(kept_any > 0, "the stopped continuations kept %d points in all" % kept_any)


# ---- steps ------------------------------------------------------------------

STEP_VALUES = [["--dt", "1e-300"], ["--t-end", "1e300"], ["--every", "1e-300"],
               ["--t-end", "1e-300"], ["--dt", "1e300"], ["--every", "1e300"],
               ["--t-end", "5e-324"], ["--dt", "2.2e-308"], ["--max-steps", "2"]]


def steps(tmp, part):
    """Impossible steps on the newest features: each ends by itself with 0, 1
    or 3 and a message naming its cause.  Part 0: the 1000 beads and the
    forced oscillator's Lyapunov spectra and sections; part 1: the models
    written by their energies and taylor."""
    n = 0
    b = sim("beads")
    vectors = [[b, "--method", m] + a for m in ("exact", "rk4", "adaptive")
               for a in STEP_VALUES[:4]]
    vectors += [[b] + a for a in (["--set", "k=1e300"], ["--set", "m=1e-300"],
                                  ["--set", "m=1e-300", "--method", "rk4"],
                                  ["--set", "d=1e300"], ["--set", "d=-1e300"],
                                  ["--set", "e=1", "--t-end", "1e4", "--max-steps", "1000"],
                                  ["--set", "N=0"], ["--set", "N=1"], ["--set", "N=1001"],
                                  ["--set", "k=nan"], ["--lyapunov", "--t-end", "0.01"],
                                  ["--section", "period:1e-300"], ["--section", "impact:G[999]",
                                                            "--t-end", "0.01"])]
    vectors += [[FIO_SIM] + a for a in (
        ["--lyapunov", "--set", "omega=1e300"], ["--lyapunov", "--set", "omega=1e-300"],
        ["--lyapunov", "--lyapunov-interval", "1e300"], ["--section", "period:2*pi/omega",
                                                        "--set", "omega=1e300"],
        ["--section", "period:1e300"], ["--section", "period:2*pi/omega", "--dt", "1e-300"],
        ["--section", "period:2*pi/omega", "--method", "rk4", "--set", "k=1e300"],
        ["--lyapunov", "--method", "adaptive", "--rtol", "1e-300"])]
    first = len(vectors)
    if part == 1:
        vectors = []
    for name, meths in (("cart_friction", ("rk4", "adaptive", "taylor")),
                        ("double_pendulum", ("taylor", "rk4", "adaptive")),
                        ("duffing_stop", ("taylor", "rk4", "adaptive"))):
        vectors += [[sim(name), "--method", m] + a for m in meths for a in STEP_VALUES]
    vectors += [[sim("cart_friction")] + a for a in (
        ["--set", "M=1e-300", "--set", "m=1e-300"], ["--set", "l=1e300"], ["--set", "mu=1e-300"],
        ["--set", "g=1e-300"], ["--set", "g=-1"], ["--set", "M=-1"], ["--rtol", "1e-300"],
        ["--set", "l=1e-300"], ["--lyapunov"], ["--section", "period:1"])]
    if part == 0:
        vectors = vectors[:first]
    for v in vectors[::3] if SANITIZED else vectors:
        args = v + ([] if "--out" in v else ["--out", "/dev/null"])
        tried(tmp, args, label_of([os.path.basename(v[0])] + v[1:]), timeout=120)
        n += 1
    print("steps %s: %d argument vectors" % (("loops", "energies")[part], n))


# ---- disk -------------------------------------------------------------------

def disk(tmp, part):
    """A real full disk: a 64 KiB tmpfs (private mount namespace); part 0
    the simulators' outputs, part 1 an earlier HDF5 file over a failed
    replacement, nsmc -o and nsmc sweep, part 2 nsmc continue and nsmc
    run."""
    if not tmpfs_ok(tmp):
        print("no tmpfs here (not root): the full disk is RLIMIT_FSIZE instead")
        wrap = None
    else:
        wrap = tmpfs
    pw, fio = sim("pendulum_wall"), model("forced_impact_oscillator")
    n = 0
    for exe, args in () if part else ((pw, ["--out", "x.csv", "--every", "1e-4", "--t-end", "30"]),
                      (pw, ["--out", "x.h5", "--every", "1e-4", "--t-end", "30"]),
                      (pw, ["--method", "rk4", "--out", "x.h5", "--every", "1e-4",
                            "--events", "ev.csv", "--t-end", "30"]),
                      (FIO_SIM, ["--section", "impact:stop", "--section-out", "s.h5",
                                 "--t-end", "1e5", "--out", "/dev/null"]),
                      (FIO_SIM, ["--lyapunov", "--lyapunov-out", "l.csv", "--t-end", "50",
                                 "--out", "x.h5", "--every", "1e-5"]),
                      (sim("cart_friction"), ["--out", "c.h5", "--every", "1e-5",
                                              "--t-end", "20"])):
        cmd = wrap([exe] + args, prep="") if wrap else [exe] + args
        p = run(tmp, cmd, timeout=120, preexec=None if wrap else limit(64 * 1024))
        label = "full disk: %s %s" % (os.path.basename(exe), label_of(args))
        print("  %-62s -> %d  %s" % (label[:62], p.returncode,
                                     (p.stderr.strip().splitlines() or [""])[-1][:100]))
        check(p.returncode == 3 and ("No space left on device" in p.stderr or
                                     "File too large" in p.stderr) and "Sanitizer" not in p.stderr,
              label + ": exit 3 with the system's reason", p)
        n += 1
    # a file left by a killed run is not there; the file in place is whole
    # (the tmpfs is gone with the namespace: checked inside it)
    if wrap and part == 1:
        check_script = ("%s --out x.h5 --t-end 1 >/dev/null 2>&1 && cp x.h5 keep.h5 && "
                        "{ %s --out x.h5 --every 1e-4 --t-end 30 2>err; echo $? >rc; } ; "
                        "cmp -s x.h5 keep.h5 && echo SAME; ls; cat rc" % (pw, pw))
        p = run(tmp, ["unshare", "-m", "sh", "-c", "mount -t tmpfs -o size=1m tmpfs /mnt && "
                      "cd /mnt && " + check_script], timeout=120)
        print(p.stdout)
        check("SAME" in p.stdout and p.stdout.split()[-1] in ("1", "3") and
              "partial" not in p.stdout,
              "HDF5 onto a full disk over an earlier file: exit 1 or 3, the earlier file byte for "
              "byte, no temporary left", p)
        n += 1
    # nsmc -o, nsmc run, sweep and continue onto the full disk (part 1: the
    # first two, part 2: the others; each case under 40 s under ASan)
    commands = ([NSMC, os.path.join(SRC, "tests", "runtime", "chain10000.nsm"), "-o", "big.c"],
                [NSMC, "sweep", fio, "--param", "omega=1:3:100", "--section",
                 "impact:stop", "--transient", "5", "--record", "50", "--out-dir", "sw"],
                [NSMC, "continue", fio, "--param", "omega=1.3:1.2", "--out-dir", "co"],
                [NSMC, "run", model("pendulum_wall"), "--every", "1e-4", "--t-end", "30",
                 "--out-dir", "ru"])
    if wrap and part:
        for args in commands[2 * part - 2:2 * part]:
            env_cache = "XDG_CACHE_HOME=%s " % os.path.join(tmp, "cache")
            p = run(tmp, ["unshare", "-m", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt "
                          "&& cd /mnt && %s\"$@\"; echo rc=$?; ls -a . sw co ru 2>/dev/null" %
                          ("env " + env_cache), "sh"] + args, timeout=300)
            rc = int(p.stdout.split("rc=")[1].split()[0]) if "rc=" in p.stdout else -1
            label = "full disk: " + label_of([os.path.basename(a) for a in args[:3]])
            print("  %-62s -> %d  %s" % (label[:62], rc,
                                         (p.stderr.strip().splitlines() or [""])[-1][:100]))
            check(rc in (1, 3) and ("No space left on device" in p.stderr or
                                    "the disk is full" in p.stderr) and
                  "Sanitizer" not in p.stderr and ".tmp" not in p.stdout,
                  label + ": exit 1 or 3 with the system's reason, no temporary", p)
            n += 1
    print("disk: %d inputs" % n)


# ---- sweeps -----------------------------------------------------------------

def case_sweeps(tmp):
    """nsmc sweep and continue on the loop and energy models."""
    short = ["--transient", "2", "--record", "3"]
    b20 = beads(tmp, 20)
    cf, ds, fio = model("cart_friction"), model("duffing_stop"), model("forced_impact_oscillator")
    inputs = [
        [b20, "--param", "e=0.5:1:2", "--section", "impact:G[1]"] + short,
        [b20, "--param", "N=2:4:3", "--section", "impact:G[1]"] + short,
        [b20, "--param", "N=20:20:1", "--set", "N=3", "--section", "impact:G[1]"] + short,
        [b20, "--param", "e=0.5:1:2", "--section", "impact:G[19]"] + short,
        [b20, "--param", "e=0.5:1:2", "--section", "impact:G[20]"] + short,
        [b20, "--param", "e=0.5:1:2", "--section", "impact:G[0]"] + short,
        [b20, "--param", "e=0.5:1:2", "--section", "plane:P[20].x"] + short,
        [b20, "--param", "m=1e-300:1e-299:2", "--section", "impact:G[1]"] + short,
        [b20, "--param", "d=0:1e300:2", "--section", "impact:G[1]"] + short,
        [b20, "--basin", "P[1].v=0:1:2", "--basin", "P[2].x=0:1e-4:2",
         "--section", "impact:G[1]"] + short,
        [b20, "--param", "e=0.5:1:2", "--section", "impact:G[1]", "--lyapunov"] + short,
        [b20, "--param", "e=0.5:1:2", "--section", "impact:G[1]", "--floquet"] + short,
        [cf, "--param", "mu=0:0.2:2", "--section", "impact:floor"] + short,
        [cf, "--param", "M=0:1:2", "--section", "impact:floor"] + short,
        [cf, "--param", "l=1e-300:1:2", "--section", "impact:floor"] + short,
        [cf, "--param", "mu=0.1:0.2:2", "--section", "impact:floor", "--method", "exact"] + short,
        [cf, "--param", "mu=0.1:0.2:2", "--section", "plane:th.x", "--t-max", "1e-300"] + short,
        [cf, "--param", "mu=0.1:0.2:2", "--section", "plane:th.x", "--jobs", "0"] + short,
        [cf, "--param", "mu=0.1:0.2:2", "--section", "plane:th.x", "--jobs", "1e9"] + short,
        [ds, "--param", "omega=1:2:2", "--section", "period:2*pi/omega", "--method",
         "taylor"] + short,
        [ds, "--param", "omega=1e300:1e301:2", "--section", "period:2*pi/omega"] + short,
        [ds, "--param", "omega=1e-300:1e-299:2", "--section", "period:2*pi/omega"] + short,
        [ds, "--param", "omega=1:2:2", "--section", "period:2*pi/omega", "--transient",
         "1e18"],
        [fio, "--param", "omega=1:2:2", "--section", "impact:stop", "--out-dir", "."] + short,
        [fio, "--param", "omega=1:2:2", "--section", "impact:stop", "--out-dir",
         "x" * 300] + short,
        [fio, "--param", "omega=1:2:2", "--section", "impact:stop", "--out-dir",
         "/proc/self"] + short,
    ]
    n = 0
    for i, args in enumerate(inputs[::2] if SANITIZED else inputs):
        od = [] if "--out-dir" in args else ["--out-dir", "s%d" % i]
        tried(tmp, [NSMC, "sweep"] + args + od,
              "sweep " + label_of([os.path.basename(args[0])] + args[1:]), timeout=300)
        n += 1
    conts = (
            [cf, "--param", "mu=0.1:0.2"],
            [b20, "--param", "e=0.5:0.6", "--period", "1", "--transient", "2",
             "--max-points", "3"],
            [fio, "--param", "omega=1.3:1.2", "--start", "1.9,3", "--tol", "1e-300"],
            [fio, "--param", "omega=1e300:1e301", "--start", "1.9,3"],
            [fio, "--param", "omega=1.3:1.2", "--start", "1e300,3"],
            [fio, "--param", "omega=1.3:1.2", "--start", "nan,3"],
            [fio, "--param", "omega=1.3:1.2", "--max-points", "0"],
            [fio, "--param", "omega=1.3:1.2", "--ds", "1e-300", "--max-points", "3"],
            [fio, "--param", "omega=1.3:1.2", "--periods", "1001"])
    for i, args in enumerate(conts[::2] if SANITIZED else conts):
        tried(tmp, [NSMC, "continue"] + args + ["--out-dir", "c%d" % i],
              "continue " + label_of([os.path.basename(args[0])] + args[1:]), timeout=300)
        n += 1
    # a sweep into a folder `nsmc continue` is writing: refused by the lock
    long_c = subprocess.Popen([NSMC, "continue", fio, "--param", "omega=0.5:5",
                               "--max-points", "100000", "--ds", "1e-4", "--ds-max",
                               "1e-4", "--out-dir", "shared"], cwd=tmp, env=env_for(tmp),
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    lock = os.path.join(tmp, "shared", ".nsm-run.lock")
    wait_until(long_c, lambda: os.path.exists(lock), 60, 0.05)
    p = run(tmp, [NSMC, "sweep", fio, "--param", "omega=1:2:2", "--section", "impact:stop",
                  "--out-dir", "shared"] + short, timeout=120)
    long_c.send_signal(signal.SIGTERM)
    long_c.communicate(timeout=60)
    print("  sweep into the folder nsmc continue is writing -> %d  %s"
          % (p.returncode, (p.stderr.strip().splitlines() or [""])[-1][:100]))
    check(p.returncode == 1 and "is writing into 'shared'" in p.stderr and
          "process %d" % long_c.pid in p.stderr,
          "a sweep into the folder nsmc continue is writing: exit 1 naming its process (the "
          "continuation took no lock)", p)
    n += 1
    print("sweeps: %d inputs" % n)


# ---- signals ----------------------------------------------------------------

def signals(tmp, part):
    """Stop signals at seeded random moments of the studies and the newest
    models: exit 128 + N, whole files, no temporary.  part: the slice of
    the seeded plan run (0-1 and 1-2 the beads, 2-3 the Lyapunov run, 3-6
    the section, taylor and the energy model)."""
    import h5py
    rng = random.Random(2904)
    b = sim("beads")
    # the beads sampled every 10 us: the run's first buffered lines come
    # after 0.05 s of its time, about 0.5 s of the machine's (every 1 ms, the
    # model's, took 24 s, 60 under ASan, for the same exact run)
    runs = [
        ("beads exact", [b, "--t-end", "100", "--every", "1e-5", "--set", "e=1", "--out",
                         "b.csv", "--out", "b.h5"]),
        ("beads rk4", [b, "--method", "rk4", "--t-end", "100", "--every", "1e-5", "--set", "e=1",
                       "--out", "b.csv", "--out", "b.h5"]),
        ("fio lyapunov", [FIO_SIM, "--lyapunov", "--t-end", "1e6", "--lyapunov-out", "l.csv",
                          "--out", "b.csv", "--out", "b.h5"]),
        ("fio section", [FIO_SIM, "--section", "period:2*pi/omega", "--t-end", "1e6", "--out",
                         "b.csv", "--out", "b.h5", "--section-out", "l.csv"]),
        ("duffing taylor", [sim("duffing_stop"), "--method", "taylor", "--t-end", "1e6",
                            "--out", "b.csv", "--out", "b.h5"]),
        ("cart adaptive", [sim("cart_friction"), "--method", "adaptive", "--t-end", "1e4",
                           "--set", "e=1", "--out", "b.csv", "--out", "b.h5"]),
    ]
    n = 0
    plan = [(label, cmd, rng.choice([signal.SIGTERM, signal.SIGINT, signal.SIGHUP]),
             rng.uniform(0.05, 1.5)) for label, cmd in runs]
    for label, cmd, sig, delay in plan[part[0]:part[1]]:
        for f in os.listdir(tmp):
            if f.startswith(("b.", "l.")):
                os.unlink(os.path.join(tmp, f))
        pr = subprocess.Popen(cmd, cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True)
        path = os.path.join(tmp, "b.csv")
        wait_until(pr, has_bytes(path), 60)
        err = stop_after(pr, sig, delay, label)
        if not os.path.exists(path):
            raise Failure("%s wrote no output before %s: exit %s\n%s"
                          % (label, sig.name, pr.returncode, pr.stderr.read()))
        rows = whole_lines(path)
        left = [f for f in os.listdir(tmp) if "partial" in f]
        if pr.returncode == 128 + sig:
            with h5py.File(os.path.join(tmp, "b.h5"), "r") as f:
                status = int(f["run"].attrs["status"])
                hrows = f["trajectory"].shape[0]
        else:
            status = hrows = -1
        print("  %-16s %s after %.2f s: exit %d, %d CSV rows, %d HDF5 rows, status %d"
              % (label, sig.name, delay, pr.returncode, rows, hrows, status))
        check(pr.returncode == 128 + sig and "interrupted by %s" % sig.name in err and
              status == 8 and hrows == rows and not left,
              "%s stopped by %s: exit %d, whole lines, HDF5 marked stopped with as many rows, "
              "no temporary" % (label, sig.name, 128 + sig))
        n += 1
    print("signals: %d runs" % n)


# ---- python -----------------------------------------------------------------

PY = r'''
import hashlib, os, signal, sys, threading, time
import numpy as np
import nsm
MODELS, BEADS = sys.argv[1], sys.argv[2]
n = 0
def expect(label, call, errors):
    """One call: a result, or one of errors with a message."""
    global n
    n += 1
    try:
        call()
        got = "ok"
    except nsm.Interrupted:
        raise
    except nsm.Error as e:
        assert str(e).strip(), "%s: an empty message" % label
        got = type(e).__name__
    print("  %-58s %s" % (label[:58], got))
    assert got in errors, "%s: %s, expected %s" % (label, got, errors)
cf = nsm.compile(os.path.join(MODELS, "cart_friction.nsm"))
f = nsm.compile(os.path.join(MODELS, "forced_impact_oscillator.nsm"))
b = nsm.compile(BEADS)
S, P, R, OK = ("SettingError",), ("ParameterError",), ("SimulationError",), ("ok",)
for meth in ("rk4", "adaptive", "taylor"):
    expect("cf %s t_end=1e300" % meth, lambda: cf.run(method=meth, t_end=1e300), S + R)
    expect("cf %s dt=1e-300" % meth, lambda: cf.run(method=meth, dt=1e-300), S)
    expect("cf %s every=5e-324" % meth, lambda: cf.run(method=meth, every=5e-324), S)
    expect("cf %s g=1e300" % meth, lambda: cf.run(method=meth, params={"g": 1e300}), R)
    expect("cf %s M=0" % meth, lambda: cf.run(method=meth, params={"M": 0}), P)
    expect("cf %s l=0" % meth, lambda: cf.run(method=meth, params={"l": 0}), P)
    expect("cf %s mu=-1" % meth, lambda: cf.run(method=meth, params={"mu": -1}), P)
for meth in ("exact", "rk4", "adaptive"):
    expect("beads %s t_end=1e300" % meth, lambda: b.run(method=meth, t_end=1e300), S + R)
    expect("beads %s N=0" % meth, lambda: b.run(method=meth, params={"N": 0}), P)
    expect("beads %s N=2000" % meth, lambda: b.run(method=meth, params={"N": 2000}), P)
    expect("beads %s m=1e-300" % meth, lambda: b.run(method=meth, params={"m": 1e-300},
                                                      t_end=1e-4), OK + R)
    expect("beads %s every=1e-300" % meth, lambda: b.run(method=meth, every=1e-300), S)
expect("beads section G[999]", lambda: b.section("impact:G[999]", t_end=1e-3), OK)
expect("beads section G[1000]", lambda: b.section("impact:G[1000]", t_end=1e-3), S)
expect("beads lyapunov", lambda: b.lyapunov(1e-3, 1e-4), S)
expect("beads floquet 1e-300", lambda: b.floquet("1e-300"), S)
expect("beads sweep N", lambda: b.sweep("N", [0, 1], "impact:G[1]", transient=1, record=1), P)
expect("cf continuation", lambda: cf.continuation("mu", 0.1, 0.2), S)
expect("cf floquet", lambda: cf.floquet("1"), S)
expect("f continuation tol=nan", lambda: f.continuation("omega", 1.3, 1.2, tol=float("nan")),
       S)
expect("f continuation ds=0", lambda: f.continuation("omega", 1.3, 1.2, ds=0), S)
expect("f continuation periods=0", lambda: f.continuation("omega", 1.3, 1.2, periods=0), S)
expect("f continuation omega=1e300", lambda: f.continuation("omega", 1e300, 1e301), S + R)
expect("f continuation param nope", lambda: f.continuation("nope", 1, 2), S + P)
expect("f lyapunov params k=1e300", lambda: f.lyapunov(1, 0.1, params={"k": 1e300}), S + R)
expect("f floquet period 1e300", lambda: f.floquet("1e300"), S + R)
expect("f sweep omega 1e300", lambda: f.sweep("omega", [1e300], "impact:stop", transient=1,
                                            record=1), OK + S + R)
print("ok: %d calls on the newest models: a result or an nsm.Error with a message" % n)
# Ctrl-C during continuation, and during a run of the 1000 beads and of the
# energy model: nsm.Interrupted promptly with what was computed
STUDIES = {
    "continuation": (lambda: f.continuation("omega", 0.5, 5, ds=1e-4, ds_max=1e-4,
                                            max_points=100000),
                     lambda r: isinstance(r, nsm.Branch)),
    "continuation transient": (lambda: f.continuation("omega", 1.3, 1.2, transient=10 ** 7),
                               lambda r: isinstance(r, nsm.Branch) and len(r) == 0),
    "beads run": (lambda: b.run(t_end=1e4, params={"e": 1}), lambda r: r.t_reached > 0),
    "cf run rk4": (lambda: cf.run(t_end=1e4, method="rk4", params={"e": 1}),
                      lambda r: r.t_reached > 0),
}
for name, (call, partial_ok) in STUDIES.items():
    timer = threading.Timer(1.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    t0 = time.monotonic()
    timer.start()
    try:
        call()
        raise AssertionError("%s: ended without the interrupt" % name)
    except nsm.Interrupted as e:
        took = time.monotonic() - t0
        print("  %-24s Interrupted after %.1f s at t = %g s, %s" % (name, took, e.t,
              "%d points" % len(e.result) if isinstance(e.result, nsm.Branch) else "a result"))
        assert took < 20 and partial_ok(e.result), (name, took, e.result)
    timer.join()
print("ok: Ctrl-C stops continuation and long runs with nsm.Interrupted and their partial result")
# the cache damaged in the ways the earlier passes did not try: each is
# rebuilt (or refused with a CompileError), never loaded, never a crash
root = os.path.join(os.environ["XDG_CACHE_HOME"], "nsm")
def entries():
    out = []
    for d, _, files in os.walk(root):
        out += [os.path.join(d, x) for x in files if x.endswith(".so")]
    return out
so = [x for x in entries() if x.endswith("forced_impact_oscillator.so")][0]
sumf = so[:-3] + ".sum"
def resize():
    """The checksum file with the right digest and another size."""
    digest = open(sumf).read().split()[0]
    open(sumf, "w").write(digest + " 12\n")
for label, damage in (("checksum removed", lambda: os.unlink(sumf)),
                      ("checksum garbled", lambda: open(sumf, "w").write("zz\n")),
                      ("checksum of another size", resize),
                      ("object a folder", lambda: (os.unlink(so), os.mkdir(so))),
                      ("object a link to /dev/zero", lambda: (os.unlink(so),
                                                              os.symlink("/dev/zero", so)))):
    damage()
    try:
        m = nsm.compile(os.path.join(MODELS, "forced_impact_oscillator.nsm"))
        r = m.run(t_end=0.1)
        got = "rebuilt, %d samples" % len(r.t)
    except nsm.CompileError as e:
        got = "CompileError: " + str(e)[:80]
    print("  cache %-28s %s" % (label, got))
    assert got.startswith("rebuilt") or "cannot" in got, got
    if os.path.isdir(so):
        os.rmdir(so)
    if os.path.islink(so):
        os.unlink(so)
    nsm.compile(os.path.join(MODELS, "forced_impact_oscillator.nsm"))
print("ok: a cache with its checksum gone or garbled, its object a folder or a link, rebuilt")
'''


def case_python(tmp):
    """Python on the newest models: guards, Ctrl-C in continuation, cache damage."""
    path = os.path.join(tmp, "fourth_python.py")
    open(path, "w").write(PY)
    env = env_for(tmp)
    env.setdefault("MPLBACKEND", "Agg")
    try:
        p = subprocess.run([sys.executable, path, MODELS, beads(tmp)], cwd=tmp, env=env,
                           capture_output=True, text=True, timeout=900)
    except subprocess.TimeoutExpired:
        raise Failure("python: still running after 900 s")
    print(p.stdout)
    check(p.returncode == 0, "python: guards, Ctrl-C and cache damage on the newest models", p)
    # the cache root a file: a CompileError with the hint, not a raw OSError
    env["XDG_CACHE_HOME"] = os.path.join(tmp, "afile")
    open(env["XDG_CACHE_HOME"], "w").write("x")
    code = ("import nsm, sys\ntry:\n    nsm.compile(sys.argv[1])\nexcept nsm.CompileError as e:"
            "\n    print('CompileError', e)\n")
    p = subprocess.run([sys.executable, "-c", code, model("two_mass")], cwd=tmp, env=env,
                       capture_output=True, text=True, timeout=300)
    check(p.returncode == 0 and "CompileError" in p.stdout and "XDG_CACHE_HOME" in p.stdout,
          "a cache root that is a file: CompileError naming XDG_CACHE_HOME", p)


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}
# the slowest cases split so that each stays under 40 s under ASan
CASES["findings_continue"] = continue_ctrl_c
CASES["signals_loops"] = lambda tmp: signals(tmp, (0, 1))
CASES["signals_loops_rk4"] = lambda tmp: signals(tmp, (1, 2))
CASES["signals_lyapunov"] = lambda tmp: signals(tmp, (2, 3))
CASES["signals_energies"] = lambda tmp: signals(tmp, (3, 6))
CASES["disk_sims"] = lambda tmp: disk(tmp, 0)
CASES["disk_commands"] = lambda tmp: disk(tmp, 1)
CASES["disk_studies"] = lambda tmp: disk(tmp, 2)
CASES["steps_loops"] = lambda tmp: steps(tmp, 0)
CASES["steps_energies"] = lambda tmp: steps(tmp, 1)


if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-fourth-"))
