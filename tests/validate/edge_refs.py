"""Closed-form references for the validation edge cases (tests/validate/models).

Every edge case moves under constant or polynomial forces, so its motion is a
polynomial in time between events and the events fall on exact rational
instants (time switches too: their conditions have rational roots).  The references are evaluated with fractions.Fraction (exact
rational arithmetic) and written, like those of tests/reference/data, as an
event file `t,kind,contact` and a sample file `t,<BODY>.x,<BODY>.v,...`.
Nothing here runs or imitates the simulator.
"""
import os
from fractions import Fraction as Q

GRID = Q(1, 100)   # the models' output period, 10 ms (unless a case says otherwise)


def closed_stuck(t):
    """closed_start at its defaults: F = 20 N/s * t against m g = 10 N.

    The floor force m g - r t stays compressive until t = 1/2 s: the mass is
    held from t = 0 (stick) and separates at 1/2 s.  After that
    x'' = 20 (t - 1/2), so v = 10 (t - 1/2)^2 and x = 10/3 (t - 1/2)^3.
    """
    if t <= Q(1, 2):
        return [(Q(0), Q(0))]
    s = t - Q(1, 2)
    return [(Q(10, 3) * s ** 3, 10 * s ** 2)]


def closed_free(t):
    """closed_start with F0 = 15 N, r = 0: the net force +5 N lifts the mass at once.

    x = 5/2 t^2, v = 5 t; the floor never holds it (no stick at t = 0).
    """
    return [(Q(5, 2) * t * t, 5 * t)]


def time_impact(t):
    """time_impact: fall from 1 m at g = 8, impact at 1/2 s with v = -4.

    e = 1/2 sends it up at 2 m/s; from 1/2 s the extra 4 N makes the
    acceleration -12, so it lands again after 1/3 s (at 5/6 s, v = -2) and
    leaves at 1 m/s; the next landing (at 1 s) is past the end, 0.95 s.
    """
    if t <= Q(1, 2):
        return [(1 - 4 * t * t, -8 * t)]
    if t <= Q(5, 6):
        s = t - Q(1, 2)
        return [(2 * s - 6 * s * s, 2 - 12 * s)]
    s = t - Q(5, 6)
    return [(s - 6 * s * s, 1 - 12 * s)]


def two_gaps(t):
    """two_gaps: M1 and M3 reach the resting M2 together at t = 1 s.

    Sequential impacts (docs/theory.md section 10), equal masses, e = 1: both
    gaps close at 1 m/s, G1 goes first on the tie (M1 stops, M2 takes 1 m/s),
    then G2 closing at 2 m/s (M2 and M3 swap: -1 and 1 m/s), then G1 again
    at 1 m/s (M1 takes -1 m/s, M2 stops): the outer masses reversed, M2 at
    rest, both gaps opening at 1 m/s, as one impulse problem over both
    contacts at once would give too.
    """
    if t <= 1:
        return [(-1 + t, Q(1)), (Q(0), Q(0)), (1 - t, Q(-1))]
    s = t - 1
    return [(-s, Q(-1)), (Q(0), Q(0)), (s, Q(1))]


def tend_impact(t):
    """tend_impact: fall from 1 m at g = 8 lands at t = 1/2 s = t_end."""
    return [(1 - 4 * t * t, -8 * t)]


def start_impact(t):
    """start_impact: from x = 0 at -2 m/s, e = 1/2 at t = 0 gives +1 m/s.

    Under g = 8, x = t - 4 t^2 lands at 1/4 s with v = -1, which e turns
    into +1/2: then x = s/2 - 4 s^2 (s = t - 1/4) up to t_end = 0.3 s.
    """
    if t <= Q(1, 4):
        return [(t - 4 * t * t, 1 - 8 * t)]
    s = t - Q(1, 4)
    return [(s / 2 - 4 * s * s, Q(1, 2) - 8 * s)]


def pulse(t):
    """pulse: 1 N on 1 kg while (t - 31/100)(35/100 - t) > 0, from rest.

    The force acts from 0.31 s to 0.35 s (both roots rational): x = (t -
    0.31)^2 / 2 during the pulse, then v = 1/25 m/s and x = 1/1250 m +
    (t - 0.35) / 25.  The step and the sample period are 100 ms, so neither
    end of the step that holds the pulse sees the force on.
    """
    on, off = Q(31, 100), Q(35, 100)
    if t <= on:
        return [(Q(0), Q(0))]
    if t <= off:
        return [((t - on) ** 2 / 2, t - on)]
    return [((off - on) ** 2 / 2 + (off - on) * (t - off), off - on)]


CASES = {
    "closed_stuck": dict(fn=closed_stuck, t_end=Q(1), bodies=["B"],
                         events=[(Q(0), "stick", "floor"), (Q(1, 2), "separation", "floor")],
                         title="Edge case: contact closed at t = 0 and held (stuck), released at 0.5 s"),
    "closed_free": dict(fn=closed_free, t_end=Q(1), bodies=["B"], set=["F0=15", "r=0"], events=[],
                        title="Edge case: contact closed at t = 0 but pulled open (not stuck)"),
    "time_impact": dict(fn=time_impact, t_end=Q(95, 100), bodies=["B"],
                        events=[(Q(1, 2), "impact", "floor"), (Q(1, 2), "time", "switch0"),
                                (Q(5, 6), "impact", "floor")],
                        title="Edge case: impact exactly at a time event"),
    "two_gaps": dict(fn=two_gaps, t_end=Q(2), bodies=["M1", "M2", "M3"],
                     events=[(Q(1), "impact", "G1"), (Q(1), "impact", "G2"), (Q(1), "impact", "G1")],
                     title="Edge case: two gaps closing at the same instant"),
    "tend_impact": dict(fn=tend_impact, t_end=Q(1, 2), bodies=["B"],
                        events=[(Q(1, 2), "impact", "floor")],
                        title="Edge case: a gap closing at t_end"),
    "start_impact": dict(fn=start_impact, t_end=Q(3, 10), bodies=["B"],
                         events=[(Q(0), "impact", "floor"), (Q(1, 4), "impact", "floor")],
                         title="Edge case: a contact touching and closing at t = 0 (impact at once)"),
    "pulse": dict(fn=pulse, t_end=Q(1), bodies=["B"], grid=Q(1, 10),
                  events=[(Q(31, 100), "time", "switch0"), (Q(35, 100), "time", "switch0")],
                  title="Edge case: a force pulse shorter than the step (both switches inside one step)"),
}


def fmt(q):
    """A rational as a decimal with 25 significant digits."""
    if q == 0:
        return "0"
    return "%.25g" % q if q.denominator == 1 else _dec(q)


def _dec(q):
    """A non-integer rational as a 25-digit decimal string."""
    from decimal import Decimal, getcontext
    getcontext().prec = 25
    return str(Decimal(q.numerator) / Decimal(q.denominator))


def write(name, workdir):
    """Writes <name>.events.csv and <name>.samples.csv into workdir; returns their paths."""
    c = CASES[name]
    ev = os.path.join(workdir, name + ".ref.events.csv")
    sm = os.path.join(workdir, name + ".ref.samples.csv")
    with open(ev, "w") as f:
        f.write("t,kind,contact\n")
        for t, kind, contact in c["events"]:
            f.write("%s,%s,%s\n" % (fmt(t), kind, contact))
    with open(sm, "w") as f:
        f.write("t," + ",".join("%s.x,%s.v" % (b, b) for b in c["bodies"]) + "\n")
        k, grid = 0, c.get("grid", GRID)
        while k * grid <= c["t_end"]:
            t = k * grid
            vals = []
            for x, v in c["fn"](t):
                vals += [fmt(x), fmt(v)]
            f.write(fmt(t) + "," + ",".join(vals) + "\n")
            k += 1
    return ev, sm
