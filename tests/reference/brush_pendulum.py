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
state at its start, all four states in both phases.  Events: a stuck phase
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


def phase_end(ph):
    """The phase's first event after its start (None: none before T_END)."""
    a = ph.t0
    fa = ph.event(a) if ph.mode == 0 else mpf(1)
    while a < T_END:
        b = min(a + GRID, T_END)
        fb = ph.event(b)
        if fb <= 0:
            if a == ph.t0:     # the slip starts at 0: bracket from inside
                a = a + (b - a) / 1000
                fa = ph.event(a)
                pw.expect(fa > 0, "a slip opens after its start")
            return pw.root(ph.event, a, b, fa, fb)
        a, fa = b, fb
    return None


def work_over(ph, a, b):
    """The friction work mu N |u| over [a, b] of a slipping phase."""
    return mp.quad(lambda t: MU * NF * abs(slip_velocity(ph.state(t))), [a, b])


def next_mode(y):
    """The mode after an instant with u = 0: stick when the stuck force is
    within the cone, else slip against it."""
    F = stick_accel(y)[2]
    if abs(F) <= MU * NF:
        return 0
    return -1 if F > 0 else 1


def compute():
    t0, y0 = mpf(0), [mpf("0.1"), mpf("0.6"), mpf(0), mpf(0)]
    mode, work = next_mode(y0), mpf(0)
    pw.expect(mode != 0, "the bob slips at once")
    phases, events = [], [(t0, "slip", y0, work)]
    while True:
        ph = Phase(t0, y0, mode)
        t1 = phase_end(ph)
        end = t1 if t1 is not None else T_END
        phases.append((t0, end, ph, work))
        y1 = ph.state(end)
        if mode == 0:
            pw.expect(abs(energy(y1) - energy(y0)) < mpf("1e-22"), "stuck: energy constant")
            pw.expect(abs(y1[0] + L * mp.sin(y1[1]) - y0[0] - L * mp.sin(y0[1])) < mpf("1e-22"),
                      "stuck: the bob stays put")
        else:
            w = work_over(ph, t0, end)
            pw.expect(abs(energy(y0) - energy(y1) - w) < mpf("1e-20"),
                      "slipping: energy lost = friction work")
            work += w
        if t1 is None:
            break
        if mode == 0:
            mode, kind = -1 if stick_accel(y1)[2] > 0 else 1, "slip"
        else:
            new = next_mode(y1)
            kind = "stick" if new == 0 else "reversal"
            pw.expect(new != mode, "a slip ends in a stick or a reversal")
            mode = new
        events.append((t1, kind, y1, work))
        t0, y0 = t1, y1
    pw.expect([e[1] for e in events[:3]] == ["slip", "stick", "slip"],
              "the bob slips, sticks and slips again")
    ev = ["t,kind,contact,x,th,xd,thd,work"]
    for t, kind, y, w in events:
        ev.append(",".join([pw.fmt(t), kind, "F"] + [pw.fmt(v) for v in list(y) + [w]]))
    sa = ["t,C.x,th.phi,C.v,th.omega,work"]
    for i in range(31):
        t = mpf(i) / 10
        for a, b, ph, w0 in reversed(phases):
            if a <= t:
                y = ph.state(t)
                w = w0 if ph.mode == 0 or t == a else w0 + work_over(ph, a, t)
                break
        sa.append(",".join(pw.fmt(v) for v in [t] + y + [w]))
    return [("brush_pendulum", "\n".join(ev) + "\n", "\n".join(sa) + "\n")]


if __name__ == "__main__":
    if "--selftest" in sys.argv[1:]:
        compute()
        print("brush_pendulum: self-checks passed")
    else:
        pw.main(compute())
