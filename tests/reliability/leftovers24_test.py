#!/usr/bin/env python3
"""What the twenty-second hostile passes left as found (issue #29,
docs/fuzzing.md), each a check that failed before its fix.

    tests/reliability/leftovers24_test.py NSMC SIM FIO_SIM SOURCE_DIR CASE

SIM is the bouncing ball's simulator (models/bouncing_ball.nsm: m = 1 kg,
g = 9.81 m/s^2, e = 0.9, dropped from 1 m), FIO_SIM the forced impact
oscillator's (models/forced_impact_oscillator.nsm: m = k = 1, zeta = 0.05,
from x = -0.5 m at rest, the stop at x = 0).

Cases (each under 20 s in the normal build):
  sectionempty  a section spec with an empty last field (`period:0.3:`,
                `plane:B.x-0.5:`, `impact:floor:`) or an empty first one
                (`period::`) took that field's default, exit 0.  Now refused
                naming the field in the simulator's --section, nsmc sweep's
                --section and Python's section=; `period:0.3:0.1` and
                `plane:B.x-0.5:down` still record the free fall by hand
                (x = h - g t^2/2 at t = 0.1, 0.4 s; B.x = 0.5 m at t =
                sqrt(2 (h - 0.5)/g)).
  contplot      `nsmc continue --plot COLUMN --no-plot`: the column taken
                without a word.  Now refused as nsmc run refuses --phase
                with --no-plot, nothing made.
  plotdir       `nsmc run M --out-dir R -- --plot R` (and `./R/`): refused
                as "another run (process N)", N being nsmc run itself.  Now
                a message saying the simulator's --plot names the run's own
                folder; `-- --plot P` elsewhere still draws there.
  ownfile       `nsmc run M --out-dir R -- --set-file R/plot.gp`: refused
                as "--out-dir 'R/plot.gp' is the parameter file ...".  Now
                the message names the run's own file and its folder's
                option; the parameter file left intact.
  mpiranks      an MPI sweep over 2 ranks said "1 job on each of several
                MPI ranks".  Now "on each of 2 MPI ranks"; one process
                names no ranks.
  lyapshort     a Lyapunov spectrum over 1e-300 s (or 1e-15 s) read 0 for
                every exponent, exit 0, and lost digits below about 1e-12 s.
                Now refused (exit 1, nothing written; Python a SettingError)
                when the span is below 1e6 roundings of the free-flight
                mode's fastest rate, naming the shortest span; at and above
                the bound the two exponents before the first impact sum to
                the trace of the free flight's Jacobian, -c/m = -2 zeta
                sqrt(k/m), within 1e-6 of it (m = 1 and 4 kg).
  flushfail     the ball run for 1e5 s with --every 1e5 under a 600-byte
                file-size limit: its event log (or section records) of the
                first seconds' impacts, written by the outputs' writer
                thread 0.25 s later, failed with "File too large", and the
                run went on (no callback came to see it) for minutes, the
                failure said at its end.  Now the run stops at its next
                step: exit 3 within seconds, the cause (strerror) and the
                file named, the file whole lines with the first impact at
                sqrt(2 h/g).
  finalsample   a sampling period that does not divide t_end (`--every 0.3
                --t-end 1`) ended the trajectory at 0.9 s: the state at t_end
                was never written.  Now its last row is at t_end, in the
                CSV, the HDF5 file and Python's run alike (the same bits):
                the ball's state there by hand (landing at t0 = sqrt(2 h/g),
                rebound at e sqrt(2 g h), x = v (t - t0) - g (t - t0)^2/2),
                under rk4 and exact; a period that divides t_end (0.25 s)
                keeps its rows (no row twice).
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import errno
import math
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import (PY_EXPECT, check, env_for, limit, main,  # noqa: E402
                     python_script, run)

NSMC, SIM, FIO_SIM = (os.path.abspath(a) for a in sys.argv[1:4])
SRC = os.path.abspath(sys.argv[4])
BALL = os.path.join(SRC, "models", "bouncing_ball.nsm")
FIO = os.path.join(SRC, "models", "forced_impact_oscillator.nsm")
G, H = 9.81, 1.0


def csv_rows(path):
    """The data rows of a CSV file (its header left out), as float lists."""
    with open(path) as f:
        return [[float(x) for x in line.split(",")] for line in f.read().splitlines()[1:]]


def last_line(p):
    """The last line of a process's standard error."""
    return (p.stderr.strip().splitlines() or [""])[-1]


# ---- sectionempty ---------------------------------------------------------

def case_sectionempty(tmp):
    """Empty fields of a section spec refused, naming the field."""
    for spec, field in (("period:0.3:", "the start T0"), ("plane:B.x-0.5:", "the direction"),
                        ("impact:floor:", "impact takes one gap name"),
                        ("period::", "the period T"), ("plane::down", "the plane's function"),
                        ("impact:", "the gap's name")):
        out = os.path.join(tmp, "s.csv")
        p = run(tmp, [SIM, "--t-end", "1", "--section", spec, "--section-out", out])
        print("  --section %-16s -> %d  %s" % (spec, p.returncode, last_line(p)[:110]))
        check(p.returncode == 1 and field in p.stderr and not os.path.exists(out),
              "--section %s refused naming %s, nothing written" % (spec, field), p)
    # the fields given: the free fall by hand
    p = run(tmp, [SIM, "--t-end", "1", "--section", "period:0.3:0.1", "--section-out", "p.csv"])
    rows = csv_rows(os.path.join(tmp, "p.csv"))
    print("  --section period:0.3:0.1 -> %s" % [(r[0], r[2]) for r in rows])
    check(p.returncode == 0 and len(rows) >= 3 and
          all(abs(r[2] - (H - G * r[0] ** 2 / 2)) < 1e-12 for r in rows[:2]) and
          abs(rows[0][0] - 0.1) < 1e-15 and abs(rows[1][0] - 0.4) < 1e-15,
          "period:0.3:0.1 records t = 0.1, 0.4, ... s, x = h - g t^2/2 before the landing", p)
    p = run(tmp, [SIM, "--t-end", "0.4", "--section", "plane:B.x-0.5:down", "--section-out",
                  "q.csv"])
    rows = csv_rows(os.path.join(tmp, "q.csv"))
    want = math.sqrt(2 * (H - 0.5) / G)
    print("  --section plane:B.x-0.5:down -> %s (by hand t = %.15g)" % (rows, want))
    check(p.returncode == 0 and len(rows) == 1 and abs(rows[0][0] - want) < 1e-12,
          "plane:B.x-0.5:down records the fall through 0.5 m at sqrt(2 (h - 0.5)/g)", p)
    # nsmc sweep
    for spec in ("period:2*pi/omega:", "plane:M.x+0.1:"):
        out = os.path.join(tmp, "sw")
        p = run(tmp, [NSMC, "sweep", FIO, "--param", "omega=2.5:2.5:1", "--transient", "2",
                      "--record", "2", "--section", spec, "--out-dir", out])
        print("  nsmc sweep --section %-20s -> %d  %s" % (spec, p.returncode, last_line(p)[:100]))
        check(p.returncode == 1 and "is empty" in p.stderr and
              not os.path.exists(os.path.join(out, "summary.csv")),
              "nsmc sweep --section %s refused before the grid" % spec, p)
    # Python
    python_script(tmp, "empty.py", PY_EXPECT + """
import sys, nsm
m = nsm.compile(sys.argv[1])
for spec in ("period:0.3:", "plane:B.x-0.5:", "impact:floor:", "period::"):
    expect("section(%r)" % spec, lambda: m.section(spec, t_end=1), ("SettingError",))
    expect("sweep(section=%r)" % spec, lambda: m.sweep("e", [0.5], spec, transient=0, record=1),
           ("SettingError",))
    try:
        m.section(spec, t_end=1)
    except nsm.Error as e:
        assert "empty" in str(e) or "one gap name" in str(e), str(e)
rec = m.section("period:0.3:0.1", t_end=0.45)
assert rec.shape[0] == 2 and abs(rec[1, 0] - 0.4) < 1e-15, rec
assert abs(rec[1, 2] - (1 - 9.81 * 0.16 / 2)) < 1e-12, rec
print("section('period:0.3:0.1'): x(0.4) =", rec[1, 2])
""", [BALL], "empty section fields refused by Python's studies")


# ---- contplot -------------------------------------------------------------

def case_contplot(tmp):
    """nsmc continue --plot COLUMN --no-plot refused."""
    for order in (["--plot", "M.x", "--no-plot"], ["--no-plot", "--plot", "M.v"],
                  ["--plot=M.x", "--no-plot"]):
        out = os.path.join(tmp, "c")
        p = run(tmp, [NSMC, "continue", FIO, "--param", "omega=2.4:2.5", "--out-dir", out, "-q"]
                + order, timeout=180)
        print("  nsmc continue %-28s -> %d  %s" % (" ".join(order), p.returncode,
                                                   last_line(p)[:110]))
        check(p.returncode == 1 and "--no-plot" in last_line(p) and "--plot" in last_line(p)
              and not os.path.exists(out),
              "nsmc continue %s refused, nothing made" % " ".join(order), p)


# ---- plotdir --------------------------------------------------------------

def case_plotdir(tmp):
    """The simulator's --plot naming nsmc run's own folder."""
    for plot in (["--plot", "R"], ["--plot=./R/"], ["--plot", "R//"]):
        p = run(tmp, [NSMC, "run", BALL, "-q", "--out-dir", "R", "--", "--t-end", "1"] + plot)
        print("  nsmc run --out-dir R -- %-14s -> %d  %s" % (" ".join(plot), p.returncode,
                                                           last_line(p)[:120]))
        check(p.returncode == 1 and "own folder" in p.stderr and "another run" not in p.stderr
              and not os.path.exists(os.path.join(tmp, "R", "trajectory.csv")),
              "-- %s refused as naming the run's own folder, nothing written" % " ".join(plot), p)
    p = run(tmp, [NSMC, "run", BALL, "-q", "--no-plot", "--out-dir", "R", "--", "--t-end",
                  "1", "--plot", "P"])
    print("  nsmc run --no-plot --out-dir R -- --plot P -> %d, P: %s" %
          (p.returncode, sorted(os.listdir(os.path.join(tmp, "P")))
           if os.path.isdir(os.path.join(tmp, "P")) else None))
    check(p.returncode == 0 and os.path.exists(os.path.join(tmp, "P", "plot.gp")) and
          os.path.exists(os.path.join(tmp, "R", "trajectory.csv")),
          "-- --plot P beside --out-dir R draws in P", p)


# ---- ownfile --------------------------------------------------------------

def case_ownfile(tmp):
    """A parameter file that is one of the run's own files: the message
    names the file and --out-dir."""
    os.mkdir(os.path.join(tmp, "R"))
    pf = os.path.join(tmp, "R", "plot.gp")
    with open(pf, "w") as f:
        f.write("e = 0.5\n")
    p = run(tmp, [NSMC, "run", BALL, "-q", "--out-dir", "R", "--", "--set-file", "R/plot.gp"])
    print("  nsmc run --out-dir R -- --set-file R/plot.gp -> %d  %s" % (p.returncode,
                                                                     last_line(p)[:160]))
    check(p.returncode == 1 and "--out-dir 'R/plot.gp'" not in p.stderr and
          "'R/plot.gp'" in p.stderr and "--out-dir 'R'" in p.stderr and
          open(pf).read() == "e = 0.5\n",
          "the message names the run's own file R/plot.gp and --out-dir R, the file intact", p)


# ---- mpiranks -------------------------------------------------------------

def case_mpiranks(tmp):
    """An MPI sweep's summary line gives the rank count."""
    base = [NSMC, "sweep", FIO, "--param", "omega=2.4:2.6:4", "--section", "impact:stop",
            "--transient", "3", "--record", "2"]
    p = run(tmp, base + ["--out-dir", "one"], timeout=180)
    print("  nsmc sweep (one process) -> %d  %s" % (p.returncode, last_line(p)))
    check(p.returncode == 0 and "MPI" not in last_line(p), "one process names no ranks", p)
    mpirun = shutil.which("mpirun")
    check(mpirun is not None, "mpirun is on the PATH (the MPI sweep's summary is checked)")
    p = run(tmp, [mpirun, "--allow-run-as-root", "--oversubscribe", "-np", "2"] + base +
            ["--out-dir", "two"], timeout=180)
    print("  mpirun -np 2 nsmc sweep -> %d  %s" % (p.returncode, last_line(p)))
    check(p.returncode == 0 and "on each of 2 MPI ranks" in last_line(p),
          "the MPI sweep's summary says 2 MPI ranks", p)
    with open(os.path.join(tmp, "one", "section.csv")) as a, \
            open(os.path.join(tmp, "two", "section.csv")) as b:
        check(a.read() == b.read(), "the same section.csv over one process and two ranks")



# ---- lyapshort ------------------------------------------------------------

def case_lyapshort(tmp):
    """Lyapunov spans too short for the exponents refused; the exponents'
    sum -c/m = -2 zeta sqrt(k/m) above the bound."""
    out = os.path.join(tmp, "l.csv")
    for T in ("1e-300", "1e-15", "1e-12", "5e-11"):
        p = run(tmp, [FIO_SIM, "--t-end", T, "--lyapunov", "--lyapunov-interval", T,
                      "--lyapunov-out", out, "--every", "0"])
        print("  --t-end %s --lyapunov-interval %s -> %d  %s" % (T, T, p.returncode,
                                                                last_line(p)[-150:]))
        check(p.returncode == 1 and "too short for the exponents" in p.stderr and
              "give at least" in p.stderr and not os.path.exists(out),
              "a Lyapunov span of %s s refused, naming the bound, nothing written" % T, p)
    # a long duration with a short interval: the interval is named
    p = run(tmp, [FIO_SIM, "--t-end", "1e-7", "--lyapunov", "--lyapunov-interval", "1e-14",
                  "--lyapunov-out", out])
    print("  --t-end 1e-7 --lyapunov-interval 1e-14 -> %d  %s" % (p.returncode, last_line(p)[-150:]))
    check(p.returncode == 1 and "interval 1e-14 s is too short" in p.stderr and
          not os.path.exists(out), "an interval of 1e-14 s refused, naming the interval", p)
    # at and above the bound (8.9e-11 s for the fastest rate 2.5 1/s, the
    # forcing's), before the first impact (the stop is met after 1.6 s):
    # the exponents sum to the trace of the free flight's Jacobian
    for m in (1.0, 4.0):
        want = -2 * 0.05 * math.sqrt(1.0 / m)
        for T in ("1e-10", "1e-9", "1e-6", "0.5"):
            p = run(tmp, [FIO_SIM, "--set", "m=%g" % m, "--t-end", T, "--lyapunov",
                          "--lyapunov-interval", T, "--lyapunov-out", out, "--every", "0"])
            lam = [r[1] for r in csv_rows(out)] if p.returncode == 0 else []
            print("  m = %g, --t-end %s -> %d  exponents %s, sum %.12g (-c/m = %.12g)"
                  % (m, T, p.returncode, lam, sum(lam), want))
            check(p.returncode == 0 and len(lam) == 2 and abs(sum(lam) - want) < 1e-6 * abs(want),
                  "over %s s the exponents sum to -c/m = %g within 1e-6 of it" % (T, want), p)
            os.remove(out)
    python_script(tmp, "lyap.py", PY_EXPECT + """
import sys, nsm
m = nsm.compile(sys.argv[1])
for du, iv in ((1e-300, 1e-300), (1e-15, 1e-15), (1e-7, 1e-14), (1e-12, 1.0)):
    expect("lyapunov(%g, %g)" % (du, iv), lambda: m.lyapunov(du, iv), ("SettingError",))
    try:
        m.lyapunov(du, iv)
    except nsm.SettingError as e:
        assert "too short for the exponents" in str(e), str(e)
for du in (1e-10, 1e-6, 0.5):
    lam = m.lyapunov(du, du)
    print("lyapunov(%g): %r, sum %.12g" % (du, list(lam), sum(lam)))
    assert abs(sum(lam) + 0.1) < 1e-7, lam
""", [FIO], "Lyapunov spans too short refused by Python, -c/m above the bound")



# ---- flushfail ------------------------------------------------------------

def case_flushfail(tmp):
    """A failed write of the outputs' writer thread stops the run."""
    why = os.strerror(errno.EFBIG)
    for opt in (["--events", "f.csv"], ["--section", "impact:floor", "--section-out", "f.csv"]):
        path = os.path.join(tmp, "f.csv")
        if os.path.exists(path):
            os.remove(path)
        cmd = [SIM, "--t-end", "1e5", "--every", "1e5", "--out", "tr.csv"] + opt
        t0 = time.monotonic()
        pr = subprocess.Popen(cmd, cwd=tmp, env=env_for(tmp), stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True, preexec_fn=limit(600))
        try:
            err = pr.communicate(timeout=15)[1]
        except subprocess.TimeoutExpired:
            pr.kill()
            err = pr.communicate()[1]
            print("  %s under a 600-byte limit -> still running after 15 s (killed)"
                  % " ".join(opt))
            check(False, "%s: the writer thread's failed write stops the run" % " ".join(opt))
        took = time.monotonic() - t0
        with open(path) as f:
            text = f.read()
        lines = text.splitlines()
        print("  %s under a 600-byte limit -> %d after %.2f s  %s; %d bytes, %d lines"
              % (" ".join(opt), pr.returncode, took, err.strip().splitlines()[-1][:150],
                 len(text), len(lines)))
        check(pr.returncode == 3 and took < 10 and why in err and "'f.csv'" in err,
              "%s: exit 3 within seconds, naming f.csv and '%s'" % (" ".join(opt), why))
        first = float(lines[1].split(",")[0])
        check(text.endswith("\n") and abs(first - math.sqrt(2 * H / G)) < 1e-9,
              "f.csv is whole lines, its first record the landing at sqrt(2 h/g)")



# ---- finalsample ----------------------------------------------------------

def ball_at(t, e=0.9):
    """The ball's (x, v) at t between its first landing and its second, by
    hand: it lands at t0 = sqrt(2 h/g) at sqrt(2 g h) and leaves at e times
    that speed."""
    t0 = math.sqrt(2 * H / G)
    v0 = e * math.sqrt(2 * G * H)
    s = t - t0
    return v0 * s - G * s * s / 2, v0 - G * s


def case_finalsample(tmp):
    """The trajectory ends at t_end whatever the sampling period."""
    import h5py
    for meth in ("rk4", "exact"):
        for every, times in (("0.3", [0, 0.3, 0.6, 0.9, 1.0]), ("0.25", [0, 0.25, 0.5, 0.75, 1.0]),
                             ("0.7", [0, 0.7, 1.0])):
            out = os.path.join(tmp, "tr.csv")
            p = run(tmp, [SIM, "--method", meth, "--every", every, "--t-end", "1", "--out", out,
                          "--events", "ev.csv"])
            rows = csv_rows(out)
            got = [r[0] for r in rows]
            x, v = ball_at(1.0)
            print("  --method %s --every %s --t-end 1 -> %d  rows at %s; last x %.15g v %.15g "
                  "(by hand %.15g, %.15g)" % (meth, every, p.returncode, got, rows[-1][1],
                                              rows[-1][2], x, v))
            check(p.returncode == 0 and len(got) == len(times) and
                  all(abs(a - b) < 1e-12 for a, b in zip(got, times)),
                  "%s, every %s: rows at %s (the last at t_end = 1 s)" % (meth, every, times), p)
            check(abs(rows[-1][1] - x) < 1e-9 and abs(rows[-1][2] - v) < 1e-9,
                  "the last row is the state at t_end by hand")
            h5 = os.path.join(tmp, "tr.h5")
            p = run(tmp, [SIM, "--method", meth, "--every", every, "--t-end", "1", "--out", h5])
            with h5py.File(h5, "r") as f:
                tr = f["trajectory"][()]
            print("    HDF5: %d rows, the last at t = %r" % (tr.shape[0], tr[-1, 0]))
            check(p.returncode == 0 and tr.shape[0] == len(times) and tr[-1, 0] == 1.0 and
                  abs(tr[-1, 1] - x) < 1e-9, "the HDF5 trajectory ends at t_end too", p)
            python_script(tmp, "fin.py", """
import sys, nsm, h5py, numpy as np
m = nsm.compile(sys.argv[1])
r = m.run(t_end=1, every=%s, method=%r)
with h5py.File(sys.argv[2], "r") as f:
    tr = f["trajectory"][()]
print("    Python: %%d samples, the last at t = %%r" %% (len(r.t), r.t[-1]))
assert len(r.t) == tr.shape[0] and r.t[-1] == 1.0, (r.t, tr[:, 0])
assert np.array_equal(r.t, tr[:, 0]) and np.array_equal(r["B.x"], tr[:, 1]), "not the same bits"
""" % (every, meth), [BALL, h5], "Python's run ends at t_end, the same bits as the HDF5 file")


if __name__ == "__main__":
    sys.exit(main({n[5:]: f for n, f in globals().items() if n.startswith("case_")},
                  "nsm-left24-", 5))
