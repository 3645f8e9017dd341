"""Closed form of a sphere sliding on a horizontal plane until it rolls, in
3-D with an arbitrary initial slip direction.

A sphere of mass m, radius r and inertia I = k m r^2 (k = 2/5 solid,
2/3 hollow) on the plane z = 0 under gravity g, Coulomb friction mu, with
centre velocity v0 = (vx, vy) and angular velocity w0 = (wx, wy, wz).  The
contact point is C - r k, its velocity (the slip)

  gamma = v + w x (-r k) = (vx - r wy, vy + r wx).

While it slides the friction force is F = -mu m g gamma/|gamma| and

  m v' = F,   I w' = (-r k) x F = (r Fy, -r Fx, 0),

so gamma' = F (1/m + r^2/I) = -mu g (1 + 1/k) gamma/|gamma|: the slip keeps
its direction and its length falls linearly.  Rolling starts at

  t_r = k |gamma0| / (mu g (1 + k)),

with v(t_r) = v0 - k/(1 + k) gamma0 (2/7 of the slip taken off the centre
velocity for a solid sphere), w_x, w_y from the same impulse and w_z
unchanged (no drilling friction), whatever the initial slip direction; then
it rolls at that velocity (a rolling sphere on a level plane needs no
friction force, so sticking holds).  The energy dissipated is
mu m g |gamma0| t_r / 2, and the angular momentum about the contact point,
L_P = I w + m (r k) x v, is kept (the friction force passes through that
point and the weight and the normal force cancel).

Exact rationals (fractions) when |gamma0| is rational (a Pythagorean slip),
mpmath at 50 digits otherwise.  --selftest integrates the Newton-Euler
equations above with mp.odefun (the friction direction recomputed from the
state, not assumed constant) and compares the state before the onset with
the closed form, and checks the invariants.  Without arguments it prints
the cases.
"""
import sys
from fractions import Fraction as Q

from mpmath import mp, mpf

mp.dps = 50

# (name, m, r, k, g, mu, v0, w0): the slip of the first is (3, -4)/2 m/s
CASES = [
    ("solid, Pythagorean slip", Q(1), Q(1, 10), Q(2, 5), Q(981, 100), Q(1, 5),
     (Q(1), Q(-1)), (Q(-10), Q(-5), Q(7))),
    ("solid, oblique slip", Q(3, 10), Q(1, 20), Q(2, 5), Q(981, 100), Q(3, 10),
     (Q(2), Q(1, 3)), (Q(-40), Q(15), Q(12))),
    ("hollow, backspin and side spin", Q(1, 2), Q(1, 8), Q(2, 3), Q(981, 100), Q(1, 4),
     (Q(-3, 2), Q(5, 4)), (Q(7), Q(9), Q(-30))),
]


def slip(r, v, w):
    """Velocity of the contact point (the slip), a 2-vector."""
    return (v[0] - r * w[1], v[1] + r * w[0])


def exact_sqrt(x):
    """The square root of a non-negative Fraction if it is rational, else None."""
    from math import isqrt
    n, d = x.numerator, x.denominator
    a, b = isqrt(n), isqrt(d)
    return Q(a, b) if a * a == n and b * b == d else None


def onset(case):
    """(t_r, v, w at t_r, dissipated energy), exact when the slip length is."""
    name, m, r, k, g, mu, v0, w0 = case
    gam = slip(r, v0, w0)
    n2 = gam[0] ** 2 + gam[1] ** 2
    n = exact_sqrt(n2)
    if n is None:
        n = mp.sqrt(mpf(n2.numerator) / n2.denominator)
        conv = lambda x: mpf(x.numerator) / x.denominator if isinstance(x, Q) else x
        m, r, k, g, mu = map(conv, (m, r, k, g, mu))
        v0, w0, gam = [tuple(map(conv, x)) for x in (v0, w0, gam)]
    tr = k * n / (mu * g * (1 + k))
    # the friction impulse over the sliding phase: -mu m g t_r gamma0/|gamma0|
    J = (-mu * m * g * tr * gam[0] / n, -mu * m * g * tr * gam[1] / n)
    v = (v0[0] + J[0] / m, v0[1] + J[1] / m)
    I = k * m * r ** 2
    w = (w0[0] + r * J[1] / I, w0[1] - r * J[0] / I, w0[2])
    return tr, v, w, mu * m * g * n * tr / 2, n


def invariants(case, v, w):
    """Kinetic energy and the horizontal angular momentum about the contact point."""
    name, m, r, k, g, mu, v0, w0 = case
    I = k * m * r ** 2
    T = (m * (v[0] ** 2 + v[1] ** 2) + I * (w[0] ** 2 + w[1] ** 2 + w[2] ** 2)) / 2
    # L_P = I w + m (C - P) x v, C - P = r k: r k x (vx, vy, 0) = (-r vy, r vx, 0)
    L = (I * w[0] - m * r * v[1], I * w[1] + m * r * v[0], I * w[2])
    return T, L


def report():
    for case in CASES:
        tr, v, w, diss, n = onset(case)
        print("%s:" % case[0])
        print("  |gamma0| = %s m/s, rolling from t_r = %s s" % (n, tr))
        print("  v(t_r) = (%s, %s) m/s, w(t_r) = (%s, %s, %s) rad/s" % (v + w))
        print("  energy dissipated %s J" % diss)


def expect(cond, what):
    if not cond:
        raise SystemExit("rolling_sphere: self-check failed: " + what)
    print("  ok  " + what)


def mpv(x):
    return mpf(x.numerator) / x.denominator if isinstance(x, Q) else mpf(x)


def selftest():
    for case in CASES:
        name, m, r, k, g, mu, v0, w0 = [case[0]] + [mpv(x) if not isinstance(x, tuple) else tuple(map(mpv, x))
                                                    for x in case[1:]]
        I = k * m * r ** 2
        tr, v, w, diss, n = onset(case)
        v, w, tr, diss = tuple(map(mpv, v)), tuple(map(mpv, w)), mpv(tr), mpv(diss)

        def f(t, y):
            vx, vy, wx, wy, wz = y
            gx, gy = slip(r, (vx, vy), (wx, wy, wz))
            nn = mp.sqrt(gx * gx + gy * gy)
            Fx, Fy = -mu * m * g * gx / nn, -mu * m * g * gy / nn
            return [Fx / m, Fy / m, r * Fy / I, -r * Fx / I, 0]

        t1 = tr * mpf("0.999")
        sol = mp.odefun(f, 0, list(v0) + list(w0), tol=mpf(10) ** -40)
        y1 = sol(t1)
        # closed form at t1: linear in t
        frac = t1 / tr
        vc = [v0[i] + frac * (v[i] - v0[i]) for i in range(2)]
        wc = [w0[i] + frac * (w[i] - w0[i]) for i in range(3)]
        err = max(abs(a - b) for a, b in zip(y1, vc + wc))
        expect(err < mpf("1e-30"), "%s: integrated state at 0.999 t_r (%s)" % (name, mp.nstr(err, 3)))
        g1 = slip(r, y1[0:2], y1[2:5])
        n1 = mp.sqrt(g1[0] ** 2 + g1[1] ** 2)
        expect(abs(n1 - n * (1 - frac)) < mpf("1e-30"), "%s: slip length falls linearly to 0 at t_r" % name)
        gr = slip(r, v, w)
        expect(abs(gr[0]) + abs(gr[1]) < mpf("1e-40"), "%s: no slip at t_r" % name)
        T0, L0 = invariants(case, tuple(map(mpv, case[6])), tuple(map(mpv, case[7])))
        T1, L1 = invariants(case, v, w)
        expect(abs(T0 - T1 - diss) < mpf("1e-40") * T0, "%s: energy dissipated mu m g |gamma0| t_r / 2" % name)
        expect(max(abs(a - b) for a, b in zip(L0, L1)) < mpf("1e-40"),
               "%s: angular momentum about the contact point kept" % name)
    tr, v, w, diss, n = onset(CASES[0])
    expect(all(isinstance(x, Q) for x in (tr,) + v + w), "Pythagorean slip: exact rationals")
    expect(tr == Q(5, 2) / (Q(1, 5) * Q(981, 100) * Q(7, 2)) and v == (Q(1) - Q(2, 7) * Q(3, 2), Q(-1) + Q(2, 7) * 2),
           "Pythagorean slip: t_r = 2 |gamma0| / (7 mu g), v = v0 - 2/7 gamma0")


if __name__ == "__main__":
    if "--selftest" in sys.argv[1:]:
        selftest()
    else:
        report()
