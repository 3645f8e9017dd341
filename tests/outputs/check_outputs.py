#!/usr/bin/env python3
"""Output columns of any quantity, against closed forms.

usage: check_outputs.py --nsmc NSMC --include DIR --lib A:B:.. [--cc CC]
                        [--cflags="FLAGS"] --case CASE

Cases (models in tests/outputs/, built with nsmc and run to CSV):

- spring: two_mass_outputs.nsm.  S1.force and S2.force are the springs'
  tensions k (x_B - x_A) + c (v_B - v_A), computed here from the positions
  and velocities of the same CSV; and against the closed form: the two
  masses stuck together until the contact force m2 a + k2 x + c2 v of that
  motion reaches zero (found here by bisection), then M1 alone, a damped
  oscillator from that state, until the first impact.
- expr: the same run.  d = M2.x - M1.x and the unnamed column "M2.x - M1.x"
  equal the difference of the columns and C.gap; p1 = m1*M1.v; springs =
  S1.force + S2.force; the units of the CSV header.
- friction: sliding_block_outputs.nsm.  The floor's contact force is the
  closed form P + Q sin(w t) (Y is held on the floor); while X slides,
  F.force = -mu_k N sign(slip) with that N and F.slip = X.v; while it
  sticks, F.force is the reaction k x - A sin(w t) (from the CSV's x) and
  within mu_s N.  drive.force and press.force are their closed forms.
- coulomb: models/coulomb_oscillator.nsm with F.force and F.slip: the
  closed form of the first half-swing, x = -1 + 13 cos t + 6 sin t with
  F.force = -mu N = -1 while v > 0; F.force = +1 while v < 0; and the
  sticking reaction k x at the end.
- rate: a gap's rate G.rate: C.rate = M2.v - M1.v (two_mass_outputs.nsm);
  the curved gap of models/discs_oblique.nsm, touch.rate = (B - A).(vB - vA)
  / |B - A| from the CSV's columns; the moving surface of
  models/vibrating_table.nsm, floor.gap = B.x - amp sin(omega t) and
  floor.rate = B.v - amp omega cos(omega t).
- points: disc_points.nsm, a spinning disc between two frictionless walls
  on a torsion spring, no gravity: a wall's W.x, W.y (its disc's contact
  point, centre - R n) and W.vx, W.vy (that material point's velocity,
  v + omega x (-R n)) against the closed form of the flight (straight
  lines between the impacts, each found here from the last: walls at
  +-(L - R), rebound -e v) and of the spin (phi = omega0/wn sin(wn t)); a
  floor's contact point moves at vx + omega R.
- torque: the same run.  S.force of a spring between ground and D.phi and
  twice = 2*S.force are kt phi and 2 kt phi, in N*m; held = T0/2 with T0
  in N*m is N*m; kin = m*D.vx^2/2, of the same dimensions, is an energy, J.
- ifsample: an `if t <= T` in an output column is evaluated at each
  sample's own time (no time switch): equal to (t <= 0.5) at every sample,
  the sample at exactly t = 0.5 s included, and the events the same as
  without the column.
- h5section: a Poincare section written to HDF5 too: with --section and
  --out FILE.h5, /section holds the section CSV's records, its columns
  and units attributes its header's, spec the --section given.
- setunits: a --set-file whose values carry units (k1 = 4 kN/m, c1 = 2000
  g/s) gives the same run, byte for byte, as --set in SI; a unit of another
  dimension is refused with FILE:LINE; `nsmc run --set-file` takes it too.
- h5: the two-mass run written to HDF5: /trajectory's columns and units
  attributes name the new columns, and their values equal the CSV's; the
  root's attributes nsm_version (the project's, --nsm-version) and
  hdf5_version (the library's, as h5py reports it).
"""
import csv
import math
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from simbuild import build_sim, sim_parser  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FAILS = []


def check(cond, what):
    """Records a failed check (the run goes on to report every one)."""
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        FAILS.append(what)


def build(args, model, work, text=None):
    """Compiles a model (or the given model text) into a simulator."""
    name = os.path.splitext(os.path.basename(model))[0]
    if text is not None:
        model = os.path.join(work, name + ".nsm")
        with open(model, "w") as f:
            f.write(text)
    return build_sim(args, model, work, name)


def run(exe, work, extra=()):
    """Runs the simulator; returns (header, units, samples, events)."""
    ev, out = os.path.join(work, "ev.csv"), os.path.join(work, "out.csv")
    subprocess.run([exe, "--events", ev, "--out", out] + list(extra), check=True,
                   stdout=subprocess.DEVNULL)
    with open(out) as f:
        rows = list(csv.reader(f))
    names, units = [], {}
    for h in rows[0]:
        name, _, unit = h.partition(" [")
        names.append(name)
        units[name] = unit[:-1] if unit else ""
    samples = [dict(zip(names, map(float, r))) for r in rows[1:]]
    with open(ev) as f:
        events = list(csv.DictReader(f))
    return names, units, samples, events


def close(a, b, tol):
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


def worst(pairs):
    """The largest |a - b| / max(1, |a|, |b|) of a list of pairs: the CSV
    holds 12 significant digits, so a column equals an expression of others
    to about 1e-12 of the larger of them."""
    return max((abs(a - b) / max(1.0, abs(a), abs(b)) for a, b in pairs), default=0.0)


def damped(m, k, c, x0, v0, t):
    """x(t), v(t) of m x'' + c x' + k x = 0 (underdamped) from (x0, v0)."""
    g = c / (2 * m)
    wd = math.sqrt(k / m - g * g)
    A, B = x0, (v0 + g * x0) / wd
    e = math.exp(-g * t)
    x = e * (A * math.cos(wd * t) + B * math.sin(wd * t))
    v = e * (-g * (A * math.cos(wd * t) + B * math.sin(wd * t)) +
             wd * (-A * math.sin(wd * t) + B * math.cos(wd * t)))
    return x, v


TWO = dict(m1=5.0, m2=5.0, k1=2.0, k2=1.0, c1=1.0, c2=1.0)


def two_mass_closed(t):
    """The closed form of two_mass's run before its first impact: (x1, v1),
    and the separation time."""
    p = TWO
    M, K, C = p["m1"] + p["m2"], p["k1"] + p["k2"], p["c1"] + p["c2"]

    def contact(t):     # force on M2 while stuck: m2 a + k2 x + c2 v
        x, v = damped(M, K, C, -1.0, 0.0, t)
        a = -(K * x + C * v) / M
        return p["m2"] * a + p["k2"] * x + p["c2"] * v
    lo, hi = 0.1, 6.0   # contact(lo) > 0 > contact(hi)
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if contact(mid) > 0:
            lo = mid
        else:
            hi = mid
    ts = 0.5 * (lo + hi)
    if t <= ts:
        return damped(M, K, C, -1.0, 0.0, t), ts
    xs, vs = damped(M, K, C, -1.0, 0.0, ts)
    return damped(p["m1"], p["k1"], p["c1"], xs, vs, t - ts), ts


def case_spring(args, work):
    exe = build(args, os.path.join(HERE, "two_mass_outputs.nsm"), work)
    names, units, s, ev = run(exe, work)
    p = TWO
    e1 = worst((r["S1.force"], p["k1"] * r["M1.x"] + p["c1"] * r["M1.v"]) for r in s)
    e2 = worst((r["S2.force"], -(p["k2"] * r["M2.x"] + p["c2"] * r["M2.v"])) for r in s)
    check(e1 < 1e-11, "S1.force = k1 (M1.x - 0) + c1 M1.v at every sample (worst %.1e N)" % e1)
    check(e2 < 1e-11, "S2.force = k2 (0 - M2.x) + c2 (0 - M2.v) at every sample (worst %.1e N)" % e2)
    check(units["S1.force"] == "N" and units["S2.force"] == "N", "spring forces in N")
    impact = min(float(e["t"]) for e in ev if e["kind"] == "impact")
    ts = two_mass_closed(0)[1]
    sep = [float(e["t"]) for e in ev if e["kind"] == "separation"]
    check(sep and abs(sep[0] - ts) < 1e-9, "separation at the closed form's %.9f s" % ts)
    err_stuck = err_free = 0.0
    n_stuck = n_free = 0
    for r in s:
        t = r["t"]
        if abs(t - ts) < 1e-3 or t > impact - 1e-3:
            continue
        (x, v), _ = two_mass_closed(t)
        f1 = p["k1"] * x + p["c1"] * v
        err = abs(r["S1.force"] - f1)
        if t < ts:
            err_stuck = max(err_stuck, err, abs(r["S2.force"] + p["k2"] * x + p["c2"] * v))
            n_stuck += 1
        else:
            err_free = max(err_free, err)
            n_free += 1
    check(n_stuck > 100 and err_stuck < 1e-9,
          "stuck phase: both springs' forces = the closed form's (%d samples, worst %.1e N)"
          % (n_stuck, err_stuck))
    check(n_free > 100 and err_free < 1e-9,
          "free flight of M1 to the first impact: S1.force = the closed form's (%d samples, "
          "worst %.1e N)" % (n_free, err_free))


def case_expr(args, work):
    exe = build(args, os.path.join(HERE, "two_mass_outputs.nsm"), work)
    names, units, s, ev = run(exe, work)
    check("d" in names and "M2.x - M1.x" in names and "p1" in names and "springs" in names,
          "named and unnamed expression columns in the header: %s" % ", ".join(names))
    ed = worst((r["d"], r["M2.x"] - r["M1.x"]) for r in s)
    eu = worst((r["M2.x - M1.x"], r["M2.x"] - r["M1.x"]) for r in s)
    eg = worst((r["d"], r["C.gap"]) for r in s)
    ep = worst((r["p1"], TWO["m1"] * r["M1.v"]) for r in s)
    es = worst((r["springs"], r["S1.force"] + r["S2.force"]) for r in s)
    check(ed < 1e-11, "d = M2.x - M1.x (worst %.1e m)" % ed)
    check(eu < 1e-11, "the unnamed column 'M2.x - M1.x' = the difference (worst %.1e m)" % eu)
    check(eg < 1e-11, "d = C.gap (worst %.1e m)" % eg)
    check(ep < 1e-11, "p1 = m1 M1.v (worst %.1e)" % ep)
    check(es < 1e-11, "springs = S1.force + S2.force (worst %.1e N)" % es)
    check(units["d"] == "m" and units["M2.x - M1.x"] == "m" and units["p1"] == "N*s" and
          units["springs"] == "N", "units from the unit system: d [%s], p1 [%s], springs [%s]"
          % (units["d"], units["p1"], units["springs"]))


SB = dict(m=1.0, k=1.0, P=9.81, Q=3.0, A=8.0, w=1.0, mu_s=0.4, mu_k=0.3)


def case_friction(args, work):
    exe = build(args, os.path.join(HERE, "sliding_block_outputs.nsm"), work)
    names, units, s, ev = run(exe, work)
    p = SB
    N = lambda t: p["P"] + p["Q"] * math.sin(p["w"] * t)
    check(units["F.force"] == "N" and units["F.slip"] == "m/s" and units["N"] == "N",
          "units: F.force [N], F.slip [m/s], N [N]")
    check(worst((r["floor.force"], N(r["t"])) for r in s) < 1e-11,
          "floor.force = P + Q sin(w t), the closed form")
    check(worst((r["N"], N(r["t"])) for r in s) < 1e-11, "the column N = P + Q*sin(w*t)")
    check(worst((r["drive.force"], p["A"] * math.sin(p["w"] * r["t"])) for r in s) < 1e-11,
          "drive.force = A sin(w t)")
    check(worst((r["press.force"], -N(r["t"])) for r in s) < 1e-11,
          "press.force = -P - Q sin(w t)")
    check(worst((r["F.slip"], r["X.v"]) for r in s) < 1e-11, "F.slip = X.v (X -- ground)")
    slip0 = min(float(e["t"]) for e in ev if e["contact"] == "F" and e["kind"] == "slip")
    times = [float(e["t"]) for e in ev if e["contact"] == "F"]
    stick_err = slide_err = 0.0
    n_stick = n_slide = 0
    inside = True
    for r in s:
        t = r["t"]
        if any(abs(t - te) < 1e-6 for te in times):
            continue
        if t < slip0:
            f = p["k"] * r["X.x"] - p["A"] * math.sin(p["w"] * t)
            stick_err = max(stick_err, abs(r["F.force"] - f))
            inside = inside and abs(r["F.force"]) <= p["mu_s"] * N(t) * (1 + 1e-12)
            n_stick += 1
        elif abs(r["X.v"]) > 1e-9:
            f = -p["mu_k"] * N(t) * math.copysign(1.0, r["F.slip"])
            slide_err = max(slide_err, abs(r["F.force"] - f))
            n_slide += 1
    check(n_stick > 20 and stick_err < 1e-10,
          "sticking: F.force = the reaction k x - A sin(w t) (%d samples, worst %.1e N)"
          % (n_stick, stick_err))
    check(inside, "sticking: |F.force| <= mu_s N")
    check(n_slide > 1000 and slide_err < 1e-10,
          "sliding: F.force = -mu_k N sign(slip) with N = P + Q sin(w t) (%d samples, "
          "worst %.1e N)" % (n_slide, slide_err))


def case_coulomb(args, work):
    with open(os.path.join(ROOT, "models", "coulomb_oscillator.nsm")) as f:
        text = f.read()
    text = text.replace("output every 0.01 s: M.x, M.v, energy.dissipated, energy.error",
                        "output every 0.01 s: M.x, M.v, F.force, F.slip")
    exe = build(args, "coulomb_outputs.nsm", work, text)
    names, units, s, ev = run(exe, work)
    check("F.force" in names, "coulomb: F.force is a column")
    # first half-swing: x'' + x = -1 from x = 12, v = 6 until v = 0
    t_turn = math.atan2(6.0, 13.0)     # v = -13 sin t + 6 cos t = 0
    err_x = err_f = 0.0
    n = 0
    for r in s:
        t = r["t"]
        if t >= t_turn - 1e-3:
            break
        err_x = max(err_x, abs(r["M.x"] - (-1 + 13 * math.cos(t) + 6 * math.sin(t))))
        err_f = max(err_f, abs(r["F.force"] + 1.0))
        n += 1
    check(n > 20 and err_x < 1e-9 and err_f == 0.0,
          "first half-swing: x = -1 + 13 cos t + 6 sin t (worst %.1e m) with F.force = -mu N = "
          "-1 N exactly" % err_x)
    back = [r for r in s if r["M.v"] < -1e-9]
    check(back and all(r["F.force"] == 1.0 for r in back), "moving back: F.force = +1 N")
    last = [float(e["t"]) for e in ev if e["kind"] == "stick"][-1]
    rest = [r for r in s if r["t"] > last + 1e-6]
    check(rest and worst((r["F.force"], r["M.x"]) for r in rest) < 1e-11 and
          all(abs(r["F.force"]) <= 1.0 for r in rest),
          "stuck for good: F.force = the reaction k x, within mu N")


def case_rate(args, work):
    exe = build(args, os.path.join(HERE, "two_mass_outputs.nsm"), work)
    names, units, s, ev = run(exe, work)
    check(units["C.rate"] == "m/s", "C.rate in m/s")
    e = worst((r["C.rate"], r["M2.v"] - r["M1.v"]) for r in s)
    check(e < 1e-11, "C.rate = M2.v - M1.v (worst %.1e)" % e)
    with open(os.path.join(ROOT, "models", "discs_oblique.nsm")) as f:
        text = f.read()
    text = text.replace("B.vx, B.vy, touch.gap", "B.vx, B.vy, touch.gap, touch.rate")
    exe = build(args, "discs_outputs.nsm", work, text)
    names, units, s, ev = run(exe, work)
    pairs, gaps = [], []
    for r in s:
        dx, dy = r["B.x"] - r["A.x"], r["B.y"] - r["A.y"]
        dist = math.hypot(dx, dy)
        gaps.append((r["touch.gap"], dist - 0.2))
        pairs.append((r["touch.rate"], (dx * (r["B.vx"] - r["A.vx"]) +
                                        dy * (r["B.vy"] - r["A.vy"])) / dist))
    check(worst(gaps) < 1e-11, "curved gap: touch.gap = |B - A| - (rA + rB)")
    check(worst(pairs) < 1e-10, "curved gap: touch.rate = (B - A).(vB - vA)/|B - A| (worst %.1e)"
          % worst(pairs))
    check(min(p[0] for p in pairs) < -0.1 and max(p[0] for p in pairs) > 0.1,
          "the discs approach and part")
    with open(os.path.join(ROOT, "models", "vibrating_table.nsm")) as f:
        text = f.read()
    text = text.replace("output every 1 ms: B.x, B.v, floor.gap, floor.force, energy.error",
                        "output every 1 ms: B.x, B.v, floor.gap, floor.rate")
    exe = build(args, "table_outputs.nsm", work, text)
    names, units, s, ev = run(exe, work)
    amp, om = 0.01, 40.0
    eg = worst((r["floor.gap"], r["B.x"] - amp * math.sin(om * r["t"])) for r in s)
    er = worst((r["floor.rate"], r["B.v"] - amp * om * math.cos(om * r["t"])) for r in s)
    check(eg < 1e-10, "moving surface: floor.gap = B.x - amp sin(omega t) (worst %.1e)" % eg)
    check(er < 1e-10, "moving surface: floor.rate = B.v - amp omega cos(omega t) (worst %.1e)"
          % er)


def case_setunits(args, work):
    exe = build(args, os.path.join(HERE, "two_mass_outputs.nsm"), work)
    good, bad = os.path.join(work, "u.set"), os.path.join(work, "bad.set")
    with open(good, "w") as f:
        f.write("# units as in the language\nk1 = 4 kN/m   # stiffer\nc1 = 2000 g/s\ne = 0.5\n")
    with open(bad, "w") as f:
        f.write("e = 0.5\nk1 = 4 kg\n")
    outs = []
    for extra in (["--set-file", good], ["--set", "k1=4000", "--set", "c1=2", "--set", "e=0.5"]):
        traj = os.path.join(work, "traj.csv")
        p = subprocess.run([exe, "--events", "-", "--out", traj] + extra, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        with open(traj) as f:
            outs.append((p.returncode, p.stdout, f.read()))
    check(outs[0][0] == 0 and outs[0] == outs[1],
          "a set file with units gives the run of --set in SI, byte for byte")
    p = subprocess.run([exe, "--set-file", bad], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    check(p.returncode == 1 and "bad.set:2:" in p.stderr and "not a unit of N/m" in p.stderr,
          "a unit of another dimension is refused at FILE:LINE: " + p.stderr.strip())
    p = subprocess.run([args.nsmc, "run", os.path.join(HERE, "two_mass_outputs.nsm"),
                        "--set-file", good, "--out-dir", os.path.join(work, "run"), "--no-plot"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       env=dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "cache")))
    check(p.returncode == 0, "nsmc run --set-file with units: " + p.stderr.strip()[-300:])


def case_h5(args, work):
    try:
        import h5py
        import numpy as np
    except ImportError:
        print("h5py is not installed: skipped")
        sys.exit(77)
    exe = build(args, os.path.join(HERE, "two_mass_outputs.nsm"), work)
    names, units, s, ev = run(exe, work)
    h5 = os.path.join(work, "out.h5")
    p = subprocess.run([exe, "--out", h5], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if p.returncode != 0 and "HDF5" in p.stderr:
        print("built without HDF5: skipped")
        sys.exit(77)
    check(p.returncode == 0, "the simulator writes HDF5")
    with h5py.File(h5, "r") as f:
        text = lambda v: v.decode() if isinstance(v, bytes) else str(v)
        if args.nsm_version:
            check(text(f.attrs.get("nsm_version", "")) == args.nsm_version,
                  "root attribute nsm_version = %s" % args.nsm_version)
        check(text(f.attrs.get("hdf5_version", "")) == h5py.version.hdf5_version,
              "root attribute hdf5_version = %s" % h5py.version.hdf5_version)
        tr = f["trajectory"]
        cols = [c.decode() if isinstance(c, bytes) else c for c in tr.attrs["columns"]]
        us = [u.decode() if isinstance(u, bytes) else u for u in tr.attrs["units"]]
        data = tr[()]
    for name in ("S1.force", "d", "M2.x - M1.x", "p1", "springs"):
        check(name in cols, "HDF5 column %s" % name)
        if name not in cols:
            continue
        k = cols.index(name)
        check(us[k] == units[name], "HDF5 unit of %s: %s" % (name, us[k]))
        csvv = np.array([r[name] for r in s])
        check(np.allclose(data[:, k], csvv, rtol=1e-11, atol=1e-14),
              "HDF5 values of %s equal the CSV's" % name)


DP = dict(m=1.0, R=0.1, L=0.5, e=0.8, kt=0.02, T0=0.5, v0=2.0, w0=30.0)


def disc_flight(t):
    """x(t), vx(t) of disc_points' disc: from x = 0 at v0, rebounds with -e v
    at x = +-(L - R); and the impact times up to t."""
    p = DP
    lim = p["L"] - p["R"]
    x, v, t0, hits = 0.0, p["v0"], 0.0, []
    while True:
        th = t0 + ((lim if v > 0 else -lim) - x) / v
        if th > t:
            return x + v * (t - t0), v, hits
        hits.append(th)
        x, v, t0 = (lim if v > 0 else -lim), -p["e"] * v, th


def case_points(args, work):
    exe = build(args, os.path.join(HERE, "disc_points.nsm"), work)
    names, units, s, ev = run(exe, work)
    p = DP
    _, _, hits = disc_flight(2.0)
    got = [float(e["t"]) for e in ev if e["kind"] == "impact"]
    check(len(got) == len(hits) and all(abs(a - b) < 1e-12 for a, b in zip(got, hits)),
          "the impacts at the closed form's times %s" % ["%.6f" % h for h in hits])
    wn = math.sqrt(p["kt"] / (0.4 * p["m"] * p["R"] ** 2))
    R = p["R"]
    pairs = {k: [] for k in ("left.x", "left.y", "left.vx", "left.vy", "right.x", "right.vy",
                             "floor.x", "floor.y", "floor.vx", "floor.vy")}
    n = 0
    for r in s:
        t = r["t"]
        if any(abs(t - h) < 1e-6 for h in hits):
            continue
        x, v, _ = disc_flight(t)
        w = p["w0"] * math.cos(wn * t)
        ref = {"left.x": x - R, "left.y": 0.0, "left.vx": v, "left.vy": -w * R,
               "right.x": x + R, "right.vy": w * R, "floor.x": x, "floor.y": -R,
               "floor.vx": v + w * R, "floor.vy": 0.0}
        for k in pairs:
            pairs[k].append((r[k], ref[k]))
        n += 1
    for k, pr in pairs.items():
        e = worst(pr)
        check(n > 150 and e < 1e-9, "%s = its closed form at %d samples (worst %.1e)" % (k, n, e))
    check(all(units[k] == ("m/s" if ".v" in k else "m") for k in pairs),
          "contact points in m, their velocities in m/s")


def case_torque(args, work):
    exe = build(args, os.path.join(HERE, "disc_points.nsm"), work)
    names, units, s, ev = run(exe, work)
    p = DP
    wn = math.sqrt(p["kt"] / (0.4 * p["m"] * p["R"] ** 2))
    phi = lambda t: p["w0"] / wn * math.sin(wn * t)
    e1 = worst((r["S.force"], p["kt"] * phi(r["t"])) for r in s)
    e2 = worst((r["twice"], 2 * p["kt"] * phi(r["t"])) for r in s)
    check(e1 < 1e-9 and e2 < 1e-9, "S.force = kt phi and twice = 2 kt phi, phi = w0/wn sin(wn t) "
          "(worst %.1e, %.1e N*m)" % (e1, e2))
    check(all(r["held"] == p["T0"] / 2 for r in s), "held = T0/2")
    check(units["S.force"] == "N*m" and units["twice"] == "N*m" and units["held"] == "N*m",
          "torques labelled N*m: S.force [%s], twice [%s], held [%s]"
          % (units["S.force"], units["twice"], units["held"]))
    check(units["kin"] == "J", "m*D.vx^2/2 labelled J: [%s]" % units["kin"])


def case_ifsample(args, work):
    model = os.path.join(HERE, "two_mass_outputs.nsm")
    text = open(model).read()
    plain = build(args, model, work)
    _, _, _, ev0 = run(plain, work)
    text = text.replace("C.rate\n", "C.rate,\n    early = if t <= 0.5 s then 1 else 0\n")
    exe = build(args, "two_mass_if.nsm", work, text)
    names, units, s, ev = run(exe, work)
    check("early" in names, "the column early = if t <= 0.5 s then 1 else 0")
    at = [r for r in s if r["t"] == 0.5]
    check(len(at) == 1 and at[0]["early"] == 1.0, "the sample at exactly t = 0.5 s has t <= 0.5: 1")
    bad = [r["t"] for r in s if r["early"] != (1.0 if r["t"] <= 0.5 else 0.0)]
    check(not bad, "early = (t <= 0.5) at every sample's own time (wrong at %s)" % bad[:5])
    check(ev == ev0, "the column adds no time switch: the same events as without it")


def case_h5section(args, work):
    import h5py
    import numpy as np
    exe = build(args, os.path.join(ROOT, "models", "forced_impact_oscillator.nsm"), work)
    sec, h5 = os.path.join(work, "map.csv"), os.path.join(work, "fio.h5")
    p = subprocess.run([exe, "--set", "omega=2.5", "--section", "impact:stop", "--section-period",
                        "2*pi/omega", "--section-out", sec, "--out", h5, "--events", os.devnull],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    check(p.returncode == 0, "the simulator writes the section to CSV and HDF5: " + p.stderr[-300:])
    with open(sec) as f:
        head = f.readline().strip().split(",")
    rows = np.loadtxt(sec, delimiter=",", skiprows=1)
    with h5py.File(h5, "r") as f:
        d = f["section"]
        data = d[()]
        text = lambda v: v.decode() if isinstance(v, bytes) else str(v)
        cols = [text(c) for c in d.attrs["columns"]]
        units = [text(u) for u in d.attrs["units"]]
        spec = text(d.attrs["spec"])
    check(len(rows) > 100 and data.shape == rows.shape and np.array_equal(data, rows),
          "/section holds the CSV's %d records exactly" % len(rows))
    want = [c + (" [%s]" % u if u else "") for c, u in zip(cols, units)]
    check(want == head, "its columns and units are the CSV's header: %s" % want)
    check(spec == "impact:stop", "its spec attribute is the --section given")


def main():
    ap = sim_parser()
    ap.add_argument("--nsm-version", default="")
    ap.add_argument("--case", required=True,
                    choices=["spring", "expr", "friction", "coulomb", "rate", "setunits", "h5",
                             "points", "torque", "ifsample", "h5section"])
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as work:
        globals()["case_" + args.case](args, work)
    if FAILS:
        print("%d check(s) failed" % len(FAILS))
        sys.exit(1)


if __name__ == "__main__":
    main()
