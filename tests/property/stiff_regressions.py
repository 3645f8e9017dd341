#!/usr/bin/env python3
"""Stiff contacts with steps far longer than a contact, against independent references.

    stiff_regressions.py --nsmc NSMC --lib LIBNSMCLI:LIBNSMRT[:...] --include DIR [--cases NAME,...]
                         [--keep DIR] [--cc CC] [--cflags="FLAGS"]

Cases (models in tests/property/stiff/):

  ball_penalty_1e10     1 kg ball dropped from 1 m on penalty(k = 1e10 N/m),
                        no dt; every method.
  ball_penalty_gap_5e9  the same with k = 5e9 N/m and release = gap.
  sdnd121_exact_1e-3    code_aster SDND121 (0.39 ms contacts) with exact, --dt 1e-3;
  sdnd121_exact_1e-2    ... exact, --dt 1e-2;
  sdnd121_rk4_2e-4      ... rk4, --dt 2e-4 (beyond rk4's stability in contact);
  sdnd121_rk4_5e-4      ... rk4, --dt 5e-4;
  sdnd121_rk4_2e-4_every1e-2, sdnd121_rk4_5e-4_every0
                        the same with --every 1e-2 and --every 0, so that the
                        0.1 ms output period does not cut rk4's steps.

The balls' reference is the closed form: free fall for t1 = sqrt(2h/g) to
V = g t1, then the contact x'' = -(k/m) x - g from x = 0, x' = -V, which
returns to x = 0 (the force and the penetration vanish together, no damping)
after tau = (2/w)(pi - atan(V w/g)), w = sqrt(k/m), with x' = +V; then a
flight of 2V/g: entries at t1 + n P, exits tau later, P = tau + 2V/g.  It
is cross-checked against the generic event-driven reference
(tests/reference/eventdriven.py) on the first contacts.  SDND121's reference
is tests/reference/data/sdnd121.events.csv (tests/reference/sdnd121.py).
The checks are stiff_common.check_run's: no missed or extra event, every
event within the method's time tolerance, every contact's duration right; an
rk4 run may refuse (exit status 3) once every earlier event is right
(--strict: not even then).
Standard library and mpmath (Debian's python3-mpmath).
"""
import argparse
import csv
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "reference"))

from mpmath import mp, mpf  # noqa: E402

import eventdriven as ed  # noqa: E402
import stiff_common as sc  # noqa: E402

mp.dps = 30
STIFF = os.path.join(HERE, "stiff")
SDND121_EVENTS = os.path.join(HERE, "..", "reference", "data", "sdnd121.events.csv")
SDND121_WFREE = (2e6 / 156) ** 0.5     # sqrt(k_rappel/m) > 2 pi f


def ball_events(m, g, h, k, t_end):
    """Closed-form events of a ball dropped from h on an undamped penalty floor."""
    m, g, h, k, t_end = mpf(m), mpf(g), mpf(h), mpf(k), mpf(t_end)
    w = mp.sqrt(k / m)
    t1 = mp.sqrt(2 * h / g)
    V = g * t1
    tau = 2 / w * (mp.pi - mp.atan(V * w / g))
    P = tau + 2 * V / g
    out, n = [], 0
    while t1 + n * P <= t_end:
        a = t1 + n * P
        out.append((a, "contact_enter", "floor"))
        if a + tau <= t_end:
            out.append((a + tau, "contact_exit", "floor"))
        n += 1
    return out


def ball_crosscheck(k, release):
    """The closed form against the generic event-driven reference on the first contacts."""
    floor = ed.Contact("floor", [1], 0, "penalty", k=k, c=0, release=release)
    system = ed.System([1], [[0]], [[0]], "9.81", [0], [0], 0, [floor])
    got, (H, why) = ed.run(system, "1.5", [1, 0])
    want = ball_events(1, "9.81", 1, k, "1.5")
    if len(got) != len(want) or any(a[1:] != b[1:] or abs(a[0] - b[0]) > mpf("1e-20")
                                     for a, b in zip(got, want)):
        raise AssertionError("ball reference: closed form %s, event-driven %s" % (want, got))


def sdnd121_events():
    with open(SDND121_EVENTS, newline="") as f:
        rows = list(csv.reader(f))
    return [(mpf(r[0]), r[1], r[2]) for r in rows[1:] if r]


def cases():
    """name -> (model file, method, extra arguments, reference events, horizon, h, wfree, rates)."""
    out = {}
    for stem, k, release in (("ball_penalty_1e10", "1e10", "force"), ("ball_penalty_gap_5e9", "5e9", "gap")):
        ball_crosscheck(k, release)
        ref = ball_events(1, "9.81", 1, k, 5)
        for m in sc.METHODS:
            # no dt: the documented default step, 1 ms; free fall is a quadratic,
            # which rk4 integrates exactly
            out["%s_%s" % (stem, m)] = (stem + ".nsm", m, [], ref, 5, 1e-3, 0.0, {"floor": float(k) ** 0.5})
    ref = sdnd121_events()
    # the output period (0.1 ms in the model) cuts the steps: --every 1e-2 and
    # --every 0 (no sampling) let rk4 take its whole step
    for m, dt, every in (("exact", "1e-3", None), ("exact", "1e-2", None), ("rk4", "2e-4", None),
                         ("rk4", "5e-4", None), ("rk4", "2e-4", "1e-2"), ("rk4", "5e-4", "0")):
        name = "sdnd121_%s_%s" % (m, dt) + ("_every%s" % every if every else "")
        extra = ["--dt", dt] + (["--every", every] if every else [])
        out[name] = ("sdnd121.nsm", m, extra, ref, 4, float(dt), SDND121_WFREE, {"stop": (1e10 / 156) ** 0.5})
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sc.add_arguments(ap)
    ap.add_argument("--cases", help="comma-separated case names (default: all)")
    args = ap.parse_args()
    ed.selfcheck()     # the generic reference agrees with the dedicated ones
    table = cases()
    names = args.cases.split(",") if args.cases else list(table)
    for n in names:
        if n not in table:
            print("unknown case %s; cases: %s" % (n, ", ".join(table)), file=sys.stderr)
            return 2
    work = args.keep or tempfile.mkdtemp(prefix="nsm-stiff-")
    os.makedirs(work, exist_ok=True)
    built, failed = {}, 0
    for name in names:
        model, method, extra, ref, H, h, wfree, rates = table[name]
        if model not in built:
            built[model] = sc.build(args, os.path.join(STIFF, model), work, model[:-4])
        exe, err = built[model]
        msgs, accepted = [err] if err else [], None
        if exe:
            msgs, accepted = sc.check_run(exe, method, work, name, extra, ref, H, h, wfree, rates,
                                          args.strict)
        cmd = "%s --method %s %s" % (os.path.join("tests/property/stiff", model), method, " ".join(extra))
        if msgs:
            failed += 1
            counts, head = sc.summary(msgs)
            print("FAIL %s (%s): %s\n  %s" % (name, cmd.strip(), counts, "\n  ".join(head)))
        else:
            print("ok   %s (%s): %d reference events%s" % (name, cmd.strip(), len(ref),
                                                          "; " + accepted if accepted else ""))
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    print("%d cases, %d failed" % (len(names), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
