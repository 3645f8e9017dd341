#!/usr/bin/env python3
"""A tenth hostile pass over the I/O surfaces (issue #29): the out-dir's
lock of `nsmc run`, `nsmc sweep` and `nsmc continue` when something other
than a file stands in its place, a simulator's outputs that name one file
through symbolic links, HDF5 files with names at the length limit and
states left by earlier failures, out-dirs that are links, and impossible
steps on every method, by inputs the first nine passes did not try.

    tests/reliability/tenth_pass_io_test.py NSMC SIM FIO_SIM SOURCE_DIR CASE SIMS_DIR

Cases (each under 20 s in the normal build):
  findings   what the pass found, each failing before its fix: a symbolic
             link planted as DIR/.nsm-run.lock was followed and its target's
             contents replaced by the locker's process id (`nsmc run`, `nsmc
             sweep`, `nsmc continue`; run as root, a link to /etc/passwd
             emptied it), and a FIFO or a device there gave a warning only;
             `--out a.h5 --events l.csv`, l.csv a link to a.h5 not yet made,
             exited 0 with the events lost (written through the link, then
             the HDF5 file renamed over them), and `--out a.csv --events
             l.csv`, l.csv a link to a.csv not yet made, blamed "another
             running program"; a continuation stopped twice into one folder
             replaced the first stop's branch.csv.partial without a word (a
             sweep keeps it as .partial.prev).
  outputs    inputs that found nothing, kept: outputs naming one file (by
             the same name, through ./, a hard link, an existing file's
             link, two outputs onto standard output), HDF5 names of 245 and
             252 characters, a killed run's partial file beside a folder or
             a link to /dev/full named FILE.h5.partial.prev, a sweep's
             out-dir that is a link to a folder, a folder as the lock.
  steps      impossible steps on every method (`--dt` 1e-300, 1e-15, -1,
             nan, `--every` 1e-300 and 1e-17, `--t-end` 1e300 and 1e15,
             `--set g=1e300`): each refused with a message, exit 1 or 3
             (the time it took printed), never a hang or a silent result.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import SANITIZED, check, env_for, main, run, whole_lines  # noqa: E402

# the program, the source tree's models and the simulators' folder
NSMC, SIMS = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[6])
FIO, BALL = (os.path.join(os.path.abspath(sys.argv[4]), "models", name + ".nsm")
             for name in ("forced_impact_oscillator", "bouncing_ball"))
SLOW = 3 if SANITIZED else 1
PRECIOUS = "precious data\nline 2\n"


def sim(name):
    return os.path.join(SIMS, "sim_" + name)


def listing(folder):
    """The names in folder, sorted."""
    return sorted(os.listdir(folder))


SWEEP = ["--param", "omega=1:2:3", "--section", "period:2*pi/omega", "--transient", "2",
         "--record", "2"]
STUDIES = {
    "run": lambda d: [NSMC, "run", BALL, "--out-dir", d, "-q", "--no-plot"],
    "sweep": lambda d: [NSMC, "sweep", FIO] + SWEEP + ["--out-dir", d],
    "continue": lambda d: [NSMC, "continue", FIO, "--param", "omega=2.5:2.6", "--max-points",
                           "3", "--transient", "20", "--out-dir", d, "--no-plot", "-q"],
}


# ---- findings ---------------------------------------------------------------

def lock_not_a_file(tmp):
    """DIR/.nsm-run.lock as a link to a file outside, a dangling link, a FIFO
    and a device: refused, exit 1, the target untouched, nothing written."""
    for what, cmd in STUDIES.items():
        for kind in ("link", "dangling", "fifo", "device"):
            d = os.path.join(tmp, "%s-%s" % (what, kind))
            os.mkdir(d)
            lock = os.path.join(d, ".nsm-run.lock")
            target = os.path.join(tmp, "precious-%s-%s.txt" % (what, kind))
            if kind == "link":
                with open(target, "w") as f:
                    f.write(PRECIOUS)
                os.symlink(target, lock)
            elif kind == "dangling":
                os.symlink(target, lock)
            elif kind == "fifo":
                os.mkfifo(lock)
            else:
                os.symlink("/dev/null", lock)
            p = run(tmp, cmd(d), timeout=300 * SLOW)
            kept = open(target).read() if os.path.exists(target) else None
            check(p.returncode == 1 and "not a regular file" in p.stderr and
                  kept == (PRECIOUS if kind == "link" else None) and
                  listing(d) == [".nsm-run.lock"],
                  "nsmc %s with the out-dir's lock a %s: exit 1, 'not a regular file', the "
                  "target untouched, nothing written (the link was followed and its target's "
                  "contents replaced by a process id, exit 0)" % (what, kind), p)


def dangling_clash(tmp):
    """Two outputs, one through a link to a file not yet made: refused as one
    file, nothing written."""
    ball = sim("bouncing_ball")
    cases = (("a.h5", "l.csv", "a.h5"), ("a.csv", "l.csv", "a.csv"),
             ("a.h5", "sub/l.csv", "../a.h5"), ("./a.csv", "sub/l.csv", "../a.csv"))
    os.mkdir(os.path.join(tmp, "sub"))
    for out, linkname, target in cases:
        link = os.path.join(tmp, linkname)
        os.symlink(target, link)
        for opt in ("--events", "--stats"):
            p = run(tmp, [ball, "--out", out, opt, linkname, "--t-end", "2"])
            check(p.returncode == 1 and "name the same file" in p.stderr and
                  not os.path.exists(os.path.join(tmp, "a.h5")) and
                  not os.path.exists(os.path.join(tmp, "a.csv")),
                  "--out %s %s %s (a link to %s, not yet made): 'name the same file', exit 1, "
                  "nothing written (exit 0 with the events lost under the HDF5 file, or "
                  "'in use by another running program')" % (out, opt, linkname, target), p)
        os.unlink(link)
    os.symlink("l1.csv", os.path.join(tmp, "l2.csv"))
    os.symlink("a.h5", os.path.join(tmp, "l1.csv"))
    p = run(tmp, [ball, "--out", "a.h5", "--events", "l2.csv", "--t-end", "2"])
    check(p.returncode == 1 and "name the same file" in p.stderr and
          not os.path.exists(os.path.join(tmp, "a.h5")),
          "--events through two links to the HDF5 file not yet made: refused", p)
    p = run(tmp, [ball, "--out", "a.h5", "--events", "l2.csv", "--t-end", "2", "--out",
                  "b.csv"])
    check(p.returncode == 1, "and with a CSV trajectory besides", p)
    os.unlink(os.path.join(tmp, "l1.csv"))
    os.symlink("other.csv", os.path.join(tmp, "l1.csv"))
    p = run(tmp, [ball, "--out", "a.h5", "--events", "l2.csv", "--t-end", "2"])
    check(p.returncode == 1 and "symbolic link" in p.stderr and
          not os.path.exists(os.path.join(tmp, "other.csv")) and
          not os.path.exists(os.path.join(tmp, "a.h5")),
          "links to another file not yet made: refused as every output refuses a link to "
          "nothing, nothing written", p)


def stopped_continue(tmp):
    """A continuation stopped twice by SIGTERM into one folder: the first
    stop's points kept as branch.csv.partial.prev, said."""
    cmd = [NSMC, "continue", FIO, "--param", "omega=2.5:3.5", "--out-dir", "c", "--no-plot",
           "-q", "--ds", "1e-5", "--ds-max", "1e-5", "--max-points", "1000000"]
    part = os.path.join(tmp, "c", "branch.csv.partial")
    first = None
    p = run(tmp, cmd[:3] + ["--param", "omega=2.5:2.6", "--out-dir", "warm", "--no-plot", "-q",
                            "--max-points", "2"], timeout=300 * SLOW)
    check(p.returncode == 0, "the continuation program compiled", p)
    for k in range(2):
        proc = subprocess.Popen(cmd, cwd=tmp, env=env_for(tmp), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        time.sleep(3 * SLOW)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=120)
        check(proc.returncode == 143 and "points kept in" in err and os.path.exists(part),
              "a continuation stopped by SIGTERM (%d): its points in branch.csv.partial" % k,
              subprocess.CompletedProcess(cmd, proc.returncode, out, err))
        if k == 0:
            first = open(part).read()
            continue
        prev = part + ".prev"
        check(os.path.exists(prev) and open(prev).read() == first and
              "kept as '%s'" % os.path.join("c", "branch.csv.partial.prev") in err and
              whole_lines(part) > 1,
              "a second stop: the first's %d lines kept as branch.csv.partial.prev, said (they "
              "were replaced without a word)" % first.count("\n"),
              subprocess.CompletedProcess(cmd, proc.returncode, out, err))


def case_findings(tmp):
    lock_not_a_file(tmp)
    dangling_clash(tmp)
    stopped_continue(tmp)


# ---- outputs ----------------------------------------------------------------

def case_outputs(tmp):
    ball = sim("bouncing_ball")
    same = (["--out", "a.csv", "--events", "a.csv"], ["--out", "a.csv", "--stats", "a.csv"],
            ["--out", "a.h5", "--out", "a.h5"], ["--events", "e.csv", "--stats", "e.csv"],
            ["--out", "x.csv", "--section", "impact:floor", "--section-out", "x.csv"],
            ["--out", "./b.csv", "--events", "b.csv"], ["--out", "c.h5", "--events", "c.h5"],
            ["--events", "-", "--stats", "-"], ["--out", "-", "--events", "-"],
            ["--out", "x.h5", "--section", "impact:floor", "--section-out", "x.h5"])
    for args in same:
        d = os.path.join(tmp, "same%d" % same.index(args))
        os.mkdir(d)
        p = run(d, [ball, "--t-end", "2"] + args)
        check(p.returncode == 1 and not set(listing(d)) - {"cache"},
              "%s: refused, exit 1, nothing written" % " ".join(args), p)
    with open(os.path.join(tmp, "h.csv"), "w") as f:
        f.write(PRECIOUS)
    os.link(os.path.join(tmp, "h.csv"), os.path.join(tmp, "hl.csv"))
    os.symlink("h.csv", os.path.join(tmp, "sl.csv"))
    for other in ("hl.csv", "sl.csv"):
        p = run(tmp, [ball, "--out", "h.csv", "--events", other, "--t-end", "2"])
        check(p.returncode == 1 and "name the same file" in p.stderr and
              open(os.path.join(tmp, "h.csv")).read() == PRECIOUS,
              "--out h.csv --events %s (a link to it): refused, the file untouched" % other, p)
    for n in (245, 252):
        name = "a" * n + ".h5"
        p = run(tmp, [ball, "--out", name, "--t-end", "1"])
        check(p.returncode == 0 and os.path.getsize(os.path.join(tmp, name)) > 0 and
              not [f for f in os.listdir(tmp) if f.endswith(".partial")],
              "HDF5 named with %d characters: written, no partial file left" % len(name), p)
    p = run(tmp, [ball, "--out", "k.h5", "--t-end", "1"])
    data = open(os.path.join(tmp, "k.h5"), "rb").read()
    for kind in ("folder", "full"):
        with open(os.path.join(tmp, "k.h5.99999.partial"), "wb") as f:
            f.write(data)
        prev = os.path.join(tmp, "k.h5.partial.prev")
        if os.path.islink(prev) or os.path.isfile(prev):
            os.unlink(prev)
        if kind == "folder":
            os.mkdir(prev)
        else:
            os.rmdir(prev)
            os.symlink("/dev/full", prev)
        p = run(tmp, [ball, "--out", "k.h5", "--t-end", "1"])
        partial = os.path.join(tmp, "k.h5.99999.partial")
        check(p.returncode == 0 and "process 99999" in p.stderr and
              ((kind == "folder" and os.path.exists(partial) and os.path.isdir(prev)) or
              (kind == "full" and not os.path.exists(partial) and os.path.isfile(prev) and
               open(prev, "rb").read() == data)),
              "a killed run's HDF5 file with k.h5.partial.prev a %s: %s, said" %
              (kind, "left as it is" if kind == "folder" else "kept, the link replaced"), p)
    os.mkdir(os.path.join(tmp, "real"))
    os.symlink("real", os.path.join(tmp, "dl"))
    p = run(tmp, STUDIES["sweep"]("dl"), timeout=300 * SLOW)
    check(p.returncode == 0 and os.path.islink(os.path.join(tmp, "dl")) and
          whole_lines(os.path.join(tmp, "real", "summary.csv")) == 3,
          "a sweep into an out-dir that is a link to a folder: written into the folder", p)
    os.makedirs(os.path.join(tmp, "dd", ".nsm-run.lock"))
    p = run(tmp, STUDIES["sweep"]("dd"), timeout=300 * SLOW)
    check(p.returncode == 1 and "cannot create the lock" in p.stderr and
          listing(os.path.join(tmp, "dd")) == [".nsm-run.lock"],
          "a folder as the sweep's lock: refused, nothing written", p)


# ---- steps ------------------------------------------------------------------

STEPS = (["--dt", "1e-300"], ["--dt", "1e-15"], ["--dt", "-1"], ["--dt", "nan"],
         ["--every", "1e-300"], ["--every", "1e-17"], ["--t-end", "1e300"],
         ["--t-end", "1e15", "--dt", "1e-3"], ["--set", "g=1e300"])


def case_steps(tmp):
    ball = sim("bouncing_ball")
    for method in ("rk4", "adaptive", "exact", "taylor"):
        for args in STEPS:
            t0 = time.monotonic()
            p = run(tmp, [ball, "--method", method, "--out", "o.csv"] + args, timeout=60)
            took = time.monotonic() - t0
            check(p.returncode in (1, 3) and "error:" in p.stderr,
                  "--method %s %s: refused with a message (exit %d, %.2f s)" %
                  (method, " ".join(args), p.returncode, took), p)


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-tenth-io-"))
