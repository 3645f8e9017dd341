"""Reference for e1_thousand: a ball with e = 1 on a rigid floor, h = 1 m, g = 9.81.

Impact n (n = 1, 2, ...) at exactly (2n - 1) t1, t1 = sqrt(2h/g), each with
speed sqrt(2 g h); the energy stays m g h.  The run ends at 903 s, between the
1000th impact (1999 t1 ~ 902.6 s) and the 1001st (2001 t1 ~ 903.5 s).
"""
from mpmath import mp, mpf

import onebody
import piecewise as pw

mp.dps = 50

H, G = mpf(1), mpf("9.81")
T_END = mpf(903)


def compute():
    body = onebody.Body(m=1, k=0, g=G, e=1, lo=0, h=mpf("0.1"))
    rec, info = onebody.run(body, H, 0, T_END)
    t1 = mp.sqrt(2 * H / G)
    imp = info["impacts"]
    pw.expect(len(imp) == 1000, "1000 impacts")
    for n, (t, _, v) in enumerate(imp, 1):
        pw.expect(abs(t - (2 * n - 1) * t1) < mpf("1e-35"), "impact %d periodic" % n)
        pw.expect(abs(v * v / 2 - G * H) < mpf("1e-35"), "impact %d energy m g h" % n)
    pw.expect(info["max_energy_drift"] < mpf("1e-35"), "energy conserved in flight")
    x, v = rec.state(T_END)
    pw.expect(abs(v * v / 2 + G * x - G * H) < mpf("1e-35"), "final energy m g h")
    times = pw.grid(0, T_END, 1)
    return [("e1_thousand", pw.events_text(rec), pw.samples_text(rec, times))]


if __name__ == "__main__":
    pw.main(compute())
