"""Reference for a disc on an incline of angle alpha = 30 degrees (the wall
through the origin with unit normal n = (sin a, cos a), descending towards
+x along t = (cos a, -sin a)); m = 1, R = 0.1, th = 2/5 m R^2, g = 9.81.

- incline_drop, frictionless, e_N = 0.5: dropped at rest from (0, 1); the
  first impact at t1 = sqrt(2 (1 - R / cos a) / g); in the incline's frame
  the normal motion is a ball bouncing under g cos a, whose impacts
  accumulate at t1 (1 + e) / (1 - e), and the tangential one is uniformly
  accelerated by g sin a throughout (no impulse along t without friction):
  v.t = g sin a t, then the disc slides down without turning (omega = 0).
- incline_roll, mu = 0.2 >= 2/7 tan a: placed on the incline with 1 m/s down
  the slope and no spin, the disc slides (slip gamma = v.t + R omega > 0,
  gamma' = g sin a - mu g cos a (1 + m R^2 / th) < 0) until gamma = 0 at
  1 / |gamma'|, then rolls with acceleration 5/7 g sin a (rolling needs the
  friction 2/7 m g sin a <= mu m g cos a).
- incline_slide, mu = 0.1 < 2/7 tan a: gamma' > 0, the disc slides forever,
  v.t = 1 + (g sin a - mu g cos a) t, omega = -mu m g cos a R t / th.
"""
from mpmath import mp, mpf

import piecewise as pw
import planar

M, R, G = mpf(1), mpf("0.1"), mpf("9.81")
TH = mpf(2) / 5 * M * R ** 2
A = mp.pi / 6
N = (mp.sin(A), mp.cos(A))
T = (mp.cos(A), -mp.sin(A))
T_END = mpf(2)

CASES = {
    "incline_drop": dict(q0=(0, 1, 0), u0=(0, 0, 0), e=mpf("0.5"), mu=mpf(0)),
    "incline_roll": dict(q0=(R * N[0], R * N[1], 0), u0=(T[0], T[1], 0), e=mpf(0), mu=mpf("0.2")),
    "incline_slide": dict(q0=(R * N[0], R * N[1], 0), u0=(T[0], T[1], 0), e=mpf(0), mu=mpf("0.1")),
}


def run(name):
    c = CASES[name]
    wall = planar.Wall("slope", N, (0, 0), c["e"], c["mu"])
    d = planar.Disc(M, R, TH, (0, -G), [wall])
    return planar.Run(d, c["q0"], c["u0"], T_END, on=wall if c["e"] == 0 else None)


def compute():
    out = []
    for name, c in CASES.items():
        r = run(name)
        gs, gc = G * mp.sin(A), G * mp.cos(A)
        mu = c["mu"]
        if name == "incline_drop":
            t1 = mp.sqrt(2 * (1 - R / mp.cos(A)) / G)
            pw.expect(abs(r.impacts[0][0] - t1) < mpf("1e-40"), "drop: first impact at t1")
            e = c["e"]
            for n, imp in enumerate(r.impacts):
                tn = t1 * (1 + 2 * e * (1 - e ** n) / (1 - e))
                pw.expect(abs(imp[0] - tn) < mpf("1e-40"), "drop: impact %d" % n)
                ua = imp[7]
                pw.expect(abs(planar.dot(T, ua[:2]) - gs * imp[0]) < mpf("1e-40"),
                          "drop: v.t = g sin a t across impact %d" % n)
            zeno = [ev for ev in r.events if ev[1] == "zeno"]
            pw.expect(len(zeno) == 1 and abs(zeno[0][0] - t1 * (1 + e) / (1 - e)) < mpf("1e-40"),
                      "drop: accumulation at t1 (1 + e)/(1 - e)")
            q, u = r.state(T_END)
            pw.expect(abs(planar.dot(T, u[:2]) - gs * T_END) < mpf("1e-40") and u[2] == 0,
                      "drop: sliding at g sin a t without spin at t_end")
        if name == "incline_roll":
            gdot = gs - mu * gc * (1 + M * R ** 2 / TH)
            pw.expect(gdot < 0 and mu >= mpf(2) / 7 * mp.tan(A), "roll: mu allows rolling")
            tr = -1 / gdot
            pw.expect(len(r.rolling) == 1 and abs(r.rolling[0][0] - tr) < mpf("1e-40"),
                      "roll: rolling from 1/|gamma'|")
            vr = 1 + (gs - mu * gc) * tr
            pw.expect(abs(planar.dot(T, r.rolling[0][2][:2]) - vr) < mpf("1e-40"), "roll: speed at the start of rolling")
            q, u = r.state(T_END)
            pw.expect(abs(planar.dot(T, u[:2]) - (vr + mpf(5) / 7 * gs * (T_END - tr))) < mpf("1e-40"),
                      "roll: acceleration 5/7 g sin a while rolling")
        if name == "incline_slide":
            pw.expect(mu < mpf(2) / 7 * mp.tan(A) and not r.rolling, "slide: never rolls")
            q, u = r.state(T_END)
            pw.expect(abs(planar.dot(T, u[:2]) - (1 + (gs - mu * gc) * T_END)) < mpf("1e-40") and
                      abs(u[2] + mu * M * gc * R * T_END / TH) < mpf("1e-40"), "slide: closed form at t_end")
        times = pw.grid(0, T_END, "0.01")
        planar.check_samples(r, times)
        out.append((name, planar.events_text(r), planar.samples_text(r, times)))
    return out


if __name__ == "__main__":
    pw.main(compute())
