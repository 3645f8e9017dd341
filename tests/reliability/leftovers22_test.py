#!/usr/bin/env python3
"""What the twentieth hostile passes left as found (issue #29,
docs/fuzzing.md), each a check that failed before its fix.

    tests/reliability/leftovers22_test.py NSMC SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  lyapplot   the simulator's `--lyapunov-out P/l.csv --plot P` with P not
             there (refused: "cannot write 'P/l.csv'", the spectrum's
             folder checked before --plot made it): P made, the spectrum
             and the plots in it, the exponents of the forced impact
             oscillator summing to -c/m + 2 N ln(e)/T (N the impacts of
             P/events.csv in T); --out, --events, --stats, --section-out
             and an HDF5 --out inside P written too; a spectrum's folder
             that --plot does not make, a name --plot writes itself, and
             the default trajectory's name still refused, nothing made.
  nsmco      `nsmc MODEL -o --help` wrote the simulator to a file named
             --help (and `--emit=equations ... -o --format=text` the
             equations to one named --format=text): refused naming -o and
             the way of giving such a name (-o ./NAME), exit 1, nothing
             made; `-o ./-x.c` and `-o -` (standard output) still work.
  frichertz  a 100 g block with Coulomb friction (mu N = 0.2 x 981 mN)
             pushed by 1 N for 40 ms, then coasting into a Hertz wall 30
             mm away (k = 2e5, 2e7, 2e9 N/m^p, p = 1.25, 1.5, 2), by
             taylor: refused ("the energy balance is off by 1 of the
             largest energy", exit 3) at 6 of the 9; its release from the
             wall was missed (the step, the law left out near p = 0, ran
             past the release and past the block's stop, the series turned
             back into the wall).  Now at rest where friction took the last
             of its energy, by hand: x_f = d - E_out/(mu N), E_out = k/(p+1)
             p_m^(p+1) - mu N p_m the energy left at the wall's edge, p_m
             the deepest penetration, k/(p+1) p_m^(p+1) + mu N p_m = m
             v_in^2/2, v_in^2 = (a T0)^2 - 2 mu N/m (d - a T0^2/2), a = (F -
             mu N)/m; the release at the time rk4 gives within 1e-9 s.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import csv
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import SANITIZED, check, compiled, env_for, main  # noqa: E402

NSMC = os.path.abspath(sys.argv[1])
SRC = os.path.abspath(sys.argv[2])
SLOW = 4 if SANITIZED else 1

# a harmonically forced impact oscillator: m = k = 1, c = 0.1 (zeta 0.05),
# a rigid stop at x = 0 with e = 0.8
FIO = '''model fio "a harmonically forced impact oscillator"
param omega = 2.5 rad/s
param e = 0.8
mass M = 1 kg
spring S: ground -- M, k = 1 N/m, c = 0.1 N*s/m
force P: on M = 1 N * cos(omega*t)
gap stop: M.x <= 0 m, impact(e = e)
init M.x = -0.5 m, M.v = 0 m/s
simulate t_end = 20 s, method = exact
output every 0.05 s: M.x, M.v
'''


def go(tmp, cmd, timeout=120):
    """Runs cmd in tmp with its own cache; the CompletedProcess."""
    return subprocess.run(cmd, cwd=tmp, env=env_for(tmp), capture_output=True, text=True,
                          errors="replace", timeout=timeout * SLOW)


def listing(tmp):
    """The names in tmp but the cache and the model's files, sorted."""
    return sorted(n for n in os.listdir(tmp) if n not in ("cache", "fio.nsm", "o"))


def simulator(tmp):
    """The oscillator's simulator, built by nsmc run into tmp's cache."""
    path = os.path.join(tmp, "fio.nsm")
    with open(path, "w") as f:
        f.write(FIO)
    p = go(tmp, [NSMC, "run", path, "--no-plot", "-q", "--out-dir", "o"])
    check(p.returncode == 0, "nsmc run of the oscillator", p)
    for root, _, files in os.walk(os.path.join(tmp, "cache")):
        if "fio" in files and os.access(os.path.join(root, "fio"), os.X_OK):
            return path, os.path.join(root, "fio")
    check(False, "the oscillator's simulator is in the cache")
    return None


def impacts(path):
    """The number of impacts in the events CSV at path."""
    with open(path) as f:
        return sum(1 for r in csv.reader(f) if len(r) > 1 and r[1] == "impact")


# ---- lyapplot ----------------------------------------------------------------

def case_lyapplot(tmp):
    """--lyapunov-out P/l.csv beside --plot P, P not there yet."""
    _, sim = simulator(tmp)
    p = go(tmp, [sim, "--lyapunov", "--lyapunov-out", "P/l.csv", "--plot", "P"])
    made = sorted(os.listdir(os.path.join(tmp, "P"))) if os.path.isdir(os.path.join(tmp, "P")) else None
    print("  --lyapunov --lyapunov-out P/l.csv --plot P (no P) -> %d  %s" % (p.returncode, made))
    check(p.returncode == 0 and made is not None and "l.csv" in made and "plot.gp" in made,
          "the spectrum written into the folder --plot made", p)
    with open(os.path.join(tmp, "P", "l.csv")) as f:
        lam = [float(r[1]) for r in list(csv.reader(f))[1:]]
    n = impacts(os.path.join(tmp, "P", "events.csv"))
    # each impact multiplies the phase-space area by e^2, the damper by
    # exp(-c/m) per second: sum of the exponents -c/m + 2 N ln(e)/T
    want = -0.1 + 2 * n * math.log(0.8) / 20
    print("    %d exponents summing to %.12g (by hand, %d impacts in 20 s: %.12g)"
          % (len(lam), sum(lam), n, want))
    check(len(lam) == 2 and n > 0 and abs(sum(lam) - want) < 1e-9 * abs(want),
          "the exponents sum to -c/m + 2 N ln(e)/T")
    for opt, name in (("--out", "t.csv"), ("--events", "e.csv"), ("--stats", "s.txt"),
                      ("--section-out", "s.csv"), ("--out", "r.h5")):
        folder = "Q" + name.replace(".", "")
        extra = ["--section", "impact:stop"] if opt == "--section-out" else []
        p = go(tmp, [sim] + extra + [opt, "%s/%s" % (folder, name), "--plot", folder])
        there = os.path.exists(os.path.join(tmp, folder, name))
        print("  %s %s/%s --plot %s (no %s) -> %d  written %s"
              % (opt, folder, name, folder, folder, p.returncode, there))
        check(p.returncode == 0 and there and
              os.path.exists(os.path.join(tmp, folder, "plot.gp")),
              "%s inside the folder --plot made: written" % opt, p)
    for cmd, said in [([sim, "--lyapunov", "--lyapunov-out", "S/T/l.csv", "--plot", "S"],
                       "cannot write 'S/T/l.csv'"),
                      ([sim, "--lyapunov", "--lyapunov-out", "U/plot.gp", "--plot", "U"],
                       "a file that --plot U writes itself"),
                      ([sim, "--lyapunov", "--lyapunov-out", "V/trajectory.csv", "--plot", "V"],
                       "name the same file with --plot V")]:
        before = listing(tmp)
        p = go(tmp, cmd)
        label = " ".join(cmd[1:])
        print("  %-50s -> %d  %s" % (label, p.returncode, p.stderr.strip().splitlines()[-1:]))
        check(p.returncode == 1 and said in p.stderr, "%s refused (%s)" % (label, said), p)
        check(listing(tmp) == before, "nothing made (%s, was %s)" % (listing(tmp), before))


# ---- nsmco -------------------------------------------------------------------

def case_nsmco(tmp):
    """nsmc's -o given a word that looks like an option."""
    path = os.path.join(tmp, "fio.nsm")
    with open(path, "w") as f:
        f.write(FIO)
    for cmd, val in [([NSMC, path, "-o", "--help"], "--help"),
                     ([NSMC, path, "-o", "-x.c"], "-x.c"),
                     ([NSMC, "--emit=equations", path, "-o", "--format=text"], "--format=text"),
                     ([NSMC, "--emit=equations", "-o", "--format=markdown", path],
                      "--format=markdown")]:
        before = listing(tmp)
        p = go(tmp, cmd)
        label = " ".join("MODEL" if w == path else w for w in cmd[1:])
        print("  nsmc %-45s -> %d  %s" % (label, p.returncode, p.stderr.strip().splitlines()[-1:]))
        check(p.returncode == 1 and "option -o takes a file name, not '%s'" % val in p.stderr
              and "given as -o ./%s" % val in p.stderr, "nsmc %s: refused naming -o and the "
              "way of giving %s" % (label, val), p)
        check(listing(tmp) == before, "nothing made (%s, was %s)" % (listing(tmp), before))
    p = go(tmp, [NSMC, path, "-o", "./-x.c"])
    there = os.path.exists(os.path.join(tmp, "-x.c"))
    print("  nsmc MODEL -o ./-x.c -> %d  written %s" % (p.returncode, there))
    check(p.returncode == 0 and there, "nsmc MODEL -o ./-x.c written", p)
    with open(os.path.join(tmp, "-x.c")) as f:
        text = f.read()
    p = go(tmp, [NSMC, path, "-o", "-"])
    print("  nsmc MODEL -o - -> %d  %d bytes on stdout" % (p.returncode, len(p.stdout)))
    check(p.returncode == 0 and p.stdout == text, "nsmc MODEL -o - writes the same C to "
          "standard output", p)



# ---- frichertz ---------------------------------------------------------------

# FHW, the block with friction pushed, then coasting into a Hertz wall, and
# root, a bisection: the twentieth core pass's (frichertz)
from twentieth_pass_core_test import FHW, root  # noqa: E402


def rest_by_energy(k, p, m=0.1, mun=0.2 * 0.981, F=1.0, T0=0.04, d=0.03):
    """Where the block of FHW comes to rest (SI units), and whether it left
    the wall: pushed at a = (F - mu N)/m for T0, it coasts to the wall
    against mu N, stores k/(p+1) p_m^(p+1) while friction takes mu N p_m,
    and leaves with what is left, E_out, which friction takes over E_out/(mu
    N); or, with nothing left, it stops at the depth q where the spring's
    energy given back, k/(p+1) (p_m^(p+1) - q^(p+1)), equals mu N (p_m - q)."""
    a = (F - mun) / m
    vin2 = (a * T0) ** 2 - 2 * mun / m * (d - a * T0 * T0 / 2)
    pm = root(lambda q: k / (p + 1) * q ** (p + 1) + mun * q - m * vin2 / 2, 0.0, 1.0)
    out = k / (p + 1) * pm ** (p + 1) - mun * pm
    if out > 0:
        return d - out / mun, True
    back = lambda q: k / (p + 1) * (pm ** (p + 1) - q ** (p + 1)) - mun * (pm - q)  # noqa: E731
    return d + root(back, 0.0, pm * (1 - 1e-9)), False


def case_frichertz(tmp):
    """taylor: friction coasting out of a Hertz wall."""
    import nsm
    m = compiled(tmp, "fhw", FHW)
    for p in (1.25, 1.5, 2.0):
        for k in (2e5, 2e7, 2e9):
            want, leaves = rest_by_energy(k, p)
            label = "block pushed 40 ms, coasting into a wall (k = %g, p = %g), taylor" % (k, p)
            try:
                r = m.run(method="taylor", params={"p": p, "k": k})
            except nsm.Error as ex:
                print("  %s -> refused: %s" % (label, str(ex)[:150]))
                check(False, label + ": run")
                return
            x, v = r["B.x"][-1], r["B.v"][-1]
            out = [e["t"] for e in r.events if e["kind"] == "contact_exit"]
            print("  %s -> at rest at %.12g m (by hand %.12g), v %.3g; released at %s"
                  % (label, x, want, v, out))
            check(abs(x - want) < 1e-9 and abs(v) < 1e-15, label + ": at rest where friction "
                  "took its energy")
            check(len(out) == (1 if leaves else 0), label + ": released from the wall %s"
                  % ("once" if leaves else "never (at rest inside it)"))

if __name__ == "__main__":
    sys.exit(main({n[5:]: f for n, f in globals().items() if n.startswith("case_")}, "nsm-left22-", 3))
