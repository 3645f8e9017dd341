"""Reference for sliding_block: friction whose normal force is a contact force.

A block's horizontal coordinate X (1 kg, spring 1 N/m to the ground, driven
by 8 sin t N) rubs on the floor that holds its vertical coordinate Y, pressed
down by 9.81 + 3 sin t N: while Y rests on the floor the floor's contact
force, the friction's normal force, is N(t) = 9.81 + 3 sin t (the reference
takes it in closed form; the model gets it from the gap).  mu_s = 0.4,
mu_k = 0.3, from rest.

Independent check: X starts stuck at rest at 0 (no spring force) and slips
first when the drive reaches mu_s N(t): 8 sin t = 0.4 (9.81 + 3 sin t),
sin t = 3.924/6.8.
"""
from mpmath import mp, mpf

import friction as fr
import piecewise as pw

mp.dps = 60
T_END = mpf(15)


def compute():
    s = fr.System([1], [[1]], [dict(name="F", w=[1], N="9.81", Ns=3, mus="0.4", muk="0.3")],
                  fs=[8], w=1)
    s.names = ["X"]
    rec, log = fr.run(s, [0], [0], T_END)
    kinds = set(k for _, k, _ in rec.events)
    pw.expect("slip" in kinds and "stick" in kinds, "the block sticks and slips")
    # stuck at rest from t = 0: it slips when 5 sin t reaches mu_s N(t)
    t1 = mp.asin(mpf("0.4") * mpf("9.81") / (8 - mpf("0.4") * 3))
    pw.expect(rec.events[1][1] == "slip" and abs(rec.events[1][0] - t1) < mpf("1e-40"),
              "first slip where 8 sin t = mu_s (9.81 + 3 sin t)")
    times = pw.grid(0, T_END, "0.01")
    return [("sliding_block", pw.events_text(rec), pw.samples_text(rec, times))]


if __name__ == "__main__":
    pw.main(compute())
