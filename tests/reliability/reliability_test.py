#!/usr/bin/env python3
"""Fault injection: nothing lost, nothing silent.

    tests/reliability/reliability_test.py NSMC SIM SOURCE_DIR CASE

SIM is the generated two-mass simulator.  Each case runs in a fresh
temporary folder (with its own simulator cache for `nsmc run`) and breaks
something on purpose: a full disk (/dev/full, RLIMIT_FSIZE), signals at
random moments, two runs into one folder, damaged cache entries, `-o` onto a
FIFO, a symlink or a device node, typos that would cost a disk or a hang.
It then checks that the failure is reported (exit status and the system's
reason) and that what was written is whole: every CSV line complete.
A case prints what it checked and exits 1 on the first failure.
"""
import os
import random
import resource
import signal
import stat
import subprocess
import sys
import tempfile
import time

NSMC = os.path.abspath(sys.argv[1])
SIM = os.path.abspath(sys.argv[2])
SRC = os.path.abspath(sys.argv[3])
TWO_MASS = os.path.join(SRC, "models", "two_mass.nsm")
# the columns of the two-mass trajectory and of every event log
TRAJ_COLS = 6
EVENT_COLS = 8


class Failure(Exception):
    pass


def check(cond, what, proc=None):
    """Fails the case with a message (and the process's output) unless cond."""
    if not cond:
        if proc is not None:
            what += "\n--- exit %r\n--- stdout:\n%s\n--- stderr:\n%s" % (
                proc.returncode, str(proc.stdout)[-3000:], str(proc.stderr)[-3000:])
        raise Failure(what)
    print("ok:", what.splitlines()[0])


def run(args, tmp, limit_fsize=None, env=None, timeout=300):
    """Runs a command in tmp; RLIMIT_FSIZE set to limit_fsize bytes if given."""
    def pre():
        if limit_fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_fsize, limit_fsize))
    e = dict(os.environ)
    e["XDG_CACHE_HOME"] = os.path.join(tmp, "cache")
    e.update(env or {})
    return subprocess.run(args, cwd=tmp, env=e, capture_output=True, text=True,
                          timeout=timeout, preexec_fn=pre)


def check_whole_csv(path, cols, what):
    """Every line of the CSV is complete: it ends with a newline, has cols
    fields, and (after the header) its numeric fields parse; times never
    decrease.  Returns the number of data rows."""
    data = open(path, "rb").read()
    check(data == b"" or data.endswith(b"\n"),
          "%s: the last line is whole (%d bytes, ends %r)" % (what, len(data), data[-40:]))
    lines = data.decode("utf-8").split("\n")[:-1]
    last_t = -1.0
    for i, line in enumerate(lines):
        fields = line.split(",")
        if len(fields) != cols:
            raise Failure("%s: line %d has %d fields, not %d: %r" % (what, i + 1, len(fields),
                                                                    cols, line[:200]))
        if i == 0:
            continue
        t = float(fields[0])
        for f in fields[1:] if cols == TRAJ_COLS else fields[3:]:
            float(f)
        if t < last_t:
            raise Failure("%s: line %d goes back in time" % (what, i + 1))
        last_t = t
    print("ok: %s: %d whole lines" % (what, len(lines)))
    return max(len(lines) - 1, 0)


# ---- the simulator ----------------------------------------------------------


def case_disk_full(tmp):
    """/dev/full and a file-size limit stop the run with exit 3 and the reason."""
    for opt in ("--out", "--events"):
        p = run([SIM, "--t-end", "10", "--every", "1e-4", opt, "/dev/full"], tmp)
        check(p.returncode == 3 and "cannot write '/dev/full': No space left on device"
              in p.stderr, "%s /dev/full: exit 3, 'No space left on device'" % opt, p)
        check(" events, " not in p.stderr, "%s /dev/full: no success summary" % opt, p)
    p = run([SIM, "--t-end", "10", "--stats", "/dev/full"], tmp)
    check(p.returncode == 3 and "No space left on device" in p.stderr,
          "--stats /dev/full: exit 3 with the reason", p)
    traj = os.path.join(tmp, "t.csv")
    p = run([SIM, "--t-end", "10", "--every", "1e-4", "--out", traj], tmp, limit_fsize=20000)
    check(p.returncode == 3 and "File too large" in p.stderr,
          "a 20000-byte file-size limit: exit 3, 'File too large'", p)
    rows = check_whole_csv(traj, TRAJ_COLS, "trajectory cut by the file-size limit")
    check(0 < rows < 100000, "the cut trajectory holds the lines written before the limit")
    # the event table on a full stdout
    with open("/dev/full", "w") as full:
        q = subprocess.run([SIM, "--t-end", "20"], stdout=full, stderr=subprocess.PIPE,
                           text=True, timeout=300)
    check(q.returncode == 3 and "standard output" in q.stderr and "No space" in q.stderr,
          "the event table on a full stdout: exit 3", q)


def case_open_error(tmp):
    """An output that cannot be opened: exit 1 and the system's reason."""
    p = run([SIM, "--out", os.path.join(tmp, "no", "such", "dir.csv")], tmp)
    check(p.returncode == 1 and "No such file or directory" in p.stderr,
          "--out into a missing folder: exit 1, 'No such file or directory'", p)
    p = run([SIM, "--events", tmp], tmp)
    check(p.returncode == 1 and "Is a directory" in p.stderr,
          "--events onto a folder: exit 1, 'Is a directory'", p)


def signal_at_random(tmp, rng, sig, k):
    """Starts a long run, signals it after a random delay, checks the files."""
    traj = os.path.join(tmp, "traj%d.csv" % k)
    ev = os.path.join(tmp, "ev%d.csv" % k)
    proc = subprocess.Popen([SIM, "--t-end", "5e4", "--every", "1e-3", "--out", traj,
                             "--events", ev], cwd=tmp, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    time.sleep(rng.uniform(0.02, 0.6))
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=120)
    name = "SIGINT" if sig == signal.SIGINT else "SIGTERM"
    proc.stderr = err
    check(proc.returncode == 128 + sig and ("interrupted by %s" % name) in err,
          "%s at a random moment (run %d): exit %d and a note" % (name, k, 128 + sig), proc)
    check_whole_csv(traj, TRAJ_COLS, "trajectory after %s (run %d)" % (name, k))
    check_whole_csv(ev, EVENT_COLS, "events after %s (run %d)" % (name, k))


def case_signals(tmp):
    """SIGINT and SIGTERM at random moments leave whole lines, exit 130/143."""
    rng = random.Random(20261124)
    for k in range(8):
        signal_at_random(tmp, rng, signal.SIGINT if k % 2 == 0 else signal.SIGTERM, k)


def case_every_limit(tmp):
    """--every that would write without end is an error with the estimate."""
    p = run([SIM, "--every", "1e-300", "--out", os.path.join(tmp, "t.csv")], tmp, timeout=60)
    check(p.returncode == 1 and "time resolution" in p.stderr and "2e+301 samples" in p.stderr,
          "--every 1e-300: exit 1, below the time resolution, about 2e+301 samples", p)
    check(not os.path.exists(os.path.join(tmp, "t.csv")), "--every 1e-300 writes no file")
    p = run([SIM, "--every", "1e-7", "--t-end", "20"], tmp, timeout=60)
    check(p.returncode == 1 and "2e+08 samples" in p.stderr,
          "--every 1e-7 over 20 s: exit 1, about 2e+08 samples (limit 1e+08)", p)
    p = run([SIM, "--every", "1e-3", "--t-end", "1"], tmp)
    check(p.returncode == 0, "--every 1e-3 over 1 s runs", p)


def case_set_file_limits(tmp):
    """--set-file reads only regular files of bounded size, never hangs."""
    p = run([SIM, "--set-file", "/dev/zero"], tmp, timeout=60)
    check(p.returncode == 1 and "not a regular file" in p.stderr,
          "--set-file /dev/zero: exit 1, not a regular file", p)
    fifo = os.path.join(tmp, "fifo")
    os.mkfifo(fifo)
    p = run([SIM, "--set-file", fifo], tmp, timeout=60)
    check(p.returncode == 1 and "not a regular file" in p.stderr,
          "--set-file on a FIFO nobody writes: exit 1", p)
    big = os.path.join(tmp, "big.set")
    with open(big, "w") as f:
        f.write("# padding\n" * 200000)
    p = run([SIM, "--set-file", big], tmp, timeout=60)
    check(p.returncode == 1 and "more than" in p.stderr, "a 2 MB --set-file: exit 1", p)
    nul = os.path.join(tmp, "nul.set")
    with open(nul, "wb") as f:
        f.write(b"e = 0.5\x00junk\n")
    p = run([SIM, "--set-file", nul], tmp, timeout=60)
    check(p.returncode == 1 and "NUL" in p.stderr, "a --set-file with a NUL byte: exit 1", p)
    p = run([NSMC, "run", TWO_MASS, "--no-plot", "--set-file", "/dev/zero"], tmp, timeout=60)
    check(p.returncode == 1 and "not a regular file" in p.stderr,
          "nsmc run --set-file /dev/zero: exit 1", p)


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


def main():
    case = sys.argv[4]
    with tempfile.TemporaryDirectory(prefix="nsm-rel-") as tmp:
        try:
            CASES[case](tmp)
        except Failure as e:
            print("FAIL:", e)
            return 1
    print("%s: all checks passed" % case)
    return 0


if __name__ == "__main__":
    sys.exit(main())
