#!/usr/bin/env python3
"""The summary's work per coordinate and per `force` statement in a model
written by its energies whose forces depend on the state
(tests/lagrange/work_split.nsm: a cubic force -a C^3 on the cart, a torque
-b sin(th) on the pendulum), against closed forms.

Each force is the gradient of a potential, so its work from 0 to t is
-(a/4) (C(t)^4 - C(0)^4) and b (cos th(t) - cos th(0)), whatever the
motion: the closed forms are evaluated at the simulator's final state (the
trajectory's last row, 12 digits).  The audit splits the integrated work
per step by a quadrature of F . v on the step's cubic Hermite interpolant,
the shares then scaled to add up to the integrated work: exact up to the
interpolant over short steps (rk4, adaptive: to the summary's 9 digits),
an estimate over taylor's long steps (3.4e-6 relative here).  Before, the
state-dependent forces' work was all 'other' and the lines 0.

usage: check_split.py --nsmc NSMC --include DIR --lib A:B:.. [--cc CC]
                      [--cflags="FLAGS"] --method rk4|adaptive|taylor
"""
import math
import os
import re
import tempfile

import lagcheck as lc
from lagcheck import check

A, B, C0, TH0 = 30.0, 0.4, 0.3, 0.8
# method: (simulator options, relative tolerance of the split)
TOL = {"adaptive": (["--rtol", "1e-12", "--atol", "1e-14"], 1e-8),
       "rk4": (["--dt", "1e-3"], 1e-8),
       "taylor": ([], 1e-5)}


def line(text, label):
    """The value of the summary's line LABEL (NAN when absent)."""
    m = re.search(r"\n\s+%s\s+(\S+) J" % re.escape(label), text)
    return float(m.group(1)) if m else float("nan")


def main():
    a = lc.arguments(TOL)
    opts, tol = TOL[a.method]
    with tempfile.TemporaryDirectory() as work:
        exe = lc.build(a, work, os.path.join(lc.HERE, "work_split.nsm"))
        out = os.path.join(work, "out.csv")
        summary = lc.run(exe, ["--method", a.method, "--out", out] + opts)
        last = lc.floats(lc.read(out))[-1]
    wc = -A / 4 * (last["C.x"] ** 4 - C0 ** 4)
    wt = B * (math.cos(last["th.phi"]) - math.cos(TH0))
    scale = abs(wc) + abs(wt)
    for label, want in (("on C", wc), ("by cubic", wc), ("on th", wt), ("by twist", wt)):
        got = line(summary, label)
        check(abs(got - want) <= tol * scale, "%s %.9g J (closed form %.12g J, error %.3g)"
              % (label, got, want, got - want))
    check(abs(line(summary, "injected") - wc - wt) <= 1e-8 * scale,
          "injected %.9g J (closed form %.12g J)" % (line(summary, "injected"), wc + wt))
    lc.finish()


if __name__ == "__main__":
    main()
