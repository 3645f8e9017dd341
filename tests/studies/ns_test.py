#!/usr/bin/env python3
"""Neimark-Sacker points of nsmc continue against an independent reference.

tests/studies/two_dof_impact.nsm: two unit masses in series (k1 = k2 = 1,
c1 = c2 = 0.02), the first forced by cos(omega t), the second against a
rigid stop at x2 = 0 (e = 0.9).  Its period-1 orbit with one impact per
forcing period has, between omega = 1.2 and 2.0, a complex pair of
multipliers that leaves the unit circle and comes back.  The reference,
at 30 digits in mpmath and without any code of the runtime:

  * the flow between impacts in closed form: the forced response
    Re(X e^{i w t}), X = (K - w^2 M + i w C)^{-1} f, plus expm(A tau) on
    the rest;
  * the orbit: y0 at t = 0 and the impact time ti with x2(ti) = 0, the
    state after the impact (v2 -> -e v2) flowing back to y0 at T = 2 pi/w
    (findroot on five unknowns);
  * its monodromy expm(A (T - ti)) S expm(A ti), S the saltation matrix
    DR + (f+ - DR f-) e2^T / v2-;
  * the Neimark-Sacker parameter: |mu|^2 = 1 for the complex pair,
    findroot in omega with the orbit solved again at every trial.

Checked: both ns points located by `nsmc continue` to 1e-10 in omega, the
pair there on the unit circle at the reference's angle, the orbit's state
and the branch stable outside [ns1, ns2] and unstable inside; the diagram
marks them (branch.csv's `ns` rows, the gnuplot script's ns series).

usage: ns_test.py --nsmc PATH --model PATH
"""
import argparse
import csv
import os
import subprocess
import sys
import tempfile

from mpmath import mp, mpf, mpc, matrix, expm, exp, cos, sin, pi, findroot, eig, re, im

mp.dps = 30
E = mpf("0.9")
MINV_K = matrix([[2, -1], [-1, 1]])          # M = I: K
MINV_C = matrix([[mpf("0.04"), mpf("-0.02")], [mpf("-0.02"), mpf("0.02")]])


def system(w):
    """A (4x4, state x1, x2, v1, v2) and the forced response's complex amplitude X."""
    A = matrix(4, 4)
    for i in range(2):
        A[i, i + 2] = 1
        for j in range(2):
            A[2 + i, j] = -MINV_K[i, j]
            A[2 + i, 2 + j] = -MINV_C[i, j]
    Z = matrix(2, 2)
    for i in range(2):
        for j in range(2):
            Z[i, j] = MINV_K[i, j] - (w * w if i == j else 0) + mpc(0, 1) * w * MINV_C[i, j]
    X = Z ** -1 * matrix([1, 0])
    return A, X


def forced(w, X, t):
    """The forced response's state at t."""
    z = [X[i] * exp(mpc(0, 1) * w * t) for i in range(2)]
    return matrix([re(z[0]), re(z[1]), re(mpc(0, 1) * w * z[0]), re(mpc(0, 1) * w * z[1])])


def flow(w, A, X, t0, y, t):
    """The state at t from y at t0."""
    return forced(w, X, t) + expm(A * (t - t0)) * (y - forced(w, X, t0))


def field(w, A, t, y):
    """The vector field at (t, y): A y plus the force on mass 1."""
    f = A * y
    f[2] += cos(w * t)
    return f


def orbit(w, guess):
    """(y0, ti): the period-1 orbit with one impact, from guess (x1, x2, v1, v2, ti)."""
    A, X = system(w)
    T = 2 * pi / w

    def eqs(x1, x2, v1, v2, ti):
        y0 = matrix([x1, x2, v1, v2])
        yi = flow(w, A, X, 0, y0, ti)
        yp = matrix([yi[0], yi[1], yi[2], -E * yi[3]])
        yT = flow(w, A, X, ti, yp, T)
        return [yT[k] - y0[k] for k in range(4)] + [yi[1]]
    s = findroot(eqs, [mpf(g) for g in guess], tol=mpf(10) ** -26)
    return matrix([s[0], s[1], s[2], s[3]]), s[4]


def multipliers(w, y0, ti):
    """The monodromy's eigenvalues, expm(A (T - ti)) S expm(A ti)."""
    A, X = system(w)
    T = 2 * pi / w
    yi = flow(w, A, X, 0, y0, ti)
    R = matrix([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, -E]])
    fm = field(w, A, ti, yi)
    fp = field(w, A, ti, R * yi)
    S = R + (fp - R * fm) * matrix([[0, 1, 0, 0]]) / yi[3]
    Mo = expm(A * (T - ti)) * S * expm(A * ti)
    ev, _ = eig(Mo)
    return sorted(ev, key=lambda z: -abs(z))


def ns_point(w0, guess):
    """The omega where the complex pair has modulus 1, near w0."""
    state = {"g": list(guess)}

    def g(w):
        y0, ti = orbit(w, state["g"])
        state["g"] = [y0[0], y0[1], y0[2], y0[3], ti]
        pair = [z for z in multipliers(w, y0, ti) if abs(im(z)) > 1e-6]
        return abs(pair[0]) ** 2 - 1
    w = findroot(g, mpf(w0), tol=mpf(10) ** -24)
    y0, ti = orbit(w, state["g"])
    return w, y0, ti


def impact_time(w, y0):
    """The first zero of x2 after t = 0 on the orbit through y0, by sampling
    the closed form and bisection (the guess for findroot)."""
    A, X = system(w)
    T = 2 * pi / w
    n = 400
    prev = y0[1]
    for k in range(1, n + 1):
        t = T * k / n
        x2 = flow(w, A, X, 0, y0, t)[1]
        if prev < 0 <= x2:
            return T * (k - mpf("0.5")) / n
        prev = x2
    raise SystemExit("FAIL: the reference orbit has no impact within a period")


def check(ok, what):
    print(("ok: " if ok else "FAIL: ") + what)
    if not ok:
        sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nsmc", required=True)
    ap.add_argument("--model", required=True)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="nsm-ns-") as tmp:
        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cache"))
        p = subprocess.run([a.nsmc, "continue", a.model, "--param", "omega=1.2:2.0",
                            "--out-dir", os.path.join(tmp, "out")], env=env,
                           capture_output=True, text=True)
        check(p.returncode == 0, "nsmc continue runs (exit %d: %s)" % (p.returncode, p.stderr[-400:]))
        rows = list(csv.DictReader(open(os.path.join(tmp, "out", "branch.csv"))))
        gp = open(os.path.join(tmp, "out", "continuation.gp")).read()
        check("Neimark-Sacker" in gp and "st('ns')" in gp, "the diagram draws the ns points")
        said = [l for l in p.stdout.splitlines() if l.startswith("ns ")]
        check(len(said) == 2, "both reported on stdout: %s" % said)
    ns = [r for r in rows if r["point"] == "ns"]
    check(len(ns) == 2, "two Neimark-Sacker points on the branch (%d)" % len(ns))
    keys = ["M1.x [m]", "M2.x [m]", "M1.v [m/s]", "M2.v [m/s]"]
    for r in ns:
        w0 = mpf(r["omega [rad/s]"])
        y = [mpf(r[k]) for k in keys]
        guess = y + [impact_time(w0, matrix(y))]
        w, y0, ti = ns_point(w0, guess)
        err = abs(w - w0)
        check(err < 1e-10, "ns at omega = %s: the reference's %s (|difference| %.2e)"
              % (r["omega [rad/s]"], mp.nstr(w, 17), float(err)))
        dy = max(abs(y0[k] - y[k]) for k in range(4))
        check(dy < 1e-8, "its orbit's state at t = 0 within %.2e of the reference" % float(dy))
        mus = multipliers(w, y0, ti)
        pair = [z for z in mus if im(z) > 1e-6][0]
        got = complex(float(r["mu1_re"]), abs(float(r["mu1_im"])))
        check(abs(got - complex(pair)) < 1e-8 and abs(abs(got) - 1) < 1e-10,
              "the pair on the unit circle at %.12f%+.12fi (reference %s)"
              % (got.real, got.imag, mp.nstr(pair, 13)))
        A, X = system(w)
        T = 2 * pi / w
        yi = flow(w, A, X, 0, y0, ti)
        yp = matrix([yi[0], yi[1], yi[2], -E * yi[3]])
        late = max((flow(w, A, X, 0, y0, t) if t < ti else flow(w, A, X, ti, yp, t))[1]
                   for t in (T * k / 200 for k in range(1, 200)) if abs(t - ti) > T / 100)
        check(late < 0, "the reference orbit touches the stop only at its impact")
    lo, hi = sorted(float(r["omega [rad/s]"]) for r in ns)
    reg = [r for r in rows if r["point"] == "regular"]
    inside = [r["stable"] == "0" for r in reg if lo < float(r["omega [rad/s]"]) < hi]
    near = [r["stable"] == "1" for r in reg
            if lo - 0.1 < float(r["omega [rad/s]"]) < lo or hi < float(r["omega [rad/s]"]) < hi + 0.1]
    check(inside and all(inside) and near and all(near),
          "unstable between the two points (%d), stable just outside them (%d)"
          % (len(inside), len(near)))
    print("PASS")


if __name__ == "__main__":
    main()
