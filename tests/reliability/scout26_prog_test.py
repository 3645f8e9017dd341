#!/usr/bin/env python3
"""A scouting pass over the programs (issue #29): the program cache's
entries under a permissive umask, and an output folder named through a
folder that does not exist yet (`A/../B`).

    tests/reliability/scout26_prog_test.py NSMC SIM SOURCE_DIR CASE

SIM is sim_forced_impact_oscillator (sim_bouncing_ball beside it).  Cases
(each under 10 s in the normal build):
  cache_modes   under `umask 000`, `nsmc run` made the cache entry 0777,
                its simulator 0777 and its checksum 0666: another local
                user could replace both, and the next `nsmc run` ran their
                program.  The entry must be 0700, the simulator 0700, its
                checksum and C file 0600; an entry, simulator or checksum
                made writable by group or others must be refused, never
                run.
  py_cache_modes  likewise for nsm.compile: its `py-*/` entry 0777, the
                shared object 0777, its checksum 0666 under `umask 000`;
                now 0700/0700/0600, and an entry others may write refused
                (CompileError naming it and its mode), never loaded.
  dotdot_dir    `mkdir B; nsmc run M --out-dir A/../B -- --t-end -1` and
                `mkdir B; sim --plot A/../B --out A/../B/plot.png` (both
                refused, exit 1) removed the user's folder B and left A,
                which the program made.  B must stay and A go.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import os
import stat
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import check, main, prog_paths, run  # noqa: E402

NSMC, SIM, SRC, BALL_SIM, FIO, BALL = prog_paths()


def mode(path):
    """The permission bits of path (not following a link)."""
    return stat.S_IMODE(os.lstat(path).st_mode)


def umask_000():
    """preexec: the child runs under umask 000."""
    os.umask(0)


def entry_of(tmp):
    """(entry folder, simulator, checksum, C file) of the one cache entry
    of the bouncing ball in tmp's cache."""
    root = os.path.join(tmp, "cache", "nsm")
    names = [n for n in os.listdir(root) if n.startswith("bouncing_ball-")]
    check(len(names) == 1, "one cache entry of the bouncing ball: %s" % names)
    d = os.path.join(root, names[0])
    return d, os.path.join(d, "bouncing_ball"), os.path.join(d, "bouncing_ball.sum"), \
        os.path.join(d, "bouncing_ball.c")


def cache_modes(tmp):
    """Entries made owner-only whatever the umask; unsafe ones refused."""
    cmd = [NSMC, "run", BALL, "--out-dir", "out", "--", "--t-end", "0.1"]
    p = run(tmp, cmd, preexec=umask_000)
    print("umask 000:", " ".join(cmd[1:]), "-> exit", p.returncode)
    check(p.returncode == 0, "the run under umask 000 succeeds", p)
    d, binp, sump, csrc = entry_of(tmp)
    got = (mode(d), mode(binp), mode(sump), mode(csrc))
    print("modes: entry %04o simulator %04o checksum %04o C file %04o" % got)
    check(got == (0o700, 0o700, 0o600, 0o600),
          "entry 0700, simulator 0700, checksum and C file 0600 under umask 000")
    for what, path, bad in (("entry folder", d, 0o777), ("simulator", binp, 0o777),
                            ("checksum", sump, 0o666), ("simulator", binp, 0o720)):
        keep = mode(path)
        os.chmod(path, bad)
        marker = os.path.join(tmp, "out", "trajectory.csv")
        if os.path.exists(marker):
            os.unlink(marker)
        p = run(tmp, cmd)
        os.chmod(path, keep)
        print("%s %04o -> exit %d: %s" % (what, bad, p.returncode,
                                          (p.stderr.strip().splitlines() or [""])[-1][:160]))
        check("using the cached" not in p.stderr and not os.path.exists(marker),
              "a cache %s at mode %04o is never run" % (what, bad), p)
        check(p.returncode != 0 and path in p.stderr and "%04o" % bad in p.stderr,
              "the %s at %04o is refused with a message naming it and its mode"
              % (what, bad), p)
    p = run(tmp, cmd)
    check(p.returncode == 0 and "using the cached" in p.stderr,
          "the entry made safe again is used", p)


PY_COMPILE = """
import sys
import nsm
try:
    m = nsm.compile(sys.argv[1])
except nsm.CompileError as err:
    print("CompileError:", err)
    sys.exit(3)
print("MODEL-LOADED", m)
"""


def py_cache_modes(tmp):
    """nsm.compile's entries owner-only under umask 000; unsafe ones refused."""
    script = os.path.join(tmp, "compile.py")
    with open(script, "w") as f:
        f.write(PY_COMPILE)
    cmd = [sys.executable, script, BALL]
    p = run(tmp, cmd, preexec=umask_000)
    print("umask 000: nsm.compile -> exit", p.returncode, p.stdout.strip()[:100])
    check(p.returncode == 0, "nsm.compile under umask 000 succeeds", p)
    root = os.path.join(tmp, "cache", "nsm")
    names = [n for n in os.listdir(root) if n.startswith("py-bouncing_ball-")]
    check(len(names) == 1, "one Python cache entry of the bouncing ball: %s" % names)
    d = os.path.join(root, names[0])
    so, sumf, csrc = (os.path.join(d, "bouncing_ball" + e) for e in (".so", ".sum", ".c"))
    got = (mode(d), mode(so), mode(sumf), mode(csrc))
    print("modes: entry %04o object %04o checksum %04o C file %04o" % got)
    check(got == (0o700, 0o700, 0o600, 0o600),
          "entry 0700, object 0700, checksum and C file 0600 under umask 000")
    for what, path, bad in (("entry folder", d, 0o777), ("object", so, 0o777),
                            ("checksum", sumf, 0o666)):
        keep = mode(path)
        os.chmod(path, bad)
        p = run(tmp, cmd)
        os.chmod(path, keep)
        print("%s %04o -> exit %d: %s" % (what, bad, p.returncode, p.stdout.strip()[:400]))
        check(p.returncode == 3 and "MODEL-LOADED" not in p.stdout and path in p.stdout and
              "%04o" % bad in p.stdout,
              "a Python cache %s at mode %04o is refused, naming it and its mode, never "
              "loaded" % (what, bad), p)
    p = run(tmp, cmd)
    check(p.returncode == 0 and "MODEL-LOADED" in p.stdout,
          "the entry made safe again is loaded", p)


def dotdot_dir(tmp):
    """`A/../B` with A missing and B the user's: B kept, A removed."""
    for label, cmd in (
            ("nsmc run", [NSMC, "run", BALL, "--out-dir", "A/../B", "--", "--t-end", "-1"]),
            ("simulator", [BALL_SIM, "--plot", "A/../B", "--out", "A/../B/plot.png"])):
        a, b = os.path.join(tmp, "A"), os.path.join(tmp, "B")
        for x in (a, b):
            if os.path.isdir(x):
                os.rmdir(x)
        os.mkdir(b)
        p = run(tmp, cmd)
        print("%s: %s -> exit %d, B %s, A %s" % (
            label, " ".join(cmd[1:]), p.returncode,
            "kept" if os.path.isdir(b) else "removed",
            "left" if os.path.isdir(a) else "removed"))
        check(p.returncode == 1, "%s refuses the run (exit 1)" % label, p)
        check(os.path.isdir(b), "%s keeps the user's folder B" % label, p)
        check(not os.path.exists(a), "%s removes A, the folder it made" % label, p)


if __name__ == "__main__":
    sys.exit(main({"cache_modes": cache_modes, "py_cache_modes": py_cache_modes,
                   "dotdot_dir": dotdot_dir},
                  "nsm-scout26-prog-", case_arg=4))
