#!/usr/bin/env python3
"""Two-parameter curves and branch switching of nsmc continue against
references computed here, independently of the runtime (the impact map's
closed form of tests/studies/continuation_test.py, mpmath at 30 digits):

  * the period-doubling curve in (omega, e) of the forced impact oscillator
    (models/forced_impact_oscillator.nsm: m = k = F = 1, zeta = 0.05, the
    stop at equilibrium): at several points of the curve, the impact map's
    fixed point with det(DP + I) = 0 solved at that e, to 1e-10 in omega;
  * the fold curve in (omega, e) of the oscillator with a clearance d = 2
    (tests/studies/impact_clearance.nsm), the same with det(DP - I) = 0;
  * the grazing curve in (omega, d): F / sqrt((k - m w^2)^2 + (c w)^2) = d,
    every point to 1e-10 in omega, its smallest gap zero;
  * branch switching at the period doubling (--switch-pd): the doubled
    orbit against the period-2 fixed point of the impact map (two impacts
    per two forcing periods) solved in mpmath at one of its frequencies;
  * bad options: a message, exit status 1, no curve.csv.

usage: curves_test.py --nsmc PATH --fio PATH --clearance PATH
"""
import argparse
import csv
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import continuation_test as ref  # noqa: E402  (the closed-form impact map)
from mpmath import mp, mpf, pi, findroot  # noqa: E402

mp.dps = 30
OM = "omega [rad/s]"


def run(nsmc, model, out, opts, status=0, said=""):
    """nsmc continue MODEL OPTS into out, which must exit with status and
    say said; the rows of its CSV."""
    cmd = [nsmc, "continue", model, "--out-dir", out, "--no-plot", "-q"] + opts
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != status or said not in p.stderr:
        sys.exit(f"FAIL: {' '.join(cmd)} exited {p.returncode}: {p.stderr}")
    name = "curve.csv" if "--curve" in opts else "branch.csv"
    with open(os.path.join(out, name)) as f:
        return list(csv.DictReader(f))


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    return 0 if ok else 1


def spread(rows, k):
    """k rows spread along the curve, its ends included."""
    return [rows[round(i * (len(rows) - 1) / (k - 1))] for i in range(k)]


def special_curve(nsmc, model, tmp, name, opts, sign, d, k):
    """Points of a fold (sign -1) or flip (+1) curve in (omega, e) against
    the mpmath fixed point with the condition at each point's e."""
    bad = 0
    rows = run(nsmc, model, os.path.join(tmp, name), opts)
    es = [float(r["e"]) for r in rows]
    bad += check(len(rows) >= 5 and max(es) - min(es) > 0.2,
                 f"{name}: {len(rows)} points, e from {min(es):.3f} to {max(es):.3f}")
    ref.D = mpf(d)
    for r in spread(rows, k):
        ref.E = mpf(r["e"])
        w, v = ref.special(r[OM], r["M.x [m]"], r["M.v [m/s]"], sign)
        err = abs(float(r[OM]) - float(w))
        bad += check(err < 1e-10 and abs(float(r["min_speed"]) - float(v)) < 1e-8,
                     f"{name}: e = {float(r['e']):.6f}, omega = {r[OM]}, mpmath {mp.nstr(w, 17)} "
                     f"(error {err:.1e}), impact speed {r['min_speed']} vs {mp.nstr(v, 12)}")
    ref.E, ref.D = mpf("0.8"), mpf(2)
    return bad


def next_impact(w, t0, x0, v0):
    """The first time after t0 where the flight from (x0, v0) at t0 reaches
    the stop, and the speed there."""
    T = 2 * pi / w
    n = 600
    prev = ref.flow(w, t0, x0, v0, t0 + T * mpf("1e-6"))[0] - ref.D
    for i in range(1, n + 1):
        t = t0 + T * 1.5 * i / n
        g = ref.flow(w, t0, x0, v0, t)[0] - ref.D
        if prev < 0 <= g:
            tau = findroot(lambda s: ref.flow(w, t0, x0, v0, s)[0] - ref.D,
                           (t0 + T * 1.5 * (i - 1) / n, t), solver="anderson")
            return tau, ref.flow(w, t0, x0, v0, tau)[1]
        prev = g
    raise AssertionError(f"no impact after t = {t0} at omega = {w}")


def period2(w, x0, v0):
    """The period-2 orbit with two impacts through the section state (x0,
    v0) at t = 0: (tau1, v1, tau2, v2) and its state at t = 2T."""
    T2 = 4 * pi / w
    E, D = ref.E, ref.D
    t1, u1 = ref.seed(w, x0, v0)
    t2, u2 = next_impact(w, t1, D, -E * u1)

    def eqs(a1, b1, a2, b2):
        xa, va = ref.flow(w, a1, D, -E * b1, a2)
        xb, vb = ref.flow(w, a2, D, -E * b2, a1 + T2)
        return [xa - D, va - b2, xb - D, vb - b1]
    a1, b1, a2, b2 = findroot(eqs, (t1, u1, t2, u2), tol=mpf(10) ** -24)
    assert max(abs(z) for z in eqs(a1, b1, a2, b2)) < 1e-20
    last = (a2, b2) if a2 < T2 else (a1, b1)
    x, v = ref.flow(w, last[0], D, -E * last[1], T2)
    return (a1, b1, a2, b2), (x, v)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nsmc", required=True)
    ap.add_argument("--fio", required=True)
    ap.add_argument("--clearance", required=True)
    args = ap.parse_args()
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        # 1. the period-doubling curve in (omega, e), the stop at equilibrium
        bad += special_curve(args.nsmc, args.fio, tmp, "flip",
                             ["--param", "omega=2.5:2.8", "--curve", "flip", "--param2", "e=0.8:0.5"],
                             +1, 0, 5)
        # 2. the fold curve in (omega, e), the stop at d = 2
        bad += special_curve(args.nsmc, args.clearance, tmp, "fold",
                             ["--param", "omega=1.3:2.0", "--start", "1.9,3", "--curve", "fold",
                              "--param2", "e=0.8:0.55"], -1, 2, 3)
        # 3. the grazing curve in (omega, d) against the closed form
        rows = run(args.nsmc, args.clearance, os.path.join(tmp, "graze"),
                   ["--param", "omega=1.6:0.5", "--curve", "grazing", "--param2", "d=2:3"])
        worst, gap = 0.0, 0.0
        for r in rows:
            ref.D = mpf(r["d [m]"])
            worst = max(worst, abs(float(r[OM]) - float(ref.grazing_omegas()[1])))
            gap = max(gap, abs(float(r["min_gap"])))
        ref.D = mpf(2)
        ds = [float(r["d [m]"]) for r in rows]
        bad += check(len(rows) > 10 and min(ds) == 2 and max(ds) > 2.9 and worst < 1e-10 and gap < 1e-9,
                     f"grazing curve: {len(rows)} points, d from {min(ds)} to {max(ds):.3f}, omega "
                     f"against the closed form within {worst:.1e}, smallest gap within {gap:.1e}")
        # 4. branch switching at the period doubling of the d = 2 oscillator
        # (the doubled branch creeps toward its grazing near 0.965182 on
        # ever shorter steps: stopped and said, exit 3, docs/studies.md)
        rows = run(args.nsmc, args.clearance, os.path.join(tmp, "switch"),
                   ["--param", "omega=1.3:0.5", "--start", "1.9,3", "--switch-pd"], 3,
                   "before the end of its range at 0.5: its last 1000 steps were each shorter")
        kinds = [r["point"] for r in rows]
        ok = "flip" in kinds and "switch" in kinds and kinds.index("switch") == kinds.index("flip") + 1
        bad += check(ok, f"switch: the doubled branch follows the period doubling ({kinds.count('switch')})")
        if ok:
            i = kinds.index("switch")
            fl, sw = rows[i - 1], rows[i]
            bad += check(abs(float(sw["period [s]"]) - 2 * float(fl["period [s]"])) < 1e-3 and
                         sw["impacts"] == "2" and abs(float(sw[OM]) - float(fl[OM])) < 1e-4,
                         f"switch: twice the period ({sw['period [s]']} vs {fl['period [s]']}), "
                         f"two impacts, at omega {sw[OM]} next to {fl[OM]}")
            r = rows[i + 8]
            w = mpf(r[OM])
            bad += check(r["impacts"] == "2" and r["point"] == "regular",
                         f"switch: a regular doubled orbit at omega = {r[OM]}")
            (a1, b1, a2, b2), (x, v) = period2(w, mpf(r["M.x [m]"]), mpf(r["M.v [m/s]"]))
            ex = max(abs(float(x) - float(r["M.x [m]"])), abs(float(v) - float(r["M.v [m/s]"])))
            es = abs(float(min(b1, b2)) - float(r["min_speed"]))
            bad += check(ex < 1e-10 and es < 1e-10 and abs(b1 - b2) > 1e-3,
                         f"switch: the period-2 orbit at omega = {r[OM]} against mpmath: state "
                         f"within {ex:.1e}, smaller impact speed within {es:.1e} (speeds "
                         f"{mp.nstr(b1, 10)}, {mp.nstr(b2, 10)})")
        # 5. bad options
        for opts, msg in ((["--param", "omega=1:2", "--curve", "flip"], "--curve needs --param2"),
                          (["--param", "omega=1:2", "--param2", "e=0.8:0.5"], "--param2 is the second"),
                          (["--param", "omega=1:2", "--curve", "cusp", "--param2", "e=0.8:0.5"],
                           "expected fold, flip or grazing"),
                          (["--param", "omega=1:2", "--curve", "flip", "--param2", "zz=0.8:0.5"],
                           "no such parameter"),
                          (["--param", "omega=1:2", "--curve", "flip", "--param2", "omega=1:3"],
                           "the same parameter"),
                          (["--param", "omega=1:2", "--curve", "flip", "--param2", "e=0.8:0.5",
                            "--switch-pd"], "--switch-pd applies to a branch")):
            out = os.path.join(tmp, "bad")
            p = subprocess.run([args.nsmc, "continue", args.clearance, "--out-dir", out] + opts,
                               capture_output=True, text=True)
            bad += check(p.returncode == 1 and msg in p.stderr and
                         not os.path.exists(os.path.join(out, "curve.csv")),
                         f"{' '.join(opts)}: exit {p.returncode}, {p.stderr.strip().splitlines()[-1:]}")
        # no such point on the branch: exit 3 with the reason
        p = subprocess.run([args.nsmc, "continue", args.fio, "--out-dir", os.path.join(tmp, "none"),
                            "--param", "omega=2.0:2.5", "--curve", "flip", "--param2", "e=0.8:0.5",
                            "--no-plot", "-q"], capture_output=True, text=True)
        bad += check(p.returncode == 3 and "no period-doubling point" in p.stderr,
                     f"no period doubling on the branch: exit {p.returncode}, "
                     f"{p.stderr.strip().splitlines()[-1:]}")
    print("FAIL" if bad else "all ok")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
