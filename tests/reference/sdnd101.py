"""Reference for sdnd101 (code_aster SDND101 style): a stop with zero gap.

m = 100 kg on a spring k = 1e4 N/m relaxed at x = 0; a penalty stop of
stiffness ks = 1e6 N/m occupies x > 0 (force ks x while x > 0, no damping).
Geometry chosen here: the mass starts AT the stop, x0 = 0, moving INTO it with
v0 = +1 m/s, so the contact begins at t = 0 (recorded as contact_enter at 0).
It stays pi/wc in the stop (wc^2 = (k + ks)/m), leaves it with v = -1, swings
through x < 0 for pi/wf (wf^2 = k/m) and re-enters with v = +1: the motion is
periodic with period pi/wc + pi/wf.  Run to 2 s.
"""
from mpmath import mp, mpf

import piecewise as pw

mp.dps = 50

M, K, KS, V0 = mpf(100), mpf("1e4"), mpf("1e6"), mpf(1)
T_END = mpf(2)


def compute():
    free = pw.Mode([[0, 1], [-K / M, 0]])
    contact = pw.Mode([[0, 1], [-(K + KS) / M, 0]])
    gap = pw.LinearFn([-1, 0])
    pen = pw.LinearFn([1, 0])
    rec = pw.Record(["M"])
    t, y, incontact = mpf(0), [mpf(0), V0], True
    rec.event(0, "contact_enter", "stop")
    while True:
        mode, fn = (contact, pen) if incontact else (free, gap)
        traj = mode.start(t, y)
        rec.segment(t, traj.y, "contact" if incontact else "free")
        te, _ = pw.first_zero(traj, [fn], t, T_END, mode.h)
        if te is None:
            break
        v = traj.y(te)[1]
        pw.expect(abs(M * v * v / 2 - M * V0 * V0 / 2) < mpf("1e-40"), "energy conserved")
        rec.event(te, "contact_exit" if incontact else "contact_enter", "stop")
        t, y, incontact = te, [mpf(0), v], not incontact
    rec.audit(T_END, {"free": lambda t, s: -s[0], "contact": lambda t, s: s[0]})
    wc, wf = mp.sqrt((K + KS) / M), mp.sqrt(K / M)
    period = mp.pi / wc + mp.pi / wf
    for i, (te, kind, _) in enumerate(rec.events):
        n = i // 2
        want = n * period + (mp.pi / wc if kind == "contact_exit" else 0)
        pw.expect(abs(te - want) < mpf("1e-40"), "event %d at the closed-form time" % i)
    times = pw.grid(0, T_END, "0.01")
    return [("sdnd101", pw.events_text(rec), pw.samples_text(rec, times))]


if __name__ == "__main__":
    pw.main(compute())
