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
  comma       a Python program that had set a decimal comma (de_DE, built
              into LOCPATH): params={'g': '2.5'} was refused ("unknown unit
              '.5'": --set's reader, strtod, stopped at the point).  Now read
              in the C locale's numbers: the bits of params={'g': 2.5} and of
              the simulator's --set g=2.5, with units too; '2,5' refused.
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


if __name__ == "__main__":
    sys.exit(main({"devstdout": case_devstdout, "comma": case_comma}, "nsm-h26py-"))
