#!/usr/bin/env python3
"""A seventh hostile pass over the compiler and the command-line front ends:
every construct of the `.nsm` language with odd numerals, constants that
under- or overflow or are undefined, deep expressions, unicode, CRLF, tabs,
empty and duplicate declarations, names that collide with C keywords and
runtime symbols; nsmc's options (-o to odd places, --emit, run, sweep,
continue, basins); the simulators' numeric options at 0, below 0, 1e-300,
1e300, nan, inf, hex floats and trailing garbage; `--set` on every
parameter of the friction, nonlinear, energy-written and rigid models.

    tests/reliability/seventh_pass_test.py NSMC SIM FIO_SIM SOURCE_DIR CASE SIMS_DIR

Cases (each under 20 s in the normal build):
  findings   what the pass found, each failing before its fix: `nsmc continue
             --period 1e-300` (or 1e-12, far below the model's time scale)
             ran the transient and failed, exit 3, "no tangent", after making
             its out-dir; rk4 on a nonlinear model given a --t-end its fixed
             step cannot reach failed at its first step, exit 3, after
             truncating its outputs; a mass or inertia whose inverse
             overflows (1e-320 kg, in the source or by --set) failed at the
             first step ("the mode's equations are not finite"), exit 3;
             `min(0/0, 1)` and `if z/z > 1 then ...` dropped the undefined
             value and the model was accepted; `nsmc m.nsm -o m.nsm`
             replaced the model by its C simulator, exit 0, and `-o a.c -o
             b.c` wrote b.c only, exit 0; "-nan" in the summary line and in
             a blown-up Lagrangian model's message; "about inf samples"; a
             wall normal of three parts (the third dropped) or of parts
             1e300; a --set of a parameter another one is defined from
             (`param e = z*0.5`: e kept 0.5 at --set z=0.5, exit 0);
             `--lyapunov` from t = 0 with a contact held there (exit 3).
  language   355 model texts (313 written here, 42 variants of the models'
             energies, friction, planar walls and nonlinear forces): each refused with FILE:LINE:COL: error: and
             a caret (or a file-level error), exit 1, no output file, or
             compiled, exit 0.
  options    the simulator's numeric options with 24 hostile values each.
  sets_a, sets_b  --set on every parameter of ten models (friction,
             energy-written, planar, rigid, Hertz, moving surfaces) with 0,
             -1, 1e-320, 1e300 and 1e-300.
  commands   nsmc's own options, run, sweep, basins and continue.
  python     the findings as Python sees them: sweep(period=1e-300) is a
             SettingError naming the period before any run (it was a
             SimulationError of the first value), continuation(period=...)
             likewise, a subnormal mass a ParameterError.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import (SANITIZED, Failure, check, env_for, label_of, main,  # noqa: E402
                     model, pass_paths, run, sim, tried)

NSMC, SIM, FIO_SIM, SRC, SIMS, MODELS = pass_paths()


def thin(items):
    """Every third item under the sanitizers (about 3x slower), else all."""
    return items[::3] if SANITIZED else items


# ---- findings ---------------------------------------------------------------

def case_findings(tmp):
    """Each finding of the pass, a check that failed before its fix."""
    fio = model("forced_impact_oscillator")
    # a continuation period far below the model's time scale: refused before
    # any run and before the out-dir (it ran the transient, then "no tangent",
    # exit 3, with the out-dir made)
    for period in ("1e-300", "1e-12"):
        p = run(tmp, [NSMC, "continue", fio, "--param", "omega=1.3:1.25", "--period", period,
                      "--out-dir", "c"], timeout=300)
        check(p.returncode == 1 and "is too short for the model's motion" in p.stderr and
              "Phi - I is lost in the rounding" in p.stderr and
              not os.path.exists(os.path.join(tmp, "c")),
              "nsmc continue --period %s: exit 1 before any run, no out-dir (it failed with exit "
              "3, 'no tangent')" % period, p)
    p = run(tmp, [NSMC, "continue", fio, "--param", "omega=1.3:1.25", "--out-dir", "ok",
                  "--no-plot"], timeout=300)
    check(p.returncode == 0 and os.path.exists(os.path.join(tmp, "ok", "branch.csv")),
          "nsmc continue with the forcing period still follows its branch", p)
    # rk4 on a nonlinear model: its fixed step is known before the run, so a
    # t_end it cannot reach is an option error before any output, as for a
    # linear model (it failed at its first step, exit 3, the outputs emptied)
    keep = os.path.join(tmp, "keep.csv")
    open(keep, "w").write("earlier\n")
    p = run(tmp, [sim("pendulum_wall"), "--method", "rk4", "--t-end", "1e300", "--every",
                  "1e299", "--out", "keep.csv"])
    check(p.returncode == 1 and "t_end = 1e+300 s is beyond the time resolution" in p.stderr and
          "simulation failed" not in p.stderr and open(keep).read() == "earlier\n",
          "pendulum_wall --method rk4 --t-end 1e300: exit 1 before any output (exit 3 after "
          "truncating it)", p)
    # adaptive and taylor choose their steps from the motion: found at the
    # first step, exit 3, and the message says what to do (docs/status.md)
    p = run(tmp, [sim("pendulum_wall"), "--method", "adaptive", "--t-end", "1e300", "--every",
                  "1e299", "--out", "a.csv"])
    check(p.returncode == 3 and "give an earlier end time (or run in parts)" in p.stderr,
          "pendulum_wall --method adaptive --t-end 1e300: exit 3 at the first step, saying to "
          "give an earlier end time", p)
    # a mass whose inverse overflows: refused at the reset, exit 1 (it failed
    # at the first step, "the mode's equations are not finite", exit 3)
    for setv in ("m1=1e-320", "m2=4.9e-324"):
        p = run(tmp, [SIM, "--set", setv, "--t-end", "1", "--out", "keep.csv"])
        check(p.returncode == 1 and "is too small for a double" in p.stderr and
              open(keep).read() == "earlier\n",
              "two_mass --set %s: exit 1 naming the mass, before any output (exit 3)" % setv, p)
    p = run(tmp, [SIM, "--set", "m1=1e-300", "--t-end", "1", "--out", "/dev/null"])
    check("too small for a double" not in p.stderr,
          "two_mass --set m1=1e-300 (a finite inverse) is not refused as too small", p)
    # undefined constants are not dropped by min, max or a condition
    for tag, expr in (("min", "min(0/0, 1)"), ("max", "max(1, 0/0)"),
                      ("if", "if 0/0 > 1 then 1 else 0.5"),
                      ("and", "if 0/0 > 1 or 1 > 0 then 0.5 else 1"),
                      ("not", "if not (0/0 > 1) then 0.5 else 1")):
        path = os.path.join(tmp, "nan_%s.nsm" % tag)
        open(path, "w").write("param e = %s\nmass A = 1 kg\ngap floor: A.x >= 0, "
                              "impact(e = e)\ninit A.x = 1 m\nsimulate t_end = 1 s\n" % expr)
        p = run(tmp, [NSMC, path, "-o", "nan.c"])
        check(p.returncode == 1 and re.search(r"nan_%s\.nsm:1:\d+: error: .*not a finite number "
                                              r"\(it is nan\)" % tag, p.stderr) and
              not os.path.exists(os.path.join(tmp, "nan.c")),
              "param e = %s: refused as nan, nothing written (it was accepted)" % expr, p)
    # -o naming the model itself, and -o given twice
    shutil.copy(model("two_mass"), os.path.join(tmp, "m.nsm"))
    before = open(os.path.join(tmp, "m.nsm")).read()
    os.symlink("m.nsm", os.path.join(tmp, "link.c"))
    for out in ("m.nsm", "./m.nsm", "link.c"):
        p = run(tmp, [NSMC, "m.nsm", "-o", out])
        check(p.returncode == 1 and "it is the model being compiled" in p.stderr and
              open(os.path.join(tmp, "m.nsm")).read() == before,
              "nsmc m.nsm -o %s: exit 1, the model untouched (it was replaced by C, exit 0)"
              % out, p)
    p = run(tmp, [NSMC, "m.nsm", "-o", "a.c", "-o", "b.c"])
    check(p.returncode == 1 and "'-o' is given twice" in p.stderr and
          not os.path.exists(os.path.join(tmp, "a.c")) and
          not os.path.exists(os.path.join(tmp, "b.c")),
          "nsmc -o a.c -o b.c: exit 1, nothing written (b.c was written, exit 0)", p)
    # a parameter another parameter is defined from: its --set changed
    # nothing in the other (e = z/2 stayed 0.5 at --set z=0.5, exit 0); now
    # refused, and the defined parameter itself takes a --set: one impact at
    # 1 m/s with e = 0.25 loses m v^2 (1 - e^2) / 2 = 0.46875 J exactly
    derived = os.path.join(tmp, "derived.nsm")
    open(derived, "w").write("param z = 1\nparam e = z*0.5\nmass A = 1 kg\ngap floor: A.x >= 0, "
                             "impact(e = e)\ninit A.x = 1 m, A.v = -1 m/s\nsimulate t_end = 1 s"
                             "\n")
    p = run(tmp, [NSMC, "run", derived, "--set", "z=0.5", "--no-plot", "-q", "--out-dir", "d"],
            timeout=300)
    check(p.returncode == 1 and "is in the definition of another parameter" in p.stderr,
          "--set z=0.5 under param e = z*0.5: refused, exit 1 (it ran with e = 0.5, exit 0)", p)
    p = run(tmp, [NSMC, "run", derived, "--set", "e=0.25", "--no-plot", "-q", "--out-dir", "d"],
            timeout=300)
    lost = re.search(r"energy lost in events: (\S+) J", p.stdout + p.stderr)
    check(p.returncode == 0 and lost and abs(float(lost.group(1)) - 0.46875) <= 1e-12,
          "--set e=0.25 itself: one impact loses 0.46875 J (m v^2 (1 - e^2)/2)", p)
    p = run(tmp, [NSMC, "run", derived, "--set", "z=1", "--no-plot", "-q", "--out-dir", "d"],
            timeout=300)
    check(p.returncode == 0, "--set z=1, its default, is taken", p)
    # --lyapunov from t = 0 on a model that starts with a contact held: known
    # from the reset, exit 1 before any output (it failed at once, exit 3)
    p = run(tmp, [SIM, "--lyapunov", "--t-end", "10", "--out", "keep.csv"])
    check(p.returncode == 1 and "does not start in free flight" in p.stderr and
          "--lyapunov-transient" in p.stderr and open(keep).read() == "earlier\n",
          "two_mass --lyapunov: exit 1 before any output, naming the held contact (exit 3)", p)
    p = run(tmp, [SIM, "--lyapunov", "--lyapunov-transient", "5", "--t-end", "10", "--out",
                  "/dev/null"])
    check(p.returncode == 0, "two_mass --lyapunov --lyapunov-transient 5 still runs", p)
    # "-nan" in the summary line and in a blown-up Lagrangian model's message
    # (pendulum_wall's l = 1e300 makes its inertia m*l^2 infinite: refused
    # before the run, naming the overflow, since the twenty-sixth pass)
    for name, setv, code, said in (("pendulum_wall", "l=1e300", 1, "not finite (inf)"),
                                   ("sprung_table", "g=1e300", 0, "nan"),
                                   ("cart_friction", "g=1e300", 3, "nan")):
        p = run(tmp, [sim(name), "--set", setv, "--t-end", "0.5", "--out", "/dev/null"])
        check(p.returncode == code and "-nan" not in p.stderr and said in p.stderr,
              "%s --set %s: '%s', never '-nan', in its messages" % (name, setv, said), p)
    # a sampling period below a double's reciprocal: "more than", not "about inf"
    p = run(tmp, [SIM, "--section", "period:1e-320", "--section-out", "s.csv", "--t-end", "1",
                  "--out", "/dev/null"])
    check(p.returncode == 1 and "inf samples" not in p.stderr and "more than" in p.stderr,
          "a section period of 1e-320 s: 'more than 1.8e+308 samples', not 'about inf'", p)
    leftovers(tmp)


def leftovers(tmp):
    """The pass's leftovers, each a check that failed before its fix."""
    fio = model("forced_impact_oscillator")
    # -o - is standard output (a file named '-' was written here), the
    # whole simulator, byte for byte what -o FILE writes
    p = run(tmp, [NSMC, fio, "-o", "file.c"])
    p = run(tmp, [NSMC, fio, "-o", "-"])
    check(p.returncode == 0 and not os.path.exists(os.path.join(tmp, "-")) and
          p.stdout == open(os.path.join(tmp, "file.c")).read(),
          "nsmc m.nsm -o -: the simulator on standard output, no file '-' (one was written)", p)
    p = run(tmp, [NSMC, "--emit=equations", "--format=text", fio, "-o", "-"])
    check(p.returncode == 0 and "mode" in p.stdout and not os.path.exists(os.path.join(tmp, "-")),
          "nsmc --emit=equations -o -: the equations on standard output", p)
    with open("/dev/full", "w") as full:
        q = subprocess.run([NSMC, fio, "-o", "-"], cwd=tmp, stdout=full, stderr=subprocess.PIPE,
                           text=True, timeout=60)
    check(q.returncode == 1 and "cannot write 'standard output': No space left" in q.stderr,
          "nsmc m.nsm -o - >/dev/full: exit 1 naming standard output", q)
    # a section's period in hexadecimal: refused as the numeric options
    # refuse 0x1p-3 (it was taken as 0.125 s)
    for spec in ("period:0x1p-3", "period:0.5:0x1p-3", "period:2*0x1p-3"):
        p = run(tmp, [FIO_SIM, "--section", spec, "--section-out", "s.csv", "--t-end", "1",
                      "--out", "/dev/null"])
        check(p.returncode == 1 and "written in decimal" in p.stderr and
              not os.path.exists(os.path.join(tmp, "s.csv")),
              "--section %s: exit 1, a number in decimal asked for (it was taken)" % spec, p)
    p = run(tmp, [FIO_SIM, "--section", "period:1.25e-1", "--section-out", "s.csv", "--t-end",
                  "1", "--out", "/dev/null"])
    rows = open(os.path.join(tmp, "s.csv")).read().splitlines()[1:] if p.returncode == 0 else []
    check([float(r.split(",")[0]) for r in rows] == [k / 8 for k in range(9)],
          "--section period:1.25e-1 over 1 s: records at t = k/8 s, k = 0 .. 8", p)
    # a column given twice: refused with a caret (both were written)
    dup = os.path.join(tmp, "dup.nsm")
    open(dup, "w").write("mass A = 1 kg\ngap floor: A.x >= 0, impact(e = 0.5)\ninit A.x = 1 m\n"
                         "simulate t_end = 1 s\noutput every 1 ms: A.x, A.v, A.x\n")
    p = run(tmp, [NSMC, dup, "-o", "dup.c"])
    check(p.returncode == 1 and "dup.nsm:5:30: error: column 'A.x' is given twice" in p.stderr and
          "^~~" in p.stderr and not os.path.exists(os.path.join(tmp, "dup.c")),
          "output ...: A.x, A.v, A.x: refused at 5:30 with a caret (it was taken as written)", p)
    open(dup, "w").write("mass A = 1 kg\ngap floor: A.x >= 0, impact(e = 0.5)\ninit A.x = 1 m\n"
                         "simulate t_end = 1 s\noutput every 1 ms: A.x, y = A.x, A.v\n")
    p = run(tmp, [NSMC, dup, "-o", "dup.c"])
    check(p.returncode == 0, "output ...: A.x, y = A.x (one quantity, two names) is taken", p)
    # a penalty contact of stiffness 0 (no contact at all): refused by nsmc
    # and by --set (both were taken)
    pen = os.path.join(tmp, "pen.nsm")
    open(pen, "w").write("mass A = 1 kg\ngap floor: A.x >= 0, penalty(k = 0 N/m)\n"
                         "init A.x = 1 m\nsimulate t_end = 1 s\n")
    p = run(tmp, [NSMC, pen, "-o", "pen.c"])
    check(p.returncode == 1 and "pen.nsm:2:34: error: the contact stiffness 'k' must be positive"
          in p.stderr, "penalty(k = 0 N/m): refused at 2:34 (it was taken)", p)
    keep = os.path.join(tmp, "keep.csv")
    open(keep, "w").write("earlier\n")
    for setv in ("k_stop=0", "k_stop=-0"):
        p = run(tmp, [sim("sdnd101"), "--set", setv, "--out", "keep.csv"])
        check(p.returncode == 1 and "invalid value" in p.stderr and "k_stop" in p.stderr and
              "penalty contacts' stiffnesses > 0" in p.stderr and
              open(keep).read() == "earlier\n",
              "sdnd101 --set %s: exit 1 before any output (it ran)" % setv, p)
    p = run(tmp, [sim("sdnd101"), "--set", "k_stop=1e-300", "--out", "/dev/null"])
    check(p.returncode in (0, 3) and "invalid value" not in p.stderr,
          "sdnd101 --set k_stop=1e-300 (positive) is taken", p)
    # blanks around every field of --param NAME=START:STOP:COUNT (one after
    # START was taken, one after COUNT refused): each grid is 1, 1.5, 2
    for n, par in enumerate(("omega=1 :2:3", "omega=1:2:3 ", " omega = 1 : 2 : 3 ",
                             "omega=1:2\t:3")):
        out = "sw%d" % n
        p = run(tmp, [NSMC, "sweep", fio, "--param", par, "--section", "impact:stop",
                      "--transient", "1", "--record", "1", "--out-dir", out], timeout=300)
        summ = os.path.join(tmp, out, "summary.csv")
        vals = sorted({float(l.split(",")[0]) for l in open(summ).read().splitlines()[1:]}) \
            if p.returncode == 0 and os.path.exists(summ) else []
        check(vals == [1.0, 1.5, 2.0], "nsmc sweep --param '%s': the grid 1, 1.5, 2" % par, p)
    # and nsmc continue's NAME=FROM:TO alike (it refused every blank, where
    # nsmc sweep now takes them): the branch starts at omega = 1.3
    p = run(tmp, [NSMC, "continue", fio, "--param", " omega = 1.3 : 1.25 ", "--max-points",
                  "3", "--no-plot", "--out-dir", "cb"], timeout=300)
    branch = os.path.join(tmp, "cb", "branch.csv")
    first = open(branch).read().splitlines()[1].split(",")[:2] if os.path.exists(branch) else []
    check(p.returncode == 0 and first == ["1.3", "start"],
          "nsmc continue --param ' omega = 1.3 : 1.25 ': the branch from omega = 1.3", p)


# ---- language ---------------------------------------------------------------

BASE = """model m "t"
param k = 2 N/m
param e = 0.9
mass A = 1 kg
mass B = 1 kg
spring ground -- A, k = k
gap C: B.x - A.x >= 0, impact(e = e)
init A.x = -1 m, B.v = 1 m/s
simulate t_end = 1 s, dt = 1 ms, method = rk4
"""


def texts():
    """(tag, text) of every model text the pass tried."""
    out = []

    def r(old, new):
        if old not in BASE:
            raise Failure("the base model has no %r" % old)
        return BASE.replace(old, new)
    for i, num in enumerate(["0x10", "1e", "1e+", ".5", "5.", "1..2", "1e400", "1e-400",
                             "4.9e-324", "1_000", "0b1", "00012", "1e-320", "+2", "--2", "2e308",
                             "1.7976931348623157e308", "nan", "inf", "1d3", "\u0661"]):
        out.append(("num%d" % i, r("param k = 2 N/m", "param k = %s N/m" % num)))
    for i, ex in enumerate(["0/0", "1/0", "log(0)", "sqrt(-1)", "exp(1000)", "1e308*10",
                            "(-8)^(1/3)", "0^0", "0^-1", "tan(pi/2)", "log(-1)", "min(0/0, 1)",
                            "max(1/0, 1)", "abs(-1e308*10)", "2^1024", "2^-1075", "-(0/0)",
                            "if 1 > 0 then 2 else 0/0", "if 0/0 > 1 then 2 else 3", "sin(1e300)",
                            "10^400"]):
        out.append(("const%d" % i, r("param k = 2 N/m", "param k = (%s) * 1 N/m" % ex)))
    for i, ex in enumerate(["0/0", "1/0", "1e-320", "1e300", "-1", "0"]):
        out.append(("mass%d" % i, r("mass A = 1 kg", "mass A = %s kg" % ex)))
        out.append(("rest%d" % i, r("param e = 0.9", "param e = %s" % ex)))
        out.append(("init%d" % i, r("init A.x = -1 m", "init A.x = %s m" % ex)))
        out.append(("tend%d" % i, r("t_end = 1 s", "t_end = %s s" % ex)))
        out.append(("dt%d" % i, r("dt = 1 ms", "dt = %s s" % ex)))
    deep = [("deep255", "(" * 255 + "0.9" + ")" * 255), ("deep300", "(" * 300 + "0.9" + ")" * 300),
            ("deepneg", "-" * 300 + "0.9"), ("deepsum", "+".join(["0.001"] * 400)),
            ("deeppow", "^".join(["1"] * 400)), ("deepfn", "abs(" * 300 + "0.9" + ")" * 300)]
    out += [(tag, r("param e = 0.9", "param e = " + ex)) for tag, ex in deep]
    out += [("longline", r("param e = 0.9", "param e = 0.9" + " " * 200000)),
            ("longname", r("param e = 0.9", "param " + "e" * 5000 + " = 0.9\nparam e = 0.9")),
            ("longtitle", r('model m "t"', 'model m "' + "t" * 100000 + '"')),
            ("crlf", BASE.replace("\n", "\r\n")), ("cr", BASE.replace("\n", "\r")),
            ("tabs", BASE.replace(" ", "\t")), ("bom", "\ufeff" + BASE),
            ("uniname", r("mass A = 1 kg", "mass \u00c5 = 1 kg")),
            ("unicomment", r("param e = 0.9", "param e = 0.9 # \u00e9 \u2200 \U0001F600")),
            ("unititle", r('model m "t"', 'model m "\U0001F600 \u00e9"')),
            ("nbsp", r("param e = 0.9", "param e =\u00a00.9")),
            ("zwsp", r("param e = 0.9", "param e\u200b = 0.9")),
            ("nul", r("param e = 0.9", "param e = 0.9\x00")),
            ("ctrl", r("param e = 0.9", "param e = 0.9\x0c\x0b")),
            ("noeol", BASE.rstrip("\n")), ("empty", ""), ("onlycomment", "# nothing\n"),
            ("onlyblank", "\n\n   \n\t\n"),
            ("contcomma", r("init A.x = -1 m, B.v = 1 m/s", "init A.x = -1 m,\n\n B.v = 1 m/s")),
            ("trailcomma", r("init A.x = -1 m, B.v = 1 m/s", "init A.x = -1 m, B.v = 1 m/s,")),
            ("trailcommaeof", BASE + "init A.v = 0 m/s,")]
    decl = [("dupparam", r("param e = 0.9", "param e = 0.9\nparam e = 0.8")),
            ("dupmass", r("mass B = 1 kg", "mass B = 1 kg\nmass B = 2 kg")),
            ("dupgap", r("gap C:", "gap C: B.x - A.x >= 0, impact(e = e)\ngap C:")),
            ("dupinit", r("init A.x = -1 m", "init A.x = -1 m, A.x = 2 m")),
            ("dupsim", BASE + "simulate t_end = 2 s\n"), ("dupmodel", 'model q "x"\n' + BASE),
            ("modellate", BASE + 'model q "x"\n'),
            ("dupgravity", BASE + "gravity 9.81 m/s^2\ngravity 9.81 m/s^2\n"),
            ("dupout", BASE + "output every 1 ms: A.x\noutput every 1 ms: A.x\n"),
            ("outdupcol", BASE + "output every 1 ms: A.x, A.x\n"),
            ("emptyinit", r("init A.x = -1 m, B.v = 1 m/s", "init")),
            ("emptysim", r("simulate t_end = 1 s, dt = 1 ms, method = rk4", "simulate")),
            ("emptyout", BASE + "output every 1 ms:\n"),
            ("emptyfor", BASE + "for i in 1..0: spring A -- B, k = 1 N/m\n"),
            ("emptyfam", r("mass B = 1 kg", "mass B = 1 kg\nmass P[1..0] = 1 kg")),
            ("hugefam", r("mass B = 1 kg", "mass B = 1 kg\nmass P[1..100000000000] = 1 kg")),
            ("negfam", r("mass B = 1 kg", "mass B = 1 kg\nmass P[-3..-1] = 1 kg")),
            ("sizebig", r("param e = 0.9", "param e = 0.9\nparam N = 9223372036854775807") +
             "mass P[1..N] = 1 kg\n"),
            ("sizemulovf", r("param e = 0.9", "param e = 0.9\nparam N = 3037000500*3037000500") +
             "mass P[1..N] = 1 kg\n"),
            ("forovf", BASE + "for i in 9223372036854775806..9223372036854775807: spring A -- "
             "B, k = 1 N/m\n"),
            ("nomass", "simulate t_end = 1 s\n"),
            ("selfspring", BASE + "spring A -- A, k = 1 N/m\n"),
            ("selfgap", BASE + "gap D: A.x - A.x >= 0, impact(e = 1)\n"),
            ("gapeq", BASE + "gap D: A.x == 0, impact(e = 1)\n"),
            ("gapvel", BASE + "gap D: A.v >= 0, impact(e = 1)\n"),
            ("gapscaled", BASE + "gap D: 1e300*(B.x - A.x) >= 0, impact(e = 0.5)\n"),
            ("gaptiny", BASE + "gap D: 1e-300*(B.x - A.x) >= 0, impact(e = 0.5)\n")]
    out += decl
    for i, nm in enumerate(["int", "double", "return", "main", "static", "sizeof", "nsm_main",
                            "rt_run", "printf", "exit", "y", "p", "c", "dy", "lam", "NAN",
                            "INFINITY", "M_PI", "errno", "stdin", "NULL", "_Bool", "__func__",
                            "auto", "nsm_model", "modes", "setup", "free", "malloc", "sin", "pow",
                            "fabs", "x", "v", "i", "k2", "register", "volatile"]):
        out.append(("cname%d" % i, r("param e = 0.9", "param %s = 0.9\nparam e = %s" % (nm, nm)) +
                    "mass %s_b = 1 kg\nspring s_%s: ground -- %s_b, k = 1 N/m\n"
                    "gap %s_g: %s_b.x >= 0, impact(e = %s)\n" % (nm, nm, nm, nm, nm, nm)))
        out.append(("cmass%d" % i, r("mass B = 1 kg", "mass %s = 1 kg" % nm).replace(
            "B.", "%s." % nm)))
    for i, nm in enumerate(["ground", "t", "pi", "energy", "model", "param", "if", "impact",
                            "penalty", "disc", "along", "above", "plane", "rigid"]):
        out.append(("kw%d" % i, r("mass B = 1 kg", "mass %s = 1 kg\nmass B = 1 kg" % nm)))
    for i, u in enumerate(["kg^2", "m^-0", "m^99999999999", "m^-2147483649", "s^2^2", "kkg",
                           "Gkg", "mkg", "N*" * 40 + "N/m", "m/m/m/m/m", "rad^2", "Hz*s", "uuN",
                           "N/m^", "N/m*", "N//m"]):
        out.append(("unit%d" % i, r("param k = 2 N/m", "param k = 2 %s" % u)))
    for i, ex in enumerate(["(1 m)^(1/2) / (1 m)^(1/2)", "(1 m)^1000 / (1 m)^1000",
                            "(1 m)^2147483648 / (1 m)^2147483648", "(1 m)^1e300"]):
        out.append(("pow%d" % i, r("param k = 2 N/m", "param k = 2 N/m * " + ex)))
    for i, opt in enumerate(["method = exact", "method = taylor", "method = adaptive",
                             "method = euler", "method = rk4, method = rk4",
                             "impact_law = energetic", "impact_law = sequential",
                             "impact_law = simultaneous", "impact_law = nope", "rtol = 0",
                             "zeno = yes", "foo = 1"]):
        out.append(("sim%d" % i, r("method = rk4", opt)))
    for i, ex in enumerate(["t", "k", "e * 1 s", "1e-300 s", "1 kg"]):
        out.append(("simend%d" % i, r("t_end = 1 s", "t_end = " + ex)))
    for i, law in enumerate(["impact(e = 2)", "impact(e = -0)", "impact(e = e, e = e)",
                             "impact()", "impact", "impact(e)", "impact(e = 1 m)",
                             "penalty(k = -1 N/m)", "penalty(k = 1e300 N/m)",
                             "penalty(k = 1e6 N/m, c = -1 N*s/m)",
                             "penalty(k = 1e6 N/m, release = nope)", "penalty(c = 1 N*s/m)",
                             "penalty(k = 1e6 N/m, e = 0.5)", "impact(e = e, stiffness = 1e6)",
                             "impact(e = e, exponent = 1.5)", "impact(e = e, k = 1)",
                             "nope(e = 1)", "impact(e = 1/0)", "impact(e = 0/0)",
                             "impact(e = if t > 1 s then 1 else 0)", "impact(e = e) extra",
                             "impact(e = e),"]):
        out.append(("law%d" % i, r("impact(e = e)", law)))
    for i, f in enumerate(["force on A = 1 kg", "force on ground = 1 N", "force on Z = 1 N",
                           "force on A = A.x * 1 N/m", "force on A = t * 1 N/s",
                           "force on A = sin(t) * 1 N", "force on A = 1e300 N * exp(t / 1 s)",
                           "force on A = if A.x > 0 then 1 N else 0 N", "force on A = 1 N / 0",
                           "force on A = (0/0) * 1 N", "force F: on A = 1 N\nforce F: on B = 1 N",
                           "force on A = abs(A.x) * 1 N/m", "force on A = A.x^3 * 1 N/m^3",
                           "force on A = min(A.x * 1 N/m, 1 N)", "force on A = A.a * 1 kg",
                           "force on A = log(A.x / 1 m) * 1 N"]):
        out.append(("force%d" % i, BASE + f + "\n"))
    for i, g in enumerate(["gravity 0 m/s^2", "gravity -9.81 m/s^2", "gravity 1e300 m/s^2",
                           "gravity 9.81 N", "gravity 9.81 m/s^2 along x",
                           "gravity 9.81 m/s^2 along (0, 0)", "gravity g",
                           "gravity (0/0) * 1 m/s^2", "gravity 9.81 m/s^2 along (1, 1, 1)"]):
        out.append(("grav%d" % i, BASE + g + "\n"))
    for i, o in enumerate(["output every 0 s: A.x", "output every -1 s: A.x",
                           "output every 1 kg: A.x", "output every 1 ms: Z.x",
                           "output every 1 ms: A.q", "output every 1 ms: C.impulse",
                           "output every 1 ms: energy.nope", "output every 1 ms: t",
                           "output every 1 ms: sin(t)", "output every 1 ms: A.x / 0",
                           "output every 1 ms: xx = A.x", "output: A.x",
                           "output every 1 ms A.x"]):
        out.append(("out%d" % i, BASE + o + "\n"))
    return out


# variants of the models' own texts: energies, friction, planar bodies,
# nonlinear forces and curved gaps (model, old, new, tag)
MODEL_TEXTS = [
    ("double_pendulum", "coordinate b: angle", "coordinate b: angle\ncoordinate b: angle", "dupcoord"),
    ("double_pendulum", "coordinate b: angle", "coordinate b: length", "coordkind"),
    ("double_pendulum", "kinetic T = ", "kinetic T = 0*", "kin0"),
    ("double_pendulum", "kinetic T = ", "kinetic T = -1*", "kinneg"),
    ("double_pendulum", "kinetic T = ", "kinetic T = (0/0)*", "kinnan"),
    ("double_pendulum", "kinetic T = ", "kinetic T = 1e300*", "kin300"),
    ("double_pendulum", "kinetic T = ", "kinetic T = 1e-320*", "kinsub"),
    ("double_pendulum", "potential V = ", "potential V = t*1 N*m/s + ", "potT"),
    ("double_pendulum", "potential V = ", "potential V = a.omega*1 N*m*s + ", "potvel"),
    ("double_pendulum", "potential V = -(m1", "potential V = 1/(a.phi)*1 J + -(m1", "potsing"),
    ("double_pendulum", "kinetic T = 1/2", "kinetic T = a.omega^3*1 kg*m^2*s + 1/2", "kincubic"),
    ("double_pendulum", "method = adaptive", "method = exact", "dpexact"),
    ("double_pendulum", "init a.phi = -0.8 rad", "init a.phi = 1e300 rad", "dpinit300"),
    ("double_pendulum", "impact(e = e)", "penalty(k = 1e6 N/m)", "dppenalty"),
    ("belt_friction", "belt(v = v_b)", "belt(v = 1e300 m/s)", "belt300"),
    ("belt_friction", "belt(v = v_b)", "belt(v = t*1 m/s^2)", "belttime"),
    ("belt_friction", "belt(v = v_b)", "belt(v = v_b, v = v_b)", "belttwice"),
    ("belt_friction", "mu_s = mu_s, mu_k = mu_k", "mu_s = 0.3, mu_k = 0.5", "musk"),
    ("belt_friction", "mu_s = mu_s, mu_k = mu_k", "mu_s = 1e300, mu_k = 1e300", "mu300"),
    ("belt_friction", "mu_s = mu_s, mu_k = mu_k", "mu_s = 0/0, mu_k = 0.3", "munan"),
    ("belt_friction", "normal = N", "normal = 0 N", "normal0"),
    ("belt_friction", "normal = N", "normal = gap nope", "normalgap"),
    ("belt_friction", "friction F: M -- belt(v = v_b)", "friction F: M -- M", "fricself"),
    ("belt_friction", "method = exact", "method = taylor", "bftaylor"),
    ("disc_walls_friction", "slip = -D.vy + R*D.omega", "slip = 0*D.vy", "slip0"),
    ("disc_walls_friction", "slip = -D.vy + R*D.omega", "slip = D.vy^2/(1 m/s)", "slipnl"),
    ("disc_walls_friction", "slip = -D.vy + R*D.omega", "slip = 1e300*D.vy", "slip300"),
    ("disc_walls_friction", "normal = (1, 0)", "normal = (0, 0)", "wn0"),
    ("disc_walls_friction", "normal = (1, 0)", "normal = (1e-320, 0)", "wnsub"),
    ("disc_walls_friction", "normal = (1, 0)", "normal = (1e300, 1e300)", "wn300"),
    ("disc_walls_friction", "normal = (1, 0)", "normal = (0/0, 1)", "wnnan"),
    ("disc_walls_friction", "normal = (1, 0)", "normal = (1, 0, 0)", "wn3"),
    ("disc_walls_friction", "radius = R", "radius = 1e-320 m", "rsub"),
    ("disc_walls_friction", "inertia = 2/5*m*R^2", "inertia = 1e-320 kg*m^2", "isub"),
    ("disc_walls_friction", "disc D: mass = m,", "disc D: mass = 1e-320 kg,", "dmsub"),
    ("disc_walls_friction", "method = exact", "method = taylor", "dwtaylor"),
    ("pendulum_wall", "inertia = m*l^2", "inertia = m*l^2*0", "pwi0"),
    ("pendulum_wall", "-m*g*l*sin(P.phi)", "-m*g*l*sin(P.phi)/(P.phi - 0.1)", "pwsing"),
    ("pendulum_wall", "-m*g*l*sin(P.phi)", "-m*g*l*sin(P.phi)^1e300", "pwpow300"),
    ("pendulum_wall", "l*(P.phi - phi_w) >= 0 m", "l*sin(P.phi - phi_w) >= 0 m", "pwcurved"),
    ("pendulum_wall", "l*(P.phi - phi_w) >= 0 m", "l*abs(P.phi - phi_w) >= 0 m", "pwabs"),
    ("pendulum_wall", "simulate t_end = 10 s", "simulate t_end = 10 s, method = exact", "pwexact"),
]


def case_language(tmp):
    """Every model text: refused with a located message and nothing
    written, or compiled."""
    n = 0
    variants = [(tag, open(model(name)).read().replace(old, new))
                for name, old, new, tag in MODEL_TEXTS if old in open(model(name)).read()]
    if len(variants) != len(MODEL_TEXTS):
        raise Failure("a model text changed: %d of %d variants apply" % (len(variants),
                                                                          len(MODEL_TEXTS)))
    for tag, text in thin(texts() + variants):
        path = os.path.join(tmp, tag + ".nsm")
        with open(path, "w", newline="", encoding="utf-8") as f:
            f.write(text)
        out = os.path.join(tmp, tag + ".c")
        p = tried(tmp, [NSMC, path, "-o", out], "nsmc %s" % tag, timeout=60)
        n += 1
        if p.returncode == 1:
            located = re.search(r"%s\.nsm:\d+:\d+: error: \S" % re.escape(tag), p.stderr)
            whole = re.search(r"%s\.nsm: error: (not a text file|the model is empty|the model "
                              r"has no mass)" % re.escape(tag), p.stderr)
            if not (located or whole) or os.path.exists(out):
                raise Failure("%s: a refusal without FILE:LINE:COL (or a file-level error), or "
                              "with an output file\n%s" % (tag, p.stderr[-1500:]))
            if located and "^" not in p.stderr:
                raise Failure("%s: a located error without its caret\n%s" % (tag, p.stderr))
        elif p.returncode != 0 or not os.path.exists(out):
            raise Failure("%s: exit %d" % (tag, p.returncode))
    print("language: %d model texts" % n)


# ---- options ----------------------------------------------------------------

VALUES = ["0", "-1", "1e-300", "1e300", "nan", "inf", "-inf", "0x1p-3", "0x1.8p1", "1.5x", "1e",
          " 1", "1 ", "", "+1", "1e-320", "0.1.2", "1,5", "\u0661", "2147483648",
          "9223372036854775808", "-0", "0x", "1d"]
OPTIONS = ["--t-end", "--dt", "--every", "--rtol", "--atol", "--max-steps", "--energy-tol",
           "--lyapunov-interval", "--section"]


def case_options(tmp):
    """The simulator's numeric options with hostile values: each ends by
    itself with 0, 1 or 3 and a message; a refusal writes nothing."""
    n = 0
    for opt in OPTIONS:
        for v in thin(VALUES):
            args = [opt, "period:" + v] if opt == "--section" else [opt, v]
            args += [] if opt == "--t-end" else ["--t-end", "2"]
            args += ["--section-out", "s.csv"] if opt == "--section" else []
            args += ["--lyapunov"] if opt == "--lyapunov-interval" else []
            out = os.path.join(tmp, "o.csv")
            if os.path.exists(out):
                os.unlink(out)
            p = tried(tmp, [SIM] + args + ["--out", "o.csv"], label_of(["two_mass"] + args),
                      timeout=60)
            n += 1
            if p.returncode == 1 and os.path.exists(out):
                raise Failure("%s: exit 1 with its output written" % label_of(args))
            if "-nan" in p.stderr or "inf samples" in p.stderr:
                raise Failure("%s: '-nan' or 'inf samples' in\n%s" % (label_of(args), p.stderr))
    print("options: %d inputs" % n)


# ---- sets -------------------------------------------------------------------

SET_MODELS = ["belt_friction", "cart_friction", "pendulum_wall", "double_pendulum",
              "rocking_block", "disc_walls_friction", "free_top", "hertz_pair", "vibrating_table",
              "duffing_stop"]
SET_VALUES = ["0", "-1", "1e-320", "1e300", "1e-300"]


def sets_of(tmp, models):
    """--set of every parameter of models to hostile values: each ends by
    itself with 0, 1 or 3 and a message, never '-nan'."""
    n = 0
    for name in models:
        p = run(tmp, [sim(name), "--set", "zzz=1"])
        m = re.search(r"valid parameters: (.*)", p.stderr)
        if not m:
            raise Failure("%s: no list of parameters in\n%s" % (name, p.stderr))
        params = [x.strip() for x in m.group(1).split(",")]
        vectors = [(q, v) for q in params for v in SET_VALUES]
        for q, v in (vectors[::3] if SANITIZED else vectors):
            p = tried(tmp, [sim(name), "--set", "%s=%s" % (q, v), "--t-end", "0.5", "--every",
                            "0.01", "--out", "/dev/null"], "%s --set %s=%s" % (name, q, v),
                      timeout=60)
            n += 1
            if "-nan" in p.stderr:
                raise Failure("%s --set %s=%s: '-nan' in\n%s" % (name, q, v, p.stderr))
    print("sets: %d inputs" % n)


def case_sets_a(tmp):
    """--set on the friction and energy-written models (sets_of)."""
    sets_of(tmp, SET_MODELS[:5])


def case_sets_b(tmp):
    """--set on the planar, rigid, Hertz, moving-surface and Duffing models."""
    sets_of(tmp, SET_MODELS[5:])


# ---- commands ---------------------------------------------------------------

def case_commands(tmp):
    """nsmc's options, run, sweep (and basins) and continue with hostile
    arguments: each ends by itself with 0, 1 or 3 and a message."""
    tm = os.path.join(tmp, "tm.nsm")
    fio, pw = model("forced_impact_oscillator"), model("pendulum_wall")
    open(os.path.join(tmp, "a_file"), "w").write("x")
    sw = ["--section", "impact:stop"]
    inputs = [
        [tm, "-o", "/dev/null"], [tm, "-o", "/"], [tm, "-o", ""], [tm, "-o", "a/b/c.c"],
        [tm, "-o", "a_file/x.c"], [tm, "-o", "x" * 300 + ".c"], [tm, "--emit"], [tm, "--emit="],
        [tm, "--emit=nope"], [tm, "--emit=equations", "--format=nope"],
        [tm, "--emit=equations", "--format=latex"], [tm, tm], ["--check"], [], ["nope.nsm"],
        ["/dev/null"], ["/dev/zero"], ["/"], ["--"], [tm, "-x"],
        ["run", tm, "--set", "e="], ["run", tm, "--set", "=1"], ["run", tm, "--set", "zz=1"],
        ["run", tm, "--set", "e=0.5", "--set", "e=0.5"], ["run", tm, "--set", "m1=1e-320"],
        ["run", tm, "--set", "m1=0x1p-3"], ["run", tm, "--set", "e=nan"],
        ["run", tm, "--out-dir", ""], ["run", tm, "--out-dir", "/dev/null"],
        ["run", tm, "--out-dir", "a_file"], ["run", tm, "--", "--t-end", "nan"],
        ["run", tm, "--", "--t-end", "1e300"], ["run", tm, "--", "--every", "1e-320"],
        ["run", tm, "--", "--method", "taylor"], ["run", tm, "--set-file", "/dev/zero"],
        ["run", pw, "--", "--method", "rk4", "--t-end", "1e300", "--every", "1e299"],
        ["run", pw, "--", "--method", "exact"],
        ["sweep", fio, "--param", "omega=1:2:0"] + sw, ["sweep", fio, "--param", "omega=1:2:1e9"] + sw,
        ["sweep", fio, "--param", "omega=1:2:0x10"] + sw,
        ["sweep", fio, "--param", "omega=nan:2:3"] + sw,
        ["sweep", fio, "--param", "omega=1:2:3", "--section", "impact:nope"],
        ["sweep", fio, "--param", "omega=1:2:3", "--transient", "1e300"] + sw,
        ["sweep", fio, "--param", "omega=1:2:3", "--jobs", "100000"] + sw,
        ["sweep", fio, "--param", "omega=1:2:3", "--t-max", "nan"] + sw,
        ["sweep", fio, "--param", "omega=1:2:3", "--section-period", "-2*pi/omega"] + sw,
        ["sweep", fio, "--param", "omega=1:2:3", "--section-period", "1/(omega-1)"] + sw,
        ["sweep", fio, "--param", "omega=0:2:3", "--section-period", "2*pi/omega"] + sw,
        ["sweep", fio, "--basin", "M.x=-1:0:0", "--basin", "M.v=-1:1:3", "--section-period",
         "2*pi/omega"] + sw,
        ["sweep", fio, "--basin", "M.x=-1:0:2", "--basin", "M.v=-1:1:2", "--section-period",
         "2*pi/omega", "--basin-tol", "nan"] + sw,
        ["sweep", fio, "--param", "omega=1:2:3", "--method", "taylor"] + sw,
        ["continue", fio, "--param", "omega=1.3:1.3"], ["continue", fio, "--param", "omega=nan:1"],
        ["continue", fio, "--param", "omega=1.3:1.2", "--ds", "1e300"],
        ["continue", fio, "--param", "omega=1.3:1.2", "--max-points", "1e300"],
        ["continue", fio, "--param", "omega=1.3:1.2", "--periods", "1e9"],
        ["continue", fio, "--param", "omega=1.3:1.2", "--start", "nan,0"],
        ["continue", fio, "--param", "omega=1.3:1.2", "--curve", "nope", "--param2", "e=0.5:0.6"],
        ["continue", fio, "--param", "omega=1.3:1.2", "--period", "-1"],
        ["continue", fio, "--param", "omega=0:1.2"], ["continue", pw, "--param", "l=1:2"],
    ]
    n = 0
    for i, args in enumerate(thin(inputs)):
        shutil.copy(model("two_mass"), tm)
        if args and args[0] in ("run", "sweep", "continue") and "--out-dir" not in args:
            at = args.index("--") if "--" in args else len(args)
            extra = ["--no-plot"] if args[0] in ("run", "continue") else []
            args = args[:at] + ["--out-dir", "o%d" % i] + extra + args[at:]
        p = tried(tmp, [NSMC] + args, label_of([os.path.basename(a) if a.startswith("/") and
                                                 len(a) > 20 else a for a in args]), timeout=300)
        n += 1
        if open(tm).read() != open(model("two_mass")).read():
            raise Failure("%s: the model file was changed" % label_of(args))
        if "-nan" in p.stderr:
            raise Failure("%s: '-nan' in\n%s" % (label_of(args), p.stderr))
    print("commands: %d inputs" % n)


# ---- python -----------------------------------------------------------------

PY = r'''
import os, sys
import nsm
MODELS = sys.argv[1]
fio = nsm.compile(os.path.join(MODELS, "forced_impact_oscillator.nsm"))
tm = nsm.compile(os.path.join(MODELS, "two_mass.nsm"))
# a sweep's period below the time resolution: refused before any run, naming
# the period (it was a SimulationError of the first value)
for period in ("1e-300", 1e-300):
    try:
        fio.sweep("omega", [1.0, 1.5, 2.0], "impact:stop", period=period, transient=1, record=1)
        raise AssertionError("sweep(period=%r) ran" % (period,))
    except nsm.SettingError as e:
        assert "period" in str(e) and "omega = 1.0" in str(e), e
        print("ok: sweep(period=%r): SettingError: %s" % (period, str(e)[:100]))
# only a later value's period is refused: nothing ran before the refusal
try:
    fio.sweep("omega", [1.0, 1e300], "impact:stop", period="2*pi/omega", transient=1, record=1,
              t_max=100)
    raise AssertionError("sweep to omega = 1e300 ran")
except nsm.SettingError as e:
    assert "omega = 1e+300" in str(e), e
    print("ok: a value whose period is too short, refused up front:", str(e)[:100])
p, rec = fio.sweep("omega", [1.5, 2.0], "impact:stop", period="2*pi/omega", transient=1,
                   record=1)
assert len(p) == 2, p
for period in ("1e-300", "1e-12"):
    try:
        fio.continuation("omega", 1.3, 1.25, period=period)
        raise AssertionError("continuation(period=%r) ran" % period)
    except nsm.SettingError as e:
        assert "too short for the model's motion" in str(e), e
        print("ok: continuation(period=%r): SettingError" % period)
derived = os.path.join(os.getcwd(), "derived.nsm")
open(derived, "w").write("param z = 1\nparam e = z*0.5\nmass A = 1 kg\ngap floor: A.x >= 0, "
                         "impact(e = e)\ninit A.x = 1 m, A.v = -1 m/s\nsimulate t_end = 1 s\n")
dm = nsm.compile(derived)
try:
    dm.run(params={"z": 0.5})
    raise AssertionError("z = 0.5 ran with e = 0.5")
except nsm.ParameterError as e:
    assert "in the definition of another parameter" in str(e), e
    print("ok: params z under e = z*0.5: ParameterError")
dm.run(params={"e": 0.25})
print("ok: params e = 0.25 itself runs")
try:
    tm.run(params={"m1": 1e-320}, t_end=1)
    raise AssertionError("m1 = 1e-320 ran")
except nsm.ParameterError as e:
    assert "too small for a double" in str(e), e
    print("ok: m1 = 1e-320: ParameterError")
'''


def case_python(tmp):
    """The findings as Python sees them."""
    path = os.path.join(tmp, "seventh_python.py")
    open(path, "w").write(PY)
    env = env_for(tmp)
    env.setdefault("MPLBACKEND", "Agg")
    try:
        p = subprocess.run([sys.executable, path, MODELS], cwd=tmp, env=env,
                           capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        raise Failure("python: still running after 600 s")
    print(p.stdout)
    check(p.returncode == 0, "python: the findings refused up front with nsm.Error subclasses", p)


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


if __name__ == "__main__":
    sys.exit(main(CASES, "nsm-seventh-"))
