#!/usr/bin/env python3
"""Fault injection on `nsmc sweep`: nothing lost, nothing silent.

    tests/reliability/sweep_reliability_test.py NSMC SOURCE_DIR CASE [MPIRUN]

Each case runs in a fresh temporary folder with its own program cache (the
sweep program of the forced impact oscillator is built once per case) and
breaks something on purpose: a parameter given twice, impossible counts and
grids, a second sweep into the same folder, signals at random moments, a
SIGKILL, a killed MPI rank (case killed_rank, MPIRUN given), a file-size
limit, a grid too large for memory, every point failing.
It checks the failure is reported (exit status and message) before the grid
runs when it can be, and that what is left is whole: the partial files hold
whole lines, a summary row's point has all its rows, the files and figures of
an earlier sweep are untouched.  Prints what it checked; exits 1 on the
first failure.
"""
import os
import random
import resource
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import (Failure, check, env_for, main, proc_find, run,  # noqa: E402
                     whole_lines)

NSMC = os.path.abspath(sys.argv[1])
SRC = os.path.abspath(sys.argv[2])
MPIRUN = sys.argv[4] if len(sys.argv) > 4 else None
FIO = os.path.join(SRC, "models", "forced_impact_oscillator.nsm")
SECTION = ["--section", "impact:stop", "--section-period", "2*pi/omega"]
SEC_COLS = 5      # omega, t, phase, M.x, M.v


def sweep(tmp, args, out="out", model=FIO, limit_fsize=None, limit_as=None, timeout=300):
    """Runs nsmc sweep MODEL ARGS --out-dir OUT in tmp, with resource limits.
    Under the sanitizers (NSM_SANITIZED set by the build), which reserve
    terabytes of address space, an address-space cap would stop them, not
    the sweep: their allocator then refuses every block over a quarter of
    the cap instead (a failed allocation all the same)."""
    sanitized = limit_as is not None and os.environ.get("NSM_SANITIZED")
    env = {}
    if sanitized:
        env["ASAN_OPTIONS"] = ("allocator_may_return_null=1:max_allocation_size_mb=%d"
                               % (limit_as >> 22))

    def pre():
        if limit_fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_fsize, limit_fsize))
        if limit_as is not None and not sanitized:
            resource.setrlimit(resource.RLIMIT_AS, (limit_as, limit_as))
    cmd = [NSMC, "sweep", model] + args + (["--out-dir", out] if out else [])
    return run(tmp, cmd, timeout, pre, env)


def start(tmp, args, out="out"):
    """Starts a sweep in the background (its own process: nsmc execs the program)."""
    cmd = [NSMC, "sweep", FIO] + args + ["--out-dir", out]
    return subprocess.Popen(cmd, cwd=tmp, env=env_for(tmp), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def warm(tmp):
    """Builds the sweep program into the case's cache (a one-point sweep)."""
    p = sweep(tmp, ["--param", "omega=2:2:1"] + SECTION + ["--transient", "1", "--record", "1"],
              out="warm")
    check(p.returncode == 0, "the sweep program builds and runs one point", p)


def lines_whole(path, cols, what):
    """Every line of path ends with a newline and has cols fields
    (passlib.whole_lines); returns the data rows (header left out) as lists
    of strings."""
    try:
        whole_lines(path)
    except Failure as e:
        check(False, "%s: %s" % (what, e))
    rows = [l.split(",") for l in open(path).read().split("\n")[:-1]]
    check(rows and len(rows[0]) == cols,
          "%s: every line has %d fields (%d lines)" % (what, cols, len(rows)))
    for r in rows[1:]:
        for f in r[:SEC_COLS] if cols == SEC_COLS else r[:1]:
            float(f)
    return rows[1:]


def partial_consistent(out, record, what):
    """The partial files are whole and every point in summary.csv.partial
    has its `records` rows in section.csv.partial.  Returns the points."""
    sec = lines_whole(os.path.join(out, "section.csv.partial"), SEC_COLS, what + " section")
    summ = open(os.path.join(out, "summary.csv.partial")).read()
    check(summ.endswith("\n"), what + ": summary.csv.partial ends with a whole line")
    rows = [l.split(",") for l in summ.split("\n")[1:-1]]
    per = {}
    for r in sec:
        per[r[0]] = per.get(r[0], 0) + 1
    wrong = [r for r in rows if r[1] not in ("ok", "short", "failed") or per.get(r[0], 0) != int(r[2])]
    check(not wrong, "%s: each of the %d points in summary.csv.partial has all its rows in "
          "section.csv.partial %s" % (what, len(rows), wrong[:3]))
    return len(rows)


# ---- cases ------------------------------------------------------------------


def case_arguments(tmp):
    """Every bad argument refused with its own message, exit 1, before the
    grid runs: the out-dir is not even created."""
    warm(tmp)
    grid = ["--transient", "2", "--record", "2"] + SECTION
    bad = [
        (["--param", "omega=1:2:3", "--param", "omega=3:4:2"], "--param omega is given twice"),
        (["--param", "omega=1:2:0"], "COUNT 0: an axis needs at least 1 point"),
        (["--param", "omega=1:2:-3"], "COUNT -3: an axis needs at least 1 point"),
        (["--param", "omega=1:2:1e9"], "COUNT 1e9 is more than the 100000000 points"),
        (["--param", "omega=1:2:2.5"], "COUNT 2.5 is not a whole number"),
        (["--param", "omega=1:nan:3"], "STOP 'nan' is not a finite number"),
        (["--param", "omega=1:2:0x10"], "COUNT '0x10' is not a number"),
        (["--param", "omega=0x1:2:3"], "START '0x1' is not a finite number"),
        (["--param", "omega=1:2:65536", "--param", "e=0:1:65536", "--param", "k=1:2:65536",
          "--param", "c=0:1:65536"], "the grid has 1.84467e+19 runs (65536 x 65536 x 65536 x 65536)"),
        (["--param", "omega=1:2:20000", "--param", "e=0:1:10000"], "more than the 100000000"),
        (["--param", "omega=1:2:3", "--set", "omega=2"], "also swept by --param omega"),
        (["--param", "omega=1:2:3", "--set", "e=0.5", "--set", "e=0.6"], "--set e is given twice"),
        (["--param", "omega=1:2:3", "--set", "e=2x"], "--set e=2x: unknown unit 'x'"),
        (["--param", "omega=1:2:3", "--plot", "nope"], "--plot nope: not a column"),
        (["--param", "omega=1:2:3", "--record", "0"], "--record is a whole number"),
        (["--param", "omega=1:2:3", "--jobs", "1.5"], "--jobs is a whole number"),
        (["--param", "omega=1:2:3", "--method", "rk4", "--method", "exact"],
         "option --method is given twice"),
        # values the model refuses only when it starts: before the grid, with
        # the model's reason, not a failure at every point
        (["--param", "omega=1:2:3", "--set", "e=2"],
         "the model cannot start with these --set values: invalid value 2 of parameter 'e'"),
        (["--param", "e=0.5:1.5:3"], "--param e=1.5: the model cannot start: invalid value 1.5"),
    ]
    for args, msg in bad:
        p = sweep(tmp, args + grid, out="never")
        check(p.returncode == 1 and msg in p.stderr,
              "refused: %s -> '%s'" % (" ".join(args), msg), p)
        check(not os.path.exists(os.path.join(tmp, "never")),
              "nothing written for: " + " ".join(args))
    # a parameter that sizes a family: refused with the model's reason, not a
    # failure at every point (whose rows read values never set)
    model = os.path.join(tmp, "sized.nsm")
    with open(model, "w") as f:
        f.write('model sized "Beads sized by a parameter"\nparam N = 3\nparam k = 1 N/m\n'
                'mass P[1..N] = 1 kg\nfor i in 1..N: spring ground -- P[i], k = k\n'
                'gap floor: P[1].x + 1 m >= 0, impact(e = 0.5)\n'
                'init P[1].v = -1 m/s\nsimulate t_end = 10 s, dt = 1 ms, method = rk4\n')
    p = sweep(tmp, ["--param", "k=1:2:3", "--set", "N=4", "--section", "impact:floor",
                    "--transient", "0", "--record", "1"], out="never", model=model)
    check(p.returncode == 1 and "--set N=4: parameter 'N' sizes the model's" in p.stderr,
          "--set of a parameter that sizes the model: refused before the grid", p)
    p = sweep(tmp, ["--param", "N=3:5:3", "--section", "impact:floor", "--transient", "0",
                    "--record", "1"], out="never", model=model)
    check(p.returncode == 1 and "--param N: parameter 'N' sizes the model's" in p.stderr,
          "--param over a parameter that sizes the model: refused before the grid", p)
    open(os.path.join(tmp, "file"), "w").close()
    p = sweep(tmp, ["--param", "omega=1:2:3"] + grid, out="file")
    check(p.returncode == 1 and "'file' is not a folder" in p.stderr, "--out-dir onto a file", p)


def case_memory(tmp):
    """A grid too large for memory: 'out of memory', exit 1, no crash."""
    warm(tmp)
    p = sweep(tmp, ["--param", "omega=1:2:10000", "--param", "e=0:1:10000"] + SECTION,
              limit_as=2 << 30)
    check(p.returncode == 1 and "out of memory" in p.stderr,
          "10^8 points under a 2 GiB address space: exit 1, 'out of memory'", p)


def case_lock(tmp):
    """Two sweeps into one folder: the second is refused naming the first."""
    warm(tmp)
    first = start(tmp, ["--param", "omega=1:4:2000", "--transient", "200", "--record", "3"]
                  + SECTION)
    try:
        deadline = time.time() + 60
        lock = os.path.join(tmp, "out", "section.csv.partial")
        while not os.path.exists(lock) and time.time() < deadline:
            time.sleep(0.05)
        p = sweep(tmp, ["--param", "omega=1:2:3"] + SECTION)
        check(p.returncode == 1 and "another run (process %d)" % first.pid in p.stderr,
              "a second sweep into the same folder: exit 1, naming the first", p)
    finally:
        first.kill()
        first.wait()


def case_signals(tmp):
    """SIGINT, SIGTERM or SIGHUP at random moments: exit 128 + N, the finished
    points in whole partial files, the earlier complete result untouched."""
    warm(tmp)
    # 30000 points: about 11 s on an idle machine, so that every signal
    # (0.3 to 1.5 s) comes mid-sweep (3000 points finished in 1.2 s idle,
    # before the third signal, and only a loaded machine let the case pass)
    args = ["--param", "omega=1:4:30000", "--transient", "100", "--record", "3"] + SECTION
    p = sweep(tmp, ["--param", "omega=2:3:4", "--transient", "5", "--record", "3"] + SECTION)
    check(p.returncode == 0, "a first, complete sweep", p)
    before = {n: open(os.path.join(tmp, "out", n), "rb").read()
              for n in ("section.csv", "summary.csv", "bifurcation.png", "bifurcation.svg")}
    rng = random.Random(29)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        q = start(tmp, args + ["--jobs", "2"])
        time.sleep(rng.uniform(0.3, 1.5))
        q.send_signal(sig)
        _, err = q.communicate(timeout=120)
        check(q.returncode == 128 + sig and "stopped by %s" % signal.Signals(sig).name in err
              and "points finished" in err,
              "%s: exit %d and what was kept (%s)" % (signal.Signals(sig).name, 128 + sig,
                                                     err.strip().splitlines()[-1][:120]))
        n = partial_consistent(os.path.join(tmp, "out"), 3, signal.Signals(sig).name)
        check(0 <= n < 30000, "%s: %d points in the partial result" % (signal.Signals(sig).name, n))
        for name, data in before.items():
            check(open(os.path.join(tmp, "out", name), "rb").read() == data,
                  "%s: the earlier %s untouched" % (signal.Signals(sig).name, name))
    # SIGKILL: no handler runs, the partial files still hold whole points
    q = start(tmp, args)
    time.sleep(1.0)
    q.kill()
    q.wait()
    partial_consistent(os.path.join(tmp, "out"), 3, "SIGKILL")
    killed = {n: open(os.path.join(tmp, "out", n + ".partial"), "rb").read()
              for n in ("section.csv", "summary.csv")}
    # a complete sweep replaces the partial files with the complete ones; the
    # killed sweep's are kept as .partial.prev and said (never lost silently)
    p = sweep(tmp, ["--param", "omega=2:3:4", "--transient", "5", "--record", "3"] + SECTION)
    check(p.returncode == 0 and not os.path.exists(os.path.join(tmp, "out", "section.csv.partial")),
          "a complete sweep removes the partial files", p)
    for n, data in killed.items():
        prev = os.path.join(tmp, "out", n + ".partial.prev")
        check(os.path.exists(prev) and open(prev, "rb").read() == data
              and ("%s.partial' was left by an earlier sweep" % n) in p.stderr
              and ("%s.partial.prev'" % n) in p.stderr,
              "the killed sweep's %s.partial is kept as .partial.prev, with a note" % n, p)


def rank_pid(rank, tmp):
    """The PID of this case's MPI rank `rank` (its OMPI_COMM_WORLD_RANK, and
    the case's own cache, tmp/cache, in its environment), or None.  Any
    cache ending in /cache was taken: under a loaded parallel suite the rank
    1 of another test's mpirun (every case's cache is TMP/cache) was found
    and killed, and this case's job then ran to its end unharmed."""
    cache = b"XDG_CACHE_HOME=" + env_for(tmp)["XDG_CACHE_HOME"].encode()
    pids = proc_find(lambda env: (b"OMPI_COMM_WORLD_RANK=%d" % rank) in env.split(b"\0") and
                     cache in env.split(b"\0"), "environ")
    return pids[0] if pids else None


def case_killed_rank(tmp):
    """mpirun -np 2 with rank 1 killed (SIGKILL) while the grid runs: mpirun
    says which rank was killed and exits non-zero (it aborts the whole job,
    rank 0 included: no rank can report for it), the points both ranks
    finished are in whole partial files, and the next sweep into the folder
    keeps them as .partial.prev and says so."""
    if not MPIRUN:
        raise Failure("no mpirun given")
    warm(tmp)
    env = env_for(tmp)
    env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1")
    env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":detect_leaks=0"
    args = ["--param", "omega=1:4:3000", "--transient", "100", "--record", "3"] + SECTION
    q = subprocess.Popen([MPIRUN, "--oversubscribe", "-np", "2", NSMC, "sweep", FIO] + args +
                         ["--jobs", "1", "--out-dir", "out"], cwd=tmp, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    summ = os.path.join(tmp, "out", "summary.csv.partial")
    victim, t0 = None, time.monotonic()
    while time.monotonic() - t0 < 120 and q.poll() is None:
        if victim is None:
            victim = rank_pid(1, tmp)
        if victim and os.path.exists(summ) and open(summ).read().count("\n") > 20:
            break
        time.sleep(0.1)
    check(victim is not None and q.poll() is None, "rank 1 runs (pid %s) and points are "
          "finished" % victim)
    os.kill(victim, signal.SIGKILL)
    _, err = q.communicate(timeout=120)
    check(q.returncode != 0 and "rank 1" in err and "signal 9" in err,
          "mpirun reports the killed rank and exits %d" % q.returncode, q)
    n = partial_consistent(os.path.join(tmp, "out"), 3, "killed rank")
    check(20 < n < 3000, "%d finished points kept in whole partial files" % n)
    points = {r.split(",")[0] for r in open(summ).read().split("\n")[1:-1]}
    killed = {name: open(os.path.join(tmp, "out", name + ".partial"), "rb").read()
              for name in ("section.csv", "summary.csv")}
    p = sweep(tmp, ["--param", "omega=2:3:4", "--transient", "5", "--record", "3"] + SECTION)
    check(p.returncode == 0, "the next sweep into the folder runs (the lock died with the job)", p)
    for name, data in killed.items():
        prev = os.path.join(tmp, "out", name + ".partial.prev")
        check(os.path.exists(prev) and open(prev, "rb").read() == data
              and ("%s.partial' was left by an earlier sweep" % name) in p.stderr,
              "the killed job's %s.partial is kept as .partial.prev, with a note (%d points)"
              % (name, len(points)), p)


def case_disk_full(tmp):
    """A file-size limit reached by the partial files: exit 1 with the reason,
    the partial files cut back to whole points, the earlier result kept."""
    warm(tmp)
    p = sweep(tmp, ["--param", "omega=2:3:2", "--transient", "5", "--record", "3"] + SECTION)
    check(p.returncode == 0, "a first, complete sweep", p)
    before = open(os.path.join(tmp, "out", "section.csv"), "rb").read()
    p = sweep(tmp, ["--param", "omega=1:4:400", "--transient", "5", "--record", "20"] + SECTION,
              limit_fsize=30000)
    check(p.returncode == 1 and "File too large" in p.stderr and "section.csv.partial" in p.stderr,
          "a 30000-byte file-size limit: exit 1, 'File too large'", p)
    n = partial_consistent(os.path.join(tmp, "out"), 20, "file-size limit")
    check(n > 0, "the points finished before the limit are kept (%d)" % n)
    check(open(os.path.join(tmp, "out", "section.csv"), "rb").read() == before,
          "the earlier section.csv untouched")


def case_all_failed(tmp):
    """Every point failing: exit 3 'some points failed', no blame on gnuplot,
    the figures of an earlier sweep untouched."""
    warm(tmp)
    p = sweep(tmp, ["--param", "omega=2:3:2", "--transient", "5", "--record", "3"] + SECTION)
    check(p.returncode == 0, "a first, complete sweep", p)
    figs = {n: open(os.path.join(tmp, "out", n), "rb").read()
            for n in ("bifurcation.png", "bifurcation.svg")}
    # a stiffness the run cannot step (refused at t = 0 by every point; a
    # value the model refuses outright, e = 2, is refused before the grid)
    p = sweep(tmp, ["--param", "k=1e299:1e300:3", "--transient", "5", "--record", "3"] + SECTION)
    check(p.returncode == 3 and "some points failed (3 of 3)" in p.stderr
          and "gnuplot" not in p.stderr, "every point failing: exit 3, 'some points failed'", p)
    for n, data in figs.items():
        check(open(os.path.join(tmp, "out", n), "rb").read() == data, "the earlier %s untouched" % n)
    summ = open(os.path.join(tmp, "out", "summary.csv")).read().splitlines()
    check(len(summ) == 4 and all(",failed," in l for l in summ[1:]),
          "summary.csv lists the three failed points with their reason")
    # some points failing: the diagram of the others drawn, exit 3
    p = sweep(tmp, ["--param", "k=1:2e300:3", "--transient", "5", "--record", "3"] + SECTION)
    check(p.returncode == 3 and "some points failed (2 of 3)" in p.stderr
          and open(os.path.join(tmp, "out", "bifurcation.png"), "rb").read() != figs["bifurcation.png"],
          "two points of three failing: exit 3, the other drawn", p)


def case_all_short(tmp):
    """Every point ending short of its records (a --t-max before the first
    impact) used to exit 0 with only "no section records to draw": it is a
    failure, exit 3, naming the first cause, the earlier figures untouched;
    some points short among good ones are drawn, with a note."""
    warm(tmp)
    p = sweep(tmp, ["--param", "omega=2:3:2", "--transient", "5", "--record", "3"] + SECTION)
    check(p.returncode == 0, "a first, complete sweep", p)
    figs = {n: open(os.path.join(tmp, "out", n), "rb").read()
            for n in ("bifurcation.png", "bifurcation.svg")}
    p = sweep(tmp, ["--param", "omega=2:3:2", "--transient", "5", "--record", "3",
                    "--t-max", "1e-3"] + SECTION)
    check(p.returncode == 3 and "no point gave section records (0 of 2 failed, 2 ended short"
          in p.stderr and "first cause: fewer than 8 records before t = t-max" in p.stderr,
          "every point short: exit 3, 'no point gave section records' with the cause", p)
    for n, data in figs.items():
        check(open(os.path.join(tmp, "out", n), "rb").read() == data, "the earlier %s untouched" % n)
    summ = open(os.path.join(tmp, "out", "summary.csv")).read().splitlines()
    check(len(summ) == 3 and all(",short," in l for l in summ[1:]),
          "summary.csv lists the two short points")
    # a t-max that leaves the slow points short but not the fast ones
    p = sweep(tmp, ["--param", "omega=0.2:2:2", "--transient", "5", "--record", "3",
                    "--t-max", "100*omega"] + SECTION)
    check(p.returncode == 0 and "note: 1 of 2 points ended short" in p.stderr,
          "one point of two short: drawn, with a note", p)


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-sweep-rel-", 3))
