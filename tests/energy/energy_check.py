#!/usr/bin/env python3
"""Checks of the runtime's energy audit and per-contact statistics.

    energy_check.py CHECK SIM [options]

Each CHECK runs the simulator SIM (its command line is printed), reads its
--summary table, its --stats CSV and, where needed, its event log, and
compares them with closed forms or with quantities recomputed here
independently of the runtime:

  balance    --method exact (or the method given): no line of the audit
             reads nan; the largest balance error over every step is
             under 1e-10 of the largest energy; the dampers' shares add up
             to the dissipated energy, the bodies' shares and the force
             statements' shares each to the injected work, the kinds of
             potential to the potential.
  aster      SDND121 with rk4 at 4e-6 s: code_aster's global energy error
             under 0.1 % and force/kinematics error under 1e-8 %, and the
             energy error equal to the one recomputed here from the
             trajectory at every step (code_aster's formulas, seed 000);
             contact phases and total contact time from the reference's
             entry and exit times.
  e1         the ball with e = 1: 1000 impacts lose nothing; impulse, speed
             and final energy from the closed form.
  plastic    every plastic impact loses m1 m2/(2 (m1 + m2)) w^2 (w the
             logged closing velocity): the contact's energy lost, impulse and
             the audit's loss equal the sums of the closed forms.
  ball       bouncing ball e = 0.9: impact count, total impulse
             sum m (1 + e) e^k sqrt(2 g h), energy lost, largest speed.
  zeno       ball coming to rest: one Zeno jump and one stick phase from
             t* = t1 (1 + e)/(1 - e), peak force m g, all of m g h lost.
  split      two-mass case C before its first impact: each mass is a damped
             oscillator of its own, so each damper burns exactly its mass's
             loss of energy, D_i = E_i(0) - E_i(t), E_i = m v^2/2 + k x^2/2.
  work       two forced oscillators side by side (tests/energy/models/
             two_forced): the work done on each body is its own change of
             energy, W_i = E_i(t) - E_i(0).
  force_work three forces on two free masses (tests/energy/models/
             force_work): the work of each force statement is the closed-form
             integral of f_k(t) v(t), v from the total force; the forces'
             shares add up to the injected work.
  state_work a cubic force of the state beside a driven mass
             (tests/energy/models/state_work): the cubic statement's work
             is -alpha (x^4 - x0^4)/4 (its potential's closed form), the
             statements' shares add up to the injected work, and
             code_aster's global energy error counts the state's forces
             (under 0.1 % at rk4 1 ms; it read 40 % when only forces of
             the time entered its sums).
  lag_kinetic the double pendulum (models/double_pendulum, M(q) dense):
             the kinetic energy line is 1/2 v^T M(q) v of the final state
             written by hand, and no per-coordinate share is printed (none
             exists: M(q) couples the coordinates).
  gyro       the torque-free symmetric top (models/free_top): the
             gyroscopic torques -w x I w are listed apart from the injected
             work, their work on B.w1 and B.w2 is the change of 1/2 I1 w_i^2
             by Euler's closed form (w1 + i w2 turning at Omega =
             (I3 - I1) w3 / I1), zero on B.w3 and in total, and nothing is
             injected on any coordinate.
  cli        the simulator's --stats and --summary options: CSV header with
             units on a clean stdout, refusals, --help, the stderr line.
  penalty    mass against a penalty wall (tests/energy/models/penalty_wall):
             contact time pi/wd, impulse m (v_in + v_out), peak force, entry
             speed, damper energies, the force/kinematics error (the
             damper's c p' against k p), from the damped-oscillator closed
             form.
  penalty_coarse  the same wall by exact on steps of 2 ms: the impulse
             (the penalty law's integral over a step, whose h^2 term
             matters there) and the contact time.
  penalty_start  the same wall engaged from t = 0 (d = -1 mm: no entry
             event): one contact phase, lasting until the damped
             oscillation from p0 = 1 mm, p0' = v0 returns to p = 0.

Only the standard library is used.  Exit status 0 when every check passes.
"""
import csv
import io
import math
import os
import re
import subprocess
import sys
import tempfile

FAILS = []


def check(ok, what):
    """Record and print one comparison."""
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        FAILS.append(what)


def close(got, want, rtol, what, atol=0.0):
    """got equals want to rtol relative (or atol absolute)."""
    err = abs(got - want)
    ok = err <= rtol * abs(want) + atol and math.isfinite(got)
    check(ok, "%s: %.17g vs %.17g (error %.3g, tolerance %.3g relative%s)" %
          (what, got, want, err, rtol, ", %.3g absolute" % atol if atol else ""))


def run(sim, args, workdir):
    """Run the simulator with --summary, --stats and --events into workdir;
    returns (summary dict, label list, stats rows, event rows, stdout)."""
    st = os.path.join(workdir, "stats.csv")
    ev = os.path.join(workdir, "events.csv")
    cmd = [sim] + args + ["--summary", "--stats", st, "--events", ev]
    if "--out" not in args:
        cmd += ["--out", os.devnull]
    print("run: " + " ".join(cmd))
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    sys.stderr.write(r.stderr)
    if r.returncode != 0:
        check(False, "simulator exit status %d" % r.returncode)
        return None
    audit, order = parse_summary(r.stdout)
    with open(st) as f:
        stats = list(csv.DictReader(f))
    with open(ev) as f:
        events = list(csv.DictReader(f))
    return audit, order, stats, events, r.stdout


def parse_summary(text):
    """The audit lines of --summary ("  %-36s %16.9g unit"): label -> value,
    an indented label keeping its parent ('dissipated/damper D'); also the
    labels in order."""
    audit, order, parent = {}, [], None
    part = text.split("energy audit at", 1)[1].split("\n\n", 1)[0]
    for line in part.splitlines()[1:]:
        raw, val = line[2:38], line[38:55].strip()
        label = raw.strip()
        if not label or not val:
            continue
        if raw.startswith(" "):
            label = parent + "/" + label
        else:
            parent = label
        audit[label] = float(val)
        order.append(label)
    return audit, order


def stat(rows, contact, col):
    """Column col of the stats row of a contact, as a number."""
    for r in rows:
        if r["contact"] == contact:
            for k in r:
                if k == col or k.startswith(col + " "):
                    return float(r[k])
    raise KeyError("%s.%s" % (contact, col))


def do_balance(sim, extra, wd):
    res = run(sim, ([] if "--method" in extra else ["--method", "exact"]) + extra, wd)
    if not res:
        return
    a, order, _, _, _ = res
    # a line without a value is left out (code_aster's force metric without
    # a penalty force), never printed as nan
    undefined = [k for k in order if math.isnan(a[k])]
    check(not undefined, "every line of --summary has a value (nan: %s)" % ", ".join(undefined))
    rel = a.get("largest balance error/relative to the largest energy")
    check(rel is not None and rel < 1e-10,
          "largest balance error over every step %s of the largest energy, under 1e-10" % rel)
    scale = max(abs(a["kinetic"]), abs(a["potential"]), abs(a["injected"]), abs(a["dissipated"]),
                abs(a["lost in impacts and sticks"]), abs(a["initial (kinetic + potential)"]))
    # the balance from the printed terms (9 digits)
    bal = a["kinetic"] + a["potential"] - a["injected"] + a["dissipated"] + \
        a["lost in impacts and sticks"] - a["initial (kinetic + potential)"]
    close(bal, 0.0, 0, "T + V - W + D + L - E0 from the printed terms", atol=1e-8 * scale + 1e-300)
    parts = [k for k in order if k.startswith("dissipated/")]
    if parts:
        close(sum(a[k] for k in parts), a["dissipated"], 1e-8, "dampers' shares add up to D",
              atol=1e-9 * scale)
    # the moving surfaces of friction elements do work besides the forces
    surf = [k for k in order if k.startswith("injected/surface of ")]
    parts = [k for k in order if k.startswith("injected/on ") or k == "injected/other"]
    if parts:
        close(sum(a[k] for k in parts + surf), a["injected"], 1e-8,
              "bodies' and surfaces' shares add up to W", atol=1e-9 * scale)
    parts = [k for k in order if k.startswith("injected/by ") or k == "injected/other (forces)"]
    if parts:
        parts += surf
        close(sum(a[k] for k in parts), a["injected"], 1e-8, "forces' shares add up to W",
              atol=1e-9 * scale)
    kinds = sum(a[k] for k in order if k.startswith("potential/"))
    close(kinds, a["potential"], 1e-8, "kinds of potential add up to V", atol=1e-9 * scale)


def do_aster(sim, extra, wd):
    traj = os.path.join(wd, "traj.csv")
    res = run(sim, ["--method", "rk4", "--dt", "4e-6", "--every", "0", "--out", traj] + extra, wd)
    if not res:
        return
    a, _, stats, _, _ = res
    ee, fe = a["code_aster global energy error"], a["code_aster force/kinematics error"]
    check(0 < ee < 0.1, "code_aster global energy error %.6g %% under 0.1 %%" % ee)
    check(0 <= fe < 1e-8, "code_aster force/kinematics error %.6g %% under 1e-8 %%" % fe)
    close(stat(stats, "stop", "aster_force_error"), fe, 1e-5, "--stats force error = --summary's")
    close(stat(stats, "stop", "aster_energy_error"), ee, 1e-5, "--stats energy error = --summary's")
    # code_aster's energy error recomputed from the trajectory at every step
    m, k, kc, jeu, F0, f = 156.0, 2e6, 1e10, 1e-3, 3000.0, 5.0
    inj = num = den = 0.0
    prev = None
    with open(traj) as fh:
        rd = csv.reader(fh)
        head = next(rd)
        ix = [h.split(" ")[0] for h in head].index("M.x")
        iv = [h.split(" ")[0] for h in head].index("M.v")
        for row in rd:
            t, x, v = float(row[0]), float(row[ix]), float(row[iv])
            if prev is not None and t > prev:
                inj += F0 * math.sin(2 * math.pi * f * t) * v * (t - prev)
            prev = t
            p = max(x - jeu, 0.0)
            et = 0.5 * m * v * v + 0.5 * k * x * x + 0.5 * kc * p * p
            num += (et - inj) ** 2
            den += inj * inj
    mine = 100 * math.sqrt(num / den)
    close(ee, mine, 1e-3, "runtime's energy error vs recomputed from the trajectory")
    # contact phases and time against the reference's entry and exit times
    # (closed-form piecewise solution, tests/reference/data)
    ref = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                       "reference", "data", "sdnd121.events.csv")
    with open(ref) as fh:
        rows = list(csv.DictReader(fh))
    enters = [float(r["t"]) for r in rows if r["kind"] == "contact_enter"]
    exits = [float(r["t"]) for r in rows if r["kind"] == "contact_exit"]
    check(stat(stats, "stop", "phases") == len(enters) == len(exits),
          "%d contact phases as in the reference" % len(enters))
    close(stat(stats, "stop", "contact_time"), sum(exits) - sum(enters), 0,
          "contact time = sum of the reference's exit - entry times", atol=1e-8)


def do_e1(sim, extra, wd):
    m, g, h, n = 1.0, 9.81, 1.0, 1000
    t1 = math.sqrt(2 * h / g)
    t_end = t1 + (n - 0.5) * 2 * t1          # the 1000th impact, then half a flight
    res = run(sim, ["--set", "e=1", "--t-end", repr(t_end)] + extra, wd)
    if not res:
        return
    a, _, stats, events, _ = res
    v0 = math.sqrt(2 * g * h)
    check(stat(stats, "floor", "impacts") == n, "%d impacts" % n)
    check(sum(1 for e in events if e["kind"] == "impact") == n, "%d impact rows in the log" % n)
    close(stat(stats, "floor", "energy_lost"), 0.0, 0, "energy lost over %d impacts" % n,
          atol=1e-12 * m * g * h)
    close(a["lost in impacts and sticks"], 0.0, 0, "audit: lost in impacts", atol=1e-12 * m * g * h)
    close(a["kinetic"] + a["potential"], m * g * h, 1e-9, "T + V at the end = m g h")
    close(stat(stats, "floor", "impulse"), n * 2 * m * v0, 1e-9, "impulse = n 2 m sqrt(2 g h)")
    close(stat(stats, "floor", "max_speed"), v0, 1e-9, "largest impact speed sqrt(2 g h)")


def do_plastic(sim, extra, wd):
    res = run(sim, extra, wd)
    if not res:
        return
    a, _, stats, events, _ = res
    m1 = m2 = 5.0
    mu = m1 * m2 / (m1 + m2)
    imp = [e for e in events if e["kind"] == "impact" and e["contact"] == "C"]
    check(len(imp) >= 2, "%d plastic impacts" % len(imp))
    lost = sum(0.5 * mu * float(e["vrel_before"]) ** 2 for e in imp)
    impulse = sum(mu * abs(float(e["vrel_before"])) for e in imp)
    close(stat(stats, "C", "energy_lost"), lost, 1e-10, "contact's loss = sum m1 m2/(2 (m1 + m2)) w^2")
    close(a["lost in impacts and sticks"], lost, 1e-8, "audit's loss = the same sum")
    close(stat(stats, "C", "impulse"), impulse, 1e-10, "impulse = sum m1 m2/(m1 + m2) |w|")
    check(stat(stats, "C", "impacts") == len(imp), "impact count = impact rows")
    check(stat(stats, "C", "phases") == sum(1 for e in events if e["kind"] == "stick"),
          "stick phases = stick rows")


def do_ball(sim, extra, wd):
    m, g, h, e, t_end = 1.0, 9.81, 1.0, 0.9, 5.0
    res = run(sim, ["--t-end", repr(t_end)] + extra, wd)
    if not res:
        return
    a, _, stats, events, _ = res
    t1, v0 = math.sqrt(2 * h / g), math.sqrt(2 * g * h)
    n, t = 0, t1
    while t <= t_end:
        n += 1
        t += 2 * t1 * e ** n
    rows = sum(1 for ev in events if ev["kind"] == "impact")
    check(stat(stats, "floor", "impacts") == rows, "impact count = impact rows (%d)" % rows)
    check(rows == n, "%d impacts before t = %g s (closed form %d)" % (rows, t_end, n))
    close(stat(stats, "floor", "impulse"), sum(m * (1 + e) * e ** k * v0 for k in range(n)), 1e-9,
          "impulse = sum m (1 + e) e^k sqrt(2 g h)")
    close(stat(stats, "floor", "energy_lost"),
          sum(0.5 * m * (1 - e * e) * (e ** k * v0) ** 2 for k in range(n)), 1e-9,
          "energy lost = sum (1 - e^2) m v_k^2 / 2")
    close(stat(stats, "floor", "max_speed"), v0, 1e-9, "largest impact speed sqrt(2 g h)")
    check(stat(stats, "floor", "phases") == 0 and stat(stats, "floor", "contact_time") == 0,
          "no stick phase")


def do_zeno(sim, extra, wd):
    m, g, h, e, t_end = 1.0, 9.81, 1.0, 0.5, 3.0
    res = run(sim, ["--t-end", repr(t_end)] + extra, wd)
    if not res:
        return
    a, _, stats, _, _ = res
    tstar = math.sqrt(2 * h / g) * (1 + e) / (1 - e)
    check(stat(stats, "floor", "zeno") == 1, "one Zeno jump")
    check(stat(stats, "floor", "phases") == 1, "one stick phase")
    close(stat(stats, "floor", "contact_time"), t_end - tstar, 1e-9, "stuck time t_end - t*")
    close(stat(stats, "floor", "peak_force"), m * g, 1e-9, "peak force while stuck m g")
    close(stat(stats, "floor", "energy_lost"), m * g * h, 1e-9, "all of m g h lost")
    close(a["lost in impacts and sticks"], m * g * h, 1e-8, "audit: all of m g h lost")


def do_penalty(sim, extra, wd, cs):
    m, k, c, v0, d = 2.0, 2e4, 20.0, 1.5, 0.1
    res = run(sim, ["--dt", "1e-6", "--set", "cs=%r" % cs] + extra, wd)
    if not res:
        return
    a, _, stats, _, _ = res
    vin = v0 - cs * d / m                     # the ground damper in flight: dv/dx = -cs/m
    al = (c + cs) / (2 * m)
    wd_ = math.sqrt(k / m - al * al)
    T = math.pi / wd_
    vout = vin * math.exp(-al * T)
    # peak of k p + c p' on a fine grid refined by golden sections
    def force(s):
        p = vin / wd_ * math.exp(-al * s) * math.sin(wd_ * s)
        pd = vin * math.exp(-al * s) * (math.cos(wd_ * s) - al / wd_ * math.sin(wd_ * s))
        return k * p + c * pd
    grid = [T * i / 2000 for i in range(2001)]
    s0 = max(grid, key=force)
    lo, hi = max(0.0, s0 - T / 2000), min(T, s0 + T / 2000)
    for _ in range(100):
        a1, b1 = hi - 0.618 * (hi - lo), lo + 0.618 * (hi - lo)
        if force(a1) > force(b1):
            hi = b1
        else:
            lo = a1
    peak = force(0.5 * (lo + hi))
    dissip = 0.5 * m * (vin * vin - vout * vout)
    check(stat(stats, "wall", "phases") == 1, "one contact phase")
    close(stat(stats, "wall", "contact_time"), T, 1e-9, "contact time pi/wd")
    close(stat(stats, "wall", "impulse"), m * (vin + vout), 1e-9, "impulse m (v_in + v_out)")
    close(stat(stats, "wall", "max_speed"), vin, 1e-9, "entry speed")
    close(stat(stats, "wall", "peak_force"), peak, 1e-6, "peak force at the step ends")
    close(stat(stats, "wall", "damper_energy"), dissip * c / (c + cs), 1e-8,
          "contact damper's energy c/(c + cs) of m (v_in^2 - v_out^2)/2")
    # code_aster's force/kinematics error: at every step end in contact the
    # force k p + c p' against the spring's k p of the penetration alone, so
    # the residual is the damper's c p'; summed over the uniform steps of
    # dt its ratio is that of the integrals of (c p')^2 and (k p)^2 over
    # the contact (the ends' share is dt/T), and since p = 0 at both ends,
    # integral (m p'^2 - k p^2) = -integral p (m p'' + k p) = integral
    # (c + cs) p p' = 0: the ratio is c / sqrt(k m)
    resid = 100 * c / math.sqrt(k * m)
    close(a["code_aster force/kinematics error"], resid, 1e-4,
          "force/kinematics error [%]: the damper's c p' against k p")
    close(stat(stats, "wall", "aster_force_error"), resid, 1e-4,
          "the wall's force/kinematics error [%] in --stats")
    if cs > 0:
        # flight in (v falls linearly with x), contact share, flight out to
        # t_end (v decays as exp(-cs t/m) from v_out)
        t_in = -(m / cs) * math.log(1 - cs * d / (m * v0))
        t_out = t_in + T
        t_end = 0.2
        ground = 0.5 * m * (v0 * v0 - vin * vin) + dissip * cs / (c + cs) + \
            0.5 * m * vout * vout * (1 - math.exp(-2 * cs * (t_end - t_out) / m))
        close(a["dissipated/damper D"], ground, 1e-8, "ground damper's energy over the run")


def do_penalty_coarse(sim, extra, wd):
    """The penalty wall's impulse on steps of 2 ms (w h = 0.2): the law's
    integral of k p over a step is exact on the cubic Hermite interpolant of
    p, whose h^2 (p'0 - p'1) / 12 term is 3e-3 of the impulse here; what
    is left is the interpolant's O((w h)^4) error."""
    m, k, c, v0 = 2.0, 2e4, 20.0, 1.5
    res = run(sim, ["--method", "exact", "--dt", "2e-3"] + extra, wd)
    if not res:
        return
    _, _, stats, _, _ = res
    al = c / (2 * m)
    wd_ = math.sqrt(k / m - al * al)
    vout = v0 * math.exp(-al * math.pi / wd_)
    check(stat(stats, "wall", "phases") == 1, "one contact phase")
    close(stat(stats, "wall", "contact_time"), math.pi / wd_, 1e-9, "contact time pi/wd")
    close(stat(stats, "wall", "impulse"), m * (v0 + vout), 2e-5,
          "impulse m (v_in + v_out) on steps of 2 ms")


def do_penalty_start(sim, extra, wd):
    """The penalty wall engaged from the start: d = -1 mm puts the mass
    1 mm inside at t = 0, moving in at v0, with no entry event, so that
    its contact phase opens with the run's first step.  The penetration
    p(s) = exp(-a s) (p0 cos wd s + (v0 + a p0)/wd sin wd s) is back at 0
    at wd s = pi - atan(p0 wd / (v0 + a p0))."""
    m, k, c, v0, p0 = 2.0, 2e4, 20.0, 1.5, 1e-3
    res = run(sim, ["--set", "d=%r" % -p0] + extra, wd)
    if not res:
        return
    _, _, stats, _, _ = res
    al = c / (2 * m)
    wd_ = math.sqrt(k / m - al * al)
    t_out = (math.pi - math.atan(p0 * wd_ / (v0 + al * p0))) / wd_
    check(stat(stats, "wall", "phases") == 1, "one contact phase, open from t = 0")
    close(stat(stats, "wall", "contact_time"), t_out, 1e-9,
          "contact time from t = 0 to the release at p = 0")


def do_split(sim, extra, wd):
    traj = os.path.join(wd, "traj.csv")
    t_end = 3.5                               # the first impact is at 3.57 s
    res = run(sim, ["--t-end", repr(t_end), "--every", repr(t_end), "--out", traj] + extra, wd)
    if not res:
        return
    a, _, stats, events, _ = res
    check(not events, "no event before t = %g s" % t_end)
    with open(traj) as fh:
        rows = list(csv.DictReader(fh))
    last = rows[-1]
    col = lambda name: float(next(v for k, v in last.items() if k.split(" ")[0] == name))
    check(abs(float(last[next(iter(last))]) - t_end) < 1e-12, "last sample at t_end")
    m1, m2, k1, k2 = 5.0, 5.0, 2.0, 1.0
    e1 = 0.5 * m1 * col("M1.v") ** 2 + 0.5 * k1 * col("M1.x") ** 2
    e2 = 0.5 * m2 * col("M2.v") ** 2 + 0.5 * k2 * col("M2.x") ** 2
    close(a["dissipated/damper S1"], 0.5 * k1 * 1.0 - e1, 1e-8, "damper S1 = E1(0) - E1(t)")
    close(a["dissipated/damper S2"], 0.5 * k2 * 4.0 - e2, 1e-8, "damper S2 = E2(0) - E2(t)")


def last_row(path):
    """The last row of a trajectory CSV: column name (without unit) -> value."""
    with open(path) as fh:
        rows = list(csv.DictReader(fh))
    return {k.split(" ")[0]: float(v) for k, v in rows[-1].items()}


def do_work(sim, extra, wd):
    traj = os.path.join(wd, "traj.csv")
    res = run(sim, ["--out", traj] + extra, wd)
    if not res:
        return
    a, _, _, _, _ = res
    r = last_row(traj)
    check(abs(r["t"] - 3) < 1e-12, "last sample at t = 3 s")
    ea = 0.5 * 2 * r["A.v"] ** 2 + 0.5 * 50 * r["A.x"] ** 2 - 0.5 * 50 * 0.1 ** 2
    eb = 0.5 * 3 * r["B.v"] ** 2 + 0.5 * 20 * r["B.x"] ** 2 - (0.5 * 20 * 100 + 0.5 * 3 * 0.25)
    close(a["injected/on A"], ea, 1e-7, "work on A = E_A(t) - E_A(0)", atol=1e-9)
    close(a["injected/on B"], eb, 1e-7, "work on B = E_B(t) - E_B(0)", atol=1e-9)


def do_force_work(sim, extra, wd):
    res = run(sim, extra, wd)
    if not res:
        return
    a, _, _, _, _ = res
    # A (2 kg, v0 = 0.5 m/s): push = 3 N and shake = 5 N sin(4 t), so
    # v_A(t) = v0 + (3 t + 5 (1 - cos 4t)/4) / 2; B (0.5 kg, v0 = -1 m/s):
    # 1.5 N while t <= 1.25 s.  W_k = integral over [0, 2 s] of f_k v.
    m, F0, F1, w, v0, T = 2.0, 3.0, 5.0, 4.0, 0.5, 2.0
    s, c = math.sin(w * T), math.cos(w * T)
    w_push = F0 * (v0 * T + (F0 * T * T / 2 + F1 * (T - s / w) / w) / m)
    w_shake = F1 * (v0 * (1 - c) / w + (F0 * (s - w * T * c) / w ** 2 +
                                        F1 / w * ((1 - c) / w - s * s / (2 * w))) / m)
    w_b = 1.5 * (-1.0 * 1.25 + 1.5 * 1.25 ** 2 / (2 * 0.5))
    close(a["injected/by push"], w_push, 1e-7, "work of push = closed form")
    close(a["injected/by shake"], w_shake, 1e-7, "work of shake = closed form")
    close(a["injected/by force on B"], w_b, 1e-7, "work of the unnamed force on B = closed form")
    close(a["injected/on A"], w_push + w_shake, 1e-7, "work on A = push + shake")
    close(w_push + w_shake + w_b, a["injected"], 1e-7, "closed forms add up to the injected work")
    close(a["injected/by push"] + a["injected/by shake"] + a["injected/by force on B"],
          a["injected"], 1e-8, "forces' shares add up to the injected work", atol=1e-8)
    check("injected/other (forces)" not in a, "no work left to other forces")


def do_state_work(sim, extra, wd):
    traj = os.path.join(wd, "traj.csv")
    res = run(sim, ["--out", traj] + extra, wd)
    if not res:
        return
    a, _, _, _, _ = res
    r = last_row(traj)
    alpha, x0 = 2.0, 1.0
    w = -alpha * (r["M.x"] ** 4 - x0 ** 4) / 4
    close(a["injected/by cubic"], w, 1e-7, "work of the cubic force = -alpha (x^4 - x0^4)/4")
    close(a["injected/on M"], w, 1e-7, "work on M = the cubic force's")
    close(a["injected/by cubic"] + a["injected/by drive"], a["injected"], 1e-8,
          "the statements' shares add up to the injected work", atol=1e-8)
    check(a["code_aster global energy error"] < 0.1,
          "code_aster's global energy error counts the state's forces: %.3g %% < 0.1 %%"
          % a["code_aster global energy error"])


def do_lag_kinetic(sim, extra, wd):
    traj = os.path.join(wd, "traj.csv")
    res = run(sim, ["--out", traj] + extra, wd)
    if not res:
        return
    a, order, _, _, _ = res
    r = last_row(traj)
    m1, m2, l1, l2 = 1.0, 0.7, 0.5, 0.3
    p1, p2, w1, w2 = r["a.phi"], r["b.phi"], r["a.omega"], r["b.omega"]
    t = (0.5 * (m1 + m2) * l1 ** 2 * w1 ** 2 + m2 * l1 * l2 * math.cos(p1 - p2) * w1 * w2 +
         0.5 * m2 * l2 ** 2 * w2 ** 2)
    close(a["kinetic"], t, 1e-8, "kinetic = 1/2 v^T M(q) v of the final state")
    shares = [k for k in order if k.startswith("kinetic/")]
    check(not shares, "no per-coordinate kinetic share (M(q) couples them): %s" % shares)


def do_gyro(sim, extra, wd):
    res = run(sim, ["--out", os.devnull] + extra, wd)
    if not res:
        return
    a, order, _, _, _ = res
    i1, i3, w10, w20, w3, t_end = 0.3, 0.5, 0.4, -0.25, 3.0, 10.0
    om = (i3 - i1) * w3 / i1
    w1 = w10 * math.cos(om * t_end) - w20 * math.sin(om * t_end)
    w2 = w20 * math.cos(om * t_end) + w10 * math.sin(om * t_end)
    scale = a["kinetic"]
    inj = [k for k in order if k.startswith("injected/")]
    big = [k for k in inj if abs(a[k]) > 1e-12 * scale]
    check(not big, "nothing injected on any coordinate of the torque-free top (%s)" % big)
    g = "gyroscopic torques' work"
    check(g in a, "the gyroscopic torques' work has a line of its own")
    if g not in a:
        return
    close(a[g + "/on B.w1"], 0.5 * i1 * (w1 ** 2 - w10 ** 2), 1e-7,
          "gyroscopic work on B.w1 = 1/2 I1 (w1(T)^2 - w1(0)^2)")
    close(a[g + "/on B.w2"], 0.5 * i1 * (w2 ** 2 - w20 ** 2), 1e-7,
          "gyroscopic work on B.w2 = 1/2 I1 (w2(T)^2 - w2(0)^2)")
    close(a[g + "/on B.w3"], 0.0, 0, "no gyroscopic work on the symmetry axis", atol=1e-12 * scale)
    close(a[g], 0.0, 0, "the gyroscopic torques do no work in total", atol=1e-12 * scale)


def do_cli(sim, extra, wd):
    def go(args):
        r = subprocess.run([sim] + args + extra, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True)
        print("run: %s -> exit %d" % (" ".join([sim] + args + extra), r.returncode))
        return r
    r = go(["--stats", "-", "--t-end", "2"])
    lines = r.stdout.splitlines()
    check(r.returncode == 0 and lines and lines[0].startswith(
        "contact,law,impacts,zeno,phases,contact_time [s],mean_time [s],impulse [N s],"
        "peak_force [N],max_speed [m/s],energy_lost [J],damper_energy [J]"),
        "--stats - writes the CSV header with units first")
    check(len(lines) == 2 and lines[1].startswith("floor,impact,3,"),
          "--stats - alone on stdout: one row, 3 impacts in 2 s")
    check(re.search(r"energy error \S+ J \(\S+ of the largest energy\)", r.stderr) is not None,
          "stderr line gives the balance error relative to the largest energy")
    for bad in (["--stats", "-", "--out", "-"], ["--stats", "-", "--events", "-"],
                ["--stats", os.path.join(wd, "no", "such", "dir.csv")], ["--stats"]):
        r = go(bad)
        check(r.returncode == 1 and "error" in r.stderr and not r.stdout.strip(),
              "refused with exit 1 and nothing on stdout: %s" % " ".join(bad))
    r = go(["--help"])
    check(r.returncode == 0 and "--stats FILE|-" in r.stdout and "--summary" in r.stdout,
          "--help lists --stats and --summary")
    r = go(["--summary", "--t-end", "2", "--events", os.devnull])
    audit = r.stdout.split("energy audit at t = 2 s", 1)
    check(r.returncode == 0 and len(audit) == 2 and "\nfloor        impact         3 " in audit[1],
          "--summary prints the audit and the contact table after the event table")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    what, sim, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
    with tempfile.TemporaryDirectory() as wd:
        if what == "balance":
            do_balance(sim, extra, wd)
        elif what == "aster":
            do_aster(sim, extra, wd)
        elif what == "e1":
            do_e1(sim, extra, wd)
        elif what == "plastic":
            do_plastic(sim, extra, wd)
        elif what == "ball":
            do_ball(sim, extra, wd)
        elif what == "zeno":
            do_zeno(sim, extra, wd)
        elif what == "split":
            do_split(sim, extra, wd)
        elif what == "work":
            do_work(sim, extra, wd)
        elif what == "force_work":
            do_force_work(sim, extra, wd)
        elif what == "cli":
            do_cli(sim, extra, wd)
        elif what == "gyro":
            do_gyro(sim, extra, wd)
        elif what == "state_work":
            do_state_work(sim, extra, wd)
        elif what == "lag_kinetic":
            do_lag_kinetic(sim, extra, wd)
        elif what == "penalty":
            do_penalty(sim, extra, wd, 0.0)
        elif what == "penalty_ground":
            do_penalty(sim, extra, wd, 4.0)
        elif what == "penalty_coarse":
            do_penalty_coarse(sim, extra, wd)
        elif what == "penalty_start":
            do_penalty_start(sim, extra, wd)
        else:
            sys.exit("unknown check '%s'" % what)
    if FAILS:
        print("%d check(s) failed" % len(FAILS))
        sys.exit(1)
    print("all checks passed")


if __name__ == "__main__":
    main()
