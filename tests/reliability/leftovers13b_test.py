#!/usr/bin/env python3
"""What the thirteenth hostile pass on the core left as found (issue #29),
each fixed at its cause, each check failing before its fix.

    tests/reliability/leftovers13b_test.py SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  sampling   Model.section stepped to the model's output period (10 ms)
             whatever the run's length: a pendulum of g = 1e-20 m/s^2
             (period 6.7e10 s) sectioned over 1.5e11 s ran to the step cap
             (151 s over 1e10 s), where the simulator refuses the run and
             runs it with --every 0.  Now a study whose run would pass the
             sample cap steps freely: the section, and a sweep over g = 1e-20
             and 2e-20, cross phi = 0 downwards at (k + 1/4) T, T = 4
             sqrt(l/g) K(sin^2(phi0/2)) (mpmath, 30 digits), within 1e-8 of
             T; run in a child process with a time limit, so that the
             spinning it replaced fails the case instead of hanging it.
  sweep      the same gap in nsmc sweep (and so Model.basins): over
             --t-max 1.5e11 each point now steps past the output period, its
             crossings at (k + 1/4) T within 1e-8 T, adaptive and taylor.
  names      a plane section named a planar body's angle only as P.phi.x,
             though the records are headed P.phi: the section takes the
             columns' names (P.phi, P.omega) in Python and in the
             simulator's --section, with the same records as P.phi.x and
             P.phi.v (compared exactly), the first downward crossing of
             phi = 0 at T/4 and of omega = 0 at T; an unknown name is
             refused naming what a section accepts.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import check, compiled, main, run  # noqa: E402
# the pendulum written by its torque and its elliptic period
from thirteenth_pass_core_test import PEND, pendulum_period  # noqa: E402

SRC = os.path.abspath(sys.argv[1])
BUILD = os.environ.get("NSM_BUILD_DIR", os.path.join(SRC, "build"))

# the studies of the slow pendulum, in a child process with a time limit:
# before the fix each ran to the step cap of 1e8 steps (minutes)
CHILD = r'''
import sys
sys.path.insert(0, sys.argv[1])
from passlib import compiled
p = compiled(sys.argv[2], "pend", open(sys.argv[3]).read())
r = p.section("plane:P.phi.x:down", t_end=1.5e11, params={"g": 1e-20}, method="adaptive")
print("section", *r[:, 0])
for meth in ("adaptive", "taylor"):
    v, rec = p.sweep("g", [1e-20, 2e-20], "plane:P.phi.x:down", transient=0, record=5,
                     t_max=1.5e11, method=meth)
    print("sweep-" + meth, *("%r:%r" % (a, b) for a, b in zip(v, rec[:, 0])))
'''


def sweep_crossings(by, label):
    """Checks a sweep's records over 1.5e11 s, {g: [t, ...]} for g = 1e-20
    and 2e-20: every downward crossing of phi = 0 at (k + 1/4) T within 1e-8
    T, as many as fit before 1.5e11 s."""
    for g in (1e-20, 2e-20):
        Tg = pendulum_period(1.0, g=g)
        ts = by.get(g, [])
        err = max([abs(t - (k + 0.25) * Tg) / Tg for k, t in enumerate(ts)] + [0])
        n = int(1.5e11 / Tg - 0.25) + 1
        print("  %s, g = %g: %d crossings (expected %d), within %.1e T" % (label, g, len(ts), n,
                                                                         err))
        check(len(ts) == n and err < 1e-8, "%s at g = %g: crossings at (k + 1/4) T within 1e-8 T"
              % (label, g))


def case_sampling(tmp):
    with open(os.path.join(tmp, "pend.nsm"), "w") as f:
        f.write(PEND)
    compiled(tmp, "pend", PEND)     # the program cached before the timed child
    child = os.path.join(tmp, "child.py")
    with open(child, "w") as f:
        f.write(CHILD)
    here = os.path.dirname(os.path.abspath(__file__))
    p = run(tmp, [sys.executable, child, here, tmp, os.path.join(tmp, "pend.nsm")], timeout=60)
    print(p.stdout.strip())
    check(p.returncode == 0, "the slow pendulum's section and sweeps end by themselves", p)
    lines = dict(ln.split(" ", 1) for ln in p.stdout.strip().splitlines())
    T = pendulum_period(1.0, g=1e-20)
    got = [float(x) for x in lines["section"].split()]
    err = max([abs(t - (k + 0.25) * T) / T for k, t in enumerate(got)] + [0])
    print("  section over 1.5e11 s, g = 1e-20: %d crossings, within %.1e T of (k + 1/4) T, "
          "T = %.12g s" % (len(got), err, T))
    check(len(got) == 2 and err < 1e-8, "section: two downward crossings at (k + 1/4) T "
          "within 1e-8 T")
    for meth in ("adaptive", "taylor"):
        pts = [tuple(float(x) for x in w.split(":")) for w in lines["sweep-" + meth].split()]
        by = {}
        for g, t in pts:
            by.setdefault(g, []).append(t)
        sweep_crossings(by, "sweep " + meth)


def case_sweep(tmp):
    nsmc = os.path.join(BUILD, "nsmc")
    with open(os.path.join(tmp, "pend.nsm"), "w") as f:
        f.write(PEND)
    for meth in ("adaptive", "taylor"):
        out = os.path.join(tmp, "sw-" + meth)
        p = run(tmp, [nsmc, "sweep", "pend.nsm", "--param", "g=1e-20:2e-20:2", "--section",
                      "plane:P.phi:down", "--t-max", "1.5e11", "--method", meth, "--transient",
                      "0", "--record", "5", "--out-dir", out], timeout=60)
        check(p.returncode == 0, "nsmc sweep %s over --t-max 1.5e11 ends by itself" % meth, p)
        by = {}
        with open(os.path.join(out, "section.csv")) as f:
            f.readline()
            for line in f:
                g, t = (float(x) for x in line.split(",")[:2])
                by.setdefault(g, []).append(t)
        sweep_crossings(by, "nsmc sweep " + meth)


def case_names(tmp):
    import nsm
    import numpy as np
    pend = compiled(tmp, "pend", PEND)
    T = pendulum_period(1.0)
    for named, raw, first in (("P.phi", "P.phi.x", 0.25 * T), ("P.omega", "P.phi.v", T)):
        a = pend.section("plane:%s:down" % named, t_end=2.1 * T, method="taylor")
        b = pend.section("plane:%s:down" % raw, t_end=2.1 * T, method="taylor")
        print("  plane:%s:down -> %d records, first at %.15g s (expected %.15g)"
              % (named, len(a), a[0, 0] if len(a) else float("nan"), first))
        check(len(a) == len(b) == 2 and np.array_equal(a, b, equal_nan=True),
              "Python: plane:%s:down gives the records of plane:%s:down" % (named, raw))
        check(abs(a[0, 0] - first) < 1e-12, "Python: plane:%s:down first at its closed form "
              "within 1e-12 s" % named)
    try:
        pend.section("plane:P.phi.y:down", t_end=1)
        check(False, "plane:P.phi.y refused")
    except nsm.SettingError as e:
        print("  plane:P.phi.y:down -> %s" % e)
        check("unknown name 'P.phi.y'" in str(e) and "state column" in str(e),
              "an unknown name is refused naming the state columns and BODY.x / BODY.v")
    sim = os.path.join(BUILD, "sims", "sim_pendulum_wall")
    outs = {}
    for spec in ("plane:P.phi:up", "plane:P.phi.x:up", "plane:P.omega:down",
                 "plane:P.phi.v:down"):
        out = os.path.join(tmp, spec.replace(":", "_") + ".csv")
        p = subprocess.run([sim, "--section", spec, "--section-out", out, "--t-end", "4",
                            "--events", os.devnull], capture_output=True, text=True, timeout=60)
        check(p.returncode == 0, "simulator --section %s runs" % spec, p)
        with open(out) as f:
            outs[spec] = f.read()
        print("  sim_pendulum_wall --section %s -> %d records" % (spec, outs[spec].count("\n") - 1))
    check(outs["plane:P.phi:up"] == outs["plane:P.phi.x:up"] and
          outs["plane:P.phi:up"].count("\n") > 1,
          "simulator: --section plane:P.phi:up writes the records of plane:P.phi.x:up")
    check(outs["plane:P.omega:down"] == outs["plane:P.phi.v:down"] and
          outs["plane:P.omega:down"].count("\n") > 1,
          "simulator: --section plane:P.omega:down writes the records of plane:P.phi.v:down")
    p = subprocess.run([sim, "--section", "plane:P.phi.y:up", "--t-end", "1"],
                       capture_output=True, text=True, timeout=60)
    print("  sim_pendulum_wall --section plane:P.phi.y:up -> exit %d: %s"
          % (p.returncode, p.stderr.strip()))
    check(p.returncode == 1 and "unknown name 'P.phi.y'" in p.stderr and
          "state column" in p.stderr, "simulator: an unknown name is an option error naming "
          "what a section accepts", p)


if __name__ == "__main__":
    sys.exit(main({"sampling": case_sampling, "sweep": case_sweep, "names": case_names}, "nsm-left13b-", case_arg=2))
