#!/usr/bin/env python3
"""Review leftovers of issue #29, each a check that failed before its fix.

    tests/reliability/leftovers27_test.py NSMC SIM_BOUNCING_BALL SOURCE_DIR CASE

Cases (each under 20 s in the normal build):
  stdoutcsv  nsmc run with a simulator output on standard output (--section
             and its default stdout, --section-out -, --stats -,
             --lyapunov-out -) printed its own report ("events: ...",
             "results: ...") on stdout after the CSV, rows of text in the
             data.  Now the report goes to stderr then, as the simulator's
             --summary does: stdout is the CSV alone (parsed whole; the
             ball's impacts at sqrt(2h/g) and after 2 e v/g each) and the
             report is on stderr; a run with no output on stdout still
             reports on stdout.
  lyapevery  a Lyapunov run under --every 0: each reorthonormalisation
             interval's steps ended one ulp short of its end, fl(t + T),
             then took a step of one ulp, a row of its own (0.63 and
             0.6300000000000001 s).  Now a step that ends within a few
             roundings of its target lands there: a damped oscillator's
             rows (rk4, adaptive, exact) are one a step, dt apart, each
             against the closed form, and its exponents sum to -c/m.
  oddset     a gap's exponent of the parameters made odd at run time
             (l*P.phi^nn with nn = 2 in the model, --set nn=3) ran a gap
             that changes sign with zero slope, which no impulse acts
             along, while nsmc refuses such a power written.  Now setup
             refuses it, exit 1 and no output, naming the gap, the
             exponent and its parameter; the exponents allowed still run
             (the first power's impact at the closed form's time).
  fnunder    exp(-1000) (any function whose value underflows to 0 at a
             nonzero value) in a parameter, a spring or an initial value
             compiled as 0, while a product, quotient or power that
             underflows is refused.  Now refused with the same message,
             "number out of range", at the call with its line and a caret;
             exact zeros (log(1), sin(0)) and values that do not underflow
             compile, and the ball let go from exp(-1) m lands at
             sqrt(2 e^-1 / g).
  jobs       `nsmc sweep --jobs 1000` on a 4-point sweep said "1000 jobs"
             and ran 4 threads (the others found no point).  Now the
             threads are no more than the units and the summary says the
             number used: "4 points, 4 jobs"; --jobs 2 says 2, a
             continuation (one unit) says "1 job"; the section is the same
             byte for byte whatever --jobs.
  pyunits    Python's sweep values and continuation ends given as texts
             with a unit were refused ("values must be numbers", "start
             must be a number"), '2.5 rad/s' as '2.5 1/s', while
             nsmc sweep --param takes the first and --set calls the second
             an unknown unit.  Now they are read as --set reads them (as
             params= is): the same message word for word, and the values
             with units swept (the ball's x(0.2 s) = h - g t^2/2 for
             g = '981 cm/s^2' and '2 m/s^2'); a continuation from
             '2.5 rad/s' starts at 2.5.
  manyexp   a gap with more than four powers whose exponents are
             parameters: setup checked only four, so --set n1=3 on the
             first went unchecked and held a pendulum on a flat zero, exit
             0.  Now nsmc refuses such a gap with a caret; four still run
             and --set n1=3 is refused at setup.
  afterrun   a stop signal just after the simulator had run ended nsmc
             run by the signal's own action, its out-dir's lock left; now
             128 + N and no lock.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import csv
import io
import math
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import check, compiled, main, run  # noqa: E402

NSMC = os.path.abspath(sys.argv[1])
SIM = os.path.abspath(sys.argv[2])
SRC = os.path.abspath(sys.argv[3])
BALL = os.path.join(SRC, "models", "bouncing_ball.nsm")
FIO = os.path.join(SRC, "models", "forced_impact_oscillator.nsm")
G, E, H = 9.81, 0.9, 1.0      # the ball's gravity, restitution and height


def last(p):
    """The last line of p's standard error, for the printed outcome."""
    lines = p.stderr.strip().splitlines()
    return lines[-1][:200] if lines else ""


def csv_rows(text, words=0):
    """The rows of a CSV text after its header, every field but the first
    `words` a number (a line of text among them fails the case); (header,
    rows)."""
    lines = list(csv.reader(io.StringIO(text)))
    check(len(lines) >= 2, "a header and rows on stdout (%d lines)" % len(lines))
    rows = [r[:words] + [float(x) for x in r[words:]] for r in lines[1:]]
    check(all(len(r) == len(lines[0]) for r in rows),
          "every row of stdout has the header's %d fields" % len(lines[0]))
    return lines[0], rows


def ball_impacts(n):
    """The ball's first n impact times, closed form: the fall of sqrt(2h/g),
    then flights of 2 v/g with v cut by e at each impact."""
    t, v, out = math.sqrt(2 * H / G), math.sqrt(2 * G * H), []
    for _ in range(n):
        out.append(t)
        v *= E
        t += 2 * v / G
    return out


def report_on(p, stream):
    """Whether nsmc run's report is in the text of stream ("out"/"err")."""
    text = p.stdout if stream == "out" else p.stderr
    return "events: " in text and "results: " in text


def case_stdoutcsv(tmp):
    out = os.path.join(tmp, "o")
    runs = [
        ("-- --section impact:floor", ["--", "--section", "impact:floor", "--t-end", "3"], 1),
        ("-- --section impact:floor --section-out -",
         ["--", "--section", "impact:floor", "--section-out", "-", "--t-end", "3"], 1),
        ("--section=impact:floor (before --)", ["--section=impact:floor", "--t-end", "3"], 1),
        ("--stats -", ["--stats", "-", "--t-end", "3"], 0),
        ("-- --stats=-", ["--", "--stats=-", "--t-end", "3"], 0),
    ]
    for label, extra, impacts in runs:
        p = run(tmp, [NSMC, "run", BALL, "--out-dir", out, "--no-plot"] + extra)
        print("  nsmc run ball %s -> %d, stdout %d lines, stderr: %s"
              % (label, p.returncode, len(p.stdout.splitlines()), last(p)))
        check(p.returncode == 0, "%s: exit 0" % label, p)
        check(not report_on(p, "out") and report_on(p, "err"),
              "%s: the report on stderr, not stdout" % label, p)
        head, rows = csv_rows(p.stdout, 0 if impacts else 2)
        if impacts:
            ref = [t for t in ball_impacts(20) if t < 3]
            got = [r[0] for r in rows]
            print("    impacts %s, closed form %s" % (got, ref))
            check(len(got) == len(ref) and all(abs(a - b) < 1e-9 for a, b in zip(got, ref)),
                  "%s: the %d impacts at the closed form's times" % (label, len(ref)))
        else:
            n = sum(1 for t in ball_impacts(20) if t < 3)
            print("    %s, closed form %d impacts" % (rows, n))
            check(head[:3] == ["contact", "law", "impacts"] and len(rows) == 1 and
                  rows[0][2] == n, "%s: the floor's %d impacts in 3 s" % (label, n))
    p = run(tmp, [NSMC, "run", FIO, "--out-dir", out, "--no-plot", "--", "--lyapunov",
                  "--lyapunov-out", "-", "--t-end", "30"])
    print("  nsmc run fio -- --lyapunov --lyapunov-out - -> %d, stdout %r"
          % (p.returncode, p.stdout[-200:]))
    check(p.returncode == 0 and report_on(p, "err") and not report_on(p, "out"),
          "--lyapunov-out -: the report on stderr", p)
    head, rows = csv_rows(p.stdout)
    check(head[0] == "exponent" and len(rows) == 2, "stdout is the two exponents alone")
    p = run(tmp, [NSMC, "run", BALL, "--out-dir", out, "--no-plot", "--", "--t-end", "3"])
    print("  nsmc run ball (no output on stdout) -> %d, stdout %r"
          % (p.returncode, p.stdout[-120:]))
    check(p.returncode == 0 and report_on(p, "out"), "no CSV on stdout: the report there", p)


OSC = """model osc "A damped oscillator"
param m = 1 kg
param k = 4 N/m
param c = 0.2 N*s/m
mass M = m
spring ground -- M, k = k, c = c
init M.x = 1 m, M.v = 0 m/s
simulate t_end = 2 s, dt = 1 ms, method = rk4
output every 10 ms: M.x
"""


def osc_x(t, m=1.0, k=4.0, c=0.2):
    """The damped oscillator's position from x = 1 m at rest, closed form:
    e^(-a t) (cos(w t) + a/w sin(w t)), a = c/2m, w = sqrt(k/m - a^2)."""
    a = c / (2 * m)
    w = math.sqrt(k / m - a * a)
    return math.exp(-a * t) * (math.cos(w * t) + a / w * math.sin(w * t))


def case_lyapevery(tmp):
    model = os.path.join(tmp, "osc.nsm")
    with open(model, "w") as f:
        f.write(OSC)
    out = os.path.join(tmp, "o")
    for meth in ("rk4", "adaptive", "exact"):
        for interval in ("0.07", "0.1"):
            p = run(tmp, [NSMC, "run", model, "--out-dir", out, "--no-plot", "-q", "--",
                          "--lyapunov", "--every", "0", "--lyapunov-interval", interval,
                          "--method", meth, "--t-end", "2"])
            label = "--method %s --lyapunov --every 0 --lyapunov-interval %s" % (meth, interval)
            check(p.returncode == 0, "%s: exit 0" % label, p)
            with open(os.path.join(out, "trajectory.csv")) as f:
                rows = [[float(x) for x in r] for r in list(csv.reader(f))[1:]]
            t = [r[0] for r in rows]
            gaps = [b - a for a, b in zip(t, t[1:])]
            worst = max(abs(r[1] - osc_x(r[0])) for r in rows)
            lam = [float(r.split(",")[1]) for r in p.stdout.splitlines()[1:]]
            print("  %s -> %d rows, closest two %.3g s apart, worst |x - closed form| %.3g m, "
                  "exponents %s" % (label, len(rows), min(gaps), worst, lam))
            check(len(rows) == 2001 and min(gaps) > 1e-3 * (1 - 1e-9),
                  "%s: one row a step, none an ulp after another" % label)
            check(all(abs(x - 1e-3 * i) <= 1e-12 for i, x in enumerate(t)),
                  "%s: the rows at k dt" % label)
            check(worst < 1e-8, "%s: x against the closed form" % label)
            check(len(lam) == 2 and abs(sum(lam) + 0.2) < 1e-9,
                  "%s: the exponents sum to -c/m = -0.2 1/s" % label)


PZ = """model pz "a pendulum against a wall"
param m = 1 kg
param l = 1 m
param g = 9.81 m/s^2
param e = 0.8
param nn = NN
body P: mass = m, inertia = m*l^2
force gt: on P.phi = -m*g*l*sin(P.phi)
gap wall: GAP, impact(e = e)
init P.phi = 1, P.omega = 0 rad/s
simulate t_end = 1 s, dt = 1 ms, method = rk4
output every 10 ms: P.phi, P.omega
"""


def ell_f(psi, k):
    """The incomplete elliptic integral F(psi, k) by Simpson's rule (2000
    intervals: the integrand is smooth for k < 1)."""
    n, h = 2000, psi / 2000
    f = [1 / math.sqrt(1 - (k * math.sin(i * h)) ** 2) for i in range(n + 1)]
    return h / 3 * (f[0] + f[-1] + 4 * sum(f[1:-1:2]) + 2 * sum(f[2:-1:2]))


def case_oddset(tmp):
    out = os.path.join(tmp, "o")
    # the pendulum let go at 1 rad meets the wall at phi = 0.5 after
    # (K(k) - F(asin(sin(0.25)/k), k)) / sqrt(g/l), k = sin(0.5)
    k = math.sin(0.5)
    t1 = (ell_f(math.pi / 2, k) - ell_f(math.asin(math.sin(0.25) / k), k)) / math.sqrt(9.81)
    for gap, nn, shift, bad, good in (
            ("l*P.phi^nn >= 0 m", "2", 0, ("3", "5", "7"), ("2", "4")),
            ("l*(P.phi - 0.5)^nn >= 0 m", "1", 0, ("3",), ("1", "2")),
            ("l*(P.phi - 0.5)^(nn + 2) >= 0 m", "-1", 2, ("1", "3"), ("-1", "0"))):
        model = os.path.join(tmp, "pz.nsm")
        with open(model, "w") as f:
            f.write(PZ.replace("GAP", gap).replace("NN", nn))
        for v in bad + good:
            if os.path.isdir(out):
                shutil.rmtree(out)
            p = run(tmp, [NSMC, "run", model, "--out-dir", out, "--no-plot", "-q",
                          "--set", "nn=" + v])
            label = "gap %s (nn = %s in the model), --set nn=%s" % (gap, nn, v)
            print("  %s -> %d, %s" % (label, p.returncode, last(p)))
            if v in bad:
                msg = p.stderr
                check(p.returncode == 1 and "gap 'wall'" in msg and "(parameters nn)" in msg
                      and "odd power" in msg and "invalid value %d of the exponent" % (int(v) + shift) in msg,
                      "%s: refused naming the gap, the exponent and nn" % label, p)
                check(not os.path.exists(os.path.join(out, "trajectory.csv")),
                      "%s: no trajectory written" % label)
                continue
            check(p.returncode == 0, "%s: runs" % label, p)
            if "- 0.5)^nn " in gap and v == "1":
                with open(os.path.join(out, "events.csv")) as f:
                    ev = list(csv.reader(f))[1:]
                print("    first impact at %s s, closed form %.12g s" % (ev[0][0], t1))
                check(ev[0][1] == "impact" and abs(float(ev[0][0]) - t1) < 1e-8,
                      "%s: the impact at the closed form's time" % label)


UNDER = """model u "a ball"
param g = 9.81 m/s^2
param x0 = 600
param h = 1 m
mass B = 1 kg
gravity g
spring ground -- B, k = 0 N/m
gap floor: B.x >= 0, impact(e = 0.5)
init B.x = h
simulate t_end = 1 s, dt = 1 ms, method = rk4
"""


def nsmc_on(tmp, text):
    """nsmc on a model text (tmp/u.nsm -> tmp/u.c): (exit, stderr, whether
    u.c was made)."""
    src, out = os.path.join(tmp, "u.nsm"), os.path.join(tmp, "u.c")
    if os.path.exists(out):
        os.unlink(out)
    with open(src, "w") as f:
        f.write(text)
    p = run(tmp, [NSMC, src, "-o", out])
    return p.returncode, p.stderr, os.path.exists(out)


def case_fnunder(tmp):
    bad = [("param h = 1 m", "param h = 1 m * exp(-1000)", 4, 17, "exp(-1000)"),
           ("param h = 1 m", "param h = exp(-745.2) * 1 m", 4, 11, "exp(-745.2)"),
           ("param h = 1 m", "param h = exp(-2*x0) * 1 m", 4, 11, "exp(-2*x0)"),
           ("k = 0 N/m", "k = exp(-800) * 1 N/m", 7, 25, "exp(-800)"),
           ("init B.x = h", "init B.x = exp(-1e4) * 1 m", 9, 12, "exp(-1e4)")]
    for old, new, line, col, call in bad:
        rc, err, made = nsmc_on(tmp, UNDER.replace(old, new))
        first = err.splitlines()[0] if err else ""
        print("  %s -> exit %d, %s, output %s" % (new, rc, first, "made" if made else "none"))
        check(rc == 1 and not made and
              ("u.nsm:%d:%d: error: number out of range: this value of 'exp'" % (line, col))
              in first, "'%s': refused as below a double's range" % new)
        caret = [ln for ln in err.splitlines() if "^" in ln]
        check(caret and caret[0].count("~") == len(call) - 1 and new in err,
              "'%s': the line and a caret under %s" % (new, call))
    for old, new in (("param h = 1 m", "param h = 1 m * exp(-700)"),
                     ("param h = 1 m", "param h = 1 m + log(1) * 1 m + sin(0) * 1 m"),
                     ("param h = 1 m", "param h = sqrt(1e-320 m^2) + 1 m"),
                     ("param h = 1 m", "param h = 1 m * min(0, exp(-1)) + 1 m")):
        rc, err, made = nsmc_on(tmp, UNDER.replace(old, new))
        print("  %s -> exit %d, output %s" % (new, rc, "made" if made else "none"))
        check(rc == 0 and made, "'%s' compiles" % new, None)
    out = os.path.join(tmp, "o")
    with open(os.path.join(tmp, "u.nsm"), "w") as f:
        f.write(UNDER.replace("param h = 1 m", "param h = exp(-1) * 1 m"))
    p = run(tmp, [NSMC, "run", os.path.join(tmp, "u.nsm"), "--out-dir", out, "--no-plot", "-q"])
    with open(os.path.join(out, "events.csv")) as f:
        ev = list(csv.reader(f))[1:]
    ref = math.sqrt(2 * math.exp(-1) / G)
    print("  h = exp(-1) * 1 m -> exit %d, first impact at %s s, closed form %.12g s"
          % (p.returncode, ev[0][0] if ev else "none", ref))
    check(p.returncode == 0 and ev and abs(float(ev[0][0]) - ref) < 1e-9,
          "h = exp(-1) m: the impact at sqrt(2 h/g)", p)


def case_jobs(tmp):
    base = [NSMC, "sweep", FIO, "--param", "omega=2:3:4", "--section", "impact:stop",
            "--transient", "5", "--record", "5"]
    sections = set()
    for extra, said in ((["--jobs", "1000"], "4 points, 4 jobs;"),
                        (["--jobs", "2"], "4 points, 2 jobs;"),
                        (["--jobs", "1"], "4 points, 1 job;"),
                        (["--jobs", "8", "--continue", "up", "--section-period", "2*pi/omega"],
                         "4 points, 1 job;")):
        out = os.path.join(tmp, "s%d" % len(sections) + extra[1])
        p = run(tmp, base + extra + ["--out-dir", out])
        line = [ln for ln in p.stderr.splitlines() if " points, " in ln]
        print("  nsmc sweep fio omega=2:3:4 %s -> %d, %s" % (" ".join(extra), p.returncode,
                                                          line[-1] if line else last(p)))
        check(p.returncode == 0 and line and said in line[-1],
              "%s: the summary says '%s'" % (" ".join(extra), said), p)
        if "--continue" not in extra:
            with open(os.path.join(out, "section.csv"), "rb") as f:
                sections.add(f.read())
    check(len(sections) == 1, "the section is the same byte for byte for 1, 2 and 1000 jobs")


def case_pyunits(tmp):
    import numpy as np
    ball, fio = compiled(tmp, "ball", path=BALL), compiled(tmp, "fio", path=FIO)
    for name, text, call in (
            ("g", "2.5 x", lambda: ball.sweep("g", ["2.5 x"], "period:0.2", transient=0,
                                              record=1)),
            ("g", "2.5 x", lambda: ball.sweep("g", np.array(["9.81", "2.5 x"]), "period:0.2",
                                              transient=0, record=1)),
            ("g", "2.5 m", lambda: ball.sweep("g", [b"2.5 m"], "period:0.2", transient=0,
                                              record=1)),
            ("omega", "2.5 1/s", lambda: fio.continuation("omega", "2.5 1/s", 3, max_points=2)),
            ("omega", "2.5 1/s", lambda: fio.continuation("omega", 2.5, "2.5 1/s",
                                                          max_points=2))):
        model = BALL if name == "g" else FIO
        p = run(tmp, [NSMC, "run", model, "--out-dir", os.path.join(tmp, "o"), "--no-plot",
                      "-q", "--set", "%s=%s" % (name, text)])
        cli = (p.stderr.split(": error: ", 1)[-1].splitlines() or [""])[0]
        got = refusal(call) or "ran"
        print("  %s = %r -> %s\n    --set: %s" % (name, text, got, cli))
        said = "for parameter '%s': " % name
        check(p.returncode == 1 and cli.startswith("bad value") and said in got and
              got.split(said, 1)[1] == cli.split(said, 1)[1],
              "%s = %r: refused as --set refuses it, word for word" % (name, text))
    p, rec = ball.sweep("g", ["981 cm/s^2", "2 m/s^2"], "period:0.2", transient=1, record=1)
    want = [1 - g * 0.2 ** 2 / 2 for g in (9.81, 2.0)]
    print("  sweep g over '981 cm/s^2', '2 m/s^2' -> g %s, x(0.2 s) %s (closed form %s)"
          % (list(p), list(rec[:, 2]), want))
    check(np.allclose(p, [9.81, 2.0], rtol=1e-15, atol=0) and
          np.allclose(rec[:, 2], want, rtol=0, atol=1e-9),
          "values with units swept: x(0.2 s) = h - g t^2/2")
    b = fio.continuation("omega", "2.5 rad/s", "2.6 rad/s", max_points=2)
    first = float(np.asarray(b.param)[0]) if hasattr(b, "param") else None
    print("  continuation omega from '2.5 rad/s' to '2.6 rad/s' -> first point at %s" % first)
    check(first == 2.5, "a continuation from '2.5 rad/s' starts at 2.5")


def refusal(fn):
    """The message of the nsm.Error fn raises, None when it returns."""
    import nsm
    try:
        fn()
    except nsm.Error as ex:
        return str(ex)
    return None


def case_manyexp(tmp):
    """More powers with exponents of the parameters than setup checks: the
    fifth and later were dropped unchecked, and --set n1=3 on the first
    held the pendulum at phi = 0.5 with a 'stick', its energy gone, exit 0.
    Now nsmc refuses such a gap; four such powers still compile and the
    run refuses --set n1=3 on them."""
    factors = ["(P.phi - 0.5)^n1", "(P.phi - 12)^n2", "(P.phi - 13)^n3", "(P.phi - 14)^n4",
               "(P.phi - 15)^n5"]
    for n, refused in ((5, True), (4, False)):
        gap = "l*" + "*".join(factors[:n]) + " >= 0 m"
        text = PZ.replace("GAP", gap).replace("param nn = NN\n", "".join(
            "param n%d = 2\n" % (i + 1) for i in range(n)))
        model = os.path.join(tmp, "many%d.nsm" % n)
        with open(model, "w") as f:
            f.write(text)
        p = run(tmp, [NSMC, model, "-o", os.path.join(tmp, "many%d.c" % n)])
        print("  gap with %d powers of exponents n1..n%d -> %d, %s" % (n, n, p.returncode, last(p)))
        if refused:
            check(p.returncode == 1 and "more than 4 powers whose exponents" in p.stderr and
                  "many5.nsm:" in p.stderr and "^" in p.stderr and
                  not os.path.exists(os.path.join(tmp, "many5.c")),
                  "five powers with exponents of the parameters: refused with a caret, no C", p)
            continue
        check(p.returncode == 0, "four powers with exponents of the parameters compile", p)
        q = run(tmp, [NSMC, "run", model, "--out-dir", os.path.join(tmp, "o4"), "--no-plot",
                      "-q", "--set", "n1=3"])
        print("  four powers, --set n1=3 -> %d, %s" % (q.returncode, last(q)))
        check(q.returncode == 1 and "odd power" in q.stderr and "n1" in q.stderr,
              "four powers, --set n1=3: refused at setup naming n1", q)


def case_afterrun(tmp):
    """A stop signal in the moments after the simulator has run, before the
    figures: nsmc run had given the signals back their own action there,
    so SIGHUP ended it by the signal, leaving the out-dir's lock (12 of 80
    tries).  Now every try ends with 128 + N (or 0 when it came after the
    end) and no lock.  The signal is sent around the run's measured
    length, where the window is."""
    import random
    import signal
    import subprocess
    import time
    from passlib import env_for
    env = env_for(tmp)
    cmd = [NSMC, "run", BALL, "-q", "--out-dir", "D", "--", "--t-end", "1000"]
    for _ in range(2):      # the first compiles the model into the cache
        t0 = time.time()
        p = subprocess.run(cmd[:4] + ["--no-plot"] + cmd[4:], cwd=tmp, env=env,
                           capture_output=True)
        length = time.time() - t0
    check(p.returncode == 0, "the run alone: exit 0 (%.2f s)" % length)
    rng = random.Random(27)
    ends = {}
    for k in range(40):
        pr = subprocess.Popen(cmd, cwd=tmp, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE)
        time.sleep(length * rng.uniform(0.97, 1.25))
        pr.send_signal(signal.SIGHUP)
        pr.communicate(timeout=120)
        ends[pr.returncode] = ends.get(pr.returncode, 0) + 1
        lock = os.path.join(tmp, "D", ".nsm-run.lock")
        check(pr.returncode in (0, 128 + signal.SIGHUP) and not os.path.exists(lock),
              "SIGHUP try %d: exit %d, lock %s" % (k, pr.returncode,
                                                    "left" if os.path.exists(lock) else "gone"))
    print("ok: 40 SIGHUPs around the run's end: exits %s, no lock left" % ends)


if __name__ == "__main__":
    sys.exit(main({"stdoutcsv": case_stdoutcsv, "lyapevery": case_lyapevery,
                   "oddset": case_oddset, "fnunder": case_fnunder,
                   "jobs": case_jobs,
                   "pyunits": case_pyunits, "manyexp": case_manyexp,
                   "afterrun": case_afterrun}, "left27",
                  case_arg=4))
