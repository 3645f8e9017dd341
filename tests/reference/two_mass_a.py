"""Reference for two_mass_a (Dedow & Murphy, masses start together), e = 0.9.

u1 = u2 = -1 m at rest: stuck, F = (k2 m1 - k1 m2) u/(m1 + m2) = -u/2 > 0.
Separation when u returns to 0, at (pi - atan(wd/zeta_wn))/wd (checked),
then free flight until the impact near 11.83 s, and what follows to 20 s.
"""
from mpmath import mp, mpf

import piecewise as pw
import twomass


def compute():
    out, log = twomass.compute("two_mass_a", [-1, 0, -1, 0], "0.9")
    sep = [t for t, k, _ in log if k == "separation"][0]
    a = (twomass.C1 + twomass.C2) / (2 * twomass.MT)
    wd = mp.sqrt((twomass.K1 + twomass.K2) / twomass.MT - a * a)
    pw.expect(abs(sep - (mp.pi - mp.atan(wd / a)) / wd) < mpf("1e-45"), "separation time")
    return [out], log


if __name__ == "__main__":
    out, log = compute()
    if "-v" in __import__("sys").argv:
        print("\n".join(twomass.describe(log)))
    pw.main(out)
