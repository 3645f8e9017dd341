#!/usr/bin/env python3
"""Scaling of the compiler with the size of a model (not a test: nothing is asserted).

    python3 bench/scale_bench.py [--build DIR] [--sizes 10,100,1000,10000]
                                 [--families every,five] [--reps N]
                                 [--baseline-nsmc PATH] [--plot FILE.png]
                                 [--keep DIR]

For chains of N beads (`param N`, `mass P[1..N]`, a spring between every
pair, all written as `for` loops, so the model's text is the same for every
N), with a gap between every pair (family "every", N - 1 gaps) or between the
first five pairs only (family "five": all 2^5 modes are derived and written
out), it measures:

* nsmc: CPU time (user + system) of the whole process (best of --reps) and
  its peak resident memory, generating the simulator's C;
* the size of that C (bytes and lines);
* cc -O2 -std=c11 -c on it: CPU time (best of --reps) and peak memory;
* the simulator: cost per step with rk4 over 200 steps of 10 us (the whole
  process's CPU time over its steps, start-up included; at most 60 s of CPU).

The runtime section (--runtime-sizes, default 10,100,300,1000,3000,10000) measures
the simulator alone on a granular chain (N beads 1 mm apart, a soft spring
and an impact gap, e = 0.9, between every pair, the first bead moving into
the others): its cost per step with rk4 and with exact at the model's dt of
0.1 ms and the peak resident memory of each, the cost as the difference of two runs (k and 2k steps, k grown until that
difference is 0.3 s of CPU) so that start-up drops out, with the fitted
exponent (past 400 states, 200 beads, exact takes the modes as operators
over the sparse tables, runtime/src/modeop.c: its exponent is also fitted
over those sizes alone); the 1000-bead chain over one simulated
second end to end (rk4 at its dt, exact at the steps its modes choose); and
bench/models/drill_string.nsm (200 elements, 20 stops) over one simulated
second with rk4.

--baseline-nsmc runs another nsmc (an older build) on the same models, with N
written as a number, for a before/after comparison.  The fitted exponent is the least-squares slope of
log(time) against log(N) over the sizes from 100 up (below that process
start-up dominates).  --plot draws both with gnuplot (log-log).  Uses only
the Python standard library, cc and gnuplot.
"""
import argparse
import math
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

MODELS = {
    # a spring and a gap between every pair: N - 1 gaps
    "every": """model chain "A chain of N beads: a spring and a gap between every pair"
param N = {n}
param m = 10 g
param k = 1e4 N/m
param e = 0.9
mass P[1..N] = m
for i in 1..N-1: spring P[i] -- P[i+1], k = k
for i in 1..N-1: gap G[i]: P[i+1].x - P[i].x >= 0, impact(e = e)
init P[1].v = 1 m/s
simulate t_end = 0.01 s, dt = 10 us, method = rk4
output every 1 ms: P[1].x, P[N].x
""",
    # springs between every pair, gaps between the first five: every one of
    # the 2^5 modes is derived and written out
    "five": """model chain "A chain of N beads: springs between every pair, five gaps"
param N = {n}
param m = 10 g
param k = 1e4 N/m
param e = 0.9
mass P[1..N] = m
for i in 1..N-1: spring P[i] -- P[i+1], k = k
for i in 1..5: gap G[i]: P[i+1].x - P[i].x >= 0, impact(e = e)
init P[1].v = 1 m/s
simulate t_end = 0.01 s, dt = 10 us, method = rk4
output every 1 ms: P[1].x, P[N].x
""",
}


GRANULAR = """model granular "A granular chain: N beads 1 mm apart, springs and impacts between neighbours"
param N = {n}
param m = 10 g
param k = 100 N/m
param d = 1 mm
param e = 0.9
mass P[1..N] = m
for i in 1..N-1: spring P[i] -- P[i+1], k = k
for i in 1..N-1: gap G[i]: P[i+1].x - P[i].x + d >= 0, impact(e = e)
init P[1].v = 1 m/s
simulate t_end = 1 s, dt = 0.1 ms, method = rk4
output every 1 ms: P[1].x, P[N].x
"""

RUN_STEPS = 200
RUN_CPU_LIMIT = 60


def model_text(family, n, literal):
    """The chain's text; literal: N written as a number, for an nsmc that
    does not read sizes from parameters."""
    text = MODELS[family].format(n=n)
    if literal:
        text = text.replace("param N = %d\n" % n, "")
        text = (text.replace("[1..N]", "[1..%d]" % n).replace("1..N-1", "1..%d" % (n - 1))
                .replace("P[N]", "P[%d]" % n))
    return text


def run(cmd, **kw):
    """Runs cmd; returns (CPU seconds, user + system, peak RSS in MB, exit
    status, stderr).  CPU time, not wall time: the machine is shared, and
    other people's jobs stretch wall times several fold."""
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **kw)
    err = p.stderr.read().decode(errors="replace")
    _, status, ru = os.wait4(p.pid, 0)
    return ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024.0, os.waitstatus_to_exitcode(status), err


def best(cmd, reps, **kw):
    """The fastest of reps runs (time, memory of that run, status, stderr)."""
    runs = [run(cmd, **kw) for _ in range(reps)]
    return min(runs, key=lambda r: r[0])


def first_error(text):
    """The first line that says error, for the table."""
    for line in text.splitlines():
        if "error" in line:
            return line.split("error: ", 1)[-1].strip()
    return text.strip().splitlines()[0] if text.strip() else "failed"


def fit(points, n_min=100):
    """Least-squares slope of log t against log N (N >= n_min)."""
    pts = [(math.log(n), math.log(t)) for n, t in points if n >= n_min and t and t > 0]
    if len(pts) < 2:
        return None
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    return sum((x - mx) * (y - my) for x, y in pts) / sxx if sxx else None


def steps_of(text):
    """The step count of a simulator's summary line ("... 102 steps, ...")."""
    m = re.search(r"(\d+) steps", text)
    return int(m.group(1)) if m else None


def hdf5_libs():
    """The link flags of HDF5, as the simulators need them."""
    try:
        out = subprocess.run(["pkg-config", "--libs", "hdf5"], capture_output=True, text=True)
        return out.stdout.split()
    except OSError:
        return []


def measure(a, family, n, nsmc, work, inc, libs):
    """One model: nsmc, its C, cc, and the simulator where it runs."""
    src = os.path.join(work, "%s%d.nsm" % (family, n))
    cfile = os.path.join(work, "%s%d.c" % (family, n))
    with open(src, "w") as f:
        f.write(model_text(family, n, False))
    r = {"family": family, "n": n, "gaps": n - 1 if family == "every" else 5}
    if a.baseline_nsmc:
        lit = os.path.join(work, "%s%d_literal.nsm" % (family, n))
        with open(lit, "w") as f:
            f.write(model_text(family, n, True))
        base_c = cfile + ".base.c"
        t, mem, rc, err = best([a.baseline_nsmc, lit, "-o", base_c], a.reps)
        r["base"] = (t, mem) if rc == 0 else first_error(err)
        if rc == 0:
            with open(base_c, "rb") as f:
                r["base_bytes"] = len(f.read())
            t, mem, rc2, err2 = best(["cc", "-O2", "-std=c11", "-c", base_c, "-I", inc,
                                      "-o", os.devnull], 1)
            r["base_cc"] = (t, mem) if rc2 == 0 else first_error(err2)
    t, mem, rc, err = best([nsmc, src, "-o", cfile], a.reps)
    if rc != 0:
        r["nsmc"] = first_error(err)
        return r
    r["nsmc"] = (t, mem)
    with open(cfile, "rb") as f:
        data = f.read()
    r["bytes"], r["lines"] = len(data), data.count(b"\n")
    t, mem, rc, err = best(["cc", "-O2", "-std=c11", "-c", cfile, "-I", inc, "-o", cfile + ".o"],
                           a.reps)
    r["cc"] = (t, mem) if rc == 0 else first_error(err)
    if rc != 0:
        return r
    exe = os.path.join(work, "%s%d" % (family, n))
    link = subprocess.run(["cc", "-O2", "-std=c11", cfile + ".o", "-o", exe] + libs,
                          capture_output=True, text=True)
    if link.returncode != 0:
        r["run"] = "link failed: " + first_error(link.stderr)
        return r
    # RUN_STEPS steps of the model's dt (10 us)
    t, mem, rc, err = best([exe, "--method", "rk4", "--t-end", "%g" % (RUN_STEPS * 1e-5),
                            "--out", os.devnull], 1, preexec_fn=cpu_limit)
    steps = steps_of(err)
    if rc == -signal.SIGXCPU or rc == -signal.SIGKILL:
        r["run"] = "stopped after %d s of CPU" % RUN_CPU_LIMIT
    else:
        r["run"] = (t / steps, steps) if rc == 0 and steps else first_error(err)
    return r


def build_sim(src_text, name, nsmc, work, inc, libs):
    """nsmc, cc and link for one model's text; the executable, or an error."""
    src = os.path.join(work, name + ".nsm")
    cfile = os.path.join(work, name + ".c")
    exe = os.path.join(work, name)
    with open(src, "w") as f:
        f.write(src_text)
    for cmd in ([nsmc, src, "-o", cfile],
                ["cc", "-O2", "-std=c11", cfile, "-I", inc, "-o", exe] + libs):
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            return None, first_error(p.stderr)
    return exe, None


def sim_run(exe, args):
    """CPU time, peak memory, steps and events of one simulator run (or an
    error text in place of the time)."""
    t, mem, rc, err = run([exe, "--out", os.devnull] + args, preexec_fn=cpu_limit)
    if rc == -signal.SIGXCPU or rc == -signal.SIGKILL:
        return "stopped after %d s of CPU" % RUN_CPU_LIMIT, mem, None, None
    if rc != 0:
        return first_error(err), mem, None, None
    ev = re.search(r"(\d+) events", err)
    return t, mem, steps_of(err), int(ev.group(1)) if ev else None


def per_step(exe, method, dt):
    """Simulator cost per step: two runs of k and 2k steps of dt, the
    difference of their CPU times over the difference of their steps (k
    from 200, grown until the difference is 0.3 s of CPU at least, so that
    the clock's resolution does not matter)."""
    k = 200
    while True:
        a = sim_run(exe, ["--method", method, "--dt", "%g" % dt, "--t-end", "%g" % (k * dt)])
        b = sim_run(exe, ["--method", method, "--dt", "%g" % dt, "--t-end", "%g" % (2 * k * dt)])
        for r in (a, b):
            if not isinstance(r[0], float):
                return r[0]
        if not (a[2] and b[2] and b[2] > a[2]):
            return "no steps counted"
        if b[0] - a[0] >= 0.3 or k >= 2000000:
            return (max(b[0] - a[0], 1e-9) / (b[2] - a[2]), b[1])
        k *= 4 if b[0] - a[0] < 0.05 else 2


def runtime_section(a, nsmc, work, inc, libs):
    """The simulator's cost per step against N, the 1000-bead second, the
    drill string; prints the tables and returns the per-step points."""
    sizes = [int(v) for v in a.runtime_sizes.split(",")]
    pts = {"rk4": [], "exact": []}
    print("\n| beads | gaps | rk4 per step [s] | rk4 memory [MB] | exact per step [s] | exact memory [MB] |")
    print("|---|---|---|---|---|---|")
    for n in sizes:
        exe, err = build_sim(GRANULAR.format(n=n), "granular%d" % n, nsmc, work, inc, libs)
        cells = {}
        for method in ("rk4", "exact"):
            r = per_step(exe, method, 1e-4) if exe else err
            cells[method] = r
            if isinstance(r, tuple):
                pts[method].append((n, r[0]))
        out = []
        for c in (cells["rk4"], cells["exact"]):
            out += ["%.3g" % c[0], "%.0f" % c[1]] if isinstance(c, tuple) else ["- (%s)" % c, "-"]
        print("| %d | %d | %s | %s | %s | %s |" % (n, n - 1, *out))
    for method in ("rk4", "exact"):
        e = fit(pts[method])
        print("\nsimulator cost per step with %s against N (N >= 100): fitted exponent %s"
              % (method, "%.2f" % e if e else "n/a"))
    # past 400 states (N >= 200 beads) exact takes its modes as operators
    e = fit(pts["exact"], 200)
    print("\nsimulator cost per step with exact against N (N >= 200, the modes as operators): "
          "fitted exponent %s" % ("%.2f" % e if e else "n/a"))
    print("\n| run | simulated | CPU [s] | steps | events | peak memory [MB] |")
    print("|---|---|---|---|---|---|")
    exe, err = build_sim(GRANULAR.format(n=1000), "granular1000", nsmc, work, inc, libs)
    with open(os.path.join(ROOT, "bench", "models", "drill_string.nsm")) as f:
        dexe, derr = build_sim(f.read(), "drill_string", nsmc, work, inc, libs)
    for what, e, args in (("granular chain, 1000 beads, rk4 (dt 0.1 ms)", exe, ["--method", "rk4"]),
                          ("granular chain, 1000 beads, exact (the modes' steps)", exe,
                           ["--method", "exact", "--dt", "0"]),
                          ("drill string, 200 elements, 20 stops, rk4 (dt 0.1 ms)", dexe,
                           ["--method", "rk4"])):
        if not e:
            print("| %s | 1 s | - (%s) | | | |" % (what, err or derr))
            continue
        t, mem, steps, events = sim_run(e, args)
        print("| %s | 1 s | %s | %s | %s | %.0f |" % (what, "%.3g" % t if isinstance(t, float)
                                                      else "- (%s)" % t, steps, events, mem))
    return pts


def cpu_limit():
    """In the simulator's process: at most RUN_CPU_LIMIT seconds of CPU."""
    resource.setrlimit(resource.RLIMIT_CPU, (RUN_CPU_LIMIT, RUN_CPU_LIMIT + 5))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--sizes", default="10,100,1000,10000")
    ap.add_argument("--families", default="every,five",
                    help="every: a gap between every pair; five: gaps between the first five pairs")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--baseline-nsmc")
    ap.add_argument("--plot")
    ap.add_argument("--keep")
    ap.add_argument("--runtime-sizes", default="10,100,300,1000,3000,10000",
                    help="granular chains whose simulator cost per step is measured")
    ap.add_argument("--runtime-plot", help="figure of the simulator's cost per step (gnuplot)")
    a = ap.parse_args()
    nsmc = os.path.join(a.build, "nsmc")
    work = a.keep or tempfile.mkdtemp(prefix="nsm-scale-")
    os.makedirs(work, exist_ok=True)
    inc = os.path.join(ROOT, "runtime", "include")
    libs = [os.path.join(a.build, "libnsmcli.a"), os.path.join(a.build, "libnsmrt.a")] + hdf5_libs() + ["-lm"]
    rows = []
    families = [f for f in a.families.split(",") if f]   # --families '': the runtime section only
    for family in families:
        for n in [int(v) for v in a.sizes.split(",")]:
            rows.append(measure(a, family, n, nsmc, work, inc, libs))
    def cell(v, fmt):
        return fmt(v) if isinstance(v, tuple) else ("- (%s)" % v if v else "-")

    print("| chain | beads | gaps | nsmc [s] | nsmc memory [MB] | C bytes / lines | cc -O2 -c [s] | cc memory [MB] | rk4 per step |"
          + (" before: nsmc [s] | before: C bytes | before: cc -O2 -c [s] |" if a.baseline_nsmc else ""))
    print("|---" * (9 + (3 if a.baseline_nsmc else 0)) + "|")
    for r in rows:
        line = "| %s | %d | %d | %s | %s | %s | %s | %s | %s |" % (
            r["family"], r["n"], r["gaps"], cell(r.get("nsmc"), lambda v: "%.3g" % v[0]),
            cell(r.get("nsmc"), lambda v: "%.0f" % v[1]),
            "%d / %d" % (r["bytes"], r["lines"]) if "bytes" in r else "-",
            cell(r.get("cc"), lambda v: "%.3g" % v[0]), cell(r.get("cc"), lambda v: "%.0f" % v[1]),
            cell(r.get("run"), lambda v: "%.3g s (%d steps)" % v))
        if a.baseline_nsmc:
            line += " %s | %s | %s |" % (cell(r.get("base"), lambda v: "%.3g" % v[0]),
                                          r.get("base_bytes", "-"),
                                          cell(r.get("base_cc"), lambda v: "%.3g" % v[0]))
        print(line)
    for family in families:
        for key, what in (("nsmc", "nsmc"), ("cc", "cc -O2 -c")):
            e = fit([(r["n"], r[key][0]) for r in rows
                     if r["family"] == family and isinstance(r.get(key), tuple)])
            print("\nchain '%s': fitted exponent of %s time against N (N >= 100): %s"
                  % (family, what, "%.2f" % e if e else "n/a"))
    if a.plot:
        dat = os.path.join(work, "scale.dat")
        with open(dat, "w") as f:
            for r in rows:
                if r["family"] == "every" and isinstance(r.get("nsmc"), tuple) \
                        and isinstance(r.get("cc"), tuple):
                    f.write("%d %.6g %.6g\n" % (r["n"], r["nsmc"][0], r["cc"][0]))
        last = [r for r in rows if r["family"] == "every" and isinstance(r.get("nsmc"), tuple)]
        k = last[-1]["nsmc"][0] / last[-1]["n"] if last else 1e-5
        script = """set terminal pngcairo size 800,500 font ",11"
set output '{out}'
set logscale xy
set xlabel 'beads N (N - 1 gaps)'
set ylabel 'CPU time [s]'
set key top left
set grid
set title 'Compiling a chain of N beads with a gap between every pair'
plot '{dat}' using 1:2 with linespoints lw 2 pt 7 title 'nsmc', \\
     '{dat}' using 1:3 with linespoints lw 2 pt 5 title 'cc -O2 -c (generated C)', \\
     '{dat}' using 1:($1*{k}) with lines dt 2 lc rgb 'gray' title 'linear in N'
""".format(out=a.plot, dat=dat, k="%.3g" % k)
        if shutil.which("gnuplot"):
            subprocess.run(["gnuplot"], input=script, text=True, check=True)
            print("\nfigure: %s" % a.plot)
        else:
            print("\ngnuplot not found: no figure", file=sys.stderr)
    pts = runtime_section(a, nsmc, work, inc, libs)
    if a.runtime_plot and pts["rk4"]:
        dat = os.path.join(work, "runtime.dat")
        with open(dat, "w") as f:
            ex = dict(pts["exact"])
            for n, t in pts["rk4"]:
                f.write("%d %.6g %s\n" % (n, t, "%.6g" % ex[n] if n in ex else "NaN"))
        n0, t0 = pts["rk4"][-1]
        script = """set terminal pngcairo size 800,500 font ",11"
set output '{out}'
set logscale xy
set xlabel 'beads N (N - 1 gaps)'
set ylabel 'CPU time per step [s]'
set key top left
set grid
set title 'Simulating a granular chain of N beads: cost of one step of 0.1 ms'
plot '{dat}' using 1:2 with linespoints lw 2 pt 7 title 'rk4', \\
     '{dat}' using 1:3 with linespoints lw 2 pt 5 title 'exact', \\
     '{dat}' using 1:($1*{k}) with lines dt 2 lc rgb 'gray' title 'linear in N'
""".format(out=a.runtime_plot, dat=dat, k="%.3g" % (t0 / n0))
        if shutil.which("gnuplot"):
            subprocess.run(["gnuplot"], input=script, text=True, check=True)
            print("\nfigure: %s" % a.runtime_plot)
    if not a.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
