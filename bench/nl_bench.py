#!/usr/bin/env python3
"""Benchmark of nsm's taylor method on nonlinear models against CVODE and
SciPy (not a test: nothing is asserted).

    python3 bench/nl_bench.py [--build DIR] [--work DIR] [--reps N] [--scipy-reps N]
                              [--quick] [--callgrind] [--markdown FILE] [--update-doc]

Three problems (issue 23, "Speed"), each written for every tool:
  pendulum  theta'' = -9.81 sin(theta) from 1 rad at rest, a wall at
            theta = -0.3 rad, e = 0.8, 10 s (7 impacts);
  duffing   x'' + 0.1 x' + x + 0.5 x^3 = 1.2 cos(1.3 t) from rest at 0, a
            stop at x = 0.9, e = 0.8, 20 s (4 impacts);
  rocking_reduced  Housner's rocking block (b = 0.2 m, h = 0.5 m, from
            0.1 rad at rest) as the one-coordinate equation phi'' =
            -(3g/4R) sin(alpha - phi), phi = |theta|, with Housner's
            ratio 23/29 as the restitution at phi = 0, 1.5 s (9 impacts):
            nsm on bench/models_nl/rocking_reduced.nsm, the peers on the
            same equation (their case "rocking").
And, nsm alone (taylor and adaptive), the full three-coordinate
models/rocking_block.nsm (case rocking: two curved frictional corners,
36 events): what the block costs as written; its impacts must agree with
the reduced equation's to 1e-12 s (checked, reported).
- nsm: the hand-written models of bench/models_nl/ (in the model table of
  runtime/include/nsm/model.h: nl_force and nl_series, written before nsmc
  compiled nonlinear models and kept as a baseline), timed in process through the C API by
  bench/models_nl/nl_api.c with method taylor, no dt, audit off (and, for
  comparison, with the adaptive method at its default tolerances); and,
  when build-bench's nsmc compiles nonlinear models, the simulators it
  generates from bench/models_nl/pendulum.nsm and duffing.nsm (the same
  problems in the .nsm language), run by the same program (-DNL_GENERATED).
- CVODE (bench/cvode_nl_peer.c, SUNDIALS 6): rootfinding with direction -1,
  CVodeReInit after each impact, Adams with fixed-point iteration.
- SciPy (bench/scipy_nl_peer.py): solve_ivp(method="DOP853") with a
  terminal event, called again after each impact.
Both peers put the state exactly on the wall at an impact and apply
Newton's law, as the runtime does.

References: the pendulum's impact times in closed form (elliptic
integrals, tests/nonlinear/refs.py pendulum_wall, 30 digits); the Duffing
stop's by mpmath's Taylor integrator at 30 digits (refs.py duffing_stop),
about 3 minutes, computed once and cached in WORK/duffing_stop.ref.csv.
Events are matched in order; the error is max |t - t_ref| over them.

CVODE and SciPy are run at rtol = atol = 1e-6, 1e-7, ..., 1e-13 (a few
repetitions each); the loosest tolerance whose events are all within
1e-10 s of the reference is then timed with the full repetitions next to
nsm's taylor.  Times: each program times its own runs (creation,
integration, events, freeing), median of the repetitions, wall
(CLOCK_MONOTONIC / perf_counter) and CPU time of the process (the figure
to trust on a loaded machine).  --callgrind adds the instructions executed
in one run (valgrind --tool=callgrind, counted inside the programs'
bench_case only) for nsm and CVODE, and nsm's costliest functions.

Builds libnsmrt in DIR (default build-bench/ at the top of the tree, as
bench/run_bench.py: configured Release when it does not exist yet; target
nsmrt only) when DIR/libnsmrt.a is missing; the programs, event files and
the cached reference go to WORK (default build-nlbench/).  --update-doc
writes the tables into docs/performance.md between the markers
<!-- begin: nl_bench.py --> and <!-- end: nl_bench.py -->.
"""
import argparse
import datetime
import decimal
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "nonlinear"))
CC = os.environ.get("CC", "cc")
CASES = ["pendulum", "duffing", "rocking_reduced", "rocking"]
HANDWRITTEN = ("pendulum", "duffing")   # the rocking block: only generated simulators
PEERLESS = ("rocking",)                 # the full block: nsm only (the peers' is the reduced one)
PEER_CASE = {"rocking_reduced": "rocking"}   # the peers' name of the same problem
LABEL = {"pendulum": "impact pendulum (10 s)", "duffing": "Duffing stop (20 s)",
         "rocking_reduced": "rocking block, reduced equation (1.5 s)",
         "rocking": "rocking block, full model (1.5 s)"}
SAME_IMPACTS = 1e-12                    # the reduced and full rocking models' impacts
TOLS = [10.0 ** -k for k in range(6, 14)]
TARGET_PEER = 1e-10
TARGET_NSM = 1e-13
BEGIN = "<!-- begin: nl_bench.py -->"
END = "<!-- end: nl_bench.py -->"
DUFFING_ARGS = dict(k=1, c=0.1, alpha=0.5, F=1.2, w=1.3, xs=0.9, e=0.8, x0=0, v0=0, t_end=20)


def log(msg):
    print("nl_bench: " + msg, file=sys.stderr, flush=True)


def run(cmd, **kw):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
    if p.returncode != 0:
        raise SystemExit("nl_bench: %s failed (%d):\n%s" % (" ".join(cmd), p.returncode, p.stderr))
    return p.stdout


def build(a):
    lib = os.path.join(a.build, "libnsmrt.a")
    nsmc = os.path.join(a.build, "nsmc")
    if not os.path.exists(lib) or not os.path.exists(nsmc):
        if not os.path.exists(os.path.join(a.build, "CMakeCache.txt")):
            run(["cmake", "-S", ROOT, "-B", a.build, "-DCMAKE_BUILD_TYPE=Release"])
        log("building libnsmrt and nsmc in %s" % a.build)
        run(["cmake", "--build", a.build, "-j", "2", "--target", "nsmrt", "nsmc"])
    os.makedirs(a.work, exist_ok=True)
    inc = os.path.join(ROOT, "runtime", "include")
    m = os.path.join(ROOT, "bench", "models_nl")
    api = os.path.join(a.work, "nl_api")
    red = os.path.join(a.work, "rocking_reduced.c")
    run([nsmc, os.path.join(m, "rocking_reduced.nsm"), "-o", red])
    rock = [os.path.join(ROOT, "generated", "rocking_block.c"), red]
    run([CC, "-O2", "-std=c11", "-g", "-DNSM_NO_MAIN", "-I" + inc, os.path.join(m, "nl_api.c"),
         os.path.join(m, "pendulum_wall.c"), os.path.join(m, "duffing_stop.c")] + rock + [lib, "-lm",
         "-o", api])
    gen = os.path.join(a.work, "nl_api_gen")
    srcs = []
    for name in ("pendulum", "duffing"):
        model = os.path.join(m, name + ".nsm")
        c = os.path.join(a.work, name + ".c")
        p = subprocess.run([nsmc, model, "-o", c], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if p.returncode != 0 or not os.path.exists(model):
            log("nsmc does not compile %s (%s): the generated simulators are left out"
                % (model, p.stderr.strip().splitlines()[-1] if p.stderr.strip() else p.returncode))
            gen = None
            break
        srcs.append(c)
    if gen:
        run([CC, "-O2", "-std=c11", "-g", "-DNSM_NO_MAIN", "-DNL_GENERATED", "-I" + inc,
             os.path.join(m, "nl_api.c")] + srcs + rock + [lib, "-lm", "-o", gen])
    cv = os.path.join(a.work, "cvode_nl_peer")
    run([CC, "-O2", "-std=c11", "-g", os.path.join(ROOT, "bench", "cvode_nl_peer.c"),
         "-lsundials_cvode", "-lsundials_nvecserial", "-lm", "-o", cv])
    return api, gen, cv


def scipy_python():
    """An interpreter that imports scipy (Debian's python3-scipy lives in
    /usr/bin/python3's path, not necessarily in the one running this)."""
    for py in (sys.executable, "/usr/bin/python3"):
        if py and os.path.exists(py) and subprocess.run(
                [py, "-c", "import scipy.integrate"], stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL).returncode == 0:
            return py
    return None


def references(work):
    """{case: [reference impact times as Decimal]}."""
    from refs import pendulum_wall
    out = {"pendulum": [decimal.Decimal(str(t)) for t, _, _ in pendulum_wall(9.81, 1, -0.3, 0.8, 10)]}
    cache = os.path.join(work, "duffing_stop.ref.csv")
    key = "# duffing_stop(%s)" % ", ".join("%s=%s" % kv for kv in DUFFING_ARGS.items())
    if not (os.path.exists(cache) and open(cache).readline().strip() == key):
        from refs import duffing_stop
        log("computing the Duffing reference (mpmath, 30 digits: about 3 minutes, once)")
        r = duffing_stop(**DUFFING_ARGS)
        with open(cache, "w") as f:
            f.write(key + "\nt,v_before,v_after\n")
            for t, vb, va in r:
                f.write("%s,%s,%s\n" % (t, vb, va))
    with open(cache) as f:
        out["duffing"] = [decimal.Decimal(l.split(",")[0]) for l in f.read().splitlines()[2:] if l]
    from refs import rocking_block
    out["rocking"] = [decimal.Decimal(str(t)) for t, _, _ in
                      rocking_block("0.2", "0.5", "9.81", "0.1", 12) if t < 1.5]
    out["rocking_reduced"] = out["rocking"]
    return out


def events(path):
    with open(path) as f:
        rows = [l.split(",") for l in f.read().splitlines()[1:] if l]
    return [(decimal.Decimal(r[0]), r[1]) for r in rows]


def compare(ev, ref):
    """(worst |t - t_ref|, index, note): impacts matched in order."""
    kinds = sorted({k for _, k in ev if k != "impact"})
    imp = [t for t, k in ev if k == "impact"]
    worst, at = 0.0, None
    for i, (t, r) in enumerate(zip(imp, ref)):
        d = float(abs(t - r))
        if d >= worst:
            worst, at = d, i
    note = "%d/%d" % (min(len(imp), len(ref)), len(ref))
    if len(imp) != len(ref):
        note += ", %d impacts found" % len(imp)
    if kinds:
        note += ", also " + " ".join(kinds)
    return worst, at, note


def parse(out):
    rows = []
    for l in out.splitlines():
        if l.startswith("#") or not l.strip():
            continue
        f = l.split("\t")
        rows.append(dict(case=f[0], tool=f[1], method=f[2], wall=float(f[3]), wmin=float(f[4]),
                         cpu=float(f[5]), reps=int(f[6]), events=int(f[7]), steps=int(f[8])))
    return rows


def run_tool(tool, exe, case, tol, reps, work, method="taylor"):
    ev_dir = os.path.join(work, "events")
    os.makedirs(ev_dir, exist_ok=True)
    pc = case if tool == "nsm" else PEER_CASE.get(case, case)
    if tool == "nsm":
        cmd = [exe, "--case", case, "--reps", str(reps), "--events", ev_dir, "--method", method]
    elif tool == "cvode":
        cmd = [exe, "--case", pc, "--reps", str(reps), "--events", ev_dir,
               "--rtol", repr(tol), "--atol", repr(tol)]
    else:
        cmd = [exe, os.path.join(ROOT, "bench", "scipy_nl_peer.py"), "--case", pc, "--reps",
               str(reps), "--events", ev_dir, "--rtol", repr(tol), "--atol", repr(tol)]
    r = parse(run(cmd))[0]
    r["tol"] = tol
    r["case"] = case
    r["ev"] = events(os.path.join(ev_dir, "%s.%s.events.csv" % (pc, tool)))
    return r


def callgrind(cmd, work, top=False):
    """Instructions inside bench_case, and with top the costliest functions
    (self, inclusive of nothing) as [(share, name)]."""
    if shutil.which("valgrind") is None:
        return None, []
    out = os.path.join(work, "callgrind.out")
    p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out,
                        "--toggle-collect=bench_case*"] + cmd, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    m = re.search(r"Collected : (\d+)", p.stderr)
    if p.returncode or not m:
        return None, []
    ir, fns = int(m.group(1)), []
    if top and shutil.which("callgrind_annotate"):
        ann = subprocess.run(["callgrind_annotate", out], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True).stdout
        for l in ann.splitlines():
            mm = re.match(r"\s*([\d,]+) \(\s*([\d.]+)%\)\s+\S*?:?([A-Za-z_][\w.]*)", l)
            if mm and "PROGRAM TOTALS" not in l:
                fns.append((float(mm.group(2)), l.split(":")[-1].split()[0] if ":" in l else mm.group(3)))
        fns = fns[:8]
    return ir, fns


def ratio(x):
    return "%.0f" % x if x >= 10 else "%.2g" % x


def fmt_err(e):
    return "0" if e == 0 else "%.1e" % e


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build-bench"))
    ap.add_argument("--work", default=os.path.join(ROOT, "build-nlbench"))
    ap.add_argument("--reps", type=int, default=101, help="nsm's and CVODE's repetitions")
    ap.add_argument("--scipy-reps", type=int, default=11)
    ap.add_argument("--quick", action="store_true", help="fewer repetitions (21, 3; sweep 1)")
    ap.add_argument("--callgrind", action="store_true")
    ap.add_argument("--markdown")
    ap.add_argument("--update-doc", action="store_true")
    a = ap.parse_args()
    a.build, a.work = os.path.abspath(a.build), os.path.abspath(a.work)
    sweep_reps = 1 if a.quick else 3
    if a.quick:
        a.reps, a.scipy_reps = 21, 3
    start = time.time()
    load0 = os.getloadavg()
    api, gen, cv = build(a)
    py = scipy_python()
    if py is None:
        log("no Python with scipy (Debian: apt-get install python3-scipy): SciPy skipped")
    refs = references(a.work)
    tools = [("cvode", cv)] + ([("scipy", py)] if py else [])
    res, sweep = {}, []
    for case in CASES:
        r = run_tool("nsm", api, case, None, a.reps, a.work)
        r["err"] = compare(r["ev"], refs[case])
        res[(case, "nsm" if case in HANDWRITTEN else "nsmc")] = r
        r = run_tool("nsm", api, case, None, a.reps, a.work, "adaptive")
        r["err"] = compare(r["ev"], refs[case])
        res[(case, "nsm adaptive")] = r
        if gen and case in HANDWRITTEN:
            r = run_tool("nsm", gen, case, None, a.reps, a.work)
            r["err"] = compare(r["ev"], refs[case])
            res[(case, "nsmc")] = r
        for tool, exe in ([] if case in PEERLESS else tools):
            chosen = None
            for tol in TOLS:
                s = run_tool(tool, exe, case, tol, sweep_reps, a.work)
                s["err"] = compare(s["ev"], refs[case])
                sweep.append(s)
                ok = len([1 for _, k in s["ev"] if k == "impact"]) == len(refs[case]) and s["err"][0] <= TARGET_PEER
                log("%s %s tol %g: worst event error %.2e, %.3g ms" % (case, tool, tol, s["err"][0], 1e3 * s["cpu"]))
                if ok and chosen is None:
                    chosen = tol
            if chosen is None:
                chosen = TOLS[-1]
            r = run_tool(tool, exe, case, chosen, a.reps if tool == "cvode" else a.scipy_reps, a.work)
            r["err"] = compare(r["ev"], refs[case])
            r["reached"] = r["err"][0] <= TARGET_PEER
            res[(case, tool)] = r
    cg = {}
    if a.callgrind:
        for case in CASES:
            cg[(case, "nsm" if case in HANDWRITTEN else "nsmc")] = callgrind(
                [api, "--case", case, "--reps", "1"], a.work, top=True)
            if gen and case in HANDWRITTEN:
                cg[(case, "nsmc")] = callgrind([gen, "--case", case, "--reps", "1"], a.work, top=True)
            if case in PEERLESS:
                continue
            t = res[(case, "cvode")]["tol"]
            cg[(case, "cvode")] = callgrind([cv, "--case", PEER_CASE.get(case, case), "--reps", "1",
                                             "--rtol", repr(t), "--atol", repr(t)], a.work, top=True)
    same = same_impacts(res)
    log("rocking block: the reduced equation's impacts against the full model's: %s" % same)
    load1 = os.getloadavg()
    md = report(a, res, sweep, cg, refs, load0, load1, time.time() - start, py)
    print(md)
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write(md + "\n")
    if a.update_doc:
        doc = os.path.join(ROOT, "docs", "performance.md")
        text = open(doc).read()
        i, j = text.find(BEGIN), text.find(END)
        if i < 0 or j < i:
            log("%s has no markers %s ... %s: not updated" % (doc, BEGIN, END))
        else:
            with open(doc, "w") as f:
                f.write(text[:i + len(BEGIN)] + "\n" + md + "\n" + text[j:])
    return 0


def same_impacts(res):
    """The reduced rocking equation's impact times against the full
    model's (nsm taylor, both): a sentence, saying whether they agree to
    SAME_IMPACTS."""
    red, full = res.get(("rocking_reduced", "nsmc")), res.get(("rocking", "nsmc"))
    if not red or not full:
        return "not compared (a run is missing)"
    a = [t for t, k in red["ev"] if k == "impact"]
    b = [t for t, k in full["ev"] if k == "impact"]
    if len(a) != len(b):
        return "DIFFERENT: %d impacts against %d" % (len(a), len(b))
    worst = max(float(abs(x - y)) for x, y in zip(a, b))
    return "%d impacts, largest difference %.1e s (%s %.0e s)" % (
        len(a), worst, "within" if worst <= SAME_IMPACTS else "NOT within", SAME_IMPACTS)


def report(a, res, sweep, cg, refs, load0, load1, took, py):
    L = []
    cc = subprocess.run([CC, "--version"], stdout=subprocess.PIPE, text=True).stdout.splitlines()[0]
    cpu = "?"
    try:
        for l in open("/proc/cpuinfo"):
            if l.startswith("model name"):
                cpu = l.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    bt = "?"
    try:
        for l in open(os.path.join(a.build, "CMakeCache.txt")):
            if l.startswith("CMAKE_BUILD_TYPE:"):
                bt = l.split("=", 1)[1].strip() or "none"
    except OSError:
        pass
    L.append("- machine: %s, %d logical cores; %s; %s" % (cpu, os.cpu_count(), platform.platform(), cc))
    L.append("- libnsmrt built %s (%s); the programs cc -O2 -std=c11" % (bt, os.path.relpath(a.build, ROOT)))
    L.append("- date: %s UTC; load average at start %s, at end %s; the run took %.0f s"
             % (datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M"),
                " ".join("%.2f" % x for x in load0), " ".join("%.2f" % x for x in load1), took))
    L.append("- repetitions: nsm and CVODE %d, SciPy %d (median reported); tolerance sweep %d each"
             % (a.reps, a.scipy_reps, 1 if a.quick else 3))
    L.append("- rocking block, nsm taylor: the reduced equation's impacts against the full model's: %s"
             % same_impacts(res))
    L.append("")
    gen = all((c, "nsmc") in res for c in CASES)
    basename = "generated taylor's" if gen else "nsm taylor's"
    hdr = ["problem", "tool", "settings", "steps", "impacts", "worst event error [s]",
           "CPU [ms]", "wall [ms]", "CPU / %s" % basename]
    if cg:
        hdr += ["instructions", "Ir / %s" % basename]
    L.append("| " + " | ".join(hdr) + " |")
    L.append("|" + "---|" * len(hdr))
    for case in CASES:
        basekey = "nsmc" if (case, "nsmc") in res else "nsm"
        base = res[(case, basekey)]
        for tool in ("nsm", "nsmc", "nsm adaptive", "cvode", "scipy"):
            r = res.get((case, tool))
            if not r:
                continue
            if tool == "nsm":
                name, sett = "nsm, hand-written", "taylor (no dt)"
            elif tool == "nsmc":
                name, sett = "nsm, generated", "taylor (no dt)"
            elif tool == "nsm adaptive":
                name, sett = "nsm", "adaptive (rtol 1e-9, atol 1e-12, no dt)"
            elif tool == "cvode":
                name, sett = "CVODE 6.4 Adams", "rtol = atol = %g" % r["tol"]
            else:
                name, sett = "SciPy DOP853", "rtol = atol = %g" % r["tol"]
            if tool in ("cvode", "scipy") and not r["reached"]:
                sett += " (1e-10 s not reached)"
            err, at, note = r["err"]
            e = fmt_err(err) + (" (impact %d)" % (at + 1) if at is not None and err else "")
            if note != "%d/%d" % (len(refs[case]), len(refs[case])):
                e += "; " + note
            row = [LABEL[case], name, sett, str(r["steps"]), str(len([1 for _, k in r["ev"] if k == "impact"])),
                   e, "%.3g" % (1e3 * r["cpu"]), "%.3g" % (1e3 * r["wall"]),
                   "1" if tool == basekey else ratio(r["cpu"] / base["cpu"])]
            if cg:
                ir = cg.get((case, tool), (None, []))[0]
                bir = cg.get((case, basekey), (None, []))[0]
                row += ["%.3g" % ir if ir else "-", ratio(ir / bir) if ir and bir else "-"]
            L.append("| " + " | ".join(row) + " |")
    L.append("")
    L.append("Tolerance sweep (rtol = atol; %s repetition(s) each, CPU time):" % (1 if a.quick else 3))
    L.append("")
    L.append("| problem | tool | tol | steps | impacts | worst event error [s] | CPU [ms] |")
    L.append("|---|---|---|---|---|---|---|")
    for s in sweep:
        n = len([1 for _, k in s["ev"] if k == "impact"])
        L.append("| %s | %s | %g | %d | %d | %s | %.3g |" % (
            s["case"] + (" (peers' case %s)" % PEER_CASE[s["case"]] if s["case"] in PEER_CASE else ""),
            "CVODE Adams" if s["tool"] == "cvode" else "SciPy DOP853", s["tol"], s["steps"],
            n, fmt_err(s["err"][0]) + ("" if n == len(refs[s["case"]]) else " (%d/%d)" % (n, len(refs[s["case"]]))),
            1e3 * s["cpu"]))
    if cg:
        L.append("")
        for case in CASES:
            for tool, what in (("nsm", "hand-written"), ("nsmc", "generated")):
                ir, fns = cg.get((case, tool), (None, []))
                if fns:
                    L.append("- nsm %s (%s), one run, %.3g instructions; costliest functions (self): %s"
                             % (case, what, ir, ", ".join("%s %.0f %%" % (n, s) for s, n in fns[:6])))
    return "\n".join(L)


if __name__ == "__main__":
    sys.exit(main())
