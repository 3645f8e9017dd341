#!/usr/bin/env python3
"""The twenty-sixth hostile pass on the generated simulators' command line
and outputs and on the Python package (issue #29, docs/fuzzing.md).

    tests/reliability/twentysixth_pass_py_test.py NSMC SIM FIO_SIM SOURCE_DIR CASE

SIM is the bouncing ball's simulator (models/bouncing_ball.nsm: m = 1 kg,
g = 9.81 m/s^2, e = 0.9, dropped from h = 1 m), FIO_SIM the forced impact
oscillator's (models/forced_impact_oscillator.nsm).

Cases (each under 20 s in the normal build):
  devstdout   an output named /dev/stdout, /dev/fd/1, /proc/self/fd/1 or
              the very file stdout was sent to (`sim --out /dev/stdout >
              f.csv`, --events, --stats, --section-out, --lyapunov-out)
              was not taken as stdout: the event table and --summary's
              audit were printed through the shell's descriptor from offset
              0, over the CSV's first bytes (the trajectory's header and rows
              gone, exit 0).  Now such an output takes stdout as `-` does:
              the file holds the CSV alone, byte for byte what the same run
              writes to a named file (the free fall and the rebound by
              hand), the audit on stderr.
  devpipe     --out /dev/stdout (/dev/fd/1, /proc/self/fd/1; --events,
              --lyapunov-out) with stdout a pipe was refused as "a symbolic
              link to a missing file" (the link leads to "pipe:[N]", which
              has no path but is open): now written as `-` is, the bytes of
              the named file.
  devstderr   --out /dev/stderr 2> f.csv (or --out f.csv 2> f.csv, every
              output) wrote the run's report line over the CSV's first
              bytes, exit 0.  Now refused, exit 1, naming the option, the
              file left as the shell made it; `--out - > f 2>&1` (one
              descriptor) still writes the CSV whole and the report after.
  comma       a Python program that had set a decimal comma (de_DE, built
              into LOCPATH): params={'g': '2.5'} was refused ("unknown unit
              '.5'": --set's reader, strtod, stopped at the point).  Now read
              in the C locale's numbers: the bits of params={'g': 2.5} and of
              the simulator's --set g=2.5, with units too; '2,5' refused.
  stalled     a reader that takes nothing (a FIFO's reader asleep, `sim
              --out - | less` at rest): the write waiting for it was
              restarted after the stop handler, and SIGTERM, SIGINT or
              SIGHUP went unanswered until the reader read or left (then
              exit 3, "Broken pipe", for a stop asked for long before).
              Now a stop is answered once the reader has taken nothing for
              half a second: exit 128 + N, a note that the output ends
              earlier, and what the reader got is whole lines, the free
              fall by hand; a slow reader still reading at the stop gets
              every row up to it, one that reads at last every row, exit 0.
  stalledtable the event table printed on stdout (no --events) to a pipe nobody
              reads, the forced impact oscillator impacting 0.4 times a
              second over 1e5 s: printf waited as the sinks did, deaf to
              SIGTERM.  Now exit 143 within a second, the table's lines
              whole (each row's instant after the one before), a note; the
              same table to a pipe read at once as to a file, byte for byte.
  writefail   --out /dev/full over a run shorter than the writes' interval
              said "the run stopped at t = 100 s" (its end): now "ended".
              A spectrum not written beside --lyapunov-out /dev/full (or
              /dev/null) said "the file there is an earlier run's": now
              only for a regular file.  --lyapunov-transient 1e300 was
              named 1.0000000000000001e+300 in its refusal: now as given.
Kept as regression checks of what held:
  kept_grid   t_end at the landing time sqrt(2h/g) and one ulp on either
              side, and 1 s, with periods t_end/k and two ulps either side
              (k = 1, 3, 7), under rk4, exact and adaptive: the CSV, the
              HDF5 file and Python's run agree, times strictly increasing,
              the last row at t_end with the ball's state there by hand.
  kept_pyargs Python's bad arguments of sweeps, basins, continuations,
              Lyapunov, Floquet, sections and run() (texts that underflow,
              hex floats, locale commas, NaN, empty, wrong types): each an
              nsm.Error subclass with a message naming the argument.
  kept_h5temp a second simulator naming a running HDF5 writer's temporary
              (w.h5.PID.partial) as --out, --stats or --lyapunov-out is
              refused; the first's file, stopped by SIGTERM, opens with
              h5py, the free fall by hand.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import check, main, run  # noqa: E402

NSMC, SIM, FIO_SIM = (os.path.abspath(a) for a in sys.argv[1:4])
SRC = os.path.abspath(sys.argv[4])
BALL = os.path.join(SRC, "models", "bouncing_ball.nsm")
FIO = os.path.join(SRC, "models", "forced_impact_oscillator.nsm")
G, H, E = 9.81, 1.0, 0.9


def ball_at(t):
    """(x, v) of the bouncing ball at t, before its second landing, by hand:
    the fall x = h - g t^2/2, the landing at t0 = sqrt(2 h/g), then the
    rebound at e sqrt(2 g h)."""
    t0 = math.sqrt(2 * H / G)
    if t <= t0:
        return H - G * t * t / 2, -G * t
    s, v0 = t - t0, E * math.sqrt(2 * G * H)
    return v0 * s - G * s * s / 2, v0 - G * s


def csv_rows(text):
    """The data rows of a CSV text (its header left out), as float lists."""
    return [[float(x) for x in line.split(",")] for line in text.splitlines()[1:]]


def run_to(tmp, cmd, path):
    """Runs cmd in tmp with stdout sent to the file path (truncated first,
    as a shell's `>`); (exit status, stderr, the file's text)."""
    with open(path, "w") as out:
        p = subprocess.run(cmd, cwd=tmp, stdout=out, stderr=subprocess.PIPE, text=True,
                           timeout=60)
    with open(path) as f:
        return p.returncode, p.stderr, f.read()


# ---- devstdout ------------------------------------------------------------

def case_devstdout(tmp):
    """An output that is stdout's file by another name takes stdout as '-'."""
    base = [SIM, "--t-end", "1", "--every", "0.25"]
    named = {}
    for opt, extra in (("--out", []), ("--events", []), ("--stats", []),
                       ("--section-out", ["--section", "period:0.25"]),
                       ("--lyapunov-out", ["--lyapunov", "--lyapunov-interval", "0.25"])):
        p = run(tmp, base + extra + [opt, "named.csv"])
        check(p.returncode == 0, "%s named.csv runs" % opt, p)
        with open(os.path.join(tmp, "named.csv")) as f:
            named[opt] = (extra, f.read())
    # the trajectory's rows by hand (rk4's 1 ms steps land on the impact)
    rows = csv_rows(named["--out"][1])
    for r in rows:
        x, v = ball_at(r[0])
        check(abs(r[1] - x) < 1e-9 and abs(r[2] - v) < 1e-9,
              "the named file's row at t = %g s: x = %.9g, v = %.9g by hand" % (r[0], x, v))
    n = 0
    for opt, (extra, want) in named.items():
        for name in ("/dev/stdout", "/dev/fd/1", "/proc/self/fd/1", "SAME"):
            for summary in ([], ["--summary"]):
                n += 1
                path = os.path.join(tmp, "o%d.csv" % n)
                cmd = base + extra + [opt, path if name == "SAME" else name] + summary
                rc, err, text = run_to(tmp, cmd, path)
                shown = name if name != "SAME" else "the file stdout goes to"
                print("  %-15s %-24s %-10s > file -> exit %d, %d bytes, %d lines (the named "
                      "file's: %d bytes)" % (opt, shown, " ".join(summary), rc, len(text),
                                              len(text.splitlines()), len(want)))
                check(rc == 0 and text == want,
                      "%s %s%s > file: the file holds the CSV alone, byte for byte the named "
                      "file's" % (opt, shown, " --summary" if summary else ""))
                if summary:
                    check("energy audit at t = 1 s" in err and "lost in impacts" in err,
                          "the audit on stderr")
    # stdout free: the audit and the event table still on stdout
    rc, err, text = run_to(tmp, base + ["--out", "free.csv", "--summary"],
                           os.path.join(tmp, "stdout.txt"))
    print("  --out free.csv --summary > stdout.txt -> exit %d, audit on stdout %s, table %s"
          % (rc, "energy audit" in text, "impact" in text))
    check(rc == 0 and "energy audit at t = 1 s" in text and "impact         floor" in text,
          "with stdout free the table and the audit are printed there as before")


# ---- devpipe --------------------------------------------------------------

def case_devpipe(tmp):
    """/dev/stdout onto a pipe is written as '-' is."""
    base = [SIM, "--t-end", "1", "--every", "0.25"]
    for opt, extra in (("--out", []), ("--events", []),
                       ("--lyapunov-out", ["--lyapunov", "--lyapunov-interval", "0.25"])):
        p = run(tmp, base + extra + [opt, "named.csv"])
        with open(os.path.join(tmp, "named.csv")) as f:
            want = f.read()
        for name in ("/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"):
            q = run(tmp, base + extra + [opt, name])      # stdout a pipe
            print("  %-15s %-16s | reader -> exit %d, %d bytes: %s"
                  % (opt, name, q.returncode, len(q.stdout), q.stderr.strip()[:120]))
            check(q.returncode == 0 and q.stdout == want,
                  "%s %s onto a pipe: the named file's bytes" % (opt, name), q)
    rows = csv_rows(run(tmp, base + ["--out", "/dev/stdout"]).stdout)
    for r in rows:
        x, v = ball_at(r[0])
        check(abs(r[1] - x) < 1e-9 and abs(r[2] - v) < 1e-9,
              "row at t = %g s: the ball by hand" % r[0])


# ---- devstderr ------------------------------------------------------------

def case_devstderr(tmp):
    """An output that is the file stderr goes to is refused."""
    base = [SIM, "--t-end", "1", "--every", "0.25"]
    n = 0
    for opt, extra in (("--out", []), ("--out", ["--out", "x.h5"]), ("--events", []),
                       ("--stats", []), ("--section-out", ["--section", "period:0.25"]),
                       ("--lyapunov-out", ["--lyapunov"])):
        for name in ("/dev/stderr", "/dev/fd/2", "SAME"):
            n += 1
            path = os.path.join(tmp, "e%d.csv" % n)
            with open(path, "w") as err:
                p = subprocess.run(base + extra + [opt, path if name == "SAME" else name],
                                   cwd=tmp, stdout=subprocess.DEVNULL, stderr=err, timeout=60)
            with open(path) as f:
                text = f.read()
            print("  %-15s %-12s 2> file -> exit %d: %s" % (opt, name, p.returncode,
                                                            text.strip()[:150]))
            check(p.returncode == 1 and "names the file standard error goes to" in text and
                  opt in text and "t [s]" not in text and "kind,contact" not in text,
                  "%s %s onto stderr's file: refused, exit 1, naming the option" % (opt, name))
    # one descriptor for both (2>&1): the CSV whole, the report after it
    path = os.path.join(tmp, "both.csv")
    with open(path, "w") as f:
        p = subprocess.run(base + ["--out", "-"], cwd=tmp, stdout=f, stderr=subprocess.STDOUT)
    lines = open(path).read().splitlines()
    print("  --out - > f 2>&1 -> exit %d, %d lines, the last %r" % (p.returncode, len(lines),
                                                                    lines[-1][:60]))
    check(p.returncode == 0 and len(lines) == 7 and lines[0].startswith("t [s]") and
          lines[-1].startswith(os.path.basename(SIM) + ": 1 event"),
          "--out - > f 2>&1: the header, five rows, then the report")


# ---- comma ----------------------------------------------------------------

COMMA = r'''
import locale, sys
import nsm
m = nsm.compile(sys.argv[1])
ref = m.run(t_end=0.5, every=0.125, params={"g": 2.5})
locale.setlocale(locale.LC_ALL, "de_DE.UTF-8")
print("  the decimal point now %r" % locale.localeconv()["decimal_point"])
bad = 0
for v in ("2.5", "2.5 ", " 2.5e0", "250 cm/s^2", "0.0025 km/s^2", b"2.5", "2.5 N/kg"):
    try:
        r = m.run(t_end=0.5, every=0.125, params={"g": v})
        same = list(r["B.x"]) == list(ref["B.x"]) and list(r.t) == list(ref.t)
        print("  params g=%-16r -> x(t) %s" % (v, "the bits of g = 2.5" if same else
                                                 "DIFFERENT: %s" % list(r["B.x"])))
        bad += not same
    except nsm.Error as e:
        print("  params g=%-16r -> %s: %s" % (v, type(e).__name__, e))
        bad += 1
try:
    m.run(t_end=0.5, params={"g": "2,5"})
    print("  params g='2,5' -> ran")
    bad += 1
except nsm.ParameterError as e:
    print("  params g='2,5' -> ParameterError: %s" % e)
print("  x(0.5 s) = %r" % float(ref["B.x"][-1]))
sys.exit(1 if bad else 0)
'''


def case_comma(tmp):
    """params= texts read in the C locale's numbers under a decimal comma."""
    loc = os.path.join(tmp, "locales")
    os.makedirs(loc)
    p = subprocess.run(["localedef", "-i", "de_DE", "-f", "UTF-8",
                        os.path.join(loc, "de_DE.UTF-8")], capture_output=True, text=True)
    check(os.path.isdir(os.path.join(loc, "de_DE.UTF-8")),
          "a de_DE locale built with localedef (%s)" % p.stderr.strip()[:80])
    script = os.path.join(tmp, "comma.py")
    with open(script, "w") as f:
        f.write(COMMA)
    p = run(tmp, [sys.executable, script, BALL], timeout=300, env={"LOCPATH": loc})
    print(p.stdout.rstrip())
    check(p.returncode == 0, "under a decimal comma every text of g = 2.5 gives its bits, "
          "'2,5' is refused", p)
    # the same bits as the simulator's --set, and x(0.5) = h - g t^2/2 by hand
    q = run(tmp, [SIM, "--t-end", "0.5", "--every", "0.125", "--set", "g=2.5", "--out", "-"])
    rows = csv_rows(q.stdout)
    print("  sim --set g=2.5: x(0.5 s) = %r (by hand %r)" % (rows[-1][1], H - 2.5 * 0.125))
    py = float(p.stdout.split("x(0.5 s) = ")[1].split()[0])
    check(q.returncode == 0 and abs(py - rows[-1][1]) < 1e-11 and
          abs(py - (H - 2.5 * 0.125)) < 1e-12,
          "Python's run holds the simulator's value, x = h - g t^2/2 by hand")


# ---- stalled --------------------------------------------------------------

def whole_rows(data):
    """The rows of CSV bytes read from a pipe, checked to be whole lines."""
    text = data.decode()
    check(text == "" or text.endswith("\n"), "the reader got whole lines (%d bytes)" % len(text))
    return csv_rows(text)


def fall_checked(rows):
    """Checks rows (t, x, v, ...) before the landing against the free fall."""
    t0 = math.sqrt(2 * H / G)
    fall = [r for r in rows if r[0] < t0]
    err = max([abs(r[1] - (H - G * r[0] ** 2 / 2)) for r in fall] or [0])
    check(len(rows) > 0 and err < 1e-9, "%d rows to t = %g s, the fall by hand (largest error "
          "%.2g m)" % (len(rows), rows[-1][0] if rows else 0, err))


def read_all(fd):
    """Everything waiting in the non-blocking read end fd."""
    out = b""
    while True:
        try:
            b = os.read(fd, 65536)
        except BlockingIOError:
            return out
        if not b:
            return out
        out += b


def case_stalled(tmp):
    """A stop signal is answered while the output's reader takes nothing."""
    import random
    import signal
    import time
    rnd = random.Random(26)
    long_run = [SIM, "--t-end", "1e5", "--every", "1e-3"]
    for k, sig in enumerate((signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGTERM)):
        fifo = os.path.join(tmp, "f%d" % k)
        os.mkfifo(fifo)
        rd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)     # a reader that reads nothing
        try:
            pr = subprocess.Popen(long_run + ["--out", fifo], cwd=tmp, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE)
            delay = rnd.uniform(0.5, 1.2)
            time.sleep(delay)
            pr.send_signal(sig)
            try:
                err = pr.communicate(timeout=5)[1].decode()
            except subprocess.TimeoutExpired:
                pr.kill()
                pr.communicate()
                err = "still running 5 s after the signal"
            data = read_all(rd)
        finally:
            os.close(rd)
        print("  --out FIFO (reader asleep), %s after %.2f s -> exit %r: %s"
              % (signal.Signals(sig).name, delay, pr.returncode, err.strip()[:200]))
        check(pr.returncode == 128 + sig and "interrupted by %s" % signal.Signals(sig).name in err
              and "ends earlier" in err, "the stop answered: exit %d, the output said to end "
              "earlier" % (128 + sig))
        fall_checked(whole_rows(data))
    # stdout a pipe nobody reads
    pr = subprocess.Popen(long_run + ["--out", "-"], cwd=tmp, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE)
    time.sleep(0.8)
    pr.send_signal(signal.SIGTERM)
    t0 = time.monotonic()
    while pr.poll() is None and time.monotonic() - t0 < 5:
        time.sleep(0.05)
    ended = pr.poll() is not None
    if not ended:
        pr.kill()
    out, err = pr.communicate()
    print("  --out - (a pipe nobody reads), SIGTERM -> %s, exit %r: %s"
          % ("ended" if ended else "still running after 5 s", pr.returncode,
             err.decode().strip()[:200]))
    check(ended and pr.returncode == 128 + signal.SIGTERM, "the stop answered with stdout stalled")
    fall_checked(whole_rows(out))
    # a slow reader still reading when the stop comes: every row to the stop
    import re
    for k, sig in enumerate((signal.SIGINT, signal.SIGTERM, signal.SIGHUP)):
        pr = subprocess.Popen(long_run + ["--out", "-"], cwd=tmp, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE)
        data, t0, when, sent = b"", time.monotonic(), rnd.uniform(0.2, 1.0), False
        while True:
            if not sent and time.monotonic() - t0 > when:
                pr.send_signal(sig)
                sent = True
            b = os.read(pr.stdout.fileno(), 4096)
            if not b:
                break
            data += b
            time.sleep(rnd.choice((0, 0.001, 0.01)))
        pr.wait()
        err = pr.stderr.read().decode()
        rows = whole_rows(data)
        stop = re.search(r"interrupted by \w+ at t = ([0-9.e+-]+) s", err)
        want = round(float(stop.group(1)) / 1e-3) + 1 if stop else -1
        print("  --out - to a slow reader, %s after %.2f s -> exit %r, %d rows (to the stop: %d)"
              % (signal.Signals(sig).name, when, pr.returncode, len(rows), want))
        check(pr.returncode == 128 + sig and len(rows) == want and "ends earlier" not in err,
              "the slow reader gets every row up to the stop")
    # a slow reader that reads at last: every row, exit 0
    fifo = os.path.join(tmp, "slow")
    os.mkfifo(fifo)
    rd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    pr = subprocess.Popen([SIM, "--t-end", "3", "--every", "1e-4", "--out", fifo], cwd=tmp,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    time.sleep(1.0)
    data = b""
    while pr.poll() is None:
        data += read_all(rd)
        time.sleep(0.01)
    data += read_all(rd)
    os.close(rd)
    rows = whole_rows(data)
    print("  --out FIFO, a reader asleep 1 s then reading -> exit %r, %d rows, the last at %r"
          % (pr.returncode, len(rows), rows[-1][0] if rows else None))
    check(pr.returncode == 0 and len(rows) == 30001 and rows[-1][0] == 3,
          "the slow reader gets all 30001 rows to t = 3 s")
    fall_checked(rows)


def case_stalledtable(tmp):
    """The event table on a stdout nobody reads: a stop is answered."""
    import signal
    import time
    for delay in (1.0, 1.6):
        pr = subprocess.Popen([FIO_SIM, "--t-end", "1e5"], cwd=tmp, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE)
        time.sleep(delay)
        pr.send_signal(signal.SIGTERM)
        t0 = time.monotonic()
        while pr.poll() is None and time.monotonic() - t0 < 5:
            time.sleep(0.05)
        ended = pr.poll() is not None
        if not ended:
            pr.kill()
        out, err = pr.communicate()
        text = out.decode()
        lines = text.splitlines()
        times = [float(ln.split()[0]) for ln in lines[1:]]
        print("  table to a pipe nobody reads, SIGTERM after %.1f s -> %s, exit %r, %d rows: %s"
              % (delay, "ended" if ended else "still running after 5 s", pr.returncode,
                 len(times), err.decode().strip()[:160]))
        check(ended and pr.returncode == 128 + signal.SIGTERM and "ends earlier" in err.decode(),
              "the stop answered: exit 143, the table said to end earlier")
        check(text.endswith("\n") and lines[0].startswith("t [s]") and len(times) > 0 and
              all(b > a for a, b in zip(times, times[1:])) and
              all(ln.split()[1] == "impact" for ln in lines[1:]),
              "whole rows of impacts, each later than the one before")
    f = os.path.join(tmp, "table.txt")
    with open(f, "w") as out:
        subprocess.run([FIO_SIM, "--t-end", "300"], stdout=out, stderr=subprocess.DEVNULL)
    p = subprocess.run([FIO_SIM, "--t-end", "300"], capture_output=True)
    same = open(f, "rb").read() == p.stdout
    print("  --t-end 300: the table to a pipe %s the table to a file (%d bytes)"
          % ("equals" if same else "DIFFERS FROM", len(p.stdout)))
    check(p.returncode == 0 and same, "the table to a pipe read at once is the file's")


# ---- writefail ------------------------------------------------------------

def case_writefail(tmp):
    """A failed write's message says whether the run stopped or ended."""
    for te, every, word in (("100", "0.5", "ended at t = 100 s"),
                            ("1e4", "1e-3", "stopped at t = ")):
        p = run(tmp, [SIM, "--t-end", te, "--every", every, "--out", "/dev/full"])
        print("  --out /dev/full --t-end %s --every %s -> exit %d: %s"
              % (te, every, p.returncode, p.stderr.strip()[:200]))
        check(p.returncode == 3 and "No space left on device" in p.stderr and
              word in p.stderr, "exit 3, the run %s" % word)
    # the Lyapunov refusals name the values as given (%.17g named 1e300
    # 1.0000000000000001e+300 and 0.1 0.10000000000000001)
    for extra, want in ((["--lyapunov-transient", "1e300"], "--lyapunov-transient 1e+300 s "
                         "leaves no time before t_end = 10 s"),
                        (["--t-end", "0.3", "--lyapunov-transient", "0.3"],
                         "--lyapunov-transient 0.3 s leaves no time before t_end = 0.3 s")):
        p = run(tmp, [SIM, "--lyapunov"] + extra)
        print("  --lyapunov %s -> exit %d: %s" % (" ".join(extra), p.returncode,
                                                 p.stderr.strip()[:150]))
        check(p.returncode == 1 and want in p.stderr, "the values named as given")
    # a spectrum not written: "an earlier run's" file only where a file is
    with open(os.path.join(tmp, "ly.csv"), "w") as f:
        f.write("exponent,lambda [1/s]\n1,0.5\n")
    for target, earlier in (("/dev/full", False), ("/dev/null", False), ("ly.csv", True),
                            ("new.csv", False)):
        p = run(tmp, [SIM, "--t-end", "10", "--lyapunov", "--lyapunov-out", target])
        note = [ln for ln in p.stderr.splitlines() if "was not written" in ln]
        print("  --lyapunov --lyapunov-out %s (the ball comes to rest: refused) -> exit %d: %s"
              % (target, p.returncode, note[0][:150] if note else p.stderr.strip()[:150]))
        check(p.returncode == 3 and len(note) == 1 and
              ("an earlier run's" in note[0]) == earlier,
              "the note says an earlier run's file is there: %s" % earlier)


# ---- kept -----------------------------------------------------------------

def case_kept_grid(tmp):
    """CSV, HDF5 and Python agree near the landing time and grid divisors."""
    import h5py
    import numpy as np
    ball = __import__("passlib").compiled(tmp, "ball", path=BALL)
    t0 = math.sqrt(2 * H / G)
    n = 0
    for meth in ("rk4", "exact", "adaptive"):
        for te in (t0, np.nextafter(t0, 1), np.nextafter(t0, 0), 1.0):
            for k in (1, 3, 7):
                for d in (-2, 0, 2):
                    ev = te / k
                    for _ in range(abs(d)):
                        ev = np.nextafter(ev, 2 if d > 0 else 0)
                    n += 1
                    csv, h5 = (os.path.join(tmp, "g.%s" % e) for e in ("csv", "h5"))
                    p = run(tmp, [SIM, "--method", meth, "--t-end", repr(float(te)), "--every",
                                  repr(float(ev)), "--out", csv, "--out", h5])
                    check(p.returncode == 0, "%s t_end %r every %r runs" % (meth, te, ev), p)
                    with open(csv) as f:
                        rows = np.array(csv_rows(f.read()))
                    with h5py.File(h5, "r") as f:
                        tr = f["trajectory"][()]
                    r = ball.run(t_end=float(te), every=float(ev), method=meth)
                    py = np.column_stack([r.t, r["B.x"], r["B.v"]])
                    tol = 4 * np.finfo(float).eps * te
                    last = tr[-1]
                    x, v = ball_at(last[0])     # before the second landing (1.26 s)
                    print("  %-8s t_end %-20r every %-22r -> %d rows, the last at %r, x %.12g "
                          "v %.12g" % (meth, float(te), float(ev), len(tr), last[0], last[1],
                                       last[2]))
                    check(np.array_equal(py, tr[:, :3]) and len(rows) == len(tr) and
                          np.allclose(rows[:, :3], tr[:, :3], rtol=1e-11, atol=1e-12) and
                          np.all(np.diff(tr[:, 0]) > tol) and abs(last[0] - te) <= tol and
                          abs(last[1] - x) < 1e-8,
                          "the three agree, times increasing, the last row at t_end by hand")
    print("  %d runs" % n)


def case_kept_pyargs(tmp):
    """Python's bad arguments: an nsm.Error subclass with a message each."""
    import decimal
    import nsm
    f = __import__("passlib").compiled(tmp, "fio", path=FIO)
    S = "impact:stop"
    calls = {
        "sweep values ['2,5']": lambda: f.sweep("omega", ["2,5"], S, transient=1, record=1),
        "sweep values ['0x1p1']": lambda: f.sweep("omega", ["0x1p1"], S, transient=1, record=1),
        "sweep values [nan]": lambda: f.sweep("omega", [float("nan")], S, transient=1, record=1),
        "sweep values {2.5}": lambda: f.sweep("omega", {2.5}, S, transient=1, record=1),
        "sweep record 0": lambda: f.sweep("omega", [2.5], S, transient=1, record=0),
        "sweep transient '1 '": lambda: f.sweep("omega", [2.5], S, transient="1 ", record=1),
        "sweep transient Decimal(1e-400)": lambda: f.sweep(
            "omega", [2.5], S, transient=decimal.Decimal("1e-400"), record=1),
        "sweep period '1e-400'": lambda: f.sweep("omega", [2.5], "period:1", period="1e-400",
                                                 transient=1, record=1),
        "sweep section 'period:2,5'": lambda: f.sweep("omega", [2.5], "period:2,5",
                                                      transient=1, record=1),
        "sweep params omega": lambda: f.sweep("omega", [2.5], S, params={"omega": 1},
                                              transient=1, record=1),
        "continuation start '1e-400'": lambda: f.continuation("omega", "1e-400", 2.5,
                                                              max_points=2),
        "continuation stop nan": lambda: f.continuation("omega", 2.5, float("nan")),
        "continuation curve 'x'": lambda: f.continuation("omega", 2.5, 2.6, curve="x"),
        "basins count 1.5": lambda: f.basins(("M.x", -1, 0, 1.5), ("M.v", -1, 1, 2), S,
                                             transient=1, record=1),
        "basins lo '1e-400'": lambda: f.basins(("M.x", "1e-400", 0, 2), ("M.v", -1, 1, 2), S,
                                               transient=1, record=1),
        "basins tol 0": lambda: f.basins(("M.x", -1, 0, 2), ("M.v", -1, 1, 2), S,
                                         transient=1, record=1, tol=0),
        "lyapunov interval '1e-400'": lambda: f.lyapunov(1, "1e-400"),
        "floquet period 0": lambda: f.floquet(0),
        "section t_end '1e-400'": lambda: f.section("period:1", t_end="1e-400"),
        "run init '50 cm'": lambda: f.run(t_end=1, init={"M.x": "50 cm"}),
        "run every '0x1p-4'": lambda: f.run(t_end=1, every="0x1p-4"),
        "run params '2,5'": lambda: f.run(t_end=1, params={"omega": "2,5"}),
        "run params '1e-400 rad/s'": lambda: f.run(t_end=1, params={"omega": "1e-400 rad/s"}),
        "run params '2.5 Hz'": lambda: f.run(t_end=1, params={"omega": "2.5 Hz"}),
        "run method b'rk4'": lambda: f.run(t_end=1, method=b"rk4"),
        "run zeno 2": lambda: f.run(t_end=1, zeno=2),
    }
    for label, call in calls.items():
        try:
            call()
            got, ok = "ran", False
        except nsm.Error as e:
            got, ok = "%s: %s" % (type(e).__name__, e), bool(str(e)) and type(e) is not nsm.Error
        except BaseException as e:      # noqa: B902 - the check names it
            got, ok = "NOT an nsm.Error: %s: %s" % (type(e).__name__, e), False
        print("  %-34s -> %s" % (label, got[:150]))
        check(ok, "%s: an nsm.Error subclass with a message" % label)


def case_kept_h5temp(tmp):
    """A running HDF5 writer's temporary is refused to other outputs."""
    import signal
    import time
    import h5py
    from passlib import wait_until
    pr = subprocess.Popen([SIM, "--t-end", "1e4", "--every", "1e-3", "--out", "w.h5"], cwd=tmp,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wait_until(pr, lambda: any(n.endswith(".partial") for n in os.listdir(tmp)), 20)
    temps = [n for n in os.listdir(tmp) if n.endswith(".partial")]
    check(len(temps) == 1, "the writer's temporary %s" % temps)
    # past its creation: a second simulator opening the name in the instant
    # between the temporary's creation and the HDF5 library's lock makes
    # the first fail, loudly (docs/fuzzing.md, left)
    time.sleep(0.3)
    check(pr.poll() is None, "the first writer runs")
    for opt, extra in (("--out", []), ("--stats", []), ("--lyapunov-out", ["--lyapunov"]),
                       ("--events", [])):
        p = run(tmp, [SIM, "--t-end", "1", "--every", "0.1", opt, temps[0]] + extra)
        print("  %s %s -> exit %d: %s" % (opt, temps[0], p.returncode, p.stderr.strip()[:140]))
        check(p.returncode == 1 and "in use by another running program" in p.stderr,
              "%s naming the temporary: refused, exit 1" % opt)
    p = run(tmp, [SIM, "--t-end", "1", "--out", "w.h5"])
    print("  a second writer of w.h5 -> exit %d: %s" % (p.returncode, p.stderr.strip()[:140]))
    check(p.returncode == 1 and "in use by another running program" in p.stderr,
          "a second HDF5 writer of the same file refused")
    time.sleep(0.3)
    pr.send_signal(signal.SIGTERM)
    err = pr.communicate(timeout=30)[1].decode()
    with h5py.File(os.path.join(tmp, "w.h5"), "r") as f:
        tr = f["trajectory"][()]
        status = int(f["run"].attrs["status"])
    t0 = math.sqrt(2 * H / G)
    fall = tr[tr[:, 0] < t0]
    errx = max(abs(fall[:, 1] - (H - G * fall[:, 0] ** 2 / 2)))
    print("  the first stopped by SIGTERM -> exit %d, status %d, %d rows, the fall's largest "
          "error %.2g m" % (pr.returncode, status, len(tr), errx))
    check(pr.returncode == 143 and status == 8 and errx < 1e-9 and
          "interrupted by SIGTERM" in err, "the first's file whole, marked stopped, by hand")


if __name__ == "__main__":
    sys.exit(main({n[5:]: f for n, f in globals().items() if n.startswith("case_")},
                  "nsm-h26py-", 5))
