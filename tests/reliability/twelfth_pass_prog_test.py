#!/usr/bin/env python3
"""A twelfth hostile pass over the programs and the Python package together
(issue #29): `nsmc run`, `nsmc sweep` and `nsmc continue` against the same
model through Python, the sweep's option parsing, and a simulator whose
outputs are FIFOs without a reader, stopped by a signal.

    tests/reliability/twelfth_pass_prog_test.py NSMC SIM SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  findings   what the pass found, each failing before its fix: `nsmc sweep
             ... --no-plot` (an unknown option given last) said "option
             --no-plot needs a value"; a simulator whose --out, --events,
             --stats or --section-out is a FIFO without a reader stayed deaf
             to SIGINT, SIGTERM and SIGHUP for ever (its blocking open()
             restarted after the handler): it now exits 128 + N, says so,
             and leaves nothing it created.
  same       inputs that found nothing, kept: one model through the command
             line and through Python gives the same numbers: `nsmc run`'s
             trajectory and events against `Model.run` (rk4, exact,
             adaptive; the CSV's 12 digits), `nsmc sweep`'s section.csv
             against `Model.sweep` and `nsmc continue`'s branch.csv against
             `Model.continuation` bit for bit (17 digits), a sweep on two
             jobs as on one; a continuation stopped by SIGTERM keeps the
             uninterrupted one's first points and, run again, gives its
             result; a FIFO with a reader gets the file's bytes.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import os
import signal
import stat
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import SANITIZED, check, main, python_script, run  # noqa: E402

NSMC, SIM = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
SRC = os.path.abspath(sys.argv[3])
FIO = os.path.join(SRC, "models", "forced_impact_oscillator.nsm")
SWEEP = ["--param", "omega=2:3:5", "--section", "period:2*pi/omega", "--transient", "20",
         "--record", "5"]
CONT = ["--param", "omega=2.5:2.6", "--max-points", "3", "--transient", "20"]
WAIT = 15 if SANITIZED else 5


# ---- findings ---------------------------------------------------------------

def unknown_last(tmp):
    """An unknown option given last is called unknown; a known one without
    its value still needs a value."""
    for opt, says in (("--no-plot", "unknown option '--no-plot'"), ("-q", "unknown option '-q'"),
                      ("--bogus", "unknown option '--bogus'"),
                      ("--jobs", "option --jobs needs a value"),
                      ("--set", "option --set needs a value"),
                      ("--basin-pilot", "option --basin-pilot needs a value")):
        p = run(tmp, [NSMC, "sweep", FIO] + SWEEP + ["--out-dir", "sw", opt])
        print("  sweep ... %-16s -> %d  %s" % (opt, p.returncode, p.stderr.strip()[-80:]))
        check(p.returncode == 1 and says in p.stderr and not os.path.exists(
            os.path.join(tmp, "sw")), "nsmc sweep ... %s: exit 1, '%s', no out-dir" % (opt, says), p)


def fifo_stop(tmp):
    """Each CSV output of a simulator as a FIFO without a reader, then each
    stop signal: exit 128 + N within WAIT s, 'interrupted by', and the
    trajectory file this run created removed."""
    fifo = os.path.join(tmp, "ff")
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        for opt in ("--out", "--events", "--stats", "--section-out"):
            if os.path.exists(fifo):
                os.unlink(fifo)
            os.mkfifo(fifo)
            extra = ["--section", "impact:floor"] if opt == "--section-out" else []
            first = [] if opt == "--out" else ["--out", "a.csv"]
            p = subprocess.Popen([SIM] + first + [opt, "ff", "--t-end", "2"] + extra, cwd=tmp,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            time.sleep(0.3)
            p.send_signal(sig)
            try:
                err = p.communicate(timeout=WAIT)[1]
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
                check(False, "%s ff, %s: still running %d s after it" % (opt, sig.name, WAIT))
            print("  %-14s %s -> %d  %s" % (opt, sig.name, p.returncode, err.strip()[-70:]))
            check(p.returncode == 128 + sig and "interrupted by %s" % sig.name in err and
                  "FIFO 'ff'" in err and not os.path.exists(os.path.join(tmp, "a.csv")),
                  "%s onto a FIFO without a reader, %s: exit %d, said, a.csv not left"
                  % (opt, sig.name, 128 + sig))


def fifo_partial(tmp):
    """A FIFO planted as a sweep's section.csv.partial: kept as .prev with a
    note, as a continuation keeps one, and the sweep runs (it waited in the
    FIFO's open() for a writer, deaf to a single SIGTERM)."""
    folder = os.path.join(tmp, "sf")
    os.mkdir(folder)
    os.mkfifo(os.path.join(folder, "section.csv.partial"))
    p = subprocess.Popen([NSMC, "sweep", FIO, "--param", "omega=2:3:3", "--section",
                          "period:2*pi/omega", "--transient", "5", "--record", "2",
                          "--out-dir", "sf"], cwd=tmp, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True)
    try:
        err = p.communicate(timeout=4 * WAIT)[1]
    except subprocess.TimeoutExpired:
        p.send_signal(signal.SIGTERM)
        try:
            p.communicate(timeout=WAIT)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
        check(False, "a FIFO as section.csv.partial: the sweep still waits %d s on" % (4 * WAIT))
    prev = os.path.join(folder, "section.csv.partial.prev")
    print("  FIFO as section.csv.partial -> %d  %s" % (p.returncode, err.strip()[-70:]))
    check(p.returncode == 0 and os.path.exists(os.path.join(folder, "section.csv")) and
          os.path.exists(prev) and stat.S_ISFIFO(os.lstat(prev).st_mode) and "kept as" in err,
          "a FIFO as section.csv.partial: kept as .prev with a note, the sweep's results whole")


def findings(tmp):
    unknown_last(tmp)
    fifo_stop(tmp)
    fifo_partial(tmp)


# ---- inputs that found nothing ----------------------------------------------

SAME = r'''
import csv, sys
import numpy as np
import nsm

def table(path):
    rows = list(csv.reader(open(path)))
    return np.array([[float(x) for x in r] for r in rows[1:]]) if len(rows) > 1 else None

m = nsm.compile(sys.argv[1])
for method in ("rk4", "exact", "adaptive"):
    r = m.run(t_end=7, params={"omega": 2.7}, method=method)
    tr = table("run-%s/trajectory.csv" % method)
    et = [float(row[0]) for row in list(csv.reader(open("run-%s/events.csv" % method)))[1:]]
    dx = np.max(np.abs(tr[:, 1] - r.x[:, 0]))
    dv = np.max(np.abs(tr[:, 2] - r.v[:, 0]))
    de = np.max(np.abs(np.array(et) - np.asarray(r.events["t"])))
    print("  run %-8s rows %d/%d, events %d/%d, |dx| %.1e |dv| %.1e |dt_event| %.1e"
          % (method, tr.shape[0], len(r.t), len(et), len(r.events["t"]), dx, dv, de))
    assert tr.shape[0] == len(r.t) and len(et) == len(r.events["t"]) and len(et) >= 3
    assert np.max(np.abs(tr[:, 0] - r.t)) <= 1e-11 and dx <= 1e-11 and dv <= 1e-11
    assert de <= 1e-15

values, states = m.sweep("omega", np.linspace(2, 3, 5), "period:2*pi/omega", transient=20,
                         record=5)
sec = table("sw1/section.csv")
py = np.column_stack([np.asarray(values), np.asarray(states)])
print("  sweep: %d records, bit for bit: %s" % (len(sec), np.array_equal(py, sec)))
assert sec.shape == py.shape and np.array_equal(py, sec)

b = m.continuation("omega", 2.5, 2.6, max_points=3, transient=20)
rows = list(csv.reader(open("c1/branch.csv")))[1:]
cli = np.array([[float(x) for x in r[:1] + r[3:6]] for r in rows])
py = np.column_stack([b.param, np.asarray(b.y)[:, :2], b.period])
print("  continuation: %d points, bit for bit: %s" % (len(cli), np.array_equal(py, cli)))
assert cli.shape == py.shape and np.array_equal(py, cli)
'''


def resumed(tmp):
    """A continuation stopped by SIGTERM keeps a prefix of the uninterrupted
    one's points, bit for bit, and the next one into the folder gives the
    uninterrupted result."""
    def cmd(d):
        return [NSMC, "continue", FIO, "--param", "omega=2.5:3.5", "--max-points", "400", "--ds",
                "0.001", "--ds-max", "0.002", "--transient", "20", "--out-dir", d, "--no-plot",
                "-q"]
    p = run(tmp, cmd("cfull"))
    check(p.returncode == 0, "a continuation of 400 points: exit 0", p)
    with open(os.path.join(tmp, "cfull", "branch.csv")) as f:
        full = f.read().splitlines()
    p = subprocess.Popen(cmd("cstop"), cwd=tmp, stderr=subprocess.PIPE, text=True)
    part = os.path.join(tmp, "cstop", "branch.csv.partial")
    t0 = time.monotonic()
    while p.poll() is None and not os.path.exists(part) and time.monotonic() - t0 < 30:
        time.sleep(0.005)
    time.sleep(0.1)
    p.send_signal(signal.SIGTERM)
    err = p.communicate(timeout=60)[1]
    kept = open(part).read().splitlines() if os.path.exists(part) else []
    print("  continuation stopped 0.1 s into its points: exit %d, %d points kept of %d"
          % (p.returncode, len(kept) - 1, len(full) - 1))
    check(p.returncode == 0 or (p.returncode == 143 and "interrupted by SIGTERM" in err and
                                kept == full[:len(kept)]),
          "a stopped continuation's points are the uninterrupted one's first, bit for bit")
    p = run(tmp, cmd("cstop"))
    with open(os.path.join(tmp, "cstop", "branch.csv")) as f:
        check(p.returncode == 0 and f.read().splitlines() == full,
              "the continuation run again after the stop gives the uninterrupted result", p)


def same(tmp):
    """The command line's numbers against Python's, and a FIFO with a
    reader."""
    for method in ("rk4", "exact", "adaptive"):
        p = run(tmp, [NSMC, "run", FIO, "--out-dir", "run-" + method, "--no-plot", "-q",
                      "--t-end", "7", "--set", "omega=2.7", "--method", method])
        check(p.returncode == 0, "nsmc run --method %s: exit 0" % method, p)
    for d, jobs in (("sw1", "1"), ("sw2", "2")):
        p = run(tmp, [NSMC, "sweep", FIO] + SWEEP + ["--out-dir", d, "--jobs", jobs])
        check(p.returncode == 0, "nsmc sweep --jobs %s: exit 0" % jobs, p)
    with open(os.path.join(tmp, "sw1", "section.csv"), "rb") as a, \
            open(os.path.join(tmp, "sw2", "section.csv"), "rb") as b:
        check(a.read() == b.read(), "a sweep on two jobs writes the section of one, byte for byte")
    p = run(tmp, [NSMC, "continue", FIO] + CONT + ["--out-dir", "c1", "--no-plot", "-q"])
    check(p.returncode == 0, "nsmc continue: exit 0", p)
    python_script(tmp, "same.py", SAME, [FIO], "the same numbers through Python")
    resumed(tmp)
    fifo = os.path.join(tmp, "ff")
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", fifo], stdout=subprocess.PIPE)
    p = run(tmp, [SIM, "--out", "ff", "--t-end", "2"])
    got = reader.communicate(timeout=WAIT)[0]
    p2 = run(tmp, [SIM, "--out", "f.csv", "--t-end", "2"])
    with open(os.path.join(tmp, "f.csv"), "rb") as f:
        check(p.returncode == 0 and p2.returncode == 0 and got == f.read() and got,
              "a FIFO with a reader gets the bytes of the file (%d)" % len(got))


if __name__ == "__main__":
    sys.exit(main({"findings": findings, "same": same}, "nsm-twelfth-prog-", case_arg=4))
