#!/usr/bin/env python3
"""Random models through the whole pipeline, checked against the physics.

    random_models.py --nsmc NSMC --lib LIBNSMCLI:LIBNSMRT[:...] --include DIR [--seeds A-B,N,...] [--keep DIR]
                     [--cc CC] [--cflags="FLAGS"]

Each seed draws a model: one to four bodies on a line, springs to the
ground and between neighbours (with dampers), gravity or not, forces
(constant, sinusoidal, decaying, ramps, or switched on and off in time),
and contacts between neighbours, on a floor or under a ceiling, either
Newton impacts (e in [0, 1]) or penalty contacts (either release law);
some bodies start touching the one below or the floor.  nsmc must accept
it; the simulator is then run with every method and must:

  - end without error (no guard, no failure);
  - never let an impact contact interpenetrate (its gap column >= -1e-9 m
    with exact, -1e-7 m otherwise) nor pull (its force column >= 0 to the
    rounding of the largest force);
  - close its energy balance (energy.error, relative to the largest energy
    met: 1e-9 with exact, 1e-6 with adaptive at its default tolerances, 1e-2
    with rk4 at 1 ms, whose truncation error on the stiffest contacts drawn,
    omega dt ~ 0.5, is of order 1e-3);
  - with rk4 and adaptive, find the same first event as exact (kind,
    contact, time within 1e-6 s with adaptive, 1e-4 s with rk4 at 1 ms).

Nothing here knows the answer of a model; what is checked holds for every
model.  Exit status 0 when every seed passes; the failures are printed with
the model, so that they can be reproduced.  Only the standard library.
"""
import argparse
import csv
import os
import random
import shutil
import subprocess
import sys
import tempfile

METHODS = ["exact", "rk4", "adaptive"]


def draw(seed):
    """The .nsm text of seed's model and what the checks need: (text, gaps)."""
    r = random.Random(seed)
    n = r.randint(1, 4)
    lines = ['model rnd%d "random model %d"' % (seed, seed), ""]
    spacing = 0.5
    for i in range(n):
        lines.append("mass B%d = %.3g kg" % (i, r.uniform(0.2, 5)))
    if r.random() < 0.5:
        lines.append("gravity %.3g m/s^2" % r.uniform(1, 10))
    for i in range(n):
        if r.random() < 0.7:
            lines.append("spring S%d: B%d -- ground, k = %.3g N/m, c = %.3g N*s/m"
                         % (i, i, r.uniform(1, 200), r.choice([0, r.uniform(0, 5)])))
    for i in range(n - 1):
        if r.random() < 0.5:
            lines.append("spring T%d: B%d -- B%d, k = %.3g N/m, c = %.3g N*s/m"
                         % (i, i, i + 1, r.uniform(1, 200), r.choice([0, r.uniform(0, 5)])))
    lines.append("param f = %.3g Hz" % r.uniform(0.5, 5))
    for i in range(n):
        kind = r.random()
        if kind < 0.3:
            lines.append("force F%d: on B%d = %.3g N * sin(2*pi*f*t)" % (i, i, r.uniform(-20, 20)))
        elif kind < 0.5:
            t0 = r.uniform(0.1, 1.5)
            lines.append("force F%d: on B%d = if t >= %.3g s and t < %.3g s then %.3g N else 0 N"
                         % (i, i, t0, t0 + r.uniform(0.01, 0.5), r.uniform(-30, 30)))
        elif kind < 0.6:
            lines.append("force F%d: on B%d = %.3g N" % (i, i, r.uniform(-10, 10)))
        elif kind < 0.7:
            lines.append("force F%d: on B%d = %.3g N * exp(-t / %.3g s)" % (i, i, r.uniform(-20, 20),
                                                                         r.uniform(0.1, 2)))
        elif kind < 0.75:
            lines.append("force F%d: on B%d = %.3g N/s * t" % (i, i, r.uniform(-10, 10)))
    # bodies start spread out, at x_i = i * spacing (+ a little), so every
    # contact below starts open; some start on the body below (touching)
    x0 = [i * spacing + r.uniform(0, 0.1) for i in range(n)]
    for i in range(1, n):
        if r.random() < 0.2:
            x0[i] = x0[i - 1]
    gaps = []

    def law():
        if r.random() < 0.65:
            return "impact(e = %.3g)" % r.choice([0, 1, r.uniform(0, 1)]), "impact"
        return ("penalty(k = %.3g N/m, c = %.3g N*s/m, release = %s)"
                % (r.uniform(1e3, 1e5), r.uniform(0, 20), r.choice(["force", "gap"])), "penalty")

    for i in range(n - 1):
        if r.random() < 0.7:
            text, kind = law()
            gaps.append(("C%d" % i, kind))
            lines.append("gap C%d: B%d.x - B%d.x >= 0, %s" % (i, i + 1, i, text))
    if r.random() < 0.6:
        text, kind = law()
        gaps.append(("floor", kind))
        low = x0[0] if r.random() < 0.2 else -r.uniform(0, 0.3)
        lines.append("gap floor: B0.x >= %.6g m, %s" % (low, text))
    if r.random() < 0.4:
        text, kind = law()
        gaps.append(("ceiling", kind))
        lines.append("gap ceiling: B%d.x <= %.6g m, %s" % (n - 1, x0[-1] + r.uniform(0.01, 0.3), text))
    inits = []
    for i in range(n):
        inits.append("B%d.x = %.6g m, B%d.v = %.3g m/s" % (i, x0[i], i, r.uniform(-2, 2)))
    lines.append("init " + ", ".join(inits))
    lines.append("simulate t_end = 2 s, dt = 1 ms, method = rk4")
    cols = ["B%d.x" % i for i in range(n)]
    for g, _ in gaps:
        cols += ["%s.gap" % g, "%s.force" % g]
    cols.append("energy.error")
    lines.append("output every 10 ms: " + ", ".join(cols))
    return "\n".join(lines) + "\n", gaps


def run(cmd):
    """Runs cmd; (exit status, stderr)."""
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=120)
    return p.returncode, p.stderr


def read_csv(path):
    """Rows of a CSV file as dicts with the units stripped from the names."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    names = [h.split(" [")[0] for h in rows[0]]
    return [dict(zip(names, row)) for row in rows[1:] if row]


def check_run(method, traj, events, gaps):
    """Messages for every check that fails on one run."""
    msgs = []
    rows = read_csv(traj)
    tol_gap = 1e-9 if method == "exact" else 1e-7
    tol_e = {"exact": 1e-9, "adaptive": 1e-6}.get(method, 1e-2)
    for g, kind in gaps:
        if kind != "impact":
            continue
        fmax = max(abs(float(row[g + ".force"])) for row in rows)
        for row in rows:
            gap, force = float(row[g + ".gap"]), float(row[g + ".force"])
            if gap < -tol_gap:
                msgs.append("%s: gap %s = %.3g m at t = %s (interpenetration)" % (method, g, gap, row["t"]))
                break
            if force < -1e-9 * (1 + fmax):
                msgs.append("%s: contact %s pulls, force %.3g N at t = %s" % (method, g, force, row["t"]))
                break
    err = max(abs(float(row["energy.error"])) for row in rows)
    if not err <= tol_e:
        msgs.append("%s: energy balance error %.3g (relative) above %g" % (method, err, tol_e))
    return msgs


def first_event(path):
    """(t, kind, contact) of the first event but stick records at t = 0, or None."""
    for row in read_csv(path):
        if float(row["t"]) > 0 and row["kind"] != "time":
            return float(row["t"]), row["kind"], row["contact"]
    return None


def check_seed(seed, args, work):
    """Messages for every check seed's model fails; [] when it passes."""
    text, gaps = draw(seed)
    src = os.path.join(work, "rnd%d.nsm" % seed)
    with open(src, "w") as f:
        f.write(text)
    c, exe = os.path.join(work, "rnd%d.c" % seed), os.path.join(work, "rnd%d" % seed)
    rc, err = run([args.nsmc, src, "-o", c])
    if rc != 0:
        return ["nsmc refused it:\n" + err]
    rc, err = run([args.cc] + args.cflags.split() + [c, "-I", args.include] + args.lib.split(os.pathsep) + ["-lm", "-o", exe])
    if rc != 0:
        return ["cc failed:\n" + err]
    msgs, first = [], {}
    for m in METHODS:
        traj, ev = os.path.join(work, "rnd%d.%s.csv" % (seed, m)), os.path.join(work, "rnd%d.%s.ev" % (seed, m))
        rc, err = run([exe, "--method", m, "--out", traj, "--events", ev])
        if rc != 0:
            msgs.append("%s: exit %d: %s" % (m, rc, err.strip().splitlines()[-1] if err.strip() else ""))
            continue
        msgs += check_run(m, traj, ev, gaps)
        first[m] = first_event(ev)
    ref = first.get("exact")
    for m in ("rk4", "adaptive"):
        if m in first and "exact" in first:
            got = first[m]
            tol = 1e-6 if m == "adaptive" else 1e-4     # rk4: truncation on the stiffest contacts
            if (ref is None) != (got is None) or (ref and (ref[1:] != got[1:] or abs(ref[0] - got[0]) > tol)):
                msgs.append("%s: first event %s, exact's %s" % (m, got, ref))
    return msgs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nsmc", required=True)
    ap.add_argument("--lib", required=True,
                    help="libnsmcli.a:libnsmrt.a[:more libraries], in link order")
    ap.add_argument("--include", required=True, help="runtime/include")
    ap.add_argument("--seeds", default="1-20", help="seeds: N, A-B (inclusive), comma-separated")
    ap.add_argument("--cc", default="cc", help="C compiler for the simulators")
    ap.add_argument("--cflags", default="-O2", help="its flags (one string)")
    ap.add_argument("--keep", help="keep the models and runs in this folder")
    args = ap.parse_args()
    seeds = []
    for item in args.seeds.split(","):
        a, _, b = item.partition("-")
        seeds += range(int(a), int(b or a) + 1)
    work = args.keep or tempfile.mkdtemp(prefix="nsm-random-")
    os.makedirs(work, exist_ok=True)
    failed = 0
    for seed in seeds:
        msgs = check_seed(seed, args, work)
        if msgs:
            failed += 1
            print("FAIL seed %d:\n  %s\n--- model:\n%s" % (seed, "\n  ".join(msgs), draw(seed)[0]))
        else:
            print("ok   seed %d" % seed)
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    print("%d seeds, %d failed" % (len(seeds), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
