"""Reference for a pendulum on a sprung cart whose bob brushes a rough plate
(tests/lagrange/brush_pendulum.nsm, a model written by its energies whose
friction slip velocity depends on the configuration): cart Mc = 1 kg on a
spring k = 20 N/m, bob m = 0.5 kg on a massless rod l = 0.5 m (angle th
from the downward vertical), g = 9.81 m/s^2, Coulomb friction mu = 0.3
under a constant normal force N = 2 N on the bob's horizontal velocity
u = x' + l cos th th'; released at rest from x = 0.1 m, th = 0.6 rad, up to
t = 3 s.

Equations written by hand.  With the cart's position x (Lagrange with
T = 1/2 (Mc + m) x'^2 + m l cos th x' th' + 1/2 m l^2 th'^2 and
V = 1/2 k x^2 - m g l cos th), the slip row w = (1, l cos th) and the
friction force F along it:

  (Mc + m) x'' + m l cos th th'' = m l sin th th'^2 - k x + F
  m l cos th x'' + m l^2 th''    = -m g l sin th + l cos th F

- slipping with slip sign s (u = s |u|): F = -s mu N, two linear
  equations in (x'', th'');
- stuck (u = 0): the row's derivative w a + w' v = 0, i.e.
  x'' + l cos th th'' = l sin th th'^2, with F the unknown multiplier:
  three linear equations in (x'', th'', F); stuck while |F| <= mu N.

Each phase is integrated by mp.odefun (Taylor series, 30 digits) from the
state at its start, all four states in both phases; the phases are
chained, their ends found and their energies checked by stickslip.py
(shared with cart_friction.py).  Events: a stuck phase
ends when mu N - |F| reaches 0 (the bob then slips with s = -sign F); a
slipping phase ends when s u reaches 0 (stick if |F| <= mu N there with
the stuck equations, else a reversal: slip with -s).  At t = 0 the bob is
at rest and the stuck force exceeds mu N: it slips at once.  Instants are
bracketed on a 2 ms grid and found by Illinois/bisection to 30 digits
(piecewise.root).

Self-checks (run by --selftest, and by --check before the comparison):
stuck phases keep the bob's horizontal position x + l sin th fixed and
T + V constant (to 1e-22); slipping phases lose exactly the friction work
mu N |u| integrated by mp.quad (to 1e-20); the sequence starts slip,
stick, slip.

data/brush_pendulum.events.csv: t,kind,contact,x,th,xd,thd,work per event
(the friction work dissipated up to the event);
data/brush_pendulum.samples.csv: t,C.x,th.phi,C.v,th.omega,work every 0.1 s.
"""
import sys

from mpmath import mp, mpf

import piecewise as pw
import stickslip

mp.dps = 30
MC, MB, L, G, K = mpf(1), mpf("0.5"), mpf("0.5"), mpf("9.81"), mpf(20)
MU, NF = mpf("0.3"), mpf(2)
T_END = mpf(3)
GRID = mpf("0.002")


def mass_force(y):
    """M(q) and the forces h - dV/dq at y = (x, th, x', th'), by hand."""
    x, th, _, thd = y
    c, s = mp.cos(th), mp.sin(th)
    M = mp.matrix([[MC + MB, MB * L * c], [MB * L * c, MB * L ** 2]])
    f = mp.matrix([MB * L * s * thd ** 2 - K * x, -MB * G * L * s])
    return M, f


def slip_accel(y, s):
    """(x'', th'') while slipping with sign s."""
    M, f = mass_force(y)
    F = -s * MU * NF
    a = mp.lu_solve(M, mp.matrix([f[0] + F, f[1] + L * mp.cos(y[1]) * F]))
    return a[0], a[1]


def stick_accel(y):
    """(x'', th'', F) while stuck: the equations of motion with the
    multiplier F and the slip row's derivative."""
    M, f = mass_force(y)
    c, s = mp.cos(y[1]), mp.sin(y[1])
    A = mp.matrix([[M[0, 0], M[0, 1], -1], [M[1, 0], M[1, 1], -L * c], [1, L * c, 0]])
    r = mp.lu_solve(A, mp.matrix([f[0], f[1], L * s * y[3] ** 2]))
    return r[0], r[1], r[2]


def stuck_force(y):
    """The friction force F a stick needs at y and its bound mu N."""
    return stick_accel(y)[2], MU * NF


def slip_velocity(y):
    return y[2] + L * mp.cos(y[1]) * y[3]


def energy(y):
    x, th, xd, thd = y
    T = (MC + MB) * xd ** 2 / 2 + MB * L * mp.cos(th) * xd * thd + MB * L ** 2 * thd ** 2 / 2
    return T + K * x ** 2 / 2 - MB * G * L * mp.cos(th)


class Phase:
    """One phase from t0: mode 0 (stuck) or s = +-1 (slipping)."""

    def __init__(self, t0, y0, mode):
        self.t0, self.mode = t0, mode

        def rhs(t, y):
            a = stick_accel(y)[:2] if mode == 0 else slip_accel(y, mode)
            return [y[2], y[3], a[0], a[1]]
        self.sol = mp.odefun(rhs, t0, list(y0))

    def state(self, t):
        """(x, th, x', th')."""
        return list(self.sol(t))

    def event(self, t):
        """Positive inside the phase, 0 at its end."""
        y = self.state(t)
        if self.mode == 0:
            return MU * NF - abs(stick_accel(y)[2])
        return self.mode * slip_velocity(y)


def stuck_check(y0, y1):
    """A stuck phase keeps the bob's horizontal position."""
    pw.expect(abs(y1[0] + L * mp.sin(y1[1]) - y0[0] - L * mp.sin(y0[1])) < mpf("1e-22"),
              "stuck: the bob stays put")


def work_over(ph, a, b):
    """The friction work mu N |u| over [a, b] of a slipping phase."""
    return mp.quad(lambda t: MU * NF * abs(slip_velocity(ph.state(t))), [a, b])


def compute():
    t0, y0 = mpf(0), [mpf("0.1"), mpf("0.6"), mpf(0), mpf(0)]
    mode = stickslip.after_slip(sys.modules[__name__], 0, y0)[0]
    pw.expect(mode != 0, "the bob slips at once")
    phases, events = stickslip.run(sys.modules[__name__], t0, y0, mode)
    events.insert(0, (t0, "slip", y0, mpf(0)))
    pw.expect([e[1] for e in events[:3]] == ["slip", "stick", "slip"],
              "the bob slips, sticks and slips again")
    ev = stickslip.events_csv(events, "t,kind,contact,x,th,xd,thd,work", list)
    sa = stickslip.samples_csv(sys.modules[__name__], phases,
                               "t,C.x,th.phi,C.v,th.omega,work", 31)
    return [("brush_pendulum", ev, sa)]


if __name__ == "__main__":
    stickslip.main("brush_pendulum", compute)
