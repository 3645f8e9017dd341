#!/usr/bin/env python3
"""Review leftovers of issue #29: where two pieces of code held one rule
in two forms that did not agree, each a check that failed before the
two were made one.

    tests/reliability/leftovers26_test.py NSMC SIM_BOUNCING_BALL SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  cachecheck the compile cache's folder was judged through a link (stat)
             and its entries by the link alone (lstat): a cache folder that
             is a link of another user's to a folder of ours was used (the
             link's owner can swap it at any time), and nsmc ran an entry's
             simulator that is a link of ours to a file any user may write
             (the Python package called such a link damaged and rebuilt).
             The folder's and the entries' messages also differed.  Now one
             rule, in nsmc and in the Python package: the path must be
             ours (a link of another user's is refused, naming it); a link
             of ours is judged by its target where a folder is wanted and
             never followed in place of an entry's file (damaged, rebuilt);
             the same message with the noun "folder" or "entry".
  pyblank    Python's params={'g': '2.5 '} was refused ("must be a number")
             while the simulators' --set 'g=2.5 ' takes it: two parsers.
             Now every text value of params= is read by --set's own code
             (setfile_value): the same value (the ball's first landing at
             sqrt(2 h/g) with g = 2.5 m/s^2) and the same refusals word
             for word ('2.5 x', '2.5,0', ' nan ').
  helpevery  the simulator's --help said nothing of the last row at t_end
             when --every does not divide t_end.  Now it says so, and the
             run does it: --every 0.3 --t-end 1 writes rows at 0, 0.3,
             0.6, 0.9 and 1 s.
  capdigits  a continuation's point-cap note printed the parameter's value
             with 17 digits (--param omega=2.3:... stopped "at omega =
             2.2999999999999998") and the range's end with 15, which lost
             an end that needs more (2.6000000000000005 said "2.6").  Now
             both in the shortest text that reads back as the value.
  animstale  a SIGKILL while gnuplot drew an animation left its temporary
             (.anim-PID.gif) in the folder for ever: the figures'
             NAME.tmpPID were removed by the next run, the animation's by
             none.  Now the next animation into that folder removes those
             whose process has ended, and leaves a live process's and
             every name of another pattern alone.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import glob
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import SANITIZED, check, main, py_compile  # noqa: E402

NSMC = os.path.abspath(sys.argv[1])
SIM = os.path.abspath(sys.argv[2])
FIO = os.path.join(os.path.abspath(sys.argv[3]), "models", "forced_impact_oscillator.nsm")
SRC = os.path.abspath(sys.argv[3])
SLOW = 4 if SANITIZED else 1
BALL = os.path.join(SRC, "models", "bouncing_ball.nsm")


def last(p):
    """The last line of p's standard error, for the printed outcome."""
    lines = [ln for ln in p.stderr.strip().splitlines() if ln != "(try --help)"]
    return lines[-1][:200] if lines else ""


def nsmc_run(tmp, xdg, out):
    """nsmc run of the ball with the cache under xdg: the CompletedProcess."""
    env = dict(os.environ, XDG_CACHE_HOME=xdg)
    return subprocess.run([NSMC, "run", BALL, "--out-dir", out, "-q", "--no-plot", "--",
                           "--t-end", "0.01"], cwd=tmp, env=env, capture_output=True,
                          text=True, timeout=120 * SLOW)


def tail(message, path):
    """What a refusal says after the path it names (the shared part)."""
    return message.split(path, 1)[1].split(": ", 1)[1].split("): ", 1)[1].strip()


def loose_link(path):
    """Replaces the file path by a link (ours) to a copy any user may write."""
    copy = path + ".loose"
    shutil.copy2(path, copy)
    os.chmod(copy, 0o777)
    os.unlink(path)
    os.symlink(copy, path)


def foreign_link(path):
    """Replaces the file path by a link of uid 65534's to a copy of ours."""
    copy = path + ".mine"
    shutil.copy2(path, copy)
    os.unlink(path)
    os.symlink(copy, path)
    os.lchown(path, 65534, 65534)


def case_cachecheck(tmp):
    """One rule and one message for the cache's folder and its entries."""
    # an entry's simulator replaced by a link of ours to a file anyone may write
    xdg = os.path.join(tmp, "x1")
    p = nsmc_run(tmp, xdg, "A")
    check(p.returncode == 0, "nsmc run builds the ball into a fresh cache", p)
    bins = [b for b in glob.glob(os.path.join(xdg, "nsm", "*", "*"))
            if os.path.basename(b) == os.path.basename(os.path.dirname(b)).rsplit("-", 1)[0]]
    check(len(bins) == 1, "one cached simulator: %s" % bins)
    loose_link(bins[0])
    p = nsmc_run(tmp, xdg, "B")
    print("  nsmc run, the cached simulator a link of ours to a file of mode 0777 -> %d  %s"
          % (p.returncode, " / ".join(p.stderr.strip().splitlines()[:1])[:200]))
    check(p.returncode == 0 and "damaged (a link, not a file); rebuilding" in p.stderr and
          not os.path.islink(bins[0]) and os.stat(bins[0]).st_mode & 0o077 == 0,
          "never run through the link: damaged, rebuilt owner-only in its place (as the "
          "Python package does)", p)

    # Python's shared object, likewise
    code, out = py_compile(tmp, dict(os.environ, XDG_CACHE_HOME=xdg), BALL)
    check(code == 0, "nsm.compile builds the ball into the cache: %s" % out)
    sos = glob.glob(os.path.join(xdg, "nsm", "py-*", "*.so"))
    check(len(sos) == 1, "one cached shared object: %s" % sos)
    loose_link(sos[0])
    code, out = py_compile(tmp, dict(os.environ, XDG_CACHE_HOME=xdg), BALL)
    print("  nsm.compile, the cached .so a link of ours to a file of mode 0777 -> %s; a link "
          "now: %s" % (out[:200], os.path.islink(sos[0])))
    check(code == 0 and not os.path.islink(sos[0]), "rebuilt in place of the link")

    if os.geteuid() != 0:
        print("  (not root: a link of another user's cannot be made)")
        return
    # an entry's file that is a link of another user's to a file of ours
    foreign_link(bins[0])
    p = nsmc_run(tmp, xdg, "C")
    print("  nsmc run, the cached simulator a link of uid 65534's -> %d  %s"
          % (p.returncode, last(p)))
    check(p.returncode == 1 and "cache entry %s is not safe" % bins[0] in p.stderr and
          "a link owned by another user" in p.stderr and not os.path.exists(
              os.path.join(tmp, "C")), "refused, exit 1: a link owned by another user", p)
    entry_msg = p.stderr
    foreign_link(sos[0])
    code, out = py_compile(tmp, dict(os.environ, XDG_CACHE_HOME=xdg), BALL)
    print("  nsm.compile, the cached .so a link of uid 65534's -> %s" % out[:200])
    check(code == 1 and "CompileError" in out and "cache entry %s is not safe" % sos[0] in out
          and "a link owned by another user" in out, "CompileError: a link owned by another "
          "user")
    check(tail(entry_msg, bins[0]) == tail(out, sos[0]).replace("would be loaded",
                                                                  "nsmc would run"),
          "nsmc's and Python's entry messages say the same:\n    %s\n    %s"
          % (tail(entry_msg, bins[0]), tail(out, sos[0])))

    # a cache folder that is a link of another user's to a folder of ours
    xdg = os.path.join(tmp, "x2")
    os.makedirs(xdg)
    mine = os.path.join(tmp, "mine")
    os.makedirs(mine, mode=0o700)
    root = os.path.join(xdg, "nsm")
    os.symlink(mine, root)
    os.lchown(root, 65534, 65534)
    p = nsmc_run(tmp, xdg, "D")
    print("  nsmc run, the cache folder a link of uid 65534's to a folder of ours -> %d  %s"
          % (p.returncode, last(p)))
    check(p.returncode == 1 and "cache folder %s is not safe" % root in p.stderr and
          "a link owned by another user" in p.stderr and not os.listdir(mine),
          "refused, exit 1: a link owned by another user; nothing built", p)
    check(tail(p.stderr, root) == tail(entry_msg, bins[0]),
          "the folder's and the entries' messages say the same:\n    %s\n    %s"
          % (tail(p.stderr, root), tail(entry_msg, bins[0])))
    code, out = py_compile(tmp, dict(os.environ, XDG_CACHE_HOME=xdg), BALL)
    print("  nsm.compile, the same cache folder -> %s" % out[:200])
    check(code == 1 and "CompileError" in out and "a link owned by another user" in out
          and not os.listdir(mine), "CompileError: a link owned by another user")
    # a cache folder that is a link of ours to a folder of ours: used
    os.unlink(root)
    os.symlink(mine, root)
    p = nsmc_run(tmp, xdg, "E")
    print("  nsmc run, the cache folder a link of ours to a folder of ours (0700) -> %d"
          % p.returncode)
    check(p.returncode == 0 and os.listdir(mine), "used: a link of ours is judged by its "
          "target", p)


def go(tmp, cmd):
    """Runs cmd in tmp: the CompletedProcess."""
    return subprocess.run(cmd, cwd=tmp, capture_output=True, text=True, errors="replace",
                          timeout=120 * SLOW)


def case_pyblank(tmp):
    """params= text values read as --set reads them, blanks and all."""
    os.environ["XDG_CACHE_HOME"] = os.path.join(tmp, "cache")
    import nsm
    m = nsm.compile(BALL)
    t1 = (2 * 1.0 / 2.5) ** 0.5        # the first landing from 1 m under 2.5 m/s^2
    for text in ("2.5 ", " 2.5 ", "2.5\t", "2.5 m/s^2 ", b"2.5 "):
        shown = text.decode() if isinstance(text, bytes) else text
        try:
            r = m.run(t_end=1, params={"g": text})
            tp = float(r.events[0][0]) if len(r.events) else None
        except nsm.ParameterError as err:
            tp = "ParameterError: %s" % err
        p = go(tmp, [SIM, "--set", "g=" + shown, "--t-end", "1", "--out", "u.csv"])
        rows = [ln.split() for ln in p.stdout.splitlines() if " impact " in ln]
        ts = float(rows[0][0]) if rows else None
        print("  params={'g': %r} -> first landing %s; --set -> %s s; sqrt(2 h/g) = %.12g s"
              % (text, tp, ts, t1))
        check(isinstance(tp, float) and ts is not None and abs(tp - t1) < 1e-6 and
              abs(ts - t1) < 1e-6, "g = %r: taken, the landing at sqrt(2 h/g), as --set "
              "gives" % text)
    for text in ("2.5 x", "2.5,0", " nan ", "1_0"):
        p = go(tmp, [SIM, "--set", "g=" + text, "--t-end", "1", "--out", "u.csv"])
        cli = (p.stderr.split("for parameter 'g': ", 1)[-1].splitlines() or [""])[0]
        try:
            m.run(t_end=1, params={"g": text})
            outcome = "ran"
        except nsm.ParameterError as err:
            outcome = str(err)
        print("  params={'g': %r} -> %s\n    --set: %s" % (text, outcome[:150], cli[:150]))
        check(p.returncode == 1 and cli and outcome.endswith(cli) and
              "parameter 'g'" in outcome,
              "g = %r: refused as --set refuses it, word for word" % text)


def case_helpevery(tmp):
    """--help names the last row at t_end; the run writes it."""
    p = go(tmp, [SIM, "--help"])
    text = " ".join(p.stdout.split())
    said = text[text.find("--every E"):][:260]
    print("  %s --help -> %d: %s" % (os.path.basename(SIM), p.returncode, said))
    check(p.returncode == 0 and "last row is at t_end also when E does not divide it" in said,
          "--help says the last row is at t_end when --every does not divide it", p)
    p = go(tmp, [SIM, "--every", "0.3", "--t-end", "1", "--out", "e.csv"])
    with open(os.path.join(tmp, "e.csv")) as f:
        ts = [float(ln.split(",")[0]) for ln in f.read().splitlines()[1:]]
    print("  --every 0.3 --t-end 1 -> %d, rows at %s" % (p.returncode, ts))
    want = [0, 0.3, 0.6, 0.9, 1]
    check(p.returncode == 0 and len(ts) == len(want) and
          all(abs(a - b) < 1e-12 for a, b in zip(ts, want)), "rows at 0, 0.3, 0.6, 0.9 and 1")


def case_capdigits(tmp):
    """The point-cap note's values in their shortest round-trip text."""
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cache"))
    for rng, at, end in (("2.3:2.6", "2.3", "2.6"),
                         ("2.3:2.6000000000000005", "2.3", "2.6000000000000005")):
        check(float(end) != 2.6 or end == "2.6", "the end %s is its own double" % end)
        p = subprocess.run([NSMC, "continue", FIO, "--param", "omega=" + rng, "--max-points",
                            "1", "--no-plot", "--out-dir", "C"], cwd=tmp, env=env,
                           capture_output=True, text=True, timeout=120 * SLOW)
        note = [ln for ln in p.stderr.splitlines() if "point cap" in ln]
        print("  nsmc continue --param omega=%s --max-points 1 -> %d\n    %s"
              % (rng, p.returncode, note[0] if note else last(p)))
        check(p.returncode == 0 and note and "at omega = %s, before the end of its range at "
              "%s:" % (at, end) in note[0], "the note says omega = %s and the end %s" % (at, end),
              p)


def dead_pid():
    """A process id no process has now (the largest ones, checked)."""
    with open("/proc/sys/kernel/pid_max") as f:
        top = int(f.read())
    for pid in range(top - 1, top - 1000, -1):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return pid
        except PermissionError:
            continue
    raise AssertionError("no free process id near pid_max")


def case_animstale(tmp):
    """A killed animation's temporary removed by the next; others kept."""
    d = os.path.join(tmp, "A")
    os.makedirs(d)
    dead, live = dead_pid(), os.getpid()
    stale = ".anim-%d.gif" % dead
    kept = [".anim-%d.gif" % live, ".anim-%d.gif.x" % dead, "x.anim-%d.gif" % dead,
            ".anim-%dx.gif" % dead, "notes.anim-.gif"]
    for name in [stale] + kept:
        with open(os.path.join(d, name), "w") as f:
            f.write("GIF8")
    p = go(tmp, [SIM, "--t-end", "1", "--animate", os.path.join(d, "b.gif")])
    left = sorted(os.listdir(d))
    print("  a stale %s (process %d ended) and %s, then --animate A/b.gif -> %d\n    A: %s"
          % (stale, dead, kept, p.returncode, left))
    check(p.returncode == 0 and "b.gif" in left, "the animation drawn", p)
    check(stale not in left, "the ended process's temporary removed")
    check(all(k in left for k in kept), "a live process's temporary and other names kept")


if __name__ == "__main__":
    sys.exit(main({"cachecheck": case_cachecheck, "pyblank": case_pyblank,
                   "helpevery": case_helpevery,
                   "capdigits": case_capdigits,
                   "animstale": case_animstale}, "left26", case_arg=4))
