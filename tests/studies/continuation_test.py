#!/usr/bin/env python3
"""nsmc continue on the forced impact oscillator with a clearance
(tests/studies/impact_clearance.nsm: m = k = F = 1, zeta = 0.05, e = 0.8,
stop at x = d = 2) against references computed here, independently of the
runtime:

  * grazing of the non-impacting orbit: F / sqrt((k - m w^2)^2 + (c w)^2) = d,
    solved in closed form (two roots), to 1e-10 in omega, reached from above
    and below and from the impacting side;
  * the impacting period-1 branch (one impact per forcing period): its fold
    and its period doubling, located by the tool, against the fixed point of
    the impact map (the linear oscillator's flow between impacts in closed
    form, at 30 digits in mpmath) with det(DP - I) = 0 or det(DP + I) = 0,
    to 1e-10 in omega; stable before the fold, unstable after; a regular
    point's impact speed and multipliers against the same map.

usage: continuation_test.py --nsmc PATH --model PATH [--workdir DIR]
"""
import argparse
import csv
import os
import subprocess
import sys
import tempfile

from mpmath import mp, mpf, sqrt, cos, sin, exp, pi, findroot, matrix, det, diff, eig

mp.dps = 30
M, K, F, ZETA, E, D = mpf(1), mpf(1), mpf(1), mpf("0.05"), mpf("0.8"), mpf(2)
C = 2 * ZETA * sqrt(K * M)


def grazing_omegas():
    """Both roots of F^2 = d^2 ((k - m w^2)^2 + (c w)^2) in w^2."""
    # m^2 u^2 + (c^2 - 2 k m) u + k^2 - F^2/d^2 = 0
    a, b, c = M * M, C * C - 2 * K * M, K * K - F * F / (D * D)
    r = sqrt(b * b - 4 * a * c)
    return sorted([sqrt((-b - r) / (2 * a)), sqrt((-b + r) / (2 * a))])


def flow(w, t0, x0, v0, t):
    """Position and velocity at t of the free motion from (x0, v0) at t0."""
    den = (K - M * w * w) ** 2 + (C * w) ** 2
    a, b = F * (K - M * w * w) / den, F * C * w / den
    xp = lambda s: a * cos(w * s) + b * sin(w * s)
    vp = lambda s: -a * w * sin(w * s) + b * w * cos(w * s)
    wn = sqrt(K / M)
    z = C / (2 * sqrt(K * M))
    wd = wn * sqrt(1 - z * z)
    z0, z1 = x0 - xp(t0), v0 - vp(t0)
    A, B = z0, (z1 + z * wn * z0) / wd
    s = t - t0
    ex = exp(-z * wn * s)
    zh = ex * (A * cos(wd * s) + B * sin(wd * s))
    zd = ex * ((-z * wn * A + wd * B) * cos(wd * s) + (-z * wn * B - wd * A) * sin(wd * s))
    return xp(t) + zh, vp(t) + zd


def residual(w, tau, v):
    """Period-1 impacting orbit: from (d, -e v) just after the impact at tau,
    back at (d, v) one forcing period later."""
    T = 2 * pi / w
    x1, v1 = flow(w, tau, D, -E * v, tau + T)
    return x1 - D, v1 - v


def impact_map_jacobian(w, tau, v):
    """DP of (tau, v) -> (tau', v') at the fixed point (tau' = tau + T)."""
    T = 2 * pi / w
    X = lambda s, ta, vv: flow(w, ta, D, -E * vv, s)[0]
    V = lambda s, ta, vv: flow(w, ta, D, -E * vv, s)[1]
    s1 = tau + T
    Xs = V(s1, tau, v)
    Xt = diff(lambda ta: X(s1, ta, v), tau)
    Xv = diff(lambda vv: X(s1, tau, vv), v)
    Vt = diff(lambda ta: V(s1, ta, v), tau)
    Vv = diff(lambda vv: V(s1, tau, vv), v)
    Vs = diff(lambda s: V(s, tau, v), s1)
    dtt, dtv = -Xt / Xs, -Xv / Xs
    return matrix([[dtt, dtv], [Vt + Vs * dtt, Vv + Vs * dtv]])


def seed(w, x0, v0):
    """The first impact from the section state (x0, v0) at t = 0: (tau, v)."""
    T = 2 * pi / w
    n = 400
    prev = flow(w, 0, x0, v0, 0)[0] - D
    for i in range(1, n + 1):
        t = T * 1.2 * i / n
        g = flow(w, 0, x0, v0, t)[0] - D
        if prev < 0 <= g or abs(g) < mpf("1e-9"):
            tau = findroot(lambda s: flow(w, 0, x0, v0, s)[0] - D, (T * 1.2 * (i - 1) / n, t),
                           solver="anderson")
            return tau, flow(w, 0, x0, v0, tau)[1]
        prev = g
    raise AssertionError(f"no impact from the section state at omega = {w}")


def special(w0, x0, v0, sign):
    """The fold (sign = -1: det(DP - I) = 0) or flip (+1: det(DP + I) = 0)."""
    tau0, vi0 = seed(mpf(w0), mpf(x0), mpf(v0))

    def eqs(w, tau, v):
        r1, r2 = residual(w, tau, v)
        J = impact_map_jacobian(w, tau, v)
        return [r1, r2, det(J + sign * matrix([[1, 0], [0, 1]]))]
    w, tau, v = findroot(eqs, (mpf(w0), tau0, vi0), tol=mpf(10) ** -24)
    r = residual(w, tau, v)
    assert abs(r[0]) < 1e-20 and abs(r[1]) < 1e-20, r
    # admissible: no contact between the impacts
    T = 2 * pi / w
    for i in range(1, 200):
        assert flow(w, tau, D, -E * v, tau + T * i / 200)[0] < D, "orbit crosses the stop"
    return w, v


def run(nsmc, model, out, rng, start=None):
    cmd = [nsmc, "continue", model, "--param", f"omega={rng}", "--out-dir", out, "--no-plot", "-q"]
    if start:
        cmd += ["--start", start]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)} exited {p.returncode}: {p.stderr}")
    with open(os.path.join(out, "branch.csv")) as f:
        return list(csv.DictReader(f))


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nsmc", required=True)
    ap.add_argument("--model", required=True)
    args = ap.parse_args()
    bad = 0
    wg_lo, wg_hi = grazing_omegas()
    om = "omega [rad/s]"
    with tempfile.TemporaryDirectory() as tmp:
        # 1. the non-impacting branch grazes from above and from below
        for rng, wg in (("1.6:0.5", wg_hi), ("0.5:1.0", wg_lo)):
            rows = run(args.nsmc, args.model, os.path.join(tmp, rng), rng)
            gz = [r for r in rows if r["point"] == "grazing"]
            bad += check(len(gz) == 1, f"{rng}: one grazing ({len(gz)})")
            if gz:
                w = float(gz[0][om])
                bad += check(abs(w - float(wg)) < 1e-10,
                             f"{rng}: grazing at omega = {w!r}, closed form {mp.nstr(wg, 17)} "
                             f"(error {abs(w - float(wg)):.2e})")
                bad += check(abs(float(gz[0]["min_gap"])) < 1e-9,
                             f"{rng}: smallest gap at the grazing {gz[0]['min_gap']}")
            pre = [r for r in rows if r["point"] in ("start", "regular")]
            bad += check(all(r["impacts"] == "0" and float(r["min_gap"]) > 0 for r in pre),
                         f"{rng}: the branch before the grazing does not impact")
        # 2. the impacting branch through its fold (upward from 1.3)
        rows = run(args.nsmc, args.model, os.path.join(tmp, "up"), "1.3:2.0", "1.9,3")
        folds = [r for r in rows if r["point"] == "fold"]
        bad += check(len(folds) == 1, f"impacting branch upward: one fold ({len(folds)})")
        if folds:
            f0 = folds[0]
            wf, vf = special(f0[om], f0["M.x [m]"], f0["M.v [m/s]"], -1)
            w = float(f0[om])
            bad += check(abs(w - float(wf)) < 1e-10,
                         f"fold at omega = {w!r}, mpmath {mp.nstr(wf, 17)} (error {abs(w - float(wf)):.2e})")
            bad += check(abs(float(f0["min_speed"]) - float(vf)) < 1e-8,
                         f"impact speed at the fold {f0['min_speed']}, mpmath {mp.nstr(vf, 17)}")
            bad += check(abs(float(f0["mu1_abs"]) - 1) < 1e-7, f"multiplier +1 at the fold ({f0['mu1_re']})")
            i = rows.index(f0)
            before, after = rows[1:i], rows[i + 1:]
            bad += check(all(r["stable"] == "1" for r in before) and after and
                         all(r["stable"] == "0" for r in after),
                         "stable before the fold, unstable after")
            bad += check(any(float(r["dpds"]) > 0 for r in before) and
                         all(float(r["dpds"]) < 0 for r in after), "the branch turns back at the fold")
        # a regular impacting point: impact speed and multipliers
        r = rows[3]
        w = mpf(r[om])
        tau0, v0 = seed(w, mpf(r["M.x [m]"]), mpf(r["M.v [m/s]"]))
        tau, v = findroot(lambda ta, vv: residual(w, ta, vv), (tau0, v0))
        mus = sorted((abs(z) for z in eig(impact_map_jacobian(w, tau, v))[0]), reverse=True)
        bad += check(abs(float(r["min_speed"]) - float(v)) < 1e-9 and
                     abs(float(r["mu1_abs"]) - float(mus[0])) < 1e-8 and
                     abs(float(r["mu2_abs"]) - float(mus[1])) < 1e-8,
                     f"regular point omega = {r[om]}: impact speed {r['min_speed']} vs {mp.nstr(v, 15)}, "
                     f"|mu| {r['mu1_abs']}, {r['mu2_abs']} vs {mp.nstr(mus[0], 15)}, {mp.nstr(mus[1], 15)}")
        # 3. downward: the period doubling, then the grazing from the
        # impacting side and on along the branch without impacts
        rows = run(args.nsmc, args.model, os.path.join(tmp, "down"), "1.3:0.5", "1.9,3")
        flips = [r for r in rows if r["point"] == "flip"]
        bad += check(len(flips) == 1, f"impacting branch downward: one period doubling ({len(flips)})")
        if flips:
            f0 = flips[0]
            wf, vf = special(f0[om], f0["M.x [m]"], f0["M.v [m/s]"], +1)
            w = float(f0[om])
            bad += check(abs(w - float(wf)) < 1e-10,
                         f"period doubling at omega = {w!r}, mpmath {mp.nstr(wf, 17)} "
                         f"(error {abs(w - float(wf)):.2e})")
            bad += check(abs(float(f0["mu1_re"]) + 1) < 1e-7 or abs(float(f0["mu2_re"]) + 1) < 1e-7,
                         f"multiplier -1 at the period doubling ({f0['mu1_re']}, {f0['mu2_re']})")
            i = rows.index(f0)
            bad += check(rows[i - 1]["stable"] == "1" and rows[i + 1]["stable"] == "0",
                         "stable above the period doubling, unstable below")
        gz = [r for r in rows if r["point"] == "grazing"]
        bad += check(len(gz) == 1 and abs(float(gz[0][om]) - float(wg_lo)) < 1e-10,
                     f"grazing reached from the impacting side at {gz[0][om] if gz else None}, "
                     f"closed form {mp.nstr(wg_lo, 17)}")
        if gz:
            after = rows[rows.index(gz[0]) + 1:]
            bad += check(len(after) > 3 and all(r["impacts"] == "0" and float(r[om]) < float(wg_lo)
                                                 for r in after),
                         f"continued past the grazing on the branch without impacts ({len(after)} points)")
        # 4. around the loop: the stable impacting orbit just below the upper
        # grazing, up through the fold, down the unstable part to the
        # grazing (a nonsmooth fold) and up again without impacts
        rows = run(args.nsmc, args.model, os.path.join(tmp, "loop"), "1.2185:2.0", "1.9,3")
        kinds = [r["point"] for r in rows if r["point"] not in ("regular", "start")]
        gz = [r for r in rows if r["point"] == "grazing"]
        bad += check(kinds == ["fold", "grazing"] and abs(float(gz[0][om]) - float(wg_hi)) < 1e-10,
                     f"loop: {kinds}, grazing at {gz[0][om] if gz else None} from the impacting side, "
                     f"closed form {mp.nstr(wg_hi, 17)}")
        if gz:
            i = rows.index(gz[0])
            bad += check(all(r["impacts"] == "1" and r["stable"] == "0" for r in rows[i - 20:i]) and
                         all(r["impacts"] == "0" and r["stable"] == "1" and float(r[om]) > float(wg_hi)
                             for r in rows[i + 1:]) and float(rows[-1][om]) > 1.9,
                         "loop: unstable impacting before the grazing, stable without impacts after, "
                         "up to the end of the range")
        # 5. bad options: a message, exit status 1, no branch.csv
        for opts, msg in ((["--param", "omega"], "expected NAME=FROM:TO"),
                          (["--param", "zz=1:2"], "no such parameter"),
                          (["--param", "omega=1:2", "--ds", "-1"], "--ds -1"),
                          (["--param", "omega=1:2", "--start", "1"], "--start 1"),
                          (["--param", "omega=1:2", "--bogus", "3"], "unknown option")):
            out = os.path.join(tmp, "bad")
            p = subprocess.run([args.nsmc, "continue", args.model, "--out-dir", out] + opts,
                               capture_output=True, text=True)
            bad += check(p.returncode == 1 and msg in p.stderr and
                         not os.path.exists(os.path.join(out, "branch.csv")),
                         f"{' '.join(opts)}: exit {p.returncode}, {p.stderr.strip().splitlines()[-1:]}")
    print("FAIL" if bad else "all ok")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
