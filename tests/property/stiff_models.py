#!/usr/bin/env python3
"""Random models with stiff contacts, every event checked against an independent reference.

    stiff_models.py --nsmc NSMC --lib LIBNSMCLI:LIBNSMRT[:...] --include DIR [--seeds A-B,N,...] [--keep DIR]
                    [--cc CC] [--cflags="FLAGS"]

Each seed draws a model: one or two bodies on a line, each held by springs
(a single body may instead fly free under gravity), dampers, gravity or not,
constant and sinusoidal forces, and one to three contacts (a floor under the
first body, a ceiling over the last, a contact between the two bodies), each
either a penalty contact with k from 1e4 to 1e14 N/m (log-uniform), either
release law, with or without damping (up to 0.4 of critical), or a Newton
impact with e in [0, 1].  The step `dt` is drawn too: sometimes none (the
run's default), otherwise from 1e-4 to 2e-2 s, which is far longer than the
stiffer contacts (k = 1e14 N/m on 1 kg lasts 0.3 us).

The simulator is run with every method and its events are compared with the
event-driven closed-form solution of tests/reference/eventdriven.py,
computed in mpmath, up to the reference's horizon (the end of the run, or
where the reference stops following the physics: a Zeno cascade or sticking
after an impact, a contact that does not let go, 40 events).  The checks
are stiff_common.compare's: no missed event, no extra event, every event
time within the method's tolerance (exact 1e-9 (1 + t) s, adaptive
1e-7 (1 + t) s, rk4 (1 + t) (1e-6 + (w h)^4) s with w the fastest rate rk4
integrates with its own step: the free motion and the contacts with
w h < 0.5; faster contacts must be resolved by the engine), and every
penalty contact's duration right (relative 1e-6, 1e-4, 1e-2), so no exit
is late.  The time tolerances are for well-conditioned events: where a
method errs, each event's tolerance is multiplied by its condition factor
(stiff_common.condition: how much more the event's time moves than the
first event's when the reference is run again from initial states moved
by 1e-12 along each coordinate), so an event that the contacts before it
make 450 times more sensitive to any earlier timing error (seed 17, from
t = 1.05 s: a chain of two bodies between a 2e7 and a 5.5e8 N/m contact)
is allowed 450 times the error, and a well-conditioned one nothing more.
A run that stops with an error fails, except an rk4 run that
refuses (exit status 3) after getting every earlier event right (--strict:
that fails too); such refusals are listed on the seed's line.  Exit status
0 when every seed
passes; the failures are printed with the model, so that they can be
reproduced.  Standard library and mpmath (Debian's python3-mpmath).
"""
import argparse
import math
import os
import random
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "reference"))

from mpmath import mp, mpf  # noqa: E402

import eventdriven as ed  # noqa: E402
import stiff_common as sc  # noqa: E402

mp.dps = 30
T_END = "1.5"
# The perturbation of the initial state that measures a run's conditioning:
# small enough that the event times respond linearly (they move by DELTA
# times their sensitivity, far below any tolerance), large enough to stand
# clear of the reference's 30 digits.
DELTA = mpf("1e-12")


def num(x):
    """x with 4 significant digits, as the model and the reference both read it."""
    return "%.4g" % x


class Draw:
    """One seed's model: the .nsm text and the reference's System built from the same numbers."""

    def __init__(self, seed):
        r = random.Random(seed)
        self.seed = seed
        n = r.randint(1, 2)
        self.n = n
        lines = ['model stiff%d "random stiff model %d"' % (seed, seed), ""]
        masses = [num(r.uniform(0.2, 5)) for _ in range(n)]
        for i in range(n):
            lines.append("mass B%d = %s kg" % (i, masses[i]))
        K = [[0.0] * n for _ in range(n)]
        C = [[0.0] * n for _ in range(n)]
        flying = n == 1 and r.random() < 0.4
        g = num(r.uniform(5, 10)) if flying or r.random() < 0.5 else "0"
        if g != "0":
            lines.append("gravity %s m/s^2" % g)
        ground = [not flying] * n
        if n == 2 and r.random() < 0.3:
            ground[1] = False                # B1 held through B0 only
        between = n == 2 and (not ground[1] or r.random() < 0.5)
        for i in range(n):
            if ground[i]:
                # 5 to 30 rad/s on its own: a few swings in the run
                k, c = num(float(masses[i]) * r.uniform(5, 30) ** 2), num(r.choice([0, r.uniform(0, 3)]))
                lines.append("spring S%d: B%d -- ground, k = %s N/m, c = %s N*s/m" % (i, i, k, c))
                K[i][i] += float(k)
                C[i][i] += float(c)
        if between:
            k, c = num(float(masses[1]) * r.uniform(5, 30) ** 2), num(r.choice([0, r.uniform(0, 3)]))
            lines.append("spring T: B0 -- B1, k = %s N/m, c = %s N*s/m" % (k, c))
            for a, b, s in ((0, 0, 1), (1, 1, 1), (0, 1, -1), (1, 0, -1)):
                K[a][b] += s * float(k)
                C[a][b] += s * float(c)
        freq = num(r.uniform(0.5, 5))
        omega = 2 * math.pi * float(freq)
        f0, fs = ["0"] * n, ["0"] * n
        lines.append("param f = %s Hz" % freq)
        for i in range(n):
            kind = r.random()
            # a body in free flight stays under gravity's control: it must come back
            cap = 0.5 * float(masses[i]) * float(g) if flying else None
            if kind < 0.35:
                fs[i] = num(r.uniform(-1, 1) * (cap or 20))
                lines.append("force F%d: on B%d = %s N * sin(2*pi*f*t)" % (i, i, fs[i]))
            elif kind < 0.6:
                f0[i] = num(r.uniform(-1, 1) * (cap or 10))
                lines.append("force F%d: on B%d = %s N" % (i, i, f0[i]))
        # the motion between contacts: an oscillation about the static
        # equilibrium xe (or a throw when flying), whose amplitude sets where
        # the stops go, so that contacts happen a few times within the run
        ms = [float(m) for m in masses]
        if flying:
            x0, v0 = [float(num(r.uniform(0.05, 0.6)))], [float(num(r.uniform(-2, 2)))]
            xe, amp = [0.0], [x0[0]]
            wfree = omega if fs[0] != "0" else 0.0
        else:
            fe = [float(f0[i]) - ms[i] * float(g) for i in range(n)]
            xe = solve(K, fe)
            wfree = max(max_rate(K, C, ms), omega if any(x != "0" for x in fs) else 0.0)
            a = [r.uniform(0.05, 0.5) for _ in range(n)]
            x0 = [float(num(xe[i] + r.uniform(-1, 1) * a[i])) for i in range(n)]
            v0 = [float(num(r.uniform(-1, 1) * a[i] * max(1.0, wfree / 2))) for i in range(n)]
            w0 = [math.sqrt(K[i][i] / ms[i]) for i in range(n)]
            amp = [math.hypot(x0[i] - xe[i], v0[i] / w0[i]) for i in range(n)]
        self.wfree = wfree
        contacts, cols = [], ["B%d.x" % i for i in range(n)]

        def law(name, mred):
            if r.random() < 0.3:
                e = num(r.choice([0, 1, r.uniform(0, 1), r.uniform(0.5, 1)]))
                return "impact(e = %s)" % e, dict(law="impact", e=e)
            k = num(10 ** r.uniform(4, 14))
            c = "0"
            if r.random() < 0.5:
                c = num(2 * r.uniform(0, 0.4) * math.sqrt(float(k) * mred))
            rel = r.choice(["force", "gap"])
            return ("penalty(k = %s N/m, c = %s N*s/m, release = %s)" % (k, c, rel),
                    dict(law="penalty", k=k, c=c, release=rel))

        def stop(i, side):
            """A stop below (side -1) or above (+1) body i, inside its swing but clear of x0."""
            if flying:
                return num(r.uniform(-0.3, 0.0)) if side < 0 else num(x0[0] + r.uniform(0.05, 0.5))
            d = amp[i] * r.uniform(0.1, 0.7)
            pos = xe[i] + side * d
            if side * (pos - x0[i]) < 0.01:
                pos = x0[i] + side * 0.01
            return num(pos)

        if r.random() < 0.7 or n == 1:
            lo = stop(0, -1)
            text, kw = law("floor", ms[0])
            lines.append("gap floor: B0.x >= %s m, %s" % (lo, text))
            contacts.append(ed.Contact("floor", [1] + [0] * (n - 1), "-" + lo if lo[0] != "-" else lo[1:], **kw))
        if n == 2 and (r.random() < 0.8 or not contacts):
            # B1 - B0 + d >= 0, d chosen inside the relative swing, clear of the start
            rel0, rel_e = x0[1] - x0[0], xe[1] - xe[0]
            d = -(rel_e - math.hypot(amp[0], amp[1]) * r.uniform(0.1, 0.6))
            if rel0 + float(num(d)) < 0.01:
                d = 0.01 - rel0
            d = num(d)
            text, kw = law("C", ms[0] * ms[1] / (ms[0] + ms[1]))
            lines.append("gap C: B1.x - B0.x + %s m >= 0, %s" % (d, text) if d[0] != "-" else
                         "gap C: B1.x - B0.x - %s m >= 0, %s" % (d[1:], text))
            contacts.append(ed.Contact("C", [-1, 1], d, **kw))
        if r.random() < 0.35:
            hi = stop(n - 1, 1)
            text, kw = law("ceiling", ms[-1])
            lines.append("gap ceiling: B%d.x <= %s m, %s" % (n - 1, hi, text))
            contacts.append(ed.Contact("ceiling", [0] * (n - 1) + [-1], hi, **kw))
        self.rates = {}
        for ct in contacts:
            if ct.law == "penalty":
                minv = sum(float(ct.w[i]) ** 2 / ms[i] for i in range(n))
                self.rates[ct.name] = math.sqrt(float(ct.k) * minv)
        for ct in contacts:
            cols += ["%s.gap" % ct.name, "%s.force" % ct.name]
        lines.append("init " + ", ".join("B%d.x = %s m, B%d.v = %s m/s" % (i, num(x0[i]), i, num(v0[i]))
                                         for i in range(n)))
        dt = r.choice([None, None] + [num(10 ** r.uniform(-4, math.log10(2e-2))) for _ in range(4)])
        self.dt = dt
        self.h = float(dt) if dt else 1e-3      # no dt: the documented default step
        lines.append("simulate t_end = %s s%s, method = exact" % (T_END, ", dt = %s s" % dt if dt else ""))
        lines.append("output every 10 ms: " + ", ".join(cols))
        self.text = "\n".join(lines) + "\n"
        self.system = ed.System(masses, K, C, g, f0, fs, omega, contacts)
        self.y0 = [num(x) for x in x0] + [num(v) for v in v0]

    def reference(self):
        """(events, horizon, why) of the independent reference."""
        events, (H, why) = ed.run(self.system, T_END, self.y0)
        return events, H, why

    def condition(self, ref):
        """The condition factor of each reference event (stiff_common.condition):
        the reference run again from the initial state moved by DELTA along
        each coordinate in turn."""
        perturbed = []
        for k in range(len(self.y0)):
            y = [mpf(v) for v in self.y0]
            y[k] += DELTA
            try:
                events, _ = ed.run(self.system, T_END, y)
            except ValueError:
                events = []
            perturbed.append(events)
        return sc.condition(ref, perturbed)


def solve(K, f):
    """x with K x = f (1 or 2 unknowns)."""
    if len(f) == 1:
        return [f[0] / K[0][0]]
    det = K[0][0] * K[1][1] - K[0][1] * K[1][0]
    return [(f[0] * K[1][1] - K[0][1] * f[1]) / det, (K[0][0] * f[1] - K[1][0] * f[0]) / det]


def max_rate(K, C, m):
    """Largest |eigenvalue| of the free motion's matrix (a bound: sqrt of the largest
    row sum of |K|/m plus the largest of |C|/m)."""
    n = len(m)
    kk = max(sum(abs(K[a][b]) for b in range(n)) / m[a] for a in range(n))
    cc = max(sum(abs(C[a][b]) for b in range(n)) / m[a] for a in range(n))
    return math.sqrt(kk) + cc


def check_seed(seed, args, work):
    """Messages for every check the seed's model fails ([] when it passes) and the reference's note."""
    d = Draw(seed)
    try:
        ref, H, why = d.reference()
    except ValueError as e:
        return ["reference: %s" % e], ""
    src = os.path.join(work, "stiff%d.nsm" % seed)
    with open(src, "w") as f:
        f.write(d.text)
    exe, err = sc.build(args, src, work, "stiff%d" % seed)
    if err:
        return [err], ""
    msgs, notes, cond = [], [], None
    for m in sc.METHODS:
        got, accepted = sc.check_run(exe, m, work, "stiff%d" % seed, [], ref, H, d.h, d.wfree, d.rates,
                                     args.strict)
        if got and not args.no_condition:
            # judged again with each event's tolerance grown by its condition
            # factor (measured only here: the factor is >= 1, so a run within
            # the plain tolerances passes either way)
            if cond is None:
                cond = d.condition(ref)
                notes.append("condition factors up to %.3g" % max(cond.values()))
            got, accepted = sc.check_run(exe, m, work, "stiff%d" % seed, [], ref, H, d.h, d.wfree,
                                         d.rates, args.strict, cond)
        if accepted:
            notes.append(accepted)
        if got:
            counts, head = sc.summary(got, 4)
            msgs.append("%s: %s\n      %s" % (m, counts, "\n      ".join(head)))
    note = "%d reference events to t = %s (%s)" % (len(ref), mp.nstr(H, 8), why)
    return msgs, "; ".join([note] + notes)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sc.add_arguments(ap)
    ap.add_argument("--seeds", default="1-40", help="seeds: N, A-B (inclusive), comma-separated")
    ap.add_argument("--no-condition", action="store_true",
                    help="judge with the plain tolerances only (no condition factors)")
    args = ap.parse_args()
    ed.selfcheck()     # the generic reference agrees with the dedicated ones
    seeds = []
    for item in args.seeds.split(","):
        a, _, b = item.partition("-")
        seeds += range(int(a), int(b or a) + 1)
    work = args.keep or tempfile.mkdtemp(prefix="nsm-stiff-")
    os.makedirs(work, exist_ok=True)
    failed = 0
    for seed in seeds:
        msgs, note = check_seed(seed, args, work)
        if msgs:
            failed += 1
            print("FAIL seed %d: %s\n  %s\n--- model:\n%s" % (seed, note, "\n  ".join(msgs), Draw(seed).text))
        else:
            print("ok   seed %d: %s" % (seed, note))
        sys.stdout.flush()
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    print("%d seeds, %d failed" % (len(seeds), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
