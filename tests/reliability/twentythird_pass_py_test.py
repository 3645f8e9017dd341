#!/usr/bin/env python3
"""A twenty-third hostile pass over the generated simulators' command line
and outputs and the Python package (issue #29).

    tests/reliability/twentythird_pass_py_test.py NSMC SIM SOURCE_DIR CASE

SIM is sim_bouncing_ball (sim_forced_impact_oscillator stands beside it).
Cases (each under 20 s in the normal build):
  findings_lyapbusy  the simulator's --lyapunov-out naming a file another
                   running simulator writes: its --events CSV was replaced by
                   the spectrum (13542 bytes of events left as 64 bytes,
                   both runs exit 0); its HDF5 file's name took the spectrum,
                   which that simulator's finished file then replaced (exit
                   0, the spectrum gone); and a file another simulator began
                   to write during the run was replaced at its end.  The
                   spectrum is written at the end through a temporary renamed
                   over the path, which no lock stopped, where every other
                   output is refused as in use.  Now refused: exit 1 before
                   the run, or exit 3 at its end, naming the file as in use
                   by another running program; the other run's file intact.
  findings_animbusy  the simulator's --animate naming another running
                   simulator's output: its event log named a.gif was
                   replaced by the GIF (13531 bytes of events gone, both runs
                   exit 0), and its trajectory named b.gp by the animation's
                   script, written in place.  Now refused before the run
                   (exit 1) and again when the GIF is drawn, naming the file
                   in use; the other run's files intact.
  kept_stops       the output writer thread against the stop signals:
                   SIGINT, SIGTERM and SIGHUP at several moments of runs
                   whose callbacks come rarely or at every step, with every
                   output at once (trajectory CSV and HDF5, events, section):
                   exit 128 + N, whole lines, the HDF5 file in place and
                   readable, the landing at sqrt(2 h/g); SIGKILL at several
                   moments: whole lines and a readable HDF5 temporary.
  kept_outputs     outputs that are folders, devices, links, FIFOs, names of
                   255 bytes and of any bytes, --out - and --out=-x.csv,
                   options twice and flags with values: refused with a
                   message naming the cause, or written whole.
  kept_py          Model.run reused across parameter and init changes (the
                   landings by hand, nothing carried over), runs from
                   threads giving the bits of serial runs, Ctrl-C keeping a
                   partial result whose free fall is the closed form, and
                   the simulator's section CSV equal to Model.section's.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import glob
import math
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import (check, env_for, main, python_script,  # noqa: E402
                     run, wait_until)

NSMC, SIM = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
SRC = os.path.abspath(sys.argv[3])
FIO = os.path.join(os.path.dirname(SIM), "sim_forced_impact_oscillator")
BALL = os.path.join(SRC, "models", "bouncing_ball.nsm")
FIO_MODEL = os.path.join(SRC, "models", "forced_impact_oscillator.nsm")

# the ball of models/bouncing_ball.nsm (m = 1 kg, g = 9.81 m/s^2, e = 0.9)
# dropped from 1 m lands at t0 = sqrt(2 h/g); each later flight is e times
# the one before, so the cascade ends at t0 (1 + e)/(1 - e) (by hand)
G, H, E = 9.81, 1.0, 0.9
T_LAND = math.sqrt(2 * H / G)
T_ZENO = T_LAND * (1 + E) / (1 - E)


def csv_rows(path):
    """The whole lines of a CSV file; fails when it ends inside a line."""
    with open(path, "rb") as f:
        data = f.read()
    check(not data or data.endswith(b"\n"), "%s ends at a line end (%d bytes)"
          % (os.path.basename(path), len(data)))
    return data.decode(errors="replace").splitlines()


def clean(tmp):
    """Removes the files a check left in tmp (not the program cache)."""
    for f in os.listdir(tmp):
        p = os.path.join(tmp, f)
        if f != "cache" and (os.path.isfile(p) or os.path.islink(p)):
            os.unlink(p)


def ball_writer(tmp, outs):
    """Starts the ball for 1e5 s sampled every 1e5 s (its 134 events in the
    first milliseconds, then quiet) writing outs; the process, once its
    event log holds the landing (the writer thread writes it within 0.25 s)."""
    pr = subprocess.Popen([SIM, "--t-end", "1e5", "--every", "1e5", "--max-steps", "2e8"] + outs,
                          cwd=tmp, env=env_for(tmp), stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    ev = os.path.join(tmp, "ev.csv")
    check(wait_until(pr, lambda: os.path.exists(ev) and os.path.getsize(ev) > 1000, 10),
          "the writer's event log holds its events")
    return pr


def writer_stop(pr):
    """Stops a ball_writer with SIGINT; its exit status."""
    pr.send_signal(signal.SIGINT)
    pr.communicate(timeout=60)
    return pr.returncode


def events_whole(tmp, label, name="ev.csv"):
    """The writer's event log (name) still holds its own events: the
    landing first."""
    rows = csv_rows(os.path.join(tmp, name))
    first = rows[1].split(",") if len(rows) > 1 else ["nan", ""]
    check(rows[0].startswith("t,kind") and first[1] == "impact" and
          abs(float(first[0]) - T_LAND) < 1e-9 and len(rows) > 100,
          "%s: the other run's events.csv is its own (%d lines, the landing at %.9f s)"
          % (label, len(rows), T_LAND))


def case_findings_lyapbusy(tmp):
    import h5py
    # 1. a CSV another simulator writes, named as the spectrum's file
    pr = ball_writer(tmp, ["--events", "ev.csv", "--out", "r.h5"])
    before = os.path.getsize(os.path.join(tmp, "ev.csv"))
    p = run(tmp, [FIO, "--t-end", "20", "--lyapunov", "--lyapunov-out", "ev.csv"])
    print("  --lyapunov-out ev.csv (another run's event log) -> %d  %s"
          % (p.returncode, p.stderr.strip()[:140]))
    check(p.returncode == 1 and "in use by another running program" in p.stderr and
          "ev.csv" in p.stderr, "refused before the run (exit 1), naming ev.csv as in use", p)
    check(os.path.getsize(os.path.join(tmp, "ev.csv")) == before,
          "the other run's event log untouched (%d bytes)" % before)
    # 2. the HDF5 file another simulator writes (its temporary beside it)
    p = run(tmp, [FIO, "--t-end", "20", "--lyapunov", "--lyapunov-out", "r.h5"])
    print("  --lyapunov-out r.h5 (another run's HDF5 file) -> %d  %s"
          % (p.returncode, p.stderr.strip()[:140]))
    check(p.returncode == 1 and "in use by another running program" in p.stderr and
          not os.path.exists(os.path.join(tmp, "r.h5")),
          "refused before the run (exit 1), no r.h5 written", p)
    rc = writer_stop(pr)
    events_whole(tmp, "after two refusals")
    with h5py.File(os.path.join(tmp, "r.h5"), "r") as f:
        evs = f["events"][:]
    check(rc == 130 and abs(evs[0]["t"] - T_LAND) < 1e-9,
          "the other run stopped by SIGINT (130), its r.h5 an HDF5 file with the landing")
    # 3. a file another simulator begins to write while the spectrum is
    # computed: the spectrum's end finds it in use (the spectrum's run held
    # at its start by its statistics, a FIFO without a reader, until the
    # other run writes)
    clean(tmp)
    fifo = os.path.join(tmp, "tr.fifo")
    os.mkfifo(fifo)
    lp = subprocess.Popen([FIO, "--t-end", "20", "--lyapunov", "--lyapunov-out", "ev.csv",
                           "--events", "/dev/null", "--out", "lo.csv", "--stats", "tr.fifo"],
                          cwd=tmp,
                          env=env_for(tmp), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True)
    # its trajectory, opened before the FIFO, says it is past its checks
    check(wait_until(lp, lambda: os.path.exists(os.path.join(tmp, "lo.csv")), 30),
          "the spectrum's run has opened its trajectory")
    pr = ball_writer(tmp, ["--events", "ev.csv"])
    check(lp.poll() is None, "the spectrum's run waits for its FIFO's reader")
    rd = subprocess.Popen(["cat", fifo], stdout=subprocess.DEVNULL)
    err = lp.communicate(timeout=120)[1]
    rd.wait(timeout=60)
    print("  --lyapunov-out ev.csv, another run began to write it -> %d  %s"
          % (lp.returncode, err.strip()[:160]))
    events_whole(tmp, "after the spectrum's run ended")
    check(lp.returncode == 3 and "ev.csv" in err and "in use by another running program" in err,
          "the spectrum's run fails at its end (exit 3), naming ev.csv as in use", lp)
    check(writer_stop(pr) == 130, "the other run stopped by SIGINT (130)")
    events_whole(tmp, "after the other run ended")
    # the spectrum still written where nothing else writes (the exponents of
    # the damped oscillator between impacts sum to -c/m = -0.1 1/s: t_end
    # 0.5 s is before the first impact)
    p = run(tmp, [FIO, "--lyapunov", "--every", "0", "--lyapunov-interval", "0.1",
                  "--t-end", "0.5", "--events", "/dev/null", "--lyapunov-out", "ly.csv"])
    lam = [float(r.split(",")[1]) for r in csv_rows(os.path.join(tmp, "ly.csv"))[1:]]
    print("  --lyapunov-out ly.csv alone: %s" % lam)
    check(p.returncode == 0 and len(lam) == 2 and abs(sum(lam) + 0.1) < 1e-9,
          "a free file takes the spectrum, the exponents summing to -c/m", p)


def case_findings_animbusy(tmp):
    # 1. the GIF, its script or its log named as another running
    # simulator's outputs (its event log a.gif, its trajectory b.gp, its
    # section c.log)
    pr = ball_writer(tmp, ["--events", "ev.csv", "--out", "b.gp", "--section", "impact:floor",
                           "--section-out", "c.log"])
    os.rename(os.path.join(tmp, "ev.csv"), os.path.join(tmp, "a.gif"))
    sizes = {n: os.path.getsize(os.path.join(tmp, n)) for n in ("a.gif", "b.gp", "c.log")}
    for gif, busy in (("a.gif", "a.gif"), ("b.gif", "b.gp"), ("c.gif", "c.log")):
        p = run(tmp, [SIM, "--t-end", "1", "--animate", gif, "--frames", "4"])
        print("  --animate %s (%s another run's output) -> %d  %s"
              % (gif, busy, p.returncode, p.stderr.strip()[:120]))
        check(p.returncode == 1 and "'%s'" % busy in p.stderr and
              "in use by another running program" in p.stderr,
              "--animate %s refused before the run, naming %s as in use" % (gif, busy), p)
    check(writer_stop(pr) == 130, "the other run stopped by SIGINT (130)")
    after = {n: os.path.getsize(os.path.join(tmp, n)) for n in ("a.gif", "b.gp", "c.log")}
    check(after["a.gif"] == sizes["a.gif"] and after["b.gp"] >= sizes["b.gp"] and
          after["c.log"] >= sizes["c.log"], "the other run's files are its own (%s)" % after)
    rows = csv_rows(os.path.join(tmp, "a.gif"))
    check(abs(float(rows[1].split(",")[0]) - T_LAND) < 1e-9, "a.gif still holds the landing")
    # 2. another simulator begins to write the GIF's name during the run
    # (the run held at its start by its section output, a FIFO without a
    # reader)
    clean(tmp)
    fifo = os.path.join(tmp, "tr.fifo")
    os.mkfifo(fifo)
    ap = subprocess.Popen([SIM, "--t-end", "1", "--animate", "ev.gif", "--frames", "4",
                           "--out", "ao.csv", "--section", "impact:floor", "--section-out",
                           "tr.fifo"], cwd=tmp, env=env_for(tmp),
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    # its trajectory, opened before the FIFO, says it is past its checks
    check(wait_until(ap, lambda: os.path.exists(os.path.join(tmp, "ao.csv")), 30),
          "the animation's run has opened its trajectory")
    pr = ball_writer(tmp, ["--events", "ev.csv"])
    os.rename(os.path.join(tmp, "ev.csv"), os.path.join(tmp, "ev.gif"))   # still its output
    check(ap.poll() is None, "the animation's run waits for its FIFO's reader")
    rd = subprocess.Popen(["cat", fifo], stdout=subprocess.DEVNULL)
    err = ap.communicate(timeout=120)[1]
    rd.wait(timeout=60)
    print("  --animate ev.gif, another run began to write it -> %d  %s"
          % (ap.returncode, err.strip()[:160]))
    check(ap.returncode != 0 and "in use by another running program" in err and
          "no animation" in err, "no animation drawn over the other run's file, said", ap)
    events_whole(tmp, "after the animation's run ended", "ev.gif")
    check(writer_stop(pr) == 130, "the other run stopped by SIGINT (130)")
    events_whole(tmp, "after the other run ended", "ev.gif")


def stop_one(tmp, extra, sig, delay):
    """The ball for 1e4 s with every output, stopped by sig delay s after
    its start: checks the exit status, the whole lines, the HDF5 file and
    the landing."""
    import h5py
    clean(tmp)
    outs = ["--out", "tr.csv", "--out", "r.h5", "--events", "ev.csv", "--section",
            "impact:floor", "--section-out", "sec.csv"]
    pr = subprocess.Popen([SIM, "--t-end", "1e4", "--max-steps", "1e9"] + extra + outs, cwd=tmp,
                          env=env_for(tmp), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True)
    time.sleep(delay)
    pr.send_signal(sig)
    err = pr.communicate(timeout=60)[1]
    rows = {n: csv_rows(os.path.join(tmp, n)) for n in ("tr.csv", "ev.csv", "sec.csv")}
    label = "%s %s at %.2f s" % (" ".join(extra), sig.name, delay)
    if sig == signal.SIGKILL:
        h5 = glob.glob(os.path.join(tmp, "r.h5*"))
        check(len(h5) == 1 and pr.returncode == -9, "%s: one HDF5 file left" % label)
        with h5py.File(h5[0], "r") as f:
            n = len(f["trajectory"])
        print("  %-36s killed: %d trajectory lines, %d events, HDF5 %d rows"
              % (label, len(rows["tr.csv"]), len(rows["ev.csv"]), n))
        return
    with h5py.File(os.path.join(tmp, "r.h5"), "r") as f:
        evs = f["events"][:]
        status = int(f["run"].attrs["status"])
    print("  %-36s -> %d  %d trajectory lines, %d events, HDF5 status %s"
          % (label, pr.returncode, len(rows["tr.csv"]), len(rows["ev.csv"]), status))
    # status 8: NSM_ESTOPPED, the run stopped on request
    check(pr.returncode == 128 + sig and "interrupted by %s" % sig.name in err and status == 8,
          "%s: exit 128 + %d, said, the HDF5 file marked stopped" % (label, sig))
    ev = rows["ev.csv"]
    check(len(ev) > 1 and abs(float(ev[1].split(",")[0]) - T_LAND) < 1e-9 and len(evs) >= 1 and
          abs(evs[0]["t"] - T_LAND) < 1e-9, "%s: the landing at sqrt(2 h/g), CSV and HDF5" % label)


def case_kept_stops(tmp):
    for extra in (["--every", "1e4"], ["--every", "0"], ["--every", "1e-3", "--set", "e=1"]):
        for sig, delay in ((signal.SIGINT, 0.3), (signal.SIGTERM, 0.7), (signal.SIGHUP, 1.1),
                           (signal.SIGKILL, 0.9)):
            stop_one(tmp, extra, sig, delay)


def refused(tmp, args, what, rc=1):
    """The ball's simulator with args: exit rc with a message holding what."""
    p = run(tmp, [SIM, "--t-end", "1"] + args)
    line = (p.stderr.strip().splitlines() or [""])[0]
    print("  %-52s -> %d  %s" % (" ".join(repr(a) for a in args)[:52], p.returncode, line[:100]))
    check(p.returncode == rc and what in p.stderr, "%s: exit %d naming %r" % (args, rc, what), p)


def written(tmp, args, name, ncol=5):
    """The ball's simulator with args: exit 0 and name a CSV of whole lines
    with the free fall x = h - g t^2/2 at t = 0.3 s (by hand)."""
    p = run(tmp, [SIM, "--t-end", "1"] + args)
    rows = csv_rows(os.path.join(tmp, name))
    r = [float(x) for x in rows[31].split(",")]
    print("  %-52s -> %d  %d lines" % (" ".join(args)[:52], p.returncode, len(rows)))
    check(p.returncode == 0 and len(rows) == 102 and len(r) == ncol and
          abs(r[0] - 0.3) < 1e-12 and abs(r[1] - (H - G * 0.09 / 2)) < 1e-12,
          "%s: whole, x(0.3 s) = h - g t^2/2" % args, p)


def case_kept_outputs(tmp):
    os.mkdir(os.path.join(tmp, "d"))
    os.mkdir(os.path.join(tmp, "x.h5"))
    os.symlink("nowhere/x.csv", os.path.join(tmp, "dang"))
    os.symlink("loop1", os.path.join(tmp, "loop2"))
    os.symlink("loop2", os.path.join(tmp, "loop1"))
    for args, what in [(["--out", "d"], "Is a directory"), (["--out", "d/"], "Is a directory"),
                       (["--out", "x.h5"], "Is a directory"), (["--out", "dang"], "symbolic link"),
                       (["--out", "loop1"], "symbolic link"), (["--out="], "cannot write ''"),
                       (["--events="], "cannot write ''"), (["--out"], "needs a value"),
                       (["--out", "--"], "looks like an option"),
                       (["--out", "-x.csv"], "looks like an option"),
                       (["--out", "a" * 252 + ".csv"], "cannot write"),
                       (["--out=a.h5", "--out=b.hdf5"], "given twice"),
                       (["--t-end=2"], "given twice"), (["--summary=1"], "unknown option"),
                       (["--no-zeno=yes"], "unknown option"), (["--"], "unknown option"),
                       (["--out", "a.csv", "--events", "./a.csv"], "the same file"),
                       (["--out", "-", "--events", "-"], "stdout"),
                       (["--out", "-", "--stats", "-"], "stdout"),
                       (["--events", "-", "--section", "impact:floor"], "stdout"),
                       (["--set-file", "/dev/null"], "not a regular file"),
                       (["--set-file", "."], "not a regular file"),
                       (["--set", "e=0.5", "--set", "e=0.6"], "set twice"),
                       (["--set", "g=9.81 m/s2"], "unknown unit")]:
        refused(tmp, args, what)
    refused(tmp, ["--out", "/dev/full"], "No space left on device", rc=3)
    refused(tmp, ["--events", "/dev/full"], "No space left on device", rc=3)
    with open(os.path.join(tmp, "b.csv"), "w"):
        pass
    os.link(os.path.join(tmp, "b.csv"), os.path.join(tmp, "c.csv"))
    refused(tmp, ["--out", "b.csv", "--events", "c.csv"], "the same file")
    for args, name in [(["--out=-x.csv"], "-x.csv"), (["--out", "./-y.csv"], "-y.csv"),
                       (["--out", "a\nb.csv"], "a\nb.csv"), (["--out", "\u00e9\t.csv"], "\u00e9\t.csv"),
                       (["--out", "a" * 251 + ".csv"], "a" * 251 + ".csv"),
                       (["--out", "o.csv", "--set", "g=981 cm/s^2"], "o.csv"),
                       (["--out=p.csv", "--out=p.h5"], "p.csv")]:
        written(tmp, args, name)
    # a name of bytes that are no text, and HDF5 names up to 255 bytes
    # (their temporary name is longer)
    for name in (b"\xff\xfe.h5", ("a" * 252 + ".h5").encode()):
        p = subprocess.run([SIM.encode(), b"--t-end", b"1", b"--out", name], cwd=tmp,
                           env=env_for(tmp), capture_output=True)
        print("  --out %-46r -> %d" % (name[:40], p.returncode))
        check(p.returncode == 0 and os.path.getsize(os.path.join(tmp.encode(), name)) > 0,
              "an HDF5 file named %r written" % name[:20])
    # --out - to a pipe, and to a FIFO read by another process
    p = run(tmp, [SIM, "--t-end", "1", "--out", "-"])
    rows = p.stdout.splitlines()
    check(p.returncode == 0 and len(rows) == 102 and rows[0].startswith("t [s]"),
          "--out - writes the 101 samples on stdout")
    fifo = os.path.join(tmp, "f.fifo")
    os.mkfifo(fifo)
    rd = subprocess.Popen(["cat", fifo], stdout=subprocess.PIPE)
    p = run(tmp, [SIM, "--t-end", "1", "--out", fifo])
    got = rd.communicate(timeout=30)[0].decode().splitlines()
    print("  --out FIFO -> %d, %d lines read" % (p.returncode, len(got)))
    check(p.returncode == 0 and got == rows, "a FIFO gets the bytes --out - gives", p)


def case_kept_py(tmp):
    python_script(tmp, "py.py", """
import math, sys, os, signal, threading, numpy as np, nsm
from concurrent.futures import ThreadPoolExecutor
G, T = 9.81, math.sqrt(2 / 9.81)
m = nsm.compile(sys.argv[1])
f = nsm.compile(sys.argv[2])
a = m.run(t_end=2, params={"e": 0.5})
b = m.run(t_end=2)
# the second landing after a flight of 2 e g t0 / g (by hand)
print("second landing, e = 0.5:", a.events["t"][1], "then default:", b.events["t"][1])
assert abs(a.events["t"][1] - (T + 2 * 0.5 * T)) < 1e-12, a.events
assert abs(b.events["t"][1] - (T + 2 * 0.9 * T)) < 1e-12, b.events
c = m.run(t_end=2, init=[2, 0])
d = m.run(t_end=2)
print("landing from 2 m:", c.events["t"][0], "then from 1 m:", d.events["t"][0])
assert abs(c.events["t"][0] - math.sqrt(4 / G)) < 1e-12 and abs(d.events["t"][0] - T) < 1e-12
es = np.linspace(0, 1, 12)
ser = [f.run(t_end=30, params={"e": e}) for e in es]
with ThreadPoolExecutor(4) as ex:
    par = list(ex.map(lambda e: f.run(t_end=30, params={"e": e}), es))
same = all(np.array_equal(x.state, y.state) and np.array_equal(x.events["t"], y.events["t"])
           for x, y in zip(ser, par))
print("12 runs from 4 threads, the serial runs' bits:", same)
assert same
for every in (1e-3, 0, 1e4):
    threading.Timer(0.4, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    try:
        m.run(t_end=1e4, every=every, max_steps=10 ** 9)
        raise AssertionError("not interrupted")
    except nsm.Interrupted as e:
        r = e.result
        fall = [(t, x) for t, x in zip(r.t, r.x[:, 0]) if t < T]
        worst = max(abs(x - (1 - G * t * t / 2)) for t, x in fall)
        print("every=%g: Interrupted at t = %.6g s, %d samples, free fall off by %.2g m"
              % (every, e.t, len(r.t), worst))
        assert e.t > 0 and r.t_reached == e.t and worst < 1e-12 and len(r.events) >= 1
        assert abs(r.events["t"][0] - T) < 1e-9
again = m.run(t_end=1)
assert len(again.t) == 101 and abs(again.events["t"][0] - T) < 1e-12
sec = np.loadtxt("sec.csv", delimiter=",", skiprows=1)
ps = f.section("period:2*pi/omega", t_end=50)
print("section: simulator", sec.shape, "Python", ps.shape)
assert sec.shape == ps.shape and np.array_equal(sec[:, [0, 2, 3]], ps[:, [0, 2, 3]])
""", [BALL, FIO_MODEL] if run(tmp, [FIO, "--t-end", "50", "--section", "period:2*pi/omega",
                                       "--section-out", "sec.csv"]).returncode == 0 else [],
                  "Model.run reused, threads, Ctrl-C, the section")


CASES = {"findings_lyapbusy": case_findings_lyapbusy, "findings_animbusy": case_findings_animbusy,
         "kept_stops": case_kept_stops,
         "kept_outputs": case_kept_outputs, "kept_py": case_kept_py}

if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-p23py-", case_arg=4))
