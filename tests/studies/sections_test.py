#!/usr/bin/env python3
"""Poincare sections of the simulators against closed forms.

    sections_test.py --nsmc NSMC --lib LIBNSMCLI:LIBNSMRT[:...] --include DIR [--cc CC]

- damped_forced.nsm (m x'' + c x' + k x = F cos(omega t), no contact): the
  stroboscopic section t = k 2 pi/omega must be landed at exactly those
  times with the closed-form state (mpmath), for every method, with the
  default omega and with --set omega=2 (the period follows --set), and with
  --set x0=..., v0=... (the initial state follows --set); the plane M.v = 0
  (both directions) and M.x - 0.25 = 0 (up) must give the closed form's
  crossings, all of them, in order.
- free.nsm (an oscillator stepped at 0.2 s): the plane M.x = -0.99, which
  x crosses down and up inside one step, must give both crossings, in
  each direction, with rk4 and exact.
- ball.nsm (a ball dropped from h onto a floor, restitution e): the impact
  map is t_1 = sqrt(2 h/g), u_1 = sqrt(2 g h), u_{k+1} = e u_k,
  t_{k+1} = t_k + 2 u_{k+1}/g, the state just before each impact
  (x = 0, v = -u_k), up to the Zeno jump.
- bad section specifications are refused with a message and exit 1.

The references are computed here from the closed forms, never from a run.
"""
import csv
import math
import os
import subprocess
import sys
import tempfile

import mpmath as mp

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from simbuild import build_sim, sim_parser  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
mp.mp.dps = 30

# per method: tolerance on the state and on a crossing's time
TOL = {"exact": (1e-11, 1e-11), "rk4": (1e-8, 1e-8), "adaptive": (1e-6, 1e-6)}


def build(args, d, name):
    """The simulator of HERE/NAME.nsm, built in d."""
    return build_sim(args, os.path.join(HERE, name + ".nsm"), d)


def run_section(exe, d, extra):
    out = os.path.join(d, "sec.csv")
    r = subprocess.run([exe, "--events", os.path.join(d, "ev.csv"), "--section-out", out] + extra,
                       capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr.strip()
    with open(out) as f:
        rows = list(csv.reader(f))
    return rows, rows[0]


def oscillator(m, k, c, F, w, x0, v0):
    """Closed form x(t), v(t) of m x'' + c x' + k x = F cos(w t)."""
    m, k, c, F, w, x0, v0 = [mp.mpf(z) for z in (m, k, c, F, w, x0, v0)]
    D = (k - m * w ** 2) ** 2 + (c * w) ** 2
    A = F * (k - m * w ** 2) / D
    B = F * c * w / D
    al = c / (2 * m)
    wd = mp.sqrt(k / m - al ** 2)
    C1 = x0 - A
    C2 = (v0 - w * B + al * C1) / wd

    def x(t):
        return mp.e ** (-al * t) * (C1 * mp.cos(wd * t) + C2 * mp.sin(wd * t)) + A * mp.cos(w * t) + B * mp.sin(w * t)

    def v(t):
        h = mp.e ** (-al * t)
        return (h * (-al * (C1 * mp.cos(wd * t) + C2 * mp.sin(wd * t))
                     + wd * (-C1 * mp.sin(wd * t) + C2 * mp.cos(wd * t)))
                - A * w * mp.sin(w * t) + B * w * mp.cos(w * t))

    def a(t):
        return (F * mp.cos(w * t) - c * v(t) - k * x(t)) / m
    return x, v, a


def crossings(f, fd, t_end, direction):
    """Zeros of f on (0, t_end] with f rising (up), falling (down) or both."""
    out, n = [], 4000
    ts = [mp.mpf(t_end) * i / n for i in range(n + 1)]
    fs = [f(t) for t in ts]
    for i in range(n):
        if fs[i] == 0 or (fs[i] > 0) == (fs[i + 1] > 0):
            continue
        up = fs[i] < 0
        if direction == "up" and not up or direction == "down" and up:
            continue
        out.append(mp.findroot(f, (ts[i], ts[i + 1]), solver="anderson"))
    return out


def check(label, ok, detail):
    print("%s %s: %s" % ("ok  " if ok else "FAIL", label, detail))
    return 0 if ok else 1


def forced_tests(exe, d):
    fails = 0
    P = dict(m=1, k=4, c=0.2, F=1, omega=1.3, x0=1, v0=0)
    for method in ("exact", "rk4", "adaptive"):
        tol_y, tol_t = TOL[method]
        for sets in ({}, {"omega": 2.0}, {"x0": -0.3, "v0": 0.7}):
            p = dict(P, **sets)
            extra = ["--method", method, "--section", "period:2*pi/omega"]
            for kv in sets.items():
                extra += ["--set", "%s=%r" % kv]
            rows, head = run_section(exe, d, extra)
            label = "stroboscopic, %s, %s" % (method, sets or "defaults")
            if rows is None:
                fails += check(label, False, head)
                continue
            x, v, _ = oscillator(p["m"], p["k"], p["c"], p["F"], p["omega"], p["x0"], p["v0"])
            T = 2 * math.pi / p["omega"]
            want_n = int(math.floor(40 / T)) + 1
            err_t = err_y = 0.0
            for k, r in enumerate(rows[1:]):
                t = float(r[0])
                err_t = max(err_t, abs(t - k * T))
                tk = mp.mpf(k) * 2 * mp.pi / p["omega"]
                err_y = max(err_y, abs(float(r[2]) - float(x(tk))), abs(float(r[3]) - float(v(tk))))
            ok = (len(rows) - 1 == want_n and err_t <= 4e-16 * 40 and err_y <= tol_y
                  and head[:4] == ["t [s]", "phase", "M.x [m]", "M.v [m/s]"])
            fails += check(label, ok, "%d records (want %d), time error %.3g s, state error %.3g"
                           % (len(rows) - 1, want_n, err_t, err_y))
        for spec, fn, direction in (("plane:M.v:both", "v", "both"), ("plane:M.x - 0.25", "x", "up"),
                                    ("plane:-2*(M.x - 0.25):down", "x", "up")):
            rows, head = run_section(exe, d, ["--method", method, "--section", spec])
            label = "%s, %s" % (spec, method)
            if rows is None:
                fails += check(label, False, head)
                continue
            x, v, a = oscillator(P["m"], P["k"], P["c"], P["F"], P["omega"], P["x0"], P["v0"])
            f = v if fn == "v" else (lambda t: x(t) - mp.mpf("0.25"))
            want = crossings(f, None, 40, direction)
            got = [float(r[0]) for r in rows[1:]]
            err_t = max([abs(g - float(w)) for g, w in zip(got, want)] or [0])
            err_y = max([max(abs(float(r[2]) - float(x(w))), abs(float(r[3]) - float(v(w))))
                         for r, w in zip(rows[1:], want)] or [0])
            ok = len(got) == len(want) and len(want) > 5 and err_t <= tol_t and err_y <= tol_y
            fails += check(label, ok, "%d crossings (want %d), time error %.3g s, state error %.3g"
                           % (len(got), len(want), err_t, err_y))
    return fails


def coarse_tests(exe, d):
    """Both crossings of M.x = -0.99 inside the 0.2 s step [1.4, 1.6]."""
    fails = 0
    x0, v0 = mp.mpf("0.9899924966004454"), mp.mpf("-0.2822400161197344")
    x = lambda t: x0 * mp.cos(2 * t) + v0 / 2 * mp.sin(2 * t) + mp.mpf("0.99")
    for method, tol in (("rk4", 2e-2), ("exact", 1e-11)):
        for direction in ("both", "up", "down"):
            spec = "plane:M.x + 0.99:" + direction
            rows, head = run_section(exe, d, ["--method", method, "--section", spec])
            label = "%s, %s, dt 0.2 s" % (spec, method)
            if rows is None:
                fails += check(label, False, head)
                continue
            want = crossings(x, None, 3, direction)
            got = [float(r[0]) for r in rows[1:]]
            err = max([abs(g - float(w)) for g, w in zip(got, want)] or [0])
            ok = len(got) == len(want) and len(want) >= 1 and err <= tol
            fails += check(label, ok, "%d crossings (want %d), time error %.3g s"
                           % (len(got), len(want), err))
    return fails


def ball_tests(exe, d):
    fails = 0
    g, e, h = mp.mpf("9.81"), mp.mpf("0.8"), mp.mpf(1)
    for method in ("rk4", "exact", "adaptive"):
        rows, head = run_section(exe, d, ["--method", method, "--section", "impact:floor"])
        label = "impact map, ball, %s" % method
        if rows is None:
            fails += check(label, False, head)
            continue
        t, u = mp.sqrt(2 * h / g), mp.sqrt(2 * g * h)
        err_t = err_v = err_x = 0.0
        for r in rows[1:]:
            err_t = max(err_t, abs(float(r[0]) - float(t)))
            err_v = max(err_v, abs(float(r[3]) + float(u)))
            err_x = max(err_x, abs(float(r[2])))
            u *= e
            t += 2 * u / g
        tol = 1e-6 if method == "adaptive" else 1e-9
        ok = len(rows) > 20 and err_t <= tol and err_v <= tol and err_x <= 1e-9
        fails += check(label, ok, "%d records, time error %.3g s, velocity error %.3g m/s, "
                       "position %.3g m" % (len(rows) - 1, err_t, err_v, err_x))
    return fails


def error_tests(exe, d):
    fails = 0
    for spec, words in (("impact:nosuch", "no such gap"), ("plane:B.x*B.v", "not an affine form"),
                        ("plane:e", "does not depend on the state"), ("period:0*g", "positive"),
                        ("circle:1", "impact, period or plane"), ("plane:B.x:sideways", "up, down or both"),
                        ("period:2*pi/q", "unknown name 'q'")):
        rows, msg = run_section(exe, d, ["--section", spec])
        ok = rows is None and words in msg
        fails += check("refused: --section %s" % spec, ok, msg if rows is None else "accepted")
    return fails


def main():
    ap = sim_parser(__doc__.split("\n")[0])
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        fails = forced_tests(build(args, d, "damped_forced"), d)
        fails += coarse_tests(build(args, d, "free"), d)
        ball = build(args, d, "ball")
        fails += ball_tests(ball, d)
        fails += error_tests(ball, d)
    print("%d failed" % fails)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
