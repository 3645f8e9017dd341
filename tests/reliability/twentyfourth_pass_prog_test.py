#!/usr/bin/env python3
"""The twenty-fourth hostile pass over the programs (issue #29,
docs/fuzzing.md): the output folder's lock removed at a program's end, the
folders a program made removed when empty, folders moved mid-run, several
programs racing on one folder.

    tests/reliability/twentyfourth_pass_prog_test.py NSMC SIM SOURCE_DIR CASE

SIM is the bouncing ball's simulator.  Cases (each under 20 s in the normal
build):
  findings_movedmade  a folder a program made (`nsmc run --out-dir M`, a
             simulator's `--plot M`) moved away mid-run and an empty folder
             of the user's made under its name: the program removed the
             user's folder at its end (it took any empty folder under the
             name for its own), and left its lock in the moved folder.  Now
             only the folder it made is removed, and the lock goes from
             wherever its folder went.
  findings_ccnoprog  a C compiler named by CC that exits 0 without making a
             program: `true`, `cc -fsyntax-only` said "cannot write
             CACHE/M.tmpPID: No such file or directory" (a file of nsm's
             named, the compiler not), and `cc -c`, `cc -E` (an object
             file, preprocessed text) were kept in the cache as the
             simulator: "cannot run CACHE/M: Permission denied", exit 2,
             and so at every later run under that CC.  Now "the C compiler
             named by CC (...) exited 0 without making a program", exit 1,
             nothing cached, the output folder not made.
  findings_ownabs  `nsmc run --out-dir D -- --stats /abs/D/plot.png` (or
             `--section-out D/../D/plot.gp`, `--animate /abs/A/B/D/plot.gif`)
             into a folder not yet made: the run's figures took the
             statistics' place, exit 0, where `--stats D/plot.png` is
             refused (the two spellings compared as text while the folder
             was not there).  Now compared again once the folder is made,
             by device and inode: refused, exit 1, no folder left.
  kept_race  three and ten `nsmc run`s and simulators with `--plot` started
             on one folder at random moments, some stopped by SIGTERM,
             SIGINT or SIGKILL: /proc/locks sampled throughout never shows
             two processes holding a lock on the folder's lock file (the
             one under the name or one removed), the trajectory left is
             one run's whole lines, a file of the user's in the folder stays
             (passed: kept as a regression check).
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import os
import random
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import SANITIZED, check, env_for, main, wait_until  # noqa: E402

NSMC = os.path.abspath(sys.argv[1])
SIM = os.path.abspath(sys.argv[2])
SRC = os.path.abspath(sys.argv[3])
SLOW = 4 if SANITIZED else 1
BALL = os.path.join(SRC, "models", "bouncing_ball.nsm")
LOCK = ".nsm-run.lock"


def names(folder):
    """The sorted names in folder, or None when it is not there."""
    return sorted(os.listdir(folder)) if os.path.isdir(folder) else None


def start(tmp, cmd):
    """Starts cmd in tmp with its own cache; the Popen."""
    return subprocess.Popen(cmd, cwd=tmp, env=env_for(tmp), stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, errors="replace")


def last(err):
    """The last line of a standard error text, for the printed outcome."""
    lines = err.strip().splitlines()
    return lines[-1][:120] if lines else ""


# ---- findings_movedmade -----------------------------------------------------

def case_movedmade(tmp):
    """A made folder moved mid-run, an empty one of the user's in its place."""
    subprocess.run([NSMC, "run", BALL, "--out-dir", "warm", "-q", "--no-plot"], cwd=tmp,
                   env=env_for(tmp), capture_output=True, timeout=120 * SLOW)
    runs = (("nsmc run --out-dir M", [NSMC, "run", BALL, "--out-dir", "M", "-q", "--no-plot",
                                      "--", "--t-end", "3000"], "trajectory.csv"),
            ("nsmc run --out-dir A/B/M", [NSMC, "run", BALL, "--out-dir", "A/B/M", "-q",
                                          "--no-plot", "--", "--t-end", "3000"],
             "trajectory.csv"),
            ("sim --plot M", [SIM, "--t-end", "3000", "--out", "t.csv", "--plot", "M"], None))
    for label, cmd, inside in runs:
        out = cmd[cmd.index("--out-dir") + 1] if "--out-dir" in cmd else "M"
        m = os.path.join(tmp, out)
        moved = os.path.join(tmp, "E")
        pr = start(tmp, cmd)
        ok = wait_until(pr, lambda: os.path.exists(os.path.join(m, inside or LOCK)), 30 * SLOW)
        check(ok and pr.poll() is None, "%s: its folder made while it runs" % label)
        os.rename(m, moved)
        os.mkdir(m)             # the user's own folder, empty, under the name
        err = pr.communicate(timeout=120 * SLOW)[1]
        print("  %s, moved to E mid-run, an empty folder made as %s -> %d  %s; %s: %s; E: %s"
              % (label, out, pr.returncode, last(err), out, names(m), names(moved)))
        check(os.path.isdir(m), "%s: the user's folder made under the name after the "
              "move is kept" % label)
        check(LOCK not in names(moved), "%s: the lock removed from the moved folder" % label)
        subprocess.run(["rm", "-rf", moved, os.path.join(tmp, out.split("/")[0])])


# ---- findings_ccnoprog -----------------------------------------------------

def case_ccnoprog(tmp):
    """A compiler named by CC that exits 0 without making a program."""
    out = os.path.join(tmp, "o")
    for cc in ("true", "cc -fsyntax-only", "cc -c", "cc -E"):
        for attempt in (1, 2):
            env = env_for(tmp)
            env["CC"] = cc
            p = subprocess.run([NSMC, "run", BALL, "-q", "--no-plot", "--out-dir", out],
                               cwd=tmp, env=env, capture_output=True, text=True,
                               errors="replace", timeout=120 * SLOW)
            print("  CC=%r nsmc run (%d) -> %d  %s" % (cc, attempt, p.returncode,
                                                       last(p.stderr)))
            check(p.returncode == 1 and "internal error" not in p.stderr and
                  "the C compiler named by CC ('%s') exited 0 without making a program" % cc
                  in p.stderr and not os.path.exists(out),
                  "CC=%r (%d): the compiler named, exit 1, no folder made" % (cc, attempt))


# ---- findings_ownabs -------------------------------------------------------

def case_ownabs(tmp):
    """The run's own files named by another spelling, the folder not made."""
    subprocess.run([NSMC, "run", BALL, "--out-dir", "warm", "-q", "--no-plot"], cwd=tmp,
                   env=env_for(tmp), capture_output=True, timeout=120 * SLOW)
    cases = (("D", ["--stats", os.path.join(tmp, "D", "plot.png")]),
             ("D", ["--stats", os.path.join(tmp, ".", "D", "plot.svg")]),
             ("D", ["--section", "impact:floor", "--section-out", "D/../D/plot.gp"]),
             ("A/B/D", ["--animate", os.path.join(tmp, "A", "B", "D", "plot.gif")]),
             ("A/B/D", ["--lyapunov", "--t-end", "0.4", "--lyapunov-out",
                        os.path.join(tmp, "A/B/D/plot.log")]))
    for out, words in cases:
        p = subprocess.run([NSMC, "run", BALL, "--out-dir", out, "-q", "--"] + words, cwd=tmp,
                           env=env_for(tmp), capture_output=True, text=True, errors="replace",
                           timeout=120 * SLOW)
        top = os.path.join(tmp, out.split("/")[0])
        print("  nsmc run --out-dir %s -q -- %s -> %d  %s; %s: %s"
              % (out, " ".join(words), p.returncode, last(p.stderr), out.split("/")[0],
                 names(top)))
        check(p.returncode == 1 and "is the run's own file in its folder" in p.stderr and
              not os.path.exists(top),
              "-- %s: refused as the run's own file, no folder left" % " ".join(words))


# ---- kept_race --------------------------------------------------------------

def lock_holders(folder):
    """The (pid, inode) pairs of the processes holding a POSIX write lock on
    a file opened as folder/.nsm-run.lock (removed or not)."""
    locked = {}
    with open("/proc/locks") as f:
        for line in f:
            w = line.split()
            if len(w) > 5 and w[1] == "POSIX" and w[3] == "WRITE":
                locked.setdefault(int(w[5].rsplit(":", 1)[1]), set()).add(w[4])
    held = set()
    for ino, pids in locked.items():
        for pid in pids:
            try:
                for fd in os.listdir("/proc/%s/fd" % pid):
                    p = "/proc/%s/fd/%s" % (pid, fd)
                    if os.readlink(p).startswith(os.path.join(folder, LOCK)) and \
                            os.stat(p).st_ino == ino:
                        held.add((pid, ino))
            except OSError:
                pass
    return held


def race(tmp, seed, n, folder):
    """n programs on folder at random moments, some stopped; whether two
    ever held its lock at once, and the exit codes."""
    rnd = random.Random(seed)
    plan = sorted((rnd.uniform(0, 1.5), rnd.choice(["", "", "TERM", "INT", "KILL"]),
                   rnd.uniform(0.02, 0.6), rnd.choice(["run", "run", "sim"]))
                  for _ in range(n))
    cmds = {"run": [NSMC, "run", BALL, "--out-dir", folder, "-q", "--no-plot", "--",
                    "--t-end", "150"],
            "sim": [SIM, "--t-end", "150", "--out", os.path.join(tmp, "s.csv"),
                    "--plot", folder]}
    procs, both, i, t0 = [], [], 0, time.monotonic()
    while time.monotonic() - t0 < 15 * SLOW:
        now = time.monotonic() - t0
        while i < len(plan) and plan[i][0] <= now:
            procs.append([start(tmp, cmds[plan[i][3]]), plan[i][1], now + plan[i][2]])
            i += 1
        for p in procs:
            if p[1] and now >= p[2] and p[0].poll() is None:
                p[0].send_signal(getattr(signal, "SIG" + p[1]))
                p[1] = ""
        held = lock_holders(folder)
        if len({pid for pid, _ in held}) > 1:
            both.append(held)
        if i == len(plan) and all(p[0].poll() is not None for p in procs):
            break
        time.sleep(0.002)
    for p in procs:
        p[0].communicate(timeout=60 * SLOW)
    return both, [p[0].returncode for p in procs], [p[0].args[1] for p in procs]


def case_race(tmp):
    """Programs racing on one folder: one lock holder at a time."""
    subprocess.run([NSMC, "run", BALL, "--out-dir", "warm", "-q", "--no-plot"], cwd=tmp,
                   env=env_for(tmp), capture_output=True, timeout=120 * SLOW)
    for seed, n in ((1, 3), (2, 3), (3, 10), (4, 10)):
        folder = os.path.join(tmp, "D%d" % seed)
        os.mkdir(folder)
        with open(os.path.join(folder, "notes.txt"), "w") as f:
            f.write("mine\n")
        both, rcs, kinds = race(tmp, seed, n, folder)
        print("  seed %d, %d programs on D%d -> exits %s; two lock holders at once: %s; left %s"
              % (seed, n, seed, rcs, both[:2], names(folder)))
        check(not both, "seed %d: never two holders of the folder's lock" % seed)
        check("notes.txt" in names(folder), "seed %d: the user's file kept" % seed)
        tr = os.path.join(folder, "trajectory.csv")
        if os.path.exists(tr):
            with open(tr) as f:
                rows = [r for r in f.read().splitlines()[1:] if r and not r.startswith("#")]
            ts = [float(r.split(",")[0]) for r in rows]
            check(all(b > a for a, b in zip(ts, ts[1:])) and len({len(r.split(","))
                                                                   for r in rows}) <= 1,
                  "seed %d: the trajectory left is one run's whole lines" % seed)


CASES = {"findings_movedmade": case_movedmade, "findings_ccnoprog": case_ccnoprog,
         "findings_ownabs": case_ownabs, "kept_race": case_race}

if __name__ == "__main__":
    sys.exit(main(CASES, "nsm24prog-", case_arg=4))
