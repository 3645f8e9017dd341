#!/usr/bin/env python3
"""An eighth hostile pass over what changed last: friction elements pressed
by a gap (`friction F: normal = gap G, ...`) in their derived modes, bodies
in space under taylor, the friction statistics of Python and HDF5, and the
energetic and simultaneous impact laws on odd trains of beads.

    tests/reliability/eighth_pass_test.py NSMC SIM FIO_SIM SOURCE_DIR CASE SIMS_DIR

Cases (each under 20 s in the normal build):
  findings   what the pass found, each failing before its fix: Python's
             Model.run raised ParameterError, without the partial result,
             for a run that failed at t = 0.5 s with NSM_EMODEL (disc_corner
             with mu = 1e300: the frictional impact of the corner has no
             solution), where the simulator says "simulation failed", exit 3.
  gapfric    --set on the gap-pressed friction models (disc_corner,
             sliding_block, block_drop, super_ball) with mu 0, 1e-320, 1e300
             and -1, restitutions at and outside [0, 1], masses and radii
             1e-300 and 1e300, gravity reversed, every method and --no-zeno;
             a mass scale that the physics does not see (every method the
             same events from 1e-9 to 1e9 kg); the friction statistics of
             the summary, HDF5 (NaN without the audit, the summary's values
             with it, the stopped run's row) and models without friction.
  space      bodies in space under taylor with hostile --t-end, --every,
             --rtol, --dt, --max-steps and methods.
  trains     the energetic and simultaneous laws on one bead at a wall, two
             and three, masses of ratio 1e10 and 1e-12, stiffness ratios
             1e12, exponents 1 and 10, e = 0, 0.5, 1: each ends with 0 or a
             refusal (exit 1, "stalled"); every finished run leaves the beads
             separating (no interpenetration), none moving into the wall and
             the kinetic energy not above its start; two equal beads with
             e = 1 exchange their velocities.
  python     the findings as Python sees them.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import (SANITIZED, check, main, pass_paths, python_script, run,  # noqa: E402
                     sim, thin, tried)

NSMC, SIM, FIO_SIM, SRC, SIMS, MODELS = pass_paths()


# ---- findings and python ----------------------------------------------------

PY = r'''
import sys, nsm
M = sys.argv[1] + "/"
m = nsm.compile(M + "disc_corner.nsm")
try:
    m.run(params={"mu": 1e300})
    raise AssertionError("mu = 1e300 ran to its end")
except nsm.SimulationError as e:
    r = e.result
    assert e.status == "NSM_EMODEL" and abs(e.t - 0.5) < 1e-9, (e.status, e.t)
    assert "has no solution" in str(e), e
    assert r is not None and len(r.t) == 51 and abs(r.t[-1] - 0.5) < 1e-9, r and r.t[-3:]
    assert list(r.frictions) == ["FF", "FW"], r.frictions
    print("ok: mu = 1e300: SimulationError at t = 0.5 s with its 51 samples (a ParameterError "
          "without them)")
try:
    m.run(params={"mu": -1})
    raise AssertionError("mu = -1 ran")
except nsm.ParameterError as e:
    assert "invalid value -1 of parameter 'mu'" in str(e), e
    print("ok: mu = -1: still a ParameterError before the run")
r = m.run(params={"mu": 0})
assert all(f["dissipated"] == 0 and f["sticks"] == 0 for f in r.frictions.values()), r.frictions
print("ok: mu = 0: no friction element dissipates or sticks")
'''


def case_findings(tmp):
    """Each finding of the pass, a check that failed before its fix: the
    simulator's side of it (exit 3, "simulation failed"); Python's is
    case_python."""
    p = run(tmp, [sim("disc_corner"), "--set", "mu=1e300", "--out", "d.csv"])
    rows = open(os.path.join(tmp, "d.csv")).read().splitlines()[1:]
    check(p.returncode == 3 and "simulation failed: t = 0.5 s" in p.stderr and
          "has no solution" in p.stderr and len(rows) == 51,
          "disc_corner --set mu=1e300: exit 3 at t = 0.5 s, its 51 samples kept", p)
    case_python(tmp)


def case_python(tmp):
    """The findings as Python sees them: a failed run is a SimulationError
    with its partial result whatever its status."""
    python_script(tmp, "eighth_python.py", PY, [MODELS],
                  "python: a run failing with NSM_EMODEL is a SimulationError with its "
                  "partial result")


# ---- gapfric ----------------------------------------------------------------

GAPFRIC = {
    "disc_corner": ["mu=0", "mu=1e-320", "mu=1e300", "mu=-1", "e=1", "e=0", "e=1.5", "e=-0.1",
                    "m=1e-300", "m=1e300", "R=1e-300", "g=0", "g=-9.81"],
    "sliding_block": ["mu_s=0", "mu_k=0", "mu_s=1e300", "mu_k=1e-320", "m=1e-300", "m=1e300",
                      "P=0", "P=-10", "Q=1e300", "w=0"],
    "block_drop": ["mu=0", "mu=1e300", "mu=-1", "e=1", "e=1.5", "m=1e-300", "m=1e300",
                   "g=0", "g=-9.81", "v0=1e300", "h=0"],
    "super_ball": ["mu=0", "mu=1e300", "eT=0", "eT=1", "eT=1.5", "eT=-1", "eN=0", "r=1e-300",
                   "r=1e300", "m=1e-300", "g=0"],
}
METHODS = [[], ["--method", "adaptive"], ["--method", "rk4"], ["--no-zeno"]]


def events_of(stderr):
    """The event count of a run's summary line."""
    for line in stderr.splitlines():
        if " events, " in line:
            return int(line.split(":")[1].split()[0])
    return None


def case_gapfric(tmp):
    """--set on the gap-pressed friction models with every method; the mass
    scale; the friction statistics of the summary and of HDF5."""
    n = 0
    for name, sets in GAPFRIC.items():
        for setv in sets:
            for meth in thin(METHODS):
                args = [sim(name), "--set", setv, "--t-end", "1", "--summary",
                        "--out", "o.csv"] + meth
                tried(tmp, args, "%s --set %s %s" % (name, setv, " ".join(meth)), timeout=60)
                n += 1
    print("%d gap-pressed friction inputs, each ended with 0, 1 or 3 and a message" % n)
    # the physics does not see the mass scale of these models (every force
    # and inertia is proportional to m): the same events at every scale
    for name in ("block_drop", "disc_corner"):
        for meth in ("exact", "adaptive", "rk4"):
            counts = set()
            for mv in thin(["1e-9", "1e-3", "1", "1e3", "1e9"]):
                p = run(tmp, [sim(name), "--set", "m=" + mv, "--method", meth, "--t-end", "1",
                              "--out", "/dev/null"])
                counts.add(events_of(p.stderr) if p.returncode == 0 else -p.returncode)
            check(len(counts) == 1 and min(counts) > 0,
                  "%s --method %s: the same events at masses 1e-9 .. 1e9 kg" % (name, meth))
    h5_frictions(tmp)


def h5_frictions(tmp):
    """The friction statistics in HDF5: NaN without the audit, the summary's
    values with it, a stopped run's row, and none for a model without friction."""
    import h5py
    p = run(tmp, [sim("sliding_block"), "--summary", "--out", "sb.h5"])
    line = [ln for ln in (p.stdout + p.stderr).splitlines()
            if ln.strip().startswith("friction F ")]
    summ = float(line[0].split()[2]) if line else None
    with h5py.File(os.path.join(tmp, "sb.h5"), "r") as f:
        row = f["run/frictions"][()][0]
    check(p.returncode == 0 and summ is not None and
          abs(row["dissipated"] - summ) <= 1e-8 * summ and row["friction"] == b"F",
          "sliding_block --summary --out sb.h5: /run/frictions's dissipation is the summary's", p)
    p = run(tmp, [sim("disc_corner"), "--set", "mu=1e300", "--out", "dc.h5"])
    with h5py.File(os.path.join(tmp, "dc.h5"), "r") as f:
        rows, attrs = f["run/frictions"][()], dict(f["run"].attrs)
    check(p.returncode == 3 and attrs["status"] == 3 and attrs["t_reached"] == 0.5 and
          [r["friction"] for r in rows] == [b"FF", b"FW"] and
          all(r["dissipated"] != r["dissipated"] for r in rows),
          "disc_corner --set mu=1e300 --out dc.h5: stopped at 0.5 s, both rows, NaN without "
          "the audit", p)
    p = run(tmp, [sim("two_mass"), "--t-end", "1", "--out", "tm.h5"])
    with h5py.File(os.path.join(tmp, "tm.h5"), "r") as f:
        sizes = (len(f["run/frictions"][()]), len(f["run/space_frictions"][()]))
    check(p.returncode == 0 and sizes == (0, 0), "two_mass --out tm.h5: no friction rows", p)


# ---- space ------------------------------------------------------------------

def case_space(tmp):
    """Bodies in space under taylor with hostile options."""
    opts = [["--t-end", "0"], ["--t-end", "1e-300"], ["--t-end", "1e300"], ["--t-end", "-1"],
            ["--every", "1e-300"], ["--every", "0", "--t-end", "0.01"], ["--rtol", "0"],
            ["--rtol", "1e-300"], ["--rtol", "10"], ["--dt", "1e-300"], ["--method", "exact"],
            ["--method", "rk4", "--t-end", "0.02"], ["--method", "adaptive", "--t-end", "0.02"],
            ["--max-steps", "1"], ["--no-zeno", "--t-end", "0.2"], ["--t-end", "0.1", "--out",
                                                                     "s.h5"]]
    n = 0
    for name in ("tippe_top", "super_ball_3d", "ball_in_space"):
        for o in thin(opts):
            args = [sim(name)] + o + ([] if "--out" in o else ["--out", "o.csv"])
            p = tried(tmp, args, "%s %s" % (name, " ".join(o)), timeout=60)
            if "--t-end" in o and o[o.index("--t-end") + 1] in ("0", "1e-300"):
                check(p.returncode == 0, "%s %s: runs" % (name, " ".join(o)), p)
            n += 1
    print("%d inputs on bodies in space" % n)


# ---- trains -----------------------------------------------------------------

def train(n, law, mratio, kratio, ex, e):
    """A train of n beads (the last of mass mratio) thrown at a wall: gap W
    between the first and the wall, G1 .. between neighbours."""
    stiff = (lambda k: ", stiffness = %s, exponent = %s" % (k, ex)) if law == "energetic" \
        else (lambda k: "")
    lines = ['model t "train"', "param e = %s" % e]
    lines += ["mass B%d = %s kg" % (i, mratio if i == n else 1) for i in range(1, n + 1)]
    lines.append("gap W: B1.x >= 0, impact(e = e%s)" % stiff(kratio))
    lines += ["gap G%d: B%d.x - B%d.x >= 0, impact(e = e%s)" % (i, i + 1, i, stiff("1e7"))
              for i in range(1, n)]
    inits = ["B%d.x = 0 m" % i for i in range(1, n + 1)] + ["B%d.v = -1 m/s" % n]
    lines.append("init " + ", ".join(inits))
    lines.append("simulate t_end = 0.1 s, method = rk4, impact_law = %s" % law)
    lines.append("output every 10 ms: " + ", ".join("B%d.v" % i for i in range(1, n + 1)))
    return "\n".join(lines) + "\n"


def case_trains(tmp):
    """The multi-impact laws on odd trains: physical ends or refusals."""
    cases = []
    for n in (1, 2, 3):
        for law in ("energetic", "simultaneous"):
            for mr in ("1", "1e10", "1e-12"):
                for kr, ex in (("1e7", "1"), ("1e19", "1"), ("1e-5", "10"), ("1e7", "10")):
                    if law == "simultaneous" and (kr, ex) != ("1e7", "1"):
                        continue
                    for e in ("0", "0.5", "1"):
                        cases.append((n, law, mr, kr, ex, e))
    # every fourth of the 135 trains (every ninth under the sanitizers), the
    # two equal beads of the exchange check always
    picked = cases[::9] if SANITIZED else cases[::4]
    picked.append((2, "simultaneous", "1", "1e7", "1", "1"))
    done = 0
    for k, (n, law, mr, kr, ex, e) in enumerate(picked):
        path = os.path.join(tmp, "t%d.nsm" % k)
        open(path, "w").write(train(n, law, mr, kr, ex, e))
        out = "d%d" % k
        p = tried(tmp, [NSMC, "run", path, "--no-plot", "-q", "--out-dir", out],
                  "%d beads %s m %s k %s ^%s e %s" % (n, law, mr, kr, ex, e), timeout=60)
        if p.returncode == 1:
            check("stalled" in p.stderr, "a refused train names the stalled impact", p)
            continue
        rows = list(csv.reader(open(os.path.join(tmp, out, "trajectory.csv"))))[1:]
        v = [float(x) for x in rows[-1][1:]]
        m = [1.0] * (n - 1) + [float(mr)]
        ke = sum(0.5 * mi * vi * vi for mi, vi in zip(m, v))
        check(p.returncode == 0 and v[0] >= -1e-9 and
              all(v[i + 1] - v[i] >= -1e-9 for i in range(n - 1)) and
              ke <= 0.5 * m[-1] * (1 + 1e-9),
              "%d beads, %s, mass ratio %s, e = %s: separating, none into the wall, no energy "
              "made (v = %s)" % (n, law, mr, e, v), p)
        if (n, mr, e, kr) == (2, "1", "1", "1e7") and law == "simultaneous":
            check(abs(v[0] - 0) <= 1e-12 and abs(v[1] - 1) <= 1e-12,
                  "two equal beads, e = 1, simultaneous: the last leaves at 1 m/s, the first "
                  "at rest", p)
        done += 1
    print("%d trains ran to their end" % done)


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-eighth-"))
