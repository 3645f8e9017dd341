"""Reference for a spinning disc thrown into a corner, the floor y = 0 and
the wall x = L (L = 1), both with Newton's law e_N = 0.5 and Coulomb friction
mu = 0.2 (e_T = 0): m = 1, R = 0.1, th = 2/5 m R^2, g = 9.81, from
(0.4, 1.32625, 0) with u = (1, 0, 20).  The disc meets the floor and the
wall at t1 = 0.5 s together (y - R = g t1^2 / 2, x + v t1 = L - R), with
v- = (1, -4.905) and omega- = 20: one impact of two contacts with friction.

By hand, the floor's slip gamma_F = vx + R omega (3 m/s before) sticks and
the wall's, gamma_W = vy + R omega, slides with P_TW = -mu P_NW: Newton at
both contacts, vy+ = -e vy- and vx+ = -e vx-, with
    vy+ = vy- + P_NF + P_TW,   vx+ = vx- - P_NW + P_TF,
    omega+ = omega- + R (P_TF + P_TW) / th,   vx+ + R omega+ = 0
give P_NW = 9/8, P_TF = -3/8, P_TW = -9/40, P_NF = 1.5 * 4.905 + 9/40
(= 7.5825), so u+ = (-1/2, 2.4525, 5): the floor's impulse within its cone
(3/8 <= mu P_NF) and the wall's slip after, 2.4525 + 0.5 = 2.9525 > 0, on
the side P_TW opposes.  The disc then bounces on the floor rolling away
from the wall (its slip zero, so no later impact has a tangential impulse),
the bounces accumulating at t1 + 2 e vy+ / (g (1 - e)) ... = 1.5 s.
planar.py computes the whole motion by its case analysis; this script
checks it against these formulas.
"""
from mpmath import mpf

import piecewise as pw
import planar

M, R, G, MU, E, L = mpf(1), mpf("0.1"), mpf("9.81"), mpf("0.2"), mpf("0.5"), mpf(1)
TH = mpf(2) / 5 * M * R ** 2
T_END = mpf(3)


def run():
    floor = planar.Wall("floor", (0, 1), (0, 0), E, MU)
    wall = planar.Wall("right", (-1, 0), (L, 0), E, MU)
    d = planar.Disc(M, R, TH, (0, -G), [floor, wall])
    return planar.Run(d, (mpf("0.4"), mpf("1.32625"), 0), (1, 0, 20), T_END)


def compute():
    r = run()
    t, w, vn, PN, PT, stuck, ub, ua = r.impacts[0]
    t2, w2, vn2, PN2, PT2, stuck2, ub2, ua2 = r.impacts[1]
    pw.expect(t == mpf("0.5") and t2 == t and w.name == "floor" and w2.name == "right",
              "floor and wall hit together at t1 = 0.5 s")
    pw.expect(abs(PN2 - mpf(9) / 8) < mpf("1e-40") and abs(PT + mpf(3) / 8) < mpf("1e-40") and
              abs(PT2 + mpf(9) / 40) < mpf("1e-40") and abs(PN - (mpf("1.5") * mpf("4.905") + mpf(9) / 40)) < mpf("1e-40"),
              "the corner impact's impulses by hand")
    pw.expect(stuck and not stuck2, "the floor sticks, the wall slides")
    pw.expect(max(abs(a - b) for a, b in zip(ua, (mpf("-0.5"), mpf("2.4525"), 5))) < mpf("1e-40"),
              "u+ = (-1/2, 2.4525, 5)")
    zeno = [ev for ev in r.events if ev[1] == "zeno"]
    t1 = mpf("0.5")
    pw.expect(len(zeno) == 1 and abs(zeno[0][0] - (t1 + 2 * mpf("2.4525") / (G * (1 - E)))) < mpf("1e-40"),
              "the bounces after accumulate at t1 + 2 vy+ / (g (1 - e))")
    times = pw.grid(0, T_END, "0.01")
    planar.check_samples(r, times)
    return [("disc_corner", planar.events_text(r), planar.samples_text(r, times))]


if __name__ == "__main__":
    pw.main(compute())
