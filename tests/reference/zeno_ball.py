"""Reference for zeno_ball: a ball dropped from h = 1 m onto a rigid floor, e = 0.5.

Impacts at t1 = sqrt(2h/g), t1 + 2 e t1, ...; they accumulate at
t* = t1 (1 + e)/(1 - e), after which the ball rests on the floor (force m g).
The impacts are located on the closed-form flights and checked against these
formulas.
"""
from mpmath import mp, mpf

import onebody
import piecewise as pw

mp.dps = 60

H, G, E = mpf(1), mpf("9.81"), mpf("0.5")
T_END = mpf(2)


def compute():
    body = onebody.Body(m=1, k=0, g=G, e=E, lo=0)
    rec, info = onebody.run(body, H, 0, T_END)
    t1 = mp.sqrt(2 * H / G)
    tstar = t1 * (1 + E) / (1 - E)
    # closed forms: impact n at t1 (1 + 2 (e + ... + e^(n-1)))
    for n, (t, _, v) in enumerate(info["impacts"]):
        tn = t1 * (1 + 2 * E * (1 - E ** n) / (1 - E))
        pw.expect(abs(t - tn) < mpf("1e-45"), "impact %d time" % n)
        pw.expect(abs(v + G * t1 * E ** n) < mpf("1e-40"), "impact %d velocity" % n)
    ts, count = info["zeno"]
    pw.expect(abs(ts - tstar) < mpf("1e-45"), "accumulation point t1 (1+e)/(1-e)")
    pw.expect(info["max_energy_drift"] < mpf("1e-45"), "energy conserved in flight")
    times = pw.grid(0, T_END, "0.05")
    return [("zeno_ball", pw.events_text(rec), pw.samples_text(rec, times))], count


if __name__ == "__main__":
    out, count = compute()
    pw.main(out)
