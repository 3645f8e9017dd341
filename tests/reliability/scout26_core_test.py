#!/usr/bin/env python3
"""A scouting pass after the twenty-fourth, on the core (issue #29,
docs/fuzzing.md), each a check that failed before its fix.

    tests/reliability/scout26_core_test.py NSMC SOURCE_DIR CASE

Cases (each under 10 s in the normal build):
  surfacework   a touching chain floor | A (2 kg) | B (1.26 kg, at -1.872
                m/s) | C (1 kg), every contact elastic, the floor at c t,
                under the simultaneous law: refused at c = 0 (the law adds
                energy) but run at c = 1e-300 and 1e-12 m/s with the same
                gain, exit 0 (any moving surface exempted the impact from
                the energy check).  Now refused at every c: the gain allowed
                is bounded by the work the surface can do, |P c|.
  unrelated     the three touching beads of twentysecond_contact_findings_
                simulgain (1, 1.26, 2 kg, e = 1, the middle at 1.872 m/s)
                with a free 1e5 kg mass at 100 m/s elsewhere, or the whole
                row drifting at V = 7000 m/s: the 13.8 % gain ran silently,
                judged against the whole model's kinetic energy.  Now
                refused; two equal elastic beads drifting at 7000 m/s, one
                at V + 1 m/s into the other at rest relative to V, still
                exchange their velocities (by hand: V and V + 1 m/s).
  underflow     a number with a unit whose SI value underflows to 0 (`param
                h = 1e-320 nm`, `init B.v = 1e-320 nm/s`, `t_end = 1e-320
                ns`, `mass B = 1e-320 mg`, `4e-322 mm`) ran with 0 or was refused as "it
                is 0".  Now refused by nsmc as below a double's range, with
                file:line:col, the source line and a caret, nothing written;
                `1e-300 nm` (3e-309 m, subnormal) still compiles.
  section       a section spec's numbers skipped the underflow check:
                `period:0.3:1e-400` and `plane:B.x-1e-400` ran with 0,
                exit 0; blank fields (`period:0.3: `, `period: `) read
                "unexpected end at ''".  Now refused by Python's section()
                (as by the simulator's --section, the same parser), naming
                the number below a double's range or the empty field;
                `period:0.3:1e-300` still runs.
Each input and its outcome is printed.  Exits 1 on the first failure.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passlib import check, main, compiled  # noqa: E402

NSMC = sys.argv[1]


def outcome(m, label, **kw):
    """(result, None) of m.run(**kw), or (None, message) when refused; printed."""
    import nsm
    try:
        r = m.run(**kw)
    except nsm.Error as ex:
        print("  %s -> refused: %s" % (label, str(ex)[:260]))
        return None, str(ex)
    print("  %s -> ran" % label)
    return r, None


def chain_text(name, c):
    """floor | A | B | C touching, e = 1, B at -1.872 m/s, the floor at c t."""
    return ('model %s "a touching chain on a moving floor"\n'
            "param c = %r m/s\n"
            "mass A = 2 kg\nmass B = 1.26 kg\nmass C = 1 kg\n"
            "gap floor: A.x >= c*t, impact(e = 1)\n"
            "gap G1: B.x - A.x >= 0 m, impact(e = 1)\n"
            "gap G2: C.x - B.x >= 0 m, impact(e = 1)\n"
            "init A.x = 0 m, B.x = 0 m, C.x = 0 m, B.v = -1.872 m/s\n"
            "simulate t_end = 0.05 s, dt = 1 ms, impact_law = simultaneous\n"
            "output every 5 ms: A.v, B.v, C.v\n" % (name, c))


def case_surfacework(tmp):
    """A barely moving floor does not exempt the simultaneous law's gain."""
    m = compiled(tmp, "chain", chain_text("chain", 0.0))
    for c in (0.0, 1e-300, 1e-12, 1e-6):
        label = "floor | 2 kg | 1.26 kg at -1.872 m/s | 1 kg, e = 1, floor at c t, c = %r m/s" % c
        r, msg = outcome(m, label, params={"c": c})
        check(msg is not None and "adds energy" in msg and "simultaneous" in msg,
              label + ": refused, naming the energy the simultaneous law adds")


def beads_text(name, masses, v0, extra=""):
    """Touching beads P1.. (masses, speeds v0, all at x = 0), e = 1,
    simultaneous law; extra: more lines."""
    n = len(masses)
    lines = ['model %s "touching beads"' % name]
    lines += ["mass P%d = %r kg" % (i + 1, mm) for i, mm in enumerate(masses)]
    lines += ["gap G%d: P%d.x - P%d.x >= 0 m, impact(e = 1)" % (i + 1, i + 2, i + 1)
              for i in range(n - 1)]
    lines += [extra] if extra else []
    lines += ["init " + ", ".join("P%d.x = 0 m, P%d.v = %r m/s" % (i + 1, i + 1, v0[i])
                                  for i in range(n))]
    lines += ["simulate t_end = 0.05 s, dt = 1 ms, impact_law = simultaneous",
              "output every 5 ms: " + ", ".join("P%d.v" % (i + 1) for i in range(n))]
    return "\n".join(lines) + "\n"


def case_unrelated(tmp):
    """Unrelated kinetic energy does not mask the simultaneous law's gain."""
    masses = [1.0, 1.26, 2.0]
    heavy = "mass H = 100000 kg\ninit H.x = 5 m, H.v = 100 m/s"
    for name, v0, extra, what in (
            ("heavy", [0.0, 1.872, 0.0], heavy, "beside a free 1e5 kg mass at 100 m/s"),
            ("drift", [7000.0, 7001.872, 7000.0], "", "the row drifting at 7000 m/s")):
        m = compiled(tmp, name, beads_text(name, masses, v0, extra))
        label = "beads of 1, 1.26, 2 kg touching, e = 1, the middle at 1.872 m/s, " + what
        r, msg = outcome(m, label)
        check(msg is not None and "adds energy" in msg and "simultaneous" in msg,
              label + ": refused, naming the energy the simultaneous law adds")
    V = 7000.0
    m = compiled(tmp, "pair", beads_text("pair", [1.0, 1.0], [V + 1.0, V]))
    label = "two 1 kg beads touching, e = 1, at %r and %r m/s" % (V + 1.0, V)
    r, msg = outcome(m, label)
    check(msg is None, label + ": runs")
    a, b = r["P1.v"][-1], r["P2.v"][-1]
    print("  %s -> P1.v %.17g, P2.v %.17g (by hand %r, %r)" % (label, a, b, V, V + 1.0))
    check(abs(a - V) <= 1e-9 and abs(b - V - 1.0) <= 1e-9,
          label + ": the velocities exchanged (equal masses, elastic)")


UNDER = '''model u "a free mass"
param h = %s
mass B = %s
init B.x = 1 m, B.v = %s
simulate t_end = %s, dt = 1 ms
output every 1 ms: B.x
'''


def case_underflow(tmp):
    """A literal with a unit whose SI value underflows to 0 is refused."""
    ok = ("1 m", "1 kg", "0 m/s", "1 s")
    for k, (field, val) in enumerate(((0, "1e-320 nm"), (2, "1e-320 nm/s"), (3, "1e-320 ns"),
                                      (1, "1e-320 mg"), (0, "4e-322 mm"))):
        vals = list(ok)
        vals[field] = val
        text = UNDER % tuple(vals)
        src = os.path.join(tmp, "u%d.nsm" % k)
        out = os.path.join(tmp, "u%d.c" % k)
        with open(src, "w") as f:
            f.write(text)
        p = subprocess.run([NSMC, src, "-o", out], capture_output=True, text=True, timeout=30)
        line = text.splitlines().index([ln for ln in text.splitlines() if val in ln][0]) + 1
        col = [ln for ln in text.splitlines() if val in ln][0].index(val) + 1
        print("  %s -> exit %d: %s" % (val, p.returncode, p.stderr.strip()[:300]))
        check(p.returncode != 0 and ("%s:%d:%d: error:" % (src, line, col)) in p.stderr
              and "^" in p.stderr and not os.path.exists(out),
              "%s: refused at %d:%d with a caret, nothing written" % (val, line, col), p)
    vals = list(ok)
    vals[0] = "1e-300 nm"
    src = os.path.join(tmp, "sub.nsm")
    with open(src, "w") as f:
        f.write(UNDER % tuple(vals))
    p = subprocess.run([NSMC, src, "-o", os.path.join(tmp, "sub.c")], capture_output=True,
                       text=True, timeout=30)
    print("  1e-300 nm -> exit %d %s" % (p.returncode, p.stderr.strip()[:200]))
    check(p.returncode == 0, "1e-300 nm (a subnormal 1e-309 m): compiles", p)


BALL = '''model ball "a ball on a floor"
mass B = 1 kg
gravity 9.81 m/s^2
gap floor: B.x >= 0 m, impact(e = 0.9)
init B.x = 1 m
simulate t_end = 1 s, dt = 1 ms
output every 10 ms: B.x
'''


def case_section(tmp):
    """A section spec's number below a double's range, or a blank field, is refused."""
    import nsm
    m = compiled(tmp, "ball", BALL)
    for spec, why in (("period:0.3:1e-400", "below the range"),
                      ("plane:B.x-1e-400", "below the range"),
                      ("plane:B.x-0.5e-330:down", "below the range"),
                      ("period:0.3: ", "is empty"), ("period: ", "is empty"),
                      ("period: \t:0.1", "is empty"), ("plane: ", "is empty")):
        try:
            m.section(spec, t_end=1)
            msg = None
        except nsm.Error as ex:
            msg = str(ex)
        print("  section(%r) -> %s" % (spec, "ran" if msg is None else "refused: " + msg[:200]))
        check(msg is not None and why in msg, "section(%r): refused, '%s'" % (spec, why))
    r = m.section("period:0.3:1e-300", t_end=1)
    print("  section('period:0.3:1e-300') -> ran")
    check(r is not None, "section('period:0.3:1e-300'): runs (1e-300 is a double)")


if __name__ == "__main__":
    sys.exit(main({"surfacework": case_surfacework,
                   "unrelated": case_unrelated,
                   "underflow": case_underflow,
                   "section": case_section},
                  "nsm-scout26-core-", case_arg=3))
