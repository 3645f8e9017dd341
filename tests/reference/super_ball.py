"""Closed form of the super ball (Garwin, Am. J. Phys. 37 (1969) 88; the
textbook example of tangential restitution in Leine and van de Wouw,
Stability and Convergence of Mechanical Systems with Unilateral
Constraints, Springer 2008, and Glocker's impact laws): a ball thrown with
backspin under a table bounces between the floor and the table's underside
and comes back.

A disc-like section of the ball in the plane of the throw: centre (x, y),
angle phi (counter-clockwise), mass m, radius r, inertia th = 2/5 m r^2,
gravity g; the floor y = 0 everywhere, the table's underside y = H for
x >= 0 (its edge at x = 0, the thrower at x < 0).  The contacts:

  floor: gap y - r,        gamma_N = vy,   gamma_T = vx + r w,  W_T = (1, 0, r)
  table: gap H - r - y,    gamma_N = -vy,  gamma_T = vx - r w,  W_T = (1, 0, -r)

Impact law (Glocker): gamma_N+ = -e_N gamma_N-, and on the tangential
impulse Coulomb against xi = gamma_T+ + e_T gamma_T-: sticking (xi = 0)
while |P_T| <= mu P_N, else P_T = -mu P_N sign(xi).  The normal and
tangential directions are uncoupled through M^-1 (W_N^T M^-1 W_T = 0), so

  P_N = (1 + e_N) m |gamma_N-|,
  stick: P_T = -(1 + e_T) gamma_T- / (1/m + r^2/th) = -(1 + e_T) 2/7 m gamma_T-,
  vx+ = vx- + P_T/m,   w+ = w- +/- r P_T/th   (+ floor, - table),

exact rationals in the velocities.  With e_N = e_T = 1 every sticking impact
keeps the kinetic energy; Garwin's floor-table-floor sequence without spin
and without gravity sends (vx, r w) = (v, 0) back as (-333/343 v,
130/343 v).  Flights are parabolas; the impact times are roots of
quadratics (mpmath, 50 digits), exact rationals when g = 0.

--selftest checks each impact against the generic impact equations solved
as a linear system (M du = W_N P_N + W_T P_T with the law's conditions, by
mp.lu_solve), the energy and the angular momentum about the contact point
at every impact, Garwin's sequence, and the flights against mp.odefun.
Without arguments it prints the impacts of the scenarios.
"""
import sys
from fractions import Fraction as Q

from mpmath import mp, mpf

mp.dps = 50


class Ball:
    """Parameters of a scenario: exact Fractions (or mpf)."""

    def __init__(self, m, r, H, g, e_n, e_t, mu):
        # exact rationals without gravity; with it the impact times are
        # square roots, so everything is carried in mpf
        self.exact = g == 0
        conv = (lambda x: x) if self.exact else mpv
        self.m, self.r, self.H, self.g = map(conv, (m, r, H, g))
        self.e_n, self.e_t, self.mu = map(conv, (e_n, e_t, mu))
        self.th = 2 * self.m * self.r * self.r / 5


def impact(b, u, where):
    """Post-impact (vx, vy, w), P_N, P_T and whether it stuck.

    where: +1 at the floor, -1 at the table's underside."""
    vx, vy, w = u
    gn = where * vy                         # approach velocity, negative
    gt = vx + where * b.r * w
    pn = (1 + b.e_n) * b.m * (-gn)
    pt = -(1 + b.e_t) * gt / (1 / b.m + b.r * b.r / b.th)
    stuck = abs(pt) <= b.mu * pn
    if not stuck:
        pt = -b.mu * pn * (1 if gt > 0 else -1)
    return (vx + pt / b.m, vy + where * pn / b.m, w + where * b.r * pt / b.th), pn, pt, stuck


def mpv(x):
    """A Fraction (or mpf) as an mpf."""
    return mpf(x.numerator) / x.denominator if isinstance(x, Q) else mpf(x)


def quad_root(a, bq, c, first=True):
    """Roots of a t^2 + bq t + c = 0 (a != 0), the smaller or the larger."""
    d = bq * bq - 4 * a * c
    if d < 0:
        return None
    s = mp.sqrt(d)
    r1, r2 = (-bq - s) / (2 * a), (-bq + s) / (2 * a)
    lo, hi = min(r1, r2), max(r1, r2)
    return lo if first else hi


def next_impact(b, q, u):
    """(dt, where) of the next impact from the state q = (x, y), u."""
    x, y = q
    vx, vy, w = u
    cands = []
    if b.g == 0:
        if vy < 0:
            cands.append(((b.r - y) / vy, 1))
        elif vy > 0:
            cands.append(((b.H - b.r - y) / vy, -1))
    else:
        # floor: y + vy t - g t^2/2 = r, the positive (larger) root
        g, vyf = mpv(b.g), mpv(vy)
        a = -g / 2
        cands.append((quad_root(a, vyf, mpv(y - b.r), first=False), 1))
        # table: reached going up, the smaller root (none if it falls short)
        tt = quad_root(a, vyf, mpv(y - (b.H - b.r)))
        if tt is not None and tt > mpf(10) ** -40 and vyf - g * tt > 0:
            cands.append((tt, -1))
    dt, where = min(cands, key=lambda c: c[0])
    if where == -1 and x + vx * dt < 0:
        return None                          # passes the table's edge: out
    return dt, where


def run(b, q0, u0, n_max=12):
    """The impacts: (t, where, x, u-, u+, P_N, P_T, stuck), and the exit state."""
    conv = (lambda x: x) if b.exact else mpv
    t, q, u = 0, tuple(map(conv, q0)), tuple(map(conv, u0))
    out = []
    for _ in range(n_max):
        nxt = next_impact(b, q, u)
        if nxt is None:
            break
        dt, where = nxt
        x = q[0] + u[0] * dt
        y = q[1] + u[1] * dt - b.g * dt * dt / 2
        ub = (u[0], u[1] - b.g * dt, u[2])
        ua, pn, pt, stuck = impact(b, ub, where)
        t += dt
        out.append((t, where, x, ub, ua, pn, pt, stuck))
        q, u = (x, b.r if where == 1 else b.H - b.r), ua
    return out, (t, q, u)


SCENARIOS = {
    # Garwin's idealisation: no gravity, no spin, e_N = e_T = 1, rough
    "garwin": (Ball(Q(1, 20), Q(1, 40), Q(1, 2), Q(0), Q(1), Q(1), Q(100)),
               (Q(-1, 10), Q(1, 4)), (Q(2), Q(-3), Q(0))),
    # thrown with backspin, with gravity, e_N = e_T = 1, rough
    "backspin": (Ball(Q(1, 20), Q(1, 40), Q(1, 2), Q(981, 100), Q(1), Q(1), Q(100)),
                 (Q(-1, 10), Q(3, 10)), (Q(2), Q(-3), Q(40))),
    # a lossy ball: e_N = 0.8, e_T = 0.5, mu = 0.3 (some impacts slide)
    "lossy": (Ball(Q(1, 20), Q(1, 40), Q(1, 2), Q(981, 100), Q(4, 5), Q(1, 2), Q(3, 10)),
              (Q(-1, 10), Q(3, 10)), (Q(2), Q(-3), Q(40))),
}


def fmt(x):
    return str(x) if isinstance(x, Q) else mp.nstr(x, 30)


def report():
    for name, (b, q0, u0) in SCENARIOS.items():
        imps, (t, q, u) = run(b, q0, u0)
        print("%s: from (x, y) = (%s, %s), (vx, vy, w) = (%s, %s, %s)" % ((name,) + tuple(map(fmt, q0 + u0))))
        for (ti, where, x, ub, ua, pn, pt, stuck) in imps:
            print("  t = %s  %s at x = %s  %s: vx+ = %s, vy+ = %s, w+ = %s" % (
                fmt(ti), "floor" if where == 1 else "table", fmt(x), "stick" if stuck else "slide",
                fmt(ua[0]), fmt(ua[1]), fmt(ua[2])))
        print("  leaves with vx = %s m/s (%s)" % (fmt(u[0]), "back to the thrower" if u[0] < 0 else "onwards"))


def expect(cond, what):
    if not cond:
        raise SystemExit("super_ball: self-check failed: " + what)
    print("  ok  " + what)


def generic_impact(b, u, where):
    """The same impact from the generic equations: unknowns (du, P_N, P_T),
    M du = W_N P_N + W_T P_T, W_N.u+ = -e_N W_N.u-, and W_T.u+ = -e_T W_T.u-
    (stick) or P_T = -mu P_N s (slide, s the sign found by the closed form)."""
    M = [mpv(b.m), mpv(b.m), mpv(b.th)]
    WN = [0, where, 0]
    WT = [1, 0, where * mpv(b.r)]
    um = [mpv(x) for x in u]
    _, pn_c, pt_c, stuck = impact(b, u, where)
    A = mp.zeros(5, 5)
    rhs = mp.zeros(5, 1)
    for i in range(3):
        A[i, i] = M[i]
        A[i, 3] = -WN[i]
        A[i, 4] = -WT[i]
    for i in range(3):
        A[3, i] = WN[i]
    rhs[3] = -(1 + mpv(b.e_n)) * sum(WN[i] * um[i] for i in range(3))
    if stuck:
        for i in range(3):
            A[4, i] = WT[i]
        rhs[4] = -(1 + mpv(b.e_t)) * sum(WT[i] * um[i] for i in range(3))
    else:
        s = 1 if pt_c < 0 else -1
        A[4, 3] = mpv(b.mu) * s
        A[4, 4] = 1
    x = mp.lu_solve(A, rhs)
    return [um[i] + x[i] for i in range(3)], x[3], x[4]


def selftest():
    for name, (b, q0, u0) in SCENARIOS.items():
        imps, _ = run(b, q0, u0)
        expect(len(imps) >= 3, "%s: at least three impacts (%d)" % (name, len(imps)))
        for (t, where, x, ub, ua, pn, pt, stuck) in imps:
            ug, png, ptg = generic_impact(b, ub, where)
            err = max(abs(mpv(a) - c) for a, c in zip(ua, ug)) + abs(mpv(pn) - png) + abs(mpv(pt) - ptg)
            expect(err < mpf("1e-40"), "%s: impact at t = %s against the generic equations" % (name, mp.nstr(t, 8)))
            expect(pn > 0 and (stuck or abs(abs(pt) - b.mu * pn) == 0), "%s: P_N > 0, |P_T| <= mu P_N" % name)
            if stuck:
                xi = (ua[0] + where * b.r * ua[2]) + b.e_t * (ub[0] + where * b.r * ub[2])
                expect(mpv(abs(xi)) < mpf("1e-40"), "%s: sticking impact, gamma_T+ = -e_T gamma_T-" % name)
            # the angular momentum about the contact point P = C - where r e_y:
            # th w + m ((C - P) x v)_z = th w - where m r vx
            Lb = b.th * ub[2] - where * b.m * b.r * ub[0]
            La = b.th * ua[2] - where * b.m * b.r * ua[0]
            expect(mpv(abs(La - Lb)) < mpf("1e-40"), "%s: angular momentum about the contact point kept" % name)
            if b.e_n == 1 and b.e_t == 1 and stuck:
                Tb = b.m * (ub[0] ** 2 + ub[1] ** 2) + b.th * ub[2] ** 2
                Ta = b.m * (ua[0] ** 2 + ua[1] ** 2) + b.th * ua[2] ** 2
                expect(mpv(abs(Ta - Tb)) < mpf("1e-40") * mpv(Tb), "%s: e_N = e_T = 1 keeps the energy" % name)
    # Garwin: floor, table, floor send (v, 0) to (-333/343 v, 130/343 v), exactly
    b, q0, u0 = SCENARIOS["garwin"]
    imps, _ = run(b, q0, u0)
    expect([i[1] for i in imps[:3]] == [1, -1, 1], "garwin: floor, table, floor")
    u3 = imps[2][4]
    expect(isinstance(u3[0], Q) and u3[0] == Q(-333, 343) * u0[0] and b.r * u3[2] == Q(130, 343) * u0[0],
           "garwin: (vx, r w) = (-333/343, 130/343) v exactly")
    # the flights with gravity against a numeric integration
    b, q0, u0 = SCENARIOS["backspin"]
    imps, _ = run(b, q0, u0)
    t0, q, u = mpf(0), [mpv(x) for x in q0], [mpv(x) for x in u0]
    for (t, where, x, ub, ua, pn, pt, stuck) in imps[:3]:
        sol = mp.odefun(lambda s, y: [y[2], y[3], 0, -mpv(b.g)], t0, [q[0], q[1], u[0], u[1]])
        y = sol(t)
        target = mpv(b.r if where == 1 else b.H - b.r)
        expect(abs(y[1] - target) < mpf("1e-30") and abs(y[0] - x) < mpf("1e-30") and abs(y[3] - ub[1]) < mpf("1e-30"),
               "backspin: flight to the impact at t = %s against mp.odefun" % mp.nstr(t, 8))
        t0, q, u = t, [x, target], list(ua)
    out = [run(*SCENARIOS[k])[1][2][0] for k in ("garwin", "backspin")]
    expect(all(v < 0 for v in out), "garwin and backspin: the ball comes back")


if __name__ == "__main__":
    if "--selftest" in sys.argv[1:]:
        selftest()
    else:
        report()
