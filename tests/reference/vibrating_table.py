"""Reference for vibrating_table: a ball on a table that moves as y_t = A sin(w t).

The ball (gravity g) falls from x0 at rest onto the table, whose
acceleration A w^2 exceeds g, so the ball is thrown off it every cycle.
Between events everything is closed form:

- free flight: x(t) = x0 + v0 (t - t0) - g (t - t0)^2 / 2, and the gap
  f(t) = x(t) - A sin(w t);
- impact at t_i: Newton's law on the velocity relative to the table,
  u = v - A w cos(w t_i), u+ = -e u-;
- a cascade of impacts whose relative velocity falls below 5e-20 has
  reached its accumulation point (its remaining flights last less than
  1e-20 s): the ball sticks there (zeno, stick);
- stuck on the table, x = A sin(w t) and the contact force is
  m (g - A w^2 sin(w t)): the ball lifts off when the table's downward
  acceleration reaches g, at w t = asin(g / (A w^2)) + 2 pi k (the force
  falling through 0).

Impacts are located with a march that cannot step over a zero: at a point
where f > 0 the next point is where the lower bound f + f' s - M s^2 / 2
(M = g + A w^2 >= |f''|) first reaches 0, so no zero lies in between; the
march ends at a zero to the working precision, which is then bracketed and
polished by bisection.  After an impact (f = 0, f' = u+ > 0) the march starts
at u+/M, where f >= u+^2 / (2M) > 0; after a lift-off (f = f' = f'' = 0,
f''' = A w^3 cos(w t) > 0) at 2 f'''/M4 with M4 = A w^4 >= |f''''|.  No
ODE is integrated.

The energy: kinetic + gravity changes by the table's work on the ball
(held: the contact force times the ball's velocity; at impacts: the impulse
times the table's velocity) minus the impacts' dissipation (1 - e^2) m u-^2/2;
checked on every segment.

Also `moving_wall`: a block on a line hit by a wall moving at constant
velocity (gap B.x - (x_w + c t) >= 0), checked against its closed form.
"""
from mpmath import mp, mpf

import piecewise as pw

mp.dps = 50

M_BALL = mpf(1)
A, W, G, E = mpf("0.01"), mpf(40), mpf("9.81"), mpf("0.3")
X0 = mpf("0.05")
T_END = mpf("0.6")
U_STOP = mpf("5e-20")       # relative velocity at which a cascade has accumulated


def table(t, k=0):
    """k-th derivative of the table's height A sin(w t)."""
    return A * W ** k * mp.sin(W * t + k * mp.pi / 2)


class Flight:
    """Free flight from (t0, x0, v0)."""

    def __init__(self, t0, x0, v0):
        self.t0, self.x0, self.v0 = mpf(t0), mpf(x0), mpf(v0)

    def x(self, t, k=0):
        tau = t - self.t0
        if k == 0:
            return self.x0 + self.v0 * tau - G * tau * tau / 2
        if k == 1:
            return self.v0 - G * tau
        return -G if k == 2 else mpf(0)

    def gap(self, t, k=0):
        return self.x(t, k) - table(t, k)


def first_zero(fl, start, t_end):
    """First zero of the flight's gap after `start` (where it is > 0), or None."""
    M = G + A * W * W
    eps = mpf(10) ** (-(mp.dps - 8))
    tau = start
    f = fl.gap(tau)
    pw.expect(f > 0, "gap positive where the march starts")
    for _ in range(100000):
        d = fl.gap(tau, 1)
        s = (d + mp.sqrt(d * d + 2 * M * f)) / M     # lower bound reaches 0 here
        nxt = tau + s
        if nxt > t_end:
            return None
        fn = fl.gap(nxt)
        pw.expect(fn >= -eps, "march stepped over a zero")
        if fn <= eps:
            # at the zero to working precision: bracket and polish
            dn = fl.gap(nxt, 1)
            pw.expect(dn < 0, "a transversal zero")
            b = nxt + 4 * abs(fn) / abs(dn) + eps
            pw.expect(fl.gap(b) < 0, "bracket after the zero")
            a = tau
            return pw.root(lambda t: fl.gap(t), a, b, fl.gap(a), fl.gap(b))
        tau, f = nxt, fn
    raise AssertionError("march did not converge")


def liftoff_after(t):
    """First instant >= t where the held ball's force m (g - A w^2 sin(w t)) falls through 0."""
    r = G / (A * W * W)
    phi = mp.asin(r)
    k = mp.ceil((W * t - phi) / (2 * mp.pi))
    return (phi + 2 * mp.pi * k) / W


def compute():
    rec = pw.Record(["B"])
    t, x, v = mpf(0), X0, mpf(0)
    fl = Flight(t, x, v)
    rec.segment(t, lambda s, fl=fl: [fl.x(s), fl.x(s, 1)], "free")
    start = t
    impacts = 0
    energy = [M_BALL * v * v / 2 + M_BALL * G * x]   # kinetic + gravity
    work = mpf(0)
    lost = mpf(0)
    jumps = []          # (t, work, lost) of each impulse
    held = []           # (t_stick, t_liftoff) of each stuck phase
    while True:
        ti = first_zero(fl, start, T_END)
        if ti is None:
            break
        xi, vi = fl.x(ti), fl.x(ti, 1)
        tv = table(ti, 1)
        um = vi - tv
        pw.expect(um < 0, "closing at an impact")
        up = -E * um
        vp = up + tv
        impacts += 1
        rec.event(ti, "impact", "floor")
        # energy: the impulse m (vp - vi) does work m (vp - vi) tv; loss (1 - e^2) m um^2 / 2
        work += M_BALL * (vp - vi) * tv
        lost += (1 - E * E) * M_BALL * um * um / 2
        jumps.append((ti, M_BALL * (vp - vi) * tv, (1 - E * E) * M_BALL * um * um / 2))
        ek = M_BALL * vp * vp / 2 + M_BALL * G * xi
        pw.expect(abs(ek - (energy[0] + work - lost)) < mpf("1e-30"), "energy balance at an impact")
        if up < U_STOP:
            # the cascade has accumulated: stick (the last relative velocity
            # up, below 5e-20, is taken out by a plastic impulse), then lift off
            work += -M_BALL * up * tv
            lost += M_BALL * up * up / 2
            jumps.append((ti, -M_BALL * up * tv, M_BALL * up * up / 2))
            rec.event(ti, "zeno", "floor")
            rec.event(ti, "stick", "floor")
            pw.expect(G + table(ti, 2) > 0, "compressive force where the ball sticks")
            rec.segment(ti, lambda s: [table(s), table(s, 1)], "stuck")
            ts = liftoff_after(ti)
            held.append((ti, min(ts, T_END)))
            if ts > T_END:
                break
            pw.expect(abs(G + table(ts, 2)) < mpf("1e-45"), "table's downward acceleration is g at lift-off")
            # held: the contact force m (g + a_t) does work int m (g + a_t) v_t dt
            # = m g (x_t(ts) - x_t(ti)) + m (v_t(ts)^2 - v_t(ti)^2) / 2
            work += M_BALL * G * (table(ts) - table(ti)) + M_BALL * (table(ts, 1) ** 2 - table(ti, 1) ** 2) / 2
            rec.event(ts, "separation", "floor")
            t, x, v = ts, table(ts), table(ts, 1)
            fl = Flight(t, x, v)
            rec.segment(t, lambda s, fl=fl: [fl.x(s), fl.x(s, 1)], "free")
            c3 = -table(t, 3)                      # f''' of the gap at lift-off
            pw.expect(c3 > 0, "the gap opens with a positive third derivative")
            start = t + 2 * c3 / (A * W ** 4)
            pw.expect(fl.gap(start) > 0, "gap open just after lift-off")
            continue
        fl = Flight(ti, xi, vp)
        rec.segment(ti, lambda s, fl=fl: [fl.x(s), fl.x(s, 1)], "free")
        start = ti + up / (G + A * W * W)
    rec.audit(T_END, {
        "free": lambda s, y: y[0] - table(s),
        "stuck": lambda s, y: G - A * W * W * mp.sin(W * s),
    })
    pw.expect(impacts > 10, "a chattering cascade")
    times = pw.grid(0, T_END, "0.01")
    return [("vibrating_table", pw.events_text(rec), pw.samples_text(rec, times))], \
        work_text(times, jumps, held)


def held_work(t0, t1):
    """Work of the table on the held ball over [t0, t1]: the contact force
    m (g + a_t) times v_t, integrated: m g (x_t(t1) - x_t(t0)) + m (v_t^2 / 2)."""
    return M_BALL * G * (table(t1) - table(t0)) + M_BALL * (table(t1, 1) ** 2 - table(t0, 1) ** 2) / 2


def work_text(times, jumps, held):
    """The table's work on the ball and the impacts' dissipation up to each sample time."""
    lines = ["t,injected,dissipated"]
    for t in times:
        w = mp.fsum(dw for tj, dw, _ in jumps if tj < t)   # a sample at an event: before it
        d = mp.fsum(dl for tj, _, dl in jumps if tj < t)
        w += mp.fsum(held_work(a, min(b, t)) for a, b in held if a < t)
        lines.append("%s,%s,%s" % (pw.fmt(t), pw.fmt(w), pw.fmt(d)))
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------ moving wall

WALL_X0, WALL_C, E_WALL = mpf("-0.5"), mpf("0.25"), mpf("0.8")
T_WALL = mpf(3)


def moving_wall():
    """A free block at rest at 0, a wall at x_w(t) = -0.5 + 0.25 t behind it
    (gap B.x - x_w(t) >= 0), restitution 0.8: impact at t1 = 2, after which
    the block moves at v = c + e c = 0.45 m/s, away from the wall (0.25 m/s):
    no further contact.  Closed form, checked against the march."""
    rec = pw.Record(["B"])
    fl_t1 = (0 - WALL_X0) / WALL_C
    rec.segment(0, lambda s: [mpf(0), mpf(0)], "free")
    rec.event(fl_t1, "impact", "wall")
    v1 = WALL_C + E_WALL * WALL_C
    rec.segment(fl_t1, lambda s: [v1 * (s - fl_t1), v1], "free")
    rec.audit(T_WALL, {"free": lambda s, y: y[0] - (WALL_X0 + WALL_C * s)})
    pw.expect(abs(fl_t1 - 2) == 0, "impact at t = 2")
    times = pw.grid(0, T_WALL, "0.1")
    # the wall's impulse m (v1 - 0) at its velocity c; the loss (1 - e^2) m c^2 / 2
    work, diss = v1 * WALL_C, (1 - E_WALL ** 2) * WALL_C ** 2 / 2
    pw.expect(abs(work - diss - v1 ** 2 / 2) < mpf("1e-45"), "the wall's work = kinetic energy + loss")
    jumps = [(fl_t1, work, diss)]
    return [("moving_wall", pw.events_text(rec), pw.samples_text(rec, times))], \
        work_text(times, jumps, [])


def main():
    import os
    import sys
    out, work = compute()
    out2, work2 = moving_wall()
    for name, text in (("vibrating_table", work), ("moving_wall", work2)):
        path = os.path.join(pw.DATA_DIR, name + ".work.csv")
        if "--check" in sys.argv[1:]:
            errs = pw.compare(path, text)
            if errs:
                for e in errs:
                    print(e, file=sys.stderr)
                sys.exit(1)
        else:
            with open(path, "w") as f:
                f.write(text)
    pw.main(out + out2)


if __name__ == "__main__":
    main()
