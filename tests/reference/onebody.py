"""One body on a line between rigid stops, with Newton restitution and Zeno cascades.

m x'' = -k x - m g between impacts (spring relaxed at x = 0; k may be 0).
Rigid stops: a floor x >= lo and optionally a ceiling x <= hi.  At an impact
v+ = -e v-.  A Zeno cascade (e < 1 with gravity pressing the body onto the
floor) is followed impact by impact until the next flight time drops below
ZENO_TAU; the geometric tail of the cascade, tau/(1 - e), then gives the
accumulation point.  There the body sticks if the floor force m g + k lo is
compressive, and it stays at rest since that force is constant.
"""
from mpmath import mp, mpf

import piecewise as pw

ZENO_TAU = mpf("1e-30")


class Body:
    def __init__(self, m, k, g, e, lo, hi=None, h=mpf("0.05")):
        self.m, self.k, self.g, self.e = mpf(m), mpf(k), mpf(g), mpf(e)
        self.lo = mpf(lo)
        self.hi = None if hi is None else mpf(hi)
        A = [[0, 1], [-self.k / self.m, 0]]
        b = [0, -self.g]
        if self.k == 0:
            self.mode = pw.NilpotentMode(A, b, h)
        else:
            self.mode = pw.Mode(A, b)
        self.gaps = [("floor", pw.LinearFn([1, 0], const=-self.lo))]
        if self.hi is not None:
            self.gaps.append(("ceiling", pw.LinearFn([-1, 0], const=self.hi)))

    def energy(self, x, v):
        """Mechanical energy m v^2/2 + k x^2/2 + m g x (conserved in flight)."""
        return self.m * v * v / 2 + self.k * x * x / 2 + self.m * self.g * x

    def floor_force_at_rest(self):
        """Floor force holding the body at rest on the floor."""
        return self.m * self.g + self.k * self.lo


def audit(body, rec, t_end):
    """The body never goes through the floor or the ceiling."""
    checks = {"flight": lambda t, s: s[0] - body.lo}
    if body.hi is not None:
        checks["flight"] = lambda t, s: min(s[0] - body.lo, body.hi - s[0])
    rec.audit(t_end, checks)


def run(body, x0, v0, t_end, name="B", zeno_tau=ZENO_TAU):
    """Simulates to t_end; returns the Record and a summary dict."""
    rec = pw.Record([name])
    t = mpf(0)
    y = [mpf(x0), mpf(v0)]
    t_end = mpf(t_end)
    tau = None
    impacts = []
    summary = {"zeno": None, "impacts": impacts, "max_energy_drift": mpf(0)}
    while True:
        traj = body.mode.start(t, y)
        rec.segment(t, traj.y, "flight")
        fns = [f for _, f in body.gaps]
        ti, idx = pw.first_zero(traj, fns, t, t_end, body.mode.h, tau)
        if ti is None:
            audit(body, rec, t_end)
            return rec, summary
        x, v = traj.y(ti)
        e0 = body.energy(*y)
        summary["max_energy_drift"] = max(summary["max_energy_drift"],
                                          abs(body.energy(x, v) - e0) / max(1, abs(e0)))
        cname = body.gaps[idx][0]
        x = body.lo if cname == "floor" else body.hi
        rec.event(ti, "impact", cname)
        impacts.append((ti, cname, v))
        v = -body.e * v
        t, y = ti, [x, v]
        tau = None
        if cname != "floor" or body.e >= 1:
            continue
        traj = body.mode.start(t, y)
        acc = traj.d(t, 1)[1]
        if acc >= 0:
            continue
        tau = 2 * v / -acc
        if tau >= zeno_tau:
            continue
        rec.segment(t, traj.y, "flight")
        ts = t + tau / (1 - body.e)
        summary["zeno"] = (ts, len(impacts))
        rec.event(ts, "zeno", "floor")
        pw.expect(body.floor_force_at_rest() > 0, "floor force compressive at rest")
        rec.event(ts, "stick", "floor")
        lo = body.lo
        rec.segment(ts, lambda tt: [lo, mpf(0)], "rest")
        audit(body, rec, t_end)
        return rec, summary
