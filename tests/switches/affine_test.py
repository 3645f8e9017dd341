#!/usr/bin/env python3
"""Time switches whose function is affine in t (nsm/model.h's
switch_affine): which forms nsmc marks, and that the mark changes nothing
a run computes.

  marks   nsmc marks a switch function a + b t (sums and products of t and
          of terms free of t: `t <= 1 s`, `t/T > 1`, `sqrt(T*T) * t > ...`)
          and no other (`t*t/T`, `sin(w*t)`, `abs(t - T)`, `exp(t/T)`; in
          a nested condition, each switch on its own)
  same    the marked switches' runs by exact, rk4 and adaptive give the same
          bytes (trajectory, events, summary) as the same simulator with
          the mark taken out of its model table: the mark only skips tests
          that an affine function always passes (run.c, switch_reach;
          state.c, rt_switch_followed)
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from simbuild import sim_parser  # noqa: E402

MODEL = '''model m "a mass pushed while a condition on t holds"
param w = 300 rad/s
param T = 0.5 s
mass P = 1 kg
spring P -- ground, k = 40 N/m
force on P = FORCE
init P.x = 0.01 m
simulate t_end = 2 s
output every 1 ms: P.x, P.v
'''

# (the force, the marks expected: None when no switch is affine)
FORMS = [
    ("if t <= 1 s then 1 N else 0 N", [1]),
    ("if t/T > 1 then 1 N else 0 N", [1]),
    ("if 2*t - T > 0 s then 1 N else 0 N", [1]),
    ("if sqrt(T*T) * t > 0.5 s*s then 1 N else 0 N", [1]),
    ("if t*t/T > 1 s then 1 N else 0 N", None),
    ("if sin(w*t) > 0.5 then 1 N else 0 N", None),
    ("if abs(t - T) > 0.25 s then 1 N else 0 N", None),
    ("if exp(t/T) > 2 then 1 N else 0 N", None),
    ("if t > T then (if sin(w*t) > 0 then 1 N else 0 N) else 0 N", [1, 0]),
]

failures = 0


def check(ok, what):
    """Print and count one check."""
    global failures
    print(("ok: " if ok else "FAIL: ") + what)
    failures += 0 if ok else 1


def marks(c_text):
    """The switch_affine flags nsmc wrote into a model's C, or None."""
    m = re.search(r"switch_affine\[\d+\] = \{([^}]*)\}", c_text)
    return [int(x) for x in m.group(1).split(",")] if m else None


def compile_c(args, c, exe):
    """Build the simulator exe from the C file c."""
    subprocess.run([args.cc] + args.cflags.split() + [c, "-I", args.include]
                   + args.lib.split(os.pathsep) + ["-lm", "-o", exe], check=True)


def run_bytes(exe, method, work):
    """The trajectory, event log and summary of exe's run by method."""
    out, ev = os.path.join(work, "o.csv"), os.path.join(work, "e.csv")
    p = subprocess.run([exe, "--method", method, "--out", out, "--events", ev, "--summary"],
                       capture_output=True, text=True)
    summary = p.stderr.replace(os.path.basename(exe) + ":", "SIM:")
    return p.returncode, open(out).read(), open(ev).read(), summary


def main():
    ap = sim_parser(__doc__)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="nsm-affine-") as work:
        for i, (force, want) in enumerate(FORMS):
            src = os.path.join(work, "m%d.nsm" % i)
            c = os.path.join(work, "m%d.c" % i)
            with open(src, "w") as f:
                f.write(MODEL.replace("FORCE", force))
            subprocess.run([args.nsmc, src, "-o", c], check=True)
            text = open(c).read()
            got = marks(text)
            check(got == want, "force = %s: marks %s (expected %s)" % (force, got, want))
            if not got or not any(got):
                continue
            # the same C with the mark taken out of the model table
            plain = text.replace("    .switch_affine = switch_affine,\n", "")
            check(plain != text, "force = %s: the mark is in the model table" % force)
            cp = os.path.join(work, "p%d.c" % i)
            with open(cp, "w") as f:
                f.write(plain)
            ea, ep = os.path.join(work, "a%d" % i), os.path.join(work, "p%d" % i)
            compile_c(args, c, ea)
            compile_c(args, cp, ep)
            for method in ("exact", "rk4", "adaptive"):
                a, p = run_bytes(ea, method, work), run_bytes(ep, method, work)
                check(a == p and a[0] == 0, "force = %s, %s: the same run with and without the "
                      "mark (exit %d, %d events)" % (force, method, a[0], a[2].count("\n") - 1))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
