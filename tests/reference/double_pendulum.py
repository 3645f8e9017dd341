"""Reference for a double pendulum whose lower bob strikes a wall
(models/double_pendulum.nsm, a model written by its energies: the mass
matrix depends on the angle between the rods): point masses m1 = 1 kg and
m2 = 0.7 kg on massless rods l1 = 0.5 m and l2 = 0.3 m, angles a and b from
the downward vertical, g = 9.81 m/s^2, the wall at x = d = 0.3 m struck by
the lower bob (gap d - l1 sin a - l2 sin b >= 0) with Newton restitution
e = 0.8, from a = -0.8 rad, b = -0.4 rad, a' = 0, b' = 2 rad/s, up to
t = 2 s.

Equations written by hand (Lagrange, T = 1/2 (m1 + m2) l1^2 a'^2 +
m2 l1 l2 cos(a - b) a' b' + 1/2 m2 l2^2 b'^2,
V = -(m1 + m2) g l1 cos a - m2 g l2 cos b):

  [(m1 + m2) l1^2         m2 l1 l2 cos(a - b)] [a'']
  [m2 l1 l2 cos(a - b)    m2 l2^2            ] [b''] =
      [-m2 l1 l2 sin(a - b) b'^2 - (m1 + m2) g l1 sin a]
      [ m2 l1 l2 sin(a - b) a'^2 - m2 g l2 sin b       ]

integrated by mp.odefun (Taylor series, 30 digits) between impacts; an
impact is the first zero of the gap on the solution, bracketed on a 1 ms
grid (with a check of the gap's minimum between grid points against a
grazing contact) and located by bisection to 1e-27 s.  The impact law
with M(q), by hand: the gap's row is W = (-l1 cos a, -l2 cos b), the
impulse P = -(1 + e) W v- / (W M^-1 W^T) and v+ = v- + M^-1 W^T P.

Self-checks: between impacts the energy T + V is constant (to 1e-20); at
each impact W v+ = -e W v- and the kinetic energy falls by
1/2 (1 - e^2) (W v-)^2 / (W M^-1 W^T).

data/double_pendulum.events.csv: t,kind,contact,a,b,ad-,bd-,ad+,bd+ per
impact; data/double_pendulum.samples.csv: t,a.phi,b.phi,a.omega,b.omega
every 0.1 s (the state after an impact at that instant).
"""
from mpmath import mp, mpf

import piecewise as pw

mp.dps = 30
M1, M2, L1, L2, G = mpf(1), mpf("0.7"), mpf("0.5"), mpf("0.3"), mpf("9.81")
D, E = mpf("0.3"), mpf("0.8")
T_END = mpf(2)
Y0 = [mpf("-0.8"), mpf("-0.4"), mpf(0), mpf(2)]   # a, b, a', b'
GRID = mpf("0.001")


def mass(a, b):
    """M(q), by hand."""
    c = M2 * L1 * L2 * mp.cos(a - b)
    return [[(M1 + M2) * L1 ** 2, c], [c, M2 * L2 ** 2]]


def solve2(M, f):
    det = M[0][0] * M[1][1] - M[0][1] * M[1][0]
    return [(M[1][1] * f[0] - M[0][1] * f[1]) / det, (M[0][0] * f[1] - M[1][0] * f[0]) / det]


def rhs(t, y):
    a, b, ad, bd = y
    s = M2 * L1 * L2 * mp.sin(a - b)
    f = [-s * bd ** 2 - (M1 + M2) * G * L1 * mp.sin(a), s * ad ** 2 - M2 * G * L2 * mp.sin(b)]
    add, bdd = solve2(mass(a, b), f)
    return [ad, bd, add, bdd]


def kinetic(y):
    a, b, ad, bd = y
    M = mass(a, b)
    return (M[0][0] * ad ** 2 + 2 * M[0][1] * ad * bd + M[1][1] * bd ** 2) / 2


def energy(y):
    a, b = y[0], y[1]
    return kinetic(y) - (M1 + M2) * G * L1 * mp.cos(a) - M2 * G * L2 * mp.cos(b)


def gap(y):
    return D - L1 * mp.sin(y[0]) - L2 * mp.sin(y[1])


def gap_rate(y):
    """W v, W = (-l1 cos a, -l2 cos b)."""
    return -L1 * mp.cos(y[0]) * y[2] - L2 * mp.cos(y[1]) * y[3]


def impact(y):
    """The state just after an impact, the impulse P and W M^-1 W^T."""
    a, b, ad, bd = y
    W = [-L1 * mp.cos(a), -L2 * mp.cos(b)]
    MiW = solve2(mass(a, b), W)
    wmw = W[0] * MiW[0] + W[1] * MiW[1]
    P = -(1 + E) * gap_rate(y) / wmw
    return [a, b, ad + MiW[0] * P, bd + MiW[1] * P], P, wmw


def first_impact(sol, t0):
    """First t > t0 (up to T_END) where the gap falls through 0.  Between
    grid points a gap that is positive at both ends but whose rate changes
    sign from negative to positive is checked at its minimum (a grazing
    contact the grid would miss)."""
    a, ya = t0, sol(t0)
    while a < T_END:
        b = min(a + GRID, T_END)
        yb = sol(b)
        if gap(yb) <= 0:
            lo, hi = a, b
            for _ in range(200):
                mid = (lo + hi) / 2
                if gap(sol(mid)) > 0:
                    lo = mid
                else:
                    hi = mid
                if hi - lo < mpf(10) ** (-27):
                    break
            return hi
        if gap_rate(ya) < 0 < gap_rate(yb):
            tm = mp.findroot(lambda t: gap_rate(sol(t)), (a, b), solver="anderson")
            pw.expect(gap(sol(tm)) > mpf("1e-6"), "no grazing contact between grid points")
        a, ya = b, yb
    return None


def compute():
    t0, y0 = mpf(0), list(Y0)
    events, segments = [], []
    while True:
        sol = mp.odefun(rhs, t0, y0)
        ti = first_impact(sol, t0 + mpf(10) ** -12 if events else t0)
        t1 = ti if ti is not None else T_END
        segments.append((t0, t1, sol))
        E0 = energy(y0)
        for k in range(1, 11):
            yk = sol(t0 + (t1 - t0) * k / 10)
            pw.expect(abs(energy(yk) - E0) < mpf("1e-20"), "energy between impacts")
            pw.expect(gap(yk) > -mpf("1e-20"), "the bob stays behind the wall")
        if ti is None:
            break
        ym = sol(ti)
        pw.expect(gap_rate(ym) < 0, "the bob moves into the wall at an impact")
        yp, P, wmw = impact(ym)
        pw.expect(abs(gap_rate(yp) + E * gap_rate(ym)) < mpf("1e-25"), "Newton's law on W v")
        lost = kinetic(ym) - kinetic(yp)
        pw.expect(abs(lost - (1 - E ** 2) * gap_rate(ym) ** 2 / (2 * wmw)) < mpf("1e-25"),
                  "kinetic energy lost at an impact: 1/2 (1 - e^2) (W v)^2 / (W M^-1 W^T)")
        events.append((ti, ym, yp))
        t0, y0 = ti, yp
    pw.expect(len(events) >= 2, "at least two impacts in 2 s")
    ev = ["t,kind,contact,a,b,ad-,bd-,ad+,bd+"]
    for ti, ym, yp in events:
        ev.append(",".join([mp.nstr(ti, 25), "impact", "wall"] +
                           [mp.nstr(v, 25) for v in (ym[0], ym[1], ym[2], ym[3], yp[2], yp[3])]))
    sa = ["t,a.phi,b.phi,a.omega,b.omega"]
    for i in range(21):
        t = mpf(i) / 10
        for a, b, sol in reversed(segments):
            if a <= t:
                y = sol(t)
                break
        sa.append(",".join(mp.nstr(v, 25) for v in [t] + list(y)))
    return [("double_pendulum", "\n".join(ev) + "\n", "\n".join(sa) + "\n")]


if __name__ == "__main__":
    pw.main(compute())
