#!/usr/bin/env python3
"""A run stops when asked, and refuses what it could never finish.

    tests/reliability/stop_test.py STIFF_SIM SPRUNG_SIM SOURCE_DIR CASE [CUBIC_SIM [ZERO_SIM]]

STIFF_SIM is the simulator of tests/reliability/stiff_spring.nsm (a mass on
a spring, no event ever), SPRUNG_SIM that of models/sprung_table.nsm.

  stop     SIGTERM and SIGINT 0.5 s into runs with picosecond steps and
           samples a second apart (--set k=1e20), one per method: exit
           128 + N within 2 s (the run reads the stop flag before every
           step, not only at samples and events), the CSV whole, the HDF5
           file renamed into place with its run marked stopped (status 8);
  refuse   steps below the time resolution of t (k = 1e300, m = 1e-300,
           --dt 1e-300), each method: at once with the mode and the cause
           (too stiff: exit 3; the user's --dt: an option error, exit 1); on CUBIC_SIM
           (tests/reliability/stiff_cubic.nsm, nonlinear) taylor's reach and
           adaptive's error control (alpha = 1e28 or m = 1e-28 for taylor,
           1e300 and 1e-300 for adaptive) too;
  sprung   exact on the sprung table, whose held contact's force starts at a
           double zero: finishes in bounded time, the contact held throughout
           (no event), the table on its closed form.
  double_zero  ZERO_SIM (tests/reliability/triple_zero.nsm), every method: a
           contact force leaving 0 at a triple zero releases there (not
           later, not missed) and the block follows the closed form after;
           one touching 0 at double zeros (at step ends too) is held
           throughout: no separation, no impact.
"""
import math
import os
import signal
import subprocess
import sys
import tempfile
import time

STIFF = os.path.abspath(sys.argv[1])
SPRUNG = os.path.abspath(sys.argv[2])
SRC = os.path.abspath(sys.argv[3])
CUBIC = os.path.abspath(sys.argv[5]) if len(sys.argv) > 5 else None
ZERO = os.path.abspath(sys.argv[6]) if len(sys.argv) > 6 else None
SANITIZED = bool(os.environ.get("NSM_SANITIZED"))
# the sanitizers slow a step tenfold; the bound is on the stop, not the step
LATENCY = 10.0 if SANITIZED else 2.0


class Failure(Exception):
    pass


def check(cond, what, detail=""):
    """Fails the case with a message unless cond."""
    if not cond:
        raise Failure(what + ("\n" + detail if detail else ""))
    print("ok:", what)


def whole_csv(path, cols):
    """Number of data rows of a CSV whose every line is whole (cols fields,
    numbers after the header); fails otherwise."""
    data = open(path, "rb").read()
    check(data.endswith(b"\n"), "%s ends with a whole line" % os.path.basename(path))
    lines = data.decode().split("\n")[:-1]
    for line in lines[1:]:
        fields = line.split(",")
        if len(fields) != cols:
            raise Failure("%s: a line of %d fields, not %d: %r" % (path, len(fields), cols, line))
        for f in fields:
            float(f)
    return len(lines) - 1


def have_h5py():
    """Whether h5py can be imported (the HDF5 part of the stop case)."""
    try:
        import h5py  # noqa: F401
        return True
    except ImportError:
        return False


def stop_one(tmp, method, sig, out):
    """Starts a run with picosecond steps writing out, signals it 0.5 s
    after it has opened out, checks the time to exit and the status."""
    # exact refuses up front a run its step cap cannot finish (2e11 steps of
    # 1e-10 s here): its cap is raised so that it runs to be stopped
    cap = ["--max-steps", "1e15"] if method == "exact" else []
    proc = subprocess.Popen([STIFF, "--set", "k=1e20", "--method", method, "--t-end", "20",
                             "--out", out] + cap, cwd=tmp, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    # the output is opened after the signal handlers are installed: wait for
    # it (a loaded machine or the sanitizers can take longer than 0.5 s to
    # start), so that the signal tests the stop, not the program's start
    part = "%s.%d.partial" % (out, proc.pid)
    t_start = time.monotonic()
    while not (os.path.exists(out) or os.path.exists(part)) and proc.poll() is None \
            and time.monotonic() - t_start < 60:
        time.sleep(0.05)
    time.sleep(0.5)
    check(proc.poll() is None, "%s is still running 0.5 s after opening its output" % method)
    t0 = time.monotonic()
    proc.send_signal(sig)
    try:
        _, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise Failure("%s ignored %s for 60 s" % (method, sig.name))
    took = time.monotonic() - t0
    check(took < LATENCY and proc.returncode == 128 + sig,
          "%s with 1e-12 s steps stops %.2f s after %s (exit %d)" % (method, took, sig.name,
                                                                      proc.returncode), err)
    check(("interrupted by %s" % sig.name) in err, "%s: the note names the signal" % method, err)


def case_stop(tmp):
    """SIGTERM and SIGINT stop runs of tiny steps within LATENCY seconds."""
    for k, method in enumerate(("rk4", "adaptive", "exact")):
        sig = signal.SIGTERM if k % 2 == 0 else signal.SIGINT
        out = os.path.join(tmp, "%s.csv" % method)
        stop_one(tmp, method, sig, out)
        check(whole_csv(out, 3) >= 1, "%s: the trajectory holds whole lines" % method)
    if not have_h5py():
        print("skip: the HDF5 part (no h5py)")
        return
    import h5py
    for method in ("rk4", "exact"):
        out = os.path.join(tmp, "%s.h5" % method)
        stop_one(tmp, method, signal.SIGTERM, out)
        check(not [f for f in os.listdir(tmp) if f.endswith(".partial")],
              "%s: no .partial left beside the HDF5 file" % method)
        with h5py.File(out, "r") as f:
            run = f["run"].attrs
            check(int(run["status"]) == 8 and b"stopped on request" in bytes(run["message"]),
                  "%s: the HDF5 run is marked stopped (status 8, %r)" % (method, run["message"]))
            check(f["trajectory"].shape[0] >= 1 and float(run["t_reached"]) < 20,
                  "%s: the HDF5 trajectory holds the samples up to t_reached" % method)


def refused(tmp, args, what, words, sim=None, code=3):
    """Runs sim (STIFF by default) with args; exit code (3: the run
    refused, 1: an option refused before any run) within a few seconds,
    message with words."""
    t0 = time.monotonic()
    try:
        p = subprocess.run([sim or STIFF, *args], cwd=tmp, capture_output=True, text=True,
                           timeout=60)
    except subprocess.TimeoutExpired:
        raise Failure("%s: still running after 60 s" % what)
    took = time.monotonic() - t0
    check(p.returncode == code and took < LATENCY and all(w in p.stderr for w in words),
          "%s: refused in %.2f s, naming %s" % (what, took, ", ".join(words)), p.stderr)
    check(len(p.stderr.splitlines()) <= 3, "%s: a short message" % what, p.stderr)


def case_refuse(tmp):
    """Steps below the time resolution of t stop the run at once."""
    for method in ("rk4", "adaptive", "exact"):
        for setting in ("k=1e300", "m=1e-300"):
            refused(tmp, ["--set", setting, "--method", method],
                    "%s with %s" % (method, setting),
                    ["below the time resolution", "mode free", "too stiff", "1/s"])
        # a --dt the time axis cannot carry is an option error: exit 1, before
        # any output is opened
        refused(tmp, ["--dt", "1e-300", "--method", method], "%s with --dt 1e-300" % method,
                ["below the time resolution", "dt = 1e-300 s", "give a larger --dt"], code=1)
    # a nonlinear model: taylor's reach and adaptive's error control choose
    # the steps (no spectrum to check up front); each refuses at once too
    check(CUBIC is not None, "the nonlinear simulator is given")
    # (taylor's coefficients overflow beyond alpha = 1e50: "state is not
    # finite" at t = 0; below, its reach is 2e-15 s at alpha = 1e28)
    for method, settings in (("taylor", ("alpha=1e28", "m=1e-28")),
                             ("adaptive", ("alpha=1e300", "m=1e-300"))):
        for setting in settings:
            refused(tmp, ["--set", setting, "--method", method], "nonlinear, %s with %s"
                    % (method, setting), ["below the time resolution", "mode free",
                                          "taylor method's expansion" if method == "taylor"
                                          else "adaptive's error control",
                                          "a motion too fast"], sim=CUBIC)
    # a stiff but resolvable mode still runs: k = 1e16 at t_end = 1e-4 s
    p = subprocess.run([STIFF, "--set", "k=1e16", "--t-end", "1e-5", "--method", "exact"],
                       cwd=tmp, capture_output=True, text=True, timeout=120)
    check(p.returncode == 0, "k = 1e16 over 1e-5 s still runs", p.stderr)


def case_sprung(tmp):
    """exact on the sprung table: the held contact's force starts at a
    double zero (0 with zero slope) and stays >= 0: held throughout."""
    out = os.path.join(tmp, "sprung.csv")
    ev = os.path.join(tmp, "ev.csv")
    args = [SPRUNG, "--method", "exact", "--dt", "0", "--t-end", "2", "--every", "0.01",
            "--out", out, "--events", ev]
    t0 = time.monotonic()
    try:
        p = subprocess.run(args, cwd=tmp, capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        raise Failure("exact on the sprung table hangs (60 s)")
    check(p.returncode == 0, "exact on the sprung table finishes in %.2f s"
          % (time.monotonic() - t0), p.stderr)
    rows = [line.split(",") for line in open(out).read().splitlines()[1:]]
    g, k, mM = 9.81, 100.0, 2.0
    w = math.sqrt(k / mM)
    worst = 0.0
    for r in rows:
        t, tx, bx = float(r[0]), float(r[1]), float(r[2])
        ref = -mM * g / k * (1 - math.cos(w * t))
        worst = max(worst, abs(tx - ref), abs(bx - ref))
    check(len(rows) == 201 and worst < 1e-12,
          "table and ball on x(t) = -(m+M) g/k (1 - cos wt), %d samples, within %.2g m"
          % (len(rows), worst))
    check(min(float(r[5]) for r in rows) > -1e-9,
          "the contact force stays >= 0, touching 0 at the tops of the swings (t = 0.89, 1.78 s)")
    evs = [e.split(",") for e in open(ev).read().splitlines()[1:]]
    check(len(evs) == 1 and evs[0][1] == "stick" and float(evs[0][0]) < 1e-4,
          "held from the start (one stick, at %s s: the force's double zero at t = 0 is left "
          "upwards) and never released at the double zeros on top of the swings"
          % (evs[0][0] if evs else "-"), repr(evs))


def zero_run(tmp, method, extra, t_end):
    """ZERO_SIM's events and samples (t, x, v, force) with method."""
    out, ev = os.path.join(tmp, "z.csv"), os.path.join(tmp, "zev.csv")
    p = subprocess.run([ZERO, "--method", method, "--t-end", str(t_end), "--out", out,
                        "--events", ev] + extra, cwd=tmp, capture_output=True, text=True,
                       timeout=120)
    check(p.returncode == 0, "%s %s: runs to t = %g s" % (method, " ".join(extra), t_end),
          p.stderr)
    events = [e.split(",") for e in open(ev).read().splitlines()[1:]]
    rows = [[float(f) for f in r.split(",")] for r in open(out).read().splitlines()[1:]]
    return events, rows


def case_double_zero(tmp):
    """A contact force at a multiple zero: released at a triple zero, held
    through double zeros (tests/reliability/triple_zero.nsm's closed forms)."""
    check(ZERO is not None, "the triple-zero simulator is given")
    m, g, w, t1, A, D = 2.0, 9.81, 2 * math.pi, 0.25, 5.0, 5.0
    # The runtime takes a held force within 1e-10 of its scale (m g plus the
    # applied force) as 0: lambda = -A w^3 (t - t1)^3 / 2 is that small
    # within `window` of t1, so a release anywhere there is right, and the
    # motion after it does not depend on where (the lift's acceleration
    # vanishes there to third order).
    window = (2 * 1e-10 * (m * g + 2 * A) / (A * w ** 3)) ** (1 / 3)

    def lifted(t):
        if t <= t1:
            u = w * (t - t1)
            return 0.0, 0.0, -A * math.sin(u) * (1 - math.cos(u))
        u = w * (t - t1)
        return (A / (m * w * w) * (0.75 * u - math.sin(u) + math.sin(2 * u) / 8),
                A / (2 * m * w) * (1 - math.cos(u)) ** 2, 0.0)

    for method in ("exact", "rk4", "adaptive"):
        events, rows = zero_run(tmp, method, [], 1)
        kinds = [(e[1], e[2]) for e in events]
        check(kinds == [("stick", "floor"), ("separation", "floor")],
              "%s: held from t = 0, released once: %s" % (method, kinds))
        ts = float(events[1][0])
        check(abs(ts - t1) <= window, "%s: released at the triple zero, t = %.17g s (t1 = %g s, "
              "within %.2g s where the force is within its rounding of 0)" % (method, ts, t1, window))
        err = max(max(abs(r[1] - lifted(r[0])[0]), abs(r[2] - lifted(r[0])[1])) for r in rows)
        ferr = max(abs(r[3] - lifted(r[0])[2]) for r in rows)
        check(len(rows) == 101 and err < 1e-11 and ferr < 1e-10 * (m * g + 2 * A),
              "%s: x and v on the closed form within %.2g (1e-11), the force within %.2g N"
              % (method, err, ferr))
        events, rows = zero_run(tmp, method, ["--set", "A=0", "--set", "D=%g" % D], 2)
        kinds = [(e[1], e[2]) for e in events]
        check(kinds == [("stick", "floor")], "%s: held through the force's double zeros at "
              "t = 0.25 and 1.25 s (step ends), no separation, no impact: %s" % (method, kinds))
        worst = max(max(abs(r[1]), abs(r[2]),
                        abs(r[3] - D * (1 - math.cos(w * (r[0] - t1))))) for r in rows)
        check(len(rows) == 201 and worst < 1e-9,
              "%s: the block stays at rest, the force D (1 - cos u) within %.2g" % (method, worst))


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


def main():
    case = sys.argv[4]
    with tempfile.TemporaryDirectory(prefix="nsm-stop-") as tmp:
        try:
            CASES[case](tmp)
        except Failure as e:
            print("FAIL:", e)
            return 1
    print("%s: all checks passed" % case)
    return 0


if __name__ == "__main__":
    sys.exit(main())
