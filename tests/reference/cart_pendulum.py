"""Reference for a cart carrying a pendulum against a stop (the mass matrix
depends on the configuration; tests/lagrange/cart_pendulum.nsm): cart mass
M = 2 kg on a frictionless line (position x), a bob m = 0.5 kg on a massless
rod l = 0.4 m (angle th from the downward vertical), g = 9.81 m/s^2, the
stop at x = d = 0.3 m with Newton restitution e = 0.8, from x = 0,
x' = 0.2 m/s, th = 1.2 rad, th' = 0, up to t = 3 s.

Equations written by hand (Lagrange, T = 1/2 (M + m) x'^2 +
m l cos th x' th' + 1/2 m l^2 th'^2, V = -m g l cos th):

  [M + m       m l cos th] [x'' ]   [m l th'^2 sin th]
  [m l cos th  m l^2     ] [th''] = [-m g l sin th   ]

integrated by mp.odefun (Taylor series, 30 digits) between impacts; an
impact is the first zero of d - x on the solution with x' > 0, bracketed on
a 1 ms grid and located by bisection.  The impact law with M(q), by hand:
the gap's row is W = (-1, 0), the impulse P W^T with
P = -(1 + e) W v- / (W M^-1 W^T), so that

  x'+ = -e x'-,   th'+ = th'- + (1 + e) x'- cos(th) / l.

Self-checks: between impacts the energy T + V and the horizontal momentum
(M + m) x' + m l cos th th' are constant (to 1e-20); at each impact the
kinetic energy falls by 1/2 (1 - e^2) (W v-)^2 / (W M^-1 W^T) and the
momentum by P (both recomputed from the states), and the bob's velocity
along the rod's normal seen from the cart is unchanged by the impact
relative to the cart's jump (th'+ - th'- = -(x'+ - x'-) cos th / l).

data/cart_pendulum.events.csv: t,kind,contact,x,th,xd-,thd-,xd+,thd+ per
impact; data/cart_pendulum.samples.csv: t,C.x,th.phi,C.v,th.omega every
0.1 s (the state after an impact at that instant).
"""
from mpmath import mp, mpf

import piecewise as pw

mp.dps = 30
MC, MB, L, G = mpf(2), mpf("0.5"), mpf("0.4"), mpf("9.81")
D, E = mpf("0.3"), mpf("0.8")
T_END = mpf(3)
Y0 = [mpf(0), mpf("1.2"), mpf("0.2"), mpf(0)]   # x, th, x', th'
GRID = mpf("0.001")


def accel(y):
    """(x'', th'') from the hand-written Euler-Lagrange equations."""
    x, th, xd, thd = y
    a11, a12, a22 = MC + MB, MB * L * mp.cos(th), MB * L ** 2
    b1, b2 = MB * L * thd ** 2 * mp.sin(th), -MB * G * L * mp.sin(th)
    det = a11 * a22 - a12 ** 2
    return (a22 * b1 - a12 * b2) / det, (a11 * b2 - a12 * b1) / det


def rhs(t, y):
    xdd, thdd = accel(y)
    return [y[2], y[3], xdd, thdd]


def energy(y):
    x, th, xd, thd = y
    T = (MC + MB) * xd ** 2 / 2 + MB * L * mp.cos(th) * xd * thd + MB * L ** 2 * thd ** 2 / 2
    return T - MB * G * L * mp.cos(th), T


def momentum(y):
    return (MC + MB) * y[2] + MB * L * mp.cos(y[1]) * y[3]


def impact(y):
    """The state just after an impact at the stop, and the impulse P."""
    x, th, xd, thd = y
    det = (MC + MB) * MB * L ** 2 - (MB * L * mp.cos(th)) ** 2
    wmw = MB * L ** 2 / det                       # W M^-1 W^T, W = (-1, 0)
    P = (1 + E) * xd / wmw                        # -(1 + e) (W v-) / (W M^-1 W^T)
    out = [x, th, -E * xd, thd + (1 + E) * xd * mp.cos(th) / L]
    return out, P, wmw


def first_impact(sol, t0):
    """First t > t0 (up to T_END) where d - x falls through 0 with x' > 0."""
    a, ga = t0, D - sol(t0)[0]
    while a < T_END:
        b = min(a + GRID, T_END)
        gb = D - sol(b)[0]
        if gb <= 0 < ga or (gb <= 0 and a == t0 and ga > 0):
            lo, hi = a, b
            for _ in range(200):
                mid = (lo + hi) / 2
                if D - sol(mid)[0] > 0:
                    lo = mid
                else:
                    hi = mid
                if hi - lo < mpf(10) ** (-27):
                    break
            return hi
        a, ga = b, gb
    return None


def compute():
    t0, y0 = mpf(0), list(Y0)
    events, segments = [], []
    while True:
        sol = mp.odefun(rhs, t0, y0)
        ti = first_impact(sol, t0 + mpf(10) ** -12 if events else t0)
        t1 = ti if ti is not None else T_END
        segments.append((t0, t1, sol))
        E0, p0 = energy(y0)[0], momentum(y0)
        for k in range(1, 11):
            yk = sol(t0 + (t1 - t0) * k / 10)
            pw.expect(abs(energy(yk)[0] - E0) < mpf("1e-20"), "energy between impacts")
            pw.expect(abs(momentum(yk) - p0) < mpf("1e-20"), "horizontal momentum between impacts")
            pw.expect(yk[0] < D + mpf("1e-20"), "the cart stays behind the stop")
        if ti is None:
            break
        ym = sol(ti)
        pw.expect(ym[2] > 0, "the cart moves into the stop at an impact")
        yp, P, wmw = impact(ym)
        lost = energy(ym)[1] - energy(yp)[1]
        pw.expect(abs(lost - (1 - E ** 2) * ym[2] ** 2 / (2 * wmw)) < mpf("1e-25"),
                  "kinetic energy lost at an impact: 1/2 (1 - e^2) (W v)^2 / (W M^-1 W^T)")
        pw.expect(abs(momentum(ym) - momentum(yp) - P) < mpf("1e-25"), "momentum taken by the stop")
        pw.expect(abs((yp[3] - ym[3]) + (yp[2] - ym[2]) * mp.cos(ym[1]) / L) < mpf("1e-25"),
                  "the bob's jump follows the cart's")
        events.append((ti, ym, yp))
        t0, y0 = ti, yp
    pw.expect(len(events) >= 2, "at least two impacts in 3 s")
    ev = ["t,kind,contact,x,th,xd-,thd-,xd+,thd+"]
    for ti, ym, yp in events:
        ev.append(",".join([mp.nstr(ti, 25), "impact", "stop"] +
                           [mp.nstr(v, 25) for v in (ym[0], ym[1], ym[2], ym[3], yp[2], yp[3])]))
    sa = ["t,C.x,th.phi,C.v,th.omega"]
    for i in range(31):
        t = mpf(i) / 10
        for a, b, sol in reversed(segments):
            if a <= t:
                y = sol(t)
                break
        sa.append(",".join(mp.nstr(v, 25) for v in [t] + list(y)))
    return [("cart_pendulum", "\n".join(ev) + "\n", "\n".join(sa) + "\n")]


if __name__ == "__main__":
    pw.main(compute())
