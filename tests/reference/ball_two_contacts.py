"""Reference for ball_two_contacts (Siconos BouncingBallED-TwoContacts).

g = 10, x0 = 1, v0 = +10, e = 0.8 at both stops; floor x >= 0, ceiling
x <= 1.5.  The run goes to 7 s, past the Zeno point (~6.21 s), not to the
5 s of the original example.  The ball hits the ceiling first, at
1 - sqrt(0.9) s (1 + 10 t - 5 t^2 = 1.5), with speed sqrt(90); it ends in a
Zeno cascade on the floor and rests there.
"""
from mpmath import mp, mpf

import onebody
import piecewise as pw

mp.dps = 60

G, X0, V0, E, HI = mpf(10), mpf(1), mpf(10), mpf("0.8"), mpf("1.5")
T_END = mpf(7)


def compute():
    body = onebody.Body(m=1, k=0, g=G, e=E, lo=0, hi=HI)
    rec, info = onebody.run(body, X0, V0, T_END)
    imp = info["impacts"]
    pw.expect(imp[0][1] == "ceiling", "first impact on the ceiling")
    pw.expect(abs(imp[0][0] - (1 - mp.sqrt(mpf("0.9")))) < mpf("1e-45"), "ceiling time")
    pw.expect(abs(imp[0][2] - mp.sqrt(90)) < mpf("1e-45"), "ceiling speed")
    # replay the impacts with the parabola's own roots
    t, x, v = mpf(0), X0, V0
    for n, (ti, c, vi) in enumerate(imp):
        if c == "ceiling":
            # x + v s - g s^2/2 = HI, first root
            s = (v - mp.sqrt(v * v - 2 * G * (HI - x))) / G
        else:
            s = (v + mp.sqrt(v * v + 2 * G * x)) / G
        vin = v - G * s
        pw.expect(abs(t + s - ti) < mpf("1e-40"), "impact %d time" % n)
        pw.expect(abs(vin - vi) < mpf("1e-40"), "impact %d velocity" % n)
        t, x, v = t + s, (HI if c == "ceiling" else 0), -E * vin
    pw.expect(info["zeno"] is not None, "Zeno cascade on the floor")
    pw.expect(info["max_energy_drift"] < mpf("1e-45"), "energy conserved in flight")
    times = pw.grid(0, T_END, "0.05")
    return [("ball_two_contacts", pw.events_text(rec), pw.samples_text(rec, times))], info


if __name__ == "__main__":
    out, info = compute()
    pw.main(out)
