#!/usr/bin/env python3
"""Self-test of validate.py on synthetic simulators.

A fake simulator (this file run with --fake) speaks the command line of a
generated simulator and writes a reference's own events and samples in the
simulator's CSV formats, either untouched or with one defect: an event time
shifted (also within and beyond a reference's input rounding shift), an
event dropped, added or reclassified, a position perturbed, a
Zeno cascade cut short, a spurious zero-impulse impact, an unbalanced energy
column, a wrong plastic loss.  validate.py must pass the untouched copies and
fail every defect, naming it.  code_aster's SDND121 metrics are checked on a
closed-form forced oscillator.  Exit status 0 when all hold; prints
'N passed, N failed'.
"""
import argparse
import contextlib
import io
import math
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import validate  # noqa: E402


def fake(argv):
    """The fake simulator: reads FAKE_CASE and FAKE_DEFECT from the environment."""
    ap = argparse.ArgumentParser()
    for o in ("--method", "--t-end", "--every", "--out", "--events", "--dt"):
        ap.add_argument(o)
    ap.add_argument("--set", action="append")
    a = ap.parse_args(argv)
    validate.edge_cases()
    case = validate.CASES[os.environ["FAKE_CASE"]]
    defect = os.environ.get("FAKE_DEFECT", "")
    ref_ev, ref_sm = validate.reference(case, os.path.dirname(a.out))
    names, rows = validate.read_table(ref_sm)
    evs = validate.read_events(ref_ev)
    cmap = case.get("contact_map", {})
    bmap = case.get("body_map", {})
    evs = [[t, k, cmap.get(c, c), d["t"]] for t, k, c, d in evs]
    if case.get("initial"):
        evs.insert(0, [0.0, "stick", case["initial"][0][1], "0"])
    if defect == "shift":
        evs[1][0] += 2e-9
        evs[1][3] = repr(evs[1][0])
    elif defect == "drop":
        del evs[1]
    elif defect == "extra":
        evs.insert(2, [evs[1][0] + 1e-3, "impact", evs[1][2], repr(evs[1][0] + 1e-3)])
    elif defect == "kind":
        evs[1][1] = "stick" if evs[1][1] != "stick" else "separation"
    elif defect == "no_initial":
        del evs[0]
    elif defect in ("zeno_late", "zeno_too_late"):
        # the Zeno point within twice the reference's input rounding shift
        # (6.8e-12 s on two_mass_b), or beyond it
        dt = 1.2e-11 if defect == "zeno_late" else 1.6e-11
        for e in evs:
            if e[1] in ("zeno", "stick") and abs(e[0] - 4.8117) < 1e-3:
                e[0] += dt
                e[3] = repr(e[0])
    elif defect in ("zeno", "zeno_spurious"):
        # keep the first 5 impacts of the cascade, summarise the rest
        z = next(i for i, e in enumerate(evs) if e[1] == "zeno")
        evs = evs[:5] + evs[z:]
        if defect == "zeno_spurious":
            evs.insert(3, [evs[2][0], "bogus", evs[2][2], evs[2][3]])
    with open(a.events, "w") as f:
        f.write("t,kind,contact,vrel_before,vrel_after,impulse,energy_lost,count\n")
        for t, k, c, text in evs:
            if k == "bogus":
                f.write("%s,impact,%s,0.5,0.5,0,0,1\n" % (text, c))
                continue
            lost = 0.5 * 2.5 * 4.0 if k == "impact" else 0.0
            if defect == "plastic_wrong":
                lost *= 1.001
            if k == "impact":
                f.write("%s,%s,%s,-2,0,5,%.17g,1\n" % (text, k, c, lost))
            else:
                f.write("%s,%s,%s,0,0,0,0,1\n" % (text, k, c))
    cols = [i for i, n in enumerate(names) if n.endswith(".x") or n.endswith(".v")]
    with open(a.out, "w") as f:
        head = ["t [s]"] + ["%s%s [%s]" % (bmap.get(names[i][:-2], names[i][:-2]), names[i][-2:],
                                           "m" if names[i].endswith(".x") else "m/s") for i in cols]
        head += ["%s [%s]" % (c, "" if c == "energy.error" else "J") for c in validate.ENERGY_COLS]
        f.write(",".join(head) + "\n")
        running = 0.0
        for n, r in enumerate(rows):
            vals = [r[i] for i in cols]
            if defect == "position" and n == len(rows) // 2:
                vals[0] += 1e-8 * max(abs(x[cols[0]]) for x in rows)
            # a synthetic balance: kinetic + potential = 10 + injected - dissipated
            kin, pot, inj, diss = 3.0 + n, 7.0 - n + 0.5 * n, 0.5 * n + 1.0, 1.0
            err = 10.0 + inj - diss - kin - pot
            if defect == "energy" and n == 3:
                kin += 1e-6
                err -= 1e-6
            # energy.error is relative to the largest energy met so far
            running = max(running, 10.0, abs(kin), abs(pot), abs(inj), abs(diss))
            err /= running
            f.write(",".join("%.17g" % x for x in [r[0]] + vals + [kin, pot, diss, inj, err]) + "\n")
    return 0


def run(case, defect, extra):
    """Runs validate.py on the fake simulator; returns (exit status, output)."""
    os.environ["FAKE_CASE"] = case
    os.environ["FAKE_DEFECT"] = defect
    work = tempfile.mkdtemp(prefix="nsm-selftest-")
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        rc = validate.main(["--case", case, "--sim", os.path.abspath(__file__), "--method", "exact",
                            "--workdir", work] + extra)
    return rc, buf.getvalue()


EXACT = ["--event-tol", "1e-12", "--pos-tol", "1e-10"]

TESTS = [
    # (case, defect, extra options, must pass, text the failure must show)
    ("two_mass_c", "", EXACT, True, None),
    ("two_mass_c", "shift", EXACT, False, "event times outside"),
    ("two_mass_c", "drop", EXACT, False, "- missing"),
    ("two_mass_c", "extra", EXACT, False, "+ extra"),
    ("two_mass_c", "kind", EXACT, False, "first difference at event #1"),
    ("two_mass_c", "position", EXACT, False, "M1.x: relative error"),
    ("two_mass_a", "", EXACT, True, None),
    ("two_mass_a", "no_initial", EXACT, False, "initial 'stick C'"),
    ("sdnd108b_gap", "", EXACT, True, None),
    ("sdnd108b_gap", "kind", EXACT, False, "first difference"),
    ("zeno_ball", "zeno", EXACT, True, None),
    ("zeno_ball", "zeno_spurious", EXACT, False, "is not an impact"),
    ("two_mass_b", "", EXACT, True, None),
    ("two_mass_b", "zeno_late", EXACT, True, None),
    ("two_mass_b", "zeno_too_late", EXACT, False, "twice the input rounding shift"),
    ("two_gaps", "", EXACT, True, None),
    ("two_gaps", "drop", EXACT, False, "- missing"),
    ("closed_stuck", "", EXACT, True, None),
    ("closed_stuck", "kind", EXACT, False, "first difference"),
    ("two_mass_c", "", EXACT + ["--energy-tol", "1e-10"], True, None),
    ("two_mass_c", "energy", EXACT + ["--energy-tol", "1e-10"], False, "energy balance error"),
    ("two_mass_c", "", ["--plastic", "1e-12"], True, None),
    ("two_mass_c", "plastic_wrong", ["--plastic", "1e-6"], False, "energy_lost"),
]


def aster_cases():
    """code_aster's metrics on a closed-form forced oscillator sampled every 4e-6 s.

    x = A (sin wt - (w/w0) sin w0 t) solves m x'' + k x = F0 sin wt from rest:
    E_tot follows E_inj up to the Riemann sum (energy error far under 0.1 %),
    and a force column equal to k_choc p gives a zero force error.  A 1 %
    error on v, or a 1e-6 relative error on the force, must show."""
    m, k, F0, f = 156.0, 2e6, 3000.0, 5.0
    w, w0 = 2 * math.pi * f, math.sqrt(k / m)
    A = F0 / (k - m * w * w)
    names = ["t", "M.x", "M.v", "stop.force"]
    out = []
    # (v scale, force scale, jeu, text the failure must show or None to pass)
    for vscale, fscale, jeu, text in ((1.0, 1.0, 1.0, None), (1.01, 1.0, 1.0, "energy error"),
                                      (1.0, 1 + 1e-6, 1e-3, "force/kinematics error")):
        p = dict(m=m, k=k, kc=1e10, jeu=jeu, F0=F0, f=f)
        rows = []
        for i in range(50001):
            t = i * 4e-6
            x = A * (math.sin(w * t) - w / w0 * math.sin(w0 * t))
            v = A * w * (math.cos(w * t) - math.cos(w0 * t)) * vscale
            rows.append([t, x, v, fscale * p["kc"] * max(x - p["jeu"], 0.0)])
        res = {}
        ok, msgs = validate.aster_metrics(names, rows, p, res, 0.1, 1e-8)
        good = ok if text is None else (not ok and any(text in mm for mm in msgs))
        out.append(("aster v x %g, force x %g" % (vscale, fscale), good,
                    "energy %.3g %%, force %.3g %%" % (res["aster"]["energy_error_pct"],
                                                       res["aster"]["force_error_pct"])))
    return out


def main():
    passed = failed = 0
    for what, good, info in aster_cases():
        if good:
            passed += 1
            print("ok   %-28s %s" % (what, info))
        else:
            failed += 1
            print("FAIL %-28s %s" % (what, info))
    for case, defect, extra, must_pass, text in TESTS:
        rc, out = run(case, defect, extra)
        good = (rc == 0) == must_pass and (text is None or text in out)
        what = "%s/%s" % (case, defect or "identical")
        if good:
            passed += 1
            print("ok   %-28s %s" % (what, "passes" if must_pass else "fails as it must"))
        else:
            failed += 1
            print("FAIL %-28s exit %d, expected %s%s\n%s" % (what, rc, "pass" if must_pass else "failure",
                                                            "" if text is None else " showing '%s'" % text, out))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] != "--selftest":
        sys.exit(fake(sys.argv[1:]))
    sys.exit(main())
