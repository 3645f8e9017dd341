#!/usr/bin/env python3
"""End-to-end tests of `nsmc run`: build, cache, parameters, plots, errors.

    tests/workflow/workflow_test.py NSMC SOURCE_DIR CASE

Each case runs in a fresh temporary directory with its own simulator cache
(XDG_CACHE_HOME), so the cases are independent of each other and of the
user's cache.  A case prints what it checked and exits 1 on the first
failure.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

NSMC = os.path.abspath(sys.argv[1])
SRC = os.path.abspath(sys.argv[2])
TWO_MASS = os.path.join(SRC, "models", "two_mass.nsm")


class Failure(Exception):
    pass


def check(cond, what, proc=None):
    """Fails the case with a message (and the process's output) unless cond."""
    if not cond:
        if proc is not None:
            what += "\n--- exit %d\n--- stdout:\n%s\n--- stderr:\n%s" % (
                proc.returncode, proc.stdout, proc.stderr)
        raise Failure(what)
    print("ok:", what.splitlines()[0])


def nsmc_run(tmp, *args, env=None, nsmc=NSMC):
    """Runs `nsmc run ARGS` in tmp with the cache in tmp/cache."""
    e = dict(os.environ)
    e["XDG_CACHE_HOME"] = os.path.join(tmp, "cache")
    e.update(env or {})
    return subprocess.run([nsmc, "run", *args], cwd=tmp, env=e, capture_output=True,
                          text=True, timeout=300)


def read_csv(path):
    """Header fields and rows (lists of strings) of a CSV file."""
    with open(path, encoding="utf-8") as f:
        lines = [l.rstrip("\n") for l in f if l.strip()]
    return lines[0].split(","), [l.split(",") for l in lines[1:]]


def check_plots(outdir, names=("plot.png", "plot.svg")):
    """The plot files exist and are what their extension says."""
    for name in names:
        path = os.path.join(outdir, name)
        check(os.path.isfile(path), "%s was written" % name)
        data = open(path, "rb").read()
        if name.endswith(".png"):
            check(data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 10000,
                  "%s is a PNG image (%d bytes)" % (name, len(data)))
        else:
            check(b"<svg" in data and b"</svg>" in data, "%s is an SVG document" % name)


def case_run(tmp):
    """The two-mass model end to end: table, files, summary, plots."""
    p = nsmc_run(tmp, TWO_MASS, "--phase")
    check(p.returncode == 0, "nsmc run two_mass.nsm exits 0", p)
    out = os.path.join(tmp, "out", "two_mass")
    head, rows = read_csv(os.path.join(out, "trajectory.csv"))
    check(head == ["t [s]", "M1.x [m]", "M2.x [m]", "M1.v [m/s]", "M2.v [m/s]", "C.force [N]"],
          "trajectory header names the outputs with units: %s" % head)
    # t_end = 20 s sampled every 10 ms: 2001 samples from 0 to 20
    check(len(rows) == 2001 and float(rows[0][0]) == 0 and abs(float(rows[-1][0]) - 20) < 1e-9,
          "trajectory samples t = 0 .. 20 s every 10 ms (%d rows)" % len(rows))
    # the initial state of the model: both masses at -1 m, at rest
    check([float(v) for v in rows[0][1:5]] == [-1, -1, 0, 0], "initial state from `init`")
    head, ev = read_csv(os.path.join(out, "events.csv"))
    check(head == ["t", "kind", "contact", "vrel_before", "vrel_after", "impulse",
                   "energy_lost", "count"], "event log header")
    kinds = [r[1] for r in ev]
    check(kinds[:2] == ["stick", "separation"] and "impact" in kinds,
          "events: the masses start stuck, separate, then collide (%s)" % kinds)
    check(re.search(r"^t \[s\] +event +contact", p.stdout, re.M) is not None,
          "the event table is printed", p)
    check(re.search(r"^events: %d \(" % len(ev), p.stdout, re.M) is not None,
          "the summary counts the events", p)
    lost = sum(float(r[6]) for r in ev)
    m = re.search(r"^energy lost in events: (\S+) J", p.stdout, re.M)
    check(m is not None and abs(float(m.group(1)) - lost) <= 1e-5 * lost,
          "the summary adds up the energy lost (%g J)" % lost, p)
    check("out/two_mass/plot.png" in p.stdout, "nsmc run says where the plots are", p)
    check_plots(out, ("plot.png", "plot.svg", "phase.png", "phase.svg"))
    gp = open(os.path.join(out, "plot.gp"), encoding="utf-8").read()
    # contact C is closed from t = 0 to the separation: one shaded interval
    sep = float(ev[kinds.index("separation")][0])
    check(re.search(r"set object 1 rect from 0, graph 0 to %s," % re.escape("%.17g" % sep), gp)
          is not None, "the stuck phase 0 .. %g s is shaded" % sep)
    check(len(re.findall(r"^set arrow from", gp, re.M)) == kinds.count("impact"),
          "every impact is marked")
    check("'trajectory.csv'" in gp or '"trajectory.csv"' in gp,
          "plot.gp names the data relative to its folder")


def case_cache(tmp):
    """The second run reuses the simulator; a changed model is rebuilt."""
    p1 = nsmc_run(tmp, TWO_MASS, "--no-plot")
    check(p1.returncode == 0 and "compiling the simulator" in p1.stderr,
          "first run compiles the simulator", p1)
    p2 = nsmc_run(tmp, TWO_MASS, "--no-plot", "--set", "e=0.5")
    check(p2.returncode == 0 and "using the cached simulator" in p2.stderr
          and "compiling" not in p2.stderr,
          "second run (other parameters) uses the cached simulator", p2)
    changed = os.path.join(tmp, "two_mass.nsm")
    text = open(TWO_MASS, encoding="utf-8").read()
    with open(changed, "w", encoding="utf-8") as f:
        f.write(text.replace("param k2 = 1 N/m", "param k2 = 1.5 N/m"))
    p3 = nsmc_run(tmp, changed, "--no-plot")
    check(p3.returncode == 0 and "compiling the simulator" in p3.stderr,
          "a changed model is compiled again", p3)
    check("no plot" not in p3.stdout and not os.path.exists(
        os.path.join(tmp, "out", "two_mass", "plot.png")), "--no-plot draws nothing")


def first_impact_ratio(tmp):
    """vrel_after / vrel_before of the first impact in out/two_mass/events.csv."""
    _, ev = read_csv(os.path.join(tmp, "out", "two_mass", "events.csv"))
    imp = [r for r in ev if r[1] == "impact"]
    return float(imp[0][4]) / float(imp[0][3]) if imp else None


def case_set_file(tmp):
    """--set-file values reach the simulator; --set takes precedence; bad files are errors."""
    sf = os.path.join(tmp, "params.set")
    with open(sf, "w", encoding="utf-8") as f:
        f.write("# softer impact\n\n  e = 0.5   # restitution\nk1=2\n")
    p = nsmc_run(tmp, TWO_MASS, "--no-plot", "--set-file", sf)
    r = first_impact_ratio(tmp)
    # Newton's law: the relative velocity after an impact is -e times the one before
    check(p.returncode == 0 and r is not None and abs(r + 0.5) < 1e-9,
          "--set-file e = 0.5 gives vrel+ = -0.5 vrel- (ratio %r)" % r, p)
    p = nsmc_run(tmp, TWO_MASS, "--no-plot", "--set-file", sf, "--set", "e=0.25")
    r = first_impact_ratio(tmp)
    check(p.returncode == 0 and r is not None and abs(r + 0.25) < 1e-9,
          "--set e=0.25 overrides the file (ratio %r)" % r, p)
    with open(sf, "w", encoding="utf-8") as f:
        f.write("e = 0.5\nk1 2\n")
    p = nsmc_run(tmp, TWO_MASS, "--no-plot", "--set-file", sf)
    check(p.returncode == 1 and "params.set:2:" in p.stderr and "NAME = VALUE" in p.stderr,
          "a malformed line is reported with file:line, exit 1", p)
    with open(sf, "w", encoding="utf-8") as f:
        f.write("stiffness = 3\n")
    p = nsmc_run(tmp, TWO_MASS, "--no-plot", "--set-file", sf)
    check(p.returncode == 1 and "params.set:1: unknown parameter 'stiffness'" in p.stderr,
          "an unknown parameter in the file is an error at its line, exit 1", p)
    p = nsmc_run(tmp, TWO_MASS, "--no-plot", "--set-file", os.path.join(tmp, "missing.set"))
    check(p.returncode == 1 and "missing.set" in p.stderr, "a missing file is an error", p)


def case_errors(tmp):
    """User errors exit 1 with a clear message; a compiler failure is internal (2)."""
    p = nsmc_run(tmp)
    check(p.returncode == 1 and "no input file" in p.stderr, "no input file: exit 1", p)
    p = nsmc_run(tmp, "nothere.nsm")
    check(p.returncode == 1 and "nothere.nsm" in p.stderr, "missing model file: exit 1", p)
    bad = os.path.join(tmp, "bad.nsm")
    with open(bad, "w", encoding="utf-8") as f:
        f.write("mass M = 1 kg\nspring S: ground -- M3, k = 1 N/m\n")
    p = nsmc_run(tmp, bad)
    check(p.returncode == 1 and "bad.nsm:2:" in p.stderr and "error:" in p.stderr,
          "an error in the model is reported at its line, exit 1", p)
    p = nsmc_run(tmp, TWO_MASS, "--frobnicate")
    check(p.returncode == 1 and "unknown option '--frobnicate'" in p.stderr,
          "unknown option: exit 1", p)
    p = nsmc_run(tmp, TWO_MASS, "--no-plot", "--set", "zz=1")
    check(p.returncode == 1 and "unknown parameter 'zz'" in p.stderr,
          "unknown parameter: exit 1 with the valid names", p)
    p = nsmc_run(tmp, TWO_MASS, "--", "--out", "x.csv")
    check(p.returncode == 1 and "--out-dir" in p.stderr,
          "--out for the simulator is refused, pointing to --out-dir", p)
    p = nsmc_run(tmp, TWO_MASS, "--no-plot", "--", "--t-end", "oops")
    check(p.returncode == 1 and "oops" in p.stderr, "bad simulator argument: exit 1", p)
    p = nsmc_run(tmp, TWO_MASS, env={"CC": "false"})
    check(p.returncode == 1 and "internal error" not in p.stderr and
          "the C compiler named by CC ('false') failed on the generated C" in p.stderr,
          "a compiler of the user's (CC) failing on the generated C is named, exit 1 (an "
          "internal error only with the default compiler)", p)
    p = nsmc_run(tmp, TWO_MASS, env={"CC": "no-such-compiler-nsm"})
    check(p.returncode == 1 and "no-such-compiler-nsm" in p.stderr,
          "a missing C compiler is named, exit 1", p)
    p = nsmc_run(tmp, "--help")
    check(p.returncode == 0 and "--set-file" in p.stdout, "nsmc run --help", p)


def case_no_plot(tmp):
    """Nothing to plot, or no gnuplot: the run still succeeds and says why."""
    p = nsmc_run(tmp, TWO_MASS, "--", "--t-end", "0")
    check(p.returncode == 0 and "no plot:" in p.stdout and "no time interval" in p.stdout,
          "a single sample: no plot, and why", p)
    only_x = os.path.join(tmp, "only_x.nsm")
    with open(only_x, "w", encoding="utf-8") as f:
        f.write("mass M = 1 kg\nspring S: ground -- M, k = 1 N/m\ninit M.x = 1 m\n"
                "simulate t_end = 1 s\noutput every 10 ms: M.x\n")
    p = nsmc_run(tmp, only_x, "--phase")
    check(p.returncode == 0 and "no phase portrait" in p.stdout
          and os.path.isfile(os.path.join(tmp, "out", "only_x", "plot.png")),
          "--phase without velocities: the time plot, and why there is no portrait", p)
    # the simulator is cached now, so no compiler is needed: hide gnuplot
    p = nsmc_run(tmp, TWO_MASS, env={"PATH": "/nonexistent"})
    check(p.returncode == 0 and "gnuplot is not installed" in p.stdout,
          "without gnuplot the run succeeds and says so", p)
    check(os.path.isfile(os.path.join(tmp, "out", "two_mass", "plot.gp"))
          and not os.path.exists(os.path.join(tmp, "out", "two_mass", "plot.png")),
          "the script is left for later, no stale image")


def case_sim_failure(tmp):
    """A simulation that fails exits 3, and what it computed is still plotted."""
    p = nsmc_run(tmp, TWO_MASS, "--", "--max-steps", "300", "--dt", "0.4")
    check(p.returncode == 3 and "step cap" in p.stderr and "simulation failed" in p.stderr,
          "a step cap reached: exit 3 with the simulator's reason", p)
    _, rows = read_csv(os.path.join(tmp, "out", "two_mass", "trajectory.csv"))
    check(0 < len(rows) < 2001 and float(rows[-1][0]) <= 3.0,
          "the trajectory holds the samples up to the failure (%d rows)" % len(rows))
    check_plots(os.path.join(tmp, "out", "two_mass"))


def case_run_progress(tmp):
    """A long run shows a progress bar on a terminal, never in a pipe."""
    p = nsmc_run(tmp, TWO_MASS, "--no-plot", "--", "--t-end", "300", "--every", "1",
                 env={"NSM_PROGRESS_DELAY": "0"})
    check(p.returncode == 0, "a long run succeeds", p)
    check("\r" not in p.stderr and "%" not in p.stderr and "\r" not in p.stdout,
          "no progress bar in piped output", p)
    # the same kind of run on a terminal does show it (so the check above means something)
    import pty
    master, slave = pty.openpty()
    # no wait before the bar, so the check does not depend on the machine's speed
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cache"), NSM_PROGRESS_DELAY="0")
    proc = subprocess.Popen([NSMC, "run", TWO_MASS, "--no-plot", "--", "--t-end", "300",
                             "--every", "1"], cwd=tmp, env=env, stdin=slave,
                            stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    proc.wait(timeout=300)
    os.close(master)
    check(proc.returncode == 0 and re.search(rb"\r\[[#.]+\] +\d+%", out),
          "a long run on a terminal shows the progress bar: %r" % out[-200:])


def case_install(tmp):
    """`cmake --install` to a prefix, then that nsmc runs a model."""
    build = sys.argv[4]
    prefix = os.path.join(tmp, "prefix")
    p = subprocess.run(["cmake", "--install", build, "--prefix", prefix],
                       capture_output=True, text=True, timeout=300)
    check(p.returncode == 0, "cmake --install to a temporary prefix", p)
    for f in ("bin/nsmc", "lib/libnsmrt.a", "include/nsm/nsm.h", "include/nsm/model.h",
              "share/man/man1/nsmc.1", "share/man/man5/nsm.5"):
        check(os.path.isfile(os.path.join(prefix, f)), "installed %s" % f)
    # the installed nsmc must use the installed runtime: hide the build tree's
    p = nsmc_run(tmp, TWO_MASS, "-v", nsmc=os.path.join(prefix, "bin", "nsmc"))
    check(p.returncode == 0, "the installed nsmc runs a model", p)
    check(os.path.join(prefix, "lib", "libnsmrt.a") in p.stderr
          and os.path.join(prefix, "include") in p.stderr,
          "it builds against the installed runtime and headers", p)
    check_plots(os.path.join(tmp, "out", "two_mass"))
    # the cache key covers the runtime: a changed library or header rebuilds
    installed = os.path.join(prefix, "bin", "nsmc")
    p = nsmc_run(tmp, TWO_MASS, "--no-plot", nsmc=installed)
    check(p.returncode == 0 and "using the cached simulator" in p.stderr,
          "unchanged model and runtime: cached", p)
    extra = os.path.join(tmp, "extra.c")
    with open(extra, "w") as f:
        f.write("int nsm_workflow_test_extra;\n")
    lib = os.path.join(prefix, "lib", "libnsmrt.a")
    subprocess.run(["cc", "-c", extra, "-o", os.path.join(tmp, "extra.o")], check=True)
    subprocess.run(["ar", "r", lib, os.path.join(tmp, "extra.o")], check=True)
    p = nsmc_run(tmp, TWO_MASS, "--no-plot", nsmc=installed)
    check(p.returncode == 0 and "compiling the simulator" in p.stderr,
          "a changed runtime library: rebuilt", p)
    with open(os.path.join(prefix, "include", "nsm", "nsm.h"), "a") as f:
        f.write("/* changed */\n")
    p = nsmc_run(tmp, TWO_MASS, "--no-plot", nsmc=installed)
    check(p.returncode == 0 and "compiling the simulator" in p.stderr,
          "a changed runtime header: rebuilt", p)


def main():
    case = sys.argv[3]
    fn = globals().get("case_" + case)
    if not fn:
        sys.exit("unknown case %s" % case)
    tmp = tempfile.mkdtemp(prefix="nsm-workflow-")
    try:
        fn(tmp)
    except Failure as e:
        print("FAIL:", e)
        sys.exit(1)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
