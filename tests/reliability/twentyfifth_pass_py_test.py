#!/usr/bin/env python3
"""The twenty-fifth hostile pass on the generated simulators' command line
and outputs and on the Python package (issue #29, docs/fuzzing.md).

    tests/reliability/twentyfifth_pass_py_test.py NSMC SIM FIO_SIM SOURCE_DIR CASE

SIM is the bouncing ball's simulator (models/bouncing_ball.nsm: m = 1 kg,
g = 9.81 m/s^2, e = 0.9, dropped from h = 1 m), FIO_SIM the forced impact
oscillator's (models/forced_impact_oscillator.nsm).

Cases (each under 20 s in the normal build):
  counts      a count given as a text that underflows ('1e-400', b'1e-400')
              was read as 0: Model.sweep's transient=, basins' pilot= and
              continuation's transient= ran with 0 without a word.  Now
              SettingError naming the value as below a double's range;
              '0e5' is still 0 (the first record of a sweep at t = 0 is
              the initial state by hand).
  values      Model.sweep's values given as texts or Decimals that underflow
              (['1e-400'], [b'1e-400'], [Decimal('1e-400')], a numpy array
              of texts) were swept as 0: g = 0, a ball that never falls,
              where the call asked for a gravity.  Now ParameterError; the
              values '0' and '2' give x = h - g t^2/2 at t = 0.5 s by hand.
  finalsample sampling periods a hair off t_end/k (1 - 1e-12, 1 ulp below and
              above 0.1 s) and periods that do not divide t_end, under rk4,
              exact and adaptive: the CSV, the HDF5 file and Python's run
              hold the same bits, times strictly increasing, the last row at
              t_end, the state there by hand; `--section period:0.5` over 1 s
              records t = 0, 0.5, 1 s in the CSV, the HDF5 file and Python.
  options     every numeric option of the simulator given NaN, inf, 1e-400,
              a hex float, a locale comma, an empty text and 1e400, in both
              forms (--NAME VALUE, --NAME=VALUE): exit 1, the option and the
              value named, nothing written.
  summary     --summary with a CSV on stdout (--out -, --events -, --stats -,
              a section or a Lyapunov spectrum without a file): the energy
              audit was appended to that CSV, a reader reading it as rows.
              Now the audit goes to stderr when an output takes stdout; the
              CSV whole (the last row, and the exponents' sum 2 ln e over
              one impact, by hand); with stdout free, on stdout as before.
  lyapend     the trajectory of a Lyapunov run (`--every 0.1 --lyapunov
              --lyapunov-interval 0.1 --t-end 1`, intervals 0.3 and 0.07, a
              transient) ended with two rows at t_end (0.9999999999999999 s,
              the grid's tenth sample where the restarted steps ended, and
              1 s), in the CSV and the HDF5 file.  Now one row at t_end, the
              ball's state there by hand; the exponents sum to 2 ln e over
              the span after the transient.
  kill        SIGKILL at random moments of a long run writing CSV and HDF5:
              the CSV holds whole lines (but a last line the kernel cut at
              a page boundary, left out), the free fall by hand before the
              landing; the HDF5 file (partial) opens with h5py, its rows
              the CSV's where both have them; SIGTERM marks the file
              stopped.
  pyunits     params= with units ('981 cm/s^2', '9.81 N/kg', b'9810 mm/s^2')
              gives the bits of the simulator's --set with the same text;
              damaged cache entries (truncated, emptied, garbage, checksum
              gone) are rebuilt with a note and the same values.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import decimal
import math
import os
import random
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import (check, compiled, has_bytes, main, refusal, run,  # noqa: E402
                     wait_until)

NSMC, SIM, FIO_SIM = (os.path.abspath(a) for a in sys.argv[1:4])
SRC = os.path.abspath(sys.argv[4])
BALL = os.path.join(SRC, "models", "bouncing_ball.nsm")
FIO = os.path.join(SRC, "models", "forced_impact_oscillator.nsm")
G, H, E = 9.81, 1.0, 0.9

# a ball dropped from 1 m under a gravity swept (no floor: it falls freely)
FALL = '''model fall "a ball falling freely"
param g = 2 m/s^2
mass B = 1 kg
gravity g
init B.x = 1 m, B.v = 0 m/s
simulate t_end = 2 s, dt = 1 ms, method = exact
output every 0.25 s: B.x, B.v
'''


def ball_at(t):
    """(x, v) of the bouncing ball at t, before its second landing, by hand:
    the fall x = h - g t^2/2, the landing at t0 = sqrt(2 h/g), then the
    rebound at e sqrt(2 g h)."""
    t0 = math.sqrt(2 * H / G)
    if t <= t0:
        return H - G * t * t / 2, -G * t
    s, v0 = t - t0, E * math.sqrt(2 * G * H)
    return v0 * s - G * s * s / 2, v0 - G * s


def csv_rows(path):
    """The data rows of a CSV file (its header left out), as float lists."""
    with open(path) as f:
        return [[float(x) for x in line.split(",")] for line in f.read().splitlines()[1:]]


# ---- counts ---------------------------------------------------------------

def case_counts(tmp):
    """A count text that underflows is refused, not read as 0."""
    import nsm
    fio = compiled(tmp, "fio", path=FIO)
    calls = (
        ("sweep transient='1e-400'",
         lambda v: fio.sweep("omega", [2.5], "impact:stop", transient=v, record=1)),
        ("basins pilot='1e-400'",
         lambda v: fio.basins(("M.x", -1, 0, 2), ("M.v", -1, 1, 2), "impact:stop", transient=2,
                              record=2, pilot=v)),
        ("continuation transient='1e-400'",
         lambda v: fio.continuation("omega", 2.5, 2.6, transient=v, max_points=2)),
    )
    for label, call in calls:
        for v in ("1e-400", b"1e-400", "1.5e-999"):
            try:
                call(v)
                got = "ran"
            except nsm.SettingError as err:
                got = str(err)
            print("  %-34s %-14r -> %s" % (label, v, got[:110]))
            check("below the range of a double" in got,
                  "%s given %r: SettingError, below a double's range" % (label, v))
    # a text of zeros is 0: the first record of period:2*pi/omega is t = 0
    p, rec = fio.sweep("omega", [2.5], "period:2*pi/omega", transient="0e5", record=1)
    print("  sweep transient='0e5' -> records at t = %s, state %s" % (rec[:, 0], rec[0, 2:]))
    check(len(rec) == 1 and rec[0, 0] == 0 and rec[0, 2] == -0.5 and rec[0, 3] == 0,
          "transient='0e5' keeps the first record: the initial state x = -0.5 m, v = 0")


# ---- values ---------------------------------------------------------------

def case_values(tmp):
    """Sweep values that underflow are refused; '0' and '2' by hand."""
    import numpy as np
    import nsm
    fall = compiled(tmp, "fall", FALL)
    for vals in (["1e-400"], [b"1e-400"], [decimal.Decimal("1e-400")], np.array(["1e-400"]),
                 ["2", "1e-400"]):
        try:
            p, rec = fall.sweep("g", vals, "period:0.5", transient=1, record=1)
            got = "swept %s: x = %s" % (p, rec[:, 2])
        except nsm.ParameterError as err:
            got = str(err)
        print("  sweep g over %-28r -> %s" % (vals, got[:110]))
        check("below the range of a double" in got,
              "sweep values %r: ParameterError, below a double's range" % (vals,))
    p, rec = fall.sweep("g", ["0", "2", decimal.Decimal("2")], "period:0.5", transient=1,
                        record=1)
    want = [H - g * 0.25 / 2 for g in (0, 2, 2)]
    print("  sweep g over '0', '2', Decimal('2') -> g %s, x(0.5) %s (by hand %s)"
          % (p, rec[:, 2], want))
    check(list(p) == [0, 2, 2] and np.allclose(rec[:, 0], 0.5, rtol=0, atol=1e-15) and
          np.allclose(rec[:, 2], want, rtol=0, atol=1e-12),
          "values '0' and '2': x(0.5 s) = h - g t^2/2 by hand")


# ---- finalsample ----------------------------------------------------------

def case_finalsample(tmp):
    """CSV, HDF5 and Python agree on the grid and its last row at t_end."""
    import h5py
    import numpy as np
    ball = compiled(tmp, "ball", path=BALL)
    combos = [("1", 0.1 * (1 - 1e-12)), ("1", 0.1 - 2 ** -56), ("1", 0.1 + 2 ** -56),
              ("1", 0.3), ("0.7", 0.1), ("1", 1 - 1e-12), ("1", 2.0)]
    n = 0
    for meth in ("rk4", "exact", "adaptive"):
        for te, ev in combos:
            n += 1
            csv, h5 = (os.path.join(tmp, "t%d.%s" % (n, s)) for s in ("csv", "h5"))
            p = run(tmp, [SIM, "--method", meth, "--t-end", te, "--every=%r" % ev, "--out", csv,
                          "--out", h5])
            check(p.returncode == 0, "%s --every %r --t-end %s runs" % (meth, ev, te), p)
            with h5py.File(h5, "r") as f:
                tr = f["trajectory"][()]
            rows = np.array(csv_rows(csv))
            r = ball.run(t_end=float(te), every=ev, method=meth)
            py = np.column_stack([r.t, r["B.x"], r["B.v"]])
            x, v = ball_at(float(te))
            print("  %-8s --every %-22r --t-end %-3s -> %d rows, the last two at %r, x %.12g "
                  "(by hand %.12g); Python %d rows" % (meth, ev, te, len(tr), list(tr[-2:, 0]),
                                                     tr[-1, 1], x, len(py)))
            # the last row at t_end, or a grid row within a few roundings
            # of it (one ulp below: the same instant, no second row)
            tol = 4 * np.finfo(float).eps * float(te)
            check(abs(tr[-1, 0] - float(te)) <= tol and np.all(np.diff(tr[:, 0]) > tol) and
                  abs(tr[-1, 1] - x) < 1e-8 and abs(tr[-1, 2] - v) < 1e-8,
                  "times strictly increasing, the last row at t_end, the state there by hand")
            check(np.array_equal(py, tr[:, :3]) and len(rows) == len(tr) and
                  np.allclose(rows[:, :3], tr[:, :3], rtol=1e-11, atol=1e-12),
                  "Python's run holds the HDF5 file's bits, the CSV its rows")
    for meth in ("rk4", "exact"):
        s_csv, s_h5 = os.path.join(tmp, "s.csv"), os.path.join(tmp, "s.h5")
        p = run(tmp, [SIM, "--method", meth, "--t-end", "1", "--section", "period:0.5",
                      "--section-out", s_csv, "--out", s_h5])
        with h5py.File(s_h5, "r") as f:
            hs = f["section"][()]
        cs = np.array(csv_rows(s_csv))
        ps = ball.section("period:0.5", t_end=1, method=meth)
        print("  %s --section period:0.5 --t-end 1 -> CSV t %s, HDF5 t %s, Python t %s"
              % (meth, list(cs[:, 0]), list(hs[:, 0]), list(ps[:, 0])))
        want = [ball_at(t)[0] for t in (0, 0.5, 1)]
        check(p.returncode == 0 and list(hs[:, 0]) == [0, 0.5, 1] and list(ps[:, 0]) ==
              [0, 0.5, 1] and np.array_equal(ps, hs) and np.allclose(cs, hs, rtol=1e-15) and
              np.allclose(hs[:, 2], want, atol=1e-8),
              "period:0.5 records t = 0, 0.5 and 1 s alike, x by hand")


# ---- lyapend ---------------------------------------------------------------

def case_lyapend(tmp):
    """A Lyapunov run's trajectory ends with one row at t_end."""
    import h5py
    import numpy as np
    for every, interval, transient in (("0.1", "0.1", None), ("0.1", "0.3", None),
                                       ("0.25", "0.1", None), ("0.1", "0.07", None),
                                       ("0.1", "0.1", "0.35"), ("0.3", "0.1", "0.3")):
        h5, csv = os.path.join(tmp, "l.h5"), os.path.join(tmp, "l.csv")
        args = [SIM, "--t-end", "1", "--method", "exact", "--every", every, "--lyapunov",
                "--lyapunov-interval", interval, "--lyapunov-out", "ly.csv", "--out", h5,
                "--out", csv] + (["--lyapunov-transient", transient] if transient else [])
        p = run(tmp, args)
        with h5py.File(h5, "r") as f:
            tr = f["trajectory"][()]
        rows = csv_rows(csv)
        lam = [r[1] for r in csv_rows(os.path.join(tmp, "ly.csv"))]
        t = tr[:, 0]
        x, v = ball_at(1.0)
        span = 1 - float(transient or 0)
        print("  --every %-4s --lyapunov-interval %-4s --lyapunov-transient %-4s -> %d  rows at "
              "%s; exponents sum %.12g (by hand 2 ln e / %g s = %.12g)"
              % (every, interval, transient, p.returncode, [float("%.17g" % a) for a in t[-3:]],
                 sum(lam), span, 2 * math.log(E) / span))
        want = int(math.floor(1 / float(every) + 1e-9)) + 1 + \
            (0 if abs(1 / float(every) - round(1 / float(every))) < 1e-9 else 1)
        check(p.returncode == 0 and len(t) == want and len(rows) == len(t) and
              np.all(np.diff(t) > 1e-6 * float(every)) and abs(t[-1] - 1) <= 4e-16 and
              abs(tr[-1, 1] - x) < 1e-9 and abs(tr[-1, 2] - v) < 1e-9,
              "%d rows, one at t_end = 1 s (to an ulp) with the state by hand, none twice" % want, p)
        check(abs(sum(lam) - 2 * math.log(E) / span) < 1e-9,
              "the exponents sum to ln(e^2) over the span after the transient")


# ---- options --------------------------------------------------------------

NUMERIC = ("t-end", "dt", "every", "rtol", "atol", "energy-tol", "fps", "frames",
           "section-period", "lyapunov-interval", "lyapunov-transient", "max-steps",
           "max-event-rate", "max-impacts", "events-max")


def case_options(tmp):
    """Malformed or out-of-range values of every numeric option: exit 1."""
    out = os.path.join(tmp, "o.csv")
    bad = ("nan", "inf", "1e-400", "0x1p-3", "0,5", "", "1e400")
    n = 0
    for opt in NUMERIC:
        for v in bad:
            for form in ([("--" + opt), v], ["--%s=%s" % (opt, v)]):
                n += 1
                p = run(tmp, [SIM, "--out", out] + form, timeout=30)
                msg = (p.stderr.strip().splitlines() or [""])[0]
                named = ("--" + opt) in msg or opt in msg
                if n % 7 == 1:
                    print("  %-34s -> %d  %s" % (" ".join(form), p.returncode, msg[:100]))
                check(p.returncode == 1 and named and not os.path.exists(out),
                      "%s: exit 1 naming the option, nothing written" % " ".join(form), p)
    print("  %d option values refused" % n)
    # the same values well formed, both forms: the fall by hand at 0.1 s
    for form in (["--t-end", "0.1", "--every", "0.05"], ["--t-end=0.1", "--every=5e-2"],
                 ["--t-end=+0.1", "--every", "0.05", "--dt=1e-3"]):
        p = run(tmp, [SIM, "--out", out] + form)
        rows = csv_rows(out)
        print("  %-34s -> %d  %d rows, x(0.1) = %.15g" % (" ".join(form), p.returncode,
                                                         len(rows), rows[-1][1]))
        check(p.returncode == 0 and rows[-1][0] == 0.1 and
              abs(rows[-1][1] - (H - G * 0.01 / 2)) < 1e-12, "%s: x(0.1) by hand" % form)
        os.unlink(out)


# ---- summary --------------------------------------------------------------

def csv_on_stdout(text):
    """The rows of a CSV text (header left out) as float lists; ValueError
    when a line is not one (the audit appended to it)."""
    lines = text.splitlines()
    width = len(lines[0].split(","))
    rows = []
    for ln in lines[1:]:
        cells = ln.split(",")
        if len(cells) != width:
            raise ValueError("not a CSV row: %r" % ln)
        rows.append([float(c) if c.strip() not in ("impact", "floor") else 0.0 for c in cells])
    return rows


def case_summary(tmp):
    """--summary beside a CSV on stdout: the audit on stderr, the CSV whole."""
    x1 = ball_at(1.0)[0]
    for outs, what in ((["--out", "-"], "the trajectory"), (["--events", "-"], "the events"),
                       (["--stats", "-"], "the statistics"),
                       (["--section", "period:0.5"], "the section"),
                       (["--lyapunov", "--method", "exact"], "the spectrum")):
        p = run(tmp, [SIM, "--t-end", "1", "--every", "0.5", "--summary"] + outs)
        try:
            rows = csv_on_stdout(p.stdout)
            got = "%d rows" % len(rows)
        except (ValueError, IndexError) as err:
            rows, got = None, str(err)[:60]
        print("  --summary %-30s -> %d  stdout: %s; audit on stderr: %s"
              % (" ".join(outs), p.returncode, got, "energy audit at t = 1 s" in p.stderr))
        check(p.returncode == 0 and rows and "energy audit" not in p.stdout and
              "energy audit at t = 1 s" in p.stderr,
              "--summary %s: stdout holds %s alone, the audit is on stderr" % (" ".join(outs),
                                                                                 what), p)
        if outs[0] == "--out":
            check(rows[-1][0] == 1 and abs(rows[-1][1] - x1) < 1e-9,
                  "the trajectory's last row by hand (x(1 s) = %.12g)" % x1)
        if outs[0] == "--lyapunov":
            # one impact of e = 0.9 in 1 s: the saltation's determinant e^2
            check(abs(rows[0][1] + rows[1][1] - 2 * math.log(E)) < 1e-9,
                  "the exponents sum to 2 ln e over the 1 s with one impact")
    p = run(tmp, [SIM, "--t-end", "1", "--summary", "--events", os.devnull])
    print("  --summary --events /dev/null -> %d, audit on stdout: %s"
          % (p.returncode, "energy audit at t = 1 s" in p.stdout))
    check(p.returncode == 0 and "energy audit at t = 1 s" in p.stdout,
          "with stdout free the audit is printed there, as before", p)


# ---- kill -----------------------------------------------------------------

def case_kill(tmp):
    """SIGKILL at random moments: whole CSV lines, a readable HDF5 file."""
    import h5py
    import numpy as np
    rnd = random.Random(25)
    t0 = math.sqrt(2 * H / G)
    for k in range(6):
        d = os.path.join(tmp, "k%d" % k)
        os.mkdir(d)
        pr = subprocess.Popen([SIM, "--t-end", "1e5", "--every", "1e-3", "--out", "k.csv",
                               "--out", "k.h5"], cwd=d, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
        wait_until(pr, has_bytes(os.path.join(d, "k.csv")), 20)
        delay = rnd.uniform(0.0, 0.6)
        time.sleep(delay)
        pr.kill()
        pr.wait()
        with open(os.path.join(d, "k.csv")) as f:
            text = f.read()
        # the kernel ends a write at a page boundary of the file when
        # SIGKILL comes during it (docs/status.md, "Whole lines"): an
        # unterminated last line only at a size that is a multiple of 4096,
        # left out; every other line whole
        cut = not text.endswith("\n") and len(text) % 4096 == 0 and "\n" in text
        if cut:
            print("  (the last line cut by the kernel at %d bytes, a page boundary: left out)"
                  % len(text))
            text = text[:text.rfind("\n") + 1]
        rows = np.array([[float(x) for x in line.split(",")] for line in text.splitlines()[1:]])
        h5s = [f for f in os.listdir(d) if f.startswith("k.h5")]
        hrows = 0
        if h5s:
            with h5py.File(os.path.join(d, h5s[0]), "r") as f:
                tr = f["trajectory"][()]
            hrows = len(tr)
            # each file is written on its own clock (the CSV at 32 KiB or
            # 0.25 s, the HDF5 file at its flushes): either may hold more
            # rows; where both hold a row it is the same
            both = min(hrows, len(rows))
            check(np.allclose(tr[:both, :3], rows[:both, :3], rtol=1e-11, atol=1e-12),
                  "the HDF5 file %s opens, its %d rows the CSV's (%d) where both have them"
                  % (h5s[0], hrows, len(rows)))
        fall = rows[rows[:, 0] < t0]
        err = np.max(np.abs(fall[:, 1] - (H - G * fall[:, 0] ** 2 / 2))) if len(fall) else 0
        print("  SIGKILL after %.3f s: %d CSV rows to t = %g s, HDF5 %s with %d rows; the fall's "
              "largest error %.2g m" % (delay, len(rows), rows[-1, 0], h5s, hrows, err))
        check(text.endswith("\n") and len(rows) > 0 and err < 1e-9,
              "whole CSV lines, the free fall by hand before the landing")
    pr = subprocess.Popen([SIM, "--t-end", "1e5", "--every", "1e-3", "--out", "k.csv", "--out",
                           "k.h5"], cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True)
    wait_until(pr, has_bytes(os.path.join(tmp, "k.csv")), 20)
    time.sleep(0.2)
    pr.send_signal(signal.SIGTERM)
    err = pr.communicate(timeout=30)[1]
    with h5py.File(os.path.join(tmp, "k.h5"), "r") as f:
        status, hrows = int(f["run"].attrs["status"]), f["trajectory"].shape[0]
    rows = csv_rows(os.path.join(tmp, "k.csv"))
    print("  SIGTERM after 0.2 s: exit %d, status %d, %d HDF5 rows, %d CSV rows"
          % (pr.returncode, status, hrows, len(rows)))
    check(pr.returncode == 128 + signal.SIGTERM and status == 8 and hrows == len(rows) and
          "interrupted by SIGTERM" in err, "SIGTERM: exit 143, the file marked stopped, as many "
          "rows as the CSV")


# ---- pyunits --------------------------------------------------------------

def case_pyunits(tmp):
    """params= with units: the simulator's --set bits; damaged cache rebuilt."""
    import glob
    import h5py
    import numpy as np
    ball = compiled(tmp, "ball", path=BALL)
    h5 = os.path.join(tmp, "u.h5")
    for text in ("981 cm/s^2", "9.81 N/kg", "9810 mm/s^2", "0.00981 km/s^2", "9.81 m/s/s"):
        p = run(tmp, [SIM, "--t-end", "1", "--every", "0.3", "--set", "g=" + text, "--out", h5])
        with h5py.File(h5, "r") as f:
            tr = f["trajectory"][()]
        r = ball.run(t_end=1, every=0.3, params={"g": text})
        rb = ball.run(t_end=1, every=0.3, params={"g": text.encode()})
        x = ball_at(1.0)[0]
        print("  g=%-16r -> --set exit %d, x(1) %.15g; Python %.15g (by hand %.15g)"
              % (text, p.returncode, tr[-1, 1], r["B.x"][-1], x))
        check(p.returncode == 0 and np.array_equal(r["B.x"], tr[:, 1]) and
              np.array_equal(rb["B.x"], tr[:, 1]) and abs(tr[-1, 1] - x) < 1e-8,
              "g=%r: Python's bits are --set's, x(1 s) by hand" % text)
    for text in ("981 cm", "1e-400 m/s^2", "9,81 m/s^2", "nan m/s^2"):
        why = refusal(lambda: ball.run(t_end=1, params={"g": text}))
        p = run(tmp, [SIM, "--t-end", "1", "--set", "g=" + text])
        print("  g=%-16r -> Python: %s | --set exit %d" % (text, (why or "ran")[:80],
                                                          p.returncode))
        check(why is not None and p.returncode == 1, "g=%r refused by both" % text)
    # damaged cache entries
    code = ("import nsm, sys; m = nsm.compile(sys.argv[1]); "
            "print(repr(list(m.run(t_end=0.5, every=0.25)['B.x'])))")
    env = {"XDG_CACHE_HOME": os.path.join(tmp, "c2")}
    first = run(tmp, [sys.executable, "-c", code, BALL], env=env)
    want = [H, H - G * 0.0625 / 2, ball_at(0.5)[0]]
    so = glob.glob(os.path.join(tmp, "c2", "nsm", "py-*", "*.so"))[0]
    for damage in ("truncated", "emptied", "garbage", "no checksum"):
        if damage == "truncated":
            os.truncate(so, 100)
        elif damage == "emptied":
            os.truncate(so, 0)
        elif damage == "garbage":
            with open(so, "wb") as f:
                f.write(os.urandom(20000))
        else:
            os.unlink(so[:-3] + ".sum")
        p = run(tmp, [sys.executable, "-c", code, BALL], env=env)
        got = eval(p.stdout.strip() or "[]")
        print("  cache entry %-12s -> exit %d, %s; x %s (by hand %s)"
              % (damage, p.returncode, (p.stderr.strip().splitlines() or [""])[-1][:70], got,
                 want))
        check(p.returncode == 0 and "rebuilding" in p.stderr and p.stdout == first.stdout and
              np.allclose(got, want, atol=1e-12),
              "a %s cache entry rebuilt with a note, the same values" % damage, p)


if __name__ == "__main__":
    sys.exit(main({n[5:]: f for n, f in globals().items() if n.startswith("case_")},
                  "nsm-h25py-", 5))
