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
              Now the stop is seen within 20 ms: exit 128 + N, a note that
              the output ends earlier, and what the reader got is whole
              lines, the free fall by hand; a slow reader that reads at last
              gets every row, exit 0.
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
              only for a regular file.
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


if __name__ == "__main__":
    sys.exit(main({n[5:]: f for n, f in globals().items() if n.startswith("case_")},
                  "nsm-h26py-", 5))
