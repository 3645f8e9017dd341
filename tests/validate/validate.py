#!/usr/bin/env python3
"""Numeric validation of a generated simulator against an independent reference.

    validate.py --case NAME --sim PATH --method rk4|adaptive|exact [--dt H]
                [--event-tol S] [--pos-tol R] [--energy-tol R] [--aster]
                [--plastic] [--work-tol R] [--json OUT] [--workdir DIR]

The simulator is run once (its command line is printed), then:
- the event log is compared with the reference event list: the same events,
  in the same order, of the same kind, on the same contact (no missed, extra
  or wrongly classified event), with a diff on failure; then every event time
  within --event-tol seconds (relative to t when t > 1 s);
- the positions at the reference sample times are compared, the error being
  relative to the largest magnitude of that position over the reference run;
- with --energy, the energy columns (energy.kinetic, .potential, .dissipated,
  .injected, .error) must close the balance to --energy-tol relative to the
  largest energy magnitude met in the run;
- with --aster, code_aster's SDND121 metrics (seed 000) are computed from the
  trajectory: global energy error and force/kinematics error, in percent;
- with --plastic, each impact of the event log must lose exactly the kinetic
  energy of the relative motion, m1 m2/(2 (m1 + m2)) dv^2;
- with --energy-tol on a case with reference work (a moving surface's, in
  data/<work>.work.csv), the injected and dissipated columns must match it
  at its sample times to --work-tol (default --energy-tol).

The references are the 25-digit files of tests/reference/data (closed-form
piecewise solutions computed with mpmath), or for the edge cases the closed
forms of edge_refs.py.  Only the standard library is used.  The exit status is
0 when every check passes, 1 otherwise; a JSON summary is written with --json
for make_doc.py.
"""
import argparse
import csv
import difflib
import json
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
REF_DIR = os.path.join(ROOT, "tests", "reference", "data")
sys.path.insert(0, HERE)

ENERGY_COLS = ["energy.kinetic", "energy.potential", "energy.dissipated",
               "energy.injected", "energy.error"]

# Each case: the reference file stem (or an edge_refs function), the bodies
# whose positions are compared, renamings from reference names to the
# simulator's (contacts and bodies), parameter overrides, the t = 0 events the
# simulator logs for a contact closed at the start but the reference does not
# list as events, and event kinds only the simulator logs.
CASES = {
    "two_mass_a": dict(ref="two_mass_a", bodies=["M1", "M2"], initial=[("stick", "C")],
                       title="Two masses, case A: start together (Dedow & Murphy)"),
    "two_mass_b": dict(ref="two_mass_b", bodies=["M1", "M2"],
                       title="Two masses, case B: grazing (Dedow & Murphy)"),
    "two_mass_c": dict(ref="two_mass_c", bodies=["M1", "M2"],
                       title="Two masses, case C: plastic impact (Dedow & Murphy)"),
    "sdnd121": dict(ref="sdnd121", bodies=["M"],
                    title="SDND121: forced oscillator against a stiff stop (code_aster)"),
    "sdnd108a_force": dict(ref="sdnd108a_force", bodies=["M"], body_map={"M": "B"},
                           contact_map={"floor": "ground_contact"},
                           title="SDND108 A: elastic ground, release on force"),
    "sdnd108a_gap": dict(ref="sdnd108a_gap", bodies=["M"], body_map={"M": "B"},
                         contact_map={"floor": "ground_contact"},
                         title="SDND108 A: elastic ground, release on gap (code_aster)"),
    "sdnd108b_force": dict(ref="sdnd108b_force", bodies=["M"], body_map={"M": "B"},
                           contact_map={"floor": "ground_contact"},
                           title="SDND108 B: absorbent ground, release on force"),
    "sdnd108b_gap": dict(ref="sdnd108b_gap", bodies=["M"], body_map={"M": "B"},
                         contact_map={"floor": "ground_contact"},
                         title="SDND108 B: absorbent ground, release on gap (code_aster)"),
    "sdld29": dict(ref="sdld29", bodies=["P[4]"], every=0.01,
                   contact_map={"": "switch0"},
                   title="SDLD29: eight-mass chain, no gaps (code_aster)"),
    "sdnd101": dict(ref="sdnd101", bodies=["M"],
                    title="SDND101: stop with zero gap (code_aster)"),
    "zeno_ball": dict(ref="zeno_ball", bodies=["B"], title="Zeno ball, e = 0.5"),
    "bouncing_ball": dict(ref="bouncing_ball", bodies=["B"],
                          title="Bouncing ball, e = 0.9 (Siconos BouncingBallED)"),
    "impacting_oscillator": dict(ref="impacting_oscillator", bodies=["M"],
                                 title="Impacting oscillator (Siconos LinearOscillatorED)"),
    "ball_two_contacts": dict(ref="ball_two_contacts", bodies=["B"],
                              title="Ball between floor and ceiling (Siconos TwoContacts)"),
    "e1_thousand": dict(ref="e1_thousand", bodies=["B"], set=["e=1"],
                        title="Ball with e = 1: 1000 impacts"),
    "coulomb_oscillator": dict(ref="coulomb_oscillator", bodies=["M"],
                               title="Coulomb oscillator x'' + x in -sign(x') (Siconos FrictionOscillator)"),
    "belt_friction": dict(ref="belt_friction", bodies=["M"],
                          title="Mass on a belt: stick-slip limit cycle"),
    "friction_two_mass": dict(ref="friction_two_mass", bodies=["M1", "M2"],
                              title="Forced two-mass oscillator with dry friction"),
    "sliding_block": dict(ref="sliding_block", bodies=["X"], initial=[("stick", "floor")],
                          title="Block on a floor: friction with the floor's contact force as normal"),
    "vibrating_table": dict(ref="vibrating_table", bodies=["B"], work="vibrating_table",
                            title="Ball on a vibrating table: chattering, sticking, lift-off"),
    "vibrating_table_generic": dict(ref="vibrating_table", bodies=["B"], work="vibrating_table",
                                    initial=[("stick", "F")],
                                    title="Ball on a vibrating table, the runtime's generic path"),
    "moving_wall": dict(ref="moving_wall", bodies=["B"], work="moving_wall",
                        title="Block hit by a wall moving at constant velocity"),
}


def edge_cases():
    """Adds the edge cases whose references edge_refs.py computes in closed form."""
    import edge_refs
    for name, spec in edge_refs.CASES.items():
        c = {k: v for k, v in spec.items() if k not in ("fn", "events")}
        c["edge"] = name
        c["t_end"] = float(spec["t_end"])
        CASES[name] = c


# ------------------------------------------------------------------ reading

def read_csv(path):
    """Rows of a CSV file as (header, list of rows)."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows:
        raise SystemExit("validate: %s is empty" % path)
    return rows[0], rows[1:]


def strip_unit(name):
    """'M1.x [m]' -> 'M1.x'."""
    return name.split(" [")[0].strip()


def read_events(path):
    """Event list [(t, kind, contact, row dict)] from a reference or simulator CSV."""
    head, rows = read_csv(path)
    out = []
    for r in rows:
        if not r:
            continue
        d = dict(zip(head, r))
        out.append((float(d["t"]), d["kind"], d.get("contact", ""), d))
    return out


def read_table(path):
    """Trajectory or sample table: (column names, list of float rows)."""
    head, rows = read_csv(path)
    names = [strip_unit(h) for h in head]
    data = [[float(x) for x in r] for r in rows if r]
    return names, data


# ---------------------------------------------------------------- events

def time_tol(t, tol):
    """Event time tolerance: absolute up to 1 s, relative beyond."""
    return tol * max(1.0, abs(t))


def event_tol(r, tol):
    """Tolerance of reference event r: time_tol, or twice the reference's
    input_shift when that is larger (how far the event moves when the
    initial state is rounded to double: below it no double-precision
    simulator can be held; tests/reference/twomass.py)."""
    shift = r[3].get("input_shift")
    return max(time_tol(r[0], tol), 2 * float(shift) if shift else 0.0)


def fold_zeno(ref, sim):
    """Lets a Zeno event of the simulator stand for the tail of the reference's cascade.

    The reference follows a Zeno cascade impact by impact until flights are
    shorter than 1e-20 s, then jumps to the accumulation point; the simulator
    jumps earlier, as soon as it recognises the cascade.  The k-th zeno
    event of one is matched with the k-th of the other, and the reference's
    impacts on that contact just before it that the simulator did not log
    are removed (they are what its zeno event summarises): the first impacts
    of the cascade are matched one to one, so an impact the simulator missed
    or added inside the cascade shows up as a time error of the following
    ones, and check_impacts catches impacts that are not impacts.  Returns the new
    reference list and the number of impacts folded per cascade.
    """
    def runs(evs):
        out = []
        for i, (t, kind, c, _) in enumerate(evs):
            if kind != "zeno":
                continue
            j = i
            while j > 0 and evs[j - 1][1] == "impact" and evs[j - 1][2] == c:
                j -= 1
            out.append((j, i))
        return out
    rr, sr = runs(ref), runs(sim)
    if len(rr) != len(sr):
        return ref, []
    drop, folded = set(), []
    for (ra, rz), (sa, sz) in zip(rr, sr):
        keep = min(rz - ra, sz - sa)
        drop.update(range(ra + keep, rz))
        folded.append(rz - ra - keep)
    return [e for i, e in enumerate(ref) if i not in drop], folded


def canonical(evs, tol):
    """Orders events sharing one instant (within tol) by kind and contact."""
    out, i = [], 0
    while i < len(evs):
        j = i + 1
        while j < len(evs) and abs(evs[j][0] - evs[i][0]) <= time_tol(evs[i][0], tol):
            j += 1
        group = sorted(range(i, j), key=lambda k: (evs[k][1] == "stick", evs[k][1], evs[k][2], k))
        out.extend(evs[k] for k in group)
        i = j
    return out


def label(e):
    """'kind contact' of an event, what the sequence comparison compares."""
    return "%s %s" % (e[1], e[2])


def event_diff(ref, sim):
    """Readable diff of two event sequences: where they first part, with context,
    then every reference event the simulator lacks ('-') and every extra one ('+')."""
    la, lb = [label(e) for e in ref], [label(e) for e in sim]
    k = 0
    while k < min(len(la), len(lb)) and la[k] == lb[k]:
        k += 1
    lines = ["  first difference at event #%d:" % k,
             "  %5s  %-24s %-22s | %-24s %-22s" % ("#", "reference", "t [s]", "simulator", "t [s]")]
    for i in range(max(0, k - 3), min(max(len(la), len(lb)), k + 6)):
        r = ("%-24s %-22.15g" % (la[i], ref[i][0])) if i < len(la) else "%-47s" % "(none)"
        s = ("%-24s %-22.15g" % (lb[i], sim[i][0])) if i < len(lb) else "(none)"
        lines.append("  %s%4d  %s | %s" % ("*" if i >= k else " ", i, r, s))
    for tag, i, e in align(ref, sim):
        if tag == "-":
            lines.append("  - missing   #%d %-24s t = %.15g" % (i, label(e), e[0]))
        elif tag == "+":
            lines.append("  + extra     #%d %-24s t = %.15g" % (i, label(e), e[0]))
    return lines


def align(ref, sim):
    """Longest common subsequence of two event lists, two events matching when
    they have the same kind and contact and times within 1e-3 s (relative
    beyond 1 s); returns the unmatched ones as ('-', index, event) for the
    reference and ('+', index, event) for the simulator, in time order."""
    n, m = len(ref), len(sim)
    if n * m > 4000000:
        la, lb = [label(e) for e in ref], [label(e) for e in sim]
        sm = difflib.SequenceMatcher(a=la, b=lb, autojunk=False)
        out = []
        for op, i1, i2, j1, j2 in sm.get_opcodes():
            if op != "equal":
                out += [("-", i, ref[i]) for i in range(i1, i2)] + [("+", j, sim[j]) for j in range(j1, j2)]
        return out

    def same(a, b):
        return label(a) == label(b) and abs(a[0] - b[0]) <= 1e-3 * max(1.0, abs(a[0]))
    L = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            L[i][j] = L[i + 1][j + 1] + 1 if same(ref[i], sim[j]) else max(L[i + 1][j], L[i][j + 1])
    out, i, j = [], 0, 0
    while i < n and j < m:
        if same(ref[i], sim[j]) and L[i][j] == L[i + 1][j + 1] + 1:
            i, j = i + 1, j + 1
        elif L[i + 1][j] >= L[i][j + 1]:
            out.append(("-", i, ref[i]))
            i += 1
        else:
            out.append(("+", j, sim[j]))
            j += 1
    out += [("-", k, ref[k]) for k in range(i, n)] + [("+", k, sim[k]) for k in range(j, m)]
    return out


def check_impacts(sim):
    """An impact record must have a closing relative velocity and a positive impulse."""
    msgs = []
    for t, kind, c, d in sim:
        if kind != "impact" or "vrel_before" not in d:
            continue
        vb, p = float(d["vrel_before"]), float(d["impulse"])
        if not (vb < 0 and p > 0):
            msgs.append("impact on %s at t = %.17g s is not an impact: vrel_before %s m/s, impulse %s N s"
                        % (c, t, d["vrel_before"], d["impulse"]))
    return msgs


def compare_events(ref, sim, tol, case, res):
    """Checks the event sequence and the event times; fills res['events']."""
    ok = True
    msgs = []
    cmap = case.get("contact_map", {})
    ref = [(t, k, cmap.get(c, c), d) for t, k, c, d in ref]
    # t = 0 transitions the reference treats as the initial state
    for kind, contact in case.get("initial", []):
        hit = [e for e in sim if e[0] == 0 and e[1] == kind and e[2] == contact]
        if not hit:
            msgs.append("expected the initial '%s %s' record at t = 0 in the event log" % (kind, contact))
            ok = False
        else:
            sim = [e for e in sim if e is not hit[0]]
    bogus = check_impacts(sim)
    if bogus:
        ok = False
        msgs.append("%d impact records of the simulator are wrongly classified:" % len(bogus))
        msgs.extend("  " + m for m in bogus[:10])
    ref, folded = fold_zeno(ref, sim)
    ref_c, sim_c = canonical(ref, 1e-9), canonical(sim, 1e-9)
    info = {"n_ref": len(ref_c), "n_sim": len(sim_c), "zeno_folded": folded,
            "max_err": 0.0, "worst": None, "tol": tol}
    res["events"] = info
    if [label(e) for e in ref_c] != [label(e) for e in sim_c]:
        d = event_diff(ref_c, sim_c)
        msgs.append("event sequence differs from the reference (%d reference, %d simulator events):"
                    % (len(ref_c), len(sim_c)))
        msgs.extend(d[:40])
        if len(d) > 40:
            msgs.append("  ... %d more lines" % (len(d) - 40))
        info["sequence_ok"] = False
        return False, msgs
    info["sequence_ok"] = ok
    worst, werr, wscaled = None, 0.0, 0.0
    pairs = []
    for i, (r, s) in enumerate(zip(ref_c, sim_c)):
        err = abs(s[0] - r[0])
        scaled = err / max(1.0, abs(r[0]))
        pairs.append((r, s, err))
        if scaled >= wscaled:
            worst, werr, wscaled = i, err, scaled
    info["max_err"] = werr
    info["max_scaled_err"] = wscaled
    if worst is not None:
        r, s, err = pairs[worst]
        info["worst"] = {"index": worst, "label": label(r), "ref": r[3].get("t", repr(r[0])),
                         "sim": repr(s[0]), "err": err}
    bad = [(i, r, s, err) for i, (r, s, err) in enumerate(pairs)
           if tol is not None and err > event_tol(r, tol)]
    floored = sum(1 for r in ref_c if tol is not None and event_tol(r, tol) > time_tol(r[0], tol))
    info["floored"] = floored
    if bad:
        ok = False
        msgs.append("%d event times outside %g s (relative beyond 1 s%s); the worst:"
                    % (len(bad), tol, ", or twice the input rounding shift" if floored else ""))
        for i, r, s, err in sorted(bad, key=lambda x: -x[3] / max(1, abs(x[1][0])))[:10]:
            msgs.append("  #%d %-22s reference %s  simulator %.17g  error %.3g s"
                        % (i, label(r), r[3].get("t", repr(r[0])), s[0], err))
    res["event_pairs"] = [(label(r), r[3].get("t", repr(r[0])), s[0], err) for r, s, err in pairs]
    return ok, msgs


# ---------------------------------------------------------------- samples

def compare_samples(ref_names, ref_rows, names, rows, case, tol, res):
    """Positions at the reference sample times, relative to each position's largest magnitude."""
    bmap = case.get("body_map", {})
    msgs, ok = [], True
    index = {}
    for r in rows:
        index.setdefault(round(r[0], 9), r)
    cols = []
    for b in case["bodies"]:
        rc = ref_names.index(b + ".x")
        sb = bmap.get(b, b)
        if sb + ".x" not in names:
            return False, ["the trajectory has no column %s.x (columns: %s)" % (sb, ", ".join(names))]
        cols.append((b, rc, names.index(sb + ".x")))
    info = {"max_rel_err": 0.0, "tol": tol, "n": 0, "columns": {}}
    res["samples"] = info
    for b, rc, sc in cols:
        scale = max(abs(r[rc]) for r in ref_rows) or 1.0
        worst = (0.0, None, None, None)
        for r in ref_rows:
            s = index.get(round(r[0], 9))
            if s is None:
                return False, ["no trajectory sample at t = %.12g s (is --every a divisor of the grid?)" % r[0]]
            info["n"] += 1
            e = abs(s[sc] - r[rc]) / scale
            if e >= worst[0]:
                worst = (e, r[0], r[rc], s[sc])
        info["columns"][b + ".x"] = {"max_rel_err": worst[0], "t": worst[1], "ref": worst[2],
                                     "sim": worst[3], "scale": scale}
        info["max_rel_err"] = max(info["max_rel_err"], worst[0])
        if tol is not None and worst[0] > tol:
            ok = False
            msgs.append("%s.x: relative error %.3g at t = %.12g s (reference %.17g, simulator %.17g, "
                        "scale %.3g) exceeds %g" % (b, worst[0], worst[1], worst[2], worst[3], scale, tol))
    final = ref_rows[-1]
    s = index.get(round(final[0], 9))
    res["final"] = [{"name": "%s.x(%g s)" % (b, final[0]), "ref": final[rc], "sim": s[sc] if s else None}
                    for b, rc, sc in cols]
    return ok, msgs


# ---------------------------------------------------------------- energy

def check_work(names, rows, case, tol, res):
    """The injected and dissipated columns against the reference's work of the
    surfaces and the impacts' dissipation (data/<work>.work.csv) at its sample
    times, to tol relative to the largest energy in the run."""
    _, ref = read_csv(os.path.join(REF_DIR, case["work"] + ".work.csv"))
    ix = [names.index(c) for c in ENERGY_COLS]
    scale = max(max(abs(r[i]) for i in ix[:4]) for r in rows) or 1.0
    times = [r[0] for r in rows]
    worst, msgs = 0.0, []
    for t, w, d in ((float(a), float(b), float(c)) for a, b, c in ref):
        k = min(range(len(times)), key=lambda i: abs(times[i] - t))
        if abs(times[k] - t) > 1e-9 * max(1.0, t):
            return False, ["no trajectory row at the reference's t = %g" % t]
        err = max(abs(rows[k][ix[3]] - w), abs(rows[k][ix[2]] - d)) / scale
        worst = max(worst, err)
    res["work"] = {"max_rel_err": worst, "tol": tol}
    if worst > tol:
        msgs.append("injected/dissipated differ from the reference's work and dissipation by "
                    "%.3g (relative), over %g" % (worst, tol))
    return not msgs, msgs


def check_energy(names, rows, tol, res):
    """The energy balance columns close to tol relative to the largest energy in the run."""
    missing = [c for c in ENERGY_COLS if c not in names]
    if missing:
        return False, ["energy columns missing from the trajectory: " + ", ".join(missing)]
    ix = [names.index(c) for c in ENERGY_COLS]
    scale = 0.0
    for r in rows:
        scale = max(scale, *(abs(r[i]) for i in ix[:4]))
    scale = scale or 1.0
    worst, wt = 0.0, 0.0
    # the energy of the initial state as given: the first row is after the
    # transitions at t = 0, whose losses are already in the dissipated column
    e0 = rows[0][ix[0]] + rows[0][ix[1]] + rows[0][ix[2]] - rows[0][ix[3]]
    recomputed, running = 0.0, abs(e0)
    for r in rows:
        kin, pot, diss, inj, err = (r[i] for i in ix)
        balance = e0 + inj - diss - kin - pot
        if abs(balance) / scale >= worst:
            worst, wt = abs(balance) / scale, r[0]
        # the error column is that balance relative to the largest energy met so
        # far (the runtime also looks between samples, so its scale may be larger)
        running = max(running, abs(kin), abs(pot), abs(diss), abs(inj))
        recomputed = max(recomputed, abs(balance / (running or 1.0) - err))
    res["energy"] = {"max_rel_err": worst, "t": wt, "scale": scale, "tol": tol,
                     "column_consistency": recomputed}
    msgs, ok = [], True
    if worst > tol:
        ok = False
        msgs.append("energy balance error %.3g (relative to %.6g J) at t = %.12g s exceeds %g"
                    % (worst, scale, wt, tol))
    if recomputed > max(tol, 1e-11):
        ok = False
        msgs.append("energy.error differs from E0 + injected - dissipated - kinetic - potential "
                    "by %.3g (relative)" % recomputed)
    return ok, msgs


def check_conserved(names, rows, sim_events, tol, res):
    """Nothing may be lost (e = 1, no damper): kinetic + potential stays at its
    initial value to tol (relative), and no event logs a loss above tol."""
    ik, ip = names.index("energy.kinetic"), names.index("energy.potential")
    e0 = rows[0][ik] + rows[0][ip]
    scale = abs(e0) or 1.0
    worst, wt = 0.0, 0.0
    for r in rows:
        d = abs(r[ik] + r[ip] - e0) / scale
        if d >= worst:
            worst, wt = d, r[0]
    lost = sum(float(d["energy_lost"]) for t, k, c, d in sim_events if "energy_lost" in d)
    n = sum(1 for ev in sim_events if ev[1] == "impact")
    res["conserved"] = {"max_rel_change": worst, "t": wt, "e0": e0, "impacts": n,
                        "logged_loss": lost, "tol": tol}
    msgs = []
    if worst > tol:
        msgs.append("kinetic + potential energy drifts by %.3g relative (at t = %.12g s, %d impacts) "
                    "beyond %g" % (worst, wt, n, tol))
    if abs(lost) / scale > tol:
        msgs.append("the event log reports %.3g J lost in %d impacts" % (lost, n))
    return not msgs, msgs


def aster_metrics(names, rows, p, res, tol_energy, tol_force):
    """code_aster's SDND121 metrics (seed 000) from the trajectory, in percent.

    E_tot = m v^2/2 + k_rappel x^2/2 + k_choc p^2/2, E_inj = sum_j f_j v_j dt
    (delta = 0, centred differences), error = 100 sqrt(sum (E_tot - E_inj)^2 /
    sum E_inj^2); force error = 100 sqrt(sum (F_choc - k_choc p)^2 / sum (k_choc p)^2).
    """
    ix, iv, iff = names.index("M.x"), names.index("M.v"), names.index("stop.force")
    # the penetration from the gap column when there is one: printed relative
    # to its own size, it keeps digits that x - jeu loses
    ig = names.index("stop.gap") if "stop.gap" in names else None
    inj, num, den, fnum, fden = 0.0, 0.0, 0.0, 0.0, 0.0
    prev = None
    for r in rows:
        t, x, v, fc = r[0], r[ix], r[iv], r[iff]
        if prev is not None and r[0] - prev > 0:
            dt = r[0] - prev
            inj += p["F0"] * math.sin(2 * math.pi * p["f"] * t) * v * dt
        prev = t
        pen = max(-r[ig] if ig is not None else x - p["jeu"], 0.0)
        etot = 0.5 * p["m"] * v * v + 0.5 * p["k"] * x * x + 0.5 * p["kc"] * pen * pen
        num += (etot - inj) ** 2
        den += inj * inj
        fnum += (fc - p["kc"] * pen) ** 2
        fden += (p["kc"] * pen) ** 2
    ee = 100 * math.sqrt(num / den) if den > 0 else 0.0
    fe = 100 * math.sqrt(fnum / fden) if fden > 0 else 100 * math.sqrt(fnum)
    res["aster"] = {"energy_error_pct": ee, "force_error_pct": fe, "tol_energy_pct": tol_energy,
                    "tol_force_pct": tol_force, "n": len(rows)}
    msgs = []
    if ee >= tol_energy:
        msgs.append("code_aster global energy error %.4g %% is not under %g %%" % (ee, tol_energy))
    if fe >= tol_force:
        msgs.append("code_aster force/kinematics error %.4g %% is not under %g %%" % (fe, tol_force))
    return not msgs, msgs


def check_plastic(sim_events, m1, m2, tol, res):
    """Each impact with e = 0 loses m1 m2/(2 (m1 + m2)) dv^2, dv the closing velocity."""
    mu = m1 * m2 / (m1 + m2)
    rows, ok, msgs = [], True, []
    for t, kind, c, d in sim_events:
        if kind != "impact":
            continue
        dv = float(d["vrel_before"])
        want = 0.5 * mu * dv * dv
        got = float(d["energy_lost"])
        err = abs(got - want) / want
        rows.append({"t": t, "dv": dv, "expected": want, "logged": got, "rel_err": err})
        if abs(float(d["vrel_after"])) > 1e-12 * max(1.0, abs(dv)):
            ok = False
            msgs.append("impact at t = %.12g s leaves relative velocity %s (e = 0)" % (t, d["vrel_after"]))
        if err > tol:
            ok = False
            msgs.append("impact at t = %.12g s: energy_lost %.12g J, expected %.12g J (relative error %.3g)"
                        % (t, got, want, err))
    if not rows:
        ok = False
        msgs.append("no impact in the event log")
    res["plastic"] = {"impacts": rows, "tol": tol}
    return ok, msgs


# ---------------------------------------------------------------- driver

def run_sim(args, case, t_end, every, workdir):
    """Runs the simulator; returns (trajectory path, events path, command)."""
    stem = "%s.%s" % (args.case, args.method)
    out = os.path.join(workdir, stem + ".traj.csv")
    evp = os.path.join(workdir, stem + ".events.csv")
    exe = [sys.executable, args.sim] if args.sim.endswith(".py") else [args.sim]
    cmd = exe + ["--method", args.method, "--t-end", repr(t_end), "--every", repr(every),
           "--out", out, "--events", evp]
    if args.dt:
        cmd += ["--dt", args.dt]
    for s in case.get("set", []) + (args.set or []):
        cmd += ["--set", s]
    print("validate: running " + " ".join(cmd))
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    if p.returncode != 0:
        raise RuntimeError("simulator exited with status %d:\n%s" % (p.returncode, p.stderr.strip()))
    sys.stdout.write(p.stderr)
    return out, evp, cmd


def reference(case, workdir):
    """Paths of the reference event and sample files (edge cases: written by edge_refs)."""
    if "edge" in case:
        import edge_refs
        return edge_refs.write(case["edge"], workdir)
    return (os.path.join(REF_DIR, case["ref"] + ".events.csv"),
            os.path.join(REF_DIR, case["ref"] + ".samples.csv"))


def main(argv=None):
    """Parses the command line, runs the simulator once, runs the checks asked for."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--case", required=True)
    ap.add_argument("--sim", required=True)
    ap.add_argument("--method", required=True, choices=["rk4", "adaptive", "exact", "taylor"])
    ap.add_argument("--dt", help="step passed to the simulator (rk4, exact; adaptive: largest step)")
    ap.add_argument("--set", action="append", help="extra parameter override NAME=VALUE")
    ap.add_argument("--event-tol", type=float, help="event time tolerance in s (relative beyond 1 s)")
    ap.add_argument("--pos-tol", type=float, help="relative position tolerance")
    ap.add_argument("--energy-tol", type=float, help="check the energy balance to this relative error")
    ap.add_argument("--work-tol", type=float, default=None,
                    help="with a case's reference work: injected and dissipated to TOL relative "
                         "(default: --energy-tol)")
    ap.add_argument("--aster", nargs=2, type=float, metavar=("ENERGY_PCT", "FORCE_PCT"),
                    help="code_aster SDND121 metrics must be under these percentages")
    ap.add_argument("--plastic", type=float, metavar="TOL",
                    help="impacts must lose m1 m2/(2(m1+m2)) dv^2 to this relative error")
    ap.add_argument("--conserved", type=float, metavar="TOL",
                    help="kinetic + potential energy must stay at its initial value to TOL (relative)")
    ap.add_argument("--every", type=float, help="trajectory sampling period (default: the reference grid)")
    ap.add_argument("--json", help="write the summary here")
    ap.add_argument("--workdir", help="where the simulator's CSV files go (default: a temporary directory)")
    ap.add_argument("--no-reference", action="store_true",
                    help="no reference: run to the model's own end time and check only "
                         "--energy-tol (CASE names the model)")
    args = ap.parse_args(argv)

    edge_cases()
    if args.no_reference:
        return main_no_reference(args)
    if args.case not in CASES:
        ap.error("unknown case '%s' (known: %s)" % (args.case, ", ".join(sorted(CASES))))
    case = CASES[args.case]
    workdir = args.workdir or tempfile.mkdtemp(prefix="nsm-validate-")
    os.makedirs(workdir, exist_ok=True)
    ref_ev, ref_sm = reference(case, workdir)
    ref_names, ref_rows = read_table(ref_sm)
    t_end = case.get("t_end", ref_rows[-1][0])
    grid = ref_rows[1][0] - ref_rows[0][0] if len(ref_rows) > 1 else t_end
    every = args.every or case.get("every", grid)

    res = {"case": args.case, "title": case.get("title", args.case), "method": args.method,
           "dt": args.dt, "t_end": t_end, "every": every, "set": case.get("set", []) + (args.set or []),
           "checks": {}, "messages": []}
    ok = True
    try:
        out, evp, cmd = run_sim(args, case, t_end, every, workdir)
        shown = [c for i, c in enumerate(cmd) if c not in ("--out", "--events")
                 and cmd[i - 1] not in ("--out", "--events")]
        res["command"] = " ".join([os.path.basename(args.sim)] + shown[shown.index("--method"):])
        sim_ev = read_events(evp)
        names, rows = read_table(out)
        checks = [("events", lambda: compare_events(read_events(ref_ev), sim_ev, args.event_tol, case, res)),
                  ("samples", lambda: compare_samples(ref_names, ref_rows, names, rows, case,
                                                      args.pos_tol, res))]
        if args.energy_tol is not None:
            checks.append(("energy", lambda: check_energy(names, rows, args.energy_tol, res)))
        if args.energy_tol is not None and "work" in case:
            wt = args.work_tol if args.work_tol is not None else args.energy_tol
            checks.append(("work", lambda: check_work(names, rows, case, wt, res)))
        if args.aster:
            p = dict(m=156.0, k=2e6, kc=1e10, jeu=1e-3, F0=3000.0, f=5.0)
            checks.append(("aster", lambda: aster_metrics(names, rows, p, res, *args.aster)))
        if args.conserved is not None:
            checks.append(("conserved", lambda: check_conserved(names, rows, sim_ev, args.conserved, res)))
        if args.plastic is not None:
            checks.append(("plastic", lambda: check_plastic(sim_ev, 5.0, 5.0, args.plastic, res)))
        for name, fn in checks:
            good, msgs = fn()
            res["checks"][name] = good
            ok = ok and good
            for m in msgs:
                res["messages"].append(m)
    except (RuntimeError, OSError, ValueError, KeyError) as exc:
        ok = False
        res["messages"].append(str(exc))
    res["pass"] = ok
    summarize(res)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(res, f, indent=1, default=str)
    return 0 if ok else 1


def main_no_reference(args):
    """Energy balance of a model without a reference: runs to the model's end time."""
    workdir = args.workdir or tempfile.mkdtemp(prefix="nsm-validate-")
    os.makedirs(workdir, exist_ok=True)
    res = {"case": args.case, "title": args.case, "method": args.method, "dt": args.dt,
           "set": args.set or [], "checks": {}, "messages": [], "energy_only": True}
    ok = True
    try:
        stem = os.path.join(workdir, "%s.%s.energy" % (args.case, args.method))
        exe = [sys.executable, args.sim] if args.sim.endswith(".py") else [args.sim]
        cmd = exe + ["--method", args.method, "--out", stem + ".traj.csv", "--events", stem + ".events.csv"]
        if args.every:
            cmd += ["--every", repr(args.every)]
        if args.dt:
            cmd += ["--dt", args.dt]
        for s in args.set or []:
            cmd += ["--set", s]
        print("validate: running " + " ".join(cmd))
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        if p.returncode != 0:
            raise RuntimeError("simulator exited with status %d:\n%s" % (p.returncode, p.stderr.strip()))
        sys.stdout.write(p.stderr)
        res["command"] = " ".join([os.path.basename(args.sim)] + cmd[len(exe):len(exe) + 2])
        names, rows = read_table(stem + ".traj.csv")
        res["t_end"] = rows[-1][0]
        good, msgs = check_energy(names, rows, args.energy_tol if args.energy_tol is not None else 1e-10, res)
        res["checks"]["energy"] = good
        res["messages"] += msgs
        ok = good
        if args.conserved is not None:
            good, msgs = check_conserved(names, rows, read_events(stem + ".events.csv"), args.conserved, res)
            res["checks"]["conserved"] = good
            res["messages"] += msgs
            ok = ok and good
    except (RuntimeError, OSError, ValueError) as exc:
        ok = False
        res["messages"].append(str(exc))
    res["pass"] = ok
    summarize(res)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(res, f, indent=1, default=str)
    return 0 if ok else 1


def summarize(res):
    """Prints what was checked and found."""
    ev = res.get("events", {})
    print("validate: %s, method %s%s" % (res["case"], res["method"],
                                         ", dt = %s s" % res["dt"] if res["dt"] else ""))
    if ev:
        print("  events: %d reference, %d simulator, sequence %s, worst time error %.3g s (tol %s)"
              % (ev["n_ref"], ev["n_sim"], "identical" if ev.get("sequence_ok") else "DIFFERS",
                 ev["max_err"], ev["tol"]))
        if ev.get("zeno_folded"):
            print("  zeno: reference impacts summarized by the simulator's zeno event: %s"
                  % ev["zeno_folded"])
    sm = res.get("samples")
    if sm:
        print("  positions: worst relative error %.3g over %d samples (tol %s)"
              % (sm["max_rel_err"], sm["n"], sm["tol"]))
    en = res.get("energy")
    if en:
        print("  energy: worst balance error %.3g relative to %.6g J (tol %g)"
              % (en["max_rel_err"], en["scale"], en["tol"]))
    a = res.get("aster")
    if a:
        print("  code_aster metrics: energy %.4g %%, force %.4g %%" % (a["energy_error_pct"],
                                                                     a["force_error_pct"]))
    co = res.get("conserved")
    if co:
        print("  conservation: kinetic + potential changes by %.3g relative over %d impacts (tol %g)"
              % (co["max_rel_change"], co["impacts"], co["tol"]))
    pl = res.get("plastic")
    if pl:
        for r in pl["impacts"]:
            print("  plastic impact t = %.12g s: lost %.12g J, expected %.12g J (rel %.2g)"
                  % (r["t"], r["logged"], r["expected"], r["rel_err"]))
    for m in res["messages"]:
        print("FAIL: " + m if not m.startswith("  ") else m)
    print("validate: %s" % ("PASS" if res["pass"] else "FAIL"))


if __name__ == "__main__":
    sys.exit(main())
