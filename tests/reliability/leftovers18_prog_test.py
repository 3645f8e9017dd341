#!/usr/bin/env python3
"""What the seventeenth hostile pass on the programs and Python left as
found (issue #29, docs/status.md), each a check that failed before its fix.

    tests/reliability/leftovers18_prog_test.py NSMC SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  reached  a simulator stopped inside one of exact's steps whose samples it
           had written (SIGINT; a CSV file meeting a file-size limit
           before the HDF5 file): the HDF5 file's run/t_reached is the
           latest row's time, and the time the message gives is not below
           any row of the CSV or HDF5 file (both were the step's start,
           below the rows written).
  help     `nsmc run|sweep|continue --help` (and -h) beside any other word
           is a usage error, exit 1 with the usage line, as `nsmc --help
           extra` is; alone it prints the help and exits 0 (it printed the
           help, ignored the rest and exited 0).
  plural   a lock file of one byte is "1 byte", of two "2 bytes" (it was
           "1 bytes").
  locale   in a Python program with a decimal comma (de_DE.UTF-8, made
           with localedef into a folder of the case's when the machine has
           no such locale), the runtime's messages are those of the C
           locale, character for character: a parameter refused, a run
           refused up front, a run that failed, a continuation and a
           Lyapunov spectrum refused, a section "period:2.5" taken (the
           numbers came out as "2,5" and "8,88178e-16 s").  And no source
           file of the library formats or reads a number but through
           runtime/src/ctext.c.
  cap      `nsmc continue --switch-pd` on the doubled branch of the oscillator
           with a clearance (docs/studies.md), which creeps toward its
           grazing on ever shorter steps: stopped after 1000 such steps,
           said, exit 3, its points kept (it ran to the default cap of 10000
           points and exited 0 without a word); a --max-points reached
           inside the range is said in a note (exit 0: the caller's own
           limit), and Python's Branch.message says it; a branch that
           reaches the end of its range says nothing of the kind.
  load     SIGTERM to a Python process at random moments after nsm.compile's
           C compiler ended, while a child interpreter loads the new object
           (and as it is written into place; each signal sent while the
           child lives, or at its end, not after a fixed delay): the
           process ends by SIGTERM (one sent at the child's end may find
           the compile done: exit 0, the entry whole),
           the cache entry holds no temporary (the object's was left) and
           either the whole entry or none of it; the next compile works.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import glob
import os
import random
import re
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import (SANITIZED, Failure, alive, check, children, env_for, limit, main,  # noqa: E402
                     proc_cmdline, run, whole_lines)

NSMC = os.path.abspath(sys.argv[1])
SRC = os.path.abspath(sys.argv[2])
FIO = os.path.join(SRC, "models", "forced_impact_oscillator.nsm")
SLOW = 3 if SANITIZED else 1


def simulator(tmp):
    """The forced impact oscillator's simulator, built by nsmc run into the
    case's cache."""
    p = run(tmp, [NSMC, "run", FIO, "-q", "--no-plot", "--out-dir", "first", "--",
                  "--t-end", "1"], timeout=120 * SLOW)
    check(p.returncode == 0, "nsmc run builds the simulator", p)
    sims = [f for f in glob.glob(os.path.join(tmp, "cache", "nsm", "*", "*"))
            if os.path.basename(f) == "forced_impact_oscillator" and os.access(f, os.X_OK)]
    check(len(sims) == 1, "the simulator is in the cache")
    return sims[0]


# ---- reached ----------------------------------------------------------------

def last_time(path):
    """The time of the last whole row of a CSV file (-inf when none)."""
    whole_lines(path)
    rows = open(path).read().splitlines()[1:]
    return float(rows[-1].split(",")[0]) if rows else float("-inf")


def h5_reached(path):
    """(the latest trajectory row's time, run/t_reached, run/status) of an
    HDF5 file."""
    import h5py
    with h5py.File(path, "r") as f:
        tr = f["trajectory"]
        return float(tr[-1][0]), float(f["run"].attrs["t_reached"]), int(f["run"].attrs["status"])


def said_time(err):
    """The t of "... at t = T s" in the simulator's last message."""
    tail = err.rsplit("at t = ", 1)[1]
    return float(tail.split(" s", 1)[0])


def case_reached(tmp):
    """t_reached and the stop's message against the rows written."""
    sim = simulator(tmp)
    # samples every 1 ms inside exact's own steps (--dt 0): a stop comes
    # while a step's samples are being written
    cmd = [sim, "--t-end", "1e5", "--dt", "0", "--every", "0.001", "--out", "b.csv",
           "--out", "b.h5"]
    for delay in (0.1, 0.25, 0.4, 0.6):
        for f in ("b.csv", "b.h5"):
            if os.path.exists(os.path.join(tmp, f)):
                os.unlink(os.path.join(tmp, f))
        pr = subprocess.Popen(cmd, cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True)
        start = time.monotonic()
        csv = os.path.join(tmp, "b.csv")
        while pr.poll() is None and time.monotonic() - start < 30 * SLOW and \
                not (os.path.exists(csv) and os.path.getsize(csv) > 0):
            time.sleep(0.01)
        time.sleep(delay * SLOW)
        pr.send_signal(signal.SIGINT)
        try:
            err = pr.communicate(timeout=60 * SLOW)[1]
        except subprocess.TimeoutExpired:
            pr.kill()
            raise Failure("still running 60 s after SIGINT")
        check(pr.returncode == 128 + signal.SIGINT and "interrupted by SIGINT at t = " in err,
              "SIGINT after %.2f s: exit 130, said" % delay, pr)
        h5_last, reached, status = h5_reached(os.path.join(tmp, "b.h5"))
        csv_last, said = last_time(csv), said_time(err)
        print("  SIGINT after %.2f s: CSV to %.17g, HDF5 to %.17g, t_reached %.17g, said %.12g, "
              "status %d" % (delay, csv_last, h5_last, reached, said, status))
        # the run stops either inside a step whose samples were written
        # (its time put back to the step's start, below the rows: t_reached
        # is then the latest row's) or between steps (its time is then at
        # most one sample interval past the latest row, no sample skipped)
        check(status == 8 and reached >= h5_last and reached >= csv_last and
              reached - h5_last < 0.001,
              "HDF5 t_reached is at or past its latest row's time, less than one sample "
              "interval past it, not below the CSV's (it was the start of the step whose "
              "samples were written)")
        check(said >= float("%.12g" % csv_last) and said == float("%.12g" % reached),
              "'interrupted at t' is t_reached, not below where the rows end (the files "
              "'hold whole lines up to there')")
    # the CSV file meets a file-size limit of 2 MiB before the HDF5 file
    for f in ("lim.csv", "lim.h5"):
        if os.path.exists(os.path.join(tmp, f)):
            os.unlink(os.path.join(tmp, f))
    p = run(tmp, [sim, "--t-end", "5000", "--out", "lim.h5", "--out", "lim.csv"],
            timeout=120 * SLOW, preexec=limit(2 << 20))
    h5_last, reached, status = h5_reached(os.path.join(tmp, "lim.h5"))
    csv_last, said = last_time(os.path.join(tmp, "lim.csv")), said_time(p.stderr)
    print("  ulimit -f 2048: exit %d, CSV to %.17g, HDF5 to %.17g, t_reached %.17g, said %.12g"
          % (p.returncode, csv_last, h5_last, reached, said))
    check(p.returncode == 3 and "cannot write 'lim.csv'" in p.stderr,
          "the CSV file's limit is said, exit 3", p)
    check(reached == h5_last and reached >= csv_last and said == float("%.12g" % h5_last),
          "HDF5 t_reached and 'the run stopped at t' are the latest row's time (both were "
          "2231.232 s with rows to 2231.335 s)")


# ---- help -------------------------------------------------------------------

def case_help(tmp):
    """--help and -h of the subcommands stand alone."""
    for cmd in ("run", "sweep", "continue"):
        for args in (["--help", "extra"], ["-h", "x"], [FIO, "--help"], ["--help", "-h"],
                     ["-v", "--help"]):
            p = run(tmp, [NSMC, cmd] + args, timeout=60 * SLOW)
            print("  nsmc %s %s: exit %d, %r" % (cmd, " ".join(args).replace(SRC, "SRC"),
                                              p.returncode, p.stderr.strip()[:120]))
            check(p.returncode == 1 and not p.stdout and
                  "takes no other argument" in p.stderr and
                  "usage: nsmc %s --help" % cmd in p.stderr and "compiling" not in p.stderr,
                  "nsmc %s %s: a usage error, exit 1, nothing printed on stdout, nothing built"
                  % (cmd, args[0] if args[0] != FIO else "MODEL --help"), p)
        for h in ("--help", "-h"):
            p = run(tmp, [NSMC, cmd, h], timeout=60 * SLOW)
            check(p.returncode == 0 and p.stdout.startswith("usage: nsmc %s" % cmd),
                  "nsmc %s %s alone prints the help, exit 0" % (cmd, h), p)
    p = run(tmp, [NSMC, "--help", "extra"])
    check(p.returncode == 1 and "takes no other argument" in p.stderr,
          "nsmc --help extra: exit 1, as the subcommands now", p)
    # after '--' the words are the simulator's: its own --help
    p = run(tmp, [NSMC, "run", FIO, "-q", "--no-plot", "--out-dir", "r", "--", "--help"],
            timeout=120 * SLOW)
    check(p.returncode == 0 and "--t-end" in p.stdout,
          "nsmc run MODEL -- --help is still the simulator's help", p)


# ---- plural -----------------------------------------------------------------

def case_plural(tmp):
    """A lock file of one byte, and of two, in the words of the refusal."""
    for text, words in ((b"x", "(1 byte: "), (b"xy", "(2 bytes: ")):
        os.makedirs(os.path.join(tmp, "o"), exist_ok=True)
        with open(os.path.join(tmp, "o", ".nsm-run.lock"), "wb") as f:
            f.write(text)
        p = run(tmp, [NSMC, "run", FIO, "-q", "--no-plot", "--out-dir", "o"], timeout=120 * SLOW)
        said = p.stderr.strip().splitlines()[-1]
        print("  lock holding %r: exit %d, %s" % (text, p.returncode, said))
        check(p.returncode == 1 and words in said, "a lock of %d byte%s is said as %r"
              % (len(text), "" if len(text) == 1 else "s", words), p)


# ---- locale -----------------------------------------------------------------

PY_LOCALE = '''
import locale
import sys
import nsm
m = nsm.compile(sys.argv[1])
if sys.argv[2] != "C":
    locale.setlocale(locale.LC_ALL, sys.argv[2])
print("point |", locale.localeconv()["decimal_point"])
calls = [
    ("parameter e = 2.5", lambda: m.run(params={"e": 2.5})),
    ("run dt = 1e-300", lambda: m.run(dt=1e-300, t_end=1)),
    ("run max_steps = 10", lambda: m.run(max_steps=10, t_end=100)),
    ("run every = 1e-9", lambda: m.run(every=1e-9, t_end=1e3)),
    ("continuation period 1e-300", lambda: m.continuation("omega", 2.5, 2.8, period="1e-300")),
    ("section period:2.5", lambda: m.section("period:2.5", t_end=10)),
]
for label, call in calls:
    try:
        call()
        print(label, "|", "ok")
    except nsm.Error as e:
        print(label, "|", type(e).__name__, e)
'''


def comma_locale(tmp):
    """(a locale with a decimal comma, the environment's LOCPATH): one the
    machine has, else de_DE.UTF-8 made with localedef into tmp."""
    have = subprocess.run(["locale", "-a"], capture_output=True, text=True).stdout.split()
    for name in have:
        if name.lower().startswith(("de_de.utf", "fr_fr.utf", "it_it.utf", "nl_nl.utf")):
            return name, {}
    loc = os.path.join(tmp, "locales")
    os.makedirs(loc)
    p = subprocess.run(["localedef", "-i", "de_DE", "-f", "UTF-8",
                        os.path.join(loc, "de_DE.UTF-8")], capture_output=True, text=True,
                       timeout=120)
    check(os.path.isdir(os.path.join(loc, "de_DE.UTF-8")),
          "localedef made de_DE.UTF-8 (exit %d: %s)" % (p.returncode, p.stderr.strip()[:200]))
    return "de_DE.UTF-8", {"LOCPATH": loc}


def case_locale(tmp):
    """The runtime's messages in a decimal-comma locale."""
    name, env = comma_locale(tmp)
    said = {}
    for loc in ("C", name):
        p = run(tmp, [sys.executable, "-c", PY_LOCALE, FIO, loc], timeout=180 * SLOW, env=env)
        check(p.returncode == 0, "the calls ran under %s" % loc, p)
        said[loc] = dict(ln.split(" | ", 1) for ln in p.stdout.splitlines() if " | " in ln)
    check(said[name].get("point") == "," and said["C"].get("point") == ".",
          "%s has a decimal comma, C a point" % name)
    for label in said["C"]:
        if label == "point":
            continue
        print("  %-27s C: %s" % (label, said["C"][label][:150]))
        if said[name].get(label) != said["C"][label]:
            print("  %-27s %s: %s" % ("", name, said[name].get(label, "")[:150]))
        check(said[name].get(label) == said["C"][label],
              "%s: the same message under %s as under C (its numbers had a comma)"
              % (label, name))
    check(said["C"]["parameter e = 2.5"].startswith("ParameterError invalid value 2.5 ") and
          "(8.88178e-16 s)" in said["C"]["run dt = 1e-300"] and
          said["C"]["section period:2.5"] == "ok",
          "the messages hold the numbers with a point")
    # every formatting and reading of a number in the library goes through
    # ctext.c, which sets the C locale's numbers for the call
    bare = []
    for f in sorted(glob.glob(os.path.join(SRC, "runtime", "src", "*.c")) +
                    glob.glob(os.path.join(SRC, "runtime", "studies", "*.c"))):
        if os.path.basename(f) == "ctext.c":
            continue
        for n, line in enumerate(open(f, encoding="utf-8"), 1):
            code = re.sub(r'"(\\.|[^"\\])*"', '""', line.split("//")[0])
            if re.search(r"(?<![\w])(v?s?n?printf|strto[dlf]|sscanf|atof)\s*\(", code) and \
                    not code.lstrip().startswith(("*", "/*")):
                bare.append("%s:%d" % (os.path.relpath(f, SRC), n))
    print("  library lines formatting or reading numbers outside ctext.c: %s" % (bare or "none"))
    check(not bare, "the library formats and reads numbers only through ctext.c "
          "(rt_text_printf, rt_text_strtod)")


# ---- cap --------------------------------------------------------------------

CLEAR = os.path.join(SRC, "tests", "studies", "impact_clearance.nsm")
SWITCH = ["--param", "omega=1.3:0.5", "--start", "1.9,3", "--switch-pd", "--no-plot"]

PY_CAP = '''
import sys
import nsm
m = nsm.compile(sys.argv[1])
b = m.continuation("omega", 2.5, 2.8, max_points=5)
print("capped |", len(b.param), b.message)
b = m.continuation("omega", 2.5, 2.8)
print("whole |", len(b.param), b.message)
'''


def branch_rows(path):
    """The rows of a branch.csv as dicts."""
    import csv
    with open(path) as f:
        return list(csv.DictReader(f))


def case_cap(tmp):
    """A continuation stopped inside its range says so."""
    p = run(tmp, [NSMC, "continue", CLEAR, "--out-dir", "sw"] + SWITCH, timeout=300 * SLOW)
    rows = branch_rows(os.path.join(tmp, "sw", "branch.csv"))
    last = rows[-1]
    print("  --switch-pd, default cap: exit %d, %d points, last omega %s, impact speed %s; %s"
          % (p.returncode, len(rows), last["omega [rad/s]"], last["min_speed"],
             p.stderr.strip().splitlines()[-1][:300]))
    check(p.returncode == 3 and "before the end of its range at 0.5: its last 1000 steps were "
          "each shorter than 0.001 of ds" in p.stderr and "nsmc continue: error:" in p.stderr,
          "the doubled branch creeping toward its grazing is stopped and said, exit 3 (it ran "
          "to 10000 points and exited 0)", p)
    # where it stopped: on the unstable doubled branch just below its grazing
    # near 0.965182 (docs/studies.md), the smaller impact speed small
    kinds = [r["point"] for r in rows]
    check(len(rows) < 10000 and "switch" in kinds and last["impacts"] == "2" and
          0.9651 < float(last["omega [rad/s]"]) < 0.965182 and
          0 < float(last["min_speed"]) < 0.01,
          "its points up to the stop are kept in branch.csv, the last just below the grazing")
    p = run(tmp, [NSMC, "continue", CLEAR, "--out-dir", "sw50", "--max-points", "50"] + SWITCH,
            timeout=120 * SLOW)
    said = p.stderr.strip().splitlines()[-1]
    print("  --switch-pd --max-points 50: exit %d, %s" % (p.returncode, said[:200]))
    check(p.returncode == 0 and said.startswith("nsmc continue: note: continuation: the branch "
                                                "stopped at its point cap (max_points = 50) "
                                                "at omega = ") and
          "before the end of its range at 0.5" in said,
          "a --max-points reached inside the range is said in a note, exit 0", p)
    p = run(tmp, [NSMC, "continue", FIO, "--param", "omega=2.5:2.8", "--no-plot", "--out-dir",
                  "whole"], timeout=120 * SLOW)
    print("  omega=2.5:2.8 to its end: exit %d, %r" % (p.returncode, p.stderr.strip()[-200:]))
    check(p.returncode == 0 and "stopped" not in p.stderr and "cap" not in p.stderr,
          "a branch that reaches the end of its range says nothing of a stop", p)
    p = run(tmp, [sys.executable, "-c", PY_CAP, FIO], timeout=180 * SLOW)
    got = dict(ln.split(" | ", 1) for ln in p.stdout.splitlines() if " | " in ln)
    print("  Python: %s" % got)
    check(p.returncode == 0 and "stopped at its point cap (max_points = 5) at omega = " in
          got.get("capped", "") and got.get("whole", "").split()[1:] in ([], ["None"]),
          "Python's Branch.message says the cap stopped it, and nothing for a whole branch", p)


# ---- load -------------------------------------------------------------------

PY_COMPILE = '''
import sys
import nsm
nsm.compile(sys.argv[1])
print("compiled")
'''


def load_trial_child(pid):
    """The child interpreter nsm.compile loads its new object in, or None."""
    for c in children(pid):
        if "nsmpy_describe" in proc_cmdline(c):
            return c
    return None


def cache_state(cache):
    """The files of the case's program cache, by their names."""
    found = []
    for root, _, files in os.walk(cache):
        found += [os.path.relpath(os.path.join(root, f), cache) for f in files]
    return sorted(found)


def load_stopped(tmp, k, delay, again=True):
    """One cold nsm.compile sent SIGTERM delay s after its load's child
    appeared (None: as soon as the child is gone); checks what it left and,
    with again, that the next compile builds an entry left empty.
    (whether the signal came before the compile's end, the child's lifetime
    seen in s, whether the next compile was tried), or None when the child
    was not seen."""
    cache = os.path.join(tmp, "cache%d" % k)
    env = dict(env_for(tmp), XDG_CACHE_HOME=cache)
    pr = subprocess.Popen([sys.executable, "-c", PY_COMPILE, FIO], cwd=tmp, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    start, child = time.monotonic(), None
    while pr.poll() is None and time.monotonic() - start < 120 * SLOW and child is None:
        child = load_trial_child(pr.pid)
    seen = time.monotonic()
    if child is None:
        # the child came and went between two looks (a loaded machine):
        # the trial is made again by the caller
        out, err = pr.communicate(timeout=120 * SLOW)
        print("  the load's child was not seen (exit %d, %s): again" % (pr.returncode,
                                                                       out.strip() or "-"))
        check(pr.returncode in (0, -signal.SIGTERM) and "Traceback" not in err,
              "the compile ended well", subprocess.CompletedProcess(pr.args, pr.returncode,
                                                                     out, err))
        return None
    # until the child's end, or delay s while it lives: a delay drawn from
    # the lifetime one compile measured could outlast another's whole load
    # under a busy machine (0.0129 s against 0.0200 s measured: the compile
    # had ended, exit 0, and the check failed)
    while alive(child) and time.monotonic() - seen < (60 * SLOW if delay is None else delay):
        pass
    lifetime = time.monotonic() - seen
    pr.send_signal(signal.SIGTERM)
    # the child alive after the signal: its parent was still awaiting it,
    # so the signal came inside the load's window
    inside = alive(child)
    out, err = pr.communicate(timeout=120 * SLOW)
    pr = subprocess.CompletedProcess(pr.args, pr.returncode, out, err)
    left = cache_state(cache)
    names = sorted(os.path.basename(f) for f in left)
    whole = names == [".lock", "forced_impact_oscillator.c", "forced_impact_oscillator.so",
                      "forced_impact_oscillator.sum"]
    print("  SIGTERM %s the load's child appeared: exit %d, %s, cache %s"
          % ("as it ended, %.4f s after" % lifetime if delay is None else "%.4f s after" % delay,
             pr.returncode, out.strip() or "-", names))
    check(child is not None, "the load of the new object in a child interpreter was reached",
          pr)
    # a signal inside the window ends the process by SIGTERM; one sent as the
    # child ended may find the compile done (exit 0, the entry whole)
    check(pr.returncode == -signal.SIGTERM or (not inside and pr.returncode == 0 and
                                               out.strip() == "compiled" and whole),
          "the process ends by SIGTERM (%s the load's child's end)"
          % ("before" if inside else "at"), pr)
    check("Traceback" not in err, "no traceback", pr)
    check(not [f for f in left if ".tmp" in f],
          "no temporary in the cache (the object's .so.tmpPID was left)")
    check(whole or names in ([], [".lock"]),
          "the entry is whole or holds nothing but its lock (no half of itself)")
    if not whole and again:
        p = subprocess.run([sys.executable, "-c", PY_COMPILE, FIO], cwd=tmp, env=env,
                           capture_output=True, text=True, timeout=180 * SLOW)
        check(p.returncode == 0 and p.stdout.strip() == "compiled" and "damaged" not in p.stderr,
              "the next nsm.compile builds the model", p)
    return not out.strip(), lifetime, not whole and again


def case_load(tmp):
    """SIGTERM after the compile, while the new object is loaded and put in place."""
    rng = random.Random()
    seed = rng.randrange(1 << 30)
    rng.seed(seed)
    # the child's lifetime first (the signal as it ends: the checksum and
    # the rename follow), then at once and at random moments within it
    trial, rebuilt = [0], [False]

    def stopped(delay):
        """load_stopped in a fresh cache, made again (three times at most)
        when the load's child was not seen; the next compile is tried after
        the first stop that left the entry empty."""
        for _ in range(3):
            trial[0] += 1
            got = load_stopped(tmp, trial[0], delay, not rebuilt[0])
            if got:
                rebuilt[0] = rebuilt[0] or got[2]
                return got
        raise Failure("the load's child was never seen in three compiles")
    life = stopped(None)[1]
    delays = [0.0] + sorted(rng.uniform(0, 0.7 * life) for _ in range(3))
    print("  seed %d, the load's child lived %.4f s, delays %s"
          % (seed, life, ["%.4f" % d for d in delays]))
    hit = sum(stopped(d)[0] for d in delays)
    check(hit >= 1, "a signal came before the compile's end, in the window (%d of %d)"
          % (hit, len(delays)))


if __name__ == "__main__":
    sys.exit(main({"reached": case_reached, "help": case_help, "plural": case_plural,
                  "locale": case_locale, "load": case_load,
                  "cap": case_cap},
                  "nsm-left18prog-", case_arg=3))
