"""Reference for belt_friction: a mass on a spring riding a moving belt.

m = 1, k = 1, N = 10, v_b = 3, mu_s = 0.5, mu_k = 0.3, from rest at x = 0.
Slipping backwards the mass oscillates about mu_k N / k = 3; released from
rest its speed peaks at 3 = v_b at t = pi/2, x = 3, where it sticks (k x = 3 <
mu_s N = 5).  Stuck, it rides the belt until k x = mu_s N, x = 5, then slips
on the circle (x - 3)^2 + v^2 = 13 until v = v_b again at x = 1, sticks, and
so on: a limit cycle of period 4/3 (stuck from x = 1 to 5) plus
2 pi - 2 atan(2/3) (slipping).

Independent check: those closed forms for every event time and place.
"""
from mpmath import mp, mpf

import friction as fr
import piecewise as pw

mp.dps = 60
T_END = mpf(20)


def compute():
    s = fr.System([1], [[1]], [dict(name="F", w=[1], c=3, N=10, mus="0.5", muk="0.3")])
    s.names = ["M"]
    rec, log = fr.run(s, [0], [0], T_END)
    slip = 2 * mp.pi - 2 * mp.atan(mpf(2) / 3)
    t = mp.pi / 2
    expect = [(t, "stick", 3)]
    t += mpf(2) / 3
    while t < T_END:
        expect.append((t, "slip", 5))
        t += slip
        if t >= T_END:
            break
        expect.append((t, "stick", 1))
        t += mpf(4) / 3
    pw.expect(len(log) == len(expect), "event count of the limit cycle")
    for (t, k, what, state, Y), (te, kind, xe) in zip(log, expect):
        pw.expect(abs(t - te) < mpf("1e-40"), "%s at t = %s" % (kind, mp.nstr(te, 15)))
        pw.expect(abs(Y[0] - xe) < mpf("1e-40"), "%s at x = %s" % (kind, xe))
        pw.expect((state[0] == 0) == (kind == "stick"), "state after %s" % kind)
    times = pw.grid(0, T_END, "0.01")
    return [("belt_friction", pw.events_text(rec), pw.samples_text(rec, times))]


if __name__ == "__main__":
    pw.main(compute())
