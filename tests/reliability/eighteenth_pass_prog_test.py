#!/usr/bin/env python3
"""An eighteenth hostile pass over the programs and the Python package
(issue #29): names and paths at their limits (a model's name of hundreds of
characters, an output folder whose path nearly fills PATH_MAX, spaces,
quotes, newlines, shell words and bytes that are not UTF-8 in the model's
path, the output folder and the cache's), programs started without a
standard descriptor, every study program under every stop signal, studies
and runs sharing one folder, the command line and Python on one cache at
once with `nsmc cache clean` beside them, and Python's bad arguments.

    tests/reliability/eighteenth_pass_prog_test.py NSMC SIM SOURCE_DIR CASE

SIM is sim_forced_impact_oscillator (sim_bouncing_ball beside it).  Cases
(each under 20 s in the normal build):
  findings_names  a model named with 240 or 300 characters could not be
                  run (nsmc run, sweep and continue: "cannot write the
                  simulator's cache ...: File name too long (set
                  XDG_CACHE_HOME ...)"; nsm.compile likewise from 230); a
                  model file named with a byte that is not UTF-8 could not
                  be compiled from Python (UnicodeDecodeError).
  findings_paths  an output folder whose path fits PATH_MAX but whose files'
                  paths do not: made, locked, the run done, then exit 1 with
                  the figures' temporaries left in it; now refused before
                  anything is made, by nsmc run, the simulator's --plot, nsmc
                  sweep and nsmc continue.  A --lyapunov-out name with no
                  room for its temporary's suffix: the whole run, then exit
                  3; now refused before it.
  findings_fds    nsmc continue with standard output closed wrote its points
                  into DIR/.nsm-run.lock (exit 0), nsmc sweep with standard
                  error closed its last line: every later run into DIR was
                  refused.
  findings_pickle a Model pickled and loaded after its cached shared object
                  was cut short killed the interpreter (SIGBUS).
  kept            inputs that found nothing, kept: odd characters in the
                  output folder, the model's path and XDG_CACHE_HOME; the
                  programs' standard output a pipe closed early, /dev/full,
                  closed; studies and runs in one folder one after the other.
  kept_signals    every study program (sweep, sweep on two jobs, basins,
                  Floquet and Lyapunov sweeps, continuation, run) stopped by
                  SIGINT, SIGTERM and SIGHUP at random moments.
  kept_py         Python: bad arguments of every type, threads, the command
                  line and Python on one cache with `nsmc cache clean`, a
                  basin study under a TMPDIR of 4030 bytes.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import math
import os
import random
import signal
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import (SANITIZED, check, env_for, main, prog_paths,  # noqa: E402
                     python_script, run, running_with, stop_after, thin, wait_until,
                     whole_lines)

NSMC, SIM, SRC, BALL_SIM, FIO, BALL = prog_paths()

# the ball of models/bouncing_ball.nsm (m = 1 kg, g = 9.81 m/s^2, e = 0.9)
# dropped from 1 m: it lands at sqrt(2 h / g) at sqrt(2 g h), leaves at e
# times that speed (free fall, by hand)
G, H, E = 9.81, 1.0, 0.9
T_LAND = math.sqrt(2 * H / G)
V_LAND = math.sqrt(2 * G * H)


def shown(p):
    """The last line of a run's stderr that is not about the cache, for the
    printed outcome."""
    lines = [ln for ln in (p.stderr or "").strip().splitlines()
             if "cached" not in ln and "compiling the" not in ln]
    return (lines[-1] if lines else "")[:130]


def renamed(tmp, source, name, path):
    """Writes the model of file source under the model name name to path in
    tmp; the path."""
    text = open(source).read()
    first = text.split("\n", 1)[0].split()[1]
    full = os.path.join(tmp, path) if isinstance(path, str) else os.path.join(tmp.encode(), path)
    with open(full, "w") as f:
        f.write(text.replace("model " + first, "model " + name, 1))
    return full


def first_impact_ok(events_csv):
    """Whether the first event of events_csv is the ball's landing as the
    closed form gives it (time, speeds before and after, to 1e-9)."""
    rows = [ln.split(",") for ln in open(events_csv).read().splitlines()[1:]]
    if not rows or rows[0][1] != "impact":
        return False
    t, vb, va = float(rows[0][0]), float(rows[0][3]), float(rows[0][4])
    return abs(t - T_LAND) < 1e-9 and abs(vb + V_LAND) < 1e-9 * V_LAND and \
        abs(va - E * V_LAND) < 1e-9 * V_LAND


# ---- findings ---------------------------------------------------------------

PY_NAMES = r'''
import math, sys
import nsm
for path in sys.argv[1:]:
    arg = path.encode("utf-8", "surrogateescape")
    try:
        r = nsm.compile(arg).run(t_end=1)
    except nsm.Error as e:
        raise SystemExit("nsm.compile(%r): %s: %s" % (arg[-40:], type(e).__name__, e))
    t = float(r.events[0]["t"])
    t_land = math.sqrt(2 / 9.81)
    ok = abs(t - t_land) < 1e-9
    print("  nsm.compile(...%r).run(t_end=1): first impact at %.12f s (by hand %.12f): %s"
          % (arg[-24:], t, t_land, ok))
    assert ok
'''


def findings_names(tmp):
    """A model named with 240 and 300 characters run by nsmc run, its
    sweep and continuation programs with 235, and nsm.compile with 240: each
    was refused, the cache entry's folder or files longer than a file name
    may be.  A model file named with a byte that is not UTF-8, from Python."""
    for n in (240, 300):
        model = renamed(tmp, BALL, "b" * n, "long%d.nsm" % n)
        d = os.path.join(tmp, "out%d" % n)
        p = run(tmp, [NSMC, "run", model, "--no-plot", "-q", "--out-dir", d, "--t-end", "1"])
        print("  nsmc run (a model named with %d characters) -> %d  %s"
              % (n, p.returncode, shown(p).replace("b" * 20, "b..")[:100]))
        check(p.returncode == 0 and first_impact_ok(os.path.join(d, "events.csv")),
              "a model named with %d characters runs, its landing as by hand" % n, p)
    fio = renamed(tmp, FIO, "f" * 235, "flong.nsm")
    p = run(tmp, [NSMC, "sweep", fio, "--param", "omega=2.5:2.7:2", "--section", "impact:stop",
                  "--out-dir", os.path.join(tmp, "sw"), "--transient", "5", "--record", "3"])
    print("  nsmc sweep (a model named with 235 characters) -> %d  %s"
          % (p.returncode, shown(p).replace("f" * 20, "f..")[:100]))
    check(p.returncode == 0 and whole_lines(os.path.join(tmp, "sw", "section.csv")) == 6,
          "its sweep program builds and records 3 impacts at each of 2 values", p)
    p = run(tmp, [NSMC, "continue", fio, "--param", "omega=2.5:2.8", "--no-plot",
                  "--out-dir", os.path.join(tmp, "co")])
    print("  nsmc continue (the same model) -> %d  %s"
          % (p.returncode, shown(p).replace("f" * 20, "f..")[:100]))
    check(p.returncode == 0 and whole_lines(os.path.join(tmp, "co", "branch.csv")) > 2,
          "its continuation program builds and follows the branch", p)
    long_py = renamed(tmp, BALL, "p" * 240, "plong.nsm")
    latin = renamed(tmp, BALL, "bouncing_ball", b"caf\xe9 \xff.nsm")
    python_script(tmp, "names.py", PY_NAMES,
                  [long_py, os.fsdecode(latin)],
                  "nsm.compile of a model named with 240 characters and of a file named "
                  "with bytes that are not UTF-8")


def deep_folder(length):
    """A relative folder path of exactly length bytes under the current
    folder, its parents made (components of 250 bytes), the folder itself
    not.  Relative: the scratch folder's absolute path beside it would pass
    PATH_MAX before the programs are asked."""
    parts, n = [], 1            # "." and the slashes
    while n + 251 + 1 + 20 < length:
        parts.append("d" * 250)
        n += 251
    parent = os.path.join(".", *parts)
    os.makedirs(parent, exist_ok=True)
    return os.path.join(parent, "e" * (length - len(parent) - 1))


def findings_paths(tmp):
    """An output folder whose own path fits PATH_MAX but whose files' paths
    do not (4078 bytes: the figures' NAME.png.tmpPID pass 4096): nsmc run
    made and locked it, ran the simulator, then could not rename the
    figures (exit 1, their temporaries left).  Now each program refuses it
    before making anything, naming the path's length; 4040 bytes still
    runs, plots and all."""
    import shutil
    lyap_names(tmp)
    gp = shutil.which("gnuplot") is not None
    here = os.getcwd()
    os.chdir(tmp)
    try:
        paths_tried(tmp, gp)
    finally:
        shutil.rmtree("d" * 250, ignore_errors=True)     # fd-relative: deeper than PATH_MAX
        os.chdir(here)


def paths_tried(tmp, gp):
    """findings_paths' inputs, run in tmp (the current folder)."""
    for length in (4078, 4060):
        d = deep_folder(length)
        progs = (("nsmc run", [NSMC, "run", BALL, "-q", "--t-end", "1", "--out-dir", d]),
                 ("the simulator's --plot", [BALL_SIM, "--t-end", "1", "--plot", d]),
                 ("nsmc sweep", [NSMC, "sweep", FIO, "--param", "omega=2.5:2.7:2", "--section",
                                 "impact:stop", "--out-dir", d]),
                 ("nsmc continue", [NSMC, "continue", FIO, "--param", "omega=2.5:2.8",
                                    "--out-dir", d]))
        for label, cmd in progs:
            p = run(tmp, cmd)
            made = os.path.lexists(d)
            print("  %-24s --out-dir of %d bytes -> %d, made: %s  %s"
                  % (label, length, p.returncode, made,
                     shown(p).replace("d" * 250, "D").replace("e" * 20, "e..")[:90]))
            check(p.returncode == 1 and "the output folder's path is too long (%d bytes)" % length
                  in p.stderr and not made,
                  "%s refuses a folder of %d bytes before making anything" % (label, length), p)
    d = deep_folder(4040)
    p = run(tmp, [NSMC, "run", BALL, "-q", "--t-end", "1", "--out-dir", d])
    left = sorted(os.listdir(d)) if os.path.isdir(d) else []
    print("  nsmc run --out-dir of 4040 bytes -> %d  %s" % (p.returncode, " ".join(left)))
    check(p.returncode == 0 and "trajectory.csv" in left and not [f for f in left if ".tmp" in f]
          and (not gp or "plot.png" in left),
          "a folder of 4040 bytes still takes a run and its figures", p)


def lyap_names(tmp):
    """--lyapunov-out with a name of 245 bytes: the spectrum goes through
    NAME.tmpPID, which passes the 255 bytes a name may have; the whole run
    was done and then it failed (exit 3).  Now refused before any output is
    touched (exit 1, the --out file as it was); 240 bytes still write it."""
    keep = os.path.join(tmp, "x.csv")
    for n, want in ((245, 1), (250, 1), (240, 0)):
        with open(keep, "w") as f:
            f.write("keep\n")
        name = "h" * n + ".csv"
        p = run(tmp, [BALL_SIM, "--t-end", "1", "--out", "x.csv", "--lyapunov",
                      "--lyapunov-out", name])
        kept = open(keep).read() == "keep\n"
        wrote = os.path.exists(os.path.join(tmp, name))
        print("  --lyapunov-out of a %d-byte name -> %d, --out left as it was: %s, the "
              "spectrum written: %s  %s" % (n + 4, p.returncode, kept, wrote,
                                           shown(p).replace("h" * 20, "h..")[:60]))
        if want:
            check(p.returncode == 1 and kept and not wrote and "no room for the temporary" in
                  p.stderr, "a %d-byte spectrum name refused before the run" % (n + 4), p)
        else:
            check(p.returncode == 0 and wrote and
                  open(os.path.join(tmp, name)).readline().startswith("exponent,"),
                  "a %d-byte spectrum name still written" % (n + 4), p)


def closed(fds):
    """A preexec function closing the descriptors fds in the child."""
    def close():
        for fd in fds:
            os.close(fd)
    return close


def findings_fds(tmp):
    """Programs started without a standard descriptor: nsmc continue with
    standard output closed wrote its points and branch line into the
    folder's lock (exit 0); nsmc sweep with standard error closed its last
    line.  The lock must hold the process id alone, the lost output be an
    error where it is (exit 1, said), and the next run into the folder
    work."""
    env = env_for(tmp)
    cases = (("nsmc continue, stdout closed",
              [NSMC, "continue", FIO, "--param", "omega=2.5:2.8", "--no-plot"], (1,), 1),
             ("nsmc continue, stderr closed",
              [NSMC, "continue", FIO, "--param", "omega=2.5:2.8", "--no-plot"], (2,), 0),
             ("nsmc sweep, stderr closed",
              [NSMC, "sweep", FIO, "--param", "omega=2.5:2.7:2", "--section", "impact:stop",
               "--transient", "5", "--record", "3"], (2,), 0),
             ("nsmc sweep, stdout and stderr closed",
              [NSMC, "sweep", FIO, "--param", "omega=2.5:2.7:2", "--section", "impact:stop",
               "--transient", "5", "--record", "3"], (1, 2), 0),
             ("nsmc run, stdout closed",
              [NSMC, "run", BALL, "--t-end", "1", "--no-plot"], (1,), 3),
             ("nsmc run -q, stdout and stderr closed",
              [NSMC, "run", BALL, "--t-end", "1", "--no-plot", "-q"], (1, 2), None))
    for i, (label, cmd, fds, want) in enumerate(cases):
        d = os.path.join(tmp, "fd%d" % i)
        p = subprocess.run(cmd + ["--out-dir", d], cwd=tmp, env=env, preexec_fn=closed(fds),
                           stdin=subprocess.DEVNULL, timeout=120)
        lockf = os.path.join(d, ".nsm-run.lock")
        lock = open(lockf, "rb").read() if os.path.exists(lockf) else None
        again = run(tmp, [NSMC, "run", BALL, "--t-end", "1", "--no-plot", "-q", "--out-dir", d])
        print("  %-40s -> %d, the lock %r, the next run -> %d"
              % (label, p.returncode, lock and lock[:40], again.returncode))
        # nothing written into the lock while it was held, and it is removed
        # at the program's end: no file under its name left
        check(lock is None and (want is None or p.returncode == want) and
              again.returncode == 0,
              "%s: no lock left, exit %s, the folder usable after"
              % (label, want if want is not None else "as its outputs allow"), again)


def findings(tmp):
    """All the findings (for a run by hand)."""
    findings_names(tmp)
    findings_paths(tmp)
    findings_fds(tmp)
    findings_pickle(tmp)


PY_PICKLE = r'''
import math, os, pickle, subprocess, sys
import nsm
m = nsm.compile(sys.argv[1])
blob = pickle.dumps(m)
size = os.path.getsize(m.path)
load = "import pickle, sys, nsm\n" \
       "try:\n" \
       "    m = pickle.loads(open(sys.argv[1], 'rb').read())\n" \
       "    print(repr(float(m.run(t_end=1).events[0]['t'])))\n" \
       "except nsm.Error as e:\n" \
       "    print('%s: %s' % (type(e).__name__, e))\n"
open("m.pkl", "wb").write(blob)
whole = open(m.path, "rb").read()


def replace(data):
    """m.path's bytes replaced by data through a new file: this process
    keeps the object it loaded, whose pages a write in place would cut."""
    with open(m.path + ".new", "wb") as f:
        f.write(data)
    os.chmod(m.path + ".new", 0o755)
    os.replace(m.path + ".new", m.path)


for cut in (0, 100, size // 3, size // 2 + 1000):
    replace(whole[:cut])
    p = subprocess.run([sys.executable, "-c", load, "m.pkl"], capture_output=True, text=True)
    replace(whole)
    said = p.stdout.strip()
    print("  a pickled Model loaded after its object was cut to %d of %d bytes -> exit %d: %s"
          % (cut, size, p.returncode, said[-90:]))
    assert p.returncode == 0 and said.startswith("CompileError") and "damaged" in said, p.stderr
p = subprocess.run([sys.executable, "-c", load, "m.pkl"], capture_output=True, text=True)
t = float(p.stdout.strip())
print("  the object whole again: the pickled Model lands at %.12f s (by hand %.12f)"
      % (t, math.sqrt(2 / 9.81)))
assert abs(t - math.sqrt(2 / 9.81)) < 1e-9
'''


def findings_pickle(tmp):
    """A Model pickled (as multiprocessing sends one to its workers, or kept
    on disk) and loaded after its cached shared object was cut short: the
    interpreter was killed by SIGBUS, where nsm.compile never loads a
    damaged object.  Now a CompileError naming the damage."""
    python_script(tmp, "unpickled.py", PY_PICKLE, [BALL],
                  "a pickled Model whose object was damaged is refused, the interpreter alive")


# ---- kept -------------------------------------------------------------------

ODD = ["sp ace", "q'uote", 'dq"uote', "new\nline", "bad\udcff\udcfe", "back\\slash",
       "$(touch PWNED)", "a`touch PWNED`b", "semi;colon", "per%cent%n", "-dash", "{}[]*?"]


def odd_folders(tmp):
    """Output folders with odd characters, for nsmc run (figures drawn),
    nsmc sweep and nsmc continue: every file there, no shell word run."""
    for i, name in enumerate(thin(ODD)):
        d = os.path.join(tmp, "od", name)
        os.makedirs(os.path.dirname(d), exist_ok=True)
        prog = ("run", "sweep", "continue")[i % 3]
        cmd = {"run": [NSMC, "run", BALL, "-q", "--t-end", "1"],
               "sweep": [NSMC, "sweep", FIO, "--param", "omega=2.5:2.7:2", "--section",
                         "impact:stop", "--transient", "5", "--record", "3"],
               "continue": [NSMC, "continue", FIO, "--param", "omega=2.5:2.8"]}[prog]
        p = run(tmp, cmd + ["--out-dir", os.fsencode(d)])
        want = {"run": "events.csv", "sweep": "section.csv", "continue": "branch.csv"}[prog]
        files = os.listdir(os.fsencode(d)) if os.path.isdir(os.fsencode(d)) else []
        print("  nsmc %-8s --out-dir %-22r -> %d  %d files" % (prog, name, p.returncode,
                                                              len(files)))
        check(p.returncode == 0 and want.encode() in files and
              not [f for f in files if b".tmp" in f or b"partial" in f] and
              not os.path.exists(os.path.join(tmp, "PWNED")),
              "nsmc %s into %r: its results whole, nothing else run" % (prog, name), p)


def odd_models(tmp):
    """Model files with odd names run by nsmc run, their landing by hand."""
    text = open(BALL).read()
    for name in thin(["-ball.nsm", "sp ace.nsm", "nl\nx.nsm", "noext", "x.NSM", ".nsm",
                      "b.nsm.nsm", "bad\udcff.nsm", "q'\"uote.nsm"]):
        path = os.fsencode(os.path.join(tmp, name))
        with open(path, "w") as f:
            f.write(text)
        arg = os.fsencode("./" + name)
        d = os.path.join(tmp, "om")
        p = run(tmp, [NSMC, "run", arg, "--no-plot", "-q", "--t-end", "1", "--out-dir", d])
        print("  nsmc run %-18r -> %d" % (name, p.returncode))
        check(p.returncode == 0 and first_impact_ok(os.path.join(d, "events.csv")),
              "a model file named %r runs, its landing as by hand" % name, p)


def odd_caches(tmp):
    """XDG_CACHE_HOME with odd characters: nsmc run builds and runs there."""
    for name in thin(["c sp", "c\nnl", "c\udcff", "c'q", 'c"dq', "c$(touch PWNED)", "c%d%s",
                      "x/../c2", "c//double", "c/."]):
        cache = os.path.join(tmp, "caches", name)
        d = os.path.join(tmp, "oc")
        p = run(tmp, [NSMC, "run", BALL, "--no-plot", "-q", "--t-end", "1", "--out-dir", d],
                env={"XDG_CACHE_HOME": os.fsencode(cache)})
        print("  XDG_CACHE_HOME=%-18r -> %d" % (name, p.returncode))
        check(p.returncode == 0 and first_impact_ok(os.path.join(d, "events.csv")) and
              not os.path.exists(os.path.join(tmp, "PWNED")),
              "a cache at %r: the run right, no shell word run" % name, p)


def outputs_lost(tmp):
    """The programs' standard output onto /dev/full and into a pipe whose
    reader is gone: what they print there is lost, so the exit is 1 (3 for
    nsmc run, whose simulator's table is lost) with the reason; a sweep
    prints nothing there and ends 0."""
    cases = (("nsmc continue", [NSMC, "continue", FIO, "--param", "omega=2.5:2.8", "--no-plot"],
              1),
             ("nsmc run", [NSMC, "run", BALL, "--t-end", "1", "--no-plot"], 3),
             ("nsmc sweep", [NSMC, "sweep", FIO, "--param", "omega=2.5:2.7:2", "--section",
                             "impact:stop", "--transient", "5", "--record", "3"], 0),
             ("nsmc --emit=equations", [NSMC, "--emit=equations", FIO], 1),
             ("nsmc -o -", [NSMC, FIO, "-o", "-"], 1))
    env = env_for(tmp)
    for i, (label, cmd, want) in enumerate(cases):
        for how in ("/dev/full", "a pipe closed"):
            d = os.path.join(tmp, "lost%d" % i)
            full = cmd + (["--out-dir", d] if "--out-dir" not in cmd and cmd[1] in
                          ("run", "sweep", "continue") else [])
            if how == "/dev/full":
                with open("/dev/full", "w") as out:
                    p = subprocess.run(full, cwd=tmp, env=env, stdout=out, stderr=subprocess.PIPE,
                                       text=True, timeout=120)
            else:
                r, w = os.pipe()
                os.close(r)
                p = subprocess.run(full, cwd=tmp, env=env, stdout=w, stderr=subprocess.PIPE,
                                   text=True, timeout=120)
                os.close(w)
            print("  %-22s stdout %-14s -> %d  %s" % (label, how, p.returncode, shown(p)[:80]))
            lock = os.path.join(d, ".nsm-run.lock")
            check(p.returncode == want and (want == 0 or "standard output" in p.stderr) and
                  (not os.path.exists(lock) or open(lock).read().strip().isdigit()),
                  "%s with stdout %s: exit %d%s" % (label, how, want,
                                                    ", the reason said" if want else ""), p)


def one_folder(tmp):
    """A sweep stopped, a continuation stopped, a run, a sweep and a
    continuation into one folder, one after the other: each study's partial
    files are removed (said) by the next one that finishes, and each
    program's own results are whole."""
    d = os.path.join(tmp, "one")
    env = env_for(tmp)
    steps = (("sweep stopped", [NSMC, "sweep", FIO, "--param", "omega=2:3.5:3000", "--section",
                                "impact:stop"], signal.SIGTERM, "section.csv.partial"),
             ("continue stopped", [NSMC, "continue", FIO, "--param", "omega=1.5:6", "--ds",
                                   "0.0005", "--ds-max", "0.0005", "--max-points", "30000"],
              signal.SIGHUP, "branch.csv.partial"),
             ("run", [NSMC, "run", FIO, "--t-end", "10"], None, "trajectory.csv"),
             ("sweep", [NSMC, "sweep", FIO, "--param", "omega=2.5:2.7:2", "--section",
                        "impact:stop", "--transient", "5", "--record", "3"], None, "section.csv"),
             ("continue", [NSMC, "continue", FIO, "--param", "omega=2.5:2.8"], None,
              "branch.csv"))
    for label, cmd, sig, want in steps:
        pr = subprocess.Popen(cmd + ["--out-dir", d], cwd=tmp, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True,
                              preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        if sig:
            wait_until(pr, lambda: os.path.exists(os.path.join(d, want)), 30, 0.02)
            err = stop_after(pr, sig, 0.3, label, 120)
        else:
            err = pr.communicate(timeout=120)[1]
        files = sorted(os.listdir(d))
        print("  %-17s -> %d  %s" % (label, pr.returncode, " ".join(files)))
        partial = [f for f in files if "partial" in f]
        check((pr.returncode == 128 + sig if sig else pr.returncode == 0) and want in files and
              (sig or not partial) and not [f for f in files if ".tmp" in f] and
              all(whole_lines(os.path.join(d, f)) >= 0 for f in files if ".csv" in f),
              "%s into the shared folder: its results whole%s" %
              (label, "" if sig else ", the stopped studies' partial files removed"),
              subprocess.CompletedProcess(cmd, pr.returncode, "", err))


def kept(tmp):
    """Inputs that found nothing: odd characters, lost outputs, one folder."""
    odd_folders(tmp)
    odd_models(tmp)
    odd_caches(tmp)
    outputs_lost(tmp)
    one_folder(tmp)


def kept_signals(tmp):
    """Every study program stopped by SIGINT, SIGTERM and SIGHUP at a random
    moment (seeded): exit 128 + N with "stopped by" or "interrupted by" the
    signal, the files in whole lines, the partial results where the message
    says, no temporary left, no program left running."""
    env = env_for(tmp)
    sweep = [NSMC, "sweep", FIO, "--section", "impact:stop", "--section-period", "2*pi/omega"]
    progs = (("sweep", sweep + ["--param", "omega=2:3.5:3000"]),
             ("sweep --jobs 2", sweep + ["--param", "omega=2:3.5:3000", "--jobs", "2"]),
             ("basins", [NSMC, "sweep", FIO, "--basin", "M.x=-1:0:60", "--basin", "M.v=-1:1:60",
                         "--section", "period:2*pi/omega", "--section-period", "2*pi/omega"]),
             ("sweep --floquet", sweep + ["--param", "omega=2:3.5:2000", "--floquet"]),
             ("sweep --lyapunov", sweep + ["--param", "omega=2:3.5:2000", "--lyapunov"]),
             ("continue", [NSMC, "continue", FIO, "--param", "omega=1.5:6", "--ds", "0.0005",
                           "--ds-max", "0.0005", "--max-points", "30000"]),
             ("run", [NSMC, "run", FIO, "--t-end", "1e6", "--every", "0.01", "--no-plot"]))
    rng = random.Random(18)
    sigs = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
    for i, (label, cmd) in enumerate(progs):
        # two signals each, in turn: every program meets two, every signal
        # every program but two or three
        for sig in thin((sigs[i % 3], sigs[(i + 1) % 3])):
            d = os.path.join(tmp, "sig%d_%s" % (i, sig.name))
            delay = rng.uniform(0.1, 0.6)
            pr = subprocess.Popen(cmd + ["--out-dir", d], cwd=tmp, env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                  preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
            wait_until(pr, lambda: os.path.isdir(d) and [f for f in os.listdir(d) if f.endswith(
                (".partial", ".csv"))], 30)
            err = stop_after(pr, sig, delay, label)
            files = os.listdir(d) if os.path.isdir(d) else []
            said = err.strip().splitlines()[-1] if err.strip() else ""
            print("  %-18s %s after %.2f s -> %d  %s" % (label, sig.name, delay, pr.returncode,
                                                        said[:90]))
            bad = [f for f in files if ".tmp" in f]
            for f in files:
                if ".csv" in f:
                    whole_lines(os.path.join(d, f))
            partial = [f for f in files if f.endswith(".partial")]
            check(pr.returncode == 128 + sig and sig.name in err and not bad and
                  (label == "run" or partial) and
                  not running_with(d),
                  "%s stopped by %s: exit %d, whole lines, its partial results, nothing left"
                  % (label, sig.name, 128 + sig),
                  subprocess.CompletedProcess(cmd, pr.returncode, "", err))


PY_KEPT = r'''
import decimal, fractions, math, os, subprocess, sys, threading
import numpy as np
import nsm
BALL, FIO, NSMC = sys.argv[1:4]
b, f = nsm.compile(BALL), nsm.compile(FIO)
#EXPECT#
t_land = math.sqrt(2 / 9.81)
cases = [
    ("t_end=Fraction(1, 2)", lambda: b.run(t_end=fractions.Fraction(1, 2)), ["ok"]),
    ("t_end=Decimal('0.5')", lambda: b.run(t_end=decimal.Decimal("0.5")), ["ok"]),
    ("t_end=Decimal('nan')", lambda: b.run(t_end=decimal.Decimal("nan")), ["SettingError"]),
    ("t_end=1+0j", lambda: b.run(t_end=1 + 0j), ["SettingError"]),
    ("t_end=10**400", lambda: b.run(t_end=10 ** 400), ["SettingError"]),
    ("t_end=5e-324", lambda: b.run(t_end=5e-324), ["SettingError"]),
    ("t_end=np.float16(1)", lambda: b.run(t_end=np.float16(1)), ["ok"]),
    ("t_end=np.uint64(2**64-1)", lambda: b.run(t_end=np.uint64(2 ** 64 - 1)), ["SettingError"]),
    ("t_end='1 s'", lambda: b.run(t_end="1 s"), ["SettingError"]),
    ("params e=np.bool_", lambda: b.run(t_end=1, params={"e": np.bool_(True)}), ["ParameterError"]),
    ("params e=10**400", lambda: b.run(t_end=1, params={"e": 10 ** 400}), ["ParameterError"]),
    ("params m='1 s'", lambda: b.run(t_end=1, params={"m": "1 s"}), ["ParameterError"]),
    ("params 'e\\0'", lambda: b.run(t_end=1, params={"e\0": 0.5}), ["ParameterError"]),
    ("params b'e'", lambda: b.run(t_end=1, params={b"e": 0.5}), ["ParameterError"]),
    ("method b'rk4'", lambda: b.run(t_end=1, method=b"rk4"), ["SettingError"]),
    ("every=1e-9", lambda: b.run(t_end=1, every=1e-9), ["SettingError"]),
    ("sweep values object array", lambda: f.sweep("omega", np.array([2.5, "x"], dtype=object),
                                                  "impact:stop", transient=2, record=2),
     ["ParameterError"]),
    ("sweep section b'impact:stop'", lambda: f.sweep("omega", [2.5], b"impact:stop"),
     ["SettingError"]),
    ("sweep transient=1e300", lambda: f.sweep("omega", [2.5], "impact:stop", transient=1e300),
     ["SettingError"]),
    ("section 'impact:\\udcff'", lambda: f.section("impact:\udcff", t_end=10), ["SettingError"]),
    ("section 'impact:stop\\n'", lambda: f.section("impact:stop\n", t_end=10), ["SettingError"]),
    ("floquet(nan)", lambda: f.floquet(float("nan")), ["SettingError"]),
    ("continuation curve='bad'", lambda: f.continuation("omega", 2, 3, curve="bad"),
     ["SettingError"]),
    ("basins(b'M.x=-0.5:0:3', ...)", lambda: f.basins(b"M.x=-0.5:0:3", "M.v=-1:1:3",
                                                      "period:2*pi/omega"), ["SettingError"]),
]
for label, call, errors in cases:
    expect(label, call, errors)
print("  %d calls, each a result or its error" % n)

# threads: eight compiles of two models at once, then runs and sweeps
models, errs = {}, []
def comp(i):
    try:
        models[i] = nsm.compile(BALL if i % 2 else FIO)
    except BaseException as e:
        errs.append(repr(e))
ts = [threading.Thread(target=comp, args=(i,)) for i in range(8)]
[t.start() for t in ts]
[t.join() for t in ts]
ref_b, ref_f = b.run(t_end=3).x, f.run(t_end=50).x
same = {}
def work(i):
    try:
        r = models[i].run(t_end=3 if i % 2 else 50)
        same[i] = np.array_equal(r.x, ref_b if i % 2 else ref_f)
    except BaseException as e:
        errs.append(repr(e))
ts = [threading.Thread(target=work, args=(i,)) for i in range(8)]
[t.start() for t in ts]
[t.join() for t in ts]
print("  8 threads compiling and running: errors %s, runs as one thread's: %s" % (errs, same))
assert not errs and len(same) == 8 and all(same.values())

# the command line and Python on one cache, `nsmc cache clean` beside them
env = dict(os.environ)
clean = subprocess.Popen(["sh", "-c", 'for i in 1 2 3 4 5 6 7 8 9 10 11 12; do "$0" cache clean '
                          '>/dev/null || exit 1; sleep 0.1; done', NSMC], env=env)
runs = [subprocess.Popen([NSMC, "run", BALL, "--no-plot", "-q", "--t-end", "1", "--out-dir",
                          "cl%d" % i], env=env, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True) for i in range(3)]
for k in range(4):
    r = nsm.compile(BALL).run(t_end=1)
    assert abs(float(r.events[0]["t"]) - t_land) < 1e-9
outs = [p.communicate()[1] for p in runs]
rcs = [p.returncode for p in runs] + [clean.wait()]
print("  nsmc run x3, nsm.compile x4 and nsmc cache clean x12 on one cache: exits %s" % rcs)
for p, err in zip(runs, outs):
    if p.returncode:
        print("  a run's stderr: " + err.strip().replace("\n", "\n    "))
assert rcs == [0, 0, 0, 0]

# basins under a TMPDIR of 4030 bytes: the basin program's folder in it
# would pass the programs' path limit; it is named from the folder itself
import tempfile
deep = os.path.abspath("t")
while len(deep) + 251 < 4030:
    deep = os.path.join(deep, "d" * 250)
deep = os.path.join(deep, "u" * (4030 - len(deep) - 1))
os.makedirs(deep)
tempfile.tempdir = deep
xs, ys, labels, atts = f.basins(("M.x", -1, 0, 3), ("M.v", -1, 1, 3), "period:2*pi/omega")
tempfile.tempdir = None
print("  basins under a TMPDIR of %d bytes: labels %s, %d attractor(s)"
      % (len(deep), labels.tolist(), len(atts)))
assert labels.shape == (3, 3) and len(atts) >= 1
'''


def kept_py(tmp):
    """Python: bad arguments of every type, threads, one cache shared with
    the command line while `nsmc cache clean` runs."""
    from passlib import PY_EXPECT
    python_script(tmp, "kept.py", PY_KEPT.replace("#EXPECT#", PY_EXPECT), [BALL, FIO, NSMC],
                  "Python's bad arguments, threads and a shared cache")


if __name__ == "__main__":
    sys.exit(main({"findings_names": findings_names, "findings_paths": findings_paths,
                   "findings_fds": findings_fds, "findings_pickle": findings_pickle,
                   "findings": findings, "kept": kept,
                   "kept_signals": kept_signals, "kept_py": kept_py},
                  "nsm-eighteenth-prog-", case_arg=4))
