#!/usr/bin/env python3
"""Generates docs/validation.md from the JSON summaries of a validation run.

    make_doc.py JSON_DIR OUT.md
    make_doc.py --check JSON_DIR DOC.md [IDS]

--check compares DOC.md with what the script makes (the test
validation.doc): every line the same, but for the numbers of the tables'
rows, which a run on another machine may print with other last digits.  A
section written into the document by hand, and not into the texts below,
makes it fail: the next generation would drop it.  IDS: a file of the
summaries to read, one name a line (validate.CASE.METHOD[.TAG]'s
CASE.METHOD[.TAG]); the others in JSON_DIR, of tests since removed, are
left out.

JSON_DIR holds the files validate.py writes with --json (the ctest tests
write them into <build>/validation).  One table per benchmark: each quantity, its reference
value, the value nsm computes with each method and the error; then the
energy balance of every model, code_aster's SDND121 metrics and the plastic
impacts.  The hand-written texts next to this script are included:
notes_benchmarks.md after the benchmarks' tables (the studies whose tables
are written by hand), notes.md at the end.  Nothing else in the output is
typed by hand.
"""
import glob
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
METHODS = ["exact", "rk4", "adaptive"]


def load(d, only=None):
    """All summaries: {case: {method: summary}} plus energy-only, aster and
    plastic runs; only those named in the set only, when given."""
    cases, energy, extra = {}, [], []
    for path in sorted(glob.glob(os.path.join(d, "*.json"))):
        if only is not None and os.path.basename(path)[:-len(".json")] not in only:
            continue
        with open(path) as f:
            r = json.load(f)
        r["file"] = os.path.basename(path)
        parts = r["file"].split(".")
        tagged = len(parts) > 3
        if r.get("energy_only"):
            energy.append(r)
        elif "aster" in r or "plastic" in r or "conserved" in r or tagged:
            extra.append(r)
        else:
            cases.setdefault(r["case"], {})[r["method"]] = r
    return cases, energy, extra


def g(x, digits=16):
    """A number with the given significant digits, or a dash."""
    if x is None:
        return "–"
    if isinstance(x, str):
        return x
    return "%.*g" % (digits, x)


def e(x):
    """An error in two digits, or a dash."""
    if x is None:
        return "–"
    return "%.1e" % x if x else "0"


def status(r):
    """Whether a run's test passes."""
    return "test passes" if r["pass"] else "TEST FAILS"


def key_events(runs):
    """The events shown for a case: the first three, every non-impact one (at most eight), the last."""
    base = None
    for m in METHODS:
        if m in runs and runs[m].get("event_pairs"):
            base = runs[m]["event_pairs"]
            break
    if not base:
        return []
    keys = []
    for i, p in enumerate(base):
        if i < 3 or i == len(base) - 1:
            keys.append((p[0], p[1]))
    others = [(p[0], p[1]) for p in base if not p[0].startswith("impact")]
    for k in others[:8]:
        if k not in keys:
            keys.append(k)
    order = {(p[0], p[1]): i for i, p in enumerate(base)}
    return sorted(keys, key=lambda k: order[k])


def case_table(name, runs):
    """Markdown for one benchmark."""
    any_run = next(iter(runs.values()))
    methods = [m for m in METHODS if m in runs]
    out = ["### %s" % any_run.get("title", name), ""]
    out.append("Case `%s`, run to t = %s s." % (name, g(any_run.get("t_end"), 6)))
    for m in methods:
        r = runs[m]
        tol = []
        if r.get("events", {}).get("tol") is not None:
            floored = r["events"].get("floored")
            tol.append("event times %s s%s" % (g(r["events"]["tol"], 3),
                                               " (%d events: twice their input rounding shift)" % floored
                                               if floored else ""))
        if r.get("samples", {}).get("tol") is not None:
            tol.append("positions %s relative" % g(r["samples"]["tol"], 3))
        out.append("- %s: `%s`; tolerances: %s; %s." % (m, r.get("command", ""), ", ".join(tol) or "none",
                                                       status(r)))
    out.append("")
    head = "| quantity | reference |" + "".join(" nsm %s | error |" % m for m in methods)
    out += [head, "|---|---|" + "---|---|" * len(methods)]
    pairs = {m: {(p[0], p[1]): p for p in runs[m].get("event_pairs", [])} for m in methods}
    for k in key_events(runs):
        row = "| t(%s) [s] | %s |" % (k[0], k[1])
        for m in methods:
            p = pairs[m].get(k)
            row += " %s | %s |" % (g(p[2], 17) if p else "–", e(p[3]) if p else "–")
        out.append(row)
    finals = {m: runs[m].get("final", []) for m in methods}
    nfin = max(len(v) for v in finals.values()) if finals else 0
    for i in range(nfin):
        ref = next((finals[m][i] for m in methods if i < len(finals[m])), None)
        row = "| %s [m] | %s |" % (ref["name"], g(ref["ref"], 16))
        for m in methods:
            f = finals[m][i] if i < len(finals[m]) else None
            if f and f.get("sim") is not None:
                row += " %s | %s |" % (g(f["sim"], 12), e(abs(f["sim"] - f["ref"])))
            else:
                row += " – | – |"
        out.append(row)
    row = "| number of events compared | %s |" % g(any_run.get("events", {}).get("n_ref"))
    for m in methods:
        ev = runs[m].get("events", {})
        row += " %s | %s |" % (g(ev.get("n_sim")), "same sequence" if ev.get("sequence_ok") else "DIFFERENT")
    out.append(row)
    row = "| largest event time error [s] | 0 |"
    for m in methods:
        ev = runs[m].get("events", {})
        w = ev.get("worst") or {}
        row += " %s | %s |" % (("at " + w["label"] + " t = " + g(w["ref"], 10)) if w else "–", e(ev.get("max_err")))
    out.append(row)
    row = "| largest position error (relative) | 0 |"
    for m in methods:
        sm = runs[m].get("samples", {})
        row += " %s samples | %s |" % (g(sm.get("n")), e(sm.get("max_rel_err")))
    out.append(row)
    folded = [runs[m]["events"].get("zeno_folded") for m in methods if runs[m].get("events", {}).get("zeno_folded")]
    out.append("")
    if folded:
        out.append("The reference resolves a Zeno cascade impact by impact until flights are shorter "
                   "than 1e-20 s; nsm's `zeno` event summarises the tail (reference impacts folded "
                   "into it: %s)." % ", ".join("%s %s" % (m, runs[m]["events"]["zeno_folded"])
                                                for m in methods if runs[m].get("events", {}).get("zeno_folded")))
        out.append("")
    for m in methods:
        for msg in runs[m].get("messages", [])[:6]:
            out.append("    %s: %s" % (m, msg))
    if any(runs[m].get("messages") for m in methods):
        out.append("")
    return out


# The order of a model's energy rows: its default method first.
ENERGY_METHODS = ["exact", "taylor", "rk4", "adaptive"]


def method_label(r):
    """A run's method as the energy table names it: an adaptive run given a
    largest step says which (--dt 1e-4: "adaptive (largest step 0.1 ms)")."""
    if r["method"] != "adaptive" or not r.get("dt"):
        return r["method"]
    dt = float(r["dt"])
    step = "%s ms" % g(dt * 1e3, 6) if dt < 1 else "%s s" % g(dt, 6)
    return "adaptive (largest step %s)" % step


def energy_order(r):
    """The energy table's sort key: model, method (ENERGY_METHODS), settings."""
    m = r["method"]
    rank = ENERGY_METHODS.index(m) if m in ENERGY_METHODS else len(ENERGY_METHODS)
    return (r["case"], rank, m, tuple(r.get("set", [])))


def energy_table(energy):
    """The energy balance of every model."""
    out = ["## Energy balance", "",
           "Every model (its output list extended with the five energy columns), method `exact`, "
           "`taylor` for the nonlinear ones and the bodies in space (the tippe top by adaptive "
           "too), to the model's own end time. Error: the largest |energy.error| over the run, relative "
           "to the largest of |kinetic|, |potential|, |dissipated|, |injected|; the error column "
           "is also checked against E0 + injected - dissipated - kinetic - potential.", "",
           "| model | method | end time [s] | energy scale [J] | largest balance error | tolerance | status |",
           "|---|---|---|---|---|---|---|"]
    for r in sorted(energy, key=energy_order):
        en = r.get("energy", {})
        name = r["case"] + ("" if not r.get("set") else " (" + ", ".join(r["set"]) + ")")
        out.append("| %s | %s | %s | %s | %s | %s | %s |" % (
            name, method_label(r), g(r.get("t_end"), 6), g(en.get("scale"), 6), e(en.get("max_rel_err")),
            g(en.get("tol"), 3), status(r)))
    out.append("")
    return out


def extra_tables(extra):
    """e = 1 conservation, code_aster's metrics and the plastic impacts."""
    out = []
    cons = [r for r in extra if "conserved" in r]
    if cons:
        out += ["## e = 1: nothing lost over 1000 impacts", "",
                "The ball of e1_thousand (bouncing_ball with e = 1, to 903 s) must keep its "
                "kinetic + potential energy (m g h = 9.81 J) over its 1000 impacts, within rounding. "
                "The energy columns are printed with 12 digits, so 2e-12 (relative) is the rounding "
                "level of the output, the tolerance of every method (exact keeps its state in long "
                "double between events and through the impacts, so rounding does not build up with "
                "the 9.04e5 steps and 1000 impacts).", "",
                "| method | impacts | largest change of kinetic + potential (relative) | at t [s] | "
                "loss logged by the impacts [J] | tolerance | status |",
                "|---|---|---|---|---|---|---|"]
        for r in cons:
            c = r["conserved"]
            out.append("| %s | %s | %s | %s | %s | %s | %s |" % (r["method"], c["impacts"], e(c["max_rel_change"]),
                                                              g(c["t"], 6), g(c["logged_loss"], 3),
                                                              g(c["tol"], 3), status(r)))
        out.append("")
    work = [r for r in extra if "work" in r]
    if work:
        out += ["## Work of moving surfaces", "",
                "A moving surface does work on the bodies through its contact force and its "
                "impulses (energy.md). The energy columns `injected` (the surface's work) and "
                "`dissipated` (the impacts' losses) against the reference's, at every sample time, "
                "relative to the largest energy of the run; the balance itself as in the table "
                "above.", "",
                "| case | method | largest error (relative) | tolerance | balance error | status |",
                "|---|---|---|---|---|---|"]
        for r in sorted(work, key=lambda r: (r["case"], r["method"])):
            w = r["work"]
            out.append("| %s | %s | %s | %s | %s | %s |" % (r["case"], r["method"], e(w["max_rel_err"]),
                                                         g(w["tol"], 3),
                                                         e(r.get("energy", {}).get("max_rel_err")),
                                                         status(r)))
        out.append("")
    for r in extra:
        if "aster" in r:
            a = r["aster"]
            out += ["## code_aster's SDND121 metrics", "",
                    "Computed from the trajectory sampled at every step (`%s`), exactly as code_aster "
                    "defines them: E_tot = m v^2/2 + k x^2/2 + k_choc p^2/2, E_inj = sum f_j v_j dt, "
                    "energy error = 100 sqrt(sum (E_tot - E_inj)^2 / sum E_inj^2), force error = "
                    "100 sqrt(sum (F_choc - k_choc p)^2 / sum (k_choc p)^2)." % r.get("command", ""), "",
                    "| metric | code_aster's tolerance | nsm %s | status |" % r["method"],
                    "|---|---|---|---|",
                    "| global energy error [%%] | %s | %s | %s |" % (g(a["tol_energy_pct"], 3),
                                                                   g(a["energy_error_pct"], 4), status(r)),
                    "| force/kinematics error [%%] | %s | %s | %s |" % (g(a["tol_force_pct"], 3),
                                                                      g(a["force_error_pct"], 4), status(r)),
                    ""]
        if "plastic" in r:
            p = r["plastic"]
            out += ["## Energy lost in plastic impacts (%s)" % r["case"], "",
                    "Each impact with e = 0 must lose the kinetic energy of the relative motion, "
                    "m1 m2/(2 (m1 + m2)) dv^2 (`%s`)." % r.get("command", ""), "",
                    "| t [s] | dv [m/s] | expected [J] | energy_lost logged [J] | relative error |",
                    "|---|---|---|---|---|"]
            for i in p["impacts"]:
                out.append("| %s | %s | %s | %s | %s |" % (g(i["t"], 15), g(i["dv"], 12), g(i["expected"], 12),
                                                         g(i["logged"], 12), e(i["rel_err"])))
            out.append("")
    return out


def hand_written(name):
    """The lines of a hand-written text next to this script, with the blank
    line that ends a part of the document."""
    with open(os.path.join(HERE, name)) as f:
        return [f.read().rstrip("\n"), ""]


NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def masked(line):
    """A line as --check compares it: a table row's numbers replaced by #."""
    return NUMBER.sub("#", line) if line.startswith("|") else line


def check(generated, path):
    """0 when the document at path is the generated text (tables' numbers
    aside), else 1 after naming the first line that differs."""
    with open(path) as f:
        doc = f.read().split("\n")
    gen = generated.split("\n")
    for i in range(max(len(doc), len(gen))):
        a = doc[i] if i < len(doc) else "(end of file)"
        b = gen[i] if i < len(gen) else "(end of file)"
        if masked(a) != masked(b):
            sys.stderr.write("make_doc: %s:%d is not what the script makes of the summaries (a part "
                             "written by hand belongs in tests/validate/notes_benchmarks.md or "
                             "notes.md; a table that differs, in make_doc.py)\n  document: %s\n  generated: %s\n"
                             % (path, i + 1, a[:300], b[:300]))
            return 1
    print("make_doc: %s is what the script makes of the summaries" % path)
    return 0


def main(argv):
    """Reads the summaries, writes the document (or checks it, --check)."""
    checking = len(argv) in (4, 5) and argv[1] == "--check"
    only = None
    if checking:
        argv = argv[1:]
        if len(argv) == 4:
            with open(argv.pop()) as f:
                only = {line.strip() for line in f if line.strip()}
    if len(argv) != 3:
        sys.stderr.write("usage: make_doc.py [--check] JSON_DIR OUT.md [IDS]\n")
        return 1
    cases, energy, extra = load(argv[1], only)
    if not cases and not energy:
        sys.stderr.write("make_doc: no JSON summaries in %s (run ctest -L validation first)\n" % argv[1])
        return 1
    out = ["# Validation", "",
           "<!-- Generated by tests/validate/make_doc.py from a run of the validation tests "
           "(`cmake --build BUILD --target validation_doc`); do not edit by hand. The hand-written "
           "parts come from tests/validate/notes_benchmarks.md (after the benchmarks' tables) and "
           "tests/validate/notes.md (the notes at the end). -->", "",
           "Every benchmark is simulated by its generated simulator and compared with a reference "
           "computed independently of nsm: closed-form piecewise solutions evaluated with mpmath to "
           "50-60 digits (tests/reference, see its README), or for the edge cases exact rational "
           "closed forms (tests/validate/edge_refs.py). Event times are compared after checking that "
           "both logs hold the same events in the same order, of the same kind, on the same contact; "
           "positions at the reference's sample times, relative to the largest magnitude of that "
           "position over the run. Errors are absolute times in seconds and relative positions; the "
           "event time tolerances are absolute up to t = 1 s and relative beyond. "
           "Trajectories are printed with 12 significant digits, so position errors below about "
           "5e-12 are not resolved.", "",
           "Where a reference lists an input rounding shift (how far an event moves when the printed "
           "initial state is rounded to double; two_mass_b's near-graze and Zeno cascade move by up "
           "to 6.8e-12 s), the tolerance of that event is twice the shift if that is larger: no "
           "double-precision simulator can be held closer to the decimal problem.", "",
           "## Benchmarks", ""]
    order = ["two_mass_a", "two_mass_b", "two_mass_c", "sdnd121", "sdnd108a_force", "sdnd108a_gap",
             "sdnd108b_force", "sdnd108b_gap", "sdld29", "sdnd101", "zeno_ball", "bouncing_ball",
             "impacting_oscillator", "ball_two_contacts", "e1_thousand", "closed_stuck", "closed_free",
             "time_impact", "two_gaps", "tend_impact", "start_impact", "pulse", "vibrating_table",
             "vibrating_table_generic", "moving_wall"]
    for name in sorted(cases, key=lambda c: (order.index(c) if c in order else 99, c)):
        out += case_table(name, cases[name])
    out += hand_written("notes_benchmarks.md")
    out += energy_table(energy) if energy else []
    out += extra_tables(extra)
    out += hand_written("notes.md")
    if checking:
        return check("\n".join(out), argv[2])
    with open(argv[2], "w") as f:
        f.write("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
