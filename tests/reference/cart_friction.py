"""Reference for a cart on a rough floor carrying a pendulum
(models/cart_friction.nsm, a model written by its energies whose friction
force depends on the configuration): cart M = 2 kg, bob m = 0.5 kg on a
massless rod l = 0.4 m (angle th from the downward vertical),
g = 9.81 m/s^2, Coulomb friction mu = 0.12 between cart and floor, the
floor's contact force as normal force; released at rest from th = 1 rad,
up to t = 2 s.  The cart stays on the floor (its contact force is checked
positive throughout).

Equations written by hand.  With the cart's position x, its height y held
at 0 and the floor's normal force N (Lagrange with T = 1/2 (M + m)
(x'^2 + y'^2) + m l cos th x' th' + m l sin th y' th' + 1/2 m l^2 th'^2,
V = (M + m) g y - m g l cos th and the multiplier N of y = 0):

  (M + m) x'' + m l cos th th'' - m l sin th th'^2 = F     (F: the floor's
  m l cos th x'' + m l^2 th'' + m g l sin th       = 0      friction force)
  m l sin th th'' + m l cos th th'^2 + (M + m) g   = N

- slipping with slip velocity sign s (x' = s |x'|): F = -s mu N, three
  linear equations in (x'', th'', N) solved at each evaluation;
- stuck (x' = 0, x'' = 0): th'' = -(g / l) sin th, and the force the floor
  must supply F = m l (cos th th'' - sin th th'^2) with N as above; the
  element stays stuck while |F| <= mu N.

Each phase is integrated by mp.odefun (Taylor series, 30 digits) from the
state at its start; the phases are chained, their ends found and their
energies checked by stickslip.py (shared with brush_pendulum.py).  Events: a stuck phase ends when mu N - |F| reaches 0
(the cart then slips with s = -sign F); a slipping phase ends when x'
reaches 0 (stick if |F| <= mu N there with the stuck equations, else a
reversal: slip with -s).  Instants are bracketed on a 2 ms grid and found
by Illinois/bisection to 30 digits (piecewise.root).

Self-checks (run by --selftest, and by --check before the comparison):
N > 0 throughout; the energy T + V falls by exactly the
friction work mu N |x'| integrated by mp.quad over the slipping phases
(to 1e-20); stuck phases keep x fixed and T + V constant.

data/cart_friction.events.csv: t,kind,contact,x,th,thd,work per event (the
friction work dissipated up to the event); data/cart_friction.samples.csv:
t,C.x,th.phi,C.v,th.omega,work every 0.1 s.
"""
import sys

from mpmath import mp, mpf

import piecewise as pw
import stickslip

mp.dps = 30
MC, MB, L, G, MU = mpf(2), mpf("0.5"), mpf("0.4"), mpf("9.81"), mpf("0.12")
T_END = mpf(2)
GRID = mpf("0.002")


def slip_accel(th, thd, s):
    """(x'', th'', N) while slipping with sign s: Cramer's rule on the
    three hand-written equations."""
    A = mp.matrix([[MC + MB, MB * L * mp.cos(th), s * MU],
                   [MB * L * mp.cos(th), MB * L ** 2, 0],
                   [0, MB * L * mp.sin(th), -1]])
    b = mp.matrix([MB * L * mp.sin(th) * thd ** 2, -MB * G * L * mp.sin(th),
                   -(MC + MB) * G - MB * L * mp.cos(th) * thd ** 2])
    r = mp.lu_solve(A, b)
    return r[0], r[1], r[2]


def stick_forces(th, thd):
    """(th'', N, F) while stuck."""
    thdd = -G / L * mp.sin(th)
    N = (MC + MB) * G + MB * L * (mp.sin(th) * thdd + mp.cos(th) * thd ** 2)
    F = MB * L * (mp.cos(th) * thdd - mp.sin(th) * thd ** 2)
    return thdd, N, F


def stuck_force(y):
    """The friction force F a stick needs at y = (x, th, x', th') and its
    bound mu N."""
    _, N, F = stick_forces(y[1], y[3])
    return F, MU * N


def energy(y):
    x, th, xd, thd = y
    T = (MC + MB) * xd ** 2 / 2 + MB * L * mp.cos(th) * xd * thd + MB * L ** 2 * thd ** 2 / 2
    return T - MB * G * L * mp.cos(th)


class Phase:
    """One phase from t0: mode 0 (stuck at x0) or s = +-1 (slipping)."""

    def __init__(self, t0, y0, mode):
        self.t0, self.mode, self.x0 = t0, mode, y0[0]
        if mode == 0:
            self.sol = mp.odefun(lambda t, y: [y[1], stick_forces(y[0], y[1])[0]], t0,
                                 [y0[1], y0[3]])
        else:
            def rhs(t, y):
                xdd, thdd, _ = slip_accel(y[1], y[3], mode)
                return [y[2], y[3], xdd, thdd]
            self.sol = mp.odefun(rhs, t0, list(y0))

    def state(self, t):
        """(x, th, x', th')."""
        if self.mode == 0:
            th, thd = self.sol(t)
            return [self.x0, th, mpf(0), thd]
        return list(self.sol(t))

    def normal(self, t):
        y = self.state(t)
        if self.mode == 0:
            return stick_forces(y[1], y[3])[1]
        return slip_accel(y[1], y[3], self.mode)[2]

    def event(self, t):
        """Positive inside the phase, 0 at its end."""
        y = self.state(t)
        if self.mode == 0:
            F, bound = stuck_force(y)
            return bound - abs(F)
        return self.mode * y[2]


def check(ph, t):
    """At every grid point: the floor still pushes."""
    pw.expect(ph.normal(t) > 0, "the cart stays on the floor")


def at_rest(y):
    """A slip ends with the cart's velocity exactly 0."""
    y[2] = mpf(0)


def work_over(ph, a, b):
    """The friction work mu N |x'| over [a, b] of a slipping phase."""
    return mp.quad(lambda t: MU * ph.normal(t) * abs(ph.state(t)[2]), [a, b])


def compute():
    y0 = [mpf(0), mpf(1), mpf(0), mpf(0)]
    F, bound = stuck_force(y0)
    pw.expect(abs(F) < bound, "the cart starts stuck")
    phases, events = stickslip.run(sys.modules[__name__], mpf(0), y0, 0)
    pw.expect([e[1] for e in events[:3]] == ["slip", "stick", "slip"],
              "the cart slips, sticks and slips again")
    ev = stickslip.events_csv(events, "t,kind,contact,x,th,thd,work",
                              lambda y: [y[0], y[1], y[3]])
    sa = stickslip.samples_csv(sys.modules[__name__], phases,
                               "t,C.x,th.phi,C.v,th.omega,work", 21)
    return [("cart_friction", ev, sa)]


if __name__ == "__main__":
    stickslip.main("cart_friction", compute)
