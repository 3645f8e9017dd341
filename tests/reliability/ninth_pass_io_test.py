#!/usr/bin/env python3
"""A ninth hostile pass over the I/O surfaces (issue #29): the simulators'
outputs that are written once the run is over, HDF5 files left by killed
runs, names of any length through sections, sweeps and HDF5, sweeps
stopped at random moments and resumed in the same folder, figures without
gnuplot, and the run loop's stop whatever the step, by inputs the first
eight passes did not try.

    tests/reliability/ninth_pass_io_test.py NSMC SIM FIO_SIM SOURCE_DIR CASE SIMS_DIR

Cases (each under 20 s in the normal build):
  findings   what the pass found, each failing before its fix: `--lyapunov-out`
             onto a device node, a FIFO or a symbolic link replaced the node
             or the link by a regular file (run as root, `--lyapunov-out
             /dev/null` replaced the system's /dev/null), and onto a folder,
             a missing folder or a link to nothing failed after the whole run
             (exit 3, the other outputs written); an HDF5 partial file left by
             a killed run whose process id the next run has (another PID
             namespace, a recycled id) was truncated by it, without a note; a
             section on a gap whose name is longer than 255 characters was
             refused ("a field is too long"), and a 3000-character one left a
             message cut before its reason; the section's columns of a body
             with a long name were cut to 159 characters (the simulator's
             section CSV, /section in HDF5, nsmc sweep's section.csv and
             nsmc continue's branch.csv), and `nsmc sweep --plot` of such a
             body was "not a column"; `nsmc sweep --set` of a long parameter
             name said "--set needs NAME=VALUE".
  h5kill     SIGKILL at 12 seeded random moments of runs writing HDF5 (events,
             sections, friction, bodies in space): every partial file read
             back by h5py, times increasing from 0, finite rows, no event
             after the last row; the next run keeps the newest as
             FILE.h5.partial.prev.
  sweeps     SIGKILL, SIGTERM and SIGINT at seeded random moments of sweeps on
             one and two jobs: whole lines, every point of the partial summary
             with exactly its records in the partial section, exit 128 + N (or
             killed); the next sweep into the folder keeps them as
             `.partial.prev` with their rows named, and runs.
  stops      SIGTERM 0.5 s into runs of tiny steps under every kind of model
             and method (bodies in space at 1e-9 s steps, taylor and adaptive
             on stiff nonlinear springs, 20 beads, 3-D friction, a Zeno ball
             without its limit): stopped within 5 s, exit 143, whole CSV and
             the HDF5 file marked stopped.
  plots      gnuplot missing from PATH: the simulator's --plot, `nsmc run` and
             `nsmc sweep` say so and exit 0 with their data whole, no figure
             of an earlier run left beside it.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import csv
import glob
import os
import random
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import (SANITIZED, Failure, check, env_for, main, no_gnuplot_path,  # noqa: E402
                     pass_paths, run, sim, stop_after, whole_figure, whole_lines)

NSMC, SIM, FIO_SIM, SRC, SIMS, MODELS = pass_paths()
FIO = os.path.join(MODELS, "forced_impact_oscillator.nsm")
SLOW = 3 if SANITIZED else 1


def lyap(tmp, out, extra=()):
    """The impact oscillator's Lyapunov spectrum over 50 s into out."""
    return run(tmp, [FIO_SIM, "--lyapunov", "--t-end", "50", "--lyapunov-out", out] +
               list(extra), timeout=120)


def spectrum(text):
    """The exponents of a Lyapunov CSV text, checked for its header."""
    lines = text.splitlines()
    if not lines or lines[0] != "exponent,lambda [1/s]":
        raise Failure("not a Lyapunov spectrum: %r" % text[:200])
    return [float(ln.split(",")[1]) for ln in lines[1:]]


# ---- findings ---------------------------------------------------------------

def lyap_nodes(tmp):
    """--lyapunov-out onto what is not a plain new file: written through, or
    refused before the run."""
    node = os.path.join(tmp, "null")
    os.mknod(node, 0o666 | 0o020000, os.makedev(1, 3))     # a copy of /dev/null
    p = lyap(tmp, "null")
    check(p.returncode == 0 and os.path.exists(node) and
          os.stat(node).st_mode & 0o170000 == 0o020000,
          "--lyapunov-out onto a character device (1, 3): written into it, the node stays "
          "(it was replaced by a regular file: /dev/null itself, run as root)", p)
    with open(os.path.join(tmp, "target.csv"), "w") as f:
        f.write("an earlier file\n")
    os.symlink("target.csv", os.path.join(tmp, "link.csv"))
    p = lyap(tmp, "link.csv")
    lam = spectrum(open(os.path.join(tmp, "target.csv")).read())
    check(p.returncode == 0 and os.path.islink(os.path.join(tmp, "link.csv")) and len(lam) == 2,
          "--lyapunov-out onto a symbolic link: its target replaced, the link stays (the link "
          "was replaced by a file, the target left as it was): %r" % lam, p)
    check(all(-1 < v < 0 for v in lam) and abs(lam[0] - lam[1]) < 0.1,
          "the oscillator's exponents, damped and forced, negative and close: %r" % lam)
    fifo = os.path.join(tmp, "ff")
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", fifo], stdout=subprocess.PIPE, text=True)
    p = lyap(tmp, "ff")
    got = reader.communicate(timeout=60)[0]
    check(p.returncode == 0 and os.stat(fifo).st_mode & 0o170000 == 0o010000 and
          spectrum(got) == lam,
          "--lyapunov-out onto a FIFO: its reader gets the spectrum, the FIFO stays (it was "
          "replaced by a file, the reader got nothing)", p)
    os.mkdir(os.path.join(tmp, "adir"))
    os.symlink("nothing", os.path.join(tmp, "dangling.csv"))
    for out, why in (("adir", "Is a directory"), ("nodir/x.csv", "No such file or directory"),
                     ("dangling.csv", "a symbolic link to nothing"),
                     ("target.csv/x", "Not a directory")):
        p = lyap(tmp, out, ["--out", "o.csv", "--events", "e.csv"])
        check(p.returncode == 1 and "cannot write '%s': %s" % (out, why) in p.stderr and
              not os.path.exists(os.path.join(tmp, "o.csv")) and
              not os.path.exists(os.path.join(tmp, "e.csv")),
              "--lyapunov-out %s: exit 1 before the run, nothing written (it failed after "
              "the whole run, exit 3, the other outputs written)" % out, p)
    p = lyap(tmp, "new.csv", ["--out", "o.csv"])
    check(p.returncode == 0 and spectrum(open(os.path.join(tmp, "new.csv")).read()) == lam and
          not [f for f in os.listdir(tmp) if ".tmp" in f],
          "--lyapunov-out onto a new file: the spectrum, no temporary left", p)


def h5_same_pid(tmp):
    """A partial HDF5 file whose process id is the next run's: kept, not
    truncated (a killed run in another PID namespace, where the simulator
    is process 1 again)."""
    if shutil.which("unshare") is None or os.geteuid() != 0:
        print("  (no unshare or not root: the PID-namespace case is not run here)")
        return
    ball = sim("bouncing_ball")
    p = run(tmp, [ball, "--out", "earlier.h5", "--t-end", "3"])
    check(p.returncode == 0, "an earlier run's HDF5 file", p)
    data = open(os.path.join(tmp, "earlier.h5"), "rb").read()
    with open(os.path.join(tmp, "x.h5.1.partial"), "wb") as f:
        f.write(data)
    p = run(tmp, ["unshare", "--pid", "--fork", "--mount-proc", ball, "--out", "x.h5",
                  "--t-end", "1"])
    if "Operation not permitted" in p.stderr or p.returncode == 1 and "unshare:" in p.stderr:
        print("  (unshare --pid is not permitted here: the case is not run)")
        return
    prev = os.path.join(tmp, "x.h5.partial.prev")
    check(p.returncode == 0 and os.path.exists(prev) and open(prev, "rb").read() == data and
          "kept as '%s'" % "x.h5.partial.prev" in p.stderr and
          not os.path.exists(os.path.join(tmp, "x.h5.1.partial")),
          "a run that is process 1 beside x.h5.1.partial of a killed process 1: the file kept "
          "whole as x.h5.partial.prev, said (it was truncated and written over)", p)


LONG_MODEL = '''model longnames "names of any length"
param w = 1.2 rad/s
param F0 = 0.5 N
param {p} = 1 N/m
mass {b} = 1 kg
spring ground -- {b}, k = {p}
force Fx: on {b} = F0*cos(w*t)
gap {g}: {b}.x >= -0.5, impact(e = 0.5)
init {b}.x = 1 m
simulate t_end = 30 s, dt = 1 ms, method = rk4
'''


def long_names(tmp):
    """A section on a gap of a 3000-character name, HDF5 of such names,
    and sweep's --set of a long parameter name."""
    import h5py
    g, b, pn = "G" + "x" * 2999, "B" + "y" * 1999, "k" + "z" * 1999
    path = os.path.join(tmp, "longnames.nsm")
    with open(path, "w") as f:
        f.write(LONG_MODEL.format(g=g, b=b, p=pn))
    p = run(tmp, [NSMC, "run", path, "--no-plot", "-q", "--out-dir", "ln", "--",
                  "--section", "impact:" + g, "--section-out", "s.csv", "--out", "x.h5"],
            timeout=300)
    rows = whole_lines(os.path.join(tmp, "s.csv")) if os.path.exists(
        os.path.join(tmp, "s.csv")) else -1
    check(p.returncode == 0 and rows > 0,
          "a section on a gap of a 3000-character name: %d records (refused, 'a field is too "
          "long')" % rows, p)
    with h5py.File(os.path.join(tmp, "x.h5"), "r") as f:
        cols = [c.decode() if isinstance(c, bytes) else c for c in f["trajectory"].attrs["columns"]]
        ev = f["events"][()]
        secn = f["section"].shape[0]
        seccols = [c.decode() if isinstance(c, bytes) else c
                   for c in f["section"].attrs["columns"]]
        contact = ev[0]["contact"]
        contact = contact.decode() if isinstance(contact, bytes) else contact
    check(cols[1] == b + ".x" and contact == g and secn == rows,
          "HDF5: the 2002-character column, the 3000-character contact of every event, the "
          "section's %d records, whole" % secn)
    with open(os.path.join(tmp, "s.csv")) as f:
        head = f.readline().rstrip("\n")
    check(seccols == ["t", "phase", b + ".x", b + ".v"] and
          head == "t [s],phase,%s.x [m],%s.v [m/s]" % (b, b),
          "the section's columns of a 2000-character body, whole in /section and section.csv "
          "(both were cut to 159 characters: %r)" % [len(c) for c in seccols])
    sims = glob.glob(os.path.join(tmp, "cache", "nsm", "longnames-*", "longnames"))
    p = run(tmp, [sims[0], "--section", "impact:" + g + "zz", "--out", "/dev/null"])
    err = p.stderr.strip().splitlines()[0] if p.stderr.strip() else ""
    check(p.returncode == 1 and err.endswith(": a field is too long") and
          "(3009 characters)" in err and len(err) < 200,
          "a section on no gap, 3009 characters: the message quotes its start and length and "
          "ends with its reason (it was cut before the reason)", p)
    p = run(tmp, [NSMC, "sweep", path, "--param", "w=1:2:3", "--section", "impact:" + g,
                  "--transient", "2", "--record", "2", "--out-dir", "sw", "--set", pn + "=2"],
            timeout=300)
    check(p.returncode in (0, 3) and "longer than" not in p.stderr and
          "needs NAME=VALUE" not in p.stderr,
          "nsmc sweep --set of a 2000-character name: taken, no name limit (it said '--set "
          "needs NAME=VALUE', then named a limit of 126 characters)", p)
    p = run(tmp, [NSMC, "sweep", path, "--param", "w=1:2:3", "--section", "impact:" + g,
                  "--transient", "2", "--record", "2", "--out-dir", "sw", "--plot", b + ".v"],
            timeout=300)
    with open(os.path.join(tmp, "sw", "section.csv")) as f:
        head = f.readline().rstrip("\n")
    check(p.returncode in (0, 3) and "not a column" not in p.stderr and
          head == "w [rad/s],t [s],phase,%s.x [m],%s.v [m/s]" % (b, b),
          "nsmc sweep on the 3000-character gap, --plot of the 2000-character body's speed: "
          "taken, the section's columns whole (cut to 159 characters, and the --plot column "
          "'not a column')", p)


def case_findings(tmp):
    """Each finding of the pass, a check that failed before its fix."""
    lyap_nodes(tmp)
    h5_same_pid(tmp)
    long_names(tmp)


# ---- h5kill -----------------------------------------------------------------

H5_RUNS = [("bouncing_ball", []), ("coulomb_oscillator", []), ("disc_corner", []),
           ("free_top", []), ("belt_friction", []),
           ("forced_impact_oscillator", ["--section", "impact:stop"])]


def h5_read(path):
    """The trajectory and event times of an HDF5 file, each dataset read."""
    import h5py
    import numpy as np
    with h5py.File(path, "r") as f:
        names = []
        f.visit(names.append)
        for n in names:
            if isinstance(f[n], h5py.Dataset):
                f[n][()]
        tr = f["trajectory"][()]
        ev = [float(e["t"]) for e in f["events"][()]]
    t = tr[:, 0]
    if len(t) == 0:     # killed before its first flush: readable and empty
        return not ev, 0, len(ev)
    why = [w for w, bad in (("the first time is not 0", t[0] != 0),
                            ("times not increasing", not np.all(np.diff(t) > 0)),
                            ("a row not finite", not np.all(np.isfinite(tr))),
                            ("an event after the last row (%s > %s)"
                             % (max(ev) if ev else None, t[-1]),
                             any(e > t[-1] + 1e-3 for e in ev))) if bad]
    if why:
        print("    " + "; ".join(why))
    return not why, len(t), len(ev)


def case_h5kill(tmp):
    """SIGKILL at seeded random moments of HDF5 runs: every partial file read
    back whole up to its last flush; the next run keeps the newest."""
    rnd = random.Random(2909)
    n = with_rows = 0
    for name, extra in H5_RUNS * 2:
        for f in glob.glob(os.path.join(tmp, "x.h5*")):
            os.unlink(f)
        delay = rnd.uniform(0.1, 1.0) * SLOW
        pr = subprocess.Popen([sim(name), "--out", "x.h5", "--t-end", "1e4", "--every", "1e-3"]
                              + extra, cwd=tmp, env=env_for(tmp), stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
        time.sleep(delay)
        pr.kill()
        pr.wait()
        parts = glob.glob(os.path.join(tmp, "x.h5.*.partial"))
        ok, rows, evs = h5_read(parts[0]) if len(parts) == 1 else (False, 0, 0)
        print("  %-26s SIGKILL after %.2f s: %s, %d rows, %d events" %
              (name, delay, os.path.basename(parts[0]) if parts else "nothing", rows, evs))
        check(ok, "%s killed: one partial file, read whole (times from 0 up, finite, no event "
              "after the last row)" % name)
        n += 1
        with_rows += rows > 0
    check(with_rows > 0, "a killed run's partial file holds the rows flushed before the kill "
          "(%d of %d killed runs had rows)" % (with_rows, n))
    p = run(tmp, [sim("bouncing_ball"), "--out", "x.h5", "--t-end", "1"])
    check(p.returncode == 0 and h5_read(os.path.join(tmp, "x.h5.partial.prev"))[0] and
          "kept as" in p.stderr, "the next run keeps the killed run's file as "
          "x.h5.partial.prev and says so", p)
    print("%d killed runs read back" % n)


# ---- sweeps -----------------------------------------------------------------

def partial_consistent(folder, killed=False):
    """Whole lines, and every point of summary.csv.partial with exactly its
    records in section.csv.partial; the number of points.  A point's rows
    are written before its summary row (under the sweep's lock, one point
    at a time), so a SIGKILL (killed) between the two writes may leave one
    point's rows without its summary row; nothing else may."""
    summ = os.path.join(folder, "summary.csv.partial")
    sec = os.path.join(folder, "section.csv.partial")
    if not os.path.exists(summ):
        return 0
    whole_lines(summ)
    if os.path.exists(sec):
        whole_lines(sec)
    pts = list(csv.reader(open(summ)))[1:]
    rows = list(csv.reader(open(sec)))[1:] if os.path.exists(sec) else []
    count = {}
    for r in rows:
        count[r[0]] = count.get(r[0], 0) + 1
    for r in pts:
        if count.get(r[0], 0) != int(r[2] or 0):
            raise Failure("point %s: %d rows in section.csv.partial, its summary says %s"
                          % (r[0], count.get(r[0], 0), r[2]))
    orphans = set(count) - set(r[0] for r in pts)
    if len(orphans) > (1 if killed else 0):
        raise Failure("section rows of %d points with no summary row" % len(orphans))
    return len(pts)


def first_point(pr, folder, timeout=120):
    """Waits until the sweep pr has written a finished point (a whole row
    after summary.csv.partial's header): the signal must come after one,
    whatever the machine's load (a fixed 0.5 s was sometimes before the
    first point on a loaded machine, and the check of the kept points
    failed though the sweep kept all it had).  Raises Failure when the
    sweep ends or stays without one."""
    summ = os.path.join(folder, "summary.csv.partial")
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pr.poll() is not None:
            raise Failure("the sweep ended (exit %d) before its first point" % pr.returncode)
        try:
            with open(summ, "rb") as f:
                if f.read().count(b"\n") >= 2:
                    return
        except FileNotFoundError:
            pass
        time.sleep(0.005)
    pr.kill()
    raise Failure("no point finished within %d s" % timeout)


def case_sweeps(tmp):
    """Sweeps stopped at seeded random moments after their first point, then
    resumed in the folder."""
    rnd = random.Random(929)
    big = [NSMC, "sweep", FIO, "--param", "omega=1:4:40000", "--section", "impact:stop",
           "--transient", "100", "--record", "16", "--out-dir", "o"]
    small = [NSMC, "sweep", FIO, "--param", "omega=1:2:3", "--section", "impact:stop",
             "--transient", "2", "--record", "2", "--out-dir", "o"]
    p = run(tmp, small[:-1] + ["warm"], timeout=300)
    check(p.returncode == 0, "the sweep program is built", p)
    for jobs in ("1", "2"):
        for sig in (signal.SIGKILL, signal.SIGTERM, signal.SIGINT):
            shutil.rmtree(os.path.join(tmp, "o"), ignore_errors=True)
            delay = rnd.uniform(0.0, 1.5) * SLOW
            pr = subprocess.Popen(big + ["--jobs", jobs], cwd=tmp, env=env_for(tmp),
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            first_point(pr, os.path.join(tmp, "o"))
            err = stop_after(pr, sig, delay, "a sweep")
            pts = partial_consistent(os.path.join(tmp, "o"), sig == signal.SIGKILL)
            print("  %s jobs, %s %.2f s after the first point: exit %d, %d points kept" %
                  (jobs, sig.name, delay, pr.returncode, pts))
            want = -9 if sig == signal.SIGKILL else 128 + sig
            check(pr.returncode == want and pts > 0 and
                  (sig == signal.SIGKILL or "%d of 40000 points finished" % pts in err),
                  "sweep on %s jobs stopped by %s: exit %d, %d whole, consistent points kept"
                  % (jobs, sig.name, want, pts))
            p = run(tmp, small, timeout=120)
            check(p.returncode == 0 and "(%d rows after its header): kept as" % pts in p.stderr
                  and partial_consistent(os.path.join(tmp, "o")) == 0 and
                  whole_lines(os.path.join(tmp, "o", "summary.csv.partial.prev")) == pts and
                  whole_lines(os.path.join(tmp, "o", "summary.csv")) == 3,
                  "the next sweep keeps the %d points as .partial.prev, says so, and runs" % pts,
                  p)


# ---- stops ------------------------------------------------------------------

STOP_RUNS = [("free_top", ["--dt", "1e-9"]), ("super_ball_3d", ["--dt", "1e-10"]),
             ("duffing_stop", ["--method", "taylor", "--set", "alpha=1e20"]),
             ("duffing_stop", ["--method", "adaptive", "--set", "alpha=1e24"]),
             ("double_pendulum", ["--method", "rk4", "--dt", "1e-9"]),
             ("cradle20", ["--dt", "1e-10"]), ("zeno_ball", ["--no-zeno"]),
             ("sprung_table", ["--method", "exact", "--dt", "1e-10"]),
             ("beads", ["--dt", "1e-9"])]


def case_stops(tmp):
    """SIGTERM into runs of tiny steps: each stops within 5 s, files whole."""
    import h5py
    for name, extra in STOP_RUNS:
        for f in glob.glob(os.path.join(tmp, "b.*")):
            os.unlink(f)
        pr = subprocess.Popen([sim(name), "--out", "b.csv", "--out", "b.h5", "--t-end", "1e4",
                               "--max-steps", "1e16", "--every", "1"] + extra, cwd=tmp,
                              env=env_for(tmp), stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
        time.sleep(0.5 * SLOW)
        check(pr.poll() is None, "%s %s runs" % (name, " ".join(extra)))
        t0 = time.monotonic()
        stop_after(pr, signal.SIGTERM, 0, name, 30)
        took = time.monotonic() - t0
        rows = whole_lines(os.path.join(tmp, "b.csv"))
        with h5py.File(os.path.join(tmp, "b.h5"), "r") as f:
            status, hrows = int(f["run"].attrs["status"]), f["trajectory"].shape[0]
        print("  %-16s %-32s stopped %.2f s after SIGTERM: exit %d, %d rows, status %d"
              % (name, " ".join(extra), took, pr.returncode, rows, status))
        check(pr.returncode == 143 and took < 5 * SLOW and status == 8 and hrows == rows,
              "%s: exit 143 within 5 s, whole lines, HDF5 marked stopped" % name)


# ---- plots ------------------------------------------------------------------

def case_plots(tmp):
    """gnuplot missing from PATH: a note and whole data, no earlier figure
    left (simulator, nsmc run, sweep)."""
    path = no_gnuplot_path(tmp)
    p = run(tmp, [FIO_SIM, "--plot", "pl", "--t-end", "20"])
    check(p.returncode == 0 and whole_figure(os.path.join(tmp, "pl", "plot.png")),
          "the simulator's plots with gnuplot", p)
    p = run(tmp, [FIO_SIM, "--plot", "pl", "--t-end", "20"], env={"PATH": path})
    check(p.returncode == 0 and "gnuplot is not installed" in p.stderr and
          whole_lines(os.path.join(tmp, "pl", "trajectory.csv")) > 0 and
          not os.path.exists(os.path.join(tmp, "pl", "plot.png")),
          "--plot without gnuplot: exit 0, a note, the data whole, no figure of the earlier "
          "run left beside it", p)
    p = run(tmp, [NSMC, "run", FIO, "--out-dir", "r", "--", "--t-end", "20"], timeout=300,
            env={"PATH": path})
    check(p.returncode == 0 and "gnuplot is not installed" in p.stdout and
          whole_lines(os.path.join(tmp, "r", "trajectory.csv")) > 0,
          "nsmc run without gnuplot: exit 0, a note, the data whole", p)
    sweep = [NSMC, "sweep", FIO, "--section", "impact:stop", "--transient", "2", "--record",
             "2", "--out-dir", "sw"]
    p = run(tmp, sweep + ["--param", "omega=1:2:3"], timeout=300)
    check(p.returncode == 0, "a sweep with its figures", p)
    figs = {f: open(os.path.join(tmp, "sw", f), "rb").read() for f in
            ("bifurcation.png", "bifurcation.svg")}
    p = run(tmp, sweep + ["--param", "omega=1:2:4"], timeout=300, env={"PATH": path})
    check(p.returncode == 0 and "gnuplot is not installed" in p.stderr and
          whole_lines(os.path.join(tmp, "sw", "summary.csv")) == 4 and len(figs) == 2 and
          not [f for f in figs if os.path.exists(os.path.join(tmp, "sw", f))] and
          not [f for f in os.listdir(os.path.join(tmp, "sw")) if "tmp" in f or "partial" in f],
          "nsmc sweep without gnuplot: exit 0 and a note, as the simulator, the new results "
          "whole, the earlier figures removed (status.md: figures without gnuplot), no "
          "temporary", p)


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-ninth-io-"))
