"""Stick-slip phases of one Coulomb friction element, integrated in mpmath:
the scaffolding the references of models written by their energies share
(cart_friction.py, brush_pendulum.py).  A case supplies its phases (an
object with t0, mode, state(t) and event(t), event positive inside the
phase and 0 at its end: mode 0 stuck, s = +-1 slipping with slip sign s),
the friction force a stuck element needs at a state with its bound mu N,
its energy and its friction work; this module brackets each phase's end on
a grid, finds it by Illinois/bisection (piecewise.root), chains the phases
(a stick ends in a slip against the stuck force; a slip ends in a stick
inside the cone, else in a reversal), checks the energy of every phase
(stuck: constant; slipping: lost exactly by the friction work) and writes
the event and sample tables.
"""
import sys

from mpmath import mpf

import piecewise as pw


def phase_end(ph, t_end, grid, check=None):
    """The phase's first event after its start (None: none before t_end);
    check(ph, t), when given, runs at every grid point."""
    a = ph.t0
    fa = ph.event(a) if ph.mode == 0 else mpf(1)
    while a < t_end:
        b = min(a + grid, t_end)
        fb = ph.event(b)
        if check:
            check(ph, b)
        if fb <= 0:
            if a == ph.t0:     # the slip starts at 0: bracket from inside
                a = a + (b - a) / 1000
                fa = ph.event(a)
                pw.expect(fa > 0, "a slip opens after its start")
            return pw.root(ph.event, a, b, fa, fb)
        a, fa = b, fb
    return None


def slip_against(F):
    """The slip sign of an element leaving a stick whose force is F: the
    motion opposes the force the stick needed."""
    return -1 if F > 0 else 1


def after_slip(case, mode, y):
    """The mode after a slip of sign `mode` ends at state y (its slip
    velocity 0): stick inside the cone, else a reversal (checked to be one)."""
    F, bound = case.stuck_force(y)
    if abs(F) <= bound:
        return 0, "stick"
    new = slip_against(F)
    pw.expect(new != mode, "a slip ends in a stick or a reversal")
    return new, "reversal"


def run(case, t0, y0, mode):
    """Chains the phases from (t0, y0) in `mode` up to case.T_END.  Returns
    (phases, events): phases (t0, t1, phase, work at t0), events (t, kind,
    state, friction work up to t)."""
    work = mpf(0)
    phases, events = [], []
    while True:
        ph = case.Phase(t0, y0, mode)
        t1 = phase_end(ph, case.T_END, case.GRID, getattr(case, "check", None))
        end = t1 if t1 is not None else case.T_END
        phases.append((t0, end, ph, work))
        y1 = ph.state(end)
        if mode == 0:
            pw.expect(abs(case.energy(y1) - case.energy(y0)) < mpf("1e-22"),
                      "stuck: energy constant")
            if hasattr(case, "stuck_check"):
                case.stuck_check(y0, y1)
        else:
            w = case.work_over(ph, t0, end)
            pw.expect(abs(case.energy(y0) - case.energy(y1) - w) < mpf("1e-20"),
                      "slipping: energy lost = friction work")
            work += w
        if t1 is None:
            break
        if mode == 0:
            mode, kind = slip_against(case.stuck_force(y1)[0]), "slip"
        else:
            if hasattr(case, "at_rest"):
                case.at_rest(y1)
            mode, kind = after_slip(case, mode, y1)
        events.append((t1, kind, y1, work))
        t0, y0 = t1, y1
    return phases, events


def events_csv(events, header, pick):
    """The event table: t, kind, contact F, then pick(state) and the work."""
    rows = [header]
    for t, kind, y, w in events:
        rows.append(",".join([pw.fmt(t), kind, "F"] + [pw.fmt(v) for v in pick(y) + [w]]))
    return "\n".join(rows) + "\n"


def samples_csv(case, phases, header, count):
    """The sample table every 0.1 s for `count` samples: t, the state and
    the friction work up to t."""
    rows = [header]
    for i in range(count):
        t = mpf(i) / 10
        for a, _, ph, w0 in reversed(phases):
            if a <= t:
                y = ph.state(t)
                w = w0 if ph.mode == 0 or t == a else w0 + case.work_over(ph, a, t)
                break
        rows.append(",".join(pw.fmt(v) for v in [t] + list(y) + [w]))
    return "\n".join(rows) + "\n"


def main(name, compute):
    """The command line of a stick-slip reference: --selftest runs its
    computation and self-checks only; else piecewise.main (write, or
    --check against the committed data)."""
    if "--selftest" in sys.argv[1:]:
        compute()
        print("%s: self-checks passed" % name)
    else:
        pw.main(compute())
