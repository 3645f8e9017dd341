#!/usr/bin/env python3
"""The command lines of nsmc, nsmc run and the simulators (label workflow).

    options_test.py NSMC SOURCE_DIR SIMS_DIR CASE

  help       every option the parsers accept (read from their sources:
             compiler/main.c, compiler/commands/run.c, runtime/programs/driver.c, and
             runtime/programs/sweep.c for nsmc sweep) appears in the --help text
             of nsmc, nsmc run and a simulator, with a description.
  table      the simulator prints the event table on stdout only when no
             --events file is named, or with --table; --events-max N cuts it.
  set_units  --set NAME='VALUE UNIT' is converted to SI (the run equals the
             one with the SI number), a unit of another dimension, an unknown
             unit, and Hz for a parameter in rad/s are refused.
  size_param --set on a parameter that sizes the model: a value that is no
             size is explained, not answered with advice nsmc would refuse.
  run        nsmc run: simulator options without '--', -q, --events-max,
             and a summary that counts every kind of event (slip, reversal).
  cache      nsmc cache clean removes the cached simulators and nothing else.
"""
import csv
import os
import re
import shutil
import subprocess
import sys
import tempfile

FAILS = []


def check(cond, what, p=None):
    """Records a failed check, with the process's output."""
    if cond:
        print("ok: " + what)
        return
    FAILS.append(what)
    print("FAIL: " + what)
    if p is not None:
        print("  exit %s\n  stdout: %s\n  stderr: %s" % (p.returncode, p.stdout[-1500:],
                                                       p.stderr[-1500:]))


def run(cmd, **kw):
    """Runs a command, capturing text output."""
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, **kw)


def function_body(text, signature):
    """The text of the C function whose definition starts with signature."""
    i = text.index(signature)
    j = text.index("\n}\n", i)
    return text[i:j]


def options_in(text):
    """Every option string a parser compares its arguments with."""
    opts = set(re.findall(r'strcmp\((?:a|s|argv\[i\]), "(-[-\w=]*)"\)', text))
    return opts | set(re.findall(r'"(--[a-z][-a-z]*)",?\s', text))


def help_lists(help_text, opts, what):
    """Each option must start a described line of the help text."""
    for o in sorted(opts):
        ok = re.search(r"(^|[\s,|\[])%s([\s,=|\]]|$)" % re.escape(o), help_text, re.M)
        check(ok is not None, "%s --help names %s" % (what, o))


def case_help(nsmc, src, sims):
    read = lambda *p: open(os.path.join(src, *p), encoding="utf-8").read()
    main_opts = options_in(function_body(read("compiler", "main.c"), "static int parse_args"))
    run_c = read("compiler", "commands", "run.c")
    run_opts = options_in(function_body(run_c, "static int run_parse_args"))
    run_opts |= options_in(run_c[run_c.index("sim_valued[]"):run_c.index("sim_other_valued[]")])
    drv = options_in(function_body(read("runtime", "programs", "driver.c"), "int nsm_main("))
    sweep = options_in(function_body(read("runtime", "programs", "sweep.c"), "static int sweep_args"))
    check(len(main_opts) >= 10 and len(run_opts) >= 20 and len(drv) >= 25 and len(sweep) >= 12,
          "the parsers' options were found (%d, %d, %d, %d)"
          % (len(main_opts), len(run_opts), len(drv), len(sweep)))
    top = run([nsmc, "--help"]).stdout
    help_lists(top, main_opts, "nsmc")
    help_lists(top, sweep - {"-h", "--help"}, "nsmc (sweep's options)")
    help_lists(run([nsmc, "run", "--help"]).stdout, run_opts, "nsmc run")
    help_lists(run([os.path.join(sims, "sim_two_mass"), "--help"]).stdout, drv, "the simulator")


def events_of(path):
    """(t, kind) of an events CSV."""
    with open(path) as f:
        return [(float(r["t"]), r["kind"]) for r in csv.DictReader(f)]


def case_table(nsmc, src, sims):
    sim = os.path.join(sims, "sim_two_mass")
    tmp = tempfile.mkdtemp(prefix="nsm-table-")
    try:
        ev = os.path.join(tmp, "ev.csv")
        rows = lambda out: [l for l in out.splitlines() if re.match(r"^\d\S*\s+(impact|stick|"
                                                                    r"separation)\s", l)]
        p = run([sim, "--out", os.path.join(tmp, "t.csv")])
        check(p.returncode == 0 and len(rows(p.stdout)) == 4 and "vrel-" in p.stdout,
              "without --events the table of the 4 events is printed", p)
        p = run([sim, "--events", ev])
        check(p.returncode == 0 and p.stdout == "" and len(events_of(ev)) == 4,
              "with --events FILE nothing goes to stdout, the file holds the events", p)
        p = run([sim, "--events", ev, "--table"])
        check(p.returncode == 0 and len(rows(p.stdout)) == 4, "--table prints it as well", p)
        p = run([sim, "--events", ev, "--table", "--events-max", "1"])
        check(p.returncode == 0 and len(rows(p.stdout)) == 1 and
              "... 3 more events not shown (--events-max 1); all of them in " + ev in p.stdout
              and len(events_of(ev)) == 4, "--events-max 1 prints one row and says how many "
              "more, the file keeps all", p)
        p = run([sim, "--events-max", "-1"])
        check(p.returncode == 1 and "bad value '-1' for --events-max" in p.stderr,
              "--events-max -1 is refused", p)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def case_set_units(nsmc, src, sims):
    sim = os.path.join(sims, "sim_two_mass")
    tmp = tempfile.mkdtemp(prefix="nsm-units-")
    try:
        def evs(*sets):
            path = os.path.join(tmp, "ev.csv")
            args = [sim, "--method", "exact", "--events", path]
            for s in sets:
                args += ["--set", s]
            p = run(args)
            return (events_of(path) if p.returncode == 0 else None), p
        same = lambda a, b: (a is not None and b is not None and len(a) == len(b) and
                             all(k == l and abs(t - u) < 1e-12 for (t, k), (u, l) in zip(a, b)))
        base, _ = evs()
        si, _ = evs("k1=4", "c1=0.5")
        units, p = evs("k1=4000 g/s^2", "c1=500 g/s")
        check(same(units, si) and not same(si, base),
              "'k1=4000 g/s^2' and 'c1=500 g/s' give the run of k1=4, c1=0.5 (not the "
              "default's)", p)
        kn, p = evs("k1=0.004 kN/m")
        check(same(kn, evs("k1=4")[0]), "a prefixed unit: 0.004 kN/m is 4 N/m", p)
        for value, msg in (("k1=2 kg", "'kg' is not a unit of N/m, the parameter's unit"),
                           ("e=0.5 m", "'m' given for a dimensionless parameter"),
                           ("k1=2 furlong", "unknown unit 'furlong'"),
                           ("k1=abc", "bad value 'abc' for parameter 'k1'")):
            p = run([sim, "--set", value])
            check(p.returncode == 1 and msg in p.stderr and p.stdout == "",
                  "--set %s is refused: %s" % (value, msg), p)
        fio = os.path.join(sims, "sim_forced_impact_oscillator")
        p = run([fio, "--set", "omega=0.4 Hz", "--t-end", "1"])
        check(p.returncode == 1 and "1 Hz = 2*pi rad/s" in p.stderr,
              "Hz for a parameter in rad/s is refused (they differ by 2 pi)", p)
        p = run([fio, "--set", "omega=2.5 rad/s", "--t-end", "1", "--events", os.devnull])
        check(p.returncode == 0, "rad/s for a parameter in rad/s is accepted", p)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


SIZED = """model sized "A row of N masses"
param N = 3
param m = 1 kg
mass P[1..N] = m
for i in 1..N: spring ground -- P[i], k = 1 N/m
init P[1].x = 0.1 m
simulate t_end = 1 s, method = exact
"""


def env_for(tmp):
    """nsmc run's environment: its cache inside tmp."""
    env = dict(os.environ)
    env["XDG_CACHE_HOME"] = os.path.join(tmp, "cache")
    return env


def case_size_param(nsmc, src, sims):
    tmp = tempfile.mkdtemp(prefix="nsm-size-")
    try:
        model = os.path.join(tmp, "sized.nsm")
        with open(model, "w") as f:
            f.write(SIZED)
        env = env_for(tmp)
        base = [nsmc, "run", model, "--no-plot", "-q", "--out-dir", os.path.join(tmp, "o")]
        p = run(base + ["--set", "N=-1"], env=env)
        check(p.returncode == 1 and "-1 is not a size" in p.stderr and
              "param N = -1" not in p.stderr, "--set N=-1 says a size is a whole number >= 0 "
              "and gives no advice nsmc refuses", p)
        p = run(base + ["--set", "N=2.5"], env=env)
        check(p.returncode == 1 and "2.5 is not a size" in p.stderr, "--set N=2.5 too", p)
        p = run(base + ["--set", "N=4"], env=env)
        check(p.returncode == 1 and "param N = 4" in p.stderr,
              "--set N=4 advises declaring param N = 4 and generating again", p)
        setf = os.path.join(tmp, "p.set")
        with open(setf, "w") as f:
            f.write("m = 2\nN = -3\n")
        p = run(base + ["--set-file", setf], env=env)
        check(p.returncode == 1 and "p.set:2: parameter 'N'" in p.stderr and
              "param N = -3" not in p.stderr, "a set file's N = -3 likewise, with its line", p)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def case_run(nsmc, src, sims):
    tmp = tempfile.mkdtemp(prefix="nsm-runopt-")
    try:
        env = env_for(tmp)
        two = os.path.join(src, "models", "two_mass.nsm")
        out = os.path.join(tmp, "o")
        rows = lambda s: [l for l in s.splitlines() if re.match(r"^\d\S*\s+[a-z_]+\s+C\s", l)]
        p = run([nsmc, "run", two, "--no-plot", "--out-dir", out, "--method", "exact",
                 "--t-end", "15", "--every", "0.5"], env=env)
        check(p.returncode == 0 and "method exact" in p.stderr and len(rows(p.stdout)) == 3,
              "simulator options before '--' reach the simulator; the table is printed", p)
        with open(os.path.join(out, "trajectory.csv")) as f:
            n = len(f.read().splitlines())
        check(n == 32, "--t-end 15 --every 0.5 give 31 samples (%d lines)" % n)
        p = run([nsmc, "run", two, "--no-plot", "--out-dir", out, "-q"], env=env)
        check(p.returncode == 0 and rows(p.stdout) == [] and
              "events: 4 (2 impact, 1 stick, 1 separation)" in p.stdout,
              "-q: no event table, the summary stays", p)
        p = run([nsmc, "run", two, "--no-plot", "--out-dir", out, "--events-max", "2"], env=env)
        check(p.returncode == 0 and len(rows(p.stdout)) == 2 and "2 more events" in p.stdout,
              "--events-max 2", p)
        p = run([nsmc, "run", two, "--no-plot", "--out-dir", out, "--", "--method", "exact"],
                env=env)
        check(p.returncode == 0 and "method exact" in p.stderr, "'--' still passes options", p)
        p = run([nsmc, "run", two, "--method"], env=env)
        check(p.returncode == 1 and "'--method' needs a value" in p.stderr, "--method alone", p)
        fr = os.path.join(src, "models", "coulomb_oscillator.nsm")
        out = os.path.join(tmp, "f")
        p = run([nsmc, "run", fr, "--no-plot", "-q", "--out-dir", out], env=env)
        kinds = {}
        for r in csv.DictReader(open(os.path.join(out, "events.csv"))):
            kinds[r["kind"]] = kinds.get(r["kind"], 0) + 1
        m = re.search(r"^events: (\d+) \((.*)\)$", p.stdout, re.M)
        said = dict((k, int(n)) for n, k in re.findall(r"(\d+) (\w+)", m.group(2))) if m else {}
        check(p.returncode == 0 and ("slip" in kinds or "reversal" in kinds) and said == kinds
              and int(m.group(1)) == sum(kinds.values()),
              "the summary counts every kind of event of events.csv (%s)" % kinds, p)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def case_cache(nsmc, src, sims):
    tmp = tempfile.mkdtemp(prefix="nsm-cache-")
    try:
        env = env_for(tmp)
        root = os.path.join(tmp, "cache", "nsm")
        p = run([nsmc, "cache", "clean"], env=env)
        check(p.returncode == 0 and "empty" in p.stdout, "cleaning a missing cache", p)
        p = run([nsmc, "run", os.path.join(src, "models", "bouncing_ball.nsm"), "--no-plot",
                 "-q", "--out-dir", os.path.join(tmp, "o")], env=env)
        entries = os.listdir(root) if os.path.isdir(root) else []
        check(p.returncode == 0 and len(entries) == 1, "nsmc run caches one program", p)
        keep = os.path.join(root, "notes.txt")
        with open(keep, "w") as f:
            f.write("not nsm's\n")
        p = run([nsmc, "cache", "clean"], env=env)
        check(p.returncode == 0 and "removed 1 cached program " in p.stdout and
              os.listdir(root) == ["notes.txt"], "nsmc cache clean removes it, and only it", p)
        p = run([nsmc, "cache", "frob"], env=env)
        check(p.returncode == 1 and "usage: nsmc cache clean" in p.stderr, "bad subcommand", p)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    nsmc, src, sims, case = sys.argv[1:5]
    globals()["case_" + case](nsmc, src, sims)
    if FAILS:
        sys.exit("%d check(s) failed" % len(FAILS))
    print("all checks passed")


if __name__ == "__main__":
    main()
