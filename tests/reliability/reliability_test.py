#!/usr/bin/env python3
"""Fault injection: nothing lost, nothing silent.

    tests/reliability/reliability_test.py NSMC SIM SOURCE_DIR CASE

SIM is the generated two-mass simulator.  Each case runs in a fresh
temporary folder (with its own simulator cache for `nsmc run`) and breaks
something on purpose: a full disk (/dev/full, RLIMIT_FSIZE), signals at
random moments, two runs into one folder, damaged cache entries, `-o` onto a
FIFO, a symlink or a device node, typos that would cost a disk or a hang.
It then checks that the failure is reported (exit status and the system's
reason) and that what was written is whole: every CSV line complete.
A case prints what it checked and exits 1 on the first failure.
"""
import os
import random
import resource
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import proc_find  # noqa: E402

NSMC = os.path.abspath(sys.argv[1])
SIM = os.path.abspath(sys.argv[2])
SRC = os.path.abspath(sys.argv[3])
TWO_MASS = os.path.join(SRC, "models", "two_mass.nsm")
# the columns of the two-mass trajectory and of every event log
TRAJ_COLS = 6
EVENT_COLS = 8


class Failure(Exception):
    pass


def check(cond, what, proc=None):
    """Fails the case with a message (and the process's output) unless cond."""
    if not cond:
        if proc is not None:
            what += "\n--- exit %r\n--- stdout:\n%s\n--- stderr:\n%s" % (
                proc.returncode, str(proc.stdout)[-3000:], str(proc.stderr)[-3000:])
        raise Failure(what)
    print("ok:", what.splitlines()[0])


def run(args, tmp, limit_fsize=None, env=None, timeout=300):
    """Runs a command in tmp; RLIMIT_FSIZE set to limit_fsize bytes if given."""
    def pre():
        if limit_fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_fsize, limit_fsize))
    e = dict(os.environ)
    e["XDG_CACHE_HOME"] = os.path.join(tmp, "cache")
    e.update(env or {})
    return subprocess.run(args, cwd=tmp, env=e, capture_output=True, text=True,
                          timeout=timeout, preexec_fn=pre)


def check_whole_csv(path, cols, what):
    """Every line of the CSV is complete: it ends with a newline, has cols
    fields, and (after the header) its numeric fields parse; times never
    decrease.  Returns the number of data rows."""
    data = open(path, "rb").read()
    check(data == b"" or data.endswith(b"\n"),
          "%s: the last line is whole (%d bytes, ends %r)" % (what, len(data), data[-40:]))
    lines = data.decode("utf-8").split("\n")[:-1]
    last_t = -1.0
    for i, line in enumerate(lines):
        fields = line.split(",")
        if len(fields) != cols:
            raise Failure("%s: line %d has %d fields, not %d: %r" % (what, i + 1, len(fields),
                                                                    cols, line[:200]))
        if i == 0:
            continue
        t = float(fields[0])
        for f in fields[1:] if cols == TRAJ_COLS else fields[3:]:
            float(f)
        if t < last_t:
            raise Failure("%s: line %d goes back in time" % (what, i + 1))
        last_t = t
    print("ok: %s: %d whole lines" % (what, len(lines)))
    return max(len(lines) - 1, 0)


# ---- the simulator ----------------------------------------------------------


def case_disk_full(tmp):
    """/dev/full and a file-size limit stop the run with exit 3 and the reason."""
    for opt in ("--out", "--events"):
        p = run([SIM, "--t-end", "10", "--every", "1e-4", opt, "/dev/full"], tmp)
        check(p.returncode == 3 and "cannot write '/dev/full': No space left on device"
              in p.stderr, "%s /dev/full: exit 3, 'No space left on device'" % opt, p)
        check(" events, " not in p.stderr, "%s /dev/full: no success summary" % opt, p)
    p = run([SIM, "--t-end", "10", "--stats", "/dev/full"], tmp)
    check(p.returncode == 3 and "No space left on device" in p.stderr,
          "--stats /dev/full: exit 3 with the reason", p)
    traj = os.path.join(tmp, "t.csv")
    p = run([SIM, "--t-end", "10", "--every", "1e-4", "--out", traj], tmp, limit_fsize=20000)
    check(p.returncode == 3 and "File too large" in p.stderr,
          "a 20000-byte file-size limit: exit 3, 'File too large'", p)
    rows = check_whole_csv(traj, TRAJ_COLS, "trajectory cut by the file-size limit")
    check(0 < rows < 100000, "the cut trajectory holds the lines written before the limit")
    # the event table on a full stdout
    with open("/dev/full", "w") as full:
        q = subprocess.run([SIM, "--t-end", "20"], stdout=full, stderr=subprocess.PIPE,
                           text=True, timeout=300)
    check(q.returncode == 3 and "standard output" in q.stderr and "No space" in q.stderr,
          "the event table on a full stdout: exit 3", q)


def case_open_error(tmp):
    """An output that cannot be opened: exit 1 and the system's reason."""
    p = run([SIM, "--out", os.path.join(tmp, "no", "such", "dir.csv")], tmp)
    check(p.returncode == 1 and "No such file or directory" in p.stderr,
          "--out into a missing folder: exit 1, 'No such file or directory'", p)
    p = run([SIM, "--events", tmp], tmp)
    check(p.returncode == 1 and "Is a directory" in p.stderr,
          "--events onto a folder: exit 1, 'Is a directory'", p)


def signal_at_random(tmp, rng, sig, k):
    """Starts a long run, signals it after a random delay, checks the files."""
    traj = os.path.join(tmp, "traj%d.csv" % k)
    ev = os.path.join(tmp, "ev%d.csv" % k)
    proc = subprocess.Popen([SIM, "--t-end", "5e4", "--every", "1e-3", "--out", traj,
                             "--events", ev], cwd=tmp, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    wait_for(lambda: os.path.exists(traj), "the simulator to create its files")
    time.sleep(rng.uniform(0.0, 0.6))
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=120)
    name = "SIGINT" if sig == signal.SIGINT else "SIGTERM"
    proc.stderr = err
    check(proc.returncode == 128 + sig and ("interrupted by %s" % name) in err,
          "%s at a random moment (run %d): exit %d and a note" % (name, k, 128 + sig), proc)
    check_whole_csv(traj, TRAJ_COLS, "trajectory after %s (run %d)" % (name, k))
    check_whole_csv(ev, EVENT_COLS, "events after %s (run %d)" % (name, k))


def case_signals(tmp):
    """SIGINT and SIGTERM at random moments leave whole lines, exit 130/143."""
    rng = random.Random(20261124)
    for k in range(8):
        signal_at_random(tmp, rng, signal.SIGINT if k % 2 == 0 else signal.SIGTERM, k)


def case_every_limit(tmp):
    """--every that would write without end is an error with the estimate."""
    p = run([SIM, "--every", "1e-300", "--out", os.path.join(tmp, "t.csv")], tmp, timeout=60)
    check(p.returncode == 1 and "time resolution" in p.stderr and "2e+301 samples" in p.stderr,
          "--every 1e-300: exit 1, below the time resolution, about 2e+301 samples", p)
    check(not os.path.exists(os.path.join(tmp, "t.csv")), "--every 1e-300 writes no file")
    p = run([SIM, "--every", "1e-7", "--t-end", "20"], tmp, timeout=60)
    check(p.returncode == 1 and "2e+08 samples" in p.stderr,
          "--every 1e-7 over 20 s: exit 1, about 2e+08 samples (limit 1e+08)", p)
    p = run([SIM, "--every", "1e-3", "--t-end", "1"], tmp)
    check(p.returncode == 0, "--every 1e-3 over 1 s runs", p)


def case_set_file_limits(tmp):
    """--set-file reads only regular files of bounded size, never hangs."""
    p = run([SIM, "--set-file", "/dev/zero"], tmp, timeout=60)
    check(p.returncode == 1 and "not a regular file" in p.stderr,
          "--set-file /dev/zero: exit 1, not a regular file", p)
    fifo = os.path.join(tmp, "fifo")
    os.mkfifo(fifo)
    p = run([SIM, "--set-file", fifo], tmp, timeout=60)
    check(p.returncode == 1 and "not a regular file" in p.stderr,
          "--set-file on a FIFO nobody writes: exit 1", p)
    big = os.path.join(tmp, "big.set")
    with open(big, "w") as f:
        f.write("# padding\n" * 200000)
    p = run([SIM, "--set-file", big], tmp, timeout=60)
    check(p.returncode == 1 and "more than" in p.stderr, "a 2 MB --set-file: exit 1", p)
    nul = os.path.join(tmp, "nul.set")
    with open(nul, "wb") as f:
        f.write(b"e = 0.5\x00junk\n")
    p = run([SIM, "--set-file", nul], tmp, timeout=60)
    check(p.returncode == 1 and "NUL" in p.stderr, "a --set-file with a NUL byte: exit 1", p)
    p = run([NSMC, "run", TWO_MASS, "--no-plot", "--set-file", "/dev/zero"], tmp, timeout=60)
    check(p.returncode == 1 and "not a regular file" in p.stderr,
          "nsmc run --set-file /dev/zero: exit 1", p)


# ---- nsmc -o ------------------------------------------------------------------


def case_output_targets(tmp):
    """-o writes into a FIFO, a device or a symlink's target; never replaces
    them by a regular file; refuses a folder; stdout writes are checked."""
    import threading
    plain = os.path.join(tmp, "plain.c")
    p = run([NSMC, TWO_MASS, "-o", plain], tmp)
    check(p.returncode == 0, "nsmc -o plain.c", p)
    want = open(plain, "rb").read()

    fifo = os.path.join(tmp, "fifo")
    os.mkfifo(fifo)
    got = []
    # a daemon: if nsmc never opens the FIFO, the case fails instead of hanging
    reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()), daemon=True)
    reader.start()
    p = run([NSMC, TWO_MASS, "-o", fifo], tmp)
    reader.join(60)
    check(p.returncode == 0 and got == [want], "-o onto a FIFO: the reader gets the C text", p)
    check(stat.S_ISFIFO(os.lstat(fifo).st_mode), "the FIFO is still a FIFO")

    target = os.path.join(tmp, "target.c")
    open(target, "w").write("old\n")
    link = os.path.join(tmp, "link.c")
    os.symlink("target.c", link)
    p = run([NSMC, TWO_MASS, "-o", link], tmp)
    check(p.returncode == 0 and os.path.islink(link) and open(target, "rb").read() == want,
          "-o onto a symlink: the link stays, its target gets the C text", p)
    check(not [f for f in os.listdir(tmp) if "tmp" in f], "no temporary file is left")

    dangling = os.path.join(tmp, "dangling.c")
    os.symlink("missing/none.c", dangling)
    p = run([NSMC, TWO_MASS, "-o", dangling], tmp)
    check(p.returncode == 1 and "symbolic link" in p.stderr and os.path.islink(dangling),
          "-o onto a dangling symlink: refused with a message, the link kept", p)

    p = run([NSMC, TWO_MASS, "-o", tmp], tmp)
    check(p.returncode == 1 and "directory" in p.stderr and os.path.isdir(tmp),
          "-o onto a folder: refused", p)

    if os.geteuid() == 0:
        dev = os.path.join(tmp, "null")
        os.mknod(dev, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    else:
        dev = "/dev/null"      # cannot be replaced by a user, but check anyway
    p = run([NSMC, TWO_MASS, "-o", dev], tmp)
    check(p.returncode == 0 and stat.S_ISCHR(os.stat(dev).st_mode),
          "-o onto a character device (a null device): written, still a device", p)

    for args in (["--emit=equations"], ["--dump=ast"], ["--dump=tokens"]):
        with open("/dev/full", "w") as full:
            q = subprocess.run([NSMC, *args, TWO_MASS], stdout=full, stderr=subprocess.PIPE,
                               text=True, timeout=120)
        check(q.returncode == 1 and "No space left on device" in q.stderr,
              "nsmc %s onto a full stdout: exit 1 with the reason" % args[0], q)
    p = run([NSMC, TWO_MASS, "-o", "/dev/full"], tmp)
    check(p.returncode == 1 and "No space left on device" in p.stderr,
          "nsmc -o /dev/full: exit 1 with the reason", p)


def case_messages(tmp):
    """Messages stay a screen wide and say where: an error on a 10^6-character
    line is cut around the caret; nesting too deep for the parser has a
    line and a column."""
    far = os.path.join(tmp, "far.nsm")
    with open(far, "w") as f:
        f.write("model d\nparam a = 1" + " " * 999990 + "qq\n")
    p = run([NSMC, "--check", far], tmp)
    lines = p.stderr.splitlines()
    check(p.returncode == 1 and lines and lines[0].startswith(far + ":2:1000002: error:"),
          "an error at column 1000002 is reported there", p)
    check(len(p.stderr) < 1000 and all(len(l) < 200 for l in lines),
          "its message is %d bytes, every line under 200 columns" % len(p.stderr), p)
    check(len(lines) == 3 and lines[1].rstrip().endswith("qq")
          and lines[2].index("^") == lines[1].index("qq"),
          "the excerpt keeps the offending text with the caret under it", p)
    deep = os.path.join(tmp, "deep.nsm")
    with open(deep, "w") as f:
        f.write("model d\nparam a = " + "(" * 3000 + "1" + ")" * 3000 + "\n")
    p = run([NSMC, "--check", deep], tmp)
    check(p.returncode == 1 and (deep + ":2:") in p.stderr and "nested too deeply" in p.stderr
          and len(p.stderr) < 1000,
          "nesting too deep to parse: line and column, a short message", p)
    # a failure's mode lists six 58-character contact names: each whole or
    # counted, never cut in the middle (the list was cut at 160 bytes)
    names = ["floor_contact_with_a_rather_long_descriptive_name_number_00"] + \
        ["stack_contact_with_a_rather_long_descriptive_name_number_%02d" % i for i in range(2, 7)]
    stack = os.path.join(tmp, "stack.nsm")
    with open(stack, "w") as f:
        f.write("model stack\ngravity 9.81 m/s^2\n"
                + "".join("mass B%d = 1 kg\n" % i for i in range(1, 7))
                + "gap %s: B1.x >= 0, impact(e = 0.5)\n" % names[0]
                + "".join("gap %s: B%d.x - B%d.x >= 0, impact(e = 0.5)\n" % (names[i - 1], i, i - 1)
                          for i in range(2, 7))
                + "simulate t_end = 1 s, dt = 1 ms, method = exact\n")
    p = run([NSMC, "run", stack, "--out-dir", "stack", "--", "--dt", "1e-300"], tmp)
    line = [l for l in p.stderr.splitlines() if "mode closed:" in l]
    # (a --dt the time axis cannot carry is refused before the run, exit 1,
    # with the same message naming the mode)
    check(p.returncode == 1 and line, "a refusal with six long contacts closed: exit 1", p)
    listed = line[0].split("mode closed:", 1)[1].split(":", 1)[0].split()
    if "..." in listed:
        k = listed.index("...")
        check(listed[k + 2:] == ["more"] and int(listed[k + 1]) == 6 - k,
              "the cut list ends with how many more (%s)" % " ".join(listed[k:]), p)
        listed = listed[:k]
    check(listed and all(n in names for n in listed),
          "every contact name listed is whole (%d of 6)" % len(listed), p)


# ---- nsmc run ---------------------------------------------------------------


def case_cancel(tmp):
    """x/x folds only over what cannot be zero (tests/golden/eq/cancel.nsm):
    e = z/z with a parameter z stays a division in the generated C, so a run
    with --set z=0 is refused naming z (it ran elastic when z/z was folded
    to 1); e = 3*m1/(3*m1) over a mass folds to 1."""
    model = os.path.join(SRC, "tests", "golden", "eq", "cancel.nsm")
    p = run([NSMC, model, "-o", "cancel.c"], tmp)
    check(p.returncode == 0, "the model compiles", p)
    c = open(os.path.join(tmp, "cancel.c")).read()
    check("num->e[0] = p[P_z]/p[P_z];" in c, "e = z/z is kept as a division (z may be 0)")
    check("num->e[1] = 1.0;" in c, "e = 3*m1/(3*m1) folds to 1 (m1 is a mass: > 0)")
    p = run([NSMC, "run", model, "--out-dir", "out", "--no-plot", "--set", "z=0"], tmp)
    check(p.returncode != 0 and "of the damping of S, z/z (parameters z)" in p.stderr,
          "--set z=0 is refused naming z", p)
    p = run([NSMC, "run", model, "--out-dir", "out2", "--no-plot", "--set", "z=0.5"], tmp)
    check(p.returncode == 0, "--set z=0.5 runs", p)


def simulators_of(tmp):
    """Pids of the processes running a simulator out of tmp's cache."""
    prefix = os.fsencode(os.path.join(tmp, "cache", "nsm"))
    return proc_find(lambda line: line.split(b"\0")[0].startswith(prefix))


def wait_for(cond, what, limit=120):
    """Polls cond() until true (a failure after limit seconds)."""
    end = time.monotonic() + limit
    while not cond():
        if time.monotonic() > end:
            raise Failure("gave up waiting: " + what)
        time.sleep(0.05)


def build_cache(tmp):
    """Builds the two-mass simulator into tmp's cache; returns its path."""
    p = run([NSMC, "run", TWO_MASS, "--no-plot", "--", "--t-end", "1"], tmp)
    check(p.returncode == 0, "the simulator is built and cached", p)
    root = os.path.join(tmp, "cache", "nsm")
    entry = [d for d in os.listdir(root) if d.startswith("two_mass-")]
    check(len(entry) == 1, "one cache entry")
    return os.path.join(root, entry[0], "two_mass")


def start_run(tmp, *args):
    """Starts `nsmc run two_mass.nsm ARGS` in tmp in the background."""
    e = dict(os.environ)
    e["XDG_CACHE_HOME"] = os.path.join(tmp, "cache")
    return subprocess.Popen([NSMC, "run", TWO_MASS, "--no-plot", *args], cwd=tmp, env=e,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish(proc, what, tmp):
    """Waits for a started run; returns it with stdout and stderr set.  A run
    that does not end (a simulator left running holds its pipes) fails the
    case, and whatever is left of it is killed."""
    try:
        out, err = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        kill_leftovers(tmp)
        proc.kill()
        raise Failure("%s: nsmc run did not end (a simulator was left running)" % what)
    proc.stdout, proc.stderr = out, err
    return proc


def kill_leftovers(tmp):
    """Kills the simulators still running out of tmp's cache."""
    for pid in simulators_of(tmp):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def case_run_disk_full(tmp):
    """nsmc run under a file-size limit: exit 3, the reason, no results."""
    build_cache(tmp)
    p = run([NSMC, "run", TWO_MASS, "--no-plot", "--", "--every", "1e-4"], tmp,
            limit_fsize=100000)
    check(p.returncode == 3 and "File too large" in p.stderr,
          "nsmc run with a 100 kB file-size limit: exit 3, 'File too large'", p)
    check("results:" not in p.stdout and "samples:" not in p.stdout,
          "no results are announced after a failed write", p)
    check("could not write" in p.stderr, "nsmc says the simulator could not write", p)
    check_whole_csv(os.path.join(tmp, "out", "two_mass", "trajectory.csv"), TRAJ_COLS,
                    "trajectory cut by the limit under nsmc run")
    e = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cache"))
    with open("/dev/full", "w") as full:
        q = subprocess.run([NSMC, "run", TWO_MASS, "--no-plot"], cwd=tmp, env=e, stdout=full,
                           stderr=subprocess.PIPE, text=True, timeout=300)
    check(q.returncode != 0 and "No space left on device" in q.stderr,
          "nsmc run with a full stdout: an error with the reason", q)


def case_run_signals(tmp):
    """A signal to nsmc alone reaches the simulator; the simulator killed
    alone is reported as such, never as an internal error."""
    build_cache(tmp)
    traj = os.path.join(tmp, "out", "two_mass", "trajectory.csv")
    rng = random.Random(7)
    for sig in (signal.SIGTERM, signal.SIGINT):
        proc = start_run(tmp, "--", "--t-end", "5e4")
        wait_for(lambda: simulators_of(tmp) and os.path.exists(traj), "the simulator to start")
        time.sleep(rng.uniform(0.0, 0.5))
        proc.send_signal(sig)          # nsmc alone, as `timeout` does
        finish(proc, "run", tmp)
        check(proc.returncode == 128 + sig and "interrupted" in proc.stderr
              and "results:" not in proc.stdout,
              "signal %d to nsmc alone: exit %d, reported as an interruption" % (sig, 128 + sig),
              proc)
        check(not simulators_of(tmp), "no simulator is left running after signal %d" % sig)
        check_whole_csv(traj, TRAJ_COLS, "trajectory after signal %d to nsmc" % sig)
    for sig in (signal.SIGTERM, signal.SIGKILL):
        proc = start_run(tmp, "--", "--t-end", "5e4")
        wait_for(lambda: simulators_of(tmp) and os.path.exists(traj), "the simulator to start")
        time.sleep(0.2)
        for pid in simulators_of(tmp):
            os.kill(pid, sig)
        finish(proc, "run", tmp)
        check(proc.returncode == 128 + sig and "internal error" not in proc.stderr
              and "results:" not in proc.stdout,
              "signal %d to the simulator alone: nsmc exits %d, no internal error"
              % (sig, 128 + sig), proc)
        if sig == signal.SIGTERM:
            check_whole_csv(traj, TRAJ_COLS, "trajectory after SIGTERM to the simulator")


def case_run_group_signal(tmp):
    """A signal to the whole process group (what `timeout` sends): the
    simulator gets it twice, from the group and from nsmc, and still stops
    with whole lines."""
    build_cache(tmp)
    traj = os.path.join(tmp, "out", "two_mass", "trajectory.csv")
    ev = os.path.join(tmp, "out", "two_mass", "events.csv")
    rng = random.Random(11)
    e = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cache"))
    for k in range(4):
        sig = signal.SIGTERM if k % 2 == 0 else signal.SIGINT
        proc = subprocess.Popen([NSMC, "run", TWO_MASS, "--no-plot", "--", "--t-end", "5e4"],
                                cwd=tmp, env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, start_new_session=True)
        wait_for(lambda: simulators_of(tmp) and os.path.exists(traj), "the simulator to start")
        time.sleep(rng.uniform(0.0, 0.5))
        os.killpg(proc.pid, sig)
        finish(proc, "run", tmp)
        check(proc.returncode == 128 + sig and "interrupted" in proc.stderr
              and "killed" not in proc.stderr,
              "signal %d to the process group (run %d): exit %d, an interruption"
              % (sig, k, 128 + sig), proc)
        check_whole_csv(traj, TRAJ_COLS, "trajectory after a group signal (run %d)" % k)
        check_whole_csv(ev, EVENT_COLS, "events after a group signal (run %d)" % k)


def case_run_concurrent(tmp):
    """Two runs into one folder: the second is refused, naming the first."""
    build_cache(tmp)
    first = start_run(tmp, "--", "--t-end", "5e4")
    wait_for(lambda: simulators_of(tmp), "the first simulator to start")
    p = run([NSMC, "run", TWO_MASS, "--no-plot"], tmp)
    check(p.returncode == 1 and ("process %d" % first.pid) in p.stderr and "--out-dir" in p.stderr,
          "a second run into out/two_mass: exit 1, names process %d" % first.pid, p)
    other = run([NSMC, "run", TWO_MASS, "--no-plot", "--out-dir", "elsewhere"], tmp)
    check(other.returncode == 0, "a run into another folder goes ahead", other)
    first.send_signal(signal.SIGTERM)
    finish(first, "first", tmp)
    check(first.returncode == 143, "the first run was only interrupted by the test", first)
    check_whole_csv(os.path.join(tmp, "out", "two_mass", "trajectory.csv"), TRAJ_COLS,
                    "the first run's trajectory, unmixed")
    p = run([NSMC, "run", TWO_MASS, "--no-plot"], tmp)
    check(p.returncode == 0 and "samples: 2001" in p.stdout,
          "after the first run ends, the folder is free again", p)


def case_cache_damage(tmp):
    """A damaged cached simulator is found and rebuilt, with a note."""
    bin_path = build_cache(tmp)
    whole = open(bin_path, "rb").read()
    damages = {
        "truncated": lambda: open(bin_path, "wb").write(whole[:len(whole) // 2]),
        "empty": lambda: open(bin_path, "wb").close(),
        "one byte changed": lambda: open(bin_path, "wb").write(
            whole[:4000] + bytes([whole[4000] ^ 0x40]) + whole[4001:]),
        "checksum missing": lambda: os.unlink(bin_path + ".sum"),
    }
    # another model's entry, whole: its simulator and checksum copied over
    # these are self-consistent, so only the entry's key in the checksum
    # tells them apart (they ran as two_mass, exit 0, the ball's trajectory)
    p = run([NSMC, "run", os.path.join(SRC, "models", "bouncing_ball.nsm"), "--no-plot",
             "--out-dir", "ball"], tmp)
    check(p.returncode == 0, "the bouncing ball is built and cached", p)
    root = os.path.dirname(os.path.dirname(bin_path))
    ball = [os.path.join(root, d, "bouncing_ball") for d in os.listdir(root)
            if d.startswith("bouncing_ball-")][0]
    damages["another entry's simulator and checksum"] = lambda: (
        shutil.copyfile(ball, bin_path), shutil.copyfile(ball + ".sum", bin_path + ".sum"))
    for what, damage in damages.items():
        damage()
        os.chmod(bin_path, 0o755)
        p = run([NSMC, "run", TWO_MASS, "--no-plot"], tmp)
        check(p.returncode == 0 and "is damaged" in p.stderr and "rebuilding" in p.stderr
              and "samples: 2001" in p.stdout,
              "cached simulator %s: rebuilt with a note, the run is whole" % what, p)
        p = run([NSMC, "run", TWO_MASS, "--no-plot"], tmp)
        check(p.returncode == 0 and "using the cached simulator" in p.stderr
              and "damaged" not in p.stderr, "then the rebuilt one is used", p)


def case_run_summaries(tmp):
    """nsmc run's summary reads any header and any gap name: a 200-character
    gap name and a header over 8 KiB."""
    body = "B" + "o" * 199
    gap = "G" + "a" * 199
    fam = "P" + "q" * 59
    outs = ", ".join(["%s[%d].%s" % (fam, i, c) for i in range(1, 81) for c in "xv"]
                     + ["%s.v" % body, "energy.error"])
    model = os.path.join(tmp, "long.nsm")
    with open(model, "w") as f:
        f.write("model longnames\nparam m = 1 kg\nmass %s = m\nmass %s[1..80] = m\n"
                "gap %s: %s.x + 1 m >= 0, impact(e = 0.5)\ninit %s.v = -1 m/s\n"
                "simulate t_end = 3 s, dt = 1 ms\noutput every 10 ms: %s\n"
                % (body, fam, gap, body, body, outs))
    p = run([NSMC, "run", model, "--no-plot"], tmp)
    # free flight from x = 0 at -1 m/s meets x = -1 m at t = 1 s: one impact, then away
    check(p.returncode == 0 and "events: 1 (1 impact)" in p.stdout,
          "a 200-character gap name: the summary counts its impact", p)
    head = open(os.path.join(tmp, "out", "longnames", "trajectory.csv")).readline()
    check(len(head) > 8192, "the trajectory header is %d bytes" % len(head))
    check("samples: 301\n" in p.stdout and "energy balance error:" in p.stdout,
          "the summary counts 301 samples and finds energy.error past 8 KiB", p)


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


def main():
    case = sys.argv[4]
    with tempfile.TemporaryDirectory(prefix="nsm-rel-") as tmp:
        try:
            CASES[case](tmp)
        except Failure as e:
            print("FAIL:", e)
            return 1
        finally:
            kill_leftovers(tmp)
    print("%s: all checks passed" % case)
    return 0


if __name__ == "__main__":
    sys.exit(main())
