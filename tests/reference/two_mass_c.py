"""Reference for two_mass_c (Dedow & Murphy, plastic collision), e = 0.

u1 = -1, u2 = 2 at rest.  At every plastic impact the masses stick only if
the stuck-mode contact force F = -u/2 is compressive, i.e. if they meet at
u < 0; otherwise they stay free with zero relative velocity and the gap
reopens at once.
"""
import sys

from mpmath import mp, mpf

import piecewise as pw
import twomass


def compute():
    out, log = twomass.compute("two_mass_c", [-1, 0, 2, 0], 0)
    # first impact from the textbook free responses u = U0 e^(-a t)(cos wd t + a/wd sin wd t)
    a = twomass.C1 / (2 * twomass.M1)
    w1 = mp.sqrt(twomass.K1 / twomass.M1 - a * a)
    w2 = mp.sqrt(twomass.K2 / twomass.M2 - a * a)
    resp = lambda U0, w, t: U0 * mp.exp(-a * t) * (mp.cos(w * t) + a / w * mp.sin(w * t))
    t1 = mp.findroot(lambda t: resp(2, w2, t) - resp(-1, w1, t), mpf("3.57"))
    pw.expect(abs(log[0][0] - t1) < mpf("1e-45"), "first impact time")
    for t, kind, d in log:
        if kind in ("stick", "plastic_free"):
            # F = (k2 m1 - k1 m2) u/(m1 + m2) for these parameters (c2 m1 = c1 m2)
            pw.expect((kind == "stick") == (d["F"] > 0), "stick only with compressive force")
    return [out], log


if __name__ == "__main__":
    out, log = compute()
    if "-v" in sys.argv:
        print("\n".join(twomass.describe(log)))
    pw.main(out)
