#!/usr/bin/env python3
"""What the ninth and tenth hostile passes left as found on the programs and
the Python package (issue #29, docs/status.md), each a check that failed
before its fix.

    tests/reliability/leftovers11_io_test.py NSMC BALL_SIM FIO_SIM SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  outputs     two outputs of one run onto one FIFO, /dev/stdout, /dev/fd/1 or
              the terminal (and '-' with them) are refused as one file, exit 1,
              nothing written (only '-' was compared); outputs may still share
              /dev/null.
  dangling    a symbolic link to nothing as any output (--out CSV and HDF5,
              --events, --stats, --section-out, --lyapunov-out) is refused
              before anything is written, no file made where it points (CSV
              and --stats were written through it, HDF5 and --lyapunov-out
              refused); a link to an existing file is written through.
  gnuplot     SIGTERM while gnuplot draws (a gnuplot on PATH that draws half a
              figure, then takes 30 s): the simulator, nsmc run, nsmc sweep and
              nsmc continue end within 3 s with 128 + 15, gnuplot killed, no
              half figure and no temporary left (they waited for gnuplot).
  names       names longer than 127 characters through nsmc sweep's --param
              and --set (refused, naming the limit), and longer than 63 through
              nsmc run's figures (a moving surface of a long-named gap on a
              long-named body was not drawn, its note naming cut names).
  tolerances  Python: rtol/atol with a method that does not read them refused
              as SettingError naming it (taken without a word); nsmc sweep
              refuses --rtol before the grid.
  texts       Python: t_end and the other numbers given as texts are taken as
              the command line takes them ('1_0', 'infinity', ' 1 ', full-width
              digits were taken); nsm.Model(3) and other wrong arguments are a
              CompileError (a bare TypeError).
  loadcheck   Python: an object whose loading ends the interpreter (a
              constructor that exits; CC="cc -fsanitize=address") is a
              CompileError naming the child's first line (the interpreter
              ended), tried once per build, not per load from the cache.
  interrupt   Python: _thread.interrupt_main() (no signal) stops run() and
              section() within a second, nsm.Interrupted with the partial
              result (they ran to their end, then a bare KeyboardInterrupt).
  contnote    nsmc continue after an earlier stopped one says once where the
              earlier points are kept (the same note came twice).
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import os
import pty
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import (SANITIZED, Failure, alive, check, env_for, main,  # noqa: E402
                     python_script, run, whole_lines)

NSMC = os.path.abspath(sys.argv[1])
BALL = os.path.abspath(sys.argv[2])
FIO_SIM = os.path.abspath(sys.argv[3])
SRC = os.path.abspath(sys.argv[4])
MODELS = os.path.join(SRC, "models")
FIO = os.path.join(MODELS, "forced_impact_oscillator.nsm")
SLOW = 3 if SANITIZED else 1


# ---- outputs ----------------------------------------------------------------

def same_file(p, what):
    """The same-file refusal: exit 1, the message of the other cases."""
    print("  %-44s exit %d: %s" % (what, p.returncode, p.stderr.strip().splitlines()[:1]))
    check(p.returncode == 1 and "name the same file: each output needs its own" in p.stderr,
          "%s: refused as one file (exit 1)" % what, p)


def case_outputs(tmp):
    """Two outputs onto one FIFO, stdout or the terminal: refused."""
    fifo = os.path.join(tmp, "f")
    os.mkfifo(fifo)
    # a reader, so that a run that opened the FIFO would not wait for one
    reader = subprocess.Popen(["sh", "-c", "while :; do cat f; done"], cwd=tmp,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              start_new_session=True)
    try:
        for args in (["--out", "f", "--events", "f"], ["--events", "f", "--stats", "f"],
                     ["--out", "f", "--section", "impact:floor", "--section-out", "f"]):
            same_file(run(tmp, [BALL, "--t-end", "1"] + args, timeout=20 * SLOW),
                      "FIFO: " + " ".join(args))
    finally:
        os.killpg(reader.pid, signal.SIGKILL)
        reader.wait()
    for args in (["--out", "-", "--events", "/dev/stdout"], ["--out", "/dev/fd/1", "--events", "-"],
                 ["--out", "/dev/stdout", "--stats", "/dev/fd/1"],
                 ["--events", "-", "--stats", "/proc/self/fd/1"]):
        same_file(run(tmp, [BALL, "--t-end", "1"] + args), "stdout a pipe: " + " ".join(args))
    # the terminal: stdout a pseudo-terminal, another output naming it
    master, slave = pty.openpty()
    try:
        tty = os.ttyname(slave)
        for args in (["--out", "-", "--events", tty], ["--out", tty, "--events", tty]):
            p = subprocess.run([BALL, "--t-end", "1"] + args, cwd=tmp, stdout=slave,
                               stderr=subprocess.PIPE, text=True, timeout=20 * SLOW)
            same_file(p, "stdout the terminal: " + " ".join(args).replace(tty, "TTY"))
    finally:
        os.close(master)
        os.close(slave)
    p = run(tmp, [BALL, "--t-end", "1", "--out", "/dev/null", "--events", "/dev/null",
                  "--stats", "/dev/null"])
    check(p.returncode == 0, "outputs may share /dev/null", p)
    p = subprocess.run([BALL, "--t-end", "1", "--out", "-", "--events", "/dev/null"], cwd=tmp,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=60)
    check(p.returncode == 0, "'-' onto /dev/null beside --events /dev/null", p)
    p = run(tmp, [BALL, "--t-end", "1", "--out", "a.csv", "--events", "-"])
    check(p.returncode == 0 and whole_lines(os.path.join(tmp, "a.csv")) > 10,
          "a file and stdout (a pipe): two files, written", p)
    print("ok: one FIFO, stdout or terminal refused for two outputs; /dev/null shared")


# ---- dangling ---------------------------------------------------------------

def case_dangling(tmp):
    """A link to nothing as every output: refused, nothing made."""
    outs = (("--out", "l.csv", []), ("--events", "l.csv", []), ("--stats", "l.csv", []),
            ("--section-out", "l.csv", ["--section", "impact:floor"]),
            ("--out", "l.h5", []), ("--lyapunov-out", "l.csv", ["--lyapunov"]))
    for opt, link, extra in outs:
        target = "made" + os.path.splitext(link)[1]
        os.symlink(target, os.path.join(tmp, link))
        p = run(tmp, [BALL, "--t-end", "2", opt, link] + extra)
        print("  %-15s -> %-8s exit %d: %s" % (opt, target, p.returncode,
                                              p.stderr.strip().splitlines()[:1]))
        check(p.returncode == 1 and "symbolic link" in p.stderr and
              not os.path.exists(os.path.join(tmp, target)) and
              os.path.islink(os.path.join(tmp, link)),
              "%s onto a link to nothing: refused (exit 1), no file made where it points, "
              "the link kept" % opt, p)
        os.unlink(os.path.join(tmp, link))
    # a link to a file that exists is written through, the link kept
    for opt, extra in (("--out", []), ("--events", []), ("--stats", [])):
        with open(os.path.join(tmp, "there.csv"), "w") as f:
            f.write("old\n")
        os.symlink("there.csv", os.path.join(tmp, "l.csv"))
        p = run(tmp, [BALL, "--t-end", "2", opt, "l.csv"] + extra)
        check(p.returncode == 0 and os.path.islink(os.path.join(tmp, "l.csv")) and
              open(os.path.join(tmp, "there.csv")).read() != "old\n",
              "%s onto a link to a file: written through, the link kept" % opt, p)
        os.unlink(os.path.join(tmp, "l.csv"))
    print("ok: a link to nothing refused for every output, a link to a file written through")


# ---- gnuplot ----------------------------------------------------------------

FAKE_GNUPLOT = r"""#!/bin/sh
# gnuplot that draws half a figure into the temporary its parent named, then takes its time
f=$(printf '%s' "$2" | sed -n "s/.*png='\([^']*\)'.*/\1/p")
[ -n "$f" ] || f="plot.png$(printf '%s' "$2" | sed -n "s/.*suffix='\([^']*\)'.*/\1/p")"
printf '\211PNG half' > "$f"
echo $$ > gnuplot.pid
exec sleep 30
"""


def stopped_drawing(tmp, label, cmd, folder, figure):
    """Runs cmd with the slow gnuplot first on PATH, SIGTERM once it draws;
    checks the exit, the time, gnuplot gone and no half figure."""
    d = os.path.join(tmp, folder)
    env = env_for(tmp)
    env["PATH"] = os.path.join(tmp, "bin") + os.pathsep + env["PATH"]
    proc = subprocess.Popen(cmd, cwd=tmp, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    pidfile = os.path.join(d, "gnuplot.pid")
    limit = time.time() + 120 * SLOW
    while not os.path.exists(pidfile) and proc.poll() is None and time.time() < limit:
        time.sleep(0.01)
    time.sleep(0.3)
    check(proc.poll() is None, "%s: reaches gnuplot" % label)
    gnuplot = int(open(pidfile).read())
    t0 = time.time()
    proc.send_signal(signal.SIGTERM)
    try:
        _, err = proc.communicate(timeout=25)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise Failure("%s: still running 25 s after SIGTERM (it waited for gnuplot)" % label)
    took = time.time() - t0
    left = sorted(f for f in os.listdir(d) if ".png" in f or ".svg" in f)
    print("  %-14s exit %d %.2f s after SIGTERM, figures left %s: %s"
          % (label, proc.returncode, took, left, err.strip().splitlines()[-1:]))
    check(proc.returncode in (143, -15) and took < 3,
          "%s: stopped within 3 s, exit 143 (took %.1f s, exit %d)" % (label, took,
                                                                         proc.returncode))
    time.sleep(0.2)
    check(not alive(gnuplot), "%s: gnuplot killed (it drew on)" % label)
    check(not left, "%s: no half figure and no temporary left (%s)" % (label, left))
    check(not os.path.exists(os.path.join(d, figure)), "%s: no %s" % (label, figure))


def case_gnuplot(tmp):
    """SIGTERM while gnuplot draws, for every program that draws."""
    os.mkdir(os.path.join(tmp, "bin"))
    fake = os.path.join(tmp, "bin", "gnuplot")
    with open(fake, "w") as f:
        f.write(FAKE_GNUPLOT)
    os.chmod(fake, 0o755)
    stopped_drawing(tmp, "simulator", [FIO_SIM, "--t-end", "10", "--plot", "s"], "s", "plot.png")
    stopped_drawing(tmp, "nsmc run", [NSMC, "run", FIO, "--t-end", "10", "--out-dir", "r"], "r",
                    "plot.png")
    stopped_drawing(tmp, "nsmc sweep", [NSMC, "sweep", FIO, "--section", "impact:stop",
                                        "--transient", "2", "--record", "2", "--param",
                                        "omega=1:2:3", "--out-dir", "w"], "w", "bifurcation.png")
    check(whole_lines(os.path.join(tmp, "w", "summary.csv")) == 3,
          "nsmc sweep: its results whole")
    stopped_drawing(tmp, "nsmc continue", [NSMC, "continue", FIO, "--param", "omega=2.5:2.6",
                                           "--max-points", "3", "--out-dir", "c", "-q"], "c",
                    "continuation.png")
    print("ok: every program stops at once while gnuplot draws, no half figure")


# ---- names ------------------------------------------------------------------

LONG_SURFACE = """model longsurf "A ball on a shaking table, with long names"
param g = 9.81 m/s^2
mass {B} = 1 kg
gravity g
gap {F}: {B}.x >= 0.1 m*sin(10 rad/s*t), impact(e = 0.5)
init {B}.x = 1 m
simulate t_end = 1 s, dt = 1 ms, method = rk4
output every 10 ms: {B}.x, {F}.gap
"""


def case_names(tmp):
    """Names of 200 characters through nsmc sweep, of 100 through nsmc run's figures."""
    name = "omega_" + "w" * 194
    other = "zeta_" + "z" * 195
    text = open(FIO).read().replace("omega", name).replace("zeta", other)
    with open(os.path.join(tmp, "long.nsm"), "w") as f:
        f.write(text)
    p = run(tmp, [NSMC, "sweep", "long.nsm", "--section", "impact:stop", "--transient", "2",
                  "--record", "2", "--param", name + "=1:2:3", "--set", other + "=0.04",
                  "--out-dir", "w", "--plot", "M.v"], timeout=300 * SLOW)
    print("  sweep of a %d-character parameter, --set of a %d-character one: exit %d %s"
          % (len(name), len(other), p.returncode, p.stderr.strip().splitlines()[-1:]))
    check(p.returncode == 0, "nsmc sweep takes parameter names of any length (refused above "
          "127 characters)", p)
    head = open(os.path.join(tmp, "w", "summary.csv")).readline()
    check(head.startswith(name + " [rad/s],"), "summary.csv heads the axis by its whole name: %r"
          % head[:80])
    check(name in open(os.path.join(tmp, "w", "bifurcation.gp")).read(),
          "the diagram's axis names it whole")
    p = run(tmp, [NSMC, "sweep", "long.nsm", "--section", "impact:stop", "--param",
                  name + "=1:2:3", "--set", other + "_x=1", "--out-dir", "w2"])
    check(p.returncode == 1 and ("unknown parameter '%s_x'" % other) in p.stderr,
          "an unknown long --set name is named whole", p)
    b, g = "B" * 100, "F" * 100
    with open(os.path.join(tmp, "surf.nsm"), "w") as f:
        f.write(LONG_SURFACE.format(B=b, F=g))
    p = run(tmp, [NSMC, "run", "surf.nsm", "--out-dir", "r", "-q"], timeout=300 * SLOW)
    check(p.returncode == 0, "nsmc run of the long-named shaking table", p)
    gp = open(os.path.join(tmp, "r", "plot.gp")).read()
    print("  nsmc run, gap and body of 100 characters: surface drawn %s, note %r"
          % ("(surface)" in gp, [ln for ln in p.stdout.splitlines() if "surface" in ln][:1]))
    check("%s (surface)" % g in gp and "moving surface" not in p.stdout,
          "the moving surface of a 100-character gap on a 100-character body drawn and named "
          "whole (names were cut at 63, the surface left out with a note)", p)
    print("ok: names of any length")


# ---- Python -----------------------------------------------------------------

PY_TOLERANCES = r'''
import sys
import nsm
M = sys.argv[1] + "/"
m = nsm.compile(M + "forced_impact_oscillator.nsm")      # exact by default
d = nsm.compile(M + "duffing_stop.nsm")
for model, method, kw in ((m, "rk4", dict(rtol=1e-6)), (m, "exact", dict(atol=1e-9)),
                          (m, None, dict(rtol=1e-6, atol=0.0)), (d, "taylor", dict(rtol=1e-3))):
    try:
        model.run(t_end=1, method=method, **kw)
        raise AssertionError("%s %s: taken without a word" % (method, kw))
    except nsm.SettingError as e:
        said = str(e)
        print(method, kw, "->", said)
        meth = method or model.defaults["method"]
        assert "adaptive" in said and (meth + " does not use") in said, said
        assert all(k in said for k in kw), said
r = m.run(t_end=1, method="adaptive", rtol=1e-6, atol=1e-9)
assert r.t_reached == 1
print("ok: refused naming the method; adaptive takes them")
'''


def case_tolerances(tmp):
    python_script(tmp, "tolerances.py", PY_TOLERANCES, [MODELS],
                  "python: rtol/atol refused with a method that does not read them")
    p = run(tmp, [NSMC, "sweep", FIO, "--section", "impact:stop", "--param", "omega=1:2:3",
                  "--out-dir", "w", "--method", "rk4", "--rtol", "1e-3"], timeout=300 * SLOW)
    check(p.returncode == 1 and "--rtol" in p.stderr and not os.path.exists(
        os.path.join(tmp, "w")), "nsmc sweep --rtol: refused before the grid, nothing made", p)
    print("ok: nsmc sweep refuses --rtol before the grid")


PY_TEXTS = r'''
import sys
import nsm
m = nsm.compile(sys.argv[1] + "/two_mass.nsm")
for bad in ("1_0", "infinity", "inf", "nan", " 1 ", "1 ", "\uff11\uff10", "0x10", "1e", "",
            b"1_0", "\u0661"):
    said = []
    for kw in ("t_end", "every", "dt", "max_steps"):
        try:
            m.run(**{kw: bad, "t_end": 1} if kw != "t_end" else {kw: bad})
            raise AssertionError("%s=%r taken" % (kw, bad))
        except nsm.SettingError as e:
            said.append(str(e))
    if isinstance(bad, str) and bad.strip() == "1":
        # params= reads a text as --set does, and --set takes blanks
        # around a number: the same value as 1.
        r1 = m.run(t_end=1, params={"e": bad})
        r2 = m.run(t_end=1, params={"e": 1.0})
        assert (r1.state == r2.state).all(), "params e=%r is not e = 1" % (bad,)
        print("taken as --set takes it:", repr(bad))
        continue
    try:
        m.run(t_end=1, params={"e": bad})
        raise AssertionError("params e=%r taken" % (bad,))
    except nsm.ParameterError as e:
        said.append(str(e))
    print("refused:", repr(bad), "->", said[0])
fio = nsm.compile(sys.argv[1] + "/forced_impact_oscillator.nsm")
try:
    fio.sweep("omega", ["2_5"], "impact:stop", transient=2, record=2)
    raise AssertionError("sweep value '2_5' taken")
except nsm.ParameterError as e:
    print("sweep '2_5' ->", e)
p, _ = fio.sweep("omega", ["2.5", 3], "impact:stop", transient=2, record=2)
assert sorted(set(p)) == [2.5, 3.0], p
for good, want in (("2", 2.0), (" 2", 2.0), ("+2.", 2.0), (".5e1", 5.0), (b"2", 2.0)):
    r = m.run(t_end=good)
    assert r.t_reached == want, (good, r.t_reached)
    print("taken:", repr(good), r.t_reached)
for args, kwargs in (((3,), {}), ((), {}), ((None,), {}), (("x.so", 2), {}),
                     ((), {"path": "x.so"}), ((1.5,), {}), (("",), {}), (("a\0b",), {})):
    try:
        nsm.Model(*args, **kwargs)
        raise AssertionError("Model%r%r built" % (args, kwargs))
    except nsm.CompileError as e:
        assert str(e), (args, kwargs)
        print("Model", args, kwargs, "->", str(e)[:70])
print("ok: texts as the command line takes them, wrong Model arguments a CompileError")
'''


def case_texts(tmp):
    python_script(tmp, "texts.py", PY_TEXTS, [MODELS],
                  "python: number texts and Model's arguments")


PY_LOADCHECK = r'''
import os, sys
import nsm
tmp, models, sanitized = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
src = open(models + "/two_mass.nsm").read()
# a compiler that adds a constructor ending the process as ASan's start-up does
cc = os.path.join(tmp, "cc-boom")
with open(os.path.join(tmp, "boom.c"), "w") as f:
    f.write('#include <stdio.h>\n#include <unistd.h>\n__attribute__((constructor)) static void '
            'boom(void) { fputs("boom: this object cannot start\\n", stderr); _exit(1); }\n')
with open(cc, "w") as f:
    f.write('#!/bin/sh\nexec cc "$@" %s/boom.c\n' % tmp)
os.chmod(cc, 0o755)
trials = []
real_trial = getattr(nsm, "_load_trial", None)     # before the fix the boom ended Python
if real_trial:
    nsm._load_trial = lambda so: trials.append(so) or real_trial(so)
os.environ["CC"] = cc
try:
    nsm.compile_source(src + "\n# boom\n")
    raise AssertionError("built and loaded (the interpreter would have ended)")
except nsm.CompileError as e:
    print("boom ->", e)
    assert "boom: this object cannot start" in str(e), e
assert len(trials) == 1, trials
assert not [f for f in os.listdir(os.path.dirname(trials[0])) if f.endswith(".so")], \
    "the object that cannot load is not in the cache"
if not sanitized:      # under the sanitizers ASan's runtime is preloaded: such an object loads
    os.environ["CC"] = "cc -fsanitize=address"
    try:
        nsm.compile_source(src + "\n# asan\n")
        raise AssertionError("an ASan object loaded")
    except nsm.CompileError as e:
        print("asan ->", e)
        assert "ASan runtime does not come first" in str(e), e
os.environ.pop("CC")
m = nsm.compile_source(src)
m = nsm.compile_source(src)
assert len(trials) == (2 if not sanitized else 1) + 1, trials
assert len(m.run(t_end=1).t) == 101
print("ok: tried in a child once per build (%d trials), not per load from the cache" % len(trials))
'''


def case_loadcheck(tmp):
    python_script(tmp, "loadcheck.py", PY_LOADCHECK, [tmp, MODELS, "1" if SANITIZED else "0"],
                  "python: an object whose loading ends the interpreter is a CompileError")


PY_INTERRUPT = r'''
import _thread, sys, threading, time
import numpy as np
import nsm
M = sys.argv[1] + "/"
m = nsm.compile(M + "two_mass.nsm")
fio = nsm.compile(M + "forced_impact_oscillator.nsm")
ref = m.run(t_end=5, method="exact", every=1)
for what, call, delay in (
        ("run", lambda: m.run(t_end=2000, method="exact", every=1), 0.3),
        ("run", lambda: m.run(t_end=2000, method="exact", every=1), 0.05),
        ("section", lambda: fio.section("impact:stop", t_end=1e7), 0.5)):
    threading.Timer(delay, _thread.interrupt_main).start()
    t0 = time.time()
    try:
        call()
        raise AssertionError("%s ran to its end" % what)
    except nsm.Interrupted as e:
        took = time.time() - t0 - delay
        print("%s: nsm.Interrupted %.2f s after interrupt_main, at t = %g" % (what, took, e.t))
        assert took < 1.0, took
        if what == "run":
            n = min(len(e.result.t), len(ref.t))
            assert n >= 1 and np.array_equal(e.result.x[:n], ref.x[:n]), "partial result"
    time.sleep(0.1)
r = m.run(t_end=1)
assert len(r.t) == 101
print("ok: a KeyboardInterrupt without a signal stops the run within a second")
'''


def case_interrupt(tmp):
    python_script(tmp, "interrupt.py", PY_INTERRUPT, [MODELS],
                  "python: _thread.interrupt_main() stops a run")


# ---- contnote ---------------------------------------------------------------

def case_contnote(tmp):
    """A continuation run to its end after an earlier stopped one: one note."""
    d = os.path.join(tmp, "c")
    os.mkdir(d)
    with open(os.path.join(d, "branch.csv.partial"), "w") as f:
        f.write("omega,point\n2.5,regular\n")
    cmd = [NSMC, "continue", FIO, "--param", "omega=2.5:2.6", "--no-plot", "-q", "--out-dir",
           "c", "--max-points", "3"]
    p = run(tmp, cmd, timeout=300 * SLOW)
    notes = [ln for ln in p.stderr.splitlines() if "earlier continuation" in ln]
    print("  exit %d, notes: %s" % (p.returncode, notes))
    check(p.returncode == 0 and len(notes) == 1 and "branch.csv.partial.prev" in notes[0],
          "one note saying where the earlier points are kept (it came twice)", p)
    p = run(tmp, cmd, timeout=300 * SLOW)
    notes = [ln for ln in p.stderr.splitlines() if "earlier continuation" in ln]
    check(p.returncode == 0 and len(notes) == 1 and "branch.csv.partial.prev" in notes[0],
          "run again: the .prev still there said once", p)
    print("ok: said once")


if __name__ == "__main__":
    sys.exit(main({"outputs": case_outputs, "dangling": case_dangling, "gnuplot": case_gnuplot,
                   "names": case_names, "tolerances": case_tolerances, "texts": case_texts,
                   "loadcheck": case_loadcheck, "interrupt": case_interrupt,
                   "contnote": case_contnote}, "nsm-left11io-", case_arg=5))
