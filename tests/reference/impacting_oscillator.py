"""Reference for impacting_oscillator (Siconos LinearOscillatorED).

m = 1e-3 kg on a spring k = 100 N/m under gravity g = 9.81, rigid floor x >= 0,
e = 0.9, x0 = 1 m, v0 = 0.  Assumption: the spring is relaxed at x = 0, so the
static equilibrium x = -m g/k = -9.81e-5 m lies below the floor.

Independent check: with d = m g/k and w = sqrt(k/m), a flight leaving the floor
with speed u lasts (2/w) atan(u/(w d)); energy is conserved in flight, so the
n-th impact speed is e^(n-1) V with V^2 = (k x0^2 + 2 m g x0)/m, the first impact
is at acos(d/(x0 + d))/w, and the Zeno point is the sum of the flight series.
"""
from mpmath import mp, mpf

import onebody
import piecewise as pw

mp.dps = 60

M, K, G, E, X0 = mpf("1e-3"), mpf(100), mpf("9.81"), mpf("0.9"), mpf(1)
T_END = mpf("1.5")


def compute():
    body = onebody.Body(m=M, k=K, g=G, e=E, lo=0)
    rec, info = onebody.run(body, X0, 0, T_END, name="M", zeno_tau=mpf("1e-24"))
    w = mp.sqrt(K / M)
    d = M * G / K
    V = mp.sqrt((K * X0 ** 2 + 2 * M * G * X0) / M)
    t = mp.acos(d / (X0 + d)) / w
    for n, (ti, _, v) in enumerate(info["impacts"]):
        pw.expect(abs(ti - t) < mpf("1e-32"), "impact %d time" % n)
        pw.expect(abs(v + V * E ** n) < mpf("1e-32"), "impact %d speed" % n)
        t += 2 / w * mp.atan(E ** (n + 1) * V / (w * d))
    ts, count = info["zeno"]
    n = len(info["impacts"])
    while True:
        dt = 2 / w * mp.atan(E ** (n + 1) * V / (w * d))
        t += dt
        n += 1
        if dt < mpf("1e-58"):
            break
    pw.expect(abs(ts - t) < mpf("1e-32"), "accumulation point = flight series")
    pw.expect(info["max_energy_drift"] < mpf("1e-40"), "energy conserved in flight")
    times = pw.grid(0, T_END, "0.01")
    return [("impacting_oscillator", pw.events_text(rec), pw.samples_text(rec, times))], count


if __name__ == "__main__":
    out, count = compute()
    pw.main(out)
