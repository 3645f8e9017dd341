#!/usr/bin/env python3
"""What the nineteenth hostile passes on the programs left as found (issue
#29, docs/fuzzing.md), each a check that failed before its fix.

    tests/reliability/leftovers21_prog_test.py NSMC SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  optvalue   a file or folder option given a word that looks like an
             option (`nsmc run M --out-dir --help` made a folder named
             --help): `nsmc run` (--out-dir, --set-file, --stats, --out
             FILE.h5), `nsmc sweep` and `nsmc continue` (--out-dir) and the
             simulator itself (--out, --events, --stats, --plot, --set-file,
             --section-out, --animate, --lyapunov-out) refuse it naming the
             option and the two ways of giving such a name, exit 1, nothing
             made; the same names given as --opt=-x or --opt ./-x are
             written (a ball dropped from h under g lands at sqrt(2 h/g));
             a number's option given --help stays a bad value (left20prog).
  animplot   the simulator's `--animate P/a.gif --plot P` with P not there:
             P made, the GIF and the plots in it (the GIF's folder was
             checked before --plot made it, and refused); a folder that
             cannot be made is still refused, nothing made; the plot's own
             names stay refused beside the GIF.
  plotmove   a figure's folder moved away while gnuplot draws (a gnuplot
             in PATH that waits for the move before it runs the real one),
             a file put in its place: the simulator's --plot P and
             --animate A/a.gif, nsmc sweep's and nsmc continue's
             --out-dir: no temporary (NAME.tmpPID, .anim-PID.gif) left in
             the moved folder, the figures whole there (they were looked
             for by name in the file put in the folder's place), the file
             untouched.
  h5move     the simulator's --out D/x.h5 (and --events D/e.csv, as it was) with D
             moved away mid-run and a file put in its place (the run held
             on a FIFO's full pipe meanwhile): exit 0, the HDF5 file whole
             and named in the moved folder with every row the FIFO got, no
             .partial left (it ended with exit 3 and its x.h5.PID.partial
             unnamed), the file in D's place untouched.
  csvkill    the simulator's --out x.csv killed with SIGKILL at random
             moments of a run writing a row every 5 ms of its CPU time
             (800 rows, 32 KiB, took 4 s to fill the buffer that was
             written only when full): whole lines, and the rows lost are
             at most the last 0.25 s of the run (the bound written in
             docs/status.md), reckoned from the process's CPU time at the
             kill (/proc) and the run's rate measured by an unkilled run
             (CPU time runs no faster than the wall clock the writes
             follow).
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import glob
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import SANITIZED, check, env_for, main, whole_figure  # noqa: E402

NSMC = os.path.abspath(sys.argv[1])
SRC = os.path.abspath(sys.argv[2])
FIO = os.path.join(SRC, "models", "forced_impact_oscillator.nsm")
SLOW = 4 if SANITIZED else 1

# a ball dropped from h = 1 m under g = 2 m/s^2 onto a floor (e = 0.5): it
# lands at t = sqrt(2 h/g) = 1 s, first sampled as x = 0 there
BALL = '''model ball "a ball dropped onto a floor"
param g = 2 m/s^2
param h = 1 m
param e = 0.5
mass B = 1 kg
gravity g
gap floor: B.x >= 0, impact(e = e)
init B.x = h, B.v = 0 m/s
simulate t_end = 1.5 s, dt = 1 ms, method = exact
output every 0.25 s: B.x, B.v
'''


def go(tmp, cmd, timeout=120):
    """Runs cmd in tmp with its own cache; the CompletedProcess."""
    return subprocess.run(cmd, cwd=tmp, env=env_for(tmp), capture_output=True, text=True,
                          errors="replace", timeout=timeout * SLOW)


def listing(tmp):
    """The names in tmp but the cache and the model, sorted."""
    return sorted(n for n in os.listdir(tmp) if n not in ("cache", "ball.nsm", "o"))


def ball(tmp):
    """The ball's model file in tmp and its simulator, built by nsmc run."""
    path = os.path.join(tmp, "ball.nsm")
    with open(path, "w") as f:
        f.write(BALL)
    p = go(tmp, [NSMC, "run", path, "--no-plot", "-q", "--out-dir", "o"])
    check(p.returncode == 0, "nsmc run of the ball", p)
    sims = [f for f in glob.glob(os.path.join(tmp, "cache", "nsm", "*", "ball"))
            if os.access(f, os.X_OK)]
    check(len(sims) == 1, "the ball's simulator is in the cache (%s)" % sims)
    return path, sims[0]


def landing(path):
    """The first sampled time of the trajectory CSV at path with x = 0."""
    with open(path) as f:
        rows = [line.split(",") for line in f.read().splitlines()[1:]]
    for r in rows:
        if abs(float(r[1])) < 1e-9:
            return float(r[0])
    return None


# ---- optvalue ----------------------------------------------------------------

def case_optvalue(tmp):
    """A file or folder option's value that looks like an option."""
    path, sim = ball(tmp)
    with open(os.path.join(tmp, "-s.txt"), "w") as f:
        f.write("e = 0.5\n")
    run = [NSMC, "run", path, "--no-plot", "-q"]
    sweep = [NSMC, "sweep", FIO, "--param", "omega=2.5:2.6:2", "--section", "impact:stop"]
    cont = [NSMC, "continue", FIO, "--param", "omega=2.5:2.52", "--no-plot"]
    refused = [(run + ["--out-dir", "--help"], "--out-dir", "--help"),
               (run + ["--out-dir", "-d"], "--out-dir", "-d"),
               (run + ["--out-dir", "o", "--set-file", "-s.txt"], "--set-file", "-s.txt"),
               (run + ["--out-dir", "o", "--stats", "--help"], "--stats", "--help"),
               (run + ["--out-dir", "o", "--section", "impact:floor", "--section-out", "-q"],
                "--section-out", "-q"),
               (run + ["--out-dir", "o", "--out", "-r.h5"], "--out", "-r.h5"),
               (run + ["--out-dir", "o", "--", "--out", "-r.h5"], "--out", "-r.h5"),
               (sweep + ["--out-dir", "--help"], "--out-dir", "--help"),
               (sweep + ["--out-dir", "-v"], "--out-dir", "-v"),
               (cont + ["--out-dir", "--help"], "--out-dir", "--help"),
               (cont + ["--out-dir", "-q"], "--out-dir", "-q")]
    for opt in ("--out", "--events", "--stats", "--plot", "--set-file", "--section-out",
                "--animate", "--lyapunov-out"):
        extra = {"--section-out": ["--section", "impact:floor"],
                 "--lyapunov-out": ["--lyapunov"]}.get(opt, [])
        refused.append(([sim, "--t-end", "1"] + extra + [opt, "--help"], opt, "--help"))
    refused.append(([sim, "--t-end", "1", "--plot", "-h"], "--plot", "-h"))
    for cmd, opt, val in refused:
        before = listing(tmp)
        p = go(tmp, cmd)
        label = " ".join(os.path.basename(w) if w in (sim, path, FIO) else w for w in cmd[1:])
        last = p.stderr.strip().splitlines()[-1:] if p.stderr.strip() else []
        print("  %-70s -> %d  %s" % (label[:70], p.returncode, [x[:90] for x in last]))
        check(p.returncode == 1 and "option %s takes a file or folder name, not '%s'"
              % (opt, val) in p.stderr and "%s=%s or %s ./%s" % (opt, val, opt, val) in p.stderr
              and "usage" not in p.stdout, "%s: refused naming %s and the ways of giving %s"
              % (label, opt, val), p)
        check(listing(tmp) == before, "%s: nothing made (%s, was %s)"
              % (label, listing(tmp), before))
    # the same names given attached or through ./ are written
    taken = [(run + ["--out-dir=--help"], "--help/trajectory.csv"),
             (run + ["--out-dir", "./-d"], "-d/trajectory.csv"),
             (run + ["--out-dir=-e", "--set-file=-s.txt", "--stats=-st.txt"], "-e/trajectory.csv"),
             ([sim, "--out=-x.csv", "--events", "./-ev.csv"], "-x.csv"),
             ([sim, "--plot=-p", "--out", "./-y.csv"], "-y.csv")]
    for cmd, traj in taken:
        p = go(tmp, cmd)
        label = " ".join(os.path.basename(w) if w in (sim, path) else w for w in cmd[1:])
        t = landing(os.path.join(tmp, traj)) if os.path.exists(os.path.join(tmp, traj)) else None
        print("  %-70s -> %d  landing %s" % (label[:70], p.returncode, t))
        check(p.returncode == 0 and t is not None and abs(t - math.sqrt(2 * 1 / 2)) < 1e-9,
              "%s: written, the landing at sqrt(2 h/g) = 1 s (%s)" % (label, t), p)
    for name in ("-st.txt", "-ev.csv", "-p/plot.gp"):
        check(os.path.exists(os.path.join(tmp, name)), "%s written" % name)
    for cmd, said in [(run + ["--out-dir", "o", "--t-end", "--help"], "bad value '--help' for --t-end"),
                      ([sim, "--t-end", "-h"], "bad value '-h' for --t-end"),
                      (sweep + ["--out-dir=-w", "--set", "--help"], "--set needs NAME=VALUE")]:
        p = go(tmp, cmd)
        print("  %-70s -> %d" % (" ".join(cmd[1:2] + cmd[3:])[:70], p.returncode))
        check(p.returncode == 1 and said in p.stderr, "a number's option given an option's "
              "word: its bad value (%s)" % said, p)
    p = go(tmp, sweep + ["--out-dir=-w"])
    print("  nsmc sweep FIO ... --out-dir=-w -> %d" % p.returncode)
    check(p.returncode == 0 and os.path.exists(os.path.join(tmp, "-w", "summary.csv")),
          "nsmc sweep --out-dir=-w written", p)
    p = go(tmp, cont + ["--out-dir=-c"])
    print("  nsmc continue FIO ... --out-dir=-c -> %d" % p.returncode)
    check(p.returncode == 0 and os.path.exists(os.path.join(tmp, "-c", "branch.csv")),
          "nsmc continue --out-dir=-c written", p)


# ---- animplot ----------------------------------------------------------------

def case_animplot(tmp):
    """--animate P/a.gif beside --plot P, P not there yet."""
    path, sim = ball(tmp)
    p = go(tmp, [sim, "--animate", "P/a.gif", "--plot", "P"])
    made = sorted(os.listdir(os.path.join(tmp, "P"))) if os.path.isdir(os.path.join(tmp, "P")) else None
    print("  --animate P/a.gif --plot P (no P) -> %d  %s" % (p.returncode, made))
    check(p.returncode == 0 and made is not None and "a.gif" in made and "plot.gp" in made,
          "the GIF written into the folder --plot made", p)
    t = landing(os.path.join(tmp, "P", "trajectory.csv"))
    check(t is not None and abs(t - 1.0) < 1e-9, "the landing at sqrt(2 h/g) = 1 s (%s)" % t)
    with open(os.path.join(tmp, "P", "a.gif"), "rb") as f:
        gif = f.read()
    check(gif[:6] in (b"GIF87a", b"GIF89a") and gif[-1:] == b";", "a whole GIF")
    p = go(tmp, [sim, "--animate", "Q/R/a.gif", "--plot", "Q/R"])
    print("  --animate Q/R/a.gif --plot Q/R (no Q) -> %d" % p.returncode)
    check(p.returncode == 0 and os.path.exists(os.path.join(tmp, "Q", "R", "a.gif")),
          "a GIF in a folder two levels down that --plot made", p)
    with open(os.path.join(tmp, "F"), "w") as f:
        f.write("a file\n")
    for cmd, said in [([sim, "--animate", "F/a.gif", "--plot", "F"], "cannot create the plot "
                       "directory 'F'"),
                      ([sim, "--animate", "S/T/a.gif", "--plot", "S"], "cannot write the "
                       "animation into 'S/T'"),
                      ([sim, "--animate", "U/plot.gp", "--plot", "U"], "a file that --plot U writes itself"),
                      ([sim, "--animate", "V/a.gif", "--plot", "V", "--fps", "0"], "--fps"),
                      # its script V/plot.gp is the plots' script
                      ([sim, "--animate", "V/plot.gif", "--plot", "V"], "a file that --plot V "
                       "writes itself"),
                      ([sim, "--out", "W/a.gif", "--animate", "W/a.gif", "--plot", "W"],
                       "name the same file")]:
        before = listing(tmp)
        p = go(tmp, cmd)
        print("  %-50s -> %d  %s" % (" ".join(cmd[1:]), p.returncode,
                                      p.stderr.strip().splitlines()[-1:]))
        check(p.returncode == 1 and said in p.stderr, "%s refused (%s)" % (" ".join(cmd[1:]),
                                                                       said), p)
        check(listing(tmp) == before, "nothing made (%s, was %s)" % (listing(tmp), before))


# ---- plotmove ----------------------------------------------------------------

# a gnuplot that says it started (a file outside the folder it draws in)
# and waits for the test's word before it runs the real one
STUB_GNUPLOT = """#!/bin/sh
: > "$NSM_TEST_STARTED"
while [ ! -e "$NSM_TEST_GO" ]; do sleep 0.01; done
exec %s "$@"
"""


def whole(path):
    """Whether a PNG, SVG or GIF file ends as its format ends."""
    if path.endswith(".gif"):
        with open(path, "rb") as f:
            data = f.read()
        return data[:4] == b"GIF8" and data.endswith(b";")
    return whole_figure(path)


def moved_mid_draw(tmp, label, cmd, folder, figures):
    """Runs cmd with the waiting gnuplot, moves folder away once gnuplot has
    started and puts a file in its place, lets gnuplot draw; checks that
    the moved folder has every figure whole and no temporary."""
    import shutil
    import time
    real = shutil.which("gnuplot")
    check(real is not None, "gnuplot is installed")
    bindir = os.path.join(tmp, "bin")
    os.makedirs(bindir, exist_ok=True)
    with open(os.path.join(bindir, "gnuplot"), "w") as f:
        f.write(STUB_GNUPLOT % real)
    os.chmod(os.path.join(bindir, "gnuplot"), 0o755)
    started, go = os.path.join(tmp, "started"), os.path.join(tmp, "go")
    for f in (started, go):
        if os.path.exists(f):
            os.unlink(f)
    env = env_for(tmp)
    env.update(PATH=bindir + os.pathsep + env["PATH"], NSM_TEST_STARTED=started,
               NSM_TEST_GO=go)
    pr = subprocess.Popen(cmd, cwd=tmp, env=env, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, errors="replace")
    t0 = time.monotonic()
    while pr.poll() is None and not os.path.exists(started) and time.monotonic() - t0 < 60 * SLOW:
        time.sleep(0.01)
    check(os.path.exists(started), "%s: gnuplot started" % label)
    moved = os.path.join(tmp, folder + ".moved")
    os.rename(os.path.join(tmp, folder), moved)
    with open(os.path.join(tmp, folder), "w") as f:
        f.write("put in its place\n")
    with open(go, "w"):
        pass
    try:
        err = pr.communicate(timeout=60 * SLOW)[1]
    except subprocess.TimeoutExpired:
        pr.kill()
        raise
    left = sorted(os.listdir(moved))
    temps = [n for n in left if ".tmp" in n or n.startswith(".anim-")]
    print("  %-44s -> %d  %s" % (label, pr.returncode, left))
    print("      " + " | ".join(err.strip().splitlines()[-2:])[:160])
    check(not temps, "%s: no temporary left in the moved folder (%s)" % (label, temps))
    for name in figures:
        path = os.path.join(moved, name)
        check(os.path.exists(path) and whole(path), "%s: %s whole in the moved folder"
              % (label, name))
    with open(os.path.join(tmp, folder)) as f:
        check(f.read() == "put in its place\n", "%s: the file in its place untouched" % label)
    check(pr.returncode == 0, "%s: exit 0, the figures placed (%s)" % (label, err.strip()[-300:]))


def case_plotmove(tmp):
    """A figure's folder moved away while gnuplot draws."""
    path, sim = ball(tmp)
    moved_mid_draw(tmp, "simulator --plot P", [sim, "--plot", "P"],
                   "P", ["plot.png", "plot.svg"])
    os.makedirs(os.path.join(tmp, "A"))
    moved_mid_draw(tmp, "simulator --animate A/a.gif", [sim, "--animate", "A/a.gif"], "A",
                   ["a.gif"])
    moved_mid_draw(tmp, "nsmc sweep --out-dir S",
                   [NSMC, "sweep", FIO, "--param", "omega=2.5:2.6:3", "--section",
                    "impact:stop", "--out-dir", "S"], "S", ["bifurcation.png", "bifurcation.svg"])
    moved_mid_draw(tmp, "nsmc continue --out-dir C",
                   [NSMC, "continue", FIO, "--param", "omega=2.5:2.52", "--out-dir", "C"],
                   "C", ["continuation.png", "continuation.svg"])


# ---- h5move ------------------------------------------------------------------

def held_run(tmp, cmd, fifo):
    """Starts cmd, whose trajectory goes to the FIFO fifo, opens the FIFO
    and waits until its pipe is full (the run held in a write); the process
    and the FIFO's reading end."""
    import time
    pr = subprocess.Popen(cmd, cwd=tmp, env=env_for(tmp), stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, errors="replace")
    fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)    # the run's refusal cannot hang it
    size, t0 = -1, time.monotonic()
    while pr.poll() is None and time.monotonic() - t0 < 60 * SLOW:
        import fcntl
        import termios
        import array
        buf = array.array("i", [0])
        fcntl.ioctl(fd, termios.FIONREAD, buf)
        if buf[0] == size and size >= 4096:
            break               # full: it no longer grows
        size = buf[0]
        time.sleep(0.2)
    return pr, fd


def drain(fd):
    """Reads the FIFO's reading end fd to its end; the bytes."""
    os.set_blocking(fd, True)
    chunks = []
    while True:
        b = os.read(fd, 65536)
        if not b:
            break
        chunks.append(b)
    os.close(fd)
    return b"".join(chunks)


def case_h5move(tmp):
    """An output folder moved away mid-run: HDF5 as CSV."""
    import h5py
    path, sim = ball(tmp)
    fifo = os.path.join(tmp, "traj.fifo")
    os.mkfifo(fifo)
    for out in ("x.h5", "e.csv"):
        d = os.path.join(tmp, "D")
        subprocess.run(["rm", "-rf", d, d + ".moved"])
        os.mkdir(d)
        cmd = [sim, "--t-end", "200", "--set", "e=1", "--every", "0.001", "--out", fifo,
               "--out" if out.endswith(".h5") else "--events", "D/" + out]
        pr, fd = held_run(tmp, cmd, fifo)
        check(pr.poll() is None, "%s: the run held on the FIFO's full pipe" % out)
        before = sorted(os.listdir(d))
        os.rename(d, d + ".moved")
        with open(d, "w") as f:
            f.write("a file of the user's\n")
        rows = drain(fd).decode().splitlines()[1:]
        err = pr.communicate(timeout=120 * SLOW)[1]
        got = sorted(os.listdir(d + ".moved"))
        print("  --out D/%s, D moved mid-run (held with %s) -> %d  %s  %s"
              % (out, before, pr.returncode, got, " | ".join(err.strip().splitlines()[-1:])[:100]))
        check(open(d).read() == "a file of the user's\n", "the file in D's place untouched")
        check(pr.returncode == 0 and got == [out], "%s: exit 0, the output named in the moved "
              "folder, nothing else (%s)" % (out, got),
              subprocess.CompletedProcess(cmd, pr.returncode, "", err))
        check(len(rows) == 200001, "%s: the FIFO got every row (%d)" % (out, len(rows)))
        full = os.path.join(d + ".moved", out)
        if out.endswith(".h5"):
            with h5py.File(full, "r") as f:
                traj = f["trajectory"][()]
                n = traj.shape[0]
                last = float(traj[-1][0])
            print("      %s: %d rows, the last at t = %g" % (out, n, last))
            check(n == len(rows) and abs(last - 200) < 1e-9, "%s: whole, as many rows as the "
                  "CSV (%d for %d), the last at t_end" % (out, n, len(rows)))
        else:       # the ball bounces every 2 s from t = 1 s (e = 1, v = 2 m/s)
            with open(full) as f:
                n = len(f.read().splitlines()) - 1
            check(n == 100, "%s: every impact (%d of 100)" % (out, n))


# ---- csvkill -----------------------------------------------------------------

def cpu_seconds(pid):
    """The user + system CPU seconds of process pid so far (/proc; 0 when
    it has gone)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def case_csvkill(tmp):
    """A CSV output of a run killed with SIGKILL: whole lines, at most the
    last SINK_EVERY = 0.25 s of the run lost."""
    import random
    import time
    path, sim = ball(tmp)
    every, bound = 0.005, 0.25
    run = [sim, "--method", "rk4", "--dt", "1e-7", "--every", str(every), "--set", "e=1"]
    # the run's rate: simulated seconds per CPU second, measured unkilled
    t0 = time.monotonic()
    pr = subprocess.Popen(run + ["--t-end", "0.7", "--out", "cal.csv"], cwd=tmp,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, use = os.wait4(pr.pid, 0)
    pr.returncode = os.waitstatus_to_exitcode(status)
    cpu = use.ru_utime + use.ru_stime
    rate = 0.7 / cpu
    print("  calibration: 0.7 s simulated in %.2f s of CPU (%.2f s wall), %.0f rows per CPU "
          "second" % (cpu, time.monotonic() - t0, rate / every))
    check(pr.returncode == 0 and cpu > 0.2, "the calibration run: exit 0, long enough")
    rng = random.Random(2111)
    for k in range(3):
        out = os.path.join(tmp, "k%d.csv" % k)
        pr = subprocess.Popen(run + ["--t-end", "8", "--out", out], cwd=tmp,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        target = rng.uniform(0.3, 1.0)          # CPU seconds into the run
        c_kill = 0.0
        while c_kill < target and pr.poll() is None:
            time.sleep(0.005)
            c_kill = cpu_seconds(pr.pid)
        check(pr.poll() is None, "k%d: running when killed" % k, pr)
        pr.kill()
        pr.wait()
        with open(out) as f:
            text = f.read()
        lines = text.split("\n")
        check(text == "" or (text.endswith("\n") and lines[0].startswith("t")),
              "k%d: whole lines (%d bytes: %r)" % (k, len(text), text[-80:]))
        rows = [r for r in lines[1:] if r]
        t_last = float(rows[-1].split(",")[0]) if rows else -every
        for i, r in enumerate(rows):
            check(abs(float(r.split(",")[0]) - i * every) < 1e-9 and len(r.split(",")) == 3,
                  "k%d: row %d whole, at t = %g" % (k, i, i * every))
        lost = c_kill - t_last / rate      # CPU seconds of the run after its last row kept
        print("  SIGKILL at %.2f s of CPU: %d rows kept, the last at t = %g; %.3f s of CPU "
              "after it (bound %.2f s)" % (c_kill, len(rows), t_last, lost, bound))
        # slack: the rate's spread between runs, the clock's ticks (10 ms) and
        # the last row's interval
        check(lost <= bound + 0.1 + 0.15 * c_kill, "k%d: at most the last %.2f s lost (%.3f s)"
              % (k, bound, lost))


if __name__ == "__main__":
    sys.exit(main({"optvalue": case_optvalue, "animplot": case_animplot,
                   "plotmove": case_plotmove, "h5move": case_h5move,
                   "csvkill": case_csvkill},
                  "nsm_left21prog_", case_arg=3))
