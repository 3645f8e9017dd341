#!/usr/bin/env python3
"""A sixteenth hostile pass over the programs and the Python package
(issue #29): the generated simulators as programs (their options in
combinations and orderings, standard output and input closed), the output
folder's lock against the run's own inputs, MPI sweeps with a rank
stopped or killed at random moments, the Python studies' arguments and
Ctrl-C at random moments, the command line against Python, and the
velocity floors' refusal at its edge.

    tests/reliability/sixteenth_pass_prog_test.py NSMC SIM SOURCE_DIR CASE

SIM is sim_forced_impact_oscillator (sim_bouncing_ball and
sim_belt_friction beside it).  Cases (each under 20 s in the normal build):
  findings   what the pass found, each failing before its fix: a Ctrl-C
             that reached `Model.sweep` between two values' runs (their
             checks and set-up, in Python) was a bare KeyboardInterrupt and
             the finished values' records were lost; a model or a parameter
             file kept in the output folder as `.nsm-run.lock` was
             overwritten with the lock's process id by `nsmc run`, `sweep`
             and `continue` (exit 0 over a destroyed model); a simulator's
             output named as its HDF5 file's temporary of a process that is
             gone (`--stats a.h5.1234.partial`) moved to a.h5.partial.prev
             as a killed run's file once written.
  kept       inputs that found nothing, kept: the simulators' options in
             two orders giving the same files byte for byte, standard
             output closed beside a file output, the velocity floors'
             refusal on both sides of its edge against the closed form,
             the Lyapunov spectrum through the command line and Python bit
             for bit (and its sum on a flight without impacts against -c/m),
             the Python studies' bad arguments, and an MPI sweep with a rank
             stopped by each signal, its partial rows the full sweep's.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import csv
import os
import random
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import (PY_EXPECT, SANITIZED, check, children, env_for, main,  # noqa: E402
                     prog_paths, python_script, run, thin, whole_lines)

NSMC, SIM, SRC, _, FIO, BALL = prog_paths()
SIMS = os.path.dirname(SIM)


def shown(p):
    """The last line of a run's stderr, for the printed outcome."""
    lines = [ln for ln in p.stderr.strip().splitlines()
             if "cached" not in ln and "compiling the" not in ln]
    return (lines[-1] if lines else "")[:110]


# A sweep whose fourth value's set-up (its call of _sweep_sim, after the six
# checks of the values) meets a KeyboardInterrupt, as a Ctrl-C arriving
# there does; and one whose checks meet it.  The records of the three values
# finished must come back on Interrupted, the full sweep's bit for bit.
SETUP_STOP = r'''
import sys
import numpy as np
import nsm
m = nsm.compile(sys.argv[1])
vals, S = np.linspace(2.0, 3.0, 6), "period:2*pi/omega"
full = m.sweep("omega", vals, S, transient=10, record=4)
orig = nsm.Model._sweep_sim
for at, kept in ((len(vals) + 4, 3 * 4), (3, 0)):
    calls = [0]
    def hit(self, *a, **k):
        calls[0] += 1
        if calls[0] == at:
            raise KeyboardInterrupt
        return orig(self, *a, **k)
    nsm.Model._sweep_sim = hit
    try:
        m.sweep("omega", vals, S, transient=10, record=4)
        raise SystemExit("the sweep was not interrupted")
    except nsm.Interrupted as e:
        p, rec = e.result
        print("  Ctrl-C at the sweep's set-up call %d: Interrupted, %d records kept, t %r"
              % (at, len(p), e.t))
        assert len(p) == kept and rec.shape == (kept, 4), (len(p), rec.shape)
        assert np.array_equal(p, full[0][:kept]) and np.array_equal(rec, full[1][:kept])
    except KeyboardInterrupt:
        raise SystemExit("a bare KeyboardInterrupt at the sweep's set-up call %d: the "
                         "finished values' records were lost" % at)
    nsm.Model._sweep_sim = orig
print("ok")
'''

# One sweep of many short runs, stopped by a real SIGINT from the parent at
# a random moment: Interrupted with the full sweep's first records, or the
# whole sweep when the signal came too late.  A signal that comes after the
# sweep has returned (the parent, on a loaded machine, read "go" late) is
# not the sweep's: the sweep's result is kept as soon as it returns, and
# SIGINT is ignored from then on, so that the signal can neither raise in
# the lines that say the outcome nor end the interpreter as it exits
# (SIGINT's default action is back then, and the child died silently).
SIGINT_CHILD = r'''
import signal
import sys
import numpy as np
import nsm
m = nsm.compile(sys.argv[1])
vals, S = np.linspace(2.0, 3.0, 120), "period:2*pi/omega"
full = m.sweep("omega", vals, S, transient=20, record=5)
print("go", flush=True)
res, said = [], None
try:
    try:
        res.append(m.sweep("omega", vals, S, transient=20, record=5))
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
except nsm.Interrupted as e:
    p, rec = e.result
    k = len(p)
    said = "Interrupted %d %s" % (k, np.array_equal(p, full[0][:k]) and
                                  np.array_equal(rec, full[1][:k]))
except KeyboardInterrupt:
    if not res:
        said = "bare KeyboardInterrupt"
signal.signal(signal.SIGINT, signal.SIG_IGN)
if said is None:
    said = "finished %s" % np.array_equal(res[0][1], full[1])
print(said, flush=True)
'''


def sweep_ctrl_c(tmp):
    """Model.sweep: a Ctrl-C between two values' runs was a bare
    KeyboardInterrupt, the finished values' records lost (5 of 22 random
    SIGINTs)."""
    python_script(tmp, "setup_stop.py", SETUP_STOP, [FIO],
                  "Model.sweep stopped at a value's set-up: Interrupted with the records kept")
    path = os.path.join(tmp, "child.py")
    with open(path, "w") as f:
        f.write(SIGINT_CHILD)
    env = env_for(tmp)
    rng = random.Random(16)
    seen = {}
    for _ in range(4 if SANITIZED else 12):
        # unbuffered: a buffered readline took the child's next line with
        # "go" when both had come, and communicate() then read nothing
        pr = subprocess.Popen([sys.executable, path, FIO], cwd=tmp, env=env, bufsize=0,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        first = pr.stdout.readline().decode().strip()
        if first == "go":
            time.sleep(rng.uniform(0.0, 0.12 if not SANITIZED else 0.4))
            pr.send_signal(signal.SIGINT)
        try:
            out, err = (b.decode(errors="replace") for b in pr.communicate(timeout=120))
        except subprocess.TimeoutExpired:
            pr.kill()
            raise
        said = (first + " " + out).strip().replace("go ", "")
        print("  SIGINT during Model.sweep: %s" % said[:100])
        check(first == "go" and (said.startswith("Interrupted") or said.startswith("finished"))
              and said.endswith("True"),
              "a Ctrl-C at a random moment of Model.sweep: Interrupted with the full sweep's "
              "first records (or the sweep finished)\n%s" % err[-1500:])
        seen[said.split()[0]] = seen.get(said.split()[0], 0) + 1
    print("  outcomes: %s" % seen)


def lock_inputs(tmp):
    """A model or a parameter file kept in the output folder under the
    lock's name was overwritten with the lock's process id: nsmc run, sweep
    and continue exited 0 over the destroyed model."""
    with open(FIO) as f:
        model = f.read()
    studies = {"run": [], "sweep": ["--param", "omega=2:3:3", "--section", "impact:stop"],
               "continue": ["--param", "omega=2.5:2.6"]}
    for prog, args in studies.items():
        d = os.path.join(tmp, "lk_" + prog)
        os.mkdir(d)
        lock = os.path.join(d, ".nsm-run.lock")
        with open(lock, "w") as f:
            f.write(model)
        p = run(tmp, [NSMC, prog, lock] + args + ["--out-dir", d], timeout=120)
        print("  nsmc %s DIR/.nsm-run.lock (the model) --out-dir DIR -> %d  %s"
              % (prog, p.returncode, shown(p)))
        check(p.returncode == 1 and "holds other data than a process id" in p.stderr and
              open(lock).read() == model and os.listdir(d) == [".nsm-run.lock"],
              "nsmc %s with the model as the folder's lock: exit 1, the model intact, nothing "
              "written" % prog, p)
    d = os.path.join(tmp, "lk_set")
    os.mkdir(d)
    lock = os.path.join(d, ".nsm-run.lock")
    with open(lock, "w") as f:
        f.write("e = 0.5\n")
    p = run(tmp, [NSMC, "run", BALL, "--set-file", lock, "--out-dir", d])
    print("  nsmc run --set-file DIR/.nsm-run.lock --out-dir DIR -> %d  %s" % (p.returncode,
                                                                             shown(p)))
    check(p.returncode == 1 and open(lock).read() == "e = 0.5\n",
          "nsmc run with the parameter file as the folder's lock: exit 1, the file intact", p)
    # a lock left by a killed run (a process id, with or without its line
    # end, or nothing) is still taken over
    for left in ("4194304\n", "12", ""):
        d = os.path.join(tmp, "lk_left%d" % len(left))
        os.mkdir(d)
        with open(os.path.join(d, ".nsm-run.lock"), "w") as f:
            f.write(left)
        p = run(tmp, [NSMC, "run", BALL, "--out-dir", d, "-q", "--t-end", "1"])
        print("  a lock left holding %r -> %d" % (left, p.returncode))
        check(p.returncode == 0 and whole_lines(os.path.join(d, "trajectory.csv")) == 101,
              "a lock left by a killed run (%r) taken over" % left, p)


def h5_own_output(tmp):
    """An output of the run named as the HDF5 file's temporary of a process
    that is gone (`--stats a.h5.1234.partial`) was written, then moved to
    a.h5.partial.prev as a killed run's file, exit 0: it stays; a real
    killed run's file beside it is still kept as a.h5.partial.prev."""
    ball = os.path.join(SIMS, "sim_bouncing_ball")
    own = os.path.join(tmp, "a.h5.1234.partial")
    p = run(tmp, [ball, "--t-end", "1", "--out", "a.h5", "--stats", "a.h5.1234.partial"])
    print("  sim --out a.h5 --stats a.h5.1234.partial -> %d  %s" % (p.returncode, shown(p)))
    check(p.returncode == 0 and os.path.exists(own) and
          open(own).readline().startswith("contact,law,") and
          not os.path.exists(os.path.join(tmp, "a.h5.partial.prev")),
          "the statistics stay under the name asked for, not moved as a killed run's file", p)
    dead = os.path.join(tmp, "a.h5.4194305.partial")      # above Linux's largest process id
    with open(dead, "w") as f:
        f.write("left\n")
    p = run(tmp, [ball, "--t-end", "1", "--out", "a.h5", "--stats", "a.h5.1234.partial"])
    check(p.returncode == 0 and open(own).readline().startswith("contact,law,") and
          not os.path.exists(dead) and
          open(os.path.join(tmp, "a.h5.partial.prev")).read() == "left\n",
          "a killed run's temporary beside it still kept as a.h5.partial.prev", p)


def findings(tmp):
    sweep_ctrl_c(tmp)
    lock_inputs(tmp)
    h5_own_output(tmp)


def files_of(d):
    """Every file of folder d with its bytes (HDF5 files left out: they
    hold their own creation times)."""
    out = {}
    for f in sorted(os.listdir(d)):
        if not f.endswith(".h5"):
            with open(os.path.join(d, f), "rb") as fh:
                out[f] = fh.read()
    return out


def orderings(tmp):
    """A simulator's options in two orders: the same status, standard
    output and files byte for byte (24 random option sets, 8 under the
    sanitizers, over three models and every method)."""
    rng = random.Random(1616)
    sections = {"sim_bouncing_ball": ["impact:floor", "plane:B.v:both"],
                "sim_forced_impact_oscillator": ["impact:stop", "period:2*pi/omega"],
                "sim_belt_friction": ["plane:M.v:both"]}
    n = 0
    for _ in thin(list(range(24))):
        name = rng.choice(sorted(sections))
        opts = [["--t-end", rng.choice(["0.5", "1", "2.5"])]]
        pool = [(0.7, ["--every", rng.choice(["0", "0.013", "0.1", "0.5"])]),
                (0.6, ["--method", rng.choice(["rk4", "adaptive", "exact", "taylor"])]),
                (0.4, ["--dt", rng.choice(["0", "1e-4", "0.003"])]),
                (0.5, ["--out", "t.csv"]), (0.5, ["--events", "e.csv"]),
                (0.3, ["--stats", "s.csv"]), (0.3, ["--summary"]), (0.2, ["--table"]),
                (0.2, ["--events-max", rng.choice(["0", "1", "5"])]),
                (0.2, ["--lyapunov"]), (0.2, ["--max-steps", rng.choice(["10", "100000"])]),
                (0.2, ["--no-zeno"])]
        opts += [o for pr, o in pool if rng.random() < pr]
        if rng.random() < 0.5:
            opts += [["--section", rng.choice(sections[name])], ["--section-out", "x.csv"]]
        outs = []
        for k in range(2):
            order = opts[:] if k == 0 else rng.sample(opts, len(opts))
            d = os.path.join(tmp, "ord%d_%d" % (n, k))
            os.mkdir(d)
            p = subprocess.run([os.path.join(SIMS, name)] + [a for o in order for a in o],
                               cwd=d, capture_output=True, timeout=60)
            outs.append((p.returncode, p.stdout, files_of(d)))
        label = name + " " + " ".join(a for o in opts for a in o)
        print("  %-70s -> %d" % (label[:70], outs[0][0]))
        check(outs[0] == outs[1] and outs[0][0] in (0, 1, 3),
              "%s: the same status, output and files in another order" % label)
        n += 1
    print("orderings: %d option sets" % n)


def closed_stdout(tmp):
    """Standard output closed beside a file output: the file holds the
    trajectory only (it may be given descriptor 1), exit 3 naming
    standard output; standard input closed changes nothing."""
    ball = os.path.join(SIMS, "sim_bouncing_ball")
    for extra in ([], ["--events", "-"], ["--summary"]):
        out = os.path.join(tmp, "so.csv")
        p = subprocess.run([ball, "--t-end", "1", "--out", out] + extra, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True, timeout=60,
                           preexec_fn=lambda: os.close(1))
        rows = whole_lines(out)
        head = open(out).readline()
        print("  stdout closed, --out FILE %s -> %d, %d rows" % (" ".join(extra), p.returncode,
                                                                 rows))
        # the events on standard output are written 0.25 s after it is
        # opened at the earliest: a run slower than that (a busy machine)
        # fails at that write, and its trajectory stops there
        import re
        stop = re.search(r"the run stopped at t = ([0-9.e+-]+) s", p.stderr)
        want = 101 if not stop else int(float(stop.group(1)) / 0.01 + 1e-9) + 1
        check(p.returncode == 3 and "cannot write 'standard output'" in p.stderr and
              abs(rows - want) <= 1 and head.startswith("t [s],B.x"),
              "stdout closed beside --out FILE %s: exit 3, the file the trajectory alone"
              % " ".join(extra), p)
    p = subprocess.run([ball, "--t-end", "1", "--out", "-"], stdin=subprocess.DEVNULL,
                       capture_output=True, text=True, timeout=60,
                       preexec_fn=lambda: os.close(0))
    check(p.returncode == 0 and len(p.stdout.splitlines()) == 102,
          "stdin closed: the run as usual", p)


def floors(tmp):
    """The velocity floors' refusal on both sides of its edge (1e3 times
    1e-12 m/s): a belt at 9.9e-10 m/s under a kinetic force of 3e-12 N is
    refused naming the floor; at 1e-9 and 1e-8 m/s the mass slips, x(t) =
    (mu_k N / k)(1 - cos t) (it never reaches the belt's speed), at t = 1 s
    within 1e-9 of it (relative)."""
    import math
    belt = os.path.join(SIMS, "sim_belt_friction")
    for vb in ("9.9e-10", "1e-9", "1e-8"):
        for meth in ("exact", "rk4", "adaptive"):
            out = os.path.join(tmp, "belt.csv")
            p = run(tmp, [belt, "--set", "v_b=" + vb, "--set", "N=1e-11", "--t-end", "1",
                          "--method", meth, "--out", out])
            if vb == "9.9e-10":
                print("  belt at %s m/s, %s -> %d  %s" % (vb, meth, p.returncode, shown(p)))
                check(p.returncode == 3 and "scale the units" in p.stderr,
                      "belt at %s m/s, %s: refused at t = 0 naming the floor" % (vb, meth), p)
                continue
            x = float(open(out).read().splitlines()[-1].split(",")[1])
            ref = 0.3 * 1e-11 * (1 - math.cos(1.0))
            err = abs(x - ref) / ref
            print("  belt at %s m/s, %s -> %d, x(1) off by %.2g" % (vb, meth, p.returncode, err))
            check(p.returncode == 0 and err < 1e-9,
                  "belt at %s m/s, %s: runs, x(1) on the closed form" % (vb, meth), p)


LYAP = r'''
import sys
import numpy as np
import nsm
fio, sim = sys.argv[1], sys.argv[2]
import subprocess
m = nsm.compile(fio)
for dur, iv, tr in ((50.0, 1.0, 10.0), (1.0, 10.0, 5.0), (60.0, 0.5, 0.0)):
    py = m.lyapunov(dur, iv, transient=tr, method="exact")
    p = subprocess.run([sim, "--lyapunov", "--t-end", repr(tr + dur), "--lyapunov-interval",
                        repr(iv), "--lyapunov-transient", repr(tr), "--lyapunov-out", "-",
                        "--method", "exact", "--out", "/dev/null", "--events", "/dev/null"],
                       capture_output=True, text=True)
    cli = np.array([float(r.split(",")[1]) for r in p.stdout.splitlines()[1:]])
    print("  lyapunov(%g, %g, transient=%g): Python %r, the simulator %s" % (dur, iv, tr,
                                                                             list(py), list(cli)))
    assert p.returncode == 0 and np.array_equal(py, cli), (py, cli)
# from t = 5 to 6 s the oscillator flies without an impact: the exponents'
# sum is the trace of its flow, -c/m = -2 zeta sqrt(k m)/m = -0.1 1/s
py = m.lyapunov(1.0, 10.0, transient=5.0, method="exact")
print("  sum over a flight without impacts: %.17g (-c/m = -0.1)" % py.sum())
assert abs(py.sum() + 0.1) < 1e-12, py.sum()
print("ok")
'''

BAD_ARGS = r'''
import math, sys
import numpy as np
import nsm
''' + PY_EXPECT + r'''
m = nsm.compile(sys.argv[1])
S = "period:2*pi/omega"
A, B = ("M.x", -1, 0, 2), ("M.v", -1, 1, 2)
def gen():
    yield 2.0
P, St = "ParameterError", "SettingError"
for label, call, errors in (
        ("sweep values a generator", lambda: m.sweep("omega", gen(), S), P),
        ("sweep values 2-d", lambda: m.sweep("omega", np.ones((2, 2)), S), P),
        ("sweep values a set", lambda: m.sweep("omega", {2.0, 2.5}, S), P),
        ("sweep values NaN", lambda: m.sweep("omega", [2.0, math.nan], S), P),
        ("sweep values -2", lambda: m.sweep("omega", [-2.0], S), P),
        ("sweep values 0-d", lambda: m.sweep("omega", np.array(2.0), S, transient=2,
                                             record=2), "ok"),
        ("sweep transient np.int64", lambda: m.sweep("omega", [2.0], S,
                                                     transient=np.int64(2),
                                                     record=np.uint8(2)), "ok"),
        ("sweep record 0", lambda: m.sweep("omega", [2.0], S, record=0), St),
        ("sweep t_max -1", lambda: m.sweep("omega", [2.0], S, t_max=-1), St),
        ("sweep t_max 1e300", lambda: m.sweep("omega", [2.0], S, t_max=1e300), St),
        ("sweep period 'x'", lambda: m.sweep("omega", [2.0], S, period="x"), St),
        ("continuation ds 0", lambda: m.continuation("omega", 2.5, 2.6, ds=0), St),
        ("continuation periods 2.5", lambda: m.continuation("omega", 2.5, 2.6, periods=2.5), St),
        ("continuation tol 0", lambda: m.continuation("omega", 2.5, 2.6, tol=0), St),
        ("continuation switch_pd 'no'", lambda: m.continuation("omega", 2.5, 2.6,
                                                               switch_pd="no"), St),
        ("continuation omega in params", lambda: m.continuation("omega", 2.5, 2.51,
                                                                params={"omega": 3}), P),
        ("floquet period 0", lambda: m.floquet(0), St),
        ("floquet period [1.0]", lambda: m.floquet([1.0]), St),
        ("floquet transient 1e300", lambda: m.floquet(2 * math.pi / 2.5, transient=1e300), St),
        ("lyapunov duration inf", lambda: m.lyapunov(np.inf, 1), St),
        ("lyapunov interval a generator", lambda: m.lyapunov(10, gen()), St),
        ("lyapunov transient -1", lambda: m.lyapunov(10, 1, transient=-1), St),
        ("basins x None", lambda: m.basins(None, B, S), St),
        ("basins count -3", lambda: m.basins(("M.x", -1, 0, -3), B, S), St),
        ("basins count 1e9 x 1e9", lambda: m.basins(("M.x", -1, 0, 10**9), B, S), St),
        ("basins coordinate a parameter", lambda: m.basins(("omega", 1, 2, 2), B, S), St),
        ("basins one coordinate twice", lambda: m.basins(A, ("M.x", -1, 1, 2), S), St),
        ("basins tol NaN", lambda: m.basins(A, B, S, tol=np.nan), St),
        ("basins period '-v' (an option's look)", lambda: m.basins(A, B, S, period="-v"), St),
        ("basins section '--jobs'", lambda: m.basins(A, B, "--jobs"), St),
        ("basins jobs 0", lambda: m.basins(A, B, S, jobs=0), St)):
    expect(label, call, errors)
print("%d calls" % n)
print("ok")
'''


def python_side(tmp):
    python_script(tmp, "lyap.py", LYAP, [FIO, SIM],
                  "the Lyapunov spectrum through Python and the simulator bit for bit")
    python_script(tmp, "bad.py", BAD_ARGS, [FIO],
                  "the Python studies' bad arguments: each an nsm.Error with a message")


def mpi_rank(tmp):
    """An MPI sweep with rank 0 or 1 stopped by SIGTERM, SIGINT or SIGKILL
    at a random moment: every file whole, each partial section row the full
    sweep's (the rows of a point in order), mpirun's status 128 + N."""
    mpirun = shutil.which("mpirun")
    if not mpirun:
        print("  no mpirun: the MPI cases are covered by reliability/sweep_killed_rank")
        return
    base = [mpirun, "--allow-run-as-root", "--oversubscribe", "-np", "2", NSMC, "sweep", FIO,
            "--param", "omega=1.5:4.5:120", "--section", "impact:stop", "--section-period",
            "2*pi/omega", "--transient", "50", "--record", "50"]
    p = run(tmp, base + ["--out-dir", "full"], timeout=300)
    if p.returncode != 0:
        print("  mpirun cannot start two ranks here (%d): skipped" % p.returncode)
        return
    ref = {}
    for row in list(csv.reader(open(os.path.join(tmp, "full", "section.csv"))))[1:]:
        ref.setdefault(row[0], []).append(row)
    rng = random.Random(161)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGKILL):
        d = os.path.join(tmp, "m" + sig.name)
        pr = subprocess.Popen(base + ["--out-dir", d], cwd=tmp, env=env_for(tmp),
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        t0 = time.monotonic()
        ranks = []
        while (len(ranks) < 2 or not os.path.exists(os.path.join(d, ".nsm-run.lock"))) and \
                time.monotonic() - t0 < 60 and pr.poll() is None:
            ranks = children(pr.pid)
            time.sleep(0.02)
        time.sleep(rng.uniform(0.05, 0.3) * (3 if SANITIZED else 1))
        if ranks and pr.poll() is None:
            try:
                os.kill(rng.choice(ranks), sig)
            except ProcessLookupError:
                pass        # that rank had ended: the sweep ends whole (status 0)
        err = pr.communicate(timeout=120)[1]
        part = os.path.join(d, "section.csv.partial")
        whole = os.path.join(d, "section.csv")
        path = part if os.path.exists(part) else whole
        # a rank stopped before any point ended leaves no partial file
        rows = list(csv.reader(open(path)))[1:] if os.path.exists(path) else []
        for f in os.listdir(d):
            if f.endswith((".csv", ".partial")):
                whole_lines(os.path.join(d, f))
        got = {}
        for row in rows:
            got.setdefault(row[0], []).append(row)
        same = all(ref.get(k, [])[:len(v)] == v for k, v in got.items())
        print("  rank stopped by %s: mpirun %d, %d section rows kept in %s, each the full "
              "sweep's: %s" % (sig.name, pr.returncode, len(rows), os.path.basename(path), same))
        print("    left: %s" % " ".join(sorted(os.listdir(d))))
        check(same and (pr.returncode in (128 + sig, 0)),
              "an MPI sweep with a rank stopped by %s: whole files, the kept rows the full "
              "sweep's\n%s" % (sig.name, err[-800:]))


def kept(tmp):
    orderings(tmp)
    closed_stdout(tmp)
    floors(tmp)
    python_side(tmp)
    mpi_rank(tmp)


if __name__ == "__main__":
    sys.exit(main({"findings": findings, "kept": kept}, "nsm-sixteenth-prog-", case_arg=4))
