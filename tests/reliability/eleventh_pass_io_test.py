#!/usr/bin/env python3
"""An eleventh hostile pass over the I/O surfaces (issue #29): the newest
fixes' edges (the out-dir's lock written once, a continuation's per-point
partial file, temporaries cleaned by the next run, the kept .partial.prev),
HDF5 output that fails beside other outputs, --lyapunov-out of a run that
does not end, sweeps on several jobs with failing points, and stop signals
at random moments, by inputs the first ten passes did not try.

    tests/reliability/eleventh_pass_io_test.py NSMC SIM FIO_SIM SOURCE_DIR CASE SIMS_DIR

Cases (each under 20 s in the normal build):
  findings   what the pass found, each failing before its fix: a hard link
             planted as DIR/.nsm-run.lock had its target's contents replaced
             by the locker's process id (`nsmc run`, `nsmc sweep`, `nsmc
             continue`); a continuation whose partial file met a file-size
             limit left half a line in branch.csv.partial; a sweep or a
             continuation killed while it wrote its results left
             NAME.tmpPID there for ever (the next one did not remove it); a
             third sweep or continuation into a folder replaced the
             .partial.prev kept from the first stop without a word; an HDF5
             file that could not be written left --stats's file empty and
             did not say where the run stopped (the CSV files cut there);
             --lyapunov-out of a stopped or failed run was not written and
             an earlier run's spectrum was left beside the new trajectory
             without a word; nsmc compiling a program under a file-size
             limit (or onto a full disk) blamed the generated C as an
             internal error (exit 2); a symbolic link named as the HDF5
             temporary of a run that is process 1 of a PID namespace was
             written through (its target replaced by the HDF5 file), and a
             killed run's HDF5 file kept as .partial.prev replaced one kept
             before without a word.
  kept       inputs that found nothing, kept: `nsmc sweep --jobs 2` with
             failing points (exit 3, every point in summary.csv), `--set` of
             a swept parameter, SIGINT, SIGTERM, SIGHUP and SIGKILL at seeded
             random moments of `nsmc run` (whole lines, no temporary), a
             sweep killed with SIGKILL while it writes its results then run
             again into the same folder.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import os
import random
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import (SANITIZED, check, dead_pid, env_for, limit, main, run,  # noqa: E402
                     whole_lines)

# the program, the source tree's models and the simulators' folder
NSMC, SIMS = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[6])
FIO = os.path.join(os.path.abspath(sys.argv[4]), "models", "forced_impact_oscillator.nsm")
BALL = os.path.join(os.path.abspath(sys.argv[4]), "models", "bouncing_ball.nsm")
SLOW = 3 if SANITIZED else 1
PRECIOUS = "precious data\nline 2\n"


def sim(name):
    return os.path.join(SIMS, "sim_" + name)


SWEEP = ["--param", "omega=1:2:3", "--section", "period:2*pi/omega", "--transient", "2",
         "--record", "2"]
CONT = ["--param", "omega=2.5:2.6", "--max-points", "3", "--no-plot", "-q"]
STUDIES = {
    "run": lambda d: [NSMC, "run", BALL, "--out-dir", d, "-q", "--no-plot"],
    "sweep": lambda d: [NSMC, "sweep", FIO] + SWEEP + ["--out-dir", d],
    "continue": lambda d: [NSMC, "continue", FIO] + CONT + ["--out-dir", d],
}


# ---- findings ---------------------------------------------------------------

def lock_hard_link(tmp):
    """DIR/.nsm-run.lock as a hard link to a file outside: refused, exit 1,
    the file untouched, nothing written."""
    for what, cmd in STUDIES.items():
        d = os.path.join(tmp, "hard-" + what)
        os.mkdir(d)
        target = os.path.join(tmp, "notes-%s.txt" % what)
        with open(target, "w") as f:
            f.write(PRECIOUS)
        os.link(target, os.path.join(d, ".nsm-run.lock"))
        p = run(tmp, cmd(d), timeout=300 * SLOW)
        check(p.returncode == 1 and "hard link" in p.stderr and
              open(target).read() == PRECIOUS and os.listdir(d) == [".nsm-run.lock"],
              "nsmc %s with the out-dir's lock a hard link to a file outside: exit 1, 'hard "
              "link', the file untouched, nothing written (its contents were replaced by the "
              "locker's process id, exit 0)" % what, p)


def cont_short_write(tmp):
    """A continuation whose partial file meets a 2 KiB file-size limit: the
    file cut back to whole lines (it ended in the middle of a number)."""
    p = run(tmp, STUDIES["continue"]("warm"), timeout=300 * SLOW)
    check(p.returncode == 0, "the continuation program compiled", p)
    cmd = [NSMC, "continue", FIO, "--param", "omega=2.5:3.5", "--max-points", "12",
           "--out-dir", "c", "--no-plot", "-q"]
    p = run(tmp, cmd, timeout=300 * SLOW, preexec=limit(2048))
    part = os.path.join(tmp, "c", "branch.csv.partial")
    check(p.returncode == 1 and "File too large" in p.stderr and os.path.exists(part),
          "a continuation under a 2 KiB file-size limit: exit 1, its partial file kept", p)
    rows = whole_lines(part)
    check(rows >= 1, "branch.csv.partial holds %d whole points, no half line (it ended in the "
          "middle of a number)" % rows)


def stale_temporaries(tmp):
    """Temporaries of a killed sweep's or continuation's results (an ended
    process's) removed by the next one into the folder, a live one's left."""
    gone, live = dead_pid(), os.getpid()
    for what, names in (("sweep", ("section.csv", "summary.csv", "bifurcation.gp")),
                        ("continue", ("branch.csv", "branch.csv.partial", "continuation.gp"))):
        d = os.path.join(tmp, "stale-" + what)
        os.mkdir(d)
        planted = {"%s.tmp%d" % (n, gone): False for n in names}
        planted["%s.tmp%d" % (names[0], live)] = True
        planted["notes.csv.tmp%d" % gone] = True
        for name in planted:
            with open(os.path.join(d, name), "w") as f:
                f.write("half a result")
        p = run(tmp, STUDIES[what](d), timeout=300 * SLOW)
        check(p.returncode == 0, "nsmc %s into a folder with temporaries" % what, p)
        for name, stays in planted.items():
            there = os.path.exists(os.path.join(d, name))
            check(there == stays, "nsmc %s: %s %s" % (what, name, "left alone (a live process's "
                  "or not a result's)" if stays else "removed (its process has ended; it stayed "
                  "for ever)"))


def prev_replaced(tmp):
    """A partial result of a stop before, kept as .partial.prev, replaced by
    the next stop's: said (it was replaced without a word)."""
    d = os.path.join(tmp, "prev-sweep")
    os.mkdir(d)
    for name, text in (("section.csv", "omega,x\n1,0.5\n"), ("summary.csv", "omega,s\n1,ok\n")):
        for suffix in (".partial", ".partial.prev"):
            with open(os.path.join(d, name + suffix), "w") as f:
                f.write(text)
    p = run(tmp, STUDIES["sweep"](d), timeout=300 * SLOW)
    check(p.returncode == 0 and p.stderr.count("replacing the one kept there from a stop "
                                               "before it") == 2,
          "a sweep replacing both .partial.prev files kept from a stop before: said for each", p)
    d = os.path.join(tmp, "prev-cont")
    os.mkdir(d)
    for suffix in (".partial", ".partial.prev"):
        with open(os.path.join(d, "branch.csv" + suffix), "w") as f:
            f.write("omega,point\n2.5,regular\n")
    p = run(tmp, STUDIES["continue"](d), timeout=300 * SLOW)
    check(p.returncode == 0 and "replacing the one kept there from a stop before it" in p.stderr,
          "a continuation replacing branch.csv.partial.prev: said", p)


def h5_fails_beside(tmp):
    """HDF5 output under a 64 KiB file-size limit beside --stats and
    --events: the statistics written up to where the run stopped, and that
    time said (the statistics' file was left empty, the stop unsaid)."""
    d = os.path.join(tmp, "h5")
    os.mkdir(d)
    with open(os.path.join(d, "s.csv"), "w") as f:
        f.write("an earlier run's statistics\n")
    p = run(d, [sim("bouncing_ball"), "--out", "y.h5", "--out", "-", "--stats", "s.csv",
                "--events", "e.csv", "--t-end", "100", "--every", "0.001"],
            preexec=limit(65536))
    print("  exit %d: %s" % (p.returncode, p.stderr.strip().splitlines()[-1:]))
    stats = open(os.path.join(d, "s.csv")).read().splitlines()
    check(p.returncode == 3 and "cannot write 'y.h5'" in p.stderr and
          "the run stopped at t = " in p.stderr and
          len(stats) == 2 and stats[1].startswith("floor,impact,") and
          whole_lines(os.path.join(d, "e.csv")) >= 1 and
          not [f for f in os.listdir(d) if "partial" in f or f == "y.h5"],
          "HDF5 that cannot be written beside --stats: exit 3, where the run stopped said, the "
          "statistics written (their file was left empty), no HDF5 file nor temporary", p)
    t = float(p.stderr.split("the run stopped at t = ")[1].split()[0])
    rows = [ln.split(",") for ln in open(os.path.join(d, "e.csv")).read().splitlines()[1:]]
    events = [float(r[0]) for r in rows]
    impacts = sum(r[1] == "impact" for r in rows)
    check(0 < t < 100 and all(e <= t for e in events) and
          int(stats[1].split(",")[2]) == impacts,
          "the time said (%.4g s) is after every event logged, and the statistics count "
          "those %d impacts (of %d events)" % (t, impacts, len(events)), p)


def lyap_unwritten(tmp):
    """--lyapunov-out FILE of a run that fails or is stopped: not written,
    said, the earlier run's file named as such."""
    d = os.path.join(tmp, "ly")
    os.mkdir(d)
    with open(os.path.join(d, "ly.csv"), "w") as f:
        f.write("exponent,lambda [1/s]\n1,0.25\n")
    fio = sim("forced_impact_oscillator")
    p = run(d, [fio, "--lyapunov", "--lyapunov-out", "ly.csv", "--set", "k=1e30",
                "--t-end", "1"])
    check(p.returncode == 3 and "'ly.csv' was not written" in p.stderr and
          "earlier run's" in p.stderr,
          "--lyapunov-out of a failed run: not written, said (an earlier spectrum was left "
          "beside it without a word)", p)
    pr = subprocess.Popen([fio, "--lyapunov", "--lyapunov-out", "ly2.csv", "--t-end", "1e6"],
                          cwd=d, env=env_for(tmp), stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    time.sleep(0.5 * SLOW)
    pr.send_signal(signal.SIGTERM)
    err = pr.communicate(timeout=60)[1]
    check(pr.returncode == 143 and "'ly2.csv' was not written" in err and
          "earlier run's" not in err and not os.path.exists(os.path.join(d, "ly2.csv")),
          "--lyapunov-out of a run stopped by SIGTERM: not written, said",
          subprocess.CompletedProcess([], pr.returncode, "", err))


def compile_no_room(tmp):
    """nsmc run, sweep and continue compiling under a 64 KiB file-size
    limit (the linker cannot write the program): an error naming the limit,
    exit 1, nothing left in the cache but the C file (it was an internal
    error blaming the generated C, exit 2)."""
    for what, cmd in STUDIES.items():
        cache = os.path.join(tmp, "nocache-" + what)
        p = run(tmp, cmd(os.path.join(tmp, "room-" + what)), timeout=300 * SLOW,
                preexec=limit(65536), env={"XDG_CACHE_HOME": cache})
        left = [f for _, _, files in os.walk(cache) for f in files if not f.startswith(".")]
        check(p.returncode == 1 and "a file-size limit of 64 KiB is set" in p.stderr and
              "internal error" not in p.stderr and all(f.endswith(".c") for f in left) and
              not os.path.exists(os.path.join(tmp, "room-" + what)),
              "nsmc %s compiling under a 64 KiB file-size limit: exit 1 naming the limit, no "
              "temporary (it blamed the generated C as an internal error, exit 2)" % what, p)


def h5_temporary_link(tmp):
    """A symbolic link standing as the HDF5 temporary's name of a run that
    is process 1 of a fresh PID namespace (a container): refused, its target
    untouched (it was written through: the target replaced by the HDF5
    file, FILE.h5 left a link to it).  A killed run's file kept as
    FILE.h5.partial.prev where one was kept before: said."""
    d = os.path.join(tmp, "ns")
    os.mkdir(d)
    with open(os.path.join(d, "notes.txt"), "w") as f:
        f.write(PRECIOUS)
    os.symlink("notes.txt", os.path.join(d, "x.h5.1.partial"))
    p = run(d, ["unshare", "--pid", "--fork", sim("bouncing_ball"), "--out", "x.h5",
                "--t-end", "1"])
    check(p.returncode == 1 and "is in the way (a symbolic link" in p.stderr and
          open(os.path.join(d, "notes.txt")).read() == PRECIOUS and
          not os.path.lexists(os.path.join(d, "x.h5")),
          "a link as x.h5.1.partial beside process 1 of a PID namespace: refused, exit 1, "
          "its target untouched (replaced by the HDF5 file, exit 0)", p)
    p = run(d, [sim("bouncing_ball"), "--out", "k.h5", "--t-end", "1"])
    data = open(os.path.join(d, "k.h5"), "rb").read()
    for name in ("k.h5.%d.partial" % dead_pid(), "k.h5.partial.prev"):
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
    p = run(d, [sim("bouncing_ball"), "--out", "k.h5", "--t-end", "1"])
    check(p.returncode == 0 and "replacing the one kept there from a kill before it" in p.stderr,
          "a killed run's HDF5 file kept as k.h5.partial.prev over one kept before: said", p)


def case_findings(tmp):
    h5_temporary_link(tmp)
    compile_no_room(tmp)
    lock_hard_link(tmp)
    cont_short_write(tmp)
    stale_temporaries(tmp)
    prev_replaced(tmp)
    h5_fails_beside(tmp)
    lyap_unwritten(tmp)


# ---- kept -------------------------------------------------------------------

def jobs_failing(tmp):
    """Sweeps on two jobs where some points fail: exit 3, every point in
    summary.csv with its status, the failed ones named."""
    sec = ["--section", "period:2*pi/omega", "--transient", "2", "--record", "2"]
    for grid, nfail in (("k=1:1e30:3", 2), ("F=1:1e200:4", 3)):
        d = os.path.join(tmp, "jobs-" + grid.split("=")[0])
        p = run(tmp, [NSMC, "sweep", FIO, "--param", grid, "--jobs", "2", "--out-dir", d] + sec,
                timeout=300 * SLOW)
        rows = open(os.path.join(d, "summary.csv")).read().splitlines()[1:]
        failed = [r for r in rows if ",failed," in r]
        check(p.returncode == 3 and "some points failed (%d of %d)" % (nfail, len(rows)) in
              p.stderr and len(failed) == nfail and not [f for f in os.listdir(d) if
                                                         "partial" in f or ".tmp" in f],
              "nsmc sweep --param %s --jobs 2: exit 3, %d of %d failed, each in summary.csv, "
              "no partial file nor temporary" % (grid, nfail, len(rows)), p)
    p = run(tmp, [NSMC, "sweep", FIO, "--param", "omega=1:2:3", "--set", "omega=3",
                  "--out-dir", "setswept"] + sec, timeout=300 * SLOW)
    check(p.returncode == 1 and "also swept" in p.stderr and
          not os.path.exists(os.path.join(tmp, "setswept")),
          "--set of a swept parameter: refused before the out-dir is made", p)


def run_signals(tmp):
    """nsmc run stopped at seeded random moments: exit 128 + N (or killed),
    whole lines, no temporary."""
    rng = random.Random(11)
    sigs = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGKILL)
    p = run(tmp, [NSMC, "run", FIO, "--out-dir", "warm", "-q", "--no-plot", "--t-end", "1"],
            timeout=300 * SLOW)
    check(p.returncode == 0, "the model compiled", p)
    for k in range(4 if SANITIZED else 8):
        d = os.path.join(tmp, "rs%d" % k)
        sig, delay = sigs[k % 4], rng.uniform(0.1, 0.8) * SLOW
        pr = subprocess.Popen([NSMC, "run", FIO, "--out-dir", d, "-q", "--no-plot",
                               "--t-end", "3000", "--every", "0.001"], cwd=tmp, env=env_for(tmp),
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        time.sleep(delay)
        pr.send_signal(sig)
        err = pr.communicate(timeout=60)[1]
        files = sorted(os.listdir(d)) if os.path.isdir(d) else []
        rows = [whole_lines(os.path.join(d, f)) for f in files if f.endswith(".csv")]
        print("  %-8s after %.2f s: exit %d, %s rows" % (sig.name, delay, pr.returncode, rows))
        check(pr.returncode in (128 + sig, -sig) and len(rows) == 2 and rows[0] > 0 and
              not [f for f in files if ".tmp" in f or "partial" in f],
              "nsmc run stopped by %s: exit %d, whole lines, no temporary" % (sig.name, 128 + sig),
              subprocess.CompletedProcess([], pr.returncode, "", err))


def sweep_killed_writing(tmp):
    """A sweep killed with SIGKILL once its results' temporary exists, then
    run again into the folder: the partial files kept as .prev, the
    temporary removed."""
    d = os.path.join(tmp, "kw")
    cmd = [NSMC, "sweep", FIO, "--param", "omega=1:2:60", "--section", "period:2*pi/omega",
           "--transient", "2", "--record", "2000", "--out-dir", d]
    pr = subprocess.Popen(cmd, cwd=tmp, env=env_for(tmp), stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL)
    killed = None
    while pr.poll() is None and killed is None:
        names = os.listdir(d) if os.path.isdir(d) else []
        temps = [n for n in names if n.startswith(("section.csv.tmp", "summary.csv.tmp"))]
        if temps:
            killed = temps[0]
            os.kill(int(killed.split(".tmp")[1]), signal.SIGKILL)
        time.sleep(0.0005)
    pr.wait()
    print("  killed while writing %s: exit %d, left %s" % (killed, pr.returncode,
                                                            sorted(os.listdir(d))))
    p = run(tmp, STUDIES["sweep"](d), timeout=300 * SLOW)
    left = sorted(os.listdir(d))
    check(p.returncode == 0 and not [f for f in left if ".tmp" in f] and
          (killed is None or "section.csv.partial.prev" in left),
          "the next sweep into the folder: ran, the killed one's temporary removed, its "
          "partial files kept (%s)" % ("killed while writing" if killed else "it ended first"), p)


def case_kept(tmp):
    jobs_failing(tmp)
    run_signals(tmp)
    sweep_killed_writing(tmp)


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-eleventh-io-"))
