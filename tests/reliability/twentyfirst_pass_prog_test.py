#!/usr/bin/env python3
"""A twenty-first hostile pass over the programs (issue #29): the CSV
outputs' time-driven writes under SIGKILL, options given as --NAME=VALUE.

    tests/reliability/twentyfirst_pass_prog_test.py NSMC SIM SOURCE_DIR CASE

SIM is sim_bouncing_ball.  Cases (each under 20 s in the normal build):
  findings_quiet  the simulator's --events FILE (alone, or beside --out and
                  a --section-out that keep writing) killed by SIGKILL
                  seconds after the ball's landing: events.csv held 0 bytes,
                  not even its header, the landing lost though it ended
                  long before the 0.25 s bound (a CSV output was written
                  only at its own line ends).  Now every output whose lines
                  have waited 0.25 s is written at each sample, event and
                  section record: the landing is there.
  findings_order  `nsmc sweep --out-dir=D M.nsm ...` and `nsmc continue
                  --param omega=2.4:2.6 M.nsm ...` (options before the model,
                  as nsmc run takes them): refused, "no model file given",
                  the model named on the same line.  Now the model is the
                  first word that is neither an option nor an option's
                  value: the same section, summary and branch as with the
                  model first.
  findings_steps  Model.continuation(ds=0.1, ds_max=0.01) or ds_min=0.1 above
                  ds: SettingError "continuation: bad options (steps, range
                  or period)", the cause unnamed, where nsmc continue says
                  "the steps must satisfy ds-min <= ds <= ds-max".  Now a
                  SettingError naming the three steps.
  findings_script the simulator's --plot P and --animate a.gif under a
                  file-size limit that the CSV files fit in and the gnuplot
                  script does not: exit 1, "cannot write 'P/plot.gp': File
                  too large", and the script left cut at the limit (2048 or
                  8192 bytes), a half-written output.  Now removed.
  findings_h5clash a simulator's --stats, --events or --section-out r.h5 while
                  another writes r.h5 as HDF5 (its locked r.h5.PID.partial),
                  and --out s.h5 while another writes s.h5 as its --stats:
                  exit 0, and the first run's rename at its end replaced the
                  CSV silently (or the HDF5 file replaced the other's
                  statistics).  Now refused as "in use by another running
                  program", the first run's file what it wrote.
  kept_attached   every option of the simulator and of nsmc run in both
                  forms (--NAME VALUE and --NAME=VALUE), values with '='
                  inside, empty values, repeated options, options before
                  the model: the same result or the same refusal.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import math
import os
import random
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import Failure, alive, check, env_for, main, python_script, run  # noqa: E402

NSMC, SIM = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
SRC = os.path.abspath(sys.argv[3])
BALL = os.path.join(SRC, "models", "bouncing_ball.nsm")
FIO = os.path.join(SRC, "models", "forced_impact_oscillator.nsm")

# the ball of models/bouncing_ball.nsm (m = 1 kg, g = 9.81 m/s^2, e = 0.9)
# dropped from 1 m lands at sqrt(2 h / g) (free fall, by hand)
T_LAND = math.sqrt(2 * 1.0 / 9.81)


def csv_rows(path):
    """The whole lines of a CSV file (bytes, split at line ends); fails when
    the file ends inside a line."""
    with open(path, "rb") as f:
        data = f.read()
    check(not data or data.endswith(b"\n"), "%s ends at a line end (%d bytes)"
          % (os.path.basename(path), len(data)))
    return data.decode().splitlines()


def landing_kept(path):
    """Whether an events CSV holds its header, then the landing at T_LAND."""
    rows = csv_rows(path)
    if len(rows) < 2 or not rows[0].startswith("t"):
        return False
    t, kind = rows[1].split(",")[:2]
    return kind == "impact" and abs(float(t) - T_LAND) < 1e-6


def killed_late(tmp, extra, wait):
    """The simulator with --events ev.csv and the outputs extra, SIGKILLed
    wait s after its start (long after the landing, at sim t = 0.45 s):
    whether it still ran then."""
    cmd = [SIM, "--t-end", "20000", "--events", "ev.csv"] + extra
    pr = subprocess.Popen(cmd, cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(wait)
    running = alive(pr.pid) and pr.poll() is None
    pr.send_signal(signal.SIGKILL)
    pr.wait()
    print("input:", " ".join(cmd[1:]), "SIGKILL after %.2f s" % wait)
    return running


def case_findings_quiet(tmp):
    """An output that stops receiving lines is still written 0.25 s after
    its last line, whatever else the run writes."""
    setups = [[], ["--out", "tr.csv"], ["--out", "tr.csv", "--section", "period:0.05",
                                        "--section-out", "se.csv"],
              ["--out", "-", "--stats", "st.csv"]]
    for extra in setups:
        for _ in range(2):
            for f in ("ev.csv", "tr.csv", "se.csv", "st.csv"):
                if os.path.exists(os.path.join(tmp, f)):
                    os.remove(os.path.join(tmp, f))
            if not killed_late(tmp, extra, random.uniform(0.7, 1.2)):
                raise Failure("the run ended before the SIGKILL: make it longer")
            check(landing_kept(os.path.join(tmp, "ev.csv")),
                  "events.csv beside %s holds the landing at %.6f s after a SIGKILL"
                  % (extra or "nothing", T_LAND))
            for f in ("tr.csv", "se.csv"):
                if os.path.exists(os.path.join(tmp, f)):
                    csv_rows(os.path.join(tmp, f))


def outcome(tmp, cmd, files):
    """(exit status, first stderr line without the program's name, the
    named files' contents) of cmd run in a fresh folder under tmp."""
    d = os.path.join(tmp, "w%d" % random.getrandbits(40))
    os.mkdir(d)
    p = run(d, [x.replace("@", d + "/") for x in cmd])
    err = [ln.split(": ", 1)[-1] for ln in p.stderr.splitlines()
           if "cached simulator" not in ln and "compiling the simulator" not in ln]
    got = {}
    for f in files:
        path = os.path.join(d, f)
        got[f] = open(path).read() if os.path.isfile(path) else None
    return p.returncode, (err[0] if p.returncode else ""), got


SIM_PAIRS = [
    (["--t-end", "1", "--out", "a.csv"], ["a.csv"]),
    (["--t-end", "1", "--events", "a.csv", "--events-max", "0"], ["a.csv"]),
    (["--t-end", "1", "--stats", "a.csv"], ["a.csv"]),
    (["--t-end", "1", "--method", "exact", "--dt", "0", "--every", "0.25", "--out", "a.csv"],
     ["a.csv"]),
    (["--t-end", "1", "--method", "adaptive", "--rtol", "1e-8", "--atol", "1e-10",
      "--out", "a.csv"], ["a.csv"]),
    (["--t-end", "1", "--set", "e=0.5", "--out", "a.csv"], ["a.csv"]),
    (["--t-end", "1", "--set", "m=2 kg", "--out", "a.csv"], ["a.csv"]),
    (["--t-end", "1", "--section", "period:0.25", "--section-out", "a.csv"], ["a.csv"]),
    (["--t-end", "1", "--section", "impact:floor", "--section-period", "0.5",
      "--section-out", "a.csv"], ["a.csv"]),
    (["--t-end", "1", "--energy-tol", "0", "--max-steps", "5", "--out", "a.csv"], ["a.csv"]),
    (["--t-end", "1", "--max-event-rate", "1e9", "--max-impacts", "10", "--out", "a.csv"],
     ["a.csv"]),
    (["--t-end", "1", "--out", ""], []),
    (["--t-end", ""], []),
    (["--t-end", "1=2"], []),
    (["--t-end", "1", "--set", "e=0.5", "--set", "e=0.6"], []),
    (["--t-end", "1", "--out", "a.csv", "--out", "b.csv"], ["a.csv", "b.csv"]),
    (["--t-end", "1", "--plot", ""], []),
    (["--t-end", "1", "--set-file", ""], []),
    (["--t-end", "1", "--method", "rk5"], []),
]


def attach(cmd):
    """cmd with every --NAME VALUE of a valued option joined as --NAME=VALUE."""
    out, i = [], 0
    flags = {"--table", "--summary", "--phase", "--lyapunov", "--no-zeno", "--no-plot", "-q"}
    while i < len(cmd):
        a = cmd[i]
        if a.startswith("--") and "=" not in a and a not in flags and i + 1 < len(cmd):
            out.append(a + "=" + cmd[i + 1])
            i += 2
        else:
            out.append(a)
            i += 1
    return out


def case_kept_attached(tmp):
    """Each option in both forms: the same exit, message and files."""
    for words, files in SIM_PAIRS:
        a = outcome(tmp, [SIM] + words, files)
        b = outcome(tmp, [SIM] + attach(words), files)
        print("input:", attach(words), "->", a[0], a[1])
        check(a == b, "%s and %s: the same outcome" % (words, attach(words)))
    for words in (["--t-end", "1", "--no-plot", "-q", "--set", "e=0.5"],
                  ["--t-end", "1", "--no-plot", "-q", "--method", "exact", "--dt", "0"],
                  ["--t-end", "1", "--no-plot", "-q", "--events-max", "1"],
                  ["--t-end", "", "--no-plot"]):
        cmd = [NSMC, "run", BALL, "--out-dir", "@R"] + words
        a = outcome(tmp, cmd, ["R/trajectory.csv", "R/events.csv"])
        b = outcome(tmp, attach(cmd), ["R/trajectory.csv", "R/events.csv"])
        c = outcome(tmp, [NSMC, "run"] + attach(cmd[3:5]) + [BALL] + attach(words),
                    ["R/trajectory.csv", "R/events.csv"])
        print("input: nsmc run", attach(cmd[2:]), "->", a[0], a[1])
        check(a == b == c, "nsmc run %s in both forms and before the model: the same outcome"
              % words)


def case_findings_order(tmp):
    """sweep and continue with options before the model: the same results."""
    sweep = ["--param=omega=2.4:2.6:2", "--section=period:2*pi/omega", "--transient=5",
             "--record=4"]
    cont = ["--param", "omega=2.4:2.6"]
    for what, opts, files in (("sweep", sweep, ["D/summary.csv", "D/section.csv"]),
                              ("continue", cont, ["D/branch.csv"])):
        first = outcome(tmp, [NSMC, what, FIO, "--out-dir", "@D"] + opts, files)
        check(first[0] == 0 and all(first[2].values()),
              "nsmc %s with the model first: exit 0, %s written" % (what, files))
        for order in (["--out-dir=@D"] + opts + [FIO], ["--out-dir", "@D", FIO] + opts,
                      attach(opts)[:1] + [FIO, "--out-dir=@D"] + attach(opts)[1:]):
            got = outcome(tmp, [NSMC, what] + order, files)
            print("input: nsmc %s %s -> %d %s" % (what, " ".join(order), got[0], got[1]))
            check(got == first, "nsmc %s with the model after options: the same results"
                  % what)


def fsize(limit):
    """A preexec function setting a file-size limit of limit bytes."""
    import resource
    return lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


def case_findings_script(tmp):
    """A gnuplot script cut at a file-size limit: refused, and removed."""
    for limit, words, script in ((2048, ["--every", "0.5", "--plot", "P"], "P/plot.gp"),
                                 (3000, ["--every", "0.5", "--plot", "P2", "--phase"],
                                  "P2/plot.gp"),
                                 (8192, ["--animate", "a.gif"], "a.gp"),
                                 (8192, ["--out", "tr.csv", "--animate", "b.gif"], "b.gp")):
        p = run(tmp, [SIM, "--t-end", "1"] + words, preexec=fsize(limit))
        print("input: %s under a limit of %d bytes -> %d %s"
              % (" ".join(words), limit, p.returncode, p.stderr.splitlines()[0]))
        check(p.returncode == 1 and "File too large" in p.stderr,
              "%s under %d bytes: exit 1, the limit named" % (words, limit), p)
        check(not os.path.lexists(os.path.join(tmp, script)),
              "%s under %d bytes: no %s cut at the limit" % (words, limit, script))


def long_run(tmp, words):
    """A simulator run of minutes with words, started in tmp, once its
    outputs are open (its stderr empty, 0.8 s later)."""
    pr = subprocess.Popen([SIM, "--t-end", "60", "--dt", "1e-5"] + words, cwd=tmp,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    time.sleep(0.8)
    if pr.poll() is not None:
        raise Failure("the long run %s ended early: %s" % (words, pr.stderr.read()))
    return pr


def case_findings_h5clash(tmp):
    """A CSV output and an HDF5 output of two running simulators under one
    name: the second refused."""
    for first, second, name, magic in (
            (["--out", "r.h5"], ["--stats", "r.h5"], "r.h5", b"\x89HDF"),
            (["--out", "r.h5"], ["--events", "./r.h5"], "r.h5", b"\x89HDF"),
            (["--out", "r.h5"], ["--section", "period:0.1", "--section-out", "r.h5"], "r.h5",
             b"\x89HDF"),
            (["--stats", "s.h5", "--out", "tr.csv"], ["--out", "s.h5"], "s.h5", b"contact")):
        for f in os.listdir(tmp):
            if f.startswith(("r.h5", "s.h5")):
                os.remove(os.path.join(tmp, f))
        pr = long_run(tmp, first)
        p = run(tmp, [SIM, "--t-end", "0.5"] + second)
        pr.send_signal(signal.SIGTERM)
        pr.communicate(timeout=60)
        print("input: %s while a simulator runs with %s -> %d %s"
              % (" ".join(second), " ".join(first), p.returncode,
                 (p.stderr.splitlines() or [""])[0]))
        check(p.returncode == 1 and "in use by another running program" in p.stderr,
              "%s beside a run writing %s: refused" % (second, first), p)
        with open(os.path.join(tmp, name), "rb") as f:
            head = f.read(16)
        check(magic in head, "%s: the first run's file (%r)" % (name, head[:8]))


STEPS = r'''
import sys
import nsm
m = nsm.compile(sys.argv[1])
for kw in (dict(ds=0.1, ds_max=0.01), dict(ds_min=0.1), dict(ds=0.001, ds_min=0.01),
           dict(ds=0.06), dict(ds_min=0.2, ds_max=0.1)):
    try:
        m.continuation("omega", 2.4, 2.6, **kw)
        out = "a branch"
    except nsm.Error as e:
        out = "%s: %s" % (type(e).__name__, e)
    print("  continuation %-34r -> %s" % (kw, out[:120]))
    assert out.startswith("SettingError") and "ds_min <= ds <= ds_max" in out, out
for kw in (dict(ds=0.05), dict(ds=0.01, ds_min=0.01, ds_max=0.01)):
    b = m.continuation("omega", 2.4, 2.6, **kw)
    print("  continuation %-34r -> %d points" % (kw, len(b.param)))
    assert len(b.param) > 1
print("done")
'''


def case_findings_steps(tmp):
    """Model.continuation's steps out of order: a SettingError naming them."""
    python_script(tmp, "steps.py", STEPS, [FIO],
                  "Model.continuation's steps out of order: SettingError naming them")


CASES = {
    "findings_h5clash": case_findings_h5clash,
    "findings_script": case_findings_script,
    "findings_steps": case_findings_steps,
    "findings_order": case_findings_order,
    "findings_quiet": case_findings_quiet,
    "kept_attached": case_kept_attached,
}

if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-21prog-", case_arg=4))
