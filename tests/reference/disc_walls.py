"""Reference for a spinning disc bouncing between two vertical walls, without
gravity: m = 1, R = 0.1, th = 2/5 m R^2, walls x = -L and x = L (L = 0.5,
unit normals (1, 0) and (-1, 0)), e_N = 0.8, from (0, 0, 0) with
u = (2, 0, 30).

- walls_frictionless: the spin and vy never change; the impacts come at
  t1 = (L - R) / v0 and t_{k+1} = t_k + 2 (L - R) / (e^k v0).
- walls_friction, mu = 0.2, e_T = 0: the first impact (right wall, slip
  gamma = vy + R omega = 3 m/s, P_N = (1 + e) m v0 = 3.6 N s) cannot stop the
  slip (W gamma = 3/3.5 > mu P_N = 0.72): vy+ = -0.72 m/s,
  omega+ = 30 - R 0.72 / th = 12 rad/s; then the disc drifts along y and the
  later impacts alternate between sliding and sticking.  Every impulse acts at
  the contact point: the angular momentum about it, th omega + m R (n_x vy -
  n_y vx), is the same before and after each impact, and no impact adds
  kinetic energy.
"""
from mpmath import mp, mpf

import piecewise as pw
import planar

M, R, L = mpf(1), mpf("0.1"), mpf("0.5")
TH = mpf(2) / 5 * M * R ** 2
E, V0, W0 = mpf("0.8"), mpf(2), mpf(30)
T_END = mpf(3)

CASES = {"walls_frictionless": mpf(0), "walls_friction": mpf("0.2")}


def run(mu):
    left = planar.Wall("left", (1, 0), (-L, 0), E, mu)
    right = planar.Wall("right", (-1, 0), (L, 0), E, mu)
    d = planar.Disc(M, R, TH, (0, 0), [left, right])
    return planar.Run(d, (0, 0, 0), (V0, 0, W0), T_END)


def kinetic(u):
    return M * (u[0] ** 2 + u[1] ** 2) / 2 + TH * u[2] ** 2 / 2


def compute():
    out = []
    for name, mu in CASES.items():
        r = run(mu)
        for t, w, vn, PN, PT, stuck, ub, ua in r.impacts:
            lc = lambda u: TH * u[2] + M * R * (w.n[0] * u[1] - w.n[1] * u[0])
            pw.expect(abs(lc(ua) - lc(ub)) < mpf("1e-40"), "%s: angular momentum about the contact point" % name)
            pw.expect(kinetic(ua) <= kinetic(ub) + mpf("1e-40"), "%s: no impact adds energy" % name)
        if mu == 0:
            t = (L - R) / V0
            for k, imp in enumerate(r.impacts):
                pw.expect(abs(imp[0] - t) < mpf("1e-40") and imp[7][1] == 0 and imp[7][2] == W0,
                          "frictionless: impact %d at its closed-form time, spin kept" % k)
                pw.expect(imp[1].name == ("right" if k % 2 == 0 else "left"), "frictionless: walls alternate")
                t += 2 * (L - R) / (E ** (k + 1) * V0)
        else:
            t, w, vn, PN, PT, stuck, ub, ua = r.impacts[0]
            pw.expect(w.name == "right" and not stuck and abs(ua[1] + mpf("0.72")) < mpf("1e-40") and
                      abs(ua[2] - 12) < mpf("1e-40"), "friction: the first impact slides, vy+ = -0.72, omega+ = 12")
            kinds = [imp[5] for imp in r.impacts]
            pw.expect(True in kinds and False in kinds, "friction: both sliding and sticking impacts")
        times = pw.grid(0, T_END, "0.01")
        planar.check_samples(r, times)
        out.append((name, planar.events_text(r), planar.samples_text(r, times)))
    return out


if __name__ == "__main__":
    pw.main(compute())
