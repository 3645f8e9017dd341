#!/usr/bin/env python3
"""Fault injection on the simulators' HDF5 output (--out FILE.h5).

    tests/reliability/h5_reliability_test.py NSMC SIM SOURCE_DIR LIBS CC CASE

SIM is the generated two-mass simulator; LIBS the static libraries a
simulator links (colon-separated, HDF5's last), CC the C compiler, for the
case that builds a model of its own.  Each case runs in a fresh temporary
folder and checks, with h5py as the independent reader:
  keep      a file-size limit hit while replacing an existing file: exit 3,
            "File too large", no crash, the existing file byte for byte, no
            temporary left;
  open      a file in a missing folder: exit 1 with the system's reason;
  killed    a run killed with SIGKILL leaves FILE.h5.PID.partial readable up
            to its last flush (at most a second old), the existing file intact;
  stale     the next run into FILE.h5 keeps the newest FILE.h5.PID.partial of
            a killed run as FILE.h5.partial.prev, removes older ones, leaves
            one of a process still running, and says so for each;
  early_stop  SIGTERM while the outputs are opened, before the run: exit
            143 at once, no file that says the run complete;
  writers   two runs writing one file at once: the second is refused (exit 1,
            nothing written, as a second CSV writer is; both succeeded, the
            later rename winning), the file is the first's, whole;
  names     two gaps with 90-character names stay two names (events, the
            contact statistics, the model's contacts);
  upper     --out x.H5 writes HDF5, not CSV.
"""
import os
import signal
import subprocess
import sys
import time

import h5py

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import check, dead_pid, limit, main  # noqa: E402
from passlib import run as passlib_run  # noqa: E402

NSMC, SIM, SRC, LIBS, CC = sys.argv[1:6]
SIM, SRC, NSMC = os.path.abspath(SIM), os.path.abspath(SRC), os.path.abspath(NSMC)


def run(args, tmp, fsize=None):
    """passlib.run with this runner's argument order and a file-size limit."""
    return passlib_run(tmp, args, 300, limit(fsize) if fsize is not None else None)


def whole(path, samples):
    """The file reads back with h5py: the trajectory's samples times 0 to the
    end, the run's summary there."""
    with h5py.File(path, "r") as f:
        t = f["trajectory"][:, 0]
        return len(t) == samples and "run" in f and f["run"].attrs["status"] == 0


def case_keep(tmp):
    p = run([SIM, "--t-end", "2", "--out", "a.h5"], tmp)
    check(p.returncode == 0, "a first file", p)
    before = open(os.path.join(tmp, "a.h5"), "rb").read()
    p = run([SIM, "--t-end", "100", "--every", "1e-4", "--out", "a.h5"], tmp, fsize=200000)
    check(p.returncode == 3 and "cannot write 'a.h5': File too large" in p.stderr,
          "a 200000-byte file-size limit: exit 3, 'File too large' (no crash)", p)
    check(open(os.path.join(tmp, "a.h5"), "rb").read() == before,
          "the existing a.h5 is left byte for byte")
    check(sorted(os.listdir(tmp)) == ["a.h5"], "no temporary left: %s" % os.listdir(tmp))


def case_open(tmp):
    p = run([SIM, "--out", os.path.join(tmp, "no", "such", "x.h5")], tmp)
    check(p.returncode == 1 and "No such file or directory" in p.stderr,
          "a missing folder: exit 1, 'No such file or directory'", p)
    os.mkdir(os.path.join(tmp, "d.h5"))
    p = run([SIM, "--out", "d.h5"], tmp)
    check(p.returncode == 1 and "Is a directory" in p.stderr, "a folder: exit 1, 'Is a directory'", p)


def killed_writing(tmp):
    """A run writing k.h5 in tmp killed (SIGKILL) 2.5 s after its start: its
    process id and the path of the partial file it must leave, checked to be
    there."""
    q = subprocess.Popen([SIM, "--t-end", "1e4", "--every", "1e-4", "--out", "k.h5"], cwd=tmp,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(2.5)
    q.send_signal(signal.SIGKILL)
    q.wait()
    part = os.path.join(tmp, "k.h5.%d.partial" % q.pid)
    check(os.path.exists(part), "SIGKILL leaves %s" % os.path.basename(part))
    return q.pid, part


def case_killed(tmp):
    p = run([SIM, "--t-end", "2", "--out", "k.h5"], tmp)
    check(p.returncode == 0, "a first file", p)
    before = open(os.path.join(tmp, "k.h5"), "rb").read()
    _, part = killed_writing(tmp)
    with h5py.File(part, "r") as f:
        t = f["trajectory"][:, 0]
        n_ev = len(f["events"])
    check(len(t) > 4096 and (t[1:] > t[:-1]).all() and abs(t[1] - t[0] - 1e-4) < 1e-12,
          "the partial file reads back: %d samples to t = %.4g s, %d events" % (len(t), t[-1], n_ev))
    check(open(os.path.join(tmp, "k.h5"), "rb").read() == before, "the existing k.h5 intact")


def case_stale(tmp):
    pid, part = killed_writing(tmp)
    with h5py.File(part, "r") as f:
        n = len(f["trajectory"])
    old_pid = dead_pid()
    old = os.path.join(tmp, "k.h5.%d.partial" % old_pid)
    with open(part, "rb") as f, open(old, "wb") as g:
        g.write(f.read())
    t = time.time() - 100
    os.utime(old, (t, t))
    live = os.path.join(tmp, "k.h5.%d.partial" % os.getpid())     # a writer still running
    with open(live, "wb") as f:
        f.write(b"in progress")
    p = run([SIM, "--t-end", "1", "--out", "k.h5"], tmp)
    check(p.returncode == 0, "the next run into k.h5", p)
    check("'k.h5.%d.partial' was left by a run that was killed (process %d): kept as "
          "'k.h5.partial.prev'" % (pid, pid) in p.stderr.replace("./", ""),
          "it keeps the killed run's partial file as k.h5.partial.prev and says so", p)
    check("removed 'k.h5.%d.partial'" % old_pid in p.stderr.replace("./", ""),
          "it removes an older one and says so", p)
    check(not os.path.exists(part) and not os.path.exists(old), "neither is left as it was")
    with h5py.File(os.path.join(tmp, "k.h5.partial.prev"), "r") as f:
        check(len(f["trajectory"]) == n, "k.h5.partial.prev reads back: %d samples" % n)
    check(open(live, "rb").read() == b"in progress",
          "the partial file of a process still running is left alone")
    check(whole(os.path.join(tmp, "k.h5"), 101), "k.h5 is the new run's, whole")


def case_early_stop(tmp):
    """SIGTERM while the outputs are being opened, before the run begins
    (the simulator waiting for a reader of --events on a FIFO): exit 143
    within seconds, without a reader (the wait is not deaf to the signal),
    and no HDF5 file that says the run complete (it said 0): none at all,
    or one whose summary says stopped (status 8)."""
    fifo = os.path.join(tmp, "ev.fifo")
    os.mkfifo(fifo)
    q = subprocess.Popen([SIM, "--out", "e.h5", "--events", "ev.fifo", "--t-end", "5"], cwd=tmp,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    time.sleep(1.0)
    check(q.poll() is None, "the simulator waits for a reader of the FIFO")
    q.send_signal(signal.SIGTERM)
    try:
        _, err = q.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        q.kill()
        q.wait()
        check(False, "the simulator still waits for the FIFO 30 s after SIGTERM")
    check(q.returncode == 143 and "interrupted by SIGTERM" in err,
          "exit 143, interrupted by SIGTERM", q)
    h5 = os.path.join(tmp, "e.h5")
    if not os.path.exists(h5):
        return
    with h5py.File(h5, "r") as f:
        status, reached = f["run"].attrs["status"], f["run"].attrs["t_reached"]
    check(status == 8 and reached == 0, "e.h5's run summary: status %d (stopped is 8), t_reached "
          "%g" % (status, reached))


def case_writers(tmp):
    # the first writes for seconds (small steps, 100001 samples: several
    # seconds even on an idle machine); the second starts while it writes
    a = subprocess.Popen([SIM, "--dt", "1e-5", "--t-end", "100", "--every", "1e-3", "--out",
                          "two.h5"], cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         text=True)
    time.sleep(0.7)
    b = run([SIM, "--t-end", "1", "--out", "two.h5"], tmp)
    _, err = a.communicate(timeout=300)
    check(a.returncode == 0 and b.returncode == 1 and "it is in use by another running program"
          in b.stderr, "two writers of one file: the second refused, exit 1: %s %s"
          % (err.strip()[-200:], b.stderr.strip()[-200:]))
    check(whole(os.path.join(tmp, "two.h5"), 100001),
          "two.h5 is the first run's, whole: 100001 samples and the summary")
    check(sorted(os.listdir(tmp)) == ["two.h5"], "no temporary left: %s" % os.listdir(tmp))


def case_names(tmp):
    g1, g2 = "left_" + "a" * 85, "left_" + "a" * 84 + "b"
    model = os.path.join(tmp, "long.nsm")
    with open(model, "w") as f:
        f.write('model longnames "Two gaps with long names"\nmass B = 1 kg\n'
                'spring ground -- B, k = 1 N/m\n'
                'gap %s: B.x + 0.5 m >= 0, impact(e = 0.5)\n'
                'gap %s: 0.5 m - B.x >= 0, impact(e = 0.5)\n'
                'init B.x = 0 m, B.v = 2 m/s\nsimulate t_end = 3 s, dt = 1 ms, method = rk4\n'
                % (g1, g2))
    p = run([NSMC, model, "-o", "long.c"], tmp)
    check(p.returncode == 0, "the model compiles", p)
    libs = LIBS.split(":")
    # the sanitizer build's libraries need the sanitizers' run-time
    # libraries on the simulator's link line too
    san = ["-fsanitize=address,undefined"] if os.environ.get("NSM_SANITIZED") else []
    p = run([CC, "-O1"] + san + ["long.c", "-I", os.path.join(SRC, "runtime", "include")] + libs
            + ["-lm", "-lpthread", "-o", "long"], tmp)
    check(p.returncode == 0, "the simulator builds", p)
    p = run(["./long", "--out", "long.h5"], tmp)
    check(p.returncode == 0, "the run", p)
    with h5py.File(os.path.join(tmp, "long.h5"), "r") as f:
        ev = {c.decode() if isinstance(c, bytes) else c for c in f["events"]["contact"]}
        st = [c.decode() if isinstance(c, bytes) else c for c in f["run"]["contacts"]["contact"]]
        mc = [c.decode() if isinstance(c, bytes) else c for c in f["model"]["contacts"][:]]
    check(ev == {g1, g2}, "events name both 90-character gaps: %d names" % len(ev))
    check(st == [g1, g2] and mc == [g1, g2], "the statistics and the model's contacts too")


def case_upper(tmp):
    p = run([SIM, "--t-end", "1", "--out", "x.H5"], tmp)
    check(p.returncode == 0, "--out x.H5", p)
    check(open(os.path.join(tmp, "x.H5"), "rb").read(8) == b"\x89HDF\r\n\x1a\n", "x.H5 is HDF5")
    with h5py.File(os.path.join(tmp, "x.H5"), "r") as f:
        check(f["trajectory"].shape[0] > 1, "and reads back")


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}

if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-h5-rel-", 6))
