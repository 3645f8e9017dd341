#!/usr/bin/env python3
"""What the ninth hostile pass on the I/O surfaces left as found (issue
#29, docs/status.md), each a check that failed before its fix.

    tests/reliability/ioleft_test.py NSMC SIM FIO_SIM SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  plotkill   the simulator and its gnuplot killed with SIGKILL while gnuplot
             draws `--plot` figures: no plot.png or plot.svg is left empty or
             cut short (they were drawn in place; now into temporaries
             renamed into place, as sweeps and continuations draw theirs).
  nognuplot  gnuplot missing from PATH: `nsmc sweep` and `nsmc continue` keep
             their new results, exit 0 with a note that the figures were not
             drawn, and remove the earlier figures, naming them (the sweep
             exited 1 with the earlier sweep's figures beside its new
             results), as the simulator does.
  labels     names of 2000 characters in figure labels: the sweep's and the
             continuation's axis labels and the phase portrait's whole (cut
             at 159 and 299 characters).
  tiny       `--t-end 1e-320` and Python's `run(t_end=1e-320)` both refused
             with one reason (the end time is subnormal); every bad value of
             the simulator's options says why (it said "bad value" only).
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import os
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import (SANITIZED, Failure, alive, check, children, env_for, main,  # noqa: E402
                     no_gnuplot_path, run, whole_figure, whole_lines)

NSMC = os.path.abspath(sys.argv[1])
FIO_SIM = os.path.abspath(sys.argv[3])
SRC = os.path.abspath(sys.argv[4])
MODELS = os.path.join(SRC, "models")
FIO = os.path.join(MODELS, "forced_impact_oscillator.nsm")
SLOW = 3 if SANITIZED else 1


# ---- plotkill ---------------------------------------------------------------

def case_plotkill(tmp):
    """SIGKILL to the simulator and its gnuplot while gnuplot draws."""
    if not shutil.which("gnuplot"):
        raise Failure("gnuplot is needed by this case")
    d = os.path.join(tmp, "d")
    for attempt in range(3):
        shutil.rmtree(d, ignore_errors=True)
        pr = subprocess.Popen([FIO_SIM, "--t-end", str(600 // SLOW), "--every", "1e-3",
                               "--plot", "d"], cwd=tmp, env=env_for(tmp),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        gp, t0 = [], time.monotonic()
        while pr.poll() is None and not gp and time.monotonic() - t0 < 60:
            gp = children(pr.pid)
            time.sleep(0.005)
        if not gp:
            pr.wait()
            print("  attempt %d: the run ended before gnuplot was seen" % attempt)
            continue
        time.sleep(0.3 + 0.2 * attempt)       # gnuplot reading the data, then drawing
        pr.kill()
        for c in gp:
            try:
                os.kill(c, signal.SIGKILL)
            except ProcessLookupError:
                pass
        pr.wait()
        for c in gp:
            while alive(c):
                time.sleep(0.01)
        left = sorted(f for f in os.listdir(d) if f.startswith("plot."))
        print("  attempt %d: killed with gnuplot %r running; left %r" % (attempt, gp, left))
        for f in ("plot.png", "plot.svg"):
            p = os.path.join(d, f)
            check(not os.path.exists(p) or whole_figure(p),
                  "%s after SIGKILL while gnuplot draws: none or whole (it was left empty "
                  "or cut short: %d bytes)" % (f, os.path.getsize(p) if os.path.exists(p) else 0))
        p = run(tmp, [FIO_SIM, "--t-end", "20", "--plot", "d"])
        check(p.returncode == 0 and whole_figure(os.path.join(d, "plot.png")) and
              whole_figure(os.path.join(d, "plot.svg")),
              "the next run draws its figures whole in the same folder", p)
        return
    raise Failure("gnuplot never seen drawing")


# ---- nognuplot --------------------------------------------------------------

def case_nognuplot(tmp):
    """Without gnuplot: results kept, a note, exit 0, no earlier figure."""
    path = no_gnuplot_path(tmp)
    sweep = [NSMC, "sweep", FIO, "--section", "impact:stop", "--transient", "2", "--record",
             "2", "--out-dir", "sw"]
    p = run(tmp, sweep + ["--param", "omega=1:2:3"], timeout=300)
    check(p.returncode == 0 and whole_figure(os.path.join(tmp, "sw", "bifurcation.png")),
          "a sweep with its figures", p)
    p = run(tmp, sweep + ["--param", "omega=1:2:4"], timeout=300, env={"PATH": path})
    left = sorted(os.listdir(os.path.join(tmp, "sw")))
    print("  left:", left)
    check(p.returncode == 0 and "figures were not drawn" in p.stderr and
          "bifurcation.png, bifurcation.svg, which did not show these results, were removed"
          in p.stderr and whole_lines(os.path.join(tmp, "sw", "summary.csv")) == 4 and
          not [f for f in left if f.endswith((".png", ".svg")) or "tmp" in f or "partial" in f]
          and "bifurcation.gp" in left,
          "nsmc sweep without gnuplot: exit 0, a note naming the earlier figures removed, the "
          "new results and the script (it exited 1 with the earlier figures beside them)", p)
    p = run(tmp, sweep + ["--param", "omega=1:2:4"], timeout=300, env={"PATH": path})
    check(p.returncode == 0 and "figures were not drawn" in p.stderr and
          "were removed" not in p.stderr,
          "again without gnuplot: no earlier figure to remove, none named", p)
    cont = [NSMC, "continue", FIO, "--param", "omega=1.3:1.25", "--out-dir", "c"]
    p = run(tmp, cont, timeout=300)
    check(p.returncode == 0 and whole_figure(os.path.join(tmp, "c", "continuation.png")),
          "a continuation with its figures", p)
    p = run(tmp, cont, timeout=300, env={"PATH": path})
    left = sorted(os.listdir(os.path.join(tmp, "c")))
    print("  left:", left)
    check(p.returncode == 0 and "figures were not drawn" in p.stderr and
          "continuation.png, continuation.svg, which did not show these results, were removed"
          in p.stderr and whole_lines(os.path.join(tmp, "c", "branch.csv")) > 1 and
          not [f for f in left if f.endswith((".png", ".svg")) or "tmp" in f],
          "nsmc continue without gnuplot: exit 0, a note naming the earlier figures removed, "
          "the new branch (it exited 1 with the earlier figures beside it)", p)
    p = run(tmp, [FIO_SIM, "--plot", "pl", "--t-end", "20"])
    p = run(tmp, [FIO_SIM, "--plot", "pl", "--t-end", "20"], env={"PATH": path})
    check(p.returncode == 0 and "figures were not drawn" in p.stderr and
          whole_lines(os.path.join(tmp, "pl", "trajectory.csv")) > 0 and
          not [f for f in os.listdir(os.path.join(tmp, "pl")) if f.endswith((".png", ".svg"))],
          "the simulator's --plot without gnuplot: the same note, exit 0, no earlier figure", p)


# ---- labels -----------------------------------------------------------------

LONG_MODEL = '''model longnames "names of any length"
param w = 1.2 rad/s
param F0 = 0.5 N
mass {b} = 1 kg
mass {c} = 1 kg
spring ground -- {b}, k = 1 N/m
spring {b} -- {c}, k = 1 N/m
force Fx: on {b} = F0*cos(w*t)
gap stop: {b}.x >= -0.5, impact(e = 0.5)
init {b}.x = 1 m
simulate t_end = 30 s, dt = 1 ms, method = rk4
'''


def gp_text(path):
    with open(path, errors="replace") as f:
        return f.read()


def case_labels(tmp):
    """Figure labels of names of 2000 characters, whole."""
    b, c = "B" + "y" * 1999, "C" + "y" * 1999
    path = os.path.join(tmp, "longnames.nsm")
    with open(path, "w") as f:
        f.write(LONG_MODEL.format(b=b, c=c))
    p = run(tmp, [NSMC, "sweep", path, "--param", "w=1:2:3", "--section", "impact:stop",
                  "--transient", "2", "--record", "2", "--out-dir", "sw", "--plot", b + ".v"],
            timeout=300)
    text = gp_text(os.path.join(tmp, "sw", "bifurcation.gp"))
    check(p.returncode in (0, 3) and "set ylabel '%s.v [m/s]'" % b in text,
          "the bifurcation diagram's label of a 2000-character body whole (cut at 159)", p)
    p = run(tmp, [NSMC, "continue", path, "--param", "w=1.2:1.25", "--period", "2*pi/w",
                  "--out-dir", "c"],
            timeout=300)
    text = gp_text(os.path.join(tmp, "c", "continuation.gp"))
    check(p.returncode in (0, 3) and "set ylabel '%s.x [m]'" % b in text,
          "the continuation's label of a 2000-character body whole (cut at 159)", p)
    p = run(tmp, [NSMC, "run", path, "--phase", "-q", "--out-dir", "r"], timeout=300)
    text = gp_text(os.path.join(tmp, "r", "plot.gp"))
    check(p.returncode == 0 and 'set xlabel "%s.x [m]"' % c in text and
          'set ylabel "%s.v [m/s]"' % c in text,
          "the phase portrait's labels of a 2000-character body whole (cut at 299)", p)


# ---- tiny -------------------------------------------------------------------

PY_TINY = r'''
import sys
import nsm
m = nsm.compile(sys.argv[1])
try:
    m.run(t_end=1e-320)
    print("RAN")
except nsm.SettingError as e:
    print("REFUSED:", e)
'''


def case_tiny(tmp):
    """A subnormal end time refused alike, with its reason; bad values say why."""
    p = run(tmp, [FIO_SIM, "--t-end", "1e-320", "--out", "/dev/null"])
    print("  simulator:", p.stderr.strip())
    check(p.returncode == 1 and "end time 1e-320 s is subnormal" in p.stderr and
          "--t-end" in p.stderr,
          "--t-end 1e-320: refused naming the subnormal end time (it said 'bad value' only)", p)
    q = run(tmp, [sys.executable, "-c", PY_TINY, FIO], timeout=300)
    print("  python:", q.stdout.strip(), q.stderr.strip()[-300:])
    check(q.returncode == 0 and "REFUSED:" in q.stdout and
          "end time 1e-320 s is subnormal" in q.stdout,
          "run(t_end=1e-320): refused with the simulator's reason (it ran and returned one "
          "sample)", q)
    for opt, val, why in (("--t-end", "abc", "not a decimal number"),
                          ("--t-end", "1e400", "beyond the range of a double"),
                          ("--t-end", "-1", "must be a time >= 0 s"),
                          ("--dt", "-1e-3", "the step must be a time >= 0 s"),
                          ("--every", "-1", "sampling period must be a time >= 0 s"),
                          ("--max-steps", "0.5", "whole number from 1"),
                          ("--rtol", "0", "rtol > 0"),
                          ("--lyapunov-interval", "0", "interval must be a time > 0 s"),
                          ("--fps", "x", "not a decimal number"),
                          ("--plot", "", "an empty path")):
        p = run(tmp, [FIO_SIM, opt, val, "--out", "/dev/null"])
        line = p.stderr.strip().splitlines()[0] if p.stderr.strip() else ""
        print("  %s %r: %s" % (opt, val, line))
        check(p.returncode == 1 and "bad value '%s' for %s: " % (val, opt) in line and
              why in line, "%s %r: refused with its reason (%s)" % (opt, val, why), p)


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-ioleft-"))
