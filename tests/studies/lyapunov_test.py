#!/usr/bin/env python3
"""The simulators' --lyapunov against references computed here.

usage:
    lyapunov_test.py --nsmc NSMC --lib LIBNSMCLI:LIBNSMRT[:...] --include DIR [--cc CC]

1. A damped free linear oscillator m x'' + c x' + k x = 0 (lyap_damped.nsm):
   its exponents are the real parts of the roots of m s^2 + c s + k (mpmath
   polyroots), underdamped (both -c/2m) and overdamped (two distinct).  The
   sum of the finite-time exponents is tr A = -c/m exactly (the QR's
   diagonal carries the determinant); each one is off by the finite-time
   term, bounded by C / T: checked at T = 200 s and 2000 s with C = 1.
2. The forced impact oscillator at omega = 2.8 (chaotic): the run's impacts
   (its --events log: times and speeds) are taken as the trajectory, and
   the largest exponent recomputed from the impact map (t_i, u_i) ->
   (t_i+1, u_i+1) of the closed-form flight in mpmath (30 digits): each
   next impact found by findroot from the recorded time (and checked to be
   the recorded one), the map's Jacobian by implicit differentiation with
   mpmath.diff, the Jacobians chained with a QR at every impact.  The
   map's exponent per unit time equals the flow's; over the same stretch
   of trajectory the two differ only by the frames at its two ends, a
   bounded term over a long run: |difference| <= 0.3 / T (1e-5 seen).  The simulator
   computes its exponent with matrix exponentials and saltation matrices, a
   method this reference shares nothing with.
3. Bad options are refused before the run, with a message and status 1, and
   no --lyapunov-out file is left behind by a run that fails.
4. nsmc sweep --lyapunov over omega = 1.5, 2.0, 2.5 (period-1 orbits): the
   summary's exponent is log|mu_max| / T of the mpmath reference's
   multipliers (tests/reference/data) within the finite-time bound 4 / (N T)
   of N = 200 periods; the same files for --jobs 1 and 2; lyapunov.png
   drawn; --lyapunov-periods without --lyapunov and --lyapunov without a
   forcing period refused.
"""
import csv
import os
import subprocess
import sys
import tempfile

from mpmath import mp, mpf

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from simbuild import build_sim, sim_parser  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.join(HERE, "..", "..", "models")
fails = 0


def check(name, ok, detail=""):
    """Print one check's result; count the failures."""
    global fails
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else ": " + detail))
    fails += not ok


def lyapunov(exe, d, extra):
    """The spectrum --lyapunov writes (a list), or None and the message."""
    out = os.path.join(d, "lyap.csv")
    r = subprocess.run([exe, "--lyapunov", "--lyapunov-out", out, "--events", os.devnull] + extra,
                       capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr.strip()
    with open(out) as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["exponent", "lambda [1/s]"], rows[0]
    return [float(r[1]) for r in rows[1:]], ""


def damped_tests(exe, d):
    """Exponents of a damped linear oscillator: the real parts of its eigenvalues."""
    m, k = mpf(2), mpf(8)
    for c in (mpf("0.4"), mpf(10)):
        ref = sorted((float(mp.re(s)) for s in mp.polyroots([m, c, k])), reverse=True)
        for T in (200, 2000):
            lam, msg = lyapunov(exe, d, ["--set", "c=%s" % c, "--t-end", str(T)])
            if lam is None:
                check("damped c = %s, T = %d" % (c, T), False, msg)
                continue
            err = max(abs(a - b) for a, b in zip(lam, ref))
            check("damped c = %s, T = %d: sum %.15g = -c/m" % (c, T, sum(lam)),
                  abs(sum(lam) - float(-c / m)) <= 1e-11, "expected %.15g" % float(-c / m))
            check("damped c = %s, T = %d: exponents %s, real parts of the eigenvalues %s "
                  "(within 1/T: %.2g)" % (c, T, lam, ref, err), err <= 1.0 / T, "")


# The forced impact oscillator (models/forced_impact_oscillator.nsm):
# x'' + 2 zeta x' + x = cos(omega t) for x < 0, impact v+ = -e v- at x = 0.
ZETA, E = mpf("0.05"), mpf("0.8")


def flight(w, t0, u0):
    """x(t), v(t) of the flight after the impact at t0 with arrival speed u0."""
    D = (1 - w ** 2) ** 2 + (2 * ZETA * w) ** 2
    A, B = (1 - w ** 2) / D, 2 * ZETA * w / D
    wd = mp.sqrt(1 - ZETA ** 2)
    C1 = -(A * mp.cos(w * t0) + B * mp.sin(w * t0))
    C2 = (-E * u0 - (-A * w * mp.sin(w * t0) + B * w * mp.cos(w * t0)) + ZETA * C1) / wd

    def x(t):
        s = t - t0
        return (mp.exp(-ZETA * s) * (C1 * mp.cos(wd * s) + C2 * mp.sin(wd * s))
                + A * mp.cos(w * t) + B * mp.sin(w * t))

    def v(t):
        s = t - t0
        return (mp.exp(-ZETA * s) * ((C2 * wd - ZETA * C1) * mp.cos(wd * s)
                                     - (C1 * wd + ZETA * C2) * mp.sin(wd * s))
                - A * w * mp.sin(w * t) + B * w * mp.cos(w * t))
    return x, v


def map_exponent(w, imp):
    """Largest exponent per unit time of the impact map along the impacts imp
    [(t, u)], and the worst mismatch of a recomputed next impact time."""
    mp.dps = 30
    Q = mp.eye(2)
    total, worst = mpf(0), 0.0
    for (t0, u0), (t1r, u1r) in zip(imp, imp[1:]):
        t0, u0 = mpf(t0), mpf(u0)
        x, v = flight(w, t0, u0)
        t1 = mp.findroot(x, mpf(t1r))
        worst = max(worst, abs(float(t1) - t1r))
        vt = v(t1)                                   # x_t at the next impact
        at = mp.diff(v, t1)                          # v_t there
        # partial derivatives of x(t1) and v(t1) with the impact's (t0, u0)
        xt0 = mp.diff(lambda s: flight(w, s, u0)[0](t1), t0)
        xu0 = mp.diff(lambda s: flight(w, t0, s)[0](t1), u0)
        vt0 = mp.diff(lambda s: flight(w, s, u0)[1](t1), t0)
        vu0 = mp.diff(lambda s: flight(w, t0, s)[1](t1), u0)
        dt_t0, dt_u0 = -xt0 / vt, -xu0 / vt
        J = mp.matrix([[dt_t0, dt_u0], [vt0 + at * dt_t0, vu0 + at * dt_u0]])
        Q = J * Q
        # QR (Gram-Schmidt) of the carried frame: the first column's growth
        q1 = Q[:, 0]
        r11 = mp.norm(q1)
        total += mp.log(r11)
        q1 = q1 / r11
        q2 = Q[:, 1] - (q1.T * Q[:, 1])[0] * q1
        q2 = q2 / mp.norm(q2)
        Q = mp.matrix([[q1[0], q2[0]], [q1[1], q2[1]]])
    return float(total / (mpf(imp[-1][0]) - mpf(imp[0][0]))), worst


def chaotic_tests(exe, d):
    """The largest exponent at omega = 2.8 against the impact map's."""
    w, tr, T = mpf("2.8"), 500.0, 3000.0
    ev = os.path.join(d, "ev.csv")
    out = os.path.join(d, "lyap.csv")
    r = subprocess.run([exe, "--set", "omega=2.8", "--lyapunov", "--lyapunov-transient", str(tr),
                        "--lyapunov-interval", "1", "--t-end", str(tr + T), "--lyapunov-out", out,
                        "--events", ev], capture_output=True, text=True)
    if r.returncode != 0:
        check("chaotic run", False, r.stderr)
        return
    with open(out) as f:
        lam = [float(row[1]) for row in list(csv.reader(f))[1:]]
    with open(ev) as f:
        imp = [(float(row["t"]), -float(row["vrel_before"])) for row in csv.DictReader(f)
               if row["kind"] == "impact" and float(row["t"]) > tr]
    ref, worst = map_exponent(w, imp)
    check("chaotic omega = 2.8: %d impacts recomputed from the closed form (worst time %.2g)"
          % (len(imp), worst), worst <= 1e-8, "")
    check("chaotic omega = 2.8: largest exponent %.6f, impact map's %.6f (within 0.3/T = %.2g)"
          % (lam[0], ref, 0.3 / T), ref > 0.05 and abs(lam[0] - ref) <= 0.3 / T, "")


def error_tests(exe, d):
    """Bad options: a message, status 1; a failed run leaves no output file."""
    cases = ((["--lyapunov", "--lyapunov-interval", "0"], "bad value '0' for --lyapunov-interval"),
             (["--lyapunov", "--lyapunov-interval", "nan"], "bad value"),
             (["--lyapunov-out", "x.csv"], "--lyapunov-out needs --lyapunov"),
             (["--lyapunov-transient", "3"], "--lyapunov-transient needs --lyapunov"),
             (["--lyapunov", "--lyapunov-transient", "1e9"], "leaves no time before t_end"),
             (["--lyapunov", "--section", "impact:stop"], "cannot be combined"),
             (["--lyapunov", "--out", "-"], "cannot both write to stdout"))
    for extra, words in cases:
        r = subprocess.run([exe] + extra, capture_output=True, text=True, cwd=d)
        check("refused: %s" % " ".join(extra), r.returncode == 1 and words in r.stderr,
              "status %d: %s" % (r.returncode, r.stderr.strip()))
    return 0


def refusal_tests(ball, d):
    """A motion that comes to rest on its floor (a Zeno cascade, then a
    contact held shut) is refused with the reason; no file is written."""
    out = os.path.join(d, "ball_lyap.csv")
    r = subprocess.run([ball, "--lyapunov", "--lyapunov-out", out, "--events", os.devnull],
                       capture_output=True, text=True)
    check("refused: a ball coming to rest (status 3, the reason, no file)",
          r.returncode == 3 and "lyapunov:" in r.stderr and not os.path.exists(out),
          "status %d: %s" % (r.returncode, r.stderr.strip()))


def sweep_tests(nsmc, d):
    """nsmc sweep --lyapunov against the reference multipliers."""
    ref = {}
    with open(os.path.join(HERE, "..", "reference", "data",
                           "forced_impact_oscillator.period1.csv")) as f:
        for row in csv.DictReader(f):
            mu = max(abs(mp.mpc(row["mu1_re"], row["mu1_im"])),
                     abs(mp.mpc(row["mu2_re"], row["mu2_im"])))
            ref[round(float(row["omega"]), 6)] = (mp.log(mu), mpf(row["omega"]))
    model = os.path.join(MODELS, "forced_impact_oscillator.nsm")
    base = [nsmc, "sweep", model, "--param", "omega=1.5:2.5:3", "--section", "impact:stop",
            "--section-period", "2*pi/omega", "--transient", "200", "--record", "50",
            "--t-max", "1000*2*pi/omega", "--lyapunov", "--lyapunov-periods", "200"]
    outs = []
    for jobs in ("1", "2"):
        out = os.path.join(d, "sweep" + jobs)
        r = subprocess.run(base + ["--jobs", jobs, "--out-dir", out], capture_output=True,
                           text=True)
        if r.returncode != 0:
            check("sweep --lyapunov --jobs " + jobs, False, r.stderr)
            return
        outs.append(out)
    with open(os.path.join(outs[0], "summary.csv")) as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        w = round(float(row["omega [rad/s]"]), 6)
        logmu, wm = ref[w]
        T = 2 * mp.pi / wm
        want = float(logmu / T)
        got = float(row["lyapunov [1/s]"])
        check("sweep omega = %g: largest exponent %.9f, log|mu|/T = %.9f" % (w, got, want),
              abs(got - want) <= float(4 / (200 * T)), "")
    same = all(open(os.path.join(outs[0], n), "rb").read() == open(os.path.join(outs[1], n),
                                                                  "rb").read()
               for n in ("summary.csv", "section.csv"))
    check("sweep --lyapunov: the same files for --jobs 1 and 2", same)
    check("sweep --lyapunov: lyapunov.png drawn",
          os.path.getsize(os.path.join(outs[0], "lyapunov.png")) > 1000)
    for extra, words in ((["--lyapunov-periods", "5"], "--lyapunov-periods needs --lyapunov"),
                         (["--lyapunov"], "--lyapunov reorthonormalises once a forcing period"),
                         (["--lyapunov", "--lyapunov-periods", "0"], "--lyapunov-periods is a whole")):
        r = subprocess.run([nsmc, "sweep", model, "--param", "omega=1.5:2.5:3", "--section",
                            "impact:stop", "--out-dir", os.path.join(d, "bad")] + extra,
                           capture_output=True, text=True)
        check("sweep refused: %s" % " ".join(extra), r.returncode == 1 and words in r.stderr,
              "status %d: %s" % (r.returncode, r.stderr.strip()))


def main():
    ap = sim_parser(__doc__.split("\n")[0])
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        damped_tests(build_sim(args, os.path.join(HERE, "lyap_damped.nsm"), d), d)
        fio = build_sim(args, os.path.join(MODELS, "forced_impact_oscillator.nsm"), d)
        chaotic_tests(fio, d)
        error_tests(fio, d)
        refusal_tests(build_sim(args, os.path.join(HERE, "ball.nsm"), d), d)
        sweep_tests(args.nsmc, d)
    print("%d failed" % fails)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
