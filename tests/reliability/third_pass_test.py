#!/usr/bin/env python3
"""A third hostile pass over the surfaces of issue #29: the nonlinear models
and methods (taylor, rk4, adaptive) on every surface, which the first two
passes (hostile_pass_test.py, second_pass_test.py) did not try.

    tests/reliability/third_pass_test.py NSMC SIM FIO_SIM SOURCE_DIR CASE SIMS_DIR

SIM is the two-mass simulator, FIO_SIM the forced impact oscillator's,
SIMS_DIR the folder of the models' simulators (sim_pendulum_wall,
sim_rocking_block, sim_double_pendulum, sim_cart_friction,
sim_duffing_stop).  Cases:
  nonlinear  about 130 argument vectors of the four nonlinear simulators
             under each method (steps, end times and sampling periods the
             time axis cannot carry, parameters of 1e300, 1e-300, 0 and
             below 0, tolerances, caps, sections on angle coordinates,
             Lyapunov spectra, HDF5 outputs): each ends by itself with 0, 1
             or 3 and a message; and what the pass found: --lyapunov on a
             nonlinear model truncated an earlier run's outputs, then
             failed with exit 3 (now exit 1, nothing touched); a run that
             blew up blamed the mass matrix ("not positive definite at the
             configuration a = inf").
  sweeps     nsmc sweep, --basin and nsmc continue on the nonlinear models
             (about 25 inputs); found: --floquet and --lyapunov ran the whole
             grid with exit 0 and "no multipliers" at every point, nsmc
             continue exited 3 after the transient: now exit 1 before the
             grid, no out-dir made.
  signals    SIGTERM, SIGINT and SIGHUP at seeded random moments of the
             nonlinear simulators under taylor, rk4 and adaptive writing CSV
             and HDF5: exit 128 + N, whole lines, HDF5 readable and marked
             stopped (status 8).
  python     the nonlinear models through Python (every method, init by
             name, studies) against the command line; found: Lyapunov,
             Floquet and continuation of a nonlinear model raised
             SimulationError where the command line gives an option error;
             Ctrl-C was ignored by section, lyapunov, floquet, sweep and
             continuation until they ended (a section's came back as a
             SimulationError "stopped by the section handler"): each now
             raises nsm.Interrupted promptly with what it had computed; a
             value the model rejects in a study (sweep("e", [2.0])) raised
             SimulationError where run() and nsmc sweep (exit 1) refuse it
             as a parameter: now ParameterError.
Each part is split so that a case runs in under a minute: nonlinear_MODEL
(one simulator's vectors) and nonlinear_outputs (disks, limits, the
findings), sweeps_a and sweeps_b (the second half with continue and the
refusals), signals_MODEL, python_cli, python_threads and python_studies.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import os
import random
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import (Failure, SANITIZED, check, env_for, label_of, main, run,  # noqa: E402
                     snapshot, tried, whole_lines)
from passlib import later_bad_end as bad_end  # noqa: E402

NSMC = os.path.abspath(sys.argv[1])
SRC = os.path.abspath(sys.argv[4])
SIMS = os.path.abspath(sys.argv[6])
MODELS = os.path.join(SRC, "models")
NONLINEAR = ("pendulum_wall", "rocking_block", "double_pendulum", "cart_friction")


def sim(name):
    return os.path.join(SIMS, "sim_" + name)


def methods(name):
    """The methods a nonlinear model takes (taylor does not take friction in
    a model written by its energies)."""
    return ("rk4", "adaptive") if name == "cart_friction" else ("taylor", "rk4", "adaptive")


# ---- nonlinear --------------------------------------------------------------

# per method, on each model
PER_METHOD = [["--dt", "1e-300"], ["--t-end", "1e300"], ["--every", "1e-300"],
              ["--set", "g=1e300"], ["--out", "x.h5", "--set", "e=0"]]
# per model, under its default method
PER_MODEL = {
    "pendulum_wall": [["--set", "l=0"], ["--set", "l=-1"], ["--set", "l=1e-300"],
                      ["--set", "l=1e300"], ["--set", "m=1e-300"], ["--set", "e=1.5"],
                      ["--set", "phi0=nan"], ["--set", "phi0=1e300"], ["--set", "phi0=-0.3"],
                      ["--set", "phi0=-0.4"], ["--set", "phi_w=1"], ["--set", "phi_w=1e300"],
                      ["--set", "g=0"], ["--dt", "1e-9", "--method", "rk4"],
                      ["--dt", "5", "--method", "rk4"], ["--dt", "1e300"], ["--max-steps", "1"],
                      ["--energy-tol", "1e-300"], ["--method", "adaptive", "--rtol", "1e-300"],
                      ["--method", "adaptive", "--rtol", "1e-15", "--atol", "1e-300"],
                      ["--rtol", "1e-20"], ["--no-zeno", "--set", "e=0.2", "--t-end", "100"],
                      ["--max-event-rate", "1"], ["--method", "exact"],
                      ["--section", "impact:wall"], ["--section", "plane:P.phi.x"],
                      ["--section", "plane:P.phi"], ["--section", "plane:sin(P.phi.x)"],
                      ["--section", "period:1", "--section-period", "1"],
                      ["--lyapunov"], ["--lyapunov", "--method", "rk4"]],
    "rocking_block": [["--set", "b=0"], ["--set", "h=0"], ["--set", "theta0=1.5"],
                      ["--set", "theta0=-0.1"], ["--set", "theta0=0"], ["--set", "m=1e-300"],
                      ["--set", "m=1e300"], ["--set", "mu=1"], ["--no-zeno"], ["--dt", "0"],
                      ["--t-end", "30"], ["--section", "impact:L"],
                      ["--section", "plane:B.phi.x"], ["--lyapunov"]],
    "double_pendulum": [["--set", "l1=0"], ["--set", "l2=0"], ["--set", "m2=0"],
                        ["--set", "m1=0"], ["--set", "d=0"], ["--set", "d=-1"],
                        ["--set", "d=1e300"], ["--set", "m=1"], ["--method", "taylor",
                                                                 "--t-end", "30"],
                        ["--set", "e=1", "--t-end", "20", "--method", "rk4"],
                        ["--section", "plane:a.x"], ["--section", "plane:a.phi"],
                        ["--section", "impact:wall"], ["--lyapunov"]],
    "cart_friction": [["--set", "mu=0"], ["--set", "mu=1e300"], ["--set", "M=0"],
                      ["--set", "l=0"], ["--set", "e=1"], ["--set", "m=1e-300"],
                      ["--method", "taylor"], ["--method", "exact"], ["--t-end", "20"],
                      ["--section", "impact:floor"], ["--section", "plane:th.x"],
                      ["--lyapunov"]],
}


def nonlinear_vectors(tmp, name):
    """One nonlinear simulator's argument vectors (its own case: the four
    together took two minutes)."""
    vectors = [["--method", m] + a for m in methods(name) for a in PER_METHOD]
    vectors += PER_MODEL[name]
    n = 0
    for args in vectors[::3] if SANITIZED else vectors:
        tried(tmp, [sim(name), "--out", "/dev/null"] + args if "--out" not in args
              else [sim(name)] + args, "%s %s" % (name, label_of(args)), timeout=120)
        n += 1
    print("nonlinear %s: %d argument vectors" % (name, n))


def case_nonlinear_outputs(tmp):
    """Full disks and size limits under the nonlinear methods, and what the
    pass found: --lyapunov truncating outputs, a blow-up blamed on M(q)."""
    from passlib import limit
    for name in ("pendulum_wall", "double_pendulum"):
        for meth in ("taylor", "adaptive"):
            p = run(tmp, [sim(name), "--method", meth, "--every", "0", "--t-end", "50", "--out",
                          "big.h5"], preexec=limit(20 * 1024))
            check(p.returncode == 3 and "File too large" in p.stderr and
                  not [f for f in os.listdir(tmp) if f.startswith("big.h5")],
                  "%s --method %s, HDF5 under a 20 KiB limit: exit 3 with the reason, no file "
                  "or temporary left" % (name, meth), p)
            for opt in (["--out", "/dev/full"], ["--events", "/dev/full", "--out", "/dev/null"],
                        ["--section", "impact:wall", "--section-out", "/dev/full", "--out",
                         "/dev/null"]):
                p = run(tmp, [sim(name), "--method", meth] + opt)
                check(p.returncode == 3 and "No space left on device" in p.stderr,
                      "%s --method %s %s: exit 3, 'No space left on device'"
                      % (name, meth, label_of(opt)), p)
    # --lyapunov on a nonlinear model: an option error before any output
    p = run(tmp, [sim("pendulum_wall"), "--out", "keep.csv", "--events", "keepev.csv"])
    check(p.returncode == 0, "a first pendulum_wall run writes keep.csv", p)
    before = snapshot(tmp)
    for meth in methods("pendulum_wall"):
        p = run(tmp, [sim("pendulum_wall"), "--lyapunov", "--method", meth, "--out", "keep.csv",
                      "--events", "keepev.csv", "--lyapunov-out", "ly.csv"])
        check(p.returncode == 1 and "nonlinear models are not handled" in p.stderr and
              "--lyapunov" in p.stderr and snapshot(tmp) == before and not bad_end(p),
              "--lyapunov --method %s on a nonlinear model: exit 1 naming --lyapunov, the earlier "
              "run's files byte for byte, no ly.csv (it truncated them, then exit 3)" % meth, p)
    # a run that blew up is not blamed on the mass matrix
    for name in ("double_pendulum", "cart_friction"):
        for meth in ("rk4", "adaptive"):
            p = run(tmp, [sim(name), "--set", "g=1e300", "--method", meth, "--out", "/dev/null"])
            check(p.returncode == 3 and "state is not finite" in p.stderr and
                  "not positive definite" not in p.stderr,
                  "%s --set g=1e300 --method %s: 'state is not finite' (it blamed the mass "
                  "matrix at a configuration of inf)" % (name, meth), p)


# ---- sweeps -----------------------------------------------------------------

def sweeps(tmp, part):
    """nsmc sweep, basins and continue on the nonlinear models: the first
    half of the sweeps (part 0), or the second with continue and the
    refusals (part 1)."""
    short = ["--transient", "2", "--record", "3"]
    pw, dp = os.path.join(MODELS, "pendulum_wall.nsm"), os.path.join(MODELS, "double_pendulum.nsm")
    rb, cf = os.path.join(MODELS, "rocking_block.nsm"), os.path.join(MODELS, "cart_friction.nsm")
    ds = os.path.join(MODELS, "duffing_stop.nsm")
    inputs = [
        [pw, "--param", "e=0.5:0.9:3", "--section", "impact:wall"] + short,
        [pw, "--param", "e=0.5:0.9:2", "--section", "impact:wall", "--method", "rk4"] + short,
        [pw, "--param", "e=0.5:0.9:2", "--section", "impact:wall", "--method", "exact"] + short,
        [pw, "--param", "g=1e300:1e301:2", "--section", "impact:wall"] + short,
        [pw, "--param", "l=0:1:2", "--section", "impact:wall"] + short,
        [pw, "--param", "e=0.5:0.9:2", "--section", "plane:P.phi.x"] + short,
        [pw, "--param", "e=0.5:0.9:2", "--section", "period:1", "--section-period", "1",
         "--continue", "both"] + short,
        [pw, "--param", "e=0.5:0.9:2", "--section", "impact:wall", "--continue", "up"] + short,
        [pw, "--param", "e=0.5:0.9:2", "--section", "impact:wall", "--lyapunov"] + short,
        [pw, "--param", "e=0.5:0.9:2", "--section", "impact:wall", "--t-max", "1e300"] + short,
        [pw, "--basin", "P.phi.x=-0.2:1:2", "--basin", "P.phi.v=-1:1:2", "--section",
         "impact:wall"] + short,
        [dp, "--param", "e=0.5:0.9:2", "--section", "impact:wall"] + short,
        [dp, "--basin", "a.x=-0.2:0.2:2", "--basin", "b.v=-1:1:2", "--section",
         "impact:wall"] + short,
        [cf, "--param", "mu=0.05:0.2:2", "--section", "impact:floor"] + short,
        [cf, "--param", "mu=0.05:0.2:2", "--section", "plane:th.x", "--method", "taylor"] + short,
    ]
    n = 0
    half = (len(inputs) + 1) // 2
    inputs = inputs[:half] if part == 0 else inputs[half:]
    for i, args in enumerate(inputs[::2] if SANITIZED else inputs):
        tried(tmp, [NSMC, "sweep"] + args + ["--out-dir", "s%d" % i],
              "sweep " + label_of([os.path.basename(args[0])] + args[1:]), timeout=300)
        n += 1
    if part == 0:
        print("sweeps: %d inputs" % n)
        return
    for i, args in enumerate((["--param", "omega=1.1:1.3"], ["--param", "omega=1.1:1.3",
                                                              "--period", "2*pi/omega"],
                              ["--param", "e=0.5:0.6", "--period", "1"])):
        model = pw if "e=0.5:0.6" in args else ds
        tried(tmp, [NSMC, "continue", model] + args + ["--out-dir", "c%d" % i],
              "continue " + label_of([os.path.basename(model)] + args), timeout=300)
        n += 1
    print("sweeps: %d inputs" % n)
    grid = [ds, "--param", "omega=1.1:1.3:3", "--section", "period:2*pi/omega"]
    for opt in ("--floquet", "--lyapunov"):
        p = run(tmp, [NSMC, "sweep"] + grid + [opt, "--out-dir", "never"], timeout=300)
        check(p.returncode == 1 and "nonlinear models are not handled" in p.stderr and
              opt in p.stderr and not os.path.exists(os.path.join(tmp, "never")),
              "nsmc sweep %s on a nonlinear model: exit 1 before the grid, no out-dir (it ran "
              "every point, exit 0, 'no multipliers' at each)" % opt, p)
    p = run(tmp, [NSMC, "continue", ds, "--param", "omega=1.1:1.3", "--out-dir", "never"],
            timeout=300)
    check(p.returncode == 1 and "continuation: nonlinear models are not handled" in p.stderr and
          not os.path.exists(os.path.join(tmp, "never")),
          "nsmc continue on a nonlinear model: exit 1, no out-dir (exit 3 after the transient)", p)


# ---- signals ----------------------------------------------------------------

def signal_plan():
    """The seeded (model, method, signal, delay) of every stopped run."""
    rng = random.Random(29)
    plan = []
    for name in ("pendulum_wall", "double_pendulum", "cart_friction"):
        for meth in methods(name):
            sig = rng.choice([signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
            plan.append((name, meth, sig, rng.uniform(0.05, 0.8)))
    return plan


def signals(tmp, names):
    """Stop signals at seeded random moments of the nonlinear runs of the
    models names."""
    import h5py
    n = 0
    for name, meth, sig, delay in signal_plan():
        if name in names:
            out, h5 = "%s_%s.csv" % (name, meth), "%s_%s.h5" % (name, meth)
            pr = subprocess.Popen([sim(name), "--method", meth, "--t-end", "1e5", "--set", "e=1",
                                   "--out", out, "--out", h5, "--events", "ev_" + out],
                                  cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                  text=True)
            # the handlers are installed before any output is opened: wait for
            # the CSV header (a signal while the dynamic loader maps the
            # libraries kills any program, see docs/status.md), then the delay
            t0 = time.monotonic()
            path = os.path.join(tmp, out)
            while pr.poll() is None and time.monotonic() - t0 < 60 and \
                    not (os.path.exists(path) and os.path.getsize(path) > 0):
                time.sleep(0.01)
            time.sleep(delay)
            pr.send_signal(sig)
            t0 = time.monotonic()
            try:
                err = pr.communicate(timeout=60)[1]
            except subprocess.TimeoutExpired:
                pr.kill()
                raise Failure("%s --method %s: still running 60 s after %s" % (name, meth,
                                                                              sig.name))
            rows = whole_lines(os.path.join(tmp, out))
            whole_lines(os.path.join(tmp, "ev_" + out))
            with h5py.File(os.path.join(tmp, h5), "r") as f:
                status = int(f["run"].attrs["status"])
                hrows = f["trajectory"].shape[0]
            print("  %s --method %s, %s after %.2f s: exit %d in %.2f s, %d CSV rows, %d HDF5 "
                  "rows, status %d" % (name, meth, sig.name, delay, pr.returncode,
                                       time.monotonic() - t0, rows, hrows, status))
            check(pr.returncode == 128 + sig and "interrupted by %s" % sig.name in err and
                  status == 8 and hrows == rows,
                  "%s --method %s stopped by %s: exit %d, whole lines, HDF5 marked stopped "
                  "with as many rows" % (name, meth, sig.name, 128 + sig))
            n += 1
    print("signals: %d runs" % n)


# ---- python -----------------------------------------------------------------

PY = r'''
import os, signal, subprocess, sys, threading, time
import numpy as np
import nsm
MODELS, SIMS, PART = sys.argv[1], sys.argv[2], sys.argv[4]
pw = nsm.compile(os.path.join(MODELS, "pendulum_wall.nsm"))
dp = nsm.compile(os.path.join(MODELS, "double_pendulum.nsm"))
if PART == "studies":
    ds = nsm.compile(os.path.join(MODELS, "duffing_stop.nsm"))
    f = nsm.compile(os.path.join(MODELS, "forced_impact_oscillator.nsm"))
def part_cli():
    MAP = {0: ("ok",), 1: ("SettingError", "ParameterError"), 3: ("SimulationError",)}
    CASES = []
    for meth in ("taylor", "rk4", "adaptive", "exact"):
        CASES += [(pw, "pendulum_wall", ["--method", meth], dict(method=meth)),
                  (pw, "pendulum_wall", ["--method", meth, "--set", "g=1e300"],
                   dict(method=meth, params={"g": 1e300})),
                  (pw, "pendulum_wall", ["--method", meth, "--dt", "1e-300"],
                   dict(method=meth, dt=1e-300)),
                  (dp, "double_pendulum", ["--method", meth, "--set", "l1=0"],
                   dict(method=meth, params={"l1": 0})),
                  (dp, "double_pendulum", ["--method", meth, "--every", "1e-300"],
                   dict(method=meth, every=1e-300))]
    CASES += [(pw, "pendulum_wall", ["--set", "l=0"], dict(params={"l": 0})),
              (pw, "pendulum_wall", ["--set", "e=1.5"], dict(params={"e": 1.5})),
              (pw, "pendulum_wall", ["--t-end", "1e300"], dict(t_end=1e300)),
              (pw, "pendulum_wall", ["--set", "phi0=-0.4"], dict(params={"phi0": -0.4})),
              (dp, "double_pendulum", ["--set", "g=1e300", "--method", "rk4"],
               dict(params={"g": 1e300}, method="rk4")),
              (dp, "double_pendulum", ["--max-steps", "10"], dict(max_steps=10))]
    bad = []
    for model, name, args, kw in CASES:
        cmd = [os.path.join(SIMS, "sim_" + name)] + args + ["--out", "/dev/null"]
        cli = subprocess.run(cmd, capture_output=True, text=True, timeout=300).returncode
        try:
            model.run(**kw)
            py = "ok"
        except nsm.Error as e:
            assert str(e).strip(), "%s: an empty message" % args
            py = type(e).__name__
        same = cli in MAP and py in MAP[cli]
        print("  %-16s %-38s CLI exit %s, Python %s%s" % (name, " ".join(args), cli, py,
                                                          "" if same else "  <-- differ"))
        if not same:
            bad.append((name, args))
    assert not bad, "the command line and Python differ on %s" % bad
    # init by the state's names on a body of three coordinates and on coordinates
    r = pw.run(init={"P.phi.x": 0.5}, t_end=0.01, every=0.01)
    assert abs(r.x[0, 2] - 0.5) < 1e-15, r.x[0]
    r = dp.run(init={"a.x": 0.5, "b.v": 1}, t_end=0.01, every=0.01)
    assert abs(r.x[0, 0] - 0.5) < 1e-15 and abs(r.v[0, 1] - 1) < 1e-15, (r.x[0], r.v[0])
    print("ok: init by name on P.phi.x and on coordinates a, b")
    for label, call in (("section", lambda: pw.section("impact:wall", t_end=5)),
                        ("section rk4", lambda: dp.section("impact:wall", method="rk4"))):
        rec = call()
        assert rec.ndim == 2 and rec.shape[0] > 0, rec.shape
        print("ok: %s of a nonlinear model: %d records of %d columns" % ((label,) + rec.shape))


def part_threads():
    # six threads running the nonlinear models (every method) three times each:
    # the sequential results bit for bit
    cf = nsm.compile(os.path.join(MODELS, "cart_friction.nsm"))
    jobs = [(dp, "taylor", {"e": 0.8}), (dp, "rk4", {"e": 0.7}), (dp, "adaptive", {"e": 0.9}),
            (cf, "rk4", {"mu": 0.1}), (cf, "adaptive", {"mu": 0.2}), (pw, "taylor", {"e": 0.3})]
    def one(job):
        r = job[0].run(method=job[1], params=job[2])
        return np.hstack([r.t[:, None], r.state]), len(r.events)
    seq = [one(j) for j in jobs]
    got = [None] * len(jobs)
    def worker(i):
        for _ in range(3):
            got[i] = one(jobs[i])
    threads = [threading.Thread(target=worker, args=(i,)) for i in range(len(jobs))]
    [t.start() for t in threads]
    [t.join() for t in threads]
    assert all(np.array_equal(a[0], b[0]) and a[1] == b[1] for a, b in zip(seq, got))
    print("ok: six threads on the nonlinear models (taylor, rk4, adaptive): the sequential "
          "results bit for bit")


def part_studies():
    # Lyapunov, Floquet and continuation of a nonlinear model: the command line's exit 1
    for label, call in (("lyapunov", lambda: pw.lyapunov(10, 1)),
                        ("floquet", lambda: ds.floquet("2*pi/omega", transient=10)),
                        ("continuation", lambda: ds.continuation("omega", 1.1, 1.3)),
                        ("lyapunov rk4", lambda: dp.lyapunov(1, 0.1, method="rk4"))):
        try:
            call()
            raise AssertionError("%s of a nonlinear model accepted" % label)
        except nsm.SettingError as e:
            assert "nonlinear models are not handled" in str(e), str(e)
        print("ok: %s of a nonlinear model: SettingError (it was a SimulationError)" % label)
    # a value the model rejects, or a start inside the gap, in a study: the command
    # line's exit 1 ("the model cannot start"), a ParameterError as in run()
    for label, call in (("sweep e=2", lambda: pw.sweep("e", [2.0], "impact:wall")),
                        ("section e=2", lambda: pw.section("impact:wall", params={"e": 2})),
                        ("lyapunov l=0", lambda: f.lyapunov(1, 0.1, params={"m": 0})),
                        ("section inside", lambda: pw.section("impact:wall",
                                                              init={"P.phi.x": -0.4}))):
        try:
            call()
            raise AssertionError("%s accepted" % label)
        except nsm.ParameterError as e:
            assert str(e).strip(), label
        print("ok: %s: ParameterError (it was a SimulationError)" % label)
    cli = subprocess.run([sys.argv[3], "sweep", os.path.join(MODELS, "pendulum_wall.nsm"), "--param",
                          "e=1.5:2:2", "--section", "impact:wall", "--out-dir", "never"],
                         capture_output=True, text=True, timeout=300)
    assert cli.returncode == 1 and "cannot start" in cli.stderr, cli.stderr
    print("ok: nsmc sweep --param e=1.5:2:2: exit 1, the model cannot start")
    # Ctrl-C during each study: nsm.Interrupted within seconds, with the partial result
    STUDIES = {
        "run": (lambda: f.run(t_end=1e7, every=0), lambda r: r.t_reached > 0),
        "section": (lambda: f.section("impact:stop", t_end=1e7),
                    lambda r: r.ndim == 2 and r.shape[0] > 0),
        "lyapunov": (lambda: f.lyapunov(1e7, 1), lambda r: r is None),
        "floquet": (lambda: f.floquet("1e7"), lambda r: r is None),
        "sweep": (lambda: f.sweep("omega", [2.0, 2.5], "impact:stop", transient=10 ** 8, record=10,
                                  t_max=1e8),
                  lambda r: len(r) == 2 and len(r[0]) == 0),
        "lyapunov transient": (lambda: f.lyapunov(10, 1, transient=1e7), lambda r: r is None),
    }
    for name, (call, partial_ok) in STUDIES.items():
        timer = threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT))
        t0 = time.monotonic()
        timer.start()
        try:
            call()
            raise AssertionError("%s: ended without the interrupt" % name)
        except nsm.Interrupted as e:
            took = time.monotonic() - t0
            print("  %-20s Interrupted after %.1f s at t = %g s" % (name, took, e.t))
            assert took < 20 and partial_ok(e.result), (name, took, e.result)
        timer.join()
    print("ok: Ctrl-C stops run, section, lyapunov, floquet and sweep with nsm.Interrupted "
          "(they ignored it to their end)")


{"cli": part_cli, "threads": part_threads, "studies": part_studies}[PART]()
'''


def python(tmp, part):
    """The nonlinear models through Python (part cli: against the command
    line, init by name, sections; threads; studies: refusals and Ctrl-C in
    every study)."""
    path = os.path.join(tmp, "third_python.py")
    open(path, "w").write(PY)
    env = env_for(tmp)
    env.setdefault("MPLBACKEND", "Agg")
    try:
        p = subprocess.run([sys.executable, path, MODELS, SIMS, NSMC, part], cwd=tmp, env=env,
                           capture_output=True, text=True, timeout=900)
    except subprocess.TimeoutExpired:
        raise Failure("python: still running after 900 s")
    print(p.stdout)
    check(p.returncode == 0, "python %s: the nonlinear models agree with the command line; "
          "Ctrl-C stops every study" % part, p)


# each case under a minute: the four of the pass (nonlinear, sweeps, signals,
# python) took 80 to 125 s, so each is split by model or by part
CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}
for _name in NONLINEAR:
    CASES["nonlinear_" + _name] = (lambda n: lambda tmp: nonlinear_vectors(tmp, n))(_name)
CASES["sweeps_a"] = lambda tmp: sweeps(tmp, 0)
CASES["sweeps_b"] = lambda tmp: sweeps(tmp, 1)
for _name in ("pendulum_wall", "double_pendulum", "cart_friction"):
    CASES["signals_" + _name] = (lambda n: lambda tmp: signals(tmp, (n,)))(_name)
for _part in ("cli", "threads", "studies"):
    CASES["python_" + _part] = (lambda n: lambda tmp: python(tmp, n))(_part)


if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-third-"))
