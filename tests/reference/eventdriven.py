"""Event-driven closed-form reference for small contact models on a line.

One or two bodies (masses m_i), linear springs and dampers (stiffness and
damping matrices K, C; every body held, directly or through the other, by a
spring to the ground, unless a single body flies free), gravity, constant
forces and sinusoidal forces of one frequency.  Contacts are affine gaps
g = w . x + g0 >= 0 with either law:

* penalty(k, c, release): while engaged the force is k p + c p' with the
  penetration p = -g, acting along w; it is engaged when g reaches 0 from
  above and released when the force reaches 0 (release = force) or when p
  returns to 0 (release = gap);
* impact(e): Newton restitution on the relative normal velocity with momentum
  conservation: the impulse P = -(1 + e) u / (w M^-1 w), u = w . v.

A mode is the set of engaged penalty contacts; it is linear, solved in
closed form by piecewise.Mode (eigen-decomposition), or for one body in free
flight by the exact polynomial-plus-sinusoid (FlightMode).  Every event is a
zero of an affine function of the state, located by piecewise.first_zero to
full working precision.  Nothing integrates an ODE numerically.

The physics is only followed where it is unambiguous.  The run stops (and
says why, in `stop`) at the first of:

* a plastic impact (e = 0), or one leaving a relative speed below
  ZENO_SPEED, or whose next free flight would be shorter than ZENO_FLIGHT
  (the start of a Zeno cascade or of sticking, whose treatment is left to
  the other references);
* an impact while another impact contact is shut (a cascade);
* a force-release exit after which the contact force would at once turn
  compressive again (penalty sticking);
* a mode that lasts more than MAX_GRID grid steps of its shortest period (a
  stiff contact that does not let go: persistent contact);
* MAX_EVENTS events.

Used by tests/property/stiff_models.py (random models) and
tests/property/stiff_regressions.py; see README.md.
"""
from mpmath import mp, mpf

import piecewise as pw

ZENO_SPEED = mpf("1e-2")     # m/s
ZENO_FLIGHT = mpf("2e-2")    # s
MAX_GRID = 4000
MAX_EVENTS = 40


class Contact:
    """A gap g = w . x + g0 >= 0 and its law."""

    def __init__(self, name, w, g0, law, k=0, c=0, release="force", e=0):
        self.name = name
        self.w = [mpf(x) for x in w]
        self.g0 = mpf(g0)
        self.law = law
        self.k, self.c, self.e = mpf(k), mpf(c), mpf(e)
        self.release = release


class System:
    """Bodies on a line: m x'' = -K x - C x' - m g + f0 + fs sin(omega t) + contact forces."""

    def __init__(self, masses, K, C, g, f0, fs, omega, contacts):
        self.m = [mpf(x) for x in masses]
        self.n = len(self.m)
        self.K = [[mpf(x) for x in row] for row in K]
        self.C = [[mpf(x) for x in row] for row in C]
        self.g = mpf(g)
        self.f0 = [mpf(x) for x in f0]
        self.fs = [mpf(x) for x in fs]
        self.omega = mpf(omega)
        self.contacts = contacts
        self.modes = {}

    def mode(self, engaged):
        """The closed-form mode with the penalty contacts in `engaged` (a frozenset of indices)."""
        if engaged in self.modes:
            return self.modes[engaged]
        n = self.n
        K = [row[:] for row in self.K]
        C = [row[:] for row in self.C]
        f = [self.f0[i] - self.m[i] * self.g for i in range(n)]
        for j in engaged:
            ct = self.contacts[j]
            for a in range(n):
                f[a] -= ct.k * ct.g0 * ct.w[a]
                for b in range(n):
                    K[a][b] += ct.k * ct.w[a] * ct.w[b]
                    C[a][b] += ct.c * ct.w[a] * ct.w[b]
        flying = all(K[a][b] == 0 and C[a][b] == 0 for a in range(n) for b in range(n))
        if flying:
            if n != 1:
                raise ValueError("free bodies without springs: only one body may fly")
            md = FlightMode(f[0] / self.m[0], self.fs[0] / self.m[0], self.omega)
        else:
            A = [[mpf(0)] * (2 * n) for _ in range(2 * n)]
            for a in range(n):
                A[a][n + a] = mpf(1)
                for b in range(n):
                    A[n + a][b] = -K[a][b] / self.m[a]
                    A[n + a][n + b] = -C[a][b] / self.m[a]
            b0 = [mpf(0)] * n + [f[a] / self.m[a] for a in range(n)]
            bs = [mpf(0)] * n + [self.fs[a] / self.m[a] for a in range(n)]
            md = pw.Mode(A, b0=b0, bs=bs if any(bs) else None, w=self.omega)
        self.modes[engaged] = md
        return md

    def gap_fn(self, ct):
        """g = w . x + g0 as an event function of the state (x, v)."""
        return pw.LinearFn(ct.w + [0] * self.n, const=ct.g0)

    def pen_fn(self, ct):
        """p = -g."""
        return pw.LinearFn([-x for x in ct.w] + [0] * self.n, const=-ct.g0)

    def force_fn(self, ct):
        """The penalty force k p + c p' = -k g - c w . v, divided by k: p + (c/k) p'.

        Scaled to a length, so that piecewise's absolute threshold for an
        exact zero at the start of a mode (just after the entry) applies.
        """
        r = ct.c / ct.k
        return pw.LinearFn([-x for x in ct.w] + [-r * x for x in ct.w], const=-ct.g0)

    def gap(self, ct, y):
        return sum(a * b for a, b in zip(ct.w, y[:self.n])) + ct.g0

    def gap_rate(self, ct, y):
        return sum(a * b for a, b in zip(ct.w, y[self.n:]))

    def impact(self, ct, y):
        """State after a Newton impact on ct."""
        n = self.n
        u = self.gap_rate(ct, y)
        minv = sum(ct.w[i] ** 2 / self.m[i] for i in range(n))
        P = -(1 + ct.e) * u / minv
        v = [y[n + i] + ct.w[i] * P / self.m[i] for i in range(n)]
        return y[:n] + v


class FlightMode:
    """One body: x'' = a0 + as sin(omega t), exactly (polynomial plus sinusoid)."""

    def __init__(self, a0, a_s, omega):
        self.a0, self.a_s, self.omega = mpf(a0), mpf(a_s), mpf(omega)
        self.n = 2
        self.h = mpf("0.02") if self.omega == 0 else min(mpf("0.02"), 2 * mp.pi / self.omega / 64)

    def start(self, t0, y0):
        return FlightTrajectory(self, mpf(t0), [mpf(x) for x in y0])


class FlightTrajectory:
    """x(t) = P(t - t0) - (as/omega^2) sin(omega t), P a quadratic fixed by (t0, y0)."""

    def __init__(self, mode, t0, y0):
        self.mode, self.t0 = mode, t0
        x0, v0 = y0
        self.c0 = x0 - self.sinus(t0, 0)
        self.c1 = v0 - self.sinus(t0, 1)

    def sinus(self, t, k):
        """k-th derivative of the sinusoidal part -(as/omega^2) sin(omega t)."""
        m = self.mode
        if m.a_s == 0:
            return mpf(0)
        return -m.a_s / m.omega ** 2 * m.omega ** k * mp.sin(m.omega * t + k * mp.pi / 2)

    def poly(self, tau, k):
        a = self.mode.a0
        if k == 0:
            return self.c0 + self.c1 * tau + a * tau * tau / 2
        if k == 1:
            return self.c1 + a * tau
        return a if k == 2 else mpf(0)

    def d(self, t, k=0):
        tau = t - self.t0
        return [self.poly(tau, k) + self.sinus(t, k), self.poly(tau, k + 1) + self.sinus(t, k + 1)]

    def y(self, t):
        return self.d(t, 0)


class Cached:
    """A trajectory whose state derivatives are remembered per (t, order):
    every watched function evaluated at one instant shares them."""

    def __init__(self, traj):
        self.traj = traj
        self.memo = {}

    def d(self, t, k=0):
        key = (t, k)
        r = self.memo.get(key)
        if r is None:
            if len(self.memo) > 256:
                self.memo.clear()
            r = self.memo[key] = self.traj.d(t, k)
        return r

    def y(self, t):
        return self.d(t, 0)


def run(system, t_end, y0):
    """Events (t, kind, contact) of the run from y0 at t = 0, and (horizon, stop reason).

    The horizon is t_end, or the instant the physics stopped being followed
    (see the module comment); events are exact up to it.
    """
    t_end = mpf(t_end)
    cts = system.contacts
    status = ["open"] * len(cts)        # open, engaged, below (released with p > 0)
    t, y = mpf(0), [mpf(x) for x in y0]
    for j, ct in enumerate(cts):
        if not system.gap(ct, y) > 0:
            raise ValueError("contact %s does not start open" % ct.name)
    events = []
    while True:
        engaged = frozenset(j for j, s in enumerate(status) if s == "engaged")
        mode = system.mode(engaged)
        traj = Cached(mode.start(t, y))
        seg = (t, traj, list(status))
        fns, what = [], []
        for j, ct in enumerate(cts):
            if status[j] == "open":
                fns.append(system.gap_fn(ct))
                what.append((j, "enter" if ct.law == "penalty" else "impact"))
            elif status[j] == "engaged":
                fns.append(system.force_fn(ct) if ct.release == "force" else system.pen_fn(ct))
                what.append((j, "exit"))
            else:
                fns.append(system.pen_fn(ct))
                what.append((j, "emerge"))
                fns.append(neg(system.force_fn(ct)))
                what.append((j, "reengage"))
        t_lim = min(t_end, t + MAX_GRID * mode.h)
        te, idx = pw.first_zero(traj, fns, t, t_lim, mode.h, approach(traj, fns, t))
        audit(system, seg, te if te is not None else t_lim, fns)
        if te is None:
            if t_lim < t_end:
                return events, (t_lim, "persistent contact (mode lasts over %d grid steps)" % MAX_GRID)
            return events, (t_end, "t_end")
        j, kind = what[idx]
        ct = cts[j]
        y = traj.y(te)
        t = te
        if kind == "emerge":
            status[j] = "open"
            continue
        if kind == "reengage":
            return events, (t, "force of %s compressive again while penetrated" % ct.name)
        if kind == "enter":
            events.append((t, "contact_enter", ct.name))
            status[j] = "engaged"
        elif kind == "exit":
            events.append((t, "contact_exit", ct.name))
            status[j] = "open"
            if ct.release == "force" and system.gap(ct, y) < -pw.tiny():
                status[j] = "below"
                free = system.mode(engaged - {j}).start(t, y)
                f = system.force_fn(ct)
                if f.at(free, t, 1) >= 0:
                    return events, (t, "force of %s compressive again at its release" % ct.name)
        else:
            for i, other in enumerate(cts):
                if i != j and other.law == "impact" and abs(system.gap(other, y)) < pw.tiny():
                    return events, (t, "impact on %s with %s shut" % (ct.name, other.name))
            events.append((t, "impact", ct.name))
            u = system.gap_rate(ct, y)
            y = system.impact(ct, y)
            up = system.gap_rate(ct, y)
            if ct.e == 0 or up < ZENO_SPEED:
                return events, (t, "impact on %s at %s m/s leaves %s m/s (sticking or Zeno)"
                                % (ct.name, mp.nstr(u, 5), mp.nstr(up, 5)))
            nxt = mode.start(t, y)
            acc = system.gap_rate(ct, nxt.d(t, 1))
            if acc < 0 and 2 * up / -acc < ZENO_FLIGHT:
                return events, (t, "impact on %s: next flight %s s (Zeno cascade)"
                                % (ct.name, mp.nstr(2 * up / -acc, 5)))
        if len(events) >= MAX_EVENTS:
            return events, (t, "%d events" % MAX_EVENTS)


def neg(fn):
    """-fn."""
    return pw.LinearFn([-x for x in fn.cy], [-x for x in fn.cdy] if fn.cdy else None, -fn.const)



def approach(traj, fns, t0):
    """Shortest time s/(-s') in which a watched function heading for zero
    would reach it at its present rate, or None.

    first_zero brackets minima only after its first grid step; a function
    starting just above zero (a body released a hair below the surface) can
    cross zero and come back within that step.  Given this time scale,
    first_zero starts its grid at a fraction of it and doubles the step."""
    tau = None
    for fn in fns:
        v, dv = fn.at(traj, t0), fn.at(traj, t0, 1)
        if v > pw.tiny() and dv < 0:
            tau = v / -dv if tau is None else min(tau, v / -dv)
    return tau


def audit(system, seg, t1, fns):
    """Physics audit of a segment: at interior points every watched function
    is still positive (open gaps open, engaged contacts pressing or
    penetrated, released ones still below), so no event was skipped."""
    t0, traj, status = seg
    if t1 <= t0:
        return
    for i in range(1, 16):
        t = t0 + (t1 - t0) * i / 16
        for fn in fns:
            v = fn.at(traj, t)
            if v < 0:
                raise AssertionError("reference audit: an event function is %s at t = %s (statuses %s)"
                                     % (mp.nstr(v, 5), mp.nstr(t, 20), status))


def data_events(name):
    """Events (t, kind, contact) of a committed reference, data/<name>.events.csv."""
    import csv
    import os
    with open(os.path.join(pw.DATA_DIR, name + ".events.csv"), newline="") as f:
        rows = list(csv.reader(f))
    return [(mpf(r[0]), r[1], r[2]) for r in rows[1:] if r]


def selfcheck():
    """This generic reference against the dedicated ones on what they share:
    SDND108 B (damped penalty floor, both release laws, a mass released
    below the ground level with release = force) and the first 0.5 s of
    SDND121 (stiff undamped stop, forced).  Raises AssertionError on a
    difference above 1e-20 s."""
    cases = []
    for rel in ("force", "gap"):
        floor = Contact("floor", [1], 2, "penalty", k=100, c=5, release=rel)
        cases.append(("sdnd108b_" + rel, System([1], [[0]], [[0]], 10, [0], [0], 0, [floor]),
                      [0, -1], "1.1"))
    stop = Contact("stop", [-1], "1e-3", "penalty", k="1e10", c=0)
    cases.append(("sdnd121", System([156], [["2e6"]], [[0]], 0, [0], [3000], 10 * mp.pi, [stop]),
                  [0, 0], "0.5"))
    for name, system, y0, t_end in cases:
        got, _ = run(system, t_end, y0)
        want = [e for e in data_events(name) if e[0] <= mpf(t_end)]
        if len(got) != len(want) or any(a[1:] != b[1:] or abs(a[0] - b[0]) > mpf("1e-20")
                                         for a, b in zip(got, want)):
            raise AssertionError("eventdriven.selfcheck: %s: %s, data %s" % (name, got, want))
