"""The nonlinear benchmarks against their independent references (refs.py).

usage: check_nl.py --nsmc NSMC --include DIR --lib A:B:.. [--cc CC]
                   [--cflags="FLAGS"] --case CASE --method METHOD

Compiles the case's model of models/ (pendulum_wall, hertz_pair,
discs_oblique, duffing_stop) with nsmc, runs it with the method, and
checks, per case:

- pendulum (models/pendulum_wall.nsm): every impact on the wall at the closed form's instant (elliptic
  integrals), with its speeds before and after; the angle before the first
  impact at the samples (Jacobi's sn);
- hertz: the contact lasts the closed form's t_c, the bodies part at their
  elastic velocities;
- discs: the impact at its closed-form instant, both discs' velocities after
  it (Newton's law along the line of centres at the impact configuration);
- duffing: every impact at mp.odefun's instant (Taylor series at 30 digits);
- chain (models/hertz_chain.nsm): twenty beads with gaps, each contact a
  two-body Hertz collision: contact i engaged at (i - 1)(gap0/v + t_c/2) +
  gap0/v for t_c, the last bead leaving at v, the others at rest;
- wave (models/hertz_wave.nsm): twenty touching beads, the solitary wave,
  against wave_ref.py (mpmath's Taylor recurrences at 32 digits; the file
  named by $NSM_WAVE_REF, computed there when missing): every contact's
  release, the beads' velocities and positions on a 10 us grid, each
  bead's velocity peak and the wave's speed from them;

and for every case the energy balance (the audit's largest error relative
to the largest energy).  Tolerances per method: taylor, events 1e-12 s and
states 1e-10 relative, balance 1e-10; rk4 at 1 ms and adaptive at its
default tolerances, looser (the TOL table).
"""
import csv
import os
import re
import subprocess
import sys
import tempfile

from mpmath import mp, mpf

import refs

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from simbuild import build_sim, sim_parser  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
# method: (event time s, relative state, energy balance)
TOL = {"taylor": (1e-12, 1e-10, 1e-10), "exact": (1e-12, 1e-10, 1e-10), "rk4": (1e-9, 1e-8, 1e-6), "adaptive": (5e-9, 1e-8, 1e-6)}

MODELS = {"pendulum": "pendulum_wall", "hertz": "hertz_pair", "discs": "discs_oblique",
          "duffing": "duffing_stop", "hertz_friction": "../tests/nonlinear/hertz_friction",
          "chain": "hertz_chain", "duffing_coulomb": "../tests/nonlinear/duffing_coulomb",
          "belt_duffing": "../tests/nonlinear/belt_duffing",
          "duffing_floor": "../tests/nonlinear/duffing_floor",
          "rocking_impact": "../tests/nonlinear/rocking_impact",
          "rocking_squat": "../tests/nonlinear/rocking_impact",
          "rocking_block": "rocking_block", "rocking_rest": "rocking_block",
          "rocking_slide": "../tests/nonlinear/rocking_slide",
          "rocking_hold": "../tests/nonlinear/rocking_push",
          "rocking_tip": "../tests/nonlinear/rocking_push",
          "rocking_slip": "../tests/nonlinear/rocking_push",
          "sliding_rod": "../tests/nonlinear/sliding_rod",
          "rocking_reduced": "../bench/models_nl/rocking_reduced",
          "wave": "hertz_wave"}
FAILS = []
MEAS = {"event": 0.0, "state": 0.0}


def measure(kind, err):
    """The worst error of a kind met so far (printed at the end)."""
    MEAS[kind] = max(MEAS[kind], abs(err))


def check(cond, what):
    """Records a failed check (the run goes on to report every one)."""
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        FAILS.append(what)


def build(args, case, work):
    model = os.path.join(os.path.dirname(os.path.dirname(HERE)), "models", MODELS[case] + ".nsm")
    return build_sim(args, model, work, case)


def run(exe, method, work, extra=()):
    """Runs the simulator; returns (events, samples, balance relative error)."""
    ev, out = os.path.join(work, "ev.csv"), os.path.join(work, "out.csv")
    p = subprocess.run([exe, "--method", method, "--events", ev, "--out", out, "--summary"] +
                       list(extra), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        raise RuntimeError("simulator failed: " + p.stderr)
    with open(ev) as f:
        events = list(csv.DictReader(f))
    with open(out) as f:
        samples = [{k.split(" [")[0]: float(v) for k, v in r.items()} for r in csv.DictReader(f)]
    m = re.search(r"relative to the largest energy\s+(\S+)", p.stdout + p.stderr)
    return events, samples, float(m.group(1)) if m else float("inf")


def impacts(events):
    return [e for e in events if e["kind"] == "impact"]


def case_pendulum(exe, method, work):
    et, xt, _ = TOL[method]
    events, samples, bal = run(exe, method, work)
    ref = refs.pendulum_wall(9.81, 1, -0.3, 0.8, 10)
    imp = impacts(events)
    check(len(imp) == len(ref), "pendulum: %d impacts (reference %d)" % (len(imp), len(ref)))
    for k, (e, (t, ub, ua)) in enumerate(zip(imp, ref)):
        measure("event", float(e["t"]) - float(t))
        check(abs(float(e["t"]) - float(t)) <= et * max(1, float(t)),
              "pendulum: impact %d at %s (reference %s)" % (k, e["t"], mpf(t)))
        check(abs(-float(e["vrel_before"]) - float(ub)) <= 1e-9 * float(ub) and
              abs(float(e["vrel_after"]) - float(ua)) <= 1e-9 * float(ua),
              "pendulum: impact %d speeds %s, %s" % (k, e["vrel_before"], e["vrel_after"]))
    t1 = float(ref[0][0])
    worst = max(abs(s["P.phi"] - float(refs.pendulum_angle(9.81, 1, s["t"])))
                for s in samples if s["t"] < t1 - 1e-9)
    measure("state", worst)
    check(worst <= xt, "pendulum: angle before the first impact within %.3g (worst %.3g)" % (xt, worst))
    return bal


def case_hertz(exe, method, work):
    et, xt, _ = TOL[method]
    # rk4 steps the user's dt (1 ms by default in a nonlinear model): the
    # 0.23 ms contact needs a far finer one
    events, samples, bal = run(exe, method, work, ["--dt", "1e-8"] if method == "rk4" else [])
    m1, m2, v, kh, gap0 = 0.1, 0.1, 1.0, 1e9, 1e-3
    mu = m1 * m2 / (m1 + m2)
    tc = float(refs.hertz_contact_time(mu, kh, v))
    on = [float(e["t"]) for e in events if e["kind"] == "contact_enter"]
    off = [float(e["t"]) for e in events if e["kind"] == "contact_exit"]
    check(len(on) == 1 and len(off) == 1, "hertz: one engagement and one release (%d, %d)" % (len(on), len(off)))
    if on and off:
        measure("event", on[0] - gap0 / v)
        measure("event", off[0] - on[0] - tc)
        check(abs(on[0] - gap0 / v) <= et, "hertz: contact begins at 1 ms (%r)" % on[0])
        check(abs(off[0] - on[0] - tc) <= max(et, 1e-9 * tc),
              "hertz: contact lasts %r s (closed form %r)" % (off[0] - on[0], tc))
    last = samples[-1]
    # equal masses meeting at +-v/2 part at -+v/2 (elastic)
    va, vb = -v / 2, v / 2
    measure("state", max(abs(last["A.v"] - va), abs(last["B.v"] - vb)))
    check(abs(last["A.v"] - va) <= xt * v and abs(last["B.v"] - vb) <= xt * v,
          "hertz: parting velocities %r, %r (elastic %r, %r)" % (last["A.v"], last["B.v"], va, vb))
    return bal


def case_chain(exe, method, work):
    et, xt, _ = TOL[method]
    events, samples, bal = run(exe, method, work, ["--dt", "1e-7"] if method == "rk4" else [])
    m, v, kh, gap0, n = mpf("0.1"), mpf(1), mpf("1e9"), mpf("0.5e-3"), 20
    tc = refs.hertz_contact_time(m / 2, kh, v)
    on = [e for e in events if e["kind"] == "contact_enter"]
    off = [e for e in events if e["kind"] == "contact_exit"]
    check(len(on) == n - 1 and len(off) == n - 1,
          "chain: %d engagements and %d releases (%d each)" % (len(on), len(off), n - 1))
    for i, (a, b) in enumerate(zip(on, off)):
        t0 = i * (gap0 / v + tc / 2) + gap0 / v
        name = "G[%d]" % (i + 1)
        measure("event", float(a["t"]) - float(t0))
        measure("event", float(b["t"]) - float(t0 + tc))
        check(a["contact"] == name and b["contact"] == name and
              abs(float(a["t"]) - float(t0)) <= et and abs(float(b["t"]) - float(t0 + tc)) <= et,
              "chain: %s from %s to %s (closed form %s, %s)" % (name, a["t"], b["t"], t0, t0 + tc))
    last = samples[-1]
    err = max(abs(last["P[20].v"] - float(v)), abs(last["P[1].v"]), abs(last["P[10].v"]))
    measure("state", err)
    check(err <= xt * float(v), "chain: the last bead leaves at v, the others rest (%r, %r, %r)" %
          (last["P[20].v"], last["P[1].v"], last["P[10].v"]))
    return bal


def interp_peak(samples, key, k, half=3):
    """The instant of the maximum of column key near sample k: the zero of
    the derivative of the polynomial through samples k-half..k+half
    (Newton's divided differences, bisection on the bracket)."""
    pts = samples[max(k - half, 0):k + half + 1]
    ts = [mpf(p["t"]) for p in pts]
    c = [mpf(p[key]) for p in pts]
    for j in range(1, len(ts)):
        for i in range(len(ts) - 1, j - 1, -1):
            c[i] = (c[i] - c[i - 1]) / (ts[i] - ts[i - j])
    f = lambda t: sum(c[i] * mp.fprod([t - ts[j] for j in range(i)]) for i in range(len(c)))
    return mp.findroot(lambda t: mp.diff(f, t), (ts[half - 1], ts[half + 1]), solver="bisect")


def case_wave(exe, method, work):
    """The touching Hertzian chain (models/hertz_wave.nsm) against
    wave_ref.py: each contact engages once (its record where the
    overlap, growing from t = 0 like t^p with p = 1, 3.5, 7.25, ..., first
    passes its rounding level: not an instant of the physics, so only
    its order is checked: before the contact's force peak) and is released
    once, at the reference's instant; the states on the reference's grid;
    each bead's first velocity peak (interpolated on the 1 us samples) and
    the wave's speed in beads per second from beads 5..15 (least squares,
    wave_ref.wave_speed)."""
    import wave_ref
    et, xt, _ = TOL[method]
    ref = wave_ref.load(os.environ.get("NSM_WAVE_REF"))
    events, samples, bal = run(exe, method, work, ["--dt", "1e-7"] if method == "rk4" else [])
    n = 20
    for i in range(n - 1):
        name = "G[%d]" % (i + 1)
        on = [float(e["t"]) for e in events if e["contact"] == name and e["kind"] == "contact_enter"]
        off = [float(e["t"]) for e in events if e["contact"] == name and e["kind"] == "contact_exit"]
        peak = ref["force_peak"][i][0]
        check(len(on) == 1 and on[0] < peak, "wave: %s engages once, before its force peak at %s (%s)" %
              (name, mp.nstr(peak, 12), on))
        want = ref["separation"][i]
        check(len(off) == len(want) == 1, "wave: %s released %d time(s) (reference %d)" %
              (name, len(off), len(want)))
        for got, w in zip(off, want):
            measure("event", got - float(w))
            check(abs(got - float(w)) <= et, "wave: %s released at %r (reference %s, %.2g s)" %
                  (name, got, mp.nstr(w, 17), got - float(w)))
    by_t = {round(s["t"] * 1e6): s for s in samples}
    worst = 0.0
    for t, xs, us in ref["grid"]:
        s = by_t.get(int(mp.nint(t * 1e6)))
        if s is None:
            check(False, "wave: no sample at %s s" % mp.nstr(t, 6))
            continue
        for i in range(n):
            worst = max(worst, abs(s["P[%d].v" % (i + 1)] - float(us[i])))
        for i in (1, 5, 10, 15, 20):
            worst = max(worst, abs(s["P[%d].x" % i] - float(xs[i - 1])) / 1e-3)
    measure("state", worst)
    check(worst <= xt, "wave: velocities (of v = 1 m/s) and positions (of 1 mm) on the grid "
          "within %.3g (worst %.3g)" % (xt, worst))
    peaks = []
    for i in range(4, 15):
        key = "P[%d].v" % (i + 1)
        k = max(range(len(samples)), key=lambda j: samples[j][key])
        peaks.append(interp_peak(samples, key, k))
        d = float(peaks[-1] - ref["vel_peak"][i][0])
        check(abs(d) <= max(et, 1e-11), "wave: bead %d's velocity peak at %s (reference %s, %.2g s)" %
              (i + 1, mp.nstr(peaks[-1], 15), mp.nstr(ref["vel_peak"][i][0], 15), d))
    speed = wave_ref.wave_speed({"vel_peak": [[None]] * 4 + [[p] for p in peaks]}, key="vel_peak")
    rel = float(abs(speed / ref["vel_speed"] - 1))
    check(rel <= 1e-8, "wave: speed %s beads/s from the velocity peaks (reference %s, %.2g "
          "relative)" % (mp.nstr(speed, 12), mp.nstr(ref["vel_speed"], 12), rel))
    return bal


def case_discs(exe, method, work):
    et, xt, _ = TOL[method]
    events, samples, bal = run(exe, method, work)
    t, vA, vB = refs.discs_oblique(1, "0.1", 1, "0.1", 1, 1)
    imp = impacts(events)
    check(len(imp) == 1, "discs: one impact (%d)" % len(imp))
    if imp:
        measure("event", float(imp[0]["t"]) - float(t))
        check(abs(float(imp[0]["t"]) - float(t)) <= et, "discs: impact at %s (closed form %s)" % (imp[0]["t"], t))
    last = samples[-1]
    got = (last["A.vx"], last["A.vy"], last["B.vx"], last["B.vy"])
    want = tuple(float(x) for x in vA + vB)
    measure("state", max(abs(a - b) for a, b in zip(got, want)))
    check(all(abs(a - b) <= 1e-10 for a, b in zip(got, want)),
          "discs: velocities after %r (closed form %r)" % (got, want))
    return bal


def case_duffing(exe, method, work):
    et, xt, _ = TOL[method]
    events, samples, bal = run(exe, method, work, ["--t-end", "12"])
    ref = refs.duffing_stop(1, "0.1", 1, "0.5", "1.2", "0.5", "0.8", 0, 0, 12)
    imp = impacts(events)
    check(len(imp) == len(ref), "duffing: %d impacts (reference %d)" % (len(imp), len(ref)))
    for k, (e, (t, vb, va)) in enumerate(zip(imp, ref)):
        measure("event", float(e["t"]) - float(t))
        check(abs(float(e["t"]) - float(t)) <= et * max(1, float(t)),
              "duffing: impact %d at %s (reference %s)" % (k, e["t"], t))
    return bal


def case_hertz_friction(exe, method, work):
    """A block pressed by its weight m g on a damped Hertz floor (k p^(3/2))
    slides with Coulomb friction whose normal force is the floor's: at rest
    vertically p = (m g / k)^(2/3), and the block decelerates at mu g."""
    et, xt, _ = TOL[method]
    events, samples, bal = run(exe, method, work)
    by_t = {round(s["t"], 6): s for s in samples}
    a, b = by_t[0.5], by_t[0.6]
    p = (9.81 / 1e7) ** (2 / 3)
    measure("state", abs(-a["Y.x"] - p) / p)
    check(abs(-a["Y.x"] - p) <= 1e-8 * p, "hertz_friction: compression %r (closed form %r)" % (-a["Y.x"], p))
    dec = (a["X.v"] - b["X.v"]) / 0.1
    check(abs(dec - 0.3 * 9.81) <= 1e-6, "hertz_friction: deceleration %r (mu g = %r)" % (dec, 0.3 * 9.81))
    return bal


def friction_events(events):
    """The friction element F's stick, slip and reversal records."""
    return [e for e in events if e["contact"] == "F" and e["kind"] in ("stick", "slip", "reversal")]


def check_fric_sequence(case, events, samples, ref, method):
    """Every friction event of the run against the reference's (t, kind, x):
    the same kinds in order, each at its instant (events' tolerance) and the
    position there (states' tolerance, read from the sample nearest after)."""
    et, xt, _ = TOL[method]
    got = friction_events(events)
    check(len(got) == len(ref), "%s: %d friction events (reference %d)" % (case, len(got), len(ref)))
    for k, (e, (t, kind, x)) in enumerate(zip(got, ref)):
        measure("event", float(e["t"]) - float(t))
        check(e["kind"] == kind and abs(float(e["t"]) - float(t)) <= et * max(1, float(t)),
              "%s: %s %d at %s (reference %s at %s)" % (case, e["kind"], k, e["t"], kind, t))


def case_duffing_coulomb(exe, method, work, case="duffing_coulomb"):
    """Reversals at the turning points and the final stick (quadratures of
    the energy, refs.duffing_coulomb); stuck, the mass stays where it
    stuck, and friction has dissipated the springs' energy lost."""
    events, samples, bal = run(exe, method, work)
    ref = refs.duffing_coulomb(1, 1, "0.5", 1, "0.6", "0.5", 3, 16)
    check_fric_sequence(case, events, samples, ref, method)
    xs = float(ref[-1][2])
    last = samples[-1]
    err = abs(last["M.x"] - xs) / abs(xs)
    measure("state", err)
    check(err <= TOL[method][1] and last["M.v"] == 0,
          "%s: rests at %r (reference %r), v = %r" % (case, last["M.x"], xs, last["M.v"]))
    u = lambda x: x * x / 2 + 0.5 * x ** 4 / 4
    diss = u(3.0) - u(xs)
    check(abs(last["energy.dissipated"] - diss) <= TOL[method][2] * u(3.0),
          "%s: friction dissipated %r (potential lost %r)" % (case, last["energy.dissipated"], diss))
    return bal


def case_duffing_floor(exe, method, work):
    """duffing_coulomb pressed by a held floor's contact force of 1 N:
    the same events (the slip force rides in the floor force's direction)."""
    return case_duffing_coulomb(exe, method, work, "duffing_floor")


def case_belt_duffing(exe, method, work):
    """The stick-slip limit cycle on the belt: every slip onset (the cubic
    spring's force reaching mu_s N at the current state) and every stick at
    the reference's instants (refs.belt_duffing)."""
    events, samples, bal = run(exe, method, work)
    ref = refs.belt_duffing(1, 1, "0.5", 10, "0.5", "0.3", 3, 20)
    check_fric_sequence("belt_duffing", events, samples, ref, method)
    return bal


def case_rocking_impact(exe, method, work, b=0.2):
    """The rocking block's corner impact (both corners, friction, e = 0),
    against Housner's closed form: about the new corner at
    w' = w (1 - 3/2 sin^2 alpha) (the only impulse acts there, so the
    angular momentum about it is kept: (I + m (h^2 - b^2)) w = I_c w'),
    the old corner lifting off at 2 b w' with no impulse, the energy lost
    I_c (w^2 - w'^2) / 2, I_c = 4 m (b^2 + h^2) / 3.  A squat block
    (b > sqrt(2) h: the ratio would be negative) stops dead: every
    velocity 0, the energy lost all of it."""
    h, w, m = mpf("0.5"), mpf(1), mpf(1)
    b = mpf(b)
    events, samples, bal = run(exe, method, work, ["--set", "b=%s" % b])
    alpha = mp.atan(b / h)
    ratio = 1 - mpf(3) / 2 * mp.sin(alpha) ** 2
    wp = w * ratio if ratio > 0 else mpf(0)
    Ic = 4 * m * (b ** 2 + h ** 2) / 3
    imp = impacts(events)
    case = "rocking_impact" if ratio > 0 else "rocking_squat"
    first = imp[0] if imp else None
    check(first is not None and first["contact"] == "L" and float(first["t"]) == 0,
          "%s: the left corner's impact at t = 0" % case)
    if ratio > 0:
        check(all(e["contact"] not in ("R", "FR") for e in events),
              "%s: no record of the old corner, which takes no impulse and lifts off (%s)" %
              (case, [(e["kind"], e["contact"]) for e in events]))
    if first is not None:
        lost = Ic * (w ** 2 - wp ** 2) / 2
        check(abs(float(first["energy_lost"]) - float(lost)) <= 1e-12,
              "%s: energy lost %s (closed form %s)" % (case, first["energy_lost"], lost))
    last = samples[-1]
    got = (last["B.omega"], last["B.vx"], last["B.vy"])
    want = tuple(float(x) for x in (wp, -h * wp, b * wp))
    err = max(abs(a - c) for a, c in zip(got, want))
    measure("state", err)
    check(err <= 1e-12, "%s: (omega, vx, vy) after %r (Housner %r)" % (case, got, want))
    if ratio > 0:
        t = last["t"]
        check(abs(last["R.gap"] - float(2 * b * wp) * t) <= 1e-12,
              "%s: the old corner lifts off at 2 b w' (gap %r at %r s)" % (case, last["R.gap"], t))
    return bal


def case_rocking_squat(exe, method, work):
    """The same impact of a squat block (b = 0.8 m, h = 0.5 m): it stops."""
    return case_rocking_impact(exe, method, work, b="0.8")


def case_rocking_block(exe, method, work):
    """Housner's rocking block (models/rocking_block.nsm: curved corner
    gaps, slips whose coefficients depend on the angle, e = 0, friction
    enough to stick) released from rest at theta0 = 0.1 rad on its left
    corner, against refs.rocking_block (mp.odefun on the free rocking
    equation, Housner's ratio at each impact): every corner impact up to
    t_end at its instant, alternately on R and L, the angular speed
    before it (the landing corner's normal speed 2 b |w|) and after it
    (the old corner's lift-off speed 2 b |w'|, its separation at the same
    instant), the new corner sticking (no slip record) and the run ending
    on the corner of the last impact."""
    b, h, g, th0, t_end = "0.2", "0.5", "9.81", "0.1", 1.5
    ref = [r for r in refs.rocking_block(b, h, g, th0, 12) if r[0] < t_end]
    events, samples, bal = run(exe, method, work)
    tt, st = TOL[method][0], TOL[method][1]
    imp = impacts(events)
    check(len(imp) == len(ref), "rocking_block: %d corner impacts (reference %d)" %
          (len(imp), len(ref)))
    check(not any(e["kind"] == "slip" for e in events),
          "rocking_block: no corner slips (mu = 2)")
    for k, (e, r) in enumerate(zip(imp, ref)):
        corner, other = ("R", "L") if k % 2 == 0 else ("L", "R")
        dt = float(e["t"]) - float(r[0])
        measure("event", dt)
        check(e["contact"] == corner and abs(dt) <= tt,
              "rocking_block: impact %d on %s at %s s (reference %s, %.2g s)" %
              (k + 1, e["contact"], e["t"], mp.nstr(r[0], 17), dt))
        wb = -float(e["vrel_before"]) / (2 * float(b))
        sep = [x for x in events if x["kind"] == "separation" and x["contact"] == other and
               x["t"] == e["t"]]
        wa = float(sep[0]["vrel_after"]) / (2 * float(b)) if sep else float("nan")
        for name, got, want in (("before", wb, r[1]), ("after", wa, r[2])):
            err = abs(got - float(want)) / float(want)
            measure("state", err)
            check(err <= st, "rocking_block: impact %d, |omega| %s %r (reference %s, %.2g "
                  "relative)" % (k + 1, name, got, mp.nstr(want, 17), err))
    return bal


def case_rocking_reduced(exe, method, work):
    """The rocking block reduced to one coordinate (bench/models_nl/
    rocking_reduced.nsm: phi = |theta|, the force of the free rocking
    equation written without alpha, Housner's ratio as the restitution,
    what nl_bench.py times beside CVODE and SciPy) against
    refs.rocking_block: every impact at its instant and the angular speed
    before and after it, so that the benchmark's reduced model is the
    block's equation."""
    b, h, g, th0, t_end = "0.2", "0.5", "9.81", "0.1", 1.5
    ref = [r for r in refs.rocking_block(b, h, g, th0, 12) if r[0] < t_end]
    events, samples, bal = run(exe, method, work)
    tt, st = TOL[method][0], TOL[method][1]
    imp = impacts(events)
    check(len(imp) == len(ref), "rocking_reduced: %d impacts (reference %d)" % (len(imp), len(ref)))
    for k, (e, r) in enumerate(zip(imp, ref)):
        dt = float(e["t"]) - float(r[0])
        measure("event", dt)
        check(abs(dt) <= tt, "rocking_reduced: impact %d at %s s (reference %s, %.2g s)" %
              (k + 1, e["t"], mp.nstr(r[0], 17), dt))
        for name, got, want in (("before", -float(e["vrel_before"]), r[1]),
                                ("after", float(e["vrel_after"]), r[2])):
            err = abs(got - float(want)) / float(want)
            measure("state", err)
            check(err <= st, "rocking_reduced: impact %d, |omega| %s %r (reference %s, %.2g "
                  "relative)" % (k + 1, name, got, mp.nstr(want, 17), err))
    return bal


def check_at_rest(case, samples, t0, t1, pos, tol=1e-12):
    """Every sample in [t0, t1] at the positions pos (B.x, B.y, B.phi) with
    zero velocities, to tol: the block at rest."""
    rows = [r for r in samples if t0 <= r["t"] <= t1]
    worst = 0.0
    for r in rows:
        for name, want in zip(("B.x", "B.y", "B.phi", "B.vx", "B.vy", "B.omega"),
                              list(pos) + [0.0, 0.0, 0.0]):
            worst = max(worst, abs(r[name] - want))
    measure("state", worst)
    check(len(rows) > 2 and worst <= tol,
          "%s: at rest on %d samples in [%.6g, %.6g] s, worst deviation %.2g (tolerance %g)" %
          (case, len(rows), t0, t1, worst, tol))


def case_rocking_rest(exe, method, work):
    """Housner's rocking block (models/rocking_block.nsm) run past the
    accumulation of its impacts: the rocking cascade is summed (zeno.c,
    rock_resolve) and the block lands at rest on both corners at t*, which
    refs.rocking_accumulation derives by quadratures of the energy flight by
    flight (the exact ratio at each impact) until the rest is below 1e-25 s:
    one zeno record at t* within min(1e-10 s, the method's event tolerance),
    every impact before it alternately on R and L with no slip, the energy
    lost in the impacts and the jump together the potential energy the
    block's centre loses in falling from its release to h (closing to 1e-10
    of the largest energy).  At rest on both corners with both elements
    stuck, the stuck slip rows are the same (statically indeterminate
    friction): the constrained solves merge them (dynamics.c,
    rt_cons_split), and the run goes on to t_end = 2 s at rest: every sample
    after t* at the rest configuration (B.y = h, B.phi = 0 and the centre
    above the middle of its corners, velocities 0) to 1e-12, nothing but
    the settling records at t* after the jump."""
    b, h, g, th0, m = mpf("0.2"), mpf("0.5"), mpf("9.81"), mpf("0.1"), 1
    tstar, nimp, left = refs.rocking_accumulation(b, h, g, th0)
    ev, out = os.path.join(work, "ev.csv"), os.path.join(work, "out.csv")
    p = subprocess.run([exe, "--method", method, "--t-end", "2", "--events", ev, "--out", out,
                        "--summary"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    check(p.returncode == 0, "rocking_rest: the run goes on past the accumulation point at rest "
          "on both corners to t_end (exit %d: %s)" % (p.returncode, p.stderr.strip()[-200:]))
    with open(ev) as f:
        events = list(csv.DictReader(f))
    with open(out) as f:
        samples = [{k.split(" [")[0]: float(v) for k, v in r.items()} for r in csv.DictReader(f)]
    zeno = [e for e in events if e["kind"] == "zeno"]
    check(len(zeno) == 1, "rocking_rest: one zeno record (%d)" % len(zeno))
    tol = min(1e-10, TOL[method][0])
    if zeno:
        dt = float(zeno[0]["t"]) - float(tstar)
        measure("event", dt)
        check(abs(dt) <= tol, "rocking_rest: accumulation point %s s (reference %s, %d impacts "
              "summed, rest below %s s; %.2g s)" % (zeno[0]["t"], mp.nstr(tstar, 20), nimp,
                                                     mp.nstr(left, 2), dt))
        wz = -float(zeno[0]["vrel_before"]) / (2 * b)     # the opening corner's 2 b w
        kin = 2 * m * (b * b + h * h) / 3 * wz * wz         # I_c w^2 / 2, I_c = 4 m R^2 / 3
        # (to 1e-9: the loss is a difference of two energies of 4.9 J, whose
        # rounding, 5e-16 J, is 5e-10 of it; the log's speed has 12 digits)
        check(abs(float(zeno[0]["energy_lost"]) - float(kin)) <= 1e-9 * float(kin),
              "rocking_rest: the jump loses the kinetic energy left, %s J (I_c w^2 / 2 = %s J)" %
              (zeno[0]["energy_lost"], mp.nstr(kin, 17)))
        after = events[events.index(zeno[0]) + 1:]
        check(all(float(e["t"]) == float(zeno[0]["t"]) and e["kind"] == "stick" for e in after),
              "rocking_rest: after the accumulation point only its stick records (%s)" %
              [(e["t"], e["kind"], e["contact"]) for e in after])
        # at rest the centre is above the middle of its corners: x at t* is
        # where it rests, y = h, phi = 0
        rest = [r for r in samples if r["t"] > float(zeno[0]["t"])]
        if rest:
            check_at_rest("rocking_rest", samples, rest[0]["t"], 2.0,
                          (rest[0]["B.x"], float(h), 0.0))
            check(abs(samples[-1]["t"] - 2) < 1e-12, "rocking_rest: the run ends at %r s" %
                  samples[-1]["t"])
    imp = impacts(events)
    check(len(imp) > 20 and all(e["contact"] == ("R" if k % 2 == 0 else "L")
                                for k, e in enumerate(imp)),
          "rocking_rest: %d impacts alternately on R and L" % len(imp))
    check(not any(e["kind"] == "slip" for e in events), "rocking_rest: no corner slips")
    lost = sum(float(e["energy_lost"]) for e in events)
    drop = m * g * (b * mp.sin(th0) + h * mp.cos(th0) - h)
    top = m * g * (b * mp.sin(th0) + h * mp.cos(th0))
    err = abs(lost - float(drop)) / float(top)
    measure("state", err)
    check(err <= 1e-10, "rocking_rest: energy lost %r J, impacts and jump (the fall to rest "
          "%s J; %.2g of the largest energy)" % (lost, mp.nstr(drop, 17), err))
    mb = re.search(r"relative to the largest energy\s+(\S+)", p.stdout + p.stderr)
    return float(mb.group(1)) if mb else float("inf")


def rocking_push_run(exe, method, work, case, sets):
    """Runs tests/nonlinear/rocking_push.nsm with --set sets; returns
    (events, samples, balance), the run required to reach t_end."""
    extra = []
    for kv in sets:
        extra += ["--set", kv]
    try:
        return run(exe, method, work, extra)
    except RuntimeError as err:
        check(False, "%s: the run reaches t_end (%s)" % (case, str(err)[-300:]))
        return [], [], float("inf")


def case_rocking_hold(exe, method, work):
    """A block started at rest on both corners, both friction elements
    stuck (tests/nonlinear/rocking_push.nsm with no push): the stuck slip
    rows are the same, and the block stays at rest to t_end = 4.2 s, its
    state the initial one to 1e-12, with no record but the initial
    contacts' and elements' sticks."""
    events, samples, bal = rocking_push_run(exe, method, work, "rocking_hold", ["rate=0"])
    check(bool(events) and all(float(e["t"]) == 0 and e["kind"] == "stick" for e in events),
          "rocking_hold: only the initial stick records (%s)" %
          [(e["t"], e["kind"], e["contact"]) for e in events])
    check_at_rest("rocking_hold", samples, 0, 4.2, (0.0, 0.5, 0.0))
    return bal


def case_rocking_tip(exe, method, work):
    """The block at rest on both corners pushed at its centre by P = rate t
    (tests/nonlinear/rocking_push.nsm, rate = 1 N/s, mu = 2): statics give
    N_L = (m g - h P / b) / 2, so below the overturning push the block stays
    at rest and its left corner lifts off when the push's moment about the
    right corner, P h, reaches m g b: at t = m g b / (h rate) = 3.924 s
    (exact rationals), long before sliding (mu m g = 19.62 N).  Checked:
    the separation of L at that instant, at rest until then (to 1e-12 with
    taylor, 1e-11 with rk4 and adaptive), no slip."""
    m, g, b, h, rate = mpf(1), mpf("9.81"), mpf("0.2"), mpf("0.5"), mpf(1)
    t_tip = m * g * b / (h * rate)
    events, samples, bal = rocking_push_run(exe, method, work, "rocking_tip", ["rate=1", "mu=2"])
    sep = [e for e in events if e["kind"] == "separation"]
    check(len(sep) == 1 and sep[0]["contact"] == "L",
          "rocking_tip: one separation, of the left corner (%s)" %
          [(e["t"], e["contact"]) for e in sep])
    if sep:
        dt = float(sep[0]["t"]) - float(t_tip)
        measure("event", dt)
        check(abs(dt) <= TOL[method][0], "rocking_tip: L lifts off at %s s (P h = m g b at %s s, "
              "%.2g s)" % (sep[0]["t"], mp.nstr(t_tip, 17), dt))
    check(not any(e["kind"] == "slip" for e in events), "rocking_tip: no corner slips")
    # rk4 and adaptive hold the contacts at the acceleration level only:
    # near the overturning push their rounding drifts by 2.3e-12 (taylor 1e-15)
    check_at_rest("rocking_tip", samples, 0, float(t_tip) - 0.01, (0.0, 0.5, 0.0),
                  1e-12 if method == "taylor" else 1e-11)
    return bal


def case_rocking_slip(exe, method, work):
    """The block at rest on both corners pushed at its centre by P = rate t
    on a floor with mu = 0.3 (tests/nonlinear/rocking_push.nsm): the push
    reaches the friction limit mu m g at t_s = mu m g / rate = 2.943 s,
    before it could overturn the block (m g b / h = 3.924 N): both corners,
    whose stuck slip rows are the same, slip together at t_s (neither alone:
    the stuck one would carry a force beyond its cone), and the block
    slides on both corners (N_L = m g / 8 stays positive: the friction's
    moment about the centre, mu m g h, is below m g b).  Then m x'' = rate
    (t - t_s): at t_end = 4.2 s, x = rate (t - t_s)^3 / (6 m) and
    vx = rate (t - t_s)^2 / (2 m), at rest until t_s."""
    m, g, mu, rate, t_end = mpf(1), mpf("9.81"), mpf("0.3"), mpf(1), mpf("4.2")
    t_s = mu * m * g / rate
    events, samples, bal = rocking_push_run(exe, method, work, "rocking_slip", ["rate=1", "mu=0.3"])
    slips = [e for e in events if e["kind"] == "slip"]
    check(sorted(e["contact"] for e in slips) == ["FL", "FR"],
          "rocking_slip: both corners slip, once each (%s)" %
          [(e["t"], e["contact"]) for e in slips])
    for e in slips:
        dt = float(e["t"]) - float(t_s)
        measure("event", dt)
        check(abs(dt) <= TOL[method][0], "rocking_slip: %s slips at %s s (P = mu m g at %s s, "
              "%.2g s)" % (e["contact"], e["t"], mp.nstr(t_s, 17), dt))
    check(not any(e["kind"] in ("stick", "separation", "impact") and float(e["t"]) > 0
                  for e in events), "rocking_slip: no stick, separation or impact after t = 0")
    check_at_rest("rocking_slip", samples, 0, float(t_s) - 0.01, (0.0, 0.5, 0.0))
    if samples:
        last = samples[-1]
        for name, want in (("B.x", rate * (t_end - t_s) ** 3 / (6 * m)),
                           ("B.vx", rate * (t_end - t_s) ** 2 / (2 * m))):
            err = abs(last[name] - float(want)) / float(want)
            measure("state", err)
            check(abs(last["t"] - float(t_end)) < 1e-12 and err <= TOL[method][1],
                  "rocking_slip: %s %r at %r s (closed form %s, %.2g relative)" %
                  (name, last[name], last["t"], mp.nstr(want, 17), err))
    return bal


def case_rocking_slide(exe, method, work):
    """The rocking block with mu = 0.15 (tests/nonlinear/rocking_slide.nsm):
    its corners slip and its impacts alternating between them are no
    rocking about a stuck corner, so the tail is not summed: the run stops
    with that reason, before any zeno record (a landing at rest would be
    a wrong answer)."""
    ev, out = os.path.join(work, "ev.csv"), os.path.join(work, "out.csv")
    p = subprocess.run([exe, "--method", method, "--t-end", "2", "--events", ev, "--out", out,
                        "--summary"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    check(p.returncode != 0 and "that is no rocking about a stuck contact" in p.stderr,
          "rocking_slide: the run stops, the cascade not summed (exit %d: %s)" %
          (p.returncode, p.stderr.strip()[-200:]))
    with open(ev) as f:
        events = list(csv.DictReader(f))
    check(any(e["kind"] == "slip" for e in events) and not any(e["kind"] == "zeno" for e in events),
          "rocking_slide: the corners slip, no zeno record")
    mb = re.search(r"relative to the largest energy\s+(\S+)", p.stdout + p.stderr)
    return float(mb.group(1)) if mb else float("inf")


def case_sliding_rod(exe, method, work):
    """A rod whose end slides on a rough floor (tests/nonlinear/sliding_rod.nsm:
    a curved gap, a slip whose coefficient of omega depends on the angle),
    against refs.sliding_rod (mp.odefun on the reduced equations): the slip
    at release, the reversal at its instant (slip onset located on the
    slip velocity's series, a product of the row's and the velocities'),
    and the whole state at t_end, after 40 ms of slipping back."""
    t_end = 0.43
    ref_ev, ref_st = refs.sliding_rod(1, "0.5", "9.81", "0.3", "0.5", str(t_end))
    events, samples, bal = run(exe, method, work)
    et, xt, _ = TOL[method]
    got = [e for e in events if e["contact"] == "FE" and e["kind"] in ("stick", "slip", "reversal")]
    check([e["kind"] for e in got] == [k for _, k in ref_ev],
          "sliding_rod: friction events %s (reference %s)" % ([e["kind"] for e in got],
                                                             [k for _, k in ref_ev]))
    for e, (t, kind) in zip(got, ref_ev):
        dt = float(e["t"]) - float(t)
        measure("event", dt)
        check(abs(dt) <= et, "sliding_rod: %s at %s s (reference %s, %.2g s)" %
              (e["kind"], e["t"], mp.nstr(t, 17), dt))
    last = samples[-1]
    check(abs(last["t"] - t_end) < 1e-12, "sliding_rod: the run ends at %r s" % last["t"])
    for name, want in zip(("B.x", "B.y", "B.phi", "B.vx", "B.vy", "B.omega"), ref_st):
        err = abs(last[name] - float(want)) / abs(float(want))
        measure("state", err)
        check(err <= xt, "sliding_rod: %s %r at t_end (reference %s, %.2g relative)" %
              (name, last[name], mp.nstr(want, 17), err))
    return bal


def main():
    ap = sim_parser(__doc__.split("\n")[0])
    ap.add_argument("--case", required=True, choices=sorted(MODELS))
    ap.add_argument("--method", required=True, choices=sorted(TOL))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as work:
        exe = build(args, args.case, work)
        bal = globals()["case_" + args.case](exe, args.method, work)
    check(bal <= TOL[args.method][2], "%s: energy balance %.3g of the largest energy" % (args.case, bal))
    print("measured: %s %s: worst event error %.2g s, worst state error %.2g, balance %.2g" %
          (args.case, args.method, MEAS["event"], MEAS["state"], bal))
    n = len(FAILS)
    print("%d passed, %d failed" % (1 if not n else 0, 1 if n else 0))
    return 1 if n else 0


if __name__ == "__main__":
    sys.exit(main())
