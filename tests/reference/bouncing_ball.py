"""Reference for bouncing_ball (Siconos BouncingBallED): m = 1, g = 9.81, x0 = 1, v0 = 0, e = 0.9.

Rigid floor x >= 0.  Impact n (n = 0, 1, ...) at t1 (1 + 2 (e + ... + e^n)),
t1 = sqrt(2 x0/g); accumulation at t* = t1 (1 + e)/(1 - e) ~ 8.58 s, then rest
on the floor with force m g.  Run to 10 s.
"""
from mpmath import mp, mpf

import onebody
import piecewise as pw

mp.dps = 60

M, G, X0, E = mpf(1), mpf("9.81"), mpf(1), mpf("0.9")
T_END = mpf(10)


def compute():
    body = onebody.Body(m=M, k=0, g=G, e=E, lo=0)
    rec, info = onebody.run(body, X0, 0, T_END)
    t1 = mp.sqrt(2 * X0 / G)
    for n, (t, _, v) in enumerate(info["impacts"]):
        tn = t1 * (1 + 2 * E * (1 - E ** n) / (1 - E))
        pw.expect(abs(t - tn) < mpf("1e-45"), "impact %d time" % n)
        pw.expect(abs(v + G * t1 * E ** n) < mpf("1e-40"), "impact %d velocity" % n)
    ts, count = info["zeno"]
    pw.expect(abs(ts - t1 * (1 + E) / (1 - E)) < mpf("1e-45"), "accumulation point")
    pw.expect(info["max_energy_drift"] < mpf("1e-45"), "energy conserved in flight")
    times = pw.grid(0, T_END, "0.05")
    return [("bouncing_ball", pw.events_text(rec), pw.samples_text(rec, times))], count


if __name__ == "__main__":
    out, count = compute()
    pw.main(out)
