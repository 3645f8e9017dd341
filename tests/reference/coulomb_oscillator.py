"""Reference for coulomb_oscillator: x'' + x in -sign(x'), x0 = 12, v0 = 6.

m = k = 1, mu N = 1 (mu_s = mu_k).  Slipping with sign s the mass oscillates
about -s; each half period pi its turning point's distance from the origin
drops by 2, and it sticks at the first turning point inside |x| <= 1.

Independent check: the first turning point is at atan(6/13), where
x = sqrt(205) - 1; the j-th is at atan(6/13) + j pi with
x_j = (-1)^j (sqrt(205) - 1 - 2 j); the mass reverses while |x_j| > 1 and
sticks at j = 7 (x_7 = 15 - sqrt(205)).
"""
from mpmath import mp, mpf

import friction as fr
import piecewise as pw

mp.dps = 60
T_END = mpf(30)


def compute():
    s = fr.System([1], [[1]], [dict(name="F", w=[1], N=1, mus=1, muk=1)])
    s.names = ["M"]
    rec, log = fr.run(s, [12], [6], T_END)
    t1 = mp.atan(mpf(6) / 13)
    pw.expect(len(log) == 8, "seven reversals and a stick")
    for j, (t, k, what, state, Y) in enumerate(log):
        xj = (-1) ** j * (mp.sqrt(205) - 1 - 2 * j)
        pw.expect(abs(t - (t1 + j * mp.pi)) < mpf("1e-40"), "turning point %d at its time" % j)
        pw.expect(abs(Y[0] - xj) < mpf("1e-40"), "turning point %d at its place" % j)
        pw.expect((state[0] == 0) == (abs(xj) <= 1), "sticks exactly inside |x| <= 1")
    times = pw.grid(0, T_END, "0.01")
    return [("coulomb_oscillator", pw.events_text(rec), pw.samples_text(rec, times))]


if __name__ == "__main__":
    pw.main(compute())
