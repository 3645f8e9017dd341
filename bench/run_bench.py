#!/usr/bin/env python3
"""Benchmark of nsm's generated simulators (not a test: nothing is asserted).

    python3 bench/run_bench.py [--build DIR] [--quick] [--reps N]
                               [--callgrind] [--callgrind-models a,b]
                               [--peer | --no-peer] [--update-doc]
                               [--markdown FILE] [--keep DIR]

1. Builds nsmc and libnsmrt (Release) in DIR (default: build-bench at the top
   of the source tree, configured with -DCMAKE_BUILD_TYPE=Release when it does
   not exist yet), runs nsmc on every models/*.nsm and compiles each simulator
   with `cc -O2 -std=c11`.
2. Runs every simulator with rk4 (at the model's dt), adaptive (default
   tolerances, largest step the model's dt) and exact ("n/a" when the
   simulator refuses exact because the forcing has no generator), several
   repetitions each.  Wall time is time.perf_counter() around the whole
   process (start-up, parsing, simulation, writing the event log and the
   trajectory to /dev/null); nothing is subtracted.  The median is reported
   per simulated second.
3. Compares the event log with the independent reference of
   tests/reference/data (closed forms in mpmath, 25 digits): events are
   matched in order by kind and contact; where the simulator jumps over a Zeno
   cascade the reference's remaining individually resolved impacts are
   skipped up to its own `zeno` record; the accuracy is max |t_nsm - t_ref|
   over the matched events.  Models with a reference run to the reference's
   end time.
4. Accuracy against cost: rk4 and exact at the model's dt times 1, 10, 100
   on three models.
5. Scaling: chains of 5, 10, 20, 33 and 40 masses (the chain20 model with
   another length, generated into the work directory): nsmc time, size of
   the generated C, C compile time, run time.
6. With --callgrind: instruction counts (valgrind --tool=callgrind, Ir of the
   whole process, independent of the machine's load) per simulated second,
   for every model and chain length (or the models named).
7. Against CVODE (run when SUNDIALS' CVODE is found, Debian's
   libsundials-dev; --peer runs this part alone, --no-peer skips it):
   bench/api_bench.c runs nsm in process through its API (the generated
   simulators of the two-mass cases A, B, C and SDND121 linked into one
   program) with exact, rk4 and adaptive; bench/cvode_peer.c runs the same
   physics written for CVODE with rootfinding (Adams and BDF, rtol 1e-10,
   atol 1e-12).  Both time themselves with clock_gettime (median of the
   repetitions; A+B+C timed together), and their events are compared with
   the references as in 3.  With --peer --callgrind, also the instructions
   of one run of nsm's exact and of CVODE per case, start-up excluded
   (--callgrind-models
   two_mass_abc,sdnd121 to choose).  --update-doc writes the section into
   docs/performance.md between its markers.

Only the standard library is used.  Exit status 0 unless the build fails.
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
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REF_DIR = os.path.join(ROOT, "tests", "reference", "data")
CC = os.environ.get("CC", "cc")
CFLAGS = ["-O2", "-std=c11"]

# Model -> reference case, the reference's end time (the run goes there), and
# the renaming of reference contact names to the model's gap names.
CASES = {
    "two_mass": ("two_mass_a", 20.0, {}),
    "two_mass_grazing": ("two_mass_b", 20.0, {}),
    "two_mass_plastic": ("two_mass_c", 20.0, {}),
    "sdnd121": ("sdnd121", 4.0, {}),
    "sdnd108a": ("sdnd108a_force", 1.1, {"floor": "ground_contact"}),
    "sdnd108a_aster": ("sdnd108a_gap", 1.1, {"floor": "ground_contact"}),
    "sdnd108b": ("sdnd108b_force", 1.1, {"floor": "ground_contact"}),
    "sdnd108b_aster": ("sdnd108b_gap", 1.1, {"floor": "ground_contact"}),
    "sdld29": ("sdld29", 1.5, {}),
    "sdnd101": ("sdnd101", 2.0, {}),
    "zeno_ball": ("zeno_ball", 2.0, {}),
    "bouncing_ball": ("bouncing_ball", 10.0, {}),
    "impacting_oscillator": ("impacting_oscillator", 1.5, {}),
    "ball_two_contacts": ("ball_two_contacts", 7.0, {}),
}

METHODS = ["rk4", "adaptive", "exact"]
SWEEP_MODELS = ["two_mass", "two_mass_grazing", "sdnd121"]
SWEEP_FACTORS = [1, 10, 100]
CHAIN_SIZES = [5, 10, 20, 33, 40]
# Shorter runs under callgrind (Ir is reported per simulated second): SDND121
# over two periods of its forcing instead of twenty.
CALLGRIND_T_END = {"sdnd121": 0.4}


def log(msg):
    """Progress on stderr, so stdout holds only the tables."""
    print(msg, file=sys.stderr, flush=True)


# ------------------------------------------------------------------ building

def build_tools(build):
    """Configures (if needed) and builds nsmc and libnsmrt; returns their paths."""
    # Configured every time: the runtime's sources are globbed at configure time.
    cmd = ["cmake", "-S", ROOT, "-B", build]
    if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
        log("configuring %s (Release)" % build)
        cmd.append("-DCMAKE_BUILD_TYPE=Release")
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    log("building nsmc and nsmrt in %s" % build)
    r = subprocess.run(["cmake", "--build", build, "--target", "nsmc", "nsmcli", "nsmrt", "-j1"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    nsmc = os.path.join(build, "nsmc")
    lib = os.path.join(build, "libnsmrt.a")
    if r.returncode != 0:
        if os.path.exists(nsmc) and os.path.exists(lib):
            log("warning: the build failed, using the existing nsmc and libnsmrt.a:\n"
                + r.stderr[-2000:])
        else:
            sys.exit("run_bench: building nsmc and nsmrt failed:\n" + r.stderr[-4000:])
    # a simulator links libnsmcli (nsm_main, and HDF5 output when built with it)
    # and the core libnsmrt
    libs = [os.path.join(build, "libnsmcli.a"), lib]
    h5 = subprocess.run(["pkg-config", "--libs", "hdf5"], capture_output=True, text=True)
    if h5.returncode == 0:
        libs += h5.stdout.split()
    return nsmc, libs


def build_type(build):
    """CMAKE_BUILD_TYPE and CMAKE_C_COMPILER of a build directory, from its cache."""
    out = {"type": "?", "cc": "?"}
    try:
        with open(os.path.join(build, "CMakeCache.txt")) as f:
            for line in f:
                if line.startswith("CMAKE_BUILD_TYPE:"):
                    out["type"] = line.split("=", 1)[1].strip() or "(none)"
                if line.startswith("CMAKE_C_COMPILER:"):
                    out["cc"] = line.split("=", 1)[1].strip()
    except OSError:
        pass
    return out


def make_simulator(nsmc, lib, model, work):
    """nsmc then cc on one model; returns dict(exe, nsmc_s, cc_s, c_bytes, c_lines)
    or dict(error=...)."""
    name = os.path.splitext(os.path.basename(model))[0]
    c = os.path.join(work, name + ".c")
    exe = os.path.join(work, name)
    t0 = time.perf_counter()
    r = subprocess.run([nsmc, model, "-o", c], capture_output=True, text=True)
    t1 = time.perf_counter()
    if r.returncode != 0:
        # the diagnostic's first line (file:line:col: error: ...), not its caret
        errs = [ln for ln in r.stderr.splitlines() if "error:" in ln]
        return dict(error="nsmc: " + (errs[0] if errs else "failed"))
    r = subprocess.run([CC] + CFLAGS + [c, "-I", os.path.join(ROOT, "runtime", "include"),
                        ] + lib + ["-lm", "-o", exe], capture_output=True, text=True)
    t2 = time.perf_counter()
    if r.returncode != 0:
        return dict(error="cc: " + r.stderr.strip()[-500:])
    with open(c, "rb") as f:
        data = f.read()
    return dict(exe=exe, nsmc_s=t1 - t0, cc_s=t2 - t1, c_bytes=len(data),
                c_lines=data.count(b"\n"))


# ------------------------------------------------------------------ running

SUMMARY = re.compile(r"(\d+) events, (\d+) steps")


def run_sim(exe, method, t_end, events_path, dt=None):
    """One run of a simulator; returns dict(wall, rc, steps, events, message)."""
    cmd = [exe, "--method", method, "--events", events_path, "--out", os.devnull]
    if t_end is not None:
        cmd += ["--t-end", repr(t_end)]
    if dt is not None:
        cmd += ["--dt", repr(dt)]
    t0 = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - t0
    m = SUMMARY.search(r.stderr)
    lines = r.stderr.strip().splitlines()
    return dict(wall=wall, rc=r.returncode, steps=int(m.group(2)) if m else None,
                events=int(m.group(1)) if m else None,
                message=lines[-1] if lines else "", cmd=cmd)


def measure(exe, method, t_end, reps, events_path, dt=None):
    """Median wall time over reps runs, with the counts and status of the last."""
    walls, last = [], None
    for _ in range(reps):
        last = run_sim(exe, method, t_end, events_path, dt)
        walls.append(last["wall"])
        if last["rc"] != 0:
            break
    last["median"] = statistics.median(walls)
    last["reps"] = len(walls)
    if last["rc"] != 0 and "linear generator" in last["message"]:
        last["status"] = "n/a"
    elif last["rc"] != 0:
        last["status"] = "FAILED (exit %d): %s" % (last["rc"], last["message"])
    else:
        last["status"] = "ok"
    return last


# ------------------------------------------------------------------ events

def read_events(path):
    """[(t as Decimal, kind, contact)] of an event CSV (reference or simulator)."""
    out = []
    with open(path) as f:
        next(f, None)
        for line in f:
            parts = line.rstrip("\n").split(",")
            if len(parts) >= 3:
                out.append((decimal.Decimal(parts[0]), parts[1], parts[2]))
    return out


def compare_events(sim, ref, contact_map):
    """Matches sim against ref in order; returns a dict with the counts, the
    largest time error and, when the lists part, where."""
    def key(ev, mapped):
        kind, contact = ev[1], ev[2]
        if kind == "time":
            return (kind, "")
        return (kind, contact_map.get(contact, contact) if mapped else contact)

    i = j = 0
    matched, skipped, initial = [], 0, 0
    stop = None
    while i < len(sim) and j < len(ref):
        s, r = sim[i], ref[j]
        if key(s, False) == key(r, True):
            matched.append((s, r))
            i, j = i + 1, j + 1
        elif s[0] == 0 and s[1] in ("stick", "contact_enter"):
            initial += 1          # initial mode logged by the simulator only
            i += 1
        elif s[1] == "zeno" and r[1] == "impact" and key(s, False) == ("zeno", key(r, True)[1]):
            k = j
            while k < len(ref) and ref[k][1] == "impact":
                k += 1
            if k < len(ref) and key(ref[k], True) == key(s, False):
                skipped += k - j  # cascade impacts the simulator jumped over
                j = k
            else:
                stop = (i, j)
                break
        else:
            stop = (i, j)
            break
    worst, worst_at = decimal.Decimal(0), None
    for s, r in matched:
        d = abs(s[0] - r[0])
        if d > worst or worst_at is None:
            worst, worst_at = d, r
    res = dict(matched=len(matched), n_sim=len(sim), n_ref=len(ref), skipped=skipped,
               initial=initial, max_err=float(worst) if matched else None, worst_at=worst_at,
               first_err=float(abs(matched[0][0][0] - matched[0][1][0])) if matched else None)
    if stop is None and i == len(sim) and j == len(ref):
        res["verdict"] = "all"
    elif stop is not None:
        s, r = sim[stop[0]], ref[stop[1]]
        res["verdict"] = ("differ at sim #%d (%s %s %s) / ref #%d (%s %s %s)"
                          % (stop[0] + 1, fmt_t(s[0]), s[1], s[2],
                             stop[1] + 1, fmt_t(r[0]), r[1], r[2]))
    elif i < len(sim):
        s = sim[i]
        res["verdict"] = "%d extra from sim #%d (%s %s %s)" % (len(sim) - i, i + 1,
                                                              fmt_t(s[0]), s[1], s[2])
    else:
        r = ref[j]
        res["verdict"] = "%d missed from ref #%d (%s %s %s)" % (len(ref) - j, j + 1,
                                                               fmt_t(r[0]), r[1], r[2])
    return res


def fmt_t(t):
    """An event time for a message."""
    return "%.10g" % float(t)


# ------------------------------------------------------------------ parts

def bench_models(nsmc, lib, work, reps):
    """Part 1-3: every model with every method; returns the table rows."""
    models = sorted(f for f in os.listdir(os.path.join(ROOT, "models")) if f.endswith(".nsm"))
    rows = []
    for f in models:
        name = f[:-4]
        log("model %s" % name)
        sim = make_simulator(nsmc, lib, os.path.join(ROOT, "models", f), work)
        if "error" in sim:
            rows.append(dict(model=name, method="-", status="BUILD FAILED: " + sim["error"]))
            continue
        case = CASES.get(name)
        t_end = case[1] if case else model_t_end(sim["exe"])
        for method in METHODS:
            ev = os.path.join(work, "%s.%s.events.csv" % (name, method))
            m = measure(sim["exe"], method, t_end, reps, ev)
            row = dict(model=name, method=method, t_end=t_end, ref=case[0] if case else None)
            row.update(m)
            if m["status"] == "ok" and case:
                ref = read_events(os.path.join(REF_DIR, case[0] + ".events.csv"))
                row["cmp"] = compare_events(read_events(ev), ref, case[2])
            elif m["status"] != "n/a" and m["rc"] != 0 and case and os.path.exists(ev):
                ref = read_events(os.path.join(REF_DIR, case[0] + ".events.csv"))
                row["cmp"] = compare_events(read_events(ev), ref, case[2])
            rows.append(row)
    return rows


def model_t_end(exe):
    """The default end time a simulator prints in --help."""
    r = subprocess.run([exe, "--help"], capture_output=True, text=True)
    m = re.search(r"--t-end T .*\(default ([^)]+)\)", r.stdout)
    return float(m.group(1)) if m else 1.0


def bench_sweep(nsmc, lib, work, reps):
    """Part 4: rk4 and exact at coarser steps on SWEEP_MODELS."""
    rows = []
    for name in SWEEP_MODELS:
        exe = os.path.join(work, name)
        if not os.path.exists(exe):
            continue
        dt0 = model_dt(exe)
        case = CASES[name]
        ref = read_events(os.path.join(REF_DIR, case[0] + ".events.csv"))
        for method in ("rk4", "exact"):
            for k in SWEEP_FACTORS:
                dt = dt0 * k
                log("sweep %s %s dt=%g" % (name, method, dt))
                ev = os.path.join(work, "%s.sweep.events.csv" % name)
                if os.path.exists(ev):
                    os.remove(ev)
                m = measure(exe, method, case[1], reps, ev, dt)
                row = dict(model=name, method=method, dt=dt, t_end=case[1])
                row.update(m)
                if os.path.exists(ev):
                    row["cmp"] = compare_events(read_events(ev), ref, case[2])
                rows.append(row)
    return rows


def model_dt(exe):
    """The default step a simulator prints in --help."""
    r = subprocess.run([exe, "--help"], capture_output=True, text=True)
    m = re.search(r"--dt H .*?\(default ([0-9.eE+-]+)", r.stdout)
    return float(m.group(1))


def chain_model(n):
    """The text of models/chain20.nsm for a chain of n masses."""
    with open(os.path.join(ROOT, "models", "chain20.nsm")) as f:
        text = f.read()
    text = text.replace("model chain20 ", "model chain%d " % n)
    text = text.replace("P[1..20]", "P[1..%d]" % n).replace("1..19", "1..%d" % (n - 1))
    text = text.replace("P[20]", "P[%d]" % n)
    return text


def bench_chains(nsmc, lib, work, reps):
    """Part 5: the chain model at several lengths."""
    rows = []
    for n in CHAIN_SIZES:
        log("chain of %d masses" % n)
        path = os.path.join(work, "chain%d.nsm" % n)
        with open(path, "w") as f:
            f.write(chain_model(n))
        nsmc_times = []
        for _ in range(max(reps, 3)):
            t0 = time.perf_counter()
            subprocess.run([nsmc, path, "-o", os.path.join(work, "chain%d.c" % n)],
                           capture_output=True)
            nsmc_times.append(time.perf_counter() - t0)
        sim = make_simulator(nsmc, lib, path, work)
        row = dict(n=n, gaps=n - 1, nsmc_s=statistics.median(nsmc_times))
        row.update(sim)
        if "error" not in sim:
            for method in METHODS:
                ev = os.path.join(work, "chain%d.%s.events.csv" % (n, method))
                row[method] = measure(sim["exe"], method, None, reps, ev)
        rows.append(row)
    return rows


def bench_callgrind(work, names):
    """Part 6: Ir of the whole process under callgrind, per simulated second,
    plus the start-up cost (a run to t = 0)."""
    rows = []
    for name in names:
        exe = os.path.join(work, name)
        if not os.path.exists(exe):
            rows.append(dict(model=name, method="-", t_end=0, ir=None, profile=None,
                             status="no simulator"))
            continue
        case = CASES.get(name)
        if name in CALLGRIND_T_END:
            t_end = CALLGRIND_T_END[name]
        elif case:
            t_end = case[1]
        elif name.startswith("chain"):
            t_end = 2.0           # the chain models' own end time (chain20.nsm)
        else:
            t_end = model_t_end(exe)
        for method in METHODS + ["startup"]:
            log("callgrind %s %s" % (name, method))
            out = os.path.join(work, "callgrind.%s.%s" % (name, method))
            cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out,
                   exe, "--method", "rk4" if method == "startup" else method,
                   "--t-end", "0" if method == "startup" else repr(t_end),
                   "--events", os.devnull, "--out", os.devnull]
            r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               text=True)
            m = re.search(r"Collected : (\d+)", r.stderr)
            ok = r.returncode == 0 and m
            rows.append(dict(model=name, method=method, t_end=t_end,
                             ir=int(m.group(1)) if m else None,
                             profile=profile(out) if ok and method != "startup" else None,
                             status="ok" if ok else
                             ("n/a" if "linear generator" in r.stderr else "FAILED")))
    return rows


# Functions of the C library that format numbers for the CSV output.
PRINTF_FNS = ("printf_fp", "hack_digit", "__mpn_", "vfprintf", "__printf", "_IO_",
              "__strchrnul", "outstring", "__memcpy", "__mempcpy", "__strlen")


def profile(out):
    """Self cost of a callgrind run: the three costliest functions and the share
    of number formatting in the C library (CSV writing), as text."""
    r = subprocess.run(["callgrind_annotate", "--inclusive=no", "--threshold=100", out],
                       capture_output=True, text=True)
    total, fns = None, []
    for line in r.stdout.splitlines():
        m = re.match(r"\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(.*)", line)
        if not m:
            continue
        ir = int(m.group(1).replace(",", ""))
        what = m.group(2)
        if "PROGRAM TOTALS" in what:
            total = ir
            continue
        fn = what.split(" [")[0].split(":")[-1]
        fns.append((ir, fn))
    if not total:
        return None
    fmt = sum(ir for ir, fn in fns if any(k in fn for k in PRINTF_FNS))
    top = ", ".join("%s %.0f%%" % (fn, 100.0 * ir / total) for ir, fn in fns[:3])
    return dict(top=top, printf=100.0 * fmt / total)


# ------------------------------------------------------------------ against CVODE

# The cases of the comparison with CVODE, timed in process: a label, the
# models of models/ compiled into bench/api_bench.c (in the order it runs
# them), and their references.
PEER_CASES = [
    ("two_mass_abc", "Dedow & Murphy A+B+C (3 × 20 s)",
     ["two_mass_a", "two_mass_b", "two_mass_c"]),
    ("sdnd121", "SDND121 (4 s)", ["sdnd121"]),
]
PEER_MODELS = ["two_mass", "two_mass_grazing", "two_mass_plastic", "sdnd121"]
PEER_METHODS = "exact,rk4,adaptive"
# CVODE's settings: Adams with fixed-point iteration (the nonstiff choice,
# what the table compares with) and BDF with Newton on a dense matrix.
PEER_CVODE = [["--lmm", "adams"], ["--lmm", "bdf"]]
CVODE_LIBS = ["-lsundials_cvode", "-lsundials_nvecserial", "-lm"]


def build_peer(nsmc, lib, work):
    """Builds bench/api_bench.c with the four generated simulators (nsmc run on
    models/ now, compiled with NSM_NO_MAIN) and bench/cvode_peer.c against
    SUNDIALS; returns dict(api=exe or None, cvode=exe or None, notes=[...])."""
    out = dict(api=None, cvode=None, notes=[])
    d = os.path.join(work, "peer")
    os.makedirs(d, exist_ok=True)
    cfiles = []
    for name in PEER_MODELS:
        c = os.path.join(d, name + ".c")
        r = subprocess.run([nsmc, os.path.join(ROOT, "models", name + ".nsm"), "-o", c],
                           capture_output=True, text=True)
        if r.returncode != 0:
            out["notes"].append("nsmc failed on %s: %s" % (name, r.stderr.strip()[-300:]))
            break
        cfiles.append(c)
    if len(cfiles) == len(PEER_MODELS):
        exe = os.path.join(d, "api_bench")
        r = subprocess.run([CC] + CFLAGS + ["-DNSM_NO_MAIN", "-I",
                            os.path.join(ROOT, "runtime", "include"),
                            os.path.join(ROOT, "bench", "api_bench.c")] + cfiles
                           + (lib if isinstance(lib, list) else [lib]) + ["-lm", "-o", exe],
                           capture_output=True, text=True)
        if r.returncode == 0:
            out["api"] = exe
        else:
            out["notes"].append("building api_bench failed: " + r.stderr.strip()[-500:])
    exe = os.path.join(d, "cvode_peer")
    r = subprocess.run([CC] + CFLAGS + [os.path.join(ROOT, "bench", "cvode_peer.c")]
                       + CVODE_LIBS + ["-o", exe], capture_output=True, text=True)
    if r.returncode == 0:
        out["cvode"] = exe
    else:
        out["notes"].append("CVODE not found (Debian package libsundials-dev, installed by "
                            "scripts/setup.sh): no CVODE rows. " + r.stderr.strip()[-300:])
    return out


def run_peer_exe(cmd):
    """Runs api_bench or cvode_peer; returns (rows, version, error). A row:
    dict(case, tool, method, median, min, cpu, reps, events, steps)."""
    r = subprocess.run(cmd, capture_output=True, text=True)
    rows, version = [], None
    for line in r.stdout.splitlines():
        if line.startswith("# SUNDIALS"):
            version = line[2:].strip()
            continue
        f = line.split("\t")
        if len(f) == 9:
            rows.append(dict(case=f[0], tool=f[1], method=f[2], median=float(f[3]),
                             min=float(f[4]), cpu=float(f[5]), reps=int(f[6]),
                             events=int(f[7]), steps=int(f[8])))
    error = None if r.returncode == 0 else (r.stderr.strip() or "exit %d" % r.returncode)
    return rows, version, error


def peer_compare(row, evdir, suffix):
    """Compares the events of one row's cases with their references; sets
    row["cmp"] to a list of (reference case, compare_events result)."""
    refs = next(c[2] for c in PEER_CASES if c[0] == row["case"])
    row["cmp"] = []
    for ref in refs:
        path = os.path.join(evdir, ref + suffix + ".events.csv")
        if os.path.exists(path):
            row["cmp"].append((ref, compare_events(read_events(path),
                                                   read_events(os.path.join(REF_DIR, ref + ".events.csv")),
                                                   {})))


def bench_peer(nsmc, lib, work, reps, callgrind=None):
    """nsm (through the API, in process) and CVODE on the same cases; returns
    dict(rows, notes, sundials, ir).  With callgrind (a list of case labels,
    empty for all), the instructions of one run of nsm's exact and of CVODE on
    those cases too, whole process (start-up included)."""
    built = build_peer(nsmc, lib, work)
    res = dict(rows=[], notes=list(built["notes"]), sundials=None)
    evdir = os.path.join(work, "peer", "events")
    os.makedirs(evdir, exist_ok=True)
    if built["api"]:
        log("against CVODE: nsm through the API (%s), %d repetitions" % (PEER_METHODS, reps))
        for extra in ([], ["--dt", "0"]):
            rows, _, error = run_peer_exe([built["api"], "--reps", str(reps), "--events", evdir,
                                           "--methods", PEER_METHODS if not extra else "exact,rk4"]
                                          + extra)
            for row in rows:
                peer_compare(row, evdir, "." + row["method"].split()[0])
            res["rows"] += rows
            if error:
                res["notes"].append("api_bench: " + error)
    if built["cvode"]:
        for opts in PEER_CVODE:
            log("against CVODE: CVODE %s, %d repetitions" % (" ".join(opts), reps))
            d = os.path.join(evdir, "cvode_" + opts[-1])
            os.makedirs(d, exist_ok=True)
            rows, version, error = run_peer_exe([built["cvode"], "--reps", str(reps),
                                                 "--events", d] + opts)
            for row in rows:
                peer_compare(row, d, "")
            res["rows"] += rows
            res["sundials"] = version or res["sundials"]
            if error:
                res["notes"].append("cvode_peer %s: %s" % (" ".join(opts), error))
    order = {c[0]: i for i, c in enumerate(PEER_CASES)}
    res["rows"].sort(key=lambda r: order.get(r["case"], 99))   # stable: tools keep their order
    if callgrind is not None:
        res["ir"] = peer_callgrind(built, res["rows"], callgrind, work)
    return res


def peer_callgrind(built, rows, cases, work):
    """{(case, tool, method): Ir} of one run under callgrind, for nsm's exact
    and CVODE's rows of the cases named (all when empty)."""
    if shutil.which("valgrind") is None:
        log("valgrind not found: no instruction counts")
        return {}
    out = {}
    for r in rows:
        if cases and r["case"] not in cases:
            continue
        case = "two_mass" if r["case"] == "two_mass_abc" else r["case"]
        if r["tool"] == "nsm" and r["method"].startswith("exact"):
            cmd = [built["api"], "--methods", "exact"] + (["--dt", "0"] if r["method"].split()[-1] == "dt=0" else [])
        elif r["tool"] == "CVODE":
            cmd = [built["cvode"], "--lmm", "adams" if r["method"].startswith("Adams") else "bdf"]
        else:
            continue
        log("callgrind %s %s %s" % (r["case"], r["tool"], r["method"]))
        ir = callgrind_ir(cmd + ["--reps", "1", "--case", case], work)
        if ir:
            out[(r["case"], r["tool"], r["method"])] = ir
    return out


def callgrind_ir(cmd, work):
    """Instructions of api_bench or cvode_peer under callgrind, counted only
    inside their functions bench* (the timed runs, without the process's
    start-up); the whole process's when the compiler inlined them away."""
    cg_out = os.path.join(work, "peer", "callgrind.out")
    for toggle in (["--toggle-collect=bench*"], []):
        p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + cg_out]
                           + toggle + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           text=True)
        m = re.search(r"Collected : (\d+)", p.stderr)
        if p.returncode != 0 or not m:
            return None
        if int(m.group(1)) > 0:
            return int(m.group(1))
    return None


def peer_worst(row):
    """(matched, reference events, largest error, where, verdicts) over a row's cases."""
    matched = sum(c["matched"] for _, c in row["cmp"])
    n_ref = sum(c["n_ref"] for _, c in row["cmp"])
    worst, where, verdicts = None, None, []
    for ref, c in row["cmp"]:
        if c["max_err"] is not None and (worst is None or c["max_err"] > worst):
            worst, where = c["max_err"], (ref, c["worst_at"])
        if c["verdict"] != "all":
            verdicts.append("%s: %s" % (ref, c["verdict"]))
    return matched, n_ref, worst, where, verdicts


def ref_short(ref):
    """A reference case as the table names it: A, B, C for the two masses."""
    return {"two_mass_a": "A", "two_mass_b": "B", "two_mass_c": "C"}.get(ref, ref)


def peer_table(res):
    """The comparison with CVODE: one line per case, tool and method."""
    out = []
    labels = {c[0]: c[1] for c in PEER_CASES}
    cg = res.get("ir", {})
    for r in res["rows"]:
        matched, n_ref, worst, where, verdicts = peer_worst(r)
        if worst is None:
            e = "-"
        else:
            e = "0" if worst == 0 else "%.1e" % worst
            if where and worst != 0:
                e += " (%s%s at %.4g s)" % ("" if len(r["cmp"]) == 1 else ref_short(where[0]) + " ",
                                           where[1][1], float(where[1][0]))
        if len(r["cmp"]) > 1:
            e += "; " + ", ".join("%s %s" % (ref_short(ref), "-" if c["max_err"] is None
                                             else "%.1e" % c["max_err"]) for ref, c in r["cmp"])
        skipped = sum(c["skipped"] for _, c in r["cmp"])
        m = "%d/%d" % (matched, n_ref)
        if skipped:
            m += " (%d cascade impacts jumped)" % skipped
        if verdicts:
            m += "; " + "; ".join(verdicts)
        ir = cg.get((r["case"], r["tool"], r["method"]))
        out.append([labels.get(r["case"], r["case"]), r["tool"], r["method"], ms(r["median"]),
                    ms(r["min"]), ms(r["cpu"])] + (["%.3g" % ir if ir else "-"] if cg else [])
                   + [r["steps"], r["events"], m, e])
    return table(["case", "tool", "method", "wall time in process [ms], median", "fastest [ms]",
                  "CPU time [ms], median"] + (["instructions (callgrind)"] if cg else [])
                 + ["steps", "events", "events matched / reference",
                    "max event-time error [s] (where; per case)"], out)


def peer_ratios(res):
    """nsm exact against CVODE Adams, case by case, as sentences."""
    lines = []
    cg = res.get("ir", {})
    for case, label, _ in PEER_CASES:
        ex = [r for r in res["rows"] if r["case"] == case and r["tool"] == "nsm"
              and r["method"].startswith("exact")]
        cv = [r for r in res["rows"] if r["case"] == case and r["tool"] == "CVODE"
              and r["method"].startswith("Adams")]
        if not ex or not cv:
            continue
        # the engine's own steps (no dt) when that row is there: the figure
        ex.sort(key=lambda r: r["method"].split()[-1] != "dt=0")
        ex, cv = ex[0], cv[0]
        text = ("- %s: nsm exact (%s) takes %.3g times CVODE's (Adams) wall time, %.3g times its "
                "CPU time" % (label, "no dt" if ex["method"].split()[-1] == "dt=0" else
                              ex["method"].split()[-1], ex["median"] / cv["median"],
                              ex["cpu"] / cv["cpu"]))
        ie, ic = cg.get((case, ex["tool"], ex["method"])), cg.get((case, cv["tool"], cv["method"]))
        if ie and ic:
            text += ", %.3g times its instructions" % (ie / ic)
        we, wc = peer_worst(ex)[2], peer_worst(cv)[2]
        if we is not None and wc is not None:
            text += "; largest event-time error %.1e s against %.1e s" % (we, wc)
        lines.append(text + ".")
    return "\n".join(lines)


def peer_report(res, reps, info):
    """The section "Against CVODE" of the report, in Markdown."""
    head = ("%s; %s, %s logical cores; load average at start %s; %s; median of %d "
            "repetitions, each tool in one process (bench/api_bench.c through nsm's API, "
            "bench/cvode_peer.c through CVODE's); A+B+C timed together."
            % (info["date"], info["cpu"], info["cores"], info["load"],
               res["sundials"] or "CVODE not run", reps))
    parts = [head, peer_table(res)]
    ratios = peer_ratios(res)
    if ratios:
        parts.append(ratios)
    if res["notes"]:
        parts.append("\n".join("- note: " + n for n in res["notes"]))
    return "\n\n".join(parts)


PEER_BEGIN = "<!-- begin: run_bench.py --peer -->"
PEER_END = "<!-- end: run_bench.py --peer -->"


def update_doc(path, text):
    """Replaces what lies between the markers PEER_BEGIN and PEER_END in path
    with text; False when the markers are missing."""
    with open(path) as f:
        doc = f.read()
    i, j = doc.find(PEER_BEGIN), doc.find(PEER_END)
    if i < 0 or j < i:
        return False
    doc = doc[:i + len(PEER_BEGIN)] + "\n" + text + "\n" + doc[j:]
    with open(path, "w") as f:
        f.write(doc)
    return True


# ------------------------------------------------------------------ report

def machine():
    """The machine, compiler and date, for the report."""
    info = {}
    try:
        with open("/proc/cpuinfo") as f:
            names = [l.split(":", 1)[1].strip() for l in f if l.startswith("model name")]
        info["cpu"] = names[0] if names else platform.processor()
    except OSError:
        info["cpu"] = platform.processor() or "?"
    info["cores"] = os.cpu_count()
    try:
        with open("/proc/meminfo") as f:
            kb = int(next(l for l in f if l.startswith("MemTotal")).split()[1])
        info["mem"] = "%.1f GiB" % (kb / 1048576)
    except (OSError, StopIteration):
        info["mem"] = "?"
    r = subprocess.run([CC, "--version"], capture_output=True, text=True)
    info["cc"] = r.stdout.splitlines()[0] if r.stdout else CC
    info["os"] = platform.platform()
    info["date"] = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    info["load"] = "%.2f %.2f %.2f" % os.getloadavg()
    return info


def ms(x):
    """Seconds as milliseconds with three significant digits."""
    return "%.3g" % (1e3 * x)


def err(x, at=None):
    """An event-time error, with the reference event where it is largest."""
    if x is None:
        return "-"
    text = "0" if x == 0 else "%.1e" % x
    if at is not None and x != 0:
        text += " (%s at %.4g s)" % (at[1], float(at[0]))
    return text


def table(head, rows):
    """A Markdown table."""
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def model_table(rows):
    """The main table: one line per model and method."""
    out = []
    for r in rows:
        if r["method"] == "-":
            out.append([r["model"], "-", "-", "-", "-", "-", "-", r["status"]])
            continue
        if r["status"] == "n/a":
            out.append([r["model"], r["method"], "n/a", "-", "-", "-", "-", "n/a (no generator)"])
            continue
        c = r.get("cmp")
        if c:
            match = "%d/%d" % (c["matched"], c["n_ref"])
            if c["skipped"]:
                match += ", %d cascade impacts jumped" % c["skipped"]
            if c["initial"]:
                match += ", %d initial-mode event not in the reference" % c["initial"]
            note = "" if c["verdict"] == "all" else c["verdict"]
        else:
            match, note = "no reference", ""
        if r["status"] != "ok":
            note = (r["status"] + "; " + note).strip("; ")
        out.append([r["model"], r["method"], ms(r["median"] / r["t_end"]),
                    "%g" % r["t_end"], r["steps"] if r["steps"] is not None else "-",
                    r["events"] if r["events"] is not None else "-",
                    err(c["max_err"], c["worst_at"]) if c else "-",
                    match + ("; " + note if note else "")])
    return table(["model", "method", "ms per sim. s", "t_end [s]", "steps", "events",
                  "max abs event-time error [s]", "events matched / reference"], out)


def sweep_table(rows):
    """Accuracy against cost on coarser steps."""
    out = []
    for r in rows:
        c = r.get("cmp")
        note = "" if not c or c["verdict"] == "all" else c["verdict"]
        if r["status"] != "ok":
            note = (r["status"] + "; " + note).strip("; ")
        out.append([r["model"], r["method"], "%g" % r["dt"], ms(r["median"] / r["t_end"]),
                    r["steps"] if r["steps"] is not None else "-",
                    err(c["first_err"]) if c else "-",
                    err(c["max_err"], c["worst_at"]) if c else "-",
                    ("%d/%d" % (c["matched"], c["n_ref"]) if c else "-")
                    + ("; " + note if note else "")])
    return table(["model", "method", "dt [s]", "ms per sim. s", "steps",
                  "first event's error [s]", "max abs event-time error [s]",
                  "matched / reference"], out)


def chain_table(rows):
    """Scaling with the length of the chain."""
    out = []
    for r in rows:
        if "error" in r:
            out.append([r["n"], r["gaps"], ms(r["nsmc_s"]), "-", "-", "-", "-", "-",
                        r["error"]])
            continue
        cells = [r["n"], r["gaps"], ms(r["nsmc_s"]), "%d / %d" % (r["c_bytes"], r["c_lines"]),
                 "%.2f" % r["cc_s"]]
        notes = []
        for method in METHODS:
            m = r[method]
            if m["status"] == "ok":
                cells.append("%s (%d steps, %d events)" % (ms(m["median"]), m["steps"],
                                                          m["events"]))
            else:
                cells.append(m["status"].split(":")[0])
                if m["status"] != "n/a":
                    notes.append(m["message"])
        cells.append("; ".join(sorted(set(notes))))
        out.append(cells)
    return table(["masses", "gaps", "nsmc [ms]", "C bytes / lines", "cc -O2 [s]",
                  "rk4 run [ms]", "adaptive run [ms]", "exact run [ms]", "notes"], out)


def callgrind_table(rows):
    """Instruction counts."""
    start = {r["model"]: r["ir"] for r in rows if r["method"] == "startup"}
    out = []
    for r in rows:
        if r["method"] == "startup":
            continue
        if r["status"] != "ok":
            out.append([r["model"], r["method"], "%g" % r["t_end"], r["status"], "-", "-", "-"])
            continue
        p = r.get("profile")
        out.append([r["model"], r["method"], "%g" % r["t_end"], "%.3g" % (r["ir"] / r["t_end"]),
                    "%.3g" % start[r["model"]] if start.get(r["model"]) else "-",
                    "%.0f%%" % p["printf"] if p else "-", p["top"] if p else "-"])
    return table(["model", "method", "t_end [s]", "Ir per sim. s",
                  "start-up Ir (run to t = 0)", "CSV formatting (libc)",
                  "costliest functions (self)"], out)


def main():
    """Builds, runs every part, prints the report (and writes it with --markdown)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", help="build directory with (or for) nsmc and libnsmrt.a")
    ap.add_argument("--quick", action="store_true",
                    help="one repetition, no step sweep (under a minute)")
    ap.add_argument("--reps", type=int, help="repetitions per run (default 5, 1 with --quick)")
    ap.add_argument("--callgrind", action="store_true", help="also count instructions")
    ap.add_argument("--callgrind-models", default=None,
                    help="comma-separated models for --callgrind (default: all); with "
                         "--peer, cases (two_mass_abc, sdnd121)")
    ap.add_argument("--peer", action="store_true",
                    help="only the comparison with CVODE (part 7)")
    ap.add_argument("--no-peer", action="store_true", help="skip the comparison with CVODE")
    ap.add_argument("--update-doc", action="store_true",
                    help="write the CVODE comparison into docs/performance.md")
    ap.add_argument("--markdown", help="also write the report as Markdown to this file")
    ap.add_argument("--keep", help="work directory to keep (default: a temporary one)")
    args = ap.parse_args()
    reps = args.reps or (1 if args.quick else 5)
    build = os.path.abspath(args.build or os.path.join(ROOT, "build-bench"))

    t_start = time.perf_counter()
    info = machine()
    nsmc, lib = build_tools(build)
    bt = build_type(build)
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        work = os.path.abspath(args.keep)
    else:
        work = tempfile.mkdtemp(prefix="nsm-bench-")
    rows, sweep, chains, cg, peer = [], [], [], [], None
    try:
        if not args.peer:
            rows = bench_models(nsmc, lib, work, reps)
            sweep = [] if args.quick else bench_sweep(nsmc, lib, work, max(1, reps // 2))
            chains = bench_chains(nsmc, lib, work, reps)
        if args.peer or not args.no_peer:
            cg_cases = None
            if args.callgrind:
                cg_cases = args.callgrind_models.split(",") if args.callgrind_models else []
            peer = bench_peer(nsmc, lib, work, reps, cg_cases if args.peer else None)
            if not args.peer and not any(r["tool"] == "CVODE" for r in peer["rows"]):
                log("CVODE not found: no comparison with it (" + "; ".join(peer["notes"]) + ")")
                peer = None
        if args.callgrind and not args.peer:
            if shutil.which("valgrind") is None:
                log("valgrind not found: no instruction counts")
            else:
                names = (args.callgrind_models.split(",") if args.callgrind_models
                         else sorted(r["model"] for r in rows if r["method"] == "rk4")
                         + ["chain%d" % n for n in CHAIN_SIZES if n != 20])
                cg = bench_callgrind(work, names)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    info["load_end"] = "%.2f %.2f %.2f" % os.getloadavg()
    info["elapsed"] = time.perf_counter() - t_start

    parts = []
    parts.append("## Machine\n\n" + "\n".join([
        "- CPU: %s, %s logical cores; memory %s" % (info["cpu"], info["cores"], info["mem"]),
        "- OS: %s" % info["os"],
        "- compiler: %s; libnsmrt and nsmc built %s (%s), simulators `%s %s`"
        % (info["cc"], bt["type"], build, CC, " ".join(CFLAGS)),
        "- date: %s; load average at start %s, at end %s; benchmark took %.0f s"
        % (info["date"], info["load"], info["load_end"], info["elapsed"]),
        "- repetitions per run: %d (median reported)" % reps]))
    if rows:
        parts.append("## Models\n\n" + model_table(rows))
    if sweep:
        parts.append("## Accuracy against cost\n\n" + sweep_table(sweep))
    if chains:
        parts.append("## Scaling with the chain length\n\n" + chain_table(chains))
    if cg:
        parts.append("## Instruction counts (callgrind)\n\n" + callgrind_table(cg))
    if peer:
        section = peer_report(peer, reps, info)
        parts.append("## Against CVODE\n\n" + section)
        if args.update_doc:
            doc = os.path.join(ROOT, "docs", "performance.md")
            if update_doc(doc, section):
                log("wrote the comparison with CVODE into %s" % doc)
            else:
                log("%s has no markers %s ... %s: not updated" % (doc, PEER_BEGIN, PEER_END))
    text = "\n\n".join(parts) + "\n"
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
