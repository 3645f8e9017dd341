"""Reference for friction_two_mass: a forced two-mass oscillator with friction.

M1 (1 kg) on a spring k1 = 1 N/m to the ground, rubbing on it (F1: N = 1 N,
mu_s = 0.4, mu_k = 0.3); M2 (1 kg) on a spring k2 = 1 N/m to M1, rubbing on
M1 (F2, on M2.v - M1.v: N = 1 N, mu_s = 0.5, mu_k = 0.35), driven by
1.5 sin(0.8 t) N; both start at rest at 0.  Both elements start stuck.

Independent checks: while both are stuck nothing moves, and F1 slips first
when the drive's force reaches mu_s N of F1 (with F2 holding, the drive
acts on both masses through F2): 1.5 sin(0.8 t) = 0.4, t = asin(0.4/1.5)/0.8;
the energy balance of every phase (kinetic + spring energy changes by the
drive's work minus mu_k N |slip| integrated), by Gauss-Legendre quadrature of the closed form.
"""
from mpmath import mp, mpf

import friction as fr
import piecewise as pw

mp.dps = 60
T_END = mpf(20)


def compute():
    s = fr.System([1, 1], [[2, -1], [-1, 1]],
                  [dict(name="F1", w=[1, 0], N=1, mus="0.4", muk="0.3"),
                   dict(name="F2", w=[-1, 1], N=1, mus="0.5", muk="0.35")],
                  fs=[0, "1.5"], w="0.8")
    s.names = ["M1", "M2"]
    rec, log = fr.run(s, [0, 0], [0, 0], T_END)
    kinds = set(k for _, k, _ in rec.events)
    pw.expect(kinds == {"stick", "slip", "reversal"}, "stick, slip and reversal in one run")
    t1 = mp.asin(mpf("0.4") / mpf("1.5")) / mpf("0.8")
    pw.expect(rec.events[2][1:] == ("slip", "F1") and abs(rec.events[2][0] - t1) < mpf("1e-40"),
              "F1 slips first when the drive reaches mu_s N")
    # energy balance of each phase, by quadrature on the closed form
    ends = rec.seg_t[1:] + [T_END]
    for t0, t1_, f, tag in zip(rec.seg_t, ends, rec.seg_f, rec.seg_tag):
        if t1_ - t0 < mpf("1e-6"):
            continue
        st = [int(x) for x in tag.split(",")]
        E = lambda y: (y[1] ** 2 + y[3] ** 2 + y[0] ** 2 + (y[2] - y[0]) ** 2) / 2
        def power(t):
            y = f(t)
            p = mpf("1.5") * mp.sin(mpf("0.8") * t) * y[3]
            if st[0]:
                p -= mpf("0.3") * abs(y[1])
            if st[1]:
                p -= mpf("0.35") * abs(y[3] - y[1])
            return p
        # 24-point Gauss-Legendre on each of 4 pieces (the power is smooth
        # inside a phase): good to far below the 1e-12 asked
        with mp.workdps(30):
            work = mp.fsum(mp.quadgl(power, [t0 + (t1_ - t0) * q / 4, t0 + (t1_ - t0) * (q + 1) / 4],
                                     maxdegree=3) for q in range(4))
        pw.expect(abs(E(f(t1_)) - E(f(t0)) - work) < mpf("1e-12"),
                  "energy balance of a phase (%s)" % mp.nstr(E(f(t1_)) - E(f(t0)) - work, 5))
    times = pw.grid(0, T_END, "0.01")
    return [("friction_two_mass", pw.events_text(rec), pw.samples_text(rec, times))]


if __name__ == "__main__":
    pw.main(compute())
