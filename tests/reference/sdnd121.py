"""Reference for sdnd121 (code_aster SDND121): forced oscillator against a stiff stop.

m x'' + k x = F0 sin(2 pi f t) while x <= jeu (free), and
m x'' + k x + kc (x - jeu) = F0 sin(2 pi f t) while x > jeu (penalty contact,
no damping, so the force kc p and the penetration p = x - jeu vanish
together: contact_exit when p returns to 0).  Both modes are solved in closed
form (undamped oscillator plus the particular sinusoid); every contact entry
and exit is located to full precision.  Self-checks: the energy balance
m v^2/2 + k x^2/2 + kc p^2/2 = int F v dt across the first segments, and
that the contacts last about pi/sqrt((k + kc)/m).
"""
import sys

from mpmath import mp, mpf

import piecewise as pw

mp.dps = 50

M, K, KC, JEU = mpf(156), mpf("2e6"), mpf("1e10"), mpf("1e-3")
F0, FREQ = mpf(3000), mpf(5)
W = 2 * mp.pi * FREQ
T_END = mpf(4)


def compute():
    free = pw.Mode([[0, 1], [-K / M, 0]], bs=[0, F0 / M], w=W)
    contact = pw.Mode([[0, 1], [-(K + KC) / M, 0]], b0=[0, KC * JEU / M], bs=[0, F0 / M], w=W)
    gap = pw.LinearFn([-1, 0], const=JEU)
    pen = pw.LinearFn([1, 0], const=-JEU)
    rec = pw.Record(["M"])
    t, y, incontact = mpf(0), [mpf(0), mpf(0)], False
    segs = []
    while True:
        mode, fn = (contact, pen) if incontact else (free, gap)
        traj = mode.start(t, y)
        rec.segment(t, traj.y, "contact" if incontact else "free")
        te, _ = pw.first_zero(traj, [fn], t, T_END, mode.h)
        segs.append((t, te if te is not None else T_END, traj, incontact))
        if te is None:
            break
        x, v = traj.y(te)
        pw.expect(abs(x - JEU) < mpf("1e-45"), "event on the stop plane")
        rec.event(te, "contact_exit" if incontact else "contact_enter", "stop")
        t, y, incontact = te, [JEU, v], not incontact
    check(rec, segs)
    rec.audit(T_END, {"free": lambda t, s: JEU - s[0], "contact": lambda t, s: s[0] - JEU})
    times = pw.grid(0, T_END, "0.1")
    return [("sdnd121", pw.events_text(rec), pw.samples_text(rec, times))]


def energy(x, v):
    p = max(x - JEU, 0)
    return M * v * v / 2 + K * x * x / 2 + KC * p * p / 2


def check(rec, segs):
    wc = mp.sqrt((K + KC) / M)
    for t0, t1, traj, incontact in segs[:-1]:
        if incontact:
            pw.expect(abs((t1 - t0) * wc / mp.pi - 1) < mpf("0.05"), "contact lasts ~pi/wc")
    for t0, t1, traj, incontact in segs[:6]:
        inj = mp.quad(lambda s: F0 * mp.sin(W * s) * traj.y(s)[1], [t0, t1])
        dE = energy(*traj.y(t1)) - energy(*traj.y(t0))
        pw.expect(abs(dE - inj) < mpf("1e-35"), "energy balance on a segment")
    pw.expect(len(rec.events) > 100, "about 140 contact events")


if __name__ == "__main__":
    pw.main(compute())
