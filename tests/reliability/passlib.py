"""What the hostile passes and the fault-injection runners share
(hostile_pass_test.py, second_pass_test.py, third_pass_test.py,
fourth_pass_test.py, studies_hostile_test.py, sweep_reliability_test.py,
h5_reliability_test.py): running a program in a scratch folder with its own
program cache, judging how it ended, printing each input with its outcome,
and checking what it left on disk.

The passes are called as `RUNNER NSMC SIM FIO_SIM SOURCE_DIR CASE [...]`
(the other runners name their case's position to `main`); `main` runs one
case in a fresh temporary folder and prints PASS or the first failure.
"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile

SANITIZED = os.environ.get("NSM_SANITIZED") == "1"


class Failure(Exception):
    pass


def check(cond, what, proc=None):
    """Fails the case with a message (and the process's stderr) unless cond."""
    if not cond:
        if proc is not None:
            what += "\n--- exit %r\n--- stderr:\n%s" % (proc.returncode, str(proc.stderr)[-3000:])
        raise Failure(what)
    print("ok:", what.splitlines()[0])


def thin(items):
    """Every third item under the sanitizers (about 3x slower), else all."""
    return items[::3] if SANITIZED else items


def env_for(tmp):
    """The environment of a run in tmp: its own program cache."""
    e = dict(os.environ)
    e["XDG_CACHE_HOME"] = os.path.join(tmp, "cache")
    return e


def run(tmp, cmd, timeout=120, preexec=None, env=None):
    """Runs cmd in tmp (its own program cache, env's variables added); the
    CompletedProcess."""
    full = env_for(tmp)
    full.update(env or {})
    try:
        return subprocess.run(cmd, cwd=tmp, env=full, capture_output=True, text=True,
                              errors="replace", timeout=timeout, preexec_fn=preexec)
    except subprocess.TimeoutExpired:
        raise Failure("still running after %d s: %s" % (timeout, cmd))


# the words of a refusal that the first pass accepted as a message, and the
# wider set of the later passes (a failed run, a sweep with no point)
FIRST_PASS_WORDS = ("error",)
LATER_PASS_WORDS = ("error", "failed", "no point", "no initial state")
# and of the studies (a continuation that finds no periodic orbit)
STUDY_WORDS = LATER_PASS_WORDS + ("no orbit",)


def bad_end(p, words=FIRST_PASS_WORDS, empty_messages=False):
    """Why an end is unacceptable (None when it is fine): a signal, a status
    other than 0, 1 and 3, a sanitizer's report, a refusal without one of
    words in its message, and (empty_messages) an error line with nothing
    after 'error:'."""
    err = p.stderr or ""
    if "runtime error:" in err or "Sanitizer" in err:
        return "a sanitizer report"
    if p.returncode < 0 or p.returncode >= 128:
        return "killed by a signal (%d)" % p.returncode
    if p.returncode not in (0, 1, 3):
        return "exit status %d" % p.returncode
    if p.returncode and not any(w in err for w in words):
        return "exit %d without a message" % p.returncode
    if empty_messages:
        for line in err.splitlines():
            if line.rstrip().endswith("error:"):
                return "an empty message: %r" % line
    return None


def later_bad_end(p):
    """bad_end as the second and third passes judge: the wider words, and
    no empty message."""
    return bad_end(p, LATER_PASS_WORDS, True)


def label_of(args):
    """An argument vector as one printable line (long words shortened)."""
    return " ".join(a if len(a) < 40 else a[:10] + "...(%d)" % len(a) for a in args) \
        .replace("\n", "\\n")


def tried(tmp, cmd, label, timeout=120):
    """Runs one hostile input and prints it with its outcome; fails on an
    unacceptable end (later_bad_end)."""
    p = run(tmp, cmd, timeout=timeout)
    last = [ln for ln in p.stderr.strip().splitlines()
            if "using the cached" not in ln and "compiling the" not in ln][-1:]
    print("  %-62s -> %d  %s" % (label[:62], p.returncode, (last[0] if last else "")[:110]))
    why = later_bad_end(p)
    if why:
        raise Failure("%s: %s\n--- stderr:\n%s" % (label, why, p.stderr[-2000:]))
    return p


def snapshot(folder):
    """Every file under folder with its bytes, for 'left as it was'."""
    out = {}
    for root, _, files in os.walk(folder):
        for f in files:
            path = os.path.join(root, f)
            with open(path, "rb") as fh:
                out[os.path.relpath(path, folder)] = fh.read()
    return out


def whole_lines(path, ncol=None):
    """Rows of a CSV file that must hold whole lines only (a header, then
    rows of one width); raises Failure otherwise."""
    data = open(path, "rb").read()
    if data and not data.endswith(b"\n"):
        raise Failure("%s ends in the middle of a line" % path)
    lines = data.decode().splitlines()
    if lines:
        width = len(lines[0].split(","))
        for ln in lines[1:]:
            if len(ln.split(",")) != width:
                raise Failure("%s: a row of another width: %r" % (path, ln[:200]))
    return max(0, len(lines) - 1)


def limit(nbytes):
    """A preexec function setting a file-size limit (SIGXFSZ left to the program)."""
    def set_limit():
        import resource
        resource.setrlimit(resource.RLIMIT_FSIZE, (nbytes, nbytes))
    return set_limit


def whole_figure(path):
    """Whether a PNG or SVG file ends as its format ends."""
    data = open(path, "rb").read()
    if path.endswith(".png"):
        return data.endswith(b"IEND\xaeB`\x82")
    return data.rstrip().endswith(b"</svg>")


def no_gnuplot_path(tmp):
    """A PATH of the system's folders without gnuplot (links to every other
    program of the folder that holds it)."""
    gp = shutil.which("gnuplot")
    if not gp:
        return os.environ["PATH"]
    shadow = os.path.join(tmp, "bin")
    os.mkdir(shadow)
    home = os.path.dirname(gp)
    for f in os.listdir(home):
        if f != "gnuplot" and not f.startswith("gnuplot"):
            os.symlink(os.path.join(home, f), os.path.join(shadow, f))
    real = os.path.realpath(home)          # /bin is /usr/bin on a merged /usr
    return ":".join(shadow if os.path.realpath(d) == real else d
                    for d in os.environ["PATH"].split(":"))


def blocked():
    """A preexec function leaving the stop signals blocked in the child."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM, signal.SIGHUP})


def children(pid):
    """The child processes of pid (Linux /proc)."""
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


def alive(pid):
    """Whether process pid exists and is not a zombie."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def main(cases, prefix, case_arg=5):
    """Runs the case named by argv[case_arg] (a function of cases, given the
    scratch folder) in a fresh temporary folder; 0 and PASS, or 1 and the
    failure (a timeout, a file that cannot be read or a value that cannot be
    parsed fails the case too).  Folders a case made read-only are opened
    again before the cleanup."""
    case = sys.argv[case_arg]
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        try:
            cases[case](tmp)
        except (Failure, subprocess.TimeoutExpired, OSError, ValueError, KeyError) as e:
            print("FAIL:", e)
            return 1
        finally:
            for root, dirs, _ in os.walk(tmp):
                for d in dirs:
                    os.chmod(os.path.join(root, d), 0o700)
    print("PASS")
    return 0


def stopped_run(tmp, label, cmd, sig, delay, wait=30):
    """Runs cmd writing b.csv and b.h5 in tmp, sends sig delay s after its
    first CSV bytes, and checks what it left: exit 128 + sig with
    "interrupted by", whole lines, the HDF5 file marked stopped (status 8)
    with as many rows as the CSV file, at least one, and no partial
    temporary.  Prints the outcome; raises Failure otherwise."""
    import h5py
    import time
    for f in os.listdir(tmp):
        if f.startswith("b."):
            os.unlink(os.path.join(tmp, f))
    pr = subprocess.Popen(cmd + ["--out", "b.csv", "--out", "b.h5"], cwd=tmp,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    path = os.path.join(tmp, "b.csv")
    t0 = time.monotonic()
    while pr.poll() is None and time.monotonic() - t0 < wait and \
            not (os.path.exists(path) and os.path.getsize(path) > 0):
        time.sleep(0.01)
    time.sleep(delay)
    pr.send_signal(sig)
    try:
        err = pr.communicate(timeout=wait)[1]
    except subprocess.TimeoutExpired:
        pr.kill()
        raise Failure("%s: still running %d s after %s" % (label, wait, sig.name))
    rows = whole_lines(path)
    left = [f for f in os.listdir(tmp) if "partial" in f]
    status = hrows = -1
    if pr.returncode == 128 + sig:
        with h5py.File(os.path.join(tmp, "b.h5"), "r") as f:
            status = int(f["run"].attrs["status"])
            hrows = f["trajectory"].shape[0]
    print("  %-18s %s after %.2f s: exit %d, %d CSV rows, %d HDF5 rows, status %d"
          % (label, sig.name, delay, pr.returncode, rows, hrows, status))
    check(pr.returncode == 128 + sig and "interrupted by %s" % sig.name in err and
          status == 8 and hrows == rows and rows > 0 and not left,
          "%s stopped by %s: exit %d, whole lines, HDF5 marked stopped with as many rows, "
          "no temporary" % (label, sig.name, 128 + sig))


# The Python passes' scripts (fifth_pass_test.py, sixth_pass_test.py): after
# their imports (nsm among them), expect(label, call, errors) makes one call
# and asserts that it gives a result ("ok") or one of the nsm.Error
# subclasses named in errors, with a message that is not empty and holds no
# -nan; n counts the calls.
PY_EXPECT = r'''n = 0
def expect(label, call, errors):
    """One call: a result, or one of errors with a message."""
    global n
    n += 1
    try:
        call()
        got = "ok"
    except nsm.Interrupted:
        raise
    except nsm.Error as e:
        assert str(e).strip(), "%s: an empty message" % label
        assert "-nan" not in str(e), "%s: -nan in %r" % (label, str(e))
        got = type(e).__name__
    print("  %-58s %s" % (label[:58], got))
    assert got in errors, "%s: %s, expected %s" % (label, got, errors)
'''


def python_script(tmp, name, text, args, what):
    """Writes text as tmp/name and runs it with this Python (tmp's program
    cache, matplotlib without a display) and args; prints its output and
    fails the case, saying what, unless it exits 0."""
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    env = env_for(tmp)
    env.setdefault("MPLBACKEND", "Agg")
    try:
        p = subprocess.run([sys.executable, path] + list(args), cwd=tmp, env=env,
                           capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        raise Failure("python: still running after 600 s")
    print(p.stdout)
    check(p.returncode == 0, what, p)


# ---- shared by the later passes (issue #29's review: one copy of each) -------
# The core passes' model compilation, refusals and common models; the
# arguments of the programs passes and of the hostile passes; a stop signal
# sent once a program has started; nsm.compile caught as its C compiler
# starts; and the /proc scans that find processes (pgrep is not used:
# started under the sanitizer build's LD_PRELOAD of libasan, it once hung
# in a futex and held a test for its 600 s).

def compiled(tmp, name, text=None, path=None):
    """nsm.compile of a model text written as tmp/name.nsm (or of path),
    with the program cache in tmp."""
    os.environ["XDG_CACHE_HOME"] = os.path.join(tmp, "cache")
    import nsm
    if text is not None:
        path = os.path.join(tmp, name + ".nsm")
        with open(path, "w") as f:
            f.write(text)
    return nsm.compile(path)


def refusal(fn):
    """The message of the nsm.Error fn raises, None when it returns."""
    import nsm
    try:
        fn()
    except nsm.Error as ex:
        return str(ex)
    return None


def rk(meth, dt=1e-3):
    """rk4's step (dt), none for the others: the keyword arguments of a run."""
    return {"dt": dt} if meth == "rk4" else {}


def prog_paths():
    """(NSMC, SIM, SRC, BALL_SIM, FIO, BALL) of a programs pass called as
    `RUNNER NSMC SIM SOURCE_DIR CASE`: the compiler, a simulator of the
    build (the others stand beside it), the source folder, the bouncing
    ball's simulator, and the forced impact oscillator's and the bouncing
    ball's models."""
    nsmc, sim, src = (os.path.abspath(a) for a in sys.argv[1:4])
    models = os.path.join(src, "models")
    return (nsmc, sim, src, os.path.join(os.path.dirname(sim), "sim_bouncing_ball"),
            os.path.join(models, "forced_impact_oscillator.nsm"),
            os.path.join(models, "bouncing_ball.nsm"))


def has_bytes(path):
    """A readiness test for wait_until: path exists and is not empty."""
    return lambda: os.path.exists(path) and os.path.getsize(path) > 0


def wait_until(pr, ready, limit, pause=0.01):
    """Polls ready() every pause s until it holds, process pr ends, or
    limit s pass; whether it held."""
    import time
    t0 = time.monotonic()
    while pr.poll() is None and time.monotonic() - t0 < limit:
        if ready():
            return True
        time.sleep(pause)
    return bool(ready())


def stop_after(pr, sig, delay, label, timeout=60):
    """Sends sig to pr delay s from now and returns its stderr once it ends;
    kills it and fails, naming label, if it still runs timeout s later."""
    import time
    time.sleep(delay)
    pr.send_signal(sig)
    try:
        return pr.communicate(timeout=timeout)[1]
    except subprocess.TimeoutExpired:
        pr.kill()
        raise Failure("%s: still running %d s after %s" % (label, timeout, sig.name))


def proc_read(pid, name):
    """The bytes of /proc/PID/NAME, None when the process is gone or the
    file cannot be read."""
    try:
        with open("/proc/%s/%s" % (pid, name), "rb") as f:
            return f.read()
    except OSError:
        return None


def proc_find(match, name="cmdline"):
    """The pids, in /proc's order, of the processes other than this one
    whose /proc/PID/NAME (bytes) satisfies match."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        data = proc_read(pid, name)
        if data is not None and int(pid) != os.getpid() and match(data):
            found.append(int(pid))
    return found


def proc_cmdline(pid):
    """The command line of process pid, its words joined by spaces ("" when
    gone)."""
    data = proc_read(pid, "cmdline")
    return "" if data is None else data.replace(b"\0", b" ").decode(errors="replace")


def running_with(text):
    """Whether a process other than this one has text in its command line."""
    want = os.fsencode(text)
    return bool(proc_find(lambda line: want in line))


def proc_descendants(pid):
    """{pid: command name} of every process descended from process pid
    (from each process's parent in /proc/PID/stat)."""
    kids, comm = {}, {}
    for d in filter(str.isdigit, os.listdir("/proc")):
        st = proc_read(d, "stat")
        if st is None:
            continue
        head, tail = st.decode(errors="replace").rsplit(")", 1)
        kids.setdefault(int(tail.split()[1]), []).append(int(d))
        comm[int(d)] = head.split("(", 1)[1]
    found, todo = {}, list(kids.get(pid, []))
    while todo:
        q = todo.pop()
        if q not in found and q in comm:
            found[q] = comm[q]
            todo += kids.get(q, [])
    return found


def ball_drop(method):
    """The model text of a ball dropped from h = 1 m under g = 2 m/s^2 onto
    a floor (e = 0.5), run by method: it lands at t = sqrt(2 h/g) = 1 s
    exactly."""
    return '''model ball "a ball dropped onto a floor"
param g = 2 m/s^2
param h = 1 m
param e = 0.5
mass B = 1 kg
gravity g
gap floor: B.x >= 0, impact(e = e)
init B.x = h, B.v = 0 m/s
simulate t_end = 2.5 s, dt = 1 ms, method = %s
output every 0.25 s: B.x, B.v
''' % method


# a linear oscillator (w1 = 1 rad/s) against a stop at d of stiffness k2,
# its exponent a parameter (so the model is nonlinear)
STOP = '''model stop "a linear oscillator with a compliant stop"
param k2 = 100
param d = 0.5 m
param p = 1
mass M = 1 kg
spring S: ground -- M, k = 1 N/m
gap G: d - M.x >= 0 m, penalty(k = k2, c = 0 N*s/m, exponent = p)
init M.x = -1 m
simulate t_end = 40 s
output every 10 ms: M.x, M.v
'''


def pass_paths():
    """(NSMC, SIM, FIO_SIM, SRC, SIMS, MODELS) of a hostile pass called as
    `RUNNER NSMC SIM FIO_SIM SOURCE_DIR CASE [SIMS_DIR]`: the compiler, two
    simulators of the build, the source folder, the folder of the models'
    simulators ('' when not given) and the source's models."""
    nsmc, sim, fio_sim, src = (os.path.abspath(a) for a in sys.argv[1:5])
    sims = os.path.abspath(sys.argv[6]) if len(sys.argv) > 6 else ""
    return nsmc, sim, fio_sim, src, sims, os.path.join(src, "models")


def sim(name):
    """The simulator of models/NAME.nsm in a hostile pass's SIMS_DIR."""
    return os.path.join(pass_paths()[4], "sim_" + name)


def model(name):
    """models/NAME.nsm of a hostile pass's SOURCE_DIR."""
    return os.path.join(pass_paths()[5], name + ".nsm")


def python_compiling(tmp, script, model_path, limit):
    """Starts this Python running script on model_path with a program cache
    (tmp/pyc) and a TMPDIR (tmp/pyt) of its own, and waits (within limit
    s) until the cache entry's C is written, just before the C compiler
    starts; (the process, its command, its environment, the cache, the
    TMPDIR)."""
    import glob
    cache, scratch = os.path.join(tmp, "pyc"), os.path.join(tmp, "pyt")
    os.makedirs(scratch)
    env = dict(env_for(tmp), XDG_CACHE_HOME=cache, TMPDIR=scratch)
    cmd = [sys.executable, "-c", script, model_path]
    pr = subprocess.Popen(cmd, cwd=tmp, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)
    wait_until(pr, lambda: glob.glob(os.path.join(cache, "nsm", "py-*", "*.c")), limit, 0.005)
    return pr, cmd, env, cache, scratch


def py_compile(tmp, env, path):
    """nsm.compile of the model at path and a run of it to 0.01 s in a
    fresh Python with env (the program cache as its XDG_CACHE_HOME says),
    in tmp: (exit code, its last line: OK and the run's last time, or the
    error).  The cache checks of the leftovers scripts (25, 26) share it."""
    code = ("import nsm, sys\n"
            "try:\n"
            "    m = nsm.compile(%r)\n"
            "    print('OK', m.run(t_end=0.01).t[-1])\n"
            "except nsm.Error as err:\n"
            "    print('ERR %%s: %%s' %% (type(err).__name__, err)); sys.exit(1)\n" % path)
    p = subprocess.run([sys.executable, "-c", code], cwd=tmp, env=env, capture_output=True,
                       text=True, timeout=120 * (4 if SANITIZED else 1))
    out = (p.stdout.strip().splitlines() or [""])[-1]
    return p.returncode, out


def dead_pid():
    """The id of a process that has ended (started, waited for)."""
    p = subprocess.Popen(["true"])
    p.wait()
    return p.pid
